package keda

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/resource"
)

func ptr[T any](v T) *T { return &v }

// base is a valid ScaledObject with one prometheus trigger; tests change it.
func base() ScaledObject {
	return ScaledObject{
		Name: "api", Namespace: "shop",
		ScaleTargetRef:  ScaleTargetRef{Name: "api"},
		MinReplicaCount: ptr(int64(1)), MaxReplicaCount: ptr(int64(10)),
		Triggers: []Trigger{prom("")},
	}
}

func prom(name string) Trigger {
	t := Trigger{Type: "prometheus", Metadata: map[string]string{
		"serverAddress": "http://prometheus.monitoring:9090", "query": "sum(rate(x[1m]))", "threshold": "100",
		"ignoreNullValues": "false"}}
	if name != "" {
		t.Name = ptr(name)
	}
	return t
}

func cpu(name string, metricType *string) Trigger {
	t := Trigger{Type: "cpu", MetricType: metricType, Metadata: map[string]string{"value": "70"}}
	if name != "" {
		t.Name = ptr(name)
	}
	return t
}

func codes(err error, ws []field.Warning) (errs, warns []string) {
	for _, e := range field.As(err) {
		id, _, _ := strings.Cut(e.Detail, ":")
		errs = append(errs, id)
	}
	for _, w := range ws {
		warns = append(warns, w.Code)
	}
	return errs, warns
}

func has(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// vector is one of keda.md §7.5's test vectors: an edit of base() and the rules it must trip.
type vector struct {
	name      string
	edit      func(*ScaledObject)
	wantErrs  []string // every listed rule must fail; nil means no error at all
	wantWarns []string
}

// sectionVectors are keda.md §7.5's vectors (KSO-E17's, which needs two objects, is
// TestOneScaledObjectPerTarget).
func sectionVectors() []vector {
	util := ptr("Utilization")
	return []vector{
		{"min unset, idle 0", func(s *ScaledObject) { s.MinReplicaCount = nil; s.IdleReplicaCount = ptr(int64(0)) }, []string{"KSO-E6"}, nil},
		{"min 0, idle 0", func(s *ScaledObject) { s.MinReplicaCount = ptr(int64(0)); s.IdleReplicaCount = ptr(int64(0)) }, nil, nil},
		{"min 5, max unset", func(s *ScaledObject) { s.MinReplicaCount = ptr(int64(5)); s.MaxReplicaCount = nil }, nil, []string{"KSO-W4"}},
		{"min 150, max unset", func(s *ScaledObject) { s.MinReplicaCount = ptr(int64(150)); s.MaxReplicaCount = nil }, []string{"KSO-E5", "KSO-E6"}, nil},
		{"min 3, max 3", func(s *ScaledObject) { s.MinReplicaCount = ptr(int64(3)); s.MaxReplicaCount = ptr(int64(3)) }, nil, nil},
		{"min 0, cpu only", func(s *ScaledObject) { s.MinReplicaCount = ptr(int64(0)); s.Triggers = []Trigger{cpu("", util)} }, []string{"KSO-E12"}, nil},
		{"cpu and memory with fallback", func(s *ScaledObject) {
			m := cpu("", util)
			m.Type = "memory"
			s.Triggers = []Trigger{cpu("", util), m}
			s.Fallback = &Fallback{FailureThreshold: 3, Replicas: 2}
		}, []string{"KSO-E8"}, nil},
		{"cpu without metricType", func(s *ScaledObject) { s.Triggers = []Trigger{cpu("", nil)} }, []string{"KSO-E10"}, nil},
		{"scaling modifiers target 1.5 with fallback", func(s *ScaledObject) {
			s.Triggers = []Trigger{prom("a")}
			s.Advanced = &Advanced{ScalingModifiers: &ScalingModifiers{Formula: ptr("a * 2"), Target: ptr("1.5")}}
			s.Fallback = &Fallback{FailureThreshold: 3, Replicas: 2}
		}, nil, []string{"KSO-W6"}},
		{"formula a + b with only a", func(s *ScaledObject) {
			s.Triggers = []Trigger{prom("a")}
			s.Advanced = &Advanced{ScalingModifiers: &ScalingModifiers{Formula: ptr("a + b"), Target: ptr("2")}}
		}, []string{"KSO-E9"}, nil},
		{"formula on a cpu trigger", func(s *ScaledObject) {
			s.Triggers = []Trigger{cpu("x", util)}
			s.Advanced = &Advanced{ScalingModifiers: &ScalingModifiers{Formula: ptr("x"), Target: ptr("2")}}
		}, []string{"KSO-E9"}, nil},
		{"name of 55 characters", func(s *ScaledObject) { s.Name = strings.Repeat("a", 55) }, []string{"KSO-E2"}, nil},
		{"name of 54 characters", func(s *ScaledObject) { s.Name = strings.Repeat("a", 54) }, nil, nil},
		{"threshold 0.0004", func(s *ScaledObject) { s.Triggers[0].Metadata["threshold"] = "0.0004" }, []string{"KSO-E15"}, nil},
		{"threshold 0.0005", func(s *ScaledObject) { s.Triggers[0].Metadata["threshold"] = "0.0005" }, nil, nil},
		{"threshold 0.0005 on 2.19", func(s *ScaledObject) { s.Triggers[0].Metadata["threshold"] = "0.0005"; s.KEDAVersion = "2.19" }, []string{"KSO-E15"}, nil},
		{"behavior periodSeconds 3600", func(s *ScaledObject) {
			s.Advanced = &Advanced{HorizontalPodAutoscalerConfig: &HPAConfig{Behavior: &Behavior{
				ScaleUp: &ScalingRules{Policies: []Policy{{Type: "Pods", Value: 4, PeriodSeconds: 3600}}}}}}
		}, []string{"KSO-E14"}, nil},
	}
}

// TestVectors runs every test vector of keda.md §7.5.
func TestVectors(t *testing.T) {
	for _, tt := range sectionVectors() {
		t.Run(tt.name, func(t *testing.T) {
			so := base()
			tt.edit(&so)
			res, err := Plan(so)
			if res == nil {
				t.Fatalf("no result: %v", err)
			}
			errs, warns := codes(err, res.Warnings)
			if tt.wantErrs == nil && err != nil {
				t.Fatalf("want no error, got %v", err)
			}
			for _, id := range tt.wantErrs {
				if !has(errs, id) {
					t.Errorf("want %s, got %v (%v)", id, errs, err)
				}
			}
			roundTrip(t, res)
			for _, id := range tt.wantWarns {
				if !has(warns, id) {
					t.Errorf("want warning %s, got %v", id, warns)
				}
			}
		})
	}
}

// TestRenderFieldReport renders the field report's ScaledObject and compares it with the hand-written one.
func TestRenderFieldReport(t *testing.T) {
	so := ScaledObject{Name: "prometheus-scaledobject", Namespace: "default",
		ScaleTargetRef:  ScaleTargetRef{Name: "promfiberdeploy"},
		MinReplicaCount: ptr(int64(1)), MaxReplicaCount: ptr(int64(5)),
		Triggers: []Trigger{{Type: "prometheus", Metadata: map[string]string{
			"serverAddress": "http://prometheus-server.monitoring.svc.cluster.local:80",
			"threshold":     "100", "query": "sum(irate(http_requests_total[1m]))"}}}}
	res, err := Plan(so)
	if err != nil {
		t.Fatal(err)
	}
	hand := `apiVersion: keda.sh/v1alpha1
kind: ScaledObject
metadata:
  name: prometheus-scaledobject
  namespace: default
spec:
  scaleTargetRef:
    name: promfiberdeploy
  minReplicaCount: 1
  maxReplicaCount: 5
  triggers:
  - type: prometheus
    metadata:
      serverAddress: http://prometheus-server.monitoring.svc.cluster.local:80
      threshold: '100'
      query: sum(irate(http_requests_total[1m]))
`
	var want, fromYAML, fromObject any
	if err := yaml.Unmarshal([]byte(hand), &want); err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(res.YAML, &fromYAML); err != nil {
		t.Fatalf("%v\n%s", err, res.YAML)
	}
	raw, _ := json.Marshal(res.Object)
	if err := json.Unmarshal(raw, &fromObject); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(want, fromYAML) || !reflect.DeepEqual(want, fromObject) {
		t.Fatalf("rendered\n%s\nwant the hand-written object\n%s", res.YAML, hand)
	}
	wantYAML := `apiVersion: "keda.sh/v1alpha1"
kind: "ScaledObject"
metadata:
  name: "prometheus-scaledobject"
  namespace: "default"
spec:
  scaleTargetRef:
    name: "promfiberdeploy"
  minReplicaCount: 1
  maxReplicaCount: 5
  triggers:
    - type: "prometheus"
      metadata:
        "query": "sum(irate(http_requests_total[1m]))"
        "serverAddress": "http://prometheus-server.monitoring.svc.cluster.local:80"
        "threshold": "100"
`
	if string(res.YAML) != wantYAML {
		t.Errorf("YAML:\n%s\nwant\n%s", res.YAML, wantYAML)
	}
	if res.HPAName != "keda-hpa-prometheus-scaledobject" || res.Effective.HPAMinReplicas != 1 || res.Effective.PollingIntervalSeconds != 30 {
		t.Errorf("hpa %q effective %+v", res.HPAName, res.Effective)
	}
}

// TestNodeGroupCapacity is the case: 40 replicas at 2,500m CPU on c5.xlarge nodes, at most 20.
func TestNodeGroupCapacity(t *testing.T) {
	so := base()
	so.MaxReplicaCount = ptr(int64(40))
	so.TargetWorkload = &Workload{PodTemplate: PodTemplate{Containers: []Container{{Name: "app",
		Requests: map[string]string{"cpu": "2500m", "memory": "1Gi"}}}}}
	so.NodeGroupCapacity = &NodeGroupCapacity{Name: "general", MaxNodes: 20, Zones: []string{"a", "b", "c"},
		WorkloadAllocatable: Allocatable{CPUMillicores: 3_620, MemoryBytes: 6 << 30, EphemeralBytes: 18 << 30}, WorkloadPods: 54}
	_, err := Plan(so)
	errs := field.As(err)
	if len(errs) != 1 || !strings.HasPrefix(errs[0].Detail, "KCAP-E2") || !strings.Contains(errs[0].Detail, `"general"`) ||
		!strings.Contains(errs[0].Detail, "largest safe maxReplicaCount is 20") || errs[0].Path.String() != "MaxReplicaCount" {
		t.Fatalf("got %v", err)
	}
	so.NodeGroupCapacity.MaxNodes = 40
	res, err := Plan(so)
	if err != nil {
		t.Fatalf("max 40 nodes: %v", err)
	}
	_, warns := codes(nil, res.Warnings)
	if !has(warns, "KCAP-W1") { // 40 + 10 surge pods need 50 nodes
		t.Errorf("want KCAP-W1, got %v", warns)
	}
}

// TestSection91Example is keda.md §9.1's example: passes KCAP-E2 on 10 nodes and warns KCAP-W1.
func TestSection91Example(t *testing.T) {
	so := base()
	so.MaxReplicaCount = ptr(int64(30))
	so.TargetWorkload = &Workload{PodTemplate: PodTemplate{Containers: []Container{{Name: "app",
		Requests: map[string]string{"cpu": "500m", "memory": "256Mi"}}}}}
	so.NodeGroupCapacity = &NodeGroupCapacity{Name: "g", MaxNodes: 10,
		WorkloadAllocatable: Allocatable{CPUMillicores: 1930, MemoryBytes: 69 << 30 / 10}, WorkloadPods: 29}
	res, err := Plan(so)
	if err != nil {
		t.Fatal(err)
	}
	if res.Summary.Surge != 8 {
		t.Errorf("surge %d, want 8", res.Summary.Surge)
	}
	if _, w := codes(nil, res.Warnings); !has(w, "KCAP-W1") {
		t.Errorf("warnings %v", w)
	}
}

func TestDatabase(t *testing.T) {
	so := base()
	so.MaxReplicaCount = ptr(int64(30))
	so.TargetWorkload = &Workload{Rollout: &Rollout{Strategy: "Recreate"}, ConnectionsPerPod: ptr(int64(10))}
	so.Database = &Database{Name: "orders-mysql", MaxConnections: 90}
	_, err := Plan(so)
	errs := field.As(err)
	if len(errs) != 1 || !strings.HasPrefix(errs[0].Detail, "KCAP-E4") || !strings.Contains(errs[0].Detail, "need 300") ||
		!strings.Contains(errs[0].Detail, "largest safe maxReplicaCount is 9") {
		t.Fatalf("got %v", err)
	}
	so.MaxReplicaCount = ptr(int64(9))
	res, err := Plan(so)
	if err != nil {
		t.Fatal(err)
	}
	if _, w := codes(nil, res.Warnings); !has(w, "KCAP-W2") {
		t.Errorf("warnings %v", w)
	}
}

func TestRequestsRule(t *testing.T) {
	so := base()
	so.Triggers = []Trigger{cpu("", ptr("Utilization"))}
	so.TargetWorkload = &Workload{PodTemplate: PodTemplate{Containers: []Container{{Name: "php"}},
		PodResources: &PodResources{Requests: map[string]string{"cpu": "1"}}}}
	if _, err := Plan(so); err != nil {
		t.Fatalf("pod-level requests on 2.21: %v", err)
	}
	so.KEDAVersion = "2.20"
	if _, err := Plan(so); err == nil || !strings.Contains(err.Error(), "KSO-E11") {
		t.Fatalf("pod-level requests on 2.20: %v", err)
	}
	so.KEDAVersion = ""
	so.TargetWorkload.PodTemplate.PodResources = nil
	if _, err := Plan(so); err == nil || !strings.Contains(err.Error(), "KSO-E11") {
		t.Fatalf("no requests: %v", err)
	}
	so.NamespaceLimitRangeDefaults = map[string]string{"cpu": "100m"}
	if _, err := Plan(so); err != nil {
		t.Fatalf("LimitRange default: %v", err)
	}
}

// TestOneScaledObjectPerTarget is §7.5's KSO-E17 vector: apiVersion unset and apps/v1 name the same target.
func TestOneScaledObjectPerTarget(t *testing.T) {
	a, b := base(), base()
	b.Name = "api-2"
	b.ScaleTargetRef.APIVersion = ptr("apps/v1")
	ra, _ := Plan(a)
	rb, _ := Plan(b)
	_, err := CheckAll(Check{ScaledObjects: []Summary{ra.Summary, rb.Summary}})
	if err == nil || !strings.HasPrefix(field.As(err)[0].Detail, "KSO-E17") || field.As(err)[0].Path.String() != "ScaledObjects[1]" {
		t.Fatalf("got %v", err)
	}
	b.ScaleTargetRef.Kind = ptr("StatefulSet")
	rb, _ = Plan(b)
	if _, err := CheckAll(Check{ScaledObjects: []Summary{ra.Summary, rb.Summary}}); err != nil {
		t.Fatalf("Deployment and StatefulSet of the same name: %v", err)
	}
}

func TestSharedDatabaseAndGroup(t *testing.T) {
	mk := func(name string, maxR int64) Summary {
		so := base()
		so.Name, so.ScaleTargetRef.Name = name, name
		so.MaxReplicaCount = ptr(maxR)
		so.TargetWorkload = &Workload{ConnectionsPerPod: ptr(int64(5)), PodTemplate: PodTemplate{Containers: []Container{{Name: "app",
			Requests: map[string]string{"cpu": "500m", "memory": "256Mi"}}}}}
		so.NodeGroupCapacity = &NodeGroupCapacity{Name: "general", MaxNodes: 10,
			WorkloadAllocatable: Allocatable{CPUMillicores: 1930, MemoryBytes: 7 << 30}, WorkloadPods: 29}
		r, err := Plan(so)
		if err != nil {
			t.Fatal(err)
		}
		return r.Summary
	}
	in := Check{ScaledObjects: []Summary{mk("api", 12), mk("worker", 12)},
		NodeGroups: []NodeGroupCapacity{{Name: "general", MaxNodes: 10,
			WorkloadAllocatable: Allocatable{CPUMillicores: 1930, MemoryBytes: 7 << 30}, WorkloadPods: 29}},
		Databases: []SharedDatabase{{Database: Database{Name: "orders", MaxConnections: 90}, Clients: []string{"shop/api", "shop/worker"}}}}
	_, err := CheckAll(in)
	var ids []string
	for _, e := range field.As(err) {
		id, _, _ := strings.Cut(e.Detail, ":")
		ids = append(ids, id)
	}
	// 24 pods at 3 per node need 8 nodes: fits 10. Connections (12+3)×5 × 2 = 150 > 90.
	if !reflect.DeepEqual(ids, []string{"KCAP-E4"}) {
		t.Fatalf("got %v", err)
	}
	// The other client's 75 leave 15 connections, 3 pods: 2 replicas and 1 surge pod (25 % of 2, rounded up).
	if msg := err.Error(); !strings.Contains(msg, "the largest safe maxReplicaCount of shop/api, the others unchanged, is 2 with its rollout surge (1 surge pod at 2 replicas)") ||
		!strings.Contains(msg, "raise its max_connections to 150") {
		t.Errorf("KCAP-E4 does not name the largest safe count: %v", msg)
	}
	in.NodeGroups[0].MaxNodes = 7
	_, err = CheckAll(in)
	if err == nil || !strings.Contains(err.Error(), "KCAP-E2") {
		t.Fatalf("7 nodes: %v", err)
	}
}

// roundTrip checks that the YAML decodes to the same value as the object (yamldecode(yaml) == manifest).
func roundTrip(t *testing.T, res *Result) {
	t.Helper()
	var fromYAML, fromObject any
	if err := yaml.Unmarshal(res.YAML, &fromYAML); err != nil {
		t.Fatalf("%v\n%s", err, res.YAML)
	}
	raw, err := json.Marshal(res.Object)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &fromObject); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(fromYAML, fromObject) {
		t.Fatalf("YAML and object differ:\n%s\n%s", res.YAML, raw)
	}
}

// TestRenderEverything renders every field once, with awkward strings (YAML 1.1 booleans, octal-looking
// numbers, empty strings, newlines), and checks key order and the round trip.
func TestRenderEverything(t *testing.T) {
	so := ScaledObject{Name: "all", Namespace: "ns",
		Labels:      map[string]string{"on": "yes", "b": "0777", "a": ""},
		Annotations: map[string]string{"off": "off", "note": "line1\nline2 \"quoted\"", AnnotationPausedReplicas: "3"},
		ScaleTargetRef: ScaleTargetRef{Name: "web", APIVersion: ptr("apps/v1"), Kind: ptr("StatefulSet"),
			EnvSourceContainerName: ptr("app")},
		PollingInterval: ptr(int64(15)), InitialCooldownPeriod: ptr(int64(0)), CooldownPeriod: ptr(int64(60)),
		IdleReplicaCount: ptr(int64(0)), MinReplicaCount: ptr(int64(1)), MaxReplicaCount: ptr(int64(9)),
		Advanced: &Advanced{RestoreToOriginalReplicaCount: ptr(true),
			HorizontalPodAutoscalerConfig: &HPAConfig{Name: ptr("web-hpa"), Behavior: &Behavior{
				ScaleUp:   &ScalingRules{StabilizationWindowSeconds: ptr(int64(0)), SelectPolicy: ptr("Max"), Policies: []Policy{{"Pods", 4, 15}}, Tolerance: ptr("0.05")},
				ScaleDown: &ScalingRules{SelectPolicy: ptr("Disabled")}}},
			ScalingModifiers: &ScalingModifiers{Formula: ptr("q ?? 1"), Target: ptr("5"), ActivationTarget: ptr("1e3"), MetricType: ptr("Value")}},
		Triggers: []Trigger{
			{Type: "prometheus", Name: ptr("q"), MetricType: ptr("Value"), UseCachedMetrics: ptr(false),
				Metadata:          map[string]string{"serverAddress": "https://p", "query": "up", "threshold": "1", "ignoreNullValues": "f"},
				AuthenticationRef: &AuthenticationRef{Name: "auth", Kind: ptr("ClusterTriggerAuthentication")}},
			{Type: "kafka", Metadata: nil},
		},
		Fallback: &Fallback{FailureThreshold: 3, Replicas: 4, Behavior: ptr("scalingModifiers")},
	}
	res, err := Plan(so)
	if err != nil {
		t.Fatal(err)
	}
	roundTrip(t, res)
	y := string(res.YAML)
	order := []string{"apiVersion:", "kind:", "metadata:", "  name:", "  namespace:", "  labels:", "  annotations:", "spec:",
		"scaleTargetRef:", "    apiVersion:", "    kind:", "    name:", "    envSourceContainerName:", "pollingInterval:",
		"initialCooldownPeriod:", "cooldownPeriod:", "idleReplicaCount:", "minReplicaCount:", "maxReplicaCount:", "advanced:",
		"horizontalPodAutoscalerConfig:", "behavior:", "scaleUp:", "stabilizationWindowSeconds:", "selectPolicy:", "policies:",
		"periodSeconds:", "tolerance:", "scaleDown:", "restoreToOriginalReplicaCount:", "scalingModifiers:", "formula:",
		"activationTarget:", "fallback:", "failureThreshold:", "triggers:", "type: \"prometheus\"", "name: \"q\"", "metricType:",
		"useCachedMetrics:", "authenticationRef:", "type: \"kafka\"", "metadata: {}"}
	at := 0
	for _, k := range order {
		i := strings.Index(y[at:], k)
		if i < 0 {
			t.Fatalf("%q missing or out of order after byte %d:\n%s", k, at, y)
		}
		at += i
	}
	for _, want := range []string{`"on": "yes"`, `"b": "0777"`, `"a": ""`, `"ignoreNullValues": "f"`, `activationTarget: "1e3"`} {
		if !strings.Contains(y, want) {
			t.Errorf("YAML lacks %s:\n%s", want, y)
		}
	}
	if strings.HasPrefix(y, "---") || !strings.HasSuffix(y, "\n") || strings.Contains(y, "\r") {
		t.Errorf("document framing:\n%q", y)
	}
}

// TestReachability is §9.4's field-report case: 500m request, 5 workers × 30m = 150m, 30 % ≤ 33 %.
func TestReachability(t *testing.T) {
	so := base()
	so.Triggers = []Trigger{{Type: "cpu", MetricType: ptr("Utilization"), Metadata: map[string]string{"value": "30"}}}
	so.TargetWorkload = &Workload{MaxConcurrencyPerPod: ptr(int64(5)), CPUPerBusyWorker: ptr("30m"),
		PodTemplate: PodTemplate{Containers: []Container{{Name: "php", Requests: map[string]string{"cpu": "500m"}}}}}
	_, err := Plan(so)
	if err == nil || !strings.HasPrefix(err.Error(), "KCAP-E5") || !strings.Contains(err.Error(), "30 %") {
		t.Fatalf("got %v", err)
	}
	so.Triggers = append(so.Triggers, prom(""))
	res, err := Plan(so)
	if err != nil {
		t.Fatal(err)
	}
	if _, w := codes(nil, res.Warnings); !has(w, "KCAP-W3") {
		t.Errorf("warnings %v", w)
	}
	so.Triggers = so.Triggers[:1]
	so.TargetWorkload.CPUPerBusyWorker = ptr("200m") // 1,000m = 200 % > 33 %: reachable, but warned
	res, err = Plan(so)
	if err != nil {
		t.Fatal(err)
	}
	if _, w := codes(nil, res.Warnings); !has(w, "KCAP-W3") {
		t.Errorf("warnings %v", w)
	}
}

// TestReachabilityArithmetic follows the HPA controller's arithmetic (review defect 3): the utilization is a
// whole percentage rounded down (GetResourceUtilizationRatio), compared with 1 + the scale-up tolerance
// (Tolerances.isWithin), the HPA's own tolerance where Kubernetes honours it; sidecars count in the request.
func TestReachabilityArithmetic(t *testing.T) {
	cpuOnly := func(target string, workers int64, perWorker, request string) ScaledObject {
		so := base()
		so.Triggers = []Trigger{{Type: "cpu", MetricType: ptr("Utilization"), Metadata: map[string]string{"value": target}}}
		so.TargetWorkload = &Workload{MaxConcurrencyPerPod: ptr(workers), CPUPerBusyWorker: ptr(perWorker),
			PodTemplate: PodTemplate{Containers: []Container{{Name: "php", Requests: map[string]string{"cpu": request}}}}}
		return so
	}
	tolerance := func(so *ScaledObject, tol, kube string) {
		so.KubernetesVersion = kube
		so.Advanced = &Advanced{HorizontalPodAutoscalerConfig: &HPAConfig{Behavior: &Behavior{ScaleUp: &ScalingRules{Tolerance: ptr(tol)}}}}
	}
	unreachable := func(so ScaledObject) bool {
		_, err := Plan(so)
		return err != nil && strings.Contains(err.Error(), "KCAP-E5")
	}
	// 150m of 450m is 33.3 %, which the HPA rounds down to 33: 33 / 30 = 1.1, not above 1.1.
	if so := cpuOnly("30", 5, "30m", "450m"); !unreachable(so) {
		t.Error("33.3 % (33 rounded down) of a 30 % target: want KCAP-E5")
	}
	// 34 % of 30 %: 1.133 > 1.1, reachable.
	if so := cpuOnly("30", 1, "170m", "500m"); unreachable(so) {
		t.Error("34 % of a 30 % target: reachable, want no KCAP-E5")
	}
	// 60 % of 50 % is 1.2: above the default 1.1, within a scale-up tolerance of 0.25 on 1.36.
	so := cpuOnly("50", 1, "300m", "500m")
	if unreachable(so) {
		t.Error("60 % of 50 % with the default tolerance: reachable")
	}
	tolerance(&so, "0.25", "1.36")
	if !unreachable(so) {
		t.Error("60 % of 50 % with a scale-up tolerance of 0.25 on 1.36: want KCAP-E5")
	}
	tolerance(&so, "0.25", "1.34") // not honoured: the default 0.1
	if unreachable(so) {
		t.Error("tolerance 0.25 on 1.34 (not honoured): reachable")
	}
	tolerance(&so, "0.25", "") // version unknown: only what is unreachable either way
	if unreachable(so) {
		t.Error("tolerance 0.25, Kubernetes version unknown: reachable under the default, want no error")
	}
	// A sidecar's request counts: 300m of 500m + 100m is 50 %, not above 50 % × 1.1.
	so = cpuOnly("50", 1, "300m", "500m")
	so.TargetWorkload.PodTemplate.InitContainers = []Container{{Name: "proxy", RestartPolicy: ptr("Always"), Requests: map[string]string{"cpu": "100m"}}}
	if !unreachable(so) {
		t.Error("with a 100m sidecar the request is 600m: 50 % of 50 %, want KCAP-E5")
	}
}

func withWorkload(s *ScaledObject, containers ...Container) {
	s.TargetWorkload = &Workload{PodTemplate: PodTemplate{Containers: containers}}
}

// ruleCase is an edit of base() and one diagnostic it must give ("" id and path: no error at all).
type ruleCase struct {
	name     string
	edit     func(*ScaledObject)
	id, path string // the rule and the path of (one of) its diagnostics
	warning  bool
}

// ruleCases cover each rule beyond the §7.5 vectors.
func ruleCases() []ruleCase {
	util := ptr("Utilization")
	return []ruleCase{
		{"upper-case name", func(s *ScaledObject) { s.Name = "API" }, "KSO-E1", "Name", false},
		{"64-character name", func(s *ScaledObject) { s.Name = strings.Repeat("a", 64) }, "KSO-E1", "Name", false},
		{"namespace with a dot", func(s *ScaledObject) { s.Namespace = "a.b" }, "KSO-E1", "Namespace", false},
		{"custom HPA name invalid", func(s *ScaledObject) {
			s.Advanced = &Advanced{HorizontalPodAutoscalerConfig: &HPAConfig{Name: ptr("Bad_Name")}}
		}, "KSO-E2", "Advanced.HorizontalPodAutoscalerConfig.Name", false},
		{"empty target", func(s *ScaledObject) { s.ScaleTargetRef.Name = "" }, "KSO-E3", "ScaleTargetRef.Name", false},
		{"bad apiVersion", func(s *ScaledObject) { s.ScaleTargetRef.APIVersion = ptr("a/b/c") }, "KSO-E3", "ScaleTargetRef.APIVersion", false},
		{"polling 0", func(s *ScaledObject) { s.PollingInterval = ptr(int64(0)) }, "KSO-E4", "PollingInterval", false},
		{"max 0", func(s *ScaledObject) { s.MaxReplicaCount = ptr(int64(0)) }, "KSO-E4", "MaxReplicaCount", false},
		{"min above max", func(s *ScaledObject) { s.MinReplicaCount = ptr(int64(11)) }, "KSO-E6", "MinReplicaCount", false},
		{"max -1 with min unset", func(s *ScaledObject) { s.MinReplicaCount, s.MaxReplicaCount = nil, ptr(int64(-1)) }, "KSO-E6", "MaxReplicaCount", false},
		{"no triggers", func(s *ScaledObject) { s.Triggers = nil }, "KSO-E7", "Triggers", false},
		{"duplicate names", func(s *ScaledObject) { s.Triggers = []Trigger{prom("a"), prom("a")} }, "KSO-E7", "Triggers[1].Name", false},
		{"cached cpu", func(s *ScaledObject) {
			c := cpu("", util)
			c.UseCachedMetrics = ptr(true)
			s.Triggers = []Trigger{prom(""), c}
		}, "KSO-E7", "Triggers[1].UseCachedMetrics", false},
		{"fallback behavior scalingModifiers on 2.19", func(s *ScaledObject) {
			s.KEDAVersion = "2.19"
			s.Fallback = &Fallback{FailureThreshold: 1, Replicas: 2, Behavior: ptr("scalingModifiers")}
		}, "KSO-E8", "Fallback.Behavior", false},
		{"fallback behavior scalingModifiers without formula", func(s *ScaledObject) {
			s.Fallback = &Fallback{FailureThreshold: 1, Replicas: 2, Behavior: ptr("scalingModifiers")}
		}, "KSO-E8", "Fallback.Behavior", false},
		{"fallback Value trigger on 2.17", func(s *ScaledObject) {
			s.KEDAVersion = "2.17"
			s.Triggers[0].MetricType = ptr("Value")
			s.Fallback = &Fallback{FailureThreshold: 1, Replicas: 2}
		}, "KSO-E8", "Fallback", false},
		{"modifiers without target", func(s *ScaledObject) {
			s.Triggers = []Trigger{prom("a")}
			s.Advanced = &Advanced{ScalingModifiers: &ScalingModifiers{Formula: ptr("a")}}
		}, "KSO-E9", "Advanced.ScalingModifiers.Target", false},
		{"modifiers target 0", func(s *ScaledObject) {
			s.Triggers = []Trigger{prom("a")}
			s.Advanced = &Advanced{ScalingModifiers: &ScalingModifiers{Formula: ptr("a"), Target: ptr("0")}}
		}, "KSO-E9", "Advanced.ScalingModifiers.Target", false},
		{"modifiers target below a thousandth", func(s *ScaledObject) {
			s.Triggers = []Trigger{prom("a")}
			s.Advanced = &Advanced{ScalingModifiers: &ScalingModifiers{Formula: ptr("a"), Target: ptr("0.0009")}}
		}, "KSO-E9", "Advanced.ScalingModifiers.Target", false},
		{"modifiers target Inf", func(s *ScaledObject) {
			s.Triggers = []Trigger{prom("a")}
			s.Advanced = &Advanced{ScalingModifiers: &ScalingModifiers{Formula: ptr("a"), Target: ptr("Inf")}}
		}, "KSO-E9", "Advanced.ScalingModifiers.Target", false},
		{"modifiers activation target", func(s *ScaledObject) {
			s.Triggers = []Trigger{prom("a")}
			s.Advanced = &Advanced{ScalingModifiers: &ScalingModifiers{Formula: ptr("a"), Target: ptr("2"), ActivationTarget: ptr("x")}}
		}, "KSO-E9", "Advanced.ScalingModifiers.ActivationTarget", false},
		{"modifiers without formula", func(s *ScaledObject) {
			s.Advanced = &Advanced{ScalingModifiers: &ScalingModifiers{Target: ptr("2")}}
		}, "KSO-E9", "Advanced.ScalingModifiers.Formula", false},
		{"cpu metadata type on 2.21", func(s *ScaledObject) {
			c := cpu("", util)
			c.Metadata["type"] = "Utilization"
			s.Triggers = []Trigger{c}
		}, "KSO-E10", `Triggers[0].Metadata["type"]`, false},
		{"cpu value not a percentage", func(s *ScaledObject) {
			c := cpu("", util)
			c.Metadata["value"] = "70%"
			s.Triggers = []Trigger{c}
		}, "KSO-E10", `Triggers[0].Metadata["value"]`, false},
		{"cpu containerName not in template", func(s *ScaledObject) {
			c := cpu("", util)
			c.Metadata["containerName"] = "nope"
			s.Triggers = []Trigger{c}
			withWorkload(s, Container{Name: "app", Requests: map[string]string{"cpu": "1"}})
		}, "KSO-E10", `Triggers[0].Metadata["containerName"]`, false},
		{"containerName repeated, one without the request", func(s *ScaledObject) {
			c := cpu("", util)
			c.Metadata["containerName"] = "app"
			s.Triggers = []Trigger{c}
			withWorkload(s, Container{Name: "app"}, Container{Name: "app", Requests: map[string]string{"cpu": "1"}})
		}, "KSO-E11", "Triggers[0].Type", false},
		{"memory trigger without memory request", func(s *ScaledObject) {
			m := cpu("", ptr("AverageValue"))
			m.Type, m.Metadata["value"] = "memory", "512Mi"
			s.Triggers = []Trigger{m}
			withWorkload(s, Container{Name: "app", Requests: map[string]string{"cpu": "1"}})
		}, "KSO-E11", "Triggers[0].Type", false},
		{"limit stands in for a request", func(s *ScaledObject) {
			s.Triggers = []Trigger{cpu("", util)}
			withWorkload(s, Container{Name: "app", Limits: map[string]string{"cpu": "1"}})
		}, "", "", false},
		{"containerName with pod-level requests only", func(s *ScaledObject) {
			c := cpu("", util)
			c.Metadata["containerName"] = "app"
			s.Triggers = []Trigger{c}
			withWorkload(s, Container{Name: "app"})
			s.TargetWorkload.PodTemplate.PodResources = &PodResources{Requests: map[string]string{"cpu": "1"}}
		}, "KSO-E11", `Triggers[0].Metadata["containerName"]`, false},
		{"pod-level requests on Kubernetes 1.33", func(s *ScaledObject) {
			s.KubernetesVersion = "1.33"
			s.Triggers = []Trigger{cpu("", util)}
			withWorkload(s, Container{Name: "app"})
			s.TargetWorkload.PodTemplate.PodResources = &PodResources{Requests: map[string]string{"cpu": "1"}}
		}, "KSO-E11", "Triggers[0].Type", false},
		{"Utilization on a prometheus trigger", func(s *ScaledObject) { s.Triggers[0].MetricType = ptr("Utilization") }, "KSO-E13", "Triggers[0].MetricType", false},
		{"policy type", func(s *ScaledObject) {
			s.Advanced = &Advanced{HorizontalPodAutoscalerConfig: &HPAConfig{Behavior: &Behavior{
				ScaleDown: &ScalingRules{Policies: []Policy{{Type: "pods", Value: 1, PeriodSeconds: 60}}}}}}
		}, "KSO-E14", "Advanced.HorizontalPodAutoscalerConfig.Behavior.ScaleDown.Policies[0].Type", false},
		{"stabilization window", func(s *ScaledObject) {
			s.Advanced = &Advanced{HorizontalPodAutoscalerConfig: &HPAConfig{Behavior: &Behavior{
				ScaleDown: &ScalingRules{StabilizationWindowSeconds: ptr(int64(3601))}}}}
		}, "KSO-E14", "Advanced.HorizontalPodAutoscalerConfig.Behavior.ScaleDown.StabilizationWindowSeconds", false},
		{"prometheus address", func(s *ScaledObject) { s.Triggers[0].Metadata["serverAddress"] = "prometheus:9090" }, "KSO-E15", `Triggers[0].Metadata["serverAddress"]`, false},
		{"prometheus timeout", func(s *ScaledObject) { s.Triggers[0].Metadata["timeout"] = "-5s" }, "KSO-E15", `Triggers[0].Metadata["timeout"]`, false},
		{"prometheus auth modes", func(s *ScaledObject) { s.Triggers[0].Metadata["authModes"] = "basic,bearer" }, "KSO-E15", `Triggers[0].Metadata["authModes"]`, false},
		{"prometheus headers", func(s *ScaledObject) { s.Triggers[0].Metadata["customHeaders"] = "a" }, "KSO-E15", `Triggers[0].Metadata["customHeaders"]`, false},
		{"paused replicas", func(s *ScaledObject) { s.Annotations = map[string]string{AnnotationPausedReplicas: "two"} }, "KSO-E16", `Annotations["autoscaling.keda.sh/paused-replicas"]`, false},
		{"tolerance", func(s *ScaledObject) {
			s.Advanced = &Advanced{HorizontalPodAutoscalerConfig: &HPAConfig{Behavior: &Behavior{ScaleUp: &ScalingRules{Tolerance: ptr("5%")}}}}
		}, "KSO-E18", "Advanced.HorizontalPodAutoscalerConfig.Behavior.ScaleUp.Tolerance", false},
		{"auth kind", func(s *ScaledObject) {
			s.Triggers[0].AuthenticationRef = &AuthenticationRef{Name: "a", Kind: ptr("Secret")}
		}, "KSO-E19", "Triggers[0].AuthenticationRef.Kind", false},
		{"label value", func(s *ScaledObject) { s.Labels = map[string]string{"a": "has space"} }, "KSO-E20", `Labels["a"]`, false},
		{"KEDA version out of range", func(s *ScaledObject) { s.KEDAVersion = "2.16" }, "", "KEDAVersion", false},
		{"polling irrelevant", func(s *ScaledObject) { s.PollingInterval = ptr(int64(10)) }, "KSO-W1", "PollingInterval", true},
		{"cooldown irrelevant", func(s *ScaledObject) { s.CooldownPeriod = ptr(int64(10)) }, "KSO-W2", "CooldownPeriod", true},
		{"idle 1", func(s *ScaledObject) { s.MinReplicaCount = ptr(int64(2)); s.IdleReplicaCount = ptr(int64(1)) }, "KSO-W3", "IdleReplicaCount", true},
		{"fallback above max", func(s *ScaledObject) { s.Fallback = &Fallback{FailureThreshold: 3, Replicas: 20} }, "KSO-W5", "Fallback.Replicas", true},
		{"unknown prometheus key", func(s *ScaledObject) { s.Triggers[0].Metadata["treshold"] = "1" }, "KSO-W7", `Triggers[0].Metadata["treshold"]`, true},
		{"ignoreNullValues unset at min 0", func(s *ScaledObject) {
			s.MinReplicaCount = ptr(int64(0))
			delete(s.Triggers[0].Metadata, "ignoreNullValues")
		}, "KSO-W9", "Triggers[0].Metadata", true},
		{"cpu on a Rollout", func(s *ScaledObject) {
			s.ScaleTargetRef.APIVersion, s.ScaleTargetRef.Kind = ptr("argoproj.io/v1alpha1"), ptr("Rollout")
			s.Triggers = []Trigger{cpu("", util)}
		}, "KSO-W10", "Triggers[0].Type", true},
		{"memory trigger", func(s *ScaledObject) {
			m := cpu("", util)
			m.Type = "memory"
			s.Triggers = []Trigger{prom(""), m}
		}, "KSO-W11", "Triggers[1].Type", true},
		{"fallback with Value at min 0", func(s *ScaledObject) {
			s.MinReplicaCount = ptr(int64(0))
			s.Triggers[0].MetricType = ptr("Value")
			s.Fallback = &Fallback{FailureThreshold: 3, Replicas: 2}
		}, "KSO-W12", "Triggers[0].MetricType", true},
		{"tolerance on 1.33", func(s *ScaledObject) {
			s.KubernetesVersion = "1.33"
			s.Advanced = &Advanced{HorizontalPodAutoscalerConfig: &HPAConfig{Behavior: &Behavior{ScaleUp: &ScalingRules{Tolerance: ptr("0.05")}}}}
		}, "KSO-W13", "Advanced.HorizontalPodAutoscalerConfig.Behavior.ScaleUp.Tolerance", true},
		{"pod larger than a node", func(s *ScaledObject) {
			withWorkload(s, Container{Name: "app", Requests: map[string]string{"cpu": "8"}})
			s.NodeGroupCapacity = &NodeGroupCapacity{Name: "small", MaxNodes: 10,
				WorkloadAllocatable: Allocatable{CPUMillicores: 1930, MemoryBytes: 1 << 30}, WorkloadPods: 10}
		}, "KCAP-E1", "TargetWorkload.PodTemplate", false},
		{"zone skew", func(s *ScaledObject) {
			withWorkload(s, Container{Name: "app", Requests: map[string]string{"cpu": "1"}})
			s.MaxReplicaCount = ptr(int64(9))
			s.TargetWorkload.Rollout = &Rollout{Strategy: "Recreate"}
			s.TargetWorkload.TopologySpread = []SpreadConstraint{{TopologyKey: ZoneKey, MaxSkew: 1, WhenUnsatisfiable: "DoNotSchedule"}}
			one := int64(1)
			s.NodeGroupCapacity = &NodeGroupCapacity{Name: "g", MaxNodes: 9, MaxNodesPerZone: &one, Zones: []string{"a", "b", "c"},
				WorkloadAllocatable: Allocatable{CPUMillicores: 2000, MemoryBytes: 4 << 30}, WorkloadPods: 10}
		}, "KCAP-E3", "TargetWorkload.TopologySpread[0]", false},
	}
}

// TestRules covers each rule beyond the §7.5 vectors, with the path it reports.
func TestRules(t *testing.T) {
	for _, tt := range ruleCases() {
		t.Run(tt.name, func(t *testing.T) {
			so := base()
			tt.edit(&so)
			res, err := Plan(so)
			if res == nil {
				t.Fatal(err)
			}
			if tt.warning || tt.path == "" {
				if err != nil {
					t.Fatalf("want no error, got %v", err)
				}
			}
			if tt.path == "" {
				return
			}
			if tt.warning {
				for _, w := range res.Warnings {
					if w.Code == tt.id && w.Path.String() == tt.path && strings.HasPrefix(w.Message, tt.id+": ") {
						return
					}
				}
				t.Fatalf("want warning %s at %s, got %+v", tt.id, tt.path, res.Warnings)
			}
			for _, e := range field.As(err) {
				if strings.HasPrefix(e.Detail, tt.id) && e.Path.String() == tt.path {
					return
				}
			}
			t.Fatalf("want %s at %s, got %v %v", tt.id, tt.path, err, paths(err))
		})
	}
}

func paths(err error) []string {
	var out []string
	for _, e := range field.As(err) {
		out = append(out, e.Path.String())
	}
	return out
}

// TestDNSAndSharedSurge: 2 workloads × (20 + 5) pods × 20 lookups × 4 queries = 4,000 pps against two
// CoreDNS nodes (2,048 pps): the resolver binds, above its ceiling (KCAP-E7). With NodeLocal DNSCache every node
// at peak sends its own.
func TestDNSAndSharedSurge(t *testing.T) {
	mk := func(name string) Summary {
		lookups := 20.0
		return Summary{Namespace: "shop", Name: name, HPAName: "keda-hpa-" + name, TargetName: name, PeakReplicas: 20, Surge: 5,
			PodRequests: &resource.List{CPUMillicores: 500, MemoryBytes: 256 << 20, Pods: 1}, DNSLookupsPerSecond: &lookups, NodeGroup: "g"}
	}
	in := Check{ScaledObjects: []Summary{mk("a"), mk("b")}, DNS: &DNS{},
		NodeGroups: []NodeGroupCapacity{{Name: "g", MaxNodes: 14, WorkloadAllocatable: Allocatable{CPUMillicores: 1930, MemoryBytes: 8 << 30}, WorkloadPods: 29}}}
	res, err := CheckAll(in)
	if e, w := codes(err, res.Warnings); !has(e, "KCAP-E7") || !has(w, "KCAP-W1") || res.DNS == nil || res.DNS.Binding != CeilingResolver {
		// 40 pods at 3 per node: 14 nodes; with the largest surge (5) 45 pods need 15.
		t.Fatalf("errors %v, warnings %v, DNS %+v", err, res.Warnings, res.DNS)
	}
	if res.PeakNodes["g"] != 14 {
		t.Errorf("peak nodes %d, want 14", res.PeakNodes["g"])
	}
	in.DNS = &DNS{NodeLocalDNSCache: true} // budget 14 × 1,024
	res, err = CheckAll(in)
	if e, w := codes(err, res.Warnings); has(w, "KCAP-W4") || has(e, "KCAP-E7") {
		t.Fatalf("errors %v, warnings %v", err, res.Warnings)
	}
}

// TestSharedZones: two workloads of 12 replicas spread over 3 zones with skew 1 need 4 pods each per zone
// (8 pods at 4 per node: 2 nodes), but the group declares 1 node per zone; with 2 it passes.
func TestSharedZones(t *testing.T) {
	spread := []SpreadConstraint{{TopologyKey: ZoneKey, MaxSkew: 1, WhenUnsatisfiable: "DoNotSchedule"}}
	mk := func(name string) Summary {
		return Summary{Namespace: "shop", Name: name, HPAName: "keda-hpa-" + name, TargetName: name, PeakReplicas: 12,
			PodRequests: &resource.List{CPUMillicores: 500, MemoryBytes: 256 << 20, Pods: 1}, ZonalSpread: spread, NodeGroup: "g"}
	}
	in := Check{ScaledObjects: []Summary{mk("a"), mk("b")},
		NodeGroups: []NodeGroupCapacity{{Name: "g", MaxNodes: 6, Zones: []string{"a", "b", "c"}, MaxNodesPerZone: ptr(int64(1)),
			WorkloadAllocatable: Allocatable{CPUMillicores: 2000, MemoryBytes: 8 << 30}, WorkloadPods: 29}}}
	_, err := CheckAll(in)
	if err == nil || !strings.HasPrefix(err.Error(), "KCAP-E3") || field.As(err)[0].Path.String() != "NodeGroups[0].MaxNodesPerZone" {
		t.Fatalf("got %v", err)
	}
	in.NodeGroups[0].MaxNodesPerZone = ptr(int64(2))
	if _, err := CheckAll(in); err != nil {
		t.Fatalf("2 nodes per zone: %v", err)
	}
	// One workload of 29 replicas at 3 per node on 3 zones of 3 nodes: some zone gets 10 pods, which its 3 nodes do
	// not hold (it passed with skew 1: the rule bounded the emptiest zone only); 27 fit.
	one := mk("a")
	one.PeakReplicas = 29
	one.PodRequests = &resource.List{CPUMillicores: 500, MemoryBytes: 256 << 20, Pods: 1}
	in = Check{ScaledObjects: []Summary{one}, NodeGroups: []NodeGroupCapacity{{Name: "g", MaxNodes: 10, Zones: []string{"a", "b", "c"},
		MaxNodesPerZone: ptr(int64(3)), WorkloadAllocatable: Allocatable{CPUMillicores: 1930, MemoryBytes: 7408903782}, WorkloadPods: 29}}}
	if _, err := CheckAll(in); err == nil || !strings.HasPrefix(err.Error(), "KCAP-E3") {
		t.Fatalf("29 replicas on 3 zones of 3 nodes: %v", err)
	}
	in.ScaledObjects[0].PeakReplicas = 27
	if _, err := CheckAll(in); err != nil {
		t.Fatalf("27 replicas on 3 zones of 3 nodes: %v", err)
	}
}

// TestGroupsPlacedAsTheSchedulerPlaces: 20 pods of 1,500m and 40 of 700m on 3,920m nodes. The best packing needs
// fewer nodes than kube-scheduler does when the two roll out together; a group sized to the best packing fails
// KCAP-E2 naming both counts, and one sized to the scheduler's count passes. With largest-first arrival the
// scheduler needs no more than under the rollout order.
func TestGroupsPlacedAsTheSchedulerPlaces(t *testing.T) {
	mk := func(name string, cpu, n int64) Summary {
		return Summary{Namespace: "shop", Name: name, HPAName: "keda-hpa-" + name, TargetName: name, PeakReplicas: n,
			PodRequests: &resource.List{CPUMillicores: cpu, MemoryBytes: 1 << 30, Pods: 1}, NodeGroup: "g"}
	}
	g := NodeGroupCapacity{Name: "g", MaxNodes: 100, WorkloadAllocatable: Allocatable{CPUMillicores: 3920, MemoryBytes: 14 << 30}, WorkloadPods: 58}
	in := Check{ScaledObjects: []Summary{mk("a", 1500, 20), mk("b", 700, 40)}, NodeGroups: []NodeGroupCapacity{g}}
	loads := groupLoads(in, autoscalers(in), []int{0, 1}, g)
	pl, err := place(g, loads, Check{})
	if err != nil || !pl.fits || pl.optimal >= pl.peak {
		t.Fatalf("placement %+v, %v: the case needs a scheduler count above the best packing", pl, err)
	}
	in.NodeGroups[0].MaxNodes = pl.optimal
	_, err = CheckAll(in)
	want := fmt.Sprintf("places them on %d nodes (the best packing needs %d), but the group has at most %d", pl.peak, pl.optimal, pl.optimal)
	if err == nil || !strings.HasPrefix(err.Error(), "KCAP-E2") || !strings.Contains(err.Error(), want) {
		t.Fatalf("group of the best packing's size: %v; want KCAP-E2 with %q", err, want)
	}
	in.NodeGroups[0].MaxNodes = pl.peak
	res, err := CheckAll(in)
	if err != nil || res.PeakNodes["g"] != pl.peak {
		t.Fatalf("group of the scheduler's size: %v, peak nodes %v", err, res.PeakNodes)
	}
	lf, err := place(g, loads, Check{Arrival: fit.ArrivalLargestFirst})
	if err != nil || lf.peak > pl.peak || lf.peak < lf.optimal {
		t.Errorf("largest first %+v against rollout %+v", lf, pl)
	}
}

// TestGroupPeakBeyondTotals: a million pods of 1m CPU against 10 nodes is answered by the pod-slot total at once
// (no pod placed one by one), naming the bound.
func TestGroupPeakBeyondTotals(t *testing.T) {
	in := Check{ScaledObjects: []Summary{{Namespace: "shop", Name: "a", HPAName: "keda-hpa-a", TargetName: "a", PeakReplicas: 1_000_000,
		PodRequests: &resource.List{CPUMillicores: 1, MemoryBytes: 1 << 20, Pods: 1}, NodeGroup: "g"}},
		NodeGroups: []NodeGroupCapacity{{Name: "g", MaxNodes: 10, WorkloadAllocatable: Allocatable{CPUMillicores: 3920, MemoryBytes: 14 << 30}, WorkloadPods: 58}}}
	res, err := CheckAll(in)
	if err == nil || !strings.Contains(err.Error(), "by their pod count alone they need at least 17242 nodes") || res.PeakNodes["g"] != 17242 {
		t.Fatalf("got %v, peak nodes %v", err, res.PeakNodes)
	}
}

func BenchmarkCheckAllMillionPods(b *testing.B) {
	in := Check{ScaledObjects: []Summary{{Namespace: "shop", Name: "a", HPAName: "keda-hpa-a", TargetName: "a", PeakReplicas: 1_000_000,
		PodRequests: &resource.List{CPUMillicores: 1, MemoryBytes: 1 << 20, Pods: 1}, NodeGroup: "g"}},
		NodeGroups: []NodeGroupCapacity{{Name: "g", MaxNodes: 10, WorkloadAllocatable: Allocatable{CPUMillicores: 3920, MemoryBytes: 14 << 30}, WorkloadPods: 58}}}
	for b.Loop() {
		_, _ = CheckAll(in)
	}
}

// TestPodNeedsDeviceTheGroupLacks: a target pod requesting a GPU on a node group without GPUs is told to use an
// instance type that has them (a larger size of the same type has none either), not a larger instance type.
func TestPodNeedsDeviceTheGroupLacks(t *testing.T) {
	so := base()
	withWorkload(&so, Container{Name: "app", Requests: map[string]string{"cpu": "1", "nvidia.com/gpu": "1"}})
	so.NodeGroupCapacity = &NodeGroupCapacity{Name: "cpu-only", MaxNodes: 10,
		WorkloadAllocatable: Allocatable{CPUMillicores: 1930, MemoryBytes: 7 << 30}, WorkloadPods: 29}
	_, err := Plan(so)
	es := field.As(err)
	if len(es) != 1 || !strings.Contains(es[0].Detail, "1 nvidia.com/gpu against 0") ||
		!strings.Contains(es[0].Detail, "use an instance type whose nodes have nvidia.com/gpu or drop that request") ||
		strings.Contains(es[0].Detail, "larger instance type") {
		t.Fatalf("err = %v", err)
	}
}

// TestZoneSpreadCapacity: a DoNotSchedule zone spread holds at most what the zones do, whatever its skew: 3 zones of 3
// nodes at 3 pods each hold 27 pods, so 29 replicas fail KCAP-E3 (they passed with max skew 1 and 5: the rule bounded
// only the emptiest zone), and KCAP-E2's remedy is the same 27. With 10 nodes of at most 4 per zone (4, 3 and 3),
// skew 1 holds 9 + 9 + 10 = 28 and skew 5 all 30.
func TestZoneSpreadCapacity(t *testing.T) {
	plan := func(replicas, maxNodes, perZone, skew int64) (*Result, error) {
		so := base()
		so.MaxReplicaCount = ptr(replicas)
		withWorkload(&so, Container{Name: "app", Requests: map[string]string{"cpu": "500m", "memory": "256Mi"}})
		so.TargetWorkload.Rollout = &Rollout{Strategy: "Recreate"}
		so.TargetWorkload.TopologySpread = []SpreadConstraint{{TopologyKey: ZoneKey, MaxSkew: skew, WhenUnsatisfiable: "DoNotSchedule"}}
		so.NodeGroupCapacity = &NodeGroupCapacity{Name: "general", MaxNodes: maxNodes, MaxNodesPerZone: &perZone, Zones: []string{"a", "b", "c"},
			WorkloadAllocatable: Allocatable{CPUMillicores: 1930, MemoryBytes: 7408903782}, WorkloadPods: 29}
		return Plan(so)
	}
	for _, tc := range []struct {
		replicas, maxNodes, perZone, skew int64
		safe                              int64 // 0: fits
	}{
		{27, 10, 3, 1, 0}, {29, 10, 3, 1, 27}, {29, 10, 3, 5, 27}, {28, 10, 4, 1, 0}, {29, 10, 4, 1, 28}, {30, 10, 4, 5, 0},
	} {
		_, err := plan(tc.replicas, tc.maxNodes, tc.perZone, tc.skew)
		es := field.As(err)
		if tc.safe == 0 {
			if err != nil {
				t.Errorf("%+v: %v", tc, err)
			}
			continue
		}
		e3 := false
		for _, e := range es {
			if strings.HasPrefix(e.Detail, "KCAP-E3") || strings.Contains(e.Detail, "KCAP-E3") {
				e3 = true
			}
			if want := fmt.Sprintf("the largest safe maxReplicaCount is %d", tc.safe); !strings.Contains(e.Detail, want) {
				t.Errorf("%+v: %q lacks %q", tc, e.Detail, want)
			}
		}
		if !e3 {
			t.Errorf("%+v: no KCAP-E3 in %v", tc, err)
		}
	}
}

// TestGroupOwnWorkloadsPlaced: a capacity check places a node group's own workloads beside the autoscalers' pods
// (it left them out, so 6 workers of 1 CPU passed on 3 nodes of 3,920m that the group's 3 pods of 3 CPU fill); a
// group workload an autoscaler stands for (its scale target's name) is not counted twice; a ScaledObject checked
// alone against the group warns that it does not place them (KCAP-W9).
func TestGroupOwnWorkloadsPlaced(t *testing.T) {
	g := NodeGroupCapacity{Name: "g", MaxNodes: 3, WorkloadAllocatable: Allocatable{CPUMillicores: 3820, MemoryBytes: 14 << 30}, WorkloadPods: 56,
		Workloads: []GroupWorkload{{Name: "app", Requests: resource.List{CPUMillicores: 3000, MemoryBytes: 1 << 30}, Replicas: 3}}}
	worker := Summary{Namespace: "default", Name: "worker", HPAName: "keda-hpa-worker", TargetName: "worker", PeakReplicas: 6,
		PodRequests: &resource.List{CPUMillicores: 1000, MemoryBytes: 1 << 30, Pods: 1}, NodeGroup: "g"}
	_, err := CheckAll(Check{ScaledObjects: []Summary{worker}, NodeGroups: []NodeGroupCapacity{g}})
	if err == nil || !strings.HasPrefix(err.Error(), "KCAP-E2") || !strings.Contains(err.Error(), `the group's own workload "app"`) {
		t.Fatalf("6 workers beside the group's 3 pods of 3 CPU on 3 nodes: %v", err)
	}
	// The autoscaler of app itself: app's pods are its own, counted once: 3 pods on 3 nodes fit.
	app := worker
	app.Name, app.HPAName, app.TargetName, app.PeakReplicas = "app", "keda-hpa-app", "app", 3
	app.PodRequests = &resource.List{CPUMillicores: 3000, MemoryBytes: 1 << 30, Pods: 1}
	if _, err := CheckAll(Check{ScaledObjects: []Summary{app}, NodeGroups: []NodeGroupCapacity{g}}); err != nil {
		t.Fatalf("app's own autoscaler: %v", err)
	}
	so := base()
	so.MaxReplicaCount = ptr(int64(6))
	withWorkload(&so, Container{Name: "w", Requests: map[string]string{"cpu": "1", "memory": "1Gi"}})
	so.NodeGroupCapacity = &g
	res, err := Plan(so)
	if err != nil {
		t.Fatal(err)
	}
	if _, w := codes(nil, res.Warnings); !has(w, "KCAP-W9") {
		t.Fatalf("warnings %v: want KCAP-W9", w)
	}
}
