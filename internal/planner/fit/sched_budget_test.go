package fit

import (
	"fmt"
	"strings"
	"testing"
)

// budgetInput is 20 workloads of 10 pods on one pool of 8 vCPU that never reaches its maximum; with terms, each
// workload has termsPerNode preferred anti-affinity terms that select no pod (they change no score, only the
// work).
func budgetInput(terms bool) Input {
	in := Input{Pools: []Pool{{Name: "p", MaxNodes: 1000, Allocatable: Resources{CPUMillicores: 8000, MemoryBytes: 32000 * mi, Pods: 110}}}}
	for i := range 20 {
		w := wl(fmt.Sprintf("w%02d", i), 10, int64(100+50*(i%5)), int64(200+300*(i%4)))
		if terms {
			w.PodAffinity = &PodAffinity{}
			for range termsPerNode {
				w.PodAffinity.AntiPreferred = append(w.PodAffinity.AntiPreferred, WeightedPodAffinityTerm{Weight: 5, Term: PodAffinityTerm{
					Selector: LabelSelector{MatchLabels: map[string]string{"app": "none"}}, TopologyKey: hostnameKey}})
			}
		}
		in.Workloads = append(in.Workloads, w)
	}
	return in
}

// TestSchedulerBudget: a node counts once more per termsPerNode terms the pod's filter and score read there
// (nodeCost), so terms that change nothing double the work of the same search; the first round is estimated with that
// cost, so under a budget the plan without terms fits in, the plan with them is not modelled; and the other
// random tie-breaks are checked only as far as the budget left pays for, which the note says.
func TestSchedulerBudget(t *testing.T) {
	plain, withTerms := mustPlan(t, budgetInput(false)), mustPlan(t, budgetInput(true))
	for i, sc := range plain.Scenarios {
		tc := withTerms.Scenarios[i]
		if sc.SchedulerNote != "" || tc.SchedulerNote != "" || sc.NodesRequired != tc.NodesRequired || tc.ModelWork != 2*sc.ModelWork {
			t.Fatalf("%s: terms that select nothing must double the work only: nodes %d and %d, work %d and %d, notes %q, %q",
				sc.Scenario, sc.NodesRequired, tc.NodesRequired, sc.ModelWork, tc.ModelWork, sc.SchedulerNote, tc.SchedulerNote)
		}
	}
	// One run of the steady pods on the best packing's nodes (fewer than 100: every node is filtered and scored).
	steady := plain.Scenarios[0]
	run := 2 * int64(steady.Pods) * int64(steady.NodesOptimal)
	saved := schedulerBudget
	defer func() { schedulerBudget = saved }()
	schedulerBudget = 6 * run // the first round of the four orders: 4 runs without the terms, 8 with them
	low, lowTerms := mustPlan(t, budgetInput(false)), mustPlan(t, budgetInput(true))
	s, st := low.Scenarios[0], lowTerms.Scenarios[0]
	if !strings.Contains(st.SchedulerNote, "the scheduler model was not run") || st.ModelWork != 0 {
		t.Fatalf("with the terms the first round exceeds the budget, so the model must not run: work %d, note %q", st.ModelWork, st.SchedulerNote)
	}
	if !strings.Contains(s.SchedulerNote, "of the 32 other random tie-breaks of the orders (the scheduler model's work budget ran out)") ||
		s.ModelWork >= steady.ModelWork || s.ModelWork > schedulerBudget+2*run {
		t.Fatalf("the tie-breaks must stop at the budget %d (a run is about %d): work %d (%d with the whole budget), note %q",
			schedulerBudget, run, s.ModelWork, steady.ModelWork, s.SchedulerNote)
	}
}

// TestDisruptionWorkCountsPlacements: every replay of a disruption resets the cluster and places the
// surviving pods again, and both count towards the disruptions' budget (nodeWork): a pool of 200 nodes of one
// pod each, upgraded one node at a time, replays 200 batches of about 400 nodes and 200 pods, about 5 million
// units with them (about a million without), so a budget of 2.5 million leaves it unchecked.
func TestDisruptionWorkCountsPlacements(t *testing.T) {
	in := Input{Pools: []Pool{{Name: "p", MaxNodes: 1000, Allocatable: Resources{CPUMillicores: 8000, MemoryBytes: 32000 * mi, Pods: 110}}},
		Workloads: []Workload{wl("big", 200, 7000, 1000)}, Disruptions: []DisruptionKind{DisruptNodeUpgrade}}
	full := mustPlan(t, in)
	if d := full.Disruptions[0]; !d.Checked || !d.Fits {
		t.Fatalf("within the budget the upgrade must be checked and go through: %+v", d)
	}
	saved := disruptionBudget
	disruptionBudget = 2_500_000
	defer func() { disruptionBudget = saved }()
	res := mustPlan(t, in)
	if d := res.Disruptions[0]; d.Checked || d.Fits || res.Fits {
		t.Fatalf("the replays' resets and placements exceed a budget of %d, so the upgrade must fail unchecked: %+v", disruptionBudget, d)
	}
}
