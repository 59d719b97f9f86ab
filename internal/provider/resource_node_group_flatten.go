package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/nodegroup"
	plres "github.com/kubefit/terraform-provider-kubefit/internal/planner/resource"
)

// The node group's computed values: the planner's result and renderings as state.

// extendedValue is the extended resources of a capacity envelope: GPUs as nvidia.com/gpu.
func extendedValue(gpu int64) types.Map {
	m := map[string]attr.Value{}
	if gpu > 0 {
		m["nvidia.com/gpu"] = types.Int64Value(gpu)
	}
	return types.MapValueMust(types.Int64Type, m)
}

func optFloat(p *float64) types.Float64 {
	if p == nil {
		return types.Float64Null()
	}
	return types.Float64Value(*p)
}

func int64Ptr(p *int) types.Int64 {
	if p == nil {
		return types.Int64Null()
	}
	return types.Int64Value(int64(*p))
}

func stringList(xs []string) types.List {
	vals := make([]attr.Value, 0, len(xs))
	for _, x := range xs {
		vals = append(vals, types.StringValue(x))
	}
	return types.ListValueMust(types.StringType, vals)
}

func stringMapValue(m map[string]string) types.Map {
	vals := map[string]attr.Value{}
	for k, v := range m {
		vals[k] = types.StringValue(v)
	}
	return types.MapValueMust(types.StringType, vals)
}

func taintList(ts []nodegroup.Taint) types.List {
	vals := make([]attr.Value, 0, len(ts))
	for _, t := range ts {
		vals = append(vals, types.ObjectValueMust(taintAttrTypes, map[string]attr.Value{
			"key": types.StringValue(t.Key), "value": types.StringValue(t.Value), "effect": types.StringValue(t.Effect)}))
	}
	return types.ListValueMust(types.ObjectType{AttrTypes: taintAttrTypes}, vals)
}

func signedResources(l plres.List) types.Object { return fitResources(l) }

// groupWorkloadsValue is capacity.workloads: the group's own workloads at peak.
func groupWorkloadsValue(ws []nodegroup.CapacityWorkload) types.List {
	vals := make([]attr.Value, len(ws))
	for i, w := range ws {
		vals[i] = types.ObjectValueMust(groupWorkloadAttrTypes, map[string]attr.Value{
			"name": types.StringValue(w.Name),
			"requests": types.ObjectValueMust(capacityAllocAttrTypes, map[string]attr.Value{
				"cpu_millicores": types.Int64Value(w.Requests.CPUMillicores), "memory_bytes": types.Int64Value(w.Requests.MemoryBytes),
				"ephemeral_bytes": types.Int64Value(w.Requests.EphemeralStorageBytes), "extended": extendedValue(w.Requests.GPU)}),
			"replicas": types.Int64Value(int64(w.Replicas)), "surge": types.Int64Value(int64(w.Surge)),
		})
	}
	return types.ListValueMust(types.ObjectType{AttrTypes: groupWorkloadAttrTypes}, vals)
}

func flattenNodeGroup(m *nodeGroupModel, res *nodegroup.Result, out nodegroup.Rendered, diags *diag.Diagnostics) {
	m.MinSize, m.MaxSize, m.DesiredSize = types.Int64Value(int64(res.MinSize)), types.Int64Value(int64(res.MaxSize)), types.Int64Value(int64(res.DesiredSize))
	m.MaxPods = types.Int64Value(res.MaxPods)
	m.InstanceTypePlanned = types.StringValue(res.Pool.Instance.Name)
	m.Allocatable, m.WorkloadAllocatable, m.FreeAtMax = fitResources(res.Allocatable), fitResources(res.WorkloadAllocatable), signedResources(res.FreeAtMax)
	m.OverheadEvidence = evidenceValue(res.Pool.Overhead.Evidence)
	c := res.Capacity
	m.Capacity = types.ObjectValueMust(capacityAttrTypes, map[string]attr.Value{
		"name": types.StringValue(c.Name), "max_nodes": types.Int64Value(int64(c.MaxNodes)), "zones": stringList(c.Zones),
		"max_nodes_per_zone": types.Int64Null(), "workload_pods": types.Int64Value(c.WorkloadAllocatable.Pods),
		"workload_allocatable": types.ObjectValueMust(capacityAllocAttrTypes, map[string]attr.Value{
			"cpu_millicores": types.Int64Value(c.WorkloadAllocatable.CPUMillicores), "memory_bytes": types.Int64Value(c.WorkloadAllocatable.MemoryBytes),
			"ephemeral_bytes": types.Int64Value(c.WorkloadAllocatable.EphemeralStorageBytes), "extended": extendedValue(c.WorkloadAllocatable.GPU)}),
		"failures":  types.ListValueMust(types.ObjectType{AttrTypes: groupFailureAttrTypes}, []attr.Value{}),
		"workloads": groupWorkloadsValue(c.Workloads),
	})
	m.EKSNodeGroup, m.AKSNodePool, m.GKENodePool = types.ObjectNull(eksNodeGroupAttrTypes), types.ObjectNull(aksNodePoolAttrTypes), types.ObjectNull(gkeNodePoolAttrTypes)
	if e := out.EKS; e != nil {
		m.EKSNodeGroup = types.ObjectValueMust(eksNodeGroupAttrTypes, map[string]attr.Value{
			"instance_types": stringList(e.InstanceTypes), "labels": stringMapValue(e.Labels), "taint": taintList(e.Taints),
			"scaling_config": types.ObjectValueMust(scalingAttrTypes, map[string]attr.Value{"desired_size": types.Int64Value(int64(e.DesiredSize)),
				"min_size": types.Int64Value(int64(e.MinSize)), "max_size": types.Int64Value(int64(e.MaxSize))}),
			"disk_size": optInt(int64(e.DiskSize)), "ami_type": types.StringValue(e.AMIType), "capacity_type": types.StringValue(e.CapacityType),
			"update_config": eksUpdateConfigValue(e.UpdateConfig),
		})
	}
	if a := out.AKS; a != nil {
		m.AKSNodePool = aksNodePoolValue(a)
	}
	if g := out.GKE; g != nil {
		locations := types.ListNull(types.StringType)
		if len(g.NodeLocations) > 0 {
			locations = stringList(g.NodeLocations)
		}
		m.GKENodePool = types.ObjectValueMust(gkeNodePoolAttrTypes, map[string]attr.Value{
			"initial_node_count": types.Int64Value(int64(g.InitialNodeCount)), "node_locations": locations, "max_pods_per_node": types.Int64Value(g.MaxPodsPerNode),
			"autoscaling": types.ObjectValueMust(gkeAutoscalingAttrTypes, map[string]attr.Value{
				"total_min_node_count": types.Int64Value(int64(g.Autoscaling.TotalMinNodeCount)),
				"total_max_node_count": types.Int64Value(int64(g.Autoscaling.TotalMaxNodeCount)),
				"location_policy":      types.StringValue(g.Autoscaling.LocationPolicy)}),
			"node_config": types.ObjectValueMust(gkeNodeConfigAttrTypes, map[string]attr.Value{
				"machine_type": types.StringValue(g.MachineType), "disk_size_gb": types.Int64Value(int64(g.DiskSizeGB)), "disk_type": optString(g.DiskType),
				"labels": stringMapValue(g.Labels), "taint": taintList(g.Taints), "spot": types.BoolValue(g.Spot),
				"guest_accelerator": gkeGuestAcceleratorValue(g.GuestAccelerator)}),
			"upgrade_settings": gkeUpgradeValue(g.UpgradeSettings),
		})
	}
	flattenModules(m, out)
	m.EksctlYAML, m.KarpenterYAML = types.StringNull(), types.StringNull()
	m.KarpenterNodePool = types.DynamicNull()
	if out.EksctlYAML != "" {
		m.EksctlYAML = types.StringValue(out.EksctlYAML)
	}
	if out.KarpenterNodePool != nil {
		v, err := dynamicValue(out.KarpenterNodePool, false)
		if err != nil {
			diags.AddError("Rendering Failed", err.Error())
			return
		}
		m.KarpenterNodePool, m.KarpenterYAML = types.DynamicValue(v), types.StringValue(out.KarpenterYAML)
	}
	m.KarpenterKubelet = types.DynamicNull()
	if out.KarpenterKubelet != nil {
		v, err := dynamicValue(out.KarpenterKubelet, false)
		if err != nil {
			diags.AddError("Rendering Failed", err.Error())
			return
		}
		m.KarpenterKubelet = types.DynamicValue(v)
	}
	m.KubeletConfigYAML = types.StringValue(out.KubeletConfigYAML)
	m.Report = types.StringValue(res.Plan.Report)
	m.DisruptionOut = disruptionResultsValue(res.Disruptions)
}

// flattenModules writes the community modules' shapes of the group (null for the other clouds').
func flattenModules(m *nodeGroupModel, out nodegroup.Rendered) {
	m.EKSModuleNodeGroup, m.AKSModuleNodePool, m.GKEModuleNodePool = types.ObjectNull(eksModuleAttrTypes), types.ObjectNull(aksModuleAttrTypes), types.ObjectNull(gkeModuleAttrTypes)
	m.EKSLaunchTemplate = types.ObjectNull(launchTemplateAttrTypes)
	if lt := out.EKSLaunchTemplate; lt != nil {
		m.EKSLaunchTemplate = types.ObjectValueMust(launchTemplateAttrTypes, map[string]attr.Value{
			"block_device_mappings": types.ListValueMust(types.ObjectType{AttrTypes: blockDeviceAttrTypes},
				[]attr.Value{blockDeviceValue(nodegroup.BlockDevice{DeviceName: lt.DeviceName, VolumeSize: lt.VolumeSize, VolumeType: lt.VolumeType})}),
			"user_data": types.StringValue(lt.UserData), "user_data_format": types.StringValue(lt.UserDataFormat)})
	}
	if e := out.EKSModule; e != nil {
		bdm := types.MapNull(types.ObjectType{AttrTypes: blockDeviceAttrTypes})
		if e.BlockDeviceMappings != nil {
			v := map[string]attr.Value{}
			for k, d := range e.BlockDeviceMappings {
				v[k] = blockDeviceValue(d)
			}
			bdm = types.MapValueMust(types.ObjectType{AttrTypes: blockDeviceAttrTypes}, v)
		}
		cloudinit := types.ListNull(types.ObjectType{AttrTypes: cloudinitAttrTypes})
		if e.CloudinitPreNodeadm != nil {
			var parts []attr.Value
			for _, c := range e.CloudinitPreNodeadm {
				parts = append(parts, types.ObjectValueMust(cloudinitAttrTypes, map[string]attr.Value{"content": types.StringValue(c.Content), "content_type": types.StringValue(c.ContentType)}))
			}
			cloudinit = types.ListValueMust(types.ObjectType{AttrTypes: cloudinitAttrTypes}, parts)
		}
		taints := map[string]attr.Value{}
		for k, t := range e.Taints {
			taints[k] = types.ObjectValueMust(taintAttrTypes, map[string]attr.Value{"key": types.StringValue(t.Key), "value": optString(t.Value), "effect": types.StringValue(t.Effect)})
		}
		m.EKSModuleNodeGroup = types.ObjectValueMust(eksModuleAttrTypes, map[string]attr.Value{
			"name": types.StringValue(e.Name), "instance_types": stringList(e.InstanceTypes), "min_size": types.Int64Value(int64(e.MinSize)),
			"max_size": types.Int64Value(int64(e.MaxSize)), "desired_size": types.Int64Value(int64(e.DesiredSize)), "ami_type": types.StringValue(e.AMIType),
			"capacity_type": types.StringValue(e.CapacityType), "disk_size": optInt(int64(e.DiskSize)),
			"use_custom_launch_template": types.BoolValue(e.UseCustomLaunchTemplate), "labels": stringMapValue(e.Labels),
			"taints": types.MapValueMust(types.ObjectType{AttrTypes: taintAttrTypes}, taints), "block_device_mappings": bdm,
			"cloudinit_pre_nodeadm": cloudinit, "bootstrap_extra_args": optString(e.BootstrapExtraArgs), "update_config": eksUpdateConfigValue(&e.UpdateConfig)})
	}
	if a := out.AKSModule; a != nil {
		v := aksNodePoolValue(&a.AKSNodePool).Attributes()
		v["name"], v["node_count"], v["create_before_destroy"] = types.StringValue(a.Name), int64Ptr(a.NodeCount), types.BoolValue(a.CreateBeforeDestroy)
		m.AKSModuleNodePool = types.ObjectValueMust(aksModuleAttrTypes, v)
	}
	if g := out.GKEModule; g != nil {
		m.GKEModuleNodePool = types.ObjectValueMust(gkeModuleAttrTypes, map[string]attr.Value{
			"node_pool": stringMapValue(g.Pool), "labels": stringMapValue(g.Labels), "taints": taintList(g.Taints)})
	}
}

func aksNodePoolValue(a *nodegroup.AKSNodePool) types.Object {
	return types.ObjectValueMust(aksNodePoolAttrTypes, map[string]attr.Value{
		"vm_size": types.StringValue(a.VMSize), "node_count": types.Int64Value(int64(a.NodeCount)), "auto_scaling_enabled": types.BoolValue(a.AutoScalingEnabled),
		"min_count": int64Ptr(a.MinCount), "max_count": int64Ptr(a.MaxCount), "max_pods": types.Int64Value(a.MaxPods),
		"node_labels": stringMapValue(a.NodeLabels), "node_taints": stringList(a.NodeTaints), "os_disk_size_gb": types.Int64Value(int64(a.OSDiskSizeGB)),
		"os_type": types.StringValue(a.OSType), "zones": stringList(a.Zones), "os_sku": optString(a.OSSKU),
		"priority": types.StringValue(a.Priority), "eviction_policy": optString(a.EvictionPolicy), "spot_max_price": optFloat(a.SpotMaxPrice),
		"temporary_name_for_rotation": types.StringValue(a.TemporaryNameForRotation), "upgrade_settings": aksUpgradeValue(a.UpgradeSettings),
	})
}

func blockDeviceValue(d nodegroup.BlockDevice) types.Object {
	return types.ObjectValueMust(blockDeviceAttrTypes, map[string]attr.Value{"device_name": types.StringValue(d.DeviceName),
		"ebs": types.ObjectValueMust(ebsAttrTypes, map[string]attr.Value{"volume_size": types.Int64Value(int64(d.VolumeSize)), "volume_type": types.StringValue(d.VolumeType)})})
}

func eksUpdateConfigValue(u *nodegroup.EKSUpdateConfig) types.Object {
	if u == nil {
		return types.ObjectNull(eksUpdateConfigAttrTypes)
	}
	return types.ObjectValueMust(eksUpdateConfigAttrTypes, map[string]attr.Value{
		"max_unavailable": intPtrValue(u.MaxUnavailable), "max_unavailable_percentage": intPtrValue(u.MaxUnavailablePercentage)})
}

func aksUpgradeValue(u *nodegroup.AKSUpgradeSettings) types.Object {
	if u == nil {
		return types.ObjectNull(aksUpgradeAttrTypes)
	}
	return types.ObjectValueMust(aksUpgradeAttrTypes, map[string]attr.Value{"max_surge": optString(u.MaxSurge),
		"max_unavailable": optString(u.MaxUnavailable)})
}

func gkeUpgradeValue(u *nodegroup.GKEUpgradeSettings) types.Object {
	if u == nil {
		return types.ObjectNull(gkeUpgradeAttrTypes)
	}
	return types.ObjectValueMust(gkeUpgradeAttrTypes, map[string]attr.Value{
		"max_surge": types.Int64Value(int64(u.MaxSurge)), "max_unavailable": types.Int64Value(int64(u.MaxUnavailable))})
}

func intPtrValue(p *int) types.Int64 {
	if p == nil {
		return types.Int64Null()
	}
	return types.Int64Value(int64(*p))
}

// gkeGuestAcceleratorValue flattens a GKE pool's guest_accelerator blocks: one with GPUs, none without.
func gkeGuestAcceleratorValue(a *nodegroup.GKEGuestAccelerator) types.List {
	elem := types.ObjectType{AttrTypes: gkeGuestAcceleratorAttrTypes}
	if a == nil {
		return types.ListValueMust(elem, nil)
	}
	sharing := types.ObjectNull(gkeGPUSharingConfigAttrTypes)
	if a.SharingStrategy != "" {
		sharing = types.ObjectValueMust(gkeGPUSharingConfigAttrTypes, map[string]attr.Value{
			"gpu_sharing_strategy": types.StringValue(a.SharingStrategy), "max_shared_clients_per_gpu": types.Int64Value(int64(a.MaxSharedClientsPerGPU))})
	}
	driverTypes := gkeGuestAcceleratorAttrTypes["gpu_driver_installation_config"].(types.ObjectType).AttrTypes
	return types.ListValueMust(elem, []attr.Value{types.ObjectValueMust(gkeGuestAcceleratorAttrTypes, map[string]attr.Value{
		"type": types.StringValue(a.Type), "count": types.Int64Value(int64(a.Count)), "gpu_partition_size": optString(a.GPUPartitionSize),
		"gpu_driver_installation_config": types.ObjectValueMust(driverTypes, map[string]attr.Value{"gpu_driver_version": types.StringValue(a.GPUDriverVersion)}),
		"gpu_sharing_config":             sharing,
	})})
}
