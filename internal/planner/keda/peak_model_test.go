package keda

import (
	"math/rand/v2"
	"testing"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/resource"
)

// TestPeakDivisionIsTheSchedulersCount: a ScaledObject's own node-group check (KCAP-E2) counts nodes as
// ⌈replicas / pods per node⌉ instead of running the scheduler model. For the pods of one workload, all
// alike, on an empty group of identical nodes the two agree: every pod passes the same filters on every
// node with room, so no order strands room and kube-scheduler binds them all exactly while pods-per-node ×
// nodes suffices. This checks it against the model (fit, the placement sizing and the capacity check use)
// on random groups and peaks, under both profiles, so the shortcut never says more than the scheduler does.
func TestPeakDivisionIsTheSchedulersCount(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 7))
	for i := range 60 {
		g := NodeGroupCapacity{Name: "g", MaxNodes: 1 + rng.Int64N(12),
			WorkloadAllocatable: Allocatable{CPUMillicores: 1000 + rng.Int64N(15000), MemoryBytes: (2 + rng.Int64N(60)) << 30,
				EphemeralBytes: 20 << 30},
			WorkloadPods: 10 + rng.Int64N(100)}
		if i%3 == 0 {
			g.Zones = []string{"a", "b", "c"}
		}
		req := resource.List{CPUMillicores: 50 + rng.Int64N(2000), MemoryBytes: (64 + rng.Int64N(4000)) << 20}
		per, _ := perNode(g, req, nil)
		if per == 0 {
			continue
		}
		// Peaks around the group's limit: just within, at and just beyond it.
		for _, peak := range []int64{per*g.MaxNodes - 1, per * g.MaxNodes, per*g.MaxNodes + 1} {
			if peak < 1 {
				continue
			}
			want := resource.CeilDiv(peak, per)
			for _, prof := range fit.SchedulerProfiles {
				pl, err := place(g, []groupLoad{{name: "target", req: req, count: peak}}, Check{Scheduler: prof})
				if err != nil {
					t.Fatal(err)
				}
				got := pl.peak
				if want > g.MaxNodes {
					// Beyond the group the model reports at least the division (the lower bound by totals, or
					// the nodes beyond its maximum it needed).
					if !pl.atLeast && got <= g.MaxNodes {
						t.Errorf("case %d %s: %d pods of %v, %d per node on %d nodes: the model binds them within the group, the division says %d nodes",
							i, prof, peak, req, per, g.MaxNodes, want)
					}
					continue
				}
				if got != want {
					t.Errorf("case %d %s: %d pods of %v, %d per node: the scheduler model needs %d nodes, the division %d",
						i, prof, peak, req, per, got, want)
				}
			}
		}
	}
}
