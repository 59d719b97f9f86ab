package pod

import (
	"fmt"
	"sort"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/validation"
	helpers "k8s.io/component-helpers/resource"
)

// Refusals returns why the API server would refuse to create a pod with spec, after defaulting and admission (as
// Requests runs them, Kubernetes 1.37's order): the checks of its resources that the LimitRanger admission plugin's
// validation (plugin/pkg/admission/limitranger PodValidateLimitFunc: each LimitRange's Container and Pod min, max
// and maxLimitRequestRatio) and the pod's create validation (pkg/apis/core/validation: a request above its limit, a
// non-overcommittable resource whose request is not its limit, an extended resource that is not a whole number,
// pod-level requests below the containers' or limits below a container's) make. Empty when it admits the pod. A workload whose pods are refused never runs them: its
// controller retries and the pods never exist.
func Refusals(spec *corev1.PodSpec, d Defaults) []string {
	p, _ := admitted(spec, d, false)
	out := SpecRefusals(&p.Spec)
	cs := namedContainers(&p.Spec)
	for _, lr := range d.LimitRanges {
		lr = DefaultLimitRange(lr)
		for _, it := range lr.Spec.Limits {
			switch it.Type {
			case corev1.LimitTypeContainer:
				for _, c := range cs {
					out = append(out, limitRangeItem(lr.Name, c.what, it, c.c.Resources.Requests, c.c.Resources.Limits)...)
				}
			case corev1.LimitTypePod:
				opts := helpers.PodResourcesOptions{ExcludeOverhead: true}
				out = append(out, limitRangeItem(lr.Name, "the pod", it, helpers.PodRequests(p, opts), helpers.PodLimits(p, opts))...)
			}
		}
	}
	return out
}

// SpecRefusals returns why the API server's validation refuses a pod spec as written, before any admission plugin:
// the resource rules of ValidatePodSpec (pkg/apis/core/validation: ValidateResourceRequirements, a request at most
// its limit and equal to it for a resource that may not be overcommitted; ValidateResourceQuantityValue, an
// extended resource a whole number; pod-level requests not below the containers' and limits not below a
// container's). ValidatePodTemplateSpec runs the same checks on a workload's pod template, so the API server refuses
// a Deployment, a Job or any built-in kind whose template breaks one of them: the object itself, not only its pods.
// Refusals adds what the pods' admission adds (LimitRange defaults, min, max and ratio). Empty when it takes the spec.
func SpecRefusals(spec *corev1.PodSpec) []string {
	var out []string
	add := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	for _, c := range namedContainers(spec) {
		out = append(out, negatives(c.what, c.c.Resources)...)
		out = append(out, requestsWithinLimits(c.what, c.c.Resources)...)
		out = append(out, wholeNumbers(c.what, c.c.Resources)...)
	}
	if r := spec.Resources; r != nil {
		out = append(out, requestsWithinLimits("the pod-level resources", *r)...)
		aggr := helpers.AggregateContainerRequests(&corev1.Pod{Spec: *spec}, helpers.PodResourcesOptions{})
		for _, k := range sortedNames(aggr) {
			q := aggr[k]
			if req, ok := r.Requests[k]; ok && q.Cmp(req) > 0 {
				add("the pod-level %s request %s is below its containers' %s", k, req.String(), q.String())
			}
		}
		for i := range spec.Containers {
			c := &spec.Containers[i]
			for _, k := range sortedNames(c.Resources.Limits) {
				q := c.Resources.Limits[k]
				if lim, ok := r.Limits[k]; ok && q.Cmp(lim) > 0 {
					add("container %q's %s limit %s is above the pod-level limit %s", c.Name, k, q.String(), lim.String())
				}
			}
		}
	}
	return out
}

// namedContainer is a container with the words that name it in a message.
type namedContainer struct {
	what string
	c    *corev1.Container
}

// namedContainers lists the init containers, then the app containers.
func namedContainers(spec *corev1.PodSpec) []namedContainer {
	var cs []namedContainer
	for i := range spec.InitContainers {
		cs = append(cs, namedContainer{fmt.Sprintf("init container %q", spec.InitContainers[i].Name), &spec.InitContainers[i]})
	}
	for i := range spec.Containers {
		cs = append(cs, namedContainer{fmt.Sprintf("container %q", spec.Containers[i].Name), &spec.Containers[i]})
	}
	return cs
}

// requestsWithinLimits is the create validation's rule for one set of requirements: a request at most its limit,
// equal to it for a resource that may not be overcommitted, which needs a limit.
func requestsWithinLimits(what string, r corev1.ResourceRequirements) []string {
	var out []string
	for _, k := range sortedNames(r.Requests) {
		req := r.Requests[k]
		lim, ok := r.Limits[k]
		switch {
		case ok && !overcommittable(k) && req.Cmp(lim) != 0:
			out = append(out, fmt.Sprintf("%s requests %s %s, which must equal its limit %s", what, k, req.String(), lim.String()))
		case ok && req.Cmp(lim) > 0:
			out = append(out, fmt.Sprintf("%s requests %s %s above its limit %s", what, k, req.String(), lim.String()))
		case !ok && !overcommittable(k):
			out = append(out, fmt.Sprintf("%s requests %s %s without a limit, which a resource that cannot be overcommitted needs", what, k, req.String()))
		}
	}
	return out
}

// negatives is the create validation's rule that no request or limit is below 0 (pkg/apis/core/validation
// ValidateResourceQuantityValue, ValidateNonnegativeQuantity: "must be greater than or equal to 0").
func negatives(what string, r corev1.ResourceRequirements) []string {
	return eachQuantity(what, r, func(k corev1.ResourceName, q resource.Quantity) string {
		if q.Sign() < 0 {
			return "which must be 0 or more"
		}
		return ""
	})
}

// eachQuantity applies a rule to every request and limit of r, in order, and says "<what> requests <name> <q>,
// <why>" for each the rule refuses (a non-empty why).
func eachQuantity(what string, r corev1.ResourceRequirements, rule func(corev1.ResourceName, resource.Quantity) string) []string {
	var out []string
	for _, l := range []struct {
		name string
		list corev1.ResourceList
	}{{"requests", r.Requests}, {"limit of", r.Limits}} {
		for _, k := range sortedNames(l.list) {
			q := l.list[k]
			if why := rule(k, q); why != "" {
				out = append(out, fmt.Sprintf("%s %s %s %s, %s", what, l.name, k, q.String(), why))
			}
		}
	}
	return out
}

// wholeNumbers is the create validation's rule for an extended resource (nvidia.com/gpu, any resource outside
// kubernetes.io): its request and limit must be whole numbers (pkg/apis/core/validation
// ValidateResourceQuantityValue: IsIntegerResourceName, "must be an integer"), since devices are not shared.
func wholeNumbers(what string, r corev1.ResourceRequirements) []string {
	return eachQuantity(what, r, func(k corev1.ResourceName, q resource.Quantity) string {
		if extended(k) && q.MilliValue()%1000 != 0 {
			return "which must be a whole number for an extended resource"
		}
		return ""
	})
}

// extended reports whether n is an extended resource (corev1helper.IsExtendedResourceName): not native, not a
// quota's requests.* name, and a qualified name once prefixed with "requests.".
func extended(n corev1.ResourceName) bool {
	s := string(n)
	if native(n) || strings.HasPrefix(s, corev1.DefaultResourceRequestsPrefix) {
		return false
	}
	return len(validation.IsQualifiedName(corev1.DefaultResourceRequestsPrefix+s)) == 0
}

// limitRangeItem is LimitRanger's validation of one LimitRange item against requests and limits (a container's, or
// the pod's totals): its min, max and maxLimitRequestRatio, compared in milli-units where they fit.
func limitRangeItem(lr, what string, it corev1.LimitRangeItem, reqs, lims corev1.ResourceList) []string {
	var out []string
	add := func(format string, args ...any) {
		out = append(out, fmt.Sprintf("LimitRange %q: ", lr)+fmt.Sprintf(format, args...))
	}
	for _, k := range sortedNames(it.Min) {
		lo := it.Min[k]
		req, hasReq := reqs[k]
		lim, hasLim := lims[k]
		switch {
		case !hasReq:
			add("%s must request at least %s %s, and requests none", what, lo.String(), k)
		case cmpValues(req, lo) < 0:
			add("%s must request at least %s %s, and requests %s", what, lo.String(), k, req.String())
		case hasLim && cmpValues(lim, lo) < 0:
			add("%s's %s limit must be at least %s, and is %s", what, k, lo.String(), lim.String())
		}
	}
	for _, k := range sortedNames(it.Max) {
		hi := it.Max[k]
		req, hasReq := reqs[k]
		lim, hasLim := lims[k]
		switch {
		case !hasLim:
			add("%s must set a %s limit of at most %s, and sets none", what, k, hi.String())
		case cmpValues(lim, hi) > 0:
			add("%s's %s limit must be at most %s, and is %s", what, k, hi.String(), lim.String())
		case hasReq && cmpValues(req, hi) > 0:
			add("%s must request at most %s %s, and requests %s", what, hi.String(), k, req.String())
		}
	}
	for _, k := range sortedNames(it.MaxLimitRequestRatio) {
		ratio := it.MaxLimitRequestRatio[k]
		req, hasReq := reqs[k]
		lim, hasLim := lims[k]
		r, l := scaled(req, lim, ratio)
		switch {
		case !hasReq || r == 0:
			add("%s's %s limit may be at most %s times its request, and it requests none", what, k, ratio.String())
		case !hasLim || l == 0:
			add("%s's %s limit may be at most %s times its request, and it sets no limit", what, k, ratio.String())
		default:
			observed := float64(l) / float64(r)
			bound := float64(ratio.Value())
			if ratio.Value() <= resource.MaxMilliValue {
				observed, bound = observed*1000, float64(ratio.MilliValue())
			}
			if observed > bound {
				add("%s's %s limit may be at most %s times its request, and is %s against %s", what, k, ratio.String(), lim.String(), req.String())
			}
		}
	}
	return out
}

// cmpValues compares two quantities as LimitRanger does (requestLimitEnforcedValues): in milli-units where they fit,
// else in units.
func cmpValues(a, b resource.Quantity) int {
	x, y := a.Value(), b.Value()
	if x <= resource.MaxMilliValue && y <= resource.MaxMilliValue {
		x, y = a.MilliValue(), b.MilliValue()
	}
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

// scaled is requestLimitEnforcedValues for a ratio check: request and limit in milli-units when all three fit.
func scaled(req, lim, enforced resource.Quantity) (int64, int64) {
	r, l := req.Value(), lim.Value()
	if r <= resource.MaxMilliValue && l <= resource.MaxMilliValue && enforced.Value() <= resource.MaxMilliValue {
		return req.MilliValue(), lim.MilliValue()
	}
	return r, l
}

func sortedNames(l corev1.ResourceList) []corev1.ResourceName {
	names := make([]corev1.ResourceName, 0, len(l))
	for k := range l {
		names = append(names, k)
	}
	sort.Slice(names, func(i, j int) bool { return names[i] < names[j] })
	return names
}
