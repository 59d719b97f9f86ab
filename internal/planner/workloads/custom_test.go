package workloads

import (
	"slices"
	"strings"
	"testing"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
)

// TestReadCustomKindsWithoutPodTemplate checks that a custom kind whose spec.template.spec holds no containers
// list (a Karpenter NodePool, a Cluster API MachineDeployment or machine template) is skipped as creating no pods,
// with no workload and no warning, while one with a pod template is read.
func TestReadCustomKindsWithoutPodTemplate(t *testing.T) {
	tests := []struct {
		name, doc  string
		wantRead   bool
		wantReason string
	}{
		{"Karpenter NodePool", "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: default}\nspec:\n  template:\n    metadata: {labels: {team: a}}\n" +
			"    spec:\n      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}\n      requirements: [{key: kubernetes.io/arch, operator: In, values: [amd64]}]\n  limits: {cpu: \"1000\"}\n",
			false, "a kind (karpenter.sh/v1) whose spec.template is not a pod template (no spec.template.spec.containers list"},
		{"Cluster API MachineDeployment", "apiVersion: cluster.x-k8s.io/v1beta1\nkind: MachineDeployment\nmetadata: {name: md-0}\nspec:\n  clusterName: c1\n  replicas: 3\n" +
			"  template:\n    spec:\n      clusterName: c1\n      version: v1.30.0\n      infrastructureRef: {kind: AWSMachineTemplate, name: md-0}\n",
			false, "it creates no pods"},
		{"AWSMachineTemplate", "apiVersion: infrastructure.cluster.x-k8s.io/v1beta2\nkind: AWSMachineTemplate\nmetadata: {name: md-0}\nspec:\n  template:\n    spec: {instanceType: m6i.large}\n",
			false, "it creates no pods"},
		{"containers not a list", "apiVersion: example.com/v1\nkind: Thing\nmetadata: {name: t}\nspec:\n  template:\n    spec: {containers: app}\n", false, "is not a pod template"},
		{"OpenKruise CloneSet", "apiVersion: apps.kruise.io/v1alpha1\nkind: CloneSet\nmetadata: {name: cs}\nspec:\n  replicas: 2\n  template:\n    spec:\n" +
			"      containers: [{name: c, image: c, resources: {requests: {cpu: 100m, memory: 100Mi}}}]\n", true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := mustRead(t, Input{Manifests: tt.doc})
			if got := len(res.Workloads) == 1; got != tt.wantRead || len(res.Workloads) > 1 {
				t.Fatalf("workloads %+v, want read %v", res.Workloads, tt.wantRead)
			}
			if tt.wantRead {
				return
			}
			if len(res.Warnings) > 0 {
				t.Errorf("warnings %+v, want none for a kind that creates no pods", res.Warnings)
			}
			if len(res.Skipped) != 1 || !strings.Contains(res.Skipped[0].Reason, tt.wantReason) {
				t.Errorf("skipped %+v, want the reason %q", res.Skipped, tt.wantReason)
			}
		})
	}
}

// TestReadOperatorResourcesWarn: an operator's custom resource that asks for replicas or resources (a Prometheus of
// kube-prometheus-stack) runs pods kubefit cannot read from it: it is skipped with a warning that its pods are not
// counted, never silently; a custom resource that asks for none (a cert-manager Certificate) is skipped quietly.
func TestReadOperatorResourcesWarn(t *testing.T) {
	prom := "apiVersion: monitoring.coreos.com/v1\nkind: Prometheus\nmetadata: {name: k8s, namespace: monitoring}\nspec:\n  replicas: 2\n" +
		"  resources: {requests: {cpu: \"1\", memory: 8Gi}}\n  storage: {volumeClaimTemplate: {spec: {resources: {requests: {storage: 100Gi}}}}}\n"
	cert := "---\napiVersion: cert-manager.io/v1\nkind: Certificate\nmetadata: {name: web}\nspec: {secretName: web-tls, dnsNames: [example.com]}\n"
	res := mustRead(t, Input{Manifests: prom + cert})
	if len(res.Workloads) != 0 || len(res.Skipped) != 2 {
		t.Fatalf("workloads %d, skipped %+v; want both skipped", len(res.Workloads), res.Skipped)
	}
	var warned []string
	for _, w := range res.Warnings {
		if w.Code == WarnCustomPodsUncounted {
			warned = append(warned, w.Source.Kind)
			if !strings.Contains(w.Message, "2 replicas (spec.replicas) and resources (spec.resources)") || !strings.Contains(w.Message, "not counted") {
				t.Errorf("message %q", w.Message)
			}
		}
	}
	if len(warned) != 1 || warned[0] != "Prometheus" {
		t.Errorf("warned about %v, want the Prometheus only", warned)
	}
}

// TestReadCustomKindSurge checks that a custom kind's update surge is read where the kind writes it, as a Kubernetes
// int-or-string (an OpenKruise CloneSet's spec.updateStrategy.maxSurge in v1alpha1, spec.updateStrategy.rollingUpdate
// .maxSurge in v1beta1, a Deployment-shaped spec.strategy.rollingUpdate.maxSurge), that a CloneSet writing none gets
// OpenKruise's default 0, and that any other kind writing none gets a 100% surge said to be assumed, in its
// derivation and in its custom-kind warning.
func TestReadCustomKindSurge(t *testing.T) {
	doc := func(apiVersion, kind, strategy string) string {
		return "apiVersion: " + apiVersion + "\nkind: " + kind + "\nmetadata: {name: clone, namespace: h}\nspec:\n  replicas: 5\n" +
			"  selector: {matchLabels: {app: clone}}\n  template:\n    metadata: {labels: {app: clone}}\n" +
			"    spec: {containers: [{name: c, image: x, resources: {requests: {cpu: 200m}}}]}\n" + strategy
	}
	tests := []struct {
		name, doc   string
		want        fit.IntOrPercent
		wantNote    string
		wantAssumed bool
	}{
		{"CloneSet v1alpha1 percentage", doc("apps.kruise.io/v1alpha1", "CloneSet", "  updateStrategy: {maxSurge: \"100%\"}\n"),
			fit.IntOrPercent{Value: 100, Percent: true}, "maxSurge 100% (spec.updateStrategy.maxSurge)", false},
		{"CloneSet v1alpha1 count", doc("apps.kruise.io/v1alpha1", "CloneSet", "  updateStrategy: {maxSurge: 2}\n"),
			fit.IntOrPercent{Value: 2}, "maxSurge 2 (spec.updateStrategy.maxSurge)", false},
		{"CloneSet v1beta1", doc("apps.kruise.io/v1beta1", "CloneSet", "  updateStrategy: {rollingUpdate: {maxSurge: 30%}}\n"),
			fit.IntOrPercent{Value: 30, Percent: true}, "maxSurge 30% (spec.updateStrategy.rollingUpdate.maxSurge)", false},
		{"CloneSet without maxSurge: OpenKruise's default", doc("apps.kruise.io/v1alpha1", "CloneSet", "  updateStrategy: {maxUnavailable: 1}\n"),
			fit.IntOrPercent{}, "maxSurge not set: 0 (the OpenKruise CloneSet default)", false},
		{"Advanced StatefulSet: no surge", doc("apps.kruise.io/v1beta1", "StatefulSet", "  updateStrategy: {rollingUpdate: {maxUnavailable: 2}}\n"),
			fit.IntOrPercent{}, "no surge: an OpenKruise Advanced StatefulSet", false},
		{"Deployment-shaped custom kind", doc("example.com/v1", "Web", "  strategy: {rollingUpdate: {maxSurge: 3}}\n"),
			fit.IntOrPercent{Value: 3}, "maxSurge 3 (spec.strategy.rollingUpdate.maxSurge)", false},
		{"unknown kind without a surge: assumed", doc("example.com/v1", "Web", ""),
			fit.IntOrPercent{Value: 100, Percent: true}, "maxSurge 100% assumed, not read", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := mustRead(t, Input{Manifests: tt.doc})
			w := workload(t, res, "clone")
			if w.MaxSurge != tt.want || deref(w.Replicas) != 5 {
				t.Errorf("surge %+v replicas %d, want %+v and 5", w.MaxSurge, deref(w.Replicas), tt.want)
			}
			if !slices.ContainsFunc(w.Pod.Derivation, func(d string) bool { return strings.HasPrefix(d, tt.wantNote) }) {
				t.Errorf("derivation %q, want %q", w.Pod.Derivation, tt.wantNote)
			}
			var warned bool
			for _, x := range res.Warnings {
				if x.Code == WarnCustomKind && strings.Contains(x.Message, "a surge of 100% is assumed, not read") {
					warned = true
				}
			}
			if warned != tt.wantAssumed {
				t.Errorf("warnings %+v, want the assumed surge said: %v", res.Warnings, tt.wantAssumed)
			}
		})
	}
	for _, bad := range []string{"  updateStrategy: {maxSurge: \"2\"}\n", "  updateStrategy: {maxSurge: 1.5}\n"} {
		if _, err := Read(Input{Manifests: doc("apps.kruise.io/v1alpha1", "CloneSet", bad)}); err == nil || !strings.Contains(err.Error(), "neither a count nor a percentage") {
			t.Errorf("%s: err %v, want it refused as neither a count nor a percentage", bad, err)
		}
	}
}

// TestReadAdvancedDaemonSet: an OpenKruise Advanced DaemonSet runs one pod on every node its rules allow, as apps/v1's
// does, so it is read as a DaemonSet (it was a one-replica workload, its per-node load left out), its maxSurge warned
// about as apps/v1's is, and a maxSurge that is neither a count nor a percentage refused.
func TestReadAdvancedDaemonSet(t *testing.T) {
	doc := func(strategy string) string {
		return "apiVersion: apps.kruise.io/v1alpha1\nkind: DaemonSet\nmetadata: {name: agent, namespace: obs}\nspec:\n" +
			"  selector: {matchLabels: {app: agent}}\n  template:\n    metadata: {labels: {app: agent}}\n" +
			"    spec: {containers: [{name: c, image: x, resources: {requests: {cpu: 150m, memory: 200Mi}}}]}\n" + strategy
	}
	tests := []struct {
		name, strategy string
		wantSurge      string
	}{
		{"no strategy", "", ""},
		{"maxUnavailable only", "  updateStrategy: {rollingUpdate: {maxUnavailable: 2}}\n", ""},
		{"maxSurge 0", "  updateStrategy: {rollingUpdate: {maxSurge: 0, maxUnavailable: 1}}\n", ""},
		{"maxSurge count", "  updateStrategy: {rollingUpdate: {maxSurge: 1, maxUnavailable: 0}}\n", "1"},
		{"maxSurge percentage", "  updateStrategy: {type: RollingUpdate, rollingUpdate: {rollingUpdateType: Standard, maxSurge: \"10%\"}}\n", "10%"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := mustRead(t, Input{Manifests: doc(tt.strategy)})
			if len(res.Workloads) != 0 || len(res.DaemonSets) != 1 {
				t.Fatalf("workloads %d, DaemonSets %d; want the Advanced DaemonSet read as one DaemonSet", len(res.Workloads), len(res.DaemonSets))
			}
			d := res.DaemonSets[0]
			if d.Requests.CPUMillicores != 150 || d.Requests.MemoryBytes != 200<<20 || d.MaxSurge != tt.wantSurge {
				t.Errorf("DaemonSet requests %+v, maxSurge %q; want 150m, 200Mi, %q", d.Requests, d.MaxSurge, tt.wantSurge)
			}
			warned := slices.ContainsFunc(res.Warnings, func(w Warning) bool { return w.Code == WarnDaemonsetSurge })
			if warned != (tt.wantSurge != "") || slices.ContainsFunc(res.Warnings, func(w Warning) bool { return w.Code == WarnCustomKind }) {
				t.Errorf("warnings %+v; want the surge warning only with a surge, and no custom-kind warning", res.Warnings)
			}
		})
	}
	if _, err := Read(Input{Manifests: doc("  updateStrategy: {rollingUpdate: {maxSurge: \"ten\"}}\n")}); err == nil || !strings.Contains(err.Error(), "neither a count nor a percentage") {
		t.Errorf("maxSurge \"ten\": error %v, want it refused as neither a count nor a percentage", err)
	}
}
