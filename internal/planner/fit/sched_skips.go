package fit

// The pool-level skips of the scheduler model's Filter loop (cycle): nodes of pools a pod may not use fail
// filter's first test with nothing else read, so a run of them is stepped over at once; the nodes filtered and the
// feasible ones are the same as node by node.

// maxSkipEntries bounds the pool-level skip tables of one reset (sets × nodes); beyond it a class without a table
// filters every node (skipFor returns nil). Tests set it to 0 to check that the tables change no placement.
var maxSkipEntries = 1 << 22

// initSkips gives every class that may not use every pool the index of its set of allowed pools (allowSet).
func (cl *cluster) initSkips() {
	cl.allowSet = make([]int32, len(cl.classes))
	index := map[string]int32{}
	key := make([]byte, len(cl.pools))
	for w := range cl.classes {
		all := true
		for p, ok := range cl.classes[w].allowed {
			key[p] = 0
			if ok {
				key[p] = 1
			} else {
				all = false
			}
		}
		if all {
			cl.allowSet[w] = -1
			continue
		}
		k, ok := index[string(key)]
		if !ok {
			k = int32(len(index))
			index[string(key)] = k
		}
		cl.allowSet[w] = k
	}
	cl.skips = make([][]int32, len(index))
	cl.skipBuilt = make([]uint64, len(index))
}

// skipFor returns, for a pod of class w, how many positions of the node list from each on hold nodes of pools it
// may not use (0 for a node of a pool it may use), or nil when it may use every pool or the tables would be too
// large. cycle steps over those nodes at once: they fail filter's first test, so the filtered nodes and the
// feasible ones are the same as node by node.
func (cl *cluster) skipFor(w int) []int32 {
	set := cl.allowSet[w]
	n := len(cl.list)
	if set < 0 || len(cl.skips)*n > maxSkipEntries {
		return nil
	}
	if cl.skipBuilt[set] == cl.resets {
		return cl.skips[set]
	}
	allowed := cl.classes[w].allowed
	t := resize(cl.skips[set], n)
	// Twice round the list backwards: a run of other pools' nodes may wrap past the end.
	run := int32(0)
	for i := 2*n - 1; i >= 0; i-- {
		at := i % n
		if allowed[cl.nodes[cl.list[at]].pool] {
			run = 0
		} else {
			run = min(run+1, int32(n))
		}
		t[at] = run
	}
	cl.skips[set], cl.skipBuilt[set] = t, cl.resets
	return t
}
