package workloads

import (
	"fmt"
	"strings"

	autoscalingv1 "k8s.io/api/autoscaling/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/pod"
)

// filteredOut is an object Include or Exclude left out that would shape a workload: an autoscaler or a LimitRange.
type filteredOut struct {
	o      object
	reason string
}

// advice says how to read the object after all.
func (f filteredOut) advice() string {
	if strings.HasPrefix(f.reason, "excluded") {
		return "narrow that exclude filter so the plan reads it"
	}
	return "add " + f.o.src.Kind + " to an include filter's kinds (or a filter matching it) so the plan reads it"
}

// keepFiltered remembers a left-out autoscaler or LimitRange, to warn when it concerns a workload that is read.
func (r *reader) keepFiltered(o object, reason string) {
	switch o.typed.(type) {
	case *autoscalingv2.HorizontalPodAutoscaler, *autoscalingv1.HorizontalPodAutoscaler, *corev1.LimitRange:
		r.filteredOut = append(r.filteredOut, filteredOut{o, reason})
		return
	}
	if o.u != nil && groupOf(o.src.APIVersion) == "keda.sh" && o.src.Kind == "ScaledObject" {
		r.filteredOut = append(r.filteredOut, filteredOut{o, reason})
	}
}

// warnFiltered warns of each left-out autoscaler whose target is read and each left-out LimitRange of a namespace
// whose workloads are read, saying what it would have changed: filters apply to every document, so a filter on kinds
// (include = [{kinds = ["Deployment"]}]) drops the objects that give those Deployments their bounds and requests.
func (r *reader) warnFiltered() {
	for _, f := range r.filteredOut {
		switch t := f.o.typed.(type) {
		case *corev1.LimitRange:
			r.warnFilteredLimitRange(f, t)
			continue
		case *autoscalingv2.HorizontalPodAutoscaler:
			r.warnFilteredScaler(f, hpa(f.o, t.Spec.ScaleTargetRef.Kind, t.Spec.ScaleTargetRef.Name, t.Spec.MinReplicas, t.Spec.MaxReplicas))
		case *autoscalingv1.HorizontalPodAutoscaler:
			r.warnFilteredScaler(f, hpa(f.o, t.Spec.ScaleTargetRef.Kind, t.Spec.ScaleTargetRef.Name, t.Spec.MinReplicas, t.Spec.MaxReplicas))
		case nil:
			if s, err := scaledObject(f.o); err == nil {
				r.warnFilteredScaler(f, s)
			}
		}
	}
}

func (r *reader) warnFilteredScaler(f filteredOut, s scaler) {
	for _, w := range r.res.Workloads {
		if w.Source.Namespace != f.o.src.Namespace || w.Source.Kind != s.targetKind || w.Source.Name != s.target {
			continue
		}
		now := "its autoscaled bounds"
		if w.Replicas != nil {
			now = fmt.Sprintf("the fixed %d", *w.Replicas)
		}
		r.warn(f.o.src, WarnFilteredOut, "left out (%s), yet it scales %s %s, which is read: with it the workload would run %d to %d replicas, not %s; %s",
			f.reason, s.targetKind, field.Quote(s.target), s.min, s.max, now, f.advice())
		return
	}
}

func (r *reader) warnFilteredLimitRange(f filteredOut, lr *corev1.LimitRange) {
	var names []string
	for _, w := range r.res.Workloads {
		if w.Source.Namespace == f.o.src.Namespace && w.Source.Origin == OriginManifests {
			names = append(names, w.Source.Name)
		}
	}
	for _, d := range r.res.DaemonSets {
		if d.Source.Namespace == f.o.src.Namespace && d.Source.Origin == OriginManifests {
			names = append(names, d.Source.Name)
		}
	}
	if len(names) == 0 {
		return
	}
	var what []string
	for _, it := range pod.DefaultLimitRange(*lr).Spec.Limits {
		for _, l := range []struct {
			name string
			list corev1.ResourceList
		}{{"defaultRequest", it.DefaultRequest}, {"default limit", it.Default}, {"min", it.Min}, {"max", it.Max}} {
			if len(l.list) > 0 {
				what = append(what, fmt.Sprintf("%s %s %s", it.Type, l.name, pod.Format(l.list)))
			}
		}
	}
	r.warn(f.o.src, WarnFilteredOut, "left out (%s), yet it applies to the pods of %s, which are read: its %s would change their requests or refuse them; %s",
		f.reason, listOrNone(names), strings.Join(what, "; "), f.advice())
}
