package fit

import (
	"strconv"
	"strings"
)

const (
	mib = int64(1) << 20
	gib = int64(1) << 30
)

// FormatCPU formats millicores with thousands separators and an "m" suffix, for example "1,580m".
func FormatCPU(millicores int64) string {
	return groupDigits(millicores) + "m"
}

// FormatBytes formats a byte count for messages and reports: below 10 GiB in MiB, from 10 GiB on in
// GiB, both with at most one decimal (rounded half up, a trailing ".0" dropped) and thousands
// separators, for example "1,669 MiB", "1,772.4 MiB" or "15.3 GiB".
func FormatBytes(b int64) string {
	neg := b < 0
	u := uint64(b)
	if neg {
		u = uint64(-(b + 1)) + 1 // magnitude, safe for math.MinInt64
	}
	unit, suffix := uint64(mib), " MiB"
	if u >= 10*uint64(gib) {
		unit, suffix = uint64(gib), " GiB"
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

// FormatCount formats a count with thousands separators, for example "1,024".
func FormatCount(n int64) string {
	return groupDigits(n)
}

// resourceWords names the resources in messages, in vector order.
var resourceWords = [nRes]string{"CPU", "memory", "ephemeral storage", "pod slots", "GPUs"}

// formatAmount formats an amount of one resource with its unit and name, for example "1,580m CPU",
// "1,669 MiB memory", "3 pod slots" or "1 GPU".
func formatAmount(res Resource, v int64) string {
	switch res {
	case ResourceCPU:
		return FormatCPU(v) + " CPU"
	case ResourceMemory:
		return FormatBytes(v) + " memory"
	case ResourceEphemeralStorage:
		return FormatBytes(v) + " ephemeral storage"
	case ResourcePods:
		if v == 1 {
			return "1 pod slot"
		}
		return FormatCount(v) + " pod slots"
	case ResourceGPU:
		if v == 1 {
			return "1 GPU"
		}
		return FormatCount(v) + " GPUs"
	}
	return FormatCount(v)
}

// formatValue formats an amount of one resource with its unit but without its name ("1,580m",
// "1,669 MiB", "3").
func formatValue(res Resource, v int64) string {
	switch res {
	case ResourceCPU:
		return FormatCPU(v)
	case ResourceMemory, ResourceEphemeralStorage:
		return FormatBytes(v)
	}
	return FormatCount(v)
}

func groupDigits(n int64) string {
	if n < 0 {
		return "-" + groupUint(uint64(-(n+1))+1)
	}
	return groupUint(uint64(n))
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

// joinAnd joins phrases as "a", "a and b" or "a, b and c".
func joinAnd(parts []string) string {
	switch len(parts) {
	case 0:
		return ""
	case 1:
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

// quoteList quotes names and joins them with commas: "a", "b".
func quoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = strconv.Quote(n)
	}
	return strings.Join(q, ", ")
}
