package overhead

import (
	"fmt"
	"strings"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/resource"
)

// Profile names a node image family whose reservation rules kubefit models.
type Profile string

// The supported profiles.
const (
	EKSAL2023       Profile = "eks-al2023"
	EKSAL2          Profile = "eks-al2"
	EKSBottlerocket Profile = "eks-bottlerocket"
	EKSWindows      Profile = "eks-windows"
	AKSLinux        Profile = "aks-linux"
	AKSWindows      Profile = "aks-windows"
	GKEStandard     Profile = "gke-standard"
	Custom          Profile = "custom"
)

// Profiles lists every profile, in documentation order.
var Profiles = []Profile{EKSAL2023, EKSAL2, EKSBottlerocket, EKSWindows, AKSLinux, AKSWindows, GKEStandard, Custom}

// PoolProfiles are the profiles of catalog instance types: every profile but Custom, which describes a
// node by its vCPUs and memory instead.
var PoolProfiles = Profiles[:len(Profiles)-1]

// Cloud returns the cloud a profile belongs to, or "" for Custom.
func (p Profile) Cloud() catalog.Cloud {
	switch {
	case strings.HasPrefix(string(p), "eks-"):
		return catalog.AWS
	case strings.HasPrefix(string(p), "aks-"):
		return catalog.Azure
	case strings.HasPrefix(string(p), "gke-"):
		return catalog.GCP
	}
	return ""
}

func (p Profile) isEKS() bool { return p.Cloud() == catalog.AWS }
func (p Profile) isAKS() bool { return p.Cloud() == catalog.Azure }

// DefaultProfile returns the profile used for a cloud when none is given.
func DefaultProfile(c catalog.Cloud) Profile {
	switch c {
	case catalog.Azure:
		return AKSLinux
	case catalog.GCP:
		return GKEStandard
	default:
		return EKSAL2023
	}
}

// ParseProfile validates a profile name.
func ParseProfile(s string) (Profile, error) {
	for _, p := range Profiles {
		if string(p) == s {
			return p, nil
		}
	}
	return "", fmt.Errorf("unknown profile %q; valid profiles are %s", s, field.QuoteList(Profiles))
}

// NodeGroupKind is how an EKS node is launched; it changes the max-pods default and cap.
type NodeGroupKind string

// The EKS node-group kinds.
const (
	Managed     NodeGroupKind = "managed"
	SelfManaged NodeGroupKind = "self_managed"
	Karpenter   NodeGroupKind = "karpenter"
	AutoMode    NodeGroupKind = "auto_mode"
)

// NodeGroupKinds lists every EKS node-group kind; Managed is the default.
var NodeGroupKinds = []NodeGroupKind{Managed, SelfManaged, Karpenter, AutoMode}

// NetworkPlugin is an AKS network plugin setting, which decides the default max pods.
type NetworkPlugin string

// The AKS network plugins.
const (
	AzureCNIOverlay    NetworkPlugin = "azure_cni_overlay"
	AzureCNIPodSubnet  NetworkPlugin = "azure_cni_pod_subnet"
	AzureCNINodeSubnet NetworkPlugin = "azure_cni_node_subnet"
	Kubenet            NetworkPlugin = "kubenet"
	NoPlugin           NetworkPlugin = "none"
)

// NetworkPlugins lists every AKS network plugin; AzureCNIOverlay (the AKS default) comes first.
var NetworkPlugins = []NetworkPlugin{AzureCNIOverlay, AzureCNIPodSubnet, AzureCNINodeSubnet, Kubenet, NoPlugin}

// Instance is what the model needs to know of an instance type. Zero numbers mean unknown.
type Instance struct {
	Cloud        catalog.Cloud
	Name         string
	Family       string
	VCPU         int64
	MemoryMiB    int64
	Architecture string
	SharedCore   bool
	Hypervisor   string
	BareMetal    bool
	MaxENIs      int64 // default network card
	IPv4PerENI   int64
	ENIMaxPods   int64
	GPU          int64 // GPU devices; none are reserved (DaemonSets that request GPUs take them)
	MaxDataDisks int64 // Azure: the VM size's maximum data disks (0 when not known)
}

// InstanceFromCatalog converts a catalog row. The catalog gives GCP's legacy shared-core f1-micro and g1-small
// no vCPU count (they sustain a fraction of a core: 0.2 and 0.5); their guest sees one vCPU and the kubelet
// reports a capacity of one core (FCPUGKESharedCoreN1), so the model counts 1.
func InstanceFromCatalog(t catalog.InstanceType) Instance {
	vcpu := int64(t.VCPU)
	if vcpu == 0 && t.SharedCore && t.Cloud == catalog.GCP {
		vcpu = 1
	}
	return Instance{
		Cloud: t.Cloud, Name: t.Name, Family: t.Family, VCPU: vcpu, MemoryMiB: t.MemoryMiB,
		Architecture: t.Architecture, SharedCore: t.SharedCore, Hypervisor: t.Hypervisor, BareMetal: t.BareMetal,
		MaxENIs: int64(t.MaxENIs), IPv4PerENI: int64(t.IPv4PerENI), ENIMaxPods: int64(t.ENIMaxPods),
		GPU: int64(t.NVIDIAGPUs()), MaxDataDisks: int64(t.MaxDataDisks), // the nvidia.com/gpu a pod can request
	}
}

// CustomInstance describes a node of the custom profile by its vCPUs and nominal memory in bytes; memory is
// counted in whole MiB, rounded down, as every catalog row is.
func CustomInstance(cloud catalog.Cloud, vcpu, memoryBytes int64) Instance {
	return Instance{Cloud: cloud, Name: "custom", VCPU: vcpu, MemoryMiB: memoryBytes >> 20}
}

// Reservation holds optional per-resource values; nil means "not given, keep the profile's value".
type Reservation struct {
	CPUMillicores         *int64
	MemoryBytes           *int64
	EphemeralStorageBytes *int64
}

// MeasuredAllocatable is node.status.allocatable of a real node of the same instance type and image
// (kubectl get node -o jsonpath='{.status.allocatable}'); nil means not given. Each given figure replaces the
// model's allocatable for that resource, and Pods also becomes the node's max pods.
type MeasuredAllocatable struct {
	CPUMillicores         *int64
	MemoryBytes           *int64
	EphemeralStorageBytes *int64
	Pods                  *int64
}

// Threshold is a hard-eviction threshold: an absolute quantity in bytes, or a percentage of capacity in basis
// points (1% = 100).
type Threshold struct {
	Bytes     int64
	PercentBP int64
	IsPercent bool
}

// String renders the threshold as the kubelet writes it: "100Mi" or "10%".
func (t Threshold) String() string {
	if t.IsPercent {
		return formatBP(t.PercentBP) + "%"
	}
	return resource.QuantityBytes(t.Bytes)
}

// Eviction signal names accepted in Input.EvictionHard.
const (
	SignalMemory = "memory.available"
	SignalNodefs = "nodefs.available"
)

// EKSOptions are the EKS network and launch settings.
type EKSOptions struct {
	Kind             NodeGroupKind // "" = Managed
	PrefixDelegation bool
	CustomNetworking bool
	ReservedENIs     int64
	// MaxPodsExpressionResult is the integer result of an AL2023 maxPodsExpression; 0 = none.
	MaxPodsExpressionResult int64
}

// AKSOptions are the AKS settings that change the model.
type AKSOptions struct {
	NetworkPlugin NetworkPlugin // "" = AzureCNIOverlay
}

// DaemonSet is one DaemonSet expected on the node, in the planner's one DaemonSet model: the node model
// reads its name, requests and TakesPodSlot (its pod lands on the node; selectors and tolerations are the
// packer's matter).
type DaemonSet = fit.DaemonSet

// Input is everything the model needs for one node.
type Input struct {
	Profile  Profile
	Instance Instance
	// KubernetesVersion is "major.minor" (a patch part is ignored); "" means the current rules.
	KubernetesVersion string
	MaxPods           int64 // 0 = the profile's default
	EKS               EKSOptions
	AKS               AKSOptions
	KubeReserved      Reservation
	SystemReserved    Reservation
	EvictionHard      map[string]Threshold
	MeasuredCapacity  Reservation
	// MeasuredAllocatable wins over every model for the resources it gives.
	MeasuredAllocatable MeasuredAllocatable
	// VMMemoryOverheadBP is the VM memory overhead in basis points (750 = 7.5 %); nil = 750.
	VMMemoryOverheadBP *int64
	OSDiskGiB          int64 // 0 = the profile's default root/OS disk size
	// VolumeAttachLimit replaces the disk CSI driver's attach limit (VolumeAttachLimit): the driver's
	// --volume-attach-limit, or the count a real node's CSINode reports; nil = the driver's rule.
	VolumeAttachLimit *int64
	DaemonSets        []DaemonSet
	// SystemDaemonSets says whether the platform's system DaemonSets are counted beside DaemonSets
	// (SystemDaemonSetsPlatform, the default "") or only DaemonSets are (SystemDaemonSetsListed).
	SystemDaemonSets SystemDaemonSets
}

// Units of a Term's Value.
const (
	UnitMillicores = "millicores"
	UnitBytes      = "bytes"
	UnitPods       = "pods"
	UnitVolumes    = "volumes" // block-volume attachments
)

// Term records how one figure was obtained: its name in the kubelet's vocabulary ("kubeReserved.memory",
// "evictionHard.memory.available", "maxPods"), its value in Unit, a stable formula identifier (see
// Formulas) and a human detail.
type Term struct {
	Name    string
	Value   int64
	Unit    string // UnitMillicores, UnitBytes or UnitPods
	Formula string
	Detail  string
}

// Result is the model's answer for one node.
type Result struct {
	Profile Profile
	// NodeGroupKind is the EKS node-group kind used ("" on AKS, GKE and custom nodes).
	NodeGroupKind     NodeGroupKind
	Capacity          resource.List
	KubeReserved      resource.List
	SystemReserved    resource.List
	EvictionThreshold resource.List
	Allocatable       resource.List
	DaemonSetOverhead resource.List // the listed DaemonSets' and SystemDaemonSets' requests and pod slots
	Available         resource.List // allocatable minus DaemonSets: what workloads can request
	// SystemDaemonSets are the platform's system DaemonSets counted beside Input.DaemonSets
	// (CountedSystemDaemonSets): none when only the listed DaemonSets count.
	SystemDaemonSets []DaemonSet
	MaxPods          int64
	// Volumes is the node's block-volume attach limit; Allocatable.Volumes carries its Count.
	Volumes VolumeLimit
	// IPCap is how many non-host-network pods can get an IP (EKS VPC CNI); 0 when not applicable.
	IPCap int64
	// SystemPods names the host-network pods the node runs whether or not they are listed as DaemonSets
	// (aws-node and kube-proxy on EKS Linux nodes other than Auto Mode), and PodIPs caps the pods that need
	// a pod IP (IPCap on EKS Linux nodes, else 0 = no cap): with Allocatable and the DaemonSets, what
	// fit.DaemonSetLoad needs to give Available. A packer that charges DaemonSets itself takes Allocatable
	// and these two.
	SystemPods []string
	PodIPs     int64
	// EvictionHard is the hard-eviction map as the kubelet is configured ("100Mi", "10%").
	EvictionHard map[string]string
	// RulesVersion says which dated rule set applied (e.g. "aks < 1.29").
	RulesVersion string
	// Evidence says how the figures are backed: measured nodes, a published table, a documented formula, an
	// upper bound, or the user's own measurement.
	Evidence    Evidence
	Terms       []Term
	KubeletArgs []string
	Warnings    []field.Warning
}

// Warning codes: the stable Code of every field.Warning in Result.Warnings. Callers match on these, never on
// the message text.
const (
	// CodeNoDaemonSets: a Linux node counts only the listed DaemonSets (SystemDaemonSetsListed) and none is
	// listed: on EKS the slots of aws-node and kube-proxy are counted but not their requests; on AKS and GKE the
	// system DaemonSets the platform runs on every node are not counted at all (systemDaemonSetsNote).
	CodeNoDaemonSets = "overhead.no-daemonsets"
	// CodeHyperdiskAttach: a GCP C3, C3D or H3 node, whose driver-reported attach limit (127) is above what
	// Hyperdisk volumes attach.
	CodeHyperdiskAttach = "overhead.hyperdisk-attach-limit"
	// CodeDaemonSetsFillNode: the DaemonSets leave no CPU, memory or pod slot for workloads.
	CodeDaemonSetsFillNode = "overhead.daemonsets-fill-node"
	// CodeGKEMaxPodsAbove110: a GKE maximum pod count above 110, which only newer GKE versions allow.
	CodeGKEMaxPodsAbove110 = "overhead.gke-max-pods-above-110"
	// CodeNoENIData: the instance type has no ENI data, so max pods falls back to 110 and the IP limit is
	// not checked.
	CodeNoENIData = "overhead.no-eni-data"
	// CodePrefixDelegationIgnored: prefix delegation asked for on an instance type that cannot use it.
	CodePrefixDelegationIgnored = "overhead.prefix-delegation-ignored"
	// CodeNoENIForPods: reserved ENIs and custom networking leave no ENI for pod IPs.
	CodeNoENIForPods = "overhead.no-eni-for-pods"
	// CodeMNGMaxPodsEnforced: a max pods asked of an EKS managed node group, which EKS overrides with its own.
	CodeMNGMaxPodsEnforced = "overhead.eks-mng-max-pods-enforced"
	// CodeMaxPodsAboveIPs: the maximum pod count exceeds the pod IPs plus the host-network pods.
	CodeMaxPodsAboveIPs = "overhead.max-pods-above-ip-capacity"
	// CodeAKS129BothRules: AKS 1.29, where both the old and the new reservation rules were seen.
	CodeAKS129BothRules = "overhead.aks-1.29-both-rules"
	// CodeAKSWindowsRulesUnverified: AKS Windows from 1.29, where no measured node confirms the model.
	CodeAKSWindowsRulesUnverified = "overhead.aks-windows-rules-unverified"
	// CodeEKSAutoModeUpperBound: EKS Auto Mode, whose reservation rule is not published; allocatable is an
	// upper bound calibrated on a measured node.
	CodeEKSAutoModeUpperBound = "overhead.eks-auto-mode-upper-bound"
	// CodeNotMeasured: no public measured node backs the scope (profile and version range) of this node, so its
	// figures rest on a published table or a documented formula alone.
	CodeNotMeasured = "overhead.not-measured"
	// CodeAKSKubeReservedFloor: a kube-reserved value below the floor of AKS's customisable kubeReserved.
	CodeAKSKubeReservedFloor = "overhead.aks-kube-reserved-floor"
)
