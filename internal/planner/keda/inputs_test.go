package keda

import (
	"strings"
	"testing"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
)

// sized is a ScaledObject of maxReplicaCount max whose pods ask 500m CPU and 256Mi and hold 5 connections.
func sized(max int64) ScaledObject {
	so := base()
	so.MaxReplicaCount = ptr(max)
	so.TargetWorkload = &Workload{ConnectionsPerPod: ptr(int64(5)), PodTemplate: PodTemplate{Containers: []Container{{Name: "app",
		Requests: map[string]string{"cpu": "500m", "memory": "256Mi"}}}}}
	return so
}

func group(name string, maxNodes int64) NodeGroupCapacity {
	return NodeGroupCapacity{Name: name, MaxNodes: maxNodes,
		WorkloadAllocatable: Allocatable{CPUMillicores: 1930, MemoryBytes: 7 << 30}, WorkloadPods: 29}
}

// onlyAt checks that err holds exactly one error, at path want, whose detail contains every part.
func onlyAt(t *testing.T, err error, want string, parts ...string) {
	t.Helper()
	errs := field.As(err)
	if len(errs) != 1 || errs[0].Path.String() != want {
		t.Fatalf("want one error at %s, got %d: %v", want, len(errs), err)
	}
	for _, p := range parts {
		if !strings.Contains(errs[0].Detail, p) {
			t.Errorf("%s: detail %q lacks %q", want, errs[0].Detail, p)
		}
	}
}

// TestCapacityInputsOnTheirOwnField is issue 21's class 4: a capacity input that cannot be real (a node group of
// no nodes, a database of no connections) is refused on its own field before any check reads it, not reported
// as a misfit of the maximum replica count.
func TestCapacityInputsOnTheirOwnField(t *testing.T) {
	so := sized(10)
	g := group("general", 0)
	so.NodeGroupCapacity = &g
	_, err := Plan(so)
	onlyAt(t, err, "NodeGroupCapacity.MaxNodes", `node group "general"`, "0", "1 or more")

	so = sized(10)
	so.Database = &Database{Name: "orders", MaxConnections: -5}
	_, err = Plan(so)
	onlyAt(t, err, "Database.MaxConnections", `database "orders"`, "-5", "1 or more")

	for _, c := range []struct {
		db   Database
		at   string
		want string
	}{
		{Database{Name: "orders", MaxConnections: 100, ReservedConnections: -1}, "Database.ReservedConnections", "-1"},
		{Database{Name: "orders", MaxConnections: 100, ReservedConnections: 100}, "Database.ReservedConnections", "100"},
		{Database{Name: "orders", MaxConnections: 100, OtherClients: -3}, "Database.OtherClients", "-3"},
		{Database{Name: "orders", MaxConnections: 100, UsableFraction: ptr(1.5)}, "Database.UsableFraction", "1.5"},
		{Database{Name: "", MaxConnections: 100}, "Database.Name", "name"},
	} {
		so = sized(10)
		so.Database = &c.db
		_, err = Plan(so)
		onlyAt(t, err, c.at, c.want)
	}

	// The same inputs inside the cross-object check.
	s := mustSummary(t, sized(2))
	_, err = CheckAll(Check{ScaledObjects: []Summary{s}, NodeGroups: []NodeGroupCapacity{group("general", 0)}})
	onlyAt(t, err, "NodeGroups[0].MaxNodes", `node group "general"`)
	_, err = CheckAll(Check{ScaledObjects: []Summary{s}, Databases: []SharedDatabase{{Database: Database{Name: "orders", MaxConnections: -1}, Clients: []string{"shop/api"}}}})
	onlyAt(t, err, "Databases[0].MaxConnections", `database "orders"`)
}

func mustSummary(t *testing.T, so ScaledObject) Summary {
	t.Helper()
	r, err := Plan(so)
	if err != nil {
		t.Fatal(err)
	}
	return r.Summary
}

// TestCrossReferencesResolved is issue 21's class 3: every name that refers to another entry of the check
// is resolved, and a miss names both sides; the same node group or database given twice is refused.
func TestCrossReferencesResolved(t *testing.T) {
	so := sized(4)
	g := group("general", 10)
	so.NodeGroupCapacity = &g
	s := mustSummary(t, so)

	_, err := CheckAll(Check{ScaledObjects: []Summary{s}, NodeGroups: []NodeGroupCapacity{group("other", 10)}})
	onlyAt(t, err, "ScaledObjects[0].NodeGroup", `"shop/api"`, `"general"`, `"other"`)

	h := s
	h.HPAName = ""
	_, err = CheckAll(Check{HPAs: []Summary{h}, NodeGroups: []NodeGroupCapacity{group("other", 10)}})
	onlyAt(t, err, "HPAs[0].NodeGroup", `HPA "shop/api"`, `"general"`)

	// No node groups at all: the summary's group is not checked, and that is not an error (the check was not asked for).
	if _, err := CheckAll(Check{ScaledObjects: []Summary{s}}); err != nil {
		t.Fatalf("no node groups: %v", err)
	}

	_, err = CheckAll(Check{ScaledObjects: []Summary{s}, NodeGroups: []NodeGroupCapacity{group("general", 10), group("general", 12)}})
	onlyAt(t, err, "NodeGroups[1].Name", `"general"`, "twice")

	db := Database{Name: "orders", MaxConnections: 1000}
	_, err = CheckAll(Check{ScaledObjects: []Summary{s}, Databases: []SharedDatabase{{Database: db, Clients: []string{"shop/api"}}, {Database: db, Clients: []string{"shop/api"}}}})
	onlyAt(t, err, "Databases[1].Name", `"orders"`, "twice")

	_, err = CheckAll(Check{ScaledObjects: []Summary{s}, Databases: []SharedDatabase{{Database: db, Clients: []string{"shop/api", "shop/api"}}}})
	onlyAt(t, err, "Databases[0].Clients[1]", `"shop/api"`, "twice")

	_, err = CheckAll(Check{ScaledObjects: []Summary{s}, Databases: []SharedDatabase{{Database: db, Clients: []string{"shop/nope"}}}})
	onlyAt(t, err, "Databases[0].Clients[0]", `"shop/nope"`, `"orders"`)
}

// TestRequestResourceNames is issue 21's class 1 for container requests: a key that is not a Kubernetes
// resource name (cpus, a typo; an unqualified extended resource) is refused on its own map key, naming it,
// where Kubernetes' API server would refuse the pod.
func TestRequestResourceNames(t *testing.T) {
	for _, c := range []struct {
		key  string
		want string // "" when valid
	}{
		{"cpu", ""}, {"memory", ""}, {"ephemeral-storage", ""}, {"hugepages-2Mi", ""}, {"nvidia.com/gpu", ""},
		{"cpus", `"cpus"`}, {"CPU", `"CPU"`}, {"gpu", `"gpu"`}, {"hugepages-lots", `"hugepages-lots"`},
		{"kubernetes.io/gpu", `"kubernetes.io/gpu"`}, {"example.com/a b", `"example.com/a b"`},
	} {
		tmpl := PodTemplate{Containers: []Container{{Name: "app", Requests: map[string]string{"cpu": "100m", c.key: "1"}}}}
		_, _, errs := PodRequests(tmpl)
		if c.want == "" {
			if len(errs) > 0 {
				t.Errorf("%q: %v", c.key, errs)
			}
			continue
		}
		want := `TargetWorkload.PodTemplate.Containers[0].Requests["` + c.key + `"]`
		if len(errs) != 1 || errs[0].Path.String() != want || !strings.Contains(errs[0].Detail, c.want) {
			t.Errorf("%q: want one error at %s naming it, got %v", c.key, want, errs)
		}
	}
}
