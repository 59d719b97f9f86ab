package keda

import (
	"strings"
	"testing"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/resource"
)

// TestGroupFailuresRaised: the misfits a node group leaves to the check are raised once each, as KCAP-E8 on
// the group, named once (the group's own prefix dropped), with the attribute at fault and the remedy, beside the
// check's own findings (KCAP-E2 for an autoscaler on the same group); a group without failures gives none.
func TestGroupFailuresRaised(t *testing.T) {
	s := Summary{Namespace: "shop", Name: "api", HPAName: "api", TargetName: "api", PeakReplicas: 40,
		PodRequests: &resource.List{CPUMillicores: 2500, MemoryBytes: 1 << 30, Pods: 1}, NodeGroup: "web"}
	g := NodeGroupCapacity{Name: "web", MaxNodes: 20, WorkloadAllocatable: Allocatable{CPUMillicores: 3800, MemoryBytes: 6 << 30}, WorkloadPods: 50,
		Failures: []GroupFailure{
			{Reason: "max-nodes", Attribute: "max_size", Message: `node group "web": pool "web" needs 24 nodes but its maximum node count is 20.`,
				Remedy: `The largest replica count of workload "worker" that fits is 20.`},
			{Reason: "burst-credits", Attribute: "instance_type", Message: "credits run out."},
		}}
	other := NodeGroupCapacity{Name: "batch", MaxNodes: 5, WorkloadAllocatable: Allocatable{CPUMillicores: 3800, MemoryBytes: 6 << 30}, WorkloadPods: 50}
	res, err := CheckAll(Check{HPAs: []Summary{s}, NodeGroups: []NodeGroupCapacity{other, g}})
	var e8 []*field.Error
	for _, e := range field.As(err) {
		if strings.HasPrefix(e.Detail, "KCAP-E8:") {
			e8 = append(e8, e)
		}
	}
	if e, _ := codes(err, res.Warnings); !has(e, "KCAP-E2") || len(e8) != 2 {
		t.Fatalf("errors %v", err)
	}
	want := `KCAP-E8: node group "web" does not carry its own workloads (reported here, as its misfits_reported_by = "capacity_check" asks; ` +
		`at fault: its max_size): pool "web" needs 24 nodes but its maximum node count is 20. The largest replica count of workload "worker" that fits is 20.`
	if e8[0].Detail != want || e8[0].Path.String() != "NodeGroups[1]" || e8[1].Path.String() != "NodeGroups[1]" {
		t.Errorf("KCAP-E8 %q at %s, want %q at NodeGroups[1]", e8[0].Detail, e8[0].Path, want)
	}
	if !strings.HasSuffix(e8[1].Detail, "at fault: its instance_type): credits run out.") {
		t.Errorf("second KCAP-E8 %q", e8[1].Detail)
	}
}
