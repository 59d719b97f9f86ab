package disk

// Which disk types a GCP machine type attaches (disks.md §6.1): newer series attach only Hyperdisk, older
// ones no Hyperdisk Balanced, some types only from a number of vCPUs. The table is generated from
// internal/sources/data/disks/gcp-machine-disk-types.tsv (gcp_machines_generated.go).

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
)

// gcpSeriesDisk is one generated row of gcp-machine-disk-types.tsv: a series, or its VM or bare-metal
// machine types, and per disk type of gcpMachineDiskTypes 0 (not attached), -1 (unknown) or the fewest
// vCPUs a machine type needs to attach it (1: every size).
type gcpSeriesDisk struct {
	series, variant string
	support         [len(gcpMachineDiskTypes)]int
	page            int // index into gcpSeriesPages
	section, note   string
}

// Support says whether a machine type attaches a disk type.
type Support string

// The answers of the machine-series table.
const (
	Supported      Support = "supported"
	Unsupported    Support = "unsupported"
	SupportUnknown Support = "unknown" // the series or the cell is not in a source kubefit read
)

// MachineDisks is what the machine-series table says about one GCP machine type (disks.md §6.1).
type MachineDisks struct {
	Machine string // machine type, "n4-standard-8"
	Series  string // its series, the name's text before the first "-": "n4"
	Metal   bool   // a bare-metal type (name ending in -metal), whose disk types some series list apart
	VCPU    int    // from the catalog row; 0 when unknown
	// Known reports that the table has the series; a series it lacks is unknown for every disk type.
	Known bool
	row   gcpSeriesDisk
}

// GCPMachineDisks looks up the machine-series table for a GCP machine type. Known is false for a series
// the table does not have (and for a type of another cloud).
func GCPMachineDisks(it catalog.InstanceType) MachineDisks {
	series, _, _ := strings.Cut(strings.ToLower(it.Name), "-")
	m := MachineDisks{Machine: it.Name, Series: series, Metal: strings.HasSuffix(strings.ToLower(it.Name), "-metal"), VCPU: it.VCPU}
	if it.Cloud != catalog.GCP {
		return m
	}
	variant := "vm"
	if m.Metal {
		variant = "metal"
	}
	for _, r := range gcpSeriesDisks {
		if r.series == series && (r.variant == "all" || r.variant == variant) {
			m.Known, m.row = true, r
			break
		}
	}
	return m
}

// seriesName is the series as Google writes it ("N4", "C4A"), with "bare metal" for a metal type listed apart.
func (m MachineDisks) seriesName() string {
	s := strings.ToUpper(m.Series)
	if m.Known && m.row.variant == "metal" {
		s += " bare metal"
	}
	return s
}

// Support says whether the machine type attaches disk type t (a GCE PD CSI type value), with the reason
// in words when it does not or when the table cannot say. A type outside the table (dynamic, which the
// driver resolves per node) is unknown.
func (m MachineDisks) Support(t string) (Support, string) {
	i := slices.Index(gcpMachineDiskTypes[:], t)
	switch {
	case i < 0:
		return SupportUnknown, fmt.Sprintf("kubefit's machine-series table has no column for disk type %q", t)
	case !m.Known:
		return SupportUnknown, fmt.Sprintf("kubefit's machine-series table (disks.md §6.1) has no row for the %s series", strings.ToUpper(m.Series))
	}
	switch n := m.row.support[i]; {
	case n == 0:
		return Unsupported, fmt.Sprintf("the %s series does not attach %s", m.seriesName(), t)
	case n < 0:
		return SupportUnknown, fmt.Sprintf("whether the %s series attaches %s is not settled in kubefit's sources (%s)", m.seriesName(), t, m.row.note)
	case n == 1 || m.VCPU >= n:
		return Supported, ""
	case m.VCPU == 0:
		return SupportUnknown, fmt.Sprintf("the %s series attaches %s from %d vCPUs, and the vCPU count of %s is unknown", m.seriesName(), t, n, m.Machine)
	default:
		return Unsupported, fmt.Sprintf("the %s series attaches %s only from %d vCPUs, and %s has %d", m.seriesName(), t, n, m.Machine, m.VCPU)
	}
}

// SupportedTypes lists the disk types the machine type attaches, in the table's order; nil for an unknown series.
func (m MachineDisks) SupportedTypes() []string {
	var out []string
	for _, t := range gcpMachineDiskTypes {
		if s, _ := m.Support(t); s == Supported {
			out = append(out, t)
		}
	}
	return out
}

// Source names the page and section the series' row comes from; "" for an unknown series.
func (m MachineDisks) Source() string {
	if !m.Known {
		return ""
	}
	return fmt.Sprintf("Google Cloud machine families: %q, %s", m.row.section, gcpSeriesPages[m.row.page])
}

// The rules of the machine-series table (disks.md §6.1).
const (
	// RuleMachineDisk: the machine type does not attach the disk type (error).
	RuleMachineDisk = "GPD-M1"
	// RuleMachineDiskUnknown: the table cannot say whether the machine type attaches the disk type (warning).
	RuleMachineDiskUnknown = "GPD-M2"
)

// CheckGCPMachineDisk checks that GCP machine type it attaches disks of type t (disks.md §6.1). It returns
// nil when it does, an error finding (GPD-M1) at path at when it does not, naming the types it attaches,
// and a warning (GPD-M2) when the table cannot say: a series kubefit has no source for is never passed or
// refused. The type dynamic, which the driver resolves per node, is not checked.
func CheckGCPMachineDisk(it catalog.InstanceType, t string, at field.Path) *Finding {
	if it.Cloud != catalog.GCP || t == "dynamic" {
		return nil
	}
	m := GCPMachineDisks(it)
	s, why := m.Support(t)
	switch s {
	case Supported:
		return nil
	case SupportUnknown:
		return &Finding{Rule: RuleMachineDiskUnknown, Severity: SeverityWarning, Path: at, Value: t,
			Message: fmt.Sprintf("whether %s attaches %s disks is not checked: %s; check the series' \"Supported disk types\" "+
				"section in Google's machine-family documentation (rule %s)", m.Machine, t, why, RuleMachineDiskUnknown)}
	}
	use := "no disk type"
	if ok := m.SupportedTypes(); len(ok) > 0 {
		for i, t := range ok {
			ok[i] = strconv.Quote(t)
		}
		use = field.JoinAnd(ok)
	}
	effect, src := "so the Persistent Disk CSI driver's attach fails and the pod stays in ContainerCreating", m.Source()
	if t == "pd-extreme" {
		// Google's pd-extreme page names the series (and N2's size) it supports: other shapes are not supported for production.
		effect = "and Google supports pd-extreme only there (other machine types \"are not supported for production use\")"
		src += "; " + pdExtremeSource
	}
	larger := ""
	if i := slices.Index(gcpMachineDiskTypes[:], t); i >= 0 && m.row.support[i] > 1 {
		// A size rule: the series attaches t from that many vCPUs, so a larger type of it is a remedy too.
		larger = fmt.Sprintf(", a machine type of the %s series with %d vCPUs or more,", m.seriesName(), m.row.support[i])
	}
	return &Finding{Rule: RuleMachineDisk, Severity: SeverityError, Path: at, Value: t,
		Message: fmt.Sprintf("machine type %s cannot attach a %s disk: %s, %s; %s attaches %s (%s). Use one of those types%s or a machine series that "+
			"attaches %s (rule %s)", m.Machine, t, why, effect, m.Machine, use, src, larger, t, RuleMachineDisk)}
}

// pdExtremeSource is the page the pd-extreme column's size rule and series list come from (the family pages list
// the type without N2's size; disks.md §6.1).
const pdExtremeSource = `Google Cloud "Extreme Persistent Disk": "Machine shape support", https://docs.cloud.google.com/compute/docs/disks/extreme-persistent-disk (read 2026-12-07): "You can use N2, M2 and M3 machine series with Extreme Persistent Disk. N2 VMs require at least 64 vCPUs"`
