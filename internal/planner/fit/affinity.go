package fit

import (
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/component-helpers/scheduling/corev1/nodeaffinity"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
)

// NodeSelectorOperator is the operator of a node affinity requirement, as in Kubernetes.
type NodeSelectorOperator string

// The node affinity operators.
const (
	NodeIn           NodeSelectorOperator = "In"
	NodeNotIn        NodeSelectorOperator = "NotIn"
	NodeExists       NodeSelectorOperator = "Exists"
	NodeDoesNotExist NodeSelectorOperator = "DoesNotExist"
	NodeGt           NodeSelectorOperator = "Gt"
	NodeLt           NodeSelectorOperator = "Lt"
)

// NodeSelectorOperators lists every node affinity operator.
var NodeSelectorOperators = []NodeSelectorOperator{NodeIn, NodeNotIn, NodeExists, NodeDoesNotExist, NodeGt, NodeLt}

// NodeSelectorRequirement is one expression of a node affinity term: a node label's Key, an Operator and
// its Values (none for Exists and DoesNotExist, one integer for Gt and Lt).
type NodeSelectorRequirement struct {
	Key      string
	Operator NodeSelectorOperator
	Values   []string
}

// NodeSelectorTerm is one term of a required node affinity: a node matches it when every expression
// holds. A workload's terms are ORed, as requiredDuringSchedulingIgnoredDuringExecution's are.
type NodeSelectorTerm struct {
	MatchExpressions []NodeSelectorRequirement
}

// WeightedNodeSelectorTerm is one term of a preferred node affinity with its Weight (1–100, as the API
// server validates it): a node that matches Term scores Weight (preferredDuringSchedulingIgnoredDuringExecution).
// A term without expressions matches no node and scores nothing, as in Kubernetes.
type WeightedNodeSelectorTerm struct {
	Weight int
	Term   NodeSelectorTerm
}

// MaxPreferenceWeight is the largest weight of a preferred node affinity term (the API server's
// validatePreferredSchedulingTerms, 1–100).
const MaxPreferenceWeight = 100

// zoneLabel is the label that carries a node's zone.
const zoneLabel = "topology.kubernetes.io/zone"

// NodeSelector converts terms to the Kubernetes type the scheduler matches (nil for no terms).
func NodeSelector(terms []NodeSelectorTerm) *corev1.NodeSelector {
	if len(terms) == 0 {
		return nil
	}
	ns := &corev1.NodeSelector{}
	for _, t := range terms {
		var term corev1.NodeSelectorTerm
		for _, e := range t.MatchExpressions {
			term.MatchExpressions = append(term.MatchExpressions, corev1.NodeSelectorRequirement{Key: e.Key,
				Operator: corev1.NodeSelectorOperator(e.Operator), Values: e.Values})
		}
		ns.NodeSelectorTerms = append(ns.NodeSelectorTerms, term)
	}
	return ns
}

// PreferredTerms converts weighted terms to the Kubernetes type the scheduler scores (nil for no terms).
func PreferredTerms(terms []WeightedNodeSelectorTerm) []corev1.PreferredSchedulingTerm {
	var out []corev1.PreferredSchedulingTerm
	for _, t := range terms {
		var pref corev1.NodeSelectorTerm
		if ns := NodeSelector([]NodeSelectorTerm{t.Term}); ns != nil {
			pref = ns.NodeSelectorTerms[0]
		}
		out = append(out, corev1.PreferredSchedulingTerm{Weight: int32(t.Weight), Preference: pref})
	}
	return out
}

// betaZoneLabel is the deprecated zone label: the cloud node controller sets it beside zoneLabel, with the same
// value (k8s.io/cloud-provider@v0.37.2 controllers/node/node_controller.go, getNodeModifiersFromCloudProvider and
// labelReconcileInfo, ensureSecondaryExists).
const betaZoneLabel = "failure-domain.beta.kubernetes.io/zone"

// osLabel is the label that carries a node's operating system (the kubelet sets it, and its beta twin, to its
// runtime.GOOS: kubernetes/kubernetes pkg/kubelet/kubelet_node_status.go@v1.37.2, initialNode).
const (
	osLabel     = "kubernetes.io/os"
	betaOSLabel = "beta.kubernetes.io/os"
)

// nodeLabels returns the labels a planned node of pool p in zone z ("" for none) surely carries: the pool's
// labels and the zone's topology.kubernetes.io/zone and failure-domain.beta.kubernetes.io/zone. A node's hostname
// is not known before it exists; the pool's LabelChoices are not among them (nodeLabelSets).
func nodeLabels(p *Pool, z string) map[string]string {
	labels := make(map[string]string, len(p.Labels)+2)
	for k, v := range p.Labels {
		labels[k] = v
	}
	if z != "" {
		labels[zoneLabel] = z
		labels[betaZoneLabel] = z
	}
	return labels
}

// nodeLabelSets returns every set of labels a planned node of pool p in zone z may carry: nodeLabels with each
// combination of the values of the pool's LabelChoices ("" leaving the label out), in key and value order.
func nodeLabelSets(p *Pool, z string) []map[string]string {
	sets := []map[string]string{nodeLabels(p, z)}
	for _, k := range sortedKeys(p.LabelChoices) {
		vals := p.LabelChoices[k]
		if _, known := p.Labels[k]; known || len(vals) == 0 {
			continue
		}
		next := make([]map[string]string, 0, len(sets)*len(vals))
		for _, set := range sets {
			for _, v := range vals {
				c := make(map[string]string, len(set)+1)
				for sk, sv := range set {
					c[sk] = sv
				}
				if v != "" {
					c[k] = v
				}
				next = append(next, c)
			}
		}
		sets = next
	}
	return sets
}

// poolZones returns the pool's zones, or one unnamed zone for a pool without zones.
func poolZones(p *Pool) []string {
	if len(p.Zones) == 0 {
		return []string{""}
	}
	return p.Zones
}

// zonesMatching returns, of the pool's zones, those whose nodes pass match: with every choice of the pool's
// LabelChoices (a workload's rule, so that it holds on the real nodes whatever they carry), or with some choice
// when anyChoice (a DaemonSet's, so that its load is counted wherever it may land). all reports whether every
// zone passes (a pool without zones has one, unnamed).
func zonesMatching(p *Pool, anyChoice bool, match func(labels map[string]string) bool) (matching []string, all bool) {
	all = true
	for _, z := range poolZones(p) {
		sets := nodeLabelSets(p, z)
		ok := !anyChoice
		for _, set := range sets {
			if match(set) == anyChoice {
				ok = anyChoice
				break
			}
		}
		if ok {
			matching = append(matching, z)
		} else {
			all = false
		}
	}
	return matching, all
}

// preferenceScores returns the NodeAffinity Score plugin's raw score of the nodes of pool p in each of its
// zones (one entry for a pool without zones): the sum of the weights of the preferred terms the node's
// labels match, with the scheduler's own matching (component-helpers' nodeaffinity.PreferredSchedulingTerms,
// which the plugin scores with). A term naming a node's hostname matches no planned node (In, Exists) or
// every one (NotIn, DoesNotExist). nil when no term can match (no terms, or terms that do not parse, which
// Validate rejects).
func preferenceScores(terms []WeightedNodeSelectorTerm, p *Pool) []int64 {
	if len(terms) == 0 {
		return nil
	}
	pref, err := nodeaffinity.NewPreferredSchedulingTerms(PreferredTerms(terms))
	if err != nil {
		return nil
	}
	zones := p.Zones
	if len(zones) == 0 {
		zones = []string{""}
	}
	out := make([]int64, len(zones))
	for i, z := range zones {
		out[i] = pref.Score(&corev1.Node{ObjectMeta: metav1.ObjectMeta{Labels: nodeLabels(p, z)}})
	}
	return out
}

// affinityZones returns, of the pool's zones, those whose nodes match the required node affinity, with the
// scheduler's own matching (component-helpers' nodeaffinity, as the NodeAffinity plugin uses it) on the
// pool's labels plus each zone's topology labels, under every choice of the pool's LabelChoices (some choice
// when anyChoice: zonesMatching). all reports whether every zone matches (a pool without zones has one,
// unnamed). A node's hostname is not known before it exists, so a term that names hostnames matches no planned
// node.
func affinityZones(terms []NodeSelectorTerm, p *Pool, anyChoice bool) (matching []string, all bool) {
	if len(terms) == 0 {
		return p.Zones, true
	}
	sel, err := nodeaffinity.NewNodeSelector(NodeSelector(terms))
	if err != nil {
		return nil, false
	}
	return zonesMatching(p, anyChoice, func(labels map[string]string) bool {
		return sel.Match(&corev1.Node{ObjectMeta: metav1.ObjectMeta{Labels: labels}})
	})
}

// AffinityAllows reports whether nodes with these labels, in each of these zones, all match the required
// node affinity (true for no terms): the rule a pool is admitted by, for callers outside the packer.
func AffinityAllows(terms []NodeSelectorTerm, labels map[string]string, zones []string) bool {
	_, all := affinityZones(terms, &Pool{Labels: labels, Zones: zones}, false)
	return all
}

// AffinityAllowsSome reports whether the nodes of at least one of these zones match the required node
// affinity (true for no terms): the rule a DaemonSet lands on a pool by.
func AffinityAllowsSome(terms []NodeSelectorTerm, labels map[string]string, zones []string) bool {
	if len(terms) == 0 {
		return true
	}
	matching, _ := affinityZones(terms, &Pool{Labels: labels, Zones: zones}, true)
	return len(matching) > 0
}

// perNodeKeys are node labels that differ from node to node and that the planner cannot know for nodes that
// do not exist yet (it sets the zone, from the pool's zones, and nothing else of these).
var perNodeKeys = map[string]bool{"kubernetes.io/hostname": true, "topology.kubernetes.io/region": true,
	"failure-domain.beta.kubernetes.io/region": true}

// UnknownLabelExpressions lists, as "key operator", the expressions of terms that hold on every planned
// node only because the planner does not set their label (NotIn or DoesNotExist on a hostname or region);
// on real nodes they may not hold. In, Exists, Gt and Lt on such a label match no planned node instead,
// which errs on the safe side.
func UnknownLabelExpressions(terms []NodeSelectorTerm) []string {
	var out []string
	for _, t := range terms {
		for _, e := range t.MatchExpressions {
			if perNodeKeys[e.Key] && (e.Operator == NodeNotIn || e.Operator == NodeDoesNotExist) {
				out = append(out, e.Key+" "+string(e.Operator))
			}
		}
	}
	return out
}

// affinityMessage says why the required node affinity keeps a workload off a pool.
func affinityMessage(owner string, terms []NodeSelectorTerm, p *Pool) string {
	matching, _ := affinityZones(terms, p, false)
	if len(matching) > 0 && matching[0] != "" {
		return fmt.Sprintf("the required node affinity of %s (%s) matches only zone(s) %s of pool %q; kubefit plans a pool's nodes in all its zones, "+
			"so give those zones a pool of their own", owner, describeTerms(terms), field.QuoteList(matching), p.Name)
	}
	return fmt.Sprintf("the required node affinity of %s (%s) matches no node of pool %q (labels %s)", owner, describeTerms(terms), p.Name, describeLabels(p))
}

func describeTerms(terms []NodeSelectorTerm) string {
	parts := make([]string, len(terms))
	for i, t := range terms {
		es := make([]string, len(t.MatchExpressions))
		for j, e := range t.MatchExpressions {
			switch e.Operator {
			case NodeExists, NodeDoesNotExist:
				es[j] = e.Key + " " + string(e.Operator)
			default:
				es[j] = e.Key + " " + string(e.Operator) + " [" + strings.Join(e.Values, ", ") + "]"
			}
		}
		parts[i] = strings.Join(es, " and ")
	}
	return strings.Join(parts, "; or ")
}

func describeLabels(p *Pool) string {
	keys := sortedKeys(p.Labels)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + p.Labels[k]
	}
	if len(p.Zones) > 0 {
		parts = append(parts, zoneLabel+" in "+strings.Join(p.Zones, ", "))
	}
	for _, k := range sortedKeys(p.LabelChoices) {
		if _, known := p.Labels[k]; !known && len(p.LabelChoices[k]) > 0 {
			parts = append(parts, k+" "+describeChoices(p.LabelChoices[k]))
		}
	}
	return strings.Join(parts, ", ")
}

// describeChoices says the values a label of LabelChoices may have: "user or system (not known which)",
// "x (or none)".
func describeChoices(vals []string) string {
	var vs []string
	missing := false
	for _, v := range vals {
		if v == "" {
			missing = true
			continue
		}
		vs = append(vs, v)
	}
	out := strings.Join(vs, " or ")
	if missing {
		out += " or no such label"
	}
	return out + " (kubefit cannot know which)"
}

// affinity checks terms with the scheduler's own parser: operators, value counts, integer values for Gt
// and Lt, label keys. An empty term is valid and matches no node, as in Kubernetes.
func (v *validator) affinity(f field.Path, owner string, terms []NodeSelectorTerm) {
	for i, t := range terms {
		v.affinityTerm(f.Child("NodeAffinity").At(i), "node affinity", owner, t)
	}
}

// affinityTerm checks the expressions of one term at tf; what names the affinity in the messages.
func (v *validator) affinityTerm(tf field.Path, what, owner string, t NodeSelectorTerm) {
	for j, e := range t.MatchExpressions {
		ef := tf.Child("MatchExpressions").At(j)
		one := []NodeSelectorTerm{{MatchExpressions: []NodeSelectorRequirement{e}}}
		if _, err := nodeaffinity.NewNodeSelector(NodeSelector(one)); err != nil {
			v.add(ef, e.Key, "%s expression %s of %s is invalid: %s", what, field.Quote(e.Key+" "+string(e.Operator)), owner,
				strings.TrimPrefix(err.Error(), "nodeSelectorTerms[0].matchExpressions[0]."))
		}
	}
}

// preferredAffinity checks a preferred node affinity: each weight within 1–100 (the API server's
// validatePreferredSchedulingTerms) and each term as a required term's.
func (v *validator) preferredAffinity(f field.Path, owner string, terms []WeightedNodeSelectorTerm) {
	for i, t := range terms {
		tf := f.Child("PreferredNodeAffinity").At(i)
		if t.Weight < 1 || t.Weight > MaxPreferenceWeight {
			v.add(tf.Child("Weight"), itoa(t.Weight), "the weight %d of a preferred node affinity term of %s must be between 1 and %d",
				t.Weight, owner, MaxPreferenceWeight)
		}
		v.affinityTerm(tf.Child("Term"), "preferred node affinity", owner, t.Term)
	}
}
