// Package pod is the planner's one rule for what a pod asks of a node. It follows the path a pod takes
// through the API server before the scheduler sees it, and then asks Kubernetes' own helper:
//
//  1. API defaulting (k8s.io/kubernetes pkg/apis/core/v1 SetDefaults_Pod): a container or init container
//     with a limit and no request for a resource requests its limit;
//  2. the LimitRanger admission plugin (plugin/pkg/admission/limitranger): the LimitRanges of the pod's
//     namespace fill the default limits and default requests a container still lacks (where two default
//     the same resource, admission's order is not fixed and the larger is taken), after the LimitRange's
//     own defaulting (SetDefaults_LimitRangeItem: a max stands in for a missing
//     default, a default or a min for a missing defaultRequest);
//  3. pod-level resources (KEP-2837, PrepareForCreate's defaulting in 1.37): with pod-level limits and no
//     pod-level request for CPU or memory, the request is the containers' aggregate where they request it,
//     else the limit (1.34–1.36 default it before admission instead; with a LimitRange the two orders can
//     differ, and the larger request is taken);
//  4. the RuntimeClass admission plugin: the RuntimeClass's overhead.podFixed becomes the pod's overhead;
//  5. k8s.io/component-helpers/resource.PodRequests: the larger of the init containers (each with the
//     sidecars started before it) and the app containers plus sidecars, pod-level requests where set, plus
//     the overhead.
//
// The scheduler's NodeResourcesFit filter compares exactly this sum with a node's allocatable. Requests
// returns it with a short account of every step that changed it, for people who check the figure.
package pod

import (
	"fmt"
	"sort"
	"strings"

	corev1 "k8s.io/api/core/v1"
	nodev1 "k8s.io/api/node/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	helpers "k8s.io/component-helpers/resource"
)

// Defaults are the objects of the pod's namespace and cluster that change its requests on admission.
type Defaults struct {
	// LimitRanges of the pod's namespace; their order does not matter.
	LimitRanges []corev1.LimitRange
	// RuntimeClass is the RuntimeClass the pod names (nil when it names none or the class is not known).
	RuntimeClass *nodev1.RuntimeClass
}

// Requests returns the effective requests of a pod with spec after defaulting and admission, and the
// steps that changed them, in the order they ran. spec is not modified.
func Requests(spec *corev1.PodSpec, d Defaults) (corev1.ResourceList, []string) {
	reqs, steps := requests(spec, d, false)
	if spec.Resources != nil && len(d.LimitRanges) > 0 {
		// Kubernetes 1.34–1.36 default pod-level requests before admission (SetDefaults_Pod), 1.37 after
		// it (PrepareForCreate): the cluster's release is not known here, so the larger of the two counts.
		early, _ := requests(spec, d, true)
		var larger []string
		for k, v := range early {
			if cur, ok := reqs[k]; !ok || v.Cmp(cur) > 0 {
				reqs[k] = v.DeepCopy()
				larger = append(larger, string(k))
			}
		}
		if len(larger) > 0 {
			sort.Strings(larger)
			steps = append(steps, "defaulting the pod-level requests before the LimitRange, as Kubernetes 1.34–1.36 do, gives more "+
				strings.Join(larger, ", ")+": the larger is planned")
		}
	}
	return reqs, steps
}

// requests runs the steps on a copy of spec; early runs the pod-level defaulting before admission.
func requests(spec *corev1.PodSpec, d Defaults, early bool) (corev1.ResourceList, []string) {
	p, steps := admitted(spec, d, early)
	return helpers.PodRequests(p, helpers.PodResourcesOptions{}), steps
}

// admitted returns a pod of spec as defaulting and admission leave it, and the steps that changed its requests.
func admitted(spec *corev1.PodSpec, d Defaults, early bool) (*corev1.Pod, []string) {
	p := &corev1.Pod{Spec: *spec.DeepCopy()}
	var steps []string
	steps = append(steps, requestsFromLimits(p.Spec.InitContainers, "init container")...)
	steps = append(steps, requestsFromLimits(p.Spec.Containers, "container")...)
	if early {
		steps = append(steps, podLevelDefaults(p)...)
	}
	steps = append(steps, limitRangeDefaults(p, d.LimitRanges)...)
	if !early {
		steps = append(steps, podLevelDefaults(p)...)
	}
	if rc := d.RuntimeClass; rc != nil && rc.Overhead != nil && len(rc.Overhead.PodFixed) > 0 {
		p.Spec.Overhead = rc.Overhead.PodFixed.DeepCopy()
		steps = append(steps, fmt.Sprintf("RuntimeClass %q adds its pod overhead %s", rc.Name, Format(rc.Overhead.PodFixed)))
	} else if len(p.Spec.Overhead) > 0 {
		steps = append(steps, fmt.Sprintf("pod overhead %s added", Format(p.Spec.Overhead)))
	}
	if n := len(p.Spec.InitContainers); n > 0 {
		steps = append(steps, initStep(p))
	}
	return p, steps
}

// requestsFromLimits is SetDefaults_Pod's rule: a limit stands in for a missing request.
func requestsFromLimits(cs []corev1.Container, what string) []string {
	var steps []string
	for i := range cs {
		c := &cs[i]
		var set []string
		for name, q := range c.Resources.Limits {
			if _, ok := c.Resources.Requests[name]; ok {
				continue
			}
			if c.Resources.Requests == nil {
				c.Resources.Requests = corev1.ResourceList{}
			}
			c.Resources.Requests[name] = q.DeepCopy()
			set = append(set, string(name))
		}
		if len(set) > 0 {
			sort.Strings(set)
			steps = append(steps, fmt.Sprintf("%s %q requests its limit for %s (API defaulting)", what, c.Name, strings.Join(set, ", ")))
		}
	}
	return steps
}

// DefaultLimitRange returns lr as the API server stores it (SetDefaults_LimitRangeItem): for Container
// items a max stands in for a missing default, and a default, then a min, for a missing defaultRequest.
func DefaultLimitRange(lr corev1.LimitRange) corev1.LimitRange {
	lr = *lr.DeepCopy()
	for i := range lr.Spec.Limits {
		it := &lr.Spec.Limits[i]
		if it.Type != corev1.LimitTypeContainer {
			continue
		}
		if it.Default == nil {
			it.Default = corev1.ResourceList{}
		}
		if it.DefaultRequest == nil {
			it.DefaultRequest = corev1.ResourceList{}
		}
		fill(it.Default, it.Max)
		fill(it.DefaultRequest, it.Default)
		fill(it.DefaultRequest, it.Min)
	}
	return lr
}

// fill copies into dst every entry of src that dst lacks.
func fill(dst, src corev1.ResourceList) []string {
	var set []string
	for k, v := range src {
		if _, ok := dst[k]; !ok {
			dst[k] = v.DeepCopy()
			set = append(set, string(k))
		}
	}
	sort.Strings(set)
	return set
}

// limitRangeDefaults is the LimitRanger admission's defaulting of containers. Admission applies the
// namespace's LimitRanges one after the other in the order its informer lists them, which is not fixed,
// so where two default the same resource differently the larger default is taken (Conflicts names them).
func limitRangeDefaults(p *corev1.Pod, lrs []corev1.LimitRange) []string {
	def, names := mergedDefaults(lrs)
	var steps []string
	apply := func(cs []corev1.Container, what string) {
		for i := range cs {
			c := &cs[i]
			if c.Resources.Limits == nil {
				c.Resources.Limits = corev1.ResourceList{}
			}
			if c.Resources.Requests == nil {
				c.Resources.Requests = corev1.ResourceList{}
			}
			fill(c.Resources.Limits, def.Limits)
			if set := fill(c.Resources.Requests, def.Requests); len(set) > 0 {
				steps = append(steps, fmt.Sprintf("LimitRange %s sets the %s request of %s %q to %s", names,
					strings.Join(set, ", "), what, c.Name, Format(pick(c.Resources.Requests, set))))
			}
		}
	}
	apply(p.Spec.InitContainers, "init container")
	apply(p.Spec.Containers, "container")
	return steps
}

// mergedDefaults returns the container defaults of the LimitRanges (each defaulted as stored), the larger
// where two give the same resource, and their names for an explanation.
func mergedDefaults(lrs []corev1.LimitRange) (corev1.ResourceRequirements, string) {
	def := corev1.ResourceRequirements{Requests: corev1.ResourceList{}, Limits: corev1.ResourceList{}}
	var names []string
	for _, lr := range lrs {
		lr = DefaultLimitRange(lr)
		used := false
		for _, it := range lr.Spec.Limits {
			if it.Type != corev1.LimitTypeContainer {
				continue
			}
			used = used || len(it.DefaultRequest) > 0 || len(it.Default) > 0
			larger(def.Requests, it.DefaultRequest)
			larger(def.Limits, it.Default)
		}
		if used {
			names = append(names, fmt.Sprintf("%q", lr.Name))
		}
	}
	sort.Strings(names)
	return def, strings.Join(names, ", ")
}

// larger sets dst[k] to src[k] where dst lacks k or holds less.
func larger(dst, src corev1.ResourceList) {
	for k, v := range src {
		if cur, ok := dst[k]; !ok || v.Cmp(cur) > 0 {
			dst[k] = v.DeepCopy()
		}
	}
}

// Conflicts lists, for LimitRanges of one namespace, the resources two of them default differently
// ("cpu request: \"a\" 100m, \"b\" 200m"): the API server's result then depends on an order it does not fix.
func Conflicts(lrs []corev1.LimitRange) []string {
	type seen struct {
		name string
		q    resource.Quantity
	}
	var out []string
	for _, kind := range []string{"request", "limit"} {
		first := map[corev1.ResourceName]seen{}
		reported := map[corev1.ResourceName]bool{}
		for _, lr := range lrs {
			lr = DefaultLimitRange(lr)
			for _, it := range lr.Spec.Limits {
				if it.Type != corev1.LimitTypeContainer {
					continue
				}
				l := it.DefaultRequest
				if kind == "limit" {
					l = it.Default
				}
				for k, v := range l {
					f, ok := first[k]
					if !ok {
						first[k] = seen{lr.Name, v}
						continue
					}
					if f.q.Cmp(v) != 0 && !reported[k] {
						reported[k] = true
						out = append(out, fmt.Sprintf("%s %s: %q %s, %q %s", k, kind, f.name, f.q.String(), lr.Name, v.String()))
					}
				}
			}
		}
	}
	sort.Strings(out)
	return out
}

// podLevelDefaults defaults pod-level requests from pod-level limits (the API server's defaultPodRequests).
func podLevelDefaults(p *corev1.Pod) []string {
	r := p.Spec.Resources
	switch {
	case r == nil || len(r.Limits) == 0 && len(r.Requests) == 0:
		return nil
	case len(r.Limits) == 0:
		return []string{"pod-level requests " + Format(r.Requests) + " replace the containers' for those resources"}
	}
	reqs := r.Requests
	if reqs == nil {
		reqs = corev1.ResourceList{}
	}
	var set []string
	aggr := helpers.AggregateContainerRequests(p, helpers.PodResourcesOptions{})
	for k, v := range aggr {
		if _, ok := reqs[k]; !ok && helpers.IsSupportedPodLevelResource(k) && overcommittable(k) {
			reqs[k] = v.DeepCopy()
			set = append(set, string(k)+" from the containers")
		}
	}
	for k, v := range r.Limits {
		if _, ok := reqs[k]; !ok && helpers.IsSupportedPodLevelResource(k) {
			reqs[k] = v.DeepCopy()
			set = append(set, string(k)+" from its limit")
		}
	}
	if len(reqs) > 0 {
		r.Requests = reqs
	}
	if len(set) == 0 {
		return []string{"pod-level requests " + Format(reqs) + " replace the containers' for those resources"}
	}
	sort.Strings(set)
	return []string{"pod-level request of " + strings.Join(set, ", ") + " (API defaulting); pod-level requests " + Format(reqs) + " replace the containers' for those resources"}
}

// overcommittable reports whether a resource may be overcommitted (not hugepages, not an extended resource):
// corev1helper.IsOvercommitAllowed.
func overcommittable(n corev1.ResourceName) bool {
	return native(n) && !strings.HasPrefix(string(n), corev1.ResourceHugePagesPrefix)
}

// native reports whether n is a Kubernetes-native resource name (unprefixed or in kubernetes.io/).
func native(n corev1.ResourceName) bool {
	s := string(n)
	return !strings.Contains(s, "/") || strings.Contains(s, "kubernetes.io/")
}

// initStep says which of the init containers and the app containers set the pod's request. As PodRequests
// computes it (KEP-753), an init container runs beside the sidecars started before it, so its request counts with
// theirs; the app containers run beside every sidecar.
func initStep(p *corev1.Pod) string {
	app, init, before := corev1.ResourceList{}, corev1.ResourceList{}, corev1.ResourceList{}
	withSidecars := map[corev1.ResourceName]bool{}
	sidecars := 0
	for _, c := range p.Spec.Containers {
		add(app, c.Resources.Requests)
	}
	for _, c := range p.Spec.InitContainers {
		if c.RestartPolicy != nil && *c.RestartPolicy == corev1.ContainerRestartPolicyAlways {
			sidecars++
			add(app, c.Resources.Requests)
			add(before, c.Resources.Requests)
			continue
		}
		for k, v := range c.Resources.Requests {
			v = v.DeepCopy()
			s, started := before[k]
			if started {
				v.Add(s)
			}
			if cur, ok := init[k]; !ok || v.Cmp(cur) > 0 {
				init[k] = v
				withSidecars[k] = started && !s.IsZero()
			}
		}
	}
	var larger []string
	beside := false
	for k, v := range init {
		if cur, ok := app[k]; !ok || v.Cmp(cur) > 0 {
			larger = append(larger, string(k))
			beside = beside || withSidecars[k]
		}
	}
	sort.Strings(larger)
	s := fmt.Sprintf("%d init container(s)", len(p.Spec.InitContainers)-sidecars)
	if sidecars > 0 {
		s += fmt.Sprintf(" and %d sidecar(s) (restartPolicy Always, added to the app containers)", sidecars)
	}
	switch {
	case len(larger) > 0 && beside:
		return s + ": an init container's " + strings.Join(larger, ", ") + " request plus the sidecars started before it is larger than the app containers' and sets the pod's"
	case len(larger) > 0:
		return s + ": an init container's " + strings.Join(larger, ", ") + " request is larger than the app containers' and sets the pod's"
	}
	return s + ": the app containers' requests are the larger"
}

func add(dst, src corev1.ResourceList) {
	for k, v := range src {
		cur := dst[k]
		cur.Add(v)
		dst[k] = cur
	}
}

func pick(l corev1.ResourceList, names []string) corev1.ResourceList {
	out := corev1.ResourceList{}
	for _, n := range names {
		out[corev1.ResourceName(n)] = l[corev1.ResourceName(n)]
	}
	return out
}

// Format renders a resource list as "cpu 250m, memory 128Mi", in name order.
func Format(l corev1.ResourceList) string {
	names := make([]string, 0, len(l))
	for k := range l {
		names = append(names, string(k))
	}
	sort.Strings(names)
	parts := make([]string, len(names))
	for i, n := range names {
		q := l[corev1.ResourceName(n)]
		parts[i] = n + " " + q.String()
	}
	return strings.Join(parts, ", ")
}
