package hpa

import (
	"fmt"
	"testing"
)

// BenchmarkPlan10kMetrics plans an HPA of 10,000 Pods metrics with a Value target (only AverageValue is
// valid there) and 10,000 scale-up policies of an unknown type: 20,000 errors, each checked against the
// paths that already have one (issue 21: minutes when that check compared every path with every earlier one).
func BenchmarkPlan10kMetrics(b *testing.B) {
	h := web()
	h.Metrics = nil
	for i := range 10_000 {
		h.Metrics = append(h.Metrics, Metric{Type: PodsMetric, Pods: &PodsSource{Metric: MetricIdentifier{Name: fmt.Sprintf("m%d", i)},
			Target: Target{Type: ValueTarget, Value: pstr("1")}}})
	}
	up := &ScalingRules{}
	for i := range 10_000 {
		up.Policies = append(up.Policies, Policy{Type: "Replicas", Value: 1, PeriodSeconds: int64(i%1800 + 1)})
	}
	h.Behavior = &Behavior{ScaleUp: up}
	if _, err := Plan(h); err == nil {
		b.Fatal("20,000 bad values planned without an error")
	}
	for b.Loop() {
		if _, err := Plan(h); err == nil {
			b.Fatal("no error")
		}
	}
}
