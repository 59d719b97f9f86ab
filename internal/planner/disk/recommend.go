package disk

import (
	"fmt"
	"strings"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/resource"
)

// Demand is what a workload asks of one volume, in the units limits are counted in (§7.5).
type Demand struct {
	IOPS        int64 // counted I/Os per second
	BytesPerSec int64 // bytes per second charged against throughput limits
}

// String describes the demand with throughput in unit u: "1,000 IOPS and 16.38 MB/s".
func (d Demand) String(u Unit) string {
	return fmt.Sprintf("%s IOPS and %s", resource.Group(d.IOPS), rate(float64(d.BytesPerSec), u))
}

// Recommendation is the smallest configuration of one disk type that sustains a demand (§7.8).
type Recommendation struct {
	// Spec is what to request: type, size (the full tier size for Azure fixed tiers) and, for
	// provisioned types, the IOPS and throughput to provision.
	Spec          Spec
	Tier          string // Azure fixed tier, "" otherwise
	BilledSizeGiB int64  // what is paid for
	Volume        Volume // the limits of Spec
	Reason        string // why this is the smallest, with what it costs in provisioned GiB
}

// Recommend returns the smallest size, tier and provisioned values of type t whose baseline meets the
// demand and holds capacityGiB of data (§7.8). Burst never counts toward a requirement, except Azure
// on-demand bursting, which is sustained but billed and is used (Spec.Bursting) only when no Premium
// tier's baseline suffices. It returns a *Finding error (rule FIT-V2) when no size of the type meets
// the demand.
func Recommend(t Type, d Demand, capacityGiB int64) (Recommendation, error) {
	if _, ok := typeInfos[t]; !ok {
		return Recommendation{}, errorf("", field.Path{}, "unknown disk type %q; valid types are %s", t, field.QuoteList(Types))
	}
	if d.IOPS < 0 || d.BytesPerSec < 0 {
		return Recommendation{}, errorf("", field.Path{}, "demand must not be negative, got %s",
			d.String(t.ThroughputUnit()))
	}
	capacityGiB = max(capacityGiB, 1)
	var (
		spec   Spec
		reason string
		err    error
	)
	switch {
	case isAzureFixed(t):
		spec, reason, err = recommendAzureFixed(t, d, capacityGiB)
	default:
		spec, reason, err = recommendScaled(t, d, capacityGiB)
	}
	if err != nil {
		return Recommendation{}, err
	}
	v, err := newVolume(spec)
	if err != nil {
		return Recommendation{}, errorf("FIT-V2", field.Path{}, "the sizing rule for %s produced an invalid volume: %v", t, err)
	}
	iops, bps := v.BaseIOPS, v.BaseBytesPerSec
	if spec.Bursting {
		iops, bps = v.BurstIOPS, v.BurstBytesPerSec
	}
	if iops < d.IOPS || bps < d.BytesPerSec {
		return Recommendation{}, errorf("FIT-V2", field.Path{}, "the sizing rule for %s produced %s GiB, which "+
			"sustains %s IOPS and %s, short of %s", t, resource.Group(spec.SizeGiB), resource.Group(iops),
			rate(float64(bps), t.ThroughputUnit()), d.String(t.ThroughputUnit()))
	}
	return Recommendation{Spec: spec, Tier: v.Tier, BilledSizeGiB: v.BilledSizeGiB, Volume: v, Reason: reason}, nil
}

func recommendAzureFixed(t Type, d Demand, capacityGiB int64) (Spec, string, error) {
	u := MBPerSec
	tiers := tiersOf(t)
	var below *azureTier
	for i, row := range tiers {
		if row.sizeGiB < capacityGiB {
			continue
		}
		if row.iops >= d.IOPS && row.mbps*u.BytesPerSec >= d.BytesPerSec {
			why := fmt.Sprintf("%s (%s GiB) is the smallest %s tier that holds %s GiB and sustains %s "+
				"(%s IOPS, %s MB/s baseline; burst is not counted)", row.name, resource.Group(row.sizeGiB), t,
				resource.Group(capacityGiB), d.String(u), resource.Group(row.iops), resource.Group(row.mbps))
			if below != nil {
				why += fmt.Sprintf("; the tier below, %s (%s GiB), sustains only %s IOPS and %s MB/s",
					below.name, resource.Group(below.sizeGiB), resource.Group(below.iops), resource.Group(below.mbps))
			}
			if row.sizeGiB > capacityGiB {
				why += fmt.Sprintf("; request the full %s GiB: Azure bills any size from %s to %s GiB as %s",
					resource.Group(row.sizeGiB), resource.Group(tierFloor(tiers, i)), resource.Group(row.sizeGiB), row.name)
			}
			return Spec{Type: t, SizeGiB: row.sizeGiB}, why, nil
		}
		below = &tiers[i]
	}
	if isAzurePremium(t) {
		for _, row := range tiers {
			if row.sizeGiB < capacityGiB || row.burst != burstOnDemand {
				continue
			}
			if row.burstIOPS >= d.IOPS && row.burstMBps*u.BytesPerSec >= d.BytesPerSec {
				return Spec{Type: t, SizeGiB: row.sizeGiB, Bursting: true}, fmt.Sprintf("no %s tier's baseline "+
					"sustains %s; %s (%s GiB) does with on-demand bursting (enableBursting: %s IOPS, %s MB/s, no time "+
					"limit, billed per use)", t, d.String(u), row.name, resource.Group(row.sizeGiB), resource.Group(row.burstIOPS),
					resource.Group(row.burstMBps)), nil
			}
		}
	}
	if len(tiers) == 0 {
		return Spec{}, "", errorf("FIT-V2", field.Path{}, "%s has no fixed tiers", t)
	}
	last := tiers[len(tiers)-1]
	alt := "PremiumV2_LRS or UltraSSD_LRS"
	if !isAzurePremium(t) {
		alt = "Premium_LRS, PremiumV2_LRS or UltraSSD_LRS"
	}
	if capacityGiB > last.sizeGiB {
		return Spec{}, "", errorf("FIT-V2", field.Path{}, "no %s tier holds %s GiB: the largest, %s, is %s GiB (rule "+
			"AZD-V7: fixed-tier SKUs allow at most 32,767 GiB); consider %s", t, resource.Group(capacityGiB), last.name,
			resource.Group(last.sizeGiB), alt)
	}
	return Spec{}, "", errorf("FIT-V2", field.Path{}, "no %s tier sustains %s: the largest, %s (%s GiB), gives %s IOPS "+
		"and %s MB/s; consider %s", t, d.String(u), last.name, resource.Group(last.sizeGiB), resource.Group(last.iops),
		resource.Group(last.mbps), alt)
}

// tierFloor returns the smallest size that rounds up to tiers[i].
func tierFloor(tiers []azureTier, i int) int64 {
	if i == 0 {
		return 1
	}
	return tiers[i-1].sizeGiB + 1
}

// sizing collects the terms of a size formula so the reason can name the binding one.
type sizing struct {
	size  int64
	terms []string
}

func (z *sizing) atLeast(v int64, why string) {
	if v > z.size {
		z.size = v
		z.terms = []string{why}
	} else if v == z.size && v > 0 {
		z.terms = append(z.terms, why)
	}
}

func (z *sizing) reason() string {
	return strings.Join(z.terms, " and ")
}

func infeasible(t Type, d Demand, limit string) error {
	return errorf("FIT-V2", field.Path{}, "no size of %s sustains %s: %s", t, d.String(t.ThroughputUnit()), limit)
}

// scaledRule raises z to the smallest size of type t that sustains d and sets the provisioned values
// of spec, or returns a FIT-V2 finding when no size can.
type scaledRule func(t Type, d Demand, z *sizing, spec *Spec) error

// scaledRules holds the sizing rule of every type whose limits scale with size or are provisioned.
var scaledRules = map[Type]scaledRule{
	GP3:               sizeGP3,
	IO2:               sizeIO2,
	IO1:               sizeIO1,
	GP2:               sizeGP2,
	ST1:               sizeHDD,
	SC1:               sizeHDD,
	Standard:          sizeMagnetic,
	PremiumV2LRS:      sizePremiumV2,
	UltraSSDLRS:       sizeUltra,
	PDStandard:        sizePD,
	PDBalanced:        sizePD,
	PDSSD:             sizePD,
	PDExtreme:         sizePDExtreme,
	HyperdiskBalanced: sizeHyperdiskBalanced,
}

func recommendScaled(t Type, d Demand, capacityGiB int64) (Spec, string, error) {
	z := sizing{}
	z.atLeast(capacityGiB, fmt.Sprintf("the %s GiB of data", resource.Group(capacityGiB)))
	spec := Spec{Type: t}
	u := t.ThroughputUnit()
	if rule, ok := scaledRules[t]; ok {
		if err := rule(t, d, &z, &spec); err != nil {
			return Spec{}, "", err
		}
	}
	spec.SizeGiB = z.size
	if hi := maxSize(t); spec.SizeGiB > hi {
		return Spec{}, "", infeasible(t, d, fmt.Sprintf("it would need %s GiB (set by %s), above the %s GiB maximum",
			resource.Group(spec.SizeGiB), z.reason(), resource.Group(hi)))
	}
	why := fmt.Sprintf("%s GiB is the smallest %s volume that sustains %s; the size is set by %s", resource.Group(spec.SizeGiB),
		t, d.String(u), z.reason())
	if spec.IOPS != 0 || spec.Throughput != 0 {
		why += "; provision " + provisionText(spec)
	}
	return spec, why, nil
}

// sizeGP3 provisions IOPS and throughput; the size follows 500 IOPS per GiB.
func sizeGP3(t Type, d Demand, z *sizing, spec *Spec) error {
	iops := max(gp3MinIOPS, d.IOPS)
	tp := max(gp3MinMiBps, resource.CeilDiv(d.BytesPerSec, mib))
	if tp*gp3IOPSPerMiBps > iops {
		iops = tp * gp3IOPSPerMiBps
	}
	if iops > gp3MaxIOPS || tp > gp3MaxMiBps {
		return infeasible(t, d, "gp3 provisions at most 80,000 IOPS and 2,000 MiB/s, with at most "+
			"0.25 MiB/s per IOPS (Amazon EBS volume types)")
	}
	if iops > gp3MinIOPS {
		z.atLeast(resource.CeilDiv(iops, gp3IOPSPerGiB), fmt.Sprintf("%s IOPS at 500 IOPS per GiB", resource.Group(iops)))
	}
	spec.IOPS, spec.Throughput = iops, tp
	return nil
}

// sizeIO2 provisions IOPS (at least 1,000 per 256 MiB/s); 1,000 IOPS per GiB.
func sizeIO2(t Type, d Demand, z *sizing, spec *Spec) error {
	iops := max(io2MinIOPS, d.IOPS, ceilMulDiv(d.BytesPerSec, 1000, 256*mib))
	if iops > io2MaxIOPS || d.BytesPerSec > 4000*mib {
		return infeasible(t, d, "io2 provisions at most 256,000 IOPS and 4,000 MiB/s (Amazon EBS volume types)")
	}
	z.atLeast(4, "the 4 GiB minimum")
	z.atLeast(resource.CeilDiv(iops, io2IOPSPerGiB), fmt.Sprintf("%s IOPS at 1,000 IOPS per GiB", resource.Group(iops)))
	spec.IOPS = iops
	return nil
}

// sizeIO1 provisions IOPS; 50 IOPS per GiB.
func sizeIO1(t Type, d Demand, z *sizing, spec *Spec) error {
	iops := max(io1MinIOPS, d.IOPS)
	if d.BytesPerSec > 500*mib {
		iops = max(iops, ceilMulDiv(d.BytesPerSec, 64, mib))
	}
	if iops > io1MaxIOPS || d.BytesPerSec > IO1MaxThroughput(iops) {
		return infeasible(t, d, "io1 provisions at most 64,000 IOPS and 1,000 MiB/s (Amazon EBS volume types)")
	}
	z.atLeast(4, "the 4 GiB minimum")
	z.atLeast(resource.CeilDiv(iops, io1IOPSPerGiB), fmt.Sprintf("%s IOPS at 50 IOPS per GiB", resource.Group(iops)))
	spec.IOPS = iops
	return nil
}

// sizeGP2 sizes for 3 IOPS per GiB and the 250 MiB/s step at 334 GiB.
func sizeGP2(t Type, d Demand, z *sizing, spec *Spec) error {
	if d.IOPS > gp2MaxIOPS || d.BytesPerSec > 250*mib {
		return infeasible(t, d, "gp2 sustains at most 16,000 IOPS and 250 MiB/s (Amazon EBS volume types)")
	}
	if d.IOPS > gp2MinIOPS {
		z.atLeast(resource.CeilDiv(d.IOPS, gp2IOPSPerGiB), fmt.Sprintf("%s IOPS at 3 IOPS per GiB", resource.Group(d.IOPS)))
	}
	if d.BytesPerSec > 128*mib {
		z.atLeast(334, "more than 128 MiB/s (250 MiB/s from 334 GiB)")
	}
	return nil
}

// sizeHDD sizes st1 and sc1 for their baseline throughput per TiB.
func sizeHDD(t Type, d Demand, z *sizing, spec *Spec) error {
	u := t.ThroughputUnit()
	m := hddModels[t]
	if d.BytesPerSec > m.baseMax*mib || d.IOPS > m.maxIOPS {
		return infeasible(t, d, fmt.Sprintf("%s sustains at most %d MiB/s and %d IOPS of 1 MiB (Amazon EBS volume types)",
			t, m.baseMax, m.maxIOPS))
	}
	z.atLeast(125, "the 125 GiB minimum")
	z.atLeast(resource.CeilDiv(d.BytesPerSec, m.basePerTiB*kib), fmt.Sprintf("%s at %d MiB/s per TiB baseline",
		rate(float64(d.BytesPerSec), u), m.basePerTiB))
	return nil
}

// sizeMagnetic only checks the planned 40 IOPS and 40 MiB/s.
func sizeMagnetic(t Type, d Demand, z *sizing, spec *Spec) error {
	if d.IOPS > 40 || d.BytesPerSec > 40*mib {
		return infeasible(t, d, "magnetic volumes are planned at 40 IOPS and 40 MiB/s (Amazon EBS volume types)")
	}
	return nil
}

// sizePremiumV2 provisions IOPS and MB/s; 500 IOPS per GiB, more than 125 MB/s above 6 GiB.
func sizePremiumV2(t Type, d Demand, z *sizing, spec *Spec) error {
	iops := max(pv2MinIOPS, d.IOPS)
	mbps := max(pv2MinMBps, resource.CeilDiv(d.BytesPerSec, MBPerSec.BytesPerSec))
	if mbps*pv2IOPSPerMBps > iops {
		iops = mbps * pv2IOPSPerMBps
	}
	if iops > pv2MaxIOPS || mbps > pv2MaxMBps {
		return infeasible(t, d, "PremiumV2_LRS provisions at most 80,000 IOPS and 2,000 MB/s, with at "+
			"most 0.25 MB/s per IOPS (Azure managed disk types)")
	}
	if iops > pv2MinIOPS {
		z.atLeast(resource.CeilDiv(iops, pv2IOPSPerGiB), fmt.Sprintf("%s IOPS at 500 IOPS per GiB", resource.Group(iops)))
	}
	if mbps > pv2MinMBps {
		z.atLeast(pv2SmallGiB+1, "more than 125 MB/s (needs more than 6 GiB)")
	}
	spec.IOPS, spec.Throughput = iops, mbps
	return nil
}

// sizeUltra provisions IOPS and MB/s; 1,000 IOPS per GiB.
func sizeUltra(t Type, d Demand, z *sizing, spec *Spec) error {
	iops := max(ultraMinIOPS, d.IOPS)
	mbps := max(ultraMinMBps, resource.CeilDiv(d.BytesPerSec, MBPerSec.BytesPerSec))
	if mbps*4 > iops {
		iops = mbps * 4
	}
	if iops > ultraMaxIOPS || mbps > ultraMaxMBps {
		return infeasible(t, d, "UltraSSD_LRS provisions at most 400,000 IOPS and 10,000 MB/s, with "+
			"at most 0.25 MB/s per IOPS (Azure managed disk types)")
	}
	z.atLeast(ultraMinGiB, "the 4 GiB minimum")
	z.atLeast(resource.CeilDiv(iops, ultraIOPSPerGiB), fmt.Sprintf("%s IOPS at 1,000 IOPS per GiB", resource.Group(iops)))
	spec.IOPS, spec.Throughput = iops, mbps
	return nil
}

// sizePD sizes pd-standard, pd-balanced and pd-ssd for their IOPS and throughput per GiB.
func sizePD(t Type, d Demand, z *sizing, spec *Spec) error {
	u := t.ThroughputUnit()
	m := pdModels[t]
	if (m.maxIOPS > 0 && d.IOPS > m.maxIOPS) || (m.maxMiBps > 0 && d.BytesPerSec > m.maxMiBps*mib) {
		return infeasible(t, d, "the per-VM ceiling kubefit applies is lower ("+m.note+")")
	}
	z.atLeast(ceilMulDiv(d.IOPS, 100, m.iopsPerGiBx100), fmt.Sprintf("%s IOPS at %s IOPS per GiB",
		resource.Group(d.IOPS), num(float64(m.iopsPerGiBx100)/100)))
	z.atLeast(ceilMulDiv(d.BytesPerSec, 100, m.mibpsPerGiBx100*mib), fmt.Sprintf("%s at %s MiB/s per GiB",
		rate(float64(d.BytesPerSec), u), num(float64(m.mibpsPerGiBx100)/100)))
	return nil
}

// sizePDExtreme provisions IOPS.
func sizePDExtreme(t Type, d Demand, z *sizing, spec *Spec) error {
	iops := max(pdExtremeMinIOPS, d.IOPS)
	if iops > pdExtremeMaxIOPS || d.BytesPerSec > pdExtremeVMMiBps*mib {
		return infeasible(t, d, "pd-extreme provisions about 2,500 to 120,000 IOPS, and a VM drives at "+
			"most 4,000 MiB/s (Google Cloud disk performance)")
	}
	spec.IOPS = iops
	return nil
}

// sizeHyperdiskBalanced provisions IOPS and throughput; 500 IOPS per GiB.
func sizeHyperdiskBalanced(t Type, d Demand, z *sizing, spec *Spec) error {
	iops := max(hdbDefaultIOPS, d.IOPS)
	tp := max(hdbDefaultMiBps, resource.CeilDiv(d.BytesPerSec, mib))
	if iops > hdbMaxIOPS || tp > hdbMaxMiBps {
		return infeasible(t, d, "hyperdisk-balanced provisions at most 160,000 IOPS and 2,400 MiB/s (Google Cloud disk performance)")
	}
	if iops > hdbDefaultIOPS {
		z.atLeast(resource.CeilDiv(iops, hdbIOPSPerGiB), fmt.Sprintf("%s IOPS at 500 IOPS per GiB", resource.Group(iops)))
	}
	spec.IOPS, spec.Throughput = iops, tp
	return nil
}

func provisionText(s Spec) string {
	var parts []string
	if s.IOPS != 0 {
		parts = append(parts, resource.Group(s.IOPS)+" IOPS")
	}
	if s.Throughput != 0 {
		parts = append(parts, resource.Group(s.Throughput)+" "+s.Type.ThroughputUnit().Name)
	}
	return strings.Join(parts, " and ")
}

// maxSize is the largest size of a size-scaled or provisioned type (EBS-V6..V8, AZD-V5..V6, §6).
func maxSize(t Type) int64 {
	switch t {
	case GP2, IO1, ST1, SC1:
		return 16_384
	case Standard:
		return 1_024
	}
	return 65_536
}
