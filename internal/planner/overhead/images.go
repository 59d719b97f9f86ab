package overhead

import (
	"strings"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
)

// imageErrors refuses a profile on an instance type for which the platform publishes no node image, so that
// no object plans Windows nodes with figures of an image that cannot run there: EKS has no Windows AMI type
// for Arm (aws-sdk-go-v2 service/eks/types AMITypes: WINDOWS_* are x86_64 only) nor with GPU or Neuron
// drivers, and AKS Windows node pools do not run Arm64 VM sizes ("Arm64 VMs are not supported for Windows
// node pools", AKS's Arm64 node pool documentation). The instance type is at fault: the profile is the
// cluster's.
func imageErrors(in *Input) field.Errors {
	inst := in.Instance
	arm := inst.Architecture == catalog.ArchARM64
	accel := ""
	switch {
	case strings.HasPrefix(inst.Family, "inf") || strings.HasPrefix(inst.Family, "trn"):
		accel = "AWS Neuron accelerators (Inferentia, Trainium)"
	case inst.GPU > 0:
		accel = "GPUs"
	}
	bad := func(format string, args ...any) field.Errors {
		return field.Errors{field.Invalid(field.NewPath("Instance"), inst.Name, format, args...)}
	}
	switch {
	case in.Profile == EKSWindows && arm:
		return bad("instance type %s is Arm (arm64), and EKS has no Windows AMI for Arm; choose an x86_64 type for Windows nodes, or a Linux profile", field.Quote(inst.Name))
	case in.Profile == EKSWindows && accel != "":
		return bad("instance type %s has %s, and EKS has no Windows AMI type with their drivers; choose a type without accelerators for Windows nodes, or a Linux profile", field.Quote(inst.Name), accel)
	case in.Profile == AKSWindows && arm:
		return bad("instance type %s is Arm (arm64), and AKS Windows node pools do not run Arm64 VM sizes; choose an x86_64 size for Windows nodes, or the aks-linux profile", field.Quote(inst.Name))
	case in.Profile == AKSWindows && in.AKS.NetworkPlugin == Kubenet:
		// "Azure CNI is a prerequisite for some Azure Kubernetes Service features, including Azure network policies,
		// Windows node pools and virtual nodes add-on" (Azure/azure-policy AKS_EnableCNI.json; the AKS Windows FAQ).
		return field.Errors{field.Invalid(field.NewPath("AKS", "NetworkPlugin"), string(Kubenet),
			"AKS runs Windows node pools only with Azure CNI, not kubenet; give an Azure CNI network plugin (%s), or the aks-linux profile",
			field.QuoteList([]string{string(AzureCNIOverlay), string(AzureCNIPodSubnet), string(AzureCNINodeSubnet)}))}
	}
	return nil
}
