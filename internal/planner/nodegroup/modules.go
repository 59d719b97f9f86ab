package nodegroup

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
)

// The community modules most users call instead of the bare resources, each in the module's own input shape.
// Read from: terraform-aws-modules/terraform-aws-eks v21.19.0 (bef29c4d; variables.tf eks_managed_node_groups,
// modules/eks-managed-node-group), Azure/terraform-azurerm-aks 11.5.0 (e29456ed; variables.tf node_pools,
// extra_node_pool.tf) and terraform-google-modules/terraform-google-kubernetes-engine v44.2.0 (64321800;
// variables.tf node_pools, node_pools_labels, node_pools_taints; cluster.tf google_container_node_pool.pools).

// EKSModuleNodeGroup is one value of terraform-aws-modules/eks's eks_managed_node_groups. Taints is a map keyed
// by a name of the user's choosing (the module's shape); DiskSize takes effect only with the module's custom
// launch template off, so UseCustomLaunchTemplate is false.
//
// A group with custom kubelet settings (EKSLaunchTemplate) keeps the module's custom launch template on and
// passes the settings through it instead: BlockDeviceMappings sizes the volume, and CloudinitPreNodeadm (AL2023,
// a NodeConfig part) or BootstrapExtraArgs (Bottlerocket TOML) carry the settings.
type EKSModuleNodeGroup struct {
	BlockDeviceMappings map[string]BlockDevice
	CloudinitPreNodeadm []CloudinitPart
	BootstrapExtraArgs  string

	Name                          string
	InstanceTypes                 []string
	MinSize, MaxSize, DesiredSize int
	AMIType, CapacityType         string
	DiskSize                      int
	UseCustomLaunchTemplate       bool
	Labels                        map[string]string
	Taints                        map[string]Taint
	// UpdateConfig is always set: the module's own default is a max unavailable of 33 % (its node_groups.tf
	// default_update_config), not EKS's 1 node, and the node_upgrade disruption is planned with EKS's or the group's.
	UpdateConfig EKSUpdateConfig
}

// BlockDevice is one of the module's block_device_mappings.
type BlockDevice struct {
	DeviceName, VolumeType string
	VolumeSize             int
}

// CloudinitPart is one of the module's cloudinit_pre_nodeadm parts.
type CloudinitPart struct{ Content, ContentType string }

// AKSModuleNodePool is one value of Azure/aks's node_pools.
//
// Name: with create_before_destroy (the module's default) the module appends 4 random characters to the name
// (extra_node_pool.tf), and azurerm takes pool names of at most 12 lower-case letters and digits, so the name has
// at most 8. AKS takes Windows pool names of at most 6 characters, which would leave 2: Windows pools set
// CreateBeforeDestroy false instead, so the module uses the name as it is (up to 6 characters) and replaces such
// a pool by destroying it first.
//
// NodeCount is the module's node_count, nil with auto-scaling (it shadows AKSNodePool.NodeCount): the module
// ignores changes only to name and orchestrator_version, so a node_count beside auto_scaling_enabled would undo
// every move of the cluster autoscaler on the next apply, and a module caller cannot add ignore_changes; azurerm
// starts an auto-scaled pool without node_count at min_count. Without auto-scaling it is set (the module
// requires node_count ≥ 1 then).
type AKSModuleNodePool struct {
	Name string
	AKSNodePool
	NodeCount           *int
	CreateBeforeDestroy bool
}

// aksModuleSuffix is the number of random characters Azure/aks appends to a create_before_destroy pool's name.
const aksModuleSuffix = 4

// GKEModuleNodePool is one element of terraform-google-modules/kubernetes-engine's node_pools (a flat map whose
// values are all strings, as its list(map(any)) type needs), with the pool's labels and taints for the module's
// node_pools_labels and node_pools_taints maps keyed by the pool's name.
type GKEModuleNodePool struct {
	Pool   map[string]string
	Labels map[string]string
	Taints []Taint
}

func eksModuleNodeGroup(req Request, e *EKSNodeGroup, lt *EKSLaunchTemplate) *EKSModuleNodeGroup {
	m := &EKSModuleNodeGroup{Name: req.Pool.Name, InstanceTypes: e.InstanceTypes, MinSize: e.MinSize, MaxSize: e.MaxSize, DesiredSize: e.DesiredSize,
		AMIType: e.AMIType, CapacityType: e.CapacityType, DiskSize: e.DiskSize, Labels: e.Labels, Taints: map[string]Taint{}}
	if e.UpdateConfig != nil {
		m.UpdateConfig = *e.UpdateConfig
	} else {
		one := eksDefaultMaxUnavailable
		m.UpdateConfig.MaxUnavailable = &one
	}
	if lt != nil {
		m.UseCustomLaunchTemplate, m.DiskSize = true, 0
		m.BlockDeviceMappings = map[string]BlockDevice{strings.TrimPrefix(lt.DeviceName, "/dev/"): {DeviceName: lt.DeviceName, VolumeType: lt.VolumeType, VolumeSize: lt.VolumeSize}}
		if lt.UserDataFormat == "bottlerocket" {
			m.BootstrapExtraArgs = lt.Settings
		} else {
			m.CloudinitPreNodeadm = []CloudinitPart{{Content: lt.Settings, ContentType: "application/node.eks.aws"}}
		}
	}
	keys := map[string]int{}
	for _, t := range e.Taints {
		keys[t.Key]++
	}
	for _, t := range e.Taints {
		name := t.Key
		if keys[t.Key] > 1 {
			name = t.Key + ":" + t.Effect
		}
		m.Taints[name] = t
	}
	return m
}

// aksModuleName is the node group's name as Azure/aks takes it: lower-case letters and digits, starting with a
// letter (azurerm's pool-name rule), at most 8 characters (12 less the module's random suffix), or 6 for Windows
// pools (AKS's limit; they go without the suffix).
func aksModuleName(name string, windows bool) string {
	s := aksPoolName(name)
	limit := aksPoolNameMax - aksModuleSuffix
	if windows {
		limit = aksWindowsPoolNameMax
	}
	return s[:min(len(s), limit)]
}

// WarnModuleName: the group's name is not one a community module takes, so its module output carries another.
const WarnModuleName = "nodegroup.module-name"

func aksModuleNodePool(req Request, r *Result, a *AKSNodePool) (*AKSModuleNodePool, []field.Warning) {
	windows := isWindows(r.Pool.Overhead.Profile)
	name := aksModuleName(req.Pool.Name, windows)
	m := &AKSModuleNodePool{Name: name, AKSNodePool: *a, CreateBeforeDestroy: !windows}
	if !a.AutoScalingEnabled {
		n := a.NodeCount
		m.NodeCount = &n
	}
	if name == req.Pool.Name {
		return m, nil
	}
	why := "of at most 8 characters (it appends 4 random ones, and azurerm takes at most 12)"
	if windows {
		why = "of at most 6 characters for a Windows pool (AKS's limit; kubefit sets create_before_destroy = false for it, so the module appends no random characters)"
	}
	return m, []field.Warning{{Code: WarnModuleName, Path: field.NewPath("Name"), Message: fmt.Sprintf(
		"aks_module_node_pool names node group %s %s: Azure/aks takes pool names of lower-case letters and digits, starting with a letter, %s",
		field.Quote(req.Pool.Name), field.Quote(name), why)}}
}

func gkeModuleNodePool(req Request, r *Result, g *GKENodePool) *GKEModuleNodePool {
	pool := map[string]string{
		"name": req.Pool.Name, "machine_type": g.MachineType, "autoscaling": "true",
		"total_min_count": strconv.Itoa(g.Autoscaling.TotalMinNodeCount), "total_max_count": strconv.Itoa(g.Autoscaling.TotalMaxNodeCount),
		"location_policy": g.Autoscaling.LocationPolicy, "initial_node_count": strconv.Itoa(g.InitialNodeCount),
		"disk_size_gb": strconv.Itoa(g.DiskSizeGB), "spot": strconv.FormatBool(g.Spot),
		"max_pods_per_node": strconv.FormatInt(g.MaxPodsPerNode, 10),
	}
	if len(g.NodeLocations) > 0 {
		pool["node_locations"] = strings.Join(g.NodeLocations, ",")
	}
	if t := gkeModuleDiskType(r.Pool.Instance, g.DiskType); t != "" {
		pool["disk_type"] = t
	}
	if a := g.GuestAccelerator; a != nil {
		// kubernetes-engine's cluster.tf: a guest_accelerator block when accelerator_count > 0, with
		// gpu_partition_size, gpu_driver_installation_config (gpu_driver_version) and gpu_sharing_config
		// (gpu_sharing_strategy, max_shared_clients_per_gpu) from the keys of the same names.
		pool["accelerator_type"], pool["accelerator_count"] = a.Type, strconv.Itoa(a.Count)
		pool["gpu_driver_version"] = a.GPUDriverVersion
		if a.GPUPartitionSize != "" {
			pool["gpu_partition_size"] = a.GPUPartitionSize
		}
		if a.SharingStrategy != "" {
			pool["gpu_sharing_strategy"], pool["max_shared_clients_per_gpu"] = a.SharingStrategy, strconv.Itoa(a.MaxSharedClientsPerGPU)
		}
	}
	if u := g.UpgradeSettings; u != nil {
		// kubernetes-engine's cluster.tf: upgrade_settings max_surge = lookup(each.value, "max_surge", 1) and
		// max_unavailable = lookup(each.value, "max_unavailable", 0) under the SURGE strategy.
		pool["max_surge"], pool["max_unavailable"] = strconv.Itoa(u.MaxSurge), strconv.Itoa(u.MaxUnavailable)
	}
	return &GKEModuleNodePool{Pool: pool, Labels: g.Labels, Taints: g.Taints}
}
