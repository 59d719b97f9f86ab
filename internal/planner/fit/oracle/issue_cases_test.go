package oracle

import (
	"fmt"
	"math"
	mathrand "math/rand"
	"slices"
	"testing"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
)

// karpenterMix returns the CPU and memory requests of Karpenter's scheduling benchmark
// (sigs.k8s.io/karpenter v1.14.1, pkg/controllers/provisioning/scheduling/scheduling_benchmark_test.go,
// makeDiversePods) for count pods, drawn as it draws them: one math/rand source seeded 42, CPU from {100, 250,
// 500, 1000, 1500}m and memory from {100, 256, 512, 1024, 2048, 4096} MiB, after the label draws each kind of pod
// makes (generic: one; topology spread: two; affinity: one; anti-affinity: none). kind says which of the five
// kinds each pod is (0 generic, 1 zone spread, 2 hostname spread, 3 zone affinity, 4 hostname anti-affinity).
func karpenterMix(count int) (cpu, memMi []int64, kind []int) {
	r := mathrand.New(mathrand.NewSource(42))
	cpus := []int64{100, 250, 500, 1000, 1500}
	mems := []int64{100, 256, 512, 1024, 2048, 4096}
	add := func(k, labelDraws int) {
		for range labelDraws {
			r.Intn(7)
		}
		cpu = append(cpu, cpus[r.Intn(len(cpus))])
		memMi = append(memMi, mems[r.Intn(len(mems))])
		kind = append(kind, k)
	}
	for k, draws := range []int{1, 2, 2, 1, 0} {
		for range count / 5 {
			add(k, draws)
		}
	}
	for len(cpu) < count {
		add(0, 1)
	}
	return cpu, memMi, kind
}

// mixInput groups the pods of the mix into workloads of identical pods (one per CPU, memory and constraint),
// on one pool. With constraints, the zone-spread kind spreads each of its workloads over the zones (max skew 1)
// and the hostname anti-affinity kind keeps each of its workloads at one pod per node; the other kinds place
// freely (kubefit has no equivalent of the benchmark's spread over random labels and self-affinity groups).
func mixInput(count int, p fit.Pool, constraints bool) fit.Input {
	cpu, mem, kind := karpenterMix(count)
	in := fit.Input{Pools: []fit.Pool{p}}
	index := map[[3]int64]int{}
	for i := range cpu {
		k := int64(0)
		if constraints && (kind[i] == 1 || kind[i] == 4) {
			k = int64(kind[i])
		}
		key := [3]int64{cpu[i], mem[i], k}
		w, ok := index[key]
		if !ok {
			w = len(in.Workloads)
			index[key] = w
			wl := workload(fmt.Sprintf("mix-%d-%d-%d", cpu[i], mem[i], k), 0, cpu[i], mem[i])
			switch k {
			case 1:
				wl.Spread = fit.Spread{Type: fit.SpreadZone, MaxSkew: 1}
			case 4:
				wl.Spread = fit.Spread{Type: fit.SpreadNode}
			}
			in.Workloads = append(in.Workloads, wl)
		}
		in.Workloads[w].Replicas++
		in.Workloads[w].MaxReplicas++
	}
	return in
}

// TestIssueCases is issue 23's must-hold on its five cases, rebuilt from Karpenter's benchmark mix (the issue's
// own generator is not in the repository): on 1,000 and 5,000 pods of the mix on one 8-vCPU and one 16-vCPU
// type, and 1,000 pods with zone spread and hostname anti-affinity on the 8-vCPU type over three zones,
// kubefit's realistic count binds every pod with the real kube-scheduler in every order kubefit plans (the
// interleaved order and the seeded random ones), so it is at least the real scheduler's count in each; and the
// real scheduler leaves pods Pending in at least one run of one of them (each tried up to three times) on the
// largest count at most 1/1.05 of kubefit's, so kubefit's count is at most 5 % above the largest of the real
// scheduler's. The 5,000-pod cases take about a
// minute each; -short skips them.
func TestIssueCases(t *testing.T) {
	eight := pool("m5.2xlarge", 7910, 29000, "zone-a", "zone-b", "zone-c")
	sixteen := pool("m5.4xlarge", 15890, 58000, "zone-a", "zone-b", "zone-c")
	eight.MaxNodes, sixteen.MaxNodes = 3000, 3000
	for _, tc := range []struct {
		name        string
		pods        int
		p           fit.Pool
		constraints bool
	}{
		{"1,000 pods, 8-vCPU type", 1000, eight, false},
		{"1,000 pods, 16-vCPU type", 1000, sixteen, false},
		{"1,000 pods, zone spread and anti-affinity, 8-vCPU type", 1000, eight, true},
		{"5,000 pods, 8-vCPU type", 5000, eight, false},
		{"5,000 pods, 16-vCPU type", 5000, sixteen, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.pods > 1000 && testing.Short() {
				t.Skip("5,000 pods through the real scheduler: about a minute")
			}
			in := mixInput(tc.pods, tc.p, tc.constraints)
			res, err := fit.Plan(in)
			if err != nil {
				t.Fatal(err)
			}
			sr := res.Scenarios[0]
			if sr.SchedulerNote != "" {
				// The model's work budget cut its search short (5,000 pods on 8-vCPU nodes): the real scheduler
				// below still judges the count it gives.
				t.Logf("note: %s", sr.SchedulerNote)
			}
			k := sr.Pools[0].NodesRequired
			orders, err := fit.Orders(in, fit.ScenarioSteady)
			if err != nil {
				t.Fatal(err)
			}
			for _, o := range orders {
				if n := real(t, in, res, []int{k}, o); n > 0 {
					t.Errorf("%s: the real scheduler leaves %d of %d pods Pending on kubefit's %d nodes", o.Name, n, tc.pods, k)
				}
			}
			// The largest count at most k / 1.05: kubefit is within 5 % of the real scheduler's largest count when
			// some run of some order leaves pods Pending there. The real scheduler's count varies from run to run
			// (its ties follow its goroutines' timing): on 89 nodes of the zone-spread case 3, 6, 7 and 7 of 8
			// runs of the four orders left pods Pending (2026-12-07), and a CI run drew one run of each that all
			// bound; so the orders are tried up to three times each, until one leaves pods Pending.
			below := int(math.Ceil(float64(k)/1.05)) - 1
			short := ""
		rounds:
			for round := range 3 {
				for _, o := range slices.Backward(orders) {
					if n := real(t, in, res, []int{below}, o); n > 0 {
						short = fmt.Sprintf("%s leaves %d Pending (round %d)", o.Name, n, round+1)
						break rounds
					}
				}
			}
			if short == "" {
				t.Errorf("every order binds on %d nodes, three runs each: kubefit's %d is more than 5 %% above the real scheduler's count", below, k)
			}
			t.Logf("%d pods in %d workloads: kubefit %d nodes (best packing %d, bound by %q); on %d nodes the real scheduler's %s",
				tc.pods, len(in.Workloads), k, sr.NodesOptimal, sr.BoundBy, below, short)
		})
	}
}
