package hpa

import (
	"fmt"
	"strconv"
	"strings"

	autoscalingv2 "k8s.io/api/autoscaling/v2"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/keda"
)

// DefaultKubernetesVersion is the newest Kubernetes minor version the rules follow (the API server's
// validation of k8s.io/kubernetes v1.37); MinKubernetesVersion the oldest (autoscaling/v2 is GA from 1.23).
const (
	DefaultKubernetesVersion = "1.37"
	MinKubernetesVersion     = "1.23"
)

// Result is a checked and rendered HPA.
type Result struct {
	// Object is the typed HPA; Manifest its generic JSON value (without status) and YAML the same as YAML.
	Object    *autoscalingv2.HorizontalPodAutoscaler
	Manifest  map[string]any
	YAML      string
	Effective Effective
	// Summary is what kubefit_capacity_check takes (keda.Check's HPAs): HPAName is the HPA's own name.
	Summary  keda.Summary
	Warnings []field.Warning
}

// Plan checks h against the API server's rules for its Kubernetes version and feature gate, checks its peak
// against its node group and database, and renders it. The result is returned even with errors (with the
// warnings found); the error is a field.Errors, each on the path of the value at fault, whose details start
// with the rule ID ("HPA-E4: …", "KCAP-E2: …") except for a Kubernetes version kubefit does not cover and a
// capacity input that is not valid (a database without a connection limit), which are input errors.
func Plan(h HorizontalPodAutoscaler) (*Result, error) {
	c := newChecker(h)
	c.metadata()
	c.reference("HPA-E2", field.NewPath("ScaleTargetRef"), h.ScaleTargetRef, "scale target", true)
	c.replicas()
	c.metrics()
	c.behavior()
	res := &Result{Effective: Effective{MinReplicas: h.effectiveMin(), MaxReplicas: h.MaxReplicas,
		DefaultMetric: len(h.Metrics) == 0, ScaleToZero: c.scaleToZero}}
	res.Summary = c.summary()
	res.Object = Render(h)
	m, y, err := Manifest(res.Object)
	if err != nil {
		return nil, err
	}
	res.Manifest, res.YAML = m, y
	res.Warnings = c.warnings
	return res, c.errs.Err()
}

// CheckCounts checks only the replica counts of h (rules HPA-E3, HPA-E4 and HPA-E8), for a caller that knows
// them (and the metric types) before the rest of the HPA; it returns the errors Plan would give for them.
func CheckCounts(h HorizontalPodAutoscaler) field.Errors {
	c := newChecker(h)
	c.replicas()
	return c.errs
}

// CheckScaleTarget checks only the scale target reference of h (rule HPA-E2: kind and name set, apiVersion a
// group/version naming an API group), for a caller that reads an HPA rather than configures one; it returns the
// errors Plan would give for it.
func CheckScaleTarget(h HorizontalPodAutoscaler) field.Errors {
	c := newChecker(h)
	c.reference("HPA-E2", field.NewPath("ScaleTargetRef"), h.ScaleTargetRef, "scale target", true)
	return c.errs
}

func newChecker(h HorizontalPodAutoscaler) *checker {
	c := &checker{h: h, kube: 37}
	if kmin, err := kubeMinor(h.KubernetesVersion); err != nil {
		c.errs = append(c.errs, err)
	} else {
		c.kube = kmin
	}
	c.scaleToZero = c.kube >= 37
	if h.ScaleToZero != nil {
		c.scaleToZero = *h.ScaleToZero
	}
	return c
}

// kubeMinor returns the Kubernetes minor version of "1.x[.y]" ("v" prefix allowed), 37 when v is empty.
func kubeMinor(v string) (int, *field.Error) {
	if v == "" {
		return 37, nil
	}
	parts := strings.Split(strings.TrimPrefix(strings.TrimSpace(v), "v"), ".")
	ok := len(parts) == 2 || len(parts) == 3
	for _, p := range parts {
		if _, err := strconv.Atoi(p); err != nil {
			ok = false
		}
	}
	mn := 0
	if ok {
		mn, _ = strconv.Atoi(parts[1])
		ok = parts[0] == "1" && mn >= 23 && mn <= 37
	}
	if !ok {
		return 37, field.Invalid(field.NewPath("KubernetesVersion"), v,
			"Kubernetes version %s is not one kubefit's HPA rules cover: use %s … %s", field.Quote(v), MinKubernetesVersion, DefaultKubernetesVersion)
	}
	return mn, nil
}

// summary computes the cross-object summary and runs the capacity checks of the HPA's peak (maxReplicas)
// exactly as a ScaledObject's (keda.CheckPeak).
func (c *checker) summary() keda.Summary {
	h := c.h
	r := h.ScaleTargetRef
	s := keda.Summary{Namespace: h.Namespace, Name: h.Name, HPAName: h.Name, TargetAPIVersion: r.APIVersion,
		TargetKind: r.Kind, TargetName: r.Name, PeakReplicas: max(h.MaxReplicas, 0)}
	if g := h.NodeGroupCapacity; g != nil {
		s.NodeGroup = g.Name
	}
	if h.MaxReplicas < 1 || h.MaxReplicas > maxInt32 {
		return s // HPA-E4 already blames maxReplicas; a peak out of range checks nothing
	}
	pk := keda.Peak{Replicas: h.MaxReplicas, TargetKind: r.Kind, TargetNamespace: h.Namespace, TargetName: r.Name, Workload: h.TargetWorkload,
		NodeGroup: h.NodeGroupCapacity, Database: h.Database, MaxPath: field.NewPath("MaxReplicas"), MaxName: "maxReplicas",
		MinReplicas: max(1, h.effectiveMin())}
	s.MinReplicas, s.MaxSurge = pk.MinReplicas, pk.MaxSurge()
	pc := keda.CheckPeak(pk)
	c.errs = append(c.errs, pc.Errors...)
	c.warnings = append(c.warnings, pc.Warnings...)
	s.Surge, s.PodRequests, s.ZonalSpread = pc.Surge, pc.PodRequests, pc.ZonalSpread
	s.ConnectionsPerPod, s.DNSLookupsPerSecond = pc.ConnectionsPerPod, pc.DNSLookupsPerSecond
	return s
}

// requests warns (HPA-W7) when metric i, a Resource or ContainerResource metric with a utilization target,
// divides by a request the target's pods do not declare: the HPA controller then fails with "missing request
// for <resource>" (or does not find the container). It needs the target workload.
func (c *checker) requests(i int, m Metric, typ string) {
	w := c.h.TargetWorkload
	if w == nil {
		return
	}
	var name, container string
	var t Target
	if typ == ResourceMetric {
		name, t = m.Resource.Name, m.Resource.Target
	} else {
		name, container, t = m.ContainerResource.Name, m.ContainerResource.Container, m.ContainerResource.Target
	}
	if t.AverageValue != nil || t.AverageUtilization == nil || name == "" {
		return
	}
	tpl := w.PodTemplate
	if container == "" && tpl.PodResources != nil && len(tpl.PodResources.Requests)+len(tpl.PodResources.Limits) > 0 {
		if !declares(tpl.PodResources.Requests, tpl.PodResources.Limits, name) {
			c.warn("HPA-W7", field.NewPath("Metrics").At(i).Child(typ, "Name"),
				"the HPA divides %s use by the pod's %s request, but the target's pod-level resources do not request %s: the HPA controller fails with \"missing pod-level request for %s\"", name, name, name, name)
		}
		return
	}
	containers := append([]keda.Container{}, tpl.Containers...)
	for _, ic := range tpl.InitContainers {
		if str(ic.RestartPolicy) == "Always" {
			containers = append(containers, ic)
		}
	}
	var missing []string
	found := false
	for _, ct := range containers {
		if container != "" && ct.Name != container {
			continue
		}
		found = true
		if !declares(ct.Requests, ct.Limits, name) {
			missing = append(missing, strconv.Quote(ct.Name))
		}
	}
	p := field.NewPath("Metrics").At(i).Child(typ)
	switch {
	case container != "" && !found:
		c.warn("HPA-W7", p.Child("Container"), "container %s is not in the target's pod template: the HPA controller fails on this metric", field.Quote(container))
	case len(missing) > 0:
		c.warn("HPA-W7", p.Child("Name"),
			"a %s utilization target divides by the %s request, but %s of the target declares none (nor a limit for the API server to copy): the HPA controller fails with \"missing request for %s\" unless a LimitRange gives a default",
			name, name, plural(missing, "container"), name)
	}
}

func declares(requests, limits map[string]string, name string) bool {
	_, r := requests[name]
	_, l := limits[name]
	return r || l
}

func plural(names []string, noun string) string {
	if len(names) == 1 {
		return noun + " " + names[0]
	}
	return fmt.Sprintf("%ss %s", noun, field.JoinAnd(names))
}
