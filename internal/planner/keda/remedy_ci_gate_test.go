package keda

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/resource"
)

// ciGate is the exploratory tester's c4-ci-gate (REPORT.md B2, B3): node group "web" of m7g.xlarge nodes
// (3,670m CPU and 55 pod slots for workloads a node, after the datadog agent and the platform's DaemonSets)
// over three zones, of at most maxNodes nodes, with its own workload "frontend" (20 replicas of 250m, 5 surge
// pods), and the ScaledObject "shop/checkout" placed on it by the check: maxReplicas replicas of 750m / 1Gi,
// 25 % surge, a DoNotSchedule zone spread of skew 1, minReplicaCount 3.
func ciGate(t *testing.T, maxReplicas, maxNodes int64) Check {
	t.Helper()
	so := base()
	so.Name, so.ScaleTargetRef.Name = "checkout", "checkout"
	so.MinReplicaCount, so.MaxReplicaCount = ptr(int64(3)), ptr(maxReplicas)
	so.TargetWorkload = &Workload{
		Rollout:        &Rollout{Strategy: "RollingUpdate", MaxSurge: ptr("25%")},
		TopologySpread: []SpreadConstraint{{TopologyKey: ZoneKey, MaxSkew: 1, WhenUnsatisfiable: "DoNotSchedule"}},
		PodTemplate:    PodTemplate{Containers: []Container{{Name: "checkout", Requests: map[string]string{"cpu": "750m", "memory": "1Gi"}}}},
	}
	res, err := Plan(so)
	if err != nil {
		t.Fatalf("checkout: %v", err)
	}
	g := NodeGroupCapacity{Name: "web", MaxNodes: maxNodes, Zones: []string{"eu-west-1a", "eu-west-1b", "eu-west-1c"},
		WorkloadAllocatable: Allocatable{CPUMillicores: 3670, MemoryBytes: 14519631872, EphemeralBytes: 18181869946}, WorkloadPods: 55,
		Workloads: []GroupWorkload{{Name: "frontend", Replicas: 20, Surge: 5,
			Requests: resource.List{CPUMillicores: 250, MemoryBytes: 256 << 20}}}}
	return Check{ScaledObjects: []Summary{res.Summary}, NodeGroups: []NodeGroupCapacity{g},
		NodeGroupOf: map[string]string{"shop/checkout": "web"}}
}

// TestCIGateRemediesPass: in the tester's case every maxReplicaCount and maximum size KCAP-E2 and KCAP-E3
// print, applied alone, makes the next check pass: the group's size and its zones together. (Until 2026-12-08 at
// 8 nodes KCAP-E2 named 28, which then failed KCAP-E3: two nodes in the smallest zone hold 8 of checkout's 10
// pods there; and at 10 and 11 nodes KCAP-E3 named no maxReplicaCount at all.)
func TestCIGateRemediesPass(t *testing.T) {
	for _, tc := range []struct {
		maxNodes int64
		// safe is the largest maxReplicaCount with which both the group and its smallest zone hold the peak.
		safe int64
		// size is the least maximum size with which both do at 40 replicas; perZone its nodes in each zone.
		size, perZone int64
	}{
		{maxNodes: 8, safe: 24, size: 12, perZone: 4},
		{maxNodes: 9, safe: 34, size: 12, perZone: 4},
		{maxNodes: 10, safe: 36, size: 12, perZone: 4},
		{maxNodes: 11, safe: 36, size: 12, perZone: 4},
	} {
		rechecked := map[[2]int64]error{} // KCAP-E2 and KCAP-E3 name the same values
		recheck := func(replicas, nodes int64) error {
			k := [2]int64{replicas, nodes}
			if err, ok := rechecked[k]; ok {
				return err
			}
			_, err := CheckAll(ciGate(t, replicas, nodes))
			rechecked[k] = err
			return err
		}
		in := ciGate(t, 40, tc.maxNodes)
		_, err := CheckAll(in)
		msgs := asErrs(err)
		if len(msgs) == 0 {
			t.Fatalf("%d nodes: want KCAP-E3 at least, got none", tc.maxNodes)
		}
		for _, msg := range msgs {
			t.Logf("%d nodes: %s", tc.maxNodes, msg)
			id, _, _ := strings.Cut(msg, ":")
			if id != "KCAP-E2" && id != "KCAP-E3" {
				t.Fatalf("%d nodes: unexpected %s", tc.maxNodes, msg)
			}
			m := reClientMax.FindStringSubmatch(msg)
			if m == nil || m[1] != "checkout" {
				t.Fatalf("%d nodes: %s names no maxReplicaCount of shop/checkout: %s", tc.maxNodes, id, msg)
			}
			if v := count(t, m[2]); v != tc.safe {
				t.Errorf("%d nodes: %s names maxReplicaCount %d, want %d: %s", tc.maxNodes, id, v, tc.safe, msg)
			}
			s := reGroupSize.FindStringSubmatch(msg)
			if s == nil {
				t.Fatalf("%d nodes: %s names no group size: %s", tc.maxNodes, id, msg)
			}
			if v := count(t, s[1]); v != tc.size {
				t.Errorf("%d nodes: %s names %d nodes, want %d: %s", tc.maxNodes, id, v, tc.size, msg)
			}
			// Why the size is above the nodes the peak is placed on: the zone spread's nodes per zone.
			if want := "4 per zone for the zone spread"; !strings.Contains(msg, want) {
				t.Errorf("%d nodes: %s does not say why it names %d nodes (%q): %s", tc.maxNodes, id, tc.size, want, msg)
			}
			if id == "KCAP-E3" {
				if want := `with its zone spread, every zone needs room for 14 pods of "shop/checkout"`; !strings.Contains(msg, want) {
					t.Errorf("%d nodes: KCAP-E3 lacks %q: %s", tc.maxNodes, want, msg)
				}
			}
			// Applied alone, each clears every error of the check.
			if err := recheck(count(t, m[2]), tc.maxNodes); err != nil {
				t.Errorf("%d nodes: maxReplicaCount %s from %s does not pass: %v", tc.maxNodes, m[2], id, err)
			}
			if err := recheck(40, count(t, s[1])); err != nil {
				t.Errorf("%d nodes: %s nodes from %s do not pass: %v", tc.maxNodes, s[1], id, err)
			}
		}
		// One more replica than the largest safe count fails again: the count is the largest (checked on the
		// tester's own case; each failing check searches its remedies again).
		if tc.maxNodes != 8 {
			continue
		}
		if err := recheck(tc.safe+1, tc.maxNodes); err == nil {
			t.Errorf("%d nodes: maxReplicaCount %d passes too, so %d is not the largest safe count", tc.maxNodes, tc.safe+1, tc.safe)
		}
	}
}

// TestGroupRemediesClearEveryGroupRule is a property over generated capacity checks shaped like the tester's
// (one or two ScaledObjects, most with a zone spread, on a zoned group that may run a workload of its own):
// every maxReplicaCount, maximum size and nodes per zone that KCAP-E2 or KCAP-E3 prints, applied alone, makes
// the next check pass both rules, and a "no maxReplicaCount … is enough" is true at that minimum. Few pods, so
// that it runs in seconds: the check places the group again for every remedy it tries.
func TestGroupRemediesClearEveryGroupRule(t *testing.T) {
	r := rand.New(rand.NewSource(2027))
	seen := map[string]int{}
	for n := 0; n < 30; n++ {
		g := NodeGroupCapacity{Name: "web", MaxNodes: int64(1 + r.Intn(9)), Zones: []string{"a", "b", "c"}[:2+r.Intn(2)],
			WorkloadAllocatable: Allocatable{CPUMillicores: int64(1000 + 250*r.Intn(13)), MemoryBytes: 16 << 30}, WorkloadPods: int64(4 + r.Intn(27))}
		if r.Intn(4) == 0 {
			g.MaxNodesPerZone = ptr(int64(1 + r.Intn(4)))
		}
		if r.Intn(2) == 0 {
			g.Workloads = []GroupWorkload{{Name: "frontend", Replicas: int64(r.Intn(7)), Surge: int64(r.Intn(3)),
				Requests: resource.List{CPUMillicores: int64(100 + 100*r.Intn(5)), MemoryBytes: 256 << 20}}}
		}
		type spec struct {
			name                 string
			minimum, maximum, mc int64
			skew                 int64 // 0: no zone spread
		}
		var specs []spec
		for k := range 1 + r.Intn(2) {
			sp := spec{name: []string{"checkout", "worker"}[k], minimum: int64(1 + r.Intn(3)), mc: int64(250 + 250*r.Intn(6))}
			sp.maximum = sp.minimum + int64(r.Intn(16))
			if r.Intn(4) > 0 {
				sp.skew = int64(1 + r.Intn(2))
			}
			specs = append(specs, sp)
		}
		cache := map[string][]remedyFinding{} // E2 and E3 often name the same values
		check := func(specs []spec, g NodeGroupCapacity) []remedyFinding {
			key := fmt.Sprint(specs, g.MaxNodes, deref(g.MaxNodesPerZone))
			if fs, ok := cache[key]; ok {
				return fs
			}
			in := Check{NodeGroups: []NodeGroupCapacity{g}, NodeGroupOf: map[string]string{}}
			for _, sp := range specs {
				so := base()
				so.Name, so.ScaleTargetRef.Name = sp.name, sp.name
				so.MinReplicaCount, so.MaxReplicaCount = ptr(sp.minimum), ptr(sp.maximum)
				so.TargetWorkload = &Workload{Rollout: &Rollout{Strategy: "RollingUpdate", MaxSurge: ptr("25%")},
					PodTemplate: PodTemplate{Containers: []Container{{Name: "c", Requests: map[string]string{"cpu": fmt.Sprintf("%dm", sp.mc), "memory": "512Mi"}}}}}
				if sp.skew > 0 {
					so.TargetWorkload.TopologySpread = []SpreadConstraint{{TopologyKey: ZoneKey, MaxSkew: sp.skew, WhenUnsatisfiable: "DoNotSchedule"}}
				}
				res, err := Plan(so)
				if err != nil {
					t.Fatalf("case %d: %s: %v", n, sp.name, err)
				}
				in.ScaledObjects = append(in.ScaledObjects, res.Summary)
				in.NodeGroupOf["shop/"+sp.name] = g.Name
			}
			res, err := CheckAll(in)
			cache[key] = findingsOf(err, res)
			return cache[key]
		}
		with := func(name string, v int64) []spec {
			out := append([]spec(nil), specs...)
			for k := range out {
				if out[k].name == name {
					out[k].maximum = v
				}
			}
			return out
		}
		group := []string{"KCAP-E2", "KCAP-E3"}
		for _, f := range check(specs, g) {
			if f.id != "KCAP-E2" && f.id != "KCAP-E3" {
				continue
			}
			for _, m := range reClientMax.FindAllStringSubmatch(f.msg, -1) {
				seen[f.id+" max"]++
				if got := check(with(m[1], count(t, m[2])), g); fires(got, group...) {
					t.Fatalf("case %d: %s: maxReplicaCount %s of shop/%s does not pass: %s\nthen: %v", n, f.id, m[2], m[1], f.msg, got)
				}
			}
			for _, m := range reClientNone.FindAllStringSubmatch(f.msg, -1) {
				seen[f.id+" none"]++
				if got := check(with(m[1], count(t, m[2])), g); !fires(got, group...) {
					t.Fatalf("case %d: %s says no maxReplicaCount of shop/%s is enough, but %s passes: %s", n, f.id, m[1], m[2], f.msg)
				}
			}
			if m := reGroupSize.FindStringSubmatch(f.msg); m != nil {
				seen[f.id+" nodes"]++
				h := g
				h.MaxNodes = count(t, m[1])
				if h.MaxNodes <= g.MaxNodes {
					t.Fatalf("case %d: %s names the size %d, not above the group's %d: %s", n, f.id, h.MaxNodes, g.MaxNodes, f.msg)
				}
				if m[2] != "" {
					h.MaxNodesPerZone = ptr(count(t, m[2]))
				}
				if got := check(specs, h); fires(got, group...) {
					t.Fatalf("case %d: %s: %s nodes do not pass: %s\nthen: %v", n, f.id, m[1], f.msg, got)
				}
			}
			if m := reZoneNodes.FindStringSubmatch(f.msg); m != nil {
				seen[f.id+" per zone"]++
				h := g
				h.MaxNodesPerZone = ptr(count(t, m[1]))
				if got := check(specs, h); fires(got, group...) {
					t.Fatalf("case %d: %s: %s nodes per zone do not pass: %s\nthen: %v", n, f.id, m[1], f.msg, got)
				}
			}
		}
	}
	for _, k := range []string{"KCAP-E2 max", "KCAP-E2 nodes", "KCAP-E2 none", "KCAP-E3 max", "KCAP-E3 nodes"} {
		if seen[k] == 0 {
			t.Errorf("no generated case printed a %s remedy (%v)", k, seen)
		}
	}
	t.Log(seen)
}
