// Command gen converts kubefit's shared instance-type tables into the compact, dated files that
// package catalog embeds (data/aws.tsv, data/azure.tsv, data/gcp.tsv).
//
// Run it from the catalog package directory, normally through go generate:
//
//	cd internal/planner/catalog && go generate
//
// which runs
//
//	go run ./gen -sources ../../sources -out data
//
// It reads internal/sources/data/catalog/{aws-instance-types,azure-vm-sizes,gcp-machine-types}.tsv,
// internal/sources/data/network/aws-eni-limits.tsv (the P_ENI source of overhead.md §8.1, preferred over the
// catalog's ENI columns), internal/sources/data/catalog/SOURCES.md (to check the source registry below) and
// internal/sources/data/catalog/raw/aws/moto-ec2-instance-types-older-versions.json (for the commits of retired
// AWS types). The output is deterministic: the same inputs always give the same bytes.
//
// # Refreshing from the live APIs
//
// -live cloud=path (aws or azure, once per cloud) merges a dump that internal/livecatalog/cmd/livedump
// wrote from the cloud's own API, with the clients the provider uses for catalog_source = "live". From
// internal/planner/catalog:
//
//	mkdir -p live
//	go run ../../livecatalog/cmd/livedump -cloud aws -region us-east-1 -out live/aws.tsv
//	go run ../../livecatalog/cmd/livedump -cloud azure -location eastus -subscription SUB -out live/azure.tsv
//	go run ./gen -sources ../../sources -out data -live aws=live/aws.tsv -live azure=live/azure.tsv
//
// The merge:
//
//   - A type the shared table lacks is added with the dump's cells (columns the dump lacks, and the
//     price, stay empty); its sources cell is the live source (live-ec2, live-arm-skus), which the header
//     names with the API, region or location and dump time, beside an input line with the dump's path
//     and SHA-256. When rows are added, the table's data-date (and so the catalog-date) becomes the
//     dump's date.
//   - For a type both list (Azure names in any letter case), the shared, sourced row stays as it is.
//     Every field where both have a value and they differ is printed on standard error ("m5.large vcpu:
//     shared 2, live 4"), with counts of the cells only the dump knows (left empty) and of the shared
//     types the dump lacks (not offered in that region, or retired). -fail-on-drift makes any such
//     difference an error (exit status 1) and writes nothing: a check that the shared tables still
//     agree with the cloud. For the report alone, pass -out a scratch directory.
//   - A malformed dump (wrong cloud, missing header line, unknown column, bad cell, duplicate name,
//     foreign source id, fewer rows than its "# types:" line) is rejected with its line number.
//
// The headers' Regenerate line then names the dumps (paths as given, relative to
// internal/planner/catalog; a dump elsewhere is named only by its file name). To commit a merged
// catalog, commit the dumps with it (live/ above): the up-to-date test reads the Regenerate line and
// merges the same dumps again. A plain go generate drops the live rows.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

func main() {
	var o options
	flag.StringVar(&o.sources, "sources", filepath.FromSlash("../../sources"),
		"path to the project's internal/sources directory (the one holding data/catalog and data/network); "+
			"the default is right when run from internal/planner/catalog")
	flag.StringVar(&o.out, "out", "data", "directory to write aws.tsv, azure.tsv and gcp.tsv into")
	flag.Var((*liveFlag)(&o.live), "live", "`cloud=path` of a live dump written by internal/livecatalog/cmd/livedump (cloud aws or azure; "+
		"repeat for the other cloud): its types the shared tables lack are added, and every field of a type both list that "+
		"differs is reported on standard error (the shared row is kept)")
	flag.BoolVar(&o.failOnDrift, "fail-on-drift", false, "with -live: exit with status 1, writing nothing, when a field of a "+
		"type both the shared tables and a live dump list differs")
	flag.Parse()
	if flag.NArg() != 0 {
		fmt.Fprintf(os.Stderr, "gen: unexpected arguments %q\n", flag.Args())
		os.Exit(2)
	}
	o.report = os.Stderr
	if err := run(o); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

// options are the generator's flags.
type options struct {
	sources, out string
	live         []liveArg
	failOnDrift  bool
	report       io.Writer // where the live merge report goes; nil discards it
}

// run builds the three files from the tables under sources (and the live dumps) and writes them into out.
func run(o options) error {
	files, conflicts, err := generate(o.sources, o.live, o.report)
	if err != nil {
		return err
	}
	if o.failOnDrift && conflicts > 0 {
		return fmt.Errorf("%d fields differ between the shared tables and the live dumps (-fail-on-drift); nothing written", conflicts)
	}
	if err := os.MkdirAll(o.out, 0o755); err != nil {
		return err
	}
	for _, f := range files {
		if err := os.WriteFile(filepath.Join(o.out, f.name), f.data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// regenerateCommand is the command written into every header: go generate, or, when live dumps were
// merged, the generator run that names them (paths as given, relative to internal/planner/catalog).
func regenerateCommand(live []liveArg) string {
	if len(live) == 0 {
		return "cd internal/planner/catalog && go generate"
	}
	cmd := "cd internal/planner/catalog && go run ./gen -sources ../../sources -out data"
	for _, a := range live {
		cmd += " -live " + a.recorded()
	}
	return cmd
}

// liveArgsOf reads the -live arguments back from a header's Regenerate line.
func liveArgsOf(regenerate string) ([]liveArg, error) {
	var out []liveArg
	fields := strings.Fields(regenerate)
	for i, f := range fields {
		if f != "-live" {
			continue
		}
		if i+1 == len(fields) {
			return nil, fmt.Errorf("-live without a value in %q", regenerate)
		}
		if err := (*liveFlag)(&out).Set(fields[i+1]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// outFile is one generated file.
type outFile struct {
	name string
	data []byte
}

// generate builds the three files in memory, merging the live dumps (reported to report) and returning
// how many fields of types both a shared table and a dump list differ. The catalog date written into
// every file is the newest source snapshot date over all three tables, so all three tables must be built
// (and merged) first.
func generate(sources string, live []liveArg, report io.Writer) ([]outFile, int, error) {
	if report == nil {
		report = io.Discard
	}
	live = slices.SortedFunc(slices.Values(live), func(a, b liveArg) int { return strings.Compare(a.cloud, b.cloud) })
	dumps := make(map[string]*liveTable, len(live))
	for _, a := range live {
		lt, err := readLive(a)
		if err != nil {
			return nil, 0, err
		}
		dumps[a.cloud] = lt
	}
	in := &inputs{sources: sources}
	sourcesMD, err := in.read("data/catalog/SOURCES.md")
	if err != nil {
		return nil, 0, err
	}
	if err := checkRegistry(string(sourcesMD)); err != nil {
		return nil, 0, err
	}
	builders := []func(*inputs) (*outTable, error){buildAWS, buildAzure, buildGCP}
	tables := make([]*outTable, 0, len(builders))
	catalogDate, conflicts := "", 0
	for _, build := range builders {
		t, err := build(in)
		if err != nil {
			return nil, 0, err
		}
		if lt := dumps[t.cloud]; lt != nil {
			rep := t.mergeLive(lt)
			rep.write(report)
			conflicts += len(rep.conflicts)
		}
		catalogDate = max(catalogDate, t.dataDate)
		tables = append(tables, t)
	}
	files := make([]outFile, 0, len(tables))
	for _, t := range tables {
		data, err := t.render(catalogDate, in.digest("data/catalog/SOURCES.md"), regenerateCommand(live))
		if err != nil {
			return nil, 0, err
		}
		files = append(files, outFile{name: t.cloud + ".tsv", data: data})
	}
	return files, conflicts, nil
}
