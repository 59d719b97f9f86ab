package fit

import (
	"strings"
	"testing"
)

// TestNodeLossWarning: a steady scenario that fills its pool to the maximum node count says, as a warning,
// what losing its busiest node would strand, with the maximum that absorbs it; a pool that may add a node,
// a plan that asks for node_loss itself, and a loss that strands nothing give no warning.
func TestNodeLossWarning(t *testing.T) {
	web := func(replicas int) Workload {
		return Workload{Name: "web", Replicas: replicas, MaxReplicas: replicas, Requests: Resources{CPUMillicores: 1000, MemoryBytes: 1 << 30}}
	}
	pool := func(minNodes, maxNodes int) Pool {
		return Pool{Name: "general", InstanceType: "m5.xlarge", Allocatable: Resources{CPUMillicores: 3000, MemoryBytes: 16 << 30, Pods: 110},
			MinNodes: minNodes, MaxNodes: maxNodes}
	}
	tests := []struct {
		name string
		in   Input
		want []string // nil: no warning
	}{
		// 9 pods of 1 CPU fill 3 nodes of 3 CPU: losing one strands its 3 pods; a fourth node takes them.
		{name: "full pool", in: Input{Pools: []Pool{pool(3, 3)}, Workloads: []Workload{web(9)}},
			want: []string{`no spare node in pool "general" (m5.xlarge) (3 of at most 3 nodes)`, `3 pods bind nowhere: 3 pods of workload "web"`,
				`With a maximum node count of 4 for pool "general" (1 more), they bind`, `list "node_loss" in the disruptions`}},
		{name: "room to grow", in: Input{Pools: []Pool{pool(3, 4)}, Workloads: []Workload{web(9)}}},
		// At its maximum but with room on the other nodes: 6 pods on 3 nodes of 3 CPU leave 3 CPU for the lost 2.
		{name: "full pool with room", in: Input{Pools: []Pool{pool(3, 3)}, Workloads: []Workload{web(6)}}},
		{name: "node_loss asked", in: Input{Pools: []Pool{pool(3, 3)}, Workloads: []Workload{web(9)}, Disruptions: []DisruptionKind{DisruptNodeLoss}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := Plan(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if !res.Scenarios[0].Fits {
				t.Fatalf("steady does not fit: %+v", res.Failures)
			}
			w := res.NodeLossWarning
			if tt.want == nil {
				if w != nil {
					t.Errorf("warning %+v, want none", w)
				}
				return
			}
			if w == nil {
				t.Fatal("no warning")
			}
			if !res.Fits || len(res.Disruptions) != 0 {
				t.Errorf("the warning changed the verdict: fits %v, disruptions %+v", res.Fits, res.Disruptions)
			}
			for _, s := range tt.want {
				if !strings.Contains(w.Message, s) {
					t.Errorf("message %q lacks %q", w.Message, s)
				}
			}
			if rep := Report(res); !strings.Contains(rep, "No spare node (a warning): "+w.Message) {
				t.Errorf("report lacks the warning:\n%s", rep)
			}
		})
	}
}

// TestDisruptionBudget: when the disruptions' replays run out of their work budget, what is left is not
// checked and fails on the safe side, with a message that says why and what to do; the spare-node warning,
// not a verdict, is then left out. BenchmarkPlan10kDisruptions measures a plan where the budget binds (it took
// 65 s before the budget and the live node list).
func TestDisruptionBudget(t *testing.T) {
	in := disrupted(benchInput(3, 4, 10, 4))
	full, err := Plan(in)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range full.Disruptions {
		if !d.Checked {
			t.Fatalf("within the budget %s was not checked: %s", d.Kind, d.Message)
		}
	}
	saved := disruptionBudget
	disruptionBudget = -1
	defer func() { disruptionBudget = saved }()
	res, err := Plan(in)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Disruptions) != len(in.Disruptions) || res.Fits || res.NodeLossWarning != nil {
		t.Fatalf("out of budget: %d verdicts for %d disruptions, fits %v, warning %v", len(res.Disruptions), len(in.Disruptions), res.Fits, res.NodeLossWarning)
	}
	for i, d := range res.Disruptions {
		if d.Kind != in.Disruptions[i] || d.Checked || d.Fits || !strings.Contains(d.Message, string(d.Kind)+" was not checked: the disruptions' replays of") ||
			!strings.Contains(d.Message, "fails on the safe side") {
			t.Fatalf("out of budget, %s: %+v", in.Disruptions[i], d)
		}
	}
}
