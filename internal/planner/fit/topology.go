package fit

import (
	"math"
	"slices"
	"strconv"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
)

// Topology spread constraints in full, as kube-scheduler's PodTopologySpread plugin applies them
// (pkg/scheduler/framework/plugins/podtopologyspread: filtering.go, scoring.go and common.go at v1.37).

// Unsatisfiable says what a topology spread constraint does when it cannot be met.
type Unsatisfiable string

// The whenUnsatisfiable values.
const (
	DoNotSchedule  Unsatisfiable = "DoNotSchedule"
	ScheduleAnyway Unsatisfiable = "ScheduleAnyway"
)

// UnsatisfiableValues lists every whenUnsatisfiable value.
var UnsatisfiableValues = []Unsatisfiable{DoNotSchedule, ScheduleAnyway}

// InclusionPolicy says whether a spread constraint counts only the nodes that pass the pod's node affinity
// (nodeAffinityPolicy) or tolerate its taints (nodeTaintsPolicy).
type InclusionPolicy string

// The inclusion policies. The empty policy is the Kubernetes default: Honor for node affinity, Ignore for
// taints.
const (
	PolicyHonor  InclusionPolicy = "Honor"
	PolicyIgnore InclusionPolicy = "Ignore"
)

// InclusionPolicies lists every inclusion policy.
var InclusionPolicies = []InclusionPolicy{PolicyHonor, PolicyIgnore}

// TopologySpreadConstraint is a pod's topologySpreadConstraints entry: the pods Selector matches (in the
// pod's namespace, the values of MatchLabelKeys from the pod's own labels added) may differ by at most
// MaxSkew between the domains of TopologyKey; DoNotSchedule filters, ScheduleAnyway scores. MinDomains
// (DoNotSchedule only; 0 means 1) counts missing domains as holding none.
type TopologySpreadConstraint struct {
	MaxSkew            int
	TopologyKey        string
	WhenUnsatisfiable  Unsatisfiable
	Selector           LabelSelector
	MinDomains         int
	NodeAffinityPolicy InclusionPolicy
	NodeTaintsPolicy   InclusionPolicy
	MatchLabelKeys     []string
}

// spreadTerm is one constraint of one class, ready for the scheduler model.
type spreadTerm struct {
	owner    int
	filter   bool // DoNotSchedule
	skew     int32
	minDom   int
	key      int
	matches  []bool // per class
	eligible []bool // per node: counted (passes the policies and has the key)
	// excludes: per presence, whether nodeTaintsPolicy Honor keeps a present dead node of that kind out of
	// the domains (the owner does not tolerate its taint).
	excludes [presenceKinds]bool
	domains  []int32
	cnt      []int32 // per domain: matching pods on eligible nodes
}

// spreadState holds the classes' constraints on one cluster.
type spreadState struct {
	terms []spreadTerm
	keys  []string
	dom   [][]int32 // [key][node]
	own   [][]int   // per class: its constraints
	touch [][]int   // per class: the constraints whose counts its pods change
	any   bool
}

// selector returns the constraint's selector with the MatchLabelKeys values of the pod's labels added.
func (t TopologySpreadConstraint) selector(podLabels map[string]string) *metav1.LabelSelector {
	ls := t.Selector.kube()
	for _, k := range t.MatchLabelKeys {
		if v, ok := podLabels[k]; ok {
			ls.MatchExpressions = append(ls.MatchExpressions, metav1.LabelSelectorRequirement{Key: k, Operator: metav1.LabelSelectorOpIn, Values: []string{v}})
		}
	}
	return ls
}

// initSpread prepares the classes' topology spread constraints (resetSpread builds their per-node state).
func (cl *cluster) initSpread() {
	ss := &cl.ss
	ss.own = make([][]int, len(cl.classes))
	ss.touch = make([][]int, len(cl.classes))
	for c := range cl.classes {
		wl := &cl.m.in.Workloads[cl.classes[c].c.w]
		for _, t := range wl.TopologySpread {
			sel, err := metav1.LabelSelectorAsSelector(t.selector(PodLabels(wl)))
			if err != nil {
				continue
			}
			key := slices.Index(ss.keys, t.TopologyKey)
			if key < 0 {
				key = len(ss.keys)
				ss.keys = append(ss.keys, t.TopologyKey)
			}
			st := spreadTerm{owner: c, filter: t.WhenUnsatisfiable != ScheduleAnyway, skew: int32(max(t.MaxSkew, 1)), minDom: max(t.MinDomains, 1),
				key: key, matches: make([]bool, len(cl.classes))}
			for o := range cl.classes {
				other := &cl.m.in.Workloads[cl.classes[o].c.w]
				st.matches[o] = other.namespace() == wl.namespace() && sel.Matches(podLabels(other))
			}
			id := len(ss.terms)
			ss.terms = append(ss.terms, st)
			ss.own[c] = append(ss.own[c], id)
			for o, ok := range st.matches {
				if ok {
					ss.touch[o] = append(ss.touch[o], id)
				}
			}
			ss.any = true
		}
	}
}

// resetSpread builds each constraint's domains and eligible nodes on the cluster's nodes and empties the
// counts. A node is counted when it has every key of the owner's constraints of the same kind
// (DoNotSchedule for the filter, ScheduleAnyway for the score: nodeLabelsMatchSpreadConstraints in
// podtopologyspread's calPreFilterState and initPreScoreState) and passes the owner's policies:
// nodeAffinityPolicy Honor (the default) counts only the pools its node selector, node affinity and pool
// list allow; nodeTaintsPolicy Honor only the pools whose taints it tolerates.
func (cl *cluster) resetSpread() {
	ss := &cl.ss
	if !ss.any {
		return
	}
	ss.dom = resizeRows(ss.dom, len(ss.keys))
	ndom := make([]int, len(ss.keys))
	for k, key := range ss.keys {
		ss.dom[k], ndom[k] = cl.domainsOf(key)
	}
	for i := range ss.terms {
		st := &ss.terms[i]
		wl := &cl.m.in.Workloads[cl.classes[st.owner].c.w]
		spec := wl.TopologySpread[slices.Index(ss.own[st.owner], i)]
		st.eligible = make([]bool, len(cl.nodes))
		for k, t := range presenceTaints {
			st.excludes[k] = presence(k) != notPresent && spec.NodeTaintsPolicy == PolicyHonor && len(untolerated([]Taint{t}, wl.Tolerations)) > 0
		}
		seen := make([]bool, ndom[st.key])
		st.domains = st.domains[:0]
	nodes:
		for id := range cl.nodes {
			d := ss.dom[st.key][id]
			if d < 0 {
				continue
			}
			for _, o := range ss.own[st.owner] {
				if ot := &ss.terms[o]; ot.filter == st.filter && ss.dom[ot.key][id] < 0 {
					continue nodes
				}
			}
			pool := cl.m.pools[cl.nodes[id].pool].p
			if spec.NodeAffinityPolicy != PolicyIgnore && !nodeRulesMatch(wl, pool) {
				continue
			}
			if spec.NodeTaintsPolicy == PolicyHonor && len(untolerated(pool.Taints, wl.Tolerations)) > 0 {
				continue
			}
			st.eligible[id] = true
			if !seen[d] {
				seen[d] = true
				st.domains = append(st.domains, d)
			}
		}
		st.cnt = resize(st.cnt, ndom[st.key])
	}
}

// domainsOf returns each node's domain of a topology key (-1 when it lacks the label) and the number of
// domains: every node of its own for the hostname, the zones, or the values of a pool label.
func (cl *cluster) domainsOf(key string) ([]int32, int) {
	d := make([]int32, len(cl.nodes))
	switch key {
	case hostnameKey:
		for id := range d {
			d[id] = int32(id)
		}
		return d, len(cl.nodes)
	case zoneLabel, "failure-domain.beta.kubernetes.io/zone":
		for id := range d {
			d[id] = cl.nodes[id].zone
		}
		return d, len(cl.m.zoneNames)
	}
	values := map[string]int32{}
	for id := range d {
		v, ok := cl.m.pools[cl.nodes[id].pool].p.Labels[key]
		if !ok {
			d[id] = -1
			continue
		}
		if _, seen := values[v]; !seen {
			values[v] = int32(len(values))
		}
		d[id] = values[v]
	}
	return d, len(values)
}

// placeSpread counts a pod of class w bound to node id.
func (cl *cluster) placeSpread(w int, id int32) { cl.countSpread(w, id, 1) }

// unplaceSpread uncounts a pod of class w removed from node id.
func (cl *cluster) unplaceSpread(w int, id int32) { cl.countSpread(w, id, -1) }

// countSpread adds d pods of class w on node id to the spread constraints' counts.
func (cl *cluster) countSpread(w int, id int32, d int32) {
	if !cl.ss.any {
		return
	}
	for _, t := range cl.ss.touch[w] {
		st := &cl.ss.terms[t]
		if st.eligible[id] {
			st.cnt[cl.ss.dom[st.key][id]] += d
		}
	}
}

// spreadMins fills mins with each DoNotSchedule constraint's fewest matching pods in an eligible domain
// (0 when there are fewer domains than its minDomains): PodTopologySpread's PreFilter for a pod of w.
func (cl *cluster) spreadMins(w int, mins []int32) []int32 {
	mins = mins[:0]
	for _, t := range cl.ss.own[w] {
		st := &cl.ss.terms[t]
		least := int32(math.MaxInt32)
		for _, d := range st.domains {
			least = min(least, st.cnt[d])
		}
		if least == math.MaxInt32 || len(st.domains) < st.minDom {
			least = 0
		}
		mins = append(mins, least)
	}
	return mins
}

// spreadOK is PodTopologySpread's Filter for a pod of class w on node id: for each DoNotSchedule
// constraint the node has the key, and the matching pods in its domain, plus this pod when it matches,
// less the fewest in a domain, are at most MaxSkew.
func (cl *cluster) spreadOK(w int, id int32, mins []int32) bool {
	for i, t := range cl.ss.own[w] {
		st := &cl.ss.terms[t]
		if !st.filter {
			continue
		}
		d := cl.ss.dom[st.key][id]
		if d < 0 {
			return false
		}
		self := int32(0)
		if st.matches[w] {
			self = 1
		}
		if st.cnt[d]+self-mins[i] > st.skew {
			return false
		}
	}
	return true
}

// userSpreadScores is PodTopologySpread's score for a pod with its own constraints: over its
// ScheduleAnyway constraints, raw round(Σ count × log(domains + 2) + maxSkew − 1) with domains the feasible
// nodes (hostname) or their distinct domains, a node lacking a key scoring 0; normalised as the system
// default's. Without a ScheduleAnyway constraint every node scores 0.
func (cl *cluster) userSpreadScores(w int, feasible []int32, out []int64) {
	var soft []int
	for _, t := range cl.ss.own[w] {
		if !cl.ss.terms[t].filter {
			soft = append(soft, t)
		}
	}
	if len(soft) == 0 {
		clear(out)
		return
	}
	weights := make([]float64, len(soft))
	for k, t := range soft {
		st := &cl.ss.terms[t]
		// The distinct domains of the feasible nodes, stamped (a map per cycle took a fifth of a plan).
		cl.stamp++
		seen := 0
		for _, id := range feasible {
			if d := cl.ss.dom[st.key][id]; d >= 0 {
				if int(d) >= len(cl.domStamp) {
					cl.domStamp = append(cl.domStamp, make([]uint64, int(d)+1-len(cl.domStamp))...)
				}
				if cl.domStamp[d] != cl.stamp {
					cl.domStamp[d] = cl.stamp
					seen++
				}
			}
		}
		weights[k] = math.Log(float64(seen + 2))
	}
	lo, hi := int64(math.MaxInt64), int64(0)
	ignored := make([]bool, len(feasible))
	for i, id := range feasible {
		raw := 0.0
		for k, t := range soft {
			st := &cl.ss.terms[t]
			d := cl.ss.dom[st.key][id]
			if d < 0 {
				ignored[i] = true
				break
			}
			raw += float64(st.cnt[d])*weights[k] + float64(st.skew-1)
		}
		if ignored[i] {
			continue
		}
		s := int64(math.Round(raw))
		out[i] = s
		lo, hi = min(lo, s), max(hi, s)
	}
	for i, s := range out {
		switch {
		case ignored[i]:
			out[i] = 0
		case hi == 0:
			out[i] = maxNodeScore
		default:
			out[i] = maxNodeScore * (hi + lo - s) / hi
		}
	}
}

// topologySpread validates a workload's topology spread constraints.
func (v *validator) topologySpread(f field.Path, owner string, w *Workload) {
	for i, t := range w.TopologySpread {
		tf := f.Child("TopologySpread").At(i)
		if t.MaxSkew < 1 {
			v.add(tf.Child("MaxSkew"), strconv.Itoa(t.MaxSkew), "the max skew %d of a topology spread constraint of %s must be at least 1", t.MaxSkew, owner)
		}
		if t.TopologyKey == "" {
			v.add(tf.Child("TopologyKey"), "", "a topology spread constraint of %s has no topology key; give one, such as %s", owner, strconv.Quote(zoneLabel))
		}
		if t.WhenUnsatisfiable != "" && !slices.Contains(UnsatisfiableValues, t.WhenUnsatisfiable) {
			v.add(tf.Child("WhenUnsatisfiable"), string(t.WhenUnsatisfiable), "whenUnsatisfiable %s of %s must be one of %s", field.Quote(string(t.WhenUnsatisfiable)), owner, field.QuoteList(UnsatisfiableValues))
		}
		switch {
		case t.MinDomains < 0:
			v.add(tf.Child("MinDomains"), strconv.Itoa(t.MinDomains), "min domains %d of %s must be at least 1", t.MinDomains, owner)
		case t.MinDomains > 0 && t.WhenUnsatisfiable == ScheduleAnyway:
			v.add(tf.Child("MinDomains"), strconv.Itoa(t.MinDomains), "min domains %d of %s is allowed only with whenUnsatisfiable DoNotSchedule (the API server refuses it with ScheduleAnyway); drop it or use DoNotSchedule",
				t.MinDomains, owner)
		}
		for _, p := range []struct {
			name string
			v    InclusionPolicy
		}{{"NodeAffinityPolicy", t.NodeAffinityPolicy}, {"NodeTaintsPolicy", t.NodeTaintsPolicy}} {
			if p.v != "" && !slices.Contains(InclusionPolicies, p.v) {
				v.add(tf.Child(p.name), string(p.v), "%s of %s must be one of %s", field.Quote(string(p.v)), owner, field.QuoteList(InclusionPolicies))
			}
		}
		if _, err := metav1.LabelSelectorAsSelector(t.selector(PodLabels(w))); err != nil {
			v.add(tf.Child("Selector"), "", "the label selector of a topology spread constraint of %s is invalid: %v", owner, err)
		}
	}
}

// presence says whether a dead node's Node object still exists, and by which taint (cluster.present).
type presence int8

const (
	notPresent  presence = iota
	unreachable          // a lost zone's node in an outage
	cordoned             // a node being drained
	presenceKinds
)

// presenceTaints are the NoSchedule taints of the present nodes: the node lifecycle controller's
// node.kubernetes.io/unreachable (pods tolerate its NoExecute twin for 300 s by default, not this one) and
// the cordon's node.kubernetes.io/unschedulable.
var presenceTaints = [presenceKinds]Taint{
	unreachable: {Key: "node.kubernetes.io/unreachable", Effect: EffectNoSchedule},
	cordoned:    {Key: "node.kubernetes.io/unschedulable", Effect: EffectNoSchedule},
}

// liveSpreadDomains rebuilds each constraint's domains from the eligible nodes that are not dead (a
// disruption's lost or not yet added nodes are no domain), save the dead nodes that still exist, which stay
// domains for a constraint that ignores their taint (cluster.present).
func (cl *cluster) liveSpreadDomains() {
	if !cl.ss.any {
		return
	}
	for i := range cl.ss.terms {
		st := &cl.ss.terms[i]
		seen := make([]bool, len(st.cnt))
		st.domains = st.domains[:0]
		for id, ok := range st.eligible {
			if !ok || (cl.dead != nil && cl.dead[id] && (cl.present == nil || cl.present[id] == notPresent || st.excludes[cl.present[id]])) {
				continue
			}
			if d := cl.ss.dom[st.key][id]; !seen[d] {
				seen[d] = true
				st.domains = append(st.domains, d)
			}
		}
	}
}
