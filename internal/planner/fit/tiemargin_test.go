package fit

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestTieMargin: on random single-pool cases with zone spread whose count the search grew beyond the best
// packing's, the count carries tieMargin more nodes when the work budget paid for fewer than tieMarginSeeds
// variants per order, says so, and every planned order binds on the count without them; with more variants
// (the default budget on most of these small cases) it carries none.
func TestTieMargin(t *testing.T) {
	defer func(b int64) { schedulerBudget = b }(schedulerBudget)
	rng := rand.New(rand.NewPCG(23, 5))
	found, plain := 0, 0
	for trial := 0; trial < 400 && found < 4; trial++ {
		rc := newRandomCase(rng, 2+rng.IntN(6), 40, func(alloc int64) int64 { return alloc/20 + rng.Int64N(alloc/3) }, 110)
		rc.in.Pools[0].Zones = []string{"a", "b", "c"}
		for w := range rc.in.Workloads {
			if w%2 == 0 {
				rc.in.Workloads[w].Spread = Spread{Type: SpreadZone, MaxSkew: 1}
			}
		}
		schedulerBudget = 60_000_000
		full, err := Plan(rc.in)
		if err != nil {
			t.Fatal(err)
		}
		if m := full.Scenarios[0].Margin; m != "" {
			// The margin goes by tieBreakCount's variants; the message gives the ones checked: as many, or
			// tieBreakChecks' when the best packing's counts were checked under more before the search grew on.
			seeds, checks := marginSeeds(t, rc.in, full.Scenarios[0])
			var draws int
			if _, err := fmt.Sscanf(m[strings.Index(m, "under ")+len("under "):], "%d draws", &draws); err != nil || seeds >= tieMarginSeeds || draws != checks && draws != seeds {
				t.Errorf("trial %d: a margin with %d variants per order by the margin's count, %d checked: %q", trial, seeds, checks, m)
			}
		} else if full.Scenarios[0].BoundBy != "" {
			plain++
		}
		// A budget that pays for tieBreakSeeds variants per order only (and still for the search).
		schedulerBudget = 1_500_000
		res, err := Plan(rc.in)
		if err != nil {
			t.Fatal(err)
		}
		sr := res.Scenarios[0]
		if sr.BoundBy == "" || sr.SchedulerNote != "" {
			continue
		}
		found++
		var draws int
		seeds, checks := marginSeeds(t, rc.in, sr)
		if _, err := fmt.Sscanf(sr.Margin, "plus 2 nodes per pool the search grew: the model checked the count under %d draws", &draws); err != nil || seeds >= tieMarginSeeds || draws != checks && draws != seeds {
			t.Errorf("trial %d: margin %q (%d draws, %d by the margin's count, %v)", trial, sr.Margin, draws, seeds, err)
		}
		if note := SchedulerNote(res.Scenarios); !strings.Contains(note, sr.BoundBy+", "+sr.Margin) {
			t.Errorf("trial %d: the report's note %q does not give the margin after the worst order", trial, note)
		}
		orders, err := Orders(rc.in, ScenarioSteady)
		if err != nil {
			t.Fatal(err)
		}
		counts := []int{sr.Pools[0].NodesRequired - tieMargin}
		for _, o := range orders {
			refs, err := Place(rc.in, ScenarioSteady, counts, o)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range refs {
				if r.Pool < 0 {
					t.Errorf("trial %d: %s leaves a pod Pending on %v nodes, without the margin", trial, o.Name, counts)
					break
				}
			}
		}
		t.Logf("trial %d: %d nodes (best packing %d; %d with the default budget), bound by %q, %.60s…", trial, sr.Pools[0].NodesRequired,
			sr.Pools[0].NodesOptimal, full.Scenarios[0].Pools[0].NodesRequired, sr.BoundBy, sr.Margin)
	}
	if found == 0 || plain == 0 {
		t.Fatalf("%d cases with a margin on the small budget, %d grown without one on the default budget: the draw should give both", found, plain)
	}
}

// marginSeeds returns the variants per order the margin of the steady scenario sr of in goes by (tieBreakCount) and
// those checked (tieBreakChecks), on the best packing's nodes as the search counts them.
func marginSeeds(t *testing.T, in Input, sr ScenarioResult) (seeds, checks int) {
	t.Helper()
	orders, err := Orders(in, ScenarioSteady)
	if err != nil {
		t.Fatal(err)
	}
	nodes := 0
	for _, p := range sr.Pools {
		nodes += p.NodesOptimal
	}
	return tieBreakCount(len(orders), sr.Pods, nodes), tieBreakChecks(len(orders), sr.Pods, nodes)
}

// TestTieMarginInReport: the report's node table says its counts carry the margin exactly when a scenario has
// one.
func TestTieMarginInReport(t *testing.T) {
	res := Result{Scenarios: []ScenarioResult{{Scenario: ScenarioSteady, BoundBy: "random order #1"}}}
	const phrase = "with the margin the scheduler note below gives"
	if strings.Contains(Report(res), phrase) {
		t.Error("a report without a margin mentions one")
	}
	res.Scenarios[0].Margin = "plus 2 nodes per pool the search grew: the model checked the count under 8 draws of its tie-breaks per order"
	if r := Report(res); !strings.Contains(r, phrase) || !strings.Contains(r, "random order #1, plus 2 nodes per pool") {
		t.Errorf("the report does not give the margin:\n%s", r)
	}
}

// TestTieMarginNodes: tieMargin up to tieMargin × tieMarginPer nodes (the sizes measured), one per tieMarginPer above.
func TestTieMarginNodes(t *testing.T) {
	for _, c := range []struct{ n, want int }{{1, tieMargin}, {452, tieMargin}, {tieMargin * tieMarginPer, tieMargin},
		{tieMargin*tieMarginPer + 1, tieMargin + 1}, {4 * tieMarginPer, 4}} {
		if got := tieMarginNodes(c.n); got != c.want {
			t.Errorf("tieMarginNodes(%d) = %d, want %d", c.n, got, c.want)
		}
	}
}

// TestTieBreakChecks: the best packing's counts, which get no margin, are checked under up to four times the
// variants the margin goes by, never fewer, at most maxTieBreakSeeds.
func TestTieBreakChecks(t *testing.T) {
	for _, tc := range []struct{ orders, pods, nodes int }{{8, 252, 32}, {4, 1000, 100}, {4, 30, 5}, {8, 100_000, 10_000}, {1, 0, 0}} {
		seeds, checks := tieBreakCount(tc.orders, tc.pods, tc.nodes), tieBreakChecks(tc.orders, tc.pods, tc.nodes)
		if checks < seeds || checks > maxTieBreakSeeds || checks > 4*seeds+4 && checks != maxTieBreakSeeds {
			t.Errorf("%+v: %d checks for %d seeds", tc, checks, seeds)
		}
	}
	if s, c := tieBreakCount(8, 252, 32), tieBreakChecks(8, 252, 32); s != 29 || c != 116 {
		t.Errorf("seed 496's input: %d seeds, %d checks; want 29 and 116", s, c)
	}
}
