package provider

import (
	"context"
	"fmt"
	"math"
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
	plannerresource "github.com/kubefit/terraform-provider-kubefit/internal/planner/resource"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/sizing"
)

var objectAsOptions = basetypes.ObjectAsOptions{UnhandledNullAsEmpty: true, UnhandledUnknownAsEmpty: true}

// sizingConv converts kubefit_node_pool_sizing's configuration to planner input and the results back.
type sizingConv struct {
	ctx           context.Context
	diags         *diag.Diagnostics
	poolNames     []string // sorted: fit pool i is pools[poolNames[i]]
	pools         map[string]*sizingPool
	workloadIndex map[string]int
}

type sizingPool struct {
	model    sizingPoolModel
	cloud    catalog.Cloud
	instance catalog.InstanceType
	overhead overhead.Result
	note     string
}

func newSizing(ctx context.Context, diags *diag.Diagnostics) *sizingConv {
	return &sizingConv{ctx: ctx, diags: diags, pools: map[string]*sizingPool{}, workloadIndex: map[string]int{}}
}

// validatePoolConfig checks a pool with what is known.
func validatePoolConfig(p path.Path, m sizingPoolModel, diags *diag.Diagnostics) {
	if !m.InstanceType.IsUnknown() && !m.InstanceTypes.IsUnknown() && m.InstanceType.IsNull() == m.InstanceTypes.IsNull() {
		diags.AddAttributeError(p.AtName("instance_type"), "Invalid Pool", "give exactly one of instance_type and instance_types.")
	}
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
func validateWorkloadConfig(p path.Path, w workloadModel, poolsKnown bool, poolNames map[string]bool, diags *diag.Diagnostics) {
	if fullyKnown(w.Replicas) && fullyKnown(w.MinReplicas) && fullyKnown(w.MaxReplicas) {
		switch {
		case !w.Replicas.IsNull() && (!w.MinReplicas.IsNull() || !w.MaxReplicas.IsNull()):
			diags.AddAttributeError(p.AtName("replicas"), "Conflicting Replica Counts", "give either replicas, or min_replicas and max_replicas for an autoscaled workload, not both.")
		case w.Replicas.IsNull() && w.MinReplicas.IsNull() && w.MaxReplicas.IsNull():
			diags.AddAttributeError(p.AtName("replicas"), "Missing Replica Count", "give replicas, or min_replicas and max_replicas.")
		case !w.MinReplicas.IsNull() && !w.MaxReplicas.IsNull() && w.MinReplicas.ValueInt64() > w.MaxReplicas.ValueInt64():
			diags.AddAttributeError(p.AtName("min_replicas"), "Invalid Replica Range",
				fmt.Sprintf("min_replicas %d is greater than max_replicas %d (min > max).", w.MinReplicas.ValueInt64(), w.MaxReplicas.ValueInt64()))
		}
	}
	if fullyKnown(w.MaxSurge) && !w.MaxSurge.IsNull() {
		if _, err := parseIntOrPercent(w.MaxSurge.ValueString()); err != nil {
			diags.AddAttributeError(p.AtName("max_surge"), "Invalid Max Surge", err.Error())
		}
	}
	if poolsKnown && fullyKnown(w.Pools) {
		for i, e := range w.Pools.Elements() {
			if s, ok := e.(types.String); ok && !poolNames[s.ValueString()] {
				diags.AddAttributeError(p.AtName("pools").AtListIndex(i), "Unknown Pool",
					fmt.Sprintf("pool %q is not defined in pools; defined pools: %s.", s.ValueString(), strings.Join(sortedKeys(poolNames), ", ")))
			}
		}
	}
}

// parseIntOrPercent reads "2" or "25%".
func parseIntOrPercent(s string) (fit.IntOrPercent, error) {
	t := strings.TrimSpace(s)
	pct := strings.HasSuffix(t, "%")
	n, err := strconv.Atoi(strings.TrimSuffix(t, "%"))
	if err != nil || n < 0 || n > 1_000_000 {
		return fit.IntOrPercent{}, fmt.Errorf("%q is neither a count nor a percentage; write it like \"2\" or \"25%%\"", s)
	}
	return fit.IntOrPercent{Value: n, Percent: pct}, nil
}

func (s *sizingConv) input(m nodePoolSizingModel) fit.Input {
	var in fit.Input
	elems := m.Pools.Elements()
	s.poolNames = sortedKeys(elems)
	var dss []sizingDaemonSetModel
	s.diags.Append(m.DaemonSets.ElementsAs(s.ctx, &dss, false)...)
	dsNames := make([]string, 0, len(dss))
	for _, d := range dss {
		dsNames = append(dsNames, d.Name.ValueString())
	}
	for _, name := range s.poolNames {
		p := path.Root("pools").AtMapKey(name)
		sp := &sizingPool{}
		if obj, ok := elems[name].(types.Object); ok {
			s.diags.Append(obj.As(s.ctx, &sp.model, objectAsOptions)...)
		}
		validatePoolConfig(p, sp.model, s.diags)
		if s.diags.HasError() {
			return in
		}
		fp, ok := s.pool(p, name, sp, dsNames)
		if !ok {
			return in
		}
		s.pools[name] = sp
		in.Pools = append(in.Pools, fp)
	}
	for i, d := range dss {
		in.DaemonSets = append(in.DaemonSets, s.daemonSet(path.Root("daemonsets").AtListIndex(i), d))
	}
	var ws []workloadModel
	s.diags.Append(m.Workloads.ElementsAs(s.ctx, &ws, false)...)
	names := map[string]bool{}
	for _, n := range s.poolNames {
		names[n] = true
	}
	for i, w := range ws {
		p := path.Root("workloads").AtListIndex(i)
		validateWorkloadConfig(p, w, true, names, s.diags)
		s.workloadIndex[w.Name.ValueString()] = i
		in.Workloads = append(in.Workloads, s.workload(p, w))
	}
	return in
}

// pool computes a pool's node model (the smallest member of a mixed pool) and returns its planner pool.
func (s *sizingConv) pool(p path.Path, name string, sp *sizingPool, dsNames []string) (fit.Pool, bool) {
	m := sp.model
	cloud, ok := parseCloud(p.AtName("cloud"), m.Cloud, s.diags)
	if !ok {
		return fit.Pool{}, false
	}
	sp.cloud = cloud
	type member struct {
		p    path.Path
		name string
	}
	var members []member
	if !m.InstanceType.IsNull() {
		members = append(members, member{p.AtName("instance_type"), m.InstanceType.ValueString()})
	} else {
		for i, e := range m.InstanceTypes.Elements() {
			if v, ok := e.(types.String); ok {
				members = append(members, member{p.AtName("instance_types").AtListIndex(i), v.ValueString()})
			}
		}
	}
	profile := resolveProfile(m.overheadOptionsModel, cloud)
	var names []string
	var rows []catalog.InstanceType
	var results []overhead.Result
	for _, mem := range members {
		it, ok := lookupInstance(s.ctx, sizing.EmbeddedCatalog(), mem.p, cloud, mem.name, s.diags)
		if !ok {
			return fit.Pool{}, false
		}
		in := overheadInput(s.ctx, p, m.overheadOptionsModel, profile, overhead.InstanceFromCatalog(it), s.diags)
		if s.diags.HasError() {
			return fit.Pool{}, false
		}
		r, err := overhead.Compute(in)
		if addPlannerErrors(s.diags, p, err, overheadRenames, "Invalid Node Configuration") {
			return fit.Pool{}, false
		}
		names = append(names, it.Name)
		rows = append(rows, it)
		results = append(results, r)
	}
	i := overhead.Smallest(results)
	sp.instance, sp.overhead = rows[i], results[i]
	if len(members) > 1 {
		sp.note = fmt.Sprintf("mixed pool of %s: planned on the smallest member, %s", strings.Join(names, ", "), sp.instance.Name)
	}
	var caveats []field.Warning
	for _, w := range sp.overhead.Warnings {
		if len(dsNames) > 0 && w.Code == overhead.CodeNoDaemonSets {
			continue // the packer charges the DaemonSets listed at the top level
		}
		w.Message = fmt.Sprintf("pool %q: %s", name, w.Message)
		caveats = append(caveats, w)
	}
	addPlannerWarnings(s.diags, p, caveats, overheadRenames, "Node Overhead Caveat")
	r := sp.overhead
	// The packer charges the listed DaemonSets itself, including EKS's host-network ones.
	pods := r.PackerPods(dsNames)
	os := "linux"
	if profile == overhead.EKSWindows || profile == overhead.AKSWindows {
		os = "windows"
	}
	arch := "amd64"
	if sp.instance.Architecture == catalog.ArchARM64 {
		arch = "arm64"
	}
	labels := map[string]string{"kubernetes.io/arch": arch, "kubernetes.io/os": os, "node.kubernetes.io/instance-type": sp.instance.Name}
	for k, v := range m.Labels.Elements() {
		if sv, ok := v.(types.String); ok {
			labels[k] = sv.ValueString()
		}
	}
	var taints []taintModel
	s.diags.Append(m.Taints.ElementsAs(s.ctx, &taints, false)...)
	fp := fit.Pool{
		Name: name, InstanceType: sp.instance.Name,
		Allocatable: fit.Resources{CPUMillicores: r.Allocatable.CPUMillicores, MemoryBytes: r.Allocatable.MemoryBytes,
			EphemeralStorageBytes: r.Allocatable.EphemeralStorageBytes, Pods: pods, GPU: int64(sp.instance.GPUCount)},
		MinNodes: int(m.MinNodes.ValueInt64()), MaxNodes: int(m.MaxNodes.ValueInt64()),
		Labels: labels, Weight: int(m.Weight.ValueInt64()), PricePerHour: sp.instance.PriceUSDPerHour, Note: sp.note,
	}
	s.diags.Append(m.Zones.ElementsAs(s.ctx, &fp.Zones, false)...)
	for _, t := range taints {
		fp.Taints = append(fp.Taints, fit.Taint{Key: t.Key.ValueString(), Value: t.Value.ValueString(), Effect: fit.TaintEffect(t.Effect.ValueString())})
	}
	return fp, true
}

func (s *sizingConv) requests(p path.Path, o types.Object) fit.Resources {
	var r fit.Resources
	if o.IsNull() {
		return r
	}
	var m requestsModel
	s.diags.Append(o.As(s.ctx, &m, objectAsOptions)...)
	if v := optQuantity(p.AtName("cpu"), m.CPU, quantityCPU, s.diags); v != nil {
		r.CPUMillicores = *v
	}
	if v := optQuantity(p.AtName("memory"), m.Memory, quantityBytes, s.diags); v != nil {
		r.MemoryBytes = *v
	}
	if v := optQuantity(p.AtName("ephemeral_storage"), m.EphemeralStorage, quantityBytes, s.diags); v != nil {
		r.EphemeralStorageBytes = *v
	}
	r.GPU = m.GPU.ValueInt64()
	return r
}

func (s *sizingConv) tolerations(l types.List) []fit.Toleration {
	var ts []tolerationModel
	s.diags.Append(l.ElementsAs(s.ctx, &ts, false)...)
	out := make([]fit.Toleration, 0, len(ts))
	for _, t := range ts {
		out = append(out, fit.Toleration{Key: t.Key.ValueString(), Operator: fit.TolerationOperator(t.Operator.ValueString()),
			Value: t.Value.ValueString(), Effect: fit.TaintEffect(t.Effect.ValueString())})
	}
	return out
}

func (s *sizingConv) stringMap(m types.Map) map[string]string {
	out := map[string]string{}
	s.diags.Append(m.ElementsAs(s.ctx, &out, false)...)
	return out
}

func (s *sizingConv) daemonSet(p path.Path, d sizingDaemonSetModel) fit.DaemonSet {
	ds := fit.DaemonSet{Name: d.Name.ValueString(), Requests: s.requests(p.AtName("requests"), d.Requests),
		NodeSelector: s.stringMap(d.NodeSelector), Tolerations: s.tolerations(d.Tolerations),
		TakesPodSlot: d.TakesPodSlot.IsNull() || d.TakesPodSlot.ValueBool()}
	if v := optQuantity(p.AtName("cpu_usage"), d.CPUUsage, quantityCPU, s.diags); v != nil {
		ds.CPUUsageMillicores = *v
	}
	return ds
}

func (s *sizingConv) workload(p path.Path, w workloadModel) fit.Workload {
	fw := fit.Workload{Name: w.Name.ValueString(), Requests: s.requests(p.AtName("requests"), w.Requests),
		NodeSelector: s.stringMap(w.NodeSelector), Tolerations: s.tolerations(w.Tolerations)}
	if !w.Replicas.IsNull() {
		fw.Replicas, fw.MaxReplicas = int(w.Replicas.ValueInt64()), int(w.Replicas.ValueInt64())
	} else {
		fw.Replicas, fw.MaxReplicas = int(w.MinReplicas.ValueInt64()), int(w.MaxReplicas.ValueInt64())
		if w.MaxReplicas.IsNull() {
			fw.MaxReplicas = fw.Replicas
		}
	}
	if v := optQuantity(p.AtName("cpu_usage"), w.CPUUsage, quantityCPU, s.diags); v != nil {
		fw.CPUUsageMillicores = *v
	}
	s.diags.Append(w.Pools.ElementsAs(s.ctx, &fw.Pools, false)...)
	if !w.MaxSurge.IsNull() {
		fw.MaxSurge, _ = parseIntOrPercent(w.MaxSurge.ValueString())
	}
	if !w.Spread.IsNull() {
		var sp spreadModel
		s.diags.Append(w.Spread.As(s.ctx, &sp, objectAsOptions)...)
		fw.Spread = fit.Spread{Type: fit.SpreadType(sp.Type.ValueString()), MaxSkew: int(sp.MaxSkew.ValueInt64())}
		if fw.Spread.Type == fit.SpreadZone && sp.MaxSkew.IsNull() {
			fw.Spread.MaxSkew = 1
		}
	}
	return fw
}

// addFitErrors reports the planner's input errors at the attributes they name (pools[i] → pools["name"]).
func (s *sizingConv) addFitErrors(err error) {
	errs := fit.InputErrors(err)
	if len(errs) == 0 {
		s.diags.AddError("Invalid Sizing Input", err.Error())
		return
	}
	for _, e := range errs {
		p := path.Empty()
		steps := e.Steps()
		for i, st := range steps {
			switch st.Kind {
			case fit.StepAttribute:
				p = p.AtName(st.Name)
			case fit.StepIndex:
				if i == 1 && steps[0].Name == "pools" && st.Index < len(s.poolNames) {
					p = p.AtMapKey(s.poolNames[st.Index])
				} else {
					p = p.AtListIndex(st.Index)
				}
			case fit.StepMapKey:
				p = p.AtMapKey(st.Key)
			}
		}
		s.diags.AddAttributeError(p, "Invalid Sizing Input", e.Msg)
	}
}

// poolBurst is one burstable pool's credit check.
type poolBurst struct {
	demand int64
	nodes  []int64
	result burst.Result
}

// checkBursts checks the steady scenario's busiest node of every burstable pool against its credit budget.
func (s *sizingConv) checkBursts(res fit.Result) map[string]*poolBurst {
	out := map[string]*poolBurst{}
	var steady fit.ScenarioResult
	for _, sc := range res.Scenarios {
		if sc.Scenario == fit.ScenarioSteady {
			steady = sc
		}
	}
	for _, pr := range steady.Pools {
		sp := s.pools[pr.Pool]
		if sp == nil {
			continue
		}
		b, ok := burst.Lookup(sp.cloud, sp.instance.Name)
		if !ok || !b.Burstable() {
			continue
		}
		p := path.Root("pools").AtMapKey(pr.Pool)
		pb := &poolBurst{demand: pr.MaxNodeCPUUsageMillicores}
		for _, n := range pr.Nodes {
			pb.nodes = append(pb.nodes, n.CPUUsageMillicores)
		}
		in := burst.Input{Load: burst.Load{SustainedMillicores: pb.demand}, Mode: burst.Mode(sp.model.CreditMode.ValueString()),
			MinHours: burst.DefaultMinHours}
		if !sp.model.MinHours.IsNull() {
			in.MinHours = sp.model.MinHours.ValueInt64()
		}
		if !sp.model.StartingBalance.IsNull() {
			in.Start, _ = burst.ParseBalance(sp.model.StartingBalance.ValueString())
		}
		if !sp.model.MaxSurplusCostPerMonth.IsNull() {
			in.MaxSurplusCostPerMonth, in.HasMaxSurplusCost = sp.model.MaxSurplusCostPerMonth.ValueFloat64(), true
		}
		r, err := burst.Evaluate(b, in)
		if err != nil {
			field := p
			if ie, ok := err.(*burst.InputError); ok && ie.Field != "" && ie.Field != burst.FieldBudget {
				field = p.AtName(string(ie.Field))
			}
			s.diags.AddAttributeError(field, "Invalid Credit Settings", err.Error())
			continue
		}
		pb.result = r
		out[pr.Pool] = pb
	}
	return out
}

var (
	utilAttrTypes     = map[string]attr.Type{"cpu": types.Float64Type, "memory": types.Float64Type, "pods": types.Float64Type}
	strandedAttrTypes = map[string]attr.Type{"cpu_millicores": types.Int64Type, "memory_bytes": types.Int64Type, "pods": types.Int64Type}
	scenarioAttrTypes = map[string]attr.Type{
		"nodes_required": types.Int64Type, "fits": types.BoolType, "lower_bound": types.Int64Type, "lower_bound_by": types.StringType,
		"pods": types.Int64Type, "utilization": types.ObjectType{AttrTypes: utilAttrTypes}, "stranded": types.ObjectType{AttrTypes: strandedAttrTypes},
		"max_node_cpu_usage_millicores": types.Int64Type, "price_per_hour": types.Float64Type,
	}
	burstAttrTypes = map[string]attr.Type{
		"credit_mode": types.StringType, "baseline_cpu_millicores": types.Int64Type, "max_node_cpu_usage_millicores": types.Int64Type,
		"node_cpu_usage_millicores": types.ListType{ElemType: types.Int64Type}, "hours_to_exhaustion": types.Float64Type,
		"delivered_cpu_millicores_after_exhaustion": types.Int64Type, "verdict": types.StringType, "detail": types.StringType,
	}
	poolResultAttrTypes = map[string]attr.Type{
		"instance_type": types.StringType, "profile": types.StringType, "note": types.StringType, "min_nodes": types.Int64Type,
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

func fitResources(r fit.Resources) types.Object {
	return resourcesValue(plannerresource.List(r))
}

func scenarioValue(pr fit.PoolResult) types.Object {
	return types.ObjectValueMust(scenarioAttrTypes, map[string]attr.Value{
		"nodes_required": types.Int64Value(int64(pr.NodesRequired)), "fits": types.BoolValue(pr.Fits),
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

func burstValue(b *poolBurst) types.Object {
	if b == nil {
		return types.ObjectNull(burstAttrTypes)
	}
	nodes := make([]attr.Value, 0, len(b.nodes))
	for _, n := range b.nodes {
		nodes = append(nodes, types.Int64Value(n))
	}
	hours := types.Float64Null()
	if b.result.Exhausts {
		hours = types.Float64Value(round4(b.result.HoursToExhaustion))
	}
	return types.ObjectValueMust(burstAttrTypes, map[string]attr.Value{
		"credit_mode": types.StringValue(string(b.result.Mode)), "baseline_cpu_millicores": types.Int64Value(b.result.SustainedMillicores),
		"max_node_cpu_usage_millicores": types.Int64Value(b.demand), "node_cpu_usage_millicores": types.ListValueMust(types.Int64Type, nodes),
		"hours_to_exhaustion": hours, "delivered_cpu_millicores_after_exhaustion": types.Int64Value(b.result.DeliveredMillicoresAfterExhaustion),
		"verdict": types.StringValue(string(b.result.Verdict)), "detail": types.StringValue(b.result.Detail),
	})
}

// fill writes the results into the model.
func (s *sizingConv) fill(m *nodePoolSizingModel, res fit.Result, bursts map[string]*poolBurst) {
	fits := res.Fits
	byScenario := map[fit.Scenario]map[string]fit.PoolResult{}
	for _, sc := range res.Scenarios {
		byScenario[sc.Scenario] = map[string]fit.PoolResult{}
		for _, pr := range sc.Pools {
			byScenario[sc.Scenario][pr.Pool] = pr
		}
	}
	pools := map[string]attr.Value{}
	for _, po := range res.Pools {
		sp := s.pools[po.Pool]
		ds := make([]attr.Value, 0, len(po.DaemonSets))
		for _, d := range po.DaemonSets {
			ds = append(ds, types.StringValue(d))
		}
		if b := bursts[po.Pool]; b != nil && b.result.Verdict.Fails() {
			fits = false
		}
		pools[po.Pool] = types.ObjectValueMust(poolResultAttrTypes, map[string]attr.Value{
			"instance_type": types.StringValue(po.InstanceType), "profile": types.StringValue(string(sp.overhead.Profile)),
			"note": types.StringValue(sp.note), "min_nodes": types.Int64Value(sp.model.MinNodes.ValueInt64()),
			"max_nodes": types.Int64Value(sp.model.MaxNodes.ValueInt64()), "allocatable": fitResources(po.Allocatable),
			"workload_allocatable": fitResources(po.WorkloadAllocatable), "daemonsets": types.ListValueMust(types.StringType, ds),
			"steady": scenarioValue(byScenario[fit.ScenarioSteady][po.Pool]), "peak": scenarioValue(byScenario[fit.ScenarioPeak][po.Pool]),
			"burst": burstValue(bursts[po.Pool]),
		})
	}
	m.PoolResults = types.MapValueMust(types.ObjectType{AttrTypes: poolResultAttrTypes}, pools)

	placements := map[fit.Scenario]map[string]fit.Placement{}
	for _, sc := range res.Scenarios {
		placements[sc.Scenario] = map[string]fit.Placement{}
		for _, pl := range sc.Placements {
			placements[sc.Scenario][pl.Workload] = pl
		}
	}
	headroom := map[string]int64{}
	for _, h := range res.Headroom {
		headroom[h.Workload] = h.Replicas
	}
	perPool := func(pl fit.Placement) types.Map {
		m := map[string]attr.Value{}
		for _, pp := range pl.Pools {
			m[pp.Pool] = types.Int64Value(int64(pp.Pods))
		}
		return types.MapValueMust(types.Int64Type, m)
	}
	workloads := map[string]attr.Value{}
	for name := range s.workloadIndex {
		st, pk := placements[fit.ScenarioSteady][name], placements[fit.ScenarioPeak][name]
		workloads[name] = types.ObjectValueMust(workloadResultAttrTypes, map[string]attr.Value{
			"steady": perPool(st), "peak": perPool(pk), "unplaced_steady": types.Int64Value(int64(st.Unplaced)),
			"unplaced_peak": types.Int64Value(int64(pk.Unplaced)), "headroom": types.Int64Value(headroom[name]),
		})
	}
	m.WorkloadsOut = types.MapValueMust(types.ObjectType{AttrTypes: workloadResultAttrTypes}, workloads)

	failures := make([]attr.Value, 0, len(res.Failures))
	for _, f := range res.Failures {
		failures = append(failures, failureValue(f.Workload, f.Pool, string(f.Scenario), string(f.Reason), f.Message))
	}
	for _, name := range sortedKeys(bursts) {
		if b := bursts[name]; b.result.Verdict.Fails() {
			failures = append(failures, failureValue("", name, string(fit.ScenarioSteady), "burst-credits", b.result.Detail))
		}
	}
	m.Failures = types.ListValueMust(types.ObjectType{AttrTypes: failureAttrTypes}, failures)
	m.Fits = types.BoolValue(fits)
	report := fit.Report(res)
	for _, name := range sortedKeys(bursts) {
		b := bursts[name]
		report += fmt.Sprintf("\nburstable pool %s (%s): busiest node uses %dm of a %dm baseline: %s\n", name,
			b.result.Budget.InstanceType, b.demand, b.result.SustainedMillicores, b.result.Verdict.Summary())
	}
	m.Report = types.StringValue(report)
	m.FormulaSource = types.StringValue(sizingFormulaSource)
}

func failureValue(workload, pool, scenario, reason, msg string) types.Object {
	return types.ObjectValueMust(failureAttrTypes, map[string]attr.Value{
		"workload": types.StringValue(workload), "pool": types.StringValue(pool), "scenario": types.StringValue(scenario),
		"reason": types.StringValue(reason), "message": types.StringValue(msg),
	})
}

var sizingFormulaSource = strings.Join([]string{
	"allocatable: the kubefit_node_overhead model (overhead.md; see that data source's formula_source for each term)",
	"workload_allocatable: " + fit.SourceDaemonSets + " (allocatable − requests of the DaemonSets that land on the pool)",
	"nodes_required: multi-resource first-fit-decreasing simulation (kubernetes-sigs/karpenter and cluster-autoscaler estimator, as described in peers.md)",
	"lower_bound: " + fit.SourceLowerBound + "; utilization: " + fit.SourceUtilization + "; stranded: " + fit.SourceStranded + "; headroom: " + fit.SourceHeadroom,
	"peak pods: " + fit.SourceSurge + " (max_replicas + ceil(max_replicas × surge % / 100), as Kubernetes rounds maxSurge)",
	"burst: kubefit_burst_budget's model (burst.md) on the steady scenario's busiest node",
}, "\n") + "\n"
