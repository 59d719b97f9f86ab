package nodegroup

import (
	"context"
	"strings"
	"testing"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/overhead"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/sizing"
)

func hasCode(ws []field.Warning, code string) bool {
	for _, w := range ws {
		if w.Code == code {
			return true
		}
	}
	return false
}

// TestKarpenterBudget: the Karpenter provisioning model stops at its work budget, and the NodePool's limits
// then cover the group's max size only, with WarnKarpenterUnmodelled naming the budget.
func TestKarpenterBudget(t *testing.T) {
	p := sizing.NewPlanner(sizing.EmbeddedCatalog())
	r, err := Size(context.Background(), p, phpGroup(nil))
	if err != nil || r.Karpenter.Unmodelled != "" || r.Karpenter.NodeClaims == 0 {
		t.Fatalf("within the budget the model runs: %v %+v", err, r.Karpenter)
	}
	saved := karpenterBudget
	karpenterBudget = 10
	defer func() { karpenterBudget = saved }()
	req := phpGroup(nil)
	req.Pool.Overhead.EKS.Kind = overhead.Karpenter
	r, err = Size(context.Background(), p, req)
	if err != nil || !strings.Contains(r.Karpenter.Unmodelled, "within its work budget") || r.Karpenter.LimitNodes != r.MaxSize ||
		!hasCode(r.Warnings, WarnKarpenterUnmodelled) {
		t.Fatalf("out of budget the limits must cover the max size, with a warning: %v %+v %+v", err, r.Karpenter, r.Warnings)
	}
}

// TestLargestFitBudget: the searches for the largest count that fits share a work budget; a workload left
// without one keeps LargestFit -1 and WarnLargestFitBudget says so.
func TestLargestFitBudget(t *testing.T) {
	p := sizing.NewPlanner(sizing.EmbeddedCatalog())
	r, err := Size(context.Background(), p, phpGroup(intp(20)))
	if err != nil || len(r.Failures) == 0 || r.Failures[0].LargestFit != 20 || hasCode(r.Warnings, WarnLargestFitBudget) {
		t.Fatalf("within the budget the largest fit is 20: %v %+v", err, r.Failures)
	}
	saved := largestFitBudget
	largestFitBudget = 0
	defer func() { largestFitBudget = saved }()
	r, err = Size(context.Background(), p, phpGroup(intp(20)))
	if err != nil || len(r.Failures) == 0 || r.Failures[0].LargestFit != -1 || !hasCode(r.Warnings, WarnLargestFitBudget) {
		t.Fatalf("out of budget the largest fit is not searched for, with a warning: %v %+v %+v", err, r.Failures, r.Warnings)
	}
}

// TestOthersMisfit: a workload blamed on a group that does not fit even without its pods (another workload needs
// more nodes on its own) gets no largest count, but OthersMisfit: "the largest count that fits is 0" read as if
// zero replicas of it were the remedy.
func TestOthersMisfit(t *testing.T) {
	p := sizing.NewPlanner(sizing.EmbeddedCatalog())
	req := Request{Pool: sizing.Pool{Name: "web", Cloud: catalog.AWS, InstanceTypes: []string{"m5.large"}}, MinSize: intp(3), MaxSize: intp(3),
		Workloads: []sizing.Workload{
			{Name: "api", MinReplicas: intp(3), MaxReplicas: intp(9), MaxSurge: fit.IntOrPercent{Value: 25, Percent: true},
				Requests: fit.Resources{CPUMillicores: 500, MemoryBytes: 256 << 20}},
			{Name: "worker", Replicas: intp(4), Requests: fit.Resources{CPUMillicores: 1000, MemoryBytes: 512 << 20}},
		}}
	r, err := Size(context.Background(), p, req)
	if err != nil || r.Fits || len(r.Failures) == 0 {
		t.Fatalf("4 workers of 1 CPU on 3 m5.large must not fit: %v %+v", err, r.Failures)
	}
	api := 0
	for _, f := range r.Failures {
		if f.Workload != "api" {
			continue
		}
		api++
		if !f.OthersMisfit || f.LargestFit != -1 {
			t.Errorf("api: largest fit %d, others misfit %v; want -1 and true", f.LargestFit, f.OthersMisfit)
		}
	}
	if api == 0 {
		t.Fatalf("no failure blames api (the first in list order): %+v", r.Failures)
	}
}

// TestSpareCheckBudget: a group without a spare node is planned again to say what a node's loss strands only
// when its plan's work is within spareCheckBudget; beyond it the warning says the loss was not checked.
func TestSpareCheckBudget(t *testing.T) {
	three := 3
	req := Request{Pool: sizing.Pool{Name: "web", Cloud: catalog.AWS, InstanceTypes: []string{"m5.xlarge"}},
		Workloads: []sizing.Workload{{Name: "web", Replicas: &three, Requests: fit.Resources{CPUMillicores: 3000, MemoryBytes: 1 << 30}}}}
	saved := spareCheckBudget
	spareCheckBudget = -1
	defer func() { spareCheckBudget = saved }()
	r, err := Size(context.Background(), sizing.NewPlanner(sizing.EmbeddedCatalog()), req)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range r.Warnings {
		if w.Code == sizing.WarnNoSpareNode && strings.Contains(w.Message, "was not checked") && w.Path.String() == "MaxNodes" {
			return
		}
	}
	t.Fatalf("out of budget the spare node's loss must be said not checked: %+v", r.Warnings)
}
