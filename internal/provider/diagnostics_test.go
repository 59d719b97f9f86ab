package provider

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
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

// TestUniqueDiagnostics: uniqueDiagnostics gives what appending one by one with the framework's
// diag.Diagnostics.Append gives (the slow reference), on random sequences of errors and warnings with and
// without paths, repeated, including ones that differ only in their path, severity, summary or detail.
func TestUniqueDiagnostics(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	paths := []path.Path{path.Root("a"), path.Root("a").AtListIndex(0), path.Root("a").AtListIndex(1), path.Root("b").AtMapKey("x")}
	pick := func() diag.Diagnostic {
		summary, detail := fmt.Sprint("s", rng.IntN(2)), fmt.Sprint("d", rng.IntN(3))
		switch rng.IntN(4) {
		case 0:
			return diag.NewErrorDiagnostic(summary, detail)
		case 1:
			return diag.NewWarningDiagnostic(summary, detail)
		case 2:
			return diag.NewAttributeErrorDiagnostic(paths[rng.IntN(len(paths))], summary, detail)
		}
		return diag.NewAttributeWarningDiagnostic(paths[rng.IntN(len(paths))], summary, detail)
	}
	dropped := 0
	for range 500 {
		var in, want diag.Diagnostics
		for range rng.IntN(60) {
			d := pick()
			in = append(in, d)
			want.Append(d)
		}
		got := uniqueDiagnostics(slices.Clone(in))
		if !slices.EqualFunc(got, want, func(a, b diag.Diagnostic) bool { return a.Equal(b) }) {
			t.Fatalf("in %v\ngot  %v\nwant %v", in, got, want)
		}
		dropped += len(in) - len(got)
	}
	if dropped == 0 {
		t.Fatal("no duplicate was drawn: the test checks nothing")
	}
}
