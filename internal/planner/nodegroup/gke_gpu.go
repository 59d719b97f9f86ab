package nodegroup

import (
	"slices"
	"strconv"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/sizing"
)

// GKEGuestAccelerator is a google_container_node_pool node_config.guest_accelerator block (hashicorp/
// terraform-provider-google google/services/container/node_config.go at 00b984c6: type and count Required;
// gpu_driver_installation_config.gpu_driver_version one of GPU_DRIVER_VERSION_UNSPECIFIED, INSTALLATION_DISABLED,
// DEFAULT, LATEST; gpu_sharing_config's gpu_sharing_strategy and max_shared_clients_per_gpu both Required;
// gpu_partition_size optional). SharingStrategy is "" (and MaxSharedClientsPerGPU 0) without a sharing block.
type GKEGuestAccelerator struct {
	Type                   string
	Count                  int
	GPUDriverVersion       string
	GPUPartitionSize       string
	SharingStrategy        string
	MaxSharedClientsPerGPU int
}

// gkeGPUDriverVersion is the driver GKE installs on a kubefit GPU pool: DEFAULT, "'Default' GPU driver in COS and
// Ubuntu" (the GKE API's GPUDriverInstallationConfig.GPUDriverVersion; LATEST is "'Latest' GPU driver in COS" only,
// and without the block the API's unspecified value is "to not install any GPU driver"). GKE's "Run GPUs in GKE
// Standard node pools" installs drivers through this setting; until a driver runs, the node advertises no
// nvidia.com/gpu.
const gkeGPUDriverVersion = "DEFAULT"

// gkeGuestAccelerator is the accelerator block of a GKE group whose machine type has whole GPUs (nil otherwise):
// the series' accelerator type and the catalog's GPU count, GKE's default driver installed, and the group's GPU
// sharing. Every GCP catalog row with GPUs has a known accelerator type (TestGKEAcceleratorOfEveryGPURow).
func gkeGuestAccelerator(req Request, r *Result) *GKEGuestAccelerator {
	t := r.Pool.Instance
	acc := t.GKEAccelerator()
	if acc == "" {
		return nil
	}
	g := &GKEGuestAccelerator{Type: acc, Count: t.GPUCount, GPUDriverVersion: gkeGPUDriverVersion, GPUPartitionSize: req.GPUSharing.PartitionSize}
	if s := req.GPUSharing; s.Strategy != "" {
		g.SharingStrategy, g.MaxSharedClientsPerGPU = sizing.GKESharingStrategyAPI[s.Strategy], s.MaxSharedClients
	}
	return g
}

// gpuSharingFields maps the sizing pool's GPU sharing labels to the group's GPUSharing fields (prefixPool).
var gpuSharingFields = map[string]string{
	field.NewPath("Labels").Key(sizing.GKEGPUSharingStrategyLabel).String(): "Strategy",
	field.NewPath("Labels").Key(sizing.GKEMaxSharedClientsLabel).String():   "MaxSharedClients",
	field.NewPath("Labels").Key(sizing.GKEGPUPartitionSizeLabel).String():   "PartitionSize",
}

// gpuSharingErrors refuses a GPU sharing GKE does not take: on another cloud, a strategy GKE has no name for, a
// strategy without its clients (2–48) or clients without a strategy. A partition size the group's GPUs do not take
// is refused by sizing (sizing.GKEGPUsPerNode), which knows the machine type.
func gpuSharingErrors(req Request) field.Errors {
	s := req.GPUSharing
	if s.IsZero() {
		return nil
	}
	at := field.NewPath("GPUSharing")
	if req.Pool.Cloud != catalog.GCP {
		return field.Errors{field.Invalid(at, "", "%s node group %q shares GPUs, which kubefit renders for GKE node pools only; remove the GPU sharing",
			cloudLabel(req.Pool.Cloud), req.Pool.Name)}
	}
	var errs field.Errors
	switch {
	case s.Strategy != "" && !slices.Contains(sizing.GKESharingStrategies, s.Strategy):
		errs = append(errs, field.Invalid(at.Child("Strategy"), s.Strategy, "GPU sharing strategy %s of GCP node group %q is not one GKE has; give %s",
			field.Quote(s.Strategy), req.Pool.Name, field.QuoteList(sizing.GKESharingStrategies)))
	case s.Strategy == "" && s.MaxSharedClients != 0:
		errs = append(errs, field.Invalid(at.Child("MaxSharedClients"), strconv.Itoa(s.MaxSharedClients), "GCP node group %q gives a maximum of shared clients per GPU without a sharing strategy; give one of %s",
			req.Pool.Name, field.QuoteList(sizing.GKESharingStrategies)))
	case s.Strategy != "" && (s.MaxSharedClients < sizing.GKEMinSharedClients || s.MaxSharedClients > sizing.GKEMaxSharedClients):
		errs = append(errs, field.Invalid(at.Child("MaxSharedClients"), strconv.Itoa(s.MaxSharedClients), "GCP node group %q shares each GPU among %d clients, and GKE takes %d to %d; give a number within that",
			req.Pool.Name, s.MaxSharedClients, sizing.GKEMinSharedClients, sizing.GKEMaxSharedClients))
	}
	return errs
}
