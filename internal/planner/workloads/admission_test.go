package workloads

import (
	"strings"
	"testing"
)

// TestReadRefusedAutoscalers: an autoscaler the API server or KEDA refuses is an error naming the object and
// the rule (package hpa's and keda's), not bounds for its target; one KEDA admits but cannot build a scaler from
// leaves the target at its replicas field, with a warning. The cases are those of the review (defect 1).
func TestReadRefusedAutoscalers(t *testing.T) {
	web := deployment("web", "10", "{requests: {cpu: 500m, memory: 1Gi}}", "") + "---\n"
	hpaV2 := func(min, metrics string) string {
		return "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: web}\nspec:\n  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}\n" +
			"  minReplicas: " + min + "\n  maxReplicas: 4\n" + metrics
	}
	cpu := "  metrics: [{type: Resource, resource: {name: cpu, target: {type: Utilization, averageUtilization: 70}}}]\n"
	external := "  metrics: [{type: External, external: {metric: {name: queue_depth}, target: {type: AverageValue, averageValue: \"30\"}}}]\n"
	so := func(spec string) string {
		return "apiVersion: keda.sh/v1alpha1\nkind: ScaledObject\nmetadata: {name: web}\nspec:\n  scaleTargetRef: {name: web}\n  maxReplicaCount: 4\n" + spec
	}
	cpuTrigger := "  - {type: cpu, metricType: Utilization, metadata: {value: \"70\"}}\n"
	refused := []struct {
		name, doc, wantRule string
	}{
		{"HPA minReplicas 0 with a Resource metric only", hpaV2("0", cpu), "HPA-E8"},
		{"HPA minReplicas 0 with the default metric", hpaV2("0", ""), "HPA-E8"},
		{"autoscaling/v1 HPA minReplicas 0", "apiVersion: autoscaling/v1\nkind: HorizontalPodAutoscaler\nmetadata: {name: web}\nspec:\n  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}\n  minReplicas: 0\n  maxReplicas: 4\n", "HPA-E8"},
		{"ScaledObject with only a cpu trigger, minReplicaCount unset", so("  triggers:\n" + cpuTrigger), "KSO-E12"},
		{"ScaledObject without triggers", so("  minReplicaCount: 2\n  triggers: []\n"), "KSO-E7"},
		{"ScaledObject idleReplicaCount 0, minReplicaCount unset", so("  idleReplicaCount: 0\n  triggers: [{type: rabbitmq, metadata: {queueName: q, mode: QueueLength, value: \"20\"}}]\n"), "KSO-E6"},
		{"ScaledObject fallback with only a cpu trigger", so("  minReplicaCount: 2\n  fallback: {failureThreshold: 3, replicas: 4}\n  triggers:\n" + cpuTrigger), "KSO-E8"},
		{"ScaledObject trigger metadata that is not a string", so("  minReplicaCount: 2\n  triggers: [{type: rabbitmq, metadata: {queueName: q, value: 20}}]\n"), "CRD's schema"},
	}
	for _, tt := range refused {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Read(Input{Manifests: web + tt.doc})
			if err == nil || !strings.Contains(err.Error(), tt.wantRule) || !strings.Contains(err.Error(), `"web" in namespace "default"`) || !strings.Contains(err.Error(), "refuses") {
				t.Errorf("err = %v, want a refusal naming the object and %s", err, tt.wantRule)
			}
		})
	}

	// Admitted with an External metric: 0 to 4 (up to the Deployment's replicas field, 10, at each apply), with
	// the gate's warning as package hpa states it (on by default from 1.37), not "alpha, off by default".
	res := mustRead(t, Input{Manifests: web + hpaV2("0", external)})
	if w := workload(t, res, "web"); deref(w.MinReplicas) != 0 || deref(w.MaxReplicas) != 10 {
		t.Errorf("HPA with an External metric: min %d max %d, want 0 to 10", deref(w.MinReplicas), deref(w.MaxReplicas))
	}
	if !hasWarning(res, WarnHPAScaleToZero, "web") || strings.Contains(warningText(res, WarnHPAScaleToZero), "alpha, off by default") ||
		!strings.Contains(warningText(res, WarnHPAScaleToZero), "on by default from Kubernetes 1.37") {
		t.Errorf("scale-to-zero warning %q, want the gate on by default from 1.37", warningText(res, WarnHPAScaleToZero))
	}

	// A cpu trigger without metricType: admitted, but KEDA fails to build the scaler ("unknown metric type"), so
	// no HPA exists and the Deployment runs its 10 replicas.
	res = mustRead(t, Input{Manifests: web + so("  minReplicaCount: 2\n  triggers: [{type: cpu, metadata: {value: \"70\"}}]\n")})
	w := workload(t, res, "web")
	if deref(w.Replicas) != 10 || w.MinReplicas != nil || w.MaxReplicas != nil || w.Autoscaler != nil {
		t.Errorf("inert ScaledObject: replicas %v min %v max %v autoscaler %+v, want the Deployment's 10", w.Replicas, w.MinReplicas, w.MaxReplicas, w.Autoscaler)
	}
	if !hasWarning(res, WarnAutoscalerInert, "web") || !strings.Contains(warningText(res, WarnAutoscalerInert), "KSO-E10") {
		t.Errorf("warnings %+v, want %s naming KSO-E10", res.Warnings, WarnAutoscalerInert)
	}
}

// warningText joins the messages of the warnings with code.
func warningText(res Result, code string) string {
	var out []string
	for _, w := range res.Warnings {
		if w.Code == code {
			out = append(out, w.Message)
		}
	}
	return strings.Join(out, "\n")
}

// TestReadAutoscalerTargetGroup: the HPA controller and KEDA resolve a scale target by API group and kind, so an
// autoscaler whose scaleTargetRef names another group than the workload's never scales it (FailedGetScale): the
// workload keeps its replicas field, with a warning. An HPA without an apiVersion is refused (HPA-E2).
func TestReadAutoscalerTargetGroup(t *testing.T) {
	web := deployment("web", "10", "{requests: {cpu: 500m, memory: 1Gi}}", "") + "---\n"
	hpa := func(apiVersion string) string {
		return "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: web}\nspec:\n  scaleTargetRef: {" + apiVersion + "kind: Deployment, name: web}\n  minReplicas: 2\n  maxReplicas: 4\n"
	}
	so := func(apiVersion string) string {
		return "apiVersion: keda.sh/v1alpha1\nkind: ScaledObject\nmetadata: {name: web}\nspec:\n  scaleTargetRef: {" + apiVersion + "name: web}\n  minReplicaCount: 2\n  maxReplicaCount: 4\n  triggers: [{type: kafka, metadata: {topic: orders}}]\n"
	}
	if _, err := Read(Input{Manifests: web + hpa("")}); err == nil || !strings.Contains(err.Error(), "HPA-E2") || !strings.Contains(err.Error(), "must name an API group") {
		t.Errorf("HPA without apiVersion: err = %v, want HPA-E2", err)
	}
	for _, tt := range []struct {
		name, doc string
		scaled    bool
	}{
		{"HPA at apps/v1", hpa("apiVersion: apps/v1, "), true},
		{"HPA at extensions/v1beta1", hpa("apiVersion: extensions/v1beta1, "), false},
		{"ScaledObject without apiVersion (KEDA's apps/v1)", so(""), true},
		{"ScaledObject at extensions/v1beta1", so("apiVersion: extensions/v1beta1, "), false},
		{"ScaledObject at argoproj.io/v1alpha1", so("apiVersion: argoproj.io/v1alpha1, "), false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res := mustRead(t, Input{Manifests: web + tt.doc})
			w := workload(t, res, "web")
			if tt.scaled {
				// 2 to 4, but each apply first sets the Deployment's replicas field, 10 (WarnReplicasAboveMax).
				if w.Replicas != nil || deref(w.MinReplicas) != 2 || deref(w.MaxReplicas) != 10 {
					t.Errorf("replicas %v min %d max %d, want 2 to 10", w.Replicas, deref(w.MinReplicas), deref(w.MaxReplicas))
				}
				return
			}
			if deref(w.Replicas) != 10 || w.MaxReplicas != nil || w.Autoscaler != nil {
				t.Errorf("replicas %v max %v autoscaler %+v, want the Deployment's own 10", w.Replicas, w.MaxReplicas, w.Autoscaler)
			}
			if msg := warningText(res, WarnAutoscalerTargetMissing); !strings.Contains(msg, "FailedGetScale") || !strings.Contains(msg, "write apiVersion apps/v1") {
				t.Errorf("warning %q, want FailedGetScale and the apiVersion to write", msg)
			}
		})
	}
}

// TestReadReplicasAboveMax: a Deployment whose replicas field is above its HPA's maximum runs that many pods at
// each apply until the HPA controller's next sync cuts them back, so the peak is planned at the field, with a
// warning to remove it; a field within the bounds, or none, leaves the HPA's bounds.
func TestReadReplicasAboveMax(t *testing.T) {
	hpa := "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: web}\nspec:\n  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}\n  minReplicas: 2\n  maxReplicas: 5\n"
	for _, tt := range []struct {
		name, replicas string
		wantMax        int
		warned         bool
	}{
		{"above the maximum", "20", 20, true},
		{"within the bounds", "3", 5, false},
		{"not set", "", 5, false},
	} {
		res := mustRead(t, Input{Manifests: deployment("web", tt.replicas, "{requests: {cpu: 500m, memory: 1Gi}}", "") + "---\n" + hpa})
		w := workload(t, res, "web")
		if w.Replicas != nil || deref(w.MinReplicas) != 2 || deref(w.MaxReplicas) != tt.wantMax {
			t.Errorf("%s: replicas %v min %d max %d, want 2 to %d", tt.name, w.Replicas, deref(w.MinReplicas), deref(w.MaxReplicas), tt.wantMax)
		}
		if got := hasWarning(res, WarnReplicasAboveMax, "web"); got != tt.warned || tt.warned && !strings.Contains(warningText(res, WarnReplicasAboveMax), "remove replicas from the manifest") {
			t.Errorf("%s: warning %v (%q), want %v", tt.name, got, warningText(res, WarnReplicasAboveMax), tt.warned)
		}
	}
}
