package overhead

// Formula identifiers. They are stable: tests, docs and users refer to them.
const (
	FCapacityMeasured    = "capacity.measured"
	FCapacityVMOverhead  = "capacity.vm-overhead"
	FCapacityCustom      = "capacity.custom"
	FAllocatableMeasured = "allocatable.measured"
	FCPUTiered           = "cpu.tiered"
	FCPUAKSBracketed     = "cpu.aks-bracketed"
	FCPUGKESharedCore    = "cpu.gke-shared-core"
	FCPUGKESharedCoreN1  = "cpu.gke-shared-core-n1"
	FMemoryEKSPerPod     = "memory.eks-per-pod"
	FMemoryAKSRegressive = "memory.aks-regressive"
	FMemoryAKSPerPod     = "memory.aks-per-pod"
	FMemoryGKERegressive = "memory.gke-regressive"
	FSystemAKSWindows    = "system.aks-windows"
	FSystemNone          = "system.none"
	FSystemEKSAutoMode   = "system.eks-auto-mode-measured"
	FEvictionMemory      = "eviction.memory"
	FEvictionNodefs      = "eviction.nodefs"
	FEvictionAKSWindows  = "eviction.aks-windows-none"
	FEphemeralEKS        = "ephemeral.eks-kube-reserved"
	FEphemeralGKEDisk    = "ephemeral.gke-disk"
	FEphemeralNone       = "ephemeral.none"
	FEphemeralFilesystem = "ephemeral.filesystem"
	FMaxPodsENI          = "maxpods.eks-eni"
	FMaxPodsPD           = "maxpods.eks-prefix-delegation"
	FMaxPodsMNGCap       = "maxpods.eks-mng-cap"
	FMaxPodsMNGEnforced  = "maxpods.eks-mng-enforced"
	FMaxPodsAutoModeCap  = "maxpods.eks-auto-mode-cap"
	FMaxPodsAutoMode     = "maxpods.eks-auto-mode"
	FMaxPodsEKSWindows   = "maxpods.eks-windows"
	FMaxPodsAKS          = "maxpods.aks-plugin-default"
	FMaxPodsGKE          = "maxpods.gke"
	FMaxPodsKubelet      = "maxpods.kubelet-default"
	FOverrideUser        = "override.user"
	FDaemonSetRequests   = "daemonset.requests"
	FDaemonSetPlatform   = "daemonset.platform"
)

// Formulas maps every formula identifier to the public sources it comes from.
var Formulas = map[string]string{
	FCapacityMeasured:    "user input (kubelet-reported node.status.capacity)",
	FCapacityVMOverhead:  "aws/karpenter-provider-aws:pkg/providers/instancetype/types.go; pkg/operator/options/options.go (VM_MEMORY_OVERHEAD_PERCENT, default 7.5 %, minus 64 MiB on arm64)",
	FAllocatableMeasured: "user input (kubelet-reported node.status.allocatable of a real node; wins over every model, and its pods set max pods)",
	FCapacityCustom:      "user input (the custom profile's vCPUs and nominal memory), with the VM-overhead model of capacity.vm-overhead",
	FCPUTiered:           "awslabs/amazon-eks-ami:nodeadm/internal/kubelet/config.go; templates/al2/runtime/bootstrap.sh @ 0ab84280; https://cloud.google.com/kubernetes-engine/docs/concepts/plan-node-sizes",
	FCPUAKSBracketed:     "https://learn.microsoft.com/azure/aks/node-resource-reservations; Azure/karpenter-provider-azure:pkg/providers/instancetype/instancetype.go",
	FCPUGKESharedCore:    "GKE plan-node-sizes (1060m on shared-core E2), via https://learnk8s.io/allocatable-resources and cloudpilot-ai/karpenter-provider-gcp:pkg/utils/utils.go",
	FCPUGKESharedCoreN1:  "the tiers of cpu.tiered on one vCPU (60m) for the legacy shared-core f1-micro and g1-small, which GKE's plan-node-sizes does not single out as it does shared-core E2; exact on measured GKE 1.14.10 f1-micro nodes (60m CPU, 255Mi + 100Mi memory): https://github.com/CollegeBoreal/INF1087-200-20H-02 (4.Kubernetes/300107361/README.md, 2020-04)",
	FMemoryEKSPerPod:     "awslabs/amazon-eks-ami:nodeadm/internal/kubelet/config.go; bootstrap.sh; bottlerocket-os/bottlerocket kube_reserve_memory; aws/karpenter-provider-aws types.go and amifamily/{al2023,bottlerocket,windows}.go",
	FMemoryAKSRegressive: "https://learn.microsoft.com/azure/aks/node-resource-reservations (rules before 1.29); Azure/karpenter-provider-azure instancetype.go and suite_test.go",
	FMemoryAKSPerPod:     "https://learn.microsoft.com/azure/aks/node-resource-reservations (1.29 and later); Azure/AKS#4019, #4174; Azure/karpenter-provider-azure PR #1919",
	FMemoryGKERegressive: "https://cloud.google.com/kubernetes-engine/docs/concepts/plan-node-sizes (25/20/10/6/2 % of nominal memory, the documented GB read as 1,000 MiB, floored; 255 MiB below 1 GiB); it gives the 1,736 MiB kube-reserved memory of the n1-standard-2 kubelet configuration shown in awslabs/amazon-eks-ami#318 (a configuration, not a measured allocatable; the measured nodes are in measured.go)",
	FSystemAKSWindows:    "https://learn.microsoft.com/azure/aks/node-resource-reservations (2 GB for Windows system processes)",
	FSystemNone:          "profile default: no system-reserved quantities",
	FSystemEKSAutoMode:   "measured EKS Auto Mode m5.2xlarge node (kubectl describe node: 240m CPU and 1,046 MiB between capacity and allocatable, 56 max pods); AWS publishes no Auto Mode reservation rule (https://docs.aws.amazon.com/eks/latest/userguide/automode.html)",
	FEvictionMemory:      "awslabs/amazon-eks-ami nodeadm config.go (defaultKubeletSubConfig); AKS node-resource-reservations page; GKE plan-node-sizes",
	FEvictionNodefs:      "as eviction.memory, plus aws/karpenter-provider-aws types.go (evictionThreshold)",
	FEvictionAKSWindows:  "measured AKS Windows nodes before 1.29: capacity − allocatable is exactly the pre-1.29 kube-reserved memory plus 2,048 MiB, with no memory.available threshold (the AKS page's 750Mi applies to Linux nodes), and allocatable ephemeral storage equals capacity: no nodefs.available threshold either",
	FEphemeralEKS:        "awslabs/amazon-eks-ami nodeadm config.go; bootstrap.sh (1Gi)",
	FEphemeralGKEDisk:    "cloudpilot-ai/karpenter-provider-gcp:pkg/utils/utils.go ResolveReservedEphemeralStorage (secondary source citing GKE plan-node-sizes)",
	FEphemeralNone:       "profile default: no ephemeral-storage kube-reserved",
	FEphemeralFilesystem: "the root/OS disk less what its filesystem leaves out, measured on public kubectl describe node output: EKS 20 and 100 GiB (12,603,392 bytes), AKS 100 and 128 GiB (chunliu.me/2020/06/11/node-allocatable-in-aks; Microsoft's AKS docs example), AKS Windows 128 GiB (chunliu.me), GKE 100 GB (keepinmindsh/lines_kubernetes); overhead.md §4.3",
	FMaxPodsENI:          "aws/amazon-vpc-cni-k8s:pkg/vpc/vpc_ip_resource_limit.go (ENIs × (IPv4 per ENI − 1) + 2); nodeadm eni_max_pods.go",
	FMaxPodsPD:           "awslabs/amazon-eks-ami max-pods-calculator.sh; aws/amazon-vpc-cni-k8s:pkg/awsutils/awsutils.go",
	FMaxPodsMNGCap:       "max-pods-calculator.sh; https://docs.aws.amazon.com/eks/latest/userguide/choosing-instance-type.html",
	FMaxPodsMNGEnforced:  "https://docs.aws.amazon.com/eks/latest/userguide/choosing-instance-type.html#max-pods-precedence: a managed node group without a custom AMI enforces its max pods over any other maxPods configuration, including maxPodsExpression (overhead.md §8.3.1)",
	FMaxPodsAutoModeCap:  "awsdocs/amazon-eks-user-guide:latest/ug/nodes/choosing-instance-type.adoc",
	FMaxPodsAutoMode:     "ENIs × (IPv4 per ENI − 1), without the + 2 of the VPC CNI formula: Auto Mode runs pod networking and kube-proxy on the host (https://docs.aws.amazon.com/eks/latest/userguide/auto-networking.html); a measured Auto Mode m5.2xlarge reports 56",
	FMaxPodsEKSWindows:   "awsdocs/amazon-eks-user-guide windows-support.adoc; aws/karpenter-provider-aws amifamily/windows.go",
	FMaxPodsAKS:          "MicrosoftDocs/azure-aks-docs:articles/aks/concepts-network-ip-address-planning.md",
	FMaxPodsGKE:          "https://cloud.google.com/kubernetes-engine/docs/how-to/flexible-pod-cidr",
	FMaxPodsKubelet:      "kubelet default maxPods (110)",
	FOverrideUser:        "user input",
	FDaemonSetRequests:   "kubernetes-sigs/karpenter scheduler: DaemonSet overhead is subtracted per node and is not part of allocatable",
	FDaemonSetPlatform:   "the platform's system DaemonSets as measured nodes report their requests (overhead.md §9.1, 2026-12): AKS, ameideio/ameide-backlog 682-aks-capacity-reservation-snapshot.md (1.25.6, 1.26.6, 1.30.9 and 1.32.7 nodes); GKE, keepinmindsh/lines_kubernetes archive/005_BasicKubernetes/001/README.md (1.23 e2-medium); EKS, aws/amazon-vpc-cni-k8s config/master/aws-k8s-cni.yaml @ b5218838 (aws-node 50m: 25m in each of its two containers) and ruzickap/ruzickap.github.io _posts/2022/2022-12-24-amazon-eks-karpenter-tests.md (EKS 1.24: kube-proxy 100m)",
	FVolumesEBSShared:    "kubernetes-sigs/aws-ebs-csi-driver:pkg/driver/node.go getVolumesLimit and pkg/cloud/limits/volume_limits_table.go @ 429e202e (v1.64.0+4), with every ENI of the default network card attached (aws/amazon-vpc-cni-k8s docs/eni-and-ip-target.md; aws-ebs-csi-driver#1163, #2153, #2249): volumes.md §2.1, §5.1",
	FVolumesEBSDedicated: "kubernetes-sigs/aws-ebs-csi-driver:pkg/driver/node.go getVolumesLimit and pkg/cloud/limits/volume_limits.go @ 429e202e (v1.64.0+4): a dedicated (or non-Nitro) limit less the root volume; volumes.md §2.1",
	FVolumesGCEPD:        "kubernetes-sigs/gcp-compute-persistent-disk-csi-driver:pkg/gce-pd-csi-driver/node.go getVolumeLimits and pkg/constants/constants.go @ b560165c (v1.26.0+94): volumes.md §3.1",
	FVolumesAzureDisk:    "kubernetes-sigs/azuredisk-csi-driver:pkg/azuredisk/nodeserver.go NodeGetInfo and azure_dd_max_disk_count.go @ d983d613: the VM size's maximum data disks, 16 for a size it does not list; volumes.md §4",
	FVolumesUnknown:      "no rule: the node's disk CSI driver and instance type are not known",
}
