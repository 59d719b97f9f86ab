package fit

import (
	"strings"
	"testing"
)

func affinityPool(maxNodes int) Pool {
	return Pool{Name: "general", Allocatable: Resources{CPUMillicores: 8000, MemoryBytes: 32 << 30, Pods: 110}, MaxNodes: maxNodes,
		Zones: []string{"a", "b", "c"}}
}

func selectApp(name string) LabelSelector {
	return LabelSelector{MatchLabels: map[string]string{"app": name}}
}

// TestPodAffinityFilters: required anti-affinity on the zone against a workload's own pods holds one pod per
// zone (a fourth has nowhere to go, whatever the node count); required affinity puts a pod in the domain of
// the pods it looks for (and the first of a group that matches its own term anywhere); an existing pod's
// required anti-affinity keeps the pods it matches away (symmetry).
func TestPodAffinityFilters(t *testing.T) {
	oneZoneEach := Workload{Name: "zk", Replicas: 4, MaxReplicas: 4, Requests: Resources{CPUMillicores: 100},
		PodAffinity: &PodAffinity{AntiRequired: []PodAffinityTerm{{Selector: selectApp("zk"), TopologyKey: zoneLabel}}}}
	res, err := Plan(Input{Pools: []Pool{affinityPool(10)}, Workloads: []Workload{oneZoneEach}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Fits || len(res.Failures) != 2 || res.Failures[0].Reason != ReasonPodAffinity || !strings.Contains(res.Failures[0].Message, `1 pod of workload "zk" binds on no node`) ||
		res.Scenarios[0].Pools[0].NodesRequired != 3 {
		t.Errorf("4 pods, one per zone, 3 zones: fits %v on %d nodes, failures %+v", res.Fits, res.Scenarios[0].Pools[0].NodesRequired, res.Failures)
	}
	oneZoneEach.Replicas, oneZoneEach.MaxReplicas = 3, 3
	if res, _ := Plan(Input{Pools: []Pool{affinityPool(10)}, Workloads: []Workload{oneZoneEach}}); !res.Fits || res.Scenarios[0].Pools[0].NodesRequired != 3 {
		t.Errorf("3 pods, one per zone: fits %v on %d nodes, want 3", res.Fits, res.Scenarios[0].Pools[0].NodesRequired)
	}

	// The cache pods must share a node with a web pod; web pods keep away from each other.
	web := Workload{Name: "web", Replicas: 3, MaxReplicas: 3, Requests: Resources{CPUMillicores: 1000},
		PodAffinity: &PodAffinity{AntiRequired: []PodAffinityTerm{{Selector: selectApp("web"), TopologyKey: hostnameKey}}}}
	cache := Workload{Name: "cache", Replicas: 3, MaxReplicas: 3, Requests: Resources{CPUMillicores: 1000},
		PodAffinity: &PodAffinity{Required: []PodAffinityTerm{{Selector: selectApp("web"), TopologyKey: hostnameKey}}}}
	in := Input{Pools: []Pool{affinityPool(10)}, Workloads: []Workload{web, cache}, Arrival: ArrivalInOrder}
	orders, err := Orders(in, ScenarioSteady)
	if err != nil {
		t.Fatal(err)
	}
	refs, err := Place(in, ScenarioSteady, []int{3}, orders[0])
	if err != nil {
		t.Fatal(err)
	}
	webNodes := map[int]bool{}
	for i, w := range orders[0].Pods {
		if refs[i].Pool < 0 {
			t.Fatalf("pod %d of workload %d Pending", i, w)
		}
		if w == 0 {
			if webNodes[refs[i].Index] {
				t.Errorf("two web pods on node %d", refs[i].Index)
			}
			webNodes[refs[i].Index] = true
		} else if !webNodes[refs[i].Index] {
			t.Errorf("a cache pod on node %d, which runs no web pod", refs[i].Index)
		}
	}
	// Cache first: its pods wait for the web pods (retried once they bind), then join them.
	in.Workloads = []Workload{cache, web}
	if res, _ := Plan(in); !res.Fits || res.Scenarios[0].NodesRequired != 3 {
		t.Errorf("cache before web: fits %v on %d nodes, want 3", res.Fits, res.Scenarios[0].NodesRequired)
	}

	// Symmetry: batch pods keep away from the nodes of db pods, which say so; db pods fill every node.
	db := Workload{Name: "db", Replicas: 2, MaxReplicas: 2, Requests: Resources{CPUMillicores: 100},
		PodAffinity: &PodAffinity{AntiRequired: []PodAffinityTerm{{Selector: selectApp("batch"), TopologyKey: hostnameKey}}}}
	batch := Workload{Name: "batch", Replicas: 1, MaxReplicas: 1, Requests: Resources{CPUMillicores: 100}}
	fixed := affinityPool(2)
	fixed.MinNodes = 2
	res, err = Plan(Input{Pools: []Pool{fixed}, Workloads: []Workload{db, batch}, Arrival: ArrivalInOrder})
	if err != nil {
		t.Fatal(err)
	}
	if res.Fits {
		t.Errorf("a batch pod beside db pods that keep it away, on 2 nodes both running db: fits")
	}
}

// TestPodAffinityPreferred: a preferred anti-affinity against a workload's own pods spreads them over the
// nodes at hand (one per node), where the default profile's resource scores alone would also spread, but a
// preferred affinity to another workload's zone gathers them there.
func TestPodAffinityPreferred(t *testing.T) {
	anchor := Workload{Name: "anchor", Replicas: 1, MaxReplicas: 1, Requests: Resources{CPUMillicores: 100}}
	near := Workload{Name: "near", Replicas: 4, MaxReplicas: 4, Requests: Resources{CPUMillicores: 100},
		PodAffinity: &PodAffinity{Preferred: []WeightedPodAffinityTerm{{Weight: 100, Term: PodAffinityTerm{Selector: selectApp("anchor"), TopologyKey: zoneLabel}}}}}
	in := Input{Pools: []Pool{affinityPool(10)}, Workloads: []Workload{anchor, near}, Arrival: ArrivalInOrder}
	orders, _ := Orders(in, ScenarioSteady)
	refs, err := Place(in, ScenarioSteady, []int{6}, orders[0])
	if err != nil {
		t.Fatal(err)
	}
	zone := refs[0].Index % 3
	for i := 1; i < len(refs); i++ {
		if refs[i].Index%3 != zone {
			t.Errorf("pod %d in zone %d, not the anchor's %d", i, refs[i].Index%3, zone)
		}
	}
}

func TestPodAffinityValidate(t *testing.T) {
	w := Workload{Name: "x", Replicas: 1, MaxReplicas: 1, Labels: map[string]string{"bad key!": "v"},
		PodAffinity: &PodAffinity{AntiPreferred: []WeightedPodAffinityTerm{{Weight: 0, Term: PodAffinityTerm{Selector: LabelSelector{MatchExpressions: []LabelSelectorRequirement{{Key: "a", Operator: "Near"}}}}}}}}
	err := Validate(Input{Pools: []Pool{affinityPool(1)}, Workloads: []Workload{w}})
	for _, want := range []string{"label key", "weight 0", "no topology key", "label selector"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("want %q in %v", want, err)
		}
	}
}

// TestPodAffinityReviewCases: a required affinity counts only pods matching every term (no pod is both db
// and cache, so x binds nowhere); an affinity to pods no workload of the plan has binds nowhere, named, at
// any node count; a pool that is tainted and fails the workload's node affinity is no spread domain.
func TestPodAffinityReviewCases(t *testing.T) {
	db := Workload{Name: "db", Replicas: 1, MaxReplicas: 1, Requests: Resources{CPUMillicores: 100}}
	cache := Workload{Name: "cache", Replicas: 1, MaxReplicas: 1, Requests: Resources{CPUMillicores: 100}}
	x := Workload{Name: "x", Replicas: 1, MaxReplicas: 1, Requests: Resources{CPUMillicores: 100},
		PodAffinity: &PodAffinity{Required: []PodAffinityTerm{{Selector: selectApp("db"), TopologyKey: zoneLabel}, {Selector: selectApp("cache"), TopologyKey: hostnameKey}}}}
	res, err := Plan(Input{Pools: []Pool{affinityPool(3)}, Workloads: []Workload{db, cache, x}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Fits || res.Failures[0].Workload != "x" || res.Failures[0].Reason != ReasonPodAffinity {
		t.Errorf("two affinity terms no pod matches together: fits %v, %+v", res.Fits, res.Failures)
	}
	lonely := Workload{Name: "cache", Replicas: 2, MaxReplicas: 2, Requests: Resources{CPUMillicores: 100},
		PodAffinity: &PodAffinity{Required: []PodAffinityTerm{{Selector: selectApp("redis"), TopologyKey: zoneLabel}}}}
	res, _ = Plan(Input{Pools: []Pool{affinityPool(3)}, Workloads: []Workload{lonely}})
	if res.Fits || res.Scenarios[0].Pools[0].NodesRequired > 1 || !strings.Contains(res.Failures[0].Message, "no workload of the plan has") {
		t.Errorf("affinity to absent pods: fits %v on %d nodes, %+v", res.Fits, res.Scenarios[0].Pools[0].NodesRequired, res.Failures)
	}

	web := Pool{Name: "web", Allocatable: Resources{CPUMillicores: 4000, MemoryBytes: 16 << 30, Pods: 110}, MaxNodes: 10, Zones: []string{"a", "b"},
		Labels: map[string]string{"tier": "web"}}
	gpu := Pool{Name: "gpu", Allocatable: Resources{CPUMillicores: 4000, MemoryBytes: 16 << 30, Pods: 110}, MinNodes: 1, MaxNodes: 1, Zones: []string{"c"},
		Taints: []Taint{{Key: "gpu", Effect: EffectNoSchedule}}}
	spread := Workload{Name: "web", Replicas: 4, MaxReplicas: 4, Requests: Resources{CPUMillicores: 100},
		NodeAffinity:   []NodeSelectorTerm{{MatchExpressions: []NodeSelectorRequirement{{Key: "tier", Operator: NodeIn, Values: []string{"web"}}}}},
		TopologySpread: []TopologySpreadConstraint{{MaxSkew: 1, TopologyKey: zoneLabel, Selector: selectApp("web")}}}
	if res, _ := Plan(Input{Pools: []Pool{web, gpu}, Workloads: []Workload{spread}}); !res.Fits {
		t.Errorf("a tainted pool outside the node affinity counted as a spread domain: %+v", res.Failures)
	}
}
