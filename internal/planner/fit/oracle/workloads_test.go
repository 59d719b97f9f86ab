package oracle

// TestWorkloads checks the manifest reader (internal/planner/workloads) against the API server's own
// code: every document is decoded with k8s.io/kubernetes's legacyscheme and defaulted by it
// (SetObjectDefaults_*), the controller's pod is built from the pod template and defaulted as a Pod
// (SetDefaults_Pod: requests from limits), the real LimitRanger mutation (PodMutateLimitFunc) and the
// real RuntimeClass admission plugin run on the internal Pod, PrepareForCreate's pod-level request
// defaulting (podutil.DefaultPodLevelResources, under PodLevelResourcesFixDefaulting, on by default in
// v1.37) follows, and k8s.io/component-helpers/resource.PodRequests gives the figure the scheduler uses.
// The LimitRanger validation and the Pod create validation are run too, so the test pods are pods the
// API server would admit.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	nodev1 "k8s.io/api/node/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/apiserver/pkg/admission"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	resourcehelper "k8s.io/component-helpers/resource"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	podutil "k8s.io/kubernetes/pkg/api/pod"
	"k8s.io/kubernetes/pkg/apis/apps"
	_ "k8s.io/kubernetes/pkg/apis/apps/install"
	appsvalidation "k8s.io/kubernetes/pkg/apis/apps/validation"
	_ "k8s.io/kubernetes/pkg/apis/autoscaling/install"
	_ "k8s.io/kubernetes/pkg/apis/batch/install"
	api "k8s.io/kubernetes/pkg/apis/core"
	_ "k8s.io/kubernetes/pkg/apis/core/install"
	corevalidation "k8s.io/kubernetes/pkg/apis/core/validation"
	_ "k8s.io/kubernetes/pkg/apis/node/install"
	_ "k8s.io/kubernetes/pkg/apis/scheduling/install"
	"k8s.io/kubernetes/pkg/features"
	"k8s.io/kubernetes/plugin/pkg/admission/limitranger"
	"k8s.io/kubernetes/plugin/pkg/admission/runtimeclass"
	"sigs.k8s.io/yaml"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/workloads"
)

const wlHelmHook = "helm.sh/hook"

// wlSynthetic covers what the charts do not: LimitRanges (default, defaultRequest, max, min; a Pod item),
// a RuntimeClass with overhead, pod-level limits only, init containers with limits only, native sidecars,
// Jobs, a CronJob, a ReplicationController, a ReplicaSet, a bare Pod, a DaemonSet, an HPA with minReplicas
// unset, a Recreate Deployment and Helm hooks. Namespaces: synthetic (the input's), synthetic-b, plain (no
// LimitRange).
const wlSynthetic = `
apiVersion: v1
kind: LimitRange
metadata: {name: b-storage, namespace: synthetic}
spec:
  limits:
  - type: Container
    defaultRequest: {ephemeral-storage: 1Gi}
  - type: Pod
    max: {cpu: "8"}
---
apiVersion: v1
kind: LimitRange
metadata: {name: a-container}
spec:
  limits:
  - type: Container
    default: {cpu: 500m}
    defaultRequest: {cpu: 100m}
    max: {cpu: "2", memory: 1Gi}
    min: {cpu: 10m}
---
apiVersion: v1
kind: LimitRange
metadata: {name: min-only, namespace: synthetic-b}
spec:
  limits:
  - type: Container
    min: {cpu: 50m, memory: 64Mi}
---
apiVersion: node.k8s.io/v1
kind: RuntimeClass
metadata: {name: kata}
handler: kata
overhead:
  podFixed: {cpu: 250m, memory: 160Mi}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 3
  strategy:
    rollingUpdate: {maxSurge: 2}
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      runtimeClassName: kata
      initContainers:
      - name: proxy
        image: envoy
        restartPolicy: Always
        resources: {requests: {cpu: 100m, memory: 64Mi}}
      - name: init-limits
        image: busybox
        resources: {limits: {cpu: "1", memory: 512Mi}}
      containers:
      - name: app
        image: nginx
        resources: {requests: {cpu: 200m, memory: 128Mi}, limits: {memory: 256Mi}}
      - name: helper
        image: busybox
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: api, namespace: synthetic-b}
spec:
  strategy: {type: Recreate}
  selector: {matchLabels: {app: api}}
  template:
    metadata: {labels: {app: api}}
    spec:
      initContainers:
      - name: migrate-schema
        image: busybox
        resources: {limits: {cpu: 300m}}
      containers:
      - name: api
        image: api
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: api, namespace: synthetic-b}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: api}
  maxReplicas: 4
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: percent, namespace: plain}
spec:
  replicas: 7
  strategy:
    rollingUpdate: {maxSurge: 30%, maxUnavailable: 0}
  selector: {matchLabels: {app: percent}}
  template:
    metadata: {labels: {app: percent}}
    spec:
      containers:
      - name: c
        image: c
        resources: {requests: {cpu: 150m, memory: 1G}}
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db, namespace: plain}
spec:
  replicas: 2
  serviceName: db
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      resources: {limits: {cpu: "2", memory: 1Gi}}
      containers:
      - name: db
        image: postgres
        resources: {requests: {cpu: 100m, ephemeral-storage: 500Mi}}
      - name: exporter
        image: exporter
---
apiVersion: apps/v1
kind: ReplicaSet
metadata: {name: plr}
spec:
  selector: {matchLabels: {app: plr}}
  template:
    metadata: {labels: {app: plr}}
    spec:
      resources: {limits: {cpu: "1", memory: 2Gi}}
      containers:
      - name: c
        image: c
---
apiVersion: batch/v1
kind: Job
metadata: {name: batch, namespace: plain}
spec:
  parallelism: 5
  completions: 3
  template:
    spec:
      restartPolicy: Never
      containers:
      - name: work
        image: work
        resources: {limits: {cpu: 300m, memory: 100Mi}}
---
apiVersion: batch/v1
kind: Job
metadata: {name: queue, namespace: plain}
spec:
  parallelism: 4
  template:
    spec:
      restartPolicy: OnFailure
      containers:
      - name: work
        image: work
        resources: {requests: {cpu: "1"}}
---
apiVersion: batch/v1
kind: CronJob
metadata: {name: nightly, namespace: plain}
spec:
  schedule: "0 3 * * *"
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: OnFailure
          initContainers:
          - name: fetch
            image: fetch
            resources: {limits: {memory: 1Gi}}
          containers:
          - name: report
            image: report
            resources: {requests: {cpu: 250m, memory: 256Mi}}
---
apiVersion: v1
kind: ReplicationController
metadata: {name: legacy, namespace: plain}
spec:
  replicas: 2
  template:
    metadata: {labels: {app: legacy}}
    spec:
      containers:
      - name: legacy
        image: legacy
        resources: {limits: {cpu: 200m, memory: 64Mi, ephemeral-storage: 1Gi}}
---
apiVersion: v1
kind: Pod
metadata: {name: solo, namespace: synthetic-b}
spec:
  containers:
  - name: solo
    image: solo
    resources: {limits: {memory: 256Mi}}
---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent}
spec:
  selector: {matchLabels: {app: agent}}
  updateStrategy:
    rollingUpdate: {maxSurge: 1, maxUnavailable: 0}
  template:
    metadata: {labels: {app: agent}}
    spec:
      initContainers:
      - name: logs
        image: logs
        restartPolicy: Always
        resources: {requests: {cpu: 50m}}
      containers:
      - name: agent
        image: agent
        resources: {limits: {cpu: 100m, memory: 128Mi}}
---
apiVersion: batch/v1
kind: Job
metadata:
  name: migrate
  annotations: {"helm.sh/hook": pre-install}
spec:
  template:
    spec:
      restartPolicy: Never
      containers:
      - name: migrate
        image: migrate
        resources: {requests: {cpu: 400m}}
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: hook-config
  annotations: {"helm.sh/hook": pre-install}
data: {a: b}
`

func TestWorkloads(t *testing.T) {
	type fixture struct{ name, ns, manifests string }
	var fixtures []fixture
	for _, c := range []string{"ingress-nginx", "postgresql", "argo-cd"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "workloads", "testdata", "charts", c, "rendered.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		fixtures = append(fixtures, fixture{c, c, string(b)})
	}
	fixtures = append(fixtures, fixture{"synthetic", "synthetic", wlSynthetic}, fixture{"refused", "refused", wlRefused})

	for _, f := range fixtures {
		t.Run(f.name, func(t *testing.T) {
			res, err := workloads.Read(workloads.Input{Manifests: f.manifests, Namespace: f.ns})
			if err != nil {
				t.Fatalf("workloads.Read: %v", err)
			}
			o := wlNewOracle(t, f.manifests, f.ns)
			wlCompare(t, o, res)
			refused := wlRefusals(t, o, res)
			if f.name != "refused" && refused > 0 {
				t.Errorf("%d of the fixture's objects have pods the API server would refuse", refused)
			}
			if f.name == "refused" && refused != 7 {
				t.Errorf("%d of the refused fixture's objects are refused, want 7", refused)
			}
			if f.name == "synthetic" {
				wlSensitivity(t, o)
			}
		})
	}
}

// TestWorkloadsRefusedObjects: the reader refuses (an error naming it) exactly the Deployments the API server's own
// Deployment validation refuses, as the registry runs it on create (pkg/registry/apps/deployment strategy.go:
// ValidateDeployment with the template's pod validation options), and reads the others.
func TestWorkloadsRefusedObjects(t *testing.T) {
	_, err := workloads.Read(workloads.Input{Manifests: wlRefusedObjects})
	dec := legacyscheme.Codecs.UniversalDeserializer()
	refused := 0
	for i, doc := range wlDocs(t, wlRefusedObjects) {
		obj, _, derr := dec.Decode(doc, nil, nil)
		if derr != nil {
			t.Fatalf("document %d: %v", i, derr)
		}
		legacyscheme.Scheme.Default(obj)
		var d apps.Deployment
		if err := legacyscheme.Scheme.Convert(obj, &d, nil); err != nil {
			t.Fatal(err)
		}
		el := appsvalidation.ValidateDeployment(&d, podutil.GetValidationOptionsFromPodTemplate(&d.Spec.Template, nil))
		named := err != nil && strings.Contains(err.Error(), fmt.Sprintf("Deployment %q", d.Name))
		if (len(el) > 0) != named {
			t.Errorf("Deployment %s: the API server's validation says %v; the reader's error names it: %v (%v)", d.Name, el.ToAggregate(), named, err)
		}
		if len(el) > 0 {
			refused++
		}
	}
	if refused != 3 {
		t.Errorf("%d Deployments refused by the API server, want 3", refused)
	}
}

// wlKey names an object as workloads.Source does.
type wlKey struct{ kind, ns, name string }

func (k wlKey) String() string { return k.kind + " " + k.ns + "/" + k.name }

// wlOwner is one pod-owning object as the API server and its controller see it.
type wlOwner struct {
	key  wlKey
	hook bool
	// pod is the Pod its controller would create (for a bare Pod, the Pod as written), before the API
	// server's Pod defaulting.
	pod *corev1.Pod
	// replicas is the defaulted pod count (nil for a DaemonSet); surge the defaulted Deployment maxSurge
	// (nil for other kinds and for Recreate); dsSurge a DaemonSet's defaulted maxSurge.
	replicas *int
	surge    *intstr.IntOrString
	recreate bool
	dsSurge  *intstr.IntOrString
	// requests is the oracle's effective request with no step skipped.
	requests fit.Resources
	// refused holds why the API server would refuse its pod (LimitRanger's validation, the create validation).
	refused []error
}

type wlOracle struct {
	ns     string
	owners []*wlOwner
	hpas   []*autoscalingv2.HorizontalPodAutoscaler
	hooks  []wlKey
	// hookHasNS records whether a hook object named its namespace (else it may be cluster-scoped).
	hookHasNS   map[wlKey]bool
	limitRanges map[string][]*corev1.LimitRange
	rcAdmission *runtimeclass.RuntimeClass
}

// wlSkip switches off one step of the oracle, to show the fixtures depend on it.
type wlSkip struct {
	initContainers, sidecars, limits, limitRanges, runtimeClass, podLevel bool
	// before136 runs the pod-level defaulting as Kubernetes 1.34–1.36 do: in SetDefaults_Pod, before
	// admission (the PodLevelResourcesFixDefaulting gate off), not in PrepareForCreate.
	before136 bool
}

func wlNewOracle(t *testing.T, manifests, ns string) *wlOracle {
	t.Helper()
	o := &wlOracle{ns: ns, limitRanges: map[string][]*corev1.LimitRange{}, hookHasNS: map[wlKey]bool{}}
	var runtimeClasses []runtime.Object
	dec := legacyscheme.Codecs.UniversalDeserializer()
	for i, doc := range wlDocs(t, manifests) {
		var hdr struct {
			Kind     string `json:"kind"`
			Metadata struct {
				Name        string            `json:"name"`
				Namespace   string            `json:"namespace"`
				Annotations map[string]string `json:"annotations"`
			} `json:"metadata"`
		}
		if err := json.Unmarshal(doc, &hdr); err != nil {
			t.Fatalf("document %d: %v", i, err)
		}
		objNS := hdr.Metadata.Namespace
		if objNS == "" {
			objNS = ns
		}
		key := wlKey{hdr.Kind, objNS, hdr.Metadata.Name}
		_, hook := hdr.Metadata.Annotations[wlHelmHook]
		if hook {
			o.hooks = append(o.hooks, key)
			o.hookHasNS[key] = hdr.Metadata.Namespace != ""
		}
		obj, _, err := dec.Decode(doc, nil, nil)
		if runtime.IsNotRegisteredError(err) {
			continue // RBAC, networking, policy …: no pods, nothing to default
		}
		if err != nil {
			t.Fatalf("document %d (%s): decode: %v", i, key, err)
		}
		raw := obj.DeepCopyObject()
		legacyscheme.Scheme.Default(obj)
		ow := &wlOwner{key: key, hook: hook}
		one := func(n *int32) *int { v := int(*n); return &v }
		var tpl *corev1.PodTemplateSpec
		var claims []corev1.PersistentVolumeClaim
		switch x := obj.(type) {
		case *corev1.LimitRange:
			x.Namespace = objNS
			o.limitRanges[objNS] = append(o.limitRanges[objNS], x)
			continue
		case *nodev1.RuntimeClass:
			runtimeClasses = append(runtimeClasses, x)
			continue
		case *autoscalingv2.HorizontalPodAutoscaler:
			x.Namespace = objNS
			o.hpas = append(o.hpas, x)
			continue
		case *appsv1.Deployment:
			tpl, ow.replicas = &x.Spec.Template, one(x.Spec.Replicas)
			if x.Spec.Strategy.Type == appsv1.RecreateDeploymentStrategyType {
				ow.recreate = true
			} else {
				ow.surge = x.Spec.Strategy.RollingUpdate.MaxSurge
			}
		case *appsv1.StatefulSet:
			tpl, ow.replicas = &x.Spec.Template, one(x.Spec.Replicas)
			claims = x.Spec.VolumeClaimTemplates
		case *appsv1.ReplicaSet:
			tpl, ow.replicas = &x.Spec.Template, one(x.Spec.Replicas)
		case *corev1.ReplicationController:
			tpl, ow.replicas = x.Spec.Template, one(x.Spec.Replicas)
		case *appsv1.DaemonSet:
			tpl = &x.Spec.Template
			ow.dsSurge = x.Spec.UpdateStrategy.RollingUpdate.MaxSurge
		case *batchv1.Job:
			tpl, ow.replicas = &x.Spec.Template, wlJobPods(x)
		case *batchv1.CronJob:
			// The CronJob controller creates a Job from the template, which the API server defaults.
			job := &batchv1.Job{ObjectMeta: *x.Spec.JobTemplate.ObjectMeta.DeepCopy(), Spec: *x.Spec.JobTemplate.Spec.DeepCopy()}
			legacyscheme.Scheme.Default(job)
			tpl, ow.replicas = &job.Spec.Template, wlJobPods(job)
		case *corev1.Pod:
			p := raw.(*corev1.Pod) // defaulted as a Pod in requests
			p.Namespace = objNS
			ow.pod, ow.replicas = p, one(ptr[int32](1))
		default:
			continue
		}
		if tpl != nil {
			// The controller's pod: the template's metadata and spec, then the API server's Pod defaulting.
			p := &corev1.Pod{ObjectMeta: *tpl.ObjectMeta.DeepCopy(), Spec: *tpl.Spec.DeepCopy()}
			p.Namespace, p.Name = objNS, key.name+"-0"
			// The StatefulSet controller's updateStorage: a volume per claim template (for validation only;
			// volumes do not change requests).
			for _, c := range claims {
				p.Spec.Volumes = slices.DeleteFunc(p.Spec.Volumes, func(v corev1.Volume) bool { return v.Name == c.Name })
				p.Spec.Volumes = append(p.Spec.Volumes, corev1.Volume{Name: c.Name, VolumeSource: corev1.VolumeSource{
					PersistentVolumeClaim: &corev1.PersistentVolumeClaimVolumeSource{ClaimName: c.Name + "-" + p.Name}}})
			}
			ow.pod = p
		}
		o.owners = append(o.owners, ow)
	}
	for _, lrs := range o.limitRanges {
		sort.Slice(lrs, func(i, j int) bool { return lrs[i].Name < lrs[j].Name })
	}

	// The real RuntimeClass admission plugin, reading RuntimeClasses from an informer over a fake client.
	client := fake.NewSimpleClientset(runtimeClasses...) //nolint:staticcheck // the plain tracker is enough here
	factory := informers.NewSharedInformerFactory(client, 0)
	o.rcAdmission = runtimeclass.NewRuntimeClass()
	o.rcAdmission.SetExternalKubeClientSet(client)
	o.rcAdmission.SetExternalKubeInformerFactory(factory)
	if err := o.rcAdmission.ValidateInitialization(); err != nil {
		t.Fatal(err)
	}
	for _, rc := range runtimeClasses {
		if err := factory.Node().V1().RuntimeClasses().Informer().GetIndexer().Add(rc); err != nil {
			t.Fatal(err)
		}
	}

	for _, ow := range o.owners {
		r, errs := o.requests(ow, wlSkip{}, true)
		ow.refused = errs
		// The reader does not know the cluster's release, so it plans the larger of the 1.37 and the
		// 1.34–1.36 defaulting orders; the oracle runs both with the API server's own code.
		early, _ := o.requests(ow, wlSkip{before136: true}, false)
		r.CPUMillicores, r.MemoryBytes = max(r.CPUMillicores, early.CPUMillicores), max(r.MemoryBytes, early.MemoryBytes)
		r.EphemeralStorageBytes, r.GPU = max(r.EphemeralStorageBytes, early.EphemeralStorageBytes), max(r.GPU, early.GPU)
		ow.requests = r
	}
	return o
}

// wlJobPods is the Job controller's first batch of pods: parallelism, at most completions.
func wlJobPods(j *batchv1.Job) *int {
	n := int(*j.Spec.Parallelism)
	if c := j.Spec.Completions; c != nil && int(*c) < n {
		n = int(*c)
	}
	return &n
}

// requests runs the pod through admission and create as the API server does and returns PodRequests.
// With validate it also returns the reasons the API server would refuse the pod.
func (o *wlOracle) requests(ow *wlOwner, skip wlSkip, validate bool) (fit.Resources, []error) {
	v1pod := ow.pod.DeepCopy()
	v1pod.Spec.InitContainers = slices.DeleteFunc(v1pod.Spec.InitContainers, func(c corev1.Container) bool {
		sidecar := c.RestartPolicy != nil && *c.RestartPolicy == corev1.ContainerRestartPolicyAlways
		return sidecar && skip.sidecars || !sidecar && skip.initContainers
	})
	if skip.limits {
		for _, cs := range [][]corev1.Container{v1pod.Spec.InitContainers, v1pod.Spec.Containers} {
			for i := range cs {
				cs[i].Resources.Limits = nil
			}
		}
	}
	if skip.podLevel {
		v1pod.Spec.Resources = nil
	}
	// The API server's Pod defaulting (SetObjectDefaults_Pod: SetDefaults_Pod copies limits to requests).
	if skip.before136 {
		if err := utilfeature.DefaultMutableFeatureGate.SetFromMap(map[string]bool{string(features.PodLevelResourcesFixDefaulting): false}); err != nil {
			return fit.Resources{}, []error{err}
		}
	}
	legacyscheme.Scheme.Default(v1pod)
	if skip.before136 {
		if err := utilfeature.DefaultMutableFeatureGate.SetFromMap(map[string]bool{string(features.PodLevelResourcesFixDefaulting): true}); err != nil {
			return fit.Resources{}, []error{err}
		}
	}
	var errs []error
	ip := &api.Pod{}
	if err := legacyscheme.Scheme.Convert(v1pod, ip, nil); err != nil {
		return fit.Resources{}, []error{err}
	}
	// Mutating admission, in kube-apiserver's order: LimitRanger, then RuntimeClass.
	lrs := o.limitRanges[v1pod.Namespace]
	if !skip.limitRanges {
		for _, lr := range lrs {
			if err := limitranger.PodMutateLimitFunc(lr, ip); err != nil {
				errs = append(errs, err)
			}
		}
	}
	if !skip.runtimeClass {
		attrs := admission.NewAttributesRecord(ip, nil, api.Kind("Pod").WithVersion("version"), ip.Namespace, ip.Name,
			api.Resource("pods").WithVersion("version"), "", admission.Create, &metav1.CreateOptions{}, false, nil)
		if err := o.rcAdmission.Admit(context.Background(), attrs, nil); err != nil {
			errs = append(errs, err)
		}
	}
	// PrepareForCreate (pkg/registry/core/pod podStrategy): pod-level resource defaulting (1.37).
	if !skip.before136 {
		podutil.DefaultPodLevelResources(ip)
	}
	if validate {
		// Validating admission and create validation, after PrepareForCreate.
		for _, lr := range lrs {
			if err := limitranger.PodValidateLimitFunc(lr, ip); err != nil {
				errs = append(errs, fmt.Errorf("LimitRange %s: %w", lr.Name, err))
			}
		}
		opts := podutil.GetValidationOptionsFromPodSpecAndMeta(&ip.Spec, nil, &ip.ObjectMeta, nil)
		opts.ResourceIsPod = true
		if el := corevalidation.ValidatePodCreate(ip, opts); len(el) > 0 {
			errs = append(errs, el.ToAggregate())
		}
	}
	out := &corev1.Pod{}
	if err := legacyscheme.Scheme.Convert(ip, out, nil); err != nil {
		return fit.Resources{}, append(errs, err)
	}
	l := resourcehelper.PodRequests(out, resourcehelper.PodResourcesOptions{})
	gpu := l["nvidia.com/gpu"]
	amd := l["amd.com/gpu"]
	return fit.Resources{CPUMillicores: l.Cpu().MilliValue(), MemoryBytes: l.Memory().Value(),
		EphemeralStorageBytes: l.StorageEphemeral().Value(), GPU: gpu.Value() + amd.Value()}, errs
}

// wlDocs splits YAML into JSON documents, dropping empty ones.
func wlDocs(t *testing.T, manifests string) [][]byte {
	t.Helper()
	r := utilyaml.NewYAMLReader(bufio.NewReader(strings.NewReader(manifests)))
	var out [][]byte
	for {
		b, err := r.Read()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		j, err := yaml.YAMLToJSON(b)
		if err != nil {
			t.Fatal(err)
		}
		if j = bytes.TrimSpace(j); len(j) == 0 || string(j) == "null" {
			continue
		}
		out = append(out, j)
	}
}

func wlRes(r fit.Resources) string {
	return fmt.Sprintf("cpu %dm, memory %d, ephemeral-storage %d, gpu %d", r.CPUMillicores, r.MemoryBytes, r.EphemeralStorageBytes, r.GPU)
}

func wlInt(p *int) string {
	if p == nil {
		return "nil"
	}
	return strconv.Itoa(*p)
}

// wlSurge is an upstream maxSurge as the planner writes it.
func wlSurge(v *intstr.IntOrString) fit.IntOrPercent {
	if v.Type == intstr.Int {
		return fit.IntOrPercent{Value: int(v.IntVal)}
	}
	n, _ := strconv.Atoi(strings.TrimSuffix(v.StrVal, "%"))
	return fit.IntOrPercent{Value: n, Percent: true}
}

func wlCompare(t *testing.T, o *wlOracle, res workloads.Result) {
	owners := map[wlKey]*wlOwner{}
	for _, ow := range o.owners {
		owners[ow.key] = ow
	}
	hpaOf := map[wlKey]*autoscalingv2.HorizontalPodAutoscaler{}
	for _, h := range o.hpas {
		hpaOf[wlKey{h.Spec.ScaleTargetRef.Kind, h.Namespace, h.Spec.ScaleTargetRef.Name}] = h
	}
	seen := map[wlKey]bool{}
	check := func(src workloads.Source, got fit.Resources) *wlOwner {
		k := wlKey{src.Kind, src.Namespace, src.Name}
		seen[k] = true
		ow := owners[k]
		if ow == nil {
			t.Errorf("%s: read as a workload, but the oracle has no such pod-owning object", k)
			return nil
		}
		if ow.hook {
			t.Errorf("%s: a Helm hook, read as a workload", k)
		}
		if got != ow.requests {
			t.Errorf("%s: pod requests: reader %s, oracle %s", k, wlRes(got), wlRes(ow.requests))
		}
		return ow
	}
	for _, w := range res.Workloads {
		ow := check(w.Source, w.Pod.Requests)
		if w.Requests != w.Pod.Requests {
			t.Errorf("%s: Workload.Requests %s differ from Pod.Requests %s", ow.key, wlRes(w.Requests), wlRes(w.Pod.Requests))
		}
		if ow == nil {
			continue
		}
		if ow.replicas == nil {
			t.Errorf("%s: read as a workload, but the oracle has it as a DaemonSet", ow.key)
			continue
		}
		if h := hpaOf[ow.key]; h != nil {
			lo, hi := int(*h.Spec.MinReplicas), int(h.Spec.MaxReplicas)
			if w.Replicas != nil || w.MinReplicas == nil || w.MaxReplicas == nil || *w.MinReplicas != lo || *w.MaxReplicas != hi {
				t.Errorf("%s: replicas: reader fixed %s, min %s, max %s; oracle (HPA %s) min %d, max %d",
					ow.key, wlInt(w.Replicas), wlInt(w.MinReplicas), wlInt(w.MaxReplicas), h.Name, lo, hi)
			}
			if w.Autoscaler == nil || w.Autoscaler.Name != h.Name || w.Autoscaler.MinReplicas != lo || w.Autoscaler.MaxReplicas != hi {
				t.Errorf("%s: Autoscaler: reader %+v, oracle HPA %s min %d max %d", ow.key, w.Autoscaler, h.Name, lo, hi)
			}
		} else if w.Replicas == nil || *w.Replicas != *ow.replicas || w.MinReplicas != nil || w.MaxReplicas != nil {
			t.Errorf("%s: replicas: reader fixed %s (min %s, max %s), oracle %d", ow.key, wlInt(w.Replicas), wlInt(w.MinReplicas), wlInt(w.MaxReplicas), *ow.replicas)
		}
		var want fit.IntOrPercent // no surge: Recreate, and every kind but Deployment
		if ow.surge != nil {
			want = wlSurge(ow.surge)
			// The Deployment controller's resolution (deployment/util.ResolveFenceposts: round up).
			for total := 0; total <= 40; total++ {
				up, err := intstr.GetScaledValueFromIntOrPercent(ow.surge, total, true)
				if err != nil {
					t.Errorf("%s: maxSurge %s: %v", ow.key, ow.surge.String(), err)
					break
				}
				if got := w.MaxSurge.Resolve(total); got != up {
					t.Errorf("%s: maxSurge %s for %d replicas: reader %d, controller %d", ow.key, ow.surge.String(), total, got, up)
					break
				}
			}
		}
		if w.MaxSurge != want {
			t.Errorf("%s: maxSurge: reader %+v, oracle %+v (strategy recreate=%v)", ow.key, w.MaxSurge, want, ow.recreate)
		}
	}
	for _, d := range res.DaemonSets {
		ow := check(d.Source, d.Pod.Requests)
		if d.Requests != d.Pod.Requests {
			t.Errorf("%s: DaemonSet.Requests %s differ from Pod.Requests %s", d.Source.Name, wlRes(d.Requests), wlRes(d.Pod.Requests))
		}
		if ow == nil {
			continue
		}
		if ow.replicas != nil {
			t.Errorf("%s: read as a DaemonSet, but the oracle has it as a workload", ow.key)
			continue
		}
		want := ""
		if n, err := intstr.GetScaledValueFromIntOrPercent(ow.dsSurge, 100, true); err != nil || n != 0 {
			want = ow.dsSurge.String()
		}
		if d.MaxSurge != want {
			t.Errorf("%s: DaemonSet maxSurge: reader %q, oracle %q", ow.key, d.MaxSurge, want)
		}
	}
	for _, ow := range o.owners {
		if !ow.hook && !seen[ow.key] {
			t.Errorf("%s: a pod-owning object the reader did not read as a workload or DaemonSet (oracle requests %s)", ow.key, wlRes(ow.requests))
		}
	}
	// Helm hooks: skipped, never read.
	for _, h := range o.hooks {
		found := false
		for _, s := range res.Skipped {
			if s.Source.Kind == h.kind && s.Source.Name == h.name && (s.Source.Namespace == h.ns || !o.hookHasNS[h] && s.Source.Namespace == "") {
				found = true
				break
			}
		}
		if !found {
			t.Errorf("%s: a Helm hook, not in Skipped", h)
		}
		if seen[h] {
			t.Errorf("%s: a Helm hook, read as a workload or DaemonSet", h)
		}
	}
	t.Logf("%d workloads, %d DaemonSets, %d skipped, %d Helm hooks, %d HPAs checked", len(res.Workloads), len(res.DaemonSets), len(res.Skipped), len(o.hooks), len(o.hpas))
	for _, ow := range o.owners {
		t.Logf("  %s: %s", ow.key, wlRes(ow.requests))
	}
}

// wlSensitivity shows the synthetic fixture can catch a reader that skips a step: with each step of
// the oracle switched off, some non-hook workload's request changes, and the reader (checked equal to
// the full oracle above) would then disagree with the oracle.
func wlSensitivity(t *testing.T, o *wlOracle) {
	for _, c := range []struct {
		name string
		skip wlSkip
	}{
		{"init containers ignored", wlSkip{initContainers: true}},
		{"native sidecars ignored", wlSkip{sidecars: true}},
		{"limits not standing in for requests", wlSkip{limits: true}},
		{"LimitRanges ignored", wlSkip{limitRanges: true}},
		{"RuntimeClass overhead ignored", wlSkip{runtimeClass: true}},
		{"pod-level resources ignored", wlSkip{podLevel: true}},
	} {
		var changed []string
		for _, ow := range o.owners {
			if ow.hook {
				continue
			}
			r, _ := o.requests(ow, c.skip, false)
			if r != ow.requests {
				changed = append(changed, fmt.Sprintf("%s (%s instead of %s)", ow.key, wlRes(r), wlRes(ow.requests)))
			}
		}
		if len(changed) == 0 {
			t.Errorf("the synthetic manifest does not catch a reader with %s", c.name)
			continue
		}
		t.Logf("a reader with %s would fail on: %s", c.name, strings.Join(changed, "; "))
	}
}

// wlRefused holds pods the API server refuses, one rule each, beside pods it admits in the same namespaces (a
// container without a memory limit there gets the LimitRange's max, 1Gi, which its ratio then refuses): a
// LimitRange's default limit below a container's request, its min, max and maxLimitRequestRatio on containers, a
// Pod item's max on the containers' totals, a request above its limit, an extended resource whose request is not
// its limit, and pod-level requests below the containers'.
var wlRefused = `
apiVersion: v1
kind: LimitRange
metadata: {name: defaults, namespace: refused}
spec:
  limits:
  - type: Container
    default: {cpu: 200m}
    min: {cpu: 20m}
    max: {memory: 1Gi}
    maxLimitRequestRatio: {memory: "2"}
---
apiVersion: v1
kind: LimitRange
metadata: {name: pod-max, namespace: refused-pod}
spec:
  limits:
  - type: Pod
    max: {cpu: "1"}
---
` + wlDeploy("ok", "refused", "[{name: a, image: x, resources: {requests: {cpu: 100m, memory: 300Mi}, limits: {memory: 500Mi}}}]", "") +
	wlDeploy("over-default-limit", "refused", "[{name: a, image: x, resources: {requests: {cpu: 500m, memory: 300Mi}, limits: {memory: 500Mi}}}]", "") +
	wlDeploy("below-min", "refused", "[{name: a, image: x, resources: {requests: {cpu: 10m, memory: 300Mi}, limits: {memory: 500Mi}}}]", "") +
	wlDeploy("above-max", "refused", "[{name: a, image: x, resources: {requests: {cpu: 100m, memory: 1536Mi}, limits: {memory: 2Gi}}}]", "") +
	wlDeploy("ratio", "refused", "[{name: a, image: x, resources: {requests: {cpu: 100m, memory: 100Mi}, limits: {memory: 500Mi}}}]", "") +
	wlDeploy("init-over-limit", "refused", "[{name: a, image: x, resources: {requests: {cpu: 100m, memory: 300Mi}, limits: {memory: 500Mi}}}]",
		"[{name: i, image: x, resources: {requests: {cpu: 300m, memory: 300Mi}, limits: {memory: 500Mi}}}]") +
	wlDeploy("pod-ok", "refused-pod", "[{name: a, image: x, resources: {limits: {cpu: 400m}}}, {name: b, image: x, resources: {limits: {cpu: 500m}}}]", "") +
	wlDeploy("pod-over", "refused-pod", "[{name: a, image: x, resources: {limits: {cpu: 600m}}}, {name: b, image: x, resources: {limits: {cpu: 600m}}}]", "") +
	wlDeploy("pod-no-limit", "refused-pod", "[{name: a, image: x, resources: {requests: {cpu: 100m}}}]", "") +
	wlDeploy("gpu-ok", "plain", "[{name: a, image: x, resources: {limits: {nvidia.com/gpu: \"1\"}, requests: {cpu: 100m}}}]", "") +
	wlDeployPodLevel("pod-level-ok", "plain", "{requests: {cpu: 500m}, limits: {cpu: \"1\"}}", "[{name: a, image: x, resources: {requests: {cpu: 300m}}}]")

// wlRefusedObjects holds Deployments whose pod template the API server's own Deployment validation refuses (the
// object, not only its pods: ValidateDeployment validates the template's resources), beside ones it admits: a
// request above its limit, an extended resource whose request is not its limit, pod-level requests below the
// containers'.
var wlRefusedObjects = wlDeploy("request-over-limit", "plain", "[{name: a, image: x, resources: {requests: {cpu: \"2\"}, limits: {cpu: \"1\"}}}]", "") +
	wlDeploy("gpu-unequal", "plain", "[{name: a, image: x, resources: {requests: {cpu: 100m, nvidia.com/gpu: \"1\"}, limits: {nvidia.com/gpu: \"2\"}}}]", "") +
	wlDeploy("gpu-ok", "plain", "[{name: a, image: x, resources: {limits: {nvidia.com/gpu: \"1\"}, requests: {cpu: 100m}}}]", "") +
	wlDeployPodLevel("pod-level-below", "plain", "{requests: {cpu: 200m}}", "[{name: a, image: x, resources: {requests: {cpu: 300m}}}]") +
	wlDeployPodLevel("pod-level-ok", "plain", "{requests: {cpu: 500m}, limits: {cpu: \"1\"}}", "[{name: a, image: x, resources: {requests: {cpu: 300m}}}]")

// wlDeploy is a Deployment of one replica with the given containers and init containers (YAML flow lists).
func wlDeploy(name, ns, containers, initContainers string) string {
	init := ""
	if initContainers != "" {
		init = "\n      initContainers: " + initContainers
	}
	return fmt.Sprintf(`apiVersion: apps/v1
kind: Deployment
metadata: {name: %[1]s, namespace: %[2]s}
spec:
  replicas: 1
  selector: {matchLabels: {app: %[1]s}}
  template:
    metadata: {labels: {app: %[1]s}}
    spec:
      containers: %[3]s%[4]s
---
`, name, ns, containers, init)
}

// wlDeployPodLevel is wlDeploy with pod-level resources.
func wlDeployPodLevel(name, ns, resources, containers string) string {
	return strings.Replace(wlDeploy(name, ns, containers, ""), "    spec:\n", "    spec:\n      resources: "+resources+"\n", 1)
}

// wlRefusals checks that the reader warns that the API server would refuse an object's pods exactly when the
// API server's own code (the oracle's LimitRanger validation and create validation) refuses them, and returns
// how many objects are refused.
func wlRefusals(t *testing.T, o *wlOracle, res workloads.Result) int {
	warned := map[wlKey]string{}
	for _, w := range res.Warnings {
		if w.Code == workloads.WarnPodRefused {
			warned[wlKey{w.Source.Kind, w.Source.Namespace, w.Source.Name}] = w.Message
		}
	}
	refused := 0
	for _, ow := range o.owners {
		if ow.hook {
			continue
		}
		msg, ok := warned[ow.key]
		switch {
		case len(ow.refused) > 0 && !ok:
			t.Errorf("%s: the API server refuses its pod (%v); the reader does not warn", ow.key, ow.refused)
		case len(ow.refused) == 0 && ok:
			t.Errorf("%s: the API server admits its pod; the reader warns: %s", ow.key, msg)
		}
		if len(ow.refused) > 0 {
			refused++
			t.Logf("%s: refused: %s", ow.key, msg)
		}
	}
	return refused
}
