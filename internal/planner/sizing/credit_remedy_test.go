package sizing

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/burst"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/overhead"
)

// creditPlan solves busy pods (450m of expected use each, 100m requested) on burstable pools, one workload
// per pool.
func creditPlan(t *testing.T, mode burst.Mode, pools ...Pool) *Plan {
	t.Helper()
	req := Request{}
	for _, p := range pools {
		p.Credits.Mode = mode
		req.Pools = append(req.Pools, p)
		req.Workloads = append(req.Workloads, Workload{Name: "agents-" + p.Name, Replicas: intp(4), Pools: []string{p.Name},
			Requests: fit.Resources{CPUMillicores: 100, MemoryBytes: 256 << 20}, CPUUsageMillicores: 450})
	}
	plan, err := NewPlanner(EmbeddedCatalog()).Solve(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	return plan
}

var fixedType = regexp.MustCompile(`or use (\S+), the smallest fixed-performance type`)

// TestCreditRemedyFixedType: a credit failure names the smallest fixed-performance type of the pool's cloud
// and architecture that holds the busiest node's load, checked against the catalog: the type is not burstable,
// its allocatable CPU covers the expected use, and no priced fixed-performance type with fewer vCPUs, or as
// many and a lower price, does.
func TestCreditRemedyFixedType(t *testing.T) {
	for _, typ := range []string{"t3a.medium", "t4g.medium"} {
		t.Run(typ, func(t *testing.T) {
			plan := creditPlan(t, burst.Standard, pool("burst", typ, 2))
			var msg string
			for _, f := range plan.Failures {
				if f.Reason == ReasonCredits {
					msg = f.Message
				}
			}
			m := fixedType.FindStringSubmatch(msg)
			if m == nil {
				t.Fatalf("no fixed-performance type in %q", msg)
			}
			pp := plan.Pool("burst")
			busiest := pp.Credits.BusiestNodeMillicores
			alloc := func(it catalog.InstanceType) int64 {
				r, err := overhead.Compute(overhead.Input{Profile: overhead.DefaultProfile(catalog.AWS), Instance: overhead.InstanceFromCatalog(it)})
				if err != nil {
					return 0
				}
				return r.Allocatable.CPUMillicores
			}
			got, err := catalog.Lookup(catalog.AWS, m[1])
			if err != nil {
				t.Fatal(err)
			}
			if got.Burstable || got.SharedCore || got.Architecture != pp.Instance.Architecture || alloc(got) < busiest {
				t.Fatalf("%s: burstable %v, arch %s (pool %s), allocatable CPU %dm for %dm of use", got.Name, got.Burstable,
					got.Architecture, pp.Instance.Architecture, alloc(got), busiest)
			}
			if !strings.Contains(msg, fit.FormatCPU(alloc(got))+" allocatable CPU for the "+fit.FormatCPU(busiest)+" of expected use") {
				t.Errorf("the remedy does not give %s's figures: %q", got.Name, msg)
			}
			for _, it := range catalog.All(catalog.AWS) {
				if it.Burstable || it.SharedCore || it.GPUCount > 0 || it.Architecture != got.Architecture || it.PriceUSDPerHour <= 0 {
					continue
				}
				if (it.VCPU < got.VCPU || it.VCPU == got.VCPU && it.PriceUSDPerHour < got.PriceUSDPerHour) && alloc(it) >= busiest {
					t.Errorf("%s (%d vCPU, $%v) also holds %dm and is smaller than %s (%d vCPU, $%v)", it.Name, it.VCPU,
						it.PriceUSDPerHour, busiest, got.Name, got.VCPU, got.PriceUSDPerHour)
				}
			}
		})
	}
}

// TestCreditNoteOnce: with two burstable pools failing, why Kubernetes cannot see it is said once: in the
// first credit misfit and once in the report, in none of the failures' messages. In unlimited mode (failing
// over a surplus-cost limit) the note speaks of the bill and never says the node is held to its baseline.
func TestCreditNoteOnce(t *testing.T) {
	limit := 1.0
	for _, mode := range []burst.Mode{burst.Standard, burst.Unlimited} {
		t.Run(string(mode), func(t *testing.T) {
			a, b := pool("a", "t3a.medium", 2), pool("b", "t3.medium", 2)
			if mode == burst.Unlimited {
				a.Credits.MaxSurplusCostPerMonth, b.Credits.MaxSurplusCostPerMonth = &limit, &limit
			}
			plan := creditPlan(t, mode, a, b)
			note := burst.Note(mode)
			var misfits, credit int
			for _, f := range plan.Misfits() {
				misfits += strings.Count(f.Message, note)
				if f.Reason == ReasonCredits {
					credit++
				}
				if mode == burst.Unlimited && strings.Contains(f.Message, "held to its baseline") {
					t.Errorf("an unlimited-mode misfit says the node is held to its baseline: %q", f.Message)
				}
			}
			for _, f := range plan.Failures {
				if strings.Contains(f.Message, note) {
					t.Errorf("a failure repeats the note: %q", f.Message)
				}
			}
			if credit != 2 || misfits != 1 || strings.Count(plan.Report, note) != 1 {
				t.Fatalf("%d credit misfits, the note %d times in them and %d in the report; want 2, 1 and 1:\n%s", credit,
					misfits, strings.Count(plan.Report, note), plan.Report)
			}
			if mode == burst.Unlimited && strings.Contains(plan.Report, "held to its baseline") {
				t.Errorf("the unlimited-mode report says the node is held to its baseline:\n%s", plan.Report)
			}
		})
	}
}

// TestSchedulerNoteOnce: when the scheduler model needs more nodes than the best packing, the explanation is
// given once per plan (once in the misfits, once in the report), not in each of the four failures.
func TestSchedulerNoteOnce(t *testing.T) {
	plan, err := NewPlanner(EmbeddedCatalog()).Solve(context.Background(), Request{Pools: []Pool{pool("general", "m5.large", 1)},
		Workloads: []Workload{{Name: "many", Replicas: intp(20), Requests: fit.Resources{CPUMillicores: 500}},
			{Name: "more", Replicas: intp(20), Requests: fit.Resources{CPUMillicores: 300}}}})
	if err != nil {
		t.Fatal(err)
	}
	note := fit.SchedulerNote(plan.Packing.Scenarios)
	if note == "" || len(plan.Failures) < 2 {
		t.Fatalf("the test needs a scheduler note and several failures: %q, %d failures", note, len(plan.Failures))
	}
	var n int
	for _, f := range plan.Misfits() {
		n += strings.Count(f.Message, "kube-scheduler places pods")
	}
	for _, f := range plan.Failures {
		if strings.Contains(f.Message, "kube-scheduler") {
			t.Errorf("a failure repeats the scheduler paragraph: %q", f.Message)
		}
	}
	if n != 1 || strings.Count(plan.Report, "kube-scheduler places pods") != 1 {
		t.Fatalf("the scheduler paragraph %d times in the misfits, %d in the report; want once each:\n%s", n,
			strings.Count(plan.Report, "kube-scheduler places pods"), plan.Report)
	}
}

// TestCreditRemedySpreadsWholePods: 5 pods of 150m expected use and a DaemonSet of 20m on t4g.medium (400m
// sustained) need 3 nodes: 2 pods a node beside the DaemonSet (380m room); the remedy said 2 (770m ÷ 400m), and on
// 2 nodes the busiest still ran at 470m.
func TestCreditRemedySpreadsWholePods(t *testing.T) {
	for _, minNodes := range []int{0, 2} {
		p := pool("arm", "t4g.medium", 4)
		p.MinNodes, p.Credits.Mode = minNodes, burst.Standard
		req := Request{Pools: []Pool{p},
			DaemonSets: []DaemonSet{{Name: "agent", Requests: fit.Resources{CPUMillicores: 50, MemoryBytes: 64 << 20}, CPUUsageMillicores: 20, TakesPodSlot: true}},
			Workloads:  []Workload{{Name: "web", Replicas: intp(5), Requests: fit.Resources{CPUMillicores: 300, MemoryBytes: 512 << 20}, CPUUsageMillicores: 150}}}
		plan, err := NewPlanner(EmbeddedCatalog()).Solve(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		var msg string
		for _, f := range plan.Failures {
			if f.Reason == ReasonCredits {
				msg = f.Message
			}
		}
		if !strings.Contains(msg, "over at least 3 nodes of 400m sustained each") || !strings.Contains(msg, "DaemonSets' 20m") {
			t.Errorf("min nodes %d: %q", minNodes, msg)
		}
	}
}
