package sizing

import (
	"fmt"
	"maps"
	"slices"
	"strconv"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
)

// GKE's GPU sharing: time-sharing, NVIDIA MPS and multi-instance GPUs (MIG) make a GKE node offer more
// nvidia.com/gpu than it has physical GPUs. GKE labels such nodes with the pool's settings, and pods select the
// nodes by those labels ("Time-sharing GPUs on GKE": "GKE then adds node labels that specify the maximum number of
// containers allowed to share each GPU on the node, and the sharing strategy to use",
// cloud.google.com/gke-max-shared-clients-per-gpu and cloud.google.com/gke-gpu-sharing-strategy; "Running
// multi-instance GPUs": cloud.google.com/gke-gpu-partition-size). Sizing reads them from a GKE pool's labels, the
// labels its nodes carry; a node group sets them from its GPU sharing settings.
const (
	GKEGPUSharingStrategyLabel = "cloud.google.com/gke-gpu-sharing-strategy"
	GKEMaxSharedClientsLabel   = "cloud.google.com/gke-max-shared-clients-per-gpu"
	GKEGPUPartitionSizeLabel   = "cloud.google.com/gke-gpu-partition-size"
)

// GKE's GPU sharing strategies as its node label spells them ("time-sharing", "mps") and as the GKE API and
// google_container_node_pool's gpu_sharing_strategy spell them (google.golang.org/api/container/v1
// GPUSharingConfig: TIME_SHARING, MPS).
const (
	GKETimeSharing = "time-sharing"
	GKEMPS         = "mps"
)

// GKESharingStrategies lists the strategies, by their label value.
var GKESharingStrategies = []string{GKETimeSharing, GKEMPS}

// GKESharingStrategyAPI is a strategy's name in the GKE API and google_container_node_pool.
var GKESharingStrategyAPI = map[string]string{GKETimeSharing: "TIME_SHARING", GKEMPS: "MPS"}

// The range of a GKE pool's maximum shared clients per GPU: 2 to 48 (GKE's ComputeClass reference, gpuSharing
// maxSharedClientsPerGPU: "Valid range: 2-48"; the NVIDIA MPS server takes at most 48 clients per GPU).
const (
	GKEMinSharedClients = 2
	GKEMaxSharedClients = 48
)

// GPUSharing is a GKE pool's GPU sharing: a strategy with its maximum clients per GPU (or MIG partition), a MIG
// partition size, or both (time-sharing on MIG partitions). The zero value shares nothing.
type GPUSharing struct {
	Strategy         string // GKETimeSharing or GKEMPS; "" without a strategy
	MaxSharedClients int    // set with a strategy
	PartitionSize    string // a MIG profile such as "1g.5gb"; "" without MIG
}

// IsZero reports whether s shares nothing.
func (s GPUSharing) IsZero() bool { return s == GPUSharing{} }

// Labels are the node labels GKE puts on the nodes of a pool with sharing s.
func (s GPUSharing) Labels() map[string]string {
	l := map[string]string{}
	if s.Strategy != "" {
		l[GKEGPUSharingStrategyLabel] = s.Strategy
		l[GKEMaxSharedClientsLabel] = strconv.Itoa(s.MaxSharedClients)
	}
	if s.PartitionSize != "" {
		l[GKEGPUPartitionSizeLabel] = s.PartitionSize
	}
	return l
}

// gkeMIGPartitions is how many partitions of each size GKE's GPU partitioner makes on one GPU of each accelerator
// type: GoogleCloudPlatform/container-engine-accelerators partition_gpu/partition_gpu.go at 09e2ab1a
// (partitionSizeMaxCount, grouped there by accelerator; its 1g.24gb+gfx has no count and is left out). GKE's
// "Running multi-instance GPUs" lists the A100 (40GB and 80GB) and H100 (80GB) as the GPUs that support MIG; of the
// machine types the catalog has, A3 Mega's nvidia-h100-mega-80gb is not in the partitioner's groups, so it takes
// no partition size here (the safe side: a refusal, not a node that offers other GPUs than planned).
var gkeMIGPartitions = map[string]map[string]int{
	"nvidia-tesla-a100":   {"1g.5gb": 7, "2g.10gb": 3, "3g.20gb": 2, "4g.20gb": 1, "7g.40gb": 1},
	"nvidia-a100-80gb":    {"1g.10gb": 7, "2g.20gb": 3, "3g.40gb": 2, "4g.40gb": 1, "7g.80gb": 1},
	"nvidia-h100-80gb":    {"1g.10gb": 7, "1g.20gb": 4, "2g.20gb": 3, "3g.40gb": 2, "4g.40gb": 1, "7g.80gb": 1},
	"nvidia-rtx-pro-6000": {"1g.24gb": 4, "2g.48gb": 2, "4g.96gb": 1},
}

// GKEGPUSharingFromLabels reads a GKE pool's GPU sharing from its node labels. It reports errors for values GKE
// does not set (a strategy it has no name for, clients outside 2–48, a strategy without clients or clients without
// a strategy), at path (the pool's Labels).
func GKEGPUSharingFromLabels(labels map[string]string, path field.Path, pool string) (GPUSharing, field.Errors) {
	var s GPUSharing
	var errs field.Errors
	strategy, hasStrategy := labels[GKEGPUSharingStrategyLabel]
	clients, hasClients := labels[GKEMaxSharedClientsLabel]
	switch {
	case hasStrategy && !slices.Contains(GKESharingStrategies, strategy):
		errs = append(errs, field.Invalid(path.Key(GKEGPUSharingStrategyLabel), strategy,
			"pool %q: GPU sharing strategy %s is not one GKE has; GKE labels a node %s or %s", pool, field.Quote(strategy), field.Quote(GKETimeSharing), field.Quote(GKEMPS)))
	case hasStrategy != hasClients:
		missing := GKEMaxSharedClientsLabel
		if hasClients {
			missing = GKEGPUSharingStrategyLabel
		}
		errs = append(errs, field.Invalid(path.Key(missing), "", "pool %q: GKE labels a node with GPU sharing with both %s and %s, so the pool needs both to be read as sharing its GPUs; add %s",
			pool, GKEGPUSharingStrategyLabel, GKEMaxSharedClientsLabel, missing))
	case hasStrategy:
		n, err := strconv.Atoi(clients)
		if err != nil || n < GKEMinSharedClients || n > GKEMaxSharedClients {
			errs = append(errs, field.Invalid(path.Key(GKEMaxSharedClientsLabel), clients, "pool %q: GKE shares a GPU among %d to %d clients; give a whole number within that",
				pool, GKEMinSharedClients, GKEMaxSharedClients))
		} else {
			s.Strategy, s.MaxSharedClients = strategy, n
		}
	}
	s.PartitionSize = labels[GKEGPUPartitionSizeLabel]
	return s, errs
}

// GKEGPUsPerNode is the nvidia.com/gpu a node of t offers with sharing s: its GPUs, times the MIG partitions of
// one GPU, times the clients sharing each GPU or partition (the device plugin presents each physical GPU, or MIG
// partition, as that many devices: "The GPU driver presents the physical GPU to the kubelet on your nodes as
// multiple" time-shared GPUs, "Time-sharing GPUs on GKE"; "Each GPU partition appears as a regular GPU resource",
// "Running multi-instance GPUs"). It refuses, at path, a partition size t's GPUs do not take and sharing on a
// machine type without whole GPUs.
func GKEGPUsPerNode(t catalog.InstanceType, s GPUSharing, path field.Path, pool string) (int64, field.Errors) {
	gpus := int64(t.NVIDIAGPUs())
	if s.IsZero() {
		return gpus, nil
	}
	if gpus == 0 {
		at := path.Key(GKEGPUSharingStrategyLabel)
		if s.Strategy == "" {
			at = path.Key(GKEGPUPartitionSizeLabel)
		}
		return 0, field.Errors{field.Invalid(at, t.Name, "pool %q shares GPUs, but a node of %s has no whole NVIDIA GPU to share; remove the GPU sharing or choose a GPU machine type",
			pool, t.Name)}
	}
	per := int64(1)
	if s.PartitionSize != "" {
		acc := t.GKEAccelerator()
		n := gkeMIGPartitions[acc][s.PartitionSize]
		if n == 0 {
			why := fmt.Sprintf("its %s GPUs take none (GKE partitions A100, H100 80GB and RTX PRO 6000 GPUs)", field.Quote(acc))
			if sizes := gkeMIGPartitions[acc]; len(sizes) > 0 {
				why = fmt.Sprintf("its %s GPUs take %s", field.Quote(acc), field.QuoteList(slices.Sorted(maps.Keys(sizes))))
			}
			return 0, field.Errors{field.Invalid(path.Key(GKEGPUPartitionSizeLabel), s.PartitionSize,
				"pool %q: GPU partition size %s is not one GKE makes on %s: %s", pool, field.Quote(s.PartitionSize), t.Name, why)}
		}
		per = int64(n)
	}
	if s.Strategy != "" {
		per *= int64(s.MaxSharedClients)
	}
	return gpus * per, nil
}

// gkeGPUSharingNote says what a shared GKE pool's nodes offer, for the pool's note.
func gkeGPUSharingNote(t catalog.InstanceType, s GPUSharing, perNode int64) string {
	if s.IsZero() || perNode == 0 {
		return ""
	}
	var how []string
	if s.PartitionSize != "" {
		how = append(how, fmt.Sprintf("%d %s MIG partitions per GPU", gkeMIGPartitions[t.GKEAccelerator()][s.PartitionSize], s.PartitionSize))
	}
	if s.Strategy != "" {
		how = append(how, fmt.Sprintf("%d %s clients per GPU%s", s.MaxSharedClients, s.Strategy, map[bool]string{true: " partition", false: ""}[s.PartitionSize != ""]))
	}
	out := fmt.Sprintf("GPU sharing: a node of %s offers %d nvidia.com/gpu (%d GPUs × ", t.Name, perNode, t.NVIDIAGPUs())
	for i, h := range how {
		if i > 0 {
			out += " × "
		}
		out += h
	}
	out += ")"
	if s.Strategy != "" && perNode > 1 {
		// GKE's device plugin refuses a container more than one shared device on a node of several GPUs or
		// partitions (container-engine-accelerators pkg/gpu/nvidia/timesharing ValidateRequest: "at most 1
		// nvidia.com/gpu can be requested on nodes which have more than 1 physical GPU or MIG partitions").
		if t.NVIDIAGPUs() > 1 || s.PartitionSize != "" {
			out += "; a container there may request at most 1 nvidia.com/gpu, which sizing does not check"
		}
	}
	return out
}
