package workloads

import (
	"fmt"
	"strconv"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/sizing"
)

// helmHook is the annotation that makes an object a Helm hook.
const helmHook = "helm.sh/hook"

// replicasDefaultNote explains a Deployment's replica count when it sets none (an autoscaler's bounds
// replace it).
const replicasDefaultNote = "replicas not set: 1 (the Deployment default)"

// owned is what one pod-owning object says about its pods.
type owned struct {
	template corev1.PodTemplateSpec
	replicas int
	// surge is the rolling-update surge; daemon marks a DaemonSet.
	surge  fit.IntOrPercent
	daemon bool
	// dsSurge is a DaemonSet's maxSurge as written.
	dsSurge string
	claims  []corev1.PersistentVolumeClaim
	// notes explain the replica count and the surge.
	notes []string
	// bounds are the pods' autoscaled minimum and maximum (a KEDA ScaledJob), nil for a fixed count; scaler
	// is what sets them.
	bounds *[2]int
	scaler *Autoscaler
	// skip says why the object is not read after all (its pods cannot be counted), "" when it is read.
	skip string
}

// readAll reads every pod-owning object that is neither a hook (unless asked) nor owned by another listed
// object.
func (r *reader) readAll() {
	read := map[string]bool{}
	var owned []object
	for _, o := range r.owners {
		if hook, ok := o.meta.GetAnnotations()[helmHook]; ok && !r.in.IncludeHelmHooks {
			r.skip(o, fmt.Sprintf("Helm hook (%s): it runs around an install, an upgrade or a helm test, not as steady load; set include_helm_hooks to read it", hook))
			continue
		}
		if key, _ := r.ownerOf(o); key != "" {
			owned = append(owned, o)
			continue
		}
		if reason := daemonPod(o); reason != "" {
			r.skip(o, reason)
			continue
		}
		if r.readOwner(o) {
			read[objectKey(o)] = true
		}
	}
	// An object whose controller is read (or is itself read through its controller, a Pod of a
	// ReplicaSet of a Deployment) is skipped; one whose controller is listed but not read (a hook, a
	// custom kind without a pod template) is read itself, so its load is never lost.
	for changed := true; changed; {
		changed = false
		rest := owned[:0]
		for _, o := range owned {
			if key, by := r.ownerOf(o); read[key] {
				r.skip(o, "owned by "+by+", which is read instead")
				read[objectKey(o)] = true
				changed = true
				continue
			}
			rest = append(rest, o)
		}
		owned = rest
	}
	for _, o := range owned {
		if reason := daemonPod(o); reason != "" {
			r.skip(o, reason)
			continue
		}
		r.readOwner(o)
	}
}

// daemonPod says why a pod a DaemonSet controls is not a workload of its own, "" for any other object: a
// DaemonSet runs one pod per matching node, which is planned from the DaemonSet (when it is among the manifests)
// and never as a floating one-replica workload.
func daemonPod(o object) string {
	ref := controllerOf(o)
	if _, pod := o.typed.(*corev1.Pod); !pod || ref == nil || ref.Kind != "DaemonSet" {
		return ""
	}
	return "a pod of DaemonSet " + field.Quote(ref.Name) + ": a DaemonSet runs one pod per matching node, planned from the DaemonSet, not as a workload of its own (add the DaemonSet to the manifests to plan it)"
}

// objectKey is the key of an object among r.keys.
func objectKey(o object) string {
	return groupOf(o.src.APIVersion) + "/" + o.src.Kind + "/" + o.src.Namespace + "/" + o.src.Name
}

// readOwner reads one pod owner into a workload or DaemonSet; false when it has an error.
func (r *reader) readOwner(o object) bool {
	ow, err := r.podOwner(o)
	if err != nil {
		r.errs = append(r.errs, field.As(err)...)
		return false
	}
	if ow.skip != "" {
		r.skip(o, ow.skip)
		return false
	}
	if ow.replicas < 0 {
		r.errs = append(r.errs, field.Invalid(inputPath(o.src), fmt.Sprint(ow.replicas), "%s asks for %d replicas; the API server refuses a negative count, give 0 or more", objName(o.src), ow.replicas))
		return false
	}
	r.add(o, ow)
	return true
}

// add turns one pod owner into a workload or a DaemonSet.
func (r *reader) add(o object, ow owned) {
	info, pl := r.podInfo(o, &ow)
	if ow.daemon {
		r.podSets = append(r.podSets, podSet{src: o.src, labels: ow.template.Labels, why: "a DaemonSet's pods, which are planned without a disruption budget (a node drain leaves them in place)"})
		r.res.DaemonSets = append(r.res.DaemonSets, DaemonSet{
			DaemonSet: fit.DaemonSet{Name: o.src.Name, Requests: info.Requests, NodeSelector: pl.selector, NodeAffinity: pl.affinity, HostPorts: pl.ports,
				Tolerations: tolerations(ow.template.Spec.Tolerations), TakesPodSlot: true},
			Source: o.src, Pod: info, MaxSurge: ow.dsSurge})
		return
	}
	n := ow.replicas
	w := Workload{Source: o.src, Pod: info, Workload: sizing.Workload{Name: o.src.Name, Replicas: &n, Requests: info.Requests,
		NodeSelector: pl.selector, NodeAffinity: pl.affinity, PreferredNodeAffinity: pl.preferred, HostPorts: pl.ports, Tolerations: tolerations(ow.template.Spec.Tolerations), MaxSurge: ow.surge, Spread: pl.spread,
		Namespace: o.src.Namespace, Labels: ow.template.Labels, PodAffinity: pl.pod, TopologySpread: pl.topology, OS: podOS(ow.template),
		Extended: extendedAmounts(info.Extended)}}
	if b := ow.bounds; b != nil {
		lo, hi := b[0], b[1]
		w.Replicas, w.MinReplicas, w.MaxReplicas = nil, &lo, &hi
		w.Autoscaler = ow.scaler
	}
	w.Pod.Derivation = append(ow.notes, w.Pod.Derivation...)
	w.DisruptionBudget = r.budgetFor(o, ow.template.Labels)
	r.podSets = append(r.podSets, podSet{src: o.src, labels: ow.template.Labels})
	w.Workload.DisruptionBudget = w.DisruptionBudget.Budget()
	r.res.Workloads = append(r.res.Workloads, w)
	r.workloadObjs = append(r.workloadObjs, o)
}

// podOS is the operating system a pod template says its containers need: its spec.os.name, else its
// kubernetes.io/os label; the kubelet refuses a pod whose either names another OS than its own (kubernetes/kubernetes
// pkg/kubelet/lifecycle/predicate.go@v1.37.2, rejectPodAdmissionBasedOnOSField and
// rejectPodAdmissionBasedOnOSSelector). "" when neither says linux or windows. A DaemonSet's is not read: the
// DaemonSet controller does not look at it either, and its pod is counted wherever its rules let it (the safe side).
func podOS(t corev1.PodTemplateSpec) string {
	if t.Spec.OS != nil && (t.Spec.OS.Name == corev1.Linux || t.Spec.OS.Name == corev1.Windows) {
		return string(t.Spec.OS.Name)
	}
	if os := t.Labels[corev1.LabelOSStable]; os == "linux" || os == "windows" {
		return os
	}
	return ""
}

// ownerOf returns the key and the name of the listed object that controls o ("" when none does): a
// ReplicaSet of a Deployment, a Job of a CronJob, a Pod of any of them.
func (r *reader) ownerOf(o object) (key, name string) {
	ref := controllerOf(o)
	if ref == nil {
		return "", ""
	}
	key = groupOf(ref.APIVersion) + "/" + ref.Kind + "/" + o.src.Namespace + "/" + ref.Name
	if _, ok := r.keys[key]; ok {
		return key, ref.Kind + " " + field.Quote(ref.Name)
	}
	// A pod of a ReplicaSet that is not listed (kubectl get deploy,pods lists no ReplicaSets) belongs to the
	// Deployment whose name is the ReplicaSet's less the pod-template-hash, as a running pod does (podOwner).
	if p, ok := o.typed.(*corev1.Pod); ok && ref.Kind == "ReplicaSet" {
		if kind, name, apiVersion := podOwner(p); kind == "Deployment" {
			key = groupOf(apiVersion) + "/Deployment/" + o.src.Namespace + "/" + name
			if _, ok := r.keys[key]; ok {
				return key, "Deployment " + field.Quote(name) + " (through its ReplicaSet " + field.Quote(ref.Name) + ", not listed)"
			}
		}
	}
	return "", ""
}

// podOwner reads the pod template, replica count and surge of one pod-owning object, with the API
// server's defaults (pkg/apis/apps/v1 and batch/v1 SetDefaults_*).
func (r *reader) podOwner(o object) (owned, error) {
	one := func(p *int32) int {
		if p == nil {
			return 1
		}
		return int(*p)
	}
	switch t := o.typed.(type) {
	case *appsv1.Deployment:
		ow := owned{template: t.Spec.Template, replicas: one(t.Spec.Replicas)}
		if t.Spec.Replicas == nil {
			ow.notes = append(ow.notes, replicasDefaultNote)
		}
		if t.Spec.Strategy.Type == appsv1.RecreateDeploymentStrategyType {
			ow.notes = append(ow.notes, "strategy Recreate: no surge pods during an update")
			return ow, nil
		}
		surge := intstr.FromString("25%")
		if ru := t.Spec.Strategy.RollingUpdate; ru != nil && ru.MaxSurge != nil {
			surge = *ru.MaxSurge
		} else {
			ow.notes = append(ow.notes, "maxSurge not set: 25% (the Deployment default)")
		}
		s, err := surgeOf(surge, o.src)
		ow.surge = s
		return ow, err
	case *appsv1.StatefulSet:
		ow := owned{template: t.Spec.Template, replicas: one(t.Spec.Replicas), claims: t.Spec.VolumeClaimTemplates}
		ow.notes = append(ow.notes, statefulSetNote(t))
		return ow, nil
	case *appsv1.ReplicaSet:
		return owned{template: t.Spec.Template, replicas: one(t.Spec.Replicas)}, nil
	case *corev1.ReplicationController:
		if t.Spec.Template == nil {
			return owned{}, field.Invalid(inputPath(o.src), o.src.Name, "%s has no pod template; give spec.template", objName(o.src))
		}
		return owned{template: *t.Spec.Template, replicas: one(t.Spec.Replicas)}, nil
	case *corev1.Pod:
		return owned{template: corev1.PodTemplateSpec{ObjectMeta: t.ObjectMeta, Spec: t.Spec}, replicas: 1}, nil
	case *appsv1.DaemonSet:
		ow := owned{template: t.Spec.Template, daemon: true}
		if ru := t.Spec.UpdateStrategy.RollingUpdate; ru != nil && ru.MaxSurge != nil && ru.MaxSurge.String() != "0" && ru.MaxSurge.String() != "0%" {
			ow.dsSurge = ru.MaxSurge.String()
			r.warn(o.src, WarnDaemonsetSurge, "maxSurge %s: during an update a node runs the old and the new pod at once, twice its request; sizing counts one", ow.dsSurge)
		}
		return ow, nil
	case *batchv1.Job:
		return jobOwner(t.Spec, "Job"), nil
	case *batchv1.CronJob:
		ow := jobOwner(t.Spec.JobTemplate.Spec, "CronJob")
		if t.Spec.Suspend != nil && *t.Spec.Suspend {
			// batch/v1 CronJobSpec.suspend: no new runs until it is cleared; a run may still be going, and it may
			// be resumed, so one run is counted, the safe side.
			ow.notes = append(ow.notes, "CronJob suspend: true: no new runs start until it is resumed; one run is counted, the safe side")
		}
		if t.Spec.ConcurrencyPolicy == "" || t.Spec.ConcurrencyPolicy == batchv1.AllowConcurrent {
			ow.notes = append(ow.notes, "concurrencyPolicy Allow: runs that overlap add their pods; sizing counts one run")
		}
		return ow, nil
	case nil:
		if groupOf(o.src.APIVersion) == "keda.sh" && o.src.Kind == "ScaledJob" {
			return scaledJob(o)
		}
		return r.customOwner(o)
	}
	return owned{}, field.Invalid(inputPath(o.src), o.src.Name, "%s: kind %s is not read as a workload", objName(o.src), o.src.Kind)
}

// statefulSetNote says how a StatefulSet's pods are replaced: never surged (a pod is deleted before its
// replacement is created), one at a time, or up to rollingUpdate.maxUnavailable at a time where the
// MaxUnavailableStatefulSet feature is on (beta, on by default since Kubernetes 1.37; ignored before), or only when
// deleted with updateStrategy OnDelete.
func statefulSetNote(t *appsv1.StatefulSet) string {
	st := t.Spec.UpdateStrategy
	if st.Type == appsv1.OnDeleteStatefulSetStrategyType {
		return "StatefulSet updateStrategy OnDelete: a pod is replaced only when deleted, never surged"
	}
	if ru := st.RollingUpdate; ru != nil && ru.MaxUnavailable != nil && ru.MaxUnavailable.String() != "1" {
		return "StatefulSet: never surged (each pod is deleted before its replacement starts); up to maxUnavailable " + ru.MaxUnavailable.String() +
			" pods are replaced at a time where the MaxUnavailableStatefulSet feature is on (on by default since Kubernetes 1.37), else one at a time"
	}
	return "StatefulSet: pods are replaced one at a time, never surged"
}

// jobOwner reads a Job's concurrent pods: parallelism (default 1), at most completions.
func jobOwner(spec batchv1.JobSpec, kind string) owned {
	n := 1
	if spec.Parallelism != nil {
		n = int(*spec.Parallelism)
	}
	ow := owned{template: spec.Template}
	note := fmt.Sprintf("%s: %d pod(s) at once (parallelism", kind, n)
	if spec.Completions != nil && int(*spec.Completions) < n {
		n = int(*spec.Completions)
		note = fmt.Sprintf("%s: %d pod(s) at once (completions below parallelism", kind, n)
	}
	ow.replicas = n
	ow.notes = append(ow.notes, note+")")
	if spec.Suspend != nil && *spec.Suspend {
		// batch/v1 JobSpec.suspend: the Job controller creates no pods until suspend is cleared, which a queue
		// such as Kueue does when it admits the Job; counting its pods is the safe side.
		ow.notes = append(ow.notes, "suspend: true: the Job controller creates no pods until it is resumed (a queue such as Kueue resumes it on admission); counted as if it runs, the safe side")
	}
	return ow
}

// isRollout reports whether o is an Argo Rollout.
func isRollout(o object) bool {
	return groupOf(o.src.APIVersion) == "argoproj.io" && o.src.Kind == "Rollout"
}

// isAdvancedDaemonSet reports whether o is an OpenKruise Advanced DaemonSet (apps.kruise.io DaemonSet).
func isAdvancedDaemonSet(o object) bool {
	return groupOf(o.src.APIVersion) == "apps.kruise.io" && o.src.Kind == "DaemonSet"
}

// advancedDaemonSet reads an OpenKruise Advanced DaemonSet as a DaemonSet: like apps/v1's, it runs one pod from
// spec.template on every node its template's rules allow, and spec.updateStrategy.rollingUpdate.maxSurge (default
// 0) lets a node run the old and the new pod at once (openkruise/kruise apis/apps/v1alpha1/daemonset_types.go
// @ fa875787, DaemonSetSpec and RollingUpdateDaemonSet).
func (r *reader) advancedDaemonSet(o object, tpl corev1.PodTemplateSpec) (owned, error) {
	ow := owned{template: tpl, daemon: true}
	if !hasField(o.u.Object, "spec", "updateStrategy", "rollingUpdate", "maxSurge") {
		return ow, nil
	}
	s, _, err := customSurge(o)
	if err != nil || s.Value == 0 {
		return ow, err
	}
	ow.dsSurge = strconv.Itoa(s.Value)
	if s.Percent {
		ow.dsSurge += "%"
	}
	r.warn(o.src, WarnDaemonsetSurge, "maxSurge %s: during an update a node runs the old and the new pod at once, twice its request; sizing counts one", ow.dsSurge)
	return ow, nil
}

// customOwner reads a custom kind with a pod template at spec.template (Argo Rollouts, OpenKruise), or an Argo
// Rollout whose spec.workloadRef names the Deployment that holds its pod template.
func (r *reader) customOwner(o object) (owned, error) {
	var tpl corev1.PodTemplateSpec
	var notes []string
	if isRollout(o) && hasField(o.u.Object, "spec", "workloadRef") {
		t, note, skip := r.workloadRef(o)
		if skip != "" {
			return owned{skip: skip}, nil
		}
		tpl, notes = t, []string{note}
	} else {
		tm, _, _ := unstructured.NestedMap(o.u.Object, "spec", "template")
		if err := runtime.DefaultUnstructuredConverter.FromUnstructured(tm, &tpl); err != nil {
			return owned{}, field.Invalid(inputPath(o.src), o.src.Name, "%s: spec.template is not a pod template: %v; fix the template", objName(o.src), err)
		}
	}
	if isAdvancedDaemonSet(o) {
		return r.advancedDaemonSet(o, tpl)
	}
	ow := owned{template: tpl, replicas: 1, notes: notes}
	assumed := false // the surge is assumedSurge, not read
	if n, ok, _ := unstructured.NestedInt64(o.u.Object, "spec", "replicas"); ok {
		ow.replicas = int(n)
	}
	switch {
	case isRollout(o) && hasField(o.u.Object, "spec", "strategy", "blueGreen"):
		ow.surge = fit.IntOrPercent{Value: 100, Percent: true}
		ow.notes = append(ow.notes, "Argo Rollout blueGreen: the preview ReplicaSet runs beside the active one, a 100% surge")
	case isRollout(o) && hasField(o.u.Object, "spec", "strategy", "canary", "trafficRouting") && !dynamicStableScale(o):
		// With traffic routing the canary ReplicaSet is scaled to its weight and the stable one left at 100 %
		// (Argo Rollouts utils/replicaset/canary.go CalculateReplicaCountsForTrafficRoutedCanary: "Stable should be
		// left fully scaled (100%)" unless dynamicStableScale), so at full weight, at the latest on promotion, both
		// run at full size; maxSurge does not apply.
		ow.surge = fit.IntOrPercent{Value: 100, Percent: true}
		ow.notes = append(ow.notes, "Argo Rollout canary with trafficRouting and without dynamicStableScale: the stable ReplicaSet stays at full size while the canary scales to its weight, a 100% surge at promotion")
	default:
		s, note, err := customSurge(o)
		if err != nil {
			return owned{}, err
		}
		ow.surge, assumed = s, strings.Contains(note, "assumed")
		ow.notes = append(ow.notes, note)
	}
	from := "spec.template"
	if len(notes) > 0 {
		from = "spec.workloadRef's pod template"
	}
	if !isRollout(o) { // Argo Rollouts are modelled: their strategies, surge and workloadRef (customOwner)
		surge := ""
		if assumed {
			surge = fmt.Sprintf("; it writes no update surge kubefit reads (spec.strategy.rollingUpdate.maxSurge, spec.updateStrategy.maxSurge, spec.updateStrategy.rollingUpdate.maxSurge), so a surge of %s is assumed, not read", assumedSurge)
		}
		r.warn(o.src, WarnCustomKind, "%s %s kind, read as a workload from its %s and spec.replicas%s; check that its controller creates pods that way", article(o.src.APIVersion), o.src.APIVersion, from, surge)
	}
	return ow, nil
}

// assumedSurge is the update surge planned for a custom kind that writes none kubefit reads. How its operator
// rolls pods out is unknown: 25 % is the Deployment default, which an operator need not follow, while a blue-green
// update (Argo Rollouts' blueGreen, Flagger's primary beside its canary) runs a full second set of pods, and an
// update that replaces each pod once runs at most that many. 100 % is the safe side: it never plans fewer pods
// than such an operator runs, at the cost of a larger peak than one that surges less.
const assumedSurge = "100%"

// customSurge reads a custom kind's update surge where the kind writes it, as a Kubernetes int-or-string (a count, or
// a percentage of replicas rounded up): an Argo Rollout's spec.strategy.canary.maxSurge (Argo Rollouts' default
// 25 %), a Deployment-shaped spec.strategy.rollingUpdate.maxSurge, an OpenKruise CloneSet's
// spec.updateStrategy.maxSurge (apps.kruise.io/v1alpha1) or spec.updateStrategy.rollingUpdate.maxSurge
// (v1beta1), which default to 0 (openkruise/kruise apis/apps/v1alpha1/cloneset_types.go, CloneSetUpdateStrategy:
// "Defaults to 0"). Any other kind that writes none gets assumedSurge, and the note says it is assumed.
func customSurge(o object) (fit.IntOrPercent, string, error) {
	paths := [][]string{{"spec", "strategy", "rollingUpdate", "maxSurge"}, {"spec", "updateStrategy", "maxSurge"},
		{"spec", "updateStrategy", "rollingUpdate", "maxSurge"}}
	if isRollout(o) {
		paths = [][]string{{"spec", "strategy", "canary", "maxSurge"}}
	}
	for _, p := range paths {
		v, ok, _ := unstructured.NestedFieldNoCopy(o.u.Object, p...)
		if !ok || v == nil {
			continue
		}
		var is intstr.IntOrString
		switch v := v.(type) {
		case int64:
			if v != int64(int32(v)) { // an int-or-string holds an int32
				return fit.IntOrPercent{}, "", field.Invalid(inputPath(o.src), fmt.Sprint(v), "%s: %s %d is out of range; write a smaller count or a percentage", objName(o.src), strings.Join(p, "."), v)
			}
			is = intstr.FromInt32(int32(v))
		case string:
			is = intstr.FromString(v)
		default:
			return fit.IntOrPercent{}, "", field.Invalid(inputPath(o.src), fmt.Sprint(v), "%s: %s %v is neither a count nor a percentage; write 2 or 25%%", objName(o.src), strings.Join(p, "."), v)
		}
		s, err := surgeOf(is, o.src)
		return s, "maxSurge " + is.String() + " (" + strings.Join(p, ".") + ")", err
	}
	switch {
	case isRollout(o):
		return fit.IntOrPercent{Value: 25, Percent: true}, "maxSurge not set: 25% (the Argo Rollouts canary default)", nil
	case groupOf(o.src.APIVersion) == "apps.kruise.io" && o.src.Kind == "CloneSet":
		return fit.IntOrPercent{}, "maxSurge not set: 0 (the OpenKruise CloneSet default): pods are replaced in place or deleted before their replacements start", nil
	case groupOf(o.src.APIVersion) == "apps.kruise.io" && o.src.Kind == "StatefulSet":
		// An Advanced StatefulSet has no surge: its rolling update recreates or updates in place up to maxUnavailable
		// pods at a time (openkruise/kruise apis/apps/v1beta1/statefulset_types.go @ 07169cfa,
		// RollingUpdateStatefulSetStrategy: partition, maxUnavailable, podUpdatePolicy ReCreate or InPlace*).
		return fit.IntOrPercent{}, "no surge: an OpenKruise Advanced StatefulSet recreates or updates its pods in place, at most maxUnavailable at a time", nil
	}
	return fit.IntOrPercent{Value: 100, Percent: true}, "maxSurge " + assumedSurge + " assumed, not read: the kind writes no update surge kubefit reads, so how its controller rolls pods out is unknown (a blue-green update runs a second full set)", nil
}

// dynamicStableScale reports whether an Argo Rollout's canary scales its stable ReplicaSet down as the canary's
// weight grows (spec.strategy.canary.dynamicStableScale).
func dynamicStableScale(o object) bool {
	b, _, _ := unstructured.NestedBool(o.u.Object, "spec", "strategy", "canary", "dynamicStableScale")
	return b
}

// workloadRef resolves an Argo Rollout's spec.workloadRef: the Rollout runs spec.replicas pods of the referenced
// Deployment's pod template with its own strategy (Argo Rollouts docs, "Migrating to Rollouts: Reference
// Deployment From Rollout"; rollout/templateref.go copies the workload's template into the Rollout). The
// Deployment is read as its own workload too, with its own replicas: usually 0, but workloadRef.scaleDown never,
// onsuccess or progressively leaves it running beside the Rollout until (or while) the Rollout becomes healthy,
// so counting both is the safe side. A referenced Deployment that is not among the manifests leaves the
// Rollout's pods uncounted: skip says so, with a warning.
func (r *reader) workloadRef(o object) (tpl corev1.PodTemplateSpec, note, skip string) {
	ref, _, _ := unstructured.NestedStringMap(o.u.Object, "spec", "workloadRef")
	kind, name := ref["kind"], ref["name"]
	if kind == "" {
		kind = "Deployment"
	}
	group := groupOf(ref["apiVersion"])
	if ref["apiVersion"] == "" {
		group = "apps"
	}
	if t, ok := r.keys[group+"/"+kind+"/"+o.src.Namespace+"/"+name]; ok {
		if d, ok := t.typed.(*appsv1.Deployment); ok {
			scaleDown := ref["scaleDown"]
			if scaleDown == "" {
				scaleDown = "not set"
			}
			return d.Spec.Template, fmt.Sprintf("Argo Rollout workloadRef: the pod template of Deployment %s, at the Rollout's replicas and strategy; the Deployment's own replicas "+
				"are planned as its own workload (workloadRef.scaleDown %s)", field.Quote(name), scaleDown), ""
		}
	}
	r.warn(o.src, WarnWorkloadRefMissing, "its spec.workloadRef names %s %s, which is not among the manifests (missing, filtered out or not a Deployment), so its pods "+
		"cannot be counted; add that Deployment to the manifests", kind, field.Quote(name))
	return tpl, "", fmt.Sprintf("its pod template comes from %s %s (spec.workloadRef), which is not among the manifests: its pods are not counted", kind, field.Quote(name))
}

// article is "an" before a word read with a vowel sound at its start ("an argoproj.io/v1alpha1 kind"), else "a".
func article(word string) string {
	if word != "" && strings.ContainsRune("aeiouAEIOU", rune(word[0])) {
		return "an"
	}
	return "a"
}

// surgeOf converts a maxSurge to the planner's count or percentage.
func surgeOf(v intstr.IntOrString, src Source) (fit.IntOrPercent, error) {
	if v.Type == intstr.Int {
		if v.IntVal < 0 {
			return fit.IntOrPercent{}, field.Invalid(inputPath(src), v.String(), "%s: maxSurge %s is negative; give 0 or more", objName(src), v.String())
		}
		return fit.IntOrPercent{Value: int(v.IntVal)}, nil
	}
	var pct int
	if _, err := fmt.Sscanf(v.StrVal, "%d%%", &pct); err != nil || pct < 0 || fmt.Sprintf("%d%%", pct) != v.StrVal {
		return fit.IntOrPercent{}, field.Invalid(inputPath(src), v.StrVal, "%s: maxSurge %s is neither a count nor a percentage; write 2 or 25%%", objName(src), field.Quote(v.StrVal))
	}
	return fit.IntOrPercent{Value: pct, Percent: true}, nil
}

func tolerations(ts []corev1.Toleration) []fit.Toleration {
	var out []fit.Toleration
	for _, t := range ts {
		out = append(out, fit.Toleration{Key: t.Key, Operator: fit.TolerationOperator(t.Operator), Value: t.Value, Effect: fit.TaintEffect(t.Effect)})
	}
	return out
}

// hasField reports whether the object has a value at the path.
func hasField(m map[string]any, keys ...string) bool {
	_, ok, _ := unstructured.NestedFieldNoCopy(m, keys...)
	return ok
}
