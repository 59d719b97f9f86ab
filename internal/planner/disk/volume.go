package disk

import (
	"fmt"
	"time"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/resource"
)

// Spec describes one volume: its type, size and the settings a user may provision.
type Spec struct {
	Type    Type
	SizeGiB int64 // requested size; Azure fixed tiers round it up (§4.1)
	// IOPS is the provisioned IOPS (gp3, io1, io2, PremiumV2_LRS, UltraSSD_LRS, pd-extreme,
	// hyperdisk-balanced). 0 means the type's default; io1, io2 and pd-extreme have none and need it.
	IOPS int64
	// Throughput is the provisioned throughput in the type's ThroughputUnit (gp3: MiB/s, PremiumV2_LRS
	// and UltraSSD_LRS: MB/s, hyperdisk-balanced: MiB/s). 0 means the type's default.
	Throughput int64
	// Bursting enables Azure on-demand bursting (CSI enableBursting), Premium SSD larger than 512 GiB.
	Bursting bool
	// PerformancePlus enables Azure performance plus (CSI enablePerformancePlus), 513 GiB or more.
	PerformancePlus bool
}

// Volume is the per-volume limit record of §7.2 for one Spec.
type Volume struct {
	Spec          Spec   // as given
	Tier          string // Azure fixed tier ("P15"); "" for other types
	BilledSizeGiB int64  // the size Azure bills for a fixed tier; the requested size otherwise
	// ProvisionedIOPS and ProvisionedThroughput are the provisioned values after defaults (throughput
	// in ThroughputUnit); both are 0 for types without provisioned performance.
	ProvisionedIOPS       int64
	ProvisionedThroughput int64

	BaseIOPS         int64 // counted I/Os per second, sustained
	BurstIOPS        int64 // counted I/Os per second while a burst lasts; equals BaseIOPS without burst
	BaseBytesPerSec  int64 // throughput, sustained
	BurstBytesPerSec int64 // throughput while a burst lasts; equals BaseBytesPerSec without burst
	// BurstDuration is how long a full credit bucket lasts at the burst rate; 0 when the type does not
	// burst or BurstUnlimited is set.
	BurstDuration  time.Duration
	BurstUnlimited bool // the burst has no time limit (Azure on-demand bursting, EBS standard best effort)
	BurstBilled    bool // the burst is billed per use (Azure on-demand bursting)

	CountUnit           int64         // bytes per counted I/O: 256 KiB (SSD types) or 1 MiB (st1, sc1)
	RandomChargedAsUnit bool          // st1, sc1: a random I/O costs a full CountUnit of throughput
	Guaranteed          bool          // false for "up to" targets (Standard SSD/HDD, EBS standard)
	Latency             time.Duration // planning default service latency (§7.4)
	// Notes are warnings raised while building the volume (for example AZD-V6's old IOPS floor).
	Notes  []Finding
	Source string // formula and data row the figures come from
}

// ThroughputUnit is the unit the volume's cloud publishes throughput in.
func (v Volume) ThroughputUnit() Unit { return v.Spec.Type.ThroughputUnit() }

// limitKind is what LimitedBy reports when the volume itself is the binding limit.
func (v Volume) limitKind() Limit {
	if v.Tier != "" {
		return LimitTier
	}
	return LimitVolume
}

const (
	kib = int64(1) << 10
	mib = int64(1) << 20
	gib = int64(1) << 30

	ssdCountUnit = 256 * kib  // §2.8, §4.8
	hddCountUnit = 1024 * kib // §2.8
)

// typeInfo holds the static facts of one disk type.
type typeInfo struct {
	cloud   catalog.Cloud
	unit    Unit
	latency time.Duration
}

var typeInfos = map[Type]typeInfo{
	GP2:      {catalog.AWS, MiBPerSec, time.Millisecond},
	GP3:      {catalog.AWS, MiBPerSec, time.Millisecond},
	IO1:      {catalog.AWS, MiBPerSec, time.Millisecond},
	IO2:      {catalog.AWS, MiBPerSec, 500 * time.Microsecond},
	ST1:      {catalog.AWS, MiBPerSec, 10 * time.Millisecond},
	SC1:      {catalog.AWS, MiBPerSec, 10 * time.Millisecond},
	Standard: {catalog.AWS, MiBPerSec, 10 * time.Millisecond},

	PremiumLRS:     {catalog.Azure, MBPerSec, 2500 * time.Microsecond},
	PremiumZRS:     {catalog.Azure, MBPerSec, 2500 * time.Microsecond},
	StandardSSDLRS: {catalog.Azure, MBPerSec, 5 * time.Millisecond},
	StandardSSDZRS: {catalog.Azure, MBPerSec, 5 * time.Millisecond},
	// Standard HDD: Microsoft gives under 10 ms for writes and under 20 ms for reads; the planner uses
	// the read bound, the conservative one for Little's law.
	StandardLRS:  {catalog.Azure, MBPerSec, 20 * time.Millisecond},
	PremiumV2LRS: {catalog.Azure, MBPerSec, time.Millisecond},
	UltraSSDLRS:  {catalog.Azure, MBPerSec, time.Millisecond},

	PDStandard:        {catalog.GCP, MiBPerSec, 10 * time.Millisecond},
	PDBalanced:        {catalog.GCP, MiBPerSec, time.Millisecond},
	PDSSD:             {catalog.GCP, MiBPerSec, time.Millisecond},
	PDExtreme:         {catalog.GCP, MiBPerSec, time.Millisecond},
	HyperdiskBalanced: {catalog.GCP, MiBPerSec, time.Millisecond},
}

// builders computes each type's Volume; kept apart from typeInfos, which the builders read.
var builders = map[Type]func(Spec) (Volume, error){
	GP2: buildGP2, GP3: buildGP3, IO1: buildIO1, IO2: buildIO2, ST1: buildHDD, SC1: buildHDD, Standard: buildMagnetic,
	PremiumLRS: buildAzureFixed, PremiumZRS: buildAzureFixed, StandardSSDLRS: buildAzureFixed,
	StandardSSDZRS: buildAzureFixed, StandardLRS: buildAzureFixed, PremiumV2LRS: buildPremiumV2, UltraSSDLRS: buildUltra,
	PDStandard: buildPD, PDBalanced: buildPD, PDSSD: buildPD, PDExtreme: buildPDExtreme,
	HyperdiskBalanced: buildHyperdiskBalanced,
}

// NewVolume computes the limits of one volume. It returns a *field.Error, whose path names the Spec
// field at fault and whose detail starts with the rule id, when the spec is outside what the type accepts (a size out of range, provisioned
// values outside the type's ratios, a setting the type does not have).
func NewVolume(s Spec) (Volume, error) {
	v, err := newVolume(s)
	if err != nil {
		err = inputErr(err, field.Path{})
		if e, ok := err.(*field.Error); ok {
			e.Value = valueAt(Query{Spec: s}, pathSpec.Join(e.Path))
		}
		return Volume{}, err
	}
	return v, nil
}

// newVolume is NewVolume with its errors as *Finding, paths relative to the Spec.
func newVolume(s Spec) (Volume, error) {
	info, ok := typeInfos[s.Type]
	if !ok {
		return Volume{}, errorf("", pathType, "unknown disk type %q; valid types are %s", s.Type, field.QuoteList(Types))
	}
	if s.SizeGiB <= 0 {
		return Volume{}, errorf("", pathSize, "volume size must be at least 1 GiB, got %d GiB", s.SizeGiB)
	}
	if s.IOPS < 0 {
		return Volume{}, errorf("", pathIOPS, "provisioned IOPS must not be negative, got %d", s.IOPS)
	}
	if s.Throughput < 0 {
		return Volume{}, errorf("", pathThroughput, "provisioned throughput must not be negative, got %d %s",
			s.Throughput, info.unit.Name)
	}
	if info.cloud != catalog.Azure {
		if s.Bursting {
			return Volume{}, errorf("AZD-V8", pathBursting,
				"on-demand bursting is an Azure Premium SSD feature; %s volumes do not have it", s.Type)
		}
		if s.PerformancePlus {
			return Volume{}, errorf("AZD-V9", pathPerformancePlus,
				"performance plus is an Azure managed-disk feature; %s volumes do not have it", s.Type)
		}
	}
	v, err := builders[s.Type](s)
	if err != nil {
		return Volume{}, err
	}
	v.Spec = s
	v.Latency = info.latency
	if v.BilledSizeGiB == 0 {
		v.BilledSizeGiB = s.SizeGiB
	}
	if v.BurstIOPS < v.BaseIOPS {
		v.BurstIOPS = v.BaseIOPS
	}
	if v.BurstBytesPerSec < v.BaseBytesPerSec {
		v.BurstBytesPerSec = v.BaseBytesPerSec
	}
	return v, nil
}

// checkSize reports a size outside lo..hi GiB under a rule.
func checkSize(rule string, s Spec, lo, hi int64) error {
	if s.SizeGiB < lo || s.SizeGiB > hi {
		return errorf(rule, pathSize, "%s volumes must be %s to %s GiB, got %s GiB",
			s.Type, resource.Group(lo), resource.Group(hi), resource.Group(s.SizeGiB))
	}
	return nil
}

// noProvisioned rejects provisioned IOPS or throughput on a type that has neither.
func noProvisioned(rule string, s Spec, what string) error {
	if s.IOPS != 0 {
		return errorf(rule, pathIOPS, "%s has no provisioned IOPS (%s); got iops %d", s.Type, what, s.IOPS)
	}
	if s.Throughput != 0 {
		return errorf(rule, pathThroughput, "%s has no provisioned throughput (%s); got %d %s",
			s.Type, what, s.Throughput, s.Type.ThroughputUnit().Name)
	}
	return nil
}

// bucketDuration is the time a bucket of `amount` units lasts when spent at `perSecond` units per
// second, rounded down to the nanosecond.
func bucketDuration(amount, perSecond int64) time.Duration {
	if perSecond <= 0 || amount <= 0 {
		return 0
	}
	secs := amount / perSecond
	rem := amount % perSecond
	return time.Duration(secs)*time.Second + time.Duration(rem*int64(time.Second)/perSecond)
}

func describe(v Volume) string {
	return fmt.Sprintf("%s %s GiB", v.Spec.Type, resource.Group(v.Spec.SizeGiB))
}
