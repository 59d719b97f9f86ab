package workloads

import (
	"fmt"

	autoscalingv1 "k8s.io/api/autoscaling/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	hpaplan "github.com/kubefit/terraform-provider-kubefit/internal/planner/hpa"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/keda"
)

// hpaV2 reads an autoscaling/v2 HPA and runs on it the API server's rules for its scale target and replica
// counts (package hpa's HPA-E2, HPA-E3, HPA-E4, HPA-E8), with the Kubernetes version the HPA resource defaults to
// (hpa.DefaultKubernetesVersion).
func hpaV2(o object, t *autoscalingv2.HorizontalPodAutoscaler) scaler {
	r := t.Spec.ScaleTargetRef
	s := hpa(o, r.Kind, r.Name, t.Spec.MinReplicas, t.Spec.MaxReplicas)
	s.targetAPIVersion = r.APIVersion
	var metrics []hpaplan.Metric
	for _, m := range t.Spec.Metrics {
		metrics = append(metrics, hpaplan.Metric{Type: string(m.Type)})
	}
	s.refused = hpaRules(hpaplan.CrossVersionObjectReference{Kind: r.Kind, Name: r.Name, APIVersion: r.APIVersion}, t.Spec.MinReplicas, t.Spec.MaxReplicas, metrics)
	return s
}

// hpaV1 reads an autoscaling/v1 HPA as hpaV2 does: its one metric is CPU utilization (targetCPUUtilizationPercentage,
// 80 when unset), a Resource metric once the API server converts it (pkg/apis/autoscaling/v1 conversion).
func hpaV1(o object, t *autoscalingv1.HorizontalPodAutoscaler) scaler {
	r := t.Spec.ScaleTargetRef
	s := hpa(o, r.Kind, r.Name, t.Spec.MinReplicas, t.Spec.MaxReplicas)
	s.targetAPIVersion = r.APIVersion
	s.refused = hpaRules(hpaplan.CrossVersionObjectReference{Kind: r.Kind, Name: r.Name, APIVersion: r.APIVersion}, t.Spec.MinReplicas, t.Spec.MaxReplicas,
		[]hpaplan.Metric{{Type: hpaplan.ResourceMetric}})
	return s
}

func hpaRules(ref hpaplan.CrossVersionObjectReference, min *int32, max int32, metrics []hpaplan.Metric) []string {
	h := hpaplan.HorizontalPodAutoscaler{ScaleTargetRef: ref, MaxReplicas: int64(max), Metrics: metrics}
	if min != nil {
		m := int64(*min)
		h.MinReplicas = &m
	}
	var out []string
	for _, e := range append(hpaplan.CheckScaleTarget(h), hpaplan.CheckCounts(h)...) {
		out = append(out, e.Detail)
	}
	return out
}

// kedaRules runs on a ScaledObject the rules of package keda that decide whether KEDA takes it and builds its
// HPA (keda.CheckScaling): refused are the details of the errors of what the CRD or the admission webhook
// refuses, inert those of what KEDA admits but cannot build a scaler from.
func kedaRules(o object) (refused, inert []string) {
	so, err := kedaObject(o)
	if err != nil {
		return []string{err.Error()}, nil
	}
	r, i := keda.CheckScaling(so)
	for _, e := range r {
		refused = append(refused, e.Detail)
	}
	for _, e := range i {
		inert = append(inert, e.Detail)
	}
	return refused, inert
}

// soSpec is the part of a ScaledObject's spec (keda.sh/v1alpha1, apis/keda/v1alpha1/scaledobject_types.go) the
// rules of keda.CheckScaling read.
type soSpec struct {
	PollingInterval       *int64 `json:"pollingInterval,omitempty"`
	InitialCooldownPeriod *int64 `json:"initialCooldownPeriod,omitempty"`
	CooldownPeriod        *int64 `json:"cooldownPeriod,omitempty"`
	IdleReplicaCount      *int64 `json:"idleReplicaCount,omitempty"`
	MinReplicaCount       *int64 `json:"minReplicaCount,omitempty"`
	MaxReplicaCount       *int64 `json:"maxReplicaCount,omitempty"`
	Advanced              *struct {
		ScalingModifiers *struct {
			Formula          *string `json:"formula,omitempty"`
			Target           *string `json:"target,omitempty"`
			ActivationTarget *string `json:"activationTarget,omitempty"`
			MetricType       *string `json:"metricType,omitempty"`
		} `json:"scalingModifiers,omitempty"`
	} `json:"advanced,omitempty"`
	Triggers []struct {
		Type              string            `json:"type"`
		Name              *string           `json:"name,omitempty"`
		MetricType        *string           `json:"metricType,omitempty"`
		UseCachedMetrics  *bool             `json:"useCachedMetrics,omitempty"`
		Metadata          map[string]string `json:"metadata"`
		AuthenticationRef *struct {
			Name string  `json:"name"`
			Kind *string `json:"kind,omitempty"`
		} `json:"authenticationRef,omitempty"`
	} `json:"triggers"`
	Fallback *struct {
		FailureThreshold int64   `json:"failureThreshold"`
		Replicas         int64   `json:"replicas"`
		Behavior         *string `json:"behavior,omitempty"`
	} `json:"fallback,omitempty"`
}

// kedaObject converts a ScaledObject read from the manifests into package keda's model, as far as
// keda.CheckScaling needs it. A spec whose fields have the wrong types (a trigger's metadata value that is a
// number, not a string) is refused by the CRD's schema, and so here.
func kedaObject(o object) (keda.ScaledObject, error) {
	so := keda.ScaledObject{Name: o.src.Name, Namespace: o.src.Namespace, Annotations: o.meta.GetAnnotations()}
	m, _, _ := unstructured.NestedMap(o.u.Object, "spec")
	var spec soSpec
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(m, &spec); err != nil {
		return so, fmt.Errorf("its spec does not match the ScaledObject CRD's schema (%v), which the API server refuses", err)
	}
	so.PollingInterval, so.InitialCooldownPeriod, so.CooldownPeriod = spec.PollingInterval, spec.InitialCooldownPeriod, spec.CooldownPeriod
	so.IdleReplicaCount, so.MinReplicaCount, so.MaxReplicaCount = spec.IdleReplicaCount, spec.MinReplicaCount, spec.MaxReplicaCount
	if a := spec.Advanced; a != nil && a.ScalingModifiers != nil {
		sm := a.ScalingModifiers
		so.Advanced = &keda.Advanced{ScalingModifiers: &keda.ScalingModifiers{Formula: sm.Formula, Target: sm.Target,
			ActivationTarget: sm.ActivationTarget, MetricType: sm.MetricType}}
	}
	for _, t := range spec.Triggers {
		kt := keda.Trigger{Type: t.Type, Name: t.Name, MetricType: t.MetricType, UseCachedMetrics: t.UseCachedMetrics, Metadata: t.Metadata}
		if r := t.AuthenticationRef; r != nil {
			kt.AuthenticationRef = &keda.AuthenticationRef{Name: r.Name, Kind: r.Kind}
		}
		so.Triggers = append(so.Triggers, kt)
	}
	if f := spec.Fallback; f != nil {
		so.Fallback = &keda.Fallback{FailureThreshold: f.FailureThreshold, Replicas: f.Replicas, Behavior: f.Behavior}
	}
	return so, nil
}

// refusedErrors are the errors of an autoscaler the API server or KEDA refuses, one per rule, each naming the
// object and the rule.
func refusedErrors(s *scaler) field.Errors {
	who := "the API server refuses this HorizontalPodAutoscaler"
	if s.o.src.Kind == "ScaledObject" {
		who = "KEDA (its CRD or its admission webhook) refuses this ScaledObject"
	}
	var errs field.Errors
	for _, d := range s.refused {
		errs = append(errs, field.Invalid(inputPath(s.o.src), s.o.src.Name, "%s: %s; %s, so fix it", objName(s.o.src), d, who))
	}
	return errs
}
