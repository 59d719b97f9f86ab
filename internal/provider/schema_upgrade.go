package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
)

// intOrPercentValidator accepts a count ("2") or a percentage ("25%"), as Kubernetes' intstr.
type intOrPercentValidator struct{}

func (intOrPercentValidator) Description(context.Context) string {
	return `value must be a count such as "2" or a percentage such as "25%"`
}

func (v intOrPercentValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (intOrPercentValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if _, err := parseIntOrPercent(req.ConfigValue.ValueString()); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid Count or Percentage", sentence(err.Error()))
	}
}

// addUpgradeAttributes adds a pool's node upgrade settings.
func addUpgradeAttributes(attrs map[string]schema.Attribute) {
	attrs["upgrade_max_surge"] = schema.StringAttribute{Optional: true, Validators: []validator.String{intOrPercentValidator{}},
		MarkdownDescription: "For the `node_upgrade` disruption: nodes added before old ones are drained, a count (`1`) or a percentage of the pool's nodes rounded up (`10%`). " +
			"Default: AKS `10%` (its API's default; `0` when only `upgrade_max_unavailable` is set), GKE `1` (its surge upgrade default). Not for AWS: an EKS managed node group adds up to twice its zones' count of nodes, " +
			"at least its max unavailable, and kubefit counts only the certain part, `upgrade_max_unavailable`. Not for AKS Spot pools: AKS refuses a max surge on them."}
	attrs["upgrade_max_unavailable"] = schema.StringAttribute{Optional: true, Validators: []validator.String{intOrPercentValidator{}},
		MarkdownDescription: "For the `node_upgrade` disruption: AKS and GKE, old nodes drained at once beyond the surge ones (default `0`); AWS, the EKS update config's " +
			"`max_unavailable` (default `1`), drained at once with as many new nodes added first. AKS takes it only without a surge (`upgrade_max_surge` unset or `0`), " +
			"and not on Spot pools, whose upgrades kubefit plans one node at a time with none added first."}
}

// podDisruptionBudgetAttribute is a workload's PodDisruptionBudget, in the shape kubefit_workloads outputs.
func podDisruptionBudgetAttribute() schema.SingleNestedAttribute {
	return schema.SingleNestedAttribute{Optional: true,
		MarkdownDescription: "The pods' PodDisruptionBudget, which the `node_upgrade` disruption evicts through: `min_available` or `max_unavailable` " +
			"(not both: the API server refuses a PodDisruptionBudget that sets both), each a count or a percentage of the replicas rounded up, as the disruption controller rounds both.",
		Attributes: map[string]schema.Attribute{
			"name":            schema.StringAttribute{Optional: true, MarkdownDescription: "Its name, for messages."},
			"min_available":   schema.StringAttribute{Optional: true, MarkdownDescription: "`minAvailable`: a count or a percentage.", Validators: []validator.String{intOrPercentValidator{}}},
			"max_unavailable": schema.StringAttribute{Optional: true, MarkdownDescription: "`maxUnavailable`: a count or a percentage.", Validators: []validator.String{intOrPercentValidator{}}},
		}}
}

type podDisruptionBudgetModel struct {
	Name           types.String `tfsdk:"name"`
	MinAvailable   types.String `tfsdk:"min_available"`
	MaxUnavailable types.String `tfsdk:"max_unavailable"`
}

// optIntOrPercent parses an optional count or percentage (validated by the schema); nil for null or unknown.
func optIntOrPercent(v types.String) *fit.IntOrPercent {
	if v.IsNull() || v.IsUnknown() {
		return nil
	}
	x, err := parseIntOrPercent(v.ValueString())
	if err != nil {
		return nil
	}
	return &x
}

// expandDisruptionBudget converts a workload's pod_disruption_budget.
func expandDisruptionBudget(ctx context.Context, o types.Object, diags *diag.Diagnostics) *fit.DisruptionBudget {
	if o.IsNull() || o.IsUnknown() {
		return nil
	}
	var m podDisruptionBudgetModel
	diags.Append(objectAs(ctx, o, &m, objectAsOptions)...)
	return &fit.DisruptionBudget{Name: m.Name.ValueString(), MinAvailable: optIntOrPercent(m.MinAvailable), MaxUnavailable: optIntOrPercent(m.MaxUnavailable)}
}

// countsValue is a map of pods per workload.
func countsValue(ws []fit.WorkloadCount) types.Map {
	m := make(map[string]attr.Value, len(ws))
	for _, w := range ws {
		m[w.Workload] = types.Int64Value(int64(w.Pods))
	}
	return types.MapValueMust(types.Int64Type, m)
}
