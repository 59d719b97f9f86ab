package overhead

import (
	"fmt"
	"slices"
	"strings"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/resource"
)

// SystemDaemonSets says which DaemonSets a node counts: the platform's system DaemonSets beside the listed
// ones (SystemDaemonSetsPlatform, the default), or the listed ones only (SystemDaemonSetsListed).
type SystemDaemonSets string

// The system DaemonSets modes.
const (
	// SystemDaemonSetsPlatform counts the platform's measured system DaemonSets (PlatformDaemonSets) on every
	// node of its profile, less those a listed DaemonSet names: a listed kube-proxy replaces the platform's.
	SystemDaemonSetsPlatform SystemDaemonSets = "platform"
	// SystemDaemonSetsListed counts the listed DaemonSets only: for a cluster whose system set differs (another
	// CNI, Cilium's kube-proxy replacement, add-ons removed) and whose DaemonSets are all listed.
	SystemDaemonSetsListed SystemDaemonSets = "listed"
)

// SystemDaemonSetsModes lists every mode; SystemDaemonSetsPlatform is the default.
var SystemDaemonSetsModes = []SystemDaemonSets{SystemDaemonSetsPlatform, SystemDaemonSetsListed}

// eksHostNetworkDaemonSets are the two host-network DaemonSets on every EKS Linux node.
var eksHostNetworkDaemonSets = []string{"aws-node", "kube-proxy"}

// systemDaemonSet is one system DaemonSet of a platform: its pod's requests as real nodes report them.
type systemDaemonSet struct {
	name   string
	cpu    int64 // millicores
	memory int64 // bytes
}

// The platform's system DaemonSets, as of 2026-12 (overhead.md §9.1). Every pod takes a pod slot (on EKS the two
// host-network pods take theirs as system pods, without a pod IP) and tolerates every taint, as the platforms'
// system DaemonSets do.
//
//   - AKS Linux: kube-proxy 100m, azure-ip-masq-agent 100m/50Mi, cloud-node-manager 50m/50Mi, csi-azuredisk-node
//     30m/60Mi and csi-azurefile-node 30m/60Mi on every node of AKS 1.25 to 1.32 seen (public kubectl describe node
//     output of 1.25.6, 1.26.6 and 1.30.9 nodes), and azure-cns 40m/250Mi with Azure CNI overlay (the 1.30.9 node);
//     an AKS 1.32.7 node with Azure Network Policy Manager runs azure-npm 50m/300Mi beside a lighter ip-masq-agent
//     (50m/36Mi), and the heavier 100m/50Mi is kept (ameideio/ameide-backlog 682-aks-capacity-reservation-snapshot.md,
//     2026-01-15).
//   - GKE Standard: fluentbit-gke 100m/200Mi, gke-metrics-agent 8m/100Mi, kube-proxy 100m (a static pod on GKE,
//     counted the same: a pod on every node) and pdcsi-node 10m/20Mi on a 1.23 e2-medium node
//     (keepinmindsh/lines_kubernetes archive/005_BasicKubernetes/001/README.md, the node measured.go cites).
//     gke-metadata-server (Workload Identity), netd, anetd (Dataplane V2, which replaces kube-proxy) and
//     node-local-dns run only when those features are on, and are not counted.
//   - EKS Linux (AL2023, AL2, Bottlerocket; not Auto Mode, which runs pod networking and kube-proxy on the host):
//     aws-node 50m: its aws-node and aws-eks-nodeagent (network policy agent) containers request 25m each in the
//     manifest the VPC CNI add-on installs (amazon-vpc-cni-k8s config/master/aws-k8s-cni.yaml @ b5218838,
//     2026-08-20; the Helm chart's values.yaml leaves the agent's requests empty, the add-on does not), as a
//     published EKS 1.34 AL2023 node lists the pod (aws-node 50m); before the agent (VPC CNI 1.14, 2023) 25m, as
//     kubectl view-allocations shows on EKS 1.24 Bottlerocket nodes (ruzickap/ruzickap.github.io
//     _posts/2022/2022-12-24-amazon-eks-karpenter-tests.md); kube-proxy 100m, on the same nodes, no memory
//     requests. The optional add-ons (ebs-csi-node 30m/120Mi on the same nodes,
//     eks-pod-identity-agent) are not counted.
//   - AKS Windows: cloud-node-manager-windows 50m/50Mi, csi-azuredisk-node-win 60m/120Mi and csi-azurefile-node-win
//     60m/120Mi (3 pods, 170m, 290Mi) in the "Non-terminated Pods" of the one measured AKS Windows node, AKS 1.25.4,
//     Azure CNI, pods 30 (marosset/aks-windows-gpu-acceleration test_scenarios/directx_sample_with_aks.md, the node
//     measured.go cites @ 0031a3ef; its ama-logs-windows is the Container Insights add-on and is not counted). They take pod
//     slots: kubelet's max pods (the node's pods: 30) counts every pod bound to the node, host-network (Windows
//     HostProcess) or not, as the scheduler does. With Azure CNI overlay AKS also runs azure-cns-win, whose requests
//     no source gives (Azure/azure-container-networking cns/azure-cns-windows.yaml sets none): not counted.
//   - EKS Windows and custom nodes: no measured set; none is counted.
var (
	aksSystemDaemonSets = []systemDaemonSet{
		{"kube-proxy", 100, 0}, {"azure-ip-masq-agent", 100, 50 * mi}, {"cloud-node-manager", 50, 50 * mi},
		{"csi-azuredisk-node", 30, 60 * mi}, {"csi-azurefile-node", 30, 60 * mi},
	}
	aksCNSDaemonSet            = systemDaemonSet{"azure-cns", 40, 250 * mi}
	aksWindowsSystemDaemonSets = []systemDaemonSet{
		{"cloud-node-manager-windows", 50, 50 * mi}, {"csi-azuredisk-node-win", 60, 120 * mi}, {"csi-azurefile-node-win", 60, 120 * mi},
	}
	gkeSystemDaemonSets = []systemDaemonSet{
		{"fluentbit-gke", 100, 200 * mi}, {"gke-metrics-agent", 8, 100 * mi}, {"kube-proxy", 100, 0}, {"pdcsi-node", 10, 20 * mi},
	}
	eksSystemDaemonSets = []systemDaemonSet{{"aws-node", 50, 0}, {"kube-proxy", 100, 0}}
)

// PlatformDaemonSets returns the system DaemonSets the platform runs on every node of in's profile, whatever
// in.SystemDaemonSets says: AKS Linux's five, and azure-cns with Azure CNI overlay; AKS Windows's three; GKE
// Standard's four; aws-node and kube-proxy on EKS Linux nodes other than Auto Mode; none on EKS Windows and custom
// nodes. Each
// takes a pod slot and tolerates every taint.
func PlatformDaemonSets(in Input) []DaemonSet {
	var set []systemDaemonSet
	switch {
	case in.Profile == AKSLinux:
		set = slices.Clone(aksSystemDaemonSets)
		if in.AKS.NetworkPlugin == "" || in.AKS.NetworkPlugin == AzureCNIOverlay {
			set = append(set, aksCNSDaemonSet)
		}
	case in.Profile == AKSWindows:
		set = aksWindowsSystemDaemonSets
	case in.Profile == GKEStandard:
		set = gkeSystemDaemonSets
	case in.Profile.isEKS() && in.Profile != EKSWindows && in.EKS.Kind != AutoMode:
		set = eksSystemDaemonSets
	}
	out := make([]DaemonSet, 0, len(set))
	for _, s := range set {
		out = append(out, DaemonSet{Name: s.name, Requests: fit.Resources{CPUMillicores: s.cpu, MemoryBytes: s.memory},
			TakesPodSlot: true, Tolerations: []fit.Toleration{{Operator: fit.OperatorExists}}})
	}
	return out
}

// CountedSystemDaemonSets returns the platform's system DaemonSets counted on in's node beside DaemonSets of the
// listed names: none when in.SystemDaemonSets is SystemDaemonSetsListed, otherwise PlatformDaemonSets(in) less
// those a listed name names (the user's DaemonSet of that name stands for it).
func CountedSystemDaemonSets(in Input, listed []string) []DaemonSet {
	if in.SystemDaemonSets == SystemDaemonSetsListed {
		return nil
	}
	return slices.DeleteFunc(PlatformDaemonSets(in), func(d DaemonSet) bool { return slices.Contains(listed, d.Name) })
}

// DaemonSetsText names DaemonSets with their requests: `kube-proxy 100m, azure-ip-masq-agent 100m/50Mi`.
func DaemonSetsText(ds []DaemonSet) string {
	parts := make([]string, len(ds))
	for i, d := range ds {
		parts[i] = d.Name + " " + resource.QuantityCPU(d.Requests.CPUMillicores)
		if d.Requests.MemoryBytes > 0 {
			parts[i] += "/" + resource.QuantityBytes(d.Requests.MemoryBytes)
		}
	}
	return strings.Join(parts, ", ")
}

// systemDaemonSetsNote says, per profile, which system DaemonSets the platform runs on every Linux node beside
// the user's (the sets above; AKS Windows's on every Windows node), for the warning of a node that counts only the listed DaemonSets and lists none.
var systemDaemonSetsNote = map[Profile]string{
	AKSLinux: "AKS runs system DaemonSets on every node (kube-proxy, azure-ip-masq-agent, cloud-node-manager, " +
		"csi-azuredisk-node and csi-azurefile-node, 310m CPU and 220Mi in all on the nodes measured, and azure-cns, " +
		"40m and 250Mi more, with Azure CNI overlay: 6 pods, 350m and 470Mi)",
	AKSWindows: "AKS runs system DaemonSets on every Windows node (cloud-node-manager-windows, csi-azuredisk-node-win " +
		"and csi-azurefile-node-win, 3 pods of 170m CPU and 290Mi in all on the node measured, and azure-cns-win with " +
		"Azure CNI overlay)",
	GKEStandard: "GKE runs system DaemonSets on every node (fluentbit-gke, gke-metrics-agent, kube-proxy and " +
		"pdcsi-node, 4 pods of 218m CPU and 320Mi in all on the node measured; gke-metadata-server, netd and " +
		"node-local-dns more when Workload Identity, network policy or NodeLocal DNSCache are on)",
}

// daemonSets subtracts the DaemonSets' requests and pod slots from allocatable, giving what is available
// to workloads (fit.DaemonSetLoad, the one account shared with the packer): the listed DaemonSets and, unless
// only the listed ones count, the platform's system DaemonSets none of them names (CountedSystemDaemonSets),
// each group with terms of its own. On EKS Linux aws-node and kube-proxy always take a slot, listed or not, and
// the pods that need a VPC IP are limited by the IP count.
func (c *calc) daemonSets() {
	r := &c.res
	in := c.in
	listed := make([]string, len(in.DaemonSets))
	for i, d := range in.DaemonSets {
		listed[i] = d.Name
	}
	r.SystemDaemonSets = CountedSystemDaemonSets(in, listed)
	eksLinux := c.hostNetworkPods() > 0
	if eksLinux {
		r.SystemPods = slices.Clone(eksHostNetworkDaemonSets)
	}
	if in.SystemDaemonSets == SystemDaemonSetsListed && len(in.DaemonSets) == 0 {
		if eksLinux {
			c.warn(CodeNoDaemonSets, field.NewPath("DaemonSets"),
				"no DaemonSets given and only listed DaemonSets counted: kubefit counts the pod slots of aws-node and kube-proxy but not their requests (50m and 100m CPU); list your DaemonSets, or count the platform's system DaemonSets, for a true workload capacity")
		}
		if note := systemDaemonSetsNote[in.Profile]; note != "" {
			c.warn(CodeNoDaemonSets, field.NewPath("DaemonSets"),
				"no DaemonSets given and only listed DaemonSets counted: %s; kubefit counts none of them, so workloads get more room than the node has: list them (and your own), or count the platform's system DaemonSets, for a true workload capacity", note)
		}
	}
	if in.Profile.isEKS() && (in.Profile != EKSWindows || in.Instance.IPv4PerENI > 0) {
		r.PodIPs = r.IPCap // Windows: the IPs of its one ENI (maxPods)
	}
	all := append(slices.Clone(in.DaemonSets), r.SystemDaemonSets...)
	r.DaemonSetOverhead, r.Available = fit.DaemonSetLoad(r.Allocatable, r.SystemPods, r.PodIPs, all)
	var sys resource.List
	for _, d := range r.SystemDaemonSets {
		sys.CPUMillicores += d.Requests.CPUMillicores
		sys.MemoryBytes += d.Requests.MemoryBytes
		sys.Pods++
	}
	own := r.DaemonSetOverhead.Sub(sys)
	if len(in.DaemonSets) > 0 || own.Pods > 0 {
		detail := fmt.Sprintf("%d DaemonSet pods", own.Pods)
		c.term("daemonSets.cpu", UnitMillicores, own.CPUMillicores, FDaemonSetRequests, detail)
		c.term("daemonSets.memory", UnitBytes, own.MemoryBytes, FDaemonSetRequests, detail)
		c.term("daemonSets.pods", UnitPods, own.Pods, FDaemonSetRequests, detail)
	}
	if len(r.SystemDaemonSets) > 0 {
		detail := "the platform's system DaemonSets: " + DaemonSetsText(r.SystemDaemonSets)
		c.term("systemDaemonSets.cpu", UnitMillicores, sys.CPUMillicores, FDaemonSetPlatform, detail)
		c.term("systemDaemonSets.memory", UnitBytes, sys.MemoryBytes, FDaemonSetPlatform, detail)
		c.term("systemDaemonSets.pods", UnitPods, sys.Pods, FDaemonSetPlatform, detail)
	}
	if r.Available.GPU < 0 {
		c.warn(CodeDaemonSetsFillNode, field.NewPath("DaemonSets"),
			"the DaemonSets request %d GPUs but a node of %q has %d: they cannot all run on it", r.DaemonSetOverhead.GPU, in.Instance.Name, r.Allocatable.GPU)
	}
	if r.Available.CPUMillicores <= 0 || r.Available.MemoryBytes <= 0 || r.Available.Pods <= 0 {
		c.warn(CodeDaemonSetsFillNode, field.NewPath("DaemonSets"),
			"DaemonSets use all of the node's allocatable (left: %s CPU, %s memory, %d pods): no workload pod fits on %q",
			resource.QuantityCPU(r.Available.CPUMillicores), resource.QuantityBytes(r.Available.MemoryBytes), r.Available.Pods, in.Instance.Name)
	}
}

// Smallest returns the index of the result with the least workload capacity: the least available CPU, then
// the least available memory, then the first. A mixed node pool is planned on that member. It returns -1 for
// an empty list.
func Smallest(rs []Result) int {
	best := -1
	for i, r := range rs {
		if best < 0 {
			best = i
			continue
		}
		b := rs[best].Available
		if r.Available.CPUMillicores < b.CPUMillicores ||
			(r.Available.CPUMillicores == b.CPUMillicores && r.Available.MemoryBytes < b.MemoryBytes) {
			best = i
		}
	}
	return best
}
