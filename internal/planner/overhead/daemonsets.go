package overhead

import (
	"fmt"
	"slices"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/resource"
)

// eksHostNetworkDaemonSets are the two host-network DaemonSets on every EKS Linux node.
var eksHostNetworkDaemonSets = []string{"aws-node", "kube-proxy"}

// systemDaemonSetsNote says, per profile, which system DaemonSets the platform runs on every Linux node beside the
// user's, with their requests as real nodes report them (kubectl describe node):
//
//   - AKS: kube-proxy 100m, azure-ip-masq-agent 100m/50Mi, cloud-node-manager 50m/50Mi, csi-azuredisk-node 30m/60Mi,
//     csi-azurefile-node 30m/60Mi on every node of AKS 1.25 to 1.32 seen (public node descriptions of 1.25.6,
//     1.26.6 and 1.30.9), and azure-cns 40m/250Mi with Azure CNI overlay (the 1.30.9 node); an AKS 1.32.7 node
//     with Azure Network Policy Manager runs azure-npm 50m/300Mi beside a lighter ip-masq-agent (50m/36Mi)
//     (ameideio/ameide-backlog 682-aks-capacity-reservation-snapshot.md, 2026-01-15).
//   - GKE: fluentbit-gke 100m/200Mi, gke-metrics-agent 8m/100Mi, kube-proxy 100m and pdcsi-node 10m/20Mi on a
//     1.23 e2-medium node (keepinmindsh/lines_kubernetes archive/005_BasicKubernetes/001/README.md, the node
//     measured.go cites); newer clusters add gke-metadata-server (Workload Identity), netd and node-local-dns
//     when those features are on.
//
// The sets depend on the cluster's network plugin, add-ons and version, which kubefit does not know, so it
// warns instead of counting them.
var systemDaemonSetsNote = map[Profile]string{
	AKSLinux: "AKS runs system DaemonSets on every node (kube-proxy, azure-ip-masq-agent, cloud-node-manager, " +
		"csi-azuredisk-node and csi-azurefile-node, 310m CPU and 220Mi in all on the nodes measured, and azure-cns, " +
		"40m and 250Mi more, with Azure CNI overlay: 6 pods, 350m and 470Mi)",
	GKEStandard: "GKE runs system DaemonSets on every node (fluentbit-gke, gke-metrics-agent, kube-proxy and " +
		"pdcsi-node, 4 pods of 218m CPU and 320Mi in all on the node measured; gke-metadata-server, netd and " +
		"node-local-dns more when Workload Identity, network policy or NodeLocal DNSCache are on)",
}

// daemonSets subtracts the DaemonSets' requests and pod slots from allocatable, giving what is available
// to workloads (fit.DaemonSetLoad, the one account shared with the packer). On EKS Linux aws-node and
// kube-proxy always take a slot, listed or not, and the pods that need a VPC IP are limited by the IP count.
func (c *calc) daemonSets() {
	r := &c.res
	in := c.in
	eksLinux := c.hostNetworkPods() > 0
	if eksLinux {
		r.SystemPods = slices.Clone(eksHostNetworkDaemonSets)
		if len(in.DaemonSets) == 0 {
			c.warn(CodeNoDaemonSets, field.NewPath("DaemonSets"),
				"no DaemonSets given: kubefit counts the pod slots of aws-node and kube-proxy but not their requests; list your DaemonSets for a true workload capacity")
		}
	}
	if note := systemDaemonSetsNote[in.Profile]; note != "" && len(in.DaemonSets) == 0 {
		c.warn(CodeNoDaemonSets, field.NewPath("DaemonSets"),
			"no DaemonSets given: %s; kubefit counts none of them, so workloads get more room than the node has: list them (and your own) for a true workload capacity", note)
	}
	if in.Profile.isEKS() && (in.Profile != EKSWindows || in.Instance.IPv4PerENI > 0) {
		r.PodIPs = r.IPCap // Windows: the IPs of its one ENI (maxPods)
	}
	r.DaemonSetOverhead, r.Available = fit.DaemonSetLoad(r.Allocatable, r.SystemPods, r.PodIPs, in.DaemonSets)
	slots := r.DaemonSetOverhead.Pods
	if len(in.DaemonSets) > 0 || slots > 0 {
		detail := fmt.Sprintf("%d DaemonSet pods", slots)
		c.term("daemonSets.cpu", UnitMillicores, r.DaemonSetOverhead.CPUMillicores, FDaemonSetRequests, detail)
		c.term("daemonSets.memory", UnitBytes, r.DaemonSetOverhead.MemoryBytes, FDaemonSetRequests, detail)
		c.term("daemonSets.pods", UnitPods, slots, FDaemonSetRequests, detail)
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
