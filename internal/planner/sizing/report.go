package sizing

import (
	"fmt"
	"strings"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
)

// report renders the packer's report, then one line per pool saying how its node allocatable is backed, one
// line per set of the platform's system DaemonSets counted, and one line per burstable pool.
func report(pl *Plan) string {
	var b strings.Builder
	// The verdict and the failures are the plan's (credit failures included), not the packer's alone, so the
	// report, Fits and Failures can never disagree.
	packing := pl.Packing
	packing.Fits = pl.Fits
	packing.Failures = make([]fit.Failure, len(pl.Failures))
	for i, f := range pl.Failures {
		packing.Failures[i] = fit.Failure{Workload: f.Workload, Pool: f.Pool, Scenario: f.Scenario, Reason: fit.Reason(f.Reason), Message: f.Message}
	}
	b.WriteString(fit.Report(packing))
	// Each note once: fit.Report already gives the scheduler's.
	for _, n := range pl.Notes {
		if !strings.Contains(b.String(), n.Text) {
			fmt.Fprintf(&b, "\nNote: %s\n", n.Text)
		}
	}
	for i, pp := range pl.Pools {
		if i == 0 {
			b.WriteString("\nnode allocatable, by pool:\n")
		}
		ev := pp.Overhead.Evidence
		fmt.Fprintf(&b, "  %s (%s, %s): %s\n", pp.Name, pp.Instance.Name, ev.Scope, ev.Summary)
	}
	// The platform's system DaemonSets counted, once per set with the pools that count it.
	var sets []string
	pools := map[string][]string{}
	for _, pp := range pl.Pools {
		if len(pp.SystemDaemonSets) == 0 {
			continue
		}
		text := SystemDaemonSetsNote(pp.Overhead.Profile, pp.SystemDaemonSets)
		if pools[text] == nil {
			sets = append(sets, text)
		}
		pools[text] = append(pools[text], pp.Name)
	}
	for i, text := range sets {
		if i == 0 {
			b.WriteString("\nsystem DaemonSets, by pool (beside the DaemonSets given):\n")
		}
		fmt.Fprintf(&b, "  %s: %s\n", strings.Join(pools[text], ", "), text)
	}
	for _, pp := range pl.Pools {
		if c := pp.Credits; c != nil {
			fmt.Fprintf(&b, "\nburstable pool %s (%s): busiest node uses %dm of a %dm baseline: %s\n", pp.Name,
				c.Result.Budget.InstanceType, c.BusiestNodeMillicores, c.Result.SustainedMillicores, c.Result.Verdict.Summary())
		}
	}
	return b.String()
}
