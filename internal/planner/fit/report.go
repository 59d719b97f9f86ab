package fit

import (
	"fmt"
	"strings"
	"text/tabwriter"
)

// Report renders a result as fixed-width text: the verdict, the per-node overhead of every pool, one
// row per pool and scenario (nodes required and max, lower bound, utilisation of CPU, memory and pod
// slots without DaemonSets, stranded CPU and memory, packing strategy), the peak headroom of every
// workload, and the failures.
func Report(res Result) string {
	var b strings.Builder
	verdict := "FITS"
	if !res.Fits {
		verdict = "DOES NOT FIT"
	}
	fmt.Fprintf(&b, "kubefit node pool sizing: %s\n", verdict)

	b.WriteString("\nOne node of each pool\n")
	tw := tabwriter.NewWriter(&b, 0, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "POOL\tTYPE\tALLOCATABLE CPU/MEM/PODS\tDAEMONSETS\tWORKLOAD ALLOCATABLE CPU/MEM/PODS\tUSABLE")
	for _, p := range res.Pools {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\t%s\n", p.Pool, dash(p.InstanceType), triple(p.Allocatable),
			len(p.DaemonSets), triple(p.WorkloadAllocatable), yesNo(p.Usable))
	}
	tw.Flush()

	nodes := "on which the scheduler binds every pod in every planned arrival order"
	for _, sc := range res.Scenarios {
		if sc.Margin != "" {
			nodes += ", with the margin the scheduler note below gives"
			break
		}
	}
	b.WriteString("\nNodes each scenario needs (NODES: " + nodes + "; " +
		"BEST PACKING: the fewest nodes a packing found needs, and its pod order; AT LEAST: no packing needs fewer, and what forces it)\n")
	tw = tabwriter.NewWriter(&b, 0, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "SCENARIO\tPOOL\tNODES\tMAX\tBEST PACKING\tAT LEAST\tFITS\tCPU%\tMEM%\tPODS%\tSTRANDED CPU\tSTRANDED MEM")
	for _, sc := range res.Scenarios {
		for _, p := range sc.Pools {
			lb := fmt.Sprint(p.LowerBound)
			if p.LowerBoundBy != "" {
				lb += " (" + p.LowerBoundBy + ")"
			}
			fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d (%s)\t%s\t%s\t%.1f\t%.1f\t%.1f\t%s\t%s\n", sc.Scenario, p.Pool,
				p.NodesRequired, p.MaxNodes, p.NodesOptimal, StrategyName(sc.OptimalStrategy), lb, yesNo(p.Fits),
				100*p.Utilization.CPU, 100*p.Utilization.Memory, 100*p.Utilization.Pods,
				FormatCPU(p.Stranded.CPUMillicores), FormatBytes(p.Stranded.MemoryBytes))
		}
	}
	tw.Flush()
	if note := SchedulerNote(res.Scenarios); note != "" {
		fmt.Fprintf(&b, "%s\n", note)
	}
	for _, sc := range res.Scenarios {
		if sc.UnplacedPods > 0 {
			fmt.Fprintf(&b, "%s: %d of %d pods fit no pool at all\n", sc.Scenario, sc.UnplacedPods, sc.Pods)
		}
	}

	if len(res.Headroom) > 0 {
		b.WriteString("\nHeadroom (peak, more replicas of one workload alone within the maximum node count)\n")
		tw = tabwriter.NewWriter(&b, 0, 8, 2, ' ', 0)
		fmt.Fprintln(tw, "WORKLOAD\tMORE REPLICAS")
		for _, h := range res.Headroom {
			fmt.Fprintf(tw, "%s\t%s\n", h.Workload, FormatCount(h.Replicas))
		}
		tw.Flush()
	}

	if len(res.Disruptions) > 0 {
		b.WriteString("\nDisruptions (steady scenario, the worst case of each)\n")
		for _, d := range res.Disruptions {
			verdict := "holds"
			if !d.Fits {
				verdict = "FAILS"
			}
			fmt.Fprintf(&b, "- %s %s: %s\n", d.Kind, verdict, d.Message)
		}
	}

	if w := res.NodeLossWarning; w != nil {
		fmt.Fprintf(&b, "\nNo spare node (a warning): %s\n", w.Message)
	}

	b.WriteString("\nFailures\n")
	if len(res.Failures) == 0 {
		b.WriteString("none\n")
	}
	for _, f := range res.Failures {
		scope := "all scenarios"
		if f.Scenario != "" {
			scope = string(f.Scenario)
		}
		subject := fmt.Sprintf("pool %q", f.Pool)
		switch {
		case f.Workload != "" && f.Pool == "":
			// A zone's loss (or a disruption over several pools) names no one pool.
			subject = fmt.Sprintf("workload %q", f.Workload)
		case f.Workload != "":
			subject = fmt.Sprintf("workload %q on pool %q", f.Workload, f.Pool)
		}
		fmt.Fprintf(&b, "- [%s] %s: %s: %s\n", scope, subject, f.Reason, f.Message)
	}
	return b.String()
}

// SchedulerNote explains once, for every scenario, how the scheduler model placed the pods: the worst planned
// arrival order of each scenario that has one, the margin a scenario's counts carry and, where the scheduler
// needs more nodes than the best packing, by how many; and, in a sentence of its own, the scenarios the model did
// not run on (their counts are the any-fit bound, not a placement). Scenarios with the same figures are named
// together. "" when no scenario has any.
func SchedulerNote(scs []ScenarioResult) string {
	var modelled, unmodelled noteGroups
	more, packing := false, false
	for _, sc := range scs {
		if sc.BoundBy == "" && sc.Margin != "" && sc.ModelWork == 0 {
			unmodelled.add(sc.Margin, sc.Scenario)
			continue
		}
		var parts []string
		if sc.BoundBy != "" {
			worst := "worst planned arrival order: " + sc.BoundBy
			if sc.Margin != "" {
				worst += ", " + sc.Margin
			}
			parts = append(parts, worst)
		} else if sc.Margin != "" {
			parts = append(parts, sc.Margin)
		}
		if sc.NodesRequired > sc.NodesOptimal {
			parts = append(parts, fmt.Sprintf("it needs %d nodes where the best packing needs %d", sc.NodesRequired, sc.NodesOptimal))
			more, packing = true, packing || sc.Scheduler == ProfileMostAllocated
		}
		if len(parts) > 0 {
			modelled.add(strings.Join(parts, "; "), sc.Scenario)
		}
	}
	var b strings.Builder
	if len(modelled.order) > 0 {
		b.WriteString("kube-scheduler places pods one at a time on the best-scoring node, and the node counts and failures are its placement (")
		modelled.write(&b, ", ")
		b.WriteString(")")
		switch {
		case packing:
			// The profile already packs: what keeps it from the packing is the order, the nodes it scores and, where
			// pools are shared, pods free to use several pools taking the nodes added for pods that may use fewer.
			b.WriteString(": most-allocated takes pods as they arrive (and from 100 nodes on scores only part of them), so it does not reach the " +
				"packing either; pods arriving largest first, a descheduler, or workloads kept to pools of their own (pods free " +
				"to use several pools take the nodes added to the pools of workloads that may use fewer) come closer")
		case more:
			b.WriteString(": a bin-packing profile (most-allocated), pods arriving largest first or a descheduler can come closer to the " +
				"packing, though not on every input (a profile that fills the fullest nodes can strand what the emptiest would hold): " +
				"plan with that profile or order to see")
		}
	}
	if len(unmodelled.order) > 0 {
		if b.Len() > 0 {
			b.WriteString(". ")
		}
		var u strings.Builder
		unmodelled.write(&u, ": ")
		b.WriteString("I" + strings.TrimPrefix(u.String(), "i")) // a sentence of its own: "In the … scenario: plus …"
	}
	return b.String()
}

// noteGroups gathers the scenarios that share a phrase of SchedulerNote, phrases in scenario order.
type noteGroups struct {
	order []string
	names map[string][]string
}

func (g *noteGroups) add(phrase string, sc Scenario) {
	if g.names == nil {
		g.names = map[string][]string{}
	}
	if _, ok := g.names[phrase]; !ok {
		g.order = append(g.order, phrase)
	}
	g.names[phrase] = append(g.names[phrase], string(sc))
}

// write writes "in the steady and peak scenarios<sep><phrase>" per phrase, separated by "; ".
func (g *noteGroups) write(b *strings.Builder, sep string) {
	for i, k := range g.order {
		if i > 0 {
			b.WriteString("; ")
		}
		scen := "scenario"
		if len(g.names[k]) > 1 {
			scen = "scenarios"
		}
		fmt.Fprintf(b, "in the %s %s%s%s", strings.Join(g.names[k], " and "), scen, sep, k)
	}
}

func triple(r Resources) string {
	return FormatCPU(r.CPUMillicores) + " / " + FormatBytes(r.MemoryBytes) + " / " + FormatCount(r.Pods)
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
