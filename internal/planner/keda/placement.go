package keda

import (
	"fmt"
	"math"
	"math/bits"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/resource"
)

// groupLoad is one workload's pods on a node group at peak: count pods of req, and surge more during a rollout.
type groupLoad struct {
	name         string
	req          resource.List
	count, surge int64
}

// placement is what the scheduler model makes of a node group's peak: the nodes the pods need without
// (peak) and with (surge) the rollout's surge pods, and the best packing's count (optimal) for comparison.
type placement struct {
	// fits is false when a pod fits no empty node of the group; the counts are then 0.
	fits bool
	// atLeast is true when the per-resource totals alone need more than the group's maximum (boundBy names
	// the resource): peak and surge are then that lower bound, and no pod is placed one by one.
	atLeast              bool
	boundBy              string
	peak, surge, optimal int64
}

// maxPlacedPods bounds the pods of one node group the scheduler model places one by one.
const maxPlacedPods = fit.MaxPlanPods

// place runs the planner's placement model (fit: kube-scheduler's queue order, filters and scores under the
// check's profile and arrival order, the model sizing and node groups use) on one node group of at most
// g.MaxNodes identical nodes. A peak whose per-resource totals already need more than g.MaxNodes is answered by
// that lower bound at once, whatever its pod count; beyond maxPlacedPods pods within the bound, it is an error.
func place(g NodeGroupCapacity, loads []groupLoad, sched fit.SchedulerProfile, arrival fit.ArrivalOrder) (placement, error) {
	node := resource.List{CPUMillicores: g.WorkloadAllocatable.CPUMillicores, MemoryBytes: g.WorkloadAllocatable.MemoryBytes,
		EphemeralStorageBytes: g.WorkloadAllocatable.EphemeralBytes, Pods: g.WorkloadPods}
	var pods int64
	for _, l := range loads {
		if l.req.CPUMillicores > node.CPUMillicores || l.req.MemoryBytes > node.MemoryBytes ||
			l.req.EphemeralStorageBytes > node.EphemeralStorageBytes || node.Pods < 1 {
			return placement{}, nil
		}
		pods = satAdd(pods, satAdd(l.count, l.surge))
	}
	if lb, by := lowerBound(node, loads); lb > g.MaxNodes {
		return placement{fits: true, atLeast: true, boundBy: by, peak: lb, surge: lb}, nil
	}
	if pods > maxPlacedPods {
		return placement{}, fmt.Errorf("%s pods at peak on node group %q, with their surge: beyond the %s pods kubefit places on one node group; split the group or lower the peak",
			resource.Group(pods), g.Name, resource.Group(maxPlacedPods))
	}
	in := fit.Input{Scheduler: sched, Arrival: arrival, OmitNodes: true,
		// No node beyond one per pod is ever needed, so a group larger than that is planned at that size.
		Pools: []fit.Pool{{Name: g.Name, Allocatable: node, MaxNodes: int(min(g.MaxNodes, max(pods, 1))), Zones: g.Zones}}}
	for _, l := range loads {
		in.Workloads = append(in.Workloads, fit.Workload{Name: l.name, Replicas: int(l.count), MaxReplicas: int(l.count),
			MaxSurge: fit.IntOrPercent{Value: int(l.surge)}, Requests: l.req})
	}
	res, err := fit.Plan(in)
	if err != nil {
		return placement{}, err
	}
	steady, peak := res.Scenarios[0].Pools[0], res.Scenarios[1].Pools[0]
	return placement{fits: true, peak: int64(steady.NodesRequired), surge: int64(peak.NodesRequired), optimal: int64(steady.NodesOptimal)}, nil
}

// lowerBound is the nodes the loads' peak (without surge) needs by per-resource totals alone, and the resource
// that sets it; the sums saturate instead of overflowing.
func lowerBound(node resource.List, loads []groupLoad) (int64, string) {
	lb, by := int64(0), ""
	for _, r := range []resource.Name{resource.CPU, resource.Memory, resource.EphemeralStorage, resource.Pods} {
		alloc := node.Get(r)
		var need int64
		for _, l := range loads {
			per := l.req.Get(r)
			if r == resource.Pods {
				per = 1
			}
			need = satAdd(need, satMul(per, l.count))
		}
		if alloc > 0 && need > 0 {
			if n := resource.CeilDiv(need, alloc); n > lb {
				lb, by = n, string(r)
			}
		}
	}
	return lb, by
}

func satAdd(a, b int64) int64 {
	if s := a + b; s >= a {
		return s
	}
	return math.MaxInt64
}

// satMul returns a × b for a, b ≥ 0, or MaxInt64 when the product does not fit.
func satMul(a, b int64) int64 {
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	if hi != 0 || lo > math.MaxInt64 {
		return math.MaxInt64
	}
	return int64(lo)
}
