package keda

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/resource"
)

// The capacity check's zone rule (keda.md §9.2): what the zone spread can put in one zone of a shared group, and
// the group size that holds it.

// checkZones runs §9.2 for the workloads on g together: every workload with a zonal DoNotSchedule spread has at
// least ceil(R / z) pods in some zone, and kube-scheduler, balancing each workload on its own, can put every
// workload's fullest share in one zone, so those pods must pack onto the nodes of the zone with the fewest
// (zoneNodeCaps).
// Its remedy is the group size from need nodes up (groupSize); none when need is 0.
func checkZones(in Check, all []autoscaler, g NodeGroupCapacity, gp field.Path, idx []int, surges map[int]int64, need int64) field.Errors {
	if msg := zoneText(in, all, g, idx, surges); msg != "" {
		// The attribute at fault is the group's size, or its nodes per zone when it sets them.
		at := gp.Child("MaxNodes")
		if g.MaxNodesPerZone != nil {
			at = gp.Child("MaxNodesPerZone")
		}
		remedy := ""
		if need > 0 {
			remedy = remedyClause(groupSize(in, all, g, idx, surges, need))
		}
		return field.Errors{rule("KCAP-E3", at, g.Name, "%s%s", msg, remedy)}
	}
	return nil
}

// remedyClause is "; " and the remedy, "" without one.
func remedyClause(r string) string {
	if r == "" {
		return ""
	}
	return "; " + r
}

// zoneLoads is what each autoscaler of idx with a zonal DoNotSchedule spread can put in one zone of g (ceil((R +
// surge) / z) pods), and the parts that name them in messages.
func zoneLoads(all []autoscaler, g NodeGroupCapacity, idx []int, surges map[int]int64) ([]groupLoad, []string) {
	z := int64(len(g.Zones))
	if z == 0 {
		return nil, nil
	}
	var loads []groupLoad
	var parts []string
	for _, i := range idx {
		s := all[i]
		var need int64
		for _, sc := range s.ZonalSpread {
			if sc.TopologyKey != ZoneKey || sc.WhenUnsatisfiable != "DoNotSchedule" {
				continue
			}
			need = resource.CeilDiv(s.PeakReplicas+surges[i], z)
		}
		if need <= 0 {
			continue
		}
		parts = append(parts, fmt.Sprintf("%s %d", s.label(), need))
		loads = append(loads, groupLoad{name: s.loadName(), req: *s.PodRequests, count: need})
	}
	return loads, parts
}

// groupSize is the remedy that resizes group g so that it holds the autoscalers idx, each with its surges[i]
// surge pods: the least maximum size from need (the nodes the whole group needs) up with which every zone
// holds what the zone spread can put in it (zoneText passes), and the nodes per zone when the group's
// max_nodes_per_zone is too few. It never names the size the group already has; "" when no size can say (a
// pod fits no node, or too many pods to place).
func groupSize(in Check, all []autoscaler, g NodeGroupCapacity, idx []int, surges map[int]int64, need int64) string {
	m, perZone := max(need, 1), int64(0)
	z := int64(len(g.Zones))
	if loads, _ := zoneLoads(all, g, idx, surges); len(loads) > 0 {
		zone := g
		zone.Zones = nil
		pl, ok := needed(in, zone, loads)
		if !ok {
			return ""
		}
		// The smallest zone has floor(max_nodes / z) nodes, at most max_nodes_per_zone (zoneNodeCaps).
		m = max(m, z*pl.peak)
		if g.MaxNodesPerZone != nil && *g.MaxNodesPerZone < pl.peak {
			perZone = pl.peak
		}
	}
	h := g
	h.MaxNodes = max(m, g.MaxNodes)
	if perZone > 0 {
		h.MaxNodesPerZone = &perZone
	}
	// The bound above is exact for the model; a few more nodes if the placement says otherwise.
	for range 4 * max(z, 1) {
		if zoneText(in, all, h, idx, surges) == "" {
			break
		}
		m++
		h.MaxNodes = max(m, g.MaxNodes)
	}
	if zoneText(in, all, h, idx, surges) != "" {
		return ""
	}
	switch {
	case m > g.MaxNodes && perZone > 0:
		return fmt.Sprintf("raise the group's maximum size to %d nodes and its nodes per zone to %d (its %d nodes per zone are too few)", m, perZone, *g.MaxNodesPerZone)
	case m > g.MaxNodes:
		return fmt.Sprintf("raise the group's maximum size to %d nodes", m)
	case perZone > 0:
		return fmt.Sprintf("raise the group's nodes per zone to %d (its %d nodes per zone are too few; its maximum size of %d nodes is enough)", perZone, *g.MaxNodesPerZone, g.MaxNodes)
	}
	return ""
}

// zoneText is checkZones' finding, "" when the zones hold the workloads, each counted with its surges[i]
// surge pods (a rollout at peak; nil: the peak alone).
func zoneText(in Check, all []autoscaler, g NodeGroupCapacity, idx []int, surges map[int]int64) string {
	z := int64(len(g.Zones))
	if z == 0 {
		return ""
	}
	perZone := slices.Min(zoneNodeCaps(g))
	loads, parts := zoneLoads(all, g, idx, surges)
	if len(loads) == 0 {
		return ""
	}
	zone := g
	zone.MaxNodes, zone.Zones = perZone, nil
	pl, err := place(zone, loads, in)
	if err != nil {
		return err.Error()
	}
	if !pl.fits || pl.peak > perZone {
		return fmt.Sprintf("node group %s has at most %d nodes in its smallest zone, but with their zone spread the workloads can put at least %s pods in one zone: %s",
			strconv.Quote(g.Name), perZone, field.JoinAnd(parts), placedText(pl, in))
	}
	return ""
}
