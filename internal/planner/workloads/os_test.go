package workloads

import "testing"

// TestReadPodOS: a pod's spec.os.name, else its kubernetes.io/os label (both of which the kubelet admits against
// its own OS), becomes the workload's OS, which sizing plans on pools of that OS only (it was ignored, and a
// spec.os.name linux Deployment was planned half on Windows nodes); a pod that says neither leaves it unset.
func TestReadPodOS(t *testing.T) {
	for _, tc := range []struct {
		name, extra, want string
	}{
		{"spec.os linux", "      os: {name: linux}\n", "linux"},
		{"spec.os windows", "      os: {name: windows}\n", "windows"},
		{"unsaid", "", ""},
	} {
		res := mustRead(t, Input{Manifests: deployment("api", "6", "{requests: {cpu: 500m}}", tc.extra)})
		if got := workload(t, res, "api").OS; got != tc.want {
			t.Errorf("%s: OS %q, want %q", tc.name, got, tc.want)
		}
	}
	labelled := "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: api}\nspec:\n  replicas: 2\n  selector: {matchLabels: {app: api}}\n  template:\n" +
		"    metadata: {labels: {app: api, kubernetes.io/os: windows}}\n    spec:\n      containers: [{name: a, image: a, resources: {requests: {cpu: 50m}}}]\n"
	if got := workload(t, mustRead(t, Input{Manifests: labelled}), "api").OS; got != "windows" {
		t.Errorf("kubernetes.io/os pod label: OS %q, want windows", got)
	}
}
