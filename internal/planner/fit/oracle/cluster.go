package oracle

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	storagev1 "k8s.io/api/storage/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
)

// PoolLabel is the node label the oracle gives every node of a pool (a workload's pool list becomes a
// required node affinity on it, as eks.amazonaws.com/nodegroup or agentpool are used).
const PoolLabel = "kubefit.io/pool"

// FromPlan builds the real cluster of a kubefit input: counts[p] nodes of pool p (node i in zone
// Zones[i mod len]), each running the DaemonSets kubefit says land on the pool (res.Pools[p].DaemonSets)
// as pods already bound, a ReplicaSet per workload, and the pods of order o (workload indexes) with the
// workload's requests, node selector, pool list, required and preferred node affinity, tolerations, spread and
// volume claims. Pod names are
// "<workload>-<k>". A pool with Allocatable.Volumes gets a CSINode per node that registers that attach limit
// for BlockDriver; every claim is bound to a CSI volume of its own (one per pod, or one per workload for a
// shared claim), of BlockDriver, or of FileDriver when it is not attachable.
func FromPlan(in fit.Input, res fit.Result, sc fit.Scenario, counts []int, o fit.Order) Input {
	var out Input
	for p, pool := range in.Pools {
		for i := range counts[p] {
			name := fmt.Sprintf("%s-%d", pool.Name, i)
			labels := map[string]string{corev1.LabelHostname: name, PoolLabel: pool.Name}
			for k, v := range pool.Labels {
				labels[k] = v
			}
			if len(pool.Zones) > 0 {
				labels[corev1.LabelTopologyZone] = pool.Zones[i%len(pool.Zones)]
				labels[corev1.LabelFailureDomainBetaZone] = pool.Zones[i%len(pool.Zones)]
			}
			node := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: labels},
				Status: corev1.NodeStatus{Allocatable: resourceList(pool.Allocatable, true), Capacity: resourceList(pool.Allocatable, true),
					Conditions: []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue}}}}
			for _, t := range pool.Taints {
				node.Spec.Taints = append(node.Spec.Taints, corev1.Taint{Key: t.Key, Value: t.Value, Effect: corev1.TaintEffect(t.Effect)})
			}
			out.Nodes = append(out.Nodes, node)
			if pool.Allocatable.Volumes > 0 {
				// The disk CSI driver's attach limit, as its node plugin registers it (NodeVolumeLimits reads it).
				out.Objects = append(out.Objects, &storagev1.CSINode{ObjectMeta: metav1.ObjectMeta{Name: name},
					Spec: storagev1.CSINodeSpec{Drivers: []storagev1.CSINodeDriver{{Name: BlockDriver, NodeID: name,
						Allocatable: &storagev1.VolumeNodeResources{Count: ptr(int32(pool.Allocatable.Volumes))}}}}})
			}
			for _, ds := range res.Pools[p].DaemonSets {
				for _, d := range in.DaemonSets {
					if d.Name == ds {
						out.Objects = append(out.Objects, &corev1.Pod{
							ObjectMeta: metav1.ObjectMeta{Name: ds + "-" + name, Namespace: "kube-system", UID: types.UID(ds + "-" + name)},
							Spec: corev1.PodSpec{NodeName: name, Containers: []corev1.Container{{Name: "c", Image: "ds", Ports: ports(d.HostPorts),
								Resources: corev1.ResourceRequirements{Requests: resourceList(d.Requests, false)}}}}})
					}
				}
			}
		}
	}
	out.Objects = append(out.Objects, &storagev1.CSIDriver{ObjectMeta: metav1.ObjectMeta{Name: BlockDriver},
		Spec: storagev1.CSIDriverSpec{AttachRequired: ptr(true)}})
	claimed := map[string]bool{}
	for _, w := range in.Workloads {
		sel := &metav1.LabelSelector{MatchLabels: fit.PodLabels(&w)}
		out.Objects = append(out.Objects, &appsv1.ReplicaSet{
			ObjectMeta: metav1.ObjectMeta{Name: w.Name, Namespace: namespace(&w), UID: types.UID("rs-" + w.Name)},
			Spec: appsv1.ReplicaSetSpec{Selector: sel, Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: sel.MatchLabels}}}})
	}
	// kubefit keeps a pod off the nodes of another operating system (fit.WorkloadOS): kube-scheduler would bind it
	// there, where the kubelet refuses it, so what runs is what a node selector on the OS would give.
	osLabelled := slices.ContainsFunc(in.Pools, func(p fit.Pool) bool { return p.Labels[corev1.LabelOSStable] != "" })
	next := make([]int, len(in.Workloads))
	for _, wi := range o.Pods {
		w := &in.Workloads[wi]
		pod := &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("%s-%d", w.Name, next[wi]), Namespace: namespace(w),
				UID:    types.UID(fmt.Sprintf("pod-%s-%d", w.Name, next[wi])),
				Labels: fit.PodLabels(w),
				OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: w.Name,
					UID: types.UID("rs-" + w.Name), Controller: ptr(true)}}},
			Spec: corev1.PodSpec{SchedulerName: corev1.DefaultSchedulerName, NodeSelector: w.NodeSelector, Priority: ptr(w.Priority),
				Containers: []corev1.Container{{Name: "c", Image: "app", Ports: ports(w.HostPorts),
					Resources: corev1.ResourceRequirements{Requests: resourceList(w.Requests, false)}}}},
		}
		for _, c := range w.VolumeClaims {
			claim := c.Name + "-" + pod.Name
			if c.From == fit.ClaimShared {
				claim = c.Name + "-" + w.Name
			}
			pod.Spec.Volumes = append(pod.Spec.Volumes, corev1.Volume{Name: c.Name,
				VolumeSource: corev1.VolumeSource{PersistentVolumeClaim: &corev1.PersistentVolumeClaimVolumeSource{ClaimName: claim}}})
			if !claimed[claim] {
				claimed[claim] = true
				out.Objects = append(out.Objects, boundClaim(claim, namespace(w), c)...)
			}
		}
		if os := fit.WorkloadOS(w); osLabelled && os != "" {
			pod.Spec.NodeSelector = maps.Clone(w.NodeSelector)
			if pod.Spec.NodeSelector == nil {
				pod.Spec.NodeSelector = map[string]string{}
			}
			pod.Spec.NodeSelector[corev1.LabelOSStable] = os
		}
		next[wi]++
		for _, t := range w.Tolerations {
			pod.Spec.Tolerations = append(pod.Spec.Tolerations, corev1.Toleration{Key: t.Key,
				Operator: corev1.TolerationOperator(t.Operator), Value: t.Value, Effect: corev1.TaintEffect(t.Effect)})
		}
		own := &metav1.LabelSelector{MatchLabels: fit.PodLabels(w)}
		if req := requiredAffinity(w); req != nil {
			pod.Spec.Affinity = &corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: req}}
		}
		if pref := fit.PreferredTerms(w.PreferredNodeAffinity); pref != nil {
			if pod.Spec.Affinity == nil {
				pod.Spec.Affinity = &corev1.Affinity{}
			}
			if pod.Spec.Affinity.NodeAffinity == nil {
				pod.Spec.Affinity.NodeAffinity = &corev1.NodeAffinity{}
			}
			pod.Spec.Affinity.NodeAffinity.PreferredDuringSchedulingIgnoredDuringExecution = pref
		}
		if aff, anti := w.PodAffinity.Kube(); aff != nil || anti != nil {
			if pod.Spec.Affinity == nil {
				pod.Spec.Affinity = &corev1.Affinity{}
			}
			pod.Spec.Affinity.PodAffinity, pod.Spec.Affinity.PodAntiAffinity = aff, anti
		}
		switch w.Spread.Type {
		case fit.SpreadNode:
			if pod.Spec.Affinity == nil {
				pod.Spec.Affinity = &corev1.Affinity{}
			}
			if pod.Spec.Affinity.PodAntiAffinity == nil {
				pod.Spec.Affinity.PodAntiAffinity = &corev1.PodAntiAffinity{}
			}
			pod.Spec.Affinity.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution = append(pod.Spec.Affinity.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution,
				corev1.PodAffinityTerm{LabelSelector: own, TopologyKey: corev1.LabelHostname})
		case fit.SpreadZone:
			pod.Spec.TopologySpreadConstraints = []corev1.TopologySpreadConstraint{{MaxSkew: int32(w.Spread.MaxSkew),
				TopologyKey: corev1.LabelTopologyZone, WhenUnsatisfiable: corev1.DoNotSchedule, LabelSelector: own}}
		}
		for _, t := range w.TopologySpread {
			c := corev1.TopologySpreadConstraint{MaxSkew: int32(t.MaxSkew), TopologyKey: t.TopologyKey,
				WhenUnsatisfiable: corev1.UnsatisfiableConstraintAction(t.WhenUnsatisfiable), LabelSelector: t.Selector.Kube(), MatchLabelKeys: t.MatchLabelKeys}
			if c.WhenUnsatisfiable == "" {
				c.WhenUnsatisfiable = corev1.DoNotSchedule
			}
			if t.MinDomains > 0 {
				c.MinDomains = ptr(int32(t.MinDomains))
			}
			if t.NodeAffinityPolicy != "" {
				c.NodeAffinityPolicy = ptr(corev1.NodeInclusionPolicy(t.NodeAffinityPolicy))
			}
			if t.NodeTaintsPolicy != "" {
				c.NodeTaintsPolicy = ptr(corev1.NodeInclusionPolicy(t.NodeTaintsPolicy))
			}
			pod.Spec.TopologySpreadConstraints = append(pod.Spec.TopologySpreadConstraints, c)
		}
		out.Pods = append(out.Pods, pod)
	}
	return out
}

func ptr[T any](v T) *T { return &v }

// namespace is the workload's namespace, "default" when it names none.
func namespace(w *fit.Workload) string {
	if w.Namespace == "" {
		return "default"
	}
	return w.Namespace
}

// BlockDriver is the CSI driver of the oracle's block volumes (an attach limit per node, in CSINode), and
// FileDriver that of its file shares (ReadWriteMany or ReadOnlyMany claims; no limit).
const (
	BlockDriver = "ebs.csi.aws.com"
	FileDriver  = "efs.csi.aws.com"
)

// boundClaim returns the claim and the CSI volume it is bound to (no zone: kubefit does not model a volume's
// zone), so the scheduler's VolumeBinding finds it bound and NodeVolumeLimits counts its volume handle.
func boundClaim(name, ns string, c fit.VolumeClaim) []runtime.Object {
	modes := []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOnce}
	if len(c.AccessModes) > 0 {
		modes = nil
		for _, m := range c.AccessModes {
			modes = append(modes, corev1.PersistentVolumeAccessMode(m))
		}
	}
	driver := BlockDriver
	if !c.Attachable() {
		driver = FileDriver
	}
	size := resource.MustParse("1Gi")
	pv := &corev1.PersistentVolume{ObjectMeta: metav1.ObjectMeta{Name: "pv-" + name},
		Spec: corev1.PersistentVolumeSpec{AccessModes: modes, Capacity: corev1.ResourceList{corev1.ResourceStorage: size},
			ClaimRef:               &corev1.ObjectReference{Kind: "PersistentVolumeClaim", Namespace: ns, Name: name, UID: types.UID("pvc-" + name)},
			PersistentVolumeSource: corev1.PersistentVolumeSource{CSI: &corev1.CSIPersistentVolumeSource{Driver: driver, VolumeHandle: "vol-" + name}}},
		Status: corev1.PersistentVolumeStatus{Phase: corev1.VolumeBound}}
	// The binding controller's annotation: the scheduler's volume binder takes only a claim that carries it as
	// bound (pkg/scheduler/framework/plugins/volumebinding: isPVCFullyBound).
	pvc := &corev1.PersistentVolumeClaim{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns, UID: types.UID("pvc-" + name),
		Annotations: map[string]string{"pv.kubernetes.io/bind-completed": "yes"}},
		Spec: corev1.PersistentVolumeClaimSpec{AccessModes: modes, VolumeName: pv.Name, StorageClassName: ptr(""),
			Resources: corev1.VolumeResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceStorage: size}}},
		Status: corev1.PersistentVolumeClaimStatus{Phase: corev1.ClaimBound, AccessModes: modes, Capacity: corev1.ResourceList{corev1.ResourceStorage: size}}}
	return []runtime.Object{pv, pvc}
}

// resourceList spells kubefit's resources as Kubernetes quantities; zero requests are left out, as a
// container that requests nothing of a resource; a node's pod count is always set.
func resourceList(r fit.Resources, node bool) corev1.ResourceList {
	l := corev1.ResourceList{}
	set := func(name corev1.ResourceName, q *resource.Quantity, v int64) {
		if v > 0 || (node && name == corev1.ResourcePods) {
			l[name] = *q
		}
	}
	set(corev1.ResourceCPU, resource.NewMilliQuantity(r.CPUMillicores, resource.DecimalSI), r.CPUMillicores)
	set(corev1.ResourceMemory, resource.NewQuantity(r.MemoryBytes, resource.BinarySI), r.MemoryBytes)
	set(corev1.ResourceEphemeralStorage, resource.NewQuantity(r.EphemeralStorageBytes, resource.BinarySI), r.EphemeralStorageBytes)
	set("nvidia.com/gpu", resource.NewQuantity(r.GPU, resource.DecimalSI), r.GPU)
	if node {
		set(corev1.ResourcePods, resource.NewQuantity(r.Pods, resource.DecimalSI), r.Pods)
	}
	return l
}

var _ runtime.Object = (*appsv1.ReplicaSet)(nil)

// requiredAffinity is the pod's required node affinity: the workload's own terms, each with the pool list
// (as a pool-label expression) added to it; nil for neither.
func requiredAffinity(w *fit.Workload) *corev1.NodeSelector {
	ns := fit.NodeSelector(w.NodeAffinity)
	if len(w.Pools) == 0 {
		return ns
	}
	pools := corev1.NodeSelectorRequirement{Key: PoolLabel, Operator: corev1.NodeSelectorOpIn, Values: w.Pools}
	if ns == nil {
		return &corev1.NodeSelector{NodeSelectorTerms: []corev1.NodeSelectorTerm{{MatchExpressions: []corev1.NodeSelectorRequirement{pools}}}}
	}
	for i := range ns.NodeSelectorTerms {
		ns.NodeSelectorTerms[i].MatchExpressions = append(ns.NodeSelectorTerms[i].MatchExpressions, pools)
	}
	return ns
}

// ports are the container ports that take the host ports hps.
func ports(hps []fit.HostPort) []corev1.ContainerPort {
	var out []corev1.ContainerPort
	for _, h := range hps {
		proto := corev1.Protocol(h.Protocol)
		if proto == "" {
			proto = corev1.ProtocolTCP
		}
		out = append(out, corev1.ContainerPort{ContainerPort: int32(h.Port), HostPort: int32(h.Port), Protocol: proto, HostIP: h.IP})
	}
	return out
}

// NodeNameOrder is every node FromPlan makes for the counts ("<pool>-<i>"), in the order of their names: the
// order the scheduler's informer adds them in (the fake's tracker lists by name, as the API server lists by
// key), which sets their order in its node list and so its ties (fit.Order.Nodes).
func NodeNameOrder(in fit.Input, counts []int) []fit.NodeRef {
	var out []fit.NodeRef
	for p := range in.Pools {
		for i := range counts[p] {
			out = append(out, fit.NodeRef{Pool: p, Index: i})
		}
	}
	name := func(r fit.NodeRef) string { return fmt.Sprintf("%s-%d", in.Pools[r.Pool].Name, r.Index) }
	slices.SortFunc(out, func(a, b fit.NodeRef) int { return strings.Compare(name(a), name(b)) })
	return out
}
