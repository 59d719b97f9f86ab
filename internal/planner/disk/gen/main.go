// Command gen turns the disk tables of internal/sources/data/disks into the disk package's compiled tables:
//
//   - tiers_generated.go, from azure-disk-tiers.tsv: the Azure fixed tiers (Premium SSD, Standard SSD,
//     Standard HDD), and from azure-vm-disk-limits.tsv: the Azure VM-level uncached disk limits with
//     VM-level burst, the cached (host cache) limits where the size publishes them, the series and the
//     Premium SSD v2 / Ultra figures (disks.md §5.4);
//   - tiers_samples_generated_test.go: the Premium SSD v2 and Ultra provisionable maxima at sample sizes,
//     which disks.md §4.5–§4.6 keep for tests only (the planner computes those limits from formulas);
//   - gcp_machines_generated.go, from gcp-machine-disk-types.tsv: the disk types each GCP machine series
//     attaches, with size rules, from Google's machine-family pages (disks.md §6.1).
//
// Usage (from internal/planner/disk, see the go:generate line in doc.go):
//
//	go run ./gen -src ../../sources/data/disks -out tiers_generated.go -test-out tiers_samples_generated_test.go -gcp-out gcp_machines_generated.go
//
// The output depends only on the input files: rows keep their order, sources are numbered in order of
// first appearance, and the file is gofmt-formatted.
package main

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"go/format"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

const (
	tiersFile = "azure-disk-tiers.tsv"
	vmFile    = "azure-vm-disk-limits.tsv"
)

var header = []string{
	"sku", "tier", "size_gib", "iops", "mbps", "burst_iops", "burst_mbps", "burst_minutes", "burst_model",
	"perfplus_iops", "perfplus_mbps", "kind", "source",
}

// row is one parsed line of azure-disk-tiers.tsv.
type row struct {
	name, sku                string
	sizeGiB, iops, mbps      int64
	burstIOPS, burstMBps     int64
	burstMinutes             int64
	burstModel               string
	perfPlusIOPS, perfPlusMB int64
	kind, source             string
}

func main() {
	src := flag.String("src", "../../sources/data/disks", "directory holding "+tiersFile)
	out := flag.String("out", "tiers_generated.go", "output file for the fixed tiers")
	testOut := flag.String("test-out", "tiers_samples_generated_test.go", "output file for the PV2/Ultra samples")
	gcpOut := flag.String("gcp-out", "gcp_machines_generated.go", "output file for the GCP machine-series disk types")
	flag.Parse()
	if err := run(*src, *out, *testOut, *gcpOut); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(src, out, testOut, gcpOut string) error {
	in, vmIn, gcpIn := filepath.Join(src, tiersFile), filepath.Join(src, vmFile), filepath.Join(src, gcpFile)
	f, err := os.Open(in)
	if err != nil {
		return err
	}
	defer f.Close()
	rows, err := parse(f)
	if err != nil {
		return fmt.Errorf("%s: %w", in, err)
	}
	fixed, samples, err := split(rows)
	if err != nil {
		return fmt.Errorf("%s: %w", in, err)
	}
	vf, err := os.Open(vmIn)
	if err != nil {
		return err
	}
	defer vf.Close()
	vms, err := parseVMs(vf)
	if err != nil {
		return fmt.Errorf("%s: %w", vmIn, err)
	}
	if err := write(out, append(renderFixed(fixed), renderVMs(vms)...)); err != nil {
		return err
	}
	if err := write(testOut, renderSamples(samples)); err != nil {
		return err
	}
	gf, err := os.Open(gcpIn)
	if err != nil {
		return err
	}
	defer gf.Close()
	series, err := parseGCP(gf)
	if err != nil {
		return fmt.Errorf("%s: %w", gcpIn, err)
	}
	return write(gcpOut, renderGCP(series))
}

func write(path string, src []byte) error {
	formatted, err := format.Source(src)
	if err != nil {
		return fmt.Errorf("formatting %s: %w", path, err)
	}
	return os.WriteFile(path, formatted, 0o644)
}

func parse(r io.Reader) ([]row, error) {
	var rows []row
	err := eachTSVRow(r, header, func(fields []string) error {
		rw, err := parseRow(fields)
		rows = append(rows, rw)
		return err
	})
	if err != nil {
		return nil, err
	}
	return rows, nil
}

// eachTSVRow reads a tab-separated table whose first line is want, handing each further line's fields to row; an
// error names the line. A table without rows is an error.
func eachTSVRow(r io.Reader, want []string, row func(fields []string) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	line := 0
	for sc.Scan() {
		line++
		fields := strings.Split(sc.Text(), "\t")
		if line == 1 {
			if strings.Join(fields, ",") != strings.Join(want, ",") {
				return fmt.Errorf("unexpected header %q", sc.Text())
			}
			continue
		}
		if len(fields) != len(want) {
			return fmt.Errorf("line %d: %d fields, want %d", line, len(fields), len(want))
		}
		if err := row(fields); err != nil {
			return fmt.Errorf("line %d: %w", line, err)
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	if line < 2 {
		return errors.New("no rows")
	}
	return nil
}

func parseRow(f []string) (row, error) {
	var err error
	num := func(col int, optional bool) int64 {
		if err != nil {
			return 0
		}
		s := f[col]
		if s == "" && optional {
			return 0
		}
		v, perr := strconv.ParseInt(s, 10, 64)
		if perr != nil {
			err = fmt.Errorf("column %s: %q is not an integer", header[col], s)
		}
		return v
	}
	rw := row{
		name: f[0], sku: f[1],
		sizeGiB: num(2, false), iops: num(3, false), mbps: num(4, false),
		burstIOPS: num(5, true), burstMBps: num(6, true), burstMinutes: num(7, true),
		burstModel:   f[8],
		perfPlusIOPS: num(9, true), perfPlusMB: num(10, true),
		kind: f[11], source: f[12],
	}
	if err != nil {
		return row{}, err
	}
	switch rw.burstModel {
	case "credit", "on-demand(opt-in,billed)", "none":
	default:
		return row{}, fmt.Errorf("unknown burst_model %q", rw.burstModel)
	}
	if rw.name == "" || rw.sku == "" || rw.source == "" {
		return row{}, errors.New("empty sku, tier or source")
	}
	return rw, nil
}

func split(rows []row) (fixed, samples []row, err error) {
	lastSize := map[string]int64{}
	for _, rw := range rows {
		switch {
		case rw.kind == "fixed" || rw.kind == "fixed(up-to)":
			if rw.sizeGiB <= lastSize[rw.sku] {
				return nil, nil, fmt.Errorf("tier %s: sizes of %s must ascend", rw.name, rw.sku)
			}
			lastSize[rw.sku] = rw.sizeGiB
			fixed = append(fixed, rw)
		case strings.HasPrefix(rw.kind, "provisionable_max"):
			samples = append(samples, rw)
		default:
			return nil, nil, fmt.Errorf("tier %s: unknown kind %q", rw.name, rw.kind)
		}
	}
	return fixed, samples, nil
}

// sourceIDs numbers the distinct sources in order of first appearance.
func sourceIDs(rows []row) ([]string, map[string]int) {
	var list []string
	ids := map[string]int{}
	for _, rw := range rows {
		if _, ok := ids[rw.source]; !ok {
			ids[rw.source] = len(list)
			list = append(list, rw.source)
		}
	}
	return list, ids
}

func renderFixed(rows []row) []byte {
	var b bytes.Buffer
	list, ids := sourceIDs(rows)
	fmt.Fprintf(&b, "// Code generated by go run ./gen; DO NOT EDIT.\n\n")
	fmt.Fprintf(&b, "// Azure managed-disk fixed tiers (Premium SSD P1–P80, Standard SSD E1–E80, Standard HDD S4–S80),\n")
	fmt.Fprintf(&b, "// %d rows from internal/sources/data/disks/%s (disks.md §4.2–§4.4, §4.9). Sources, by id:\n//\n", len(rows), tiersFile)
	for i, s := range list {
		fmt.Fprintf(&b, "//	[%d] %s\n", i, s)
	}
	fmt.Fprintf(&b, "\npackage disk\n\n")
	fmt.Fprintf(&b, "// azureTierSources are the documents the rows of azureTiers come from, indexed by azureTier.source.\n")
	fmt.Fprintf(&b, "var azureTierSources = [...]string{\n")
	for _, s := range list {
		fmt.Fprintf(&b, "\t%q,\n", s)
	}
	fmt.Fprintf(&b, "}\n\n")
	fmt.Fprintf(&b, "// azureTiers lists the fixed tiers of each SKU family in ascending size.\n")
	fmt.Fprintf(&b, "var azureTiers = [...]azureTier{\n")
	for _, rw := range rows {
		fmt.Fprintf(&b, "\t{name: %q, sku: %q, sizeGiB: %d, iops: %d, mbps: %d, burstIOPS: %d, burstMBps: %d, "+
			"burstMinutes: %d, burst: %s, perfPlusIOPS: %d, perfPlusMBps: %d, guaranteed: %t, source: %d},\n",
			rw.name, rw.sku, rw.sizeGiB, rw.iops, rw.mbps, rw.burstIOPS, rw.burstMBps, rw.burstMinutes,
			burstConst(rw.burstModel), rw.perfPlusIOPS, rw.perfPlusMB, rw.kind == "fixed", ids[rw.source])
	}
	fmt.Fprintf(&b, "}\n")
	return b.Bytes()
}

func burstConst(model string) string {
	switch model {
	case "credit":
		return "burstCredit"
	case "none":
		return "burstNone"
	default:
		return "burstOnDemand"
	}
}

func renderSamples(rows []row) []byte {
	var b bytes.Buffer
	list, ids := sourceIDs(rows)
	fmt.Fprintf(&b, "// Code generated by go run ./gen; DO NOT EDIT.\n\n")
	fmt.Fprintf(&b, "// Premium SSD v2 and Ultra Disk provisionable maxima at sample sizes, %d rows from\n", len(rows))
	fmt.Fprintf(&b, "// internal/sources/data/disks/%s (disks.md §4.5–§4.6). Sources, by id:\n//\n", tiersFile)
	for i, s := range list {
		fmt.Fprintf(&b, "//	[%d] %s\n", i, s)
	}
	fmt.Fprintf(&b, "\npackage disk\n\n")
	fmt.Fprintf(&b, "// provisionableSample is one kind=provisionable_max row: the largest IOPS and MB/s Azure lets a\n")
	fmt.Fprintf(&b, "// disk of the SKU provision at SizeGiB.\n")
	fmt.Fprintf(&b, "type provisionableSample struct {\n\tlabel   string\n\tsku     Type\n\tsizeGiB int64\n\tmaxIOPS int64\n\tmaxMBps int64\n\tsource  int\n}\n\n")
	fmt.Fprintf(&b, "var provisionableSampleSources = [...]string{\n")
	for _, s := range list {
		fmt.Fprintf(&b, "\t%q,\n", s)
	}
	fmt.Fprintf(&b, "}\n\n")
	fmt.Fprintf(&b, "var provisionableSamples = [...]provisionableSample{\n")
	for _, rw := range rows {
		fmt.Fprintf(&b, "\t{label: %q, sku: %q, sizeGiB: %d, maxIOPS: %d, maxMBps: %d, source: %d},\n",
			rw.name, rw.sku, rw.sizeGiB, rw.iops, rw.mbps, ids[rw.source])
	}
	fmt.Fprintf(&b, "}\n")
	return b.Bytes()
}

// vm is one parsed row of azure-vm-disk-limits.tsv (the columns the planner uses).
type vm struct {
	name, series              string
	maxDataDisks              int64
	uncachedIOPS, uncachedBps int64 // throughput columns are MB/s in the file, bytes/s here
	burstIOPS, burstBps       int64 // 0 when the size does not burst
	cachedIOPS, cachedBps     int64 // 0 when the page publishes no cached limits
	cacheGiB                  int64 // 0 when not published
	pv2UltraIOPS, pv2UltraBps int64 // 0 when the page publishes none
	source                    string
}

var vmColumns = []string{"vm_size", "series", "max_data_disks", "uncached_iops", "uncached_mbps", "burst_uncached_iops",
	"burst_uncached_mbps", "cached_iops", "cached_mbps", "cache_gib", "pv2_ultra_uncached_iops", "pv2_ultra_uncached_mbps", "source"}

func parseVMs(r io.Reader) ([]vm, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	col := map[string]int{}
	var out []vm
	seen := map[string]bool{}
	line := 0
	for sc.Scan() {
		line++
		f := strings.Split(sc.Text(), "\t")
		if line == 1 {
			for i, h := range f {
				col[h] = i
			}
			for _, h := range vmColumns {
				if _, ok := col[h]; !ok {
					return nil, fmt.Errorf("missing column %q", h)
				}
			}
			continue
		}
		if len(f) != len(col) {
			return nil, fmt.Errorf("line %d: %d fields, want %d", line, len(f), len(col))
		}
		var err error
		num := func(name string, optional bool) int64 {
			s := f[col[name]]
			if err != nil || (s == "" && optional) {
				return 0
			}
			v, perr := strconv.ParseInt(s, 10, 64)
			if perr != nil {
				err = fmt.Errorf("line %d: column %s: %q is not an integer", line, name, s)
			}
			return v
		}
		// mb reads a MB/s figure with up to six decimals ("22.5") as bytes per second, exactly.
		mb := func(name string, optional bool) int64 {
			s := f[col[name]]
			if err != nil || (s == "" && optional) {
				return 0
			}
			whole, frac, _ := strings.Cut(s, ".")
			if len(frac) > 6 {
				err = fmt.Errorf("line %d: column %s: %q has more than six decimals", line, name, s)
				return 0
			}
			w, werr := strconv.ParseInt(whole, 10, 64)
			fr, ferr := strconv.ParseInt(frac+strings.Repeat("0", 6-len(frac)), 10, 64)
			if werr != nil || ferr != nil || w < 0 {
				err = fmt.Errorf("line %d: column %s: %q is not a decimal number", line, name, s)
			}
			return w*1_000_000 + fr
		}
		v := vm{
			name: f[col["vm_size"]], series: f[col["series"]], maxDataDisks: num("max_data_disks", false),
			uncachedIOPS: num("uncached_iops", false), uncachedBps: mb("uncached_mbps", false),
			burstIOPS: num("burst_uncached_iops", true), burstBps: mb("burst_uncached_mbps", true),
			cachedIOPS: num("cached_iops", true), cachedBps: mb("cached_mbps", true), cacheGiB: num("cache_gib", true),
			pv2UltraIOPS: num("pv2_ultra_uncached_iops", true), pv2UltraBps: mb("pv2_ultra_uncached_mbps", true),
			source: f[col["source"]],
		}
		if err != nil {
			return nil, err
		}
		key := strings.ToLower(v.name)
		if v.name == "" || v.series == "" || v.source == "" || seen[key] {
			return nil, fmt.Errorf("line %d: empty or duplicate vm_size %q, or empty series or source", line, v.name)
		}
		if (v.cachedIOPS == 0) != (v.cachedBps == 0) {
			return nil, fmt.Errorf("line %d: %s has one of cached_iops and cached_mbps without the other", line, v.name)
		}
		seen[key] = true
		out = append(out, v)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, errors.New("no rows")
	}
	return out, nil
}

func renderVMs(vms []vm) []byte {
	var b bytes.Buffer
	var list []string
	ids := map[string]int{}
	for _, v := range vms {
		if _, ok := ids[v.source]; !ok {
			ids[v.source] = len(list)
			list = append(list, v.source)
		}
	}
	fmt.Fprintf(&b, "\n// Azure VM-level disk limits, %d rows from internal/sources/data/disks/%s (disks.md §5.4). Sources, by id:\n//\n", len(vms), vmFile)
	for i, s := range list {
		fmt.Fprintf(&b, "//	[%d] %s\n", i, s)
	}
	fmt.Fprintf(&b, "var azureVMSources = [...]string{\n")
	for _, s := range list {
		fmt.Fprintf(&b, "\t%q,\n", s)
	}
	fmt.Fprintf(&b, "}\n\n")
	fmt.Fprintf(&b, "// azureVMs lists the VM sizes in the order of the source file.\n")
	fmt.Fprintf(&b, "var azureVMs = [...]azureVM{\n")
	for _, v := range vms {
		fmt.Fprintf(&b, "\t{name: %q, series: %q, maxDataDisks: %d, uncachedIOPS: %d, uncachedBps: %d, burstIOPS: %d, burstBps: %d, "+
			"cachedIOPS: %d, cachedBps: %d, cacheGiB: %d, pv2UltraIOPS: %d, pv2UltraBps: %d, source: %d},\n", v.name, v.series,
			v.maxDataDisks, v.uncachedIOPS, v.uncachedBps, v.burstIOPS, v.burstBps, v.cachedIOPS, v.cachedBps, v.cacheGiB,
			v.pv2UltraIOPS, v.pv2UltraBps, ids[v.source])
	}
	fmt.Fprintf(&b, "}\n")
	return b.Bytes()
}
