package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
)

func TestParseQuantity(t *testing.T) {
	tests := []struct {
		in      string
		kind    quantityKind
		want    parsedQuantity
		wantErr bool
	}{
		{"500m", quantityCPU, parsedQuantity{Value: 500}, false},
		{"2", quantityCPU, parsedQuantity{Value: 2000}, false},
		{"0.1", quantityCPU, parsedQuantity{Value: 100}, false},
		{"512Mi", quantityBytes, parsedQuantity{Value: 512 << 20}, false},
		{"1G", quantityBytes, parsedQuantity{Value: 1e9}, false},
		{"3500452Ki", quantityBytes, parsedQuantity{Value: 3500452 * 1024}, false},
		{"10%", quantityBytesOrPercent, parsedQuantity{PercentBP: 1000, IsPercent: true}, false},
		{"7.5%", quantityBytesOrPercent, parsedQuantity{PercentBP: 750, IsPercent: true}, false},
		{"100Mi", quantityBytesOrPercent, parsedQuantity{Value: 100 << 20}, false},
		{"12Zi", quantityBytes, parsedQuantity{}, true},
		{"-1", quantityCPU, parsedQuantity{}, true},
		{"1e30", quantityBytes, parsedQuantity{}, true},
		{"10%", quantityBytes, parsedQuantity{}, true},
		{"101%", quantityBytesOrPercent, parsedQuantity{}, true},
		{"0.001%", quantityBytesOrPercent, parsedQuantity{}, true},
		{"", quantityCPU, parsedQuantity{}, true},
	}
	for _, tt := range tests {
		got, err := parseQuantity(tt.in, tt.kind)
		if (err != nil) != tt.wantErr || got != tt.want {
			t.Errorf("parseQuantity(%q) = %+v, %v; want %+v, error %v", tt.in, got, err, tt.want, tt.wantErr)
		}
	}
}

func TestFieldPath(t *testing.T) {
	tests := []struct {
		field string
		want  path.Path
	}{
		{"max_pods", path.Root("max_pods")},
		{"eks.node_group_kind", path.Root("eks").AtName("node_group_kind")},
		{"kube_reserved.memory", path.Root("kube_reserved").AtMapKey("memory")},
		{"eviction_hard.memory.available", path.Root("eviction_hard").AtMapKey("memory.available")},
		{"daemonsets[2]", path.Root("daemonsets").AtListIndex(2)},
	}
	for _, tt := range tests {
		if got := overheadErrorPath(path.Empty(), tt.field); !got.Equal(tt.want) {
			t.Errorf("overheadErrorPath(%q) = %s, want %s", tt.field, got, tt.want)
		}
	}
	base := path.Root("pools").AtMapKey("general")
	if got, want := overheadErrorPath(base, "kube_reserved.cpu"), base.AtName("kube_reserved").AtMapKey("cpu"); !got.Equal(want) {
		t.Errorf("nested path %s, want %s", got, want)
	}
}

// FuzzParseQuantity: no string makes quantity parsing panic, and accepted values are within bounds.
func FuzzParseQuantity(f *testing.F) {
	for _, s := range []string{"500m", "12Zi", "1e30", "10%", "-5", "0.0000001", "9223372036854775807", "1Ei", ".5", "%"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, k := range []quantityKind{quantityCPU, quantityBytes, quantityBytesOrPercent} {
			q, err := parseQuantity(s, k)
			if err != nil {
				continue
			}
			if q.Value < 0 || q.Value > maxQuantity+1000 || q.PercentBP < 0 || q.PercentBP > 10000 {
				t.Fatalf("parseQuantity(%q) = %+v: out of bounds", s, q)
			}
		}
	})
}
