package sizing

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/disk"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
)

// WarnDiskTypeUnchecked: a claim's disk type lands on a GCP pool whose machine series kubefit's table has no
// source for (disks.md §6.1), so whether the node attaches it is not checked.
const WarnDiskTypeUnchecked = "sizing.disk-type-unchecked"

// checkDiskTypes checks the disk type of every attachable claim that gives one against the machine series of
// each GCP pool its workload's pods may use (its pool list, selector, tolerations and affinity admit them) or
// land on in any scenario (disks.md §6.1): one error per claim naming every such pool whose series cannot attach
// it (the pods would stay in ContainerCreating), with the pools that can as the remedy, and a warning per
// machine type the table has no source for. Every member of a mixed pool is checked, since the autoscaler may
// launch any of them.
func (s *solve) checkDiskTypes(res fit.Result) {
	for i := range s.req.Workloads {
		w := &s.req.Workloads[i]
		for j, c := range w.VolumeClaims {
			if c.DiskType == "" || !c.Attachable() {
				continue
			}
			at := field.NewPath("Workloads").At(i).Child("VolumeClaims").At(j).Child("DiskType")
			var bad, good []string // pool names
			var why []string
			checked := map[string]*disk.Finding{}
			for _, k := range s.claimPools(res, i) {
				poolOK := true
				for _, it := range s.poolMembers(k) {
					if it.Cloud != catalog.GCP {
						continue
					}
					f, seen := checked[it.Name]
					if !seen {
						f = disk.CheckGCPMachineDisk(it, c.DiskType, at)
						checked[it.Name] = f
						if f != nil && f.Severity == disk.SeverityWarning {
							s.warnings = append(s.warnings, field.Warning{Code: WarnDiskTypeUnchecked, Path: at, Message: fmt.Sprintf(
								"workload %q's claim %q (%s) can land on pool %q: %s", w.Name, c.Name, c.DiskType, s.pools[k].Name, f.Message)})
						}
					}
					switch {
					case f == nil:
					case f.Severity == disk.SeverityWarning:
						poolOK = false // unknown: neither a failure nor a remedy
					default:
						poolOK = false
						why = append(why, fmt.Sprintf("pool %q: %s", s.pools[k].Name, f.Message))
						if !slices.Contains(bad, s.pools[k].Name) {
							bad = append(bad, s.pools[k].Name)
						}
					}
				}
				if poolOK && s.pools[k].Instance.Cloud == catalog.GCP {
					good = append(good, s.pools[k].Name)
				}
			}
			if len(bad) == 0 {
				continue
			}
			remedy := fmt.Sprintf("no other pool the workload may use attaches %s: use a disk type those machine types attach, "+
				"or let the workload use a pool whose machine series attaches it", c.DiskType)
			if len(good) > 0 {
				remedy = fmt.Sprintf("or keep the workload off %s (pools, node selector), on %s, which attach%s %s",
					poolList(bad), poolList(good), map[bool]string{true: "es", false: ""}[len(good) == 1], c.DiskType)
			}
			s.errs = append(s.errs, field.Invalid(at, c.DiskType, "workload %q's claim %q (%s) can land on %s, whose machine types cannot attach it: %s; %s",
				w.Name, c.Name, c.DiskType, poolList(bad), strings.Join(why, "; "), remedy))
		}
	}
}

// poolList names pools: `pool "a"`, `pools "a" and "b"`.
func poolList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = strconv.Quote(n)
	}
	if len(q) == 1 {
		return "pool " + q[0]
	}
	return "pools " + field.JoinAnd(q)
}

// claimPools are the indexes of the pools workload i's pods may use (fit.WorkloadMayUse on the packed input)
// or land on in some scenario, in pool order.
func (s *solve) claimPools(res fit.Result, i int) []int {
	name := s.req.Workloads[i].Name
	var out []int
	for k := range s.pools {
		use := k < len(s.packed.Pools) && i < len(s.packed.Workloads) && fit.WorkloadMayUse(&s.packed.Workloads[i], &s.packed.Pools[k])
		for _, sc := range res.Scenarios {
			if use || i >= len(sc.Placements) || sc.Placements[i].Workload != name {
				continue
			}
			for _, pp := range sc.Placements[i].Pools {
				use = use || pp.Pool == s.pools[k].Name
			}
		}
		if use {
			out = append(out, k)
		}
	}
	return out
}

// poolMembers are the instance types of pool k: its members, or the one type planned on.
func (s *solve) poolMembers(k int) []catalog.InstanceType {
	if m := s.pools[k].Members; len(m) > 0 {
		return m
	}
	return []catalog.InstanceType{s.pools[k].Instance}
}
