package resource

import (
	"math"
	"testing"
)

func TestCeilDiv(t *testing.T) {
	tests := []struct{ a, b, want int64 }{
		{0, 3, 0}, {1, 3, 1}, {3, 3, 1}, {4, 3, 2}, {-3, 2, -1}, {-4, 2, -2}, {5, 0, 0}, {5, -1, 0},
		{math.MaxInt64, 2, math.MaxInt64/2 + 1},
	}
	for _, tt := range tests {
		if got := CeilDiv(tt.a, tt.b); got != tt.want {
			t.Errorf("CeilDiv(%d, %d) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestFormat(t *testing.T) {
	tests := []struct{ got, want string }{
		{QuantityCPU(2000), "2"}, {QuantityCPU(1930), "1930m"}, {QuantityCPU(0), "0"},
		{QuantityBytes(601882624), "574Mi"}, {QuantityBytes(1814948 * 1024), "1814948Ki"}, {QuantityBytes(0), "0"}, {QuantityBytes(1000), "1000"},
		{HumanCPU(1580), "1,580m"}, {HumanBytes(1669 << 20), "1,669 MiB"}, {HumanBytes(2), "2 bytes"}, {HumanBytes(1), "1 byte"}, {HumanBytes(1536), "1.5 KiB"}, {HumanBytes(0), "0 MiB"}, {HumanBytes(-(1 << 20)), "-1 MiB"},
		{HumanBytes(15*(1<<30) + 3*(1<<30)/10), "15.3 GiB"}, {HumanBytes(math.MinInt64), "-8,589,934,592 GiB"},
		{Group(1024), "1,024"}, {Group(-1234567), "-1,234,567"}, {Group(999), "999"},
		{Human(Pods, 1), "1 pod slot"}, {Human(Pods, 3), "3 pod slots"}, {Human(GPU, 2), "2 GPUs"}, {Human(Volumes, 25), "25 volume attachments"}, {Human(Volumes, 1), "1 volume attachment"}, {Human(CPU, 235), "235m CPU"},
	}
	for i, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("case %d: got %q, want %q", i, tt.got, tt.want)
		}
	}
}

func TestListArithmetic(t *testing.T) {
	a := List{1, 2, 3, 4, 5, 6}
	b := List{6, 5, 4, 3, 2, 1}
	if got := a.Add(b); got != (List{7, 7, 7, 7, 7, 7}) {
		t.Fatalf("Add = %v", got)
	}
	if got := a.Add(b).Sub(b); got != a {
		t.Fatalf("Sub does not undo Add: %v", got)
	}
	for i, n := range Names {
		if a.Get(n) != int64(i+1) {
			t.Fatalf("Get(%s) = %d", n, a.Get(n))
		}
	}
	if a.Get("other") != 0 {
		t.Fatal("unknown dimension must be 0")
	}
}
