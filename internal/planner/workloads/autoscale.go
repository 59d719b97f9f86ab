package workloads

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	batchv1 "k8s.io/api/batch/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	hpaplan "github.com/kubefit/terraform-provider-kubefit/internal/planner/hpa"
)

// scaler is a HorizontalPodAutoscaler or a KEDA ScaledObject: its target and its effective bounds.
type scaler struct {
	o                  object
	targetKind, target string
	min, max           int
	// defaults says which bound was defaulted, for the workload's derivation.
	defaults string
	// dropped says why the autoscaler is not used (another one stands for it), "" when it is.
	dropped string
	// paused marks a ScaledObject a pause annotation pins (min and max are then the paused count); frozen, one
	// paused at its current count (autoscaling.keda.sh/paused), planned at the larger of its maximum and the
	// target's replicas field.
	paused, frozen bool
	// refused holds the rules by which the API server or KEDA refuses the autoscaler, each detail starting with
	// its rule ID (package hpa's or keda's); inert, why KEDA admits it but never scales the target with it, ""
	// when it does: the target then keeps its replicas field.
	refused []string
	inert   string
	// targetAPIVersion is scaleTargetRef.apiVersion: the controllers resolve the target by its API group and kind.
	targetAPIVersion string
}

// targetGroup is the API group of the scaler's target: its scaleTargetRef's, apps for a ScaledObject that sets
// no apiVersion (KEDA's default apps/v1).
func (s *scaler) targetGroup() string {
	if s.o.src.Kind == "ScaledObject" && s.targetAPIVersion == "" {
		return "apps"
	}
	return groupOf(s.targetAPIVersion)
}

// key names the scaler's target as the workloads are looked up: namespace, API group, kind and name.
func (s *scaler) key() string {
	return s.o.src.Namespace + "/" + s.targetGroup() + "/" + s.targetKind + "/" + s.target
}

// KEDA's pause annotations (apis/keda/v1alpha1/scaledobject_types.go PausedReplicasAnnotation, PausedAnnotation).
const (
	kedaPausedReplicas = "autoscaling.keda.sh/paused-replicas"
	kedaPaused         = "autoscaling.keda.sh/paused"
)

// hpa reads an HPA (autoscaling/v2 or v1): its target and bounds, minReplicas defaulting to 1
// (SetDefaults_HorizontalPodAutoscaler).
func hpa(o object, kind, name string, min *int32, max int32) scaler {
	s := scaler{o: o, targetKind: kind, target: name, min: 1, max: int(max)}
	if min != nil {
		s.min = int(*min)
	} else {
		s.defaults = "minReplicas not set: 1 (the HPA default)"
	}
	return s
}

// scaledObject reads a KEDA ScaledObject: scaleTargetRef.kind defaults to Deployment, minReplicaCount
// to 0 and maxReplicaCount to 100 (KEDA's defaults).
func scaledObject(o object) (scaler, error) {
	s := scaler{o: o, targetKind: "Deployment", min: 0, max: 100}
	m := o.u.Object
	name, ok, _ := unstructured.NestedFieldNoCopy(m, "spec", "scaleTargetRef", "name")
	if n, isStr := name.(string); !ok || !isStr || n == "" {
		return s, field.Invalid(inputPath(o.src), "", "%s has no spec.scaleTargetRef.name; name the Deployment or StatefulSet it scales", objName(o.src))
	}
	s.target = name.(string)
	if k, ok, _ := unstructured.NestedFieldNoCopy(m, "spec", "scaleTargetRef", "kind"); ok {
		if ks, isStr := k.(string); isStr && ks != "" {
			s.targetKind = ks
		}
	}
	if v, ok, _ := unstructured.NestedFieldNoCopy(m, "spec", "scaleTargetRef", "apiVersion"); ok {
		if vs, isStr := v.(string); isStr {
			s.targetAPIVersion = vs
		}
	}
	defaults, err := kedaBounds(o, &s.min, &s.max)
	if err != nil {
		return s, err
	}
	// KEDA's pause annotations (apis/keda/v1alpha1/scaledobject_types.go NeedToBePausedByAnnotation): paused-replicas
	// wins over paused; the ScaledObject controller scales the target to exactly that count and stops autoscaling,
	// whatever minReplicaCount and maxReplicaCount say. paused (any value but a false boolean) freezes the count
	// the target has, which the manifests do not tell: it is planned steady at the maximum, the safe side.
	ann := o.meta.GetAnnotations()
	if v, ok := ann[kedaPausedReplicas]; ok {
		n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 32)
		if err != nil || n < 0 {
			return s, field.Invalid(inputPath(o.src), v, "%s: annotation %s is %s, not a replica count; KEDA cannot pause at it, so give a whole number, 0 or more",
				objName(o.src), kedaPausedReplicas, field.Quote(v))
		}
		s.min, s.max, s.paused = int(n), int(n), true
		defaults = []string{fmt.Sprintf("paused at exactly %d replicas (%s): KEDA holds the target there, whatever minReplicaCount and maxReplicaCount say", n, kedaPausedReplicas)}
	} else if v, ok := ann[kedaPaused]; ok {
		if pause, err := strconv.ParseBool(strings.TrimSpace(v)); err != nil || pause {
			s.min, s.paused, s.frozen = s.max, true, true
			defaults = append(defaults, fmt.Sprintf("paused (%s: %s): KEDA freezes the replica count the target has, which the manifests do not tell, so it is planned steady at the maximum %d (the safe side)",
				kedaPaused, field.Quote(v), s.max))
		}
	}
	var inert []string
	s.refused, inert = kedaRules(o)
	if len(inert) > 0 {
		s.inert = "KEDA admits it but cannot build its scalers, so it creates no HPA (" + strings.Join(inert, "; ") + ")"
	}
	if len(defaults) > 0 {
		s.defaults = defaults[0]
		for _, d := range defaults[1:] {
			s.defaults += "; " + d
		}
	}
	return s, nil
}

// kedaBounds reads a ScaledObject's or ScaledJob's spec.minReplicaCount and spec.maxReplicaCount into min and
// max, which hold KEDA's defaults (0 and 100), and says which were defaulted.
func kedaBounds(o object, min, max *int) ([]string, error) {
	var defaults []string
	for _, b := range []struct {
		key  string
		dst  *int
		name string
	}{{"minReplicaCount", min, "minReplicaCount not set: 0 (the KEDA default)"}, {"maxReplicaCount", max, "maxReplicaCount not set: 100 (the KEDA default)"}} {
		v, ok, _ := unstructured.NestedFieldNoCopy(o.u.Object, "spec", b.key)
		if !ok {
			defaults = append(defaults, b.name)
			continue
		}
		n, isNum := v.(int64)
		if f, isFloat := v.(float64); isFloat && f == float64(int64(f)) {
			n, isNum = int64(f), true
		}
		if !isNum || n < 0 || n > 1<<31-1 {
			return nil, field.Invalid(inputPath(o.src), fmt.Sprint(v), "%s: spec.%s is %v; give a whole number of replicas, 0 or more", objName(o.src), b.key, v)
		}
		*b.dst = int(n)
	}
	return defaults, nil
}

// scaledJob reads a KEDA ScaledJob: Jobs of spec.jobTargetRef (a batch/v1 JobSpec), each running parallelism
// pods at once (default 1, at most completions), from minReplicaCount (default 0) to maxReplicaCount (default
// 100) Jobs at a time. KEDA's apis/keda/v1alpha1/scaledjob_types.go gives the defaults (MinReplicaCount,
// MaxReplicaCount; a minimum above the maximum is lowered to it), and pkg/scaling/executor/scale_jobs.go keeps
// the minimum's Jobs running and creates at most maxReplicaCount less the running ones (getScalingDecision,
// GetEffectiveMaxScale), so at most maxReplicaCount Jobs run at once: min × pods to max × pods pods.
func scaledJob(o object) (owned, error) {
	jm, ok, _ := unstructured.NestedMap(o.u.Object, "spec", "jobTargetRef")
	if !ok {
		return owned{}, field.Invalid(inputPath(o.src), o.src.Name, "%s has no spec.jobTargetRef; give the Job spec whose Jobs it creates", objName(o.src))
	}
	var spec batchv1.JobSpec
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(jm, &spec); err != nil {
		return owned{}, field.Invalid(inputPath(o.src), o.src.Name, "%s: spec.jobTargetRef is not a Job spec: %v; fix it", objName(o.src), err)
	}
	lo, hi := 0, 100
	defaults, err := kedaBounds(o, &lo, &hi)
	if err != nil {
		return owned{}, err
	}
	if lo > hi {
		defaults = append(defaults, fmt.Sprintf("minReplicaCount %d above maxReplicaCount %d: KEDA lowers it to %d", lo, hi, hi))
		lo = hi
	}
	ow := jobOwner(spec, "each Job")
	per := ow.replicas
	ow.bounds = &[2]int{lo * per, hi * per}
	ow.scaler = &Autoscaler{Kind: o.src.Kind, Namespace: o.src.Namespace, Name: o.src.Name, MinReplicas: lo, MaxReplicas: hi}
	note := fmt.Sprintf("KEDA ScaledJob: %d to %d Jobs at once, %d pod(s) each: %d to %d pods", lo, hi, per, lo*per, hi*per)
	if len(defaults) > 0 {
		note += " (" + strings.Join(defaults, "; ") + ")"
	}
	ow.notes = append([]string{note}, ow.notes...)
	if v, ok := o.meta.GetAnnotations()[kedaPaused]; ok {
		ow.notes = append(ow.notes, fmt.Sprintf("%s: %q: KEDA creates no new Jobs while paused; planned at its bounds, the safe side", kedaPaused, v))
	}
	return ow, nil
}

// autoscale gives each targeted workload the bounds of its autoscaler, and checks the autoscalers.
func (r *reader) autoscale() error {
	by := map[string]*scaler{}
	rivals := map[string][]*scaler{} // two or more HPAs on one target, by target key
	var errs field.Errors
	for i := range r.scalers {
		s := &r.scalers[i]
		what := s.o.src.Kind
		if es := scalerErrors(s); len(es) > 0 {
			errs = append(errs, es...)
			continue
		}
		if s.min == 0 && what == "HorizontalPodAutoscaler" {
			// As package hpa (HPA-E3): the gate is beta and on by default from Kubernetes 1.37, alpha and off before.
			r.warn(s.o.src, WarnHPAScaleToZero, "minReplicas 0 (scaling to zero) needs the HPAScaleToZero feature gate, on by default from Kubernetes %s (beta; alpha and off by default before): on an older cluster that has not enabled it the API server refuses this HPA",
				hpaplan.DefaultKubernetesVersion)
		}
		if owner := controllerOf(s.o); owner != nil && owner.Kind == "ScaledObject" {
			// KEDA's own HPA (keda-hpa-<name>) in a snapshot: the ScaledObject stands for it.
			s.dropped = "created by ScaledObject " + field.Quote(owner.Name) + ", which is read instead"
			continue
		}
		key := s.key()
		if prev, dup := by[key]; dup && prev.o.src.Origin != s.o.src.Origin {
			// One autoscaler in the manifests and one running: the manifests' is the change being planned.
			keep, drop := s, prev
			if prev.o.src.Origin == OriginManifests {
				keep, drop = prev, s
			}
			drop.dropped = "replaced by the manifests' " + keep.o.src.Kind + " " + field.Quote(keep.o.src.Name)
			by[key] = keep
			continue
		}
		if prev, dup := by[key]; dup && prev.o.src.Kind == "HorizontalPodAutoscaler" && what == "HorizontalPodAutoscaler" {
			// The API server admits both; the HPA controller then scales with neither (rivals).
			if len(rivals[key]) == 0 {
				rivals[key] = []*scaler{prev}
			}
			rivals[key] = append(rivals[key], s)
			continue
		}
		if prev, dup := by[key]; dup {
			// KEDA's validating webhook (apis/keda/v1alpha1/scaledobject_webhook.go, verifyHpas and
			// verifyScaledObjects) refuses a ScaledObject whose target an HPA it does not own, or another
			// ScaledObject, already scales; Helm installs HPAs before custom kinds, so the ScaledObject is the one refused.
			other := "hpa"
			if prev.o.src.Kind == "ScaledObject" && what == "ScaledObject" {
				other = "ScaledObject"
			}
			errs = append(errs, field.Invalid(inputPath(s.o.src), s.o.src.Name, "%s and %s both scale %s %s; KEDA's admission webhook refuses a ScaledObject whose target another autoscaler already scales (\"the workload ... is already managed by the %s ...\"), so keep one of them",
				objName(prev.o.src), objName(s.o.src), s.targetKind, field.Quote(s.target), other))
			continue
		}
		by[key] = s
	}
	if len(errs) > 0 {
		return errs.Err()
	}
	used := map[string]bool{}
	for i := range r.res.Workloads {
		w := &r.res.Workloads[i]
		key := w.Source.Namespace + "/" + groupOf(w.Source.APIVersion) + "/" + w.Source.Kind + "/" + w.Source.Name
		s, ok := by[key]
		if !ok {
			continue
		}
		used[key] = true
		if hpas := rivals[key]; len(hpas) > 0 {
			r.ambiguous(w, hpas)
			continue
		}
		if s.inert != "" {
			// Nothing scales the target: it runs its replicas field (already on w, with its derivation).
			r.warn(s.o.src, WarnAutoscalerInert, "it never scales %s %s: %s; the target runs its replicas field, as planned here, until it is fixed",
				s.targetKind, field.Quote(s.target), s.inert)
			w.Pod.Derivation = append([]string{fmt.Sprintf("%s %s never scales it: %s", s.o.src.Kind, field.Quote(s.o.src.Name), s.inert)}, w.Pod.Derivation...)
			continue
		}
		lo, hi := s.min, s.max
		if s.frozen && w.Replicas != nil && *w.Replicas > hi {
			// Paused, KEDA scales nothing: the target runs its own replicas field after an apply, above the maximum here.
			lo, hi = *w.Replicas, *w.Replicas
		}
		spike := 0
		if !s.frozen && w.Replicas != nil && *w.Replicas > hi && w.Source.Origin == OriginManifests && !slices.Contains(w.Pod.Derivation, replicasDefaultNote) {
			// Every apply of the manifest sets spec.replicas: the pods are created and scheduled, and a node
			// autoscaler may add nodes for them, until the HPA controller's next sync (15 s) cuts the count back
			// ("Current number of replicas above Spec.MaxReplicas", horizontal.go; kubernetes.io's HPA page,
			// "Migrating Deployments and StatefulSets to horizontal autoscaling": remove spec.replicas).
			spike, hi = *w.Replicas, *w.Replicas
			r.warn(w.Source, WarnReplicasAboveMax, "its replicas field (%d) is above the maximum of %s %s (%d): every apply of it runs %d pods until the HPA controller cuts them back at its next sync, and a node autoscaler may add nodes for them meanwhile, so kubefit plans the peak at %d; remove replicas from the manifest, as the autoscaler owns it",
				spike, s.o.src.Kind, field.Quote(s.o.src.Name), s.max, spike, spike)
		}
		zero := w.Replicas != nil && *w.Replicas == 0
		w.Replicas, w.MinReplicas, w.MaxReplicas = nil, &lo, &hi
		w.Autoscaler = &Autoscaler{Kind: s.o.src.Kind, Namespace: s.o.src.Namespace, Name: s.o.src.Name, MinReplicas: lo, MaxReplicas: hi}
		note := fmt.Sprintf("%s %s scales it from %d to %d replicas (its replicas field is ignored)", s.o.src.Kind, field.Quote(s.o.src.Name), lo, hi)
		if s.frozen && lo > s.max {
			note = fmt.Sprintf("%s %s is paused, so nothing scales it: it runs its replicas field's %d, above the maximum %d", s.o.src.Kind, field.Quote(s.o.src.Name), lo, s.max)
		}
		if spike > 0 {
			note = fmt.Sprintf("%s %s scales it from %d to %d replicas, but each apply first sets its replicas field's %d, above that maximum, until the HPA controller's next sync: planned up to %d",
				s.o.src.Kind, field.Quote(s.o.src.Name), lo, s.max, spike, spike)
		}
		if zero && lo > 0 && s.o.src.Kind == "HorizontalPodAutoscaler" {
			// The HPA controller leaves a target scaled to 0 alone (horizontal.go: ScalingDisabled) until it is
			// scaled up; the plan holds for when it is.
			note = fmt.Sprintf("%s %s scales it from %d to %d replicas once it runs: at its replicas field's 0 the HPA "+
				"controller leaves it at 0 (scaling disabled) until it is scaled up, and the plan is for then", s.o.src.Kind,
				field.Quote(s.o.src.Name), lo, hi)
		}
		if s.defaults != "" {
			note += "; " + s.defaults
		}
		steps := []string{note}
		for _, d := range w.Pod.Derivation {
			if d != replicasDefaultNote {
				steps = append(steps, d)
			}
		}
		w.Pod.Derivation = steps
	}
	for i := range r.scalers {
		s := &r.scalers[i]
		if s.dropped != "" {
			r.skip(s.o, s.dropped)
			continue
		}
		key := s.key()
		if used[key] && s.inert != "" {
			r.skip(s.o, fmt.Sprintf("never scales %s %s: %s", s.targetKind, field.Quote(s.target), s.inert))
			continue
		}
		if used[key] {
			r.skip(s.o, fmt.Sprintf("scales %s %s from %d to %d replicas", s.targetKind, field.Quote(s.target), s.min, s.max))
			continue
		}
		if w := r.otherGroup(s); w != nil {
			// The HPA controller resolves the target as GroupKind{group of scaleTargetRef.apiVersion, kind} through
			// the REST mapper (pkg/controller/podautoscaler/horizontal.go, reconcileAutoscaler); with no such
			// resource it records FailedGetScale "unable to determine resource for scale target reference" and
			// never scales. KEDA resolves its target the same way (apis/keda/v1alpha1/gvkr.go).
			group := s.targetGroup()
			r.skip(s.o, fmt.Sprintf("never scales %s %s: its scaleTargetRef names API group %s, not %s's", s.targetKind, field.Quote(s.target), field.Quote(group), w.Source.APIVersion))
			r.warn(s.o.src, WarnAutoscalerTargetMissing, "its scaleTargetRef (apiVersion %s) names %s %s in API group %s, but the %s read is in group %s: the controller resolves the target by group and kind, finds none (FailedGetScale) and never scales it, so it runs its replicas field, as planned here; write apiVersion %s",
				field.Quote(s.targetAPIVersion), s.targetKind, field.Quote(s.target), field.Quote(group), s.targetKind, field.Quote(groupOf(w.Source.APIVersion)), w.Source.APIVersion)
			continue
		}
		r.skip(s.o, fmt.Sprintf("its target %s %s is not among the workloads read", s.targetKind, field.Quote(s.target)))
		r.warn(s.o.src, WarnAutoscalerTargetMissing, "it scales %s %s, which is not among the workloads read from the manifests (missing, filtered out or a hook); add the target or drop the autoscaler", s.targetKind, field.Quote(s.target))
	}
	return nil
}

// ambiguous plans workload w that two or more HPAs target. The API server admits them all, but the HPA controller
// scales with none by its metrics: each finds the target's pods "controlled by multiple HPAs" and sets
// ScalingActive=False, reason AmbiguousSelector (kubernetes pkg/controller/podautoscaler/horizontal.go,
// validateAndParseSelector). Each still holds the target within its bounds first, though: reconcileAutoscaler raises
// a count below its minReplicas and lowers one above its maxReplicas before it computes from metrics, and only that
// computation fails (a replicas field of 0 disables autoscaling). So w runs its replicas field raised to the largest
// minimum; deleting all but one re-enables that one, which may then scale w to its maximum: the steady count is that,
// and the peak the largest of it and every HPA's maximum, the safe side (a maximum below another's minimum makes them
// flap between the two, within that range).
func (r *reader) ambiguous(w *Workload, hpas []*scaler) {
	field0 := 1
	if w.Replicas != nil {
		field0 = *w.Replicas
	}
	steady := field0
	names := make([]string, len(hpas))
	for i, s := range hpas {
		names[i] = field.Quote(s.o.src.Name)
		if field0 > 0 {
			steady = max(steady, s.min)
		}
	}
	peak := steady
	for _, s := range hpas {
		peak = max(peak, s.max)
	}
	list, all := strings.Join(names[:len(names)-1], ", ")+" and "+names[len(names)-1], "all"
	if len(hpas) == 2 {
		all = "both"
	}
	for _, s := range hpas {
		s.dropped = fmt.Sprintf("disabled: HorizontalPodAutoscalers %s %s scale %s %s, so the HPA controller scales with none of them by metrics (AmbiguousSelector)",
			list, all, s.targetKind, field.Quote(s.target))
	}
	runs := fmt.Sprintf("its replicas field (%d)", field0)
	if steady > field0 {
		runs = fmt.Sprintf("its replicas field (%d) raised to the largest minReplicas (%d): each HPA still holds it within its bounds", field0, steady)
	}
	r.warn(w.Source, WarnAutoscalerAmbiguous, "HorizontalPodAutoscalers %s %s scale it: the API server accepts them, but the HPA controller then scales with none by metrics (condition ScalingActive False, reason AmbiguousSelector: its pods are controlled by multiple HPAs), so it runs %s; "+
		"deleting all but one re-enables that one, which may scale it up to its maximum, so kubefit plans it steady at %d and at most %d, the largest of that and the HPAs' maxima; keep one HPA",
		list, all, runs, steady, peak)
	w.Replicas, w.MinReplicas, w.MaxReplicas, w.Autoscaler = nil, &steady, &peak, nil
	steps := []string{fmt.Sprintf("HorizontalPodAutoscalers %s %s scale it, so the HPA controller scales with none by metrics (AmbiguousSelector): steady at %s, "+
		"planned up to %d, the largest of it and their maxima, for when one is deleted and another scales it", list, all, runs, peak)}
	w.Pod.Derivation = append(steps, w.Pod.Derivation...)
}

// otherGroup returns the workload of the scaler's namespace, kind and name in another API group than the one
// its scaleTargetRef names, or nil.
func (r *reader) otherGroup(s *scaler) *Workload {
	for i := range r.res.Workloads {
		w := &r.res.Workloads[i]
		if w.Source.Namespace == s.o.src.Namespace && w.Source.Kind == s.targetKind && w.Source.Name == s.target && groupOf(w.Source.APIVersion) != s.targetGroup() {
			return w
		}
	}
	return nil
}

// controllerOf returns the controller reference of an object, or nil.
func controllerOf(o object) *metav1.OwnerReference {
	var refs []metav1.OwnerReference
	if m, ok := o.typed.(metav1.Object); ok {
		refs = m.GetOwnerReferences()
	} else if o.u != nil {
		refs = o.u.GetOwnerReferences()
	}
	for i := range refs {
		if refs[i].Controller != nil && *refs[i].Controller {
			return &refs[i]
		}
	}
	return nil
}

// scalerErrors returns why the API server (or KEDA's webhook) refuses autoscaler s of the manifests: its bounds, then
// the rules refusedErrors names. One running in the cluster snapshot was admitted (by an older release, or before a
// rule ratcheted), so only its bounds are checked.
func scalerErrors(s *scaler) field.Errors {
	if s.max < 1 && !s.paused {
		what := "the maximum replica count is " + fmt.Sprint(s.max)
		if s.max == 0 && s.o.src.Kind == "HorizontalPodAutoscaler" {
			what = "spec.maxReplicas is not set or 0"
		}
		return fieldErrors(s, fmt.Sprint(s.max), "%s: %s; the API server requires at least 1, raise it", objName(s.o.src), what)
	}
	if s.min > s.max {
		return fieldErrors(s, fmt.Sprint(s.min), "%s: the minimum replica count %d is above the maximum %d; the API server refuses this %s, lower the minimum or raise the maximum",
			objName(s.o.src), s.min, s.max, s.o.src.Kind)
	}
	if len(s.refused) > 0 && s.o.src.Origin == OriginManifests {
		return refusedErrors(s)
	}
	return nil
}

// fieldErrors is one error on autoscaler s.
func fieldErrors(s *scaler, value, format string, args ...any) field.Errors {
	return field.Errors{field.Invalid(inputPath(s.o.src), value, format, args...)}
}
