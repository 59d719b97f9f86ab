package selector

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/sizing"
)

// FuzzRank drives the recommendation's planner entry point with arbitrary candidate lists, counts, limits,
// prices, scenarios and scheduler options, up to 20 candidates, 40 workloads and 1,000 pods (the
// fuzzer takes an input that runs 10 s, instrumented, for a hang, and its instrumentation slows a ranking
// about tenfold; BenchmarkRank500x10k and
// BenchmarkRank500x2000Specs hold the larger shapes). It must not panic; every error is an input error with a
// path; and the ranking is consistent: every candidate listed once, the eligible ones first and by monthly
// cost, Best the first eligible one the model sized, no count below the best packing's.
func FuzzRank(f *testing.F) {
	f.Add("aws", "m6i.large,c6i.large,r6i.large,t3.medium", 3, 10, int64(500), int64(512<<20), 0, "", "", "", "m6i.large", 0.05, 30)
	f.Add("azure", "Standard_D4s_v5,Standard_B2ms,standard_d8s_v5", 2, 7, int64(1000), int64(2<<30), 1, "steady", "most-allocated", "in-order", "", 0.0, 10)
	f.Add("gcp", "n2-standard-4,e2-medium,nope", 1, 1, int64(100), int64(0), 2, "peak", "", "largest-first", "e2-medium", -1.0, 0)
	f.Add("aws", "*", 40, 25, int64(10), int64(10<<20), 5, "", "", "", "", 0.0, 3000)
	f.Add("", ",,", -1, -1, int64(-1), int64(1<<62), -3, "both", "spread", "random", "\n", 1e308, -5)
	f.Fuzz(func(t *testing.T, cloud, candidates string, workloads, replicas int, cpu, mem int64, limit int,
		scenario, scheduler, arrival, priced string, price float64, maxNodes int) {
		for _, s := range []string{cloud, candidates, scenario, scheduler, arrival, priced} {
			if !utf8.ValidString(s) {
				t.Skip("Terraform strings are valid UTF-8")
			}
		}
		ctx := context.Background()
		cat := sizing.EmbeddedCatalog()
		names := strings.Split(candidates, ",")
		if candidates == "*" {
			// Every type of the cloud, up to 20.
			names = nil
			if ts, err := cat.InstanceTypes(ctx, catalog.Cloud(cloud)); err == nil {
				for _, it := range ts[:min(len(ts), 20)] {
					names = append(names, it.Name)
				}
			}
		}
		names = names[:min(len(names), 20)]
		workloads = min(max(workloads, 0), 40)
		replicas = min(replicas, 1_000/max(workloads, 1))
		req := Request{Candidates: names, Limit: limit, Scenario: fit.Scenario(scenario),
			Scheduler: fit.SchedulerProfile(scheduler), Arrival: fit.ArrivalOrder(arrival),
			Pool:       sizing.Pool{Name: "general", Cloud: catalog.Cloud(cloud), MaxNodes: maxNodes, Zones: []string{"a", "b", "c"}},
			DaemonSets: []sizing.DaemonSet{{Name: "kube-proxy", Requests: fit.Resources{CPUMillicores: 100}, TakesPodSlot: true}}}
		if priced != "" {
			req.Prices = map[string]float64{priced: price}
		}
		for i := range workloads {
			w := sizing.Workload{Name: fmt.Sprintf("w%d", i), Replicas: &replicas,
				Requests: fit.Resources{CPUMillicores: cpu * int64(1+i%4), MemoryBytes: mem}}
			if i%3 == 2 {
				w.Spread = fit.Spread{Type: fit.SpreadZone}
			}
			req.Workloads = append(req.Workloads, w)
		}
		rk, err := NewRanker(cat).Rank(ctx, req)
		if err != nil {
			if len(field.As(err)) == 0 {
				t.Fatalf("error without input paths: %v", err)
			}
			return
		}
		seen := map[string]bool{}
		eligible, best := true, ""
		var last float64
		for i, c := range rk.Candidates {
			if seen[c.InstanceType] {
				t.Fatalf("%s listed twice", c.InstanceType)
			}
			seen[c.InstanceType] = true
			if c.NodesOptimal > c.NodesRequired || c.NodesRequired < 0 {
				t.Fatalf("%s: %d nodes required, %d optimal", c.InstanceType, c.NodesRequired, c.NodesOptimal)
			}
			if c.Excluded {
				eligible = false
				continue
			}
			if !eligible {
				t.Fatalf("eligible %s (rank %d) after an excluded candidate", c.InstanceType, i+1)
			}
			if i > 0 && c.MonthlyCost < last {
				t.Fatalf("%s (rank %d) costs %.2f, less than the one before (%.2f)", c.InstanceType, i+1, c.MonthlyCost, last)
			}
			last = c.MonthlyCost
			if best == "" && c.Scheduled {
				best = c.InstanceType
			}
		}
		if rk.Best != best {
			t.Fatalf("best %q, want the first eligible candidate the model sized, %q", rk.Best, best)
		}
	})
}
