package fit

import (
	"regexp"
	"slices"
	"strconv"
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

// TestRoomOnlyPodsNeverStuck: under MostAllocated, the pods of workloads free to use the pools of a workload that
// may use fewer take the nodes the search adds for it, for several rounds in a row (here 100m/959 MiB pods of
// app-0001 stayed Pending on every count up to 16 nodes of pool-00 in the peak scenario, and the plan failed saying
// "topology spread and inter-pod rules" held them, though no rule applies). Pods held by room alone bind once their
// pools have enough nodes, so the search goes on growing: the plan fits, no workload without a rule fails for one,
// and the model binds every pod on the counts it gives.
func TestRoomOnlyPodsNeverStuck(t *testing.T) {
	in, res := mostAllocatedPlan(t, 4, 12, 20, 6)
	for _, f := range res.Failures {
		if ruleFree(in, f.Workload) {
			t.Errorf("workload %s has no rule, yet fails: %s", f.Workload, f.Message)
		}
	}
	if !res.Fits {
		t.Fatalf("does not fit: %+v", res.Failures)
	}
	for _, sc := range res.Scenarios {
		counts := make([]int, len(sc.Pools))
		for p, pr := range sc.Pools {
			counts[p] = pr.NodesRequired
		}
		orders, err := Orders(in, sc.Scenario)
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range orders {
			refs, err := Place(in, sc.Scenario, counts, o)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range refs {
				if r.Pool < 0 {
					t.Fatalf("%s, %s: a pod is Pending on the plan's counts %v", sc.Scenario, o.Name, counts)
				}
			}
		}
	}
}

// TestRoomOnlyPodsAtSearchLimit: when the search stops at its limit (here its work budget, on 1,000 pods under
// MostAllocated) with pods held by room alone still Pending, the failure says the nodes of their pools are full and
// the search stopped (ReasonMaxNodes), not that rules hold them.
func TestRoomOnlyPodsAtSearchLimit(t *testing.T) {
	in, res := mostAllocatedPlan(t, 11, 40, 25, 10)
	found := false
	for _, f := range res.Failures {
		if strings.Contains(f.Message, "rules of the workloads around them") && ruleFree(in, f.Workload) {
			t.Errorf("a workload without rules is said to be held by rules: %s", f.Message)
		}
		if f.Reason == ReasonMaxNodes && strings.Contains(f.Message, "every node of its pools is full") && strings.Contains(f.Message, "the search stopped at its limit") {
			found = true
		}
	}
	if !found {
		t.Errorf("no failure says the search stopped with the pools full: %+v", res.Failures)
	}
}

// mostAllocatedPlan plans benchInput(seed, specs, replicas, pools) under MostAllocated.
func mostAllocatedPlan(t *testing.T, seed uint64, specs, replicas, pools int) (Input, Result) {
	t.Helper()
	in := benchInput(seed, specs, replicas, pools)
	in.Scheduler = ProfileMostAllocated
	return in, mustPlan(t, in)
}

// ruleFree reports whether benchInput's workload of that name has no placement rule (benchInput's only rules are
// its spreads).
func ruleFree(in Input, name string) bool {
	i := slices.IndexFunc(in.Workloads, func(w Workload) bool { return w.Name == name })
	return i >= 0 && in.Workloads[i].Spread.Type == SpreadNone
}

// TestMostAllocatedNoteNamesItsLimits: under most-allocated, a plan that needs more nodes than the best packing does
// not advise the profile it already uses; it names what keeps that profile from the packing. Under the default
// profile the note advises a bin-packing profile.
func TestMostAllocatedNoteNamesItsLimits(t *testing.T) {
	in, res := mostAllocatedPlan(t, 4, 12, 20, 6)
	note := SchedulerNote(res.Scenarios)
	if res.Scenarios[1].NodesRequired <= res.Scenarios[1].NodesOptimal || strings.Contains(note, "a bin-packing profile") ||
		!strings.Contains(note, "workloads kept to pools of their own") {
		t.Errorf("most-allocated, %d nodes where the best packing needs %d: note %q", res.Scenarios[1].NodesRequired,
			res.Scenarios[1].NodesOptimal, note)
	}
	in.Scheduler = ProfileDefault
	res = mustPlan(t, in)
	if note := SchedulerNote(res.Scenarios); res.Scenarios[1].NodesRequired <= res.Scenarios[1].NodesOptimal ||
		!strings.Contains(note, "a bin-packing profile (most-allocated)") {
		t.Errorf("default profile: note %q", note)
	}
	if res.Scenarios[0].Scheduler != ProfileDefault || res.Scenarios[1].Scheduler != ProfileDefault {
		t.Errorf("profiles %q %q", res.Scenarios[0].Scheduler, res.Scenarios[1].Scheduler)
	}
}

// TestStuckCountNamesTheOrderThatLeftMost: the stuck count is the binding order's; when another planned order
// leaves more of the workload's pods Pending on the same node counts, the failure names that order and its count,
// and both counts are what Place gives for those orders on those counts (here a workload with a required
// anti-affinity on the zone against itself and another's against it: the interleaved order leaves 1 of its pods
// Pending, random order #3 leaves 2).
func TestStuckCountNamesTheOrderThatLeftMost(t *testing.T) {
	spread := Workload{Name: "w0", Replicas: 2, MaxReplicas: 2, Requests: Resources{CPUMillicores: 1000}, Labels: map[string]string{"app": "w0"},
		TopologySpread: []TopologySpreadConstraint{{MaxSkew: 1, TopologyKey: zoneLabel, WhenUnsatisfiable: DoNotSchedule, Selector: selectApp("w0")}}}
	away := Workload{Name: "w1", Replicas: 2, MaxReplicas: 2, Requests: Resources{CPUMillicores: 750}, Labels: map[string]string{"app": "w1"},
		PodAffinity: &PodAffinity{AntiRequired: []PodAffinityTerm{{Selector: selectApp("w2"), TopologyKey: zoneLabel}}}}
	self := Workload{Name: "w2", Replicas: 6, MaxReplicas: 6, Requests: Resources{CPUMillicores: 250}, Labels: map[string]string{"app": "w2"},
		PodAffinity: &PodAffinity{AntiRequired: []PodAffinityTerm{{Selector: selectApp("w2"), TopologyKey: zoneLabel}}}}
	in := Input{Pools: []Pool{affinityPool(10)}, Workloads: []Workload{spread, away, self}}
	res := mustPlan(t, in)
	msg := regexp.MustCompile(`^(\d+) pods? of workload "w2" stays? Pending in the steady scenario in the order "([^"]+)" \((\d+) in the order "([^"]+)"; ` +
		`other tie-breaks can leave more\) on every node count the scheduler model tried \(up to (\d+) nodes`)
	var m []string
	for _, f := range res.Failures {
		if f.Workload == "w2" && f.Scenario == ScenarioSteady {
			m = msg.FindStringSubmatch(f.Message)
			t.Log(f.Message)
		}
	}
	if m == nil {
		t.Fatalf("no steady failure of w2 names a second order: %+v", res.Failures)
	}
	bound, most := atoi(t, m[1]), atoi(t, m[3])
	if most <= bound {
		t.Fatalf("the other order's %d is not more than the binding order's %d", most, bound)
	}
	orders, err := Orders(in, ScenarioSteady)
	if err != nil {
		t.Fatal(err)
	}
	counts := []int{atoi(t, m[5])}
	for name, want := range map[string]int{m[2]: bound, m[4]: most} {
		i := slices.IndexFunc(orders, func(o Order) bool { return o.Name == name })
		if i < 0 {
			t.Fatalf("no planned order %q", name)
		}
		refs, err := Place(in, ScenarioSteady, counts, orders[i])
		if err != nil {
			t.Fatal(err)
		}
		pending := 0
		for k, w := range orders[i].Pods {
			if in.Workloads[w].Name == "w2" && refs[k].Pool < 0 {
				pending++
			}
		}
		// Beyond the stuck ones, 3 of the 6 never bind (one per zone), a failure of their own.
		if pending != want+3 {
			t.Errorf("order %q on %v nodes: %d pods of w2 Pending by Place, the failure says %d (+3 that never bind)", name, counts, pending, want)
		}
	}
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}
