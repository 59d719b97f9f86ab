package oracle

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
	corev1 "k8s.io/api/core/v1"
)

// TestNodeLossRealScheduler: kubefit's node_loss verdict on the 2-shard × 3-replica ClickHouse (hostname
// anti-affinity per shard, a zonal block volume per replica, 3 nodes over 3 zones) is the real scheduler's:
// the lost node's two replicas stay Pending on the surviving nodes (their volumes' zone has no other node,
// and each surviving node already runs a replica of each shard); with the fourth node kubefit's remedy
// allows (max 4: a node in the lost node's zone) both bind.
func TestNodeLossRealScheduler(t *testing.T) {
	p := pool("db", 7900, 30000, "zone-a", "zone-b", "zone-c")
	p.MinNodes, p.MaxNodes, p.Allocatable.Volumes = 3, 3, 24
	in := fit.Input{Pools: []fit.Pool{p}, Disruptions: []fit.DisruptionKind{fit.DisruptNodeLoss}}
	for _, s := range []string{"shard0", "shard1"} {
		w := workload(s, 3, 2000, 8192)
		w.Spread = fit.Spread{Type: fit.SpreadNode}
		w.VolumeClaims = []fit.VolumeClaim{{Name: "data", AccessModes: []fit.AccessMode{fit.ReadWriteOnce}}}
		in.Workloads = append(in.Workloads, w)
	}
	res, err := fit.Plan(in)
	if err != nil {
		t.Fatal(err)
	}
	d := res.Disruptions[0]
	pending := 0
	for _, w := range d.Pending {
		pending += w.Pods
	}
	if d.Fits || pending != 2 || d.Zone == "" {
		t.Fatalf("kubefit's node_loss: %+v", d)
	}
	orders, err := fit.Orders(in, fit.ScenarioSteady)
	if err != nil {
		t.Fatal(err)
	}
	o := orders[0]
	refs, err := fit.Place(in, fit.ScenarioSteady, []int{3}, o)
	if err != nil {
		t.Fatal(err)
	}
	for _, extra := range []int{0, 1} {
		got := afterNodeLoss(t, in, res, o, refs, d.Zone, extra)
		want := pending
		if extra > 0 {
			want = 0
		}
		if got != want {
			t.Errorf("with %d new node(s) in zone %s: the real scheduler leaves %d evicted pods Pending, kubefit %d", extra, d.Zone, got, want)
		}
	}
}

// afterNodeLoss rebuilds the steady placement refs without the node in zone lost (the pool has one node per
// zone), plus extra fresh nodes in that zone, with every volume bound in its pod's zone, and lets the real
// scheduler place the lost node's pods; it returns how many stay Pending.
func afterNodeLoss(t *testing.T, in fit.Input, res fit.Result, o fit.Order, refs []fit.NodeRef, lost string, extra int) int {
	t.Helper()
	full := FromPlan(in, res, fit.ScenarioSteady, []int{3 + extra}, o)
	zoneOf := map[string]string{}
	var nodes []*corev1.Node
	lostNode := ""
	for i, n := range full.Nodes {
		z := n.Labels[corev1.LabelTopologyZone]
		if i >= 3 {
			// the fresh nodes go to the lost zone, as the autoscaling group rebalances
			n.Labels[corev1.LabelTopologyZone] = lost
			z = lost
		}
		zoneOf[n.Name] = z
		if i < 3 && z == lost {
			lostNode = n.Name
			continue
		}
		nodes = append(nodes, n)
	}
	var evicted []*corev1.Pod
	podZone := map[string]string{}
	for i, pod := range full.Pods {
		node := fmt.Sprintf("%s-%d", in.Pools[0].Name, refs[i].Index)
		podZone[pod.Name] = zoneOf[node]
		if node == lostNode {
			evicted = append(evicted, pod)
			continue
		}
		bound := pod.DeepCopy()
		bound.Spec.NodeName = node
		full.Objects = append(full.Objects, bound)
	}
	for _, obj := range full.Objects {
		pv, ok := obj.(*corev1.PersistentVolume)
		if !ok {
			continue
		}
		pod := pv.Spec.ClaimRef.Name[len("data-"):]
		pv.Spec.NodeAffinity = &corev1.VolumeNodeAffinity{Required: &corev1.NodeSelector{NodeSelectorTerms: []corev1.NodeSelectorTerm{{
			MatchExpressions: []corev1.NodeSelectorRequirement{{Key: corev1.LabelTopologyZone, Operator: corev1.NodeSelectorOpIn, Values: []string{podZone[pod]}}}}}}}
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

// TestZoneLossRealScheduler: kubefit's zone_loss verdict for a zone-spread workload (6 pods, max skew 1, over 3
// nodes in 3 zones with room for all 6 on any two) is the real scheduler's when the lost zone's node stays in the
// cluster, tainted node.kubernetes.io/unreachable (NoSchedule and NoExecute) as the node lifecycle controller
// leaves it in an outage: with the zone spread shorthand (nodeTaintsPolicy Ignore) the evicted pods stay Pending,
// the empty zone still counting; with nodeTaintsPolicy Honor they bind on the other zones.
func TestZoneLossRealScheduler(t *testing.T) {
	for _, tc := range []struct {
		name  string
		honor bool
	}{{"zone spread shorthand (Ignore)", false}, {"nodeTaintsPolicy Honor", true}} {
		p := pool("general", 4000, 16384, "zone-a", "zone-b", "zone-c")
		p.MinNodes, p.MaxNodes = 3, 3
		w := workload("web", 6, 500, 512)
		if tc.honor {
			w.Labels = map[string]string{"app": "web"}
			w.TopologySpread = []fit.TopologySpreadConstraint{{MaxSkew: 1, TopologyKey: corev1.LabelTopologyZone, WhenUnsatisfiable: fit.DoNotSchedule,
				NodeTaintsPolicy: fit.PolicyHonor, Selector: fit.LabelSelector{MatchLabels: map[string]string{"app": "web"}}}}
		} else {
			w.Spread = fit.Spread{Type: fit.SpreadZone, MaxSkew: 1}
		}
		in := fit.Input{Pools: []fit.Pool{p}, Disruptions: []fit.DisruptionKind{fit.DisruptZoneLoss}, Workloads: []fit.Workload{w}}
		res, o, refs := planSteady(t, in, []int{3})
		for _, d := range res.Disruptions {
			kubefit := 0
			for _, wc := range d.Pending {
				kubefit += wc.Pods
			}
			real, evicted := pendingWithLostNodes(t, in, res, o, refs, []int{3}, func(n *corev1.Node) bool {
				return n.Labels[corev1.LabelTopologyZone] == d.Zone
			})
			t.Logf("%s, zone %s lost: %d evicted; Pending: real scheduler %d, kubefit %d", tc.name, d.Zone, evicted, real, kubefit)
			if evicted == 0 || real != kubefit || d.Fits != (real == 0) {
				t.Errorf("%s, zone %s lost: the real scheduler leaves %d of %d evicted pods Pending, kubefit %d (fits %v)", tc.name, d.Zone, real, evicted, kubefit, d.Fits)
			}
		}
	}
}

// pendingWithLostNodes rebuilds the steady placement refs on counts nodes, taints the nodes lost says are lost
// node.kubernetes.io/unreachable (NoSchedule and NoExecute), as the node lifecycle controller leaves a node that
// stops reporting, and lets the real scheduler place their pods (terminating, so left out of the bound ones): it
// returns how many stay Pending, and how many were evicted.
func pendingWithLostNodes(t *testing.T, in fit.Input, res fit.Result, o fit.Order, refs []fit.NodeRef, counts []int, lost func(*corev1.Node) bool) (pending, evicted int) {
	t.Helper()
	full := FromPlan(in, res, fit.ScenarioSteady, counts, o)
	gone := map[string]bool{}
	for _, n := range full.Nodes {
		if lost(n) {
			gone[n.Name] = true
			n.Spec.Taints = append(n.Spec.Taints,
				corev1.Taint{Key: corev1.TaintNodeUnreachable, Effect: corev1.TaintEffectNoSchedule},
				corev1.Taint{Key: corev1.TaintNodeUnreachable, Effect: corev1.TaintEffectNoExecute})
		}
	}
	var pods []*corev1.Pod
	for i, pod := range full.Pods {
		node := fmt.Sprintf("%s-%d", in.Pools[refs[i].Pool].Name, refs[i].Index)
		if gone[node] {
			pods = append(pods, pod)
			continue
		}
		bound := pod.DeepCopy()
		bound.Spec.NodeName = node
		full.Objects = append(full.Objects, bound)
	}
	got, err := Run(context.Background(), ProfileDefault, Input{Nodes: full.Nodes, Objects: full.Objects, Pods: pods})
	if err != nil {
		t.Fatal(err)
	}
	for _, node := range got {
		if node == "" {
			pending++
		}
	}
	return pending, len(pods)
}

// TestNodeLossHungRealScheduler: kubefit's node_loss verdict for a workload spread over nodes by a topology spread
// constraint (8 pods, max skew 1 on the hostname, 4 nodes at the pool's maximum) is the real scheduler's when the
// lost node hangs: it stays in the cluster, tainted unreachable, and with nodeTaintsPolicy Ignore (the default)
// counts as a node holding none of the pods, so the surviving nodes, 2 pods each, take none of the 2 evicted; with
// Honor they take them. (Were the node deleted, both would bind either way: the minimum would be 2.)
func TestNodeLossHungRealScheduler(t *testing.T) {
	for _, honor := range []bool{false, true} {
		p := pool("general", 4000, 16384, "zone-a")
		p.MinNodes, p.MaxNodes = 4, 4
		w := workload("web", 8, 500, 512)
		w.Labels = map[string]string{"app": "web"}
		tsc := fit.TopologySpreadConstraint{MaxSkew: 1, TopologyKey: corev1.LabelHostname, WhenUnsatisfiable: fit.DoNotSchedule,
			Selector: fit.LabelSelector{MatchLabels: map[string]string{"app": "web"}}}
		if honor {
			tsc.NodeTaintsPolicy = fit.PolicyHonor
		}
		w.TopologySpread = []fit.TopologySpreadConstraint{tsc}
		in := fit.Input{Pools: []fit.Pool{p}, Disruptions: []fit.DisruptionKind{fit.DisruptNodeLoss}, Workloads: []fit.Workload{w}}
		res, o, refs := planSteady(t, in, []int{4})
		d := res.Disruptions[0]
		kubefit := 0
		for _, wc := range d.Pending {
			kubefit += wc.Pods
		}
		// kubefit loses the busiest node, the first on a tie: node 1, named with its 0-based index.
		if !strings.HasPrefix(d.Lost, "node 1 of") {
			t.Fatalf("kubefit lost %s, want node 1", d.Lost)
		}
		lostName := fmt.Sprintf("%s-%d", p.Name, 0)
		real, evicted := pendingWithLostNodes(t, in, res, o, refs, []int{4}, func(n *corev1.Node) bool { return n.Name == lostName })
		t.Logf("honor %v, %s lost: %d evicted; Pending: real scheduler %d, kubefit %d", honor, d.Lost, evicted, real, kubefit)
		if evicted != 2 || real != kubefit || d.Fits != (real == 0) || d.Fits != honor {
			t.Errorf("honor %v, %s lost: the real scheduler leaves %d of %d evicted pods Pending, kubefit %d (fits %v)", honor, d.Lost, real, evicted, kubefit, d.Fits)
		}
	}
}

// planSteady plans in and places its steady scenario's first order on counts nodes per pool, as the disruption
// replays start from.
func planSteady(t *testing.T, in fit.Input, counts []int) (fit.Result, fit.Order, []fit.NodeRef) {
	t.Helper()
	res, err := fit.Plan(in)
	if err != nil {
		t.Fatal(err)
	}
	orders, err := fit.Orders(in, fit.ScenarioSteady)
	if err != nil {
		t.Fatal(err)
	}
	refs, err := fit.Place(in, fit.ScenarioSteady, counts, orders[0])
	if err != nil {
		t.Fatal(err)
	}
	return res, orders[0], refs
}
