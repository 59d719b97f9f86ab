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

// DefaultBlockSize is the I/O size assumed when a workload does not give one (§7.1).
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

// Requirement is what a workload needs from one volume, sustained (§7.1).
type Requirement struct {
	IOPS        int64 // application operations per second
	BytesPerSec int64 // useful bytes per second
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
	// Demand is the requirement in counted I/Os and charged bytes; zero without a requirement.
	Demand         Demand
	Verdict        Verdict
	Findings       []Finding
	Recommendation *Recommendation // smallest configuration of the type meeting the requirement
	Source         string
}

// NodeShare is one volume's share of a node's disk limits.
type NodeShare struct {
	BaseIOPS, BurstIOPS               float64
	BaseBytesPerSec, BurstBytesPerSec float64
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
	r := Result{Volume: v, VolumesPerNode: n, Access: a, LatencyAssumed: assumed, Verdict: Pass}
	for _, n := range v.Notes {
		n.Path = pathSpec.Join(n.Path)
		r.Findings = append(r.Findings, n)
	}
	if q.Node != nil {
		if q.Node.Cloud != v.Spec.Type.Cloud() {
			return Result{}, errorf("", pathNode, "instance type %q is %s, but disk type %q is %s",
				q.Node.Name, q.Node.Cloud, v.Spec.Type, v.Spec.Type.Cloud())
		}
		node := *q.Node
		if (v.Spec.Type == PremiumV2LRS || v.Spec.Type == UltraSSDLRS) && node.PV2UltraIOPS > 0 {
			// §5.1: the separate PV2/Ultra uncached limits apply when every uncached disk is PV2 or Ultra;
			// all VolumesPerNode volumes are of this type. The burst stays at least the new baseline.
			node.BaseIOPS, node.BaseBytesPerSec = node.PV2UltraIOPS, node.PV2UltraBytesPerSec
			node.normalise()
		}
		r.Node = &node
		r.NodeShare = NodeShare{
			BaseIOPS: float64(node.BaseIOPS) / float64(n), BurstIOPS: float64(node.BurstIOPS) / float64(n),
			BaseBytesPerSec:  float64(node.BaseBytesPerSec) / float64(n),
			BurstBytesPerSec: float64(node.BurstBytesPerSec) / float64(n),
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
		r.checkFit(q.Requirement)
	}
	r.Source = r.source()
	return r, nil
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
			bound{iops / perOp, LimitInstance, "IOPS", fmt.Sprintf("instance %s: %s IOPS%s", n.Name, num(iops*float64(r.VolumesPerNode)), share)},
			bound{bps / charged, LimitInstance, "throughput", fmt.Sprintf("instance %s: %s%s", n.Name,
				rate(bps*float64(r.VolumesPerNode), n.ThroughputUnit()), share)})
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

// checkFit compares the requirement with the volume, node and queue depth (§7.4–§7.6) and recommends.
func (r *Result) checkFit(req Requirement) {
	v, a := r.Volume, r.Access
	u := v.ThroughputUnit()
	b := a.BlockSize
	// Operations per second: max(required IOPS, required bytes / block size), as numerator/denominator.
	opsNum, opsDen := req.IOPS, int64(1)
	at := pathRequiredIOPS
	if big.NewInt(0).Mul(big.NewInt(req.IOPS), big.NewInt(b)).Cmp(big.NewInt(req.BytesPerSec)) < 0 {
		opsNum, opsDen, at = req.BytesPerSec, b, pathRequiredThroughput
	}
	ops := float64(opsNum) / float64(opsDen)
	pn, pd := ioPerOp(v, a)
	r.Demand = Demand{
		IOPS:        ceilMulDiv(opsNum, pn, opsDen*pd),
		BytesPerSec: ceilMulDiv(opsNum, bytesCharged(v, a), opsDen),
	}
	need := fmt.Sprintf("%s operations/s of %s %s I/O (%s)", num(ops), fmtBytes(b), a.Pattern, r.Demand.String(u))

	if v.RandomChargedAsUnit && a.Pattern == Random {
		r.add(Fail, Finding{Rule: "EBS-P5", Severity: SeverityError, Path: pathPattern, Unmet: true,
			Message: fmt.Sprintf("%s counts every random I/O as a full 1 MiB against its throughput (rule: st1/sc1 are "+
				"rejected for a random I/O profile, Amazon EBS volume types): %s needs %s of throughput on this volume; use gp3 or io2, "+
				"or set the pattern to sequential if the I/O really is sequential", v.Spec.Type, need,
				rate(float64(r.Demand.BytesPerSec), u))})
	}
	if v.Spec.Type == Standard {
		r.add(Warn, warnf("EBS-P6", pathSpec.Join(pathType), "standard (magnetic) volumes are best effort, 40–200 IOPS and 40–90 "+
			"MiB/s with no guarantee (Amazon EBS volume types); kubefit plans them at 40 IOPS and 40 MiB/s for %s", need))
	}
	if v.Spec.Type.Cloud() == catalog.Azure && !v.Guaranteed {
		r.add(Warn, warnf("AZD-P2", pathSpec.Join(pathType), "%s figures are \"up to\" targets met 99 %% of the time, not "+
			"provisioned guarantees (Azure managed disk types); use Premium_LRS or PremiumV2_LRS for %s", v.Spec.Type, need))
	}
	r.checkQueueDepth(ops)

	rec, recErr := Recommend(v.Spec.Type, r.Demand, v.Spec.SizeGiB)
	if recErr == nil {
		r.Recommendation = &rec
	}
	r.checkVolume(ops, need, at, recErr)
	r.checkNode(ops, need)
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

func (r *Result) checkVolume(ops float64, need string, at field.Path, recErr error) {
	v, a := r.Volume, r.Access
	u := v.ThroughputUnit()
	pn, pd := ioPerOp(v, a)
	perOp, charged := float64(pn)/float64(pd), float64(bytesCharged(v, a))
	sustained := math.Min(float64(v.BaseIOPS)/perOp, float64(v.BaseBytesPerSec)/charged)
	burst := math.Min(float64(v.BurstIOPS)/perOp, float64(v.BurstBytesPerSec)/charged)
	if sustained >= ops {
		return
	}
	have := fmt.Sprintf("%s sustains %s IOPS and %s", volumeName(v), resource.Group(v.BaseIOPS), rate(float64(v.BaseBytesPerSec), u))
	if recErr != nil {
		if v.RandomChargedAsUnit && a.Pattern == Random {
			r.Verdict = worse(r.Verdict, Fail) // EBS-P5 already says why
			return
		}
		msg := recErr.Error()
		if f, ok := recErr.(*Finding); ok {
			msg = f.Message
		}
		r.add(Fail, Finding{Rule: "FIT-V2", Severity: SeverityError, Path: at, Unmet: true,
			Message: fmt.Sprintf("no size of %s meets %s: %s; %s", v.Spec.Type, need, msg, have)})
		return
	}
	rec := r.Recommendation
	fix := fmt.Sprintf("the smallest %s that sustains it is %s (%s)", v.Spec.Type, recName(rec), rec.Reason)
	switch {
	case burst >= ops && v.BurstBilled:
		r.add(Pass, warnf("AZD-P3", pathSpec.Join(pathBursting), "%s; %s is met only with on-demand bursting, which has no time "+
			"limit but is billed per burst transaction plus an hourly fee (Azure managed disk types); %s", have, need, fix))
	case burst >= ops && v.BurstUnlimited:
		f := warnf("FIT-V1", pathSpec.Join(pathSize), "%s; %s exceeds the planned rate and only best-effort bursts reach "+
			"it (Amazon EBS volume types); %s", have, need, fix)
		f.Unmet = true
		r.add(Fail, f)
	case burst >= ops:
		rule := "FIT-B1"
		if v.Spec.Type.Cloud() == catalog.Azure {
			rule = "AZD-P1"
		}
		r.add(Warn, warnf(rule, pathSpec.Join(pathSize), "burst-only fit: %s; %s is met only while burst credits last (%s IOPS "+
			"and %s for %s from a full bucket, then back to the baseline); %s", have, need, resource.Group(v.BurstIOPS),
			rate(float64(v.BurstBytesPerSec), u), fmtDuration(v.BurstDuration), fix))
	default:
		r.add(Fail, Finding{Rule: "FIT-V1", Severity: SeverityWarning, Path: pathSpec.Join(pathSize), Unmet: true,
			Message: fmt.Sprintf("%s, short of %s; %s", have, need, fix)})
	}
}

func (r *Result) checkNode(ops float64, need string) {
	n := r.Node
	if n == nil {
		return
	}
	v, a := r.Volume, r.Access
	pn, pd := ioPerOp(v, a)
	perOp, charged := float64(pn)/float64(pd), float64(bytesCharged(v, a))
	capIOPS := math.Inf(1)
	if n.NonNitro && (v.Spec.Type == IO1 || v.Spec.Type == IO2) {
		capIOPS = nonNitroIOPS
	}
	s := r.NodeShare
	sustained := math.Min(math.Min(s.BaseIOPS, capIOPS)/perOp, s.BaseBytesPerSec/charged)
	burst := math.Min(math.Min(s.BurstIOPS, capIOPS)/perOp, s.BurstBytesPerSec/charged)
	if sustained >= ops {
		return
	}
	share := "its"
	if r.VolumesPerNode > 1 {
		share = fmt.Sprintf("each of %d volumes' equal share of its", r.VolumesPerNode)
	}
	have := fmt.Sprintf("instance %s sustains %s %s IOPS and %s", n.Name, share, num(s.BaseIOPS),
		rate(s.BaseBytesPerSec, n.ThroughputUnit()))
	if n.Source != "" {
		have += " (" + n.Source + ")"
	}
	if burst >= ops {
		window := "for up to 30 minutes on burst credits"
		if n.BurstWindow > 0 {
			window = fmt.Sprintf("for %s once every %s", fmtDuration(n.BurstDuration), fmtDuration(n.BurstWindow))
		}
		r.add(Warn, warnf("FIT-N1", pathNode, "burst-only fit on the node: %s; %s fits only within its burst "+
			"limit of %s IOPS and %s, available %s; choose a larger instance size for a sustained fit (a bigger "+
			"disk will not help)", have, need, num(s.BurstIOPS), rate(s.BurstBytesPerSec, n.ThroughputUnit()), window))
		return
	}
	r.add(Fail, Finding{Rule: "FIT-N2", Severity: SeverityError, Path: pathNode, Unmet: true,
		Message: fmt.Sprintf("%s, short of %s even while it bursts (%s IOPS, %s); a larger instance size is needed, "+
			"a bigger disk will not help", have, need, num(s.BurstIOPS), rate(s.BurstBytesPerSec, n.ThroughputUnit()))})
}

func (r *Result) source() string {
	parts := []string{r.Volume.Source}
	if r.Node != nil && r.Node.Source != "" {
		parts = append(parts, r.Node.Source)
	}
	parts = append(parts, "effective rate: the least of IOPS / I/Os per operation, throughput / bytes "+
		"charged and queue depth / latency")
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
