package disk

import (
	"fmt"
	"time"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/resource"
)

// burstModel is how an Azure fixed tier bursts (§4.2–§4.4).
type burstModel int

const (
	burstNone     burstModel = iota // no bursting
	burstCredit                     // free credit bursting, 30 minutes from a full bucket
	burstOnDemand                   // opt-in, billed, no time limit (enableBursting)
)

// azureTier is one generated row of the fixed-tier table.
type azureTier struct {
	name                       string // "P15"
	sku                        Type   // the _LRS SKU name of the family
	sizeGiB                    int64
	iops, mbps                 int64
	burstIOPS, burstMBps       int64
	burstMinutes               int64 // 30 for credit bursting, -1 for on-demand, 0 for none
	burst                      burstModel
	perfPlusIOPS, perfPlusMBps int64 // 0 when the tier has no performance-plus targets
	guaranteed                 bool  // false for "up to" targets (Standard SSD, Standard HDD)
	source                     int   // index into azureTierSources
}

const (
	azureMaxFixedGiB     = 32_767 // AZD-V7
	azureBurstMinGiB     = 513    // on-demand bursting: larger than 512 GiB (AZD-V8)
	azurePerfPlusMinGiB  = 513    // performance plus: 513 GiB or more (AZD-V9)
	azureCachingLimitGiB = 4_096  // AZC-5
	srcPV2               = "MicrosoftDocs/azure-compute-docs:articles/virtual-machines/disks-types.md (2026-08-11) + includes/disks-premv2-performance.md"
	srcUltra             = "MicrosoftDocs/azure-compute-docs:articles/virtual-machines/disks-types.md (2026-08-11)"
	srcAzureDiskCSI      = "kubernetes-sigs/azuredisk-csi-driver (2026-08-22) pkg/azureutils/azure_disk_utils.go"
	srcUltraOneSided     = "kubernetes-sigs/azuredisk-csi-driver@d983d613 pkg/azuredisk/azure_managedDiskController.go:205-224"
)

// family returns the _LRS SKU whose tiers a fixed-tier SKU uses (the ZRS variants share rows, §4.9).
func family(t Type) Type {
	switch t {
	case PremiumZRS:
		return PremiumLRS
	case StandardSSDZRS:
		return StandardSSDLRS
	}
	return t
}

// isAzureFixed reports whether t is an Azure SKU with fixed tiers.
func isAzureFixed(t Type) bool {
	switch family(t) {
	case PremiumLRS, StandardSSDLRS, StandardLRS:
		return true
	}
	return false
}

func isAzurePremium(t Type) bool { return family(t) == PremiumLRS }

// tiersOf returns the fixed tiers of a SKU family in ascending size.
func tiersOf(t Type) []azureTier {
	f := family(t)
	var out []azureTier
	for _, row := range azureTiers {
		if row.sku == f {
			out = append(out, row)
		}
	}
	return out
}

// Tier returns the fixed tier an Azure Premium SSD, Standard SSD or Standard HDD disk of the given size
// gets: the first tier in ascending size whose size is at least sizeGiB (§4.1). ok is false for another
// type or a size larger than the largest tier.
func Tier(t Type, sizeGiB int64) (name string, tierSizeGiB int64, ok bool) {
	row, ok := tierFor(t, sizeGiB)
	return row.name, row.sizeGiB, ok
}

func tierFor(t Type, sizeGiB int64) (azureTier, bool) {
	for _, row := range tiersOf(t) {
		if row.sizeGiB >= sizeGiB {
			return row, true
		}
	}
	return azureTier{}, false
}

func buildAzureFixed(s Spec) (Volume, error) {
	if err := checkSize("AZD-V7", s, 1, azureMaxFixedGiB); err != nil {
		return Volume{}, err
	}
	if s.IOPS != 0 || s.Throughput != 0 {
		at := pathIOPS
		if s.IOPS == 0 {
			at = pathThroughput
		}
		return Volume{}, errorf("AZD-V4", at, "DiskIOPSReadWrite and DiskMBpsReadWrite apply only to "+
			"UltraSSD_LRS and PremiumV2_LRS; %s performance comes from its size tier", s.Type)
	}
	row, _ := tierFor(s.Type, s.SizeGiB)
	if s.Bursting {
		if !isAzurePremium(s.Type) {
			return Volume{}, errorf("AZD-V8", pathBursting, "on-demand bursting (enableBursting) is only for "+
				"Premium_LRS and Premium_ZRS disks larger than 512 GiB; %s has none", s.Type)
		}
		if s.SizeGiB < azureBurstMinGiB {
			return Volume{}, errorf("AZD-V8", pathBursting, "on-demand bursting (enableBursting) needs a "+
				"Premium disk larger than 512 GiB (P30 and up); %s GiB is a %s, which has credit bursting instead",
				resource.Group(s.SizeGiB), row.name)
		}
	}
	if s.PerformancePlus && s.SizeGiB < azurePerfPlusMinGiB {
		return Volume{}, errorf("AZD-V9", pathPerformancePlus, "performance plus (enablePerformancePlus) needs "+
			"a disk of 513 GiB or more; the CSI driver would silently enlarge %s GiB to 513 GiB", resource.Group(s.SizeGiB))
	}
	v := Volume{
		Tier: row.name, BilledSizeGiB: row.sizeGiB,
		BaseIOPS: row.iops, BaseBytesPerSec: row.mbps * MBPerSec.BytesPerSec,
		CountUnit: ssdCountUnit, Guaranteed: row.guaranteed,
	}
	src := fmt.Sprintf("Azure managed disk types: %s: %s GiB rounds up to %s (%s GiB, billed as %s GiB): %s IOPS, %s MB/s",
		s.Type, resource.Group(s.SizeGiB), row.name, resource.Group(row.sizeGiB), resource.Group(row.sizeGiB), resource.Group(row.iops), resource.Group(row.mbps))
	if s.PerformancePlus && row.perfPlusIOPS > 0 {
		v.BaseIOPS, v.BaseBytesPerSec = row.perfPlusIOPS, row.perfPlusMBps*MBPerSec.BytesPerSec
		src += fmt.Sprintf("; performance plus raises it to %s IOPS, %s MB/s (Azure managed disk types)", resource.Group(row.perfPlusIOPS), resource.Group(row.perfPlusMBps))
	}
	if !row.guaranteed {
		src += " (\"up to\" targets, met 99 % of the time)"
	}
	switch {
	case row.burst == burstCredit:
		v.BurstIOPS, v.BurstBytesPerSec = row.burstIOPS, row.burstMBps*MBPerSec.BytesPerSec
		v.BurstDuration = time.Duration(row.burstMinutes) * time.Minute
		src += fmt.Sprintf("; credit bursting to %s IOPS, %s MB/s for %d minutes from a full bucket",
			resource.Group(row.burstIOPS), resource.Group(row.burstMBps), row.burstMinutes)
	case row.burst == burstOnDemand && s.Bursting:
		v.BurstIOPS, v.BurstBytesPerSec = row.burstIOPS, row.burstMBps*MBPerSec.BytesPerSec
		v.BurstUnlimited, v.BurstBilled = true, true
		src += fmt.Sprintf("; on-demand bursting to %s IOPS, %s MB/s, no time limit, billed per use",
			resource.Group(row.burstIOPS), resource.Group(row.burstMBps))
	case row.burst == burstOnDemand:
		src += "; on-demand bursting available with enableBursting (off)"
	}
	v.Source = src + "; azure-disk-tiers.tsv row " + row.name + ": " + azureTierSources[row.source]
	return v, nil
}

// Premium SSD v2 (§4.5).
const (
	pv2MinIOPS       = 3_000
	pv2MaxIOPS       = 80_000
	pv2IOPSPerGiB    = 500
	pv2MinMBps       = 125
	pv2MaxMBps       = 2_000
	pv2SmallGiB      = 6 // at 6 GiB or less the throughput stays at 125 MB/s
	pv2IOPSPerMBps   = 4 // MB/s ≤ 0.25 × IOPS
	pv2MaxGiB        = 65_536
	ultraMinIOPS     = 100
	ultraMaxIOPS     = 400_000
	ultraIOPSPerGiB  = 1_000
	ultraMinMBps     = 1
	ultraMaxMBps     = 10_000
	ultraMinGiB      = 4
	ultraMaxGiB      = 65_536
	ultraDefaultIOPS = 160_000 // azuredisk-csi-driver default fill-in caps (older Ultra limits)
	ultraDefaultMBps = 4_000
	// When a class sets only one of DiskIOPSReadWrite and DiskMBpsReadWrite, the driver does not use the
	// size-based fill-in (it runs only when both are empty: kubernetes-sigs/azuredisk-csi-driver
	// pkg/azuredisk/controllerserver.go:428 @ d983d613b6dd04af5bcc886d309b8de6ea5637b6); CreateManagedDisk
	// sets the missing one to a constant (pkg/azuredisk/azure_managedDiskController.go:205-224, same
	// commit): consts.DefaultDiskIOPSReadWrite = 500 and consts.DefaultDiskMBpsReadWrite = 100
	// (vendor/sigs.k8s.io/cloud-provider-azure/pkg/consts/consts.go:74,76, same commit).
	ultraOneSidedIOPS = 500
	ultraOneSidedMBps = 100
)

// PremiumV2MaxIOPS is maxIOPS(S) = min(80,000, max(3,000, 500 × S)) of §4.5.
func PremiumV2MaxIOPS(sizeGiB int64) int64 {
	return min(pv2MaxIOPS, max(pv2MinIOPS, pv2IOPSPerGiB*sizeGiB))
}

// PremiumV2MaxMBps is the most MB/s a Premium SSD v2 disk of sizeGiB with the given provisioned IOPS may
// provision: 125 at 6 GiB or less, otherwise min(2,000, 0.25 × IOPS) (§4.5), rounded down.
func PremiumV2MaxMBps(sizeGiB, iops int64) int64 {
	if sizeGiB <= pv2SmallGiB {
		return pv2MinMBps
	}
	return min(pv2MaxMBps, iops/pv2IOPSPerMBps)
}

func buildPremiumV2(s Spec) (Volume, error) {
	if err := checkSize("AZD-V5", s, 1, pv2MaxGiB); err != nil {
		return Volume{}, err
	}
	if s.Bursting {
		return Volume{}, errorf("AZD-V8", pathBursting, "on-demand bursting (enableBursting) is only for "+
			"Premium_LRS and Premium_ZRS; PremiumV2_LRS performance is provisioned")
	}
	if s.PerformancePlus {
		return Volume{}, errorf("AZD-V9", pathPerformancePlus, "performance plus (enablePerformancePlus) is "+
			"only for Premium SSD, Standard SSD and Standard HDD; PremiumV2_LRS performance is provisioned")
	}
	iops, mbps := s.IOPS, s.Throughput
	if iops == 0 {
		iops = pv2MinIOPS
	}
	if mbps == 0 {
		mbps = pv2MinMBps
	}
	if err := checkPremiumV2(iops, mbps, s.SizeGiB, pathIOPS, pathThroughput); err != nil {
		return Volume{}, err
	}
	return Volume{
		ProvisionedIOPS: iops, ProvisionedThroughput: mbps,
		BaseIOPS: iops, BaseBytesPerSec: mbps * MBPerSec.BytesPerSec,
		CountUnit: ssdCountUnit, Guaranteed: true,
		Source: fmt.Sprintf("Azure managed disk types: PremiumV2_LRS: provisioned %s IOPS and %s MB/s (3,000 and 125 included), "+
			"no bursting; %s", resource.Group(iops), resource.Group(mbps), srcPV2),
	}, nil
}

// checkPremiumV2 applies AZD-V5 to provisioned Premium SSD v2 values at one size.
func checkPremiumV2(iops, mbps, sizeGiB int64, iopsAt, tpAt field.Path) error {
	if limit := PremiumV2MaxIOPS(sizeGiB); iops < pv2MinIOPS || iops > limit {
		return errorf("AZD-V5", iopsAt, "PremiumV2_LRS IOPS must be 3,000 to min(80,000, max(3,000, 500 × size)) "+
			"= %s on %s GiB (rule: 3,000 ≤ IOPS ≤ min(80,000, max(3,000, 500 × size))); got %s, which needs at "+
			"least %s GiB", resource.Group(limit), resource.Group(sizeGiB), resource.Group(iops), resource.Group(max(1, resource.CeilDiv(iops, pv2IOPSPerGiB))))
	}
	if limit := PremiumV2MaxMBps(sizeGiB, iops); mbps < pv2MinMBps || mbps > limit {
		return errorf("AZD-V5", tpAt, "PremiumV2_LRS throughput must be 125 MB/s to min(2,000, 0.25 × IOPS), "+
			"and 125 MB/s at 6 GiB or less (rule: 125 ≤ MB/s ≤ min(2,000, 0.25 × IOPS)); %s GiB with %s IOPS "+
			"allows at most %s MB/s, got %s MB/s", resource.Group(sizeGiB), resource.Group(iops), resource.Group(limit), resource.Group(mbps))
	}
	return nil
}

// UltraDefaults returns the IOPS and MB/s the azuredisk CSI driver fills in for an UltraSSD_LRS disk
// whose StorageClass sets neither: IOPS = min(160,000, max(500, S)) and MB/s = max(100, ⌈IOPS / 256⌉),
// capped at ⌈IOPS / 4⌉ and 4,000 (§8.3).
func UltraDefaults(sizeGiB int64) (iops, mbps int64) {
	iops = min(ultraDefaultIOPS, max(500, sizeGiB))
	return iops, ultraDefaultMBpsFor(iops)
}

func ultraDefaultMBpsFor(iops int64) int64 {
	return min(max(100, resource.CeilDiv(iops, 256)), resource.CeilDiv(iops, 4), ultraDefaultMBps)
}

func buildUltra(s Spec) (Volume, error) {
	if err := checkSize("AZD-V6", s, ultraMinGiB, ultraMaxGiB); err != nil {
		return Volume{}, err
	}
	if s.Bursting {
		return Volume{}, errorf("AZD-V8", pathBursting, "on-demand bursting (enableBursting) is not available "+
			"on UltraSSD_LRS")
	}
	if s.PerformancePlus {
		return Volume{}, errorf("AZD-V9", pathPerformancePlus, "performance plus (enablePerformancePlus) is "+
			"only for Premium SSD, Standard SSD and Standard HDD; UltraSSD_LRS performance is provisioned")
	}
	iops, mbps := s.IOPS, s.Throughput
	src := ""
	switch {
	case iops == 0 && mbps == 0:
		iops, mbps = UltraDefaults(s.SizeGiB)
		src = fmt.Sprintf("; IOPS and MB/s are the CSI driver's fill-in values for a class that sets neither (%s)", srcAzureDiskCSI)
	case iops == 0:
		iops = ultraOneSidedIOPS
		src = fmt.Sprintf("; IOPS is the CSI driver's fixed default of 500 for a class that sets only MB/s, whatever the size (%s)", srcUltraOneSided)
	case mbps == 0:
		mbps = ultraOneSidedMBps
		src = fmt.Sprintf("; MB/s is the CSI driver's fixed default of 100 for a class that sets only IOPS, whatever the IOPS (%s)", srcUltraOneSided)
	}
	if err := checkUltraIOPS(iops, s.SizeGiB, pathIOPS); err != nil {
		return Volume{}, err
	}
	switch {
	case s.IOPS != 0 && s.Throughput == 0:
		if mbps > iops/4 {
			return Volume{}, errorf("AZD-V6", pathIOPS, "UltraSSD_LRS with %s IOPS and no throughput gets the CSI "+
				"driver's default of 100 MB/s, which Azure allows only with 400 IOPS or more (MB/s ≤ 0.25 × IOPS); "+
				"provision at least 400 IOPS, or set the throughput to at most %s MB/s", resource.Group(iops), resource.Group(max(ultraMinMBps, iops/4)))
		}
	case s.IOPS == 0 && s.Throughput != 0:
		if mbps < ultraMinMBps || mbps > iops/4 {
			return Volume{}, errorf("AZD-V6", pathThroughput, "UltraSSD_LRS with %s MB/s and no IOPS gets the CSI "+
				"driver's default of 500 IOPS, which allows 1 to 125 MB/s (MB/s ≤ 0.25 × IOPS); set the throughput to "+
				"at most 125 MB/s, or provision at least %s IOPS with it", resource.Group(mbps), resource.Group(max(ultraMinIOPS, 4*mbps)))
		}
	case s.Throughput != 0:
		if err := checkUltraMBps(mbps, iops, pathThroughput); err != nil {
			return Volume{}, err
		}
	}
	v := Volume{
		ProvisionedIOPS: iops, ProvisionedThroughput: mbps,
		BaseIOPS: iops, BaseBytesPerSec: mbps * MBPerSec.BytesPerSec,
		CountUnit: ssdCountUnit, Guaranteed: true,
		Source: fmt.Sprintf("Azure managed disk types: UltraSSD_LRS: provisioned %s IOPS and %s MB/s, no bursting%s; %s",
			resource.Group(iops), resource.Group(mbps), src, srcUltra),
	}
	if iops < s.SizeGiB {
		v.Notes = append(v.Notes, warnf("AZD-V6", pathIOPS, "UltraSSD_LRS with %s IOPS on %s GiB is below 1 IOPS "+
			"per GiB, the floor some regions and API versions still enforce (\"The supported range for a "+
			"UltraSSD_LRS disk of size %s GB is between %s and …\"); provision at least %s IOPS to be safe",
			resource.Group(iops), resource.Group(s.SizeGiB), resource.Group(s.SizeGiB), resource.Group(s.SizeGiB), resource.Group(s.SizeGiB)))
	}
	return v, nil
}

// checkUltraIOPS applies the IOPS part of AZD-V6.
func checkUltraIOPS(iops, sizeGiB int64, at field.Path) error {
	if limit := min(ultraMaxIOPS, ultraIOPSPerGiB*sizeGiB); iops < ultraMinIOPS || iops > limit {
		return errorf("AZD-V6", at, "UltraSSD_LRS IOPS must be 100 to min(400,000, 1,000 × size) = %s on "+
			"%s GiB (rule: 100 ≤ IOPS ≤ min(400,000, 1,000 × size)); got %s", resource.Group(limit), resource.Group(sizeGiB), resource.Group(iops))
	}
	return nil
}

// checkUltraMBps applies the throughput part of AZD-V6.
func checkUltraMBps(mbps, iops int64, at field.Path) error {
	if limit := min(ultraMaxMBps, iops/4); mbps < ultraMinMBps || mbps > limit {
		return errorf("AZD-V6", at, "UltraSSD_LRS throughput must be 1 to min(10,000, 0.25 × IOPS) = %s MB/s "+
			"with %s IOPS (rule: 1 ≤ MB/s ≤ min(10,000, 0.25 × IOPS)); got %s MB/s", resource.Group(limit), resource.Group(iops), resource.Group(mbps))
	}
	return nil
}
