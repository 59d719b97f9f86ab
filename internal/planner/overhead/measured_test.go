package overhead

import (
	"fmt"
	"strings"
	"testing"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
)

// measuredInput is the model's input for a measured node: its catalog instance type, configuration and
// measured capacity (CPU and memory), and the kubelet flags it needs.
func measuredInput(t *testing.T, n MeasuredNode) Input {
	t.Helper()
	cloud, err := catalog.ParseCloud(n.Cloud)
	if err != nil {
		t.Fatal(err)
	}
	it, err := catalog.Lookup(cloud, n.Instance)
	if err != nil {
		t.Fatalf("%s: %v", n.Instance, err)
	}
	in := Input{Profile: n.Profile, Instance: InstanceFromCatalog(it), KubernetesVersion: n.KubernetesVersion, MaxPods: n.MaxPods,
		MeasuredCapacity: Reservation{MemoryBytes: ptr(n.CapacityMemoryKi * 1024)}}
	if n.Profile.isEKS() {
		in.EKS = EKSOptions{Kind: n.Kind, PrefixDelegation: n.PrefixDelegation}
	}
	if n.KubeReservedCPU > 0 {
		in.KubeReserved.CPUMillicores = ptr(n.KubeReservedCPU)
	}
	return in
}

// TestMeasuredNodes computes every measured node and checks its recorded outcome: exact, or conservative by at
// most 1 % per resource; never optimistic. It also checks that the node's capacity CPU is what the model
// counts, and that Compute puts the node in the scope the table says.
func TestMeasuredNodes(t *testing.T) {
	if len(MeasuredNodes) < 10 {
		t.Errorf("%d measured nodes; the project holds at least 10", len(MeasuredNodes))
	}
	for i, n := range MeasuredNodes {
		t.Run(fmt.Sprintf("%d %s %s", i, n.Instance, n.Scope), func(t *testing.T) {
			if n.Source == "" || n.Date == "" || !strings.HasPrefix(n.Source, "https://") {
				t.Errorf("source %q, date %q: every measured node names its public source and date", n.Source, n.Date)
			}
			in := measuredInput(t, n)
			r, err := Compute(in)
			if err != nil {
				t.Fatalf("Compute: %v", err)
			}
			if r.Capacity.CPUMillicores != n.CapacityCPU {
				t.Errorf("capacity CPU %dm, the node reports %dm", r.Capacity.CPUMillicores, n.CapacityCPU)
			}
			if r.Evidence.Scope != n.Scope {
				t.Errorf("scope %q, the table says %q", r.Evidence.Scope, n.Scope)
			}
			got := []int64{r.Allocatable.CPUMillicores, r.Allocatable.MemoryBytes, r.Allocatable.Pods}
			want := []int64{n.AllocatableCPU, n.AllocatableMemoryKi * 1024, n.AllocatablePods}
			outcome := OutcomeExact
			for k, name := range []string{"cpu", "memory", "pods"} {
				switch {
				case got[k] > want[k]:
					t.Errorf("optimistic: allocatable %s %d, the node reports %d", name, got[k], want[k])
				case got[k] < want[k] && (want[k]-got[k])*100 > want[k]:
					t.Errorf("allocatable %s %d is more than 1 %% below the node's %d", name, got[k], want[k])
				case got[k] < want[k]:
					outcome = OutcomeConservative
				}
			}
			if outcome != n.Outcome {
				t.Errorf("outcome %s, the table records %s (allocatable %v, node %v)", outcome, n.Outcome, got, want)
			}
		})
	}
}

// TestEvidenceScopes: every scope Compute can land in has evidence; measured nodes raise their scope to
// measured (Auto Mode stays an upper bound); the summary counts them.
func TestEvidenceScopes(t *testing.T) {
	names := map[string]bool{}
	for _, s := range scopes {
		if names[s.name] {
			t.Errorf("scope %q listed twice", s.name)
		}
		names[s.name] = true
	}
	for _, n := range MeasuredNodes {
		if !names[n.Scope] {
			t.Errorf("measured node %s backs scope %q, which is not listed", n.Instance, n.Scope)
		}
	}
	for _, ev := range Scopes() {
		measured := ev.Exact + ev.Conservative
		switch {
		case ev.Scope == "eks auto mode":
			if ev.Status != EvidenceUpperBound || measured == 0 {
				t.Errorf("auto mode evidence %+v, want an upper bound with its measured node", ev)
			}
		case measured > 0 && (ev.Status != EvidenceMeasured || !strings.HasPrefix(ev.Summary, fmt.Sprintf("exact on %d measured node", ev.Exact))):
			t.Errorf("%s: %d measured nodes but %+v", ev.Scope, measured, ev)
		case measured == 0 && ev.Status == EvidenceMeasured:
			t.Errorf("%s: measured without a measured node", ev.Scope)
		}
		if len(ev.Sources) == 0 {
			t.Errorf("%s has no source", ev.Scope)
		}
	}
	// Every profile, version range and option lands in a listed scope.
	for _, in := range []Input{
		{Profile: EKSAL2023, Instance: m5large}, {Profile: EKSAL2023, Instance: m5large, EKS: EKSOptions{PrefixDelegation: true}},
		{Profile: EKSAL2023, Instance: m5large, MaxPods: 50}, {Profile: EKSAL2, Instance: m5large}, {Profile: EKSBottlerocket, Instance: m5large, MaxPods: 50},
		{Profile: EKSWindows, Instance: m5large}, {Profile: EKSAL2023, Instance: m52xl, EKS: EKSOptions{Kind: AutoMode}},
		{Profile: AKSLinux, Instance: d2sv5, KubernetesVersion: "1.28"}, {Profile: AKSLinux, Instance: d2sv5, KubernetesVersion: "1.29"},
		{Profile: AKSLinux, Instance: d2sv5}, {Profile: AKSWindows, Instance: d2sv5, KubernetesVersion: "1.27"},
		{Profile: AKSWindows, Instance: d2sv5, KubernetesVersion: "1.29"}, {Profile: AKSWindows, Instance: d2sv5},
		{Profile: GKEStandard, Instance: n2std4}, {Profile: GKEStandard, Instance: e2medium},
		{Profile: Custom, Instance: CustomInstance("", 4, 16*gi)},
	} {
		r, err := Compute(in)
		if err != nil {
			t.Fatalf("%+v: %v", in, err)
		}
		if !names[r.Evidence.Scope] || r.Evidence.Summary == "" {
			t.Errorf("%s %s %s: evidence %+v", in.Profile, in.Instance.Name, in.KubernetesVersion, r.Evidence)
		}
		warned := false
		for _, w := range r.Warnings {
			warned = warned || w.Code == CodeNotMeasured || w.Code == CodeEKSAutoModeUpperBound || w.Code == CodeAKSWindowsRulesUnverified
		}
		if unmeasured := r.Evidence.Status != EvidenceMeasured && r.Evidence.Status != EvidenceUser; unmeasured != warned {
			t.Errorf("%s: status %s, warned %v: a figure no measured node backs warns, and only that", r.Evidence.Scope, r.Evidence.Status, warned)
		}
	}
	// A measured allocatable is the user's evidence, and silences the warning.
	r, err := Compute(Input{Profile: AKSLinux, Instance: d2sv5, MeasuredAllocatable: MeasuredAllocatable{CPUMillicores: ptr(1900), MemoryBytes: ptr(6 * gi)}})
	if err != nil || r.Evidence.Status != EvidenceUser {
		t.Errorf("measured allocatable: %+v %v", r.Evidence, err)
	}
	for _, w := range r.Warnings {
		if w.Code == CodeNotMeasured {
			t.Errorf("warned %q with a measured allocatable", w.Message)
		}
	}
}

// TestEvidenceGKEFamilies: the measured GKE Standard nodes are E2 and N2, so only those are measured; every other
// machine family (Arm T2A, C3, N2D, N1, …) follows the documented tiers, says so with GKE's page as its source, and
// warns.
func TestEvidenceGKEFamilies(t *testing.T) {
	for name, want := range map[string]EvidenceStatus{
		"e2-standard-4": EvidenceMeasured, "t2a-standard-4": EvidenceDocumented, "c3-standard-4": EvidenceDocumented,
		"n2d-standard-4": EvidenceDocumented, "n2-standard-16": EvidenceMeasured, "n1-standard-2": EvidenceDocumented,
	} {
		it, err := catalog.Lookup(catalog.GCP, name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		r, err := Compute(Input{Profile: GKEStandard, Instance: InstanceFromCatalog(it)})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if r.Evidence.Status != want {
			t.Errorf("%s: evidence %+v, want status %q", name, r.Evidence, want)
		}
		warned := false
		for _, w := range r.Warnings {
			warned = warned || (w.Code == CodeNotMeasured && strings.Contains(w.Message, r.Evidence.Scope))
		}
		if warned != (want != EvidenceMeasured) {
			t.Errorf("%s: status %s, warned %v", name, r.Evidence.Status, warned)
		}
		if want == EvidenceDocumented && (len(r.Evidence.Sources) != 1 ||
			r.Evidence.Sources[0] != "https://cloud.google.com/kubernetes-engine/docs/concepts/plan-node-sizes") {
			t.Errorf("%s: sources %v, want GKE's plan-node-sizes page", name, r.Evidence.Sources)
		}
	}
}
