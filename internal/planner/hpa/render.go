package hpa

import (
	"math"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	k8sresource "k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/manifest"
)

// Render returns h as a typed autoscaling/v2 object: only what is set, nothing the API server would default
// (minReplicas, metrics and behavior rules stay unset when unset). Render never fails: a number outside
// int32 is clamped to it and a quantity that does not parse is left out; Plan refuses both.
func Render(h HorizontalPodAutoscaler) *autoscalingv2.HorizontalPodAutoscaler {
	r := h.ScaleTargetRef
	out := &autoscalingv2.HorizontalPodAutoscaler{
		TypeMeta: metav1.TypeMeta{APIVersion: APIVersion, Kind: Kind},
		ObjectMeta: metav1.ObjectMeta{Name: h.Name, Namespace: h.Namespace, Labels: copyMap(h.Labels),
			Annotations: copyMap(h.Annotations)},
		Spec: autoscalingv2.HorizontalPodAutoscalerSpec{
			ScaleTargetRef: autoscalingv2.CrossVersionObjectReference{Kind: r.Kind, Name: r.Name, APIVersion: r.APIVersion},
			MinReplicas:    int32Ptr(h.MinReplicas),
			MaxReplicas:    int32Of(h.MaxReplicas),
		},
	}
	for _, m := range h.Metrics {
		out.Spec.Metrics = append(out.Spec.Metrics, renderMetric(m))
	}
	if b := h.Behavior; b != nil {
		out.Spec.Behavior = &autoscalingv2.HorizontalPodAutoscalerBehavior{ScaleUp: renderRules(b.ScaleUp), ScaleDown: renderRules(b.ScaleDown)}
	}
	return out
}

// Manifest returns the object's generic JSON value, without the empty status a typed HPA always encodes, and
// the same value as YAML (keys sorted, as the API server's own encoders write them).
func Manifest(obj *autoscalingv2.HorizontalPodAutoscaler) (map[string]any, string, error) {
	r, err := manifest.Render(obj)
	if err != nil {
		return nil, "", err
	}
	delete(r.Object, "status")
	y, err := yaml.Marshal(r.Object)
	if err != nil {
		return nil, "", err
	}
	return r.Object, string(y), nil
}

func renderMetric(m Metric) autoscalingv2.MetricSpec {
	out := autoscalingv2.MetricSpec{Type: autoscalingv2.MetricSourceType(m.Type)}
	if s := m.Object; s != nil {
		d := s.DescribedObject
		out.Object = &autoscalingv2.ObjectMetricSource{
			DescribedObject: autoscalingv2.CrossVersionObjectReference{Kind: d.Kind, Name: d.Name, APIVersion: d.APIVersion},
			Metric:          renderIdentifier(s.Metric), Target: renderTarget(s.Target)}
	}
	if s := m.Pods; s != nil {
		out.Pods = &autoscalingv2.PodsMetricSource{Metric: renderIdentifier(s.Metric), Target: renderTarget(s.Target)}
	}
	if s := m.Resource; s != nil {
		out.Resource = &autoscalingv2.ResourceMetricSource{Name: corev1.ResourceName(s.Name), Target: renderTarget(s.Target)}
	}
	if s := m.ContainerResource; s != nil {
		out.ContainerResource = &autoscalingv2.ContainerResourceMetricSource{Name: corev1.ResourceName(s.Name),
			Container: s.Container, Target: renderTarget(s.Target)}
	}
	if s := m.External; s != nil {
		out.External = &autoscalingv2.ExternalMetricSource{Metric: renderIdentifier(s.Metric), Target: renderTarget(s.Target)}
	}
	return out
}

func renderIdentifier(id MetricIdentifier) autoscalingv2.MetricIdentifier {
	return autoscalingv2.MetricIdentifier{Name: id.Name, Selector: id.Selector.labelSelector()}
}

func renderTarget(t Target) autoscalingv2.MetricTarget {
	return autoscalingv2.MetricTarget{Type: autoscalingv2.MetricTargetType(t.Type), Value: quantity(t.Value),
		AverageValue: quantity(t.AverageValue), AverageUtilization: int32Ptr(t.AverageUtilization)}
}

func renderRules(r *ScalingRules) *autoscalingv2.HPAScalingRules {
	if r == nil {
		return nil
	}
	out := &autoscalingv2.HPAScalingRules{StabilizationWindowSeconds: int32Ptr(r.StabilizationWindowSeconds), Tolerance: quantity(r.Tolerance)}
	if r.SelectPolicy != nil {
		sp := autoscalingv2.ScalingPolicySelect(*r.SelectPolicy)
		out.SelectPolicy = &sp
	}
	for _, p := range r.Policies {
		out.Policies = append(out.Policies, autoscalingv2.HPAScalingPolicy{Type: autoscalingv2.HPAScalingPolicyType(p.Type),
			Value: int32Of(p.Value), PeriodSeconds: int32Of(p.PeriodSeconds)})
	}
	return out
}

// quantity parses a quantity string; nil when unset or invalid.
func quantity(s *string) *k8sresource.Quantity {
	if s == nil {
		return nil
	}
	q, err := k8sresource.ParseQuantity(*s)
	if err != nil {
		return nil
	}
	return &q
}

// int32Of clamps v to int32.
func int32Of(v int64) int32 {
	return int32(min(max(v, math.MinInt32), math.MaxInt32))
}

func int32Ptr(v *int64) *int32 {
	if v == nil {
		return nil
	}
	n := int32Of(*v)
	return &n
}

func copyMap(m map[string]string) map[string]string {
	if m == nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}
