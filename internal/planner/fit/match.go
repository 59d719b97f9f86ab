package fit

import (
	"fmt"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"slices"
	"strconv"
	"strings"
)

// gpuTaintKey is the key of the taint platforms put on GPU nodes, named after the resource (nvidia.com/gpu).
const gpuTaintKey = "nvidia.com/gpu"

// Tolerates reports whether t tolerates taint, with the semantics of Kubernetes' ToleratesTaint: the
// effects must be equal unless t.Effect is empty, the keys must be equal unless t.Key is empty, and
// OperatorExists matches any value while OperatorEqual (or the empty operator) needs equal values.
func (t Toleration) Tolerates(taint Taint) bool {
	if t.Effect != "" && t.Effect != taint.Effect {
		return false
	}
	if t.Key != "" && t.Key != taint.Key {
		return false
	}
	switch t.Operator {
	case OperatorExists:
		return true
	case "", OperatorEqual:
		return t.Value == taint.Value
	}
	return false
}

// String formats the taint as kubectl does: key=value:Effect, or key:Effect without a value.
func (t Taint) String() string {
	if t.Value == "" {
		return t.Key + ":" + string(t.Effect)
	}
	return t.Key + "=" + t.Value + ":" + string(t.Effect)
}

// blocking reports whether the taint keeps untolerating pods off the node. PreferNoSchedule is only a
// preference and never blocks.
func (t Taint) blocking() bool {
	return t.Effect == EffectNoSchedule || t.Effect == EffectNoExecute
}

// untolerated returns the pool's blocking taints that no toleration covers, in pool order.
func untolerated(taints []Taint, tols []Toleration) []Taint {
	var out []Taint
	for _, taint := range taints {
		if !taint.blocking() {
			continue
		}
		if !slices.ContainsFunc(tols, func(t Toleration) bool { return t.Tolerates(taint) }) {
			out = append(out, taint)
		}
	}
	return out
}

// selectorMatches reports whether every selector entry is a label of the pool with the same value.
func selectorMatches(selector, labels map[string]string) bool {
	for k, v := range selector {
		if lv, ok := labels[k]; !ok || lv != v {
			return false
		}
	}
	return true
}

// selectorMismatches describes the selector entries the labels do not satisfy, in key order.
func selectorMismatches(selector, labels map[string]string) []string {
	var out []string
	for _, k := range sortedKeys(selector) {
		want := selector[k]
		got, ok := labels[k]
		switch {
		case !ok:
			out = append(out, fmt.Sprintf("%s=%s (the pool has no label %s)", k, want, k))
		case got != want:
			out = append(out, fmt.Sprintf("%s=%s (the pool has %s=%s)", k, want, k, got))
		}
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// DaemonSetLandsOn reports whether DaemonSet d's pod lands on pool p's nodes (on those of at least one of its
// zones): its pool list, node selector, tolerations and required node affinity admit them.
func DaemonSetLandsOn(d *DaemonSet, p *Pool) bool { return daemonSetMatches(d, p) }

// daemonSetMatches reports whether the DaemonSet's pod lands on the pool's nodes (on those of at least one
// of its zones).
func daemonSetMatches(d *DaemonSet, p *Pool) bool {
	if len(d.Pools) > 0 && !slices.Contains(d.Pools, p.Name) {
		return false
	}
	if !selectorMatches(d.NodeSelector, p.Labels) || len(untolerated(p.Taints, d.Tolerations)) > 0 {
		return false
	}
	// A DaemonSet whose affinity matches some of the pool's zones runs on those nodes; the pool is planned
	// as if it ran on all of them, which can only overstate its load (the safe side).
	if len(d.NodeAffinity) == 0 {
		return true
	}
	matching, _ := affinityZones(d.NodeAffinity, p)
	return len(matching) > 0
}

// WorkloadMayUse reports whether workload w's pods may run on pool p's nodes: its pool list, node selector,
// tolerations and required node affinity admit them (for the affinity, on every zone of the pool).
func WorkloadMayUse(w *Workload, p *Pool) bool { return excludedBy(w, p) == "" }

// excludedBy is exclusion without the message: the first reason workload w may not use pool p, or "".
func excludedBy(w *Workload, p *Pool) Reason {
	switch {
	case len(w.Pools) > 0 && !slices.Contains(w.Pools, p.Name):
		return ReasonPoolList
	case !selectorMatches(w.NodeSelector, p.Labels):
		return ReasonSelector
	case len(untolerated(p.Taints, w.Tolerations)) > 0:
		return ReasonTaint
	}
	if _, all := affinityZones(w.NodeAffinity, p); !all {
		return ReasonAffinity
	}
	return ""
}

// nodeRulesMatch reports whether the pool's nodes pass the workload's pool list, node selector and required
// node affinity, taints aside: the nodes a spread constraint counts under nodeAffinityPolicy Honor.
func nodeRulesMatch(w *Workload, p *Pool) bool {
	if len(w.Pools) > 0 && !slices.Contains(w.Pools, p.Name) || !selectorMatches(w.NodeSelector, p.Labels) {
		return false
	}
	_, all := affinityZones(w.NodeAffinity, p)
	return all
}

// exclusion says why a workload may not run on a pool at all, by its node constraints: the first of
// pool-list, selector and taint that excludes it, with a message naming the labels or taints.
// It returns an empty reason when the workload may run on the pool (size is checked separately).
func exclusion(w *Workload, p *Pool) (Reason, string) {
	switch excludedBy(w, p) {
	case ReasonPoolList:
		return ReasonPoolList, fmt.Sprintf("workload %q may only run on pool(s) %s, not on pool %q",
			w.Name, field.QuoteList(w.Pools), p.Name)
	case ReasonSelector:
		return ReasonSelector, fmt.Sprintf("the node selector of workload %q needs %s on pool %q",
			w.Name, strings.Join(selectorMismatches(w.NodeSelector, p.Labels), " and "), p.Name)
	case ReasonAffinity:
		return ReasonAffinity, affinityMessage(fmt.Sprintf("workload %q", w.Name), w.NodeAffinity, p)
	}
	if ut := untolerated(p.Taints, w.Tolerations); len(ut) > 0 {
		names := make([]string, len(ut))
		for i, t := range ut {
			names[i] = strconv.Quote(t.String())
		}
		noun := "taint"
		if len(ut) > 1 {
			noun = "taints"
		}
		for _, t := range ut {
			if t.Key == gpuTaintKey && w.Requests.GPU == 0 {
				// ExtendedResourceToleration (a Kubernetes admission plugin, which EKS, AKS and GKE run) gives a pod that requests an
				// extended resource the toleration of the taint named after it: GPU nodes are kept for GPU pods.
				return ReasonTaint, fmt.Sprintf("pool %q has %s %s that workload %q does not tolerate: its nodes have GPUs and are kept for pods "+
					"that request them (where the ExtendedResourceToleration admission plugin runs, as on EKS, AKS and GKE, a pod requesting %s is given the toleration), "+
					"and %q requests none; run it on a pool without GPUs, or add a toleration", p.Name, noun, field.JoinAnd(names), w.Name, gpuTaintKey, w.Name)
			}
		}
		return ReasonTaint, fmt.Sprintf("pool %q has %s %s that workload %q does not tolerate; add a toleration "+
			"or choose another pool", p.Name, noun, field.JoinAnd(names), w.Name)
	}
	return "", ""
}
