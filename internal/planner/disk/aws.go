package disk

import (
	"fmt"
	"time"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/resource"
)

// Sources of the AWS EBS volume formulas (disks.md §2, §10).
const (
	srcEBSDocs = "AWS EBS User Guide (awsdocs/amazon-ec2-user-guide@d289961 doc_source/" +
		"general-purpose.md, provisioned-iops.md, hdd-vols.md, ebs-volume-types.md)"
	srcGP3 = "Amazon EBS volume types: gp3 2025 limits: EC2 API reference CreateVolume/ModifyVolume; " +
		"kubernetes-sigs/aws-ebs-csi-driver PRs #2678, #2682"
	srcIO2 = "Amazon EBS volume types: io2 Block Express: https://docs.aws.amazon.com/ebs/latest/userguide/provisioned-iops.html"
)

// gp2 (§2.2).
const (
	gp2MinIOPS      = 100
	gp2MaxIOPS      = 16_000
	gp2IOPSPerGiB   = 3
	gp2BurstIOPS    = 3_000
	gp2BucketCredit = 5_400_000 // I/O credits in a full bucket
)

// GP2BaseIOPS is baseIOPS(S) = clamp(3 × S, 100, 16,000) of §2.2.
func GP2BaseIOPS(sizeGiB int64) int64 {
	return min(max(gp2IOPSPerGiB*sizeGiB, gp2MinIOPS), gp2MaxIOPS)
}

func gp2TPBase(sizeGiB int64) int64 {
	if sizeGiB >= 334 {
		return 250 * mib
	}
	return 128 * mib
}

func gp2TPBurst(sizeGiB int64) int64 {
	if sizeGiB > 170 {
		return 250 * mib
	}
	return 128 * mib
}

func buildGP2(s Spec) (Volume, error) {
	if err := checkSize("EBS-V8", s, 1, 16_384); err != nil {
		return Volume{}, err
	}
	if err := noProvisioned("EBS-V3", s, "iops and throughput are only for gp3, io1 and io2; gp2 IOPS follow the size"); err != nil {
		return Volume{}, err
	}
	base := GP2BaseIOPS(s.SizeGiB)
	v := Volume{
		BaseIOPS: base, BurstIOPS: base,
		BaseBytesPerSec: gp2TPBase(s.SizeGiB), BurstBytesPerSec: gp2TPBurst(s.SizeGiB),
		CountUnit: ssdCountUnit, Guaranteed: true,
	}
	src := fmt.Sprintf("Amazon EBS volume types: gp2: baseIOPS = clamp(3 × %d GiB, 100, 16,000) = %s IOPS; throughput %s MiB/s",
		s.SizeGiB, resource.Group(base), resource.Group(v.BaseBytesPerSec/mib))
	if base < gp2BurstIOPS {
		v.BurstIOPS = gp2BurstIOPS
		v.BurstDuration = bucketDuration(gp2BucketCredit, gp2BurstIOPS-base)
		src += fmt.Sprintf("; burst 3,000 IOPS and %s MiB/s for 5,400,000 / (3,000 − %s) s = %s from a full bucket",
			resource.Group(v.BurstBytesPerSec/mib), resource.Group(base), v.BurstDuration.Round(time.Second))
	}
	v.Source = src + "; " + srcEBSDocs
	return v, nil
}

// gp3 (§2.3).
const (
	gp3MinIOPS       = 3_000
	gp3MaxIOPS       = 80_000
	gp3IOPSPerGiB    = 500
	gp3MinMiBps      = 125
	gp3MaxMiBps      = 2_000
	gp3IOPSPerMiBps  = 4 // throughput ≤ 0.25 MiB/s per provisioned IOPS
	gp3LegacyMaxIOPS = 16_000
)

// GP3MaxIOPS is min(80,000, max(3,000, 500 × S)), the most IOPS a gp3 volume of S GiB may provision (§2.3).
func GP3MaxIOPS(sizeGiB int64) int64 {
	return min(gp3MaxIOPS, max(gp3MinIOPS, gp3IOPSPerGiB*sizeGiB))
}

func buildGP3(s Spec) (Volume, error) {
	if err := checkSize("EBS-V8", s, 1, 65_536); err != nil {
		return Volume{}, err
	}
	iops := s.IOPS
	if iops == 0 {
		iops = gp3MinIOPS
	}
	tp := s.Throughput
	if tp == 0 {
		tp = gp3MinMiBps
	}
	if err := checkGP3(iops, tp, s.SizeGiB, pathIOPS, pathThroughput); err != nil {
		return Volume{}, err
	}
	return Volume{
		ProvisionedIOPS: iops, ProvisionedThroughput: tp,
		BaseIOPS: iops, BaseBytesPerSec: tp * mib,
		CountUnit: ssdCountUnit, Guaranteed: true,
		Source: fmt.Sprintf("Amazon EBS volume types: gp3: provisioned %s IOPS and %s MiB/s, no bursting; %s",
			resource.Group(iops), resource.Group(tp), srcGP3),
	}, nil
}

// checkGP3 applies EBS-V4 and EBS-V5 to provisioned gp3 values at one size.
func checkGP3(iops, tp, sizeGiB int64, iopsAt, tpAt field.Path) error {
	if iops < gp3MinIOPS || iops > gp3MaxIOPS {
		return errorf("EBS-V4", iopsAt, "gp3 IOPS must be 3,000 to 80,000 (rule: 3,000 ≤ IOPS ≤ 80,000 and "+
			"IOPS ≤ max(3,000, 500 × size)); got %s", resource.Group(iops))
	}
	if limit := GP3MaxIOPS(sizeGiB); iops > limit {
		return errorf("EBS-V4", iopsAt, "gp3 IOPS must not exceed 500 per GiB of volume size (rule: IOPS ≤ "+
			"max(3,000, 500 × size)); %s IOPS on %s GiB is %s IOPS per GiB, so the most a %s GiB volume allows "+
			"is %s IOPS and %s IOPS needs at least %s GiB (EC2: \"Iops to volume size ratio of %.6f is too high; "+
			"maximum is 500\")", resource.Group(iops), resource.Group(sizeGiB), num(float64(iops)/float64(sizeGiB)), resource.Group(sizeGiB),
			resource.Group(limit), resource.Group(iops), resource.Group(resource.CeilDiv(iops, gp3IOPSPerGiB)), float64(iops)/float64(sizeGiB))
	}
	if tp < gp3MinMiBps || tp > gp3MaxMiBps {
		return errorf("EBS-V5", tpAt, "gp3 throughput must be 125 to 2,000 MiB/s (rule: 125 ≤ throughput ≤ "+
			"2,000 and throughput ≤ 0.25 × IOPS); got %s MiB/s", resource.Group(tp))
	}
	if tp*gp3IOPSPerMiBps > iops {
		return errorf("EBS-V5", tpAt, "gp3 throughput must not exceed 0.25 MiB/s per provisioned IOPS (rule: "+
			"throughput ≤ 0.25 × IOPS); %s MiB/s with %s IOPS is %.6f MiB/s per IOPS, so %s IOPS allow at most %s "+
			"MiB/s and %s MiB/s needs at least %s IOPS (EC2: \"Throughput (MiBps) to iops ratio of %.6f is too high; "+
			"maximum is 0.250000 MiBps per iops\")", resource.Group(tp), resource.Group(iops), float64(tp)/float64(iops), resource.Group(iops),
			resource.Group(iops/gp3IOPSPerMiBps), resource.Group(tp), resource.Group(tp*gp3IOPSPerMiBps), float64(tp)/float64(iops))
	}
	return nil
}

// io1 (§2.4).
const (
	io1MinIOPS    = 100
	io1MaxIOPS    = 64_000
	io1IOPSPerGiB = 50
	nonNitroIOPS  = 32_000 // io1 and io2 on instance types that are not Nitro (§2.4, §2.5)
)

// IO1MaxThroughput is tpCap_io1(P) of §2.4 in bytes per second: up to 32,000 provisioned IOPS "256 KiB/s
// for each IOPS provisioned, up to a maximum of 500 MiB/s" (EC2 User Guide, Provisioned IOPS SSD volumes),
// min(1,000, P / 64) MiB/s above.
func IO1MaxThroughput(iops int64) int64 {
	if iops <= 32_000 {
		return min(500*mib, iops*256*1024)
	}
	return min(1000*mib, iops*mib/64)
}

func buildIO1(s Spec) (Volume, error) {
	if err := checkSize("EBS-V6", s, 4, 16_384); err != nil {
		return Volume{}, err
	}
	if s.Throughput != 0 {
		return Volume{}, errorf("EBS-V3", pathThroughput, "throughput is provisioned only on gp3; io1 "+
			"throughput follows the provisioned IOPS (Amazon EBS volume types); got %d MiB/s", s.Throughput)
	}
	if s.IOPS == 0 {
		return Volume{}, errorf("EBS-V6", pathIOPS, "io1 volumes need provisioned IOPS (rule: 100 ≤ IOPS ≤ "+
			"min(64,000, 50 × size))")
	}
	if s.IOPS < io1MinIOPS || s.IOPS > min(io1MaxIOPS, io1IOPSPerGiB*s.SizeGiB) {
		return Volume{}, errorf("EBS-V6", pathIOPS, "io1 IOPS must be 100 to min(64,000, 50 × size) = %s on "+
			"%s GiB (rule: 100 ≤ IOPS ≤ min(64,000, 50 × size)); got %s, which needs at least %s GiB",
			resource.Group(min(io1MaxIOPS, io1IOPSPerGiB*s.SizeGiB)), resource.Group(s.SizeGiB), resource.Group(s.IOPS),
			resource.Group(max(4, resource.CeilDiv(s.IOPS, io1IOPSPerGiB))))
	}
	tp := IO1MaxThroughput(s.IOPS)
	return Volume{
		ProvisionedIOPS: s.IOPS, BaseIOPS: s.IOPS, BaseBytesPerSec: tp,
		CountUnit: ssdCountUnit, Guaranteed: true,
		Source: fmt.Sprintf("Amazon EBS volume types: io1: provisioned %s IOPS; tpCap_io1 = %s MiB/s; %s",
			resource.Group(s.IOPS), num(float64(tp)/float64(mib)), srcEBSDocs),
	}, nil
}

// io2 Block Express (§2.5).
const (
	io2MinIOPS    = 100
	io2MaxIOPS    = 256_000
	io2IOPSPerGiB = 1_000
)

// IO2MaxThroughput is tpCap_io2(P) = min(4,000, 0.256 × P) MiB/s of §2.5, in bytes per second (rounded
// down to the byte).
func IO2MaxThroughput(iops int64) int64 {
	return min(4000*mib, iops*256*mib/1000)
}

func buildIO2(s Spec) (Volume, error) {
	if err := checkSize("EBS-V7", s, 4, 65_536); err != nil {
		return Volume{}, err
	}
	if s.Throughput != 0 {
		return Volume{}, errorf("EBS-V3", pathThroughput, "throughput is provisioned only on gp3; io2 "+
			"throughput follows the provisioned IOPS (Amazon EBS volume types); got %d MiB/s", s.Throughput)
	}
	if s.IOPS == 0 {
		return Volume{}, errorf("EBS-V7", pathIOPS, "io2 volumes need provisioned IOPS (rule: 100 ≤ IOPS ≤ "+
			"min(256,000, 1,000 × size))")
	}
	if limit := min(io2MaxIOPS, io2IOPSPerGiB*s.SizeGiB); s.IOPS < io2MinIOPS || s.IOPS > limit {
		return Volume{}, errorf("EBS-V7", pathIOPS, "io2 IOPS must be 100 to min(256,000, 1,000 × size) = %s "+
			"on %s GiB (rule: 100 ≤ IOPS ≤ min(256,000, 1,000 × size)); got %s (EC2: \"io2 volumes configured "+
			"with greater than 64 TiB or 256K IOPS or 1000:1 IOPS:GB ratio are not supported\")",
			resource.Group(limit), resource.Group(s.SizeGiB), resource.Group(s.IOPS))
	}
	tp := IO2MaxThroughput(s.IOPS)
	return Volume{
		ProvisionedIOPS: s.IOPS, BaseIOPS: s.IOPS, BaseBytesPerSec: tp,
		CountUnit: ssdCountUnit, Guaranteed: true,
		Source: fmt.Sprintf("Amazon EBS volume types: io2: provisioned %s IOPS; tpCap_io2 = min(4,000, 0.256 × %s) = %s MiB/s; %s",
			resource.Group(s.IOPS), resource.Group(s.IOPS), num(float64(tp)/float64(mib)), srcIO2),
	}, nil
}

// st1 and sc1 (§2.6): per-TiB throughput rates, in MiB/s per TiB, and their caps.
type hddModel struct {
	basePerTiB, baseMax   int64 // MiB/s
	burstPerTiB, burstMax int64 // MiB/s
	maxIOPS               int64 // 1 MiB I/Os
}

var hddModels = map[Type]hddModel{
	ST1: {basePerTiB: 40, baseMax: 500, burstPerTiB: 250, burstMax: 500, maxIOPS: 500},
	SC1: {basePerTiB: 12, baseMax: 192, burstPerTiB: 80, burstMax: 250, maxIOPS: 250},
}

func buildHDD(s Spec) (Volume, error) {
	if err := checkSize("EBS-V8", s, 125, 16_384); err != nil {
		return Volume{}, err
	}
	if err := noProvisioned("EBS-V3", s, "iops and throughput are only for gp3, io1 and io2; st1 and sc1 follow the size"); err != nil {
		return Volume{}, err
	}
	m := hddModels[s.Type]
	// rate × S / 1024 MiB/s = rate × S × 1024 bytes/s, exact.
	base := min(m.baseMax*mib, m.basePerTiB*s.SizeGiB*kib)
	burst := min(m.burstMax*mib, m.burstPerTiB*s.SizeGiB*kib)
	v := Volume{
		BaseIOPS: m.maxIOPS, BurstIOPS: m.maxIOPS,
		BaseBytesPerSec: base, BurstBytesPerSec: burst,
		CountUnit: hddCountUnit, RandomChargedAsUnit: true, Guaranteed: true,
	}
	// Bucket: 1 TiB of throughput credits per TiB of size = S GiB of bytes.
	v.BurstDuration = bucketDuration(s.SizeGiB*gib, burst-base)
	v.Source = fmt.Sprintf("Amazon EBS volume types: %s: baseline min(%d, %d × %s GiB / 1,024) = %s MiB/s, burst min(%d, %d × "+
		"size / 1,024) = %s MiB/s, bucket %s GiB lasting %s at full burst; %s", s.Type, m.baseMax, m.basePerTiB,
		resource.Group(s.SizeGiB), num(float64(base)/float64(mib)), m.burstMax, m.burstPerTiB,
		num(float64(burst)/float64(mib)), resource.Group(s.SizeGiB), v.BurstDuration.Round(time.Second), srcEBSDocs)
	return v, nil
}

func buildMagnetic(s Spec) (Volume, error) {
	if err := checkSize("EBS-V8", s, 1, 1_024); err != nil {
		return Volume{}, err
	}
	if err := noProvisioned("EBS-V3", s, "previous-generation magnetic volumes are best effort"); err != nil {
		return Volume{}, err
	}
	return Volume{
		BaseIOPS: 40, BurstIOPS: 200, BaseBytesPerSec: 40 * mib, BurstBytesPerSec: 90 * mib,
		BurstUnlimited: true, CountUnit: ssdCountUnit,
		Source: "Amazon EBS volume types: standard (magnetic): 40 IOPS / 40 MiB/s planned, 200 IOPS / 90 MiB/s best effort " +
			"never relied on; " + srcEBSDocs,
	}, nil
}
