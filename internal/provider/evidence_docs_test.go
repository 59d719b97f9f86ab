package provider

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/overhead"
)

var updateDocs = flag.Bool("update", false, "rewrite the generated parts of templates/")

const evidenceTemplate = "../../templates/data-sources/node_overhead.md.tmpl"

// evidenceTable renders every scope's evidence as the docs show it: scope, status, evidence, sources.
func evidenceTable() string {
	var b strings.Builder
	b.WriteString("| scope | status | evidence | sources |\n|---|---|---|---|\n")
	for _, ev := range overhead.Scopes() {
		src := make([]string, 0, len(ev.Sources))
		seen := map[string]bool{}
		for _, s := range ev.Sources {
			if !seen[s] {
				seen[s] = true
				src = append(src, fmt.Sprintf("[%d](%s)", len(src)+1, s))
			}
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", ev.Scope, ev.Status, ev.Summary, strings.Join(src, " "))
	}
	return b.String()
}

// TestEvidenceDocs checks that the docs' evidence table is the one the planner's measured nodes and scopes give
// (with -update, it rewrites it); make docs then carries it into docs/.
func TestEvidenceDocs(t *testing.T) {
	data, err := os.ReadFile(evidenceTemplate)
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	const end = "<!-- evidence:end -->"
	i := strings.Index(s, "<!-- evidence:begin")
	j := strings.Index(s, end)
	if i < 0 || j < i {
		t.Fatalf("%s has no evidence markers", evidenceTemplate)
	}
	i += strings.Index(s[i:], "\n") + 1
	want := s[:i] + evidenceTable() + s[j:]
	if want == s {
		return
	}
	if *updateDocs {
		if err := os.WriteFile(evidenceTemplate, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("%s's evidence table is stale: run go test ./internal/provider -run TestEvidenceDocs -update, then make docs", evidenceTemplate)
}
