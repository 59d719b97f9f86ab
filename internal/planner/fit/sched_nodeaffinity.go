package fit

// NodeAffinity's Score of the scheduler model (pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go
// at v1.37, weight 2 in the default profile and in MostAllocated, which changes only NodeResourcesFit's
// arguments): PreScore skips a pod without preferred node affinity (every node scores 0); otherwise the raw
// score of a node is the sum of the weights of the pod's preferred terms it matches
// (component-helpers' PreferredSchedulingTerms.Score), normalised by DefaultNormalizeScore(MaxNodeScore,
// reverse false) over the nodes scored: 100 × score / max, all left at 0 when max is 0. A node's labels are
// its pool's and its zone's, so the raw score is a constant of the pool and zone, computed once per class
// (schedClass.nodePref).

// preferences returns the raw NodeAffinity score of a pod of workload wl per pool and zone, indexed by
// nodePrefAt; nil when the pod has no preferred node affinity or no term can match any node (every node
// then scores 0, as when the plugin skips the pod).
func (cl *cluster) preferences(wl *Workload) []int64 {
	if len(wl.PreferredNodeAffinity) == 0 {
		return nil
	}
	stride := len(cl.m.zoneNames) + 1
	out := make([]int64, len(cl.pools)*stride)
	some := false
	for p := range cl.pools {
		raw := preferenceScores(wl.PreferredNodeAffinity, cl.m.pools[p].p)
		for i, s := range raw {
			z := int32(-1)
			if zs := cl.pools[p].zones; len(zs) > 0 {
				z = zs[i]
			}
			out[nodePrefAt(p, z, stride)] = s
			some = some || s > 0
		}
	}
	if !some {
		return nil
	}
	return out
}

// nodePrefAt is the index of pool p's nodes in global zone z (-1: no zone) in schedClass.nodePref, stride the
// number of zones + 1.
func nodePrefAt(p int, z int32, stride int) int {
	return p*stride + int(z) + 1
}

// preferenceScores sets out[i] to the normalised NodeAffinity score of feasible[i] for a pod of class sc.
func (cl *cluster) preferenceScores(sc *schedClass, feasible []int32, out []int64) {
	stride := len(cl.m.zoneNames) + 1
	for i, id := range feasible {
		nd := &cl.nodes[id]
		out[i] = sc.nodePref[nodePrefAt(int(nd.pool), nd.zone, stride)]
	}
	normalize(out)
}

// normalize is the framework's DefaultNormalizeScore without reverse: every score becomes
// 100 × score / max, and all stay as they are (0) when the maximum is 0.
func normalize(scores []int64) {
	var top int64
	for _, s := range scores {
		top = max(top, s)
	}
	if top == 0 {
		return
	}
	for i, s := range scores {
		scores[i] = maxNodeScore * s / top
	}
}
