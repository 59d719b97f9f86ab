package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const sourcesBurst = "../../../sources/data/burst"

// TestGeneratedUpToDate regenerates the budgets from the shared tables and compares them with the checked-in
// file, and checks that two runs give identical bytes.
func TestGeneratedUpToDate(t *testing.T) {
	got, err := Generate(sourcesBurst, "surplus-prices.tsv")
	if err != nil {
		t.Fatal(err)
	}
	again, err := Generate(sourcesBurst, "surplus-prices.tsv")
	if err != nil || !bytes.Equal(got, again) {
		t.Fatalf("generator is not deterministic (%v)", err)
	}
	want, err := os.ReadFile("../budgets_generated.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Error("budgets_generated.go is stale: run go generate ./internal/planner/burst/")
	}
}

func TestParseMilli(t *testing.T) {
	for _, tc := range []struct {
		in      string
		want    int64
		wantErr bool
	}{
		{"81.6", 81600, false}, {"1958.4", 1958400, false}, {"22.5", 22500, false}, {"0", 0, false},
		{"12.125", 12125, false}, {"1.2345", 0, true}, {"-1", 0, true}, {"", 0, true}, {"x", 0, true}, {"1.x", 0, true},
	} {
		got, err := parseMilli(tc.in)
		if got != tc.want || (err != nil) != tc.wantErr {
			t.Errorf("parseMilli(%q) = %d, %v", tc.in, got, err)
		}
	}
	if got, err := parseMicro("0.000833"); got != 833 || err != nil {
		t.Errorf("parseMicro = %d, %v", got, err)
	}
	if got := usd(50_000); got != "0.05" {
		t.Errorf("usd(50000) = %q", got)
	}
}

func TestAzureFamily(t *testing.T) {
	for in, want := range map[string]string{
		"Standard_B2s": "B", "Standard_B1ls": "B", "Standard_B20ms": "B", "Standard_B2ts_v2": "Bsv2",
		"Standard_B32ls_v2": "Bsv2", "Standard_B2ats_v2": "Basv2", "Standard_B16as_v2": "Basv2", "Standard_B2pts_v2": "Bpsv2",
		"Standard_B16pls_v2": "Bpsv2",
	} {
		if got, err := azureFamily(in); got != want || err != nil {
			t.Errorf("azureFamily(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := azureFamily("Standard_D2s_v5"); err == nil {
		t.Error("Standard_D2s_v5 accepted")
	}
}

// TestRejectsBrokenRows copies the shared tables, breaks one cell, and expects the generator to refuse it.
func TestRejectsBrokenRows(t *testing.T) {
	tests := []struct {
		file, old, new, wantErr string
	}{
		{"aws-burstable.tsv", "t3a.medium\t2\t4\t20\t24\t576", "t3a.medium\t2\t4\t20\t25\t576", "is not baseline"},
		{"aws-burstable.tsv", "t3.large\t2\t8\t30\t36\t864", "t3.large\t2\t8\t30\t36\t865", "is not 24 ×"},
		{"aws-burstable.tsv", "t2.nano\t1\t0.5\t5\t3\t72\t30", "t2.nano\t1\t0.5\t5\t3\t72\t0", "contradict"},
		{"azure-burstable.tsv", "Standard_B2s\t2\t4\t20\t24\t576\t60", "Standard_B2s\t2\t4\t20\t24\t576\t30", "initial_credits"},
		{"azure-burstable.tsv", "Standard_B8ms\t8\t32\t17\t81\t1944", "Standard_B8ms\t8\t32\t17\t81\t1994", "more than 1 %"},
		{"azure-burstable.tsv", "Standard_B2s_v2\t2\t8\t40\t48", "Standard_B2s_v2\t2\t8\t40\t47", "v2 row"},
		{"gcp-shared-core.tsv", "e2-small\t2\t2\t0.5\t25", "e2-small\t2\t2\t0.5\t30", "sustained_vcpu"},
		{"gcp-shared-core.tsv", "g1-small\t1\t1.7\t0.5\t50\t1\t\tshared-core N1 (legacy)\n", "", "rows, want 5"},
	}
	for _, tc := range tests {
		t.Run(tc.file+"/"+tc.wantErr, func(t *testing.T) {
			dir := t.TempDir()
			for _, f := range []string{"aws-burstable.tsv", "azure-burstable.tsv", "gcp-shared-core.tsv"} {
				data, err := os.ReadFile(filepath.Join(sourcesBurst, f))
				if err != nil {
					t.Fatal(err)
				}
				if f == tc.file {
					if !bytes.Contains(data, []byte(tc.old)) {
						t.Fatalf("%s has no %q", f, tc.old)
					}
					data = bytes.Replace(data, []byte(tc.old), []byte(tc.new), 1)
				}
				if err := os.WriteFile(filepath.Join(dir, f), data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			_, err := Generate(dir, "surplus-prices.tsv")
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("err = %v, want %q", err, tc.wantErr)
			}
		})
	}
}
