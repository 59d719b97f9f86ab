package nodegroup

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/api/validate/content"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kubeletapis "k8s.io/kubelet/pkg/apis"
	"sigs.k8s.io/yaml"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/overhead"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/resource"
)

// Default root-volume sizes in GiB when none is given: the EKS managed node group default (20, Windows 50),
// the AKS default OS disk (128) and the GKE default boot disk (100).
const (
	DefaultEKSDiskGiB        = 20
	DefaultEKSWindowsDiskGiB = 50
	DefaultAKSDiskGiB        = 128
	DefaultGKEDiskGiB        = 100
)

// Taint is a node taint in one consumer's spelling.
type Taint struct {
	Key    string `json:"key"`
	Value  string `json:"value,omitempty"`
	Effect string `json:"effect"`
}

// EKSNodeGroup holds the arguments of an aws_eks_node_group (AWS spelling: NO_SCHEDULE, ON_DEMAND).
type EKSNodeGroup struct {
	InstanceTypes                 []string
	DesiredSize, MinSize, MaxSize int
	Labels                        map[string]string
	Taints                        []Taint
	DiskSize                      int
	AMIType                       string
	CapacityType                  string
	// UpdateConfig is the group's update_config when it sets its max unavailable (nil: EKS's default, 1 node).
	UpdateConfig *EKSUpdateConfig
}

// EKSUpdateConfig is an aws_eks_node_group update_config: one of a node count and a percentage.
// eksDefaultMaxUnavailable is EKS's max unavailable of a managed node group without an update config: 1 node
// (sizing plans its node_upgrade disruption with it).
const eksDefaultMaxUnavailable = 1

type EKSUpdateConfig struct {
	MaxUnavailable, MaxUnavailablePercentage *int
}

// AKSUpgradeSettings is an azurerm_kubernetes_cluster_node_pool upgrade_settings block: one of max_surge and
// max_unavailable (a count or a percentage; azurerm declares them ConflictsWith each other since v4.53.0,
// hashicorp/terraform-provider-azurerm#30563, and AKS drains a max unavailable only with a max surge of 0). The
// other is "".
type AKSUpgradeSettings struct {
	MaxSurge, MaxUnavailable string
}

// GKEUpgradeSettings is a google_container_node_pool upgrade_settings block (surge strategy, node counts).
type GKEUpgradeSettings struct {
	MaxSurge, MaxUnavailable int
}

// AKSNodePool holds the arguments of an azurerm_kubernetes_cluster_node_pool (azurerm v4 names). MinCount
// and MaxCount are set only with auto-scaling, as azurerm requires.
type AKSNodePool struct {
	VMSize             string
	NodeCount          int
	AutoScalingEnabled bool
	MinCount, MaxCount *int
	MaxPods            int64
	NodeLabels         map[string]string
	NodeTaints         []string
	OSDiskSizeGB       int
	OSType             string
	// OSSKU is set for Windows pools only (Windows2022, or Windows2019 before Kubernetes 1.23).
	OSSKU string
	Zones []string
	// Priority is Regular or Spot; a Spot pool sets EvictionPolicy (Delete, given explicitly: azurerm does not
	// read AKS's default back, so leaving it unset replaces the pool on every apply, hashicorp/terraform-provider-azurerm#25615)
	// and SpotMaxPrice (-1: up to the on-demand price), and its NodeTaints and NodeLabels carry the taint and the
	// label AKS adds (azurerm reads both back from the API), so the next plan does not try to remove them.
	Priority       string
	EvictionPolicy string
	SpotMaxPrice   *float64
	// TemporaryNameForRotation names the temporary pool azurerm cycles the pool through when vm_size, max_pods,
	// os_disk_size_gb or zones change (aksTemporaryName); without one such a change fails at apply.
	TemporaryNameForRotation string
	// UpgradeSettings is set when the group sets its max surge (nil: AKS's default).
	UpgradeSettings *AKSUpgradeSettings
}

// GKENodePool holds the arguments of a google_container_node_pool. The group's sizes are exact totals
// (autoscaling's total_min_node_count and total_max_node_count, whatever the number of zones) over
// NodeLocations (the group's zones; nil leaves the cluster's locations); InitialNodeCount is per zone, as GKE
// counts it, and only seeds the pool: node_count is never emitted beside autoscaling, since every autoscaler
// move would then be drift the next apply undoes.
type GKENodePool struct {
	InitialNodeCount int
	NodeLocations    []string
	Autoscaling      GKEAutoscaling
	// MaxPodsPerNode is the max pods kubefit planned with, always set: without it the pool takes the cluster's
	// default_max_pods_per_node, which may be below the 110 kubefit plans when the group leaves max_pods unset.
	// GKE takes it on VPC-native clusters only ("Configure maximum Pods per node", Limitations,
	// https://cloud.google.com/kubernetes-engine/docs/how-to/flexible-pod-cidr), the default since 1.21.
	MaxPodsPerNode int64
	MachineType    string
	DiskSizeGB     int
	// DiskType is the boot disk type: "" leaves GKE's default (pd-balanced); hyperdisk-balanced for a machine
	// series that attaches no pd-balanced (disks.md §6.1).
	DiskType string
	Labels   map[string]string
	Taints   []Taint
	Spot     bool
	// UpgradeSettings is set when the group sets its max surge or max unavailable (nil: GKE's default).
	UpgradeSettings *GKEUpgradeSettings
	// GuestAccelerator is set on a machine type with whole GPUs: their type and count, GKE's driver installation
	// and the group's GPU sharing (gkeGuestAccelerator). Without it GKE installs no driver, and a node offers no
	// nvidia.com/gpu until one runs; an N1 machine gets no GPU at all without it.
	GuestAccelerator *GKEGuestAccelerator
}

// GKEAutoscaling is a google_container_node_pool autoscaling block with total counts. LocationPolicy is
// BALANCED (GKE's default for on-demand pools) or ANY (its default for Spot, which takes capacity wherever it is).
type GKEAutoscaling struct {
	TotalMinNodeCount, TotalMaxNodeCount int
	LocationPolicy                       string
}

// Rendered holds the consumer shapes of a group; the ones that do not apply to its cloud are nil or "".
type Rendered struct {
	EKS *EKSNodeGroup
	AKS *AKSNodePool
	GKE *GKENodePool
	// EKSModule, AKSModule and GKEModule are the same groups in the input shapes of the community modules
	// (modules.go).
	EKSModule *EKSModuleNodeGroup
	AKSModule *AKSModuleNodePool
	GKEModule *GKEModuleNodePool
	// EKSLaunchTemplate carries custom kubelet settings to an EKS managed group's nodes (nil without them).
	EKSLaunchTemplate *EKSLaunchTemplate
	// Warnings are caveats of the rendering (a name a module does not take, kubelet settings an image ignores).
	Warnings   []field.Warning
	EksctlYAML string
	// KarpenterNodePool is a karpenter.sh/v1 NodePool as a JSON object; KarpenterYAML the same as YAML.
	KarpenterNodePool map[string]any
	KarpenterYAML     string
	// KarpenterKubelet is the spec.kubelet block the NodePool's EC2NodeClass must carry for Karpenter's nodes to
	// run the kubelet settings the group was planned with (karpenterKubelet); nil when the group sets none, or
	// when its NodePool refers to EKS Auto Mode's NodeClass.
	KarpenterKubelet map[string]any
	// KubeletConfigYAML is a kubelet.config.k8s.io/v1beta1 KubeletConfiguration fragment.
	KubeletConfigYAML string
}

// Render renders a sized group for the consumers of its cloud.
func Render(req Request, r *Result) (Rendered, error) {
	var out Rendered
	var err error
	if out.KubeletConfigYAML, err = kubeletConfig(r); err != nil {
		return out, err
	}
	switch {
	case req.Pool.Cloud == catalog.AWS && !rendersEksctl(req, r):
		// EKS Auto Mode launches its nodes from NodePools only: a managed node group or an eksctl one would launch
		// nodes of another kind, with the managed nodes' reservations and pods, not the ones planned. A Karpenter
		// group whose members need several AMIs (architectures, accelerators) or are more than a managed node group
		// takes has no managed shape either.
		out.KarpenterNodePool, out.KarpenterYAML, err = karpenter(req, r)
		out.KarpenterKubelet, out.Warnings = karpenterKubelet(req, r), append(append(out.Warnings, karpenterKubeletWarnings(req, r)...), karpenterWindowsWarnings(req)...)
	case req.Pool.Cloud == catalog.AWS:
		out.EKS = eksNodeGroup(req, r)
		var warns []field.Warning
		if out.EKSLaunchTemplate, warns, err = eksLaunchTemplate(req, r, out.KubeletConfigYAML); err != nil {
			return out, err
		}
		out.Warnings = append(out.Warnings, warns...)
		if out.EKSLaunchTemplate != nil {
			out.EKS.DiskSize = 0 // the launch template carries the volume: EKS refuses disk_size beside one
		}
		out.EKSModule = eksModuleNodeGroup(req, out.EKS, out.EKSLaunchTemplate)
		if out.EksctlYAML, err = eksctl(req, r); err != nil {
			return out, err
		}
		if req.Pool.Overhead.EKS.Kind == overhead.SelfManaged {
			// aws_eks_node_group and the module's eks_managed_node_groups make managed nodes, with EKS's max-pods cap
			// and defaults, not the self-managed nodes planned: their shapes are left out.
			out.EKS, out.EKSModule = nil, nil
		}
		out.KarpenterNodePool, out.KarpenterYAML, err = karpenter(req, r)
		out.KarpenterKubelet, out.Warnings = karpenterKubelet(req, r), append(append(out.Warnings, karpenterKubeletWarnings(req, r)...), karpenterWindowsWarnings(req)...)
	case req.Pool.Cloud == catalog.Azure:
		out.AKS = aksNodePool(req, r)
		out.AKSModule, out.Warnings = aksModuleNodePool(req, r, out.AKS)
		out.Warnings = append(out.Warnings, oneSizeWarnings(req, r)...)
	case req.Pool.Cloud == catalog.GCP:
		out.GKE = gkeNodePool(req, r)
		out.GKEModule = gkeModuleNodePool(req, r, out.GKE)
		out.Warnings = append(out.Warnings, gkeBootDiskWarnings(req, r)...)
		out.Warnings = append(out.Warnings, oneSizeWarnings(req, r)...)
	}
	return out, err
}

func memberNames(r *Result) []string {
	names := make([]string, len(r.Pool.Members))
	for i, m := range r.Pool.Members {
		names[i] = m.Name
	}
	return names
}

func isWindows(p overhead.Profile) bool { return p == overhead.EKSWindows || p == overhead.AKSWindows }

// amiType is the EKS AMI type of the group's profile, architecture and accelerator. On Bottlerocket, Inferentia and
// Trainium run the standard x86_64 variant: "The standard Bottlerocket variants (aws-k8s) include the Neuron
// dependencies that are automatically detected and loaded when running on AWS Inferentia or Trainium EC2 instances",
// and the table of EKS-optimized accelerated AMIs has the row "Bottlerocket x86_64 aws-k8s | inf1, inf2, trn1, trn2"
// (awsdocs/amazon-eks-user-guide latest/ug/ml/ml-eks-optimized-ami.adoc at 07d09a00). eksctl's amiFamily is
// Bottlerocket either way (eksctlAMIFamily), and a Karpenter EC2NodeClass's alias bottlerocket@latest picks the
// variant per instance type.
func amiType(r *Result) string {
	arm := r.Pool.Instance.Architecture == catalog.ArchARM64
	gpu := accelerator(r.Pool.Instance) == "nvidia"
	switch r.Pool.Overhead.Profile {
	case overhead.EKSAL2:
		switch {
		case arm:
			return "AL2_ARM_64"
		case accelerator(r.Pool.Instance) != "": // AL2's accelerated AMI carries the NVIDIA and the Neuron drivers
			return "AL2_x86_64_GPU"
		}
		return "AL2_x86_64"
	case overhead.EKSBottlerocket:
		switch {
		case arm && gpu:
			return "BOTTLEROCKET_ARM_64_NVIDIA"
		case arm:
			return "BOTTLEROCKET_ARM_64"
		case gpu:
			return "BOTTLEROCKET_x86_64_NVIDIA"
		}
		return "BOTTLEROCKET_x86_64"
	case overhead.EKSWindows:
		return "WINDOWS_CORE_2022_x86_64"
	}
	switch {
	case accelerator(r.Pool.Instance) == "neuron":
		return "AL2023_x86_64_NEURON"
	case arm && gpu:
		return "AL2023_ARM_64_NVIDIA"
	case arm:
		return "AL2023_ARM_64_STANDARD"
	case gpu:
		return "AL2023_x86_64_NVIDIA"
	}
	return "AL2023_x86_64_STANDARD"
}

// awsEffect spells a taint effect as the EKS API does.
func awsEffect(e fit.TaintEffect) string {
	switch e {
	case fit.EffectNoExecute:
		return "NO_EXECUTE"
	case fit.EffectPreferNoSchedule:
		return "PREFER_NO_SCHEDULE"
	}
	return "NO_SCHEDULE"
}

func diskGiB(req Request, def int) int {
	if req.DiskSizeGiB > 0 {
		return req.DiskSizeGiB
	}
	return def
}

func eksNodeGroup(req Request, r *Result) *EKSNodeGroup {
	g := &EKSNodeGroup{InstanceTypes: memberNames(r), DesiredSize: r.DesiredSize, MinSize: r.MinSize, MaxSize: r.MaxSize,
		Labels: copyLabels(req.Pool.Labels), AMIType: amiType(r), CapacityType: "ON_DEMAND"}
	if req.CapacityType == Spot {
		g.CapacityType = "SPOT"
	}
	g.DiskSize = diskGiB(req, DefaultEKSDiskGiB)
	if isWindows(r.Pool.Overhead.Profile) {
		g.DiskSize = diskGiB(req, DefaultEKSWindowsDiskGiB)
	}
	for _, t := range req.Pool.Taints {
		g.Taints = append(g.Taints, Taint{Key: t.Key, Value: t.Value, Effect: awsEffect(t.Effect)})
	}
	if u := req.Pool.UpgradeMaxUnavailable; u != nil {
		v := u.Value
		g.UpdateConfig = &EKSUpdateConfig{MaxUnavailable: &v}
		if u.Percent {
			g.UpdateConfig = &EKSUpdateConfig{MaxUnavailablePercentage: &v}
		}
	}
	return g
}

// aksZone spells a zone as AKS does: "1" for "1" or "eastus-1".
func aksZone(z string) string {
	if i := strings.LastIndexByte(z, '-'); i >= 0 {
		return z[i+1:]
	}
	return z
}

func aksNodePool(req Request, r *Result) *AKSNodePool {
	p := &AKSNodePool{VMSize: r.Pool.Instance.Name, NodeCount: r.DesiredSize, AutoScalingEnabled: r.MinSize != r.MaxSize,
		MaxPods: r.MaxPods, NodeLabels: copyLabels(req.Pool.Labels), OSDiskSizeGB: diskGiB(req, DefaultAKSDiskGiB), OSType: "Linux"}
	if p.AutoScalingEnabled {
		p.MinCount, p.MaxCount = &r.MinSize, &r.MaxSize
	}
	if isWindows(r.Pool.Overhead.Profile) {
		p.OSType = "Windows"
	}
	p.OSSKU = aksOSSKU(req, isWindows(r.Pool.Overhead.Profile))
	p.TemporaryNameForRotation = aksTemporaryName(req.Pool.Name, isWindows(r.Pool.Overhead.Profile))
	taints := req.Pool.Taints
	p.Priority = "Regular"
	if req.CapacityType == Spot {
		price := -1.0
		p.Priority, p.EvictionPolicy, p.SpotMaxPrice = "Spot", "Delete", &price
		p.NodeLabels[aksSpotKey] = aksSpotValue
		if !slices.Contains(taints, aksSpotTaint) {
			taints = append(slices.Clip(taints), aksSpotTaint)
		}
	}
	for _, t := range taints {
		p.NodeTaints = append(p.NodeTaints, t.Key+"="+t.Value+":"+string(t.Effect))
	}
	for _, z := range req.Pool.Zones {
		p.Zones = append(p.Zones, aksZone(z))
	}
	switch s, u := req.Pool.UpgradeMaxSurge, req.Pool.UpgradeMaxUnavailable; {
	case u != nil && (s == nil || s.Value == 0):
		p.UpgradeSettings = &AKSUpgradeSettings{MaxUnavailable: u.String()}
	case s != nil:
		p.UpgradeSettings = &AKSUpgradeSettings{MaxSurge: s.String()}
	}
	return p
}

func gkeNodePool(req Request, r *Result) *GKENodePool {
	p := &GKENodePool{NodeLocations: slices.Clone(req.Pool.Zones), MachineType: r.Pool.Instance.Name, DiskSizeGB: diskGiB(req, DefaultGKEDiskGiB),
		Labels: copyLabels(req.Pool.Labels), Spot: req.CapacityType == Spot, MaxPodsPerNode: r.MaxPods,
		Autoscaling: GKEAutoscaling{TotalMinNodeCount: r.MinSize, TotalMaxNodeCount: r.MaxSize, LocationPolicy: "BALANCED"}}
	if p.Spot {
		p.Autoscaling.LocationPolicy = "ANY"
	}
	p.DiskType = gkeBootDiskType(r.Pool.Instance)
	p.GuestAccelerator = gkeGuestAccelerator(req, r)
	// Per zone: the desired size spread over the zones, kept within the maximum; without zones the cluster's
	// locations are unknown here, so the pool starts at one node per zone and the autoscaler adds the rest.
	p.InitialNodeCount = 1
	if nz := len(req.Pool.Zones); nz > 0 {
		p.InitialNodeCount = min(int(resource.CeilDiv(int64(r.DesiredSize), int64(nz))), r.MaxSize/nz)
	}
	// Only the group's own taints: GKE's nvidia.com/gpu=present:NoSchedule on GPU nodes (sizing.GKEGPUTaint), which
	// the plan counts, is added by GKE itself, and only while the cluster has a pool without GPUs; written here it
	// would become the pool's own taint, kept even when GKE would leave it off. GKE's Arm taint likewise.
	for _, t := range req.Pool.Taints {
		p.Taints = append(p.Taints, Taint{Key: t.Key, Value: t.Value, Effect: awsEffect(t.Effect)})
	}
	if s, u := req.Pool.UpgradeMaxSurge, req.Pool.UpgradeMaxUnavailable; s != nil || u != nil {
		p.UpgradeSettings = &GKEUpgradeSettings{MaxSurge: 1} // GKE's surge defaults, max surge 1 and max unavailable 0
		if s != nil {
			p.UpgradeSettings.MaxSurge = s.Value
		}
		if u != nil {
			p.UpgradeSettings.MaxUnavailable = u.Value
		}
	}
	return p
}

func copyLabels(m map[string]string) map[string]string {
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// kubeTaints spells taints as Kubernetes does (NoSchedule).
func kubeTaints(ts []fit.Taint) []Taint {
	var out []Taint
	for _, t := range ts {
		out = append(out, Taint{Key: t.Key, Value: t.Value, Effect: string(t.Effect)})
	}
	return out
}

// eksctlBase holds the fields both eksctl entries take (managedNodeGroups and nodeGroups share eksctl's
// NodeGroupBase). Bottlerocket carries a Bottlerocket group's planned reservations (managedNodeGroups take no
// kubeletExtraConfig: a managed AL2023 group's go in overrideBootstrapCommand, eksctlNodeGroup).
type eksctlBase struct {
	Name              string                  `json:"name"`
	AMIFamily         string                  `json:"amiFamily"`
	DesiredCapacity   int                     `json:"desiredCapacity"`
	MinSize           int                     `json:"minSize"`
	MaxSize           int                     `json:"maxSize"`
	VolumeSize        int                     `json:"volumeSize"`
	VolumeType        string                  `json:"volumeType,omitempty"`
	MaxPodsPerNode    int64                   `json:"maxPodsPerNode"`
	AvailabilityZones []string                `json:"availabilityZones,omitempty"`
	Labels            map[string]string       `json:"labels,omitempty"`
	Taints            []Taint                 `json:"taints,omitempty"`
	Bottlerocket      *eksctlBottlerocketConf `json:"bottlerocket,omitempty"`
}

// eksctlNodeGroup is one eksctl.io/v1alpha5 managedNodeGroups entry, with the fields eksctl accepts there.
//
// OverrideBootstrapCommand carries a managed AL2023 group's planned reservations and hard-eviction thresholds as a
// nodeadm NodeConfig (eksctl-io/eksctl at 99984adb6164ece593c0728523b7f497ea61d60e):
//   - eksctl accepts it on a managed AmazonLinux2023 entry without a custom AMI: it refuses overrideBootstrapCommand
//     without one only for other AMI families (pkg/apis/eksctl.io/v1alpha5/validation.go L1574-1575; L1416-1417 in
//     v0.215.0, whose validation and bootstrapper crd_test.go runs on this entry);
//   - the AL2023 bootstrapper, managed groups' too (NewManagedAL2023Bootstrapper), writes maxPodsPerNode as a
//     NodeConfig part of its own, then appends overrideBootstrapCommand decoded as a NodeConfig as a later part
//     (pkg/nodebootstrap/al2023.go L62-87), the user data of the launch template eksctl makes for the group
//     (pkg/cfn/builder/managed_launch_template.go L44-49); nodeadm merges those parts with the NodeConfig EKS
//     writes, kubelet config key by key (nodeadmConfig).
//
// So max pods stay in maxPodsPerNode only (one place, no second value to disagree with), and the override holds
// the rest of kubelet_config_yaml's settings: together they are eks_launch_template's NodeConfig.
type eksctlNodeGroup struct {
	eksctlBase
	InstanceTypes            []string `json:"instanceTypes"`
	Spot                     bool     `json:"spot,omitempty"`
	OverrideBootstrapCommand string   `json:"overrideBootstrapCommand,omitempty"`
}

// eksctlAMIFamily is eksctl's amiFamily for a profile.
func eksctlAMIFamily(p overhead.Profile) string {
	switch p {
	case overhead.EKSAL2:
		return "AmazonLinux2"
	case overhead.EKSBottlerocket:
		return "Bottlerocket"
	case overhead.EKSWindows:
		return "WindowsServer2022CoreContainer"
	}
	return "AmazonLinux2023"
}

// eksctlSelfManaged is one eksctl.io/v1alpha5 nodeGroups entry (a self-managed group: eksctl's own Auto Scaling
// group and launch template), with the fields kubefit sets. A single on-demand type is instanceType; several types
// or spot go through instancesDistribution (eksctl refuses instanceType beside it). kubeletExtraConfig carries the
// planned reservations on AL2 and AL2023 (eksctl refuses it on Windows and Bottlerocket, whose settings carry them).
type eksctlSelfManaged struct {
	eksctlBase
	InstanceType          string              `json:"instanceType,omitempty"`
	InstancesDistribution *eksctlDistribution `json:"instancesDistribution,omitempty"`
	KubeletExtraConfig    map[string]any      `json:"kubeletExtraConfig,omitempty"`
}

// eksctlDistribution is a nodeGroups entry's instancesDistribution: all on-demand, or all spot.
type eksctlDistribution struct {
	InstanceTypes                       []string `json:"instanceTypes"`
	OnDemandBaseCapacity                int      `json:"onDemandBaseCapacity"`
	OnDemandPercentageAboveBaseCapacity int      `json:"onDemandPercentageAboveBaseCapacity"`
	SpotAllocationStrategy              string   `json:"spotAllocationStrategy,omitempty"`
}

// eksctlBottlerocketConf is an entry's bottlerocket block: its settings.kubernetes reservations and eviction
// thresholds (max pods go in maxPodsPerNode: eksctl refuses max-pods there, checkBottlerocketSettings).
type eksctlBottlerocketConf struct {
	Settings map[string]any `json:"settings"`
}

// eksctlKubelet is the group's planned kubelet settings as eksctl takes them: kubeletExtraConfig (AL2, AL2023)
// or Bottlerocket settings, both nil without custom settings (the image's defaults are what was planned).
func eksctlKubelet(req Request, r *Result) (map[string]any, *eksctlBottlerocketConf) {
	if !customKubelet(req) {
		return nil, nil
	}
	o := r.Pool.Overhead
	switch o.Profile {
	case overhead.EKSBottlerocket:
		kube := map[string]any{}
		for name, m := range map[string]map[string]string{"kube-reserved": quantities(o.KubeReserved), "system-reserved": quantities(o.SystemReserved), "eviction-hard": fullEvictionHard(o.EvictionHard)} {
			if len(m) > 0 {
				kube[name] = m
			}
		}
		if len(kube) == 0 {
			return nil, nil
		}
		return nil, &eksctlBottlerocketConf{Settings: map[string]any{"kubernetes": kube}}
	case overhead.EKSAL2, overhead.EKSAL2023:
		cfg := map[string]any{}
		if m := quantities(o.KubeReserved); len(m) > 0 {
			cfg["kubeReserved"] = m
		}
		if m := quantities(o.SystemReserved); len(m) > 0 {
			cfg["systemReserved"] = m
		}
		cfg["evictionHard"] = fullEvictionHard(o.EvictionHard)
		if len(cfg) == 0 {
			return nil, nil
		}
		return cfg, nil
	}
	return nil, nil
}

// eksctl renders the group's eksctl entry: managedNodeGroups, or nodeGroups for a self-managed group.
func eksctl(req Request, r *Result) (string, error) {
	g := eksNodeGroup(req, r)
	kubelet, bottlerocket := eksctlKubelet(req, r)
	base := eksctlBase{Name: EksctlName(req.Pool.Name), AMIFamily: eksctlAMIFamily(r.Pool.Overhead.Profile),
		DesiredCapacity: r.DesiredSize, MinSize: r.MinSize, MaxSize: r.MaxSize, VolumeSize: g.DiskSize, VolumeType: req.DiskType,
		MaxPodsPerNode: r.MaxPods, AvailabilityZones: req.Pool.Zones, Labels: req.Pool.Labels, Taints: kubeTaints(req.Pool.Taints),
		Bottlerocket: bottlerocket}
	if req.Pool.Overhead.EKS.Kind == overhead.SelfManaged {
		ng := eksctlSelfManaged{eksctlBase: base, KubeletExtraConfig: kubelet}
		switch {
		case req.CapacityType == Spot:
			ng.InstancesDistribution = &eksctlDistribution{InstanceTypes: g.InstanceTypes, SpotAllocationStrategy: "price-capacity-optimized"}
		case len(g.InstanceTypes) > 1:
			ng.InstancesDistribution = &eksctlDistribution{InstanceTypes: g.InstanceTypes, OnDemandPercentageAboveBaseCapacity: 100}
		default:
			ng.InstanceType = g.InstanceTypes[0]
		}
		b, err := yaml.Marshal(map[string]any{"nodeGroups": []eksctlSelfManaged{ng}})
		return string(b), err
	}
	ng := eksctlNodeGroup{eksctlBase: base, InstanceTypes: g.InstanceTypes, Spot: req.CapacityType == Spot}
	if kubelet != nil && r.Pool.Overhead.Profile == overhead.EKSAL2023 {
		// eksctlKubelet's AL2023 map holds no maxPods: maxPodsPerNode carries it.
		nc, err := nodeadmConfig(kubelet)
		if err != nil {
			return "", err
		}
		ng.OverrideBootstrapCommand = nc
	}
	b, err := yaml.Marshal(map[string]any{"managedNodeGroups": []eksctlNodeGroup{ng}})
	return string(b), err
}

// Karpenter NodePool (karpenter.sh/v1), with only the fields kubefit sets.
type (
	karpenterNodePool struct {
		APIVersion string            `json:"apiVersion"`
		Kind       string            `json:"kind"`
		Metadata   metav1.ObjectMeta `json:"metadata"`
		Spec       karpenterSpec     `json:"spec"`
	}
	karpenterSpec struct {
		Template karpenterTemplate `json:"template"`
		Limits   map[string]string `json:"limits"`
	}
	karpenterTemplate struct {
		Metadata struct {
			Labels map[string]string `json:"labels,omitempty"`
		} `json:"metadata,omitempty"`
		Spec karpenterTemplateSpec `json:"spec"`
	}
	karpenterTemplateSpec struct {
		NodeClassRef karpenterNodeClassRef  `json:"nodeClassRef"`
		Requirements []karpenterRequirement `json:"requirements"`
		Taints       []Taint                `json:"taints,omitempty"`
	}
	karpenterNodeClassRef struct {
		Group string `json:"group"`
		Kind  string `json:"kind"`
		Name  string `json:"name"`
	}
	karpenterRequirement struct {
		Key      string   `json:"key"`
		Operator string   `json:"operator"`
		Values   []string `json:"values"`
	}
)

// labelErrors reports the node labels an AWS group may not carry: those in the kubernetes.io and k8s.io
// domains a node may not set on itself (kubeletRestricted), and those its Karpenter NodePool may not carry
// (karpenterRestricted). A name the NodePool CRD rejects is not an error: the NodePool takes KarpenterName.
func labelErrors(req Request) field.Errors {
	var errs field.Errors
	for _, k := range slices.Sorted(maps.Keys(req.Pool.Labels)) {
		why := kubeletRestricted(k)
		if why == "" {
			why = karpenterRestricted(k)
		}
		if why != "" {
			errs = append(errs, field.Invalid(field.NewPath("Labels").Key(k), k, "label %s of AWS node group %q %s", field.Quote(k), req.Pool.Name, why))
		}
	}
	return errs
}

// inDomain returns the domain of ds that domain is or is a subdomain of, or "".
func inDomain(domain string, ds ...string) string {
	for _, d := range ds {
		if domain == d || strings.HasSuffix(domain, "."+d) {
			return d
		}
	}
	return ""
}

// kubeletRestricted says why a node may not set label key k on itself, or "" when it may: a key in the
// kubernetes.io and k8s.io domains that is not one k8s.io/kubelet's IsKubeletLabel allows (the kubelet's
// --node-labels, through which EKS node groups apply labels, allow only the well-known keys and the
// kubelet.kubernetes.io and node.kubernetes.io domains there); eksctl refuses them for the same reason.
func kubeletRestricted(k string) string {
	domain, _, ok := strings.Cut(k, "/")
	if !ok || kubeletapis.IsKubeletLabel(k) {
		return ""
	}
	if d := inDomain(domain, "kubernetes.io", "k8s.io"); d != "" {
		return fmt.Sprintf("is in the reserved %s domain, which a node may not set on itself (only its well-known labels and the "+
			"node.kubernetes.io and kubelet.kubernetes.io domains); use a label of your own domain, or let a controller set it", d)
	}
	return ""
}

// karpenterRestrictedDomains are the label domains Karpenter reserves: its own (sigs.k8s.io/karpenter
// v1.14.1 RestrictedLabelDomains) and the AWS provider's (karpenter-provider-aws v1.14.3
// pkg/apis/v1/labels.go).
var karpenterRestrictedDomains = []string{"karpenter.sh", "karpenter.k8s.aws"}

// karpenterWellKnownLabels are the labels in those domains a NodePool may carry (the WellKnownLabels of
// the same sources); karpenter.sh/nodepool is well known but refused on a NodePool's own labels.
var karpenterWellKnownLabels = []string{
	"karpenter.sh/capacity-type",
	"karpenter.k8s.aws/capacity-reservation-id", "karpenter.k8s.aws/capacity-reservation-type",
	"karpenter.k8s.aws/capacity-reservation-interruptible", "karpenter.k8s.aws/instance-hypervisor",
	"karpenter.k8s.aws/instance-encryption-in-transit-supported", "karpenter.k8s.aws/instance-category",
	"karpenter.k8s.aws/instance-capability-flex", "karpenter.k8s.aws/instance-family", "karpenter.k8s.aws/instance-generation",
	"karpenter.k8s.aws/instance-size", "karpenter.k8s.aws/instance-local-nvme", "karpenter.k8s.aws/instance-cpu",
	"karpenter.k8s.aws/instance-cpu-manufacturer", "karpenter.k8s.aws/instance-cpu-sustained-clock-speed-mhz",
	"karpenter.k8s.aws/instance-memory", "karpenter.k8s.aws/instance-ebs-bandwidth", "karpenter.k8s.aws/instance-network-bandwidth",
	"karpenter.k8s.aws/instance-gpu-name", "karpenter.k8s.aws/instance-gpu-manufacturer", "karpenter.k8s.aws/instance-gpu-count",
	"karpenter.k8s.aws/instance-gpu-memory", "karpenter.k8s.aws/instance-accelerator-name",
	"karpenter.k8s.aws/instance-accelerator-manufacturer", "karpenter.k8s.aws/instance-accelerator-count",
	"karpenter.k8s.aws/instance-tenancy", "karpenter.k8s.aws/placement-group-id", "karpenter.k8s.aws/placement-group-partition",
}

// karpenterRestricted says why a Karpenter NodePool may not carry label key k, or "" when it may, by the
// NodePool CRD's rules and by what Karpenter validates at run time (NodePool.RuntimeValidate of
// sigs.k8s.io/karpenter, with the restricted domain and well-known labels the AWS provider adds):
// karpenter.sh/nodepool, kubernetes.io/hostname, and any other label in the karpenter.sh or
// karpenter.k8s.aws domains (or their subdomains) that is not a well-known label.
func karpenterRestricted(k string) string {
	const not = "is one a Karpenter NodePool may not set: "
	switch {
	case k == "karpenter.sh/nodepool":
		return not + "Karpenter sets it on every node of the NodePool"
	case k == "kubernetes.io/hostname":
		return not + "it is set per node"
	case slices.Contains(karpenterWellKnownLabels, k):
		return ""
	}
	domain, _, _ := strings.Cut(k, "/") // the CRD's rules read a key without a prefix as a domain
	if d := inDomain(domain, karpenterRestrictedDomains...); d != "" {
		return not + fmt.Sprintf("Karpenter reserves the %s domain, save its well-known labels", d)
	}
	return ""
}

// EksctlName is a group's name as an eksctl entry (managedNodeGroups or nodeGroups) takes it: eksctl names the entry's CloudFormation
// stack eksctl-<cluster>-nodegroup-<name>, and a stack name holds only letters, digits and hyphens (eksctl's own
// rule for nodeGroups names, pkg/apis/eksctl.io/v1alpha5 validation.go IsInvalidNameArg: [^a-zA-Z0-9\-]), so
// every other character becomes a hyphen.
func EksctlName(name string) string {
	b := []byte(name)
	for i, c := range b {
		if (c < 'a' || c > 'z') && (c < 'A' || c > 'Z') && (c < '0' || c > '9') && c != '-' {
			b[i] = '-'
		}
	}
	return string(b)
}

// KarpenterName is the name of the Karpenter NodePool of a group: the group's name when it is a valid
// Kubernetes object name (a lowercase RFC 1123 subdomain), else the name lower-cased with every character
// but a-z, 0-9 and '-' written as '-' and the ends trimmed ("Web_Pool" → "web-pool"). EKS allows names a
// NodePool does not, so the group keeps its name and only the NodePool differs.
func KarpenterName(name string) string {
	if len(content.IsDNS1123Subdomain(name)) == 0 {
		return name
	}
	b := []byte(strings.ToLower(name))
	for i, c := range b {
		if (c < 'a' || c > 'z') && (c < '0' || c > '9') {
			b[i] = '-'
		}
	}
	out := strings.Trim(string(b), "-")
	if out == "" {
		return "nodegroup"
	}
	return out
}

// fullEvictionHard is the planned hard-eviction thresholds with the kubelet's other default signals: a partial
// evictionHard map leaves the signals it does not name unset (no eviction on them), wherever it is written.
func fullEvictionHard(planned map[string]string) map[string]string {
	ev := maps.Clone(kubeletEvictionDefaults)
	maps.Copy(ev, planned)
	return ev
}

// kubeletEvictionDefaults are the kubelet's default hard-eviction signals besides those the overhead model
// sets; a partial evictionHard leaves the others unset, so every signal is listed.
var kubeletEvictionDefaults = map[string]string{"nodefs.inodesFree": "5%", "imagefs.available": "15%", "imagefs.inodesFree": "5%"}

// quantities spells a reservation as the kubelet's resource map ("cpu": "70m"), leaving out zero amounts.
func quantities(l resource.List) map[string]string {
	m := map[string]string{}
	if l.CPUMillicores > 0 {
		m["cpu"] = resource.QuantityCPU(l.CPUMillicores)
	}
	if l.MemoryBytes > 0 {
		m["memory"] = resource.QuantityBytes(l.MemoryBytes)
	}
	if l.EphemeralStorageBytes > 0 {
		m["ephemeral-storage"] = resource.QuantityBytes(l.EphemeralStorageBytes)
	}
	return m
}

// kubeletFragment is the KubeletConfiguration kubefit renders: only the fields it sets. The typed
// kubeletv1beta1.KubeletConfiguration marshals its other fields as zero values (syncFrequency: 0s,
// containerRuntimeEndpoint: "", …), which nodeadm would merge over its own configuration and a --config file
// would hand the kubelet; every field here is one of that type's (TestKubeletConfigOnlyPlannedFields decodes
// it strictly into it).
type kubeletFragment struct {
	APIVersion     string            `json:"apiVersion"`
	Kind           string            `json:"kind"`
	MaxPods        int32             `json:"maxPods"`
	KubeReserved   map[string]string `json:"kubeReserved,omitempty"`
	SystemReserved map[string]string `json:"systemReserved,omitempty"`
	EvictionHard   map[string]string `json:"evictionHard,omitempty"`
}

// kubeletConfig renders the group's reservations, eviction thresholds and max pods as a KubeletConfiguration.
func kubeletConfig(r *Result) (string, error) {
	o := r.Pool.Overhead
	ev := fullEvictionHard(o.EvictionHard)
	if o.MaxPods > 1<<31-1 {
		return "", fmt.Errorf("max pods %d does not fit a kubelet configuration", o.MaxPods)
	}
	b, err := yaml.Marshal(kubeletFragment{APIVersion: "kubelet.config.k8s.io/v1beta1", Kind: "KubeletConfiguration",
		MaxPods: int32(o.MaxPods), KubeReserved: quantities(o.KubeReserved), SystemReserved: quantities(o.SystemReserved),
		EvictionHard: ev})
	return string(b), err
}
