package provider

import (
	"sync"
	"testing"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/overhead"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/sizing"
)

// TestOncePerPlan: the "not measured" caveat is shown once per provider process (one plan), whatever pools a
// sizing names after it; other warnings always pass; before Configure nothing is dropped.
func TestOncePerPlan(t *testing.T) {
	const base = "no public measured node backs the model for eks-windows (documented formula)"
	a := catalogClient{warned: &sync.Map{}}
	b := catalogClient{warned: a.warned} // another object of the same plan
	other := field.Warning{Code: overhead.CodeNoDaemonSets, Message: "x"}
	got := a.oncePerPlan([]field.Warning{{Code: overhead.CodeNotMeasured, Message: base + sizing.NotMeasuredPools + ` "a")`}, other})
	if len(got) != 2 {
		t.Fatalf("first object: %v", got)
	}
	got = b.oncePerPlan([]field.Warning{{Code: overhead.CodeNotMeasured, Message: base}, other, {Code: overhead.CodeNotMeasured, Message: "another scope"}})
	if len(got) != 2 || got[0].Code != other.Code || got[1].Message != "another scope" {
		t.Errorf("second object: %v; want the repeated caveat dropped and the rest kept", got)
	}
	var unconfigured catalogClient
	if got := unconfigured.oncePerPlan([]field.Warning{{Code: overhead.CodeNotMeasured, Message: base}}); len(got) != 1 {
		t.Errorf("unconfigured: %v", got)
	}
}
