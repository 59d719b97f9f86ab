package workloads

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
)

// nameRules are the API server's name rules of the kinds kubefit reads in full, by kind (the nameFn each kind's
// Validate<Kind> passes to ValidateObjectMeta, pkg/apis/*/validation at v1.37): a lowercase RFC 1123 subdomain
// (ValidateDeploymentName, ValidateDaemonSetName, ValidateReplicaSetName, ValidatePodName, ValidateJobCreate's and
// ValidateCronJobCreate's NameIsDNSSubdomain, ValidateHorizontalPodAutoscalerName, ValidateLimitRangeName,
// ValidatePersistentVolumeName, ValidatePriorityClass, ValidateRuntimeClass, ValidatePodDisruptionBudget), or a
// lowercase RFC 1123 label for a StatefulSet (ValidateStatefulSetName: NameIsDNSLabel, its pods' hostnames).
var nameRules = map[string]func(string, bool) []string{
	"Deployment": apivalidation.NameIsDNSSubdomain, "DaemonSet": apivalidation.NameIsDNSSubdomain,
	"ReplicaSet": apivalidation.NameIsDNSSubdomain, "ReplicationController": apivalidation.NameIsDNSSubdomain,
	"Pod": apivalidation.NameIsDNSSubdomain, "Job": apivalidation.NameIsDNSSubdomain, "CronJob": apivalidation.NameIsDNSSubdomain,
	"HorizontalPodAutoscaler": apivalidation.NameIsDNSSubdomain, "PodDisruptionBudget": apivalidation.NameIsDNSSubdomain,
	"PriorityClass": apivalidation.NameIsDNSSubdomain, "RuntimeClass": apivalidation.NameIsDNSSubdomain,
	"LimitRange": apivalidation.NameIsDNSSubdomain, "PersistentVolumeClaim": apivalidation.NameIsDNSSubdomain,
	"StatefulSet": apivalidation.NameIsDNSLabel,
}

// cronJobNameMax is the longest CronJob name: ValidateCronJobCreate refuses more than 52 characters, since the
// CronJob controller names each Job after it with an 11-character suffix and a Job name is at most 63.
const cronJobNameMax = 52

// metaErrors returns why the API server refuses an object of the manifests for its metadata (ValidateObjectMeta:
// the kind's name rule, the namespace a DNS-1123 label by ValidateNamespaceName; a custom resource's name a DNS-1123
// subdomain, apiextensions-apiserver's customResourceValidator), naming the object and what to write instead.
func metaErrors(o object) field.Errors {
	rule, ok := nameRules[o.src.Kind]
	switch {
	case o.typed == nil && o.u != nil:
		// Every custom resource: apiextensions-apiserver pkg/registry/customresource/validator.go, NameIsDNSSubdomain.
		rule, ok = apivalidation.NameIsDNSSubdomain, true
	case o.typed == nil:
		ok = false
	}
	var errs field.Errors
	if ok {
		name, prefix, key := o.meta.GetName(), false, "metadata.name"
		if name == "" {
			name, prefix, key = o.meta.GetGenerateName(), true, "metadata.generateName"
		}
		if name != "" {
			if msgs := rule(name, prefix); len(msgs) > 0 {
				label := o.src.Kind == "StatefulSet"
				errs = append(errs, field.Invalid(inputPath(o.src), name, "%s: %s %s is not a valid %s name (%s); the API server refuses the object (ValidateObjectMeta), so write %s",
					objName(o.src), key, field.Quote(name), o.src.Kind, strings.Join(msgs, "; "), field.Quote(dnsName(name, label, prefix))))
			}
		}
		if o.src.Kind == "CronJob" && len(o.meta.GetName()) > cronJobNameMax {
			errs = append(errs, field.Invalid(inputPath(o.src), o.meta.GetName(), "%s: metadata.name is %d characters; the API server refuses a CronJob name of more than %d (ValidateCronJobCreate: its Jobs are named after it with an 11-character suffix, at most 63), so shorten it to %s",
				objName(o.src), len(o.meta.GetName()), cronJobNameMax, field.Quote(strings.TrimRight(o.meta.GetName()[:cronJobNameMax], "-."))))
		}
	}
	if ns := o.meta.GetNamespace(); ns != "" && !clusterScoped[o.src.Kind] {
		if msgs := apivalidation.ValidateNamespaceName(ns, false); len(msgs) > 0 {
			errs = append(errs, field.Invalid(inputPath(o.src), ns, "%s: metadata.namespace %s is not a valid namespace name (%s); the API server refuses it (ValidateObjectMeta, ValidateNamespaceName), so write %s",
				objName(o.src), field.Quote(ns), strings.Join(msgs, "; "), field.Quote(dnsName(ns, true, false))))
		}
	}
	return errs
}

// namespaceError checks the namespace input, given to every namespaced object that names none: a lowercase RFC
// 1123 label, as ValidateNamespaceName requires of every namespace.
func namespaceError(ns string) error {
	if ns == "" {
		return nil
	}
	if msgs := apivalidation.ValidateNamespaceName(ns, false); len(msgs) > 0 {
		return field.Invalid(field.NewPath("Namespace"), ns, "namespace %s is not a valid namespace name (%s); the API server refuses objects in it (ValidateObjectMeta, ValidateNamespaceName), so write %s",
			field.Quote(ns), strings.Join(msgs, "; "), field.Quote(dnsName(ns, true, false)))
	}
	return nil
}

// dnsName suggests a valid name for s: lowercase, every other character a hyphen (dots kept in a subdomain), no
// hyphen or dot at either end (at the start only for a generateName prefix), at most 63 characters for a label and
// 253 for a subdomain.
func dnsName(s string, label, prefix bool) string {
	var b strings.Builder
	for _, c := range strings.ToLower(s) {
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9', c == '-':
			b.WriteRune(c)
		case c == '.' && !label:
			b.WriteRune(c)
		default:
			b.WriteByte('-')
		}
	}
	out, limit := b.String(), 253
	if label {
		limit = 63
	}
	if len(out) > limit {
		out = out[:limit]
	}
	out = strings.TrimLeft(out, "-.")
	if !prefix {
		out = strings.TrimRight(out, "-.")
	}
	if out == "" {
		return "app"
	}
	return out
}

// selectorErrors returns why the API server refuses an apps/v1 workload for its spec.selector: apps/v1 requires
// one (ValidateDeploymentSpec, ValidateReplicaSetSpec, ValidateStatefulSetSpec: "Required value"; a DaemonSet's nil
// selector selects nothing, so ValidateDaemonSetSpec finds it does not match), not empty ("empty selector is
// invalid"), and matching the pod template's labels (ValidatePodTemplateSpecForReplicaSet,
// ValidatePodTemplateSpecForStatefulSet, ValidateDaemonSetSpec: "`selector` does not match template `labels`").
func selectorErrors(o object) field.Errors {
	var sel *metav1.LabelSelector
	var tpl map[string]string
	switch t := o.typed.(type) {
	case *appsv1.Deployment:
		sel, tpl = t.Spec.Selector, t.Spec.Template.Labels
	case *appsv1.ReplicaSet:
		sel, tpl = t.Spec.Selector, t.Spec.Template.Labels
	case *appsv1.StatefulSet:
		sel, tpl = t.Spec.Selector, t.Spec.Template.Labels
	case *appsv1.DaemonSet:
		sel, tpl = t.Spec.Selector, t.Spec.Template.Labels
	default:
		return nil
	}
	refuse := func(value, format string, args ...any) field.Errors {
		return field.Errors{field.Invalid(inputPath(o.src), value, "%s: %s", objName(o.src), fmt.Sprintf(format, args...))}
	}
	write := "selector: {matchLabels: " + labelsYAML(tpl) + "}"
	if len(tpl) == 0 {
		write = "labels under spec.template.metadata.labels and the same under spec.selector.matchLabels"
	}
	if sel == nil {
		return refuse("", "spec.selector is missing; apps/v1 requires it (the API server refuses the %s: spec.selector: Required value), so write %s", o.src.Kind, write)
	}
	if len(sel.MatchLabels)+len(sel.MatchExpressions) == 0 {
		return refuse("{}", "spec.selector is empty; the API server refuses it (empty selector is invalid for a %s), so write %s", o.src.Kind, write)
	}
	s, err := metav1.LabelSelectorAsSelector(sel)
	if err != nil {
		return refuse(specJSON(sel), "spec.selector is not a valid label selector (%v); the API server refuses it, so fix it", err)
	}
	if !s.Matches(labels.Set(tpl)) {
		return refuse(s.String(), "spec.selector (%s) does not match the pod template's labels %s; the API server refuses the %s (`selector` does not match template `labels`), since it would not own its own pods: make spec.template.metadata.labels include what the selector asks",
			s.String(), labelsYAML(tpl), o.src.Kind)
	}
	return nil
}

// labelsYAML renders labels as a YAML flow mapping, in key order: {app: web}.
func labelsYAML(l map[string]string) string {
	keys := make([]string, 0, len(l))
	for k := range l {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + ": " + l[k]
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// strategyErrors returns why the API server refuses a Deployment for its spec.strategy, after apps/v1 defaulting
// (SetDefaults_Deployment: type RollingUpdate, maxSurge and maxUnavailable 25 %): ValidateDeploymentStrategy refuses
// a rollingUpdate with type Recreate and a type other than the two, ValidateRollingUpdateDeployment a maxUnavailable
// of 0 when maxSurge is 0 too (counts or percentages: 0 and 0% alike), since such an update could never progress.
func strategyErrors(o object) field.Errors {
	d, ok := o.typed.(*appsv1.Deployment)
	if !ok {
		return nil
	}
	st := d.Spec.Strategy
	refuse := func(value, format string, args ...any) field.Errors {
		return field.Errors{field.Invalid(inputPath(o.src), value, "%s: %s", objName(o.src), fmt.Sprintf(format, args...))}
	}
	switch st.Type {
	case appsv1.RecreateDeploymentStrategyType:
		if st.RollingUpdate != nil {
			return refuse("Recreate", "spec.strategy.rollingUpdate is set with type Recreate; the API server refuses it (ValidateDeploymentStrategy: may not be specified when strategy `type` is 'Recreate'), so remove rollingUpdate or write type: RollingUpdate")
		}
		return nil
	case "", appsv1.RollingUpdateDeploymentStrategyType:
	default:
		return refuse(string(st.Type), "spec.strategy.type is %s; the API server takes only RollingUpdate or Recreate (ValidateDeploymentStrategy), so write one of them", field.Quote(string(st.Type)))
	}
	ru := st.RollingUpdate
	if ru == nil {
		return nil
	}
	surge, unavailable := intstr.FromString("25%"), intstr.FromString("25%")
	if ru.MaxSurge != nil {
		surge = *ru.MaxSurge
	}
	if ru.MaxUnavailable != nil {
		unavailable = *ru.MaxUnavailable
	}
	if intOrPercentValue(surge) == 0 && intOrPercentValue(unavailable) == 0 {
		return refuse(unavailable.String(), "spec.strategy.rollingUpdate has maxSurge %s and maxUnavailable %s; the API server refuses it (ValidateRollingUpdateDeployment: maxUnavailable may not be 0 when `maxSurge` is 0), since no update could start, so raise one of them (maxSurge: 1 keeps every replica available)",
			surge.String(), unavailable.String())
	}
	return nil
}

// intOrPercentValue is apps validation's getIntOrPercentValue: a percentage's number, else the count.
func intOrPercentValue(v intstr.IntOrString) int {
	if v.Type == intstr.String && strings.HasSuffix(v.StrVal, "%") {
		if n, err := strconv.Atoi(strings.TrimSuffix(v.StrVal, "%")); err == nil {
			return n
		}
	}
	return v.IntValue()
}

// containersErrors returns the API server's refusal of a built-in pod-owning object whose pod template (a Pod's
// spec) has no containers: ValidatePodTemplateSpec and ValidatePodSpec require at least one (validateContainers:
// "spec.template.spec.containers: Required value").
func containersErrors(o object) field.Errors {
	var spec *corev1.PodSpec
	at := "spec.template.spec.containers"
	switch t := o.typed.(type) {
	case *appsv1.Deployment:
		spec = &t.Spec.Template.Spec
	case *appsv1.StatefulSet:
		spec = &t.Spec.Template.Spec
	case *appsv1.DaemonSet:
		spec = &t.Spec.Template.Spec
	case *appsv1.ReplicaSet:
		spec = &t.Spec.Template.Spec
	case *corev1.ReplicationController:
		if t.Spec.Template != nil {
			spec = &t.Spec.Template.Spec
		}
	case *batchv1.Job:
		spec = &t.Spec.Template.Spec
	case *batchv1.CronJob:
		spec, at = &t.Spec.JobTemplate.Spec.Template.Spec, "spec.jobTemplate.spec.template.spec.containers"
	case *corev1.Pod:
		spec, at = &t.Spec, "spec.containers"
	}
	if spec == nil || len(spec.Containers) > 0 {
		return nil
	}
	return field.Errors{field.Invalid(inputPath(o.src), "", "%s: %s is empty; the API server refuses a %s whose pods run no container (ValidatePodTemplateSpec: %s: Required value), so give its containers (init containers alone do not count)",
		objName(o.src), at, o.src.Kind, at)}
}
