package fit

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
)

// Ties: which node a scheduling cycle takes among nodes of the highest total (kube-scheduler's heap over the
// feasible nodes in the order it found them), and how each run of the model draws that order.

// runMode is how a run of this seed breaks ties and retries waiting pods. The planned orders (seed below
// 1000) and their tie-break variants k = 4, 8, … (tieBreakVariants: seed + 1000·k) break ties at random
// over the nodes in creation order; the others as kube-scheduler does (heapRoot) on the nodes in an order
// of their names drawn from the seed (reset). Even k retry the waiting pods after the last pod; odd k
// retry a waiting pod delay pods after a binding that may let it in (retryWoken), delay 0, 1 or 2 as
// k/2 mod 3.
//
// The tie-break rule is exact but the order it works on is not known: the names, and the order in which
// the scheduler's parallel Filter (16 goroutines over chunks of the node list) finds the nodes feasible,
// which its heap takes them in. The odd k follow that order with 2 to 16 goroutines at once
// (filterWorkers, parallelRoot), the other heap runs the list's order (one at a time), and the random ties
// stand for a thoroughly shuffled order. The retry timing is
// not known either: kube-scheduler moves a pod it turned away back to its queues on the cluster events its
// rejecting plugins name (a pod of a matching workload bound), and pops it from the backoff queue as soon
// as the active queue is empty (SchedulerPopFromBackoffQ, on by default since v1.33): when pods arrive
// one at a time, it is retried right after the binding that woke it or a pod or two later, as the
// informer's events race; when many wait, later. The counts must hold for each.
func runMode(seed uint64) (randomTies, eager bool, delay int64) {
	k := seed / 1000
	return k%4 == 0 && k < staggerBase, k%2 == 1, int64(k/2) % 3
}

// staggerBase is the first k of the staggered variants (seed + 1000·k, k = staggerBase + 1, …): the scheduler's
// heap on the nodes in the order two goroutines of its parallel Filter find them, the second starting late
// (parallelRoot with cl.parStagger). Measured with the real kube-scheduler v1.37.2 on two cores
// (TestFirstPicks, 60 to 100 runs of the first three cycles of five inputs), a cycle took the list's heap root
// in 79 to 99 % of runs and otherwise the node the second goroutine's chunk finds first: the model's other modes
// take the root always (the list's order) or in only 20 to 50 % of cycles (two goroutines at once), so neither
// samples a rare early deviation followed by the list's order, which left a pod Pending in about 3 % of real
// runs of one input whose count every other mode had bound (seed 1038 of the oracle's three-pool sweep).
const staggerBase = 1 << 12

// staggerLag is the mean of the drawn delay, in filterTime units (512 + 0…1023 per node), before the second
// goroutine of a staggered run takes its first chunk: exponential, so that it finds the first feasible node
// before the first goroutine in a few cycles in a hundred, as the real scheduler's second goroutine did.
const staggerLag = 8 << 10

// filterWorkers is how many goroutines of the scheduler's parallel Filter run at once in the runs of this
// seed that break ties as the scheduler does (runMode): the tie-break variants k = 2, 6, 10, … one (a
// scheduler on one core, or a quiet machine: the node list's order), the odd ones 2, 4, 8 and 16 in turn
// (a scheduler on as many cores, or more: the Parallelizer starts 16).
func filterWorkers(seed uint64) int {
	k := seed / 1000
	if k > staggerBase {
		return 2
	}
	if k%2 == 0 {
		return 1
	}
	return 2 << ((k / 2) % 4)
}

// setMode sets the cluster's node order and tie-break for runs (and replays) of this seed (runMode).
func (cl *cluster) setMode(seed uint64) {
	cl.listSeed, cl.tieRNG, cl.parRNG, cl.parStagger = seed, nil, nil, seed/1000 > staggerBase
	if random, _, _ := runMode(seed); random {
		cl.tieRNG = rand.New(rand.NewPCG(seed, 0x74696573))
	} else if p := filterWorkers(seed); p > 1 {
		cl.parRNG, cl.parWorkers = rand.NewPCG(seed, 0x70617261), p
	}
}

// topTies returns the highest total and how many nodes have it.
func topTies(totals []int64) (int64, int) {
	top, ties := totals[0], 0
	for _, t := range totals {
		switch {
		case t > top:
			top, ties = t, 1
		case t == top:
			ties++
		}
	}
	return top, ties
}

// parallelRoot is heapRoot on the feasible nodes in the order the scheduler's parallel Filter finds them
// (schedule_one.go, findNodesThatPassFilters: every goroutine of Parallelizer().Until appends a node to the
// feasible list, atomic.AddInt32 on feasibleNodesLen, as soon as its Filter passes). The nodes the cycle
// filtered are cut into chunks of chunkSizeFor(listed, 16) (parallelize/parallelism.go) that the first of
// cl.parWorkers goroutines free takes in turn; each node's filtering takes a drawn time; the feasible nodes
// are listed in the order they finish. With one goroutine that is the node list's order (heapRoot's); the
// more run at once, the more the chunks interleave. Only the positions of the nodes of the highest total
// decide the root, so it is asked only when several have it.
func (cl *cluster) parallelRoot(feasible []int32, totals []int64, top int64) int32 {
	chunk := parallelChunk(cl.listed)
	if len(cl.parFree) < cl.parWorkers {
		cl.parFree = make([]int64, cl.parWorkers)
	}
	free := cl.parFree[:cl.parWorkers]
	clear(free)
	if cl.parStagger {
		// The second goroutine starts late (staggerBase): an exponential delay of mean staggerLag.
		u := float64(cl.parRNG.Uint64()>>11+1) / (1 << 53)
		free[1] = int64(-math.Log(u) * staggerLag)
	}
	done := resize(cl.parDone, cl.filtered)
	cl.parDone = done
	for c := 0; c*chunk < cl.filtered; c++ {
		k := 0
		for j := range free {
			if free[j] < free[k] {
				k = j
			}
		}
		t := free[k]
		for i := c * chunk; i < min((c+1)*chunk, cl.filtered); i++ {
			t += 512 + drawFilterTime(cl.parRNG)
			done[i] = t
		}
		free[k] = t
	}
	// Only which positions of the finishing order hold the top total matters to the heap's root: the rank of
	// each node of the top total among the feasible nodes, by finishing time and then by feasible index (a
	// stable sort's order), counted directly when few nodes share the top total, else by sorting them all.
	idx := cl.parIdx[:0]
	for i := range feasible {
		if totals[i] == top {
			idx = append(idx, int32(i))
		}
	}
	order := resize(cl.parOrder, len(feasible))
	cl.parOrder = order
	if len(idx) <= maxCountedTies {
		var ranks [maxCountedTies]int
		for k, i := range idx {
			di, rank := done[cl.feasPos[i]], 0
			for j := range feasible {
				if dj := done[cl.feasPos[j]]; dj < di || dj == di && j < int(i) {
					rank++
				}
			}
			order[rank], ranks[k] = 1, rank
		}
		r := heapRoot(order, cl.raw[4])
		cl.parIdx = idx
		for k, i := range idx {
			if ranks[k] == r {
				return feasible[i]
			}
		}
	}
	idx = idx[:0]
	for i := range feasible {
		idx = append(idx, int32(i))
	}
	cl.parIdx = idx
	slices.SortStableFunc(idx, func(a, b int32) int { return cmp.Compare(done[cl.feasPos[a]], done[cl.feasPos[b]]) })
	for r, i := range idx {
		if totals[i] == top {
			order[r] = 1
		} else {
			order[r] = 0
		}
	}
	return feasible[idx[heapRoot(order, cl.raw[4])]]
}

// maxCountedTies is how many nodes of the top total parallelRoot ranks by counting (each against every feasible
// node) rather than by sorting the feasible nodes.
const maxCountedTies = 16

// drawFilterTime draws how long one node's filtering takes beyond its least, 0 to 1023: rand.New(src).IntN(1024),
// which math/rand/v2 draws as Uint64 masked to a power of two (TestFilterTimeDraws), without the Rand's indirect
// call per node.
func drawFilterTime(src *rand.PCG) int64 {
	return int64(src.Uint64() & 1023)
}

// parallelChunk is the chunk size of the scheduler's Parallelizer over n pieces at its default parallelism,
// 16 (parallelize/parallelism.go: chunkSizeFor).
func parallelChunk(n int) int {
	s := int(math.Sqrt(float64(n)))
	if r := n/16 + 1; s > r {
		s = r
	} else if s < 1 {
		s = 1
	}
	return s
}

// heapRoot returns the index of the node the scheduler takes among nodes of these totals, listed as it
// found them feasible: the root of the max-heap container/heap.Init builds on the list
// (framework/sorted_nodes.go), whose Less compares the totals and then the nodes' Randomizer, which
// prioritizeNodes sets only when extenders score (schedule_one.go), so without extenders ties are not
// broken at random but by the heap's structure. heap.Init sifts each element down from the last parent
// to the root, swapping it with its greater child (the left one unless the right is strictly greater)
// while that child is strictly greater; so the root of a subtree ends up its own element when that is the
// subtree's maximum, else the root of its left subtree unless the right subtree's maximum is strictly
// greater. sub is scratch of at least len(totals) elements.
func heapRoot(totals, sub []int64) int {
	n := len(totals)
	sub = sub[:n]
	for i := n - 1; i >= 0; i-- {
		m := totals[i]
		if l := 2*i + 1; l < n {
			m = max(m, sub[l])
			if l+1 < n {
				m = max(m, sub[l+1])
			}
		}
		sub[i] = m
	}
	i := 0
	for totals[i] != sub[i] {
		l := 2*i + 1
		if l+1 < n && sub[l+1] > sub[l] {
			i = l + 1
		} else {
			i = l
		}
	}
	return i
}
