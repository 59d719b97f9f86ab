package workloads

import (
	"testing"
)

// TestReadFinishedPods checks that a Pod of the manifests whose status.phase is Succeeded or Failed is skipped as
// no load, as the cluster input skips it (the scheduler's informer leaves terminal pods out), while a Pending or
// Running one, or one without a status, is read.
func TestReadFinishedPods(t *testing.T) {
	pod := func(phase string) string {
		s := "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  restartPolicy: Never\n  containers: [{name: c, image: c, resources: {requests: {cpu: 100m, memory: 100Mi}}}]\n"
		if phase != "" {
			s += "status: {phase: " + phase + "}\n"
		}
		return s
	}
	tests := []struct {
		phase      string
		wantReason string // "" when the pod is read
	}{
		{"Succeeded", "a finished pod (Succeeded): no load"},
		{"Failed", "a finished pod (Failed): no load"},
		{"Running", ""},
		{"Pending", ""},
		{"", ""},
	}
	for _, tt := range tests {
		t.Run("phase "+tt.phase, func(t *testing.T) {
			for _, in := range []Input{{Manifests: pod(tt.phase)}, {Manifests: "apiVersion: v1\nkind: List\nitems:\n- " + jsonOf(t, pod(tt.phase)) + "\n"}} {
				res := mustRead(t, in)
				if tt.wantReason == "" {
					if len(res.Workloads) != 1 || deref(res.Workloads[0].Replicas) != 1 {
						t.Errorf("workloads %+v, want the pod read", res.Workloads)
					}
					continue
				}
				if len(res.Workloads) != 0 || len(res.Skipped) != 1 || res.Skipped[0].Reason != tt.wantReason {
					t.Errorf("workloads %+v skipped %+v, want it skipped: %q", res.Workloads, res.Skipped, tt.wantReason)
				}
			}
		})
	}
}

// jsonOf converts one YAML document to JSON, for a List item.
func jsonOf(t *testing.T, doc string) string {
	t.Helper()
	j, err := toJSON(document{data: []byte(doc), line: 1}, Source{})
	if err != nil {
		t.Fatal(err)
	}
	return string(j)
}
