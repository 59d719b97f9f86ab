package sizing

import (
	"context"
	"strings"
	"testing"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
)

// TestGKEGPUSharing: a GKE pool whose node labels say its GPUs are time-shared, shared by MPS or MIG-partitioned
// offers that many nvidia.com/gpu per node (the exploratory case gkeshare: 4 time-shared pods on one g2-standard-8
// node and 7 1g.5gb pods on one a2-highgpu-1g node were told to grow the pool to 4 and 7 nodes). Labels GKE never
// sets, and partition sizes a GPU does not take, are refused on the label.
func TestGKEGPUSharing(t *testing.T) {
	ts := map[string]string{GKEGPUSharingStrategyLabel: "time-sharing", GKEMaxSharedClientsLabel: "4"}
	for _, tc := range []struct {
		name     string
		instance string
		labels   map[string]string
		replicas int
		nodes    int    // nodes the pods need; 0: refused
		gpus     int64  // nvidia.com/gpu per node
		errAt    string // the refused label
		note     string
	}{
		{"time-sharing 4 on one l4", "g2-standard-8", ts, 4, 1, 4, "", "4 time-sharing clients per GPU"},
		{"time-sharing 5 on one l4", "g2-standard-8", ts, 5, 2, 4, "", ""},
		{"time-sharing on 2 l4s", "g2-standard-24", ts, 8, 1, 8, "", "at most 1 nvidia.com/gpu"},
		{"mps", "g2-standard-8", map[string]string{GKEGPUSharingStrategyLabel: "mps", GKEMaxSharedClientsLabel: "3"}, 3, 1, 3, "", "3 mps clients"},
		{"mig 1g.5gb on a100 40gb", "a2-highgpu-1g", map[string]string{GKEGPUPartitionSizeLabel: "1g.5gb"}, 7, 1, 7, "", "7 1g.5gb MIG partitions per GPU"},
		{"mig 3g.20gb on 2 a100s", "a2-highgpu-2g", map[string]string{GKEGPUPartitionSizeLabel: "3g.20gb"}, 4, 1, 4, "", ""},
		{"mig 1g.20gb on h100", "a3-highgpu-1g", map[string]string{GKEGPUPartitionSizeLabel: "1g.20gb"}, 4, 1, 4, "", ""},
		{"mig with time-sharing", "a2-highgpu-1g", map[string]string{GKEGPUPartitionSizeLabel: "1g.5gb", GKEGPUSharingStrategyLabel: "time-sharing", GKEMaxSharedClientsLabel: "2"}, 14, 1, 14, "", "2 time-sharing clients per GPU partition"},
		{"a100 40gb profile on a100 80gb", "a2-ultragpu-1g", map[string]string{GKEGPUPartitionSizeLabel: "1g.5gb"}, 1, 0, 0, `Labels["cloud.google.com/gke-gpu-partition-size"]`, ""},
		{"mig on l4", "g2-standard-8", map[string]string{GKEGPUPartitionSizeLabel: "1g.5gb"}, 1, 0, 0, `Labels["cloud.google.com/gke-gpu-partition-size"]`, ""},
		{"unknown strategy", "g2-standard-8", map[string]string{GKEGPUSharingStrategyLabel: "TIME_SHARING", GKEMaxSharedClientsLabel: "4"}, 1, 0, 0, `Labels["cloud.google.com/gke-gpu-sharing-strategy"]`, ""},
		{"clients out of range", "g2-standard-8", map[string]string{GKEGPUSharingStrategyLabel: "time-sharing", GKEMaxSharedClientsLabel: "49"}, 1, 0, 0, `Labels["cloud.google.com/gke-max-shared-clients-per-gpu"]`, ""},
		{"strategy without clients", "g2-standard-8", map[string]string{GKEGPUSharingStrategyLabel: "time-sharing"}, 1, 0, 0, `Labels["cloud.google.com/gke-max-shared-clients-per-gpu"]`, ""},
		{"sharing without gpus", "n2-standard-8", ts, 1, 0, 0, `Labels["cloud.google.com/gke-gpu-sharing-strategy"]`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := Workload{Name: "infer", Replicas: intp(tc.replicas), NodeSelector: tc.labels,
				Requests: fit.Resources{CPUMillicores: 100, MemoryBytes: 256 << 20, GPU: 1}}
			req := Request{Pools: []Pool{{Name: "gpu", Cloud: catalog.GCP, InstanceTypes: []string{tc.instance}, MaxNodes: 10, Labels: tc.labels}},
				Workloads: []Workload{w}}
			plan, err := NewPlanner(EmbeddedCatalog()).Solve(context.Background(), req)
			if tc.errAt != "" {
				es := field.As(err)
				if len(es) != 1 || es[0].Path.String() != `Pools["gpu"].`+tc.errAt {
					t.Fatalf("error %v, want one at %s", err, tc.errAt)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			pp := plan.Pools[0]
			if pp.Allocatable.GPU != tc.gpus || pp.Peak.NodesRequired != tc.nodes || !plan.Fits {
				t.Errorf("%d nvidia.com/gpu per node, %d nodes, fits %v; want %d, %d, true (%+v)", pp.Allocatable.GPU, pp.Peak.NodesRequired, plan.Fits, tc.gpus, tc.nodes, plan.Failures)
			}
			if !strings.Contains(pp.Note, tc.note) {
				t.Errorf("note %q, want %q", pp.Note, tc.note)
			}
		})
	}
}
