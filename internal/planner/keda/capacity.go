package keda

import (
	"fmt"
	"math"
	"strconv"

	corev1 "k8s.io/api/core/v1"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/pod"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/resource"
)

// ZoneKey is the well-known zone label; spread constraints on it are zonal.
const ZoneKey = "topology.kubernetes.io/zone"

// podRequest is a pod's effective request: the resource vector and extended resources by name.
type podRequest struct {
	list     resource.List
	extended map[string]int64
}

// PodRequests returns a pod's effective requests (keda.md §9.1) by the planner's one rule for them,
// pod.Requests: API defaulting (a limit stands in for a missing request), pod-level resources, then
// k8s.io/component-helpers' PodRequests (the larger of the init containers, each with the sidecars
// started before it, and the app containers plus sidecars), plus the RuntimeClass overhead.
func PodRequests(t PodTemplate) (resource.List, map[string]int64, field.Errors) {
	var errs field.Errors
	base := field.NewPath("TargetWorkload", "PodTemplate")
	list := func(m map[string]string, p field.Path) corev1.ResourceList {
		out := corev1.ResourceList{}
		for _, k := range sortedKeys(m) {
			if why := resourceNameProblem(k); why != "" {
				errs = append(errs, field.Invalid(p.Key(k), k, "%s", why))
				continue
			}
			q, err := parseQuantity(m[k])
			if err != nil || q.Sign() < 0 {
				errs = append(errs, field.Invalid(p.Key(k), m[k], "%s quantity %s is not a non-negative Kubernetes quantity", k, field.Quote(m[k])))
				continue
			}
			out[corev1.ResourceName(k)] = q
		}
		return out
	}
	container := func(ct Container, p field.Path) corev1.Container {
		c := corev1.Container{Name: ct.Name, Resources: corev1.ResourceRequirements{
			Requests: list(ct.Requests, p.Child("Requests")), Limits: list(ct.Limits, p.Child("Limits"))}}
		if ct.RestartPolicy != nil {
			rp := corev1.ContainerRestartPolicy(*ct.RestartPolicy)
			c.RestartPolicy = &rp
		}
		return c
	}
	var spec corev1.PodSpec
	for i, ct := range t.Containers {
		spec.Containers = append(spec.Containers, container(ct, base.Child("Containers").At(i)))
	}
	for i, ct := range t.InitContainers {
		spec.InitContainers = append(spec.InitContainers, container(ct, base.Child("InitContainers").At(i)))
	}
	if pr := t.PodResources; pr != nil {
		pp := base.Child("PodResources")
		spec.Resources = &corev1.ResourceRequirements{Requests: list(pr.Requests, pp.Child("Requests")), Limits: list(pr.Limits, pp.Child("Limits"))}
	}
	if len(t.Overhead) > 0 {
		spec.Overhead = list(t.Overhead, base.Child("Overhead"))
	}
	total, _ := pod.Requests(&spec, pod.Defaults{})
	amount := func(n corev1.ResourceName) int64 {
		q := total[n]
		if n == corev1.ResourceCPU {
			return q.MilliValue()
		}
		return q.Value()
	}
	out := resource.List{CPUMillicores: amount(corev1.ResourceCPU), MemoryBytes: amount(corev1.ResourceMemory),
		EphemeralStorageBytes: amount(corev1.ResourceEphemeralStorage), Pods: 1}
	ext := map[string]int64{}
	for k := range total {
		switch k {
		case corev1.ResourceCPU, corev1.ResourceMemory, corev1.ResourceEphemeralStorage, corev1.ResourcePods:
		default:
			if v := amount(k); v > 0 {
				ext[string(k)] = v
			}
		}
	}
	return out, ext, errs
}

// peakReplicas is R_peak: the effective maximum, raised to the paused-replicas annotation if larger.
func (so ScaledObject) peakReplicas() int64 {
	_, r := so.effMinMax()
	if v, ok := so.Annotations[AnnotationPausedReplicas]; ok {
		if n, err := strconv.ParseInt(v, 10, 32); err == nil && n > r {
			r = n
		}
	}
	return r
}

// Budget is a database's connection budget evaluated for some clients.
type Budget struct {
	Demand, Hard, Soft int64
}

// DatabaseBudget returns the demand, hard and soft limits of db for a demand of clientConnections.
func DatabaseBudget(db Database, clientConnections int64) Budget {
	hard := db.MaxConnections - db.ReservedConnections
	frac := DefaultUsableFraction
	if db.UsableFraction != nil {
		frac = *db.UsableFraction
	}
	return Budget{Demand: clientConnections + db.OtherClients, Hard: hard, Soft: int64(math.Floor(frac * float64(hard)))}
}

func podsFit(n int64) string {
	if n == 1 {
		return "1 pod fits"
	}
	return resource.Group(n) + " pods fit"
}

// Validate returns the errors of a capacity object at p: a name, and non-negative sizes (a missing
// value arrives as −1).
func (g NodeGroupCapacity) Validate(p field.Path) field.Errors {
	var errs field.Errors
	if g.Name == "" {
		errs = append(errs, field.Invalid(p.Child("Name"), "", "the node group capacity needs the node group's name"))
	}
	if g.MaxNodes < 1 {
		errs = append(errs, field.Invalid(p.Child("MaxNodes"), itoa(g.MaxNodes),
			"node group %q has a maximum node count of %d, and a group without nodes holds no pod; give the group's maximum size (1 or more)", g.Name, g.MaxNodes))
	}
	for _, n := range []struct {
		name string
		p    field.Path
		v    int64
	}{
		{"workload pod slots per node", p.Child("WorkloadPods"), g.WorkloadPods},
		{"workload CPU per node", p.Child("WorkloadAllocatable", "CPUMillicores"), g.WorkloadAllocatable.CPUMillicores},
		{"workload memory per node", p.Child("WorkloadAllocatable", "MemoryBytes"), g.WorkloadAllocatable.MemoryBytes},
		{"workload ephemeral storage per node", p.Child("WorkloadAllocatable", "EphemeralBytes"), g.WorkloadAllocatable.EphemeralBytes},
	} {
		if n.v < 0 {
			errs = append(errs, field.Invalid(n.p, itoa(n.v), "the node group capacity needs the %s (0 or more)", n.name))
		}
	}
	if g.MaxNodesPerZone != nil && *g.MaxNodesPerZone < 0 {
		errs = append(errs, field.Invalid(p.Child("MaxNodesPerZone"), itoa(*g.MaxNodesPerZone), "the maximum nodes per zone must be 0 or more"))
	}
	return errs
}

// Validate checks a database budget at p: a name, a connection limit of 1 or more, reserved connections
// from 0 to below that limit, other clients 0 or more, and a usable fraction from 0 to 1.
func (db Database) Validate(p field.Path) field.Errors {
	var errs field.Errors
	if db.Name == "" {
		errs = append(errs, field.Invalid(p.Child("Name"), "", "the database needs its name, which messages quote"))
	}
	name := strconv.Quote(db.Name)
	if db.MaxConnections < 1 {
		errs = append(errs, field.Invalid(p.Child("MaxConnections"), itoa(db.MaxConnections),
			"database %s has a connection limit of %d; give its max_connections setting (1 or more)", name, db.MaxConnections))
	}
	switch {
	case db.ReservedConnections < 0:
		errs = append(errs, field.Invalid(p.Child("ReservedConnections"), itoa(db.ReservedConnections),
			"database %s reserves %d connections; give 0 or more", name, db.ReservedConnections))
	case db.MaxConnections >= 1 && db.ReservedConnections >= db.MaxConnections:
		errs = append(errs, field.Invalid(p.Child("ReservedConnections"), itoa(db.ReservedConnections),
			"database %s reserves %d of its %d connections, leaving none for clients; reserve fewer than its connection limit", name, db.ReservedConnections, db.MaxConnections))
	}
	if db.OtherClients < 0 {
		errs = append(errs, field.Invalid(p.Child("OtherClients"), itoa(db.OtherClients),
			"database %s has %d connections of other clients; give 0 or more", name, db.OtherClients))
	}
	if f := db.UsableFraction; f != nil && !(*f >= 0 && *f <= 1) {
		v := strconv.FormatFloat(*f, 'g', -1, 64)
		errs = append(errs, field.Invalid(p.Child("UsableFraction"), v,
			"database %s has a usable fraction of %s; give a share of its connection limit from 0 to 1", name, v))
	}
	return errs
}

// cpuOf returns a quantity map's cpu in millicores, and whether it is set.
func cpuOf(m map[string]string) (int64, bool) {
	v, ok := m["cpu"]
	if !ok {
		return 0, false
	}
	q, err := parseQuantity(v)
	if err != nil {
		return 0, false
	}
	return q.MilliValue(), true
}

// cpuRequestLimit returns the CPU request the HPA divides by and the CPU limit (0 when unbounded) of
// the pod, or of one container.
func cpuRequestLimit(t PodTemplate, container string) (req, limit int64) {
	if container == "" && t.PodResources != nil {
		r, rok := cpuOf(t.PodResources.Requests)
		l, lok := cpuOf(t.PodResources.Limits)
		if rok || lok {
			if !rok {
				r = l
			}
			return r, l
		}
	}
	// The HPA's request is the app containers' and the sidecars' (init containers with restartPolicy Always):
	// calculatePodRequestsFromContainers, pkg/controller/podautoscaler/replica_calculator.go.
	containers := append([]Container{}, t.Containers...)
	for _, ct := range t.InitContainers {
		if ct.RestartPolicy != nil && *ct.RestartPolicy == "Always" {
			containers = append(containers, ct)
		}
	}
	bounded := true
	for _, ct := range containers {
		if container != "" && ct.Name != container {
			continue
		}
		r, rok := cpuOf(ct.Requests)
		l, lok := cpuOf(ct.Limits)
		if !rok {
			r = l
		}
		req += r
		if lok {
			limit += l
		} else {
			bounded = false
		}
	}
	if !bounded {
		limit = 0
	}
	return req, limit
}

// reachability runs §9.4 for a cpu trigger: can the pods use enough CPU to cross the target at all?
// (KCAP-E5 when cpu is the only trigger, KCAP-W3 otherwise.)
func (c *checker) reachability(i int, md ResourceMetadata) {
	w := c.so.TargetWorkload
	if w == nil || md.MetricType == "" {
		return
	}
	req, limit := cpuRequestLimit(w.PodTemplate, md.ContainerName)
	perWorker, src := int64(1000), "one core per busy worker (the default)"
	if w.CPUPerBusyWorker != nil {
		q, err := parseQuantity(*w.CPUPerBusyWorker)
		if err != nil || q.Sign() <= 0 {
			c.fail("KCAP-E5", field.NewPath("TargetWorkload", "CPUPerBusyWorker"), *w.CPUPerBusyWorker,
				"CPU per busy worker %s is not a positive CPU quantity", field.Quote(*w.CPUPerBusyWorker))
			return
		}
		perWorker, src = q.MilliValue(), resource.HumanCPU(q.MilliValue())+" per busy worker"
	}
	uMax, why := int64(0), ""
	if w.MaxConcurrencyPerPod != nil {
		uMax, why = *w.MaxConcurrencyPerPod*perWorker, fmt.Sprintf("%d workers × %s", *w.MaxConcurrencyPerPod, src)
	}
	if limit > 0 && (uMax == 0 || limit < uMax) {
		uMax, why = limit, "the CPU limit"
	}
	if uMax == 0 {
		return
	}
	only := len(c.so.Triggers) == 1
	p := field.NewPath("Triggers").At(i).Child("Metadata").Key("value")
	tol, tolWhy := c.scaleUpTolerance()
	var reachable bool
	var detail string
	// The HPA controller keeps the replica count while the usage ratio is within 1 + the scale-up tolerance
	// (Tolerances.isWithin, pkg/controller/podautoscaler/replica_calculator.go), so it scales out only above it.
	switch md.MetricType {
	case "Utilization":
		if req <= 0 || md.UtilizationPercent <= 0 {
			return
		}
		// The utilization is a whole percentage, rounded down: currentUtilization = int32(metricsTotal*100 /
		// requestsTotal), and the ratio is currentUtilization / target (GetResourceUtilizationRatio,
		// pkg/controller/podautoscaler/metrics/utilization.go).
		pct := int64(int32((uMax * 100) / req))
		reachable = float64(pct)/float64(md.UtilizationPercent) > 1.0+tol
		detail = fmt.Sprintf("a pod can use at most %s CPU (%s), %d %% of its %s request (the HPA rounds down), but the HPA scales out only above %d %% × %s (%s)",
			resource.HumanCPU(uMax), why, pct, resource.HumanCPU(req), md.UtilizationPercent, strconv.FormatFloat(1+tol, 'f', -1, 64), tolWhy)
	case "AverageValue":
		target := md.AverageValue.MilliValue()
		if target <= 0 {
			return
		}
		// GetMetricUsageRatio: the average usage over the target.
		reachable = float64(uMax)/float64(target) > 1.0+tol
		detail = fmt.Sprintf("a pod can use at most %s CPU (%s), but the HPA scales out only above %s × %s (%s)",
			resource.HumanCPU(uMax), why, resource.HumanCPU(target), strconv.FormatFloat(1+tol, 'f', -1, 64), tolWhy)
	default:
		return
	}
	if !reachable {
		msg := "CPU-based scaling cannot trigger: " + detail + "; scale on saturation instead (busy workers over the maximum, or request queue length) through a prometheus trigger"
		if only {
			c.fail("KCAP-E5", p, "", "%s", msg)
		} else {
			c.warn("KCAP-W3", p, "%s", msg)
		}
	} else if w.MaxConcurrencyPerPod != nil && only {
		c.warn("KCAP-W3", p, "CPU is the only scaling signal and a pod serves at most %d requests at once: when every worker is busy waiting (on a database, say) requests queue without raising CPU, so the HPA does not scale; add a saturation metric through a prometheus trigger", *w.MaxConcurrencyPerPod)
	}
}

// defaultTolerance is kube-controller-manager's --horizontal-pod-autoscaler-tolerance default.
const defaultTolerance = 0.1

// scaleUpTolerance is the scale-up tolerance of the HPA KEDA creates: advanced.horizontalPodAutoscalerConfig.
// behavior.scaleUp.tolerance when set and honoured (the HPAConfigurableTolerance feature, on by default from
// Kubernetes 1.35: horizontal.go tolerancesForHpa), else the controller's 0.1. With the Kubernetes version
// unknown, the smaller of the two, so that what is reported unreachable is unreachable either way.
func (c *checker) scaleUpTolerance() (float64, string) {
	a := c.so.Advanced
	if a == nil || a.HorizontalPodAutoscalerConfig == nil || a.HorizontalPodAutoscalerConfig.Behavior == nil ||
		a.HorizontalPodAutoscalerConfig.Behavior.ScaleUp == nil || a.HorizontalPodAutoscalerConfig.Behavior.ScaleUp.Tolerance == nil {
		return defaultTolerance, "the controller's default tolerance"
	}
	q, err := parseQuantity(*a.HorizontalPodAutoscalerConfig.Behavior.ScaleUp.Tolerance)
	if err != nil || q.Sign() < 0 {
		return defaultTolerance, "the controller's default tolerance"
	}
	tol := q.AsApproximateFloat64()
	switch {
	case c.kube != 0 && c.kube < 35:
		return defaultTolerance, fmt.Sprintf("the controller's default tolerance: Kubernetes 1.%d does not honour the scale-up tolerance without the HPAConfigurableTolerance gate", c.kube)
	case c.kube == 0 && tol > defaultTolerance:
		return defaultTolerance, "the controller's default tolerance, below the scale-up tolerance, which Kubernetes honours from 1.35 (kubernetes_version is not given)"
	}
	return tol, "the scale-up tolerance"
}
