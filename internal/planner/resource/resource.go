// Package resource is the planner's one resource vector and the arithmetic and formatting every planner
// package shares: exact integers (millicores, bytes, pod slots, devices), one bound for quantities, and
// renderings both as Kubernetes quantities ("1930m", "574Mi") and for people ("1,580m", "1,669 MiB").
package resource

import (
	"strconv"
	"strings"
)

// Name names one resource dimension.
type Name string

// The resource dimensions, in vector order.
const (
	CPU              Name = "cpu"
	Memory           Name = "memory"
	EphemeralStorage Name = "ephemeral-storage"
	Pods             Name = "pods"
	GPU              Name = "gpu"
	// Volumes counts the block volumes a node attaches through its cloud's disk CSI driver, the limit
	// kube-scheduler's NodeVolumeLimits filter enforces (CSINode allocatable count; volumes.md §1).
	Volumes Name = "attachable-volumes"
)

// Names lists every resource dimension in vector order.
var Names = []Name{CPU, Memory, EphemeralStorage, Pods, GPU, Volumes}

// MaxQuantity is the largest resource quantity any planner input may carry (2^50: 1 PiB of memory, or
// about 1.1 × 10^12 cores in millicores). It keeps every sum and product of the planners exact in int64.
const MaxQuantity = int64(1) << 50

// List is an amount of every resource dimension, in exact integers: CPU in millicores, memory and
// ephemeral storage in bytes, pods as a count of pod slots, GPUs as a count of devices, volumes as a count of attachments.
type List struct {
	CPUMillicores         int64
	MemoryBytes           int64
	EphemeralStorageBytes int64
	Pods                  int64
	GPU                   int64
	// Volumes is a count of attachable block volumes: on a node, how many its disk CSI driver may
	// attach; on a pod, how many attach-limited claims it mounts.
	Volumes int64
}

// Get returns the amount of dimension n, or 0 for an unknown dimension.
func (l List) Get(n Name) int64 {
	switch n {
	case CPU:
		return l.CPUMillicores
	case Memory:
		return l.MemoryBytes
	case EphemeralStorage:
		return l.EphemeralStorageBytes
	case Pods:
		return l.Pods
	case GPU:
		return l.GPU
	case Volumes:
		return l.Volumes
	}
	return 0
}

// Add returns l + o, dimension by dimension.
func (l List) Add(o List) List {
	return List{l.CPUMillicores + o.CPUMillicores, l.MemoryBytes + o.MemoryBytes,
		l.EphemeralStorageBytes + o.EphemeralStorageBytes, l.Pods + o.Pods, l.GPU + o.GPU,
		l.Volumes + o.Volumes}
}

// Sub returns l − o, dimension by dimension.
func (l List) Sub(o List) List {
	return List{l.CPUMillicores - o.CPUMillicores, l.MemoryBytes - o.MemoryBytes,
		l.EphemeralStorageBytes - o.EphemeralStorageBytes, l.Pods - o.Pods, l.GPU - o.GPU,
		l.Volumes - o.Volumes}
}

// CeilDiv returns ⌈a / b⌉ for b > 0, for any sign of a (⌈−3 / 2⌉ = −1). It returns 0 when b ≤ 0.
func CeilDiv(a, b int64) int64 {
	if b <= 0 {
		return 0
	}
	q := a / b
	if a%b != 0 && a > 0 {
		q++
	}
	return q
}

// QuantityCPU renders millicores as a Kubernetes CPU quantity: 2000 → "2", 1930 → "1930m".
func QuantityCPU(m int64) string {
	if m%1000 == 0 {
		return strconv.FormatInt(m/1000, 10)
	}
	return strconv.FormatInt(m, 10) + "m"
}

// QuantityBytes renders a byte count as a Kubernetes quantity in the largest binary unit that divides
// it exactly (Ti, Gi, Mi, Ki), else in plain bytes: 601882624 → "574Mi".
func QuantityBytes(b int64) string {
	if b == 0 {
		return "0"
	}
	for _, u := range []struct {
		suffix string
		size   int64
	}{{"Ti", 1 << 40}, {"Gi", 1 << 30}, {"Mi", 1 << 20}, {"Ki", 1 << 10}} {
		if b%u.size == 0 {
			return strconv.FormatInt(b/u.size, 10) + u.suffix
		}
	}
	return strconv.FormatInt(b, 10)
}

const (
	mib = uint64(1) << 20
	gib = uint64(1) << 30
)

// HumanCPU formats millicores for people, with thousands separators: "1,580m".
func HumanCPU(millicores int64) string { return Group(millicores) + "m" }

// HumanBytes formats a byte count for people: below 10 GiB in MiB, from 10 GiB on in GiB, both with at
// most one decimal (rounded half up, a trailing ".0" dropped) and thousands separators: "1,669 MiB",
// "1,772.4 MiB", "15.3 GiB".
func HumanBytes(b int64) string {
	neg := b < 0
	u := magnitude(b)
	unit, suffix := mib, " MiB"
	switch {
	case u >= 10*gib:
		unit, suffix = gib, " GiB"
	case u > 0 && u < 1024:
		// Under a KiB, in bytes: "0 MiB" said nothing of a request of a few bytes (memory = "2").
		s := groupUint(u) + " bytes"
		if u == 1 {
			s = "1 byte"
		}
		if neg {
			s = "-" + s
		}
		return s
	case u > 0 && u < mib:
		unit, suffix = 1024, " KiB"
	}
	q, r := u/unit, u%unit
	tenths := (r*10 + unit/2) / unit // 0..10
	if tenths == 10 {
		q, tenths = q+1, 0
	}
	s := groupUint(q)
	if tenths != 0 {
		s += "." + strconv.FormatUint(tenths, 10)
	}
	if neg && (q != 0 || tenths != 0) {
		s = "-" + s
	}
	return s + suffix
}

// Human formats an amount of dimension n with its unit and name: "1,580m CPU", "1,669 MiB memory",
// "1 pod slot", "3 pod slots", "1 GPU", "25 volume attachments".
func Human(n Name, v int64) string {
	switch n {
	case CPU:
		return HumanCPU(v) + " CPU"
	case Memory:
		return HumanBytes(v) + " memory"
	case EphemeralStorage:
		return HumanBytes(v) + " ephemeral storage"
	case Pods:
		if v == 1 {
			return "1 pod slot"
		}
		return Group(v) + " pod slots"
	case GPU:
		if v == 1 {
			return "1 GPU"
		}
		return Group(v) + " GPUs"
	case Volumes:
		if v == 1 {
			return "1 volume attachment"
		}
		return Group(v) + " volume attachments"
	}
	return Group(v)
}

// Group formats n with thousands separators: 1024 → "1,024".
func Group(n int64) string {
	if n < 0 {
		return "-" + groupUint(magnitude(n))
	}
	return groupUint(uint64(n))
}

// magnitude returns |n|, safe for math.MinInt64.
func magnitude(n int64) uint64 {
	if n < 0 {
		return uint64(-(n + 1)) + 1
	}
	return uint64(n)
}

func groupUint(u uint64) string {
	s := strconv.FormatUint(u, 10)
	if len(s) <= 3 {
		return s
	}
	var b strings.Builder
	lead := len(s) % 3
	if lead > 0 {
		b.WriteString(s[:lead])
	}
	for i := lead; i < len(s); i += 3 {
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(s[i : i+3])
	}
	return b.String()
}
