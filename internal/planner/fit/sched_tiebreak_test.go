package fit

import (
	"container/heap"
	"math/rand/v2"
	"sort"
	"testing"
)

// scoredHeap is kube-scheduler's nodeScoreHeap (framework/sorted_nodes.go at v1.37) with every Randomizer
// 0, as prioritizeNodes leaves it without extenders: a max-heap on the totals, holding the nodes' indexes.
type scoredHeap struct{ idx, total []int64 }

func (h *scoredHeap) Len() int           { return len(h.idx) }
func (h *scoredHeap) Less(i, j int) bool { return h.total[i] > h.total[j] }
func (h *scoredHeap) Swap(i, j int) {
	h.idx[i], h.idx[j] = h.idx[j], h.idx[i]
	h.total[i], h.total[j] = h.total[j], h.total[i]
}
func (h *scoredHeap) Push(any) { panic("unused") }
func (h *scoredHeap) Pop() any { panic("unused") }

// TestHeapRoot: heapRoot picks the node kube-scheduler's heap.Init puts at the root (the node Pop
// returns), on lists of 1 to 300 totals drawn from few values, so ties abound.
func TestHeapRoot(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 20000 {
		n := 1 + rng.IntN(300)
		values := 1 + rng.IntN(4)
		totals := make([]int64, n)
		h := &scoredHeap{idx: make([]int64, n), total: make([]int64, n)}
		for i := range totals {
			totals[i] = int64(rng.IntN(values))
			h.idx[i], h.total[i] = int64(i), totals[i]
		}
		heap.Init(h)
		if got := heapRoot(totals, make([]int64, n)); int64(got) != h.idx[0] {
			t.Fatalf("trial %d: totals %v: heapRoot %d, heap.Init's root %d", trial, totals, got, h.idx[0])
		}
	}
}

// TestParallelRoot: parallelRoot picks the root heap.Init builds on the feasible nodes in the order of their
// drawn finishing times (its own reordering checked against container/heap); with one goroutine that is the
// list's order, heapRoot's pick; with 16 it sometimes is not; and chunks follow chunkSizeFor (92 nodes: 6).
func TestParallelRoot(t *testing.T) {
	if parallelChunk(92) != 6 || parallelChunk(5000) != 70 || parallelChunk(1) != 1 {
		t.Fatalf("chunks %d %d %d, want 6 70 1", parallelChunk(92), parallelChunk(5000), parallelChunk(1))
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for _, workers := range []int{1, 16} {
		cl := &cluster{parRNG: rand.NewPCG(5, 6), parWorkers: workers}
		counted, sorted := 0, 0
		cl.raw[4] = make([]int64, 200) // scores() sizes it in a cycle
		off := 0
		for trial := range 2000 {
			n := 2 + rng.IntN(120)
			var feasible []int32
			var totals []int64
			cl.feasPos = cl.feasPos[:0]
			for i := range n {
				if rng.IntN(3) > 0 {
					feasible = append(feasible, int32(1000+i))
					cl.feasPos = append(cl.feasPos, int32(i))
					totals = append(totals, int64(rng.IntN(3+27*(trial%2))))
				}
			}
			if len(feasible) < 2 {
				continue
			}
			cl.filtered, cl.listed = n, n
			top, ties := topTies(totals)
			if ties < 2 {
				continue
			}
			got := cl.parallelRoot(feasible, totals, top)
			if ties <= maxCountedTies {
				counted++
			} else {
				sorted++
			}
			// container/heap on the feasible nodes in the order of the finishing times parallelRoot drew (a
			// stable sort), whole totals.
			order := make([]int, len(feasible))
			for i := range order {
				order[i] = i
			}
			sort.SliceStable(order, func(a, b int) bool { return cl.parDone[cl.feasPos[order[a]]] < cl.parDone[cl.feasPos[order[b]]] })
			h := &scoredHeap{}
			for _, i := range order {
				h.idx, h.total = append(h.idx, int64(feasible[i])), append(h.total, totals[i])
			}
			heap.Init(h)
			if int64(got) != h.idx[0] {
				t.Fatalf("workers %d, trial %d: parallelRoot %d, heap.Init's root %d", workers, trial, got, h.idx[0])
			}
			if got != feasible[heapRoot(totals, make([]int64, len(totals)))] {
				off++
			}
		}
		if (workers == 1) != (off == 0) {
			t.Errorf("%d goroutines: %d picks off the list's heap root", workers, off)
		}
		if counted < 100 || sorted < 100 {
			t.Errorf("%d goroutines: %d ties ranked by counting, %d by sorting: both should be exercised", workers, counted, sorted)
		}
	}
}

// TestFilterTimeDraws: drawFilterTime draws what rand.New(src).IntN(1024) draws from the same source, draw for
// draw, so the runs that follow the parallel Filter's timing place pods as they did with the Rand.
func TestFilterTimeDraws(t *testing.T) {
	a, b := rand.New(rand.NewPCG(7, 0x70617261)), rand.NewPCG(7, 0x70617261)
	for i := range 100_000 {
		if x, y := int64(a.IntN(1024)), drawFilterTime(b); x != y {
			t.Fatalf("draw %d: Rand.IntN %d, drawFilterTime %d", i, x, y)
		}
	}
}

// TestStaggeredTies: the staggered variants (staggerBase) take the list's heap root in most first cycles and
// another node in a few, as the real kube-scheduler on two cores did (TestFirstPicks: 79 to 99 % the root), where
// two goroutines starting together take the root far less often, and the list's order always.
func TestStaggeredTies(t *testing.T) {
	in := Input{Pools: []Pool{pool("general", 7900, 30000, 0, 100)}, Workloads: []Workload{wl("app", 40, 500, 1000)}}
	in.Pools[0].Zones = []string{"zone-a", "zone-b", "zone-c"}
	orders, err := Orders(in, ScenarioSteady)
	if err != nil {
		t.Fatal(err)
	}
	counts := []int{24}
	var names []NodeRef
	for i := range counts[0] {
		names = append(names, NodeRef{Pool: 0, Index: i})
	}
	rootOf := func(k uint64) float64 {
		root := 0
		const runs = 300
		for s := range uint64(runs) {
			o := orders[0]
			o.Seed, o.Nodes = o.Seed+1000*(k+8*s), names
			refs, err := Place(in, ScenarioSteady, counts, o)
			if err != nil {
				t.Fatal(err)
			}
			if refs[0].Index == 0 {
				root++
			}
		}
		return float64(root) / runs
	}
	list, pair, staggered := rootOf(2), rootOf(1), rootOf(staggerBase+1)
	if list != 1 || staggered < 0.7 || staggered > 0.995 || pair > staggered-0.2 {
		t.Fatalf("the first pod took the heap root in %.0f %% of runs in the list's order (want 100), %.0f %% with two "+
			"goroutines at once and %.0f %% staggered (want 70 to 99.5, and 20 points above two at once)", 100*list, 100*pair, 100*staggered)
	}
	t.Logf("heap root taken: list order %.0f %%, two goroutines at once %.0f %%, staggered %.0f %%", 100*list, 100*pair, 100*staggered)
}
