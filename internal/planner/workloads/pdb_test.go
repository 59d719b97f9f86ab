package workloads

import (
	"strings"
	"testing"
)

// TestReadBudgetsSelectingNothing: a PodDisruptionBudget listed on no workload read says why in its skip reason. One
// whose selector matches no pod in its namespace (a mistyped namespace, here the pods it matches are in another
// one) names its namespace and selector and gets a WarnPDBSelectsNothing warning; one that selects the pods of an
// operator's resource kubefit already warns about (kube-prometheus' prometheus-k8s), of a DaemonSet, or of an
// object the filters left out gets no warning; one listed on a workload keeps its reason.
func TestReadBudgetsSelectingNothing(t *testing.T) {
	pdb := func(name, ns, sel string) string {
		return "---\napiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: " + name + ", namespace: " + ns + "}\nspec:\n  maxUnavailable: 1\n" + sel
	}
	web := strings.Replace(deployment("web", "3", "{requests: {cpu: 100m}}", ""), "name: web\n", "name: web\n  namespace: r\n", 1)
	logs := "---\napiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: logs, namespace: r}\nspec:\n  selector: {matchLabels: {app: logs}}\n  template:\n" +
		"    metadata: {labels: {app: logs}}\n    spec: {containers: [{name: c, image: c, resources: {requests: {cpu: 10m}}}]}\n"
	prom := "---\napiVersion: monitoring.coreos.com/v1\nkind: Prometheus\nmetadata:\n  name: k8s\n  namespace: monitoring\n  labels: {app.kubernetes.io/name: prometheus}\n" +
		"spec:\n  replicas: 2\n  podMetadata: {labels: {app.kubernetes.io/name: prometheus, app.kubernetes.io/instance: k8s}}\n"
	am := "---\napiVersion: monitoring.coreos.com/v1\nkind: Alertmanager\nmetadata: {name: main, namespace: monitoring}\n" +
		"spec:\n  replicas: 3\n  podMetadata: {labels: {app.kubernetes.io/name: alertmanager}}\n"
	jobs := strings.Replace(deployment("jobs", "1", "{requests: {cpu: 100m}}", ""), "name: jobs\n", "name: jobs\n  namespace: r\n", 1)
	m := web + pdb("web", "r", "  selector: {matchLabels: {app: web}}\n") + pdb("web-other-ns", "other", "  selector: {matchLabels: {app: web}}\n") +
		pdb("typo", "r", "  selector: {matchLabels: {app: wbe}}\n") + pdb("unset", "r", "") + logs + pdb("logs", "r", "  selector: {matchLabels: {app: logs}}\n") +
		prom + pdb("prometheus-k8s", "monitoring", "  selector: {matchLabels: {app.kubernetes.io/instance: k8s, app.kubernetes.io/name: prometheus}}\n") +
		am + pdb("alertmanager-main", "monitoring", "  selector: {matchLabels: {app.kubernetes.io/name: alertmanager}}\n") +
		"---\n" + jobs + pdb("jobs", "r", "  selector: {matchLabels: {app: jobs}}\n")
	res := mustRead(t, Input{Manifests: m, Exclude: []Filter{{Names: []string{"jobs"}, Kinds: []string{"Deployment"}}}})
	reasons := map[string]string{}
	for _, s := range res.Skipped {
		if s.Source.Kind == "PodDisruptionBudget" {
			reasons[s.Source.Name] = s.Reason
		}
	}
	for name, want := range map[string]string{
		"web":               "listed on the workloads whose pods it selects",
		"web-other-ns":      `selects no pod of the workloads read: none in its namespace "other" has labels matching its selector "app=web"`,
		"typo":              `selects no pod of the workloads read: none in its namespace "r" has labels matching its selector "app=wbe"`,
		"unset":             "its selector is not set, and a PodDisruptionBudget without one selects no pod",
		"logs":              `selects only the pods of DaemonSet "logs", not listed with a budget: a DaemonSet's pods`,
		"prometheus-k8s":    `selects only the pods of Prometheus "k8s", not listed with a budget: its operator runs them, and they are not counted`,
		"alertmanager-main": `selects only the pods of Alertmanager "main", not listed`,
		"jobs":              `selects only the pods of Deployment "jobs", not listed with a budget: left out by the filters`,
	} {
		if !strings.HasPrefix(reasons[name], want) {
			t.Errorf("PDB %s: reason %q, want %q", name, reasons[name], want)
		}
	}
	warned := map[string]string{}
	for _, w := range res.Warnings {
		if w.Code == WarnPDBSelectsNothing {
			warned[w.Source.Name] = w.Message
		}
	}
	if len(warned) != 3 {
		t.Errorf("warned about %v, want web-other-ns, typo and unset only", warned)
	}
	if msg := warned["web-other-ns"]; !strings.Contains(msg, `its selector "app=web" matches no pod of the workloads read in its namespace "other", though the pods of Deployment "web" in namespace "r" match it`) ||
		!strings.Contains(msg, "check its namespace and selector") {
		t.Errorf("web-other-ns warning %q", msg)
	}
	if msg := warned["typo"]; !strings.Contains(msg, `its selector "app=wbe" matches no pod of the workloads read in its namespace "r";`) {
		t.Errorf("typo warning %q", msg)
	}
	if w := workload(t, res, "web"); w.DisruptionBudget == nil || w.DisruptionBudget.Name != "web" {
		t.Errorf("web's budget %+v, want PDB web", w.DisruptionBudget)
	}
}
