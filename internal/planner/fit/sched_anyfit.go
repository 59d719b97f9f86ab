package fit

// The node-count search's shortcut: counts known without running the model (realistic).

// anyFitSkipsSearch lets realistic skip the node-count search when anyFitCounts gives its answer; tests clear it
// to compare the two.
var anyFitSkipsSearch = true

// anyFitCounts returns the counts on which the node-count search would end, when it is known without running the
// model, else nil: any scheduler that binds a pod whenever a node passes its filters binds every pod of classes on
// the best packing's counts, whatever the order and the node it picks (AnyFitNodes), so every order does under
// every tie-break. That needs every class with pods to use one pool only, fit an empty node of it and have no hard
// rule beyond resources and one pod per node (anyFitRules), and every pool to hold the any-fit bound of its pods,
// as it does when the pool's pods are all alike (a pool per workload: the bound is then the best packing's
// count). A pool the best packing took beyond its maximum must be known to bind at its maximum (the bound within
// it: the search then keeps the maximums) or, for one of them, known not to (leastNodes beyond it: the search
// keeps the counts).
func (m *model) anyFitCounts(classes []classSim, counts []int) []int {
	groups := make([][]PodGroup, len(m.pools))
	for w := range classes {
		c := &classes[w]
		if c.n == 0 {
			continue
		}
		if len(c.pools) != 1 || !m.fitsEmpty(c.w, c.pools[0]) || !anyFitRules(&m.in.Workloads[c.w], c.spread) {
			return nil
		}
		p := c.pools[0]
		groups[p] = append(groups[p], PodGroup{Requests: c.req.resources(), Count: int64(c.n), OnePerNode: c.spread == SpreadNode})
	}
	capped := cappedCounts(m, counts)
	bindCapped, failCapped := true, false
	for p, g := range groups {
		if g == nil {
			continue
		}
		w := m.pools[p].walloc.resources()
		bound := AnyFitNodes(w, g)
		if bound > int64(counts[p]) {
			return nil
		}
		if capped[p] < counts[p] {
			bindCapped = bindCapped && bound <= int64(capped[p])
			failCapped = failCapped || leastNodes(w, g) > int64(capped[p])
		}
	}
	switch {
	case bindCapped:
		return capped
	case failCapped:
		return counts
	}
	return nil
}

// leastNodes is a number of nodes of workload allocatable alloc fewer than which hold the pods of groups in no
// placement: each resource's total over the allocatable, each one-per-node group's pods, and for one group the
// nodes of as many pods as an empty node holds.
func leastNodes(alloc Resources, groups []PodGroup) int64 {
	w := toVec(alloc)
	var total vec
	least := int64(0)
	for _, g := range groups {
		total = total.add(toVec(g.Requests).scale(g.Count))
		if g.OnePerNode {
			least = max(least, g.Count)
		}
	}
	if len(groups) == 1 {
		spread := SpreadNone
		if groups[0].OnePerNode {
			spread = SpreadNode
		}
		if k := perNode(toVec(groups[0].Requests), w, spread, 0); k > 0 {
			least = max(least, ceilDiv(groups[0].Count, k))
		}
	}
	for r := range nRes {
		if w[r] > 0 {
			least = max(least, ceilDiv(total[r], w[r]))
		}
	}
	return least
}
