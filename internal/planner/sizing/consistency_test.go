package sizing

import (
	"context"
	"strings"
	"testing"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/burst"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/overhead"
)

// TestReportAgreesWithFits: for a plan failing for each reason (credits included), the report's verdict, the
// plan's Fits, its Failures and its Misfits (what the diagnostics show) agree: the header says DOES NOT FIT,
// the Failures section lists every failure, and a fitting plan says FITS with none.
func TestReportAgreesWithFits(t *testing.T) {
	web := func() Workload {
		return Workload{Name: "web", Replicas: intp(4), Requests: fit.Resources{CPUMillicores: 500, MemoryBytes: 512 << 20}}
	}
	tainted := pool("general", "m5.large", 10)
	tainted.Taints = []fit.Taint{{Key: "dedicated", Value: "x", Effect: fit.EffectNoSchedule}}
	zonal := pool("zonal", "m5.large", 10)
	zonal.Zones = []string{"a", "b", "c"}
	busy := pool("burst", "t3a.medium", 2)
	winPool := pool("win", "m5.large", 10)
	winPool.Overhead.Profile = overhead.EKSWindows

	busy.Credits.Mode = burst.Standard
	covered := map[Reason]bool{}
	defer func() {
		for _, r := range fit.Reasons {
			if !covered[Reason(r)] {
				t.Errorf("no case fails for reason %s", r)
			}
		}
	}()
	for _, tc := range []struct {
		name   string
		reason Reason
		req    Request
	}{
		{"fits", "", Request{Pools: []Pool{pool("general", "m5.large", 10)}, Workloads: []Workload{web()}}},
		{"too large", Reason(fit.ReasonTooLarge), Request{Pools: []Pool{pool("general", "m5.large", 10)},
			Workloads: []Workload{{Name: "big", Replicas: intp(1), Requests: fit.Resources{CPUMillicores: 8000}}}}},
		{"max nodes", Reason(fit.ReasonMaxNodes), Request{Pools: []Pool{pool("general", "m5.large", 1)},
			Workloads: []Workload{{Name: "many", Replicas: intp(20), Requests: fit.Resources{CPUMillicores: 500}}}}},
		{"selector", Reason(fit.ReasonSelector), Request{Pools: []Pool{pool("general", "m5.large", 10)},
			Workloads: []Workload{{Name: "picky", Replicas: intp(1), NodeSelector: map[string]string{"team": "ml"}}}}},
		{"taint", Reason(fit.ReasonTaint), Request{Pools: []Pool{tainted}, Workloads: []Workload{web()}}},
		{"os", Reason(fit.ReasonOS), Request{Pools: []Pool{pool("general", "m5.large", 1), winPool},
			Workloads: []Workload{{Name: "many", Replicas: intp(8), Requests: fit.Resources{CPUMillicores: 500}}}}},
		{"daemonsets", Reason(fit.ReasonDaemonSets), Request{Pools: []Pool{pool("general", "m5.large", 10)},
			DaemonSets: []DaemonSet{{Name: "hog", Requests: fit.Resources{CPUMillicores: 1950}, TakesPodSlot: true}}, Workloads: []Workload{web()}}},
		{"node affinity", Reason(fit.ReasonAffinity), Request{Pools: []Pool{pool("general", "m5.large", 10)},
			Workloads: []Workload{{Name: "zonal", Replicas: intp(1), NodeAffinity: []fit.NodeSelectorTerm{{MatchExpressions: []fit.NodeSelectorRequirement{
				{Key: "node.kubernetes.io/instance-type", Operator: fit.NodeIn, Values: []string{"c5.large"}}}}}}}}},
		{"disruption", Reason(fit.ReasonDisruption), Request{Pools: []Pool{{Name: "fixed", InstanceTypes: []string{"m5.large"}, MinNodes: 2, MaxNodes: 2}},
			Workloads: []Workload{{Name: "web", Replicas: intp(4), Requests: fit.Resources{CPUMillicores: 800}}}, Disruptions: []fit.DisruptionKind{fit.DisruptNodeLoss}}},
		{"pool list", Reason(fit.ReasonPoolList), Request{Pools: []Pool{pool("general", "m5.large", 1), pool("other", "m5.large", 10)},
			Workloads: []Workload{{Name: "pinned", Replicas: intp(20), Requests: fit.Resources{CPUMillicores: 500}, Pools: []string{"general"}}}}},
		{"spread", Reason(fit.ReasonSpread), Request{Pools: []Pool{pool("general", "m5.large", 2)},
			Workloads: []Workload{{Name: "apart", Replicas: intp(3), Requests: fit.Resources{CPUMillicores: 100}, Spread: fit.Spread{Type: fit.SpreadNode}}}}},
		{"extended resource", Reason(fit.ReasonExtended), Request{Pools: []Pool{pool("general", "m5.large", 2)},
			Workloads: []Workload{{Name: "infer", Replicas: intp(1), Requests: fit.Resources{CPUMillicores: 100}, Extended: map[string]int64{"aws.amazon.com/neuron": 1}}}}},
		{"host port", Reason(fit.ReasonHostPort), Request{Pools: []Pool{pool("general", "m5.large", 2)},
			Workloads: []Workload{{Name: "ingress", Replicas: intp(3), Requests: fit.Resources{CPUMillicores: 100}, HostPorts: []fit.HostPort{{Port: 443}}}}}},
		{"pod affinity", Reason(fit.ReasonPodAffinity), Request{Pools: []Pool{zonal},
			Workloads: []Workload{{Name: "zk", Replicas: intp(4), Requests: fit.Resources{CPUMillicores: 100},
				PodAffinity: &fit.PodAffinity{AntiRequired: []fit.PodAffinityTerm{{Selector: fit.LabelSelector{MatchLabels: map[string]string{"app": "zk"}},
					TopologyKey: "topology.kubernetes.io/zone"}}}}}}},
		// 30,000 pods on about 1,700 nodes exceed the scheduler model's work budget, and the workload may use both pools.
		{"unmodelled", Reason(fit.ReasonUnmodelled), Request{Pools: []Pool{pool("general", "m5.large", 5000), pool("other", "m5.xlarge", 5000)},
			Workloads: []Workload{{Name: "many", Replicas: intp(30000), Requests: fit.Resources{CPUMillicores: 100, MemoryBytes: 64 << 20}}}}},
		{"credits", ReasonCredits, Request{Pools: []Pool{busy},
			Workloads: []Workload{{Name: "agents", Replicas: intp(4), Requests: fit.Resources{CPUMillicores: 100}, CPUUsageMillicores: 450}}}},
	} {
		covered[tc.reason] = true
		t.Run(tc.name, func(t *testing.T) {
			for i := range tc.req.Pools {
				tc.req.Pools[i].Cloud = catalog.AWS
			}
			plan, err := NewPlanner(EmbeddedCatalog()).Solve(context.Background(), tc.req)
			if err != nil {
				t.Fatal(err)
			}
			header, _, _ := strings.Cut(plan.Report, "\n")
			failures := plan.Report[strings.LastIndex(plan.Report, "\nFailures\n"):]
			if wantFits := tc.reason == ""; plan.Fits != wantFits || strings.HasSuffix(header, "DOES NOT FIT") == plan.Fits || len(plan.Failures) == 0 != plan.Fits ||
				len(plan.Misfits()) == 0 != plan.Fits || strings.Contains(failures, "none") != plan.Fits {
				t.Fatalf("fits %v, header %q, %d failures, %d misfits:\n%s", plan.Fits, header, len(plan.Failures), len(plan.Misfits()), plan.Report)
			}
			found := tc.reason == ""
			for _, f := range plan.Failures {
				if !strings.Contains(failures, string(f.Reason)+": ") {
					t.Errorf("the report's failures lack %s (%s)", f.Reason, f.Message)
				}
				found = found || f.Reason == tc.reason
			}
			for _, m := range plan.Misfits() {
				found = found && m.Reason != "" // every misfit has a reason
			}
			if !found {
				t.Errorf("no %s failure: %+v", tc.reason, plan.Failures)
			}
		})
	}
}
