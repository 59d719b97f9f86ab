package fit

import (
	"fmt"
	"slices"
	"strings"
)

// spareLoss checks, when Input.Disruptions does not ask for node_loss, what losing one node would strand in
// the pools the steady placement fills to their maximum node count (no spare node: the autoscaler cannot
// replace a lost node there). It is node_loss restricted to those pools: their busiest node is lost, and
// its pods are scheduled on the rest (other pools growing within their maximum). It returns the worst case
// when it leaves a pod Pending, with the rise of the maximum that absorbs it, Spare set; else nil. A pool
// below its maximum is not checked: the cheap check is for the plan that has no room at all.
func (cl *cluster) spareLoss(m *model, pods []int32, counts []int, bind []int32, seed uint64) *DisruptionResult {
	cl.setMode(seed)
	if slices.Contains(m.in.Disruptions, DisruptNodeLoss) {
		return nil
	}
	var worst *DisruptionResult
	var worstCase lossCase
	for _, lc := range cl.lossCases(m, DisruptNodeLoss, pods, counts, bind) {
		if counts[lc.pool] < m.pools[lc.pool].p.MaxNodes {
			continue
		}
		if cl.overDisruptionBudget() {
			break // a warning, not a verdict: what the budget leaves unchecked is not warned about
		}
		r := cl.afterLoss(m, DisruptNodeLoss, lc, pods, counts, bind, seed, 0)
		if !r.Fits && (worst == nil || worseLoss(r, *worst)) {
			worst, worstCase = &r, lc
		}
	}
	if worst == nil {
		return nil
	}
	pm := &m.pools[worstCase.pool]
	worst.Spare = true
	worst.Message = fmt.Sprintf("the steady scenario leaves no spare node in %s (%d of at most %d nodes): %s%s; list %q in the disruptions to fail the plan on it",
		poolLabel(pm.p), counts[worstCase.pool], pm.p.MaxNodes, strings.TrimPrefix(worst.Message, string(DisruptNodeLoss)+": "),
		cl.lossRemedy(m, DisruptNodeLoss, worstCase, pods, counts, bind, seed), DisruptNodeLoss)
	return worst
}
