package catalog

import "strings"

// fractionalNVIDIA are the catalog's rows, by the prefix of their name, whose NVIDIA GPU is a fraction of one: AWS
// g6f and gr6f carry part of an NVIDIA L4, which the catalog's sources count as 0 whole GPUs (GPUCount). EKS lists
// both among the instance types of its NVIDIA AMIs (awsdocs/amazon-eks-user-guide latest/ug/ml/ml-eks-optimized-ami.adoc
// at 07d09a00, the "AL2023 x86_64 NVIDIA" and "Bottlerocket x86_64 aws-k8s-nvidia" rows), so their nodes need the
// NVIDIA driver.
var fractionalNVIDIA = []string{"g6f.", "gr6f."}

// FractionalNVIDIA reports whether the row's accelerator is a fraction of an NVIDIA GPU (fractionalNVIDIA): its nodes
// need an image with the NVIDIA driver, although sizing plans them with no whole nvidia.com/gpu (NVIDIAGPUs is 0:
// how many a fractional GPU advertises is not known here, so a pod requesting one is kept off them, the safe side).
func (t InstanceType) FractionalNVIDIA() bool {
	if t.Cloud != AWS {
		return false
	}
	for _, p := range fractionalNVIDIA {
		if strings.HasPrefix(t.Name, p) {
			return true
		}
	}
	return false
}
