package fit

import (
	"net/netip"
	"sort"
	"strconv"
	"strings"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
)

// HostPort is a port a pod takes on its node (a container's hostPort, or every container port under host
// networking), as the NodePorts filter sees it.
type HostPort struct {
	Port int
	// Protocol is "TCP" (the default when empty), "UDP" or "SCTP".
	Protocol string
	// IP is the host IP the port is bound to; empty means every address (0.0.0.0).
	IP string
}

// HostPortProtocols lists the protocols a host port may use.
var HostPortProtocols = []string{"TCP", "UDP", "SCTP"}

func (h HostPort) protocol() string {
	if h.Protocol == "" {
		return "TCP"
	}
	return h.Protocol
}

func (h HostPort) ip() string {
	if h.IP == "" || h.IP == "::" {
		return "0.0.0.0"
	}
	return h.IP
}

// String renders the port as "443/TCP", or "10.0.0.1:53/UDP" when bound to one address.
func (h HostPort) String() string {
	s := strconv.Itoa(h.Port) + "/" + h.protocol()
	if h.ip() != "0.0.0.0" {
		s = h.IP + ":" + s
	}
	return s
}

// conflicts reports whether two host ports cannot be on one node, as the NodePorts plugin decides: the
// same port and protocol, on the same address or one of them on every address.
func (h HostPort) conflicts(o HostPort) bool {
	if h.Port != o.Port || h.protocol() != o.protocol() {
		return false
	}
	return h.ip() == o.ip() || h.ip() == "0.0.0.0" || o.ip() == "0.0.0.0"
}

// portConflict returns the first pair of conflicting ports of a and b, or false.
func portConflict(a, b []HostPort) (HostPort, bool) {
	for _, x := range a {
		for _, y := range b {
			if x.conflicts(y) {
				return x, true
			}
		}
	}
	return HostPort{}, false
}

// effectiveSpread is the workload's spread as the packer and the scheduler model apply it: a workload
// with host ports puts at most one pod on a node, since two of its pods would ask for the same port.
func (w *Workload) effectiveSpread() SpreadType {
	if len(w.HostPorts) > 0 && (w.Spread.Type == "" || w.Spread.Type == SpreadNone) {
		return SpreadNode
	}
	return w.Spread.Type
}

// daemonSetPortConflict names a DaemonSet landing on the pool whose host ports the workload's conflict
// with (every node of the pool runs that DaemonSet's pod), or "".
func daemonSetPortConflict(in *Input, w *Workload, p *Pool) (string, HostPort) {
	if len(w.HostPorts) == 0 {
		return "", HostPort{}
	}
	for i := range in.DaemonSets {
		d := &in.DaemonSets[i]
		if !daemonSetMatches(d, p) {
			continue
		}
		if hp, ok := portConflict(w.HostPorts, d.HostPorts); ok {
			return d.Name, hp
		}
	}
	return "", HostPort{}
}

func describePorts(ps []HostPort) string {
	s := make([]string, len(ps))
	for i, p := range ps {
		s[i] = p.String()
	}
	sort.Strings(s)
	return strings.Join(s, ", ")
}

// hostPorts checks host ports as the API server does: a port in 1–65535, a known protocol, an IP address
// or none, no port listed twice.
func (v *validator) hostPorts(f field.Path, owner string, ps []HostPort) {
	seen := map[string]bool{}
	for i, p := range ps {
		pf := f.Child("HostPorts").At(i)
		if p.Port < 1 || p.Port > 65535 {
			v.add(pf.Child("Port"), itoa(p.Port), "host port %d of %s is outside 1–65535", p.Port, owner)
		}
		known := p.Protocol == ""
		for _, k := range HostPortProtocols {
			known = known || p.Protocol == k
		}
		if !known {
			v.add(pf.Child("Protocol"), p.Protocol, "protocol %s of host port %d of %s must be one of %s", field.Quote(p.Protocol), p.Port, owner,
				field.QuoteList(HostPortProtocols))
		}
		if p.IP != "" {
			if _, err := netip.ParseAddr(p.IP); err != nil {
				v.add(pf.Child("IP"), p.IP, "host IP %s of host port %d of %s is not an IP address", field.Quote(p.IP), p.Port, owner)
			}
		}
		if seen[p.String()] {
			v.add(pf, p.String(), "%s lists host port %s twice", owner, p)
		}
		seen[p.String()] = true
	}
}
