package workloads

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
)

// deployment returns a Deployment document with one container and the given extra pod-spec YAML (indented
// for the pod spec, 6 spaces).
func deployment(name, replicas, resources, podSpec string) string {
	s := "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: " + name + "\nspec:\n"
	if replicas != "" {
		s += "  replicas: " + replicas + "\n"
	}
	s += "  selector: {matchLabels: {app: " + name + "}}\n  template:\n    metadata:\n      labels: {app: " + name + "}\n    spec:\n" +
		"      containers:\n      - name: app\n        image: app\n"
	if resources != "" {
		s += "        resources: " + resources + "\n"
	}
	return s + podSpec
}

func mustRead(t *testing.T, in Input) Result {
	t.Helper()
	res, err := Read(in)
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	return res
}

func workload(t *testing.T, res Result, name string) Workload {
	t.Helper()
	for _, w := range res.Workloads {
		if w.Name == name {
			return w
		}
	}
	t.Fatalf("no workload %q in %d workloads", name, len(res.Workloads))
	return Workload{}
}

func deref(p *int) int {
	if p == nil {
		return -1
	}
	return *p
}

func TestReadKinds(t *testing.T) {
	m := strings.Join([]string{
		deployment("web", "3", "{requests: {cpu: 250m, memory: 256Mi}}", "") + "  strategy: {rollingUpdate: {maxSurge: 1}}\n",
		`apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  replicas: 2
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      containers: [{name: db, image: pg, resources: {requests: {cpu: "1", memory: 2Gi}}}]
  volumeClaimTemplates:
  - metadata: {name: data}
    spec: {accessModes: [ReadWriteOnce], storageClassName: gp3, resources: {requests: {storage: 20Gi}}}`,
		`apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent}
spec:
  selector: {matchLabels: {app: agent}}
  template:
    metadata: {labels: {app: agent}}
    spec:
      nodeSelector: {kubernetes.io/os: linux}
      containers: [{name: a, image: a, resources: {requests: {cpu: 50m, memory: 64Mi}}}]`,
		`apiVersion: batch/v1
kind: Job
metadata: {name: batch}
spec:
  parallelism: 4
  completions: 2
  template:
    spec:
      restartPolicy: Never
      containers: [{name: j, image: j, resources: {requests: {cpu: 100m}}}]`,
		`apiVersion: v1
kind: Pod
metadata: {name: lone}
spec:
  containers: [{name: p, image: p, resources: {requests: {cpu: 10m, memory: 10Mi}}}]`,
		`apiVersion: apps/v1
kind: ReplicaSet
metadata:
  name: web-abc
  ownerReferences: [{apiVersion: apps/v1, kind: Deployment, name: web, uid: u, controller: true}]
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: app, image: app}]`,
		`apiVersion: argoproj.io/v1alpha1
kind: Rollout
metadata: {name: canary}
spec:
  replicas: 4
  strategy: {blueGreen: {activeService: canary}}
  template:
    spec:
      containers: [{name: c, image: c, resources: {requests: {cpu: 100m, memory: 100Mi}}}]`,
		"apiVersion: v1\nkind: Service\nmetadata: {name: web}\nspec: {ports: [{port: 80}]}",
		"apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\nspec: {size: 3}",
	}, "\n---\n")
	res := mustRead(t, Input{Manifests: m, Namespace: "shop"})

	web := workload(t, res, "web")
	if deref(web.Replicas) != 3 || web.MaxSurge != (fit.IntOrPercent{Value: 1}) || web.Requests.CPUMillicores != 250 || web.Requests.MemoryBytes != 256<<20 {
		t.Errorf("web = replicas %d surge %+v requests %+v", deref(web.Replicas), web.MaxSurge, web.Requests)
	}
	if web.Source.Namespace != "shop" || web.Source.Kind != "Deployment" || web.Source.Document != 0 || web.Source.Line != 1 {
		t.Errorf("web source = %+v", web.Source)
	}
	db := workload(t, res, "db")
	if deref(db.Replicas) != 2 || db.MaxSurge.Value != 0 || len(db.Pod.VolumeClaims) != 1 {
		t.Fatalf("db = replicas %d surge %+v claims %+v", deref(db.Replicas), db.MaxSurge, db.Pod.VolumeClaims)
	}
	if c := db.Pod.VolumeClaims[0]; c.Name != "data" || c.SizeBytes != 20<<30 || c.StorageClass != "gp3" || c.AccessModes[0] != "ReadWriteOnce" || c.From != "volumeClaimTemplates" {
		t.Errorf("db claim = %+v", c)
	}
	if j := workload(t, res, "batch"); deref(j.Replicas) != 2 {
		t.Errorf("job pods = %d, want min(parallelism 4, completions 2) = 2", deref(j.Replicas))
	}
	if p := workload(t, res, "lone"); deref(p.Replicas) != 1 || p.Requests.CPUMillicores != 10 {
		t.Errorf("pod = %d %+v", deref(p.Replicas), p.Requests)
	}
	if r := workload(t, res, "canary"); deref(r.Replicas) != 4 || r.MaxSurge != (fit.IntOrPercent{Value: 100, Percent: true}) {
		t.Errorf("rollout = %d %+v", deref(r.Replicas), r.MaxSurge)
	}
	if len(res.Workloads) != 5 {
		t.Errorf("%d workloads, want 5 (the owned ReplicaSet is read through its Deployment)", len(res.Workloads))
	}
	if len(res.DaemonSets) != 1 || res.DaemonSets[0].Name != "agent" || res.DaemonSets[0].NodeSelector["kubernetes.io/os"] != "linux" || res.DaemonSets[0].Requests.CPUMillicores != 50 {
		t.Errorf("daemonsets = %+v", res.DaemonSets)
	}
	reasons := map[string]string{}
	for _, s := range res.Skipped {
		reasons[s.Source.Kind+"/"+s.Source.Name] = s.Reason
	}
	for k, want := range map[string]string{"ReplicaSet/web-abc": "owned by Deployment", "Service/web": "not a pod-owning kind", "Widget/w": "without a pod template"} {
		if !strings.Contains(reasons[k], want) {
			t.Errorf("skipped %s: reason %q, want it to contain %q", k, reasons[k], want)
		}
	}
	if hasWarning(res, WarnCustomKind, "canary") {
		t.Errorf("a custom-kind warning for the Rollout, which kubefit models: %+v", res.Warnings)
	}
}

func hasWarning(res Result, code, name string) bool {
	for _, w := range res.Warnings {
		if w.Code == code && w.Source.Name == name {
			return true
		}
	}
	return false
}

func TestReadRequests(t *testing.T) {
	tests := []struct {
		name     string
		docs     string
		wantCPU  int64
		wantMem  int64
		wantGPU  int64
		wantWarn string
	}{
		{"limits only: requests default to limits", deployment("w", "", "{limits: {cpu: 500m, memory: 1Gi}}", ""), 500, 1 << 30, 0, ""},
		{"requests win over limits", deployment("w", "", "{requests: {cpu: 100m}, limits: {cpu: 500m, memory: 1Gi}}", ""), 100, 1 << 30, 0, ""},
		{"init container larger than the app",
			deployment("w", "", "{requests: {cpu: 100m, memory: 100Mi}}", "      initContainers:\n      - {name: init, image: i, resources: {requests: {cpu: \"2\", memory: 50Mi}}}\n"), 2000, 100 << 20, 0, ""},
		{"sidecar adds to the app and to later init containers",
			deployment("w", "", "{requests: {cpu: 100m, memory: 100Mi}}", "      initContainers:\n"+
				"      - {name: side, image: s, restartPolicy: Always, resources: {requests: {cpu: 50m, memory: 10Mi}}}\n"+
				"      - {name: init, image: i, resources: {requests: {cpu: 120m, memory: 10Mi}}}\n"), 170, 110 << 20, 0, ""},
		{"LimitRange defaults fill missing requests",
			deployment("w", "", "{requests: {cpu: 100m}}", "") + "\n---\napiVersion: v1\nkind: LimitRange\nmetadata: {name: lr}\nspec:\n  limits:\n  - {type: Container, default: {memory: 512Mi}, defaultRequest: {cpu: 300m}}",
			100, 512 << 20, 0, ""},
		{"LimitRange in another namespace does not apply",
			deployment("w", "", "{requests: {cpu: 100m}}", "") + "\n---\napiVersion: v1\nkind: LimitRange\nmetadata: {name: lr, namespace: other}\nspec:\n  limits:\n  - {type: Container, defaultRequest: {memory: 1Gi}}",
			100, 0, 0, ""},
		{"two LimitRanges defaulting one resource: the larger, with a warning",
			deployment("w", "", "{requests: {memory: 1Gi}}", "") + "\n---\napiVersion: v1\nkind: LimitRange\nmetadata: {name: b}\nspec:\n  limits:\n  - {type: Container, defaultRequest: {cpu: 100m}}" +
				"\n---\napiVersion: v1\nkind: LimitRange\nmetadata: {name: a}\nspec:\n  limits:\n  - {type: Container, defaultRequest: {cpu: 300m}}",
			300, 1 << 30, 0, WarnLimitrangeConflict},
		{"RuntimeClass overhead is added",
			deployment("w", "", "{requests: {cpu: 100m, memory: 100Mi}}", "      runtimeClassName: kata\n") + "\n---\napiVersion: node.k8s.io/v1\nkind: RuntimeClass\nmetadata: {name: kata}\nhandler: kata\noverhead: {podFixed: {cpu: 250m, memory: 160Mi}}",
			350, 260 << 20, 0, ""},
		{"missing RuntimeClass warns", deployment("w", "", "{requests: {cpu: 100m, memory: 100Mi}}", "      runtimeClassName: kata\n"), 100, 100 << 20, 0, WarnRuntimeClass},
		{"pod-level limits give the pod's request",
			deployment("w", "", "", "      resources: {limits: {cpu: \"1\", memory: 2Gi}}\n"), 1000, 2 << 30, 0, ""},
		{"GPUs are counted", deployment("w", "", "{limits: {nvidia.com/gpu: 2}, requests: {cpu: \"1\", memory: 1Gi}}", ""), 1000, 1 << 30, 2, ""},
		{"hugepages are carried and warned about", deployment("w", "", "{limits: {hugepages-2Mi: 64Mi, memory: 1Gi}, requests: {cpu: \"1\"}}", ""), 1000, 1 << 30, 0, WarnExtendedResource},
		{"no requests warns", deployment("w", "", "", ""), 0, 0, 0, WarnNoRequests},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := mustRead(t, Input{Manifests: tt.docs})
			w := workload(t, res, "w")
			if r := w.Requests; r.CPUMillicores != tt.wantCPU || r.MemoryBytes != tt.wantMem || r.GPU != tt.wantGPU {
				t.Errorf("requests = %+v, want cpu %d memory %d gpu %d (derivation %q)", r, tt.wantCPU, tt.wantMem, tt.wantGPU, w.Pod.Derivation)
			}
			if w.Pod.Requests != w.Requests {
				t.Errorf("Pod.Requests %+v differs from the workload's requests %+v", w.Pod.Requests, w.Requests)
			}
			if tt.wantWarn != "" && !hasWarning(res, tt.wantWarn, "w") && !hasWarning(res, tt.wantWarn, "") {
				t.Errorf("no %s warning in %+v", tt.wantWarn, res.Warnings)
			}
			if tt.wantWarn == "" && len(res.Warnings) > 0 {
				t.Errorf("unexpected warnings %+v", res.Warnings)
			}
		})
	}
}

func TestReadAutoscalers(t *testing.T) {
	hpa := func(name, target, min string, max int) string {
		s := "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: " + name + "}\nspec:\n  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: " + target + "}\n"
		if min != "" {
			s += "  minReplicas: " + min + "\n"
		}
		return s + "  maxReplicas: " + itoa(max) + "\n"
	}
	so := "apiVersion: keda.sh/v1alpha1\nkind: ScaledObject\nmetadata: {name: so}\nspec:\n  scaleTargetRef: {name: queue}\n  triggers: [{type: kafka, metadata: {topic: orders}}]\n"
	web := deployment("web", "7", "{requests: {cpu: 100m, memory: 100Mi}}", "")
	queue := deployment("queue", "", "{requests: {cpu: 100m, memory: 100Mi}}", "")

	res := mustRead(t, Input{Manifests: web + "---\n" + hpa("web", "web", "", 9) + "---\n" + queue + "---\n" + so})
	w := workload(t, res, "web")
	if w.Replicas != nil || deref(w.MinReplicas) != 1 || deref(w.MaxReplicas) != 9 || w.Autoscaler == nil || w.Autoscaler.Kind != "HorizontalPodAutoscaler" {
		t.Errorf("web = replicas %v min %d max %d autoscaler %+v, want min 1 (the HPA default) max 9", w.Replicas, deref(w.MinReplicas), deref(w.MaxReplicas), w.Autoscaler)
	}
	q := workload(t, res, "queue")
	if deref(q.MinReplicas) != 0 || deref(q.MaxReplicas) != 100 {
		t.Errorf("queue = min %d max %d, want KEDA's defaults 0 and 100", deref(q.MinReplicas), deref(q.MaxReplicas))
	}

	// A Deployment scaled to 0 under an HPA: the HPA controller leaves it at 0 (ScalingDisabled) until it is scaled
	// up; the plan is for then, and the derivation says so rather than that the field is ignored.
	parked := deployment("parked", "0", "{requests: {cpu: 100m, memory: 100Mi}}", "")
	res = mustRead(t, Input{Manifests: parked + "---\n" + hpa("parked", "parked", "2", 10)})
	p := workload(t, res, "parked")
	if deref(p.MinReplicas) != 2 || deref(p.MaxReplicas) != 10 || len(p.Pod.Derivation) == 0 ||
		!strings.Contains(p.Pod.Derivation[0], "the HPA controller leaves it at 0 (scaling disabled) until it is scaled up") {
		t.Errorf("parked = min %d max %d, derivation %q", deref(p.MinReplicas), deref(p.MaxReplicas), p.Pod.Derivation)
	}
	if d := workload(t, mustRead(t, Input{Manifests: web + "---\n" + hpa("web", "web", "", 9)}), "web").Pod.Derivation; !strings.Contains(d[0], "its replicas field is ignored") {
		t.Errorf("web's derivation %q", d)
	}

	res = mustRead(t, Input{Manifests: hpa("ghost", "nowhere", "2", 4)})
	if !hasWarning(res, WarnAutoscalerTargetMissing, "ghost") {
		t.Errorf("no warning for an HPA without target: %+v", res.Warnings)
	}

	for _, tt := range []struct{ name, docs, want string }{
		{"min above max", web + "---\n" + hpa("web", "web", "5", 3), `minimum replica count 5 is above the maximum 3`},
		{"a ScaledObject and an HPA", queue + "---\n" + so + "---\n" + hpa("q", "queue", "1", 3), `both scale Deployment "queue"; KEDA's admission webhook refuses a ScaledObject whose target another autoscaler already scales ("the workload ... is already managed by the hpa ...")`},
		{"two ScaledObjects", queue + "---\n" + so + "---\n" + strings.Replace(so, "{name: so}", "{name: so2}", 1), `is already managed by the ScaledObject ...`},
		{"max zero", web + "---\n" + hpa("web", "web", "", 0), `spec.maxReplicas is not set or 0; the API server requires at least 1`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Read(Input{Manifests: tt.docs})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want it to contain %q", err, tt.want)
			}
			if es := field.As(err); len(es) != 1 || es[0].Path.String() != "Manifests" {
				t.Errorf("errors = %+v, want one on Manifests", es)
			}
		})
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestReadTwoHPAs: two HPAs on one target are valid input (the API server admits both), but the HPA controller
// scales with neither (AmbiguousSelector), so the workload is planned steady at its replicas field and at most the
// largest of it and both maxima (deleting one re-enables the other), with a warning naming both; each HPA is
// skipped as disabled, and no autoscaler is said to scale the workload.
func TestReadTwoHPAs(t *testing.T) {
	hpa := func(name string, min, max int) string {
		return "---\napiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: " + name + "}\nspec:\n  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: twohpa}\n" +
			"  minReplicas: " + itoa(min) + "\n  maxReplicas: " + itoa(max) + "\n"
	}
	for _, tt := range []struct {
		name, replicas string
		steady, peak   int
	}{
		{"maxima above the replicas field", "5", 5, 20},
		{"replicas field above both maxima", "30", 30, 30},
		// Each HPA still raises the target to its minReplicas (reconcileAutoscaler clamps before it reads metrics).
		{"replicas field not set: 1, raised to the largest minimum", "", 3, 20},
		{"replicas field 0: autoscaling disabled", "0", 0, 20},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res := mustRead(t, Input{Manifests: deployment("twohpa", tt.replicas, "{requests: {cpu: 100m}}", "") + hpa("th-a", 2, 4) + hpa("th-b", 3, 20)})
			w := workload(t, res, "twohpa")
			if w.Replicas != nil || deref(w.MinReplicas) != tt.steady || deref(w.MaxReplicas) != tt.peak || w.Autoscaler != nil {
				t.Errorf("replicas %d min %d max %d autoscaler %+v, want steady %d, peak %d and no autoscaler", deref(w.Replicas), deref(w.MinReplicas), deref(w.MaxReplicas), w.Autoscaler, tt.steady, tt.peak)
			}
			if len(w.Pod.Derivation) == 0 || !strings.Contains(w.Pod.Derivation[0], `HorizontalPodAutoscalers "th-a" and "th-b" both scale it, so the HPA controller scales with none by metrics (AmbiguousSelector)`) {
				t.Errorf("derivation %q", w.Pod.Derivation)
			}
			var msg string
			for _, x := range res.Warnings {
				if x.Code == WarnAutoscalerAmbiguous && x.Source.Name == "twohpa" {
					msg = x.Message
				}
			}
			for _, want := range []string{`"th-a" and "th-b" both scale it`, "reason AmbiguousSelector", "so it runs its replicas field", "deleting all but one re-enables that one",
				fmt.Sprintf("steady at %d and at most %d", tt.steady, tt.peak)} {
				if !strings.Contains(msg, want) {
					t.Errorf("warning %q, want %q", msg, want)
				}
			}
			var skipped int
			for _, s := range res.Skipped {
				if s.Source.Kind == "HorizontalPodAutoscaler" && strings.HasPrefix(s.Reason, "disabled: HorizontalPodAutoscalers \"th-a\" and \"th-b\" both scale Deployment \"twohpa\"") {
					skipped++
				}
			}
			if skipped != 2 {
				t.Errorf("skipped %+v, want both HPAs skipped as disabled", res.Skipped)
			}
		})
	}
}

func TestReadErrors(t *testing.T) {
	tests := []struct{ name, docs, want string }{
		{"not YAML, with its document and line", deployment("a", "", "", "") + "---\nkind: Pod\nmetadata: {name: [x\n", `document 1 of the manifests (line 15) is not valid YAML`},
		{"not an object", "- a\n- b\n", `is not a Kubernetes object`},
		{"no kind", "apiVersion: v1\nmetadata: {name: x}\n", `has no kind`},
		{"bad quantity names the container and field", deployment("a", "", "{requests: {cpu: lots}}", ""), `container "app", spec.template.spec.containers[0].resources.requests.cpu is "lots"`},
		{"duplicate object", deployment("a", "", "", "") + "---\n" + deployment("a", "", "", ""), `Deployment "a" in namespace "default" (document 1, line 15) is listed twice (also document 0 of the manifests (line 1))`},
		{"negative replicas", deployment("a", "-1", "", ""), `asks for -1 replicas`},
		{"old apiVersion", strings.Replace(deployment("a", "", "", ""), "apps/v1", "apps/v1beta2", 1), `uses apiVersion apps/v1beta2, which Kubernetes stopped serving in 1.16; write apiVersion apps/v1`},
		{"HPA version removed in 1.26", "apiVersion: autoscaling/v2beta2\nkind: HorizontalPodAutoscaler\nmetadata: {name: h}\nspec: {scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: a}, maxReplicas: 3}\n",
			`has apiVersion autoscaling/v2beta2 and kind HorizontalPodAutoscaler, which Kubernetes stopped serving in 1.26: kubectl apply refuses it`},
		{"bad maxSurge", deployment("a", "", "", "") + "  strategy: {rollingUpdate: {maxSurge: lots}}\n", `maxSurge "lots" is neither a count nor a percentage`},
		{"too many documents", strings.Repeat("a: 1\n---\n", MaxDocuments+1), `more than 100,000 documents`},
		{"too large", strings.Repeat("#", MaxBytes+1), `the manifests are 67,108,865 bytes, more than the 67,108,864 bytes kubefit reads`},
		{"a field of the wrong type names the kind, name and field", strings.Replace(deployment("a", "", "", ""), "spec:\n", "spec:\n  replicas: three\n", 1),
			`Deployment "a" (document 0, line 1) does not decode as apps/v1 Deployment: the value at spec.replicas has the wrong type`},
		{"no name", "apiVersion: v1\nkind: Pod\nmetadata: {}\nspec: {containers: [{name: c, image: c}]}\n", `has no metadata.name or metadata.generateName`},
		{"a List item names its index", "apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: ConfigMap, metadata: {name: a}}\n- {apiVersion: v1, kind: Pod, metadata: {name: p}, spec: {containers: [{name: c, resources: {requests: {cpu: lots}}}]}}\n",
			`Pod "p" (item 1 of the List in document 0): container "c", spec.containers[0].resources.requests.cpu is "lots"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Read(Input{Manifests: tt.docs})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v\nwant it to contain %q", err, tt.want)
			}
			es := field.As(err)
			if len(es) != 1 || es[0].Path.String() != "Manifests" {
				t.Errorf("errors = %v, want exactly one on Manifests", err)
			}
		})
	}
}

func TestReadUnknownFields(t *testing.T) {
	doc := strings.Replace(deployment("w", "1", "{requests: {cpu: 100m, memory: 100Mi}}", ""), "        image: app\n", "        image: app\n        imagePullPolcy: Always\n", 1)
	res := mustRead(t, Input{Manifests: doc})
	if !hasWarning(res, WarnUnknownField, "w") {
		t.Fatalf("no unknown-field warning: %+v", res.Warnings)
	}
	if !strings.Contains(res.Warnings[0].Message, "imagePullPolcy") {
		t.Errorf("warning %q does not name the field", res.Warnings[0].Message)
	}
	if w := workload(t, res, "w"); w.Requests.CPUMillicores != 100 {
		t.Errorf("the object was not read despite the unknown field: %+v", w.Requests)
	}
}

func TestReadConstraints(t *testing.T) {
	aff := func(s string) string { return "      affinity:\n" + s }
	tests := []struct {
		name       string
		podSpec    string
		wantSpread fit.Spread
		wantSel    map[string]string
		unmodelled string
	}{
		{"required hostname anti-affinity on its own pods is spread = node",
			aff("        podAntiAffinity:\n          requiredDuringSchedulingIgnoredDuringExecution:\n          - {topologyKey: kubernetes.io/hostname, labelSelector: {matchLabels: {app: w}}}\n"),
			fit.Spread{Type: fit.SpreadNode}, nil, ""},
		{"anti-affinity on other pods becomes pod_anti_affinity",
			aff("        podAntiAffinity:\n          requiredDuringSchedulingIgnoredDuringExecution:\n          - {topologyKey: kubernetes.io/hostname, labelSelector: {matchLabels: {app: other}}}\n"),
			fit.Spread{}, nil, ""},
		{"anti-affinity on the pods' labels in another namespace is no node spread",
			aff("        podAntiAffinity:\n          requiredDuringSchedulingIgnoredDuringExecution:\n          - {topologyKey: kubernetes.io/hostname, namespaces: [monitoring], labelSelector: {matchLabels: {app: w}}}\n"),
			fit.Spread{}, nil, ""},
		{"a namespaceSelector with labels is carried, not modelled",
			aff("        podAffinity:\n          requiredDuringSchedulingIgnoredDuringExecution:\n          - {topologyKey: topology.kubernetes.io/zone, labelSelector: {matchLabels: {app: db}}, namespaceSelector: {matchLabels: {team: a}}}\n"),
			fit.Spread{}, nil, "podAffinity.required"},
		{"zone spread DoNotSchedule is spread = zone",
			"      topologySpreadConstraints:\n      - {maxSkew: 2, topologyKey: topology.kubernetes.io/zone, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels: {app: w}}}\n",
			fit.Spread{Type: fit.SpreadZone, MaxSkew: 2}, nil, ""},
		{"ScheduleAnyway spread becomes topology_spread",
			"      topologySpreadConstraints:\n      - {maxSkew: 1, topologyKey: topology.kubernetes.io/zone, whenUnsatisfiable: ScheduleAnyway, labelSelector: {matchLabels: {app: w}}}\n",
			fit.Spread{}, nil, ""},
		{"required node affinity becomes node_affinity",
			"      nodeSelector: {pool: apps}\n" + aff("        nodeAffinity:\n          requiredDuringSchedulingIgnoredDuringExecution:\n            nodeSelectorTerms:\n            - matchExpressions: [{key: kubernetes.io/arch, operator: NotIn, values: [arm64]}]\n"),
			fit.Spread{}, map[string]string{"pool": "apps"}, ""},
		{"matchFields node affinity is carried",
			aff("        nodeAffinity:\n          requiredDuringSchedulingIgnoredDuringExecution:\n            nodeSelectorTerms:\n            - matchFields: [{key: metadata.name, operator: In, values: [node-1]}]\n"),
			fit.Spread{}, nil, "nodeAffinity.required"},
		{"preferred anti-affinity becomes pod_anti_affinity",
			aff("        podAntiAffinity:\n          preferredDuringSchedulingIgnoredDuringExecution:\n          - weight: 1\n            podAffinityTerm: {topologyKey: kubernetes.io/hostname, labelSelector: {matchLabels: {app: w}}}\n"),
			fit.Spread{}, nil, ""},
		{"preferred node affinity becomes preferred_node_affinity",
			aff("        nodeAffinity:\n          preferredDuringSchedulingIgnoredDuringExecution:\n          - weight: 80\n            preference:\n              matchExpressions: [{key: pool, operator: In, values: [spot]}]\n" +
				"          - weight: 20\n            preference:\n              matchExpressions: [{key: topology.kubernetes.io/zone, operator: NotIn, values: [zone-c]}]\n"),
			fit.Spread{}, nil, ""},
		{"matchFields preferred node affinity is carried",
			aff("        nodeAffinity:\n          preferredDuringSchedulingIgnoredDuringExecution:\n          - weight: 10\n            preference:\n              matchFields: [{key: metadata.name, operator: In, values: [node-1]}]\n"),
			fit.Spread{}, nil, "nodeAffinity.preferred"},
		{"host network makes container ports host ports",
			"      hostNetwork: true\n", fit.Spread{}, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := deployment("w", "2", "{requests: {cpu: 100m, memory: 100Mi}}", tt.podSpec)
			if strings.Contains(tt.podSpec, "hostNetwork") {
				doc = strings.Replace(doc, "        image: app\n", "        image: app\n        ports: [{containerPort: 8080}]\n", 1)
			}
			res := mustRead(t, Input{Manifests: doc})
			w := workload(t, res, "w")
			if w.Spread != tt.wantSpread {
				t.Errorf("spread = %+v, want %+v", w.Spread, tt.wantSpread)
			}
			if len(tt.wantSel) > 0 && !equalMaps(w.NodeSelector, tt.wantSel) {
				t.Errorf("node selector = %v, want %v", w.NodeSelector, tt.wantSel)
			}
			if strings.Contains(tt.name, "host ports") && (len(w.HostPorts) != 1 || w.HostPorts[0] != (fit.HostPort{Port: 8080, Protocol: "TCP"})) {
				t.Errorf("host ports = %+v, want 8080/TCP", w.HostPorts)
			}
			if strings.Contains(tt.name, "anti-affinity on other pods becomes") && (w.PodAffinity == nil || len(w.PodAffinity.AntiRequired) != 1 ||
				w.PodAffinity.AntiRequired[0].TopologyKey != "kubernetes.io/hostname" || w.PodAffinity.AntiRequired[0].Selector.MatchLabels["app"] != "other") {
				t.Errorf("pod affinity = %+v, want the required anti-affinity term", w.PodAffinity)
			}
			if strings.Contains(tt.name, "ScheduleAnyway spread becomes") && (len(w.TopologySpread) != 1 || w.TopologySpread[0].WhenUnsatisfiable != fit.ScheduleAnyway ||
				w.TopologySpread[0].TopologyKey != "topology.kubernetes.io/zone" || w.TopologySpread[0].MaxSkew != 1) {
				t.Errorf("topology spread = %+v, want the ScheduleAnyway zone constraint", w.TopologySpread)
			}
			if strings.Contains(tt.name, "preferred anti-affinity becomes") && (w.PodAffinity == nil || len(w.PodAffinity.AntiPreferred) != 1 || w.PodAffinity.AntiPreferred[0].Weight != 1) {
				t.Errorf("pod affinity = %+v, want the preferred anti-affinity term of weight 1", w.PodAffinity)
			}
			wantPref := "[]"
			if strings.Contains(tt.name, "becomes preferred_node_affinity") {
				wantPref = "[{80 {[{pool In [spot]}]}} {20 {[{topology.kubernetes.io/zone NotIn [zone-c]}]}}]"
			}
			if got := fmt.Sprint(w.PreferredNodeAffinity); got != wantPref {
				t.Errorf("preferred node affinity = %s, want %s", got, wantPref)
			}
			if strings.Contains(tt.name, "becomes node_affinity") {
				if len(w.NodeAffinity) != 1 || fmt.Sprint(w.NodeAffinity[0].MatchExpressions) != "[{kubernetes.io/arch NotIn [arm64]}]" {
					t.Errorf("node affinity = %+v, want the NotIn term", w.NodeAffinity)
				}
			}
			warned := hasWarning(res, WarnUnmodelledConstraint, "w")
			if (tt.unmodelled != "") != warned {
				t.Errorf("unmodelled-constraint warning = %v, want %v (%+v)", warned, tt.unmodelled != "", res.Warnings)
			}
			for _, c := range w.Pod.Constraints {
				if c.Spec == "" || c.As == "" {
					t.Errorf("constraint %+v carries no spec or explanation", c)
				}
				if !c.Modelled && c.Type != tt.unmodelled {
					t.Errorf("constraint %s unmodelled, want only %q", c.Type, tt.unmodelled)
				}
			}
		})
	}
}

func equalMaps(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

func TestReadFiltersOverridesNames(t *testing.T) {
	m := deployment("web", "2", "{requests: {cpu: 100m, memory: 100Mi}}", "") + "---\n" +
		strings.Replace(deployment("web", "1", "{requests: {cpu: 100m, memory: 100Mi}}", ""), "  name: web\n", "  name: web\n  namespace: other\n  labels: {tier: edge}\n", 1) + "---\n" +
		deployment("api", "1", "{requests: {cpu: 100m, memory: 100Mi}}", "")
	res := mustRead(t, Input{Manifests: m, Overrides: map[string]Override{"default/web": {ExtraReplicas: 3, CPUUsageMillicores: ptr(int64(40))}}})
	if got := []string{res.Workloads[0].Name, res.Workloads[1].Name, res.Workloads[2].Name}; got[0] != "default/web" || got[1] != "other/web" || got[2] != "api" {
		t.Errorf("names = %v, want default/web, other/web, api (namespaces only where names clash)", got)
	}
	if w := res.Workloads[0]; deref(w.Replicas) != 5 || w.CPUUsageMillicores != 40 ||
		!slices.Contains(w.Pod.Derivation, "overrides: 3 extra replicas, added to the replica count") {
		t.Errorf("override: replicas %d usage %d, derivation %q; want 5, 40 and the extra replicas' step", deref(w.Replicas), w.CPUUsageMillicores, w.Pod.Derivation)
	}
	res = mustRead(t, Input{Manifests: m, Include: []Filter{{Names: []string{"we*"}}}, Exclude: []Filter{{Labels: map[string]string{"tier": "edge"}}}})
	if len(res.Workloads) != 1 || res.Workloads[0].Name != "web" || res.Workloads[0].Source.Namespace != "default" {
		t.Errorf("filtered workloads = %+v, want only default/web (named web)", res.Workloads)
	}
	_, err := Read(Input{Manifests: m, Overrides: map[string]Override{"nope": {}}})
	if es := field.As(err); len(es) != 1 || es[0].Path.String() != `Overrides["nope"]` || !strings.Contains(es[0].Detail, `the names are "api", "default/web", "other/web"`) {
		t.Errorf("unknown override: %v", err)
	}
	if es := ValidateFilters(field.NewPath("Include"), []Filter{{Names: []string{"[x"}}}); len(es) != 1 || es[0].Path.String() != "Include[0].Names[0]" {
		t.Errorf("bad pattern: %v", es)
	}
}

func ptr[T any](v T) *T { return &v }

// TestReadFixtures reads rendered charts of real projects (testdata/charts/*/SOURCE.md says how each was
// rendered) and checks what their values files set: autoscaler bounds, claims, disruption budgets,
// hooks. The effective requests are checked against the API server's own defaulting and
// component-helpers in the oracle module (internal/planner/fit/oracle).
func TestReadFixtures(t *testing.T) {
	read := func(chart string) Result {
		b, err := os.ReadFile("testdata/charts/" + chart + "/rendered.yaml")
		if err != nil {
			t.Fatal(err)
		}
		return mustRead(t, Input{Manifests: string(b), Namespace: chart})
	}
	ing := read("ingress-nginx")
	c := workload(t, ing, "ingress-nginx-controller")
	if deref(c.MinReplicas) != 2 || deref(c.MaxReplicas) != 11 || c.DisruptionBudget == nil || c.DisruptionBudget.MinAvailable != "1" {
		t.Errorf("controller: min %d max %d pdb %+v, want the values' HPA 2–11 and minAvailable 1", deref(c.MinReplicas), deref(c.MaxReplicas), c.DisruptionBudget)
	}
	hooks := 0
	for _, s := range ing.Skipped {
		if strings.HasPrefix(s.Reason, "Helm hook") {
			hooks++
		}
	}
	if hooks != 2 || len(ing.Workloads) != 1 {
		t.Errorf("%d hook Jobs skipped and %d workloads, want the 2 admission Jobs skipped and 1 workload", hooks, len(ing.Workloads))
	}
	if with := mustRead(t, Input{Manifests: mustFile(t, "ingress-nginx"), Namespace: "ingress-nginx", IncludeHelmHooks: true}); len(with.Workloads) != 3 {
		t.Errorf("with hooks: %d workloads, want 3", len(with.Workloads))
	}

	pg := read("postgresql")
	for name, size := range map[string]int64{"postgresql-primary": 20 << 30, "postgresql-read": 10 << 30} {
		w := workload(t, pg, name)
		if len(w.Pod.VolumeClaims) != 1 || w.Pod.VolumeClaims[0].SizeBytes != size || w.DisruptionBudget == nil || w.DisruptionBudget.MaxUnavailable != "1" {
			t.Errorf("%s: claims %+v pdb %+v, want one claim of %d bytes and maxUnavailable 1", name, w.Pod.VolumeClaims, w.DisruptionBudget, size)
		}
	}
	if r := workload(t, pg, "postgresql-read"); deref(r.Replicas) != 2 {
		t.Errorf("read replicas = %d, want the values' 2", deref(r.Replicas))
	}

	argo := read("argo-cd")
	if s := workload(t, argo, "argocd-server"); deref(s.MinReplicas) != 2 || deref(s.MaxReplicas) != 5 {
		t.Errorf("argocd-server: min %d max %d, want the values' HPA 2–5", deref(s.MinReplicas), deref(s.MaxReplicas))
	}
	// Every constraint in a fixture is modelled or warned about: none is dropped.
	for _, res := range []Result{ing, pg, argo} {
		for _, w := range res.Workloads {
			for _, c := range w.Pod.Constraints {
				if !c.Modelled && !hasWarning(res, WarnUnmodelledConstraint, w.Source.Name) {
					t.Errorf("%s: constraint %s neither modelled nor warned about", w.Name, c.Type)
				}
			}
		}
	}
}

func mustFile(t *testing.T, chart string) string {
	b, err := os.ReadFile("testdata/charts/" + chart + "/rendered.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestQuickAgreesWithFullDecode checks the metadata-only fast path against the full YAML decode on every
// document of the fixtures and on hand-made edge cases: same kind, version, name, namespace and labels,
// and never taken for a document that must be read in full.
func TestQuickAgreesWithFullDecode(t *testing.T) {
	var docs []document
	for _, c := range []string{"ingress-nginx", "postgresql", "argo-cd"} {
		d, err := split(mustFile(t, c), OriginManifests)
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, d...)
	}
	for _, s := range []string{
		"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  labels: {x: \"1\"}\ndata:\n  k: v\n",
		"apiVersion: \"v1\"\nkind: 'Secret'\nmetadata:\n  name: s\n  namespace: n # comment\n",
		"kind: Role\napiVersion: rbac.authorization.k8s.io/v1\nmetadata: {name: flow}\nrules:\n- apiGroups: [\"\"]\n",
		"apiVersion: example.com/v1\nkind: Thing\nmetadata:\n  name: t\nspec:\n  template:\n    spec: {containers: []}\n",
		"apiVersion: v1\nkind: ServiceList\nitems: []\n",
		"apiVersion: v1\nkind: Service\nmetadata: &m\n  name: x\n",
		"apiVersion: v1\nkind: Service\nmetadata:\n  name: a\nspec: {}\nmetadata:\n  name: b\n",
		"apiVersion: example.com/v1\nkind: Thing\nmetadata: {name: t}\nspec: {\"template\": {spec: {containers: []}}}\n",
		"apiVersion: v1\nkind: Service#x\nmetadata: {name: s}\n",
	} {
		docs = append(docs, document{data: []byte(s), line: 1})
	}
	taken := 0
	for i, d := range docs {
		if checkQuick(t, d, i) {
			taken++
		}
	}
	if taken < len(docs)/2 {
		t.Errorf("quick read only %d of %d documents", taken, len(docs))
	}
}

// TestReadHostileInputs reads inputs built to make a YAML parser work without end (an alias bomb, deep
// nesting) and checks each ends in one input error on Manifests.
func TestReadHostileInputs(t *testing.T) {
	bomb := "a: &a [\"x\",\"x\",\"x\",\"x\",\"x\",\"x\",\"x\",\"x\",\"x\"]\n"
	prev := "a"
	for i := 0; i < 9; i++ {
		n := string(rune('b' + i))
		bomb += n + ": &" + n + " [" + strings.Repeat("*"+prev+",", 8) + "*" + prev + "]\n"
		prev = n
	}
	for name, m := range map[string]string{
		"alias bomb":      bomb,
		"deep flow lists": strings.Repeat("[", 10000),
		"deep sequences":  strings.Repeat("- ", 5000) + "x",
		"deep mappings":   strings.Repeat("{a: ", 5000),
	} {
		t.Run(name, func(t *testing.T) {
			_, err := Read(Input{Manifests: m})
			if es := field.As(err); len(es) != 1 || es[0].Path.String() != "Manifests" {
				t.Fatalf("err = %v, want one error on Manifests", err)
			}
		})
	}
}

// checkQuick compares the metadata-only path with the full decode on one document and reports whether
// the fast path took it: what it takes must decode in full (when it is valid YAML) to the same kind,
// version, name, namespace, labels and annotations, and must be neither a kind that is read nor a custom
// kind with a pod template.
func checkQuick(t *testing.T, d document, i int) bool {
	t.Helper()
	q, ok := quick(d, Source{Document: i})
	if !ok {
		return false
	}
	j, err := toJSON(d, Source{Document: i, Line: d.line})
	if err != nil {
		// Documented leniency: of a kind that is not read, only the metadata is parsed, so a syntax error
		// elsewhere in it is not reported (it does not change the plan).
		return true
	}
	full, err := decode(j, Source{Document: i})
	if err != nil || len(full.objects) != 1 {
		t.Fatalf("document %d: quick took a document the full decode refuses (%v)\n%s", i, err, d.data)
	}
	f := full.objects[0]
	if f.typed != nil && readKinds[f.src.Kind] {
		t.Errorf("document %d (%s): quick took a kind that must be read in full", i, f.src.Kind)
	}
	if f.u != nil && (hasField(f.u.Object, "spec", "template", "spec") || f.src.Kind == "ScaledObject") {
		t.Errorf("document %d (%s): quick took a custom kind with a pod template", i, f.src.Kind)
	}
	if q.src != f.src || !equalMaps(q.meta.GetLabels(), f.meta.GetLabels()) || !equalMaps(q.meta.GetAnnotations(), f.meta.GetAnnotations()) {
		t.Errorf("document %d: quick %+v %v, full %+v %v\n%s", i, q.src, q.meta.GetLabels(), f.src, f.meta.GetLabels(), d.data)
	}
	return true
}

// TestReadEdgeCases covers what a review found: an owner that is not read leaves its children read,
// autoscalers in both the manifests and the snapshot, KEDA's own HPA, empty PDB selectors, sidecar host
// ports, paused ScaledObjects, and two generated names.
func TestReadEdgeCases(t *testing.T) {
	rs := func(owner string) string {
		return "apiVersion: apps/v1\nkind: ReplicaSet\nmetadata:\n  name: rs\n  ownerReferences: [{apiVersion: example.com/v1, kind: Workflow, name: " + owner + ", uid: u, controller: true}]\n" +
			"spec:\n  replicas: 2\n  selector: {matchLabels: {app: rs}}\n  template:\n    metadata: {labels: {app: rs}}\n    spec:\n      containers: [{name: c, image: c, resources: {requests: {cpu: 100m, memory: 100Mi}}}]\n"
	}
	wf := "apiVersion: example.com/v1\nkind: Workflow\nmetadata: {name: wf}\nspec: {steps: 3}\n"
	res := mustRead(t, Input{Manifests: rs("wf") + "---\n" + wf})
	if w := workload(t, res, "rs"); deref(w.Replicas) != 2 {
		t.Errorf("a ReplicaSet of a custom kind that is not read was dropped: %+v", res.Workloads)
	}

	web := deployment("web", "", "{requests: {cpu: 100m, memory: 100Mi}}", "")
	hpa := func(max int, extra string) string {
		return "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: web" + extra + "}\nspec:\n  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}\n  minReplicas: 2\n  maxReplicas: " + itoa(max) + "\n"
	}
	res = mustRead(t, Input{Manifests: web + "---\n" + hpa(9, ""), Cluster: hpa(5, "")})
	if w := workload(t, res, "web"); deref(w.MaxReplicas) != 9 {
		t.Errorf("max = %d, want the manifests' HPA (9) over the running one (5)", deref(w.MaxReplicas))
	}
	kedaHPA := strings.Replace(hpa(50, "-keda"), "metadata: {name: web-keda}", "metadata:\n  name: web-keda\n  ownerReferences: [{apiVersion: keda.sh/v1alpha1, kind: ScaledObject, name: web, uid: u, controller: true}]", 1)
	so := "apiVersion: keda.sh/v1alpha1\nkind: ScaledObject\nmetadata:\n  name: web\n  annotations: {autoscaling.keda.sh/paused-replicas: \"40\"}\nspec:\n  scaleTargetRef: {name: web}\n  maxReplicaCount: 20\n  triggers: [{type: kafka, metadata: {topic: orders}}]\n"
	res = mustRead(t, Input{Manifests: web + "---\n" + so + "---\n" + kedaHPA})
	if w := workload(t, res, "web"); deref(w.MaxReplicas) != 40 {
		t.Errorf("max = %d, want the paused count 40 (above maxReplicaCount 20), KEDA's own HPA not counted", deref(w.MaxReplicas))
	}

	pdb := "apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: all}\nspec:\n  maxUnavailable: 1\n  selector: {}\n"
	if w := workload(t, mustRead(t, Input{Manifests: web + "---\n" + pdb}), "web"); w.DisruptionBudget == nil {
		t.Errorf("an empty PDB selector selects every pod of its namespace")
	}

	ports := deployment("p", "2", "{requests: {cpu: 100m, memory: 100Mi}}",
		"      initContainers:\n      - {name: once, image: i, ports: [{containerPort: 9000, hostPort: 9000}]}\n"+
			"      - {name: side, image: s, restartPolicy: Always, ports: [{containerPort: 9100, hostPort: 9100, hostIP: 0.0.0.0}]}\n")
	if w := workload(t, mustRead(t, Input{Manifests: ports}), "p"); len(w.HostPorts) != 1 || w.HostPorts[0] != (fit.HostPort{Port: 9100, Protocol: "TCP"}) {
		t.Errorf("host ports = %+v, want only the sidecar's 9100/TCP on every address", w.HostPorts)
	}

	job := "apiVersion: batch/v1\nkind: Job\nmetadata: {generateName: migrate-}\nspec:\n  template:\n    spec:\n      restartPolicy: Never\n      containers: [{name: c, image: c, resources: {requests: {cpu: 100m}}}]\n"
	res = mustRead(t, Input{Manifests: job + "---\n" + job})
	if len(res.Workloads) != 2 || res.Workloads[0].Name == res.Workloads[1].Name {
		t.Errorf("two Jobs with one generateName: names %q, %q, want two distinct", res.Workloads[0].Name, res.Workloads[len(res.Workloads)-1].Name)
	}
}
