package hpa

import (
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/keda"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/resource"
)

func p64(v int64) *int64    { return &v }
func pstr(s string) *string { return &s }
func pbool(b bool) *bool    { return &b }

// web is a valid HPA: Deployment "web" scaled 2–10 on CPU utilization and a queue's depth.
func web() HorizontalPodAutoscaler {
	return HorizontalPodAutoscaler{Name: "web", Namespace: "shop",
		ScaleTargetRef: CrossVersionObjectReference{Kind: "Deployment", Name: "web", APIVersion: "apps/v1"},
		MinReplicas:    p64(2), MaxReplicas: 10,
		Metrics: []Metric{
			{Type: ResourceMetric, Resource: &ResourceSource{Name: "cpu", Target: Target{Type: UtilizationTarget, AverageUtilization: p64(70)}}},
			{Type: ExternalMetric, External: &ExternalSource{Metric: MetricIdentifier{Name: "queue_depth"}, Target: Target{Type: AverageValueTarget, AverageValue: pstr("30")}}},
		}}
}

func metric(i int) field.Path { return field.NewPath("Metrics").At(i) }

// TestPlanRules: each case breaks one value; Plan gives exactly one error, on that value's path, with the rule ID.
func TestPlanRules(t *testing.T) {
	cases := []struct {
		name     string
		edit     func(*HorizontalPodAutoscaler)
		wantRule string
		wantPath string
		wantText string
	}{
		{"name not a subdomain", func(h *HorizontalPodAutoscaler) { h.Name = "Web" }, "HPA-E1", "Name", "lowercase"},
		{"name too long", func(h *HorizontalPodAutoscaler) { h.Name = strings.Repeat("a", 254) }, "HPA-E1", "Name", "253"},
		{"namespace not a label", func(h *HorizontalPodAutoscaler) { h.Namespace = "a.b" }, "HPA-E1", "Namespace", "must not contain dots"},
		{"empty namespace", func(h *HorizontalPodAutoscaler) { h.Namespace = "" }, "HPA-E1", "Namespace", "empty"},
		{"label value", func(h *HorizontalPodAutoscaler) { h.Labels = map[string]string{"app": "bad value!"} }, "HPA-E1", `Labels["app"]`, "value"},
		{"label key", func(h *HorizontalPodAutoscaler) { h.Labels = map[string]string{"bad key!": "x"} }, "HPA-E1", `Labels["bad key!"]`, "key"},
		{"annotation key", func(h *HorizontalPodAutoscaler) { h.Annotations = map[string]string{"a/b/c": "x"} }, "HPA-E1", `Annotations["a/b/c"]`, "not valid"},
		{"annotations too large", func(h *HorizontalPodAutoscaler) {
			h.Annotations = map[string]string{"big": strings.Repeat("x", 256*1024)}
		}, "HPA-E1", "Annotations", "too large"},
		{"target kind empty", func(h *HorizontalPodAutoscaler) { h.ScaleTargetRef.Kind = "" }, "HPA-E2", "ScaleTargetRef.Kind", "empty"},
		{"target name with slash", func(h *HorizontalPodAutoscaler) { h.ScaleTargetRef.Name = "a/b" }, "HPA-E2", "ScaleTargetRef.Name", "'/'"},
		{"target apiVersion without group", func(h *HorizontalPodAutoscaler) { h.ScaleTargetRef.APIVersion = "v1" }, "HPA-E2", "ScaleTargetRef.APIVersion", "API group"},
		{"target apiVersion empty", func(h *HorizontalPodAutoscaler) { h.ScaleTargetRef.APIVersion = "" }, "HPA-E2", "ScaleTargetRef.APIVersion", "API group"},
		{"target apiVersion malformed", func(h *HorizontalPodAutoscaler) { h.ScaleTargetRef.APIVersion = "a/b/c" }, "HPA-E2", "ScaleTargetRef.APIVersion", "group/version"},
		{"minReplicas negative", func(h *HorizontalPodAutoscaler) { h.MinReplicas = p64(-1) }, "HPA-E3", "MinReplicas", "from 0"},
		{"minReplicas 0 with the gate off", func(h *HorizontalPodAutoscaler) { h.MinReplicas = p64(0); h.ScaleToZero = pbool(false) }, "HPA-E3", "MinReplicas", "or, if the cluster has turned the gate on, say so with the scale-to-zero setting"},
		{"minReplicas 0 before 1.37", func(h *HorizontalPodAutoscaler) { h.MinReplicas = p64(0); h.KubernetesVersion = "1.36" }, "HPA-E3", "MinReplicas", "1.36"},
		{"minReplicas beyond int32", func(h *HorizontalPodAutoscaler) { h.MinReplicas = p64(1 << 31) }, "HPA-E3", "MinReplicas", "2,147,483,647"},
		{"maxReplicas 0", func(h *HorizontalPodAutoscaler) { h.MaxReplicas = 0 }, "HPA-E4", "MaxReplicas", "from 1"},
		{"maxReplicas below minReplicas", func(h *HorizontalPodAutoscaler) { h.MaxReplicas = 1 }, "HPA-E4", "MaxReplicas", "minReplicas 2"},
		{"maxReplicas below the default minimum", func(h *HorizontalPodAutoscaler) { h.MinReplicas = nil; h.MaxReplicas = -3 }, "HPA-E4", "MaxReplicas", "from 1"},
		{"metric type empty", func(h *HorizontalPodAutoscaler) { h.Metrics[0].Type = "" }, "HPA-E5", "Metrics[0].Type", "no type"},
		{"metric type lower case", func(h *HorizontalPodAutoscaler) { h.Metrics[0].Type = "resource" }, "HPA-E5", "Metrics[0].Type", `"resource"`},
		{"source of the type missing", func(h *HorizontalPodAutoscaler) { h.Metrics[0].Type = PodsMetric }, "HPA-E5", "Metrics[0].Pods", "not given"},
		{"two sources", func(h *HorizontalPodAutoscaler) {
			h.Metrics[1].Pods = &PodsSource{Metric: MetricIdentifier{Name: "rps"}, Target: Target{Type: AverageValueTarget, AverageValue: pstr("1")}}
		}, "HPA-E5", "Metrics[1].Pods", "only the source of its type"},
		{"resource name empty", func(h *HorizontalPodAutoscaler) { h.Metrics[0].Resource.Name = "" }, "HPA-E6", "Metrics[0].Resource.Name", "empty"},
		{"metric name with percent", func(h *HorizontalPodAutoscaler) { h.Metrics[1].External.Metric.Name = "a%b" }, "HPA-E6", "Metrics[1].External.Metric.Name", "'%'"},
		{"container resource pods", func(h *HorizontalPodAutoscaler) {
			h.Metrics[0] = Metric{Type: ContainerResourceMetric, ContainerResource: &ContainerResourceSource{Name: "pods", Container: "app", Target: Target{Type: UtilizationTarget, AverageUtilization: p64(60)}}}
		}, "HPA-E6", "Metrics[0].ContainerResource.Name", `"pods"`},
		{"container resource requests.", func(h *HorizontalPodAutoscaler) {
			h.Metrics[0] = Metric{Type: ContainerResourceMetric, ContainerResource: &ContainerResourceSource{Name: "requests.foo/bar", Container: "app", Target: Target{Type: AverageValueTarget, AverageValue: pstr("1")}}}
		}, "HPA-E6", "Metrics[0].ContainerResource.Name", "extended resource"},
		{"container name", func(h *HorizontalPodAutoscaler) {
			h.Metrics[0] = Metric{Type: ContainerResourceMetric, ContainerResource: &ContainerResourceSource{Name: "cpu", Container: "App", Target: Target{Type: UtilizationTarget, AverageUtilization: p64(60)}}}
		}, "HPA-E6", "Metrics[0].ContainerResource.Container", "RFC 1123"},
		{"described object apiVersion", func(h *HorizontalPodAutoscaler) {
			h.Metrics[1] = Metric{Type: ObjectMetric, Object: &ObjectSource{DescribedObject: CrossVersionObjectReference{Kind: "Ingress", Name: "main", APIVersion: "a/b/c"},
				Metric: MetricIdentifier{Name: "rps"}, Target: Target{Type: ValueTarget, Value: pstr("100")}}}
		}, "HPA-E6", "Metrics[1].Object.DescribedObject.APIVersion", "group/version"},
		{"target type", func(h *HorizontalPodAutoscaler) { h.Metrics[0].Resource.Target.Type = "Percent" }, "HPA-E7", "Metrics[0].Resource.Target.Type", `"Percent"`},
		{"utilization 0", func(h *HorizontalPodAutoscaler) { h.Metrics[0].Resource.Target.AverageUtilization = p64(0) }, "HPA-E7", "Metrics[0].Resource.Target.AverageUtilization", "from 1"},
		{"utilization and average value", func(h *HorizontalPodAutoscaler) { h.Metrics[0].Resource.Target.AverageValue = pstr("500m") }, "HPA-E7", "Metrics[0].Resource.Target.AverageValue", "only one"},
		{"resource target empty", func(h *HorizontalPodAutoscaler) { h.Metrics[0].Resource.Target.AverageUtilization = nil }, "HPA-E7", "Metrics[0].Resource.Target.AverageUtilization", "needs"},
		{"average value zero", func(h *HorizontalPodAutoscaler) { h.Metrics[1].External.Target.AverageValue = pstr("0") }, "HPA-E7", "Metrics[1].External.Target.AverageValue", "positive"},
		{"average value malformed", func(h *HorizontalPodAutoscaler) { h.Metrics[1].External.Target.AverageValue = pstr("thirty") }, "HPA-E7", "Metrics[1].External.Target.AverageValue", "quantity"},
		{"external value and average value", func(h *HorizontalPodAutoscaler) { h.Metrics[1].External.Target.Value = pstr("3") }, "HPA-E7", "Metrics[1].External.Target.Value", "only one"},
		{"pods without average value", func(h *HorizontalPodAutoscaler) {
			h.Metrics[1] = Metric{Type: PodsMetric, Pods: &PodsSource{Metric: MetricIdentifier{Name: "rps"}, Target: Target{Type: ValueTarget, Value: pstr("5")}}}
		}, "HPA-E7", "Metrics[1].Pods.Target.AverageValue", "averageValue"},
		{"object without value", func(h *HorizontalPodAutoscaler) {
			h.Metrics[1] = Metric{Type: ObjectMetric, Object: &ObjectSource{DescribedObject: CrossVersionObjectReference{Kind: "Ingress", Name: "main", APIVersion: "networking.k8s.io/v1"},
				Metric: MetricIdentifier{Name: "rps"}, Target: Target{Type: ValueTarget}}}
		}, "HPA-E7", "Metrics[1].Object.Target.AverageValue", "value or an averageValue"},
		{"scale to zero on CPU alone", func(h *HorizontalPodAutoscaler) { h.MinReplicas = p64(0); h.Metrics = h.Metrics[:1] }, "HPA-E8", "Metrics", "Object or External"},
		{"scale to zero on the default metric", func(h *HorizontalPodAutoscaler) { h.MinReplicas = p64(0); h.Metrics = nil }, "HPA-E8", "Metrics", "default CPU metric"},
		{"stabilization window", func(h *HorizontalPodAutoscaler) {
			h.Behavior = &Behavior{ScaleDown: &ScalingRules{StabilizationWindowSeconds: p64(3601)}}
		}, "HPA-E9", "Behavior.ScaleDown.StabilizationWindowSeconds", "3,600"},
		{"select policy", func(h *HorizontalPodAutoscaler) {
			h.Behavior = &Behavior{ScaleUp: &ScalingRules{SelectPolicy: pstr("max")}}
		}, "HPA-E9", "Behavior.ScaleUp.SelectPolicy", `"Max"`},
		{"policy type", func(h *HorizontalPodAutoscaler) {
			h.Behavior = &Behavior{ScaleUp: &ScalingRules{Policies: []Policy{{Type: "pods", Value: 4, PeriodSeconds: 15}}}}
		}, "HPA-E10", "Behavior.ScaleUp.Policies[0].Type", `"Percent" or "Pods"`},
		{"policy value", func(h *HorizontalPodAutoscaler) {
			h.Behavior = &Behavior{ScaleUp: &ScalingRules{Policies: []Policy{{Type: "Pods", Value: 0, PeriodSeconds: 15}}}}
		}, "HPA-E10", "Behavior.ScaleUp.Policies[0].Value", "from 1"},
		{"policy period", func(h *HorizontalPodAutoscaler) {
			h.Behavior = &Behavior{ScaleDown: &ScalingRules{Policies: []Policy{{Type: "Percent", Value: 10, PeriodSeconds: 1801}}}}
		}, "HPA-E10", "Behavior.ScaleDown.Policies[0].PeriodSeconds", "1,800"},
		{"tolerance negative", func(h *HorizontalPodAutoscaler) {
			h.Behavior = &Behavior{ScaleDown: &ScalingRules{Tolerance: pstr("-0.1")}}
		}, "HPA-E11", "Behavior.ScaleDown.Tolerance", "negative"},
		{"tolerance malformed", func(h *HorizontalPodAutoscaler) {
			h.Behavior = &Behavior{ScaleDown: &ScalingRules{Tolerance: pstr("5%")}}
		}, "HPA-E11", "Behavior.ScaleDown.Tolerance", "quantity"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := web()
			c.edit(&h)
			res, err := Plan(h)
			if res == nil {
				t.Fatalf("no result: %v", err)
			}
			errs := field.As(err)
			if len(errs) != 1 {
				t.Fatalf("got %d errors, want 1: %v", len(errs), err)
			}
			e := errs[0]
			if !strings.HasPrefix(e.Detail, c.wantRule+": ") || e.Path.String() != c.wantPath || !strings.Contains(e.Detail, c.wantText) {
				t.Errorf("got %s at %s, want %s at %s containing %q", e.Detail, e.Path, c.wantRule, c.wantPath, c.wantText)
			}
		})
	}
}

// TestPlanAccepts: what the API server admits, kubefit admits, warning where the controller cannot use it.
func TestPlanAccepts(t *testing.T) {
	cases := []struct {
		name     string
		edit     func(*HorizontalPodAutoscaler)
		wantWarn string
		wantPath string
	}{
		{"the valid base", func(*HorizontalPodAutoscaler) {}, "", ""},
		{"scale to zero on 1.37", func(h *HorizontalPodAutoscaler) { h.MinReplicas = p64(0) }, "", ""},
		{"scale to zero with the gate on before 1.37", func(h *HorizontalPodAutoscaler) {
			h.MinReplicas, h.KubernetesVersion, h.ScaleToZero = p64(0), "1.33", pbool(true)
		}, "", ""},
		{"ReplicationController in the core group", func(h *HorizontalPodAutoscaler) {
			h.ScaleTargetRef = CrossVersionObjectReference{Kind: "ReplicationController", Name: "rc", APIVersion: "v1"}
		}, "", ""},
		{"described object in the core group", func(h *HorizontalPodAutoscaler) {
			h.Metrics[1] = Metric{Type: ObjectMetric, Object: &ObjectSource{DescribedObject: CrossVersionObjectReference{Kind: "Service", Name: "web", APIVersion: "v1"},
				Metric: MetricIdentifier{Name: "rps"}, Target: Target{Type: ValueTarget, Value: pstr("100")}}}
		}, "", ""},
		{"extended container resource", func(h *HorizontalPodAutoscaler) {
			h.Metrics[0] = Metric{Type: ContainerResourceMetric, ContainerResource: &ContainerResourceSource{Name: "nvidia.com/gpu", Container: "app", Target: Target{Type: AverageValueTarget, AverageValue: pstr("1")}}}
		}, "HPA-W4", "Metrics[0].ContainerResource.Name"},
		{"no metrics", func(h *HorizontalPodAutoscaler) { h.Metrics = nil }, "HPA-W6", "Metrics"},
		{"empty policy list", func(h *HorizontalPodAutoscaler) { h.Behavior = &Behavior{ScaleUp: &ScalingRules{Policies: []Policy{}}} }, "HPA-W2", "Behavior.ScaleUp.Policies"},
		{"tolerance on 1.34", func(h *HorizontalPodAutoscaler) {
			h.KubernetesVersion = "1.34"
			h.Behavior = &Behavior{ScaleUp: &ScalingRules{Tolerance: pstr("-1")}}
		}, "HPA-W1", "Behavior.ScaleUp.Tolerance"},
		{"object target type without its value", func(h *HorizontalPodAutoscaler) {
			h.Metrics[1] = Metric{Type: ObjectMetric, Object: &ObjectSource{DescribedObject: CrossVersionObjectReference{Kind: "Ingress", Name: "main", APIVersion: "networking.k8s.io/v1"},
				Metric: MetricIdentifier{Name: "rps"}, Target: Target{Type: AverageValueTarget, Value: pstr("100")}}}
		}, "HPA-W3", "Metrics[1].Object.Target.Type"},
		{"resource target type ignored", func(h *HorizontalPodAutoscaler) { h.Metrics[0].Resource.Target.Type = AverageValueTarget }, "HPA-W3", "Metrics[0].Resource.Target.Type"},
		{"bad selector", func(h *HorizontalPodAutoscaler) {
			h.Metrics[1].External.Metric.Selector = &LabelSelector{MatchExpressions: []SelectorRequirement{{Key: "q", Operator: "Foo"}}}
		}, "HPA-W5", "Metrics[1].External.Metric.Selector"},
		{"utilization without a request", func(h *HorizontalPodAutoscaler) {
			h.TargetWorkload = &Workload{PodTemplate: keda.PodTemplate{Containers: []keda.Container{
				{Name: "app", Requests: map[string]string{"cpu": "500m"}}, {Name: "proxy", Requests: map[string]string{"memory": "64Mi"}}}}}
		}, "HPA-W7", "Metrics[0].Resource.Name"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := web()
			c.edit(&h)
			res, err := Plan(h)
			if err != nil {
				t.Fatalf("refused: %v", err)
			}
			var got []string
			for _, w := range res.Warnings {
				got = append(got, w.Code+" at "+w.Path.String())
			}
			want := []string(nil)
			if c.wantWarn != "" {
				want = []string{c.wantWarn + " at " + c.wantPath}
			}
			if strings.Join(got, "; ") != strings.Join(want, "; ") {
				t.Errorf("warnings %v, want %v", got, want)
			}
		})
	}
}

// TestRender: only what is set is rendered, the YAML is the object, and the status is left out.
func TestRender(t *testing.T) {
	h := web()
	h.Labels = map[string]string{"team": "shop"}
	h.Behavior = &Behavior{ScaleDown: &ScalingRules{StabilizationWindowSeconds: p64(300), Policies: []Policy{{Type: "Percent", Value: 50, PeriodSeconds: 60}}, Tolerance: pstr("0.05")}}
	res, err := Plan(h)
	if err != nil {
		t.Fatal(err)
	}
	want := `apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  labels:
    team: shop
  name: web
  namespace: shop
spec:
  behavior:
    scaleDown:
      policies:
      - periodSeconds: 60
        type: Percent
        value: 50
      stabilizationWindowSeconds: 300
      tolerance: 50m
  maxReplicas: 10
  metrics:
  - resource:
      name: cpu
      target:
        averageUtilization: 70
        type: Utilization
    type: Resource
  - external:
      metric:
        name: queue_depth
      target:
        averageValue: "30"
        type: AverageValue
    type: External
  minReplicas: 2
  scaleTargetRef:
    apiVersion: apps/v1
    kind: Deployment
    name: web
`
	if res.YAML != want {
		t.Errorf("YAML:\n%s\nwant:\n%s", res.YAML, want)
	}
	var back map[string]any
	if err := yaml.Unmarshal([]byte(res.YAML), &back); err != nil || back["kind"] != Kind || res.Manifest["status"] != nil {
		t.Errorf("round trip %v %v, status %v", back, err, res.Manifest["status"])
	}
	if e := res.Effective; e.MinReplicas != 2 || e.MaxReplicas != 10 || e.DefaultMetric || !e.ScaleToZero {
		t.Errorf("effective %+v", e)
	}
	h.MinReplicas, h.Metrics = nil, nil
	res, _ = Plan(h)
	if e := res.Effective; e.MinReplicas != 1 || !e.DefaultMetric || strings.Contains(res.YAML, "minReplicas") || strings.Contains(res.YAML, "metrics") {
		t.Errorf("defaults are stated, not rendered: %+v\n%s", e, res.YAML)
	}
}

// group is a c5.xlarge node group: 3,620m CPU and 6 GiB per node after DaemonSets, 54 pod slots.
func group(maxNodes int64) *NodeGroupCapacity {
	return &NodeGroupCapacity{Name: "general", MaxNodes: maxNodes, WorkloadPods: 54,
		WorkloadAllocatable: keda.Allocatable{CPUMillicores: 3620, MemoryBytes: 6 << 30}}
}

func workload(cpu string, surge *string, conns *int64) *Workload {
	w := &Workload{PodTemplate: keda.PodTemplate{Containers: []keda.Container{{Name: "app", Requests: map[string]string{"cpu": cpu, "memory": "1Gi"}}}},
		ConnectionsPerPod: conns}
	if surge != nil {
		w.Rollout = &keda.Rollout{MaxSurge: surge}
	}
	return w
}

// TestCapacity: the peak is checked as a ScaledObject's, blaming maxReplicas and naming the largest safe count.
func TestCapacity(t *testing.T) {
	cases := []struct {
		name      string
		edit      func(*HorizontalPodAutoscaler)
		wantErr   string
		wantWarn  string
		wantSurge int64
	}{
		{"fits", func(h *HorizontalPodAutoscaler) {
			h.MaxReplicas, h.TargetWorkload, h.NodeGroupCapacity = 20, workload("1500m", pstr("0"), nil), group(10)
		}, "", "", 0},
		{"node group too small", func(h *HorizontalPodAutoscaler) {
			h.MaxReplicas, h.TargetWorkload, h.NodeGroupCapacity = 40, workload("2500m", pstr("0"), nil), group(20)
		}, "KCAP-E2: node group \"general\" cannot hold 40 replicas", "", 0},
		{"largest safe maxReplicas", func(h *HorizontalPodAutoscaler) {
			h.MaxReplicas, h.TargetWorkload, h.NodeGroupCapacity = 40, workload("2500m", pstr("0"), nil), group(20)
		}, "the largest safe maxReplicas is 20", "", 0},
		{"surge stalls the rollout", func(h *HorizontalPodAutoscaler) {
			h.MaxReplicas, h.TargetWorkload, h.NodeGroupCapacity = 20, workload("1500m", nil, nil), group(10)
		}, "", "KCAP-W1", 5},
		{"StatefulSets do not surge", func(h *HorizontalPodAutoscaler) {
			h.ScaleTargetRef.Kind = "StatefulSet"
			h.MaxReplicas, h.TargetWorkload, h.NodeGroupCapacity = 20, workload("1500m", nil, nil), group(10)
		}, "", "", 0},
		{"database", func(h *HorizontalPodAutoscaler) {
			h.MaxReplicas, h.TargetWorkload = 30, workload("100m", pstr("0"), p64(10))
			h.Database = &Database{Name: "orders", MaxConnections: 90}
		}, "KCAP-E4: database \"orders\" allows 90 client connections but 30 pods × 10 connections per pod need 300 at peak; the largest safe maxReplicas is 9", "", 0},
		{"database without connections", func(h *HorizontalPodAutoscaler) {
			h.Database = &Database{Name: "orders", MaxConnections: 90}
		}, "KCAP-E4: a database budget is given", "", 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := web()
			c.edit(&h)
			res, err := Plan(h)
			if res == nil {
				t.Fatal(err)
			}
			if c.wantErr == "" && err != nil || c.wantErr != "" && (err == nil || !strings.Contains(err.Error(), c.wantErr)) {
				t.Fatalf("error %v, want %q", err, c.wantErr)
			}
			if c.wantErr != "" {
				if p := field.As(err)[0].Path.String(); p != "MaxReplicas" && !strings.Contains(c.wantErr, "budget") {
					t.Errorf("blames %s, want MaxReplicas", p)
				}
				return
			}
			var codes []string
			for _, w := range res.Warnings {
				codes = append(codes, w.Code)
			}
			if strings.Join(codes, ",") != c.wantWarn || res.Summary.Surge != c.wantSurge {
				t.Errorf("warnings %v surge %d, want %q and %d", codes, res.Summary.Surge, c.wantWarn, c.wantSurge)
			}
		})
	}
}

// TestOneAutoscalerPerTarget: an HPA on a ScaledObject's target is KSO-E17 (KEDA creates an HPA of its own);
// two HPAs on one target, an HPA named as KEDA's and an existing HPA on the target are KCAP-E6.
func TestOneAutoscalerPerTarget(t *testing.T) {
	res, err := Plan(web())
	if err != nil {
		t.Fatal(err)
	}
	h := res.Summary
	so := keda.Summary{Namespace: "shop", Name: "web-so", HPAName: "keda-hpa-web-so", TargetName: "web", PeakReplicas: 5}
	other := h
	other.Name, other.HPAName = "web-2", "web-2"
	cases := []struct {
		name string
		in   keda.Check
		want string
		path string
	}{
		{"alone", keda.Check{HPAs: []keda.Summary{h}}, "", ""},
		{"on another target", keda.Check{HPAs: []keda.Summary{h}, ScaledObjects: []keda.Summary{{Namespace: "shop", Name: "api", HPAName: "keda-hpa-api", TargetName: "api", PeakReplicas: 5}}}, "", ""},
		{"with a ScaledObject", keda.Check{HPAs: []keda.Summary{h}, ScaledObjects: []keda.Summary{so}}, "KSO-E17: the workload \"web\" of type apps/v1 Deployment is scaled by both the HPA \"shop/web\" and the ScaledObject \"shop/web-so\"", "HPAs[0]"},
		{"two HPAs", keda.Check{HPAs: []keda.Summary{h, other}}, "KCAP-E6: the workload \"web\" of type apps/v1 Deployment is already scaled by the HPA \"shop/web\"", "HPAs[1]"},
		{"named as KEDA's HPA", keda.Check{ScaledObjects: []keda.Summary{{Namespace: "shop", Name: "x", HPAName: "web", TargetName: "x", PeakReplicas: 1}}, HPAs: []keda.Summary{h}}, "KCAP-E6: the HPA name \"shop/web\"", "HPAs[0]"},
		{"existing HPA", keda.Check{HPAs: []keda.Summary{h}, ExistingHPAs: []keda.ExistingHPA{{Namespace: "shop", Name: "old", TargetName: "web"}}}, "KCAP-E6", "ExistingHPAs[0]"},
		{"existing HPA is this one", keda.Check{HPAs: []keda.Summary{h}, ExistingHPAs: []keda.ExistingHPA{{Namespace: "shop", Name: "web", TargetName: "web"}}}, "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := keda.CheckAll(c.in)
			if c.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			errs := field.As(err)
			if len(errs) != 1 || !strings.HasPrefix(errs[0].Detail, c.want) || errs[0].Path.String() != c.path {
				t.Fatalf("got %v, want %q at %s", err, c.want, c.path)
			}
		})
	}
}

// TestSharedWithScaledObjects: an HPA's pods count on a shared node group and database with a ScaledObject's.
func TestSharedWithScaledObjects(t *testing.T) {
	h := web()
	h.MaxReplicas, h.TargetWorkload, h.NodeGroupCapacity = 10, workload("2500m", pstr("0"), p64(5)), group(10)
	res, err := Plan(h)
	if err != nil {
		t.Fatal(err)
	}
	so := keda.Summary{Namespace: "shop", Name: "worker", HPAName: "keda-hpa-worker", TargetName: "worker", PeakReplicas: 5, NodeGroup: "general",
		PodRequests: &resource.List{CPUMillicores: 2500, MemoryBytes: 1 << 30, Pods: 1}, ConnectionsPerPod: p64(5)}
	in := keda.Check{ScaledObjects: []keda.Summary{so}, HPAs: []keda.Summary{res.Summary}, NodeGroups: []NodeGroupCapacity{*group(10)},
		Databases: []keda.SharedDatabase{{Database: keda.Database{Name: "orders", MaxConnections: 100}, Clients: []string{"shop/worker", "shop/web"}}}}
	_, err = keda.CheckAll(in)
	if err == nil || !strings.Contains(err.Error(), `the peak of "shop/worker" and HPA "shop/web" together`) {
		t.Errorf("15 pods of 2,500m on 10 nodes: %v", err)
	}
	in.NodeGroups[0].MaxNodes = 15
	out, err := keda.CheckAll(in)
	if err != nil || out.PeakNodes["general"] != 15 || out.DatabaseDemand[0].Demand != 75 {
		t.Errorf("15 nodes: %v, %+v", err, out)
	}
}

// TestCheckCounts gives the replica errors alone.
func TestCheckCounts(t *testing.T) {
	h := HorizontalPodAutoscaler{MinReplicas: p64(5), MaxReplicas: 3}
	if errs := CheckCounts(h); len(errs) != 1 || errs[0].Path.String() != "MaxReplicas" {
		t.Errorf("got %v", errs)
	}
	h.KubernetesVersion = "2.0"
	if errs := CheckCounts(h); len(errs) != 2 || errs[0].Path.String() != "KubernetesVersion" {
		t.Errorf("got %v", errs)
	}
}
