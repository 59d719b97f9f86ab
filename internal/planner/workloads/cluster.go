package workloads

import (
	"fmt"
	"sort"
	"strings"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/overhead"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/pod"
)

// Origins of what is read.
const (
	OriginManifests = "manifests"
	OriginCluster   = "cluster"
)

// nodeGroupLabels are the labels that name a node's group, by the tool that made it, in the order tried.
var nodeGroupLabels = []string{"eks.amazonaws.com/nodegroup", "alpha.eksctl.io/nodegroup-name", "karpenter.sh/nodepool",
	"kubernetes.azure.com/agentpool", "agentpool", "cloud.google.com/gke-nodepool"}

// perNodeLabels are labels that differ from node to node or that kubefit sets itself on every planned node.
var perNodeLabels = map[string]bool{"kubernetes.io/hostname": true, "topology.kubernetes.io/zone": true, "topology.kubernetes.io/region": true,
	"failure-domain.beta.kubernetes.io/zone": true, "failure-domain.beta.kubernetes.io/region": true, "node.kubernetes.io/instance-type": true,
	"beta.kubernetes.io/instance-type": true, "kubernetes.io/arch": true, "kubernetes.io/os": true, "beta.kubernetes.io/arch": true, "beta.kubernetes.io/os": true}

// conditionTaint reports whether a taint is one a node controller or autoscaler sets for a while, not part
// of the group's configuration.
func conditionTaint(t corev1.Taint) bool {
	return strings.HasPrefix(t.Key, "node.kubernetes.io/") || strings.HasPrefix(t.Key, "node.cloudprovider.kubernetes.io/") ||
		t.Key == "ToBeDeletedByClusterAutoscaler" || t.Key == "DeletionCandidateOfClusterAutoscaler" || strings.HasPrefix(t.Key, "karpenter.sh/disrupt")
}

// podGroup is the running pods of one owner.
type podGroup struct {
	src  Source
	kind string
	pods []*corev1.Pod
}

// indexCluster files the snapshot's objects: nodes into pools, pods into groups by owner, the rest as
// manifests' objects are (claims, autoscalers, LimitRanges, classes).
func (r *reader) indexCluster(objs []object) {
	byPool := map[string][]*corev1.Node{}
	groupKey := map[string]*podGroup{}
	for _, o := range objs {
		r.defaultNamespace(&o)
		if _, node := o.typed.(*corev1.Node); !node {
			// Filters pick workloads: a pod is matched as its owner (kind, name), with its own labels.
			fo := o
			if p, ok := o.typed.(*corev1.Pod); ok {
				fo.src.Kind, fo.src.Name, _ = podOwner(p)
			}
			if reason := r.filtered(fo); reason != "" {
				r.skip(o, reason)
				continue
			}
		}
		switch t := o.typed.(type) {
		case *corev1.Node:
			name, by := nodeGroup(t)
			byPool[name] = append(byPool[name], t)
			if r.nodePool == nil {
				r.nodePool = map[string][2]string{}
			}
			r.nodePool[t.Name] = [2]string{name, by}
		case *corev1.Pod:
			if reason := finished(t); reason != "" {
				r.skip(o, reason)
				continue
			}
			kind, name, apiVersion := podOwner(t)
			key := o.src.Namespace + "/" + kind + "/" + name
			g, ok := groupKey[key]
			if !ok {
				g = &podGroup{kind: kind, src: Source{APIVersion: apiVersion, Kind: kind, Namespace: o.src.Namespace, Name: name,
					Document: o.src.Document, Line: o.src.Line, Origin: OriginCluster}}
				groupKey[key] = g
				r.groups = append(r.groups, g)
			}
			g.pods = append(g.pods, t)
		default:
			if clusterFiled[o.src.Kind] {
				r.file(o)
				continue
			}
			r.skip(o, "read from the cluster's running pods and nodes instead")
		}
	}
	names := make([]string, 0, len(byPool))
	for n := range byPool {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if p := r.pool(n, byPool[n]); len(p.Nodes) > 0 {
			r.res.Pools = append(r.res.Pools, p)
		}
	}
}

// clusterFiled are the kinds of a snapshot read as the manifests' are: they change how pods are read.
var clusterFiled = map[string]bool{"PersistentVolumeClaim": true, "LimitRange": true, "PriorityClass": true, "RuntimeClass": true,
	"HorizontalPodAutoscaler": true, "ScaledObject": true}

// nodeGroup names a node's group and the label it came from.
func nodeGroup(n *corev1.Node) (string, string) {
	for _, l := range nodeGroupLabels {
		if v := n.Labels[l]; v != "" {
			return v, l
		}
	}
	if v := instanceType(n); v != "" {
		return v, "node.kubernetes.io/instance-type"
	}
	return "nodes", ""
}

func instanceType(n *corev1.Node) string {
	if v := n.Labels["node.kubernetes.io/instance-type"]; v != "" {
		return v
	}
	return n.Labels["beta.kubernetes.io/instance-type"]
}

// cloudOf reads a node's cloud from its provider ID, else from its labels.
func cloudOf(n *corev1.Node) catalog.Cloud {
	switch id := n.Spec.ProviderID; {
	case strings.HasPrefix(id, "aws://"):
		return catalog.AWS
	case strings.HasPrefix(id, "azure://"):
		return catalog.Azure
	case strings.HasPrefix(id, "gce://"):
		return catalog.GCP
	}
	for k := range n.Labels {
		switch {
		case strings.HasPrefix(k, "eks.amazonaws.com/"), strings.HasPrefix(k, "k8s.io/cloud-provider-aws"):
			return catalog.AWS
		case strings.HasPrefix(k, "kubernetes.azure.com/"):
			return catalog.Azure
		case strings.HasPrefix(k, "cloud.google.com/"):
			return catalog.GCP
		}
	}
	return ""
}

// pool turns the nodes of one group into a measured sizing pool: the least allocatable and capacity any
// node reports, resource by resource; the labels every node has and the taints any node has; its zones.
func (r *reader) pool(name string, nodes []*corev1.Node) Pool {
	sort.Slice(nodes, func(i, j int) bool { return nodes[i].Name < nodes[j].Name })
	_, by := nodeGroup(nodes[0])
	p := Pool{GroupedBy: by}
	p.Name = name
	var schedulable []*corev1.Node
	types, zones := map[string]bool{}, map[string]bool{}
	for _, n := range nodes {
		if n.Spec.Unschedulable {
			r.res.Warnings = append(r.res.Warnings, Warning{Code: WarnNodeCordoned, Source: Source{Kind: "Node", Name: n.Name, Origin: OriginCluster},
				Message: fmt.Sprintf("Node %s of pool %s is cordoned (unschedulable); it is not counted in the pool", field.Quote(n.Name), field.Quote(name))})
			continue
		}
		schedulable = append(schedulable, n)
		p.Nodes = append(p.Nodes, n.Name)
		if t := instanceType(n); t != "" {
			types[t] = true
		}
		if z := n.Labels["topology.kubernetes.io/zone"]; z != "" {
			zones[z] = true
		}
	}
	p.MinNodes, p.MaxNodes = len(schedulable), len(schedulable)
	p.InstanceTypes, p.Zones = sortedSet(types), sortedSet(zones)
	if len(schedulable) == 0 {
		return p
	}
	p.Cloud = cloudOf(schedulable[0])
	if p.Cloud == "" {
		r.res.Warnings = append(r.res.Warnings, Warning{Code: WarnNodeCloud, Source: Source{Kind: "Node", Name: schedulable[0].Name, Origin: OriginCluster},
			Message: fmt.Sprintf("pool %s: its nodes name no aws://, azure:// or gce:// provider ID and no cloud's labels; set the pool's cloud yourself", field.Quote(name))})
	}
	if len(p.InstanceTypes) == 0 {
		r.res.Warnings = append(r.res.Warnings, Warning{Code: WarnNodeInstanceType, Source: Source{Kind: "Node", Name: schedulable[0].Name, Origin: OriginCluster},
			Message: fmt.Sprintf("pool %s: its nodes carry no node.kubernetes.io/instance-type label; set the pool's instance type yourself", field.Quote(name))})
	}
	// Each figure is the least any node reports (a mixed group's nodes differ resource by resource).
	alloc, capa := corev1.ResourceList{}, corev1.ResourceList{}
	for _, n := range schedulable {
		least(alloc, n.Status.Allocatable)
		least(capa, n.Status.Capacity)
	}
	p.Overhead.MeasuredAllocatable = overhead.MeasuredAllocatable{CPUMillicores: milli(alloc, corev1.ResourceCPU), MemoryBytes: value(alloc, corev1.ResourceMemory),
		EphemeralStorageBytes: value(alloc, corev1.ResourceEphemeralStorage), Pods: value(alloc, corev1.ResourcePods)}
	p.Overhead.MeasuredCapacity = overhead.Reservation{CPUMillicores: milli(capa, corev1.ResourceCPU), MemoryBytes: value(capa, corev1.ResourceMemory),
		EphemeralStorageBytes: value(capa, corev1.ResourceEphemeralStorage)}
	p.Labels = commonLabels(schedulable)
	p.Taints = allTaints(schedulable)
	for _, n := range schedulable {
		if isSpot(n) {
			p.CapacityType = fit.CapacitySpot // one spot node makes the pool spot: the spot_loss scenario loses it all
		}
	}
	return p
}

// spotLabels are the node labels that say a node is spot (or preemptible), with their spot value, compared
// without case: EKS managed node groups' eks.amazonaws.com/capacityType (SPOT or ON_DEMAND), Karpenter's
// karpenter.sh/capacity-type (spot, on-demand, reserved), AKS's kubernetes.azure.com/scalesetpriority (spot on
// Spot pools) and GKE's cloud.google.com/gke-spot and cloud.google.com/gke-preemptible ("true").
var spotLabels = []struct{ key, spot string }{
	{"eks.amazonaws.com/capacityType", "SPOT"},
	{"karpenter.sh/capacity-type", "spot"},
	{"kubernetes.azure.com/scalesetpriority", "spot"},
	{"cloud.google.com/gke-spot", "true"},
	{"cloud.google.com/gke-preemptible", "true"},
}

// isSpot says whether a node's labels say it is spot or preemptible.
func isSpot(n *corev1.Node) bool {
	for _, l := range spotLabels {
		if strings.EqualFold(n.Labels[l.key], l.spot) {
			return true
		}
	}
	return false
}

// less orders resource lists by CPU, then memory.
func less(a, b corev1.ResourceList) bool {
	if c := a.Cpu().Cmp(*b.Cpu()); c != 0 {
		return c < 0
	}
	return a.Memory().Cmp(*b.Memory()) < 0
}

// least lowers each entry of dst to src's, and adds the entries dst lacks.
func least(dst, src corev1.ResourceList) {
	for k, v := range src {
		if cur, ok := dst[k]; !ok || v.Cmp(cur) < 0 {
			dst[k] = v.DeepCopy()
		}
	}
}

func milli(l corev1.ResourceList, n corev1.ResourceName) *int64 {
	q, ok := l[n]
	if !ok {
		return nil
	}
	v := q.MilliValue()
	return &v
}

func value(l corev1.ResourceList, n corev1.ResourceName) *int64 {
	q, ok := l[n]
	if !ok {
		return nil
	}
	v := q.Value()
	return &v
}

func sortedSet(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func commonLabels(nodes []*corev1.Node) map[string]string {
	out := map[string]string{}
	for k, v := range nodes[0].Labels {
		if perNodeLabels[k] {
			continue
		}
		all := true
		for _, n := range nodes[1:] {
			if n.Labels[k] != v {
				all = false
				break
			}
		}
		if all {
			out[k] = v
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// allTaints is every configured taint any node of the group carries: a pod that does not tolerate one of
// them is planned as if no node of the group took it (the safe side).
func allTaints(nodes []*corev1.Node) []fit.Taint {
	var out []fit.Taint
	seen := map[fit.Taint]bool{}
	for _, n := range nodes {
		for _, t := range n.Spec.Taints {
			ft := fit.Taint{Key: t.Key, Value: t.Value, Effect: fit.TaintEffect(t.Effect)}
			if conditionTaint(t) || seen[ft] {
				continue
			}
			seen[ft] = true
			out = append(out, ft)
		}
	}
	return out
}

// finished says why a pod that has terminated (status.phase Succeeded or Failed) is no load, "" for any other:
// the scheduler's pod informer leaves terminal pods out (pkg/scheduler/scheduler.go newPodInformer, field selector
// status.phase!=Succeeded,status.phase!=Failed), so they take no node resources.
func finished(p *corev1.Pod) string {
	if p.Status.Phase == corev1.PodSucceeded || p.Status.Phase == corev1.PodFailed {
		return "a finished pod (" + string(p.Status.Phase) + "): no load"
	}
	return ""
}

// podOwner names the object a running pod belongs to: a ReplicaSet's pod by its Deployment (the
// ReplicaSet's name less the pod-template-hash), a static pod by its name less the node's, any other by
// its controller; a pod without a controller by itself.
func podOwner(p *corev1.Pod) (kind, name, apiVersion string) {
	ref := metav1.GetControllerOf(p)
	if _, mirror := p.Annotations[corev1.MirrorPodAnnotationKey]; mirror || (ref != nil && ref.Kind == "Node") {
		return "StaticPod", strings.TrimSuffix(p.Name, "-"+p.Spec.NodeName), "v1"
	}
	if ref == nil {
		return "Pod", p.Name, "v1"
	}
	if ref.Kind == "ReplicaSet" {
		if h := p.Labels[appsPodTemplateHash]; h != "" && strings.HasSuffix(ref.Name, "-"+h) {
			return "Deployment", strings.TrimSuffix(ref.Name, "-"+h), "apps/v1"
		}
	}
	return ref.Kind, ref.Name, ref.APIVersion
}

const appsPodTemplateHash = "pod-template-hash"

// readCluster turns each group of running pods into a workload or DaemonSet, unless the manifests hold
// the same owner (then the manifests' version is planned).
func (r *reader) readCluster() {
	inManifests := map[string]bool{}
	for _, w := range r.res.Workloads {
		inManifests[w.Source.Namespace+"/"+w.Source.Kind+"/"+w.Source.Name] = true
	}
	for _, d := range r.res.DaemonSets {
		inManifests[d.Source.Namespace+"/"+d.Source.Kind+"/"+d.Source.Name] = true
	}
	for _, g := range r.groups {
		o := object{src: g.src}
		if inManifests[g.src.Namespace+"/"+g.src.Kind+"/"+g.src.Name] {
			r.skip(o, fmt.Sprintf("its %d running pod(s) are replaced by the manifests' %s", len(g.pods), g.src.Kind))
			continue
		}
		rep, differ := largest(g.pods)
		tpl := corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: rep.Labels, Annotations: rep.Annotations}, Spec: *sanitize(rep, g.kind)}
		if g.kind == "DaemonSet" {
			r.pinToPools(g, &tpl.Spec)
			r.tolerateWhereRunning(g, &tpl.Spec)
		}
		ow := owned{template: tpl, replicas: len(g.pods), daemon: g.kind == "DaemonSet" || g.kind == "StaticPod"}
		ow.notes = append(ow.notes, fmt.Sprintf("%d running pod(s) in the cluster snapshot", len(g.pods)))
		if differ {
			ow.notes = append(ow.notes, "its running pods request different amounts (a rollout or a vertical autoscaler): the largest is planned")
		}
		if g.kind == "Deployment" {
			ow.surge = fit.IntOrPercent{Value: 25, Percent: true}
			ow.notes = append(ow.notes, "the Deployment's strategy is not in the snapshot: maxSurge 25% (the default)")
		}
		if g.kind == "StaticPod" {
			r.warn(g.src, WarnStaticPod, "a static pod on %d node(s), read as a DaemonSet on every node; if only some nodes run it, exclude it and plan it by hand", len(g.pods))
		}
		r.add(o, ow)
	}
}

// pinToPools keeps a DaemonSet read from running pods on the pools its pods run on: the DaemonSet
// controller replaces each pod's node affinity with its node's name, so the template's own affinity is
// lost, but the pools its pods are on say where it lands (a pool none of its pods is on yet is left out).
func (r *reader) pinToPools(g *podGroup, spec *corev1.PodSpec) {
	pools, key := map[string]bool{}, ""
	for _, p := range g.pods {
		np, ok := r.nodePool[p.Spec.NodeName]
		if !ok {
			continue
		}
		if key != "" && np[1] != key {
			return // pools grouped by different labels: no one expression names them
		}
		pools[np[0]], key = true, np[1]
	}
	if key == "" || len(pools) == len(r.res.Pools) {
		return
	}
	term := corev1.NodeSelectorTerm{MatchExpressions: []corev1.NodeSelectorRequirement{{Key: key, Operator: corev1.NodeSelectorOpIn, Values: sortedSet(pools)}}}
	if spec.Affinity == nil {
		spec.Affinity = &corev1.Affinity{}
	}
	if spec.Affinity.NodeAffinity == nil {
		spec.Affinity.NodeAffinity = &corev1.NodeAffinity{}
	}
	na := spec.Affinity.NodeAffinity
	if na.RequiredDuringSchedulingIgnoredDuringExecution == nil {
		na.RequiredDuringSchedulingIgnoredDuringExecution = &corev1.NodeSelector{NodeSelectorTerms: []corev1.NodeSelectorTerm{term}}
		return
	}
	for i := range na.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms {
		t := &na.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms[i]
		t.MatchExpressions = append(t.MatchExpressions, term.MatchExpressions...)
	}
}

// tolerateWhereRunning keeps a DaemonSet read from running pods on every pool its pods run on, whatever the
// pool's taints: a pool's taints are every taint any of its nodes carries, and a DaemonSet pod runs beside a
// NoSchedule taint it does not tolerate when the taint came after it (NoSchedule evicts nothing) or when only
// some of the pool's nodes carry it. Planning it off such a pool would leave its requests out of the nodes
// that do run it (the optimistic side), so each taint it does not tolerate on a pool it runs on is tolerated,
// with a warning naming them (a new node tainted from the start would not run it: the pessimistic side).
func (r *reader) tolerateWhereRunning(g *podGroup, spec *corev1.PodSpec) {
	taints := map[string][]fit.Taint{}
	for _, p := range r.res.Pools {
		taints[p.Name] = p.Taints
	}
	running := map[string]bool{}
	for _, p := range g.pods {
		if np, ok := r.nodePool[p.Spec.NodeName]; ok {
			running[np[0]] = true
		}
	}
	var added []string
	for _, pool := range sortedSet(running) {
		for _, t := range taints[pool] {
			if t.Effect == fit.EffectPreferNoSchedule {
				continue
			}
			if tolerated(tolerations(spec.Tolerations), t) {
				continue
			}
			ct := corev1.Taint{Key: t.Key, Value: t.Value, Effect: corev1.TaintEffect(t.Effect)}
			spec.Tolerations = append(spec.Tolerations, corev1.Toleration{Key: t.Key, Operator: corev1.TolerationOpEqual, Value: t.Value, Effect: ct.Effect})
			added = append(added, fmt.Sprintf("%s (pool %s)", ct.ToString(), field.Quote(pool)))
		}
	}
	if len(added) > 0 {
		r.warn(g.src, WarnDaemonsetUntolerated, "its running pods are on nodes of pools whose taints it does not tolerate: %s. Planned there as the snapshot "+
			"shows it (its requests count on those pools); a node that carries the taint when it joins would not run it",
			strings.Join(added, ", "))
	}
}

func tolerated(tols []fit.Toleration, t fit.Taint) bool {
	for _, tol := range tols {
		if tol.Tolerates(t) {
			return true
		}
	}
	return false
}

// largest returns the pod with the largest effective request (CPU, then memory) and whether the pods differ.
func largest(pods []*corev1.Pod) (*corev1.Pod, bool) {
	best := pods[0]
	bestReq, _ := pod.Requests(&best.Spec, pod.Defaults{})
	differ := false
	for _, p := range pods[1:] {
		req, _ := pod.Requests(&p.Spec, pod.Defaults{})
		if !equalLists(req, bestReq) {
			differ = true
		}
		if less(bestReq, req) {
			best, bestReq = p, req
		}
	}
	return best, differ
}

func equalLists(a, b corev1.ResourceList) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || v.Cmp(w) != 0 {
			return false
		}
	}
	return true
}

// sanitize returns a running pod's spec as its template would be: no node binding, and for a DaemonSet
// pod without the node affinity its controller adds to pin each pod to its node.
func sanitize(p *corev1.Pod, kind string) *corev1.PodSpec {
	spec := p.Spec.DeepCopy()
	spec.NodeName = ""
	if kind != "DaemonSet" || spec.Affinity == nil || spec.Affinity.NodeAffinity == nil {
		return spec
	}
	req := spec.Affinity.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution
	if req == nil {
		return spec
	}
	var terms []corev1.NodeSelectorTerm
	for _, t := range req.NodeSelectorTerms {
		var fields []corev1.NodeSelectorRequirement
		for _, f := range t.MatchFields {
			if f.Key != "metadata.name" {
				fields = append(fields, f)
			}
		}
		t.MatchFields = fields
		if len(t.MatchFields) > 0 || len(t.MatchExpressions) > 0 {
			terms = append(terms, t)
		}
	}
	if len(terms) == 0 {
		spec.Affinity.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution = nil
	} else {
		req.NodeSelectorTerms = terms
	}
	return spec
}
