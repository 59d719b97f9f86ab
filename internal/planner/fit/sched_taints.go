package fit

// TaintToleration's Score of the scheduler model (pkg/scheduler/framework/plugins/tainttoleration at
// v1.37): the raw score of a node is the number of its PreferNoSchedule taints the pod does not
// tolerate (schedClass.prefer), normalised in reverse over the feasible nodes.

// normalizeReverse is the framework's DefaultNormalizeScore with reverse set: every score becomes
// 100 − 100 × score / max, or 100 when the maximum is 0.
func normalizeReverse(scores []int64) {
	var top int64
	for _, s := range scores {
		top = max(top, s)
	}
	for i, s := range scores {
		if top == 0 {
			scores[i] = maxNodeScore
			continue
		}
		scores[i] = maxNodeScore - maxNodeScore*s/top
	}
}
