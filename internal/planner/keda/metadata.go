package keda

import (
	"math"
	"net/url"
	"strconv"
	"strings"
	"time"

	k8sresource "k8s.io/apimachinery/pkg/api/resource"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
)

func parseQuantity(s string) (k8sresource.Quantity, error) { return k8sresource.ParseQuantity(s) }

// ResourceMetadata is the typed metadata of a cpu or memory trigger.
type ResourceMetadata struct {
	// MetricType is Utilization or AverageValue (the trigger's metricType, or the deprecated metadata.type
	// before KEDA 2.18).
	MetricType string
	// UtilizationPercent is set for Utilization; AverageValue (a quantity) for AverageValue.
	UtilizationPercent int64
	AverageValue       k8sresource.Quantity
	ContainerName      string
}

// PrometheusMetadata is the typed metadata of a prometheus trigger.
type PrometheusMetadata struct {
	ServerAddress       *url.URL
	Query               string
	Threshold           float64
	ActivationThreshold float64
	Namespace           string
	CustomHeaders       map[string]string
	QueryParameters     map[string]string
	// IgnoreNullValues is nil when not set explicitly (KEDA's default is true).
	IgnoreNullValues *bool
	UnsafeSSL        bool
	Timeout          time.Duration
	AWSRegion        string
	IdentityOwner    string
	AuthModes        []string
}

var (
	resourceKeys   = []string{"value", "containerName", "type"}
	prometheusKeys = []string{"serverAddress", "query", "threshold", "activationThreshold", "namespace", "customHeaders",
		"queryParameters", "ignoreNullValues", "unsafeSsl", "timeout", "awsRegion", "identityOwner", "authModes"}
	authModes = []string{"apiKey", "basic", "tls", "bearer", "custom", "oauth"}
)

func (c *checker) unknownKeys(i int, t Trigger, known []string) {
	for _, k := range sortedKeys(t.Metadata) {
		if !contains(known, k) {
			c.warn("KSO-W7", field.NewPath("Triggers").At(i).Child("Metadata").Key(k),
				"%s trigger metadata key %s is not one KEDA knows; it is ignored (check the spelling)", t.Type, field.Quote(k))
		}
	}
}

// resourceTrigger checks a cpu or memory trigger (KSO-E10, KSO-E11, KSO-W10, KSO-W11).
func (c *checker) resourceTrigger(i int, t Trigger) {
	p := field.NewPath("Triggers").At(i)
	mp := p.Child("Metadata")
	md := ResourceMetadata{MetricType: str(t.MetricType), ContainerName: t.Metadata["containerName"]}
	legacy, hasLegacy := t.Metadata["type"]
	if hasLegacy && c.keda >= 18 {
		c.fail("KSO-E10", mp.Key("type"), legacy, "metadata type is no longer supported on %s triggers (removed in KEDA 2.18): set the trigger's metricType instead", t.Type)
	}
	if md.MetricType == "" && hasLegacy && c.keda < 18 {
		md.MetricType = legacy
	}
	switch md.MetricType {
	case "Utilization", "AverageValue":
	case "":
		c.fail("KSO-E10", p.Child("MetricType"), "", "a %s trigger needs metricType Utilization or AverageValue: KEDA fails with \"unknown metric type\" when it is empty", t.Type)
	default:
		c.fail("KSO-E10", p.Child("MetricType"), md.MetricType, "unknown metric type %s for a %s trigger: allowed values are Utilization or AverageValue", field.Quote(md.MetricType), t.Type)
	}
	v, ok := t.Metadata["value"]
	switch {
	case !ok || v == "":
		c.fail("KSO-E10", mp, "", "a %s trigger needs metadata value (a percentage for Utilization, a quantity for AverageValue)", t.Type)
	case md.MetricType == "Utilization":
		n, err := strconv.ParseInt(v, 10, 32)
		if err != nil {
			c.fail("KSO-E10", mp.Key("value"), v, "%s utilization value %s is not a whole percentage", t.Type, field.Quote(v))
		}
		md.UtilizationPercent = n
	case md.MetricType == "AverageValue":
		q, err := parseQuantity(v)
		if err != nil {
			c.fail("KSO-E10", mp.Key("value"), v, "%s average value %s is not a Kubernetes quantity (such as \"200m\" or \"512Mi\")", t.Type, field.Quote(v))
		}
		md.AverageValue = q
	}
	allowed := resourceKeys
	if c.keda >= 18 {
		allowed = resourceKeys[:2]
	}
	var unknown []string
	for _, k := range sortedKeys(t.Metadata) {
		if !contains(allowed, k) && k != "type" {
			unknown = append(unknown, k)
		}
	}
	for _, k := range unknown {
		c.warn("KSO-W7", mp.Key(k), "%s trigger metadata key %s is not one KEDA knows; it is ignored (check the spelling)", t.Type, field.Quote(k))
	}
	if t.Type == "memory" {
		c.warn("KSO-W11", p.Child("Type"), "memory usage rarely falls after load (caches, heaps, runtimes keep it), so the HPA may scale out on memory and never scale back in")
	}
	c.requests(i, t, md.ContainerName)
	if t.Type == "cpu" {
		c.reachability(i, md)
	}
}

// requests checks that the target's containers declare what a cpu or memory trigger divides by (§3.6).
func (c *checker) requests(i int, t Trigger, containerName string) {
	so := c.so
	_, kind := so.normalisedTarget()
	w := so.TargetWorkload
	p := field.NewPath("Triggers").At(i)
	if kind != "Deployment" && kind != "StatefulSet" && w == nil {
		c.warn("KSO-W10", p.Child("Type"),
			"the scale target is a %s: KEDA's webhook checks container requests only for Deployments and StatefulSets, and without the target's pod template kubefit cannot check them either", kind)
	}
	if w == nil {
		return
	}
	res := t.Type
	cs := w.PodTemplate.Containers
	if containerName != "" {
		// Every container of that name (a template may repeat one; KEDA's webhook checks them all).
		var named []Container
		for _, ct := range cs {
			if ct.Name == containerName {
				named = append(named, ct)
			}
		}
		cs = named
		if len(named) == 0 {
			c.fail("KSO-E10", p.Child("Metadata").Key("containerName"), containerName,
				"containerName %s is not a container of the target's pod template", field.Quote(containerName))
			return
		}
	}
	if positive(so.NamespaceLimitRangeDefaults[res]) {
		return
	}
	podLevel := w.PodTemplate.PodResources != nil && (positive(w.PodTemplate.PodResources.Requests[res]) || positive(w.PodTemplate.PodResources.Limits[res]))
	for _, ct := range cs {
		if positive(ct.Requests[res]) || positive(ct.Limits[res]) {
			continue
		}
		switch {
		case podLevel && containerName == "" && c.keda >= 21 && (c.kube == 0 || c.kube >= 34):
			continue
		case podLevel && containerName != "":
			c.fail("KSO-E11", p.Child("Metadata").Key("containerName"), containerName,
				"the scaledobject has a %s trigger on container %s, which doesn't have the %s request defined: with containerName the HPA divides by that container's own request, so pod-level requests do not count", res, field.Quote(ct.Name), res)
		case podLevel && c.keda < 21:
			c.fail("KSO-E11", p.Child("Type"), res,
				"the scaledobject has a %s trigger but the container %s doesn't have the %s request defined: KEDA 2.%d ignores pod-level requests, so its webhook will reject the object (accepted from 2.21 on Kubernetes 1.34+)", res, field.Quote(ct.Name), res, c.keda)
		case podLevel:
			c.fail("KSO-E11", p.Child("Type"), res,
				"the scaledobject has a %s trigger but the container %s doesn't have the %s request defined, and pod-level requests need Kubernetes 1.34 or newer (1.%d given)", res, field.Quote(ct.Name), res, c.kube)
		default:
			c.fail("KSO-E11", p.Child("Type"), res,
				"the scaledobject has a %s trigger but the container %s doesn't have the %s request defined: set a %s request (or limit) on it, or a LimitRange default in the namespace", res, field.Quote(ct.Name), res, res)
		}
	}
}

func positive(q string) bool {
	if q == "" {
		return false
	}
	v, err := parseQuantity(q)
	return err == nil && v.Sign() > 0
}

// ParsePrometheus returns the typed metadata of a prometheus trigger and the errors of its values, with
// paths below the trigger's Metadata. keda is the KEDA minor version (threshold rounding changed in 2.20).
func ParsePrometheus(md map[string]string, keda int) (PrometheusMetadata, field.Errors) {
	var out PrometheusMetadata
	var errs field.Errors
	p := field.NewPath("Metadata")
	fail := func(k, v, format string, args ...any) {
		errs = append(errs, rule("KSO-E15", p.Key(k), v, format, args...))
	}
	if v, ok := md["serverAddress"]; !ok || v == "" {
		errs = append(errs, rule("KSO-E15", p, "", "a prometheus trigger needs metadata serverAddress, the http(s) URL of the Prometheus API"))
	} else if u, err := url.Parse(v); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		fail("serverAddress", v, "prometheus serverAddress %s is not an absolute http:// or https:// URL", field.Quote(v))
	} else {
		out.ServerAddress = u
	}
	if v := md["query"]; strings.TrimSpace(v) == "" {
		errs = append(errs, rule("KSO-E15", p, "", "a prometheus trigger needs a non-empty metadata query"))
	} else {
		out.Query = v
	}
	if v, ok := md["threshold"]; !ok || v == "" {
		errs = append(errs, rule("KSO-E15", p, "", "a prometheus trigger needs metadata threshold, the target value per replica"))
	} else if f, err := strconv.ParseFloat(v, 64); err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		fail("threshold", v, "prometheus threshold %s is not a number", field.Quote(v))
	} else {
		out.Threshold = f
		milli := math.Floor(f * 1000)
		min := "0.001"
		if keda >= 20 {
			milli = math.Round(f * 1000)
			min = "0.0005"
		}
		if milli <= 0 {
			fail("threshold", v, "prometheus threshold %s becomes 0 milli-units in the HPA, which rejects a zero target: use at least %s", field.Quote(v), min)
		}
	}
	if v, ok := md["activationThreshold"]; ok {
		if f, err := strconv.ParseFloat(v, 64); err != nil {
			fail("activationThreshold", v, "prometheus activationThreshold %s is not a number", field.Quote(v))
		} else {
			out.ActivationThreshold = f
		}
	}
	for _, k := range []string{"ignoreNullValues", "unsafeSsl"} {
		if v, ok := md[k]; ok {
			b, err := strconv.ParseBool(v)
			if err != nil {
				fail(k, v, "prometheus %s %s is not a boolean (true or false)", k, field.Quote(v))
				continue
			}
			if k == "ignoreNullValues" {
				out.IgnoreNullValues = &b
			} else {
				out.UnsafeSSL = b
			}
		}
	}
	if v, ok := md["timeout"]; ok {
		if d, err := time.ParseDuration(v); err == nil {
			if d < 0 {
				fail("timeout", v, "prometheus timeout %s is negative", field.Quote(v))
			}
			out.Timeout = d
		} else if n, err := strconv.ParseInt(v, 10, 64); err == nil {
			if n < 0 {
				fail("timeout", v, "prometheus timeout %s is negative", field.Quote(v))
			}
			out.Timeout = time.Duration(n) * time.Millisecond
		} else {
			fail("timeout", v, "prometheus timeout %s is neither a duration (\"5s\") nor whole milliseconds", field.Quote(v))
		}
	}
	for _, k := range []string{"customHeaders", "queryParameters"} {
		v, ok := md[k]
		if !ok {
			continue
		}
		pairs := map[string]string{}
		for _, kv := range strings.Split(v, ",") {
			kv = strings.TrimSpace(kv)
			if kv == "" {
				continue
			}
			name, val, found := strings.Cut(kv, "=")
			if !found || strings.TrimSpace(name) == "" {
				fail(k, v, "prometheus %s %s is not of the form key1=value1,key2=value2", k, field.Quote(v))
				break
			}
			pairs[strings.TrimSpace(name)] = strings.TrimSpace(val)
		}
		if k == "customHeaders" {
			out.CustomHeaders = pairs
		} else {
			out.QueryParameters = pairs
		}
	}
	if v, ok := md["authModes"]; ok {
		exclusive := 0
		for _, m := range strings.Split(v, ",") {
			m = strings.TrimSpace(m)
			if m == "" {
				continue
			}
			if !contains(authModes, m) {
				fail("authModes", v, "prometheus auth mode %s is not one of %s", field.Quote(m), field.JoinAnd(quoteAll(authModes)))
				continue
			}
			if m == "bearer" || m == "basic" || m == "oauth" {
				exclusive++
			}
			out.AuthModes = append(out.AuthModes, m)
		}
		if exclusive > 1 {
			fail("authModes", v, "prometheus authModes %s combines more than one of bearer, basic and oauth", field.Quote(v))
		}
	}
	out.Namespace, out.AWSRegion, out.IdentityOwner = md["namespace"], md["awsRegion"], md["identityOwner"]
	return out, errs
}

func (c *checker) prometheus(i int, t Trigger) {
	p := field.NewPath("Triggers").At(i)
	md, errs := ParsePrometheus(t.Metadata, c.keda)
	c.errs = append(c.errs, errs.Prefix(p)...)
	c.unknownKeys(i, t, prometheusKeys)
	if md.IgnoreNullValues == nil && (c.so.MinReplicaCount == nil || *c.so.MinReplicaCount == 0) {
		c.warn("KSO-W9", p.Child("Metadata"),
			"prometheus ignoreNullValues defaults to true: a query that returns nothing (exporter down, label typo) reads as 0 and, with minReplicaCount 0 or unset, quietly scales the workload to zero; set ignoreNullValues explicitly")
	}
}
