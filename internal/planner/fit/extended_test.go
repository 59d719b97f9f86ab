package fit

import (
	"strings"
	"testing"
)

// TestExtendedResourceNotOffered: a pod requesting an extended resource its pool's nodes do not offer does not fit
// there (the scheduler's NodeResourcesFit: "Insufficient aws.amazon.com/neuron"); before, it was placed on any node.
func TestExtendedResourceNotOffered(t *testing.T) {
	plain := pool("plain", 4000, 16000, 0, 4)
	plain.InstanceType = "m6i.xlarge"
	w := wl("infer", 2, 500, 1000)
	w.Extended = map[string]int64{"aws.amazon.com/neuron": 1}
	res := mustPlan(t, Input{Pools: []Pool{plain}, Workloads: []Workload{w}})
	if res.Fits {
		t.Fatalf("fits on a pool without aws.amazon.com/neuron")
	}
	f, ok := failuresOf(res, ScenarioSteady, "infer")["plain"]
	if !ok || f.Reason != ReasonExtended || !strings.Contains(f.Message, `requests 1 aws.amazon.com/neuron, which a node of pool "plain" (m6i.xlarge) does not offer`) ||
		!strings.Contains(f.Message, "declare on the pool") {
		t.Errorf("failure %+v", f)
	}
	// Too little: a pod requesting 2 on nodes offering 1.
	small := plain
	small.Extended = map[string]int64{"aws.amazon.com/neuron": 1}
	w.Extended = map[string]int64{"aws.amazon.com/neuron": 2}
	res = mustPlan(t, Input{Pools: []Pool{small}, Workloads: []Workload{w}})
	if f := failuresOf(res, ScenarioSteady, "infer")["plain"]; f.Reason != ReasonExtended || !strings.Contains(f.Message, "but its nodes offer 1 aws.amazon.com/neuron") {
		t.Errorf("failure %+v", f)
	}
}

// TestExtendedResourcePerNode: a node holds at most floor(offered / requested) pods by their extended resources,
// though its CPU and memory hold more, in the packing, the scheduler model, the headroom and the messages.
func TestExtendedResourcePerNode(t *testing.T) {
	p := pool("neuron", 8000, 32000, 0, 10)
	p.InstanceType = "inf2.24xlarge"
	p.Extended = map[string]int64{"aws.amazon.com/neuron": 6}
	w := wl("infer", 13, 100, 100)
	w.Extended = map[string]int64{"aws.amazon.com/neuron": 2}
	res := mustPlan(t, Input{Pools: []Pool{p}, Workloads: []Workload{w}})
	pr := poolResult(t, res, ScenarioSteady, "neuron")
	if !res.Fits || pr.NodesRequired != 5 || pr.NodesOptimal != 5 {
		t.Errorf("fits %v, nodes %d (best packing %d); want 5 nodes of 3 pods", res.Fits, pr.NodesRequired, pr.NodesOptimal)
	}
	for _, n := range pr.Nodes {
		if n.Pods > 3 {
			t.Errorf("node holds %d pods, more than its 6 devices hold", n.Pods)
		}
	}
	if len(res.Headroom) != 1 || res.Headroom[0].Replicas != 30-13 {
		t.Errorf("headroom %+v; want 17 (10 nodes × 3 − 13)", res.Headroom)
	}
	p.MaxNodes = 4
	res = mustPlan(t, Input{Pools: []Pool{p}, Workloads: []Workload{w}})
	f := failuresOf(res, ScenarioSteady, "infer")["neuron"]
	if res.Fits || f.Reason != ReasonMaxNodes || !strings.Contains(f.Message, "A node holds at most 3 of its pods by their extended resources (a node offers 6 aws.amazon.com/neuron, a pod requests 2 aws.amazon.com/neuron)") {
		t.Errorf("fits %v, failure %+v", res.Fits, f)
	}
}

// TestExtendedResourceNotShared: pods of two workloads requesting the same extended resource share no node (the
// safe bound: the model does not count devices across workloads), so one node offering 2 devices is not planned
// to hold a pod of each.
func TestExtendedResourceNotShared(t *testing.T) {
	p := pool("mig", 8000, 32000, 0, 1)
	p.Extended = map[string]int64{"nvidia.com/mig-1g.10gb": 2}
	a, b := wl("a", 2, 100, 100), wl("b", 1, 100, 100)
	a.Extended = map[string]int64{"nvidia.com/mig-1g.10gb": 1}
	b.Extended = map[string]int64{"nvidia.com/mig-1g.10gb": 1}
	res := mustPlan(t, Input{Pools: []Pool{p}, Workloads: []Workload{a, b}})
	if res.Fits {
		t.Fatalf("3 pods of 1 device fit on one node of 2")
	}
	// The default profile spreads a's two pods over two nodes, and b may join neither: 3 nodes, where counting
	// devices would bind b beside a's pod (the safe bound's price).
	p.MaxNodes = 4
	res = mustPlan(t, Input{Pools: []Pool{p}, Workloads: []Workload{a, b}})
	if pr := poolResult(t, res, ScenarioSteady, "mig"); !res.Fits || pr.NodesRequired != 3 {
		t.Errorf("fits %v, nodes %d; want 3", res.Fits, pr.NodesRequired)
	}
}

// TestExtendedResourceValidate: the vector's own resources are refused in an extended map, on the entry at fault.
func TestExtendedResourceValidate(t *testing.T) {
	p := pool("p", 4000, 16000, 0, 4)
	p.Extended = map[string]int64{"nvidia.com/gpu": 1, "hugepages-2Mi": -1}
	_, err := Plan(Input{Pools: []Pool{p}, Workloads: []Workload{wl("w", 1, 100, 100)}})
	if err == nil || !strings.Contains(err.Error(), `lists "nvidia.com/gpu" among its extended resources`) ||
		!strings.Contains(err.Error(), "hugepages-2Mi of pool \"p\" is -1") {
		t.Errorf("err %v", err)
	}
}

// TestGPUSharersNamed: when pods requesting no GPU fill an untainted GPU pool and a GPU pod is left without room,
// the failure names them and suggests the nvidia.com/gpu:NoSchedule taint (before: only "raise the maximum node
// count", buying GPU nodes for web pods).
func TestGPUSharersNamed(t *testing.T) {
	gpu := pool("gpu", 3770, 15000, 0, 1)
	gpu.InstanceType = "g5.xlarge"
	gpu.Allocatable.GPU = 1
	web := wl("web", 2, 1500, 1000)
	train := wl("train", 1, 2000, 4000)
	train.Requests.GPU = 1
	res := mustPlan(t, Input{Pools: []Pool{gpu}, Workloads: []Workload{web, train}, Arrival: ArrivalInOrder})
	f, ok := failuresOf(res, ScenarioSteady, "train")["gpu"]
	if !ok || !strings.Contains(f.Message, `Pods of workload "web", which requests no GPU, take room on its GPU nodes: taint the pool nvidia.com/gpu:NoSchedule`) {
		t.Errorf("failure %+v", f)
	}
	if f, ok := failuresOf(res, ScenarioSteady, "web")["gpu"]; ok {
		t.Errorf("web fails too: %+v", f)
	}
}
