package pod

import (
	"slices"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func rl(kv ...string) corev1.ResourceList {
	l := corev1.ResourceList{}
	for i := 0; i < len(kv); i += 2 {
		l[corev1.ResourceName(kv[i])] = resource.MustParse(kv[i+1])
	}
	return l
}

func lr(name string, it corev1.LimitRangeItem) corev1.LimitRange {
	it.Type = corev1.LimitTypeContainer
	return corev1.LimitRange{ObjectMeta: metav1.ObjectMeta{Name: name}, Spec: corev1.LimitRangeSpec{Limits: []corev1.LimitRangeItem{it}}}
}

func TestDefaultLimitRange(t *testing.T) {
	got := DefaultLimitRange(lr("a", corev1.LimitRangeItem{Max: rl("cpu", "2"), Min: rl("memory", "64Mi")}))
	it := got.Spec.Limits[0]
	if it.Default.Cpu().String() != "2" || it.DefaultRequest.Cpu().String() != "2" || it.DefaultRequest.Memory().String() != "64Mi" {
		t.Errorf("defaulted = %+v, want default cpu 2 (the max), defaultRequest cpu 2 and memory 64Mi (the min)", it)
	}
}

func TestRequestsDoesNotChangeTheSpec(t *testing.T) {
	spec := &corev1.PodSpec{Containers: []corev1.Container{{Name: "a", Resources: corev1.ResourceRequirements{Limits: rl("cpu", "1")}}}}
	got, steps := Requests(spec, Defaults{LimitRanges: []corev1.LimitRange{lr("d", corev1.LimitRangeItem{DefaultRequest: rl("memory", "128Mi")})}})
	if got.Cpu().String() != "1" || got.Memory().String() != "128Mi" {
		t.Errorf("requests = %v, want cpu 1 (its limit) and memory 128Mi (the LimitRange)", got)
	}
	if spec.Containers[0].Resources.Requests != nil {
		t.Errorf("Requests changed its input: %+v", spec.Containers[0].Resources)
	}
	if len(steps) != 2 || !strings.Contains(steps[0], "requests its limit") || !strings.Contains(steps[1], `LimitRange "d"`) {
		t.Errorf("steps = %q", steps)
	}
}

func TestConflicts(t *testing.T) {
	a := lr("a", corev1.LimitRangeItem{DefaultRequest: rl("cpu", "100m", "memory", "1Gi")})
	b := lr("b", corev1.LimitRangeItem{DefaultRequest: rl("cpu", "200m", "memory", "1Gi")})
	if c := Conflicts([]corev1.LimitRange{a, b}); len(c) != 1 || c[0] != `cpu request: "a" 100m, "b" 200m` {
		t.Errorf("conflicts = %q, want one on the cpu request", c)
	}
	got, _ := Requests(&corev1.PodSpec{Containers: []corev1.Container{{Name: "x"}}}, Defaults{LimitRanges: []corev1.LimitRange{b, a}})
	if got.Cpu().String() != "200m" {
		t.Errorf("cpu = %v, want the larger default 200m whatever the order", got.Cpu())
	}
}

// TestRequestsPodLevelBeforeOrAfterAdmission: pod-level limits of 4 CPU, no container request, a LimitRange
// defaultRequest of 100m: 1.37 (defaulting after admission) requests 100m, 1.34–1.36 (before) 4 CPU; the
// release is not known, so the larger is planned.
func TestRequestsPodLevelBeforeOrAfterAdmission(t *testing.T) {
	spec := &corev1.PodSpec{Resources: &corev1.ResourceRequirements{Limits: rl("cpu", "4")}, Containers: []corev1.Container{{Name: "a"}}}
	got, steps := Requests(spec, Defaults{LimitRanges: []corev1.LimitRange{lr("d", corev1.LimitRangeItem{DefaultRequest: rl("cpu", "100m")})}})
	if got.Cpu().String() != "4" || !strings.Contains(steps[len(steps)-1], "1.34–1.36") {
		t.Errorf("cpu = %v (steps %q), want 4, the larger of the two orders", got.Cpu(), steps)
	}
}

// TestRequestsPodLevelRequestsOnly: pod-level requests without pod-level limits replace the containers' requests, and
// the derivation says so (it named no pod-level step before).
func TestRequestsPodLevelRequestsOnly(t *testing.T) {
	spec := &corev1.PodSpec{Resources: &corev1.ResourceRequirements{Requests: rl("cpu", "2")},
		Containers: []corev1.Container{{Name: "a", Resources: corev1.ResourceRequirements{Requests: rl("cpu", "500m")}}}}
	got, steps := Requests(spec, Defaults{})
	found := false
	for _, s := range steps {
		found = found || strings.Contains(s, "pod-level requests cpu 2 replace the containers'")
	}
	if got.Cpu().String() != "2" || !found {
		t.Errorf("cpu = %v, steps %q; want 2 and a pod-level step", got.Cpu(), steps)
	}
}

// TestRefusals: the API server refuses a pod whose request is above its limit, one a LimitRange's default limit puts
// below its request, and one below a LimitRange's min; it admits one within them. (The oracle module checks Refusals
// against the API server's own validation, TestWorkloads/refused.)
func TestRefusals(t *testing.T) {
	c := func(req, lim corev1.ResourceList) corev1.PodSpec {
		return corev1.PodSpec{Containers: []corev1.Container{{Name: "a", Resources: corev1.ResourceRequirements{Requests: req, Limits: lim}}}}
	}
	withLR := Defaults{LimitRanges: []corev1.LimitRange{lr("d", corev1.LimitRangeItem{Default: rl("cpu", "200m"), Min: rl("cpu", "20m")})}}
	for _, tc := range []struct {
		name string
		spec corev1.PodSpec
		d    Defaults
		want string
	}{
		{"within", c(rl("cpu", "100m"), nil), withLR, ""},
		{"request above limit", c(rl("cpu", "2"), rl("cpu", "1")), Defaults{}, `container "a" requests cpu 2 above its limit 1`},
		{"default limit below request", c(rl("cpu", "500m"), nil), withLR, `container "a" requests cpu 500m above its limit 200m`},
		{"below min", c(rl("cpu", "10m"), nil), withLR, `LimitRange "d": container "a" must request at least 20m cpu, and requests 10m`},
		{"a fractional GPU", c(nil, rl("nvidia.com/gpu", "0.5")), Defaults{}, `container "a" requests nvidia.com/gpu 500m, which must be a whole number for an extended resource; container "a" limit of nvidia.com/gpu 500m, which must be a whole number for an extended resource`},
		{"a whole GPU", c(rl("nvidia.com/gpu", "2"), rl("nvidia.com/gpu", "2")), Defaults{}, ""},
		{"fractional CPU and memory are fine", c(rl("cpu", "0.5"), rl("memory", "0.5Gi")), Defaults{}, ""},
		{"a fractional kubernetes.io resource is no extended one", c(rl("example.kubernetes.io/x", "0.5"), rl("example.kubernetes.io/x", "0.5")), Defaults{}, ""},
	} {
		got := Refusals(&tc.spec, tc.d)
		if tc.want == "" && len(got) > 0 || tc.want != "" && strings.Join(got, "; ") != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestSpecRefusals checks that the refusals of a pod spec as written (ValidatePodSpec, which ValidatePodTemplateSpec
// runs on a workload's template) hold the request-above-limit and whole-number rules and none of what admission
// adds: a LimitRange's default limit below a request refuses the pods, not the spec.
func TestSpecRefusals(t *testing.T) {
	c := func(req, lim corev1.ResourceList) corev1.PodSpec {
		return corev1.PodSpec{Containers: []corev1.Container{{Name: "a", Resources: corev1.ResourceRequirements{Requests: req, Limits: lim}}}}
	}
	withLR := Defaults{LimitRanges: []corev1.LimitRange{lr("d", corev1.LimitRangeItem{Default: rl("cpu", "200m")})}}
	for _, tc := range []struct {
		name             string
		spec             corev1.PodSpec
		wantSpec, wantAd string
	}{
		{"request above limit", c(rl("cpu", "2"), rl("cpu", "1")), `container "a" requests cpu 2 above its limit 1`, `container "a" requests cpu 2 above its limit 1`},
		{"a LimitRange default limit below the request", c(rl("cpu", "500m"), nil), "", `container "a" requests cpu 500m above its limit 200m`},
		{"hugepages without a limit", c(rl("hugepages-2Mi", "2Mi"), nil), `container "a" requests hugepages-2Mi 2Mi without a limit, which a resource that cannot be overcommitted needs`, `container "a" requests hugepages-2Mi 2Mi without a limit, which a resource that cannot be overcommitted needs`},
		{"a limit alone", c(nil, rl("cpu", "1")), "", ""},
	} {
		if got := strings.Join(SpecRefusals(&tc.spec), "; "); got != tc.wantSpec {
			t.Errorf("%s: SpecRefusals %q, want %q", tc.name, got, tc.wantSpec)
		}
		if got := strings.Join(Refusals(&tc.spec, withLR), "; "); got != tc.wantAd {
			t.Errorf("%s: Refusals %q, want %q", tc.name, got, tc.wantAd)
		}
	}
}

// TestInitStep checks the derivation's explanation of the init containers against the number PodRequests gives
// (KEP-753): an init container counts with the sidecars started before it (the report's c02: sidecar 1 CPU, then
// an init container of 2 CPU, app 1.5 CPU: the pod asks 3 CPU, from the init container plus the sidecar).
func TestInitStep(t *testing.T) {
	always := corev1.ContainerRestartPolicyAlways
	ctr := func(name, cpu string, sidecar bool) corev1.Container {
		c := corev1.Container{Name: name, Resources: corev1.ResourceRequirements{Requests: rl("cpu", cpu)}}
		if sidecar {
			c.RestartPolicy = &always
		}
		return c
	}
	for _, tc := range []struct {
		name    string
		init    []corev1.Container
		app     string
		wantCPU string
		want    string
	}{
		{"sidecar before the init container", []corev1.Container{ctr("proxy", "1", true), ctr("late", "2", false)}, "1500m", "3",
			"1 init container(s) and 1 sidecar(s) (restartPolicy Always, added to the app containers): an init container's cpu request plus the sidecars started before it is larger than the app containers' and sets the pod's"},
		{"sidecar after the init container", []corev1.Container{ctr("early", "2", false), ctr("proxy", "1", true)}, "1500m", "2500m",
			"1 init container(s) and 1 sidecar(s) (restartPolicy Always, added to the app containers): the app containers' requests are the larger"},
		{"init container alone larger", []corev1.Container{ctr("big", "4", false), ctr("proxy", "1", true)}, "1", "4",
			"1 init container(s) and 1 sidecar(s) (restartPolicy Always, added to the app containers): an init container's cpu request is larger than the app containers' and sets the pod's"},
	} {
		spec := corev1.PodSpec{InitContainers: tc.init, Containers: []corev1.Container{ctr("app", tc.app, false)}}
		reqs, steps := Requests(&spec, Defaults{})
		if q := reqs[corev1.ResourceCPU]; q.String() != tc.wantCPU {
			t.Errorf("%s: cpu %s, want %s", tc.name, q.String(), tc.wantCPU)
		}
		if !slices.Contains(steps, tc.want) {
			t.Errorf("%s: steps %q, want %q", tc.name, steps, tc.want)
		}
	}
}
