package overhead

import (
	"fmt"
	"strconv"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/resource"
)

// reservations sets kube-reserved, system-reserved and the hard-eviction thresholds by the profile's
// rules, then applies the user's overrides key by key.
func (c *calc) reservations() error {
	minor, _ := parseMinor(c.in.KubernetesVersion)
	if c.in.Profile.isAKS() && minor == 29 {
		// AKS 1.29 nodes were seen with both rule sets: compute both and keep the smaller allocatable.
		old, cur := *c, *c
		old.res.Terms = append([]Term(nil), c.res.Terms...)
		cur.res.Terms = append([]Term(nil), c.res.Terms...)
		old.res.Warnings = append([]field.Warning(nil), c.res.Warnings...)
		cur.res.Warnings = append([]field.Warning(nil), c.res.Warnings...)
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
		c.warn(CodeAKS129BothRules, field.NewPath("KubernetesVersion"),
			"AKS 1.29 nodes were seen with both the old and the new reservation rules; kubefit keeps the smaller allocatable (%s)", c.res.RulesVersion)
	} else if err := c.profileReservations(minor); err != nil {
		return err
	}
	return c.overrides()
}

// allocatableMeasured reports whether the user gave the measured allocatable CPU and memory, which then
// replace whatever the model reserves.
func (c *calc) allocatableMeasured() bool {
	m := c.in.MeasuredAllocatable
	return m.CPUMillicores != nil && m.MemoryBytes != nil
}

func (c *calc) memoryTotal() int64 {
	return c.res.KubeReserved.MemoryBytes + c.res.SystemReserved.MemoryBytes + c.res.EvictionThreshold.MemoryBytes
}

// profileReservations applies the profile's rules for Kubernetes minor version minor (0 = current).
func (c *calc) profileReservations(minor int) error {
	var err error
	switch p := c.in.Profile; {
	case p.isEKS():
		err = c.eksReservations()
	case p.isAKS():
		err = c.aksReservations(minor)
	case p == GKEStandard:
		err = c.gkeReservations()
	default: // custom: explicit reservations only; kubelet default eviction
		c.res.RulesVersion = "custom"
		c.evictionMemory(100, "kubelet default memory.available<100Mi")
	}
	if err != nil {
		return err
	}
	r := &c.res
	if c.in.Profile == AKSWindows && minor != 0 && minor < 29 {
		// Both measured AKS Windows nodes (1.25.4, 1.28.12) report allocatable ephemeral storage equal to capacity:
		// no nodefs threshold, as no memory one (aksReservations).
		c.term("evictionHard.nodefs.available", UnitBytes, 0, FEvictionAKSWindows, "AKS Windows nodes before 1.29 keep no nodefs.available threshold")
		r.EvictionHard = map[string]string{SignalNodefs: "0%"}
		return nil
	}
	const nodefsBP = 1000
	r.EvictionThreshold.EphemeralStorageBytes = kubeletPercent(r.Capacity.EphemeralStorageBytes, nodefsBP)
	c.term("evictionHard.nodefs.available", UnitBytes, r.EvictionThreshold.EphemeralStorageBytes, FEvictionNodefs, "nodefs.available<10%")
	r.EvictionHard = map[string]string{SignalNodefs: formatBP(nodefsBP) + "%"}
	if r.EvictionThreshold.MemoryBytes > 0 {
		r.EvictionHard[SignalMemory] = resource.QuantityBytes(r.EvictionThreshold.MemoryBytes)
	}
	return nil
}

// vcpu is the vCPU count the CPU tiers apply to: the instance's, else the measured capacity's whole cores.
func (c *calc) vcpu() int64 {
	if v := c.in.Instance.VCPU; v != 0 || c.in.MeasuredCapacity.CPUMillicores == nil {
		return v
	}
	return *c.in.MeasuredCapacity.CPUMillicores / 1000
}

func (c *calc) evictionMemory(mib int64, detail string) {
	c.res.EvictionThreshold.MemoryBytes = mib * mi
	c.term("evictionHard.memory.available", UnitBytes, mib*mi, FEvictionMemory, detail)
}

// eksReservations: the CPU tiers, 11 × P + 255 MiB of memory, 1Gi of ephemeral storage, 100Mi eviction.
func (c *calc) eksReservations() error {
	r, v := &c.res, c.vcpu()
	r.RulesVersion = "eks (rules in force since 2020-04)"
	r.KubeReserved.CPUMillicores = tieredCPU(v)
	c.term("kubeReserved.cpu", UnitMillicores, r.KubeReserved.CPUMillicores, FCPUTiered, fmt.Sprintf("tiers on %d vCPU", v))
	if c.podP <= 0 {
		return field.Invalid(field.NewPath("MaxPods"), "0",
			"no pod count is known for %q to compute the EKS memory reservation; give the maximum pod count", c.in.Instance.Name)
	}
	r.KubeReserved.MemoryBytes = (11*c.podP + 255) * mi
	c.term("kubeReserved.memory", UnitBytes, r.KubeReserved.MemoryBytes, FMemoryEKSPerPod, fmt.Sprintf("11 × %d pods (P = %s) + 255 Mi", c.podP, c.describeP()))
	r.KubeReserved.EphemeralStorageBytes = gi
	c.term("kubeReserved.ephemeral-storage", UnitBytes, gi, FEphemeralEKS, "1Gi")
	c.evictionMemory(100, "memory.available<100Mi")
	if c.in.EKS.Kind == AutoMode {
		c.autoModeAllowance()
	}
	return nil
}

// The EKS Auto Mode allowance: what a measured Auto Mode m5.2xlarge (8 vCPU, 32 GiB, 56 max pods) reserves
// beyond the AL2023 model (240m CPU and 1,046 MiB in total, against the model's 90m and 993 MiB). AWS does
// not publish Auto Mode's rule, so kubefit books the difference as system-reserved on every Auto Mode node.
const (
	autoModeAllowanceCPU = 150 // millicores
	autoModeAllowanceMiB = 53
)

// autoModeAllowance reserves the Auto Mode allowance and warns that allocatable is an upper bound.
func (c *calc) autoModeAllowance() {
	r := &c.res
	r.SystemReserved.CPUMillicores += autoModeAllowanceCPU
	r.SystemReserved.MemoryBytes += autoModeAllowanceMiB * mi
	detail := "Auto Mode reserves more than the AL2023 rule: 150m and 53 MiB calibrated on a measured m5.2xlarge (240m CPU and 1,046 MiB reserved in total)"
	c.term("systemReserved.cpu", UnitMillicores, r.SystemReserved.CPUMillicores, FSystemEKSAutoMode, detail)
	c.term("systemReserved.memory", UnitBytes, r.SystemReserved.MemoryBytes, FSystemEKSAutoMode, detail)
	if c.allocatableMeasured() {
		return
	}
	c.warn(CodeEKSAutoModeUpperBound, field.NewPath("EKS", "Kind"),
		"EKS Auto Mode does not publish its reservations: a measured Auto Mode m5.2xlarge (56 max pods) reserves 240m CPU and 1,046 MiB of memory, more than the AL2023 rule's 90m and 993 MiB, so kubefit adds 150m CPU and 53 MiB to every Auto Mode node; allocatable on %q is an upper bound until checked against a real node (give its measured allocatable to plan exactly)", c.in.Instance.Name)
}

// aksReservations: the AKS CPU brackets; before 1.29 the regressive memory tiers and 750Mi eviction, from
// 1.29 min(20 × max pods + 50, 25 %) MiB and 100Mi eviction; Windows adds 2 GiB of system-reserved memory.
func (c *calc) aksReservations(minor int) error {
	in, r, v := c.in, &c.res, c.vcpu()
	n := in.Instance.MemoryMiB
	r.KubeReserved.CPUMillicores = aksCPU(v)
	c.term("kubeReserved.cpu", UnitMillicores, r.KubeReserved.CPUMillicores, FCPUAKSBracketed, fmt.Sprintf("AKS table on %d vCPU", v))
	if n <= 0 {
		return field.Invalid(field.NewPath("Instance"), in.Instance.Name,
			"the catalog has no nominal memory for %q, which the AKS reservation needs; use the custom profile or give the kube-reserved memory", in.Instance.Name)
	}
	windows := in.Profile == AKSWindows
	if minor != 0 && minor < 29 {
		r.RulesVersion = "aks < 1.29"
		r.KubeReserved.MemoryBytes = aksRegressive(n) * mi
		c.term("kubeReserved.memory", UnitBytes, r.KubeReserved.MemoryBytes, FMemoryAKSRegressive, fmt.Sprintf("25/20/10/6/2 %% tiers on %d MiB nominal", n))
		if windows {
			c.term("evictionHard.memory.available", UnitBytes, 0, FEvictionAKSWindows, "AKS Windows nodes before 1.29 keep no memory.available threshold")
		} else {
			c.evictionMemory(750, "memory.available<750Mi (AKS before 1.29)")
		}
	} else {
		r.RulesVersion = "aks >= 1.29"
		perPod := 20*r.MaxPods + 50
		quarter := resource.CeilDiv(n, 4)
		r.KubeReserved.MemoryBytes = min(perPod, quarter) * mi
		c.term("kubeReserved.memory", UnitBytes, r.KubeReserved.MemoryBytes, FMemoryAKSPerPod, fmt.Sprintf("min(20 × %d pods + 50, 25%% of %d MiB = %d) Mi", r.MaxPods, n, quarter))
		c.evictionMemory(100, "memory.available<100Mi (AKS 1.29 and later)")
		if windows && !c.allocatableMeasured() {
			c.warn(CodeAKSWindowsRulesUnverified, field.NewPath("KubernetesVersion"),
				"no measured AKS Windows node from 1.29 on was found: kubefit applies the documented 1.29 rule (min(20 MiB × max pods + 50 MiB, 25 %%) kube-reserved, 100Mi eviction) plus the 2 GiB Windows system reservation, which Windows nodes before 1.29 did not follow exactly; give the measured allocatable of a real node to plan exactly")
		}
	}
	c.term("kubeReserved.ephemeral-storage", UnitBytes, 0, FEphemeralNone, "AKS reserves no ephemeral storage")
	if in.Profile == AKSWindows {
		r.SystemReserved.MemoryBytes = 2048 * mi
		c.term("systemReserved.memory", UnitBytes, r.SystemReserved.MemoryBytes, FSystemAKSWindows, "2 GB for Windows system processes, read as 2048 Mi")
	}
	return nil
}

// gkeReservations: the CPU tiers (a flat 1060m on shared-core E2), the regressive memory tiers, the disk
// rule for ephemeral storage, 100Mi eviction.
func (c *calc) gkeReservations() error {
	in, r, v := c.in, &c.res, c.vcpu()
	n := in.Instance.MemoryMiB
	r.RulesVersion = "gke standard"
	switch {
	case in.Instance.SharedCore && in.Instance.Family == "e2":
		r.KubeReserved.CPUMillicores = 1060
		c.term("kubeReserved.cpu", UnitMillicores, 1060, FCPUGKESharedCore, "flat 1060m on shared-core E2")
	case in.Instance.SharedCore && v == 1:
		// f1-micro and g1-small: the standard tiers on their one visible vCPU, as measured nodes show.
		r.KubeReserved.CPUMillicores = tieredCPU(1)
		c.term("kubeReserved.cpu", UnitMillicores, r.KubeReserved.CPUMillicores, FCPUGKESharedCoreN1,
			"tiers on the one vCPU a shared-core N1 guest sees (6 % of the first core)")
	case in.Instance.SharedCore:
		if in.KubeReserved.CPUMillicores == nil {
			return field.Invalid(field.NewPath("KubeReserved", "CPUMillicores"), in.Instance.Name,
				"no source documents GKE's CPU reservation for shared-core %q with %d vCPUs; give the kube-reserved CPU of a real node", in.Instance.Name, v)
		}
	default:
		r.KubeReserved.CPUMillicores = tieredCPU(v)
		c.term("kubeReserved.cpu", UnitMillicores, r.KubeReserved.CPUMillicores, FCPUTiered, fmt.Sprintf("tiers on %d vCPU", v))
	}
	switch {
	case n <= 0 && in.KubeReserved.MemoryBytes == nil:
		return field.Invalid(field.NewPath("Instance"), in.Instance.Name,
			"the catalog has no nominal memory for %q, which the GKE reservation needs; give the kube-reserved memory", in.Instance.Name)
	case n < 1024:
		r.KubeReserved.MemoryBytes = 255 * mi
		c.term("kubeReserved.memory", UnitBytes, r.KubeReserved.MemoryBytes, FMemoryGKERegressive, "255 Mi below 1 GiB")
	default:
		r.KubeReserved.MemoryBytes = gkeMemory(n) * mi
		c.term("kubeReserved.memory", UnitBytes, r.KubeReserved.MemoryBytes, FMemoryGKERegressive,
			fmt.Sprintf("25/20/10/6/2 %% tiers with edges at 4,000/8,000/16,000/128,000 MiB on %d MiB nominal, floored", n))
	}
	disk := c.diskBytes // of the disk, not of the filesystem: exact on the measured GKE node (TestEphemeralMeasured)
	r.KubeReserved.EphemeralStorageBytes = min(disk/2, disk*35/100+6*gi, 100*gi)
	c.term("kubeReserved.ephemeral-storage", UnitBytes, r.KubeReserved.EphemeralStorageBytes, FEphemeralGKEDisk, "min(50 % of disk, 35 % of disk + 6 GiB, 100 GiB)")
	c.evictionMemory(100, "memory.available<100Mi")
	return nil
}

// overrides replaces the computed values with the user's, key by key.
func (c *calc) overrides() error {
	in := c.in
	r := &c.res
	set := func(name, unit string, dst *int64, v *int64) {
		if v != nil {
			*dst = *v
			c.term(name, unit, *v, FOverrideUser, "set by the user")
		}
	}
	set("kubeReserved.cpu", UnitMillicores, &r.KubeReserved.CPUMillicores, in.KubeReserved.CPUMillicores)
	set("kubeReserved.memory", UnitBytes, &r.KubeReserved.MemoryBytes, in.KubeReserved.MemoryBytes)
	set("kubeReserved.ephemeral-storage", UnitBytes, &r.KubeReserved.EphemeralStorageBytes, in.KubeReserved.EphemeralStorageBytes)
	set("systemReserved.cpu", UnitMillicores, &r.SystemReserved.CPUMillicores, in.SystemReserved.CPUMillicores)
	set("systemReserved.memory", UnitBytes, &r.SystemReserved.MemoryBytes, in.SystemReserved.MemoryBytes)
	set("systemReserved.ephemeral-storage", UnitBytes, &r.SystemReserved.EphemeralStorageBytes, in.SystemReserved.EphemeralStorageBytes)
	if in.Profile == AKSLinux {
		// The AKS preview of a customisable kubeReserved enforces these floors; an observed kubelet flag
		// (such as the 69m of 2019 nodes) may be lower, so kubefit warns instead of failing.
		if v := in.KubeReserved.CPUMillicores; v != nil && *v < 140 {
			c.warn(CodeAKSKubeReservedFloor, field.NewPath("KubeReserved", "CPUMillicores"),
				"AKS's customisable kubeReserved requires at least 140m CPU; %s is accepted as an observed kubelet value but AKS would reject it as a setting", resource.QuantityCPU(*v))
		}
		if v := in.KubeReserved.MemoryBytes; v != nil && *v < 750*mi {
			c.warn(CodeAKSKubeReservedFloor, field.NewPath("KubeReserved", "MemoryBytes"),
				"AKS's customisable kubeReserved requires at least 750Mi memory; %s is accepted as an observed kubelet value but AKS would reject it as a setting", resource.QuantityBytes(*v))
		}
	}
	if t, ok := in.EvictionHard[SignalMemory]; ok {
		v := thresholdBytes(t, r.Capacity.MemoryBytes)
		if in.Profile.isAKS() && v < 100*mi && v*50 < r.Capacity.MemoryBytes {
			return field.Invalid(field.NewPath("EvictionHard").Key(SignalMemory), t.String(),
				"AKS requires a memory.available hard-eviction threshold of at least 100Mi or 2 %%, got %s (%s)", t.String(), resource.QuantityBytes(v))
		}
		r.EvictionThreshold.MemoryBytes = v
		r.EvictionHard[SignalMemory] = t.String()
		c.term("evictionHard.memory.available", UnitBytes, v, FOverrideUser, "memory.available<"+t.String()+" set by the user")
	}
	if t, ok := in.EvictionHard[SignalNodefs]; ok {
		r.EvictionThreshold.EphemeralStorageBytes = thresholdBytes(t, r.Capacity.EphemeralStorageBytes)
		r.EvictionHard[SignalNodefs] = t.String()
		c.term("evictionHard.nodefs.available", UnitBytes, r.EvictionThreshold.EphemeralStorageBytes, FOverrideUser, "nodefs.available<"+t.String()+" set by the user")
	}
	if r.SystemReserved == (resource.List{}) {
		c.term("systemReserved", UnitBytes, 0, FSystemNone, "no system-reserved quantities")
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
	return kubeletPercent(capacity, t.PercentBP)
}

// kubeletPercent is a percentage threshold in bytes as the kubelet computes it: it parses "10%" into a float32
// (parsePercentage: float32(value) / 100, pkg/kubelet/eviction/helpers.go) and takes
// int64(float64(capacity) × float64(percentage)) (GetThresholdQuantity, pkg/kubelet/eviction/api/types.go; both
// k8s.io/kubernetes v1.37.2). float32(0.1) is 0.100000001490116, so "10%" of 21,462,233,088 bytes is
// 2,146,223,340, 31 more than ⌈10 %⌉: measured EKS, AKS and GKE nodes report exactly this allocatable
// (TestEphemeralMeasured).
func kubeletPercent(capacity, bp int64) int64 {
	v, err := strconv.ParseFloat(formatBP(bp), 32)
	if err != nil { // formatBP writes a decimal number
		panic(err)
	}
	pct := float32(v) / 100
	return int64(float64(capacity) * float64(pct))
}

// tieredCPU is the EKS/GKE CPU rule: 6 % of the first core, 1 % of the second, 0.5 % of the 3rd and 4th,
// 0.25 % above, each tier floored separately.
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

// aksCPU is the AKS CPU table: 60m, 40m, 20m, 20m, then 10m per core.
func aksCPU(v int64) int64 {
	return 60*min(v, 1) + 40*clip(v-1, 0, 1) + 20*clip(v-2, 0, 2) + 10*max(v-4, 0)
}

// gkeMemory is GKE Standard's kube-reserved memory for n MiB of nominal memory from 1 GiB up: 25 % of the
// first 4 GB, 20 % of the next 4 GB, 10 % of the next 8 GB, 6 % of the next 112 GB and 2 % above 128 GB,
// where GKE's "GB" is 1,000 MiB, floored once, in MiB. This gives the 1,736 MiB of an n1-standard-2's (7,680 MiB)
// kubelet configuration in awslabs/amazon-eks-ami#318; the measured GKE nodes are in measured.go.
func gkeMemory(n int64) int64 {
	return (25*min(n, 4000) + 20*clip(n-4000, 0, 4000) + 10*clip(n-8000, 0, 8000) +
		6*clip(n-16000, 0, 112000) + 2*max(n-128000, 0)) / 100
}

// aksRegressive is the AKS rule before 1.29: 25 % of the first 4 GiB, 20 % of the next 4, 10 % of the next
// 8, 6 % of the next 112 and 2 % above 128 GiB, floored once, in MiB. (AKS's GB are GiB: every measured
// AKS node reproduces with these edges.)
func aksRegressive(n int64) int64 {
	return (25*min(n, 4096) + 20*clip(n-4096, 0, 4096) + 10*clip(n-8192, 0, 8192) +
		6*clip(n-16384, 0, 114688) + 2*max(n-131072, 0)) / 100
}
