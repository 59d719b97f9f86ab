package sizing

import (
	"fmt"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/disk"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
)

// WarnDiskTypeUnchecked: a claim's disk type lands on a GCP pool whose machine series kubefit's table has no
// source for (disks.md §6.1), so whether the node attaches it is not checked.
const WarnDiskTypeUnchecked = "sizing.disk-type-unchecked"

// checkDiskTypes checks the disk type of every attachable claim that gives one against the machine series of
// each GCP pool its workload's pods land on, in any scenario (disks.md §6.1): an error when the series cannot
// attach it (the pods would stay in ContainerCreating), a warning when the table has no source. Every member
// of a mixed pool is checked, since the autoscaler may launch any of them.
func (s *solve) checkDiskTypes(res fit.Result) {
	pools := make(map[string]int, len(s.pools))
	for k, pp := range s.pools {
		pools[pp.Name] = k
	}
	for i := range s.req.Workloads {
		w := &s.req.Workloads[i]
		for j, c := range w.VolumeClaims {
			if c.DiskType == "" || !c.Attachable() {
				continue
			}
			at := field.NewPath("Workloads").At(i).Child("VolumeClaims").At(j).Child("DiskType")
			checked := map[string]bool{}
			for _, sc := range res.Scenarios {
				if i >= len(sc.Placements) || sc.Placements[i].Workload != w.Name {
					continue
				}
				for _, pp := range sc.Placements[i].Pools {
					k, ok := pools[pp.Pool]
					if !ok {
						continue
					}
					for _, it := range s.poolMembers(k) {
						if checked[it.Name] || it.Cloud != catalog.GCP {
							continue
						}
						checked[it.Name] = true
						s.claimDiskType(w, c, at, s.pools[k].Name, it)
					}
				}
			}
		}
	}
}

// poolMembers are the instance types of pool k: its members, or the one type planned on.
func (s *solve) poolMembers(k int) []catalog.InstanceType {
	if m := s.pools[k].Members; len(m) > 0 {
		return m
	}
	return []catalog.InstanceType{s.pools[k].Instance}
}

// claimDiskType reports claim c of workload w on pool's machine type it.
func (s *solve) claimDiskType(w *Workload, c fit.VolumeClaim, at field.Path, pool string, it catalog.InstanceType) {
	f := disk.CheckGCPMachineDisk(it, c.DiskType, at)
	if f == nil {
		return
	}
	msg := fmt.Sprintf("workload %q's claim %q (%s) lands on pool %q: %s", w.Name, c.Name, c.DiskType, pool, f.Message)
	if f.Severity == disk.SeverityWarning {
		s.warnings = append(s.warnings, field.Warning{Code: WarnDiskTypeUnchecked, Path: at, Message: msg})
		return
	}
	s.errs = append(s.errs, field.Invalid(at, c.DiskType, "%s; or keep the workload off pool %q (pools, node selector)", msg, pool))
}
