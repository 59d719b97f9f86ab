package fit

import "github.com/kubefit/terraform-provider-kubefit/internal/planner/resource"

// Resource names one resource dimension the planner packs (resource.Name).
type Resource = resource.Name

// The resource dimensions, in the order used by vectors, tables and messages.
const (
	ResourceCPU              = resource.CPU
	ResourceMemory           = resource.Memory
	ResourceEphemeralStorage = resource.EphemeralStorage
	ResourcePods             = resource.Pods
	ResourceGPU              = resource.GPU
)

// ResourceNames lists every resource dimension in vector order.
var ResourceNames = resource.Names

// Resources is the planner's one resource vector (resource.List): CPU in millicores, memory and
// ephemeral storage in bytes, pods as a count of pod slots, GPUs as a count of devices.
type Resources = resource.List

// TaintEffect is the effect of a node taint, as in Kubernetes.
type TaintEffect string

// The taint effects Kubernetes defines.
const (
	EffectNoSchedule       TaintEffect = "NoSchedule"
	EffectPreferNoSchedule TaintEffect = "PreferNoSchedule"
	EffectNoExecute        TaintEffect = "NoExecute"
)

// TaintEffects lists every valid taint effect.
var TaintEffects = []TaintEffect{EffectNoSchedule, EffectPreferNoSchedule, EffectNoExecute}

// Taint is a node taint carried by every node of a pool.
type Taint struct {
	Key    string
	Value  string
	Effect TaintEffect
}

// TolerationOperator is the operator of a toleration, as in Kubernetes.
type TolerationOperator string

// The toleration operators Kubernetes defines. The empty operator means OperatorEqual.
const (
	OperatorEqual  TolerationOperator = "Equal"
	OperatorExists TolerationOperator = "Exists"
)

// TolerationOperators lists every valid toleration operator.
var TolerationOperators = []TolerationOperator{OperatorEqual, OperatorExists}

// Toleration lets a pod land on nodes with a matching taint, with Kubernetes semantics: an empty Key
// with OperatorExists tolerates every taint, an empty Effect matches every effect, OperatorEqual (or
// an empty operator) compares the value and OperatorExists ignores it.
type Toleration struct {
	Key      string
	Operator TolerationOperator
	Value    string
	Effect   TaintEffect
}

// SpreadType selects how the pods of one workload are spread over nodes.
type SpreadType string

// The spread types. The empty type means SpreadNone.
const (
	// SpreadNone places pods wherever they fit.
	SpreadNone SpreadType = "none"
	// SpreadNode puts at most one pod of the workload on a node (hostname anti-affinity).
	SpreadNode SpreadType = "node"
	// SpreadZone spreads the pods over the zones of the pools they may use, keeping MaxSkew.
	SpreadZone SpreadType = "zone"
)

// SpreadTypes lists every valid spread type.
var SpreadTypes = []SpreadType{SpreadNone, SpreadNode, SpreadZone}

// Spread is a workload's topology spread requirement (whenUnsatisfiable: DoNotSchedule).
type Spread struct {
	Type SpreadType
	// MaxSkew is the largest allowed difference between the pod counts of two zones; at least 1 for
	// SpreadZone, 0 or 1 for SpreadNode (one pod per node either way), 0 for SpreadNone.
	MaxSkew int
}

// IntOrPercent is a count given either as an absolute number or as a percentage of a total, like
// Kubernetes' intstr for a Deployment's maxSurge.
type IntOrPercent struct {
	Value   int
	Percent bool
}

// String writes the value as Kubernetes and the clouds' APIs take it: "5" or "50%".
func (v IntOrPercent) String() string {
	if v.Percent {
		return itoa(v.Value) + "%"
	}
	return itoa(v.Value)
}

// Resolve returns the absolute count for a total: Value itself, or ceil(total × Value / 100) for a
// percentage, rounding up as Kubernetes does for maxSurge. Negative inputs resolve to 0.
func (v IntOrPercent) Resolve(total int) int {
	if v.Value <= 0 {
		return 0
	}
	if !v.Percent {
		return v.Value
	}
	if total <= 0 {
		return 0
	}
	return int(ceilDiv(int64(total)*int64(v.Value), 100))
}

// Scenario names one of the two load situations every plan computes.
type Scenario string

// The scenarios.
const (
	// ScenarioSteady places Replicas pods of every workload.
	ScenarioSteady Scenario = "steady"
	// ScenarioPeak places MaxReplicas plus the rollout surge of every workload.
	ScenarioPeak Scenario = "peak"
)

// Scenarios lists the scenarios in the order results carry them.
var Scenarios = []Scenario{ScenarioSteady, ScenarioPeak}

// Reason says which constraint kept a workload's pods off a pool, in the style of Karpenter's
// requirements × resources × offering explanations.
type Reason string

// The failure reasons.
const (
	// ReasonSelector: the workload's node selector does not match the pool's labels.
	ReasonSelector Reason = "selector"
	// ReasonTaint: the pool has a NoSchedule or NoExecute taint the workload does not tolerate.
	ReasonTaint Reason = "taint"
	// ReasonPoolList: the pool is not in the workload's list of allowed pools.
	ReasonPoolList Reason = "pool-list"
	// ReasonTooLarge: one pod is larger than a node's allocatable left after DaemonSets.
	ReasonTooLarge Reason = "too-large"
	// ReasonMaxNodes: the pods need more nodes than the pool's MaxNodes (or than the scheduler model's search
	// tried, when other workloads' pods took every node it added to the pools of pods held by room alone).
	ReasonMaxNodes Reason = "max-nodes"
	// ReasonSpread: a node or zone spread requirement cannot be met within MaxNodes.
	ReasonSpread Reason = "spread"
	// ReasonDaemonSets: the DaemonSets landing on the pool leave no room (≤ 0) in some resource.
	ReasonDaemonSets Reason = "daemonsets"
	// ReasonAffinity: the workload's required node affinity does not match the nodes of the pool (in
	// every one of its zones).
	ReasonAffinity Reason = "node-affinity"
	// ReasonHostPort: a host port of the workload is taken on the pool's nodes by a DaemonSet, or its
	// pods (one per node, for their host port) need more nodes than the pools allow.
	ReasonHostPort Reason = "host-port"
	// ReasonOS: the pool's nodes run another operating system than the workload's containers are built for
	// (WorkloadOS): kube-scheduler may bind the pods there, but the kubelet refuses them or their images never start.
	ReasonOS Reason = "operating-system"
	// ReasonUnmodelled: the scheduler model did not run (the plan exceeds its work budget) and the workload may
	// use several pools, or has a hard rule beyond resources and one pod per node, so no node count is known to
	// bind its pods (AnyFitNodes).
	ReasonUnmodelled Reason = "unmodelled"
	// ReasonExtended: the workload's pods request an extended resource (or huge pages) a node of the pool
	// does not offer, or offers less of than one pod requests (Pool.Extended).
	ReasonExtended Reason = "extended-resource"
)

// Reasons lists every failure reason.
var Reasons = []Reason{ReasonSelector, ReasonTaint, ReasonPoolList, ReasonTooLarge, ReasonMaxNodes, ReasonSpread,
	ReasonDaemonSets, ReasonAffinity, ReasonHostPort, ReasonPodAffinity, ReasonDisruption, ReasonOS, ReasonUnmodelled, ReasonExtended}

// Pool is a node pool (node group) of identical nodes. The planner does not compute node overhead:
// Allocatable is the kubelet's allocatable of one node before DaemonSets, with Pods the max pods.
type Pool struct {
	Name         string
	InstanceType string // used in messages only
	Allocatable  Resources
	MinNodes     int
	MaxNodes     int
	// Zones the pool's nodes are spread over; node i (0-based, in creation order) is in
	// Zones[i mod len(Zones)]. Empty means the pool has no zone information.
	Zones []string
	// Labels of every node, including the well-known labels the caller adds (kubernetes.io/arch,
	// kubernetes.io/os, node.kubernetes.io/instance-type; topology.kubernetes.io/zone and
	// failure-domain.beta.kubernetes.io/zone are per zone and added from Zones). A pool's operating system is its
	// kubernetes.io/os label (none: not known, and no workload is kept off for it).
	Labels map[string]string
	// LabelChoices are labels every node of the pool carries with one of these values, which the planner cannot
	// know (an AKS pool's kubernetes.azure.com/mode is user or system; a Windows node's
	// node.kubernetes.io/windows-build follows its Windows Server version); the value "" means the label may be
	// missing (eks.amazonaws.com/nodegroup is on the nodes of an EKS managed node group only). A workload must
	// match every choice to use the pool (the safe side: kept off where its pods might stay Pending), a DaemonSet
	// lands when one choice matches (the safe side: its requests are counted where it might run). A key in Labels
	// is known and its choices are ignored.
	LabelChoices map[string][]string
	Taints       []Taint
	// Weight prefers pools with a higher value (Karpenter NodePool weight, 0–100); it ranks after
	// least waste in the pool choice.
	Weight int
	// PricePerHour is the price of one node per hour; 0 means unknown.
	PricePerHour float64
	// DiskSustained and DiskBurst are the disk limits one node's instance type has for all its attached
	// volumes together (AWS EBS-optimized baseline and maximum, Azure uncached VM limits; disks.md §3, §5),
	// throughput in bytes per second; zero when unknown (GCP), when the volumes' rates are not checked.
	// DiskUnitBytes is the bytes per second of one unit of a claim's ThroughputMBps on this pool's cloud
	// (1,048,576 for MiB/s, 1,000,000 for MB/s; 0 means MiB/s).
	DiskSustained DiskRates
	DiskBurst     DiskRates
	DiskUnitBytes int64
	// SystemPods names the host-network pods every node runs whether or not they are among the
	// DaemonSets (EKS: aws-node and kube-proxy), and PodIPs caps the pods that need a pod IP on one node
	// (0 = no cap). See DaemonSetLoad; the overhead model's Result gives both.
	SystemPods []string
	PodIPs     int64
	// CapacityType is how the pool's nodes are bought: CapacityOnDemand ("" means it) or CapacitySpot,
	// whose nodes the cloud may reclaim, all at once (the spot_loss disruption).
	CapacityType CapacityType
	// Upgrade is how a rolling node upgrade replaces the pool's nodes (the node_upgrade disruption).
	Upgrade Upgrade
	// MaxFromPeak says the pool's maximum is not given but follows from the plan (a node group's max_size left
	// unset): the pods are sized within MaxNodes, the search's bound, and the maximum the result reports
	// (PoolResult.MaxNodes, both scenarios) and the headroom is counted within is MaxFromPeakNodes of the
	// pool's counts.
	MaxFromPeak bool
	// MaxFromPeakPercent raises the computed maximum above the peak's node count (MaxFromPeakNodes).
	MaxFromPeakPercent int
	// Extended is what one node's allocatable offers of the resources beyond the vector (extended resources
	// such as aws.amazon.com/neuron or nvidia.com/mig-1g.10gb, and huge pages in bytes), by name. A node offers
	// none of a resource not listed: a pod requesting it does not fit (ReasonExtended).
	Extended map[string]int64
	// GPUNote says, for a pool whose nodes have GPUs that offer no nvidia.com/gpu (Allocatable.GPU 0), what
	// they are ("its GPUs are AMD …"), for messages; "" otherwise.
	GPUNote string
}

// MaxFromPeakNodes is a computed maximum node count: the peak scenario's nodes raised by percent and rounded
// up, at least the steady scenario's nodes and minNodes, and at least 1.
func MaxFromPeakNodes(peak, steady, minNodes, percent int) int {
	raised := (int64(peak)*int64(100+percent) + 99) / 100
	return int(max(raised, int64(steady), int64(minNodes), 1))
}

// Upgrade is a pool's surge upgrade settings, as GKE and AKS name them: MaxSurge new nodes are added, then
// MaxSurge + MaxUnavailable old nodes are drained at once, batch after batch, until every node is replaced.
// Percentages are of the pool's node count, rounded up (AKS: "fractional nodes are rounded up"). Both zero
// means MaxSurge 1, MaxUnavailable 0 (GKE's default); the caller passes each cloud's default.
type Upgrade struct {
	MaxSurge       IntOrPercent
	MaxUnavailable IntOrPercent
}

// Batch returns, for a pool of n nodes, the surge nodes added per batch and the old nodes drained per batch.
func (u Upgrade) Batch(n int) (surge, drained int) {
	surge, unavailable := u.MaxSurge.Resolve(n), u.MaxUnavailable.Resolve(n)
	if surge+unavailable == 0 {
		surge = 1
	}
	return surge, surge + unavailable
}

// DisruptionBudget is a workload's PodDisruptionBudget: MinAvailable or MaxUnavailable (at most one), each
// a count or a percentage. Name names it in messages ("" for none).
type DisruptionBudget struct {
	Name           string
	MinAvailable   *IntOrPercent
	MaxUnavailable *IntOrPercent
}

// DesiredHealthy is the disruption controller's desiredHealthy for a workload of replicas pods
// (kubernetes v1.37.2 pkg/controller/disruption/disruption.go, getExpectedPodCount): with MaxUnavailable,
// replicas − MaxUnavailable (a percentage of replicas rounded up, intstr.GetScaledValueFromIntOrPercent with
// roundUp true), at least 0; with MinAvailable, its count, or a percentage of replicas rounded up. An eviction
// is allowed while the healthy pods exceed it (disruptionsAllowed = currentHealthy − desiredHealthy).
func (b *DisruptionBudget) DesiredHealthy(replicas int) int {
	switch {
	case b == nil:
		return 0
	case b.MaxUnavailable != nil:
		return max(0, replicas-b.MaxUnavailable.Resolve(replicas))
	case b.MinAvailable != nil:
		return b.MinAvailable.Resolve(replicas)
	}
	return 0
}

// Text says the budget as written: `min_available 2`, `max_unavailable 25%`.
func (b *DisruptionBudget) Text() string {
	switch {
	case b == nil:
		return ""
	case b.MaxUnavailable != nil:
		return "max_unavailable " + b.MaxUnavailable.String()
	case b.MinAvailable != nil:
		return "min_available " + b.MinAvailable.String()
	}
	return ""
}

// CapacityType is how a pool's nodes are bought.
type CapacityType string

// The capacity types.
const (
	CapacityOnDemand CapacityType = "on_demand"
	CapacitySpot     CapacityType = "spot"
)

// CapacityTypes lists every capacity type; CapacityOnDemand is the default.
var CapacityTypes = []CapacityType{CapacityOnDemand, CapacitySpot}

// DaemonSet is a DaemonSet whose pod lands on every node of every pool it matches: its node selector
// is a subset of the pool's labels and its tolerations cover the pool's NoSchedule and NoExecute
// taints. Requests.Pods is ignored; TakesPodSlot says whether the pod uses one of the node's max pods.
type DaemonSet struct {
	Name               string
	Requests           Resources
	CPUUsageMillicores int64
	NodeSelector       map[string]string
	// NodeAffinity is the pod's required node affinity (ORed terms); nil for none.
	NodeAffinity []NodeSelectorTerm
	Tolerations  []Toleration
	TakesPodSlot bool
	// HostPorts are the ports its pod takes on every node it runs on.
	HostPorts []HostPort
	// Pools, when not empty, restricts the DaemonSet to the named pools besides its selectors: a platform's
	// system DaemonSets run on the pools of that platform only. DaemonSets restricted to pools no two of them
	// share may share a name (each platform's kube-proxy).
	Pools []string
}

// Workload is a set of identical pods (a Deployment or StatefulSet, autoscaled or not).
type Workload struct {
	Name string
	// Replicas is the steady pod count; for an autoscaled workload its minimum.
	Replicas int
	// MaxReplicas is the peak pod count; equal to Replicas when the workload is not autoscaled. It
	// must never be below Replicas.
	MaxReplicas int
	// Requests of one pod. Requests.Pods is ignored: every pod takes exactly one pod slot.
	Requests Resources
	// Extended are one pod's requests of the resources beyond the vector (extended resources, huge pages in
	// bytes), by name: the pods bind only on pools whose nodes offer each (Pool.Extended), at most
	// ExtendedPerNode of them per node, and share no node with another workload requesting one of the same.
	Extended map[string]int64
	// CPUUsageMillicores is the expected real CPU use of one pod (may be 0); it feeds the per-node
	// usage sums that burstable credit checks read.
	CPUUsageMillicores int64
	NodeSelector       map[string]string
	// NodeAffinity is the pods' required node affinity (ORed terms); nil for none.
	NodeAffinity []NodeSelectorTerm
	// PreferredNodeAffinity is the pods' preferred node affinity
	// (preferredDuringSchedulingIgnoredDuringExecution): a score, not a filter. The scheduler model weighs
	// every node by the weights of the terms it matches, as the NodeAffinity Score plugin does; the best
	// packing ignores it.
	PreferredNodeAffinity []WeightedNodeSelectorTerm
	Tolerations           []Toleration
	// Namespace and Labels are the pods' namespace ("" means "default") and labels (none means app=<Name>),
	// which inter-pod affinity terms select.
	Namespace string
	Labels    map[string]string
	// PodAffinity is the pods' inter-pod affinity and anti-affinity; nil for none.
	PodAffinity *PodAffinity
	// TopologySpread are the pods' topologySpreadConstraints, beyond the Spread shorthand: applied by the
	// scheduler model (not by the best packing). A workload that has them gets no system default spreading.
	TopologySpread []TopologySpreadConstraint
	// HostPorts are the ports each pod takes on its node: at most one pod of the workload per node, and
	// none on a node whose DaemonSet takes the same port.
	HostPorts []HostPort
	// VolumeClaims are the claims one pod mounts; each attachable one takes one of its node's volume
	// attachments (Allocatable.Volumes), as the NodeVolumeLimits filter counts them. Requests.Volumes is
	// ignored.
	VolumeClaims []VolumeClaim
	// Priority is the pods' priority (their PriorityClass's value; 0 without one). Pods waiting in the
	// scheduling queue together leave it highest priority first (PrioritySort), so the rollout orders are
	// also planned so sorted; what a Pending pod would preempt is reported, never planned.
	Priority int32
	// Pools optionally restricts the workload to the named pools.
	Pools []string
	// OS is the operating system the pods' containers are built for, where the pod says it (its spec.os.name
	// or its kubernetes.io/os label, which the kubelet admits against its own OS): "linux" or "windows"; ""
	// when unsaid (WorkloadOS).
	OS string
	// MaxSurge is the number of extra pods a rolling update adds at peak: an absolute count or a
	// percentage of MaxReplicas rounded up. The zero value means no surge (Kubernetes' Deployment
	// default is 25 %; the caller passes it explicitly).
	MaxSurge IntOrPercent
	Spread   Spread
	// DisruptionBudget is the pods' PodDisruptionBudget; nil for none. The node_upgrade disruption evicts
	// through it.
	DisruptionBudget *DisruptionBudget
}

// Input is everything the planner packs: pools, the DaemonSets that may land on them, and workloads.
type Input struct {
	Pools      []Pool
	DaemonSets []DaemonSet
	Workloads  []Workload
	// Scheduler is the cluster's kube-scheduler profile and Arrival the order in which pods reach its
	// queue; the realistic node counts follow the scheduler model under them (empty: ProfileDefault,
	// ArrivalRollout).
	Scheduler SchedulerProfile
	Arrival   ArrivalOrder
	// Disruptions are the disruption scenarios checked on the steady scenario's realistic placement
	// (disrupt.go); each kind at most once.
	Disruptions []DisruptionKind
	// PackingOnly skips the scheduler model: every figure is the best packing's (NodesRequired equals
	// NodesOptimal). For callers that compare many plans and model only the best few (the
	// recommendation).
	PackingOnly bool
	// Unmodelled skips the scheduler model as a scenario beyond its work budget does: each pool gets the any-fit
	// bound of its pods (AnyFitNodes) and the workloads it does not cover fail with ReasonUnmodelled. For callers
	// whose own budget over many plans is spent (the capacity check).
	Unmodelled bool
	// OmitNodes leaves every PoolResult.Nodes empty; everything else, MaxNodeCPUUsageMillicores
	// included, is computed as usual. For callers that compare many plans by their totals.
	OmitNodes bool
	// OmitHeadroom leaves Result.Headroom empty; everything else is computed as usual. For callers that
	// compare many plans by their totals.
	OmitHeadroom bool
}

// PeakReplicas returns the pod count of w in the peak scenario: MaxReplicas plus the resolved surge.
func (w Workload) PeakReplicas() int {
	return w.MaxReplicas + w.MaxSurge.Resolve(w.MaxReplicas)
}

// ScenarioReplicas returns the pod count of w in scenario s (0 for an unknown scenario).
func (w Workload) ScenarioReplicas(s Scenario) int {
	switch s {
	case ScenarioSteady:
		return w.Replicas
	case ScenarioPeak:
		return w.PeakReplicas()
	}
	return 0
}
