package provider

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// TestSizingWarnsDiskShare: a claim's provisioned rates (as kubefit_storage_class's performance gives them)
// reach sizing, and a node whose volumes ask more than its instance type sustains is warned about on the
// pool, with the finding as the summary; without rates there is no such warning.
func TestSizingWarnsDiskShare(t *testing.T) {
	r := newRPCServer(t)
	cfg := func(claim map[string]any) *tfprotov6.DynamicValue {
		return r.dataConfig(t, "kubefit_node_pool_sizing", map[string]any{
			"pools": map[string]any{"db": map[string]any{"cloud": "aws", "instance_type": "m5.large", "max_nodes": 2}},
			"workloads": []any{map[string]any{"name": "pg", "replicas": 10,
				"requests":      map[string]any{"cpu": "100m", "memory": "256Mi"},
				"volume_claims": []any{claim}}},
		})
	}
	read := func(dv *tfprotov6.DynamicValue) []*tfprotov6.Diagnostic {
		resp, err := r.srv.ReadDataSource(context.Background(), &tfprotov6.ReadDataSourceRequest{TypeName: "kubefit_node_pool_sizing", Config: dv})
		if err != nil {
			t.Fatal(err)
		}
		return resp.Diagnostics
	}
	var found *tfprotov6.Diagnostic
	for _, d := range read(cfg(map[string]any{"name": "data", "iops": 3000, "throughput_mbps": 125.0})) {
		if d.Severity == tfprotov6.DiagnosticSeverityError {
			t.Fatalf("error: %s: %s", d.Summary, d.Detail)
		}
		if d.Summary == "Volumes Exceed the Node's Disk Limits" {
			found = d
		}
	}
	if found == nil {
		t.Fatal("no disk-share warning")
	}
	if !strings.Contains(found.Detail, "30,000 IOPS and 1,310.72 MB/s") || found.Attribute == nil ||
		!found.Attribute.Equal(tftypes.NewAttributePath().WithAttributeName("pools").WithElementKeyString("db")) {
		t.Errorf("warning %q on %v", found.Detail, found.Attribute)
	}
	for _, d := range read(cfg(map[string]any{"name": "data"})) {
		if d.Summary == "Volumes Exceed the Node's Disk Limits" {
			t.Errorf("claims without rates warned: %s", d.Detail)
		}
	}
}

// TestSizingClaimDiskType: a claim's disk_type that its GCP pool's machine series cannot attach fails the
// sizing on that claim's disk_type (disks.md §6.1), naming the pool; one it attaches passes.
func TestSizingClaimDiskType(t *testing.T) {
	r := newRPCServer(t)
	read := func(diskType string) []*tfprotov6.Diagnostic {
		dv := r.dataConfig(t, "kubefit_node_pool_sizing", map[string]any{
			"pools": map[string]any{"db": map[string]any{"cloud": "gcp", "instance_type": "n4-standard-8", "max_nodes": 2}},
			"workloads": []any{map[string]any{"name": "pg", "replicas": 2,
				"requests":      map[string]any{"cpu": "100m", "memory": "256Mi"},
				"volume_claims": []any{map[string]any{"name": "data", "disk_type": diskType}}}},
		})
		resp, err := r.srv.ReadDataSource(context.Background(), &tfprotov6.ReadDataSourceRequest{TypeName: "kubefit_node_pool_sizing", Config: dv})
		if err != nil {
			t.Fatal(err)
		}
		return resp.Diagnostics
	}
	var found *tfprotov6.Diagnostic
	for _, d := range read("pd-balanced") {
		if d.Severity == tfprotov6.DiagnosticSeverityError {
			found = d
		}
	}
	// The server shows a nested attribute's error on its element and names the full path in the detail (sourcePath).
	want := tftypes.NewAttributePath().WithAttributeName("workloads").WithElementKeyInt(0)
	if found == nil || found.Attribute == nil || !found.Attribute.Equal(want) || !strings.Contains(found.Detail, "GPD-M1") ||
		!strings.HasPrefix(found.Detail, `workloads[0].volume_claims[0].disk_type = "pd-balanced": `) ||
		!strings.Contains(found.Detail, `can land on pool "db"`) {
		t.Fatalf("pd-balanced on n4: %+v", found)
	}
	for _, d := range read("hyperdisk-balanced") {
		if d.Severity == tfprotov6.DiagnosticSeverityError {
			t.Errorf("hyperdisk-balanced on n4: %s: %s", d.Summary, d.Detail)
		}
	}
}

// TestSizingSmallAKSWarnsOnInstanceType: the warning that AKS creates no new pool of a 1-vCPU size names the
// attribute the user wrote, instance_type (the planner speaks of the pool's InstanceTypes[0]), or instance_types[0]
// when the pool lists its types. (The server points such a diagnostic at the pool and names the attribute within it
// first in the detail.)
func TestSizingSmallAKSWarnsOnInstanceType(t *testing.T) {
	r := newRPCServer(t)
	for _, tc := range []struct {
		pool map[string]any
		want string
	}{
		{map[string]any{"cloud": "azure", "instance_type": "Standard_DS1_v2", "max_nodes": 4}, `pools["small"].instance_type = "Standard_DS1_v2": `},
		{map[string]any{"cloud": "azure", "instance_types": []any{"Standard_DS1_v2"}, "max_nodes": 4}, `pools["small"].instance_types[0] = "Standard_DS1_v2": `},
	} {
		dv := r.dataConfig(t, "kubefit_node_pool_sizing", map[string]any{"pools": map[string]any{"small": tc.pool},
			"workloads": []any{map[string]any{"name": "web", "replicas": 2, "requests": map[string]any{"cpu": "100m", "memory": "128Mi"}}}})
		resp, err := r.srv.ReadDataSource(context.Background(), &tfprotov6.ReadDataSourceRequest{TypeName: "kubefit_node_pool_sizing", Config: dv})
		if err != nil {
			t.Fatal(err)
		}
		var found *tfprotov6.Diagnostic
		for _, d := range resp.Diagnostics {
			if strings.Contains(d.Detail, "AKS does not create nodes on VM sizes with fewer than 2 vCPUs") {
				found = d
			}
		}
		if found == nil || found.Severity != tfprotov6.DiagnosticSeverityWarning || !strings.HasPrefix(found.Detail, tc.want) {
			t.Errorf("pool %v: warning %+v, want one whose detail starts %q", tc.pool, found, tc.want)
		}
	}
}
