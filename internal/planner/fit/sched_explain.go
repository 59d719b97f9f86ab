package fit

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
)

// Explanations of Pending pods, as kube-scheduler's FitError gives them ("0/5 nodes are available: 3
// Insufficient cpu, 2 node(s) didn't match pod anti-affinity rules"), in the planner's words and pool by
// pool: each node of the cluster as it stands is charged to the first filter that rejects a pod of the
// class, in the order the default profile runs its Filter plugins (NodePorts, NodeResourcesFit,
// NodeVolumeLimits, VolumeZone, PodTopologySpread, InterPodAffinity; pkg/scheduler/apis/config/v1/
// default_plugins.go at v1.37). Pools the pod may not use at all are explained by their exclusion
// (Failure of ReasonSelector, ReasonTaint, …), not here.

// pendingText explains why the pods of class c left Pending found no node of the pool at position pp of
// its pools: the nodes closest to holding one more pod, with what each lacks, and, for the scheduler
// model's placement where rules other than room turned nodes away, how many nodes each rule turned away.
func (s *sim) pendingText(c *classSim, pp int) string {
	text := s.closestNodes(c, pp)
	if s.explain != nil && s.explain[c.w] != nil {
		if t := s.explain[c.w][c.pools[pp]]; t != "" {
			text += " " + t
		}
	}
	return text
}

// explainPending explains, on the cluster as the last run left it, every class with pods Pending in it.
func (cl *cluster) explainPending(pods []int32) [][]string {
	var out [][]string
	for w, n := range pendingPerClass(cl.bind, pods, len(cl.classes)) {
		if n == 0 {
			continue
		}
		if out == nil {
			out = make([][]string, len(cl.classes))
		}
		out[w] = cl.explain(w)
	}
	return out
}

// rejection is why a node turns a pod away, as a predicate of one node and of several.
type rejection struct{ one, many string }

// lackRoom is NodeResourcesFit's rejection (and NodeVolumeLimits'): the closest nodes' shortfalls are
// told apart by closestNodes.
var lackRoom = rejection{"lacks room for it", "lack room for it"}

// explain returns, per pool, a sentence saying how many nodes of the cluster as it stands each filter
// turns a pod of class w away from ("" when room alone does: closestNodes says it), and on how many of
// them preempting lower-priority pods would make room; "" for a pool that has no node or that the class
// may not use.
func (cl *cluster) explain(w int) []string {
	sc := &cl.classes[w]
	minMatch := cl.minMatch(w)
	if cl.ss.any {
		cl.mins = cl.spreadMins(w, cl.mins)
	}
	out := make([]string, len(cl.pools))
	type tally struct {
		why   rejection
		nodes int
	}
	byPool := make([][]tally, len(cl.pools))
	total := make([]int, len(cl.pools))
	preempt := make([]int, len(cl.pools))
	victims := make([][]string, len(cl.pools))
	// The classes of lower priority, the only ones preemption may evict: found once, not per node (with
	// 2,000 classes Pending on a full pool, a pass over every class per node took seconds).
	wls := cl.m.in.Workloads
	var lower []int
	for o := range cl.classes {
		if wls[cl.src[o].w].Priority < wls[cl.src[w].w].Priority {
			lower = append(lower, o)
		}
	}
	for id := range cl.nodes {
		p := cl.nodes[id].pool
		if !sc.allowed[p] || cl.dead != nil && cl.dead[id] {
			continue
		}
		total[p]++
		why := cl.whyNot(w, int32(id), minMatch)
		i := slices.IndexFunc(byPool[p], func(t tally) bool { return t.why == why })
		if i < 0 {
			byPool[p] = append(byPool[p], tally{why: why})
			i = len(byPool[p]) - 1
		}
		byPool[p][i].nodes++
		if why == lackRoom && lower != nil {
			if names := cl.preemptible(w, int32(id), lower); names != nil {
				preempt[p]++
				for _, n := range names {
					if !slices.Contains(victims[p], n) {
						victims[p] = append(victims[p], n)
					}
				}
			}
		}
	}
	for p, ts := range byPool {
		if total[p] == 0 {
			continue
		}
		var text []string
		if len(ts) > 1 || ts[0].why != lackRoom {
			parts := make([]string, len(ts))
			for i, t := range ts {
				parts[i] = fmt.Sprintf("%d %s", t.nodes, t.why.many)
				if t.nodes == 1 {
					parts[i] = "1 " + t.why.one
				}
			}
			text = append(text, fmt.Sprintf("Of the %s in the scheduler model's final placement, %s.",
				Plural(total[p], "node", "nodes"), field.JoinAnd(parts)))
		}
		if preempt[p] > 0 {
			of := "workload"
			if len(victims[p]) > 1 {
				of = "workloads"
			}
			text = append(text, fmt.Sprintf("On %d of %s, kube-scheduler would preempt lower-priority pods (of %s %s) to "+
				"bind it (DefaultPreemption); the plan does not count on that, since the preempted pods would then be Pending.",
				preempt[p], Plural(total[p], "node", "nodes"), of, field.JoinAnd(victims[p])))
		}
		out[p] = strings.Join(text, " ")
	}
	return out
}

// preemptible returns the workloads of lower priority than class w whose pods on node id, all evicted,
// leave room for a pod of class w (DefaultPreemption's first step, which then reprieves what it can; the
// other filters are not rechecked), or nil when there is no such room. lower lists the classes of lower
// priority than w.
func (cl *cluster) preemptible(w int, id int32, lower []int) []string {
	wls := cl.m.in.Workloads
	nd := &cl.nodes[id]
	used := nd.used
	var names []string
	for _, o := range lower {
		if k := int64(cl.onNode[o][id]); k > 0 {
			for r := range nRes {
				used[r] -= k * cl.classes[o].c.req[r]
			}
			names = append(names, strconv.Quote(wls[cl.src[o].w].Name))
		}
	}
	if names == nil {
		return nil
	}
	free := cl.m.pools[nd.pool].walloc
	for r := range nRes {
		if used[r]+cl.classes[w].c.req[r] > free[r] {
			return nil
		}
	}
	return names
}

// whyNot names the first filter that turns a pod of class w away from node id, in the order of the
// default profile's Filter plugins.
func (cl *cluster) whyNot(w int, id int32, minMatch int32) rejection {
	sc := &cl.classes[w]
	nd := &cl.nodes[id]
	if sc.hasPorts {
		busy := cl.onNode[w][id] > 0
		for _, o := range sc.ports {
			busy = busy || cl.onNode[o][id] > 0
		}
		if busy {
			return rejection{"already runs a pod on its host ports", "already run a pod on its host ports"}
		}
	}
	free := cl.m.pools[nd.pool].walloc
	for r := range nRes {
		if sc.c.req[r] > 0 && nd.used[r]+sc.c.req[r] > free[r] {
			return lackRoom
		}
	}
	if sc.hasExt && !cl.extendedOK(w, id) {
		return rejection{"has none of its extended resources left (" + strings.Join(extendedNames(&cl.m.in.Workloads[sc.c.w]), ", ") + ")",
			"have none of its extended resources left (" + strings.Join(extendedNames(&cl.m.in.Workloads[sc.c.w]), ", ") + ")"}
	}
	if cl.pin >= 0 && nd.zone != cl.pin {
		return rejection{"is outside the zone its volumes are in", "are outside the zone its volumes are in"}
	}
	if cl.ss.any && len(cl.ss.own[w]) > 0 && !cl.spreadOK(w, id, cl.mins) {
		return rejection{"would break its topology spread (DoNotSchedule)", "would break its topology spread (DoNotSchedule)"}
	}
	if sc.c.spread == SpreadZone && !cl.zoneSkewOK(w, nd, minMatch) {
		return rejection{fmt.Sprintf("is in a zone that would break its zone spread (max skew %d)", sc.c.skew),
			fmt.Sprintf("are in zones that would break its zone spread (max skew %d)", sc.c.skew)}
	}
	if cl.pt.any {
		if why, ok := cl.podsWhyNot(w, id); ok {
			return why
		}
	}
	if sc.c.spread == SpreadNode && cl.onNode[w][id] > 0 {
		return rejection{"already runs one of its pods (node spread)", "already run one of its pods (node spread)"}
	}
	return rejection{"has room now but had none when the pod's turn came", "have room now but had none when the pod's turn came"}
}

// podsWhyNot is podsOK with the term that turns the pod away; ok is false when InterPodAffinity's Filter
// passes.
func (cl *cluster) podsWhyNot(w int, id int32) (why rejection, ok bool) {
	pt, ps := &cl.pt, &cl.ps
	name := func(t int) string { return cl.m.in.Workloads[cl.src[pt.terms[t].owner].w].Name }
	for _, t := range pt.own[w] {
		term := &pt.terms[t]
		d := ps.dom[term.key][id]
		switch term.kind {
		case termAnti:
			if d >= 0 && ps.cnt[t][d] > 0 {
				return rejection{fmt.Sprintf("holds, in its %q domain, pods the pod's required anti-affinity excludes", pt.keys[term.key]),
					fmt.Sprintf("hold, in their %q domain, pods the pod's required anti-affinity excludes", pt.keys[term.key])}, true
			}
		case termAffinity:
			if d < 0 {
				return rejection{fmt.Sprintf("has no %q label its required affinity needs", pt.keys[term.key]),
					fmt.Sprintf("have no %q label its required affinity needs", pt.keys[term.key])}, true
			}
			if ps.cnt[t][d] == 0 && !(ps.tot[t] == 0 && term.counted[w]) {
				return rejection{fmt.Sprintf("has, in its %q domain, none of the pods its required affinity needs", pt.keys[term.key]),
					fmt.Sprintf("have, in their %q domain, none of the pods its required affinity needs", pt.keys[term.key])}, true
			}
		}
	}
	var others []string
	for _, t := range pt.sym[w] {
		term := &pt.terms[t]
		if term.kind != termAnti {
			continue
		}
		if d := ps.dom[term.key][id]; d >= 0 && ps.own[t][d] > 0 {
			if n := strconv.Quote(name(t)); !slices.Contains(others, n) {
				others = append(others, n)
			}
		}
	}
	if len(others) > 0 {
		text := " of workload " + field.JoinAnd(others) + " whose required anti-affinity excludes the pod"
		return rejection{"holds pods" + text, "hold pods" + text}, true
	}
	return rejection{}, false
}
