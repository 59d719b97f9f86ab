package keda

import (
	"bytes"
	"encoding/json"
	"strconv"

	yaml "go.yaml.in/yaml/v3"
)

// Object is an ordered JSON/YAML object: the rendered ScaledObject keeps keys in the order keda.md §8.4
// gives. Values are string, int64, bool, Object or []any.
type Object []Member

// Member is one key of an Object; User marks a user-supplied map key (quoted in YAML).
type Member struct {
	Key   string
	Value any
	User  bool
}

func (o *Object) set(k string, v any) { *o = append(*o, Member{Key: k, Value: v}) }

func (o *Object) setStr(k string, v *string) {
	if v != nil {
		o.set(k, *v)
	}
}

func (o *Object) setInt(k string, v *int64) {
	if v != nil {
		o.set(k, *v)
	}
}

func (o *Object) setBool(k string, v *bool) {
	if v != nil {
		o.set(k, *v)
	}
}

func (o *Object) setObj(k string, v Object) {
	if len(v) > 0 {
		o.set(k, v)
	}
}

func userMap(m map[string]string) Object {
	var o Object
	for _, k := range sortedKeys(m) {
		o = append(o, Member{Key: k, Value: m[k], User: true})
	}
	return o
}

// MarshalJSON writes the members in order.
func (o Object) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(m.Key)
		b.Write(k)
		b.WriteByte(':')
		v, err := json.Marshal(m.Value)
		if err != nil {
			return nil, err
		}
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// Render returns the ScaledObject as an ordered object (keda.md §8.4): only what is set, in KEDA's
// spelling; fallback.behavior is "static" when unset, as the CRD stores it; trigger metadata is {} when
// empty. kubefit-only inputs are never rendered.
func Render(so ScaledObject) Object {
	var meta Object
	meta.set("name", so.Name)
	meta.set("namespace", so.Namespace)
	meta.setObj("labels", userMap(so.Labels))
	meta.setObj("annotations", userMap(so.Annotations))

	var spec Object
	var ref Object
	ref.setStr("apiVersion", so.ScaleTargetRef.APIVersion)
	ref.setStr("kind", so.ScaleTargetRef.Kind)
	ref.set("name", so.ScaleTargetRef.Name)
	ref.setStr("envSourceContainerName", so.ScaleTargetRef.EnvSourceContainerName)
	spec.set("scaleTargetRef", ref)
	spec.setInt("pollingInterval", so.PollingInterval)
	spec.setInt("initialCooldownPeriod", so.InitialCooldownPeriod)
	spec.setInt("cooldownPeriod", so.CooldownPeriod)
	spec.setInt("idleReplicaCount", so.IdleReplicaCount)
	spec.setInt("minReplicaCount", so.MinReplicaCount)
	spec.setInt("maxReplicaCount", so.MaxReplicaCount)
	if a := so.Advanced; a != nil {
		var adv Object
		if h := a.HorizontalPodAutoscalerConfig; h != nil {
			var hc Object
			hc.setStr("name", h.Name)
			if b := h.Behavior; b != nil {
				var bo Object
				bo.setObj("scaleUp", renderRules(b.ScaleUp))
				bo.setObj("scaleDown", renderRules(b.ScaleDown))
				hc.setObj("behavior", bo)
			}
			adv.setObj("horizontalPodAutoscalerConfig", hc)
		}
		adv.setBool("restoreToOriginalReplicaCount", a.RestoreToOriginalReplicaCount)
		if m := a.ScalingModifiers; m != nil {
			var mo Object
			mo.setStr("formula", m.Formula)
			mo.setStr("target", m.Target)
			mo.setStr("activationTarget", m.ActivationTarget)
			mo.setStr("metricType", m.MetricType)
			adv.setObj("scalingModifiers", mo)
		}
		spec.setObj("advanced", adv)
	}
	if f := so.Fallback; f != nil {
		var fo Object
		fo.set("failureThreshold", f.FailureThreshold)
		fo.set("replicas", f.Replicas)
		behavior := "static"
		if f.Behavior != nil {
			behavior = *f.Behavior
		}
		fo.set("behavior", behavior)
		spec.set("fallback", fo)
	}
	triggers := make([]any, len(so.Triggers))
	for i, t := range so.Triggers {
		var to Object
		to.set("type", t.Type)
		to.setStr("name", t.Name)
		to.setStr("metricType", t.MetricType)
		to.setBool("useCachedMetrics", t.UseCachedMetrics)
		md := userMap(t.Metadata)
		if md == nil {
			md = Object{}
		}
		to.set("metadata", md)
		if r := t.AuthenticationRef; r != nil {
			var ro Object
			ro.set("name", r.Name)
			ro.setStr("kind", r.Kind)
			to.set("authenticationRef", ro)
		}
		triggers[i] = to
	}
	spec.set("triggers", triggers)

	var obj Object
	obj.set("apiVersion", APIVersion)
	obj.set("kind", Kind)
	obj.set("metadata", meta)
	obj.set("spec", spec)
	return obj
}

func renderRules(r *ScalingRules) Object {
	if r == nil {
		return nil
	}
	var o Object
	o.setInt("stabilizationWindowSeconds", r.StabilizationWindowSeconds)
	o.setStr("selectPolicy", r.SelectPolicy)
	if r.Policies != nil {
		ps := make([]any, len(r.Policies))
		for i, p := range r.Policies {
			var po Object
			po.set("type", p.Type)
			po.set("value", p.Value)
			po.set("periodSeconds", p.PeriodSeconds)
			ps[i] = po
		}
		o.set("policies", ps)
	}
	o.setStr("tolerance", r.Tolerance)
	return o
}

// YAML renders an Object as YAML: two-space block style, every string value and every user map key
// double-quoted with JSON escapes, schema keys bare, a final newline, no document marker.
func YAML(o Object) ([]byte, error) {
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(yamlNode(o)); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func yamlNode(v any) *yaml.Node {
	switch t := v.(type) {
	case Object:
		n := &yaml.Node{Kind: yaml.MappingNode}
		for _, m := range t {
			k := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: m.Key}
			if m.User {
				k.Style = yaml.DoubleQuotedStyle
			}
			n.Content = append(n.Content, k, yamlNode(m.Value))
		}
		if len(t) == 0 {
			n.Style = yaml.FlowStyle
		}
		return n
	case []any:
		n := &yaml.Node{Kind: yaml.SequenceNode}
		for _, e := range t {
			n.Content = append(n.Content, yamlNode(e))
		}
		if len(t) == 0 {
			n.Style = yaml.FlowStyle
		}
		return n
	case string:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: t, Style: yaml.DoubleQuotedStyle}
	case int64:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.FormatInt(t, 10)}
	case bool:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: strconv.FormatBool(t)}
	}
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}
}
