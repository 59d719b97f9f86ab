package sizing_test

import (
	"context"
	"fmt"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/sizing"
)

// Size a two-pool EKS cluster from instance-type names: a general pool for the web tier and a
// memory-optimised pool for a cache, with kube-proxy on every node. The node lists are where
// kube-scheduler's default profile puts the pods: it spreads them, so a worker, free to go anywhere,
// lands on a memory node.
func Example() {
	planner := sizing.NewPlanner(sizing.EmbeddedCatalog())
	ten, four, cacheMin, cacheMax := 10, 4, 3, 6
	plan, err := planner.Solve(context.Background(), sizing.Request{
		Pools: []sizing.Pool{
			{Name: "general", Cloud: "aws", InstanceTypes: []string{"m5.large"}, MaxNodes: 10},
			{Name: "memory", Cloud: "aws", InstanceTypes: []string{"r5.xlarge"}, MaxNodes: 4},
		},
		DaemonSets: []sizing.DaemonSet{{Name: "kube-proxy", Requests: fit.Resources{CPUMillicores: 100}, TakesPodSlot: true}},
		Workloads: []sizing.Workload{
			{Name: "web", Replicas: &ten, Requests: fit.Resources{CPUMillicores: 500, MemoryBytes: 512 << 20}, Pools: []string{"general"}},
			{Name: "cache", MinReplicas: &cacheMin, MaxReplicas: &cacheMax, Requests: fit.Resources{CPUMillicores: 1000, MemoryBytes: 12 << 30}, Pools: []string{"memory"}},
			{Name: "worker", Replicas: &four, Requests: fit.Resources{CPUMillicores: 250, MemoryBytes: 256 << 20}},
		},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("fits:", plan.Fits)
	for _, p := range plan.Pools {
		fmt.Printf("%s: %s, %dm CPU allocatable, nodes steady %d, peak %d\n", p.Name, p.Instance.Name,
			p.Allocatable.CPUMillicores, p.Steady.NodesRequired, p.Peak.NodesRequired)
		for _, n := range p.Peak.Nodes {
			fmt.Printf("  peak node %d: %v\n", n.Index, n.Workloads)
		}
	}
	// Output:
	// fits: true
	// general: m5.large, 1930m CPU allocatable, nodes steady 4, peak 4
	//   peak node 1: [{web 2} {worker 1}]
	//   peak node 2: [{web 3} {worker 1}]
	//   peak node 3: [{web 2} {worker 1}]
	//   peak node 4: [{web 3}]
	// memory: r5.xlarge, 3920m CPU allocatable, nodes steady 2, peak 3
	//   peak node 1: [{cache 2}]
	//   peak node 2: [{cache 2}]
	//   peak node 3: [{worker 1} {cache 2}]
}
