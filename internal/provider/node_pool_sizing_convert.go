package provider

import (
	"context"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/burst"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/overhead"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/sizing"
)

var objectAsOptions = basetypes.ObjectAsOptions{UnhandledNullAsEmpty: true, UnhandledUnknownAsEmpty: true}

// validatePoolConfig checks a pool with what is known.
func validatePoolConfig(p path.Path, m sizingPoolModel, diags *diag.Diagnostics) {
	if fullyKnown(m.MinNodes) && fullyKnown(m.MaxNodes) && !m.MinNodes.IsNull() && m.MinNodes.ValueInt64() > m.MaxNodes.ValueInt64() {
		diags.AddAttributeError(p.AtName("min_nodes"), "Invalid Pool",
			fmt.Sprintf("min_nodes %d is greater than max_nodes %d (min > max); lower min_nodes or raise max_nodes.", m.MinNodes.ValueInt64(), m.MaxNodes.ValueInt64()))
	}
	if fullyKnown(m.StartingBalance) && !m.StartingBalance.IsNull() {
		if _, err := burst.ParseBalance(m.StartingBalance.ValueString()); err != nil {
			diags.AddAttributeError(p.AtName("starting_balance"), "Invalid Starting Balance", err.Error())
		}
	}
}

// validateWorkloadConfig checks a workload with what is known.
// Every object that takes workloads checks them by the planner's rules (sizing.ReplicaCountErrors,
// sizing.UndefinedPoolError) with the words and the summary the planner's own errors get when the values
// are only known at plan: one rule, one message, whichever object and whenever it is found.
func validateWorkloadConfig(p path.Path, w workloadCheck, poolsKnown bool, poolNames map[string]bool, diags *diag.Diagnostics) {
	nameKnown := fullyKnown(w.Name) && !w.Name.IsNull()
	if nameKnown && fullyKnown(w.Replicas) && fullyKnown(w.MinReplicas) && fullyKnown(w.MaxReplicas) {
		errs := sizing.ReplicaCountErrors(field.Path{}, w.Name.ValueString(), intOrNil(w.Replicas), intOrNil(w.MinReplicas), intOrNil(w.MaxReplicas))
		addWorkloadErrors(diags, p, errs)
	}
	if fullyKnown(w.MaxSurge) && !w.MaxSurge.IsNull() {
		if _, err := parseIntOrPercent(w.MaxSurge.ValueString()); err != nil {
			diags.AddAttributeError(p.AtName("max_surge"), invalidWorkload, err.Error())
		}
	}
	if nameKnown && poolsKnown && fullyKnown(w.Pools) {
		for i, e := range w.Pools.Elements() {
			if s, ok := e.(types.String); ok && !poolNames[s.ValueString()] {
				addWorkloadErrors(diags, p, field.Errors{sizing.UndefinedPoolError(field.NewPath("Pools").At(i), w.Name.ValueString(), s.ValueString(), sortedKeys(poolNames))})
			}
		}
	}
}

// addWorkloadErrors reports planner errors about one workload (paths relative to it) below p.
func addWorkloadErrors(diags *diag.Diagnostics, p path.Path, errs field.Errors) {
	for _, e := range errs {
		diags.AddAttributeError(attributePath(p, e.Path, sizingRenames), invalidWorkload, sentence(e.Detail))
	}
}

// intOrNil is a known Int64's value as an *int, nil when null.
func intOrNil(v types.Int64) *int {
	if v.IsNull() || v.IsUnknown() {
		return nil
	}
	n := int(v.ValueInt64())
	return &n
}

// parseIntOrPercent reads "2" or "25%" (no spaces, as Kubernetes).
func parseIntOrPercent(s string) (fit.IntOrPercent, error) {
	pct := strings.HasSuffix(s, "%")
	n, err := strconv.Atoi(strings.TrimSuffix(s, "%"))
	if err != nil || n < 0 || n > 1_000_000 {
		return fit.IntOrPercent{}, fmt.Errorf("%q is neither a count nor a percentage; write it like \"2\" or \"25%%\"", s)
	}
	return fit.IntOrPercent{Value: n, Percent: pct}, nil
}

// sizingRenames maps the sizing planner's field names to kubefit_node_pool_sizing's attributes: the pool's
// overhead and credit options sit directly in the pool object, quantities by their Kubernetes names.
var sizingRenames = renames{
	"DaemonSets": "daemonsets", "SystemDaemonSets": "system_daemonsets", "Overhead": "", "Credits": "", "CPUUsageMillicores": "cpu_usage",
	"Requests.CPUMillicores": "cpu", "Requests.MemoryBytes": "memory", "Requests.EphemeralStorageBytes": "ephemeral_storage", "Requests.GPU": "gpu", "VolumeClaims.SizeBytes": "size",
	"Credits.Mode": "credit_mode", "Credits.Start": "starting_balance",
	"KubeReserved.CPUMillicores": "[cpu]", "KubeReserved.MemoryBytes": "[memory]", "KubeReserved.EphemeralStorageBytes": "[ephemeral-storage]",
	"SystemReserved.CPUMillicores": "[cpu]", "SystemReserved.MemoryBytes": "[memory]", "SystemReserved.EphemeralStorageBytes": "[ephemeral-storage]",
	"MeasuredCapacity.CPUMillicores": "cpu", "MeasuredCapacity.MemoryBytes": "memory", "MeasuredCapacity.EphemeralStorageBytes": "ephemeral_storage",
	"Instance": "instance_type", "VMMemoryOverheadBP": "vm_memory_overhead_percent", "Spread.Type": "type",
	"DisruptionBudget": "pod_disruption_budget", "Upgrade": "", "Upgrade.MaxSurge": "upgrade_max_surge", "Upgrade.MaxUnavailable": "upgrade_max_unavailable",
	"EKS.Kind": "node_group_kind", "EKS.ReservedENIs": "reserved_enis",
	"MeasuredAllocatable.CPUMillicores": "cpu", "MeasuredAllocatable.MemoryBytes": "memory", "MeasuredAllocatable.EphemeralStorageBytes": "ephemeral_storage",
	// fit.PodAffinity's four lists are pod_affinity's and pod_anti_affinity's required and preferred; a preferred
	// term's fields sit beside its weight; selectors are label_selector.
	"PodAffinity": "", "PodAffinity.Required": "pod_affinity.required", "PodAffinity.Preferred": "pod_affinity.preferred",
	"PodAffinity.AntiRequired": "pod_anti_affinity.required", "PodAffinity.AntiPreferred": "pod_anti_affinity.preferred", "Term": "",
	"Required.Selector": "label_selector", "AntiRequired.Selector": "label_selector", "Term.Selector": "label_selector", "TopologySpread.Selector": "label_selector",
}

// expandSizing converts kubefit_node_pool_sizing's configuration into one sizing request. Pools are sorted by
// name. It reports values it cannot read (quantities, balances) at their attributes.
func expandSizing(ctx context.Context, m nodePoolSizingModel, diags *diag.Diagnostics) sizing.Request {
	req := sizing.Request{Scheduler: fit.SchedulerProfile(m.Scheduler.ValueString()),
		Arrival: fit.ArrivalOrder(m.Arrival.ValueString()), Disruptions: expandDisruptions(ctx, m.Disruptions, diags),
		SystemDaemonSets: overhead.SystemDaemonSets(m.SystemDS.ValueString())}
	elems := m.Pools.Elements()
	for _, name := range sortedKeys(elems) {
		var pm sizingPoolModel
		if obj, ok := elems[name].(types.Object); ok {
			diags.Append(objectAs(ctx, obj, &pm, objectAsOptions)...)
		}
		req.Pools = append(req.Pools, expandSizingPool(ctx, path.Root("pools").AtMapKey(name), name, pm, diags))
	}
	var dss []sizingDaemonSetModel
	diags.Append(listElementsAs(ctx, m.DaemonSets, &dss, false)...)
	for i, d := range dss {
		req.DaemonSets = append(req.DaemonSets, expandDaemonSet(ctx, path.Root("daemonsets").AtListIndex(i), d, diags))
	}
	var ws []workloadModel
	diags.Append(listElementsAs(ctx, m.Workloads, &ws, false)...)
	for i, w := range ws {
		req.Workloads = append(req.Workloads, expandWorkload(ctx, path.Root("workloads").AtListIndex(i), w, diags))
	}
	sizing.QualifyWorkloadNames(req.Workloads)
	return req
}

func expandSizingPool(ctx context.Context, p path.Path, name string, m sizingPoolModel, diags *diag.Diagnostics) sizing.Pool {
	sp := sizing.Pool{Name: name, Cloud: catalog.Cloud(strings.ToLower(m.Cloud.ValueString())),
		MinNodes: int(m.MinNodes.ValueInt64()), MaxNodes: int(m.MaxNodes.ValueInt64()), Weight: int(m.Weight.ValueInt64()),
		Labels: expandStringMap(ctx, m.Labels, diags), CapacityType: fit.CapacityType(m.CapacityType.ValueString()),
		UpgradeMaxSurge: optIntOrPercent(m.UpgradeMaxSurge), UpgradeMaxUnavailable: optIntOrPercent(m.UpgradeMaxUnavailable)}
	if !m.InstanceType.IsNull() {
		sp.InstanceTypes = []string{m.InstanceType.ValueString()}
	} else {
		diags.Append(listElementsAs(ctx, m.InstanceTypes, &sp.InstanceTypes, false)...)
	}
	sp.Overhead = overheadInput(ctx, p, m.overheadOptionsModel, overhead.Profile(m.Profile.ValueString()), overhead.Instance{}, diags)
	diags.Append(listElementsAs(ctx, m.Zones, &sp.Zones, false)...)
	sp.Taints = expandTaints(ctx, m.Taints, diags)
	sp.Extended = expandExtended(ctx, p.AtName("extended_resources"), m.ExtendedResources, diags)
	sp.Credits.Mode = burst.Mode(m.CreditMode.ValueString())
	if !m.StartingBalance.IsNull() {
		b, err := burst.ParseBalance(m.StartingBalance.ValueString())
		if err != nil {
			diags.AddAttributeError(p.AtName("starting_balance"), "Invalid Starting Balance", err.Error())
		}
		sp.Credits.Start = b
	}
	if !m.MinHours.IsNull() {
		h := m.MinHours.ValueInt64()
		sp.Credits.MinHours = &h
	}
	if !m.MaxSurplusCostPerMonth.IsNull() {
		c := m.MaxSurplusCostPerMonth.ValueFloat64()
		sp.Credits.MaxSurplusCostPerMonth = &c
	}
	return sp
}

func expandRequests(ctx context.Context, p path.Path, o types.Object, diags *diag.Diagnostics) fit.Resources {
	var r fit.Resources
	if o.IsNull() {
		return r
	}
	if _, ok := o.Attributes()["extended"]; ok {
		// A workload's requests (workloadRequestsAttribute): extended resources are read by expandRequestsExtended.
		types, values := maps.Clone(o.AttributeTypes(ctx)), maps.Clone(o.Attributes())
		delete(types, "extended")
		delete(values, "extended")
		var d diag.Diagnostics
		if o, d = basetypes.NewObjectValue(types, values); d.HasError() {
			diags.Append(d...)
			return r
		}
	}
	var m requestsModel
	diags.Append(objectAs(ctx, o, &m, objectAsOptions)...)
	if v := optQuantity(p.AtName("cpu"), m.CPU, quantityCPU, diags); v != nil {
		r.CPUMillicores = *v
	}
	if v := optQuantity(p.AtName("memory"), m.Memory, quantityBytes, diags); v != nil {
		r.MemoryBytes = *v
	}
	if v := optQuantity(p.AtName("ephemeral_storage"), m.EphemeralStorage, quantityBytes, diags); v != nil {
		r.EphemeralStorageBytes = *v
	}
	r.GPU = m.GPU.ValueInt64()
	return r
}

func expandTolerations(ctx context.Context, l types.List, diags *diag.Diagnostics) []fit.Toleration {
	var ts []tolerationModel
	diags.Append(listElementsAs(ctx, l, &ts, false)...)
	out := make([]fit.Toleration, 0, len(ts))
	for _, t := range ts {
		out = append(out, fit.Toleration{Key: t.Key.ValueString(), Operator: fit.TolerationOperator(t.Operator.ValueString()),
			Value: t.Value.ValueString(), Effect: fit.TaintEffect(t.Effect.ValueString())})
	}
	return out
}

type nodeSelectorTermModel struct {
	MatchExpressions []nodeSelectorRequirementModel `tfsdk:"match_expressions"`
}

type nodeSelectorRequirementModel struct {
	Key      types.String `tfsdk:"key"`
	Operator types.String `tfsdk:"operator"`
	Values   types.List   `tfsdk:"values"`
}

func expandNodeAffinity(ctx context.Context, l types.List, diags *diag.Diagnostics) []fit.NodeSelectorTerm {
	var ts []nodeSelectorTermModel
	diags.Append(listElementsAs(ctx, l, &ts, false)...)
	var out []fit.NodeSelectorTerm
	for _, t := range ts {
		out = append(out, expandNodeAffinityTerm(ctx, t, diags))
	}
	return out
}

func expandNodeAffinityTerm(ctx context.Context, t nodeSelectorTermModel, diags *diag.Diagnostics) fit.NodeSelectorTerm {
	term := fit.NodeSelectorTerm{}
	for _, e := range t.MatchExpressions {
		var values []string
		diags.Append(listElementsAs(ctx, e.Values, &values, false)...)
		term.MatchExpressions = append(term.MatchExpressions, fit.NodeSelectorRequirement{Key: e.Key.ValueString(),
			Operator: fit.NodeSelectorOperator(e.Operator.ValueString()), Values: values})
	}
	return term
}

// weightedNodeTermModel is one term of preferred_node_affinity: its weight beside its expressions.
type weightedNodeTermModel struct {
	Weight           int64                          `tfsdk:"weight"`
	MatchExpressions []nodeSelectorRequirementModel `tfsdk:"match_expressions"`
}

func expandPreferredNodeAffinity(ctx context.Context, l types.List, diags *diag.Diagnostics) []fit.WeightedNodeSelectorTerm {
	var ts []weightedNodeTermModel
	diags.Append(listElementsAs(ctx, l, &ts, false)...)
	var out []fit.WeightedNodeSelectorTerm
	for _, t := range ts {
		term := expandNodeAffinityTerm(ctx, nodeSelectorTermModel{MatchExpressions: t.MatchExpressions}, diags)
		out = append(out, fit.WeightedNodeSelectorTerm{Weight: int(t.Weight), Term: term})
	}
	return out
}

type hostPortModel struct {
	Port     types.Int64  `tfsdk:"port"`
	Protocol types.String `tfsdk:"protocol"`
	IP       types.String `tfsdk:"ip"`
}

func expandHostPorts(ctx context.Context, l types.List, diags *diag.Diagnostics) []fit.HostPort {
	var ps []hostPortModel
	diags.Append(listElementsAs(ctx, l, &ps, false)...)
	var out []fit.HostPort
	for _, p := range ps {
		out = append(out, fit.HostPort{Port: int(p.Port.ValueInt64()), Protocol: p.Protocol.ValueString(), IP: p.IP.ValueString()})
	}
	return out
}

func expandDisruptions(ctx context.Context, l types.List, diags *diag.Diagnostics) []fit.DisruptionKind {
	var names []string
	diags.Append(listElementsAs(ctx, l, &names, false)...)
	var out []fit.DisruptionKind
	for _, n := range names {
		out = append(out, fit.DisruptionKind(n))
	}
	return out
}

var disruptionAttrTypes = map[string]attr.Type{"fits": types.BoolType, "checked": types.BoolType, "lost": types.StringType, "pool": types.StringType,
	"zone": types.StringType, "evicted": types.Int64Type, "pending": types.MapType{ElemType: types.Int64Type},
	"stuck": types.MapType{ElemType: types.Int64Type}, "blocked": types.MapType{ElemType: types.Int64Type}, "message": types.StringType}

// disruptionResultsValue is disruption_results: the verdict of each disruption scenario, keyed by its name.
func disruptionResultsValue(rs []fit.DisruptionResult) types.Map {
	counts := countsValue
	elems := make(map[string]attr.Value, len(rs))
	for _, r := range rs {
		elems[string(r.Kind)] = types.ObjectValueMust(disruptionAttrTypes, map[string]attr.Value{
			"fits": types.BoolValue(r.Fits), "checked": types.BoolValue(r.Checked), "lost": types.StringValue(r.Lost),
			"pool": types.StringValue(r.Pool), "zone": types.StringValue(r.Zone), "evicted": types.Int64Value(int64(r.Evicted)),
			"pending": counts(r.Pending), "stuck": counts(r.Stuck), "blocked": counts(r.Blocked), "message": types.StringValue(r.Message)})
	}
	return types.MapValueMust(types.ObjectType{AttrTypes: disruptionAttrTypes}, elems)
}

// Inter-pod affinity, as configured and as kubefit_workloads outputs it (one Go shape for both).
type (
	labelSelectorModel struct {
		MatchLabels      map[string]string `tfsdk:"match_labels"`
		MatchExpressions []requirementOut  `tfsdk:"match_expressions"`
	}
	podTermModel struct {
		TopologyKey   string              `tfsdk:"topology_key"`
		LabelSelector *labelSelectorModel `tfsdk:"label_selector"`
		Namespaces    []string            `tfsdk:"namespaces"`
		AllNamespaces *bool               `tfsdk:"all_namespaces"`
	}
	weightedPodTermModel struct {
		Weight int64 `tfsdk:"weight"`
		podTermModel
	}
	podAffinityModel struct {
		Required  []podTermModel         `tfsdk:"required"`
		Preferred []weightedPodTermModel `tfsdk:"preferred"`
	}
)

// topologySpreadModel is one topology_spread constraint, as configured and as kubefit_workloads outputs it.
type topologySpreadModel struct {
	MaxSkew            int64               `tfsdk:"max_skew"`
	TopologyKey        string              `tfsdk:"topology_key"`
	WhenUnsatisfiable  *string             `tfsdk:"when_unsatisfiable"`
	LabelSelector      *labelSelectorModel `tfsdk:"label_selector"`
	MinDomains         *int64              `tfsdk:"min_domains"`
	NodeAffinityPolicy *string             `tfsdk:"node_affinity_policy"`
	NodeTaintsPolicy   *string             `tfsdk:"node_taints_policy"`
	MatchLabelKeys     []string            `tfsdk:"match_label_keys"`
}

func (t topologySpreadModel) fit() fit.TopologySpreadConstraint {
	c := fit.TopologySpreadConstraint{MaxSkew: int(t.MaxSkew), TopologyKey: t.TopologyKey, Selector: selectorOf(t.LabelSelector), MatchLabelKeys: t.MatchLabelKeys}
	if t.WhenUnsatisfiable != nil {
		c.WhenUnsatisfiable = fit.Unsatisfiable(*t.WhenUnsatisfiable)
	}
	if t.MinDomains != nil {
		c.MinDomains = int(*t.MinDomains)
	}
	if t.NodeAffinityPolicy != nil {
		c.NodeAffinityPolicy = fit.InclusionPolicy(*t.NodeAffinityPolicy)
	}
	if t.NodeTaintsPolicy != nil {
		c.NodeTaintsPolicy = fit.InclusionPolicy(*t.NodeTaintsPolicy)
	}
	return c
}

// topologySpreadOut converts the planner's constraints back into topology_spread.
func topologySpreadOut(cs []fit.TopologySpreadConstraint) []topologySpreadModel {
	var out []topologySpreadModel
	for _, c := range cs {
		m := topologySpreadModel{MaxSkew: int64(c.MaxSkew), TopologyKey: c.TopologyKey, LabelSelector: selectorOut(c.Selector), MatchLabelKeys: c.MatchLabelKeys,
			WhenUnsatisfiable: strPtr(string(c.WhenUnsatisfiable)), NodeAffinityPolicy: strPtr(string(c.NodeAffinityPolicy)), NodeTaintsPolicy: strPtr(string(c.NodeTaintsPolicy))}
		if c.MinDomains > 0 {
			m.MinDomains = ptrTo(int64(c.MinDomains))
		}
		out = append(out, m)
	}
	return out
}

// selectorOf converts a label_selector; null selects no pod, as in Kubernetes.
func selectorOf(ls *labelSelectorModel) fit.LabelSelector {
	if ls == nil {
		return fit.LabelSelector{MatchExpressions: []fit.LabelSelectorRequirement{{Key: "kubefit.io/none", Operator: fit.LabelExists}}}
	}
	sel := fit.LabelSelector{MatchLabels: ls.MatchLabels}
	for _, e := range ls.MatchExpressions {
		sel.MatchExpressions = append(sel.MatchExpressions, fit.LabelSelectorRequirement{Key: e.Key, Operator: fit.LabelSelectorOperator(e.Operator), Values: e.Values})
	}
	return sel
}

// selectorOut is selectorOf's inverse.
func selectorOut(sel fit.LabelSelector) *labelSelectorModel {
	if len(sel.MatchExpressions) == 1 && sel.MatchExpressions[0].Key == "kubefit.io/none" {
		return nil
	}
	m := &labelSelectorModel{MatchLabels: sel.MatchLabels}
	for _, e := range sel.MatchExpressions {
		m.MatchExpressions = append(m.MatchExpressions, requirementOut{Key: e.Key, Operator: string(e.Operator), Values: e.Values})
	}
	return m
}

func (t podTermModel) fit() fit.PodAffinityTerm {
	return fit.PodAffinityTerm{TopologyKey: t.TopologyKey, Namespaces: t.Namespaces, AllNamespaces: t.AllNamespaces != nil && *t.AllNamespaces,
		Selector: selectorOf(t.LabelSelector)}
}

// expandPodAffinity converts pod_affinity and pod_anti_affinity; nil when neither has a term.
func expandPodAffinity(ctx context.Context, aff, anti types.Object, diags *diag.Diagnostics) *fit.PodAffinity {
	var out fit.PodAffinity
	decode := func(o types.Object) (req []fit.PodAffinityTerm, pref []fit.WeightedPodAffinityTerm) {
		if o.IsNull() || o.IsUnknown() {
			return nil, nil
		}
		var m podAffinityModel
		diags.Append(o.As(ctx, &m, objectAsOptions)...)
		for _, t := range m.Required {
			req = append(req, t.fit())
		}
		for _, t := range m.Preferred {
			pref = append(pref, fit.WeightedPodAffinityTerm{Weight: int(t.Weight), Term: t.podTermModel.fit()})
		}
		return req, pref
	}
	out.Required, out.Preferred = decode(aff)
	out.AntiRequired, out.AntiPreferred = decode(anti)
	if len(out.Required)+len(out.Preferred)+len(out.AntiRequired)+len(out.AntiPreferred) == 0 {
		return nil
	}
	return &out
}

// podAffinityOut converts the planner's terms back into pod_affinity and pod_anti_affinity.
func podAffinityOut(a *fit.PodAffinity) (aff, anti *podAffinityModel) {
	if a == nil {
		return nil, nil
	}
	term := func(t fit.PodAffinityTerm) podTermModel {
		m := podTermModel{TopologyKey: t.TopologyKey, Namespaces: t.Namespaces, LabelSelector: selectorOut(t.Selector)}
		if t.AllNamespaces {
			m.AllNamespaces = ptrTo(true)
		}
		return m
	}
	group := func(req []fit.PodAffinityTerm, pref []fit.WeightedPodAffinityTerm) *podAffinityModel {
		if len(req)+len(pref) == 0 {
			return nil
		}
		m := &podAffinityModel{}
		for _, t := range req {
			m.Required = append(m.Required, term(t))
		}
		for _, t := range pref {
			m.Preferred = append(m.Preferred, weightedPodTermModel{Weight: int64(t.Weight), podTermModel: term(t.Term)})
		}
		return m
	}
	return group(a.Required, a.Preferred), group(a.AntiRequired, a.AntiPreferred)
}

type volumeClaimModel struct {
	Name         types.String  `tfsdk:"name"`
	Size         types.String  `tfsdk:"size"`
	StorageClass types.String  `tfsdk:"storage_class"`
	AccessModes  types.List    `tfsdk:"access_modes"`
	From         types.String  `tfsdk:"from"`
	IOPS         types.Int64   `tfsdk:"iops"`
	Throughput   types.Float64 `tfsdk:"throughput_mbps"`
	DiskType     types.String  `tfsdk:"disk_type"`
}

func expandVolumeClaims(ctx context.Context, p path.Path, l types.List, diags *diag.Diagnostics) []fit.VolumeClaim {
	var cs []volumeClaimModel
	diags.Append(listElementsAs(ctx, l, &cs, false)...)
	var out []fit.VolumeClaim
	for i, c := range cs {
		vc := fit.VolumeClaim{Name: c.Name.ValueString(), StorageClass: c.StorageClass.ValueString(), From: fit.ClaimSource(c.From.ValueString()),
			IOPS: c.IOPS.ValueInt64(), ThroughputMBps: c.Throughput.ValueFloat64(), DiskType: c.DiskType.ValueString()}
		if v := optQuantity(p.AtListIndex(i).AtName("size"), c.Size, quantityBytes, diags); v != nil {
			vc.SizeBytes = *v
		}
		var modes []string
		diags.Append(listElementsAs(ctx, c.AccessModes, &modes, false)...)
		for _, m := range modes {
			vc.AccessModes = append(vc.AccessModes, fit.AccessMode(m))
		}
		out = append(out, vc)
	}
	return out
}

func expandStringMap(ctx context.Context, m types.Map, diags *diag.Diagnostics) map[string]string {
	out := map[string]string{}
	diags.Append(m.ElementsAs(ctx, &out, false)...)
	return out
}

func expandDaemonSet(ctx context.Context, p path.Path, d sizingDaemonSetModel, diags *diag.Diagnostics) sizing.DaemonSet {
	ds := sizing.DaemonSet{Name: d.Name.ValueString(), Requests: expandRequests(ctx, p.AtName("requests"), d.Requests, diags),
		NodeSelector: expandStringMap(ctx, d.NodeSelector, diags), Tolerations: expandTolerations(ctx, d.Tolerations, diags),
		NodeAffinity: expandNodeAffinity(ctx, d.NodeAffinity, diags), HostPorts: expandHostPorts(ctx, d.HostPorts, diags),
		TakesPodSlot: d.TakesPodSlot.IsNull() || d.TakesPodSlot.ValueBool()}
	if v := optQuantity(p.AtName("cpu_usage"), d.CPUUsage, quantityCPU, diags); v != nil {
		ds.CPUUsageMillicores = *v
	}
	return ds
}

func optCount(v types.Int64) *int {
	if v.IsNull() || v.IsUnknown() {
		return nil
	}
	n := int(v.ValueInt64())
	return &n
}

func expandWorkload(ctx context.Context, p path.Path, w workloadModel, diags *diag.Diagnostics) sizing.Workload {
	sw := sizing.Workload{Name: w.Name.ValueString(), Requests: expandRequests(ctx, p.AtName("requests"), w.Requests, diags),
		NodeSelector: expandStringMap(ctx, w.NodeSelector, diags), Tolerations: expandTolerations(ctx, w.Tolerations, diags),
		NodeAffinity: expandNodeAffinity(ctx, w.NodeAffinity, diags), PreferredNodeAffinity: expandPreferredNodeAffinity(ctx, w.Preferred, diags),
		HostPorts: expandHostPorts(ctx, w.HostPorts, diags), Replicas: optCount(w.Replicas), MinReplicas: optCount(w.MinReplicas), MaxReplicas: optCount(w.MaxReplicas)}
	sw.Extended = expandRequestsExtended(ctx, p.AtName("requests"), w.Requests, diags)
	if v := optQuantity(p.AtName("cpu_usage"), w.CPUUsage, quantityCPU, diags); v != nil {
		sw.CPUUsageMillicores = *v
	}
	sw.VolumeClaims = expandVolumeClaims(ctx, p.AtName("volume_claims"), w.VolumeClaims, diags)
	sw.Namespace = w.Namespace.ValueString()
	sw.OS = w.OS.ValueString()
	sw.Priority = int32(w.Priority.ValueInt64())
	sw.DisruptionBudget = expandDisruptionBudget(ctx, w.PDB, diags)
	if !w.Labels.IsNull() {
		sw.Labels = expandStringMap(ctx, w.Labels, diags)
	}
	sw.PodAffinity = expandPodAffinity(ctx, w.PodAffinity, w.PodAnti, diags)
	if !w.TopoSpread.IsNull() && !w.TopoSpread.IsUnknown() {
		var ts []topologySpreadModel
		diags.Append(listElementsAs(ctx, w.TopoSpread, &ts, false)...)
		for _, t := range ts {
			sw.TopologySpread = append(sw.TopologySpread, t.fit())
		}
	}
	diags.Append(listElementsAs(ctx, w.Pools, &sw.Pools, false)...)
	if !w.MaxSurge.IsNull() {
		var err error
		if sw.MaxSurge, err = parseIntOrPercent(w.MaxSurge.ValueString()); err != nil {
			diags.AddAttributeError(p.AtName("max_surge"), invalidWorkload, err.Error())
		}
	}
	if !w.Spread.IsNull() {
		var sp spreadModel
		diags.Append(objectAs(ctx, w.Spread, &sp, objectAsOptions)...)
		sw.Spread = fit.Spread{Type: fit.SpreadType(sp.Type.ValueString()), MaxSkew: int(sp.MaxSkew.ValueInt64())}
	}
	return sw
}

// sizingErrorPath maps a sizing error path to its attribute; a single instance_type is the first element of
// the planner's InstanceTypes.
func sizingErrorPath(p field.Path, m nodePoolSizingModel) path.Path {
	steps := p.Steps()
	if len(steps) >= 4 && steps[0].Name == "Pools" && steps[2].Name == "InstanceTypes" && steps[1].Kind == field.Key {
		if obj, ok := m.Pools.Elements()[steps[1].Key].(types.Object); ok {
			if it, ok := obj.Attributes()["instance_type"]; ok && !it.IsNull() {
				return path.Root("pools").AtMapKey(steps[1].Key).AtName("instance_type")
			}
		}
	}
	return attributePath(path.Empty(), p, sizingRenames)
}

// instanceTypeWarnings moves a warning about a pool's InstanceTypes[j] to its InstanceType when the pool gives its
// one type as instance_type, as sizingErrorPath does for errors: the user never wrote instance_types there.
func instanceTypeWarnings(ws []field.Warning, m nodePoolSizingModel) []field.Warning {
	out := make([]field.Warning, len(ws))
	for i, w := range ws {
		out[i] = w
		steps := w.Path.Steps()
		if len(steps) < 4 || steps[0].Name != "Pools" || steps[1].Kind != field.Key || steps[2].Name != "InstanceTypes" {
			continue
		}
		obj, ok := m.Pools.Elements()[steps[1].Key].(types.Object)
		if it, given := obj.Attributes()["instance_type"]; ok && given && !it.IsNull() {
			out[i].Path = field.NewPath("Pools").Key(steps[1].Key).Child("InstanceType").Join(w.Path.Drop(4))
		}
	}
	return out
}

var (
	utilAttrTypes     = map[string]attr.Type{"cpu": types.Float64Type, "memory": types.Float64Type, "pods": types.Float64Type}
	strandedAttrTypes = map[string]attr.Type{"cpu_millicores": types.Int64Type, "memory_bytes": types.Int64Type, "pods": types.Int64Type}
	scenarioAttrTypes = map[string]attr.Type{
		"nodes_required": types.Int64Type, "nodes_optimal": types.Int64Type, "fits": types.BoolType, "lower_bound": types.Int64Type, "lower_bound_by": types.StringType,
		"pods": types.Int64Type, "utilization": types.ObjectType{AttrTypes: utilAttrTypes}, "stranded": types.ObjectType{AttrTypes: strandedAttrTypes},
		"max_node_cpu_usage_millicores": types.Int64Type, "price_per_hour": types.Float64Type,
	}
	burstAttrTypes = map[string]attr.Type{
		"credit_mode": types.StringType, "baseline_cpu_millicores": types.Int64Type, "max_node_cpu_usage_millicores": types.Int64Type,
		"node_cpu_usage_millicores": types.ListType{ElemType: types.Int64Type}, "hours_to_exhaustion": types.Float64Type,
		"delivered_cpu_millicores_after_exhaustion": types.Int64Type, "verdict": types.StringType, "detail": types.StringType,
	}
	poolResultAttrTypes = map[string]attr.Type{
		"instance_type": types.StringType, "profile": types.StringType, "overhead_evidence": types.ObjectType{AttrTypes: evidenceAttrTypes},
		"note": types.StringType, "min_nodes": types.Int64Type,
		"max_nodes": types.Int64Type, "allocatable": types.ObjectType{AttrTypes: resourcesAttrTypes},
		"workload_allocatable": types.ObjectType{AttrTypes: resourcesAttrTypes}, "daemonsets": types.ListType{ElemType: types.StringType},
		"steady": types.ObjectType{AttrTypes: scenarioAttrTypes}, "peak": types.ObjectType{AttrTypes: scenarioAttrTypes},
		"burst": types.ObjectType{AttrTypes: burstAttrTypes},
	}
	workloadResultAttrTypes = map[string]attr.Type{
		"steady": types.MapType{ElemType: types.Int64Type}, "peak": types.MapType{ElemType: types.Int64Type},
		"unplaced_steady": types.Int64Type, "unplaced_peak": types.Int64Type, "headroom": types.Int64Type,
	}
	failureAttrTypes = map[string]attr.Type{"workload": types.StringType, "pool": types.StringType, "scenario": types.StringType,
		"reason": types.StringType, "message": types.StringType}
)

func fitResources(r fit.Resources) types.Object { return resourcesValue(r) }

func scenarioValue(pr fit.PoolResult) types.Object {
	return types.ObjectValueMust(scenarioAttrTypes, map[string]attr.Value{
		"nodes_required": types.Int64Value(int64(pr.NodesRequired)), "nodes_optimal": types.Int64Value(int64(pr.NodesOptimal)),
		"fits":        types.BoolValue(pr.Fits),
		"lower_bound": types.Int64Value(int64(pr.LowerBound)), "lower_bound_by": types.StringValue(pr.LowerBoundBy),
		"pods": types.Int64Value(int64(pr.Pods)),
		"utilization": types.ObjectValueMust(utilAttrTypes, map[string]attr.Value{
			"cpu": types.Float64Value(round4(pr.Utilization.CPU)), "memory": types.Float64Value(round4(pr.Utilization.Memory)),
			"pods": types.Float64Value(round4(pr.Utilization.Pods))}),
		"stranded": types.ObjectValueMust(strandedAttrTypes, map[string]attr.Value{
			"cpu_millicores": types.Int64Value(pr.Stranded.CPUMillicores), "memory_bytes": types.Int64Value(pr.Stranded.MemoryBytes),
			"pods": types.Int64Value(pr.Stranded.Pods)}),
		"max_node_cpu_usage_millicores": types.Int64Value(pr.MaxNodeCPUUsageMillicores),
		"price_per_hour":                types.Float64Value(round4(pr.PricePerHour)),
	})
}

func round4(f float64) float64 { return math.Round(f*10000) / 10000 }

func burstValue(c *sizing.CreditCheck) types.Object {
	if c == nil {
		return types.ObjectNull(burstAttrTypes)
	}
	nodes := make([]attr.Value, 0, len(c.NodeMillicores))
	for _, n := range c.NodeMillicores {
		nodes = append(nodes, types.Int64Value(n))
	}
	hours := types.Float64Null()
	if c.Result.Exhausts {
		hours = types.Float64Value(round4(c.Result.HoursToExhaustion))
	}
	return types.ObjectValueMust(burstAttrTypes, map[string]attr.Value{
		"credit_mode": types.StringValue(string(c.Result.Mode)), "baseline_cpu_millicores": types.Int64Value(c.Result.SustainedMillicores),
		"max_node_cpu_usage_millicores": types.Int64Value(c.BusiestNodeMillicores), "node_cpu_usage_millicores": types.ListValueMust(types.Int64Type, nodes),
		"hours_to_exhaustion": hours, "delivered_cpu_millicores_after_exhaustion": types.Int64Value(c.Result.DeliveredMillicoresAfterExhaustion),
		"verdict": types.StringValue(string(c.Result.Verdict)), "detail": types.StringValue(c.Result.Detail),
	})
}

// flattenSizing writes a plan into the model's computed attributes.
func flattenSizing(m *nodePoolSizingModel, plan *sizing.Plan) {
	pools := map[string]attr.Value{}
	for _, pp := range plan.Pools {
		ds := make([]attr.Value, 0, len(pp.DaemonSets))
		for _, d := range pp.DaemonSets {
			ds = append(ds, types.StringValue(d))
		}
		pools[pp.Name] = types.ObjectValueMust(poolResultAttrTypes, map[string]attr.Value{
			"instance_type": types.StringValue(pp.Instance.Name), "profile": types.StringValue(string(pp.Overhead.Profile)),
			"overhead_evidence": evidenceValue(pp.Overhead.Evidence),
			"note":              types.StringValue(pp.Note), "min_nodes": types.Int64Value(int64(pp.MinNodes)),
			"max_nodes": types.Int64Value(int64(pp.MaxNodes)), "allocatable": fitResources(pp.Allocatable),
			"workload_allocatable": fitResources(pp.WorkloadAllocatable), "daemonsets": types.ListValueMust(types.StringType, ds),
			"steady": scenarioValue(pp.Steady), "peak": scenarioValue(pp.Peak), "burst": burstValue(pp.Credits),
		})
	}
	m.PoolResults = types.MapValueMust(types.ObjectType{AttrTypes: poolResultAttrTypes}, pools)
	perPool := func(pl fit.Placement) types.Map {
		out := map[string]attr.Value{}
		for _, pp := range pl.Pools {
			out[pp.Pool] = types.Int64Value(int64(pp.Pods))
		}
		return types.MapValueMust(types.Int64Type, out)
	}
	workloads := map[string]attr.Value{}
	for _, w := range plan.Workloads {
		workloads[w.Name] = types.ObjectValueMust(workloadResultAttrTypes, map[string]attr.Value{
			"steady": perPool(w.Steady), "peak": perPool(w.Peak), "unplaced_steady": types.Int64Value(int64(w.Steady.Unplaced)),
			"unplaced_peak": types.Int64Value(int64(w.Peak.Unplaced)), "headroom": types.Int64Value(w.Headroom),
		})
	}
	m.WorkloadsOut = types.MapValueMust(types.ObjectType{AttrTypes: workloadResultAttrTypes}, workloads)
	failures := make([]attr.Value, 0, len(plan.Failures))
	for _, f := range plan.Failures {
		failures = append(failures, failureValue(f.Workload, f.Pool, string(f.Scenario), string(f.Reason), f.Message))
	}
	m.Failures = types.ListValueMust(types.ObjectType{AttrTypes: failureAttrTypes}, failures)
	m.Fits = types.BoolValue(plan.Fits)
	m.Report = types.StringValue(plan.Report)
	m.DisruptionOut = disruptionResultsValue(plan.Packing.Disruptions)
	m.FormulaSource = types.StringValue(sizingFormulaSource)
}

func failureValue(workload, pool, scenario, reason, msg string) types.Object {
	return types.ObjectValueMust(failureAttrTypes, map[string]attr.Value{
		"workload": types.StringValue(workload), "pool": types.StringValue(pool), "scenario": types.StringValue(scenario),
		"reason": types.StringValue(reason), "message": types.StringValue(msg),
	})
}

// packingNames lists the packer's strategy ids with the words the report uses for them.
func packingNames() string {
	parts := make([]string, len(fit.Strategies))
	for i, id := range fit.Strategies {
		parts[i] = id + " (" + fit.StrategyName(id) + ")"
	}
	return strings.Join(parts, ", ")
}

var sizingFormulaSource = strings.Join([]string{
	"allocatable: the kubefit_node_overhead model (EKS, AKS and GKE reservation rules; see that data source's formula_source for each term and its public source)",
	"workload_allocatable: " + fit.SourceDaemonSets + " (allocatable − requests of the DaemonSets that land on the pool)",
	"nodes_required: " + fit.StrategyScheduler + " (a model of kube-scheduler v1.37's default profile or MostAllocated: queue order, filters, scores with their normalisation and weights, tie-breaks (its heap over drawn orders of the node names, and at random), when it retries a waiting pod, percentageOfNodesToScore; the fewest nodes on which it binds every pod in every planned arrival order, plus 2 per pool it grew (one per 250 nodes above 500), for the real scheduler's goroutine timing, unless the input is small enough for 64 tie-break draws per order within a 32nd of the model's work budget; counts equal to the best packing's, which get no margin, are checked under up to four times as many draws)",
	"nodes_optimal: multi-resource first-fit-decreasing simulation, in the manner of the kubernetes-sigs/karpenter scheduler and the cluster-autoscaler binpacking estimator; the best of " + packingNames(),
	"lower_bound: " + fit.SourceLowerBound + "; utilization: " + fit.SourceUtilization + "; stranded: " + fit.SourceStranded + "; headroom: " + fit.SourceHeadroom,
	"peak pods: " + fit.SourceSurge + " (max_replicas + ceil(max_replicas × surge % / 100), as Kubernetes rounds maxSurge)",
	"burst: kubefit_burst_budget's model (the cloud's published CPU credit tables) on the steady scenario's busiest node",
}, "\n") + "\n"

// expandTaints converts a pool's or group's taints.
func expandTaints(ctx context.Context, l types.List, diags *diag.Diagnostics) []fit.Taint {
	var taints []taintModel
	diags.Append(listElementsAs(ctx, l, &taints, false)...)
	var out []fit.Taint
	for _, t := range taints {
		out = append(out, fit.Taint{Key: t.Key.ValueString(), Value: t.Value.ValueString(), Effect: fit.TaintEffect(t.Effect.ValueString())})
	}
	return out
}

// expandRequestsExtended reads a workload's requests.extended (workloadRequestsAttribute).
func expandRequestsExtended(ctx context.Context, p path.Path, o types.Object, diags *diag.Diagnostics) map[string]int64 {
	if o.IsNull() || o.IsUnknown() {
		return nil
	}
	m, ok := o.Attributes()["extended"].(types.Map)
	if !ok {
		return nil
	}
	return expandExtended(ctx, p.AtName("extended"), m, diags)
}

// expandExtended reads a map of extended resources and huge pages as exact integers: a count, or bytes for huge
// pages. An extended resource must be a whole number, as the API server requires (ValidateResourceQuantityValue);
// nvidia.com/gpu and the vector's resources have their own attributes.
func expandExtended(ctx context.Context, p path.Path, m types.Map, diags *diag.Diagnostics) map[string]int64 {
	raw := expandStringMap(ctx, m, diags)
	if len(raw) == 0 {
		return nil
	}
	out := make(map[string]int64, len(raw))
	for _, k := range slices.Sorted(maps.Keys(raw)) {
		kp := p.AtMapKey(k)
		switch k {
		case "nvidia.com/gpu":
			diags.AddAttributeError(kp, "Invalid Extended Resource", "nvidia.com/gpu is counted from the instance type's GPUs and requested with requests.gpu; "+
				"list only other extended resources and huge pages here.")
			continue
		case "cpu", "memory", "ephemeral-storage", "pods":
			diags.AddAttributeError(kp, "Invalid Extended Resource", fmt.Sprintf("%s is a resource of its own, not an extended resource; give it with its own attribute.", k))
			continue
		}
		if fit.IsHugePages(k) {
			if b, err := parseQuantity(raw[k], quantityBytes); err == nil { // else the attribute's validator reports it
				out[k] = b.Value
			}
			continue
		}
		q, err := parseQuantity(raw[k], quantityCPU)
		switch {
		case err != nil:
			diags.AddAttributeError(kp, "Invalid Extended Resource", sentence(err.Error()))
		case q.Value%1000 != 0:
			diags.AddAttributeError(kp, "Invalid Extended Resource", fmt.Sprintf("%s of %s is not a whole number; the API server accepts only whole "+
				"numbers of an extended resource.", field.Quote(raw[k]), k))
		default:
			out[k] = q.Value / 1000
		}
	}
	return out
}
