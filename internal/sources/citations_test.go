// Package sources holds the data and the formula notes kubefit's figures come from (see README.md). Its test
// checks that the code cites only what the project holds.
package sources

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// citation matches "overhead.md §8.1" and the like: any Markdown file's name and, optionally, a section. A name
// with a section must be a note of domain/ (README.md and SOURCES.md aside: they are no notes, and SOURCES.md's
// sections are the catalog's); a name without one is checked only when it is a note's.
var citation = regexp.MustCompile(`\b([\w-]+)\.md(?: §(\d+(?:\.\d+)*))?`)

// notNotes are Markdown files cited by section that are not notes of domain/.
var notNotes = map[string]bool{"README": true, "SOURCES": true}

// outside matches citations of documents the project does not hold: the design repository's guide and its
// shared/ folder (whose contents now live here).
var outside = regexp.MustCompile(`\bDESIGN\.md\b|(^|[^/\w])shared/(data|domain)/|\.\./shared\b`)

// heading matches a note's numbered headings: "## 8. Max pods", "### 8.1 EKS: the ENI formula".
var heading = regexp.MustCompile(`(?m)^#{2,4} (\d+(?:\.\d+)*)\.? `)

// TestCitationsResolve walks every Go file, template, example and README of the repository and checks that each
// cited note exists under domain/ with the cited section, and that nothing cites a document outside the project.
func TestCitationsResolve(t *testing.T) {
	sections := map[string]map[string]bool{}
	entries, err := os.ReadDir("domain")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() || filepath.Ext(e.Name()) != ".md" || notNotes[strings.TrimSuffix(e.Name(), ".md")] {
			continue
		}
		data, err := os.ReadFile(filepath.Join("domain", e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		s := map[string]bool{}
		for _, m := range heading.FindAllStringSubmatch(string(data), -1) {
			s[m[1]] = true
		}
		sections[strings.TrimSuffix(e.Name(), ".md")] = s
	}
	root := filepath.Join("..", "..")
	checked := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if strings.HasPrefix(name, ".") && path != root || name == "node_modules" {
				return filepath.SkipDir
			}
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		if strings.HasPrefix(rel, filepath.Join("internal", "sources", "domain")) || strings.HasPrefix(rel, filepath.Join("internal", "sources", "data")) {
			return nil // the notes and tables themselves (they cite each other by section and name upstream files)
		}
		switch filepath.Ext(name) {
		case ".go", ".tmpl", ".tf", ".md":
		default:
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(data), "\n") {
			if outside.MatchString(line) && !strings.Contains(line, "outside = regexp") {
				t.Errorf("%s:%d cites a document outside the repository: %s", rel, i+1, strings.TrimSpace(line))
			}
			for _, m := range citation.FindAllStringSubmatch(line, -1) {
				s, ok := sections[m[1]]
				switch {
				case ok:
					checked++
				case m[2] == "" || notNotes[m[1]]:
					continue // another document named without a section, or a README's or SOURCES.md's section
				default:
					t.Errorf("%s:%d cites %s.md §%s, but internal/sources/domain holds no note %s.md", rel, i+1, m[1], m[2], m[1])
					continue
				}
				if m[2] != "" && !s[m[2]] {
					t.Errorf("%s:%d cites %s.md §%s, which has no such section", rel, i+1, m[1], m[2])
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 50 {
		t.Errorf("found only %d citations; the walk is broken", checked)
	}
}
