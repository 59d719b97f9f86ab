package keda

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
)

// explorerShared is exploration 10's e10_shared: group "web" of maxNodes nodes over two zones (7 pods of 500m a
// node), api (max apiMax, 25 % surge) and worker (max 10, Recreate), both spread over the zones with skew 1,
// placed by the capacity check.
func explorerShared(t *testing.T, apiMax, maxNodes int64, workerAnn ...string) (error, *CheckResult) {
	t.Helper()
	spread := []SpreadConstraint{{TopologyKey: ZoneKey, MaxSkew: 1, WhenUnsatisfiable: "DoNotSchedule"}}
	mk := func(name string, minimum, maximum int64, ro *Rollout) Summary {
		so := base()
		if name == "worker" && len(workerAnn) >= 2 { // the annotation, its value and the worker's maximum
			so.Annotations = map[string]string{workerAnn[0]: workerAnn[1]}
			if len(workerAnn) == 3 {
				maximum, _ = strconv.ParseInt(workerAnn[2], 10, 64)
			}
		}
		so.Name, so.ScaleTargetRef.Name = name, name
		so.MinReplicaCount, so.MaxReplicaCount = ptr(minimum), ptr(maximum)
		so.TargetWorkload = &Workload{Rollout: ro, TopologySpread: spread, PodTemplate: PodTemplate{Containers: []Container{{Name: "c",
			Requests: map[string]string{"cpu": "500m", "memory": "256Mi"}}}}}
		res, err := Plan(so)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return res.Summary
	}
	in := Check{
		ScaledObjects: []Summary{mk("api", 2, apiMax, &Rollout{Strategy: "RollingUpdate", MaxSurge: ptr("25%")}), mk("worker", 4, 10, &Rollout{Strategy: "Recreate"})},
		NodeGroups: []NodeGroupCapacity{{Name: "web", MaxNodes: maxNodes, Zones: []string{"a", "b"},
			WorkloadAllocatable: Allocatable{CPUMillicores: 3600, MemoryBytes: 16_000_000_000}, WorkloadPods: 50}},
		NodeGroupOf: map[string]string{"shop/api": "web", "shop/worker": "web"},
	}
	res, err := CheckAll(in)
	return err, res
}

func joinFindings(err error, res *CheckResult) string {
	var out []string
	out = append(out, asErrs(err)...)
	if res != nil {
		for _, w := range res.Warnings {
			out = append(out, w.Message)
		}
	}
	return strings.Join(out, "\n")
}

// TestSharedGroupSizeHoldsZones: the capacity check's group size remedy holds the zone spread too, and the zone
// shortfall is given in the same plan as the group's (exploration 10, item 1).
func TestSharedGroupSizeHoldsZones(t *testing.T) {
	err, res := explorerShared(t, 20, 4)
	got := joinFindings(err, res)
	t.Log(got)
	if !strings.Contains(got, "KCAP-E2") || !strings.Contains(got, "KCAP-E3") {
		t.Fatalf("want KCAP-E2 and KCAP-E3 in one plan:\n%s", got)
	}
	if !strings.Contains(got, "raise the group's maximum size to 6 nodes") || strings.Contains(got, "maximum size to 5 nodes") {
		t.Fatalf("want the size 6, with which the zones hold the peak:\n%s", got)
	}
	// Applied: 6 nodes pass.
	if err, res := explorerShared(t, 20, 6); err != nil {
		t.Fatalf("6 nodes: %s", joinFindings(err, res))
	}
	// At 5 nodes the zone rule names a max_nodes value, on max_nodes (max_nodes_per_zone is not set).
	err, res = explorerShared(t, 20, 5)
	got = joinFindings(err, res)
	t.Log(got)
	if !strings.Contains(got, "KCAP-E3") || !strings.Contains(got, "raise the group's maximum size to 6 nodes") {
		t.Fatalf("KCAP-E3 at 5 nodes should name 6 nodes:\n%s", got)
	}
	for _, e := range field.As(err) {
		if strings.HasPrefix(e.Detail, "KCAP-E3") && e.Path.String() != "NodeGroups[0].MaxNodes" {
			t.Errorf("KCAP-E3 at %s, want NodeGroups[0].MaxNodes", e.Path)
		}
	}
	// KCAP-W1 after api's largest safe maximum of 18, at 4 nodes: its size holds the zones too.
	err, res = explorerShared(t, 18, 4)
	got = joinFindings(err, res)
	t.Log(got)
	if strings.Contains(got, "maximum size to 5 nodes") {
		t.Fatalf("5 nodes fail the zone spread:\n%s", got)
	}
}

// TestW1NeverNamesCurrentSize: with max_nodes 12 already and 3 nodes per zone, KCAP-W1 names the nodes per zone,
// not the size the group has (exploration 10, item 8: e8_w1zones -var=max_nodes=12).
func TestW1NeverNamesCurrentSize(t *testing.T) {
	so := base()
	so.MinReplicaCount, so.MaxReplicaCount = ptr(int64(2)), ptr(int64(60))
	so.TargetWorkload = &Workload{Rollout: &Rollout{Strategy: "RollingUpdate", MaxSurge: ptr("25%")},
		TopologySpread: []SpreadConstraint{{TopologyKey: ZoneKey, MaxSkew: 1, WhenUnsatisfiable: "DoNotSchedule"}},
		PodTemplate:    PodTemplate{Containers: []Container{{Name: "c", Requests: map[string]string{"cpu": "500m", "memory": "256Mi"}}}}}
	so.NodeGroupCapacity = &NodeGroupCapacity{Name: "web", MaxNodes: 12, Zones: []string{"a", "b", "c"}, MaxNodesPerZone: ptr(int64(3)),
		WorkloadAllocatable: Allocatable{CPUMillicores: 3600, MemoryBytes: 16_000_000_000}, WorkloadPods: 50}
	res, err := Plan(so)
	got := strings.Join(asErrs(err), "\n")
	for _, w := range res.Warnings {
		got += "\n" + w.Message
	}
	t.Log(got)
	if !strings.Contains(got, "KCAP-W1") {
		t.Fatalf("want KCAP-W1:\n%s", got)
	}
	if strings.Contains(got, "maximum size to 12 nodes") || !strings.Contains(got, "raise the group's nodes per zone to 4") {
		t.Fatalf("want only the nodes per zone raised, to 4:\n%s", got)
	}
}

// TestPausedPeakRemedy: paused at 20 above a maximum of 10, the peak is the annotation's, and the remedy lowers
// the annotation, not maxReplicaCount (exploration 10, item 2: e9_paused).
func TestPausedPeakRemedy(t *testing.T) {
	plan := func(maximum int64, paused string) string {
		so := base()
		so.MinReplicaCount, so.MaxReplicaCount = ptr(int64(2)), ptr(maximum)
		so.Annotations = map[string]string{AnnotationPausedReplicas: paused}
		so.TargetWorkload = &Workload{Rollout: &Rollout{Strategy: "RollingUpdate", MaxSurge: ptr("0")},
			PodTemplate: PodTemplate{Containers: []Container{{Name: "c", Requests: map[string]string{"cpu": "500m", "memory": "256Mi"}}}}}
		so.NodeGroupCapacity = &NodeGroupCapacity{Name: "web", MaxNodes: 2, Zones: []string{"a"},
			WorkloadAllocatable: Allocatable{CPUMillicores: 3600, MemoryBytes: 16_000_000_000}, WorkloadPods: 50}
		_, err := Plan(so)
		return strings.Join(asErrs(err), "\n")
	}
	got := plan(10, "20")
	t.Log(got)
	if !strings.Contains(got, "paused-replicas annotation holds the target at 20 replicas") ||
		!strings.Contains(got, "lower the autoscaling.keda.sh/paused-replicas annotation to at most 14") ||
		strings.Contains(got, "largest safe maxReplicaCount") {
		t.Fatalf("want the paused count named and lowered to 14:\n%s", got)
	}
	if got := plan(10, "14"); strings.Contains(got, "KCAP-E2") {
		t.Fatalf("paused at 14 still fails:\n%s", got)
	}
}

// TestSharedPausedPeakRemedy: worker paused at 20 above its maximum of 10 (e10_shared -var=worker_paused=20): the
// capacity check says the annotation sets its peak and lowers the annotation, not maxReplicaCount.
func TestSharedPausedPeakRemedy(t *testing.T) {
	err, res := explorerShared(t, 20, 4, AnnotationPausedReplicas, "20")
	got := joinFindings(err, res)
	t.Log(got)
	if !strings.Contains(got, `"shop/worker" is held at 20 replicas by its autoscaling.keda.sh/paused-replicas annotation`) ||
		strings.Contains(got, `maxReplicaCount of "shop/worker", the others unchanged, is`) {
		t.Fatalf("want the paused count named, and no maximum of the worker offered:\n%s", got)
	}
	m := regexp.MustCompile(`lower the autoscaling\.keda\.sh/paused-replicas annotation of "shop/worker" to at most (\d+) and its maxReplicaCount to (\d+)`).FindStringSubmatch(got)
	if m == nil {
		t.Fatalf("want the worker's paused count lowered:\n%s", got)
	}
	if err, res := explorerShared(t, 20, 4, AnnotationPausedReplicas, m[1], m[2]); fires(findingsOf(err, res), "KCAP-E2") {
		t.Fatalf("paused at %s still fails: %s", m[1], joinFindings(err, res))
	}
}

func findingsOf(err error, res *CheckResult) []remedyFinding {
	var out []remedyFinding
	for _, e := range asErrs(err) {
		id, _, _ := strings.Cut(e, ":")
		out = append(out, remedyFinding{id, e})
	}
	return out
}

// TestArgoBlueGreenW1Remedy: an Argo Rollout without its strategy is planned as a blue-green preview (surge =
// replicas): it has no maxSurge to lower, so KCAP-W1 says to give it a canary strategy instead.
func TestArgoBlueGreenW1Remedy(t *testing.T) {
	so := base()
	so.ScaleTargetRef.Kind, so.ScaleTargetRef.APIVersion = ptr("Rollout"), ptr("argoproj.io/v1alpha1")
	so.TargetWorkload = &Workload{Kind: "Rollout", PodTemplate: PodTemplate{Containers: []Container{{Name: "c",
		Requests: map[string]string{"cpu": "500m", "memory": "256Mi"}}}}}
	so.NodeGroupCapacity = &NodeGroupCapacity{Name: "web", MaxNodes: 3,
		WorkloadAllocatable: Allocatable{CPUMillicores: 2500, MemoryBytes: 16_000_000_000}, WorkloadPods: 50}
	res, err := Plan(so)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range res.Warnings {
		t.Logf("%s: %s", w.Code, w.Message)
		if w.Code == "KCAP-W1" && (strings.Contains(w.Message, "lower the rollout's maxSurge") || !strings.Contains(w.Message, "canary strategy with a maxSurge of at most 5")) {
			t.Errorf("KCAP-W1 on a strategy-less Argo Rollout (blue-green preview, no maxSurge) names a maxSurge remedy: %s", w.Message)
		}
	}
}
