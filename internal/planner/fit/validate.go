package fit

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/api/validate/content"
)

// Planner limits. They keep every plan's memory and run time bounded and its integer sums exact;
// inputs beyond them are rejected by Validate with an error naming the limit.
const (
	// MaxQuantity is the largest accepted resource quantity or CPU usage (2^50: 1 PiB of memory).
	MaxQuantity = int64(1) << 50
	// MaxPlanPods is the largest accepted pod count of one scenario, summed over workloads.
	MaxPlanPods = 1_000_000
	// MaxPlanNodes is the largest accepted sum of MaxNodes over all pools.
	MaxPlanNodes = 1_000_000
	// MaxPoolZones is the largest accepted number of zones of one pool.
	MaxPoolZones = 64
	// MaxPoolWeight is the largest pool weight, as for a Karpenter NodePool.
	MaxPoolWeight = 100
)

// InputError is one invalid input value. Field is a path to the value in the Terraform-facing
// attribute names of the input:
//
//	pools[0].max_nodes
//	workloads[2].requests.cpu
//	workloads[2].tolerations[1].operator
//	daemonsets[0].node_selector["kubernetes.io/arch"]
//
// Segments are attribute names in snake_case separated by ".", a list element is "[n]" (0-based)
// and a map element is "[\"key\"]" with the key quoted as by strconv.Quote. Steps parses Field into
// steps that map one-to-one onto a terraform-plugin-framework path (AtName, AtListIndex, AtMapKey).
// Value is the offending value as text; Msg says what is wrong, naming the pool, workload or
// DaemonSet.
type InputError struct {
	Field string
	Value string
	Msg   string
}

// Error returns the field, the quoted value and the message, for example
// `workloads[2].max_replicas "1": max_replicas 1 of workload "web" is less than replicas 3 (min > max)`.
func (e *InputError) Error() string {
	return e.Field + " " + strconv.Quote(e.Value) + ": " + e.Msg
}

// StepKind is the kind of one step of an InputError path.
type StepKind int

// The kinds of path steps.
const (
	// StepAttribute is a named attribute ("max_nodes").
	StepAttribute StepKind = iota
	// StepIndex is a list element ("[2]").
	StepIndex
	// StepMapKey is a map element ("[\"kubernetes.io/arch\"]").
	StepMapKey
)

// PathStep is one step of an InputError path: an attribute Name, a list Index or a map Key.
type PathStep struct {
	Kind  StepKind
	Name  string
	Index int
	Key   string
}

// Steps parses Field into path steps. It returns nil if Field is not in the documented format, which
// never happens for errors returned by Validate.
func (e *InputError) Steps() []PathStep {
	var steps []PathStep
	s := e.Field
	for first := true; len(s) > 0; first = false {
		switch {
		case s[0] == '[' && !first && strings.HasPrefix(s, `["`):
			key, rest, ok := cutQuoted(s[1:])
			if !ok || !strings.HasPrefix(rest, "]") {
				return nil
			}
			steps = append(steps, PathStep{Kind: StepMapKey, Key: key})
			s = rest[1:]
		case s[0] == '[' && !first:
			end := strings.IndexByte(s, ']')
			if end < 0 {
				return nil
			}
			i, err := strconv.Atoi(s[1:end])
			if err != nil || i < 0 || strconv.Itoa(i) != s[1:end] {
				return nil
			}
			steps = append(steps, PathStep{Kind: StepIndex, Index: i})
			s = s[end+1:]
		default:
			if !first {
				if s[0] != '.' {
					return nil
				}
				s = s[1:]
			}
			n := strings.IndexAny(s, ".[")
			if n < 0 {
				n = len(s)
			}
			if n == 0 {
				return nil
			}
			steps = append(steps, PathStep{Kind: StepAttribute, Name: s[:n]})
			s = s[n:]
		}
	}
	return steps
}

// cutQuoted splits a leading Go-quoted string off s.
func cutQuoted(s string) (val, rest string, ok bool) {
	prefix, err := strconv.QuotedPrefix(s)
	if err != nil {
		return "", "", false
	}
	val, err = strconv.Unquote(prefix)
	if err != nil {
		return "", "", false
	}
	return val, s[len(prefix):], true
}

// InputErrors returns every *InputError inside err (as returned by Validate or Plan), in order.
func InputErrors(err error) []*InputError {
	var out []*InputError
	var walk func(error)
	walk = func(e error) {
		if e == nil {
			return
		}
		if ie, ok := e.(*InputError); ok {
			out = append(out, ie)
			return
		}
		if j, ok := e.(interface{ Unwrap() []error }); ok {
			for _, x := range j.Unwrap() {
				walk(x)
			}
			return
		}
		walk(errors.Unwrap(e))
	}
	walk(err)
	return out
}

// validator collects InputErrors in input order.
type validator struct {
	errs []error
}

func (v *validator) add(field, value, format string, args ...any) {
	v.errs = append(v.errs, &InputError{Field: field, Value: value, Msg: fmt.Sprintf(format, args...)})
}

// Validate checks an input and returns nil or every problem found, joined with errors.Join; each is
// an *InputError (see InputErrors) naming the pool, DaemonSet or workload and the field.
func Validate(in Input) error {
	var v validator
	poolIdx := v.pools(in.Pools)
	v.daemonSets(in.DaemonSets)
	v.workloads(in, poolIdx)
	return errors.Join(v.errs...)
}

func itoa(n int) string { return strconv.Itoa(n) }

func i64(n int64) string { return strconv.FormatInt(n, 10) }

var resourceFields = [nRes]string{"cpu", "memory", "ephemeral_storage", "pods", "gpu"}

// pools validates the pools and returns their index by name (first occurrence).
func (v *validator) pools(pools []Pool) map[string]int {
	idx := make(map[string]int, len(pools))
	var maxSum int64
	sumReported := false
	for i := range pools {
		p := &pools[i]
		f := "pools[" + itoa(i) + "]"
		switch j, dup := idx[p.Name]; {
		case p.Name == "":
			v.add(f+".name", "", "pool name must not be empty")
		case dup:
			v.add(f+".name", p.Name, "duplicate pool name %q (also pools[%d])", p.Name, j)
		default:
			idx[p.Name] = i
		}
		a := toVec(p.Allocatable)
		for r := range nRes {
			ff := f + ".allocatable." + resourceFields[r]
			required := r == rCPU || r == rMem || r == rPods
			switch {
			case required && a[r] <= 0:
				v.add(ff, i64(a[r]), "allocatable %s of pool %q must be positive", ResourceNames[r], p.Name)
			case a[r] < 0:
				v.add(ff, i64(a[r]), "allocatable %s of pool %q must be at least 0", ResourceNames[r], p.Name)
			case a[r] > MaxQuantity:
				v.add(ff, i64(a[r]), "allocatable %s of pool %q exceeds the planner limit %d", ResourceNames[r],
					p.Name, MaxQuantity)
			}
		}
		if p.MinNodes < 0 {
			v.add(f+".min_nodes", itoa(p.MinNodes), "min_nodes of pool %q must be at least 0", p.Name)
		}
		switch {
		case p.MaxNodes < 0:
			v.add(f+".max_nodes", itoa(p.MaxNodes), "max_nodes of pool %q must be at least 0", p.Name)
		case p.MaxNodes < p.MinNodes:
			v.add(f+".max_nodes", itoa(p.MaxNodes), "max_nodes %d of pool %q is less than min_nodes %d",
				p.MaxNodes, p.Name, p.MinNodes)
		default:
			maxSum += int64(p.MaxNodes)
			if maxSum > MaxPlanNodes && !sumReported {
				v.add(f+".max_nodes", itoa(p.MaxNodes), "max_nodes summed over pools reaches %d at pool %q, above "+
					"the planner limit of %d nodes", maxSum, p.Name, MaxPlanNodes)
				sumReported = true
			}
		}
		v.zones(f, p)
		v.labels(f+".labels", "pool "+strconv.Quote(p.Name), p.Labels)
		for j, t := range p.Taints {
			tf := f + ".taints[" + itoa(j) + "]"
			if msgs := content.IsLabelKey(t.Key); len(msgs) > 0 {
				v.add(tf+".key", t.Key, "taint key of pool %q is invalid: %s", p.Name, strings.Join(msgs, "; "))
			}
			if msgs := content.IsLabelValue(t.Value); len(msgs) > 0 {
				v.add(tf+".value", t.Value, "taint value of pool %q is invalid: %s", p.Name, strings.Join(msgs, "; "))
			}
			if !slices.Contains(TaintEffects, t.Effect) {
				v.add(tf+".effect", string(t.Effect), "taint effect of pool %q must be one of %s", p.Name,
					quoteList(enumStrings(TaintEffects)))
			}
		}
		if p.Weight < 0 || p.Weight > MaxPoolWeight {
			v.add(f+".weight", itoa(p.Weight), "weight of pool %q must be between 0 and %d", p.Name, MaxPoolWeight)
		}
		if math.IsNaN(p.PricePerHour) || math.IsInf(p.PricePerHour, 0) || p.PricePerHour < 0 {
			v.add(f+".price_per_hour", strconv.FormatFloat(p.PricePerHour, 'g', -1, 64),
				"price_per_hour of pool %q must be a finite number at least 0 (0 = unknown)", p.Name)
		}
	}
	return idx
}

func (v *validator) zones(f string, p *Pool) {
	if len(p.Zones) > MaxPoolZones {
		v.add(f+".zones", itoa(len(p.Zones)), "pool %q lists %d zones, above the planner limit of %d", p.Name,
			len(p.Zones), MaxPoolZones)
		return
	}
	seen := make(map[string]int, len(p.Zones))
	for j, z := range p.Zones {
		zf := f + ".zones[" + itoa(j) + "]"
		if z == "" {
			v.add(zf, z, "zone of pool %q must not be empty", p.Name)
		} else if k, dup := seen[z]; dup {
			v.add(zf, z, "duplicate zone %q of pool %q (also zones[%d])", z, p.Name, k)
		} else {
			seen[z] = j
		}
	}
}

// labels validates a label map (pool labels or a node selector) in key order.
func (v *validator) labels(f, owner string, m map[string]string) {
	for _, k := range sortedKeys(m) {
		kf := f + "[" + strconv.Quote(k) + "]"
		if msgs := content.IsLabelKey(k); len(msgs) > 0 {
			v.add(kf, k, "label key of %s is invalid: %s", owner, strings.Join(msgs, "; "))
		}
		if msgs := content.IsLabelValue(m[k]); len(msgs) > 0 {
			v.add(kf, m[k], "label value of %s is invalid: %s", owner, strings.Join(msgs, "; "))
		}
	}
}

func (v *validator) tolerations(f, owner string, tols []Toleration) {
	for j, t := range tols {
		tf := f + ".tolerations[" + itoa(j) + "]"
		switch t.Operator {
		case "", OperatorEqual:
			if t.Key == "" {
				v.add(tf+".operator", string(t.Operator), "toleration of %s with an empty key must use operator "+
					"\"Exists\"", owner)
			} else if msgs := content.IsLabelValue(t.Value); len(msgs) > 0 {
				v.add(tf+".value", t.Value, "toleration value of %s is invalid: %s", owner, strings.Join(msgs, "; "))
			}
		case OperatorExists:
			if t.Value != "" {
				v.add(tf+".value", t.Value, "toleration of %s with operator \"Exists\" must not set a value", owner)
			}
		default:
			v.add(tf+".operator", string(t.Operator), "toleration operator of %s must be one of %s", owner,
				quoteList(enumStrings(TolerationOperators)))
		}
		if t.Key != "" {
			if msgs := content.IsLabelKey(t.Key); len(msgs) > 0 {
				v.add(tf+".key", t.Key, "toleration key of %s is invalid: %s", owner, strings.Join(msgs, "; "))
			}
		}
		if t.Effect != "" && !slices.Contains(TaintEffects, t.Effect) {
			v.add(tf+".effect", string(t.Effect), "toleration effect of %s must be empty (all effects) or one of %s",
				owner, quoteList(enumStrings(TaintEffects)))
		}
	}
}

// requests validates a request vector; Pods is ignored.
func (v *validator) requests(f, owner string, r Resources, usage int64) {
	q := toVec(r)
	for i := range nRes {
		if i == rPods {
			continue
		}
		switch {
		case q[i] < 0:
			v.add(f+".requests."+resourceFields[i], i64(q[i]), "%s request of %s must be at least 0",
				ResourceNames[i], owner)
		case q[i] > MaxQuantity:
			v.add(f+".requests."+resourceFields[i], i64(q[i]), "%s request of %s exceeds the planner limit %d",
				ResourceNames[i], owner, MaxQuantity)
		}
	}
	if usage < 0 || usage > MaxQuantity {
		v.add(f+".cpu_usage", i64(usage), "CPU usage of %s must be between 0 and %d millicores", owner, MaxQuantity)
	}
}

func (v *validator) daemonSets(ds []DaemonSet) {
	seen := make(map[string]int, len(ds))
	for i := range ds {
		d := &ds[i]
		f := "daemonsets[" + itoa(i) + "]"
		switch j, dup := seen[d.Name]; {
		case d.Name == "":
			v.add(f+".name", "", "DaemonSet name must not be empty")
		case dup:
			v.add(f+".name", d.Name, "duplicate DaemonSet name %q (also daemonsets[%d])", d.Name, j)
		default:
			seen[d.Name] = i
		}
		owner := "DaemonSet " + strconv.Quote(d.Name)
		v.requests(f, owner, d.Requests, d.CPUUsageMillicores)
		v.labels(f+".node_selector", owner, d.NodeSelector)
		v.tolerations(f, owner, d.Tolerations)
	}
}

func (v *validator) workloads(in Input, poolIdx map[string]int) {
	if len(in.Workloads) > 0 && len(in.Pools) == 0 {
		v.add("pools", "0", "at least one pool is needed to place %d workload(s)", len(in.Workloads))
	}
	seen := make(map[string]int, len(in.Workloads))
	var steady, peak int64
	for i := range in.Workloads {
		w := &in.Workloads[i]
		f := "workloads[" + itoa(i) + "]"
		switch j, dup := seen[w.Name]; {
		case w.Name == "":
			v.add(f+".name", "", "workload name must not be empty")
		case dup:
			v.add(f+".name", w.Name, "duplicate workload name %q (also workloads[%d])", w.Name, j)
		default:
			seen[w.Name] = i
		}
		owner := "workload " + strconv.Quote(w.Name)
		counts := true
		switch {
		case w.Replicas < 0:
			v.add(f+".replicas", itoa(w.Replicas), "replicas of %s must be at least 0", owner)
			counts = false
		case w.Replicas > MaxPlanPods:
			v.add(f+".replicas", itoa(w.Replicas), "replicas of %s exceed the planner limit of %d pods", owner,
				MaxPlanPods)
			counts = false
		}
		switch {
		case w.MaxReplicas < 0 || w.MaxReplicas > MaxPlanPods:
			v.add(f+".max_replicas", itoa(w.MaxReplicas), "max_replicas of %s must be between 0 and %d", owner,
				MaxPlanPods)
			counts = false
		case counts && w.MaxReplicas < w.Replicas:
			v.add(f+".max_replicas", itoa(w.MaxReplicas), "max_replicas %d of %s is less than replicas %d (min > max)",
				w.MaxReplicas, owner, w.Replicas)
		}
		if w.MaxSurge.Value < 0 || w.MaxSurge.Value > MaxPlanPods {
			unit := ""
			if w.MaxSurge.Percent {
				unit = "%"
			}
			v.add(f+".max_surge", itoa(w.MaxSurge.Value)+unit, "max_surge of %s must be between 0 and %d", owner,
				MaxPlanPods)
			counts = false
		}
		if counts {
			steady += int64(w.Replicas)
			peak += int64(w.PeakReplicas())
		}
		v.requests(f, owner, w.Requests, w.CPUUsageMillicores)
		v.labels(f+".node_selector", owner, w.NodeSelector)
		v.tolerations(f, owner, w.Tolerations)
		listed := make(map[string]int, len(w.Pools))
		for j, name := range w.Pools {
			pf := f + ".pools[" + itoa(j) + "]"
			if _, ok := poolIdx[name]; !ok {
				v.add(pf, name, "%s names unknown pool %q", owner, name)
			} else if k, dup := listed[name]; dup {
				v.add(pf, name, "%s lists pool %q twice (also pools[%d])", owner, name, k)
			} else {
				listed[name] = j
			}
		}
		v.spread(f, owner, w, in.Pools)
	}
	if steady > MaxPlanPods {
		v.add("workloads", i64(steady), "the steady scenario has %d pods in total, above the planner limit of %d",
			steady, MaxPlanPods)
	}
	if peak > MaxPlanPods {
		v.add("workloads", i64(peak), "the peak scenario has %d pods in total (max_replicas plus surge), above "+
			"the planner limit of %d", peak, MaxPlanPods)
	}
}

func (v *validator) spread(f, owner string, w *Workload, pools []Pool) {
	sf := f + ".spread"
	switch w.Spread.Type {
	case "", SpreadNone:
		if w.Spread.MaxSkew != 0 {
			v.add(sf+".max_skew", itoa(w.Spread.MaxSkew), "max_skew of %s applies to zone spread only; set it to 0 "+
				"or use spread type \"zone\"", owner)
		}
	case SpreadNode:
		if w.Spread.MaxSkew != 0 && w.Spread.MaxSkew != 1 {
			v.add(sf+".max_skew", itoa(w.Spread.MaxSkew), "node spread of %s puts one pod per node; max_skew must "+
				"be 0 or 1", owner)
		}
	case SpreadZone:
		if w.Spread.MaxSkew < 1 || w.Spread.MaxSkew > MaxPlanPods {
			v.add(sf+".max_skew", itoa(w.Spread.MaxSkew), "max_skew of the zone spread of %s must be between 1 and %d",
				owner, MaxPlanPods)
		}
		for i := range pools {
			p := &pools[i]
			if len(p.Zones) > 0 {
				continue
			}
			if r, _ := exclusion(w, p); r == "" {
				v.add(sf+".type", string(w.Spread.Type), "%s spreads over zones but pool %q, which it may use, has no "+
					"zones; set the pool's zones or restrict the workload's pools", owner, p.Name)
			}
		}
	default:
		v.add(sf+".type", string(w.Spread.Type), "spread type of %s must be one of %s", owner,
			quoteList(enumStrings(SpreadTypes)))
	}
}

func enumStrings[T ~string](vals []T) []string {
	out := make([]string, len(vals))
	for i, x := range vals {
		out[i] = string(x)
	}
	return out
}
