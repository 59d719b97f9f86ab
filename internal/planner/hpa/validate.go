package hpa

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	k8sresource "k8s.io/apimachinery/pkg/api/resource"
	apivalidation "k8s.io/apimachinery/pkg/api/validate/content"
	metavalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation"
	k8sfield "k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
)

// The API server's bounds (k8s.io/kubernetes pkg/apis/autoscaling/validation).
const (
	maxInt32                      = math.MaxInt32
	maxPeriodSeconds              = 1800
	maxStabilizationWindowSeconds = 3600
)

// checker accumulates the errors and warnings of one HPA.
type checker struct {
	h           HorizontalPodAutoscaler
	kube        int  // Kubernetes minor version
	scaleToZero bool // the HPAScaleToZero feature gate
	errs        field.Errors
	warnings    []field.Warning
	// failed holds the paths of errs[:seen], so that fail finds a value's error in constant time (an HPA of
	// 10,000 bad metrics took minutes when fail compared every path with every earlier one).
	failed map[string]bool
	seen   int
}

// fail records an error for the value at p, unless that value already has one: one bad value, one error.
func (c *checker) fail(id string, p field.Path, value string, format string, args ...any) {
	if c.failed == nil {
		c.failed = map[string]bool{}
	}
	for ; c.seen < len(c.errs); c.seen++ {
		c.failed[c.errs[c.seen].Path.String()] = true
	}
	if c.failed[p.String()] {
		return
	}
	c.errs = append(c.errs, rule(id, p, value, format, args...))
}

func (c *checker) warn(id string, p field.Path, format string, args ...any) {
	c.warnings = append(c.warnings, field.Warning{Code: id, Path: p, Message: id + ": " + fmt.Sprintf(format, args...)})
}

// rule returns an *Error whose detail starts with the rule ID ("HPA-E4: …").
func rule(id string, p field.Path, value string, format string, args ...any) *field.Error {
	return field.Invalid(p, value, "%s", id+": "+fmt.Sprintf(format, args...))
}

func itoa(v int64) string { return strconv.FormatInt(v, 10) }

func str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// effectiveMin is minReplicas as the API server sees it: 1 when unset.
func (h HorizontalPodAutoscaler) effectiveMin() int64 {
	if h.MinReplicas == nil {
		return 1
	}
	return *h.MinReplicas
}

// metadata runs HPA-E1: the object's name (a DNS-1123 subdomain), namespace (a DNS-1123 label), labels and
// annotations, by apimachinery's ObjectMeta validation, the one the API server runs.
func (c *checker) metadata() {
	h := c.h
	meta := metav1.ObjectMeta{Name: h.Name, Namespace: h.Namespace}
	msgs := map[string][]string{}
	for _, e := range metavalidation.ValidateObjectMeta(&meta, true, metavalidation.NameIsDNSSubdomain, k8sfield.NewPath("metadata")) {
		msgs[e.Field] = append(msgs[e.Field], e.Detail)
	}
	for _, f := range []struct{ key, name, what, value string }{
		{"metadata.name", "Name", "HPA name", h.Name}, {"metadata.namespace", "Namespace", "namespace", h.Namespace},
	} {
		switch m := msgs[f.key]; {
		case len(m) > 0 && f.value == "":
			c.fail("HPA-E1", field.NewPath(f.name), "", "the %s is empty", f.what)
		case len(m) > 0:
			c.fail("HPA-E1", field.NewPath(f.name), f.value, "%s %s is not valid: %s", f.what, field.Quote(f.value), strings.Join(m, "; "))
		}
	}
	for _, k := range sortedKeys(h.Labels) {
		var m []string
		for _, e := range metav1validation.ValidateLabelName(k, k8sfield.NewPath("labels")) {
			m = append(m, "key: "+e.Detail)
		}
		for _, msg := range validation.IsValidLabelValue(h.Labels[k]) {
			m = append(m, "value "+field.Quote(h.Labels[k])+": "+msg)
		}
		if len(m) > 0 {
			c.fail("HPA-E1", field.NewPath("Labels").Key(k), h.Labels[k], "label %s is not valid: %s", field.Quote(k), strings.Join(m, "; "))
		}
	}
	for _, k := range sortedKeys(h.Annotations) {
		var m []string
		for _, e := range metavalidation.ValidateAnnotations(map[string]string{k: ""}, k8sfield.NewPath("annotations")) {
			m = append(m, e.Detail)
		}
		if len(m) > 0 {
			c.fail("HPA-E1", field.NewPath("Annotations").Key(k), h.Annotations[k], "annotation key %s is not valid: %s", field.Quote(k), strings.Join(m, "; "))
		}
	}
	if err := metavalidation.ValidateAnnotationsSize(h.Annotations); err != nil {
		c.fail("HPA-E1", field.NewPath("Annotations"), "", "the annotations are too large: %v", err)
	}
}

// reference checks a CrossVersionObjectReference (HPA-E2 for the scale target, HPA-E6 for an Object
// metric's described object): kind and name set and usable in a URL path, apiVersion a group/version; the
// scale target needs an API group unless it is a ReplicationController.
func (c *checker) reference(id string, p field.Path, r CrossVersionObjectReference, what string, groupRequired bool) {
	for _, f := range []struct{ name, value, what string }{{"Kind", r.Kind, "kind"}, {"Name", r.Name, "name"}} {
		switch msgs := apivalidation.IsPathSegmentName(f.value); {
		case f.value == "":
			c.fail(id, p.Child(f.name), "", "the %s's %s is empty", what, f.what)
		case len(msgs) > 0:
			c.fail(id, p.Child(f.name), f.value, "the %s's %s %s %s", what, f.what, field.Quote(f.value), strings.Join(msgs, "; "))
		}
	}
	gv, err := schema.ParseGroupVersion(r.APIVersion)
	switch {
	case err != nil:
		c.fail(id, p.Child("APIVersion"), r.APIVersion, "the %s's apiVersion %s is not of the form group/version", what, field.Quote(r.APIVersion))
	case groupRequired && gv.Group == "" && r.Kind != "ReplicationController":
		c.fail(id, p.Child("APIVersion"), r.APIVersion,
			"the %s's apiVersion %s must name an API group (such as apps/v1); only a ReplicationController may use the core group", what, field.Quote(r.APIVersion))
	}
}

// replicas runs HPA-E3 (minReplicas), HPA-E4 (maxReplicas) and HPA-E8 (scaling to zero needs an Object or
// External metric).
func (c *checker) replicas() {
	h := c.h
	minOK := true
	if m := h.MinReplicas; m != nil {
		lo := int64(1)
		if c.scaleToZero {
			lo = 0
		}
		switch {
		case *m == 0 && lo == 1:
			minOK = false
			c.fail("HPA-E3", field.NewPath("MinReplicas"), "0",
				"minReplicas 0 (scaling to zero) needs the HPAScaleToZero feature gate, which is off here (Kubernetes 1.%d; it is on by default from 1.37): set minReplicas to 1 or more, or, if the cluster has turned the gate on, say so with the scale-to-zero setting", c.kube)
		case *m < lo || *m > maxInt32:
			minOK = false
			c.fail("HPA-E3", field.NewPath("MinReplicas"), itoa(*m), "minReplicas %d is out of range: it must be from %d to 2,147,483,647", *m, lo)
		}
	}
	switch mx := h.MaxReplicas; {
	case mx < 1 || mx > maxInt32:
		c.fail("HPA-E4", field.NewPath("MaxReplicas"), itoa(mx), "maxReplicas %d is out of range: it must be from 1 to 2,147,483,647", mx)
	case minOK && mx < h.effectiveMin():
		desc := "minReplicas " + itoa(h.effectiveMin())
		if h.MinReplicas == nil {
			desc = "the default minReplicas of 1"
		}
		c.fail("HPA-E4", field.NewPath("MaxReplicas"), itoa(mx), "maxReplicas %d must be greater than or equal to %s", mx, desc)
	}
	if h.MinReplicas != nil && *h.MinReplicas == 0 {
		for _, m := range h.Metrics {
			if m.Type == ObjectMetric || m.Type == ExternalMetric {
				return
			}
		}
		what := "its metrics are all Resource, ContainerResource or Pods metrics"
		if len(h.Metrics) == 0 {
			what = "no metric is given, so the API server adds the default CPU metric"
		}
		c.fail("HPA-E8", field.NewPath("Metrics"), "",
			"minReplicas 0 needs at least one Object or External metric (a metric that is still there when no pod runs), but %s", what)
	}
}

// metricSource is one source of a metric entry, by its field name.
type metricSource struct {
	name    string
	present bool
}

func (m Metric) sources() []metricSource {
	return []metricSource{{ObjectMetric, m.Object != nil}, {ExternalMetric, m.External != nil}, {PodsMetric, m.Pods != nil},
		{ResourceMetric, m.Resource != nil}, {ContainerResourceMetric, m.ContainerResource != nil}}
}

// metrics runs HPA-E5 (type and source), HPA-E6 (names) and HPA-E7 (targets) on every metric, and the
// warnings about metrics the API server admits but the HPA controller cannot use.
func (c *checker) metrics() {
	if len(c.h.Metrics) == 0 {
		c.warn("HPA-W6", field.NewPath("Metrics"), "no metric is given: the API server adds CPU at 80 %% utilization of the pods' requests")
	}
	for i, m := range c.h.Metrics {
		p := field.NewPath("Metrics").At(i)
		var present []string
		for _, s := range m.sources() {
			if s.present {
				present = append(present, s.name)
			}
		}
		// As the API server does: the first source given (in the order Object, External, Pods, Resource,
		// ContainerResource) is checked, whatever the type; the source of the type must be given; and when
		// not exactly one source is given, every other one is refused.
		switch {
		case m.Type == "":
			c.fail("HPA-E5", p.Child("Type"), "", "metric %d has no type: it must be %s", i+1, field.QuoteOr(MetricTypes))
		case !contains(MetricTypes, m.Type):
			c.fail("HPA-E5", p.Child("Type"), m.Type, "metric type %s is not supported: it must be %s", field.Quote(m.Type), field.QuoteOr(MetricTypes))
		case !contains(present, m.Type):
			c.fail("HPA-E5", p.Child(m.Type), "", "metric %d is of type %s but its %s source is not given", i+1, m.Type, m.Type)
		}
		if len(present) > 0 {
			c.source(i, m, present[0])
		}
		if len(present) > 1 {
			for _, s := range present {
				if s != m.Type {
					c.fail("HPA-E5", p.Child(s), "", "metric %d is of type %s but also sets a %s source: a metric sets only the source of its type", i+1, m.Type, s)
				}
			}
		}
	}
}

// source checks metric i's source of type typ.
func (c *checker) source(i int, m Metric, typ string) {
	p := field.NewPath("Metrics").At(i).Child(typ)
	switch typ {
	case ObjectMetric:
		s := m.Object
		c.reference("HPA-E6", p.Child("DescribedObject"), s.DescribedObject, "described object", false)
		c.identifier(p.Child("Metric"), s.Metric)
		c.target(p.Child("Target"), s.Target)
		if s.Target.Value == nil && s.Target.AverageValue == nil {
			c.fail("HPA-E7", p.Child("Target", "AverageValue"), "", "an Object metric's target needs a value or an averageValue")
		}
		c.objectUse(p.Child("Target"), s.Target)
	case ExternalMetric:
		s := m.External
		c.identifier(p.Child("Metric"), s.Metric)
		c.target(p.Child("Target"), s.Target)
		switch {
		case s.Target.Value == nil && s.Target.AverageValue == nil:
			c.fail("HPA-E7", p.Child("Target", "AverageValue"), "", "an External metric's target needs a value (for the metric) or an averageValue (per pod)")
		case s.Target.Value != nil && s.Target.AverageValue != nil:
			c.fail("HPA-E7", p.Child("Target", "Value"), str(s.Target.Value), "an External metric's target sets a value and an averageValue: set only one")
		}
		c.valueUse(p.Child("Target"), s.Target, "External")
	case PodsMetric:
		s := m.Pods
		c.identifier(p.Child("Metric"), s.Metric)
		c.target(p.Child("Target"), s.Target)
		if s.Target.AverageValue == nil {
			c.fail("HPA-E7", p.Child("Target", "AverageValue"), "", "a Pods metric's target needs an averageValue (per pod)")
		}
		c.valueUse(p.Child("Target"), s.Target, "Pods")
	case ResourceMetric:
		s := m.Resource
		if s.Name == "" {
			c.fail("HPA-E6", p.Child("Name"), "", "the Resource metric's resource name is empty")
		} else if s.Name != "cpu" && s.Name != "memory" {
			c.warn("HPA-W4", p.Child("Name"), "resource %s: the resource metrics API (metrics-server) reports only cpu and memory, so the HPA controller cannot read this metric", field.Quote(s.Name))
		}
		c.resourceTarget(p.Child("Target"), s.Target)
	case ContainerResourceMetric:
		s := m.ContainerResource
		if s.Name == "" {
			c.fail("HPA-E6", p.Child("Name"), "", "the ContainerResource metric's resource name is empty")
		} else if msgs := containerResourceName(s.Name); len(msgs) > 0 {
			c.fail("HPA-E6", p.Child("Name"), s.Name, "container resource name %s is not valid: %s", field.Quote(s.Name), strings.Join(msgs, "; "))
		} else if s.Name != "cpu" && s.Name != "memory" {
			c.warn("HPA-W4", p.Child("Name"), "resource %s: the resource metrics API (metrics-server) reports only cpu and memory, so the HPA controller cannot read this metric", field.Quote(s.Name))
		}
		if s.Container == "" {
			c.fail("HPA-E6", p.Child("Container"), "", "the ContainerResource metric's container name is empty")
		} else if msgs := validation.IsDNS1123Label(s.Container); len(msgs) > 0 {
			c.fail("HPA-E6", p.Child("Container"), s.Container, "container name %s is not valid: %s", field.Quote(s.Container), strings.Join(msgs, "; "))
		}
		c.resourceTarget(p.Child("Target"), s.Target)
	}
	if typ == ResourceMetric || typ == ContainerResourceMetric {
		c.requests(i, m, typ)
	}
}

// resourceTarget checks a Resource or ContainerResource metric's target: an averageUtilization or an
// averageValue, not both.
func (c *checker) resourceTarget(p field.Path, t Target) {
	c.target(p, t)
	switch {
	case t.AverageUtilization == nil && t.AverageValue == nil:
		c.fail("HPA-E7", p.Child("AverageUtilization"), "", "a resource metric's target needs an averageUtilization (percent of the request) or an averageValue")
	case t.AverageUtilization != nil && t.AverageValue != nil:
		c.fail("HPA-E7", p.Child("AverageValue"), str(t.AverageValue), "a resource metric's target sets an averageUtilization and an averageValue: set only one")
	}
	used := UtilizationTarget
	if t.AverageValue != nil {
		used = AverageValueTarget
	}
	c.typeUse(p, t, used, "resource")
}

// identifier checks a metric's name (HPA-E6) and warns about a selector the HPA controller cannot use.
func (c *checker) identifier(p field.Path, id MetricIdentifier) {
	switch msgs := apivalidation.IsPathSegmentName(id.Name); {
	case id.Name == "":
		c.fail("HPA-E6", p.Child("Name"), "", "the metric's name is empty")
	case len(msgs) > 0:
		c.fail("HPA-E6", p.Child("Name"), id.Name, "metric name %s %s", field.Quote(id.Name), strings.Join(msgs, "; "))
	}
	if s := id.Selector; s != nil {
		if _, err := metav1.LabelSelectorAsSelector(s.labelSelector()); err != nil {
			c.warn("HPA-W5", p.Child("Selector"), "the metric's selector is not a valid label selector (%v): the API server admits it, but the HPA controller fails on it at every sync", err)
		}
	}
}

func (s *LabelSelector) labelSelector() *metav1.LabelSelector {
	if s == nil {
		return nil
	}
	out := &metav1.LabelSelector{MatchLabels: s.MatchLabels}
	for _, r := range s.MatchExpressions {
		out.MatchExpressions = append(out.MatchExpressions, metav1.LabelSelectorRequirement{Key: r.Key,
			Operator: metav1.LabelSelectorOperator(r.Operator), Values: r.Values})
	}
	return out
}

// quantity checks that a target quantity, when set, is a positive Kubernetes quantity (HPA-E7).
func (c *checker) quantity(p field.Path, v *string, what string) {
	if v == nil {
		return
	}
	q, err := k8sresource.ParseQuantity(*v)
	switch {
	case err != nil:
		c.fail("HPA-E7", p, *v, "target %s %s is not a Kubernetes quantity (such as \"500m\" or \"10\")", what, field.Quote(*v))
	case q.Sign() != 1:
		c.fail("HPA-E7", p, *v, "target %s %s must be positive", what, field.Quote(*v))
	}
}

// target runs HPA-E7 on a metric target's own fields.
func (c *checker) target(p field.Path, t Target) {
	switch {
	case t.Type == "":
		c.fail("HPA-E7", p.Child("Type"), "", "the metric target has no type: it must be %s", field.QuoteOr(TargetTypes))
	case !contains(TargetTypes, t.Type):
		c.fail("HPA-E7", p.Child("Type"), t.Type, "metric target type %s is not supported: it must be %s", field.Quote(t.Type), field.QuoteOr(TargetTypes))
	}
	c.quantity(p.Child("Value"), t.Value, "value")
	c.quantity(p.Child("AverageValue"), t.AverageValue, "averageValue")
	if u := t.AverageUtilization; u != nil && (*u < 1 || *u > maxInt32) {
		c.fail("HPA-E7", p.Child("AverageUtilization"), itoa(*u), "target averageUtilization %d is out of range: it must be from 1 to 2,147,483,647 (percent of the pods' request)", *u)
	}
}

// objectUse warns when an Object metric's target type and values do not give the HPA controller a target:
// it scales on the value for type Value and on the averageValue for type AverageValue, and fails otherwise.
func (c *checker) objectUse(p field.Path, t Target) {
	if t.Value == nil && t.AverageValue == nil || !contains(TargetTypes, t.Type) {
		return
	}
	if t.Type == ValueTarget && t.Value != nil || t.Type == AverageValueTarget && t.AverageValue != nil {
		return
	}
	c.warn("HPA-W3", p.Child("Type"),
		"an Object metric with target type %s needs the target's %s: the API server admits this target, but the HPA controller fails on it (\"invalid object metric source: neither a value target nor an average value target was set\")",
		t.Type, map[string]string{ValueTarget: "value", AverageValueTarget: "averageValue", UtilizationTarget: "value or averageValue with a matching type"}[t.Type])
}

// valueUse warns when an External or Pods metric's target type is not the value the HPA controller uses
// (the averageValue when set, else the value).
func (c *checker) valueUse(p field.Path, t Target, kind string) {
	used := AverageValueTarget
	if t.AverageValue == nil {
		if t.Value == nil || kind == "Pods" {
			return
		}
		used = ValueTarget
	}
	c.typeUse(p, t, used, kind)
}

// typeUse warns (HPA-W3) when a target's type is not the kind of target the HPA controller scales on.
func (c *checker) typeUse(p field.Path, t Target, used, kind string) {
	if !contains(TargetTypes, t.Type) || t.Type == used {
		return
	}
	c.warn("HPA-W3", p.Child("Type"),
		"the %s metric's target type is %s, but the HPA controller ignores the type and scales on its %s; set the type to %s",
		kind, t.Type, map[string]string{UtilizationTarget: "averageUtilization", AverageValueTarget: "averageValue", ValueTarget: "value"}[used], used)
}

// containerResourceName returns why name is not a resource a ContainerResource metric may name, by the API
// server's rules: a qualified name that is cpu, memory, ephemeral-storage or hugepages-<size>, a name in
// a kubernetes.io/ domain, or an extended resource (a domain-prefixed name whose requests.<name> is a
// qualified name).
func containerResourceName(name string) []string {
	if msgs := validation.IsQualifiedName(name); len(msgs) > 0 {
		return msgs
	}
	if !strings.Contains(name, "/") {
		if name != "cpu" && name != "memory" && name != "ephemeral-storage" && !strings.HasPrefix(name, "hugepages-") {
			return []string{"must be cpu, memory, ephemeral-storage, hugepages-<size> or a fully qualified extended resource"}
		}
		return nil
	}
	if strings.Contains(name, "kubernetes.io/") {
		return nil
	}
	if strings.HasPrefix(name, "requests.") || len(validation.IsQualifiedName("requests."+name)) > 0 {
		return []string{"doesn't follow extended resource name standard"}
	}
	return nil
}

// behavior runs HPA-E9 (stabilization window, select policy), HPA-E10 (policies) and HPA-E11 (tolerance).
func (c *checker) behavior() {
	b := c.h.Behavior
	if b == nil {
		return
	}
	for _, d := range []struct {
		name string
		r    *ScalingRules
	}{{"ScaleUp", b.ScaleUp}, {"ScaleDown", b.ScaleDown}} {
		if d.r == nil {
			continue
		}
		dir := strings.ToLower(d.name[:1]) + d.name[1:]
		p := field.NewPath("Behavior", d.name)
		if w := d.r.StabilizationWindowSeconds; w != nil && (*w < 0 || *w > maxStabilizationWindowSeconds) {
			c.fail("HPA-E9", p.Child("StabilizationWindowSeconds"), itoa(*w),
				"%s stabilizationWindowSeconds %d is out of range: it must be from 0 to 3,600", dir, *w)
		}
		if s := d.r.SelectPolicy; s != nil && !contains(SelectPolicies, *s) {
			c.fail("HPA-E9", p.Child("SelectPolicy"), *s, "%s selectPolicy %s is not supported: it must be %s", dir, field.Quote(*s), field.QuoteOr(SelectPolicies))
		}
		if d.r.Policies != nil && len(d.r.Policies) == 0 {
			c.warn("HPA-W2", p.Child("Policies"), "%s policies are an empty list, which the object leaves out: the API server fills in its default %s policies", dir, dir)
		}
		for i, pol := range d.r.Policies {
			pp := p.Child("Policies").At(i)
			if !contains(PolicyTypes, pol.Type) {
				c.fail("HPA-E10", pp.Child("Type"), pol.Type, "%s policy type %s is not supported: it must be %s", dir, field.Quote(pol.Type), field.QuoteOr(PolicyTypes))
			}
			if pol.Value <= 0 || pol.Value > maxInt32 {
				c.fail("HPA-E10", pp.Child("Value"), itoa(pol.Value), "%s policy value %d is out of range: it must be from 1 to 2,147,483,647", dir, pol.Value)
			}
			if pol.PeriodSeconds < 1 || pol.PeriodSeconds > maxPeriodSeconds {
				c.fail("HPA-E10", pp.Child("PeriodSeconds"), itoa(pol.PeriodSeconds),
					"%s policy periodSeconds %d is out of range: it must be from 1 to 1,800", dir, pol.PeriodSeconds)
			}
		}
		if t := d.r.Tolerance; t != nil {
			q, err := k8sresource.ParseQuantity(*t)
			switch {
			case err != nil:
				c.fail("HPA-E11", p.Child("Tolerance"), *t, "%s tolerance %s is not a Kubernetes quantity (such as \"0.05\" or \"50m\")", dir, field.Quote(*t))
			case c.kube < 35:
				c.warn("HPA-W1", p.Child("Tolerance"),
					"a %s tolerance needs the HPAConfigurableTolerance feature gate, off by default on Kubernetes 1.%d (on from 1.35): unless it is on, the API server drops the tolerance and the controller's 10 %% applies", dir, c.kube)
			case q.Sign() < 0:
				c.fail("HPA-E11", p.Child("Tolerance"), *t, "%s tolerance %s must not be negative", dir, field.Quote(*t))
			}
		}
	}
}
