package keda

import "testing"

// TestSurgeWarningOnce: a ScaledObject alone on its node group, whose rollout at peak needs more nodes than the
// group has, gets KCAP-W1 from its own check; the capacity check, given its summary and the same group, does not
// give it a second time. With a second workload on the group the shared finding is the capacity check's. A
// ScaledObject without a node group capacity of its own, placed on the group by the check's NodeGroupOf, gave no
// warning itself: the capacity check gives KCAP-W1 (it gave none before).
func TestSurgeWarningOnce(t *testing.T) {
	so := base()
	so.MaxReplicaCount = ptr(int64(30))
	so.TargetWorkload = &Workload{PodTemplate: PodTemplate{Containers: []Container{{Name: "app",
		Requests: map[string]string{"cpu": "500m", "memory": "256Mi"}}}}}
	so.NodeGroupCapacity = &NodeGroupCapacity{Name: "g", MaxNodes: 10, WorkloadAllocatable: Allocatable{CPUMillicores: 1930, MemoryBytes: 7 << 30}, WorkloadPods: 29}
	own, err := Plan(so)
	if err != nil {
		t.Fatal(err)
	}
	if _, w := codes(nil, own.Warnings); !has(w, "KCAP-W1") {
		t.Fatalf("the ScaledObject's own check gives no KCAP-W1: %v", w)
	}
	count := func(res *CheckResult) (n int) {
		for _, w := range res.Warnings {
			if w.Code == "KCAP-W1" {
				n++
			}
		}
		return n
	}
	res, err := CheckAll(Check{ScaledObjects: []Summary{own.Summary}, NodeGroups: []NodeGroupCapacity{*so.NodeGroupCapacity}})
	if err != nil || count(res) != 0 {
		t.Fatalf("the capacity check repeats KCAP-W1 (%d times; %v)", count(res), err)
	}
	group := *so.NodeGroupCapacity
	so.NodeGroupCapacity = nil
	placed, err := Plan(so)
	if err != nil {
		t.Fatal(err)
	}
	if _, w := codes(nil, placed.Warnings); has(w, "KCAP-W1") || placed.Summary.NodeGroup != "" {
		t.Fatalf("without a node group capacity the ScaledObject's own check gives KCAP-W1 (%v) or names a group (%q)", w, placed.Summary.NodeGroup)
	}
	res, err = CheckAll(Check{ScaledObjects: []Summary{placed.Summary}, NodeGroups: []NodeGroupCapacity{group},
		NodeGroupOf: map[string]string{placed.Summary.Namespace + "/" + placed.Summary.Name: "g"}})
	if err != nil || count(res) != 1 {
		t.Fatalf("placed by NodeGroupOf: KCAP-W1 %d times, want once (%v)", count(res), err)
	}
	other := own.Summary
	other.Name, other.HPAName, other.TargetName, other.PeakReplicas = "small", "keda-hpa-small", "small", 1
	wider := group
	wider.MaxNodes = 11 // 31 pods at 3 per node fit 11 nodes; with the surge of 8 they need 13
	res, err = CheckAll(Check{ScaledObjects: []Summary{own.Summary, other}, NodeGroups: []NodeGroupCapacity{wider}})
	if err != nil || count(res) != 1 {
		t.Fatalf("two workloads on the group: KCAP-W1 %d times, want once (%v)", count(res), err)
	}
}

// TestArgoRolloutSurge: an Argo Rollout target without a rollout is planned at its worst, a blue-green preview as
// large as the active ReplicaSet, with KCAP-W7 (it surged by 0 before); given a rollout, its max surge.
func TestArgoRolloutSurge(t *testing.T) {
	so := base()
	so.ScaleTargetRef.APIVersion, so.ScaleTargetRef.Kind = ptr("argoproj.io/v1alpha1"), ptr("Rollout")
	so.MaxReplicaCount = ptr(int64(20))
	withWorkload(&so, Container{Name: "app", Requests: map[string]string{"cpu": "500m", "memory": "256Mi"}})
	res, err := Plan(so)
	if err != nil {
		t.Fatal(err)
	}
	if _, w := codes(nil, res.Warnings); !has(w, "KCAP-W7") || res.Summary.Surge != 20 {
		t.Fatalf("surge %d, warnings %v: want 20 and KCAP-W7", res.Summary.Surge, w)
	}
	so.TargetWorkload.Rollout = &Rollout{Strategy: "RollingUpdate", MaxSurge: ptr("25%")}
	if res, err = Plan(so); err != nil {
		t.Fatal(err)
	}
	if _, w := codes(nil, res.Warnings); has(w, "KCAP-W7") || res.Summary.Surge != 5 {
		t.Fatalf("canary: surge %d, warnings %v: want 5 and no KCAP-W7", res.Summary.Surge, w)
	}
}

// TestTargetKindMismatchWarns: a target workload described as a StatefulSet for a scale target that is a Deployment
// (KEDA's default) warns, on the workload's kind (KCAP-W8); the same kinds do not.
func TestTargetKindMismatchWarns(t *testing.T) {
	so := base()
	withWorkload(&so, Container{Name: "app", Requests: map[string]string{"cpu": "500m", "memory": "256Mi"}})
	so.TargetWorkload.Kind = "StatefulSet"
	res, err := Plan(so)
	if err != nil {
		t.Fatal(err)
	}
	if _, w := codes(nil, res.Warnings); !has(w, "KCAP-W8") {
		t.Fatalf("warnings %v: want KCAP-W8", w)
	}
	so.TargetWorkload.Kind = "Deployment"
	if res, err = Plan(so); err != nil {
		t.Fatal(err)
	}
	if _, w := codes(nil, res.Warnings); has(w, "KCAP-W8") {
		t.Fatalf("the same kind warns: %v", w)
	}
}
