package workloads

import (
	"strings"

	apivalidation "k8s.io/apimachinery/pkg/api/validation"

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
