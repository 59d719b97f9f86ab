package keda

import (
	"fmt"
	"strings"
)

// lowerRemedy is what lowering one autoscaler's maximum does for a node group that does not hold its peak: the
// largest safe maximum, or that none is enough.
type lowerRemedy struct {
	text string
	// none is true when no maximum of it at or above its floor is enough, the others unchanged.
	none bool
	// spread is true when the autoscaler has a zonal DoNotSchedule spread, so that lowering it can clear the
	// zone rule (KCAP-E3); lowering one without cannot.
	spread bool
	// leftZonal, for the entry that says the work budget stopped the search, is how many of the autoscalers left
	// have a zonal spread (the ones the zone rule's remedies name); 0 for any other entry.
	leftZonal int
}

// notSearched is the remedy entry for n autoscalers the work budget left unsearched.
func notSearched(n int) string {
	return fmt.Sprintf("the largest safe maximum of the %d autoscalers left was not searched for (each try places the group again, and the tries stopped at the check's work budget)", n)
}

// lowerRemedies names, for each autoscaler of idx on node group g, the largest maximum, from its floor up to its
// peak, with which every check of the group's peak passes, the others unchanged: the scheduler model places the
// peak on at most MaxNodes nodes (KCAP-E2) and the smallest zone holds what the zone spreads put in it (KCAP-E3);
// or that no maximum at or above its floor is enough. With spreadOnly, only the autoscalers with a zone spread are
// searched (the others cannot clear KCAP-E3). Each try places the group (and its smallest zone) again.
func lowerRemedies(in Check, all []autoscaler, idx []int, g NodeGroupCapacity, spreadOnly bool) []lowerRemedy {
	var out []lowerRemedy
	for k, i := range idx {
		s := all[i]
		spread := len(zoneSkews(s.Summary)) > 0
		if spreadOnly && !spread {
			continue
		}
		if b := in.budget; b != nil && b.remedyPods <= 0 {
			left, zonal := 0, 0
			for _, j := range idx[k:] {
				if len(zoneSkews(all[j].Summary)) > 0 {
					zonal++
				}
				if !spreadOnly || len(zoneSkews(all[j].Summary)) > 0 {
					left++
				}
			}
			out = append(out, lowerRemedy{text: notSearched(left), spread: zonal > 0, leftZonal: zonal})
			break
		}
		short := func(r int64) string {
			lowered := append([]autoscaler(nil), all...)
			lowered[i].PeakReplicas = r
			return peakShort(in, lowered, idx, g)
		}
		try := func(r int64) bool { return short(r) == "" }
		maxName := "maxReplicaCount"
		if s.hpa {
			maxName = "maxReplicas"
		}
		floor := min(s.floor(), s.PeakReplicas)
		if why := short(floor); why != "" {
			// Even at its minimum, with the others unchanged, the group does not hold them: lowering this one
			// alone cannot help.
			out = append(out, lowerRemedy{none: true, spread: spread,
				text: fmt.Sprintf("no %s of %s at or above its minimum of %d is enough, the others unchanged%s: at %d %s", maxName, s.label(), floor, pausedNone(s.Summary), floor, why)})
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
			out = append(out, lowerRemedy{text: r + ", the others unchanged", spread: spread})
			continue
		}
		out = append(out, lowerRemedy{text: fmt.Sprintf("the largest safe %s of %s, the others unchanged, is %d", maxName, s.label(), lo), spread: spread})
	}
	return out
}

// peakShort says why node group g does not hold the peak of the autoscalers idx (with the group's own
// workloads), "" when it does: its smallest zone must hold what their zone spreads put in it (zoneText), and the
// scheduler model must place them on at most MaxNodes nodes. Each placement counts against the check's remedy
// budget.
func peakShort(in Check, all []autoscaler, idx []int, g NodeGroupCapacity) string {
	loads := groupLoads(in, all, idx, g)
	if b := in.budget; b != nil {
		for _, l := range loads {
			b.remedyPods -= l.count + l.surge + remedyClassWork
		}
	}
	if zoneText(in, all, g, idx, nil) != "" {
		return "its smallest zone still cannot hold their zone spreads' share"
	}
	pl, err := place(g, loads, in)
	switch {
	case err != nil || !pl.fits:
		return "the group still cannot place them"
	case pl.atLeast:
		return fmt.Sprintf("the group still needs at least %d nodes", pl.peak)
	case pl.peak > g.MaxNodes:
		return fmt.Sprintf("the group still needs %d nodes", pl.peak)
	}
	return ""
}

// zoneSkews is the skew of each zonal DoNotSchedule spread of s, at least 1.
func zoneSkews(s Summary) []int64 {
	var out []int64
	for _, sc := range s.ZonalSpread {
		if sc.TopologyKey == ZoneKey && sc.WhenUnsatisfiable == "DoNotSchedule" {
			out = append(out, max(sc.MaxSkew, 1))
		}
	}
	return out
}

// remedies joins the remedies of a rule that fails as its message's last sentences: " Remedies: a; or b." (or
// " Remedy: a."), then the autoscalers no maximum of which is enough; "" without either.
func remedies(parts []string, lows []lowerRemedy) string {
	var none []string
	var all []string
	for _, l := range lows {
		if l.none {
			none = append(none, l.text)
		} else {
			all = append(all, l.text)
		}
	}
	all = append(all, parts...)
	out := ""
	switch len(all) {
	case 0:
	case 1:
		out = " Remedy: " + all[0] + "."
	default:
		out = " Remedies: " + strings.Join(all, "; or ") + "."
	}
	if len(none) > 0 {
		out += " " + strings.ToUpper(none[0][:1]) + strings.Join(none, "; ")[1:] + "."
	}
	return out
}

// groupRemedies names, for node group g that cannot hold the peak of the autoscalers idx together (KCAP-E2),
// the largest safe maximum of each of them with the others unchanged (lows), and the nodes the peak needs, its
// smallest zone included, each placed as the check places them (place); "" when no placement can say.
func groupRemedies(in Check, all []autoscaler, idx []int, g NodeGroupCapacity, pl placement, lows []lowerRemedy) string {
	var parts []string
	switch {
	case pl.fits && !pl.atLeast:
		// The size with which the zones hold the peak too (KCAP-E3), not only the group.
		if r := groupSize(in, all, g, idx, nil, pl.peak, pl.peak); r != "" {
			parts = append(parts, r)
		}
	case pl.fits:
		parts = append(parts, fmt.Sprintf("raise the group's maximum size to at least %d nodes (a bound from the totals: too many pods to place one by one)", pl.peak))
	}
	return remedies(parts, lows)
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
