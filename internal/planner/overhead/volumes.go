package overhead

import (
	_ "embed"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
)

// The disk CSI drivers' tables, copied byte for byte from internal/sources/data/volumes (volumes.md §2, §3);
// TestVolumeTablesUpToDate checks the copies.
//
//go:generate cp ../../sources/data/volumes/aws-ebs-attach-limits.tsv ../../sources/data/volumes/gcp-pd-attach-limits.tsv volumes/
var (
	//go:embed volumes/aws-ebs-attach-limits.tsv
	ebsAttachTable string
	//go:embed volumes/gcp-pd-attach-limits.tsv
	pdAttachTable string
)

// Formula identifiers of the volume attach limit (volumes.md).
const (
	FVolumesEBSShared    = "volumes.ebs-shared"
	FVolumesEBSDedicated = "volumes.ebs-dedicated"
	FVolumesGCEPD        = "volumes.gce-pd"
	FVolumesAzureDisk    = "volumes.azure-disk"
	FVolumesUnknown      = "volumes.unknown"
)

// The CSI drivers whose attachments a node's limit counts.
const (
	DriverEBS       = "ebs.csi.aws.com"
	DriverGCEPD     = "pd.csi.storage.gke.io"
	DriverAzureDisk = "disk.csi.azure.com"
)

// The EBS CSI driver's defaults (aws-ebs-attach-defaults.tsv, volumes.md §2.1).
const (
	ebsDefaultMax     = 27 // a Nitro type the driver's table does not list: 27, shared
	azureDefaultDisks = 16 // a VM size the Azure Disk driver's table does not list
	rootVolume        = 1  // the driver reserves the root volume's attachment
)

// VolumeLimit is how many block volumes a node's disk CSI driver lets kube-scheduler attach to it (the
// CSINode allocatable count the NodeVolumeLimits filter enforces), as kubefit plans it.
type VolumeLimit struct {
	// Count is the limit planned with: the driver's figure, on the safe side where it depends on run-time
	// state (the ENIs of an EBS shared-limit type, volumes.md §5.1). 0 means unknown: no block volume is
	// planned on the node.
	Count int64
	// Reported is what the driver reports when it starts on a fresh node (one ENI), where it differs.
	Reported int64
	Driver   string
	Formula  string
	Detail   string
}

// VolumeAttachLimit returns the attach limit of inst's cloud disk driver (volumes.md §2–§5).
func VolumeAttachLimit(inst Instance) VolumeLimit {
	switch inst.Cloud {
	case catalog.AWS:
		return ebsLimit(inst)
	case catalog.GCP:
		if inst.Name == "custom" {
			break
		}
		n := pdLimit(inst.Name)
		return VolumeLimit{Count: n, Reported: n, Driver: DriverGCEPD, Formula: FVolumesGCEPD,
			Detail: fmt.Sprintf("the GCE PD CSI driver's limit for %s (the boot disk excluded)", inst.Name)}
	case catalog.Azure:
		if inst.Name == "custom" {
			break
		}
		n, how := int64(inst.MaxDataDisks), "its maximum data disks"
		if n <= 0 {
			n, how = azureDefaultDisks, "the driver's default for a size it does not list"
		}
		return VolumeLimit{Count: n, Reported: n, Driver: DriverAzureDisk, Formula: FVolumesAzureDisk,
			Detail: fmt.Sprintf("the Azure Disk CSI driver reports %s for %s", how, inst.Name)}
	}
	return VolumeLimit{Formula: FVolumesUnknown, Detail: "a custom node's disk attach limit is not known; give the attach limit its disk CSI driver reports"}
}

// ebsLimit is the EBS CSI driver's limit (volumes.md §2.1): max − the root volume, and on a shared-limit type
// also minus the ENIs beyond the first. The driver counts the ENIs attached when it asks; kubefit plans with
// every ENI the VPC CNI may attach (volumes.md §5.1), since one attached later takes a slot the scheduler
// still counts as free.
func ebsLimit(inst Instance) VolumeLimit {
	if inst.Name == "custom" {
		return VolumeLimit{Formula: FVolumesUnknown, Detail: "a custom node's disk attach limit is not known; give the attach limit its disk CSI driver reports"}
	}
	row, listed := ebsRows()[inst.Name]
	if !listed {
		row = ebsRow{max: ebsDefaultMax, shared: true}
	}
	l := VolumeLimit{Driver: DriverEBS}
	if !row.shared {
		l.Count = max(row.max-rootVolume, 1)
		l.Reported, l.Formula = l.Count, FVolumesEBSDedicated
		l.Detail = fmt.Sprintf("%s has a dedicated EBS limit of %d attachments, less the root volume", inst.Name, row.max)
		return l
	}
	enis := max(inst.MaxENIs, 1)
	l.Count = max(row.max-rootVolume-(enis-1), 1)
	l.Reported, l.Formula = max(row.max-rootVolume, 1), FVolumesEBSShared
	how := "the driver's table"
	if !listed {
		how = "the driver's default for a Nitro type it does not list"
	}
	l.Detail = fmt.Sprintf("%s shares %d attachments (%s) with its network interfaces: less the root volume and the %d ENIs beyond the first the VPC CNI may attach (%d reported at start with one ENI)",
		inst.Name, row.max, how, enis-1, l.Reported)
	return l
}

type ebsRow struct {
	max    int64
	shared bool
}

var ebsRows = sync.OnceValue(func() map[string]ebsRow {
	out := map[string]ebsRow{}
	for _, f := range tableRows(ebsAttachTable, "instance_type") {
		if len(f) < 3 {
			continue
		}
		n, err := strconv.ParseInt(f[1], 10, 64)
		if err != nil {
			continue
		}
		out[f[0]] = ebsRow{max: n, shared: f[2] == "shared"}
	}
	return out
})

// pdRule is one row of the GCE PD driver's rules (gcp-pd-attach-limits.tsv).
type pdRule struct {
	kind, pattern, countFrom string
	countMax, limit          int64
}

var pdRules = sync.OnceValue(func() []pdRule {
	var out []pdRule
	for _, f := range tableRows(pdAttachTable, "rule_order") {
		if len(f) < 6 {
			continue
		}
		r := pdRule{kind: f[1], pattern: f[2], countFrom: f[3]}
		r.countMax, _ = strconv.ParseInt(f[4], 10, 64)
		r.limit, _ = strconv.ParseInt(f[5], 10, 64)
		out = append(out, r)
	}
	return out
})

// pdLimit applies the GCE PD driver's rules in order (volumes.md §3.1): the first match wins; a series
// sized by the count in the name's third field takes the first row whose bound holds, else its last row.
func pdLimit(name string) int64 {
	rules := pdRules()
	for i := 0; i < len(rules); i++ {
		r := rules[i]
		switch r.kind {
		case "exact":
			if name == r.pattern {
				return r.limit
			}
		case "prefix+field3":
			prefix, field, _ := strings.Cut(r.pattern, "/")
			if strings.HasPrefix(name, prefix) && nameField(name, 2) == field {
				return r.limit
			}
		case "prefix+suffix":
			prefix, suffix, _ := strings.Cut(r.pattern, "*")
			if strings.HasPrefix(name, prefix) && strings.HasSuffix(name, suffix) {
				return r.limit
			}
		case "prefix":
			if !strings.HasPrefix(name, r.pattern) {
				continue
			}
			if r.countFrom == "" {
				return r.limit
			}
			count, err := strconv.ParseInt(strings.TrimSuffix(nameField(name, 2), "g"), 10, 64)
			if err != nil {
				return r.limit // no count in the name: the series' smallest limit, the safe side
			}
			last := r.limit
			for j := i; j < len(rules) && rules[j].kind == r.kind && rules[j].pattern == r.pattern; j++ {
				if count <= rules[j].countMax {
					return rules[j].limit
				}
				last = rules[j].limit
			}
			return last
		case "default":
			return r.limit
		}
	}
	return 0
}

// nameField returns the i-th '-'-separated field of a machine type name, or "".
func nameField(name string, i int) string {
	f := strings.Split(name, "-")
	if i < len(f) {
		return f[i]
	}
	return ""
}

// tableRows returns the tab-separated rows of a table after its '#' header and its column-name row (the
// row whose first field is first).
func tableRows(table, first string) [][]string {
	var out [][]string
	for _, line := range strings.Split(table, "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if f[0] == first {
			continue
		}
		out = append(out, f)
	}
	return out
}

// volumes sets the node's attach limit, as its driver computes it or as the user gave it, with its term.
func (c *calc) volumes() {
	l := VolumeAttachLimit(c.in.Instance)
	if v := c.in.VolumeAttachLimit; v != nil {
		rule := l
		l = VolumeLimit{Count: *v, Reported: *v, Driver: rule.Driver, Formula: FOverrideUser,
			Detail: fmt.Sprintf("the attach limit set by the user (the driver's rule would give %d by %s)", rule.Count, rule.Formula)}
	}
	c.res.Volumes = l
	c.res.Allocatable.Volumes = l.Count
	c.term("attachableVolumes", UnitVolumes, l.Count, l.Formula, l.Detail)
	if in := c.in.Instance; in.Cloud == catalog.GCP && hyperdiskBelowReported[in.Family] && c.in.VolumeAttachLimit == nil {
		c.warn(CodeHyperdiskAttach, field.NewPath("VolumeAttachLimit"),
			"the PD CSI driver reports %d attachable volumes on %q, but Google attaches fewer Hyperdisk volumes to %s machines (16 with the boot disk on "+
				"c3-standard-4, as the driver's own error says: \"Maximum hyperdisk-balanced disks count should be less than or equal to [16]\"); "+
				"if its claims use Hyperdisk, set the attach limit the machine type takes, or plan with fewer volumes per node",
			l.Count, in.Name, strings.ToUpper(in.Family))
	}
}

// hyperdiskBelowReported are the GCP series whose attach limit the PD CSI driver reports as the Persistent Disk
// default, 127, although Hyperdisk volumes attach in smaller numbers (volumes.md §5.3: the driver went back to
// the PD default for these third-generation series, commit a9acfff7; Red Hat's OpenShift GCP PD CSI docs give 16,
// boot disk included, for c3-standard-2 and -4; gcp-compute-persistent-disk-csi-driver#1819 quotes GCE's error).
var hyperdiskBelowReported = map[string]bool{"c3": true, "c3d": true, "h3": true}
