package fit

import (
	"fmt"
	"runtime"
	"slices"
	"sync"
)

// Plan validates the input and packs both scenarios. Invalid input returns the errors of Validate
// and a zero Result; a valid input always gives a Result, whose Fits and Failures say whether and
// why the workloads do not fit. Plan is deterministic: the same input gives an identical Result, on one CPU
// or on several (its scenarios, and the scheduler model's orders and replays, run two at a time when it can).
func Plan(in Input) (Result, error) {
	if err := Validate(in); err != nil {
		return Result{}, err
	}
	m := newModel(&in)
	defer m.release()
	res := Result{Fits: true}
	for p := range m.pools {
		pm := &m.pools[p]
		res.Pools = append(res.Pools, PoolOverhead{
			Pool: pm.p.Name, InstanceType: pm.p.InstanceType, Allocatable: pm.p.Allocatable,
			DaemonSets: pm.dsNames, DaemonSetRequests: pm.ds.resources(), DaemonSetCPUUsageMillicores: pm.dsUsage,
			WorkloadAllocatable: pm.walloc.resources(), Usable: pm.usable, Source: SourceDaemonSets,
		})
		if !pm.usable {
			res.Failures = append(res.Failures, Failure{Pool: pm.p.Name, Reason: ReasonDaemonSets,
				Message: fmt.Sprintf("the DaemonSets on %s leave no room for pods: %s; choose a larger instance type "+
					"or fewer DaemonSets", poolLabel(pm.p), m.daemonSetShortage(p))})
		}
	}
	outs := make([]scenarioOutcome, len(Scenarios))
	if m.in.PackingOnly || runtime.GOMAXPROCS(0) < 2 || len(m.in.Workloads)*len(m.in.Pools) > maxSideBySide {
		for i, sc := range Scenarios {
			outs[i] = m.planScenario(sc)
		}
	} else {
		// The scenarios share nothing but the model's spare packings (locked), so they run side by side: the
		// search of one often runs a single order, and the other CPU would idle.
		var wg sync.WaitGroup
		for i, sc := range Scenarios[1:] {
			wg.Add(1)
			go func() {
				defer wg.Done()
				outs[i+1] = m.planScenario(sc)
			}()
		}
		outs[0] = m.planScenario(Scenarios[0])
		wg.Wait()
	}
	for _, o := range outs {
		res.Fits = res.Fits && o.sr.Fits
		res.Scenarios = append(res.Scenarios, o.sr)
		res.Failures = append(res.Failures, o.failures...)
		if o.disruptions != nil {
			res.Disruptions = o.disruptions
		}
		if o.spare != nil && o.sr.Fits {
			res.NodeLossWarning = o.spare
		}
		if o.headroom != nil {
			res.Headroom = o.headroom
		}
	}
	if m.maxFromPeak() {
		maxima := m.computedMaxima(&res)
		for _, o := range outs {
			if o.peak != nil {
				res.Headroom = o.peak.headroom(maxima)
				m.recycle(o.peak)
			}
		}
	}
	for _, d := range res.Disruptions {
		res.Fits = res.Fits && d.Fits
		if !d.Fits {
			res.Failures = append(res.Failures, Failure{Workload: firstWorkload(append(slices.Clone(d.Blocked), d.Pending...)), Pool: d.Pool, Scenario: ScenarioSteady,
				Reason: ReasonDisruption, Message: d.Message})
		}
	}
	return res, nil
}

// maxSideBySide bounds the workloads × pools of a plan whose scenarios run side by side. The packer's arrays
// grow with workloads × pools, and one scenario's packings reuse the other's when they run in turn: on
// BenchmarkPlan10kPoolsByWorkloads (2,000 × 2,000) side by side took the live heap from 2.7 to 3.8 GB
// (GODEBUG=gctrace=1) for a second saved; the plans the model's CPU dominates are far below it.
const maxSideBySide = 1 << 20

// scenarioOutcome is what one scenario adds to a Result.
type scenarioOutcome struct {
	sr          ScenarioResult
	failures    []Failure
	disruptions []DisruptionResult // the steady scenario's
	spare       *DisruptionResult  // the steady scenario's node-loss warning
	headroom    []Headroom         // the peak scenario's
	peak        *sim               // the peak scenario's placement, when its headroom waits for the pools' maxima (Plan)
}

// planScenario packs one scenario, places it as the scheduler would and reads its results.
func (m *model) planScenario(sc Scenario) scenarioOutcome {
	opt := m.pack(sc)
	optimal := make([]int, len(opt.pools)) // before realistic, which may add a margin's nodes to opt
	for p := range opt.pools {
		optimal[p] = len(opt.pools[p].in.ids) + len(opt.pools[p].over.ids)
	}
	s, bound := m.realistic(sc, opt)
	sr := s.result()
	sr.OptimalStrategy, sr.BoundBy = opt.strat.id, bound
	for p := range sr.Pools {
		pr := &sr.Pools[p]
		pr.NodesOptimal = optimal[p]
		sr.NodesRequired += pr.NodesRequired
		sr.NodesOptimal += pr.NodesOptimal
	}
	if s != opt {
		m.recycle(opt)
	}
	out := scenarioOutcome{sr: sr, failures: s.failures()}
	if sc == ScenarioSteady {
		out.disruptions, out.spare = m.disruptionResults(s)
	}
	if sc == ScenarioPeak && !m.in.OmitHeadroom {
		if m.maxFromPeak() {
			// The maximum the headroom is counted within needs the steady scenario's counts too (Plan).
			out.peak = s
			return out
		}
		out.headroom = s.headroom(nil)
	}
	m.recycle(s) // its results are read; the next packings reuse its arrays
	return out
}

// maxFromPeak reports whether some pool's maximum follows from the plan (Pool.MaxFromPeak).
func (m *model) maxFromPeak() bool {
	return slices.ContainsFunc(m.in.Pools, func(p Pool) bool { return p.MaxFromPeak })
}

// computedMaxima sets the reported maximum of the pools whose maximum follows from the plan (Pool.MaxFromPeak)
// in every scenario, and returns each pool's maximum: the computed one, or MaxNodes.
func (m *model) computedMaxima(res *Result) []int {
	maxima := make([]int, len(m.in.Pools))
	for p, pool := range m.in.Pools {
		maxima[p] = pool.MaxNodes
		if !pool.MaxFromPeak {
			continue
		}
		var steady, peak int
		for _, sr := range res.Scenarios {
			switch sr.Scenario {
			case ScenarioSteady:
				steady = sr.Pools[p].NodesRequired
			case ScenarioPeak:
				peak = sr.Pools[p].NodesRequired
			}
		}
		maxima[p] = min(MaxFromPeakNodes(peak, steady, pool.MinNodes, pool.MaxFromPeakPercent), pool.MaxNodes)
		if peak > pool.MaxNodes {
			maxima[p] = pool.MaxNodes // the pods do not fit the bound: it is the maximum
		}
		for _, sr := range res.Scenarios {
			sr.Pools[p].MaxNodes = maxima[p]
		}
	}
	return maxima
}
