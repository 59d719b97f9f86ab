package overhead

import (
	"fmt"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/resource"
)

// capacity sets what the kubelet reports as node.status.capacity: a measured value when the user gives one,
// else vCPUs × 1000m, nominal memory less the VM overhead (Karpenter's estimate), and the root/OS disk.
func (c *calc) capacity() error {
	in := c.in
	if v := in.MeasuredCapacity.CPUMillicores; v != nil {
		c.res.Capacity.CPUMillicores = *v
		c.term("capacity.cpu", UnitMillicores, *v, FCapacityMeasured, "measured capacity given by the user")
	} else {
		c.res.Capacity.CPUMillicores = in.Instance.VCPU * 1000
		c.term("capacity.cpu", UnitMillicores, c.res.Capacity.CPUMillicores, capacityFormula(in), fmt.Sprintf("%d vCPU × 1000m", in.Instance.VCPU))
	}
	if v := in.MeasuredCapacity.MemoryBytes; v != nil {
		c.res.Capacity.MemoryBytes = *v
		c.term("capacity.memory", UnitBytes, *v, FCapacityMeasured, "measured capacity given by the user")
	} else if err := c.estimatedMemory(); err != nil {
		return err
	}
	disk := in.OSDiskGiB
	detail := fmt.Sprintf("root/OS disk of %d GiB", disk)
	if disk == 0 {
		disk = defaultDiskGiB(in.Profile)
		detail = fmt.Sprintf("default root/OS disk of %d GiB for %s", disk, in.Profile)
	}
	c.diskBytes = disk * gi
	if v := in.MeasuredCapacity.EphemeralStorageBytes; v != nil {
		c.res.Capacity.EphemeralStorageBytes = *v
		c.term("capacity.ephemeral-storage", UnitBytes, *v, FCapacityMeasured, "measured capacity given by the user")
		if in.OSDiskGiB == 0 {
			c.diskBytes = diskFor(in.Profile, *v)
		}
	} else if l, ok := filesystemLoss[in.Profile]; ok {
		loss := l.of(c.diskBytes)
		c.res.Capacity.EphemeralStorageBytes = c.diskBytes - loss
		c.term("capacity.ephemeral-storage", UnitBytes, c.res.Capacity.EphemeralStorageBytes, FEphemeralFilesystem,
			fmt.Sprintf("%s, less the %d bytes its filesystem does not report (the larger of %d bytes and %d ppm of the disk, as measured on real nodes)",
				detail, loss, l.minBytes, l.ppm))
	} else {
		c.res.Capacity.EphemeralStorageBytes = c.diskBytes
		c.term("capacity.ephemeral-storage", UnitBytes, c.diskBytes, capacityFormula(in), detail+" (its filesystem's size is not measured: the disk's is taken)")
	}
	c.res.Capacity.Pods = c.res.MaxPods
	c.res.Capacity.GPU = in.Instance.GPU
	return nil
}

// estimatedMemory is Karpenter's VM-overhead model: nominal memory, less 64 MiB for CMA on arm64, less
// ⌈p %⌉ of the rest.
func (c *calc) estimatedMemory() error {
	in := c.in
	if in.Instance.MemoryMiB <= 0 {
		return field.Invalid(field.NewPath("Instance"), in.Instance.Name,
			"the catalog has no memory figure for %q; give the node's measured memory capacity, or describe the node by its vCPUs and memory with the custom profile", in.Instance.Name)
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
		return field.Invalid(field.NewPath("Instance"), in.Instance.Name,
			"instance type %q has only %d MiB of memory; nothing is left after the VM overhead", in.Instance.Name, in.Instance.MemoryMiB)
	}
	capMi := base - resource.CeilDiv(base*bp, 10000)
	c.res.Capacity.MemoryBytes = capMi * mi
	c.term("capacity.memory", UnitBytes, capMi*mi, capacityFormula(in),
		fmt.Sprintf("%d MiB nominal%s, minus %s%% VM overhead = %d MiB", in.Instance.MemoryMiB, detail, formatBP(bp), capMi))
	return nil
}

func capacityFormula(in Input) string {
	if in.Profile == Custom {
		return FCapacityCustom
	}
	return FCapacityVMOverhead
}

// filesystemLoss is, per profile, how much of the root/OS disk the kubelet's ephemeral-storage capacity (the
// size of the filesystem holding its root directory) leaves out: other partitions and filesystem metadata. It
// is the larger of minBytes and ppm parts per million of the disk, minBytes the loss on the smallest disk
// measured and ppm the largest loss ratio measured, rounded up, so that a loss of fixed partitions plus a
// share of the disk no larger than any measured one is never understated (overhead.md §4.3):
//
//   - EKS AL2 (XFS root): 20 GiB → 20959212Ki and 100 GiB → 104845292Ki, 12,603,392 bytes on both (public
//     kubectl describe node output of EKS managed nodes, e.g. the eksctl and EKS workshop pages).
//   - EKS AL2023: 79,712,256 bytes on 20, 50, 100 and 300 GiB disks alike (published nodes of t3.medium,
//     t3.large, g6.xlarge, trn1.2xlarge and p4d.24xlarge, overhead.md §4.3): a fixed loss, so ppm is its share of
//     the largest disk measured, rounded down, every measured size exact and a larger disk losing at most that share.
//     Bottlerocket's data volume and Windows are not measured.
//   - AKS Linux (Ubuntu, ext4): 128 GiB → 129886128Ki (Microsoft's example output in the AKS docs and every
//     public AKS node of 2023–2025 with the default OS disk) and 100 GiB → 101445900Ki
//     (chunliu.me/2020/06/11/node-allocatable-in-aks, a Standard_DS2_v2 node).
//   - AKS Windows: 128 GiB → 133703676Ki (the same post's Windows node).
//   - GKE (Container-Optimized OS, whose stateful partition holds /var/lib/kubelet): 100 GB → 98831908Ki
//     (keepinmindsh/lines_kubernetes archive/005_BasicKubernetes/001/README.md, GKE 1.23 e2-medium).
var filesystemLoss = map[Profile]fsLoss{
	EKSAL2:      {12_603_392, 587},
	EKSAL2023:   {79_712_256, 247},
	AKSLinux:    {3_493_580_800, 32_537},
	AKSWindows:  {526_389_248, 3_830},
	GKEStandard: {6_170_308_608, 57_466},
}

// fsLoss is a filesystemLoss entry: the larger of minBytes and ppm parts per million of the disk.
type fsLoss struct{ minBytes, ppm int64 }

// of is the loss of a disk of disk bytes.
func (l fsLoss) of(disk int64) int64 { return max(l.minBytes, mulDivCeil(disk, l.ppm, 1_000_000)) }

// diskFor is the disk a measured filesystem of fs bytes is on when the disk's size is not given: the largest
// whole-GiB disk whose filesystem, as filesystemLoss models it, is no larger. Since the model never understates the
// loss, the real disk is no larger than that, so GKE's reservation of the disk (35 % of it) is not understated:
// exact for the measured GKE nodes' 100 GB disks, where taking the filesystem's size for the disk's left 2.15 GB
// more allocatable than the nodes have. Without a loss model the filesystem's size is taken.
func diskFor(p Profile, fs int64) int64 {
	l, ok := filesystemLoss[p]
	if !ok || fs < gi {
		return fs
	}
	d := fs / gi * gi
	for d+gi-l.of(d+gi) <= fs {
		d += gi
	}
	return d
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

// allocatable is capacity minus kube-reserved, system-reserved and the hard-eviction thresholds (CPU has no
// eviction term); pods is max pods. A result of zero or less is an error that blames the override the user
// set, else the instance type.
func (c *calc) allocatable() error {
	r := &c.res
	r.Allocatable = resource.List{
		CPUMillicores:         r.Capacity.CPUMillicores - r.KubeReserved.CPUMillicores - r.SystemReserved.CPUMillicores,
		MemoryBytes:           r.Capacity.MemoryBytes - r.KubeReserved.MemoryBytes - r.SystemReserved.MemoryBytes - r.EvictionThreshold.MemoryBytes,
		EphemeralStorageBytes: r.Capacity.EphemeralStorageBytes - r.KubeReserved.EphemeralStorageBytes - r.SystemReserved.EphemeralStorageBytes - r.EvictionThreshold.EphemeralStorageBytes,
		Pods:                  r.MaxPods,
		GPU:                   r.Capacity.GPU,
	}
	r.KubeReserved.Pods, r.SystemReserved.Pods, r.EvictionThreshold.Pods = 0, 0, 0
	in := c.in
	if err := c.measuredAllocatable(); err != nil {
		return err
	}
	// blame names the input that left nothing allocatable, most specific first, and what to do about it.
	blame := func(name string, measured, sys, kube *int64, vmOverhead bool) (field.Path, string) {
		switch {
		case measured != nil:
			return field.NewPath("MeasuredCapacity", name), "check the measured capacity against the node's status.capacity"
		case vmOverhead:
			return field.NewPath("VMMemoryOverheadBP"), "lower the VM memory overhead"
		case sys != nil:
			return field.NewPath("SystemReserved", name), "lower the reservations"
		case kube != nil:
			return field.NewPath("KubeReserved", name), "lower the reservations"
		}
		return field.NewPath("Instance"), "choose a larger instance type"
	}
	m := in.MeasuredAllocatable
	switch {
	case r.Allocatable.CPUMillicores <= 0 && m.CPUMillicores == nil:
		cpu := resource.QuantityCPU
		p, advice := blame("CPUMillicores", in.MeasuredCapacity.CPUMillicores, in.SystemReserved.CPUMillicores, in.KubeReserved.CPUMillicores, false)
		return field.Invalid(p, cpu(r.Allocatable.CPUMillicores),
			"the reservations (kube-reserved %s, system-reserved %s CPU) leave %s CPU allocatable on %q (capacity %s): the node could run nothing; %s",
			cpu(r.KubeReserved.CPUMillicores), cpu(r.SystemReserved.CPUMillicores), cpu(r.Allocatable.CPUMillicores), in.Instance.Name, cpu(r.Capacity.CPUMillicores), advice)
	case r.Allocatable.MemoryBytes <= 0 && m.MemoryBytes == nil:
		b := resource.QuantityBytes
		p, advice := blame("MemoryBytes", in.MeasuredCapacity.MemoryBytes, in.SystemReserved.MemoryBytes, in.KubeReserved.MemoryBytes,
			in.VMMemoryOverheadBP != nil && *in.VMMemoryOverheadBP > 0)
		return field.Invalid(p, b(r.Allocatable.MemoryBytes),
			"the reservations (kube-reserved %s, system-reserved %s, eviction %s of memory) leave %s memory allocatable on %q (capacity %s): the node could run nothing; %s",
			b(r.KubeReserved.MemoryBytes), b(r.SystemReserved.MemoryBytes), b(r.EvictionThreshold.MemoryBytes), b(r.Allocatable.MemoryBytes), in.Instance.Name, b(r.Capacity.MemoryBytes), advice)
	case r.Allocatable.EphemeralStorageBytes <= 0 && m.EphemeralStorageBytes == nil:
		p := field.NewPath("OSDiskGiB")
		if in.MeasuredCapacity.EphemeralStorageBytes != nil {
			p = field.NewPath("MeasuredCapacity", "EphemeralStorageBytes")
		}
		return field.Invalid(p, resource.QuantityBytes(r.Capacity.EphemeralStorageBytes),
			"the reservations leave %s ephemeral storage allocatable (capacity %s): the node could run nothing; give the node a larger root/OS disk",
			resource.QuantityBytes(r.Allocatable.EphemeralStorageBytes), resource.QuantityBytes(r.Capacity.EphemeralStorageBytes))
	}
	return nil
}

// measuredAllocatable replaces the model's allocatable with each measured figure. A measured figure above an
// estimated capacity raises the capacity to it plus the reservations; above a measured capacity it is an error.
func (c *calc) measuredAllocatable() error {
	r, in := &c.res, c.in
	for _, q := range []struct {
		name, what, unit   string
		measured           *int64
		alloc, capacity    *int64
		reserved           int64
		capacityIsMeasured bool
		render             func(int64) string
	}{
		{"cpu", "CPU", UnitMillicores, in.MeasuredAllocatable.CPUMillicores, &r.Allocatable.CPUMillicores, &r.Capacity.CPUMillicores,
			r.KubeReserved.CPUMillicores + r.SystemReserved.CPUMillicores, in.MeasuredCapacity.CPUMillicores != nil, resource.QuantityCPU},
		{"memory", "memory", UnitBytes, in.MeasuredAllocatable.MemoryBytes, &r.Allocatable.MemoryBytes, &r.Capacity.MemoryBytes,
			r.KubeReserved.MemoryBytes + r.SystemReserved.MemoryBytes + r.EvictionThreshold.MemoryBytes, in.MeasuredCapacity.MemoryBytes != nil, resource.QuantityBytes},
		{"ephemeral-storage", "ephemeral storage", UnitBytes, in.MeasuredAllocatable.EphemeralStorageBytes, &r.Allocatable.EphemeralStorageBytes, &r.Capacity.EphemeralStorageBytes,
			r.KubeReserved.EphemeralStorageBytes + r.SystemReserved.EphemeralStorageBytes + r.EvictionThreshold.EphemeralStorageBytes, in.MeasuredCapacity.EphemeralStorageBytes != nil, resource.QuantityBytes},
	} {
		if q.measured == nil {
			continue
		}
		v := *q.measured
		if v > *q.capacity {
			if q.capacityIsMeasured {
				p := map[string]string{"cpu": "CPUMillicores", "memory": "MemoryBytes", "ephemeral-storage": "EphemeralStorageBytes"}[q.name]
				return field.Invalid(field.NewPath("MeasuredAllocatable", p), q.render(v),
					"the measured allocatable %s %s is more than the measured capacity %s; give both from the same node", q.what, q.render(v), q.render(*q.capacity))
			}
			*q.capacity = v + q.reserved
			c.term("capacity."+q.name, q.unit, *q.capacity, FAllocatableMeasured,
				fmt.Sprintf("the estimate was below the measured allocatable %s: raised to it plus the modelled reservations", q.render(v)))
		}
		c.term("allocatable."+q.name, q.unit, v, FAllocatableMeasured,
			fmt.Sprintf("measured allocatable given by the user (the model gives %s)", q.render(*q.alloc)))
		*q.alloc = v
	}
	return nil
}
