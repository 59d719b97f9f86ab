package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// Terraform drops the keys of an object value that its type does not have, silently: a `cpu` written beside
// a DaemonSet's `requests` rather than in it, or an `instance_type` in a recommendation's `pool`, would be
// ignored. The attributes here exist only so that such a key is seen and refused, on itself, with what to
// write instead. They are inputs only: kubefit_workloads leaves them out of its outputs.

// misplacedKey is a validator that refuses any value of an attribute a user is likely to write in the wrong
// place; detail says where it belongs. An unknown value waits: it may turn out null, and Terraform validates the
// configuration again once it is known (the final plan of a resource, the read of a data source).
type misplacedKey struct{ summary, detail string }

func (v misplacedKey) Description(context.Context) string { return "refused: " + v.detail }

func (v misplacedKey) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v misplacedKey) refuse(p path.Path, value attr.Value, diags *diag.Diagnostics) {
	if value.IsNull() || value.IsUnknown() {
		return
	}
	diags.AddAttributeError(p, v.summary, v.detail)
}

func (v misplacedKey) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	v.refuse(req.Path, req.ConfigValue, &resp.Diagnostics)
}

func (v misplacedKey) ValidateInt64(_ context.Context, req validator.Int64Request, resp *validator.Int64Response) {
	v.refuse(req.Path, req.ConfigValue, &resp.Diagnostics)
}

func (v misplacedKey) ValidateList(_ context.Context, req validator.ListRequest, resp *validator.ListResponse) {
	v.refuse(req.Path, req.ConfigValue, &resp.Diagnostics)
}

// isMisplaced reports whether a is one of the attributes that exist only to be refused.
func isMisplaced(a schema.Attribute) bool {
	var vs []any
	switch a := a.(type) {
	case schema.StringAttribute:
		for _, v := range a.Validators {
			vs = append(vs, v)
		}
	case schema.Int64Attribute:
		for _, v := range a.Validators {
			vs = append(vs, v)
		}
	case schema.ListAttribute:
		for _, v := range a.Validators {
			vs = append(vs, v)
		}
	}
	for _, v := range vs {
		if _, ok := v.(misplacedKey); ok {
			return true
		}
	}
	return false
}

// misplacedRequestsModel holds the request keys written beside `requests` instead of in it.
type misplacedRequestsModel struct {
	CPU              types.String `tfsdk:"cpu"`
	Memory           types.String `tfsdk:"memory"`
	EphemeralStorage types.String `tfsdk:"ephemeral_storage"`
	GPU              types.Int64  `tfsdk:"gpu"`
}

// addMisplacedRequests adds to the attributes of a DaemonSet or workload (what) the request keys a user may
// write beside `requests`, each refused with a pointer to its place.
func addMisplacedRequests(attrs map[string]schema.Attribute, what string) map[string]schema.Attribute {
	refuse := func(key, example string) misplacedKey {
		return misplacedKey{summary: "Request Outside requests",
			detail: key + " is not an attribute of a " + what + ": did you mean requests." + key + "? Write requests = { " + key + " = " + example + " }."}
	}
	desc := func(key string) string {
		return "Not an input: a request belongs in `requests` (`requests." + key + "`). Written here it is refused, not silently ignored."
	}
	attrs["cpu"] = schema.StringAttribute{Optional: true, MarkdownDescription: desc("cpu"), Validators: []validator.String{refuse("cpu", `"100m"`)}}
	attrs["memory"] = schema.StringAttribute{Optional: true, MarkdownDescription: desc("memory"), Validators: []validator.String{refuse("memory", `"128Mi"`)}}
	attrs["ephemeral_storage"] = schema.StringAttribute{Optional: true, MarkdownDescription: desc("ephemeral_storage"),
		Validators: []validator.String{refuse("ephemeral_storage", `"1Gi"`)}}
	attrs["gpu"] = schema.Int64Attribute{Optional: true, MarkdownDescription: desc("gpu"), Validators: []validator.Int64{refuse("gpu", "1")}}
	return attrs
}

// addMisplacedPoolKeys adds to a recommendation's pool template the keys of a sizing pool it does not take:
// the instance types, which the recommendation chooses among its candidates, and the cloud, which is its own.
func addMisplacedPoolKeys(attrs map[string]schema.Attribute) map[string]schema.Attribute {
	const why = "The recommendation chooses the pool's instance type among `candidates`"
	attrs["instance_type"] = schema.StringAttribute{Optional: true, MarkdownDescription: "Not an input: " + why + ". Written here it is refused, not silently ignored.",
		Validators: []validator.String{misplacedKey{summary: "Instance Type in a Recommendation's Pool",
			detail: "pool.instance_type is not an input of a recommendation, which chooses the instance type among candidates: list the type in candidates (or filter them with kubefit_instance_types) and remove it from pool."}}}
	attrs["instance_types"] = schema.ListAttribute{Optional: true, ElementType: types.StringType, MarkdownDescription: "Not an input: " + why + ". Written here it is refused, not silently ignored.",
		Validators: []validator.List{misplacedKey{summary: "Instance Types in a Recommendation's Pool",
			detail: "pool.instance_types is not an input of a recommendation, which chooses the instance type among candidates: list the types in candidates and remove them from pool."}}}
	attrs["cloud"] = schema.StringAttribute{Optional: true, MarkdownDescription: "Not an input: the recommendation's `cloud` is its own top-level attribute. Written here it is refused, not silently ignored.",
		Validators: []validator.String{misplacedKey{summary: "Cloud in a Recommendation's Pool",
			detail: "pool.cloud is not an input: a recommendation's cloud is its top-level cloud attribute; set it there and remove it from pool."}}}
	return attrs
}
