package disk

import (
	"slices"
	"strings"
	"testing"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
)

func gcpType(t *testing.T, name string) catalog.InstanceType {
	t.Helper()
	it, err := catalog.Lookup(catalog.GCP, name)
	if err != nil {
		t.Fatal(err)
	}
	return it
}

// TestCheckGCPMachineDisk: the machine-series table passes a disk type a series attaches, refuses one it
// does not (both ways: PD on Hyperdisk-only series, Hyperdisk Balanced on PD-only series, and a size rule),
// and only warns where it has no source.
func TestCheckGCPMachineDisk(t *testing.T) {
	at := field.NewPath("Spec", "Type")
	tests := []struct {
		machine, disk string
		want          string // "" pass, else the rule
		wantIn        []string
	}{
		// Newer series attach only Hyperdisk.
		{"n4-standard-8", "hyperdisk-balanced", "", nil},
		{"n4-standard-8", "pd-balanced", "GPD-M1", []string{"the N4 series does not attach pd-balanced", "pd-balanced", `"hyperdisk-balanced", "hyperdisk-balanced-high-availability" and "hyperdisk-throughput"`, "general-purpose-machines"}},
		{"c4-standard-8", "pd-ssd", "GPD-M1", []string{"the C4 series does not attach pd-ssd"}},
		{"c4a-standard-4", "pd-standard", "GPD-M1", nil},
		{"c4d-standard-8", "hyperdisk-throughput", "GPD-M1", nil},
		{"m4-megamem-28", "pd-ssd", "GPD-M1", nil},
		{"h4d-highmem-192-lssd", "hyperdisk-extreme", "GPD-M1", nil},
		// Older series attach no Hyperdisk Balanced.
		{"e2-standard-4", "pd-balanced", "", nil},
		{"e2-standard-4", "hyperdisk-balanced", "GPD-M1", []string{`"pd-standard", "pd-balanced" and "pd-ssd"`}},
		{"n1-standard-4", "hyperdisk-balanced", "GPD-M1", nil},
		{"n2d-standard-8", "hyperdisk-balanced", "GPD-M1", nil},
		{"n2d-standard-8", "hyperdisk-throughput", "", nil},
		{"t2d-standard-4", "pd-extreme", "GPD-M1", nil},
		{"f1-micro", "pd-standard", "", nil},
		{"g1-small", "hyperdisk-balanced", "GPD-M1", nil},
		// Both kinds, with size rules.
		{"c3-standard-8", "pd-balanced", "", nil},
		{"c3-standard-8", "hyperdisk-balanced", "", nil},
		{"c3-standard-8", "pd-standard", "GPD-M1", nil},
		{"c3-standard-8", "hyperdisk-extreme", "GPD-M1", []string{"only from 64 vCPUs", "c3-standard-8 has 8"}},
		{"c3-standard-88", "hyperdisk-extreme", "", nil},
		{"c3-standard-192-metal", "pd-balanced", "GPD-M1", []string{"the C3 bare metal series"}},
		{"c3-standard-192-metal", "hyperdisk-extreme", "", nil},
		{"c4-standard-48", "hyperdisk-extreme", "GPD-M1", []string{"from 96 vCPUs"}},
		{"c4-standard-96", "hyperdisk-extreme", "", nil},
		{"c4-standard-288-metal", "hyperdisk-throughput", "GPD-M1", nil},
		{"n2-standard-64", "hyperdisk-extreme", "GPD-M1", nil},
		{"n2-standard-80", "hyperdisk-extreme", "", nil},
		// pd-extreme: N2 from 64 vCPUs, M1 unsettled (the Extreme Persistent Disk page names N2, M2 and M3 only).
		{"n2-standard-8", "pd-extreme", "GPD-M1", []string{"only from 64 vCPUs, and n2-standard-8 has 8", "not supported for production use", "extreme-persistent-disk", "N2 VMs require at least 64 vCPUs"}},
		{"n2-standard-64", "pd-extreme", "", nil},
		{"n2-highmem-80", "pd-extreme", "", nil},
		{"m1-ultramem-40", "pd-extreme", "GPD-M2", []string{"not settled", "names only N2, M2 and M3"}},
		{"m2-ultramem-208", "pd-extreme", "", nil},
		{"m3-megamem-64", "pd-extreme", "", nil},
		{"h3-standard-88", "pd-ssd", "GPD-M1", nil},
		{"z3-highmem-88-highlssd", "pd-ssd", "", nil},
		{"m3-ultramem-32", "pd-standard", "GPD-M1", nil},
		// Unknown: a series without a source, a cell the sources disagree on.
		{"a2-highgpu-1g", "pd-balanced", "GPD-M2", []string{"no row for the A2 series", "not checked"}},
		{"g2-standard-4", "hyperdisk-balanced", "GPD-M2", nil},
		{"n4d-standard-8", "hyperdisk-ml", "GPD-M2", []string{"not settled"}},
		// Not checked: the driver's dynamic type.
		{"n4-standard-8", "dynamic", "", nil},
	}
	for _, tc := range tests {
		f := CheckGCPMachineDisk(gcpType(t, tc.machine), tc.disk, at)
		switch {
		case tc.want == "" && f != nil:
			t.Errorf("%s %s: got %v, want a pass", tc.machine, tc.disk, f)
		case tc.want == "":
		case f == nil:
			t.Errorf("%s %s: passed, want %s", tc.machine, tc.disk, tc.want)
		default:
			wantSev := SeverityError
			if tc.want == RuleMachineDiskUnknown {
				wantSev = SeverityWarning
			}
			if f.Rule != tc.want || f.Severity != wantSev || f.Path.String() != "Spec.Type" || f.Value != tc.disk {
				t.Errorf("%s %s: got %s %s at %s value %q, want %s %s at Spec.Type", tc.machine, tc.disk, f.Rule, f.Severity, f.Path, f.Value, tc.want, wantSev)
			}
			for _, s := range tc.wantIn {
				if !strings.Contains(f.Message, s) {
					t.Errorf("%s %s: message %q lacks %q", tc.machine, tc.disk, f.Message, s)
				}
			}
		}
	}
	// Another cloud's type is not the table's business.
	if f := CheckGCPMachineDisk(catalog.InstanceType{Cloud: catalog.AWS, Name: "m5.large"}, "pd-balanced", at); f != nil {
		t.Errorf("AWS type: got %v", f)
	}
}

// gcpSeriesWithoutSource are the catalog's GCP series the machine-series table has no row for: their
// machine types get a warning (GPD-M2), never a pass or an error. Adding a row to
// gcp-machine-disk-types.tsv must remove its series here, and a new catalog series must land in one of the two.
var gcpSeriesWithoutSource = []string{"a2", "a3", "g2", "g4", "z4d"}

// TestGCPCatalogSeriesCovered: every GCP machine type of the catalog maps to a row of the table or to a
// series listed as unknown, so a new catalog series cannot pass or fail silently.
func TestGCPCatalogSeriesCovered(t *testing.T) {
	seen := map[string]bool{}
	for _, it := range catalog.All(catalog.GCP) {
		m := GCPMachineDisks(it)
		seen[m.Series] = true
		listed := slices.Contains(gcpSeriesWithoutSource, m.Series)
		switch {
		case m.Known && listed:
			t.Errorf("%s: series %s has a row now; remove it from gcpSeriesWithoutSource", it.Name, m.Series)
		case !m.Known && !listed:
			t.Errorf("%s: series %s is neither in gcp-machine-disk-types.tsv nor in gcpSeriesWithoutSource", it.Name, m.Series)
		case m.Known && len(m.SupportedTypes()) == 0 && it.VCPU > 0:
			t.Errorf("%s: attaches no disk type at all", it.Name)
		}
		if m.Known && m.Metal != (m.row.variant == "metal") && m.row.variant != "all" {
			t.Errorf("%s: metal %t matched row variant %s", it.Name, m.Metal, m.row.variant)
		}
	}
	for _, s := range gcpSeriesWithoutSource {
		if !seen[s] {
			t.Errorf("series %s is listed as unknown but the catalog has no type of it", s)
		}
	}
}

// TestGCPMachineDiskColumns: the table has a column for every GCE PD CSI type but dynamic, so a type the
// driver learns cannot go unchecked.
func TestGCPMachineDiskColumns(t *testing.T) {
	var want []string
	for _, t := range GCETypes {
		if t != "dynamic" {
			want = append(want, t)
		}
	}
	if !slices.Equal(gcpMachineDiskTypes[:], want) {
		t.Errorf("columns %v, want the GCE types %v", gcpMachineDiskTypes, want)
	}
	for _, typ := range TypesOf(catalog.GCP) {
		if !slices.Contains(gcpMachineDiskTypes[:], string(typ)) {
			t.Errorf("modelled GCP type %s has no column", typ)
		}
	}
}

// TestCheckGCPMachineDiskSizeRemedy: pd-extreme on n2-standard-8: N2 attaches it from 64 vCPUs, so the remedy names
// a larger N2 type, not only another series.
func TestCheckGCPMachineDiskSizeRemedy(t *testing.T) {
	f := CheckGCPMachineDisk(catalog.InstanceType{Cloud: catalog.GCP, Name: "n2-standard-8", VCPU: 8}, "pd-extreme", field.NewPath("Type"))
	if f == nil {
		t.Fatal("no finding")
	}
	t.Log(f.Message)
	if !strings.Contains(f.Message, "a machine type of the N2 series with 64 vCPUs or more") {
		t.Errorf("remedy does not say a machine type of 64+ vCPUs of the same series attaches it: %s", f.Message)
	}
}
