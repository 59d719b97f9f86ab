package keda

import (
	"strings"
	"testing"
)

// exampleAPI is the kubefit_keda_scaled_object example's api (examples/resources/kubefit_keda_scaled_object):
// 500m pods, 7 a node, on 10 nodes over three zones (3 nodes, 21 pods each) with a zone spread of skew 1, so
// the zones hold 63 pods of it; a rollout adds 25 %.
func exampleAPI(maxReplicas int64) ScaledObject {
	so := base()
	so.MinReplicaCount, so.MaxReplicaCount = ptr(int64(2)), ptr(maxReplicas)
	so.TargetWorkload = &Workload{PodTemplate: PodTemplate{Containers: []Container{{Name: "api", Requests: map[string]string{"cpu": "500m", "memory": "512Mi"}}}},
		Rollout:        &Rollout{Strategy: "RollingUpdate", MaxSurge: ptr("25%")},
		TopologySpread: []SpreadConstraint{{TopologyKey: ZoneKey, MaxSkew: 1, WhenUnsatisfiable: "DoNotSchedule"}}}
	so.NodeGroupCapacity = &NodeGroupCapacity{Name: "general", MaxNodes: 10, Zones: []string{"a", "b", "c"},
		WorkloadAllocatable: Allocatable{CPUMillicores: 3620, MemoryBytes: 6 << 30}, WorkloadPods: 54}
	return so
}

// TestRolloutJudgedAgainstZones: KCAP-W1 judges a rollout's surge against what KCAP-E2 and KCAP-E3 say the group
// holds, the zone spread included, and never says the peak is held where KCAP-E3 says it is not (explorer
// report items 3 and 4: at 65 W1 said the peak was held beside E3's "the zones hold 63"; at 52, 52 + 13 surge
// pods exceed those 63 and no W1 came).
func TestRolloutJudgedAgainstZones(t *testing.T) {
	for _, tc := range []struct {
		max        int64
		errs       []string
		w1, inW1   bool
		wantInText []string
	}{
		{max: 65, errs: []string{"KCAP-E3"}, wantInText: []string{"the zones hold 63 pods in all, short of 65 replicas; the largest safe maxReplicaCount is 63, or raise the group's maximum size to 12 nodes"}},
		{max: 64, errs: []string{"KCAP-E3"}},
		{max: 52, w1: true, wantInText: []string{"holds the peak of 52 replicas on 8 of its 10 nodes, but a rollout at peak adds 13 surge pods, 65 in all, and the group holds 63 pods of the target (its zone spread, skew 1, over 3 zones of at most 3 nodes, 21 pods each)",
			"the largest maxReplicaCount whose rollout fits is 50, lower the rollout's maxSurge to 11 or raise the group's maximum size to 12 nodes"}},
		{max: 51, w1: true},
		{max: 50},
		{max: 40},
	} {
		res, err := Plan(exampleAPI(tc.max))
		errs, warns := codes(err, res.Warnings)
		if strings.Join(errs, ",") != strings.Join(tc.errs, ",") || has(warns, "KCAP-W1") != tc.w1 {
			t.Errorf("max %d: errors %v (want %v), KCAP-W1 %v (want %v): %v %v", tc.max, errs, tc.errs, has(warns, "KCAP-W1"), tc.w1, err, res.Warnings)
			continue
		}
		text := ""
		if err != nil {
			text = err.Error()
		}
		for _, w := range res.Warnings {
			text += "\n" + w.Message
		}
		for _, want := range tc.wantInText {
			if !strings.Contains(text, want) {
				t.Errorf("max %d: want %q in\n%s", tc.max, want, text)
			}
		}
	}
}

// TestSharedRolloutJudgedAgainstZones: the capacity check, placing the same api on the group itself
// (NodeGroupOf), warns (KCAP-W1) when the peak's zone share fits the smallest zone but the share with the
// rollout's surge does not, and gives no KCAP-W1 where the peak already fails KCAP-E3.
func TestSharedRolloutJudgedAgainstZones(t *testing.T) {
	run := func(max int64) (error, []string) {
		so := exampleAPI(max)
		g := *so.NodeGroupCapacity
		so.NodeGroupCapacity = nil
		r, _ := Plan(so)
		res, err := CheckAll(Check{ScaledObjects: []Summary{r.Summary}, NodeGroups: []NodeGroupCapacity{g}, NodeGroupOf: map[string]string{"shop/api": "general"}})
		var w1 []string
		for _, w := range res.Warnings {
			if w.Code == "KCAP-W1" {
				w1 = append(w1, w.Message)
			}
		}
		return err, w1
	}
	// 52 + 13 surge pods: 22 in some zone, against 3 nodes × 7 = 21; the peak's 18 fit.
	if err, w1 := run(52); err != nil || len(w1) != 1 || !strings.Contains(w1[0], "does not fit its smallest zone under the zone spread: it has at most 3 nodes in its smallest zone") {
		t.Errorf("52: want one zone KCAP-W1 and no error: %v %v", err, w1)
	}
	if err, w1 := run(40); err != nil || len(w1) != 0 {
		t.Errorf("40: want nothing: %v %v", err, w1)
	}
	// 66 replicas put 22 pods in some zone: KCAP-E3, and no rollout warning on a peak that is not held.
	if err, w1 := run(66); err == nil || !strings.Contains(err.Error(), "KCAP-E3") || len(w1) != 0 {
		t.Errorf("66: want KCAP-E3 and no KCAP-W1: %v %v", err, w1)
	}
}

// TestExampleDatabaseWarnsFrom41: the example's api with its database of 500 connections (usable half 250) and 5
// connections a pod: 40 replicas and 10 surge pods need 250, 41 and 11 need 260 (KCAP-W2, as the example says).
func TestExampleDatabaseWarnsFrom41(t *testing.T) {
	for _, tc := range []struct {
		max int64
		w2  bool
	}{{40, false}, {41, true}} {
		so := exampleAPI(tc.max)
		so.TargetWorkload.ConnectionsPerPod = ptr(int64(5))
		so.Database = &Database{Name: "orders-postgres", MaxConnections: 500}
		res, err := Plan(so)
		if _, w := codes(err, res.Warnings); err != nil || has(w, "KCAP-W2") != tc.w2 {
			t.Errorf("max %d: KCAP-W2 %v, want %v (%v)", tc.max, has(w, "KCAP-W2"), tc.w2, err)
		}
	}
}
