package fit

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
)

// pool returns a pool of nodes with cpu millicores, mem MiB and 110 pods of allocatable.
func pool(name string, cpu, memMi int64, minNodes, maxNodes int) Pool {
	return Pool{Name: name, MinNodes: minNodes, MaxNodes: maxNodes,
		Allocatable: Resources{CPUMillicores: cpu, MemoryBytes: memMi * mi, Pods: 110}}
}

// wl returns a non-autoscaled workload of n pods requesting cpu millicores and mem MiB each.
func wl(name string, n int, cpu, memMi int64) Workload {
	return Workload{Name: name, Replicas: n, MaxReplicas: n, Requests: Resources{CPUMillicores: cpu, MemoryBytes: memMi * mi}}
}

func mustPlan(t *testing.T, in Input) Result {
	t.Helper()
	res, err := Plan(in)
	if err != nil {
		t.Fatalf("Plan: %v", err)
	}
	return res
}

func poolResult(t *testing.T, res Result, sc Scenario, name string) PoolResult {
	t.Helper()
	for _, s := range res.Scenarios {
		if s.Scenario != sc {
			continue
		}
		for _, p := range s.Pools {
			if p.Pool == name {
				return p
			}
		}
	}
	t.Fatalf("no pool %q in scenario %s", name, sc)
	return PoolResult{}
}

func placement(t *testing.T, res Result, sc Scenario, workload string) Placement {
	t.Helper()
	for _, s := range res.Scenarios {
		if s.Scenario != sc {
			continue
		}
		for _, p := range s.Placements {
			if p.Workload == workload {
				return p
			}
		}
	}
	t.Fatalf("no placement of %q in scenario %s", workload, sc)
	return Placement{}
}

func failuresOf(res Result, sc Scenario, workload string) map[string]Failure {
	out := map[string]Failure{}
	for _, f := range res.Failures {
		if f.Scenario == sc && f.Workload == workload {
			out[f.Pool] = f
		}
	}
	return out
}

func TestDaemonSetOverhead(t *testing.T) {
	amd := pool("amd", 2000, 4000, 0, 3)
	amd.Labels = map[string]string{"kubernetes.io/arch": "amd64"}
	amd.Taints = []Taint{{Key: "soft", Effect: EffectPreferNoSchedule}}
	arm := pool("arm", 2000, 4000, 0, 3)
	arm.Labels = map[string]string{"kubernetes.io/arch": "arm64"}
	gpu := pool("gpu", 4000, 8000, 0, 3)
	gpu.Labels = map[string]string{"kubernetes.io/arch": "amd64"}
	gpu.Taints = []Taint{{Key: "nvidia.com/gpu", Value: "present", Effect: EffectNoSchedule}}
	in := Input{
		Pools: []Pool{amd, arm, gpu},
		DaemonSets: []DaemonSet{
			// No tolerations: kept off gpu by its NoSchedule taint; amd's PreferNoSchedule does not block.
			{Name: "proxy", Requests: Resources{CPUMillicores: 100}, CPUUsageMillicores: 10, TakesPodSlot: true},
			{Name: "cni", Requests: Resources{CPUMillicores: 25, MemoryBytes: 40 * mi}, CPUUsageMillicores: 5,
				Tolerations: []Toleration{{Operator: OperatorExists}}, TakesPodSlot: true},
			{Name: "arm-agent", Requests: Resources{CPUMillicores: 10, MemoryBytes: 20 * mi},
				NodeSelector: map[string]string{"kubernetes.io/arch": "arm64"}},
		},
	}
	res := mustPlan(t, in)
	tests := []struct {
		pool    string
		names   []string
		ds      Resources
		workAll Resources
		usage   int64
	}{
		// amd: proxy + cni = 125m, 40 MiB, 2 slots → 1,875m, 3,960 MiB, 108 pods.
		{"amd", []string{"proxy", "cni"}, Resources{CPUMillicores: 125, MemoryBytes: 40 * mi, Pods: 2},
			Resources{CPUMillicores: 1875, MemoryBytes: 3960 * mi, Pods: 108}, 15},
		// arm: all three; arm-agent takes no slot → 135m, 60 MiB, 2 slots.
		{"arm", []string{"proxy", "cni", "arm-agent"}, Resources{CPUMillicores: 135, MemoryBytes: 60 * mi, Pods: 2},
			Resources{CPUMillicores: 1865, MemoryBytes: 3940 * mi, Pods: 108}, 15},
		// gpu: only cni tolerates the taint.
		{"gpu", []string{"cni"}, Resources{CPUMillicores: 25, MemoryBytes: 40 * mi, Pods: 1},
			Resources{CPUMillicores: 3975, MemoryBytes: 7960 * mi, Pods: 109}, 5},
	}
	for i, tt := range tests {
		got := res.Pools[i]
		if got.Pool != tt.pool || !reflect.DeepEqual(got.DaemonSets, tt.names) || got.DaemonSetRequests != tt.ds ||
			got.WorkloadAllocatable != tt.workAll || got.DaemonSetCPUUsageMillicores != tt.usage || !got.Usable ||
			got.Source != SourceDaemonSets {
			t.Errorf("pool %s overhead = %+v\nwant DaemonSets %v, requests %+v, workload allocatable %+v, usage %d",
				tt.pool, got, tt.names, tt.ds, tt.workAll, tt.usage)
		}
	}
}

func TestDaemonSetsLeaveNoRoom(t *testing.T) {
	p := pool("tiny", 940, 1669, 1, 2)
	p.InstanceType = "Standard_B1ls"
	in := Input{
		Pools:      []Pool{p},
		DaemonSets: []DaemonSet{{Name: "heavy", Requests: Resources{CPUMillicores: 1000}, TakesPodSlot: true}},
		Workloads:  []Workload{wl("web", 1, 10, 10)},
	}
	res := mustPlan(t, in)
	if res.Fits || res.Pools[0].Usable {
		t.Fatalf("want an unusable pool and no fit\n%s", Report(res))
	}
	f := res.Failures[0]
	if f.Reason != ReasonDaemonSets || f.Workload != "" || f.Scenario != "" ||
		!strings.Contains(f.Message, "DaemonSets request 1,000m of the 940m allocatable CPU") {
		t.Errorf("first failure = %+v", f)
	}
	wf := failuresOf(res, ScenarioSteady, "web")["tiny"]
	if wf.Reason != ReasonTooLarge || !strings.Contains(wf.Message, "leave no room for pods") {
		t.Errorf("workload failure = %+v", wf)
	}
	if pr := poolResult(t, res, ScenarioSteady, "tiny"); pr.Fits || pr.NodesRequired != 1 {
		t.Errorf("pool result = %+v, want 1 node (min) and no fit", pr)
	}
}

func TestMinNodes(t *testing.T) {
	p := pool("general", 1000, 1000, 3, 5)
	in := Input{
		Pools:      []Pool{p},
		DaemonSets: []DaemonSet{{Name: "agent", Requests: Resources{CPUMillicores: 100}, CPUUsageMillicores: 40}},
		Workloads: []Workload{{Name: "web", Replicas: 1, MaxReplicas: 2, CPUUsageMillicores: 30,
			Requests: Resources{CPUMillicores: 200, MemoryBytes: 100 * mi}}},
	}
	res := mustPlan(t, in)
	for _, sc := range Scenarios {
		pr := poolResult(t, res, sc, "general")
		if pr.NodesRequired != 3 || pr.LowerBound != 3 || pr.LowerBoundBy != "min-nodes" || !pr.Fits {
			t.Errorf("%s: nodes %d, lower bound %d (%s), fits %v; want 3, 3 (min-nodes), true", sc, pr.NodesRequired,
				pr.LowerBound, pr.LowerBoundBy, pr.Fits)
		}
		// DaemonSets occupy every node, the empty ones too: usage 40m + 30m per pod. The scheduler
		// spreads the two peak pods over two nodes (LeastAllocated); which nodes is its tie-break.
		var usages []int64
		for _, n := range pr.Nodes {
			usages = append(usages, n.CPUUsageMillicores)
		}
		slices.Sort(usages)
		slices.Reverse(usages)
		want := map[Scenario][]int64{ScenarioSteady: {70, 40, 40}, ScenarioPeak: {70, 70, 40}}[sc]
		if !reflect.DeepEqual(usages, want) {
			t.Errorf("%s: node CPU usage = %v, want %v", sc, usages, want)
		}
		if pr.MaxNodeCPUUsageMillicores != want[0] {
			t.Errorf("%s: max node CPU usage = %d, want %d", sc, pr.MaxNodeCPUUsageMillicores, want[0])
		}
	}
	// Utilisation over 3 nodes of 900m workload allocatable: steady 200 / 2,700; with DaemonSets
	// (200 + 300) / 3,000.
	pr := poolResult(t, res, ScenarioSteady, "general")
	if got, want := pr.Utilization.CPU, 200.0/2700; got != want {
		t.Errorf("CPU utilisation = %v, want %v", got, want)
	}
	if got, want := pr.UtilizationWithDaemonSets.CPU, 500.0/3000; got != want {
		t.Errorf("CPU utilisation with DaemonSets = %v, want %v", got, want)
	}
	if got, want := pr.Utilization.Pods, 1.0/330; got != want {
		t.Errorf("pod utilisation = %v, want %v", got, want)
	}
}

func TestNodesBeyondMax(t *testing.T) {
	// 5 pods of 400m on 1,000m nodes: 2 per node → 3 nodes, max 2.
	p := pool("general", 1000, 1000, 0, 2)
	p.InstanceType = "m5.large"
	res := mustPlan(t, Input{Pools: []Pool{p}, Workloads: []Workload{wl("web", 5, 400, 10)}})
	pr := poolResult(t, res, ScenarioSteady, "general")
	if pr.NodesRequired != 3 || pr.Fits || pr.PodsBeyondMax != 1 || pr.Pods != 5 {
		t.Fatalf("pool = %+v, want 3 nodes, no fit, 1 pod beyond max", pr)
	}
	if !pr.Nodes[2].BeyondMax || pr.Nodes[1].BeyondMax {
		t.Errorf("nodes = %+v, want only the third beyond max", pr.Nodes)
	}
	pl := placement(t, res, ScenarioSteady, "web")
	if !reflect.DeepEqual(pl.Pools, []PoolPods{{Pool: "general", Pods: 5, BeyondMax: 1}}) {
		t.Errorf("placement = %+v", pl)
	}
	f := failuresOf(res, ScenarioSteady, "web")["general"]
	// 5 × 400 = 2,000m against 2 × 1,000 = 2,000m: the totals fit, the packing does not.
	for _, want := range []string{`pool "general" (m5.large) needs 3 nodes in the steady scenario but its maximum node count is 2`,
		`1 pod of workload "web" does not fit`, "would fit 2 nodes (0m CPU and 1,950 MiB memory to spare)",
		"node 1 lacks 200m CPU", "Raise the maximum node count to 3"} {
		if !strings.Contains(f.Message, want) {
			t.Errorf("message lacks %q:\n%s", want, f.Message)
		}
	}
	if f.Reason != ReasonMaxNodes {
		t.Errorf("reason = %s", f.Reason)
	}
}

func TestNodeSpread(t *testing.T) {
	spread := func(n, maxNodes int) Input {
		w := wl("web", n, 100, 100)
		w.Spread = Spread{Type: SpreadNode}
		return Input{Pools: []Pool{pool("general", 4000, 8000, 0, maxNodes)}, Workloads: []Workload{w}}
	}
	res := mustPlan(t, spread(5, 10))
	pr := poolResult(t, res, ScenarioSteady, "general")
	if pr.NodesRequired != 5 || pr.LowerBound != 5 || pr.LowerBoundBy != `workload "web"` || !res.Fits {
		t.Fatalf("nodes %d, lower bound %d (%s), fits %v; want 5, 5 by the workload, true", pr.NodesRequired,
			pr.LowerBound, pr.LowerBoundBy, res.Fits)
	}
	for _, n := range pr.Nodes {
		if n.Pods != 1 {
			t.Errorf("node %d holds %d pods, want 1", n.Index, n.Pods)
		}
	}
	if h := res.Headroom[0]; h.Replicas != 5 || h.Source != SourceHeadroom {
		t.Errorf("headroom = %+v, want 5 (the 5 fresh nodes up to max 10)", h)
	}

	res = mustPlan(t, spread(5, 3))
	f := failuresOf(res, ScenarioSteady, "web")["general"]
	if f.Reason != ReasonSpread || !strings.Contains(f.Message, "needs 5 nodes for its 5 pods") ||
		!strings.Contains(f.Message, "at most 3") {
		t.Errorf("failure = %+v", f)
	}
}

func TestZoneSpread(t *testing.T) {
	zonal := func(n, skew, maxNodes int, cpu int64) Input {
		p := pool("general", 1000, 8000, 0, maxNodes)
		p.Zones = []string{"zone-a", "zone-b", "zone-c"}
		w := wl("web", n, cpu, 100)
		w.Spread = Spread{Type: SpreadZone, MaxSkew: skew}
		return Input{Pools: []Pool{p}, Workloads: []Workload{w}}
	}
	podsPerZone := func(pr PoolResult) map[string]int {
		out := map[string]int{}
		for _, n := range pr.Nodes {
			out[n.Zone] += n.Pods
		}
		return out
	}
	t.Run("even spread over round-robin nodes", func(t *testing.T) {
		// 7 pods of 500m, 2 per node: zones get 3, 2, 2 (the extra to the first zone by name); zone-a
		// needs 2 nodes and nodes go a, b, c, a → 4 nodes.
		res := mustPlan(t, zonal(7, 1, 10, 500))
		pr := poolResult(t, res, ScenarioSteady, "general")
		if got, want := podsPerZone(pr), map[string]int{"zone-a": 3, "zone-b": 2, "zone-c": 2}; !reflect.DeepEqual(got,
			want) {
			t.Errorf("pods per zone = %v, want %v", got, want)
		}
		var zones []string
		for _, n := range pr.Nodes {
			zones = append(zones, n.Zone)
		}
		if want := []string{"zone-a", "zone-b", "zone-c", "zone-a"}; !reflect.DeepEqual(zones, want) {
			t.Errorf("node zones = %v, want %v", zones, want)
		}
		// Lower bound: CPU 7 × 500 / 1,000 → 4 (the pods are exactly half a node, so no DFF rounding).
		if pr.LowerBound != 4 {
			t.Errorf("lower bound = %d (%s), want 4", pr.LowerBound, pr.LowerBoundBy)
		}
	})
	t.Run("lower bound by zones", func(t *testing.T) {
		// 4 pods, 2 per node: CPU says 2 nodes, but zones get 2, 1, 1 and need ceil(2/2) + 1 + 1 = 3.
		res := mustPlan(t, zonal(4, 1, 10, 500))
		pr := poolResult(t, res, ScenarioSteady, "general")
		if pr.LowerBound != 3 || pr.LowerBoundBy != `workload "web"` || pr.NodesRequired != 3 {
			t.Errorf("lower bound %d (%s), nodes %d; want 3 by the workload, 3", pr.LowerBound, pr.LowerBoundBy,
				pr.NodesRequired)
		}
	})
	t.Run("a zone that never gets a node within max", func(t *testing.T) {
		// max_nodes 2 over 3 zones: nodes go to zone-a and zone-b only. The best packing keeps a share
		// for zone-c, which has no room, so it needs a node beyond the maximum; the scheduler only knows
		// the zones its nodes are in, so on the 2 nodes it spreads the 4 pods 2 and 2 (skew 1 holds).
		res := mustPlan(t, zonal(4, 1, 2, 100))
		pr := poolResult(t, res, ScenarioSteady, "general")
		if !res.Fits || pr.NodesRequired != 2 || pr.NodesOptimal != 3 {
			t.Errorf("fits %v, nodes %d (best packing %d); want a fit on 2 (3)", res.Fits, pr.NodesRequired, pr.NodesOptimal)
		}
		if got, want := podsPerZone(pr), map[string]int{"zone-a": 2, "zone-b": 2}; !reflect.DeepEqual(got, want) {
			t.Errorf("pods per zone = %v, want %v", got, want)
		}
		// With max skew 2, zone-a and zone-b may hold 2 each while zone-c has none: it fits.
		res = mustPlan(t, zonal(4, 2, 2, 100))
		pr = poolResult(t, res, ScenarioSteady, "general")
		if !res.Fits || pr.NodesRequired != 2 {
			t.Fatalf("want a fit on 2 nodes with max skew 2\n%s", Report(res))
		}
		if got, want := podsPerZone(pr), map[string]int{"zone-a": 2, "zone-b": 2}; !reflect.DeepEqual(got, want) {
			t.Errorf("pods per zone = %v, want %v", got, want)
		}
	})
	t.Run("headroom keeps the skew", func(t *testing.T) {
		// 3 pods of 600m (one per node) on max 4 nodes: nodes a, b, c hold one each; only a 4th node
		// (zone-a) is left, so one more pod fits (2, 1, 1 keeps skew 1).
		res := mustPlan(t, zonal(3, 1, 4, 600))
		if got := res.Headroom[0].Replicas; got != 1 {
			t.Errorf("headroom = %d, want 1", got)
		}
		// Room per zone 1, 0, 0 and counts 1, 1, 1: L = 1, Σ min(1 + room, L + 2) − 3 = 2 + 1 + 1 − 3.
		res = mustPlan(t, zonal(3, 2, 4, 600))
		if got := res.Headroom[0].Replicas; got != 1 {
			t.Errorf("headroom with skew 2 = %d, want 1", got)
		}
	})
}

func TestPoolChoice(t *testing.T) {
	tests := []struct {
		name  string
		pools []Pool
		w     Workload
		want  string
	}{
		{
			// 3 pods of 900m: small (1,000m) needs 3 nodes, waste 1 − 2,700/3,000 = 10 %; big (4,000m)
			// needs 1 node, waste 1 − 2,700/4,000 = 32.5 %.
			"least waste on allocatable",
			[]Pool{pool("big", 4000, 8000, 0, 10), pool("small", 1000, 8000, 0, 10)},
			wl("web", 3, 900, 0), "small",
		},
		{
			"higher weight on equal waste",
			[]Pool{pool("a", 2000, 4000, 0, 10), func() Pool { p := pool("b", 2000, 4000, 0, 10); p.Weight = 10; return p }()},
			wl("web", 2, 500, 500), "b",
		},
		{
			"lower price on equal waste and weight",
			[]Pool{func() Pool { p := pool("a", 2000, 4000, 0, 10); p.PricePerHour = 0.2; return p }(),
				func() Pool { p := pool("b", 2000, 4000, 0, 10); p.PricePerHour = 0.1; return p }()},
			wl("web", 2, 500, 500), "b",
		},
		{
			"unknown price ranks after a known one",
			[]Pool{pool("a", 2000, 4000, 0, 10),
				func() Pool { p := pool("b", 2000, 4000, 0, 10); p.PricePerHour = 0.5; return p }()},
			wl("web", 2, 500, 500), "b",
		},
		{
			"name last",
			[]Pool{pool("b", 2000, 4000, 0, 10), pool("a", 2000, 4000, 0, 10)},
			wl("web", 2, 500, 500), "a",
		},
		{
			"waste before weight",
			[]Pool{func() Pool { p := pool("big", 4000, 8000, 0, 10); p.Weight = 100; return p }(),
				pool("small", 1000, 8000, 0, 10)},
			wl("web", 3, 900, 0), "small",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := mustPlan(t, Input{Pools: tt.pools, Workloads: []Workload{tt.w}})
			pl := placement(t, res, ScenarioSteady, tt.w.Name)
			if len(pl.Pools) != 1 || pl.Pools[0].Pool != tt.want {
				t.Errorf("placement = %+v, want all pods on %q", pl.Pools, tt.want)
			}
		})
	}
	t.Run("spill to the next pool at max nodes", func(t *testing.T) {
		res := mustPlan(t, Input{
			Pools:     []Pool{pool("small", 1000, 8000, 0, 2), pool("big", 4000, 8000, 0, 10)},
			Workloads: []Workload{wl("web", 3, 900, 0)},
		})
		pl := placement(t, res, ScenarioSteady, "web")
		want := []PoolPods{{Pool: "small", Pods: 2}, {Pool: "big", Pods: 1}}
		if !reflect.DeepEqual(pl.Pools, want) || !res.Fits {
			t.Errorf("placement = %+v, want %+v and a fit", pl.Pools, want)
		}
	})
	t.Run("existing nodes of any pool before a new node", func(t *testing.T) {
		// big has a min node with room; small would waste less but an existing node comes first.
		res := mustPlan(t, Input{
			Pools:     []Pool{pool("small", 1000, 8000, 0, 5), pool("big", 4000, 8000, 1, 10)},
			Workloads: []Workload{wl("web", 3, 900, 0)},
		})
		pl := placement(t, res, ScenarioSteady, "web")
		if want := []PoolPods{{Pool: "big", Pods: 3}}; !reflect.DeepEqual(pl.Pools, want) {
			t.Errorf("placement = %+v, want %+v", pl.Pools, want)
		}
	})
}

func TestHeadroom(t *testing.T) {
	// 3 pods of 300m on 1,000m nodes, max 4: one node holds 3 (100m left: 0 more); 3 fresh nodes hold 3
	// each: headroom 9. A workload whose own pods overflow has none.
	in := Input{
		Pools:     []Pool{pool("general", 1000, 8000, 0, 4)},
		Workloads: []Workload{wl("web", 3, 300, 100), wl("tiny", 1, 10, 1)},
	}
	res := mustPlan(t, in)
	// tiny shares the first node: (1,000 − 900 − 10) div 10 = 9 there, plus 3 fresh nodes × 100 = 309,
	// capped by pod slots: the first node has 110 − 4 = 106 slots, so 9; fresh nodes hold
	// min(1,000 div 10, 110) = 100 each.
	want := []Headroom{{Workload: "web", Replicas: 9, Source: SourceHeadroom},
		{Workload: "tiny", Replicas: 309, Source: SourceHeadroom}}
	if !reflect.DeepEqual(res.Headroom, want) {
		t.Errorf("headroom = %+v, want %+v", res.Headroom, want)
	}
	in.Workloads[0].MaxReplicas = 20 // 20 × 300 needs 7 nodes > 4
	res = mustPlan(t, in)
	if res.Headroom[0].Replicas != 0 {
		t.Errorf("headroom of an overflowing workload = %d, want 0", res.Headroom[0].Replicas)
	}
}

func TestLowerBound(t *testing.T) {
	// 3 pods of 600m on 1,000m nodes: the plain CPU sum says ceil(1,800 / 1,000) = 2; the dual feasible
	// function u_1 maps 0.6 to 1, so the CPU bound is 3, which 3 nodes meet.
	res := mustPlan(t, Input{Pools: []Pool{pool("p", 1000, 8000, 0, 10)}, Workloads: []Workload{wl("x", 3, 600, 1)}})
	pr := poolResult(t, res, ScenarioSteady, "p")
	if pr.LowerBound != 3 || pr.LowerBoundBy != "cpu" || pr.NodesRequired != 3 {
		t.Errorf("lower bound %d (%s), nodes %d; want 3 by cpu, 3", pr.LowerBound, pr.LowerBoundBy, pr.NodesRequired)
	}
	// 81 pods of 100m on 4,050m nodes: 40 per node, so the workload needs ceil(81 / 40) = 3 nodes while
	// the CPU sum is exactly 2 nodes and u_k for k ≤ 32 maps 100/4,050 to 0.
	res = mustPlan(t, Input{Pools: []Pool{pool("p", 4050, 8000, 0, 10)}, Workloads: []Workload{wl("x", 81, 100, 1)}})
	pr = poolResult(t, res, ScenarioSteady, "p")
	if pr.LowerBound != 3 || pr.LowerBoundBy != `workload "x"` || pr.NodesRequired != 3 {
		t.Errorf("lower bound %d (%s), nodes %d; want 3 by the workload, 3", pr.LowerBound, pr.LowerBoundBy,
			pr.NodesRequired)
	}
	// Two shapes of 0.55 and 0.45 of a node: sums give ceil(4 × 0.55 + 4 × 0.45) = 4 (cpu), and 4 pairs
	// fill 4 nodes exactly.
	res = mustPlan(t, Input{Pools: []Pool{pool("p", 1000, 8000, 0, 10)},
		Workloads: []Workload{wl("a", 4, 550, 1), wl("b", 4, 450, 1)}})
	pr = poolResult(t, res, ScenarioSteady, "p")
	if pr.LowerBound != 4 || pr.LowerBoundBy != "cpu" || pr.NodesRequired != 4 {
		t.Errorf("lower bound %d (%s), nodes %d; want 4 by cpu, 4", pr.LowerBound, pr.LowerBoundBy, pr.NodesRequired)
	}
}

func TestFailureReasons(t *testing.T) {
	general := pool("general", 1580, 6000, 0, 3)
	general.InstanceType = "m5.large"
	general.Labels = map[string]string{"kubernetes.io/arch": "amd64"}
	general.Allocatable.Volumes = 24
	gpu := pool("gpu", 8000, 30000, 0, 1)
	gpu.Labels = map[string]string{"kubernetes.io/arch": "amd64"}
	gpu.Taints = []Taint{{Key: "nvidia.com/gpu", Value: "present", Effect: EffectNoSchedule}}
	batch := pool("batch", 4000, 16000, 0, 2)
	batch.Labels = map[string]string{"kubernetes.io/arch": "arm64"}
	base := Input{Pools: []Pool{general, gpu, batch}}
	tests := []struct {
		name string
		w    Workload
		want map[string][2]string // pool → reason, message fragment
	}{
		{
			"too large, taint, selector",
			func() Workload {
				w := wl("big", 1, 2000, 100)
				w.NodeSelector = map[string]string{"kubernetes.io/arch": "amd64"}
				return w
			}(),
			map[string][2]string{
				"general": {"too-large", `pod of workload "big" requests 2,000m CPU but a node of pool "general" ` +
					`(m5.large) has 1,580m CPU; choose a larger instance type or lower the requests`},
				"gpu":   {"taint", `"nvidia.com/gpu=present:NoSchedule"`},
				"batch": {"selector", "kubernetes.io/arch=amd64 (the pool has kubernetes.io/arch=arm64)"},
			},
		},
		{
			"pool list, max nodes",
			func() Workload { w := wl("web", 20, 500, 100); w.Pools = []string{"general"}; return w }(),
			map[string][2]string{
				"general": {"max-nodes", "needs 7 nodes in the steady scenario but its maximum node count is 3"},
				"gpu":     {"pool-list", `may only run on pool(s) "general"`},
				"batch":   {"pool-list", `not on pool "batch"`},
			},
		},
		{
			"memory too large and no GPU",
			func() Workload {
				w := wl("train", 1, 100, 7000)
				w.Requests.GPU = 1
				w.Pools = []string{"general"}
				return w
			}(),
			map[string][2]string{
				"general": {"too-large", `pod of workload "train" requests 7,000 MiB memory and 1 nvidia.com/gpu but a node of ` +
					`pool "general" (m5.large) has 6,000 MiB memory and no nvidia.com/gpu; choose a larger instance type or lower the ` +
					`requests; choose an instance type with NVIDIA GPUs that current drivers support (AMD, Habana and Kepler GPUs and fractional GPUs offer no nvidia.com/gpu) or drop the GPU request`},
			},
		},
		{
			// A larger size of a family often attaches no more volumes: the remedy is another family or fewer claims.
			"too many volume claims",
			func() Workload {
				w := wl("db", 1, 100, 100)
				for i := range 26 {
					w.VolumeClaims = append(w.VolumeClaims, VolumeClaim{Name: fmt.Sprintf("d%d", i), AccessModes: []AccessMode{ReadWriteOnce}})
				}
				w.Pools = []string{"general"}
				return w
			}(),
			map[string][2]string{
				"general": {"too-large", `requests 26 volume attachments but a node of pool "general" (m5.large) has 24 ` +
					`volume attachments; choose an instance type that attaches more volumes per node (a larger size of a ` +
					`family often attaches no more) or give each pod fewer volume claims`},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := base
			in.Workloads = []Workload{tt.w}
			res := mustPlan(t, in)
			got := failuresOf(res, ScenarioSteady, tt.w.Name)
			for p, want := range tt.want {
				f, ok := got[p]
				if !ok {
					t.Errorf("no failure on pool %s; got %+v", p, got)
					continue
				}
				if string(f.Reason) != want[0] || !strings.Contains(f.Message, want[1]) {
					t.Errorf("pool %s: %s: %s\nwant reason %s and %q", p, f.Reason, f.Message, want[0], want[1])
				}
			}
		})
	}
}

// TestStrandedResources reproduces the field report's three nodes at (94 % CPU, 86 % memory),
// (80 %, 89 %) and (98 %, 60 %) on 1,000m / 1,000 MiB nodes, max 3: a pod of 15 % CPU and 20 % memory
// fits on none of them although the pool has 280m and 650 MiB free in total.
func TestStrandedResources(t *testing.T) {
	in := Input{
		Pools: []Pool{pool("general", 1000, 1000, 0, 3)},
		Workloads: []Workload{
			wl("filler-1", 1, 940, 860), wl("filler-2", 1, 800, 890), wl("filler-3", 1, 980, 600),
			wl("small", 1, 150, 200),
		},
	}
	res := mustPlan(t, in)
	pr := poolResult(t, res, ScenarioSteady, "general")
	if res.Fits || pr.NodesRequired != 4 {
		t.Fatalf("want 4 nodes and no fit\n%s", Report(res))
	}
	f := failuresOf(res, ScenarioSteady, "small")["general"]
	// Free per node: 60m / 140 MiB (lacks 90m and 60 MiB), 200m / 110 MiB (lacks 90 MiB), 20m / 400 MiB
	// (lacks 130m); the nodes are numbered in packing order. With small's own pod, the pool's pods
	// request 2,870m and 2,550 MiB of 3,000m and 3,000 MiB: 130m and 450 MiB to spare in total.
	for _, want := range []string{"would fit 3 nodes (130m CPU and 450 MiB memory to spare)",
		"no single node has room", "stranded", "One pod needs 150m CPU and 200 MiB memory",
		"lacks 90 MiB memory;", "lacks 130m CPU;", "lacks 90m CPU and 60 MiB memory."} {
		if !strings.Contains(f.Message, want) {
			t.Errorf("message lacks %q:\n%s", want, f.Message)
		}
	}
	// Stranded within max: no pod of the scenario fits the free room of nodes 1–3 (the smallest
	// request is 150m / 200 MiB), so all of it counts: 280m and 650 MiB. The fourth node, beyond max,
	// holds small and has 850m / 800 MiB left, where another pod of small would fit: not stranded.
	if got := pr.Stranded; got.CPUMillicores != 280 || got.MemoryBytes != 650*mi {
		t.Errorf("stranded = %+v, want 280m and 650 MiB", got)
	}
}

func TestUnplacedPods(t *testing.T) {
	res := mustPlan(t, Input{Pools: []Pool{pool("a", 1000, 1000, 0, 3), pool("b", 2000, 2000, 0, 3)},
		Workloads: []Workload{wl("huge", 2, 3000, 10)}})
	sc := res.Scenarios[0]
	if sc.UnplacedPods != 2 || sc.Fits || res.Fits {
		t.Fatalf("scenario = %+v, want 2 unplaced pods", sc)
	}
	if got := failuresOf(res, ScenarioSteady, "huge"); len(got) != 2 || got["a"].Reason != ReasonTooLarge ||
		got["b"].Reason != ReasonTooLarge {
		t.Errorf("failures = %+v", got)
	}
	if pl := placement(t, res, ScenarioSteady, "huge"); pl.Unplaced != 2 || len(pl.Pools) != 0 {
		t.Errorf("placement = %+v", pl)
	}
}

func TestScenarios(t *testing.T) {
	// Steady 2 pods; peak 4 + ceil(25 % × 4) = 5 pods of 400m, 2 per 1,000m node → 1 and 3 nodes.
	w := wl("web", 2, 400, 10)
	w.MaxReplicas = 4
	w.MaxSurge = IntOrPercent{Value: 25, Percent: true}
	res := mustPlan(t, Input{Pools: []Pool{pool("p", 1000, 1000, 0, 10)}, Workloads: []Workload{w}})
	if got := []int{res.Scenarios[0].Pods, res.Scenarios[1].Pods}; !reflect.DeepEqual(got, []int{2, 5}) {
		t.Errorf("pods = %v, want [2 5]", got)
	}
	if s, p := poolResult(t, res, ScenarioSteady, "p"), poolResult(t, res, ScenarioPeak, "p"); s.NodesRequired != 1 ||
		p.NodesRequired != 3 {
		t.Errorf("nodes = %d, %d; want 1, 3", s.NodesRequired, p.NodesRequired)
	}
}

func TestPlanDeterministic(t *testing.T) {
	in := benchInput(7, 40, 13, 8)
	a := mustPlan(t, in)
	// Rebuild every map with a different insertion order: the result must not change.
	in2 := benchInput(7, 40, 13, 8)
	for i := range in2.Pools {
		in2.Pools[i].Labels = reinsert(in2.Pools[i].Labels)
	}
	for i := range in2.Workloads {
		in2.Workloads[i].NodeSelector = reinsert(in2.Workloads[i].NodeSelector)
	}
	for range 3 {
		b := mustPlan(t, in2)
		if !reflect.DeepEqual(a, b) {
			t.Fatal("Plan is not deterministic")
		}
		if Report(a) != Report(b) {
			t.Fatal("Report is not deterministic")
		}
	}
}

func reinsert(m map[string]string) map[string]string {
	if m == nil {
		return nil
	}
	out := map[string]string{"zz-extra": "x"}
	for k, v := range m {
		out[k] = v
	}
	delete(out, "zz-extra")
	return out
}

// TestPlanReusesNoVisibleState checks the reuse of packing arrays across Plans (reuse.go): plans of
// differently shaped inputs, run one after another and concurrently, give the results they give alone,
// and a returned Result does not change when later Plans reuse the arrays it was computed in.
func TestPlanReusesNoVisibleState(t *testing.T) {
	inputs := []Input{benchInput(7, 40, 13, 8), benchInput(3, 5, 200, 1), benchInput(11, 60, 3, 20), benchInput(5, 12, 40, 3)}
	inputs[1].Pools[0].Zones = nil // no zones: different per-pool list shapes
	for i := range inputs[1].Workloads {
		if inputs[1].Workloads[i].Spread.Type == SpreadZone {
			inputs[1].Workloads[i].Spread = Spread{}
		}
	}
	first := make([]Result, len(inputs))
	snap := make([]string, len(inputs))
	for i, in := range inputs {
		first[i] = mustPlan(t, in)
		snap[i] = fmt.Sprintf("%#v", first[i])
	}
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := range 3 {
				i := (g + r) % len(inputs)
				res, err := Plan(inputs[i])
				if err != nil || !reflect.DeepEqual(res, first[i]) {
					errs <- fmt.Sprintf("input %d planned again (goroutine %d, round %d) gives another result (err %v)", i, g, r, err)
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	for i := range inputs {
		if got := fmt.Sprintf("%#v", first[i]); got != snap[i] {
			t.Errorf("the result of input %d changed after later plans", i)
		}
	}
}

// TestTooLargeAfterDaemonSets: a pod larger than what a pool's DaemonSets leave of an empty node is told the room
// left after them, in the resource they request only.
func TestTooLargeAfterDaemonSets(t *testing.T) {
	in := Input{Pools: []Pool{pool("p", 2000, 4000, 0, 3)},
		DaemonSets: []DaemonSet{{Name: "agent", Requests: Resources{CPUMillicores: 300}, TakesPodSlot: true}},
		Workloads:  []Workload{wl("big", 1, 1800, 5000)}}
	f, ok := failuresOf(mustPlan(t, in), ScenarioSteady, "big")["p"]
	want := `requests 1,800m CPU and 5,000 MiB memory but a node of pool "p" has 1,700m CPU left after DaemonSets and ` +
		`4,000 MiB memory; choose a larger instance type or lower the requests`
	if !ok || f.Reason != ReasonTooLarge || !strings.Contains(f.Message, want) {
		t.Fatalf("failure %+v, want too-large with %q", f, want)
	}
}
