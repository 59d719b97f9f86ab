package overhead

import (
	"fmt"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/resource"
)

// eksHostNetworkDaemonSets are the two host-network DaemonSets on every EKS Linux node.
var eksHostNetworkDaemonSets = []string{"aws-node", "kube-proxy"}

// daemonSets subtracts the DaemonSets' requests and pod slots from allocatable, giving what is available
// to workloads. On EKS Linux aws-node and kube-proxy always take a slot, listed or not, and the pods that need
// a VPC IP are limited by the IP count.
func (c *calc) daemonSets() {
	r := &c.res
	in := c.in
	eksLinux := c.hostNetworkPods() > 0
	var slots, ipPods int64
	listed := map[string]bool{}
	for _, d := range in.DaemonSets {
		r.DaemonSetOverhead.CPUMillicores += d.CPUMillicores
		r.DaemonSetOverhead.MemoryBytes += d.MemoryBytes
		r.DaemonSetOverhead.EphemeralStorageBytes += d.EphemeralBytes
		hostNet := eksLinux && contains(eksHostNetworkDaemonSets, d.Name)
		listed[d.Name] = true
		if d.TakesPodSlot || hostNet {
			slots++
			if !hostNet {
				ipPods++
			}
		}
	}
	if eksLinux {
		for _, name := range eksHostNetworkDaemonSets {
			if !listed[name] {
				slots++
			}
		}
		if len(in.DaemonSets) == 0 {
			c.warn(CodeNoDaemonSets, field.NewPath("DaemonSets"),
				"no DaemonSets given: kubefit counts the pod slots of aws-node and kube-proxy but not their requests; list your DaemonSets for a true workload capacity")
		}
	}
	r.DaemonSetOverhead.Pods = slots
	r.Available = r.Allocatable.Sub(r.DaemonSetOverhead)
	if in.Profile.isEKS() && in.Profile != EKSWindows && r.IPCap > 0 {
		if byIP := r.IPCap - ipPods; byIP < r.Available.Pods {
			r.Available.Pods = byIP
		}
	}
	if len(in.DaemonSets) > 0 || slots > 0 {
		detail := fmt.Sprintf("%d DaemonSet pods", slots)
		c.term("daemonSets.cpu", UnitMillicores, r.DaemonSetOverhead.CPUMillicores, FDaemonSetRequests, detail)
		c.term("daemonSets.memory", UnitBytes, r.DaemonSetOverhead.MemoryBytes, FDaemonSetRequests, detail)
		c.term("daemonSets.pods", UnitPods, slots, FDaemonSetRequests, detail)
	}
	if r.Available.CPUMillicores <= 0 || r.Available.MemoryBytes <= 0 || r.Available.Pods <= 0 {
		c.warn(CodeDaemonSetsFillNode, field.NewPath("DaemonSets"),
			"DaemonSets use all of the node's allocatable (left: %s CPU, %s memory, %d pods): no workload pod fits on %q",
			resource.QuantityCPU(r.Available.CPUMillicores), resource.QuantityBytes(r.Available.MemoryBytes), r.Available.Pods, in.Instance.Name)
	}
}

// PackerPods returns the pod slots of a node, computed without DaemonSets, that a packer which charges the
// named DaemonSets itself may hand out. It is Available.Pods, plus one slot for each of EKS's always-present
// host-network pods (aws-node, kube-proxy; not on Auto Mode, which has no such pods) that is among the names:
// the model has already taken their slots, and the packer would take them again. The IP limit stays applied, since host-network pods use no pod IP.
func (r Result) PackerPods(daemonSets []string) int64 {
	pods := r.Available.Pods
	if !r.Profile.isEKS() || r.Profile == EKSWindows || r.NodeGroupKind == AutoMode {
		return pods
	}
	for _, name := range eksHostNetworkDaemonSets {
		if contains(daemonSets, name) {
			pods++
		}
	}
	return pods
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
