package sizing

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/overhead"
)

// smallAKS is the field report's four Standard_DS1_v2 nodes with the platform's pods, plus new pods.
func smallAKS(newCPU int64) Request {
	w := func(name string, n int, cpu, mem int64) Workload {
		return Workload{Name: name, Replicas: intp(n), Requests: fit.Resources{CPUMillicores: cpu, MemoryBytes: mem << 20}}
	}
	return Request{
		Pools: []Pool{{Name: "agentpool", Cloud: catalog.Azure, InstanceTypes: []string{"Standard_DS1_v2"}, MinNodes: 4, MaxNodes: 4,
			Overhead: overhead.Input{KubernetesVersion: "1.28", MaxPods: 110}}},
		DaemonSets: []DaemonSet{
			{Name: "calico-node", Requests: fit.Resources{CPUMillicores: 250}, TakesPodSlot: true},
			{Name: "kube-proxy", Requests: fit.Resources{CPUMillicores: 100}, TakesPodSlot: true},
			{Name: "kube-svc-redirect", Requests: fit.Resources{CPUMillicores: 5, MemoryBytes: 32 << 20}, TakesPodSlot: true},
		},
		Workloads: []Workload{
			w("dashboard", 1, 100, 50), w("tunnelfront", 1, 10, 64), w("coredns", 2, 100, 70), w("coredns-autoscaler", 1, 20, 10),
			w("heapster", 1, 130, 230), w("grafana", 1, 200, 500), w("prometheus-operator", 1, 500, 1000), w("alertmanager", 1, 100, 225),
			w("flux", 1, 50, 64), w("flux-helm-operator", 1, 50, 64), w("api-a", 2, 100, 200), w("api-b", 2, 50, 100),
			w("canary-a", 1, 40, 500), w("canary-b", 1, 40, 500), w("web-1", 1, 5, 10), w("web-2", 1, 10, 42), w("web-3", 1, 5, 21),
			w("web-4", 1, 10, 30), w("web-5", 1, 5, 15), w("new-service", 4, newCPU, 64),
		},
		// The field report lists its cluster's own system DaemonSets (a 2019 cluster with Calico), so only
		// they count, not today's measured AKS set.
		SystemDaemonSets: overhead.SystemDaemonSetsListed,
		// The platform's pods ran first, prometheus-operator on a node of its own; largest first
		// reproduces that placement (in a rollout of everything at once it can find no node).
		Arrival: fit.ArrivalLargestFirst,
	}
}

func TestBlameNamesTheLastWorkloads(t *testing.T) {
	p := NewPlanner(EmbeddedCatalog())
	plan, err := p.Solve(context.Background(), smallAKS(100))
	if err != nil || !plan.Fits {
		t.Fatalf("four pods of 100m must fit: %v %+v", err, plan.Failures)
	}
	plan, err = p.Solve(context.Background(), smallAKS(200))
	if err != nil {
		t.Fatal(err)
	}
	if plan.Fits || len(plan.Blame) != 1 || plan.Blame[0].Workload != "new-service" || plan.Blame[0].Replicas != 4 {
		t.Fatalf("blame = %+v, want new-service only", plan.Blame)
	}
	misfits := plan.Misfits()
	if len(misfits) != 1 {
		t.Fatalf("want one misfit for the pool and cause, got %d: %+v", len(misfits), misfits)
	}
	m := misfits[0]
	for _, want := range []string{`2 replicas of workload "new-service" do not fit (at most 2 of its 4 fit)`, "short by 235m CPU", `pool "agentpool"`} {
		if !strings.Contains(m.Message, want) {
			t.Errorf("message lacks %q:\n%s", want, m.Message)
		}
	}
	for _, platform := range []string{"flux", "dashboard", "coredns"} {
		if strings.Contains(m.Message, platform) {
			t.Errorf("message blames platform workload %q:\n%s", platform, m.Message)
		}
	}
}

// TestBlameBudget: the blame's solves share a work budget; a step that would pass it is not started, the
// culprits found so far are kept and WarnBlameBudget says the blame stopped.
func TestBlameBudget(t *testing.T) {
	p := NewPlanner(EmbeddedCatalog())
	plan, err := p.Solve(context.Background(), smallAKS(200))
	if err != nil || len(plan.Blame) != 1 || hasWarning(plan, WarnBlameBudget) {
		t.Fatalf("within the budget the blame names new-service and does not warn: %v %+v %+v", err, plan.Blame, plan.Warnings)
	}
	own := modelWork(plan)
	saved := blameBudget
	defer func() { blameBudget = saved }()
	blameBudget = own - 1 // not even one step: each costs about the plan's own work
	plan, err = p.Solve(context.Background(), smallAKS(200))
	if err != nil || plan.Fits || len(plan.Blame) != 0 || !hasWarning(plan, WarnBlameBudget) {
		t.Fatalf("out of budget the blame must stop before its first step, with a warning: %v %+v %+v", err, plan.Blame, plan.Warnings)
	}
}

func hasWarning(pl *Plan, code string) bool {
	for _, w := range pl.Warnings {
		if w.Code == code {
			return strings.Contains(w.Message, "stopped at its work budget")
		}
	}
	return false
}

// TestMarginOnlyMisfitNamesNoPods: a pool whose count is over its maximum by the scheduler model's margin alone,
// every pod placed within the maximum, says so and lists no pods (it said "Pods that do not fit: ." before).
// The workloads are a user's 40 generated ones on m5.large over three zones.
func TestMarginOnlyMisfitNamesNoPods(t *testing.T) {
	req := func(maxNodes int) Request {
		r := Request{Pools: []Pool{{Name: "a", Cloud: catalog.AWS, InstanceTypes: []string{"m5.large"}, MaxNodes: maxNodes,
			Zones: []string{"a", "b", "c"}}},
			DaemonSets: []DaemonSet{{Name: "aws-node", Requests: fit.Resources{CPUMillicores: 25}, TakesPodSlot: true},
				{Name: "kube-proxy", Requests: fit.Resources{CPUMillicores: 100}, TakesPodSlot: true}}}
		for i := range 40 {
			w := Workload{Name: fmt.Sprintf("w%d", i), MinReplicas: intp(1 + i%4), MaxReplicas: intp(4 + (i*7)%13),
				MaxSurge: fit.IntOrPercent{Value: 25, Percent: true},
				Requests: fit.Resources{CPUMillicores: int64(100 + (i*137)%900), MemoryBytes: int64(128+(i*331)%2048) << 20}}
			if i%5 == 0 {
				w.Spread = fit.Spread{Type: fit.SpreadZone, MaxSkew: 1}
			}
			r.Workloads = append(r.Workloads, w)
		}
		return r
	}
	p := NewPlanner(EmbeddedCatalog())
	plan, err := p.Solve(context.Background(), req(1000))
	if err != nil || !plan.Fits {
		t.Fatalf("fits %v, err %v", plan.Fits, err)
	}
	// The margin is the pool's nodes beyond the count the model bound every pod on; any maximum in between fails
	// on the margin alone.
	need := plan.Pools[0].Peak.NodesRequired
	found := false
	for m := need - 1; m >= need-3 && !found; m-- {
		plan, err := p.Solve(context.Background(), req(m))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range plan.Misfits() {
			if !strings.Contains(f.Message, "carries the margin") {
				continue
			}
			found = true
			if strings.Contains(f.Message, "do not fit: .") || strings.Contains(f.Message, "Pods that do not fit") {
				t.Errorf("max %d: a margin-only misfit lists pods:\n%s", m, f.Message)
			}
		}
	}
	if !found {
		t.Fatalf("no maximum from %d down to %d fails on the margin alone", need-1, need-3)
	}
}
