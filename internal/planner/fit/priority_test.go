package fit

import (
	"slices"
	"strings"
	"testing"
)

// TestPriorityOrders: with pods of different priorities, every rollout order is planned again as the
// queue releases pods waiting together (highest priority first, creation order within a priority); with
// one priority, or a staged order, the orders are unchanged.
func TestPriorityOrders(t *testing.T) {
	pool := Pool{Name: "general", Allocatable: Resources{CPUMillicores: 4000, MemoryBytes: 16 << 30, Pods: 110}, MaxNodes: 10}
	in := Input{Pools: []Pool{pool}, Workloads: []Workload{
		{Name: "batch", Replicas: 5, MaxReplicas: 5, Requests: Resources{CPUMillicores: 500}},
		{Name: "api", Replicas: 3, MaxReplicas: 3, Requests: Resources{CPUMillicores: 500}, Priority: 1000},
		{Name: "web", Replicas: 4, MaxReplicas: 4, Requests: Resources{CPUMillicores: 500}, Priority: 10},
	}}
	orders, err := Orders(in, ScenarioSteady)
	if err != nil {
		t.Fatal(err)
	}
	if len(orders) != 2*(1+len(rolloutSeeds)) {
		t.Fatalf("%d orders, want the %d rollout orders and as many sorted by priority", len(orders), 1+len(rolloutSeeds))
	}
	half := len(orders) / 2
	for i, o := range orders[half:] {
		base := orders[i]
		if !strings.HasPrefix(o.Name, base.Name) || !strings.Contains(o.Name, "higher priorities first") {
			t.Errorf("order %q does not name its creation order %q", o.Name, base.Name)
		}
		prio := func(w int) int32 { return in.Workloads[w].Priority }
		if !slices.IsSortedFunc(o.Pods, func(a, b int) int { return int(prio(b)) - int(prio(a)) }) {
			t.Errorf("order %q is not highest priority first: %v", o.Name, o.Pods)
		}
		// Within a priority the creation order is kept.
		for w := range in.Workloads {
			var a, b []int
			for k, x := range base.Pods {
				if x == w {
					a = append(a, k)
				}
			}
			for k, x := range o.Pods {
				if x == w {
					b = append(b, k)
				}
			}
			if len(a) != len(b) {
				t.Errorf("order %q has %d pods of workload %d, its creation order %d", o.Name, len(b), w, len(a))
			}
		}
	}
	for i := range in.Workloads {
		in.Workloads[i].Priority = 7
	}
	if orders, _ := Orders(in, ScenarioSteady); len(orders) != 1+len(rolloutSeeds) {
		t.Errorf("one priority: %d orders, want %d", len(orders), 1+len(rolloutSeeds))
	}
	in.Workloads[1].Priority = 1000
	in.Arrival = ArrivalInOrder
	if orders, _ := Orders(in, ScenarioSteady); len(orders) != 1 {
		t.Errorf("in-order arrival: %d orders, want 1", len(orders))
	}
}

// TestPreemptionReported: a high-priority pod left Pending on a pool at its maximum, whose nodes are full of
// lower-priority pods, is reported with the pods kube-scheduler would preempt for it, and still fails: the
// plan does not count on preemption.
func TestPreemptionReported(t *testing.T) {
	pool := Pool{Name: "general", Allocatable: Resources{CPUMillicores: 4000, MemoryBytes: 16 << 30, Pods: 110}, MaxNodes: 2}
	in := Input{Pools: []Pool{pool}, Arrival: ArrivalInOrder, Workloads: []Workload{
		{Name: "batch", Replicas: 4, MaxReplicas: 4, Requests: Resources{CPUMillicores: 1800}},
		{Name: "api", Replicas: 1, MaxReplicas: 1, Requests: Resources{CPUMillicores: 1000}, Priority: 1000},
	}}
	res, err := Plan(in)
	if err != nil {
		t.Fatal(err)
	}
	if res.Fits {
		t.Fatal("fits; want api Pending on 2 nodes full of batch")
	}
	var msg string
	for _, f := range res.Failures {
		if f.Workload == "api" && f.Scenario == ScenarioSteady {
			msg = f.Message
		}
	}
	if !strings.Contains(msg, `On 2 of 2 nodes, kube-scheduler would preempt lower-priority pods (of workload "batch")`) ||
		!strings.Contains(msg, "does not count on that") {
		t.Errorf("api's failure does not report the preemption: %q", msg)
	}
	// Of equal priority, nothing would be preempted.
	in.Workloads[1].Priority = 0
	res, _ = Plan(in)
	for _, f := range res.Failures {
		if strings.Contains(f.Message, "preempt") {
			t.Errorf("equal priorities, yet: %s", f.Message)
		}
	}
}
