package selector

import (
	"slices"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/overhead"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/sizing"
)

// nodeLabels returns the labels sizing gives every node of a pool of t under the node model r.
func nodeLabels(req *Request, t catalog.InstanceType, r overhead.Result) map[string]string {
	os, arch := "linux", "amd64"
	if r.Profile == overhead.EKSWindows || r.Profile == overhead.AKSWindows {
		os = "windows"
	}
	if t.Architecture == catalog.ArchARM64 {
		arch = "arm64"
	}
	// The well-known labels sizing gives a one-type pool (sizing's wellKnownLabels, less the region and the
	// platform's labels, which only keep more DaemonSets off and more pods on: a lower bound stays one).
	labels := map[string]string{"kubernetes.io/arch": arch, "kubernetes.io/os": os, "node.kubernetes.io/instance-type": t.Name,
		"beta.kubernetes.io/arch": arch, "beta.kubernetes.io/os": os, "beta.kubernetes.io/instance-type": t.Name}
	for k, v := range req.Pool.Labels {
		labels[k] = v
	}
	return labels
}

// lands reports whether pods with this selector, node affinity and these tolerations may run on the pool's
// nodes: a workload's in every one of its zones, a DaemonSet's in at least one.
func lands(selector, labels map[string]string, affinity []fit.NodeSelectorTerm, zones []string, tols []fit.Toleration, taints []fit.Taint, daemon bool) bool {
	if daemon && !fit.AffinityAllowsSome(affinity, labels, zones) || !daemon && !fit.AffinityAllows(affinity, labels, zones) {
		return false
	}
	for k, v := range selector {
		if l, ok := labels[k]; !ok || l != v {
			return false
		}
	}
	for _, taint := range taints {
		if taint.Effect != fit.EffectNoSchedule && taint.Effect != fit.EffectNoExecute {
			continue
		}
		if !slices.ContainsFunc(tols, func(t fit.Toleration) bool { return t.Tolerates(taint) }) {
			return false
		}
	}
	return true
}

// scenarioReplicas is a workload's pod count in the scenario, by sizing's replica rules.
func scenarioReplicas(w *sizing.Workload, s fit.Scenario) int {
	var steady, max int
	switch {
	case w.Replicas != nil:
		steady, max = *w.Replicas, *w.Replicas
	case w.MinReplicas != nil:
		steady, max = *w.MinReplicas, *w.MinReplicas
		if w.MaxReplicas != nil {
			max = *w.MaxReplicas
		}
	case w.MaxReplicas != nil:
		max = *w.MaxReplicas
		steady = min(1, max)
	}
	if s == fit.ScenarioSteady {
		return steady
	}
	return max + w.MaxSurge.Resolve(max)
}

// lowerBound returns a number of nodes no packing of the scenario's pods on a pool of t can beat: per
// resource, the pods' total requests over one node's room after the DaemonSets that land there (the
// platform's system DaemonSets r counts among them); one
// node per pod of a node-spread workload; the pool's minimum. ok is false when some pod is larger than
// a node's room, so the type cannot work at all.
func lowerBound(req *Request, s fit.Scenario, t catalog.InstanceType, r overhead.Result) (nodes int, ok bool) {
	labels := nodeLabels(req, t, r)
	var landed []fit.DaemonSet
	listed := make([]string, 0, len(req.DaemonSets))
	for _, d := range req.DaemonSets {
		listed = append(listed, d.Name)
		if lands(d.NodeSelector, labels, d.NodeAffinity, req.Pool.Zones, d.Tolerations, req.Pool.Taints, true) {
			landed = append(landed, d)
		}
	}
	// The platform's system DaemonSets land on every node of the pool (sizing adds them so).
	for _, d := range r.SystemDaemonSets {
		if !slices.Contains(listed, d.Name) {
			landed = append(landed, d)
		}
	}
	_, left := fit.DaemonSetLoad(r.Allocatable, r.SystemPods, r.PodIPs, landed)
	room := [5]int64{left.CPUMillicores, left.MemoryBytes, left.EphemeralStorageBytes, left.Pods, left.GPU}
	var total [5]int64
	nodes = req.Pool.MinNodes
	for i := range req.Workloads {
		w := &req.Workloads[i]
		n := int64(scenarioReplicas(w, s))
		fw := fit.Workload{Name: w.Name, NodeSelector: w.NodeSelector, NodeAffinity: w.NodeAffinity, OS: w.OS}
		if n == 0 || (len(w.Pools) > 0 && !slices.Contains(w.Pools, req.Pool.Name)) ||
			!lands(w.NodeSelector, labels, w.NodeAffinity, req.Pool.Zones, w.Tolerations, req.Pool.Taints, false) ||
			fit.ExcludedBy(&fw, &fit.Pool{Labels: labels}) == fit.ReasonOS {
			continue
		}
		one := [5]int64{w.Requests.CPUMillicores, w.Requests.MemoryBytes, w.Requests.EphemeralStorageBytes, 1, w.Requests.GPU}
		for k := range one {
			if one[k] > room[k] {
				return 0, false
			}
			total[k] += n * one[k]
		}
		if w.Spread.Type == fit.SpreadNode || len(w.HostPorts) > 0 {
			nodes = max(nodes, int(n))
		}
	}
	for k := range total {
		if total[k] > 0 {
			nodes = max(nodes, int((total[k]+room[k]-1)/room[k]))
		}
	}
	return nodes, true
}
