package overhead

import (
	"fmt"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
)

const (
	mi = int64(1) << 20
	gi = int64(1) << 30

	defaultVMOverheadBP = 750
	arm64CMAMiB         = 64
)

// Compute evaluates the model for one node. It returns field.Errors (paths in Input's field names) when the
// input is invalid, or a *field.Error when the input leaves the node unable to run anything. Compute is pure
// and deterministic.
//
// The evaluation order is: max pods (which the memory reservation may depend on), capacity, the profile's
// reservations and then the user's overrides key by key, allocatable, and finally DaemonSets.
func Compute(in Input) (Result, error) {
	if errs := validate(&in); len(errs) > 0 {
		return Result{}, errs
	}
	c := &calc{in: in, res: Result{Profile: in.Profile}}
	if in.Profile.isEKS() {
		c.res.NodeGroupKind = in.EKS.Kind
	}
	c.maxPods()
	if err := c.capacity(); err != nil {
		return Result{}, err
	}
	if err := c.reservations(); err != nil {
		return Result{}, err
	}
	if err := c.allocatable(); err != nil {
		return Result{}, err
	}
	c.volumes()
	c.daemonSets()
	c.evidence()
	c.res.KubeletArgs = kubeletArgs(c.res)
	return c.res, nil
}

type calc struct {
	in  Input
	res Result
	// diskBytes is the root/OS disk's size, which GKE's ephemeral reservation is taken of (the measured
	// capacity when one is given without a disk size).
	diskBytes int64
	pENI      int64  // P_ENI for EKS
	podP      int64  // the P of memory.eks-per-pod
	podPWhy   string // why podP, when a rule other than describeP's set it
}

func (c *calc) term(name, unit string, v int64, formula, detail string) {
	c.res.Terms = append(c.res.Terms, Term{Name: name, Value: v, Unit: unit, Formula: formula, Detail: detail})
}

func (c *calc) warn(code string, p field.Path, format string, args ...any) {
	c.res.Warnings = append(c.res.Warnings, field.Warning{Code: code, Path: p, Message: fmt.Sprintf(format, args...)})
}

func contains[T comparable](xs []T, x T) bool {
	for _, y := range xs {
		if x == y {
			return true
		}
	}
	return false
}

func clip(x, lo, hi int64) int64 { return min(max(x, lo), hi) }

// mulDivCeil returns ⌈a × n / d⌉ for 0 ≤ a, 0 ≤ n < 2^31 and 0 < d < 2^31 without overflowing int64 (a disk of
// the largest size validate takes, times a ratio in parts per million, would).
func mulDivCeil(a, n, d int64) int64 {
	q, r := a/d, a%d
	return q*n + (r*n+d-1)/d
}
