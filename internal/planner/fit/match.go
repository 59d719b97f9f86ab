package fit

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/component-helpers/scheduling/corev1/nodeaffinity"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
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

// selectorMatches reports whether every selector entry is a label of the node with the same value.
func selectorMatches(selector, labels map[string]string) bool {
	for k, v := range selector {
		if lv, ok := labels[k]; !ok || lv != v {
			return false
		}
	}
	return true
}

// selectorZones returns, of the pool's zones, those whose nodes carry every selector entry (a zone's nodes carry
// its zone labels), under every choice of the pool's LabelChoices, or some choice when anyChoice
// (zonesMatching). all reports whether every zone matches.
func selectorZones(selector map[string]string, p *Pool, anyChoice bool) (matching []string, all bool) {
	if len(selector) == 0 {
		return p.Zones, true
	}
	return zonesMatching(p, anyChoice, func(labels map[string]string) bool { return selectorMatches(selector, labels) })
}

// selectorAdmits reports whether the nodes of every zone of the pool carry every selector entry, whatever the
// pool's LabelChoices: the rule a workload may use a pool by.
func selectorAdmits(selector map[string]string, p *Pool) bool {
	_, all := selectorZones(selector, p, false)
	return all
}

// selectorMismatches describes the selector entries the pool's nodes do not all carry, in key order: a zone
// label only some of the pool's zones carry, a label whose value kubefit cannot know (LabelChoices), another
// value, or no such label.
func selectorMismatches(selector map[string]string, p *Pool) []string {
	var out []string
	for _, k := range sortedKeys(selector) {
		want := selector[k]
		matching, all := selectorZones(map[string]string{k: want}, p, false)
		if all {
			continue
		}
		got, ok := p.Labels[k]
		choices, chosen := p.LabelChoices[k]
		switch {
		case (k == zoneLabel || k == betaZoneLabel) && len(matching) > 0:
			out = append(out, fmt.Sprintf("%s=%s (only the pool's nodes in zone(s) %s carry it; kubefit plans a pool's nodes in all its zones, "+
				"so give those zones a pool of their own)", k, want, field.QuoteList(matching)))
		case (k == zoneLabel || k == betaZoneLabel) && len(p.Zones) > 0:
			out = append(out, fmt.Sprintf("%s=%s (the pool's zones are %s)", k, want, field.QuoteList(p.Zones)))
		case !ok && chosen && len(choices) > 0:
			out = append(out, fmt.Sprintf("%s=%s (the pool's nodes carry %s %s; add the label to the pool's labels if its nodes carry it)",
				k, want, k, describeChoices(choices)))
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
// zones, with at least one choice of its LabelChoices): its pool list, node selector, tolerations and required
// node affinity admit them.
func DaemonSetLandsOn(d *DaemonSet, p *Pool) bool { return daemonSetMatches(d, p) }

// DaemonSetZones returns the zones of pool p on whose nodes DaemonSet d's pod may land (DaemonSetLandsOn), and
// whether that is every zone. A pool without zones has one, unnamed.
func DaemonSetZones(d *DaemonSet, p *Pool) (zones []string, all bool) {
	if len(d.Pools) > 0 && !slices.Contains(d.Pools, p.Name) || len(untolerated(p.Taints, d.Tolerations)) > 0 {
		return nil, false
	}
	if len(d.NodeSelector) == 0 && len(d.NodeAffinity) == 0 {
		return poolZones(p), true
	}
	var sel *nodeaffinity.NodeSelector
	if len(d.NodeAffinity) > 0 {
		var err error
		if sel, err = nodeaffinity.NewNodeSelector(NodeSelector(d.NodeAffinity)); err != nil {
			return nil, false
		}
	}
	return zonesMatching(p, true, func(labels map[string]string) bool {
		return selectorMatches(d.NodeSelector, labels) &&
			(sel == nil || sel.Match(&corev1.Node{ObjectMeta: metav1.ObjectMeta{Labels: labels}}))
	})
}

// daemonSetMatches reports whether the DaemonSet's pod lands on the pool's nodes (on those of at least one
// of its zones). A DaemonSet whose selector or affinity matches some of the pool's zones runs on those nodes;
// the pool is planned as if it ran on all of them, which can only overstate its load (the safe side).
func daemonSetMatches(d *DaemonSet, p *Pool) bool {
	zones, _ := DaemonSetZones(d, p)
	return len(zones) > 0
}

// WorkloadMayUse reports whether workload w's pods may run on pool p's nodes: its pool list, node selector,
// tolerations and required node affinity admit them (for the selector and the affinity, on every zone of the
// pool), and the pool runs the operating system its containers need (WorkloadOS).
func WorkloadMayUse(w *Workload, p *Pool) bool { return excludedBy(w, p) == "" }

// ExcludedBy returns the first reason workload w may not use pool p (the exclusion reasons of the package
// doc), or "" when it may.
func ExcludedBy(w *Workload, p *Pool) Reason { return excludedBy(w, p) }

// excludedBy is exclusion without the message: the first reason workload w may not use pool p, or "".
func excludedBy(w *Workload, p *Pool) Reason {
	switch {
	case len(w.Pools) > 0 && !slices.Contains(w.Pools, p.Name):
		return ReasonPoolList
	case !selectorAdmits(w.NodeSelector, p):
		return ReasonSelector
	case len(untolerated(p.Taints, w.Tolerations)) > 0:
		return ReasonTaint
	}
	if _, all := affinityZones(w.NodeAffinity, p, false); !all {
		return ReasonAffinity
	}
	if osExcludes(w, p) {
		return ReasonOS
	}
	return ""
}

// WorkloadOS returns the operating system workload w's containers need: its OS where the pod says it
// (spec.os.name or its kubernetes.io/os label, which the kubelet admits against its own OS: kubernetes/kubernetes
// pkg/kubelet/lifecycle/predicate.go@v1.37.2, rejectPodAdmissionBasedOnOSField and
// rejectPodAdmissionBasedOnOSSelector); else the one its node selector names (kubernetes.io/os, or the kubelet's
// beta.kubernetes.io/os); "" when its required node affinity names one of those labels (it says where it may
// run, and the affinity decides); else linux: kubefit cannot see images, and a pod that names no operating
// system is a Linux one almost always.
func WorkloadOS(w *Workload) string {
	if w.OS != "" {
		return w.OS
	}
	if os := w.NodeSelector[osLabel]; os != "" {
		return os
	}
	if os := w.NodeSelector[betaOSLabel]; os != "" {
		return os
	}
	for _, t := range w.NodeAffinity {
		for _, e := range t.MatchExpressions {
			if e.Key == osLabel || e.Key == betaOSLabel {
				return ""
			}
		}
	}
	return "linux"
}

// osExcludes reports whether pool p's nodes run another operating system than workload w's containers need.
// kube-scheduler does not read a pod's spec.os.name or its images ("The scheduler does not use the value of
// .spec.os.name when assigning Pods to nodes", kubernetes.io/docs/concepts/windows/user-guide/), so it may bind
// such a pod there, where the kubelet refuses it or its image never starts: kubefit keeps it off, which is what
// runs (sizing warns that the scheduler may still bind it there).
func osExcludes(w *Workload, p *Pool) bool {
	pos := p.Labels[osLabel]
	wos := WorkloadOS(w)
	return pos != "" && wos != "" && pos != wos
}

// nodeRulesMatch reports whether the pool's nodes pass the workload's pool list, node selector, required node
// affinity and operating system, taints aside: the nodes a spread constraint counts under nodeAffinityPolicy
// Honor (the operating system as the node selector that keeps the pods off the other one would).
func nodeRulesMatch(w *Workload, p *Pool) bool {
	if len(w.Pools) > 0 && !slices.Contains(w.Pools, p.Name) || !selectorAdmits(w.NodeSelector, p) || osExcludes(w, p) {
		return false
	}
	_, all := affinityZones(w.NodeAffinity, p, false)
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
			w.Name, strings.Join(selectorMismatches(w.NodeSelector, p), " and "), p.Name)
	case ReasonAffinity:
		return ReasonAffinity, affinityMessage(fmt.Sprintf("workload %q", w.Name), w.NodeAffinity, p)
	case ReasonOS:
		return ReasonOS, OSMessage(w, p)
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

// OSMessage says why workload w's pods are kept off pool p for its operating system (ReasonOS), and how to keep
// kube-scheduler off it too.
func OSMessage(w *Workload, p *Pool) string {
	wos, pos := WorkloadOS(w), p.Labels[osLabel]
	why := "the pod says so"
	if w.OS == "" {
		why = "assumed: it names no operating system, and kubefit cannot see its images"
	}
	return fmt.Sprintf("pool %q runs %s nodes and workload %q runs %s containers (%s): kube-scheduler does not look at a pod's "+
		"operating system and may bind its pods there, but the kubelet refuses a pod whose spec.os.name is not its own and an image "+
		"built for another operating system never starts, so kubefit keeps them off the pool; give the workload the node selector "+
		"%s: %s, or taint the pool, so that the scheduler keeps them off too", p.Name, osName(pos), w.Name, osName(wos), why, osLabel, wos)
}

// osName is an operating system's name in prose: "Windows", "Linux".
func osName(os string) string {
	switch os {
	case "windows":
		return "Windows"
	case "linux":
		return "Linux"
	}
	return os
}
