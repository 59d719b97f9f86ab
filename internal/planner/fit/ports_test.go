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

	other := wl("metrics", 1, 100, 100)
	other.HostPorts = []HostPort{{Port: 443, IP: "10.1.2.3"}}
	if c := HostPortCaveats([]Workload{w, other}); len(c) != 1 || !strings.Contains(c[0], `"ingress" and "metrics" both ask for host port 443/TCP`) {
		t.Errorf("conflicts = %q", c)
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
