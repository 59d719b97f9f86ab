package fit

import (
	"fmt"
	"slices"
	"strings"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
)

// DisruptionKind names a disruption scenario, checked on the steady scenario's realistic placement.
type DisruptionKind string

// The disruption scenarios.
const (
	// DisruptNodeLoss loses one node: for each pool in turn its busiest node (the largest share of its
	// workload allocatable requested). Its pods must bind on the surviving nodes, the pool growing within
	// its maximum node count less the lost node, which keeps its place until it is replaced. The lost node
	// hangs rather than vanishes (the worse case): it stays in the cluster, tainted unreachable, and a
	// topology spread ignoring taints still counts it as a domain (cluster.present).
	DisruptNodeLoss DisruptionKind = "node_loss"
	// DisruptZoneLoss loses every node of one zone, for each zone in turn. Pods whose block volumes are in
	// that zone cannot run elsewhere (stuck by design, reported); the others must bind on the nodes of the
	// other zones, each pool growing there within its maximum node count. The lost nodes stay in the cluster
	// as unreachable nodes, which a topology spread ignoring taints still counts as domains
	// (cluster.present).
	DisruptZoneLoss DisruptionKind = "zone_loss"
)

// DisruptionKinds lists every valid disruption scenario.
var DisruptionKinds = []DisruptionKind{DisruptNodeLoss, DisruptZoneLoss, DisruptSpotLoss, DisruptNodeUpgrade}

// ReasonDisruption: the pods of a lost node or zone do not bind elsewhere.
const ReasonDisruption Reason = "disruption"

// WorkloadCount is a number of pods of one workload.
type WorkloadCount struct {
	Workload string
	Pods     int
}

// DisruptionResult is the verdict of one disruption scenario: the worst case of its kind (the lost node or
// zone that leaves the most pods Pending, else the one that evicts the most).
type DisruptionResult struct {
	Kind DisruptionKind
	// Checked is false when the scheduler model did not run on the steady scenario (its work budget); Fits
	// is then false, on the safe side.
	Checked bool
	Fits    bool
	// Lost says what was lost: `node 3 of pool "general" (zone "a")`, `zone "a" (4 nodes)`; Pool and Zone
	// name them ("" when not applicable).
	Lost    string
	Pool    string
	Zone    string
	Evicted int
	// Pending are the evicted pods that bind nowhere; Stuck those whose block volumes pin them to a lost
	// zone (reported, not a failure: no node count moves them).
	Pending []WorkloadCount
	Stuck   []WorkloadCount
	// Blocked are node_upgrade's pods whose eviction a PodDisruptionBudget keeps refusing: the drain blocks.
	Blocked []WorkloadCount
	Message string
	// Spare is set on the node loss checked without being asked for, because the steady scenario fills a
	// pool to its maximum node count (spare.go): a warning (Result.NodeLossWarning), not a failure.
	Spare bool
}

// evictee is a pod of a lost node: its index in the arrival order and the zone its volumes pin it to (-1).
type evictee struct {
	i   int
	pin int32
}

// lossCase is one lost node or zone, before it is judged.
type lossCase struct {
	pool, node int // node_loss: the pool and the node's index in it
	zone       int32
	lost       []bool // per node id of the base cluster
}

// disruptions checks in.Disruptions on the steady placement: the binding order's pods (classes), the node
// counts (each pool at most at its maximum) and each pod's node.
func (cl *cluster) disruptions(m *model, pods []int32, counts []int, bind []int32, seed uint64) []DisruptionResult {
	cl.setMode(seed)
	var out []DisruptionResult
	cl.disruptFrom = cl.work()
	for _, kind := range m.in.Disruptions {
		if kind == DisruptNodeUpgrade {
			out = append(out, cl.upgrades(m, pods, counts, bind, seed))
			continue
		}
		var worst *DisruptionResult
		var worstCase lossCase
		// The cases are replayed two at a time (inPairs), the budget checked before each pair.
		cases := cl.lossCases(m, kind, pods, counts, bind)
		results := make([]DisruptionResult, len(cases))
		ran := 0
		for ran < len(cases) && !cl.overDisruptionBudget() {
			pair := cases[ran:min(ran+2, len(cases))]
			cl.inPairs(len(pair), func(c *cluster, j int) {
				results[ran+j] = c.afterLoss(m, kind, pair[j], pods, counts, bind, seed, 0)
			})
			ran += len(pair)
		}
		for i := range results[:ran] {
			if worst == nil || worseLoss(results[i], *worst) {
				worst, worstCase = &results[i], cases[i]
			}
		}
		if ran < len(cases) {
			u := cl.unchecked(kind, pods, counts)
			worst = &u
		}
		if worst != nil && worst.Checked && !worst.Fits {
			worst.Message += cl.lossRemedy(m, kind, worstCase, pods, counts, bind, seed)
		}
		if worst == nil {
			msg := fmt.Sprintf("%s: nothing to lose (no node holds a pod)", kind)
			if kind == DisruptZoneLoss && len(m.zoneNames) == 0 {
				msg = "zone_loss: no pool names its zones, so no zone can be lost; give the pools their zones to check it"
			}
			if kind == DisruptSpotLoss {
				msg = "spot_loss: the spot pools have no node in the steady scenario, so nothing is lost"
			}
			worst = &DisruptionResult{Kind: kind, Checked: true, Fits: true, Message: msg}
		}
		out = append(out, *worst)
	}
	if r := cl.spareLoss(m, pods, counts, bind, seed); r != nil {
		out = append(out, *r)
	}
	return out
}

// The disruptions' work budget: their replays run the scheduler model on clusters that grow to the pools'
// maximums, once per lost node or zone, per upgrade batch and per remedy tried, so on a large plan they could
// cost many times the search. Work counts evalWork per node filtered (nodeCost times for a pod with terms),
// one per node slot reset (a node times the classes) plus nodeWork per node reset and per pod placed (every
// replay places the surviving pods again: a pool of 10,000 nodes upgraded one node at a time took 10 s
// before they counted), about a nanosecond each here; disruptionBudget is about two and a half seconds of it.
// What is left when it runs out is not checked, and fails on the safe side.
const evalWork = 16

// nodeWork is the disruptions' work per node reset and per pod placed, besides its slots.
const nodeWork = 32

// disruptionBudget is a variable so that tests can exhaust it.
var disruptionBudget int64 = 2_500_000_000

// remedyOutOfBudget ends a failure's message when the search for its remedy ran out of the work budget.
const remedyOutOfBudget = ". The search for a remedy stopped at the scheduler model's work budget"

// work is the scheduler model's work on cl so far, in the disruptions' units.
func (cl *cluster) work() int64 { return cl.evals*evalWork + cl.resetWork }

// overDisruptionBudget reports whether the disruptions of this scenario have used up their work budget.
func (cl *cluster) overDisruptionBudget() bool { return cl.work()-cl.disruptFrom > disruptionBudget }

// unchecked is the verdict of a disruption the work budget left unchecked: not a fit, on the safe side.
func (cl *cluster) unchecked(kind DisruptionKind, pods []int32, counts []int) DisruptionResult {
	return DisruptionResult{Kind: kind, Message: fmt.Sprintf("%s was not checked: the disruptions' replays of %s pods on %s nodes "+
		"ran out of the scheduler model's work budget; kubefit cannot say what it strands, so it fails on the safe side; "+
		"check the disruptions on fewer pods or pools per plan (one plan per pool group, say)",
		kind, FormatCount(int64(len(pods))), FormatCount(int64(sumInts(counts))))}
}

func worseLoss(a, b DisruptionResult) bool {
	pa, pb := countPods(a.Pending), countPods(b.Pending)
	if pa != pb {
		return pa > pb
	}
	return a.Evicted > b.Evicted
}

func countPods(ws []WorkloadCount) int {
	n := 0
	for _, w := range ws {
		n += w.Pods
	}
	return n
}

// lossCases lists what each disruption of a kind may lose: per pool its busiest node, or every zone that
// has a node.
func (cl *cluster) lossCases(m *model, kind DisruptionKind, order []int32, counts []int, bind []int32) []lossCase {
	cl.reset(counts)
	switch kind {
	case DisruptNodeLoss:
		used := make([]vec, len(cl.nodes))
		for i, id := range bind {
			if id >= 0 {
				used[id] = used[id].add(cl.classes[order[i]].c.req)
			}
		}
		var out []lossCase
		first := 0
		for p := range counts {
			best, bestShare := -1, -1.0
			for k := range counts[p] {
				id := first + k
				share := 0.0
				for r := range nRes {
					if w := m.pools[p].walloc[r]; w > 0 {
						share = max(share, float64(used[id][r])/float64(w))
					}
				}
				if used[id][rPods] > 0 && share > bestShare {
					best, bestShare = k, share
				}
			}
			if best >= 0 {
				lost := make([]bool, len(cl.nodes))
				lost[first+best] = true
				out = append(out, lossCase{pool: p, node: best, zone: cl.nodes[first+best].zone, lost: lost})
			}
			first += counts[p]
		}
		return out
	case DisruptZoneLoss:
		var out []lossCase
		for z := range m.zoneNames {
			lost := make([]bool, len(cl.nodes))
			any := false
			for id := range cl.nodes {
				if cl.nodes[id].zone == int32(z) {
					lost[id], any = true, true
				}
			}
			if any {
				out = append(out, lossCase{pool: -1, node: -1, zone: int32(z), lost: lost})
			}
		}
		return out
	case DisruptSpotLoss:
		return cl.spotLossCases(m)
	}
	return nil
}

// afterLoss judges one lost node or zone: the surviving nodes keep their pods; the evicted pods, in their
// arrival order, are scheduled on the surviving nodes, then, for those left Pending, on the nodes each pool
// may add (the autoscaler's answer to Pending pods). A pod with block volumes stays in its node's zone
// (its volumes are zonal); in a lost zone it is stuck.
func (cl *cluster) afterLoss(m *model, kind DisruptionKind, lc lossCase, order []int32, counts []int, bind []int32, seed uint64, bump int) DisruptionResult {
	cl.setMode(seed)
	base := 0
	for _, c := range counts {
		base += c
	}
	// The nodes the pools may add, after the base cluster's: node_loss within MaxNodes less the lost node;
	// zone_loss within MaxNodes in the surviving zones (new nodes in the lost zone are never usable).
	grown := slices.Clone(counts)
	for p := range counts {
		pm := &m.pools[p]
		maxNodes := pm.p.MaxNodes
		if lc.pool < 0 || lc.pool == p {
			maxNodes += bump
		}
		switch kind {
		case DisruptNodeLoss:
			grown[p] = max(counts[p], maxNodes)
		case DisruptSpotLoss:
			// Every spot pool is lost and adds no node; the others grow within their maximum.
			if pm.p.CapacityType != CapacitySpot {
				grown[p] = max(counts[p], maxNodes)
			}
		case DisruptZoneLoss:
			alive := 0
			for i := range counts[p] {
				if pm.nz == 0 || len(pm.zones) == 0 || pm.zones[i%pm.nz] != lc.zone {
					alive++
				}
			}
			usable := 0
			n := counts[p]
			for alive+usable < maxNodes && n < counts[p]+2*maxNodes {
				if len(pm.zones) == 0 || pm.zones[n%pm.nz] != lc.zone {
					usable++
				}
				n++
			}
			grown[p] = n
		}
	}
	cl.reset(grown)
	idOf, isNew := grownIDs(counts, grown)
	cl.dead = resizeBool(cl.dead, len(cl.nodes))
	for id := range cl.nodes {
		cl.dead[id] = isNew[id]
		if kind == DisruptZoneLoss && cl.nodes[id].zone == lc.zone {
			cl.dead[id] = true
		}
	}
	for old, l := range lc.lost {
		if l {
			cl.dead[idOf[old]] = true
		}
	}
	cl.setLive()
	if kind == DisruptZoneLoss {
		// The lost zone's nodes stay in the API as NotReady nodes tainted node.kubernetes.io/unreachable until
		// they are deleted, which nothing does while the cloud still reports the instances: a zone-spread
		// workload (nodeTaintsPolicy Ignore) still counts the zone as a domain, with none of its pods (those
		// there are terminating, which PodTopologySpread does not count), so its replacements must keep within
		// MaxSkew of 0 there (kubernetes/kubernetes#123019; KEP-5980 changes it only from v1.38, alpha).
		cl.present = make([]presence, len(cl.nodes))
		for id := range cl.nodes {
			if !isNew[id] && cl.nodes[id].zone == lc.zone {
				cl.present[id] = unreachable
			}
		}
	}
	if kind == DisruptNodeLoss {
		// A node that hangs (kernel, kubelet or network) stays in the API the same way, NotReady and tainted
		// unreachable, while its instance still runs: until auto-repair or the autoscaler replaces it
		// (cluster-autoscaler's --scale-down-unready-time, 20 minutes by default) a node spread ignoring taints
		// counts it as a domain holding none of the evicted pods, where a terminated instance's Node is deleted
		// and counts no more. The hung node is the worse of the two, so node_loss plans it.
		cl.present = make([]presence, len(cl.nodes))
		for old, l := range lc.lost {
			if l {
				cl.present[idOf[old]] = unreachable
			}
		}
	}
	defer func() { cl.dead, cl.present, cl.pin = nil, nil, -1 }()
	var evicted []evictee
	stuck := make([]int, len(cl.classes))
	for i, id := range bind {
		if id < 0 {
			continue
		}
		w := int(order[i])
		if !lc.lost[id] {
			cl.place(w, idOf[id])
			continue
		}
		pin := int32(-1)
		if cl.classes[w].c.req[rVol] > 0 {
			pin = cl.nodes[idOf[id]].zone
		}
		if kind == DisruptZoneLoss && pin == lc.zone && pin >= 0 {
			stuck[w]++
			continue
		}
		evicted = append(evicted, evictee{i, pin})
	}
	pending := make([]int, len(cl.classes))
	start := 0
	// schedule runs the pods through the scheduler model in order, then retries those left Pending while
	// some bind (a later binding can lift a skew or bring the pods an affinity looks for).
	schedule := func(es []evictee) []evictee {
		for progress := true; progress && len(es) > 0; {
			progress = false
			var left []evictee
			for _, e := range es {
				w := int(order[e.i])
				cl.pin = e.pin
				id, next := cl.cycle(w, start, m.in.Scheduler)
				start = next
				if id < 0 {
					left = append(left, e)
					continue
				}
				progress = true
				cl.place(w, id)
			}
			es = left
		}
		return es
	}
	cl.liveSpreadDomains()
	left := schedule(evicted)
	if len(left) > 0 {
		for id := range cl.nodes {
			if isNew[id] && !(kind == DisruptZoneLoss && cl.nodes[id].zone == lc.zone) {
				cl.dead[id] = false
			}
		}
		cl.setLive()
		cl.liveSpreadDomains()
		left = schedule(left)
	}
	for _, e := range left {
		pending[order[e.i]]++
	}
	r := DisruptionResult{Kind: kind, Checked: true, Evicted: len(evicted) + sumInts(stuck)}
	r.Pending, r.Stuck = cl.workloadCounts(m, pending), cl.workloadCounts(m, stuck)
	r.Fits = len(r.Pending) == 0
	switch kind {
	case DisruptNodeLoss:
		pm := &m.pools[lc.pool]
		r.Pool = pm.p.Name
		r.Lost = fmt.Sprintf("node %d of %s", lc.node+1, poolLabel(pm.p))
		if lc.zone >= 0 {
			r.Zone = m.zoneNames[lc.zone]
			r.Lost += fmt.Sprintf(" in zone %q", r.Zone)
		}
	case DisruptZoneLoss:
		r.Zone = m.zoneNames[lc.zone]
		n := 0
		for _, l := range lc.lost {
			if l {
				n++
			}
		}
		r.Lost = fmt.Sprintf("zone %q (%s)", r.Zone, Plural(n, "node", "nodes"))
	case DisruptSpotLoss:
		r.Lost, r.Pool = spotLost(m, lc, counts)
	}
	r.Message = lossMessage(r, cl.pendingWhy(m, kind, lc, left, order))
	return r
}

// maxLossBump bounds the remedy search: how many nodes above the maximum node count it tries.
const maxLossBump = 8

// lossRemedy finds the smallest rise of the maximum node count (of the lost node's pool, or of every pool
// for a zone) with which every evicted pod binds, and says it; or that none up to maxLossBump does.
func (cl *cluster) lossRemedy(m *model, kind DisruptionKind, lc lossCase, order []int32, counts []int, bind []int32, seed uint64) string {
	cl.setMode(seed)
	// The rises are tried two at a time (inPairs), the budget checked before each pair; fits[i] is rise i+1's.
	var fits [maxLossBump]bool
	for tried := 0; tried < maxLossBump; {
		if cl.overDisruptionBudget() {
			return remedyOutOfBudget
		}
		n := min(2, maxLossBump-tried)
		cl.inPairs(n, func(c *cluster, j int) {
			fits[tried+j] = c.afterLoss(m, kind, lc, order, counts, bind, seed, tried+j+1).Fits
		})
		if i := slices.Index(fits[tried:tried+n], true); i >= 0 {
			return riseText(m, kind, lc, tried+i+1)
		}
		tried += n
	}
	if kind == DisruptSpotLoss {
		if onDemandPools(m) == 0 {
			return ". No on-demand pool can take them: add an on-demand pool (capacity type on_demand) they may use"
		}
		return fmt.Sprintf(". Up to %d more nodes in the on-demand pools' maximum node counts do not bind them: let them use an on-demand pool (node selector, affinity, tolerations, pool list), or add one they may use", maxLossBump)
	}
	if kind == DisruptZoneLoss {
		return fmt.Sprintf(". Up to %d more nodes in the maximum node counts do not bind them: no pool they may use has a node outside the lost zone, or their volumes keep them in it, "+
			"or a hard topology spread does: the lost zone's nodes stay in the cluster, NotReady and tainted unreachable, until they are deleted, and a spread that ignores taints "+
			"(nodeTaintsPolicy Ignore, the default, and the zone spread shortcut) still counts their zone and nodes, holding none of the pods, so no other zone may take more "+
			"than the max skew; use a topology spread constraint with nodeTaintsPolicy Honor, or delete the lost nodes in an outage", maxLossBump)
	}
	return fmt.Sprintf(". Up to %d more nodes in the maximum node count do not bind them: their volumes or spread rule keep them where no node can be added", maxLossBump)
}

// riseText says that the evicted pods bind with bump more nodes in the maximum node count of the lost node's
// pool, of every on-demand pool (spot_loss) or of every pool (zone_loss).
func riseText(m *model, kind DisruptionKind, lc lossCase, bump int) string {
	if lc.pool >= 0 {
		return fmt.Sprintf(". With a maximum node count of %d for pool %q (%d more), they bind", m.pools[lc.pool].p.MaxNodes+bump, m.pools[lc.pool].p.Name, bump)
	}
	if kind == DisruptSpotLoss {
		return fmt.Sprintf(". With %d more nodes allowed in every on-demand pool's maximum node count, they bind", bump)
	}
	return fmt.Sprintf(". With %d more nodes allowed in every pool's maximum node count, they bind", bump)
}

// pendingWhy says, per workload left Pending after a loss, what keeps its pods off the nodes there are: no
// node in the zone its volumes pin it to, one pod per node already on every node that has room, no room, or
// the filters that turn it away from the nodes with room (roomRejections).
func (cl *cluster) pendingWhy(m *model, kind DisruptionKind, lc lossCase, left []evictee, order []int32) string {
	seen := map[int]bool{}
	var parts []string
	for _, e := range left {
		w := int(order[e.i])
		if seen[w] {
			continue
		}
		seen[w] = true
		name := m.in.Workloads[cl.classes[w].c.w].Name
		inZone, room, free := 0, 0, 0
		for id := range cl.nodes {
			nd := &cl.nodes[id]
			if cl.dead[id] || !cl.classes[w].allowed[nd.pool] || (e.pin >= 0 && nd.zone != e.pin) {
				continue
			}
			inZone++
			if cl.fitsResources(&cl.classes[w], nd) {
				room++
				if cl.classes[w].c.spread != SpreadNode || cl.onNode[w][id] == 0 {
					free++
				}
			}
		}
		switch {
		case kind == DisruptSpotLoss && inZone == 0 && e.pin < 0:
			parts = append(parts, fmt.Sprintf("workload %q: no on-demand pool it may use (node selector, affinity, tolerations or pool list) has a node or may add one", name))
		case kind == DisruptZoneLoss && inZone == 0 && e.pin < 0:
			parts = append(parts, fmt.Sprintf("workload %q: every pool it may use (node selector, affinity, tolerations or pool list) has its nodes only in the lost zone; give one of them another zone", name))
		case e.pin >= 0 && inZone == 0:
			parts = append(parts, fmt.Sprintf("workload %q: its volumes keep its pods in zone %q, where no other node runs or may be added within the maximum node count", name, m.zoneNames[e.pin]))
		case room > 0 && free == 0:
			parts = append(parts, fmt.Sprintf("workload %q: every node with room already runs one of its pods (one per node)", name))
		case room == 0:
			parts = append(parts, fmt.Sprintf("workload %q: no node it may use has room for one more pod", name))
		default:
			why := cl.roomRejections(w, e.pin)
			spreadRejects := strings.Contains(why, "topology spread (DoNotSchedule)") || strings.Contains(why, "zone spread (max skew")
			if kind == DisruptNodeLoss && spreadRejects && ignoresTaintsInSpread(&m.in.Workloads[cl.classes[w].c.w]) {
				why += "; the lost node stays in the cluster, NotReady and tainted unreachable, while it hangs until auto-repair or the autoscaler " +
					"replaces it, and a spread that ignores taints (nodeTaintsPolicy Ignore, the default) still counts it, holding none of the pods: " +
					"nodeTaintsPolicy Honor leaves it out"
			}
			parts = append(parts, fmt.Sprintf("workload %q: of the %s with room for one of its pods, %s", name,
				Plural(room, "node", "nodes"), why))
		}
	}
	return strings.Join(parts, "; ")
}

// roomRejections says how many of the live nodes with room for a pod of class w (in zone pin when pin ≥ 0) each
// filter turns it away from, as explain does: host ports, topology or zone spread, inter-pod terms, node spread.
func (cl *cluster) roomRejections(w int, pin int32) string {
	minMatch := cl.minMatch(w)
	if cl.ss.any {
		cl.mins = cl.spreadMins(w, cl.mins)
	}
	type tally struct {
		why   rejection
		nodes int
	}
	var ts []tally
	for id := range cl.nodes {
		nd := &cl.nodes[id]
		if cl.dead[id] || !cl.classes[w].allowed[nd.pool] || (pin >= 0 && nd.zone != pin) || !cl.fitsResources(&cl.classes[w], nd) {
			continue
		}
		why := cl.whyNot(w, int32(id), minMatch)
		i := slices.IndexFunc(ts, func(t tally) bool { return t.why == why })
		if i < 0 {
			ts = append(ts, tally{why: why})
			i = len(ts) - 1
		}
		ts[i].nodes++
	}
	parts := make([]string, len(ts))
	for i, t := range ts {
		parts[i] = fmt.Sprintf("%d %s", t.nodes, t.why.many)
		if t.nodes == 1 {
			parts[i] = "1 " + t.why.one
		}
	}
	return field.JoinAnd(parts)
}

func (cl *cluster) workloadCounts(m *model, perClass []int) []WorkloadCount {
	var out []WorkloadCount
	for w, n := range perClass {
		if n > 0 {
			out = append(out, WorkloadCount{Workload: m.in.Workloads[cl.classes[w].c.w].Name, Pods: n})
		}
	}
	return out
}

func resizeBool(buf []bool, n int) []bool {
	if cap(buf) < n {
		return make([]bool, n)
	}
	buf = buf[:n]
	clear(buf)
	return buf
}

// lossMessage says what the loss does, in the planner's words; why says why the Pending pods bind nowhere.
func lossMessage(r DisruptionResult, why string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: losing %s evicts %s", r.Kind, r.Lost, Plural(r.Evicted, "pod", "pods"))
	movable := r.Evicted - countPods(r.Stuck)
	switch {
	case len(r.Pending) > 0:
		fmt.Fprintf(&b, "; %s nowhere: %s (%s)", podsBind(countPods(r.Pending)), countsText(r.Pending), why)
	case movable > 0 && r.Kind == DisruptSpotLoss:
		fmt.Fprintf(&b, "; %s on the on-demand pools, each growing within its maximum node count", podsBind(movable))
	case movable > 0 && r.Kind == DisruptNodeLoss:
		fmt.Fprintf(&b, "; %s on the other nodes, the pool growing within its maximum node count less the lost node", podsBind(movable))
	case movable > 0:
		fmt.Fprintf(&b, "; %s on the nodes of the other zones, within the pools' maximum node counts", podsBind(movable))
	}
	if len(r.Stuck) > 0 {
		fmt.Fprintf(&b, "; %s stay with their volumes in the lost zone until it returns (by design: no node elsewhere can mount a zonal volume): %s",
			Plural(countPods(r.Stuck), "pod", "pods"), countsText(r.Stuck))
	}
	return b.String()
}

// podsBind is "1 pod binds" or "n pods bind".
func podsBind(n int) string {
	if n == 1 {
		return "1 pod binds"
	}
	return fmt.Sprintf("%d pods bind", n)
}

func countsText(ws []WorkloadCount) string {
	parts := make([]string, len(ws))
	for i, w := range ws {
		parts[i] = fmt.Sprintf("%s of workload %q", Plural(w.Pods, "pod", "pods"), w.Workload)
	}
	return field.JoinAnd(parts)
}

// disruptionResults returns the disruption verdicts of the steady scenario's placement s: those the
// scheduler model computed, or, when it did not run (no pod to place, or beyond its work budget), a verdict
// for every requested kind; and the node loss that no spare node absorbs, when it was checked unasked and
// strands pods (nil otherwise).
func (m *model) disruptionResults(s *sim) ([]DisruptionResult, *DisruptionResult) {
	if s.disrupt != nil {
		var out []DisruptionResult
		var spare *DisruptionResult
		for i := range s.disrupt {
			if s.disrupt[i].Spare {
				spare = &s.disrupt[i]
			} else {
				out = append(out, s.disrupt[i])
			}
		}
		return out, spare
	}
	var out []DisruptionResult
	pods := 0
	for i := range s.classes {
		if len(s.classes[i].pools) > 0 {
			pods += s.classes[i].n
		}
	}
	for _, kind := range m.in.Disruptions {
		r := DisruptionResult{Kind: kind, Checked: pods == 0, Fits: pods == 0}
		switch {
		case pods == 0:
			r.Message = fmt.Sprintf("%s: nothing to lose (no pod is placed)", kind)
		default:
			r.Message = fmt.Sprintf("%s was not checked: the scheduler model did not run on the steady scenario (%s); kubefit cannot say what a loss strands, so it fails on the safe side; check fewer pods per plan", kind, s.note)
		}
		out = append(out, r)
	}
	return out, nil
}

func firstWorkload(ws []WorkloadCount) string {
	if len(ws) == 0 {
		return ""
	}
	return ws[0].Workload
}

// ignoresTaintsInSpread says whether one of w's hard topology spread constraints (the zone spread shorthand
// included) counts the domains of tainted nodes: nodeTaintsPolicy Ignore, the default. A ScheduleAnyway constraint
// only scores, so it never keeps a pod Pending.
func ignoresTaintsInSpread(w *Workload) bool {
	if w.Spread.Type == SpreadZone {
		return true
	}
	for _, c := range w.TopologySpread {
		if c.WhenUnsatisfiable == DoNotSchedule && c.NodeTaintsPolicy != PolicyHonor {
			return true
		}
	}
	return false
}
