// Package overhead computes a Kubernetes node's capacity, the kubelet's reservations (kube-reserved,
// system-reserved, hard eviction), the resulting allocatable, max pods, and what is left for workloads once
// DaemonSets are placed, for EKS, AKS and GKE node images. It implements shared/domain/overhead.md in exact
// integer arithmetic; every computed term carries a stable formula identifier (see Formulas) so callers can say
// which rule produced a number.
package overhead

import (
	"fmt"
	"strings"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
)

// Profile names a node image family whose reservation rules kubefit models.
type Profile string

// The supported profiles (overhead.md §3).
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
	return "", fmt.Errorf("unknown profile %q; valid profiles are %s", s, quoteList(Profiles))
}

// NodeGroupKind is how an EKS node is launched (overhead.md §3, §8.3).
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

// NetworkPlugin is an AKS network plugin setting, which decides the default max pods (overhead.md §8.6).
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
}

// InstanceFromCatalog converts a catalog row.
func InstanceFromCatalog(t catalog.InstanceType) Instance {
	return Instance{
		Cloud: t.Cloud, Name: t.Name, Family: t.Family, VCPU: int64(t.VCPU), MemoryMiB: t.MemoryMiB,
		Architecture: t.Architecture, SharedCore: t.SharedCore, Hypervisor: t.Hypervisor, BareMetal: t.BareMetal,
		MaxENIs: int64(t.MaxENIs), IPv4PerENI: int64(t.IPv4PerENI), ENIMaxPods: int64(t.ENIMaxPods),
	}
}

// CustomInstance describes a node of the custom profile by its vCPUs and nominal memory in bytes; memory is
// counted in whole MiB, rounded down, as every catalog row is.
func CustomInstance(cloud catalog.Cloud, vcpu, memoryBytes int64) Instance {
	return Instance{Cloud: cloud, Name: "custom", VCPU: vcpu, MemoryMiB: memoryBytes >> 20}
}

// Reservation holds optional per-resource values; nil means "not given, keep the profile's value".
type Reservation struct {
	CPUMillicores  *int64
	MemoryBytes    *int64
	EphemeralBytes *int64
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
	return FormatBytes(t.Bytes)
}

// Eviction signal names accepted in Input.EvictionHard.
const (
	SignalMemory = "memory.available"
	SignalNodefs = "nodefs.available"
)

// EKSOptions are the EKS network and launch settings (overhead.md §8.2–8.3).
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

// DaemonSet is one DaemonSet expected on the node; its requests are subtracted from allocatable.
type DaemonSet struct {
	Name           string
	CPUMillicores  int64
	MemoryBytes    int64
	EphemeralBytes int64
	TakesPodSlot   bool
}

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
	// VMMemoryOverheadBP is the VM memory overhead in basis points (750 = 7.5 %); nil = 750.
	VMMemoryOverheadBP *int64
	OSDiskGiB          int64 // 0 = the profile's default root/OS disk size
	DaemonSets         []DaemonSet
}

// Resources is an amount of each resource the model tracks.
type Resources struct {
	CPUMillicores  int64
	MemoryBytes    int64
	EphemeralBytes int64
	Pods           int64
}

// Term records how one figure was obtained: a stable formula identifier (see Formulas) and a human detail.
type Term struct {
	Name    string // e.g. "kube_reserved.memory"
	Value   int64
	Formula string
	Detail  string
}

// Result is the model's answer for one node.
type Result struct {
	Profile           Profile
	Capacity          Resources
	KubeReserved      Resources
	SystemReserved    Resources
	EvictionThreshold Resources
	Allocatable       Resources
	DaemonSetOverhead Resources
	Available         Resources // allocatable minus DaemonSets: what workloads can request
	MaxPods           int64
	// IPCap is how many non-host-network pods can get an IP (EKS VPC CNI); 0 when not applicable.
	IPCap int64
	// EvictionHard is the hard-eviction map as the kubelet is configured ("100Mi", "10%").
	EvictionHard map[string]string
	// RulesVersion says which dated rule set applied (e.g. "aks < 1.29").
	RulesVersion string
	Terms        []Term
	KubeletArgs  []string
	Warnings     []string
}

// Error is a problem with one input field of the model. Field is the input's name as the provider spells it
// (e.g. "max_pods", "kube_reserved.memory", "instance_type").
type Error struct {
	Field string
	Msg   string
}

func (e *Error) Error() string { return e.Field + ": " + e.Msg }

func fieldErr(field, format string, args ...any) error {
	return &Error{Field: field, Msg: fmt.Sprintf(format, args...)}
}

func quoteList[T ~string](xs []T) string {
	q := make([]string, len(xs))
	for i, x := range xs {
		q[i] = fmt.Sprintf("%q", string(x))
	}
	return strings.Join(q, ", ")
}
