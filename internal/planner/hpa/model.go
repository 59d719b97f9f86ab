// Package hpa models an autoscaling/v2 HorizontalPodAutoscaler, checks it offline against every rule the
// Kubernetes API server's validation applies to one (rule IDs HPA-E1…HPA-E11, after the API server's
// defaulting, for the Kubernetes version and its HPAScaleToZero feature gate), warns about what the API
// server admits but the HPA controller cannot use (HPA-W1…HPA-W7), renders it as a typed k8s.io/api object
// and as YAML, and checks its peak (maxReplicas and the target's rollout surge) against a node group and a
// database exactly as a KEDA ScaledObject's (package keda: KCAP-E1…E4, W1, W2).
//
// Optional fields are pointers: nil means unset, which the API server defaults (minReplicas to 1, behavior
// rules to its scale-up and scale-down defaults). Numbers are int64 as a caller holds them; values outside
// the API's int32 are refused. Errors are field.Errors whose Detail starts with the rule ID ("HPA-E4: …");
// warnings carry it as Code.
package hpa

import (
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/keda"
)

// APIVersion and Kind are the rendered object's type.
const (
	APIVersion = "autoscaling/v2"
	Kind       = "HorizontalPodAutoscaler"
)

// Metric source types (spec.metrics[].type).
const (
	ObjectMetric            = "Object"
	PodsMetric              = "Pods"
	ResourceMetric          = "Resource"
	ContainerResourceMetric = "ContainerResource"
	ExternalMetric          = "External"
)

// MetricTypes are the metric source types the API accepts.
var MetricTypes = []string{ContainerResourceMetric, ExternalMetric, ObjectMetric, PodsMetric, ResourceMetric}

// Metric target types (target.type).
const (
	UtilizationTarget  = "Utilization"
	ValueTarget        = "Value"
	AverageValueTarget = "AverageValue"
)

// TargetTypes are the metric target types the API accepts.
var TargetTypes = []string{UtilizationTarget, ValueTarget, AverageValueTarget}

// SelectPolicies are the behavior select policies the API accepts.
var SelectPolicies = []string{"Disabled", "Max", "Min"}

// PolicyTypes are the scaling policy types the API accepts.
var PolicyTypes = []string{"Percent", "Pods"}

// HorizontalPodAutoscaler is one autoscaling/v2 HPA with kubefit's own inputs (never rendered) alongside.
type HorizontalPodAutoscaler struct {
	Name        string
	Namespace   string
	Labels      map[string]string
	Annotations map[string]string

	ScaleTargetRef CrossVersionObjectReference
	MinReplicas    *int64
	MaxReplicas    int64
	// Metrics nil or empty means the API server's default: CPU at 80 % utilization.
	Metrics  []Metric
	Behavior *Behavior

	// KubernetesVersion ("1.37") sets the feature gates' defaults; "" means DefaultKubernetesVersion.
	KubernetesVersion string
	// ScaleToZero is the cluster's HPAScaleToZero feature gate (minReplicas 0); nil means its default for
	// the Kubernetes version: on from 1.37 (beta), off before.
	ScaleToZero *bool
	// TargetWorkload is the planned scale target; nil skips the capacity checks.
	TargetWorkload *Workload
	// NodeGroupCapacity is the node group the target runs on; nil skips the node-group checks.
	NodeGroupCapacity *NodeGroupCapacity
	// Database is a downstream connection budget the target's pods share; nil skips its check.
	Database *Database
}

// The capacity inputs are a ScaledObject's: the same workload, node group and database, checked alike.
type (
	Workload          = keda.Workload
	NodeGroupCapacity = keda.NodeGroupCapacity
	Database          = keda.Database
)

// CrossVersionObjectReference names an object by kind, name and apiVersion (the scale target, or an Object
// metric's described object).
type CrossVersionObjectReference struct {
	Kind       string
	Name       string
	APIVersion string
}

// Metric is one entry of spec.metrics: its Type and the source of that type (exactly one should be set).
type Metric struct {
	Type              string
	Object            *ObjectSource
	Pods              *PodsSource
	Resource          *ResourceSource
	ContainerResource *ContainerResourceSource
	External          *ExternalSource
}

// ObjectSource is a metric describing one object (an Ingress's requests per second).
type ObjectSource struct {
	DescribedObject CrossVersionObjectReference
	Metric          MetricIdentifier
	Target          Target
}

// PodsSource is a metric averaged over the target's pods.
type PodsSource struct {
	Metric MetricIdentifier
	Target Target
}

// ResourceSource is a resource of the target's pods (cpu, memory) as the metrics API reports it.
type ResourceSource struct {
	Name   string
	Target Target
}

// ContainerResourceSource is a resource of one container of the target's pods.
type ContainerResourceSource struct {
	Name      string
	Container string
	Target    Target
}

// ExternalSource is a metric from outside the cluster (a queue's length).
type ExternalSource struct {
	Metric MetricIdentifier
	Target Target
}

// MetricIdentifier names a metric, with an optional label selector.
type MetricIdentifier struct {
	Name     string
	Selector *LabelSelector
}

// LabelSelector is a metav1.LabelSelector.
type LabelSelector struct {
	MatchLabels      map[string]string
	MatchExpressions []SelectorRequirement
}

// SelectorRequirement is one match expression.
type SelectorRequirement struct {
	Key      string
	Operator string
	Values   []string
}

// Target is a metric target. Value and AverageValue are Kubernetes quantities ("500m", "10").
type Target struct {
	Type               string
	Value              *string
	AverageValue       *string
	AverageUtilization *int64
}

// Behavior is spec.behavior, the same type a ScaledObject's advanced HPA configuration carries. In a
// ScalingRules, Policies nil means the API server's default policies; an empty list is left out of the
// object, so the defaults apply too (HPA-W2).
type (
	Behavior     = keda.Behavior
	ScalingRules = keda.ScalingRules
	Policy       = keda.Policy
)

// Effective holds what the API server fills in for unset fields, stated apart from the rendered object.
type Effective struct {
	MinReplicas int64
	MaxReplicas int64
	// DefaultMetric is true when no metric is given: the API server adds CPU at 80 % utilization.
	DefaultMetric bool
	// ScaleToZero is the HPAScaleToZero feature gate the rules assumed.
	ScaleToZero bool
}
