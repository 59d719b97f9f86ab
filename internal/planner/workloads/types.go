package workloads

import (
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/sizing"
)

// Limits on one input, so no manifest can make a read take unbounded time or memory.
const (
	// MaxBytes is the largest manifests input read (64 MiB).
	MaxBytes = 64 << 20
	// MaxDocuments is the largest number of documents (List items included) read.
	MaxDocuments = 100_000
)

// Warning codes of Result.Warnings.
const (
	WarnAutoscalerAmbiguous     = "workloads.autoscaler-ambiguous"
	WarnAutoscalerInert         = "workloads.autoscaler-inert"
	WarnAutoscalerTargetMissing = "workloads.autoscaler-target-missing"
	WarnClaimMissing            = "workloads.claim-missing"
	WarnCustomKind              = "workloads.custom-kind"
	WarnCustomPodsUncounted     = "workloads.custom-pods-uncounted"
	WarnDaemonsetSurge          = "workloads.daemonset-surge"
	WarnDaemonsetUntolerated    = "workloads.daemonset-untolerated"
	WarnExtendedResource        = "workloads.extended-resource"
	WarnFilteredOut             = "workloads.filtered-out"
	WarnHPAScaleToZero          = "workloads.hpa-scale-to-zero"
	WarnLimitrangeConflict      = "workloads.limitrange-conflict"
	WarnNoRequests              = "workloads.no-requests"
	WarnNodeCloud               = "workloads.node-cloud"
	WarnNodeCordoned            = "workloads.node-cordoned"
	WarnNodeInstanceType        = "workloads.node-instance-type"
	WarnPDBOverlap              = "workloads.pdb-overlap"
	WarnPDBSelectsNothing       = "workloads.pdb-selects-nothing"
	WarnPodRefused              = "workloads.pod-refused"
	WarnPriorityClassMissing    = "workloads.priority-class-missing"
	WarnReplicasAboveMax        = "workloads.replicas-above-max"
	WarnRuntimeClass            = "workloads.runtime-class"
	WarnSharedRWOClaim          = "workloads.shared-rwo-claim"
	WarnStaticPod               = "workloads.static-pod"
	WarnUnknownField            = "workloads.unknown-field"
	WarnUnmodelledConstraint    = "workloads.unmodelled-constraint"
	WarnWorkloadRefMissing      = "workloads.workload-ref-missing"
)

// Input is the manifests to read and how to read them.
type Input struct {
	// Manifests holds one or more YAML or JSON documents ("---"-separated YAML, or JSON values one after
	// the other); List kinds are unwrapped.
	Manifests string
	// Namespace is the namespace of namespaced objects that name none ("default" when empty).
	Namespace string
	// Include keeps only the objects some filter matches (all when empty); Exclude then drops the
	// objects any filter matches. Both apply to every document, autoscalers and LimitRanges included; one left
	// out that concerns a workload read is a WarnFilteredOut warning.
	Include []Filter
	Exclude []Filter
	// Overrides change a workload or DaemonSet read from the manifests, keyed by its output name.
	Overrides map[string]Override
	// Cluster holds a running cluster's objects (the JSON or YAML of `kubectl get nodes,pods,pvc -A -o json`,
	// HPAs and LimitRanges welcome): its nodes become measured pools and its running pods the existing load,
	// grouped back into their owners. A pod owner also in Manifests is read from Manifests instead (the
	// change being planned).
	Cluster string
	// IncludeHelmHooks reads Helm hook objects (the helm.sh/hook annotation) as workloads; by default they
	// are skipped, since hooks run around an install or upgrade and are not steady load.
	IncludeHelmHooks bool
}

// Filter matches objects. Every non-empty field must match; within a field any entry may. Names are
// shell patterns (path.Match: "ingress-*").
type Filter struct {
	Kinds      []string
	Namespaces []string
	Names      []string
	// Labels must all be present on the object with these values.
	Labels map[string]string
}

// Override changes one workload read from the manifests.
type Override struct {
	// CPUUsageMillicores is the expected real CPU use of one pod (burstable credit checks); nil keeps 0.
	CPUUsageMillicores *int64
	// ExtraReplicas is added to the fixed count, or to both autoscaling bounds.
	ExtraReplicas int
}

// Result is what was read: workloads and DaemonSets in the shape sizing takes, what was skipped and why,
// and warnings.
type Result struct {
	// Pools are the node pools of Cluster, one per node group (empty without a cluster).
	Pools      []Pool
	Workloads  []Workload
	DaemonSets []DaemonSet
	Skipped    []Skipped
	Warnings   []Warning
}

// Source names the object a workload was read from.
type Source struct {
	APIVersion string
	Kind       string
	Namespace  string
	Name       string
	// Document is the 0-based index of the document in the input.
	Document int
	// Item is the 0-based index of the object among the items of a List document; InList says the
	// document is a List.
	Item   int
	InList bool
	// Line is the 1-based line of the input where the document starts (0 for JSON input).
	Line int
	// Origin is "manifests", or "cluster" for what was read from Input.Cluster.
	Origin string
}

// Pool is one node group of a running cluster, measured: the sizing pool its nodes make.
type Pool struct {
	sizing.Pool
	// Nodes are the names of its nodes; MinNodes and MaxNodes are their count.
	Nodes []string
	// GroupedBy is the node label that groups the nodes ("eks.amazonaws.com/nodegroup", …), or
	// "node.kubernetes.io/instance-type" when no node-group label is set.
	GroupedBy string
}

// Workload is one pod-owning object read as a sizing workload, with everything that was read with it.
type Workload struct {
	sizing.Workload
	Source Source
	Pod    PodInfo
	// Autoscaler is the HorizontalPodAutoscaler or ScaledObject that sets MinReplicas and MaxReplicas, or
	// the KEDA ScaledJob itself with its bounds in Jobs (nil for a fixed count).
	Autoscaler *Autoscaler
	// DisruptionBudget is the PodDisruptionBudget whose selector matches the pods (nil when none does).
	DisruptionBudget *DisruptionBudget
}

// DaemonSet is one DaemonSet read as a sizing DaemonSet, with everything read with it.
type DaemonSet struct {
	fit.DaemonSet
	Source Source
	Pod    PodInfo
	// MaxSurge is the DaemonSet's rolling-update surge: during an update a node may run two of its pods.
	MaxSurge string
}

// PodInfo is what one pod of a workload or DaemonSet asks and carries.
type PodInfo struct {
	// Requests is the pod's effective request (pod.Requests): CPU in millicores, memory and ephemeral
	// storage in bytes, GPUs (nvidia.com/gpu; amd.com/gpu is among Extended) as devices.
	Requests fit.Resources
	// Extended holds every other requested resource (hugepages, extended resources) by name, as
	// Kubernetes quantities.
	Extended map[string]string
	// Derivation says how Requests was computed, one step per entry.
	Derivation   []string
	VolumeClaims []VolumeClaim
	// Constraints are the pod's scheduling constraints, each with whether and how sizing models it.
	Constraints []Constraint
	// PriorityClassName is the pod's priority class ("" for none); Priority its value when the class (or
	// a global default) is among the manifests.
	PriorityClassName string
	Priority          *int32
}

// VolumeClaim is one persistent volume claim a pod uses.
type VolumeClaim struct {
	Name string
	// Size is the storage request as written ("1.5Gi", not the canonical "1536Mi"; an unquoted YAML number as
	// YAML reads it), SizeBytes its value; empty and 0 when the claim is not among the manifests.
	Size         string
	SizeBytes    int64
	StorageClass string
	AccessModes  []string
	// From is where the claim comes from: "volumeClaimTemplates", "persistentVolumeClaim" or "ephemeral".
	From string
}

// Constraint is one scheduling constraint of a pod, carried as Kubernetes wrote it.
type Constraint struct {
	// Type names it: "nodeSelector", "nodeAffinity.required", "podAntiAffinity.preferred",
	// "topologySpreadConstraints", "hostPort", "tolerations", …
	Type string
	// Modelled reports whether sizing honours it; As says how ("spread = node"), or why not.
	Modelled bool
	As       string
	// Spec is the constraint's JSON as it appears in the pod spec.
	Spec string
}

// Autoscaler is what bounds an autoscaled workload.
type Autoscaler struct {
	Kind, Namespace, Name string
	MinReplicas           int
	MaxReplicas           int
}

// DisruptionBudget is a PodDisruptionBudget matching a workload's pods; MinAvailable and MaxUnavailable
// are as written ("" when unset).
type DisruptionBudget struct {
	Name           string
	MinAvailable   string
	MaxUnavailable string
}

// Skipped is a document that was not turned into a workload or DaemonSet.
type Skipped struct {
	Source Source
	Reason string
}

// Warning is something about the manifests that may make a plan from them wrong: a constraint sizing does
// not model, a pod with no requests, an autoscaler whose target is missing.
type Warning struct {
	Code    string
	Source  Source
	Message string
}
