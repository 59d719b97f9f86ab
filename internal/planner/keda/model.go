// Package keda models a KEDA ScaledObject (keda.sh/v1alpha1), checks it offline against every rule KEDA's CRD
// schema, admission webhook, controller and scalers apply (rule IDs KSO-E1…KSO-E20, KSO-W1…KSO-W13), renders
// it as an object and as YAML without inventing defaults, states KEDA's defaults separately, and checks its
// worst case against a node group's capacity and a database's connection budget (KCAP-E1…E4, W1, W2).
//
// Every optional KEDA field is a pointer: nil means unset, which KEDA treats differently from zero.
// Errors are field.Errors whose Detail starts with the rule ID ("KSO-E6: …"); warnings carry it as Code.
package keda

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/resource"
)

// APIVersion and Kind are the ScaledObject's type.
const (
	APIVersion = "keda.sh/v1alpha1"
	Kind       = "ScaledObject"
)

// ScaledObject is one ScaledObject with kubefit's own inputs (never rendered) alongside.
type ScaledObject struct {
	Name        string
	Namespace   string
	Labels      map[string]string
	Annotations map[string]string

	ScaleTargetRef ScaleTargetRef

	PollingInterval       *int64
	InitialCooldownPeriod *int64
	CooldownPeriod        *int64
	IdleReplicaCount      *int64
	MinReplicaCount       *int64
	MaxReplicaCount       *int64

	Advanced *Advanced
	Triggers []Trigger
	Fallback *Fallback

	// KEDAVersion is "2.17" … "2.21"; "" means DefaultKEDAVersion.
	KEDAVersion string
	// KubernetesVersion ("1.33") matters only for pod-level requests and the HPA tolerance; "" means unknown.
	KubernetesVersion string
	// TargetWorkload is the planned pod template of the scale target; nil skips the request checks.
	TargetWorkload *Workload
	// NamespaceLimitRangeDefaults are LimitRange container defaults (quantities by resource name).
	NamespaceLimitRangeDefaults map[string]string
	// NodeGroupCapacity is the node group the target runs on; nil skips the node-group checks.
	NodeGroupCapacity *NodeGroupCapacity
	// Database is a downstream connection budget the target's pods share; nil skips KCAP-E4/W2.
	Database *Database
}

// ScaleTargetRef names the scaled workload.
type ScaleTargetRef struct {
	Name                   string
	APIVersion             *string
	Kind                   *string
	EnvSourceContainerName *string
}

// Advanced is spec.advanced.
type Advanced struct {
	RestoreToOriginalReplicaCount *bool
	HorizontalPodAutoscalerConfig *HPAConfig
	ScalingModifiers              *ScalingModifiers
}

// HPAConfig is spec.advanced.horizontalPodAutoscalerConfig.
type HPAConfig struct {
	Name     *string
	Behavior *Behavior
}

// Behavior is an autoscaling/v2 HorizontalPodAutoscalerBehavior.
type Behavior struct {
	ScaleUp   *ScalingRules
	ScaleDown *ScalingRules
}

// ScalingRules is one direction of an HPA behavior.
type ScalingRules struct {
	StabilizationWindowSeconds *int64
	SelectPolicy               *string
	Policies                   []Policy
	// Tolerance is a Kubernetes quantity ("0.05"); it needs the HPAConfigurableTolerance feature.
	Tolerance *string
}

// Policy is one HPA scaling policy.
type Policy struct {
	Type          string
	Value         int64
	PeriodSeconds int64
}

// ScalingModifiers is spec.advanced.scalingModifiers.
type ScalingModifiers struct {
	Formula          *string
	Target           *string
	ActivationTarget *string
	MetricType       *string
}

// Trigger is one scaler.
type Trigger struct {
	Type             string
	Name             *string
	MetricType       *string
	UseCachedMetrics *bool
	// Metadata is required by the CRD; an empty map renders as {}.
	Metadata          map[string]string
	AuthenticationRef *AuthenticationRef
}

// AuthenticationRef names a TriggerAuthentication or ClusterTriggerAuthentication.
type AuthenticationRef struct {
	Name string
	Kind *string
}

// Fallback is spec.fallback.
type Fallback struct {
	FailureThreshold int64
	Replicas         int64
	// Behavior nil renders as "static", the default the CRD writes into the stored object.
	Behavior *string
}

// Workload is the planned scale target: its pod template and what kubefit needs for the capacity checks.
type Workload struct {
	// Kind is "Deployment", "StatefulSet", …; "" means the scale target's kind, else Deployment.
	Kind        string
	PodTemplate PodTemplate
	Rollout     *Rollout
	// TopologySpread lists the pod's topology spread constraints.
	TopologySpread       []SpreadConstraint
	MaxConcurrencyPerPod *int64
	// CPUPerBusyWorker is a CPU quantity; nil means one core.
	CPUPerBusyWorker    *string
	ConnectionsPerPod   *int64
	DNSLookupsPerSecond *float64
}

// PodTemplate holds the resources of the target's pod template. Quantities are Kubernetes quantity
// strings keyed by resource name ("cpu", "memory", "ephemeral-storage", extended resources).
type PodTemplate struct {
	Containers     []Container
	InitContainers []Container
	PodResources   *PodResources
	Overhead       map[string]string
}

// Container is one container's name and resources; RestartPolicy "Always" marks an init container as a
// sidecar.
type Container struct {
	Name          string
	Requests      map[string]string
	Limits        map[string]string
	RestartPolicy *string
}

// PodResources are pod-level resources (KEP-2837).
type PodResources struct {
	Requests map[string]string
	Limits   map[string]string
}

// Rollout is the target's update strategy.
type Rollout struct {
	// Strategy is "RollingUpdate" (default) or "Recreate".
	Strategy string
	// MaxSurge is an integer ("2") or a percentage ("25%"); nil means 25 %.
	MaxSurge *string
}

// SpreadConstraint is one topology spread constraint of the pod.
type SpreadConstraint struct {
	TopologyKey       string
	MaxSkew           int64
	WhenUnsatisfiable string
}

// NodeGroupCapacity is what a node group exports for capacity checks (keda.md §9.1). For a group with
// several instance types the figures are those of the member with the least workload allocatable.
type NodeGroupCapacity struct {
	Name     string
	MaxNodes int64
	Zones    []string
	// MaxNodesPerZone is nil when the group does not declare it; then floor(MaxNodes / zones) is used.
	MaxNodesPerZone *int64
	// WorkloadAllocatable is per node: allocatable minus the requests of the DaemonSets on the group.
	WorkloadAllocatable Allocatable
	// WorkloadPods is per node: maxPods minus DaemonSet pods.
	WorkloadPods int64
	// Failures are the group's own misfits, left to the capacity check (misfits_reported_by = "capacity_check"
	// on the group): CheckAll raises each as KCAP-E8 on the group, beside its other findings (keda.md §8.3).
	Failures []GroupFailure
	// Workloads are the group's own workloads at peak. CheckAll places those no autoscaler of the check stands for
	// (its scale target's name, or namespace/name) beside the autoscalers' pods; CheckPeak warns that it does not
	// (KCAP-W9).
	Workloads []GroupWorkload
}

// GroupWorkload is one of a node group's own workloads: one pod's requests, its peak replicas and the surge pods a
// rollout at peak adds.
type GroupWorkload struct {
	Name     string
	Requests resource.List
	Replicas int64
	Surge    int64
}

// GroupFailure is one misfit a node group leaves to the capacity check, worded by the group.
type GroupFailure struct {
	// Reason is the sizing failure reason ("max-nodes", "too-large", "burst-credits", …).
	Reason string
	// Attribute is the group's attribute at fault ("max_size", "workloads[0]", …).
	Attribute string
	// Message says what does not fit, with its figures and the remedies the planner names.
	Message string
	// Remedy is the group's own remedy (the largest replica count that fits); "" when none.
	Remedy string
}

// Allocatable is a per-node resource amount in exact integers; Extended holds extended resources by name.
type Allocatable struct {
	CPUMillicores  int64
	MemoryBytes    int64
	EphemeralBytes int64
	Extended       map[string]int64
}

// Database is a downstream connection budget (keda.md §9.3).
type Database struct {
	Name                string
	MaxConnections      int64
	ReservedConnections int64
	// UsableFraction nil means DefaultUsableFraction.
	UsableFraction *float64
	OtherClients   int64
}

// DefaultUsableFraction is the share of a database's hard limit kubefit treats as safe.
const DefaultUsableFraction = 0.5

// Effective holds the values KEDA assumes for unset fields, stated apart from the rendered object.
type Effective struct {
	MinReplicas                  int64
	HPAMinReplicas               int64
	MaxReplicas                  int64
	PollingIntervalSeconds       int64
	CooldownPeriodSeconds        int64
	InitialCooldownPeriodSeconds int64
	TargetAPIVersion             string
	TargetKind                   string
}

// Summary is what the cross-object checks need of one ScaledObject.
type Summary struct {
	Namespace string
	Name      string
	// HPAName is the HPA's name; empty on a ScaledObject's summary means KEDA's default, keda-hpa-<name>.
	HPAName          string
	TargetAPIVersion string
	TargetKind       string
	TargetName       string
	PeakReplicas     int64
	Surge            int64
	// MinReplicas is the smallest maximum the autoscaler takes: its minimum replica count, and at least 1 (a
	// ScaledObject's maxReplicaCount and an HPA's maxReplicas are 1 or more). A remedy that lowers the maximum
	// never goes below it; 0 is read as 1.
	MinReplicas int64
	// MaxSurge is the rollout's surge at any replica count, as the workload gives it: a count ("3") or a
	// percentage of the replicas, rounded up ("25%"); "0" for a StatefulSet or Recreate. "" when unknown: a
	// remedy at fewer replicas then keeps Surge, which is never less than the surge there.
	MaxSurge string
	// PausedReplicas is the autoscaling.keda.sh/paused-replicas count when it sets PeakReplicas (above the
	// maximum, MaxReplicas), else 0: a lower maximum alone then changes nothing, and the remedies name the
	// annotation.
	PausedReplicas, MaxReplicas int64
	// PodRequests is nil without a target workload.
	PodRequests         *resource.List
	ZonalSpread         []SpreadConstraint
	ConnectionsPerPod   *int64
	DNSLookupsPerSecond *float64
	NodeGroup           string
	// placed is set when the check's NodeGroupOf put the object on NodeGroup (placeOnGroups): the object itself was
	// not checked against the group, so it gave none of the group's warnings.
	placed bool
	// TransferHPAOwnership is the scaledobject.keda.sh/transfer-hpa-ownership: "true" annotation on a
	// ScaledObject that sets a custom HPA name: KEDA hands over an existing HPA only when it is named in
	// advanced.horizontalPodAutoscalerConfig.name (its default name does not count).
	TransferHPAOwnership bool
}

// floor is the smallest maximum replica count a remedy may name (MinReplicas, at least 1).
func (s Summary) floor() int64 { return max(1, s.MinReplicas) }

// surgeAt is the rollout's surge at r replicas (MaxSurge); Surge at the peak, and Surge, never less than the
// surge at fewer replicas, when MaxSurge is unknown.
func (s Summary) surgeAt(r int64) int64 {
	if r >= s.PeakReplicas {
		return s.Surge
	}
	if pct, ok := strings.CutSuffix(s.MaxSurge, "%"); ok {
		if n, err := strconv.ParseInt(pct, 10, 32); err == nil && n >= 0 {
			return min(resource.CeilDiv(n*r, 100), s.Surge)
		}
	} else if n, err := strconv.ParseInt(s.MaxSurge, 10, 32); err == nil && n >= 0 {
		return min(n, s.Surge)
	}
	return s.Surge
}

// paused reports whether the paused-replicas annotation sets the peak.
func (s Summary) paused() bool { return s.PausedReplicas > 0 && s.PausedReplicas == s.PeakReplicas }

// pausedLower is the remedy that lowers a paused peak of the autoscaler labelled label to at most h replicas:
// the annotation, and its maximum too when that is above h; "" when the peak is not paused.
func (s Summary) pausedLower(label, maxName string, h int64) string {
	if !s.paused() {
		return ""
	}
	if s.MaxReplicas > h {
		return fmt.Sprintf("lower the %s annotation of %s to at most %d and its %s to %d", AnnotationPausedReplicas, label, h, maxName, h)
	}
	return fmt.Sprintf("lower the %s annotation of %s to at most %d (a lower %s changes nothing while it holds the count)", AnnotationPausedReplicas, label, h, maxName)
}

// pausedNotes says which autoscalers of all (those of idx; every one when idx is nil) have their peak set by
// the paused-replicas annotation; "" when none does.
func pausedNotes(all []autoscaler, idx []int) string {
	var parts []string
	for k, a := range all {
		if idx != nil && !slices.Contains(idx, k) || !a.paused() {
			continue
		}
		parts = append(parts, fmt.Sprintf("%s is held at %d replicas by its %s annotation, above its maximum of %d", a.label(), a.PausedReplicas, AnnotationPausedReplicas, a.MaxReplicas))
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, "; ") + ")"
}
