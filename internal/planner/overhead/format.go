package overhead

import (
	"fmt"
	"strconv"
	"strings"
)

// FormatBytes renders a byte count as a Kubernetes quantity in the largest binary unit that divides it
// exactly (Gi, Mi, Ki), else in plain bytes: 601882624 → "574Mi".
func FormatBytes(b int64) string {
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

// FormatMillicores renders millicores as a Kubernetes CPU quantity: 2000 → "2", 1930 → "1930m".
func FormatMillicores(m int64) string {
	if m%1000 == 0 {
		return strconv.FormatInt(m/1000, 10)
	}
	return strconv.FormatInt(m, 10) + "m"
}

// formatBP renders basis points as a percentage without trailing zeros: 750 → "7.5".
func formatBP(bp int64) string {
	s := strconv.FormatFloat(float64(bp)/100, 'f', 2, 64)
	s = strings.TrimRight(s, "0")
	return strings.TrimSuffix(s, ".")
}

// kubeletArgs renders the reservations as kubelet flags, as a node bootstrap would pass them.
func kubeletArgs(r Result) []string {
	res := func(q Resources) string {
		parts := []string{}
		if q.CPUMillicores != 0 {
			parts = append(parts, "cpu="+FormatMillicores(q.CPUMillicores))
		}
		if q.MemoryBytes != 0 {
			parts = append(parts, "memory="+FormatBytes(q.MemoryBytes))
		}
		if q.EphemeralBytes != 0 {
			parts = append(parts, "ephemeral-storage="+FormatBytes(q.EphemeralBytes))
		}
		return strings.Join(parts, ",")
	}
	args := []string{}
	if s := res(r.KubeReserved); s != "" {
		args = append(args, "--kube-reserved="+s)
	}
	if s := res(r.SystemReserved); s != "" {
		args = append(args, "--system-reserved="+s)
	}
	ev := []string{}
	for _, sig := range []string{SignalMemory, SignalNodefs} {
		if v, ok := r.EvictionHard[sig]; ok && v != "0" && v != "0%" {
			ev = append(ev, sig+"<"+v)
		}
	}
	if len(ev) > 0 {
		args = append(args, "--eviction-hard="+strings.Join(ev, ","))
	}
	args = append(args, fmt.Sprintf("--max-pods=%d", r.MaxPods))
	return args
}
