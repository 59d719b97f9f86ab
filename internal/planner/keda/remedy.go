package keda

import (
	"fmt"
	"strings"
)

// groupRemedies names, for node group g that cannot hold the peak of the autoscalers idx together (KCAP-E2),
// the largest safe maximum of each of them with the others unchanged, and the nodes the peak needs, each
// placed as the check places them (place); "" when no placement can say.
func groupRemedies(in Check, all []autoscaler, idx []int, g NodeGroupCapacity, pl placement) string {
	loads := groupLoads(in, all, idx, g)
	holds := func(ls []groupLoad) bool {
		if b := in.budget; b != nil {
			for _, l := range ls {
				b.remedyPods -= l.count + l.surge + remedyClassWork
			}
		}
		pl, err := place(g, ls, in)
		return err == nil && pl.fits && !pl.atLeast && pl.peak <= g.MaxNodes
	}
	var parts, none []string
	for k, i := range idx {
		s := all[i]
		if b := in.budget; b != nil && b.remedyPods <= 0 {
			parts = append(parts, fmt.Sprintf("the largest safe maximum of the %d autoscalers left was not searched for (each try places the group again, and the tries stopped at the check's work budget)", len(idx)-k))
			break
		}
		try := func(r int64) bool {
			ls := append([]groupLoad(nil), loads...)
			ls[k].count = r
			return holds(ls)
		}
		maxName := "maxReplicaCount"
		if s.hpa {
			maxName = "maxReplicas"
		}
		floor := min(s.floor(), s.PeakReplicas)
		if !try(floor) {
			// Even at its minimum, with the others unchanged, the group does not hold them: lowering this one
			// alone cannot help.
			none = append(none, fmt.Sprintf("no %s of %s at or above its minimum of %d is enough, the others unchanged%s", maxName, s.label(), floor, pausedNone(s.Summary)))
			continue
		}
		lo, hi := floor, s.PeakReplicas
		for lo < hi {
			mid := (lo + hi + 1) / 2
			if try(mid) {
				lo = mid
			} else {
				hi = mid - 1
			}
		}
		if r := s.pausedLower(s.label(), maxName, lo); r != "" {
			parts = append(parts, r+", the others unchanged")
			continue
		}
		parts = append(parts, fmt.Sprintf("the largest safe %s of %s, the others unchanged, is %d", maxName, s.label(), lo))
	}
	switch {
	case pl.fits && !pl.atLeast:
		// The size with which the zones hold the peak too (KCAP-E3), not only the group.
		if r := groupSize(in, all, g, idx, nil, pl.peak); r != "" {
			parts = append(parts, r)
		}
	case pl.fits:
		parts = append(parts, fmt.Sprintf("raise the group's maximum size to at least %d nodes (a bound from the totals: too many pods to place one by one)", pl.peak))
	}
	out := ""
	if len(parts) > 0 {
		out = " Remedies: " + strings.Join(parts, "; or ") + "."
	}
	if len(none) > 0 {
		out += " " + strings.ToUpper(none[0][:1]) + strings.Join(none, "; ")[1:] + "."
	}
	return out
}

// remedyPods bounds the pods needed places one by one to say how many nodes a peak needs; above it the check
// keeps the bound from the totals.
const remedyPods = 20_000

// needed places loads on group g with as many nodes as they can use (one per pod is always enough), to say
// how many the peak needs; false when they cannot be placed (a pod fits no node) or are more than remedyPods.
func needed(in Check, g NodeGroupCapacity, loads []groupLoad) (placement, bool) {
	var pods int64
	for _, l := range loads {
		pods = satAdd(pods, l.count)
	}
	if pods > remedyPods {
		return placement{}, false
	}
	wide := g
	wide.MaxNodes = max(pods, 1)
	pl, err := place(wide, loads, in)
	return pl, err == nil && pl.fits && !pl.atLeast
}

// pausedNone adds, for an autoscaler whose peak the paused-replicas annotation sets, that no lower count of it is
// enough either.
func pausedNone(s Summary) string {
	if !s.paused() {
		return ""
	}
	return ", nor a lower " + AnnotationPausedReplicas + " count"
}
