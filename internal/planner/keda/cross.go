package keda

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
)

// ExistingHPA is an HPA already in the cluster (or planned elsewhere) that a ScaledObject may conflict with.
type ExistingHPA struct {
	Namespace        string
	Name             string
	TargetAPIVersion string
	TargetKind       string
	TargetName       string
	// OwnerScaledObject is the name of the ScaledObject that owns it, "" if none.
	OwnerScaledObject string
	// OwnershipValidation false means the HPA is annotated validations.keda.sh/hpa-ownership: "false".
	OwnershipValidation *bool
}

// SharedDatabase is a database whose connections several ScaledObjects' pods share.
type SharedDatabase struct {
	Database
	// Clients are "<namespace>/<name>" of ScaledObjects.
	Clients []string
}

// Check is the input of the cross-object checks (keda.md §8.3).
type Check struct {
	ScaledObjects []Summary
	// HPAs are the summaries of HorizontalPodAutoscalers kubefit renders (package hpa), with HPAName their own
	// name. They share node groups, databases and the DNS budget with the ScaledObjects, and count in "one
	// autoscaler per target": KEDA creates an HPA of its own for every ScaledObject.
	HPAs         []Summary
	NodeGroups   []NodeGroupCapacity
	ExistingHPAs []ExistingHPA
	Databases    []SharedDatabase
	// ConcurrentRollouts is "one" (default: only the largest surge counts) or "all".
	ConcurrentRollouts string
	// NodeGroupOf places autoscalers ("namespace/name") on node groups by name, for autoscalers whose summary
	// names none (they were given no node group capacity of their own): the capacity check is then the one place
	// their node-group findings are given, beside the database and DNS findings, in one plan.
	NodeGroupOf map[string]string
	// DNS is the cluster's DNS set-up; nil skips the DNS budget (KCAP-E7, KCAP-W4; dns.md).
	DNS *DNS
	// Scheduler and Arrival are the cluster's kube-scheduler profile and the order in which pods reach it, as
	// in sizing and node groups (empty: the default profile, the rollout order): node groups are checked
	// with the placement the scheduler makes, not the best packing.
	Scheduler fit.SchedulerProfile
	Arrival   fit.ArrivalOrder
	// budget is what is left of the scheduler model's work budget in CheckAll (placeBudget); nil: none.
	budget *modelBudget
}

// CheckResult holds the warnings of the cross-object checks and, per node group, the nodes the peak needs.
type CheckResult struct {
	Warnings  []field.Warning
	PeakNodes map[string]int64
	// DatabaseDemand is, per database in input order, the connections its clients need at peak.
	DatabaseDemand []DatabaseDemand
	// DNS is the DNS budget's figures; nil when the check has no DNS set-up or no workload declares lookups.
	DNS *DNSResult
}

// DatabaseDemand is one database's demand at peak.
type DatabaseDemand struct {
	Name   string
	Demand int64
}

func normGV(av string) string {
	if av == "" {
		return "apps/v1"
	}
	return av
}

func normKind(k string) string {
	if k == "" {
		return "Deployment"
	}
	return k
}

// CheckAll runs KSO-E17 and, for the HPAs, KCAP-E6 (one autoscaler per target), the node groups' own
// misfits they left to the check (KCAP-E8), the shared node-group envelope (KCAP-E2/W1 over every workload on
// a group, ScaledObjects' and HPAs' alike), the shared database budgets (KCAP-E4/W2) and the DNS budget
// (KCAP-E7/W4).
func CheckAll(in Check) (*CheckResult, error) {
	in.ScaledObjects = slices.Clone(in.ScaledObjects)
	for i := range in.ScaledObjects {
		if s := &in.ScaledObjects[i]; s.HPAName == "" {
			s.HPAName = ScaledObject{Name: s.Name}.HPAName() // the name KEDA gives the HPA it creates
		}
	}
	in.HPAs = slices.Clone(in.HPAs)
	errs := placeOnGroups(&in)
	res := &CheckResult{PeakNodes: map[string]int64{}}
	sp := field.NewPath("ScaledObjects")
	targets, hpas := map[string]int{}, map[string]int{}
	for i, g := range in.NodeGroups {
		errs = append(errs, g.Validate(field.NewPath("NodeGroups").At(i))...)
	}
	for i, d := range in.Databases {
		errs = append(errs, d.Validate(field.NewPath("Databases").At(i))...)
	}
	errs = append(errs, checkSummaries(in.ScaledObjects, sp, "ScaledObject")...)
	errs = append(errs, checkSummaries(in.HPAs, field.NewPath("HPAs"), "HPA")...)
	errs = append(errs, checkReferences(in)...)
	if len(errs) > 0 {
		return res, errs
	}
	for i, s := range in.ScaledObjects {
		t := targetKey(s)
		if j, ok := targets[t]; ok {
			o := in.ScaledObjects[j]
			errs = append(errs, rule("KSO-E17", sp.At(i), s.Name,
				"the workload %s of type %s is already managed by the ScaledObject %s: only one ScaledObject may target it (an unset apiVersion and kind mean apps/v1 Deployment)",
				field.Quote(s.TargetName), normGV(s.TargetAPIVersion)+" "+normKind(s.TargetKind), field.Quote(o.Namespace+"/"+o.Name)))
		} else {
			targets[t] = i
		}
		h := s.Namespace + "|" + s.HPAName
		if j, ok := hpas[h]; ok {
			o := in.ScaledObjects[j]
			errs = append(errs, rule("KSO-E17", sp.At(i), s.Name,
				"the HPA %s is already managed by the ScaledObject %s", field.Quote(s.HPAName), field.Quote(o.Namespace+"/"+o.Name)))
		} else {
			hpas[h] = i
		}
		for k, e := range in.ExistingHPAs {
			if e.Namespace != s.Namespace || normGV(e.TargetAPIVersion) != normGV(s.TargetAPIVersion) ||
				normKind(e.TargetKind) != normKind(s.TargetKind) || e.TargetName != s.TargetName {
				continue
			}
			if e.OwnershipValidation != nil && !*e.OwnershipValidation || e.OwnerScaledObject == s.Name ||
				s.TransferHPAOwnership && s.HPAName == e.Name {
				continue
			}
			errs = append(errs, rule("KSO-E17", field.NewPath("ExistingHPAs").At(k), e.Name,
				"the workload %s of type %s is already managed by the hpa %s (ScaledObject %s): to take it over, annotate the ScaledObject with scaledobject.keda.sh/transfer-hpa-ownership: \"true\" and name that HPA in its advanced horizontalPodAutoscalerConfig",
				field.Quote(s.TargetName), normGV(s.TargetAPIVersion)+" "+normKind(s.TargetKind), field.Quote(e.Name), field.Quote(s.Namespace+"/"+s.Name)))
		}
	}
	errs = append(errs, checkHPAs(in, targets, hpas)...)
	all := autoscalers(in)
	errs = append(errs, groupFailures(in)...)
	in.budget = &modelBudget{left: placeBudget, remedyPods: remedyBudget}
	errs = append(errs, checkGroups(in, all, res)...)
	if b := in.budget; len(b.packed) > 0 {
		names := make([]string, len(b.packed))
		for i, n := range b.packed {
			names[i] = strconv.Quote(n)
		}
		what := "node group " + names[0] + " was"
		if len(names) > 1 {
			what = "node groups " + field.JoinAnd(names) + " were"
		}
		res.Warnings = append(res.Warnings, field.Warning{Code: "KCAP-W5", Path: field.NewPath("NodeGroups"), Message: fmt.Sprintf(
			"KCAP-W5: the scheduler model's work budget over this check ran out, so %s placed by the best packing alone, "+
				"with as many nodes as any scheduler needs to bind their pods, whatever their order and its scores (a pod "+
				"stays Pending only when no node has room for it); split the check to have every group modelled",
			what)})
	}
	res.Warnings = append(res.Warnings, unplaced(in)...)
	errs = append(errs, checkDatabases(in, all, res)...)
	errs = append(errs, checkDNS(in, all, res)...)
	return res, errs.Err()
}

// unplaced warns (KCAP-W10), in a check that has node groups, about each autoscaler it places on none, and each
// it places without pod requests: their pods are not counted on any group, so a passing check says nothing
// about them.
func unplaced(in Check) []field.Warning {
	if len(in.NodeGroups) == 0 {
		return nil
	}
	var out []field.Warning
	for _, l := range []struct {
		sums []Summary
		p    field.Path
		what string
	}{{in.ScaledObjects, field.NewPath("ScaledObjects"), "ScaledObject"}, {in.HPAs, field.NewPath("HPAs"), "HPA"}} {
		for i, s := range l.sums {
			id := strconv.Quote(s.Namespace + "/" + s.Name)
			switch {
			case s.NodeGroup == "":
				out = append(out, field.Warning{Code: "KCAP-W10", Path: l.p.At(i), Message: fmt.Sprintf(
					"KCAP-W10: %s %s is on no node group, so its peak of %d replicas is not checked against any: name its group in node_group_of (or its node_group_capacity)",
					l.what, id, s.PeakReplicas)})
			case s.PodRequests == nil:
				out = append(out, field.Warning{Code: "KCAP-W10", Path: l.p.At(i), Message: fmt.Sprintf(
					"KCAP-W10: %s %s is on node group %s but its summary has no pod requests (no target_workload), so its peak of %d replicas is not counted there: give it its target_workload",
					l.what, id, strconv.Quote(s.NodeGroup), s.PeakReplicas)})
			}
		}
	}
	return out
}

// groupFailures raises, as KCAP-E8 on each group, the misfits the node groups left to the check: a group
// that fails its own plan hides every object that reads its capacity, so a group may hand its misfits over,
// and the check gives them beside its own findings, in one plan (keda.md §8.3).
func groupFailures(in Check) field.Errors {
	var errs field.Errors
	for gi, g := range in.NodeGroups {
		for _, f := range g.Failures {
			at := ""
			if f.Attribute != "" {
				at = "; at fault: its " + f.Attribute
			}
			// The group words its message for its own diagnostic, after its name; the rule names the group once.
			msg := strings.TrimPrefix(strings.TrimSpace(f.Message), "node group "+strconv.Quote(g.Name)+": ")
			if r := strings.TrimSpace(f.Remedy); r != "" {
				msg += " " + r
			}
			errs = append(errs, rule("KCAP-E8", field.NewPath("NodeGroups").At(gi), g.Name,
				"node group %s does not carry its own workloads (reported here, as its misfits_reported_by = \"capacity_check\" asks%s): %s",
				strconv.Quote(g.Name), at, msg))
		}
	}
	return errs
}

// placeOnGroups applies NodeGroupOf to the summaries: each key must name an autoscaler of the check and each
// value a node group of it, and a summary that names a group already must name the same one.
func placeOnGroups(in *Check) field.Errors {
	var errs field.Errors
	groups := map[string]bool{}
	for _, g := range in.NodeGroups {
		groups[g.Name] = true
	}
	for _, id := range sortedKeys(in.NodeGroupOf) {
		g, p := in.NodeGroupOf[id], field.NewPath("NodeGroupOf").Key(id)
		if !groups[g] {
			errs = append(errs, field.Invalid(p, g, "no node group of the check is named %s", strconv.Quote(g)))
			continue
		}
		found := false
		for _, list := range [][]Summary{in.ScaledObjects, in.HPAs} {
			for i := range list {
				s := &list[i]
				if s.Namespace+"/"+s.Name != id {
					continue
				}
				found = true
				if s.NodeGroup != "" && s.NodeGroup != g {
					errs = append(errs, field.Invalid(p, g, "%s already names node group %s (its node group capacity)", strconv.Quote(id), strconv.Quote(s.NodeGroup)))
					continue
				}
				s.placed = s.NodeGroup == ""
				s.NodeGroup = g
			}
		}
		if !found {
			errs = append(errs, field.Invalid(p, g, "no ScaledObject or HPA of the check is %s (namespace/name)", strconv.Quote(id)))
		}
	}
	return errs
}

// checkSummaries checks that each summary at p names its object and target and has a peak.
func checkSummaries(sums []Summary, p field.Path, what string) field.Errors {
	var errs field.Errors
	for i, s := range sums {
		for _, f := range []struct{ name, v string }{{"Namespace", s.Namespace}, {"Name", s.Name}, {"TargetName", s.TargetName}} {
			if f.v == "" {
				errs = append(errs, field.Invalid(p.At(i).Child(f.name), "", "a %s summary needs its %s", what, strings.ToLower(f.name)))
			}
		}
		if s.PeakReplicas < 0 {
			errs = append(errs, field.Invalid(p.At(i).Child("PeakReplicas"), itoa(s.PeakReplicas), "a %s summary needs its peak replicas (0 or more)", what))
		}
	}
	return errs
}

// targetKey is a scale target: namespace, apiVersion, kind and name, with KEDA's defaults for an unset
// apiVersion and kind.
func targetKey(s Summary) string {
	return fmt.Sprintf("%s|%s|%s|%s", s.Namespace, normGV(s.TargetAPIVersion), normKind(s.TargetKind), s.TargetName)
}

// checkHPAs runs "one autoscaler per target" for the HPAs kubefit renders: against the ScaledObjects
// (targets and hpas index them by target and by the name of the HPA KEDA creates; KSO-E17), against each
// other and against the existing HPAs (KCAP-E6).
func checkHPAs(in Check, targets, hpas map[string]int) field.Errors {
	var errs field.Errors
	hp := field.NewPath("HPAs")
	byTarget, byName := map[string]int{}, map[string]int{}
	for i, h := range in.HPAs {
		what := field.Quote(h.TargetName) + " of type " + normGV(h.TargetAPIVersion) + " " + normKind(h.TargetKind)
		id := field.Quote(h.Namespace + "/" + h.Name)
		t := targetKey(h)
		if j, ok := targets[t]; ok {
			o := in.ScaledObjects[j]
			errs = append(errs, rule("KSO-E17", hp.At(i), h.Name,
				"the workload %s is scaled by both the HPA %s and the ScaledObject %s: KEDA creates an HPA of its own for a ScaledObject, so two autoscalers would fight over the replica count (KEDA's admission webhook refuses the ScaledObject, the workload being already managed by the hpa %s); keep one of them (a ScaledObject scales on cpu and memory triggers too)",
				what, id, field.Quote(o.Namespace+"/"+o.Name), field.Quote(h.Name)))
		}
		if j, ok := byTarget[t]; ok {
			o := in.HPAs[j]
			errs = append(errs, rule("KCAP-E6", hp.At(i), h.Name,
				"the workload %s is already scaled by the HPA %s: two HPAs on one workload fight over its replica count (the HPA controller stops both, AmbiguousSelector); merge their metrics into one HPA",
				what, field.Quote(o.Namespace+"/"+o.Name)))
		} else {
			byTarget[t] = i
		}
		n := h.Namespace + "|" + h.Name
		if j, ok := hpas[n]; ok {
			o := in.ScaledObjects[j]
			errs = append(errs, rule("KCAP-E6", hp.At(i), h.Name,
				"the HPA name %s is the name of the HPA KEDA creates for the ScaledObject %s: rename one of them", id, field.Quote(o.Namespace+"/"+o.Name)))
		}
		if j, ok := byName[n]; ok && j != i {
			errs = append(errs, rule("KCAP-E6", hp.At(i), h.Name, "the HPA %s is given twice", id))
		} else {
			byName[n] = i
		}
		for k, e := range in.ExistingHPAs {
			if e.Namespace != h.Namespace || e.Name == h.Name || normGV(e.TargetAPIVersion) != normGV(h.TargetAPIVersion) ||
				normKind(e.TargetKind) != normKind(h.TargetKind) || e.TargetName != h.TargetName {
				continue
			}
			errs = append(errs, rule("KCAP-E6", field.NewPath("ExistingHPAs").At(k), e.Name,
				"the workload %s is already scaled by the existing HPA %s, and the HPA %s would scale it too: two HPAs on one workload fight over its replica count (the HPA controller stops both, AmbiguousSelector); delete the existing HPA or merge them",
				what, field.Quote(e.Namespace+"/"+e.Name), id))
		}
	}
	return errs
}

// autoscaler is one autoscaled workload the shared checks count: a ScaledObject's or an HPA's summary.
type autoscaler struct {
	Summary
	hpa bool
}

// id is "<namespace>/<name>", how database clients name the autoscaler.
func (a autoscaler) id() string { return a.Namespace + "/" + a.Name }

// label names the autoscaler in messages: "shop/api" for a ScaledObject, HPA "shop/web" for an HPA.
func (a autoscaler) label() string {
	if a.hpa {
		return "HPA " + strconv.Quote(a.id())
	}
	return strconv.Quote(a.id())
}

// loadName names the autoscaler's pods in the placement model, unique across both kinds.
func (a autoscaler) loadName() string {
	if a.hpa {
		return "hpa:" + a.id()
	}
	return a.id()
}

// autoscalers lists the ScaledObjects, then the HPAs.
func autoscalers(in Check) []autoscaler {
	all := make([]autoscaler, 0, len(in.ScaledObjects)+len(in.HPAs))
	for _, s := range in.ScaledObjects {
		all = append(all, autoscaler{Summary: s})
	}
	for _, s := range in.HPAs {
		all = append(all, autoscaler{Summary: s, hpa: true})
	}
	return all
}

// ownSurgeWarning reports whether the object that made summary s, alone on group g, has already given KCAP-W1
// for it: its summary names g (it was checked against its node group capacity, not placed there by the check's
// NodeGroupOf) and its own check (checkNodeGroup)
// finds the peak within the group and the peak with its surge beyond it. The capacity check does not give the
// same warning a second time; where the scheduler model finds a rollout short that the object's check does not,
// it still does.
func ownSurgeWarning(g NodeGroupCapacity, s Summary) bool {
	if s.NodeGroup != g.Name || s.placed || s.PodRequests == nil || s.Surge <= 0 {
		return false
	}
	per, _ := perNode(g, *s.PodRequests, nil)
	if per <= 0 {
		return false
	}
	// The same capacity the object's check judges the surge against: its nodes, and what the zones hold under
	// its zone spread.
	var skews []int64
	for _, sc := range s.ZonalSpread {
		if sc.TopologyKey == ZoneKey && sc.WhenUnsatisfiable == "DoNotSchedule" {
			skews = append(skews, max(sc.MaxSkew, 1))
		}
	}
	holds := min(per*g.MaxNodes, zoneCap(g, per, skews))
	return s.PeakReplicas <= holds && s.PeakReplicas+s.Surge > holds
}

// checkGroups places every workload on a group at peak with the placement model (place), within at most
// MaxNodes nodes of the group's workload allocatable, then the rollout surge on top.
func checkGroups(in Check, all []autoscaler, res *CheckResult) field.Errors {
	var errs field.Errors
	for gi, g := range in.NodeGroups {
		var idx []int
		for i, s := range all {
			if s.NodeGroup == g.Name && s.PodRequests != nil {
				idx = append(idx, i)
			}
		}
		if len(idx) == 0 {
			continue
		}
		var names []string
		for _, i := range idx {
			names = append(names, all[i].label())
		}
		own := ownWorkloads(all, idx, g)
		if len(own) > 0 {
			var ws []string
			for _, w := range own {
				ws = append(ws, strconv.Quote(w.Name))
			}
			what := "workload"
			if len(own) > 1 {
				what = "workloads"
			}
			names = append(names, "the group's own "+what+" "+field.JoinAnd(ws))
		}
		gp := field.NewPath("NodeGroups").At(gi)
		loads := groupLoads(in, all, idx, g)
		pl, err := place(g, loads, in)
		if err != nil {
			errs = append(errs, rule("KCAP-E2", gp, g.Name, "%s", err.Error()))
			continue
		}
		res.PeakNodes[g.Name] = pl.peak
		if !pl.fits || pl.peak > g.MaxNodes {
			if exact, ok := needed(in, g, loads); pl.atLeast && ok {
				pl = exact // the nodes the peak needs, not only a lower bound from the totals
			}
			// Each maximum named lets the group hold the peak in all and in its smallest zone (KCAP-E3), so that
			// applying it clears both rules.
			lows := lowerRemedies(in, all, idx, g, false)
			errs = append(errs, rule("KCAP-E2", gp, g.Name,
				"node group %s cannot hold the peak of %s together%s: %s, but the group has at most %d.%s",
				strconv.Quote(g.Name), field.JoinAnd(names), pausedNotes(all, idx), placedText(pl, in, ""), g.MaxNodes, groupRemedies(in, all, idx, g, pl, lows)))
			// The zones are judged in the same plan: a group too small overall may also be too small in its
			// smallest zone, and the user would otherwise meet that only after raising the size.
			// Its remedy names the size the whole group needs too (none when only a bound from the totals is known).
			need := int64(0)
			if pl.fits && !pl.atLeast {
				need = pl.peak
			}
			errs = append(errs, checkZones(in, all, g, gp, idx, need, need, lows)...)
			continue
		}
		zerrs := checkZones(in, all, g, gp, idx, g.MaxNodes, pl.peak, nil)
		errs = append(errs, zerrs...)
		if len(zerrs) > 0 {
			continue // the peak is not held (KCAP-E3): a rollout on top of it says nothing more
		}
		var extra int64
		surges := map[int]int64{}
		for k, l := range loads {
			extra += l.surge
			if k < len(idx) && l.surge > 0 {
				surges[idx[k]] = l.surge
			}
		}
		if extra == 0 || (len(idx) == 1 && len(own) == 0 && ownSurgeWarning(g, all[idx[0]].Summary)) {
			continue
		}
		if pl.surge > g.MaxNodes {
			res.Warnings = append(res.Warnings, field.Warning{Code: "KCAP-W1", Path: gp, Message: fmt.Sprintf(
				"KCAP-W1: node group %s holds the peak of %s on %d of its %d nodes, but a rollout at peak (%d surge pods, concurrent rollouts %q) needs %d nodes: rollouts at full scale will stall%s",
				strconv.Quote(g.Name), field.JoinAnd(names), pl.peak, g.MaxNodes, extra, rolloutMode(in), pl.surge,
				remedyClause(groupSize(in, all, g, idx, surges, pl.surge, pl.surge)))})
		} else if len(surges) > 0 && zoneText(in, all, g, idx, surges) != "" {
			// The same zone check as KCAP-E3, with the surge pods counted beside the peak's.
			res.Warnings = append(res.Warnings, field.Warning{Code: "KCAP-W1", Path: gp, Message: fmt.Sprintf(
				"KCAP-W1: node group %s holds the peak of %s, but a rollout at peak (%d surge pods, concurrent rollouts %q) does not fit its smallest zone under the zone spread: it has%s; rollouts at full scale will stall%s",
				strconv.Quote(g.Name), field.JoinAnd(names), extra, rolloutMode(in),
				strings.TrimPrefix(zoneText(in, all, g, idx, surges), "node group "+strconv.Quote(g.Name)+" has"),
				remedyClause(groupSize(in, all, g, idx, surges, g.MaxNodes, pl.surge)))})
		}
	}
	return errs
}

// groupLoads is the peak of the autoscalers idx on group g, then of the group's own workloads no autoscaler of idx
// stands for (ownWorkloads), with the rollout surge the check counts: the largest single surge (concurrent rollouts
// "one"), on the workload that has it, or every surge ("all"). The first len(idx) loads are the autoscalers', in
// order.
func groupLoads(in Check, all []autoscaler, idx []int, g NodeGroupCapacity) []groupLoad {
	loads := make([]groupLoad, 0, len(idx)+len(g.Workloads))
	surges := make([]int64, 0, cap(loads))
	for _, i := range idx {
		s := all[i]
		loads = append(loads, groupLoad{name: s.loadName(), req: *s.PodRequests, count: s.PeakReplicas})
		surges = append(surges, s.Surge)
	}
	for _, w := range ownWorkloads(all, idx, g) {
		req := w.Requests
		req.Pods = max(req.Pods, 1) // each pod takes a slot
		loads = append(loads, groupLoad{name: "workload " + strconv.Quote(w.Name) + " of the group", req: req, count: w.Replicas})
		surges = append(surges, w.Surge)
	}
	largest := -1
	for k := range loads {
		if in.ConcurrentRollouts == "all" {
			loads[k].surge = surges[k]
		} else if largest < 0 || surges[k] > surges[largest] {
			largest = k
		}
	}
	if largest >= 0 {
		loads[largest].surge = surges[largest]
	}
	return loads
}

// standsFor reports whether a node group's workload named name is the scale target namespace/target of an autoscaler:
// its name is the target's, or namespace/name.
func standsFor(name, namespace, target string) bool {
	return name == target || name == namespace+"/"+target
}

// ownWorkloads returns the workloads of group g that no autoscaler of idx stands for: none scales a target of that
// name (or namespace/name).
func ownWorkloads(all []autoscaler, idx []int, g NodeGroupCapacity) []GroupWorkload {
	var out []GroupWorkload
	for _, w := range g.Workloads {
		stood := false
		for _, i := range idx {
			stood = stood || standsFor(w.Name, all[i].Namespace, all[i].TargetName)
		}
		if !stood && w.Replicas+w.Surge > 0 {
			out = append(out, w)
		}
	}
	return out
}

// placedText says how many nodes the placement needs, and by which model; where ("" or " there") follows the
// node count.
func placedText(pl placement, in Check, where string) string {
	switch {
	case !pl.fits:
		return "a pod fits no node of the group"
	case pl.atLeast:
		what := map[string]string{"cpu": "CPU requests", "memory": "memory requests", "ephemeral-storage": "ephemeral-storage requests", "pods": "pod count"}[pl.boundBy]
		return fmt.Sprintf("by their %s alone they need at least %d nodes%s", what, pl.peak, where)
	}
	if pl.packed {
		return fmt.Sprintf("the best packing needs %d nodes%s, and any scheduler binds them on %d (KCAP-W5: the scheduler model was not run)", pl.optimal, where, pl.peak)
	}
	return fmt.Sprintf("kube-scheduler (%s profile, %s arrival) places them on %d nodes%s (the best packing needs %d)",
		orDefault(string(in.Scheduler), string(fit.ProfileDefault)), orDefault(string(in.Arrival), string(fit.ArrivalRollout)), pl.peak, where, pl.optimal)
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

func rolloutMode(in Check) string {
	if in.ConcurrentRollouts == "" {
		return "one"
	}
	return in.ConcurrentRollouts
}

func checkDatabases(in Check, all []autoscaler, res *CheckResult) field.Errors {
	var errs field.Errors
	byID, ambiguous := map[string]int{}, map[string]bool{}
	for i, s := range all {
		if j, dup := byID[s.id()]; dup && all[j].hpa != s.hpa {
			ambiguous[s.id()] = true
		}
		byID[s.id()] = i
	}
	for di, db := range in.Databases {
		p := field.NewPath("Databases").At(di)
		var demand int64
		var parts []string
		var clients []autoscaler
		for ci, c := range db.Clients {
			i, ok := byID[c]
			if !ok {
				errs = append(errs, field.Invalid(p.Child("Clients").At(ci), c,
					"client %s of database %s is not one of the ScaledObjects or HPAs checked (%s); give them as namespace/name",
					field.Quote(c), strconv.Quote(db.Name), knownClients(all)))
				continue
			}
			if ambiguous[c] {
				errs = append(errs, field.Invalid(p.Child("Clients").At(ci), c,
					"client %s names both a ScaledObject and an HPA: rename one of them", field.Quote(c)))
				continue
			}
			s := all[i]
			if s.ConnectionsPerPod == nil {
				errs = append(errs, rule("KCAP-E4", p.Child("Clients").At(ci), c,
					"client %s does not declare its connections per pod", field.Quote(c)))
				continue
			}
			pods := s.PeakReplicas + s.Surge
			demand += pods * *s.ConnectionsPerPod
			parts = append(parts, fmt.Sprintf("%s %d pods × %d%s", c, pods, *s.ConnectionsPerPod, pausedNotes([]autoscaler{s}, nil)))
			clients = append(clients, s)
		}
		b := DatabaseBudget(db.Database, demand)
		res.DatabaseDemand = append(res.DatabaseDemand, DatabaseDemand{Name: db.Name, Demand: b.Demand})
		if db.OtherClients > 0 {
			parts = append(parts, fmt.Sprintf("%d other clients", db.OtherClients))
		}
		detail := strings.Join(parts, " + ")
		switch {
		case b.Demand > b.Hard:
			errs = append(errs, rule("KCAP-E4", p.Child("MaxConnections"), strconv.FormatInt(db.MaxConnections, 10),
				"database %s allows %d client connections but its clients need %d at peak (%s); %sraise its max_connections to %d, or put a connection pooler (RDS Proxy, ProxySQL, PgBouncer) in front of it",
				strconv.Quote(db.Name), b.Hard, b.Demand, detail, largestSafeClients(clients, b.Demand, b.Hard), b.Demand+db.ReservedConnections))
		case b.Demand > b.Soft:
			res.Warnings = append(res.Warnings, field.Warning{Code: "KCAP-W2", Path: p.Child("MaxConnections"), Message: fmt.Sprintf(
				"KCAP-W2: database %s: %d connections at peak (%s) exceed the usable share of %d of %d; databases often refuse connections well before their documented limit (small burstable classes such as db.t* also lose capacity when their CPU credits run out); consider a connection pooler",
				strconv.Quote(db.Name), b.Demand, detail, b.Soft, b.Hard)})
		}
	}
	return errs
}

// largestSafeClients names, for each client of database db, the largest maximum replica count, from its
// minimum (Summary.floor) up, with which the connections at peak stay within hard, the other clients unchanged
// and the client's rollout surge as its maxSurge gives it at that count (Summary.surgeAt); or, when even its
// minimum is too many, that no maximum of it is enough and what the clients need then.
func largestSafeClients(clients []autoscaler, demand, hard int64) string {
	var parts []string
	for _, s := range clients {
		conn := *s.ConnectionsPerPod
		if conn <= 0 || s.PeakReplicas <= 0 {
			continue
		}
		others := demand - (s.PeakReplicas+s.Surge)*conn
		pods := func(r int64) int64 { return r + s.surgeAt(r) }
		maxName := "maxReplicaCount"
		if s.hpa {
			maxName = "maxReplicas"
		}
		floor := min(s.floor(), s.PeakReplicas)
		if others+pods(floor)*conn > hard {
			parts = append(parts, fmt.Sprintf("no %s of %s at or above its minimum of %d is enough, the others unchanged%s: at %d the clients still need %d",
				maxName, s.id(), floor, pausedNone(s.Summary), floor, others+pods(floor)*conn))
			continue
		}
		lo, hi := floor, s.PeakReplicas
		for lo < hi {
			mid := (lo + hi + 1) / 2
			if others+pods(mid)*conn <= hard {
				lo = mid
			} else {
				hi = mid - 1
			}
		}
		note := ""
		if sg := s.surgeAt(lo); sg > 0 {
			unit := "pods"
			if sg == 1 {
				unit = "pod"
			}
			note = fmt.Sprintf(" with its rollout surge (%d surge %s at %d replicas)", sg, unit, lo)
		}
		if r := s.pausedLower(s.id(), maxName, lo); r != "" {
			parts = append(parts, r+", the others unchanged"+note)
			continue
		}
		parts = append(parts, fmt.Sprintf("the largest safe %s of %s, the others unchanged, is %d%s", maxName, s.id(), lo, note))
	}
	if len(parts) == 0 {
		return ""
	}
	return "lower a client's maximum replica count (" + strings.Join(parts, "; ") + "), "
}
