package sizing

import (
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/burst"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/overhead"
)

// Request is everything Solve sizes: pools, the DaemonSets that may land on them, and workloads.
type Request struct {
	Pools      []Pool
	DaemonSets []DaemonSet
	// SystemDaemonSets says whether each pool also runs its platform's system DaemonSets
	// (overhead.SystemDaemonSetsPlatform, the default "": overhead.CountedSystemDaemonSets, less those a
	// DaemonSet of the request names on the pools it lands on) or only the request's DaemonSets (overhead.SystemDaemonSetsListed).
	SystemDaemonSets overhead.SystemDaemonSets
	Workloads        []Workload
	// Scheduler is the cluster's kube-scheduler profile and Arrival the order in which the pods reach
	// its queue (fit.Input.Scheduler, fit.Input.Arrival); empty means the default profile and a
	// rollout of every workload at once.
	Scheduler fit.SchedulerProfile
	Arrival   fit.ArrivalOrder
	// Disruptions are the disruption scenarios checked on the steady placement (fit.Input.Disruptions);
	// their verdicts are Plan.Packing.Disruptions, and a failing one is a Failure.
	Disruptions []fit.DisruptionKind
}

// Pool is a node pool (node group) of one instance type, or a mixed pool of several.
type Pool struct {
	// Name identifies the pool; names are unique within a request.
	Name  string
	Cloud catalog.Cloud
	// InstanceTypes holds one instance type name, or the members of a mixed pool.
	InstanceTypes []string
	// Overhead holds the node-image options of the overhead model. Profile "" means the cloud's default;
	// Instance, DaemonSets and SystemDaemonSets are ignored (Solve fills in the catalog row, and packs DaemonSets
	// itself, the platform's system DaemonSets as Request.SystemDaemonSets says).
	Overhead overhead.Input
	MinNodes int
	MaxNodes int
	// Zones the pool's nodes are spread over, round-robin.
	Zones []string
	// Labels of every node, besides the well-known labels Solve adds.
	Labels map[string]string
	Taints []fit.Taint
	// Weight prefers a pool among those a pod may use (0–100), after least waste.
	Weight  int
	Credits CreditOptions
	// CapacityType is how the nodes are bought (fit.Pool.CapacityType; "" means on-demand). An AKS Spot
	// pool's nodes carry AKSSpotLabel and AKSSpotTaint, which Solve adds.
	CapacityType fit.CapacityType
	// UpgradeMaxSurge and UpgradeMaxUnavailable are the pool's node upgrade settings as its cloud names them
	// (upgrade.go); nil means the cloud's default.
	UpgradeMaxSurge       *fit.IntOrPercent
	UpgradeMaxUnavailable *fit.IntOrPercent
	// MaxFromPeak and MaxFromPeakPercent say the pool's maximum follows from the plan: MaxNodes bounds the
	// search, and the maximum reported and the headroom counted within is the peak's nodes raised by the percent
	// (fit.Pool.MaxFromPeak; a node group's max_size left unset).
	MaxFromPeak        bool
	MaxFromPeakPercent int
	// Extended declares what one node offers of extended resources (aws.amazon.com/neuron, nvidia.com/mig-1g.10gb,
	// …) and huge pages (hugepages-2Mi, in bytes), by name, over what kubefit derives from the instance type
	// (DerivedExtended); fit.Pool.Extended. Declared huge pages also come out of the node's allocatable memory.
	Extended map[string]int64
	// SizesChecked says the caller checks the pool's sizes against the platform's limits on the sizes the plan
	// gives it (a node group, whose minimum and maximum may follow from the plan): Solve leaves AKS's kubenet
	// and max pods rules (aks_limits.go) to it.
	SizesChecked bool
}

// AKS labels and taints every node of a Spot pool (MicrosoftDocs/azure-aks-docs spot-node-pool.md: the
// kubernetes.azure.com/scalesetpriority=spot label and the kubernetes.azure.com/scalesetpriority=spot:NoSchedule
// taint): only pods that tolerate it land there.
const (
	AKSSpotLabel = "kubernetes.azure.com/scalesetpriority"
	AKSSpotValue = "spot"
)

// The labels AKS and GKE put on every node of a pool (platformPoolLabels).
const (
	AKSAgentPoolLabel = "kubernetes.azure.com/agentpool"
	GKENodePoolLabel  = "cloud.google.com/gke-nodepool"
	GKESpotLabel      = "cloud.google.com/gke-spot"
)

// AKSSpotTaint is the taint AKS puts on every node of a Spot pool.
var AKSSpotTaint = fit.Taint{Key: AKSSpotLabel, Value: AKSSpotValue, Effect: fit.EffectNoSchedule}

// GKEArmTaint is the taint GKE puts on every Arm node of a Standard cluster: "By default, GKE schedules
// workloads only to x86-based nodes ... by placing a taint (kubernetes.io/arch=arm64:NoSchedule) on all Arm
// nodes" (docs.cloud.google.com/kubernetes-engine/docs/how-to/prepare-arm-workloads-for-deployment). GKE adds
// the matching toleration to a pod scheduled "with a node selector or with a node affinity rule" for arm64
// (gkeArmToleration); a pod of a multi-architecture image needs it written. A cluster can be told to leave
// the taint off, which kubefit does not model: it plans the default, the safe side.
var GKEArmTaint = fit.Taint{Key: "kubernetes.io/arch", Value: "arm64", Effect: fit.EffectNoSchedule}

// GKEGPUTaint is the taint GKE puts on the GPU nodes of a Standard cluster that also has a non-GPU node pool:
// "When you add a GPU node pool to an existing cluster that already runs a non-GPU node pool, GKE automatically
// taints the GPU nodes with the following node taint: Key: nvidia.com/gpu, Value: present, Effect: NoSchedule.
// GKE only adds this taint if there is at least one non-GPU node pool in the cluster"
// (cloud.google.com/kubernetes-engine/docs/how-to/gpus, "Run GPUs in GKE Standard node pools"; overhead.md §9.1).
// A sizing request does not know the cluster's other pools, so every GKE pool of a type with GPUs carries it (the
// safe side). The ExtendedResourceToleration admission controller, which GKE (like EKS and AKS) runs, gives a pod that requests
// nvidia.com/gpu the toleration (extendedTolerations); any other pod or DaemonSet needs it written.
var GKEGPUTaint = fit.Taint{Key: "nvidia.com/gpu", Value: "present", Effect: fit.EffectNoSchedule}

// CreditOptions set how a burstable pool's CPU credit budget is checked; the zero value means the
// family's default credit mode, the launch balance, DefaultMinHours and no surplus-cost limit.
type CreditOptions struct {
	Mode burst.Mode
	// Start is the balance a node starts with; the zero Balance means the launch balance.
	Start burst.Balance
	// MinHours is how long a node must run before it may be throttled; nil means burst.DefaultMinHours.
	MinHours *int64
	// MaxSurplusCostPerMonth, when not nil, fails an unlimited-mode pool whose surplus credits cost more
	// per node and month.
	MaxSurplusCostPerMonth *float64
}

// DaemonSet is a DaemonSet whose pod lands on every node of every pool it matches.
type DaemonSet = fit.DaemonSet

// Workload is a set of identical pods.
type Workload struct {
	Name string
	// Replicas is a fixed replica count, used for both scenarios; nil for an autoscaled workload.
	Replicas *int
	// MinReplicas and MaxReplicas bound an autoscaled workload. A nil MinReplicas with a MaxReplicas
	// means 1 (or MaxReplicas when that is 0); a nil MaxReplicas means MinReplicas.
	MinReplicas *int
	MaxReplicas *int
	// Requests of one pod; Requests.Pods is ignored (every pod takes one pod slot).
	Requests fit.Resources
	// Extended are one pod's requests of extended resources and huge pages, by name (fit.Workload.Extended).
	Extended map[string]int64
	// CPUUsageMillicores is the expected real CPU use of one pod, for credit checks.
	CPUUsageMillicores int64
	NodeSelector       map[string]string
	// NodeAffinity is the pods' required node affinity (ORed terms); nil for none.
	NodeAffinity []fit.NodeSelectorTerm
	// PreferredNodeAffinity is the pods' preferred node affinity, a score (fit.Workload.PreferredNodeAffinity).
	PreferredNodeAffinity []fit.WeightedNodeSelectorTerm
	Tolerations           []fit.Toleration
	// Namespace, Labels and PodAffinity are the pods' namespace, labels and inter-pod affinity
	// (fit.Workload).
	Namespace   string
	Labels      map[string]string
	PodAffinity *fit.PodAffinity
	// TopologySpread are the pods' topology spread constraints (fit.Workload.TopologySpread).
	TopologySpread []fit.TopologySpreadConstraint
	// HostPorts are the ports each pod takes on its node (fit.Workload.HostPorts).
	HostPorts []fit.HostPort
	// VolumeClaims are the claims one pod mounts (fit.Workload.VolumeClaims): each attachable one takes
	// one of its node's volume attachments.
	VolumeClaims []fit.VolumeClaim
	// Priority is the pods' priority (fit.Workload.Priority).
	Priority int32
	// Pools optionally restricts the workload to the named pools.
	Pools []string
	// OS is the operating system the pods say their containers need (fit.Workload.OS): "linux", "windows", or ""
	// when unsaid (then Linux, unless the node selector or affinity says otherwise: fit.WorkloadOS).
	OS string
	// MaxSurge is the rolling-update surge at peak; the zero value means none.
	MaxSurge fit.IntOrPercent
	// Spread is the topology spread; a zone spread with MaxSkew 0 keeps a skew of 1.
	Spread fit.Spread
	// DisruptionBudget is the pods' PodDisruptionBudget (fit.Workload.DisruptionBudget); nil for none.
	DisruptionBudget *fit.DisruptionBudget
}

// QualifyWorkloadNames names workloads of one name in several namespaces apart, as the manifest reader does within
// one read ("team-a/redis"), so that the planner, which knows a workload by its name, counts each. Callers run it on
// a request's workloads before planning: workloads gathered from several reads may share names.
func QualifyWorkloadNames(ws []Workload) {
	namespaces := map[string]map[string]bool{}
	for _, w := range ws {
		if namespaces[w.Name] == nil {
			namespaces[w.Name] = map[string]bool{}
		}
		namespaces[w.Name][w.Namespace] = true
	}
	for i := range ws {
		if len(namespaces[ws[i].Name]) > 1 && ws[i].Namespace != "" {
			ws[i].Name = ws[i].Namespace + "/" + ws[i].Name
		}
	}
}

// GKEGPUTaintNote is the note of a GKE pool whose nodes have GPUs (GKEGPUTaint).
const GKEGPUTaintNote = "GKE taints GPU nodes nvidia.com/gpu=present:NoSchedule when the cluster has a node pool without GPUs; " +
	"the other pools are not known here, so the taint is planned always: only pods that request GPUs (GKE gives them the toleration) " +
	"or tolerate the taint, and DaemonSets that do, land on this pool"
