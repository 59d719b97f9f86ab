package nodegroup

import (
	"errors"
	"fmt"
	"slices"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/resource"
)

// Warning codes of the Karpenter NodePool's limits.
const (
	// WarnKarpenterLimits: Karpenter's provisioning packs the peak onto more NodeClaims than MaxSize, so the
	// NodePool's limits cover Karpenter's count (KarpenterSizing.LimitNodes), above the group's max size.
	WarnKarpenterLimits = "nodegroup.karpenter-limits"
	// WarnKarpenterUnmodelled: the group has something the Karpenter provisioning model does not cover
	// (KarpenterSizing.Unmodelled), so the NodePool's limits cover MaxSize nodes only.
	WarnKarpenterUnmodelled = "nodegroup.karpenter-unmodelled"
)

// The bounds of a NodePool's limits (KarpenterSizing.BoundBy).
const (
	BoundByKubefit   = "kubefit"
	BoundByKarpenter = "karpenter"
)

// KarpenterSizing is how many nodes an AWS group's Karpenter NodePool limits cover, and why.
type KarpenterSizing struct {
	// NodeClaims is how many NodeClaims Karpenter's provisioning scheduler launches for the peak's pods of
	// the group without limits (KarpenterProvision); Unschedulable how many of those pods not even an empty
	// NodeClaim takes. Both 0 when not modelled.
	NodeClaims, Unschedulable int
	// Needed is the smallest node limit under which Karpenter places as many of those pods as without
	// limits: NodeClaims, or fewer when pods with preferences (preferred pod anti-affinity, ScheduleAnyway
	// spread) relax them and share NodeClaims once the limit is reached. 0 when not modelled.
	Needed int
	// LimitNodes is the node count the NodePool's limits cover: MaxSize, or Needed raised by
	// HeadroomPercent when that is more.
	LimitNodes int
	// BoundBy is BoundByKubefit when MaxSize sets LimitNodes, BoundByKarpenter when Karpenter's count does.
	BoundBy string
	// Unmodelled says why the model did not run; "" when it did.
	Unmodelled string
}

// karpenterSizing sizes an AWS group's NodePool limits: MaxSize nodes (kubefit's scheduler-model count at
// the peak, with headroom, or the max_size given), raised to cover the NodeClaims Karpenter's own
// provisioning launches for the peak's pods when those are more.
func karpenterSizing(req Request, r *Result) (KarpenterSizing, []field.Warning, error) {
	k := KarpenterSizing{LimitNodes: r.MaxSize, BoundBy: BoundByKubefit}
	pods, ports, why := karpenterBatch(req, r)
	if why != "" {
		k.Unmodelled = why
		return k, []field.Warning{{Code: WarnKarpenterUnmodelled, Path: field.NewPath("Name"), Message: fmt.Sprintf(
			"the Karpenter NodePool of node group %s has limits for its max size of %d nodes only: kubefit does not model how Karpenter provisions %s",
			field.Quote(req.Pool.Name), r.MaxSize, why)}}, nil
	}
	room := r.Pool.WorkloadAllocatable
	budget := karpenterBudget
	prov, err := karpenterProvision(room, ports, pods, 0, &budget)
	if errors.Is(err, errKarpenterBudget) {
		why := fmt.Sprintf("the peak's %s pods within its work budget (each pod sorts and tries the open NodeClaims)", fit.FormatCount(int64(len(pods))))
		k.Unmodelled = why
		return k, []field.Warning{{Code: WarnKarpenterUnmodelled, Path: field.NewPath("Name"), Message: fmt.Sprintf(
			"the Karpenter NodePool of node group %s has limits for its max size of %d nodes only: kubefit does not model how Karpenter provisions %s",
			field.Quote(req.Pool.Name), r.MaxSize, why)}}, nil
	}
	if err != nil {
		return k, nil, err
	}
	k.NodeClaims, k.Unschedulable, k.Needed = len(prov.NodeClaims), len(prov.Unschedulable), len(prov.NodeClaims)
	if k.NodeClaims > r.MaxSize && hasPreferences(pods) {
		// Under a lower limit the pods with preferences relax and share NodeClaims: find the smallest limit
		// that still places every pod placed without one (taken as monotone in the limit).
		lo, hi := r.MaxSize, k.NodeClaims // hi suffices; lo may not
		for lo < hi {
			mid := lo + (hi-lo)/2
			p, err := karpenterProvision(room, ports, pods, mid, &budget)
			if errors.Is(err, errKarpenterBudget) {
				break // hi NodeClaims place every pod (none relaxes): the limit stays on the safe side
			}
			if err != nil {
				return k, nil, err
			}
			if len(p.Unschedulable) == k.Unschedulable {
				hi = mid
			} else {
				lo = mid + 1
			}
		}
		k.Needed = hi
	}
	n := int(resource.CeilDiv(int64(k.Needed)*int64(100+req.HeadroomPercent), 100))
	if n <= k.LimitNodes {
		return k, nil, nil
	}
	k.LimitNodes, k.BoundBy = n, BoundByKarpenter
	how := fmt.Sprintf("launches %d NodeClaims for the peak's %d pods", k.NodeClaims, len(pods))
	if k.Needed < k.NodeClaims {
		how = fmt.Sprintf("launches %d NodeClaims for the peak's %d pods while preferences are respected, and needs %d before relaxing them places every pod", k.NodeClaims, len(pods), k.Needed)
	}
	return k, []field.Warning{{Code: WarnKarpenterLimits, Path: field.NewPath("MaxSize"), Message: fmt.Sprintf(
		"the Karpenter NodePool of node group %s has limits for %d nodes, above its max size of %d: Karpenter's provisioning "+
			"(pods largest first, each on the open NodeClaim with the fewest pods that fits it) %s%s",
		field.Quote(req.Pool.Name), n, r.MaxSize, how, headroomNote(req))}}, nil
}

func hasPreferences(pods []KarpenterPod) bool {
	for _, p := range pods {
		if len(p.PreferredAntiAffinity) > 0 || slices.ContainsFunc(p.HostnameSpread, func(c fit.TopologySpreadConstraint) bool { return c.WhenUnsatisfiable == fit.ScheduleAnyway }) {
			return true
		}
	}
	return false
}

func headroomNote(req Request) string {
	if req.HeadroomPercent == 0 {
		return ""
	}
	return fmt.Sprintf(", raised by the %d%% headroom", req.HeadroomPercent)
}

// karpenterBatch lists the peak's pods of the group's pool as Karpenter's scheduler sees them, in request
// order, and the host ports of the DaemonSets that land on the pool; or says what the model does not cover.
func karpenterBatch(req Request, r *Result) ([]KarpenterPod, []fit.HostPort, string) {
	if len(r.Pool.Members) > 1 {
		return nil, nil, "a NodePool of several instance types"
	}
	var ports []fit.HostPort
	for _, d := range req.DaemonSets {
		if slices.Contains(r.Pool.DaemonSets, d.Name) {
			ports = append(ports, d.HostPorts...)
		}
	}
	preferNoSchedule := slices.ContainsFunc(req.Pool.Taints, func(t fit.Taint) bool { return t.Effect == fit.EffectPreferNoSchedule })
	var pods []KarpenterPod
	for i, w := range req.Workloads {
		n := 0
		if i < len(r.Plan.Workloads) {
			for _, pp := range r.Plan.Workloads[i].Peak.Pools {
				if pp.Pool == r.Pool.Name {
					n += pp.Pods
				}
			}
		}
		if n == 0 {
			continue
		}
		kp, why := karpenterPod(w.Name, w.Namespace, fit.PodLabels(&fit.Workload{Name: w.Name, Labels: w.Labels}), w.Requests, w.HostPorts, w.Spread, w.PodAffinity, w.TopologySpread)
		if why != "" {
			return nil, nil, fmt.Sprintf("workload %s's %s", field.Quote(w.Name), why)
		}
		if preferNoSchedule && hasPreferences([]KarpenterPod{kp}) {
			// Karpenter relaxes a pod's preferences before it tolerates a PreferNoSchedule taint.
			return nil, nil, fmt.Sprintf("workload %s's preferences on a pool with a PreferNoSchedule taint", field.Quote(w.Name))
		}
		for range n {
			pods = append(pods, kp)
		}
	}
	return pods, ports, ""
}

// karpenterPod is one pod of a workload, or what the model does not cover about it.
func karpenterPod(name, ns string, podLabels map[string]string, requests fit.Resources, ports []fit.HostPort, spread fit.Spread,
	aff *fit.PodAffinity, tsc []fit.TopologySpreadConstraint) (KarpenterPod, string) {
	p := KarpenterPod{Workload: name, Namespace: ns, Labels: podLabels, Requests: requests, HostPorts: ports}
	switch spread.Type {
	case fit.SpreadZone:
		return p, "zone spread"
	case fit.SpreadNode:
		p.AntiAffinity = append(p.AntiAffinity, fit.PodAffinityTerm{Selector: fit.LabelSelector{MatchLabels: podLabels}, TopologyKey: hostnameLabel})
	}
	if aff != nil {
		if len(aff.Required)+len(aff.Preferred) > 0 {
			return p, "pod affinity"
		}
		for _, t := range aff.AntiRequired {
			if t.TopologyKey != hostnameLabel {
				return p, fmt.Sprintf("pod anti-affinity over %s", t.TopologyKey)
			}
			p.AntiAffinity = append(p.AntiAffinity, t)
		}
		for _, t := range aff.AntiPreferred {
			if t.Term.TopologyKey != hostnameLabel {
				return p, fmt.Sprintf("preferred pod anti-affinity over %s", t.Term.TopologyKey)
			}
			p.PreferredAntiAffinity = append(p.PreferredAntiAffinity, t)
		}
	}
	for _, c := range tsc {
		if c.TopologyKey != hostnameLabel {
			return p, fmt.Sprintf("topology spread over %s", c.TopologyKey)
		}
		p.HostnameSpread = append(p.HostnameSpread, c)
	}
	return p, ""
}
