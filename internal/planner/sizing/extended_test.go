package sizing

import (
	"context"
	"strings"
	"testing"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
)

// TestExtendedResources: a pod requesting an extended resource binds only on a pool whose nodes offer it, derived
// from the instance type (amd.com/gpu on ND MI300X v5; aws.amazon.com/neuron on inf2) or declared on the pool;
// an AMD pod is never planned on NVIDIA nodes, and an AMD pool is not refused for it (before: amd.com/gpu was
// counted as nvidia.com/gpu, and MIG or Neuron pods were placed on any node).
func TestExtendedResources(t *testing.T) {
	for _, tc := range []struct {
		name     string
		cloud    catalog.Cloud
		instance string
		declared map[string]int64
		ext      map[string]int64
		replicas int
		fits     bool
		want     string // in the first failure's message
	}{
		{"amd pod on nvidia nodes", catalog.AWS, "p4d.24xlarge", nil, map[string]int64{"amd.com/gpu": 1}, 1, false,
			`requests 1 amd.com/gpu, which a node of pool "pool" (p4d.24xlarge) does not offer`},
		{"amd pod on MI300X", catalog.Azure, "Standard_ND96isr_MI300X_v5", nil, map[string]int64{"amd.com/gpu": 1}, 8, true, ""},
		{"nine amd pods on one MI300X", catalog.Azure, "Standard_ND96isr_MI300X_v5", nil, map[string]int64{"amd.com/gpu": 1}, 9, false,
			"A node holds at most 8 of its pods by their extended resources"},
		{"mig pod on a plain pool", catalog.AWS, "m6i.large", nil, map[string]int64{"nvidia.com/mig-1g.10gb": 1}, 1, false, "declare on the pool"},
		{"mig pod on a declared pool", catalog.AWS, "m6i.large", map[string]int64{"nvidia.com/mig-1g.10gb": 1}, map[string]int64{"nvidia.com/mig-1g.10gb": 1}, 1, true, ""},
		{"neuron pod on inf2", catalog.AWS, "inf2.xlarge", nil, map[string]int64{"aws.amazon.com/neuron": 1}, 1, true, ""},
		{"neuron cores on inf2", catalog.AWS, "inf2.xlarge", nil, map[string]int64{"aws.amazon.com/neuroncore": 3}, 1, false, "but its nodes offer 2 aws.amazon.com/neuroncore"},
		{"neuron pod on m6i", catalog.AWS, "m6i.large", nil, map[string]int64{"aws.amazon.com/neuron": 1}, 1, false, "does not offer"},
	} {
		w := Workload{Name: "w", Replicas: intp(tc.replicas), Requests: fit.Resources{CPUMillicores: 100, MemoryBytes: 128 << 20}, Extended: tc.ext}
		req := Request{Pools: []Pool{{Name: "pool", Cloud: tc.cloud, InstanceTypes: []string{tc.instance}, MaxNodes: 1, Extended: tc.declared}},
			Workloads: []Workload{w}}
		plan, err := NewPlanner(EmbeddedCatalog()).Solve(context.Background(), req)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if plan.Fits != tc.fits {
			t.Errorf("%s: fits %v, want %v (%+v)", tc.name, plan.Fits, tc.fits, plan.Failures)
			continue
		}
		if tc.want != "" && (len(plan.Failures) == 0 || !strings.Contains(plan.Failures[0].Message, tc.want)) {
			t.Errorf("%s: failures %+v, want %q", tc.name, plan.Failures, tc.want)
		}
	}
}

// TestHugePagesTakeMemory: huge pages declared on a pool are offered to pods that request them and come out of the
// node's allocatable memory, as the kubelet takes them out; more than the memory is an error on the entry.
func TestHugePagesTakeMemory(t *testing.T) {
	w := Workload{Name: "w", Replicas: intp(1), Requests: fit.Resources{CPUMillicores: 100, MemoryBytes: 128 << 20},
		Extended: map[string]int64{"hugepages-2Mi": 512 << 20}}
	pool := Pool{Name: "pool", Cloud: catalog.AWS, InstanceTypes: []string{"m6i.large"}, MaxNodes: 1}
	plain, err := NewPlanner(EmbeddedCatalog()).Solve(context.Background(), Request{Pools: []Pool{pool}, Workloads: []Workload{w}})
	if err != nil || plain.Fits {
		t.Fatalf("fits %v, err %v: no huge pages on an undeclared pool", plain.Fits, err)
	}
	pool.Extended = map[string]int64{"hugepages-2Mi": 1 << 30}
	plan, err := NewPlanner(EmbeddedCatalog()).Solve(context.Background(), Request{Pools: []Pool{pool}, Workloads: []Workload{w}})
	if err != nil || !plan.Fits {
		t.Fatalf("fits %v, err %v", plan.Fits, err)
	}
	before := plan.Pools[0].Overhead.Allocatable.MemoryBytes
	after := plan.Packing.Scenarios[0].Pools[0].Allocatable.MemoryBytes
	if before-after != 1<<30 || !strings.Contains(plan.Pools[0].Note, "huge pages") {
		t.Errorf("memory %d → %d, note %q; want 1 GiB less and a note", before, after, plan.Pools[0].Note)
	}
	pool.Extended = map[string]int64{"hugepages-1Gi": 64 << 30}
	_, err = NewPlanner(EmbeddedCatalog()).Solve(context.Background(), Request{Pools: []Pool{pool}, Workloads: []Workload{w}})
	if err == nil || !strings.Contains(err.Error(), "declares 64 GiB of huge pages") {
		t.Errorf("err %v", err)
	}
}

// TestGPUNote: a GPU pod refused on a type whose GPUs offer no nvidia.com/gpu is told what they are (before: "has
// no GPUs" for a K80, an AMD GPU, Gaudi, a fractional L4).
func TestGPUNote(t *testing.T) {
	for _, tc := range []struct{ instance, want string }{
		{"p2.xlarge", "no nvidia.com/gpu (its GPUs are Kepler NVIDIA GPUs"},
		{"g4ad.xlarge", "no nvidia.com/gpu (its GPUs are AMD: the AMD device plugin advertises them as amd.com/gpu)"},
		{"dl1.24xlarge", "no nvidia.com/gpu (its accelerators are Habana Gaudi"},
		{"g6f.xlarge", "no nvidia.com/gpu (its GPU is a fraction of an NVIDIA L4"},
		{"m6i.large", "has no nvidia.com/gpu; choose"},
	} {
		w := Workload{Name: "w", Replicas: intp(1), Requests: fit.Resources{CPUMillicores: 100, MemoryBytes: 128 << 20, GPU: 1}}
		plan, err := NewPlanner(EmbeddedCatalog()).Solve(context.Background(), Request{
			Pools: []Pool{{Name: "pool", Cloud: catalog.AWS, InstanceTypes: []string{tc.instance}, MaxNodes: 1}}, Workloads: []Workload{w}})
		if err != nil {
			t.Fatalf("%s: %v", tc.instance, err)
		}
		if len(plan.Failures) == 0 || !strings.Contains(plan.Failures[0].Message, tc.want) || strings.Contains(plan.Failures[0].Message, "no GPUs") {
			t.Errorf("%s: failures %+v, want %q", tc.instance, plan.Failures, tc.want)
		}
	}
}
