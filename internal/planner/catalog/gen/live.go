package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Live dumps: TSVs written by internal/livecatalog/cmd/livedump from the clouds' own APIs, merged into the
// generated tables with -live cloud=path. A type the shared tables lack is added from the dump (no price,
// its sources cell naming the live source); for a type both have, the shared row is kept and every field
// that differs is reported.

// liveIDs are the source ids of live rows per cloud, as internal/livecatalog writes them. GCP has no live
// source.
var liveIDs = map[string]string{"aws": "live-ec2", "azure": "live-arm-skus"}

// liveArg is one -live cloud=path argument.
type liveArg struct{ cloud, path string }

func (a liveArg) String() string { return a.cloud + "=" + filepath.ToSlash(a.path) }

// recorded is the argument as the generated headers name it: the path as given when it lies below the
// directory the generator runs in (internal/planner/catalog, where the Regenerate line runs), else
// "…/<file name>", so a maintainer's own directories never reach the committed files.
func (a liveArg) recorded() string {
	if a.outside() {
		return a.cloud + "=…/" + filepath.Base(a.path)
	}
	return a.String()
}

func (a liveArg) outside() bool {
	p := filepath.ToSlash(filepath.Clean(a.path))
	return filepath.IsAbs(a.path) || p == ".." || strings.HasPrefix(p, "../")
}

// liveFlag collects the repeatable -live flag.
type liveFlag []liveArg

func (f *liveFlag) String() string {
	s := make([]string, len(*f))
	for i, a := range *f {
		s[i] = a.String()
	}
	return strings.Join(s, " ")
}

func (f *liveFlag) Set(v string) error {
	cloud, path, ok := strings.Cut(v, "=")
	if _, known := liveIDs[cloud]; !ok || !known || path == "" {
		return fmt.Errorf("want cloud=path with cloud aws or azure, got %q", v)
	}
	for _, a := range *f {
		if a.cloud == cloud {
			return fmt.Errorf("two live dumps for %s", cloud)
		}
	}
	*f = append(*f, liveArg{cloud, path})
	return nil
}

// cellKind is how a column's cells are checked and normalised.
type cellKind int

const (
	textCell cellKind = iota
	intKind
	floatKind
	boolKind
	archKind
	hypervisorKind
)

// columnKinds are the kinds of the generated files' columns that a live dump can carry.
var columnKinds = map[string]cellKind{
	"name": textCell, "family": textCell, "sources": textCell,
	"vcpu": intKind, "vcpu_quota": intKind, "memory_mib": intKind, "gpus": intKind,
	"arch": archKind, "hypervisor": hypervisorKind, "burstable": boolKind, "bare_metal": boolKind,
	"max_enis": intKind, "ipv4_per_eni": intKind, "eni_max_pods": intKind, "max_enis_all_cards": intKind, "network_cards": intKind,
	"ebs_baseline_mbps": floatKind, "ebs_max_mbps": floatKind, "ebs_baseline_mbytes_per_s": floatKind, "ebs_max_mbytes_per_s": floatKind,
	"ebs_baseline_iops": intKind, "ebs_max_iops": intKind, "ebs_max_attachments": intKind,
	"instance_storage_gb": intKind, "instance_storage_disks": intKind,
	"max_data_disks": intKind, "uncached_iops": intKind, "uncached_mbytes_per_s": intKind,
	"uncached_burst_iops": intKind, "uncached_burst_mbytes_per_s": intKind,
}

// outColumns are the generated files' columns per cloud.
var outColumns = map[string][]column{"aws": awsColumns, "azure": azureColumns, "gcp": gcpColumns}

// normalise checks a cell of kind k and returns it in the generated files' form ("" stays "").
func normalise(k cellKind, s string) (string, error) {
	if s == "" {
		return "", nil
	}
	switch k {
	case intKind:
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil || v < 0 {
			return "", fmt.Errorf("%q is not a non-negative integer", s)
		}
		return strconv.FormatInt(v, 10), nil
	case floatKind:
		v, err := strconv.ParseFloat(s, 64)
		if err != nil || v < 0 || v > 1e15 {
			return "", fmt.Errorf("%q is not a non-negative number", s)
		}
		return strconv.FormatFloat(v, 'f', -1, 64), nil
	case boolKind:
		if s != "true" && s != "false" {
			return "", fmt.Errorf("%q is not true or false", s)
		}
	case archKind:
		if s != "x86_64" && s != "arm64" {
			return "", fmt.Errorf("%q is not x86_64 or arm64", s)
		}
	case hypervisorKind:
		if s != "nitro" && s != "xen" {
			return "", fmt.Errorf("%q is not nitro or xen", s)
		}
	}
	return s, nil
}

// liveTable is a parsed live dump.
type liveTable struct {
	arg         liveArg
	digest      string // first 16 hex digits of the file's SHA-256
	api         string // "ec2:DescribeInstanceTypes in us-east-1"
	dumped      string // RFC 3339 time of the dump
	unavailable int    // "# unavailable:" lines
	cols        []string
	rows        []liveRow
}

// liveRow is one row of a dump, its cells normalised.
type liveRow struct {
	line  int
	cells map[string]string
}

// readLive reads and checks the dump of arg.
func readLive(arg liveArg) (*liveTable, error) {
	data, err := os.ReadFile(arg.path)
	if err != nil {
		return nil, fmt.Errorf("live dump: %w", err)
	}
	return parseLive(arg, data)
}

// parseLive checks a dump: the header lines Dump writes (cloud, api, dumped, types), a column row of the
// generated file's columns (a subset, without price_usd_hour, with name and sources), then rows of
// well-formed cells naming the cloud's live source, without duplicate names. Every error names the line.
func parseLive(arg liveArg, data []byte) (*liveTable, error) {
	name := filepath.ToSlash(arg.path)
	sum := sha256.Sum256(data)
	lt := &liveTable{arg: arg, digest: hex.EncodeToString(sum[:8])}
	if !bytes.HasSuffix(data, []byte("\n")) {
		return nil, fmt.Errorf("%s: does not end in a newline", name)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	fail := func(i int, format string, args ...any) error {
		return fmt.Errorf("%s:%d: %s", name, i+1, fmt.Sprintf(format, args...))
	}
	i, types, cloud := 0, -1, ""
	for ; i < len(lines) && strings.HasPrefix(lines[i], "#"); i++ {
		key, value, _ := strings.Cut(strings.TrimPrefix(lines[i], "# "), ": ")
		switch key {
		case "cloud":
			if value != arg.cloud {
				return nil, fail(i, "a dump of %q, given as -live %s", value, arg)
			}
			cloud = value
		case "api":
			lt.api = value
		case "dumped":
			if _, err := time.Parse(time.RFC3339, value); err != nil {
				return nil, fail(i, "dumped %q is not an RFC 3339 time", value)
			}
			lt.dumped = value
		case "types":
			n, err := strconv.Atoi(value)
			if err != nil || n < 0 {
				return nil, fail(i, "types %q is not a count", value)
			}
			types = n
		case "unavailable":
			lt.unavailable++
		}
	}
	for _, h := range []struct {
		key     string
		missing bool
	}{{"cloud", cloud == ""}, {"api", lt.api == ""}, {"dumped", lt.dumped == ""}, {"types", types < 0}} {
		if h.missing {
			return nil, fmt.Errorf("%s: no %q header line; write the dump with internal/livecatalog/cmd/livedump", name, "# "+h.key+": ")
		}
	}
	if i == len(lines) {
		return nil, fmt.Errorf("%s: no column row", name)
	}
	allowed := map[string]bool{}
	for _, c := range outColumns[arg.cloud] {
		if _, ok := columnKinds[c.name]; ok {
			allowed[c.name] = true
		}
	}
	header := i
	for _, c := range strings.Split(lines[header], "\t") {
		switch {
		case !allowed[c]:
			return nil, fail(header, "column %q is not a column of the generated %s table that a live dump can hold", c, arg.cloud)
		case slices.Contains(lt.cols, c):
			return nil, fail(header, "duplicate column %q", c)
		}
		lt.cols = append(lt.cols, c)
	}
	for _, c := range []string{"name", "sources"} {
		if !slices.Contains(lt.cols, c) {
			return nil, fail(header, "no %s column", c)
		}
	}
	seen := map[string]int{} // key → line
	for i = header + 1; i < len(lines); i++ {
		cells := strings.Split(lines[i], "\t")
		if len(cells) != len(lt.cols) {
			return nil, fail(i, "%d cells, want %d", len(cells), len(lt.cols))
		}
		r := liveRow{line: i + 1, cells: make(map[string]string, len(cells))}
		for j, c := range cells {
			if strings.ContainsAny(c, "\r") || strings.TrimSpace(c) != c {
				return nil, fail(i, "cell %q has surrounding white space", c)
			}
			v, err := normalise(columnKinds[lt.cols[j]], c)
			if err != nil {
				return nil, fail(i, "column %s: %v", lt.cols[j], err)
			}
			r.cells[lt.cols[j]] = v
		}
		n := r.cells["name"]
		if n == "" {
			return nil, fail(i, "empty name")
		}
		key := keyOf(arg.cloud, n)
		if prev, dup := seen[key]; dup {
			return nil, fail(i, "%q repeats the name of line %d", n, prev)
		}
		seen[key] = i + 1
		if s := r.cells["sources"]; s != liveIDs[arg.cloud] {
			return nil, fail(i, "sources %q: live %s rows name %q", s, arg.cloud, liveIDs[arg.cloud])
		}
		if e, ip, p := r.cells["max_enis"], r.cells["ipv4_per_eni"], r.cells["eni_max_pods"]; p != "" && p != "0" {
			ev, _ := strconv.ParseInt(e, 10, 64)
			iv, _ := strconv.ParseInt(ip, 10, 64)
			if pv, _ := strconv.ParseInt(p, 10, 64); iv < 1 || pv != ev*(iv-1)+2 {
				return nil, fail(i, "eni_max_pods %s is not max_enis × (ipv4_per_eni − 1) + 2 = %d × (%d − 1) + 2", p, ev, iv)
			}
		}
		lt.rows = append(lt.rows, r)
	}
	if len(lt.rows) == 0 {
		return nil, fmt.Errorf("%s: no data rows", name)
	}
	if len(lt.rows) != types {
		return nil, fmt.Errorf("%s: %d rows, but the header says %d types (a truncated dump?)", name, len(lt.rows), types)
	}
	return lt, nil
}

// keyOf is the name by which rows of cloud match: Azure names in any letter case.
func keyOf(cloud, name string) string {
	if cloud == "azure" {
		return strings.ToLower(name)
	}
	return name
}

// fieldDiff is one field on which a shared row and the live dump disagree.
type fieldDiff struct{ name, column, shared, live string }

// liveReport is what merging one dump found.
type liveReport struct {
	lt         *liveTable
	added      []string       // names added from the dump, sorted
	both       int            // types in the shared table and the dump
	conflicts  []fieldDiff    // both known and different, by name then column order
	gaps       map[string]int // column → types whose shared cell is empty and live cell is not
	sharedOnly int            // shared types the dump lacks
}

// mergeLive adds the dump's types the table lacks and compares the others, field by field; the shared
// rows are kept as they are. Added rows take the dump's cells (columns it lacks, and the price, stay
// empty), and the live source and input are named in the table's header.
func (t *outTable) mergeLive(lt *liveTable) *liveReport {
	rep := &liveReport{lt: lt, gaps: map[string]int{}}
	colIndex := make(map[string]int, len(t.columns))
	for i, c := range t.columns {
		colIndex[c.name] = i
	}
	shared := make(map[string]int, len(t.rows))
	for i, row := range t.rows {
		shared[keyOf(t.cloud, row[0])] = i
	}
	for _, r := range lt.rows {
		name := r.cells["name"]
		si, ok := shared[keyOf(t.cloud, name)]
		if !ok {
			row := make([]string, len(t.columns))
			for c, v := range r.cells {
				row[colIndex[c]] = v
			}
			t.rows = append(t.rows, row)
			rep.added = append(rep.added, name)
			continue
		}
		rep.both++
		row := t.rows[si]
		for _, c := range lt.cols {
			if c == "sources" {
				continue
			}
			sv, lv := row[colIndex[c]], r.cells[c]
			switch {
			case sv == lv || lv == "":
			case sv == "":
				rep.gaps[c]++
			default:
				rep.conflicts = append(rep.conflicts, fieldDiff{name: row[0], column: c, shared: sv, live: lv})
			}
		}
	}
	rep.sharedOnly = len(shared) - rep.both
	slices.Sort(rep.added)
	slices.SortStableFunc(t.rows, func(a, b []string) int { return strings.Compare(a[0], b[0]) })
	slices.SortStableFunc(rep.conflicts, func(a, b fieldDiff) int { return strings.Compare(a.name, b.name) })

	dumpDate := lt.dumped[:len("2006-01-02")]
	t.liveInputs = append(t.liveInputs, fmt.Sprintf("live %s sha256:%s (livedump of %s at %s)", lt.arg.recorded(), lt.digest, lt.api, lt.dumped))
	if len(rep.added) > 0 {
		t.sources = append(t.sources, source{id: liveIDs[t.cloud], api: lt.api, dumped: lt.dumped, headDate: dumpDate,
			what: "rows of types the shared tables lack (no price); the shared rows stay authoritative"})
		t.dataDate = max(t.dataDate, dumpDate)
	}
	t.notes = append(t.notes, fmt.Sprintf("%d rows (sources %s) come from the live dump %s; of the %d types it shares with the "+
		"shared tables, %d fields differ and %d cells are known only live: the shared rows are kept (the generator reports each difference).",
		len(rep.added), liveIDs[t.cloud], lt.arg.recorded(), rep.both, len(rep.conflicts), sum(rep.gaps)))
	return rep
}

func sum(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

// write prints the report for a maintainer: a summary, the added names, every conflicting field, and
// the count per column of cells only the dump knows.
func (rep *liveReport) write(w io.Writer) {
	lt := rep.lt
	fmt.Fprintf(w, "live %s: %s, dumped %s: %d types (%d more listed as unavailable)\n", lt.arg, lt.api, lt.dumped, len(lt.rows), lt.unavailable)
	fmt.Fprintf(w, "  added %d types the shared tables lack", len(rep.added))
	if len(rep.added) > 0 {
		fmt.Fprintf(w, ": %s", strings.Join(rep.added, ", "))
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "  %d types in both (shared rows kept): %d fields differ\n", rep.both, len(rep.conflicts))
	for _, d := range rep.conflicts {
		fmt.Fprintf(w, "    %s %s: shared %s, live %s\n", d.name, d.column, d.shared, d.live)
	}
	if len(rep.gaps) > 0 {
		cols := make([]string, 0, len(rep.gaps))
		for c := range rep.gaps {
			cols = append(cols, c)
		}
		slices.Sort(cols)
		parts := make([]string, len(cols))
		for i, c := range cols {
			parts[i] = fmt.Sprintf("%s %d", c, rep.gaps[c])
		}
		fmt.Fprintf(w, "  cells empty in the shared table but known live (kept empty): %s\n", strings.Join(parts, ", "))
	}
	fmt.Fprintf(w, "  %d shared types are not in the dump (not offered there, or retired)\n", rep.sharedOnly)
	if lt.arg.outside() {
		fmt.Fprintf(w, "  note: the dump is outside the directory the generator runs in, so the headers name it %s; to commit a "+
			"merged catalog, keep the dump under internal/planner/catalog (say live/%s.tsv), commit it, and run from there\n",
			lt.arg.recorded(), lt.arg.cloud)
	}
}
