package fit

import (
	"cmp"
	"slices"
)

// strategy is one packing order. Plan runs every strategy and keeps the best packing.
type strategy struct {
	id          string
	interleaved bool
	less        func(a, b *classSim) int
}

// The packing strategies, identified by formula ids (see the package documentation).
const (
	StrategyMaxShare    = "fit.ffd-max-share"
	StrategySumShare    = "fit.ffd-sum-share"
	StrategyCPUMemory   = "fit.ffd-cpu-memory"
	StrategyInterleaved = "fit.interleaved-max-share"
)

// StrategyName says in plain words which pod order a strategy id packs in; an unknown id is returned as
// it is.
func StrategyName(id string) string {
	switch id {
	case StrategyMaxShare:
		return "largest share first"
	case StrategySumShare:
		return "largest total share first"
	case StrategyCPUMemory:
		return "most CPU, then memory, first"
	case StrategyInterleaved:
		return "workloads interleaved in proportion"
	case StrategyScheduler:
		return "scheduler model"
	}
	return id
}

// Strategies lists the packing strategy ids in the order Plan tries them; on a tie the earlier wins.
var Strategies = []string{StrategyMaxShare, StrategySumShare, StrategyCPUMemory, StrategyInterleaved}

func byMaxShare(a, b *classSim) int {
	return cmp.Or(cmp.Compare(b.maxShare, a.maxShare), cmp.Compare(b.sumShare, a.sumShare), cmp.Compare(a.w, b.w))
}

func bySumShare(a, b *classSim) int {
	return cmp.Or(cmp.Compare(b.sumShare, a.sumShare), cmp.Compare(b.maxShare, a.maxShare), cmp.Compare(a.w, b.w))
}

func byCPUMemory(a, b *classSim) int {
	for _, r := range []int{rCPU, rMem, rEph, rGPU, rVol} {
		if c := cmp.Compare(b.req[r], a.req[r]); c != 0 {
			return c
		}
	}
	return cmp.Compare(a.w, b.w)
}

var strategies = []strategy{
	{id: StrategyMaxShare, less: byMaxShare},
	{id: StrategySumShare, less: bySumShare},
	{id: StrategyCPUMemory, less: byCPUMemory},
	{id: StrategyInterleaved, interleaved: true, less: byMaxShare},
}

// nodeSim is one simulated node. used counts the workload pods' requests (Pods = their number) and
// free is the pool's workload allocatable minus used; DaemonSets are already taken out of the
// workload allocatable.
type nodeSim struct {
	used   vec
	free   vec
	usage  int64 // Σ CPUUsageMillicores of the workload pods
	pool   int32
	zone   int32    // local zone index in the pool
	at     [2]int32 // position in the pool's node list and in its zone's (within or beyond MaxNodes)
	beyond bool     // beyond the pool's MaxNodes
}

// placed records k pods of class w put on a node, in placement order.
type placed struct {
	node, w, k int32
}

type poolSim struct {
	in, over   nodeList   // nodes within MaxNodes / beyond it, in creation order
	inZ, overZ []nodeList // the same per local zone
}

// blockSize is the number of nodes that share one upper bound of free capacity in a nodeList.
const blockSize = 16

// superSize is the number of nodes (superSize / blockSize blocks) that share a second, coarser upper bound.
const superSize = 16 * blockSize

// nodeList is a list of node ids in creation order with, per block of blockSize nodes, an upper bound
// of the nodes' free vectors. Free capacity only shrinks, so a stale bound stays an upper bound; a
// scan through a whole block tightens it. First fit skips every block whose bound cannot hold the
// request, which makes a scan over thousands of full nodes cheap. Per superSize nodes, super bounds the
// blocks' bounds, so first fit skips a run of full blocks at once.
type nodeList struct {
	ids   []int32
	bound []vec
	stale []bool // per block: a node's free capacity shrank since the bound was last made exact
	super []vec
	loose []bool // per super block: a block's bound went down since super was last made exact
}

// add appends node id with free capacity free and returns its position in the list.
func (l *nodeList) add(id int32, free vec) int32 {
	if len(l.ids)%superSize == 0 {
		l.super = append(l.super, free)
		l.loose = append(l.loose, false)
	} else {
		b := &l.super[len(l.super)-1]
		for r := range nRes {
			(*b)[r] = max((*b)[r], free[r])
		}
	}
	if len(l.ids)%blockSize == 0 {
		l.bound = append(l.bound, free)
		l.stale = append(l.stale, false)
	} else {
		b := &l.bound[len(l.bound)-1]
		for r := range nRes {
			(*b)[r] = max((*b)[r], free[r])
		}
	}
	l.ids = append(l.ids, id)
	return int32(len(l.ids) - 1)
}

// shrank notes that the free capacity of the node at position i went down.
func (l *nodeList) shrank(i int32) { l.stale[i/blockSize] = true }

// tighten makes the bound of block b exact again, when a node of it shrank since it last was.
func (l *nodeList) tighten(b int, nodes []nodeSim) {
	if !l.stale[b] {
		return
	}
	var m vec
	for i, id := range l.ids[b*blockSize : min((b+1)*blockSize, len(l.ids))] {
		if i == 0 {
			m = nodes[id].free
			continue
		}
		for r := range nRes {
			m[r] = max(m[r], nodes[id].free[r])
		}
	}
	l.bound[b], l.stale[b] = m, false
	l.loose[b*blockSize/superSize] = true
}

// tightenSuper makes super block k's bound the maximum of its blocks' bounds again, when one of them
// went down since it last was.
func (l *nodeList) tightenSuper(k int) {
	if !l.loose[k] {
		return
	}
	first := k * (superSize / blockSize)
	m := l.bound[first]
	for _, b := range l.bound[first+1 : min(first+superSize/blockSize, len(l.bound))] {
		for r := range nRes {
			m[r] = max(m[r], b[r])
		}
	}
	l.super[k], l.loose[k] = m, false
}

// classSim is the equivalence class of a workload's identical pods in one simulation.
type classSim struct {
	w        int
	n        int // pods of the scenario
	req      vec
	usage    int64
	spread   SpreadType
	skew     int
	pools    []int // usable pools in preference order
	pos      []int // per pool of the model: its position in pools, or -1
	maxShare float64
	sumShare float64
	perNode  []int64 // pods per fresh node, per pool position

	// cur[pp][0|1][slot]: first-fit cursors into the in/beyond node lists of pool position pp; slot 0
	// is the whole list, slot 1+z the list of local zone z. Nodes before a cursor can never take
	// another pod of the class: nodes only fill up, and a node holding a pod of a node-spread class
	// stays excluded.
	cur [][2][]int

	in, beyond []int // pods placed per pool position within / beyond MaxNodes
	inFull     bool  // no node within MaxNodes can take another pod (any-zone classes)
	unplaced   int
	affExcess  int // of unplaced: pods no node count binds for the workload's required anti-affinity (affinityCap)
	stuck      int // of unplaced: pods the scheduler model left Pending on every node count its search tried

	// zone spread
	domains    []int32 // global zone ids, sorted by name
	localZ     [][]int // [pool position][domain] local zone index, or -1
	counts     []int   // pods per domain
	blocked    []bool  // no room within MaxNodes left in the domain
	zoneCounts [][]int // [pool position][local zone] pods

	held []int32 // node-spread classes: the nodes holding a pod

	// extended resources: caps[pp] is the most pods a node of pool position pp holds (0: no limit; nil when
	// no pool limits them), onNode the pods per node, peers the classes that share no node with this one
	// (model.cap, model.peers); onNode is kept whenever caps or peers are set.
	caps   []int64
	onNode map[int32]int64
	peers  []int
}

// sim is one packing of one scenario with one strategy.
type sim struct {
	m        *model
	scenario Scenario
	strat    *strategy
	bound    string // the scheduler model's binding arrival order, for messages ("" for packings)
	note     string // ScenarioResult.SchedulerNote
	margin   string // ScenarioResult.Margin
	// unmodelled lists, when the scheduler model did not run, the classes with pods that may use several pools
	// or with hard rules the any-fit bound does not cover (addUnmodelledMargin): they fail with ReasonUnmodelled.
	unmodelled []int
	work       int64 // ScenarioResult.ModelWork
	// explain is, per class with pods the scheduler model left Pending, per pool, what turned them away
	// (cluster.explain); nil for a best packing.
	explain [][]string
	// mostStuck is, per class the binding order left pods of Pending on every count the search tried, the most of
	// its pods another planned order left Pending on the same counts, and mostStuckIn that order (nil when none
	// left more; stuckFailure names them).
	mostStuck   []int
	mostStuckIn []string
	disrupt     []DisruptionResult
	nodes       []nodeSim
	pools       []poolSim
	classes     []classSim
	demand      []*vec // per pool, cached by poolDemand
	log         []placed
	mem         arena        // the classes' placement state
	order       []*classSim  // the classes in strategy order
	queue       []event      // the interleaved strategy's placements
	items       [nRes][]item // lowerBound's scratch
	inc         []int        // level's result
}

// event is one step of the interleaved strategy: place k pods of class c.
type event struct {
	c *classSim
	k int
}

func newSim(m *model, sc Scenario, st *strategy, tmpl []classSim) *sim {
	s := m.takeSim()
	s.scenario, s.strat = sc, st
	for p := range m.pools {
		pm := &m.pools[p]
		for i := range pm.p.MinNodes {
			s.addNode(p, i%pm.nz, false)
		}
	}
	s.classes = slices.Grow(s.classes[:0], len(tmpl))[:len(tmpl)]
	for w := range tmpl {
		s.classes[w] = tmpl[w].fresh(m, &s.mem)
	}
	return s
}

// newClass prepares the scenario-wide, strategy-independent part of workload w's class: pod count,
// pool preference, size shares and zone domains.
func (m *model) newClass(w int, sc Scenario) classSim {
	wl := &m.in.Workloads[w]
	c := classSim{w: w, n: wl.ScenarioReplicas(sc), req: m.req[w], usage: wl.CPUUsageMillicores,
		spread: wl.effectiveSpread(), skew: wl.Spread.MaxSkew}
	if c.spread == "" {
		c.spread = SpreadNone
	}
	c.pools = m.poolOrder(w, c.n)
	c.pos = make([]int, len(m.pools))
	for p := range c.pos {
		c.pos[p] = -1
	}
	for pp, p := range c.pools {
		c.pos[p] = pp
	}
	if len(c.pools) > 0 {
		c.maxShare, c.sumShare = shares(c.req, m.pools[c.pools[0]].walloc)
	}
	c.perNode = make([]int64, len(c.pools))
	for pp, p := range c.pools {
		c.perNode[pp] = perNode(c.req, m.pools[p].walloc, c.spread, m.capOf(w, p))
		if k := m.capOf(w, p); k > 0 {
			if c.caps == nil {
				c.caps = make([]int64, len(c.pools))
			}
			c.caps[pp] = k
		}
	}
	if c.spread == SpreadZone {
		seen := map[int32]bool{}
		for _, p := range c.pools {
			for _, z := range m.pools[p].zones {
				if !seen[z] {
					seen[z] = true
					c.domains = append(c.domains, z)
				}
			}
		}
		slices.Sort(c.domains) // global ids are in name order
		c.localZ = make([][]int, len(c.pools))
		for pp, p := range c.pools {
			c.localZ[pp] = make([]int, len(c.domains))
			for d, z := range c.domains {
				lz, ok := m.pools[p].localOf[z]
				if !ok {
					lz = -1
				}
				c.localZ[pp][d] = lz
			}
		}
	}
	return c
}

// fresh returns a copy of a class template with new placement state, carved from a.
func (c classSim) fresh(m *model, a *arena) classSim {
	np := len(c.pools)
	c.cur = carve(&a.curs, np)
	c.in = carve(&a.ints, np)
	c.beyond = carve(&a.ints, np)
	for pp, p := range c.pools {
		c.cur[pp][0] = carve(&a.ints, 1+m.pools[p].nz)
		c.cur[pp][1] = carve(&a.ints, 1+m.pools[p].nz)
	}
	if c.spread == SpreadNode && np > 0 {
		c.held = carve(&a.ids, c.n)[:0] // one node per pod placed
	}
	if m.peers != nil && (c.caps != nil || len(m.peers[c.w]) > 0) {
		c.peers = m.peers[c.w]
		c.onNode = map[int32]int64{}
	}
	if c.spread == SpreadZone {
		c.counts = carve(&a.ints, len(c.domains))
		c.blocked = carve(&a.bools, len(c.domains))
		c.zoneCounts = carve(&a.rows, np)
		for pp, p := range c.pools {
			c.zoneCounts[pp] = carve(&a.ints, m.pools[p].nz)
		}
	}
	return c
}

// addNode appends a node to pool p in local zone z.
func (s *sim) addNode(p, z int, beyond bool) int32 {
	id := int32(len(s.nodes))
	free := s.m.pools[p].walloc
	s.nodes = append(s.nodes, nodeSim{free: free, pool: int32(p), zone: int32(z), beyond: beyond})
	ps := &s.pools[p]
	nd := &s.nodes[id]
	if beyond {
		nd.at = [2]int32{ps.over.add(id, free), ps.overZ[z].add(id, free)}
	} else {
		nd.at = [2]int32{ps.in.add(id, free), ps.inZ[z].add(id, free)}
	}
	return id
}

// newInMax adds a node to pool p within MaxNodes, in local zone z (any zone when z < 0). Nodes of a
// pool are spread round-robin over its zones, so a node in zone z may first need nodes in the zones
// before it; those are added empty. It reports false when MaxNodes does not allow it.
func (s *sim) newInMax(p, z int) bool {
	pm := &s.m.pools[p]
	n := len(s.pools[p].in.ids)
	if n >= pm.p.MaxNodes {
		return false
	}
	if z < 0 {
		s.addNode(p, n%pm.nz, false)
		return true
	}
	i := n + (z-n%pm.nz+pm.nz)%pm.nz
	if i >= pm.p.MaxNodes {
		return false
	}
	for j := n; j <= i; j++ {
		s.addNode(p, j%pm.nz, false)
	}
	return true
}

// put places k pods of class c on node id of the pool at position pp.
func (s *sim) put(c *classSim, pp int, id int32, k int64) {
	nd := &s.nodes[id]
	for r := range nRes {
		// k ≤ free[r] div req[r], so neither product nor sum can overflow.
		nd.used[r] += k * c.req[r]
		nd.free[r] -= k * c.req[r]
	}
	nd.usage = satAdd(nd.usage, satMul(c.usage, k))
	ps := &s.pools[nd.pool]
	if nd.beyond {
		ps.over.shrank(nd.at[0])
		ps.overZ[nd.zone].shrank(nd.at[1])
	} else {
		ps.in.shrank(nd.at[0])
		ps.inZ[nd.zone].shrank(nd.at[1])
	}
	if !s.m.in.OmitNodes {
		s.record(id, c.w, k)
	}
	if nd.beyond {
		c.beyond[pp] += int(k)
	} else {
		c.in[pp] += int(k)
	}
	if c.zoneCounts != nil {
		c.zoneCounts[pp][nd.zone] += int(k)
	}
	if c.spread == SpreadNode {
		c.held = append(c.held, id)
	}
	if c.onNode != nil {
		c.onNode[id] += k
	}
}

// extRoom is how many more pods of class c node id (of pool position pp) takes by their extended resources:
// its cap less the class's pods there, 0 when a peer's pod is there, and -1 without a limit.
func (s *sim) extRoom(c *classSim, pp int, id int32) int64 {
	if c.onNode == nil {
		return -1
	}
	for _, o := range c.peers {
		if s.classes[o].onNode[id] > 0 {
			return 0
		}
	}
	if c.caps == nil || c.caps[pp] == 0 {
		return -1
	}
	return max(c.caps[pp]-c.onNode[id], 0)
}

// record logs k pods of workload w put on node id, for the per-node lists of the result.
func (s *sim) record(id int32, w int, k int64) {
	if last := len(s.log) - 1; last >= 0 && s.log[last].node == id && s.log[last].w == int32(w) {
		s.log[last].k += int32(k)
		return
	}
	s.log = append(s.log, placed{node: id, w: int32(w), k: int32(k)})
}

// fill places up to n pods of class c first-fit on the nodes of list from *cur on, moving the cursor
// past every node that cannot take another pod of the class. It returns the pods left.
func (s *sim) fill(c *classSim, pp int, cur *int, l *nodeList, n int) int {
	for *cur < len(l.ids) && n > 0 {
		if *cur%superSize == 0 {
			k := *cur / superSize
			l.tightenSuper(k)
			if !c.req.fits(l.super[k]) {
				*cur = min((k+1)*superSize, len(l.ids))
				continue
			}
		}
		b := *cur / blockSize
		end := min((b+1)*blockSize, len(l.ids))
		if !c.req.fits(l.bound[b]) {
			*cur = end
			continue
		}
		whole := *cur == b*blockSize
		for *cur < end && n > 0 {
			id := l.ids[*cur]
			nd := &s.nodes[id]
			room := s.extRoom(c, pp, id)
			if !c.req.fits(nd.free) || room == 0 {
				// A peer's pods only stay and the class's own only grow: the node never takes one.
				*cur++
				continue
			}
			put := int64(1)
			if n > 1 && c.spread != SpreadNode {
				put = min(fitCount(nd.free, c.req), int64(n))
			}
			if room > 0 {
				put = min(put, room)
			}
			s.put(c, pp, id, put)
			n -= int(put)
			if c.spread == SpreadNode || !c.req.fits(nd.free) || room == put {
				*cur++
			}
		}
		if whole && *cur == end {
			l.tighten(b, s.nodes)
		}
	}
	return n
}

// list returns a pool's node list and the cursor slot for class placement in domain d (any zone when
// d < 0); ok is false when the pool has no zone d.
func (s *sim) list(c *classSim, pp, d int, beyond bool) (l *nodeList, slot int, ok bool) {
	ps := &s.pools[c.pools[pp]]
	if d < 0 {
		if beyond {
			return &ps.over, 0, true
		}
		return &ps.in, 0, true
	}
	lz := c.localZ[pp][d]
	if lz < 0 {
		return nil, 0, false
	}
	if beyond {
		return &ps.overZ[lz], 1 + lz, true
	}
	return &ps.inZ[lz], 1 + lz, true
}

// placeInMax places up to n pods of class c on nodes within MaxNodes, in domain d (any zone when
// d < 0): first fit on the existing nodes of its pools in preference order, then new nodes of the
// most preferred pool that may still grow. It returns the pods left.
func (s *sim) placeInMax(c *classSim, n, d int) int {
	for pp := range c.pools {
		if n == 0 {
			return 0
		}
		if list, slot, ok := s.list(c, pp, d, false); ok {
			n = s.fill(c, pp, &c.cur[pp][0][slot], list, n)
		}
	}
	for pp, p := range c.pools {
		lz := -1
		if d >= 0 {
			if lz = c.localZ[pp][d]; lz < 0 {
				continue
			}
		}
		for n > 0 && s.newInMax(p, lz) {
			list, slot, _ := s.list(c, pp, d, false)
			n = s.fill(c, pp, &c.cur[pp][0][slot], list, n)
		}
		if n == 0 {
			return 0
		}
	}
	return n
}

// placeBeyond places n pods of class c on nodes beyond MaxNodes, which exist only to measure how many
// nodes the scenario needs: first fit on such nodes, then new ones in the most preferred pool (in
// zone d when d ≥ 0; beyond MaxNodes a node is added directly in the zone that needs it).
func (s *sim) placeBeyond(c *classSim, n, d int) {
	for pp := range c.pools {
		if n == 0 {
			return
		}
		if list, slot, ok := s.list(c, pp, d, true); ok {
			n = s.fill(c, pp, &c.cur[pp][1][slot], list, n)
		}
	}
	for pp, p := range c.pools {
		lz := -1
		if d >= 0 {
			if lz = c.localZ[pp][d]; lz < 0 {
				continue
			}
		}
		pm := &s.m.pools[p]
		for n > 0 {
			z := lz
			if z < 0 {
				z = (len(s.pools[p].in.ids) + len(s.pools[p].over.ids)) % pm.nz
			}
			s.addNode(p, z, true)
			list, slot, _ := s.list(c, pp, d, true)
			n = s.fill(c, pp, &c.cur[pp][1][slot], list, n)
		}
		return
	}
}

// place places n more pods of class c.
func (s *sim) place(c *classSim, n int) {
	if n <= 0 {
		return
	}
	if len(c.pools) == 0 {
		c.unplaced += n
		return
	}
	if c.spread == SpreadZone {
		s.placeZone(c, n)
		return
	}
	if !c.inFull {
		n = s.placeInMax(c, n, -1)
		c.inFull = n > 0
	}
	if n > 0 {
		s.placeBeyond(c, n, -1)
	}
}

// placeZone places n more pods of a zone-spread class. The pods go to the zones with the fewest pods
// (water-filling, so any max skew ≥ 1 holds); a zone that has no room left within MaxNodes is
// blocked, its share moves to other zones as far as the max skew allows, and what remains goes to
// nodes beyond MaxNodes in the zones with the fewest pods.
func (s *sim) placeZone(c *classSim, n int) {
	left := 0
	for d, k := range level(c.counts, n, &s.inc) {
		if k == 0 {
			continue
		}
		if c.blocked[d] {
			left += k
			continue
		}
		rem := s.placeInMax(c, k, d)
		c.counts[d] += k - rem
		if rem > 0 {
			c.blocked[d] = true
			left += rem
		}
	}
	for left > 0 {
		progress := false
		order := make([]int, 0, len(c.domains))
		for d := range c.domains {
			if !c.blocked[d] {
				order = append(order, d)
			}
		}
		slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(c.counts[a], c.counts[b]) })
		for _, d := range order {
			limit := slices.Min(c.counts) + c.skew - c.counts[d]
			if limit <= 0 {
				continue
			}
			k := min(limit, left)
			rem := s.placeInMax(c, k, d)
			c.counts[d] += k - rem
			left -= k - rem
			progress = progress || rem < k
			if rem > 0 {
				c.blocked[d] = true
			}
			if left == 0 {
				break
			}
		}
		if !progress {
			break
		}
	}
	if left > 0 {
		for d, k := range level(c.counts, left, &s.inc) {
			if k > 0 {
				s.placeBeyond(c, k, d)
				c.counts[d] += k
			}
		}
	}
}

// level distributes n pods over zones with the given counts so that the lowest counts rise first
// (water-filling); equal counts receive the extra pods in zone order. It returns the increments, in
// *buf (reused).
func level(counts []int, n int, buf *[]int) []int {
	inc := slices.Grow((*buf)[:0], len(counts))[:len(counts)]
	clear(inc)
	*buf = inc
	if len(counts) == 0 || n <= 0 {
		return inc
	}
	if n == 1 {
		inc[slices.Index(counts, slices.Min(counts))] = 1
		return inc
	}
	idx := make([]int, len(counts))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(counts[a], counts[b]) })
	k, cur := 0, counts[idx[0]]
	for n > 0 {
		for k < len(idx) && counts[idx[k]] <= cur {
			k++
		}
		if k < len(idx) {
			if step := counts[idx[k]] - cur; step*k <= n {
				for _, i := range idx[:k] {
					inc[i] += counts[idx[k]] - counts[i] - inc[i]
				}
				n -= step * k
				cur = counts[idx[k]]
				continue
			}
		}
		q, r := n/k, n%k
		group := slices.Clone(idx[:k])
		slices.Sort(group)
		for j, i := range group {
			inc[i] = cur - counts[i] + q
			if j < r {
				inc[i]++
			}
		}
		n = 0
	}
	return inc
}

// run packs the scenario: every class in strategy order, or, for the interleaved strategy, in rounds
// that place ceil(n / rounds) pods of every class per round, so nodes receive a mix of classes in the
// proportions of the whole scenario.
func (s *sim) run(rounds int) {
	order := s.order[:0]
	for i := range s.classes {
		if s.classes[i].n > 0 {
			order = append(order, &s.classes[i])
		}
	}
	// Every strategy's order ends on the workload index, which no two classes share: the order is total,
	// so an unstable sort gives the stable sort's order (and costs a fraction of it on thousands of classes).
	slices.SortFunc(order, s.strat.less)
	s.order = order
	if !s.strat.interleaved || rounds <= 1 {
		for _, c := range order {
			s.place(c, c.n)
		}
		return
	}
	// Round j places floor((j+1)·n / rounds) − floor(j·n / rounds) pods of a class, so every class is
	// spread evenly over the rounds. The (round, class, pods) events are bucketed by round (a counting
	// sort that keeps the strategy order within a round), so the cost is one event per round with pods.
	r := int64(rounds)
	at := carve(&s.mem.ints, rounds+1)
	events := func(c *classSim, emit func(j int64, k int)) {
		n := int64(c.n)
		if n >= r {
			for j := range r {
				emit(j, int((j+1)*n/r-j*n/r))
			}
			return
		}
		for i := range n {
			emit(ceilDiv((i+1)*r, n)-1, 1)
		}
	}
	for _, c := range order {
		events(c, func(j int64, _ int) { at[j+1]++ })
	}
	for j := 1; j <= rounds; j++ {
		at[j] += at[j-1]
	}
	queue := slices.Grow(s.queue[:0], at[rounds])[:at[rounds]]
	s.queue = queue
	for _, c := range order {
		events(c, func(j int64, k int) {
			queue[at[j]] = event{c, k}
			at[j]++
		})
	}
	for _, e := range queue {
		s.place(e.c, e.k)
	}
}

// score ranks packings: fewer pods unplaced, fewer nodes beyond MaxNodes, fewer nodes, lower price.
type score struct {
	unplaced, beyond, nodes int
	price                   float64
}

func (s *sim) score() score {
	var sc score
	for i := range s.classes {
		sc.unplaced += s.classes[i].unplaced
	}
	for p := range s.pools {
		n := len(s.pools[p].in.ids) + len(s.pools[p].over.ids)
		sc.beyond += len(s.pools[p].over.ids)
		sc.nodes += n
		sc.price += float64(n) * s.m.pools[p].p.PricePerHour
	}
	return sc
}

func (a score) compare(b score) int {
	return cmp.Or(cmp.Compare(a.unplaced, b.unplaced), cmp.Compare(a.beyond, b.beyond), cmp.Compare(a.nodes, b.nodes),
		cmp.Compare(a.price, b.price))
}

// pack runs every strategy on a scenario and returns the best packing (the earliest on a tie).
func (m *model) pack(sc Scenario) *sim {
	var best *sim
	var bestScore score
	rounds := 1
	tmpl := m.classes(sc)
	for i := range strategies {
		s := newSim(m, sc, &strategies[i], tmpl)
		s.run(rounds)
		if i == 0 {
			rounds = s.totalLowerBound()
		}
		if v := s.score(); best == nil || v.compare(bestScore) < 0 {
			if best != nil {
				m.recycle(best)
			}
			best, bestScore = s, v
		} else {
			m.recycle(s)
		}
	}
	return best
}

// totalLowerBound sums the pools' lower bounds of a packing; the interleaved strategy uses it as its
// number of rounds (about one round per node).
func (s *sim) totalLowerBound() int {
	t := 0
	for p := range s.pools {
		lb, _ := s.lowerBound(p)
		t += lb
	}
	return max(t, 1)
}
