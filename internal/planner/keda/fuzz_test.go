package keda

import (
	"encoding/json"
	"reflect"
	"testing"
	"unicode/utf8"

	"sigs.k8s.io/yaml"
)

// FuzzPlan feeds arbitrary names, metadata and formulas through Plan: it must not panic, and whatever it
// renders must round-trip through YAML.
func FuzzPlan(f *testing.F) {
	f.Add("api", "shop", "0.0005", "a + 1", "on", int64(1), int64(5))
	f.Add("", "", "1e3", "a ?? 2", "\x00\n\"", int64(-1), int64(0))
	f.Add("a-b", "x", "NaN", "float(a", "yes", int64(150), int64(2147483648))
	f.Fuzz(func(t *testing.T, name, ns, threshold, formula, label string, minR, maxR int64) {
		for _, s := range []string{name, ns, threshold, formula, label} {
			if !utf8.ValidString(s) {
				t.Skip("Terraform strings are valid UTF-8")
			}
		}
		so := ScaledObject{Name: name, Namespace: ns, ScaleTargetRef: ScaleTargetRef{Name: name},
			Labels: map[string]string{label: label}, MinReplicaCount: &minR, MaxReplicaCount: &maxR,
			Advanced: &Advanced{ScalingModifiers: &ScalingModifiers{Formula: &formula, Target: &threshold}},
			Triggers: []Trigger{{Type: "prometheus", Name: ptr("a"), Metadata: map[string]string{
				"serverAddress": "http://p", "query": label, "threshold": threshold}}},
			Fallback: &Fallback{FailureThreshold: minR, Replicas: maxR}}
		res, _ := Plan(so)
		if res == nil {
			t.Fatal("no result")
		}
		var fromYAML, fromObject any
		if err := yaml.Unmarshal(res.YAML, &fromYAML); err != nil {
			t.Fatalf("%v\n%s", err, res.YAML)
		}
		raw, _ := json.Marshal(res.Object)
		if err := json.Unmarshal(raw, &fromObject); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(fromYAML, fromObject) {
			t.Fatalf("round trip:\n%s\n%s", res.YAML, raw)
		}
	})
}
