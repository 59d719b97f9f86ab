package overhead

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
)

// TestVolumeAttachLimit checks the drivers' rules on the examples volumes.md gives (§2.5, §3.3, §4), which
// the drivers' own tests state: the EBS driver reports 26 on a fresh m5.large and 23 on an m5d.large with
// three ENIs (pkg/driver/node_test.go), 38 on a t2.medium; the GCE PD driver 15 on shared-core E2 and 127
// by default; Azure the VM size's maximum data disks.
func TestVolumeAttachLimit(t *testing.T) {
	tests := []struct {
		cloud           catalog.Cloud
		name            string
		count, reported int64
		formula         string
	}{
		{catalog.AWS, "m5.large", 24, 26, FVolumesEBSShared},
		{catalog.AWS, "m5d.large", 23, 25, FVolumesEBSShared},
		{catalog.AWS, "t3.medium", 24, 26, FVolumesEBSShared},
		{catalog.AWS, "c5.xlarge", 23, 26, FVolumesEBSShared},
		{catalog.AWS, "m7i.large", 31, 31, FVolumesEBSDedicated},
		{catalog.AWS, "m7i.48xlarge", 127, 127, FVolumesEBSDedicated},
		{catalog.AWS, "t2.medium", 38, 38, FVolumesEBSDedicated},
		{catalog.GCP, "e2-medium", 15, 15, FVolumesGCEPD},
		{catalog.GCP, "n2-standard-8", 127, 127, FVolumesGCEPD},
		{catalog.GCP, "c3-standard-8", 127, 127, FVolumesGCEPD},
		{catalog.GCP, "c4-standard-8", 31, 31, FVolumesGCEPD},
		{catalog.GCP, "n4-standard-8", 15, 15, FVolumesGCEPD},
		{catalog.GCP, "c4d-standard-2", 3, 3, FVolumesGCEPD},
		{catalog.Azure, "Standard_D4s_v5", 8, 8, FVolumesAzureDisk},
		{catalog.Azure, "Standard_B2s", 4, 4, FVolumesAzureDisk},
	}
	for _, tt := range tests {
		it, err := catalog.Lookup(tt.cloud, tt.name)
		if err != nil {
			t.Fatal(err)
		}
		got := VolumeAttachLimit(InstanceFromCatalog(it))
		if got.Count != tt.count || got.Reported != tt.reported || got.Formula != tt.formula {
			t.Errorf("%s: got %d (reported %d) by %s, want %d (reported %d) by %s: %s", tt.name, got.Count, got.Reported, got.Formula,
				tt.count, tt.reported, tt.formula, got.Detail)
		}
	}
	// Names the GCE PD driver parses (volumes.md §3.1) without catalog rows.
	for name, want := range map[string]int64{"c3-standard-192-metal": 15, "c4-standard-2": 7, "c4-standard-288": 127, "c4a-highmem-96-metal": 63,
		"a4x-highgpu-4g": 127, "a4x-highgpu-1g": 63, "a4x-maxgpu-metal": 31, "x4-megamem-960-metal": 39, "f1-micro": 15, "n4-standard-x": 15} {
		if got := pdLimit(name); got != want {
			t.Errorf("pdLimit(%s) = %d, want %d", name, got, want)
		}
	}
	if l := VolumeAttachLimit(CustomInstance(catalog.AWS, 4, 16<<30)); l.Count != 0 || l.Formula != FVolumesUnknown {
		t.Errorf("custom node: got %+v, want an unknown limit", l)
	}
}

// TestVolumeAttachLimitEveryType: every catalog type gets a limit of at least one attachment from a rule with
// a source, and an EBS shared limit never exceeds what the driver reports at start.
func TestVolumeAttachLimitEveryType(t *testing.T) {
	for _, cloud := range []catalog.Cloud{catalog.AWS, catalog.Azure, catalog.GCP} {
		for _, it := range catalog.All(cloud) {
			l := VolumeAttachLimit(InstanceFromCatalog(it))
			if l.Count < 1 || l.Count > l.Reported || Formulas[l.Formula] == "" || l.Driver == "" {
				t.Errorf("%s %s: %+v", cloud, it.Name, l)
			}
		}
	}
}

// TestVolumeAttachOverride: a user's limit (the driver's flag, or a measured CSINode count) wins and is the
// node's allocatable volume count.
func TestVolumeAttachOverride(t *testing.T) {
	r, err := Compute(Input{Profile: EKSAL2023, Instance: m5large, VolumeAttachLimit: ptr(39)})
	if err != nil {
		t.Fatal(err)
	}
	if r.Allocatable.Volumes != 39 || r.Volumes.Formula != FOverrideUser {
		t.Errorf("got %d by %s, want 39 by %s", r.Allocatable.Volumes, r.Volumes.Formula, FOverrideUser)
	}
	r, err = Compute(Input{Profile: EKSAL2023, Instance: m5large})
	if err != nil {
		t.Fatal(err)
	}
	if r.Allocatable.Volumes != 24 {
		t.Errorf("m5.large: allocatable volumes %d, want 24", r.Allocatable.Volumes)
	}
}

// TestVolumeTablesUpToDate: the embedded driver tables are the project's sources byte for byte (regenerate
// with go generate).
func TestVolumeTablesUpToDate(t *testing.T) {
	for name, embedded := range map[string]string{"aws-ebs-attach-limits.tsv": ebsAttachTable, "gcp-pd-attach-limits.tsv": pdAttachTable} {
		src, err := os.ReadFile(filepath.Join("..", "..", "sources", "data", "volumes", name))
		if err != nil {
			t.Fatal(err)
		}
		if string(src) != embedded {
			t.Errorf("volumes/%s differs from internal/sources/data/volumes/%s: run go generate ./internal/planner/overhead", name, name)
		}
	}
}
