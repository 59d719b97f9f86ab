package workloads

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	corev1 "k8s.io/api/core/v1"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
)

// constraints lists the pod's scheduling constraints as written, marks those sizing models (the node
// selector, required and preferred node affinity without matchFields, tolerations, inter-pod terms, topology
// spread constraints, host ports, volumes) and sets pl from them. Every other constraint is carried and warned
// about, never dropped.
func (r *reader) constraints(o object, ow *owned, pl *placement) []Constraint {
	spec := &ow.template.Spec
	podLabels := ow.template.Labels
	var cs []Constraint
	add := func(typ string, modelled bool, as string, v any) {
		cs = append(cs, Constraint{Type: typ, Modelled: modelled, As: as, Spec: specJSON(v)})
	}
	if len(spec.NodeSelector) > 0 {
		add("nodeSelector", true, "node_selector", spec.NodeSelector)
	}
	if len(spec.Tolerations) > 0 {
		add("tolerations", true, "tolerations", spec.Tolerations)
	}
	if a := spec.Affinity; a != nil {
		if na := a.NodeAffinity; na != nil {
			if req := na.RequiredDuringSchedulingIgnoredDuringExecution; req != nil {
				if terms, ok := affinityTerms(req); ok {
					pl.affinity = terms
					add("nodeAffinity.required", true, "node_affinity", req)
				} else {
					add("nodeAffinity.required", false, "not modelled yet: matchFields (node names) are not known before the nodes exist", req)
				}
			}
			if pref := na.PreferredDuringSchedulingIgnoredDuringExecution; len(pref) > 0 {
				terms, ok := preferredTerms(pref)
				switch {
				case ow.daemon:
					add("nodeAffinity.preferred", true, "nothing to model for a DaemonSet: its pods land on every node the pool's rules allow, whatever they prefer", pref)
				case ok:
					pl.preferred = terms
					add("nodeAffinity.preferred", true, "preferred_node_affinity (a score, as the scheduler's NodeAffinity plugin weighs it: its pods fill the nodes they prefer first)", pref)
				default:
					add("nodeAffinity.preferred", false, "not modelled yet: matchFields (node names) are not known before the nodes exist", pref)
				}
			}
		}
		var pod fit.PodAffinity
		term := func(t corev1.PodAffinityTerm) (fit.PodAffinityTerm, bool) {
			return podTerm(t)
		}
		model := func(typ string, v any, ok bool, as string) {
			switch {
			case ow.daemon:
				add(typ, false, "not modelled for DaemonSets: their pods land on every node the pool's rules allow", v)
			case ok:
				add(typ, true, as, v)
			default:
				add(typ, false, "not modelled: a term with a non-empty namespaceSelector or with matchLabelKeys/mismatchLabelKeys (sizing knows no namespace labels and no pod-template hashes)", v)
			}
		}
		if pa := a.PodAffinity; pa != nil {
			for _, t := range pa.RequiredDuringSchedulingIgnoredDuringExecution {
				ft, ok := term(t)
				if ok && !ow.daemon {
					pod.Required = append(pod.Required, ft)
				}
				model("podAffinity.required", t, ok, "pod_affinity.required (a filter: its pods go only where the pods it selects run, in that topology domain)")
			}
			for _, t := range pa.PreferredDuringSchedulingIgnoredDuringExecution {
				ft, ok := term(t.PodAffinityTerm)
				if ok && !ow.daemon {
					pod.Preferred = append(pod.Preferred, fit.WeightedPodAffinityTerm{Weight: int(t.Weight), Term: ft})
				}
				model("podAffinity.preferred", t, ok, "pod_affinity.preferred (a score, as the scheduler weighs it)")
			}
		}
		if aa := a.PodAntiAffinity; aa != nil {
			for _, t := range aa.RequiredDuringSchedulingIgnoredDuringExecution {
				ft, ok := term(t)
				if ok && !ow.daemon {
					pod.AntiRequired = append(pod.AntiRequired, ft)
				}
				as := "pod_anti_affinity.required (a filter: its pods never share the topology domain of the pods it selects, and those keep away from them)"
				own := len(ft.Namespaces) == 0 || ft.AllNamespaces || slices.Contains(ft.Namespaces, o.src.Namespace)
				if ok && own && !ow.daemon && noSpread(pl.spread) && t.TopologyKey == hostnameKey && selects(t.LabelSelector, podLabels) {
					// One pod per node: the packer's node spread says so too.
					pl.spread = fit.Spread{Type: fit.SpreadNode}
					as = "spread = node and " + as
				}
				model("podAntiAffinity.required", t, ok, as)
			}
			for _, t := range aa.PreferredDuringSchedulingIgnoredDuringExecution {
				ft, ok := term(t.PodAffinityTerm)
				if ok && !ow.daemon {
					pod.AntiPreferred = append(pod.AntiPreferred, fit.WeightedPodAffinityTerm{Weight: int(t.Weight), Term: ft})
				}
				model("podAntiAffinity.preferred", t, ok, "pod_anti_affinity.preferred (a score, as the scheduler weighs it)")
			}
		}
		if len(pod.Required)+len(pod.Preferred)+len(pod.AntiRequired)+len(pod.AntiPreferred) > 0 {
			pl.pod = &pod
		}
	}
	for _, t := range spec.TopologySpreadConstraints {
		if ow.daemon {
			add("topologySpreadConstraints", false, "not modelled for DaemonSets: their pods land on every node the pool's rules allow", t)
			continue
		}
		pl.topology = append(pl.topology, spreadConstraint(t))
		as := "topology_spread (as the scheduler's PodTopologySpread applies it)"
		if noSpread(pl.spread) && t.TopologyKey == zoneKey && t.WhenUnsatisfiable == corev1.DoNotSchedule &&
			(t.MinDomains == nil || *t.MinDomains <= 1) && selects(t.LabelSelector, podLabels) {
			// The best packing spreads by zone too.
			pl.spread = fit.Spread{Type: fit.SpreadZone, MaxSkew: int(t.MaxSkew)}
			as = fmt.Sprintf("spread = zone, max_skew %d, and %s", t.MaxSkew, as)
		}
		add("topologySpreadConstraints", true, as, t)
	}
	if ports := hostPorts(spec); len(ports) > 0 {
		pl.ports = ports
		switch {
		case ow.daemon:
			add("hostPort", true, "host_ports (a workload asking for the same port cannot use the DaemonSet's pools)", ports)
		default:
			add("hostPort", true, "host_ports (at most one of its pods per node, none beside a DaemonSet or another workload's pod on the same port)", ports)
		}
	}
	if spec.NodeName != "" {
		add("nodeName", false, "not modelled: the pod is bound to node "+spec.NodeName+" without the scheduler", spec.NodeName)
	}
	if len(spec.SchedulingGates) > 0 {
		add("schedulingGates", false, "not modelled: the pods wait until every gate is removed", spec.SchedulingGates)
	}
	if len(ow.claims) > 0 || hasClaims(spec) {
		add("volumes", true, "volume_claims: each claim but a ReadWriteMany one takes one of its node's volume attachments (NodeVolumeLimits); "+
			"a volume's zone is not checked, which holds for WaitForFirstConsumer classes (an Immediate class pins the pods to the zone its volume was made in)", volumeNames(ow, spec))
	}
	if bad := joinTypes(cs); bad != "" {
		r.warn(o.src, WarnUnmodelledConstraint, "its pods carry scheduling constraints sizing does not model yet (%s); the plan treats them as absent, so check them by hand", bad)
	}
	return cs
}

// affinityTerms converts a required node affinity to the planner's terms; false when a term uses
// matchFields, which name nodes that do not exist before the plan.
func affinityTerms(req *corev1.NodeSelector) ([]fit.NodeSelectorTerm, bool) {
	var out []fit.NodeSelectorTerm
	for _, t := range req.NodeSelectorTerms {
		if len(t.MatchFields) > 0 {
			return nil, false
		}
		var term fit.NodeSelectorTerm
		for _, e := range t.MatchExpressions {
			term.MatchExpressions = append(term.MatchExpressions, fit.NodeSelectorRequirement{Key: e.Key,
				Operator: fit.NodeSelectorOperator(e.Operator), Values: e.Values})
		}
		out = append(out, term)
	}
	return out, true
}

// preferredTerms converts a preferred node affinity to the planner's weighted terms; false when a term uses
// matchFields, which name nodes that do not exist before the plan.
func preferredTerms(pref []corev1.PreferredSchedulingTerm) ([]fit.WeightedNodeSelectorTerm, bool) {
	var out []fit.WeightedNodeSelectorTerm
	for _, t := range pref {
		terms, ok := affinityTerms(&corev1.NodeSelector{NodeSelectorTerms: []corev1.NodeSelectorTerm{t.Preference}})
		if !ok {
			return nil, false
		}
		out = append(out, fit.WeightedNodeSelectorTerm{Weight: int(t.Weight), Term: terms[0]})
	}
	return out, true
}

// hostPorts lists the pod's host ports, each once.
func hostPorts(spec *corev1.PodSpec) []fit.HostPort {
	var out []fit.HostPort
	seen := map[fit.HostPort]bool{}
	var containers []corev1.Container
	for _, c := range spec.InitContainers {
		// Only sidecars keep their ports while the pod runs (the scheduler's GetHostPorts).
		if c.RestartPolicy != nil && *c.RestartPolicy == corev1.ContainerRestartPolicyAlways {
			containers = append(containers, c)
		}
	}
	for _, cs := range [][]corev1.Container{containers, spec.Containers} {
		for _, c := range cs {
			for _, p := range c.Ports {
				if p.HostPort <= 0 {
					continue
				}
				hp := fit.HostPort{Port: int(p.HostPort), Protocol: string(p.Protocol), IP: p.HostIP}
				if hp.IP == "0.0.0.0" || hp.IP == "::" {
					hp.IP = ""
				}
				if hp.Protocol == "" {
					hp.Protocol = string(corev1.ProtocolTCP)
				}
				if !seen[hp] {
					seen[hp] = true
					out = append(out, hp)
				}
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return out
}

func hasClaims(spec *corev1.PodSpec) bool {
	for _, v := range spec.Volumes {
		if v.PersistentVolumeClaim != nil || v.Ephemeral != nil {
			return true
		}
	}
	return false
}

func volumeNames(ow *owned, spec *corev1.PodSpec) string {
	var names []string
	for _, t := range ow.claims {
		names = append(names, t.Name)
	}
	for _, v := range spec.Volumes {
		if v.PersistentVolumeClaim != nil || v.Ephemeral != nil {
			names = append(names, v.Name)
		}
	}
	return strings.Join(names, ", ")
}

// noSpread reports whether no spread has been set yet.
func noSpread(s fit.Spread) bool { return s.Type == "" || s.Type == fit.SpreadNone }

// podTerm converts an inter-pod term; false when it uses what sizing cannot evaluate: a namespaceSelector
// other than {} (every namespace), or matchLabelKeys/mismatchLabelKeys.
func podTerm(t corev1.PodAffinityTerm) (fit.PodAffinityTerm, bool) {
	ft := fit.PodAffinityTerm{Namespaces: t.Namespaces, TopologyKey: t.TopologyKey}
	if len(t.MatchLabelKeys)+len(t.MismatchLabelKeys) > 0 {
		return ft, false
	}
	if ns := t.NamespaceSelector; ns != nil {
		if len(ns.MatchLabels)+len(ns.MatchExpressions) > 0 {
			return ft, false
		}
		ft.AllNamespaces = true
	}
	if ls := t.LabelSelector; ls != nil {
		ft.Selector.MatchLabels = ls.MatchLabels
		for _, e := range ls.MatchExpressions {
			ft.Selector.MatchExpressions = append(ft.Selector.MatchExpressions, fit.LabelSelectorRequirement{Key: e.Key,
				Operator: fit.LabelSelectorOperator(e.Operator), Values: e.Values})
		}
	} else {
		// A null selector matches no pod (the scheduler's term): select a label no pod carries.
		ft.Selector.MatchExpressions = []fit.LabelSelectorRequirement{{Key: "kubefit.io/none", Operator: fit.LabelExists}}
	}
	return ft, true
}

// spreadConstraint converts a topology spread constraint; a null selector counts no pod, as in Kubernetes.
func spreadConstraint(t corev1.TopologySpreadConstraint) fit.TopologySpreadConstraint {
	c := fit.TopologySpreadConstraint{MaxSkew: int(t.MaxSkew), TopologyKey: t.TopologyKey, WhenUnsatisfiable: fit.Unsatisfiable(t.WhenUnsatisfiable),
		MatchLabelKeys: t.MatchLabelKeys}
	if t.MinDomains != nil {
		c.MinDomains = int(*t.MinDomains)
	}
	if t.NodeAffinityPolicy != nil {
		c.NodeAffinityPolicy = fit.InclusionPolicy(*t.NodeAffinityPolicy)
	}
	if t.NodeTaintsPolicy != nil {
		c.NodeTaintsPolicy = fit.InclusionPolicy(*t.NodeTaintsPolicy)
	}
	term, _ := podTerm(corev1.PodAffinityTerm{LabelSelector: t.LabelSelector})
	c.Selector = term.Selector
	return c
}
