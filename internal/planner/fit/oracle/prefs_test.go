package oracle

import (
	"testing"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
)

// spotPreference is the case preferred node affinity decides: workload "x" may only use pool "spot" (a
// required node selector), workload "y" may use "spot" and the four nodes of "general" and, with prefer, prefers
// "spot" (weight 100). Every pod asks 1 CPU of a 4-CPU node.
func spotPreference(prefer bool, profile fit.SchedulerProfile) fit.Input {
	zones := []string{"zone-a", "zone-b"}
	spot := pool("spot", 3900, 15000, zones...)
	spot.Labels["pool"] = "spot"
	general := pool("general", 3900, 15000, zones...)
	general.Labels["pool"] = "general"
	general.MinNodes, general.MaxNodes = 4, 4
	x := workload("x", 8, 1000, 1000)
	x.NodeSelector = map[string]string{"pool": "spot"}
	y := workload("y", 8, 1000, 1000)
	if prefer {
		y.PreferredNodeAffinity = []fit.WeightedNodeSelectorTerm{{Weight: 100,
			Term: fit.NodeSelectorTerm{MatchExpressions: []fit.NodeSelectorRequirement{{Key: "pool", Operator: fit.NodeIn, Values: []string{"spot"}}}}}}
	}
	return fit.Input{Pools: []fit.Pool{spot, general}, Workloads: []fit.Workload{x, y}, Scheduler: profile}
}

// TestPreferredNodeAffinityNeverBelowRealScheduler: on the spot-preference case, under both profiles, the real
// scheduler binds every pod in every planned order on kubefit's counts, and on the counts kubefit gave while
// it ignored the preference (the same input without it) the real scheduler leaves pods of x Pending: y fills
// the spot pool first. The scores match the real plugins' pod for pod.
func TestPreferredNodeAffinityNeverBelowRealScheduler(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the real scheduler")
	}
	for _, prof := range fit.SchedulerProfiles {
		t.Run(string(prof), func(t *testing.T) {
			in := spotPreference(true, prof)
			res, counts, orders := planOrders(t, in)
			for _, o := range orders {
				if n := real(t, in, res, counts, o); n > 0 {
					t.Errorf("%s: the real scheduler leaves %d of %d pods Pending on kubefit's %v nodes", o.Name, n, len(o.Pods), counts)
				}
			}
			_, blind, _ := planOrders(t, spotPreference(false, prof))
			if blind[0] >= counts[0] {
				t.Fatalf("without the preference kubefit plans %v nodes, with it %v: no difference to check", blind, counts)
			}
			pending := 0
			for _, o := range orders {
				pending += real(t, in, res, blind, o)
			}
			if pending == 0 {
				t.Errorf("the real scheduler binds every pod on the %v nodes planned without the preference", blind)
			}
			t.Logf("kubefit %v nodes (best packing %d); on the %v planned without the preference the real scheduler leaves %d pods Pending over %d orders",
				counts, res.Scenarios[0].NodesOptimal, blind, pending, len(orders))
			if r := compareScores(t, in, counts, orders[0], 10); r.scoreDiffs > 0 || r.lower > 0 {
				t.Errorf("%d pods with other scores or feasible nodes; %d on a node the model scores below its best", r.scoreDiffs, r.lower)
			}
		})
	}
}
