package disk

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/resource"
)

// DefaultBlockSize is the I/O size of the access profile when a workload does not give one (§7.1). The
// requirements have defaults of their own (DefaultIOPSShape, DefaultThroughputShape, §7.9).
const DefaultBlockSize = 16 * kib

// Input bounds that keep every product in exact integer range.
const (
	MaxBlockSize           = gib           // largest I/O size accepted, bytes
	MaxRequiredIOPS        = 1_000_000_000 // largest required operations per second accepted
	MaxRequiredBytesPerSec = 10_000_000_000_000
	MaxQueueDepth          = 1_000_000
	MaxVolumesPerNode      = 1_000
)

// Access is a workload's I/O profile against one volume (§7.1).
type Access struct {
	BlockSize  int64         // bytes per operation; 0 means DefaultBlockSize
	Pattern    Pattern       // "" means Random
	QueueDepth int64         // I/Os the application keeps outstanding; 0 means unknown
	Latency    time.Duration // per-I/O service latency; 0 means the type's planning default (§7.4)
}

// Requirement is what a workload needs from one volume, sustained (§7.1, §7.9). The IOPS and the
// throughput are separate requirements, each with the I/O shape it is made of.
type Requirement struct {
	IOPS        int64 // application operations per second
	BytesPerSec int64 // useful bytes per second
	// IOPSShape and ThroughputShape are the I/O size and pattern of each requirement; a zero field is
	// the Access's when the Access gives it, else DefaultIOPSShape's or DefaultThroughputShape's.
	IOPSShape       IOShape
	ThroughputShape IOShape
	// Concurrent says the two requirements happen at the same time, so their demands add up; otherwise
	// each is met on its own and the larger of the two counts in each limit (§7.9).
	Concurrent bool
}

// IsZero reports whether no requirement is given.
func (r Requirement) IsZero() bool { return r.IOPS == 0 && r.BytesPerSec == 0 }

// Query asks for the performance of one volume on a node, for a workload.
type Query struct {
	Spec Spec
	// Node holds the disk limits of the node the volume is attached to; nil skips node checks.
	Node *NodeLimits
	// VolumesPerNode is the number of volumes with this demand sharing the node's limits, this one
	// included; 0 means 1. Each gets an equal share: effective = min(volume, node − others, §3.2).
	VolumesPerNode int64
	Access         Access
	Requirement    Requirement
	// Caching is the Azure host-caching mode of the disk; "" means None. A cached disk is also capped by
	// the node's cached limits where the VM size publishes them (§5.5).
	Caching Caching
	// Candidates are other node sizes (for example the node's family) to test the requirement on; the
	// Result lists each with whether it sustains the demand (§7.10). CandidateSet names them in messages
	// ("the standardDSv5Family family").
	Candidates   []NodeLimits
	CandidateSet string
}

// Effective is the rate a workload reaches on a volume for its access profile (§7.3).
type Effective struct {
	OpsPerSec   float64 // application operations per second
	BytesPerSec float64 // useful bytes per second: OpsPerSec × block size
	LimitedBy   Limit   // what binds
	Bound       string  // the binding quantity: "IOPS", "throughput" or "latency"
	Detail      string  // the binding limit with its value and unit
}

// Result is the outcome of Evaluate.
type Result struct {
	Volume         Volume
	Node           *NodeLimits // nil when no node was given
	VolumesPerNode int64
	// NodeShare holds this volume's share of the node limits (node limit / VolumesPerNode); zero
	// without a node.
	NodeShare NodeShare
	// Access is the profile with defaults filled in; LatencyAssumed reports a default latency.
	Access         Access
	LatencyAssumed bool
	Effective      Effective // sustained
	// BurstEffective is the rate while every burst involved lasts (volume credits, node burst); equal
	// to Effective when nothing bursts.
	BurstEffective Effective
	// BurstDuration is the shortest burst window involved in BurstEffective; 0 when none,
	// BurstUnlimited when the only burst has no time limit.
	BurstDuration  time.Duration
	BurstUnlimited bool
	// Demand is the requirement in counted I/Os and charged bytes; zero without a requirement. With both
	// requirements it is the larger of the two in each limit, or their sum when they are concurrent (§7.9).
	Demand Demand
	// IOPSDemand and ThroughputDemand are each requirement with its resolved shape; nil when not given.
	IOPSDemand, ThroughputDemand *RequirementDemand
	Concurrent                   bool
	// DemandDetail explains the demand: each requirement's shape, where the shape came from, and how the
	// two combine; "" without a requirement.
	DemandDetail string
	// Caching is the host-caching mode planned: the query's, or None where caching cannot apply (AZC-5).
	Caching Caching
	// NodeSizes are the query's Candidates with what each offers the demand, in ascending order of
	// baseline throughput, then IOPS, then vCPUs and memory, then name (§7.10): the smallest that sustains the
	// demand first; nil without candidates or a requirement.
	NodeSizes      []NodeSize
	Verdict        Verdict
	Findings       []Finding
	Recommendation *Recommendation // smallest configuration of the type meeting the requirement
	Source         string

	demandIOPS, demandBps float64 // Demand before rounding, compared with node shares
	need                  string  // the requirements in words, for findings
}

// NodeShare is one volume's share of a node's disk limits.
type NodeShare struct {
	BaseIOPS, BurstIOPS               float64
	BaseBytesPerSec, BurstBytesPerSec float64
	// CachedIOPS and CachedBytesPerSec are the share of the cached limits for a cached disk on a VM size
	// that publishes them (§5.5); 0 otherwise.
	CachedIOPS, CachedBytesPerSec float64
}

// Evaluate computes a volume's limits, its effective rate for the access profile under the node's
// limits, and, when a requirement is given, the verdict with findings and the recommended smallest
// configuration. Invalid input returns a *field.Error whose path names the Query field at fault
// (Spec.SizeGiB, Access.QueueDepth, Requirement.IOPS, …) and whose detail starts with the rule id, if any.
func Evaluate(q Query) (Result, error) {
	r, err := evaluate(q)
	if err != nil {
		err = inputErr(err, field.Path{})
		if e, ok := err.(*field.Error); ok && e.Value == "" {
			e.Value = valueAt(q, e.Path)
		}
		return Result{}, err
	}
	return r, nil
}

// valueAt renders the value of the Query field at p for an input error, or "" for a path it does not know.
func valueAt(q Query, p field.Path) string {
	i := strconv.FormatInt
	switch p.String() {
	case "Spec.Type":
		return string(q.Spec.Type)
	case "Spec.SizeGiB":
		return i(q.Spec.SizeGiB, 10)
	case "Spec.IOPS":
		return i(q.Spec.IOPS, 10)
	case "Spec.Throughput":
		return i(q.Spec.Throughput, 10)
	case "Spec.Bursting":
		return strconv.FormatBool(q.Spec.Bursting)
	case "Spec.PerformancePlus":
		return strconv.FormatBool(q.Spec.PerformancePlus)
	case "Node":
		if q.Node != nil {
			return q.Node.Name
		}
	case "VolumesPerNode":
		return i(q.VolumesPerNode, 10)
	case "Access.BlockSize":
		return i(q.Access.BlockSize, 10)
	case "Access.Pattern":
		return string(q.Access.Pattern)
	case "Access.QueueDepth":
		return i(q.Access.QueueDepth, 10)
	case "Access.Latency":
		return q.Access.Latency.String()
	case "Requirement.IOPS":
		return i(q.Requirement.IOPS, 10)
	case "Requirement.BytesPerSec":
		return i(q.Requirement.BytesPerSec, 10)
	case "Requirement.IOPSShape.BlockSize":
		return i(q.Requirement.IOPSShape.BlockSize, 10)
	case "Requirement.IOPSShape.Pattern":
		return string(q.Requirement.IOPSShape.Pattern)
	case "Requirement.ThroughputShape.BlockSize":
		return i(q.Requirement.ThroughputShape.BlockSize, 10)
	case "Requirement.ThroughputShape.Pattern":
		return string(q.Requirement.ThroughputShape.Pattern)
	case "Caching":
		return string(q.Caching)
	}
	return ""
}

func evaluate(q Query) (Result, error) {
	v, err := newVolume(q.Spec)
	if err != nil {
		return Result{}, inputErr(err, pathSpec)
	}
	a, assumed, err := resolveAccess(q.Access, v)
	if err != nil {
		return Result{}, err
	}
	n := q.VolumesPerNode
	if n == 0 {
		n = 1
	}
	if n < 0 || n > MaxVolumesPerNode {
		return Result{}, errorf("", pathVolumesPerNode, "volumes per node must be 1 to %s, got %d",
			resource.Group(MaxVolumesPerNode), n)
	}
	if err := checkRequirement(q.Requirement, v); err != nil {
		return Result{}, err
	}
	iopsDemand, tpDemand, err := requirementDemands(q.Requirement, q.Access, v)
	if err != nil {
		return Result{}, err
	}
	caching, err := checkCaching(q.Caching, v)
	if err != nil {
		return Result{}, err
	}
	r := Result{Volume: v, VolumesPerNode: n, Access: a, LatencyAssumed: assumed, Verdict: Pass, Caching: caching}
	for _, n := range v.Notes {
		n.Path = pathSpec.Join(n.Path)
		r.Findings = append(r.Findings, n)
	}
	if caching != q.Caching && q.Caching.cached() {
		r.add(Warn, warnf("AZC-5", pathCaching, "a %s GiB disk cannot use host caching: Azure allows caching on disks "+
			"up to 4,095 GiB and the azuredisk CSI driver attaches larger ones with caching None, so kubefit plans it "+
			"uncached", resource.Group(v.Spec.SizeGiB)))
	}
	if q.Node != nil {
		if q.Node.Cloud != v.Spec.Type.Cloud() {
			return Result{}, errorf("", pathNode, "instance type %q is %s, but disk type %q is %s",
				q.Node.Name, q.Node.Cloud, v.Spec.Type, v.Spec.Type.Cloud())
		}
		node := q.Node.forVolume(v)
		r.Node = &node
		r.NodeShare = NodeShare{
			BaseIOPS: float64(node.BaseIOPS) / float64(n), BurstIOPS: float64(node.BurstIOPS) / float64(n),
			BaseBytesPerSec:  float64(node.BaseBytesPerSec) / float64(n),
			BurstBytesPerSec: float64(node.BurstBytesPerSec) / float64(n),
		}
		if caching.cached() && node.CachedIOPS > 0 {
			r.NodeShare.CachedIOPS = float64(node.CachedIOPS) / float64(n)
			r.NodeShare.CachedBytesPerSec = float64(node.CachedBytesPerSec) / float64(n)
		}
		if node.MaxDataDisks > 0 && n > node.MaxDataDisks {
			r.add(Fail, Finding{Rule: "FIT-N3", Severity: SeverityError, Path: pathVolumesPerNode, Unmet: true,
				Message: fmt.Sprintf("%s attaches at most %d data disks; %d volumes per node do not fit (Azure VM sizes)",
					node.Name, node.MaxDataDisks, n)})
		}
	}
	r.Effective = r.effective(false)
	r.BurstEffective = r.effective(true)
	r.BurstDuration, r.BurstUnlimited = r.burstWindow()
	if !q.Requirement.IsZero() {
		r.checkFit(iopsDemand, tpDemand, q.Requirement.Concurrent)
		r.NodeSizes = r.nodeSizes(q.Candidates)
		r.checkNode(q.CandidateSet)
	}
	r.Source = r.source()
	return r, nil
}

// checkCaching validates the host-caching mode for the volume and returns the mode planned: None for a
// disk too large to cache (AZC-5, §5.5).
func checkCaching(c Caching, v Volume) (Caching, error) {
	if c == "" || c == CachingNone {
		return CachingNone, nil
	}
	if !c.cached() {
		return "", errorf("AZD-V2", pathCaching, "host caching must be one of %s, exact case (rule AZD-V2), got %q",
			field.QuoteList(CachingModes), c)
	}
	switch t := v.Spec.Type; {
	case t.Cloud() != catalog.Azure:
		return "", errorf("", pathCaching, "host caching is an Azure managed-disk setting; %s volumes have none", t)
	case t == PremiumV2LRS || t == UltraSSDLRS:
		return "", errorf("AZD-V3", pathCaching, "%s allows only host caching None (rule AZD-V3); Azure fails with "+
			"\"Storage Account type %s is not supported with caching type %s\"", t, t, c)
	case v.Spec.SizeGiB >= azureCachingLimitGiB:
		return CachingNone, nil
	}
	return c, nil
}

func resolveAccess(a Access, v Volume) (Access, bool, error) {
	if a.BlockSize == 0 {
		a.BlockSize = DefaultBlockSize
	}
	if a.BlockSize < 1 || a.BlockSize > MaxBlockSize {
		return a, false, errorf("", pathBlockSize, "block size must be 1 byte to 1 GiB, got %d bytes", a.BlockSize)
	}
	if a.Pattern == "" {
		a.Pattern = Random
	}
	if _, err := ParsePattern(string(a.Pattern)); err != nil {
		return a, false, errorf("", pathPattern, "%v", err)
	}
	if a.QueueDepth < 0 || a.QueueDepth > MaxQueueDepth {
		return a, false, errorf("", pathQueueDepth, "queue depth must be 1 to %s, got %d", resource.Group(MaxQueueDepth), a.QueueDepth)
	}
	if a.Latency < 0 || a.Latency > time.Minute {
		return a, false, errorf("", pathLatency, "latency must be positive and at most a minute, got %s", a.Latency)
	}
	assumed := a.Latency == 0
	if assumed {
		a.Latency = v.Latency
	}
	return a, assumed, nil
}

func checkRequirement(req Requirement, v Volume) error {
	if req.IOPS < 0 || req.IOPS > MaxRequiredIOPS {
		return errorf("", pathRequiredIOPS, "required IOPS must be 0 to %s, got %d", resource.Group(MaxRequiredIOPS), req.IOPS)
	}
	if req.BytesPerSec < 0 || req.BytesPerSec > MaxRequiredBytesPerSec {
		return errorf("", pathRequiredThroughput, "required throughput must be 0 to 10 TB/s, got %s",
			rate(float64(req.BytesPerSec), v.ThroughputUnit()))
	}
	return nil
}

// ioPerOp returns the counted I/Os one operation costs, as num/den (§7.3).
func ioPerOp(v Volume, a Access) (num, den int64) {
	if v.RandomChargedAsUnit && a.Pattern == Sequential {
		return a.BlockSize, v.CountUnit
	}
	return max(1, resource.CeilDiv(a.BlockSize, v.CountUnit)), 1
}

// bytesCharged returns the bytes one operation costs against throughput limits (§7.3). A random I/O on
// st1/sc1 costs whole 1 MiB units.
func bytesCharged(v Volume, a Access) int64 {
	if v.RandomChargedAsUnit && a.Pattern == Random {
		return resource.CeilDiv(a.BlockSize, v.CountUnit) * v.CountUnit
	}
	return a.BlockSize
}

type bound struct {
	ops    float64
	limit  Limit
	what   string // "IOPS", "throughput", "latency"
	detail string
}

// effective computes the achievable operations per second, sustained or while bursts last.
func (r *Result) effective(burst bool) Effective {
	v, a := r.Volume, r.Access
	pn, pd := ioPerOp(v, a)
	perOp := float64(pn) / float64(pd)
	charged := float64(bytesCharged(v, a))
	u := v.ThroughputUnit()
	volIOPS, volBps := v.BaseIOPS, v.BaseBytesPerSec
	if burst {
		volIOPS, volBps = v.BurstIOPS, v.BurstBytesPerSec
	}
	name := describe(v)
	if v.Tier != "" {
		name = "the " + v.Tier + " tier"
	}
	bounds := []bound{
		{float64(volIOPS) / perOp, v.limitKind(), "IOPS", fmt.Sprintf("%s: %s IOPS", name, resource.Group(volIOPS))},
		{float64(volBps) / charged, v.limitKind(), "throughput", fmt.Sprintf("%s: %s", name, rate(float64(volBps), u))},
	}
	if n := r.Node; n != nil {
		iops, bps := r.NodeShare.BaseIOPS, r.NodeShare.BaseBytesPerSec
		if burst {
			iops, bps = r.NodeShare.BurstIOPS, r.NodeShare.BurstBytesPerSec
		}
		share := ""
		if r.VolumesPerNode > 1 {
			share = fmt.Sprintf(" shared by %d volumes", r.VolumesPerNode)
		}
		bounds = append(bounds,
			bound{iops / perOp, LimitInstance, "IOPS", fmt.Sprintf("instance %s: %s IOPS%s%s", n.Name,
				num(iops*float64(r.VolumesPerNode)), n.bucket(), share)},
			bound{bps / charged, LimitInstance, "throughput", fmt.Sprintf("instance %s: %s%s%s", n.Name,
				rate(bps*float64(r.VolumesPerNode), n.ThroughputUnit()), n.bucket(), share)})
		if c := r.NodeShare; c.CachedIOPS > 0 {
			// §5.5: a cached disk's traffic also counts against the cached limits (no read hits assumed).
			bounds = append(bounds,
				bound{c.CachedIOPS / perOp, LimitInstance, "IOPS", fmt.Sprintf("instance %s: %s IOPS cached (host caching %s)%s",
					n.Name, resource.Group(n.CachedIOPS), r.Caching, share)},
				bound{c.CachedBytesPerSec / charged, LimitInstance, "throughput", fmt.Sprintf("instance %s: %s cached (host caching %s)%s",
					n.Name, rate(float64(n.CachedBytesPerSec), n.ThroughputUnit()), r.Caching, share)})
		}
		if n.NonNitro && (v.Spec.Type == IO1 || v.Spec.Type == IO2) {
			bounds = append(bounds, bound{nonNitroIOPS / perOp, LimitInstance, "IOPS",
				fmt.Sprintf("instance %s is not Nitro: %s reaches at most 32,000 IOPS (Amazon EBS volume types)", n.Name, v.Spec.Type)})
		}
	}
	if a.QueueDepth > 0 {
		bounds = append(bounds, bound{float64(a.QueueDepth) / a.Latency.Seconds(), LimitQueueDepth, "latency",
			fmt.Sprintf("queue depth %d / latency %s", a.QueueDepth, fmtLatency(a.Latency))})
	}
	best := bounds[0]
	for _, b := range bounds[1:] {
		if b.ops < best.ops {
			best = b
		}
	}
	e := Effective{OpsPerSec: best.ops, BytesPerSec: best.ops * float64(a.BlockSize), LimitedBy: best.limit, Bound: best.what}
	e.Detail = fmt.Sprintf("%s %s I/O: %s operations/s, %s; bound by %s", fmtBytes(a.BlockSize), a.Pattern,
		num(e.OpsPerSec), rate(e.BytesPerSec, u), best.detail)
	return e
}

// burstWindow returns the shortest burst window involved in BurstEffective.
func (r *Result) burstWindow() (time.Duration, bool) {
	if r.BurstEffective.OpsPerSec <= r.Effective.OpsPerSec {
		return 0, false
	}
	var d time.Duration
	unlimited := false
	v := r.Volume
	if v.BurstIOPS > v.BaseIOPS || v.BurstBytesPerSec > v.BaseBytesPerSec {
		if v.BurstUnlimited {
			unlimited = true
		} else {
			d = v.BurstDuration
		}
	}
	if n := r.Node; n != nil && n.BurstDuration > 0 {
		if d == 0 || n.BurstDuration < d {
			d = n.BurstDuration
		}
		unlimited = false
	}
	if d > 0 {
		unlimited = false
	}
	return d, unlimited
}

func (r *Result) add(v Verdict, f Finding) {
	r.Findings = append(r.Findings, f)
	r.Verdict = worse(r.Verdict, v)
}

func worse(a, b Verdict) Verdict {
	rank := map[Verdict]int{Pass: 0, Warn: 1, Fail: 2}
	if rank[b] > rank[a] {
		return b
	}
	return a
}

// checkFit compares the requirements with the volume and the queue depth (§7.4–§7.6, §7.9) and
// recommends; checkNode compares them with the node.
func (r *Result) checkFit(iops, tp *RequirementDemand, concurrent bool) {
	v := r.Volume
	u := v.ThroughputUnit()
	d, dIOPS, dBps, ops := combine(iops, tp, concurrent)
	r.IOPSDemand, r.ThroughputDemand, r.Concurrent = iops, tp, concurrent
	r.Demand, r.demandIOPS, r.demandBps = d, dIOPS, dBps
	r.DemandDetail = demandDetail(iops, tp, concurrent, d, u)
	r.need = needText(iops, tp, concurrent, d, u)

	hddRandom := false
	for _, x := range []*RequirementDemand{iops, tp} {
		if x == nil || !v.RandomChargedAsUnit || x.Shape.Pattern != Random {
			continue
		}
		hddRandom = true
		r.add(Fail, Finding{Rule: "EBS-P5", Severity: SeverityError, Path: x.patternPath(), Unmet: true,
			Message: fmt.Sprintf("%s counts every random I/O as a full 1 MiB against its throughput (rule: st1/sc1 are "+
				"rejected for a random I/O profile, Amazon EBS volume types): %s needs %s of throughput on this volume; use gp3 or io2, "+
				"or set the pattern to sequential if the I/O really is sequential", v.Spec.Type, x.Detail,
				rate(float64(x.Demand.BytesPerSec), u))})
	}
	if v.Spec.Type == Standard {
		r.add(Warn, warnf("EBS-P6", pathSpec.Join(pathType), "standard (magnetic) volumes are best effort, 40–200 IOPS and 40–90 "+
			"MiB/s with no guarantee (Amazon EBS volume types); kubefit plans them at 40 IOPS and 40 MiB/s for %s", r.need))
	}
	if v.Spec.Type.Cloud() == catalog.Azure && !v.Guaranteed {
		r.add(Warn, warnf("AZD-P2", pathSpec.Join(pathType), "%s figures are \"up to\" targets met 99 %% of the time, not "+
			"provisioned guarantees (Azure managed disk types); use Premium_LRS or PremiumV2_LRS for %s", v.Spec.Type, r.need))
	}
	r.checkQueueDepth(ops)

	rec, recErr := Recommend(v.Spec.Type, d, v.Spec.SizeGiB)
	if recErr == nil {
		r.Recommendation = &rec
	}
	// An unmet requirement is blamed on the one no size of the type can meet on its own: the IOPS
	// requirement when it cannot, else the throughput requirement.
	at := pathRequiredIOPS
	if iops == nil {
		at = pathRequiredThroughput
	} else if tp != nil && recErr != nil {
		if _, err := Recommend(v.Spec.Type, iops.Demand, v.Spec.SizeGiB); err == nil {
			at = pathRequiredThroughput
		}
	}
	r.checkVolume(at, recErr, hddRandom)
}

// patternPath is the input a requirement's pattern came from: its own shape, the access profile, or
// (for a default) the requirement itself.
func (d *RequirementDemand) patternPath() field.Path {
	switch d.PatternFrom {
	case ShapeGiven:
		return d.shapeAt.Child("Pattern")
	case ShapeAccess:
		return pathPattern
	}
	return d.at
}

func (r *Result) checkQueueDepth(ops float64) {
	a := r.Access
	lat := fmtLatency(a.Latency)
	assumed := ""
	if r.LatencyAssumed {
		assumed = fmt.Sprintf(" (the planning default for %s; set a measured latency to replace it)", r.Volume.Spec.Type)
	}
	needQD := int64(math.Ceil(ops*a.Latency.Seconds() - 1e-9))
	if a.QueueDepth == 0 {
		if needQD > 1 {
			r.add(Warn, warnf("QD-1", pathQueueDepth, "queue depth unknown: %s operations/s at %s latency%s need "+
				"at least %d I/Os in flight (requiredQD = ⌈ops × latency⌉); at queue depth 1 the volume "+
				"reaches only %s operations/s", num(ops), lat, assumed, needQD, num(1/a.Latency.Seconds())))
		}
		return
	}
	qdOps := float64(a.QueueDepth) / a.Latency.Seconds()
	if qdOps < ops {
		r.add(Fail, Finding{Rule: "QD-2", Severity: SeverityError, Path: pathQueueDepth, Unmet: true,
			Message: fmt.Sprintf("queue depth %d at %s latency%s reaches at most %s operations/s (queue depth / "+
				"latency), below the required %s; no tier can fix this: keep at least %d I/Os in flight, "+
				"spread the load over more volumes, or use a lower-latency type", a.QueueDepth, lat, assumed,
				num(qdOps), num(ops), needQD)})
		return
	}
	if r.LatencyAssumed {
		r.add(Warn, warnf("FIT-A1", pathLatency, "the queue-depth check assumes %s latency%s", lat, assumed))
	}
}

func (r *Result) checkVolume(at field.Path, recErr error, hddRandom bool) {
	v, d := r.Volume, r.Demand
	u := v.ThroughputUnit()
	if v.BaseIOPS >= d.IOPS && v.BaseBytesPerSec >= d.BytesPerSec {
		return
	}
	need := r.unmet(func(x *RequirementDemand) bool {
		return v.BaseIOPS >= x.Demand.IOPS && v.BaseBytesPerSec >= x.Demand.BytesPerSec
	})
	burst := v.BurstIOPS >= d.IOPS && v.BurstBytesPerSec >= d.BytesPerSec
	have := fmt.Sprintf("%s sustains %s IOPS and %s", volumeName(v), resource.Group(v.BaseIOPS), rate(float64(v.BaseBytesPerSec), u))
	if recErr != nil {
		if hddRandom {
			r.Verdict = worse(r.Verdict, Fail) // EBS-P5 already says why
			return
		}
		msg := recErr.Error()
		if f, ok := recErr.(*Finding); ok {
			msg = f.Message
		}
		r.add(Fail, Finding{Rule: "FIT-V2", Severity: SeverityError, Path: at, Unmet: true,
			Message: fmt.Sprintf("no size of %s meets %s: %s; %s", v.Spec.Type, strings.TrimSuffix(need, ","), msg, have)})
		return
	}
	rec := r.Recommendation
	fix := fmt.Sprintf("the smallest %s that sustains it is %s (%s)", v.Spec.Type, recName(rec), rec.Reason)
	switch {
	case burst && v.BurstBilled:
		r.add(Pass, warnf("AZD-P3", pathSpec.Join(pathBursting), "%s; %s is met only with on-demand bursting, which has no time "+
			"limit but is billed per burst transaction plus an hourly fee (Azure managed disk types); %s", have, need, fix))
	case burst && v.BurstUnlimited:
		// Unmet like any shortfall: an error unless fail_on_unmet is false (disks.md §7.6: fail).
		f := warnf("FIT-V1", pathSpec.Join(pathSize), "%s; %s exceeds the planned rate and only best-effort bursts reach "+
			"it (Amazon EBS volume types); %s", have, need, fix)
		f.Severity, f.Unmet = SeverityError, true
		r.add(Fail, f)
	case burst:
		rule := "FIT-B1"
		if v.Spec.Type.Cloud() == catalog.Azure {
			rule = "AZD-P1"
		}
		r.add(Warn, warnf(rule, pathSpec.Join(pathSize), "burst-only fit: %s; %s is met only while burst credits last (%s IOPS "+
			"and %s for %s from a full bucket, then back to the baseline); %s", have, need, resource.Group(v.BurstIOPS),
			rate(float64(v.BurstBytesPerSec), u), fmtDuration(v.BurstDuration), fix))
	default:
		r.add(Fail, Finding{Rule: "FIT-V1", Severity: SeverityError, Path: pathSpec.Join(pathSize), Unmet: true,
			Message: fmt.Sprintf("%s, short of %s; %s", have, strings.TrimSuffix(need, ","), fix)})
	}
}

func (r *Result) source() string {
	parts := []string{r.Volume.Source}
	if r.Node != nil && r.Node.Source != "" {
		parts = append(parts, r.Node.Source)
	}
	if r.Node != nil && r.Caching.cached() {
		if r.Node.CachedIOPS > 0 {
			parts = append(parts, fmt.Sprintf("host caching %s: the disk's traffic counts against %s's cached limits "+
				"as well as its uncached ones and the disk's, with no read hits assumed (disks.md §5.5)", r.Caching, r.Node.Name))
		} else {
			parts = append(parts, fmt.Sprintf("host caching %s: %s publishes no cached limits, so the disk's traffic "+
				"counts against its uncached limits only (disks.md §5.1, §5.5)", r.Caching, r.Node.Name))
		}
	}
	parts = append(parts, "effective rate: the least of IOPS / I/Os per operation, throughput / bytes "+
		"charged and queue depth / latency")
	if r.DemandDetail != "" {
		parts = append(parts, "demand: counted I/Os = operations × ⌈I/O size / counting unit⌉ and bytes = "+
			"operations × I/O size for each requirement at its own I/O shape (disks.md §7.9)")
	}
	if len(r.NodeSizes) > 0 {
		parts = append(parts, "sizes that sustain the demand: each candidate's baseline share against the demand "+
			"(disks.md §7.10)")
	}
	return strings.Join(parts, "; ")
}

func volumeName(v Volume) string {
	if v.Tier != "" {
		return fmt.Sprintf("the %s GiB %s volume (%s, billed as %s GiB)", resource.Group(v.Spec.SizeGiB), v.Spec.Type, v.Tier,
			resource.Group(v.BilledSizeGiB))
	}
	return fmt.Sprintf("the %s GiB %s volume", resource.Group(v.Spec.SizeGiB), v.Spec.Type)
}

func recName(rec *Recommendation) string {
	s := fmt.Sprintf("%s GiB", resource.Group(rec.Spec.SizeGiB))
	if rec.Tier != "" {
		s += " (" + rec.Tier + ")"
	}
	if p := provisionText(rec.Spec); p != "" {
		s += " with " + p
	}
	if rec.Spec.Bursting {
		s += " with on-demand bursting"
	}
	return s
}

// ceilMulDiv returns ⌈a × b / c⌉ for a, b ≥ 0 and c > 0, exactly; it saturates at the largest int64.
func ceilMulDiv(a, b, c int64) int64 {
	if a <= 0 || b <= 0 || c <= 0 {
		return 0
	}
	p := new(big.Int).Mul(big.NewInt(a), big.NewInt(b))
	p.Add(p, big.NewInt(c-1))
	p.Quo(p, big.NewInt(c))
	if !p.IsInt64() {
		return math.MaxInt64
	}
	return p.Int64()
}

func fmtBytes(b int64) string {
	switch {
	case b%mib == 0:
		return resource.Group(b/mib) + " MiB"
	case b%kib == 0:
		return resource.Group(b/kib) + " KiB"
	}
	return resource.Group(b) + " B"
}

func fmtLatency(d time.Duration) string {
	return num(float64(d)/float64(time.Millisecond)) + " ms"
}

func fmtDuration(d time.Duration) string {
	switch {
	case d >= time.Hour && d%time.Hour == 0:
		return fmt.Sprintf("%d h", d/time.Hour)
	case d >= time.Minute && d%time.Minute == 0:
		return fmt.Sprintf("%d minutes", d/time.Minute)
	}
	return fmt.Sprintf("%s minutes", num(d.Minutes()))
}
