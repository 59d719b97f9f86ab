package fit

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
)

// anyFitCase draws an input of pools that each take the workloads pinned to them: often a pool per workload or
// alike workloads (where the any-fit bound is the best packing's count and realistic skips its search), sometimes
// mixed sizes, a maximum below the best packing, a zone-spread or multi-pool workload (where it must not skip),
// DaemonSets, either profile, any arrival order and sometimes a disruption (a lost node or zone, spot loss or a
// node upgrade, some workloads with a PodDisruptionBudget).
func anyFitCase(rng *rand.Rand) Input {
	in := Input{Arrival: []ArrivalOrder{ArrivalRollout, ArrivalInOrder, ArrivalLargestFirst}[rng.IntN(3)]}
	if rng.IntN(2) == 0 {
		in.Scheduler = ProfileMostAllocated
	}
	zones := []string{"zone-a", "zone-b", "zone-c"}
	pools := 1 + rng.IntN(3)
	for p := range pools {
		vcpu := int64(2) << rng.IntN(3)
		pl := Pool{Name: fmt.Sprintf("pool-%d", p), MaxNodes: 1 + rng.IntN(40), MinNodes: rng.IntN(2),
			Allocatable: Resources{CPUMillicores: vcpu*1000 - 100, MemoryBytes: (vcpu*4096 - 700) * mi, Pods: 20 + int64(rng.IntN(100))},
			Zones:       zones[:1+rng.IntN(3)]}
		in.Pools = append(in.Pools, pl)
		cpu, mem := int64(100+rng.IntN(1900)), int64(64+rng.IntN(4000))
		alike := rng.IntN(3) > 0
		for k := range 1 + rng.IntN(3) {
			w := wl(fmt.Sprintf("app-%d-%d", p, k), 1+rng.IntN(60), cpu, mem)
			if !alike {
				w.Requests = Resources{CPUMillicores: int64(100 + rng.IntN(1900)), MemoryBytes: int64(64+rng.IntN(4000)) * mi}
			}
			w.MaxReplicas = w.Replicas + rng.IntN(20)
			w.Pools = []string{pl.Name}
			switch rng.IntN(12) {
			case 0:
				w.Spread = Spread{Type: SpreadNode}
			case 1:
				w.Spread = Spread{Type: SpreadZone, MaxSkew: 1}
			case 2:
				w.Pools = nil // free to use every pool
			}
			in.Workloads = append(in.Workloads, w)
		}
	}
	if rng.IntN(2) == 0 {
		in.DaemonSets = []DaemonSet{{Name: "agent", Requests: Resources{CPUMillicores: int64(50 + rng.IntN(300)),
			MemoryBytes: int64(50+rng.IntN(400)) * mi}, TakesPodSlot: true}}
	}
	if rng.IntN(5) == 0 {
		in.Disruptions = []DisruptionKind{DisruptionKinds[rng.IntN(len(DisruptionKinds))]}
		if in.Disruptions[0] == DisruptSpotLoss {
			in.Pools[rng.IntN(len(in.Pools))].CapacityType = CapacitySpot
		}
		for i := range in.Workloads {
			if rng.IntN(2) == 0 {
				in.Workloads[i].DisruptionBudget = &DisruptionBudget{MaxUnavailable: &IntOrPercent{Value: 1}}
			}
		}
	}
	return in
}

// TestAnyFitSkipsSearchSameResult checks that realistic's shortcut (anyFitCounts) answers as the node-count search
// does: the same counts, placements, failures and disruptions, with less of the model's work where it applies.
func TestAnyFitSkipsSearchSameResult(t *testing.T) {
	defer func(v bool) { anyFitSkipsSearch = v }(anyFitSkipsSearch)
	rng := rand.New(rand.NewPCG(23, 21))
	skipped, cappedSkipped := 0, 0
	for i := range 150 {
		in := anyFitCase(rng)
		anyFitSkipsSearch = true
		fast, err := Plan(in)
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		anyFitSkipsSearch = false
		slow, err := Plan(in)
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		less, capped := false, false
		for s := range fast.Scenarios {
			f, w := &fast.Scenarios[s], &slow.Scenarios[s]
			if f.ModelWork < w.ModelWork {
				less = true
				for _, p := range f.Pools {
					capped = capped || p.NodesRequired > p.MaxNodes
				}
			}
			f.ModelWork, w.ModelWork = 0, 0
		}
		if !reflect.DeepEqual(fast, slow) {
			t.Fatalf("case %d: the shortcut and the search disagree:\ninput    %+v\nshortcut %+v\nsearch   %+v", i, in, fast, slow)
		}
		if less {
			skipped++
			if capped {
				cappedSkipped++
			}
		}
	}
	// A third or so of the drawn cases have alike pods on every pool and no rule that stops the shortcut; it must have
	// applied to many of them, also to pools beyond their maximum.
	if skipped < 40 || cappedSkipped < 15 {
		t.Fatalf("the shortcut applied to %d of 150 cases (%d with a pool beyond its maximum): the test checks too little", skipped, cappedSkipped)
	}
	t.Logf("the shortcut applied to %d of 150 cases, %d with a pool beyond its maximum", skipped, cappedSkipped)
}

// TestAnyFitNodesExactForAlikePods checks the claim anyFitCounts rests on: for pods of one size, split over
// several workloads or not, the any-fit bound is the fewest nodes that hold them, ceil(pods / pods per node), which
// leastNodes also gives; one pod per node needs a node per pod.
func TestAnyFitNodesExactForAlikePods(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 23))
	for i := range 2000 {
		alloc := Resources{CPUMillicores: int64(1000 + rng.IntN(31000)), MemoryBytes: int64(1024+rng.IntN(64000)) * mi,
			Pods: int64(1 + rng.IntN(110)), Volumes: int64(rng.IntN(3) * 16)}
		req := Resources{CPUMillicores: int64(rng.IntN(4000)), MemoryBytes: int64(rng.IntN(8000)) * mi, Pods: 1}
		if alloc.Volumes > 0 && rng.IntN(2) == 0 {
			req.Volumes = int64(1 + rng.IntN(3))
		}
		if !toVec(req).fits(toVec(alloc)) {
			continue
		}
		onePerNode := rng.IntN(5) == 0
		var groups []PodGroup
		pods := int64(0)
		for range 1 + rng.IntN(4) {
			n := int64(1 + rng.IntN(300))
			groups = append(groups, PodGroup{Requests: req, Count: n})
			pods += n
		}
		spread := SpreadNone
		if onePerNode {
			groups, spread = groups[:1], SpreadNode
			groups[0].OnePerNode, pods = true, groups[0].Count
		}
		want := ceilDiv(pods, perNode(toVec(req), toVec(alloc), spread, 0))
		got := AnyFitNodes(alloc, groups)
		if got != want {
			t.Fatalf("case %d: AnyFitNodes(%+v, %+v) = %d, want %d", i, alloc, groups, got, want)
		}
		if len(groups) == 1 {
			if least := leastNodes(alloc, groups); least != want {
				t.Fatalf("case %d: leastNodes(%+v, %+v) = %d, want %d", i, alloc, groups, least, want)
			}
		}
	}
}
