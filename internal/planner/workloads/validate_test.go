package workloads

import (
	"fmt"
	"strings"
	"testing"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
)

// refusedCase is manifests the API server refuses, and what each of kubefit's errors must say (one substring per
// expected error, in order).
type refusedCase struct {
	name      string
	in        Input
	want      []string
	wantPaths []string // each error's path; "Manifests" when empty
}

func checkRefused(t *testing.T, cases []refusedCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Read(c.in)
			es := field.As(err)
			if len(es) != len(c.want) {
				t.Fatalf("got %d errors (%v), want %d: %q", len(es), err, len(c.want), c.want)
			}
			for i, w := range c.want {
				if !strings.Contains(es[i].Detail, w) {
					t.Errorf("error %d: %q\nwant it to contain %q", i, es[i].Detail, w)
				}
				p := "Manifests"
				if i < len(c.wantPaths) {
					p = c.wantPaths[i]
				}
				if es[i].Path.String() != p {
					t.Errorf("error %d is on %s, want %s", i, es[i].Path, p)
				}
			}
		})
	}
}

// TestReadRefusesInvalidNames checks that a name or namespace the API server refuses (ValidateObjectMeta with each
// kind's name rule, ValidateCronJobCreate's 52 characters, ValidateNamespaceName) is an error naming the object and
// the name to write, every one of them reported.
func TestReadRefusesInvalidNames(t *testing.T) {
	hpa := "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: Web.HPA}\nspec: {scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}, maxReplicas: 3}\n"
	sts := "apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: db.primary}\nspec:\n  selector: {matchLabels: {app: db}}\n  template:\n    metadata: {labels: {app: db}}\n    spec: {containers: [{name: db, image: pg}]}\n"
	long := strings.Repeat("a", 53)
	cron := "apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: " + long + "}\nspec:\n  schedule: '* * * * *'\n  jobTemplate: {spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: x}]}}}}\n"
	rollout := "apiVersion: argoproj.io/v1alpha1\nkind: Rollout\nmetadata: {name: Canary}\nspec:\n  replicas: 1\n  template:\n    spec: {containers: [{name: c, image: x}]}\n"
	checkRefused(t, []refusedCase{
		{name: "deployment name", in: Input{Manifests: deployment("Web_App", "1", "", "")},
			want: []string{`Deployment "Web_App" in namespace "default" (document 0, line 1): metadata.name "Web_App" is not a valid Deployment name (a lowercase RFC 1123 subdomain`}},
		{name: "each object reported", in: Input{Manifests: deployment("Web_App", "1", "", "") + "---\n" + hpa + "---\n" + sts + "---\n" + cron},
			want: []string{`metadata.name "Web_App"`, `HorizontalPodAutoscaler "Web.HPA"`, `StatefulSet "db.primary" in namespace "default" (document 2, line 21): metadata.name "db.primary" is not a valid StatefulSet name (must not contain dots); the API server refuses the object (ValidateObjectMeta), so write "db-primary"`,
				`CronJob "` + long + `"`}},
		{name: "write instead", in: Input{Manifests: deployment("Web_App", "1", "", "") + "---\n" + sts},
			want: []string{`so write "web-app"`, `so write "db-primary"`}},
		{name: "cronjob 52 characters", in: Input{Manifests: cron},
			want: []string{`metadata.name is 53 characters; the API server refuses a CronJob name of more than 52 (ValidateCronJobCreate`}},
		{name: "custom resource", in: Input{Manifests: rollout}, want: []string{`Rollout "Canary" in namespace "default" (document 0, line 1): metadata.name "Canary" is not a valid Rollout name`}},
		{name: "generateName prefix", in: Input{Manifests: "apiVersion: batch/v1\nkind: Job\nmetadata: {generateName: Run_}\nspec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: x}]}}}\n"},
			want: []string{`metadata.generateName "Run_" is not a valid Job name`}},
		{name: "metadata.namespace", in: Input{Manifests: strings.Replace(deployment("web", "1", "", ""), "  name: web\n", "  name: web\n  namespace: Team_A\n", 1)},
			want: []string{`Deployment "web" in namespace "Team_A" (document 0, line 1): metadata.namespace "Team_A" is not a valid namespace name (a lowercase RFC 1123 label`}},
		{name: "namespace input", in: Input{Manifests: deployment("web", "1", "", ""), Namespace: "Team A"},
			want: []string{`namespace "Team A" is not a valid namespace name (a lowercase RFC 1123 label`}, wantPaths: []string{"Namespace"}},
	})
	// Valid names, a trailing hyphen of a generateName prefix and a cluster-scoped kind's namespace are accepted.
	mustRead(t, Input{Manifests: deployment("web-1.v2", "1", "", "") + "---\n" +
		"apiVersion: batch/v1\nkind: Job\nmetadata: {generateName: run-}\nspec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: x}]}}}\n---\n" +
		"apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: high, namespace: Not_Used}\nvalue: 10\n" +
		"---\napiVersion: v1\nkind: Service\nmetadata: {name: Not_Checked}\n", Namespace: "team-a"})
}

// TestReadRefusesBadStrategyAndSelector checks the Deployment strategies ValidateDeploymentStrategy and
// ValidateRollingUpdateDeployment refuse, and the selectors apps/v1 validation refuses (missing, empty, not matching
// the template's labels) for each apps/v1 kind, every one reported.
func TestReadRefusesBadStrategyAndSelector(t *testing.T) {
	withStrategy := func(name, strategy string) string {
		return deployment(name, "2", "", "") + "  strategy: " + strategy + "\n"
	}
	withSelector := func(kind, name, selector string) string {
		s := "apiVersion: apps/v1\nkind: " + kind + "\nmetadata: {name: " + name + "}\nspec:\n"
		if selector != "" {
			s += "  selector: " + selector + "\n"
		}
		return s + "  template:\n    metadata: {labels: {app: " + name + ", tier: web}}\n    spec: {containers: [{name: c, image: x}]}\n"
	}
	checkRefused(t, []refusedCase{
		{name: "both zero", in: Input{Manifests: withStrategy("web", "{rollingUpdate: {maxSurge: 0, maxUnavailable: 0}}")},
			want: []string{`Deployment "web" in namespace "default" (document 0, line 1): spec.strategy.rollingUpdate has maxSurge 0 and maxUnavailable 0; the API server refuses it (ValidateRollingUpdateDeployment`}},
		{name: "both zero percent", in: Input{Manifests: withStrategy("web", "{type: RollingUpdate, rollingUpdate: {maxSurge: 0%, maxUnavailable: '0%'}}")},
			want: []string{`maxSurge 0% and maxUnavailable 0%`}},
		{name: "recreate with rollingUpdate", in: Input{Manifests: withStrategy("web", "{type: Recreate, rollingUpdate: {maxSurge: 1}}")},
			want: []string{`spec.strategy.rollingUpdate is set with type Recreate; the API server refuses it (ValidateDeploymentStrategy`}},
		{name: "unknown type", in: Input{Manifests: withStrategy("web", "{type: Rolling}")},
			want: []string{`spec.strategy.type is "Rolling"`}},
		{name: "selector missing", in: Input{Manifests: withSelector("Deployment", "web", "")},
			want: []string{`Deployment "web" in namespace "default" (document 0, line 1): spec.selector is missing; apps/v1 requires it (the API server refuses the Deployment: spec.selector: Required value), so write selector: {matchLabels: {app: web, tier: web}}`}},
		{name: "selector empty", in: Input{Manifests: withSelector("StatefulSet", "db", "{}")},
			want: []string{`StatefulSet "db" in namespace "default" (document 0, line 1): spec.selector is empty`}},
		{name: "selector not matching", in: Input{Manifests: withSelector("ReplicaSet", "rs", "{matchLabels: {app: other}}")},
			want: []string{`ReplicaSet "rs" in namespace "default" (document 0, line 1): spec.selector (app=other) does not match the pod template's labels {app: rs, tier: web}; the API server refuses the ReplicaSet`}},
		{name: "every kind, every object", in: Input{Manifests: withSelector("Deployment", "a", "") + "---\n" + withSelector("StatefulSet", "b", "") + "---\n" +
			withSelector("DaemonSet", "c", "") + "---\n" + withSelector("ReplicaSet", "d", "{matchExpressions: [{key: app, operator: In, values: [x]}]}") + "---\n" +
			withStrategy("e", "{rollingUpdate: {maxSurge: '0', maxUnavailable: 0}}")},
			want: []string{`Deployment "a"`, `StatefulSet "b"`, `DaemonSet "c" in namespace "default" (document 2, line 17): spec.selector is missing`, `ReplicaSet "d"`, `Deployment "e"`}},
	})
	// What the API server takes: one of the two at 0, Recreate alone, a selector on a subset of the labels.
	mustRead(t, Input{Manifests: withStrategy("a", "{rollingUpdate: {maxSurge: 0}}") + "---\n" + withStrategy("b", "{rollingUpdate: {maxUnavailable: 0%}}") + "---\n" +
		withStrategy("c", "{type: Recreate}") + "---\n" + withSelector("DaemonSet", "d", "{matchLabels: {tier: web}}")})
}

// TestReadRequestAboveLimit checks that a request above its limit in a built-in kind's pod template is an error on
// the object, which the API server refuses itself (ValidatePodTemplateSpec; ValidatePodSpec for a Pod), and stays
// the refused-pod warning where only the pods are refused: a LimitRange's default limit below the request
// (LimitRanger admission) or a custom kind's template.
func TestReadRequestAboveLimit(t *testing.T) {
	over := `{requests: {cpu: "2", memory: 1Gi}, limits: {cpu: "1"}}`
	pod := "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: app, image: x, resources: " + over + "}]\n"
	job := "apiVersion: batch/v1\nkind: Job\nmetadata: {name: j}\nspec:\n  template:\n    spec:\n      restartPolicy: Never\n      containers: [{name: app, image: x, resources: " + over + "}]\n"
	checkRefused(t, []refusedCase{
		{name: "deployment", in: Input{Manifests: deployment("web", "2", over, "")},
			want: []string{`Deployment "web" in namespace "default" (document 0, line 1): container "app" requests cpu 2 above its limit 1; the API server refuses the Deployment itself (ValidatePodTemplateSpec validates its pod template's resources), so fix the requests and limits`}},
		{name: "pod and job, each reported", in: Input{Manifests: pod + "---\n" + job},
			want: []string{`Pod "p" in namespace "default" (document 0, line 1): container "app" requests cpu 2 above its limit 1; the API server refuses the Pod itself (ValidatePodSpec validates its pod spec's resources)`,
				`Job "j" in namespace "default" (document 1, line 7): container "app" requests cpu 2 above its limit 1; the API server refuses the Job itself`}},
		// Every problem in one read: an object refused for its selector or strategy still has its pod template's
		// refusals reported, and another object's too, not one stage at a time.
		{name: "with the objects' own refusals", in: Input{Manifests: deployment("web", "2", over, "") + "  strategy: {rollingUpdate: {maxSurge: 0, maxUnavailable: 0}}\n---\n" + job},
			want: []string{`Deployment "web" in namespace "default" (document 0, line 1): spec.strategy.rollingUpdate has maxSurge 0 and maxUnavailable 0`,
				`Deployment "web" in namespace "default" (document 0, line 1): container "app" requests cpu 2 above its limit 1; the API server refuses the Deployment itself`,
				`Job "j" in namespace "default" (document 1, line`}},
	})
	lr := "apiVersion: v1\nkind: LimitRange\nmetadata: {name: lr}\nspec:\n  limits: [{type: Container, default: {cpu: 200m}}]\n---\n"
	rollout := "apiVersion: argoproj.io/v1alpha1\nkind: Rollout\nmetadata: {name: r}\nspec:\n  replicas: 1\n  template:\n    spec:\n      containers: [{name: app, image: x, resources: " + over + "}]\n"
	for _, tc := range []struct{ name, manifests, want string }{
		{"LimitRange default limit", lr + deployment("web", "2", `{requests: {cpu: 500m, memory: 1Gi}}`, ""), `Deployment "web" in namespace "default" (document 1, line 7): the API server would refuse to create its pods (container "app" requests cpu 500m above its limit 200m)`},
		{"custom kind", rollout, `Rollout "r" in namespace "default" (document 0, line 1): the API server would refuse to create its pods (container "app" requests cpu 2 above its limit 1)`},
	} {
		res := mustRead(t, Input{Manifests: tc.manifests})
		var got []string
		for _, w := range res.Warnings {
			if w.Code == WarnPodRefused {
				got = append(got, w.Message)
			}
		}
		if len(got) != 1 || !strings.HasPrefix(got[0], tc.want) {
			t.Errorf("%s: refused-pod warnings %q, want one starting %q", tc.name, got, tc.want)
		}
	}
}

// TestReadRefusesNoContainers checks that a built-in kind whose pod template has no containers, which the API server
// refuses (ValidatePodSpec: containers Required value), is an error naming it, not a workload with a no-requests
// warning.
func TestReadRefusesNoContainers(t *testing.T) {
	empty := "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: empty}\nspec:\n  selector: {matchLabels: {app: e}}\n  template:\n    metadata: {labels: {app: e}}\n    spec: {containers: []}\n"
	initOnly := "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  initContainers: [{name: i, image: x}]\n"
	cron := "apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: c}\nspec:\n  schedule: '* * * * *'\n  jobTemplate: {spec: {template: {spec: {restartPolicy: Never}}}}\n"
	checkRefused(t, []refusedCase{
		{name: "deployment", in: Input{Manifests: empty},
			want: []string{`Deployment "empty" in namespace "default" (document 0, line 1): spec.template.spec.containers is empty; the API server refuses a Deployment whose pods run no container (ValidatePodTemplateSpec: spec.template.spec.containers: Required value)`}},
		{name: "pod and cronjob", in: Input{Manifests: initOnly + "---\n" + cron},
			want: []string{`Pod "p" in namespace "default" (document 0, line 1): spec.containers is empty`, `CronJob "c" in namespace "default" (document 1, line 7): spec.jobTemplate.spec.template.spec.containers is empty`}},
	})
}

// TestReadPriorityClasses checks that a priorityClassName absent from the manifests and not a system class warns
// (the Priority admission plugin refuses the pods unless the class exists in the cluster; the priority is unknown,
// planned as 0), and that a second globalDefault PriorityClass, which the API server refuses, is an error.
func TestReadPriorityClasses(t *testing.T) {
	pc := func(name, value, def string) string {
		return "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: " + name + "}\nvalue: " + value + "\nglobalDefault: " + def + "\n---\n"
	}
	named := func(name, class string) string {
		return deployment(name, "1", "{requests: {cpu: 100m}}", "      priorityClassName: "+class+"\n")
	}
	for _, tc := range []struct {
		name, manifests string
		wantWarn        string // "" for no priority warning
		wantPriority    int32  // -1 for null
	}{
		{"missing class", named("web", "does-not-exist"), `Deployment "web" in namespace "default" (document 0, line 1): its pods name PriorityClass "does-not-exist", which is not among the manifests nor a system class; the API server refuses its pods unless the class exists in the cluster (Priority admission: no PriorityClass with name does-not-exist was found), and its priority is unknown: it is left unset, which sizing plans as priority 0`, -1},
		{"listed class", pc("high", "1000", "false") + named("web", "high"), "", 1000},
		{"system class", named("web", "system-node-critical"), "", 2000001000},
		{"no class, a default", pc("base", "5", "true") + deployment("web", "1", "{requests: {cpu: 100m}}", ""), "", 5},
	} {
		res := mustRead(t, Input{Manifests: tc.manifests})
		var got string
		for _, w := range res.Warnings {
			if w.Code == WarnPriorityClassMissing {
				got = w.Message
			}
		}
		if tc.wantWarn == "" && got != "" || !strings.HasPrefix(got, tc.wantWarn) {
			t.Errorf("%s: warning %q, want %q", tc.name, got, tc.wantWarn)
		}
		p := int32(-1)
		if w := workload(t, res, "web"); w.Pod.Priority != nil {
			p = *w.Pod.Priority
		}
		if p != tc.wantPriority {
			t.Errorf("%s: priority %d, want %d", tc.name, p, tc.wantPriority)
		}
	}
	checkRefused(t, []refusedCase{{name: "two defaults", in: Input{Manifests: pc("a", "10", "true") + pc("b", "20", "true") + pc("c", "30", "false")},
		want: []string{`PriorityClass "b" (document 1, line 7) has globalDefault: true, as PriorityClass "a" in document 0 of the manifests (line 1) has; the API server refuses a second default class (Priority admission: only one default can exist)`}}})
}

// TestStatefulSetNote checks the StatefulSet's update note: one at a time by default, maxUnavailable at a time
// where the feature is on (the report's c08 said one at a time with maxUnavailable 2), OnDelete.
func TestStatefulSetNote(t *testing.T) {
	sts := func(strategy string) string {
		return "apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: db}\nspec:\n  replicas: 4\n  selector: {matchLabels: {app: db}}\n" + strategy +
			"  template:\n    metadata: {labels: {app: db}}\n    spec: {containers: [{name: db, image: pg, resources: {requests: {cpu: 100m}}}]}\n"
	}
	for _, tc := range []struct{ name, strategy, want string }{
		{"default", "", "StatefulSet: pods are replaced one at a time, never surged"},
		{"maxUnavailable 2", "  updateStrategy: {rollingUpdate: {maxUnavailable: 2}}\n", "StatefulSet: never surged (each pod is deleted before its replacement starts); up to maxUnavailable 2 pods are replaced at a time where the MaxUnavailableStatefulSet feature is on (on by default since Kubernetes 1.37), else one at a time"},
		{"maxUnavailable 50%", "  updateStrategy: {type: RollingUpdate, rollingUpdate: {maxUnavailable: 50%}}\n", "up to maxUnavailable 50% pods are replaced at a time"},
		{"OnDelete", "  updateStrategy: {type: OnDelete}\n", "StatefulSet updateStrategy OnDelete: a pod is replaced only when deleted, never surged"},
	} {
		w := workload(t, mustRead(t, Input{Manifests: sts(tc.strategy)}), "db")
		if all := strings.Join(w.Pod.Derivation, "|"); !strings.Contains(all, tc.want) {
			t.Errorf("%s: derivation %q, want %q", tc.name, w.Pod.Derivation, tc.want)
		}
	}
}

// TestReadNegativeRequest checks that a negative request names its container and is refused as the API server
// refuses it (ValidateNonnegativeQuantity, on a Deployment's template), once; and that the pod-total bound, for a
// custom kind, is said in the resource's unit (the report's c40: an unlabelled bound in millicores).
func TestReadNegativeRequest(t *testing.T) {
	neg := `{requests: {cpu: -500m, memory: 64Mi}}`
	rollout := "apiVersion: argoproj.io/v1alpha1\nkind: Rollout\nmetadata: {name: r}\nspec:\n  replicas: 1\n  template:\n    spec:\n      containers: [{name: c, image: x, resources: " + neg + "}]\n"
	checkRefused(t, []refusedCase{
		{name: "deployment", in: Input{Manifests: deployment("neg", "1", neg, "")},
			want: []string{`Deployment "neg" in namespace "default" (document 0, line 1): container "app" requests cpu -500m, which must be 0 or more; the API server refuses the Deployment itself`}},
		{name: "custom kind", in: Input{Manifests: rollout},
			want: []string{`Rollout "r" in namespace "default" (document 0, line 1): its pods request -500m cpu in all (-500 millicores), outside 0 to 1,125,899,906,842,624 millicores; fix its containers' requests`}},
	})
}

// TestReadReportsEveryStageAtOnce: a document that does not decode (an HPA at a version Kubernetes no longer serves),
// an HPA whose bounds the API server refuses and one without maxReplicas are reported in one read, not one stage
// per plan.
func TestReadReportsEveryStageAtOnce(t *testing.T) {
	hpa := func(name, version, bounds string) string {
		return "apiVersion: autoscaling/" + version + "\nkind: HorizontalPodAutoscaler\nmetadata: {name: " + name +
			"}\nspec:\n  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}\n" + bounds
	}
	checkRefused(t, []refusedCase{{name: "decode, bounds, missing maximum",
		in: Input{Manifests: deployment("web", "2", "", "") + "---\n" + hpa("old", "v2beta2", "  maxReplicas: 3\n") + "---\n" +
			hpa("inverted", "v2", "  minReplicas: 8\n  maxReplicas: 4\n") + "---\n" + hpa("nomax", "v2", "  minReplicas: 2\n")},
		want: []string{`has apiVersion autoscaling/v2beta2 and kind HorizontalPodAutoscaler, which Kubernetes stopped serving in 1.26`,
			`HorizontalPodAutoscaler "inverted" in namespace "default" (document 2, line 23): the minimum replica count 8 is above the maximum 4`,
			`HorizontalPodAutoscaler "nomax" in namespace "default" (document 3, line 31): spec.maxReplicas is not set or 0`}}})
}

// TestReadReportsManifestsAndSnapshotErrors: a document of the manifests and one of the cluster snapshot that do not
// decode are reported together, not the snapshot's alone.
func TestReadReportsManifestsAndSnapshotErrors(t *testing.T) {
	old := "apiVersion: autoscaling/v2beta2\nkind: HorizontalPodAutoscaler\nmetadata: {name: %s}\nspec: {scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}, maxReplicas: 3}\n"
	_, err := Read(Input{Manifests: fmt.Sprintf(old, "in-manifests"), Cluster: fmt.Sprintf(old, "in-cluster")})
	es := field.As(err)
	if len(es) != 2 || !strings.Contains(es[0].Detail, `"in-manifests"`) || !strings.Contains(es[1].Detail, `"in-cluster"`) {
		t.Errorf("errors %v, want the manifests' and the snapshot's", err)
	}
}
