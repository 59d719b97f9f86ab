package sizing

import (
	"context"
	"strings"
	"testing"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
)

// TestSolveNoSpareNode: a pool filled to its maximum node count warns, at its maximum, what one node's loss
// would strand; the plan still fits.
func TestSolveNoSpareNode(t *testing.T) {
	// 3-CPU pods on m5.xlarge (4 vCPU, under 4 CPU allocatable): one per node, so 3 pods fill 3 nodes.
	req := Request{Pools: []Pool{{Name: "general", Cloud: catalog.AWS, InstanceTypes: []string{"m5.xlarge"}, MinNodes: 3, MaxNodes: 3}},
		Workloads: []Workload{{Name: "web", Replicas: intp(3), Requests: fit.Resources{CPUMillicores: 3000, MemoryBytes: 1 << 30}}}}
	plan, err := NewPlanner(EmbeddedCatalog()).Solve(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if !plan.Fits {
		t.Fatalf("does not fit: %+v", plan.Failures)
	}
	var found bool
	for _, w := range plan.Warnings {
		if w.Code == WarnNoSpareNode {
			found = true
			if w.Path.String() != `Pools["general"].MaxNodes` || !strings.Contains(w.Message, `1 pod of workload "web"`) {
				t.Errorf("warning %+v", w)
			}
		}
	}
	if !found || !strings.Contains(plan.Report, "No spare node (a warning)") {
		t.Errorf("no warning in %+v\n%s", plan.Warnings, plan.Report)
	}
	req.Pools[0].MaxNodes = 4
	if plan, err = NewPlanner(EmbeddedCatalog()).Solve(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	for _, w := range plan.Warnings {
		if w.Code == WarnNoSpareNode {
			t.Errorf("warning with a spare node: %+v", w)
		}
	}
}

// TestSolveAzureSpotTaint: an Azure spot pool's nodes carry AKS's spot taint, so pods that do not tolerate it
// go to the on-demand pool; with the toleration they may use the spot pool.
func TestSolveAzureSpotTaint(t *testing.T) {
	req := Request{Pools: []Pool{
		{Name: "spot", Cloud: catalog.Azure, InstanceTypes: []string{"Standard_D4s_v5"}, MaxNodes: 3, Weight: 100, CapacityType: fit.CapacitySpot},
		{Name: "regular", Cloud: catalog.Azure, InstanceTypes: []string{"Standard_D4s_v5"}, MaxNodes: 3}},
		Workloads: []Workload{{Name: "web", Replicas: intp(2), Requests: fit.Resources{CPUMillicores: 500, MemoryBytes: 1 << 30}}}}
	plan, err := NewPlanner(EmbeddedCatalog()).Solve(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if got := onPool(plan.Workloads[0].Steady, "spot"); got != 0 {
		t.Errorf("%d pods on the spot pool without the toleration", got)
	}
	req.Workloads[0].Tolerations = []fit.Toleration{{Key: AKSSpotLabel, Operator: fit.OperatorEqual, Value: AKSSpotValue, Effect: fit.EffectNoSchedule}}
	if plan, err = NewPlanner(EmbeddedCatalog()).Solve(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	if got := onPool(plan.Workloads[0].Steady, "spot"); got == 0 {
		t.Errorf("no pod on the spot pool with the toleration: %+v", plan.Workloads[0].Steady)
	}
}

func onPool(pl fit.Placement, pool string) int {
	for _, pp := range pl.Pools {
		if pp.Pool == pool {
			return pp.Pods
		}
	}
	return 0
}
