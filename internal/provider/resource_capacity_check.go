package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-validators/float64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/keda"
	plannerresource "github.com/kubefit/terraform-provider-kubefit/internal/planner/resource"
)

var _ resource.ResourceWithModifyPlan = (*capacityCheckResource)(nil)

type capacityCheckResource struct {
	resourceCatalog
	planOnly[capacityCheckModel]
}

func newCapacityCheckResource() resource.Resource {
	return &capacityCheckResource{planOnly: planOnly[capacityCheckModel]{plan: func(_ context.Context, m *capacityCheckModel, d *diag.Diagnostics) bool {
		return planCapacityCheck(m, d)
	}}}
}

type capacityCheckModel struct {
	ID                 types.String             `tfsdk:"id"`
	ScaledObjects      []soSummaryModel         `tfsdk:"scaled_objects"`
	HPAs               []autoscalerSummaryModel `tfsdk:"horizontal_pod_autoscalers"`
	NodeGroups         []nodeGroupCapacityModel `tfsdk:"node_groups"`
	ExistingHPAs       []existingHPAModel       `tfsdk:"existing_hpas"`
	Databases          []sharedDatabaseModel    `tfsdk:"databases"`
	DNS                *dnsModel                `tfsdk:"dns"`
	NodeGroupOf        map[string]string        `tfsdk:"node_group_of"`
	ConcurrentRollouts *string                  `tfsdk:"concurrent_rollouts"`
	SchedulerProfile   *string                  `tfsdk:"scheduler_profile"`
	ArrivalOrder       *string                  `tfsdk:"arrival_order"`

	PeakNodes      types.Map    `tfsdk:"peak_nodes"`
	DatabaseDemand types.Map    `tfsdk:"database_demand"`
	DNSResult      types.Object `tfsdk:"dns_result"`
}

// autoscalerSummaryModel is what a kubefit_keda_scaled_object's and a kubefit_horizontal_pod_autoscaler's
// `summary` share; an HPA's summary is exactly this.
type autoscalerSummaryModel struct {
	Namespace           *string           `tfsdk:"namespace"`
	Name                *string           `tfsdk:"name"`
	TargetAPIVersion    *string           `tfsdk:"target_api_version"`
	TargetKind          *string           `tfsdk:"target_kind"`
	TargetName          *string           `tfsdk:"target_name"`
	PeakReplicas        *int64            `tfsdk:"peak_replicas"`
	Surge               *int64            `tfsdk:"surge"`
	MinReplicas         *int64            `tfsdk:"min_replicas"`
	MaxSurge            *string           `tfsdk:"max_surge"`
	PodRequests         *podRequestsModel `tfsdk:"pod_requests"`
	ZonalSpread         []kedaSpreadModel `tfsdk:"zonal_spread"`
	ConnectionsPerPod   *int64            `tfsdk:"connections_per_pod"`
	DNSLookupsPerSecond *float64          `tfsdk:"dns_lookups_per_second"`
	NodeGroup           *string           `tfsdk:"node_group"`
}

// soSummaryModel is a kubefit_keda_scaled_object's `summary`.
type soSummaryModel struct {
	autoscalerSummaryModel
	HPAName              *string `tfsdk:"hpa_name"`
	TransferHPAOwnership *bool   `tfsdk:"transfer_hpa_ownership"`
	PausedReplicas       *int64  `tfsdk:"paused_replicas"`
	MaxReplicas          *int64  `tfsdk:"max_replicas"`
}

type podRequestsModel struct {
	CPUMillicores  *int64 `tfsdk:"cpu_millicores"`
	MemoryBytes    *int64 `tfsdk:"memory_bytes"`
	EphemeralBytes *int64 `tfsdk:"ephemeral_bytes"`
}

type existingHPAModel struct {
	Namespace           string  `tfsdk:"namespace"`
	Name                string  `tfsdk:"name"`
	TargetAPIVersion    *string `tfsdk:"target_api_version"`
	TargetKind          *string `tfsdk:"target_kind"`
	TargetName          string  `tfsdk:"target_name"`
	OwnerScaledObject   *string `tfsdk:"owner_scaled_object"`
	OwnershipValidation *bool   `tfsdk:"ownership_validation"`
}

type sharedDatabaseModel struct {
	Name                string   `tfsdk:"name"`
	MaxConnections      int64    `tfsdk:"max_connections"`
	ReservedConnections *int64   `tfsdk:"reserved_connections"`
	UsableFraction      *float64 `tfsdk:"usable_fraction"`
	Clients             []string `tfsdk:"clients"`
	OtherClients        *int64   `tfsdk:"other_clients"`
}

type dnsModel struct {
	Provider          *string             `tfsdk:"provider"`
	NodeLocalDNSCache *bool               `tfsdk:"node_local_dns_cache"`
	CoreDNSNodes      *int64              `tfsdk:"coredns_nodes"`
	CacheHitRatio     *float64            `tfsdk:"cache_hit_ratio"`
	FullyQualified    *bool               `tfsdk:"fully_qualified_names"`
	CoreDNSReplicas   *int64              `tfsdk:"coredns_replicas"`
	Autoscaler        *dnsAutoscalerModel `tfsdk:"coredns_autoscaler"`
	QueriesPerReplica *float64            `tfsdk:"coredns_queries_per_replica"`
	NodeLocalHitRatio *float64            `tfsdk:"node_local_cache_hit_ratio"`
	OtherQueries      *float64            `tfsdk:"other_coredns_queries_per_second"`
}

type dnsAutoscalerModel struct {
	CoresPerReplica           *int64 `tfsdk:"cores_per_replica"`
	NodesPerReplica           *int64 `tfsdk:"nodes_per_replica"`
	Min                       *int64 `tfsdk:"min"`
	Max                       *int64 `tfsdk:"max"`
	PreventSinglePointFailure *bool  `tfsdk:"prevent_single_point_failure"`
}

// capacityCheckRenames maps planner names whose attribute is not their snake_case.
var capacityCheckRenames = renames{"ExistingHPAs": "existing_hpas", "HPAs": "horizontal_pod_autoscalers",
	"DNS.CoreDNSNodes": "coredns_nodes", "DNS.CoreDNSReplicas": "coredns_replicas", "DNS.Autoscaler": "coredns_autoscaler",
	"DNS.QueriesPerReplica": "coredns_queries_per_replica", "DNS.NodeLocalHitRatio": "node_local_cache_hit_ratio",
	"DNS.OtherQueries": "other_coredns_queries_per_second", "DNS.FullyQualified": "fully_qualified_names"}

// dnsResultAttrTypes are the attributes of dns_result.
var dnsResultAttrTypes = map[string]attr.Type{
	"binding": types.StringType, "utilization": types.Float64Type, "coredns_queries_per_second": types.Float64Type,
	"coredns_replicas": types.Int64Type, "coredns_capacity": types.Float64Type, "coredns_replicas_from": types.StringType,
	"resolver_packets_per_second": types.Float64Type, "resolver_budget": types.Float64Type, "resolver_interfaces": types.Int64Type,
}

func (r *capacityCheckResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_capacity_check"
}

func (r *capacityCheckResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	defer cacheResourceTypes(&resp.Schema)
	optStr, reqStr := summaryOptional, summaryRequired
	resp.Schema = schema.Schema{
		MarkdownDescription: "Checks that need several objects at once, at `terraform plan`: one ScaledObject per target and per " +
			"HPA name, and no conflicting existing HPA (`KSO-E17`); one autoscaler per target: an HPA of " +
			"`kubefit_horizontal_pod_autoscaler` on a ScaledObject's target (`KSO-E17`: KEDA creates an HPA of its own), two HPAs on " +
			"one target, an HPA named as KEDA's or an existing HPA on its target (`KCAP-E6`); every workload, ScaledObjects' and HPAs' alike, placed on a node group at its peak together, " +
			"placed as kube-scheduler places them (the scheduler model of `kubefit_node_pool_sizing`, under `scheduler_profile` and " +
			"`arrival_order`), with the surge of one rollout or of all (`KCAP-E2`, `KCAP-W1`), and their zone spread (`KCAP-E3`, and `KCAP-W1` when only the surge pods overflow the smallest zone); each remedy that lowers an autoscaler's maximum starts at its `min_replicas` and says when no maximum of it is enough, and a maximum or group size that `KCAP-E2` or `KCAP-E3` names lets the group hold the peak both in all and in its smallest zone, so that applying it clears both; the groups placed after the scheduler model's work budget over the check runs out are sized without it, on as many nodes as any scheduler needs to bind their pods whatever their order, which a warning says (`KCAP-W5`); a " +
			"database's `max_connections` shared by several clients (`KCAP-E4`, `KCAP-W2`); the DNS budget, the AWS VPC resolver's " +
			"and CoreDNS's (`KCAP-E7`, `KCAP-W4`); and the misfits of node groups that leave them to this check (`KCAP-E8`, " +
			"`misfits_reported_by = \"capacity_check\"` on `kubefit_node_group`). Plan-only like `kubefit_keda_scaled_object` (nothing remote; it cannot be imported); when an input is unknown nothing is checked.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{Computed: true, MarkdownDescription: "Always `capacity-check`."},
			"scaled_objects": schema.ListNestedAttribute{Optional: true,
				MarkdownDescription: "`summary` of each `kubefit_keda_scaled_object` (for example `[for so in kubefit_keda_scaled_object.all : so.summary]`).",
				NestedObject: schema.NestedAttributeObject{Attributes: autoscalerSummaryAttributes("ScaledObject", "; default `apps/v1`", "; default `Deployment`", "", map[string]schema.Attribute{
					"hpa_name":               optStr("HPA name; default `keda-hpa-<name>`."),
					"transfer_hpa_ownership": schema.BoolAttribute{Optional: true, MarkdownDescription: "Whether the ScaledObject carries `scaledobject.keda.sh/transfer-hpa-ownership: \"true\"` and sets a custom HPA name (`advanced.horizontal_pod_autoscaler_config.name`, given here as `hpa_name`): KEDA hands over an existing HPA only when it is named there."},
					"paused_replicas": schema.Int64Attribute{Optional: true, Validators: []validator.Int64{int64validator.AtLeast(0)},
						MarkdownDescription: "The `autoscaling.keda.sh/paused-replicas` count when it sets `peak_replicas` (above the maximum), else null: the remedies then lower the annotation, not the maximum alone."},
					"max_replicas": schema.Int64Attribute{Optional: true, Validators: []validator.Int64{int64validator.AtLeast(0)},
						MarkdownDescription: "The effective `maxReplicaCount` when `paused_replicas` is set, else null."},
				})}},
			"horizontal_pod_autoscalers": schema.ListNestedAttribute{Optional: true,
				MarkdownDescription: "`summary` of each `kubefit_horizontal_pod_autoscaler` (for example `[for h in kubefit_horizontal_pod_autoscaler.all : h.summary]`). " +
					"They count in one autoscaler per target (`KSO-E17`, `KCAP-E6`) and share node groups, databases and the DNS budget with the ScaledObjects.",
				NestedObject: schema.NestedAttributeObject{Attributes: autoscalerSummaryAttributes("HPA", "", "", " (`maxReplicas`)", nil)}},
			"node_groups": schema.ListNestedAttribute{Optional: true,
				MarkdownDescription: "Node group capacity objects (each a `kubefit_node_group`'s `capacity` output). A group planned with " +
					"`misfits_reported_by = \"capacity_check\"` does not fail on its own misfits but lists them in `failures`: this check " +
					"raises each as an error (`KCAP-E8`, on the group's element) beside its other findings, so one plan shows them all.",
				NestedObject: schema.NestedAttributeObject{Attributes: nodeGroupCapacityAttributes("The group's own misfits, which it left to " +
					"this check (`misfits_reported_by = \"capacity_check\"`): each is raised as an error, `KCAP-E8`.")}},
			"node_group_of": schema.MapAttribute{Optional: true, ElementType: types.StringType,
				MarkdownDescription: "The node group (by `name`, which must be the `name` of an entry of `node_groups`; the check refuses any other) of each ScaledObject or HPA (`namespace/name`) given no " +
					"`node_group_capacity` of its own. Such an autoscaler does not check itself against the group, so it cannot fail before " +
					"this check: the node-group, database and DNS findings then come in one plan, each once, from this check. " +
					"(A resource whose plan fails hides every object that reads its outputs: Terraform skips them.)"},
			"existing_hpas": schema.ListNestedAttribute{Optional: true, MarkdownDescription: "HPAs that already exist (`KSO-E17`).",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"namespace":            reqStr("Namespace."),
					"name":                 reqStr("HPA name."),
					"target_api_version":   optStr("Target apiVersion; default `apps/v1`."),
					"target_kind":          optStr("Target kind; default `Deployment`."),
					"target_name":          reqStr("Target name."),
					"owner_scaled_object":  optStr("Name of the ScaledObject that owns it, if any."),
					"ownership_validation": schema.BoolAttribute{Optional: true, MarkdownDescription: "`false` when annotated `validations.keda.sh/hpa-ownership: \"false\"`."},
				}}},
			"databases": schema.ListNestedAttribute{Optional: true, MarkdownDescription: "Databases shared by ScaledObjects' and HPAs' pods (`KCAP-E4`, `KCAP-W2`).",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"name": reqStr("Database name."),
					"max_connections": schema.Int64Attribute{Required: true, MarkdownDescription: "`max_connections` from the database's configuration, at least 1.",
						Validators: []validator.Int64{int64validator.AtLeast(1)}},
					"reserved_connections": schema.Int64Attribute{Optional: true, MarkdownDescription: "Reserved connections, at least 0 and below `max_connections`; default 0.",
						Validators: []validator.Int64{int64validator.AtLeast(0)}},
					"usable_fraction": schema.Float64Attribute{Optional: true, MarkdownDescription: "Safe share of the hard limit, between 0 and 1; default 0.5.",
						Validators: []validator.Float64{float64validator.Between(0, 1)}},
					"clients": schema.ListAttribute{Required: true, ElementType: types.StringType,
						MarkdownDescription: "Client ScaledObjects and HPAs as `namespace/name`."},
					"other_clients": schema.Int64Attribute{Optional: true, MarkdownDescription: "Connections of other clients, at least 0; default 0.",
						Validators: []validator.Int64{int64validator.AtLeast(0)}},
				}}},
			"dns": schema.SingleNestedAttribute{Optional: true, MarkdownDescription: "DNS set-up for the DNS budget at peak: the AWS VPC resolver's " +
				"1,024 packets per second per network interface and CoreDNS's own capacity (replicas × queries per second per replica), " +
				"whichever binds (`KCAP-E7` above it, `KCAP-W4` above 80 %). Only workloads that declare `dns_lookups_per_second` count.",
				Attributes: map[string]schema.Attribute{
					"provider": schema.StringAttribute{Optional: true, MarkdownDescription: "One of `aws-vpc` (the only resolver modelled).",
						Validators: []validator.String{stringvalidator.OneOf("aws-vpc")}},
					"node_local_dns_cache": schema.BoolAttribute{Optional: true, MarkdownDescription: "NodeLocal DNSCache installed: each node answers what it has cached, sends the `cluster.local` names it misses to CoreDNS and other names to the VPC resolver through its own interface; default false."},
					"coredns_nodes": schema.Int64Attribute{Optional: true, MarkdownDescription: "Nodes running CoreDNS (without NodeLocal DNSCache, the interfaces the upstream queries leave through), at least 1; default the CoreDNS replicas, up to 2.",
						Validators: []validator.Int64{int64validator.AtLeast(1)}},
					"cache_hit_ratio": schema.Float64Attribute{Optional: true, MarkdownDescription: "Share of external lookups answered from a cache before the VPC resolver, between 0 and 1 (1 itself refused: the check needs some lookups to go out); default 0.",
						Validators: []validator.Float64{float64validator.Between(0, 1)}},
					"fully_qualified_names": schema.BoolAttribute{Optional: true, MarkdownDescription: "Names end in `.`: 2 queries per lookup (A and AAAA) instead of 10 (the 4 search domains of EKS's " +
						"`ndots: 5` search list and the bare name, A and AAAA each, of which CoreDNS answers the 6 `cluster.local` ones and forwards 4)."},
					"coredns_replicas": schema.Int64Attribute{Optional: true, MarkdownDescription: "A fixed CoreDNS replica count; default 2 (EKS's), or the `coredns_autoscaler` ladder when given."},
					"coredns_autoscaler": schema.SingleNestedAttribute{Optional: true, MarkdownDescription: "CoreDNS scaled by the cluster-proportional-autoscaler in linear mode: " +
						"replicas = max(ceil(cores / cores_per_replica), ceil(nodes / nodes_per_replica)) within `min` and `max`, two or more on more than one node with " +
						"`prevent_single_point_failure`, over the node groups' nodes at peak (a lower bound: the cluster's other nodes only raise it). `{}` takes the published defaults.",
						Attributes: map[string]schema.Attribute{
							"cores_per_replica":            schema.Int64Attribute{Optional: true, MarkdownDescription: "Cores per replica; default 256; 0 leaves the term out."},
							"nodes_per_replica":            schema.Int64Attribute{Optional: true, MarkdownDescription: "Nodes per replica; default 16; 0 leaves the term out."},
							"min":                          schema.Int64Attribute{Optional: true, MarkdownDescription: "Fewest replicas; default 1."},
							"max":                          schema.Int64Attribute{Optional: true, MarkdownDescription: "Most replicas; default none (0)."},
							"prevent_single_point_failure": schema.BoolAttribute{Optional: true, MarkdownDescription: "Two or more replicas on more than one node; default true."},
						}},
					"coredns_queries_per_replica": schema.Float64Attribute{Optional: true, MarkdownDescription: "Queries per second one CoreDNS replica answers. Default 5,000, " +
						"an assumption (a managed CoreDNS's published per-replica figure; CoreDNS's own benchmark reached about 33,700 on two saturated vCPUs): measure yours in a load test and set it."},
					"node_local_cache_hit_ratio": schema.Float64Attribute{Optional: true, MarkdownDescription: "Share of the `cluster.local` queries NodeLocal DNSCache answers from its cache (0 to below 1); " +
						"default 0: no published figure, measure it."},
					"other_coredns_queries_per_second": schema.Float64Attribute{Optional: true, MarkdownDescription: "Queries per second CoreDNS gets from everything else (in-cluster service lookups, workloads not in the check); default 0."},
				}},
			"concurrent_rollouts": schema.StringAttribute{Optional: true, MarkdownDescription: "One of `one` (default: the largest single surge counts) or `all` (every surge at once).",
				Validators: []validator.String{stringvalidator.OneOf("one", "all")}},
			"scheduler_profile": resourceAttribute(schedulerProfileAttribute()),
			"arrival_order":     resourceAttribute(arrivalOrderAttribute()),
			"peak_nodes": schema.MapAttribute{Computed: true, ElementType: types.Int64Type,
				MarkdownDescription: "Per node group, the nodes its workloads need at peak together, as kube-scheduler places them (a lower bound from their totals when that alone exceeds the group's maximum)."},
			"database_demand": schema.MapAttribute{Computed: true, ElementType: types.Int64Type,
				MarkdownDescription: "Per database, the connections its clients need at peak."},
			"dns_result": schema.SingleNestedAttribute{Computed: true, MarkdownDescription: "The DNS budget at peak; null without `dns` or without declared lookups.",
				Attributes: map[string]schema.Attribute{
					"binding":                     schema.StringAttribute{Computed: true, MarkdownDescription: "The ceiling nearer to its limit: `resolver` or `coredns`."},
					"utilization":                 schema.Float64Attribute{Computed: true, MarkdownDescription: "The binding ceiling's load over its capacity."},
					"coredns_queries_per_second":  schema.Float64Attribute{Computed: true, MarkdownDescription: "Queries per second CoreDNS gets at peak."},
					"coredns_replicas":            schema.Int64Attribute{Computed: true, MarkdownDescription: "CoreDNS replicas counted."},
					"coredns_capacity":            schema.Float64Attribute{Computed: true, MarkdownDescription: "Replicas × queries per second per replica."},
					"coredns_replicas_from":       schema.StringAttribute{Computed: true, MarkdownDescription: "Where the replica count comes from."},
					"resolver_packets_per_second": schema.Float64Attribute{Computed: true, MarkdownDescription: "Packets per second sent to the VPC resolver at peak."},
					"resolver_budget":             schema.Float64Attribute{Computed: true, MarkdownDescription: "1,024 × `resolver_interfaces`."},
					"resolver_interfaces":         schema.Int64Attribute{Computed: true, MarkdownDescription: "Network interfaces sending to the resolver."},
				}},
		},
	}
}

func (r *capacityCheckResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		return
	}
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("id"), types.StringValue("capacity-check"))...)
	if !req.Config.Raw.IsFullyKnown() {
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("peak_nodes"), types.MapUnknown(types.Int64Type))...)
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("database_demand"), types.MapUnknown(types.Int64Type))...)
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("dns_result"), types.ObjectUnknown(dnsResultAttrTypes))...)
		checkPendingCapacity(ctx, req.Config, &resp.Diagnostics)
		return
	}
	var m capacityCheckModel
	resp.Diagnostics.Append(configGet(ctx, req.Config, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if planCapacityCheck(&m, &resp.Diagnostics) {
		resp.Diagnostics.Append(resp.Plan.Set(ctx, &m)...)
	}
}

// checkPendingCapacity checks, while some ScaledObject or HPA summaries are unknown, the ones that are known
// against the node groups and databases (which must be known). Demand only grows with more workloads, so
// whatever does not fit now will not fit with the rest; a database client or a node_group_of key that names an
// autoscaler not known yet is not an error.
func checkPendingCapacity(ctx context.Context, cfg tfsdk.Config, diags *diag.Diagnostics) {
	var sos, hpas types.List
	if d := cfg.GetAttribute(ctx, path.Root("scaled_objects"), &sos); d.HasError() || sos.IsUnknown() {
		return
	}
	if d := cfg.GetAttribute(ctx, path.Root("horizontal_pod_autoscalers"), &hpas); d.HasError() || hpas.IsUnknown() {
		return
	}
	for _, name := range []string{"node_groups", "existing_hpas", "databases", "dns", "node_group_of", "concurrent_rollouts", "scheduler_profile", "arrival_order"} {
		var v attr.Value
		if d := cfg.GetAttribute(ctx, path.Root(name), &v); d.HasError() || !fullyKnown(v) {
			return
		}
	}
	var m capacityCheckModel
	for _, a := range []struct {
		name string
		to   any
	}{{"node_groups", &m.NodeGroups}, {"existing_hpas", &m.ExistingHPAs}, {"databases", &m.Databases}, {"dns", &m.DNS}, {"node_group_of", &m.NodeGroupOf},
		{"concurrent_rollouts", &m.ConcurrentRollouts}, {"scheduler_profile", &m.SchedulerProfile}, {"arrival_order", &m.ArrivalOrder}} {
		if d := cfg.GetAttribute(ctx, path.Root(a.name), a.to); d.HasError() {
			return
		}
	}
	known := map[string]bool{}
	var ok1, ok2 bool
	m.ScaledObjects, ok1 = knownSummaries(ctx, sos, known, func(s soSummaryModel) autoscalerSummaryModel { return s.autoscalerSummaryModel })
	m.HPAs, ok2 = knownSummaries(ctx, hpas, known, func(s autoscalerSummaryModel) autoscalerSummaryModel { return s })
	if !ok1 || !ok2 {
		return
	}
	pending := map[string]bool{}
	for i, db := range m.Databases {
		for j, c := range db.Clients {
			if !known[c] {
				pending[path.Root("databases").AtListIndex(i).AtName("clients").AtListIndex(j).String()] = true
			}
		}
	}
	// A node_group_of key no known summary answers may name one whose summary is unknown until apply: it is
	// placed then, and checked then (its group must still be one of node_groups, which is known). The
	// "no ScaledObject or HPA" error waits for a fully known configuration.
	groups := map[string]bool{}
	for _, g := range m.NodeGroups {
		groups[deref(g.Name)] = true
	}
	for id, g := range m.NodeGroupOf {
		if !known[id] && groups[g] {
			delete(m.NodeGroupOf, id)
		}
	}
	var found diag.Diagnostics
	planCapacityCheck(&m, &found)
	diags.Append(withoutPending(found, func(p path.Path) bool { return pending[p.String()] })...)
}

func planCapacityCheck(m *capacityCheckModel, diags *diag.Diagnostics) bool {
	in := m.check()
	if in.ConcurrentRollouts != "" && in.ConcurrentRollouts != "one" && in.ConcurrentRollouts != "all" {
		diags.AddAttributeError(path.Root("concurrent_rollouts"), "Invalid Concurrent Rollouts", "Use \"one\" or \"all\".")
		return false
	}
	res, err := keda.CheckAll(in)
	addRuleDiagnostics(diags, err, res.Warnings, capacityCheckRenames, "Capacity Check Failed", "Capacity Check Warning")
	if err != nil {
		return false
	}
	m.ID = types.StringValue("capacity-check")
	peak := map[string]attr.Value{}
	for k, v := range res.PeakNodes {
		peak[k] = types.Int64Value(v)
	}
	m.PeakNodes = types.MapValueMust(types.Int64Type, peak)
	demand := map[string]attr.Value{}
	for _, d := range res.DatabaseDemand {
		demand[d.Name] = types.Int64Value(d.Demand)
	}
	m.DatabaseDemand = types.MapValueMust(types.Int64Type, demand)
	m.DNSResult = dnsResultValue(res.DNS)
	return true
}

func dnsResultValue(r *keda.DNSResult) types.Object {
	if r == nil {
		return types.ObjectNull(dnsResultAttrTypes)
	}
	return types.ObjectValueMust(dnsResultAttrTypes, map[string]attr.Value{
		"binding": types.StringValue(r.Binding), "utilization": types.Float64Value(round4(r.Utilization)),
		"coredns_queries_per_second": types.Float64Value(round4(r.CoreDNSQPS)), "coredns_replicas": types.Int64Value(r.CoreDNSReplicas),
		"coredns_capacity": types.Float64Value(round4(r.CoreDNSCapacity)), "coredns_replicas_from": types.StringValue(r.ReplicasFrom),
		"resolver_packets_per_second": types.Float64Value(round4(r.ResolverPPS)), "resolver_budget": types.Float64Value(r.ResolverBudget),
		"resolver_interfaces": types.Int64Value(r.ResolverSenders),
	})
}

func (m capacityCheckModel) check() keda.Check {
	in := keda.Check{ConcurrentRollouts: deref(m.ConcurrentRollouts), Scheduler: fit.SchedulerProfile(deref(m.SchedulerProfile)),
		Arrival: fit.ArrivalOrder(deref(m.ArrivalOrder)), NodeGroupOf: m.NodeGroupOf}
	for _, s := range m.ScaledObjects {
		ks := s.summary()
		ks.HPAName, ks.TransferHPAOwnership = deref(s.HPAName), deref(s.TransferHPAOwnership)
		ks.PausedReplicas, ks.MaxReplicas = deref(s.PausedReplicas), deref(s.MaxReplicas)
		in.ScaledObjects = append(in.ScaledObjects, ks)
	}
	for _, h := range m.HPAs {
		in.HPAs = append(in.HPAs, h.summary())
	}
	for _, g := range m.NodeGroups {
		in.NodeGroups = append(in.NodeGroups, g.capacity())
	}
	for _, h := range m.ExistingHPAs {
		in.ExistingHPAs = append(in.ExistingHPAs, keda.ExistingHPA{Namespace: h.Namespace, Name: h.Name, TargetAPIVersion: deref(h.TargetAPIVersion),
			TargetKind: deref(h.TargetKind), TargetName: h.TargetName, OwnerScaledObject: deref(h.OwnerScaledObject), OwnershipValidation: h.OwnershipValidation})
	}
	for _, d := range m.Databases {
		in.Databases = append(in.Databases, keda.SharedDatabase{Database: keda.Database{Name: d.Name, MaxConnections: d.MaxConnections,
			ReservedConnections: deref(d.ReservedConnections), UsableFraction: d.UsableFraction, OtherClients: deref(d.OtherClients)}, Clients: d.Clients})
	}
	if d := m.DNS; d != nil {
		in.DNS = &keda.DNS{NodeLocalDNSCache: deref(d.NodeLocalDNSCache), CoreDNSNodes: deref(d.CoreDNSNodes),
			CacheHitRatio: deref(d.CacheHitRatio), FullyQualified: deref(d.FullyQualified), CoreDNSReplicas: deref(d.CoreDNSReplicas),
			QueriesPerReplica: deref(d.QueriesPerReplica), NodeLocalHitRatio: deref(d.NodeLocalHitRatio), OtherQueries: deref(d.OtherQueries)}
		if a := d.Autoscaler; a != nil {
			in.DNS.Autoscaler = &keda.DNSAutoscaler{CoresPerReplica: a.CoresPerReplica, NodesPerReplica: a.NodesPerReplica, Min: a.Min, Max: a.Max,
				PreventSinglePointFailure: a.PreventSinglePointFailure}
		}
	}
	return in
}

// summary expands a summary into the planner's; an HPA's own name is its HPA name (a ScaledObject's is set by
// its caller).
func (s autoscalerSummaryModel) summary() keda.Summary {
	ks := keda.Summary{Namespace: deref(s.Namespace), Name: deref(s.Name), HPAName: deref(s.Name), TargetAPIVersion: deref(s.TargetAPIVersion),
		TargetKind: deref(s.TargetKind), TargetName: deref(s.TargetName), PeakReplicas: deref(s.PeakReplicas), Surge: deref(s.Surge),
		MinReplicas: deref(s.MinReplicas), MaxSurge: deref(s.MaxSurge),
		ConnectionsPerPod: s.ConnectionsPerPod, DNSLookupsPerSecond: s.DNSLookupsPerSecond, NodeGroup: deref(s.NodeGroup)}
	if p := s.PodRequests; p != nil {
		ks.PodRequests = &plannerresource.List{CPUMillicores: deref(p.CPUMillicores), MemoryBytes: deref(p.MemoryBytes), EphemeralStorageBytes: deref(p.EphemeralBytes), Pods: 1}
	}
	for _, z := range s.ZonalSpread {
		ks.ZonalSpread = append(ks.ZonalSpread, keda.SpreadConstraint{TopologyKey: z.TopologyKey, MaxSkew: z.MaxSkew, WhenUnsatisfiable: z.WhenUnsatisfiable})
	}
	return ks
}

// knownSummaries decodes the fully known summaries of a list (the unknown ones wait for apply) and records
// each one's namespace/name in known; false when one does not decode.
func knownSummaries[M any](ctx context.Context, l types.List, known map[string]bool, common func(M) autoscalerSummaryModel) ([]M, bool) {
	var out []M
	for _, e := range l.Elements() {
		obj, ok := e.(types.Object)
		if !ok || !fullyKnown(obj) {
			continue
		}
		var s M
		if d := obj.As(ctx, &s, basetypes.ObjectAsOptions{}); d.HasError() {
			return nil, false
		}
		out = append(out, s)
		c := common(s)
		known[deref(c.Namespace)+"/"+deref(c.Name)] = true
	}
	return out, true
}

// autoscalerSummaryAttributes are the attributes of an autoscaler's summary in a capacity check (a
// ScaledObject's or an HPA's), plus extra.
func autoscalerSummaryAttributes(kind, apiVersionDefault, kindDefault, peakNote string, extra map[string]schema.Attribute) map[string]schema.Attribute {
	optStr, reqStr := summaryOptional, summaryRequired
	attrs := map[string]schema.Attribute{
		"namespace":          reqStr("Namespace."),
		"name":               reqStr(kind + " name."),
		"target_api_version": optStr("Target apiVersion" + apiVersionDefault + "."),
		"target_kind":        optStr("Target kind" + kindDefault + "."),
		"target_name":        reqStr("Target name."),
		"peak_replicas": schema.Int64Attribute{Optional: true, MarkdownDescription: "Replicas at peak" + peakNote + ", at least 0. Required.",
			Validators: []validator.Int64{requiredValue{}, int64validator.AtLeast(0)}},
		"surge": schema.Int64Attribute{Optional: true, MarkdownDescription: "Extra pods during a rollout at peak, at least 0.",
			Validators: []validator.Int64{int64validator.AtLeast(0)}},
		"min_replicas": schema.Int64Attribute{Optional: true, MarkdownDescription: "The smallest maximum replica count the autoscaler takes: its minimum, at least 1 (default 1). A remedy that lowers the maximum never names less.",
			Validators: []validator.Int64{int64validator.AtLeast(0)}},
		"max_surge": schema.StringAttribute{Optional: true, Validators: []validator.String{intOrPercentValidator{}},
			MarkdownDescription: "The rollout's surge at any replica count: a count (`3`) or a percentage of the replicas, rounded up (`25%`); `0` for a StatefulSet or `Recreate`. Unset, a remedy at fewer replicas keeps `surge`."},
		"pod_requests": schema.SingleNestedAttribute{Optional: true, MarkdownDescription: "Effective pod requests.",
			Attributes: map[string]schema.Attribute{
				"cpu_millicores":  schema.Int64Attribute{Optional: true, MarkdownDescription: "CPU in millicores."},
				"memory_bytes":    schema.Int64Attribute{Optional: true, MarkdownDescription: "Memory in bytes."},
				"ephemeral_bytes": schema.Int64Attribute{Optional: true, MarkdownDescription: "Ephemeral storage in bytes."},
			}},
		"zonal_spread": schema.ListNestedAttribute{Optional: true, MarkdownDescription: "Zonal `DoNotSchedule` spread constraints.",
			NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
				"topology_key":       reqStr("Topology key."),
				"max_skew":           schema.Int64Attribute{Optional: true, MarkdownDescription: "Maximum skew. Required.", Validators: []validator.Int64{requiredValue{}}},
				"when_unsatisfiable": reqStr("`DoNotSchedule`."),
			}}},
		"connections_per_pod": schema.Int64Attribute{Optional: true, MarkdownDescription: "Database connections per pod, at least 0.",
			Validators: []validator.Int64{int64validator.AtLeast(0)}},
		"dns_lookups_per_second": schema.Float64Attribute{Optional: true, MarkdownDescription: "External DNS lookups per second per pod, at least 0.",
			Validators: []validator.Float64{float64validator.AtLeast(0)}},
		"node_group": optStr("Name of the node group the pods run on (matched against `node_groups`)."),
	}
	for k, v := range extra {
		attrs[k] = v
	}
	return attrs
}

// summaryOptional and summaryRequired are string attributes of a summary. Nested attributes are optional in
// the schema so that summaries unknown during validation pass; the planner reports missing values once they
// are known.
func summaryOptional(desc string) schema.StringAttribute {
	return schema.StringAttribute{Optional: true, MarkdownDescription: desc}
}

func summaryRequired(desc string) schema.StringAttribute {
	return schema.StringAttribute{Optional: true, MarkdownDescription: desc + " Required.", Validators: []validator.String{requiredValue{}}}
}
