package oracle

import (
	"context"
	"strings"
	"testing"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
)

// TestOSPools: a Linux pool beside an untainted Windows pool (AKS's and EKS's default) and a workload that names
// no operating system. The real scheduler does not read a pod's OS: without a node selector on it, it binds pods
// to the Windows nodes (where they never run), which is what sizing warns about. kubefit plans the pods on the
// Linux pool only (fit.ReasonOS on the Windows one), and on its counts the real scheduler, given the node selector
// kubernetes.io/os=linux that keeps it off Windows (FromPlan adds it), leaves no pod Pending.
func TestOSPools(t *testing.T) {
	linux := pool("linux", 4000, 16384, "z1", "z2")
	linux.Labels["kubernetes.io/os"] = "linux"
	win := pool("win", 4000, 16384, "z1", "z2")
	win.Labels["kubernetes.io/os"] = "windows"
	in := fit.Input{Pools: []fit.Pool{linux, win}, Workloads: []fit.Workload{workload("web", 12, 900, 512)}}
	res, err := fit.Plan(in)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Fits {
		t.Fatalf("does not fit: %+v", res.Failures)
	}
	steady := res.Scenarios[0]
	counts := []int{steady.Pools[0].NodesRequired, steady.Pools[1].NodesRequired}
	for _, pl := range steady.Placements {
		for _, pp := range pl.Pools {
			if pp.Pool == "win" && pp.Pods > 0 {
				t.Errorf("kubefit places %d Linux pods on the Windows pool", pp.Pods)
			}
		}
	}
	if counts[1] != 0 {
		t.Errorf("kubefit plans %d Windows nodes for Linux pods, want 0", counts[1])
	}
	o := fit.Order{Pods: make([]int, 12)}
	if n := real(t, in, res, counts, o); n != 0 {
		t.Errorf("on kubefit's counts %v the real scheduler leaves %d pods Pending", counts, n)
	}
	// Without the OS selector the real scheduler binds some of them to Windows nodes.
	ci := FromPlan(in, res, fit.ScenarioSteady, []int{counts[0], 2}, o)
	for _, p := range ci.Pods {
		delete(p.Spec.NodeSelector, "kubernetes.io/os")
	}
	got, err := Run(context.Background(), ProfileDefault, ci)
	if err != nil {
		t.Fatal(err)
	}
	onWin := 0
	for _, node := range got {
		if strings.HasPrefix(node, "win-") {
			onWin++
		}
	}
	if onWin == 0 {
		t.Errorf("the real scheduler kept every pod without an OS selector off the empty Windows nodes: %v", got)
	}
}
