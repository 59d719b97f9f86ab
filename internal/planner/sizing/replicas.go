package sizing

import (
	"fmt"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
)

// ReplicaCountErrors checks how a workload named name gives its replica count, at paths below p: a fixed
// count (replicas) or an autoscaling range (minimum and maximum), not both and not neither, and a minimum no
// greater than the maximum. It is the one rule for every object that takes workloads; callers that know the
// counts before planning (a configuration being validated) run it on what they know.
func ReplicaCountErrors(p field.Path, name string, replicas, minR, maxR *int) field.Errors {
	switch {
	case replicas != nil && (minR != nil || maxR != nil):
		return field.Errors{field.Invalid(p.Child("Replicas"), fmt.Sprint(*replicas),
			"workload %q gives both a fixed replica count (%d) and an autoscaling range; give one or the other", name, *replicas)}
	case replicas == nil && minR == nil && maxR == nil:
		return field.Errors{field.Invalid(p.Child("Replicas"), "",
			"workload %q gives no replica count; give a fixed count, or a minimum and maximum for an autoscaled workload", name)}
	case minR != nil && maxR != nil && *minR > *maxR:
		return field.Errors{field.Invalid(p.Child("MinReplicas"), fmt.Sprint(*minR),
			"the minimum replica count %d of workload %q is greater than its maximum replica count %d (min > max); lower the minimum or raise the maximum",
			*minR, name, *maxR)}
	}
	return nil
}

// UndefinedPoolError is the error for a workload named name that may use pool, which is not one of
// defined, at p.
func UndefinedPoolError(p field.Path, name, pool string, defined []string) *field.Error {
	return field.Invalid(p, pool, "workload %q may use pool %s, which is not defined; defined pools: %s", name, field.Quote(pool), field.QuoteList(defined))
}
