package sizing

import (
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
)

// Node upgrade defaults, by cloud, as the node_upgrade disruption replays them (fit.Upgrade: MaxSurge nodes
// added, then MaxSurge + MaxUnavailable drained per batch).
//
//   - EKS managed node groups: updateConfig maxUnavailable defaults to 1 node (docs.aws.amazon.com/eks/latest/
//     userguide/managed-node-update-behavior.html, setup phase), and the scale-up phase adds "the larger of
//     either: up to twice the number of Availability Zones ... [or] the maximum unavailable of upgrade" before
//     nodes are drained maxUnavailable at a time. Only maxUnavailable of that surge is certain ("up to"), so
//     kubefit counts a surge of maxUnavailable and drains maxUnavailable per batch; EKS takes no max surge.
//   - AKS: maxSurge defaults to 10% of the pool, fractional nodes rounded up (Az.Aks MaxSurge: "If not
//     specified, the default is 10%"; learn.microsoft.com, NewOrUpdateAgentPoolBase.MaxSurge), maxUnavailable
//     to 0; AKS "cordons and drains as many nodes at the same time as the number of buffer nodes"
//     (upgrade-aks-node-pools-rolling). A max unavailable is taken only with a max surge of 0 ("maxSurge=0,
//     maxUnavailable=5: 5 existing nodes drained", learn.microsoft.com/azure/aks/upgrade-cluster; azurerm's
//     upgrade_settings declares max_surge ConflictsWith max_unavailable, "maxSurge must be set to "0" for
//     maxUnavailable to be set", hashicorp/terraform-provider-azurerm#30563, v4.53.0), so a pool that gives only
//     a max unavailable is planned with no surge, and one that gives both is refused. Spot pools take neither
//     ("Spot pools can't set max surge", "Spot pools can't set maxUnavailable": AKS's 400 responses quoted in
//     hashicorp/terraform-provider-azurerm#19355 and #31129); how AKS replaces their nodes is not documented,
//     so kubefit plans the safe side: one node drained at a time, none added first.
//   - GKE surge upgrades: maxSurge 1, maxUnavailable 0 by default (cloud.google.com/kubernetes-engine/docs/
//     concepts/node-pool-upgrade-strategies); "(maxUnavailable + maxSurge) determines the level of
//     parallelism" (google.container.v1.NodePool.UpgradeSettings).
//
// eksMaxUnavailable is the most an EKS managed node group's max unavailable may be, as a count or a percentage.
const eksMaxUnavailable = 100

var (
	eksDefaultMaxUnavailable = fit.IntOrPercent{Value: 1}
	aksDefaultMaxSurge       = fit.IntOrPercent{Value: 10, Percent: true}
	aksSpotMaxUnavailable    = fit.IntOrPercent{Value: 1}
	gkeDefaultMaxSurge       = fit.IntOrPercent{Value: 1}
)

// upgrade resolves pool i's upgrade settings against its cloud's defaults and semantics.
func (s *solve) upgrade(i int) fit.Upgrade {
	rp := &s.req.Pools[i]
	var u fit.Upgrade
	switch rp.Cloud {
	case catalog.AWS:
		if rp.UpgradeMaxSurge != nil {
			s.errs = append(s.errs, field.Invalid(s.poolPath(i).Child("UpgradeMaxSurge"), rp.UpgradeMaxSurge.String(),
				"pool %q: an EKS managed node group takes no max surge (EKS adds up to twice its zones' count of nodes, at least its max unavailable); set its max unavailable only", rp.Name))
		}
		u.MaxSurge = eksDefaultMaxUnavailable
		if v := rp.UpgradeMaxUnavailable; v != nil {
			u.MaxSurge = *v
			if v.Value < 1 || v.Value > eksMaxUnavailable {
				// aws_eks_node_group's update_config: max_unavailable and max_unavailable_percentage are both
				// validation.IntBetween(1, 100) (hashicorp/terraform-provider-aws internal/service/eks/node_group.go).
				s.errs = append(s.errs, field.Invalid(s.poolPath(i).Child("UpgradeMaxUnavailable"), v.String(),
					"pool %q: an EKS managed node group's max unavailable is 1 to 100 nodes or 1%% to 100%% (aws_eks_node_group update_config); give a value within that", rp.Name))
			}
		}
	case catalog.Azure:
		if rp.CapacityType == fit.CapacitySpot {
			for _, f := range []struct {
				name, what, aks string
				v               *fit.IntOrPercent
			}{{"UpgradeMaxSurge", "max surge", "max surge", rp.UpgradeMaxSurge}, {"UpgradeMaxUnavailable", "max unavailable", "maxUnavailable", rp.UpgradeMaxUnavailable}} {
				if f.v != nil {
					s.errs = append(s.errs, field.Invalid(s.poolPath(i).Child(f.name), f.v.String(),
						"pool %q is an AKS Spot pool, and AKS refuses an upgrade %s on one (\"Spot pools can't set %s\"); leave it unset (kubefit plans its upgrades one node at a time, none added first)", rp.Name, f.what, f.aks))
				}
			}
			return fit.Upgrade{MaxUnavailable: aksSpotMaxUnavailable}
		}
		u.MaxSurge = aksDefaultMaxSurge
		if rp.UpgradeMaxSurge != nil {
			u.MaxSurge = *rp.UpgradeMaxSurge
		}
		if v := rp.UpgradeMaxUnavailable; v != nil {
			u.MaxUnavailable = *v
			if rp.UpgradeMaxSurge == nil {
				u.MaxSurge = fit.IntOrPercent{} // AKS drains a max unavailable only without surge
			} else if rp.UpgradeMaxSurge.Value != 0 && v.Value != 0 {
				s.errs = append(s.errs, field.Invalid(s.poolPath(i).Child("UpgradeMaxUnavailable"), v.String(),
					"pool %q: AKS takes a max unavailable only with a max surge of 0 (azurerm_kubernetes_cluster_node_pool's upgrade_settings take one of max_surge and max_unavailable), and the pool also sets a max surge of %s; keep one of them",
					rp.Name, rp.UpgradeMaxSurge.String()))
			}
		}
	default:
		u.MaxSurge = gkeDefaultMaxSurge
		if rp.UpgradeMaxSurge != nil {
			u.MaxSurge = *rp.UpgradeMaxSurge
		}
		if rp.UpgradeMaxUnavailable != nil {
			u.MaxUnavailable = *rp.UpgradeMaxUnavailable
		}
		if rp.Cloud == catalog.GCP {
			for _, f := range []struct {
				name string
				v    *fit.IntOrPercent
			}{{"UpgradeMaxSurge", rp.UpgradeMaxSurge}, {"UpgradeMaxUnavailable", rp.UpgradeMaxUnavailable}} {
				if f.v != nil && f.v.Percent {
					s.errs = append(s.errs, field.Invalid(s.poolPath(i).Child(f.name), f.v.String(),
						"pool %q: GKE's surge upgrade settings are node counts, not percentages; give a count", rp.Name))
				}
			}
		}
	}
	if rp.Cloud != catalog.AWS {
		for _, f := range []struct {
			name, what string
			v          *fit.IntOrPercent
		}{{"UpgradeMaxSurge", "max surge", rp.UpgradeMaxSurge}, {"UpgradeMaxUnavailable", "max unavailable", rp.UpgradeMaxUnavailable}} {
			if f.v != nil && (f.v.Value < 0 || f.v.Percent && f.v.Value > 100) && !(rp.Cloud == catalog.GCP && f.v.Percent) { // GCP: refused above as a percentage
				s.errs = append(s.errs, field.Invalid(s.poolPath(i).Child(f.name), f.v.String(),
					"pool %q: an upgrade's %s %s is not a node count of 0 or more or a percentage of 0%% to 100%%; give one", rp.Name, f.what, f.v.String()))
			}
		}
	}
	if rp.Cloud != catalog.AWS && u.MaxSurge.Value == 0 && u.MaxUnavailable.Value == 0 { // AWS: refused above
		s.errs = append(s.errs, field.Invalid(s.poolPath(i).Child("UpgradeMaxUnavailable"), "0",
			"pool %q: its node upgrade would replace no node at a time (max surge and max unavailable both 0); give one of them above 0", rp.Name))
	}
	return u
}
