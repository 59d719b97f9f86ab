package provider

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
)

// oneErrorAt checks that ds holds exactly one diagnostic, an error on attribute at, whose detail contains
// every part.
func oneErrorAt(t *testing.T, ds diag.Diagnostics, at path.Path, parts ...string) {
	t.Helper()
	if len(ds) != 1 || ds.ErrorsCount() != 1 {
		t.Fatalf("want one error on %s, got %d diagnostics: %v", at, len(ds), ds)
	}
	wp, ok := ds[0].(diag.DiagnosticWithPath)
	if !ok || !wp.Path().Equal(at) {
		t.Fatalf("want the error on %s, got %v: %s", at, ds[0], ds[0].Detail())
	}
	for _, p := range parts {
		if !strings.Contains(ds[0].Detail(), p) {
			t.Errorf("%s: detail %q lacks %q", at, ds[0].Detail(), p)
		}
	}
}

func groupModel(name string, maxNodes int64) nodeGroupCapacityModel {
	return nodeGroupCapacityModel{Name: &name, MaxNodes: &maxNodes, WorkloadPods: ptrTo(int64(29)),
		WorkloadAllocatable: &capacityAllocatableModel{CPUMillicores: ptrTo(int64(1930)), MemoryBytes: ptrTo(int64(7 << 30))}}
}

func capacitySummary(name, group string) soSummaryModel {
	return soSummaryModel{autoscalerSummaryModel: autoscalerSummaryModel{Namespace: ptrTo("shop"), Name: &name, TargetName: &name,
		PeakReplicas: ptrTo(int64(4)), ConnectionsPerPod: ptrTo(int64(5)), NodeGroup: &group,
		PodRequests: &podRequestsModel{CPUMillicores: ptrTo(int64(500)), MemoryBytes: ptrTo(int64(256 << 20))}}}
}

// TestCapacityCheckInputs is issue 21's classes 3 and 4 at the edge of kubefit_capacity_check: a summary's
// node group that is not in node_groups, a node group or database given twice, a group of no nodes and a
// database of no connections each give one error on the attribute that holds the bad value.
func TestCapacityCheckInputs(t *testing.T) {
	root := path.Root
	cases := []struct {
		name  string
		edit  func(*capacityCheckModel)
		at    path.Path
		parts []string
	}{
		{"summary names a missing group", func(m *capacityCheckModel) { m.NodeGroups = []nodeGroupCapacityModel{groupModel("other", 10)} },
			root("scaled_objects").AtListIndex(0).AtName("node_group"), []string{`"shop/api"`, `"general"`, `"other"`}},
		{"group given twice", func(m *capacityCheckModel) { m.NodeGroups = append(m.NodeGroups, groupModel("general", 12)) },
			root("node_groups").AtListIndex(1).AtName("name"), []string{`"general"`, "twice"}},
		{"group of no nodes", func(m *capacityCheckModel) { m.NodeGroups = []nodeGroupCapacityModel{groupModel("general", 0)} },
			root("node_groups").AtListIndex(0).AtName("max_nodes"), []string{`"general"`, "1 or more"}},
		{"negative max_connections", func(m *capacityCheckModel) { m.Databases[0].MaxConnections = -5 },
			root("databases").AtListIndex(0).AtName("max_connections"), []string{`"orders"`, "-5"}},
		{"usable fraction above 1", func(m *capacityCheckModel) { m.Databases[0].UsableFraction = ptrTo(1.5) },
			root("databases").AtListIndex(0).AtName("usable_fraction"), []string{`"orders"`, "1.5", "from 0 to 1"}},
		{"database given twice", func(m *capacityCheckModel) { m.Databases = append(m.Databases, m.Databases[0]) },
			root("databases").AtListIndex(1).AtName("name"), []string{`"orders"`, "twice"}},
		{"client given twice", func(m *capacityCheckModel) { m.Databases[0].Clients = []string{"shop/api", "shop/api"} },
			root("databases").AtListIndex(0).AtName("clients").AtListIndex(1), []string{`"shop/api"`, "twice"}},
		{"unknown client", func(m *capacityCheckModel) { m.Databases[0].Clients = []string{"shop/nope"} },
			root("databases").AtListIndex(0).AtName("clients").AtListIndex(0), []string{`"shop/nope"`, `"orders"`, `"shop/api"`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := capacityCheckModel{ScaledObjects: []soSummaryModel{capacitySummary("api", "general")},
				NodeGroups: []nodeGroupCapacityModel{groupModel("general", 10)},
				Databases:  []sharedDatabaseModel{{Name: "orders", MaxConnections: 1000, Clients: []string{"shop/api"}}}}
			var ok diag.Diagnostics
			if !planCapacityCheck(&m, &ok) || ok.HasError() {
				t.Fatalf("the base check fails: %v", ok)
			}
			m = capacityCheckModel{ScaledObjects: []soSummaryModel{capacitySummary("api", "general")},
				NodeGroups: []nodeGroupCapacityModel{groupModel("general", 10)},
				Databases:  []sharedDatabaseModel{{Name: "orders", MaxConnections: 1000, Clients: []string{"shop/api"}}}}
			c.edit(&m)
			var ds diag.Diagnostics
			planCapacityCheck(&m, &ds)
			oneErrorAt(t, ds, c.at, c.parts...)
		})
	}
}
