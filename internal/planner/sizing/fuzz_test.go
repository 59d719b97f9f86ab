package sizing

import (
	"context"
	"testing"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/overhead"
)

// FuzzSolve drives the front door, blame rule included, with arbitrary counts, requests and names: it
// must never panic, and every error must be input errors with a path, or a plan.
func FuzzSolve(f *testing.F) {
	f.Add("m5.large", "eks-al2023", 3, 0, 2, -1, -1, int64(500), int64(512<<20), 1, false)
	f.Add("t3.medium", "", 1, 0, -1, 1, 40, int64(250), int64(0), 0, true)
	f.Add("Standard_DS1_v2", "aks-linux", 4, 5, 4, -1, -1, int64(200), int64(64<<20), 7, false)
	f.Add("", "custom", 0, 0, 1_000_000_000, -1, -1, int64(-1), int64(1<<62), -3, true)
	f.Fuzz(func(t *testing.T, typ, profile string, maxNodes, minNodes, replicas, minReplicas, maxReplicas int, cpu, mem int64, reservedENIs int, eks bool) {
		opt := func(n int) *int {
			if n < 0 {
				return nil
			}
			return &n
		}
		cloud := catalog.AWS
		if len(typ) > 9 && typ[:9] == "Standard_" {
			cloud = catalog.Azure
		}
		p := Pool{Name: "p", Cloud: cloud, InstanceTypes: []string{typ}, MaxNodes: maxNodes, MinNodes: minNodes,
			Overhead: overhead.Input{Profile: overhead.Profile(profile)}}
		if eks {
			p.Overhead.EKS = overhead.EKSOptions{ReservedENIs: int64(reservedENIs)}
		}
		req := Request{
			Pools:      []Pool{p},
			DaemonSets: []DaemonSet{{Name: "ds", Requests: fit.Resources{CPUMillicores: cpu / 10}, TakesPodSlot: true}},
			Workloads: []Workload{
				{Name: "a", Replicas: opt(replicas), MinReplicas: opt(minReplicas), MaxReplicas: opt(maxReplicas),
					Requests: fit.Resources{CPUMillicores: cpu, MemoryBytes: mem}},
				{Name: "b", Replicas: opt(min(replicas, 50)), Requests: fit.Resources{CPUMillicores: 100}},
			},
		}
		plan, err := NewPlanner(EmbeddedCatalog()).Solve(context.Background(), req)
		if err != nil {
			if len(field.As(err)) == 0 {
				t.Fatalf("error without input paths: %v", err)
			}
			return
		}
		if plan == nil {
			t.Fatal("no plan and no error")
		}
	})
}
