package hpa

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
	"unicode/utf8"

	"sigs.k8s.io/yaml"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/keda"
)

// FuzzPlan drives the HPA's planner entry point with arbitrary names, counts, metric and target types,
// quantities, versions and capacity inputs, with up to 10,000 metrics and policies (issue 21): it must not
// panic, every error must carry a path, and whatever it renders must round-trip through YAML.
func FuzzPlan(f *testing.F) {
	f.Add("web", "shop", "Deployment", "apps/v1", int64(2), int64(10), "Resource", "cpu", "Utilization", "70", int64(70), "1.37", 1, 1, int64(20), "500m", int64(0))
	f.Add("", "", "", "", int64(0), int64(0), "", "", "", "", int64(0), "", 0, 0, int64(0), "", int64(-1))
	f.Add("q", "x", "StatefulSet", "apps/v1", int64(-1), int64(5), "External", "queue_depth", "AverageValue", "1e3", int64(-5), "1.23", 3, 2, int64(1), "2500m", int64(100))
	f.Add("big", "ns", "Deployment", "apps/v1", int64(1), int64(1_000_000), "Pods", "rps", "Value", "NaN", int64(0), "1.36", 10000, 10000, int64(1_000_000), "1m", int64(1<<40))
	f.Add("a\nb", "UPPER", "Job", "v2", int64(0), int64(1), "Object", "", "Utilization", "", int64(101), "2.0", 2, 0, int64(-3), "cpus", int64(5))
	f.Fuzz(func(t *testing.T, name, ns, kind, apiVersion string, minR, maxR int64, metricType, metricName, targetType, value string,
		util int64, version string, metrics, policies int, maxNodes int64, cpu string, conns int64) {
		for _, s := range []string{name, ns, kind, apiVersion, metricType, metricName, targetType, value, version, cpu} {
			if !utf8.ValidString(s) {
				t.Skip("Terraform strings are valid UTF-8")
			}
		}
		metrics, policies = min(max(metrics, 0), 10_000), min(max(policies, 0), 10_000)
		h := HorizontalPodAutoscaler{Name: name, Namespace: ns, Labels: map[string]string{name: value},
			ScaleTargetRef: CrossVersionObjectReference{Kind: kind, Name: name, APIVersion: apiVersion},
			MinReplicas:    &minR, MaxReplicas: maxR, KubernetesVersion: version}
		for i := range metrics {
			tg := Target{Type: targetType}
			switch i % 3 {
			case 0:
				tg.AverageUtilization = &util
			case 1:
				tg.AverageValue = &value
			default:
				tg.Value = &value
			}
			id := MetricIdentifier{Name: fmt.Sprintf("%s%d", metricName, i%5)}
			m := Metric{Type: metricType}
			switch i % 5 {
			case 0:
				m.Resource = &ResourceSource{Name: metricName, Target: tg}
			case 1:
				m.Pods = &PodsSource{Metric: id, Target: tg}
			case 2:
				m.External = &ExternalSource{Metric: id, Target: tg}
			case 3:
				m.Object = &ObjectSource{DescribedObject: CrossVersionObjectReference{Kind: kind, Name: name, APIVersion: apiVersion}, Metric: id, Target: tg}
			default:
				m.ContainerResource = &ContainerResourceSource{Name: metricName, Container: name, Target: tg}
			}
			h.Metrics = append(h.Metrics, m)
		}
		if policies > 0 {
			up := &ScalingRules{}
			for i := range policies {
				up.Policies = append(up.Policies, keda.Policy{Type: []string{"Pods", "Percent", targetType}[i%3], Value: util, PeriodSeconds: int64(i)})
			}
			h.Behavior = &Behavior{ScaleUp: up, ScaleDown: &ScalingRules{Tolerance: &value}}
		}
		if maxNodes != 0 {
			h.TargetWorkload = &Workload{PodTemplate: keda.PodTemplate{Containers: []keda.Container{{Name: "app",
				Requests: map[string]string{"cpu": cpu, "memory": "1Gi"}}}}, ConnectionsPerPod: &conns}
			h.NodeGroupCapacity = &NodeGroupCapacity{Name: "g", MaxNodes: maxNodes, WorkloadPods: 54,
				WorkloadAllocatable: keda.Allocatable{CPUMillicores: 3620, MemoryBytes: 6 << 30}}
			h.Database = &Database{Name: "db", MaxConnections: conns * 10}
		}
		res, err := Plan(h)
		if err != nil {
			errs := field.As(err)
			if len(errs) == 0 {
				t.Fatalf("error without input paths: %v", err)
			}
			for _, e := range errs {
				if len(e.Path.Steps()) == 0 {
					t.Fatalf("error without a path: %q", e.Detail)
				}
			}
		}
		if res == nil {
			t.Fatalf("no result (error %v)", err)
		}
		var fromYAML, fromObject any
		if err := yaml.Unmarshal([]byte(res.YAML), &fromYAML); err != nil {
			t.Fatalf("%v\n%s", err, res.YAML)
		}
		raw, _ := json.Marshal(res.Manifest)
		if err := json.Unmarshal(raw, &fromObject); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(fromYAML, fromObject) {
			t.Fatalf("round trip:\n%s\n%s", res.YAML, raw)
		}
	})
}
