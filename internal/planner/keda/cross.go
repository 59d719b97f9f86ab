package keda

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/resource"
)

// ExistingHPA is an HPA already in the cluster (or planned elsewhere) that a ScaledObject may conflict with.
type ExistingHPA struct {
	Namespace        string
	Name             string
	TargetAPIVersion string
	TargetKind       string
	TargetName       string
	// OwnerScaledObject is the name of the ScaledObject that owns it, "" if none.
	OwnerScaledObject string
	// OwnershipValidation false means the HPA is annotated validations.keda.sh/hpa-ownership: "false".
	OwnershipValidation *bool
}

// SharedDatabase is a database whose connections several ScaledObjects' pods share.
type SharedDatabase struct {
	Database
	// Clients are "<namespace>/<name>" of ScaledObjects.
	Clients []string
}

// Check is the input of the cross-object checks (keda.md §8.3).
type Check struct {
	ScaledObjects []Summary
	NodeGroups    []NodeGroupCapacity
	ExistingHPAs  []ExistingHPA
	Databases     []SharedDatabase
	// ConcurrentRollouts is "one" (default: only the largest surge counts) or "all".
	ConcurrentRollouts string
	// DNS is the cluster's DNS set-up; nil skips the DNS budget (KCAP-W4).
	DNS *DNS
}

// DNS describes how pods' external lookups reach the AWS VPC resolver (keda.md §9.5).
type DNS struct {
	// NodeLocalDNSCache means every node queries the resolver itself.
	NodeLocalDNSCache bool
	// CoreDNSNodes is the number of nodes running CoreDNS; 0 means 2.
	CoreDNSNodes int64
	// CacheHitRatio is the share of lookups answered from a cache (0–1).
	CacheHitRatio float64
	// FullyQualified means the names end in "." (2 queries per lookup instead of 4).
	FullyQualified bool
}

// ResolverPPS is the Amazon-provided VPC resolver's limit per network interface.
const ResolverPPS = 1024

// CheckResult holds the warnings of the cross-object checks and, per node group, the nodes the peak needs.
type CheckResult struct {
	Warnings  []field.Warning
	PeakNodes map[string]int64
	// DatabaseDemand is, per database in input order, the connections its clients need at peak.
	DatabaseDemand []DatabaseDemand
}

// DatabaseDemand is one database's demand at peak.
type DatabaseDemand struct {
	Name   string
	Demand int64
}

func normGV(av string) string {
	if av == "" {
		return "apps/v1"
	}
	return av
}

func normKind(k string) string {
	if k == "" {
		return "Deployment"
	}
	return k
}

// CheckAll runs KSO-E17, the shared node-group envelope (KCAP-E2/W1 over every workload on a group), and
// the shared database budgets (KCAP-E4/W2).
func CheckAll(in Check) (*CheckResult, error) {
	var errs field.Errors
	res := &CheckResult{PeakNodes: map[string]int64{}}
	sp := field.NewPath("ScaledObjects")
	targets, hpas := map[string]int{}, map[string]int{}
	for i, g := range in.NodeGroups {
		errs = append(errs, g.Validate(field.NewPath("NodeGroups").At(i))...)
	}
	for i, s := range in.ScaledObjects {
		for _, f := range []struct{ name, v string }{{"Namespace", s.Namespace}, {"Name", s.Name}, {"TargetName", s.TargetName}} {
			if f.v == "" {
				errs = append(errs, field.Invalid(sp.At(i).Child(f.name), "", "a ScaledObject summary needs its %s", strings.ToLower(f.name)))
			}
		}
		if s.PeakReplicas < 0 {
			errs = append(errs, field.Invalid(sp.At(i).Child("PeakReplicas"), itoa(s.PeakReplicas), "a ScaledObject summary needs its peak replicas (0 or more)"))
		}
	}
	if len(errs) > 0 {
		return res, errs
	}
	for i, s := range in.ScaledObjects {
		t := fmt.Sprintf("%s|%s|%s|%s", s.Namespace, normGV(s.TargetAPIVersion), normKind(s.TargetKind), s.TargetName)
		if j, ok := targets[t]; ok {
			o := in.ScaledObjects[j]
			errs = append(errs, rule("KSO-E17", sp.At(i), s.Name,
				"the workload %s of type %s is already managed by the ScaledObject %s: only one ScaledObject may target it (an unset apiVersion and kind mean apps/v1 Deployment)",
				field.Quote(s.TargetName), normGV(s.TargetAPIVersion)+" "+normKind(s.TargetKind), field.Quote(o.Namespace+"/"+o.Name)))
		} else {
			targets[t] = i
		}
		h := s.Namespace + "|" + s.HPAName
		if j, ok := hpas[h]; ok {
			o := in.ScaledObjects[j]
			errs = append(errs, rule("KSO-E17", sp.At(i), s.Name,
				"the HPA %s is already managed by the ScaledObject %s", field.Quote(s.HPAName), field.Quote(o.Namespace+"/"+o.Name)))
		} else {
			hpas[h] = i
		}
		for k, e := range in.ExistingHPAs {
			if e.Namespace != s.Namespace || normGV(e.TargetAPIVersion) != normGV(s.TargetAPIVersion) ||
				normKind(e.TargetKind) != normKind(s.TargetKind) || e.TargetName != s.TargetName {
				continue
			}
			if e.OwnershipValidation != nil && !*e.OwnershipValidation || e.OwnerScaledObject == s.Name ||
				s.TransferHPAOwnership && s.HPAName == e.Name {
				continue
			}
			errs = append(errs, rule("KSO-E17", field.NewPath("ExistingHPAs").At(k), e.Name,
				"the workload %s of type %s is already managed by the hpa %s (ScaledObject %s): to take it over, annotate the ScaledObject with scaledobject.keda.sh/transfer-hpa-ownership: \"true\" and name that HPA in its advanced horizontalPodAutoscalerConfig",
				field.Quote(s.TargetName), normGV(s.TargetAPIVersion)+" "+normKind(s.TargetKind), field.Quote(e.Name), field.Quote(s.Namespace+"/"+s.Name)))
		}
	}
	errs = append(errs, checkGroups(in, res)...)
	errs = append(errs, checkDatabases(in, res)...)
	checkDNS(in, res)
	return res, errs.Err()
}

// checkDNS warns when the pods' external lookups at peak exceed 80 % of the resolver budget (KCAP-W4).
func checkDNS(in Check, res *CheckResult) {
	d := in.DNS
	if d == nil {
		return
	}
	q := 4.0
	if d.FullyQualified {
		q = 2
	}
	var pps float64
	for _, s := range in.ScaledObjects {
		if s.DNSLookupsPerSecond != nil {
			pps += float64(s.PeakReplicas+s.Surge) * *s.DNSLookupsPerSecond * q * (1 - d.CacheHitRatio)
		}
	}
	if pps == 0 {
		return
	}
	senders, who := d.CoreDNSNodes, "nodes running CoreDNS"
	if senders == 0 {
		senders = 2
	}
	if d.NodeLocalDNSCache {
		senders, who = 0, "nodes of the node groups at peak"
		for _, n := range res.PeakNodes {
			senders += n
		}
		if senders == 0 {
			return
		}
	}
	budget := float64(ResolverPPS * senders)
	if pps > 0.8*budget {
		res.Warnings = append(res.Warnings, field.Warning{Code: "KCAP-W4", Path: field.NewPath("DNS"), Message: fmt.Sprintf(
			"KCAP-W4: at peak the pods send about %.0f DNS packets per second to the VPC resolver, above 80 %% of its budget of %.0f (1,024 per network interface × %d %s); use NodeLocal DNSCache, reuse connections, use fully qualified names ending in \".\" or lower ndots in the pod's dnsConfig",
			pps, budget, senders, who)})
	}
}

func surgeSum(in Check, idx []int) int64 {
	var all, largest int64
	for _, i := range idx {
		s := in.ScaledObjects[i].Surge
		all += s
		largest = max(largest, s)
	}
	if in.ConcurrentRollouts == "all" {
		return all
	}
	return largest
}

// checkGroups packs every workload on a group at peak, first fit decreasing (by CPU, then memory), into
// at most MaxNodes nodes of the group's workload allocatable.
func checkGroups(in Check, res *CheckResult) field.Errors {
	var errs field.Errors
	for gi, g := range in.NodeGroups {
		var idx []int
		for i, s := range in.ScaledObjects {
			if s.NodeGroup == g.Name && s.PodRequests != nil {
				idx = append(idx, i)
			}
		}
		if len(idx) == 0 {
			continue
		}
		var pods []resource.List
		var names []string
		for _, i := range idx {
			s := in.ScaledObjects[i]
			names = append(names, strconv.Quote(s.Namespace+"/"+s.Name))
			for r := int64(0); r < s.PeakReplicas; r++ {
				pods = append(pods, *s.PodRequests)
			}
		}
		peakNodes, ok := pack(g, pods)
		res.PeakNodes[g.Name] = peakNodes
		gp := field.NewPath("NodeGroups").At(gi)
		if !ok || peakNodes > g.MaxNodes {
			errs = append(errs, rule("KCAP-E2", gp, g.Name,
				"node group %s cannot hold the peak of %s together: packed node by node they need %s nodes, but the group has at most %d",
				strconv.Quote(g.Name), field.JoinAnd(names), needText(peakNodes, ok), g.MaxNodes))
			continue
		}
		errs = append(errs, checkZones(in, g, gp, idx)...)
		// Surge: the largest single workload's surge pods, or all of them.
		extra := surgeSum(in, idx)
		if extra == 0 {
			continue
		}
		withSurge := append([]resource.List(nil), pods...)
		// Add surge pods of the workloads in order of surge size, largest first.
		sort.SliceStable(idx, func(a, b int) bool { return in.ScaledObjects[idx[a]].Surge > in.ScaledObjects[idx[b]].Surge })
		left := extra
		for _, i := range idx {
			s := in.ScaledObjects[i]
			for r := int64(0); r < s.Surge && left > 0; r++ {
				withSurge = append(withSurge, *s.PodRequests)
				left--
			}
		}
		if n, ok := pack(g, withSurge); !ok || n > g.MaxNodes {
			res.Warnings = append(res.Warnings, field.Warning{Code: "KCAP-W1", Path: gp, Message: fmt.Sprintf(
				"KCAP-W1: node group %s holds the peak of %s on %d of its %d nodes, but a rollout at peak (%d surge pods, concurrent rollouts %q) needs %s nodes: rollouts at full scale will stall",
				strconv.Quote(g.Name), field.JoinAnd(names), peakNodes, g.MaxNodes, extra, rolloutMode(in), needText(n, ok))})
		}
	}
	return errs
}

func rolloutMode(in Check) string {
	if in.ConcurrentRollouts == "" {
		return "one"
	}
	return in.ConcurrentRollouts
}

func needText(n int64, ok bool) string {
	if !ok {
		return "more than any number of"
	}
	return strconv.FormatInt(n, 10)
}

// pack places pods first fit decreasing on nodes of g (opening nodes as needed) and returns the nodes
// used; ok is false when a pod fits no empty node.
func pack(g NodeGroupCapacity, pods []resource.List) (int64, bool) {
	sorted := append([]resource.List(nil), pods...)
	sort.SliceStable(sorted, func(a, b int) bool {
		if sorted[a].CPUMillicores != sorted[b].CPUMillicores {
			return sorted[a].CPUMillicores > sorted[b].CPUMillicores
		}
		return sorted[a].MemoryBytes > sorted[b].MemoryBytes
	})
	capacity := resource.List{CPUMillicores: g.WorkloadAllocatable.CPUMillicores, MemoryBytes: g.WorkloadAllocatable.MemoryBytes,
		EphemeralStorageBytes: g.WorkloadAllocatable.EphemeralBytes, Pods: g.WorkloadPods}
	fits := func(free, p resource.List) bool {
		return p.CPUMillicores <= free.CPUMillicores && p.MemoryBytes <= free.MemoryBytes &&
			p.EphemeralStorageBytes <= free.EphemeralStorageBytes && 1 <= free.Pods
	}
	var nodes []resource.List
	for _, p := range sorted {
		p.Pods = 1
		placed := false
		for i := range nodes {
			if fits(nodes[i], p) {
				nodes[i] = nodes[i].Sub(p)
				placed = true
				break
			}
		}
		if !placed {
			if !fits(capacity, p) {
				return 0, false
			}
			nodes = append(nodes, capacity.Sub(p))
		}
	}
	return int64(len(nodes)), true
}

func checkDatabases(in Check, res *CheckResult) field.Errors {
	var errs field.Errors
	byID := map[string]int{}
	for i, s := range in.ScaledObjects {
		byID[s.Namespace+"/"+s.Name] = i
	}
	for di, db := range in.Databases {
		p := field.NewPath("Databases").At(di)
		var demand int64
		var parts []string
		for ci, c := range db.Clients {
			i, ok := byID[c]
			if !ok {
				errs = append(errs, field.Invalid(p.Child("Clients").At(ci), c,
					"client %s is not one of the ScaledObjects checked (give them as namespace/name)", field.Quote(c)))
				continue
			}
			s := in.ScaledObjects[i]
			if s.ConnectionsPerPod == nil {
				errs = append(errs, rule("KCAP-E4", p.Child("Clients").At(ci), c,
					"client %s does not declare its connections per pod", field.Quote(c)))
				continue
			}
			pods := s.PeakReplicas + s.Surge
			demand += pods * *s.ConnectionsPerPod
			parts = append(parts, fmt.Sprintf("%s %d pods × %d", c, pods, *s.ConnectionsPerPod))
		}
		b := DatabaseBudget(db.Database, demand)
		res.DatabaseDemand = append(res.DatabaseDemand, DatabaseDemand{Name: db.Name, Demand: b.Demand})
		if db.OtherClients > 0 {
			parts = append(parts, fmt.Sprintf("%d other clients", db.OtherClients))
		}
		detail := strings.Join(parts, " + ")
		switch {
		case b.Demand > b.Hard:
			errs = append(errs, rule("KCAP-E4", p.Child("MaxConnections"), strconv.FormatInt(db.MaxConnections, 10),
				"database %s allows %d client connections but its clients need %d at peak (%s); lower the clients' maxReplicaCount or put a connection pooler (RDS Proxy, ProxySQL, PgBouncer) in front of it",
				strconv.Quote(db.Name), b.Hard, b.Demand, detail))
		case b.Demand > b.Soft:
			res.Warnings = append(res.Warnings, field.Warning{Code: "KCAP-W2", Path: p.Child("MaxConnections"), Message: fmt.Sprintf(
				"KCAP-W2: database %s: %d connections at peak (%s) exceed the usable share of %d of %d; databases often refuse connections well before their documented limit (small burstable classes such as db.t* also lose capacity when their CPU credits run out); consider a connection pooler",
				strconv.Quote(db.Name), b.Demand, detail, b.Soft, b.Hard)})
		}
	}
	return errs
}

// checkZones runs §9.2 for the workloads on g together: in the fullest zone, every workload with a zonal
// DoNotSchedule spread needs at least ceil((R − (z − 1) × skew) / z) pods, and those pods must pack onto
// the zone's nodes (max nodes per zone, else floor(max nodes / zones)).
func checkZones(in Check, g NodeGroupCapacity, gp field.Path, idx []int) field.Errors {
	z := int64(len(g.Zones))
	if z == 0 {
		return nil
	}
	perZone := g.MaxNodes / z
	if g.MaxNodesPerZone != nil {
		perZone = *g.MaxNodesPerZone
	}
	var pods []resource.List
	var parts []string
	for _, i := range idx {
		s := in.ScaledObjects[i]
		var need int64
		for _, sc := range s.ZonalSpread {
			if sc.TopologyKey != ZoneKey || sc.WhenUnsatisfiable != "DoNotSchedule" {
				continue
			}
			need = max(need, resource.CeilDiv(s.PeakReplicas-(z-1)*max(sc.MaxSkew, 1), z))
		}
		if need <= 0 {
			continue
		}
		parts = append(parts, fmt.Sprintf("%s %d", strconv.Quote(s.Namespace+"/"+s.Name), need))
		for r := int64(0); r < need; r++ {
			pods = append(pods, *s.PodRequests)
		}
	}
	if len(pods) == 0 {
		return nil
	}
	if n, ok := pack(g, pods); !ok || n > perZone {
		return field.Errors{rule("KCAP-E3", gp.Child("MaxNodesPerZone"), g.Name,
			"node group %s has at most %d nodes per zone, but with their zone spread the workloads need at least %s pods in every zone, which take %s nodes",
			strconv.Quote(g.Name), perZone, field.JoinAnd(parts), needText(n, ok))}
	}
	return nil
}
