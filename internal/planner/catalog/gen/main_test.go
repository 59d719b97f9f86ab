package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// sourcesDir is the project's internal/sources directory as seen from this package's directory.
var sourcesDir = filepath.FromSlash("../../../sources")

// TestGeneratedFilesUpToDate regenerates the catalog into a temporary directory and compares it
// byte for byte with the committed files in ../data. When the committed files were generated with live
// dumps, their Regenerate line names them (relative to internal/planner/catalog) and the test merges the
// same dumps.
func TestGeneratedFilesUpToDate(t *testing.T) {
	committedAWS, err := os.ReadFile(filepath.Join("..", "data", "aws.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	regen := ""
	for line := range strings.SplitSeq(string(committedAWS), "\n") {
		if r, ok := strings.CutPrefix(line, "# Regenerate: "); ok {
			regen = r
			break
		}
	}
	live, err := liveArgsOf(regen)
	if err != nil {
		t.Fatalf("data/aws.tsv Regenerate line: %v", err)
	}
	dir := t.TempDir()
	t.Chdir("..") // the Regenerate line runs in internal/planner/catalog, and names the dumps from there
	for _, a := range live {
		if _, err := os.Stat(a.path); err != nil {
			t.Fatalf("data/aws.tsv was generated with the live dump %s, which is not in the repository: commit it "+
				"under internal/planner/catalog, or regenerate without it (`cd internal/planner/catalog && go generate`): %v", a, err)
		}
	}
	if err := run(options{sources: filepath.Join("gen", sourcesDir), out: dir, live: live}); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"aws.tsv", "azure.tsv", "gcp.tsv"} {
		fresh, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		committed, err := os.ReadFile(filepath.Join("data", name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(fresh, committed) {
			t.Errorf("data/%s differs from a fresh run of the generator; run the command of its Regenerate header line", name)
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 3 {
		t.Errorf("generator wrote %d files, want 3", len(entries))
	}
}

// TestGenerateDeterministic runs the generator twice and compares the output.
func TestGenerateDeterministic(t *testing.T) {
	a, _, err := generate(sourcesDir, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _, err := generate(sourcesDir, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(a) != len(b) {
		t.Fatalf("%d files, then %d", len(a), len(b))
	}
	for i := range a {
		if a[i].name != b[i].name || !bytes.Equal(a[i].data, b[i].data) {
			t.Errorf("%s differs between two runs", a[i].name)
		}
	}
}

func TestMissingShared(t *testing.T) {
	err := run(options{sources: filepath.Join(t.TempDir(), "nowhere"), out: t.TempDir()})
	if err == nil || !strings.Contains(err.Error(), "is -sources=") {
		t.Errorf("run with a missing shared dir: error = %v, want one naming -sources", err)
	}
}

func TestCheckRegistry(t *testing.T) {
	md, err := os.ReadFile(filepath.Join(sourcesDir, "data", "catalog", "SOURCES.md"))
	if err != nil {
		t.Fatal(err)
	}
	if err := checkRegistry(string(md)); err != nil {
		t.Error(err)
	}
	// A SOURCES.md that moved moto to another commit must be caught.
	stale := strings.ReplaceAll(string(md), "0af643a5dbfc98797f08ee64f5be3ef8002d56ff", "1111111111111111111111111111111111111111")
	if err := checkRegistry(stale); err == nil || !strings.Contains(err.Error(), `"moto"`) {
		t.Errorf("checkRegistry with a changed moto commit: error = %v", err)
	}
	// So must one that drops a page of the GCP documentation source, or changes its read date.
	for _, cut := range []string{"https://docs.cloud.google.com/compute/docs/compute-optimized-machines", "read 2026-12-07"} {
		stale := strings.ReplaceAll(string(md), cut, "")
		if err := checkRegistry(stale); err == nil || !strings.Contains(err.Error(), `"google-docs-machine-families"`) {
			t.Errorf("checkRegistry without %q: error = %v", cut, err)
		}
	}
}

func TestGCPMemoryNote(t *testing.T) {
	if got, want := gcpMemoryNote(map[string]int{"z3": 19, "c4n": 24}, 540),
		"GCP memory is unknown (empty) for 43 of 540 types (c4n 24, z3 19); see SOURCES.md."; got != want {
		t.Errorf("gcpMemoryNote = %q, want %q", got, want)
	}
	if got, want := gcpMemoryNote(nil, 540), "GCP memory is known for all 540 types."; got != want {
		t.Errorf("gcpMemoryNote(nil) = %q, want %q", got, want)
	}
}

func TestAWSArch(t *testing.T) {
	tests := []struct {
		in     string
		want   string
		wantOK bool
	}{
		{"", "", true},
		{"x86_64", "x86_64", true},
		{"arm64", "arm64", true},
		{"i386,x86_64", "x86_64", true},
		{"x86_64_mac", "x86_64", true},
		{"arm64_mac", "arm64", true},
		{"arm64,x86_64", "", false},
		{"i386", "", false},
		{"riscv64", "", false},
	}
	for _, tt := range tests {
		got, ok := awsArch(tt.in)
		if got != tt.want || ok != tt.wantOK {
			t.Errorf("awsArch(%q) = %q, %v; want %q, %v", tt.in, got, ok, tt.want, tt.wantOK)
		}
	}
}

func TestMiBFloorToMB(t *testing.T) {
	tests := []struct {
		in   int64
		want string
	}{
		{0, "0"},
		{45, "47"},     // 45 × 1,048,576 = 47,185,920 B/s
		{91, "95"},     // 95,420,416 B/s
		{1144, "1199"}, // 1,199,570,944 B/s
	}
	for _, tt := range tests {
		if got := mibFloorToMB(tt.in); got != tt.want {
			t.Errorf("mibFloorToMB(%d) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

func TestReadTableErrors(t *testing.T) {
	dir := t.TempDir()
	in := &inputs{sources: dir}
	tests := []struct {
		body, wantErr string
	}{
		{"a\tb\n1\n", "t.tsv:2: 1 cells, want 2"},
		{"a\tb\n1\t2", "t.tsv: does not end in a newline"},
		{"a\ta\n1\t2\n", `t.tsv: duplicate column "a"`},
		{"a\tb\n1\t 2\n", `t.tsv:2: cell " 2" has surrounding white space`},
		{"a\n", "t.tsv: no data rows"},
		{"x\n1\n", `t.tsv: missing column "a"`},
	}
	for _, tt := range tests {
		if err := os.WriteFile(filepath.Join(dir, "t.tsv"), []byte(tt.body), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := in.readTable("t.tsv", "a")
		if err == nil || err.Error() != tt.wantErr {
			t.Errorf("readTable(%q) error = %v, want %s", tt.body, err, tt.wantErr)
		}
	}
}
