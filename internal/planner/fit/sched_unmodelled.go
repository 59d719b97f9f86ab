package fit

import (
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"strconv"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
)

// When a scenario exceeds the scheduler model's work budget the model does not run, and the best packing's count
// is a floor kube-scheduler exceeds in most arrival orders: by up to 13 % on Karpenter's mix with the real
// scheduler (issue 23's table), and by up to 28 % on some pools of BenchmarkPlan10k's input with the model run
// without its budget (TestUnmodelledMarginAtScale), so no fixed share is known to be enough. The counts are then
// the any-fit bound instead (AnyFitNodes), which holds whatever the order and the scores: kube-scheduler leaves a
// pod Pending only when no node passes its filters, and with only resources and one pod per node to filter on,
// a pool of that many nodes always has one. The pods with other hard rules (zone or topology spread, required
// inter-pod terms, host ports, node affinity), or free to use several pools (which pool the scheduler and the
// autoscaler fill is unknown: the model, run without its budget on BenchmarkPlan10k's input, needed 12 % more
// nodes than the best packing in all but 2 to 7 times its count on some pools), fail with ReasonUnmodelled.

// PodGroup is a number of identical pods, for AnyFitNodes.
type PodGroup struct {
	Requests Resources
	Count    int64
	// OnePerNode is true when no two of the group's pods may share a node (a hostname spread or anti-affinity).
	OnePerNode bool
}

// AnyFitNodes is a number of nodes of workload allocatable alloc (after DaemonSets) on which any scheduler that
// binds a pod whenever a node has room for it binds every pod of groups, in any order, whatever node it picks.
//
// For a pod of requests q to find no node, every node must lack room in some resource r (or, one per node, hold a
// pod of its group). A node lacking room in r holds more than alloc_r - q_r of r, so at least m_r pods (that over
// the largest request in r), so at least m_r times the smallest request in every other resource s; r can be
// lacking only if such a node exists. The blocked nodes' usage of each resource s is at most the other pods'
// total in s: that caps their number per resource, and over all of them. And every other pod takes a share of the
// one blocked node it is on, whatever resource blocks it (podShares), so the shares' sum caps them too. One node
// more than the fewest of these caps always has room. It is never more than one node per pod. Groups whose pod
// fits no empty node are left out (they never bind).
func AnyFitNodes(alloc Resources, groups []PodGroup) int64 {
	w := toVec(alloc)
	var total, least, most vec
	pods := int64(0)
	first := true
	for _, g := range groups {
		if g.Count <= 0 {
			continue
		}
		q := toVec(g.Requests)
		total = total.add(q.scale(g.Count))
		pods = satAdd(pods, g.Count)
		for r := range nRes {
			if first || q[r] < least[r] {
				least[r] = q[r]
			}
			most[r] = max(most[r], q[r])
		}
		first = false
	}
	var sized []sizedGroup // the groups with pods that fit an empty node, for podShares
	if len(groups) <= maxAnyFitGroups {
		for _, g := range groups {
			if q := toVec(g.Requests); g.Count > 0 && q.fits(w) {
				sized = append(sized, sizedGroup{q: q, n: g.Count})
			}
		}
	}
	need := int64(0)
	self := -1
	for _, g := range groups {
		if g.Count <= 0 {
			continue
		}
		q := toVec(g.Requests)
		if !q.fits(w) {
			continue
		}
		self++
		other := total.sub(q)
		// use[r][s]: the least of resource s a node lacking room in r holds; ok[r]: such a node can exist.
		var use [nRes]vec
		var ok [nRes]bool
		for r := range nRes {
			if q[r] == 0 {
				continue
			}
			over := w[r] - q[r] + 1 // a node lacking room in r holds at least this much of it
			m := ceilDiv(over, most[r])
			ok[r] = true
			for s := range nRes {
				use[r][s] = satMul(m, least[s])
				if use[r][s] > w[s] {
					ok[r] = false
				}
			}
			use[r][r] = max(use[r][r], over)
		}
		perResource := int64(0)
		blockable := false
		for r := range nRes {
			if ok[r] {
				limit := other[r] / use[r][r]
				if total[r] == math.MaxInt64 {
					limit = math.MaxInt64 // a saturated total caps nothing
				}
				perResource = satAdd(perResource, limit)
				blockable = true
			}
		}
		blocked := int64(0)
		if blockable {
			blocked = perResource
			for s := range nRes {
				den := int64(-1)
				for r := range nRes {
					if ok[r] && (den < 0 || use[r][s] < den) {
						den = use[r][s]
					}
				}
				if den > 0 && total[s] < math.MaxInt64 {
					blocked = min(blocked, other[s]/den)
				}
			}
		}
		if g.OnePerNode {
			blocked = satAdd(blocked, g.Count-1)
		}
		if sized != nil {
			blocked = min(blocked, podShares(sized, self, g.OnePerNode, &use, &ok))
		}
		need = max(need, satAdd(blocked, 1))
	}
	return min(need, pods)
}

// maxAnyFitGroups bounds the groups for which AnyFitNodes sums podShares (groups × groups work); beyond it the
// per-resource caps alone bound the blocked nodes.
const maxAnyFitGroups = 1024

// sizedGroup is a PodGroup's requests and count, for podShares.
type sizedGroup struct {
	q vec
	n int64
}

// podShares bounds the nodes that can lack room for a pod of groups[self] by the other pods' shares of a blocked
// node: a node lacking room in r holds at least use[r][r] of r, so every pod on it counts min(1, its r over
// use[r][r]) and they add up to at least 1 there; a pod counts the most of that over the resources that can lack
// room (ok), and a pod of a one-per-node pending group 1 for the node it holds. The sum over every other pod, rounded
// down, caps the blocked nodes. Unlike summing each resource's own cap, a pod is counted against one resource only,
// which for pods heavy in different resources on different nodes is up to nRes times tighter.
func podShares(groups []sizedGroup, self int, onePerNode bool, use *[nRes]vec, ok *[nRes]bool) int64 {
	whole := int64(0)
	var sums [nRes]u128 // per resource, the summed requests of the pods counted against it
	for k := range groups {
		p, n := &groups[k].q, groups[k].n
		if k == self {
			n--
			if onePerNode {
				whole = satAdd(whole, n)
				continue
			}
		}
		if n <= 0 {
			continue
		}
		best := -1
		for r := range nRes {
			if !ok[r] || p[r] == 0 {
				continue
			}
			if p[r] >= use[r][r] {
				best = nRes // a whole node per pod
				break
			}
			if best < 0 || fracLess(p[best], use[best][best], p[r], use[r][r]) {
				best = r
			}
		}
		switch {
		case best == nRes:
			whole = satAdd(whole, n)
		case best >= 0:
			// Each product is below 2^126: with the sum below 2^126 before, it cannot wrap.
			if sums[best] = sums[best].addMul(uint64(n), uint64(p[best])); sums[best].hi >= 1<<62 {
				return math.MaxInt64 // too large to sum: no cap from the shares
			}
		}
	}
	sum := new(big.Rat).SetInt64(whole)
	for r, x := range sums {
		if x != (u128{}) {
			v := new(big.Int).Lsh(new(big.Int).SetUint64(x.hi), 64)
			sum.Add(sum, new(big.Rat).SetFrac(v.Or(v, new(big.Int).SetUint64(x.lo)), big.NewInt(use[r][r])))
		}
	}
	floor := new(big.Int).Quo(sum.Num(), sum.Denom())
	if !floor.IsInt64() {
		return math.MaxInt64
	}
	return floor.Int64()
}

// fracLess reports whether a/b < c/d for non-negative a, c and positive b, d, exactly.
func fracLess(a, b, c, d int64) bool {
	hi1, lo1 := bits.Mul64(uint64(a), uint64(d))
	hi2, lo2 := bits.Mul64(uint64(c), uint64(b))
	return hi1 < hi2 || (hi1 == hi2 && lo1 < lo2)
}

// anyFitRules reports whether the any-fit bound holds for the pods of workload w: no hard rule beyond resources,
// the pool's selector and taints, and one pod per node.
func anyFitRules(w *Workload, spread SpreadType) bool {
	if spread == SpreadZone || len(w.HostPorts) > 0 || len(w.NodeAffinity) > 0 || len(extendedNames(w)) > 0 {
		return false
	}
	if a := w.PodAffinity; a != nil && len(a.Required)+len(a.AntiRequired) > 0 {
		return false
	}
	for _, c := range w.TopologySpread {
		if c.WhenUnsatisfiable != ScheduleAnyway {
			return false
		}
	}
	return true
}

// addUnmodelledMargin grows every pool of best that holds pods to the any-fit bound of its pods (AnyFitNodes):
// all pods of the workloads that may use that pool only, and the pods the best packing put there of the others
// (which fail); with empty nodes within MaxNodes while it allows and beyond it after (so a pool the bound takes
// beyond its maximum does not fit). It lists in best.unmodelled the classes with pods for which the bound does
// not hold (other hard rules, or several pools they may use), and returns ScenarioResult.Margin.
func (m *model) addUnmodelledMargin(best *sim) string {
	added := 0
	for p := range best.pools {
		ps := &best.pools[p]
		pm := &m.pools[p]
		n, held := 0, int64(0)
		for _, id := range best.poolNodes(p) {
			n++
			held += best.nodes[id].used[rPods]
		}
		if held == 0 {
			continue
		}
		var groups []PodGroup
		for w := range best.classes {
			c := &best.classes[w]
			pp := c.pos[p]
			if c.n == 0 || pp < 0 {
				continue
			}
			// A workload that may use p only counts whole; one free to use several pools fails unmodelled
			// (below), and counts with the pods the best packing put on p.
			count := c.n
			if len(c.pools) > 1 {
				count = c.in[pp] + c.beyond[pp]
			}
			if count > 0 {
				groups = append(groups, PodGroup{Requests: c.req.resources(), Count: int64(count), OnePerNode: c.spread == SpreadNode})
			}
		}
		k := int(min(AnyFitNodes(pm.walloc.resources(), groups), int64(MaxPlanNodes))) - n
		for i := range k {
			beyond := len(ps.over.ids) > 0 || len(ps.in.ids) >= pm.p.MaxNodes
			best.addNode(p, (n+i)%pm.nz, beyond)
		}
		added += max(k, 0)
	}
	for w := range best.classes {
		if c := &best.classes[w]; c.n > 0 && (len(c.pools) > 1 || !anyFitRules(&m.in.Workloads[c.w], c.spread)) {
			best.unmodelled = append(best.unmodelled, w)
		}
	}
	if added == 0 {
		return ""
	}
	return fmt.Sprintf("plus %s over the best packing, as the scheduler model did not run: %s", Plural(added, "node", "nodes"), AnyFitText)
}

// AnyFitText says what the counts of a scenario the scheduler model did not run are (AnyFitNodes).
const AnyFitText = "each pool holds as many nodes as any scheduler needs to bind the pods that may use it, whatever " +
	"their order and its scores (a pod stays Pending only when no node has room for it)"

// unmodelledFailure says, for a class of best.unmodelled, why its pods are not said to fit.
func (s *sim) unmodelledFailure(w int) Failure {
	c := &s.classes[w]
	first := ""
	for i, p := range c.pools {
		if c.in[i]+c.beyond[i] > 0 {
			first = s.m.pools[p].p.Name
			break
		}
	}
	if first == "" && len(c.pools) > 0 {
		first = s.m.pools[c.pools[0]].p.Name
	}
	// A few pools by name: a workload may use thousands.
	const named = 4
	var names []string
	for _, p := range c.pools[:min(len(c.pools), named)] {
		names = append(names, strconv.Quote(s.m.pools[p].p.Name))
	}
	if len(c.pools) > named {
		names = append(names, fmt.Sprintf("%s more", FormatCount(int64(len(c.pools)-named))))
	}
	name := s.m.in.Workloads[c.w].Name
	why := fmt.Sprintf("workload %q may use pools %s: which of them kube-scheduler and the autoscaler fill is unknown "+
		"without it (on a measured input of 10,000 pods over 20 pools they needed up to 7 times the best packing's nodes "+
		"on some pools, though 12 %% more in all)", name, field.JoinAnd(names))
	remedy := "Pin the workload to one pool (its pools or node selector), or plan fewer pods at once"
	if len(c.pools) <= 1 {
		why = fmt.Sprintf("workload %q has a hard placement rule beyond resources and one pod per node (zone or topology "+
			"spread, a required inter-pod term, a host port or node affinity), under which no node count is known to "+
			"bind its pods without the model", name)
		remedy = "Plan fewer pods at once, or plan this workload with fewer others"
	}
	return Failure{Workload: name, Pool: first, Scenario: s.scenario, Reason: ReasonUnmodelled, Message: fmt.Sprintf(
		"in %s the scheduler model was not run (the plan exceeds its work budget), and %s, so kubefit cannot say "+
			"that the pools hold its pods. %s", s.scenarioText(), why, remedy)}
}
