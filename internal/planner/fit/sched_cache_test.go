package fit

import (
	"reflect"
	"testing"
)

// TestSchedulerCachesChangeNothing: the resource score cache (scores kept per class and node version), the
// memo of runs known to bind (binds), the pool-level skips of the node list (skipFor) and the spread scores'
// normalisation table are exact: every result, on inputs with and without inter-pod
// terms, zone and node spread, taints and both profiles, equals the one computed without them, but for the
// work counted (ModelWork).
func TestSchedulerCachesChangeNothing(t *testing.T) {
	for seed := uint64(1); seed <= 4; seed++ {
		in := benchInput(seed, 6, 12, 5)
		if seed%2 == 0 {
			in = constrained(in)
			in.Scheduler = ProfileMostAllocated
		}
		with, err := Plan(in)
		if err != nil {
			t.Fatal(err)
		}
		limit, skips := maxScoreCache, maxSkipEntries
		maxScoreCache, memoRuns, maxSkipEntries, spreadTable = 0, false, 0, false
		without, err := Plan(in)
		maxScoreCache, memoRuns, maxSkipEntries, spreadTable = limit, true, skips, true
		if err != nil {
			t.Fatal(err)
		}
		// The memo saves runs, so the work done (ModelWork) differs by design; nothing else may.
		for i := range with.Scenarios {
			if with.Scenarios[i].ModelWork > without.Scenarios[i].ModelWork {
				t.Errorf("seed %d: %s: the caches added work: %d, without them %d", seed, with.Scenarios[i].Scenario,
					with.Scenarios[i].ModelWork, without.Scenarios[i].ModelWork)
			}
			with.Scenarios[i].ModelWork, without.Scenarios[i].ModelWork = 0, 0
		}
		if !reflect.DeepEqual(with, without) {
			t.Fatalf("seed %d: the caches changed the result:\nwith    %+v\nwithout %+v", seed, with.Scenarios, without.Scenarios)
		}
		if with.Scenarios[0].Strategy != StrategyScheduler {
			t.Fatalf("seed %d: the scheduler model did not run (%q)", seed, with.Scenarios[0].Strategy)
		}
	}
}
