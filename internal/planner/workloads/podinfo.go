package workloads

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	nodev1 "k8s.io/api/node/v1"
	k8sresource "k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/pod"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/resource"
)

// Well-known topology keys.
const (
	hostnameKey = "kubernetes.io/hostname"
	zoneKey     = "topology.kubernetes.io/zone"
)

// placement is what sizing is told about where a pod may go.
type placement struct {
	selector map[string]string
	affinity []fit.NodeSelectorTerm
	// preferred is the pods' preferred node affinity (never set for a DaemonSet, whose pods it does not move).
	preferred []fit.WeightedNodeSelectorTerm
	ports     []fit.HostPort
	spread    fit.Spread
	pod       *fit.PodAffinity
	topology  []fit.TopologySpreadConstraint
}

// podInfo reads what one pod of o asks and carries.
func (r *reader) podInfo(o object, ow *owned) (PodInfo, placement) {
	spec := &ow.template.Spec
	if spec.HostNetwork {
		// SetDefaults_PodSpec: with host networking every container port is a host port.
		for _, cs := range [][]corev1.Container{spec.Containers, spec.InitContainers} {
			for i := range cs {
				for j := range cs[i].Ports {
					if cs[i].Ports[j].HostPort == 0 {
						cs[i].Ports[j].HostPort = cs[i].Ports[j].ContainerPort
					}
				}
			}
		}
	}
	info := PodInfo{PriorityClassName: spec.PriorityClassName}
	d := pod.Defaults{LimitRanges: r.limitRanges[o.src.Namespace]}
	if rc := spec.RuntimeClassName; rc != nil && *rc != "" {
		if c, ok := r.runtime[*rc]; ok {
			d.RuntimeClass = c
		} else {
			r.warn(o.src, WarnRuntimeClass, "its pods name RuntimeClass %s, which is not among the manifests; its pod overhead and scheduling rules (if any) are not counted, so add the RuntimeClass to the manifests", field.Quote(*rc))
		}
	}
	reqs, steps := pod.Requests(spec, d)
	info.Derivation = steps
	if d.RuntimeClass != nil && d.RuntimeClass.Scheduling != nil {
		info.Derivation = append(info.Derivation, r.runtimeClassScheduling(o, spec, d.RuntimeClass))
	}
	refused := pod.Refusals(spec, d)
	var written []string
	if o.typed != nil && o.src.Origin == OriginManifests {
		var errs field.Errors
		written, errs = specRefusals(o, spec)
		r.errs = append(r.errs, errs...)
		refused = slices.DeleteFunc(refused, func(m string) bool { return slices.Contains(written, m) })
	}
	if len(refused) > 0 {
		r.warn(o.src, WarnPodRefused, "the API server would refuse to create its pods (%s), so none would run; fix the "+
			"requests and limits (or the LimitRange); the plan counts the pods as if it admitted them", strings.Join(refused, "; "))
	}
	// A refused template is reported above, naming the container; the pod's totals would only repeat it.
	info.Requests, info.Extended = r.vector(o, reqs, len(written) > 0, ow.daemon)
	if info.Requests.CPUMillicores == 0 && info.Requests.MemoryBytes == 0 {
		r.warn(o.src, WarnNoRequests, "its pods request no CPU and no memory, so they pack as zero; set resources.requests on its containers (or a LimitRange default)")
	}
	info.Priority = r.priorityOf(spec)
	if spec.Priority == nil && spec.PriorityClassName != "" && info.Priority == nil {
		// The Priority admission plugin refuses a pod whose class does not exist (resolvePriorityClass: "no
		// PriorityClass with name ... was found"); the class is cluster-scoped and may well exist already, so a warning,
		// as for a missing RuntimeClass or claim.
		r.warn(o.src, WarnPriorityClassMissing, "its pods name PriorityClass %s, which is not among the manifests nor a system class; the API server refuses its pods unless the class exists in the cluster (Priority admission: no PriorityClass with name %s was found), and its priority is unknown: it is left unset, which sizing plans as priority 0; add the PriorityClass to the manifests",
			field.Quote(spec.PriorityClassName), spec.PriorityClassName)
	}
	info.VolumeClaims = r.volumeClaims(o, ow)
	pl := placement{selector: copyMap(spec.NodeSelector)}
	info.Constraints = r.constraints(o, ow, &pl)
	return info, pl
}

// runtimeClassScheduling merges the RuntimeClass's scheduling into the pod spec, as the RuntimeClass admission plugin
// does to every pod that names the class (kubernetes/kubernetes plugin/pkg/admission/runtimeclass/admission.go,
// setScheduling): its nodeSelector is added to the pod's, a key the pod sets to another value being refused
// ("conflict: runtimeClass.scheduling.nodeSelector"), and its tolerations are added to the pod's. The Kubernetes
// docs' Windows pattern keeps Windows pods on Windows nodes that way. It returns the derivation's line.
func (r *reader) runtimeClassScheduling(o object, spec *corev1.PodSpec, c *nodev1.RuntimeClass) string {
	sch := c.Scheduling
	var added []string
	for _, k := range slices.Sorted(maps.Keys(sch.NodeSelector)) {
		v := sch.NodeSelector[k]
		if cur, ok := spec.NodeSelector[k]; ok {
			if cur != v {
				r.errs = append(r.errs, field.Invalid(inputPath(o.src), k, "%s: its pods' nodeSelector %s=%s conflicts with RuntimeClass %s's scheduling.nodeSelector %s=%s, and the API server refuses such pods (RuntimeClass admission: conflict: runtimeClass.scheduling.nodeSelector); make the two agree",
					objName(o.src), k, cur, field.Quote(c.Name), k, v))
			}
			continue
		}
		if spec.NodeSelector == nil {
			spec.NodeSelector = map[string]string{}
		}
		spec.NodeSelector[k] = v
		added = append(added, fmt.Sprintf("nodeSelector %s=%s", k, v))
	}
	for _, t := range sch.Tolerations {
		if !slices.ContainsFunc(spec.Tolerations, func(x corev1.Toleration) bool { return x.MatchToleration(&t) }) {
			spec.Tolerations = append(spec.Tolerations, t)
			added = append(added, "toleration "+tolerationText(t))
		}
	}
	if len(added) == 0 {
		return fmt.Sprintf("RuntimeClass %s's scheduling adds nothing the pod does not already have", field.Quote(c.Name))
	}
	return fmt.Sprintf("RuntimeClass %s's scheduling, merged into every pod by the API server: %s", field.Quote(c.Name), strings.Join(added, ", "))
}

// tolerationText spells a toleration as kubectl describes one: key=value:effect, key:effect with Exists, or
// "every taint" for an empty key with Exists.
func tolerationText(t corev1.Toleration) string {
	effect := ""
	if t.Effect != "" {
		effect = ":" + string(t.Effect)
	}
	switch {
	case t.Key == "" && t.Operator == corev1.TolerationOpExists:
		return "of every taint" + effect
	case t.Operator == corev1.TolerationOpExists:
		return t.Key + effect
	}
	return t.Key + "=" + t.Value + effect
}

// vector converts a Kubernetes resource list to the planner's exact integers; other resources are
// carried by name. A quantity above resource.MaxQuantity is an error.
func (r *reader) vector(o object, l corev1.ResourceList, reported, daemon bool) (fit.Resources, map[string]string) {
	var v fit.Resources
	ext := map[string]string{}
	names := make([]string, 0, len(l))
	for k := range l {
		names = append(names, string(k))
	}
	sort.Strings(names)
	for _, n := range names {
		q := l[corev1.ResourceName(n)]
		var x int64
		if n == string(corev1.ResourceCPU) {
			x = q.MilliValue()
		} else {
			x = q.Value()
		}
		if x > resource.MaxQuantity || x < 0 {
			if !reported {
				unit := map[string]string{"cpu": "millicores", "memory": "bytes", "ephemeral-storage": "bytes"}[n]
				if unit == "" {
					unit = "units"
				}
				r.errs = append(r.errs, field.Invalid(inputPath(o.src), q.String(), "%s: its pods request %s %s in all (%s %s), outside 0 to %s %s; fix its containers' requests",
					objName(o.src), q.String(), n, groupDigits(x), unit, groupDigits(resource.MaxQuantity), unit))
			}
			continue
		}
		switch n {
		case "cpu":
			v.CPUMillicores = x
		case "memory":
			v.MemoryBytes = x
		case "ephemeral-storage":
			v.EphemeralStorageBytes = x
		case "nvidia.com/gpu":
			// Only NVIDIA's: every device plugin advertises its own resource (AMD's amd.com/gpu,
			// ROCm/k8s-device-plugin), which a node of another vendor's GPUs does not offer.
			v.GPU = x
		default:
			ext[n] = q.String()
			if daemon {
				r.warn(o.src, WarnExtendedResource, "its pods request %s %s, which sizing does not count: only nodes that advertise it can run them, and its pods take some of it there", q.String(), n)
			} else {
				r.warn(o.src, WarnExtendedResource, "its pods request %s %s: they bind only on nodes that advertise it, so sizing places them only on pools "+
					"whose nodes offer it (kubefit derives amd.com/gpu and the AWS Neuron resources for the instance types it knows to offer them; declare it on other pools)", q.String(), n)
			}
		}
	}
	if len(ext) == 0 {
		ext = nil
	}
	return v, ext
}

// extendedAmounts converts the extended requests read (PodInfo.Extended, valid quantities) to the exact integers
// sizing takes: a count, or bytes for huge pages.
func extendedAmounts(ext map[string]string) map[string]int64 {
	if len(ext) == 0 {
		return nil
	}
	out := make(map[string]int64, len(ext))
	for k, v := range ext {
		q := k8sresource.MustParse(v)
		out[k] = q.Value()
	}
	return out
}

// priorityOf resolves the pod's priority: its class's value, or the global default class's when it
// names none (the Priority admission plugin).
func (r *reader) priorityOf(spec *corev1.PodSpec) *int32 {
	if spec.Priority != nil {
		return spec.Priority
	}
	if spec.PriorityClassName != "" {
		if v, ok := r.priority[spec.PriorityClassName]; ok {
			return &v
		}
		return nil
	}
	if r.defaultPrio != nil {
		v := r.defaultPrio.Value
		return &v
	}
	return nil
}

// volumeClaims lists the claims one pod uses: StatefulSet claim templates, named claims and ephemeral
// volumes.
func (r *reader) volumeClaims(o object, ow *owned) []VolumeClaim {
	var out []VolumeClaim
	for _, t := range ow.claims {
		out = append(out, claimOf(t.Name, t.Spec, "volumeClaimTemplates", o.written))
	}
	for _, v := range ow.template.Spec.Volumes {
		switch {
		case v.PersistentVolumeClaim != nil:
			name := v.PersistentVolumeClaim.ClaimName
			c, ok := r.claims[o.src.Namespace+"/"+name]
			if !ok {
				r.warn(o.src, WarnClaimMissing, "its pods mount PersistentVolumeClaim %s, which is not among the manifests; its size and class are unknown", field.Quote(name))
				out = append(out, VolumeClaim{Name: name, From: "persistentVolumeClaim"})
				continue
			}
			vc := claimOf(name, c.Spec, "persistentVolumeClaim", r.claimWritten[o.src.Namespace+"/"+name])
			if !ow.daemon && ow.replicas > 1 && onlyRWO(c.Spec.AccessModes) {
				r.warn(o.src, WarnSharedRWOClaim, "its %d replicas share the ReadWriteOnce claim %s, so they can only run on the one node the volume is attached to, which the scheduler does not keep them to; sizing refuses it unless a required pod affinity to themselves on kubernetes.io/hostname keeps them together",
					ow.replicas, field.Quote(name))
			}
			out = append(out, vc)
		case v.Ephemeral != nil && v.Ephemeral.VolumeClaimTemplate != nil:
			out = append(out, claimOf(v.Name, v.Ephemeral.VolumeClaimTemplate.Spec, "ephemeral", o.written))
		}
	}
	return out
}

func onlyRWO(modes []corev1.PersistentVolumeAccessMode) bool {
	if len(modes) == 0 {
		return false
	}
	for _, m := range modes {
		if m != corev1.ReadWriteOnce && m != corev1.ReadWriteOncePod {
			return false
		}
	}
	return true
}

// claimOf reads one claim's spec; written maps a storage request's canonical form to its text as written.
func claimOf(name string, spec corev1.PersistentVolumeClaimSpec, from string, written map[string]string) VolumeClaim {
	vc := VolumeClaim{Name: name, From: from}
	if q, ok := spec.Resources.Requests[corev1.ResourceStorage]; ok {
		vc.Size, vc.SizeBytes = q.String(), q.Value()
		if w, ok := written[vc.Size]; ok {
			vc.Size = w
		}
	}
	if spec.StorageClassName != nil {
		vc.StorageClass = *spec.StorageClassName
	}
	for _, m := range spec.AccessModes {
		vc.AccessModes = append(vc.AccessModes, string(m))
	}
	return vc
}

// budgetFor finds the PodDisruptionBudget whose selector matches the pod labels.
func (r *reader) budgetFor(o object, podLabels map[string]string) *DisruptionBudget {
	var hits []*DisruptionBudget
	for _, b := range r.budgets[o.src.Namespace] {
		// policy/v1: a null selector selects no pod, an empty one every pod of the namespace.
		sel, err := metav1.LabelSelectorAsSelector(b.Spec.Selector)
		if err != nil || b.Spec.Selector == nil || !sel.Matches(labels.Set(podLabels)) {
			continue
		}
		r.budgetHit[o.src.Namespace+"/"+b.Name] = true
		db := &DisruptionBudget{Name: b.Name}
		if b.Spec.MinAvailable != nil {
			db.MinAvailable = b.Spec.MinAvailable.String()
		}
		if b.Spec.MaxUnavailable != nil {
			db.MaxUnavailable = b.Spec.MaxUnavailable.String()
		}
		hits = append(hits, db)
	}
	if len(hits) > 1 {
		names := make([]string, len(hits))
		for i, h := range hits {
			names[i] = h.Name
		}
		r.warn(o.src, WarnPDBOverlap, "PodDisruptionBudgets %s all select its pods; the eviction API refuses to evict a pod covered by more than one, so node drains stall", field.QuoteList(names))
	}
	if len(hits) == 0 {
		return nil
	}
	return hits[0]
}

func copyMap(m map[string]string) map[string]string {
	if len(m) == 0 {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func specJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%v", v)
	}
	return string(b)
}

// selects reports whether a label selector (in the pod's namespace) selects the pod's own labels.
func selects(sel *metav1.LabelSelector, podLabels map[string]string) bool {
	if sel == nil {
		return false
	}
	s, err := metav1.LabelSelectorAsSelector(sel)
	if err != nil || s.Empty() {
		return false
	}
	return s.Matches(labels.Set(podLabels))
}

func joinTypes(cs []Constraint) string {
	var t []string
	for _, c := range cs {
		if !c.Modelled {
			t = append(t, c.Type)
		}
	}
	return strings.Join(t, ", ")
}

// specRefusals returns what the API server refuses in the pod spec of a built-in kind from the manifests, as
// messages and as errors on the object. A built-in kind's pod template is validated as a pod's spec when the object
// is created (ValidatePodTemplateSpec in each kind's validation, ValidatePodSpec for a Pod): what that refuses, the
// API server refuses the object itself, so the whole apply fails. What only admission adds (a LimitRange) refuses
// the pods, which the object's controller then never gets to run (pod.Refusals, a warning).
func specRefusals(o object, spec *corev1.PodSpec) ([]string, field.Errors) {
	written := pod.SpecRefusals(spec)
	var errs field.Errors
	for _, msg := range written {
		errs = append(errs, field.Invalid(inputPath(o.src), "", "%s: %s; the API server refuses the %s itself (%s validates its pod %s's resources), so fix the requests and limits",
			objName(o.src), msg, o.src.Kind, map[bool]string{true: "ValidatePodSpec", false: "ValidatePodTemplateSpec"}[o.src.Kind == "Pod"],
			map[bool]string{true: "spec", false: "template"}[o.src.Kind == "Pod"]))
	}
	return written, errs
}

// templateSpec is the pod spec of a built-in pod-owning object (its template's; a Pod's own), nil for other
// objects and for a ReplicationController without a template.
func templateSpec(o object) *corev1.PodSpec {
	switch t := o.typed.(type) {
	case *appsv1.Deployment:
		return &t.Spec.Template.Spec
	case *appsv1.StatefulSet:
		return &t.Spec.Template.Spec
	case *appsv1.ReplicaSet:
		return &t.Spec.Template.Spec
	case *appsv1.DaemonSet:
		return &t.Spec.Template.Spec
	case *corev1.ReplicationController:
		if t.Spec.Template != nil {
			return &t.Spec.Template.Spec
		}
	case *corev1.Pod:
		return &t.Spec
	case *batchv1.Job:
		return &t.Spec.Template.Spec
	case *batchv1.CronJob:
		return &t.Spec.JobTemplate.Spec.Template.Spec
	}
	return nil
}
