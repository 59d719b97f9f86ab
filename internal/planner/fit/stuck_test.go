package fit

import (
	"strings"
	"testing"
)

// TestStuckPodsUnplaced: pods the scheduler model leaves Pending below the maximum node count, where more
// nodes do not bind them (here a workload whose required anti-affinity on the zone keeps it away from a
// workload spread over every zone), are unplaced with the rule that holds them, not counted on nodes
// beyond the maximum: the pool's count stays within its maximum, and the failure names the rule.
func TestStuckPodsUnplaced(t *testing.T) {
	spread := Workload{Name: "web", Replicas: 3, MaxReplicas: 3, Requests: Resources{CPUMillicores: 500},
		Labels: map[string]string{"app": "web"},
		TopologySpread: []TopologySpreadConstraint{{MaxSkew: 1, TopologyKey: zoneLabel, WhenUnsatisfiable: DoNotSchedule,
			Selector: selectApp("web")}}}
	apart := Workload{Name: "batch", Replicas: 1, MaxReplicas: 1, Requests: Resources{CPUMillicores: 500},
		Labels:      map[string]string{"app": "batch"},
		PodAffinity: &PodAffinity{AntiRequired: []PodAffinityTerm{{Selector: selectApp("web"), TopologyKey: zoneLabel}}}}
	res, err := Plan(Input{Pools: []Pool{affinityPool(10)}, Workloads: []Workload{spread, apart}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Fits {
		t.Fatalf("fits; want the anti-affinity pod Pending")
	}
	sc := res.Scenarios[0]
	pr := sc.Pools[0]
	if pr.NodesRequired > pr.MaxNodes || pr.PodsBeyondMax != 0 {
		t.Errorf("pool needs %d nodes (max %d), %d pods beyond: pods no count binds must not be counted beyond the maximum",
			pr.NodesRequired, pr.MaxNodes, pr.PodsBeyondMax)
	}
	if sc.UnplacedPods == 0 {
		t.Errorf("no pod unplaced; placements %+v", sc.Placements)
	}
	var found bool
	for _, f := range res.Failures {
		t.Logf("%s %s %s: %s", f.Workload, f.Pool, f.Reason, f.Message)
		if f.Reason == ReasonPodAffinity && f.Workload == "web" {
			// The explanation charges each node to the filter that turns the pod away: zone a holds batch,
			// whose anti-affinity excludes web; zones b and c hold a web pod each, and a second would
			// break the skew against zone a's none (the rules are named in the order of the first node each
			// turns away, which the placement decides).
			found = found || strings.Contains(f.Message, "stays Pending") &&
				strings.Contains(f.Message, `2 hold pods of workload "batch" whose required anti-affinity excludes the pod`) &&
				strings.Contains(f.Message, `3 would break its topology spread`) &&
				strings.Contains(f.Message, `the required pod anti-affinity of workload "batch"`)
		}
		if f.Reason == ReasonMaxNodes {
			t.Errorf("blamed on the maximum node count: %s", f.Message)
		}
	}
	if !found {
		t.Errorf("no failure names the rule: %+v", res.Failures)
	}
}
