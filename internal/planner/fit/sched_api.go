package fit

import "fmt"

// Order is one arrival order the scheduler model plans: the workload (index into Input.Workloads) of
// each pod, in queue order, and the seed of the model's random tie-breaks in it.
type Order struct {
	Name string
	Pods []int
	Seed uint64
	// Nodes, when set, is every node of the cluster in the order of their names, which is the order the
	// scheduler's node list takes them in (zone by zone, in turn); without it each run draws that order
	// from Seed.
	Nodes []NodeRef
}

// NodeRef names one node of the modelled cluster: node Index (0-based, in creation order; node i of
// a pool is in its zone i mod len(Zones)) of pool Pool (an index into Input.Pools). Pool is -1 for a
// pod left Pending.
type NodeRef struct {
	Pool  int
	Index int
}

// Orders returns the arrival orders Plan checks in scenario sc, for callers that replay them (the
// real kube-scheduler in the oracle tests). Pods that no pool may take are left out.
func Orders(in Input, sc Scenario) ([]Order, error) {
	if err := Validate(in); err != nil {
		return nil, err
	}
	m := newModel(&in)
	classes := m.classes(sc)
	var out []Order
	for _, a := range arrivals(classes, in.Arrival, in.Workloads) {
		o := Order{Name: a.name, Seed: a.seed, Pods: make([]int, len(a.pods))}
		for i, w := range a.pods {
			o.Pods[i] = int(w)
		}
		out = append(out, o)
	}
	return out, nil
}

// Place runs the scheduler model once: the pods of order o on counts[p] nodes of pool p, each pod
// one scheduling cycle. It returns every pod's node, in order.
func Place(in Input, sc Scenario, counts []int, o Order) ([]NodeRef, error) {
	if err := Validate(in); err != nil {
		return nil, err
	}
	m := newModel(&in)
	cl := newCluster(m, m.classes(sc))
	pods := make([]int32, len(o.Pods))
	for i, w := range o.Pods {
		pods[i] = int32(w)
	}
	if o.Nodes != nil && len(o.Nodes) != sumInts(counts) {
		return nil, fmt.Errorf("fit: the order names %d nodes of %d", len(o.Nodes), sumInts(counts))
	}
	cl.nameRank = nameRank(counts, o.Nodes)
	cl.run(pods, counts, o.Seed, in.Scheduler, false)
	start := make([]int, len(counts))
	for p := 1; p < len(counts); p++ {
		start[p] = start[p-1] + counts[p-1]
	}
	out := make([]NodeRef, len(pods))
	for i, id := range cl.bind {
		if id < 0 {
			out[i] = NodeRef{Pool: -1, Index: -1}
			continue
		}
		p := int(cl.nodes[id].pool)
		out[i] = NodeRef{Pool: p, Index: int(id) - start[p]}
	}
	return out, nil
}

// classes returns the class templates of scenario sc.
func (m *model) classes(sc Scenario) []classSim {
	out := make([]classSim, len(m.in.Workloads))
	for w := range out {
		out[w] = m.newClass(w, sc)
	}
	return out
}

// NodeScore is the scheduler model's view of one node in one scheduling cycle of ScoreReplay: whether
// the pod passes the node's filters and, when it does, the Score plugins' scores, each normalised and
// before its weight (PodAffinity is 0 for a pod without inter-pod scores, NodeAffinity for a pod without
// preferred node affinity), and the weighted Total the model ranks the nodes by.
type NodeScore struct {
	Node                                                    NodeRef
	Feasible                                                bool
	Fit, Balanced, Spread, Taint, PodAffinity, NodeAffinity int64
	Total                                                   int64
}

// ScoreReplay replays a given placement through the scheduler model, for callers that compare its scores
// with the real kube-scheduler's: pod i of order o is scored on every node of counts[p] nodes of pool p
// (all nodes filtered, as the scheduler does below 100 nodes), f is called with its scores (one per node,
// in creation order), and the pod is then placed on placed[i] (nowhere when its Pool is -1), whatever
// the model would have chosen.
func ScoreReplay(in Input, sc Scenario, counts []int, o Order, placed []NodeRef, f func(i int, scores []NodeScore)) error {
	if err := Validate(in); err != nil {
		return err
	}
	if len(placed) != len(o.Pods) {
		return fmt.Errorf("fit: %d nodes for %d pods", len(placed), len(o.Pods))
	}
	m := newModel(&in)
	cl := newCluster(m, m.classes(sc))
	cl.setMode(o.Seed)
	cl.nameRank = nameRank(counts, o.Nodes)
	cl.reset(counts)
	start := make([]int, len(counts))
	for p := 1; p < len(counts); p++ {
		start[p] = start[p-1] + counts[p-1]
	}
	for i, wi := range o.Pods {
		w := wi
		sc := &cl.classes[w]
		minMatch := cl.minMatch(w)
		if cl.ss.any {
			cl.mins = cl.spreadMins(w, cl.mins)
		}
		out := make([]NodeScore, len(cl.nodes))
		var feasible []int32
		for id := range cl.nodes {
			nd := &cl.nodes[id]
			out[id].Node = NodeRef{Pool: int(nd.pool), Index: id - start[nd.pool]}
			if cl.filter(w, int32(id), minMatch) {
				out[id].Feasible = true
				feasible = append(feasible, int32(id))
			}
		}
		if len(feasible) > 0 {
			resS, spreadS, taintS, podS, affS := cl.scores(w, feasible, in.Scheduler)
			for k, id := range feasible {
				nd := &cl.nodes[id]
				s := &out[id]
				s.Fit = cl.resourceScore(sc, nd, in.Scheduler)
				if !sc.bestEffort {
					s.Balanced = cl.balancedScore(sc, nd)
				}
				s.Spread, s.Taint = spreadS[k], taintS[k]
				s.Total = resS[k] + weightPodTopologySpread*spreadS[k] + weightTaintToleration*taintS[k]
				if podS != nil {
					s.PodAffinity = podS[k]
					s.Total += weightInterPodAffinity * podS[k]
				}
				if affS != nil {
					s.NodeAffinity = affS[k]
					s.Total += weightNodeAffinity * affS[k]
				}
			}
		}
		f(i, out)
		if r := placed[i]; r.Pool >= 0 {
			cl.place(w, int32(start[r.Pool]+r.Index))
		}
	}
	return nil
}

// nameRank is the rank of every node of the counts in order (by node id: pool by pool, in creation order),
// nil without an order.
func nameRank(counts []int, order []NodeRef) []int32 {
	if order == nil {
		return nil
	}
	start := make([]int, len(counts))
	n := 0
	for p := range counts {
		start[p] = n
		n += counts[p]
	}
	rank := make([]int32, n)
	for r, ref := range order {
		rank[start[ref.Pool]+ref.Index] = int32(r)
	}
	return rank
}
