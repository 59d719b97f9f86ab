package sizing

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
)

// MaxBlamePods bounds the requests whose blame Solve works out: above it (pods of the peak scenario) the
// packer's own attribution is kept, since each step of the blame is a whole Solve.
const MaxBlamePods = 20_000

// maxCulprits bounds the workloads blamed for one request.
const maxCulprits = 8

// blameBudget bounds the scheduler model's work over the solves of one blame (fit.ScenarioResult.ModelWork,
// summed over the scenarios of every solve; the model's own budget is 60 million per scenario). Each step is
// a whole Solve, a dozen or more per culprit, and on 10,000 pods one Solve models up to a few hundred million
// nodes, so 100 workloads of 100 pods on a pool too small for them ran for minutes. A step starts only when
// the work so far plus the request's own plan's (a step plans part of the request, so about as much) stays
// within the budget: about a second and a half here. Beyond it the blame stops with the culprits found so far and
// WarnBlameBudget says so. blameBudget is a variable so that tests can exhaust it.
var blameBudget int64 = 60_000_000

// WarnBlameBudget: the blame rule stopped at its work budget (blameBudget), so the workloads it names, if any,
// may not be all those to blame, and the failures name the packer's own attribution for the rest.
const WarnBlameBudget = "sizing.blame-budget"

// errBlameBudget stops the blame at its work budget.
var errBlameBudget = errors.New("blame work budget")

// modelWork is the scheduler model's work on a plan, over its scenarios.
func modelWork(pl *Plan) int64 {
	var n int64
	for _, sc := range pl.Packing.Scenarios {
		n += sc.ModelWork
	}
	return n
}

// Blame names a workload that does not fit under the blame rule: the workloads count in list order, each
// earlier one already running, so the workloads blamed are the ones that could not be placed after all
// those before them. Packing order (largest first) is for quality; blame is for people.
type Blame struct {
	Workload string
	// Replicas is the workload's fixed count, or its maximum for an autoscaled one.
	Replicas int
	// Fit is the largest count of it that fits after the workloads before it (and after the pods of
	// earlier blamed workloads that fit).
	Fit int
}

// blame applies the blame rule to a request that does not fit for lack of capacity.
func (p *Planner) blame(ctx context.Context, req Request, pl *Plan) ([]Blame, error) {
	capacity := false
	for _, f := range pl.Failures {
		capacity = capacity || f.Reason == Reason(fit.ReasonMaxNodes)
	}
	pods := 0
	for _, w := range pl.Workloads {
		pods += w.PeakReplicas
	}
	if !capacity || pods > MaxBlamePods {
		return nil, nil
	}
	own, spent := modelWork(pl), int64(0)
	solve := func(r Request) (*Plan, error) {
		if spent+own > blameBudget {
			return nil, errBlameBudget
		}
		plan, err := p.solve(ctx, r)
		if err == nil {
			spent += modelWork(plan)
		}
		return plan, err
	}
	fits := func(ws []Workload) (bool, error) {
		r := req
		r.Workloads = ws
		plan, err := solve(r)
		if err != nil {
			return false, err
		}
		return plan.Fits, nil
	}
	ws := append([]Workload(nil), req.Workloads...)
	var out []Blame
	start := 0
	for len(out) < maxCulprits {
		// The shortest prefix that does not fit: its last workload is the next culprit.
		lo, hi := start, len(ws) // fits(ws[:lo]) holds (or lo = start, checked by the caller's failure)
		if ok, err := fits(ws); err != nil || ok {
			return out, err
		}
		for lo < hi {
			mid := lo + (hi-lo)/2
			ok, err := fits(ws[:mid+1])
			if err != nil {
				return out, err
			}
			if ok {
				lo = mid + 1
			} else {
				hi = mid
			}
		}
		k := lo
		if k >= len(ws) {
			return out, nil
		}
		r := req
		r.Workloads = ws[:k+1]
		n, err := largestFit(r, k, solve)
		if errors.Is(err, ErrNoCountFits) {
			// Not so: the workloads before k fit (the bisection's lo).
			n, err = 0, nil
		}
		if err != nil {
			return out, err
		}
		b := Blame{Workload: ws[k].Name, Replicas: PeakReplicas(ws[k]), Fit: n}
		out = append(out, b)
		ws[k] = withReplicas(ws[k], n)
		start = k + 1
	}
	return out, nil
}

// PeakReplicas is a workload's fixed count, else its maximum, else its minimum: its replicas at peak, before surge.
func PeakReplicas(w Workload) int {
	switch {
	case w.Replicas != nil:
		return *w.Replicas
	case w.MaxReplicas != nil:
		return *w.MaxReplicas
	case w.MinReplicas != nil:
		return *w.MinReplicas
	}
	return 0
}

// withReplicas returns w with its fixed count or maximum set to n (and its minimum lowered to n).
func withReplicas(w Workload, n int) Workload {
	if w.Replicas != nil {
		w.Replicas = &n
		return w
	}
	w.MaxReplicas = &n
	if w.MinReplicas != nil && *w.MinReplicas > n {
		w.MinReplicas = &n
	}
	return w
}

// capacityMisfits returns one failure per pool that lacks capacity, naming the blamed workloads.
func (pl *Plan) capacityMisfits() []Failure {
	var out []Failure
	for _, pp := range pl.Pools {
		pr, sc := pp.Steady, fit.ScenarioSteady
		if pr.Shortfall == "" {
			pr, sc = pp.Peak, fit.ScenarioPeak
		}
		if pr.Shortfall == "" {
			continue
		}
		var blamed []string
		first := ""
		for _, b := range pl.Blame {
			if !pl.failsOn(b.Workload, pp.Name) && !pl.uses(b.Workload, pp.Name, sc) {
				continue
			}
			if first == "" {
				first = b.Workload
			}
			verb := "do"
			if b.Replicas-b.Fit == 1 {
				verb = "does"
			}
			// Replicas, not pods: an autoscaled workload's count is its maximum, and its surge pods come on top.
			blamed = append(blamed, fmt.Sprintf("%s of workload %q %s not fit (at most %d of its %d fit)",
				plural(b.Replicas-b.Fit, "replica"), b.Workload, verb, b.Fit, b.Replicas))
		}
		msg := fmt.Sprintf("pool %q (%s) needs %d nodes in the %s scenario but its maximum node count is %d. %s",
			pp.Name, pp.Instance.Name, pr.NodesRequired, sc, pp.MaxNodes, pr.Shortfall)
		if len(blamed) > 0 {
			msg += " Counting the workloads in list order at their largest replica counts, each earlier one already running: " + field.JoinAnd(blamed) + "."
		} else if left := pl.leftOver(pp.Name, sc); left != "" {
			// Without pods beyond the maximum (the count is over it by the scheduler margin only) the shortfall
			// says so.
			msg += " Pods that do not fit: " + left + "."
		}
		if pr.Explanation != "" {
			msg += " " + pr.Explanation
		}
		msg += fmt.Sprintf(" Raise the pool's maximum node count to %d or choose %s", pr.NodesRequired, pr.Remedy)
		out = append(out, Failure{Workload: first, Pool: pp.Name, Scenario: sc, Reason: Reason(fit.ReasonMaxNodes), Message: msg})
	}
	return out
}

// failsOn reports whether the packer reported a capacity failure of workload on pool.
func (pl *Plan) failsOn(workload, pool string) bool {
	for _, f := range pl.Failures {
		if f.Workload == workload && f.Pool == pool && f.Reason == Reason(fit.ReasonMaxNodes) {
			return true
		}
	}
	return false
}

// uses reports whether the packing put pods of workload on pool in scenario sc.
func (pl *Plan) uses(workload, pool string, sc fit.Scenario) bool {
	for _, w := range pl.Workloads {
		if w.Name != workload {
			continue
		}
		place := w.Steady
		if sc == fit.ScenarioPeak {
			place = w.Peak
		}
		for _, pp := range place.Pools {
			if pp.Pool == pool {
				return true
			}
		}
	}
	return false
}

// leftOver lists the pods the packer placed beyond a pool's maximum in a scenario.
func (pl *Plan) leftOver(pool string, sc fit.Scenario) string {
	var parts []string
	for _, w := range pl.Workloads {
		place := w.Steady
		if sc == fit.ScenarioPeak {
			place = w.Peak
		}
		for _, pp := range place.Pools {
			if pp.Pool == pool && pp.BeyondMax > 0 {
				parts = append(parts, fmt.Sprintf("%s of workload %q", plural(pp.BeyondMax, "pod"), w.Name))
			}
		}
	}
	return strings.Join(parts, ", ")
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// blameSoFar says which workloads the blame named before its budget ran out.
func blameSoFar(bs []Blame) string {
	if len(bs) == 0 {
		return "no workload is named; the failures give the packer's own attribution"
	}
	names := make([]string, len(bs))
	for i, b := range bs {
		names[i] = field.Quote(b.Workload)
	}
	return "the workloads named so far are " + strings.Join(names, ", ") + "; there may be others"
}
