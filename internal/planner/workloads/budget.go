package workloads

import (
	"strconv"
	"strings"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
)

// Budget returns the PodDisruptionBudget as the planner takes it (fit.DisruptionBudget); nil for a nil budget.
// A value that is neither a count nor a percentage (the API server refuses it) is left out.
func (b *DisruptionBudget) Budget() *fit.DisruptionBudget {
	if b == nil {
		return nil
	}
	return &fit.DisruptionBudget{Name: b.Name, MinAvailable: intOrPercent(b.MinAvailable), MaxUnavailable: intOrPercent(b.MaxUnavailable)}
}

func intOrPercent(s string) *fit.IntOrPercent {
	if s == "" {
		return nil
	}
	pct := strings.HasSuffix(s, "%")
	n, err := strconv.Atoi(strings.TrimSuffix(s, "%"))
	if err != nil || n < 0 {
		return nil
	}
	return &fit.IntOrPercent{Value: n, Percent: pct}
}
