package selector

import (
	"cmp"
	"math"
	"slices"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
)

// rankModelBudget bounds the scheduler model's work over all the candidates of one ranking, in filtered
// nodes (fit.ScenarioResult.ModelWork): five times one scenario's budget. A candidate whose sizing would take
// the total beyond it (judged by the costliest one sized so far) is not sized with the model, and the ranking
// warns (WarnModelBudget). Candidates of 10,000 pods take about 120 million each, so such a ranking sizes two of
// the ScheduledTop (they run side by side on two CPUs): BenchmarkRank500x10k's ranking took 6.1–7.4 s with
// three (480 million) on a quiet machine and up to 10.8 s while the VM ran slow, against the 10 s every plan
// must stay under; with two, 4.5–5.8 s. Below about 8,000 pods (100 million each) the three are sized. Before
// the budget, a limit of 10 on 10,000 pods took 27.5 s.
var rankModelBudget int64 = 300_000_000

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

// rankPackBudget bounds the best packing's work over the candidates of one ranking, in workload-nodes: a
// candidate's packing is estimated before it runs (packWork) as its workloads times its lower bound on nodes
// plus packFixedNodes, since every packing strategy runs each workload's pods through the node lists and
// the per-workload steps cost about as much as that many more nodes. Candidates are packed in order of
// their lower-bound cost (cheapestOrder); the first whose estimate would take the total beyond the budget,
// and every one after it, is not sized (ReasonNotSized), and the ranking warns (WarnPackBudget).
// BenchmarkRank500x2000Specs (2,000 workloads, 188 distinct packings) would take 1.7 billion, about 10 s of CPU
// before this budget; BenchmarkRank500x10k (100 workloads) takes 83 million. At 1 billion it packed 378 of its
// 500 candidates and its ranking took 8.3–8.7 s on a quiet machine, past 10 s while the VM ran slow; at 600
// million, 264 (the costliest lower bounds left out, the same Best) and 6.6–7.4 s (2026-12-06, alternated).
var rankPackBudget int64 = 600_000_000

// packFixedNodes is the per-workload part of a packing's cost, in nodes (see rankPackBudget).
const packFixedNodes = 3_200

// WarnPackBudget: the packing's work budget left some candidates unsized.
const WarnPackBudget = "selector.pack-budget"

// packCut is what the packing's budget did: candidates packed and left unsized, and the work estimated for
// the groups packed. It is zero when the budget cut nothing.
type packCut struct {
	packed, left int
	spent        int64
}

// packWork estimates the packing's work on a group of candidates (see rankPackBudget).
func packWork(req *Request, g *group) int64 {
	if !g.modelled {
		return 0 // its sizing fails before any packing
	}
	return int64(len(req.Workloads)) * int64(g.bound+packFixedNodes)
}

// cheapestOrder orders the groups for sizing: those whose pods fit a node by their cheapest member's
// lower-bound cost (group.cheapest, set here), then the others in request order.
func cheapestOrder(req *Request, rows []catalog.InstanceType, groups []group) []int {
	var order, rest []int
	for g := range groups {
		gr := &groups[g]
		if !gr.boundOK {
			rest = append(rest, g)
			continue
		}
		gr.cheapest = math.Inf(1)
		for _, i := range gr.members {
			gr.cheapest = min(gr.cheapest, float64(gr.bound)*req.price(&rows[i])*HoursPerMonth)
		}
		order = append(order, g)
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(groups[a].cheapest, groups[b].cheapest) })
	return append(order, rest...)
}

// packAllowed returns which groups the packing's budget lets Rank size: the groups in order while the
// estimated work stays within rankPackBudget (the first always), and every group the node model cannot
// size.
func packAllowed(req *Request, groups []group, order []int) []bool {
	allowed := make([]bool, len(groups))
	var spent int64
	over := false
	for k, g := range order {
		w := packWork(req, &groups[g])
		if !over && k > 0 && spent+w > rankPackBudget {
			over = true
		}
		if !over || w == 0 {
			allowed[g] = true
			spent += w
		}
	}
	return allowed
}
