package catalog

import "strings"

// gkeAccelerators are the accelerator types of GCP's GPU machine series, by the prefix of the machine type's name, as
// GKE's guest_accelerator and its cloud.google.com/gke-accelerator node label name them: GoogleCloudPlatform/
// cluster-toolkit modules/compute/gke-node-pool/gpu_definition.tf at 19416ae5 (a2-highgpu and a2-megagpu
// nvidia-tesla-a100, a2-ultragpu nvidia-a100-80gb, a3-highgpu nvidia-h100-80gb, g2-standard nvidia-l4, with the
// counts the catalog has); GKE's "Run GPUs in GKE Standard node pools" (A3 Mega: "NVIDIA H100 80GB Mega GPUs
// (corresponding to the nvidia-h100-mega-80gb accelerator type and A3 Mega machine type)"); G4's NVIDIA RTX PRO 6000
// is nvidia-rtx-pro-6000 (GoogleCloudPlatform/container-engine-accelerators partition_gpu/partition_gpu.go at
// 09e2ab1a, NvidiaRtxPro6000).
var gkeAccelerators = []struct{ prefix, accelerator string }{
	{"a2-highgpu-", "nvidia-tesla-a100"}, {"a2-megagpu-", "nvidia-tesla-a100"}, {"a2-ultragpu-", "nvidia-a100-80gb"},
	{"a3-highgpu-", "nvidia-h100-80gb"}, {"a3-megagpu-", "nvidia-h100-mega-80gb"},
	{"g2-standard-", "nvidia-l4"}, {"g4-standard-", "nvidia-rtx-pro-6000"},
}

// GKEAccelerator is the GKE accelerator type of a GCP machine type's whole GPUs (gkeAccelerators); "" when the row
// has none (other series, and g4's fractional sizes, which the catalog counts 0 GPUs).
func (t InstanceType) GKEAccelerator() string {
	if t.Cloud != GCP || t.GPUCount == 0 {
		return ""
	}
	for _, a := range gkeAccelerators {
		if strings.HasPrefix(t.Name, a.prefix) {
			return a.accelerator
		}
	}
	return ""
}
