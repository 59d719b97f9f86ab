package keda

// Issue 11's "must hold": every manifest kubefit accepts is accepted by KEDA's own CRD schema, CEL rule
// and admission webhook, and every one kubefit rejects for a rule that KEDA's admission enforces is
// rejected by them (kubefit may reject more, never less). The harness is upstream_harness_test.go.

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	kedav1 "github.com/kedacore/keda/v2/apis/keda/v1alpha1"
	k8sresource "k8s.io/apimachinery/pkg/api/resource"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
)

// admissionRule reports whether kubefit's error e stands for a check that KEDA's admission makes too
// (the API server's metadata validation, the CRD schema, its CEL rule, the webhook) for so. The other
// errors are checks of the scalers, the controller, the generated HPA or kubefit's capacity model, which
// KEDA's admission does not make (keda.md §3.8, §7.1).
func admissionRule(so ScaledObject, e *field.Error) bool {
	id, _, _ := strings.Cut(e.Detail, ":")
	p := e.Path.String()
	switch id {
	case "KSO-E1", "KSO-E4", "KSO-E5", "KSO-E6", "KSO-E7", "KSO-E8", "KSO-E17", "KSO-E20":
		return true
	case "KSO-E2": // the webhook checks the length; a custom HPA name that is no object name fails at reconcile
		return len(so.HPAName()) > 63
	case "KSO-E3": // an empty kind or apiVersion means apps/v1 Deployment to KEDA
		return !strings.HasSuffix(p, ".Kind") && !(strings.HasSuffix(p, ".APIVersion") && e.Value == "")
	case "KSO-E9":
		switch {
		case strings.HasSuffix(p, ".ActivationTarget"): // parsed at runtime
			return false
		case strings.Contains(e.Detail, "does not return a number"): // the result type matters at runtime
			return false
		case strings.HasSuffix(p, ".Target"):
			// The webhook lets NaN through (it only rejects f <= 0), and a positive target whose milli-units the
			// controller's HPA cannot take (below 0.001, or beyond int64) fails when the HPA is made.
			if f, err := strconv.ParseFloat(e.Value, 64); err == nil && (math.IsNaN(f) || f > 0) {
				return false
			}
		case strings.HasSuffix(p, ".MetricType"): // the CRD enum
			return true
		}
		m := so.Advanced.ScalingModifiers // KEDA skips a scalingModifiers whose fields are all empty
		return str(m.Formula) != "" || str(m.Target) != "" || str(m.ActivationTarget) != "" || str(m.MetricType) != ""
	case "KSO-E11", "KSO-E12":
		// The webhook checks cpu/memory triggers only on Deployment and StatefulSet targets, and from 2.21
		// counts pod-level requests for a trigger without containerName whatever the Kubernetes version.
		av, kind := so.normalisedTarget()
		if av != "apps/v1" || kind != "Deployment" && kind != "StatefulSet" {
			return false
		}
		return id == "KSO-E12" || !podLevelCounts(so, e.Path)
	case "KSO-E14":
		// KEDA's kustomize patch bounds stabilizationWindowSeconds in the CRD, whose int32 format bounds a
		// policy's value and period; the rest is the HPA's to reject.
		if strings.HasSuffix(p, ".StabilizationWindowSeconds") {
			return true
		}
		n, err := strconv.ParseInt(e.Value, 10, 64)
		return err == nil && (strings.HasSuffix(p, ".Value") || strings.HasSuffix(p, ".PeriodSeconds")) && (n < math.MinInt32 || n > math.MaxInt32)
	case "KSO-E18": // the CRD's quantity pattern; a negative tolerance is the HPA's to reject
		_, err := k8sresource.ParseQuantity(e.Value)
		return err != nil
	case "KSO-E19": // the CRD's kind enum; an empty name is allowed by the CRD
		return strings.HasSuffix(p, ".Kind")
	}
	return false
}

// podLevelCounts reports whether the cpu/memory trigger at p has no containerName and the pod declares a
// pod-level request or limit for its resource.
func podLevelCounts(so ScaledObject, p field.Path) bool {
	steps := p.Steps()
	if len(steps) < 2 || steps[0].Name != "Triggers" || steps[1].Kind != field.Index || so.TargetWorkload == nil {
		return false
	}
	t := so.Triggers[steps[1].Index]
	r := so.TargetWorkload.PodTemplate.PodResources
	return t.Metadata["containerName"] == "" && r != nil && (positive(r.Requests[t.Type]) || positive(r.Limits[t.Type]))
}

// agreement checks one ScaledObject: kubefit accepts ⇒ KEDA admits; kubefit fails an admission rule ⇒ KEDA
// rejects; and KEDA rejects ⇒ kubefit fails an admission rule (so the classification above is exact and
// no KEDA rejection hides behind a kubefit rule of another kind).
func agreement(t *testing.T, u *upstream, label string, so ScaledObject) (verdict, error) {
	t.Helper()
	res, err := Plan(so)
	if res == nil {
		t.Fatalf("%s: no result: %v", label, err)
	}
	v := u.admitPlanned(t, so, nil, nil)
	var adm []string
	for _, e := range field.As(err) {
		if admissionRule(so, e) {
			adm = append(adm, e.Detail)
		}
	}
	switch {
	case err == nil && v.rejected():
		t.Errorf("%s: kubefit accepts, KEDA %s: %v\n%s", label, v.layer, v, res.YAML)
	case len(adm) > 0 && !v.rejected():
		t.Errorf("%s: kubefit fails an admission rule but KEDA admits it:\n  %s\n%s", label, strings.Join(adm, "\n  "), res.YAML)
	case len(adm) == 0 && v.rejected():
		t.Errorf("%s: KEDA rejects (%v) but kubefit gives no admission rule (errors: %v)\n%s", label, v, err, res.YAML)
	}
	return v, err
}

// TestKEDAUpstreamVersion: the KEDA module the comparison uses is the version kubefit's rules default to.
func TestKEDAUpstreamVersion(t *testing.T) {
	u := loadUpstream(t)
	if !strings.HasPrefix(u.version, "v"+DefaultKEDAVersion+".") {
		t.Fatalf("go.mod has %s %s but kubefit's default rules are KEDA %s: move them together", kedaModule, u.version, DefaultKEDAVersion)
	}
}

// TestKEDAControls shows that the harness can fail: KEDA's validators reject bad objects (negative
// controls) and admit base() (positive control), each layer and KEDA's pure checks on their own.
func TestKEDAControls(t *testing.T) {
	u := loadUpstream(t)
	if v := u.admitPlanned(t, base(), nil, nil); v.rejected() {
		t.Fatalf("base(): %v", v)
	}
	layers := []struct {
		name  string
		edit  func(*ScaledObject)
		layer string
	}{
		{"no triggers (CRD minItems)", func(s *ScaledObject) { s.Triggers = []Trigger{} }, "apiserver"},
		{"upper-case name (object metadata)", func(s *ScaledObject) { s.Name = "API" }, "apiserver"},
		{"max 0 (CRD minimum)", func(s *ScaledObject) { s.MaxReplicaCount = ptr(int64(0)) }, "apiserver"},
		{"max 2^31 (int32)", func(s *ScaledObject) { s.MaxReplicaCount = ptr(int64(1) << 31) }, "apiserver"},
		{"stabilization 3601 (kustomize patch)", func(s *ScaledObject) {
			s.Advanced = &Advanced{HorizontalPodAutoscalerConfig: &HPAConfig{Behavior: &Behavior{ScaleUp: &ScalingRules{StabilizationWindowSeconds: ptr(int64(3601))}}}}
		}, "apiserver"},
		{"tolerance 5% (CRD pattern)", func(s *ScaledObject) {
			s.Advanced = &Advanced{HorizontalPodAutoscalerConfig: &HPAConfig{Behavior: &Behavior{ScaleUp: &ScalingRules{Tolerance: ptr("5%")}}}}
		}, "apiserver"},
		{"min 5 > max 2 (CEL)", func(s *ScaledObject) { s.MinReplicaCount, s.MaxReplicaCount = ptr(int64(5)), ptr(int64(2)) }, "cel"},
		{"min 150, max unset (CEL)", func(s *ScaledObject) { s.MinReplicaCount, s.MaxReplicaCount = ptr(int64(150)), nil }, "cel"},
		{"idle 0, min unset (webhook bounds)", func(s *ScaledObject) { s.MinReplicaCount, s.IdleReplicaCount = nil, ptr(int64(0)) }, "webhook"},
		{"name of 64 (webhook)", func(s *ScaledObject) { s.Name = strings.Repeat("a", 64) }, "webhook"},
		{"name of 55 (webhook HPA name)", func(s *ScaledObject) { s.Name = strings.Repeat("a", 55) }, "webhook"},
		{"duplicate trigger names (webhook)", func(s *ScaledObject) { s.Triggers = []Trigger{prom("a"), prom("a")} }, "webhook"},
		{"fallback on cpu only (webhook)", func(s *ScaledObject) {
			s.Triggers = []Trigger{cpu("", ptr("Utilization"))}
			s.Fallback = &Fallback{FailureThreshold: 3, Replicas: 2}
		}, "webhook"},
		{"formula a + b (webhook)", func(s *ScaledObject) {
			s.Triggers = []Trigger{prom("a")}
			s.Advanced = &Advanced{ScalingModifiers: &ScalingModifiers{Formula: ptr("a + b"), Target: ptr("2")}}
		}, "webhook"},
		{"cpu without requests (webhook, fake cluster)", func(s *ScaledObject) {
			s.Triggers = []Trigger{cpu("", ptr("Utilization"))}
			withWorkload(s, Container{Name: "app"})
		}, "webhook"},
	}
	for _, l := range layers {
		so := base()
		l.edit(&so)
		if v := u.admitPlanned(t, so, nil, nil); v.layer != l.layer {
			t.Errorf("%s: want a rejection by the %s, got %v", l.name, l.layer, v)
		}
	}
	// The same cpu trigger is admitted once the container requests cpu: the fake cluster is read.
	so := base()
	so.Triggers = []Trigger{cpu("", ptr("Utilization"))}
	withWorkload(&so, Container{Name: "app", Requests: map[string]string{"cpu": "100m"}})
	if v := u.admitPlanned(t, so, nil, nil); v.rejected() {
		t.Errorf("cpu with a request: %v", v)
	}

	// KEDA's exported pure checks, called directly.
	bad := &kedav1.ScaledObject{Spec: kedav1.ScaledObjectSpec{MinReplicaCount: ptr(int32(5)), MaxReplicaCount: ptr(int32(2)),
		Triggers: []kedav1.ScaleTriggers{{Type: "cpu"}}, Fallback: &kedav1.Fallback{FailureThreshold: 3, Replicas: 1},
		Advanced: &kedav1.AdvancedConfig{ScalingModifiers: kedav1.ScalingModifiers{Formula: "a + b", Target: "1"}}}}
	if kedav1.CheckReplicaCountBoundsAreValid(bad) == nil {
		t.Error("CheckReplicaCountBoundsAreValid admits min 5 > max 2")
	}
	if kedav1.ValidateTriggers(nil) == nil || kedav1.ValidateTriggers([]kedav1.ScaleTriggers{{Type: "a", Name: "x"}, {Type: "b", Name: "x"}}) == nil {
		t.Error("ValidateTriggers admits no triggers or duplicate names")
	}
	if _, err := kedav1.ValidateAndCompileScalingModifiers(bad); err == nil {
		t.Error("ValidateAndCompileScalingModifiers admits a formula over an undefined trigger")
	}
	bad.Spec.Advanced = nil
	if kedav1.CheckFallbackValid(bad) == nil {
		t.Error("CheckFallbackValid admits fallback with only a cpu trigger")
	}
}

// TestKEDAAgreesOnVectors runs every vector of keda_test.go (§7.5 and the rule table) and the KEDA edge
// cases below through both. Vectors for older KEDA versions are skipped: only the version go.mod
// holds can run.
func TestKEDAAgreesOnVectors(t *testing.T) {
	u := loadUpstream(t)
	var cases []vector
	cases = append(cases, sectionVectors()...)
	for _, r := range ruleCases() {
		cases = append(cases, vector{name: r.name, edit: r.edit})
	}
	cases = append(cases, edgeVectors()...)
	ran, admitted := 0, 0
	for _, c := range cases {
		so := base()
		c.edit(&so)
		if so.KEDAVersion != "" && so.KEDAVersion != DefaultKEDAVersion {
			continue
		}
		v, _ := agreement(t, u, c.name, so)
		ran++
		if !v.rejected() {
			admitted++
		}
	}
	t.Logf("%d vectors, %d admitted by KEDA %s", ran, admitted, u.version)
}

// edgeVectors are KEDA behaviours the other tables do not reach.
func edgeVectors() []vector {
	mod := func(formula, target string, triggers ...Trigger) func(*ScaledObject) {
		return func(s *ScaledObject) {
			s.Triggers = triggers
			s.Advanced = &Advanced{ScalingModifiers: &ScalingModifiers{Formula: ptr(formula), Target: ptr(target)}}
		}
	}
	return []vector{
		{name: "formula with ?? and a string result", edit: mod(`"x" ?? a`, "2", prom("a"))},
		{name: "formula with ?? and a let", edit: mod("let y = a; y ?? 2", "2", prom("a"))},
		{name: "formula with ?? over a nil", edit: mod("nil ?? a", "2", prom("a"))},
		{name: "formula starting with float(", edit: mod("float(a) * 2", "2", prom("a"))},
		{name: "formula of a ternary", edit: mod("a > 0 ? a : 1", "2", prom("a"))},
		{name: "formula over a cpu trigger named like a prometheus one", edit: mod("a", "2", cpu("a", ptr("Utilization")), prom("b"))},
		{name: "only empty modifiers", edit: func(s *ScaledObject) {
			s.Advanced = &Advanced{ScalingModifiers: &ScalingModifiers{Formula: ptr("")}}
		}},
		{name: "modifiers metricType empty", edit: func(s *ScaledObject) {
			s.Triggers = []Trigger{prom("a")}
			s.Advanced = &Advanced{ScalingModifiers: &ScalingModifiers{Formula: ptr("a"), Target: ptr("2"), MetricType: ptr("")}}
		}},
		{name: "fallback scalingModifiers with a formula", edit: func(s *ScaledObject) {
			mod("a ?? 1", "2", prom("a"))(s)
			s.Fallback = &Fallback{FailureThreshold: 1, Replicas: 2, Behavior: ptr("scalingModifiers")}
		}},
		{name: "fallback behavior empty", edit: func(s *ScaledObject) { s.Fallback = &Fallback{Replicas: 2, Behavior: ptr("")} }},
		{name: "fallback failureThreshold -1", edit: func(s *ScaledObject) { s.Fallback = &Fallback{FailureThreshold: -1, Replicas: 2} }},
		{name: "fallback on cron only", edit: func(s *ScaledObject) {
			s.Triggers = []Trigger{{Type: "cron", Metadata: map[string]string{}}}
			s.Fallback = &Fallback{FailureThreshold: 1, Replicas: 2}
		}},
		{name: "cached cron", edit: func(s *ScaledObject) {
			s.Triggers = []Trigger{{Type: "cron", UseCachedMetrics: ptr(true), Metadata: map[string]string{}}}
		}},
		{name: "trigger type empty", edit: func(s *ScaledObject) { s.Triggers[0].Type = "" }},
		{name: "auth name empty", edit: func(s *ScaledObject) { s.Triggers[0].AuthenticationRef = &AuthenticationRef{} }},
		{name: "auth kind cluster", edit: func(s *ScaledObject) {
			s.Triggers[0].AuthenticationRef = &AuthenticationRef{Name: "a", Kind: ptr("ClusterTriggerAuthentication")}
		}},
		{name: "kind set but empty", edit: func(s *ScaledObject) { s.ScaleTargetRef.Kind = ptr("") }},
		{name: "apiVersion v1", edit: func(s *ScaledObject) { s.ScaleTargetRef.APIVersion = ptr("v1") }},
		{name: "apiVersion empty", edit: func(s *ScaledObject) { s.ScaleTargetRef.APIVersion = ptr("") }},
		{name: "cpu only on a Rollout at min 0", edit: func(s *ScaledObject) {
			s.ScaleTargetRef.APIVersion, s.ScaleTargetRef.Kind = ptr("argoproj.io/v1alpha1"), ptr("Rollout")
			s.MinReplicaCount = ptr(int64(0))
			s.Triggers = []Trigger{cpu("", ptr("Utilization"))}
		}},
		{name: "cpu only on a StatefulSet at min 0", edit: func(s *ScaledObject) {
			s.ScaleTargetRef.Kind = ptr("StatefulSet")
			s.MinReplicaCount = ptr(int64(0))
			s.Triggers = []Trigger{cpu("", ptr("Utilization"))}
		}},
		{name: "memory without memory request on a StatefulSet", edit: func(s *ScaledObject) {
			s.ScaleTargetRef.Kind = ptr("StatefulSet")
			s.Triggers = []Trigger{prom(""), {Type: "memory", MetricType: ptr("AverageValue"), Metadata: map[string]string{"value": "1Gi"}}}
			withWorkload(s, Container{Name: "app", Requests: map[string]string{"cpu": "1"}})
		}},
		{name: "cpu with a LimitRange default", edit: func(s *ScaledObject) {
			s.Triggers = []Trigger{cpu("", ptr("Utilization"))}
			withWorkload(s, Container{Name: "app"})
			s.NamespaceLimitRangeDefaults = map[string]string{"cpu": "100m"}
		}},
		{name: "cpu with pod-level requests on Kubernetes 1.35", edit: func(s *ScaledObject) {
			s.KubernetesVersion = "1.35"
			s.Triggers = []Trigger{cpu("", ptr("Utilization"))}
			withWorkload(s, Container{Name: "app"})
			s.TargetWorkload.PodTemplate.PodResources = &PodResources{Requests: map[string]string{"cpu": "1"}}
		}},
		{name: "second container without requests", edit: func(s *ScaledObject) {
			s.Triggers = []Trigger{cpu("", ptr("Utilization"))}
			withWorkload(s, Container{Name: "app", Requests: map[string]string{"cpu": "1"}}, Container{Name: "side"})
		}},
		{name: "two containers of the containerName, one without the request", edit: func(s *ScaledObject) {
			c := cpu("", ptr("Utilization"))
			c.Metadata["containerName"] = "app"
			s.Triggers = []Trigger{c}
			withWorkload(s, Container{Name: "app"}, Container{Name: "app", Requests: map[string]string{"cpu": "1"}})
		}},
		{name: "containerName picks the container with requests", edit: func(s *ScaledObject) {
			c := cpu("", ptr("Utilization"))
			c.Metadata["containerName"] = "app"
			s.Triggers = []Trigger{c}
			withWorkload(s, Container{Name: "app", Requests: map[string]string{"cpu": "1"}}, Container{Name: "side"})
		}},
		{name: "namespace of 64", edit: func(s *ScaledObject) { s.Namespace = strings.Repeat("n", 64) }},
		{name: "name of 63 with a custom HPA name", edit: func(s *ScaledObject) {
			s.Name = strings.Repeat("a", 63)
			s.Advanced = &Advanced{HorizontalPodAutoscalerConfig: &HPAConfig{Name: ptr("short")}}
		}},
		{name: "custom HPA name of 64", edit: func(s *ScaledObject) {
			s.Advanced = &Advanced{HorizontalPodAutoscalerConfig: &HPAConfig{Name: ptr(strings.Repeat("h", 64))}}
		}},
		{name: "custom HPA name empty", edit: func(s *ScaledObject) {
			s.Advanced = &Advanced{HorizontalPodAutoscalerConfig: &HPAConfig{Name: ptr("")}}
		}},
		{name: "annotation key invalid", edit: func(s *ScaledObject) { s.Annotations = map[string]string{"a b": "x"} }},
		{name: "label key with prefix", edit: func(s *ScaledObject) { s.Labels = map[string]string{"example.com/team": "x"} }},
		{name: "tolerance negative", edit: func(s *ScaledObject) {
			s.Advanced = &Advanced{HorizontalPodAutoscalerConfig: &HPAConfig{Behavior: &Behavior{ScaleDown: &ScalingRules{Tolerance: ptr("-0.1")}}}}
		}},
		{name: "tolerance 50m", edit: func(s *ScaledObject) {
			s.Advanced = &Advanced{HorizontalPodAutoscalerConfig: &HPAConfig{Behavior: &Behavior{ScaleDown: &ScalingRules{Tolerance: ptr("50m")}}}}
		}},
		{name: "policies empty", edit: func(s *ScaledObject) {
			s.Advanced = &Advanced{HorizontalPodAutoscalerConfig: &HPAConfig{Behavior: &Behavior{ScaleDown: &ScalingRules{Policies: []Policy{}}}}}
		}},
		{name: "stabilization -1", edit: func(s *ScaledObject) {
			s.Advanced = &Advanced{HorizontalPodAutoscalerConfig: &HPAConfig{Behavior: &Behavior{ScaleDown: &ScalingRules{StabilizationWindowSeconds: ptr(int64(-1))}}}}
		}},
		{name: "restore to original count", edit: func(s *ScaledObject) { s.Advanced = &Advanced{RestoreToOriginalReplicaCount: ptr(false)} }},
		{name: "every count at its lowest", edit: func(s *ScaledObject) {
			s.PollingInterval, s.InitialCooldownPeriod, s.CooldownPeriod = ptr(int64(1)), ptr(int64(0)), ptr(int64(0))
			s.IdleReplicaCount, s.MinReplicaCount, s.MaxReplicaCount = ptr(int64(0)), ptr(int64(0)), ptr(int64(1))
		}},
		{name: "every count at 2^31-1", edit: func(s *ScaledObject) {
			m := ptr(int64(1<<31 - 1))
			s.PollingInterval, s.InitialCooldownPeriod, s.CooldownPeriod, s.MinReplicaCount, s.MaxReplicaCount = m, m, m, m, m
		}},
	}
}

// TestKEDACrossObject compares KSO-E17 with the webhook's checks of other ScaledObjects and HPAs: kubefit
// checks the set, KEDA validates the first object with the HPAs in the cluster, then the second with the
// first and the HPAs.
func TestKEDACrossObject(t *testing.T) {
	u := loadUpstream(t)
	named := func(name, target string, edit func(*ScaledObject)) ScaledObject {
		so := base()
		so.Name, so.ScaleTargetRef.Name = name, target
		if edit != nil {
			edit(&so)
		}
		return so
	}
	hpaName := func(n string) func(*ScaledObject) {
		return func(s *ScaledObject) { s.Advanced = &Advanced{HorizontalPodAutoscalerConfig: &HPAConfig{Name: ptr(n)}} }
	}
	transfer := func(s *ScaledObject) {
		s.Annotations = map[string]string{"scaledobject.keda.sh/transfer-hpa-ownership": "true"}
	}
	// existing is an HPA named name on Deployment api in namespace shop.
	existing := func(name string) []ExistingHPA {
		return []ExistingHPA{{Namespace: "shop", Name: name, TargetAPIVersion: "apps/v1", TargetKind: "Deployment", TargetName: "api"}}
	}
	f := false
	cases := []struct {
		name   string
		first  *ScaledObject
		second ScaledObject
		hpas   []ExistingHPA
	}{
		{"same target, apiVersion unset and apps/v1", ptr(named("a", "api", nil)),
			named("b", "api", func(s *ScaledObject) { s.ScaleTargetRef.APIVersion = ptr("apps/v1") }), nil},
		{"Deployment and StatefulSet of one name", ptr(named("a", "api", nil)),
			named("b", "api", func(s *ScaledObject) { s.ScaleTargetRef.Kind = ptr("StatefulSet") }), nil},
		{"one HPA name for two targets", ptr(named("a", "api", hpaName("h"))), named("b", "web", hpaName("h")), nil},
		{"custom HPA name equal to another's default", ptr(named("a", "api", nil)), named("b", "web", hpaName("keda-hpa-a")), nil},
		{"different targets", ptr(named("a", "api", nil)), named("b", "web", nil), nil},
		{"existing HPA on the target", nil, named("b", "api", nil), existing("legacy")},
		{"existing HPA opted out", nil, named("b", "api", nil),
			[]ExistingHPA{{Namespace: "shop", Name: "legacy", TargetAPIVersion: "apps/v1", TargetKind: "Deployment", TargetName: "api", OwnershipValidation: &f}}},
		{"existing HPA owned by it", nil, named("b", "api", nil),
			[]ExistingHPA{{Namespace: "shop", Name: "keda-hpa-b", TargetAPIVersion: "apps/v1", TargetKind: "Deployment", TargetName: "api", OwnerScaledObject: "b"}}},
		{"existing HPA transferred", nil, named("b", "api", func(s *ScaledObject) { hpaName("legacy")(s); transfer(s) }), existing("legacy")},
		{"existing HPA of the default name, transfer without a custom name", nil, named("b", "api", transfer), existing("keda-hpa-b")},
		{"existing HPA of the default name, transfer with it as the custom name", nil,
			named("b", "api", func(s *ScaledObject) { hpaName("keda-hpa-b")(s); transfer(s) }), existing("keda-hpa-b")},
		{"existing HPA, transfer without its name", nil, named("b", "api", transfer), existing("legacy")},
		{"existing HPA on a StatefulSet of the name", nil, named("b", "api", nil),
			[]ExistingHPA{{Namespace: "shop", Name: "legacy", TargetAPIVersion: "apps/v1", TargetKind: "StatefulSet", TargetName: "api"}}},
		{"existing HPA in another namespace", nil, named("b", "api", nil),
			[]ExistingHPA{{Namespace: "other", Name: "legacy", TargetAPIVersion: "apps/v1", TargetKind: "Deployment", TargetName: "api"}}},
	}
	for _, c := range cases {
		var sums []Summary
		var others []ScaledObject
		if c.first != nil {
			r, err := Plan(*c.first)
			if err != nil {
				t.Fatalf("%s: first: %v", c.name, err)
			}
			sums, others = append(sums, r.Summary), append(others, *c.first)
		}
		r, err := Plan(c.second)
		if err != nil {
			t.Fatalf("%s: second: %v", c.name, err)
		}
		_, err = CheckAll(Check{ScaledObjects: append(sums, r.Summary), ExistingHPAs: c.hpas})
		var v verdict
		if c.first != nil {
			v = u.admitPlanned(t, *c.first, nil, c.hpas)
		}
		if !v.rejected() {
			v = u.admitPlanned(t, c.second, others, c.hpas)
		}
		if (err != nil) != v.rejected() {
			t.Errorf("%s: kubefit %v; KEDA %v", c.name, err, v)
		} else if err != nil && (v.layer != "webhook" || !strings.HasPrefix(err.Error(), "KSO-E17")) {
			t.Errorf("%s: kubefit %v; KEDA %v", c.name, err, v)
		}
	}
}

// TestKEDACrossObjectGenerated compares KSO-E17 with the webhook on generated pairs of valid
// ScaledObjects and generated existing HPAs.
func TestKEDACrossObjectGenerated(t *testing.T) {
	u := loadUpstream(t)
	gen := func(r *rand.Rand) ScaledObject {
		so := base()
		so.Name = pick(r, "a", "b", "web")
		so.ScaleTargetRef = ScaleTargetRef{Name: pick(r, "api", "web"), APIVersion: optStr(r, "apps/v1", "argoproj.io/v1alpha1"),
			Kind: optStr(r, "Deployment", "StatefulSet", "Rollout")}
		if r.IntN(3) == 0 {
			so.Advanced = &Advanced{HorizontalPodAutoscalerConfig: &HPAConfig{Name: optStr(r, "h", "keda-hpa-a", "keda-hpa-b", "legacy")}}
		}
		if r.IntN(4) == 0 {
			so.Annotations = map[string]string{"scaledobject.keda.sh/transfer-hpa-ownership": pick(r, "true", "false")}
		}
		return so
	}
	rejected := 0
	for i := range 1000 {
		r := rand.New(rand.NewPCG(uint64(i), 17))
		var others []ScaledObject
		var sums []Summary
		if r.IntN(3) > 0 {
			first := gen(r)
			res, err := Plan(first)
			if err != nil {
				t.Fatalf("seed %d: first: %v", i, err)
			}
			others, sums = append(others, first), append(sums, res.Summary)
		}
		so := gen(r)
		if len(others) > 0 && others[0].Name == so.Name {
			continue // an update of the same object, not a second one
		}
		res, err := Plan(so)
		if err != nil {
			t.Fatalf("seed %d: %v", i, err)
		}
		var hpas []ExistingHPA
		for range r.IntN(2) {
			h := ExistingHPA{Namespace: pick(r, "shop", "other"), Name: pick(r, "legacy", "h", "keda-hpa-a"), TargetName: pick(r, "api", "web"),
				TargetAPIVersion: pick(r, "", "apps/v1", "argoproj.io/v1alpha1"), TargetKind: pick(r, "", "Deployment", "StatefulSet", "Rollout"),
				OwnerScaledObject: pick(r, "", "", "a", "b")}
			if r.IntN(4) == 0 {
				h.OwnershipValidation = ptr(false)
			}
			hpas = append(hpas, h)
		}
		// kubefit checks the set; KEDA admits it if it admits the objects created one after the other.
		_, kerr := CheckAll(Check{ScaledObjects: append(sums, res.Summary), ExistingHPAs: hpas})
		var v verdict
		if len(others) > 0 {
			v = u.admitPlanned(t, others[0], nil, hpas)
		}
		if !v.rejected() {
			v = u.admitPlanned(t, so, others, hpas)
		}
		if (kerr != nil) != v.rejected() {
			t.Errorf("seed %d: kubefit %v; KEDA %v\nfirst %+v\nsecond %+v\nHPAs %+v", i, kerr, v, others, so, hpas)
		}
		if v.rejected() {
			rejected++
		}
	}
	if rejected < 50 {
		t.Errorf("only %d conflicts generated", rejected)
	}
}

// pick returns one of xs.
func pick[T any](r *rand.Rand, xs ...T) T { return xs[r.IntN(len(xs))] }

func optInt(r *rand.Rand) *int64 {
	vals := []int64{-1, 0, 0, 1, 1, 2, 3, 5, 10, 100, 101, 150, 1<<31 - 1, 1 << 31}
	if r.IntN(4) == 0 {
		return nil
	}
	return ptr(pick(r, vals...))
}

func optStr(r *rand.Rand, xs ...string) *string {
	if r.IntN(3) == 0 {
		return nil
	}
	return ptr(pick(r, xs...))
}

func genTrigger(r *rand.Rand) Trigger {
	t := Trigger{Type: pick(r, "prometheus", "prometheus", "cpu", "memory", "cron", "kafka", ""),
		Name: optStr(r, "", "a", "b", "x", "a-b"), MetricType: optStr(r, "", "AverageValue", "Value", "Utilization", "Bogus")}
	if r.IntN(4) == 0 {
		t.UseCachedMetrics = ptr(r.IntN(2) == 0)
	}
	switch t.Type {
	case "prometheus":
		t.Metadata = prom("").Metadata
		if r.IntN(3) == 0 {
			t.Metadata["threshold"] = pick(r, "0.0004", "0.0005", "1", "abc", "")
		}
	case "cpu", "memory":
		t.Metadata = map[string]string{"value": pick(r, "70", "512Mi", "70%", "")}
		if r.IntN(3) == 0 {
			t.Metadata["containerName"] = pick(r, "app", "side", "nope")
		}
	default:
		t.Metadata = map[string]string{}
	}
	if r.IntN(5) == 0 {
		t.AuthenticationRef = &AuthenticationRef{Name: pick(r, "auth", ""), Kind: optStr(r, "TriggerAuthentication", "ClusterTriggerAuthentication", "Secret", "")}
	}
	return t
}

func genRules(r *rand.Rand) *ScalingRules {
	if r.IntN(2) == 0 {
		return nil
	}
	rules := &ScalingRules{SelectPolicy: optStr(r, "Max", "Min", "Disabled", "max", "")}
	if r.IntN(2) == 0 {
		rules.StabilizationWindowSeconds = ptr(pick(r, int64(-1), 0, 300, 3600, 3601))
	}
	switch r.IntN(3) {
	case 0:
		rules.Policies = []Policy{}
	case 1:
		rules.Policies = []Policy{{Type: pick(r, "Pods", "Percent", "pods"), Value: pick(r, int64(0), 1, 4, 1<<31), PeriodSeconds: pick(r, int64(0), 1, 15, 1800, 1801)}}
	}
	rules.Tolerance = optStr(r, "0.05", "50m", "-0.1", "5%", "1e-3", "", ".5", "1.", "+1", "0x1", "1E3", "1e", "Inf", "1Ki", "0.5Mi", "1e400")
	return rules
}

var formulas = []string{"a", "a + b", "a * 2", "x", "a ?? 1", `"s" ?? 1`, "float(a)", "float(a) > 0", "a > 0 ? 1 : 2",
	"let y = a; y ?? 2", "(a", "b ?? a", "a / 0", "", "1 + ", "a-b", "nil ?? a", "a ?? nil", "max(a, b)", "a > 0", "true ?? 1",
	`a ?? "x"`, "float(a ?? 1)", "1) + (a ?? 2", compositeLet + "a ?? 1; _kedaCompositeResult", "a % 2", "int(a)", "string(a)",
	"a ** 2", "a ?? 1 ? 2 : 3", "float(a) + float(", "abs(a)", "a ?? b ?? 1"}

// mutations change one part of a ScaledObject to a value drawn from pools of valid, boundary and invalid
// values.
var mutations = []func(*rand.Rand, *ScaledObject){
	func(r *rand.Rand, s *ScaledObject) {
		s.Name = pick(r, "api", "", "API", "a.b", "a-", "web-1", strings.Repeat("a", 54), strings.Repeat("a", 55), strings.Repeat("a", 63), strings.Repeat("a", 64))
	},
	func(r *rand.Rand, s *ScaledObject) {
		s.Namespace = pick(r, "shop", "", "a.b", "Shop", strings.Repeat("n", 63), strings.Repeat("n", 64))
	},
	func(r *rand.Rand, s *ScaledObject) {
		s.Labels = pick(r, map[string]string(nil), map[string]string{"team": "x"}, map[string]string{"bad key!": "v"},
			map[string]string{"a": "has space"}, map[string]string{"on": "yes"}, map[string]string{"a": strings.Repeat("v", 64)})
	},
	func(r *rand.Rand, s *ScaledObject) {
		s.Annotations = pick(r, map[string]string(nil), map[string]string{AnnotationPausedReplicas: "3"}, map[string]string{AnnotationPausedReplicas: "two"},
			map[string]string{"scaledobject.keda.sh/transfer-hpa-ownership": "true"}, map[string]string{"": "x"}, map[string]string{"a/b/c": "x"})
	},
	func(r *rand.Rand, s *ScaledObject) {
		s.ScaleTargetRef = ScaleTargetRef{Name: pick(r, "api", "", "Api_1"),
			APIVersion: optStr(r, "apps/v1", "", "a/b/c", "argoproj.io/v1alpha1", "v1", "/v1"),
			Kind:       optStr(r, "Deployment", "StatefulSet", "Rollout", ""), EnvSourceContainerName: optStr(r, "app", "")}
	},
	func(r *rand.Rand, s *ScaledObject) {
		*pick(r, &s.PollingInterval, &s.InitialCooldownPeriod, &s.CooldownPeriod) = optInt(r)
	},
	func(r *rand.Rand, s *ScaledObject) {
		*pick(r, &s.IdleReplicaCount, &s.MinReplicaCount, &s.MaxReplicaCount, &s.MinReplicaCount) = optInt(r)
	},
	func(r *rand.Rand, s *ScaledObject) {
		if s.Advanced == nil {
			s.Advanced = &Advanced{}
		}
		s.Advanced.RestoreToOriginalReplicaCount = pick(r, nil, ptr(true))
		s.Advanced.HorizontalPodAutoscalerConfig = &HPAConfig{Name: optStr(r, "", "h", "Bad_Name", strings.Repeat("h", 63), strings.Repeat("h", 64), "keda-hpa-api")}
		if r.IntN(2) == 0 {
			s.Advanced.HorizontalPodAutoscalerConfig.Behavior = &Behavior{ScaleUp: genRules(r), ScaleDown: genRules(r)}
		}
	},
	func(r *rand.Rand, s *ScaledObject) {
		if s.Advanced == nil {
			s.Advanced = &Advanced{}
		}
		s.Advanced.ScalingModifiers = &ScalingModifiers{Formula: optStr(r, formulas...), Target: optStr(r, "1", "2", "1.5", "0", "-1", "", "abc", "NaN", "Inf", "1e3", "0x1p4", " 1"),
			ActivationTarget: optStr(r, "1", "x", ""), MetricType: optStr(r, "AverageValue", "Value", "Utilization", "")}
		if r.IntN(2) == 0 {
			s.Triggers = []Trigger{prom("a"), prom("b")}
		}
	},
	func(r *rand.Rand, s *ScaledObject) {
		s.Triggers = nil
		for range r.IntN(4) {
			s.Triggers = append(s.Triggers, genTrigger(r))
		}
	},
	func(r *rand.Rand, s *ScaledObject) {
		s.Triggers = append(s.Triggers, genTrigger(r))
	},
	func(r *rand.Rand, s *ScaledObject) {
		s.Fallback = pick(r, (*Fallback)(nil), &Fallback{FailureThreshold: pick(r, int64(-1), 0, 3, 1<<31), Replicas: pick(r, int64(-1), 0, 2, 20),
			Behavior: optStr(r, "static", "currentReplicas", "currentReplicasIfHigher", "currentReplicasIfLower", "scalingModifiers", "bogus", "")})
	},
	func(r *rand.Rand, s *ScaledObject) {
		ct := func() Container {
			c := Container{Name: pick(r, "app", "side")}
			switch r.IntN(4) {
			case 0:
				c.Requests = map[string]string{"cpu": "500m", "memory": "256Mi"}
			case 1:
				c.Requests = map[string]string{"cpu": pick(r, "1", "0")}
			case 2:
				c.Limits = map[string]string{"memory": "1Gi", "cpu": "1"}
			}
			return c
		}
		if r.IntN(4) == 0 {
			s.TargetWorkload = nil
			return
		}
		s.TargetWorkload = &Workload{PodTemplate: PodTemplate{Containers: []Container{ct()}}}
		if r.IntN(2) == 0 {
			s.TargetWorkload.PodTemplate.Containers = append(s.TargetWorkload.PodTemplate.Containers, ct())
		}
		if r.IntN(3) == 0 {
			s.TargetWorkload.PodTemplate.PodResources = &PodResources{Requests: map[string]string{"cpu": "1", "memory": "1Gi"}}
		}
	},
	func(r *rand.Rand, s *ScaledObject) {
		s.NamespaceLimitRangeDefaults = pick(r, map[string]string(nil), map[string]string{"cpu": "100m"}, map[string]string{"memory": "0"})
	},
	func(r *rand.Rand, s *ScaledObject) { s.KubernetesVersion = pick(r, "", "1.33", "1.35") },
}

// generated derives a ScaledObject from base() by up to five random mutations.
func generated(r *rand.Rand) ScaledObject {
	so := base()
	for range r.IntN(6) {
		mutations[r.IntN(len(mutations))](r, &so)
	}
	return so
}

var (
	generatedN    = flag.Int("keda.generated", 3000, "how many generated ScaledObjects TestKEDAGenerated compares")
	generatedSeed = flag.Uint64("keda.seed", 11, "the second PCG seed of TestKEDAGenerated")
)

// TestKEDAGenerated compares kubefit and KEDA on generated ScaledObjects (fixed seeds, so failures
// reproduce; FuzzKEDAAgreement explores further).
func TestKEDAGenerated(t *testing.T) {
	u := loadUpstream(t)
	n := *generatedN
	if testing.Short() {
		n = min(n, 300)
	}
	layers := map[string]int{}
	for i := range n {
		r := rand.New(rand.NewPCG(uint64(i), *generatedSeed))
		v, _ := agreement(t, u, fmt.Sprintf("seed %d,%d", i, *generatedSeed), generated(r))
		layers[v.layer]++
		if t.Failed() && i > 0 && layers[""]+1 < i/10 {
			break
		}
	}
	t.Logf("%d generated ScaledObjects; KEDA admitted %d, rejected at decode %d, API server %d, CEL %d, webhook %d",
		n, layers[""], layers["decode"], layers["apiserver"], layers["cel"], layers["webhook"])
	if layers[""] < n/10 || layers["webhook"] < n/20 || layers["apiserver"] < n/20 {
		t.Errorf("the generator no longer reaches every layer: %v", layers)
	}
}

// FuzzKEDAAgreement is TestKEDAGenerated's comparison for fuzzed seeds (go test -fuzz FuzzKEDAAgreement).
func FuzzKEDAAgreement(f *testing.F) {
	for _, s := range []uint64{0, 1, 42, 1 << 40} {
		f.Add(s, uint64(11))
	}
	f.Fuzz(func(t *testing.T, s1, s2 uint64) {
		agreement(t, loadUpstream(t), fmt.Sprintf("seed %d,%d", s1, s2), generated(rand.New(rand.NewPCG(s1, s2))))
	})
}
