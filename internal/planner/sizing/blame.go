package sizing

import (
	"context"
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
	fits := func(ws []Workload) (bool, error) {
		r := req
		r.Workloads = ws
		plan, err := p.solve(ctx, r)
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
		n, err := p.LargestFit(ctx, r, k)
		if err != nil {
			return out, err
		}
		b := Blame{Workload: ws[k].Name, Replicas: replicaCount(ws[k]), Fit: n}
		out = append(out, b)
		ws[k] = withReplicas(ws[k], n)
		start = k + 1
	}
	return out, nil
}

// replicaCount is a workload's fixed count or its maximum.
func replicaCount(w Workload) int {
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
			blamed = append(blamed, fmt.Sprintf("%s of workload %q %s not fit (at most %d of its %d replicas fit)",
				plural(b.Replicas-b.Fit, "pod"), b.Workload, verb, b.Fit, b.Replicas))
		}
		msg := fmt.Sprintf("pool %q (%s) needs %d nodes in the %s scenario but its maximum node count is %d. %s",
			pp.Name, pp.Instance.Name, pr.NodesRequired, sc, pp.MaxNodes, pr.Shortfall)
		if len(blamed) > 0 {
			msg += " Counting the workloads in list order, each earlier one already running: " + field.JoinAnd(blamed) + "."
		} else {
			msg += " Pods that do not fit: " + pl.leftOver(pp.Name, sc) + "."
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
