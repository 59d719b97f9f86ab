package keda

import (
	"strings"
	"testing"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/resource"
)

// TestCheckAllUnplaced (review defect 4): an autoscaler the check places on no node group, or places without pod
// requests, is not counted on any group, so the check warns (KCAP-W10) rather than passing silently.
func TestCheckAllUnplaced(t *testing.T) {
	api := Summary{Namespace: "shop", Name: "api", HPAName: "api", TargetName: "api", PeakReplicas: 30}
	warned := func(in Check, want string) bool {
		res, err := CheckAll(in)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range res.Warnings {
			if w.Code == "KCAP-W10" && strings.Contains(w.Message, want) {
				return true
			}
		}
		return false
	}
	in := Check{HPAs: []Summary{api}, NodeGroups: []NodeGroupCapacity{group("general", 2)}}
	if !warned(in, `HPA "shop/api" is on no node group`) {
		t.Error("an HPA on no node group: want KCAP-W10")
	}
	in.NodeGroupOf = map[string]string{"shop/api": "general"}
	if !warned(in, "no pod requests") {
		t.Error("an HPA placed without pod requests: want KCAP-W10")
	}
	placed := api
	placed.PodRequests = &resource.List{CPUMillicores: 10, MemoryBytes: 1 << 20, Pods: 1}
	in.HPAs = []Summary{placed}
	if warned(in, "") {
		t.Error("an HPA placed with its requests: want no KCAP-W10")
	}
	if warned(Check{HPAs: []Summary{api}}, "") {
		t.Error("a check without node groups: want no KCAP-W10")
	}
}
