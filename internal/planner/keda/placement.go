package keda

import (
	"fmt"
	"math"
	"math/bits"
	"slices"

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
	// packed is true when the check's model budget (placeBudget) had run out: the counts are the planner's for a
	// scenario it does not model (fit.Input.Unmodelled: the any-fit bound).
	packed bool
}

// placeBudget bounds the scheduler model's work (fit.ScenarioResult.ModelWork) over the placements of one
// check: every node group is placed at peak, and a group that does not hold it again for each remedy tried
// (a bisection per autoscaler), so ten groups of 5,000 pods took 21 s and the bound of 2,000 ran for hours.
// About three seconds here. Once it is spent the groups left are placed without the model (fast: fit.Input.Unmodelled,
// the any-fit bound), and KCAP-W5 names them. A variable so that tests can exhaust it.
var placeBudget int64 = 120_000_000

// remedyBudget bounds the work of the remedies of one check (groupRemedies: a bisection per autoscaler of a
// group that does not hold its peak, each try a placement of the whole group): 2,000 autoscalers on one such
// group ran for minutes. A try counts its pods plus remedyClassWork per autoscaler (the packer's work grows
// with both), about a microsecond each by the best packing alone, so this is about a second; the remedies
// left then say they were not searched for. A variable so that tests can exhaust it.
var remedyBudget int64 = 1_000_000

// remedyClassWork is what one autoscaler of a group adds to a remedy try's work (remedyBudget).
const remedyClassWork = 200

// modelBudget is what is left of placeBudget and remedyBudget in one check, and the node groups placed without
// the model.
type modelBudget struct {
	left       int64
	remedyPods int64
	packed     []string
}

// maxPlacedPods bounds the pods of one node group the scheduler model places one by one.
const maxPlacedPods = fit.MaxPlanPods

// place runs the planner's placement model (fit: kube-scheduler's queue order, filters and scores under the
// check's profile and arrival order, the model sizing and node groups use) on one node group of at most
// g.MaxNodes identical nodes. A peak whose per-resource totals already need more than g.MaxNodes is answered by
// that lower bound at once, whatever its pod count; beyond maxPlacedPods pods within the bound, it is an error.
func place(g NodeGroupCapacity, loads []groupLoad, check Check) (placement, error) {
	sched, arrival := check.Scheduler, check.Arrival
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
	b := check.budget
	if b != nil && b.left <= 0 {
		in.Unmodelled = true
		if !slices.Contains(b.packed, g.Name) {
			b.packed = append(b.packed, g.Name)
		}
	}
	res, err := fit.Plan(in)
	if err != nil {
		return placement{}, err
	}
	if b != nil {
		for _, sc := range res.Scenarios {
			b.left -= sc.ModelWork
		}
	}
	steady, peak := res.Scenarios[0].Pools[0], res.Scenarios[1].Pools[0]
	return placement{fits: true, peak: int64(steady.NodesRequired), surge: int64(peak.NodesRequired), optimal: int64(steady.NodesOptimal),
		packed: in.Unmodelled}, nil
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
