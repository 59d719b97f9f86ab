package sizing

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/burst"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/overhead"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/resource"
)

// creditRemedies names, with their figures, what would keep pool i's busiest node within its credits: the
// node count at which the expected use, spread evenly, stays within the sustained capacity (the scheduler
// does not spread it exactly evenly, so this is a lower bound); in standard mode, what unlimited mode would
// cost at this load; and the smallest fixed-performance type of the catalog that holds the busiest node's
// load (burst.md §4.8, §4.10).
func (s *solve) creditRemedies(i int, pp *PoolPlan) string {
	c := pp.Credits
	r := c.Result
	var parts []string
	var total int64
	for _, m := range c.NodeMillicores {
		total += m
	}
	if sustained := r.SustainedMillicores; sustained > 0 && total > 0 {
		switch n, ds, ok := s.spreadNodes(pp, sustained); {
		case !ok:
			parts = append(parts, fmt.Sprintf("no node count helps: one pod's expected use and the DaemonSets' %dm exceed the %dm a node sustains", ds, sustained))
		default:
			parts = append(parts, fmt.Sprintf("spread the %dm of expected use over at least %d nodes of %dm sustained each (the pods whole, beside "+
				"the DaemonSets' %dm on every node; a higher minimum node count)", total, n, sustained, ds))
		}
	}
	if r.Mode == burst.Standard && r.Budget.HasCredits() {
		b, _, _ := s.cat.CreditBudget(s.ctx, s.req.Pools[i].Cloud, pp.Instance.Name)
		if u, err := burst.Evaluate(b, burst.Input{Load: burst.Load{SustainedMillicores: c.BusiestNodeMillicores}, Mode: burst.Unlimited,
			MinHours: burst.DefaultMinHours}); err == nil && u.SurplusCostPerMonth > 0 {
			parts = append(parts, fmt.Sprintf("run it in unlimited mode, which at this load bills about $%.2f per node and month in surplus credits (the busiest node's)",
				u.SurplusCostPerMonth))
		}
	}
	if alt := s.fixedAlternative(i, pp); alt != "" {
		parts = append(parts, "or "+alt)
	} else {
		parts = append(parts, "or move the steadily busy pods to a pool of a fixed-performance type")
	}
	return " Remedies: " + strings.Join(parts, "; ") + "."
}

// spreadNodes is the fewest nodes over which pool pp's steady pods keep every node's expected CPU use within
// sustained: the pods whole, packed first-fit by decreasing use beside the DaemonSets' use every node carries (ds,
// the busiest node's use less its pods'). ok is false when one pod does not fit a node beside them. The load can be
// spread that way; the scheduler, which places by requests, may need more (the count was total ÷ sustained before,
// which neither whole pods nor each node's DaemonSets respect: following it left the busiest node throttled).
func (s *solve) spreadNodes(pp *PoolPlan, sustained int64) (n int, ds int64, ok bool) {
	use := map[string]int64{}
	for _, w := range s.req.Workloads {
		use[w.Name] = w.CPUUsageMillicores
	}
	var pods []int64
	for j, nd := range pp.Steady.Nodes {
		var own int64
		for _, wp := range nd.Workloads {
			for range wp.Pods {
				pods = append(pods, use[wp.Workload])
			}
			own += int64(wp.Pods) * use[wp.Workload]
		}
		if j == 0 || nd.CPUUsageMillicores-own > ds {
			ds = nd.CPUUsageMillicores - own
		}
	}
	room := sustained - ds
	slices.SortFunc(pods, func(a, b int64) int { return cmp.Compare(b, a) })
	var bins []int64
	for _, u := range pods {
		if u > room {
			return 0, ds, false
		}
		placed := false
		for k := range bins {
			if bins[k]+u <= room {
				bins[k] += u
				placed = true
				break
			}
		}
		if !placed {
			bins = append(bins, u)
		}
	}
	return max(len(bins), 1), ds, true
}

// fixedAlternative names the smallest fixed-performance type (fewest vCPUs, then lowest price, then least
// memory) of pool i's cloud catalog, of the pool's architecture and with a listed price, one node of which
// holds the busiest node's load: its expected CPU use within the type's allocatable CPU (a fixed-performance
// type delivers every vCPU indefinitely, burst.md §4.8), and the requests of its pods within the workload
// allocatable left beside the pool's DaemonSets, under the pool's overhead settings. "" when the plan lists no
// nodes or no type qualifies.
func (s *solve) fixedAlternative(i int, pp *PoolPlan) string {
	busiest, ok := busiestNode(pp)
	if !ok {
		return ""
	}
	rp := &s.req.Pools[i]
	types, err := s.cat.InstanceTypes(s.ctx, rp.Cloud)
	if err != nil {
		return ""
	}
	// What fit takes from a node's allocatable before workloads (the DaemonSets, system pods' slots) is the
	// same on any type of the pool's profile.
	beside := pp.Overhead.Allocatable.Sub(pp.WorkloadAllocatable)
	var found []catalog.InstanceType
	var alloc []resource.List
	for _, it := range types {
		if it.SustainedBelowVCPUs() || it.Architecture != pp.Instance.Architecture || it.PriceUSDPerHour <= 0 ||
			(it.GPUCount > 0 && busiest.Requests.GPU == 0) {
			continue
		}
		if b, ok, err := s.cat.CreditBudget(s.ctx, rp.Cloud, it.Name); err != nil || (ok && b.Burstable()) {
			continue
		}
		oin := rp.Overhead
		oin.Instance, oin.DaemonSets = overhead.InstanceFromCatalog(it), nil
		oin.MeasuredAllocatable, oin.MeasuredCapacity = overhead.MeasuredAllocatable{}, overhead.Reservation{}
		if oin.Profile == "" {
			oin.Profile = overhead.DefaultProfile(rp.Cloud)
		}
		or, err := overhead.Compute(oin)
		if err != nil || or.Allocatable.CPUMillicores < busiest.CPUUsageMillicores || !within(busiest.Requests, or.Allocatable.Sub(beside)) {
			continue
		}
		found, alloc = append(found, it), append(alloc, or.Allocatable)
	}
	if len(found) == 0 {
		return ""
	}
	k := 0
	for j := range found {
		if smaller(found[j], found[k]) {
			k = j
		}
	}
	it, a := found[k], alloc[k]
	req := busiest.Requests
	return fmt.Sprintf("use %s, the smallest fixed-performance type (fewest vCPUs, then lowest price) of the %s catalog (%s) that holds the busiest node's load: "+
		"%d vCPU and %s, %s allocatable CPU for the %s of expected use, and room for its %d pods' requests (%s CPU, %s memory) "+
		"beside the pool's DaemonSets; $%s per hour (%s, %s) against $%s for %s",
		it.Name, rp.Cloud, it.Architecture, it.VCPU, fit.FormatBytes(it.MemoryMiB<<20), fit.FormatCPU(a.CPUMillicores),
		fit.FormatCPU(busiest.CPUUsageMillicores), busiest.Pods, fit.FormatCPU(req.CPUMillicores), fit.FormatBytes(req.MemoryBytes),
		price(it.PriceUSDPerHour), it.PriceRegion, it.PriceDate, price(pp.Instance.PriceUSDPerHour), pp.Instance.Name)
}

// busiestNode returns the node of pool pp's steady packing with the largest expected CPU use (the first of
// equals); false when the plan lists no nodes.
func busiestNode(pp *PoolPlan) (fit.NodeUsage, bool) {
	nodes := pp.Steady.Nodes
	if len(nodes) == 0 {
		return fit.NodeUsage{}, false
	}
	k := 0
	for j, n := range nodes {
		if n.CPUUsageMillicores > nodes[k].CPUUsageMillicores {
			k = j
		}
	}
	return nodes[k], true
}

// within reports whether every amount of need is at most have's.
func within(need, have resource.List) bool {
	for _, n := range resource.Names {
		if need.Get(n) > have.Get(n) {
			return false
		}
	}
	return true
}

// smaller orders instance types by vCPUs, then price, then memory, then name: of the types with the fewest
// vCPUs that hold a load, the cheapest.
func smaller(a, b catalog.InstanceType) bool {
	return cmp.Or(cmp.Compare(a.VCPU, b.VCPU), cmp.Compare(a.PriceUSDPerHour, b.PriceUSDPerHour), cmp.Compare(a.MemoryMiB, b.MemoryMiB),
		strings.Compare(a.Name, b.Name)) < 0
}

func price(p float64) string {
	if p <= 0 {
		return "unknown"
	}
	return strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.4f", p), "0"), ".")
}
