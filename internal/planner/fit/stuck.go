package fit

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
)

// stuckFailure explains the pods of workload w that the scheduler model left Pending on every node count
// its search tried (classSim.stuck): the rules that hold them, the nodes closest to taking one, and what
// to loosen. Its reason is the inter-pod rules' when one of them is among the rules, else the spread's,
// else the host ports'; with no rule of its own, the spread's when nodes of its pools have room (other
// workloads' rules hold it), else the maximum's (the search stopped before its pools had room).
func (s *sim) stuckFailure(w int) Failure {
	c := &s.classes[w]
	wl := &s.m.in.Workloads[w]
	reason, rules := s.stuckRules(w)
	p := c.pools[0]
	pm := &s.m.pools[p]
	verb := "stay"
	if c.stuck == 1 {
		verb = "stays"
	}
	order := ""
	switch {
	case s.mostStuck != nil && s.mostStuck[w] > c.stuck:
		// Another planned order left more on the same counts (realistic).
		order = fmt.Sprintf(" in the order %q (%d in the order %q; other tie-breaks can leave more)", s.bound,
			s.mostStuck[w], s.mostStuckIn[w])
	case s.bound != "":
		// The count is one order's: on the same nodes the real kube-scheduler left 5 to 17 pods of a workload Pending
		// over four orders where the model's worst order left 9 (10,000 pods under MostAllocated, 2026-12-06).
		order = fmt.Sprintf(" in the order %q (other orders and tie-breaks can leave more)", s.bound)
	}
	tried := fmt.Sprintf("%s of workload %q %s Pending in %s%s on every node count the scheduler model tried (up to %d nodes of %s, "+
		"within its maximum %d)", Plural(c.stuck, "pod", "pods"), wl.Name, verb, s.scenarioText(), order,
		len(s.pools[p].in.ids)+len(s.pools[p].over.ids), poolLabel(pm.p), pm.p.MaxNodes)
	if rules == nil && s.full(c) {
		// Held by room alone: other workloads' pods took every node the search added to its pools.
		return Failure{Workload: wl.Name, Pool: pm.p.Name, Scenario: s.scenario, Reason: ReasonMaxNodes, Message: fmt.Sprintf(
			"%s: every node of its pools is full, as the pods of other workloads that may use them took the nodes the search "+
				"added, and the search stopped at its limit (four times the best packing's nodes, %d rounds or its work budget). "+
				"%s Give the workload a pool of its own (a taint only it tolerates), keep the other workloads off its pools, or "+
				"plan fewer pods at once.", tried, maxScheduleRounds, s.pendingText(c, 0))}
	}
	if rules == nil {
		// Pods held by other workloads' spread or affinity needs alone.
		reason, rules = ReasonSpread, []string{"the topology spread and inter-pod rules of the workloads around them"}
	}
	msg := fmt.Sprintf("%s: the nodes have room, but %s keep the pods off them. %s Loosen the rule (a larger max skew, "+
		"ScheduleAnyway or a preferred term, fewer min domains) or the rule of the workload it meets.",
		tried, field.JoinAnd(rules), s.pendingText(c, 0))
	return Failure{Workload: wl.Name, Pool: pm.p.Name, Scenario: s.scenario, Reason: reason, Message: msg}
}

// full reports whether no node of the pools class c may use has room for one more of its pods.
func (s *sim) full(c *classSim) bool {
	for _, p := range c.pools {
		for _, id := range s.poolNodes(p) {
			if c.req.fits(s.nodes[id].free) {
				return false
			}
		}
	}
	return true
}

// stuckRules names the filtering rules that apply to the pods of workload w: its own required inter-pod
// terms, topology spread that does not schedule when unsatisfied, spread and host ports, and the required
// anti-affinity of other workloads that matches its pods; none (nil) when no rule applies.
func (s *sim) stuckRules(w int) (Reason, []string) {
	wl := &s.m.in.Workloads[w]
	var rules []string
	reason := Reason("")
	pick := func(r Reason) {
		if reason == "" || r == ReasonPodAffinity {
			reason = r
		}
	}
	if a := wl.PodAffinity; a != nil {
		for _, t := range a.Required {
			rules = append(rules, "its required pod affinity on "+strconv.Quote(t.TopologyKey))
			pick(ReasonPodAffinity)
		}
		for _, t := range a.AntiRequired {
			rules = append(rules, "its required pod anti-affinity on "+strconv.Quote(t.TopologyKey))
			pick(ReasonPodAffinity)
		}
	}
	pt := newPodTerms(s.m.in, s.classes)
	var others []string
	for _, t := range pt.sym[w] {
		if term := &pt.terms[t]; term.kind == termAnti && term.owner != w {
			text := fmt.Sprintf("the required pod anti-affinity of workload %q on %q", s.m.in.Workloads[s.classes[term.owner].w].Name, pt.keys[term.key])
			if !slices.Contains(others, text) {
				others = append(others, text)
			}
		}
	}
	if len(others) > 0 {
		rules = append(rules, others...)
		pick(ReasonPodAffinity)
	}
	for _, t := range wl.TopologySpread {
		if t.WhenUnsatisfiable == DoNotSchedule {
			rules = append(rules, fmt.Sprintf("its topology spread on %q (max skew %d, DoNotSchedule)", t.TopologyKey, t.MaxSkew))
			pick(ReasonSpread)
		}
	}
	switch wl.Spread.Type {
	case SpreadZone:
		rules = append(rules, fmt.Sprintf("its zone spread (max skew %d)", max(wl.Spread.MaxSkew, 1)))
		pick(ReasonSpread)
	case SpreadNode:
		rules = append(rules, "its node spread (one pod per node)")
		pick(ReasonSpread)
	}
	if len(wl.HostPorts) > 0 {
		rules = append(rules, "its host ports "+describePorts(wl.HostPorts))
		pick(ReasonHostPort)
	}
	return reason, rules
}
