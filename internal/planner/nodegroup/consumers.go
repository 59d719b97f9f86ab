package nodegroup

import (
	"fmt"
	"hash/fnv"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/overhead"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/sizing"
)

// accelerator names the kind of accelerator an AWS instance type carries, which decides its EKS AMI type: ""
// (none, or one EKS has no accelerated AMI for: AMD, Habana, and Kepler GPUs current drivers dropped), "nvidia" (the
// NVIDIA GPUs EKS's accelerated AMIs drive) or "neuron" (AWS Inferentia and Trainium: the inf and trn families).
// The NVIDIA kind is decided by the GPUs' maker, not their count: g6f and gr6f carry a fraction of an NVIDIA L4
// (catalog.InstanceType.FractionalNVIDIA; the catalog counts 0 whole GPUs), and EKS lists them under its NVIDIA AMIs
// (awsdocs/amazon-eks-user-guide latest/ug/ml/ml-eks-optimized-ami.adoc: "AL2023 x86_64 NVIDIA" and "Bottlerocket
// x86_64 aws-k8s-nvidia" rows name g6f and gr6f), whose driver the standard AMI lacks.
func accelerator(t catalog.InstanceType) string {
	switch {
	case strings.HasPrefix(t.Family, "inf") || strings.HasPrefix(t.Family, "trn"):
		return "neuron"
	case t.NVIDIAGPUs() > 0 || t.FractionalNVIDIA():
		return "nvidia"
	}
	return ""
}

func acceleratorText(a string) string {
	switch a {
	case "neuron":
		return "AWS Neuron accelerators (Inferentia, Trainium)"
	case "nvidia":
		return "GPUs"
	}
	return "no accelerator"
}

// lastAL2Minor is the last Kubernetes minor version for which EKS publishes Amazon Linux 2 AMIs: "Amazon EKS
// will not release AL2 AMIs for Kubernetes 1.33 and later" (awsdocs/amazon-eks-user-guide, eks-ami-deprecation-faqs).
const lastAL2Minor = 32

// memberErrors refuses an Azure group's members AKS creates no pool of (catalog.InstanceType.AKSRefuses), and checks that an AWS group's members can share one EKS AMI type, since a managed node group has
// one (aws_eks_node_group's ami_type): the same architecture and the same kind of accelerator as the first
// member. The odd member is named on its own instance_types entry.
func memberErrors(req Request, members []catalog.InstanceType) field.Errors {
	if req.Pool.Cloud == catalog.Azure {
		var errs field.Errors
		for i, m := range members {
			if why := m.AKSRefuses(); why != "" {
				errs = append(errs, field.Invalid(field.NewPath("InstanceTypes").At(i), m.Name, "%s: node group %q would be a new AKS pool, which AKS refuses; choose a size of at least %d vCPUs",
					why, req.Pool.Name, catalog.AKSMinVCPU))
			}
		}
		return errs
	}
	if req.Pool.Cloud != catalog.AWS || len(members) < 2 || karpenterLaunches(req) {
		// A Karpenter or Auto Mode NodePool picks an AMI per node: its members may differ (oneAMI).
		return nil
	}
	group := "an EKS managed node group runs one AMI type"
	if req.Pool.Overhead.EKS.Kind == overhead.SelfManaged {
		group = "a self-managed node group's launch template runs one AMI"
	}
	var errs field.Errors
	for i, m := range members[1:] {
		if why := otherAMI(members[0], m); why != "" {
			errs = append(errs, field.Invalid(field.NewPath("InstanceTypes").At(i+1), m.Name,
				"instance type %s of node group %q %s: %s, so its instance types must share the "+
					"architecture and the kind of accelerator; put %s in a group of its own", field.Quote(m.Name), req.Pool.Name, why, group, field.Quote(m.Name)))
		}
	}
	return errs
}

// otherAMI says why member m needs another EKS AMI type than the group's first member ("" when it does not): another
// architecture or another kind of accelerator.
func otherAMI(first, m catalog.InstanceType) string {
	switch {
	case m.Architecture != first.Architecture:
		return fmt.Sprintf("is %s while %s is %s", m.Architecture, first.Name, first.Architecture)
	case accelerator(m) != accelerator(first):
		return fmt.Sprintf("has %s while %s has %s", acceleratorText(accelerator(m)), first.Name, acceleratorText(accelerator(first)))
	}
	return ""
}

// oneAMI reports whether a group's members can share one EKS AMI type and fit one managed node group: the same
// architecture and kind of accelerator, at most 20 of them (memberErrors, eksInputErrors). A Karpenter or Auto Mode
// group may have members that do not: only its NodePool is rendered then.
func oneAMI(r *Result) bool {
	ms := r.Pool.Members
	if len(ms) > eksMaxInstanceTypes {
		return false
	}
	if len(ms) == 0 {
		return true
	}
	for _, m := range ms[1:] {
		if otherAMI(ms[0], m) != "" {
			return false
		}
	}
	return true
}

// imageErrors refuses the profile × architecture × accelerator × version combinations for which EKS
// publishes no AMI type (aws-sdk-go-v2 service/eks/types AMITypes): AL2 after its last Kubernetes version, and
// AL2 on Arm with accelerators. Windows on Arm or with accelerators is refused by the overhead model
// (overhead.imageErrors), for every object that plans nodes. Bottlerocket on Inferentia and Trainium is not
// refused: its standard variant loads the Neuron driver (amiType).
func imageErrors(req Request, r *Result) field.Errors {
	if req.Pool.Cloud != catalog.AWS {
		return nil
	}
	t := r.Pool.Instance
	arm, acc := t.Architecture == catalog.ArchARM64, accelerator(t)
	prof := r.Pool.Overhead.Profile
	bad := func(p field.Path, v, format string, args ...any) field.Errors {
		return field.Errors{field.Invalid(p, v, format, args...)}
	}
	switch {
	case prof == overhead.EKSAL2 && arm && acc != "":
		return bad(field.NewPath("InstanceTypes").At(0), t.Name, "instance type %s is Arm with %s, and EKS has no AL2 AMI type for that; use the eks-al2023 profile", field.Quote(t.Name), acceleratorText(acc))
	}
	if prof == overhead.EKSAL2 {
		if minor := kubernetesMinor(req.Pool.Overhead.KubernetesVersion); minor > lastAL2Minor {
			return bad(field.NewPath("Overhead", "KubernetesVersion"), req.Pool.Overhead.KubernetesVersion,
				"EKS publishes no Amazon Linux 2 AMI for Kubernetes 1.%d (the last is 1.%d); use the eks-al2023 or eks-bottlerocket profile", minor, lastAL2Minor)
		}
	}
	return nil
}

// kubernetesMinor is the minor version of "1.33" or "v1.33.2"; 0 when empty or unreadable (the overhead model
// reports a malformed version itself).
func kubernetesMinor(v string) int {
	v = strings.TrimPrefix(v, "v")
	major, rest, ok := strings.Cut(v, ".")
	if !ok || major != "1" {
		return 0
	}
	minor, _, _ := strings.Cut(rest, ".")
	n := 0
	for _, c := range minor {
		if c < '0' || c > '9' || n > 1000 {
			return 0
		}
		n = n*10 + int(c-'0')
	}
	return n
}

// AKS rules, from hashicorp/terraform-provider-azurerm internal/services/containers/
// kubernetes_cluster_node_pool_resource.go at 69697b7f (node_count, min_count and max_count are
// validation.IntBetween(0, 1000); name and temporary_name_for_rotation are validate.KubernetesAgentPoolName,
// ^[a-z]{1}[a-z\d]{0,11}$; "A Windows Node Pool cannot have a name longer than 6 characters", and the temporary
// pool is a copy of the pool, Windows included) and MicrosoftDocs/azure-aks-docs at fb060abe (use-labels.md: "The
// following prefixes are AKS reserved prefixes and can't be used for any node: kubernetes.azure.com/,
// kubernetes.io/"; spot-node-pool.md: a Spot pool has the kubernetes.azure.com/scalesetpriority=spot:NoSchedule
// taint and the kubernetes.azure.com/scalesetpriority=spot label, and azurerm's docs say to add both to
// node_taints and node_labels; concepts-network-ip-address-planning.md: maximum pods per node from 10 to 250,
// "strictly enforced by the AKS service"; azurerm itself does not validate max_pods).
const (
	aksMaxCount           = 1000
	aksMaxOSDiskGB        = 2048 // the AKS API's agentPools osDiskSizeGB: maxValue 2048 (Azure/bicep-types-az, Microsoft.ContainerService)
	aksSpotKey            = sizing.AKSSpotLabel
	aksSpotValue          = sizing.AKSSpotValue
	aksPoolNameMax        = 12
	aksWindowsPoolNameMax = 6
	aksMinMaxPods         = 10
	aksMaxMaxPods         = 250
	firstWinServer22      = 23 // AKS runs Windows Server 2022 node pools from Kubernetes 1.23; Windows2019 ends before 1.33
	// lastWinServer22 is the last Kubernetes minor AKS runs Windows Server 2022 on: "Windows Server 2022 is not
	// supported in Kubernetes version 1.37 and above" (Azure/AKS release notes 2026-06-19, CHANGELOG.md, PR #5835,
	// which moved the end from 1.35/1.36; MicrosoftDocs/azure-aks-docs articles/aks/upgrade-windows-os.md @ a75aabed:
	// "Kubernetes version 1.32 to 1.36 where both OS versions are supported"). From 1.37 a Windows pool is
	// Windows2025, which AKS runs from Kubernetes 1.32.0 (the same page: "Windows Server 2025 is supported starting
	// in Kubernetes version 1.32.0").
	lastWinServer22 = 36
)

// GKE's range of maximum pods per node for a Standard node pool: 8 to 256 (GKE's "Configure maximum Pods per
// node", cloud.google.com/kubernetes-engine/docs/how-to/flexible-pod-cidr; the GKE API refuses others, and
// google_container_node_pool's max_pods_per_node passes the value unchecked, e03b7622).
const (
	gkeMinMaxPods = 8
	gkeMaxMaxPods = 256
)

// maxPodsErrors refuses a max_pods the group's consumer refuses: outside 10–250 on AKS (max_pods of
// azurerm_kubernetes_cluster_node_pool) and 8–256 on GKE (max_pods_per_node of google_container_node_pool).
func maxPodsErrors(req Request) field.Errors {
	mp, at, name := req.Pool.Overhead.MaxPods, field.NewPath("MaxPods"), "max_pods"
	if p := req.Pool.Overhead.MeasuredAllocatable.Pods; p != nil && mp == 0 {
		// A measured node's pods become its max pods, which the consumer then gets.
		mp, at, name = *p, field.NewPath("MeasuredAllocatable", "Pods"), "the measured allocatable pods"
	}
	if mp == 0 {
		return nil
	}
	cloud, lo, hi, what := "Azure", int64(aksMinMaxPods), int64(aksMaxMaxPods), "AKS takes a node pool's max_pods (azurerm_kubernetes_cluster_node_pool) only from %d to %d (\"strictly enforced by the AKS service\")"
	switch req.Pool.Cloud {
	case catalog.Azure:
	case catalog.GCP:
		cloud, lo, hi, what = "GCP", gkeMinMaxPods, gkeMaxMaxPods, "GKE takes a node pool's max_pods_per_node (google_container_node_pool) only from %d to %d"
	default:
		return nil
	}
	if mp >= lo && mp <= hi {
		return nil
	}
	return field.Errors{field.Invalid(at, fmt.Sprint(mp), "%s %d of %s node group %q is out of range: "+what+"; give a value within it",
		name, mp, cloud, req.Pool.Name, lo, hi)}
}

// reservationErrors refuses, on an AKS or GKE group, the kube-reserved, system-reserved and hard-eviction
// settings kubefit would plan with but neither consumer can carry: azurerm_kubernetes_cluster_node_pool's
// kubelet_config and google_container_node_pool's node_config.kubelet_config take none of them (AKS's custom
// kubeReserved and hardEvictionThreshold are a preview of 2026-06, CustomNodeConfigPreview, overhead.md §11.2),
// so the nodes would keep the platform's reservations: a smaller setting would plan more allocatable than the
// nodes report. A measured allocatable is what the nodes report, so beside it they are not refused.
func reservationErrors(req Request) field.Errors {
	o := req.Pool.Overhead
	if o.MeasuredAllocatable.CPUMillicores != nil || o.MeasuredAllocatable.MemoryBytes != nil {
		return nil
	}
	var cloud, consumer string
	switch req.Pool.Cloud {
	case catalog.Azure:
		cloud, consumer = "AKS", "azurerm_kubernetes_cluster_node_pool"
	case catalog.GCP:
		cloud, consumer = "GKE", "google_container_node_pool"
	default:
		return nil
	}
	var errs field.Errors
	for _, f := range []struct {
		name, what string
		set        bool
	}{
		{"KubeReserved", "kube-reserved", o.KubeReserved != (overhead.Reservation{})},
		{"SystemReserved", "system-reserved", o.SystemReserved != (overhead.Reservation{})},
		{"EvictionHard", "hard-eviction thresholds", len(o.EvictionHard) > 0},
	} {
		if f.set {
			errs = append(errs, field.Invalid(field.NewPath(f.name), "", "%s node group %q sets %s, but %s cannot carry them (%s sets its own on every node), so the nodes would keep %s's and report another allocatable than kubefit plans; remove them, or give the measured allocatable of a real node",
				cloud, req.Pool.Name, f.what, consumer, cloud, cloud))
		}
	}
	return errs
}

var aksReservedLabelPrefixes = []string{"kubernetes.azure.com/", "kubernetes.io/"}

// aksSpotTaint is the taint AKS puts on every node of a Spot pool.
var aksSpotTaint = sizing.AKSSpotTaint

// aksInputErrors refuses what AKS refuses beyond the group's identity (aksLabelErrors): an OS disk above its cap.
func aksInputErrors(req Request) field.Errors {
	if req.DiskSizeGiB > aksMaxOSDiskGB {
		return field.Errors{field.Invalid(field.NewPath("DiskSizeGiB"), fmt.Sprint(req.DiskSizeGiB),
			"Azure node group %q has a %d GiB OS disk, but AKS takes an agent pool's osDiskSizeGB of at most %d; give at most %d",
			req.Pool.Name, req.DiskSizeGiB, aksMaxOSDiskGB, aksMaxOSDiskGB)}
	}
	return nil
}

// aksLabelErrors refuses the labels and taints AKS would refuse: labels under its reserved prefixes (save the
// Spot label on a Spot group, which AKS sets itself and kubefit emits anyway) or the kubelet's, and taints without a
// value (AKS takes node taints as key=value:Effect).
func aksLabelErrors(req Request) field.Errors {
	var errs field.Errors
	for _, k := range slices.Sorted(maps.Keys(req.Pool.Labels)) {
		if k == aksSpotKey && req.Pool.Labels[k] == aksSpotValue && req.CapacityType == Spot {
			continue
		}
		reserved := false
		for _, pre := range aksReservedLabelPrefixes {
			if strings.HasPrefix(k, pre) {
				reserved = true
				errs = append(errs, field.Invalid(field.NewPath("Labels").Key(k), k,
					"label %s of Azure node group %q is under %s, a prefix AKS reserves (\"can't be used for any node\"); use a label of your own domain",
					field.Quote(k), req.Pool.Name, pre))
			}
		}
		if why := kubeletRestricted(k); why != "" && !reserved {
			// AKS refuses them too: "node label keys in the 'kubernetes.io' or 'k8s.io' namespace must begin with an
			// allowed prefix (kubelet.kubernetes.io, node.kubernetes.io)" (Azure/AKS#2866).
			errs = append(errs, field.Invalid(field.NewPath("Labels").Key(k), k, "label %s of Azure node group %q %s", field.Quote(k), req.Pool.Name, why))
		}
	}
	for i, t := range req.Pool.Taints {
		if t.Value == "" && t != aksSpotTaint {
			errs = append(errs, field.Invalid(field.NewPath("Taints").At(i), t.Key,
				"taint %s of Azure node group %q has no value, and AKS takes node taints only as key=value:Effect; give it a value (e.g. %s=true:%s)",
				field.Quote(t.Key), req.Pool.Name, t.Key, t.Effect))
		}
	}
	return errs
}

// aksSizeErrors refuses sizes AKS or azurerm's node pool refuses: more than 1,000 nodes (aksCountErrors), more
// than 400 on kubenet (a kubenet cluster's limit, sizing.AKSKubenetMaxNodes), and a max pods under 30 on a pool
// that holds fewer than 30 pods at its minimum (sizing.AKSPoolMinPods). A given size is named on itself; a
// computed maximum above a limit is the peak's.
func aksSizeErrors(req Request, r *Result) field.Errors {
	if req.Pool.Cloud != catalog.Azure {
		return nil
	}
	errs := aksCountErrors(req, r)
	subject := fmt.Sprintf("Azure node group %q", req.Pool.Name)
	if len(errs) == 0 && sizing.IsAKSKubenet(&req.Pool) && r.MaxSize > sizing.AKSKubenetMaxNodes {
		how := "may grow to"
		if req.MaxSize == nil {
			how = "needs, at its peak,"
		}
		msg := sizing.AKSKubenetNodesMessage(subject, r.MaxSize, how)
		errs = append(errs, field.Invalid(field.NewPath("MaxSize"), fmt.Sprint(r.MaxSize), "%s", msg))
	}
	if msg := sizing.AKSPoolPodsMessage(subject, req.Pool.Overhead.MaxPods, r.MinSize); msg != "" {
		errs = append(errs, field.Invalid(field.NewPath("MaxPods"), fmt.Sprint(req.Pool.Overhead.MaxPods), "%s", msg))
	}
	return errs
}

// aksCountErrors refuses sizes azurerm's node pool refuses: more than 1,000 nodes.
func aksCountErrors(req Request, r *Result) field.Errors {
	if r.MaxSize <= aksMaxCount {
		return nil
	}
	const rule = "but an AKS node pool holds at most %d (azurerm: max_count, min_count and node_count between 0 and 1,000): %d too many; split the workloads over several node groups"
	var errs field.Errors
	if req.MinSize != nil && *req.MinSize > aksMaxCount {
		errs = append(errs, field.Invalid(field.NewPath("MinSize"), fmt.Sprint(*req.MinSize),
			"Azure node group %q would have a minimum of %d nodes (min_size is %d), "+rule,
			req.Pool.Name, *req.MinSize, *req.MinSize, aksMaxCount, *req.MinSize-aksMaxCount))
	}
	switch {
	case req.MaxSize != nil:
		errs = append(errs, field.Invalid(field.NewPath("MaxSize"), fmt.Sprint(r.MaxSize),
			"Azure node group %q would have a maximum of %d nodes (max_size is %d), "+rule, req.Pool.Name, r.MaxSize, r.MaxSize, aksMaxCount, r.MaxSize-aksMaxCount))
	case len(errs) == 0:
		errs = append(errs, field.Invalid(field.NewPath("MaxSize"), fmt.Sprint(r.MaxSize),
			"Azure node group %q would have a maximum of %d nodes (the peak needs %d), "+rule, req.Pool.Name, r.MaxSize, r.MaxSize, aksMaxCount, r.MaxSize-aksMaxCount))
	}
	return errs
}

// aksPoolName is a group's name as an AKS pool name: lower-case letters and digits, starting with a letter
// (azurerm's KubernetesAgentPoolName), before any length limit.
func aksPoolName(name string) string {
	var b strings.Builder
	for _, c := range strings.ToLower(name) {
		if c >= 'a' && c <= 'z' || c >= '0' && c <= '9' {
			b.WriteRune(c)
		}
	}
	s := b.String()
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		s = "p" + s
	}
	return s
}

// aksTemporaryName is the temporary_name_for_rotation of a group's pool: a valid pool name (at most 12
// characters, 6 for Windows pools, whose temporary pool is Windows too) that differs from the pool's own and,
// through 4 hex digits of a hash of the group's name, from the temporary names of the cluster's other groups
// (two pools rotating in one apply must not share one): "usertmp1a2b" for group "user", "wt1a2b" for a Windows
// group.
func aksTemporaryName(name string, windows bool) string {
	h := fnv.New32a()
	h.Write([]byte(name))
	sum := fmt.Sprintf("%08x", h.Sum32())[:4]
	base := aksPoolName(name)
	if windows {
		return base[:1] + "t" + sum
	}
	return base[:min(len(base), aksPoolNameMax-7)] + "tmp" + sum
}

// aksOSSKU is the os_sku of a Windows pool: Windows2022 from Kubernetes 1.23 to 1.36 (and when no version is
// given), Windows2019 before, Windows2025 from 1.37 (lastWinServer22); "" for Linux pools, which keep the
// cluster's default (Ubuntu).
func aksOSSKU(req Request, windows bool) string {
	if !windows {
		return ""
	}
	switch m := kubernetesMinor(req.Pool.Overhead.KubernetesVersion); {
	case m != 0 && m < firstWinServer22:
		return "Windows2019"
	case m > lastWinServer22:
		return "Windows2025"
	}
	return "Windows2022"
}

// GKE rules, from hashicorp/terraform-provider-google google/services/container at e03b7622:
// node_config.disk_size_gb is validation.IntAtLeast(10) (node_config.go), and a taint's key, value and effect
// are all Required (node_config.go, the taint block).
const gkeMinDiskGB = 10

// gkeReservedLabelPrefix is the label prefix GKE keeps for the node labels it manages.
const gkeReservedLabelPrefix = "cloud.google.com/"

// gkeInputErrors refuses what google_container_node_pool refuses at plan beyond the group's identity
// (gkeLabelErrors): a boot disk under 10 GB.
func gkeInputErrors(req Request) field.Errors {
	var errs field.Errors
	if req.DiskSizeGiB > 0 && req.DiskSizeGiB < gkeMinDiskGB {
		errs = append(errs, field.Invalid(field.NewPath("DiskSizeGiB"), fmt.Sprint(req.DiskSizeGiB),
			"GCP node group %q has a %d GiB boot disk, but google_container_node_pool takes disk_size_gb of at least %d; give at least %d (GKE's default is 100)",
			req.Pool.Name, req.DiskSizeGiB, gkeMinDiskGB, gkeMinDiskGB))
	}
	return errs
}

// gkeLabelErrors refuses the labels GKE refuses and a taint without a value, which google_container_node_pool
// refuses.
func gkeLabelErrors(req Request) field.Errors {
	var errs field.Errors
	for _, k := range slices.Sorted(maps.Keys(req.Pool.Labels)) {
		why := kubeletRestricted(k)
		if why == "" && strings.HasPrefix(k, gkeReservedLabelPrefix) {
			why = "is under " + gkeReservedLabelPrefix + ", whose node labels GKE manages (\"Node labels with key ... are managed by GKE or Kubernetes and must not be manually specified\"); use a label of your own domain"
			if _, sharing := gpuSharingFields[field.NewPath("Labels").Key(k).String()]; sharing {
				why += ", or give the group's GPU sharing, from which GKE sets this label itself"
			}
		}
		if why != "" {
			// GKE refuses kubernetes.io labels as the kubelet does ("Applying kubernetes label is not allowed",
			// hashicorp/terraform-provider-google#6003) and its own cloud.google.com/ keys (#19677).
			errs = append(errs, field.Invalid(field.NewPath("Labels").Key(k), k, "label %s of GCP node group %q %s", field.Quote(k), req.Pool.Name, why))
		}
	}
	for i, t := range req.Pool.Taints {
		if t.Value == "" {
			errs = append(errs, field.Invalid(field.NewPath("Taints").At(i), t.Key,
				"taint %s of GCP node group %q has no value, and google_container_node_pool requires a taint's key, value and effect; give it a value (e.g. %s=true)",
				field.Quote(t.Key), req.Pool.Name, t.Key))
		}
	}
	return errs
}

// EKS rules. The EKS API's CreateNodegroup takes label keys and values of 1–63 characters, at most 50 taints
// (key 1–63, value 0–63 characters; aws_eks_node_group's taint block has MaxItems 50 and these length
// validators, hashicorp/terraform-provider-aws internal/service/eks/node_group.go at 012e0a32) and at most 20
// instance types, and a managed node group holds 450 nodes under the default service quota
// (https://docs.aws.amazon.com/eks/latest/userguide/service-quotas.html).
const (
	eksMaxLabelLen      = 63
	eksMaxTaints        = 50
	eksMaxTaintValueLen = 63
	eksMaxInstanceTypes = 20
	eksNodeQuota        = 450
)

// WarnEKSNodeQuota: an AWS group's maximum size exceeds the default quota of nodes per managed node group.
const WarnEKSNodeQuota = "nodegroup.eks-node-quota"

// eksInputErrors refuses what EKS and EC2 refuse beyond the group's identity (eksLabelErrors): its root volume and
// more instance types than a managed node group takes.
func eksInputErrors(req Request) field.Errors {
	var errs field.Errors
	name := req.Pool.Name
	if req.Pool.Overhead.EKS.Kind != overhead.AutoMode { // Auto Mode's NodeClass sizes its own ephemeral storage
		errs = append(errs, ebsErrors(req)...)
	}
	if n := len(req.Pool.InstanceTypes); n > eksMaxInstanceTypes && !karpenterLaunches(req) {
		errs = append(errs, field.Invalid(field.NewPath("InstanceTypes"), fmt.Sprint(n), "AWS node group %q lists %d instance types, and an EKS managed node group takes at most %d; drop %d, or split the group", name, n, eksMaxInstanceTypes, n-eksMaxInstanceTypes))
	}
	return errs
}

// eksLabelErrors refuses what the EKS API refuses for a managed node group's labels and taints.
func eksLabelErrors(req Request) field.Errors {
	var errs field.Errors
	name := req.Pool.Name
	managed := req.Pool.Overhead.EKS.Kind == "" || req.Pool.Overhead.EKS.Kind == overhead.Managed
	for _, k := range slices.Sorted(maps.Keys(req.Pool.Labels)) {
		v := req.Pool.Labels[k]
		if domain, _, ok := strings.Cut(k, "/"); ok && managed && inDomain(domain, eksReservedLabelDomain) != "" {
			// The EKS API: "Label cannot contain reserved prefixes [kubernetes.io/, k8s.io/, eks.amazonaws.com/]"
			// (eksctl-io/eksctl#4007).
			errs = append(errs, field.Invalid(field.NewPath("Labels").Key(k), k,
				"label %s of AWS node group %q is in the %s domain, which the EKS API reserves for a managed node group's labels; use a label of your own domain",
				field.Quote(k), name, eksReservedLabelDomain))
			continue
		}
		switch {
		case len(k) > eksMaxLabelLen:
			errs = append(errs, field.Invalid(field.NewPath("Labels").Key(k), k, "label key %s of AWS node group %q has %d characters, and the EKS API takes label keys of 1 to %d; shorten it", field.Quote(field.Shorten(k, 70)), name, len(k), eksMaxLabelLen))
		case v == "" || len(v) > eksMaxLabelLen:
			errs = append(errs, field.Invalid(field.NewPath("Labels").Key(k), v, "label %s of AWS node group %q has a value of %d characters, and the EKS API takes label values of 1 to %d; give a value within that", field.Quote(k), name, len(v), eksMaxLabelLen))
		}
	}
	if n := len(req.Pool.Taints); n > eksMaxTaints {
		errs = append(errs, field.Invalid(field.NewPath("Taints"), fmt.Sprint(n), "AWS node group %q has %d taints, and an EKS managed node group takes at most %d; merge or drop %d of them", name, n, eksMaxTaints, n-eksMaxTaints))
	}
	for i, t := range req.Pool.Taints {
		if len(t.Key) > eksMaxLabelLen || len(t.Value) > eksMaxTaintValueLen {
			errs = append(errs, field.Invalid(field.NewPath("Taints").At(i), t.Key, "taint %s of AWS node group %q is longer than the EKS API takes (key 1 to %d characters, value up to %d); shorten it", field.Quote(field.Shorten(t.Key, 70)), name, eksMaxLabelLen, eksMaxTaintValueLen))
		}
	}
	return errs
}

// EBS volume types and their sizes in GiB (docs.aws.amazon.com/ebs/latest/userguide/ebs-volume-types.html: gp2 and
// gp3 1–16,384; io1 4–16,384; io2 Block Express 4–65,536; st1 and sc1 125–16,384, and "cannot be a boot volume";
// standard (magnetic) 1–1,024). The EKS AMIs' root snapshots are 20 GiB (AL2023, AL2; Bottlerocket's data
// volume) and 50 GiB (Windows), and EC2 refuses a volume smaller than its snapshot, which is why EKS's
// disk_size defaults to 20 and 50.
var ebsSizes = map[string][2]int{"gp2": {1, 16384}, "gp3": {1, 16384}, "io1": {4, 16384}, "io2": {4, 65536},
	"st1": {125, 16384}, "sc1": {125, 16384}, "standard": {1, 1024}}

// BootVolumeTypes are the EBS volume types a node's root volume may have (ebsSizes less st1 and sc1), gp3 first.
var BootVolumeTypes = []string{"gp3", "gp2", "io1", "io2", "standard"}

// eksReservedLabelDomain is the label domain the EKS API keeps for its own labels of managed nodes.
const eksReservedLabelDomain = "eks.amazonaws.com"

// ebsErrors refuses a root volume EC2 refuses: an unknown or non-boot EBS type, a size outside its type's range or
// below the AMI's snapshot.
func ebsErrors(req Request) field.Errors {
	var errs field.Errors
	typ := req.DiskType
	if typ == "" {
		typ = "gp3"
	}
	size, ok := ebsSizes[typ]
	switch {
	case !ok:
		return field.Errors{field.Invalid(field.NewPath("DiskType"), req.DiskType,
			"disk type %s of AWS node group %q is not an EBS volume type; give one of %s", field.Quote(req.DiskType), req.Pool.Name,
			field.QuoteList(slices.Sorted(maps.Keys(ebsSizes))))}
	case typ == "st1" || typ == "sc1":
		return field.Errors{field.Invalid(field.NewPath("DiskType"), req.DiskType,
			"disk type %s of AWS node group %q cannot hold the node's root volume: EBS st1 and sc1 volumes cannot be boot volumes; give gp3 (the default) or another SSD type",
			field.Quote(req.DiskType), req.Pool.Name)}
	}
	if req.DiskSizeGiB == 0 {
		return nil
	}
	snapshot, image := DefaultEKSDiskGiB, "an EKS Linux AMI's root snapshot"
	switch req.Pool.Overhead.Profile {
	case overhead.EKSWindows:
		snapshot, image = DefaultEKSWindowsDiskGiB, "an EKS Windows AMI's root snapshot"
	case overhead.EKSBottlerocket:
		image = "a Bottlerocket AMI's data volume snapshot"
	}
	lo, hi := max(size[0], snapshot), size[1]
	if req.DiskSizeGiB < lo || req.DiskSizeGiB > hi {
		why := fmt.Sprintf("an EBS %s volume holds %s to %s GiB", typ, fit.FormatCount(int64(size[0])), fit.FormatCount(int64(hi)))
		if req.DiskSizeGiB < snapshot {
			why = fmt.Sprintf("EC2 refuses a volume smaller than its snapshot, and %s is %d GiB", image, snapshot)
		}
		errs = append(errs, field.Invalid(field.NewPath("DiskSizeGiB"), fmt.Sprint(req.DiskSizeGiB),
			"AWS node group %q has a %s GiB root volume, but %s; give %s to %s GiB", req.Pool.Name, fit.FormatCount(int64(req.DiskSizeGiB)),
			why, fit.FormatCount(int64(lo)), fit.FormatCount(int64(hi))))
	}
	return errs
}

// Zone names as each cloud spells them: an AWS availability zone is its region and a letter (us-east-1a; a Local
// Zone's or Wavelength Zone's name carries more after the region: us-west-2-lax-1a), a GCP zone its region and a
// letter (europe-west4-b), and AKS takes zones 1, 2 and 3 (kubefit also reads "westeurope-2" as zone 2).
var (
	awsZoneRule = regexp.MustCompile(`^([a-z]{2,4}(?:-[a-z]+)+-[0-9]+)(?:[a-z]|-[a-z0-9-]+[a-z0-9])$`) // us-gov-west-1a, eusc-de-east-1a (the European Sovereign Cloud)
	gcpZoneRule = regexp.MustCompile(`^([a-z]+-[a-z]+[0-9]+)-[a-z]$`)
	aksZoneRule = regexp.MustCompile(`^(?:([a-z0-9]+)-)?([1-3])$`)
)

// zoneErrors refuses a zone its cloud has no name like (eksctl, Karpenter's zone requirement, google_container_node_pool's
// node_locations and azurerm's zones take only real zones) and zones of two regions (a node group lives in one).
func zoneErrors(req Request) field.Errors {
	var rule *regexp.Regexp
	example := ""
	switch req.Pool.Cloud {
	case catalog.AWS:
		rule, example = awsZoneRule, `"us-east-1a"`
	case catalog.GCP:
		rule, example = gcpZoneRule, `"europe-west4-b"`
	case catalog.Azure:
		rule, example = aksZoneRule, `"1", "2" or "3"`
	default:
		return nil
	}
	var errs field.Errors
	region, first := "", -1
	for i, z := range req.Pool.Zones {
		m := rule.FindStringSubmatch(z)
		if m == nil {
			errs = append(errs, field.Invalid(field.NewPath("Zones").At(i), z, "zone %s of %s node group %q is not a zone name %s uses; give names such as %s",
				field.Quote(z), cloudLabel(req.Pool.Cloud), req.Pool.Name, cloudLabel(req.Pool.Cloud), example))
			continue
		}
		switch {
		case m[1] == "":
		case first < 0:
			region, first = m[1], i
		case m[1] != region:
			errs = append(errs, field.Invalid(field.NewPath("Zones").At(i), z, "zone %s of %s node group %q is in region %s, but zone %s is in %s, and a node group's nodes are in one region; give zones of one region",
				field.Quote(z), cloudLabel(req.Pool.Cloud), req.Pool.Name, field.Quote(m[1]), field.Quote(req.Pool.Zones[first]), field.Quote(region)))
		}
	}
	return errs
}

// cloudLabel is how messages name a cloud: AWS, Azure, GCP.
func cloudLabel(c catalog.Cloud) string {
	switch c {
	case catalog.AWS:
		return "AWS"
	case catalog.Azure:
		return "Azure"
	case catalog.GCP:
		return "GCP"
	}
	return string(c)
}

// taintErrors refuses two taints with the same key and effect: the API server refuses such a node (pkg/apis/core/
// validation validateNodeTaints: "taints must be unique by key and effect pair"), and the consumers keyed by both
// (terraform-aws-modules/eks's taints map) would keep only one.
func taintErrors(req Request) field.Errors {
	var errs field.Errors
	seen := map[[2]string]int{}
	for i, t := range req.Pool.Taints {
		k := [2]string{t.Key, string(t.Effect)}
		if j, dup := seen[k]; dup {
			errs = append(errs, field.Invalid(field.NewPath("Taints").At(i), t.Key,
				"taints %d and %d of node group %q have the same key %s and effect %s, and a node's taints must be unique by key and effect; merge them",
				j+1, i+1, req.Pool.Name, field.Quote(t.Key), t.Effect))
			continue
		}
		seen[k] = i
	}
	return errs
}

// WarnAKSWindows2025: a Windows group is rendered with os_sku Windows2025 (Kubernetes 1.37 and later), which
// azurerm does not take yet and which needs a FIPS-enabled image kubefit does not render.
const WarnAKSWindows2025 = "nodegroup.aks-windows2025"

// aksWindows2025Warning warns when a Windows group's pool is Windows2025 (aksOSSKU): azurerm's node pool takes
// os_sku Windows2019 and Windows2022 only (hashicorp/terraform-provider-azurerm
// internal/services/containers/kubernetes_cluster_node_pool_resource.go @ 028a6fd9; Windows2025 asked in #31036,
// its pull request #33451 open on 2026-09-16), and AKS creates Windows Server 2025 pools only on a FIPS-enabled
// image (MicrosoftDocs/azure-aks-docs articles/aks/upgrade-windows-os.md @ a75aabed: "Windows Server 2025 node
// pools require a FIPS-enabled image"), azurerm's fips_enabled, which kubefit does not render.
func aksWindows2025Warning(req Request, r *Result) []field.Warning {
	if req.Pool.Cloud != catalog.Azure || aksOSSKU(req, isWindows(r.Pool.Overhead.Profile)) != "Windows2025" {
		return nil
	}
	return []field.Warning{{Code: WarnAKSWindows2025, Path: field.NewPath("KubernetesVersion"), Message: fmt.Sprintf(
		"Azure node group %q runs Kubernetes %s, where AKS runs Windows nodes on Windows Server 2025 only (Windows Server 2022 ends at 1.36), so its pool's OS SKU is Windows2025: azurerm_kubernetes_cluster_node_pool does not take that value yet (its os_sku lists Windows2019 and Windows2022; hashicorp/terraform-provider-azurerm#31036), and AKS creates Windows Server 2025 pools only on a FIPS-enabled image, which kubefit does not render: add fips_enabled = true to the pool, and apply it with an azurerm release that takes Windows2025 (or with azapi)",
		req.Pool.Name, req.Pool.Overhead.KubernetesVersion)}}
}

// eksQuotaWarning warns when an AWS group may grow beyond the default quota of nodes per managed node group.
func eksQuotaWarning(req Request, r *Result) []field.Warning {
	if req.Pool.Cloud != catalog.AWS || r.MaxSize <= eksNodeQuota {
		return nil
	}
	return []field.Warning{{Code: WarnEKSNodeQuota, Path: field.NewPath("MaxSize"), Message: fmt.Sprintf(
		"AWS node group %q may grow to %d nodes, above the default quota of %d nodes per EKS managed node group: request a quota increase (Service Quotas, \"Nodes per managed node group\") or split the workloads over several groups",
		req.Pool.Name, r.MaxSize, eksNodeQuota)}}
}
