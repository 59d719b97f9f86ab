package sizing

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/overhead"
)

func aksPool(name string, plugin overhead.NetworkPlugin, minNodes, maxNodes int, maxPods int64) Pool {
	p := Pool{Name: name, Cloud: catalog.Azure, InstanceTypes: []string{"Standard_D4s_v5"}, MinNodes: minNodes, MaxNodes: maxNodes}
	p.Overhead.AKS.NetworkPlugin, p.Overhead.MaxPods = plugin, maxPods
	return p
}

// TestAKSPoolLimits: a kubenet pool above 400 nodes is refused on its maximum, and a max pods under 30 on a pool
// holding fewer than 30 pods at its minimum on its max pods, each naming the limit and the remedies; kubenet
// pools within 400 each but above it together warn that the limit is the cluster's.
func TestAKSPoolLimits(t *testing.T) {
	for _, tc := range []struct {
		name string
		pool Pool
		path string
		want []string
	}{
		{"kubenet 401", aksPool("a", overhead.Kubenet, 0, 401, 0), `Pools["a"].MaxNodes`, []string{"a kubenet cluster holds at most 400 nodes", "Azure CNI overlay"}},
		{"kubenet 400", aksPool("a", overhead.Kubenet, 0, 400, 0), "", nil},
		{"overlay 600", aksPool("a", overhead.AzureCNIOverlay, 0, 600, 0), "", nil},
		{"max pods 10 × 2", aksPool("a", overhead.AzureCNIOverlay, 2, 10, 10), `Pools["a"].Overhead.MaxPods`, []string{"AKS refuses a max pods under 30", "raise the max pods to 30, or the minimum to 3 nodes"}},
		{"max pods 10 × 0", aksPool("a", overhead.AzureCNIOverlay, 0, 10, 10), `Pools["a"].Overhead.MaxPods`, []string{"raise the max pods to 30, or the minimum to 3 nodes"}},
		{"max pods 10 × 3", aksPool("a", overhead.AzureCNIOverlay, 3, 10, 10), "", nil},
	} {
		_, err := NewPlanner(EmbeddedCatalog()).Solve(context.Background(), Request{Pools: []Pool{tc.pool}, Workloads: smallWorkload()})
		es := field.As(err)
		if tc.path == "" {
			if err != nil {
				t.Errorf("%s: %v, want no error", tc.name, err)
			}
			continue
		}
		if len(es) != 1 || es[0].Path.String() != tc.path || !slices.ContainsFunc(tc.want, func(w string) bool { return strings.Contains(es[0].Detail, w) }) {
			t.Errorf("%s: %v; want one error at %s naming %q", tc.name, err, tc.path, tc.want)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(es[0].Detail, w) {
				t.Errorf("%s: %q does not say %q", tc.name, es[0].Detail, w)
			}
		}
	}
	for _, tc := range []struct {
		maxes []int
		warn  bool
	}{{[]int{200, 201}, true}, {[]int{200, 200}, false}, {[]int{390}, false}} {
		var pools []Pool
		for i, m := range tc.maxes {
			pools = append(pools, aksPool(string(rune('a'+i)), overhead.Kubenet, 0, m, 0))
		}
		plan := solveOne(t, Request{Pools: pools, Workloads: smallWorkload()})
		warned := slices.ContainsFunc(plan.Warnings, func(w field.Warning) bool {
			return w.Code == WarnAKSKubenetCluster && strings.Contains(w.Message, "at most 400 nodes in all of its node pools")
		})
		if warned != tc.warn {
			t.Errorf("kubenet pools of %v nodes: warned %v, want %v: %v", tc.maxes, warned, tc.warn, plan.Warnings)
		}
	}
}

// TestAKSSmallVMWarns: a pool of a 1-vCPU size AKS creates no new pool of (Standard_DS1_v2) is planned, as an
// existing pool may be, with a warning on its instance type naming the rule and the remedy; a 2-vCPU size is not.
func TestAKSSmallVMWarns(t *testing.T) {
	for _, tc := range []struct {
		size string
		warn bool
	}{{"Standard_DS1_v2", true}, {"Standard_B1ms", true}, {"Standard_D2s_v5", false}} {
		p := aksPool("small", overhead.AzureCNIOverlay, 0, 4, 0)
		p.InstanceTypes = []string{tc.size}
		plan := solveOne(t, Request{Pools: []Pool{p}, Workloads: smallWorkload()})
		warned := slices.ContainsFunc(plan.Warnings, func(w field.Warning) bool {
			return w.Code == WarnAKSSmallVM && w.Path.String() == `Pools["small"].InstanceTypes[0]` &&
				strings.Contains(w.Message, "AKS does not create nodes on VM sizes with fewer than 2 vCPUs") && strings.Contains(w.Message, "2 vCPUs or more")
		})
		if warned != tc.warn {
			t.Errorf("%s: warned %v, want %v: %v", tc.size, warned, tc.warn, plan.Warnings)
		}
	}
}
