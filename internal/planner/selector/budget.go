package selector

// rankModelBudget bounds the scheduler model's work over all the candidates of one ranking, in filtered
// nodes (fit.ScenarioResult.ModelWork): eight times one scenario's budget, about six seconds on one pool's
// candidates here (ScheduledTop candidates of 10,000 pods take 3 × 138 million). A candidate whose sizing would
// take the total beyond it (judged by the costliest one sized so far) is not sized with the model, and the
// ranking warns (WarnModelBudget). Before it, a limit of 10 on 10,000 pods took 27.5 s.
var rankModelBudget int64 = 480_000_000

// WarnModelBudget: the model's work budget left some of the cheapest candidates with the best packing's count.
const WarnModelBudget = "selector.model-budget"

// spentOf sums the scheduler model's work over the candidates it sized.
func spentOf(cs []Candidate) int64 {
	var n int64
	for _, c := range cs {
		n += c.ModelWork
	}
	return n
}

// unscheduledTop counts the eligible candidates among the first max(limit, ScheduledTop) that the model
// did not size.
func unscheduledTop(req *Request, cs []Candidate) int {
	n := 0
	for i := 0; i < len(cs) && i < max(req.Limit, ScheduledTop); i++ {
		if !cs[i].Excluded && !cs[i].Scheduled {
			n++
		}
	}
	return n
}
