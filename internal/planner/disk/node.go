package disk

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/resource"
)

// NodeLimits are the disk limits of one node (AWS EBS-optimized limits, §3; Azure VM uncached and cached
// limits, §5), shared by every volume attached to it. Throughput is in bytes per second.
type NodeLimits struct {
	Cloud catalog.Cloud
	Name  string // instance type or VM size
	// VCPU and MemoryMiB are the size's, from its catalog row (0 when not known): the order of sizes whose disk
	// limits are equal (t3.large, t3.xlarge and t3.2xlarge share theirs).
	VCPU      int
	MemoryMiB int64
	// Series is the Azure series of azure-vm-disk-limits.tsv ("Dsv5"); "" when the size is not in it.
	Series string

	BaseIOPS         int64 // sustained IOPS (AWS: quoted at 16 KiB I/O)
	BurstIOPS        int64 // IOPS while the node's burst lasts; equals BaseIOPS without burst
	BaseBytesPerSec  int64 // sustained throughput
	BurstBytesPerSec int64 // throughput while the node's burst lasts
	// BurstDuration is how long the burst lasts (30 minutes on AWS and Azure); 0 without burst.
	BurstDuration time.Duration
	// BurstWindow is the period the burst is available once in (AWS: 24 hours); 0 when the burst is
	// credit-based (Azure VM-level bursting).
	BurstWindow time.Duration
	// MaxDataDisks is the most data disks the node can attach (Azure); 0 when unknown.
	MaxDataDisks int64
	// PV2UltraIOPS and PV2UltraBytesPerSec are separate, higher uncached limits some Azure sizes (Dsv6)
	// publish for Premium SSD v2 and Ultra disks; 0 when none. They apply when every uncached disk on
	// the node is PremiumV2_LRS or UltraSSD_LRS (§5.1).
	PV2UltraIOPS        int64
	PV2UltraBytesPerSec int64
	// CachedIOPS and CachedBytesPerSec are the Azure cached (host cache) limits, which traffic of disks with
	// host caching ReadOnly or ReadWrite also counts against (§5.1, §5.5); 0 when the size publishes none.
	// CacheGiB is the size of the host cache; 0 when not published.
	CachedIOPS        int64
	CachedBytesPerSec int64
	CacheGiB          int64
	// NonNitro marks an AWS instance type that is not built on Nitro: io1 and io2 reach at most 32,000
	// IOPS on it (§2.4, §2.5).
	NonNitro bool
	Source   string
}

// ThroughputUnit is the unit the node's cloud publishes node throughput in: MB/s on AWS and Azure.
func (n NodeLimits) ThroughputUnit() Unit { return MBPerSec }

// NodeLimitsFor builds the disk limits of an instance type from its catalog row. It returns an error
// (rule FIT-N0) when the cloud publishes no per-node disk limits that kubefit has (GCP, §6) or the row
// has none, so that callers can warn and skip the node-level check rather than guess (§3.4, §5.4).
func NodeLimitsFor(it catalog.InstanceType) (NodeLimits, error) {
	var n NodeLimits
	var err error
	switch it.Cloud {
	case catalog.AWS:
		n, err = awsNodeLimits(it)
		n.VCPU, n.MemoryMiB = it.VCPU, it.MemoryMiB
		return n, err
	case catalog.Azure:
		n, err = azureNodeLimits(it)
		n.VCPU, n.MemoryMiB = it.VCPU, it.MemoryMiB
		return n, err
	case catalog.GCP:
		return NodeLimits{}, &Finding{Rule: "FIT-N0", Severity: SeverityWarning, Path: pathNode,
			Message: fmt.Sprintf("kubefit has no per-VM disk limits for GCP machine types (Google Cloud disk performance); the "+
				"node-level disk check for %s is skipped and only per-volume limits apply", it.Name)}
	}
	return NodeLimits{}, errorf("FIT-N0", pathNode, "instance type %q has unknown cloud %q", it.Name, it.Cloud)
}

// megabytes converts a MB/s figure published with at most two decimals into bytes per second exactly.
func megabytes(mbps float64) int64 {
	return int64(math.Round(mbps*100)) * 10_000
}

func awsNodeLimits(it catalog.InstanceType) (NodeLimits, error) {
	if it.EBSBaselineIOPS <= 0 || it.EBSBaselineThroughputMBps <= 0 {
		return NodeLimits{}, &Finding{Rule: "FIT-N0", Severity: SeverityWarning, Path: pathNode,
			Message: fmt.Sprintf("EBS limits unknown for %s (not in the EBS-optimized table, Amazon EC2 EBS-optimized instances); the "+
				"node-level disk check is skipped", it.Name)}
	}
	n := NodeLimits{
		Cloud: catalog.AWS, Name: it.Name,
		BaseIOPS: int64(it.EBSBaselineIOPS), BurstIOPS: int64(it.EBSMaxIOPS),
		BaseBytesPerSec:  megabytes(it.EBSBaselineThroughputMBps),
		BurstBytesPerSec: megabytes(it.EBSMaxThroughputMBps),
		NonNitro:         it.Hypervisor == "xen",
	}
	n.normalise()
	src := fmt.Sprintf("Amazon EC2 EBS-optimized instances: %s EBS-optimized limits: baseline %s IOPS, %s MB/s", it.Name,
		resource.Group(n.BaseIOPS), num(float64(n.BaseBytesPerSec)/1e6))
	if n.BurstIOPS > n.BaseIOPS || n.BurstBytesPerSec > n.BaseBytesPerSec {
		n.BurstDuration, n.BurstWindow = 30*time.Minute, 24*time.Hour
		src += fmt.Sprintf("; maximum %s IOPS, %s MB/s for 30 minutes once every 24 hours", resource.Group(n.BurstIOPS),
			num(float64(n.BurstBytesPerSec)/1e6))
	}
	n.Source = src + catalogSources(it)
	return n, nil
}

func catalogSources(it catalog.InstanceType) string {
	if it.Sources == "" {
		return ""
	}
	return " (catalog sources: " + it.Sources + ")"
}

// azureVM is one generated row of azure-vm-disk-limits.tsv.
type azureVM struct {
	name, series              string
	maxDataDisks              int64
	uncachedIOPS, uncachedBps int64
	burstIOPS, burstBps       int64 // 0: no VM-level burst
	cachedIOPS, cachedBps     int64 // 0: not published
	cacheGiB                  int64 // 0: not published
	pv2UltraIOPS, pv2UltraBps int64 // 0: not published
	source                    int   // index into azureVMSources
}

var azureVMIndex = func() map[string]int {
	m := make(map[string]int, len(azureVMs))
	for i, v := range azureVMs {
		m[strings.ToLower(v.name)] = i
	}
	return m
}()

// azureNodeLimits prefers the disk table azure-vm-disk-limits.tsv (Microsoft's size pages, with VM-level
// burst, §5.4) and falls back to the catalog's figures (the azuredisk CSI driver's SKU map) for sizes
// the table does not list.
func azureNodeLimits(it catalog.InstanceType) (NodeLimits, error) {
	if i, ok := azureVMIndex[strings.ToLower(it.Name)]; ok {
		v := azureVMs[i]
		n := NodeLimits{
			Cloud: catalog.Azure, Name: v.name, Series: v.series,
			BaseIOPS: v.uncachedIOPS, BurstIOPS: v.burstIOPS, BaseBytesPerSec: v.uncachedBps, BurstBytesPerSec: v.burstBps,
			MaxDataDisks: v.maxDataDisks, PV2UltraIOPS: v.pv2UltraIOPS, PV2UltraBytesPerSec: v.pv2UltraBps,
			CachedIOPS: v.cachedIOPS, CachedBytesPerSec: v.cachedBps, CacheGiB: v.cacheGiB,
		}
		n.normalise()
		n.Source = azureSource(n) + "; azure-vm-disk-limits.tsv row " + v.name + ": " + azureVMSources[v.source]
		return n, nil
	}
	if it.UncachedDiskIOPS <= 0 || it.UncachedDiskMBps <= 0 {
		return NodeLimits{}, &Finding{Rule: "FIT-N0", Severity: SeverityWarning, Path: pathNode,
			Message: fmt.Sprintf("VM disk limits unknown for %s (not in azure-vm-disk-limits.tsv, Azure VM sizes); "+
				"the node-level disk check is skipped", it.Name)}
	}
	n := NodeLimits{
		Cloud: catalog.Azure, Name: it.Name,
		BaseIOPS: int64(it.UncachedDiskIOPS), BurstIOPS: int64(it.UncachedDiskBurstIOPS),
		BaseBytesPerSec:  int64(it.UncachedDiskMBps) * MBPerSec.BytesPerSec,
		BurstBytesPerSec: int64(it.UncachedDiskBurstMBps) * MBPerSec.BytesPerSec,
		MaxDataDisks:     int64(it.MaxDataDisks),
	}
	n.normalise()
	n.Source = azureSource(n) + "; not in azure-vm-disk-limits.tsv, figures from the catalog" + catalogSources(it)
	return n, nil
}

// AzureUncached is an Azure VM size's sustained uncached disk limits as the node-level check counts them: Microsoft's
// figures (azure-vm-disk-limits.tsv) when they list the size, else the catalog row's (the azuredisk CSI driver's
// table, which disagrees with Microsoft's for a few sizes and is then not used); ok is false when neither has them.
// Throughput is in MB/s (10^6 bytes), rounded down.
func AzureUncached(it catalog.InstanceType) (iops, mbps int64, ok bool) {
	if it.Cloud != catalog.Azure {
		return 0, 0, false
	}
	n, err := azureNodeLimits(it)
	if err != nil {
		return 0, 0, false
	}
	return n.BaseIOPS, n.BaseBytesPerSec / 1_000_000, true
}

// azureSource describes Azure VM limits and sets the burst window.
func azureSource(n NodeLimits) string {
	src := fmt.Sprintf("Azure VM sizes: %s uncached disk limits (caching None): %s IOPS, %s MB/s", n.Name,
		resource.Group(n.BaseIOPS), num(float64(n.BaseBytesPerSec)/1e6))
	if n.BurstIOPS > n.BaseIOPS || n.BurstBytesPerSec > n.BaseBytesPerSec {
		src += fmt.Sprintf("; VM-level burst %s IOPS, %s MB/s for up to 30 minutes (credits)", resource.Group(n.BurstIOPS),
			num(float64(n.BurstBytesPerSec)/1e6))
	}
	if n.PV2UltraIOPS > 0 {
		src += fmt.Sprintf("; %s IOPS, %s MB/s when every uncached disk is PremiumV2_LRS or UltraSSD_LRS",
			resource.Group(n.PV2UltraIOPS), num(float64(n.PV2UltraBytesPerSec)/1e6))
	}
	if n.CachedIOPS > 0 {
		src += fmt.Sprintf("; cached (host cache) limits %s IOPS, %s MB/s", resource.Group(n.CachedIOPS),
			num(float64(n.CachedBytesPerSec)/1e6))
		if n.CacheGiB > 0 {
			src += fmt.Sprintf(" with a %s GiB cache", resource.Group(n.CacheGiB))
		}
	}
	if n.MaxDataDisks > 0 {
		src += fmt.Sprintf("; %d data disks at most", n.MaxDataDisks)
	}
	return src
}

// normalise makes burst figures at least the baseline (a zero burst means "no burst") and sets the
// burst duration of an Azure VM-level burst (30 minutes on credits, §5.1).
func (n *NodeLimits) normalise() {
	n.BurstIOPS = max(n.BurstIOPS, n.BaseIOPS)
	n.BurstBytesPerSec = max(n.BurstBytesPerSec, n.BaseBytesPerSec)
	if n.Cloud == catalog.Azure && (n.BurstIOPS > n.BaseIOPS || n.BurstBytesPerSec > n.BaseBytesPerSec) {
		n.BurstDuration = 30 * time.Minute
	}
}

// forVolume returns the node's limits as they apply to volumes of v's type: on Azure sizes that publish
// them, the separate PremiumV2_LRS/Ultra uncached limits (§5.1; every VolumesPerNode volume is of this
// type). The burst stays at least the new baseline.
func (n NodeLimits) forVolume(v Volume) NodeLimits {
	if (v.Spec.Type == PremiumV2LRS || v.Spec.Type == UltraSSDLRS) && n.PV2UltraIOPS > 0 {
		n.BaseIOPS, n.BaseBytesPerSec = n.PV2UltraIOPS, n.PV2UltraBytesPerSec
		n.normalise()
	}
	return n
}

// bucket names the node limit the base figures are: " uncached" on Azure (§5.1), "" on AWS.
func (n NodeLimits) bucket() string {
	if n.Cloud == catalog.Azure {
		return " uncached"
	}
	return ""
}
