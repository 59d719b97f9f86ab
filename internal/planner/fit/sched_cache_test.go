package fit

import (
	"fmt"
	"reflect"
	"runtime"
	"strings"
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

// TestPlanSameOnOneCPU checks that running the scenarios side by side (and each scenario's orders on two
// clusters) changes nothing: the Result on one CPU is the Result on several, work counts included.
func TestPlanSameOnOneCPU(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for seed := uint64(0); seed <= 4; seed++ {
		in := benchInput(seed, 6, 12, 5)
		switch seed {
		case 0:
			// Failing losses, whose remedies are searched two rises at a time.
			in = spotInput(1, nil)
			in.Disruptions = DisruptionKinds
		case 1:
			in = disrupted(in)
		case 2:
			in = constrained(in)
			in.Scheduler = ProfileMostAllocated
		case 3:
			in = disrupted(constrained(in))
		}
		runtime.GOMAXPROCS(1)
		one, err := Plan(in)
		if err != nil {
			t.Fatal(err)
		}
		runtime.GOMAXPROCS(4)
		several, err := Plan(in)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(one, several) {
			t.Fatalf("seed %d: one CPU and several disagree:\none     %+v\nseveral %+v", seed, one, several)
		}
		if one.Scenarios[0].Strategy != StrategyScheduler || (seed%2 == 1 && len(one.Disruptions) == 0) ||
			(seed == 0 && !strings.Contains(fmt.Sprint(one.Disruptions), "more nodes allowed")) {
			t.Fatalf("seed %d: the model or the disruptions did not run (%q, %d disruptions)", seed,
				one.Scenarios[0].Strategy, len(one.Disruptions))
		}
	}
}
