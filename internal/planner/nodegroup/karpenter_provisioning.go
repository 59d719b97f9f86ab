package nodegroup

// A model of how Karpenter's provisioning scheduler packs a batch of pending pods onto new NodeClaims of
// one NodePool with one instance type, so a NodePool's limits can be checked against what Karpenter really
// launches rather than against kubefit's kube-scheduler model. It follows sigs.k8s.io/karpenter v1.14.1,
// pkg/controllers/provisioning/scheduling (line numbers of that release):
//
//   - queue.go NewQueue, byCPUAndMemoryDescending (72–107): the batch is sorted by CPU request descending,
//     then memory request descending, then creation time, then UID. kubefit's pods have no creation time;
//     they are taken as created in request order (workload after workload, replica after replica), which is
//     the order (one creation time, UIDs numbered) the oracle test gives the real scheduler.
//   - scheduler.go Solve (440–519) and add (582–612): each pod is popped once; with no existing nodes (the
//     peak is provisioned from nothing) it goes to addToInflightNode (658–693) after s.newNodeClaims is
//     re-sorted by len(Pods) ascending with sort.Slice (598; not stable: the model sorts the same sequence
//     with the same comparator, which gives the same permutation), and it takes the FIRST NodeClaim of that
//     order that CanAdd accepts: among the NodeClaims it fits, one holding the fewest pods, not the fullest.
//     Only when none accepts does addToNewNodeClaim (695–790) open a NodeClaim, appended at the end.
//   - nodeclaim.go CanAdd (124–158), tryVolumeAlternative (211–213), filterInstanceTypesByRequirements
//     (562–599) and fits (624–638), utils/resources RequestsForPods and Fits: a pod fits when the NodeClaim's
//     pods' requests (each pod counting one "pods"), plus the pod's, plus the daemonOverhead of the instance
//     type (scheduler.go buildDaemonOverheadGroups, 972–1004: the summed requests, one "pods" each, of the
//     DaemonSet pods compatible with the NodePool) are within the instance type's allocatable, resource by
//     resource (cpu, memory, ephemeral-storage, pods, GPUs). So the room per NodeClaim is the allocatable
//     less the DaemonSets: kubefit's WorkloadAllocatable (which charges a DaemonSet a pod slot only when it
//     takes one: TakesPodSlot). Volume attachment limits are not checked for new NodeClaims (only
//     existingnode.go checks them).
//   - nodeclaim.go 563 (HostPortUsage.Conflicts, scheduling/hostportusage.go HostPort.Matches): a pod whose
//     host port conflicts with a DaemonSet's or another pod's on the NodeClaim does not fit it.
//   - topology.go newForAffinities (493–532), Record (197–220), updateInverseAntiAffinity (330–355) and
//     topologygroup.go nextDomainTopologySpread (239–252), domainMinCount (300–304), nextDomainAntiAffinity
//     (413–419), for kubernetes.io/hostname only: a pod's pod anti-affinity terms, required and, under the
//     default PREFERENCE_POLICY=Respect, preferred ones, exclude a NodeClaim holding a pod the term selects;
//     only the pod's own terms count, since inverse anti-affinity is tracked for pods already in the cluster
//     only. A hostname topology spread constraint, DoNotSchedule and (Respect) ScheduleAnyway alike, admits a
//     NodeClaim when the pods it selects there, plus the pod when it selects itself, are at most maxSkew:
//     Karpenter takes the global minimum of hostname domains as 0, since it can always open a NodeClaim.
//   - scheduler.go addToNewNodeClaim with the NodePool's limits (703–720, subtractMax 1049,
//     filterByRemainingResources 1069): once maxNodeClaims are open no NodeClaim opens; trySchedule (521–552)
//     then relaxes the pod one preference at a time (preferences.go Relax, 38–57: its preferred pod
//     anti-affinity terms, heaviest first, then its ScheduleAnyway spreads, the first remaining one swapped
//     out) and tries the open NodeClaims again after each step. Without limits a pod with preferences never
//     relaxes: a new NodeClaim always takes it. A pod nothing takes is requeued (Solve 469–487); NodeClaims
//     only fill, so a later try fails too, and it stays unschedulable.
//
// Not modelled (karpenterBatch says why and the NodePool keeps kubefit's count): several instance types in
// one NodePool, zone (or other non-hostname) spread and pod (anti-)affinity, positive pod affinity, a
// PreferNoSchedule taint on a pool whose pods have preferences (Karpenter relaxes those before tolerating the
// taint), reserved capacity, minValues and DRA.

import (
	"errors"
	"fmt"
	"math"
	"net/netip"
	"sort"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
)

// hostnameLabel is the node label that makes every node a topology domain of its own.
const hostnameLabel = "kubernetes.io/hostname"

// KarpenterPod is one pending pod as Karpenter's provisioning scheduler packs it.
type KarpenterPod struct {
	// Workload names the pod's workload (for reports only).
	Workload string
	// Namespace and Labels are the pod's; "" means "default".
	Namespace string
	Labels    map[string]string
	// Requests are the pod's effective requests; Pods and Volumes are ignored (the pod takes one slot).
	Requests  fit.Resources
	HostPorts []fit.HostPort
	// AntiAffinity and PreferredAntiAffinity are the pod's required and preferred pod anti-affinity terms
	// with topology key kubernetes.io/hostname.
	AntiAffinity          []fit.PodAffinityTerm
	PreferredAntiAffinity []fit.WeightedPodAffinityTerm
	// HostnameSpread are the pod's topology spread constraints with topology key kubernetes.io/hostname.
	HostnameSpread []fit.TopologySpreadConstraint
}

// KarpenterNodeClaim is one NodeClaim Karpenter launches for the batch.
type KarpenterNodeClaim struct {
	// Pods are indices into the batch, in the order they were added.
	Pods []int
	// Requested sums the pods' requests (Pods: their number).
	Requested fit.Resources
}

// KarpenterProvisioning is what Karpenter's provisioning scheduler does with one batch.
type KarpenterProvisioning struct {
	// NodeClaims are the new NodeClaims, in creation order.
	NodeClaims []KarpenterNodeClaim
	// Unschedulable are the pods no NodeClaim takes (not even an empty one, or none within the limit), as
	// indices into the batch, in queue order.
	Unschedulable []int
	// Relaxed counts the pods placed only after dropping preferences, the limit reached.
	Relaxed int
}

// karpenterClaim is a NodeClaim being packed.
type karpenterClaim struct {
	KarpenterNodeClaim
	ports []fit.HostPort
	seq   int // creation order
}

// matcher is a compiled term: a selector with the namespaces it looks in (nil: any).
type matcher struct {
	sel        labels.Selector
	namespaces map[string]bool
	spread     bool // a hostname spread (else an anti-affinity term)
	skew       int  // spread: maxSkew
	self       bool // spread: the pod selects itself
	soft       bool // preferred term or ScheduleAnyway spread
	weight     int  // preferred term's weight
}

func (m *matcher) selects(p *KarpenterPod) bool {
	return (m.namespaces == nil || m.namespaces[namespaceOf(p)]) && m.sel.Matches(labels.Set(p.Labels))
}

func namespaceOf(p *KarpenterPod) string {
	if p.Namespace == "" {
		return "default"
	}
	return p.Namespace
}

// antiMatcher compiles an anti-affinity term of pod p.
func antiMatcher(p *KarpenterPod, t fit.PodAffinityTerm) (matcher, error) {
	sel, err := metav1.LabelSelectorAsSelector(t.Selector.Kube())
	if err != nil {
		return matcher{}, fmt.Errorf("workload %q: anti-affinity selector: %w", p.Workload, err)
	}
	m := matcher{sel: sel}
	switch {
	case t.AllNamespaces:
	case len(t.Namespaces) == 0:
		m.namespaces = map[string]bool{namespaceOf(p): true}
	default:
		m.namespaces = map[string]bool{}
		for _, ns := range t.Namespaces {
			m.namespaces[ns] = true
		}
	}
	return m, nil
}

// compile gives the pod's terms in the order Karpenter relaxes them: required anti-affinity (never), then
// preferred anti-affinity (heaviest first, stable), then the hostname spreads in the pod's order.
func compile(p *KarpenterPod) ([]matcher, error) {
	var out []matcher
	for _, t := range p.AntiAffinity {
		m, err := antiMatcher(p, t)
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	pref := append([]fit.WeightedPodAffinityTerm(nil), p.PreferredAntiAffinity...)
	sort.SliceStable(pref, func(i, j int) bool { return pref[i].Weight > pref[j].Weight })
	for _, t := range pref {
		m, err := antiMatcher(p, t.Term)
		if err != nil {
			return nil, err
		}
		m.soft, m.weight = true, t.Weight
		out = append(out, m)
	}
	for _, c := range p.HostnameSpread {
		ls := c.Selector.Kube()
		for _, k := range c.MatchLabelKeys {
			if v, ok := p.Labels[k]; ok {
				ls.MatchExpressions = append(ls.MatchExpressions, metav1.LabelSelectorRequirement{Key: k, Operator: metav1.LabelSelectorOpIn, Values: []string{v}})
			}
		}
		sel, err := metav1.LabelSelectorAsSelector(ls)
		if err != nil {
			return nil, fmt.Errorf("workload %q: topology spread selector: %w", p.Workload, err)
		}
		m := matcher{sel: sel, namespaces: map[string]bool{namespaceOf(p): true}, spread: true, skew: max(c.MaxSkew, 1), soft: c.WhenUnsatisfiable == fit.ScheduleAnyway}
		m.self = m.selects(p)
		out = append(out, m)
	}
	return out, nil
}

// relax drops the pod's next preference as preferences.go Relax does (preferred anti-affinity terms first,
// heaviest first; then the first remaining ScheduleAnyway spread, swapped with the last spread), or
// returns false when none is left.
func relax(terms []matcher) ([]matcher, bool) {
	for i, m := range terms {
		if m.soft && !m.spread {
			return append(terms[:i:i], terms[i+1:]...), true
		}
	}
	for i, m := range terms {
		if m.soft && m.spread {
			out := append([]matcher(nil), terms...)
			last := len(out) - 1
			out[i] = out[last]
			return out[:last], true
		}
	}
	return terms, false
}

// KarpenterProvision packs a batch of pending pods onto new NodeClaims of one instance type whose room for
// pods is room (the instance type's allocatable less its DaemonSets' requests, Pods the slots left), with the
// DaemonSets' host ports daemonPorts taken on every NodeClaim, as Karpenter's provisioning scheduler does (see
// the file comment). maxNodeClaims is the NodePool's limit in nodes; 0 means none. It returns an error for an
// invalid label selector.
func KarpenterProvision(room fit.Resources, daemonPorts []fit.HostPort, pods []KarpenterPod, maxNodeClaims int) (KarpenterProvisioning, error) {
	unlimited := int64(math.MaxInt64)
	return karpenterProvision(room, daemonPorts, pods, maxNodeClaims, &unlimited)
}

// karpenterBudget bounds the work of the Karpenter provisioning model for one node group, its runs in
// karpenterSizing together: a unit per open NodeClaim a pod's try sorts, one per NodeClaim it checks, and ten
// per pod on that NodeClaim each of its terms reads (a selector match costs about ten sort steps). Each pod
// sorts the open NodeClaims, as Karpenter does, so a batch costs about pods × NodeClaims: a million pods on
// 4,000 NodeClaims took 9 s on one core here; the budget is about a second. karpenterBudget is a variable
// so that tests can exhaust it.
var karpenterBudget int64 = 200_000_000

// errKarpenterBudget is karpenterProvision's error when the work budget ran out before every pod was placed.
var errKarpenterBudget = errors.New("the Karpenter provisioning model ran out of its work budget")

// karpenterProvision is KarpenterProvision charging its work to *budget (karpenterBudget's units); once the
// budget is spent it stops with errKarpenterBudget.
func karpenterProvision(room fit.Resources, daemonPorts []fit.HostPort, pods []KarpenterPod, maxNodeClaims int, budget *int64) (KarpenterProvisioning, error) {
	terms := make([][]matcher, len(pods))
	for i := range pods {
		var err error
		if terms[i], err = compile(&pods[i]); err != nil {
			return KarpenterProvisioning{}, err
		}
	}
	order := make([]int, len(pods))
	for i := range order {
		order[i] = i
	}
	// queue.go byCPUAndMemoryDescending; equal pods keep their creation (request) order.
	sort.SliceStable(order, func(a, b int) bool {
		pa, pb := pods[order[a]].Requests, pods[order[b]].Requests
		if pa.CPUMillicores != pb.CPUMillicores {
			return pa.CPUMillicores > pb.CPUMillicores
		}
		return pa.MemoryBytes > pb.MemoryBytes
	})
	var out KarpenterProvisioning
	var claims []*karpenterClaim
	canAdd := func(c *karpenterClaim, i int, ts []matcher) bool {
		p := &pods[i]
		r := c.Requested.Add(p.Requests)
		if r.CPUMillicores > room.CPUMillicores || r.MemoryBytes > room.MemoryBytes || r.EphemeralStorageBytes > room.EphemeralStorageBytes ||
			c.Requested.Pods+1 > room.Pods || r.GPU > room.GPU || portsConflict(p.HostPorts, c.ports) {
			return false
		}
		*budget -= 1 + 10*int64(len(ts))*int64(len(c.Pods))
		for k := range ts {
			m := &ts[k]
			n := 0
			if m.self {
				n++
			}
			for _, j := range c.Pods {
				if m.selects(&pods[j]) {
					n++
				}
			}
			if !m.spread && n > 0 || m.spread && n > m.skew {
				return false
			}
		}
		return true
	}
	add := func(c *karpenterClaim, i int) {
		p := &pods[i]
		c.Pods = append(c.Pods, i)
		req := p.Requests
		req.Pods, req.Volumes = 1, 0
		c.Requested = c.Requested.Add(req)
		c.ports = append(c.ports, p.HostPorts...)
	}
	// try is one scheduler.go add: the open NodeClaims fewest pods first (sort.Slice), then a new one.
	try := func(i int, ts []matcher) bool {
		*budget -= int64(len(claims))
		sort.Slice(claims, func(a, b int) bool { return len(claims[a].Pods) < len(claims[b].Pods) })
		for _, c := range claims {
			if canAdd(c, i, ts) {
				add(c, i)
				return true
			}
		}
		if maxNodeClaims > 0 && len(claims) >= maxNodeClaims {
			return false
		}
		c := &karpenterClaim{ports: append([]fit.HostPort(nil), daemonPorts...), seq: len(claims)}
		if !canAdd(c, i, ts) {
			return false
		}
		add(c, i)
		claims = append(claims, c)
		return true
	}
	for _, i := range order {
		if *budget < 0 {
			return KarpenterProvisioning{}, errKarpenterBudget
		}
		ts, relaxed, placed := terms[i], false, false
		for {
			if placed = try(i, ts); placed {
				break
			}
			var ok bool
			if ts, ok = relax(ts); !ok {
				break
			}
			relaxed = true
		}
		switch {
		case !placed:
			out.Unschedulable = append(out.Unschedulable, i)
		case relaxed:
			out.Relaxed++
		}
	}
	// Report NodeClaims in creation order: the sort above permutes them.
	sort.Slice(claims, func(a, b int) bool { return claims[a].seq < claims[b].seq })
	for _, c := range claims {
		out.NodeClaims = append(out.NodeClaims, c.KarpenterNodeClaim)
	}
	return out, nil
}

// portsConflict reports whether a port of a matches one of b as Karpenter's HostPort.Matches decides:
// the same port and protocol, on equal addresses or one of them unspecified.
func portsConflict(a, b []fit.HostPort) bool {
	for _, x := range a {
		for _, y := range b {
			if x.Port != y.Port || protocol(x) != protocol(y) {
				continue
			}
			ix, iy := hostIP(x), hostIP(y)
			if ix == iy || ix.IsUnspecified() || iy.IsUnspecified() {
				return true
			}
		}
	}
	return false
}

func protocol(h fit.HostPort) string {
	if h.Protocol == "" {
		return "TCP"
	}
	return h.Protocol
}

func hostIP(h fit.HostPort) netip.Addr {
	a, err := netip.ParseAddr(h.IP)
	if err != nil {
		return netip.IPv4Unspecified()
	}
	return a
}
