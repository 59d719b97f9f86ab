package keda

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation"
	k8sfield "k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
)

// Annotations that change KEDA's behaviour.
const (
	AnnotationPausedReplicas = "autoscaling.keda.sh/paused-replicas"
	maxInt32                 = math.MaxInt32
	defaultMaxReplicas       = 100
)

// Fallback behaviours (the CRD enum).
var fallbackBehaviors = []string{"static", "currentReplicas", "currentReplicasIfHigher", "currentReplicasIfLower", "scalingModifiers"}

// checker accumulates the errors and warnings of one ScaledObject.
type checker struct {
	so       ScaledObject
	keda     int // KEDA minor version
	kube     int // Kubernetes minor version, 0 when unknown
	errs     field.Errors
	warnings []field.Warning
}

func (c *checker) fail(id string, p field.Path, value string, format string, args ...any) {
	c.errs = append(c.errs, rule(id, p, value, format, args...))
}

func (c *checker) warn(id string, p field.Path, format string, args ...any) {
	c.warnings = append(c.warnings, field.Warning{Code: id, Path: p, Message: id + ": " + fmt.Sprintf(format, args...)})
}

func isCPUMemory(t string) bool { return t == "cpu" || t == "memory" }

func str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

func itoa(v int64) string { return strconv.FormatInt(v, 10) }

// HPAName returns the name of the HPA KEDA creates: the custom name, else (also when the custom name is
// empty) keda-hpa-<name>.
func (so ScaledObject) HPAName() string {
	if so.customHPAName() {
		return *so.Advanced.HorizontalPodAutoscalerConfig.Name
	}
	return "keda-hpa-" + so.Name
}

func (so ScaledObject) customHPAName() bool {
	a := so.Advanced
	return a != nil && a.HorizontalPodAutoscalerConfig != nil && str(a.HorizontalPodAutoscalerConfig.Name) != ""
}

// usesModifiers reports whether any scaling-modifier field is set.
func (so ScaledObject) usesModifiers() bool {
	if so.Advanced == nil || so.Advanced.ScalingModifiers == nil {
		return false
	}
	m := so.Advanced.ScalingModifiers
	return m.Formula != nil || m.Target != nil || m.ActivationTarget != nil || m.MetricType != nil
}

// effMinMax returns the webhook's effective bounds (§3.1): min 0 when unset, else max(1, min); max 100
// when unset.
func (so ScaledObject) effMinMax() (int64, int64) {
	effMin, effMax := int64(0), int64(defaultMaxReplicas)
	if so.MinReplicaCount != nil {
		effMin = max(1, *so.MinReplicaCount)
	}
	if so.MaxReplicaCount != nil {
		effMax = *so.MaxReplicaCount
	}
	return effMin, effMax
}

func (c *checker) metadata() {
	so := c.so
	for _, msg := range validation.IsDNS1123Subdomain(so.Name) {
		c.fail("KSO-E1", field.NewPath("Name"), so.Name, "ScaledObject name %s is not a valid object name: %s", field.Quote(so.Name), msg)
	}
	if len(so.Name) > 63 {
		c.fail("KSO-E1", field.NewPath("Name"), so.Name,
			"ScaledObject name %s has %d characters; KEDA puts it in the label scaledobject.keda.sh/name, which allows at most 63",
			field.Quote(so.Name), len(so.Name))
	}
	for _, msg := range validation.IsDNS1123Label(so.Namespace) {
		c.fail("KSO-E1", field.NewPath("Namespace"), so.Namespace, "namespace %s is not a valid namespace name: %s", field.Quote(so.Namespace), msg)
	}
	hpa := so.HPAName()
	custom := so.customHPAName()
	hp := field.NewPath("Name")
	if custom {
		hp = field.NewPath("Advanced", "HorizontalPodAutoscalerConfig", "Name")
	}
	if len(hpa) > 63 {
		hint := "shorten the HPA name"
		if !custom {
			hint = "set a custom HPA name (advanced horizontalPodAutoscalerConfig name) or shorten the ScaledObject name to at most 54 characters"
		}
		c.fail("KSO-E2", hp, hpa, "HPA name %s has %d characters but must be no more than 63: %s", field.Quote(hpa), len(hpa), hint)
	} else if custom || len(so.Name) <= 63 {
		for _, msg := range validation.IsDNS1123Subdomain(hpa) {
			c.fail("KSO-E2", hp, hpa, "HPA name %s is not a valid object name: %s", field.Quote(hpa), msg)
		}
	}
	for _, k := range sortedKeys(so.Labels) {
		lp := field.NewPath("Labels").Key(k)
		for _, msg := range validation.IsQualifiedName(k) {
			c.fail("KSO-E20", lp, k, "label key %s is invalid: %s", field.Quote(k), msg)
		}
		for _, msg := range validation.IsValidLabelValue(so.Labels[k]) {
			c.fail("KSO-E20", lp, so.Labels[k], "label value %s is invalid: %s", field.Quote(so.Labels[k]), msg)
		}
	}
	for _, e := range apivalidation.ValidateAnnotations(so.Annotations, k8sfield.NewPath("annotations")) {
		ap := field.NewPath("Annotations")
		if k, ok := e.BadValue.(string); ok {
			if _, isKey := so.Annotations[k]; isKey {
				ap = ap.Key(k)
			}
		}
		c.fail("KSO-E20", ap, fmt.Sprint(e.BadValue), "annotation is invalid: %s", e.ErrorBody())
	}
	if v, ok := so.Annotations[AnnotationPausedReplicas]; ok {
		n, err := strconv.ParseInt(v, 10, 32)
		if err != nil || n < 0 {
			c.fail("KSO-E16", field.NewPath("Annotations").Key(AnnotationPausedReplicas), v,
				"paused-replicas annotation %s is not a whole number from 0 to 2,147,483,647", field.Quote(v))
		}
	}
}

func (c *checker) target() {
	r := c.so.ScaleTargetRef
	p := field.NewPath("ScaleTargetRef")
	if r.Name == "" {
		c.fail("KSO-E3", p.Child("Name"), "", "the scale target's name is empty")
	}
	if r.APIVersion != nil {
		gv, err := schema.ParseGroupVersion(*r.APIVersion)
		if err != nil || gv.Version == "" {
			c.fail("KSO-E3", p.Child("APIVersion"), *r.APIVersion, "scale target apiVersion %s is not of the form group/version (or v1)", field.Quote(*r.APIVersion))
		}
	}
	if r.Kind != nil && *r.Kind == "" {
		c.fail("KSO-E3", p.Child("Kind"), "", "the scale target's kind is set but empty")
	}
}

func (c *checker) numbers() {
	so := c.so
	check := func(name string, v *int64, lo int64, what string) {
		if v == nil {
			return
		}
		if *v < lo || *v > maxInt32 {
			c.fail("KSO-E4", field.NewPath(name), itoa(*v), "%s %d is out of range: it must be from %d to 2,147,483,647", what, *v, lo)
		}
	}
	check("PollingInterval", so.PollingInterval, 1, "pollingInterval")
	check("InitialCooldownPeriod", so.InitialCooldownPeriod, 0, "initialCooldownPeriod")
	check("CooldownPeriod", so.CooldownPeriod, 0, "cooldownPeriod")
	check("IdleReplicaCount", so.IdleReplicaCount, 0, "idleReplicaCount")
	check("MinReplicaCount", so.MinReplicaCount, 0, "minReplicaCount")
	check("MaxReplicaCount", so.MaxReplicaCount, 1, "maxReplicaCount")

	// KSO-E5: the CRD's CEL rule.
	if so.MinReplicaCount != nil {
		limit, desc := int64(defaultMaxReplicas), "KEDA's default maximum of 100 (maxReplicaCount is unset)"
		if so.MaxReplicaCount != nil {
			limit = *so.MaxReplicaCount
			desc = "maxReplicaCount " + itoa(limit)
		}
		if *so.MinReplicaCount > limit {
			c.fail("KSO-E5", field.NewPath("MinReplicaCount"), itoa(*so.MinReplicaCount),
				"minReplicaCount %d must be less than or equal to %s", *so.MinReplicaCount, desc)
		}
	}
	// KSO-E6: the webhook's bounds (§3.1).
	effMin, effMax := so.effMinMax()
	if effMin > effMax {
		// With minReplicaCount unset this takes a maxReplicaCount below 0.
		p, v := field.NewPath("MaxReplicaCount"), itoa(effMax)
		if so.MinReplicaCount != nil {
			p, v = field.NewPath("MinReplicaCount"), itoa(*so.MinReplicaCount)
		}
		c.fail("KSO-E6", p, v,
			"MinReplicaCount=%d must be less than MaxReplicaCount=%d (the admission webhook and the controller reject it)", effMin, effMax)
	}
	if so.IdleReplicaCount != nil && *so.IdleReplicaCount >= effMin {
		why := ""
		if so.MinReplicaCount == nil {
			why = " (with minReplicaCount unset KEDA takes it as 0, so no idle count is allowed; set minReplicaCount to 0 or more)"
		}
		c.fail("KSO-E6", field.NewPath("IdleReplicaCount"), itoa(*so.IdleReplicaCount),
			"IdleReplicaCount=%d must be less than MinReplicaCount=%d%s", *so.IdleReplicaCount, effMin, why)
	}
	if so.IdleReplicaCount != nil && *so.IdleReplicaCount != 0 {
		c.warn("KSO-W3", field.NewPath("IdleReplicaCount"),
			"idleReplicaCount %d: only 0 works (an HPA cannot hold an idle count other than zero)", *so.IdleReplicaCount)
	}
	if so.MaxReplicaCount == nil {
		c.warn("KSO-W4", field.NewPath("MaxReplicaCount"),
			"maxReplicaCount is unset, so KEDA allows up to 100 replicas and the capacity checks use 100, which is rarely intended")
	}
	// KSO-W1, KSO-W2 (v2.20+).
	if c.keda >= 20 && so.MinReplicaCount != nil && *so.MinReplicaCount > 0 && so.IdleReplicaCount == nil {
		cached := false
		for _, t := range so.Triggers {
			if t.UseCachedMetrics != nil && *t.UseCachedMetrics {
				cached = true
			}
		}
		if so.PollingInterval != nil && !cached && (c.keda < 21 || !so.usesModifiers()) {
			c.warn("KSO-W1", field.NewPath("PollingInterval"),
				"pollingInterval is set but not relevant: with minReplicaCount %d and no idle replica count KEDA never scales to zero, and the HPA polls the metrics itself", *so.MinReplicaCount)
		}
		if so.CooldownPeriod != nil {
			c.warn("KSO-W2", field.NewPath("CooldownPeriod"),
				"cooldownPeriod is set but not relevant: it only delays scaling to zero (or to the idle count), and minReplicaCount is %d with no idle replica count", *so.MinReplicaCount)
		}
	}
}

func (c *checker) behavior() {
	a := c.so.Advanced
	if a == nil || a.HorizontalPodAutoscalerConfig == nil || a.HorizontalPodAutoscalerConfig.Behavior == nil {
		return
	}
	b := a.HorizontalPodAutoscalerConfig.Behavior
	base := field.NewPath("Advanced", "HorizontalPodAutoscalerConfig", "Behavior")
	for _, d := range []struct {
		name string
		r    *ScalingRules
	}{{"ScaleUp", b.ScaleUp}, {"ScaleDown", b.ScaleDown}} {
		if d.r == nil {
			continue
		}
		p := base.Child(d.name)
		if w := d.r.StabilizationWindowSeconds; w != nil && (*w < 0 || *w > 3600) {
			c.fail("KSO-E14", p.Child("StabilizationWindowSeconds"), itoa(*w),
				"HPA stabilizationWindowSeconds %d is out of range 0–3,600; the API server rejects the generated HPA", *w)
		}
		if s := d.r.SelectPolicy; s != nil && *s != "Max" && *s != "Min" && *s != "Disabled" {
			c.fail("KSO-E14", p.Child("SelectPolicy"), *s, "HPA selectPolicy %s must be Max, Min or Disabled", field.Quote(*s))
		}
		if d.r.Policies != nil && len(d.r.Policies) == 0 {
			c.fail("KSO-E14", p.Child("Policies"), "", "HPA %s policies are an empty list: the API server requires at least one policy (leave the list out for the defaults)", strings.ToLower(d.name[:1])+d.name[1:])
		}
		for i, pol := range d.r.Policies {
			pp := p.Child("Policies").At(i)
			if pol.Type != "Pods" && pol.Type != "Percent" {
				c.fail("KSO-E14", pp.Child("Type"), pol.Type, "HPA policy type %s must be Pods or Percent", field.Quote(pol.Type))
			}
			if pol.Value <= 0 || pol.Value > maxInt32 {
				c.fail("KSO-E14", pp.Child("Value"), itoa(pol.Value), "HPA policy value %d must be greater than 0", pol.Value)
			}
			if pol.PeriodSeconds < 1 || pol.PeriodSeconds > 1800 {
				c.fail("KSO-E14", pp.Child("PeriodSeconds"), itoa(pol.PeriodSeconds),
					"HPA policy periodSeconds %d is out of range 1–1,800; the API server rejects the generated HPA", pol.PeriodSeconds)
			}
		}
		if t := d.r.Tolerance; t != nil {
			q, err := parseQuantity(*t)
			if err != nil || q.Sign() < 0 {
				c.fail("KSO-E18", p.Child("Tolerance"), *t, "HPA tolerance %s is not a non-negative Kubernetes quantity (such as \"0.05\" or \"50m\")", field.Quote(*t))
			} else if c.kube != 0 && c.kube < 35 {
				c.warn("KSO-W13", p.Child("Tolerance"),
					"an HPA tolerance needs the Kubernetes HPAConfigurableTolerance feature, which is alpha before 1.35 and off by default on 1.%d", c.kube)
			}
		}
	}
}

func (c *checker) triggers() {
	so := c.so
	tp := field.NewPath("Triggers")
	if len(so.Triggers) == 0 {
		c.fail("KSO-E7", tp, "", "no triggers defined in the ScaledObject: at least one is required")
	}
	seen := map[string]int{}
	allCPUMem := len(so.Triggers) > 0
	for i, t := range so.Triggers {
		p := tp.At(i)
		if t.Type == "" {
			c.fail("KSO-E7", p.Child("Type"), "", "trigger %d has an empty type", i+1)
		}
		if !isCPUMemory(t.Type) {
			allCPUMem = false
		}
		if n := str(t.Name); n != "" {
			if j, dup := seen[n]; dup {
				c.fail("KSO-E7", p.Child("Name"), n, "trigger name %s is defined multiple times (triggers %d and %d), but it must be unique", field.Quote(n), j+1, i+1)
			} else {
				seen[n] = i
			}
		}
		if t.UseCachedMetrics != nil && *t.UseCachedMetrics && (isCPUMemory(t.Type) || t.Type == "cron") {
			c.fail("KSO-E7", p.Child("UseCachedMetrics"), "true", "useCachedMetrics is not supported for %s triggers", t.Type)
		}
		if r := t.AuthenticationRef; r != nil {
			if r.Name == "" {
				c.fail("KSO-E19", p.Child("AuthenticationRef", "Name"), "", "authenticationRef name is required when the block is present")
			}
			if r.Kind != nil && *r.Kind != "TriggerAuthentication" && *r.Kind != "ClusterTriggerAuthentication" {
				c.fail("KSO-E19", p.Child("AuthenticationRef", "Kind"), *r.Kind,
					"authenticationRef kind %s must be TriggerAuthentication or ClusterTriggerAuthentication", field.Quote(*r.Kind))
			}
		}
		switch {
		case isCPUMemory(t.Type):
			c.resourceTrigger(i, t)
		default:
			if mt := str(t.MetricType); mt != "" && mt != "AverageValue" && mt != "Value" {
				c.fail("KSO-E13", p.Child("MetricType"), mt, "metricType %s is not allowed for a %s trigger: use AverageValue or Value", field.Quote(mt), t.Type)
			}
			if t.Type == "prometheus" {
				c.prometheus(i, t)
			}
		}
	}
	if allCPUMem && (so.MinReplicaCount == nil || *so.MinReplicaCount == 0) {
		p := field.NewPath("MinReplicaCount")
		if so.MinReplicaCount == nil {
			p = tp
		}
		c.fail("KSO-E12", p, "", "the ScaledObject has only cpu/memory triggers and minReplicaCount is 0 or unset: scale to zero doesn't work in this case; set minReplicaCount to 1 or more, or add a trigger that can see work while no pod runs")
	}
}

func (c *checker) fallback() {
	so := c.so
	f := so.Fallback
	if f == nil {
		return
	}
	p := field.NewPath("Fallback")
	if f.FailureThreshold < 0 || f.FailureThreshold > maxInt32 {
		c.fail("KSO-E8", p.Child("FailureThreshold"), itoa(f.FailureThreshold), "fallback failureThreshold %d must be from 0 to 2,147,483,647", f.FailureThreshold)
	}
	if f.Replicas < 0 || f.Replicas > maxInt32 {
		c.fail("KSO-E8", p.Child("Replicas"), itoa(f.Replicas), "fallback replicas %d must be from 0 to 2,147,483,647", f.Replicas)
	}
	if b := f.Behavior; b != nil {
		allowed := fallbackBehaviors
		if c.keda < 20 {
			allowed = allowed[:4]
		}
		if !contains(allowed, *b) {
			c.fail("KSO-E8", p.Child("Behavior"), *b, "fallback behavior %s is not one of %s (KEDA 2.%d)", field.Quote(*b), field.JoinAnd(quoteAll(allowed)), c.keda)
		} else if *b == "scalingModifiers" && (so.Advanced == nil || so.Advanced.ScalingModifiers == nil || str(so.Advanced.ScalingModifiers.Formula) == "") {
			c.fail("KSO-E8", p.Child("Behavior"), *b, "scalingModifiers fallback behavior requires scalingModifiers.formula to be defined")
		}
	}
	if !so.usesModifiers() {
		ok := false
		for _, t := range so.Triggers {
			if isCPUMemory(t.Type) {
				continue
			}
			// Before v2.18 fallback worked only for AverageValue metrics.
			if c.keda < 18 && str(t.MetricType) == "Value" {
				continue
			}
			ok = true
		}
		if !ok {
			need := "that is not cpu or memory"
			if c.keda < 18 {
				need = "that is not cpu or memory and has the AverageValue metric type"
			}
			c.fail("KSO-E8", p, "", "fallback needs at least one trigger %s: fallback does not apply to cpu and memory metrics", need)
		}
	}
	effMin, effMax := so.effMinMax()
	if f.Replicas > effMax {
		c.warn("KSO-W5", p.Child("Replicas"), "fallback replicas %d is above maxReplicaCount %d: the HPA clamps it to %d", f.Replicas, effMax, effMax)
	} else if hpaMin := max(1, effMin); f.Replicas < hpaMin {
		c.warn("KSO-W5", p.Child("Replicas"), "fallback replicas %d is below the HPA minimum of %d: the HPA raises it to %d", f.Replicas, hpaMin, hpaMin)
	}
	if so.usesModifiers() {
		if tgt := str(so.Advanced.ScalingModifiers.Target); tgt != "" {
			if n, err := strconv.Atoi(tgt); err != nil || n <= 0 {
				c.warn("KSO-W6", field.NewPath("Advanced", "ScalingModifiers", "Target"),
					"scalingModifiers target %s is not a whole number greater than 0: KEDA admits the object, but at runtime it treats fallback as invalid and never scales to the fallback replicas when the metrics fail; use an integer target", field.Quote(tgt))
			}
		}
	}
	if so.MinReplicaCount == nil || *so.MinReplicaCount == 0 {
		for i, t := range so.Triggers {
			if !isCPUMemory(t.Type) && str(t.MetricType) == "Value" {
				c.warn("KSO-W12", field.NewPath("Triggers").At(i).Child("MetricType"),
					"fallback with a Value metric divides the fallback replicas by the ready pods, so with minReplicaCount 0 and no pod running it fails")
				break
			}
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func quoteAll(list []string) []string {
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = strconv.Quote(s)
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// normalisedTarget returns the target's apiVersion and kind with KEDA's defaults.
func (so ScaledObject) normalisedTarget() (string, string) {
	av, kind := "apps/v1", "Deployment"
	if r := so.ScaleTargetRef.APIVersion; r != nil && *r != "" {
		av = *r
	}
	if r := so.ScaleTargetRef.Kind; r != nil && *r != "" {
		kind = *r
	}
	return av, kind
}
