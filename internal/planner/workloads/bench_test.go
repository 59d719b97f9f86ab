package workloads

import (
	"os"
	"strconv"
	"strings"
	"testing"
)

// manyDocuments returns n documents (about 2 KB each) made of copies of the rendered Argo CD chart, each
// copy renamed so no two objects clash.
func manyDocuments(tb testing.TB, n int) string {
	b, err := os.ReadFile("testdata/charts/argo-cd/rendered.yaml")
	if err != nil {
		tb.Fatal(err)
	}
	docs, err := split(string(b), OriginManifests)
	if err != nil {
		tb.Fatal(err)
	}
	var sb strings.Builder
	for i := 0; i < n; i++ {
		copyNo := strconv.Itoa(i / len(docs))
		d := strings.ReplaceAll(string(docs[i%len(docs)].data), "argocd", "argocd"+copyNo)
		sb.WriteString("---\n")
		sb.WriteString(d)
	}
	return sb.String()
}

// BenchmarkWorkloadsFromManifests reads 10,000 documents (about 20 MB). Target (the manifests issue):
// under 1 s and 500 MB.
func BenchmarkWorkloadsFromManifests(b *testing.B) {
	m := manyDocuments(b, 10_000)
	b.SetBytes(int64(len(m)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		res, err := Read(Input{Manifests: m, Namespace: "argocd"})
		if err != nil {
			b.Fatal(err)
		}
		if len(res.Workloads) == 0 {
			b.Fatal("no workloads")
		}
	}
}
