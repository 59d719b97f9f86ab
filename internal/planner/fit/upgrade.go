package fit

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// DisruptNodeUpgrade replaces every node of each pool in turn by a rolling surge upgrade (Pool.Upgrade):
// MaxSurge new nodes are added, then MaxSurge + MaxUnavailable old nodes (the busiest first) are drained at
// once. A drain evicts its pods one at a time through the eviction API, which refuses an eviction while the
// pod's PodDisruptionBudget allows no disruption (its healthy pods at DisruptionBudget.DesiredHealthy); an
// evicted pod must bind on the remaining old nodes, the new ones, or the other pools (growing within their
// maximum). After a batch the drained nodes are gone and replaced. A pod whose eviction stays refused blocks
// the drain (named, with its budget); one that binds nowhere stays Pending.
const DisruptNodeUpgrade DisruptionKind = "node_upgrade"

// upgrades checks node_upgrade for every pool that has a node and returns the worst: one that blocks or
// strands pods, else the one that evicts the most.
func (cl *cluster) upgrades(m *model, order []int32, counts []int, bind []int32, seed uint64) DisruptionResult {
	cl.setMode(seed)
	var worst *DisruptionResult
	worstPool := -1
	for p, n := range counts {
		if n == 0 {
			continue
		}
		if cl.overDisruptionBudget() {
			u := cl.unchecked(DisruptNodeUpgrade, order, counts)
			return u
		}
		surge, drain := m.pools[p].p.Upgrade.Batch(n)
		r := cl.upgradePool(m, p, order, counts, bind, seed, surge, drain-surge)
		if worst == nil || upgradeWorse(r, *worst) {
			worst, worstPool = &r, p
		}
	}
	if worst == nil {
		return DisruptionResult{Kind: DisruptNodeUpgrade, Checked: true, Fits: true, Message: "node_upgrade: nothing to replace (no pool has a node)"}
	}
	if worst.Checked && !worst.Fits && len(worst.Pending) > 0 && len(worst.Blocked) == 0 {
		worst.Message += cl.upgradeRemedy(m, worstPool, order, counts, bind, seed)
	}
	return *worst
}

func upgradeWorse(a, b DisruptionResult) bool {
	if a.Fits != b.Fits {
		return !a.Fits
	}
	pa, pb := countPods(a.Pending)+countPods(a.Blocked), countPods(b.Pending)+countPods(b.Blocked)
	if pa != pb {
		return pa > pb
	}
	return a.Evicted > b.Evicted
}

// upgradeRemedy finds settings with which the upgrade goes through: the smallest max surge, first with max
// unavailable 0 (every drained node replaced before it goes), then with the pool's max unavailable.
func (cl *cluster) upgradeRemedy(m *model, p int, order []int32, counts []int, bind []int32, seed uint64) string {
	cl.setMode(seed)
	surge, drain := m.pools[p].p.Upgrade.Batch(counts[p])
	name := m.pools[p].p.Name
	if drain > surge {
		for s := max(surge, 1); s <= surge+maxLossBump; s++ {
			r := cl.upgradePool(m, p, order, counts, bind, seed, s, 0)
			if !r.Checked {
				return remedyOutOfBudget
			}
			if r.Fits {
				return fmt.Sprintf(". With max unavailable 0 and a max surge of %d for pool %q, the upgrade goes through", s, name)
			}
		}
	}
	for s := surge + 1; s <= surge+maxLossBump; s++ {
		r := cl.upgradePool(m, p, order, counts, bind, seed, s, drain-surge)
		if !r.Checked {
			return remedyOutOfBudget
		}
		if r.Fits {
			return fmt.Sprintf(". With a max surge of %d for pool %q (%d more), the upgrade goes through", s, name, s-surge)
		}
	}
	return fmt.Sprintf(". Up to %d more surge nodes do not bind them: their volumes or placement rules keep them where no new node can run", maxLossBump)
}

// upgradePool replays the rolling upgrade of pool p on the steady placement (bind, in the arrival order
// order), surge nodes added and surge + unavailable old nodes drained per batch, and says how its first
// failing batch fails.
func (cl *cluster) upgradePool(m *model, p int, order []int32, counts []int, bind []int32, seed uint64, surge, unavailable int) DisruptionResult {
	cl.setMode(seed)
	pm := &m.pools[p]
	n := counts[p]
	drain := surge + unavailable
	// The grown cluster: pool p's n old nodes and n slots for the new ones; every other pool up to its
	// maximum, the nodes beyond its count added only when pods wait for them (the autoscaler).
	first := 0
	for q := range p {
		first += counts[q]
	}
	// The upgrade evicts at most the pods of pool p, and no pod needs more than a node of its own in its zone
	// (new nodes take the zones in turn): the other pools grow by at most that many nodes per zone, keeping
	// the replay's cluster small under a large maximum.
	podsHere := 0
	for _, id := range bind {
		if int(id) >= first && int(id) < first+n {
			podsHere++
		}
	}
	grown := slices.Clone(counts)
	for q := range counts {
		if q == p {
			grown[q] = 2 * n
		} else {
			grown[q] = max(counts[q], min(m.pools[q].p.MaxNodes, counts[q]+podsHere*max(1, m.pools[q].nz)))
		}
	}
	idOf, isNew := grownIDs(counts, grown)
	firstNew := int32(0)
	for q := range p {
		firstNew += int32(grown[q])
	}
	firstNew += int32(n)
	// The old nodes, busiest first (the largest share of the pool's workload allocatable requested).
	used := make([]vec, n)
	where := make([]int32, len(bind))
	for i, id := range bind {
		where[i] = -1
		if id >= 0 {
			where[i] = idOf[id]
			if k := int(id) - first; k >= 0 && k < n {
				used[k] = used[k].add(cl.classes[order[i]].c.req)
			}
		}
	}
	share := func(k int) float64 {
		s := 0.0
		for r := range nRes {
			if w := pm.walloc[r]; w > 0 {
				s = max(s, float64(used[k][r])/float64(w))
			}
		}
		return s
	}
	olds := make([]int, n)
	for k := range olds {
		olds[k] = k
	}
	slices.SortStableFunc(olds, func(a, b int) int { return cmp.Compare(share(b), share(a)) })
	// A budget counts the healthy pods of its workload, over the workload's classes together.
	wlOf := func(w int) int { return cl.classes[w].c.w }
	wlDesired := map[int]int{}
	for w := range cl.classes {
		wl := &m.in.Workloads[wlOf(w)]
		wlDesired[wlOf(w)] = wl.DisruptionBudget.DesiredHealthy(wl.Replicas)
	}
	gone := make([]bool, sumInts(grown))
	revived := make([]bool, len(gone))
	batches := (n + drain - 1) / drain
	evictedTotal := 0
	defer func() { cl.dead, cl.present, cl.pin = nil, nil, -1 }()
	r := DisruptionResult{Kind: DisruptNodeUpgrade, Checked: true, Pool: pm.p.Name}
	surgeText := Plural(surge, "surge node", "surge nodes")
	if surge == 0 {
		surgeText = "no surge node"
	}
	how := fmt.Sprintf("replacing the %s of %s, %d at a time with %s", Plural(n, "node", "nodes"), poolLabel(pm.p), min(drain, n), surgeText)
	for b := range batches {
		if cl.overDisruptionBudget() {
			return cl.unchecked(DisruptNodeUpgrade, order, counts)
		}
		draining := make([]bool, len(gone))
		var names []string
		for _, k := range olds[b*drain : min(n, (b+1)*drain)] {
			draining[idOf[first+k]] = true
			names = append(names, fmt.Sprint(k+1))
		}
		aliveNew := min(n, b*drain+surge)
		cl.reset(grown)
		cl.dead = resizeBool(cl.dead, len(cl.nodes))
		for id := range cl.nodes {
			nid := int32(id)
			cl.dead[id] = (isNew[id] && !revived[id]) || gone[id] || draining[id]
			if nid >= firstNew && nid < firstNew+int32(n) {
				cl.dead[id] = nid-firstNew >= int32(aliveNew)
			}
		}
		cl.setLive()
		// The draining nodes are cordoned, not gone: they stay in the API, and their pods count (topology
		// spread, inter-pod affinity) until each is evicted, one at a time (unplace).
		cl.present = make([]presence, len(cl.nodes))
		healthy := map[int]int{}
		var queue []int
		for i, id := range where {
			if id < 0 {
				continue
			}
			w := int(order[i])
			healthy[wlOf(w)]++
			if draining[id] {
				queue = append(queue, i)
				cl.present[id] = cordoned
			}
			cl.place(w, id)
		}
		cl.liveSpreadDomains()
		start := 0
		var pending []evictee
		evicted := 0
		try := func(e evictee) bool {
			w := int(order[e.i])
			cl.pin = e.pin
			id, next := cl.cycle(w, start, m.in.Scheduler)
			start = next
			if id < 0 {
				return false
			}
			cl.place(w, id)
			where[e.i] = id
			healthy[wlOf(w)]++
			return true
		}
		grew := false
		for {
			progress := false
			var still []evictee
			for _, e := range pending {
				if try(e) {
					progress = true
				} else {
					still = append(still, e)
				}
			}
			pending = still
			var refused []int
			for _, i := range queue {
				w := int(order[i])
				if healthy[wlOf(w)]-1 < wlDesired[wlOf(w)] {
					refused = append(refused, i)
					continue
				}
				progress = true
				evicted++
				healthy[wlOf(w)]--
				e := evictee{i, -1}
				if cl.classes[w].c.req[rVol] > 0 {
					e.pin = cl.nodes[where[i]].zone
				}
				cl.unplace(w, where[i]) // terminating: no longer counted
				where[i] = -1
				if !try(e) {
					pending = append(pending, e)
				}
			}
			queue = refused
			if !progress {
				if len(pending) > 0 && !grew {
					grew = true
					for id := range cl.nodes {
						if isNew[id] && int(cl.nodes[id].pool) != p && !gone[id] {
							cl.dead[id], revived[id] = false, true
						}
					}
					cl.setLive()
					cl.liveSpreadDomains()
					continue
				}
				break
			}
		}
		evictedTotal += evicted
		if len(queue) > 0 || len(pending) > 0 {
			blocked := make([]int, len(cl.classes))
			for _, i := range queue {
				blocked[order[i]]++
			}
			left := make([]int, len(cl.classes))
			for _, e := range pending {
				left[order[e.i]]++
			}
			r.Evicted = evictedTotal
			r.Pending, r.Blocked = cl.workloadCounts(m, left), cl.workloadCounts(m, blocked)
			r.Lost = fmt.Sprintf("batch %d of %d of %s (draining %s %s)", b+1, batches, poolLabel(pm.p), nodeWord(len(names)), strings.Join(names, ", "))
			r.Message = fmt.Sprintf("node_upgrade: %s: %s", how, cl.upgradeFailure(m, r, b+1, batches, names, queue, pending, order, healthy, wlDesired))
			return r
		}
		for id := range draining {
			if draining[id] {
				gone[id] = true
			}
		}
	}
	r.Fits, r.Evicted = true, evictedTotal
	r.Lost = fmt.Sprintf("every node of %s (%s)", poolLabel(pm.p), Plural(n, "node", "nodes"))
	r.Message = fmt.Sprintf("node_upgrade: %s (%s) evicts %s; each binds on the remaining, new and surge nodes, and no PodDisruptionBudget refuses an eviction for long",
		how, Plural(batches, "batch", "batches"), Plural(evictedTotal, "pod", "pods"))
	return r
}

// upgradeFailure says how a batch fails: the drains a PodDisruptionBudget blocks, and the evicted pods that
// bind nowhere, each with why and what to change.
func (cl *cluster) upgradeFailure(m *model, r DisruptionResult, b, batches int, names []string, queue []int, pending []evictee, order []int32,
	healthy, desired map[int]int) string {
	var parts []string
	parts = append(parts, fmt.Sprintf("batch %d of %d drains %s %s", b, batches, nodeWord(len(names)), strings.Join(names, ", ")))
	seen := map[int]bool{}
	for _, i := range queue {
		w := int(order[i])
		wi := cl.classes[w].c.w
		if seen[wi] {
			continue
		}
		seen[wi] = true
		wl := &m.in.Workloads[wi]
		budget := "PodDisruptionBudget"
		if wl.DisruptionBudget.Name != "" {
			budget = fmt.Sprintf("PodDisruptionBudget %q", wl.DisruptionBudget.Name)
		}
		n := 0
		for _, wc := range r.Blocked {
			if wc.Workload == wl.Name {
				n = wc.Pods
			}
		}
		if desired[wi] >= wl.Replicas {
			// More replicas help only a min_available count; a percentage or a max_unavailable of 0 keeps
			// every replica, however many.
			more := ""
			if mi := wl.DisruptionBudget.MinAvailable; mi != nil && !mi.Percent {
				more = " or run more replicas"
			}
			parts = append(parts, fmt.Sprintf("the drain blocks: the %s of workload %q (%s: %d of its %d replicas must stay healthy) allows no disruption even with every pod running, "+
				"so the eviction API refuses to evict its %s; let it allow one (min_available below %d, or max_unavailable of at least 1)%s",
				budget, wl.Name, wl.DisruptionBudget.Text(), desired[wi], wl.Replicas, Plural(n, "pod", "pods"), wl.Replicas, more))
			continue
		}
		parts = append(parts, fmt.Sprintf("the drain blocks: the %s of workload %q (%s: %d of its %d replicas must stay healthy) refuses to evict its %s while "+
			"its evicted pods have not bound elsewhere (%d healthy)", budget, wl.Name, wl.DisruptionBudget.Text(), desired[wi], wl.Replicas, Plural(n, "pod", "pods"), healthy[wi]))
	}
	if len(pending) > 0 {
		parts = append(parts, fmt.Sprintf("%s nowhere: %s (%s)", podsBind(countPods(r.Pending)), countsText(r.Pending),
			cl.pendingWhy(m, DisruptNodeUpgrade, lossCase{pool: -1, node: -1, zone: -1}, pending, order)))
	}
	return strings.Join(parts, "; ")
}

func nodeWord(n int) string {
	if n == 1 {
		return "node"
	}
	return "nodes"
}

// grownIDs maps the node ids of a cluster of counts to those of a grown cluster (reset lists the nodes pool
// by pool) and marks the grown cluster's nodes beyond counts.
func grownIDs(counts, grown []int) ([]int32, []bool) {
	idOf := make([]int32, sumInts(counts))
	isNew := make([]bool, sumInts(grown))
	b, g := 0, 0
	for p := range counts {
		for k := range grown[p] {
			if k < counts[p] {
				idOf[b+k] = int32(g + k)
			} else {
				isNew[g+k] = true
			}
		}
		b += counts[p]
		g += grown[p]
	}
	return idOf, isNew
}
