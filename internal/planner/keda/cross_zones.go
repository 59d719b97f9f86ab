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
// Its remedies are the largest safe maximum of each autoscaler with a zone spread (lows, from lowerRemedies: with
// it the group holds its peak too; computed here when nil), and the group size from need nodes up (groupSize;
// none when need is 0), the peak needing without nodes without the zone spread.
func checkZones(in Check, all []autoscaler, g NodeGroupCapacity, gp field.Path, idx []int, need, without int64, lows []lowerRemedy) field.Errors {
	msg := zoneText(in, all, g, idx, nil)
	if msg == "" {
		return nil
	}
	// The attribute at fault is the group's size, or its nodes per zone when it sets them.
	at := gp.Child("MaxNodes")
	if g.MaxNodesPerZone != nil {
		at = gp.Child("MaxNodesPerZone")
	}
	if lows == nil {
		lows = lowerRemedies(in, all, idx, g, true)
	}
	// Lowering an autoscaler without a zone spread leaves what the zones must hold as it is.
	var zonal []lowerRemedy
	for _, l := range lows {
		if l.spread {
			if l.leftZonal > 0 {
				l.text = notSearched(l.leftZonal) // the zone rule names only the autoscalers with a zonal spread
			}
			zonal = append(zonal, l)
		}
	}
	var parts []string
	if need > 0 {
		if r := groupSize(in, all, g, idx, nil, need, without); r != "" {
			parts = append(parts, r)
		}
	}
	return field.Errors{rule("KCAP-E3", at, g.Name, "%s.%s", msg, remedies(parts, zonal))}
}

// remedyClause is "; " and the remedy, "" without one.
func remedyClause(r string) string {
	if r == "" {
		return ""
	}
	return "; " + r
}

// zoneShare is what one autoscaler with a zonal DoNotSchedule spread can put in one zone of a group: its fullest
// share, ceil(pods / z), of its pods (the peak and its counted surge).
type zoneShare struct {
	label       string
	share, pods int64
}

// zoneLoads is what each autoscaler of idx with a zonal DoNotSchedule spread can put in one zone of g (ceil((R +
// surge) / z) pods), and the shares that name them in messages.
func zoneLoads(all []autoscaler, g NodeGroupCapacity, idx []int, surges map[int]int64) ([]groupLoad, []zoneShare) {
	z := int64(len(g.Zones))
	if z == 0 {
		return nil, nil
	}
	var loads []groupLoad
	var shares []zoneShare
	for _, i := range idx {
		s := all[i]
		if len(zoneSkews(s.Summary)) == 0 {
			continue
		}
		pods := s.PeakReplicas + surges[i]
		need := resource.CeilDiv(pods, z)
		if need <= 0 {
			continue
		}
		shares = append(shares, zoneShare{label: s.label(), share: need, pods: pods})
		loads = append(loads, groupLoad{name: s.loadName(), req: *s.PodRequests, count: need})
	}
	return loads, shares
}

// zoneNeedText says what the zone spreads ask of every zone: room for each workload's fullest share.
func zoneNeedText(shares []zoneShare, z int) string {
	if len(shares) == 1 {
		s := shares[0]
		return fmt.Sprintf("with its zone spread, every zone needs room for %s pods of %s (%s over %d zones, and the smallest may get the fullest share)",
			resource.Group(s.share), s.label, resource.Group(s.pods), z)
	}
	parts := make([]string, len(shares))
	for k, s := range shares {
		if k == 0 {
			parts[k] = fmt.Sprintf("%s pods of %s", resource.Group(s.share), s.label)
		} else {
			parts[k] = fmt.Sprintf("%s of %s", resource.Group(s.share), s.label)
		}
	}
	return fmt.Sprintf("with their zone spreads, every zone needs room for %s (each one's pods over %d zones, and the smallest may get each one's fullest share)",
		field.JoinAnd(parts), z)
}

// groupSize is the remedy that resizes group g so that it holds the autoscalers idx, each with its surges[i]
// surge pods: the least maximum size from need (the nodes the whole group needs) up with which every zone
// holds what the zone spread can put in it (zoneText passes) and the scheduler model places the pods (with the
// counted surge when surges is given) on at most that many nodes, and the nodes per zone when the group's
// max_nodes_per_zone is too few. When the zones ask for more than the without nodes the pods need without the
// zone spread, it says so. It never names the size the group already has; "" when no size can say (a pod fits
// no node, or too many pods to place).
func groupSize(in Check, all []autoscaler, g NodeGroupCapacity, idx []int, surges map[int]int64, need, without int64) string {
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
	// The bounds above are exact for the model; a few more nodes if the placement says otherwise.
	held := func() bool {
		if zoneText(in, all, h, idx, surges) != "" {
			return false
		}
		pl, err := place(h, groupLoads(in, all, idx, h), in)
		nodes := pl.peak
		if surges != nil {
			nodes = pl.surge
		}
		return err == nil && pl.fits && !pl.atLeast && nodes <= h.MaxNodes
	}
	ok := held()
	for range 4 * max(z, 1) {
		if ok {
			break
		}
		m++
		h.MaxNodes = max(m, g.MaxNodes)
		ok = held()
	}
	if !ok {
		return ""
	}
	switch {
	case m > g.MaxNodes && perZone > 0:
		return fmt.Sprintf("raise the group's maximum size to %d nodes and its nodes per zone to %d (its %d nodes per zone are too few)", m, perZone, *g.MaxNodesPerZone)
	case m > g.MaxNodes && z > 0 && without > 0 && m > without:
		return fmt.Sprintf("raise the group's maximum size to %d nodes (%d per zone for the zone spread; %d without it)", m, slices.Min(zoneNodeCaps(h)), without)
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
	loads, shares := zoneLoads(all, g, idx, surges)
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
		return fmt.Sprintf("node group %s has at most %d nodes in its smallest zone, but %s; %s",
			strconv.Quote(g.Name), perZone, zoneNeedText(shares, int(z)), placedText(pl, in, " there"))
	}
	return ""
}
