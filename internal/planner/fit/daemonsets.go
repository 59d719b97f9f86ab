package fit

import "slices"

// DaemonSetLoad is the one account of what DaemonSets take from a node, used by the packer for every
// pool and by the overhead model for one node (overhead.md §9). ds are the DaemonSets whose pods land on
// the node; systemPods names the host-network pods the node runs whether or not they are listed (EKS:
// aws-node and kube-proxy); podIPs caps the pods that need a pod IP (the VPC CNI's ENI limit; 0 = no
// cap).
//
// taken sums the DaemonSets' requests, with Pods the pod slots they take: one per DaemonSet that takes
// a slot, one per system pod (a listed DaemonSet of the same name stands for it and takes a slot
// whatever it says), Requests.Pods ignored. left is alloc − taken, what workload pods may request; its
// pods are further capped at podIPs minus the slot-taking DaemonSets that are not system pods, since
// host-network pods need no pod IP.
func DaemonSetLoad(alloc Resources, systemPods []string, podIPs int64, ds []DaemonSet) (taken, left Resources) {
	var ipPods int64
	for i := range ds {
		d := &ds[i]
		taken.CPUMillicores += d.Requests.CPUMillicores
		taken.MemoryBytes += d.Requests.MemoryBytes
		taken.EphemeralStorageBytes += d.Requests.EphemeralStorageBytes
		taken.GPU += d.Requests.GPU
		switch system := slices.Contains(systemPods, d.Name); {
		case system:
			taken.Pods++
		case d.TakesPodSlot:
			taken.Pods++
			ipPods++
		}
	}
	for _, name := range systemPods {
		if !slices.ContainsFunc(ds, func(d DaemonSet) bool { return d.Name == name }) {
			taken.Pods++
		}
	}
	left = alloc.Sub(taken)
	if podIPs > 0 {
		left.Pods = min(left.Pods, podIPs-ipPods)
	}
	return taken, left
}
