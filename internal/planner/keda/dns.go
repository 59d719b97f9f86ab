package keda

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
)

// DNS describes how pods' external lookups reach CoreDNS and the AWS VPC resolver (dns.md).
type DNS struct {
	// NodeLocalDNSCache means every node runs NodeLocal DNSCache: it answers what it has cached, sends the
	// cluster.local names it misses to CoreDNS and every other name to the VPC resolver itself (dns.md §4).
	NodeLocalDNSCache bool
	// CoreDNSNodes is the number of nodes running CoreDNS, each sending its upstream queries through its own
	// network interface; 0 means min(2, CoreDNS replicas).
	CoreDNSNodes int64
	// CacheHitRatio is the share of external lookups answered from a cache before the VPC resolver (0–1).
	CacheHitRatio float64
	// FullyQualified means the names end in "." (2 queries per lookup instead of 10, dns.md §1).
	FullyQualified bool
	// CoreDNSReplicas is a fixed CoreDNS replica count; 0 means the Autoscaler's ladder when it is set, else
	// DefaultCoreDNSReplicas.
	CoreDNSReplicas int64
	// Autoscaler is the cluster-proportional-autoscaler's linear ladder scaling CoreDNS (dns.md §3); nil when
	// CoreDNS is not autoscaled.
	Autoscaler *DNSAutoscaler
	// QueriesPerReplica is the queries per second one CoreDNS replica answers; 0 means
	// DefaultQueriesPerReplica, an assumption the user should replace with a measured figure (dns.md §2).
	QueriesPerReplica float64
	// NodeLocalHitRatio is the share of the cluster.local queries NodeLocal DNSCache answers from its cache,
	// so that they never reach CoreDNS (0–1; only with NodeLocalDNSCache). No published figure: default 0.
	NodeLocalHitRatio float64
	// OtherQueries is the queries per second CoreDNS gets from everything else (in-cluster service lookups,
	// workloads not in the check); default 0.
	OtherQueries float64
}

// DNSAutoscaler is the linear mode of the cluster-proportional-autoscaler (dns.md §3). Nil pointers take the
// published defaults of Kubernetes' DNS autoscaling example.
type DNSAutoscaler struct {
	// CoresPerReplica and NodesPerReplica: one replica per so many cores and nodes (0: that term is not used;
	// nil: 256 and 16).
	CoresPerReplica *int64
	NodesPerReplica *int64
	// Min and Max bound the count (nil: 1 and no maximum; a Max of 0 is no maximum).
	Min *int64
	Max *int64
	// PreventSinglePointFailure keeps at least 2 replicas when there is more than one node (nil: true).
	PreventSinglePointFailure *bool
}

// The published defaults (dns.md §2, §3).
const (
	// ResolverPPS is the Amazon-provided VPC resolver's limit per network interface.
	ResolverPPS = 1024
	// DefaultCoreDNSReplicas is the replica count EKS deploys.
	DefaultCoreDNSReplicas = 2
	// DefaultQueriesPerReplica is the queries per second kubefit assumes one CoreDNS replica answers.
	DefaultQueriesPerReplica = 5000
	// DefaultCoresPerReplica and DefaultNodesPerReplica are the linear ladder's published defaults.
	DefaultCoresPerReplica = 256
	DefaultNodesPerReplica = 16
)

// The ceilings a DNSResult names.
const (
	CeilingResolver = "resolver"
	CeilingCoreDNS  = "coredns"
)

// DNSResult is the DNS budget at peak (dns.md §5).
type DNSResult struct {
	// ResolverPPS is the packets per second sent to the VPC resolver; ResolverBudget is ResolverPPS ×
	// ResolverSenders, the interfaces that send them.
	ResolverPPS     float64
	ResolverBudget  float64
	ResolverSenders int64
	// CoreDNSQPS is the queries per second CoreDNS gets; CoreDNSCapacity is CoreDNSReplicas × the queries one
	// replica answers.
	CoreDNSQPS      float64
	CoreDNSReplicas int64
	CoreDNSCapacity float64
	// ReplicasFrom says where CoreDNSReplicas comes from ("the autoscaler's ladder for 12 nodes and 48 cores").
	ReplicasFrom string
	// Binding is the ceiling nearer to its limit (CeilingResolver or CeilingCoreDNS); Utilization is its
	// demand over its capacity.
	Binding     string
	Utilization float64
}

var pathDNS = field.NewPath("DNS")

// validate reports the DNS inputs out of range.
func (d *DNS) validate() field.Errors {
	var errs field.Errors
	ratio := func(name string, v float64) {
		if v < 0 || v >= 1 || math.IsNaN(v) {
			errs = append(errs, field.Invalid(pathDNS.Child(name), fmt.Sprint(v), "a share of lookups must be at least 0 and below 1"))
		}
	}
	ratio("CacheHitRatio", d.CacheHitRatio)
	ratio("NodeLocalHitRatio", d.NodeLocalHitRatio)
	if d.NodeLocalHitRatio > 0 && !d.NodeLocalDNSCache {
		errs = append(errs, field.Invalid(pathDNS.Child("NodeLocalHitRatio"), fmt.Sprint(d.NodeLocalHitRatio),
			"a NodeLocal DNSCache hit ratio needs NodeLocal DNSCache"))
	}
	for _, c := range []struct {
		name string
		v    int64
	}{{"CoreDNSNodes", d.CoreDNSNodes}, {"CoreDNSReplicas", d.CoreDNSReplicas}} {
		if c.v < 0 {
			errs = append(errs, field.Invalid(pathDNS.Child(c.name), fmt.Sprint(c.v), "must not be negative"))
		}
	}
	for _, c := range []struct {
		name string
		v    float64
	}{{"QueriesPerReplica", d.QueriesPerReplica}, {"OtherQueries", d.OtherQueries}} {
		if c.v < 0 || math.IsNaN(c.v) || math.IsInf(c.v, 0) {
			errs = append(errs, field.Invalid(pathDNS.Child(c.name), fmt.Sprint(c.v), "queries per second must be a finite number, not negative"))
		}
	}
	if a := d.Autoscaler; a != nil {
		ap := pathDNS.Child("Autoscaler")
		if d.CoreDNSReplicas > 0 {
			errs = append(errs, field.Invalid(pathDNS.Child("CoreDNSReplicas"), fmt.Sprint(d.CoreDNSReplicas),
				"give a fixed CoreDNS replica count or the autoscaler's ladder, not both"))
		}
		cores, nodes, lo, hi, _ := a.params()
		for _, c := range []struct {
			name string
			v    int64
		}{{"CoresPerReplica", cores}, {"NodesPerReplica", nodes}, {"Min", deref(a.Min)}, {"Max", hi}} {
			if c.v < 0 {
				errs = append(errs, field.Invalid(ap.Child(c.name), fmt.Sprint(c.v), "must not be negative"))
			}
		}
		if cores == 0 && nodes == 0 {
			errs = append(errs, field.Invalid(ap.Child("NodesPerReplica"), "0", "the ladder needs cores or nodes per replica above 0"))
		}
		if hi > 0 && hi < lo {
			errs = append(errs, field.Invalid(ap.Child("Max"), fmt.Sprint(hi), "the maximum is below the minimum (%d)", lo))
		}
	}
	return errs
}

// params returns the ladder's parameters with the defaults applied; a Min of 0 is 1, as the autoscaler reads it.
func (a *DNSAutoscaler) params() (cores, nodes, lo, hi int64, spf bool) {
	cores, nodes, lo, spf = DefaultCoresPerReplica, DefaultNodesPerReplica, 1, true
	if a.CoresPerReplica != nil {
		cores = *a.CoresPerReplica
	}
	if a.NodesPerReplica != nil {
		nodes = *a.NodesPerReplica
	}
	if a.Min != nil && *a.Min > 0 {
		lo = *a.Min
	}
	if a.Max != nil {
		hi = *a.Max
	}
	if a.PreventSinglePointFailure != nil {
		spf = *a.PreventSinglePointFailure
	}
	return
}

// Replicas is the linear ladder's replica count for a cluster of nodes and cores (dns.md §3):
// max(ceil(cores / coresPerReplica), ceil(nodes / nodesPerReplica)), each term at most Max and at least Min,
// and at least 2 when PreventSinglePointFailure holds and there is more than one node.
func (a *DNSAutoscaler) Replicas(nodes, cores int64) int64 {
	perCores, perNodes, lo, hi, spf := a.params()
	term := func(have, per int64) int64 {
		r := int64(1)
		if per > 0 {
			r = (have + per - 1) / per
		}
		if hi > 0 {
			r = min(r, hi)
		}
		return max(r, lo)
	}
	r := max(term(cores, perCores), term(nodes, perNodes))
	if spf && nodes > 1 && r < 2 {
		r = 2
	}
	return r
}

// checkDNS computes the load on the two DNS ceilings at peak (dns.md §5), fails when either is exceeded
// (KCAP-E7) and warns above 80 % of the binding one (KCAP-W4).
func checkDNS(in Check, all []autoscaler, res *CheckResult) field.Errors {
	d := in.DNS
	if d == nil {
		return nil
	}
	if errs := d.validate(); len(errs) > 0 {
		return errs
	}
	var lookups float64 // lookups per second at peak, over every workload that declares them
	for _, s := range all {
		if s.DNSLookupsPerSecond != nil {
			lookups += float64(s.PeakReplicas+s.Surge) * *s.DNSLookupsPerSecond
		}
	}
	if lookups == 0 {
		return nil
	}
	// The cluster at peak, as far as the check knows it: the nodes its node groups need (at most their maximum).
	var nodes, cores int64
	for _, g := range in.NodeGroups {
		n := min(res.PeakNodes[g.Name], g.MaxNodes)
		nodes += n
		cores += n * (g.WorkloadAllocatable.CPUMillicores / 1000) // a lower bound on the node's cores
	}
	r := &DNSResult{}
	r.CoreDNSReplicas, r.ReplicasFrom = DefaultCoreDNSReplicas, "EKS's default"
	switch {
	case d.CoreDNSReplicas > 0:
		r.CoreDNSReplicas, r.ReplicasFrom = d.CoreDNSReplicas, "given"
	case d.Autoscaler != nil:
		r.CoreDNSReplicas = d.Autoscaler.Replicas(nodes, cores)
		r.ReplicasFrom = fmt.Sprintf("the autoscaler's ladder for the check's %d nodes and at least %d cores at peak; the cluster's other nodes can only raise it", nodes, cores)
	}
	qpr := d.QueriesPerReplica
	if qpr == 0 {
		qpr = DefaultQueriesPerReplica
	}
	qCore, qUp := queriesPerLookup(d)
	r.CoreDNSQPS = lookups*qCore + d.OtherQueries
	r.CoreDNSCapacity = float64(r.CoreDNSReplicas) * qpr
	r.ResolverPPS = lookups * qUp * (1 - d.CacheHitRatio)
	r.ResolverSenders = d.CoreDNSNodes
	if r.ResolverSenders == 0 {
		r.ResolverSenders = min(2, r.CoreDNSReplicas)
	}
	if d.NodeLocalDNSCache {
		r.ResolverSenders = nodes
	}
	r.ResolverBudget = float64(ResolverPPS * r.ResolverSenders)
	uRes, uCore := ratio(r.ResolverPPS, r.ResolverBudget), ratio(r.CoreDNSQPS, r.CoreDNSCapacity)
	if d.NodeLocalDNSCache && nodes == 0 {
		uRes = 0 // every node sends its own upstream queries, and the check knows no node: not checked
	}
	r.Binding, r.Utilization = CeilingResolver, uRes
	if uCore > uRes {
		r.Binding, r.Utilization = CeilingCoreDNS, uCore
	}
	res.DNS = r
	if d.NodeLocalDNSCache && nodes == 0 && r.ResolverPPS > 0 {
		// Each node sends its own upstream queries, at 1,024 packets per second per interface: without a node
		// group the check cannot count them, so the resolver's ceiling is not checked (CoreDNS's still is).
		res.Warnings = append(res.Warnings, field.Warning{Code: "KCAP-W6", Path: pathDNS, Message: fmt.Sprintf(
			"KCAP-W6: with NodeLocal DNSCache each node sends its own queries to the VPC resolver (1,024 packets per second "+
				"per network interface), and the check has no node group to count the nodes of, so the %s packets per second "+
				"at peak are not checked against it (they need the interfaces of at least %s); list the node groups the "+
				"workloads run on", num(r.ResolverPPS), fit.Plural(int(math.Ceil(r.ResolverPPS/ResolverPPS)), "node", "nodes"))})
	}
	switch {
	case r.Utilization > 1:
		return field.Errors{rule("KCAP-E7", pathDNS, "", "%s", dnsText(d, r, lookups, nodes, qpr, uRes, uCore))}
	case r.Utilization > 0.8:
		res.Warnings = append(res.Warnings, field.Warning{Code: "KCAP-W4", Path: pathDNS, Message: "KCAP-W4: " + dnsText(d, r, lookups, nodes, qpr, uRes, uCore)})
	}
	return nil
}

// queriesPerLookup returns the queries one external lookup sends to CoreDNS and to the VPC resolver (dns.md §1,
// §4): with ndots 5 and EKS's search list (three cluster.local domains and the VPC's), a name with fewer dots
// is tried with each of the 4 search domains and bare, A and AAAA each: 10 queries, of which CoreDNS answers
// the 6 cluster.local ones itself and forwards 4; a fully qualified name sends 2, both forwarded. NodeLocal
// DNSCache sends only the cluster.local misses to CoreDNS and the rest to the resolver itself.
func queriesPerLookup(d *DNS) (coreDNS, upstream float64) {
	cluster, up := 6.0, 4.0
	if d.FullyQualified {
		cluster, up = 0, 2
	}
	if d.NodeLocalDNSCache {
		return cluster * (1 - d.NodeLocalHitRatio), up
	}
	return cluster + up, up
}

func ratio(a, b float64) float64 {
	if b <= 0 {
		if a > 0 {
			return math.Inf(1)
		}
		return 0
	}
	return a / b
}

// dnsText states both ceilings with their figures, which binds, and the remedies with theirs.
func dnsText(d *DNS, r *DNSResult, lookups float64, nodes int64, qpr, uRes, uCore float64) string {
	var b strings.Builder
	name, other, uOther := "the VPC resolver", "CoreDNS", uCore
	if r.Binding == CeilingCoreDNS {
		name, other, uOther = "CoreDNS", "the VPC resolver", uRes
	}
	fmt.Fprintf(&b, "at peak %s is the binding DNS ceiling: its load is %.0f %% of its capacity (%s: %.0f %%). The pods make %s "+
		"external lookups per second. CoreDNS gets %s queries per second against %d replicas × %s = %s (replicas: %s; per replica: %s). "+
		"The VPC resolver gets %s packets per second against 1,024 per network interface × %d %s = %s%s.",
		name, 100*r.Utilization, other, 100*uOther, num(lookups), num(r.CoreDNSQPS), r.CoreDNSReplicas, num(qpr), num(r.CoreDNSCapacity),
		r.ReplicasFrom, qprSource(d), num(r.ResolverPPS), r.ResolverSenders, senders(d), num(r.ResolverBudget), unchecked(d, nodes))
	var fixes, nodeLocal []string
	if uCore > 0.8 {
		need := int64(math.Ceil(r.CoreDNSQPS / (0.8 * qpr)))
		fix := fmt.Sprintf("run at least %d CoreDNS replicas (80 %% of %s queries per second each)", need, num(qpr))
		if d.Autoscaler != nil && nodes > 0 {
			fix += fmt.Sprintf(", e.g. a ladder of at most %d nodes per replica for the %d nodes", max(1, nodes/need), nodes)
		}
		fixes = append(fixes, fix)
		if !d.NodeLocalDNSCache {
			c, _ := queriesPerLookup(&DNS{NodeLocalDNSCache: true, FullyQualified: d.FullyQualified})
			nodeLocal = append(nodeLocal, fmt.Sprintf("CoreDNS then gets only the cluster.local queries it misses (%s per second with no hits)",
				num(lookups*c+d.OtherQueries)))
		}
	}
	if uRes > 0.8 {
		if !d.NodeLocalDNSCache {
			nodeLocal = append(nodeLocal, fmt.Sprintf("each node sends its own upstream queries (%s packets per second for the check's %d nodes)",
				num(float64(ResolverPPS*nodes)), nodes))
			if need := int64(math.Ceil(r.ResolverPPS / (0.8 * ResolverPPS))); need > r.ResolverSenders {
				fixes = append(fixes, fmt.Sprintf("CoreDNS on at least %d nodes (one replica each)", need))
			}
		}
		_, up := queriesPerLookup(d)
		fixes = append(fixes, fmt.Sprintf("a higher cache hit ratio (%s packets per second fewer per 10 %% of lookups answered from a cache)",
			num(lookups*up*0.1)))
	}
	if len(nodeLocal) > 0 {
		fixes = append(fixes, "NodeLocal DNSCache: "+strings.Join(nodeLocal, ", and "))
	}
	if !d.FullyQualified {
		fixes = append(fixes, "fully qualified names ending in \".\" or a lower ndots in the pods' dnsConfig (2 queries per lookup instead of 10)")
	}
	fixes = append(fixes, "reuse connections to cut lookups")
	b.WriteString(" Remedies: " + strings.Join(fixes, "; ") + ".")
	return b.String()
}

func unchecked(d *DNS, nodes int64) string {
	if d.NodeLocalDNSCache && nodes == 0 {
		return "; not checked: the check has no node group to count the nodes of"
	}
	return ""
}

func qprSource(d *DNS) string {
	if d.QueriesPerReplica > 0 {
		return "given"
	}
	return "kubefit's default, an assumption: measure one replica's rate in a load test and give it"
}

func senders(d *DNS) string {
	switch {
	case d.NodeLocalDNSCache:
		return "nodes of the node groups at peak (NodeLocal DNSCache)"
	case d.CoreDNSNodes > 0:
		return "nodes running CoreDNS"
	}
	return "nodes running CoreDNS (assumed: at most 2)"
}

// num renders a rate with thousands separators, rounded to a whole number.
func num(f float64) string {
	if math.IsInf(f, 0) {
		return "unbounded"
	}
	n := int64(math.Round(f))
	s := strconv.FormatInt(n, 10)
	var out []byte
	for i, c := range []byte(s) {
		if i > 0 && (len(s)-i)%3 == 0 && s[0] != '-' {
			out = append(out, ',')
		}
		out = append(out, c)
	}
	return string(out)
}

func deref(p *int64) int64 {
	if p == nil {
		return 0
	}
	return *p
}
