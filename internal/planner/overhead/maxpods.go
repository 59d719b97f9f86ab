package overhead

import (
	"fmt"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
)

// maxPods sets the effective max pods, the IP limit on EKS, and the P of the EKS memory formula.
func (c *calc) maxPods() {
	in := c.in
	p := in.Profile
	switch {
	case p.isEKS():
		c.eksMaxPods()
	case p.isAKS():
		def := int64(250)
		switch in.AKS.NetworkPlugin {
		case AzureCNIPodSubnet, Kubenet:
			def = 110
		case AzureCNINodeSubnet:
			def = 30
		}
		c.setMaxPods(def, FMaxPodsAKS, fmt.Sprintf("AKS default for network plugin %q", in.AKS.NetworkPlugin))
	case p == GKEStandard:
		c.setMaxPods(110, FMaxPodsGKE, "GKE Standard default")
		if in.MaxPods > 110 { // 8–256 checked in validate
			c.warn(CodeGKEMaxPodsAbove110, field.NewPath("MaxPods"), "a maximum pod count of %d is above GKE's long-standing 110 limit; only newer GKE Standard versions allow up to 256", in.MaxPods)
		}
	default:
		c.setMaxPods(110, FMaxPodsKubelet, "kubelet default")
	}
}

func (c *calc) setMaxPods(def int64, formula, detail string) {
	if p := c.in.MeasuredAllocatable.Pods; p != nil {
		c.res.MaxPods = *p
		c.term("maxPods", UnitPods, *p, FAllocatableMeasured, fmt.Sprintf("the measured allocatable pods (the profile default would be %d by %s)", def, formula))
		return
	}
	if c.in.MaxPods > 0 {
		c.res.MaxPods = c.in.MaxPods
		c.term("maxPods", UnitPods, c.in.MaxPods, FOverrideUser, fmt.Sprintf("max pods set by the user (the profile default would be %d by %s)", def, formula))
		return
	}
	c.res.MaxPods = def
	c.term("maxPods", UnitPods, def, formula, detail)
}

// eksMaxPods applies the VPC CNI's ENI formula, prefix delegation, custom networking, reserved ENIs and the
// caps of each node-group kind.
func (c *calc) eksMaxPods() {
	in, inst := c.in, c.in.Instance
	e, ip := inst.MaxENIs, inst.IPv4PerENI
	c.pENI = inst.ENIMaxPods
	if c.pENI == 0 && e > 0 && ip > 0 {
		c.pENI = e*(ip-1) + 2
	}
	if in.Profile == EKSWindows {
		c.res.IPCap = (ip - 1)
		if in.EKS.PrefixDelegation {
			c.res.IPCap *= 16
		}
		c.res.IPCap = max(c.res.IPCap, 0)
		if c.mngEnforces() {
			// EKS's own max pods win on a managed group here too (mngEnforcedMaxPods); its nodes reserve memory for them.
			c.mngEnforcedMaxPods(110, FMaxPodsEKSWindows, "EKS Windows (Karpenter's model)")
			c.mngMemoryPods(110, 0)
		} else {
			c.setMaxPods(110, FMaxPodsEKSWindows, "EKS Windows (Karpenter's model)")
			c.podP = c.res.MaxPods
		}
		// A Windows node gives pods the IPs of its one ENI (awsdocs/amazon-eks-user-guide windows-support: "the
		// number of Pods that you can run per Windows node is equal to the number of IP addresses available per
		// elastic network interface for the node's instance type, minus one"); kube-proxy and the CNI run on the host.
		if ip > 0 && c.res.MaxPods > c.res.IPCap {
			c.warn(CodeMaxPodsAboveIPs, field.NewPath("MaxPods"),
				"max pods %d exceeds the %d pod IPs of a Windows node of %q (one ENI, %d IPv4 addresses less the node's own): extra pods would schedule but never start; kubefit counts only %d workload-capable slots",
				c.res.MaxPods, c.res.IPCap, inst.Name, ip, c.res.IPCap)
		}
		return
	}
	if e == 0 || ip == 0 {
		c.warn(CodeNoENIData, field.NewPath("Instance"), "the catalog has no ENI data for %q; max pods falls back to 110 and the IP limit is not checked", inst.Name)
		c.setMaxPods(110, FMaxPodsKubelet, "no ENI data for this type")
		c.podP = c.res.MaxPods
		return
	}
	reserved := in.EKS.ReservedENIs
	if in.EKS.CustomNetworking {
		reserved = max(reserved, 1)
	}
	u := max(e-reserved, 0)
	pdCapable := inst.Hypervisor == "nitro" || inst.BareMetal
	ipCap := u * (ip - 1)
	formula, detail := FMaxPodsENI, fmt.Sprintf("%d usable ENIs × (%d IPv4 − 1) + 2", u, ip)
	if in.EKS.PrefixDelegation {
		if pdCapable {
			ipCap *= 16
			formula, detail = FMaxPodsPD, fmt.Sprintf("%d usable ENIs × (%d − 1) × 16 (/28 prefixes) + 2", u, ip)
		} else {
			c.warn(CodePrefixDelegationIgnored, field.NewPath("EKS", "PrefixDelegation"),
				"prefix delegation needs a Nitro or bare-metal instance; %q is neither, so it is ignored", inst.Name)
		}
	}
	c.res.IPCap = ipCap
	v := ipCap + 2
	if in.EKS.Kind == AutoMode {
		// Auto Mode runs the VPC CNI and kube-proxy on the host, not as pods: max pods is the pod IP count.
		v = ipCap
		formula, detail = FMaxPodsAutoMode, fmt.Sprintf("%d usable ENIs × (%d IPv4 − 1): Auto Mode has no aws-node or kube-proxy pods", u, ip)
	}
	if u == 0 {
		c.warn(CodeNoENIForPods, field.NewPath("EKS", "ReservedENIs"),
			"no ENI is left for pods on %q after %d reserved ENIs and custom networking: the node cannot run pods that need a VPC IP", inst.Name, reserved)
	}
	def := v
	switch in.EKS.Kind {
	case Managed:
		ceiling := int64(110)
		if inst.VCPU > 30 {
			ceiling = 250
		}
		if v > ceiling {
			def, formula, detail = ceiling, FMaxPodsMNGCap, fmt.Sprintf("min(%d, %d): the managed node group cap for %d vCPUs", v, ceiling, inst.VCPU)
		}
	case AutoMode:
		if v > 110 {
			def, formula, detail = 110, FMaxPodsAutoModeCap, fmt.Sprintf("min(%d, 110): the Auto Mode cap", v)
		}
	case SelfManaged:
		if in.Profile != EKSBottlerocket || !in.EKS.PrefixDelegation {
			def, formula, detail = c.pENI, FMaxPodsENI, "P_ENI from the VPC CNI table (self-managed nodes are not capped)"
		}
	case Karpenter:
		v2 := u*(ip-1) + 2
		def, formula, detail = v2, FMaxPodsENI, fmt.Sprintf("%d usable ENIs × (%d − 1) + 2 (Karpenter; with prefix delegation set the maximum pod count)", u, ip)
	}
	enforced := c.mngEnforces()
	switch {
	case enforced:
		c.mngEnforcedMaxPods(def, formula, detail)
	default:
		if in.EKS.MaxPodsExpressionResult > 0 && in.Profile == EKSAL2023 {
			def, formula, detail = in.EKS.MaxPodsExpressionResult, FOverrideUser, "the maxPodsExpression result given by the user"
		}
		c.setMaxPods(def, formula, detail)
	}
	if hostPods := c.hostNetworkPods(); c.res.MaxPods > c.res.IPCap+hostPods {
		c.warn(CodeMaxPodsAboveIPs, field.NewPath("MaxPods"),
			"max pods %d exceeds the %d pod IPs of %q plus %d host-network pods: extra pods would schedule but never start; kubefit counts only %d workload-capable slots",
			c.res.MaxPods, c.res.IPCap, inst.Name, hostPods, c.res.IPCap+hostPods)
	}
	c.podP = c.eksMemoryPods(e, ip)
	if enforced && in.Profile != EKSAL2 {
		// AL2's bootstrap.sh reserves for P_ENI whatever max pods it is given.
		c.mngMemoryPods(def, c.pENI)
	}
}

// mngEnforces reports whether EKS's own max pods override the asked one (mngEnforcedMaxPods): a managed node group,
// a max pods asked for, and no measured node that says otherwise.
func (c *calc) mngEnforces() bool {
	return c.in.EKS.Kind == Managed && c.in.MeasuredAllocatable.Pods == nil && c.askedMaxPods() > 0
}

// mngMemoryPods sets the pod count a managed node group's node reserves memory for when EKS enforces its max pods:
// the larger of the asked count and EKS's, since the node may run either (and of P_ENI where the profile reserves
// for it too; 0 for none).
func (c *calc) mngMemoryPods(enforced, pENI int64) {
	asked := c.askedMaxPods()
	c.podP = max(pENI, asked, enforced)
	if pENI > 0 {
		c.podPWhy = fmt.Sprintf("max(P_ENI %d, %d asked, %d EKS enforces): the managed node group's nodes may run either count", pENI, asked, enforced)
		return
	}
	c.podPWhy = fmt.Sprintf("max(%d asked, %d EKS enforces): the managed node group's nodes may run either count", asked, enforced)
}

// askedMaxPods is the max pods the user asks the kubelet for: MaxPods, else an AL2023 maxPodsExpression's result; 0
// for none.
func (c *calc) askedMaxPods() int64 {
	if c.in.MaxPods > 0 {
		return c.in.MaxPods
	}
	if c.in.Profile == EKSAL2023 {
		return c.in.EKS.MaxPodsExpressionResult
	}
	return 0
}

// mngEnforcedMaxPods plans a managed node group whose max pods the user asks for. EKS writes its own max pods, the
// capped value enforced (the ENI or prefix-delegation formula, at most 110 below 30 vCPUs and 250 above), into the
// user data of a managed node group without a custom AMI, and it "takes precedence over any other maxPods
// configuration, including maxPodsExpression" (awsdocs/amazon-eks-user-guide latest/ug/nodes/choosing-instance-type,
// "How maxPods is determined"; overhead.md §8.3.1): a launch template's kubelet maxPods does not reach the nodes. So
// the node is planned with the smaller of the two pod counts (the safe side, should a launch template's value apply
// after all: kubefit's own launch template and eksctl entry carry this planned count), and the memory reservation
// with the larger.
func (c *calc) mngEnforcedMaxPods(enforced int64, formula, detail string) {
	asked := c.askedMaxPods()
	c.res.MaxPods = min(asked, enforced)
	c.term("maxPods", UnitPods, c.res.MaxPods, FMaxPodsMNGEnforced, fmt.Sprintf("min(%d asked, %d that EKS enforces on a managed node group: %s by %s)", asked, enforced, detail, formula))
	if asked == enforced {
		return
	}
	what := fmt.Sprintf("max pods %d", asked)
	if c.in.MaxPods == 0 {
		what = fmt.Sprintf("the maxPodsExpression result %d", asked)
	}
	effect := fmt.Sprintf("%s cannot take effect: planned with %d", what, enforced)
	if asked < enforced {
		effect = fmt.Sprintf("its nodes run %d pods whatever %s says: planned with the smaller pod count, %d, and the memory reservation of %d pods", enforced, what, asked, enforced)
	}
	c.warn(CodeMNGMaxPodsEnforced, field.NewPath("MaxPods"),
		"EKS writes its own max pods, %d on %q, into the user data of a managed node group without a custom AMI, and it takes precedence over a launch template's kubelet settings: %s; "+
			"to run another count, use a custom AMI (a self-managed node group's bootstrap) or Karpenter",
		enforced, c.in.Instance.Name, effect)
}

// hostNetworkPods is the number of host-network pods every node runs outside the DaemonSets listed: aws-node
// and kube-proxy on EKS Linux nodes, except on Auto Mode, which runs both on the host.
func (c *calc) hostNetworkPods() int64 {
	if c.in.Profile.isEKS() && c.in.Profile != EKSWindows && c.in.EKS.Kind != AutoMode {
		return int64(len(eksHostNetworkDaemonSets))
	}
	return 0
}

// eksMemoryPods is the pod count P of the EKS memory formula 11 × P + 255, which depends on the image and
// launcher and is not always the node's max pods.
func (c *calc) eksMemoryPods(e, ip int64) int64 {
	in := c.in
	switch {
	case in.Profile == EKSBottlerocket:
		return c.res.MaxPods
	case in.Profile == EKSAL2:
		return c.pENI
	case in.EKS.Kind == Karpenter:
		return e*(ip-1) + 2
	case in.EKS.MaxPodsExpressionResult > 0:
		return in.EKS.MaxPodsExpressionResult
	case in.EKS.Kind == Managed || in.EKS.Kind == AutoMode:
		return max(c.pENI, c.res.MaxPods)
	}
	return c.pENI
}

// describeP says which pod count the EKS memory formula used, for the term's detail.
func (c *calc) describeP() string {
	in := c.in
	switch {
	case c.podPWhy != "":
		return c.podPWhy
	case in.Profile == EKSBottlerocket || in.Profile == EKSWindows:
		return "effective max pods"
	case in.Profile == EKSAL2:
		return "P_ENI; AL2 bootstrap.sh ignores a max-pods override"
	case in.EKS.Kind == Karpenter:
		return "P_ENI without reserved ENIs, as Karpenter computes it"
	case in.EKS.MaxPodsExpressionResult > 0:
		return "the maxPodsExpression result"
	case in.EKS.Kind == Managed || in.EKS.Kind == AutoMode:
		return fmt.Sprintf("max(P_ENI %d, max pods %d), kubefit's conservative reading for AL2023 on %s", c.pENI, c.res.MaxPods, in.EKS.Kind)
	}
	return "P_ENI; nodeadm ignores a kubelet maxPods override"
}
