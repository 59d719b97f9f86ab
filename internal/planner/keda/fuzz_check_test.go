package keda

import (
	"fmt"
	"testing"
	"unicode/utf8"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/resource"
)

// FuzzCheckAll drives the capacity check's planner entry point with arbitrary counts of summaries, node
// groups, databases and existing HPAs, names, peaks, requests and options, up to 40 summaries and 400 pods
// in all (issue 21; the fuzzer takes an input that runs 10 s, instrumented, for a hang, its instrumentation
// slows a check about threefold, and a check whose group fails runs its remedies' plans, about 2 s here for
// three summaries: BenchmarkCheckAllMillionPods, BenchmarkCheckAllTenGroups5000
// and BenchmarkCheckAllRemedies2000 hold the larger shapes). It must not panic; every error is an input
// error with a path; a result's peak nodes are never negative.
func FuzzCheckAll(f *testing.F) {
	f.Add(3, 2, 1, 1, int64(10), int64(2), int64(500), int64(100), int64(40), "shop", "g", "one", "", "", true)
	f.Add(40, 1, 1, 0, int64(10), int64(0), int64(100), int64(10), int64(3000), "ns", "g", "all", "most-allocated", "in-order", false)
	f.Add(40, 0, 0, 0, int64(10), int64(1), int64(1), int64(0), int64(0), "a", "", "", "", "", true)
	f.Add(1, 1, 2, 2, int64(1_000_000), int64(-1), int64(1), int64(-5), int64(10), "", "missing", "some", "spread", "random", false)
	f.Add(0, 3, 0, 0, int64(0), int64(0), int64(0), int64(0), int64(-1), "x\ny", "g", "one", "", "largest-first", true)
	f.Fuzz(func(t *testing.T, summaries, groups, databases, existing int, peak, surge, cpu, conns, maxNodes int64,
		ns, group, rollouts, scheduler, arrival string, dns bool) {
		for _, s := range []string{ns, group, rollouts, scheduler, arrival} {
			if !utf8.ValidString(s) {
				t.Skip("Terraform strings are valid UTF-8")
			}
		}
		summaries = min(max(summaries, 0), 40)
		groups, databases, existing = min(max(groups, 0), 20), min(max(databases, 0), 20), min(max(existing, 0), 20)
		if summaries > 0 && peak > 400/int64(summaries) {
			peak = 400 / int64(summaries)
		}
		in := Check{ConcurrentRollouts: rollouts, Scheduler: fit.SchedulerProfile(scheduler), Arrival: fit.ArrivalOrder(arrival)}
		for i := range groups {
			in.NodeGroups = append(in.NodeGroups, NodeGroupCapacity{Name: fmt.Sprint(group, i), MaxNodes: maxNodes,
				WorkloadAllocatable: Allocatable{CPUMillicores: 3920, MemoryBytes: 14 << 30}, WorkloadPods: 58, Zones: []string{"a", "b", "c"}})
		}
		var clients []string
		for i := range summaries {
			s := Summary{Namespace: ns, Name: fmt.Sprint("so", i), TargetKind: "Deployment", TargetName: fmt.Sprint("app", i),
				PeakReplicas: peak, Surge: surge, PodRequests: &resource.List{CPUMillicores: cpu * int64(1+i%3), MemoryBytes: 100 << 20, Pods: 1},
				ConnectionsPerPod: &conns}
			if groups > 0 {
				s.NodeGroup = fmt.Sprint(group, i%groups)
			}
			if i%4 == 3 {
				s.ZonalSpread = []SpreadConstraint{{MaxSkew: 1, TopologyKey: "topology.kubernetes.io/zone", WhenUnsatisfiable: "DoNotSchedule"}}
			}
			if dns {
				lookups := float64(conns) / 10
				s.DNSLookupsPerSecond = &lookups
			}
			if i%5 == 4 {
				s.HPAName = s.Name
				in.HPAs = append(in.HPAs, s)
			} else {
				in.ScaledObjects = append(in.ScaledObjects, s)
			}
			clients = append(clients, ns+"/"+s.Name)
		}
		for i := range databases {
			in.Databases = append(in.Databases, SharedDatabase{Database: Database{Name: fmt.Sprint("db", i), MaxConnections: conns * 100},
				Clients: clients[:min(len(clients), i+1)]})
		}
		for i := range existing {
			in.ExistingHPAs = append(in.ExistingHPAs, ExistingHPA{Namespace: ns, Name: fmt.Sprint("hpa", i), TargetKind: "Deployment",
				TargetName: fmt.Sprint("app", i)})
		}
		if dns {
			in.DNS = &DNS{CacheHitRatio: float64(surge) / 10}
		}
		res, err := CheckAll(in)
		if err != nil {
			if len(field.As(err)) == 0 {
				t.Fatalf("error without input paths: %v", err)
			}
			for _, e := range field.As(err) {
				if len(e.Path.Steps()) == 0 {
					t.Fatalf("error without a path: %q", e.Detail)
				}
			}
		}
		if res != nil {
			for g, n := range res.PeakNodes {
				if n < 0 {
					t.Fatalf("node group %q peaks at %d nodes", g, n)
				}
			}
		}
	})
}
