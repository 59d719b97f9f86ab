package sizing

import (
	"context"
	"fmt"
	"testing"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
)

// BenchmarkSolveBlame10k solves 100 workloads of 100 pods of 100m on a pool of at most 100 c5.xlarge, which
// holds a third of them: the blame rule's solves stop at their work budget (they ran for minutes before,
// issue 21), and the model's explanation of the Pending pods looks for lower-priority pods only when
// there are any.
func BenchmarkSolveBlame10k(b *testing.B) {
	req := Request{Pools: []Pool{{Name: "general", Cloud: catalog.AWS, InstanceTypes: []string{"c5.xlarge"}, Zones: []string{"a", "b", "c"}, MaxNodes: 100}}}
	for i := range 100 {
		req.Workloads = append(req.Workloads, Workload{Name: fmt.Sprintf("app-%03d", i), Replicas: intp(100),
			Requests: fit.Resources{CPUMillicores: 100, MemoryBytes: 100 << 20}})
	}
	p := NewPlanner(EmbeddedCatalog())
	if _, err := p.Solve(context.Background(), req); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := p.Solve(context.Background(), req); err != nil {
			b.Fatal(err)
		}
	}
}
