package nodegroup

import (
	"fmt"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
)

// WarnOneSizePool: a mixed Azure or GCP group, whose node pool runs one VM size or machine type: the pool is
// rendered with the member it was planned on, and the other members are in no rendered shape.
const WarnOneSizePool = "nodegroup.one-size-pool"

// oneSizeWarnings says which member a mixed AKS or GKE group's pool is rendered with: an AKS node pool has one
// vm_size and a GKE node pool one node_config.machine_type, so the group becomes a pool of the member it was planned
// on (the smallest), and the other members are dropped from the rendered pool.
func oneSizeWarnings(req Request, r *Result) []field.Warning {
	if len(r.Pool.Members) < 2 {
		return nil
	}
	what := "an AKS node pool runs one VM size"
	if req.Pool.Cloud == catalog.GCP {
		what = "a GKE node pool runs one machine type"
	}
	var others []string
	for _, m := range r.Pool.Members {
		if m.Name != r.Pool.Instance.Name {
			others = append(others, field.Quote(m.Name))
		}
	}
	return []field.Warning{{Code: WarnOneSizePool, Path: field.NewPath("InstanceTypes"), Message: fmt.Sprintf(
		"node group %q lists %d instance types, but %s: its pool is rendered with %s, the member it was planned on, and %s %s in no rendered pool; to run them, give each its own node group",
		req.Pool.Name, len(r.Pool.Members), what, field.Quote(r.Pool.Instance.Name), field.JoinAnd(others), isAre(len(others)))}}
}

func isAre(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}
