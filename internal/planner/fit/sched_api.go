package fit

// Order is one arrival order the scheduler model plans: the workload (index into Input.Workloads) of
// each pod, in queue order, and the seed of the model's random tie-breaks in it.
type Order struct {
	Name string
	Pods []int
	Seed uint64
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
