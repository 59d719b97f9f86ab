package disk

import (
	"fmt"
	"strings"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/resource"
)

// IOShape is the size and pattern of the operations one requirement is made of (§7.9). A zero field is
// taken from the workload's Access when the Access gives it, else from the requirement's default.
type IOShape struct {
	BlockSize int64   // bytes per operation
	Pattern   Pattern // random or sequential
}

// The shapes a requirement has when neither it nor the Access gives one (§7.9): an IOPS requirement is
// small random I/O, at the 16 KiB size AWS quotes IOPS at (§2.8, §3.1); a throughput requirement is
// sequential I/O of 256 KiB, the largest I/O that EBS SSD volumes and Azure disks still count as one
// (§2.8, §4.8), so it costs the fewest counted IOPS without being split.
var (
	DefaultIOPSShape       = IOShape{BlockSize: 16 * kib, Pattern: Random}
	DefaultThroughputShape = IOShape{BlockSize: 256 * kib, Pattern: Sequential}
)

// ShapeOrigin says where a field of a requirement's I/O shape came from.
type ShapeOrigin string

// The origins of a shape's fields.
const (
	ShapeGiven   ShapeOrigin = "requirement" // the requirement's own shape
	ShapeAccess  ShapeOrigin = "access"      // the workload's access profile
	ShapeDefault ShapeOrigin = "default"     // the requirement's default (§7.9)
)

// RequirementDemand is one requirement (IOPS or throughput) as the volume and node count it (§7.9).
type RequirementDemand struct {
	// Shape is the resolved I/O shape; BlockFrom and PatternFrom say where its fields came from.
	Shape                  IOShape
	BlockFrom, PatternFrom ShapeOrigin
	OpsPerSec              float64 // application operations per second
	// Demand is the counted I/Os per second and the bytes per second charged against throughput
	// limits, each rounded up.
	Demand Demand
	// Detail says, in words, what the requirement is with its shape and where the shape came from.
	Detail string

	iops, bps float64    // the demand before rounding
	at        field.Path // the requirement's input
	shapeAt   field.Path // the shape's input
}

// access returns the shape as an access profile, for ioPerOp and bytesCharged.
func (s IOShape) access() Access { return Access{BlockSize: s.BlockSize, Pattern: s.Pattern} }

func (s IOShape) String() string { return fmtBytes(s.BlockSize) + " " + string(s.Pattern) }

// resolveShape fills a requirement's shape from the Access as given (before defaults) and the default,
// and validates it; errors are at the shape's path.
func resolveShape(given IOShape, access Access, def IOShape, at field.Path) (IOShape, ShapeOrigin, ShapeOrigin, error) {
	s, bFrom, pFrom := given, ShapeGiven, ShapeGiven
	switch {
	case s.BlockSize != 0:
	case access.BlockSize != 0:
		s.BlockSize, bFrom = access.BlockSize, ShapeAccess
	default:
		s.BlockSize, bFrom = def.BlockSize, ShapeDefault
	}
	switch {
	case s.Pattern != "":
	case access.Pattern != "":
		s.Pattern, pFrom = access.Pattern, ShapeAccess
	default:
		s.Pattern, pFrom = def.Pattern, ShapeDefault
	}
	if s.BlockSize < 1 || s.BlockSize > MaxBlockSize {
		return s, bFrom, pFrom, errorf("", at.Child("BlockSize"), "block size must be 1 byte to 1 GiB, got %d bytes", s.BlockSize)
	}
	if _, err := ParsePattern(string(s.Pattern)); err != nil {
		return s, bFrom, pFrom, errorf("", at.Child("Pattern"), "%v", err)
	}
	return s, bFrom, pFrom, nil
}

// requirementDemands resolves the shapes of the requirements that are given and computes their demands
// on volume v (§7.9). access is the Access as the query gave it, before defaults.
func requirementDemands(req Requirement, access Access, v Volume) (iops, tp *RequirementDemand, err error) {
	u := v.ThroughputUnit()
	if req.IOPS > 0 {
		s, bFrom, pFrom, err := resolveShape(req.IOPSShape, access, DefaultIOPSShape, pathIOPSShape)
		if err != nil {
			return nil, nil, err
		}
		pn, pd := ioPerOp(v, s.access())
		charged := bytesCharged(v, s.access())
		d := &RequirementDemand{Shape: s, BlockFrom: bFrom, PatternFrom: pFrom, OpsPerSec: float64(req.IOPS),
			Demand: Demand{IOPS: ceilMulDiv(req.IOPS, pn, pd), BytesPerSec: ceilMulDiv(req.IOPS, charged, 1)},
			iops:   float64(req.IOPS) * float64(pn) / float64(pd), bps: float64(req.IOPS) * float64(charged),
			at: pathRequiredIOPS, shapeAt: pathIOPSShape}
		d.Detail = fmt.Sprintf("%s operations/s of %s I/O (%s)", resource.Group(req.IOPS), s, d.Demand.String(u))
		iops = d
	}
	if req.BytesPerSec > 0 {
		s, bFrom, pFrom, err := resolveShape(req.ThroughputShape, access, DefaultThroughputShape, pathThroughputShape)
		if err != nil {
			return nil, nil, err
		}
		pn, pd := ioPerOp(v, s.access())
		charged := bytesCharged(v, s.access())
		ops := float64(req.BytesPerSec) / float64(s.BlockSize)
		d := &RequirementDemand{Shape: s, BlockFrom: bFrom, PatternFrom: pFrom, OpsPerSec: ops,
			Demand: Demand{IOPS: ceilMulDiv(req.BytesPerSec, pn, s.BlockSize*pd),
				BytesPerSec: ceilMulDiv(req.BytesPerSec, charged, s.BlockSize)},
			iops: ops * float64(pn) / float64(pd), bps: ops * float64(charged),
			at: pathRequiredThroughput, shapeAt: pathThroughputShape}
		d.Detail = fmt.Sprintf("%s of %s I/O (%s operations/s: %s)", rate(float64(req.BytesPerSec), u), s, num(ops),
			d.Demand.String(u))
		tp = d
	}
	return iops, tp, nil
}

// shapeNote says where the defaulted or inherited fields of a requirement's shape came from, or "" when
// the requirement gave its whole shape.
func (d *RequirementDemand) shapeNote(what string) string {
	var parts []string
	def := DefaultIOPSShape
	if what == "throughput" {
		def = DefaultThroughputShape
	}
	switch d.BlockFrom {
	case ShapeAccess:
		parts = append(parts, "the I/O size is the access profile's")
	case ShapeDefault:
		parts = append(parts, fmt.Sprintf("the I/O size is the default %s of %s requirement", fmtBytes(def.BlockSize), article(what)))
	}
	switch d.PatternFrom {
	case ShapeAccess:
		parts = append(parts, "the pattern is the access profile's")
	case ShapeDefault:
		parts = append(parts, fmt.Sprintf("the pattern is the default %s of %s requirement", def.Pattern, article(what)))
	}
	if len(parts) == 0 {
		return ""
	}
	return strings.Join(parts, "; ")
}

func article(what string) string {
	if what == "IOPS" {
		return "an IOPS"
	}
	return "a throughput"
}

// combine returns the demand the volume and node must meet for both requirements: the larger of the two
// in each of counted IOPS and bytes per second when they happen at different times, their sum when
// they are concurrent (§7.9). It also returns the operations per second the queue-depth check uses.
func combine(iops, tp *RequirementDemand, concurrent bool) (d Demand, dIOPS, dBps, ops float64) {
	for _, r := range []*RequirementDemand{iops, tp} {
		if r == nil {
			continue
		}
		if concurrent {
			d.IOPS += r.Demand.IOPS
			d.BytesPerSec += r.Demand.BytesPerSec
			dIOPS, dBps, ops = dIOPS+r.iops, dBps+r.bps, ops+r.OpsPerSec
			continue
		}
		d.IOPS, d.BytesPerSec = max(d.IOPS, r.Demand.IOPS), max(d.BytesPerSec, r.Demand.BytesPerSec)
		dIOPS, dBps, ops = max(dIOPS, r.iops), max(dBps, r.bps), max(ops, r.OpsPerSec)
	}
	return d, dIOPS, dBps, ops
}

// needText describes both requirements for findings: "5,000 operations/s of 16 KiB random I/O (…)",
// joined with how they combine.
func needText(iops, tp *RequirementDemand, concurrent bool, d Demand, u Unit) string {
	switch {
	case iops == nil:
		return tp.Detail
	case tp == nil:
		return iops.Detail
	case concurrent:
		return fmt.Sprintf("%s plus, at the same time, %s (together %s)", iops.Detail, tp.Detail, d.String(u))
	}
	return fmt.Sprintf("%s, and separately %s", iops.Detail, tp.Detail)
}

// demandDetail explains the demand with the origin of each shape, for the Result.
func demandDetail(iops, tp *RequirementDemand, concurrent bool, d Demand, u Unit) string {
	var parts []string
	for _, x := range []struct {
		what string
		r    *RequirementDemand
	}{{"IOPS", iops}, {"throughput", tp}} {
		if x.r == nil {
			continue
		}
		s := fmt.Sprintf("%s requirement: %s", x.what, x.r.Detail)
		if n := x.r.shapeNote(x.what); n != "" {
			s += " (" + n + ", disks.md §7.9)"
		}
		parts = append(parts, s)
	}
	s := strings.Join(parts, "; ")
	switch {
	case iops != nil && tp != nil && concurrent:
		s += fmt.Sprintf("; the two run at the same time, so their demands add up: %s", d.String(u))
	case iops != nil && tp != nil:
		s += fmt.Sprintf("; each is met on its own (not at the same time), so the volume and node must sustain "+
			"the larger of the two in each limit: %s", d.String(u))
	}
	return s
}
