package selector

import (
	"context"
	"fmt"
	"math"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/burst"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/overhead"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/sizing"
)

func intp(n int) *int { return &n }

const mi = int64(1) << 20

// webMix is a small mixed workload set with DaemonSets, an autoscaled workload with surge and a zone
// spread, so steady and peak differ.
func webMix() Request {
	return Request{
		Pool: sizing.Pool{Name: "general", Cloud: catalog.AWS, MaxNodes: 30, Zones: []string{"a", "b", "c"}},
		DaemonSets: []sizing.DaemonSet{
			{Name: "aws-node", Requests: fit.Resources{CPUMillicores: 25}, TakesPodSlot: true},
			{Name: "kube-proxy", Requests: fit.Resources{CPUMillicores: 100}, CPUUsageMillicores: 10, TakesPodSlot: true},
			{Name: "fluent-bit", Requests: fit.Resources{CPUMillicores: 100, MemoryBytes: 128 * mi}, CPUUsageMillicores: 30, TakesPodSlot: true},
		},
		Workloads: []sizing.Workload{
			{Name: "api", MinReplicas: intp(4), MaxReplicas: intp(12), MaxSurge: fit.IntOrPercent{Value: 25, Percent: true},
				Requests: fit.Resources{CPUMillicores: 500, MemoryBytes: 1024 * mi}, CPUUsageMillicores: 150,
				Spread: fit.Spread{Type: fit.SpreadZone}},
			{Name: "worker", Replicas: intp(10), Requests: fit.Resources{CPUMillicores: 250, MemoryBytes: 512 * mi}, CPUUsageMillicores: 100,
				NodeSelector: map[string]string{"kubernetes.io/arch": "amd64"}},
			{Name: "cache", Replicas: intp(3), Requests: fit.Resources{CPUMillicores: 1000, MemoryBytes: 6 << 30}},
		},
	}
}

var exactCandidates = []string{
	"m6i.xlarge", "m7i.xlarge", "m6a.xlarge", "m7a.xlarge", "m6id.xlarge", "c6i.xlarge", "c7i.xlarge", "r6i.xlarge", "r7i.xlarge",
	"m6i.large", "c6i.large", "r6i.large", "m6i.2xlarge", "r6i.2xlarge", "c6i.4xlarge", "m6g.xlarge", "t3.xlarge", "t3a.large",
	"t3.micro", "c6i.large", "m5.large",
}

// TestRankEqualsSizing: for every candidate, the ranking's numbers are those of sizing.Solve on a pool
// of that type alone, in both scenarios, with and without a selector on the instance-type label (which
// turns off the sharing of packings), and with a max node count that excludes the small types.
func TestRankEqualsSizing(t *testing.T) {
	ctx := context.Background()
	cat := sizing.EmbeddedCatalog()
	pinned := webMix()
	pinned.Workloads[2].NodeSelector = map[string]string{"node.kubernetes.io/instance-type": "r6i.xlarge"}
	tight := webMix()
	tight.Pool.MaxNodes = 6
	azure := webMix()
	azure.Pool.Cloud = catalog.Azure
	azure.Candidates = []string{"Standard_D4s_v5", "Standard_D4as_v5", "Standard_D4ds_v5", "Standard_E4s_v5", "Standard_F4s_v2",
		"Standard_B4ms", "Standard_D2s_v5", "standard_d8s_v5", "Standard_DS1_v2"}
	gcp := webMix()
	gcp.Pool.Cloud = catalog.GCP
	gcp.Candidates = []string{"n2-standard-4", "n2d-standard-4", "e2-standard-4", "n2-highmem-4", "n2-highcpu-8", "e2-medium", "n1-standard-2", "c3-standard-4"}
	cases := map[string]Request{"peak": webMix(), "pinned": pinned, "tight": tight, "azure": azure, "gcp": gcp}
	steady := webMix()
	steady.Scenario = fit.ScenarioSteady
	cases["steady"] = steady
	for name, req := range cases {
		t.Run(name, func(t *testing.T) {
			if req.Candidates == nil {
				req.Candidates = exactCandidates
			}
			rk, err := NewRanker(cat).Rank(ctx, req)
			if err != nil {
				t.Fatal(err)
			}
			if req.Pool.Cloud == catalog.AWS && len(rk.Candidates) != len(exactCandidates)-1 {
				t.Fatalf("%d candidates, want %d (one duplicate)", len(rk.Candidates), len(exactCandidates)-1)
			}
			excluded := 0
			for i, c := range rk.Candidates {
				// The cheapest are sized with the scheduler model, the others by the best packing.
				if i < ScheduledTop && !c.Excluded && !c.Scheduled {
					t.Errorf("%s: rank %d without the scheduler model", c.InstanceType, i+1)
				}
				if req.Pool.Cloud == catalog.Azure && c.Row.VCPU < 2 {
					// AKS creates no nodes on VM sizes under 2 vCPUs: not recommended, whatever sizing says.
					if !c.Excluded || c.Reason != ReasonInvalid || !strings.Contains(c.Message, "AKS does not create nodes on VM sizes with fewer than 2 vCPUs") {
						t.Errorf("%s: excluded %v, %s %q; want excluded as an AKS VM size under 2 vCPUs", c.InstanceType, c.Excluded, c.Reason, c.Message)
					}
					excluded++
					continue
				}
				planner := sizing.NewPlanner(cat).WithoutBlame()
				if !c.Scheduled {
					planner = planner.PackingOnly()
				}
				plan, err := planner.Solve(ctx, req.SizingRequest(c.InstanceType))
				if err != nil {
					if c.Reason != ReasonInvalid {
						t.Errorf("%s: sizing fails (%v) but the ranking says %s", c.InstanceType, err, c.Reason)
					}
					excluded++
					continue
				}
				pp := plan.Pools[0]
				sc := pp.Peak
				if req.Scenario == fit.ScenarioSteady {
					sc = pp.Steady
				}
				want := float64(sc.NodesRequired) * pp.Instance.PriceUSDPerHour * HoursPerMonth
				if c.NodesRequired != sc.NodesRequired || c.MonthlyCost != want && !c.Excluded || c.Utilization != sc.Utilization || c.Stranded != sc.Stranded {
					t.Errorf("%s: ranking %d nodes, %.2f USD, %+v, %+v\nsizing %d nodes, %.2f USD, %+v, %+v",
						c.InstanceType, c.NodesRequired, c.MonthlyCost, c.Utilization, c.Stranded, sc.NodesRequired, want, sc.Utilization, sc.Stranded)
				}
				// The best packing's count is sizing's; a candidate the model did not size reports it as its count.
				if c.NodesOptimal != sc.NodesOptimal || c.NodesOptimal > c.NodesRequired || !c.Scheduled && c.NodesOptimal != c.NodesRequired {
					t.Errorf("%s (scheduled %v): ranking %d optimal of %d required, sizing %d optimal",
						c.InstanceType, c.Scheduled, c.NodesOptimal, c.NodesRequired, sc.NodesOptimal)
				}
				if c.Excluded == plan.Fits {
					t.Errorf("%s: excluded %v but sizing fits %v", c.InstanceType, c.Excluded, plan.Fits)
				}
				if !plan.Fits {
					excluded++
					m := plan.Misfits()[0]
					if string(c.Reason) != string(m.Reason) || (m.Reason != sizing.ReasonCredits && c.Message != m.Message) {
						t.Errorf("%s: reason %s %q, sizing %s %q", c.InstanceType, c.Reason, c.Message, m.Reason, m.Message)
					}
				}
				if pp.Credits != nil && c.CreditVerdict != pp.Credits.Result.Verdict {
					t.Errorf("%s: verdict %s, sizing %s", c.InstanceType, c.CreditVerdict, pp.Credits.Result.Verdict)
				}
			}
			if excluded == 0 {
				t.Error("no candidate is excluded: the case does not test exclusions")
			}
		})
	}
}

// TestRankMemoryHeavyPicksR: a memory-heavy mix ranks the r type first over the c and m types of the
// same vCPU count, and the order is by monthly cost.
func TestRankMemoryHeavyPicksR(t *testing.T) {
	req := Request{
		Candidates: []string{"c6i.2xlarge", "m6i.2xlarge", "r6i.2xlarge", "c7i.2xlarge", "m7i.2xlarge", "r7i.2xlarge"},
		Pool:       sizing.Pool{Name: "mem", Cloud: catalog.AWS, MaxNodes: 100},
		Workloads: []sizing.Workload{
			{Name: "cache", Replicas: intp(20), Requests: fit.Resources{CPUMillicores: 500, MemoryBytes: 12 << 30}},
			{Name: "search", Replicas: intp(10), Requests: fit.Resources{CPUMillicores: 1000, MemoryBytes: 8 << 30}},
		},
	}
	rk, err := NewRanker(sizing.EmbeddedCatalog()).Rank(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(rk.Best, "r") {
		t.Errorf("best = %s, want an r type; ranking %v", rk.Best, summary(rk))
	}
	for i := 1; i < len(rk.Candidates); i++ {
		if a, b := rk.Candidates[i-1], rk.Candidates[i]; !b.Excluded && a.MonthlyCost > b.MonthlyCost {
			t.Errorf("not ordered by cost: %v", summary(rk))
		}
	}
	for _, c := range rk.Candidates {
		if c.Excluded || !strings.Contains(c.PriceSource, "us-east-1") || !strings.Contains(c.PriceSource, c.Row.PriceDate) {
			t.Errorf("%s: excluded %v, price source %q", c.InstanceType, c.Excluded, c.PriceSource)
		}
	}
}

func summary(rk *Ranking) []string {
	var out []string
	for _, c := range rk.Candidates {
		out = append(out, fmt.Sprintf("%s: %d nodes, %.2f USD/month, stranded %.3f %s", c.InstanceType, c.NodesRequired, c.MonthlyCost, c.StrandedShare, c.Reason))
	}
	return out
}

// TestRankBurstableCredits: a steady CPU load above a burstable type's baseline excludes it in standard
// mode with the credit verdict as the reason, while the fixed-performance types rank; in unlimited mode
// it stays eligible, flagged with its verdict.
func TestRankBurstableCredits(t *testing.T) {
	req := Request{
		Candidates: []string{"t3.xlarge", "m6i.xlarge", "c6i.xlarge", "t3a.xlarge"},
		Pool:       sizing.Pool{Name: "web", Cloud: catalog.AWS, MaxNodes: 20, Credits: sizing.CreditOptions{Mode: burst.Standard}},
		Workloads: []sizing.Workload{
			{Name: "api", Replicas: intp(12), Requests: fit.Resources{CPUMillicores: 500, MemoryBytes: 1 << 30}, CPUUsageMillicores: 450},
		},
	}
	rk, err := NewRanker(sizing.EmbeddedCatalog()).Rank(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range rk.Candidates {
		burstable := strings.HasPrefix(c.InstanceType, "t3")
		if burstable != c.Excluded || burstable && (c.Reason != Reason(sizing.ReasonCredits) || c.CreditVerdict != burst.VerdictThrottled ||
			!strings.Contains(c.Message, "CPU credits")) {
			t.Errorf("%s: excluded %v, reason %s, verdict %s: %s", c.InstanceType, c.Excluded, c.Reason, c.CreditVerdict, c.Message)
		}
	}
	if rk.Best != "c6i.xlarge" && rk.Best != "m6i.xlarge" {
		t.Errorf("best = %s", rk.Best)
	}
	req.Pool.Credits.Mode = burst.Unlimited
	rk, err = NewRanker(sizing.EmbeddedCatalog()).Rank(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range rk.Candidates {
		if strings.HasPrefix(c.InstanceType, "t3") && (c.Excluded || c.CreditVerdict != burst.VerdictSurplusCharged) {
			t.Errorf("unlimited %s: excluded %v, verdict %s", c.InstanceType, c.Excluded, c.CreditVerdict)
		}
		// The surplus credits are part of the cost: the nodes' price plus, per node above its baseline, its surplus.
		nodes := float64(c.NodesRequired) * c.PricePerHour * HoursPerMonth
		if strings.HasPrefix(c.InstanceType, "t3") && (c.SurplusCostPerMonth <= 0 || math.Abs(c.MonthlyCost-nodes-c.SurplusCostPerMonth) > 0.01) ||
			!strings.HasPrefix(c.InstanceType, "t3") && c.SurplusCostPerMonth != 0 {
			t.Errorf("unlimited %s: monthly %.2f, nodes %.2f, surplus %.2f", c.InstanceType, c.MonthlyCost, nodes, c.SurplusCostPerMonth)
		}
	}
	// Each t3 node's surplus, summed, is what sizing's credit check of the pool says.
	p, err := sizing.NewPlanner(sizing.EmbeddedCatalog()).Solve(context.Background(), sizing.Request{Pools: []sizing.Pool{func() sizing.Pool {
		pl := req.Pool
		pl.InstanceTypes = []string{"t3.xlarge"}
		return pl
	}()}, Workloads: req.Workloads})
	if err != nil {
		t.Fatal(err)
	}
	var sum float64
	for _, u := range p.Pools[0].Credits.NodeMillicores {
		b, _, _ := sizing.EmbeddedCatalog().CreditBudget(context.Background(), catalog.AWS, "t3.xlarge")
		r, err := burst.Evaluate(b, burst.Input{Load: burst.Load{SustainedMillicores: u}, Mode: burst.Unlimited, MinHours: burst.DefaultMinHours})
		if err != nil {
			t.Fatal(err)
		}
		sum += r.SurplusCostPerMonth
	}
	if sum <= 0 || math.Abs(sum-p.Pools[0].Credits.SurplusCostPerMonth) > 0.01 {
		t.Errorf("pool surplus %.2f, per node summed %.2f", p.Pools[0].Credits.SurplusCostPerMonth, sum)
	}
}

// TestRankCountsSurplusCredits: the field report's shape (four pods using 800m each, requesting 850m so that two fit
// beside aws-node's 50m and kube-proxy's 100m on a 2-vCPU node): a t4g.medium pool in unlimited mode pays for
// surplus credits beyond its nodes, which makes it dearer than c6g.large; the ranking must not pick it for its node
// price alone.
func TestRankCountsSurplusCredits(t *testing.T) {
	req := Request{
		Candidates: []string{"t4g.medium", "c6g.large"},
		Pool:       sizing.Pool{Name: "web", Cloud: catalog.AWS, MaxNodes: 20, Credits: sizing.CreditOptions{Mode: burst.Unlimited}},
		Workloads: []sizing.Workload{
			{Name: "api", Replicas: intp(4), Requests: fit.Resources{CPUMillicores: 850, MemoryBytes: 512 << 20}, CPUUsageMillicores: 800},
		},
	}
	rk, err := NewRanker(sizing.EmbeddedCatalog()).Rank(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range rk.Candidates {
		t.Logf("%s: %d nodes, %.2f USD/month (surplus %.2f), verdict %s", c.InstanceType, c.NodesRequired, c.MonthlyCost, c.SurplusCostPerMonth, c.CreditVerdict)
	}
	if rk.Best != "c6g.large" {
		t.Errorf("best %s, want c6g.large once t4g.medium's surplus credits are counted", rk.Best)
	}
}

func TestRankPricesAndErrors(t *testing.T) {
	ctx := context.Background()
	base := Request{
		Candidates: []string{"m6i.large", "c6i.large"},
		Pool:       sizing.Pool{Name: "p", Cloud: catalog.AWS, MaxNodes: 10},
		Workloads:  []sizing.Workload{{Name: "web", Replicas: intp(4), Requests: fit.Resources{CPUMillicores: 500, MemoryBytes: 512 * mi}}},
	}
	// A price of the caller's replaces the reference price and changes the winner.
	withPrice := base
	withPrice.Prices = map[string]float64{"m6i.large": 0.01}
	rk, err := NewRanker(sizing.EmbeddedCatalog()).Rank(ctx, withPrice)
	if err != nil {
		t.Fatal(err)
	}
	if rk.Best != "m6i.large" || rk.Candidates[0].MonthlyCost != float64(rk.Candidates[0].NodesRequired)*0.01*730 ||
		!strings.Contains(rk.Candidates[0].PriceSource, "price given") || !strings.Contains(rk.Candidates[1].PriceSource, "reference") {
		t.Errorf("ranking %+v", rk.Candidates)
	}
	tests := []struct {
		name     string
		mod      func(*Request)
		wantPath string
		wantMsg  string
	}{
		{"unknown candidate", func(r *Request) { r.Candidates = []string{"m6i.large", "m6i.larg"} }, "Candidates[1]", `did you mean "m6i.large"`},
		{"no candidates", func(r *Request) { r.Candidates = nil }, "Candidates", "no candidate"},
		{"workload", func(r *Request) { r.Workloads[0].Replicas = nil }, "Workloads[0].Replicas", "gives no replica count"},
		{"workload with a limit and a hopeless candidate", func(r *Request) {
			r.Workloads[0].Replicas, r.Workloads[0].MinReplicas, r.Workloads[0].MaxReplicas = nil, intp(5), intp(2)
			r.Limit, r.Candidates = 1, []string{"m6i.large", "t3.nano"}
			r.Workloads[0].Requests.MemoryBytes = 4 << 30
		}, "Workloads[0].MinReplicas", "(min > max)"},
		{"pool", func(r *Request) { r.Pool.MinNodes = 20 }, "Pool.MinNodes", "greater than its maximum node count 10"},
		{"scenario", func(r *Request) { r.Scenario = "busy" }, "Scenario", `unknown scenario "busy"`},
		{"price", func(r *Request) { r.Prices = map[string]float64{"m6i.large": -1} }, `Prices["m6i.large"]`, "negative"},
		{"price for no candidate, letter case", func(r *Request) { r.Prices = map[string]float64{"m6i.Large": 0.01} }, `Prices["m6i.Large"]`, `did you mean "m6i.large"?`},
		{"price for no candidate", func(r *Request) { r.Prices = map[string]float64{"m5.xlarge": 0.01} }, `Prices["m5.xlarge"]`, "not one of the candidates"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := base
			req.Workloads = append([]sizing.Workload(nil), base.Workloads...)
			tt.mod(&req)
			_, err := NewRanker(sizing.EmbeddedCatalog()).Rank(ctx, req)
			es := field.As(err)
			if len(es) == 0 || es[0].Path.String() != tt.wantPath || !strings.Contains(es[0].Detail, tt.wantMsg) {
				t.Errorf("err %v: want at %s: %s", err, tt.wantPath, tt.wantMsg)
			}
		})
	}
}

// TestRankLimitKeepsTheCheapest: with a limit K, the first K candidates are exactly those of the full
// ranking, every candidate left unsized has a lower bound costing more than the K-th, and the lower
// bound never exceeds the nodes sizing finds.
func TestRankLimitKeepsTheCheapest(t *testing.T) {
	ctx := context.Background()
	r := NewRanker(sizing.EmbeddedCatalog())
	mixes := map[string]Request{"web": webMix(), "bench": benchRequest(60, 20, 30)}
	steady := webMix()
	steady.Scenario = fit.ScenarioSteady
	mixes["steady"] = steady
	for name, req := range mixes {
		if req.Candidates == nil {
			req.Candidates = exactCandidates
		}
		full, err := r.Rank(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range full.Candidates {
			it := c.Row
			_, res, ok := r.packerKey(ctx, &req, it, false)
			if !ok || c.Excluded {
				continue
			}
			if lb, ok := lowerBound(&req, req.Scenario, it, res); !ok || lb > c.NodesRequired {
				t.Errorf("%s %s: lower bound %d (%v) above %d nodes", name, c.InstanceType, lb, ok, c.NodesRequired)
			}
		}
		for _, k := range []int{1, 3, 10} {
			req.Limit = k
			lim, err := r.Rank(ctx, req)
			if err != nil {
				t.Fatal(err)
			}
			kth := full.Candidates[k-1].MonthlyCost
			unsized := 0
			for i, c := range lim.Candidates {
				// The full ranking models only its ScheduledTop cheapest; a limit models the limit cheapest.
				if i < min(k, ScheduledTop) {
					f := full.Candidates[i]
					// Equal costs may rank either way: the stranded share that breaks the tie is the scheduler
					// model's for one and the packing's for the other.
					if (c.InstanceType != f.InstanceType || c.NodesRequired != f.NodesRequired) && c.MonthlyCost != f.MonthlyCost || !c.Sized {
						t.Errorf("%s limit %d: #%d is %s (%d nodes, %.2f), full ranking has %s (%d nodes, %.2f)", name, k, i,
							c.InstanceType, c.NodesRequired, c.MonthlyCost, f.InstanceType, f.NodesRequired, f.MonthlyCost)
					}
				}
				if !c.Sized {
					unsized++
					if c.Reason == ReasonNotSized && c.MonthlyCost <= kth && c.PricePerHour > 0 {
						t.Errorf("%s limit %d: %s left unsized with a bound of %.2f, not above the %d-th cost %.2f", name, k, c.InstanceType, c.MonthlyCost, k, kth)
					}
				}
			}
			if lim.Best != full.Best {
				t.Errorf("%s limit %d: best %s, full %s", name, k, lim.Best, full.Best)
			}
			t.Logf("%s limit %d: %d of %d unsized", name, k, unsized, len(lim.Candidates))
		}
	}
}

// TestRankLimitDeterministic: a limited ranking does not depend on how the workers were scheduled.
func TestRankLimitDeterministic(t *testing.T) {
	req := benchRequest(80, 20, 20)
	req.Limit = 3
	r := NewRanker(sizing.EmbeddedCatalog())
	first, err := r.Rank(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	for range 5 {
		again, err := r.Rank(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(again) != fmt.Sprint(first) {
			t.Fatalf("ranking differs between runs:\n%v\n%v", summary(first), summary(again))
		}
	}
}

// TestRankUnknownPrice: a type without a price is excluded with a reason unless the caller prices it.
func TestRankUnknownPrice(t *testing.T) {
	var unpriced string
	for _, it := range catalog.All(catalog.AWS) {
		if it.PriceUSDPerHour == 0 && it.VCPU >= 4 && it.MemoryMiB >= 8192 && it.Architecture == catalog.ArchAMD64 && !it.Burstable {
			unpriced = it.Name
			break
		}
	}
	if unpriced == "" {
		t.Skip("every suitable catalog row has a price")
	}
	req := Request{
		Candidates: []string{unpriced, "m6i.xlarge"},
		Pool:       sizing.Pool{Name: "p", Cloud: catalog.AWS, MaxNodes: 10},
		Workloads:  []sizing.Workload{{Name: "web", Replicas: intp(4), Requests: fit.Resources{CPUMillicores: 500, MemoryBytes: 512 * mi}}},
	}
	rk, err := NewRanker(sizing.EmbeddedCatalog()).Rank(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	c := rk.Candidates[1]
	if rk.Best != "m6i.xlarge" || c.InstanceType != unpriced || c.Reason != ReasonUnknownPrice || !strings.Contains(c.PriceSource, "no price") {
		t.Errorf("%s: %+v", rk.Best, c)
	}
	req.Prices = map[string]float64{unpriced: 0.001}
	rk, err = NewRanker(sizing.EmbeddedCatalog()).Rank(context.Background(), req)
	if err != nil || rk.Best != unpriced {
		t.Errorf("priced: best %v, err %v", rk.Best, err)
	}
}

// TestRankDiskCaps: a node that must sustain 10,000 IOPS excludes m6i.large (3,600 IOPS EBS-optimized
// baseline) and, at 400 MB/s, m6i.2xlarge (312.5 MB/s) too, with the reason and the published limits;
// a limit ranks the eligible ones; GCP types are not checked (warning); a negative demand is an error.
func TestRankDiskCaps(t *testing.T) {
	ctx := context.Background()
	base := Request{
		Candidates: []string{"m6i.large", "m6i.2xlarge", "m6i.4xlarge"},
		Pool:       sizing.Pool{Name: "p", Cloud: catalog.AWS, MaxNodes: 20},
		Workloads:  []sizing.Workload{{Name: "db", Replicas: intp(2), Requests: fit.Resources{CPUMillicores: 500, MemoryBytes: 1 << 30}}},
	}
	tests := []struct {
		name     string
		disk     NodeDisk
		limit    int
		excluded map[string]string // instance type → message fragment
		best     string
	}{
		{"no demand", NodeDisk{}, 0, map[string]string{}, "m6i.large"},
		{"IOPS", NodeDisk{IOPS: 10000}, 0, map[string]string{"m6i.large": "sustains only 3,600 IOPS where a node needs 10,000"}, "m6i.2xlarge"},
		{"IOPS and throughput", NodeDisk{IOPS: 10000, ThroughputMBps: 400}, 0, map[string]string{
			"m6i.large":   "3,600 IOPS where a node needs 10,000 and 81.25 MB/s where a node needs 400",
			"m6i.2xlarge": "312.5 MB/s where a node needs 400"}, "m6i.4xlarge"},
		{"with a limit", NodeDisk{IOPS: 10000}, 1, map[string]string{"m6i.large": "3,600 IOPS"}, "m6i.2xlarge"},
		{"none can", NodeDisk{IOPS: 1_000_000}, 1, map[string]string{"m6i.large": "3,600 IOPS", "m6i.2xlarge": "12,000 IOPS", "m6i.4xlarge": "20,000 IOPS"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := base
			req.NodeDisk, req.Limit = tt.disk, tt.limit
			rk, err := NewRanker(sizing.EmbeddedCatalog()).Rank(ctx, req)
			if err != nil {
				t.Fatal(err)
			}
			if rk.Best != tt.best {
				t.Errorf("best %q, want %q", rk.Best, tt.best)
			}
			for _, c := range rk.Candidates {
				want, excluded := tt.excluded[c.InstanceType]
				switch {
				case excluded && (c.Reason != ReasonDiskCap || !strings.Contains(c.Message, want) || !strings.Contains(c.Message, "EBS-optimized")):
					t.Errorf("%s: reason %q message %q, want disk-cap with %q and the source", c.InstanceType, c.Reason, c.Message, want)
				case !excluded && c.Reason == ReasonDiskCap:
					t.Errorf("%s excluded for its disks: %s", c.InstanceType, c.Message)
				}
			}
		})
	}
	// AWS types without EBS-optimized limits (t2, m3): whether they sustain the demand is unknown, so they are not
	// recommended.
	old := base
	old.Candidates, old.NodeDisk = []string{"t2.large", "m3.large", "m6i.2xlarge"}, NodeDisk{IOPS: 4000, ThroughputMBps: 80}
	if rk, err := NewRanker(sizing.EmbeddedCatalog()).Rank(ctx, old); err != nil || rk.Best != "m6i.2xlarge" {
		t.Errorf("types without disk limits: best %v, %v", rk, err)
	} else {
		for _, c := range rk.Candidates {
			if c.InstanceType != "m6i.2xlarge" && (c.Reason != ReasonDiskCap || !strings.Contains(c.Message, "knows no sustained disk limits")) {
				t.Errorf("%s: reason %s %q, want disk-cap: limits unknown", c.InstanceType, c.Reason, c.Message)
			}
		}
	}
	gcp := Request{Candidates: []string{"e2-standard-4"}, Pool: sizing.Pool{Name: "p", Cloud: catalog.GCP, MaxNodes: 5},
		Workloads: base.Workloads, NodeDisk: NodeDisk{IOPS: 1_000_000}}
	rk, err := NewRanker(sizing.EmbeddedCatalog()).Rank(ctx, gcp)
	if err != nil || rk.Best != "e2-standard-4" || len(rk.Warnings) != 1 || rk.Warnings[0].Code != WarnDiskNotChecked ||
		!strings.Contains(rk.Warnings[0].Message, `"e2-standard-4"`) {
		t.Errorf("GCP with a disk demand: %+v, %v", rk, err)
	}
	bad := base
	bad.NodeDisk = NodeDisk{IOPS: -1}
	if _, err := NewRanker(sizing.EmbeddedCatalog()).Rank(ctx, bad); len(field.As(err)) != 1 || field.As(err)[0].Path.String() != "NodeDisk.IOPS" {
		t.Errorf("negative IOPS: %v", err)
	}
}

// TestRankModelBudget: the scheduler model's work over a ranking is bounded (rankModelBudget). Within it the
// first max(limit, ScheduledTop) eligible candidates are all modelled and nothing is said; a budget the first
// candidate uses up leaves the next ones with the best packing's count, and the ranking says so on limit.
func TestRankModelBudget(t *testing.T) {
	req := benchRequest(12, 4, 10)
	req.Limit = 4
	r := NewRanker(sizing.EmbeddedCatalog())
	scheduledTop := func(rk *Ranking) (sized, top int) {
		for i, c := range rk.Candidates {
			if i < req.Limit && !c.Excluded {
				top++
				if c.Scheduled {
					sized++
					if (c.ModelWork <= 0) != (c.ModelledAs != "") {
						t.Fatalf("%s modelled with work %d, as %q", c.InstanceType, c.ModelWork, c.ModelledAs)
					}
				}
			}
		}
		return sized, top
	}
	rk, err := r.Rank(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if sized, top := scheduledTop(rk); top < 2 || sized != top {
		t.Fatalf("within the budget: %d of the first %d modelled", sized, top)
	}
	for _, w := range rk.Warnings {
		if w.Code == WarnModelBudget {
			t.Fatalf("within the budget: %s", w.Message)
		}
	}
	saved := rankModelBudget
	rankModelBudget = 1
	defer func() { rankModelBudget = saved }()
	rk, err = r.Rank(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	sized, top := scheduledTop(rk)
	// The model itself sizes one candidate; those of the same node shape take its sizing at no cost.
	own, shared := 0, 0
	for _, c := range rk.Candidates {
		switch {
		case c.Scheduled && c.ModelledAs == "":
			own++
		case c.Scheduled:
			shared++
		}
	}
	found := false
	for _, w := range rk.Warnings {
		if w.Code == WarnModelBudget {
			found = w.Path.String() == "Limit" && strings.Contains(w.Message, fmt.Sprintf("the scheduler model sized %s before its work budget ran out",
				fit.Plural(own+shared, "candidate", "candidates"))) &&
				strings.Contains(w.Message, fmt.Sprintf("%d candidates among the cheapest keep the best packing's node count", top-sized))
			if !found {
				t.Fatalf("warning: %s at %s", w.Message, w.Path)
			}
		}
	}
	if own != 1 || sized > 1+shared || !found {
		t.Fatalf("out of budget: %d of the first %d modelled (%d by the model, %d sharing it), warned %v", sized, top, own, shared, found)
	}
	for _, c := range rk.Candidates {
		if c.InstanceType == rk.Best && !c.Scheduled {
			t.Fatalf("out of budget, the recommendation %s was not modelled", rk.Best)
		}
	}
}

// TestRankPackBudget lowers the packing's work budget: the ranking warns on Candidates, the candidates left
// out are listed unsized (never as fitting), those packed keep the counts of the full ranking, and Best is
// one of them: the cheapest packed. With a limit, the same holds for the candidates the limit would size.
func TestRankPackBudget(t *testing.T) {
	r := NewRanker(sizing.EmbeddedCatalog())
	for _, limit := range []int{0, 4} {
		req := benchRequest(12, 4, 10)
		req.Limit = limit
		full, err := r.Rank(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range full.Warnings {
			if w.Code == WarnPackBudget {
				t.Fatalf("limit %d, within the budget: %s", limit, w.Message)
			}
		}
		byName := map[string]Candidate{}
		for _, c := range full.Candidates {
			byName[c.InstanceType] = c
		}
		saved := rankPackBudget
		rankPackBudget = 1
		cut, err := r.Rank(context.Background(), req)
		rankPackBudget = saved
		if err != nil {
			t.Fatal(err)
		}
		packed, left := 0, 0
		for _, c := range cut.Candidates {
			if !c.Sized {
				if !c.Excluded || (c.Reason != ReasonNotSized && c.Reason != Reason(fit.ReasonTooLarge)) {
					t.Errorf("limit %d: %s not sized but listed as %v %q", limit, c.InstanceType, c.Excluded, c.Reason)
				}
				if c.cut {
					left++
					if c.Reason == ReasonNotSized && !strings.Contains(c.Message, "packing budget ran out") {
						t.Errorf("limit %d: %s: %s", limit, c.InstanceType, c.Message)
					}
				}
				continue
			}
			packed++
			if f := byName[c.InstanceType]; f.NodesRequired != c.NodesRequired || f.Excluded != c.Excluded || f.Reason != c.Reason {
				t.Errorf("limit %d: %s packed within the budget: %d nodes (%v %q), the full ranking's %d (%v %q)", limit, c.InstanceType,
					c.NodesRequired, c.Excluded, c.Reason, f.NodesRequired, f.Excluded, f.Reason)
			}
		}
		found := false
		for _, w := range cut.Warnings {
			if w.Code == WarnPackBudget {
				found = w.Path.String() == "Candidates" && strings.Contains(w.Message, "the ranking packed "+fit.Plural(packed, "candidate type", "candidate types")+" before its work budget ran out") &&
					strings.Contains(w.Message, fmt.Sprintf("%d others", left))
				if !found {
					t.Fatalf("limit %d: warning %s at %s", limit, w.Message, w.Path)
				}
			}
		}
		if !found || left == 0 || packed == 0 {
			t.Fatalf("limit %d, out of budget: warned %v, %d packed, %d left out", limit, found, packed, left)
		}
		best := Candidate{}
		for _, c := range cut.Candidates {
			if c.InstanceType == cut.Best {
				best = c
			}
		}
		if cut.Best == "" || !best.Sized || best.Excluded || best.cut {
			t.Fatalf("limit %d, out of budget: the recommendation %q was not packed: %+v", limit, cut.Best, best)
		}
		t.Logf("limit %d: %d packed, %d cut; best %s (full ranking: %s)", limit, packed, left, cut.Best, full.Best)
	}
}

// TestRankModelledAs: a candidate whose nodes have the shape of one the scheduler model already sized takes
// its sizing (ModelledAs, no work of its own), and that is what the model gives it alone; the ranking is the
// same on one CPU and on several (candidates sized two at a time, a shape sized once per batch).
func TestRankModelledAs(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	r := NewRanker(sizing.EmbeddedCatalog())
	req := benchRequest(40, 4, 10)
	req.Limit = 8
	runtime.GOMAXPROCS(1)
	one, err := r.Rank(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	runtime.GOMAXPROCS(4)
	several, err := r.Rank(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(one, several) {
		t.Fatalf("one CPU and several disagree:\none     %+v\nseveral %+v", one.Candidates, several.Candidates)
	}
	byName := map[string]Candidate{}
	for _, c := range several.Candidates {
		byName[c.InstanceType] = c
	}
	shared := 0
	for _, c := range several.Candidates {
		if c.ModelledAs == "" {
			continue
		}
		shared++
		src := byName[c.ModelledAs]
		if !c.Scheduled || c.ModelWork != 0 || !src.Scheduled || src.ModelledAs != "" || src.ModelWork <= 0 ||
			src.NodesRequired != c.NodesRequired {
			t.Fatalf("%s modelled as %s: %+v from %+v", c.InstanceType, c.ModelledAs, c, src)
		}
		alone := req
		alone.Candidates, alone.Limit = []string{c.InstanceType}, 0
		rk, err := r.Rank(context.Background(), alone)
		if err != nil {
			t.Fatal(err)
		}
		if a := rk.Candidates[0]; !a.Scheduled || a.ModelledAs != "" || a.NodesRequired != c.NodesRequired ||
			a.Excluded != c.Excluded || a.Reason != c.Reason ||
			a.MonthlyCost != c.MonthlyCost || a.Utilization != c.Utilization || a.Stranded != c.Stranded {
			t.Fatalf("%s alone: %+v; modelled as %s: %+v", c.InstanceType, a, c.ModelledAs, c)
		}
	}
	if shared == 0 {
		t.Fatal("no candidate took another's sizing: the input no longer exercises it")
	}
}

// TestCandidateModelledAsMessage: a candidate that took the sizing of another of the same node shape and
// does not fit says so, naming both types, with the other's reason and message.
func TestCandidateModelledAsMessage(t *testing.T) {
	r := NewRanker(sizing.EmbeddedCatalog())
	req := benchRequest(2, 1, 1)
	row, err := r.cat.InstanceType(context.Background(), catalog.AWS, "m6a.2xlarge")
	if err != nil {
		t.Fatal(err)
	}
	misfit := &sizing.Failure{Reason: sizing.Reason(fit.ReasonMaxNodes), Message: "pool \"general\" (m5a.2xlarge) needs 12 nodes"}
	for _, o := range []outcome{{misfit: misfit, modelledAs: "m5a.2xlarge"}, {modelledAs: "m5a.2xlarge"}} {
		c := r.candidate(&req, row, &o)
		if !c.Excluded || c.ModelledAs != "m5a.2xlarge" || !strings.Contains(c.Message, "m6a.2xlarge") ||
			!strings.Contains(c.Message, "m5a.2xlarge") {
			t.Fatalf("%+v: %+v", o, c)
		}
		if o.misfit != nil && (c.Reason != Reason(fit.ReasonMaxNodes) || !strings.HasSuffix(c.Message, misfit.Message) ||
			!strings.HasPrefix(c.Message, "a node of m6a.2xlarge has the shape of a node of m5a.2xlarge")) {
			t.Fatalf("misfit: %+v", c)
		}
	}
}

// TestRankPriceBasisWarnings: Windows nodes and spot capacity are not what the reference prices (Linux, on-demand)
// price: the ranking says so, unless the caller's prices replace them.
func TestRankPriceBasisWarnings(t *testing.T) {
	req := Request{
		Candidates: []string{"m6i.large", "c6i.large"},
		Pool:       sizing.Pool{Name: "p", Cloud: catalog.AWS, MaxNodes: 10},
		Workloads:  []sizing.Workload{{Name: "web", Replicas: intp(2), Requests: fit.Resources{CPUMillicores: 200, MemoryBytes: 256 * mi}}},
	}
	count := func(r Request) (n int) {
		t.Helper()
		rk, err := NewRanker(sizing.EmbeddedCatalog()).Rank(context.Background(), r)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range rk.Warnings {
			if w.Code == WarnPriceBasis {
				n++
			}
		}
		return n
	}
	if n := count(req); n != 0 {
		t.Errorf("Linux on-demand: %d price warnings", n)
	}
	win := req
	win.Pool.Overhead.Profile = overhead.EKSWindows
	spot := req
	spot.Pool.CapacityType = fit.CapacitySpot
	priced := spot
	priced.Prices = map[string]float64{"m6i.large": 0.03}
	if count(win) != 1 || count(spot) != 1 || count(priced) != 0 {
		t.Errorf("warnings: Windows %d, spot %d, spot with prices %d; want 1, 1, 0", count(win), count(spot), count(priced))
	}
}

// TestRankDiskTypeUnknown: a candidate whose series kubefit's table cannot check for a claim's disk type (g2,
// GPD-M2) is not recommended over one it checks, however cheap; its message says the support is unknown; alone,
// it is the recommendation with a warning that says so. A series that cannot attach the type (e2) is excluded.
func TestRankDiskTypeUnknown(t *testing.T) {
	ctx := context.Background()
	base := Request{
		Pool: sizing.Pool{Name: "pool", Cloud: catalog.GCP, MaxNodes: 20},
		Workloads: []sizing.Workload{{Name: "db", Replicas: intp(2), Requests: fit.Resources{CPUMillicores: 500, MemoryBytes: 1 << 30},
			VolumeClaims: []fit.VolumeClaim{{Name: "data", SizeBytes: 10 << 30, DiskType: "hyperdisk-balanced"}},
			// g2 nodes carry GKE's GPU taint (sizing.GKEGPUTaint): the pods tolerate it so that g2 stays a candidate.
			Tolerations: []fit.Toleration{{Key: sizing.GKEGPUTaint.Key, Operator: fit.OperatorExists}}}},
		Prices: map[string]float64{"g2-standard-4": 0.01},
	}
	for _, tc := range []struct {
		name       string
		candidates []string
		best       string
		bestWarns  bool // the warning says the recommendation itself is unchecked
	}{
		{"a checked candidate is eligible", []string{"e2-standard-4", "g2-standard-4", "n4-standard-4"}, "n4-standard-4", false},
		{"only the unchecked one", []string{"e2-standard-4", "g2-standard-4"}, "g2-standard-4", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := base
			req.Candidates = tc.candidates
			rk, err := NewRanker(sizing.EmbeddedCatalog()).Rank(ctx, req)
			if err != nil {
				t.Fatal(err)
			}
			if rk.Best != tc.best {
				t.Errorf("best %q, want %q: %+v", rk.Best, tc.best, rk.Candidates)
			}
			for _, c := range rk.Candidates {
				switch c.InstanceType {
				case "g2-standard-4":
					if c.Excluded || !c.DiskTypeUnknown || !strings.Contains(c.Message, "disk support unknown") ||
						!strings.Contains(c.Message, "GPD-M2") || !strings.Contains(c.Message, "G2") {
						t.Errorf("g2: excluded %v, unknown %v, message %q", c.Excluded, c.DiskTypeUnknown, c.Message)
					}
				case "e2-standard-4":
					if !c.Excluded || c.DiskTypeUnknown || !strings.Contains(c.Message, "GPD-M1") {
						t.Errorf("e2: excluded %v, unknown %v, message %q", c.Excluded, c.DiskTypeUnknown, c.Message)
					}
				case "n4-standard-4":
					if c.Excluded || c.DiskTypeUnknown || c.Message != "" {
						t.Errorf("n4: excluded %v, unknown %v, message %q", c.Excluded, c.DiskTypeUnknown, c.Message)
					}
				}
			}
			var w *field.Warning
			for i := range rk.Warnings {
				if rk.Warnings[i].Code == WarnDiskTypeUnknown {
					w = &rk.Warnings[i]
				}
			}
			if w == nil || !strings.Contains(w.Message, `"g2-standard-4"`) || strings.Contains(w.Message, "the recommendation, g2-standard-4") != tc.bestWarns {
				t.Errorf("warning %+v, want one naming g2-standard-4 (the recommendation: %v)", w, tc.bestWarns)
			}
		})
	}
}

// TestRankArm64ImagesWarning: the explorer's arm case. A workload that does not pin its architecture gets the
// Graviton c7g.xlarge recommended with a warning that its images must be published for linux/arm64 (there was
// none); pinned to amd64, the Arm candidates are left out and nothing is said.
func TestRankArm64ImagesWarning(t *testing.T) {
	req := Request{
		Candidates: []string{"m7i.large", "m7g.large", "c7g.xlarge", "m7i.xlarge", "m7g.xlarge"},
		Pool:       sizing.Pool{Name: "p", Cloud: catalog.AWS, MaxNodes: 20},
		Workloads:  []sizing.Workload{{Name: "legacy", Replicas: intp(6), Requests: fit.Resources{CPUMillicores: 1000, MemoryBytes: 1 << 30}}},
	}
	rk, err := NewRanker(sizing.EmbeddedCatalog()).Rank(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range rk.Warnings {
		if w.Code == sizing.WarnArm64Images {
			got = append(got, w.Message)
		}
	}
	best := slices.IndexFunc(rk.Candidates, func(c Candidate) bool { return c.InstanceType == rk.Best })
	arm := best >= 0 && rk.Candidates[best].Row.Architecture == catalog.ArchARM64
	if arm != (len(got) == 1) || arm && !strings.Contains(got[0], `workload "legacy" does not pin kubernetes.io/arch`) {
		t.Errorf("best %s (arm64 %v): warnings %q", rk.Best, arm, got)
	}
	if !arm {
		t.Logf("best %s is not arm64; the warning is not needed", rk.Best)
	}
	req.Workloads[0].NodeSelector = map[string]string{"kubernetes.io/arch": "amd64"}
	if rk, err = NewRanker(sizing.EmbeddedCatalog()).Rank(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	for _, w := range rk.Warnings {
		if w.Code == sizing.WarnArm64Images {
			t.Errorf("pinned to amd64: %s", w.Message)
		}
	}
}

// TestRankAcceleratorUnused: for workloads that request no accelerator, types with GPUs or Neuron devices rank after
// the types without, with a note and a warning (before: g4dn.xlarge ranked best for a CPU-only workload, without a
// word); a workload requesting nvidia.com/gpu keeps the NVIDIA type in the ranking, and alone accelerator types
// still give a recommendation, which the warning names.
func TestRankAcceleratorUnused(t *testing.T) {
	req := Request{
		Candidates: []string{"g4dn.xlarge", "inf2.xlarge", "g4ad.xlarge", "m6i.xlarge", "c6i.xlarge"},
		Pool:       sizing.Pool{Name: "general", Cloud: catalog.AWS, MaxNodes: 50},
		Workloads:  []sizing.Workload{{Name: "web", Replicas: intp(6), Requests: fit.Resources{CPUMillicores: 1000, MemoryBytes: 2 << 30}}},
	}
	rk, err := NewRanker(sizing.EmbeddedCatalog()).Rank(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if rk.Best != "c6i.xlarge" && rk.Best != "m6i.xlarge" {
		t.Errorf("best = %s; ranking %v", rk.Best, summary(rk))
	}
	for i, c := range rk.Candidates {
		idle := strings.HasPrefix(c.InstanceType, "g") || strings.HasPrefix(c.InstanceType, "inf")
		if c.AcceleratorUnused != idle || idle && (i < 2 || !strings.Contains(c.Message, "which no workload requests")) {
			t.Errorf("%d %s: accelerator unused %v, message %q", i, c.InstanceType, c.AcceleratorUnused, c.Message)
		}
	}
	if w, ok := acceleratorWarning(rk.Candidates); !ok || !slices.ContainsFunc(rk.Warnings, func(x field.Warning) bool { return x.Code == WarnAcceleratorUnused }) ||
		!strings.Contains(w.Message, `"g4dn.xlarge"`) {
		t.Errorf("warnings %+v", rk.Warnings)
	}
	req.Workloads = append(req.Workloads, sizing.Workload{Name: "train", Replicas: intp(1), Requests: fit.Resources{CPUMillicores: 1000, MemoryBytes: 2 << 30, GPU: 1}})
	rk, err = NewRanker(sizing.EmbeddedCatalog()).Rank(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if rk.Best != "g4dn.xlarge" {
		t.Errorf("best with a GPU workload = %s; ranking %v", rk.Best, summary(rk))
	}
	req.Candidates, req.Workloads = []string{"g4dn.xlarge", "g5.xlarge"}, req.Workloads[:1]
	rk, err = NewRanker(sizing.EmbeddedCatalog()).Rank(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if w, _ := acceleratorWarning(rk.Candidates); rk.Best == "" || !strings.Contains(w.Message, "so the recommendation, "+rk.Best) {
		t.Errorf("best %q, warning %q", rk.Best, w.Message)
	}
}
