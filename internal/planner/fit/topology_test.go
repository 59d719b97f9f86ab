package fit

import (
	"strings"
	"testing"
)

// TestTopologySpread: a DoNotSchedule constraint on the hostname keeps every node within MaxSkew of the
// emptiest; minDomains above the domains there are counts the missing ones as empty, so two zones hold at
// most MaxSkew pods each; nodes lacking the key never pass a DoNotSchedule constraint on it.
func TestTopologySpread(t *testing.T) {
	self := selectApp("web")
	web := Workload{Name: "web", Replicas: 6, MaxReplicas: 6, Requests: Resources{CPUMillicores: 100},
		TopologySpread: []TopologySpreadConstraint{{MaxSkew: 1, TopologyKey: hostnameKey, WhenUnsatisfiable: DoNotSchedule, Selector: self}}}
	p := affinityPool(3)
	p.MinNodes = 3
	in := Input{Pools: []Pool{p}, Workloads: []Workload{web}}
	orders, err := Orders(in, ScenarioSteady)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range orders {
		refs, err := Place(in, ScenarioSteady, []int{3}, o)
		if err != nil {
			t.Fatal(err)
		}
		per := map[int]int{}
		for _, r := range refs {
			per[r.Index]++
		}
		if per[0] != 2 || per[1] != 2 || per[2] != 2 {
			t.Errorf("%s: pods per node %v, want 2 each", o.Name, per)
		}
	}

	two := affinityPool(10)
	two.Zones = []string{"a", "b"}
	web.Replicas, web.MaxReplicas = 3, 3
	web.TopologySpread = []TopologySpreadConstraint{{MaxSkew: 1, TopologyKey: zoneLabel, WhenUnsatisfiable: DoNotSchedule, Selector: self, MinDomains: 3}}
	res, err := Plan(Input{Pools: []Pool{two}, Workloads: []Workload{web}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Fits {
		t.Errorf("minDomains 3 over 2 zones, maxSkew 1: 3 pods fit")
	}
	web.Replicas, web.MaxReplicas = 2, 2
	if res, _ := Plan(Input{Pools: []Pool{two}, Workloads: []Workload{web}}); !res.Fits {
		t.Errorf("minDomains 3 over 2 zones, maxSkew 1: 2 pods do not fit: %+v", res.Failures)
	}

	noZones := affinityPool(10)
	noZones.Zones = nil
	if res, _ := Plan(Input{Pools: []Pool{noZones}, Workloads: []Workload{web}}); res.Fits {
		t.Errorf("a DoNotSchedule zone constraint on nodes without zones: fits")
	}
	web.TopologySpread[0].WhenUnsatisfiable = ScheduleAnyway
	web.TopologySpread[0].MinDomains = 0
	if res, _ := Plan(Input{Pools: []Pool{noZones}, Workloads: []Workload{web}}); !res.Fits {
		t.Errorf("a ScheduleAnyway constraint does not filter: %+v", res.Failures)
	}
}

func TestTopologySpreadValidate(t *testing.T) {
	w := Workload{Name: "x", Replicas: 1, MaxReplicas: 1, TopologySpread: []TopologySpreadConstraint{
		{MaxSkew: 0, WhenUnsatisfiable: "Sometimes", NodeTaintsPolicy: "Maybe"},
		{MaxSkew: 1, TopologyKey: zoneLabel, WhenUnsatisfiable: ScheduleAnyway, MinDomains: 2}}}
	err := Validate(Input{Pools: []Pool{affinityPool(1)}, Workloads: []Workload{w}})
	for _, want := range []string{"max skew 0", "no topology key", `whenUnsatisfiable "Sometimes"`, `"Maybe"`, "min domains 2"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("want %q in %v", want, err)
		}
	}
}

// TestSpreadCountsNodesWithEveryKey: PodTopologySpread counts only the nodes that carry every topology key
// of the pod's constraints of one kind, for each of them. A workload spread by zone and by a rack label only
// pool "racked" (zones a and b) carries has its zone domains in a and b alone; the zone c of pool "plain",
// whose nodes lack the rack label, is no domain, so its empty zone does not hold the skew at 0 and all four
// pods bind (two per zone).
func TestSpreadCountsNodesWithEveryKey(t *testing.T) {
	racked := Pool{Name: "racked", Allocatable: Resources{CPUMillicores: 8000, MemoryBytes: 32 << 30, Pods: 110}, MaxNodes: 4,
		Zones: []string{"a", "b"}, Labels: map[string]string{"rack": "r1"}}
	plain := Pool{Name: "plain", Allocatable: Resources{CPUMillicores: 8000, MemoryBytes: 32 << 30, Pods: 110}, MaxNodes: 2,
		Zones: []string{"c"}}
	self := LabelSelector{MatchLabels: map[string]string{"app": "x"}}
	x := Workload{Name: "x", Replicas: 4, MaxReplicas: 4, Requests: Resources{CPUMillicores: 500}, Labels: map[string]string{"app": "x"},
		TopologySpread: []TopologySpreadConstraint{
			{MaxSkew: 1, TopologyKey: zoneLabel, WhenUnsatisfiable: DoNotSchedule, Selector: self},
			{MaxSkew: 10, TopologyKey: "rack", WhenUnsatisfiable: DoNotSchedule, Selector: self},
		}}
	other := Workload{Name: "other", Replicas: 2, MaxReplicas: 2, Requests: Resources{CPUMillicores: 500}, Pools: []string{"plain"}}
	res, err := Plan(Input{Pools: []Pool{racked, plain}, Workloads: []Workload{x, other}})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Fits {
		t.Errorf("does not fit: %+v", res.Failures)
	}
}
