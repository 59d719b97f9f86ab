package sizing

import (
	"fmt"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/overhead"
)

// AKS's limits on a pool's sizes (overhead.md §8.6).
const (
	// AKSKubenetMaxNodes: "Kubenet has a hard maximum of 400 nodes per cluster" (Microsoft Learn, AKS network
	// concepts, "Choosing a network model", Cluster size; "Maximum of 400 nodes per cluster" on the AKS
	// networking concepts page): the nodes of all of a kubenet cluster's pools together.
	AKSKubenetMaxNodes = 400
	// AKSPoolMinPods: "The minimum value that can be set for maximum pods per node is 10 if and only if the
	// configuration of each node pool has space for a minimum of 30 pods" (Microsoft Learn, AKS IP address
	// planning, "Maximum pods per node", MicrosoftDocs/azure-aks-docs articles/aks/concepts-network-ip-address-planning.md):
	// a pool whose max pods is under 30 needs at least ⌈30 / max pods⌉ nodes, or AKS refuses it.
	AKSPoolMinPods = 30
)

// WarnAKSKubenetCluster: kubenet pools of one request may grow, together, beyond the 400 nodes of a kubenet
// cluster, each within it.
const WarnAKSKubenetCluster = "sizing.aks-kubenet-cluster-nodes"

// WarnAKSSmallVM: an AKS pool of a VM size AKS creates no new pool of (catalog.InstanceType.AKSRefuses), planned as
// an existing pool.
const WarnAKSSmallVM = "sizing.aks-small-vm"

// IsAKSKubenet says whether pool p is an AKS pool on the kubenet network plugin.
func IsAKSKubenet(p *Pool) bool {
	return p.Cloud == catalog.Azure && p.Overhead.AKS.NetworkPlugin == overhead.Kubenet
}

// AKSKubenetNodesMessage says why subject (`pool "a"`, `Azure node group "a"`) on kubenet cannot grow to
// maxNodes, above AKSKubenetMaxNodes; how names where maxNodes comes from ("the maximum", "the peak needs").
func AKSKubenetNodesMessage(subject string, maxNodes int, how string) string {
	return fmt.Sprintf("%s uses the kubenet network plugin and %s %d nodes, but a kubenet cluster holds at most %d nodes in all of its node pools (AKS: \"Kubenet has a hard maximum of %d nodes per cluster\"): %d too many; keep it to %d nodes or fewer (fewer still when other kubenet pools share the cluster), or use Azure CNI overlay, which has no such limit",
		subject, how, maxNodes, AKSKubenetMaxNodes, AKSKubenetMaxNodes, maxNodes-AKSKubenetMaxNodes, AKSKubenetMaxNodes)
}

// AKSPoolPodsMessage says why AKS refuses subject's max pods under AKSPoolMinPods with minNodes nodes at least,
// naming both remedies; "" when the pool holds 30 pods or more (or maxPods is the default, 0).
func AKSPoolPodsMessage(subject string, maxPods int64, minNodes int) string {
	if maxPods <= 0 || maxPods >= AKSPoolMinPods || maxPods*int64(minNodes) >= AKSPoolMinPods {
		return ""
	}
	return fmt.Sprintf("%s sets max pods %d with a minimum of %d nodes, %d pods in all, but AKS refuses a max pods under %d unless the pool holds at least %d pods at its minimum (\"The minimum value that can be set for maximum pods per node is 10 if and only if the configuration of each node pool has space for a minimum of 30 pods\"): raise the max pods to %d, or the minimum to %d nodes",
		subject, maxPods, minNodes, maxPods*int64(minNodes), AKSPoolMinPods, AKSPoolMinPods, AKSPoolMinPods, (AKSPoolMinPods+maxPods-1)/maxPods)
}

// aksPoolErrors refuses the sizes AKS refuses for pool i: kubenet beyond 400 nodes, and a max pods under 30 on
// a pool that holds fewer than 30 pods at its minimum. A node group's pool (SizesChecked) is checked by the
// node group, on the sizes the plan gives it.
func (s *solve) aksPoolErrors(i int) {
	rp := &s.req.Pools[i]
	if rp.Cloud != catalog.Azure || rp.SizesChecked {
		return
	}
	p := s.poolPath(i)
	subject := fmt.Sprintf("pool %q", rp.Name)
	if IsAKSKubenet(rp) && rp.MaxNodes > AKSKubenetMaxNodes {
		s.errs = append(s.errs, field.Invalid(p.Child("MaxNodes"), fmt.Sprint(rp.MaxNodes), "%s", AKSKubenetNodesMessage(subject, rp.MaxNodes, "may grow to")))
	}
	if msg := AKSPoolPodsMessage(subject, rp.Overhead.MaxPods, rp.MinNodes); msg != "" {
		s.errs = append(s.errs, field.Invalid(p.Child("Overhead", "MaxPods"), fmt.Sprint(rp.Overhead.MaxPods), "%s", msg))
	}
}

// aksKubenetClusterWarning warns when the request's kubenet pools, each within 400 nodes, may grow to more than
// 400 together: if they share one cluster, AKS stops them at 400.
func (s *solve) aksKubenetClusterWarning() {
	total, n := 0, 0
	for i := range s.req.Pools {
		rp := &s.req.Pools[i]
		if !IsAKSKubenet(rp) || rp.SizesChecked {
			continue
		}
		if rp.MaxNodes > AKSKubenetMaxNodes {
			return // refused on its own
		}
		total += rp.MaxNodes
		n++
	}
	if n < 2 || total <= AKSKubenetMaxNodes {
		return
	}
	s.warnings = append(s.warnings, field.Warning{Code: WarnAKSKubenetCluster, Path: field.NewPath("Pools"), Message: fmt.Sprintf(
		"the %d kubenet pools may grow to %d nodes together, but a kubenet cluster holds at most %d nodes in all of its node pools (AKS: \"Kubenet has a hard maximum of %d nodes per cluster\"): if they share a cluster, its nodes stop at %d and pods planned beyond stay Pending; lower their maximums to %d in all, or use Azure CNI overlay",
		n, total, AKSKubenetMaxNodes, AKSKubenetMaxNodes, AKSKubenetMaxNodes, AKSKubenetMaxNodes)})
}
