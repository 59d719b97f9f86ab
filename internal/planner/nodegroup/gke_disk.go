package nodegroup

import (
	"fmt"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/disk"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
)

// WarnGKEBootDiskUnchecked: a GCP group's machine series is not in kubefit's machine-series disk table
// (disks.md §6.1), so its boot disk type, GKE's default, is not checked against it.
const WarnGKEBootDiskUnchecked = "nodegroup.gke-boot-disk-unchecked"

// The boot disk types a GKE node can have, from the machine-series table: GKE's default pd-balanced, and
// hyperdisk-balanced, the Hyperdisk type a boot disk may be ("Hyperdisk Balanced and Hyperdisk Balanced
// High Availability are the only supported Hyperdisk types for boot disks", About Hyperdisk Balanced).
const (
	gkeDefaultBootDisk   = "pd-balanced"
	gkeHyperdiskBootDisk = "hyperdisk-balanced"
)

// gkeBootDiskType is the boot disk type google_container_node_pool must be given for machine type it: "" (GKE's
// default, pd-balanced) where the series attaches pd-balanced or is not in the table, hyperdisk-balanced where
// it attaches Hyperdisk Balanced and no pd-balanced (N4, C4, C4A, C4D, H4D, ...: GKE refuses a pd-balanced boot
// disk there).
func gkeBootDiskType(it catalog.InstanceType) string {
	m := disk.GCPMachineDisks(it)
	pd, _ := m.Support(gkeDefaultBootDisk)
	hd, _ := m.Support(gkeHyperdiskBootDisk)
	if pd == disk.Unsupported && hd == disk.Supported {
		return gkeHyperdiskBootDisk
	}
	return ""
}

// gkeModuleDiskType is the node_pools disk_type of kubernetes-engine's module: the pool's boot disk type when it
// has one, else pd-balanced where the series attaches no pd-standard, which the module takes when disk_type is
// absent (cluster.tf: lookup(each.value, "disk_type", "pd-standard") in the copies read; v44.2.0 itself was not
// re-read for this), so that its pool attaches as the google_container_node_pool shape does; "" keeps the
// module's default.
func gkeModuleDiskType(it catalog.InstanceType, boot string) string {
	if boot != "" {
		return boot
	}
	m := disk.GCPMachineDisks(it)
	std, _ := m.Support("pd-standard")
	bal, _ := m.Support(gkeDefaultBootDisk)
	if std == disk.Unsupported && bal == disk.Supported {
		return gkeDefaultBootDisk
	}
	return ""
}

// gkeBootDiskWarnings warns when the group's machine series is not in the table, or the table cannot say whether
// it attaches a boot disk type kubefit could emit.
func gkeBootDiskWarnings(req Request, r *Result) []field.Warning {
	it := r.Pool.Instance
	m := disk.GCPMachineDisks(it)
	pd, _ := m.Support(gkeDefaultBootDisk)
	hd, _ := m.Support(gkeHyperdiskBootDisk)
	if m.Known && (pd == disk.Supported || hd == disk.Supported) {
		return nil
	}
	why := fmt.Sprintf("kubefit's machine-series disk table (disks.md §6.1) has no row for the %s series", field.Quote(m.Series))
	if m.Known {
		why = fmt.Sprintf("kubefit's machine-series disk table cannot say whether %s attaches pd-balanced or hyperdisk-balanced", it.Name)
	}
	return []field.Warning{{Code: WarnGKEBootDiskUnchecked, Path: field.NewPath("InstanceTypes"), Message: fmt.Sprintf(
		"GCP node group %q on %s keeps GKE's default boot disk type (pd-balanced), not checked: %s; if the series attaches only "+
			"Hyperdisk, GKE refuses the pool, and the boot disk must be hyperdisk-balanced", req.Pool.Name, it.Name, why)}}
}
