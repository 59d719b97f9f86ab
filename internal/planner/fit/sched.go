package fit

import (
	"cmp"
	"math/rand/v2"
	"slices"
)

// SchedulerProfile names the kube-scheduler profile whose placement the realistic count follows.
type SchedulerProfile string

// The scheduler profiles. The empty profile means ProfileDefault.
const (
	// ProfileDefault is kube-scheduler's default profile: NodeResourcesFit with LeastAllocated, which
	// spreads pods over the emptiest nodes.
	ProfileDefault SchedulerProfile = "default"
	// ProfileMostAllocated is the default profile with NodeResourcesFit's MostAllocated strategy, which
	// fills the fullest nodes first (GKE's optimize-utilization profile).
	ProfileMostAllocated SchedulerProfile = "most-allocated"
)

// SchedulerProfiles lists every valid scheduler profile.
var SchedulerProfiles = []SchedulerProfile{ProfileDefault, ProfileMostAllocated}

// ArrivalOrder names the order in which a scenario's pods reach the scheduler's queue.
type ArrivalOrder string

// The arrival orders. The empty order means ArrivalRollout.
const (
	// ArrivalRollout is what a cluster sees when many workloads roll out at once: the verdict must hold
	// for the replicas of all workloads interleaved and for several seeded random orders; the worst of
	// them bounds the result.
	ArrivalRollout ArrivalOrder = "rollout"
	// ArrivalInOrder places workload after workload, in input order (a staged rollout).
	ArrivalInOrder ArrivalOrder = "in-order"
	// ArrivalLargestFirst places the workloads by decreasing largest share of a node (a bin-packing
	// admission order).
	ArrivalLargestFirst ArrivalOrder = "largest-first"
)

// ArrivalOrders lists every valid arrival order.
var ArrivalOrders = []ArrivalOrder{ArrivalRollout, ArrivalInOrder, ArrivalLargestFirst}

// Formula ids of the scheduler model (see the package documentation).
const (
	// StrategyScheduler: the realistic placement of the scheduler model; ScenarioResult.Strategy and
	// PoolResult.Source carry it, ScenarioResult.OptimalStrategy the best packing's strategy.
	StrategyScheduler = "fit.scheduler-model"
)

// The kube-scheduler constants the model follows (pkg/scheduler/schedule_one.go, framework/interface.go,
// util/pod_resources.go, apis/config/v1/default_plugins.go and podtopologyspread/common.go at v1.37).
const (
	maxNodeScore             = 100
	minFeasibleNodesToFind   = 100
	minFeasiblePercentToFind = 5
	defaultMilliCPURequest   = 100       // schedutil.DefaultMilliCPURequest
	defaultMemoryRequest     = 200 << 20 // schedutil.DefaultMemoryRequest
	weightTaintToleration    = 3
	weightNodeAffinity       = 2
	weightNodeResourcesFit   = 1
	weightPodTopologySpread  = 2
	weightBalancedAllocation = 1
	// The system default spread constraints (ScheduleAnyway) of pods owned by a ReplicaSet or StatefulSet.
	defaultHostnameSkew = 3
	defaultZoneSkew     = 5
)

// numFeasibleNodesToFind is how many feasible nodes the scheduler looks for before it scores, with
// percentageOfNodesToScore at its default (0: adaptive), as schedule_one.go computes it.
func numFeasibleNodesToFind(all int) int {
	if all < minFeasibleNodesToFind {
		return all
	}
	pct := max(50-all/125, minFeasiblePercentToFind)
	return max(all*pct/100, minFeasibleNodesToFind)
}

// schedPool is the per-pool part of the scheduler model: a node's allocatable and what its DaemonSets
// take, in actual and in non-zero requests (the scores count a pod without a CPU or memory request
// as 100m CPU and 200 MiB, schedutil.GetNonzeroRequests).
type schedPool struct {
	alloc        vec
	ds           vec
	dsNZCPU      int64
	dsNZMem      int64
	zones        []int32 // global zone ids of the pool's local zones; empty without zones
	preferTaints []Taint
}

// schedClass is the per-workload part: one pod's requests, where it may go and its spread.
type schedClass struct {
	c          *classSim
	nzCPU      int64
	nzMem      int64
	bestEffort bool
	ports      []int // the other classes whose host ports conflict with this class's (NodePorts)
	hasPorts   bool
	// extCap is, per pool, the most pods of the class a node holds by their extended resources (0: no limit), and
	// extPeers the classes requesting one of the same, whose pods share no node with this class's (extended.go);
	// hasExt says either is set.
	extCap    []int64
	extPeers  []int
	hasExt    bool
	allowed   []bool  // per pool: the pod passes the pool-level filters (pools, selector, taints, size)
	affinity  []bool  // per pool: the pool matches the pod's node selector and pool list (spread domains)
	prefer    []int64 // per pool: PreferNoSchedule taints the pod does not tolerate
	anyPrefer bool    // some pool has one
	// nodePref is NodeAffinity's raw score per pool and zone (nodePrefAt): the weights of the pod's preferred
	// node affinity terms the node matches; nil when the pod has none (the plugin skips it).
	nodePref  []int64
	requested []int // the resources the pod requests (fitsResources)
	limit     []vec // per pool: the most of each requested resource a node may hold before the pod, walloc − request
}

// schedNode is one node of the modelled cluster.
type schedNode struct {
	pool  int32
	zone  int32 // global zone id, -1 without zones
	used  vec   // the workload pods' requests, Pods = their number
	nzCPU int64 // the workload pods' non-zero CPU and memory requests
	nzMem int64
	// balance is the node's balance without the next pod (balancedScore), kept up to date by place.
	balance int64
	// ver identifies the node's state: a fresh value of cluster.clock at reset and at every place, so a
	// score computed at one version holds while the version does (scoreCache).
	ver uint64
}

// cluster is the scheduler model of one scenario on a fixed set of nodes: counts[p] nodes of pool p,
// created pool by pool, node i of pool p in local zone i mod zones.
type cluster struct {
	m       *model
	pools   []schedPool
	classes []schedClass
	counts  []int
	nodes   []schedNode
	list    []int32   // the nodes in the scheduler snapshot's order (nodeTree: zones round-robin)
	onNode  [][]int32 // [class][node] pods of the class on the node
	inZone  [][]int32 // [class][global zone] pods of the class in the zone
	domains [][]int32 // [class] zones with a node of the class's affinity pools (zone spread only)
	bind    []int32   // per pod of the order being run: its node, or -1 while Pending
	// listSeed draws the order of the node list (reset): the order of the nodes' names, unknown. nameRank,
	// when it has a rank per node, gives that order instead (Order.Nodes).
	listSeed uint64
	nameRank []int32
	// tieRNG breaks ties at random in the runs that do so (runMode), else nil.
	tieRNG *rand.Rand
	// parRNG, in the runs that follow the parallel Filter's timing (runMode: parWorkers goroutines at once),
	// draws how long each node's filtering takes (parallelRoot); else nil.
	parRNG     *rand.PCG
	parWorkers int
	parStagger bool // the second goroutine starts late (staggerBase)
	// The eager retries (retryWoken): per class the classes a binding of its pods may let in, a count of
	// bindings, when each class was last woken (in that count, and in pods of the order handled) and when
	// each waiting pod was last tried.
	wakes     [][]int
	events    int64
	wokenAt   []int64
	wokenTick []int64
	triedAt   []int64
	// scratch of one scheduling cycle
	feasible  []int32
	feasPos   []int32 // with parRNG: each feasible node's position among the nodes the cycle filtered
	filtered  int     // with parRNG: how many nodes the cycle filtered, and of how many listed
	listed    int
	parDone   []int64 // parallelRoot's scratch
	parFree   []int64
	parIdx    []int32
	parOrder  []int64
	raw       [5][]int64 // the cycle's scores (scores), totals and heap scratch (best)
	prefScore []int64    // the cycle's NodeAffinity scores (scores)
	zoneStamp []uint64   // per zone + 1: the cycle that last counted it
	domStamp  []uint64   // per domain of a spread constraint's key: the count that last saw it (userSpreadScores)
	stamp     uint64
	evals     int64 // node visits so far (nodeCost per node filtered and per node scored), for the work budget
	// The resource scores of class and node at a node version (scoreCache).
	clock        uint64
	cache        []scoreEntry
	cacheProfile SchedulerProfile
	// A disruption scenario's state (disrupt.go): nodes that are lost or not yet added, and the zone the
	// pod being scheduled is pinned to by its volumes (-1: none).
	dead []bool
	pin  int32
	// present marks the dead nodes whose Node objects still exist, by the taint that keeps pods off them: a
	// lost zone's nodes in a zone_loss replay (in an outage they stay, NotReady and tainted
	// node.kubernetes.io/unreachable, until deleted) and the nodes a node_upgrade batch drains (cordoned,
	// node.kubernetes.io/unschedulable, until their last pod is evicted and they are deleted). A topology spread
	// constraint that ignores taints (nodeTaintsPolicy Ignore, the default) still counts their domains, with the
	// pods not yet evicted. nil outside such a replay.
	present []presence
	// live is the node list without the dead nodes (setLive): the scheduler's snapshot holds the nodes that
	// exist, so the nodes lost or not yet added neither take part in the search nor count towards
	// numFeasibleNodesToFind.
	live []int32
	// resetWork counts the node slots reset so far (nodes × (classes + nodeWork)) and nodeWork per pod placed,
	// part of the disruptions' work budget.
	resetWork int64
	// disruptFrom is work() when the disruptions began (overDisruptionBudget).
	disruptFrom int64
	// Inter-pod affinity (podaffinity.go) and topology spread constraints (topology.go).
	pt   podTerms
	ps   podState
	ss   spreadState
	mins []int32 // the cycle's spreadMins
	// spreadNorm is spreadScores' scratch: the normalised score of each raw score of the cycle.
	spreadNorm []int64
	// spreadRaw and spreadRawAt are spreadScores' memo of raw scores by pods on the node and zone, and the cycle (stamp)
	// that computed each.
	spreadRaw   []int64
	spreadRawAt []uint64
	// The pool-level skips (skipFor): per class its set of allowed pools (-1 when every pool is allowed), and per
	// set, built on the set's first use after a reset (skipBuilt), how many positions of the node list from each
	// on hold nodes of pools outside it.
	allowSet  []int32
	skips     [][]int32
	skipBuilt []uint64
	resets    uint64
	// src are the classes the cluster was made of, and twin a second cluster of them for a second
	// goroutine (inPairs).
	src  []classSim
	twin *cluster
	// passed holds the runs known to bind every pod (binds).
	passed map[runKey]bool
	// cost is, per class, what one node filtered (and maybe scored) for its pod counts towards the work budget
	// (nodeCost).
	cost []int64
}

func newCluster(m *model, classes []classSim) *cluster {
	cl := &cluster{m: m, pools: make([]schedPool, len(m.pools)), classes: make([]schedClass, len(classes)), pin: -1, src: classes}
	for p := range m.pools {
		pm := &m.pools[p]
		sp := schedPool{alloc: pm.alloc, ds: pm.ds, zones: pm.zones}
		for i := range m.in.DaemonSets {
			d := &m.in.DaemonSets[i]
			if daemonSetMatches(d, pm.p) {
				sp.dsNZCPU += nonZero(d.Requests.CPUMillicores, defaultMilliCPURequest)
				sp.dsNZMem += nonZero(d.Requests.MemoryBytes, defaultMemoryRequest)
			}
		}
		for _, t := range pm.p.Taints {
			if t.Effect == EffectPreferNoSchedule {
				sp.preferTaints = append(sp.preferTaints, t)
			}
		}
		cl.pools[p] = sp
	}
	for w := range classes {
		c := &classes[w]
		wl := &m.in.Workloads[c.w]
		sc := schedClass{c: c, nzCPU: nonZero(c.req[rCPU], defaultMilliCPURequest),
			nzMem: nonZero(c.req[rMem], defaultMemoryRequest), bestEffort: c.req[rCPU] == 0 && c.req[rMem] == 0,
			allowed: make([]bool, len(m.pools)), affinity: make([]bool, len(m.pools)), prefer: make([]int64, len(m.pools))}
		for p := range m.pools {
			sc.allowed[p] = c.pos[p] >= 0
			sc.affinity[p] = nodeRulesMatch(wl, m.pools[p].p)
			for _, t := range cl.pools[p].preferTaints {
				tolerated := false
				for _, tol := range wl.Tolerations {
					tolerated = tolerated || tol.Tolerates(t)
				}
				if !tolerated {
					sc.prefer[p]++
					sc.anyPrefer = true
				}
			}
		}
		sc.nodePref = cl.preferences(wl)
		for r := range nRes {
			if c.req[r] > 0 {
				sc.requested = append(sc.requested, r)
			}
		}
		sc.limit = make([]vec, len(m.pools))
		for p := range m.pools {
			sc.limit[p] = m.pools[p].walloc.sub(c.req)
		}
		if m.cap != nil && len(extendedNames(wl)) > 0 {
			sc.extCap, sc.extPeers, sc.hasExt = m.cap[c.w], m.peers[c.w], true
		}
		sc.hasPorts = len(wl.HostPorts) > 0
		for o := range classes {
			if _, ok := portConflict(wl.HostPorts, m.in.Workloads[classes[o].w].HostPorts); ok && o != w {
				sc.ports = append(sc.ports, o)
			}
		}
		cl.classes[w] = sc
	}
	cl.initSkips()
	cl.pt = newPodTerms(m.in, classes)
	cl.initSpread()
	cl.cost = make([]int64, len(classes))
	for w := range classes {
		cl.cost[w] = cl.nodeCost(w)
	}
	cl.initWakes()
	return cl
}

// nodeCost is what one node filtered or scored for a pod of class w counts towards the work budget: 1, plus
// one per termsPerNode inter-pod terms and topology spread constraints its filter and score read there (the
// pod's own terms, the other pods' terms that match it, and its own spread constraints). A few terms cost
// little beside a node's resources and scores, so a pod with fewer than termsPerNode counts 1; with two
// thousand (every workload's term matching every pod) a node cost a hundred times as much, and 10,000 such
// pods ran for minutes within the budget.
func (cl *cluster) nodeCost(w int) int64 {
	return 1 + int64(len(cl.pt.own[w])+len(cl.pt.sym[w])+len(cl.ss.own[w]))/termsPerNode
}

// termsPerNode is how many terms read on a node cost about as much as filtering and scoring it (a term is a
// lookup or two; a node's resources and scores take about 20 to 90 ns).
const termsPerNode = 8

func nonZero(v, def int64) int64 {
	if v == 0 {
		return def
	}
	return v
}

// reset empties the cluster and builds counts[p] nodes per pool, listed as the scheduler's node tree
// lists them: zones in the order they first appear, one node of each zone in turn, the nodes of a
// zone in the order the informer added them. That order is the nodes' names' (the API server lists
// nodes by name when the scheduler starts), which the model does not know: the order nameRank gives
// (Order.Nodes), else creation order in runs that break ties at random, else one drawn from
// cl.listSeed (runMode). It decides the scheduler's ties (best).
func (cl *cluster) reset(counts []int) {
	cl.counts = counts
	cl.resetWork += int64(sumInts(counts)) * int64(len(cl.classes)+nodeWork)
	cl.nodes = cl.nodes[:0]
	nz := len(cl.m.zoneNames) + 1 // zone index 0 is "no zone"
	byZone := make([][]int32, nz)
	var zoneOrder []int
	for p := range cl.pools {
		sp := &cl.pools[p]
		for i := range counts[p] {
			z := int32(-1)
			if len(sp.zones) > 0 {
				z = sp.zones[i%len(sp.zones)]
			}
			id := int32(len(cl.nodes))
			cl.clock++
			cl.nodes = append(cl.nodes, schedNode{pool: int32(p), zone: z,
				balance: balance(sp.alloc, sp.ds[rCPU], sp.ds[rMem]), ver: cl.clock})
			if len(byZone[z+1]) == 0 {
				zoneOrder = append(zoneOrder, int(z+1))
			}
			byZone[z+1] = append(byZone[z+1], id)
		}
	}
	if len(cl.nameRank) == len(cl.nodes) {
		// The names are known (Order.Nodes): the nodes in their order.
		for _, z := range zoneOrder {
			slices.SortFunc(byZone[z], func(a, b int32) int { return cmp.Compare(cl.nameRank[a], cl.nameRank[b]) })
		}
		slices.SortFunc(zoneOrder, func(a, b int) int { return cmp.Compare(cl.nameRank[byZone[a][0]], cl.nameRank[byZone[b][0]]) })
	} else if r, _, _ := runMode(cl.listSeed); !r {
		names := rand.New(rand.NewPCG(cl.listSeed, uint64(len(cl.nodes))))
		names.Shuffle(len(zoneOrder), func(i, j int) { zoneOrder[i], zoneOrder[j] = zoneOrder[j], zoneOrder[i] })
		// Half the draws name nodes after their pool (GKE's gke-<cluster>-<pool>-…, AKS's aks-<pool>-…):
		// each zone's nodes pool by pool, the pools in a drawn order; the others mix the pools (EKS's
		// ip-… names).
		var poolPos []int
		if names.IntN(2) == 0 {
			poolPos = names.Perm(len(cl.pools))
		}
		for _, z := range zoneOrder {
			ids := byZone[z]
			names.Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
			if poolPos != nil {
				slices.SortStableFunc(ids, func(a, b int32) int {
					return cmp.Compare(poolPos[cl.nodes[a].pool], poolPos[cl.nodes[b].pool])
				})
			}
		}
	}
	cl.resets++
	cl.list = cl.list[:0]
	for round := 0; len(cl.list) < len(cl.nodes); round++ {
		for _, z := range zoneOrder {
			if round < len(byZone[z]) {
				cl.list = append(cl.list, byZone[z][round])
			}
		}
	}
	if len(cl.onNode) != len(cl.classes) {
		cl.onNode = make([][]int32, len(cl.classes))
		cl.inZone = make([][]int32, len(cl.classes))
		cl.domains = make([][]int32, len(cl.classes))
	}
	for w := range cl.classes {
		cl.onNode[w] = resize(cl.onNode[w], len(cl.nodes))
		cl.inZone[w] = resize(cl.inZone[w], len(cl.m.zoneNames))
		cl.domains[w] = cl.domains[w][:0]
		sc := &cl.classes[w]
		if sc.c.spread != SpreadZone {
			continue
		}
		seen := make([]bool, len(cl.m.zoneNames))
		for p := range cl.pools {
			if !sc.affinity[p] {
				continue
			}
			for i, z := range cl.pools[p].zones {
				if i < counts[p] && !seen[z] {
					seen[z] = true
				}
			}
		}
		for z, ok := range seen {
			if ok {
				cl.domains[w] = append(cl.domains[w], int32(z))
			}
		}
	}
	cl.resetPods()
	cl.resetSpread()
}

// resize returns a zeroed slice of n elements, reusing buf's array when it is large enough.
func resize[T int32 | int64](buf []T, n int) []T {
	if cap(buf) < n {
		return make([]T, n)
	}
	buf = buf[:n]
	clear(buf)
	return buf
}

// scratch returns a slice of n elements, reusing buf's array when it is large enough, without clearing it: for
// buffers whose every element is written before it is read (the cycle's scores).
func scratch(buf []int64, n int) []int64 {
	if cap(buf) < n {
		return make([]int64, n)
	}
	return buf[:n]
}

// wake records a binding of a pod of class b at the run's tick (the pods of the order handled so far):
// the classes it may let in are woken.
func (cl *cluster) wake(b int, tick int64) {
	cl.events++
	for _, w := range cl.wakes[b] {
		cl.wokenAt[w], cl.wokenTick[w] = cl.events, tick
	}
}

// retryWoken retries, in order, the waiting pods (indexes into pods) woken by a binding since they were
// last tried, delay pods ago or more, and those the bindings it makes let in, as kube-scheduler's queueing
// hints move them back; it returns the pods still waiting and the next start position.
func (cl *cluster) retryWoken(pods []int32, retry []int, tick, delay int64, start int, profile SchedulerProfile) ([]int, int) {
	for due := true; due; {
		due = false
		left := retry[:0]
		for _, k := range retry {
			w := int(pods[k])
			if cl.wokenAt[w] <= cl.triedAt[k] || tick < cl.wokenTick[w]+delay {
				left = append(left, k)
				continue
			}
			cl.triedAt[k] = cl.events
			id, next := cl.cycle(w, start, profile)
			start = next
			if id < 0 {
				left = append(left, k)
				continue
			}
			cl.bind[k] = id
			cl.place(w, id)
			cl.wake(w, tick)
			due = true
		}
		retry = left
	}
	return retry, start
}

// initWakes lists, per class b, the classes whose waiting pods a binding of a pod of b may let in: a
// zone-spread class its own pods (their skew), a class with a required pod affinity term the classes the
// term matches, a class with its own topology spread constraints the classes whose pods those
// constraints count (the queueing hints of PodTopologySpread and InterPodAffinity on a pod's binding).
func (cl *cluster) initWakes() {
	cl.wakes = make([][]int, len(cl.classes))
	for w := range cl.classes {
		for b := range cl.classes {
			wake := cl.classes[w].c.spread == SpreadZone && b == w
			if cl.pt.any && cl.pt.affinity[w] {
				for _, t := range cl.pt.own[w] {
					wake = wake || cl.pt.terms[t].kind == termAffinity && cl.pt.terms[t].matches[b]
				}
			}
			if cl.ss.any {
				for _, c := range cl.ss.own[w] {
					wake = wake || slices.Contains(cl.ss.touch[b], c)
				}
			}
			if wake {
				cl.wakes[b] = append(cl.wakes[b], w)
			}
		}
	}
}

// run places the pods of one order, each a class index, on a fresh cluster of the given counts, one
// scheduling cycle per pod. Pods the scheduler rejects wait, as in its unschedulable queue; after the
// last pod those a later binding may have unblocked (zone spread) are retried until none binds. With
// probe set, run stops at the first pod that can never bind. Pods a later binding may let in (zone spread,
// required inter-pod affinity) are retried. It returns the pods left Pending and
// leaves each pod's node in cl.bind.
func (cl *cluster) run(pods []int32, counts []int, seed uint64, profile SchedulerProfile, probe bool) int {
	cl.setMode(seed)
	cl.reset(counts)
	cl.bind = resizeFill(cl.bind, len(pods), -1)
	_, eager, delay := runMode(seed)
	if eager {
		cl.events = 0
		cl.triedAt = resize(cl.triedAt, len(pods))
		cl.wokenAt = resize(cl.wokenAt, len(cl.classes))
		cl.wokenTick = resize(cl.wokenTick, len(cl.classes))
	}
	start := 0
	var retry []int
	for i, w := range pods {
		id, next := cl.cycle(int(w), start, profile)
		start = next
		switch {
		case id >= 0:
			cl.bind[i] = id
			cl.place(int(w), id)
			if eager {
				cl.wake(int(w), int64(i))
			}
		case cl.classes[w].c.spread != SpreadZone && !(cl.pt.any && cl.pt.affinity[w]) && !(cl.ss.any && len(cl.ss.own[w]) > 0):
			if probe {
				return 1
			}
		default:
			retry = append(retry, i)
			if eager {
				cl.triedAt[i] = cl.events
			}
		}
		if eager && len(retry) > 0 {
			retry, start = cl.retryWoken(pods, retry, int64(i), delay, start, profile)
		}
	}
	for progress := true; progress && len(retry) > 0; {
		progress = false
		left := retry[:0]
		for _, i := range retry {
			id, next := cl.cycle(int(pods[i]), start, profile)
			start = next
			if id < 0 {
				left = append(left, i)
				continue
			}
			progress = true
			cl.bind[i] = id
			cl.place(int(pods[i]), id)
		}
		retry = left
	}
	pending := 0
	for _, id := range cl.bind {
		if id < 0 {
			pending++
		}
	}
	return pending
}

func resizeFill(buf []int32, n int, v int32) []int32 {
	if cap(buf) < n {
		buf = make([]int32, n)
	}
	buf = buf[:n]
	for i := range buf {
		buf[i] = v
	}
	return buf
}

// place binds one pod of class w to node id.
func (cl *cluster) place(w int, id int32) {
	sc := &cl.classes[w]
	nd := &cl.nodes[id]
	for r := range nRes {
		nd.used[r] += sc.c.req[r]
	}
	nd.nzCPU += sc.nzCPU
	nd.nzMem += sc.nzMem
	sp := &cl.pools[nd.pool]
	nd.balance = balance(sp.alloc, sp.ds[rCPU]+nd.used[rCPU], sp.ds[rMem]+nd.used[rMem])
	cl.clock++
	nd.ver = cl.clock
	cl.resetWork += nodeWork
	cl.onNode[w][id]++
	if nd.zone >= 0 {
		cl.inZone[w][nd.zone]++
	}
	cl.placePods(w, id)
	cl.placeSpread(w, id)
}

// unplace removes one pod of class w from node id, as place added it: an evicted pod, terminating, which
// PodTopologySpread (filtering.go countPodsMatchSelector skips pods being deleted) and the model stop counting.
func (cl *cluster) unplace(w int, id int32) {
	sc := &cl.classes[w]
	nd := &cl.nodes[id]
	for r := range nRes {
		nd.used[r] -= sc.c.req[r]
	}
	nd.nzCPU -= sc.nzCPU
	nd.nzMem -= sc.nzMem
	sp := &cl.pools[nd.pool]
	nd.balance = balance(sp.alloc, sp.ds[rCPU]+nd.used[rCPU], sp.ds[rMem]+nd.used[rMem])
	cl.clock++
	nd.ver = cl.clock
	cl.onNode[w][id]--
	if nd.zone >= 0 {
		cl.inZone[w][nd.zone]--
	}
	cl.unplacePods(w, id)
	cl.unplaceSpread(w, id)
}

// cycle is one scheduling cycle (schedule_one.go schedulePod) for a pod of class w, starting the
// search at position start of the node list: the filters run node by node until
// numFeasibleNodesToFind nodes pass; one feasible node is taken as it is, several are scored and the
// best wins, ties broken at random as the scheduler's randomized heap does. It returns the node, or
// -1, and the next start position (nextStartNodeIndex).
func (cl *cluster) cycle(w, start int, profile SchedulerProfile) (int32, int) {
	list := cl.list
	if cl.dead != nil {
		list = cl.live
	}
	n := len(list)
	if n == 0 {
		return -1, start
	}
	toFind := numFeasibleNodesToFind(n)
	var skip []int32
	if cl.dead == nil {
		skip = cl.skipFor(w)
	}
	minMatch := cl.minMatch(w)
	if cl.ss.any {
		cl.mins = cl.spreadMins(w, cl.mins)
	}
	feasible := cl.feasible[:0]
	pos := cl.feasPos[:0]
	processed := 0
	for processed < n && len(feasible) < toFind {
		at := start + processed // start < n and processed < n: one wrap at most
		if at >= n {
			at -= n
		}
		if skip != nil && skip[at] > 0 {
			// Nodes of pools the pod may not use: filter rejects them first, with nothing else read.
			processed = min(processed+int(skip[at]), n)
			continue
		}
		id := list[at]
		processed++
		if cl.filter(w, id, minMatch) {
			feasible = append(feasible, id)
			if cl.parRNG != nil {
				pos = append(pos, int32(processed-1))
			}
		}
	}
	cl.feasible, cl.feasPos, cl.filtered, cl.listed = feasible, pos, processed, n
	cl.evals += int64(processed) * cl.cost[w]
	next := (start + processed) % n
	switch len(feasible) {
	case 0:
		return -1, next
	case 1:
		return feasible[0], next
	}
	// Scoring a node costs about as much as filtering it: the scored nodes count too.
	cl.evals += int64(len(feasible)) * cl.cost[w]
	return cl.best(w, feasible, profile), next
}

// filter runs the Filter plugins the model knows on one node: the pool-level ones (NodeAffinity for
// the selector and pool list, TaintToleration, a pod larger than an empty node), NodeResourcesFit,
// InterPodAffinity for node spread and PodTopologySpread for zone spread.
func (cl *cluster) filter(w int, id int32, minMatch int32) bool {
	sc := &cl.classes[w]
	nd := &cl.nodes[id]
	if !sc.allowed[nd.pool] || !cl.fitsResources(sc, nd) {
		return false
	}
	if cl.dead != nil && (cl.dead[id] || (cl.pin >= 0 && nd.zone != cl.pin)) {
		return false
	}
	if cl.pt.any && !cl.podsOK(w, id) {
		return false
	}
	if cl.ss.any && len(cl.ss.own[w]) > 0 && !cl.spreadOK(w, id, cl.mins) {
		return false
	}
	if sc.hasPorts {
		// NodePorts: a pod of this class, or of another whose ports conflict, already takes the port here.
		if cl.onNode[w][id] > 0 {
			return false
		}
		for _, o := range sc.ports {
			if cl.onNode[o][id] > 0 {
				return false
			}
		}
	}
	if sc.hasExt && !cl.extendedOK(w, id) {
		return false
	}
	switch sc.c.spread {
	case SpreadNode:
		return cl.onNode[w][id] == 0
	case SpreadZone:
		return cl.zoneSkewOK(w, nd, minMatch)
	}
	return true
}

// extendedOK is the part of NodeResourcesFit the vector does not carry, as its safe bound (extended.go): fewer
// pods of class w on node id than the node's extended resources hold, and none of a class requesting one of
// the same.
func (cl *cluster) extendedOK(w int, id int32) bool {
	sc := &cl.classes[w]
	if k := sc.extCap[cl.nodes[id].pool]; k > 0 && int64(cl.onNode[w][id]) >= k {
		return false
	}
	for _, o := range sc.extPeers {
		if cl.onNode[o][id] > 0 {
			return false
		}
	}
	return true
}

// best scores the feasible nodes with the profile's Score plugins, normalised and weighted as the
// framework does (RunScorePlugins), and returns the highest total, ties broken as the run's mode says
// (runMode: at random, or as the scheduler's heap does on the node list's order).
func (cl *cluster) best(w int, feasible []int32, profile SchedulerProfile) int32 {
	resS, spreadS, taintS, podS, affS := cl.scores(w, feasible, profile)
	totals := cl.raw[1]
	for i := range feasible {
		totals[i] = resS[i] + weightPodTopologySpread*spreadS[i] + weightTaintToleration*taintS[i]
		if podS != nil {
			totals[i] += weightInterPodAffinity * podS[i]
		}
		if affS != nil {
			totals[i] += weightNodeAffinity * affS[i]
		}
	}
	if cl.tieRNG != nil {
		// Ties at random (runMode).
		best, ties := 0, 0
		for i, t := range totals {
			switch {
			case t > totals[best]:
				best, ties = i, 1
			case t == totals[best]:
				ties++
				if cl.tieRNG.IntN(ties) == 0 {
					best = i
				}
			}
		}
		return feasible[best]
	}
	if cl.parRNG != nil && len(cl.feasPos) == len(feasible) {
		if top, ties := topTies(totals); ties > 1 {
			return cl.parallelRoot(feasible, totals, top)
		}
	}
	return feasible[heapRoot(totals, cl.raw[4])]
}

// scores runs the profile's Score plugins over the feasible nodes: per node, the weighted sum of
// NodeResourcesFit's and NodeResourcesBalancedAllocation's scores, and the normalised scores of
// PodTopologySpread, TaintToleration, InterPodAffinity (nil when the pod has no inter-pod score) and
// NodeAffinity (nil when the pod has no preferred node affinity), before their weights. The slices are the
// cluster's scratch, valid until the next cycle.
func (cl *cluster) scores(w int, feasible []int32, profile SchedulerProfile) (resS, spreadS, taintS, podS, affS []int64) {
	sc := &cl.classes[w]
	for k := range cl.raw {
		cl.raw[k] = scratch(cl.raw[k], len(feasible))
	}
	resS, spreadS, taintS = cl.raw[0], cl.raw[2], cl.raw[3]
	cache := cl.scoreCache(profile)
	for i, id := range feasible {
		nd := &cl.nodes[id]
		if cache {
			resS[i] = cl.cachedResourceScores(w, id, nd, profile)
		} else {
			resS[i] = cl.resourceScores(sc, nd, profile)
		}
		if sc.anyPrefer {
			taintS[i] = sc.prefer[nd.pool]
		}
	}
	if cl.ss.any && len(cl.ss.own[w]) > 0 {
		cl.userSpreadScores(w, feasible, spreadS)
	} else {
		cl.spreadScores(w, feasible, spreadS)
	}
	if sc.anyPrefer {
		normalizeReverse(taintS)
	} else {
		// No pool has a PreferNoSchedule taint the pod does not tolerate: every node scores the most.
		for i := range taintS {
			taintS[i] = maxNodeScore
		}
	}
	if cl.hasPodScore(w) {
		cl.ps.score = resize(cl.ps.score, len(feasible))
		podS = cl.ps.score
		cl.podScores(w, feasible, podS)
	}
	if sc.nodePref != nil {
		cl.prefScore = scratch(cl.prefScore, len(feasible))
		affS = cl.prefScore
		cl.preferenceScores(sc, feasible, affS)
	}
	return resS, spreadS, taintS, podS, affS
}

// setLive rebuilds the list of live nodes after cl.dead changed.
func (cl *cluster) setLive() {
	cl.live = cl.live[:0]
	for _, id := range cl.list {
		if !cl.dead[id] {
			cl.live = append(cl.live, id)
		}
	}
}
