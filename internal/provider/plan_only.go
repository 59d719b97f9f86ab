package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// planOnly is the Create, Read, Update and Delete of a plan-only resource whose data is M: every value is
// computed at plan by plan (ModifyPlan), apply stores it, and nothing remote exists to refresh or delete.
type planOnly[M any] struct {
	plan func(context.Context, *M, *diag.Diagnostics) bool
}

// Create stores the planned values.
func (p planOnly[M]) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	p.apply(ctx, req.Plan, &resp.State, &resp.Diagnostics)
}

// Read keeps the state: the object lives there, with nothing remote to refresh.
func (p planOnly[M]) Read(_ context.Context, _ resource.ReadRequest, _ *resource.ReadResponse) {}

// Update stores the planned values.
func (p planOnly[M]) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	p.apply(ctx, req.Plan, &resp.State, &resp.Diagnostics)
}

// Delete has nothing to do: removing the resource from state is all there is.
func (p planOnly[M]) Delete(_ context.Context, _ resource.DeleteRequest, _ *resource.DeleteResponse) {
}

// apply stores the planned values, planned again so that values unknown at plan time are filled (errors
// only: the warnings were shown at plan; planning is deterministic, so known values do not change).
func (p planOnly[M]) apply(ctx context.Context, plan tfsdk.Plan, state *tfsdk.State, diags *diag.Diagnostics) {
	var m M
	diags.Append(plan.Get(ctx, &m)...)
	if diags.HasError() {
		return
	}
	var ignored diag.Diagnostics
	if !p.plan(ctx, &m, &ignored) {
		diags.Append(ignored.Errors()...)
		return
	}
	diags.Append(state.Set(ctx, &m)...)
}

// planUnknownAutoscaler plans a ScaledObject or HPA whose configuration is not fully known: id is known when
// name and namespace are, manifest keeps its structure with unknown leaves where partial can build it, and
// effective, summary and the rendered string attributes (unknown) wait for apply.
func planUnknownAutoscaler(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse,
	partial func(context.Context, tfsdk.Config) (attr.Value, bool), effective, summary map[string]attr.Type, unknownStrings ...string) {
	var name, ns types.String
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("name"), &name)...)
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("namespace"), &ns)...)
	id := types.StringUnknown()
	if !name.IsUnknown() && !ns.IsUnknown() {
		id = types.StringValue(ns.ValueString() + "/" + name.ValueString())
	}
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("id"), id)...)
	for _, a := range unknownStrings {
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root(a), types.StringUnknown())...)
	}
	manifest := types.DynamicUnknown()
	if v, ok := partial(ctx, req.Config); ok {
		manifest = types.DynamicValue(v)
	}
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("manifest"), manifest)...)
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("effective"), types.ObjectUnknown(effective))...)
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("summary"), types.ObjectUnknown(summary))...)
}
