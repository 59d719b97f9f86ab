package fit

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
)

// Formula ids of the numbers a Result carries (see the package documentation for the formulas).
const (
	// SourceDaemonSets: workload allocatable = allocatable − Σ requests of the DaemonSets that land on
	// the pool (overhead.md §9; the overhead model's id).
	SourceDaemonSets = "daemonset.requests"
	// SourceLowerBound: PoolResult.LowerBound.
	SourceLowerBound = "fit.lower-bound"
	// SourceUtilization: PoolResult.Utilization and UtilizationWithDaemonSets.
	SourceUtilization = "fit.utilization"
	// SourceStranded: PoolResult.Stranded.
	SourceStranded = "fit.stranded"
	// SourceHeadroom: Headroom.Replicas.
	SourceHeadroom = "fit.headroom"
	// SourceSurge: the peak pod count MaxReplicas + ceil(MaxReplicas × surge% / 100).
	SourceSurge = "fit.surge-ceil"
)

// Result is the outcome of a plan: per-pool DaemonSet overhead, both scenarios, headroom and every
// failure. It is a pure function of the input.
type Result struct {
	// Fits is true when both scenarios fit.
	Fits bool
	// Pools holds the DaemonSet overhead of every pool, in input order.
	Pools []PoolOverhead
	// Scenarios holds the steady and the peak scenario, in that order.
	Scenarios []ScenarioResult
	// Headroom holds, per workload in input order, how many more replicas fit in the peak packing.
	Headroom []Headroom
	// Failures lists pool-level failures first (Scenario ""), then per scenario, workload and pool in
	// input order, then the disruption scenarios' (Reason ReasonDisruption, Scenario steady).
	Failures []Failure
	// Disruptions holds the verdict of every Input.Disruptions scenario, in input order.
	Disruptions []DisruptionResult
	// NodeLossWarning is, when the steady scenario fits with a pool at its maximum node count and node_loss
	// is not among Input.Disruptions, what losing that pool's busiest node would leave Pending (spare.go);
	// nil when nothing would be. A warning: it does not change Fits.
	NodeLossWarning *DisruptionResult
}

// PoolOverhead is what the DaemonSets take from every node of a pool.
type PoolOverhead struct {
	Pool         string
	InstanceType string
	// Allocatable is the kubelet allocatable of one node, as given.
	Allocatable Resources
	// DaemonSets names the DaemonSets that land on the pool, in input order.
	DaemonSets []string
	// DaemonSetRequests sums their requests; Pods counts the pod slots they take.
	DaemonSetRequests Resources
	// DaemonSetCPUUsageMillicores sums their expected CPU usage per node.
	DaemonSetCPUUsageMillicores int64
	// WorkloadAllocatable is Allocatable − DaemonSetRequests: what one node offers to workloads.
	WorkloadAllocatable Resources
	// Usable is false when WorkloadAllocatable is ≤ 0 in CPU, memory or pods, or < 0 elsewhere.
	Usable bool
	Source string
}

// ScenarioResult is the packing of one scenario.
type ScenarioResult struct {
	Scenario Scenario
	// Fits is true when every pool fits and every pod is placed.
	Fits bool
	// Strategy is StrategyScheduler: node counts, node lists and every figure of the pools come from the
	// scheduler model's placement. OptimalStrategy is the id of the packing strategy that produced the
	// best packing (see Strategies), whose node counts are PoolResult.NodesOptimal.
	Strategy        string
	OptimalStrategy string
	// Scheduler is the profile the scheduler model followed (Input.Scheduler, ProfileDefault when empty).
	Scheduler SchedulerProfile
	// NodesRequired and NodesOptimal sum the pools' counts.
	NodesRequired int
	NodesOptimal  int
	// BoundBy names the arrival order that needed the most nodes, "" when every planned order binds on
	// the best packing's node counts.
	BoundBy string
	// SchedulerNote says, when not empty, that the scheduler model did not run or did not check every
	// planned order (its work budget), and what the counts are then.
	SchedulerNote string
	// Margin says, when not empty, that the node counts carry nodes more than the model verified, and why: tieMargin
	// nodes more than the fewest on which every planned order bound, per pool the search grew (tieMarginFor: "plus 2
	// nodes per pool …"), or, when the model did not run, the any-fit bound's nodes over the best packing
	// (addUnmodelledMargin: "plus N nodes over the best packing, as the scheduler model did not run: …").
	Margin string
	// ModelWork is the nodes the scheduler model filtered and scored for the scenario, its disruptions included,
	// a node counting once more per 8 inter-pod terms and spread constraints the pod's filter and score read there: its
	// work, the same for the same input (callers that plan many inputs budget with it).
	ModelWork int64
	// Pods is the scenario's pod count over all workloads; UnplacedPods the pods no pool can take.
	Pods         int
	UnplacedPods int
	Pools        []PoolResult
	Placements   []Placement
}

// PoolResult is one pool in one scenario.
type PoolResult struct {
	Pool         string
	InstanceType string
	MinNodes     int
	MaxNodes     int
	// NodesRequired is the number of nodes the pool needs for the pods the scheduler model places on it
	// in every planned arrival order, at least MinNodes; it exceeds MaxNodes when the pods do not fit
	// within MaxNodes. NodesOptimal is the best packing's count (what a bin-packing scheduler profile or
	// a descheduler could reach). NodesRequired is below it only where the packer kept a share of a
	// zone-spread workload for a zone no node of the pool reaches within MaxNodes, which the scheduler
	// does not know of.
	NodesRequired int
	NodesOptimal  int
	// Fits is true when NodesRequired ≤ MaxNodes and the pool's DaemonSets leave room for pods.
	Fits bool
	// LowerBound is a lower bound on the nodes any packing of the pool's pods (those the placement puts on it, which
	// with workloads free to use several pools can differ from the best packing's) needs (fit.lower-bound);
	// LowerBoundBy names the binding term: a resource ("cpu"), "workload \"x\"" (pods of one workload
	// per node, or its spread) or "min-nodes".
	LowerBound   int
	LowerBoundBy string
	// Pods is the number of workload pods placed on the pool; PodsBeyondMax of those need nodes
	// beyond MaxNodes.
	Pods          int
	PodsBeyondMax int
	// Requested sums the requests of the pool's workload pods (Pods = their number).
	Requested Resources
	// WorkloadAllocatable and Allocatable are NodesRequired × the per-node amounts.
	WorkloadAllocatable Resources
	Allocatable         Resources
	// Utilization is Requested / WorkloadAllocatable (DaemonSets excluded); UtilizationWithDaemonSets
	// is (Requested + NodesRequired × DaemonSet requests) / Allocatable.
	Utilization               Utilization
	UtilizationWithDaemonSets Utilization
	// Stranded sums, over the nodes that cannot take even one more pod of any workload of the scenario
	// that may run on the pool, the requests left free on them (fit.stranded).
	Stranded Resources
	// Nodes lists every node: the first MaxNodes (or fewer) in creation order, then those beyond.
	Nodes []NodeUsage
	// MaxNodeCPUUsageMillicores is the largest CPUUsageMillicores over Nodes.
	MaxNodeCPUUsageMillicores int64
	// PricePerHour is NodesRequired × the pool's price per node (0 when unknown).
	PricePerHour float64
	// Shortfall explains, when the pool needs more than MaxNodes, what its pods request against what
	// MaxNodes nodes offer ("… short by 235m CPU."), or that the room is stranded; "" otherwise.
	Shortfall string
	// Remedy names the kind of instance type that would need fewer nodes beside a higher maximum: "a larger
	// instance type", or one that attaches more volumes when the volume attachments are short.
	Remedy string
	// Explanation says, for each workload whose pods the scheduler model left Pending, how many of the
	// pool's nodes each filter turned them away from and what preemption would do, when more than room is
	// involved ("" otherwise, and for a best packing).
	Explanation string
	// Disk is set when some node's attachable volumes are provisioned for more IOPS or throughput than its
	// instance type sustains for all its volumes together (disks.go); nil otherwise or when unknown.
	Disk *DiskShare
	// Source is the id of the packing strategy.
	Source string
}

// Utilization is a fraction per resource (0 when the denominator is 0).
type Utilization struct {
	CPU              float64
	Memory           float64
	EphemeralStorage float64
	Pods             float64
	GPU              float64
}

func utilization(num, den vec) Utilization {
	return Utilization{ratio(num[rCPU], den[rCPU]), ratio(num[rMem], den[rMem]), ratio(num[rEph], den[rEph]),
		ratio(num[rPods], den[rPods]), ratio(num[rGPU], den[rGPU])}
}

// NodeUsage is one simulated node.
type NodeUsage struct {
	// Index is the node's 1-based position in its pool.
	Index int
	// Zone is the node's zone ("" for a pool without zones): Zones[(Index−1) mod len(Zones)] within
	// MaxNodes; beyond MaxNodes the zone that needed the node.
	Zone      string
	BeyondMax bool
	// Pods is the number of workload pods on the node; Requests sums their requests (Pods = Pods).
	Pods     int
	Requests Resources
	// CPUUsageMillicores is the expected CPU use of the node: its DaemonSets' plus its pods'.
	CPUUsageMillicores int64
	// Workloads lists the pods of each workload on the node, in the order the workloads were first
	// placed there; their Pods sum to Pods.
	Workloads []WorkloadPods
}

// WorkloadPods is a number of pods of one workload on one node.
type WorkloadPods struct {
	Workload string
	Pods     int
}

// Placement is where the pods of one workload went in one scenario.
type Placement struct {
	Workload string
	Pods     int
	// Pools lists the pools holding pods of the workload, in input order.
	Pools    []PoolPods
	Unplaced int
}

// PoolPods is the number of pods of a workload on one pool, BeyondMax of them on nodes beyond MaxNodes.
type PoolPods struct {
	Pool      string
	Pods      int
	BeyondMax int
}

// Headroom is how many more replicas of one workload alone fit in the peak packing within MaxNodes,
// on the free room of the existing nodes plus fresh nodes up to MaxNodes, respecting spread. It is 0
// when the workload's own peak does not fit.
type Headroom struct {
	Workload string
	Replicas int64
	Source   string
}

// Failure explains why a workload's pods do not (all) fit a pool, or why a pool cannot run pods.
type Failure struct {
	// Workload is empty for a pool-level failure (ReasonDaemonSets).
	Workload string
	Pool     string
	// Scenario is empty when the failure does not depend on the scenario.
	Scenario Scenario
	Reason   Reason
	Message  string
}

func (s *sim) result() ScenarioResult {
	sr := ScenarioResult{Scenario: s.scenario, Fits: true, Strategy: s.strat.id, SchedulerNote: s.note, Margin: s.margin, ModelWork: s.work,
		Scheduler: cmp.Or(s.m.in.Scheduler, ProfileDefault)}
	var onNode [][]WorkloadPods
	if !s.m.in.OmitNodes {
		onNode = s.nodeWorkloads()
	}
	for p := range s.pools {
		pr := s.poolResult(p, onNode)
		sr.Fits = sr.Fits && pr.Fits
		sr.Pools = append(sr.Pools, pr)
	}
	for w := range s.classes {
		c := &s.classes[w]
		sr.Pods += c.n
		sr.UnplacedPods += c.unplaced
		pl := Placement{Workload: s.m.in.Workloads[w].Name, Pods: c.n, Unplaced: c.unplaced}
		for p := range s.m.pools {
			if pp := c.pos[p]; pp >= 0 && c.in[pp]+c.beyond[pp] > 0 {
				pl.Pools = append(pl.Pools, PoolPods{Pool: s.m.pools[p].p.Name, Pods: c.in[pp] + c.beyond[pp],
					BeyondMax: c.beyond[pp]})
				if c.beyond[pp] > 0 {
					// Pods the scheduler left Pending below the maximum node count (no count bound them)
					// sit on nodes counted beyond it: the pool does not fit, whatever its count says.
					sr.Pools[p].Fits, sr.Fits = false, false
				}
			}
		}
		sr.Placements = append(sr.Placements, pl)
	}
	// Pools holding pods whose pool the scheduler model did not decide (addUnmodelledMargin) cannot be said to fit.
	for _, w := range s.unmodelled {
		c := &s.classes[w]
		for pp, p := range c.pools {
			if c.in[pp]+c.beyond[pp] > 0 {
				sr.Pools[p].Fits = false
			}
		}
	}
	sr.Fits = sr.Fits && sr.UnplacedPods == 0 && len(s.unmodelled) == 0
	return sr
}

// poolDemand returns the summed requests of the pods placed on pool p, beyond MaxNodes included,
// computed once per pool.
func (s *sim) poolDemand(p int) vec {
	if s.demand == nil {
		s.demand = make([]*vec, len(s.pools))
	}
	if s.demand[p] == nil {
		var d vec
		for _, id := range s.poolNodes(p) {
			d = d.add(s.nodes[id].used)
		}
		s.demand[p] = &d
	}
	return *s.demand[p]
}

// poolNodes returns a pool's nodes: within MaxNodes first, then beyond, each in creation order.
func (s *sim) poolNodes(p int) []int32 {
	ps := &s.pools[p]
	return append(slices.Clip(ps.in.ids), ps.over.ids...)
}

// nodeWorkloads returns, per node id, the pods of each workload on it, in the order the workloads were
// first placed there.
func (s *sim) nodeWorkloads() [][]WorkloadPods {
	// Chain each node's log entries (next[i] is the node's entry after entry i, or -1), so each node's
	// entries are read together and in order; all lists share one backing array.
	head := make([]int32, len(s.nodes))
	for n := range head {
		head[n] = -1
	}
	next := make([]int32, len(s.log))
	for i := len(s.log) - 1; i >= 0; i-- {
		e := &s.log[i]
		next[i] = head[e.node]
		head[e.node] = int32(i)
	}
	all := make([]WorkloadPods, 0, len(s.log))
	ws := make([]int32, 0, len(s.log)) // the workload of each entry of all, compared instead of its name
	out := make([][]WorkloadPods, len(s.nodes))
	for n := range s.nodes {
		first := len(all)
	entries:
		for i := head[n]; i >= 0; i = next[i] {
			e := &s.log[i]
			for j := first; j < len(ws); j++ {
				if ws[j] == e.w {
					all[j].Pods += int(e.k)
					continue entries
				}
			}
			all = append(all, WorkloadPods{Workload: s.m.in.Workloads[e.w].Name, Pods: int(e.k)})
			ws = append(ws, e.w)
		}
		out[n] = all[first:len(all):len(all)]
	}
	return out
}

func (s *sim) poolResult(p int, onNode [][]WorkloadPods) PoolResult {
	pm := &s.m.pools[p]
	nodes := s.poolNodes(p)
	n := len(nodes)
	pr := PoolResult{Pool: pm.p.Name, InstanceType: pm.p.InstanceType, MinNodes: pm.p.MinNodes,
		MaxNodes: pm.p.MaxNodes, NodesRequired: n, Source: s.strat.id, PodsBeyondMax: 0}
	pr.Fits = pm.usable && n <= pm.p.MaxNodes
	pr.LowerBound, pr.LowerBoundBy = s.lowerBound(p)
	var req vec
	var front []vec
	if n > 0 {
		front = s.requestFront(p) // a sort of the classes per pool: 2,000 empty pools × 2,000 classes took 2 s
	}
	var stranded vec
	if !s.m.in.OmitNodes {
		pr.Nodes = make([]NodeUsage, 0, n)
	}
	for i, id := range nodes {
		nd := &s.nodes[id]
		req = req.add(nd.used)
		free := nd.free
		if !slices.ContainsFunc(front, func(r vec) bool { return r.fits(free) }) {
			stranded = stranded.add(free)
		}
		zone := ""
		if len(pm.zones) > 0 {
			zone = s.m.zoneNames[pm.zones[nd.zone]]
		}
		usage := satAdd(nd.usage, pm.dsUsage)
		pr.MaxNodeCPUUsageMillicores = max(pr.MaxNodeCPUUsageMillicores, usage)
		if !s.m.in.OmitNodes {
			pr.Nodes = append(pr.Nodes, NodeUsage{Index: i + 1, Zone: zone, BeyondMax: nd.beyond, Pods: int(nd.used[rPods]),
				Requests: nd.used.resources(), CPUUsageMillicores: usage, Workloads: onNode[id]})
		}
		if nd.beyond {
			pr.PodsBeyondMax += int(nd.used[rPods])
		}
	}
	pr.Pods = int(req[rPods])
	pr.Requested = req.resources()
	wtot := pm.walloc.scale(int64(n))
	atot := pm.alloc.scale(int64(n))
	pr.WorkloadAllocatable = wtot.resources()
	pr.Allocatable = atot.resources()
	pr.Utilization = utilization(req, wtot)
	pr.UtilizationWithDaemonSets = utilization(req.add(pm.ds.scale(int64(n))), atot)
	pr.Stranded = stranded.resources()
	pr.PricePerHour = float64(n) * pm.p.PricePerHour
	if n > pm.p.MaxNodes {
		pr.Shortfall, pr.Remedy = s.shortText(p), s.largerType(p)
	}
	pr.Disk = s.diskShare(p, nodes)
	for w, ex := range s.explain {
		if ex != nil && ex[p] != "" {
			pr.Explanation = strings.TrimSpace(pr.Explanation + fmt.Sprintf(" Workload %q (Pending): %s", s.m.in.Workloads[w].Name, ex[p]))
		}
	}
	return pr
}

// requestFront returns the minimal request vectors (none smaller in every resource) of the classes of
// the scenario that may run on pool p: a node can take some pod of the scenario exactly when it can
// take one of these.
func (s *sim) requestFront(p int) []vec {
	pm := &s.m.pools[p]
	type cand struct {
		r   vec
		sum float64
	}
	cands := make([]cand, 0, len(s.classes))
	for w := range s.classes {
		c := &s.classes[w]
		if c.n > 0 && c.pos[p] >= 0 {
			_, sum := shares(c.req, pm.walloc)
			cands = append(cands, cand{c.req, sum})
		}
	}
	slices.SortStableFunc(cands, func(a, b cand) int { return cmp.Compare(a.sum, b.sum) })
	var front []vec
	for _, c := range cands {
		if !slices.ContainsFunc(front, func(f vec) bool { return f.fits(c.r) }) {
			front = append(front, c.r)
		}
	}
	return front
}

// lowerBound returns a lower bound on the nodes pool p needs for the pods placed on it and the term
// that gives it: per resource ceil(Σ requests / per-node workload allocatable), tightened by dual
// feasible functions (dffBound); per workload ceil(pods / pods per fresh node), or under zone spread
// the sum of that over zones; and MinNodes.
func (s *sim) lowerBound(p int) (int, string) {
	pm := &s.m.pools[p]
	best, by := int64(0), ""
	items := &s.items
	for r := range nRes {
		items[r] = items[r][:0]
	}
	for w := range s.classes {
		c := &s.classes[w]
		pp := c.pos[p]
		if pp < 0 || c.in[pp]+c.beyond[pp] == 0 {
			continue
		}
		for r := range nRes {
			items[r] = append(items[r], item{n: int64(c.in[pp] + c.beyond[pp]), s: c.req[r]})
		}
	}
	for r := range nRes {
		if b := dffBound(items[r], pm.walloc[r]); b > best {
			best, by = b, string(ResourceNames[r])
		}
	}
	for w := range s.classes {
		c := &s.classes[w]
		pp := c.pos[p]
		if pp < 0 || c.in[pp]+c.beyond[pp] == 0 {
			continue
		}
		k := c.perNode[pp]
		var b int64
		if c.zoneCounts != nil {
			for _, cnt := range c.zoneCounts[pp] {
				b += ceilDiv(int64(cnt), k)
			}
		} else {
			b = ceilDiv(int64(c.in[pp]+c.beyond[pp]), k)
		}
		if b > best {
			best, by = b, "workload "+strconv.Quote(s.m.in.Workloads[w].Name)
		}
	}
	if int64(pm.p.MinNodes) > best {
		best, by = int64(pm.p.MinNodes), "min-nodes"
	}
	return int(best), by
}

// failures explains every workload of the scenario that is not fully placed within MaxNodes, pool by
// pool.
func (s *sim) failures() []Failure {
	var out []Failure
	for _, w := range s.unmodelled {
		out = append(out, s.unmodelledFailure(w))
	}
	for w := range s.classes {
		c := &s.classes[w]
		beyond := 0
		for _, b := range c.beyond {
			beyond += b
		}
		if c.unplaced == 0 && beyond == 0 {
			continue
		}
		name := s.m.in.Workloads[w].Name
		if c.affExcess > 0 {
			limit, why, reason := s.m.affinityCap(w)
			verb, remedy := "bind", fmt.Sprintf("Run at most %d replicas, or loosen the rule (a key with more values, such as %s; a larger max skew; fewer min domains)",
				limit, strconv.Quote(hostnameKey))
			if c.affExcess == 1 {
				verb = "binds"
			}
			if limit == 0 {
				remedy = "Plan the pods and nodes the rule needs beside it, or change the rule"
			}
			out = append(out, Failure{Workload: name, Pool: s.m.pools[s.m.eligible[w][0]].p.Name, Scenario: s.scenario, Reason: reason,
				Message: fmt.Sprintf("%s of workload %q %s on no node in %s, however many nodes there are: %s. %s",
					Plural(c.affExcess, "pod", "pods"), name, verb, s.scenarioText(), why, remedy)})
		}
		if c.stuck > 0 {
			out = append(out, s.stuckFailure(w))
		}
		if c.affExcess+c.stuck > 0 && c.unplaced == c.affExcess+c.stuck && beyond == 0 {
			continue
		}
		for p := range s.m.pools {
			f := Failure{Workload: name, Pool: s.m.pools[p].p.Name, Scenario: s.scenario}
			if ex := s.m.excl[w][p]; ex != "" {
				f.Reason, f.Message = ex, s.m.exclusionMessage(w, p)
			} else {
				// How the scheduler model placed the pods (the worst planned order) is said once per plan
				// (SchedulerNote), not in every failure.
				f.Reason, f.Message = s.capacityFailure(c, c.pos[p])
			}
			out = append(out, f)
		}
	}
	return out
}

func (s *sim) scenarioText() string {
	return "the " + string(s.scenario) + " scenario"
}

// requestText describes one pod's requests: "150m CPU and 200 MiB memory".
func requestText(req vec) string {
	var parts []string
	for r := range nRes {
		if r != rPods && req[r] > 0 {
			parts = append(parts, formatAmount(ResourceNames[r], req[r]))
		}
	}
	if len(parts) == 0 {
		return "one pod slot"
	}
	return field.JoinAnd(parts)
}

// capacityFailure explains why class c did not fit within MaxNodes on the pool at position pp of its
// pools: node spread needing more nodes than the pools allow, zone spread finding no room in a zone
// while the pool could still grow elsewhere, or the pool's MaxNodes.
func (s *sim) capacityFailure(c *classSim, pp int) (Reason, string) {
	p := c.pools[pp]
	pm := &s.m.pools[p]
	ps := &s.pools[p]
	wl := &s.m.in.Workloads[c.w]
	nodes := len(ps.in.ids) + len(ps.over.ids)
	if c.spread == SpreadNode {
		total := 0
		var limits []string
		for _, q := range c.pools {
			total += s.m.pools[q].p.MaxNodes
			limits = append(limits, fmt.Sprintf("pool %q at most %d nodes", s.m.pools[q].p.Name, s.m.pools[q].p.MaxNodes))
		}
		if c.n > total && wl.Spread.Type != SpreadNode {
			return ReasonHostPort, fmt.Sprintf("workload %q asks for host port(s) %s, so no two of its pods share a node: its %d pods "+
				"in %s need %d nodes, but its pools allow at most %d (%s); %d pod(s) stay Pending; raise the maximum node count of %s to %d or drop the host port",
				wl.Name, describePorts(wl.HostPorts), c.n, s.scenarioText(), c.n, total, strings.Join(limits, ", "), c.n-total, poolLabel(pm.p),
				pm.p.MaxNodes+c.n-total)
		}
		if c.n > total {
			return ReasonSpread, fmt.Sprintf("workload %q spreads one pod per node and needs %d nodes for its %d pods "+
				"in %s, but its pools allow at most %d (%s); raise the maximum node count of %s to %d or relax the node spread",
				wl.Name, c.n, c.n, s.scenarioText(), total, strings.Join(limits, ", "), poolLabel(pm.p),
				pm.p.MaxNodes+c.n-total)
		}
	}
	if c.spread == SpreadZone {
		// The spread is to blame when the pool could still grow, or one of the zones that ran out of
		// room can never get a node within max_nodes.
		blame := len(ps.in.ids) < pm.p.MaxNodes
		var zones []string
		for d, z := range c.domains {
			if lz := c.localZ[pp][d]; lz >= 0 && c.blocked[d] {
				zc := zoneCapacity(pm.p.MaxNodes, pm.nz, lz)
				blame = blame || zc == 0
				zones = append(zones, fmt.Sprintf("zone %q holds at most %d of its %d nodes", s.m.zoneNames[z], zc,
					pm.p.MaxNodes))
			}
		}
		if blame && len(zones) > 0 {
			return ReasonSpread, fmt.Sprintf("workload %q spreads over zones with max skew %d; in %s it needs room "+
				"in zones where %s cannot add nodes within its maximum node count %d (nodes are spread round-robin over zones %s: "+
				"%s); %d of its pods need nodes beyond the maximum; raise the maximum node count, raise the maximum skew or allow more pools",
				wl.Name, c.skew, s.scenarioText(), poolLabel(pm.p), pm.p.MaxNodes, field.QuoteList(s.poolZoneNames(p)),
				strings.Join(zones, "; "), sumInts(c.beyond))
		}
	}
	closest := s.pendingText(c, pp) + s.extendedText(c, pp) + s.gpuSharersText(c, p)
	if c.beyond[pp] > 0 && nodes <= pm.p.MaxNodes {
		// Counted beyond a pool that is within its maximum: the scheduler model left them Pending on the
		// capped counts because another pool they may use reached its maximum (stuck pods are unplaced,
		// not counted here).
		verb := "stay"
		if c.beyond[pp] == 1 {
			verb = "stays"
		}
		return ReasonMaxNodes, fmt.Sprintf("%s of workload %q %s Pending in %s: the pools it may use that have room are at their "+
			"maximum node counts, and %s has no node that takes them. %s Raise the maximum node count of a pool it may use, or choose %s.",
			Plural(c.beyond[pp], "pod", "pods"), wl.Name, verb, s.scenarioText(), poolLabel(pm.p), closest, s.largerType(p))
	}
	if c.beyond[pp] > 0 {
		verb := "do"
		if c.beyond[pp] == 1 {
			verb = "does"
		}
		return ReasonMaxNodes, fmt.Sprintf("%s needs %d nodes in %s but its maximum node count is %d: %s of workload %q %s "+
			"not fit within them. %s %s Raise the maximum node count to %d or choose %s.",
			poolLabel(pm.p), nodes, s.scenarioText(), pm.p.MaxNodes, Plural(c.beyond[pp], "pod", "pods"), wl.Name,
			verb, s.shortText(p), closest, nodes, s.largerType(p))
	}
	return ReasonMaxNodes, fmt.Sprintf("%s is at its maximum node count %d in %s and cannot take more pods of workload %q. %s %s "+
		"Raise the maximum node count or choose %s.", poolLabel(pm.p), pm.p.MaxNodes, s.scenarioText(),
		wl.Name, s.shortText(p), closest, s.largerType(p))
}

// extendedText says, for a class whose extended resources limit its pods per node of the pool at position pp,
// that limit (extended.go): " A node holds at most 2 of its pods by their extended resources (…)."; "" otherwise.
func (s *sim) extendedText(c *classSim, pp int) string {
	if c.caps == nil || c.caps[pp] == 0 {
		return ""
	}
	wl := &s.m.in.Workloads[c.w]
	pl := s.m.pools[c.pools[pp]].p
	var parts []string
	for _, name := range extendedNames(wl) {
		parts = append(parts, fmt.Sprintf("a node offers %s, a pod requests %s", formatExtended(name, pl.Extended[name]),
			formatExtended(name, wl.Extended[name])))
	}
	return fmt.Sprintf(" A node holds at most %s of its pods by their extended resources (%s).", FormatCount(c.caps[pp]),
		strings.Join(parts, "; "))
}

// gpuSharersText names, when class c requests GPUs and pool p's nodes have them, the workloads requesting none
// whose pods share the pool's nodes: the room they take is the GPU pods' (fit.gpu-sharers). The usual remedy
// is a taint on the GPU nodes, which pods requesting nvidia.com/gpu get the toleration of where the
// ExtendedResourceToleration admission plugin runs (kubernetes.io/docs/reference/access-authn-authz/
// admission-controllers/#extendedresourcetoleration; EKS, AKS and GKE run it).
func (s *sim) gpuSharersText(c *classSim, p int) string {
	if c.req[rGPU] == 0 || s.m.pools[p].alloc[rGPU] == 0 {
		return ""
	}
	var names []string
	for o := range s.classes {
		oc := &s.classes[o]
		if pp := oc.pos[p]; oc.req[rGPU] == 0 && pp >= 0 && oc.in[pp]+oc.beyond[pp] > 0 {
			names = append(names, strconv.Quote(s.m.in.Workloads[oc.w].Name))
		}
	}
	if len(names) == 0 {
		return ""
	}
	noun, verb := "workload", "requests"
	if len(names) > 1 {
		noun, verb = "workloads", "request"
	}
	return fmt.Sprintf(" Pods of %s %s, which %s no GPU, take room on its GPU nodes: taint the pool %s:NoSchedule to keep them off "+
		"(a pod requesting %s is given its toleration by the ExtendedResourceToleration admission plugin, which EKS, AKS and GKE run) "+
		"and give them a pool without GPUs.", noun, field.JoinAnd(names), verb, gpuTaintKey, gpuTaintKey)
}

// largerType names the instance type that would help pool p: one that attaches more volumes when the pods'
// volume attachments exceed the pool's, since a larger type of the same family often attaches no more.
func (s *sim) largerType(p int) string {
	pm := &s.m.pools[p]
	if s.poolDemand(p)[rVol] > satMul(pm.walloc[rVol], int64(pm.p.MaxNodes)) {
		return "an instance type that attaches more volumes per node"
	}
	return "a larger instance type"
}

func sumInts(xs []int) int {
	t := 0
	for _, x := range xs {
		t += x
	}
	return t
}

// zoneCapacity is the number of node indexes i < maxNodes with i mod nz = z: how many nodes local zone
// z holds at most under the round-robin zone model.
func zoneCapacity(maxNodes, nz, z int) int {
	if z >= maxNodes {
		return 0
	}
	return (maxNodes-1-z)/nz + 1
}

func (s *sim) poolZoneNames(p int) []string {
	var out []string
	for _, z := range s.m.pools[p].zones {
		out = append(out, s.m.zoneNames[z])
	}
	return out
}

// shortText compares the requests of all pods placed on pool p (beyond MaxNodes included) with the
// workload allocatable of MaxNodes nodes: the resources short in total, or, when the totals fit, the
// free capacity that is stranded because no single node has room.
func (s *sim) shortText(p int) string {
	pm := &s.m.pools[p]
	demand := s.poolDemand(p)
	capacity := pm.walloc.scale(int64(pm.p.MaxNodes))
	var want, have, short, free []string
	for r := range nRes {
		name := ResourceNames[r]
		if d := satSub(demand[r], capacity[r]); d > 0 {
			want = append(want, formatAmount(name, demand[r]))
			have = append(have, formatAmount(name, capacity[r]))
			short = append(short, formatAmount(name, d))
		} else if r == rCPU || r == rMem {
			free = append(free, formatAmount(name, -d))
		}
	}
	nodes := Plural(pm.p.MaxNodes, "node", "nodes")
	if s.margin != "" && !slices.ContainsFunc(s.pools[p].over.ids, func(id int32) bool { return s.nodes[id].used[rPods] > 0 }) {
		return fmt.Sprintf("Its pods are placed within %s, but the count carries the margin the scheduler note gives "+
			"(kube-scheduler can need more nodes than this placement).", nodes)
	}
	if len(short) > 0 {
		return fmt.Sprintf("The pool's pods request %s against %s of workload allocatable on %s: short by %s.",
			field.JoinAnd(want), field.JoinAnd(have), nodes, field.JoinAnd(short))
	}
	return fmt.Sprintf("By their totals the pool's pods would fit %s (%s to spare), but no single node has room: "+
		"that capacity is stranded.", nodes, field.JoinAnd(free))
}

// Plural formats a count with the singular or plural noun: "1 node", "4 nodes".
func Plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return FormatCount(int64(n)) + " " + many
}

// closestNodes describes the nodes within MaxNodes of the pool at position pp that come closest to
// holding one more pod of class c, with what each lacks.
func (s *sim) closestNodes(c *classSim, pp int) string {
	p := c.pools[pp]
	pm := &s.m.pools[p]
	in := s.pools[p].in.ids
	if len(in) == 0 {
		return fmt.Sprintf("The pool has no nodes within its maximum node count %d.", pm.p.MaxNodes)
	}
	held := map[int32]bool{}
	for _, id := range c.held {
		held[id] = true
	}
	// Under zone spread only the nodes of the zones that ran out of room matter.
	var blockedZones map[int32]bool
	if c.spread == SpreadZone {
		for d := range c.domains {
			if lz := c.localZ[pp][d]; lz >= 0 && c.blocked[d] {
				if blockedZones == nil {
					blockedZones = map[int32]bool{}
				}
				blockedZones[int32(lz)] = true
			}
		}
	}
	type gap struct {
		idx   int
		lack  vec
		score float64
	}
	// Keep the shown closest nodes (lowest normalised shortfall, then lowest index) in order.
	const shown = 3
	var gaps []gap
	candidates := 0
	for i, id := range in {
		if held[id] || blockedZones != nil && !blockedZones[s.nodes[id].zone] {
			continue
		}
		candidates++
		free := s.nodes[id].free
		g := gap{idx: i + 1}
		for r := range nRes {
			if d := c.req[r] - free[r]; d > 0 {
				g.lack[r] = d
				g.score += float64(d) / float64(max(pm.walloc[r], 1))
			}
		}
		if len(gaps) == shown && g.score >= gaps[shown-1].score {
			continue
		}
		at, _ := slices.BinarySearchFunc(gaps, g, func(a, b gap) int {
			return cmp.Or(cmp.Compare(a.score, b.score), cmp.Compare(a.idx, b.idx))
		})
		gaps = slices.Insert(gaps, at, g)
		if len(gaps) > shown {
			gaps = gaps[:shown]
		}
	}
	if len(gaps) == 0 {
		if blockedZones != nil {
			return "The pool has no nodes within its maximum node count in the zones that ran out of room."
		}
		return fmt.Sprintf("Every node within the maximum node count already runs a pod of workload %q (node spread).",
			s.m.in.Workloads[c.w].Name)
	}
	var parts []string
	for _, g := range gaps[:min(shown, len(gaps))] {
		zoneSuffix := ""
		if len(pm.zones) > 0 {
			zoneSuffix = fmt.Sprintf(" (zone %s)", s.m.zoneNames[pm.zones[s.nodes[in[g.idx-1]].zone]])
		}
		var lacks []string
		for r := range nRes {
			if g.lack[r] > 0 {
				lacks = append(lacks, formatAmount(ResourceNames[r], g.lack[r]))
			}
		}
		if len(lacks) == 0 {
			parts = append(parts, fmt.Sprintf("node %d%s has room but a scheduling rule keeps the pod off it", g.idx,
				zoneSuffix))
			continue
		}
		parts = append(parts, fmt.Sprintf("node %d%s lacks %s", g.idx, zoneSuffix, field.JoinAnd(lacks)))
	}
	more := ""
	if candidates > shown {
		more = fmt.Sprintf(" (closest %d of %d nodes)", shown, candidates)
	}
	return fmt.Sprintf("One pod needs %s; %s%s.", requestText(c.req), strings.Join(parts, "; "), more)
}
