package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/hpa"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/keda"
)

var _ resource.ResourceWithModifyPlan = (*hpaResource)(nil)

type hpaResource struct {
	resourceCatalog
	planOnly[hpaModel]
}

func newHorizontalPodAutoscalerResource() resource.Resource {
	return &hpaResource{planOnly: planOnly[hpaModel]{plan: func(_ context.Context, m *hpaModel, d *diag.Diagnostics) bool { return planHPA(m, d) }}}
}

// hpaModel is the resource's data once every input is known: inputs as Go values, computed attributes as
// framework values.
type hpaModel struct {
	ID          types.String      `tfsdk:"id"`
	Name        string            `tfsdk:"name"`
	Namespace   string            `tfsdk:"namespace"`
	Labels      map[string]string `tfsdk:"labels"`
	Annotations map[string]string `tfsdk:"annotations"`

	ScaleTargetRef hpaRefModel       `tfsdk:"scale_target_ref"`
	MinReplicas    *int64            `tfsdk:"min_replicas"`
	MaxReplicas    int64             `tfsdk:"max_replicas"`
	Metrics        []hpaMetricModel  `tfsdk:"metrics"`
	Behavior       *hpaBehaviorModel `tfsdk:"behavior"`

	KubernetesVersion *string                 `tfsdk:"kubernetes_version"`
	ScaleToZero       *bool                   `tfsdk:"scale_to_zero"`
	TargetWorkload    *hpaWorkloadModel       `tfsdk:"target_workload"`
	NodeGroupCapacity *nodeGroupCapacityModel `tfsdk:"node_group_capacity"`
	Database          *kedaDatabaseModel      `tfsdk:"database"`

	Manifest  types.Dynamic `tfsdk:"manifest"`
	YAML      types.String  `tfsdk:"yaml"`
	Effective types.Object  `tfsdk:"effective"`
	Summary   types.Object  `tfsdk:"summary"`
}

type hpaRefModel struct {
	APIVersion string `tfsdk:"api_version"`
	Kind       string `tfsdk:"kind"`
	Name       string `tfsdk:"name"`
}

type hpaMetricModel struct {
	Type              string                   `tfsdk:"type"`
	Resource          *hpaResourceSourceModel  `tfsdk:"resource"`
	ContainerResource *hpaContainerSourceModel `tfsdk:"container_resource"`
	Pods              *hpaPodsSourceModel      `tfsdk:"pods"`
	Object            *hpaObjectSourceModel    `tfsdk:"object"`
	External          *hpaExternalSourceModel  `tfsdk:"external"`
}

type hpaResourceSourceModel struct {
	Name   string         `tfsdk:"name"`
	Target hpaTargetModel `tfsdk:"target"`
}

type hpaContainerSourceModel struct {
	Name      string         `tfsdk:"name"`
	Container string         `tfsdk:"container"`
	Target    hpaTargetModel `tfsdk:"target"`
}

type hpaPodsSourceModel struct {
	Metric hpaIdentifierModel `tfsdk:"metric"`
	Target hpaTargetModel     `tfsdk:"target"`
}

type hpaObjectSourceModel struct {
	DescribedObject hpaRefModel        `tfsdk:"described_object"`
	Metric          hpaIdentifierModel `tfsdk:"metric"`
	Target          hpaTargetModel     `tfsdk:"target"`
}

type hpaExternalSourceModel struct {
	Metric hpaIdentifierModel `tfsdk:"metric"`
	Target hpaTargetModel     `tfsdk:"target"`
}

type hpaIdentifierModel struct {
	Name     string            `tfsdk:"name"`
	Selector *hpaSelectorModel `tfsdk:"selector"`
}

type hpaSelectorModel struct {
	MatchLabels      map[string]string     `tfsdk:"match_labels"`
	MatchExpressions []hpaRequirementModel `tfsdk:"match_expressions"`
}

type hpaRequirementModel struct {
	Key      string   `tfsdk:"key"`
	Operator string   `tfsdk:"operator"`
	Values   []string `tfsdk:"values"`
}

type hpaTargetModel struct {
	Type               string  `tfsdk:"type"`
	Value              *string `tfsdk:"value"`
	AverageValue       *string `tfsdk:"average_value"`
	AverageUtilization *int64  `tfsdk:"average_utilization"`
}

type hpaBehaviorModel struct {
	ScaleUp   *kedaRulesModel `tfsdk:"scale_up"`
	ScaleDown *kedaRulesModel `tfsdk:"scale_down"`
}

// hpaWorkloadModel is a ScaledObject's target workload without the CPU-reachability inputs.
type hpaWorkloadModel struct {
	Kind                *string               `tfsdk:"kind"`
	PodTemplate         *kedaPodTemplateModel `tfsdk:"pod_template"`
	Rollout             *kedaRolloutModel     `tfsdk:"rollout"`
	TopologySpread      []kedaSpreadModel     `tfsdk:"topology_spread"`
	ConnectionsPerPod   *int64                `tfsdk:"connections_per_pod"`
	DNSLookupsPerSecond *float64              `tfsdk:"dns_lookups_per_second"`
}

// hpaRenames maps planner field names that are not the snake_case of an attribute.
var hpaRenames = renames{}

var hpaEffectiveAttrTypes = map[string]attr.Type{
	"min_replicas": types.Int64Type, "max_replicas": types.Int64Type, "default_metric": types.BoolType, "scale_to_zero": types.BoolType,
}

// hpaSummaryAttrTypes is the HPA's `summary`, which kubefit_capacity_check takes in `horizontal_pod_autoscalers`.
var hpaSummaryAttrTypes = map[string]attr.Type{
	"namespace": types.StringType, "name": types.StringType,
	"target_api_version": types.StringType, "target_kind": types.StringType, "target_name": types.StringType,
	"peak_replicas": types.Int64Type, "surge": types.Int64Type, "min_replicas": types.Int64Type, "max_surge": types.StringType,
	"pod_requests":        types.ObjectType{AttrTypes: podRequestsAttrTypes},
	"zonal_spread":        types.ListType{ElemType: types.ObjectType{AttrTypes: zonalSpreadAttrTypes}},
	"connections_per_pod": types.Int64Type, "dns_lookups_per_second": types.Float64Type,
	"node_group": types.StringType,
}

func (r *hpaResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_horizontal_pod_autoscaler"
}

// ModifyPlan checks and renders the HPA during plan. With any input unknown it checks only the replica
// counts (when they and the metric types are known); manifest keeps its structure with unknown leaves where
// it can (hpa_partial.go), id is known when name and namespace are, and the other rendered values are unknown.
func (r *hpaResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		return
	}
	if !req.Config.Raw.IsFullyKnown() {
		planUnknownAutoscaler(ctx, req, resp, hpaPartialManifest, hpaEffectiveAttrTypes, hpaSummaryAttrTypes, "yaml")
		checkKnownHPACounts(ctx, req.Config, &resp.Diagnostics)
		return
	}
	var m hpaModel
	resp.Diagnostics.Append(configGet(ctx, req.Config, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if planHPA(&m, &resp.Diagnostics) {
		resp.Diagnostics.Append(resp.Plan.Set(ctx, &m)...)
	}
}

// checkKnownHPACounts checks the replica counts of a configuration that is not fully known, when they, the
// Kubernetes version, the scale-to-zero gate and the metric types are known, so a known minimum above a known
// maximum fails the plan even while, say, a metric's name waits for another resource.
func checkKnownHPACounts(ctx context.Context, cfg tfsdk.Config, diags *diag.Diagnostics) {
	var h hpa.HorizontalPodAutoscaler
	var minR, maxR types.Int64
	var version types.String
	var zero types.Bool
	for _, a := range []struct {
		name string
		to   any
	}{{"min_replicas", &minR}, {"max_replicas", &maxR}, {"kubernetes_version", &version}, {"scale_to_zero", &zero}} {
		if d := cfg.GetAttribute(ctx, path.Root(a.name), a.to); d.HasError() {
			return
		}
	}
	if minR.IsUnknown() || maxR.IsUnknown() || version.IsUnknown() || zero.IsUnknown() {
		return
	}
	var metrics types.List
	if d := cfg.GetAttribute(ctx, path.Root("metrics"), &metrics); d.HasError() || metrics.IsUnknown() {
		return
	}
	for i := range metrics.Elements() {
		var typ types.String
		if d := cfg.GetAttribute(ctx, path.Root("metrics").AtListIndex(i).AtName("type"), &typ); d.HasError() || typ.IsUnknown() {
			return
		}
		h.Metrics = append(h.Metrics, hpa.Metric{Type: typ.ValueString()})
	}
	h.MinReplicas, h.MaxReplicas = minR.ValueInt64Pointer(), maxR.ValueInt64()
	h.KubernetesVersion, h.ScaleToZero = version.ValueString(), zero.ValueBoolPointer()
	addRuleDiagnostics(diags, hpa.CheckCounts(h).Err(), nil, hpaRenames, "Invalid HorizontalPodAutoscaler", "HorizontalPodAutoscaler Warning")
}

// planHPA checks the HPA and fills the computed attributes; false after an error.
func planHPA(m *hpaModel, diags *diag.Diagnostics) bool {
	res, err := hpa.Plan(m.hpa())
	if res == nil {
		diags.AddError("Rendering HorizontalPodAutoscaler", err.Error())
		return false
	}
	addRuleDiagnostics(diags, err, res.Warnings, hpaRenames, "Invalid HorizontalPodAutoscaler", "HorizontalPodAutoscaler Warning")
	if err != nil {
		return false
	}
	obj, cerr := dynamicValue(res.Manifest, false)
	if cerr != nil {
		diags.AddError("Rendering HorizontalPodAutoscaler", cerr.Error())
		return false
	}
	m.ID = types.StringValue(m.Namespace + "/" + m.Name)
	m.Manifest = types.DynamicValue(obj)
	m.YAML = types.StringValue(res.YAML)
	e := res.Effective
	m.Effective = types.ObjectValueMust(hpaEffectiveAttrTypes, map[string]attr.Value{
		"min_replicas": types.Int64Value(e.MinReplicas), "max_replicas": types.Int64Value(e.MaxReplicas),
		"default_metric": types.BoolValue(e.DefaultMetric), "scale_to_zero": types.BoolValue(e.ScaleToZero),
	})
	m.Summary = hpaSummaryValue(res.Summary)
	return true
}

// hpaSummaryValue is the ScaledObject summary's value without what only a ScaledObject has.
func hpaSummaryValue(s keda.Summary) types.Object {
	all := summaryValue(s).Attributes()
	vals := make(map[string]attr.Value, len(hpaSummaryAttrTypes))
	for k := range hpaSummaryAttrTypes {
		vals[k] = all[k]
	}
	return types.ObjectValueMust(hpaSummaryAttrTypes, vals)
}

// hpa expands the model into the planner's input.
func (m hpaModel) hpa() hpa.HorizontalPodAutoscaler {
	h := hpa.HorizontalPodAutoscaler{Name: m.Name, Namespace: m.Namespace, Labels: m.Labels, Annotations: m.Annotations,
		ScaleTargetRef: m.ScaleTargetRef.ref(), MinReplicas: m.MinReplicas, MaxReplicas: m.MaxReplicas,
		KubernetesVersion: deref(m.KubernetesVersion), ScaleToZero: m.ScaleToZero}
	if m.Metrics != nil {
		h.Metrics = []hpa.Metric{}
	}
	for _, mm := range m.Metrics {
		h.Metrics = append(h.Metrics, mm.metric())
	}
	if b := m.Behavior; b != nil {
		h.Behavior = &hpa.Behavior{ScaleUp: hpaRules(b.ScaleUp), ScaleDown: hpaRules(b.ScaleDown)}
	}
	if w := m.TargetWorkload; w != nil {
		h.TargetWorkload = kedaWorkloadModel{Kind: w.Kind, PodTemplate: w.PodTemplate, Rollout: w.Rollout, TopologySpread: w.TopologySpread,
			ConnectionsPerPod: w.ConnectionsPerPod, DNSLookupsPerSecond: w.DNSLookupsPerSecond}.workload()
	}
	if g := m.NodeGroupCapacity; g != nil {
		c := g.capacity()
		h.NodeGroupCapacity = &c
	}
	if d := m.Database; d != nil {
		h.Database = &keda.Database{Name: d.Name, MaxConnections: d.MaxConnections, ReservedConnections: deref(d.ReservedConnections),
			UsableFraction: d.UsableFraction, OtherClients: deref(d.OtherClients)}
	}
	return h
}

func (r hpaRefModel) ref() hpa.CrossVersionObjectReference {
	return hpa.CrossVersionObjectReference{Kind: r.Kind, Name: r.Name, APIVersion: r.APIVersion}
}

func (mm hpaMetricModel) metric() hpa.Metric {
	out := hpa.Metric{Type: mm.Type}
	if s := mm.Resource; s != nil {
		out.Resource = &hpa.ResourceSource{Name: s.Name, Target: s.Target.target()}
	}
	if s := mm.ContainerResource; s != nil {
		out.ContainerResource = &hpa.ContainerResourceSource{Name: s.Name, Container: s.Container, Target: s.Target.target()}
	}
	if s := mm.Pods; s != nil {
		out.Pods = &hpa.PodsSource{Metric: s.Metric.identifier(), Target: s.Target.target()}
	}
	if s := mm.Object; s != nil {
		out.Object = &hpa.ObjectSource{DescribedObject: s.DescribedObject.ref(), Metric: s.Metric.identifier(), Target: s.Target.target()}
	}
	if s := mm.External; s != nil {
		out.External = &hpa.ExternalSource{Metric: s.Metric.identifier(), Target: s.Target.target()}
	}
	return out
}

func (t hpaTargetModel) target() hpa.Target {
	return hpa.Target{Type: t.Type, Value: t.Value, AverageValue: t.AverageValue, AverageUtilization: t.AverageUtilization}
}

func (id hpaIdentifierModel) identifier() hpa.MetricIdentifier {
	out := hpa.MetricIdentifier{Name: id.Name}
	if s := id.Selector; s != nil {
		out.Selector = &hpa.LabelSelector{MatchLabels: s.MatchLabels}
		for _, r := range s.MatchExpressions {
			out.Selector.MatchExpressions = append(out.Selector.MatchExpressions, hpa.SelectorRequirement{Key: r.Key, Operator: r.Operator, Values: r.Values})
		}
	}
	return out
}

func hpaRules(r *kedaRulesModel) *hpa.ScalingRules {
	k := r.rules()
	if k == nil {
		return nil
	}
	out := &hpa.ScalingRules{StabilizationWindowSeconds: k.StabilizationWindowSeconds, SelectPolicy: k.SelectPolicy, Tolerance: k.Tolerance}
	if k.Policies != nil {
		out.Policies = []hpa.Policy{}
	}
	for _, p := range k.Policies {
		out.Policies = append(out.Policies, hpa.Policy{Type: p.Type, Value: p.Value, PeriodSeconds: p.PeriodSeconds})
	}
	return out
}
