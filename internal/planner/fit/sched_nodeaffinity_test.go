package fit

import (
	"strings"
	"testing"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
)

// prefer returns one preferred node affinity term of the given weight.
func prefer(weight int, key string, op NodeSelectorOperator, values ...string) WeightedNodeSelectorTerm {
	return WeightedNodeSelectorTerm{Weight: weight, Term: term(key, op, values...)[0]}
}

// spotPreferenceInput is the case the NodeAffinity score changes: workload x may only use pool "spot" (a
// required node selector), workload y may use "spot" and "general" (four fixed nodes) and, with preferSpot,
// prefers "spot". Every pod asks 1 CPU of a 4-CPU node; 16 pods need 4 spot nodes when every y pod goes
// there.
func spotPreferenceInput(spotMax int, preferSpot bool, profile SchedulerProfile) Input {
	spot := pool("spot", 4000, 16000, 0, spotMax)
	spot.Labels = map[string]string{"pool": "spot"}
	general := pool("general", 4000, 16000, 4, 4)
	general.Labels = map[string]string{"pool": "general"}
	x := wl("x", 8, 1000, 1000)
	x.NodeSelector = map[string]string{"pool": "spot"}
	y := wl("y", 8, 1000, 1000)
	if preferSpot {
		y.PreferredNodeAffinity = []WeightedNodeSelectorTerm{prefer(100, "pool", NodeIn, "spot")}
	}
	return Input{Pools: []Pool{spot, general}, Workloads: []Workload{x, y}, Scheduler: profile}
}

// TestPreferredNodeAffinitySizing: a workload that prefers the pool another one is pinned to fills it first
// (the NodeAffinity score, weight 2 × 100, outweighs every resource and spread score), so the pinned workload
// needs the spot nodes the preferring one takes. Without the preference the model spreads y over both pools
// and 3 spot nodes are enough; with it, 3 spot nodes leave x short (the real scheduler's result, checked by the
// oracle's TestPreferredNodeAffinityNeverBelowRealScheduler) and the count is 4.
func TestPreferredNodeAffinitySizing(t *testing.T) {
	tests := []struct {
		name      string
		spotMax   int
		prefer    bool
		profile   SchedulerProfile
		wantFits  bool
		wantSpot  int // spot nodes required
		wantYSpot int // pods of y on spot, -1: not checked
	}{
		{"no preference, default", 20, false, ProfileDefault, true, 3, -1},
		{"no preference, most-allocated", 20, false, ProfileMostAllocated, true, 3, -1},
		{"preference, default", 20, true, ProfileDefault, true, 4, 8},
		{"preference, most-allocated", 20, true, ProfileMostAllocated, true, 4, 8},
		{"no preference, spot capped at 3", 3, false, ProfileDefault, true, 3, -1},
		{"preference, spot capped at 3: x left short", 3, true, ProfileDefault, false, 4, -1},
		{"preference, spot capped at 3, most-allocated: x left short", 3, true, ProfileMostAllocated, false, 4, -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := mustPlan(t, spotPreferenceInput(tt.spotMax, tt.prefer, tt.profile))
			if res.Fits != tt.wantFits {
				t.Fatalf("Fits = %v, want %v; failures %+v", res.Fits, tt.wantFits, res.Failures)
			}
			if got := poolResult(t, res, ScenarioSteady, "spot").NodesRequired; got != tt.wantSpot {
				t.Errorf("spot nodes required = %d, want %d", got, tt.wantSpot)
			}
			if tt.wantYSpot >= 0 {
				pl := placement(t, res, ScenarioSteady, "y")
				onSpot := 0
				for _, pp := range pl.Pools {
					if pp.Pool == "spot" {
						onSpot = pp.Pods
					}
				}
				if onSpot != tt.wantYSpot {
					t.Errorf("pods of y on spot = %d, want %d (%+v)", onSpot, tt.wantYSpot, pl.Pools)
				}
			}
			if !tt.wantFits {
				f, ok := failuresOf(res, ScenarioSteady, "x")["spot"]
				if !ok || f.Reason != ReasonMaxNodes {
					t.Errorf("failure of x on spot = %+v, want %s", f, ReasonMaxNodes)
				}
			}
		})
	}
	// The count the model gave without the preference leaves pods of x Pending once y prefers spot: the rollout
	// order interleaves x and y, and y takes the spot room first.
	in := spotPreferenceInput(20, true, ProfileDefault)
	orders, err := Orders(in, ScenarioSteady)
	if err != nil {
		t.Fatal(err)
	}
	refs, err := Place(in, ScenarioSteady, []int{3, 4}, orders[0])
	if err != nil {
		t.Fatal(err)
	}
	pendingX := 0
	for i, r := range refs {
		if r.Pool < 0 && orders[0].Pods[i] == 0 {
			pendingX++
		}
	}
	if pendingX == 0 {
		t.Errorf("3 spot nodes bound every pod of x in order %s although y prefers spot", orders[0].Name)
	}
}

// TestPreferredNodeAffinityScores checks the NodeAffinity score of ScoreReplay against the plugin's rules: the
// sum of the weights of the terms a node matches (its pool's labels and its zone's label), normalised to
// 100 × s / max over the feasible nodes, all 0 when no feasible node matches, and 0 for a hostname term (no
// planned node has a known hostname) or an empty term.
func TestPreferredNodeAffinityScores(t *testing.T) {
	spot := pool("spot", 4000, 16000, 2, 2)
	spot.Labels, spot.Zones = map[string]string{"pool": "spot"}, []string{"a", "b"}
	general := pool("general", 4000, 16000, 2, 2)
	general.Labels, general.Zones = map[string]string{"pool": "general"}, []string{"a", "b"}
	// Node order of ScoreReplay: spot/a, spot/b, general/a, general/b.
	tests := []struct {
		name   string
		terms  []WeightedNodeSelectorTerm
		filled bool    // spot/a is full when the pod is scored
		want   []int64 // per node, -1 for an infeasible node
	}{
		{"no preference", nil, false, []int64{0, 0, 0, 0}},
		{"one term", []WeightedNodeSelectorTerm{prefer(1, "pool", NodeIn, "spot")}, false, []int64{100, 100, 0, 0}},
		{"max 0: no node matches", []WeightedNodeSelectorTerm{prefer(50, "pool", NodeIn, "gpu")}, false, []int64{0, 0, 0, 0}},
		{"several terms and a zone term", []WeightedNodeSelectorTerm{prefer(30, "pool", NodeIn, "spot"), prefer(70, zoneLabel, NodeIn, "a")},
			false, []int64{100, 30, 70, 0}},
		{"normalised over the feasible nodes", []WeightedNodeSelectorTerm{prefer(30, "pool", NodeIn, "spot"), prefer(70, zoneLabel, NodeIn, "a")},
			true, []int64{-1, 42, 100, 0}}, // 100 × 30 / 70 = 42 (integer division, as DefaultNormalizeScore)
		{"NotIn", []WeightedNodeSelectorTerm{prefer(10, "pool", NodeNotIn, "spot")}, false, []int64{0, 0, 100, 100}},
		{"hostname matches no planned node", []WeightedNodeSelectorTerm{prefer(10, "kubernetes.io/hostname", NodeIn, "node-1")}, false, []int64{0, 0, 0, 0}},
		{"an empty term scores nothing", []WeightedNodeSelectorTerm{{Weight: 100}, prefer(10, "pool", NodeIn, "general")}, false, []int64{0, 0, 100, 100}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			filler := wl("filler", 1, 4000, 1000)
			filler.NodeSelector = map[string]string{"pool": "spot"}
			pod := wl("pod", 1, 500, 500)
			pod.PreferredNodeAffinity = tt.terms
			in := Input{Pools: []Pool{spot, general}, Workloads: []Workload{filler, pod}}
			o := Order{Pods: []int{1}}
			placed := []NodeRef{{Pool: -1, Index: -1}}
			if tt.filled {
				o.Pods = []int{0, 1}
				placed = []NodeRef{{Pool: 0, Index: 0}, {Pool: -1, Index: -1}}
			}
			// The same pod without preferences, for the totals.
			plain := in
			plain.Workloads = []Workload{filler, wl("pod", 1, 500, 500)}
			var got, base []NodeScore
			if err := ScoreReplay(in, ScenarioSteady, []int{2, 2}, o, placed, func(i int, s []NodeScore) { got = s }); err != nil {
				t.Fatal(err)
			}
			if err := ScoreReplay(plain, ScenarioSteady, []int{2, 2}, o, placed, func(i int, s []NodeScore) { base = s }); err != nil {
				t.Fatal(err)
			}
			for n, s := range got {
				want := tt.want[n]
				if !s.Feasible {
					if want != -1 {
						t.Errorf("node %+v infeasible", s.Node)
					}
					continue
				}
				if s.NodeAffinity != want {
					t.Errorf("node %+v: NodeAffinity = %d, want %d", s.Node, s.NodeAffinity, want)
				}
				if s.Total != base[n].Total+2*want {
					t.Errorf("node %+v: Total = %d, want %d + 2 × %d", s.Node, s.Total, base[n].Total, want)
				}
			}
		})
	}
}

// TestValidatePreferredNodeAffinity: a weight outside 1–100 and an expression the scheduler cannot parse are
// each one error, at the field at fault.
func TestValidatePreferredNodeAffinity(t *testing.T) {
	tests := []struct {
		name     string
		terms    []WeightedNodeSelectorTerm
		wantPath string
		wantMsg  string
	}{
		{"weight 0", []WeightedNodeSelectorTerm{prefer(0, "pool", NodeIn, "spot")},
			"Workloads[0].PreferredNodeAffinity[0].Weight", `the weight 0 of a preferred node affinity term of workload "api" must be between 1 and 100`},
		{"weight 101", []WeightedNodeSelectorTerm{prefer(1, "pool", NodeIn, "spot"), prefer(101, "pool", NodeIn, "spot")},
			"Workloads[0].PreferredNodeAffinity[1].Weight", "must be between 1 and 100"},
		{"Gt without an integer", []WeightedNodeSelectorTerm{prefer(5, "cores", NodeGt, "many")},
			"Workloads[0].PreferredNodeAffinity[0].Term.MatchExpressions[0]", `preferred node affinity expression "cores Gt" of workload "api" is invalid`},
		{"In without values", []WeightedNodeSelectorTerm{prefer(5, "pool", NodeIn)},
			"Workloads[0].PreferredNodeAffinity[0].Term.MatchExpressions[0]", `"pool In"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := wl("api", 1, 100, 100)
			w.PreferredNodeAffinity = tt.terms
			_, err := Plan(Input{Pools: []Pool{pool("p", 1000, 1000, 0, 1)}, Workloads: []Workload{w}})
			es := field.As(err)
			if len(es) != 1 || es[0].Path.String() != tt.wantPath {
				t.Fatalf("errors = %v, want one at %s", err, tt.wantPath)
			}
			if !strings.Contains(es[0].Detail, tt.wantMsg) {
				t.Errorf("detail %q does not contain %q", es[0].Detail, tt.wantMsg)
			}
		})
	}
	w := wl("api", 1, 100, 100)
	w.PreferredNodeAffinity = []WeightedNodeSelectorTerm{prefer(1, "pool", NodeIn, "spot"), prefer(100, zoneLabel, NodeExists), {Weight: 50}}
	if _, err := Plan(Input{Pools: []Pool{pool("p", 1000, 1000, 0, 1)}, Workloads: []Workload{w}}); err != nil {
		t.Errorf("valid preferences: %v", err)
	}
}
