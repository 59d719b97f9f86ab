package workloads

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
)

// TestReadRuntimeClassScheduling: the RuntimeClass admission plugin merges a class's scheduling.nodeSelector and
// tolerations into every pod naming it (plugin/pkg/admission/runtimeclass/admission.go, setScheduling), the
// Kubernetes docs' way of keeping Windows pods on Windows nodes; the reader does the same (it dropped them, so IIS
// pods were planned on Linux pools), for Deployments and DaemonSets alike, and refuses a nodeSelector that
// conflicts with the class's, as admission does.
func TestReadRuntimeClassScheduling(t *testing.T) {
	rc := "\n---\napiVersion: node.k8s.io/v1\nkind: RuntimeClass\nmetadata: {name: windows-2022}\nhandler: runhcs-wcow-process\n" +
		"scheduling:\n  nodeSelector: {kubernetes.io/os: windows, node.kubernetes.io/windows-build: \"10.0.20348\"}\n" +
		"  tolerations: [{key: os, operator: Equal, value: windows, effect: NoSchedule}]\n"
	iis := deployment("iis", "6", "{requests: {cpu: 500m, memory: 1Gi}}", "      runtimeClassName: windows-2022\n")
	res := mustRead(t, Input{Manifests: iis + rc})
	w := workload(t, res, "iis")
	if want := map[string]string{"kubernetes.io/os": "windows", "node.kubernetes.io/windows-build": "10.0.20348"}; !maps.Equal(w.NodeSelector, want) {
		t.Errorf("node selector %v, want the RuntimeClass's %v", w.NodeSelector, want)
	}
	if !slices.Contains(w.Tolerations, fit.Toleration{Key: "os", Operator: fit.OperatorEqual, Value: "windows", Effect: fit.EffectNoSchedule}) {
		t.Errorf("tolerations %+v, want the RuntimeClass's os=windows:NoSchedule", w.Tolerations)
	}
	if !slices.ContainsFunc(w.Pod.Derivation, func(s string) bool { return strings.Contains(s, `RuntimeClass "windows-2022"'s scheduling`) }) {
		t.Errorf("derivation %q does not say the RuntimeClass's scheduling was merged", w.Pod.Derivation)
	}

	// A pod selecting the same value is fine; another value is refused as admission refuses it.
	same := deployment("iis", "1", "{requests: {cpu: 500m}}", "      runtimeClassName: windows-2022\n      nodeSelector: {kubernetes.io/os: windows}\n")
	mustRead(t, Input{Manifests: same + rc})
	clash := deployment("iis", "1", "{requests: {cpu: 500m}}", "      runtimeClassName: windows-2022\n      nodeSelector: {kubernetes.io/os: linux}\n")
	if _, err := Read(Input{Manifests: clash + rc}); err == nil || !strings.Contains(err.Error(), "conflicts with RuntimeClass \"windows-2022\"'s scheduling.nodeSelector kubernetes.io/os=windows") {
		t.Errorf("conflicting node selector: error %v, want it refused", err)
	}

	// A DaemonSet's pods get them too.
	ds := "apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: agent}\nspec:\n  selector: {matchLabels: {app: agent}}\n  template:\n" +
		"    metadata: {labels: {app: agent}}\n    spec:\n      runtimeClassName: windows-2022\n      containers: [{name: a, image: a, resources: {requests: {cpu: 50m}}}]\n"
	res = mustRead(t, Input{Manifests: ds + rc})
	if len(res.DaemonSets) != 1 || res.DaemonSets[0].NodeSelector["kubernetes.io/os"] != "windows" || len(res.DaemonSets[0].Tolerations) != 1 {
		t.Errorf("DaemonSets %+v, want the RuntimeClass's selector and toleration", res.DaemonSets)
	}
}
