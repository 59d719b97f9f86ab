package overhead

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/resource"
)

// formatBP renders basis points as a percentage without trailing zeros: 750 → "7.5", 1000 → "10".
func formatBP(bp int64) string {
	sign := ""
	if bp < 0 {
		sign, bp = "-", -bp
	}
	s := strconv.FormatInt(bp/100, 10)
	if frac := bp % 100; frac != 0 {
		s += strings.TrimRight(fmt.Sprintf(".%02d", frac), "0")
	}
	return sign + s
}

// kubeletArgs renders the reservations as kubelet flags, as a node bootstrap would pass them.
func kubeletArgs(r Result) []string {
	res := func(q resource.List) string {
		parts := []string{}
		if q.CPUMillicores != 0 {
			parts = append(parts, "cpu="+resource.QuantityCPU(q.CPUMillicores))
		}
		if q.MemoryBytes != 0 {
			parts = append(parts, "memory="+resource.QuantityBytes(q.MemoryBytes))
		}
		if q.EphemeralStorageBytes != 0 {
			parts = append(parts, "ephemeral-storage="+resource.QuantityBytes(q.EphemeralStorageBytes))
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
	if len(ev) == 0 && len(r.EvictionHard) > 0 {
		// Every threshold is zero: said explicitly, since the kubelet takes its defaults (memory.available<100Mi,
		// nodefs.available<10 %, …) when no --eviction-hard is given, and a 0 % threshold disables eviction
		// (KubeletConfiguration evictionHard: "To explicitly disable, pass a 0% or 100% threshold on an arbitrary
		// resource").
		ev = []string{SignalNodefs + "<0%"}
	}
	if len(ev) > 0 {
		args = append(args, "--eviction-hard="+strings.Join(ev, ","))
	}
	args = append(args, fmt.Sprintf("--max-pods=%d", r.MaxPods))
	return args
}
