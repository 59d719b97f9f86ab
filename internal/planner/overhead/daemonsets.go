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
