package fit

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
)

// arrival is one order in which a scenario's pods reach the scheduling queue: class indexes, one per
// pod. The queue (PrioritySort) keeps their creation order among pods of one priority.
type arrival struct {
	name string
	pods []int32
	seed uint64 // the seed of this order's tie-breaks and retry timing (runMode)
}

// rolloutSeeds are the seeds of the random orders of ArrivalRollout.
var rolloutSeeds = []uint64{1, 2, 3}

// arrivals returns the orders planned for the classes (only pods that some pool may take) of the
// workloads.
func arrivals(classes []classSim, order ArrivalOrder, workloads []Workload) []arrival {
	switch order {
	case ArrivalInOrder:
		return []arrival{{name: "workloads in input order", pods: inOrder(classes, nil), seed: 1}}
	case ArrivalLargestFirst:
		return []arrival{{name: "largest pods first", pods: largestFirst(classes), seed: 1}}
	}
	out := []arrival{{name: "replicas of all workloads interleaved", pods: interleaved(classes), seed: 1}}
	for _, seed := range rolloutSeeds {
		pods := inOrder(classes, nil)
		rng := rand.New(rand.NewPCG(seed, 0x6b756265666974))
		rng.Shuffle(len(pods), func(i, j int) { pods[i], pods[j] = pods[j], pods[i] })
		out = append(out, arrival{name: fmt.Sprintf("random order #%d", seed), pods: pods, seed: seed + 1})
	}
	return append(out, byPriority(out, classes, workloads)...)
}

// byPriority returns, when the pods' priorities differ, every rollout order again as the scheduling
// queue releases it when its pods wait there together: highest priority first, in creation order within
// a priority (PrioritySort: pkg/scheduler/framework/plugins/queuesort/priority_sort.go at v1.37). A
// large rollout creates pods faster than they bind, so both the creation orders and these occur.
func byPriority(orders []arrival, classes []classSim, workloads []Workload) []arrival {
	prio := func(w int32) int32 { return workloads[classes[w].w].Priority }
	mixed := false
	for _, w := range orders[0].pods {
		mixed = mixed || prio(w) != prio(orders[0].pods[0])
	}
	if !mixed {
		return nil
	}
	out := make([]arrival, len(orders))
	for i, o := range orders {
		pods := slices.Clone(o.pods)
		slices.SortStableFunc(pods, func(a, b int32) int { return cmp.Compare(prio(b), prio(a)) })
		out[i] = arrival{name: o.name + ", the queue taking higher priorities first", pods: pods, seed: o.seed + 500}
	}
	return out
}

func placeable(c *classSim) bool { return c.n > 0 && len(c.pools) > 0 }

// inOrder lists the pods workload after workload, in the given class order (input order when nil).
func inOrder(classes []classSim, order []int) []int32 {
	if order == nil {
		order = make([]int, len(classes))
		for i := range order {
			order[i] = i
		}
	}
	var pods []int32
	for _, w := range order {
		if c := &classes[w]; placeable(c) {
			for range c.n {
				pods = append(pods, int32(w))
			}
		}
	}
	return pods
}

// largestFirst lists the pods by decreasing largest share of the preferred pool's workload
// allocatable (the packer's fit.ffd-max-share order).
func largestFirst(classes []classSim) []int32 {
	order := make([]int, len(classes))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return byMaxShare(&classes[a], &classes[b]) })
	return inOrder(classes, order)
}

// interleaved lists the replicas of all workloads interleaved in proportion: pod k of a workload of
// n pods comes at (k + ½) / n of the way, earlier workloads first on a tie.
func interleaved(classes []classSim) []int32 {
	type pod struct{ w, k, n int64 }
	var pods []pod
	for w := range classes {
		if c := &classes[w]; placeable(c) {
			for k := range c.n {
				pods = append(pods, pod{int64(w), int64(k), int64(c.n)})
			}
		}
	}
	slices.SortFunc(pods, func(a, b pod) int {
		return cmp.Or(cmp.Compare((2*a.k+1)*b.n, (2*b.k+1)*a.n), cmp.Compare(a.w, b.w))
	})
	out := make([]int32, len(pods))
	for i, p := range pods {
		out[i] = int32(p.w)
	}
	return out
}
