package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/keda"
	plannerresource "github.com/kubefit/terraform-provider-kubefit/internal/planner/resource"
)

var _ resource.ResourceWithModifyPlan = (*kedaScaledObjectResource)(nil)

type kedaScaledObjectResource struct {
	resourceCatalog
	planOnly[kedaScaledObjectModel]
}

func newKEDAScaledObjectResource() resource.Resource {
	return &kedaScaledObjectResource{planOnly: planOnly[kedaScaledObjectModel]{plan: func(_ context.Context, m *kedaScaledObjectModel, d *diag.Diagnostics) bool {
		return planKEDAScaledObject(m, d)
	}}}
}

// kedaScaledObjectModel is the resource's data once every input is known: inputs as Go values, computed
// attributes as framework values.
type kedaScaledObjectModel struct {
	ID          types.String      `tfsdk:"id"`
	Name        string            `tfsdk:"name"`
	Namespace   string            `tfsdk:"namespace"`
	Labels      map[string]string `tfsdk:"labels"`
	Annotations map[string]string `tfsdk:"annotations"`

	ScaleTargetRef        kedaTargetRefModel `tfsdk:"scale_target_ref"`
	PollingInterval       *int64             `tfsdk:"polling_interval"`
	InitialCooldownPeriod *int64             `tfsdk:"initial_cooldown_period"`
	CooldownPeriod        *int64             `tfsdk:"cooldown_period"`
	IdleReplicaCount      *int64             `tfsdk:"idle_replica_count"`
	MinReplicaCount       *int64             `tfsdk:"min_replica_count"`
	MaxReplicaCount       *int64             `tfsdk:"max_replica_count"`
	Advanced              *kedaAdvancedModel `tfsdk:"advanced"`
	Triggers              []kedaTriggerModel `tfsdk:"triggers"`
	Fallback              *kedaFallbackModel `tfsdk:"fallback"`

	KEDAVersion                 *string                 `tfsdk:"keda_version"`
	KubernetesVersion           *string                 `tfsdk:"kubernetes_version"`
	TargetWorkload              *kedaWorkloadModel      `tfsdk:"target_workload"`
	NamespaceLimitRangeDefaults map[string]string       `tfsdk:"namespace_limit_range_defaults"`
	NodeGroupCapacity           *nodeGroupCapacityModel `tfsdk:"node_group_capacity"`
	Database                    *kedaDatabaseModel      `tfsdk:"database"`

	Manifest  types.Dynamic `tfsdk:"manifest"`
	YAML      types.String  `tfsdk:"yaml"`
	HPAName   types.String  `tfsdk:"hpa_name"`
	Effective types.Object  `tfsdk:"effective"`
	Summary   types.Object  `tfsdk:"summary"`
}

type kedaTargetRefModel struct {
	Name                   string  `tfsdk:"name"`
	APIVersion             *string `tfsdk:"api_version"`
	Kind                   *string `tfsdk:"kind"`
	EnvSourceContainerName *string `tfsdk:"env_source_container_name"`
}

type kedaAdvancedModel struct {
	RestoreToOriginalReplicaCount *bool                  `tfsdk:"restore_to_original_replica_count"`
	HorizontalPodAutoscalerConfig *kedaHPAConfigModel    `tfsdk:"horizontal_pod_autoscaler_config"`
	ScalingModifiers              *kedaScalingModifModel `tfsdk:"scaling_modifiers"`
}

type kedaHPAConfigModel struct {
	Name     *string            `tfsdk:"name"`
	Behavior *kedaBehaviorModel `tfsdk:"behavior"`
}

type kedaBehaviorModel struct {
	ScaleUp   *kedaRulesModel `tfsdk:"scale_up"`
	ScaleDown *kedaRulesModel `tfsdk:"scale_down"`
}

type kedaRulesModel struct {
	StabilizationWindowSeconds *int64            `tfsdk:"stabilization_window_seconds"`
	SelectPolicy               *string           `tfsdk:"select_policy"`
	Policies                   []kedaPolicyModel `tfsdk:"policies"`
	Tolerance                  *string           `tfsdk:"tolerance"`
}

type kedaPolicyModel struct {
	Type          string `tfsdk:"type"`
	Value         int64  `tfsdk:"value"`
	PeriodSeconds int64  `tfsdk:"period_seconds"`
}

type kedaScalingModifModel struct {
	Formula          *string `tfsdk:"formula"`
	Target           *string `tfsdk:"target"`
	ActivationTarget *string `tfsdk:"activation_target"`
	MetricType       *string `tfsdk:"metric_type"`
}

type kedaTriggerModel struct {
	Type              string            `tfsdk:"type"`
	Name              *string           `tfsdk:"name"`
	MetricType        *string           `tfsdk:"metric_type"`
	UseCachedMetrics  *bool             `tfsdk:"use_cached_metrics"`
	Metadata          map[string]string `tfsdk:"metadata"`
	AuthenticationRef *kedaAuthRefModel `tfsdk:"authentication_ref"`
}

type kedaAuthRefModel struct {
	Name string  `tfsdk:"name"`
	Kind *string `tfsdk:"kind"`
}

type kedaFallbackModel struct {
	FailureThreshold int64   `tfsdk:"failure_threshold"`
	Replicas         int64   `tfsdk:"replicas"`
	Behavior         *string `tfsdk:"behavior"`
}

type kedaWorkloadModel struct {
	Kind                 *string               `tfsdk:"kind"`
	PodTemplate          *kedaPodTemplateModel `tfsdk:"pod_template"`
	Rollout              *kedaRolloutModel     `tfsdk:"rollout"`
	TopologySpread       []kedaSpreadModel     `tfsdk:"topology_spread"`
	MaxConcurrencyPerPod *int64                `tfsdk:"max_concurrency_per_pod"`
	CPUPerBusyWorker     *string               `tfsdk:"cpu_per_busy_worker"`
	ConnectionsPerPod    *int64                `tfsdk:"connections_per_pod"`
	DNSLookupsPerSecond  *float64              `tfsdk:"dns_lookups_per_second"`
}

// The resource maps hold *string: a null value (requests = { memory = null }, or a conditional) is an unset
// resource, not a provider error (quantities).
type kedaPodTemplateModel struct {
	Containers     []kedaContainerModel  `tfsdk:"containers"`
	InitContainers []kedaContainerModel  `tfsdk:"init_containers"`
	PodResources   *kedaPodResourceModel `tfsdk:"pod_resources"`
	Overhead       map[string]*string    `tfsdk:"overhead"`
}

type kedaContainerModel struct {
	Name          string             `tfsdk:"name"`
	Requests      map[string]*string `tfsdk:"requests"`
	Limits        map[string]*string `tfsdk:"limits"`
	RestartPolicy *string            `tfsdk:"restart_policy"`
}

type kedaPodResourceModel struct {
	Requests map[string]*string `tfsdk:"requests"`
	Limits   map[string]*string `tfsdk:"limits"`
}

// quantities is a resource map without its null values; nil when it had none.
func quantities(m map[string]*string) map[string]string {
	var out map[string]string
	for k, v := range m {
		if v == nil {
			continue
		}
		if out == nil {
			out = map[string]string{}
		}
		out[k] = *v
	}
	return out
}

type kedaRolloutModel struct {
	Strategy *string `tfsdk:"strategy"`
	MaxSurge *string `tfsdk:"max_surge"`
}

type kedaSpreadModel struct {
	TopologyKey       string `tfsdk:"topology_key"`
	MaxSkew           int64  `tfsdk:"max_skew"`
	WhenUnsatisfiable string `tfsdk:"when_unsatisfiable"`
}

// nodeGroupCapacityModel is the §9.1 capacity object a node group exports.
type nodeGroupCapacityModel struct {
	Name                *string                   `tfsdk:"name"`
	MaxNodes            *int64                    `tfsdk:"max_nodes"`
	Zones               []string                  `tfsdk:"zones"`
	MaxNodesPerZone     *int64                    `tfsdk:"max_nodes_per_zone"`
	WorkloadAllocatable *capacityAllocatableModel `tfsdk:"workload_allocatable"`
	WorkloadPods        *int64                    `tfsdk:"workload_pods"`
	Failures            []groupFailureModel       `tfsdk:"failures"`
	Workloads           []groupWorkloadModel      `tfsdk:"workloads"`
}

// groupWorkloadModel is one of a node group's own workloads at peak (capacity.workloads).
type groupWorkloadModel struct {
	Name     *string                   `tfsdk:"name"`
	Requests *capacityAllocatableModel `tfsdk:"requests"`
	Replicas *int64                    `tfsdk:"replicas"`
	Surge    *int64                    `tfsdk:"surge"`
}

// groupFailureModel is one misfit a node group leaves to the capacity check (capacity.failures).
type groupFailureModel struct {
	Reason    *string `tfsdk:"reason"`
	Attribute *string `tfsdk:"attribute"`
	Message   *string `tfsdk:"message"`
	Remedy    *string `tfsdk:"remedy"`
}

type capacityAllocatableModel struct {
	CPUMillicores  *int64           `tfsdk:"cpu_millicores"`
	MemoryBytes    *int64           `tfsdk:"memory_bytes"`
	EphemeralBytes *int64           `tfsdk:"ephemeral_bytes"`
	Extended       map[string]int64 `tfsdk:"extended"`
}

type kedaDatabaseModel struct {
	Name                string   `tfsdk:"name"`
	MaxConnections      int64    `tfsdk:"max_connections"`
	ReservedConnections *int64   `tfsdk:"reserved_connections"`
	UsableFraction      *float64 `tfsdk:"usable_fraction"`
	OtherClients        *int64   `tfsdk:"other_clients"`
}

// kedaRenames maps planner field names that are not the snake_case of an attribute.
var kedaRenames = renames{}

var kedaEffectiveAttrTypes = map[string]attr.Type{
	"min_replicas": types.Int64Type, "hpa_min_replicas": types.Int64Type, "max_replicas": types.Int64Type,
	"polling_interval_seconds": types.Int64Type, "cooldown_period_seconds": types.Int64Type,
	"initial_cooldown_period_seconds": types.Int64Type, "target_api_version": types.StringType, "target_kind": types.StringType,
}

var podRequestsAttrTypes = map[string]attr.Type{
	"cpu_millicores": types.Int64Type, "memory_bytes": types.Int64Type, "ephemeral_bytes": types.Int64Type,
}

var zonalSpreadAttrTypes = map[string]attr.Type{
	"topology_key": types.StringType, "max_skew": types.Int64Type, "when_unsatisfiable": types.StringType,
}

var kedaSummaryAttrTypes = map[string]attr.Type{
	"namespace": types.StringType, "name": types.StringType, "hpa_name": types.StringType,
	"target_api_version": types.StringType, "target_kind": types.StringType, "target_name": types.StringType,
	"peak_replicas": types.Int64Type, "surge": types.Int64Type, "min_replicas": types.Int64Type, "max_surge": types.StringType,
	"pod_requests":        types.ObjectType{AttrTypes: podRequestsAttrTypes},
	"zonal_spread":        types.ListType{ElemType: types.ObjectType{AttrTypes: zonalSpreadAttrTypes}},
	"connections_per_pod": types.Int64Type, "dns_lookups_per_second": types.Float64Type,
	"node_group": types.StringType, "transfer_hpa_ownership": types.BoolType,
	"paused_replicas": types.Int64Type, "max_replicas": types.Int64Type,
}

func (r *kedaScaledObjectResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_keda_scaled_object"
}

// knownHPAName is the name of the HPA KEDA creates when the ScaledObject's name and custom HPA name are known
// (keda.ScaledObject.HPAName), whatever else is unknown: a resource that reads hpa_name then plans with it. Unknown
// otherwise.
func knownHPAName(ctx context.Context, config tfsdk.Config) types.String {
	var name, custom types.String
	if config.GetAttribute(ctx, path.Root("name"), &name).HasError() || name.IsUnknown() || name.IsNull() {
		return types.StringUnknown()
	}
	// Each parent must be known: the framework reads a leaf under an unknown object as null, which would plan the
	// default name where a custom one is coming. A null parent is no custom name.
	advanced := path.Root("advanced")
	hpaConfig := advanced.AtName("horizontal_pod_autoscaler_config")
	for _, at := range []path.Path{advanced, hpaConfig} {
		var parent types.Object
		if config.GetAttribute(ctx, at, &parent).HasError() || parent.IsUnknown() {
			return types.StringUnknown()
		}
		if parent.IsNull() {
			return types.StringValue(keda.ScaledObject{Name: name.ValueString()}.HPAName())
		}
	}
	if config.GetAttribute(ctx, hpaConfig.AtName("name"), &custom).HasError() || custom.IsUnknown() {
		return types.StringUnknown()
	}
	so := keda.ScaledObject{Name: name.ValueString()}
	if v := custom.ValueString(); !custom.IsNull() {
		so.Advanced = &keda.Advanced{HorizontalPodAutoscalerConfig: &keda.HPAConfig{Name: &v}}
	}
	return types.StringValue(so.HPAName())
}

// ModifyPlan checks and renders the ScaledObject during plan. With any input unknown it checks only the
// replica counts and periods (when they are known); manifest keeps its structure with unknown leaves
// where it can (keda.md §8.4), id is known when name and namespace are, and the other rendered values
// are unknown.
func (r *kedaScaledObjectResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		return
	}
	if !req.Config.Raw.IsFullyKnown() {
		planUnknownAutoscaler(ctx, req, resp, partialManifest, kedaEffectiveAttrTypes, kedaSummaryAttrTypes, "yaml", "hpa_name")
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("hpa_name"), knownHPAName(ctx, req.Config))...)
		checkKnownCounts(ctx, req.Config, &resp.Diagnostics)
		return
	}
	var m kedaScaledObjectModel
	resp.Diagnostics.Append(configGet(ctx, req.Config, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if planKEDAScaledObject(&m, &resp.Diagnostics) {
		resp.Diagnostics.Append(resp.Plan.Set(ctx, &m)...)
	}
}

// checkKnownCounts checks the replica counts and periods of a configuration that is not fully known, when
// all of them are known, so a known minimum above a known maximum fails the plan even while, say, the
// name waits for another resource.
func checkKnownCounts(ctx context.Context, cfg tfsdk.Config, diags *diag.Diagnostics) {
	var so keda.ScaledObject
	for _, c := range []struct {
		name string
		to   **int64
	}{
		{"polling_interval", &so.PollingInterval}, {"initial_cooldown_period", &so.InitialCooldownPeriod},
		{"cooldown_period", &so.CooldownPeriod}, {"idle_replica_count", &so.IdleReplicaCount},
		{"min_replica_count", &so.MinReplicaCount}, {"max_replica_count", &so.MaxReplicaCount},
	} {
		var v types.Int64
		if d := cfg.GetAttribute(ctx, path.Root(c.name), &v); d.HasError() || v.IsUnknown() {
			return
		}
		if !v.IsNull() {
			*c.to = v.ValueInt64Pointer()
		}
	}
	addRuleDiagnostics(diags, keda.CheckCounts(so).Err(), nil, kedaRenames, "Invalid ScaledObject", "ScaledObject Warning")
}

// planKEDAScaledObject checks the ScaledObject and fills the computed attributes; false after an error.
func planKEDAScaledObject(m *kedaScaledObjectModel, diags *diag.Diagnostics) bool {
	res, err := keda.Plan(m.scaledObject())
	if res == nil {
		diags.AddError("Rendering ScaledObject", err.Error())
		return false
	}
	addRuleDiagnostics(diags, err, res.Warnings, kedaRenames, "Invalid ScaledObject", "ScaledObject Warning")
	if err != nil {
		return false
	}
	obj, cerr := dynamicValue(res.Object, false)
	if cerr != nil {
		diags.AddError("Rendering ScaledObject", cerr.Error())
		return false
	}
	m.ID = types.StringValue(m.Namespace + "/" + m.Name)
	m.Manifest = types.DynamicValue(obj)
	m.YAML = types.StringValue(string(res.YAML))
	m.HPAName = types.StringValue(res.HPAName)
	e := res.Effective
	m.Effective = types.ObjectValueMust(kedaEffectiveAttrTypes, map[string]attr.Value{
		"min_replicas": types.Int64Value(e.MinReplicas), "hpa_min_replicas": types.Int64Value(e.HPAMinReplicas),
		"max_replicas": types.Int64Value(e.MaxReplicas), "polling_interval_seconds": types.Int64Value(e.PollingIntervalSeconds),
		"cooldown_period_seconds":         types.Int64Value(e.CooldownPeriodSeconds),
		"initial_cooldown_period_seconds": types.Int64Value(e.InitialCooldownPeriodSeconds),
		"target_api_version":              types.StringValue(e.TargetAPIVersion), "target_kind": types.StringValue(e.TargetKind),
	})
	m.Summary = summaryValue(res.Summary)
	return true
}

func summaryValue(s keda.Summary) types.Object {
	reqs := types.ObjectNull(podRequestsAttrTypes)
	if r := s.PodRequests; r != nil {
		reqs = types.ObjectValueMust(podRequestsAttrTypes, map[string]attr.Value{
			"cpu_millicores": types.Int64Value(r.CPUMillicores), "memory_bytes": types.Int64Value(r.MemoryBytes),
			"ephemeral_bytes": types.Int64Value(r.EphemeralStorageBytes),
		})
	}
	spreads := make([]attr.Value, len(s.ZonalSpread))
	for i, sc := range s.ZonalSpread {
		spreads[i] = types.ObjectValueMust(zonalSpreadAttrTypes, map[string]attr.Value{
			"topology_key": types.StringValue(sc.TopologyKey), "max_skew": types.Int64Value(sc.MaxSkew),
			"when_unsatisfiable": types.StringValue(sc.WhenUnsatisfiable),
		})
	}
	return types.ObjectValueMust(kedaSummaryAttrTypes, map[string]attr.Value{
		"namespace": types.StringValue(s.Namespace), "name": types.StringValue(s.Name), "hpa_name": types.StringValue(s.HPAName),
		"target_api_version": types.StringValue(s.TargetAPIVersion), "target_kind": types.StringValue(s.TargetKind),
		"target_name": types.StringValue(s.TargetName), "peak_replicas": types.Int64Value(s.PeakReplicas),
		"surge": types.Int64Value(s.Surge), "min_replicas": types.Int64Value(s.MinReplicas), "max_surge": optString(s.MaxSurge),
		"pod_requests":           reqs,
		"zonal_spread":           types.ListValueMust(types.ObjectType{AttrTypes: zonalSpreadAttrTypes}, spreads),
		"connections_per_pod":    types.Int64PointerValue(s.ConnectionsPerPod),
		"dns_lookups_per_second": types.Float64PointerValue(s.DNSLookupsPerSecond),
		"node_group":             optString(s.NodeGroup), "transfer_hpa_ownership": types.BoolValue(s.TransferHPAOwnership),
		"paused_replicas": optInt(s.PausedReplicas), "max_replicas": optInt(s.MaxReplicas),
	})
}

// scaledObject expands the model into the planner's input.
func (m kedaScaledObjectModel) scaledObject() keda.ScaledObject {
	so := keda.ScaledObject{
		Name: m.Name, Namespace: m.Namespace, Labels: m.Labels, Annotations: m.Annotations,
		ScaleTargetRef: keda.ScaleTargetRef{Name: m.ScaleTargetRef.Name, APIVersion: m.ScaleTargetRef.APIVersion,
			Kind: m.ScaleTargetRef.Kind, EnvSourceContainerName: m.ScaleTargetRef.EnvSourceContainerName},
		PollingInterval: m.PollingInterval, InitialCooldownPeriod: m.InitialCooldownPeriod, CooldownPeriod: m.CooldownPeriod,
		IdleReplicaCount: m.IdleReplicaCount, MinReplicaCount: m.MinReplicaCount, MaxReplicaCount: m.MaxReplicaCount,
		NamespaceLimitRangeDefaults: m.NamespaceLimitRangeDefaults,
	}
	if m.KEDAVersion != nil {
		so.KEDAVersion = *m.KEDAVersion
	}
	if m.KubernetesVersion != nil {
		so.KubernetesVersion = *m.KubernetesVersion
	}
	if a := m.Advanced; a != nil {
		so.Advanced = &keda.Advanced{RestoreToOriginalReplicaCount: a.RestoreToOriginalReplicaCount}
		if h := a.HorizontalPodAutoscalerConfig; h != nil {
			hc := &keda.HPAConfig{Name: h.Name}
			if b := h.Behavior; b != nil {
				hc.Behavior = &keda.Behavior{ScaleUp: b.ScaleUp.rules(), ScaleDown: b.ScaleDown.rules()}
			}
			so.Advanced.HorizontalPodAutoscalerConfig = hc
		}
		if s := a.ScalingModifiers; s != nil {
			so.Advanced.ScalingModifiers = &keda.ScalingModifiers{Formula: s.Formula, Target: s.Target,
				ActivationTarget: s.ActivationTarget, MetricType: s.MetricType}
		}
	}
	for _, t := range m.Triggers {
		kt := keda.Trigger{Type: t.Type, Name: t.Name, MetricType: t.MetricType, UseCachedMetrics: t.UseCachedMetrics, Metadata: t.Metadata}
		if a := t.AuthenticationRef; a != nil {
			kt.AuthenticationRef = &keda.AuthenticationRef{Name: a.Name, Kind: a.Kind}
		}
		so.Triggers = append(so.Triggers, kt)
	}
	if f := m.Fallback; f != nil {
		so.Fallback = &keda.Fallback{FailureThreshold: f.FailureThreshold, Replicas: f.Replicas, Behavior: f.Behavior}
	}
	if w := m.TargetWorkload; w != nil {
		so.TargetWorkload = w.workload()
	}
	if g := m.NodeGroupCapacity; g != nil {
		c := g.capacity()
		so.NodeGroupCapacity = &c
	}
	if d := m.Database; d != nil {
		so.Database = &keda.Database{Name: d.Name, MaxConnections: d.MaxConnections, ReservedConnections: deref(d.ReservedConnections),
			UsableFraction: d.UsableFraction, OtherClients: deref(d.OtherClients)}
	}
	return so
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

func (r *kedaRulesModel) rules() *keda.ScalingRules {
	if r == nil {
		return nil
	}
	out := &keda.ScalingRules{StabilizationWindowSeconds: r.StabilizationWindowSeconds, SelectPolicy: r.SelectPolicy, Tolerance: r.Tolerance}
	if r.Policies != nil {
		out.Policies = []keda.Policy{}
	}
	for _, p := range r.Policies {
		out.Policies = append(out.Policies, keda.Policy{Type: p.Type, Value: p.Value, PeriodSeconds: p.PeriodSeconds})
	}
	return out
}

func (w kedaWorkloadModel) workload() *keda.Workload {
	out := &keda.Workload{Kind: deref(w.Kind), MaxConcurrencyPerPod: w.MaxConcurrencyPerPod, CPUPerBusyWorker: w.CPUPerBusyWorker,
		ConnectionsPerPod: w.ConnectionsPerPod, DNSLookupsPerSecond: w.DNSLookupsPerSecond}
	if t := w.PodTemplate; t != nil {
		conv := func(cs []kedaContainerModel) []keda.Container {
			var out []keda.Container
			for _, c := range cs {
				out = append(out, keda.Container{Name: c.Name, Requests: quantities(c.Requests), Limits: quantities(c.Limits), RestartPolicy: c.RestartPolicy})
			}
			return out
		}
		out.PodTemplate = keda.PodTemplate{Containers: conv(t.Containers), InitContainers: conv(t.InitContainers), Overhead: quantities(t.Overhead)}
		if p := t.PodResources; p != nil {
			out.PodTemplate.PodResources = &keda.PodResources{Requests: quantities(p.Requests), Limits: quantities(p.Limits)}
		}
	}
	if ro := w.Rollout; ro != nil {
		out.Rollout = &keda.Rollout{Strategy: deref(ro.Strategy), MaxSurge: ro.MaxSurge}
	}
	for _, s := range w.TopologySpread {
		out.TopologySpread = append(out.TopologySpread, keda.SpreadConstraint{TopologyKey: s.TopologyKey, MaxSkew: s.MaxSkew, WhenUnsatisfiable: s.WhenUnsatisfiable})
	}
	return out
}

// capacity expands the §9.1 object; missing required values are -1, which the planner reports.
func (g nodeGroupCapacityModel) capacity() keda.NodeGroupCapacity {
	req := func(p *int64) int64 {
		if p == nil {
			return -1
		}
		return *p
	}
	c := keda.NodeGroupCapacity{Name: deref(g.Name), MaxNodes: req(g.MaxNodes), Zones: g.Zones, MaxNodesPerZone: g.MaxNodesPerZone,
		WorkloadPods: req(g.WorkloadPods), WorkloadAllocatable: keda.Allocatable{CPUMillicores: -1, MemoryBytes: -1}}
	if a := g.WorkloadAllocatable; a != nil {
		c.WorkloadAllocatable = keda.Allocatable{CPUMillicores: req(a.CPUMillicores), MemoryBytes: req(a.MemoryBytes),
			EphemeralBytes: deref(a.EphemeralBytes), Extended: a.Extended}
	}
	for _, f := range g.Failures {
		c.Failures = append(c.Failures, keda.GroupFailure{Reason: deref(f.Reason), Attribute: deref(f.Attribute), Message: deref(f.Message), Remedy: deref(f.Remedy)})
	}
	for _, w := range g.Workloads {
		gw := keda.GroupWorkload{Name: deref(w.Name), Replicas: max(deref(w.Replicas), 0), Surge: max(deref(w.Surge), 0)}
		if r := w.Requests; r != nil {
			gw.Requests = plannerresource.List{CPUMillicores: max(deref(r.CPUMillicores), 0), MemoryBytes: max(deref(r.MemoryBytes), 0),
				EphemeralStorageBytes: max(deref(r.EphemeralBytes), 0), Pods: 1}
		}
		c.Workloads = append(c.Workloads, gw)
	}
	return c
}
