package workloads

import (
	"strings"
	"testing"
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
