package disk

import (
	"fmt"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/resource"
)

const (
	srcGCP = "Google Cloud disk performance: https://cloud.google.com/compute/docs/disks/performance (read through web mirrors; " +
		"lower confidence than AWS and Azure)"
	srcHyperdisk = "Google Cloud disk performance: https://cloud.google.com/compute/docs/disks/hd-types/hyperdisk-balanced"
	// gcpMaxGiB is the largest GCP disk kubefit models; no §6 formula is checked beyond it.
	gcpMaxGiB = 65_536
)

// pdModel is a size-scaled GCP Persistent Disk: per-GiB rates in hundredths and the per-VM maxima
// disks.md §6 gives, used as ceilings because a volume never exceeds what any VM can drive.
type pdModel struct {
	iopsPerGiBx100  int64 // IOPS per GiB × 100
	mibpsPerGiBx100 int64 // MiB/s per GiB × 100
	maxIOPS         int64 // 0: no ceiling given
	maxMiBps        int64 // 0: no ceiling given
	note            string
}

var pdModels = map[Type]pdModel{
	// pd-standard: read 0.75 IOPS per GiB (writes 1.5; the read figure is the binding one), 0.12 MiB/s
	// per GiB; per VM at most 1,200 MiB/s read and 400 MiB/s write ("Throughput limits for zonal Persistent
	// Disk"), the write cap taken, as a requirement does not say which.
	PDStandard: {iopsPerGiBx100: 75, mibpsPerGiBx100: 12, maxMiBps: 400,
		note: "read figures (writes 1.5 IOPS per GiB); throughput capped at the per-VM write maximum of 400 MiB/s (reads up to 1,200)"},
	// pd-balanced: 6 IOPS and 0.28 MiB/s per GiB; per VM up to 80,000 IOPS and 1,200 MiB/s read and write.
	PDBalanced: {iopsPerGiBx100: 600, mibpsPerGiBx100: 28, maxIOPS: 80_000, maxMiBps: 1200,
		note: "capped at the per-VM maxima of 80,000 IOPS and 1,200 MiB/s (smaller VMs get less); the unverified per-disk baseline of 3,000 IOPS / 140 MiB/s is not used"},
	// pd-ssd: 30 IOPS and 0.48 MiB/s per GiB; per VM up to 100,000 IOPS and 1,200 MiB/s read and write.
	PDSSD: {iopsPerGiBx100: 3000, mibpsPerGiBx100: 48, maxIOPS: 100_000, maxMiBps: 1200,
		note: "capped at the per-VM maxima of 100,000 IOPS and 1,200 MiB/s (smaller VMs get less); the unverified per-disk baseline of 6,000 IOPS / 240 MiB/s is not used"},
}

// pdLimits returns the IOPS and bytes per second of a size-scaled PD, rounded down.
func pdLimits(m pdModel, sizeGiB int64) (iops, bytesPerSec int64) {
	iops = m.iopsPerGiBx100 * sizeGiB / 100
	if m.maxIOPS > 0 {
		iops = min(iops, m.maxIOPS)
	}
	bytesPerSec = m.mibpsPerGiBx100 * sizeGiB * mib / 100
	if m.maxMiBps > 0 {
		bytesPerSec = min(bytesPerSec, m.maxMiBps*mib)
	}
	return iops, bytesPerSec
}

func buildPD(s Spec) (Volume, error) {
	if err := checkSize("FIT-S1", s, 1, gcpMaxGiB); err != nil {
		return Volume{}, err
	}
	if s.IOPS != 0 {
		return Volume{}, errorf("GPD-V3", pathIOPS, "provisioned-iops-on-create is only for pd-extreme and "+
			"Hyperdisk; %s IOPS follow the size", s.Type)
	}
	if s.Throughput != 0 {
		return Volume{}, errorf("GPD-V2", pathThroughput, "provisioned-throughput-on-create is only for "+
			"Hyperdisk types; %s throughput follows the size", s.Type)
	}
	m := pdModels[s.Type]
	iops, bps := pdLimits(m, s.SizeGiB)
	return Volume{
		BaseIOPS: iops, BaseBytesPerSec: bps, CountUnit: ssdCountUnit, Guaranteed: true,
		Source: fmt.Sprintf("Google Cloud disk performance: %s: %s IOPS and %s MiB/s per GiB × %s GiB = %s IOPS, %s MiB/s (%s); "+
			"per-VM limits, shared by all PD volumes of a type, are not modelled; %s", s.Type,
			num(float64(m.iopsPerGiBx100)/100), num(float64(m.mibpsPerGiBx100)/100), resource.Group(s.SizeGiB),
			resource.Group(iops), num(float64(bps)/float64(mib)), m.note, srcGCP),
	}, nil
}

// pd-extreme (§6): provisioned IOPS, about 2,500–120,000; throughput is given only per VM.
const (
	pdExtremeMinIOPS = 2_500
	pdExtremeMaxIOPS = 120_000
	pdExtremeVMMiBps = 4_000
	hdbDefaultIOPS   = 3_000
	hdbDefaultMiBps  = 140
	hdbIOPSPerGiB    = 500
	hdbMaxIOPS       = 160_000
	hdbMaxMiBps      = 2_400
)

func buildPDExtreme(s Spec) (Volume, error) {
	if err := checkSize("FIT-S1", s, 1, gcpMaxGiB); err != nil {
		return Volume{}, err
	}
	if s.Throughput != 0 {
		return Volume{}, errorf("GPD-V2", pathThroughput, "provisioned-throughput-on-create is only for "+
			"Hyperdisk types; pd-extreme provisions IOPS only")
	}
	if s.IOPS == 0 {
		return Volume{}, errorf("GPD-V3", pathIOPS, "pd-extreme volumes need provisioned IOPS "+
			"(provisioned-iops-on-create, about 2,500 to 120,000)")
	}
	v := Volume{
		ProvisionedIOPS: s.IOPS, BaseIOPS: s.IOPS, BaseBytesPerSec: pdExtremeVMMiBps * mib,
		CountUnit: ssdCountUnit, Guaranteed: true,
		Source: fmt.Sprintf("Google Cloud disk performance: pd-extreme: provisioned %s IOPS; throughput bounded only by the per-VM "+
			"maximum of 4,000 MiB/s (N2, 64+ vCPUs; no per-volume figure in kubefit's sources); %s", resource.Group(s.IOPS), srcGCP),
	}
	if s.IOPS < pdExtremeMinIOPS || s.IOPS > pdExtremeMaxIOPS {
		v.Notes = append(v.Notes, warnf("GPD-V3", pathIOPS, "pd-extreme provisions about 2,500 to 120,000 IOPS; "+
			"%s is outside that range and GCE may reject it", resource.Group(s.IOPS)))
	}
	return v, nil
}

// HyperdiskBalancedMaxIOPS is min(160,000, max(3,000, 500 × S)), the most IOPS a hyperdisk-balanced
// volume of S GiB may provision (§6, GPD-V4: at most 500 per GiB, 3,000 included).
func HyperdiskBalancedMaxIOPS(sizeGiB int64) int64 {
	return min(hdbMaxIOPS, max(hdbDefaultIOPS, hdbIOPSPerGiB*sizeGiB))
}

func buildHyperdiskBalanced(s Spec) (Volume, error) {
	if err := checkSize("FIT-S1", s, 1, gcpMaxGiB); err != nil {
		return Volume{}, err
	}
	iops, tp := s.IOPS, s.Throughput
	if iops == 0 {
		iops = hdbDefaultIOPS
	}
	if tp == 0 {
		tp = hdbDefaultMiBps
	}
	if err := checkHyperdiskBalanced(iops, tp, s.SizeGiB, pathIOPS, pathThroughput); err != nil {
		return Volume{}, err
	}
	return Volume{
		ProvisionedIOPS: iops, ProvisionedThroughput: tp,
		BaseIOPS: iops, BaseBytesPerSec: tp * mib, CountUnit: ssdCountUnit, Guaranteed: true,
		Source: fmt.Sprintf("Google Cloud disk performance: hyperdisk-balanced: provisioned %s IOPS and %s MiB/s (3,000 and 140 "+
			"included); %s", resource.Group(iops), resource.Group(tp), srcHyperdisk),
	}, nil
}

// checkHyperdiskBalanced applies GPD-V4 to provisioned hyperdisk-balanced values at one size.
func checkHyperdiskBalanced(iops, tp, sizeGiB int64, iopsAt, tpAt field.Path) error {
	if limit := HyperdiskBalancedMaxIOPS(sizeGiB); iops > limit {
		return errorf("GPD-V4", iopsAt, "hyperdisk-balanced IOPS must not exceed 500 per GiB or 160,000 "+
			"(rule: IOPS ≤ min(160,000, max(3,000, 500 × size))); %s GiB allows %s IOPS, got %s, which needs "+
			"at least %s GiB", resource.Group(sizeGiB), resource.Group(limit), resource.Group(iops), resource.Group(resource.CeilDiv(iops, hdbIOPSPerGiB)))
	}
	if tp > hdbMaxMiBps {
		return errorf("GPD-V4", tpAt, "hyperdisk-balanced throughput must not exceed 2,400 MiB/s (rule: "+
			"throughput ≤ 2,400 MiB/s); got %s MiB/s", resource.Group(tp))
	}
	return nil
}
