package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
)

func TestSnakeCase(t *testing.T) {
	tests := map[string]string{
		"MaxNodes": "max_nodes", "VMMemoryOverheadPercent": "vm_memory_overhead_percent", "OSDiskGiB": "os_disk_gib", "ReservedENIs": "reserved_enis",
		"CPUUsage": "cpu_usage", "Pools": "pools", "EKS": "eks", "MaxPods": "max_pods", "IPv4PerENI": "ipv4_per_eni",
		"KubernetesVersion": "kubernetes_version", "MeasuredCapacity": "measured_capacity",
	}
	for in, want := range tests {
		if got := snakeCase(in); got != want {
			t.Errorf("snakeCase(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestAttributePath(t *testing.T) {
	names := renames{"CPUMillicores": "cpu", "KubeReserved.EphemeralStorageBytes": "[ephemeral-storage]", "Overhead": "", "Replicas": "replicas"}
	tests := []struct {
		p    field.Path
		want path.Path
	}{
		{field.NewPath("Pools").Key("general").Child("MaxNodes"), path.Root("pools").AtMapKey("general").AtName("max_nodes")},
		{field.NewPath("Workloads").At(2).Child("Requests", "CPUMillicores"), path.Root("workloads").AtListIndex(2).AtName("requests").AtName("cpu")},
		{field.NewPath("KubeReserved", "EphemeralStorageBytes"), path.Root("kube_reserved").AtMapKey("ephemeral-storage")},
		{field.NewPath("Pools").Key("p").Child("Overhead", "MaxPods"), path.Root("pools").AtMapKey("p").AtName("max_pods")},
	}
	for _, tt := range tests {
		if got := attributePath(path.Empty(), tt.p, names); !got.Equal(tt.want) {
			t.Errorf("attributePath(%s) = %s, want %s", tt.p, got, tt.want)
		}
	}
	if got := attributePath(path.Root("pool"), field.NewPath("MaxNodes"), nil); !got.Equal(path.Root("pool").AtName("max_nodes")) {
		t.Errorf("base not kept: %s", got)
	}
}
