package keda

import (
	"math"
	"strings"
	"testing"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/resource"
)

// TestDNSAutoscalerReplicas: the linear ladder of the cluster-proportional-autoscaler (dns.md §3), with the
// published defaults (256 cores, 16 nodes per replica, min 1, preventSinglePointFailure) and with others.
func TestDNSAutoscalerReplicas(t *testing.T) {
	i := func(n int64) *int64 { return &n }
	no := false
	for _, tt := range []struct {
		name         string
		a            DNSAutoscaler
		nodes, cores int64
		want         int64
	}{
		{"one node", DNSAutoscaler{}, 1, 4, 1},
		{"two nodes: no single point of failure", DNSAutoscaler{}, 2, 8, 2},
		{"two nodes, single point allowed", DNSAutoscaler{PreventSinglePointFailure: &no}, 2, 8, 1},
		{"nodes bind: ceil(40 / 16)", DNSAutoscaler{}, 40, 160, 3},
		{"cores bind: ceil(1,000 / 256)", DNSAutoscaler{}, 10, 1000, 4},
		{"max", DNSAutoscaler{Max: i(3)}, 100, 400, 3},
		{"min", DNSAutoscaler{Min: i(4)}, 3, 12, 4},
		{"nodes only", DNSAutoscaler{CoresPerReplica: i(0), NodesPerReplica: i(8)}, 17, 5000, 3},
		{"cores only", DNSAutoscaler{NodesPerReplica: i(0), CoresPerReplica: i(64)}, 100, 65, 2},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.a.Replicas(tt.nodes, tt.cores); got != tt.want {
				t.Errorf("Replicas(%d nodes, %d cores) = %d, want %d", tt.nodes, tt.cores, got, tt.want)
			}
		})
	}
}

// dnsCheck is 100 pods at peak (no surge) each making lookups external lookups per second, on a node group
// whose nodes take 3 pods each: 34 nodes at peak.
func dnsCheck(lookups float64, d DNS) Check {
	return Check{ScaledObjects: []Summary{{Namespace: "shop", Name: "api", HPAName: "keda-hpa-api", TargetName: "api", PeakReplicas: 100,
		PodRequests: &resource.List{CPUMillicores: 500, MemoryBytes: 256 << 20, Pods: 1}, DNSLookupsPerSecond: &lookups, NodeGroup: "g"}},
		NodeGroups: []NodeGroupCapacity{{Name: "g", MaxNodes: 50, WorkloadAllocatable: Allocatable{CPUMillicores: 1930, MemoryBytes: 8 << 30}, WorkloadPods: 29}},
		DNS:        &d}
}

// TestDNSCeilings: the CoreDNS and resolver loads follow dns.md §1 and §4 from the lookups at peak, and the
// check names the ceiling nearer to its limit, fails above it with its remedies, and warns above 80 %.
func TestDNSCeilings(t *testing.T) {
	const pods = 100
	for _, tt := range []struct {
		name          string
		lookups       float64
		dns           DNS
		core, up      float64 // queries to CoreDNS and packets to the resolver per lookup
		binding, code string
		remedy        string
	}{
		// 20 lookups: 2,000/s × 10 = 20,000 queries against 2 × 5,000; 2,000 × 4 = 8,000 packets against 2,048.
		{"defaults: the resolver binds", 20, DNS{}, 10, 4, CeilingResolver, "KCAP-E7", "NodeLocal DNSCache: CoreDNS then gets only the cluster.local queries it misses (12,000 per second with no hits), and each node sends its own upstream queries"},
		// NodeLocal: the resolver budget is 34 nodes × 1,024; CoreDNS gets 6 cluster.local queries per lookup.
		{"NodeLocal: CoreDNS binds", 20, DNS{NodeLocalDNSCache: true}, 6, 4, CeilingCoreDNS, "KCAP-E7", "run at least 3 CoreDNS replicas"},
		// Half the cluster.local queries answered on the node: 2,000 × 3 = 6,000 against 10,000 (60 %).
		{"NodeLocal hits: within", 20, DNS{NodeLocalDNSCache: true, NodeLocalHitRatio: 0.5}, 3, 4, CeilingCoreDNS, "", ""},
		// The ladder at 34 nodes with 8 nodes per replica: 5 replicas, 25,000 queries per second.
		{"ladder", 20, DNS{NodeLocalDNSCache: true, Autoscaler: &DNSAutoscaler{NodesPerReplica: ptr(int64(8))}}, 6, 4, CeilingCoreDNS, "", ""},
		// Fully qualified names: 2 queries each, both forwarded; 2,000 × 2 = 4,000 against 2,048 packets.
		{"fully qualified", 20, DNS{FullyQualified: true}, 2, 2, CeilingResolver, "KCAP-E7", "CoreDNS on at least 5 nodes"},
		// 1,700 packets against 2,048 (83 %): a warning; CoreDNS at 4,250 of 10,000.
		{"warning", 4.25, DNS{}, 10, 4, CeilingResolver, "KCAP-W4", "NodeLocal DNSCache"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res, err := CheckAll(dnsCheck(tt.lookups, tt.dns))
			r := res.DNS
			if r == nil {
				t.Fatalf("no DNS result (%v)", err)
			}
			lookups := pods * tt.lookups
			if math.Abs(r.CoreDNSQPS-lookups*tt.core) > 1e-6 || math.Abs(r.ResolverPPS-lookups*tt.up) > 1e-6 {
				t.Errorf("CoreDNS %v queries, resolver %v packets; want %v and %v", r.CoreDNSQPS, r.ResolverPPS, lookups*tt.core, lookups*tt.up)
			}
			uCore, uRes := r.CoreDNSQPS/r.CoreDNSCapacity, r.ResolverPPS/r.ResolverBudget
			if want := max(uCore, uRes); r.Binding != tt.binding || r.Utilization != want {
				t.Errorf("binding %s at %v, want %s at %v (CoreDNS %v, resolver %v)", r.Binding, r.Utilization, tt.binding, want, uCore, uRes)
			}
			e, w := codes(err, res.Warnings)
			msg := ""
			if err != nil {
				msg = err.Error()
			}
			for _, x := range res.Warnings {
				if x.Code == "KCAP-W4" {
					msg = x.Message
				}
			}
			switch {
			case tt.code == "" && (has(e, "KCAP-E7") || has(w, "KCAP-W4")):
				t.Fatalf("a finding where none is due: %s", msg)
			case tt.code == "KCAP-E7" && !has(e, tt.code), tt.code == "KCAP-W4" && (!has(w, tt.code) || has(e, "KCAP-E7")):
				t.Fatalf("want %s, got errors %v, warnings %v", tt.code, e, w)
			}
			name := map[string]string{CeilingResolver: "the VPC resolver", CeilingCoreDNS: "CoreDNS"}[tt.binding]
			if tt.code != "" && (!strings.Contains(msg, "at peak "+name+" is the binding DNS ceiling") || !strings.Contains(msg, tt.remedy)) {
				t.Errorf("the finding does not name %s as binding or lacks %q: %s", name, tt.remedy, msg)
			}
		})
	}
}

// TestDNSInvalid: shares outside [0, 1), a NodeLocal hit ratio without NodeLocal DNSCache, and a fixed replica
// count beside the ladder are refused on their fields.
func TestDNSInvalid(t *testing.T) {
	for _, tt := range []struct {
		dns  DNS
		path string
	}{
		{DNS{CacheHitRatio: 1}, "DNS.CacheHitRatio"},
		{DNS{NodeLocalHitRatio: 0.5}, "DNS.NodeLocalHitRatio"},
		{DNS{CoreDNSReplicas: 3, Autoscaler: &DNSAutoscaler{}}, "DNS.CoreDNSReplicas"},
		{DNS{Autoscaler: &DNSAutoscaler{CoresPerReplica: ptr(int64(0)), NodesPerReplica: ptr(int64(0))}}, "DNS.Autoscaler.NodesPerReplica"},
		{DNS{Autoscaler: &DNSAutoscaler{Min: ptr(int64(-1))}}, "DNS.Autoscaler.Min"},
		{DNS{Autoscaler: &DNSAutoscaler{Min: ptr(int64(3)), Max: ptr(int64(2))}}, "DNS.Autoscaler.Max"},
		{DNS{QueriesPerReplica: -1}, "DNS.QueriesPerReplica"},
		{DNS{OtherQueries: math.Inf(1)}, "DNS.OtherQueries"},
	} {
		_, err := CheckAll(dnsCheck(1, tt.dns))
		if !strings.Contains(strings.Join(paths(err), " "), tt.path) {
			t.Errorf("%+v: errors at %v, want one at %s", tt.dns, paths(err), tt.path)
		}
	}
}

// TestDNSResolverUncheckedWarns: with NodeLocal DNSCache each node sends its own upstream queries; a check without
// node groups cannot count them, so it warns (KCAP-W6) that the resolver's ceiling is not checked instead of
// passing it silently at a budget of 0.
func TestDNSResolverUncheckedWarns(t *testing.T) {
	lookups := 10.0
	in := Check{ScaledObjects: []Summary{{Namespace: "shop", Name: "a", HPAName: "keda-hpa-a", TargetName: "a", PeakReplicas: 10, Surge: 2,
		DNSLookupsPerSecond: &lookups}}, DNS: &DNS{NodeLocalDNSCache: true, CoreDNSReplicas: 1, CacheHitRatio: 0.25}}
	res, err := CheckAll(in)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, w := range res.Warnings {
		if w.Code == "KCAP-W6" {
			found = strings.Contains(w.Message, "the 360 packets per second at peak are not checked") && strings.Contains(w.Message, "at least 1 node)")
			if !found {
				t.Errorf("message: %s", w.Message)
			}
		}
	}
	if !found || res.DNS == nil || res.DNS.ResolverPPS != 360 {
		t.Fatalf("warnings %v, dns %+v: want KCAP-W6 for 360 packets per second", res.Warnings, res.DNS)
	}
}
