package keda

import (
	"fmt"
	"strings"
	"testing"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/resource"
)

// budgetCheck is n ScaledObjects of 5 pods of 2,100m on one group of 3,920m nodes with at most maxNodes nodes
// (each node holds one pod).
func budgetCheck(n int, maxNodes int64) Check {
	in := Check{NodeGroups: []NodeGroupCapacity{{Name: "g", MaxNodes: maxNodes, WorkloadAllocatable: Allocatable{CPUMillicores: 3920, MemoryBytes: 14 << 30},
		WorkloadPods: 58, Zones: []string{"a", "b", "c"}}}}
	for i := range n {
		in.ScaledObjects = append(in.ScaledObjects, Summary{Namespace: "shop", Name: fmt.Sprint("a", i), TargetName: fmt.Sprint("a", i),
			PeakReplicas: 5, PodRequests: &resource.List{CPUMillicores: 2100, MemoryBytes: 100 << 20, Pods: 1}, NodeGroup: "g"})
	}
	return in
}

// TestPlaceBudget: the placements of one check share the scheduler model's work budget; the groups placed once
// it is spent are placed by the best packing alone, which KCAP-W5 and the failure's text say.
func TestPlaceBudget(t *testing.T) {
	in := budgetCheck(3, 100)
	res, err := CheckAll(in)
	if err != nil || len(res.Warnings) != 0 {
		t.Fatalf("within the budget: %v %+v", err, res.Warnings)
	}
	saved := placeBudget
	placeBudget = 0
	defer func() { placeBudget = saved }()
	res, err = CheckAll(in)
	if err != nil || len(res.Warnings) != 1 || res.Warnings[0].Code != "KCAP-W5" || !strings.Contains(res.Warnings[0].Message, `node group "g" was placed by the best packing alone`) {
		t.Fatalf("out of budget the group is packed, with KCAP-W5: %v %+v", err, res.Warnings)
	}
	_, err = CheckAll(budgetCheck(3, 10))
	if err == nil || !strings.Contains(err.Error(), "the best packing needs 15 nodes, and any scheduler binds them on 15 (KCAP-W5: the scheduler model was not run") {
		t.Fatalf("a group that does not hold its peak says it was packed: %v", err)
	}
	// Packed, a group holds its peak only on as many nodes as any scheduler needs to bind it: 5 pods of 900m and
	// 10 of 600m pack on 3 nodes of 3,920m, but a scheduler can leave a 900m pod no room on 3 (the any-fit
	// bound is 4).
	small := budgetCheck(3, 3)
	for i := range small.ScaledObjects {
		small.ScaledObjects[i].PodRequests.CPUMillicores = 600
	}
	small.ScaledObjects[0].PodRequests.CPUMillicores = 900
	bound := fit.AnyFitNodes(fit.Resources{CPUMillicores: 3920, MemoryBytes: 14 << 30, Pods: 58}, []fit.PodGroup{
		{Requests: fit.Resources{CPUMillicores: 900, MemoryBytes: 100 << 20, Pods: 1}, Count: 5},
		{Requests: fit.Resources{CPUMillicores: 600, MemoryBytes: 100 << 20, Pods: 1}, Count: 10}})
	want := fmt.Sprintf("the best packing needs 3 nodes, and any scheduler binds them on %d (KCAP-W5", bound)
	if _, err = CheckAll(small); bound <= 3 || err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("packed, the group must not hold the peak on fewer nodes than the any-fit bound %d: want %q in %v", bound, want, err)
	}
}

// TestRemedyBudget: the remedies' tries of one check share a work budget; the autoscalers left say they were
// not searched for.
func TestRemedyBudget(t *testing.T) {
	in := budgetCheck(3, 11) // 15 pods, one a node: each may keep 1 replica, the others unchanged
	_, err := CheckAll(in)
	if err == nil || !strings.Contains(err.Error(), "the largest safe maxReplicaCount of") {
		t.Fatalf("within the budget the remedies name the largest safe maximums: %v", err)
	}
	saved := remedyBudget
	remedyBudget = 0
	defer func() { remedyBudget = saved }()
	_, err = CheckAll(in)
	if err == nil || strings.Contains(err.Error(), "the largest safe maxReplicaCount of") ||
		!strings.Contains(err.Error(), "the largest safe maximum of the 3 autoscalers left was not searched for") {
		t.Fatalf("out of budget the remedies say they were not searched for: %v", err)
	}
}

// BenchmarkCheckAllTenGroups5000 is a capacity check of ten node groups, each holding one ScaledObject of 5,000
// pods: the groups share the scheduler model's work budget (placeBudget); their pods are alike, so each is placed
// by one run of the model without a node-count search (fit's anyFitCounts) and all fit the budget (before that,
// the later ones were packed, KCAP-W5; 21 s before the shared budget, issue 21).
func BenchmarkCheckAllTenGroups5000(b *testing.B) {
	var in Check
	for i := range 10 {
		g := fmt.Sprint("g", i)
		in.ScaledObjects = append(in.ScaledObjects, Summary{Namespace: "shop", Name: fmt.Sprint("a", i), TargetName: fmt.Sprint("a", i), PeakReplicas: 5000,
			PodRequests: &resource.List{CPUMillicores: 100, MemoryBytes: 100 << 20, Pods: 1}, NodeGroup: g})
		in.NodeGroups = append(in.NodeGroups, NodeGroupCapacity{Name: g, MaxNodes: 100000, WorkloadAllocatable: Allocatable{CPUMillicores: 3920, MemoryBytes: 14 << 30},
			WorkloadPods: 58, Zones: []string{"a", "b", "c"}})
	}
	for b.Loop() {
		if _, err := CheckAll(in); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCheckAllRemedies2000 is a capacity check of 2,000 ScaledObjects of 5 pods on one node group that
// holds 6,000 of their 10,000 pods: the remedies (a bisection per ScaledObject) stop at their work budget
// (remedyBudget); it ran for minutes before (issue 21).
func BenchmarkCheckAllRemedies2000(b *testing.B) {
	in := budgetCheck(2000, 6000)
	for b.Loop() {
		_, _ = CheckAll(in)
	}
}

// TestRemedyBudgetZoneRule: when the group holds neither its peak (KCAP-E2) nor its smallest zone's share (KCAP-E3)
// and the work budget stops the remedies' search, each rule counts the autoscalers it would have searched: E2 all
// three, E3 only the one with a zonal spread (it counted all three when it took E2's list).
func TestRemedyBudgetZoneRule(t *testing.T) {
	in := budgetCheck(3, 4)
	in.ScaledObjects[0].PeakReplicas = 12
	in.ScaledObjects[0].ZonalSpread = []SpreadConstraint{{TopologyKey: ZoneKey, MaxSkew: 1, WhenUnsatisfiable: "DoNotSchedule"}}
	saved := remedyBudget
	remedyBudget = 0
	defer func() { remedyBudget = saved }()
	_, err := CheckAll(in)
	var e2, e3 string
	for _, e := range field.As(err) {
		switch {
		case strings.Contains(e.Detail, "KCAP-E2"):
			e2 = e.Detail
		case strings.Contains(e.Detail, "KCAP-E3"):
			e3 = e.Detail
		}
	}
	if !strings.Contains(e2, "the largest safe maximum of the 3 autoscalers left was not searched for") {
		t.Errorf("KCAP-E2 %q: want the 3 autoscalers left named", e2)
	}
	if !strings.Contains(e3, "the largest safe maximum of the 1 autoscalers left was not searched for") || strings.Contains(e3, "of the 3 autoscalers") {
		t.Errorf("KCAP-E3 %q: want only the 1 autoscaler with a zonal spread named", e3)
	}
}
