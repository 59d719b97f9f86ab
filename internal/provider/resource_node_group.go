package provider

import (
	"context"
	"fmt"
	"maps"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/nodegroup"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/overhead"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/sizing"
)

var (
	_ resource.ResourceWithModifyPlan = (*nodeGroupResource)(nil)
	_ resource.ResourceWithConfigure  = (*nodeGroupResource)(nil)
)

type nodeGroupResource struct{ resourceCatalog }

func newNodeGroupResource() resource.Resource { return &nodeGroupResource{} }

type nodeGroupModel struct {
	ID            types.String `tfsdk:"id"`
	Name          types.String `tfsdk:"name"`
	Cloud         types.String `tfsdk:"cloud"`
	InstanceType  types.String `tfsdk:"instance_type"`
	InstanceTypes types.List   `tfsdk:"instance_types"`
	overheadOptionsModel
	Zones                  types.List    `tfsdk:"zones"`
	Labels                 types.Map     `tfsdk:"labels"`
	Taints                 types.List    `tfsdk:"taints"`
	ExtendedResources      types.Map     `tfsdk:"extended_resources"`
	CreditMode             types.String  `tfsdk:"credit_mode"`
	StartingBalance        types.String  `tfsdk:"starting_balance"`
	MinHours               types.Int64   `tfsdk:"min_hours"`
	MaxSurplusCostPerMonth types.Float64 `tfsdk:"max_surplus_cost_per_month"`
	DaemonSets             types.List    `tfsdk:"daemonsets"`
	SystemDaemonSets       types.String  `tfsdk:"system_daemonsets"`
	Workloads              types.List    `tfsdk:"workloads"`
	MinSize                types.Int64   `tfsdk:"min_size"`
	MaxSize                types.Int64   `tfsdk:"max_size"`
	HeadroomPercent        types.Int64   `tfsdk:"headroom_percent"`
	Scheduler              types.String  `tfsdk:"scheduler_profile"`
	Arrival                types.String  `tfsdk:"arrival_order"`
	Disruptions            types.List    `tfsdk:"disruptions"`
	CapacityType           types.String  `tfsdk:"capacity_type"`
	UpgradeMaxSurge        types.String  `tfsdk:"upgrade_max_surge"`
	UpgradeMaxUnavailable  types.String  `tfsdk:"upgrade_max_unavailable"`
	DiskSizeGiB            types.Int64   `tfsdk:"disk_size_gib"`
	DiskType               types.String  `tfsdk:"disk_type"`
	GPUSharing             types.Object  `tfsdk:"gpu_sharing"`
	NodeClassName          types.String  `tfsdk:"node_class_name"`
	FailOnMisfit           types.Bool    `tfsdk:"fail_on_misfit"`
	MisfitsReportedBy      types.String  `tfsdk:"misfits_reported_by"`

	DesiredSize         types.Int64   `tfsdk:"desired_size"`
	Fits                types.Bool    `tfsdk:"fits"`
	DisruptionOut       types.Map     `tfsdk:"disruption_results"`
	InstanceTypePlanned types.String  `tfsdk:"planned_instance_type"`
	Allocatable         types.Object  `tfsdk:"allocatable"`
	WorkloadAllocatable types.Object  `tfsdk:"workload_allocatable"`
	OverheadEvidence    types.Object  `tfsdk:"overhead_evidence"`
	FreeAtMax           types.Object  `tfsdk:"free_at_max"`
	Capacity            types.Object  `tfsdk:"capacity"`
	EKSNodeGroup        types.Object  `tfsdk:"eks_node_group"`
	AKSNodePool         types.Object  `tfsdk:"aks_node_pool"`
	GKENodePool         types.Object  `tfsdk:"gke_node_pool"`
	EKSModuleNodeGroup  types.Object  `tfsdk:"eks_module_node_group"`
	EKSLaunchTemplate   types.Object  `tfsdk:"eks_launch_template"`
	AKSModuleNodePool   types.Object  `tfsdk:"aks_module_node_pool"`
	GKEModuleNodePool   types.Object  `tfsdk:"gke_module_node_pool"`
	EksctlYAML          types.String  `tfsdk:"eksctl_yaml"`
	KarpenterNodePool   types.Dynamic `tfsdk:"karpenter_node_pool"`
	KarpenterYAML       types.String  `tfsdk:"karpenter_node_pool_yaml"`
	KarpenterKubelet    types.Dynamic `tfsdk:"karpenter_node_class_kubelet"`
	KubeletConfigYAML   types.String  `tfsdk:"kubelet_config_yaml"`
	Report              types.String  `tfsdk:"report"`
}

var (
	taintAttrTypes        = map[string]attr.Type{"key": types.StringType, "value": types.StringType, "effect": types.StringType}
	taintListType         = types.ListType{ElemType: types.ObjectType{AttrTypes: taintAttrTypes}}
	scalingAttrTypes      = map[string]attr.Type{"desired_size": types.Int64Type, "min_size": types.Int64Type, "max_size": types.Int64Type}
	eksNodeGroupAttrTypes = map[string]attr.Type{
		"instance_types": types.ListType{ElemType: types.StringType}, "scaling_config": types.ObjectType{AttrTypes: scalingAttrTypes},
		"labels": types.MapType{ElemType: types.StringType}, "taint": taintListType, "disk_size": types.Int64Type,
		"ami_type": types.StringType, "capacity_type": types.StringType,
		"update_config": types.ObjectType{AttrTypes: eksUpdateConfigAttrTypes},
	}
	eksUpdateConfigAttrTypes = map[string]attr.Type{"max_unavailable": types.Int64Type, "max_unavailable_percentage": types.Int64Type}
	aksUpgradeAttrTypes      = map[string]attr.Type{"max_surge": types.StringType, "max_unavailable": types.StringType}
	gkeUpgradeAttrTypes      = map[string]attr.Type{"max_surge": types.Int64Type, "max_unavailable": types.Int64Type}
	aksNodePoolAttrTypes     = map[string]attr.Type{
		"vm_size": types.StringType, "node_count": types.Int64Type, "auto_scaling_enabled": types.BoolType, "min_count": types.Int64Type,
		"max_count": types.Int64Type, "max_pods": types.Int64Type, "node_labels": types.MapType{ElemType: types.StringType},
		"node_taints": types.ListType{ElemType: types.StringType}, "os_disk_size_gb": types.Int64Type, "os_type": types.StringType,
		"zones": types.ListType{ElemType: types.StringType}, "os_sku": types.StringType, "priority": types.StringType,
		"eviction_policy": types.StringType, "spot_max_price": types.Float64Type, "temporary_name_for_rotation": types.StringType,
		"upgrade_settings": types.ObjectType{AttrTypes: aksUpgradeAttrTypes},
	}
	gkeAutoscalingAttrTypes = map[string]attr.Type{"total_min_node_count": types.Int64Type, "total_max_node_count": types.Int64Type,
		"location_policy": types.StringType}
	gkeNodeConfigAttrTypes = map[string]attr.Type{"machine_type": types.StringType, "disk_size_gb": types.Int64Type, "disk_type": types.StringType,
		"labels": types.MapType{ElemType: types.StringType}, "taint": taintListType, "spot": types.BoolType,
		"guest_accelerator": types.ListType{ElemType: types.ObjectType{AttrTypes: gkeGuestAcceleratorAttrTypes}}}
	gkeGuestAcceleratorAttrTypes = map[string]attr.Type{"type": types.StringType, "count": types.Int64Type, "gpu_partition_size": types.StringType,
		"gpu_driver_installation_config": types.ObjectType{AttrTypes: map[string]attr.Type{"gpu_driver_version": types.StringType}},
		"gpu_sharing_config":             types.ObjectType{AttrTypes: gkeGPUSharingConfigAttrTypes}}
	gkeGPUSharingConfigAttrTypes = map[string]attr.Type{"gpu_sharing_strategy": types.StringType, "max_shared_clients_per_gpu": types.Int64Type}
	gkeNodePoolAttrTypes         = map[string]attr.Type{"initial_node_count": types.Int64Type, "node_locations": types.ListType{ElemType: types.StringType},
		"max_pods_per_node": types.Int64Type, "autoscaling": types.ObjectType{AttrTypes: gkeAutoscalingAttrTypes},
		"node_config": types.ObjectType{AttrTypes: gkeNodeConfigAttrTypes}, "upgrade_settings": types.ObjectType{AttrTypes: gkeUpgradeAttrTypes}}
	eksModuleAttrTypes = map[string]attr.Type{"name": types.StringType, "instance_types": types.ListType{ElemType: types.StringType},
		"min_size": types.Int64Type, "max_size": types.Int64Type, "desired_size": types.Int64Type, "ami_type": types.StringType,
		"capacity_type": types.StringType, "disk_size": types.Int64Type, "use_custom_launch_template": types.BoolType,
		"labels": types.MapType{ElemType: types.StringType}, "taints": types.MapType{ElemType: types.ObjectType{AttrTypes: taintAttrTypes}},
		"block_device_mappings": types.MapType{ElemType: types.ObjectType{AttrTypes: blockDeviceAttrTypes}},
		"cloudinit_pre_nodeadm": types.ListType{ElemType: types.ObjectType{AttrTypes: cloudinitAttrTypes}}, "bootstrap_extra_args": types.StringType,
		"update_config": types.ObjectType{AttrTypes: eksUpdateConfigAttrTypes}}
	blockDeviceAttrTypes    = map[string]attr.Type{"device_name": types.StringType, "ebs": types.ObjectType{AttrTypes: ebsAttrTypes}}
	ebsAttrTypes            = map[string]attr.Type{"volume_size": types.Int64Type, "volume_type": types.StringType}
	cloudinitAttrTypes      = map[string]attr.Type{"content": types.StringType, "content_type": types.StringType}
	launchTemplateAttrTypes = map[string]attr.Type{"block_device_mappings": types.ListType{ElemType: types.ObjectType{AttrTypes: blockDeviceAttrTypes}},
		"user_data": types.StringType, "user_data_format": types.StringType}
	aksModuleAttrTypes = func() map[string]attr.Type {
		t := maps.Clone(aksNodePoolAttrTypes)
		t["name"], t["create_before_destroy"] = types.StringType, types.BoolType
		return t
	}()
	gkeModuleAttrTypes = map[string]attr.Type{"node_pool": types.MapType{ElemType: types.StringType},
		"labels": types.MapType{ElemType: types.StringType}, "taints": taintListType}
	capacityAllocAttrTypes = map[string]attr.Type{"cpu_millicores": types.Int64Type, "memory_bytes": types.Int64Type, "ephemeral_bytes": types.Int64Type,
		"extended": types.MapType{ElemType: types.Int64Type}}
	capacityAttrTypes = map[string]attr.Type{"name": types.StringType, "max_nodes": types.Int64Type,
		"zones": types.ListType{ElemType: types.StringType}, "max_nodes_per_zone": types.Int64Type,
		"workload_allocatable": types.ObjectType{AttrTypes: capacityAllocAttrTypes}, "workload_pods": types.Int64Type,
		"failures":  types.ListType{ElemType: types.ObjectType{AttrTypes: groupFailureAttrTypes}},
		"workloads": types.ListType{ElemType: types.ObjectType{AttrTypes: groupWorkloadAttrTypes}}}
	// groupWorkloadAttrTypes are one of the group's own workloads at peak (capacity.workloads).
	groupWorkloadAttrTypes = map[string]attr.Type{"name": types.StringType, "requests": types.ObjectType{AttrTypes: capacityAllocAttrTypes},
		"replicas": types.Int64Type, "surge": types.Int64Type}
	// groupFailureAttrTypes are one misfit a group hands to the capacity check (misfits_reported_by).
	groupFailureAttrTypes = map[string]attr.Type{"reason": types.StringType, "attribute": types.StringType,
		"message": types.StringType, "remedy": types.StringType}
)

func (r *nodeGroupResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_node_group"
}

func computedObject(desc string, attrs map[string]schema.Attribute) schema.SingleNestedAttribute {
	return schema.SingleNestedAttribute{Computed: true, MarkdownDescription: desc, Attributes: attrs}
}

// computedAttrs builds computed attributes of the types t, described by field name in descs; a key "parent.field"
// describes the field within the parent of that name, before the plain "field" (a name two objects use for
// different things, such as a workload's name within capacity.workloads).
func computedAttrs(t map[string]attr.Type, descs map[string]string) map[string]schema.Attribute {
	return computedAttrsIn("", t, descs)
}

func computedAttrsIn(parent string, t map[string]attr.Type, descs map[string]string) map[string]schema.Attribute {
	out := map[string]schema.Attribute{}
	for k, ty := range t {
		d, ok := descs[parent+"."+k]
		if !ok {
			d = descs[k]
		}
		switch ty := ty.(type) {
		case types.ObjectType:
			out[k] = computedObject(d, computedAttrsIn(k, ty.AttrTypes, descs))
		case types.ListType:
			if ot, ok := ty.ElemType.(types.ObjectType); ok {
				out[k] = schema.ListNestedAttribute{Computed: true, MarkdownDescription: d,
					NestedObject: schema.NestedAttributeObject{Attributes: computedAttrsIn(k, ot.AttrTypes, descs)}}
			} else {
				out[k] = schema.ListAttribute{Computed: true, ElementType: ty.ElemType, MarkdownDescription: d}
			}
		case types.MapType:
			out[k] = schema.MapAttribute{Computed: true, ElementType: ty.ElemType, MarkdownDescription: d}
		default:
			switch ty {
			case types.Int64Type:
				out[k] = schema.Int64Attribute{Computed: true, MarkdownDescription: d}
			case types.BoolType:
				out[k] = schema.BoolAttribute{Computed: true, MarkdownDescription: d}
			case types.Float64Type:
				out[k] = schema.Float64Attribute{Computed: true, MarkdownDescription: d}
			default:
				out[k] = schema.StringAttribute{Computed: true, MarkdownDescription: d}
			}
		}
	}
	return out
}

// nodeGroupDescriptions documents the consumer objects' fields, by field name.
var nodeGroupDescriptions = map[string]string{
	"instance_types": "Instance types of the group.", "scaling_config": "`desired_size`, `min_size` and `max_size` for `scaling_config`.",
	"desired_size": "Desired nodes.", "min_size": "Minimum nodes.", "max_size": "Maximum nodes.",
	"labels": "Node labels (the ones you gave; the well-known labels are the platform's).", "taint": "Taints in this consumer's effect spelling (`NO_SCHEDULE`, `NO_EXECUTE`, `PREFER_NO_SCHEDULE`).",
	"key": "Taint key.", "value": "Taint value.", "effect": "Taint effect.",
	"disk_size": "Root volume size in GiB (default 20, Windows 50).", "ami_type": "AMI type matching the profile, architecture and GPUs (`AL2023_x86_64_STANDARD`, `AL2023_ARM_64_STANDARD`, `BOTTLEROCKET_x86_64`, ...).",
	"capacity_type": "`ON_DEMAND` or `SPOT`.", "vm_size": "VM size.",
	"node_count":           "Nodes: the desired size. In `aks_module_node_pool` null with auto-scaling: Azure/aks ignores changes only to a pool's name and orchestrator version, so a `node_count` beside `auto_scaling_enabled` would undo every move of the cluster autoscaler on the next apply (azurerm starts the pool at `min_count`).",
	"auto_scaling_enabled": "Whether the pool autoscales (minimum ≠ maximum).", "min_count": "Minimum nodes; null without auto-scaling, as azurerm requires.",
	"max_count": "Maximum nodes; null without auto-scaling.", "max_pods": "Max pods per node (AKS takes 10–250).",
	"node_labels":                 "Node labels (a Spot pool's include the `kubernetes.azure.com/scalesetpriority=spot` AKS adds, which azurerm reads back, so the next plan does not try to remove it).",
	"temporary_name_for_rotation": "The name of the temporary pool azurerm cycles the pool through when `vm_size`, `max_pods`, `os_disk_size_gb` or `zones` change (without one such a change fails at apply): a valid pool name made of the group's name and 4 hex digits of its hash, so that groups rotating in the same apply do not collide (`usertmp1a2b` for group `user`; a Windows pool's, whose temporary pool is Windows too, has 6 characters, such as `ut1a2b`). It must not be the name of another pool of the cluster.",
	"create_before_destroy":       "`true` for Linux pools (the module's default: it appends 4 random characters to the name); `false` for Windows pools, whose names AKS limits to 6 characters, so the module uses the name as it is and replaces such a pool by destroying it first.",
	"node_taints":                 "Taints as `key=value:NoSchedule` (a Spot pool's include the `kubernetes.azure.com/scalesetpriority=spot:NoSchedule` AKS adds, so the next plan does not try to remove it).",
	"os_sku":                      "Windows pools: `Windows2022` (`Windows2019` before Kubernetes 1.23; AKS ends Windows2019 before 1.33; `Windows2025` from 1.37, where AKS ends Windows Server 2022, with a warning: azurerm does not take that value yet, and Windows Server 2025 pools need `fips_enabled = true`, which kubefit does not render); null for Linux pools, which keep the default (Ubuntu).",
	"priority":                    "`Regular`, or `Spot` with `capacity_type = \"spot\"`.",
	"eviction_policy":             "Spot pools: `Delete`, given explicitly (azurerm does not read AKS's default back, so an unset policy replaces the pool on every apply); null otherwise.",
	"spot_max_price":              "Spot pools: `-1` (pay up to the on-demand price); null otherwise.", "os_disk_size_gb": "OS disk size in GB (default 128).", "os_type": "`Linux` or `Windows`.",
	"zones":                "Zones (AKS spells them `1`, `2`, `3`).",
	"autoscaling":          "Autoscaling bounds as exact totals over the pool's locations (`total_min_node_count`, `total_max_node_count`), whatever the number of zones.",
	"total_min_node_count": "The group's minimum size, in total.", "total_max_node_count": "The group's maximum size, in total.",
	"location_policy":    "`BALANCED` (GKE's default for on-demand pools), or `ANY` for Spot pools.",
	"initial_node_count": "Nodes per zone the pool is created with: the desired size spread over the zones, rounded up, within the maximum per zone (1 without zones; 0 when the maximum is below the zone count, and the autoscaler adds the nodes the pods need). ForceNew in google_container_node_pool: put it under `ignore_changes`, or a changed desired size replaces the pool.",
	"node_locations":     "The group's zones; null when none are given (the cluster's locations apply).",
	"max_pods_per_node":  "The max pods kubefit planned with: `max_pods`, or 110 when unset (GKE Standard's default), always set so the pool does not take a lower `default_max_pods_per_node` of the cluster.",
	"spot":               "Whether the nodes are Spot VMs (`capacity_type = \"spot\"`).",
	"node_config":        "Machine type, disk, labels, taints, Spot and the GPU accelerator.",
	"guest_accelerator": "The GPUs of a GPU machine type (A2, A3, G2, G4; empty otherwise): one block with GKE's driver installation, for a " +
		"`dynamic \"guest_accelerator\"` (see the wiring example). Without it GKE installs no driver and the nodes advertise no `nvidia.com/gpu`.",
	"type":                           "Accelerator type of the machine series: `nvidia-tesla-a100` (A2 highgpu, megagpu), `nvidia-a100-80gb` (A2 ultragpu), `nvidia-h100-80gb` (A3 High), `nvidia-h100-mega-80gb` (A3 Mega), `nvidia-l4` (G2), `nvidia-rtx-pro-6000` (G4).",
	"count":                          "The machine type's GPUs (a GKE accelerator-optimized machine type attaches exactly these).",
	"gpu_partition_size":             "`gpu_sharing.partition_size` (MIG); null without it.",
	"gpu_driver_installation_config": "`gpu_driver_version = \"DEFAULT\"`: GKE installs its default driver for the node version (COS and Ubuntu; `LATEST` is COS only).",
	"gpu_driver_version":             "`DEFAULT`.",
	"gpu_sharing_config":             "`gpu_sharing_strategy` (`TIME_SHARING` or `MPS`) and `max_shared_clients_per_gpu` from `gpu_sharing`; null without a strategy.",
	"gpu_sharing_strategy":           "`TIME_SHARING` or `MPS`.",
	"max_shared_clients_per_gpu":     "Containers sharing each GPU (or MIG partition).",
	"update_config":                  "One of `max_unavailable` and `max_unavailable_percentage`. In `eks_node_group`, set when the group sets `upgrade_max_unavailable` (null: EKS's default, 1 node); in `eks_module_node_group` always set, to the same or to EKS's 1 node, since the module's own default is 33 % (`default_update_config`), which kubefit does not plan with.",
	"max_unavailable":                "Nodes unavailable at once during an upgrade, as planned by the `node_upgrade` disruption.",
	"max_unavailable_percentage":     "The same as a percentage of the group's nodes.",
	"upgrade_settings":               "Set when the group sets `upgrade_max_surge` or `upgrade_max_unavailable`; null leaves the cloud's default (AKS `10%` surge, GKE 1 surge node), which is what kubefit plans with. On AKS one of `max_surge` and `max_unavailable` is set, the other null (azurerm v4.53.0 or later takes `max_unavailable`).",
	"max_surge":                      "Nodes added before old ones are drained during an upgrade, as planned by the `node_upgrade` disruption.",
	"machine_type":                   "Machine type.", "disk_size_gb": "Boot disk size in GB (default 100).",
	"disk_type": "Boot disk type: null leaves GKE's default (`pd-balanced`); `hyperdisk-balanced` for a machine series that attaches no " +
		"Persistent Disk (N4, N4A, N4D, C4, C4A, C4D, H4D, …), where GKE refuses a `pd-balanced` boot disk (disks.md §6.1).",
	"name":      "Node group name (in `aks_module_node_pool`, made to fit Azure/aks: lower-case letters and digits, at most 8, or 6 for a Windows pool; a warning says when it differs).",
	"max_nodes": "The group's maximum size.", "max_nodes_per_zone": "Null: kubefit spreads nodes round-robin over the zones.",
	"workload_allocatable": "Per node: allocatable less the requests of the DaemonSets that land on the group (of the smallest member of a mixed group).",
	"cpu_millicores":       "CPU in millicores.", "memory_bytes": "Memory in bytes.", "ephemeral_bytes": "Ephemeral storage in bytes.",
	"workload_pods": "Per node: pod slots left for workloads after DaemonSets.",
	"failures": "The group's misfits, for the `kubefit_capacity_check` that reads this object to raise as errors (`KCAP-E8`), when " +
		"`misfits_reported_by = \"capacity_check\"`; empty otherwise (the group then fails itself, or only warns with `fail_on_misfit = false`).",
	"reason":                "The misfit's reason, as `kubefit_node_pool_sizing`'s `failures` give it (`max-nodes`: the peak needs more than `max_size` nodes; `too-large`: a pod fits no node; `burst-credits`; `disruption`; …).",
	"attribute":             "The group's attribute at fault (`max_size`, `workloads[0]`, `instance_type`, `disruptions`).",
	"message":               "What does not fit, with the figures and the remedies the planner names.",
	"remedy":                "The group's own remedy: the largest replica count of the workload at fault that fits (empty when none was computed).",
	"extended":              "Per node: extended resources left for workloads (`nvidia.com/gpu`).",
	"workloads":             "The group's own workloads at peak, which a capacity check places beside the autoscalers' pods (those it does not stand for).",
	"workloads.name":        "The workload's name.",
	"workloads.requests":    "One pod's requests.",
	"requests.extended":     "One pod's extended resources (`nvidia.com/gpu`).",
	"workloads.replicas":    "The workload's peak replica count.",
	"workloads.surge":       "The pods a rollout at peak adds beside them (its `max_surge`).",
	"block_device_mappings": "The volume: its device (`/dev/xvda`, the root of AL2023; `/dev/xvdb`, Bottlerocket's data volume) and `ebs` size and type.",
	"device_name":           "Block device name.", "ebs": "EBS `volume_size` (GiB) and `volume_type`.", "volume_size": "Volume size in GiB.", "volume_type": "EBS volume type (default `gp3`).",
	"user_data": "Base64 user data carrying the kubelet settings.", "user_data_format": "`nodeadm` (an AL2023 NodeConfig MIME part) or `bottlerocket` (TOML settings).",
	"cloudinit_pre_nodeadm": "AL2023 groups with custom kubelet settings: the NodeConfig part for the module's custom launch template.",
	"content":               "Part content.", "content_type": "Part content type (`application/node.eks.aws`).",
	"bootstrap_extra_args":       "Bottlerocket groups with custom kubelet settings: the TOML settings for the module's custom launch template.",
	"use_custom_launch_template": "`false`: the module's `disk_size` takes effect only without its custom launch template (with one, size the disk in `block_device_mappings`).",
	"taints":                     "Taints in the module's shape (terraform-aws-modules/eks: a map keyed by the taint key, `NO_SCHEDULE` spelling; kubernetes-engine: a list for `node_pools_taints`).",
	"node_pool":                  "The pool for the module's `node_pools` list: every value a string (`node_locations` comma-separated, `total_min_count`, `total_max_count`, `initial_node_count`, …).",
}

func (r *nodeGroupResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	defer cacheResourceTypes(&resp.Schema)
	attrs := resourceAttributes(sizingPoolAttributes(false))
	attrs["daemonsets"] = resourceAttribute(daemonSetsAttribute())
	attrs["system_daemonsets"] = resourceAttribute(systemDaemonSetsAttribute())
	attrs["workloads"] = resourceAttribute(nodeGroupWorkloadsAttribute())
	if it, ok := attrs["instance_types"].(schema.ListAttribute); ok {
		it.MarkdownDescription = "A mixed group's instance types: kubefit plans on the smallest member (least workload allocatable CPU, then memory), " +
			"named in `planned_instance_type`, so the group holds its workloads whichever member the cloud launches. An AKS node pool runs one VM size and " +
			"a GKE node pool one machine type: a mixed Azure or GCP group is rendered with that smallest member, and a warning names the members left out."
		attrs["instance_types"] = it
	}
	if z, ok := attrs["zones"].(schema.ListAttribute); ok {
		z.MarkdownDescription += " The cloud's zone names, in one region: `us-east-1a` (AWS; Local Zones such as `us-west-2-lax-1a` too), " +
			"`europe-west4-b` (GCP), `1`, `2`, `3` (Azure; `westeurope-2` is read as `2`)."
		attrs["zones"] = z
	}
	attrs["id"] = schema.StringAttribute{Computed: true, MarkdownDescription: "The node group name."}
	attrs["name"] = schema.StringAttribute{Required: true, MarkdownDescription: "Node group name; the eksctl group and the Karpenter NodePool are named after it. A NodePool's name must be a lowercase RFC 1123 subdomain, so a name such as `Web_Pool` gives a NodePool named `web-pool` (with a warning for `eks.node_group_kind` `karpenter` or `auto_mode`) and an eksctl entry named `Web-Pool` (a CloudFormation stack name holds only letters, digits and hyphens; with a warning). AWS groups may not set labels a Karpenter NodePool restricts: `kubernetes.io/hostname`, `karpenter.sh/nodepool`, and other labels of the `karpenter.sh` and `karpenter.k8s.aws` domains that are not Karpenter's well-known labels (such as `karpenter.sh/capacity-type` or `karpenter.k8s.aws/instance-family`). Nor may any group set labels of the `kubernetes.io` and `k8s.io` domains a node may not set on itself (such as `node-role.kubernetes.io/worker`): the kubelet, eksctl, AKS and GKE refuse them; `node.kubernetes.io/…` and the well-known labels are fine. Managed EKS groups may not set `eks.amazonaws.com/…` labels, GKE groups `cloud.google.com/…` ones, AKS groups `kubernetes.azure.com/…` ones.",
		Validators: []validator.String{stringvalidator.LengthBetween(1, 63)}}
	attrs["min_size"] = schema.Int64Attribute{Optional: true, Computed: true, MarkdownDescription: "Minimum nodes. Default: the nodes the steady scenario needs, at most a set `max_size` (a steady scenario beyond it is a misfit).",
		Validators: []validator.Int64{int64validator.AtLeast(0)}}
	attrs["max_size"] = schema.Int64Attribute{Optional: true, Computed: true, MarkdownDescription: fmt.Sprintf("Maximum nodes (1–%d). "+
		"Default: the nodes the peak scenario needs, raised by `headroom_percent` and rounded up. When set, the peak must fit it: otherwise the plan fails (`fail_on_misfit`), or the capacity check does (`misfits_reported_by`).", nodegroup.UnboundedNodes),
		Validators: []validator.Int64{int64validator.Between(1, nodegroup.UnboundedNodes)}}
	attrs["scheduler_profile"] = resourceAttribute(schedulerProfileAttribute())
	attrs["arrival_order"] = resourceAttribute(arrivalOrderAttribute())
	attrs["disruptions"] = resourceAttribute(disruptionsAttribute())
	attrs["disruption_results"] = resourceAttribute(disruptionResultsAttribute())
	attrs["headroom_percent"] = schema.Int64Attribute{Optional: true, MarkdownDescription: "Headroom above the peak for a computed `max_size`, in percent (default 0).",
		Validators: []validator.Int64{int64validator.Between(0, 1000)}}
	attrs["capacity_type"] = schema.StringAttribute{Optional: true, MarkdownDescription: "How nodes are bought: " + markdownList(nodegroup.CapacityTypes) + " (default `on_demand`).",
		Validators: []validator.String{stringvalidator.OneOf(stringsOf(nodegroup.CapacityTypes)...)}}
	attrs["disk_size_gib"] = schema.Int64Attribute{Optional: true, MarkdownDescription: "Size in GiB of the volume that holds the kubelet's root directory " +
		"(the root volume; Bottlerocket's data volume), emitted to every consumer and planned with: the nodes' ephemeral storage comes from it " +
		"unless `os_disk_gib` is given. Default: each consumer's own (EKS 20, Windows 50; AKS 128; GKE 100), which is also what kubefit plans with. " +
		"The plan checks it against the consumer: on AWS the EBS type's sizes (gp2 and gp3 up to 16,384 GiB, io2 65,536, standard 1,024) and the AMI's " +
		"snapshot (20 GiB, Windows 50), on Azure AKS's 2,048 GB, on GCP GKE's 10 GB minimum.",
		Validators: []validator.Int64{int64validator.Between(1, 65536)}}
	attrs["disk_type"] = schema.StringAttribute{Optional: true, MarkdownDescription: "AWS groups: the EBS type of the volume `disk_size_gib` sizes (e.g. `gp3`), passed to eksctl's `volumeType` and to " +
		"`ebs.volume_type` of `eks_launch_template` and `eks_module_node_group`'s `block_device_mappings` (which default to `gp3`). " +
		"`aws_eks_node_group` takes no volume type, and AKS pools are emitted without one (their provider's default); GKE pools too, " +
		"save on a machine series that attaches no Persistent Disk (N4, C4, …), whose `gke_node_pool.node_config.disk_type` is `hyperdisk-balanced` " +
		"(`gke_module_node_pool` also names `pd-balanced` where the series takes no `pd-standard`, the module's default). " +
		"One of " + markdownList(nodegroup.BootVolumeTypes) + " (EBS's `st1` and `sc1` cannot be boot volumes).",
		Validators: []validator.String{stringvalidator.OneOf(nodegroup.BootVolumeTypes...)}}
	attrs["gpu_sharing"] = gpuSharingAttribute()
	attrs["node_class_name"] = schema.StringAttribute{Optional: true, MarkdownDescription: "Name of the Karpenter `EC2NodeClass` the NodePool refers to (default `default`); with `eks.node_group_kind = \"auto_mode\"`, of the EKS Auto Mode `NodeClass` (`eks.amazonaws.com/v1`)."}
	attrs["fail_on_misfit"] = schema.BoolAttribute{Optional: true, MarkdownDescription: "Fail the plan when the workloads do not fit (default `true`); `false` reports misfits as warnings. " +
		"Where the failure is raised is `misfits_reported_by`'s choice."}
	attrs["misfits_reported_by"] = schema.StringAttribute{Optional: true, MarkdownDescription: "Which object fails the plan on the group's misfits: " +
		markdownList(misfitReporters) + " (default `node_group`). `node_group`: this resource fails, and Terraform then skips every object " +
		"that reads its outputs, a `kubefit_capacity_check` included, so their findings wait for the next plan. `capacity_check`: this " +
		"resource does not fail; it warns once, exports its misfits in `capacity.failures`, and the `kubefit_capacity_check` whose " +
		"`node_groups` holds this `capacity` raises each as an error (`KCAP-E8`, on that `node_groups` element) beside its own findings, " +
		"so that one plan shows every failing check. If no capacity check reads `capacity`, nothing raises them and the plan does not fail on " +
		"them: choose `capacity_check` only for a group a check reads. Refused with `fail_on_misfit = false`, which makes the misfits warnings here.",
		Validators: []validator.String{stringvalidator.OneOf(misfitReporters...)}}
	attrs["desired_size"] = schema.Int64Attribute{Computed: true, MarkdownDescription: "Desired nodes: the steady scenario's nodes within `min_size`..`max_size`."}
	if od, ok := attrs["os_disk_gib"].(schema.Int64Attribute); ok {
		od.MarkdownDescription = "Size of the disk that holds the kubelet's root directory, in GiB, for planning the nodes' ephemeral storage. " +
			"Default: `disk_size_gib` (the disk the group emits), else the consumer's default: 20 on EKS (50 on Windows), 128 on AKS, 100 on GKE. " +
			"Give it only when the kubelet's root is on another disk than `disk_size_gib`'s (a warning says when they differ)."
		attrs["os_disk_gib"] = od
	}
	if it, ok := attrs["instance_type"].(schema.StringAttribute); ok {
		it.MarkdownDescription = "Instance type of the group's nodes (exactly one of `instance_type` and `instance_types`)."
		attrs["instance_type"] = it
	}
	if mp, ok := attrs["max_pods"].(schema.Int64Attribute); ok {
		mp.Computed = true
		mp.MarkdownDescription += " Reported: the max pods of one node as planned."
		attrs["max_pods"] = mp
	}
	attrs["fits"] = schema.BoolAttribute{Computed: true, MarkdownDescription: "Whether the group has no misfit: the peak fits `max_size`, every pod fits a node, " +
		"burstable nodes keep their credits and the `disruptions` are absorbed. False only where the plan goes on: with `fail_on_misfit = false` " +
		"(for tests and `check {}` blocks to assert on) or `misfits_reported_by = \"capacity_check\"`."}
	attrs["planned_instance_type"] = schema.StringAttribute{Computed: true, MarkdownDescription: "The instance type planned on (a mixed group's smallest member)."}
	attrs["allocatable"] = resourceAttribute(resourcesAttribute("Allocatable of one node."))
	attrs["overhead_evidence"] = resourceAttribute(evidenceAttribute("one node's allocatable"))
	attrs["workload_allocatable"] = resourceAttribute(resourcesAttribute("What one node offers workloads after the group's DaemonSets."))
	attrs["free_at_max"] = resourceAttribute(resourcesAttribute("What `max_size` nodes leave free after the peak scenario's pods: their workload allocatable less the pods' requests, negative by the shortfall when the peak's pods request more than those nodes hold."))
	attrs["capacity"] = computedObject("The group's capacity envelope, for `node_group_capacity` of `kubefit_keda_scaled_object` and "+
		"`kubefit_horizontal_pod_autoscaler`, and for `kubefit_capacity_check.node_groups`; with `misfits_reported_by = \"capacity_check\"` it also carries the group's misfits (`failures`).",
		computedAttrs(capacityAttrTypes, nodeGroupDescriptions))
	attrs["eks_node_group"] = computedObject("Arguments for `aws_eks_node_group` (AWS groups; null otherwise, and for `eks.node_group_kind = \"auto_mode\"`, whose nodes only NodePools launch, or a `karpenter` group whose instance types need several AMIs or are more than 20: use `karpenter_node_pool`; null for `self_managed`, whose nodes a managed node group would not make: use `eksctl_yaml` or your own launch template and Auto Scaling group).", computedAttrs(eksNodeGroupAttrTypes, nodeGroupDescriptions))
	attrs["aks_node_pool"] = computedObject("Arguments for `azurerm_kubernetes_cluster_node_pool`, azurerm v4 names (Azure groups; null otherwise).", computedAttrs(aksNodePoolAttrTypes, nodeGroupDescriptions))
	attrs["gke_node_pool"] = computedObject("Arguments for `google_container_node_pool`: exact total autoscaling bounds over `node_locations`, and an `initial_node_count` per zone (GCP groups; null otherwise).", computedAttrs(gkeNodePoolAttrTypes, nodeGroupDescriptions))
	attrs["eks_launch_template"] = computedObject("Arguments for an `aws_launch_template` that carries the kubelet settings kubefit planned with (`max_pods`, `kube_reserved`, `system_reserved`, `eviction_hard`) to the nodes of an EKS managed node group, which without one run EKS's defaults: the volume (root on AL2023, data on Bottlerocket) and `user_data` (base64: a NodeConfig part for AL2023's nodeadm, or Bottlerocket's TOML settings). Null when the group sets none of them, and for AL2 and Windows, whose images take no NodeConfig (kubefit writes them no launch template; a warning says which consumer runs which setting). On a managed group EKS's own max pods take precedence over the launch template's (the plan takes the safe side of the two, with a warning). With it, `eks_node_group.disk_size` is null, since EKS refuses `disk_size` beside a launch template.", computedAttrs(launchTemplateAttrTypes, nodeGroupDescriptions))
	attrs["eks_module_node_group"] = computedObject("One value of `eks_managed_node_groups` of the terraform-aws-modules/eks module (v21; AWS groups; null otherwise, and for `auto_mode` and `self_managed`): `eks_managed_node_groups = { web = kubefit_node_group.web.eks_module_node_group }`.", computedAttrs(eksModuleAttrTypes, nodeGroupDescriptions))
	attrs["aks_module_node_pool"] = computedObject("One value of `node_pools` of the Azure/aks module (11.x; Azure groups; null otherwise): `node_pools = { user = kubefit_node_group.user.aks_module_node_pool }`.", computedAttrs(aksModuleAttrTypes, nodeGroupDescriptions))
	attrs["gke_module_node_pool"] = computedObject("The pool in the shapes of the terraform-google-modules/kubernetes-engine module (v44; GCP groups; null otherwise): `node_pool` for `node_pools` (a flat map of strings), `labels` and `taints` for `node_pools_labels` and `node_pools_taints` under the pool's name.", computedAttrs(gkeModuleAttrTypes, nodeGroupDescriptions))
	attrs["eksctl_yaml"] = schema.StringAttribute{Computed: true, MarkdownDescription: "An eksctl.io/v1alpha5 `managedNodeGroups` entry, or for `eks.node_group_kind = \"self_managed\"` a `nodeGroups` entry (one type as `instanceType`, several or spot as `instancesDistribution`); max pods go in `maxPodsPerNode`; with custom reservations or eviction thresholds, `kubeletExtraConfig` (self-managed AL2 and AL2023), `overrideBootstrapCommand` (managed AL2023: a nodeadm `NodeConfig` eksctl adds to the nodes' user data, the launch template's `NodeConfig` less max pods) or `bottlerocket.settings` (Bottlerocket) carries them, with the kubelet's other default eviction signals. A managed AL2 or Windows group's entry runs no reservations or eviction thresholds (a warning says so), and on every managed group EKS's own max pods take precedence over `maxPodsPerNode` (the plan takes the safe side) (AWS groups; null otherwise, and for `auto_mode`)."}
	attrs["karpenter_node_pool"] = schema.DynamicAttribute{Computed: true, MarkdownDescription: "A `karpenter.sh/v1` NodePool object for `kubernetes_manifest`, with limits of the capacity, as Karpenter counts it, of `max_size` nodes (of the largest instance type of a mixed group, which Karpenter may launch) or of the NodeClaims Karpenter's own provisioning needs for the peak's pods, whichever is more (it packs pods largest first, each onto the open NodeClaim with the fewest pods that fits it, which can take more nodes than kube-scheduler; for `eks.node_group_kind` `karpenter` or `auto_mode`, whose nodes the NodePool launches, a warning says when that count binds, or when the group has something the model does not cover: several instance types, zone spread or affinity, pod affinity) (AWS groups; null otherwise). Its `nodeClassRef` is Karpenter's `EC2NodeClass`, or for `eks.node_group_kind = \"auto_mode\"` EKS Auto Mode's `NodeClass` (`eks.amazonaws.com`). A Windows group's NodePool requires `kubernetes.io/os` `windows`: Karpenter gives a node the OS of its EC2NodeClass's AMI family, so that class must select a Windows AMI (a warning says so for `eks.node_group_kind = \"karpenter\"`)."}
	attrs["karpenter_node_pool_yaml"] = schema.StringAttribute{Computed: true, MarkdownDescription: "The NodePool as YAML; `yamldecode()` of it equals `karpenter_node_pool`."}
	attrs["karpenter_node_class_kubelet"] = schema.DynamicAttribute{Computed: true, MarkdownDescription: "The `spec.kubelet` block the `EC2NodeClass` that `karpenter_node_pool` refers to must carry for Karpenter's nodes to run the kubelet settings the group was planned with: Karpenter v1 reads `maxPods`, `kubeReserved`, `systemReserved` and `evictionHard` from the EC2NodeClass, never from the NodePool, and without them gives a node its ENI-limited max pods and its own reservations. It holds `maxPods` when `max_pods` is set, the `kube_reserved` and `system_reserved` keys given (Karpenter fills the others by the formula kubefit plans with), and the whole hard-eviction map when `eviction_hard` is set (a partial map would leave the kubelet's other signals unset). Merge it into your EC2NodeClass's `spec` (its role, subnets and AMI are yours). Null when the group sets none of these, on other clouds, and for `eks.node_group_kind = \"auto_mode\"` (EKS Auto Mode's NodeClass). With `eks.node_group_kind = \"karpenter\"` a warning says the plan holds only once the EC2NodeClass carries it."}
	attrs["kubelet_config_yaml"] = schema.StringAttribute{Computed: true, MarkdownDescription: "A `kubelet.config.k8s.io/v1beta1` KubeletConfiguration fragment: maxPods, kubeReserved, systemReserved and every evictionHard signal (a partial evictionHard leaves the others unset)."}
	attrs["report"] = schema.StringAttribute{Computed: true, MarkdownDescription: "The sizing report of the group's workloads."}
	resp.Schema = schema.Schema{
		MarkdownDescription: "A node group sized at plan time: the nodes its workloads need in a steady and a peak scenario, as " +
			"`desired_size`, `min_size` and `max_size`, and the same sizing in the exact shapes `aws_eks_node_group`, " +
			"`azurerm_kubernetes_cluster_node_pool`, `google_container_node_pool`, eksctl, Karpenter and the kubelet take.\n\n" +
			"Every computed value is set during plan, so `terraform plan` shows \"desired 3 → 5\" and the resources that consume " +
			"them plan with real numbers. The resource is plan-only: it creates nothing remote; applying stores the values, a " +
			"changed input updates them in place, destroying forgets them. An input unknown at plan leaves the outputs unknown.\n\n" +
			"When `max_size` is set and the peak does not fit it, the plan fails with the shortfall and the largest replica count " +
			"that fits; `fail_on_misfit = false` turns that into a warning. A failing group hides every object that reads its outputs " +
			"(Terraform skips them); `misfits_reported_by = \"capacity_check\"` leaves the failure to the `kubefit_capacity_check` that " +
			"reads `capacity`, so that one plan shows the group's misfits beside the autoscaler, database and DNS findings.",
		Attributes: attrs,
	}
}

// nodeGroupWorkloadsAttribute is the shared workloads input as a node group reads it: the group is one pool,
// so a workload's `pools` does not apply (and is refused when set).
func nodeGroupWorkloadsAttribute() dschema.ListNestedAttribute {
	a := workloadsAttribute()
	attrs := maps.Clone(a.NestedObject.Attributes)
	if pl, ok := attrs["pools"].(dschema.ListAttribute); ok {
		pl.MarkdownDescription = "Does not apply to a node group, which is one pool: every workload runs on it. Refused when set " +
			"(the attribute is shared with `kubefit_node_pool_sizing`, where it restricts a workload to some of its pools); to keep a " +
			"workload off a group, give it to another group, or use `node_selector` or `tolerations` against the group's `labels` and `taints`."
		attrs["pools"] = pl
	}
	a.NestedObject.Attributes = attrs
	a.MarkdownDescription = "Workloads the group carries: sets of identical pods, every one on this group."
	return a
}

// nodeGroupRenames maps the nodegroup planner's fields to this resource's attributes.
var nodeGroupRenames = func() renames {
	r := renames{"InstanceTypes": "instance_types", "DiskSizeGiB": "disk_size_gib", "MaxNodes": "max_size",
		"GPUSharing": "gpu_sharing", "GPUSharing.MaxSharedClients": "max_shared_clients_per_gpu"}
	for k, v := range sizingRenames {
		r[k] = v
	}
	return r
}()

func (r *nodeGroupResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		return
	}
	var m, config nodeGroupModel
	resp.Diagnostics.Append(planGet(ctx, req.Plan, &m)...)
	resp.Diagnostics.Append(configGet(ctx, req.Config, &config)...)
	if resp.Diagnostics.HasError() {
		return
	}
	m.MinSize, m.MaxSize, m.MaxPods = config.MinSize, config.MaxSize, config.MaxPods
	if r.plan(ctx, &m, &resp.Diagnostics) {
		resp.Diagnostics.Append(resp.Plan.Set(ctx, &m)...)
		if !req.State.Raw.IsNull() {
			var prior nodeGroupModel
			if d := req.State.Get(ctx, &prior); !d.HasError() {
				warnAKSRotation(prior.AKSNodePool, m.AKSNodePool, &resp.Diagnostics)
			}
		}
	}
}

// aksRotationArguments are the arguments of azurerm_kubernetes_cluster_node_pool kubefit emits whose change
// azurerm makes by cycling the node pool, which needs temporary_name_for_rotation (cycleNodePoolProperties in
// hashicorp/terraform-provider-azurerm internal/services/containers/kubernetes_cluster_node_pool_resource.go).
var aksRotationArguments = []string{"vm_size", "max_pods", "os_disk_size_gb", "zones"}

// warnAKSRotation warns when a planned change of the group changes an AKS node pool argument that azurerm
// changes only by rotating the pool.
func warnAKSRotation(prior, next types.Object, diags *diag.Diagnostics) {
	if !fullyKnown(prior) || !fullyKnown(next) || prior.IsNull() || next.IsNull() {
		return
	}
	var changed []string
	pa, na := prior.Attributes(), next.Attributes()
	for _, k := range aksRotationArguments {
		if p, n := pa[k], na[k]; p != nil && n != nil && !p.Equal(n) {
			changed = append(changed, fmt.Sprintf("%s (%s → %s)", k, p, n))
		}
	}
	if len(changed) == 0 {
		return
	}
	diags.AddAttributeWarning(path.Root("aks_node_pool"), "AKS Node Pool Rotation Needed", fmt.Sprintf(
		"This plan changes %s of the AKS node pool. azurerm changes these only by rotating the pool through a temporary one, "+
			"so the azurerm_kubernetes_cluster_node_pool (or default_node_pool) that takes these values needs temporary_name_for_rotation "+
			"set, or its apply fails: pass aks_node_pool.temporary_name_for_rotation to it. The Azure/aks module's node_pools "+
			"entry needs it too; aks_module_node_pool carries it, so a pool passed as aks_module_node_pool unchanged has it.", strings.Join(changed, ", ")))
}

// nodeGroupKnown reports whether every input is known.
func nodeGroupKnown(m nodeGroupModel) bool {
	for _, v := range []attr.Value{m.Name, m.Cloud, m.InstanceType, m.InstanceTypes, m.Zones, m.Labels, m.Taints, m.CreditMode,
		m.StartingBalance, m.MinHours, m.MaxSurplusCostPerMonth, m.DaemonSets, m.SystemDaemonSets, m.Workloads, m.HeadroomPercent, m.Scheduler, m.Arrival, m.Disruptions, m.CapacityType, m.UpgradeMaxSurge, m.UpgradeMaxUnavailable,
		m.DiskSizeGiB, m.DiskType, m.GPUSharing, m.NodeClassName, m.FailOnMisfit, m.MisfitsReportedBy, m.Profile, m.KubernetesVersion, m.MaxPods, m.EKS, m.AKS,
		m.KubeReserved, m.SystemReserved, m.EvictionHard, m.MeasuredCapacity, m.MeasuredAllocatable, m.VMMemoryOverheadPercent, m.OSDiskGiB, m.VolumeAttachLimit} {
		if !fullyKnown(v) {
			return false
		}
	}
	return fullyKnown(m.MinSize) && fullyKnown(m.MaxSize)
}

// checkKnownIdentity checks the group's name, labels, taints and zones against its consumers' rules
// (nodegroup.IdentityErrors) while other inputs are unknown, when those and the cloud and EKS options are known: a
// label the consumer refuses fails this plan, not the apply after it.
func checkKnownIdentity(ctx context.Context, m nodeGroupModel, diags *diag.Diagnostics) {
	for _, v := range []attr.Value{m.Name, m.Cloud, m.Labels, m.Taints, m.Zones, m.EKS, m.CapacityType} {
		if !fullyKnown(v) {
			return
		}
	}
	var local diag.Diagnostics
	pool := sizing.Pool{Name: m.Name.ValueString(), Cloud: catalog.Cloud(strings.ToLower(m.Cloud.ValueString())), Labels: expandStringMap(ctx, m.Labels, &local)}
	local.Append(listElementsAs(ctx, m.Zones, &pool.Zones, false)...)
	pool.Taints = expandTaints(ctx, m.Taints, &local)
	if !m.EKS.IsNull() {
		var e eksOptionsModel
		local.Append(m.EKS.As(ctx, &e, basetypes.ObjectAsOptions{})...)
		pool.Overhead.EKS.Kind = overhead.NodeGroupKind(e.NodeGroupKind.ValueString())
	}
	if local.HasError() {
		return // the full plan reports what does not read
	}
	if errs := nodegroup.IdentityErrors(nodegroup.Request{Pool: pool, CapacityType: nodegroup.CapacityType(m.CapacityType.ValueString())}); len(errs) > 0 {
		addNodeGroupErrors(diags, m, errs)
	}
}

// expandNodeGroup converts the model into a nodegroup request.
func expandNodeGroup(ctx context.Context, m nodeGroupModel, diags *diag.Diagnostics) nodegroup.Request {
	oo := m.overheadOptionsModel
	if oo.OSDiskGiB.IsNull() {
		oo.OSDiskGiB = m.DiskSizeGiB // the disk the group emits is the one its ephemeral storage is planned on
	} else if !m.DiskSizeGiB.IsNull() && oo.OSDiskGiB.ValueInt64() != m.DiskSizeGiB.ValueInt64() {
		diags.AddAttributeWarning(path.Root("os_disk_gib"), "Planned Disk Differs From the Emitted One", fmt.Sprintf(
			"node group %q emits a %d GiB root volume (disk_size_gib) but plans the nodes' ephemeral storage on %d GiB (os_disk_gib): "+
				"unless the kubelet's root directory is on another disk, leave os_disk_gib unset so that the plan uses disk_size_gib.",
			m.Name.ValueString(), m.DiskSizeGiB.ValueInt64(), oo.OSDiskGiB.ValueInt64()))
	}
	pm := sizingPoolModel{Cloud: m.Cloud, InstanceType: m.InstanceType, InstanceTypes: m.InstanceTypes, overheadOptionsModel: oo,
		MinNodes: types.Int64Null(), MaxNodes: types.Int64Null(), Zones: m.Zones, Labels: m.Labels, Taints: m.Taints, Weight: types.Int64Null(),
		CreditMode: m.CreditMode, StartingBalance: m.StartingBalance, MinHours: m.MinHours, MaxSurplusCostPerMonth: m.MaxSurplusCostPerMonth,
		CapacityType: m.CapacityType, UpgradeMaxSurge: m.UpgradeMaxSurge, UpgradeMaxUnavailable: m.UpgradeMaxUnavailable,
		ExtendedResources: m.ExtendedResources}
	req := nodegroup.Request{Pool: expandSizingPool(ctx, path.Empty(), m.Name.ValueString(), pm, diags),
		MinSize: optCount(m.MinSize), MaxSize: optCount(m.MaxSize), HeadroomPercent: int(m.HeadroomPercent.ValueInt64()),
		CapacityType: nodegroup.CapacityType(m.CapacityType.ValueString()), DiskSizeGiB: int(m.DiskSizeGiB.ValueInt64()),
		DiskType: m.DiskType.ValueString(), NodeClassName: m.NodeClassName.ValueString(),
		Scheduler: fit.SchedulerProfile(m.Scheduler.ValueString()), Arrival: fit.ArrivalOrder(m.Arrival.ValueString()),
		Disruptions: expandDisruptions(ctx, m.Disruptions, diags), SystemDaemonSets: overhead.SystemDaemonSets(m.SystemDaemonSets.ValueString()),
		GPUSharing: expandGPUSharing(m.GPUSharing)}
	var dss []sizingDaemonSetModel
	diags.Append(listElementsAs(ctx, m.DaemonSets, &dss, false)...)
	for i, d := range dss {
		req.DaemonSets = append(req.DaemonSets, expandDaemonSet(ctx, path.Root("daemonsets").AtListIndex(i), d, diags))
	}
	var ws []workloadModel
	diags.Append(listElementsAs(ctx, m.Workloads, &ws, false)...)
	for i, w := range ws {
		if !w.Pools.IsNull() {
			diags.AddAttributeError(path.Root("workloads").AtListIndex(i).AtName("pools"), "Pools Do Not Apply to a Node Group", fmt.Sprintf(
				"%s names pools, but a node group is one pool: every workload of node group %q runs on it. Remove pools; to keep the "+
					"workload off this group, give it to another kubefit_node_group (or size several pools together with kubefit_node_pool_sizing).",
				workloadName(w), m.Name.ValueString()))
			continue
		}
		req.Workloads = append(req.Workloads, expandWorkload(ctx, path.Root("workloads").AtListIndex(i), w, diags))
	}
	sizing.QualifyWorkloadNames(req.Workloads)
	return req
}

// plan sizes the group and writes every computed value; m.MinSize and m.MaxSize hold the configured
// values (null when not given). It returns false when nothing was computed.
func (r *nodeGroupResource) plan(ctx context.Context, m *nodeGroupModel, diags *diag.Diagnostics) bool {
	m.ID = m.Name
	if !nodeGroupKnown(*m) {
		checkKnownIdentity(ctx, *m, diags)
		if fullyKnown(m.MinSize) && fullyKnown(m.MaxSize) && !m.MinSize.IsNull() && !m.MaxSize.IsNull() && m.MinSize.ValueInt64() > m.MaxSize.ValueInt64() {
			diags.AddAttributeError(path.Root("min_size"), "Invalid Node Group Size", fmt.Sprintf("min_size %d is greater than max_size %d (min > max); lower min_size or raise max_size.",
				m.MinSize.ValueInt64(), m.MaxSize.ValueInt64()))
		}
		if !fullyKnown(m.MinSize) || m.MinSize.IsNull() {
			m.MinSize = types.Int64Unknown()
		}
		if !fullyKnown(m.MaxSize) || m.MaxSize.IsNull() {
			m.MaxSize = types.Int64Unknown()
		}
		if !fullyKnown(m.MaxPods) || m.MaxPods.IsNull() {
			m.MaxPods = types.Int64Unknown()
		}
		return true
	}
	if deferMisfits(*m) && !m.FailOnMisfit.IsNull() && !m.FailOnMisfit.ValueBool() {
		diags.AddAttributeError(path.Root("misfits_reported_by"), "Misfits Reported Nowhere",
			"misfits_reported_by = \"capacity_check\" hands the group's misfits, as errors, to the kubefit_capacity_check that reads its capacity, "+
				"but fail_on_misfit = false makes them warnings of this group: remove fail_on_misfit = false (the check then fails on them) or misfits_reported_by (the group then only warns).")
		return false
	}
	req := expandNodeGroup(ctx, *m, diags)
	if diags.HasError() {
		return false
	}
	res, err := nodegroup.Size(ctx, sizing.NewPlanner(r.catalog()), req)
	if err != nil {
		addNodeGroupErrors(diags, *m, err)
		return false
	}
	misfits := nodeGroupMisfits(*m, res)
	reportNodeGroup(diags, *m, misfits, singleTypePaths(*m, r.oncePerPlan(res.Warnings)))
	if diags.HasError() {
		return false
	}
	out, err := nodegroup.Render(req, res)
	if err != nil {
		diags.AddError("Rendering Failed", err.Error())
		return false
	}
	addPlannerWarnings(diags, path.Empty(), singleTypePaths(*m, out.Warnings), nodeGroupRenames, "Node Group Caveat")
	flattenNodeGroup(m, res, out, diags)
	m.Capacity = capacityWithFailures(m.Capacity, groupFailuresValue(*m, misfits))
	m.Fits = types.BoolValue(len(misfits) == 0)
	return !diags.HasError()
}

func (r *nodeGroupResource) apply(ctx context.Context, plan tfsdk.Plan, config tfsdk.Config, state *tfsdk.State, diags *diag.Diagnostics) {
	var m, c nodeGroupModel
	diags.Append(plan.Get(ctx, &m)...)
	diags.Append(config.Get(ctx, &c)...)
	if diags.HasError() {
		return
	}
	var ignored diag.Diagnostics
	if !fullyKnown(m.DesiredSize) || !fullyKnown(m.KubeletConfigYAML) {
		m.MinSize, m.MaxSize, m.MaxPods = c.MinSize, c.MaxSize, c.MaxPods
		if !r.plan(ctx, &m, &ignored) {
			diags.Append(ignored.Errors()...)
			if !diags.HasError() {
				diags.AddError("Node Group Not Sized", "The node group's inputs are still unknown at apply; this is a bug in the provider.")
			}
			return
		}
	}
	diags.Append(state.Set(ctx, &m)...)
}

func (r *nodeGroupResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	r.apply(ctx, req.Plan, req.Config, &resp.State, &resp.Diagnostics)
}

func (r *nodeGroupResource) Read(_ context.Context, _ resource.ReadRequest, _ *resource.ReadResponse) {
	// Plan-only: the group's sizing lives in state; there is nothing remote to refresh.
}

func (r *nodeGroupResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	r.apply(ctx, req.Plan, req.Config, &resp.State, &resp.Diagnostics)
}

func (r *nodeGroupResource) Delete(_ context.Context, _ resource.DeleteRequest, _ *resource.DeleteResponse) {
	// Plan-only: removing the resource from state is all there is to do.
}

// workloadName names a workload in a message: `workload "api"`, or "the workload" while its name is unknown.
func workloadName(w workloadModel) string {
	if w.Name.IsNull() || w.Name.IsUnknown() {
		return "the workload"
	}
	return "workload " + field.Quote(w.Name.ValueString())
}
