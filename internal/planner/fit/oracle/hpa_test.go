package oracle

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"regexp"
	"sort"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"

	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	featuregatetesting "k8s.io/component-base/featuregate/testing"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	"k8s.io/kubernetes/pkg/apis/autoscaling"
	_ "k8s.io/kubernetes/pkg/apis/autoscaling/install"
	"k8s.io/kubernetes/pkg/features"
	hparegistry "k8s.io/kubernetes/pkg/registry/autoscaling/horizontalpodautoscaler"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/hpa"
)

// apiServerCreate runs an autoscaling/v2 HPA, as JSON, through what the API server does on create: decoding
// with the API server's scheme (legacyscheme, autoscaling installed), which applies the v2 defaults and
// converts to the internal type, then the registry's create strategy (rest.BeforeCreate: PrepareForCreate,
// the hand-written ValidateHorizontalPodAutoscaler with the strategy's options, the common ObjectMeta checks
// and declarative validation). It returns the decoded, defaulted object and the API server's error.
func apiServerCreate(raw []byte) (*autoscaling.HorizontalPodAutoscaler, error) {
	obj, _, err := legacyscheme.Codecs.UniversalDecoder(autoscaling.SchemeGroupVersion).Decode(raw, nil, nil)
	if err != nil {
		return nil, fmt.Errorf("decode: %w", err)
	}
	h, ok := obj.(*autoscaling.HorizontalPodAutoscaler)
	if !ok {
		return nil, fmt.Errorf("decoded %T", obj)
	}
	rest.FillObjectMetaSystemFields(h)
	ctx := genericapirequest.WithNamespace(context.Background(), h.Namespace)
	ctx = genericapirequest.WithRequestInfo(ctx, &genericapirequest.RequestInfo{IsResourceRequest: true, Verb: "create",
		APIPrefix: "apis", APIGroup: "autoscaling", APIVersion: "v2", Namespace: h.Namespace, Resource: "horizontalpodautoscalers"})
	return h, rest.BeforeCreate(hparegistry.Strategy, ctx, h)
}

// hpaGen generates HPAs around a valid one: each generated object is the base with 0 to 3 mutations, each
// setting one field to a value drawn from a pool of valid and invalid values (boundaries, empty, malformed).
type hpaGen struct{ r *rand.Rand }

func pick[T any](g hpaGen, xs ...T) T { return xs[g.r.IntN(len(xs))] }

func p64(v int64) *int64    { return &v }
func pstr(s string) *string { return &s }

var (
	genInts      = []int64{-1, 0, 1, 2, 3, 10, 59, 100, 1800, 1801, 3599, 3600, 3601, math.MaxInt32}
	genNames     = []string{"web", "api-v2", "", "Web", "a.b", "a/b", "a%b", "..", ".", "-web", "web-", strings.Repeat("a", 253), strings.Repeat("a", 254)}
	genKinds     = []string{"Deployment", "StatefulSet", "ReplicationController", "ReplicaSet", "", "..", "a/b", "Foo%", "my kind"}
	genVersions  = []string{"apps/v1", "v1", "", "apps/", "/v1", "a/b/c", "example.com/v1alpha1", "apps/v1/"}
	genMetrics   = []string{hpa.ResourceMetric, hpa.ContainerResourceMetric, hpa.PodsMetric, hpa.ObjectMetric, hpa.ExternalMetric, "", "resource", "Foo"}
	genTargets   = []string{hpa.UtilizationTarget, hpa.ValueTarget, hpa.AverageValueTarget, "", "Percent"}
	genQuantity  = []string{"1", "500m", "10", "1Gi", "0", "-1", "-500m", "1e3", "0.001"}
	genResources = []string{"cpu", "memory", "", "ephemeral-storage", "hugepages-2Mi", "nvidia.com/gpu", "kubernetes.io/foo", "requests.foo/bar",
		"pods", "storage", "Bad Name", "example.com/", "a/b/c", "requests.cpu"}
	genContainers = []string{"app", "", "App", "a_b", "sidecar-1", strings.Repeat("c", 63), strings.Repeat("c", 64)}
	genMetricName = []string{"http_requests", "queue/depth", "", "..", "a%b", "packets-per-second"}
	genPolicies   = []string{"Pods", "Percent", "", "pods", "Max"}
	genSelect     = []string{"Max", "Min", "Disabled", "", "max"}
	genTolerance  = []string{"0.1", "0", "50m", "-0.1", "1"}
)

func (g hpaGen) target() hpa.Target {
	t := hpa.Target{Type: pick(g, genTargets...)}
	if g.r.IntN(2) == 0 {
		t.Value = pstr(pick(g, genQuantity...))
	}
	if g.r.IntN(2) == 0 {
		t.AverageValue = pstr(pick(g, genQuantity...))
	}
	if g.r.IntN(2) == 0 {
		t.AverageUtilization = p64(pick(g, genInts...))
	}
	return t
}

func (g hpaGen) ref() hpa.CrossVersionObjectReference {
	return hpa.CrossVersionObjectReference{Kind: pick(g, genKinds...), Name: pick(g, genNames...), APIVersion: pick(g, genVersions...)}
}

func (g hpaGen) identifier() hpa.MetricIdentifier {
	id := hpa.MetricIdentifier{Name: pick(g, genMetricName...)}
	switch g.r.IntN(4) {
	case 0:
		id.Selector = &hpa.LabelSelector{MatchLabels: map[string]string{"queue": "orders"}}
	case 1:
		id.Selector = &hpa.LabelSelector{MatchExpressions: []hpa.SelectorRequirement{{Key: "queue", Operator: pick(g, "In", "Exists", "Foo"), Values: []string{"a"}}}}
	}
	return id
}

// metric returns a metric of a random type with the source of that type (and now and then another one).
func (g hpaGen) metric() hpa.Metric {
	m := hpa.Metric{Type: pick(g, genMetrics...)}
	src := m.Type
	if g.r.IntN(8) == 0 || !contains(hpa.MetricTypes, src) {
		src = pick(g, hpa.MetricTypes...)
	}
	g.setSource(&m, src)
	if g.r.IntN(10) == 0 {
		g.setSource(&m, pick(g, hpa.MetricTypes...))
	}
	return m
}

func (g hpaGen) setSource(m *hpa.Metric, src string) {
	switch src {
	case hpa.ResourceMetric:
		m.Resource = &hpa.ResourceSource{Name: pick(g, genResources...), Target: g.target()}
	case hpa.ContainerResourceMetric:
		m.ContainerResource = &hpa.ContainerResourceSource{Name: pick(g, genResources...), Container: pick(g, genContainers...), Target: g.target()}
	case hpa.PodsMetric:
		m.Pods = &hpa.PodsSource{Metric: g.identifier(), Target: g.target()}
	case hpa.ObjectMetric:
		m.Object = &hpa.ObjectSource{DescribedObject: g.ref(), Metric: g.identifier(), Target: g.target()}
	case hpa.ExternalMetric:
		m.External = &hpa.ExternalSource{Metric: g.identifier(), Target: g.target()}
	}
}

func (g hpaGen) rules() *hpa.ScalingRules {
	r := &hpa.ScalingRules{}
	if g.r.IntN(2) == 0 {
		r.StabilizationWindowSeconds = p64(pick(g, genInts...))
	}
	if g.r.IntN(2) == 0 {
		r.SelectPolicy = pstr(pick(g, genSelect...))
	}
	switch g.r.IntN(4) {
	case 0:
		r.Policies = []hpa.Policy{}
	case 1, 2:
		for range 1 + g.r.IntN(2) {
			r.Policies = append(r.Policies, hpa.Policy{Type: pick(g, genPolicies...), Value: pick(g, genInts...), PeriodSeconds: pick(g, genInts...)})
		}
	}
	if g.r.IntN(3) == 0 {
		r.Tolerance = pstr(pick(g, genTolerance...))
	}
	return r
}

// base is a valid HPA: a Deployment scaled 2–10 on CPU utilization and requests per second.
func base() hpa.HorizontalPodAutoscaler {
	return hpa.HorizontalPodAutoscaler{Name: "web", Namespace: "shop", Labels: map[string]string{"app": "web"},
		ScaleTargetRef: hpa.CrossVersionObjectReference{Kind: "Deployment", Name: "web", APIVersion: "apps/v1"},
		MinReplicas:    p64(2), MaxReplicas: 10,
		Metrics: []hpa.Metric{
			{Type: hpa.ResourceMetric, Resource: &hpa.ResourceSource{Name: "cpu", Target: hpa.Target{Type: hpa.UtilizationTarget, AverageUtilization: p64(70)}}},
			{Type: hpa.ExternalMetric, External: &hpa.ExternalSource{Metric: hpa.MetricIdentifier{Name: "queue_depth"}, Target: hpa.Target{Type: hpa.AverageValueTarget, AverageValue: pstr("30")}}},
		}}
}

// mutate changes one field of h.
func (g hpaGen) mutate(h *hpa.HorizontalPodAutoscaler) {
	switch g.r.IntN(16) {
	case 0:
		h.Name = pick(g, genNames...)
	case 1:
		h.Namespace = pick(g, "shop", "", "Shop", "a.b", strings.Repeat("n", 63), strings.Repeat("n", 64))
	case 2:
		h.Labels = pick(g, map[string]string{"app": "web"}, map[string]string{"bad key!": "x"}, map[string]string{"app": "bad value!"},
			map[string]string{"example.com/team": "shop"}, nil)
		h.Annotations = pick(g, map[string]string{"a/b/c": "x"}, map[string]string{"note": "free text!"}, nil,
			map[string]string{"big": strings.Repeat("x", 256*1024)})
	case 3:
		h.ScaleTargetRef = g.ref()
	case 4:
		h.ScaleTargetRef.APIVersion = pick(g, genVersions...)
	case 5:
		h.MinReplicas = pick(g, nil, p64(pick(g, genInts...)), p64(0), p64(1))
	case 6:
		h.MaxReplicas = pick(g, genInts...)
	case 7, 8:
		if len(h.Metrics) > 0 {
			h.Metrics[g.r.IntN(len(h.Metrics))] = g.metric()
		}
	case 9:
		h.Metrics = append(h.Metrics, g.metric())
	case 10:
		h.Metrics = pick(g, nil, []hpa.Metric{}, h.Metrics[:min(1, len(h.Metrics))])
	case 11:
		if len(h.Metrics) > 0 {
			m := &h.Metrics[g.r.IntN(len(h.Metrics))]
			switch {
			case m.Resource != nil:
				m.Resource.Target = g.target()
			case m.External != nil:
				m.External.Target = g.target()
			}
		}
	case 12, 13:
		if h.Behavior == nil {
			h.Behavior = &hpa.Behavior{}
		}
		if g.r.IntN(2) == 0 {
			h.Behavior.ScaleUp = g.rules()
		} else {
			h.Behavior.ScaleDown = g.rules()
		}
	case 14:
		h.Behavior = pick(g, nil, &hpa.Behavior{}, &hpa.Behavior{ScaleDown: &hpa.ScalingRules{}})
	case 15:
		h.MinReplicas = p64(0)
		if g.r.IntN(2) == 0 {
			h.Metrics = []hpa.Metric{h.Metrics[0]}
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestHPAAgainstAPIServer generates 1,200 HPAs (seeded: 600 with the HPAScaleToZero feature gate on, its 1.37
// default, and 600 with it off) and checks that kubefit accepts exactly those the API server's own decoding,
// defaulting and create validation accept. For those accepted, the API server's defaults are kubefit's
// effective values.
func TestHPAAgainstAPIServer(t *testing.T) {
	const perGate = 600
	var total, accepted, refused int
	refusedFor := map[string]int{} // the API server's error fields, list indexes elided
	for _, gate := range []bool{true, false} {
		t.Run(fmt.Sprintf("scaleToZero=%v", gate), func(t *testing.T) {
			featuregatetesting.SetFeatureGateDuringTest(t, utilfeature.DefaultFeatureGate, features.HPAScaleToZero, gate)
			g := hpaGen{r: rand.New(rand.NewPCG(20, map[bool]uint64{true: 1, false: 2}[gate]))}
			mismatches, misplaced := 0, 0
			for n := range perGate {
				h := base()
				for range g.r.IntN(4) {
					g.mutate(&h)
				}
				h.ScaleToZero = &gate
				res, kerr := hpa.Plan(h)
				if res == nil {
					t.Fatalf("object %d: %v", n, kerr)
				}
				raw, err := json.Marshal(res.Manifest)
				if err != nil {
					t.Fatal(err)
				}
				got, aerr := apiServerCreate(raw)
				total++
				switch {
				case (kerr == nil) != (aerr == nil):
					mismatches++
					if mismatches <= 15 {
						t.Errorf("object %d: kubefit error %v\nAPI server error %v\n%s", n, kerr, aerr, res.YAML)
					}
				case kerr == nil:
					accepted++
					if got.Spec.MinReplicas == nil || int64(*got.Spec.MinReplicas) != res.Effective.MinReplicas {
						t.Errorf("object %d: API server's minReplicas %v, kubefit's effective %d", n, got.Spec.MinReplicas, res.Effective.MinReplicas)
					}
					if res.Effective.DefaultMetric != (len(h.Metrics) == 0) || len(got.Spec.Metrics) == 0 {
						t.Errorf("object %d: metrics defaulted to %d, kubefit says default %v", n, len(got.Spec.Metrics), res.Effective.DefaultMetric)
					}
				default:
					refused++
					apiFields := map[string]bool{}
					var se *apierrors.StatusError
					if errorsAs(aerr, &se) && se.ErrStatus.Details != nil {
						for _, c := range se.ErrStatus.Details.Causes {
							apiFields[c.Field] = true
							refusedFor[index.ReplaceAllString(c.Field, "[*]")]++
						}
					}
					for _, e := range field.As(kerr) {
						if f := apiField(e.Path); !apiFields[f] {
							misplaced++
							if misplaced <= 10 {
								t.Errorf("object %d: kubefit blames %s (%s), the API server %v\n%s", n, f, e.Detail, aerr, res.YAML)
							}
						}
					}
				}
			}
			if mismatches > 0 {
				t.Errorf("%d of %d objects judged differently", mismatches, perGate)
			}
		})
	}
	t.Logf("%d generated objects: %d accepted and %d refused by both kubefit and the API server", total, accepted, refused)
	if total < 1000 || accepted < 100 || refused < 100 {
		t.Errorf("the generated set is too small or one-sided: %d objects, %d accepted, %d refused", total, accepted, refused)
	}
	fields := make([]string, 0, len(refusedFor))
	for f := range refusedFor {
		fields = append(fields, f)
	}
	sort.Strings(fields)
	for _, f := range fields {
		t.Logf("refused for %s: %d", f, refusedFor[f])
	}
	if len(fields) < 30 {
		t.Errorf("the refused objects exercise only %d of the API server's error fields", len(fields))
	}
}

// apiField is the API server's field path for a kubefit error path: metadata for the object's name,
// namespace, labels and annotations, else spec and each step in lowerCamelCase.
func apiField(p field.Path) string {
	steps := p.Steps()
	if len(steps) == 0 {
		return ""
	}
	switch steps[0].Name {
	case "Name", "Namespace", "Labels", "Annotations":
		return "metadata." + strings.ToLower(steps[0].Name)
	}
	var b strings.Builder
	b.WriteString("spec")
	for _, s := range steps {
		switch s.Kind {
		case field.Index:
			fmt.Fprintf(&b, "[%d]", s.Index)
		case field.Name:
			n := s.Name
			if n == "APIVersion" {
				n = "apiVersion"
			} else {
				n = strings.ToLower(n[:1]) + n[1:]
			}
			b.WriteString("." + n)
		}
	}
	return b.String()
}

var index = regexp.MustCompile(`\[\d+\]`)

func errorsAs(err error, se **apierrors.StatusError) bool {
	s, ok := err.(*apierrors.StatusError)
	*se = s
	return ok
}

// TestHPAUnrepresentable: values kubefit takes as int64 or strings that no autoscaling/v2 object can hold
// (beyond int32, a malformed quantity) are refused by kubefit, and by the API server when sent as JSON.
func TestHPAUnrepresentable(t *testing.T) {
	cases := []struct {
		name  string
		edit  func(*hpa.HorizontalPodAutoscaler)
		patch func(spec map[string]any)
	}{
		{"maxReplicas beyond int32", func(h *hpa.HorizontalPodAutoscaler) { h.MaxReplicas = 1 << 31 },
			func(s map[string]any) { s["maxReplicas"] = int64(1) << 31 }},
		{"minReplicas below int32", func(h *hpa.HorizontalPodAutoscaler) { h.MinReplicas = p64(-1 << 32) },
			func(s map[string]any) { s["minReplicas"] = int64(-1) << 32 }},
		{"malformed averageValue", func(h *hpa.HorizontalPodAutoscaler) { h.Metrics[1].External.Target.AverageValue = pstr("thirty") },
			func(s map[string]any) {
				s["metrics"].([]any)[1].(map[string]any)["external"].(map[string]any)["target"].(map[string]any)["averageValue"] = "thirty"
			}},
		{"malformed tolerance", func(h *hpa.HorizontalPodAutoscaler) {
			h.Behavior = &hpa.Behavior{ScaleUp: &hpa.ScalingRules{Tolerance: pstr("5%")}}
		}, func(s map[string]any) {
			s["behavior"] = map[string]any{"scaleUp": map[string]any{"tolerance": "5%"}}
		}},
		{"policy period beyond int32", func(h *hpa.HorizontalPodAutoscaler) {
			h.Behavior = &hpa.Behavior{ScaleUp: &hpa.ScalingRules{Policies: []hpa.Policy{{Type: "Pods", Value: 1, PeriodSeconds: 1 << 33}}}}
		}, func(s map[string]any) {
			s["behavior"] = map[string]any{"scaleUp": map[string]any{"policies": []any{map[string]any{"type": "Pods", "value": 1, "periodSeconds": int64(1) << 33}}}}
		}},
	}
	for _, c := range cases {
		h := base()
		c.edit(&h)
		if _, err := hpa.Plan(h); err == nil {
			t.Errorf("%s: kubefit accepts it", c.name)
		}
		ok := base()
		res, err := hpa.Plan(ok)
		if err != nil {
			t.Fatal(err)
		}
		c.patch(res.Manifest["spec"].(map[string]any))
		raw, _ := json.Marshal(res.Manifest)
		if _, aerr := apiServerCreate(raw); aerr == nil {
			t.Errorf("%s: the API server accepts %s", c.name, raw)
		}
	}
}
