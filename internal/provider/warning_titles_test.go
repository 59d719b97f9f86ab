package provider

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
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
