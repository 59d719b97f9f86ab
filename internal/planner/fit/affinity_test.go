package fit

import (
	"strings"
	"testing"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
)

func term(key string, op NodeSelectorOperator, values ...string) []NodeSelectorTerm {
	return []NodeSelectorTerm{{MatchExpressions: []NodeSelectorRequirement{{Key: key, Operator: op, Values: values}}}}
}

// TestAffinityZones checks the pool admission of required node affinity, with every operator, OR of terms,
// and zones (the scheduler's own matcher does the matching; this checks what kubefit feeds it).
func TestAffinityZones(t *testing.T) {
	p := &Pool{Name: "apps", Labels: map[string]string{"kubernetes.io/arch": "arm64", "tier": "apps", "cores": "8"}, Zones: []string{"a", "b"}}
	tests := []struct {
		name  string
		terms []NodeSelectorTerm
		want  bool
	}{
		{"no terms", nil, true},
		{"In matches", term("tier", NodeIn, "apps", "web"), true},
		{"In misses", term("tier", NodeIn, "db"), false},
		{"NotIn on a value the pool has", term("kubernetes.io/arch", NodeNotIn, "arm64"), false},
		{"NotIn on a missing label holds", term("spot", NodeNotIn, "true"), true},
		{"Exists", term("tier", NodeExists), true},
		{"DoesNotExist", term("tier", NodeDoesNotExist), false},
		{"Gt", term("cores", NodeGt, "4"), true},
		{"Lt", term("cores", NodeLt, "4"), false},
		{"OR of terms", append(term("tier", NodeIn, "db"), term("tier", NodeIn, "apps")...), true},
		{"AND of expressions", []NodeSelectorTerm{{MatchExpressions: []NodeSelectorRequirement{{Key: "tier", Operator: NodeIn, Values: []string{"apps"}},
			{Key: "kubernetes.io/arch", Operator: NodeIn, Values: []string{"amd64"}}}}}, false},
		{"every zone matches", term(zoneLabel, NodeIn, "a", "b", "c"), true},
		{"only some zones match: not admitted", term(zoneLabel, NodeIn, "a"), false},
		{"an empty term matches no node", []NodeSelectorTerm{{}}, false},
		{"hostnames are not known before the nodes exist", term("kubernetes.io/hostname", NodeIn, "ip-10-0-0-1"), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, got := affinityZones(tt.terms, p, false); got != tt.want {
				t.Errorf("admitted = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestPlanNodeAffinity plans a workload whose affinity admits one of two pools, and a DaemonSet whose
// affinity keeps it off the other; a workload no pool admits fails with the affinity named.
func TestPlanNodeAffinity(t *testing.T) {
	arm, x86 := pool("arm", 4000, 16384, 0, 10), pool("x86", 4000, 16384, 0, 10)
	arm.Labels = map[string]string{"kubernetes.io/arch": "arm64"}
	x86.Labels = map[string]string{"kubernetes.io/arch": "amd64"}
	w := wl("api", 4, 1000, 1024)
	w.NodeAffinity = term("kubernetes.io/arch", NodeNotIn, "amd64")
	ds := DaemonSet{Name: "agent", Requests: Resources{CPUMillicores: 100}, TakesPodSlot: true, NodeAffinity: term("kubernetes.io/arch", NodeIn, "amd64")}
	res := mustPlan(t, Input{Pools: []Pool{arm, x86}, Workloads: []Workload{w}, DaemonSets: []DaemonSet{ds}, PackingOnly: true})
	if got := poolResult(t, res, ScenarioSteady, "arm").NodesRequired; got == 0 {
		t.Errorf("arm pool got no nodes: the affinity should admit it")
	}
	if got := poolResult(t, res, ScenarioSteady, "x86").NodesRequired; got != 0 {
		t.Errorf("x86 pool got %d nodes: NotIn amd64 should keep the pods off it", got)
	}
	for _, o := range res.Pools {
		if o.Pool == "arm" && len(o.DaemonSets) != 0 {
			t.Errorf("DaemonSet landed on the arm pool despite its affinity In amd64")
		}
	}
	w.NodeAffinity = term("kubernetes.io/arch", NodeIn, "s390x")
	res = mustPlan(t, Input{Pools: []Pool{arm, x86}, Workloads: []Workload{w}, PackingOnly: true})
	found := false
	for _, f := range res.Failures {
		if f.Reason == ReasonAffinity && strings.Contains(f.Message, `kubernetes.io/arch In [s390x]`) && strings.Contains(f.Message, `pool "arm"`) {
			found = true
		}
	}
	if !found {
		t.Errorf("failures %+v, want a node-affinity failure naming the expression and the pool", res.Failures)
	}
}

func TestValidateNodeAffinity(t *testing.T) {
	w := wl("api", 1, 100, 100)
	w.NodeAffinity = []NodeSelectorTerm{{MatchExpressions: []NodeSelectorRequirement{{Key: "cores", Operator: NodeGt, Values: []string{"many"}}}}, {}}
	_, err := Plan(Input{Pools: []Pool{pool("p", 1000, 1000, 0, 1)}, Workloads: []Workload{w}})
	es := field.As(err)
	if len(es) != 1 || es[0].Path.String() != "Workloads[0].NodeAffinity[0].MatchExpressions[0]" {
		t.Fatalf("errors = %v", err)
	}
	if !strings.Contains(es[0].Detail, `"cores Gt"`) {
		t.Errorf("detail %q does not name the expression", es[0].Detail)
	}
}
