package workloads

import (
	"fmt"
	"strings"
	"testing"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
)

// TestReadJSONDocumentsSeparatedByMarkers checks that JSON documents joined with "\n---\n" (jsonencode objects
// joined as the docs join yamlencode ones) are read as the YAML stream they are, as kubectl apply reads them.
func TestReadJSONDocumentsSeparatedByMarkers(t *testing.T) {
	dep := func(name string) string {
		return `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"` + name + `"},"spec":{"replicas":2,"selector":{"matchLabels":{"app":"a"}},` +
			`"template":{"metadata":{"labels":{"app":"a"}},"spec":{"containers":[{"name":"c","image":"c","resources":{"requests":{"cpu":"100m","memory":"64Mi"}}}]}}}}`
	}
	svc := `{"apiVersion":"v1","kind":"Service","metadata":{"name":"s"},"spec":{"ports":[{"port":80}]}}`
	tests := []struct {
		name      string
		in        string
		wantNames []string
	}{
		{"jsonencode objects joined with ---", strings.Join([]string{dep("a"), svc, dep("b")}, "\n---\n"), []string{"a", "b"}},
		{"a leading marker and CRLF", "---\r\n" + dep("a") + "\r\n---\r\n" + dep("b") + "\r\n", []string{"a", "b"}},
		{"JSON values one after the other (no marker) as before", dep("a") + "\n" + dep("b"), []string{"a", "b"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := mustRead(t, Input{Manifests: tt.in})
			var got []string
			for _, w := range res.Workloads {
				got = append(got, w.Name)
			}
			if strings.Join(got, ",") != strings.Join(tt.wantNames, ",") {
				t.Errorf("workloads %v, want %v", got, tt.wantNames)
			}
		})
	}
}

// TestReadCosmetics checks the messages and forms a review found wrong: "an" before a vowel, the byte where a JSON
// syntax error is, a top-level YAML sequence read as a list (as a top-level JSON array is), what a document that is
// not an object is without Go's type names, and the unknown-field warning saying kubectl apply and Helm refuse them.
func TestReadCosmetics(t *testing.T) {
	dep := deployment("a", "1", "{requests: {cpu: 100m, memory: 64Mi}}", "")
	kruise := "apiVersion: apps.kruise.io/v1alpha1\nkind: CloneSet\nmetadata: {name: cs}\nspec:\n  replicas: 1\n  template:\n    spec:\n" +
		"      containers: [{name: c, image: c, resources: {requests: {cpu: 100m, memory: 64Mi}}}]\n"
	res := mustRead(t, Input{Manifests: kruise})
	if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0].Message, "an apps.kruise.io/v1alpha1 kind, read as a workload") {
		t.Errorf("custom-kind warning %+v, want \"an apps.kruise.io/v1alpha1 kind\"", res.Warnings)
	}

	bad := `{"apiVersion":"v1","kind":"List","items":[{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"}},]}`
	for _, lead := range []string{"", "\n  "} {
		_, err := Read(Input{Manifests: lead + bad})
		want := fmt.Sprintf("check the value at byte %d", len(lead)+strings.Index(bad, "]}")+1)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("JSON syntax error with %q before it: %v, want %q", lead, err, want)
		}
	}

	j := jsonOf(t, dep)
	for name, in := range map[string]string{
		"a top-level YAML sequence (yamlencode([obj1, obj2]))": "- " + j + "\n- " + strings.Replace(j, `"name":"a"`, `"name":"b"`, 1) + "\n",
		"a JSON array, then a YAML document":                   "[" + j + "]\n---\n" + strings.Replace(dep, "name: a", "name: b", 1),
	} {
		res := mustRead(t, Input{Manifests: in})
		if len(res.Workloads) != 2 || res.Workloads[0].Name != "a" || res.Workloads[1].Name != "b" {
			t.Errorf("%s: workloads %+v, want a and b", name, res.Workloads)
		}
	}
	if _, err := Read(Input{Manifests: "- just a string\n"}); err == nil || !strings.Contains(err.Error(), "item 0 of the List in document 0 of the manifests is not a Kubernetes object (a mapping with apiVersion and kind): it is a string") ||
		strings.Contains(err.Error(), "Go") {
		t.Errorf("a sequence of strings: %v", err)
	}

	res = mustRead(t, Input{Manifests: strings.Replace(dep, "  replicas: 1\n", "  replicaz: 1\n", 1)})
	if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0].Message, "kubectl apply (strict field validation, its default since kubectl 1.27) and Helm refuse an object with unknown fields") {
		t.Errorf("unknown-field warning %+v", res.Warnings)
	}
}

// TestReadReportsEveryBrokenDocument checks that each broken document gets its own error, up to maxErrors, and
// that the rest are counted rather than dropped silently.
func TestReadReportsEveryBrokenDocument(t *testing.T) {
	bad := func(i int) string {
		return deployment(fmt.Sprintf("d%d", i), "1", "{requests: {memory: 1Gb}}", "")
	}
	for _, n := range []int{2, maxErrors, maxErrors + 3} {
		docs := make([]string, n)
		for i := range docs {
			docs[i] = bad(i)
		}
		_, err := Read(Input{Manifests: strings.Join(docs, "---\n")})
		es := field.As(err)
		want := min(n, maxErrors)
		if n > maxErrors {
			want++
		}
		if len(es) != want {
			t.Fatalf("%d broken documents: %d errors, want %d: %v", n, len(es), want, err)
		}
		if n > maxErrors && es[len(es)-1].Detail != "3 more documents of the manifests have errors; fix the ones above and plan again to see them" {
			t.Errorf("last error %q", es[len(es)-1].Detail)
		}
	}
}
