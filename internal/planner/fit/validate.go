package fit

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/api/validate/content"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/resource"
)

// Planner limits. They keep every plan's memory and run time bounded and its integer sums exact;
// inputs beyond them are rejected by Validate with an error naming the limit.
const (
	// MaxQuantity is the largest accepted resource quantity or CPU usage (resource.MaxQuantity).
	MaxQuantity = resource.MaxQuantity
	// MaxPlanPods is the largest accepted pod count of one scenario, summed over workloads.
	MaxPlanPods = 1_000_000
	// MaxPlanNodes is the largest accepted sum of MaxNodes over all pools.
	MaxPlanNodes = 1_000_000
	// MaxPoolZones is the largest accepted number of zones of one pool.
	MaxPoolZones = 64
	// MaxPoolWeight is the largest pool weight, as for a Karpenter NodePool.
	MaxPoolWeight = 100
)

// validator collects input errors in input order.
type validator struct {
	errs field.Errors
}

func (v *validator) add(p field.Path, value, format string, args ...any) {
	v.errs = append(v.errs, field.Invalid(p, field.Shorten(value, 64), format, args...))
}

// Validate checks an input and returns nil or every problem found as field.Errors, in input order. Paths
// use the Go field names of Input: pools by name (Pools["general"].MaxNodes), DaemonSets and workloads by
// index (Workloads[2].Requests.CPUMillicores).
func Validate(in Input) error {
	var v validator
	poolIdx := v.pools(in.Pools)
	v.daemonSets(in.DaemonSets, in.Pools)
	v.workloads(in, poolIdx)
	if in.Scheduler != "" && !slices.Contains(SchedulerProfiles, in.Scheduler) {
		v.add(field.NewPath("Scheduler"), string(in.Scheduler), "unknown scheduler profile %q; use one of %s",
			in.Scheduler, field.QuoteList(SchedulerProfiles))
	}
	if in.Arrival != "" && !slices.Contains(ArrivalOrders, in.Arrival) {
		v.add(field.NewPath("Arrival"), string(in.Arrival), "unknown arrival order %q; use one of %s", in.Arrival,
			field.QuoteList(ArrivalOrders))
	}
	for i, d := range in.Disruptions {
		f := field.NewPath("Disruptions").At(i)
		switch {
		case !slices.Contains(DisruptionKinds, d):
			v.add(f, string(d), "unknown disruption scenario %q; use one of %s", d, field.QuoteList(DisruptionKinds))
		case slices.Index(in.Disruptions, d) < i:
			v.add(f, string(d), "disruption scenario %q is given twice", d)
		case d == DisruptSpotLoss && !slices.ContainsFunc(in.Pools, func(p Pool) bool { return p.CapacityType == CapacitySpot }):
			var names []string
			for _, p := range in.Pools[:min(len(in.Pools), 5)] {
				names = append(names, strconv.Quote(p.Name))
			}
			if len(in.Pools) > 5 {
				names = append(names, strconv.Itoa(len(in.Pools)-5)+" more")
			}
			v.add(f, string(d), "disruption scenario %q loses every spot pool, but none of the pools (%s) is a spot pool; set the capacity type "+
				"of those whose nodes are spot to %q, or drop %q", d, field.JoinAnd(names), CapacitySpot, d)
		}
	}
	return v.errs.Err()
}

// intOrPercent checks a count (0 to MaxPlanPods) or a percentage (0 to 100).
func (v *validator) intOrPercent(f field.Path, what string, x IntOrPercent) {
	switch {
	case x.Percent && (x.Value < 0 || x.Value > 100):
		v.add(f, itoa(x.Value)+"%", "%s %d%% must be between 0%% and 100%%", what, x.Value)
	case !x.Percent && (x.Value < 0 || x.Value > MaxPlanPods):
		v.add(f, itoa(x.Value), "%s %d must be between 0 and %d", what, x.Value, MaxPlanPods)
	}
}

// poolPath is the path of pool i: by name, or by index when the name is empty.
func poolPath(pools []Pool, i int) field.Path {
	if pools[i].Name == "" {
		return field.NewPath("Pools").At(i)
	}
	return field.NewPath("Pools").Key(pools[i].Name)
}

func itoa(n int) string { return strconv.Itoa(n) }

func i64(n int64) string { return strconv.FormatInt(n, 10) }

var resourceFields = [nRes]string{"CPUMillicores", "MemoryBytes", "EphemeralStorageBytes", "Pods", "GPU", "Volumes"}

// pools validates the pools and returns their index by name (first occurrence).
func (v *validator) pools(pools []Pool) map[string]int {
	idx := make(map[string]int, len(pools))
	var maxSum int64
	sumReported := false
	for i := range pools {
		p := &pools[i]
		f := poolPath(pools, i)
		switch _, dup := idx[p.Name]; {
		case p.Name == "":
			v.add(f.Child("Name"), "", "pool %d has an empty name; give every pool a name", i+1)
		case dup:
			v.add(f.Child("Name"), p.Name, "pool name %q is used twice; pool names must be unique", p.Name)
		default:
			idx[p.Name] = i
		}
		v.intOrPercent(f.Child("Upgrade", "MaxSurge"), "the upgrade max surge of pool "+strconv.Quote(p.Name), p.Upgrade.MaxSurge)
		v.intOrPercent(f.Child("Upgrade", "MaxUnavailable"), "the upgrade max unavailable of pool "+strconv.Quote(p.Name), p.Upgrade.MaxUnavailable)
		if p.CapacityType != "" && !slices.Contains(CapacityTypes, p.CapacityType) {
			v.add(f.Child("CapacityType"), string(p.CapacityType), "unknown capacity type %q of pool %q; use one of %s", p.CapacityType, p.Name, field.QuoteList(CapacityTypes))
		}
		v.extendedMap(f, "pool "+strconv.Quote(p.Name), p.Extended)
		a := toVec(p.Allocatable)
		for r := range nRes {
			ff := f.Child("Allocatable", resourceFields[r])
			required := r == rCPU || r == rMem || r == rPods
			switch {
			case required && a[r] <= 0:
				v.add(ff, i64(a[r]), "allocatable %s of pool %q must be positive", ResourceNames[r], p.Name)
			case a[r] < 0:
				v.add(ff, i64(a[r]), "allocatable %s of pool %q must be at least 0", ResourceNames[r], p.Name)
			case a[r] > MaxQuantity:
				v.add(ff, i64(a[r]), "allocatable %s of pool %q is %d, above the planner limit of %d", ResourceNames[r],
					p.Name, a[r], MaxQuantity)
			}
		}
		if p.MinNodes < 0 {
			v.add(f.Child("MinNodes"), itoa(p.MinNodes), "the minimum node count of pool %q is %d; it must be at least 0", p.Name, p.MinNodes)
		}
		switch {
		case p.MaxNodes < 0:
			v.add(f.Child("MaxNodes"), itoa(p.MaxNodes), "the maximum node count of pool %q is %d; it must be at least 0", p.Name, p.MaxNodes)
		case p.MaxNodes < p.MinNodes:
			v.add(f.Child("MinNodes"), itoa(p.MinNodes), "the minimum node count %d of pool %q is greater than its maximum node count %d (min > max); lower the minimum or raise the maximum",
				p.MinNodes, p.Name, p.MaxNodes)
		default:
			maxSum += int64(p.MaxNodes)
			if maxSum > MaxPlanNodes && !sumReported {
				v.add(f.Child("MaxNodes"), itoa(p.MaxNodes), "the maximum node counts summed over pools reach %d at pool %q, above "+
					"the planner limit of %d nodes", maxSum, p.Name, MaxPlanNodes)
				sumReported = true
			}
		}
		if p.MaxFromPeakPercent < 0 || p.MaxFromPeakPercent > 1000 {
			v.add(f.Child("MaxFromPeakPercent"), itoa(p.MaxFromPeakPercent), "the headroom %d%% above the peak of pool %q must be between 0 and 1000",
				p.MaxFromPeakPercent, p.Name)
		}
		v.zones(f, p)
		v.labels(f.Child("Labels"), "pool "+strconv.Quote(p.Name), p.Labels)
		for j, t := range p.Taints {
			tf := f.Child("Taints").At(j)
			if msgs := content.IsLabelKey(t.Key); len(msgs) > 0 {
				v.add(tf.Child("Key"), t.Key, "taint key %s of pool %q is invalid: %s", field.Quote(t.Key), p.Name, strings.Join(msgs, "; "))
			}
			if msgs := content.IsLabelValue(t.Value); len(msgs) > 0 {
				v.add(tf.Child("Value"), t.Value, "taint value %s of pool %q is invalid: %s", field.Quote(t.Value), p.Name, strings.Join(msgs, "; "))
			}
			if !slices.Contains(TaintEffects, t.Effect) {
				v.add(tf.Child("Effect"), string(t.Effect), "taint effect %s of pool %q must be one of %s", field.Quote(string(t.Effect)), p.Name,
					field.QuoteList(TaintEffects))
			}
		}
		if p.Weight < 0 || p.Weight > MaxPoolWeight {
			v.add(f.Child("Weight"), itoa(p.Weight), "the weight %d of pool %q must be between 0 and %d", p.Weight, p.Name, MaxPoolWeight)
		}
		if p.PodIPs < 0 || p.PodIPs > MaxQuantity {
			v.add(f.Child("PodIPs"), i64(p.PodIPs), "the pod IPs of a node of pool %q must be between 0 (no cap) and %d, got %d", p.Name, MaxQuantity, p.PodIPs)
		}
		for j, name := range p.SystemPods {
			if name == "" {
				v.add(f.Child("SystemPods").At(j), "", "system pod %d of pool %q has an empty name", j+1, p.Name)
			}
		}
		if math.IsNaN(p.PricePerHour) || math.IsInf(p.PricePerHour, 0) || p.PricePerHour < 0 {
			v.add(f.Child("PricePerHour"), strconv.FormatFloat(p.PricePerHour, 'g', -1, 64),
				"the price per hour %g of pool %q must be a finite number at least 0 (0 = unknown)", p.PricePerHour, p.Name)
		}
	}
	return idx
}

func (v *validator) zones(f field.Path, p *Pool) {
	if len(p.Zones) > MaxPoolZones {
		v.add(f.Child("Zones"), itoa(len(p.Zones)), "pool %q lists %d zones, above the planner limit of %d", p.Name,
			len(p.Zones), MaxPoolZones)
		return
	}
	seen := make(map[string]int, len(p.Zones))
	for j, z := range p.Zones {
		zf := f.Child("Zones").At(j)
		if z == "" {
			v.add(zf, z, "zone %d of pool %q is empty; name every zone", j+1, p.Name)
		} else if k, dup := seen[z]; dup {
			v.add(zf, z, "zone %q of pool %q is listed twice (zones %d and %d)", z, p.Name, k+1, j+1)
		} else {
			seen[z] = j
		}
	}
}

// labels validates a label map (pool labels or a node selector) in key order.
func (v *validator) labels(f field.Path, owner string, m map[string]string) {
	for _, k := range sortedKeys(m) {
		kf := f.Key(k)
		if msgs := content.IsLabelKey(k); len(msgs) > 0 {
			v.add(kf, k, "label key %s of %s is invalid: %s", field.Quote(k), owner, strings.Join(msgs, "; "))
		}
		if msgs := content.IsLabelValue(m[k]); len(msgs) > 0 {
			v.add(kf, m[k], "label value %s of %s is invalid: %s", field.Quote(m[k]), owner, strings.Join(msgs, "; "))
		}
	}
}

func (v *validator) tolerations(f field.Path, owner string, tols []Toleration) {
	for j, t := range tols {
		tf := f.Child("Tolerations").At(j)
		switch t.Operator {
		case "", OperatorEqual:
			if t.Key == "" {
				v.add(tf.Child("Operator"), string(t.Operator), "toleration %d of %s has an empty key, so it must use operator "+
					"\"Exists\"", j+1, owner)
			} else if msgs := content.IsLabelValue(t.Value); len(msgs) > 0 {
				v.add(tf.Child("Value"), t.Value, "toleration value %s of %s is invalid: %s", field.Quote(t.Value), owner, strings.Join(msgs, "; "))
			}
		case OperatorExists:
			if t.Value != "" {
				v.add(tf.Child("Value"), t.Value, "toleration %d of %s uses operator \"Exists\", so it must not set a value (it has %s)", j+1, owner, field.Quote(t.Value))
			}
		default:
			v.add(tf.Child("Operator"), string(t.Operator), "toleration operator %s of %s must be one of %s", field.Quote(string(t.Operator)), owner,
				field.QuoteList(TolerationOperators))
		}
		if t.Key != "" {
			if msgs := content.IsLabelKey(t.Key); len(msgs) > 0 {
				v.add(tf.Child("Key"), t.Key, "toleration key %s of %s is invalid: %s", field.Quote(t.Key), owner, strings.Join(msgs, "; "))
			}
		}
		if t.Effect != "" && !slices.Contains(TaintEffects, t.Effect) {
			v.add(tf.Child("Effect"), string(t.Effect), "toleration effect %s of %s must be empty (all effects) or one of %s",
				field.Quote(string(t.Effect)), owner, field.QuoteList(TaintEffects))
		}
	}
}

// requests validates a request vector; Pods is ignored.
func (v *validator) requests(f field.Path, owner string, r Resources, usage int64) {
	q := toVec(r)
	for i := range nRes {
		if i == rPods {
			continue
		}
		switch {
		case q[i] < 0:
			v.add(f.Child("Requests", resourceFields[i]), i64(q[i]), "the %s request %d of %s must be at least 0",
				ResourceNames[i], q[i], owner)
		case q[i] > MaxQuantity:
			v.add(f.Child("Requests", resourceFields[i]), i64(q[i]), "the %s request %d of %s is above the planner limit of %d",
				ResourceNames[i], q[i], owner, MaxQuantity)
		}
	}
	if usage < 0 || usage > MaxQuantity {
		v.add(f.Child("CPUUsageMillicores"), i64(usage), "the CPU usage %dm of %s must be between 0 and %d millicores", usage, owner, MaxQuantity)
	}
}

func (v *validator) daemonSets(ds []DaemonSet, pools []Pool) {
	seen := make(map[string][]int, len(ds)) // every earlier DaemonSet of each name: same-named ones may not share a pool
	for i := range ds {
		d := &ds[i]
		f := field.NewPath("DaemonSets").At(i)
		clash := -1
		for _, j := range seen[d.Name] {
			if !disjointPools(ds[j].Pools, d.Pools) && (len(pools) == 0 || landTogether(&ds[j], d, pools)) {
				clash = j
				break
			}
		}
		switch {
		case d.Name == "":
			v.add(f.Child("Name"), "", "DaemonSet %d has an empty name; give every DaemonSet a name", i+1)
		case clash >= 0:
			v.add(f.Child("Name"), d.Name, "DaemonSet name %q is used twice (DaemonSets %d and %d); names must be unique", d.Name, clash+1, i+1)
		default:
			seen[d.Name] = append(seen[d.Name], i)
		}
		owner := "DaemonSet " + strconv.Quote(d.Name)
		v.requests(f, owner, d.Requests, d.CPUUsageMillicores)
		v.labels(f.Child("NodeSelector"), owner, d.NodeSelector)
		v.affinity(f, owner, d.NodeAffinity)
		v.hostPorts(f, owner, d.HostPorts)
		v.tolerations(f, owner, d.Tolerations)
	}
}

// disjointPools reports whether two DaemonSets restricted to pools (DaemonSet.Pools) share none: no node
// runs both.
func disjointPools(a, b []string) bool {
	return len(a) > 0 && len(b) > 0 && !slices.ContainsFunc(a, func(p string) bool { return slices.Contains(b, p) })
}

// landTogether reports whether some pool's nodes run both DaemonSets (a listed DaemonSet that lands on some
// pools beside the platform's of its name, restricted to the others, do not).
func landTogether(a, b *DaemonSet, pools []Pool) bool {
	return slices.ContainsFunc(pools, func(p Pool) bool { return daemonSetMatches(a, &p) && daemonSetMatches(b, &p) })
}

func (v *validator) workloads(in Input, poolIdx map[string]int) {
	if len(in.Workloads) > 0 && len(in.Pools) == 0 {
		v.add(field.NewPath("Pools"), "0", "at least one pool is needed to place %d workload(s)", len(in.Workloads))
	}
	seen := make(map[string]int, len(in.Workloads))
	var steady, peak int64
	for i := range in.Workloads {
		w := &in.Workloads[i]
		f := field.NewPath("Workloads").At(i)
		switch j, dup := seen[w.Name]; {
		case w.Name == "":
			v.add(f.Child("Name"), "", "workload %d has an empty name; give every workload a name", i+1)
		case dup:
			v.add(f.Child("Name"), w.Name, "workload name %q is used twice (workloads %d and %d); names must be unique", w.Name, j+1, i+1)
		default:
			seen[w.Name] = i
		}
		owner := "workload " + strconv.Quote(w.Name)
		if b := w.DisruptionBudget; b != nil {
			bf := f.Child("DisruptionBudget")
			if b.MinAvailable != nil && b.MaxUnavailable != nil {
				v.add(bf, b.Text(), "the PodDisruptionBudget of %s sets both min_available and max_unavailable; the API server accepts one of them", owner)
			}
			if b.MinAvailable != nil {
				v.intOrPercent(bf.Child("MinAvailable"), "the PodDisruptionBudget min_available of "+owner, *b.MinAvailable)
			}
			if b.MaxUnavailable != nil {
				v.intOrPercent(bf.Child("MaxUnavailable"), "the PodDisruptionBudget max_unavailable of "+owner, *b.MaxUnavailable)
			}
		}
		counts := true
		switch {
		case w.Replicas < 0:
			v.add(f.Child("Replicas"), itoa(w.Replicas), "the replica count %d of %s must be at least 0", w.Replicas, owner)
			counts = false
		case w.Replicas > MaxPlanPods:
			v.add(f.Child("Replicas"), itoa(w.Replicas), "the replica count %d of %s is above the planner limit of %d pods", w.Replicas, owner,
				MaxPlanPods)
			counts = false
		}
		switch {
		case w.MaxReplicas < 0 || w.MaxReplicas > MaxPlanPods:
			v.add(f.Child("MaxReplicas"), itoa(w.MaxReplicas), "the maximum replica count %d of %s must be between 0 and %d", w.MaxReplicas, owner,
				MaxPlanPods)
			counts = false
		case counts && w.MaxReplicas < w.Replicas:
			v.add(f.Child("MaxReplicas"), itoa(w.MaxReplicas), "the maximum replica count %d of %s is less than its replica count %d (min > max)",
				w.MaxReplicas, owner, w.Replicas)
		}
		if w.MaxSurge.Value < 0 || w.MaxSurge.Value > MaxPlanPods {
			unit := ""
			if w.MaxSurge.Percent {
				unit = "%"
			}
			v.add(f.Child("MaxSurge"), itoa(w.MaxSurge.Value)+unit, "the rollout surge %d%s of %s must be between 0 and %d", w.MaxSurge.Value, unit, owner,
				MaxPlanPods)
			counts = false
		}
		if counts {
			steady += int64(w.Replicas)
			peak += int64(w.PeakReplicas())
		}
		v.requests(f, owner, w.Requests, w.CPUUsageMillicores)
		v.extendedMap(f, owner, w.Extended)
		v.labels(f.Child("NodeSelector"), owner, w.NodeSelector)
		v.affinity(f, owner, w.NodeAffinity)
		v.preferredAffinity(f, owner, w.PreferredNodeAffinity)
		v.hostPorts(f, owner, w.HostPorts)
		v.volumeClaims(f, w)
		v.podAffinity(f, owner, w)
		v.topologySpread(f, owner, w)
		v.tolerations(f, owner, w.Tolerations)
		listed := make(map[string]int, len(w.Pools))
		for j, name := range w.Pools {
			pf := f.Child("Pools").At(j)
			if _, ok := poolIdx[name]; !ok {
				v.add(pf, name, "%s may use pool %s, which is not defined; defined pools: %s", owner, field.Quote(name), field.QuoteList(sortedKeys(poolIdx))) // sizing.UndefinedPoolError's words
			} else if _, dup := listed[name]; dup {
				v.add(pf, name, "%s lists pool %q twice", owner, name)
			} else {
				listed[name] = j
			}
		}
		v.spread(f, owner, w, in.Pools)
	}
	if steady > MaxPlanPods {
		v.add(field.NewPath("Workloads"), i64(steady), "the steady scenario has %d pods in total, above the planner limit of %d",
			steady, MaxPlanPods)
	}
	if peak > MaxPlanPods {
		v.add(field.NewPath("Workloads"), i64(peak), "the peak scenario has %d pods in total (maximum replicas plus surge), above "+
			"the planner limit of %d", peak, MaxPlanPods)
	}
}

func (v *validator) spread(f field.Path, owner string, w *Workload, pools []Pool) {
	sf := f.Child("Spread")
	switch w.Spread.Type {
	case "", SpreadNone:
		if w.Spread.MaxSkew != 0 {
			v.add(sf.Child("MaxSkew"), itoa(w.Spread.MaxSkew), "a maximum skew (%d) of %s applies to zone spread only; drop it "+
				"or use spread type \"zone\"", w.Spread.MaxSkew, owner)
		}
	case SpreadNode:
		if w.Spread.MaxSkew != 0 && w.Spread.MaxSkew != 1 {
			v.add(sf.Child("MaxSkew"), itoa(w.Spread.MaxSkew), "node spread of %s puts one pod per node; its maximum skew must "+
				"be 0 or 1, not %d", owner, w.Spread.MaxSkew)
		}
	case SpreadZone:
		if w.Spread.MaxSkew < 1 || w.Spread.MaxSkew > MaxPlanPods {
			v.add(sf.Child("MaxSkew"), itoa(w.Spread.MaxSkew), "the maximum skew %d of the zone spread of %s must be between 1 and %d",
				w.Spread.MaxSkew, owner, MaxPlanPods)
		}
		for i := range pools {
			p := &pools[i]
			if len(p.Zones) > 0 {
				continue
			}
			if excludedBy(w, p) == "" {
				v.add(sf.Child("Type"), string(w.Spread.Type), "%s spreads over zones but pool %q, which it may use, has no "+
					"zones; set the pool's zones or restrict the workload's pools", owner, p.Name)
			}
		}
	default:
		v.add(sf.Child("Type"), string(w.Spread.Type), "spread type %s of %s must be one of %s", field.Quote(string(w.Spread.Type)), owner,
			field.QuoteList(SpreadTypes))
	}
}
