package fit

import (
	"strings"
	"testing"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
)

func TestHostPortConflicts(t *testing.T) {
	tests := []struct {
		a, b HostPort
		want bool
	}{
		{HostPort{Port: 443}, HostPort{Port: 443, Protocol: "TCP"}, true},
		{HostPort{Port: 443}, HostPort{Port: 443, Protocol: "UDP"}, false},
		{HostPort{Port: 443}, HostPort{Port: 8443}, false},
		{HostPort{Port: 53, Protocol: "UDP", IP: "10.0.0.1"}, HostPort{Port: 53, Protocol: "UDP", IP: "10.0.0.2"}, false},
		{HostPort{Port: 53, Protocol: "UDP", IP: "10.0.0.1"}, HostPort{Port: 53, Protocol: "UDP"}, true},
		{HostPort{Port: 53, IP: "0.0.0.0"}, HostPort{Port: 53, IP: "10.0.0.9"}, true},
	}
	for _, tt := range tests {
		if got := tt.a.conflicts(tt.b); got != tt.want || tt.b.conflicts(tt.a) != tt.want {
			t.Errorf("%v conflicts %v = %v, want %v (both ways)", tt.a, tt.b, got, tt.want)
		}
	}
}

// TestPlanHostPorts: three pods with host port 443 on a pool of at most two nodes leave one Pending,
// named; a DaemonSet holding the port keeps the workload off its pool; two workloads sharing a port are
// reported.
func TestPlanHostPorts(t *testing.T) {
	w := wl("ingress", 3, 100, 100)
	w.HostPorts = []HostPort{{Port: 443}}
	// The scheduler model (not only the packer) keeps the pods apart.
	res := mustPlan(t, Input{Pools: []Pool{pool("edge", 4000, 8192, 0, 2)}, Workloads: []Workload{w}})
	var msg string
	for _, f := range res.Failures {
		if f.Reason == ReasonHostPort {
			msg = f.Message
		}
	}
	if !strings.Contains(msg, `workload "ingress" asks for host port(s) 443/TCP`) || !strings.Contains(msg, "1 pod(s) stay Pending") {
		t.Errorf("failures %+v, want a host-port failure leaving one pod Pending", res.Failures)
	}
	if res.Fits {
		t.Errorf("fits with 3 host-port pods on 2 nodes")
	}

	ds := DaemonSet{Name: "nginx-ds", Requests: Resources{CPUMillicores: 100}, TakesPodSlot: true, HostPorts: []HostPort{{Port: 443}}}
	w.Replicas, w.MaxReplicas = 1, 1
	res = mustPlan(t, Input{Pools: []Pool{pool("edge", 4000, 8192, 0, 2)}, Workloads: []Workload{w}, DaemonSets: []DaemonSet{ds}, PackingOnly: true})
	found := false
	for _, f := range res.Failures {
		found = found || (f.Reason == ReasonHostPort && strings.Contains(f.Message, `DaemonSet "nginx-ds" takes on every node of pool "edge"`))
	}
	if !found {
		t.Errorf("failures %+v, want the DaemonSet's port named", res.Failures)
	}

	// Two workloads on one port never share a node (NodePorts), in the scheduler model: 2 + 1 pods need 3
	// nodes; on 2 nodes one pod stays Pending.
	w.Replicas, w.MaxReplicas = 2, 2
	other := wl("metrics", 1, 100, 100)
	other.HostPorts = []HostPort{{Port: 443, IP: "10.1.2.3"}}
	res = mustPlan(t, Input{Pools: []Pool{pool("edge", 4000, 8192, 0, 5)}, Workloads: []Workload{w, other}})
	if got := res.Scenarios[0].Pools[0].NodesRequired; got != 3 || !res.Fits {
		t.Errorf("two workloads on port 443: %d nodes (fits %v), want 3", got, res.Fits)
	}
	if res = mustPlan(t, Input{Pools: []Pool{pool("edge", 4000, 8192, 0, 2)}, Workloads: []Workload{w, other}}); res.Fits {
		t.Errorf("two workloads on port 443, 3 pods on 2 nodes: fits")
	}
	// A zone-spread workload with a host port also keeps one pod per node.
	zoned := wl("agent", 4, 100, 100)
	zoned.HostPorts = []HostPort{{Port: 9100}}
	zoned.Spread = Spread{Type: SpreadZone, MaxSkew: 1}
	p := pool("edge", 4000, 8192, 0, 6)
	p.Zones = []string{"a", "b"}
	if res = mustPlan(t, Input{Pools: []Pool{p}, Workloads: []Workload{zoned}}); res.Scenarios[0].Pools[0].NodesRequired != 4 {
		t.Errorf("4 zone-spread pods on one host port: %d nodes, want 4", res.Scenarios[0].Pools[0].NodesRequired)
	}
}

func TestValidateHostPorts(t *testing.T) {
	w := wl("x", 1, 100, 100)
	w.HostPorts = []HostPort{{Port: 0}, {Port: 80, Protocol: "HTTP"}, {Port: 81, IP: "nope"}, {Port: 82}, {Port: 82, Protocol: "TCP"}}
	_, err := Plan(Input{Pools: []Pool{pool("p", 1000, 1000, 0, 1)}, Workloads: []Workload{w}})
	var paths []string
	for _, e := range field.As(err) {
		paths = append(paths, e.Path.String())
	}
	want := "Workloads[0].HostPorts[0].Port Workloads[0].HostPorts[1].Protocol Workloads[0].HostPorts[2].IP Workloads[0].HostPorts[4]"
	if strings.Join(paths, " ") != want {
		t.Errorf("error paths = %v, want %s", paths, want)
	}
}
