package provider

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	k8sresource "k8s.io/apimachinery/pkg/api/resource"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/workloads"
)

var _ datasource.DataSource = (*workloadsDataSource)(nil)

type workloadsDataSource struct{}

func newWorkloadsDataSource() datasource.DataSource { return &workloadsDataSource{} }

type workloadsFilterModel struct {
	Kinds      types.List `tfsdk:"kinds"`
	Namespaces types.List `tfsdk:"namespaces"`
	Names      types.List `tfsdk:"names"`
	Labels     types.Map  `tfsdk:"labels"`
}

type workloadsOverrideModel struct {
	CPUUsage      types.String `tfsdk:"cpu_usage"`
	ExtraReplicas types.Int64  `tfsdk:"extra_replicas"`
}

type workloadsModel struct {
	Manifests        types.String `tfsdk:"manifests"`
	Cluster          types.String `tfsdk:"cluster"`
	Namespace        types.String `tfsdk:"namespace"`
	Include          types.List   `tfsdk:"include"`
	Exclude          types.List   `tfsdk:"exclude"`
	Overrides        types.Map    `tfsdk:"overrides"`
	IncludeHelmHooks types.Bool   `tfsdk:"include_helm_hooks"`

	Pools      types.Map      `tfsdk:"pools"`
	Workloads  []workloadOut  `tfsdk:"workloads"`
	DaemonSets []daemonSetOut `tfsdk:"daemonsets"`
	Skipped    []skippedOut   `tfsdk:"skipped"`
	Warnings   []string       `tfsdk:"warnings"`
}

// The outputs, as plain Go values the framework reflects into the schema's types (nil pointers are null).
type (
	requestsOut struct {
		CPU              *string `tfsdk:"cpu"`
		Memory           *string `tfsdk:"memory"`
		EphemeralStorage *string `tfsdk:"ephemeral_storage"`
		GPU              *int64  `tfsdk:"gpu"`
	}
	// workloadRequestsOut is a workload's requests (workloadRequestsAttribute): a DaemonSet's and its extended ones.
	workloadRequestsOut struct {
		CPU              *string           `tfsdk:"cpu"`
		Memory           *string           `tfsdk:"memory"`
		EphemeralStorage *string           `tfsdk:"ephemeral_storage"`
		GPU              *int64            `tfsdk:"gpu"`
		Extended         map[string]string `tfsdk:"extended"`
	}
	requirementOut struct {
		Key      string   `tfsdk:"key"`
		Operator string   `tfsdk:"operator"`
		Values   []string `tfsdk:"values"`
	}
	hostPortOut struct {
		Port     int64   `tfsdk:"port"`
		Protocol *string `tfsdk:"protocol"`
		IP       *string `tfsdk:"ip"`
	}
	termOut struct {
		MatchExpressions []requirementOut `tfsdk:"match_expressions"`
	}
	weightedTermOut struct {
		Weight           int64            `tfsdk:"weight"`
		MatchExpressions []requirementOut `tfsdk:"match_expressions"`
	}
	tolerationOut struct {
		Key      *string `tfsdk:"key"`
		Operator *string `tfsdk:"operator"`
		Value    *string `tfsdk:"value"`
		Effect   *string `tfsdk:"effect"`
	}
	spreadOut struct {
		Type    string `tfsdk:"type"`
		MaxSkew *int64 `tfsdk:"max_skew"`
	}
	sourceOut struct {
		APIVersion string `tfsdk:"api_version"`
		Kind       string `tfsdk:"kind"`
		Namespace  string `tfsdk:"namespace"`
		Name       string `tfsdk:"name"`
		Document   int64  `tfsdk:"document"`
		Line       int64  `tfsdk:"line"`
	}
	podRequestsOut struct {
		CPUMillicores         int64             `tfsdk:"cpu_millicores"`
		MemoryBytes           int64             `tfsdk:"memory_bytes"`
		EphemeralStorageBytes int64             `tfsdk:"ephemeral_storage_bytes"`
		GPU                   int64             `tfsdk:"gpu"`
		Extended              map[string]string `tfsdk:"extended"`
	}
	claimOut struct {
		Name         string   `tfsdk:"name"`
		Size         *string  `tfsdk:"size"`
		SizeBytes    *int64   `tfsdk:"size_bytes"`
		StorageClass *string  `tfsdk:"storage_class"`
		AccessModes  []string `tfsdk:"access_modes"`
		From         string   `tfsdk:"from"`
		IOPS         *int64   `tfsdk:"iops"`
		Throughput   *float64 `tfsdk:"throughput_mbps"`
	}
	constraintOut struct {
		Type     string `tfsdk:"type"`
		Modelled bool   `tfsdk:"modelled"`
		As       string `tfsdk:"as"`
		Spec     string `tfsdk:"spec"`
	}
	autoscalerOut struct {
		Kind        string `tfsdk:"kind"`
		Name        string `tfsdk:"name"`
		MinReplicas int64  `tfsdk:"min_replicas"`
		MaxReplicas int64  `tfsdk:"max_replicas"`
	}
	budgetOut struct {
		Name           string  `tfsdk:"name"`
		MinAvailable   *string `tfsdk:"min_available"`
		MaxUnavailable *string `tfsdk:"max_unavailable"`
	}
	workloadOut struct {
		Name         string                `tfsdk:"name"`
		Replicas     *int64                `tfsdk:"replicas"`
		MinReplicas  *int64                `tfsdk:"min_replicas"`
		MaxReplicas  *int64                `tfsdk:"max_replicas"`
		Requests     workloadRequestsOut   `tfsdk:"requests"`
		CPUUsage     *string               `tfsdk:"cpu_usage"`
		NodeSelector map[string]string     `tfsdk:"node_selector"`
		Tolerations  []tolerationOut       `tfsdk:"tolerations"`
		NodeAffinity []termOut             `tfsdk:"node_affinity"`
		Preferred    []weightedTermOut     `tfsdk:"preferred_node_affinity"`
		HostPorts    []hostPortOut         `tfsdk:"host_ports"`
		Namespace    *string               `tfsdk:"namespace"`
		Labels       map[string]string     `tfsdk:"labels"`
		PodAffinity  *podAffinityModel     `tfsdk:"pod_affinity"`
		PodAnti      *podAffinityModel     `tfsdk:"pod_anti_affinity"`
		TopoSpread   []topologySpreadModel `tfsdk:"topology_spread"`
		Pools        []string              `tfsdk:"pools"`
		OS           *string               `tfsdk:"os"`
		MaxSurge     *string               `tfsdk:"max_surge"`
		Spread       *spreadOut            `tfsdk:"spread"`

		Source            sourceOut       `tfsdk:"source"`
		PodRequests       podRequestsOut  `tfsdk:"pod_requests"`
		Derivation        []string        `tfsdk:"requests_derivation"`
		Autoscaler        *autoscalerOut  `tfsdk:"autoscaler"`
		DisruptionBudget  *budgetOut      `tfsdk:"pod_disruption_budget"`
		VolumeClaims      []claimOut      `tfsdk:"volume_claims"`
		Constraints       []constraintOut `tfsdk:"constraints"`
		PriorityClassName *string         `tfsdk:"priority_class_name"`
		Priority          *int64          `tfsdk:"priority"`
	}
	daemonSetOut struct {
		Name         string            `tfsdk:"name"`
		Requests     requestsOut       `tfsdk:"requests"`
		CPUUsage     *string           `tfsdk:"cpu_usage"`
		NodeSelector map[string]string `tfsdk:"node_selector"`
		Tolerations  []tolerationOut   `tfsdk:"tolerations"`
		NodeAffinity []termOut         `tfsdk:"node_affinity"`
		HostPorts    []hostPortOut     `tfsdk:"host_ports"`
		TakesPodSlot *bool             `tfsdk:"takes_pod_slot"`

		Source            sourceOut       `tfsdk:"source"`
		PodRequests       podRequestsOut  `tfsdk:"pod_requests"`
		Derivation        []string        `tfsdk:"requests_derivation"`
		VolumeClaims      []claimOut      `tfsdk:"volume_claims"`
		Constraints       []constraintOut `tfsdk:"constraints"`
		PriorityClassName *string         `tfsdk:"priority_class_name"`
		Priority          *int64          `tfsdk:"priority"`
		UpdateMaxSurge    *string         `tfsdk:"update_max_surge"`
	}
	skippedOut struct {
		Source sourceOut `tfsdk:"source"`
		Reason string    `tfsdk:"reason"`
	}
)

func (d *workloadsDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_workloads"
}

func (d *workloadsDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	defer cacheDataSourceTypes(&resp.Schema)
	filter := schema.ListNestedAttribute{Optional: true,
		NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
			"kinds":      schema.ListAttribute{Optional: true, ElementType: types.StringType, MarkdownDescription: "Kinds (`Deployment`, `StatefulSet`, …; any of them, case-insensitive)."},
			"namespaces": schema.ListAttribute{Optional: true, ElementType: types.StringType, MarkdownDescription: "Namespaces (any of them)."},
			"names":      schema.ListAttribute{Optional: true, ElementType: types.StringType, MarkdownDescription: "Object names or shell patterns (`ingress-*`; any of them)."},
			"labels":     schema.MapAttribute{Optional: true, ElementType: types.StringType, MarkdownDescription: "Labels the object must carry, all of them, with these values."},
		}}}
	include, exclude := filter, filter
	const filtersApply = " Filters apply to every document, autoscalers and LimitRanges included: `include = [{ kinds = [\"Deployment\"] }]` leaves out " +
		"the HPA that scales a Deployment and the LimitRange that defaults its requests, so a warning names each autoscaler or LimitRange left out " +
		"that concerns a workload read, and what it would have changed."
	include.MarkdownDescription = "Read only the objects some filter matches (every given field of a filter must match). Default: all objects." + filtersApply
	exclude.MarkdownDescription = "Then leave out the objects any filter matches." + filtersApply

	w := computedAttributes(workloadsAttribute().NestedObject.Attributes)
	for k, v := range podOutputAttributes() {
		w[k] = v
	}
	if pl, ok := w["pools"].(schema.ListAttribute); ok {
		pl.MarkdownDescription = "Always null: manifests do not name kubefit's pools; `node_selector`, `tolerations` and `node_affinity` carry where " +
			"the pods may run (set `pools` with `merge` to restrict a workload in `kubefit_node_pool_sizing`; a `kubefit_node_group` refuses it)."
		w["pools"] = pl
	}
	w["autoscaler"] = schema.SingleNestedAttribute{Computed: true, MarkdownDescription: "The HorizontalPodAutoscaler or KEDA ScaledObject that sets `min_replicas`/`max_replicas` (null for a fixed count).",
		Attributes: map[string]schema.Attribute{
			"kind":         schema.StringAttribute{Computed: true, MarkdownDescription: "`HorizontalPodAutoscaler`, `ScaledObject`, or `ScaledJob` (the workload itself: its `min_replicas`/`max_replicas` count Jobs, the workload's count their pods)."},
			"name":         schema.StringAttribute{Computed: true, MarkdownDescription: "Its name."},
			"min_replicas": schema.Int64Attribute{Computed: true, MarkdownDescription: "Its effective minimum (HPA default 1, KEDA default 0)."},
			"max_replicas": schema.Int64Attribute{Computed: true, MarkdownDescription: "Its effective maximum (KEDA default 100)."},
		}}
	w["pod_disruption_budget"] = schema.SingleNestedAttribute{Computed: true, MarkdownDescription: "The PodDisruptionBudget whose selector matches the pods (null when none does).",
		Attributes: map[string]schema.Attribute{
			"name":            schema.StringAttribute{Computed: true, MarkdownDescription: "Its name."},
			"min_available":   schema.StringAttribute{Computed: true, MarkdownDescription: "`minAvailable` as written (null when unset)."},
			"max_unavailable": schema.StringAttribute{Computed: true, MarkdownDescription: "`maxUnavailable` as written (null when unset)."},
		}}
	ds := computedAttributes(daemonSetsAttribute().NestedObject.Attributes)
	for k, v := range podOutputAttributes() {
		ds[k] = v
	}
	ds["update_max_surge"] = schema.StringAttribute{Computed: true, MarkdownDescription: "The DaemonSet's rolling-update `maxSurge` when above 0: during an update a node runs the old and the new pod (a warning says sizing counts one)."}

	resp.Schema = schema.Schema{
		MarkdownDescription: "Reads the workloads a team already deploys from their Kubernetes manifests (`helm template` output, the " +
			"hashicorp/helm provider's `helm_template`, `kustomize build`, files in the repository, `kubernetes_manifest` objects " +
			"through `yamlencode`, or `kubectl get -o json`) and returns them in exactly the shape `kubefit_node_pool_sizing`, " +
			"`kubefit_node_group` and `kubefit_node_pool_recommendation` take: `workloads = data.kubefit_workloads.app.workloads` " +
			"(or `concat` with hand-written ones), and the same for `daemonsets`.\n\n" +
			"Each pod's request is what the scheduler compares with a node's allocatable, computed as Kubernetes does: API " +
			"defaulting (a limit stands in for a missing request), the namespace's `LimitRange` defaults, pod-level resources, " +
			"the `RuntimeClass` overhead, then `k8s.io/component-helpers` `resource.PodRequests` (the larger of the init " +
			"containers and the app containers, sidecars added). A `RuntimeClass`'s `scheduling` (node selector and tolerations) is merged " +
			"into its pods as the API server's RuntimeClass admission merges it (a conflicting node selector is an error). A pod template the API server refuses as written (a negative request, a request above " +
			"its limit, pod-level requests below the containers', an extended resource such as `nvidia.com/gpu` that is not a whole " +
			"number) is an error: it refuses the Deployment, Job or other built-in object itself. Pods refused only after admission " +
			"(a `LimitRange`'s default limit below a request, its min, max or limit-to-request ratio broken) and a custom kind's " +
			"pods that break those rules get a warning: they would never run. Replica bounds come from the `HorizontalPodAutoscaler` " +
			"(`autoscaling/v2` or `v1`) or KEDA `ScaledObject` that targets a workload by its API group (of `scaleTargetRef.apiVersion`, " +
			"`apps` for a ScaledObject without one), kind and name, as the HPA controller and KEDA resolve it (one naming another group " +
			"never scales the workload: a warning), with their defaults (a ScaledObject's " +
			"`autoscaling.keda.sh/paused-replicas` pins both bounds at its count; `autoscaling.keda.sh/paused` freezes a count " +
			"the manifests do not tell, planned steady at the maximum). An autoscaler the API server or KEDA refuses is an error naming " +
			"it and the rule (`HPA-E2`, `HPA-E3`, `HPA-E4`, `HPA-E8` of `kubefit_horizontal_pod_autoscaler` for Kubernetes 1.37, where " +
			"`HPAScaleToZero` is on by default; `KSO-E4`…`KSO-E8`, `KSO-E12` of `kubefit_keda_scaled_object`); a ScaledObject KEDA " +
			"admits but cannot build a scaler from (`KSO-E10`, `KSO-E13`) makes no HPA, so its target is planned at its replicas field, " +
			"with a warning. Two or more HPAs on one workload are admitted, but the HPA controller then scales with none of them " +
			"(`AmbiguousSelector`): it runs its replicas field, planned steady there and at most the largest of it and their maxima, " +
			"since deleting all but one lets that one scale, with a warning; a ScaledObject beside another autoscaler on one target is an " +
			"error, as KEDA's admission webhook refuses it. `max_surge` from the " +
			"Deployment's strategy (default 25 %), an Argo Rollout's from its strategy (100 % for blueGreen and for a canary with " +
			"`trafficRouting` and without `dynamicStableScale`, whose stable ReplicaSet stays at full size while the canary grows; a canary's " +
			"`maxSurge`, default 25 %), another custom kind's where it writes one (`spec.strategy.rollingUpdate.maxSurge`, an OpenKruise " +
			"CloneSet's `spec.updateStrategy.maxSurge` or `spec.updateStrategy.rollingUpdate.maxSurge`, default 0; an OpenKruise Advanced DaemonSet is read as a DaemonSet); a custom kind that writes " +
			"none is planned at an assumed 100 % (a full second set of pods, as a blue-green update runs), said in its derivation and warning. Helm hooks (test Pods, install Jobs) are not steady load and go to `skipped` " +
			"unless `include_helm_hooks = true`.\n\n" +
			"Scheduling constraints are carried as written in `constraints`. Those sizing models become its inputs: node " +
			"selector, tolerations, required and preferred node affinity (as `node_affinity` and `preferred_node_affinity`; a DaemonSet's preference is " +
			"moot, its pods land on every node its rules allow), inter-pod affinity and anti-affinity, required " +
			"and preferred (as `pod_affinity` and `pod_anti_affinity`, with the pods' `namespace` and `labels`), topology spread " +
			"constraints (as `topology_spread`), host ports, and volume claims (as `volume_claims`, each " +
			"claim but a ReadWriteMany one taking one of its node's volume attachments); every other constraint is reported in a " +
			"warning naming the workload, never dropped silently.\n\n" +
			"Documents are decoded with client-go's scheme into `k8s.io/api` types; unknown fields of a known kind are a warning " +
			"naming them, though `kubectl apply` (strict field validation, its default since kubectl 1.27) and Helm refuse them. A built-in kind in a version no Kubernetes release serves (`apps/V1`, `apps/v1beta1`, a " +
			"DaemonSet at `v1` or `app/v1`) is an error, as `kubectl apply` refuses it; a kind of a group of its own (a dotted group " +
			"client-go does not know, such as `argoproj.io`) is a custom kind. At most 64 MiB and 100,000 documents are read.\n\n" +
			"Objects the API server refuses outright are errors at plan time, each naming the object and what to write instead, all of " +
			"them reported at once (up to 20): a `metadata.name` that is not a lowercase DNS-1123 subdomain (`Web_App`; a label, no dots, for a " +
			"StatefulSet; at most 52 characters for a CronJob; any custom resource's too), a `metadata.namespace` or `namespace` input that " +
			"is not a DNS-1123 label; a Deployment, StatefulSet, DaemonSet or ReplicaSet without `spec.selector` (apps/v1 requires one), with an " +
			"empty one or one that does not match its pod template's labels; a Deployment strategy with `maxSurge` and `maxUnavailable` both 0 " +
			"(or `0%`), with `rollingUpdate` and `type: Recreate`, or of another type; a built-in kind whose pod template has no containers; a " +
			"second PriorityClass with `globalDefault: true`. A `priorityClassName` that is neither among the manifests nor a system class gets a " +
			"warning: the API server refuses the pods unless the class exists in the cluster, and `priority` is null, which sizing plans as 0.",
		Attributes: map[string]schema.Attribute{
			"manifests": schema.StringAttribute{Optional: true,
				MarkdownDescription: "One or more YAML documents separated by `---` (JSON documents too: `jsonencode` objects joined with `\"\\n---\\n\"` are a YAML stream), or JSON values one after the other (a `kubectl get -o json` List); `List` kinds, a top-level JSON array and a top-level YAML sequence (`yamlencode([obj1, obj2])`) are unwrapped. At least one of `manifests` and `cluster`.",
				Validators:          []validator.String{stringvalidator.AtLeastOneOf(path.MatchRoot("cluster"))}},
			"cluster": schema.StringAttribute{Optional: true,
				MarkdownDescription: "A running cluster: the JSON (or YAML) of `kubectl get nodes,pods,pvc -A -o json` (HPAs, ScaledObjects and LimitRanges may be included). " +
					"Its nodes become measured `pools` (grouped by their node-group label, else by instance type; allocatable and capacity of the least roomy node; " +
					"the labels and taints all of them carry; cordoned nodes left out) and its running and Pending pods the existing load, grouped back into their owners " +
					"(a ReplicaSet's pods into their Deployment, DaemonSet pods into one DaemonSet). A pod owner also in `manifests` is read from `manifests` instead: the change being planned."},
			"namespace": schema.StringAttribute{Optional: true, MarkdownDescription: "Namespace of namespaced objects that name none (default `default`; `helm template -n` sets one on most objects); a lowercase DNS-1123 label, as every namespace is (`team-a`, not `Team A`)."},
			"include":   include,
			"exclude":   exclude,
			"overrides": schema.MapNestedAttribute{Optional: true,
				MarkdownDescription: "Changes to the workloads or DaemonSets read, keyed by their name in `workloads`/`daemonsets`.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"cpu_usage":      schema.StringAttribute{Optional: true, MarkdownDescription: "Expected real CPU use of one pod (burstable credit checks), e.g. `60m`.", Validators: []validator.String{quantityValidator{quantityCPU}}},
					"extra_replicas": schema.Int64Attribute{Optional: true, MarkdownDescription: "Added to the fixed replica count, or to both autoscaling bounds (workloads only).", Validators: []validator.Int64{int64validator.AtLeast(0)}},
				}}},
			"include_helm_hooks": schema.BoolAttribute{Optional: true, MarkdownDescription: "Read Helm hook objects (the `helm.sh/hook` annotation) as workloads too (default `false`)."},

			"pools": poolsOutputAttribute(),
			"workloads": schema.ListNestedAttribute{Computed: true,
				MarkdownDescription: "Pod-owning objects other than DaemonSets (Deployment, StatefulSet, ReplicaSet and ReplicationController not owned by a listed object, Job and CronJob by parallelism (a suspended one too, with a note: a queue such as Kueue resumes it when it admits it), KEDA `ScaledJob` as `min_replicas`/`max_replicas` of minReplicaCount (default 0) to maxReplicaCount (default 100) Jobs times each Job's parallelism, bare Pods (not finished ones, `status.phase` Succeeded or Failed, which take no node resources; not a DaemonSet's pods, listed or not; not pods of an unlisted ReplicaSet whose name less its `pod-template-hash` is a listed Deployment, which are that Deployment's), and custom kinds with a pod template at `spec.template`, one whose `spec` has a `containers` list (a Karpenter NodePool's or a Cluster API machine template is skipped: it creates no pods); an Argo Rollout with `spec.workloadRef` runs its replicas of the referenced Deployment's template, and a warning names a referenced Deployment missing from `manifests`), in the input shape of `workloads` plus what was read with them. Named by the object's name; `namespace/name` (then `namespace/Kind/name`) where names clash.",
				NestedObject:        schema.NestedAttributeObject{Attributes: w}},
			"daemonsets": schema.ListNestedAttribute{Computed: true,
				MarkdownDescription: "DaemonSets, in the input shape of `daemonsets` plus what was read with them.",
				NestedObject:        schema.NestedAttributeObject{Attributes: ds}},
			"skipped": schema.ListNestedAttribute{Computed: true, MarkdownDescription: "Every object not turned into a workload or DaemonSet, with the reason (a Service, a Helm hook, an autoscaler and what it scales, …).",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"source": sourceAttribute(),
					"reason": schema.StringAttribute{Computed: true, MarkdownDescription: "Why it is not a workload, or what it contributed."},
				}}},
			"warnings": schema.ListAttribute{Computed: true, ElementType: types.StringType,
				MarkdownDescription: "Everything that may make a plan from these manifests wrong (also reported as warning diagnostics): constraints sizing does not model yet, pods without requests, autoscalers whose target is missing, unknown fields."},
		},
	}
}

func sourceAttribute() schema.SingleNestedAttribute {
	return schema.SingleNestedAttribute{Computed: true, MarkdownDescription: "The object it was read from.",
		Attributes: map[string]schema.Attribute{
			"api_version": schema.StringAttribute{Computed: true, MarkdownDescription: "`apiVersion`."},
			"kind":        schema.StringAttribute{Computed: true, MarkdownDescription: "`kind`."},
			"namespace":   schema.StringAttribute{Computed: true, MarkdownDescription: "Namespace (empty for cluster-scoped kinds)."},
			"name":        schema.StringAttribute{Computed: true, MarkdownDescription: "Name (`generateName` for generated names)."},
			"document":    schema.Int64Attribute{Computed: true, MarkdownDescription: "0-based index of its document in `manifests`."},
			"line":        schema.Int64Attribute{Computed: true, MarkdownDescription: "Line of `manifests` where its document starts (0 for JSON)."},
		}}
}

// podOutputAttributes are what a workload and a DaemonSet carry besides their sizing inputs.
func podOutputAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"source": sourceAttribute(),
		"pod_requests": schema.SingleNestedAttribute{Computed: true, MarkdownDescription: "The effective request of one pod, as numbers.",
			Attributes: map[string]schema.Attribute{
				"cpu_millicores":          schema.Int64Attribute{Computed: true, MarkdownDescription: "CPU, millicores."},
				"memory_bytes":            schema.Int64Attribute{Computed: true, MarkdownDescription: "Memory, bytes."},
				"ephemeral_storage_bytes": schema.Int64Attribute{Computed: true, MarkdownDescription: "Ephemeral storage, bytes."},
				"gpu":                     schema.Int64Attribute{Computed: true, MarkdownDescription: "GPUs (`nvidia.com/gpu`; `amd.com/gpu` and other device plugins' resources are in `extended`)."},
				"extended":                schema.MapAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: "Every other requested resource (hugepages, extended resources such as `amd.com/gpu`) by name, as quantities; a workload's are also in `requests.extended`, where sizing places its pods only on pools whose nodes offer them (a DaemonSet's are not counted: a warning says so)."},
			}},
		"requests_derivation": schema.ListAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: "How the request and the replica bounds were derived, one step per entry."},
		"volume_claims": schema.ListNestedAttribute{Computed: true, MarkdownDescription: "Persistent volume claims of one pod: `volumeClaimTemplates`, named claims (`persistentVolumeClaim`) and generic ephemeral volumes.",
			NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
				"name":            schema.StringAttribute{Computed: true, MarkdownDescription: "Claim (template or volume) name."},
				"size":            schema.StringAttribute{Computed: true, MarkdownDescription: "Storage request as written (`1.5Gi`, not its canonical `1536Mi`; an unquoted YAML number as YAML reads it, `1e3` as `1000`; the canonical form when one object writes the same size two ways; null when the claim is not among the manifests)."},
				"size_bytes":      schema.Int64Attribute{Computed: true, MarkdownDescription: "Storage request in bytes."},
				"storage_class":   schema.StringAttribute{Computed: true, MarkdownDescription: "`storageClassName` (null: the cluster's default class)."},
				"access_modes":    schema.ListAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: "Access modes."},
				"from":            schema.StringAttribute{Computed: true, MarkdownDescription: "`volumeClaimTemplates`, `persistentVolumeClaim` or `ephemeral`."},
				"iops":            schema.Int64Attribute{Computed: true, MarkdownDescription: "Always null: a volume's provisioned rates come from its StorageClass's tier, which `kubefit_storage_class` computes; set them on the claim to have sizing check them against the node's disk limits."},
				"throughput_mbps": schema.Float64Attribute{Computed: true, MarkdownDescription: "Always null, as `iops`."},
			}}},
		"constraints": schema.ListNestedAttribute{Computed: true, MarkdownDescription: "The pod's scheduling constraints as written, and whether sizing models them.",
			NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
				"type":     schema.StringAttribute{Computed: true, MarkdownDescription: "`nodeSelector`, `tolerations`, `nodeAffinity.required`, `nodeAffinity.preferred`, `podAffinity.required`, `podAffinity.preferred`, `podAntiAffinity.required`, `podAntiAffinity.preferred`, `topologySpreadConstraints`, `hostPort`, `volumes`, `nodeName` or `schedulingGates`."},
				"modelled": schema.BoolAttribute{Computed: true, MarkdownDescription: "Whether sizing honours it."},
				"as":       schema.StringAttribute{Computed: true, MarkdownDescription: "How it is modelled (`spread = node`), or why it is not."},
				"spec":     schema.StringAttribute{Computed: true, MarkdownDescription: "The constraint's JSON as it appears in the pod spec."},
			}}},
		"priority_class_name": schema.StringAttribute{Computed: true, MarkdownDescription: "`priorityClassName` (null for none)."},
		"priority":            schema.Int64Attribute{Computed: true, MarkdownDescription: "The priority value, when its PriorityClass (or a global default) is among the manifests or is a system class; null otherwise (a warning names a class that is missing), which `kubefit_node_pool_sizing` takes as 0."},
	}
}

// computedAttributes turns input attributes into the same attributes, computed: an output in exactly the
// shape an input takes, from the one schema builder.
func computedAttributes(in map[string]schema.Attribute) map[string]schema.Attribute {
	out := make(map[string]schema.Attribute, len(in))
	for k, a := range in {
		if isMisplaced(a) {
			continue // an input only, to refuse a key written in the wrong place
		}
		out[k] = computedAttribute(a)
	}
	return out
}

func computedAttribute(a schema.Attribute) schema.Attribute {
	switch a := a.(type) {
	case schema.StringAttribute:
		return schema.StringAttribute{Computed: true, MarkdownDescription: a.MarkdownDescription}
	case schema.Int64Attribute:
		return schema.Int64Attribute{Computed: true, MarkdownDescription: a.MarkdownDescription}
	case schema.BoolAttribute:
		return schema.BoolAttribute{Computed: true, MarkdownDescription: a.MarkdownDescription}
	case schema.ListAttribute:
		return schema.ListAttribute{Computed: true, ElementType: a.ElementType, MarkdownDescription: a.MarkdownDescription}
	case schema.MapAttribute:
		return schema.MapAttribute{Computed: true, ElementType: a.ElementType, MarkdownDescription: a.MarkdownDescription}
	case schema.Float64Attribute:
		return schema.Float64Attribute{Computed: true, MarkdownDescription: a.MarkdownDescription}
	case schema.SingleNestedAttribute:
		return schema.SingleNestedAttribute{Computed: true, MarkdownDescription: a.MarkdownDescription, Attributes: computedAttributes(a.Attributes)}
	case schema.ListNestedAttribute:
		return schema.ListNestedAttribute{Computed: true, MarkdownDescription: a.MarkdownDescription,
			NestedObject: schema.NestedAttributeObject{Attributes: computedAttributes(a.NestedObject.Attributes)}}
	}
	panic(fmt.Sprintf("computedAttribute: unsupported attribute type %T", a))
}

// workloadsRenames maps the reader's field names to this data source's attributes.
var workloadsRenames = renames{"CPUUsageMillicores": "cpu_usage"}

func (d *workloadsDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m workloadsModel
	resp.Diagnostics.Append(configGet(ctx, req.Config, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if m.Manifests.IsNull() && m.Cluster.IsNull() {
		resp.Diagnostics.AddAttributeError(path.Root("manifests"), "Nothing to Read",
			"Give manifests (rendered YAML or JSON) or cluster (kubectl get nodes,pods,pvc -A -o json), or both.")
		return
	}
	in := expandWorkloadsInput(ctx, m, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	res, err := workloads.Read(in)
	if addPlannerErrors(&resp.Diagnostics, path.Empty(), oneErrorPerInput(err), workloadsRenames, "Invalid Manifests") {
		return
	}
	addWorkloadsWarnings(&resp.Diagnostics, res.Warnings)
	m.Workloads, m.DaemonSets, m.Skipped, m.Warnings = flattenWorkloads(res)
	var diags diag.Diagnostics
	m.Pools, diags = flattenPools(ctx, res.Pools)
	resp.Diagnostics.Append(diags...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// oneErrorPerInput joins the reader's errors on one input (manifests, cluster: several broken documents) into one
// error that lists them all. The protocol server keeps one error per configured value (nameAttributes drops a
// second, as a validator's and the object's check of one bad value), which would show the first broken document
// only and leave the others for the next plans. Errors on different paths (overrides, filters) stay apart.
func oneErrorPerInput(err error) error {
	es := field.As(err)
	if len(es) < 2 {
		return err
	}
	var order []string
	by := map[string]field.Errors{}
	for _, e := range es {
		k := e.Path.String()
		if _, ok := by[k]; !ok {
			order = append(order, k)
		}
		by[k] = append(by[k], e)
	}
	out := make(field.Errors, 0, len(order))
	for _, k := range order {
		g := by[k]
		if len(g) == 1 {
			out = append(out, g[0])
			continue
		}
		items := make([]string, len(g))
		for i, e := range g {
			items[i] = "- " + sentence(e.Detail)
		}
		out = append(out, &field.Error{Path: g[0].Path, Detail: fmt.Sprintf("%d problems, each to fix:\n\n%s", len(g), strings.Join(items, "\n\n"))})
	}
	return out
}

// expandWorkloadsInput converts the configuration into the reader's input.
func expandWorkloadsInput(ctx context.Context, m workloadsModel, diags *diag.Diagnostics) workloads.Input {
	in := workloads.Input{Manifests: m.Manifests.ValueString(), Cluster: m.Cluster.ValueString(), Namespace: m.Namespace.ValueString(), IncludeHelmHooks: m.IncludeHelmHooks.ValueBool()}
	filters := func(l types.List, name string) []workloads.Filter {
		var fms []workloadsFilterModel
		diags.Append(listElementsAs(ctx, l, &fms, false)...)
		out := make([]workloads.Filter, len(fms))
		for i, f := range fms {
			diags.Append(listElementsAs(ctx, f.Kinds, &out[i].Kinds, false)...)
			diags.Append(listElementsAs(ctx, f.Namespaces, &out[i].Namespaces, false)...)
			diags.Append(listElementsAs(ctx, f.Names, &out[i].Names, false)...)
			diags.Append(f.Labels.ElementsAs(ctx, &out[i].Labels, false)...)
		}
		addPlannerErrors(diags, path.Root(name), workloads.ValidateFilters(field.Path{}, out).Err(), nil, "Invalid Filter")
		return out
	}
	in.Include, in.Exclude = filters(m.Include, "include"), filters(m.Exclude, "exclude")
	var ovs map[string]workloadsOverrideModel
	diags.Append(m.Overrides.ElementsAs(ctx, &ovs, false)...)
	if len(ovs) > 0 {
		in.Overrides = map[string]workloads.Override{}
	}
	for k, o := range ovs {
		ov := workloads.Override{ExtraReplicas: int(o.ExtraReplicas.ValueInt64())}
		ov.CPUUsageMillicores = optQuantity(path.Root("overrides").AtMapKey(k).AtName("cpu_usage"), o.CPUUsage, quantityCPU, diags)
		in.Overrides[k] = ov
	}
	return in
}

// addWorkloadsWarnings reports the reader's warnings folded by code: one diagnostic per kind of warning,
// naming every object it concerns.
func addWorkloadsWarnings(diags *diag.Diagnostics, ws []workloads.Warning) {
	byCode := map[string][]string{}
	var codes []string
	for _, w := range ws {
		if _, ok := byCode[w.Code]; !ok {
			codes = append(codes, w.Code)
		}
		byCode[w.Code] = append(byCode[w.Code], sentence(w.Message))
	}
	for _, c := range codes {
		msgs := byCode[c]
		const shown = 10
		detail := strings.Join(msgs[:min(len(msgs), shown)], "\n\n")
		if len(msgs) > shown {
			detail += fmt.Sprintf("\n\n… and %d more like these (all are listed in the warnings attribute).", len(msgs)-shown)
		}
		diags.AddWarning(workloadsWarningTitles[c], detail)
	}
}

// workloadsWarningTitles titles the reader's warnings by code.
var workloadsWarningTitles = map[string]string{
	workloads.WarnUnmodelledConstraint:    "Scheduling Constraints Not Modelled",
	workloads.WarnNoRequests:              "Pods Without Requests",
	workloads.WarnAutoscalerTargetMissing: "Autoscaler Target Missing",
	workloads.WarnAutoscalerAmbiguous:     "Autoscalers Disable Each Other",
	workloads.WarnAutoscalerInert:         "Autoscaler That Never Scales",
	workloads.WarnReplicasAboveMax:        "Replicas Above the Autoscaler's Maximum",
	workloads.WarnUnknownField:            "Unknown Fields",
	workloads.WarnCustomKind:              "Custom Kind Read as a Workload",
	workloads.WarnRuntimeClass:            "RuntimeClass Missing",
	workloads.WarnFilteredOut:             "Filters Left Out What Shapes a Workload",
	workloads.WarnPriorityClassMissing:    "PriorityClass Missing",
	workloads.WarnPodRefused:              "Pods the API Server Would Refuse",
	workloads.WarnExtendedResource:        "Resources Sizing Does Not Model",
	workloads.WarnClaimMissing:            "Volume Claim Missing",
	workloads.WarnSharedRWOClaim:          "ReadWriteOnce Claim Shared by Replicas",
	workloads.WarnPDBOverlap:              "Overlapping PodDisruptionBudgets",
	workloads.WarnPDBSelectsNothing:       "PodDisruptionBudget Selects No Pod",
	workloads.WarnDaemonsetSurge:          "DaemonSet Surge Not Counted",
	workloads.WarnDaemonsetUntolerated:    "DaemonSet Running Beside Taints It Does Not Tolerate",
	workloads.WarnHPAScaleToZero:          "HPA Scales to Zero",
	workloads.WarnLimitrangeConflict:      "Conflicting LimitRange Defaults",
	workloads.WarnNodeCordoned:            "Cordoned Nodes Left Out",
	workloads.WarnNodeCloud:               "Node Cloud Unknown",
	workloads.WarnNodeInstanceType:        "Node Instance Type Unknown",
	workloads.WarnStaticPod:               "Static Pods Read as DaemonSets",
	workloads.WarnWorkloadRefMissing:      "Rollout Workload Reference Missing",
	workloads.WarnCustomPodsUncounted:     "Operator Pods Not Counted",
}

// flattenWorkloads converts what was read into the output attributes.
func flattenWorkloads(res workloads.Result) ([]workloadOut, []daemonSetOut, []skippedOut, []string) {
	ws := make([]workloadOut, len(res.Workloads))
	for i, w := range res.Workloads {
		o := workloadOut{Name: w.Name, Replicas: intPtr(w.Replicas), MinReplicas: intPtr(w.MinReplicas), MaxReplicas: intPtr(w.MaxReplicas),
			Requests: workloadRequestsOf(w.Requests, w.Pod.Extended), CPUUsage: cpuUsage(w.CPUUsageMillicores), NodeSelector: w.NodeSelector,
			Tolerations: tolerationsOf(w.Tolerations), NodeAffinity: termsOf(w.NodeAffinity), HostPorts: portsOf(w.HostPorts), Source: sourceOf(w.Source), MaxSurge: surgeString(w.MaxSurge)}
		o.Namespace, o.Labels, o.OS = strPtr(w.Namespace), w.Labels, strPtr(w.OS)
		o.Preferred = preferredTermsOf(w.PreferredNodeAffinity)
		o.PodAffinity, o.PodAnti = podAffinityOut(w.PodAffinity)
		o.TopoSpread = topologySpreadOut(w.TopologySpread)
		if w.Spread.Type != "" && w.Spread.Type != fit.SpreadNone {
			o.Spread = &spreadOut{Type: string(w.Spread.Type)}
			if w.Spread.MaxSkew > 0 {
				o.Spread.MaxSkew = ptrTo(int64(w.Spread.MaxSkew))
			}
		}
		o.PodRequests, o.Derivation, o.VolumeClaims, o.Constraints, o.PriorityClassName, o.Priority = podOut(w.Pod)
		if a := w.Autoscaler; a != nil {
			o.Autoscaler = &autoscalerOut{Kind: a.Kind, Name: a.Name, MinReplicas: int64(a.MinReplicas), MaxReplicas: int64(a.MaxReplicas)}
		}
		if b := w.DisruptionBudget; b != nil {
			o.DisruptionBudget = &budgetOut{Name: b.Name, MinAvailable: strPtr(b.MinAvailable), MaxUnavailable: strPtr(b.MaxUnavailable)}
		}
		ws[i] = o
	}
	dss := make([]daemonSetOut, len(res.DaemonSets))
	for i, d := range res.DaemonSets {
		o := daemonSetOut{Name: d.Name, Requests: requestsOf(d.Requests), CPUUsage: cpuUsage(d.CPUUsageMillicores), NodeSelector: d.NodeSelector,
			Tolerations: tolerationsOf(d.Tolerations), NodeAffinity: termsOf(d.NodeAffinity), HostPorts: portsOf(d.HostPorts), TakesPodSlot: ptrTo(d.TakesPodSlot), Source: sourceOf(d.Source), UpdateMaxSurge: strPtr(d.MaxSurge)}
		o.PodRequests, o.Derivation, o.VolumeClaims, o.Constraints, o.PriorityClassName, o.Priority = podOut(d.Pod)
		dss[i] = o
	}
	sk := make([]skippedOut, len(res.Skipped))
	for i, s := range res.Skipped {
		sk[i] = skippedOut{Source: sourceOf(s.Source), Reason: s.Reason}
	}
	warns := make([]string, len(res.Warnings))
	for i, w := range res.Warnings {
		warns[i] = sentence(w.Message)
	}
	return ws, dss, sk, warns
}

func podOut(p workloads.PodInfo) (podRequestsOut, []string, []claimOut, []constraintOut, *string, *int64) {
	pr := podRequestsOut{CPUMillicores: p.Requests.CPUMillicores, MemoryBytes: p.Requests.MemoryBytes,
		EphemeralStorageBytes: p.Requests.EphemeralStorageBytes, GPU: p.Requests.GPU, Extended: p.Extended}
	if pr.Extended == nil {
		pr.Extended = map[string]string{}
	}
	claims := make([]claimOut, len(p.VolumeClaims))
	for i, c := range p.VolumeClaims {
		claims[i] = claimOut{Name: c.Name, Size: strPtr(c.Size), StorageClass: strPtr(c.StorageClass), AccessModes: c.AccessModes, From: c.From}
		if c.Size != "" {
			claims[i].SizeBytes = ptrTo(c.SizeBytes)
		}
		if claims[i].AccessModes == nil {
			claims[i].AccessModes = []string{}
		}
	}
	cs := make([]constraintOut, len(p.Constraints))
	for i, c := range p.Constraints {
		cs[i] = constraintOut{Type: c.Type, Modelled: c.Modelled, As: c.As, Spec: c.Spec}
	}
	var prio *int64
	if p.Priority != nil {
		prio = ptrTo(int64(*p.Priority))
	}
	deriv := p.Derivation
	if deriv == nil {
		deriv = []string{}
	}
	return pr, deriv, claims, cs, strPtr(p.PriorityClassName), prio
}

// requestsOf renders a request as the quantities the sizing inputs take ("250m", "256Mi").
func requestsOf(r fit.Resources) requestsOut {
	out := requestsOut{CPU: ptrTo(k8sresource.NewMilliQuantity(r.CPUMillicores, k8sresource.DecimalSI).String()),
		Memory: ptrTo(k8sresource.NewQuantity(r.MemoryBytes, k8sresource.BinarySI).String())}
	if r.EphemeralStorageBytes > 0 {
		out.EphemeralStorage = ptrTo(k8sresource.NewQuantity(r.EphemeralStorageBytes, k8sresource.BinarySI).String())
	}
	if r.GPU > 0 {
		out.GPU = ptrTo(r.GPU)
	}
	return out
}

// workloadRequestsOf renders a workload's requests with its extended ones as read (null when none).
func workloadRequestsOf(r fit.Resources, ext map[string]string) workloadRequestsOut {
	o := requestsOf(r)
	return workloadRequestsOut{CPU: o.CPU, Memory: o.Memory, EphemeralStorage: o.EphemeralStorage, GPU: o.GPU, Extended: ext}
}

func cpuUsage(milli int64) *string {
	if milli == 0 {
		return nil
	}
	return ptrTo(k8sresource.NewMilliQuantity(milli, k8sresource.DecimalSI).String())
}

func tolerationsOf(ts []fit.Toleration) []tolerationOut {
	if len(ts) == 0 {
		return nil
	}
	out := make([]tolerationOut, len(ts))
	for i, t := range ts {
		out[i] = tolerationOut{Key: strPtr(t.Key), Operator: strPtr(string(t.Operator)), Value: strPtr(t.Value), Effect: strPtr(string(t.Effect))}
	}
	return out
}

func portsOf(ps []fit.HostPort) []hostPortOut {
	if len(ps) == 0 {
		return nil
	}
	out := make([]hostPortOut, len(ps))
	for i, p := range ps {
		out[i] = hostPortOut{Port: int64(p.Port), Protocol: strPtr(p.Protocol), IP: strPtr(p.IP)}
	}
	return out
}

func termsOf(ts []fit.NodeSelectorTerm) []termOut {
	if len(ts) == 0 {
		return nil
	}
	out := make([]termOut, len(ts))
	for i, t := range ts {
		out[i].MatchExpressions = []requirementOut{}
		for _, e := range t.MatchExpressions {
			out[i].MatchExpressions = append(out[i].MatchExpressions, requirementOut{Key: e.Key, Operator: string(e.Operator), Values: e.Values})
		}
	}
	return out
}

func preferredTermsOf(ts []fit.WeightedNodeSelectorTerm) []weightedTermOut {
	if len(ts) == 0 {
		return nil
	}
	out := make([]weightedTermOut, len(ts))
	for i, t := range ts {
		out[i].Weight = int64(t.Weight)
		out[i].MatchExpressions = termsOf([]fit.NodeSelectorTerm{t.Term})[0].MatchExpressions
	}
	return out
}

func sourceOf(s workloads.Source) sourceOut {
	return sourceOut{APIVersion: s.APIVersion, Kind: s.Kind, Namespace: s.Namespace, Name: s.Name, Document: int64(s.Document), Line: int64(s.Line)}
}

func surgeString(s fit.IntOrPercent) *string {
	if s.Percent {
		return ptrTo(strconv.Itoa(s.Value) + "%")
	}
	return ptrTo(strconv.Itoa(s.Value))
}

func intPtr(p *int) *int64 {
	if p == nil {
		return nil
	}
	return ptrTo(int64(*p))
}

func strPtr(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func ptrTo[T any](v T) *T { return &v }
