package selector

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/burst"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/disk"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/overhead"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/resource"
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
	// SystemDaemonSets says whether the pool runs its platform's system DaemonSets beside DaemonSets, as in
	// sizing.Request.
	SystemDaemonSets overhead.SystemDaemonSets
	Workloads        []sizing.Workload
	// Scenario is the scenario whose nodes are priced: fit.ScenarioPeak (the default, "") or
	// fit.ScenarioSteady.
	Scenario fit.Scenario
	// Limit, when above 0, sizes only as many candidates as it takes to rank the Limit cheapest eligible
	// ones exactly: the others are listed unsized (ReasonNotSized) with a lower bound on their nodes
	// that already costs more than the Limit-th cheapest, or excluded (sizing.Reason too-large) when
	// one pod fits no node of theirs. 0 sizes every candidate.
	Limit int
	// Prices are the caller's own prices in USD per node and hour, by instance type name; they replace
	// the catalog's reference price of those types.
	Prices map[string]float64
	// Scheduler and Arrival are the cluster's kube-scheduler profile and the pods' arrival order, as in
	// sizing.Request; every candidate's realistic count follows them.
	Scheduler fit.SchedulerProfile
	Arrival   fit.ArrivalOrder
	// NodeDisk is the disk I/O one node must sustain across all its volumes. A candidate whose own
	// sustained disk limits are lower is excluded (ReasonDiskCap); zero checks nothing.
	NodeDisk NodeDisk
}

// NodeDisk is a sustained disk demand of one node, summed over its volumes: IOPS, and throughput in MB/s
// (10^6 bytes per second, as AWS and Azure publish node limits). A zero field is not checked.
type NodeDisk struct {
	IOPS           int64
	ThroughputMBps float64
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
	// ReasonNotSized: with a limit, a lower bound on the type's nodes already costs more than the
	// limit-th cheapest candidate, so it was not sized; or the packing's work budget (rankPackBudget,
	// WarnPackBudget) ran out before it.
	ReasonNotSized Reason = "not-sized"
	// ReasonDiskCap: the type's own sustained disk limits (AWS EBS-optimized baseline, Azure uncached
	// limits) are below Request.NodeDisk.
	ReasonDiskCap Reason = "disk-cap"
)

// WarnPriceBasis: the reference prices do not price the pool as planned (Windows nodes, spot capacity), so the
// order of the candidates may differ from their real costs unless the caller's Prices give them.
const WarnPriceBasis = "selector.price-basis"

// priceWarnings says where the catalog's reference prices (Linux, on-demand) do not price the pool as planned and no
// price of the caller's replaces them.
func priceWarnings(req *Request) []field.Warning {
	var out []field.Warning
	if len(req.Prices) > 0 {
		return nil
	}
	if p := req.Pool.Overhead.Profile; p == overhead.EKSWindows || p == overhead.AKSWindows {
		out = append(out, field.Warning{Code: WarnPriceBasis, Path: field.NewPath("Pool", "Overhead", "Profile"), Message: fmt.Sprintf(
			"the pool runs Windows nodes (%s), but the reference prices are Linux on-demand prices; Windows adds a licence per vCPU (roughly doubling a "+
				"general-purpose node's price), so costs are understated and larger types more so: give prices to rank by what the nodes cost", p)})
	}
	if req.Pool.CapacityType == fit.CapacitySpot {
		out = append(out, field.Warning{Code: WarnPriceBasis, Path: field.NewPath("Pool", "CapacityType"), Message: "the pool buys spot " +
			"capacity, but the reference prices are on-demand prices; spot discounts differ by type and zone, so the order may differ from " +
			"the spot costs: give your spot prices in prices to rank by them"})
	}
	return out
}

// WarnDiskNotChecked: Request.NodeDisk is set but kubefit has no per-node disk limits for some GCP candidates
// (GCP's limits are per VM and disk type, not modelled); AWS and Azure types without limits are excluded
// (ReasonDiskCap).
const WarnDiskNotChecked = "selector.disk-not-checked"

// WarnDiskTypeUnknown: kubefit's GCP machine-series table cannot say whether some eligible candidates attach a
// claim's disk type (GPD-M2); they are ranked after the others (Candidate.DiskTypeUnknown).
const WarnDiskTypeUnknown = "selector.disk-type-unknown"

// WarnAcceleratorUnused: some eligible candidates have accelerators no workload requests; they are ranked after the
// others (Candidate.AcceleratorUnused).
const WarnAcceleratorUnused = "selector.accelerator-unused"

// ExclusionReasons lists every reason a candidate can be excluded for.
var ExclusionReasons = func() []Reason {
	out := make([]Reason, 0, len(sizing.Reasons)+2)
	for _, r := range sizing.Reasons {
		if r != sizing.Reason(fit.ReasonDisruption) { // a recommendation checks no disruption scenario
			out = append(out, Reason(r))
		}
	}
	return append(out, ReasonUnknownPrice, ReasonInvalid, ReasonNotSized, ReasonDiskCap)
}()

// Candidate is one instance type's outcome.
type Candidate struct {
	InstanceType string
	// Row is the catalog row (zero for a name the catalog does not know).
	Row catalog.InstanceType
	// NodesRequired is the chosen scenario's node count, as sizing reports it for a pool of this type.
	NodesRequired int
	// NodesOptimal is the best packing's count of the same scenario (sizing's NodesOptimal): NodesRequired
	// when the candidate is not Scheduled, and never above NodesRequired.
	NodesOptimal int
	// PricePerHour is one node's price in USD per hour; PriceSource says where it comes from (the
	// catalog's reference price with its region and date, or the caller's price).
	PricePerHour float64
	PriceSource  string
	// MonthlyCost is NodesRequired × PricePerHour × HoursPerMonth, in USD, plus SurplusCostPerMonth.
	MonthlyCost float64
	// SurplusCostPerMonth is what a burstable pool in unlimited mode pays for surplus CPU credits each month, every
	// node at its own expected use (sizing.CreditCheck); 0 otherwise.
	SurplusCostPerMonth float64
	// Utilization and Stranded are the chosen scenario's, as sizing reports them.
	Utilization fit.Utilization
	Stranded    fit.Resources
	// StrandedShare is the mean of the stranded shares of CPU and memory of the required nodes' workload
	// allocatable: the second ranking key.
	StrandedShare float64
	// CreditVerdict is the CPU credit verdict of a burstable type; burst.VerdictNotBurstable otherwise.
	CreditVerdict burst.Verdict
	CreditDetail  string
	// Sized is false for a candidate a limit left out: NodesRequired and MonthlyCost are then lower
	// bounds, and Reason is ReasonNotSized.
	Sized bool
	// Scheduled is true when NodesRequired is the scheduler model's count (the cheapest candidates,
	// see ScheduledTop); otherwise it is the best packing's, a lower bound of it.
	Scheduled bool
	// ModelWork is the nodes the scheduler model filtered sizing the candidate (0 when it did not).
	ModelWork int64
	// ModelledAs names the candidate whose scheduler-model sizing this one took (ModelWork 0): its nodes have
	// the same shape (allocatable, pod limits, architecture, accelerators, volume attachments) and neither is
	// burstable or named by a workload's rules, so the model places the pods the same way on both; empty
	// when the candidate was modelled itself.
	ModelledAs string
	// DiskTypeUnknown is true when kubefit's GCP machine-series table cannot say whether the candidate attaches
	// the disk type of some claim (disks.md §6.1, rule GPD-M2): an eligible such candidate ranks after every
	// eligible one whose claim disk types are checked, and Message says the support is unknown.
	DiskTypeUnknown bool
	// AcceleratorUnused is true when the candidate has accelerators (GPUs, Neuron devices) none of whose resources any
	// workload requests: an eligible such candidate ranks after every eligible one without, and Message and
	// WarnAcceleratorUnused say why (its nodes would pay for idle devices).
	AcceleratorUnused bool
	// Excluded is true when the candidate cannot work or was not sized; Reason and Message say why.
	Excluded bool
	Reason   Reason
	Message  string
	// cut is true when the packing's work budget left the candidate unsized: the scheduler model does
	// not size it either.
	cut bool
}

// Ranking is Rank's answer.
type Ranking struct {
	// Candidates holds the eligible candidates, cheapest first (then the least stranded share, then by
	// name), then the excluded ones in request order.
	Candidates []Candidate
	// Best is the cheapest eligible candidate's name, or "" when none is eligible. When the model's work budget
	// left some of the cheapest with the best packing's count (WarnModelBudget), it is the cheapest the model
	// sized.
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
	cat       sizing.Catalog
	planner   *sizing.Planner // the best packing only, for every candidate
	scheduled *sizing.Planner // with the scheduler model, for the candidates that rank first
}

// NewRanker returns a Ranker that looks types up and sizes pools in cat.
func NewRanker(cat sizing.Catalog) *Ranker {
	p := sizing.NewPlanner(cat).WithoutBlame().WithoutNodes().WithoutHeadroom().WithoutReport()
	return &Ranker{cat: cat, planner: p.PackingOnly(), scheduled: p}
}

// Rank sizes the request on every candidate and ranks them. Errors in the request are field.Errors
// with paths of Request's field names: Candidates[i], Pool.<sizing.Pool field>, Workloads[i]... An
// error that the sizing planner reports for every candidate is an error of the request; one that only
// some candidates give excludes them with ReasonInvalid.
//
// Candidates whose nodes look alike to the packer (the same allocatable and pod slots, architecture
// and GPUs, no credit budget, and no selector on the instance-type label) are packed once; the result
// is the same as sizing each alone, which the package's tests check.
func (r *Ranker) Rank(ctx context.Context, req Request) (*Ranking, error) {
	rows, errs := r.candidates(ctx, req)
	if len(errs) > 0 {
		return nil, errs
	}
	switch req.Scenario {
	case "", fit.ScenarioPeak, fit.ScenarioSteady:
	default:
		return nil, field.Errors{field.Invalid(field.NewPath("Scenario"), string(req.Scenario),
			"unknown scenario %s: use %q or %q", field.Quote(string(req.Scenario)), fit.ScenarioPeak, fit.ScenarioSteady)}
	}
	for _, name := range slices.Sorted(maps.Keys(req.Prices)) {
		if p := req.Prices[name]; p < 0 {
			return nil, field.Errors{field.Invalid(field.NewPath("Prices").Key(name), fmt.Sprint(p), "the price of %q is negative (%v USD per hour)", name, p)}
		}
		// A price for no candidate would be dropped silently, the negotiated price lost: the name must be a
		// candidate's, as the catalog spells it.
		if !slices.ContainsFunc(rows, func(t catalog.InstanceType) bool { return t.Name == name }) {
			hint := ""
			for _, t := range rows {
				if strings.EqualFold(t.Name, name) {
					hint = fmt.Sprintf(": did you mean %q?", t.Name)
				}
			}
			if hint == "" {
				hint = "; give prices by candidate name as the catalog spells it"
			}
			return nil, field.Errors{field.Invalid(field.NewPath("Prices").Key(name), name, "a price is given for %q, which is not one of the candidates%s", name, hint)}
		}
	}
	if req.NodeDisk.IOPS < 0 {
		return nil, field.Errors{field.Invalid(field.NewPath("NodeDisk", "IOPS"), fmt.Sprint(req.NodeDisk.IOPS), "the IOPS a node must sustain is negative (%d)", req.NodeDisk.IOPS)}
	}
	if t := req.NodeDisk.ThroughputMBps; t < 0 || math.IsNaN(t) || math.IsInf(t, 0) {
		return nil, field.Errors{field.Invalid(field.NewPath("NodeDisk", "ThroughputMBps"), fmt.Sprint(t), "the throughput a node must sustain must be 0 MB/s or more, got %v", t)}
	}
	// Candidates whose disks cannot keep up are excluded before sizing, so a limit ranks the eligible.
	diskShort := make([]string, len(rows))
	var sizable []catalog.InstanceType
	var unchecked []string
	invalid := make([]string, len(rows))
	for i, t := range rows {
		short, checked := diskCap(req.NodeDisk, t)
		if !checked && t.Cloud != catalog.GCP {
			// An AWS or Azure type without published disk limits (an AWS type that is not EBS-optimized, such as
			// t2 or m3): whether it sustains the demand is unknown, so it is not recommended (never optimistic).
			short = fmt.Sprintf("kubefit knows no sustained disk limits of %s (not in the %s table: an older type without "+
				"dedicated disk bandwidth), so it cannot tell that a node sustains the demand", t.Name, map[catalog.Cloud]string{
				catalog.AWS: "EBS-optimized", catalog.Azure: "uncached disk limits"}[t.Cloud])
			checked = true
		}
		diskShort[i] = short
		if !checked {
			unchecked = append(unchecked, t.Name)
		}
		if why := t.AKSRefuses(); why != "" {
			invalid[i] = why // none is recommended
		}
		if short == "" && invalid[i] == "" {
			sizable = append(sizable, t)
		}
	}
	sized, packCut, err := r.size(ctx, &req, sizable)
	if err != nil {
		return nil, err
	}
	outs := make([]outcome, len(rows))
	for i, k := 0, 0; i < len(rows); i++ {
		if diskShort[i] != "" || invalid[i] != "" {
			outs[i] = outcome{diskShort: diskShort[i], invalid: invalid[i]}
			continue
		}
		outs[i] = sized[k]
		k++
	}
	// Errors every sized candidate shares are the request's.
	var first field.Errors
	all := false
	for _, o := range outs {
		if o.unsized || o.diskShort != "" || o.invalid != "" {
			continue
		}
		if o.errs == nil {
			all = false
			break
		}
		if first == nil {
			first, all = o.errs, true
		}
	}
	if all {
		return nil, repath(first)
	}
	rk := &Ranking{CatalogDate: r.cat.Date()}
	rk.Warnings = append(rk.Warnings, priceWarnings(&req)...)
	// The sizing of each candidate checks the pool's maximum against GKE's nodes per zone; its error is the
	// request's (above), its warning, dropped with the candidates' other sizing warnings, is said once here.
	if _, w := sizing.GKEZoneLimit(req.Pool, field.NewPath("Pool"), req.Pool.MaxNodes, false); w != nil {
		rk.Warnings = append(rk.Warnings, *w)
	}
	if len(unchecked) > 0 {
		rk.Warnings = append(rk.Warnings, field.Warning{Code: WarnDiskNotChecked, Path: field.NewPath("NodeDisk"), Message: fmt.Sprintf(
			"kubefit has no per-node disk limits for %s, so the node disk demand is not checked for them", field.JoinAnd(quoteNames(unchecked)))})
	}
	for i := range outs {
		rk.Candidates = append(rk.Candidates, r.candidate(&req, rows[i], &outs[i]))
	}
	if packCut.left > 0 {
		rk.Warnings = append(rk.Warnings, field.Warning{Code: WarnPackBudget, Path: field.NewPath("Candidates"), Message: fmt.Sprintf(
			"the ranking packed %s before its work budget ran out (%s of %s workload-nodes); %s, in order of their lower-bound cost, "+
				"%s listed as not sized (reason %s) with a lower bound on their nodes and cost, so a cheaper type may be among them "+
				"and the recommendation is the cheapest candidate packed: name fewer candidates, or plan fewer workloads per recommendation",
			fit.Plural(packCut.packed, "candidate type", "candidate types"), fit.FormatCount(packCut.spent), fit.FormatCount(rankPackBudget),
			fit.Plural(packCut.left, "other", "others"), map[bool]string{true: "is", false: "are"}[packCut.left == 1], ReasonNotSized)})
	}
	cut, err := r.schedule(ctx, &req, rk.Candidates)
	if err != nil {
		return nil, err
	}
	sortCandidates(rk.Candidates)
	if cut > 0 {
		left, verb := unscheduledTop(&req, rk.Candidates), "keeps"
		if left != 1 {
			verb = "keep"
		}
		rk.Warnings = append(rk.Warnings, field.Warning{Code: WarnModelBudget, Path: field.NewPath("Limit"), Message: fmt.Sprintf(
			"the scheduler model sized %s before its work budget ran out (it filtered %s nodes); %s among the cheapest %s "+
				"the best packing's node count, a lower bound kube-scheduler may exceed, so the rank may be optimistic and the "+
				"recommendation is the cheapest candidate the model sized: set a smaller limit, or plan fewer pods per recommendation",
			fit.Plural(cut, "candidate", "candidates"), fit.FormatCount(spentOf(rk.Candidates)), fit.Plural(left, "candidate", "candidates"), verb)})
	}
	var demoted []string
	for _, c := range rk.Candidates {
		if c.DiskTypeUnknown && !c.Excluded {
			demoted = append(demoted, c.InstanceType)
		}
	}
	if len(demoted) > 0 {
		msg := fmt.Sprintf("kubefit's GCP machine-series table cannot say whether %s attach%s the claims' disk types (rule %s, disks.md §6.1): "+
			"ranked after the candidates whose disk types are checked; see each one's message",
			field.JoinAnd(quoteNames(demoted)), map[bool]string{true: "es", false: ""}[len(demoted) == 1], disk.RuleMachineDiskUnknown)
		if c := rk.Candidates[0]; c.DiskTypeUnknown {
			msg += fmt.Sprintf("; no candidate whose disk types are checked is eligible, so the recommendation, %s, may not attach "+
				"them: check its series' \"Supported disk types\" in Google's machine-family documentation", c.InstanceType)
		}
		rk.Warnings = append(rk.Warnings, field.Warning{Code: WarnDiskTypeUnknown, Path: field.NewPath("Workloads"), Message: msg})
	}
	if w, ok := acceleratorWarning(rk.Candidates); ok {
		rk.Warnings = append(rk.Warnings, w)
	}
	if len(rk.Candidates) > 0 && !rk.Candidates[0].Excluded {
		rk.Best = rk.Candidates[0].InstanceType
		// A count the model did not check may be optimistic: the recommendation is then the cheapest it did.
		for i := 0; cut > 0 && i < len(rk.Candidates); i++ {
			if c := &rk.Candidates[i]; !c.Excluded && c.Scheduled {
				rk.Best = c.InstanceType
				break
			}
		}
		if i := slices.IndexFunc(rows, func(t catalog.InstanceType) bool { return t.Name == rk.Best }); i >= 0 && rows[i].Architecture == catalog.ArchARM64 {
			rk.Warnings = append(rk.Warnings, sizing.Arm64ImagesWarnings(req.Workloads, rk.Best, req.Pool.Cloud == catalog.GCP)...)
		}
	} else {
		rk.Warnings = append(rk.Warnings, field.Warning{Code: WarnNoneEligible, Path: field.NewPath("Candidates"),
			Message: fmt.Sprintf("none of the %d candidate types can run these workloads: see each candidate's reason", len(rk.Candidates))})
	}
	return rk, nil
}

// ScheduledTop is how many of the cheapest candidates Rank sizes with the scheduler model (at least; a
// limit above it raises it to the limit).
const ScheduledTop = 3

// schedule sizes the cheapest candidates again with the scheduler model, whose counts are never below
// the best packing's, until the first max(limit, ScheduledTop) eligible candidates all carry the
// model's counts: a candidate that climbs among them after a re-sort is modelled too, so the winners'
// order is the realistic one. The others keep the best packing's counts (Candidate.Scheduled false).
//
// It returns how many candidates it sized when the work budget (rankModelBudget) stopped it with some of
// those first candidates not sized, else 0.
func (r *Ranker) schedule(ctx context.Context, req *Request, cs []Candidate) (int, error) {
	top := max(req.Limit, ScheduledTop)
	var spent, costliest int64
	sized := 0
	workers := runtime.GOMAXPROCS(0)
	pinned := selectsInstanceType(req)
	type sizedAs struct {
		o    outcome
		name string
	}
	modelled := map[string]sizedAs{}
	for sized < len(cs)+4*top {
		sortCandidates(cs)
		// The next candidates to size: the unscheduled eligible ones among the first top, in order. Sizing
		// one only raises its own cost (or excludes it), so the others keep their places among the first top
		// and one at a time would size them next, in this order: up to GOMAXPROCS of them are sized at once.
		var next []int
		for i := 0; i < len(cs) && i < top && len(next) < workers; i++ {
			if !cs[i].Excluded && !cs[i].Scheduled {
				next = append(next, i)
			}
		}
		// With a limit, a candidate left unsized whose lower bound no longer costs more than the
		// limit-th (now modelled) candidate is sized too, so the limit's winners stay exact.
		if len(next) == 0 && req.Limit > 0 && req.Limit <= len(cs) && !cs[req.Limit-1].Excluded {
			kth := cs[req.Limit-1].MonthlyCost
			for i := range cs {
				if c := &cs[i]; c.Reason == ReasonNotSized && !c.cut && c.PricePerHour > 0 && c.MonthlyCost <= kth {
					next = append(next, i)
					break
				}
			}
		}
		if len(next) == 0 {
			return 0, nil
		}
		if sized > 0 && spent+costliest > rankModelBudget {
			return sized, nil
		}
		outs := make([]outcome, len(next))
		errs := make([]error, len(next))
		// A candidate of a node shape the model already sized (its packer key, as size shares packings)
		// takes that outcome unless the sizing refused the pool's options; an earlier one of this batch is
		// waited for (from, else −1).
		keys := make([]string, len(next))
		from := make([]int, len(next))
		reused := make([]string, len(next))
		var wg sync.WaitGroup
		for k, i := range next {
			keys[k], _, _ = r.packerKey(ctx, req, cs[i].Row, pinned)
			from[k] = slices.Index(keys[:k], keys[k])
			if m, ok := modelled[keys[k]]; ok {
				outs[k], reused[k] = m.o, m.name
				continue
			}
			if from[k] >= 0 {
				continue
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				outs[k], errs[k] = r.solveWith(ctx, r.scheduled, req, cs[i].Row)
			}()
		}
		wg.Wait()
		// The results count in order, under the budget's rule, as if sized one at a time; those it would
		// not have sized are dropped. A reused outcome costs nothing, so the budget does not stop it.
		for k, i := range next {
			j := from[k]
			if j >= 0 && reused[k] == "" && outs[j].errs == nil {
				outs[k], reused[k] = outs[j], cs[next[j]].Row.Name
			}
			if sized >= len(cs)+4*top {
				return 0, nil
			}
			if reused[k] == "" && sized > 0 && spent+costliest > rankModelBudget {
				return sized, nil
			}
			if j >= 0 && reused[k] == "" {
				// The batch's earlier candidate of its shape was refused the pool's options: sized on its own.
				outs[k], errs[k] = r.solveWith(ctx, r.scheduled, req, cs[i].Row)
			}
			if errs[k] != nil {
				return 0, errs[k]
			}
			if reused[k] != "" {
				outs[k].work, outs[k].modelledAs = 0, reused[k]
			} else if outs[k].errs == nil {
				modelled[keys[k]] = sizedAs{outs[k], cs[i].Row.Name}
			}
			c := r.candidate(req, cs[i].Row, &outs[k])
			c.Scheduled, c.ModelWork = true, outs[k].work
			cs[i] = c
			spent += outs[k].work
			costliest = max(costliest, outs[k].work)
			sized++
		}
	}
	return 0, nil
}

// sortCandidates orders eligible candidates by monthly cost, then stranded share, then name, those whose
// claims' disk support is unknown (DiskTypeUnknown) after the others; excluded ones last.
func sortCandidates(cs []Candidate) {
	slices.SortStableFunc(cs, func(a, b Candidate) int {
		if a.Excluded != b.Excluded {
			if a.Excluded {
				return 1
			}
			return -1
		}
		if a.Excluded {
			return 0
		}
		if a.AcceleratorUnused != b.AcceleratorUnused {
			if a.AcceleratorUnused {
				return 1
			}
			return -1
		}
		if a.DiskTypeUnknown != b.DiskTypeUnknown {
			if a.DiskTypeUnknown {
				return 1
			}
			return -1
		}
		if c := cmp.Compare(a.MonthlyCost, b.MonthlyCost); c != 0 {
			return c
		}
		if c := cmp.Compare(a.StrandedShare, b.StrandedShare); c != 0 {
			return c
		}
		return strings.Compare(a.InstanceType, b.InstanceType)
	})
}

// candidates checks the names: at least one, every one known to the catalog; duplicates count once.
func (r *Ranker) candidates(ctx context.Context, req Request) ([]catalog.InstanceType, field.Errors) {
	var errs field.Errors
	if _, err := catalog.ParseCloud(string(req.Pool.Cloud)); err != nil {
		return nil, field.Errors{field.Invalid(field.NewPath("Pool", "Cloud"), string(req.Pool.Cloud), "%v", err)}
	}
	if len(req.Candidates) == 0 {
		return nil, field.Errors{field.Invalid(field.NewPath("Candidates"), "", "no candidate instance type is given; name at least one")}
	}
	seen := map[string]bool{}
	var rows []catalog.InstanceType
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
			rows = append(rows, it)
		}
	}
	return rows, errs
}

// SizingRequest returns the sizing request Rank solves for the named candidate: the pool template with
// that type as its only instance type, and the request's DaemonSets and workloads.
func (req *Request) SizingRequest(name string) sizing.Request {
	p := req.Pool
	p.InstanceTypes = []string{name}
	return sizing.Request{Pools: []sizing.Pool{p}, DaemonSets: req.DaemonSets, SystemDaemonSets: req.SystemDaemonSets,
		Workloads: req.Workloads, Scheduler: req.Scheduler, Arrival: req.Arrival}
}

// solveOne sizes one candidate.
func (r *Ranker) solveOne(ctx context.Context, req *Request, t catalog.InstanceType) (outcome, error) {
	return r.solveWith(ctx, r.planner, req, t)
}

// solveWith sizes candidate t with planner p.
func (r *Ranker) solveWith(ctx context.Context, p *sizing.Planner, req *Request, t catalog.InstanceType) (outcome, error) {
	plan, err := p.Solve(ctx, req.SizingRequest(t.Name))
	if err != nil {
		if es := field.As(err); len(es) > 0 {
			return outcome{errs: es}, nil
		}
		return outcome{}, err
	}
	pp := &plan.Pools[0]
	o := outcome{fits: plan.Fits, credits: pp.Credits, scenario: pp.Peak}
	for _, sc := range plan.Packing.Scenarios {
		o.work += sc.ModelWork
	}
	if req.Scenario == fit.ScenarioSteady {
		o.scenario = pp.Steady
	}
	if ms := plan.Misfits(); len(ms) > 0 {
		o.misfit = &ms[0]
	}
	return o, nil
}

// candidate turns one outcome into a Candidate.
func (r *Ranker) candidate(req *Request, t catalog.InstanceType, o *outcome) Candidate {
	c := Candidate{InstanceType: t.Name, Row: t, CreditVerdict: burst.VerdictNotBurstable, ModelledAs: o.modelledAs}
	if p, ok := req.Prices[t.Name]; ok {
		c.PricePerHour, c.PriceSource = p, "price given for "+t.Name+" (USD per hour)"
	} else if t.PriceUSDPerHour > 0 {
		c.PricePerHour = t.PriceUSDPerHour
		c.PriceSource = fmt.Sprintf("reference on-demand price, %s, %s (kubefit catalog %s)", t.PriceRegion, t.PriceDate, r.cat.Date())
	}
	priced := c.PriceSource != ""
	if !priced {
		c.PriceSource = fmt.Sprintf("none: the kubefit catalog (%s) has no price for %s", r.cat.Date(), t.Name)
	}
	if o.invalid != "" {
		c.Excluded, c.Reason, c.Message = true, ReasonInvalid, o.invalid
		return c
	}
	if o.diskShort != "" {
		c.Excluded, c.Reason, c.Message = true, ReasonDiskCap, o.diskShort
		return c
	}
	if o.unsized {
		c.Excluded, c.Reason, c.cut = true, ReasonNotSized, o.cut
		if !o.boundOK {
			c.Reason = Reason(fit.ReasonTooLarge)
			why := "a limit is set"
			if o.cut {
				why = "the ranking's packing budget ran out"
			}
			c.Message = fmt.Sprintf("a pod is larger than a node of %s has room for after DaemonSets (not sized: %s)", t.Name, why)
			return c
		}
		c.NodesRequired, c.NodesOptimal = o.bound, o.bound
		c.MonthlyCost = float64(o.bound) * c.PricePerHour * HoursPerMonth
		if o.cut {
			c.Message = fmt.Sprintf("not sized: the ranking's packing budget ran out before %s; it needs at least %d nodes, %.2f USD per month", t.Name, o.bound, c.MonthlyCost)
			return c
		}
		c.Message = fmt.Sprintf("not sized: at least %d nodes of %s, %.2f USD per month, cost more than the %d cheapest candidates sized", o.bound, t.Name, c.MonthlyCost, req.Limit)
		return c
	}
	c.Sized = true
	if o.errs != nil {
		c.Excluded, c.Reason = true, ReasonInvalid
		c.Message = fmt.Sprintf("a node of %s cannot be sized with the pool's options: %s", t.Name, o.errs.Error())
		return c
	}
	s := &o.scenario
	c.NodesRequired, c.NodesOptimal = s.NodesRequired, s.NodesOptimal
	c.MonthlyCost = float64(s.NodesRequired) * c.PricePerHour * HoursPerMonth
	c.Utilization, c.Stranded = s.Utilization, s.Stranded
	c.StrandedShare = (ratio(s.Stranded.CPUMillicores, s.WorkloadAllocatable.CPUMillicores) +
		ratio(s.Stranded.MemoryBytes, s.WorkloadAllocatable.MemoryBytes)) / 2
	if o.credits != nil {
		c.CreditVerdict, c.CreditDetail = o.credits.Result.Verdict, o.credits.Result.Detail
		// Unlimited mode bills the surplus credits on top of the nodes (AWS: per vCPU-hour): part of what the
		// workloads really cost, so part of the ranking.
		c.MonthlyCost += o.credits.SurplusCostPerMonth
		c.SurplusCostPerMonth = o.credits.SurplusCostPerMonth
	}
	switch {
	case !o.fits && o.misfit != nil:
		c.Excluded, c.Reason, c.Message = true, Reason(o.misfit.Reason), o.misfit.Message
		if o.misfit.Reason == sizing.ReasonCredits && o.credits != nil {
			c.Message = fmt.Sprintf("%s runs out of CPU credits: the busiest node's expected CPU use, %dm, %s",
				t.Name, o.credits.BusiestNodeMillicores, o.credits.Result.Detail)
		}
		if o.modelledAs != "" {
			c.Message = fmt.Sprintf("a node of %s has the shape of a node of %s (allocatable, pod limits, architecture, "+
				"accelerators, volume attachments), so the scheduler model places the pods alike; on %s: %s", t.Name,
				o.modelledAs, o.modelledAs, c.Message)
		}
	case !o.fits:
		c.Excluded, c.Reason, c.Message = true, ReasonInvalid, fmt.Sprintf("the workloads do not fit on %s", t.Name)
		if o.modelledAs != "" {
			c.Message += fmt.Sprintf(", as they do not on %s, whose nodes have the same shape", o.modelledAs)
		}
	case !priced:
		c.Excluded, c.Reason = true, ReasonUnknownPrice
		c.Message = fmt.Sprintf("the catalog has no price for %s; give one to rank it", t.Name)
		c.MonthlyCost = 0
	}
	if unknown := diskTypesUnknown(req, t); len(unknown) > 0 && !c.Excluded {
		c.DiskTypeUnknown = true
		c.Message = fmt.Sprintf("disk support unknown, so ranked after the candidates whose claim disk types are checked: %s",
			strings.Join(unknown, "; "))
	}
	if why := acceleratorUnused(req, t); why != "" && !c.Excluded {
		c.AcceleratorUnused = true
		c.Message = strings.TrimPrefix(c.Message+"; "+why, "; ")
	}
	return c
}

// acceleratorWarning is WarnAcceleratorUnused over the ranked candidates, when some eligible one has accelerators no
// workload requests.
func acceleratorWarning(cs []Candidate) (field.Warning, bool) {
	var idle []string
	for _, c := range cs {
		if c.AcceleratorUnused && !c.Excluded {
			idle = append(idle, c.InstanceType)
		}
	}
	if len(idle) == 0 {
		return field.Warning{}, false
	}
	msg := fmt.Sprintf("%s %s accelerators (GPUs or Neuron devices) that no workload requests: ranked after the candidates without, "+
		"since their nodes would pay for devices the pods leave idle (and pods requesting none are usually kept off accelerator nodes by a taint)",
		field.JoinAnd(quoteNames(idle)), map[bool]string{true: "has", false: "have"}[len(idle) == 1])
	if cs[0].AcceleratorUnused {
		msg += fmt.Sprintf("; no candidate without accelerators is eligible, so the recommendation, %s, is one: add types without accelerators to the candidates", cs[0].InstanceType)
	}
	return field.Warning{Code: WarnAcceleratorUnused, Path: field.NewPath("Candidates"), Message: msg}, true
}

// acceleratorUnused says, for a type with accelerators (GPUs, counted or not, and the extended resources kubefit
// derives or the pool declares) none of whose resources any workload requests, that its nodes would pay for
// devices the pods leave idle; "" when it has none or a workload requests one. Such a type is cheaper per vCPU
// only by accident, and pods that request no accelerator are usually kept off accelerator nodes (a taint), so it
// ranks after the types without (Candidate.AcceleratorUnused).
func acceleratorUnused(req *Request, t catalog.InstanceType) string {
	offered := map[string]bool{}
	if t.NVIDIAGPUs() > 0 {
		offered["nvidia.com/gpu"] = true
	}
	for k := range sizing.DerivedExtended(t) {
		offered[k] = true
	}
	if len(offered) == 0 && t.GPUCount == 0 && t.GPUNote() == "" {
		return ""
	}
	for k, v := range req.Pool.Extended {
		if v > 0 && !fit.IsHugePages(k) {
			offered[k] = true
		}
	}
	for _, w := range req.Workloads {
		if w.Requests.GPU > 0 && offered["nvidia.com/gpu"] {
			return ""
		}
		for k, v := range w.Extended {
			if v > 0 && offered[k] {
				return ""
			}
		}
	}
	what := "accelerators"
	switch {
	case t.NVIDIAGPUs() > 0:
		what = fmt.Sprintf("%d NVIDIA %s (nvidia.com/gpu)", t.NVIDIAGPUs(), map[bool]string{true: "GPU", false: "GPUs"}[t.NVIDIAGPUs() == 1])
	case offered[sizing.ResourceNeuron]:
		what = "AWS Neuron accelerators (aws.amazon.com/neuron)"
	case t.GPUNote() != "":
		what = "accelerators (" + t.GPUNote() + ")"
	}
	return fmt.Sprintf("%s has %s, which no workload requests: its nodes would pay for devices the pods leave idle, so it is "+
		"ranked after the candidates without accelerators", t.Name, what)
}

// diskTypesUnknown says, for each disk type of an attachable claim of the workloads, that kubefit's GCP
// machine-series table cannot say whether t attaches it (disk.CheckGCPMachineDisk's GPD-M2 warning); nil when
// every type is checked. Every workload's claims count, whether or not its pods land on the pool: the safe side.
func diskTypesUnknown(req *Request, t catalog.InstanceType) []string {
	var out []string
	seen := map[string]bool{}
	for _, w := range req.Workloads {
		for _, c := range w.VolumeClaims {
			if c.DiskType == "" || !c.Attachable() || seen[c.DiskType] {
				continue
			}
			seen[c.DiskType] = true
			if f := disk.CheckGCPMachineDisk(t, c.DiskType, field.Path{}); f != nil && f.Rule == disk.RuleMachineDiskUnknown {
				out = append(out, fmt.Sprintf("claim %q of workload %q (%s): %s", c.Name, w.Name, c.DiskType, f.Message))
			}
		}
	}
	return out
}

// diskCap says why a node of t cannot sustain d ("" when it can); checked is false when kubefit has no
// disk limits for t.
func diskCap(d NodeDisk, t catalog.InstanceType) (short string, checked bool) {
	if d == (NodeDisk{}) {
		return "", true
	}
	n, err := disk.NodeLimitsFor(t)
	if err != nil {
		return "", false
	}
	var parts []string
	if d.IOPS > 0 && n.BaseIOPS < d.IOPS {
		parts = append(parts, fmt.Sprintf("%s IOPS where a node needs %s", resource.Group(n.BaseIOPS), resource.Group(d.IOPS)))
	}
	if mbps := float64(n.BaseBytesPerSec) / 1e6; d.ThroughputMBps > 0 && mbps < d.ThroughputMBps {
		parts = append(parts, fmt.Sprintf("%s MB/s where a node needs %s", strconv.FormatFloat(mbps, 'f', -1, 64), strconv.FormatFloat(d.ThroughputMBps, 'f', -1, 64)))
	}
	if len(parts) == 0 {
		return "", true
	}
	return fmt.Sprintf("a node of %s sustains only %s across its disks (%s)", t.Name, field.JoinAnd(parts), n.Source), true
}

func quoteNames(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = strconv.Quote(n)
	}
	return out
}

func ratio(a, b int64) float64 {
	if b <= 0 {
		return 0
	}
	return float64(a) / float64(b)
}

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
