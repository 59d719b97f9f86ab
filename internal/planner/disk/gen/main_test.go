package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestGeneratedUpToDate regenerates the disk tables from the project's own sources (internal/sources/data/disks)
// and compares them byte for byte with the checked-in files.
func TestGeneratedUpToDate(t *testing.T) {
	const src = "../../../sources/data/disks"
	dir := t.TempDir()
	out, testOut := filepath.Join(dir, "tiers_generated.go"), filepath.Join(dir, "tiers_samples_generated_test.go")
	gcpOut := filepath.Join(dir, "gcp_machines_generated.go")
	if err := run(src, out, testOut, gcpOut); err != nil {
		t.Fatal(err)
	}
	for got, want := range map[string]string{out: "../tiers_generated.go", testOut: "../tiers_samples_generated_test.go",
		gcpOut: "../gcp_machines_generated.go"} {
		a, err := os.ReadFile(got)
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(want)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a, b) {
			t.Errorf("%s differs from a fresh run of the generator: run go generate ./internal/planner/disk/", filepath.Base(want))
		}
	}
}
