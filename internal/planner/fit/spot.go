package fit

import (
	"fmt"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
)

// DisruptSpotLoss loses every node of every spot pool (Pool.CapacityType CapacitySpot) at once, as when the
// cloud reclaims its spot capacity: the pods there must bind on the other (on-demand) pools, each growing
// within its maximum node count; the spot pools add no node. Validate refuses it when no pool is a spot
// pool: asking for it then is a mistake in the pools, not a scenario that holds.
const DisruptSpotLoss DisruptionKind = "spot_loss"

// spotLossCases is the one case of spot_loss: every node of every spot pool; none when the spot pools have
// no node.
func (cl *cluster) spotLossCases(m *model) []lossCase {
	lost := make([]bool, len(cl.nodes))
	any := false
	for id := range cl.nodes {
		if m.pools[cl.nodes[id].pool].p.CapacityType == CapacitySpot {
			lost[id], any = true, true
		}
	}
	if !any {
		return nil
	}
	return []lossCase{{pool: -1, node: -1, zone: -1, lost: lost}}
}

// spotLost says what spot_loss loses, `every spot pool: pool "spot-a" (3 nodes) and pool "spot-b" (1 node)`,
// and names the pool when there is one spot pool with nodes.
func spotLost(m *model, lc lossCase, counts []int) (lost, pool string) {
	var parts []string
	var pools []string
	first := 0
	for p, c := range counts {
		n := 0
		for k := range c {
			if lc.lost[first+k] {
				n++
			}
		}
		first += c
		if n > 0 {
			parts = append(parts, fmt.Sprintf("pool %q (%s)", m.pools[p].p.Name, Plural(n, "node", "nodes")))
			pools = append(pools, m.pools[p].p.Name)
		}
	}
	if len(pools) == 1 {
		pool = pools[0]
	}
	return "every spot pool: " + field.JoinAnd(parts), pool
}

// onDemandPools counts the pools that are not spot pools.
func onDemandPools(m *model) int {
	n := 0
	for p := range m.pools {
		if m.pools[p].p.CapacityType != CapacitySpot {
			n++
		}
	}
	return n
}
