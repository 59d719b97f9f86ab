package fit

import (
	"math"
	"testing"
)

const gb = int64(1) << 30

func TestFormatCPU(t *testing.T) {
	tests := []struct {
		in   int64
		want string
	}{
		{0, "0m"}, {5, "5m"}, {940, "940m"}, {1580, "1,580m"}, {2340, "2,340m"}, {1234567, "1,234,567m"},
		{-235, "-235m"}, {-1000, "-1,000m"}, {math.MinInt64, "-9,223,372,036,854,775,808m"},
	}
	for _, tt := range tests {
		if got := FormatCPU(tt.in); got != tt.want {
			t.Errorf("FormatCPU(%d) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestFormatBytes(t *testing.T) {
	tests := []struct {
		in   int64
		want string
	}{
		{0, "0 MiB"},
		{32 * mi, "32 MiB"},
		{1669 * mi, "1,669 MiB"},
		// 1,814,948 KiB = 1,772.41 MiB (the DS1_v2 allocatable of overhead.md §12.5).
		{1814948 * 1024, "1,772.4 MiB"},
		{mi / 2, "512 KiB"},
		{52428, "51.2 KiB"}, // under 1 MiB in KiB (it said "0 MiB")
		{52429, "51.2 KiB"},
		{2, "2 bytes"},
		{10*gb - 1, "10,240 MiB"},
		{10 * gb, "10 GiB"},
		{15*gb + 300*mi, "15.3 GiB"},
		{-60 * mi, "-60 MiB"},
		{math.MaxInt64, "8,589,934,592 GiB"},
	}
	for _, tt := range tests {
		if got := FormatBytes(tt.in); got != tt.want {
			t.Errorf("FormatBytes(%d) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestSurgeResolve(t *testing.T) {
	tests := []struct {
		name  string
		surge IntOrPercent
		total int
		want  int
	}{
		{"absolute", IntOrPercent{Value: 2}, 10, 2},
		{"absolute with zero total", IntOrPercent{Value: 2}, 0, 2},
		{"25% of 10 rounds 2.5 up", IntOrPercent{Value: 25, Percent: true}, 10, 3},
		{"25% of 4 is exact", IntOrPercent{Value: 25, Percent: true}, 4, 1},
		{"25% of 1 rounds 0.25 up", IntOrPercent{Value: 25, Percent: true}, 1, 1},
		{"1% of 101 rounds 1.01 up", IntOrPercent{Value: 1, Percent: true}, 101, 2},
		{"100%", IntOrPercent{Value: 100, Percent: true}, 7, 7},
		{"150%", IntOrPercent{Value: 150, Percent: true}, 3, 5},
		{"percent of zero", IntOrPercent{Value: 25, Percent: true}, 0, 0},
		{"zero", IntOrPercent{}, 10, 0},
		{"negative", IntOrPercent{Value: -1}, 10, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.surge.Resolve(tt.total); got != tt.want {
				t.Errorf("Resolve(%d) = %d, want %d", tt.total, got, tt.want)
			}
		})
	}
	w := Workload{Replicas: 2, MaxReplicas: 10, MaxSurge: IntOrPercent{Value: 25, Percent: true}}
	if got := w.PeakReplicas(); got != 13 {
		t.Errorf("PeakReplicas = %d, want 10 + ceil(2.5) = 13", got)
	}
}

func TestSaturatingArithmetic(t *testing.T) {
	const maxI, minI = math.MaxInt64, math.MinInt64
	tests := []struct {
		name string
		got  int64
		want int64
	}{
		{"add", satAdd(2, 3), 5},
		{"add overflow", satAdd(maxI, 1), maxI},
		{"add underflow", satAdd(minI, -1), minI},
		{"sub", satSub(2, 3), -1},
		{"sub min", satSub(0, minI), maxI},
		{"sub overflow", satSub(maxI, -1), maxI},
		{"mul", satMul(-4, 5), -20},
		{"mul overflow", satMul(1<<40, 1<<40), maxI},
		{"mul negative overflow", satMul(-(1 << 40), 1<<40), minI},
		{"mul min by -1", satMul(minI, -1), maxI},
		{"ceilDiv", ceilDiv(7, 2), 4},
		{"ceilDiv exact", ceilDiv(8, 2), 4},
		{"ceilDiv zero", ceilDiv(0, 2), 0},
		{"ceilDiv by zero", ceilDiv(5, 0), 0},
		{"fitCount", fitCount(vec{1000, 1000, 0, 10, 0}, vec{300, 100, 0, 1, 0}), 3},
		{"fitCount pods bound", fitCount(vec{1000, 1000, 0, 2, 0}, vec{1, 1, 0, 1, 0}), 2},
		{"fitCount none", fitCount(vec{100, 1000, 0, 10, 0}, vec{300, 100, 0, 1, 0}), 0},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s = %d, want %d", tt.name, tt.got, tt.want)
		}
	}
}
