package workloads

import (
	"fmt"
	"slices"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
)

// budgetRef is a PodDisruptionBudget of the manifests and the index of its Result.Skipped entry, whose reason
// checkBudgets settles once every workload is read.
type budgetRef struct {
	o    object
	b    *policyv1.PodDisruptionBudget
	skip int
}

// podSet is the pod labels of a workload or DaemonSet read, or of an object that runs pods kubefit does not read.
type podSet struct {
	src    Source
	labels map[string]string
	// why says how the pods stand when no workload is listed with the budget: "" for a workload read.
	why string
}

// checkBudgets settles the skip reason of every PodDisruptionBudget that no workload read is listed with. A
// PodDisruptionBudget covers only the pods of its own namespace that its selector matches (policy/v1; a null
// selector matches none). One that selects only a DaemonSet's pods, an operator's pods kubefit does not count (a
// Prometheus' spec.podMetadata.labels or its own labels, which operators such as prometheus-operator put on its
// pods) or the pods of an object the filters left out says so; one that selects nothing read in its namespace
// protects nothing planned here, most often a mistyped namespace or selector: a WarnPDBSelectsNothing warning,
// naming the workloads of other namespaces whose pods it would match.
func (r *reader) checkBudgets() {
	for _, ref := range r.budgetRefs {
		b, ns := ref.b, ref.o.src.Namespace
		if r.budgetHit[ns+"/"+b.Name] {
			continue
		}
		sel, err := metav1.LabelSelectorAsSelector(b.Spec.Selector)
		selText := metav1.FormatLabelSelector(b.Spec.Selector)
		switch {
		case b.Spec.Selector == nil:
			r.res.Skipped[ref.skip].Reason = "its selector is not set, and a PodDisruptionBudget without one selects no pod (policy/v1): it protects no pod"
			r.warn(ref.o.src, WarnPDBSelectsNothing, "it has no spec.selector, so it selects no pod (policy/v1) and protects nothing; give the labels of the pods it is meant for")
			continue
		case err != nil:
			r.res.Skipped[ref.skip].Reason = "its selector is not valid (" + err.Error() + "): it protects no pod planned here"
			r.warn(ref.o.src, WarnPDBSelectsNothing, "its spec.selector is not valid (%v), so it selects no pod and protects nothing; the API server refuses it", err)
			continue
		}
		var here []string
		var why string
		var elsewhere []string
		for _, p := range r.podSets {
			if !sel.Matches(labels.Set(p.labels)) {
				continue
			}
			if p.src.Namespace != ns {
				if p.why == "" {
					elsewhere = append(elsewhere, fmt.Sprintf("%s %s in namespace %s", p.src.Kind, field.Quote(p.src.Name), field.Quote(p.src.Namespace)))
				}
				continue
			}
			if name := p.src.Kind + " " + field.Quote(p.src.Name); !slices.Contains(here, name) {
				here = append(here, name)
			}
			if why == "" {
				why = p.why
			}
		}
		if len(here) > 0 {
			r.res.Skipped[ref.skip].Reason = fmt.Sprintf("selects only the pods of %s, not listed with a budget: %s", strings.Join(here, ", "), why)
			continue
		}
		r.res.Skipped[ref.skip].Reason = fmt.Sprintf("selects no pod of the workloads read: none in its namespace %s has labels matching its selector %s", field.Quote(ns), field.Quote(selText))
		also := ""
		if len(elsewhere) > 0 {
			also = ", though the pods of " + strings.Join(elsewhere, ", ") + " match it"
		}
		r.warn(ref.o.src, WarnPDBSelectsNothing, "its selector %s matches no pod of the workloads read in its namespace %s%s; a PodDisruptionBudget covers only its own namespace's pods, "+
			"so it protects nothing planned here: check its namespace and selector (if the pods it is meant for come from elsewhere, add them to the manifests)", field.Quote(selText), field.Quote(ns), also)
	}
}

// operatorPods files the pod labels an operator's custom resource (one with a WarnCustomPodsUncounted warning)
// gives its pods, as far as it writes them: spec.podMetadata.labels (prometheus-operator's kinds) and its own labels.
func (r *reader) operatorPods(o object) {
	why := "its operator runs them, and they are not counted (see its warning)"
	if l, ok, _ := unstructured.NestedStringMap(o.u.Object, "spec", "podMetadata", "labels"); ok && len(l) > 0 {
		r.podSets = append(r.podSets, podSet{src: o.src, labels: l, why: why})
	}
	if l := o.u.GetLabels(); len(l) > 0 {
		r.podSets = append(r.podSets, podSet{src: o.src, labels: l, why: why})
	}
}

// templateLabels returns the pod template's labels of a pod-owning object.
func templateLabels(o object) (map[string]string, bool) {
	switch t := o.typed.(type) {
	case *appsv1.Deployment:
		return t.Spec.Template.Labels, true
	case *appsv1.StatefulSet:
		return t.Spec.Template.Labels, true
	case *appsv1.DaemonSet:
		return t.Spec.Template.Labels, true
	case *appsv1.ReplicaSet:
		return t.Spec.Template.Labels, true
	case *corev1.ReplicationController:
		if t.Spec.Template != nil {
			return t.Spec.Template.Labels, true
		}
	case *batchv1.Job:
		return t.Spec.Template.Labels, true
	case *batchv1.CronJob:
		return t.Spec.JobTemplate.Spec.Template.Labels, true
	case *corev1.Pod:
		return t.Labels, true
	case nil:
		if o.u != nil && podTemplate(o) {
			l, _, _ := unstructured.NestedStringMap(o.u.Object, "spec", "template", "metadata", "labels")
			return l, true
		}
	}
	return nil, false
}
