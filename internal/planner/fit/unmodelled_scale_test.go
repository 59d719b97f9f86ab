package fit

import (
	"os"
	"slices"
	"strconv"
	"testing"
)

// TestUnmodelledMarginAtScale (diagnostic, KUBEFIT_SCALE_SPECS=<workloads of 100 pods>, optional
// KUBEFIT_SCALE_POOLS (default 20), KUBEFIT_SCALE_SEED, KUBEFIT_SCALE_PINNED=1 to pin each workload to the pool the
// best packing gave it, KUBEFIT_SCALE_MOST=1 for the most-allocated profile): plans benchInput without the
// scheduler model (its answer when beyond the work budget), sets every pool's maximum to that answer's peak
// count, and plans again with the model on a budget large enough to run it, logging per pool what the model
// needs against the maximum. With KUBEFIT_SCALE_SPECS=100 it takes about a minute.
func TestUnmodelledMarginAtScale(t *testing.T) {
	specs, _ := strconv.Atoi(os.Getenv("KUBEFIT_SCALE_SPECS"))
	if specs == 0 {
		t.Skip("KUBEFIT_SCALE_SPECS not set")
	}
	pools := 20
	if n, err := strconv.Atoi(os.Getenv("KUBEFIT_SCALE_POOLS")); err == nil {
		pools = n
	}
	seed, _ := strconv.Atoi(os.Getenv("KUBEFIT_SCALE_SEED"))
	defer func(b int64) { schedulerBudget = b }(schedulerBudget)
	in := benchInput(uint64(seed), specs, 100, pools)
	if os.Getenv("KUBEFIT_SCALE_MOST") != "" {
		in.Scheduler = ProfileMostAllocated
	}
	schedulerBudget = 1
	res := mustPlan(t, in)
	if os.Getenv("KUBEFIT_SCALE_PINNED") != "" {
		in.Workloads = slices.Clone(in.Workloads)
		for i, pl := range res.Scenarios[0].Placements {
			if len(pl.Pools) > 0 {
				in.Workloads[i].Pools, in.Workloads[i].NodeSelector = []string{pl.Pools[0].Pool}, nil
			}
		}
		res = mustPlan(t, in)
	}
	for p, pr := range res.Scenarios[1].Pools {
		in.Pools[p].MaxNodes = max(pr.NodesRequired, in.Pools[p].MinNodes, 1)
	}
	schedulerBudget = 1_000_000_000
	modelled := mustPlan(t, in)
	for i, sr := range modelled.Scenarios {
		t.Logf("%s, %d pods: modelled fits %t, %d nodes; unmodelled answer %d nodes; best packing %d; bound by %q; %s",
			sr.Scenario, sr.Pods, sr.Fits, sr.NodesRequired, res.Scenarios[i].NodesRequired, sr.NodesOptimal, sr.BoundBy, sr.SchedulerNote)
		for _, p := range sr.Pools {
			if p.NodesRequired > 0 {
				t.Logf("  %s: modelled %d (beyond the maximum: %d pods), maximum %d, best packing %d", p.Pool, p.NodesRequired,
					p.PodsBeyondMax, p.MaxNodes, p.NodesOptimal)
			}
		}
	}
}
