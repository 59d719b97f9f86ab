package selector

import (
	"context"
	"fmt"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/overhead"
)

// selectsInstanceType reports whether a DaemonSet or workload selects nodes by their instance type, so
// candidates of alike nodes still pack differently.
func selectsInstanceType(req *Request) bool {
	const label = "node.kubernetes.io/instance-type"
	names := func(sel map[string]string, terms []fit.NodeSelectorTerm) bool {
		if _, ok := sel[label]; ok {
			return true
		}
		for _, t := range terms {
			for _, e := range t.MatchExpressions {
				if e.Key == label {
					return true
				}
			}
		}
		return false
	}
	for _, d := range req.DaemonSets {
		if names(d.NodeSelector, d.NodeAffinity) {
			return true
		}
	}
	for _, w := range req.Workloads {
		if names(w.NodeSelector, w.NodeAffinity) {
			return true
		}
	}
	return false
}

// packerKey returns what the packer sees of a node of t: two candidates with the same key pack alike.
// A burstable type (its own credit budget), a type the node model cannot size, or any type when
// selectors name instance types, gets a key of its own.
func (r *Ranker) packerKey(ctx context.Context, req *Request, t catalog.InstanceType, pinned bool) (key string, res overhead.Result, modelled bool) {
	own := "type:" + t.Name
	in := req.Pool.Overhead
	in.Instance = overhead.InstanceFromCatalog(t)
	in.DaemonSets, in.SystemDaemonSets = nil, req.SystemDaemonSets
	if in.Profile == "" {
		in.Profile = overhead.DefaultProfile(req.Pool.Cloud)
	}
	res, err := overhead.Compute(in)
	if err != nil {
		return own, res, false
	}
	if pinned {
		return own, res, true
	}
	if b, ok, err := r.cat.CreditBudget(ctx, req.Pool.Cloud, t.Name); err != nil || (ok && b.Burstable()) {
		return own, res, true
	}
	a := res.Allocatable
	return fmt.Sprintf("node:%d/%d/%d/%d/%d/%d/%s/%d/%d", a.CPUMillicores, a.MemoryBytes, a.EphemeralStorageBytes, a.Pods,
		res.Available.Pods, res.MaxPods, t.Architecture, t.GPUCount, a.Volumes), res, true
}

// repath maps the sizing planner's paths onto Request's: Pools[<name>].X is Pool.X, and the instance
