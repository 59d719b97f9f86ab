package fit

import (
	"strings"
	"testing"
)

const mi = int64(1) << 20

// aksSmallInput is the small AKS cluster of the field report (field-reports.md §1; overhead.md §12.5):
// 4 × Standard_DS1_v2 at min = max = 4 nodes.
//
// Allocatable per node, from the brief: CPU 1000 − 60 = 940m; memory from the estimated capacity
// 3584 − ceil(3584 × 750 / 10000) = 3584 − 269 = 3315 MiB, minus 896 MiB kube-reserved and 750 MiB
// eviction = 1669 MiB; max pods 110.
//
// DaemonSets: calico-node 250m, kube-proxy 100m, kube-svc-redirect 5m/32Mi, all taking a pod slot,
// so a node offers 940 − 355 = 585m, 1669 − 32 = 1637 MiB and 110 − 3 = 107 pod slots to workloads,
// 4 × 585 = 2,340m for the pool.
//
// System and application pods (CPU): dashboard 100, tunnelfront 10, coredns 2 × 100 = 200,
// coredns-autoscaler 20, heapster 130, grafana 200, prometheus-operator 500, alertmanager 100, flux 50,
// flux-helm-operator 50, api-a 2 × 100 = 200, api-b 2 × 50 = 100, canary-a 40, canary-b 40, web pods
// 5 + 10 + 5 + 10 + 5 = 35; total 1,775m, leaving 2,340 − 1,775 = 565m.
// Memory: 50 + 64 + 140 + 10 + 230 + 500 + 1000 + 225 + 64 + 64 + 400 + 200 + 500 + 500 + 118 =
// 4,065 MiB of 4 × 1637 = 6,548 MiB, so memory is not the binding constraint.
func aksSmallInput(extra ...Workload) Input {
	one := func(name string, replicas int, cpu, memMi int64) Workload {
		return Workload{Name: name, Replicas: replicas, MaxReplicas: replicas,
			Requests: Resources{CPUMillicores: cpu, MemoryBytes: memMi * mi}}
	}
	in := Input{
		Pools: []Pool{{
			Name: "agentpool", InstanceType: "Standard_DS1_v2", MinNodes: 4, MaxNodes: 4,
			Allocatable: Resources{CPUMillicores: 940, MemoryBytes: 1669 * mi, Pods: 110},
			Labels:      map[string]string{"kubernetes.io/os": "linux"},
		}},
		DaemonSets: []DaemonSet{
			{Name: "calico-node", Requests: Resources{CPUMillicores: 250}, TakesPodSlot: true},
			{Name: "kube-proxy", Requests: Resources{CPUMillicores: 100}, TakesPodSlot: true},
			{Name: "kube-svc-redirect", Requests: Resources{CPUMillicores: 5, MemoryBytes: 32 * mi}, TakesPodSlot: true},
		},
		Workloads: []Workload{
			one("kubernetes-dashboard", 1, 100, 50),
			one("tunnelfront", 1, 10, 64),
			one("coredns", 2, 100, 70),
			one("coredns-autoscaler", 1, 20, 10),
			one("heapster", 1, 130, 230),
			one("grafana", 1, 200, 500),
			one("prometheus-operator", 1, 500, 1000),
			one("alertmanager", 1, 100, 225),
			one("flux", 1, 50, 64),
			one("flux-helm-operator", 1, 50, 64),
			one("api-a", 2, 100, 200),
			one("api-b", 2, 50, 100),
			one("canary-a", 1, 40, 500),
			one("canary-b", 1, 40, 500),
			one("web-1", 1, 5, 10),
			one("web-2", 1, 10, 42),
			one("web-3", 1, 5, 21),
			one("web-4", 1, 10, 30),
			one("web-5", 1, 5, 15),
		},
	}
	in.Workloads = append(in.Workloads, extra...)
	return in
}

func TestAKSSmallCluster(t *testing.T) {
	extra := func(cpu int64) Workload {
		return Workload{Name: "extra", Replicas: 4, MaxReplicas: 4,
			Requests: Resources{CPUMillicores: cpu, MemoryBytes: 100 * mi}}
	}
	// The field cluster ran on its 4 nodes; its big pod (prometheus-operator, 500m of a node's 585m)
	// had a node to itself when it started. Pods arriving largest first reproduce that placement.
	largestFirst := func(in Input) Input {
		in.Arrival = ArrivalLargestFirst
		return in
	}
	t.Run("baseline leaves 565m", func(t *testing.T) {
		res, err := Plan(largestFirst(aksSmallInput()))
		if err != nil {
			t.Fatal(err)
		}
		if got, want := res.Pools[0].WorkloadAllocatable, (Resources{CPUMillicores: 585, MemoryBytes: 1637 * mi,
			Pods: 107}); got != want {
			t.Errorf("workload allocatable = %+v, want %+v", got, want)
		}
		pr := res.Scenarios[0].Pools[0]
		if pr.NodesRequired != 4 || !res.Fits {
			t.Fatalf("nodes = %d, fits = %v, want 4 and true\n%s", pr.NodesRequired, res.Fits, Report(res))
		}
		if got := pr.Requested.CPUMillicores; got != 1775 {
			t.Errorf("requested CPU = %d, want 1775", got)
		}
		if free := pr.WorkloadAllocatable.CPUMillicores - pr.Requested.CPUMillicores; free != 565 {
			t.Errorf("free CPU = %dm, want 565m", free)
		}
		if got := pr.Requested.MemoryBytes; got != 4065*mi {
			t.Errorf("requested memory = %d MiB, want 4065", got/mi)
		}
	})
	t.Run("four pods of 100m fit", func(t *testing.T) {
		res, err := Plan(largestFirst(aksSmallInput(extra(100))))
		if err != nil {
			t.Fatal(err)
		}
		if !res.Fits || res.Scenarios[1].Pools[0].NodesRequired != 4 {
			t.Fatalf("want a fit on 4 nodes\n%s", Report(res))
		}
	})
	t.Run("a rollout can strand the 500m pod", func(t *testing.T) {
		// All pods at once, in any order: the scheduler spreads the small pods (LeastAllocated), and
		// when prometheus-operator comes late no node has 500m left although the pool has 565m free.
		res, err := Plan(aksSmallInput())
		if err != nil {
			t.Fatal(err)
		}
		sr := res.Scenarios[0]
		if res.Fits || sr.NodesOptimal != 4 || sr.NodesRequired <= 4 || sr.BoundBy == "" {
			t.Fatalf("fits %v, nodes %d (best packing %d, bound by %q); want no fit above 4 nodes\n%s", res.Fits,
				sr.NodesRequired, sr.NodesOptimal, sr.BoundBy, Report(res))
		}
		var names []string
		for _, f := range res.Failures {
			if f.Scenario == ScenarioSteady {
				names = append(names, f.Workload)
				// The arrival order is said once per plan (SchedulerNote), not in each failure.
				if !strings.Contains(f.Message, "stranded") || strings.Contains(f.Message, sr.BoundBy) {
					t.Errorf("message lacks the stranded capacity, or repeats the arrival order:\n%s", f.Message)
				}
			}
		}
		if note := SchedulerNote(res.Scenarios); !strings.Contains(note, sr.BoundBy) || strings.Count(Report(res), note) != 1 {
			t.Errorf("the scheduler note %q lacks the arrival order %q, or the report does not give it once", note, sr.BoundBy)
		}
		if len(names) != 1 || names[0] != "prometheus-operator" {
			t.Errorf("steady failures name %v, want only prometheus-operator", names)
		}
	})
	t.Run("four pods of 200m do not", func(t *testing.T) {
		res, err := Plan(largestFirst(aksSmallInput(extra(200))))
		if err != nil {
			t.Fatal(err)
		}
		if res.Fits {
			t.Fatalf("want no fit\n%s", Report(res))
		}
		var found bool
		for _, f := range res.Failures {
			if f.Reason != ReasonMaxNodes || f.Pool != "agentpool" {
				continue
			}
			found = true
			// 1,775 + 4 × 200 = 2,575m requested against 2,340m: short by 235m.
			for _, want := range []string{`pool "agentpool"`, "Standard_DS1_v2", "2,575m", "2,340m", "short by 235m CPU",
				"maximum node count is 4"} {
				if !strings.Contains(f.Message, want) {
					t.Errorf("failure message lacks %q:\n%s", want, f.Message)
				}
			}
		}
		if !found {
			t.Fatalf("no max-nodes failure for agentpool\n%s", Report(res))
		}
	})
}
