package nodegroup

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	ekstypes "github.com/aws/aws-sdk-go-v2/service/eks/types"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/overhead"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/sizing"
)

// The consumers' rules, as their sources state them. Each checker returns the rules an output breaks.
//
//   - aws_eks_node_group: hashicorp/terraform-provider-aws internal/service/eks/node_group.go at 012e0a32 (the
//     schema of provider v5.100.0): taint MaxItems 50, key 1–63, value 0–63, effect, ami_type and capacity_type
//     in the SDK's enums; scaling_config desired ≥ 0, max ≥ 1, min ≥ 0. The EKS API (CreateNodegroup): label keys
//     and values 1–63, at most 20 instance types, min ≤ desired ≤ max.
//   - azurerm_kubernetes_cluster_node_pool: hashicorp/terraform-provider-azurerm
//     internal/services/containers/kubernetes_cluster_node_pool_resource.go at 69697b7f: node_count, min_count,
//     max_count IntBetween(0, 1000); priority Regular|Spot; eviction_policy Delete|Deallocate and spot_max_price
//     (−1 or ≥ 0.00001) only on Spot pools; min/max only with auto-scaling; os_type Linux|Windows; os_sku in its
//     list, the Windows values for Windows pools; temporary_name_for_rotation ^[a-z][a-z0-9]{0,11}$ (the pool's
//     OS limits: Windows names at most 6). AKS (azure-aks-docs at fb060abe): no labels under kubernetes.azure.com/
//     or kubernetes.io/, save the kubernetes.azure.com/scalesetpriority=spot label AKS puts on a Spot pool, which
//     node_labels must carry (azurerm reads it back; its docs say to add it); taints key=value:Effect; max pods
//     10–250.
//   - google_container_node_pool: hashicorp/terraform-provider-google google/services/container at e03b7622:
//     counts ≥ 0, location_policy BALANCED|ANY, disk_size_gb ≥ 10, taint key, value and effect required, effect
//     NO_SCHEDULE|PREFER_NO_SCHEDULE|NO_EXECUTE; node_count never beside autoscaling (the provider's own
//     guidance); max_pods_per_node 8–256 (GKE). guest_accelerator (node_config.go at 00b984c6): type and count
//     Required; gpu_driver_installation_config's gpu_driver_version in GPU_DRIVER_VERSION_UNSPECIFIED,
//     INSTALLATION_DISABLED, DEFAULT, LATEST; gpu_sharing_config's gpu_sharing_strategy and
//     max_shared_clients_per_gpu Required, the strategy one of the GKE API's GPUSharingConfig values (TIME_SHARING,
//     MPS); GKE: the accelerator type is the machine series' and its count the machine type's GPUs (cluster-toolkit
//     gke-node-pool gpu_definition.tf), clients 2–48, a partition size among those GKE's partitioner makes on the
//     GPU (container-engine-accelerators partition_gpu.go).
//   - terraform-aws-modules/eks v21.19.0 (bef29c4d), Azure/aks 11.5.0 (e29456ed) and
//     terraform-google-modules/kubernetes-engine v44.2.0 (64321800): the input attributes below; Azure/aks's pool
//     name of lower-case letters and digits that, with the 4 random characters create_before_destroy appends,
//     azurerm takes (at most 12; a Windows pool at most 6), node_count ≥ 1 without auto-scaling and none beside it
//     (the module ignores changes only to name and orchestrator_version, so one would undo the autoscaler);
//     kubernetes-engine's node_pools values all strings.

var (
	effectsEKS   = []string{"NO_SCHEDULE", "NO_EXECUTE", "PREFER_NO_SCHEDULE"}
	aksOSSKUs    = []string{"AzureLinux", "AzureLinux3", "Ubuntu", "Ubuntu2204", "Ubuntu2404", "Windows2019", "Windows2022"}
	aksTaintRule = regexp.MustCompile(`^[^=:\s]+=[^:\s]+:(NoSchedule|PreferNoSchedule|NoExecute)$`)
	aksPoolRule  = regexp.MustCompile(`^[a-z][a-z0-9]{0,11}$`)
	// gkeModuleKeys are node_pools keys kubernetes-engine's cluster.tf looks up.
	gkeModuleKeys = []string{"name", "machine_type", "node_locations", "autoscaling", "total_min_count", "total_max_count", "location_policy",
		"initial_node_count", "disk_size_gb", "disk_type", "spot", "max_pods_per_node", "max_surge", "max_unavailable",
		"accelerator_type", "accelerator_count", "gpu_driver_version", "gpu_partition_size", "gpu_sharing_strategy", "max_shared_clients_per_gpu"}
	gkeDriverVersions = []string{"GPU_DRIVER_VERSION_UNSPECIFIED", "INSTALLATION_DISABLED", "DEFAULT", "LATEST"}
	// gkeMIG are the partition sizes GKE's partitioner makes per accelerator (partition_gpu.go at 09e2ab1a).
	gkeMIG = map[string][]string{"nvidia-tesla-a100": {"1g.5gb", "2g.10gb", "3g.20gb", "4g.20gb", "7g.40gb"},
		"nvidia-a100-80gb": {"1g.10gb", "2g.20gb", "3g.40gb", "4g.40gb", "7g.80gb"},
		"nvidia-h100-80gb": {"1g.10gb", "1g.20gb", "2g.20gb", "3g.40gb", "4g.40gb", "7g.80gb"}, "nvidia-rtx-pro-6000": {"1g.24gb", "2g.48gb", "4g.96gb"}}
)

func eksRules(e *EKSNodeGroup) []string {
	var bad []string
	amis := ekstypes.AMITypesAl2X8664.Values()
	if !slices.Contains(amis, ekstypes.AMITypes(e.AMIType)) {
		bad = append(bad, "ami_type "+e.AMIType)
	}
	if !slices.Contains(ekstypes.CapacityTypesSpot.Values(), ekstypes.CapacityTypes(e.CapacityType)) {
		bad = append(bad, "capacity_type "+e.CapacityType)
	}
	if len(e.Taints) > 50 || len(e.InstanceTypes) > 20 || len(e.InstanceTypes) == 0 {
		bad = append(bad, "taint or instance type count")
	}
	for _, t := range e.Taints {
		if len(t.Key) < 1 || len(t.Key) > 63 || len(t.Value) > 63 || !slices.Contains(effectsEKS, t.Effect) {
			bad = append(bad, "taint "+t.Key)
		}
	}
	for k, v := range e.Labels {
		if len(k) < 1 || len(k) > 63 || len(v) < 1 || len(v) > 63 {
			bad = append(bad, "label "+k)
		}
	}
	if e.DiskSize < 0 {
		bad = append(bad, "disk_size")
	}
	if e.MinSize < 0 || e.MaxSize < 1 || e.DesiredSize < e.MinSize || e.DesiredSize > e.MaxSize {
		bad = append(bad, fmt.Sprintf("scaling %d ≤ %d ≤ %d", e.MinSize, e.DesiredSize, e.MaxSize))
	}
	return bad
}

func aksRules(a *AKSNodePool) []string {
	var bad []string
	in := func(n int) bool { return n >= 0 && n <= 1000 }
	if !in(a.NodeCount) {
		bad = append(bad, "node_count")
	}
	if a.AutoScalingEnabled != (a.MinCount != nil && a.MaxCount != nil) || a.MinCount != nil && (!in(*a.MinCount) || !in(*a.MaxCount) || *a.MinCount > *a.MaxCount) {
		bad = append(bad, "min_count/max_count")
	}
	switch a.Priority {
	case "Regular":
		if a.EvictionPolicy != "" || a.SpotMaxPrice != nil {
			bad = append(bad, "spot settings on a Regular pool")
		}
	case "Spot":
		if a.EvictionPolicy != "Delete" && a.EvictionPolicy != "Deallocate" || a.SpotMaxPrice == nil || *a.SpotMaxPrice != -1 && *a.SpotMaxPrice < 0.00001 ||
			!slices.Contains(a.NodeTaints, "kubernetes.azure.com/scalesetpriority=spot:NoSchedule") {
			bad = append(bad, "spot settings")
		}
	default:
		bad = append(bad, "priority "+a.Priority)
	}
	if a.OSType != "Linux" && a.OSType != "Windows" || a.OSSKU != "" && !slices.Contains(aksOSSKUs, a.OSSKU) ||
		a.OSType == "Windows" && !strings.HasPrefix(a.OSSKU, "Windows") || a.OSType == "Linux" && strings.HasPrefix(a.OSSKU, "Windows") {
		bad = append(bad, "os_type/os_sku "+a.OSType+"/"+a.OSSKU)
	}
	for _, t := range a.NodeTaints {
		if !aksTaintRule.MatchString(t) {
			bad = append(bad, "taint "+t)
		}
	}
	for k, v := range a.NodeLabels {
		if k == "kubernetes.azure.com/scalesetpriority" && v == "spot" && a.Priority == "Spot" {
			continue
		}
		if strings.HasPrefix(k, "kubernetes.azure.com/") || strings.HasPrefix(k, "kubernetes.io/") {
			bad = append(bad, "label "+k)
		}
	}
	if a.Priority == "Spot" && a.NodeLabels["kubernetes.azure.com/scalesetpriority"] != "spot" {
		bad = append(bad, "spot pool without the spot label (drift)")
	}
	if a.OSDiskSizeGB < 1 || a.VMSize == "" {
		bad = append(bad, "disk or vm_size")
	}
	if a.MaxPods < 10 || a.MaxPods > 250 {
		bad = append(bad, fmt.Sprintf("max_pods %d", a.MaxPods))
	}
	if !aksPoolRule.MatchString(a.TemporaryNameForRotation) || a.OSType == "Windows" && len(a.TemporaryNameForRotation) > 6 {
		bad = append(bad, "temporary_name_for_rotation "+a.TemporaryNameForRotation)
	}
	return bad
}

func gkeRules(g *GKENodePool) []string {
	var bad []string
	as := g.Autoscaling
	if as.TotalMinNodeCount < 0 || as.TotalMaxNodeCount < as.TotalMinNodeCount || as.TotalMaxNodeCount < 1 || g.InitialNodeCount < 0 {
		bad = append(bad, "counts")
	}
	if nz := max(1, len(g.NodeLocations)); g.InitialNodeCount*nz > as.TotalMaxNodeCount && len(g.NodeLocations) > 0 {
		bad = append(bad, "initial count above the maximum")
	}
	if as.LocationPolicy != "BALANCED" && as.LocationPolicy != "ANY" || g.DiskSizeGB < 10 || g.MachineType == "" {
		bad = append(bad, "location_policy, disk or machine type")
	}
	for _, t := range g.Taints {
		if t.Key == "" || t.Value == "" || !slices.Contains(effectsEKS, t.Effect) {
			bad = append(bad, "taint "+t.Key)
		}
	}
	if mp := g.MaxPodsPerNode; mp < 8 || mp > 256 {
		bad = append(bad, fmt.Sprintf("max_pods_per_node %d", mp))
	}
	return append(bad, gkeAcceleratorRules(g)...)
}

// gkeAcceleratorRules holds a GKE pool's guest_accelerator against google_container_node_pool's schema and GKE: a
// GPU machine type (one catalog.InstanceType.GKEAccelerator names) must carry it, with the driver installed.
func gkeAcceleratorRules(g *GKENodePool) []string {
	t, err := catalog.Lookup(catalog.GCP, g.MachineType)
	if err != nil {
		return []string{"machine type " + g.MachineType}
	}
	a := g.GuestAccelerator
	if t.GPUCount == 0 {
		if a != nil {
			return []string{"guest_accelerator on a machine type without GPUs"}
		}
		return nil
	}
	var bad []string
	switch {
	case a == nil:
		return []string{"no guest_accelerator on a GPU machine type"}
	case a.Type == "" || a.Count != t.GPUCount:
		bad = append(bad, fmt.Sprintf("guest_accelerator %s × %d", a.Type, a.Count))
	case a.GPUDriverVersion == "" || !slices.Contains(gkeDriverVersions, a.GPUDriverVersion) || a.GPUDriverVersion == "INSTALLATION_DISABLED" || a.GPUDriverVersion == "GPU_DRIVER_VERSION_UNSPECIFIED":
		bad = append(bad, "gpu_driver_version "+a.GPUDriverVersion)
	case a.SharingStrategy != "" && (a.SharingStrategy != "TIME_SHARING" && a.SharingStrategy != "MPS" || a.MaxSharedClientsPerGPU < 2 || a.MaxSharedClientsPerGPU > 48),
		a.SharingStrategy == "" && a.MaxSharedClientsPerGPU != 0:
		bad = append(bad, fmt.Sprintf("gpu_sharing_config %s/%d", a.SharingStrategy, a.MaxSharedClientsPerGPU))
	case a.GPUPartitionSize != "" && !slices.Contains(gkeMIG[a.Type], a.GPUPartitionSize):
		bad = append(bad, "gpu_partition_size "+a.GPUPartitionSize)
	}
	for k := range g.Labels {
		if strings.HasPrefix(k, "cloud.google.com/") {
			bad = append(bad, "GKE's own label "+k)
		}
	}
	return bad
}

func moduleRules(out Rendered, windows bool) []string {
	var bad []string
	if m := out.EKSModule; m != nil {
		lt := out.EKSLaunchTemplate
		if lt == nil && (m.UseCustomLaunchTemplate || m.DiskSize < 1 || m.BlockDeviceMappings != nil) ||
			lt != nil && (!m.UseCustomLaunchTemplate || m.DiskSize != 0 || len(m.BlockDeviceMappings) != 1 || (m.BootstrapExtraArgs == "") == (m.CloudinitPreNodeadm == nil)) ||
			len(m.Taints) != len(out.EKS.Taints) {
			bad = append(bad, "eks module disk, launch template or taints")
		}
		if lt != nil && out.EKS.DiskSize != 0 {
			bad = append(bad, "disk_size beside a launch template")
		}
		for _, t := range m.Taints {
			if !slices.Contains(effectsEKS, t.Effect) {
				bad = append(bad, "eks module taint effect "+t.Effect)
			}
		}
	}
	if m := out.AKSModule; m != nil {
		// The name azurerm gets: the module's, with 4 random characters under create_before_destroy.
		name := m.Name
		if m.CreateBeforeDestroy {
			name += "a1b2"
		}
		if !aksPoolRule.MatchString(name) || windows && len(name) > 6 {
			bad = append(bad, "aks module name "+name)
		}
		if !m.AutoScalingEnabled && (m.NodeCount == nil || *m.NodeCount < 1) || m.AutoScalingEnabled && m.NodeCount != nil {
			bad = append(bad, "aks module node_count")
		}
		if m.TemporaryNameForRotation == "" || m.TemporaryNameForRotation == m.Name {
			bad = append(bad, "aks module temporary_name_for_rotation")
		}
	}
	if m := out.GKEModule; m != nil {
		for k, v := range m.Pool {
			if !slices.Contains(gkeModuleKeys, k) {
				bad = append(bad, "gke module key "+k)
			}
			if strings.HasSuffix(k, "_count") || k == "disk_size_gb" || k == "max_pods_per_node" {
				if _, err := strconv.Atoi(v); err != nil {
					bad = append(bad, "gke module number "+k+"="+v)
				}
			}
		}
		if m.Pool["autoscaling"] != "true" || m.Pool["name"] == "" {
			bad = append(bad, "gke module autoscaling or name")
		}
		// The module renders guest_accelerator only with accelerator_count > 0, and gpu_sharing_config only with a
		// gpu_sharing_strategy (its max_shared_clients_per_gpu defaults to 2).
		if a := out.GKE.GuestAccelerator; a != nil && (m.Pool["accelerator_type"] != a.Type || m.Pool["accelerator_count"] != strconv.Itoa(a.Count) ||
			m.Pool["gpu_driver_version"] != a.GPUDriverVersion || m.Pool["gpu_partition_size"] != a.GPUPartitionSize ||
			m.Pool["gpu_sharing_strategy"] != a.SharingStrategy || a.SharingStrategy != "" && m.Pool["max_shared_clients_per_gpu"] != strconv.Itoa(a.MaxSharedClientsPerGPU)) ||
			a == nil && m.Pool["accelerator_count"] != "" {
			bad = append(bad, "gke module accelerator")
		}
	}
	return bad
}

// TestConsumersAcceptEveryGroup renders a fixture of groups (x86, Arm, GPU, Neuron, Bottlerocket, Windows, Spot,
// mixed types, taints with and without values, long labels, regional and zonal pools) and holds every output
// against its consumers' rules; what a consumer refuses, kubefit refuses first (TestEKSInputRules, TestAKSRules,
// TestGKEPool).
func TestConsumersAcceptEveryGroup(t *testing.T) {
	p := sizing.NewPlanner(sizing.EmbeddedCatalog())
	ctx := context.Background()
	long := "team.example.com/" + strings.Repeat("x", 40)
	type group struct {
		name    string
		cloud   catalog.Cloud
		types   []string
		profile overhead.Profile
		zones   []string
		spot    bool
		taints  []fit.Taint
		labels  map[string]string
		maxPods int64
		sharing sizing.GPUSharing
	}
	taints := []fit.Taint{{Key: "dedicated", Value: "web", Effect: fit.EffectNoSchedule}, {Key: "dedicated", Value: "web", Effect: fit.EffectNoExecute}}
	groups := []group{
		{name: "x86", cloud: catalog.AWS, types: []string{"m5.xlarge"}, zones: []string{"eu-west-1a", "eu-west-1b"}},
		{name: "arm", cloud: catalog.AWS, types: []string{"m6g.xlarge", "c6g.xlarge"}, spot: true, labels: map[string]string{long: "v"}},
		{name: "gpu", cloud: catalog.AWS, types: []string{"g5.xlarge"}, taints: []fit.Taint{{Key: "nvidia.com/gpu", Effect: fit.EffectNoSchedule}}},
		{name: "neuron", cloud: catalog.AWS, types: []string{"inf2.xlarge"}},
		{name: "bottlerocket", cloud: catalog.AWS, types: []string{"m5.large", "m5a.large"}, profile: overhead.EKSBottlerocket, taints: taints, maxPods: 50},
		{name: "Windows_Pool", cloud: catalog.AWS, types: []string{"m5.xlarge"}, profile: overhead.EKSWindows},
		{name: "user", cloud: catalog.Azure, types: []string{"Standard_D4s_v5"}, zones: []string{"1", "2", "3"}, taints: taints},
		{name: "spotpool", cloud: catalog.Azure, types: []string{"Standard_D4s_v5"}, spot: true},
		{name: "win", cloud: catalog.Azure, types: []string{"Standard_D4s_v5"}, profile: overhead.AKSWindows, labels: map[string]string{long: "v"}},
		{name: "WindowsApi", cloud: catalog.Azure, types: []string{"Standard_D4s_v5"}, profile: overhead.AKSWindows, maxPods: 30},
		{name: "spot-batch-pool", cloud: catalog.Azure, types: []string{"Standard_D4s_v5"}, spot: true, maxPods: 250, zones: []string{"1"}},
		{name: "regional", cloud: catalog.GCP, types: []string{"n2-standard-4"}, zones: []string{"us-central1-a", "us-central1-b", "us-central1-c"}, spot: true, maxPods: 64},
		{name: "zonal", cloud: catalog.GCP, types: []string{"e2-standard-4"}, zones: []string{"us-central1-a"}, taints: taints[:1]},
		{name: "arm-gke", cloud: catalog.GCP, types: []string{"t2a-standard-4"}},
		{name: "gke-l4", cloud: catalog.GCP, types: []string{"g2-standard-24"}},
		{name: "gke-l4-shared", cloud: catalog.GCP, types: []string{"g2-standard-8"}, sharing: sizing.GPUSharing{Strategy: sizing.GKETimeSharing, MaxSharedClients: 4}},
		{name: "gke-a100-mig", cloud: catalog.GCP, types: []string{"a2-highgpu-1g"}, sharing: sizing.GPUSharing{PartitionSize: "1g.5gb"}},
		{name: "gke-h100-mps", cloud: catalog.GCP, types: []string{"a3-highgpu-2g"}, sharing: sizing.GPUSharing{Strategy: sizing.GKEMPS, MaxSharedClients: 8}},
		{name: "gke-h100-mega", cloud: catalog.GCP, types: []string{"a3-megagpu-8g"}},
		{name: "gke-rtx", cloud: catalog.GCP, types: []string{"g4-standard-96"}, sharing: sizing.GPUSharing{PartitionSize: "2g.48gb", Strategy: sizing.GKETimeSharing, MaxSharedClients: 2}},
	}
	for _, g := range groups {
		for _, fixed := range []bool{false, true} {
			req := Request{Pool: sizing.Pool{Name: g.name, Cloud: g.cloud, InstanceTypes: g.types, Zones: g.zones, Taints: g.taints, Labels: g.labels},
				Workloads: []sizing.Workload{{Name: "app", MinReplicas: intp(3), MaxReplicas: intp(30), Requests: fit.Resources{CPUMillicores: 500, MemoryBytes: 1 << 30},
					Tolerations: []fit.Toleration{{Operator: fit.OperatorExists}}}}}
			req.Pool.Overhead.Profile, req.Pool.Overhead.MaxPods = g.profile, g.maxPods
			req.GPUSharing = g.sharing
			if g.spot {
				req.CapacityType = Spot
			}
			if fixed {
				req.MinSize, req.MaxSize = intp(6), intp(6)
			}
			r, err := Size(ctx, p, req)
			if err != nil {
				t.Fatalf("%s: %v", g.name, err)
			}
			out, err := Render(req, r)
			if err != nil {
				t.Fatalf("%s: %v", g.name, err)
			}
			var bad []string
			switch g.cloud {
			case catalog.AWS:
				bad = eksRules(out.EKS)
			case catalog.Azure:
				bad = aksRules(out.AKS)
			case catalog.GCP:
				bad = gkeRules(out.GKE)
			}
			bad = append(bad, moduleRules(out, isWindows(r.Pool.Overhead.Profile))...)
			if len(bad) > 0 {
				t.Errorf("%s (fixed %v) breaks its consumers' rules: %v", g.name, fixed, bad)
			}
		}
	}
}
