package selector

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/burst"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/overhead"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/sizing"
)

// HoursPerMonth is the month the monthly cost is counted in: 730 hours (8,760 / 12), as cloud price
// calculators count it.
const HoursPerMonth = 730

// Request is what Rank sizes: the candidate types, and everything else of one pool of each.
type Request struct {
	// Candidates are instance type names of Pool.Cloud, in the caller's order; a name given twice
	// counts once.
	Candidates []string
	// Pool is the pool template: every option of a sizing.Pool except its instance types, which Rank
	// sets to one candidate at a time. Pool.Name is the name workloads' pool lists refer to.
	Pool       sizing.Pool
	DaemonSets []sizing.DaemonSet
	Workloads  []sizing.Workload
	// Scenario is the scenario whose nodes are priced: fit.ScenarioPeak (the default, "") or
	// fit.ScenarioSteady.
	Scenario fit.Scenario
	// Prices are the caller's own prices in USD per node and hour, by instance type name; they replace
	// the catalog's reference price of those types.
	Prices map[string]float64
}

// Reason says why a candidate is excluded: a sizing failure reason (sizing.Reasons) or one of the
// reasons below.
type Reason string

// Reasons of Rank's own.
const (
	// ReasonUnknownPrice: neither the catalog nor the caller gives the type a price.
	ReasonUnknownPrice Reason = "unknown-price"
	// ReasonInvalid: the node model cannot size a node of this type with the pool's options.
	ReasonInvalid Reason = "invalid"
)

// ExclusionReasons lists every reason a candidate can be excluded for.
var ExclusionReasons = func() []Reason {
	out := make([]Reason, 0, len(sizing.Reasons)+2)
	for _, r := range sizing.Reasons {
		out = append(out, Reason(r))
	}
	return append(out, ReasonUnknownPrice, ReasonInvalid)
}()

// Candidate is one instance type's outcome.
type Candidate struct {
	InstanceType string
	// Row is the catalog row (zero for a name the catalog does not know).
	Row catalog.InstanceType
	// NodesRequired is the chosen scenario's node count, as sizing reports it for a pool of this type.
	NodesRequired int
	// PricePerHour is one node's price in USD per hour; PriceSource says where it comes from (the
	// catalog's reference price with its region and date, or the caller's price).
	PricePerHour float64
	PriceSource  string
	// MonthlyCost is NodesRequired × PricePerHour × HoursPerMonth, in USD.
	MonthlyCost float64
	// Utilization and Stranded are the chosen scenario's, as sizing reports them.
	Utilization fit.Utilization
	Stranded    fit.Resources
	// StrandedShare is the mean of the stranded shares of CPU and memory of the required nodes' workload
	// allocatable: the second ranking key.
	StrandedShare float64
	// CreditVerdict is the CPU credit verdict of a burstable type; burst.VerdictNotBurstable otherwise.
	CreditVerdict burst.Verdict
	CreditDetail  string
	// Excluded is true when the candidate cannot work; Reason and Message say why.
	Excluded bool
	Reason   Reason
	Message  string
}

// Ranking is Rank's answer.
type Ranking struct {
	// Candidates holds the eligible candidates, cheapest first (then the least stranded share, then by
	// name), then the excluded ones in request order.
	Candidates []Candidate
	// Best is the cheapest eligible candidate's name, or "" when none is eligible.
	Best string
	// CatalogDate is the date of the catalog the rows and reference prices come from.
	CatalogDate string
	// Warnings are caveats (code WarnNoneEligible when no candidate works).
	Warnings []field.Warning
}

// WarnNoneEligible: every candidate is excluded.
const WarnNoneEligible = "selector.none-eligible"

// Ranker ranks candidate types with one sizing planner and its catalog. It is safe for concurrent use.
type Ranker struct {
	cat     sizing.Catalog
	planner *sizing.Planner
}

// NewRanker returns a Ranker that looks types up and sizes pools in cat.
func NewRanker(cat sizing.Catalog) *Ranker { return &Ranker{cat: cat, planner: sizing.NewPlanner(cat)} }

// Rank sizes the request on every candidate and ranks them. Errors in the request are field.Errors
// with paths of Request's field names: Candidates[i], Pool.<sizing.Pool field>, Workloads[i]... An
// error that the sizing planner reports for every candidate is an error of the request; one that only
// some candidates give excludes them with ReasonInvalid.
//
// Candidates whose nodes look alike to the packer (the same allocatable and pod slots, architecture
// and GPUs, no credit budget, and no selector on the instance-type label) are packed once; the result
// is the same as sizing each alone, which the package's tests check.
func (r *Ranker) Rank(ctx context.Context, req Request) (*Ranking, error) {
	names, errs := r.candidates(ctx, req)
	if len(errs) > 0 {
		return nil, errs
	}
	switch req.Scenario {
	case "", fit.ScenarioPeak, fit.ScenarioSteady:
	default:
		return nil, field.Errors{field.Invalid(field.NewPath("Scenario"), string(req.Scenario),
			"unknown scenario %s: use %q or %q", field.Quote(string(req.Scenario)), fit.ScenarioPeak, fit.ScenarioSteady)}
	}
	for name, p := range req.Prices {
		if p < 0 {
			return nil, field.Errors{field.Invalid(field.NewPath("Prices").Key(name), fmt.Sprint(p), "the price of %q is negative (%v USD per hour)", name, p)}
		}
	}
	rows := make([]catalog.InstanceType, len(names))
	for i, n := range names {
		it, err := r.cat.InstanceType(ctx, req.Pool.Cloud, n)
		if err != nil {
			return nil, err
		}
		rows[i] = it
	}
	outs, err := r.size(ctx, &req, rows)
	if err != nil {
		return nil, err
	}
	// Errors every candidate shares are the request's.
	var first field.Errors
	all := len(outs) > 0
	for _, o := range outs {
		if o.errs == nil {
			all = false
			break
		}
		if first == nil {
			first = o.errs
		}
	}
	if all {
		return nil, repath(first)
	}
	rk := &Ranking{CatalogDate: r.cat.Date()}
	for i := range outs {
		rk.Candidates = append(rk.Candidates, r.candidate(&req, rows[i], &outs[i]))
	}
	slices.SortStableFunc(rk.Candidates, func(a, b Candidate) int {
		if a.Excluded != b.Excluded {
			if a.Excluded {
				return 1
			}
			return -1
		}
		if a.Excluded {
			return 0
		}
		if c := cmp.Compare(a.MonthlyCost, b.MonthlyCost); c != 0 {
			return c
		}
		if c := cmp.Compare(a.StrandedShare, b.StrandedShare); c != 0 {
			return c
		}
		return strings.Compare(a.InstanceType, b.InstanceType)
	})
	if len(rk.Candidates) > 0 && !rk.Candidates[0].Excluded {
		rk.Best = rk.Candidates[0].InstanceType
	} else {
		rk.Warnings = append(rk.Warnings, field.Warning{Code: WarnNoneEligible, Path: field.NewPath("Candidates"),
			Message: fmt.Sprintf("none of the %d candidate types can run these workloads: see each candidate's reason", len(rk.Candidates))})
	}
	return rk, nil
}

// candidates checks the names: at least one, every one known to the catalog; duplicates count once.
func (r *Ranker) candidates(ctx context.Context, req Request) ([]string, field.Errors) {
	var errs field.Errors
	if _, err := catalog.ParseCloud(string(req.Pool.Cloud)); err != nil {
		return nil, field.Errors{field.Invalid(field.NewPath("Pool", "Cloud"), string(req.Pool.Cloud), "%v", err)}
	}
	if len(req.Candidates) == 0 {
		return nil, field.Errors{field.Invalid(field.NewPath("Candidates"), "", "no candidate instance type is given; name at least one")}
	}
	seen := map[string]bool{}
	var names []string
	for i, n := range req.Candidates {
		it, err := r.cat.InstanceType(ctx, req.Pool.Cloud, n)
		var nf *catalog.NotFoundError
		switch {
		case errors.As(err, &nf):
			errs = append(errs, field.Invalid(field.NewPath("Candidates").At(i), n, "%s", nf.Error()))
			continue
		case err != nil:
			errs = append(errs, field.Invalid(field.NewPath("Candidates").At(i), n, "looking up candidate %q: %v", n, err))
			continue
		}
		if !seen[it.Name] {
			seen[it.Name] = true
			names = append(names, it.Name)
		}
	}
	return names, errs
}

// outcome is what Rank keeps of one candidate's sizing.
type outcome struct {
	errs     field.Errors
	fits     bool
	misfit   *sizing.Failure
	scenario fit.PoolResult
	credits  *sizing.CreditCheck
	// shared is true when the numbers come from another candidate of the same packer key; its misfit
	// message would name the other type.
	shared bool
}

// size sizes every candidate: once per packer key, in parallel, then each excluded candidate that
// shares a key alone again, so its message names its own type.
func (r *Ranker) size(ctx context.Context, req *Request, rows []catalog.InstanceType) ([]outcome, error) {
	keys := make([]string, len(rows))
	rep := map[string]int{}
	var order []int
	pinned := selectsInstanceType(req)
	for i, t := range rows {
		keys[i] = r.packerKey(ctx, req, t, pinned)
		if _, ok := rep[keys[i]]; !ok {
			rep[keys[i]] = i
			order = append(order, i)
		}
	}
	done := make([]outcome, len(rows))
	if err := r.solveAll(ctx, req, rows, order, done); err != nil {
		return nil, err
	}
	var again []int
	for i := range rows {
		j := rep[keys[i]]
		if j == i {
			continue
		}
		done[i] = done[j]
		done[i].shared = true
		if done[i].errs != nil || !done[i].fits {
			again = append(again, i)
		}
	}
	if err := r.solveAll(ctx, req, rows, again, done); err != nil {
		return nil, err
	}
	return done, nil
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
					if first == nil {
						first = err
					}
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

// SizingRequest returns the sizing request Rank solves for the named candidate: the pool template with
// that type as its only instance type, and the request's DaemonSets and workloads.
func (req *Request) SizingRequest(name string) sizing.Request {
	p := req.Pool
	p.InstanceTypes = []string{name}
	return sizing.Request{Pools: []sizing.Pool{p}, DaemonSets: req.DaemonSets, Workloads: req.Workloads}
}

// solveOne sizes one candidate.
func (r *Ranker) solveOne(ctx context.Context, req *Request, t catalog.InstanceType) (outcome, error) {
	plan, err := r.planner.Solve(ctx, req.SizingRequest(t.Name))
	if err != nil {
		if es := field.As(err); len(es) > 0 {
			return outcome{errs: es}, nil
		}
		return outcome{}, err
	}
	pp := &plan.Pools[0]
	o := outcome{fits: plan.Fits, credits: pp.Credits, scenario: pp.Peak}
	if req.Scenario == fit.ScenarioSteady {
		o.scenario = pp.Steady
	}
	o.scenario.Nodes = nil // the per-node log is not needed and is large
	if ms := plan.Misfits(); len(ms) > 0 {
		o.misfit = &ms[0]
	}
	return o, nil
}

// candidate turns one outcome into a Candidate.
func (r *Ranker) candidate(req *Request, t catalog.InstanceType, o *outcome) Candidate {
	c := Candidate{InstanceType: t.Name, Row: t, CreditVerdict: burst.VerdictNotBurstable}
	if p, ok := req.Prices[t.Name]; ok {
		c.PricePerHour, c.PriceSource = p, "price given for "+t.Name+" (USD per hour)"
	} else if t.PriceUSDPerHour > 0 {
		c.PricePerHour = t.PriceUSDPerHour
		c.PriceSource = fmt.Sprintf("reference on-demand price, %s, %s (kubefit catalog %s)", t.PriceRegion, t.PriceDate, r.cat.Date())
	}
	if o.errs != nil {
		c.Excluded, c.Reason = true, ReasonInvalid
		c.Message = fmt.Sprintf("a node of %s cannot be sized with the pool's options: %s", t.Name, o.errs.Error())
		return c
	}
	s := &o.scenario
	c.NodesRequired = s.NodesRequired
	c.MonthlyCost = float64(s.NodesRequired) * c.PricePerHour * HoursPerMonth
	c.Utilization, c.Stranded = s.Utilization, s.Stranded
	c.StrandedShare = (ratio(s.Stranded.CPUMillicores, s.WorkloadAllocatable.CPUMillicores) +
		ratio(s.Stranded.MemoryBytes, s.WorkloadAllocatable.MemoryBytes)) / 2
	if o.credits != nil {
		c.CreditVerdict, c.CreditDetail = o.credits.Result.Verdict, o.credits.Result.Detail
	}
	switch {
	case !o.fits && o.misfit != nil:
		c.Excluded, c.Reason, c.Message = true, Reason(o.misfit.Reason), o.misfit.Message
		if o.misfit.Reason == sizing.ReasonCredits && o.credits != nil {
			c.Message = fmt.Sprintf("%s runs out of CPU credits: the busiest node's expected CPU use, %dm, %s",
				t.Name, o.credits.BusiestNodeMillicores, o.credits.Result.Detail)
		}
	case !o.fits:
		c.Excluded, c.Reason, c.Message = true, ReasonInvalid, fmt.Sprintf("the workloads do not fit on %s", t.Name)
	case c.PriceSource == "":
		c.Excluded, c.Reason = true, ReasonUnknownPrice
		c.Message = fmt.Sprintf("the catalog has no price for %s; give one to rank it", t.Name)
		c.MonthlyCost = 0
	}
	return c
}

func ratio(a, b int64) float64 {
	if b <= 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// selectsInstanceType reports whether a DaemonSet or workload selects nodes by their instance type, so
// candidates of alike nodes still pack differently.
func selectsInstanceType(req *Request) bool {
	const label = "node.kubernetes.io/instance-type"
	for _, d := range req.DaemonSets {
		if _, ok := d.NodeSelector[label]; ok {
			return true
		}
	}
	for _, w := range req.Workloads {
		if _, ok := w.NodeSelector[label]; ok {
			return true
		}
	}
	return false
}

// packerKey returns what the packer sees of a node of t: two candidates with the same key pack alike.
// A burstable type (its own credit budget), a type the node model cannot size, or any type when
// selectors name instance types, gets a key of its own.
func (r *Ranker) packerKey(ctx context.Context, req *Request, t catalog.InstanceType, pinned bool) string {
	own := "type:" + t.Name
	if pinned {
		return own
	}
	if b, ok, err := r.cat.CreditBudget(ctx, req.Pool.Cloud, t.Name); err != nil || (ok && b.Burstable()) {
		return own
	}
	in := req.Pool.Overhead
	in.Instance = overhead.InstanceFromCatalog(t)
	in.DaemonSets = nil
	if in.Profile == "" {
		in.Profile = overhead.DefaultProfile(req.Pool.Cloud)
	}
	res, err := overhead.Compute(in)
	if err != nil {
		return own
	}
	a := res.Allocatable
	return fmt.Sprintf("node:%d/%d/%d/%d/%d/%d/%s/%d", a.CPUMillicores, a.MemoryBytes, a.EphemeralBytes, a.Pods,
		res.Available.Pods, res.MaxPods, t.Architecture, t.GPUCount)
}

// repath maps the sizing planner's paths onto Request's: Pools[<name>].X is Pool.X, and the instance
// types of the pool are the candidates.
func repath(es field.Errors) field.Errors {
	out := make(field.Errors, 0, len(es))
	for _, e := range es {
		steps := e.Path.Steps()
		p := e.Path
		if len(steps) >= 2 && steps[0].Kind == field.Name && steps[0].Name == "Pools" {
			p = field.NewPath("Pool")
			rest := steps[2:]
			if len(rest) > 0 && rest[0].Kind == field.Name && rest[0].Name == "InstanceTypes" {
				p, rest = field.NewPath("Candidates"), nil
			}
			for _, s := range rest {
				switch s.Kind {
				case field.Name:
					p = p.Child(s.Name)
				case field.Index:
					p = p.At(s.Index)
				case field.Key:
					p = p.Key(s.Key)
				}
			}
		}
		out = append(out, &field.Error{Path: p, Value: e.Value, Detail: e.Detail})
	}
	return out
}
