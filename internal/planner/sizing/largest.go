package sizing

import (
	"context"
	"errors"
	"fmt"
)

// LargestFit returns the largest peak replica count of workload w with which the whole request fits, every
// other input unchanged: for a fixed workload its replica count, for an autoscaled one its maximum (its
// minimum lowered with it when needed). It returns ErrNoCountFits when the request does not fit even without the
// workload's pods. It calls Solve about log2(current count) times.
func (p *Planner) LargestFit(ctx context.Context, req Request, w int) (int, error) {
	return largestFit(req, w, func(r Request) (*Plan, error) { return p.solve(ctx, r) })
}

// ErrNoCountFits is LargestFit's error when the request does not fit even with none of the workload's pods: no
// count of it is the remedy.
var ErrNoCountFits = errors.New("the request does not fit even without the workload's pods")

// ErrWorkBudget is LargestFitWithin's error when its work budget ran out.
var ErrWorkBudget = errors.New("the scheduler model's work budget for the search ran out")

// LargestFitWithin is LargestFit with the scheduler model's work of its solves (fit.ScenarioResult.ModelWork
// summed) taken from *budget: a solve starts only while *budget holds step, what one is expected to cost
// (the work of the plan of req: a solve plans part of it), and ErrWorkBudget says it did not. Callers that
// search for several workloads share one budget.
func (p *Planner) LargestFitWithin(ctx context.Context, req Request, w int, step int64, budget *int64) (int, error) {
	return largestFit(req, w, func(r Request) (*Plan, error) {
		if *budget < step {
			return nil, ErrWorkBudget
		}
		plan, err := p.solve(ctx, r)
		if err == nil {
			*budget -= modelWork(plan)
		}
		return plan, err
	})
}

// ModelWork is the scheduler model's work on the plan (fit.ScenarioResult.ModelWork over its scenarios).
func (pl *Plan) ModelWork() int64 { return modelWork(pl) }

// largestFit is LargestFit with the solves made by solve (the blame's, which keeps to its budget).
func largestFit(req Request, w int, solve func(Request) (*Plan, error)) (int, error) {
	if w < 0 || w >= len(req.Workloads) {
		return 0, fmt.Errorf("workload index %d out of range", w)
	}
	orig := req.Workloads[w]
	top := PeakReplicas(orig)
	fits := func(n int) (bool, error) {
		wl := orig
		if orig.Replicas != nil {
			wl.Replicas = &n
		} else {
			wl.MaxReplicas = &n
			if orig.MinReplicas != nil && *orig.MinReplicas > n {
				wl.MinReplicas = &n
			}
		}
		workloads := append([]Workload(nil), req.Workloads...)
		workloads[w] = wl
		r := req
		r.Workloads = workloads
		plan, err := solve(r)
		if err != nil {
			return false, err
		}
		return plan.Fits, nil
	}
	if ok, err := fits(0); err != nil || !ok {
		if err == nil {
			err = ErrNoCountFits
		}
		return 0, err
	}
	if ok, err := fits(top); err != nil || ok {
		return top, err
	}
	lo, hi := 0, top-1 // fits(lo) holds; fits(hi+1) does not
	for lo < hi {
		mid := lo + (hi-lo+1)/2
		ok, err := fits(mid)
		if err != nil {
			return 0, err
		}
		if ok {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo, nil
}
