package selector

import (
	"cmp"
	"context"
	"math"
	"runtime"
	"slices"
	"sync"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/sizing"
)

// The packing phase of a ranking: candidates grouped by how their nodes pack, each group sized once by the best
// packing (within rankPackBudget), then the cheapest sized with the scheduler model.

// outcome is what Rank keeps of one candidate's sizing.
type outcome struct {
	errs     field.Errors
	fits     bool
	misfit   *sizing.Failure
	scenario fit.PoolResult
	credits  *sizing.CreditCheck
	// modelledAs names the candidate of the same node shape whose scheduler-model sizing this one took
	// (schedule); its misfit message is then told as that type's.
	modelledAs string
	// unsized is true when a limit left the candidate out; bound is its lower bound on nodes (boundOK
	// false: some pod fits no node of it).
	unsized bool
	bound   int
	boundOK bool
	// cut is true when the packing's work budget left it unsized (rankPackBudget).
	cut bool
	// diskShort says why the type's disks cannot sustain the node disk demand, or cannot be known to (reason
	// ReasonDiskCap); invalid why the type cannot be a node at all (ReasonInvalid). Either way it was not sized.
	diskShort, invalid string
	// work is the scheduler model's work on the candidate (fit.ScenarioResult.ModelWork, both scenarios).
	work int64
}

// group is the candidates (indexes into the rows) whose nodes pack alike, sized once.
type group struct {
	members []int
	// bound is a lower bound on the scenario's nodes (boundOK false: some pod fits no node).
	bound   int
	boundOK bool
	// cheapest is the least lower-bound monthly cost of a member.
	cheapest float64
	// modelled is false when the node model cannot size the type (its sizing fails at once).
	modelled bool
}

// size sizes the candidates: once per packer key, in parallel, then each excluded candidate that shares
// a key alone again, so its message names its own type. With a limit, groups are sized in order of
// their lower-bound cost only while that bound could still place them among the limit cheapest.
func (r *Ranker) size(ctx context.Context, req *Request, rows []catalog.InstanceType) ([]outcome, packCut, error) {
	pinned := selectsInstanceType(req)
	byKey := map[string]int{}
	var groups []group
	for i, t := range rows {
		key, res, modelled := r.packerKey(ctx, req, t, pinned)
		g, ok := byKey[key]
		if !ok {
			g = len(groups)
			byKey[key] = g
			groups = append(groups, group{modelled: modelled})
			if modelled {
				groups[g].bound, groups[g].boundOK = lowerBound(req, req.Scenario, t, res)
			}
		}
		groups[g].members = append(groups[g].members, i)
	}
	order := cheapestOrder(req, rows, groups)
	allowed := packAllowed(req, groups, order)
	var pc packCut
	done := make([]outcome, len(rows))
	sized := make([]bool, len(groups))
	if req.Limit <= 0 {
		for g := range groups {
			sized[g] = allowed[g]
		}
		if err := r.solveAll(ctx, req, rows, groupHeads(groups, sized), done); err != nil {
			return nil, pc, err
		}
	} else {
		kth, err := r.sizeCheapest(ctx, req, rows, groups, order, allowed, sized, done)
		if err != nil {
			return nil, pc, err
		}
		// With a limit, a group the budget left out counts as cut only when the limit alone would have
		// sized it; the others are not sized for the limit, as before.
		for g := range groups {
			if !allowed[g] && (!groups[g].boundOK || groups[g].cheapest > kth) {
				allowed[g] = true
			}
		}
	}
	var again []int
	for g := range groups {
		head := groups[g].members[0]
		for _, i := range groups[g].members[1:] {
			done[i] = done[head]
			if sized[g] && (done[i].errs != nil || !done[i].fits) {
				again = append(again, i)
			}
		}
		if !sized[g] {
			for _, i := range groups[g].members {
				done[i] = outcome{unsized: true, bound: groups[g].bound, boundOK: groups[g].boundOK, cut: !allowed[g]}
				if !allowed[g] {
					pc.left++
				}
			}
		} else {
			pc.packed += len(groups[g].members)
			pc.spent += packWork(req, &groups[g])
		}
	}
	if pc.left == 0 {
		pc = packCut{}
	}
	if err := r.solveAll(ctx, req, rows, again, done); err != nil {
		return nil, pc, err
	}
	return done, pc, nil
}

func groupHeads(groups []group, sized []bool) []int {
	var out []int
	for g := range groups {
		if sized[g] {
			out = append(out, groups[g].members[0])
		}
	}
	return out
}

// price returns the price per hour of t: the caller's, else the catalog's.
func (req *Request) price(t *catalog.InstanceType) float64 {
	if p, ok := req.Prices[t.Name]; ok {
		return p
	}
	return t.PriceUSDPerHour
}

// sizeCheapest sizes groups in order of their cheapest member's lower-bound cost, GOMAXPROCS at a time,
// and stops at the first group whose bound costs more than the Limit-th cheapest eligible candidate
// sized so far: that bound only grows along the order and the threshold only falls, so no group left
// out could rank among the Limit cheapest. Groups whose pods fit no node are left out too. The groups
// kept are those one worker would have sized, whatever the timing.
func (r *Ranker) sizeCheapest(ctx context.Context, req *Request, rows []catalog.InstanceType, groups []group, order []int, allowed, sized []bool, done []outcome) (kth float64, err error) {
	// The packing's work budget cuts the order short (packAllowed): the groups past it are not sized.
	order = slices.Clone(order)
	for k, g := range order {
		if !allowed[g] || !groups[g].boundOK {
			order = order[:k]
			break
		}
	}
	var costs []float64 // monthly costs of the eligible candidates sized so far
	threshold := func() float64 {
		if len(costs) < req.Limit {
			return math.Inf(1)
		}
		slices.Sort(costs)
		return costs[req.Limit-1]
	}
	type result struct {
		g   int
		o   outcome
		err error
	}
	workers := runtime.GOMAXPROCS(0)
	results := make(chan result, workers)
	inflight, next := 0, 0
	var first error
	for {
		for first == nil && ctx.Err() == nil && inflight < workers && next < len(order) && groups[order[next]].cheapest <= threshold() {
			g := order[next]
			next++
			inflight++
			go func() {
				o, err := r.solveOne(ctx, req, rows[groups[g].members[0]])
				results <- result{g, o, err}
			}()
		}
		if inflight == 0 {
			break
		}
		res := <-results
		inflight--
		if res.err != nil {
			first = cmp.Or(first, res.err)
			continue
		}
		sized[res.g] = true
		done[groups[res.g].members[0]] = res.o
		if res.o.errs == nil && res.o.fits {
			for _, i := range groups[res.g].members {
				if p := req.price(&rows[i]); p > 0 {
					costs = append(costs, float64(res.o.scenario.NodesRequired)*p*HoursPerMonth)
				}
			}
		}
	}
	if first != nil {
		return 0, first
	}
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	// Workers may have sized a few groups past the point where one worker would have stopped; drop
	// them, so the result does not depend on timing.
	costs = costs[:0]
	for k, g := range order {
		if groups[g].cheapest > threshold() {
			for _, h := range order[k:] {
				sized[h] = false
			}
			break
		}
		if o := done[groups[g].members[0]]; o.errs == nil && o.fits {
			for _, i := range groups[g].members {
				if p := req.price(&rows[i]); p > 0 {
					costs = append(costs, float64(o.scenario.NodesRequired)*p*HoursPerMonth)
				}
			}
		}
	}
	return threshold(), nil
}

// solveAll sizes the candidates at idx into out, on GOMAXPROCS workers.
func (r *Ranker) solveAll(ctx context.Context, req *Request, rows []catalog.InstanceType, idx []int, out []outcome) error {
	workers := min(runtime.GOMAXPROCS(0), len(idx))
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		first error
		next  = make(chan int)
	)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				o, err := r.solveOne(ctx, req, rows[i])
				if err != nil {
					mu.Lock()
					first = cmp.Or(first, err)
					mu.Unlock()
					continue
				}
				out[i] = o
			}
		}()
	}
	for _, i := range idx {
		if ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	if first != nil {
		return first
	}
	return ctx.Err()
}
