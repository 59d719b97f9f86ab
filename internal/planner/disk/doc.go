// Package disk computes the performance of a cloud block volume from its type, size and provisioned
// settings (AWS EBS, Azure managed disks, GCP Persistent Disk and Hyperdisk), caps it by the disk limits
// of the node it is attached to (for an Azure disk with host caching, the VM's cached limits as well), derives
// the rate a workload actually reaches for its I/O size, access pattern and queue depth, recommends the
// smallest size or tier that meets a requirement (IOPS and throughput as separate requirements, each at its
// own I/O shape, §7.9), names the node sizes of a family that sustain it (§7.10), and checks
// StorageClass parameters against the rules the CSI drivers and the clouds enforce. It implements
// internal/sources/domain/disks.md; section numbers in comments (§2.3, …) refer to that document.
//
// Units. Inside the package throughput is carried in bytes per second, sizes in GiB and I/O sizes in
// bytes, all as exact integers where the spec gives exact figures; only effective rates that depend on a
// latency (Little's law) are float64. Each type reports throughput in the unit its cloud publishes
// (ThroughputUnit): MiB/s for AWS EBS volumes and GCP, MB/s (10^6 B/s) for Azure and for AWS instance
// limits (§0.2).
//
// Rule identifiers. Findings carry the stable identifiers of disks.md (EBS-V4, AZD-V3, GPD-V2, QD-1, …).
// Where disks.md states a rule without naming it, the package adds an identifier of its own, listed in
// Rules; those are FIT-* (fit of a requirement to volume and node), SC-W1 (in-tree provisioner),
// EBS-P6 (magnetic volume with a requirement, §2.7), AZD-P3 (requirement met only with billed on-demand
// bursting, §4.2) and GPD-V7 (GCE disk type value).
//
// Errors and findings. Invalid input is a *field.Error (see package field) whose Path names the field at
// fault in this package's own names (Spec.SizeGiB, Access.QueueDepth, Requirement.IOPS; for a Class,
// Parameters["iopsPerGB"], SizesGiB[0], VolumeBindingMode) and whose detail starts with the rule id. Rule
// outcomes that are not input errors (an unmet requirement, a warning) are Findings with the same kind of
// Path; a ClassReport collects both, and its Err returns the error findings as field.Errors.
//
// The Azure fixed-tier table is generated from internal/sources/data/disks/azure-disk-tiers.tsv by gen/; the AWS
// and GCP limits are formulas of disks.md §2 and §6 written out in aws.go and gcp.go. Instance limits come
// from the catalog package through NodeLimitsFor.
package disk

//go:generate go run ./gen -src ../../sources/data/disks -out tiers_generated.go -test-out tiers_samples_generated_test.go -gcp-out gcp_machines_generated.go
