package nodegroup

import (
	"fmt"
	"strings"
	"testing"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/overhead"
)

// TestKarpenterKubeletInNodeClass: Karpenter v1 takes max pods, reservations and eviction thresholds from the
// EC2NodeClass, not the NodePool, so a group planned with them renders the EC2NodeClass's spec.kubelet, and a group
// whose nodes Karpenter launches warns that the plan holds only once the class carries it. Before, the NodePool
// alone was rendered and nothing was said: a group planned at 110 pods per node got nodes of 58 (c5.xlarge's ENI
// limit) and the reservations of that count.
func TestKarpenterKubeletInNodeClass(t *testing.T) {
	render := func(t *testing.T, req Request) Rendered {
		t.Helper()
		_, out := sizeRender(t, req)
		return out
	}
	mem := int64(500 << 20)
	custom := func(kind overhead.NodeGroupKind) Request {
		req := phpGroup(nil)
		req.Pool.Overhead.EKS.Kind = kind
		req.Pool.Overhead.EKS.PrefixDelegation = true
		req.Pool.Overhead.MaxPods = 110
		req.Pool.Overhead.KubeReserved.MemoryBytes = &mem
		req.NodeClassName = "web-class"
		return req
	}

	out := render(t, custom(overhead.Karpenter))
	if got := fmt.Sprint(out.KarpenterKubelet); got != "map[kubeReserved:map[memory:500Mi] maxPods:110]" {
		t.Errorf("kubelet block = %s, want maxPods 110 and the kube-reserved memory given (Karpenter fills the other keys)", got)
	}
	var warned string
	for _, w := range out.Warnings {
		if w.Code == WarnKarpenterKubelet {
			warned = w.Message
		}
	}
	for _, want := range []string{"maxPods 110", "kubeReserved", `"web-class"`, "spec.kubelet", "does not hold"} {
		if !strings.Contains(warned, want) {
			t.Errorf("warning %q lacks %q", warned, want)
		}
	}

	// A managed group renders the block for its NodePool too, without the warning: its nodes are the managed
	// group's (the launch template carries the settings).
	out = render(t, custom(overhead.Managed))
	if out.KarpenterKubelet == nil || hasCode(out.Warnings, WarnKarpenterKubelet) {
		t.Errorf("managed group: kubelet block %v, warnings %+v", out.KarpenterKubelet, out.Warnings)
	}

	// The whole hard-eviction map: a partial evictionHard leaves the kubelet's other signals unset.
	req := phpGroup(nil)
	req.Pool.Overhead.EKS.Kind = overhead.Karpenter
	req.Pool.Overhead.EvictionHard = map[string]overhead.Threshold{overhead.SignalMemory: {Bytes: mem}}
	ev, _ := render(t, req).KarpenterKubelet["evictionHard"].(map[string]any)
	if ev["memory.available"] != "500Mi" || ev["nodefs.available"] == nil || ev["imagefs.available"] == nil {
		t.Errorf("evictionHard = %v, want memory.available 500Mi beside the kubelet's other signals", ev)
	}

	// A maxPodsExpression planned with: Karpenter's own kubelet maxPods ranks above it, so the block carries the count.
	expr := phpGroup(nil)
	expr.Pool.Overhead.EKS.Kind = overhead.Karpenter
	expr.Pool.Overhead.EKS.PrefixDelegation = true
	expr.Pool.Overhead.EKS.MaxPodsExpressionResult = 90
	if out := render(t, expr); fmt.Sprint(out.KarpenterKubelet) != "map[maxPods:90]" || !hasCode(out.Warnings, WarnKarpenterKubelet) {
		t.Errorf("maxPodsExpression 90: kubelet block %v, warnings %+v", out.KarpenterKubelet, out.Warnings)
	}

	// No custom setting, or EKS Auto Mode's NodeClass (no kubelet block): nothing rendered, nothing said.
	plain := phpGroup(nil)
	plain.Pool.Overhead.EKS.Kind = overhead.Karpenter
	if out := render(t, plain); out.KarpenterKubelet != nil || hasCode(out.Warnings, WarnKarpenterKubelet) {
		t.Errorf("group without kubelet settings: block %v, warnings %+v", out.KarpenterKubelet, out.Warnings)
	}
}

// TestKarpenterWindowsNodePool: a Windows group's NodePool requires kubernetes.io/os windows, as Karpenter's Windows
// example does, since Karpenter takes a node's OS from the EC2NodeClass (getOS); a Karpenter-launched Windows group
// warns, on its node class, that the class must select a Windows AMI. Linux groups get neither.
func TestKarpenterWindowsNodePool(t *testing.T) {
	osReq := func(np map[string]any) string {
		spec := np["spec"].(map[string]any)["template"].(map[string]any)["spec"].(map[string]any)
		for _, r := range spec["requirements"].([]any) {
			if m := r.(map[string]any); m["key"] == "kubernetes.io/os" {
				return fmt.Sprint(m["operator"], m["values"])
			}
		}
		return ""
	}
	for _, tc := range []struct {
		profile overhead.Profile
		kind    overhead.NodeGroupKind
		wantReq string
		warn    bool
	}{
		{overhead.EKSWindows, overhead.Karpenter, "In[windows]", true},
		{overhead.EKSWindows, overhead.Managed, "In[windows]", false},
		{overhead.EKSAL2023, overhead.Karpenter, "", false},
	} {
		req := phpGroup(nil)
		req.Pool.Overhead.Profile, req.Pool.Overhead.EKS.Kind = tc.profile, tc.kind
		req.Pool.Overhead.MaxPods = 0
		_, out := sizeRender(t, req)
		if got := osReq(out.KarpenterNodePool); got != tc.wantReq {
			t.Errorf("%s %s: kubernetes.io/os requirement %q, want %q", tc.profile, tc.kind, got, tc.wantReq)
		}
		warned := false
		for _, w := range out.Warnings {
			if w.Code == WarnKarpenterWindowsClass && w.Path.String() == "NodeClassName" && strings.Contains(w.Message, "windows2022@latest") {
				warned = true
			}
		}
		if warned != tc.warn {
			t.Errorf("%s %s: warned %v, want %v: %+v", tc.profile, tc.kind, warned, tc.warn, out.Warnings)
		}
	}
}
