package sizing

import (
	"fmt"
	"strings"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
)

// report renders the packer's report, then one line per pool saying how its node allocatable is backed, then
// one line per burstable pool.
func report(pl *Plan) string {
	var b strings.Builder
	b.WriteString(fit.Report(pl.Packing))
	for i, pp := range pl.Pools {
		if i == 0 {
			b.WriteString("\nnode allocatable, by pool:\n")
		}
		ev := pp.Overhead.Evidence
		fmt.Fprintf(&b, "  %s (%s, %s): %s\n", pp.Name, pp.Instance.Name, ev.Scope, ev.Summary)
	}
	for _, pp := range pl.Pools {
		if c := pp.Credits; c != nil {
			fmt.Fprintf(&b, "\nburstable pool %s (%s): busiest node uses %dm of a %dm baseline: %s\n", pp.Name,
				c.Result.Budget.InstanceType, c.BusiestNodeMillicores, c.Result.SustainedMillicores, c.Result.Verdict.Summary())
		}
	}
	return b.String()
}
