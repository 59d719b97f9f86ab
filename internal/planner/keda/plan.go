package keda

import (
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
	surge, serr := so.surgeFor(s.PeakReplicas)
	if serr != nil {
		c.errs = append(c.errs, serr)
	}
	s.Surge = surge
	w := so.TargetWorkload
	if w == nil {
		if so.NodeGroupCapacity != nil {
			c.fail("KCAP-E2", field.NewPath("NodeGroupCapacity"), "",
				"a node group capacity is given but not the target's pod template, whose requests the check needs")
		}
		if so.Database != nil {
			c.checkDatabase(*so.Database, s.PeakReplicas)
		}
		return s
	}
	s.ConnectionsPerPod, s.DNSLookupsPerSecond = w.ConnectionsPerPod, w.DNSLookupsPerSecond
	for _, sc := range w.TopologySpread {
		if sc.TopologyKey == ZoneKey && sc.WhenUnsatisfiable == "DoNotSchedule" {
			s.ZonalSpread = append(s.ZonalSpread, sc)
		}
	}
	req, ext, qerrs := PodRequests(w.PodTemplate)
	c.errs = append(c.errs, qerrs...)
	if len(qerrs) == 0 {
		r := req
		s.PodRequests = &r
		if so.NodeGroupCapacity != nil {
			c.checkNodeGroup(req, ext, s.PeakReplicas, surge)
		}
	}
	if so.Database != nil {
		c.checkDatabase(*so.Database, s.PeakReplicas)
	}
	return s
}
