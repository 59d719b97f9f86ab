package oracle

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
	corev1 "k8s.io/api/core/v1"
)

// TestSpotLossRealScheduler: kubefit's spot_loss verdict is the real scheduler's. A spot pool of 2 nodes and an
// on-demand pool fixed at 1 node run web (8 pods that may use both) and api (2 pods kept on the on-demand pool);
// losing the spot nodes, the real scheduler leaves as many of their pods Pending on the on-demand node as
// kubefit says, and with the on-demand nodes kubefit's remedy adds, none (one node fewer leaves some).
func TestSpotLossRealScheduler(t *testing.T) {
	spot, onDemand := pool("spot", 4000, 16384), pool("ondemand", 4000, 16384)
	spot.MinNodes, spot.MaxNodes, spot.Weight, spot.CapacityType = 2, 2, 100, fit.CapacitySpot
	onDemand.MinNodes, onDemand.MaxNodes = 1, 1
	web, api := workload("web", 8, 1000, 1024), workload("api", 2, 1000, 1024)
	api.Pools = []string{"ondemand"}
	in := fit.Input{Pools: []fit.Pool{spot, onDemand}, Workloads: []fit.Workload{web, api}, Disruptions: []fit.DisruptionKind{fit.DisruptSpotLoss}}
	res, err := fit.Plan(in)
	if err != nil {
		t.Fatal(err)
	}
	d := res.Disruptions[0]
	pending := 0
	for _, w := range d.Pending {
		pending += w.Pods
	}
	var bump int
	if _, err := fmt.Sscanf(d.Message[strings.Index(d.Message, "With ")+len("With "):], "%d", &bump); err != nil || d.Fits || pending == 0 {
		t.Fatalf("kubefit's spot_loss: %+v (%v)", d, err)
	}
	counts := []int{res.Scenarios[0].Pools[0].NodesRequired, res.Scenarios[0].Pools[1].NodesRequired}
	orders, err := fit.Orders(in, fit.ScenarioSteady)
	if err != nil {
		t.Fatal(err)
	}
	o := orders[0]
	refs, err := fit.Place(in, fit.ScenarioSteady, counts, o)
	if err != nil {
		t.Fatal(err)
	}
	if got := afterSpotLoss(t, in, res, counts, o, refs, 0); got != pending {
		t.Errorf("the real scheduler leaves %d of the spot nodes' pods Pending; kubefit says %d", got, pending)
	}
	if got := afterSpotLoss(t, in, res, counts, o, refs, bump); got != 0 {
		t.Errorf("with the %d more on-demand nodes kubefit's remedy allows, the real scheduler leaves %d Pending", bump, got)
	}
	if bump > 1 {
		if got := afterSpotLoss(t, in, res, counts, o, refs, bump-1); got == 0 {
			t.Errorf("with %d more on-demand nodes the real scheduler binds every pod; kubefit says %d are needed", bump-1, bump)
		}
	}
}

// afterSpotLoss rebuilds the steady placement refs without the spot pool's nodes, plus extra fresh on-demand
// nodes, and lets the real scheduler place the spot nodes' pods; it returns how many stay Pending.
func afterSpotLoss(t *testing.T, in fit.Input, res fit.Result, counts []int, o fit.Order, refs []fit.NodeRef, extra int) int {
	t.Helper()
	full := FromPlan(in, res, fit.ScenarioSteady, []int{counts[0], counts[1] + extra}, o)
	var nodes []*corev1.Node
	for _, n := range full.Nodes {
		if n.Labels[PoolLabel] != "spot" {
			nodes = append(nodes, n)
		}
	}
	var evicted []*corev1.Pod
	for i, pod := range full.Pods {
		if in.Pools[refs[i].Pool].CapacityType == fit.CapacitySpot {
			evicted = append(evicted, pod)
			continue
		}
		bound := pod.DeepCopy()
		bound.Spec.NodeName = fmt.Sprintf("%s-%d", in.Pools[refs[i].Pool].Name, refs[i].Index)
		full.Objects = append(full.Objects, bound)
	}
	got, err := Run(context.Background(), ProfileDefault, Input{Nodes: nodes, Objects: full.Objects, Pods: evicted})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, node := range got {
		if node == "" {
			n++
		}
	}
	return n
}
