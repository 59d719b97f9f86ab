package nodegroup

import (
	"context"
	"fmt"
	"testing"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/sizing"
)

func benchmarkSize(b *testing.B, req Request) {
	p := sizing.NewPlanner(sizing.EmbeddedCatalog())
	if _, err := Size(context.Background(), p, req); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := Size(context.Background(), p, req); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSizeKarpenterMillionPods sizes an AWS group of m5.24xlarge for one workload of 1,000,000 pods of
// 10m: Karpenter's provisioning model sorts the open NodeClaims for every pod and stops at its work budget
// (issue 21: 11 s before).
func BenchmarkSizeKarpenterMillionPods(b *testing.B) {
	benchmarkSize(b, Request{Pool: sizing.Pool{Name: "big", Cloud: catalog.AWS, InstanceTypes: []string{"m5.24xlarge"}, Zones: []string{"a", "b", "c"}},
		Workloads: []sizing.Workload{{Name: "app", Replicas: intp(1000000), Requests: fit.Resources{CPUMillicores: 10, MemoryBytes: 10 << 20}}}})
}

// BenchmarkSizeMisfit10k sizes 100 workloads of 100 pods, each with a preferred hostname anti-affinity to its
// own pods, on a group of at most 100 c5.xlarge that holds a third of them: the blame rule and the searches
// for each workload's largest count that fits stop at their work budgets (issue 21: it ran for minutes).
func BenchmarkSizeMisfit10k(b *testing.B) {
	req := Request{Pool: sizing.Pool{Name: "web", Cloud: catalog.AWS, InstanceTypes: []string{"c5.xlarge"}, Zones: []string{"a", "b", "c"}}, MaxSize: intp(100)}
	for i := range 100 {
		name := fmt.Sprintf("app-%03d", i)
		req.Workloads = append(req.Workloads, sizing.Workload{Name: name, Replicas: intp(100), Requests: fit.Resources{CPUMillicores: 100, MemoryBytes: 100 << 20},
			PodAffinity: &fit.PodAffinity{AntiPreferred: []fit.WeightedPodAffinityTerm{{Weight: 1, Term: fit.PodAffinityTerm{
				Selector: fit.LabelSelector{MatchLabels: map[string]string{"app": name}}, TopologyKey: "kubernetes.io/hostname"}}}}})
	}
	benchmarkSize(b, req)
}

// BenchmarkSizeNodeSpread10k sizes one workload of 10,000 pods spread one per node: two plans (the group as
// sized is planned again for the spare node) and Karpenter's model, which stops at its work budget.
func BenchmarkSizeNodeSpread10k(b *testing.B) {
	benchmarkSize(b, Request{Pool: sizing.Pool{Name: "web", Cloud: catalog.AWS, InstanceTypes: []string{"c5.xlarge"}, Zones: []string{"a", "b", "c"}},
		Workloads: []sizing.Workload{{Name: "app", Replicas: intp(10000), Requests: fit.Resources{CPUMillicores: 100, MemoryBytes: 100 << 20},
			Spread: fit.Spread{Type: fit.SpreadNode}}}})
}

// BenchmarkSize10kWorkloads sizes an AWS group of m5.xlarge for 10,000 workloads of one replica each, one of
// issue 21's hangs (no answer within 90 s then).
func BenchmarkSize10kWorkloads(b *testing.B) {
	req := Request{Pool: sizing.Pool{Name: "many", Cloud: catalog.AWS, InstanceTypes: []string{"m5.xlarge"}, Zones: []string{"a", "b", "c"}}}
	for i := range 10_000 {
		req.Workloads = append(req.Workloads, sizing.Workload{Name: fmt.Sprintf("w%d", i), Replicas: intp(1),
			Requests: fit.Resources{CPUMillicores: 100 + int64(i%7)*50, MemoryBytes: 100 << 20}})
	}
	benchmarkSize(b, req)
}
