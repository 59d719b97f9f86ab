package sizing

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/burst"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/disk"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/overhead"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/resource"
)

// Warning codes of Plan.Warnings besides the overhead model's own (overhead.Code…), which keep their codes.
const (
	// WarnMinReplicasDefault: an autoscaled workload gave only a maximum; its steady count defaults to 1.
	WarnMinReplicasDefault = "sizing.min-replicas-default"
	// WarnAboveBaseline: a burstable pool's busiest node uses more than its baseline but keeps enough credits.
	WarnAboveBaseline = "sizing.credits-above-baseline"
	// WarnCreditsIgnored: a pool gives CPU credit options but its instance type is not burstable.
	WarnCreditsIgnored = "sizing.credits-ignored"
	// WarnSchedulerBudget: the scheduler model did not run, or did not check every planned arrival order, within
	// its work budget (fit.ScenarioResult.SchedulerNote).
	WarnSchedulerBudget = "sizing.scheduler-budget"
	// WarnAffinityUnknownLabel: a node affinity expression holds on every planned node only because the
	// planner does not set its label (NotIn or DoesNotExist on a hostname or region).
	WarnAffinityUnknownLabel = "sizing.affinity-unknown-label"
	// WarnMemoryInBytes: a workload's memory request is under 1 MiB, almost surely a quantity written without its
	// suffix ("2" is 2 bytes).
	WarnMemoryInBytes = "sizing.memory-in-bytes"
	// WarnSharedVolume: the pods of a workload share one ReadWriteOnce claim (they can only run on the node
	// its volume is attached to), or a rolling update's surge pod needs a ReadWriteOncePod claim its old pod
	// still holds.
	WarnSharedVolume = "sizing.shared-volume"
	// WarnDiskShare: the volumes attached to one node are provisioned for more IOPS or throughput than its
	// instance type sustains for all of them together (fit.DiskShare).
	WarnDiskShare = "sizing.disk-share"
	// WarnNoSpareNode: the steady scenario fits but fills a pool to its maximum node count, and losing its
	// busiest node would leave pods Pending (fit.Result.NodeLossWarning); the disruptions do not ask for
	// node_loss, which would fail the plan on it.
	WarnNoSpareNode = "sizing.no-spare-node"
)

// Planner sizes requests against one catalog. It is safe for concurrent use.
type Planner struct {
	catalog Catalog
	noBlame bool
	noNodes bool
	packing bool
	noHead  bool
	noText  bool
}

// NewPlanner returns a Planner that looks instance types and credit budgets up in cat.
func NewPlanner(cat Catalog) *Planner { return &Planner{catalog: cat} }

// WithoutBlame returns a Planner like p whose plans leave Blame empty: for callers that solve many
// requests only to compare them (the blame rule costs further solves on every misfit).
func (p *Planner) WithoutBlame() *Planner {
	q := *p
	q.noBlame = true
	return &q
}

// WithoutNodes returns a Planner like p whose plans list no nodes (PoolPlan.Steady.Nodes, Peak.Nodes and
// CreditCheck.NodeMillicores stay empty; every total, bound and the busiest node's CPU use are kept): for
// callers that compare many plans by their totals.
func (p *Planner) WithoutNodes() *Planner {
	q := *p
	q.noNodes = true
	return &q
}

// WithoutHeadroom returns a Planner like p whose plans leave every WorkloadPlan.Headroom 0 (fit.Input.OmitHeadroom;
// everything else is computed as usual): for callers that compare many plans by their totals.
func (p *Planner) WithoutHeadroom() *Planner {
	q := *p
	q.noHead = true
	return &q
}

// WithoutReport returns a Planner like p whose plans leave Report empty: for callers that compare many plans
// by their totals.
func (p *Planner) WithoutReport() *Planner {
	q := *p
	q.noText = true
	return &q
}

// PackingOnly returns a Planner like p that skips the scheduler model (fit.Input.PackingOnly): node counts
// are the best packing's. For callers that rank many plans and model only the best few.
func (p *Planner) PackingOnly() *Planner {
	q := *p
	q.packing = true
	return &q
}

// solve is the state of one Solve call.
type solve struct {
	ctx      context.Context
	cat      Catalog
	req      *Request
	errs     field.Errors
	warnings []field.Warning
	pools    []PoolPlan
	packed   fit.Input
	// notMeasured folds the overhead model's "not measured" caveat of every pool in one scope into one
	// warning: message → index in warnings and the pools named so far.
	notMeasured map[string]*foldedWarning
}

// foldedWarning is one warning several pools share.
type foldedWarning struct {
	at    int
	pools []string
}

// Solve sizes the request. An invalid request returns field.Errors (every problem found, in request
// order) and a nil Plan; an error from the catalog itself (not an unknown name) is returned as it is.
// A valid request always gives a Plan, whose Fits and Failures say whether and why it does not fit.
func (p *Planner) Solve(ctx context.Context, req Request) (*Plan, error) {
	plan, err := p.solve(ctx, req)
	if err != nil || plan.Fits || p.noBlame {
		return plan, err
	}
	if plan.Blame, err = p.blame(ctx, req, plan); errors.Is(err, errBlameBudget) {
		plan.Warnings = append(plan.Warnings, field.Warning{Code: WarnBlameBudget, Path: field.NewPath("Workloads"), Message: fmt.Sprintf(
			"the blame rule (which workloads, in list order, do not fit after those before them) stopped at its work budget: "+
				"each step plans the request again with the scheduler model, and this plan's model work is %s nodes; %s",
			fit.FormatCount(modelWork(plan)), blameSoFar(plan.Blame))})
	} else if err != nil {
		return nil, err
	}
	return plan, nil
}

// solve is Solve without the blame rule.
func (p *Planner) solve(ctx context.Context, req Request) (*Plan, error) {
	s := &solve{ctx: ctx, cat: p.catalog, req: &req}
	in, err := s.input()
	if err != nil {
		return nil, err
	}
	if len(s.errs) > 0 {
		return nil, s.errs
	}
	in.OmitNodes, in.PackingOnly, in.OmitHeadroom = p.noNodes, p.packing, p.noHead
	res, err := fit.Plan(in)
	if err != nil {
		return nil, s.packerErrors(err)
	}
	s.packed = in
	s.placementWarnings(in, res)
	plan, err := s.plan(res)
	if err == nil && !p.noText {
		plan.Report = report(plan)
	}
	return plan, err
}

// foldNotMeasured adds the overhead model's "not measured" caveat of pool once per scope: the pools of one
// scope share one warning, which names them at its end (NotMeasuredPools).
func (s *solve) foldNotMeasured(w field.Warning, at field.Path, pool string) {
	if s.notMeasured == nil {
		s.notMeasured = map[string]*foldedWarning{}
	}
	f, ok := s.notMeasured[w.Message]
	if !ok {
		f = &foldedWarning{at: len(s.warnings)}
		s.notMeasured[w.Message] = f
		s.warnings = append(s.warnings, field.Warning{Code: w.Code, Path: at})
	}
	f.pools = append(f.pools, pool)
	plural := ""
	if len(f.pools) > 1 {
		plural = "s"
	}
	s.warnings[f.at].Message = fmt.Sprintf("%s%s%s %s)", w.Message, NotMeasuredPools, plural, field.QuoteList(f.pools))
}

// NotMeasuredPools separates the overhead model's "not measured" caveat from the pools it applies to, so a
// caller that shows the caveat once for several plans can match it without the pool names.
const NotMeasuredPools = " (pool"

// packerErrors maps the packer's input errors to the fields the request gave: the packer's steady and peak
// counts of a workload come from Replicas, or from MinReplicas and MaxReplicas, whichever were set. One
// value reported twice (a fixed count is both the packer's steady and peak count) is reported once.
func (s *solve) packerErrors(err error) error {
	es := field.As(err)
	if len(es) == 0 {
		return err
	}
	out := make(field.Errors, 0, len(es))
	seen := map[string]bool{}
	for _, e := range es {
		st := e.Path.Steps()
		if len(st) == 3 && st[0].Name == "Workloads" && st[1].Kind == field.Index && st[1].Index < len(s.req.Workloads) {
			w := s.req.Workloads[st[1].Index]
			to := st[2].Name
			switch {
			case w.Replicas != nil && (to == "Replicas" || to == "MaxReplicas"):
				to = "Replicas"
			case to == "Replicas" && w.MinReplicas != nil:
				to = "MinReplicas"
			case to == "Replicas":
				to = "MaxReplicas"
			case to == "MaxReplicas" && w.MaxReplicas == nil:
				to = "MinReplicas"
			}
			if to != st[2].Name {
				e = &field.Error{Path: field.NewPath("Workloads").At(st[1].Index).Child(to), Value: e.Value, Detail: e.Detail}
			}
			k := e.Path.String()
			if seen[k] {
				continue
			}
			seen[k] = true
		}
		out = append(out, e)
	}
	return out
}

// poolPath is the path of pool i: by name, or by index when the name is empty.
func (s *solve) poolPath(i int) field.Path {
	if s.req.Pools[i].Name == "" {
		return field.NewPath("Pools").At(i)
	}
	return field.NewPath("Pools").Key(s.req.Pools[i].Name)
}

// input resolves every pool's node model and builds the packer's input.
func (s *solve) input() (fit.Input, error) {
	var in fit.Input
	listed := slices.Clone(s.req.DaemonSets)
	ert := s.managedERT()
	for i := range listed {
		d := &listed[i]
		d.Tolerations = gkeArmToleration(d.NodeSelector, d.NodeAffinity, d.Tolerations)
		d.Tolerations = extendedTolerations(ert, d.Requests, nil, d.Tolerations)
	}
	if m := s.req.SystemDaemonSets; m != "" && !slices.Contains(overhead.SystemDaemonSetsModes, m) {
		s.errs = append(s.errs, field.Invalid(field.NewPath("SystemDaemonSets"), string(m),
			"unknown system DaemonSets mode %q; valid modes are %s", m, field.QuoteList(overhead.SystemDaemonSetsModes)))
	}
	for i := range s.req.Pools {
		s.aksPoolErrors(i)
		fp, err := s.pool(i, listed)
		if err != nil {
			return in, err
		}
		in.Pools = append(in.Pools, fp)
	}
	s.aksKubenetClusterWarning()
	in.DaemonSets = append(listed, s.systemDaemonSets()...)
	in.Scheduler, in.Arrival, in.Disruptions = s.req.Scheduler, s.req.Arrival, s.req.Disruptions
	in.Workloads = make([]fit.Workload, 0, len(s.req.Workloads))
	for i := range s.req.Workloads {
		w := s.workload(i)
		w.Tolerations = gkeArmToleration(w.NodeSelector, w.NodeAffinity, w.Tolerations)
		w.Tolerations = extendedTolerations(ert, w.Requests, w.Extended, w.Tolerations)
		in.Workloads = append(in.Workloads, w)
	}
	return in, nil
}

// systemDaemonSets returns the platform's system DaemonSets of every pool (PoolPlan.SystemDaemonSets), each
// restricted to the pools it runs on (fit.DaemonSet.Pools): one DaemonSet for the pools whose system DaemonSet
// of that name asks the same, so that pools of one platform share them.
func (s *solve) systemDaemonSets() []fit.DaemonSet {
	var out []fit.DaemonSet
	for _, pp := range s.pools {
		for _, d := range pp.SystemDaemonSets {
			j := slices.IndexFunc(out, func(o fit.DaemonSet) bool { return o.Name == d.Name && o.Requests == d.Requests })
			if j < 0 {
				d.Pools = nil
				out = append(out, d)
				j = len(out) - 1
			}
			out[j].Pools = append(out[j].Pools, pp.Name)
		}
	}
	return out
}

// attachesVolumes reports whether some workload's pods attach a block volume (a claim that counts against
// the node's attach limit).
func (s *solve) attachesVolumes() bool {
	for _, w := range s.req.Workloads {
		if fit.VolumeAttachments(w.VolumeClaims) > 0 {
			return true
		}
	}
	return false
}

// platformPoolLabels are the labels the platform puts on every node of pool rp, which workloads select pools
// by: GKE's cloud.google.com/gke-nodepool (the pool's name) and, on a Spot pool, cloud.google.com/gke-spot=true
// (docs.cloud.google.com/kubernetes-engine/docs/how-to/node-taints, .../concepts/spot-vms; a measured GKE node
// carries the first, keepinmindsh/lines_kubernetes), and AKS's kubernetes.azure.com/agentpool and agentpool
// (measured AKS nodes carry both, ameideio/ameide-backlog 682-aks-capacity-reservation-snapshot.md). The pool's
// name is taken as its AKS or GKE node pool's name; a selector naming another pool keeps the pods off it. On AWS,
// the labels of the EKS node group kind (eksPoolLabels). kubernetes.azure.com/mode (system or user) is not known: it
// is one of the pool's label choices (wellKnownChoices).
func platformPoolLabels(rp *Pool) map[string]string {
	switch rp.Cloud {
	case catalog.AWS:
		return eksPoolLabels(rp)
	case catalog.GCP:
		l := map[string]string{GKENodePoolLabel: rp.Name}
		if rp.CapacityType == fit.CapacitySpot {
			l[GKESpotLabel] = "true"
		}
		return l
	case catalog.Azure:
		return map[string]string{AKSAgentPoolLabel: rp.Name, "agentpool": rp.Name}
	}
	return nil
}

// pool computes pool i's node model (a mixed pool's smallest member) and returns its packer pool. listed are
// the request's DaemonSets: one that lands on the pool replaces the platform's system DaemonSet of its name there.
func (s *solve) pool(i int, listed []fit.DaemonSet) (fit.Pool, error) {
	rp := &s.req.Pools[i]
	p := s.poolPath(i)
	pp := PoolPlan{Name: rp.Name, MinNodes: rp.MinNodes, MaxNodes: rp.MaxNodes}
	defer func() { s.pools = append(s.pools, pp) }()
	if _, err := catalog.ParseCloud(string(rp.Cloud)); err != nil {
		s.errs = append(s.errs, field.Invalid(p.Child("Cloud"), string(rp.Cloud), "pool %q: %v", rp.Name, err))
		return fit.Pool{}, nil
	}
	if !rp.MaxFromPeak {
		s.checkGKEZoneLimit(i, rp.MaxNodes, false)
	}
	if len(rp.InstanceTypes) == 0 {
		s.errs = append(s.errs, field.Invalid(p.Child("InstanceTypes"), "", "pool %q names no instance type; give one, or the members of a mixed pool", rp.Name))
		return fit.Pool{}, nil
	}
	if rp.Overhead.Profile == overhead.Custom {
		s.errs = append(s.errs, field.Invalid(p.Child("Overhead", "Profile"), string(overhead.Custom),
			"pool %q: the custom profile describes a single node by its vCPUs and memory; a pool's nodes are catalog instance types, so choose their platform's profile (%s)",
			rp.Name, field.QuoteList(overhead.PoolProfiles)))
		return fit.Pool{}, nil
	}
	var sharing GPUSharing
	if rp.Cloud == catalog.GCP {
		var errs field.Errors
		if sharing, errs = GKEGPUSharingFromLabels(rp.Labels, p.Child("Labels"), rp.Name); len(errs) > 0 {
			s.errs = append(s.errs, errs...)
			return fit.Pool{}, nil
		}
	}
	var results []overhead.Result
	for j, name := range rp.InstanceTypes {
		it, err := s.cat.InstanceType(s.ctx, rp.Cloud, name)
		var nf *catalog.NotFoundError
		switch {
		case errors.As(err, &nf):
			s.errs = append(s.errs, field.Invalid(p.Child("InstanceTypes").At(j), name, "%s", nf.Error()))
			continue
		case err != nil:
			return fit.Pool{}, fmt.Errorf("pool %q: looking up instance type %q: %w", rp.Name, name, err)
		}
		if why := it.AKSRefuses(); why != "" && !rp.SizesChecked {
			s.warnings = append(s.warnings, field.Warning{Code: WarnAKSSmallVM, Path: p.Child("InstanceTypes").At(j), Message: fmt.Sprintf(
				"pool %q: %s, so a new pool of it fails to create; planned as an existing pool (AKS ran such sizes until 2019); for a new pool choose a size of %d vCPUs or more",
				rp.Name, why, catalog.AKSMinVCPU)})
		}
		oin := rp.Overhead
		oin.Instance = overhead.InstanceFromCatalog(it)
		if !sharing.IsZero() {
			// A shared GKE node offers each GPU, or each MIG partition, as several nvidia.com/gpu.
			gpus, errs := GKEGPUsPerNode(it, sharing, p.Child("Labels"), rp.Name)
			if len(errs) > 0 {
				s.errs = append(s.errs, errs...)
				continue
			}
			oin.Instance.GPU = gpus
		}
		oin.DaemonSets, oin.SystemDaemonSets = nil, s.req.SystemDaemonSets
		if !slices.Contains(overhead.SystemDaemonSetsModes, oin.SystemDaemonSets) {
			oin.SystemDaemonSets = "" // an unknown mode is the request's error, not each pool's
		}
		if oin.Profile == "" {
			oin.Profile = overhead.DefaultProfile(rp.Cloud)
		}
		r, err := overhead.Compute(oin)
		if es := field.As(err); len(es) > 0 {
			s.errs = append(s.errs, es.Prefix(p.Child("Overhead"))...)
			continue
		} else if err != nil {
			return fit.Pool{}, fmt.Errorf("pool %q: %w", rp.Name, err)
		}
		pp.Members = append(pp.Members, it)
		results = append(results, r)
	}
	if len(results) < len(rp.InstanceTypes) {
		return fit.Pool{}, nil
	}
	k := overhead.Smallest(results)
	pp.Instance, pp.Overhead = pp.Members[k], results[k]
	for _, r := range results {
		c := &pp.LargestCapacity
		c.CPUMillicores, c.MemoryBytes = max(c.CPUMillicores, r.Capacity.CPUMillicores), max(c.MemoryBytes, r.Capacity.MemoryBytes)
		c.EphemeralStorageBytes, c.Pods = max(c.EphemeralStorageBytes, r.Capacity.EphemeralStorageBytes), max(c.Pods, r.Capacity.Pods)
	}
	for _, r := range results {
		// A mixed pool's node may be any member: it attaches what the member with the lowest limit does.
		if r.Volumes.Count < pp.Overhead.Volumes.Count {
			pp.Overhead.Volumes, pp.Overhead.Allocatable.Volumes = r.Volumes, r.Allocatable.Volumes
		}
	}
	var notes []string
	if len(pp.Members) > 1 {
		names := make([]string, len(pp.Members))
		for j, m := range pp.Members {
			names[j] = m.Name
		}
		notes = append(notes, fmt.Sprintf("mixed pool of %s: planned on the smallest member, %s", strings.Join(names, ", "), pp.Instance.Name))
	}
	if n := gkeGPUSharingNote(pp.Instance, sharing, pp.Overhead.Capacity.GPU); n != "" {
		notes = append(notes, n)
	}
	for _, w := range pp.Overhead.Warnings {
		if len(listed) > 0 && w.Code == overhead.CodeNoDaemonSets {
			continue // the packer charges the DaemonSets listed in the request
		}
		if w.Code == overhead.CodeHyperdiskAttach && !s.attachesVolumes() {
			continue // no workload attaches a volume
		}
		wp := p.Child("Overhead").Join(w.Path)
		if st := w.Path.Steps(); len(st) > 0 && st[0].Name == "DaemonSets" {
			wp = field.NewPath("DaemonSets") // the request's DaemonSets are given once, for every pool
		}
		if w.Code == overhead.CodeNotMeasured {
			s.foldNotMeasured(w, wp, rp.Name)
			continue
		}
		s.warnings = append(s.warnings, field.Warning{Code: w.Code, Path: wp, Message: fmt.Sprintf("pool %q: %s", rp.Name, w.Message)})
	}
	r := pp.Overhead
	os := "linux"
	if r.Profile == overhead.EKSWindows || r.Profile == overhead.AKSWindows {
		os = "windows"
	}
	arch := "amd64"
	if pp.Instance.Architecture == catalog.ArchARM64 {
		arch = "arm64"
	}
	labels := wellKnownLabels(os, arch, pp.Members, rp)
	maps.Copy(labels, platformPoolLabels(rp))
	choices := wellKnownChoices(os, pp.Members, rp)
	s.userLabels(i, labels, choices)
	taints := rp.Taints
	if rp.Cloud == catalog.Azure && rp.CapacityType == fit.CapacitySpot {
		labels[AKSSpotLabel] = AKSSpotValue
		if !slices.Contains(taints, AKSSpotTaint) {
			taints = append(slices.Clip(taints), AKSSpotTaint)
		}
	}
	taints, notes = gkeTaints(rp, pp.Members, arch, taints, notes)
	fp := fit.Pool{
		Name: rp.Name, InstanceType: pp.Instance.Name,
		Allocatable: r.Allocatable, SystemPods: r.SystemPods, PodIPs: r.PodIPs,
		MinNodes: rp.MinNodes, MaxNodes: rp.MaxNodes, Zones: rp.Zones, Labels: labels, LabelChoices: choices, Taints: taints,
		Weight: rp.Weight, PricePerHour: pp.Instance.PriceUSDPerHour, CapacityType: rp.CapacityType,
		Upgrade: s.upgrade(i), MaxFromPeak: rp.MaxFromPeak, MaxFromPeakPercent: rp.MaxFromPeakPercent,
	}
	// The node's disk limits, shared by its volumes (unknown on GCP: not checked). A mixed pool is
	// planned on its smallest member, whose limits are taken.
	if nl, err := disk.NodeLimitsFor(pp.Instance); err == nil {
		fp.DiskSustained = fit.DiskRates{IOPS: nl.BaseIOPS, BytesPerSec: nl.BaseBytesPerSec}
		fp.DiskBurst = fit.DiskRates{IOPS: nl.BurstIOPS, BytesPerSec: nl.BurstBytesPerSec}
		fp.DiskUnitBytes = disk.MiBPerSec.BytesPerSec
		if rp.Cloud == catalog.Azure {
			fp.DiskUnitBytes = disk.MBPerSec.BytesPerSec
		}
	}
	for j := range listed {
		if zones, all := fit.DaemonSetZones(&listed[j], &fp); len(zones) > 0 && !all {
			notes = append(notes, fmt.Sprintf("DaemonSet %q lands only on the nodes of zone(s) %s (its node selector or affinity); it is counted "+
				"on every node of the pool, which can only overstate their load", listed[j].Name, field.QuoteList(zones)))
		}
	}
	notes = s.poolExtended(i, &pp, &fp, notes)
	s.poolSystemDaemonSets(&pp, &fp, listed, notes)
	return fp, nil
}

// poolSystemDaemonSets sets the platform's system DaemonSets pool pp counts (PoolPlan.SystemDaemonSets) and its
// note: a listed DaemonSet that lands on the pool's nodes (fp) replaces the platform's of its name there; one
// that does not (its node selector, affinity or tolerations keep it off) leaves the platform's counted, and the
// note says which were replaced and which kept.
func (s *solve) poolSystemDaemonSets(pp *PoolPlan, fp *fit.Pool, listed []fit.DaemonSet, notes []string) {
	var replaced, kept []string
	pp.SystemDaemonSets = slices.DeleteFunc(slices.Clone(pp.Overhead.SystemDaemonSets), func(d fit.DaemonSet) bool {
		named := false
		for j := range listed { // several listed DaemonSets may share a name, each on its own pools
			if listed[j].Name != d.Name {
				continue
			}
			named = true
			if fit.DaemonSetLandsOn(&listed[j], fp) {
				replaced = append(replaced, d.Name)
				return true
			}
		}
		if named {
			kept = append(kept, d.Name)
		}
		return false
	})
	if len(pp.SystemDaemonSets) > 0 {
		notes = append(notes, SystemDaemonSetsNote(pp.Overhead.Profile, pp.SystemDaemonSets))
	} else if n := NoSystemDaemonSetsNote(pp.Overhead, s.req.SystemDaemonSets); n != "" && len(replaced) == 0 {
		notes = append(notes, n)
	}
	if len(replaced) > 0 {
		notes = append(notes, fmt.Sprintf("replaced by the listed DaemonSets of the same name, which land on this pool: the platform's %s",
			strings.Join(replaced, ", ")))
	}
	if len(kept) > 0 {
		notes = append(notes, fmt.Sprintf("the listed %s does not land on this pool (its node selector, affinity or tolerations keep it off), so the platform's is counted here",
			strings.Join(kept, ", ")))
	}
	pp.Note = strings.Join(notes, "; ")
}

// workload applies the replica and spread defaults to workload i.
func (s *solve) workload(i int) fit.Workload {
	w := &s.req.Workloads[i]
	p := field.NewPath("Workloads").At(i)
	fw := fit.Workload{Name: w.Name, Requests: w.Requests, CPUUsageMillicores: w.CPUUsageMillicores,
		NodeSelector: w.NodeSelector, NodeAffinity: w.NodeAffinity, PreferredNodeAffinity: w.PreferredNodeAffinity, Tolerations: w.Tolerations, HostPorts: w.HostPorts, VolumeClaims: w.VolumeClaims, Pools: w.Pools, OS: w.OS, MaxSurge: w.MaxSurge, Spread: w.Spread,
		Namespace: w.Namespace, Labels: w.Labels, PodAffinity: w.PodAffinity, TopologySpread: w.TopologySpread, Priority: w.Priority,
		DisruptionBudget: w.DisruptionBudget, Extended: w.Extended}
	rerrs := ReplicaCountErrors(p, w.Name, w.Replicas, w.MinReplicas, w.MaxReplicas)
	s.errs = append(s.errs, rerrs...)
	switch {
	case len(rerrs) > 0:
	case w.Replicas != nil:
		fw.Replicas, fw.MaxReplicas = *w.Replicas, *w.Replicas
	case w.MinReplicas == nil:
		fw.MaxReplicas = *w.MaxReplicas
		fw.Replicas = min(1, fw.MaxReplicas)
		s.warnings = append(s.warnings, field.Warning{Code: WarnMinReplicasDefault, Path: p.Child("MinReplicas"),
			Message: fmt.Sprintf("workload %q gives only a maximum replica count (%d): its steady count is %d, as a HorizontalPodAutoscaler's minimum defaults to 1; give the minimum to say otherwise", w.Name, fw.MaxReplicas, fw.Replicas)})
	default:
		fw.Replicas, fw.MaxReplicas = *w.MinReplicas, *w.MinReplicas
		if w.MaxReplicas != nil {
			fw.MaxReplicas = *w.MaxReplicas
		}
	}
	if m := w.Requests.MemoryBytes; m > 0 && m < 1<<20 {
		s.warnings = append(s.warnings, field.Warning{Code: WarnMemoryInBytes, Path: p.Child("Requests", "MemoryBytes"),
			Message: fmt.Sprintf("workload %q requests %s of memory: a quantity without a suffix is bytes, and no container "+
				"runs in under 1 MiB; write it with Mi or Gi (%dMi, %dGi)", w.Name, fit.Plural(int(m), "byte", "bytes"), m, m)})
	}
	if w.OS != "" && w.OS != "linux" && w.OS != "windows" {
		s.errs = append(s.errs, field.Invalid(p.Child("OS"), w.OS, "workload %q: operating system %q is none of \"linux\" and \"windows\", the values of a pod's spec.os.name", w.Name, w.OS))
	}
	if fw.Spread.Type == fit.SpreadZone && fw.Spread.MaxSkew == 0 {
		fw.Spread.MaxSkew = 1
	}
	s.sharedClaims(p, w, fw)
	if u := fit.UnknownLabelExpressions(w.NodeAffinity); len(u) > 0 {
		s.warnings = append(s.warnings, field.Warning{Code: WarnAffinityUnknownLabel, Path: p.Child("NodeAffinity"),
			Message: fmt.Sprintf("the node affinity of workload %q has %s: planned nodes carry no such label, so kubefit lets every node pass; real nodes do, so check that the pods may use the pool's nodes", w.Name, strings.Join(u, " and "))})
	}
	for j, t := range w.PreferredNodeAffinity {
		if u := fit.UnknownLabelExpressions([]fit.NodeSelectorTerm{t.Term}); len(u) > 0 {
			s.warnings = append(s.warnings, field.Warning{Code: WarnAffinityUnknownLabel, Path: p.Child("PreferredNodeAffinity").At(j).Child("Term"),
				Message: fmt.Sprintf("the preferred node affinity of workload %q has %s: planned nodes carry no such label, so kubefit scores every node as matching it; "+
					"real nodes do, and the nodes it names score lower", w.Name, strings.Join(u, " and "))})
		}
	}
	return fw
}

// plan assembles the Plan from the packing and checks the credits of burstable pools.
func (s *solve) plan(res fit.Result) (*Plan, error) {
	pl := &Plan{Fits: res.Fits, Packing: res, Pools: s.pools}
	type creditWarning struct {
		at   int
		note string
	}
	var creditWarnings []creditWarning
	for _, f := range res.Failures {
		pl.Failures = append(pl.Failures, Failure{Workload: f.Workload, Pool: f.Pool, Scenario: f.Scenario, Reason: Reason(f.Reason), Message: f.Message})
	}
	for i := range pl.Pools {
		pp := &pl.Pools[i]
		po := res.Pools[i]
		pp.Allocatable, pp.WorkloadAllocatable, pp.DaemonSets = po.Allocatable, po.WorkloadAllocatable, po.DaemonSets
		for _, sc := range res.Scenarios {
			if sc.Scenario == fit.ScenarioSteady {
				pp.Steady = sc.Pools[i]
			} else {
				pp.Peak = sc.Pools[i]
			}
		}
		pp.MaxNodes = pp.Peak.MaxNodes // a maximum that follows from the plan (Pool.MaxFromPeak) is the plan's
		if s.req.Pools[i].MaxFromPeak {
			s.checkGKEZoneLimit(i, pp.MaxNodes, true)
		}
		if err := s.credits(i, pp); err != nil {
			return nil, err
		}
		if c := pp.Credits; c != nil && c.Result.Verdict.Fails() {
			pl.Fits = false
			pl.Failures = append(pl.Failures, Failure{Pool: pp.Name, Scenario: fit.ScenarioSteady, Reason: ReasonCredits,
				Message: fmt.Sprintf("pool %q (%s): the requests fit, but the expected CPU use of its busiest node is %dm. %s%s",
					pp.Name, c.Result.Budget.InstanceType, c.BusiestNodeMillicores, c.Result.Facts, s.creditRemedies(i, pp))})
			pl.addNote(Note{Reasons: []Reason{ReasonCredits}, Text: c.Result.Note})
		} else if c != nil && c.Result.Verdict.Warns() {
			s.warnings = append(s.warnings, field.Warning{Code: WarnAboveBaseline, Path: s.poolPath(i),
				Message: fmt.Sprintf("pool %q: %s", pp.Name, c.Result.Facts)})
			creditWarnings = append(creditWarnings, creditWarning{len(s.warnings) - 1, c.Result.Note})
		}
		s.warnDiskShare(i, pp)
	}
	// Why Kubernetes cannot see a credit shortfall is said once per plan: with the failures when some pool
	// fails (Misfits), otherwise with the first warning of each mode.
	for _, w := range creditWarnings {
		if !pl.hasNote(w.note) {
			pl.addNote(Note{Reasons: []Reason{ReasonCredits}, Text: w.note})
			s.warnings[w.at].Message += " " + w.note
		}
	}
	if note := fit.SchedulerNote(res.Scenarios); note != "" {
		pl.addNote(Note{Reasons: schedulerReasons, Text: note})
	}
	s.checkDiskTypes(res)
	if len(s.errs) > 0 {
		return nil, s.errs
	}
	// The placements of each scenario by workload name, the first of a name (a search per workload was
	// workloads² a plan: 3 s of ranking 500 candidates for 2,000 workloads).
	index := make([]map[string]int, len(res.Scenarios))
	for i, sc := range res.Scenarios {
		index[i] = make(map[string]int, len(sc.Placements))
		for j, p := range sc.Placements {
			if _, dup := index[i][p.Workload]; !dup {
				index[i][p.Workload] = j
			}
		}
	}
	byName := func(i int, name string) fit.Placement {
		if j, ok := index[i][name]; ok {
			return res.Scenarios[i].Placements[j]
		}
		return fit.Placement{Workload: name}
	}
	headroom := map[string]int64{}
	for _, h := range res.Headroom {
		headroom[h.Workload] = h.Replicas
	}
	for _, w := range s.packed.Workloads {
		wp := WorkloadPlan{Name: w.Name, SteadyReplicas: w.Replicas, PeakReplicas: w.PeakReplicas(), Headroom: headroom[w.Name]}
		for i, sc := range res.Scenarios {
			if sc.Scenario == fit.ScenarioSteady {
				wp.Steady = byName(i, w.Name)
			} else {
				wp.Peak = byName(i, w.Name)
			}
		}
		pl.Workloads = append(pl.Workloads, wp)
	}
	for _, sc := range res.Scenarios {
		if sc.SchedulerNote != "" {
			s.warnings = append(s.warnings, field.Warning{Code: WarnSchedulerBudget, Path: field.NewPath("Workloads"),
				Message: fmt.Sprintf("the %s scenario: %s", sc.Scenario, sc.SchedulerNote)})
		}
	}
	if w := res.NodeLossWarning; w != nil {
		at := field.NewPath("Disruptions")
		for i := range s.req.Pools {
			if s.req.Pools[i].Name == w.Pool {
				at = s.poolPath(i).Child("MaxNodes")
			}
		}
		s.warnings = append(s.warnings, field.Warning{Code: WarnNoSpareNode, Path: at, Message: w.Message})
	}
	pl.Warnings = s.warnings
	return pl, nil
}

// credits checks pool i's CPU credits when its type is burstable.
func (s *solve) credits(i int, pp *PoolPlan) error {
	rp := &s.req.Pools[i]
	b, ok, err := s.cat.CreditBudget(s.ctx, rp.Cloud, pp.Instance.Name)
	if err != nil {
		return fmt.Errorf("pool %q: looking up the credit budget of %q: %w", rp.Name, pp.Instance.Name, err)
	}
	if !ok || !b.Burstable() {
		if o := rp.Credits; o.Mode != "" || o.Start != (burst.Balance{}) || o.MinHours != nil || o.MaxSurplusCostPerMonth != nil {
			s.warnings = append(s.warnings, field.Warning{Code: WarnCreditsIgnored, Path: s.poolPath(i).Child("Credits"), Message: fmt.Sprintf(
				"pool %q: %s", rp.Name, burst.IgnoredOptions(pp.Instance.Name, b))})
		}
		return nil
	}
	c := &CreditCheck{BusiestNodeMillicores: pp.Steady.MaxNodeCPUUsageMillicores}
	for _, n := range pp.Steady.Nodes {
		c.NodeMillicores = append(c.NodeMillicores, n.CPUUsageMillicores)
	}
	in := burst.Input{Load: burst.Load{SustainedMillicores: c.BusiestNodeMillicores}, Mode: rp.Credits.Mode,
		Start: rp.Credits.Start, MinHours: burst.DefaultMinHours}
	if rp.Credits.MinHours != nil {
		in.MinHours = *rp.Credits.MinHours
	}
	if rp.Credits.MaxSurplusCostPerMonth != nil {
		in.MaxSurplusCostPerMonth, in.HasMaxSurplusCost = *rp.Credits.MaxSurplusCostPerMonth, true
	}
	r, err := burst.Evaluate(b, in)
	if err != nil {
		s.errs = append(s.errs, creditErrors(err).Prefix(s.poolPath(i).Child("Credits"))...)
		return nil
	}
	c.Result = r
	if r.SurplusCostPerMonth > 0 && len(c.NodeMillicores) == 0 {
		// Without the per-node list (a planner WithoutNodes), every node is counted at the busiest one's surplus: an
		// upper bound of the bill.
		c.SurplusCostPerMonth = r.SurplusCostPerMonth * float64(pp.Steady.NodesRequired)
	} else if r.SurplusCostPerMonth > 0 {
		// Every node above its baseline pays for its own surplus credits: the pool's sum, each node at its own use.
		for _, u := range c.NodeMillicores {
			if u == c.BusiestNodeMillicores {
				c.SurplusCostPerMonth += r.SurplusCostPerMonth
				continue
			}
			node := in
			node.Load.SustainedMillicores = u
			if nr, err := burst.Evaluate(b, node); err == nil {
				c.SurplusCostPerMonth += nr.SurplusCostPerMonth
			}
		}
	}
	pp.Credits = c
	return nil
}

// creditErrors returns the credit model's input errors as field errors.
func creditErrors(err error) field.Errors {
	if es := field.As(err); len(es) > 0 {
		return es
	}
	return field.Errors{field.Invalid(field.Path{}, "", "%v", err)}
}

// sharedClaims warns about the claims a workload's pods share that keep them to one node or one pod
// (volumes.md §7): kubefit places the pods freely and counts an attachment for each.
func (s *solve) sharedClaims(p field.Path, w *Workload, fw fit.Workload) {
	// Several replicas sharing a ReadWriteOnce claim are refused unless kept on one node (fit's validation); one
	// replica's second pod is its rolling update's surge, which starts before the old pod stops.
	if c, ok := fit.SharedOnceClaim(w.VolumeClaims); ok && fw.PeakReplicas() > 1 && fw.MaxReplicas <= 1 && !fit.KeptOnOneNode(&fw) {
		s.warnings = append(s.warnings, field.Warning{Code: WarnSharedVolume, Path: p.Child("VolumeClaims"), Message: fmt.Sprintf(
			"the %d pods of workload %q at peak share the ReadWriteOnce claim %q: its volume attaches to one node, so a pod the scheduler puts on another node stays ContainerCreating (Multi-Attach error); kubefit places them freely. "+
				"It runs one replica: the second pod is its rolling update's surge, which starts before the old pod stops; use strategy Recreate (or maxSurge 0), or a ReadWriteMany file share",
			fw.PeakReplicas(), w.Name, c.Name)})
	}
	for _, c := range w.VolumeClaims {
		if c.From == fit.ClaimShared && slices.Contains(c.AccessModes, fit.ReadWriteOncePod) && fw.MaxReplicas == 1 && fw.PeakReplicas() > 1 {
			s.warnings = append(s.warnings, field.Warning{Code: WarnSharedVolume, Path: p.Child("MaxSurge"), Message: fmt.Sprintf(
				"workload %q has a rolling-update surge, but its one pod holds the ReadWriteOncePod claim %q: the surge pod stays Pending until the old pod is gone, which a rolling update waits for; use the Recreate strategy (max_surge = 0)",
				w.Name, c.Name)})
		}
	}
}

// NoSystemDaemonSetsNote says why a pool of profile counts none of the platform's system DaemonSets when the
// platform's are counted (mode SystemDaemonSetsPlatform): EKS Auto Mode runs pod networking and kube-proxy on
// the host, and no set is measured for EKS Windows nodes (AKS Windows nodes count theirs). It is "" otherwise.
func NoSystemDaemonSetsNote(r overhead.Result, mode overhead.SystemDaemonSets) string {
	switch {
	case mode == overhead.SystemDaemonSetsListed:
		return ""
	case r.Profile == overhead.EKSWindows:
		return fmt.Sprintf("no system DaemonSets counted (%s): none has been measured on EKS Windows nodes; list the DaemonSets that run on them", r.Profile)
	case r.NodeGroupKind == overhead.AutoMode:
		return fmt.Sprintf("no system DaemonSets counted (%s, Auto Mode): Auto Mode runs pod networking and kube-proxy on the host, not as DaemonSets", r.Profile)
	}
	return ""
}

// SystemDaemonSetsNote says which system DaemonSets of the platform a pool of profile counts, with their sum and
// the remarks of overhead.SystemDaemonSetsRemarks: `the platform's system DaemonSets counted (aks-linux):
// kube-proxy 100m, … (350m CPU, 470Mi memory, 6 pods); add-ons not counted, …`; a set without memory requests gives
// none: `… (150m CPU, 2 pods)`.
func SystemDaemonSetsNote(profile overhead.Profile, ds []fit.DaemonSet) string {
	var sum fit.Resources
	for _, d := range ds {
		sum.CPUMillicores += d.Requests.CPUMillicores
		sum.MemoryBytes += d.Requests.MemoryBytes
	}
	mem := "" // no memory requested (EKS's aws-node and kube-proxy): not written as a bare 0
	if sum.MemoryBytes > 0 {
		mem = resource.QuantityBytes(sum.MemoryBytes) + " memory, "
	}
	note := fmt.Sprintf("the platform's system DaemonSets counted (%s): %s (%s CPU, %s%s)", profile, overhead.DaemonSetsText(ds),
		resource.QuantityCPU(sum.CPUMillicores), mem, fit.Plural(len(ds), "pod", "pods"))
	if rm := overhead.SystemDaemonSetsRemarks(profile, ds); rm != "" {
		note += "; " + rm
	}
	return note
}
