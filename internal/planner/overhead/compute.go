package overhead

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
)

const (
	mi = int64(1) << 20
	gi = int64(1) << 30

	defaultVMOverheadBP = 750
	arm64CMAMiB         = 64
	maxResourceValue    = int64(1) << 53 // far above any real node; keeps every product below overflow
)

// Compute evaluates the model for one node. It returns an *Error naming the input field at fault when the
// input is invalid or leaves the node unable to run anything. Compute is pure and deterministic.
func Compute(in Input) (Result, error) {
	if err := validate(&in); err != nil {
		return Result{}, err
	}
	c := &calc{in: in, res: Result{Profile: in.Profile}}
	c.maxPods()
	if err := c.capacity(); err != nil {
		return Result{}, err
	}
	if err := c.reservations(); err != nil {
		return Result{}, err
	}
	if err := c.allocatable(); err != nil {
		return Result{}, err
	}
	c.daemonSets()
	c.res.KubeletArgs = kubeletArgs(c.res)
	return c.res, nil
}

type calc struct {
	in   Input
	res  Result
	pENI int64 // P_ENI for EKS
	podP int64 // the P of memory.eks-per-pod
}

func (c *calc) term(name string, v int64, formula, detail string) {
	c.res.Terms = append(c.res.Terms, Term{Name: name, Value: v, Formula: formula, Detail: detail})
}

func (c *calc) warn(format string, args ...any) {
	c.res.Warnings = append(c.res.Warnings, fmt.Sprintf(format, args...))
}

func validate(in *Input) error {
	if _, err := ParseProfile(string(in.Profile)); err != nil {
		return fieldErr("profile", "%s", err.Error())
	}
	if pc := in.Profile.Cloud(); pc != "" && in.Instance.Cloud != "" && pc != in.Instance.Cloud {
		return fieldErr("profile", "profile %q is for %s nodes but instance type %q is from the %s catalog; choose a %s profile (default %q)",
			in.Profile, pc, in.Instance.Name, in.Instance.Cloud, in.Instance.Cloud, DefaultProfile(in.Instance.Cloud))
	}
	if in.Instance.VCPU <= 0 && in.MeasuredCapacity.CPUMillicores == nil {
		return fieldErr("instance_type", "the catalog has no vCPU count for %q; set measured_capacity.cpu, or use profile \"custom\" with vcpu and memory", in.Instance.Name)
	}
	if in.Instance.VCPU > 100000 || in.Instance.MemoryMiB < 0 || in.Instance.MemoryMiB > maxResourceValue/mi {
		return fieldErr("instance_type", "vcpu %d or memory %d MiB is out of range", in.Instance.VCPU, in.Instance.MemoryMiB)
	}
	if in.MaxPods < 0 {
		return fieldErr("max_pods", "max_pods must be at least 1, got %d", in.MaxPods)
	}
	if in.MaxPods > 100000 {
		return fieldErr("max_pods", "max_pods %d is beyond any kubelet limit", in.MaxPods)
	}
	if in.VMMemoryOverheadBP != nil && (*in.VMMemoryOverheadBP < 0 || *in.VMMemoryOverheadBP >= 10000) {
		return fieldErr("vm_memory_overhead_percent", "must be at least 0 and below 100, got %s%%", formatBP(*in.VMMemoryOverheadBP))
	}
	if in.OSDiskGiB < 0 || in.OSDiskGiB > 1<<20 {
		return fieldErr("os_disk_gib", "must be a positive size in GiB, got %d", in.OSDiskGiB)
	}
	if in.EKS.ReservedENIs < 0 {
		return fieldErr("eks.reserved_enis", "must not be negative, got %d", in.EKS.ReservedENIs)
	}
	if in.EKS.MaxPodsExpressionResult < 0 {
		return fieldErr("eks.max_pods_expression_result", "must not be negative, got %d", in.EKS.MaxPodsExpressionResult)
	}
	if in.EKS.Kind == "" {
		in.EKS.Kind = Managed
	}
	if !contains(NodeGroupKinds, in.EKS.Kind) {
		return fieldErr("eks.node_group_kind", "unknown node group kind %q; valid kinds are %s", in.EKS.Kind, quoteList(NodeGroupKinds))
	}
	if in.EKS.Kind == AutoMode && in.Profile == EKSWindows {
		return fieldErr("eks.node_group_kind", "EKS Auto Mode has no Windows nodes; use profile \"eks-al2023\" or another node group kind")
	}
	if in.AKS.NetworkPlugin == "" {
		in.AKS.NetworkPlugin = AzureCNIOverlay
	}
	if !contains(NetworkPlugins, in.AKS.NetworkPlugin) {
		return fieldErr("aks.network_plugin", "unknown network plugin %q; valid plugins are %s", in.AKS.NetworkPlugin, quoteList(NetworkPlugins))
	}
	if _, err := parseMinor(in.KubernetesVersion); err != nil {
		return fieldErr("kubernetes_version", "%s", err.Error())
	}
	for _, r := range []struct {
		field string
		v     Reservation
	}{{"kube_reserved", in.KubeReserved}, {"system_reserved", in.SystemReserved}, {"measured_capacity", in.MeasuredCapacity}} {
		for key, p := range map[string]*int64{"cpu": r.v.CPUMillicores, "memory": r.v.MemoryBytes, "ephemeral_storage": r.v.EphemeralBytes} {
			if p != nil && (*p < 0 || *p > maxResourceValue) {
				return fieldErr(r.field+"."+key, "must be between 0 and %d, got %d", maxResourceValue, *p)
			}
		}
	}
	for key, t := range in.EvictionHard {
		if key != SignalMemory && key != SignalNodefs {
			return fieldErr("eviction_hard", "unsupported signal %q; kubefit models %q and %q (soft thresholds and inodes never change allocatable)", key, SignalMemory, SignalNodefs)
		}
		if t.Bytes < 0 || t.Bytes > maxResourceValue || t.PercentBP < 0 || t.PercentBP > 10000 {
			return fieldErr("eviction_hard."+key, "threshold out of range")
		}
	}
	for i, d := range in.DaemonSets {
		if d.CPUMillicores < 0 || d.MemoryBytes < 0 || d.EphemeralBytes < 0 ||
			d.CPUMillicores > maxResourceValue || d.MemoryBytes > maxResourceValue || d.EphemeralBytes > maxResourceValue {
			return fieldErr(fmt.Sprintf("daemonsets[%d]", i), "daemonset %q has a negative or out-of-range request", d.Name)
		}
	}
	return nil
}

// parseMinor returns the minor version of "1.28", "v1.29.3"; 0 for "" (current rules).
func parseMinor(v string) (int, error) {
	if v == "" {
		return 0, nil
	}
	s := strings.TrimPrefix(v, "v")
	parts := strings.Split(s, ".")
	if len(parts) < 2 || len(parts) > 3 || parts[0] != "1" {
		return 0, fmt.Errorf("invalid Kubernetes version %q; write it as \"1.29\"", v)
	}
	minor, err := strconv.Atoi(parts[1])
	if err != nil || minor < 0 || minor > 1000 {
		return 0, fmt.Errorf("invalid Kubernetes version %q; write it as \"1.29\"", v)
	}
	return minor, nil
}

func contains[T comparable](xs []T, x T) bool {
	for _, y := range xs {
		if x == y {
			return true
		}
	}
	return false
}

// maxPods applies §8: the effective maxPods, IPcap on EKS, and the P of the EKS memory formula.
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
		if in.MaxPods != 0 && (in.MaxPods < 10 || in.MaxPods > 250) {
			c.warn("AKS accepts max pods from 10 to 250; %d will be rejected by AKS", in.MaxPods)
		}
	case p == GKEStandard:
		c.setMaxPods(110, FMaxPodsGKE, "GKE Standard default")
		if in.MaxPods != 0 && (in.MaxPods < 8 || in.MaxPods > 256) {
			c.warn("GKE Standard accepts max pods from 8 to 256; %d will be rejected", in.MaxPods)
		} else if in.MaxPods > 110 {
			c.warn("max pods %d is above GKE's long-standing 110 limit; only newer GKE Standard versions allow up to 256", in.MaxPods)
		}
	default:
		c.setMaxPods(110, FMaxPodsKubelet, "kubelet default")
	}
}

func (c *calc) setMaxPods(def int64, formula, detail string) {
	if c.in.MaxPods > 0 {
		c.res.MaxPods = c.in.MaxPods
		c.term("max_pods", c.in.MaxPods, FOverrideUser, fmt.Sprintf("max_pods set by the user (the profile default would be %d by %s)", def, formula))
		return
	}
	c.res.MaxPods = def
	c.term("max_pods", def, formula, detail)
}

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
		c.setMaxPods(110, FMaxPodsEKSWindows, "EKS Windows (Karpenter's model)")
		c.podP = c.res.MaxPods
		return
	}
	if e == 0 || ip == 0 {
		c.warn("the catalog has no ENI data for %q; max pods falls back to 110 and the IP limit is not checked", inst.Name)
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
			c.warn("prefix delegation needs a Nitro or bare-metal instance; %q is neither, so it is ignored", inst.Name)
		}
	}
	c.res.IPCap = ipCap
	v := ipCap + 2
	if u == 0 {
		c.warn("no ENI is left for pods on %q after reserved ENIs and custom networking: the node cannot run pods that need a VPC IP", inst.Name)
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
		def, formula, detail = v2, FMaxPodsENI, fmt.Sprintf("%d usable ENIs × (%d − 1) + 2 (Karpenter; with prefix delegation set max_pods)", u, ip)
	}
	if in.EKS.MaxPodsExpressionResult > 0 && in.Profile == EKSAL2023 {
		def, formula, detail = in.EKS.MaxPodsExpressionResult, FOverrideUser, "the maxPodsExpression result given by the user"
	}
	c.setMaxPods(def, formula, detail)
	if c.res.MaxPods > c.res.IPCap+2 {
		c.warn("max pods %d exceeds the %d pod IPs of %q plus the 2 host-network pods: extra pods would schedule but never start; kubefit counts only %d workload-capable slots",
			c.res.MaxPods, c.res.IPCap, inst.Name, c.res.IPCap+2)
	}
	// The P of §6.1.
	switch {
	case in.Profile == EKSBottlerocket:
		c.podP = c.res.MaxPods
	case in.Profile == EKSAL2:
		c.podP = c.pENI
	case in.EKS.Kind == Karpenter:
		c.podP = e*(ip-1) + 2
	case in.EKS.MaxPodsExpressionResult > 0:
		c.podP = in.EKS.MaxPodsExpressionResult
	case in.EKS.Kind == Managed || in.EKS.Kind == AutoMode:
		c.podP = max(c.pENI, c.res.MaxPods)
	default:
		c.podP = c.pENI
	}
}

// capacity applies §4.
func (c *calc) capacity() error {
	in := c.in
	if v := in.MeasuredCapacity.CPUMillicores; v != nil {
		c.res.Capacity.CPUMillicores = *v
		c.term("capacity.cpu", *v, FCapacityMeasured, "measured capacity given by the user")
	} else {
		c.res.Capacity.CPUMillicores = in.Instance.VCPU * 1000
		c.term("capacity.cpu", c.res.Capacity.CPUMillicores, capacityFormula(in), fmt.Sprintf("%d vCPU × 1000m", in.Instance.VCPU))
	}
	if v := in.MeasuredCapacity.MemoryBytes; v != nil {
		c.res.Capacity.MemoryBytes = *v
		c.term("capacity.memory", *v, FCapacityMeasured, "measured capacity given by the user")
	} else {
		if in.Instance.MemoryMiB <= 0 {
			return fieldErr("instance_type", "the catalog has no memory figure for %q; set measured_capacity.memory, or use profile \"custom\" with vcpu and memory", in.Instance.Name)
		}
		bp := int64(defaultVMOverheadBP)
		if in.VMMemoryOverheadBP != nil {
			bp = *in.VMMemoryOverheadBP
		}
		base := in.Instance.MemoryMiB
		detail := ""
		if in.Instance.Architecture == catalog.ArchARM64 {
			base -= arm64CMAMiB
			detail = " after 64 MiB for CMA on arm64"
		}
		if base <= 0 {
			return fieldErr("instance_type", "instance type %q has only %d MiB of memory; nothing is left after the VM overhead", in.Instance.Name, in.Instance.MemoryMiB)
		}
		capMi := base - ceilDiv(base*bp, 10000)
		c.res.Capacity.MemoryBytes = capMi * mi
		c.term("capacity.memory", capMi*mi, capacityFormula(in),
			fmt.Sprintf("%d MiB nominal%s, minus %s%% VM overhead = %d MiB", in.Instance.MemoryMiB, detail, formatBP(bp), capMi))
	}
	if v := in.MeasuredCapacity.EphemeralBytes; v != nil {
		c.res.Capacity.EphemeralBytes = *v
		c.term("capacity.ephemeral_storage", *v, FCapacityMeasured, "measured capacity given by the user")
	} else {
		disk := in.OSDiskGiB
		detail := fmt.Sprintf("os_disk_gib %d", disk)
		if disk == 0 {
			disk = defaultDiskGiB(in.Profile)
			detail = fmt.Sprintf("default root/OS disk of %d GiB for %s", disk, in.Profile)
		}
		c.res.Capacity.EphemeralBytes = disk * gi
		c.term("capacity.ephemeral_storage", disk*gi, capacityFormula(in), detail)
	}
	c.res.Capacity.Pods = c.res.MaxPods
	return nil
}

func capacityFormula(in Input) string {
	if in.Profile == Custom {
		return FCapacityCustom
	}
	return FCapacityVMOverhead
}

// defaultDiskGiB is the root/OS disk each platform creates when none is set: EKS managed node groups and
// Karpenter 20 GiB (Windows AMIs need 50 GiB), AKS 128 GiB, GKE 100 GB.
func defaultDiskGiB(p Profile) int64 {
	switch {
	case p == EKSWindows:
		return 50
	case p.isEKS():
		return 20
	case p.isAKS():
		return 128
	case p == GKEStandard:
		return 100
	}
	return 20
}

// reservations applies §5–§7 and then the user's overrides, key by key (§10).
func (c *calc) reservations() error {
	minor, _ := parseMinor(c.in.KubernetesVersion)
	if c.in.Profile.isAKS() && minor == 29 {
		// §11.2: at exactly 1.29 compute both rule sets and keep the smaller allocatable.
		old, cur := *c, *c
		old.res.Terms = append([]Term(nil), c.res.Terms...)
		cur.res.Terms = append([]Term(nil), c.res.Terms...)
		if err := old.profileReservations(28); err != nil {
			return err
		}
		if err := cur.profileReservations(30); err != nil {
			return err
		}
		chosen := &cur
		if old.memoryTotal() > cur.memoryTotal() {
			chosen = &old
		}
		*c = *chosen
		c.res.RulesVersion += " (Kubernetes 1.29: both rule sets computed, the smaller allocatable kept)"
		c.warn("AKS 1.29 nodes were seen with both the old and the new reservation rules; kubefit keeps the smaller allocatable (%s)", c.res.RulesVersion)
	} else if err := c.profileReservations(minor); err != nil {
		return err
	}
	return c.overrides()
}

func (c *calc) memoryTotal() int64 {
	return c.res.KubeReserved.MemoryBytes + c.res.SystemReserved.MemoryBytes + c.res.EvictionThreshold.MemoryBytes
}

func (c *calc) profileReservations(minor int) error {
	in := c.in
	p := in.Profile
	v := in.Instance.VCPU
	if in.MeasuredCapacity.CPUMillicores != nil && v == 0 {
		v = *in.MeasuredCapacity.CPUMillicores / 1000
	}
	n := in.Instance.MemoryMiB
	r := &c.res
	nodefsBP := int64(1000)
	switch {
	case p.isEKS():
		r.RulesVersion = "eks (rules in force since 2020-04)"
		r.KubeReserved.CPUMillicores = tieredCPU(v)
		c.term("kube_reserved.cpu", r.KubeReserved.CPUMillicores, FCPUTiered, fmt.Sprintf("tiers on %d vCPU", v))
		if c.podP <= 0 {
			return fieldErr("instance_type", "no pod count is known for %q to compute the EKS memory reservation; set max_pods", in.Instance.Name)
		}
		r.KubeReserved.MemoryBytes = (11*c.podP + 255) * mi
		c.term("kube_reserved.memory", r.KubeReserved.MemoryBytes, FMemoryEKSPerPod, fmt.Sprintf("11 × %d pods (P = %s) + 255 Mi", c.podP, c.describeP()))
		r.KubeReserved.EphemeralBytes = gi
		c.term("kube_reserved.ephemeral_storage", gi, FEphemeralEKS, "1Gi")
		r.EvictionThreshold.MemoryBytes = 100 * mi
		c.term("eviction.memory", r.EvictionThreshold.MemoryBytes, FEvictionMemory, "memory.available<100Mi")
	case p.isAKS():
		r.KubeReserved.CPUMillicores = aksCPU(v)
		c.term("kube_reserved.cpu", r.KubeReserved.CPUMillicores, FCPUAKSBracketed, fmt.Sprintf("AKS table on %d vCPU", v))
		if n <= 0 {
			return fieldErr("instance_type", "the catalog has no nominal memory for %q, which the AKS reservation needs; use profile \"custom\" or set kube_reserved.memory", in.Instance.Name)
		}
		if minor != 0 && minor < 29 {
			r.RulesVersion = "aks < 1.29"
			r.KubeReserved.MemoryBytes = aksRegressive(n) * mi
			c.term("kube_reserved.memory", r.KubeReserved.MemoryBytes, FMemoryAKSRegressive, fmt.Sprintf("25/20/10/6/2 %% tiers on %d MiB nominal", n))
			r.EvictionThreshold.MemoryBytes = 750 * mi
			c.term("eviction.memory", r.EvictionThreshold.MemoryBytes, FEvictionMemory, "memory.available<750Mi (AKS before 1.29)")
		} else {
			r.RulesVersion = "aks >= 1.29"
			perPod := 20*r.MaxPods + 50
			quarter := ceilDiv(n, 4)
			r.KubeReserved.MemoryBytes = min(perPod, quarter) * mi
			c.term("kube_reserved.memory", r.KubeReserved.MemoryBytes, FMemoryAKSPerPod, fmt.Sprintf("min(20 × %d pods + 50, 25%% of %d MiB = %d) Mi", r.MaxPods, n, quarter))
			r.EvictionThreshold.MemoryBytes = 100 * mi
			c.term("eviction.memory", r.EvictionThreshold.MemoryBytes, FEvictionMemory, "memory.available<100Mi (AKS 1.29 and later)")
		}
		c.term("kube_reserved.ephemeral_storage", 0, FEphemeralNone, "AKS reserves no ephemeral storage")
		if p == AKSWindows {
			r.SystemReserved.MemoryBytes = 2048 * mi
			c.term("system_reserved.memory", r.SystemReserved.MemoryBytes, FSystemAKSWindows, "2 GB for Windows system processes, read as 2048 Mi")
		}
	case p == GKEStandard:
		r.RulesVersion = "gke standard"
		if in.Instance.SharedCore && in.Instance.Family == "e2" {
			r.KubeReserved.CPUMillicores = 1060
			c.term("kube_reserved.cpu", 1060, FCPUGKESharedCore, "flat 1060m on shared-core E2")
		} else if in.Instance.SharedCore {
			if in.KubeReserved.CPUMillicores == nil {
				return fieldErr("kube_reserved.cpu", "no source documents GKE's CPU reservation for shared-core %q; set kube_reserved.cpu from a real node", in.Instance.Name)
			}
		} else {
			r.KubeReserved.CPUMillicores = tieredCPU(v)
			c.term("kube_reserved.cpu", r.KubeReserved.CPUMillicores, FCPUTiered, fmt.Sprintf("tiers on %d vCPU", v))
		}
		if n <= 0 && in.KubeReserved.MemoryBytes == nil {
			return fieldErr("instance_type", "the catalog has no nominal memory for %q, which the GKE reservation needs; set kube_reserved.memory", in.Instance.Name)
		}
		if n < 1024 {
			r.KubeReserved.MemoryBytes = 255 * mi
			c.term("kube_reserved.memory", r.KubeReserved.MemoryBytes, FMemoryGKERegressive, "255 Mi below 1 GiB")
		} else {
			r.KubeReserved.MemoryBytes = aksRegressive(n) * mi
			c.term("kube_reserved.memory", r.KubeReserved.MemoryBytes, FMemoryGKERegressive, fmt.Sprintf("25/20/10/6/2 %% tiers on %d MiB nominal", n))
		}
		disk := r.Capacity.EphemeralBytes
		r.KubeReserved.EphemeralBytes = min(disk/2, disk*35/100+6*gi, 100*gi)
		c.term("kube_reserved.ephemeral_storage", r.KubeReserved.EphemeralBytes, FEphemeralGKEDisk, "min(50 % of disk, 35 % of disk + 6 GiB, 100 GiB)")
		r.EvictionThreshold.MemoryBytes = 100 * mi
		c.term("eviction.memory", r.EvictionThreshold.MemoryBytes, FEvictionMemory, "memory.available<100Mi")
	default: // custom: explicit reservations only; kubelet default eviction
		r.RulesVersion = "custom"
		r.EvictionThreshold.MemoryBytes = 100 * mi
		c.term("eviction.memory", r.EvictionThreshold.MemoryBytes, FEvictionMemory, "kubelet default memory.available<100Mi")
	}
	r.EvictionThreshold.EphemeralBytes = ceilDiv(r.Capacity.EphemeralBytes*nodefsBP, 10000)
	c.term("eviction.ephemeral_storage", r.EvictionThreshold.EphemeralBytes, FEvictionNodefs, "nodefs.available<10%")
	r.EvictionHard = map[string]string{SignalMemory: FormatBytes(r.EvictionThreshold.MemoryBytes), SignalNodefs: formatBP(nodefsBP) + "%"}
	return nil
}

func (c *calc) describeP() string {
	in := c.in
	switch {
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

func (c *calc) overrides() error {
	in := c.in
	r := &c.res
	set := func(name string, dst *int64, v *int64) {
		if v != nil {
			*dst = *v
			c.term(name, *v, FOverrideUser, "set by the user")
		}
	}
	set("kube_reserved.cpu", &r.KubeReserved.CPUMillicores, in.KubeReserved.CPUMillicores)
	set("kube_reserved.memory", &r.KubeReserved.MemoryBytes, in.KubeReserved.MemoryBytes)
	set("kube_reserved.ephemeral_storage", &r.KubeReserved.EphemeralBytes, in.KubeReserved.EphemeralBytes)
	set("system_reserved.cpu", &r.SystemReserved.CPUMillicores, in.SystemReserved.CPUMillicores)
	set("system_reserved.memory", &r.SystemReserved.MemoryBytes, in.SystemReserved.MemoryBytes)
	set("system_reserved.ephemeral_storage", &r.SystemReserved.EphemeralBytes, in.SystemReserved.EphemeralBytes)
	if in.Profile == AKSLinux {
		// The AKS preview of a customisable kubeReserved enforces these floors; an observed kubelet flag
		// (such as the 69m of 2019 nodes, overhead.md §11.2) may be lower, so kubefit warns instead of failing.
		if v := in.KubeReserved.CPUMillicores; v != nil && *v < 140 {
			c.warn("AKS's customisable kubeReserved requires at least 140m CPU; %dm is accepted as an observed kubelet value but AKS would reject it as a setting", *v)
		}
		if v := in.KubeReserved.MemoryBytes; v != nil && *v < 750*mi {
			c.warn("AKS's customisable kubeReserved requires at least 750Mi memory; %s is accepted as an observed kubelet value but AKS would reject it as a setting", FormatBytes(*v))
		}
	}
	if t, ok := in.EvictionHard[SignalMemory]; ok {
		v := thresholdBytes(t, r.Capacity.MemoryBytes)
		if in.Profile.isAKS() && v < 100*mi && v*50 < r.Capacity.MemoryBytes {
			return fieldErr("eviction_hard."+SignalMemory, "AKS requires memory.available of at least 100Mi or 2%%, got %s", FormatBytes(v))
		}
		r.EvictionThreshold.MemoryBytes = v
		r.EvictionHard[SignalMemory] = t.String()
		c.term("eviction.memory", v, FOverrideUser, "eviction_hard memory.available set by the user")
	}
	if t, ok := in.EvictionHard[SignalNodefs]; ok {
		r.EvictionThreshold.EphemeralBytes = thresholdBytes(t, r.Capacity.EphemeralBytes)
		r.EvictionHard[SignalNodefs] = t.String()
		c.term("eviction.ephemeral_storage", r.EvictionThreshold.EphemeralBytes, FOverrideUser, "eviction_hard nodefs.available set by the user")
	}
	if r.SystemReserved == (Resources{}) {
		c.term("system_reserved", 0, FSystemNone, "no system-reserved quantities")
	}
	return nil
}

// thresholdBytes resolves a threshold against a capacity: percentages round up, and 0 % or 100 % disable the
// threshold, as the kubelet does.
func thresholdBytes(t Threshold, capacity int64) int64 {
	if !t.IsPercent {
		return t.Bytes
	}
	if t.PercentBP == 0 || t.PercentBP == 10000 {
		return 0
	}
	return ceilDiv(capacity*t.PercentBP, 10000)
}

// allocatable applies §2.
func (c *calc) allocatable() error {
	r := &c.res
	r.Allocatable = Resources{
		CPUMillicores:  r.Capacity.CPUMillicores - r.KubeReserved.CPUMillicores - r.SystemReserved.CPUMillicores,
		MemoryBytes:    r.Capacity.MemoryBytes - r.KubeReserved.MemoryBytes - r.SystemReserved.MemoryBytes - r.EvictionThreshold.MemoryBytes,
		EphemeralBytes: r.Capacity.EphemeralBytes - r.KubeReserved.EphemeralBytes - r.SystemReserved.EphemeralBytes - r.EvictionThreshold.EphemeralBytes,
		Pods:           r.MaxPods,
	}
	r.KubeReserved.Pods, r.SystemReserved.Pods, r.EvictionThreshold.Pods = 0, 0, 0
	// Blame the override the user set, else the instance type.
	blame := func(key string, sys, kube *int64) string {
		switch {
		case sys != nil:
			return "system_reserved." + key
		case kube != nil:
			return "kube_reserved." + key
		}
		return "instance_type"
	}
	in := c.in
	switch {
	case r.Allocatable.CPUMillicores <= 0:
		return fieldErr(blame("cpu", in.SystemReserved.CPUMillicores, in.KubeReserved.CPUMillicores),
			"the reservations leave %dm CPU allocatable on %q (capacity %dm): the node could run nothing; lower the reservations or choose a larger instance type",
			r.Allocatable.CPUMillicores, in.Instance.Name, r.Capacity.CPUMillicores)
	case r.Allocatable.MemoryBytes <= 0:
		return fieldErr(blame("memory", in.SystemReserved.MemoryBytes, in.KubeReserved.MemoryBytes),
			"the reservations leave %s memory allocatable on %q (capacity %s): the node could run nothing; lower the reservations or choose a larger instance type",
			FormatBytes(r.Allocatable.MemoryBytes), in.Instance.Name, FormatBytes(r.Capacity.MemoryBytes))
	case r.Allocatable.EphemeralBytes <= 0:
		return fieldErr("os_disk_gib", "the reservations leave %s ephemeral storage allocatable (capacity %s); give the node a larger OS disk",
			FormatBytes(r.Allocatable.EphemeralBytes), FormatBytes(r.Capacity.EphemeralBytes))
	}
	return nil
}

// WarnNoDaemonSets starts the warning given when an EKS node has no DaemonSets listed.
const WarnNoDaemonSets = "no DaemonSets given"

// eksHostNetworkDaemonSets are the two host-network DaemonSets on every EKS Linux node (§9).
var eksHostNetworkDaemonSets = []string{"aws-node", "kube-proxy"}

// daemonSets applies §9: DaemonSet requests and pod slots leave the workload capacity.
func (c *calc) daemonSets() {
	r := &c.res
	in := c.in
	eksLinux := in.Profile.isEKS() && in.Profile != EKSWindows
	var slots, ipPods int64
	listed := map[string]bool{}
	for _, d := range in.DaemonSets {
		r.DaemonSetOverhead.CPUMillicores += d.CPUMillicores
		r.DaemonSetOverhead.MemoryBytes += d.MemoryBytes
		r.DaemonSetOverhead.EphemeralBytes += d.EphemeralBytes
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
			c.warn("%s: kubefit counts the pod slots of aws-node and kube-proxy but not their requests; list your DaemonSets for a true workload capacity", WarnNoDaemonSets)
		}
	}
	r.DaemonSetOverhead.Pods = slots
	r.Available = Resources{
		CPUMillicores:  r.Allocatable.CPUMillicores - r.DaemonSetOverhead.CPUMillicores,
		MemoryBytes:    r.Allocatable.MemoryBytes - r.DaemonSetOverhead.MemoryBytes,
		EphemeralBytes: r.Allocatable.EphemeralBytes - r.DaemonSetOverhead.EphemeralBytes,
		Pods:           r.Allocatable.Pods - slots,
	}
	if eksLinux && r.IPCap > 0 {
		if byIP := r.IPCap - ipPods; byIP < r.Available.Pods {
			r.Available.Pods = byIP
		}
	}
	if len(in.DaemonSets) > 0 || slots > 0 {
		c.term("daemonset_overhead", r.DaemonSetOverhead.CPUMillicores, FDaemonSetRequests,
			fmt.Sprintf("%d DaemonSet pods: %dm CPU, %s memory", slots, r.DaemonSetOverhead.CPUMillicores, FormatBytes(r.DaemonSetOverhead.MemoryBytes)))
	}
	if r.Available.CPUMillicores <= 0 || r.Available.MemoryBytes <= 0 || r.Available.Pods <= 0 {
		c.warn("DaemonSets use all of the node's allocatable (left: %dm CPU, %s memory, %d pods): no workload pod fits on %q",
			r.Available.CPUMillicores, FormatBytes(r.Available.MemoryBytes), r.Available.Pods, in.Instance.Name)
	}
}

// PackerPods returns the pod slots of a node, computed without DaemonSets, that a packer which charges the
// named DaemonSets itself may hand out. It is Available.Pods, plus one slot for each of EKS's always-present
// host-network pods (aws-node, kube-proxy) that is among the names: the model has already taken their slots,
// and the packer would take them again. The IP limit stays applied, since host-network pods use no pod IP.
func (r Result) PackerPods(daemonSets []string) int64 {
	pods := r.Available.Pods
	if !r.Profile.isEKS() || r.Profile == EKSWindows {
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

// tieredCPU is §5.1: 6 % of the first core, 1 % of the second, 0.5 % of the 3rd and 4th, 0.25 % above,
// each tier floored separately.
func tieredCPU(v int64) int64 {
	m := v * 1000
	tiers := []struct{ lo, hi, bp int64 }{{0, 1000, 600}, {1000, 2000, 100}, {2000, 4000, 50}, {4000, 1 << 62, 25}}
	var sum int64
	for _, t := range tiers {
		if span := min(m, t.hi) - t.lo; span > 0 {
			sum += span * t.bp / 10000
		}
	}
	return sum
}

// aksCPU is §5.2: 60m, 40m, 20m, 20m, then 10m per core.
func aksCPU(v int64) int64 {
	return 60*min(v, 1) + 40*clip(v-1, 0, 1) + 20*clip(v-2, 0, 2) + 10*max(v-4, 0)
}

// aksRegressive is §6.2 (also GKE §6.4): 25 % of the first 4 GiB, 20 % of the next 4, 10 % of the next 8,
// 6 % of the next 112 and 2 % above 128 GiB, floored once, in MiB.
func aksRegressive(n int64) int64 {
	return (25*min(n, 4096) + 20*clip(n-4096, 0, 4096) + 10*clip(n-8192, 0, 8192) +
		6*clip(n-16384, 0, 114688) + 2*max(n-131072, 0)) / 100
}

func clip(x, lo, hi int64) int64 { return min(max(x, lo), hi) }

func ceilDiv(a, b int64) int64 {
	if a <= 0 {
		return a / b
	}
	return (a + b - 1) / b
}
