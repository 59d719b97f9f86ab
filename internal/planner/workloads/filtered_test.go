package workloads

import (
	"strings"
	"testing"
)

// TestReadWarnsOfFilteredShapers checks that an include or exclude filter that leaves out the autoscaler of a
// workload being read, or a LimitRange of its namespace, warns naming what was left out and what it would have
// changed (the report's c51: include = [{kinds = ["Deployment"]}]), and stays quiet when what is left out
// concerns no workload read.
func TestReadWarnsOfFilteredShapers(t *testing.T) {
	lr := "apiVersion: v1\nkind: LimitRange\nmetadata: {name: lr}\nspec:\n  limits: [{type: Container, defaultRequest: {cpu: 500m, memory: 512Mi}}]\n---\n"
	hpa := "---\napiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: web-hpa}\nspec:\n  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}\n  minReplicas: 4\n  maxReplicas: 30\n"
	so := "---\napiVersion: keda.sh/v1alpha1\nkind: ScaledObject\nmetadata: {name: web-so}\nspec:\n  scaleTargetRef: {name: web}\n  maxReplicaCount: 12\n"
	m := lr + deployment("web", "2", "", "") + hpa
	for _, tc := range []struct {
		name string
		in   Input
		want []string
	}{
		{"include kinds", Input{Manifests: m, Include: []Filter{{Kinds: []string{"deployment"}}}}, []string{
			`LimitRange "lr" in namespace "default" (document 0, line 1): left out (not matched by any include filter), yet it applies to the pods of "web", which are read: its Container defaultRequest cpu 500m, memory 512Mi would change their requests or refuse them; add LimitRange to an include filter's kinds (or a filter matching it) so the plan reads it`,
			`HorizontalPodAutoscaler "web-hpa" in namespace "default" (document 2, line 22): left out (not matched by any include filter), yet it scales Deployment "web", which is read: with it the workload would run 4 to 30 replicas, not the fixed 2; add HorizontalPodAutoscaler to an include filter's kinds (or a filter matching it) so the plan reads it`}},
		{"exclude a ScaledObject", Input{Manifests: deployment("web", "2", "{requests: {cpu: 1}}", "") + so, Exclude: []Filter{{Kinds: []string{"ScaledObject"}}}}, []string{
			`ScaledObject "web-so" in namespace "default" (document 1, line 17): left out (excluded by exclude filter 0), yet it scales Deployment "web", which is read: with it the workload would run 0 to 12 replicas, not the fixed 2; narrow that exclude filter so the plan reads it`}},
		{"the target is left out too", Input{Manifests: m, Exclude: []Filter{{Names: []string{"web*"}}}}, nil},
		{"another namespace", Input{Manifests: m, Include: []Filter{{Namespaces: []string{"shop"}}}}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := mustRead(t, tc.in)
			var got []string
			for _, w := range res.Warnings {
				if w.Code == WarnFilteredOut {
					got = append(got, w.Message)
				}
			}
			if len(got) != len(tc.want) {
				t.Fatalf("warnings %q, want %d", got, len(tc.want))
			}
			for i := range got {
				if !strings.HasPrefix(got[i], tc.want[i]) {
					t.Errorf("warning %d: %q\nwant %q", i, got[i], tc.want[i])
				}
			}
		})
	}
}
