package keda

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/resource"
)

// Peak is an autoscaled workload's worst case as the capacity checks see it (keda.md §9): the replicas at
// peak, the scale target's kind, and the planned workload, node group and database (nil skips their
// checks). A ScaledObject's checks and a HorizontalPodAutoscaler's (package hpa) share it.
type Peak struct {
	// Replicas is the replica count at peak.
	Replicas int64
	// TargetKind is the scale target's kind ("Deployment", "StatefulSet", …); the workload's own kind wins.
	TargetKind string
	// TargetNamespace and TargetName name the scale target: a node group workload of that name (or
	// namespace/name) is the target itself, the group's others are not placed beside it (KCAP-W9).
	TargetNamespace, TargetName string
	Workload                    *Workload
	NodeGroup                   *NodeGroupCapacity
	Database                    *Database
	// MaxPath is the path of the autoscaler's maximum replica count, which a peak too large blames; MaxName
	// is that count's name in messages ("maxReplicaCount", "maxReplicas").
	MaxPath field.Path
	MaxName string
	// MinReplicas is the smallest maximum the autoscaler takes (its minimum replica count, at least 1): a
	// remedy never names a maximum below it.
	MinReplicas int64
	// Paused is the autoscaling.keda.sh/paused-replicas count when it sets the peak (above the maximum Max), else
	// 0: a lower maximum then changes nothing, and the remedies name the annotation.
	Paused, Max int64
}

// pausedWhy says, when the paused-replicas annotation sets the peak, that it does; "" otherwise.
func (p Peak) pausedWhy() string {
	if p.Paused == 0 {
		return ""
	}
	return fmt.Sprintf(" (the %s annotation holds the target at %s replicas, above its %s of %s)", AnnotationPausedReplicas,
		resource.Group(p.Paused), p.MaxName, resource.Group(p.Max))
}

// pausedLower is the remedy that lowers a paused peak to at most h replicas: the annotation, and the maximum too
// when it is above h; "" when the peak is not paused or the maximum cannot go that low (below its floor).
func (p Peak) pausedLower(h int64) string {
	switch {
	case p.Paused == 0:
		return ""
	case p.Max <= h:
		return fmt.Sprintf("lower the %s annotation to at most %s (a lower %s changes nothing while it holds the count)",
			AnnotationPausedReplicas, resource.Group(h), p.MaxName)
	case h >= p.floor():
		return fmt.Sprintf("lower the %s annotation to at most %s and %s to %s", AnnotationPausedReplicas, resource.Group(h), p.MaxName, resource.Group(h))
	}
	return ""
}

// floor is the smallest maximum replica count a remedy may name.
func (p Peak) floor() int64 { return max(1, p.MinReplicas) }

// PeakCheck is what CheckPeak finds: the rollout surge at peak, what the cross-object checks need of the
// workload, and the errors (rules KCAP-E1 to KCAP-E4) and warnings (KCAP-W1, KCAP-W2).
type PeakCheck struct {
	Surge int64
	// PodRequests is nil without a workload or when its quantities are invalid.
	PodRequests         *resource.List
	ZonalSpread         []SpreadConstraint
	ConnectionsPerPod   *int64
	DNSLookupsPerSecond *float64
	Errors              field.Errors
	Warnings            []field.Warning
}

// peakChecker accumulates the findings of one CheckPeak.
type peakChecker struct {
	p   Peak
	out PeakCheck
}

func (c *peakChecker) fail(id string, p field.Path, value string, format string, args ...any) {
	c.out.Errors = append(c.out.Errors, rule(id, p, value, format, args...))
}

func (c *peakChecker) warn(id string, p field.Path, format string, args ...any) {
	c.out.Warnings = append(c.out.Warnings, field.Warning{Code: id, Path: p, Message: id + ": " + fmt.Sprintf(format, args...)})
}

// CheckPeak checks p's peak against its node group (KCAP-E1, KCAP-E2, KCAP-W1, zones KCAP-E3) and its
// database (KCAP-E4, KCAP-W2), counting the rollout surge at peak.
func CheckPeak(p Peak) PeakCheck {
	c := &peakChecker{p: p}
	// Inputs the checks read come first, each on its own field: a bad one skips the check that reads it.
	if p.NodeGroup != nil {
		if errs := p.NodeGroup.Validate(field.NewPath("NodeGroupCapacity")); len(errs) > 0 {
			c.out.Errors = append(c.out.Errors, errs...)
			p.NodeGroup = nil
		}
	}
	if p.Database != nil {
		if errs := p.Database.Validate(field.NewPath("Database")); len(errs) > 0 {
			c.out.Errors = append(c.out.Errors, errs...)
			p.Database = nil
		}
	}
	c.p = p
	surge, serr := p.surgeFor(p.Replicas)
	if serr != nil {
		c.out.Errors = append(c.out.Errors, serr)
	}
	c.out.Surge = surge
	if g := p.NodeGroup; g != nil {
		var others []string
		var pods, withSurge int64
		for _, w := range g.Workloads {
			if !standsFor(w.Name, p.TargetNamespace, p.TargetName) && w.Replicas+w.Surge > 0 {
				others = append(others, strconv.Quote(w.Name))
				pods += w.Replicas
				withSurge += w.Replicas + w.Surge
			}
		}
		if len(others) > 0 {
			c.warn("KCAP-W9", field.NewPath("NodeGroupCapacity"),
				"node group %s also runs %s (%s pods at peak, %s with their surge), which this check does not place beside the "+
					"target's pods, so its own verdict holds only if they leave the group's nodes free; a capacity check that "+
					"reads this object's summary and the group's capacity places them together (nothing more to do where one "+
					"does)", strconv.Quote(g.Name), field.JoinAnd(others), resource.Group(pods), resource.Group(withSurge))
		}
	}
	if p.workloadKind() == argoRollout && (p.Workload == nil || p.Workload.Rollout == nil) && surge > 0 {
		c.warn("KCAP-W7", field.NewPath("TargetWorkload", "Rollout"),
			"the target is an Argo Rollout whose strategy is not given, so the peak is planned as a blue-green rollout's, whose "+
				"preview ReplicaSet runs as many pods as the active one (%d surge pods at %d replicas); a canary adds only its "+
				"maxSurge (Argo's default 25 %%): give the rollout (strategy RollingUpdate with the canary's max surge) to plan that",
			surge, p.Replicas)
	}
	w := p.Workload
	if w != nil && w.Kind != "" && w.Kind != normKind(p.TargetKind) {
		c.warn("KCAP-W8", field.NewPath("TargetWorkload", "Kind"),
			"the target workload is a %s but the scale target is a %s: the peak's surge follows the target workload's kind; "+
				"describe the object the autoscaler scales", w.Kind, normKind(p.TargetKind))
	}
	if w == nil {
		if p.NodeGroup != nil {
			c.fail("KCAP-E2", field.NewPath("NodeGroupCapacity"), "",
				"a node group capacity is given but not the target's pod template, whose requests the check needs")
		}
		if p.Database != nil {
			c.checkDatabase(*p.Database)
		}
		return c.out
	}
	c.out.ConnectionsPerPod, c.out.DNSLookupsPerSecond = w.ConnectionsPerPod, w.DNSLookupsPerSecond
	for _, sc := range w.TopologySpread {
		if sc.TopologyKey == ZoneKey && sc.WhenUnsatisfiable == "DoNotSchedule" {
			c.out.ZonalSpread = append(c.out.ZonalSpread, sc)
		}
	}
	req, ext, qerrs := PodRequests(w.PodTemplate)
	c.out.Errors = append(c.out.Errors, qerrs...)
	if len(qerrs) == 0 {
		r := req
		c.out.PodRequests = &r
		if p.NodeGroup != nil {
			c.checkNodeGroup(req, ext, surge)
		}
	}
	if p.Database != nil {
		c.checkDatabase(*p.Database)
	}
	return c.out
}

// workloadKind is the target workload's kind: its own, else the scale target's.
func (p Peak) workloadKind() string {
	if w := p.Workload; w != nil && w.Kind != "" {
		return w.Kind
	}
	return p.TargetKind
}

// argoRollout is the kind of an Argo Rollouts Rollout (argoproj.io/v1alpha1).
const argoRollout = "Rollout"

// surgeFor returns the extra pods a rollout adds at r replicas: 0 for StatefulSets and Recreate; r for an Argo
// Rollout without a rollout (a blue-green preview);
// maxSurge (an integer, or ceil(pct × r / 100), default 25 %) for a RollingUpdate Deployment. Kinds other
// than Deployment surge only when a rollout is given.
func (p Peak) surgeFor(r int64) (int64, *field.Error) {
	kind := p.workloadKind()
	var ro *Rollout
	if p.Workload != nil {
		ro = p.Workload.Rollout
	}
	if ro == nil && kind == argoRollout {
		// An Argo Rollout's strategy is its own (canary or blueGreen): without it the worst is planned, a blue-green
		// preview ReplicaSet as large as the active one (CheckPeak warns, KCAP-W7).
		return r, nil
	}
	if kind == "StatefulSet" || (ro == nil && kind != "Deployment") {
		return 0, nil
	}
	if ro != nil && ro.Strategy == "Recreate" {
		return 0, nil
	}
	rp := field.NewPath("TargetWorkload", "Rollout")
	if ro != nil && ro.Strategy != "" && ro.Strategy != "RollingUpdate" {
		return 0, field.Invalid(rp.Child("Strategy"), ro.Strategy, "rollout strategy %s is not RollingUpdate or Recreate", field.Quote(ro.Strategy))
	}
	ms := "25%"
	if ro != nil && ro.MaxSurge != nil {
		ms = *ro.MaxSurge
	}
	if pct, ok := strings.CutSuffix(ms, "%"); ok {
		n, err := strconv.ParseInt(pct, 10, 32)
		if err != nil || n < 0 {
			return 0, field.Invalid(rp.Child("MaxSurge"), ms, "maxSurge %s is not a whole number or percentage", field.Quote(ms))
		}
		return resource.CeilDiv(n*r, 100), nil
	}
	n, err := strconv.ParseInt(ms, 10, 32)
	if err != nil || n < 0 {
		return 0, field.Invalid(rp.Child("MaxSurge"), ms, "maxSurge %s is not a whole number or percentage", field.Quote(ms))
	}
	return n, nil
}

// hasMaxSurge says whether the rollout's surge comes from a maxSurge a user can lower: not for an Argo Rollout
// without its strategy, planned as a blue-green preview.
func (p Peak) hasMaxSurge() bool {
	return p.workloadKind() != argoRollout || (p.Workload != nil && p.Workload.Rollout != nil)
}

// MaxSurge is the rollout's surge at any replica count, as surgeFor counts it: "0" for a StatefulSet or
// Recreate, "100%" for an Argo Rollout without its strategy, else maxSurge (default "25%"); "" when the
// strategy is invalid.
func (p Peak) MaxSurge() string {
	kind := p.workloadKind()
	var ro *Rollout
	if p.Workload != nil {
		ro = p.Workload.Rollout
	}
	switch {
	case ro == nil && kind == argoRollout:
		return "100%"
	case kind == "StatefulSet" || (ro == nil && kind != "Deployment"), ro != nil && ro.Strategy == "Recreate":
		return "0"
	case ro != nil && ro.Strategy != "" && ro.Strategy != "RollingUpdate":
		return ""
	case ro != nil && ro.MaxSurge != nil:
		return *ro.MaxSurge
	}
	return "25%"
}

// perNode returns how many pods with request req fit one node of the group, and the resource that
// limits it.
func perNode(g NodeGroupCapacity, req resource.List, ext map[string]int64) (int64, string) {
	n, by := g.WorkloadPods, "pod slots"
	try := func(alloc, r int64, name string) {
		if r > 0 {
			if k := alloc / r; k < n {
				n, by = k, name
			}
		}
	}
	try(g.WorkloadAllocatable.CPUMillicores, req.CPUMillicores, "CPU")
	try(g.WorkloadAllocatable.MemoryBytes, req.MemoryBytes, "memory")
	try(g.WorkloadAllocatable.EphemeralBytes, req.EphemeralStorageBytes, "ephemeral storage")
	for _, k := range sortedKeys(ext) {
		try(g.WorkloadAllocatable.Extended[k], ext[k], k)
	}
	return max(n, 0), by
}

// checkNodeGroup runs KCAP-E1, KCAP-E2, KCAP-W1 and KCAP-E3 against the node group.
func (c *peakChecker) checkNodeGroup(req resource.List, ext map[string]int64, surge int64) {
	g, peak, maxName := c.p.NodeGroup, c.p.Replicas, c.p.MaxName
	mp := c.p.MaxPath
	name := strconv.Quote(g.Name)
	a := g.WorkloadAllocatable
	var short []string
	if req.CPUMillicores > a.CPUMillicores {
		short = append(short, fmt.Sprintf("%s CPU against %s", resource.HumanCPU(req.CPUMillicores), resource.HumanCPU(a.CPUMillicores)))
	}
	if req.MemoryBytes > a.MemoryBytes {
		short = append(short, fmt.Sprintf("%s memory against %s", resource.HumanBytes(req.MemoryBytes), resource.HumanBytes(a.MemoryBytes)))
	}
	if req.EphemeralStorageBytes > a.EphemeralBytes {
		short = append(short, fmt.Sprintf("%s ephemeral storage against %s", resource.HumanBytes(req.EphemeralStorageBytes), resource.HumanBytes(a.EphemeralBytes)))
	}
	remedy := "lower the pod's requests or use a larger instance type"
	var none []string
	for _, k := range sortedKeys(ext) {
		if ext[k] > a.Extended[k] {
			short = append(short, fmt.Sprintf("%d %s against %d", ext[k], k, a.Extended[k]))
			if a.Extended[k] == 0 {
				none = append(none, k)
			}
		}
	}
	if len(none) > 0 {
		// A larger size of a type without the device has none either.
		remedy = fmt.Sprintf("use an instance type whose nodes have %s or drop that request", field.JoinAnd(none))
	}
	if g.WorkloadPods < 1 {
		short = append(short, "no pod slot left for workloads")
	}
	if len(short) > 0 {
		c.fail("KCAP-E1", field.NewPath("TargetWorkload", "PodTemplate"), "",
			"one pod of the target does not fit a node of node group %s (per node, after DaemonSets): %s; no scale-up can help, so %s",
			name, field.JoinAnd(short), remedy)
		return
	}
	per, by := perNode(*g, req, ext)
	nodes := resource.CeilDiv(peak, per)
	total := per * g.MaxNodes
	spreads := c.zoneSkews()
	room := zoneCap(*g, per, spreads) // what the zones hold under the spread (KCAP-E3); total without one
	holds := min(total, room)
	floor := c.p.floor()
	lower := func() string { // the remedy that lowers the maximum, or why none does
		if r := c.p.pausedLower(holds); r != "" {
			return r
		}
		if holds >= floor {
			return fmt.Sprintf("the largest safe %s is %s", maxName, resource.Group(holds))
		}
		return fmt.Sprintf("no %s at or above its minimum of %s fits: the group holds %s pods of the target", maxName, resource.Group(floor), resource.Group(holds))
	}
	if nodes > g.MaxNodes {
		shortPods := peak - total
		c.fail("KCAP-E2", mp, itoa(peak),
			"node group %s cannot hold %s replicas%s: %s a node (limited by %s: %s CPU, %s memory and %s pod slots free per node against %s CPU and %s memory per pod), so the peak needs %s nodes but the group has at most %s; short by %s nodes (%s pods, %s CPU); %s, or %s",
			name, resource.Group(peak), c.p.pausedWhy(), podsFit(per), by, resource.HumanCPU(a.CPUMillicores), resource.HumanBytes(a.MemoryBytes), resource.Group(g.WorkloadPods),
			resource.HumanCPU(req.CPUMillicores), resource.HumanBytes(req.MemoryBytes), resource.Group(nodes), resource.Group(g.MaxNodes),
			resource.Group(nodes-g.MaxNodes), resource.Group(shortPods), resource.HumanCPU(shortPods*req.CPUMillicores), lower(), raiseGroup(*g, per, peak, spreads))
	}
	// KCAP-E3: zonal spread.
	if z := int64(len(g.Zones)); z > 0 && c.p.Workload != nil {
		caps := zoneNodeCaps(*g)
		for i, sc := range c.p.Workload.TopologySpread {
			if sc.TopologyKey != ZoneKey || sc.WhenUnsatisfiable != "DoNotSchedule" {
				continue
			}
			k := max(sc.MaxSkew, 1)
			if r := zoneRoom(caps, per, k); peak > r {
				c.fail("KCAP-E3", field.NewPath("TargetWorkload", "TopologySpread").At(i), itoa(sc.MaxSkew),
					"node group %s spreads over %d zones with at most %s nodes per zone (%s pods of the target per zone); with a zone spread skew of %d a zone holds at most %d more pods than the emptiest, so the zones hold %s pods in all, short of %s replicas%s; %s, or %s",
					name, z, joinInts(caps, 1), joinInts(caps, per), k, k, resource.Group(r), resource.Group(peak), c.p.pausedWhy(), lower(), raiseGroup(*g, per, peak, spreads))
			}
		}
	}
	// KCAP-W1: the peak is held (KCAP-E2 and KCAP-E3 pass) but not with a rollout's surge pods on top, judged
	// against the same capacity, zone spread included.
	if surge <= 0 || peak > holds || peak+surge <= holds {
		return
	}
	where := fmt.Sprintf("%s pods a node × %s nodes", resource.Group(per), resource.Group(g.MaxNodes))
	if room < total {
		caps := zoneNodeCaps(*g)
		where = fmt.Sprintf("its zone spread, skew %d, over %d zones of at most %s nodes, %s pods each", slices.Min(spreads), len(g.Zones),
			joinInts(caps, 1), joinInts(caps, per))
	}
	var remedies []string
	r, ok := c.largestRollout(holds)
	if pr := c.p.pausedLower(r); ok && pr != "" {
		remedies = append(remedies, pr)
	} else if ok && c.p.Paused == 0 {
		remedies = append(remedies, fmt.Sprintf("the largest %s whose rollout fits is %s", maxName, resource.Group(r)))
	} else {
		remedies = append(remedies, fmt.Sprintf("no %s at or above its minimum of %s leaves room for its rollout", maxName, resource.Group(floor)))
	}
	if holds > peak && c.p.hasMaxSurge() {
		remedies = append(remedies, fmt.Sprintf("lower the rollout's maxSurge to %s", resource.Group(holds-peak)))
	} else if holds > peak {
		remedies = append(remedies, fmt.Sprintf("give the Argo Rollout a canary strategy with a maxSurge of at most %s (without one its blue-green preview is as large as the active set)",
			resource.Group(holds-peak)))
	}
	remedies = append(remedies, raiseGroup(*g, per, peak+surge, spreads))
	c.warn("KCAP-W1", mp,
		"node group %s holds the peak of %s replicas%s on %s of its %s nodes, but a rollout at peak adds %s surge pods, %s in all, and the group holds %s pods of the target (%s): the rollout will stall or run slowly at full scale; %s",
		name, resource.Group(peak), c.p.pausedWhy(), resource.Group(nodes), resource.Group(g.MaxNodes), resource.Group(surge), resource.Group(peak+surge),
		resource.Group(holds), where, joinOr(remedies))
}

// zoneSkews is the skew of each zonal DoNotSchedule spread of the target, at least 1.
func (c *peakChecker) zoneSkews() []int64 {
	var out []int64
	if c.p.Workload == nil {
		return nil
	}
	for _, sc := range c.p.Workload.TopologySpread {
		if sc.TopologyKey == ZoneKey && sc.WhenUnsatisfiable == "DoNotSchedule" {
			out = append(out, max(sc.MaxSkew, 1))
		}
	}
	return out
}

// largestRollout is the largest maximum, from the floor up to the peak, whose replicas and rollout surge
// together stay within holds pods; false when even the floor's do not.
func (c *peakChecker) largestRollout(holds int64) (int64, bool) {
	pods := func(r int64) int64 { s, _ := c.p.surgeFor(r); return r + s }
	lo, hi := c.p.floor(), c.p.Replicas
	if lo > hi || pods(lo) > holds {
		return 0, false
	}
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if pods(mid) <= holds {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo, true
}

// zoneCap is what group g holds of a workload, per pods a node, under zonal spreads of skews (KCAP-E3):
// the least zone room; per × MaxNodes without a zone or a spread.
func zoneCap(g NodeGroupCapacity, per int64, skews []int64) int64 {
	total := per * g.MaxNodes
	if len(g.Zones) == 0 {
		return total
	}
	for _, k := range skews {
		total = min(total, zoneRoom(zoneNodeCaps(g), per, k))
	}
	return total
}

// raiseGroup names the group's maximum size with which it holds pods pods of a workload, per per node,
// under the zonal spreads of skews (KCAP-E2 and KCAP-E3 both pass), and the nodes per zone when the
// group's max_nodes_per_zone is too few for any size.
func raiseGroup(g NodeGroupCapacity, per, pods int64, skews []int64) string {
	need := resource.CeilDiv(pods, per)
	z := int64(len(g.Zones))
	if z == 0 || len(skews) == 0 {
		return fmt.Sprintf("raise the group's maximum size to %s nodes", resource.Group(need))
	}
	holds := func(h NodeGroupCapacity, m int64) bool {
		h.MaxNodes = m
		return zoneCap(h, per, skews) >= pods
	}
	// Every zone with need nodes holds the pods whatever the skew: the search ends by z × need.
	hi := z * need
	if !holds(g, hi) {
		h := g
		h.MaxNodesPerZone = nil
		m := searchNodes(func(m int64) bool { return holds(h, m) }, need, hi)
		if m <= g.MaxNodes {
			// The group's size is enough: only its nodes per zone are too few (never name the size it has).
			pz := searchNodes(func(p int64) bool { h := g; h.MaxNodesPerZone = &p; return holds(h, g.MaxNodes) },
				*g.MaxNodesPerZone, resource.CeilDiv(g.MaxNodes, z))
			return fmt.Sprintf("raise the group's nodes per zone to %s (its %s nodes per zone are too few; its maximum size of %s nodes is enough)",
				resource.Group(pz), resource.Group(*g.MaxNodesPerZone), resource.Group(g.MaxNodes))
		}
		return fmt.Sprintf("raise the group's maximum size to %s nodes and its nodes per zone to %s (its %s nodes per zone are too few)",
			resource.Group(m), resource.Group(resource.CeilDiv(m, z)), resource.Group(*g.MaxNodesPerZone))
	}
	m := searchNodes(func(m int64) bool { return holds(g, m) }, need, hi)
	if m > need {
		// More nodes than the pods fill: say that the zone spread asks for them.
		h := g
		h.MaxNodes = m
		return fmt.Sprintf("raise the group's maximum size to %s nodes (%s per zone for the zone spread; %s without it)",
			resource.Group(m), resource.Group(slices.Min(zoneNodeCaps(h))), resource.Group(need))
	}
	return fmt.Sprintf("raise the group's maximum size to %s nodes", resource.Group(m))
}

// searchNodes is the least m in [lo, hi] with ok(m), ok being monotone and true at hi.
func searchNodes(ok func(int64) bool, lo, hi int64) int64 {
	for lo < hi {
		mid := lo + (hi-lo)/2
		if ok(mid) {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}

// joinOr joins remedies as "a, b or c".
func joinOr(parts []string) string {
	if len(parts) <= 1 {
		return strings.Join(parts, "")
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " or " + parts[len(parts)-1]
}

// zoneNodeCaps is the most nodes the group has in each of its zones (keda.md §9.2): MaxNodes spread over the zones as
// evenly as the group balances them, each at most MaxNodesPerZone when the group declares it; without it, floor(MaxNodes /
// zones) in every zone (the share of the zones with one node fewer, as a group need not balance).
func zoneNodeCaps(g NodeGroupCapacity) []int64 {
	z := int64(len(g.Zones))
	caps := make([]int64, z)
	for i := range caps {
		caps[i] = g.MaxNodes / z
		if g.MaxNodesPerZone != nil {
			if int64(i) < g.MaxNodes%z {
				caps[i]++
			}
			caps[i] = min(caps[i], *g.MaxNodesPerZone)
		}
	}
	return caps
}

// zoneRoom is the most pods of a workload, per per node, that zones of caps nodes hold under a DoNotSchedule zone
// spread of skew k: no zone holds more than its nodes do, nor more than k beyond the emptiest, so the emptiest
// zone's room bounds the others (Σ min(room_i, min room + k)). kube-scheduler reaches it: while some zone has room the
// emptiest does, and a pod there keeps the skew.
func zoneRoom(caps []int64, per, k int64) int64 {
	if len(caps) == 0 {
		return 0
	}
	least := slices.Min(caps) * per
	var room int64
	for _, c := range caps {
		room += min(c*per, least+k)
	}
	return room
}

// joinInts spells counts times unit, "3" when they are equal, else "4, 3 and 3".
func joinInts(counts []int64, unit int64) string {
	parts := make([]string, len(counts))
	for i, c := range counts {
		parts[i] = resource.Group(c * unit)
	}
	if slices.Min(counts) == slices.Max(counts) {
		return parts[0]
	}
	return field.JoinAnd(parts)
}

// checkDatabase runs KCAP-E4 and KCAP-W2 for this workload alone against db.
func (c *peakChecker) checkDatabase(db Database) {
	p, peak, maxName := c.p, c.p.Replicas, c.p.MaxName
	if p.Workload == nil || p.Workload.ConnectionsPerPod == nil {
		c.fail("KCAP-E4", field.NewPath("TargetWorkload", "ConnectionsPerPod"), "",
			"a database budget is given but not the connections each pod holds (connections per pod)")
		return
	}
	conn := *p.Workload.ConnectionsPerPod
	pods := func(r int64) int64 { s, _ := p.surgeFor(r); return r + s }
	b := DatabaseBudget(db, pods(peak)*conn)
	name := strconv.Quote(db.Name)
	floor := min(p.floor(), peak)
	// lower names the largest maximum, from the floor up to the peak, whose pods stay within limit
	// connections, or says that even the floor's do not.
	lower := func(limit int64, largest, none string) string {
		need := func(r int64) int64 { return pods(r)*conn + db.OtherClients }
		if need(floor) > limit {
			return fmt.Sprintf("no %s at or above its minimum of %d %s (%d pods need %d connections)", maxName, floor, none, pods(floor), need(floor))
		}
		lo, hi := floor, peak
		for lo < hi {
			mid := (lo + hi + 1) / 2
			if need(mid) <= limit {
				lo = mid
			} else {
				hi = mid - 1
			}
		}
		if p.Paused > 0 {
			if r := p.pausedLower(lo); r != "" {
				return r
			}
			return fmt.Sprintf("no %s at or above its minimum of %d %s while the %s annotation holds %d replicas", maxName, floor, none, AnnotationPausedReplicas, p.Paused)
		}
		return fmt.Sprintf(largest, maxName, lo)
	}
	surge := pods(peak) - peak
	rollout := ""
	if surge > 0 {
		rollout = fmt.Sprintf(" (%d replicas plus %d surge pods during a rollout)", peak, surge)
	}
	others := ""
	if db.OtherClients > 0 {
		others = fmt.Sprintf(" plus %d other clients", db.OtherClients)
	}
	if b.Demand > b.Hard {
		c.fail("KCAP-E4", p.MaxPath, itoa(peak),
			"database %s allows %d client connections but %d pods%s%s × %d connections per pod%s need %d at peak; %s, raise its max_connections to %d, or put a connection pooler (RDS Proxy, ProxySQL, PgBouncer) in front of it",
			name, b.Hard, pods(peak), rollout, p.pausedWhy(), conn, others, b.Demand, lower(b.Hard, "the largest safe %s is %d", "is enough"), b.Demand+db.ReservedConnections)
	} else if b.Demand > b.Soft {
		c.warn("KCAP-W2", p.MaxPath,
			"database %s: %d connections at peak exceed the usable share (%d of %d): databases often refuse connections well before their documented limit (small burstable classes such as db.t* also lose capacity when their CPU credits run out); %s, or use a connection pooler",
			name, b.Demand, b.Soft, b.Hard, lower(b.Soft, "the largest %s within the usable share is %d", "keeps within it"))
	}
}
