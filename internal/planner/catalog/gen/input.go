package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// inputs reads files below internal/sources and remembers a digest of each, so the generated
// headers can name exactly which input bytes they were built from.
type inputs struct {
	sources string
	digests map[string]string // sources-relative slash path → first 16 hex digits of its SHA-256
}

// read returns the contents of rel (a slash path relative to internal/sources).
func (in *inputs) read(rel string) ([]byte, error) {
	data, err := os.ReadFile(filepath.Join(in.sources, filepath.FromSlash(rel)))
	if err != nil {
		return nil, fmt.Errorf("reading input (is -sources=%q the project's internal/sources directory?): %w", in.sources, err)
	}
	sum := sha256.Sum256(data)
	if in.digests == nil {
		in.digests = make(map[string]string)
	}
	in.digests[rel] = hex.EncodeToString(sum[:8])
	return data, nil
}

// digest returns the digest of a file read earlier.
func (in *inputs) digest(rel string) string { return in.digests[rel] }

// table is a parsed TSV file: a header row, then rows of exactly as many tab-separated cells.
type table struct {
	rel  string         // sources-relative path, for messages and headers
	cols map[string]int // column name → index
	rows []record
}

// record is one data row of a table.
type record struct {
	t     *table
	line  int // 1-based line number in the file
	cells []string
}

// get returns the cell of column col ("" when empty). Columns are checked by readTable's required
// list, so a missing column cannot reach here unnoticed.
func (r record) get(col string) string {
	i, ok := r.t.cols[col]
	if !ok {
		return ""
	}
	return r.cells[i]
}

// where names the row in messages.
func (r record) where() string { return fmt.Sprintf("%s:%d", r.t.rel, r.line) }

// readTable reads a TSV table and checks that it has every required column.
func (in *inputs) readTable(rel string, required ...string) (*table, error) {
	data, err := in.read(rel)
	if err != nil {
		return nil, err
	}
	if !bytes.HasSuffix(data, []byte("\n")) {
		return nil, fmt.Errorf("%s: does not end in a newline", rel)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if len(lines) < 2 {
		return nil, fmt.Errorf("%s: no data rows", rel)
	}
	t := &table{rel: rel, cols: make(map[string]int)}
	header := strings.Split(lines[0], "\t")
	for i, name := range header {
		if _, dup := t.cols[name]; dup {
			return nil, fmt.Errorf("%s: duplicate column %q", rel, name)
		}
		t.cols[name] = i
	}
	for _, name := range required {
		if _, ok := t.cols[name]; !ok {
			return nil, fmt.Errorf("%s: missing column %q", rel, name)
		}
	}
	for n, line := range lines[1:] {
		cells := strings.Split(line, "\t")
		if len(cells) != len(header) {
			return nil, fmt.Errorf("%s:%d: %d cells, want %d", rel, n+2, len(cells), len(header))
		}
		for _, c := range cells {
			if strings.ContainsAny(c, "\r") || strings.TrimSpace(c) != c {
				return nil, fmt.Errorf("%s:%d: cell %q has surrounding white space", rel, n+2, c)
			}
		}
		t.rows = append(t.rows, record{t: t, line: n + 2, cells: cells})
	}
	return t, nil
}
