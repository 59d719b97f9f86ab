// Package nodegroup sizes one node group at plan time and renders it in the shapes its consumers take: an
// EKS managed node group, an AKS node pool, a GKE node pool, an eksctl managedNodeGroups entry, a Karpenter
// NodePool, and a kubelet configuration fragment. It sits on the sizing front door: one Solve gives the
// steady and peak node counts, from which the group's sizes, free capacity at its maximum size and its
// capacity envelope (what a ScaledObject check consumes) follow.
//
// Sizes. When the minimum size is not given it is the steady scenario's node count; when the maximum size
// is not given it is the peak scenario's node count raised by HeadroomPercent, rounded up; the desired size
// is the steady count kept within [min, max]. With a maximum size given, the group is packed within it and a
// peak that does not fit is a failure naming the shortfall and the largest replica count that would fit.
package nodegroup

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/overhead"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/resource"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/sizing"
)

// UnboundedNodes is the node limit a group without a maximum size is packed within, so its natural peak
// node count can be read off; far above any real node group.
const UnboundedNodes = 10_000

// CapacityType is how a group's nodes are bought (the planner's fit.CapacityType).
type CapacityType = fit.CapacityType

// The capacity types.
const (
	OnDemand = fit.CapacityOnDemand
	Spot     = fit.CapacitySpot
)

// WarnKarpenterName: an AWS group's name is not a valid Kubernetes object name, so its Karpenter NodePool
// is named differently (KarpenterName).
const WarnKarpenterName = "nodegroup.karpenter-name"

// WarnEksctlName: an AWS group's name holds characters a CloudFormation stack name may not, so its eksctl entry
// takes EksctlName.
const WarnEksctlName = "nodegroup.eksctl-name"

// WarnLargestFitBudget: the largest replica count that fits (Failure.LargestFit) was not searched for some
// workloads that do not fit: the searches of one group share a work budget (largestFitBudget).
const WarnLargestFitBudget = "nodegroup.largest-fit-budget"

// largestFitBudget bounds the scheduler model's work (fit.ScenarioResult.ModelWork) of the searches for the
// largest replica count that fits, over the workloads of one group that do not fit: each search solves the
// group about log2(replicas) times, so 100 workloads of 100 pods over a group's maximum ran for many minutes.
// About a second and a half here; a variable so that tests can exhaust it.
var largestFitBudget int64 = 60_000_000

// spareCheckBudget is the most scheduler model work (fit.ScenarioResult.ModelWork over both scenarios) of a
// group's plan for which a group sized without a spare node is planned again to say what losing a node would
// strand (about as much work again: one plan of 10,000 pods spread one per node took 3.5 s); beyond it the
// warning says the loss was not checked. A variable so that tests can exhaust it.
var spareCheckBudget int64 = 100_000_000

// CapacityTypes lists every capacity type; OnDemand is the default.
var CapacityTypes = fit.CapacityTypes

// Request is one node group to size.
type Request struct {
	// Pool holds the group's name, cloud, instance types, node-image options, zones, labels, taints and
	// credit options; its MinNodes and MaxNodes are ignored (see MinSize and MaxSize).
	Pool       sizing.Pool
	DaemonSets []sizing.DaemonSet
	// SystemDaemonSets says whether the group runs its platform's system DaemonSets beside DaemonSets, as in
	// sizing.Request.
	SystemDaemonSets overhead.SystemDaemonSets
	Workloads        []sizing.Workload
	// MinSize and MaxSize bound the group; nil means computed (see the package documentation).
	MinSize *int
	MaxSize *int
	// HeadroomPercent raises a computed maximum size above the peak (0–1000).
	HeadroomPercent int
	CapacityType    CapacityType
	// DiskSizeGiB and DiskType describe each node's root volume; 0 and "" mean the consumer's default.
	DiskSizeGiB int
	DiskType    string
	// NodeClassName names the Karpenter EC2NodeClass the NodePool refers to (EKS Auto Mode's NodeClass for its node
	// group kind); "" means "default".
	NodeClassName string
	// Scheduler and Arrival are the cluster's kube-scheduler profile and the pods' arrival order, as in
	// sizing.Request: the group's sizes follow the scheduler model under them.
	Scheduler fit.SchedulerProfile
	Arrival   fit.ArrivalOrder
	// Disruptions are the disruption scenarios checked on the steady placement of a group of min_size to
	// max_size nodes (fit.Input.Disruptions).
	Disruptions []fit.DisruptionKind
	// GPUSharing is a GKE group's GPU sharing (time-sharing, MPS, MIG partitions): its nodes carry GKE's labels
	// for it and offer that many nvidia.com/gpu (sizing.GKEGPUsPerNode), and its node pool's accelerator says so.
	GPUSharing sizing.GPUSharing
}

// Capacity is the group's capacity envelope, as a ScaledObject capacity check consumes it: per node what
// workloads may request after the group's DaemonSets, and how many nodes the group may have.
type Capacity struct {
	Name     string
	MaxNodes int
	Zones    []string
	// WorkloadAllocatable is one node's allocatable less the DaemonSets' requests (of the smallest member
	// of a mixed group); its Pods are the pod slots left for workloads.
	WorkloadAllocatable resource.List
	// Workloads are the group's own workloads at peak: a capacity check places them beside the autoscalers' pods
	// (those it does not stand for).
	Workloads []CapacityWorkload
}

// CapacityWorkload is one of a group's own workloads as a capacity check places it: one pod's requests, its peak
// replica count and the surge pods a rollout at peak adds.
type CapacityWorkload struct {
	Name     string
	Requests fit.Resources
	Replicas int
	Surge    int
}

// Result is a sized node group.
type Result struct {
	Plan *sizing.Plan
	// Pool is the plan of the group's one pool.
	Pool                             *sizing.PoolPlan
	DesiredSize, MinSize, MaxSize    int
	SteadyNodes, PeakNodes           int
	MaxPods                          int64
	Allocatable, WorkloadAllocatable resource.List
	// FreeAtMax is what MaxSize nodes leave free after the peak scenario's pods (negative when short).
	FreeAtMax resource.List
	Capacity  Capacity
	// Fits is false when the peak does not fit MaxSize, a pod never fits a node, or credits run out.
	Fits     bool
	Failures []Failure
	Warnings []field.Warning
	// Disruptions holds the verdict of each Request.Disruptions scenario on the group's sizes; a failing one
	// is also a Failure.
	Disruptions []fit.DisruptionResult
	// Karpenter is how many nodes the Karpenter NodePool's limits cover (AWS groups; zero otherwise).
	Karpenter KarpenterSizing
}

// Failure is one reason the group does not carry its workloads, with the largest replica count of the
// workload at fault that would fit (when a workload is at fault).
type Failure struct {
	sizing.Failure
	// LargestFit is the largest peak replica count of Workload that fits the group; -1 when not computed, or when
	// OthersMisfit: the group does not fit even without Workload's pods, so no count of it is the remedy.
	LargestFit   int
	OthersMisfit bool
}

// Size sizes a node group with the planner.
func Size(ctx context.Context, p *sizing.Planner, req Request) (*Result, error) {
	if errs := validate(req); len(errs) > 0 {
		return nil, errs
	}
	sreq := request(req)
	plan, err := p.Solve(ctx, sreq)
	if err != nil {
		return nil, prefixPool(err, req.Pool)
	}
	pp := &plan.Pools[0]
	if errs := memberErrors(req, pp.Members); len(errs) > 0 {
		return nil, errs
	}
	r := &Result{Plan: plan, Pool: pp, SteadyNodes: pp.Steady.NodesRequired, PeakNodes: pp.Peak.NodesRequired,
		MaxPods: pp.Overhead.MaxPods, Allocatable: pp.Allocatable, WorkloadAllocatable: pp.WorkloadAllocatable, Fits: plan.Fits,
		Warnings: groupWarnings(plan.Warnings, req.Pool.Name)}
	// A computed maximum is the plan's (fit.MaxFromPeakNodes): the peak's nodes raised by the headroom, at least
	// the minimum and the steady scenario's nodes; the report and the headroom are counted within it.
	r.MinSize, r.MaxSize = r.SteadyNodes, pp.Peak.MaxNodes
	if req.MinSize != nil {
		r.MinSize = *req.MinSize
	}
	if req.MaxSize != nil {
		r.MaxSize = *req.MaxSize
		if req.MinSize == nil {
			// A steady scenario beyond the configured maximum is a misfit (reported), not a reason to move the
			// maximum the user set: the computed minimum stays within it.
			r.MinSize = min(r.MinSize, r.MaxSize)
		}
	}
	r.MaxSize = max(r.MaxSize, r.MinSize, 1)
	if errs := append(imageErrors(req, r), aksSizeErrors(req, r)...); len(errs) > 0 {
		return nil, errs
	}
	r.Warnings = append(r.Warnings, eksQuotaWarning(req, r)...)
	r.Warnings = append(r.Warnings, aksWindows2025Warning(req, r)...)
	r.DesiredSize = min(max(r.SteadyNodes, r.MinSize), r.MaxSize)
	walloc := pp.WorkloadAllocatable
	r.FreeAtMax = scale(walloc, int64(r.MaxSize)).Sub(pp.Peak.Requested)
	r.Capacity = Capacity{Name: req.Pool.Name, MaxNodes: r.MaxSize, Zones: req.Pool.Zones, WorkloadAllocatable: walloc}
	for _, wp := range plan.Workloads {
		if w := workloadIndex(req, wp.Name); w >= 0 {
			top := sizing.PeakReplicas(req.Workloads[w])
			r.Capacity.Workloads = append(r.Capacity.Workloads, CapacityWorkload{Name: wp.Name, Requests: req.Workloads[w].Requests,
				Replicas: top, Surge: max(wp.PeakReplicas-top, 0)})
		}
	}
	if n := EksctlName(req.Pool.Name); rendersEksctl(req, r) && n != req.Pool.Name {
		r.Warnings = append(r.Warnings, field.Warning{Code: WarnEksctlName, Path: field.NewPath("Name"), Message: fmt.Sprintf(
			"the eksctl entry of node group %s is named %s: eksctl names its CloudFormation stack after it, and a stack name holds only letters, digits and hyphens",
			field.Quote(req.Pool.Name), field.Quote(n))})
	}
	if n := KarpenterName(req.Pool.Name); karpenterLaunches(req) && n != req.Pool.Name {
		r.Warnings = append(r.Warnings, field.Warning{Code: WarnKarpenterName, Path: field.NewPath("Name"), Message: fmt.Sprintf(
			"the Karpenter NodePool of node group %s is named %s: a NodePool's name must be a lowercase RFC 1123 subdomain", field.Quote(req.Pool.Name), field.Quote(n))})
	}
	if req.Pool.Cloud == catalog.AWS {
		k, warns, err := karpenterSizing(req, r)
		if err != nil {
			return nil, err
		}
		r.Karpenter = k
		if karpenterLaunches(req) {
			r.Warnings = append(r.Warnings, warns...)
		}
	}
	budget, skipped := largestFitBudget, 0
	for _, f := range plan.Misfits() {
		f.Message = inGroupWords(f.Message, req.Pool.Name)
		nf := Failure{Failure: f, LargestFit: -1}
		if w := workloadIndex(req, f.Workload); w >= 0 && (f.Reason == sizing.Reason(fit.ReasonMaxNodes) || f.Reason == sizing.Reason(fit.ReasonSpread)) {
			n, err := p.LargestFitWithin(ctx, sreq, w, plan.ModelWork(), &budget)
			switch {
			case errors.Is(err, sizing.ErrWorkBudget):
				skipped++
			case errors.Is(err, sizing.ErrNoCountFits):
				nf.OthersMisfit = true
			case err != nil:
				return nil, prefixPool(err, req.Pool)
			default:
				nf.LargestFit = n
			}
		}
		r.Failures = append(r.Failures, nf)
	}
	if skipped > 0 {
		r.Warnings = append(r.Warnings, field.Warning{Code: WarnLargestFitBudget, Path: field.NewPath("Workloads"), Message: fmt.Sprintf(
			"node group %s: the largest replica count that fits is not given for %d of the workloads that do not fit: each try "+
				"plans the group again with the scheduler model, and the tries stopped at their work budget", field.Quote(req.Pool.Name), skipped)})
	}
	// A computed maximum size equal to the steady node count leaves no spare node: the group as sized is
	// planned again, which says what one node's loss would strand (sizing.WarnNoSpareNode). A given maximum
	// size was planned on already.
	noSpare := req.MaxSize == nil && r.MaxSize <= r.SteadyNodes && r.Fits && !slices.Contains(req.Disruptions, fit.DisruptNodeLoss)
	if noSpare && len(req.Disruptions) == 0 && plan.ModelWork() > spareCheckBudget {
		// The check plans the group again, which costs about as much as its plan: beyond the budget it is
		// not made, and the warning says the spare node was not checked.
		noSpare = false
		r.Warnings = append(r.Warnings, field.Warning{Code: sizing.WarnNoSpareNode, Path: field.NewPath("MaxNodes"), Message: fmt.Sprintf(
			"node group %s has no spare node: its max size of %d is its steady node count, and what losing its busiest node would "+
				"leave Pending was not checked (planning the group again would exceed the scheduler model's work budget); give a max "+
				"size above %d, or ask for the node_loss disruption to check it", field.Quote(req.Pool.Name), r.MaxSize, r.SteadyNodes)})
	}
	if len(req.Disruptions) > 0 || noSpare {
		if err := disruptions(ctx, p, req, r); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// rendersEksctl reports whether the group gets an eksctl entry: an AWS group with managed shapes (not Auto Mode, nor
// a Karpenter group whose members need several AMIs; Render).
func rendersEksctl(req Request, r *Result) bool {
	return req.Pool.Cloud == catalog.AWS && req.Pool.Overhead.EKS.Kind != overhead.AutoMode && !(karpenterLaunches(req) && !oneAMI(r))
}

// karpenterLaunches reports whether the group's nodes are launched by Karpenter or EKS Auto Mode (its node group
// kind), so that its NodePool output is what runs: the warnings about the NodePool (its limits, its name) are for
// those groups; a managed or self-managed group's NodePool is an alternative rendering, whose warnings would be
// noise to a group that never runs one.
func karpenterLaunches(req Request) bool {
	k := req.Pool.Overhead.EKS.Kind
	return req.Pool.Cloud == catalog.AWS && (k == overhead.Karpenter || k == overhead.AutoMode)
}

// disruptions checks the disruption scenarios on the group as sized: min_size to max_size nodes.
func disruptions(ctx context.Context, p *sizing.Planner, req Request, r *Result) error {
	dreq := request(req)
	dreq.Pools[0].MinNodes, dreq.Pools[0].MaxNodes = r.MinSize, r.MaxSize
	dreq.Disruptions = req.Disruptions
	plan, err := p.Solve(ctx, dreq)
	if err != nil {
		return prefixPool(err, req.Pool)
	}
	r.Disruptions = plan.Packing.Disruptions
	for _, head := range []string{"\nDisruptions (", "\nNo spare node ("} {
		if i := strings.Index(plan.Report, head); i >= 0 && !strings.Contains(r.Plan.Report, head) {
			section, _, _ := strings.Cut(plan.Report[i+1:], "\n\n")
			r.Plan.Report += "\n" + section + "\n"
		}
	}
	if req.MaxSize == nil {
		for _, w := range groupWarnings(plan.Warnings, req.Pool.Name) {
			if w.Code == sizing.WarnNoSpareNode {
				r.Warnings = append(r.Warnings, w)
			}
		}
	}
	for _, f := range plan.Failures {
		if f.Reason == sizing.Reason(fit.ReasonDisruption) {
			f.Message = inGroupWords(f.Message, req.Pool.Name)
			r.Failures = append(r.Failures, Failure{Failure: f, LargestFit: -1})
			r.Fits = false
		}
	}
	return nil
}

// request builds the sizing request of a group: one pool bounded by the group's sizes.
func request(req Request) sizing.Request {
	pool := req.Pool
	pool.MinNodes, pool.MaxNodes = 0, UnboundedNodes
	pool.CapacityType = req.CapacityType
	pool.SizesChecked = true // aksSizeErrors, on the sizes the plan gives the group
	if req.MinSize != nil {
		pool.MinNodes = *req.MinSize
	}
	if req.MaxSize != nil {
		pool.MaxNodes = *req.MaxSize
	} else {
		pool.MaxFromPeak, pool.MaxFromPeakPercent = true, req.HeadroomPercent
	}
	if !req.GPUSharing.IsZero() {
		// GKE labels the nodes of a shared pool itself; sizing reads the sharing from those labels.
		pool.Labels = copyLabels(pool.Labels)
		maps.Copy(pool.Labels, req.GPUSharing.Labels())
	}
	if req.Pool.Cloud == catalog.Azure && req.CapacityType == Spot {
		// AKS taints and labels every node of a Spot pool; only pods that tolerate the taint land there.
		pool.Labels = copyLabels(pool.Labels)
		pool.Labels[aksSpotKey] = aksSpotValue
		if !slices.Contains(pool.Taints, aksSpotTaint) {
			pool.Taints = append(slices.Clip(pool.Taints), aksSpotTaint)
		}
	}
	return sizing.Request{Pools: []sizing.Pool{pool}, DaemonSets: req.DaemonSets, SystemDaemonSets: req.SystemDaemonSets,
		Workloads: req.Workloads, Scheduler: req.Scheduler, Arrival: req.Arrival}
}

func validate(req Request) field.Errors {
	errs := IdentityErrors(req)
	if req.MinSize != nil && *req.MinSize < 0 {
		errs = append(errs, field.Invalid(field.NewPath("MinSize"), fmt.Sprint(*req.MinSize), "the minimum size %d of node group %q must be at least 0", *req.MinSize, req.Pool.Name))
	}
	if req.MaxSize != nil && (*req.MaxSize < 1 || *req.MaxSize > UnboundedNodes) {
		errs = append(errs, field.Invalid(field.NewPath("MaxSize"), fmt.Sprint(*req.MaxSize), "the maximum size %d of node group %q must be between 1 and %d", *req.MaxSize, req.Pool.Name, UnboundedNodes))
	}
	if req.MinSize != nil && req.MaxSize != nil && *req.MinSize > *req.MaxSize {
		errs = append(errs, field.Invalid(field.NewPath("MinSize"), fmt.Sprint(*req.MinSize), "the minimum size %d of node group %q is greater than its maximum size %d (min > max); lower the minimum or raise the maximum", *req.MinSize, req.Pool.Name, *req.MaxSize))
	}
	if req.HeadroomPercent < 0 || req.HeadroomPercent > 1000 {
		errs = append(errs, field.Invalid(field.NewPath("HeadroomPercent"), fmt.Sprint(req.HeadroomPercent), "the headroom %d%% of node group %q must be between 0 and 1000", req.HeadroomPercent, req.Pool.Name))
	}
	switch req.CapacityType {
	case "", OnDemand, Spot:
	default:
		errs = append(errs, field.Invalid(field.NewPath("CapacityType"), string(req.CapacityType), "capacity type %s must be one of %s", field.Quote(string(req.CapacityType)), field.QuoteList(CapacityTypes)))
	}
	if req.DiskSizeGiB < 0 || req.DiskSizeGiB > 65536 {
		errs = append(errs, field.Invalid(field.NewPath("DiskSizeGiB"), fmt.Sprint(req.DiskSizeGiB), "the disk size %d GiB of node group %q must be between 1 and 65,536", req.DiskSizeGiB, req.Pool.Name))
	}
	errs = append(errs, maxPodsErrors(req)...)
	errs = append(errs, reservationErrors(req)...)
	errs = append(errs, gpuSharingErrors(req)...)
	switch req.Pool.Cloud {
	case catalog.AWS:
		errs = append(errs, eksInputErrors(req)...)
	case catalog.Azure:
		errs = append(errs, aksInputErrors(req)...)
	case catalog.GCP:
		errs = append(errs, gkeInputErrors(req)...)
	}
	return errs
}

// IdentityErrors checks what names and marks the group's nodes against its consumers' rules: its name, labels,
// taints and zones (with its cloud, its capacity type and, on AWS, its node group kind). It reads nothing else of req, so a caller
// can check these while other inputs are not known yet; Size runs it too.
func IdentityErrors(req Request) field.Errors {
	errs := nameErrors(req)
	errs = append(errs, taintErrors(req)...)
	errs = append(errs, zoneErrors(req)...)
	switch req.Pool.Cloud {
	case catalog.AWS:
		errs = append(errs, labelErrors(req)...)
		errs = append(errs, eksLabelErrors(req)...)
	case catalog.Azure:
		errs = append(errs, aksLabelErrors(req)...)
	case catalog.GCP:
		errs = append(errs, gkeLabelErrors(req)...)
	}
	return errs
}

// prefixPool moves sizing's pool paths (Pools["name"].X) to the group's root (X), since a group is one pool,
// and an error about the instance type the overhead model planned on to that type's InstanceTypes entry; its words
// are the group's (inGroupWords).
func prefixPool(err error, pool sizing.Pool) error {
	errs := field.As(err)
	if len(errs) == 0 {
		return err
	}
	out := make(field.Errors, 0, len(errs))
	for _, e := range errs {
		at := e.Path
		if steps := at.Steps(); len(steps) >= 2 && steps[0].Name == "Pools" {
			at = at.Drop(2)
		}
		if i := slices.Index(pool.InstanceTypes, e.Value); i >= 0 && at.String() == "Overhead.Instance" {
			at = field.NewPath("InstanceTypes").At(i)
		}
		if f, ok := gpuSharingFields[at.String()]; ok {
			// GKE's GPU sharing labels come from the group's GPU sharing (its own labels may not hold them).
			at = field.NewPath("GPUSharing", f)
		}
		out = append(out, &field.Error{Path: at, Value: e.Value, Detail: inGroupWords(e.Detail, pool.Name)})
	}
	return out
}

// groupWarnings moves sizing's pool paths (Pools["name"].X) to the group's root (X).
func groupWarnings(ws []field.Warning, name string) []field.Warning {
	out := make([]field.Warning, len(ws))
	for i, w := range ws {
		if steps := w.Path.Steps(); len(steps) >= 2 && steps[0].Name == "Pools" {
			w.Path = w.Path.Drop(2)
		}
		w.Message = inGroupWords(w.Message, name)
		out[i] = w
	}
	return out
}

// inGroupWords says a sizing message about the group's one pool in a node group's words: the node group, not the
// pool, and its maximum size, not the pool's maximum node count.
func inGroupWords(msg, name string) string {
	q := strconv.Quote(name)
	// "its pools allow at most 5 (pool "web" at most 5 nodes)" lists the pools a workload may use: one here.
	msg = regexp.MustCompile(` \(pool `+regexp.QuoteMeta(q)+` at most [0-9,]+ nodes?\)`).ReplaceAllString(msg, "")
	return strings.NewReplacer(
		"Raise the pool's maximum node count", "Raise the group's maximum size",
		// A group is one pool: its workloads cannot be kept to others.
		"set the pool's zones or restrict the workload's pools", "set the group's zones (the zones its nodes run in, whose labels the spread counts)",
		"raise the maximum node count of pool "+q, "raise the maximum size of node group "+q,
		"maximum node count", "maximum size",
		"The pool's", "The group's",
		"the pool's", "the group's",
		"The pool ", "The group ",
		"the pool ", "the group ",
		"its pools allow", "its node group allows",
		"Pool "+q, "Node group "+q,
		"pool "+q, "node group "+q,
	).Replace(msg)
}

func workloadIndex(req Request, name string) int {
	for i, w := range req.Workloads {
		if w.Name == name && name != "" {
			return i
		}
	}
	return -1
}

func scale(l resource.List, k int64) resource.List {
	return resource.List{CPUMillicores: l.CPUMillicores * k, MemoryBytes: l.MemoryBytes * k,
		EphemeralStorageBytes: l.EphemeralStorageBytes * k, Pods: l.Pods * k, GPU: l.GPU * k}
}
