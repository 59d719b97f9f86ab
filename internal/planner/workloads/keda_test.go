package workloads

import (
	"strings"
	"testing"
)

// TestReadScaledJob checks a KEDA ScaledJob: minReplicaCount (default 0) to maxReplicaCount (default 100) Jobs at
// once, each of parallelism pods (default 1, at most completions), so min × pods to max × pods pods.
func TestReadScaledJob(t *testing.T) {
	sj := func(spec, job string) string {
		return "apiVersion: keda.sh/v1alpha1\nkind: ScaledJob\nmetadata: {name: sj}\nspec:\n" + spec + "  jobTargetRef:\n" + job +
			"    template:\n      spec:\n        restartPolicy: Never\n        containers: [{name: c, image: c, resources: {requests: {cpu: \"2\", memory: 4Gi}}}]\n" +
			"  triggers: [{type: rabbitmq, metadata: {queueName: q, mode: QueueLength, value: \"1\"}}]\n"
	}
	tests := []struct {
		name           string
		doc            string
		wantMin        int
		wantMax        int
		wantJobs       int // the ScaledJob's maximum in Jobs
		wantDerivation string
	}{
		{"KEDA's defaults", sj("", ""), 0, 100, 100, "KEDA ScaledJob: 0 to 100 Jobs at once, 1 pod(s) each: 0 to 100 pods (minReplicaCount not set: 0 (the KEDA default); maxReplicaCount not set: 100 (the KEDA default))"},
		{"maxReplicaCount 50", sj("  maxReplicaCount: 50\n", ""), 0, 50, 50, "0 to 50 Jobs at once"},
		{"parallelism 2", sj("  minReplicaCount: 1\n  maxReplicaCount: 10\n", "    parallelism: 2\n"), 2, 20, 10, "1 to 10 Jobs at once, 2 pod(s) each: 2 to 20 pods"},
		{"completions below parallelism", sj("  maxReplicaCount: 10\n", "    parallelism: 4\n    completions: 3\n"), 0, 30, 10, "3 pod(s) each"},
		{"min above max is lowered to max", sj("  minReplicaCount: 8\n  maxReplicaCount: 5\n", ""), 5, 5, 5, "minReplicaCount 8 above maxReplicaCount 5: KEDA lowers it to 5"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := mustRead(t, Input{Manifests: tt.doc})
			w := workload(t, res, "sj")
			if w.Replicas != nil || deref(w.MinReplicas) != tt.wantMin || deref(w.MaxReplicas) != tt.wantMax {
				t.Errorf("replicas %v min %d max %d, want %d to %d pods", w.Replicas, deref(w.MinReplicas), deref(w.MaxReplicas), tt.wantMin, tt.wantMax)
			}
			if w.Requests.CPUMillicores != 2000 || w.Requests.MemoryBytes != 4<<30 {
				t.Errorf("requests %+v, want the jobTargetRef template's 2 CPU and 4Gi", w.Requests)
			}
			if w.Autoscaler == nil || w.Autoscaler.Kind != "ScaledJob" || w.Autoscaler.MaxReplicas != tt.wantJobs || w.MaxSurge.Value != 0 {
				t.Errorf("autoscaler %+v surge %+v, want the ScaledJob at most %d Jobs and no surge", w.Autoscaler, w.MaxSurge, tt.wantJobs)
			}
			if len(w.Pod.Derivation) == 0 || !strings.Contains(w.Pod.Derivation[0], tt.wantDerivation) {
				t.Errorf("derivation %q, want it to start with %q", w.Pod.Derivation, tt.wantDerivation)
			}
		})
	}
	if _, err := Read(Input{Manifests: "apiVersion: keda.sh/v1alpha1\nkind: ScaledJob\nmetadata: {name: sj}\nspec:\n  maxReplicaCount: 3\n"}); err == nil ||
		!strings.Contains(err.Error(), `ScaledJob "sj" in namespace "default" (document 0, line 1) has no spec.jobTargetRef`) {
		t.Errorf("a ScaledJob without jobTargetRef: err = %v", err)
	}
}

// TestReadScaledObjectPaused checks KEDA's pause annotations on a ScaledObject: paused-replicas pins the target at
// exactly that count whatever the bounds say (and wins over paused); paused freezes a count the manifests do not
// tell, planned steady at the maximum.
func TestReadScaledObjectPaused(t *testing.T) {
	so := func(annotations, bounds string) string {
		s := "apiVersion: keda.sh/v1alpha1\nkind: ScaledObject\nmetadata:\n  name: so\n"
		if annotations != "" {
			s += "  annotations: {" + annotations + "}\n"
		}
		return s + "spec:\n  scaleTargetRef: {name: web}\n" + bounds + "  triggers: [{type: kafka, metadata: {topic: orders}}]\n"
	}
	web := deployment("web", "3", "{requests: {cpu: 100m, memory: 100Mi}}", "") + "---\n"
	tests := []struct {
		name             string
		doc              string
		wantMin, wantMax int
		wantNote         string
	}{
		{"paused-replicas within the bounds", so(`autoscaling.keda.sh/paused-replicas: "5"`, "  minReplicaCount: 0\n  maxReplicaCount: 10\n"), 5, 5, "paused at exactly 5 replicas (autoscaling.keda.sh/paused-replicas)"},
		{"paused-replicas above the maximum", so(`autoscaling.keda.sh/paused-replicas: "40"`, "  maxReplicaCount: 20\n"), 40, 40, "paused at exactly 40"},
		{"paused-replicas below the minimum", so(`autoscaling.keda.sh/paused-replicas: "1"`, "  minReplicaCount: 4\n  maxReplicaCount: 20\n"), 1, 3, "paused at exactly 1"}, // each apply sets the Deployment's 3,
		{"paused-replicas 0", so(`autoscaling.keda.sh/paused-replicas: "0"`, ""), 0, 3, "paused at exactly 0"},
		{"paused-replicas wins over paused", so(`autoscaling.keda.sh/paused: "true", autoscaling.keda.sh/paused-replicas: "2"`, "  maxReplicaCount: 20\n"), 2, 3, "paused at exactly 2"},
		{"paused: steady at the maximum", so(`autoscaling.keda.sh/paused: "true"`, "  maxReplicaCount: 10\n"), 10, 10, "planned steady at the maximum 10 (the safe side)"},
		{"paused with a value that is not a boolean pauses too", so(`autoscaling.keda.sh/paused: "yes"`, "  maxReplicaCount: 10\n"), 10, 10, "planned steady at the maximum 10"},
		{"paused false does not pause", so(`autoscaling.keda.sh/paused: "false"`, "  maxReplicaCount: 10\n"), 0, 10, "ScaledObject \"so\" scales it from 0 to 10 replicas"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := workload(t, mustRead(t, Input{Manifests: web + tt.doc}), "web")
			if w.Replicas != nil || deref(w.MinReplicas) != tt.wantMin || deref(w.MaxReplicas) != tt.wantMax {
				t.Errorf("replicas %v min %d max %d, want %d to %d", w.Replicas, deref(w.MinReplicas), deref(w.MaxReplicas), tt.wantMin, tt.wantMax)
			}
			if len(w.Pod.Derivation) == 0 || !strings.Contains(w.Pod.Derivation[0], tt.wantNote) {
				t.Errorf("derivation %q, want %q", w.Pod.Derivation, tt.wantNote)
			}
		})
	}
	// Paused, nothing scales the target: it runs its replicas field, 20 here, above maxReplicaCount.
	big := deployment("web", "20", "{requests: {cpu: 100m, memory: 100Mi}}", "") + "---\n"
	w := workload(t, mustRead(t, Input{Manifests: big + so(`autoscaling.keda.sh/paused: "true"`, "  maxReplicaCount: 10\n")}), "web")
	if deref(w.MinReplicas) != 20 || deref(w.MaxReplicas) != 20 || !strings.Contains(w.Pod.Derivation[0], "runs its replicas field's 20, above the maximum 10") {
		t.Errorf("paused above its maximum: min %d max %d, derivation %q", deref(w.MinReplicas), deref(w.MaxReplicas), w.Pod.Derivation)
	}
	if _, err := Read(Input{Manifests: web + so(`autoscaling.keda.sh/paused-replicas: "five"`, "")}); err == nil ||
		!strings.Contains(err.Error(), `annotation autoscaling.keda.sh/paused-replicas is "five", not a replica count`) {
		t.Errorf("paused-replicas five: err = %v", err)
	}
}
