package provider

import (
	"context"
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/disk"
)

// exactlyOneWith is a string validator for an attribute of which exactly one of it and its sibling other
// (an attribute of the same object) must be set, such as instance_type and instance_types. Unlike
// stringvalidator.ExactlyOneOf it names the two attributes as a user writes them, whether they sit at the
// root or in a nested object. It waits while either value is unknown.
type exactlyOneWith struct{ other string }

func (v exactlyOneWith) Description(context.Context) string {
	return "exactly one of this attribute and " + v.other + " must be set"
}

func (v exactlyOneWith) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v exactlyOneWith) ValidateString(ctx context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsUnknown() || ancestorUnknown(ctx, req.Config, req.Path) {
		return
	}
	op := req.Path.ParentPath().AtName(v.other)
	var other attr.Value
	if d := req.Config.GetAttribute(ctx, op, &other); d.HasError() || other == nil || other.IsUnknown() {
		return
	}
	self := lastName(req.Path)
	switch {
	case req.ConfigValue.IsNull() && other.IsNull():
		resp.Diagnostics.AddAttributeError(req.Path, "Missing "+titleWords(self),
			fmt.Sprintf("Neither %s nor %s is set; give exactly one of them.", self, v.other))
	case !req.ConfigValue.IsNull() && !other.IsNull():
		resp.Diagnostics.AddAttributeError(req.Path, "Conflicting Attributes",
			fmt.Sprintf("%s = %q and %s are both set; give exactly one of them.", self, req.ConfigValue.ValueString(), v.other))
	}
}

// lastName is the name of the attribute at p (its last attribute-name step).
func lastName(p path.Path) string {
	steps := p.Steps()
	for i := len(steps) - 1; i >= 0; i-- {
		if n, ok := steps[i].(path.PathStepAttributeName); ok {
			return string(n)
		}
	}
	return p.String()
}

// titleWords turns an attribute name into title case words: "instance_type" → "Instance Type".
func titleWords(name string) string {
	b := []byte(name)
	up := true
	for i, c := range b {
		switch {
		case c == '_':
			b[i], up = ' ', true
		case up && c >= 'a' && c <= 'z':
			b[i], up = c-'a'+'A', false
		default:
			up = false
		}
	}
	return string(b)
}

// endpointURL is a string validator for an endpoint setting: an absolute URL with a host, in one of
// schemes. It checks the value during validation, on its own attribute, before any lookup uses it.
type endpointURL struct {
	schemes []string
	example string
}

func (v endpointURL) Description(context.Context) string {
	return "an absolute " + strings.Join(v.schemes, " or ") + " URL"
}

func (v endpointURL) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v endpointURL) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	s := req.ConfigValue.ValueString()
	u, err := url.Parse(s)
	if err == nil && u.Host != "" && slices.Contains(v.schemes, u.Scheme) && u.User == nil {
		return
	}
	resp.Diagnostics.AddAttributeError(req.Path, "Invalid Endpoint",
		fmt.Sprintf("%s = %q is not an absolute %s URL; give the endpoint's full URL, such as %s.",
			lastName(req.Path), s, strings.Join(v.schemes, " or "), v.example))
}

// requiredValue is a validator for an attribute a description calls required but the schema keeps optional
// (a summary or capacity object another object outputs, whose nested values must be allowed to be unknown
// while it is planned): a null value is refused on the attribute, an unknown one waits.
type requiredValue struct{}

func (requiredValue) Description(context.Context) string { return "must be set" }

func (v requiredValue) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (requiredValue) refuse(ctx context.Context, cfg tfsdk.Config, p path.Path, value attr.Value, diags *diag.Diagnostics) {
	if value.IsNull() && !ancestorUnknown(ctx, cfg, p) {
		diags.AddAttributeError(p, "Missing "+titleWords(lastName(p)),
			fmt.Sprintf("%s is required here; give its value (the object kubefit outputs for it always has one).", p))
	}
}

func (v requiredValue) ValidateString(ctx context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	v.refuse(ctx, req.Config, req.Path, req.ConfigValue, &resp.Diagnostics)
}

func (v requiredValue) ValidateInt64(ctx context.Context, req validator.Int64Request, resp *validator.Int64Response) {
	v.refuse(ctx, req.Config, req.Path, req.ConfigValue, &resp.Diagnostics)
}

// requiredWhen is a validator for an attribute that must be set when its sibling attribute has one of some
// values (such as a StorageClass's ebs block with the EBS CSI driver), or, with unless, when the sibling has
// none of them (instance_type unless the profile is custom). It waits while the sibling is unknown.
type requiredWhen struct {
	sibling string
	values  []string
	unless  bool
}

func (v requiredWhen) Description(context.Context) string {
	if v.unless {
		return "required unless " + v.sibling + " is " + strings.Join(v.values, " or ")
	}
	return "required when " + v.sibling + " is " + strings.Join(v.values, " or ")
}

func (v requiredWhen) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v requiredWhen) check(ctx context.Context, p path.Path, cfg tfsdk.Config, value attr.Value, diags *diag.Diagnostics) {
	if !value.IsNull() || ancestorUnknown(ctx, cfg, p) {
		return
	}
	var s types.String
	if d := cfg.GetAttribute(ctx, p.ParentPath().AtName(v.sibling), &s); d.HasError() || s.IsUnknown() {
		return
	}
	if slices.Contains(v.values, s.ValueString()) == v.unless {
		return
	}
	what := fmt.Sprintf("%s = %q", v.sibling, s.ValueString())
	if s.IsNull() {
		what = v.sibling + " unset"
	}
	diags.AddAttributeError(p, "Missing "+titleWords(lastName(p)), fmt.Sprintf("%s is required with %s; give it.", lastName(p), what))
}

func (v requiredWhen) ValidateString(ctx context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	v.check(ctx, req.Path, req.Config, req.ConfigValue, &resp.Diagnostics)
}

func (v requiredWhen) ValidateObject(ctx context.Context, req validator.ObjectRequest, resp *validator.ObjectResponse) {
	v.check(ctx, req.Path, req.Config, req.ConfigValue, &resp.Diagnostics)
}

// blockForDriver is an object validator for a StorageClass's parameter block (ebs, azure_disk, gce_pd): the
// block of the configured driver must be given, since kubefit always emits the disk type explicitly (rule
// SC-3: the drivers' defaults differ and have changed over time). A block of another driver is refused where
// the parameters are rendered. It waits while the driver is unknown, and leaves an unknown driver's name to
// the driver's own check.
type blockForDriver struct{}

func (blockForDriver) Description(context.Context) string { return "required with its CSI driver" }

func (v blockForDriver) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (blockForDriver) ValidateObject(ctx context.Context, req validator.ObjectRequest, resp *validator.ObjectResponse) {
	var s types.String
	if d := req.Config.GetAttribute(ctx, path.Root("driver"), &s); d.HasError() || s.IsUnknown() || s.IsNull() {
		return
	}
	d, _, err := disk.ParseProvisioner(s.ValueString())
	name := lastName(req.Path)
	switch {
	case err != nil:
		return
	case !req.ConfigValue.IsNull() && driverBlocks[d] != name:
		resp.Diagnostics.AddAttributeError(req.Path, "Parameter Block Does Not Match the Driver",
			fmt.Sprintf("%s holds parameters for another CSI driver; driver %q takes the %s block.", name, s.ValueString(), driverBlocks[d]))
		return
	case !req.ConfigValue.IsNull() || driverBlocks[d] != name:
		return
	}
	resp.Diagnostics.AddAttributeError(req.Path, "Missing Parameter Block",
		fmt.Sprintf("driver %q needs the %s block with the disk type, which kubefit always emits explicitly (rule SC-3: "+
			"the drivers' defaults differ and have changed over time).", s.ValueString(), lastName(req.Path)))
}

// ancestorUnknown reports whether an object or list that holds the attribute at p is unknown: the framework
// then validates the attribute as null, though its value is only not known yet.
func ancestorUnknown(ctx context.Context, cfg tfsdk.Config, p path.Path) bool {
	for q := p.ParentPath(); len(q.Steps()) > 0; q = q.ParentPath() {
		var v attr.Value
		if d := cfg.GetAttribute(ctx, q, &v); d.HasError() || v == nil || v.IsUnknown() {
			return true
		}
	}
	return false
}
