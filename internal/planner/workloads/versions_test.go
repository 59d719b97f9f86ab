package workloads

import (
	"strings"
	"testing"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
)

// TestReadMistypedBuiltinVersion checks that a built-in kind in a version no release serves is refused, as
// kubectl apply refuses it ("no matches for kind ... in version ..."), rather than read as a custom kind: a
// DaemonSet at app/v1 is not a one-replica workload. A kind of a dotted group of its own is still read (OpenKruise's
// DaemonSet, as a DaemonSet).
func TestReadMistypedBuiltinVersion(t *testing.T) {
	ds := "kind: DaemonSet\nmetadata: {name: agent}\nspec:\n  selector: {matchLabels: {app: a}}\n  template:\n    metadata: {labels: {app: a}}\n" +
		"    spec:\n      containers: [{name: a, image: a, resources: {requests: {cpu: 50m, memory: 64Mi}}}]\n"
	dep := func(apiVersion string) string {
		return strings.Replace(deployment("web", "2", "{requests: {cpu: 100m, memory: 100Mi}}", ""), "apiVersion: apps/v1", "apiVersion: "+apiVersion, 1)
	}
	tests := []struct {
		name, docs, want string
	}{
		{"apps/V1 Deployment", dep("apps/V1"), `Deployment "web" (document 0, line 1) has apiVersion apps/V1 and kind Deployment, which no Kubernetes release serves: kubectl apply refuses it (no matches for kind "Deployment" in version "apps/V1"); write apiVersion apps/v1`},
		{"apps/v2 Deployment", dep("apps/v2"), `no matches for kind "Deployment" in version "apps/v2"); write apiVersion apps/v1`},
		{"app/v1 DaemonSet", "apiVersion: app/v1\n" + ds, `DaemonSet "agent" (document 0, line 1) has apiVersion app/v1 and kind DaemonSet`},
		{"DaemonSet at v1", "apiVersion: v1\n" + ds, `(no matches for kind "DaemonSet" in version "v1"); write apiVersion apps/v1`},
		{"core kind at V1", "apiVersion: V1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {a: b}\n", `ConfigMap "c" (document 0, line 1) has apiVersion V1 and kind ConfigMap, which no Kubernetes release serves: kubectl apply refuses it (no matches for kind "ConfigMap" in version "V1"); write apiVersion v1`},
		{"Job in the apps group", strings.Replace(dep("apps/v1"), "kind: Deployment", "kind: Job", 1), `(no matches for kind "Job" in version "apps/v1"); write apiVersion batch/v1`},
		{"Ingress at networking.k8s.io/v2", "apiVersion: networking.k8s.io/v2\nkind: Ingress\nmetadata: {name: i}\nspec: {}\n", `write apiVersion networking.k8s.io/v1`},
		{"unknown kind in a built-in group", "apiVersion: apps/v1\nkind: Widget\nmetadata: {name: w}\nspec: {template: {spec: {containers: []}}}\n", `no built-in API group has kind Widget, so check the kind and the apiVersion`},
		{"in a List", "apiVersion: v1\nkind: List\nitems:\n- {apiVersion: app/v1, kind: DaemonSet, metadata: {name: agent}, spec: {}}\n", `DaemonSet "agent" (item 0 of the List in document 0) has apiVersion app/v1`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := Read(Input{Manifests: tt.docs})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v\nwant it to contain %q (workloads %+v)", err, tt.want, res.Workloads)
			}
			if es := field.As(err); len(es) != 1 || es[0].Path.String() != "Manifests" {
				t.Errorf("errors = %v, want exactly one on Manifests", err)
			}
		})
	}

	// Kinds of their own groups keep being read, whatever their kind's name.
	kruise := "apiVersion: apps.kruise.io/v1alpha1\n" + ds
	res := mustRead(t, Input{Manifests: kruise + "---\napiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\nspec: {size: 3}\n"})
	if len(res.Workloads) != 0 || len(res.DaemonSets) != 1 || res.DaemonSets[0].Name != "agent" {
		t.Errorf("OpenKruise DaemonSet: workloads %+v, DaemonSets %+v; want it read as a DaemonSet (TestReadAdvancedDaemonSet)", res.Workloads, res.DaemonSets)
	}
}
