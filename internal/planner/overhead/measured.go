package overhead

// Outcomes of the model on a measured node, as TestMeasuredNodes finds them.
const (
	// OutcomeExact: the model gives the node's allocatable CPU, memory and pods exactly.
	OutcomeExact = "exact"
	// OutcomeConservative: the model gives less allocatable than the node reports, by at most 1 % per resource.
	OutcomeConservative = "conservative"
)

// MeasuredNode is a real node's kubelet report from a public source: what backs a scope's evidence. The golden
// test (TestMeasuredNodes) computes each from its instance type, profile, version and measured capacity and
// checks the recorded Outcome; no node may be optimistic (more allocatable planned than the node has).
type MeasuredNode struct {
	Source string // URL of the post, issue comment or page that printed the node
	Date   string // of the post (YYYY-MM or YYYY-MM-DD)
	Scope  string // the evidence scope it backs; the test checks Compute lands in it
	Cloud  string // aws, azure, gcp
	// Instance is the catalog name; Profile, KubernetesVersion, Kind, PrefixDelegation and MaxPods the node's
	// configuration as the source shows it (KubernetesVersion is the version whose rules apply when the
	// source's own version is older than what kubefit plans; Note says so).
	Instance          string
	Profile           Profile
	KubernetesVersion string
	Kind              NodeGroupKind
	PrefixDelegation  bool
	MaxPods           int64
	// KubeReservedCPU is the kube-reserved CPU read from the node's kubelet flags, when the source shows an
	// older rule than the one kubefit plans (the 2019 AKS nodes); 0 = not given.
	KubeReservedCPU int64
	// Capacity and Allocatable as the kubelet reported them: CPU in millicores, memory in KiB, pods.
	CapacityCPU, CapacityMemoryKi, CapacityPods          int64
	AllocatableCPU, AllocatableMemoryKi, AllocatablePods int64
	Outcome                                              string
	Note                                                 string
}

// MeasuredNodes are the public measured nodes the model is checked on, by cloud and scope.
var MeasuredNodes = []MeasuredNode{
	{Source: "https://github.com/StianOvrevage/stian.tech/blob/master/_posts/2019-06-04-downscaling-aks.md", Date: "2019-06-04",
		Scope: "aks-linux, Kubernetes before 1.29", Cloud: "azure", Instance: "Standard_DS1_v2", Profile: AKSLinux, KubernetesVersion: "1.14", MaxPods: 110, KubeReservedCPU: 60,
		CapacityCPU: 1000, CapacityMemoryKi: 3500452, CapacityPods: 110, AllocatableCPU: 940, AllocatableMemoryKi: 1814948, AllocatablePods: 110,
		Outcome: OutcomeExact, Note: "kubelet flags --kube-reserved=cpu=60m,memory=896Mi, --eviction-hard=memory.available<750Mi, --max-pods=110 read on the node (overhead.md §12.5); the version is not given (June 2019: 1.14 or older), so the CPU is the node's own; memory modelled"},
	{Source: "https://github.com/StianOvrevage/stian.tech/blob/master/_posts/2019-06-04-downscaling-aks.md", Date: "2019-06-04",
		Scope: "aks-linux, Kubernetes before 1.29", Cloud: "azure", Instance: "Standard_DS2_v2", Profile: AKSLinux, KubernetesVersion: "1.14", MaxPods: 110, KubeReservedCPU: 69,
		CapacityCPU: 2000, CapacityMemoryKi: 7113160, CapacityPods: 110, AllocatableCPU: 1931, AllocatableMemoryKi: 4667848, AllocatablePods: 110,
		Outcome: OutcomeExact, Note: "memory exact by the pre-1.29 tiers; CPU from the node's kubelet flag (69m, the rule of nodes created before September 2019, overhead.md §11.2)"},
	{Source: "https://github.com/ezequielramos/kubernetes-cluster-mock/blob/063683521cc89cb0e9c93f95e51139d5fa59591f/app/routes/v1/nodes.py", Date: "2020-03",
		Scope: "aks-linux, Kubernetes before 1.29", Cloud: "azure", Instance: "Standard_F2s_v2", Profile: AKSLinux, KubernetesVersion: "1.14", MaxPods: 100, KubeReservedCPU: 100,
		CapacityCPU: 2000, CapacityMemoryKi: 4017252, CapacityPods: 100, AllocatableCPU: 1900, AllocatableMemoryKi: 2200676, AllocatablePods: 100,
		Outcome: OutcomeExact, Note: "a recorded node object: AKS 1.14.8, node image AKSUbuntu-1604-2020.03.05; its 100m CPU is Microsoft's table (the node's own figure is given, as kubefit asks for 1.14); memory modelled"},
	{Source: "https://github.com/edgexr/edge-cloud-platform/blob/eb39b06ec33c36db65f09338cf0eb5574e4c11a7/pkg/k8smgmt/cluster_test.go", Date: "2021-07-18",
		Scope: "aks-linux, Kubernetes before 1.29", Cloud: "azure", Instance: "Standard_D2s_v3", Profile: AKSLinux, KubernetesVersion: "1.18", MaxPods: 110,
		CapacityCPU: 2000, CapacityMemoryKi: 8152800, CapacityPods: 110, AllocatableCPU: 1900, AllocatableMemoryKi: 5497568, AllocatablePods: 110,
		Outcome: OutcomeExact, Note: "a recorded node object: AKS 1.18.19, AKSUbuntu-1804gen2-2021.06.12, kubenet (110 pods)"},
	{Source: "https://github.com/Azure/AKS/issues/3525", Date: "2023-04-24",
		Scope: "aks-linux, Kubernetes before 1.29", Cloud: "azure", Instance: "Standard_F2s_v2", Profile: AKSLinux, KubernetesVersion: "1.26", MaxPods: 110,
		CapacityCPU: 2000, CapacityMemoryKi: 4025836, CapacityPods: 110, AllocatableCPU: 1900, AllocatableMemoryKi: 2209260, AllocatablePods: 110,
		Outcome: OutcomeExact, Note: "comment by FlorentATo; the version is not given, but every AKS version of April 2023 was before 1.29 (evaluated as 1.26)"},
	{Source: "https://github.com/ameideio/ameide-backlog/blob/2386f15614ab6621d28821d7bc0bd1a9badaaeaf/682-aks-capacity-reservation-snapshot.md", Date: "2026-01-15",
		Scope: "aks-linux, Kubernetes 1.30 and later", Cloud: "azure", Instance: "Standard_B8ms", Profile: AKSLinux, KubernetesVersion: "1.32", MaxPods: 110,
		CapacityCPU: 8000, CapacityMemoryKi: 32859916, CapacityPods: 110, AllocatableCPU: 7820, AllocatableMemoryKi: 30453516, AllocatablePods: 110,
		Outcome: OutcomeExact, Note: "kubectl describe node of vmss000005 in a system pool, AKS v1.32.7, Ubuntu 22.04, 110 pods: 20 MiB × 110 + 50 MiB kube-reserved and 100Mi eviction"},
	{Source: "https://github.com/ameideio/ameide-backlog/blob/2386f15614ab6621d28821d7bc0bd1a9badaaeaf/682-aks-capacity-reservation-snapshot.md", Date: "2026-01-15",
		Scope: "aks-linux, Kubernetes 1.30 and later", Cloud: "azure", Instance: "Standard_B8ms", Profile: AKSLinux, KubernetesVersion: "1.32", MaxPods: 110,
		CapacityCPU: 8000, CapacityMemoryKi: 32864156, CapacityPods: 110, AllocatableCPU: 7820, AllocatableMemoryKi: 30457756, AllocatablePods: 110,
		Outcome: OutcomeExact, Note: "kubectl describe node of vmss000007 in a system pool, AKS v1.32.7, Ubuntu 22.04, 110 pods: 20 MiB × 110 + 50 MiB kube-reserved and 100Mi eviction"},
	{Source: "https://github.com/ameideio/ameide-backlog/blob/2386f15614ab6621d28821d7bc0bd1a9badaaeaf/682-aks-capacity-reservation-snapshot.md", Date: "2026-01-15",
		Scope: "aks-linux, Kubernetes 1.30 and later", Cloud: "azure", Instance: "Standard_B8ms", Profile: AKSLinux, KubernetesVersion: "1.32", MaxPods: 110,
		CapacityCPU: 8000, CapacityMemoryKi: 32864152, CapacityPods: 110, AllocatableCPU: 7820, AllocatableMemoryKi: 30457752, AllocatablePods: 110,
		Outcome: OutcomeExact, Note: "kubectl describe node of vmss000008 in a system pool, AKS v1.32.7, Ubuntu 22.04, 110 pods: 20 MiB × 110 + 50 MiB kube-reserved and 100Mi eviction"},
	{Source: "https://github.com/RamyMaarouf/CST8915/blob/869a6f62a02304edfda66997d0f46fac89febda3/Lab_6/testTested%20the%20kubectl%20commands.txt", Date: "2025-10-30",
		Scope: "aks-linux, Kubernetes 1.30 and later", Cloud: "azure", Instance: "Standard_D2as_v4", Profile: AKSLinux, KubernetesVersion: "1.32", MaxPods: 110,
		CapacityCPU: 2000, CapacityMemoryKi: 8129936, CapacityPods: 110, AllocatableCPU: 1900, AllocatableMemoryKi: 5930384, AllocatablePods: 110,
		Outcome: OutcomeExact, Note: "kubectl describe node, AKS v1.32.7, AKSUbuntu-2204gen2containerd-202510.03.1, 110 pods: the per-pod rule reaches the 25 % cap (20 MiB × 110 + 50 MiB = 2,250 MiB > 2,048 MiB, a quarter of the nominal 8 GiB), plus 100Mi eviction"},
	{Source: "https://github.com/VijayRod/demo/blob/9c487b61aa044b6c86964480c9bf8eb0d832b899/container-storage/logs/vm-sku-sgx_aks.md", Date: "2025-06-18",
		Scope: "aks-linux, Kubernetes 1.30 and later", Cloud: "azure", Instance: "Standard_DC4s_v3", Profile: AKSLinux, KubernetesVersion: "1.31", MaxPods: 250,
		CapacityCPU: 4000, CapacityMemoryKi: 32864252, CapacityPods: 250, AllocatableCPU: 3860, AllocatableMemoryKi: 27590652, AllocatablePods: 250,
		Outcome: OutcomeExact, Note: "node image 202506.03.0, 250 pods; the version is not shown (a cluster created with the default version of June 2025, 1.29 or later): the 5,150 MiB gap is the per-pod rule (20 MiB × 250 + 50 MiB + 100Mi), where the older rule would give 4,395 MiB"},
	{Source: "https://github.com/marosset/aks-windows-gpu-acceleration/blob/0031a3efd9d7973c9a13d12f2828b1db16f07a38/test_scenarios/directx_sample_with_aks.md", Date: "2023-02-03",
		Scope: "aks-windows, Kubernetes before 1.29", Cloud: "azure", Instance: "Standard_NC4as_T4_v3", Profile: AKSWindows, KubernetesVersion: "1.25", MaxPods: 30,
		CapacityCPU: 4000, CapacityMemoryKi: 29359668, CapacityPods: 30, AllocatableCPU: 3860, AllocatableMemoryKi: 23781940, AllocatablePods: 30,
		Outcome: OutcomeExact, Note: "AKS 1.25.4, Windows Server 2019 (os-sku Windows2019), Azure CNI: the pre-1.29 tiers plus 2 GiB system-reserved, no eviction threshold"},
	{Source: "https://github.com/hectorproko/PERSISTING-DATA-IN-KUBERNETES/blob/00dfac7b4b490c47bc20a7e76978d2c02bb6b18f/Project23_Steps.md", Date: "2022-08-11",
		Scope: "eks-al2, ENI max pods", Cloud: "aws", Instance: "t3.medium", Profile: EKSAL2, KubernetesVersion: "1.22", Kind: Managed,
		CapacityCPU: 2000, CapacityMemoryKi: 3967476, CapacityPods: 17, AllocatableCPU: 1930, AllocatableMemoryKi: 3412468, AllocatablePods: 17,
		Outcome: OutcomeExact, Note: "kubectl describe nodes of a managed node group (Amazon Linux 2, kubelet v1.22.9-eks-810597c)"},
	{Source: "https://github.com/sudhanshuvlog/K8s-MERN-App-Deployment/blob/eb0952f84f8e6ac0e72de935a4a332eae3f2e11c/CommandHistory-EKS-Day2-hpa-vpa.sh", Date: "2026-01-17",
		Scope: "eks-al2023, ENI max pods", Cloud: "aws", Instance: "t3.medium", Profile: EKSAL2023, KubernetesVersion: "1.32", Kind: Managed,
		CapacityCPU: 2000, CapacityMemoryKi: 3931728, CapacityPods: 17, AllocatableCPU: 1930, AllocatableMemoryKi: 3376720, AllocatablePods: 17,
		Outcome: OutcomeExact, Note: "kubectl describe node (Amazon Linux 2023.10.20260105, kubelet v1.32.9-eks-ecaa3a6); node-group kind not shown, managed and self-managed give the same figures here"},
	{Source: "https://github.com/aws/aws-k8s-tester/pull/471", Date: "2024-08-29",
		Scope: "eks-bottlerocket, ENI max pods", Cloud: "aws", Instance: "g5.8xlarge", Profile: EKSBottlerocket, KubernetesVersion: "1.29", Kind: SelfManaged,
		CapacityCPU: 32000, CapacityMemoryKi: 130461372, CapacityPods: 234, AllocatableCPU: 31850, AllocatableMemoryKi: 127462076, AllocatablePods: 234,
		Outcome: OutcomeExact, Note: "kubetest2 eksapi, self-managed Bottlerocket node with EFA, 1 GPU"},
	{Source: "https://github.com/aws-samples/appmod-blueprints/pull/235", Date: "2025-04-26",
		Scope: "eks auto mode", Cloud: "aws", Instance: "m5.2xlarge", Profile: EKSAL2023, KubernetesVersion: "1.32", Kind: AutoMode,
		CapacityCPU: 8000, CapacityMemoryKi: 32113508, CapacityPods: 56, AllocatableCPU: 7760, AllocatableMemoryKi: 31042404, AllocatablePods: 56,
		Outcome: OutcomeExact, Note: "Bottlerocket (EKS Auto) 2025.4.19, kubelet v1.32.2-eks-677bac1: the node Auto Mode's reservation is calibrated on (240m CPU, 1,046 MiB)"},
	{Source: "https://github.com/CollegeBoreal/INF1087-200-20H-02/blob/776d34a390895a64f611ad07d1def265e61fb21c/4.Kubernetes/300107361/README.md", Date: "2020-04-13",
		Scope: "gke-standard, shared-core N1 (f1-micro, g1-small)", Cloud: "gcp", Instance: "f1-micro", Profile: GKEStandard, KubernetesVersion: "1.14",
		CapacityCPU: 1000, CapacityMemoryKi: 600420, CapacityPods: 110, AllocatableCPU: 940, AllocatableMemoryKi: 236900, AllocatablePods: 110,
		Outcome: OutcomeExact, Note: "GKE 1.14.10, COS: 60m CPU (the tiers on one vCPU), 255Mi + 100Mi memory"},
	{Source: "https://github.com/CollegeBoreal/INF1087-200-20H-02/blob/776d34a390895a64f611ad07d1def265e61fb21c/4.Kubernetes/300112017/README.md", Date: "2020-04-09",
		Scope: "gke-standard, shared-core N1 (f1-micro, g1-small)", Cloud: "gcp", Instance: "f1-micro", Profile: GKEStandard, KubernetesVersion: "1.14",
		CapacityCPU: 1000, CapacityMemoryKi: 600420, CapacityPods: 110, AllocatableCPU: 940, AllocatableMemoryKi: 236900, AllocatablePods: 110,
		Outcome: OutcomeExact, Note: "another cluster of the same course, GKE 1.14.10, COS"},
	{Source: "https://github.com/ahmedamsoliman-1/Tenderd-DevOps-Assignement-Infra-3/blob/98890a0a3362336c2ed500034ec6826db9bb1988/README.md", Date: "2024-07-23",
		Scope: "gke-standard, shared-core E2", Cloud: "gcp", Instance: "e2-small", Profile: GKEStandard, KubernetesVersion: "1.29",
		CapacityCPU: 2000, CapacityMemoryKi: 2024160, CapacityPods: 110, AllocatableCPU: 940, AllocatableMemoryKi: 1397472, AllocatablePods: 110,
		Outcome: OutcomeExact, Note: "GKE 1.29.6-gke.1038001, COS, private node"},
	{Source: "https://github.com/keepinmindsh/lines_kubernetes/blob/56553fb591c3e67804a65814f70de70d41c9517d/archive/005_BasicKubernetes/001/README.md", Date: "2022-12-04",
		Scope: "gke-standard, shared-core E2", Cloud: "gcp", Instance: "e2-medium", Profile: GKEStandard, KubernetesVersion: "1.23",
		CapacityCPU: 2000, CapacityMemoryKi: 4025932, CapacityPods: 110, AllocatableCPU: 940, AllocatableMemoryKi: 2880076, AllocatablePods: 110,
		Outcome: OutcomeExact, Note: "GKE 1.23.12-gke.100, COS"},
	{Source: "https://github.com/nais/fasit/blob/0a9a0fb91f736ea594bd059ec9eb4863cceb5510/cmd/naisd/local/kubernetes_client.go", Date: "2022-03-28",
		Scope: "gke-standard, E2", Cloud: "gcp", Instance: "e2-standard-2", Profile: GKEStandard, KubernetesVersion: "1.21", MaxPods: 32,
		CapacityCPU: 2000, CapacityMemoryKi: 8152028, CapacityPods: 32, AllocatableCPU: 1930, AllocatableMemoryKi: 6186972, AllocatablePods: 32,
		Outcome: OutcomeExact, Note: "a recorded node object, GKE 1.21.9-gke.1002, COS, 32 pods; by its gk3- name and nap- pool an Autopilot node, which GKE Standard's rules reproduce"},
	{Source: "https://github.com/camunda/zeebe-chaos/blob/cf72bb3a4a1a40e6db4d60d556d411c28e61f63f/chaos-days/blog/2026-10-08-REST-Performance-validating-with-k6/index.md", Date: "2026-10-08",
		Scope: "gke-standard, N2", Cloud: "gcp", Instance: "n2-standard-4", Profile: GKEStandard, KubernetesVersion: "1.36", MaxPods: 22,
		CapacityCPU: 4000, CapacityMemoryKi: 16380004, CapacityPods: 22, AllocatableCPU: 3920, AllocatableMemoryKi: 13591652, AllocatablePods: 22,
		Outcome: OutcomeExact, Note: "k describe node of a Spot n2-standard-4 node, GKE v1.36.3-gke.1767000, COS, 22 pods: the CPU tiers and the regressive memory tiers plus 100Mi eviction; allocatable ephemeral storage 47060071478 of 98831908Ki on the 100 GB disk, exact too"},
}
