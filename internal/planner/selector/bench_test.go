package selector

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/sizing"
)

// benchRequest ranks `candidates` AWS types (x86_64, 2–96 vCPU, priced, no GPUs, not bare metal, by
// name) for `specs` workloads of `replicas` pods each, shaped like the fit package's benchmark (after
// Karpenter's): CPU requests from {100, 250, 500, 1000, 1500}m, memory from 100 MiB to 4 GiB, a
// fifth of the workloads spread by zone, a tenth one pod per node, 25 % surge; four DaemonSets.
func benchRequest(candidates, specs, replicas int) Request {
	f := Filter{VCPU: Between(2, 96), Architecture: catalog.ArchAMD64, GPUs: AtMost(0), PricePerHour: AtLeast(0.0001),
		BareMetal: new(bool)}
	rows, _, err := f.Apply(catalog.All(catalog.AWS))
	if err != nil || len(rows) < candidates {
		panic(fmt.Sprintf("%d rows, %v", len(rows), err))
	}
	req := Request{Pool: sizing.Pool{Name: "general", Cloud: catalog.AWS, MaxNodes: 20000, Zones: []string{"a", "b", "c"}}}
	for _, r := range rows[:candidates] {
		req.Candidates = append(req.Candidates, r.Name)
	}
	req.DaemonSets = []sizing.DaemonSet{
		{Name: "aws-node", Requests: fit.Resources{CPUMillicores: 25}, CPUUsageMillicores: 10, TakesPodSlot: true},
		{Name: "kube-proxy", Requests: fit.Resources{CPUMillicores: 100}, CPUUsageMillicores: 20, TakesPodSlot: true},
		{Name: "logs", Requests: fit.Resources{CPUMillicores: 100, MemoryBytes: 200 * mi}, CPUUsageMillicores: 50, TakesPodSlot: true},
		{Name: "monitoring", Requests: fit.Resources{CPUMillicores: 50, MemoryBytes: 100 * mi}, TakesPodSlot: true},
	}
	rng := rand.New(rand.NewPCG(1, 0x6b756265666974))
	cpus := []int64{100, 250, 500, 1000, 1500}
	for i := range specs {
		w := sizing.Workload{Name: fmt.Sprintf("app-%04d", i), Replicas: intp(replicas),
			Requests:           fit.Resources{CPUMillicores: cpus[rng.IntN(len(cpus))], MemoryBytes: (100 + rng.Int64N(3997)) * mi},
			CPUUsageMillicores: rng.Int64N(100), MaxSurge: fit.IntOrPercent{Value: 25, Percent: true}}
		switch i % 10 {
		case 0, 5:
			w.Spread = fit.Spread{Type: fit.SpreadZone, MaxSkew: 1}
		case 3:
			w.Spread = fit.Spread{Type: fit.SpreadNode}
		}
		req.Workloads = append(req.Workloads, w)
	}
	return req
}

// BenchmarkRank500x10k ranks 500 candidate types for 10,000 pods in 100 specs (12,500 at peak).
func BenchmarkRank500x10k(b *testing.B) {
	req := benchRequest(500, 100, 100)
	r := NewRanker(sizing.EmbeddedCatalog())
	rk, err := r.Rank(context.Background(), req)
	if err != nil {
		b.Fatal(err)
	}
	eligible := 0
	for _, c := range rk.Candidates {
		if !c.Excluded {
			eligible++
		}
	}
	b.Logf("best %s, %d of %d eligible", rk.Best, eligible, len(rk.Candidates))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := r.Rank(context.Background(), req); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRank500x10kTop1 is BenchmarkRank500x10k with Limit 1: only the candidates whose lower
// bound could beat the cheapest are sized.
func BenchmarkRank500x10kTop1(b *testing.B) { benchmarkRankLimit(b, 1) }

// BenchmarkRank500x10kTop10 is BenchmarkRank500x10k with Limit 10.
func BenchmarkRank500x10kTop10(b *testing.B) { benchmarkRankLimit(b, 10) }

func benchmarkRankLimit(b *testing.B, limit int) {
	req := benchRequest(500, 100, 100)
	req.Limit = limit
	r := NewRanker(sizing.EmbeddedCatalog())
	rk, err := r.Rank(context.Background(), req)
	if err != nil {
		b.Fatal(err)
	}
	sized := 0
	for _, c := range rk.Candidates {
		if c.Sized {
			sized++
		}
	}
	b.Logf("best %s, %d of %d sized", rk.Best, sized, len(rk.Candidates))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := r.Rank(context.Background(), req); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRank500x2000Specs ranks 500 candidates for 2,000 workloads of 5 pods (10,000 pods, the list bound):
// every candidate is packed with 2,000 classes (within the packing's work budget, rankPackBudget), and each
// plan's per-workload placements are looked up by name once (a search per workload was workloads² per candidate).
func BenchmarkRank500x2000Specs(b *testing.B) {
	req := benchRequest(500, 2000, 5)
	r := NewRanker(sizing.EmbeddedCatalog())
	rk, err := r.Rank(context.Background(), req)
	if err != nil {
		b.Fatal(err)
	}
	sized := 0
	for _, c := range rk.Candidates {
		if c.Sized {
			sized++
		}
	}
	b.Logf("best %s, %d of %d sized", rk.Best, sized, len(rk.Candidates))
	for _, w := range rk.Warnings {
		b.Logf("%s: %s", w.Code, w.Message)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := r.Rank(context.Background(), req); err != nil {
			b.Fatal(err)
		}
	}
}
