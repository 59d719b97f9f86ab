package keda

import (
	"strings"
	"testing"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/resource"
)

// TestGroupRemedies: a ScaledObject and an HPA of 1,000m pods (4 per node of 4,000m) at peaks 30 and 20 on a
// group of 10 nodes (40 pods): KCAP-E2 names the largest safe maximum of each with the other unchanged
// (40 − 20 = 20 for the first, 40 − 30 = 10 for the second) and the 13 nodes the 50 pods need.
func TestGroupRemedies(t *testing.T) {
	mk := func(name string, peak int64) Summary {
		return Summary{Namespace: "shop", Name: name, HPAName: "keda-hpa-" + name, TargetName: name, PeakReplicas: peak,
			PodRequests: &resource.List{CPUMillicores: 1000, MemoryBytes: 256 << 20, Pods: 1}, NodeGroup: "g"}
	}
	g := NodeGroupCapacity{Name: "g", MaxNodes: 10, WorkloadAllocatable: Allocatable{CPUMillicores: 4000, MemoryBytes: 16 << 30}, WorkloadPods: 29}
	_, err := CheckAll(Check{ScaledObjects: []Summary{mk("a", 30)}, HPAs: []Summary{mk("b", 20)}, NodeGroups: []NodeGroupCapacity{g}})
	if err == nil {
		t.Fatal("want KCAP-E2")
	}
	msg := err.Error()
	for _, want := range []string{"KCAP-E2", `largest safe maxReplicaCount of "shop/a", the others unchanged, is 20`,
		`largest safe maxReplicas of HPA "shop/b", the others unchanged, is 10`, "raise the group's maximum size to 13 nodes"} {
		if !strings.Contains(msg, want) {
			t.Errorf("KCAP-E2 lacks %q: %s", want, msg)
		}
	}
}

// TestNodeGroupOf: an autoscaler given no node group capacity of its own is placed on a group by name, and a
// name that is no group, an autoscaler the check does not have, or a second group for one that names its own
// are refused on the placement.
func TestNodeGroupOf(t *testing.T) {
	s := Summary{Namespace: "shop", Name: "a", HPAName: "keda-hpa-a", TargetName: "a", PeakReplicas: 50,
		PodRequests: &resource.List{CPUMillicores: 1000, MemoryBytes: 256 << 20, Pods: 1}}
	g := NodeGroupCapacity{Name: "g", MaxNodes: 10, WorkloadAllocatable: Allocatable{CPUMillicores: 4000, MemoryBytes: 16 << 30}, WorkloadPods: 29}
	_, err := CheckAll(Check{ScaledObjects: []Summary{s}, NodeGroups: []NodeGroupCapacity{g}, NodeGroupOf: map[string]string{"shop/a": "g"}})
	if e, _ := codes(err, nil); !has(e, "KCAP-E2") {
		t.Fatalf("placed on g, 50 pods need 13 nodes of 10: want KCAP-E2, got %v", err)
	}
	own := s
	own.NodeGroup = "h"
	for _, tt := range []struct {
		s    Summary
		of   map[string]string
		path string
	}{
		{s, map[string]string{"shop/a": "x"}, `NodeGroupOf["shop/a"]`},
		{s, map[string]string{"shop/b": "g"}, `NodeGroupOf["shop/b"]`},
		{own, map[string]string{"shop/a": "g"}, `NodeGroupOf["shop/a"]`},
	} {
		_, err := CheckAll(Check{ScaledObjects: []Summary{tt.s}, NodeGroups: []NodeGroupCapacity{g}, NodeGroupOf: tt.of})
		if !strings.Contains(strings.Join(paths(err), " "), tt.path) {
			t.Errorf("%v: errors at %v, want %s", tt.of, paths(err), tt.path)
		}
	}
}
