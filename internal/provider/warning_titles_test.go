package provider

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/disk"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
)

// TestEveryWarningCodeHasItsOwnTitle: Terraform folds warnings with the same summary into "(and N more similar
// warnings elsewhere)", so every planner warning code (the exported Code… and Warn… constants of the overhead,
// sizing, selector and nodegroup packages) has a title of its own, and no two codes share one.
func TestEveryWarningCodeHasItsOwnTitle(t *testing.T) {
	var codes []string
	for _, pkg := range []string{"overhead", "sizing", "selector", "nodegroup"} {
		files, _ := filepath.Glob(filepath.Join("..", "planner", pkg, "*.go"))
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			file, err := parser.ParseFile(token.NewFileSet(), f, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range file.Decls {
				gd, ok := d.(*ast.GenDecl)
				if !ok || gd.Tok != token.CONST {
					continue
				}
				for _, spec := range gd.Specs {
					vs := spec.(*ast.ValueSpec)
					for i, n := range vs.Names {
						if (strings.HasPrefix(n.Name, "Code") || strings.HasPrefix(n.Name, "Warn")) && n.IsExported() && i < len(vs.Values) {
							if lit, ok := vs.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
								v, _ := strconv.Unquote(lit.Value)
								codes = append(codes, v)
							}
						}
					}
				}
			}
		}
	}
	if len(codes) < 25 {
		t.Fatalf("found %d warning codes; the walk is broken", len(codes))
	}
	seen := map[string]string{}
	for _, c := range codes {
		title, ok := warningTitles[c]
		if !ok {
			t.Errorf("warning code %s has no title of its own", c)
			continue
		}
		if other, dup := seen[title]; dup {
			t.Errorf("codes %s and %s share the title %q", c, other, title)
		}
		seen[title] = c
	}
}

// TestEveryRuleWarningHasAFindingTitle: every warning rule kubefit's planners give by ID (KSO-W…, HPA-W…,
// KCAP-W… in the keda and hpa packages; the disk rules' warnings) has a title naming its finding and a rank, and
// no two rules, nor a rule and a planner code, share a title.
func TestEveryRuleWarningHasAFindingTitle(t *testing.T) {
	ids := map[string]bool{}
	ruleID := regexp.MustCompile(`"((?:KSO|HPA|KCAP)-W\d+)"`)
	diskWarn := regexp.MustCompile(`warnf\("([A-Z0-9]+-[A-Z0-9]+)"|Rule: "([A-Z0-9]+-[A-Z0-9]+)", Severity: SeverityWarning`)
	for _, pkg := range []string{"keda", "hpa", "disk"} {
		files, _ := filepath.Glob(filepath.Join("..", "planner", pkg, "*.go"))
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range ruleID.FindAllStringSubmatch(string(src), -1) {
				ids[m[1]] = true
			}
			for _, m := range diskWarn.FindAllStringSubmatch(string(src), -1) {
				ids[m[1]+m[2]] = true
			}
		}
	}
	if len(ids) < 40 {
		t.Fatalf("found %d warning rules; the walk is broken", len(ids))
	}
	seen := map[string]string{}
	for code, title := range warningTitles {
		seen[title] = code
	}
	for id := range ids {
		ft, ok := ruleTitles[id]
		if !ok {
			t.Errorf("warning rule %s has no finding title", id)
			continue
		}
		if ft.Rank < rankShortfall || ft.Rank > rankNote {
			t.Errorf("warning rule %s has rank %d", id, ft.Rank)
		}
		if other, dup := seen[ft.Title]; dup {
			t.Errorf("%s and %s share the title %q", id, other, ft.Title)
		}
		seen[ft.Title] = id
	}
}

// TestWarningsMostConsequentialFirstAndOnce: an object's warnings are reported shortfalls first, then checks
// that could not run, then notes (each rank in the planner's order), and a warning repeated with the same code,
// attribute and message is reported once; the summaries of distinct findings differ.
func TestWarningsMostConsequentialFirstAndOnce(t *testing.T) {
	ws := []field.Warning{
		{Code: "KSO-W1", Path: field.NewPath("PollingInterval"), Message: "KSO-W1: not relevant"},
		{Code: "KSO-W7", Path: field.NewPath("Triggers").At(0), Message: "KSO-W7: unknown key"},
		{Code: "KCAP-W1", Path: field.NewPath("MaxReplicaCount"), Message: "KCAP-W1: the rollout stalls"},
		{Code: "KCAP-W1", Path: field.NewPath("MaxReplicaCount"), Message: "KCAP-W1: the rollout stalls"},
		{Code: "KCAP-W2", Path: field.NewPath("MaxReplicaCount"), Message: "KCAP-W2: connections"},
	}
	var diags diag.Diagnostics
	addRuleDiagnostics(&diags, nil, ws, kedaRenames, "Invalid ScaledObject", "ScaledObject Warning")
	var got []string
	for _, d := range diags {
		got = append(got, d.Summary())
	}
	want := []string{ruleWarningTitle("KCAP-W1", ""), ruleWarningTitle("KCAP-W2", ""), ruleWarningTitle("KSO-W7", ""), ruleWarningTitle("KSO-W1", "")}
	if !slices.Equal(got, want) {
		t.Fatalf("summaries %q, want %q", got, want)
	}
	// The disk findings of the incident: a queue-depth note given before the node's burst-only fit.
	fs := []disk.Finding{{Rule: "QD-1", Severity: disk.SeverityWarning, Message: "queue depth unknown"},
		{Rule: "FIT-N1", Severity: disk.SeverityWarning, Message: "burst-only fit on the node; choose a larger instance size"}}
	diags = nil
	for _, f := range findingsByConsequence(fs) {
		addDiskFinding(&diags, f, path.Empty(), true)
	}
	if len(diags) != 2 || !strings.Contains(diags[0].Summary(), "FIT-N1") || diags[0].Summary() == diags[1].Summary() ||
		strings.HasPrefix(diags[0].Summary(), "Disk Performance Warning") {
		t.Fatalf("disk warnings %q, %q: want the node's burst-only fit first, each titled by its finding", diags[0].Summary(), diags[1].Summary())
	}
}
