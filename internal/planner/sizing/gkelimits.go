package sizing

import (
	"fmt"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/resource"
)

// GKEMaxNodesPerZone is the most nodes a GKE node pool has in one zone: "Nodes per node pool zone: 1,000", a
// limit of the system, not a quota that can be raised (GKE "Quotas and limits",
// https://cloud.google.com/kubernetes-engine/quotas; overhead.md §8.8).
const GKEMaxNodesPerZone = 1000

// WarnGKEZonesUnknown: a GKE pool's maximum is above GKEMaxNodesPerZone and its zones are not given, so whether
// the cluster's locations give it enough zones is not known.
const WarnGKEZonesUnknown = "sizing.gke-zones-unknown"

// gkeZonesNeeded is how many zones a GKE node pool of n nodes needs (GKEMaxNodesPerZone).
func gkeZonesNeeded(n int) int { return (n + GKEMaxNodesPerZone - 1) / GKEMaxNodesPerZone }

// checkGKEZoneLimit checks GKE pool i's maximum of max nodes (planned says it follows from the plan, not the
// request) against GKEMaxNodesPerZone (GKEZoneLimit).
func (s *solve) checkGKEZoneLimit(i, max int, planned bool) {
	e, w := GKEZoneLimit(s.req.Pools[i], s.poolPath(i), max, planned)
	if e != nil {
		s.errs = append(s.errs, e)
	}
	if w != nil {
		s.warnings = append(s.warnings, *w)
	}
}

// GKEZoneLimit checks a GKE pool's maximum of max nodes (planned says it follows from the plan, not the request)
// against GKEMaxNodesPerZone, the pool at p: above it in all the pool's zones is an error on the maximum (on the
// zones when the maximum is planned: then too few zones are at fault); without zones, above one zone's limit
// warns, since the cluster's node locations, which the pool then takes, are not known here. Other clouds pass.
func GKEZoneLimit(rp Pool, p field.Path, max int, planned bool) (*field.Error, *field.Warning) {
	if rp.Cloud != catalog.GCP || max <= GKEMaxNodesPerZone {
		return nil, nil
	}
	nz := len(rp.Zones)
	need := gkeZonesNeeded(max)
	const rule = `GKE allows a node pool at most 1,000 nodes per zone ("Nodes per node pool zone: 1,000", GKE Quotas and limits)`
	switch {
	case nz == 0:
		return nil, &field.Warning{Code: WarnGKEZonesUnknown, Path: p.Child("MaxNodes"), Message: fmt.Sprintf(
			"pool %q: a maximum of %s nodes needs at least %d zones, since %s; its zones are not given, so it runs in the cluster's node locations, which are not known here: give the pool at least %d zones, or split the nodes over another node pool",
			rp.Name, resource.Group(int64(max)), need, rule, need)}
	case max > GKEMaxNodesPerZone*nz && planned:
		return field.Invalid(p.Child("Zones"), fmt.Sprint(nz),
			"pool %q: the plan needs a maximum of %s nodes, but in %s the pool holds at most %s, since %s; give the pool at least %d zones, or split the workloads over another node pool",
			rp.Name, resource.Group(int64(max)), zones(nz), resource.Group(int64(GKEMaxNodesPerZone*nz)), rule, need), nil
	case max > GKEMaxNodesPerZone*nz:
		return field.Invalid(p.Child("MaxNodes"), fmt.Sprint(max),
			"pool %q: a maximum of %s nodes is more than the pool holds in its %s, at most %s, since %s; give the pool at least %d zones, lower the maximum to %s, or split the nodes over another node pool",
			rp.Name, resource.Group(int64(max)), zones(nz), resource.Group(int64(GKEMaxNodesPerZone*nz)), rule, need, resource.Group(int64(GKEMaxNodesPerZone*nz))), nil
	}
	return nil, nil
}

// zones says "1 zone" or "n zones".
func zones(n int) string {
	if n == 1 {
		return "1 zone"
	}
	return fmt.Sprintf("%d zones", n)
}
