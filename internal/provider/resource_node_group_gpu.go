package provider

import (
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/sizing"
)

// gpuSharingAttribute is kubefit_node_group's gpu_sharing: GKE's GPU time-sharing, MPS and MIG partitions.
func gpuSharingAttribute() schema.SingleNestedAttribute {
	return schema.SingleNestedAttribute{Optional: true, MarkdownDescription: "GCP groups: how the nodes share their GPUs, as GKE does it " +
		"(GKE's \"Time-sharing GPUs\", \"NVIDIA MPS\" and \"Running multi-instance GPUs\"). Each node then offers its GPUs × the MIG partitions " +
		"per GPU × the clients per GPU (or partition) as `nvidia.com/gpu`, which kubefit plans with; `gke_node_pool`'s `guest_accelerator` and " +
		"`gke_module_node_pool` carry the setting, and GKE labels the nodes `cloud.google.com/gke-gpu-sharing-strategy`, " +
		"`cloud.google.com/gke-max-shared-clients-per-gpu` and `cloud.google.com/gke-gpu-partition-size` itself (pods select them; " +
		"the group's `labels` may not set them). A container on a shared node of several GPUs or partitions may not request more than one " +
		"`nvidia.com/gpu` (GKE's device plugin refuses it), which sizing does not check.",
		Attributes: map[string]schema.Attribute{
			"strategy": schema.StringAttribute{Optional: true, MarkdownDescription: "`time-sharing` or `mps` (GKE's node label values; the node pool gets `TIME_SHARING` or `MPS`). Needs `max_shared_clients_per_gpu`.",
				Validators: []validator.String{stringvalidator.OneOf(sizing.GKESharingStrategies...)}},
			"max_shared_clients_per_gpu": schema.Int64Attribute{Optional: true, MarkdownDescription: "Containers sharing each GPU, or each MIG partition: 2 to 48.",
				Validators: []validator.Int64{int64validator.Between(sizing.GKEMinSharedClients, sizing.GKEMaxSharedClients)}},
			"partition_size": schema.StringAttribute{Optional: true, MarkdownDescription: "MIG partition size, one GKE's partitioner makes on the machine type's GPU: " +
				"A100 40GB (A2 highgpu, megagpu) `1g.5gb` (7 per GPU), `2g.10gb` (3), `3g.20gb` (2), `4g.20gb`, `7g.40gb` (1); A100 80GB (A2 ultragpu) " +
				"`1g.10gb` (7), `2g.20gb` (3), `3g.40gb` (2), `4g.40gb`, `7g.80gb` (1); H100 80GB (A3 High) `1g.10gb` (7), `1g.20gb` (4), `2g.20gb` (3), " +
				"`3g.40gb` (2), `4g.40gb`, `7g.80gb` (1); RTX PRO 6000 (G4) `1g.24gb` (4), `2g.48gb` (2), `4g.96gb` (1) " +
				"(GoogleCloudPlatform/container-engine-accelerators `partition_gpu/partition_gpu.go`). Refused on other GPUs, A3 Mega's included."},
		}}
}

// expandGPUSharing converts gpu_sharing (null: no sharing).
func expandGPUSharing(o types.Object) sizing.GPUSharing {
	if o.IsNull() || o.IsUnknown() {
		return sizing.GPUSharing{}
	}
	a := o.Attributes()
	var s sizing.GPUSharing
	if v, ok := a["strategy"].(types.String); ok {
		s.Strategy = v.ValueString()
	}
	if v, ok := a["max_shared_clients_per_gpu"].(types.Int64); ok {
		s.MaxSharedClients = int(v.ValueInt64())
	}
	if v, ok := a["partition_size"].(types.String); ok {
		s.PartitionSize = v.ValueString()
	}
	return s
}
