package oracle

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
)

// anyFitInput draws pools that each take their own workloads of one size (pinned by their pool lists; one in
// four one pod per node), pod slots that sometimes bind before CPU and memory do, and a DaemonSet on every node:
// the inputs on which kubefit skips its node-count search, any scheduler binding such pods on the best packing's
// count. With mixed, the workloads of a pool differ in size instead.
func anyFitInput(rng *rand.Rand, mixed bool) fit.Input {
	in := fit.Input{DaemonSets: []fit.DaemonSet{{Name: "agent", Requests: fit.Resources{CPUMillicores: int64(50 + rng.IntN(200)),
		MemoryBytes: int64(50+rng.IntN(300)) * mi}, TakesPodSlot: true}}}
	if rng.IntN(2) == 0 {
		in.Scheduler = fit.ProfileMostAllocated
	}
	zones := []string{"zone-a", "zone-b", "zone-c"}
	for p := range 1 + rng.IntN(2) {
		vcpu := int64(2) << rng.IntN(2)
		pl := pool(fmt.Sprintf("pool-%d", p), vcpu*1000-90, vcpu*4000-600, zones[:1+rng.IntN(3)]...)
		pl.Allocatable.Pods = int64(6 + rng.IntN(30))
		in.Pools = append(in.Pools, pl)
		cpu, mem := int64(100+rng.IntN(1400)), int64(100+rng.IntN(3000))
		for k := range 1 + rng.IntN(3) {
			if mixed {
				cpu, mem = int64(100+rng.IntN(1400)), int64(100+rng.IntN(3000))
			}
			w := workload(fmt.Sprintf("app-%d-%d", p, k), 2+rng.IntN(40), cpu, mem)
			w.Pools = []string{pl.Name}
			if rng.IntN(4) == 0 {
				w.Spread = fit.Spread{Type: fit.SpreadNode}
			}
			in.Workloads = append(in.Workloads, w)
		}
	}
	return in
}

// sizeOrder is every pod of in, smallest (or largest) CPU request first: an arrival order kubefit does not plan,
// which the any-fit bound must survive too.
func sizeOrder(in fit.Input, largest bool) fit.Order {
	var pods []int
	for w, wl := range in.Workloads {
		for range wl.Replicas {
			pods = append(pods, w)
		}
	}
	slices.SortStableFunc(pods, func(a, b int) int {
		d := in.Workloads[a].Requests.CPUMillicores - in.Workloads[b].Requests.CPUMillicores
		if largest {
			d = -d
		}
		return int(d)
	})
	name := "smallest first"
	if largest {
		name = "largest first"
	}
	return fit.Order{Name: name, Pods: pods, Seed: 1}
}

// TestAnyFitCountsRealScheduler checks the counts kubefit gives without its node-count search (fit's
// anyFitCounts: pools of alike pods, where any scheduler binds them on the best packing's count) and those it
// gives when the scheduler model is not run (fit.AnyFitNodes over mixed pods, Input.Unmodelled) against the real
// kube-scheduler: every pod binds in each planned order and smallest and largest first, under the input's
// profile; and for alike pods a pool one node smaller leaves a pod Pending wherever kubefit's count is its lower
// bound (so the count is the fewest, and kubefit's room per node, DaemonSet and pod slots included, is the
// scheduler's).
func TestAnyFitCountsRealScheduler(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the real scheduler about a hundred times")
	}
	rng := rand.New(rand.NewPCG(2026, 1207))
	profile := func(in fit.Input) fit.SchedulerProfile { return cmp.Or(in.Scheduler, fit.ProfileDefault) }
	tight := 0
	for i := range 12 {
		mixed := i%3 == 2
		in := anyFitInput(rng, mixed)
		in.Unmodelled = mixed
		res, err := fit.Plan(in)
		if err != nil {
			t.Fatal(err)
		}
		sr := res.Scenarios[0]
		counts := finalCounts(in, sr)
		if !mixed && (sr.BoundBy != "" || sr.Margin != "" || sr.SchedulerNote != "") {
			t.Fatalf("case %d: alike pods were searched (bound by %q, margin %q, note %q)", i, sr.BoundBy, sr.Margin, sr.SchedulerNote)
		}
		orders, err := fit.Orders(in, fit.ScenarioSteady)
		if err != nil {
			t.Fatal(err)
		}
		orders = append(orders, sizeOrder(in, false), sizeOrder(in, true))
		for _, o := range orders {
			if n := real(t, in, res, counts, o); n > 0 {
				t.Errorf("case %d (%s, mixed %v): the real scheduler leaves %d of %d pods Pending on kubefit's %v nodes in %s",
					i, profile(in), mixed, n, len(o.Pods), counts, o.Name)
			}
		}
		if mixed {
			t.Logf("case %d (mixed, %s): %v nodes bind every pod in %d orders (best packing %d)", i, profile(in), counts, len(orders), sr.NodesOptimal)
			continue
		}
		for p, pr := range sr.Pools {
			if pr.NodesRequired != pr.LowerBound || counts[p] == 0 {
				continue
			}
			fewer := slices.Clone(counts)
			fewer[p]--
			if n := real(t, in, res, fewer, orders[0]); n == 0 {
				t.Errorf("case %d: every pod binds on %v nodes, one fewer than kubefit's %v in pool %s", i, fewer, counts, pr.Pool)
			}
			tight++
		}
		t.Logf("case %d (alike, %s): %v nodes bind every pod in %d orders", i, profile(in), counts, len(orders))
	}
	t.Logf("%d pools one node smaller left a pod Pending", tight)
	if tight < 6 {
		t.Fatalf("only %d pools had kubefit's count at its lower bound: the one-node-fewer check ran too little", tight)
	}
}
