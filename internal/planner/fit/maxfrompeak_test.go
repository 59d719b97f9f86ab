package fit

import (
	"math/rand/v2"
	"reflect"
	"testing"
)

// TestMaxFromPeakAsIfGiven: a pool whose maximum follows from the plan (Pool.MaxFromPeak) is planned as the same
// pool with that maximum given: the same counts and placements, and the same headroom; its reported maximum is
// MaxFromPeakNodes of its counts in both scenarios (drawn inputs of anyFitCase, without disruptions, which are
// checked within MaxNodes). The plans are compared for one pool, a node group's shape: where pods may choose between
// pools, a pool's maximum steers the choice, so a pool bounded only by the search's bound plans otherwise.
func TestMaxFromPeakAsIfGiven(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 2026))
	compared, multi := 0, 0
	for i := 0; compared < 20 && i < 400; i++ {
		in := anyFitCase(rng)
		if len(in.Pools) > 1 {
			if multi++; multi > 10 {
				continue // enough multi-pool inputs checked for their maxima
			}
		}
		in.Disruptions = nil
		for p := range in.Pools {
			in.Pools[p].MaxNodes = 400
			in.Pools[p].MaxFromPeak = true
			in.Pools[p].MaxFromPeakPercent = []int{0, 10, 50, 1000}[rng.IntN(4)]
		}
		computed, err := Plan(in)
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		given := in
		given.Pools = append([]Pool(nil), in.Pools...)
		for p := range given.Pools {
			pool := &given.Pools[p]
			steady, peak := computed.Scenarios[0].Pools[p].NodesRequired, computed.Scenarios[1].Pools[p].NodesRequired
			want := min(MaxFromPeakNodes(peak, steady, pool.MinNodes, pool.MaxFromPeakPercent), pool.MaxNodes)
			for _, sr := range computed.Scenarios {
				if sr.Pools[p].MaxNodes != want {
					t.Fatalf("case %d: pool %s reports maximum %d in the %s scenario, want %d (steady %d, peak %d, +%d%%)", i,
						pool.Name, sr.Pools[p].MaxNodes, sr.Scenario, want, steady, peak, pool.MaxFromPeakPercent)
				}
			}
			pool.MaxNodes, pool.MaxFromPeak, pool.MaxFromPeakPercent = want, false, 0
		}
		if !computed.Fits || len(in.Pools) > 1 {
			continue
		}
		ref, err := Plan(given)
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		for s := range ref.Scenarios {
			computed.Scenarios[s].ModelWork, ref.Scenarios[s].ModelWork = 0, 0
		}
		if !reflect.DeepEqual(computed.Scenarios, ref.Scenarios) {
			t.Fatalf("case %d: the computed maximum plans otherwise than the same maximum given:\ncomputed %+v\ngiven    %+v", i, computed.Scenarios, ref.Scenarios)
		}
		if !reflect.DeepEqual(computed.Headroom, ref.Headroom) {
			t.Fatalf("case %d: headroom within the computed maximum %+v, within the same maximum given %+v", i, computed.Headroom, ref.Headroom)
		}
		compared++
	}
	if compared < 20 {
		t.Fatalf("only %d drawn inputs had one pool, fitted and were compared", compared)
	}
}
