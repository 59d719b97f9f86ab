package workloads

import (
	"os"
	"strings"
	"testing"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
)

// FuzzRead checks that no input panics, that every error is an input error on Manifests or Overrides,
// and that what is read is consistent: every workload has a source and a non-negative count.
func FuzzRead(f *testing.F) {
	f.Add(deployment("w", "2", "{requests: {cpu: 100m, memory: 1Gi}, limits: {cpu: 1}}", "      initContainers: [{name: i, image: i, resources: {limits: {memory: 2Gi}}}]\n"))
	f.Add("apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: Pod, metadata: {name: p}, spec: {containers: [{name: c, image: c}]}}\n")
	f.Add(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","resources":{"requests":{"cpu":"1e3"}}}]}}`)
	f.Add("apiVersion: keda.sh/v1alpha1\nkind: ScaledObject\nmetadata: {name: s}\nspec: {scaleTargetRef: {name: w}, minReplicaCount: 3, maxReplicaCount: 2}\n")
	f.Add("--- {kind: Pod}\n...\n---\n# only a comment\n")
	if b, err := os.ReadFile("testdata/cluster/snapshot.json"); err == nil {
		f.Add(string(b) + " ")
	}
	f.Fuzz(func(t *testing.T, m string) {
		in := Input{Manifests: m, Overrides: map[string]Override{}}
		if len(m)%2 == 1 {
			// Odd inputs are read as a cluster snapshot too.
			in.Cluster = m
		}
		res, err := Read(in)
		if err != nil {
			es := field.As(err)
			if len(es) == 0 {
				t.Fatalf("error %v is not an input error", err)
			}
			for _, e := range es {
				if p := e.Path.String(); p != "Manifests" && p != "Cluster" && !strings.HasPrefix(p, "Overrides") {
					t.Fatalf("error on %s: %v", p, e)
				}
			}
			return
		}
		for _, w := range res.Workloads {
			if w.Name == "" || w.Source.Kind == "" {
				t.Fatalf("workload without name or source: %+v", w)
			}
			for _, n := range []*int{w.Replicas, w.MinReplicas, w.MaxReplicas} {
				if n != nil && *n < 0 {
					t.Fatalf("negative count in %+v", w)
				}
			}
		}
	})
}

// FuzzQuick checks the metadata-only path against the full decode on any one document.
func FuzzQuick(f *testing.F) {
	f.Add("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  labels: {x: \"1\"}\ndata:\n  k: v\n")
	f.Add("kind: Role\napiVersion: rbac.authorization.k8s.io/v1\nmetadata: {name: flow}\nrules:\n- apiGroups: [\"\"]\n")
	f.Add("apiVersion: example.com/v1\nkind: Thing\nmetadata:\n  name: t\n  annotations: {a: b}\n")
	f.Fuzz(func(t *testing.T, s string) {
		checkQuick(t, document{data: []byte(s), line: 1}, 0)
	})
}
