package fit

import (
	"fmt"
	"slices"
	"strconv"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
)

// Inter-pod affinity and anti-affinity, as kube-scheduler's InterPodAffinity plugin applies them
// (pkg/scheduler/framework/plugins/interpodaffinity: filtering.go and scoring.go at v1.37).

// LabelSelectorOperator is the operator of a label selector expression, as in Kubernetes.
type LabelSelectorOperator string

// The label selector operators.
const (
	LabelIn           LabelSelectorOperator = "In"
	LabelNotIn        LabelSelectorOperator = "NotIn"
	LabelExists       LabelSelectorOperator = "Exists"
	LabelDoesNotExist LabelSelectorOperator = "DoesNotExist"
)

// LabelSelectorOperators lists every label selector operator.
var LabelSelectorOperators = []LabelSelectorOperator{LabelIn, LabelNotIn, LabelExists, LabelDoesNotExist}

// LabelSelectorRequirement is one expression of a label selector.
type LabelSelectorRequirement struct {
	Key      string
	Operator LabelSelectorOperator
	Values   []string
}

// LabelSelector selects pods by their labels, as metav1.LabelSelector: every MatchLabels entry and every
// expression must hold; an empty selector selects every pod.
type LabelSelector struct {
	MatchLabels      map[string]string
	MatchExpressions []LabelSelectorRequirement
}

// PodAffinityTerm is a term of inter-pod affinity or anti-affinity: the pods Selector matches, in
// Namespaces (none: the pod's own namespace; AllNamespaces, a namespaceSelector of {}: every namespace),
// counted in the node's domain of TopologyKey (kubernetes.io/hostname: the node; topology.kubernetes.io/zone:
// its zone; any other key: the value of that pool label; a node without the label is in no domain).
type PodAffinityTerm struct {
	Selector      LabelSelector
	Namespaces    []string
	AllNamespaces bool
	TopologyKey   string
}

// WeightedPodAffinityTerm is a preferred term with its weight (1–100).
type WeightedPodAffinityTerm struct {
	Weight int
	Term   PodAffinityTerm
}

// PodAffinity is a pod's inter-pod affinity (Affinity*: near the pods a term matches) and anti-affinity
// (Anti*: away from them), required (a filter) and preferred (a score), as in Kubernetes. The required
// anti-affinity of pods already placed keeps a new pod they match out of their domains too.
type PodAffinity struct {
	Required      []PodAffinityTerm
	Preferred     []WeightedPodAffinityTerm
	AntiRequired  []PodAffinityTerm
	AntiPreferred []WeightedPodAffinityTerm
}

func (a *PodAffinity) empty() bool {
	return a == nil || len(a.Required)+len(a.Preferred)+len(a.AntiRequired)+len(a.AntiPreferred) == 0
}

// hostnameKey is the node label that makes every node a domain of its own.
const hostnameKey = "kubernetes.io/hostname"

// hardPodAffinityWeight is the weight the scoring gives an existing pod's required affinity term that
// the new pod matches (InterPodAffinityArgs.HardPodAffinityWeight, default 1).
const hardPodAffinityWeight = 1

// weightInterPodAffinity is InterPodAffinity's score weight in the default profile.
const weightInterPodAffinity = 2

// termKind says how a term acts.
type termKind uint8

const (
	termAffinity termKind = iota
	termAnti
	termPrefAffinity
	termPrefAnti
)

// podTerm is one term of one workload, ready for the scheduler model: the classes whose pods it matches,
// and the counts per domain of its key of the pods it matches and of its owner's pods.
type podTerm struct {
	owner   int // class index
	kind    termKind
	weight  int64
	key     int // index into podTerms.keys
	matches []bool
	// counted is what the filter counts: matches, except for a required affinity term, which counts only
	// the pods that match every required affinity term of its owner (InterPodAffinity's
	// podMatchesAllAffinityTerms).
	counted []bool
}

// podTerms are every workload's terms, the topology keys they use, and per class the terms that are its
// own and the other pods' terms it matches.
type podTerms struct {
	terms []podTerm
	keys  []string
	own   [][]int // per class: its terms
	sym   [][]int // per class: terms of any class that match its pods (for the symmetric rules)
	any   bool
	// selfHost marks the classes whose required anti-affinity on the hostname matches their own pods: one
	// pod per node, as a node spread.
	selfHost []bool
	// affinity marks the classes with a required affinity term: a pod it rejects may bind once the pods
	// it looks for are placed, so it is retried as a zone-spread pod is.
	affinity []bool
}

// newPodTerms prepares the inter-pod terms of the classes.
func newPodTerms(in *Input, classes []classSim) podTerms {
	var pt podTerms
	pt.own = make([][]int, len(classes))
	pt.sym = make([][]int, len(classes))
	pt.selfHost = make([]bool, len(classes))
	pt.affinity = make([]bool, len(classes))
	sels := make([]labels.Set, len(classes))
	for c := range classes {
		wl := &in.Workloads[classes[c].w]
		sels[c] = podLabels(wl)
	}
	keyOf := func(k string) int {
		if i := slices.Index(pt.keys, k); i >= 0 {
			return i
		}
		pt.keys = append(pt.keys, k)
		return len(pt.keys) - 1
	}
	add := func(c int, kind termKind, weight int, t PodAffinityTerm) {
		sel, err := metav1.LabelSelectorAsSelector(t.Selector.kube())
		if err != nil {
			return // Validate refused it
		}
		owner := &in.Workloads[classes[c].w]
		pterm := podTerm{owner: c, kind: kind, weight: int64(weight), key: keyOf(t.TopologyKey), matches: make([]bool, len(classes))}
		for o := range classes {
			other := &in.Workloads[classes[o].w]
			pterm.matches[o] = t.inNamespace(owner, other) && sel.Matches(sels[o])
		}
		pterm.counted = pterm.matches
		id := len(pt.terms)
		pt.terms = append(pt.terms, pterm)
		if kind == termAnti && t.TopologyKey == hostnameKey && pterm.matches[c] {
			pt.selfHost[c] = true
		}
		if kind == termAffinity {
			pt.affinity[c] = true
		}
		pt.own[c] = append(pt.own[c], id)
		for o, ok := range pterm.matches {
			if ok {
				pt.sym[o] = append(pt.sym[o], id)
			}
		}
	}
	for c := range classes {
		a := in.Workloads[classes[c].w].PodAffinity
		if a.empty() {
			continue
		}
		pt.any = true
		for _, t := range a.Required {
			add(c, termAffinity, hardPodAffinityWeight, t)
		}
		for _, t := range a.AntiRequired {
			add(c, termAnti, 0, t)
		}
		for _, t := range a.Preferred {
			add(c, termPrefAffinity, t.Weight, t.Term)
		}
		for _, t := range a.AntiPreferred {
			add(c, termPrefAnti, t.Weight, t.Term)
		}
		// A required affinity counts a pod only when it matches every required affinity term.
		var all []bool
		for _, t := range pt.own[c] {
			if pt.terms[t].kind != termAffinity {
				continue
			}
			if all == nil {
				all = slices.Clone(pt.terms[t].matches)
				continue
			}
			for o := range all {
				all[o] = all[o] && pt.terms[t].matches[o]
			}
		}
		for _, t := range pt.own[c] {
			if pt.terms[t].kind == termAffinity {
				pt.terms[t].counted = all
			}
		}
	}
	return pt
}

// PodLabels are the labels of a workload's pods: its own, or app=<name> when it gives none.
func PodLabels(w *Workload) map[string]string {
	if len(w.Labels) > 0 {
		return w.Labels
	}
	return map[string]string{"app": w.Name}
}

func podLabels(w *Workload) labels.Set { return labels.Set(PodLabels(w)) }

// Kube converts the term to the Kubernetes type.
func (t PodAffinityTerm) Kube() corev1.PodAffinityTerm {
	k := corev1.PodAffinityTerm{LabelSelector: t.Selector.kube(), Namespaces: t.Namespaces, TopologyKey: t.TopologyKey}
	if t.AllNamespaces {
		k.NamespaceSelector = &metav1.LabelSelector{}
	}
	return k
}

// Kube converts the affinity to the Kubernetes types (nil parts for no terms).
func (a *PodAffinity) Kube() (*corev1.PodAffinity, *corev1.PodAntiAffinity) {
	if a.empty() {
		return nil, nil
	}
	var aff *corev1.PodAffinity
	var anti *corev1.PodAntiAffinity
	weighted := func(ts []WeightedPodAffinityTerm) []corev1.WeightedPodAffinityTerm {
		var out []corev1.WeightedPodAffinityTerm
		for _, t := range ts {
			out = append(out, corev1.WeightedPodAffinityTerm{Weight: int32(t.Weight), PodAffinityTerm: t.Term.Kube()})
		}
		return out
	}
	required := func(ts []PodAffinityTerm) []corev1.PodAffinityTerm {
		var out []corev1.PodAffinityTerm
		for _, t := range ts {
			out = append(out, t.Kube())
		}
		return out
	}
	if len(a.Required)+len(a.Preferred) > 0 {
		aff = &corev1.PodAffinity{RequiredDuringSchedulingIgnoredDuringExecution: required(a.Required),
			PreferredDuringSchedulingIgnoredDuringExecution: weighted(a.Preferred)}
	}
	if len(a.AntiRequired)+len(a.AntiPreferred) > 0 {
		anti = &corev1.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: required(a.AntiRequired),
			PreferredDuringSchedulingIgnoredDuringExecution: weighted(a.AntiPreferred)}
	}
	return aff, anti
}

// namespace is the workload's namespace ("default" when empty).
func (w *Workload) namespace() string {
	if w.Namespace == "" {
		return "default"
	}
	return w.Namespace
}

// inNamespace reports whether the term of owner looks at pods of other's namespace.
func (t PodAffinityTerm) inNamespace(owner, other *Workload) bool {
	if t.AllNamespaces {
		return true
	}
	if len(t.Namespaces) == 0 {
		return other.namespace() == owner.namespace()
	}
	return slices.Contains(t.Namespaces, other.namespace())
}

// Kube converts the selector to the Kubernetes type.
func (s LabelSelector) Kube() *metav1.LabelSelector { return s.kube() }

// kube converts the selector to the Kubernetes type.
func (s LabelSelector) kube() *metav1.LabelSelector {
	ls := &metav1.LabelSelector{MatchLabels: s.MatchLabels}
	for _, e := range s.MatchExpressions {
		ls.MatchExpressions = append(ls.MatchExpressions, metav1.LabelSelectorRequirement{Key: e.Key,
			Operator: metav1.LabelSelectorOperator(e.Operator), Values: e.Values})
	}
	return ls
}

// podAffinity validates a workload's labels and inter-pod terms.
func (v *validator) podAffinity(f field.Path, owner string, w *Workload) {
	v.labels(f.Child("Labels"), owner, w.Labels)
	a := w.PodAffinity
	if a == nil {
		return
	}
	check := func(tf field.Path, t PodAffinityTerm) {
		if t.TopologyKey == "" {
			v.add(tf.Child("TopologyKey"), "", "a pod affinity term of %s has no topology key; give one, such as %s or %s", owner,
				strconv.Quote(hostnameKey), strconv.Quote(zoneLabel))
		}
		if _, err := metav1.LabelSelectorAsSelector(t.Selector.kube()); err != nil {
			v.add(tf.Child("Selector"), "", "the label selector of a pod affinity term of %s is invalid: %v", owner, err)
		}
	}
	for i, t := range a.Required {
		check(f.Child("PodAffinity", "Required").At(i), t)
	}
	for i, t := range a.AntiRequired {
		check(f.Child("PodAffinity", "AntiRequired").At(i), t)
	}
	for _, g := range []struct {
		name  string
		terms []WeightedPodAffinityTerm
	}{{"Preferred", a.Preferred}, {"AntiPreferred", a.AntiPreferred}} {
		for i, t := range g.terms {
			tf := f.Child("PodAffinity", g.name).At(i)
			if t.Weight < 1 || t.Weight > 100 {
				v.add(tf.Child("Weight"), strconv.Itoa(t.Weight), "the weight %d of a preferred pod affinity term of %s must be between 1 and 100", t.Weight, owner)
			}
			check(tf, t.Term)
		}
	}
}

// podState is the scheduler model's inter-pod state on one cluster: per topology key each node's domain,
// and per term the pods it matches and its owner's pods, per domain.
type podState struct {
	dom   [][]int32 // [key][node] domain id, -1 when the node lacks the key's label
	cnt   [][]int32 // [term][domain] placed pods the term matches
	own   [][]int32 // [term][domain] placed pods of the term's owner
	tot   []int32   // [term] placed pods the term matches, anywhere
	touch [][]int   // per class: the terms whose counts its pods change
	score []int64   // scratch of one cycle
	rows  []scoreRow
}

// resetPods builds the domains of the cluster's nodes and empties the counts.
func (cl *cluster) resetPods() {
	pt := &cl.pt
	if !pt.any {
		return
	}
	ps := &cl.ps
	if ps.touch == nil {
		ps.touch = make([][]int, len(cl.classes))
		for c := range cl.classes {
			ps.touch[c] = append(slices.Clone(pt.own[c]), pt.sym[c]...)
			slices.Sort(ps.touch[c])
			ps.touch[c] = slices.Compact(ps.touch[c])
		}
	}
	ps.dom = make([][]int32, len(pt.keys))
	ndom := make([]int, len(pt.keys))
	for k, key := range pt.keys {
		ps.dom[k], ndom[k] = cl.domainsOf(key)
	}
	ps.cnt = resizeRows(ps.cnt, len(pt.terms))
	ps.own = resizeRows(ps.own, len(pt.terms))
	ps.tot = resize(ps.tot, len(pt.terms))
	for t := range pt.terms {
		n := ndom[pt.terms[t].key]
		ps.cnt[t] = resize(ps.cnt[t], n)
		ps.own[t] = resize(ps.own[t], n)
	}
}

func resizeRows(rows [][]int32, n int) [][]int32 {
	if cap(rows) < n {
		return make([][]int32, n)
	}
	return rows[:n]
}

// placePods counts a pod of class w bound to node id.
func (cl *cluster) placePods(w int, id int32) { cl.countPods(w, id, 1) }

// unplacePods uncounts a pod of class w removed from node id.
func (cl *cluster) unplacePods(w int, id int32) { cl.countPods(w, id, -1) }

// countPods adds d pods of class w on node id to the inter-pod terms' counts.
func (cl *cluster) countPods(w int, id int32, d int32) {
	if !cl.pt.any {
		return
	}
	ps := &cl.ps
	for _, t := range ps.touch[w] {
		term := &cl.pt.terms[t]
		dom := ps.dom[term.key][id]
		if dom < 0 {
			continue
		}
		if term.counted[w] {
			ps.cnt[t][dom] += d
			ps.tot[t] += d
		}
		if term.owner == w {
			ps.own[t][dom] += d
		}
	}
}

// podsOK is InterPodAffinity's Filter for a pod of class w on node id: none of the pods its required
// anti-affinity terms match in the node's domain; some pod each required affinity term matches there (or
// none anywhere, when the pod matches its own term: the first of a group may go anywhere); and no placed
// pod whose required anti-affinity term matches this pod in the domain of that term.
func (cl *cluster) podsOK(w int, id int32) bool {
	pt, ps := &cl.pt, &cl.ps
	for _, t := range pt.own[w] {
		term := &pt.terms[t]
		d := ps.dom[term.key][id]
		switch term.kind {
		case termAnti:
			if d >= 0 && ps.cnt[t][d] > 0 {
				return false
			}
		case termAffinity:
			if d < 0 {
				return false
			}
			if ps.cnt[t][d] == 0 && !(ps.tot[t] == 0 && term.counted[w]) {
				return false
			}
		}
	}
	for _, t := range pt.sym[w] {
		term := &pt.terms[t]
		if term.kind != termAnti {
			continue
		}
		if d := ps.dom[term.key][id]; d >= 0 && ps.own[t][d] > 0 {
			return false
		}
	}
	return true
}

// hasPodScore reports whether InterPodAffinity scores pods of class w: it has preferred terms, or some
// placed pod's term (preferred, or required affinity) matches it.
func (cl *cluster) hasPodScore(w int) bool {
	if !cl.pt.any {
		return false
	}
	for _, t := range cl.pt.own[w] {
		if k := cl.pt.terms[t].kind; k == termPrefAffinity || k == termPrefAnti {
			return true
		}
	}
	for _, t := range cl.pt.sym[w] {
		if cl.pt.terms[t].kind != termAnti {
			return true
		}
	}
	return false
}

// podScores fills out with InterPodAffinity's normalised scores over the feasible nodes: per node the sum,
// over the domains it is in, of the weights of the pod's preferred terms times the placed pods they match
// there (anti-affinity negative), plus the weights of placed pods' preferred terms (and required affinity
// terms, at hardPodAffinityWeight) that match this pod; then 100 × (s − min) / (max − min).
func (cl *cluster) podScores(w int, feasible []int32, out []int64) {
	pt, ps := &cl.pt, &cl.ps
	// The rows one cycle reads: per term that scores, its domains, its counts and its signed weight.
	rows := ps.rows[:0]
	for _, t := range pt.own[w] {
		term := &pt.terms[t]
		switch term.kind {
		case termPrefAffinity:
			rows = append(rows, scoreRow{ps.dom[term.key], ps.cnt[t], term.weight})
		case termPrefAnti:
			rows = append(rows, scoreRow{ps.dom[term.key], ps.cnt[t], -term.weight})
		}
	}
	for _, t := range pt.sym[w] {
		term := &pt.terms[t]
		switch term.kind {
		case termPrefAffinity, termAffinity:
			rows = append(rows, scoreRow{ps.dom[term.key], ps.own[t], term.weight})
		case termPrefAnti:
			rows = append(rows, scoreRow{ps.dom[term.key], ps.own[t], -term.weight})
		}
	}
	ps.rows = rows
	lo, hi := int64(0), int64(0)
	for i, id := range feasible {
		var s int64
		for _, r := range rows {
			if d := r.dom[id]; d >= 0 {
				s += r.weight * int64(r.counts[d])
			}
		}
		out[i] = s
		if i == 0 || s < lo {
			lo = s
		}
		if i == 0 || s > hi {
			hi = s
		}
	}
	for i := range out {
		if hi > lo {
			out[i] = int64(float64(maxNodeScore) * (float64(out[i]-lo) / float64(hi-lo)))
		} else {
			out[i] = 0
		}
	}
}

// scoreRow is one scoring term of a cycle: a node's domain, the counts per domain and the signed weight.
type scoreRow struct {
	dom    []int32
	counts []int32
	weight int64
}

// ReasonPodAffinity: pods of a workload that no node count can bind for its required inter-pod terms:
// its anti-affinity against its own pods allows one per domain of a key with fewer domains than pods.
const ReasonPodAffinity Reason = "pod-affinity"

// affinityCap returns how many pods of workload w its required anti-affinity against its own pods, or its
// DoNotSchedule topology spread constraints, let bind on any number of nodes, why, and the failure reason
// (ReasonPodAffinity or ReasonSpread); -1 when nothing caps them. A spread constraint caps them when the
// pools it may use lack its key (0) or have fewer domains than its minDomains (domains × max skew). A term on the hostname never
// caps (nodes can be added); on another key the cap is the number of that key's values over the pools the
// workload may use (zones, or a pool label's values), and none when one of those pools lacks the key (its
// nodes are in no domain, which the term does not constrain).
func (m *model) affinityCap(w int) (int, string, Reason) {
	wl := &m.in.Workloads[w]
	if len(m.eligible[w]) == 0 {
		return -1, "", ""
	}
	var anti []PodAffinityTerm
	if a := wl.PodAffinity; a != nil {
		anti = a.AntiRequired
	}
	var own labels.Set
	if len(anti) > 0 || len(wl.TopologySpread) > 0 {
		own = podLabels(wl)
	}
	limit, why, reason := -1, "", ReasonPodAffinity
	for _, t := range anti {
		if t.TopologyKey == hostnameKey || !t.inNamespace(wl, wl) {
			continue
		}
		sel, err := metav1.LabelSelectorAsSelector(t.Selector.kube())
		if err != nil || !sel.Matches(own) {
			continue
		}
		values := map[string]bool{}
		open := false
		for _, p := range m.eligible[w] {
			pool := m.pools[p].p
			switch t.TopologyKey {
			case zoneLabel, "failure-domain.beta.kubernetes.io/zone":
				if len(pool.Zones) == 0 {
					open = true
				}
				for _, z := range pool.Zones {
					values[z] = true
				}
			default:
				v, ok := pool.Labels[t.TopologyKey]
				open = open || !ok
				values[v] = true
			}
		}
		if open {
			continue
		}
		if limit < 0 || len(values) < limit {
			limit = len(values)
			why = fmt.Sprintf("its required anti-affinity against its own pods on %s allows one pod per value of that key, and the pools it may use have %d (%s)",
				strconv.Quote(t.TopologyKey), len(values), field.QuoteList(sortedKeys(values)))
		}
	}
	if a := wl.PodAffinity; a != nil && len(a.Required) > 0 {
		if text := m.affinityUnmet(w, a.Required); text != "" {
			return 0, text, ReasonPodAffinity
		}
	}
	for _, t := range wl.TopologySpread {
		if t.WhenUnsatisfiable == ScheduleAnyway {
			continue
		}
		sel, err := metav1.LabelSelectorAsSelector(t.selector(PodLabels(wl)))
		if err != nil || !sel.Matches(own) {
			continue
		}
		values := map[string]bool{}
		for _, p := range m.eligible[w] {
			pool := m.pools[p].p
			switch t.TopologyKey {
			case hostnameKey:
				values = nil
			case zoneLabel, "failure-domain.beta.kubernetes.io/zone":
				for _, z := range pool.Zones {
					values[z] = true
				}
			default:
				if v, ok := pool.Labels[t.TopologyKey]; ok {
					values[v] = true
				}
			}
			if values == nil {
				break
			}
		}
		cap, text := -1, ""
		switch {
		case values == nil:
		case len(values) == 0:
			cap, text = 0, fmt.Sprintf("its topology spread constraint on %s (DoNotSchedule) needs nodes with that label, and no pool it may use has it", strconv.Quote(t.TopologyKey))
		case max(t.MinDomains, 1) > len(values):
			cap = len(values) * max(t.MaxSkew, 1)
			text = fmt.Sprintf("its topology spread constraint on %s (DoNotSchedule) counts %d domains where the pools it may use have %d (%s), so each holds at most max skew %d pods",
				strconv.Quote(t.TopologyKey), t.MinDomains, len(values), field.QuoteList(sortedKeys(values)), max(t.MaxSkew, 1))
		}
		if cap >= 0 && (limit < 0 || cap < limit) {
			limit, why, reason = cap, text, ReasonSpread
		}
	}
	return limit, why, reason
}

// capAffinity drops from every order the pods of each class beyond its affinityCap (the later ones) and
// returns how many it dropped per class.
func (m *model) capAffinity(classes []classSim, orders []arrival) []int {
	var excess []int
	limits := make([]int, len(classes))
	for w := range classes {
		limits[w], _, _ = m.affinityCap(classes[w].w)
		if limits[w] >= 0 && classes[w].n > limits[w] {
			if excess == nil {
				excess = make([]int, len(classes))
			}
			excess[w] = classes[w].n - limits[w]
		}
	}
	if excess == nil {
		return nil
	}
	for i := range orders {
		seen := make([]int, len(classes))
		kept := make([]int32, 0, len(orders[i].pods))
		for _, w := range orders[i].pods {
			if excess[w] > 0 && seen[w] >= limits[w] {
				continue
			}
			seen[w]++
			kept = append(kept, w)
		}
		orders[i].pods = kept
	}
	return excess
}

// affinityUnmet says why workload w's required affinity terms can never hold, or "": no workload of the plan
// that some pool may take (w aside) has pods matching every term, and w's own pods do not match them all
// (the first of a group may go anywhere), or a term's key is on none of w's pools.
func (m *model) affinityUnmet(w int, terms []PodAffinityTerm) string {
	wl := &m.in.Workloads[w]
	sels := make([]labels.Selector, len(terms))
	for i, t := range terms {
		sel, err := metav1.LabelSelectorAsSelector(t.Selector.kube())
		if err != nil {
			return ""
		}
		sels[i] = sel
		found := false
		for _, p := range m.eligible[w] {
			pool := m.pools[p].p
			switch t.TopologyKey {
			case hostnameKey:
				found = true
			case zoneLabel, "failure-domain.beta.kubernetes.io/zone":
				found = found || len(pool.Zones) > 0
			default:
				_, ok := pool.Labels[t.TopologyKey]
				found = found || ok
			}
		}
		if !found {
			return fmt.Sprintf("its required pod affinity on %s needs nodes with that label, and no pool it may use has it", strconv.Quote(t.TopologyKey))
		}
	}
	matchesAll := func(o int) bool {
		other := &m.in.Workloads[o]
		for i, t := range terms {
			if !t.inNamespace(wl, other) || !sels[i].Matches(podLabels(other)) {
				return false
			}
		}
		return true
	}
	for o := range m.in.Workloads {
		if len(m.eligible[o]) > 0 && matchesAll(o) {
			return ""
		}
	}
	return "its required pod affinity looks for pods that no workload of the plan has (none matches every term, and its own pods do not)"
}
