package workloads

import (
	"fmt"
	"maps"
	"strings"
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

// TestReadPodsOfUnlistedOwners checks pods whose controller is not among the manifests (kubectl get deploy,pods
// lists no ReplicaSets): a ReplicaSet's pod whose ReplicaSet name less its pod-template-hash is a listed
// Deployment is that Deployment's, not counted again; any other is its own load; a DaemonSet's pod is never a
// workload of its own, whether its DaemonSet is listed or not.
func TestReadPodsOfUnlistedOwners(t *testing.T) {
	pod := func(name, ns, hash, ownerKind, owner string) string {
		s := "apiVersion: v1\nkind: Pod\nmetadata:\n  name: " + name + "\n  namespace: " + ns + "\n"
		if hash != "" {
			s += "  labels: {app: web, pod-template-hash: " + hash + "}\n"
		}
		s += "  ownerReferences: [{apiVersion: apps/v1, kind: " + ownerKind + ", name: " + owner + ", uid: u, controller: true}]\n" +
			"spec:\n  nodeName: node-1\n  containers: [{name: c, image: x, resources: {requests: {cpu: 100m, memory: 64Mi}}}]\nstatus: {phase: Running}\n"
		return s
	}
	web := strings.Replace(deployment("web", "2", "{requests: {cpu: 100m, memory: 64Mi}}", ""), "  name: web\n", "  name: web\n  namespace: shop\n", 1)
	ds := "apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: agent, namespace: kube-system%s}\nspec:\n  selector: {matchLabels: {app: a}}\n  template:\n    metadata: {labels: {app: a}}\n" +
		"    spec:\n      containers: [{name: a, image: a, resources: {requests: {cpu: 50m, memory: 64Mi}}}]\n"
	tests := []struct {
		name          string
		docs          []string
		wantWorkloads map[string]int // name → replicas
		wantSkipped   map[string]string
	}{
		{"kubectl get deploy,pods: the pods are the Deployment's",
			[]string{web, pod("web-7c9f8b6d4f-x1", "shop", "7c9f8b6d4f", "ReplicaSet", "web-7c9f8b6d4f"), pod("web-7c9f8b6d4f-x2", "shop", "7c9f8b6d4f", "ReplicaSet", "web-7c9f8b6d4f"),
				pod("agent-abcde", "kube-system", "", "DaemonSet", "agent")},
			map[string]int{"web": 2},
			map[string]string{"web-7c9f8b6d4f-x1": `owned by Deployment "web" (through its ReplicaSet "web-7c9f8b6d4f", not listed), which is read instead`,
				"agent-abcde": `a pod of DaemonSet "agent": a DaemonSet runs one pod per matching node`}},
		{"no Deployment of that name: the pod is load", []string{pod("api-5d4f-x1", "shop", "5d4f", "ReplicaSet", "api-5d4f")}, map[string]int{"api-5d4f-x1": 1}, nil},
		{"the Deployment in another namespace: the pod is load", []string{web, pod("web-7c9f-x1", "other", "7c9f", "ReplicaSet", "web-7c9f")}, map[string]int{"web": 2, "web-7c9f-x1": 1}, nil},
		{"no pod-template-hash label: the pod is load", []string{web, pod("web-7c9f-x1", "shop", "", "ReplicaSet", "web-7c9f")}, map[string]int{"web": 2, "web-7c9f-x1": 1}, nil},
		{"a listed DaemonSet's pod", []string{fmt.Sprintf(ds, ""), pod("agent-abcde", "kube-system", "", "DaemonSet", "agent")}, map[string]int{},
			map[string]string{"agent-abcde": `owned by DaemonSet "agent", which is read instead`}},
		{"a DaemonSet that is a Helm hook: its pod is still no workload", []string{fmt.Sprintf(ds, ", annotations: {helm.sh/hook: test}"), pod("agent-abcde", "kube-system", "", "DaemonSet", "agent")}, map[string]int{},
			map[string]string{"agent-abcde": `a pod of DaemonSet "agent"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := mustRead(t, Input{Manifests: strings.Join(tt.docs, "---\n")})
			got := map[string]int{}
			for _, w := range res.Workloads {
				got[w.Name] = deref(w.Replicas)
			}
			if fmt.Sprint(got) != fmt.Sprint(tt.wantWorkloads) {
				t.Errorf("workloads %v, want %v", got, tt.wantWorkloads)
			}
			reasons := map[string]string{}
			for _, s := range res.Skipped {
				reasons[s.Source.Name] = s.Reason
			}
			for name, want := range tt.wantSkipped {
				if !strings.Contains(reasons[name], want) {
					t.Errorf("%s skipped with %q, want %q", name, reasons[name], want)
				}
			}
		})
	}
}

// TestReadFractionalExtendedResource checks that an extended resource's request or limit that is not a whole
// number (nvidia.com/gpu: 0.5), which the API server refuses (ValidateResourceQuantityValue, run on a Deployment's
// pod template by ValidatePodTemplateSpec), is an error on the Deployment, and a refused pod for a custom kind, whose
// template only its controller's pods carry; never rounded up silently.
func TestReadFractionalExtendedResource(t *testing.T) {
	rollout := "apiVersion: argoproj.io/v1alpha1\nkind: Rollout\nmetadata: {name: w}\nspec:\n  replicas: 1\n  template:\n    spec:\n" +
		"      containers: [{name: app, image: x, resources: %s}]\n"
	tests := []struct {
		name, manifests, wantErr, wantWarn string
	}{
		{"a fractional GPU limit", deployment("w", "1", `{limits: {nvidia.com/gpu: "0.5"}, requests: {cpu: "1", memory: 1Gi}}`, ""),
			`container "app" limit of nvidia.com/gpu 500m, which must be a whole number for an extended resource; the API server refuses the Deployment itself`, ""},
		{"a fractional device request", deployment("w", "1", `{requests: {cpu: "1", memory: 1Gi, example.com/dev: 1500m}, limits: {example.com/dev: 1500m}}`, ""),
			`container "app" requests example.com/dev 1500m, which must be a whole number`, ""},
		{"whole GPUs are admitted", deployment("w", "1", `{limits: {nvidia.com/gpu: 1}, requests: {cpu: "1", memory: 1Gi}}`, ""), "", ""},
		{"a custom kind's pods are refused", fmt.Sprintf(rollout, `{limits: {nvidia.com/gpu: "0.5"}, requests: {cpu: "1", memory: 1Gi}}`), "",
			`container "app" limit of nvidia.com/gpu 500m, which must be a whole number for an extended resource`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := Read(Input{Manifests: tt.manifests})
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Errorf("error %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("Read: %v", err)
			}
			var msg string
			for _, w := range res.Warnings {
				if w.Code == WarnPodRefused {
					msg = w.Message
				}
			}
			if tt.wantWarn == "" && msg != "" || !strings.Contains(msg, tt.wantWarn) {
				t.Errorf("refused-pod warning %q, want %q", msg, tt.wantWarn)
			}
		})
	}
}

// TestReadSuspendedJobs checks that a suspended Job or CronJob keeps its pods counted (a queue such as Kueue
// resumes it when it admits it: the safe side) and that its derivation says so.
func TestReadSuspendedJobs(t *testing.T) {
	job := "apiVersion: batch/v1\nkind: Job\nmetadata: {name: j}\nspec:\n  suspend: %s\n  parallelism: 10\n  template:\n    spec:\n      restartPolicy: Never\n" +
		"      containers: [{name: c, image: c, resources: {requests: {cpu: 100m}}}]\n"
	cron := "apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: j}\nspec:\n  schedule: \"* * * * *\"\n  concurrencyPolicy: Forbid\n  suspend: %s\n  jobTemplate:\n    spec:\n      parallelism: 4\n" +
		"      template:\n        spec:\n          restartPolicy: Never\n          containers: [{name: c, image: c, resources: {requests: {cpu: 100m}}}]\n"
	tests := []struct {
		name     string
		doc      string
		want     int
		wantNote string // "" for no suspend note
	}{
		{"suspended Job", fmt.Sprintf(job, "true"), 10, "suspend: true: the Job controller creates no pods until it is resumed (a queue such as Kueue resumes it on admission); counted as if it runs, the safe side"},
		{"running Job", fmt.Sprintf(job, "false"), 10, ""},
		{"suspended CronJob", fmt.Sprintf(cron, "true"), 4, "CronJob suspend: true: no new runs start until it is resumed; one run is counted, the safe side"},
		{"running CronJob", fmt.Sprintf(cron, "false"), 4, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := workload(t, mustRead(t, Input{Manifests: tt.doc}), "j")
			if deref(w.Replicas) != tt.want {
				t.Errorf("replicas %d, want %d", deref(w.Replicas), tt.want)
			}
			all := strings.Join(w.Pod.Derivation, "|")
			if tt.wantNote == "" && strings.Contains(all, "suspend") || !strings.Contains(all, tt.wantNote) {
				t.Errorf("derivation %q, want %q", w.Pod.Derivation, tt.wantNote)
			}
		})
	}
}

// TestReadAMDGPUIsItsOwnResource: amd.com/gpu is not nvidia.com/gpu (each device plugin advertises its own
// resource; ROCm/k8s-device-plugin: "Exposes AMD GPUs as amd.com/gpu resources"), so it is carried among the
// extended requests, for sizing to place only where nodes offer it; before, it was counted as an NVIDIA GPU and
// such a pod "fit" NVIDIA nodes. MIG and Neuron requests are carried the same way.
func TestReadAMDGPUIsItsOwnResource(t *testing.T) {
	doc := deployment("amd", "2", `{limits: {amd.com/gpu: 1, nvidia.com/mig-1g.10gb: 2, hugepages-2Mi: 64Mi}, requests: {cpu: "1", memory: 1Gi}}`, "")
	w := workload(t, mustRead(t, Input{Manifests: doc}), "amd")
	if w.Requests.GPU != 0 {
		t.Errorf("nvidia.com/gpu %d, want 0", w.Requests.GPU)
	}
	want := map[string]int64{"amd.com/gpu": 1, "nvidia.com/mig-1g.10gb": 2, "hugepages-2Mi": 64 << 20}
	if !maps.Equal(w.Extended, want) {
		t.Errorf("extended %v, want %v", w.Extended, want)
	}
}
