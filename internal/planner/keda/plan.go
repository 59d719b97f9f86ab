package keda

import (
	"strings"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
)

// Result is a checked and rendered ScaledObject.
type Result struct {
	// Object is the ScaledObject, ready for kubernetes_manifest; YAML the same object as YAML.
	Object    Object
	YAML      []byte
	HPAName   string
	Effective Effective
	Summary   Summary
	Warnings  []field.Warning
}

// Plan checks so against every rule for its KEDA version and renders it. The result is returned even
// with errors (with the warnings found); the error is a field.Errors whose details start with the rule ID.
// Strings must be valid UTF-8 (as Terraform's are); otherwise rendering the YAML fails and the result is nil.
func Plan(so ScaledObject) (*Result, error) {
	c := &checker{so: so}
	var verr *field.Error
	c.keda, verr = kedaMinor(so.KEDAVersion)
	if verr != nil {
		c.errs = append(c.errs, verr)
	}
	if kmin, kerr := kubeMinor(so.KubernetesVersion); kerr != nil {
		c.errs = append(c.errs, kerr)
	} else {
		c.kube = kmin
	}
	c.metadata()
	c.target()
	c.numbers()
	c.behavior()
	c.triggers()
	c.fallback()
	c.modifiers()

	res := &Result{HPAName: so.HPAName(), Effective: so.effective()}
	res.Summary = c.summary()
	res.Object = Render(so)
	y, err := YAML(res.Object)
	if err != nil {
		return nil, err
	}
	res.YAML = y
	res.Warnings = c.warnings
	return res, c.errs.Err()
}

// CheckCounts checks only the replica counts and periods of so (rules KSO-E4 to KSO-E6), for a caller that
// knows them before the rest of the ScaledObject; it returns the errors Plan would give for them.
func CheckCounts(so ScaledObject) field.Errors {
	c := &checker{so: so}
	c.numbers()
	return c.errs
}

// CheckScaling runs the rules that decide whether KEDA takes so and builds its HPA, for a reader of manifests
// that finds a ScaledObject rather than configures one (the KEDA version is DefaultKEDAVersion, and no pod
// template is given): refused holds the errors of what the CRD and the admission webhook refuse (KSO-E4 to
// KSO-E8, KSO-E12, KSO-E19: keda.md §2, §3.1, §3.2, §3.6 item 4, §3.7), inert those of a trigger KEDA admits
// but cannot build a scaler from (KSO-E10, KSO-E13: §5, "unknown metric type"), so it makes no HPA and the
// target keeps its replicas. Each error is the one Plan gives for that rule.
func CheckScaling(so ScaledObject) (refused, inert field.Errors) {
	c := &checker{so: so, keda: 21}
	if mn, err := kedaMinor(""); err == nil {
		c.keda = mn
	}
	c.numbers()
	c.triggers()
	c.fallback()
	for _, e := range c.errs {
		switch {
		case strings.HasPrefix(e.Detail, "KSO-E10:"), strings.HasPrefix(e.Detail, "KSO-E13:"):
			inert = append(inert, e)
		case strings.HasPrefix(e.Detail, "KSO-E15:"), strings.HasPrefix(e.Detail, "KCAP-"):
			// A prometheus trigger's metadata and the capacity checks need more than the manifest reader asks.
		default:
			refused = append(refused, e)
		}
	}
	return refused, inert
}

func (so ScaledObject) effective() Effective {
	av, kind := so.normalisedTarget()
	e := Effective{MaxReplicas: defaultMaxReplicas, PollingIntervalSeconds: 30, CooldownPeriodSeconds: 300,
		TargetAPIVersion: av, TargetKind: kind}
	if so.MinReplicaCount != nil {
		e.MinReplicas = *so.MinReplicaCount
	}
	e.HPAMinReplicas = max(1, e.MinReplicas)
	if so.MaxReplicaCount != nil {
		e.MaxReplicas = *so.MaxReplicaCount
	}
	if so.PollingInterval != nil {
		e.PollingIntervalSeconds = *so.PollingInterval
	}
	if so.CooldownPeriod != nil {
		e.CooldownPeriodSeconds = *so.CooldownPeriod
	}
	if so.InitialCooldownPeriod != nil {
		e.InitialCooldownPeriodSeconds = *so.InitialCooldownPeriod
	}
	return e
}

// summary computes the cross-object summary and runs the capacity checks that need only this object.
func (c *checker) summary() Summary {
	so := c.so
	av, kind := so.normalisedTarget()
	s := Summary{Namespace: so.Namespace, Name: so.Name, HPAName: so.HPAName(), TargetAPIVersion: av,
		TargetKind: kind, TargetName: so.ScaleTargetRef.Name, PeakReplicas: so.peakReplicas(),
		TransferHPAOwnership: so.Annotations["scaledobject.keda.sh/transfer-hpa-ownership"] == "true" && so.customHPAName()}
	if g := so.NodeGroupCapacity; g != nil {
		s.NodeGroup = g.Name
	}
	pk := so.peak(s.PeakReplicas)
	s.MinReplicas, s.MaxSurge = pk.MinReplicas, pk.MaxSurge()
	if pk.Paused > 0 {
		s.PausedReplicas, s.MaxReplicas = pk.Paused, pk.Max
	}
	pc := CheckPeak(pk)
	c.errs = append(c.errs, pc.Errors...)
	c.warnings = append(c.warnings, pc.Warnings...)
	s.Surge, s.PodRequests, s.ZonalSpread = pc.Surge, pc.PodRequests, pc.ZonalSpread
	s.ConnectionsPerPod, s.DNSLookupsPerSecond = pc.ConnectionsPerPod, pc.DNSLookupsPerSecond
	return s
}

// peak is the ScaledObject's worst case for the capacity checks.
func (so ScaledObject) peak(replicas int64) Peak {
	_, kind := so.normalisedTarget()
	var minimum int64
	if so.MinReplicaCount != nil {
		minimum = *so.MinReplicaCount
	}
	_, effMax := so.effMinMax()
	var paused int64
	if replicas > effMax && replicas == so.peakReplicas() {
		paused = replicas
	}
	return Peak{MinReplicas: max(1, minimum), Replicas: replicas, Paused: paused, Max: effMax, TargetKind: kind, TargetNamespace: so.Namespace, TargetName: so.ScaleTargetRef.Name, Workload: so.TargetWorkload, NodeGroup: so.NodeGroupCapacity,
		Database: so.Database, MaxPath: field.NewPath("MaxReplicaCount"), MaxName: "maxReplicaCount"}
}
