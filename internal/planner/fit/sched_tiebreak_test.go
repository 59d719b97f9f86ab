package fit

import (
	"container/heap"
	"math/rand/v2"
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
