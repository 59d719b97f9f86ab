package sizing

import (
	"slices"
	"strings"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/burst"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/overhead"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/resource"
)

// Plan is the answer to a Request.
type Plan struct {
	// Fits is true when every pod fits in both scenarios and no burstable pool runs out of CPU credits.
	Fits bool
	// Pools holds one entry per requested pool, in request order.
	Pools []PoolPlan
	// Workloads holds one entry per workload, in request order.
	Workloads []WorkloadPlan
	// Failures lists every misfit: the packer's in its order (pool-level first, then per scenario,
	// workload and pool), then the credit failures in pool order.
	Failures []Failure
	// Warnings are caveats in pool order (overhead-model caveats, credits above baseline, defaults
	// applied).
	Warnings []field.Warning
	// Blame names, when pods do not fit for lack of capacity, the workloads to blame under the blame rule
	// (see Blame), in list order; nil when everything fits or the request is above MaxBlamePods.
	Blame []Blame
	// Notes are the explanations the plan gives once, however many failures or warnings they concern: why
	// Kubernetes cannot see a credit shortfall, how the scheduler model placed the pods. The failures' messages
	// leave them out; Misfits appends each to the first misfit it concerns, and the report lists each once.
	Notes []Note
	// Report is a fixed-width text table of the results.
	Report string
	// Packing is the packer's whole result, for callers that need more than the fields above.
	Packing fit.Result
}

// PoolPlan is one pool's node model and packings.
type PoolPlan struct {
	Name string
	// Instance is the catalog row planned on: the pool's type, or a mixed pool's smallest member.
	Instance catalog.InstanceType
	// Members are the catalog rows of every instance type of the pool, in request order.
	Members []catalog.InstanceType
	// Note says which member of a mixed pool was planned on, which system DaemonSets of the platform were
	// counted, which a listed DaemonSet of the same name replaced and which it left (it does not land on the
	// pool), or why none is counted (Windows, EKS Auto Mode); "" for a single type when only the listed
	// DaemonSets count.
	Note string
	// Overhead is the overhead model's result for one node of Instance, without the request's DaemonSets: its
	// DaemonSetOverhead and Available count the platform's whole system set (Result.SystemDaemonSets) when
	// Request.SystemDaemonSets counts it, none otherwise.
	Overhead overhead.Result
	// SystemDaemonSets are the platform's system DaemonSets Solve adds to the pool: Overhead.SystemDaemonSets
	// less those a DaemonSet of the request of the same name replaces, one that lands on the pool's nodes (its
	// selector, affinity and tolerations admit them). They are among DaemonSets, and Note names them.
	SystemDaemonSets []fit.DaemonSet
	// LargestCapacity is, per resource, the largest capacity of a node of any member (Overhead.Capacity for a
	// single type): what a node of the pool may count towards a capacity limit such as a Karpenter NodePool's.
	LargestCapacity resource.List
	MinNodes        int
	MaxNodes        int
	// Allocatable is one node's allocatable as packed (pods: the slots workloads and DaemonSets may use);
	// WorkloadAllocatable is what remains for workloads after the pool's DaemonSets.
	Allocatable         fit.Resources
	WorkloadAllocatable fit.Resources
	// DaemonSets names the DaemonSets that land on the pool.
	DaemonSets []string
	// Steady and Peak are the pool's packings, down to the pods of each workload on each node.
	Steady fit.PoolResult
	Peak   fit.PoolResult
	// Credits is the CPU credit check of a burstable pool; nil for a fixed-performance type.
	Credits *CreditCheck
}

// CreditCheck is a burstable pool's steady-scenario busiest node against its CPU credit budget.
type CreditCheck struct {
	// BusiestNodeMillicores is the largest expected CPU use of one node (DaemonSets' and pods' usage).
	BusiestNodeMillicores int64
	// NodeMillicores is the expected CPU use of every node, in node order.
	NodeMillicores []int64
	Result         burst.Result
	// SurplusCostPerMonth is what the steady scenario's nodes pay for surplus credits in unlimited mode each month,
	// each node at its own expected use (Result.SurplusCostPerMonth is the busiest node's), or every node at the
	// busiest one's when the plan lists no nodes (Planner.WithoutNodes); 0 in standard mode.
	SurplusCostPerMonth float64
}

// WorkloadPlan is where one workload's pods went.
type WorkloadPlan struct {
	Name string
	// SteadyReplicas and PeakReplicas are the pod counts of the two scenarios (peak includes surge).
	SteadyReplicas int
	PeakReplicas   int
	Steady         fit.Placement
	Peak           fit.Placement
	// Headroom is how many more replicas of this workload alone fit in the peak packing.
	Headroom int64
}

// Reason says why something does not fit: a packer reason (fit.Reasons) or ReasonCredits.
type Reason string

// ReasonCredits: a burstable pool's busiest node runs out of CPU credits (or over its surplus-cost limit).
const ReasonCredits Reason = "burst-credits"

// Reasons lists every failure reason.
var Reasons = func() []Reason {
	out := make([]Reason, 0, len(fit.Reasons)+1)
	for _, r := range fit.Reasons {
		out = append(out, Reason(r))
	}
	return append(out, ReasonCredits)
}()

// Failure is one misfit.
type Failure struct {
	// Workload is empty for a pool-level failure.
	Workload string
	Pool     string
	// Scenario is empty when the failure does not depend on the scenario.
	Scenario fit.Scenario
	Reason   Reason
	Message  string
}

// Note is an explanation a plan gives once.
type Note struct {
	// Reasons are the failure reasons the note explains.
	Reasons []Reason
	Text    string
}

// schedulerReasons are the failures whose pods the scheduler model placed: fit.SchedulerNote explains them.
var schedulerReasons = []Reason{Reason(fit.ReasonMaxNodes), Reason(fit.ReasonSpread), Reason(fit.ReasonHostPort),
	Reason(fit.ReasonPodAffinity)}

// addNote adds n unless the plan already gives its text or the text is empty.
func (p *Plan) addNote(n Note) {
	if n.Text != "" && !p.hasNote(n.Text) {
		p.Notes = append(p.Notes, n)
	}
}

func (p *Plan) hasNote(text string) bool {
	return slices.ContainsFunc(p.Notes, func(n Note) bool { return n.Text == text })
}

// Misfits returns the failures worth telling a person: one per pool that lacks capacity (naming the
// workloads blamed under the blame rule, the shortfall, and the largest replica counts that fit), then the
// others once per workload, pool and reason (the peak scenario often repeats the steady one), in the order
// of Failures. Each of the plan's Notes is appended to the first misfit it concerns, and to no other.
func (p *Plan) Misfits() []Failure {
	seen := map[[3]string]bool{}
	out := p.capacityMisfits()
	for _, f := range p.Failures {
		if f.Reason == Reason(fit.ReasonMaxNodes) {
			continue
		}
		k := [3]string{f.Workload, f.Pool, string(f.Reason)}
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, f)
	}
	for _, n := range p.Notes {
		for i := range out {
			if slices.Contains(n.Reasons, out[i].Reason) {
				out[i].Message = strings.TrimRight(out[i].Message, ". ") + ". " + n.Text
				break
			}
		}
	}
	return out
}

// Pool returns the plan of the named pool, or nil.
func (p *Plan) Pool(name string) *PoolPlan {
	for i := range p.Pools {
		if p.Pools[i].Name == name {
			return &p.Pools[i]
		}
	}
	return nil
}
