// Command gen converts kubefit's shared instance-type tables into the compact, dated files that
// package catalog embeds (data/aws.tsv, data/azure.tsv, data/gcp.tsv).
//
// Run it from the catalog package directory, normally through go generate:
//
//	cd internal/planner/catalog && go generate
//
// which runs
//
//	go run ./gen -shared ../../../../shared -out data
//
// It reads shared/data/catalog/{aws-instance-types,azure-vm-sizes,gcp-machine-types}.tsv,
// shared/data/network/aws-eni-limits.tsv (the P_ENI source of overhead.md §8.1, preferred over the
// catalog's ENI columns), shared/data/catalog/SOURCES.md (to check the source registry below) and
// shared/data/catalog/raw/aws/moto-ec2-instance-types-older-versions.json (for the commits of retired
// AWS types). The output is deterministic: the same inputs always give the same bytes.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
)

func main() {
	shared := flag.String("shared", filepath.FromSlash("../../../../shared"),
		"path to kubefit's shared/ directory (the one holding data/catalog and data/network); "+
			"the default is right when run from internal/planner/catalog with shared/ beside the repository root")
	out := flag.String("out", "data", "directory to write aws.tsv, azure.tsv and gcp.tsv into")
	flag.Parse()
	if flag.NArg() != 0 {
		fmt.Fprintf(os.Stderr, "gen: unexpected arguments %q\n", flag.Args())
		os.Exit(2)
	}
	if err := run(*shared, *out); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

// run builds the three files from the tables under shared and writes them into out.
func run(shared, out string) error {
	files, err := generate(shared)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	for _, f := range files {
		if err := os.WriteFile(filepath.Join(out, f.name), f.data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// outFile is one generated file.
type outFile struct {
	name string
	data []byte
}

// generate builds the three files in memory. The catalog date written into every file is the
// newest source snapshot date over all three tables, so all three tables must be built first.
func generate(shared string) ([]outFile, error) {
	in := &inputs{shared: shared}
	sourcesMD, err := in.read("data/catalog/SOURCES.md")
	if err != nil {
		return nil, err
	}
	if err := checkRegistry(string(sourcesMD)); err != nil {
		return nil, err
	}
	builders := []func(*inputs) (*outTable, error){buildAWS, buildAzure, buildGCP}
	tables := make([]*outTable, 0, len(builders))
	catalogDate := ""
	for _, build := range builders {
		t, err := build(in)
		if err != nil {
			return nil, err
		}
		catalogDate = max(catalogDate, t.dataDate)
		tables = append(tables, t)
	}
	files := make([]outFile, 0, len(tables))
	for _, t := range tables {
		data, err := t.render(catalogDate, in.digest("data/catalog/SOURCES.md"))
		if err != nil {
			return nil, err
		}
		files = append(files, outFile{name: t.cloud + ".tsv", data: data})
	}
	return files, nil
}
