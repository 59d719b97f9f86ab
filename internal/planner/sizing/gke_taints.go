package sizing

import (
	"slices"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
)

// GKE's own taints on a Standard cluster's nodes (GKEArmTaint, GKEGPUTaint) and the tolerations its admission gives
// the pods that ask for those nodes.

// gkeTaints adds to a GKE pool's taints the ones GKE puts on its nodes: the Arm taint on arm64 nodes, and the GPU
// taint when any member has GPUs (a node may be that member). GKE puts the GPU taint on when the cluster has a pool
// without GPUs; the other pools are not known here, so it is planned always, with a note. Other clouds pass.
func gkeTaints(rp *Pool, members []catalog.InstanceType, arch string, taints []fit.Taint, notes []string) ([]fit.Taint, []string) {
	if rp.Cloud != catalog.GCP {
		return taints, notes
	}
	if arch == "arm64" {
		taints = withTaint(taints, GKEArmTaint)
	}
	if slices.ContainsFunc(members, func(m catalog.InstanceType) bool { return m.GPUCount > 0 }) {
		taints = withTaint(taints, GKEGPUTaint)
		notes = append(notes, GKEGPUTaintNote)
	}
	return taints, notes
}

func withTaint(taints []fit.Taint, t fit.Taint) []fit.Taint {
	if slices.Contains(taints, t) {
		return taints
	}
	return append(slices.Clip(taints), t)
}

// withToleration is tolerations with t added, unless it is there already; the caller's slice is not written to.
func withToleration(tolerations []fit.Toleration, t fit.Toleration) []fit.Toleration {
	if slices.Contains(tolerations, t) {
		return tolerations
	}
	return append(slices.Clip(tolerations), t)
}

// gkeArmToleration returns tolerations with GKEArmTaint's toleration added when the pod asks for arm64
// nodes, as GKE's admission adds it: a node selector kubernetes.io/arch=arm64, or a required node affinity
// every term of which admits arm64 only. A pod that admits both architectures gets none, as on GKE (its
// multi-architecture image needs the toleration written). Elsewhere no node carries the taint, so the
// toleration changes nothing.
func gkeArmToleration(selector map[string]string, affinity []fit.NodeSelectorTerm, tolerations []fit.Toleration) []fit.Toleration {
	key := GKEArmTaint.Key
	asks := selector[key] == GKEArmTaint.Value
	if !asks && len(affinity) > 0 {
		asks = true
		for _, t := range affinity {
			armOnly := false
			for _, e := range t.MatchExpressions {
				armOnly = armOnly || e.Key == key && e.Operator == fit.NodeIn && len(e.Values) == 1 && e.Values[0] == GKEArmTaint.Value
			}
			asks = asks && armOnly
		}
	}
	if !asks {
		return tolerations
	}
	return withToleration(tolerations, fit.Toleration{Key: key, Operator: fit.OperatorEqual, Value: GKEArmTaint.Value, Effect: fit.EffectNoSchedule})
}
