package workloads

import (
	"fmt"
	"sort"
	"strings"

	corev1 "k8s.io/api/core/v1"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
)

// constraints lists the pod's scheduling constraints as written, marks those sizing models (the node
// selector, required node affinity without matchFields, tolerations, a required hostname anti-affinity or a
// zone DoNotSchedule spread on the pod's own labels, host ports) and sets pl from them. Every other
// constraint is carried and warned about, never dropped.
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
				add("nodeAffinity.preferred", false, "not modelled yet: a scoring preference, ignored", pref)
			}
		}
		if pa := a.PodAffinity; pa != nil {
			if req := pa.RequiredDuringSchedulingIgnoredDuringExecution; len(req) > 0 {
				add("podAffinity.required", false, "not modelled yet: sizing does not keep the pods next to the pods they select", req)
			}
			if pref := pa.PreferredDuringSchedulingIgnoredDuringExecution; len(pref) > 0 {
				add("podAffinity.preferred", false, "not modelled yet: a scoring preference, ignored", pref)
			}
		}
		if aa := a.PodAntiAffinity; aa != nil {
			for _, t := range aa.RequiredDuringSchedulingIgnoredDuringExecution {
				if !ow.daemon && noSpread(pl.spread) && t.TopologyKey == hostnameKey && len(t.Namespaces) == 0 &&
					t.NamespaceSelector == nil && selects(t.LabelSelector, podLabels) {
					pl.spread = fit.Spread{Type: fit.SpreadNode}
					add("podAntiAffinity.required", true, "spread = node (one of its pods per node; other pods its selector matches are not kept away)", t)
					continue
				}
				add("podAntiAffinity.required", false, "not modelled yet: sizing does not keep the pods away from the pods this term selects", t)
			}
			if pref := aa.PreferredDuringSchedulingIgnoredDuringExecution; len(pref) > 0 {
				add("podAntiAffinity.preferred", false, "not modelled yet: a scoring preference, ignored (the scheduler may still spread the pods)", pref)
			}
		}
	}
	for _, t := range spec.TopologySpreadConstraints {
		if !ow.daemon && noSpread(pl.spread) && t.TopologyKey == zoneKey && t.WhenUnsatisfiable == corev1.DoNotSchedule &&
			(t.MinDomains == nil || *t.MinDomains <= 1) && selects(t.LabelSelector, podLabels) {
			pl.spread = fit.Spread{Type: fit.SpreadZone, MaxSkew: int(t.MaxSkew)}
			add("topologySpreadConstraints", true, fmt.Sprintf("spread = zone, max_skew %d", t.MaxSkew), t)
			continue
		}
		add("topologySpreadConstraints", false, "not modelled yet: sizing does not spread the pods on "+t.TopologyKey+" ("+string(t.WhenUnsatisfiable)+")", t)
	}
	if ports := hostPorts(spec); len(ports) > 0 {
		pl.ports = ports
		switch {
		case ow.daemon:
			add("hostPort", true, "host_ports (a workload asking for the same port cannot use the DaemonSet's pools)", ports)
		case pl.spread.Type == fit.SpreadZone:
			add("hostPort", false, "not modelled with a zone spread: its pods also need one node each", ports)
		default:
			add("hostPort", true, "host_ports (at most one of its pods per node, none beside a DaemonSet on the same port; other workloads on the port are warned about)", ports)
		}
	}
	if spec.NodeName != "" {
		add("nodeName", false, "not modelled: the pod is bound to node "+spec.NodeName+" without the scheduler", spec.NodeName)
	}
	if len(spec.SchedulingGates) > 0 {
		add("schedulingGates", false, "not modelled: the pods wait until every gate is removed", spec.SchedulingGates)
	}
	if len(ow.claims) > 0 || hasClaims(spec) {
		add("volumes", true, "volume_claims: each ReadWriteOnce or ReadWriteOncePod claim takes one of its node's volume attachments (NodeVolumeLimits); "+
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
