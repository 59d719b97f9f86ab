package disk

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/resource"
)

// The node side of an evaluation: what share of the node's disk limits a volume may use, whether the node
// sustains the demand, and which sizes of its family would (disks.md §5.5, §7.5, §7.10).

// nodeCaps is what one volume may use of a node: its share of each disk limit that applies to it (§5.5,
// §7.5), sustained and while the node bursts.
type nodeCaps struct {
	baseIOPS, baseBps, burstIOPS, burstBps float64
}

func (c nodeCaps) sustains(dIOPS, dBps float64) bool { return c.baseIOPS >= dIOPS && c.baseBps >= dBps }
func (c nodeCaps) bursts(dIOPS, dBps float64) bool   { return c.burstIOPS >= dIOPS && c.burstBps >= dBps }

// capsOf returns the share of node n (already adjusted to the volume's type by forVolume) one of vols
// volumes like v gets, with the cached limits for a cached disk and the non-Nitro io1/io2 ceiling.
func capsOf(n NodeLimits, vols int64, v Volume, caching Caching) nodeCaps {
	f := float64(vols)
	c := nodeCaps{float64(n.BaseIOPS) / f, float64(n.BaseBytesPerSec) / f, float64(n.BurstIOPS) / f, float64(n.BurstBytesPerSec) / f}
	if caching.cached() && n.CachedIOPS > 0 {
		ci, cb := float64(n.CachedIOPS)/f, float64(n.CachedBytesPerSec)/f
		c = nodeCaps{min(c.baseIOPS, ci), min(c.baseBps, cb), min(c.burstIOPS, ci), min(c.burstBps, cb)}
	}
	if n.NonNitro && (v.Spec.Type == IO1 || v.Spec.Type == IO2) {
		c.baseIOPS, c.burstIOPS = min(c.baseIOPS, nonNitroIOPS), min(c.burstIOPS, nonNitroIOPS)
	}
	return c
}

// checkNode compares the demand with the node's share of its limits (§7.5, §5.5) and, when the node
// does not sustain it, names the candidate sizes that do (§7.10).
func (r *Result) checkNode(candidateSet string) {
	n := r.Node
	if n == nil {
		return
	}
	c := capsOf(*n, r.VolumesPerNode, r.Volume, r.Caching)
	if c.sustains(r.demandIOPS, r.demandBps) {
		return
	}
	share := "its"
	if r.VolumesPerNode > 1 {
		share = fmt.Sprintf("each of %d volumes' equal share of its", r.VolumesPerNode)
	}
	nu := n.ThroughputUnit()
	have := fmt.Sprintf("instance %s sustains %s %s IOPS and %s%s", n.Name, share, num(c.baseIOPS), rate(c.baseBps, nu), n.bucket())
	if r.NodeShare.CachedIOPS > 0 {
		have = fmt.Sprintf("instance %s sustains %s %s IOPS and %s: the least of its uncached limits (%s IOPS, %s) "+
			"and its cached limits (%s IOPS, %s), which with host caching %s both count the disk's traffic, no read "+
			"hits assumed", n.Name, share, num(c.baseIOPS), rate(c.baseBps, nu), resource.Group(n.BaseIOPS),
			rate(float64(n.BaseBytesPerSec), nu), resource.Group(n.CachedIOPS), rate(float64(n.CachedBytesPerSec), nu), r.Caching)
	}
	if n.Source != "" {
		have += " (" + n.Source + ")"
	}
	others := r.sustainingText(candidateSet)
	need := r.unmet(func(x *RequirementDemand) bool { return c.sustains(x.iops, x.bps) })
	if c.bursts(r.demandIOPS, r.demandBps) {
		window := "for up to 30 minutes on burst credits"
		if n.BurstWindow > 0 {
			window = fmt.Sprintf("for %s once every %s", fmtDuration(n.BurstDuration), fmtDuration(n.BurstWindow))
		}
		r.add(Warn, warnf("FIT-N1", pathNode, "burst-only fit on the node: %s; %s fits only within its burst "+
			"limit of %s IOPS and %s, available %s; choose a larger instance size for a sustained fit (a bigger "+
			"disk will not help)%s", have, need, num(c.burstIOPS), rate(c.burstBps, nu), window, others))
		return
	}
	r.add(Fail, Finding{Rule: "FIT-N2", Severity: SeverityError, Path: pathNode, Unmet: true,
		Message: fmt.Sprintf("%s, short of %s even while it bursts (%s IOPS, %s); a larger instance size is needed, "+
			"a bigger disk will not help%s", have, need, num(c.burstIOPS), rate(c.burstBps, nu), others)})
}

// unmet describes the requirements a limit does not meet, given met: when the two requirements happen
// at different times and the limit meets one of them, only the other, named; otherwise both, as needText
// does.
func (r *Result) unmet(met func(*RequirementDemand) bool) string {
	if r.Concurrent || r.IOPSDemand == nil || r.ThroughputDemand == nil {
		return r.need
	}
	switch iopsMet, tpMet := met(r.IOPSDemand), met(r.ThroughputDemand); {
	case iopsMet && !tpMet:
		return "the throughput requirement, " + r.ThroughputDemand.Detail + ","
	case tpMet && !iopsMet:
		return "the IOPS requirement, " + r.IOPSDemand.Detail + ","
	}
	return r.need
}

// NodeSize is one candidate node size with what it offers the demand (§7.10).
type NodeSize struct {
	// Limits are the size's disk limits as they apply to the volume's type (PremiumV2_LRS and
	// UltraSSD_LRS use the separate limits of §5.1 where published).
	Limits NodeLimits
	// Sustains reports that the size's baseline share sustains the demand; BurstOnly that only its
	// burst does.
	Sustains, BurstOnly bool
}

// nodeSizes tests the demand on each candidate of the volume's cloud, smallest first (§7.10).
func (r *Result) nodeSizes(candidates []NodeLimits) []NodeSize {
	var out []NodeSize
	for _, cand := range candidates {
		if cand.Cloud != r.Volume.Spec.Type.Cloud() {
			continue
		}
		n := cand.forVolume(r.Volume)
		c := capsOf(n, r.VolumesPerNode, r.Volume, r.Caching)
		ok := c.sustains(r.demandIOPS, r.demandBps)
		out = append(out, NodeSize{Limits: n, Sustains: ok, BurstOnly: !ok && c.bursts(r.demandIOPS, r.demandBps)})
	}
	slices.SortStableFunc(out, func(a, b NodeSize) int {
		return cmp.Or(cmp.Compare(a.Limits.BaseBytesPerSec, b.Limits.BaseBytesPerSec),
			cmp.Compare(a.Limits.BaseIOPS, b.Limits.BaseIOPS), cmp.Compare(a.Limits.VCPU, b.Limits.VCPU),
			cmp.Compare(a.Limits.MemoryMiB, b.Limits.MemoryMiB), strings.Compare(a.Limits.Name, b.Limits.Name))
	})
	return out
}

// sustainingText names the candidate sizes that sustain the demand, for a node finding.
func (r *Result) sustainingText(candidateSet string) string {
	if len(r.NodeSizes) == 0 {
		return ""
	}
	of := "the candidate sizes"
	if candidateSet != "" {
		of = candidateSet
	}
	var names []string
	for _, s := range r.NodeSizes {
		if s.Sustains {
			n := s.Limits
			names = append(names, fmt.Sprintf("%s (%s IOPS, %s%s)", n.Name, resource.Group(n.BaseIOPS),
				rate(float64(n.BaseBytesPerSec), n.ThroughputUnit()), n.bucket()))
		}
	}
	if len(names) == 0 {
		return fmt.Sprintf("; no size of %s sustains it", of)
	}
	return fmt.Sprintf("; the sizes of %s that sustain it, smallest first: %s", of, strings.Join(names, ", "))
}
