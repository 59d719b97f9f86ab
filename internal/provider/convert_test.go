package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
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

// TestAttributePath_overhead: the overhead planner's paths land on the node-overhead options' attributes.
func TestAttributePath_overhead(t *testing.T) {
	tests := []struct {
		p    field.Path
		want path.Path
	}{
		{field.NewPath("MaxPods"), path.Root("max_pods")},
		{field.NewPath("Profile"), path.Root("profile")},
		{field.NewPath("Instance"), path.Root("instance_type")},
		{field.NewPath("KubernetesVersion"), path.Root("kubernetes_version")},
		{field.NewPath("VMMemoryOverheadBP"), path.Root("vm_memory_overhead_percent")},
		{field.NewPath("OSDiskGiB"), path.Root("os_disk_gib")},
		{field.NewPath("EKS", "Kind"), path.Root("eks").AtName("node_group_kind")},
		{field.NewPath("EKS", "ReservedENIs"), path.Root("eks").AtName("reserved_enis")},
		{field.NewPath("EKS", "MaxPodsExpressionResult"), path.Root("eks").AtName("max_pods_expression_result")},
		{field.NewPath("EKS", "PrefixDelegation"), path.Root("eks").AtName("prefix_delegation")},
		{field.NewPath("AKS", "NetworkPlugin"), path.Root("aks").AtName("network_plugin")},
		{field.NewPath("KubeReserved", "MemoryBytes"), path.Root("kube_reserved").AtMapKey("memory")},
		{field.NewPath("KubeReserved", "EphemeralStorageBytes"), path.Root("kube_reserved").AtMapKey("ephemeral-storage")},
		{field.NewPath("SystemReserved", "CPUMillicores"), path.Root("system_reserved").AtMapKey("cpu")},
		{field.NewPath("EvictionHard").Key("memory.available"), path.Root("eviction_hard").AtMapKey("memory.available")},
		{field.NewPath("MeasuredCapacity", "CPUMillicores"), path.Root("measured_capacity").AtName("cpu")},
		{field.NewPath("MeasuredCapacity", "EphemeralStorageBytes"), path.Root("measured_capacity").AtName("ephemeral_storage")},
		{field.NewPath("DaemonSets").At(2).Child("Requests", "MemoryBytes"), path.Root("daemonsets").AtListIndex(2).AtName("requests").AtName("memory")},
		{field.NewPath("DaemonSets").At(0).Child("Requests", "GPU"), path.Root("daemonsets").AtListIndex(0).AtName("requests").AtName("gpu")},
		{field.NewPath("MeasuredAllocatable", "MemoryBytes"), path.Root("measured_allocatable").AtName("memory")},
		{field.NewPath("MeasuredAllocatable", "Pods"), path.Root("measured_allocatable").AtName("pods")},
	}
	for _, tt := range tests {
		if got := attributePath(path.Empty(), tt.p, overheadRenames); !got.Equal(tt.want) {
			t.Errorf("attributePath(%s) = %s, want %s", tt.p, got, tt.want)
		}
	}
	base := path.Root("pools").AtMapKey("general")
	if got, want := attributePath(base, field.NewPath("KubeReserved", "CPUMillicores"), overheadRenames), base.AtName("kube_reserved").AtMapKey("cpu"); !got.Equal(want) {
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
