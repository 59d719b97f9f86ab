package sizing

import (
	"fmt"
	"strings"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/resource"
)

// warnDiskShare warns when pool i's nodes attach volumes provisioned for more IOPS or throughput than the
// node's instance type sustains for all of them together (fit.DiskShare): the steady scenario's finding,
// else the peak's.
func (s *solve) warnDiskShare(i int, pp *PoolPlan) {
	d, sc := pp.Steady.Disk, fit.ScenarioSteady
	if d == nil {
		d, sc = pp.Peak.Disk, fit.ScenarioPeak
	}
	if d == nil {
		return
	}
	burst := "they cannot reach them together even within the node's burst"
	if d.WithinBurst {
		burst = fmt.Sprintf("they reach them together only while the node's burst lasts (%s)", diskRatesText(d.Burst))
	}
	verb, asks := "attach", "ask"
	if d.NodesOver == 1 {
		verb = "attaches"
	}
	if d.Volumes == 1 {
		asks = "asks"
	}
	s.warnings = append(s.warnings, field.Warning{Code: WarnDiskShare, Path: s.poolPath(i), Message: fmt.Sprintf(
		"pool %q (%s): in the %s scenario %s %s volumes provisioned for more than the instance type sustains for all its volumes "+
			"together: node %d's %s %s %s against %s's sustained %s (disk limits of the instance, shared by every volume attached to it); "+
			"%s. Choose an instance type whose sustained disk limits cover them, or spread the volumes over more nodes",
		pp.Name, pp.Instance.Name, sc, plural(d.NodesOver, "node"), verb, d.Node, plural(int(d.Volumes), "volume"), asks, diskRatesText(d.Provisioned),
		pp.Instance.Name, diskRatesText(d.Sustained), burst)})
}

// diskRatesText says disk rates as "12,000 IOPS and 500 MB/s" (MB/s: 10^6 bytes per second, the unit the
// clouds publish node limits in).
func diskRatesText(r fit.DiskRates) string {
	var parts []string
	if r.IOPS > 0 {
		parts = append(parts, resource.Group(r.IOPS)+" IOPS")
	}
	if r.BytesPerSec > 0 {
		// Whole MB/s grouped, then the hundredths the clouds publish (81.25 MB/s), without trailing zeros.
		cents := (r.BytesPerSec + 5_000) / 10_000
		frac := strings.TrimRight(fmt.Sprintf("%02d", cents%100), "0")
		mb := resource.Group(cents / 100)
		if frac != "" {
			mb += "." + frac
		}
		parts = append(parts, mb+" MB/s")
	}
	return field.JoinAnd(parts)
}
