package workloads

import (
	"strings"
	"testing"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
)

// rollout returns an Argo Rollout document with the given spec lines (indented for spec, 2 spaces).
func rollout(name, spec string) string {
	return "apiVersion: argoproj.io/v1alpha1\nkind: Rollout\nmetadata: {name: " + name + "}\nspec:\n" + spec
}

// TestReadRolloutWorkloadRef checks an Argo Rollout with spec.workloadRef: it runs spec.replicas pods of the
// referenced Deployment's template with its own strategy, the Deployment keeping its own replicas; without the
// Deployment among the manifests its pods cannot be counted, which a warning says.
func TestReadRolloutWorkloadRef(t *testing.T) {
	ref := func(scaleDown string) string {
		s := "  replicas: 3\n  selector: {matchLabels: {app: web}}\n  workloadRef: {apiVersion: apps/v1, kind: Deployment, name: web"
		if scaleDown != "" {
			s += ", scaleDown: " + scaleDown
		}
		return s + "}\n  strategy: {blueGreen: {activeService: web}}\n"
	}
	tests := []struct {
		name        string
		docs        string
		wantRollout int // replicas of the Rollout's workload, -1 for none
		wantDeploy  int // replicas of the Deployment's workload, -1 for none
		wantWarn    string
		wantSkip    string
	}{
		{"Deployment scaled to 0 (the documented migration)", rollout("ro", ref("")) + "---\n" + deployment("web", "0", "{requests: {cpu: \"1\", memory: 1Gi}}", ""), 3, 0, "", ""},
		{"Deployment declared after the Rollout, still running (scaleDown never)", rollout("ro", ref("never")) + "---\n" + deployment("web", "2", "{requests: {cpu: \"1\", memory: 1Gi}}", ""), 3, 2, "", ""},
		{"Deployment missing", rollout("ro", ref("onsuccess")), -1, -1, WarnWorkloadRefMissing, `its pod template comes from Deployment "web" (spec.workloadRef), which is not among the manifests`},
		{"Deployment in another namespace", strings.Replace(rollout("ro", ref("")), "metadata: {name: ro}", "metadata: {name: ro, namespace: a}", 1) + "---\n" + deployment("web", "0", "{requests: {cpu: \"1\", memory: 1Gi}}", ""), -1, 0, WarnWorkloadRefMissing, "spec.workloadRef"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := mustRead(t, Input{Manifests: tt.docs})
			got := map[string]Workload{}
			for _, w := range res.Workloads {
				got[w.Source.Kind] = w
			}
			if w, ok := got["Rollout"]; tt.wantRollout < 0 && ok || tt.wantRollout >= 0 && (!ok || deref(w.Replicas) != tt.wantRollout) {
				t.Errorf("Rollout workload %+v (read %v), want replicas %d", w.Workload, ok, tt.wantRollout)
			} else if ok {
				if w.Requests.CPUMillicores != 1000 || w.Requests.MemoryBytes != 1<<30 || w.MaxSurge.Value != 100 || !w.MaxSurge.Percent {
					t.Errorf("Rollout requests %+v surge %+v, want the Deployment's template (1 CPU, 1Gi) and blueGreen's 100%% surge", w.Requests, w.MaxSurge)
				}
				if len(w.Pod.Derivation) == 0 || !strings.Contains(w.Pod.Derivation[0], `Argo Rollout workloadRef: the pod template of Deployment "web"`) {
					t.Errorf("derivation %q does not name the referenced Deployment", w.Pod.Derivation)
				}
			}
			if w, ok := got["Deployment"]; tt.wantDeploy < 0 && ok || tt.wantDeploy >= 0 && (!ok || deref(w.Replicas) != tt.wantDeploy) {
				t.Errorf("Deployment workload %+v (read %v), want replicas %d", w.Workload, ok, tt.wantDeploy)
			}
			if tt.wantWarn != "" && !hasWarning(res, tt.wantWarn, "ro") {
				t.Errorf("no %s warning: %+v", tt.wantWarn, res.Warnings)
			}
			if tt.wantWarn == "" && hasWarning(res, WarnWorkloadRefMissing, "ro") {
				t.Errorf("unexpected warning: %+v", res.Warnings)
			}
			skipped := ""
			for _, s := range res.Skipped {
				if s.Source.Kind == "Rollout" {
					skipped = s.Reason
				}
			}
			if tt.wantSkip != "" && !strings.Contains(skipped, tt.wantSkip) || tt.wantSkip == "" && tt.wantRollout >= 0 && skipped != "" {
				t.Errorf("Rollout skipped with %q, want %q", skipped, tt.wantSkip)
			}
		})
	}
}

// TestReadRolloutCanaryTrafficRouting checks an Argo Rollout canary's surge: with trafficRouting and without
// dynamicStableScale the stable ReplicaSet stays at full size while the canary grows to its weight (100 % at
// promotion); with dynamicStableScale, or without traffic routing, the canary's maxSurge (default 25 %).
func TestReadRolloutCanaryTrafficRouting(t *testing.T) {
	spec := func(canary string) string {
		return "  replicas: 10\n  selector: {matchLabels: {app: r}}\n  template:\n    metadata: {labels: {app: r}}\n" +
			"    spec:\n      containers: [{name: c, image: c, resources: {requests: {cpu: \"1\", memory: 1Gi}}}]\n" +
			"  strategy:\n    canary:\n" + canary + "      steps: [{setWeight: 20}, {pause: {}}, {setWeight: 100}]\n"
	}
	nginx := "      trafficRouting: {nginx: {stableIngress: r}}\n"
	tests := []struct {
		name     string
		canary   string
		want     fit.IntOrPercent
		wantNote string
	}{
		{"traffic routing: 100%", nginx, fit.IntOrPercent{Value: 100, Percent: true}, "the stable ReplicaSet stays at full size"},
		{"traffic routing with maxSurge set: still 100%", nginx + "      maxSurge: 1\n", fit.IntOrPercent{Value: 100, Percent: true}, "a 100% surge at promotion"},
		{"dynamicStableScale false is the default", nginx + "      dynamicStableScale: false\n", fit.IntOrPercent{Value: 100, Percent: true}, "without dynamicStableScale"},
		{"dynamicStableScale: the canary's maxSurge", nginx + "      dynamicStableScale: true\n      maxSurge: 2\n", fit.IntOrPercent{Value: 2}, "maxSurge 2"},
		{"dynamicStableScale without maxSurge: 25%", nginx + "      dynamicStableScale: true\n", fit.IntOrPercent{Value: 25, Percent: true}, "maxSurge not set: 25% (the Argo Rollouts canary default)"},
		{"no traffic routing: the canary's maxSurge", "      maxSurge: 50%\n", fit.IntOrPercent{Value: 50, Percent: true}, "maxSurge 50%"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := workload(t, mustRead(t, Input{Manifests: rollout("r", spec(tt.canary))}), "r")
			if w.MaxSurge != tt.want || deref(w.Replicas) != 10 {
				t.Errorf("surge %+v replicas %d, want %+v and 10", w.MaxSurge, deref(w.Replicas), tt.want)
			}
			if !strings.Contains(strings.Join(w.Pod.Derivation, "|"), tt.wantNote) {
				t.Errorf("derivation %q, want %q", w.Pod.Derivation, tt.wantNote)
			}
		})
	}
}
