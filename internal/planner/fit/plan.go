package fit

import (
	"fmt"
	"slices"
)

// Plan validates the input and packs both scenarios. Invalid input returns the errors of Validate
// and a zero Result; a valid input always gives a Result, whose Fits and Failures say whether and
// why the workloads do not fit. Plan is deterministic: the same input gives an identical Result.
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
	for _, sc := range Scenarios {
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
		res.Fits = res.Fits && sr.Fits
		res.Scenarios = append(res.Scenarios, sr)
		res.Failures = append(res.Failures, s.failures()...)
		if sc == ScenarioSteady {
			var spare *DisruptionResult
			res.Disruptions, spare = m.disruptionResults(s)
			if spare != nil && sr.Fits {
				res.NodeLossWarning = spare
			}
		}
		if sc == ScenarioPeak && !m.in.OmitHeadroom {
			res.Headroom = s.headroom()
		}
		m.recycle(s) // its results are read; the next scenario's packings reuse its arrays
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
