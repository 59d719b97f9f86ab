package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-validators/float64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/mapvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/burst"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/overhead"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/selector"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/sizing"
)

var (
	_ datasource.DataSourceWithValidateConfig = (*nodePoolRecommendationDataSource)(nil)
	_ datasource.DataSourceWithConfigure      = (*nodePoolRecommendationDataSource)(nil)
)

type nodePoolRecommendationDataSource struct{ dataSourceCatalog }

func newNodePoolRecommendationDataSource() datasource.DataSource {
	return &nodePoolRecommendationDataSource{}
}

// defaultRecommendationPoolName names the candidate pool when pool_name is not set.
const defaultRecommendationPoolName = "pool"

type nodePoolRecommendationModel struct {
	Cloud      types.String `tfsdk:"cloud"`
	Candidates types.List   `tfsdk:"candidates"`
	PoolName   types.String `tfsdk:"pool_name"`
	Pool       types.Object `tfsdk:"pool"`
	DaemonSets types.List   `tfsdk:"daemonsets"`
	SystemDS   types.String `tfsdk:"system_daemonsets"`
	Workloads  types.List   `tfsdk:"workloads"`
	Scenario   types.String `tfsdk:"scenario"`
	Prices     types.Map    `tfsdk:"prices"`
	Limit      types.Int64  `tfsdk:"limit"`
	Scheduler  types.String `tfsdk:"scheduler_profile"`
	Arrival    types.String `tfsdk:"arrival_order"`
	NodeDisk   types.Object `tfsdk:"node_disk"`

	Ranking     types.List   `tfsdk:"ranking"`
	Best        types.String `tfsdk:"best"`
	CatalogDate types.String `tfsdk:"catalog_date"`
}

func (d *nodePoolRecommendationDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_node_pool_recommendation"
}

var rankingAttrTypes = map[string]attr.Type{
	"instance_type": types.StringType, "sized": types.BoolType, "nodes_required": types.Int64Type,
	"nodes_optimal": types.Int64Type, "scheduler_modelled": types.BoolType, "modelled_as": types.StringType,
	"price_per_hour": types.Float64Type, "monthly_cost": types.Float64Type, "surplus_cost_per_month": types.Float64Type, "price_source": types.StringType,
	"utilization": types.ObjectType{AttrTypes: utilAttrTypes}, "stranded": types.ObjectType{AttrTypes: strandedAttrTypes},
	"stranded_share": types.Float64Type, "credit_verdict": types.StringType, "excluded": types.BoolType,
	"reason": types.StringType, "message": types.StringType,
}

func (d *nodePoolRecommendationDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	defer cacheDataSourceTypes(&resp.Schema)
	sizingAttrs := sizingSchemaAttributes()
	computed := func(desc string) schema.StringAttribute {
		return schema.StringAttribute{Computed: true, MarkdownDescription: desc}
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Ranks candidate instance types by what these workloads really cost on them: for every candidate it sizes " +
			"one pool of that type with the same planner as `kubefit_node_pool_sizing` (same overhead model, DaemonSets, packing and " +
			"CPU credit check), and orders the candidates by the monthly cost of the nodes the peak (or steady) scenario needs, then by " +
			"the share of capacity they strand. A candidate that cannot work is listed with the reason: one pod does not fit a node " +
			"(`too-large`), the pool's `max_nodes` or max pods is too small (`max-nodes`, `spread`, `daemonsets`), a node selector or " +
			"taint rules it out, the busiest node runs out of CPU credits (`burst-credits`), its disks cannot sustain `node_disk` " +
			"(`disk-cap`), a pod requests an extended resource its nodes do not offer (`extended-resource`), it cannot be a node (`invalid`: AKS creates no nodes on VM sizes under 2 vCPUs, or the node model cannot size it, " +
			"as a type whose memory the catalog lacks; the message says which), or no price is known (`unknown-price`). The cost of " +
			"a burstable candidate in unlimited mode includes its nodes' surplus CPU credits. A candidate with accelerators (GPUs, Neuron devices) " +
			"none of whose resources a workload requests ranks after every eligible one without, with a note in its `message` and a warning " +
			"(`selector.accelerator-unused`): its nodes would pay for idle devices.\n\n" +
			"For each candidate, `nodes_required` is what `kubefit_node_pool_sizing` reports for a pool of that type alone. Costs are " +
			fmt.Sprintf("`nodes_required × price_per_hour × %d` hours, ", selector.HoursPerMonth) +
			"from the catalog's **reference on-demand prices of one region at one date** (each entry's `price_source` says which), " +
			"or from `prices` when you give your own. Candidates whose nodes look alike to the packer are packed once, on as many CPU " +
			"cores as the machine has; `limit` sizes only what it takes to rank the cheapest few exactly, for long candidate lists.\n\n" +
			"The data source is read during plan when all its inputs are known; otherwise Terraform defers it to apply.",
		Attributes: map[string]schema.Attribute{
			"cloud": cloudAttribute(true, ""),
			"candidates": schema.ListAttribute{Required: true, ElementType: types.StringType,
				MarkdownDescription: "Candidate instance type names, or the `names` output of `kubefit_instance_types`. A name given twice counts once.",
				Validators:          []validator.List{listvalidator.SizeAtLeast(1)}},
			"pool_name": schema.StringAttribute{Optional: true,
				MarkdownDescription: "Name of the candidate pool, for workloads' `pools` lists (default `" + defaultRecommendationPoolName + "`)."},
			"pool": schema.SingleNestedAttribute{Required: true,
				MarkdownDescription: "Every option of a `kubefit_node_pool_sizing` pool except `cloud` and the instance type(s), which come from `cloud` and each candidate.",
				Attributes:          poolTemplateAttributes()},
			"daemonsets":        sizingAttrs["daemonsets"],
			"system_daemonsets": sizingAttrs["system_daemonsets"],
			"workloads":         sizingAttrs["workloads"],
			"scenario": schema.StringAttribute{Optional: true,
				MarkdownDescription: "Scenario whose nodes are priced: `peak` (default: `max_replicas` plus surge) or `steady` (`replicas` / `min_replicas`). A candidate must fit both either way.",
				Validators:          []validator.String{stringvalidator.OneOf(string(fit.ScenarioPeak), string(fit.ScenarioSteady))}},
			"prices": schema.MapAttribute{Optional: true, ElementType: types.Float64Type,
				MarkdownDescription: "Your own price per node in USD per hour, by instance type name (a discount, a reserved or spot price); it replaces the reference price of those types. Each name is a candidate's, as the catalog spells it: a price for no candidate is an error, not dropped.",
				Validators:          []validator.Map{mapvalidator.ValueFloat64sAre(float64validator.AtLeast(0))}},
			"scheduler_profile": schedulerProfileAttribute(),
			"arrival_order":     arrivalOrderAttribute(),
			"limit": schema.Int64Attribute{Optional: true,
				MarkdownDescription: "Size only as many candidates as it takes to rank the `limit` cheapest exactly; the others are listed with `sized = false`, " +
					"reason `not-sized` and a lower bound on nodes and cost that already exceeds the `limit`-th. Default: size every candidate.",
				Validators: []validator.Int64{int64validator.AtLeast(1)}},
			"node_disk": schema.SingleNestedAttribute{Optional: true,
				MarkdownDescription: "Disk I/O one node must sustain across all its volumes (for example, the sum of the volumes of the pods it runs). " +
					"A candidate whose own sustained disk limits are lower is excluded with reason `disk-cap`: on AWS the EBS-optimized baseline " +
					"(Amazon EC2 EBS-optimized instances), on Azure the VM's uncached disk limits (Azure VM sizes); an AWS or Azure type without published limits " +
					"(an older type without dedicated disk bandwidth, such as t2 or m3) is excluded too, since nothing says it sustains the demand. kubefit has no " +
					"per-VM limits for GCP machine types, so there it is not checked (a warning says so). Per-volume limits are `kubefit_disk_tier`'s.",
				Attributes: map[string]schema.Attribute{
					"iops": schema.Int64Attribute{Optional: true, MarkdownDescription: "Sustained IOPS.",
						Validators: []validator.Int64{int64validator.AtLeast(0)}},
					"throughput_mbps": schema.Float64Attribute{Optional: true, MarkdownDescription: "Sustained throughput in MB/s (10⁶ bytes per second, as AWS and Azure publish node limits).",
						Validators: []validator.Float64{float64validator.AtLeast(0)}},
				}},
			"ranking": schema.ListNestedAttribute{Computed: true,
				MarkdownDescription: "Every candidate, best first: the eligible ones by monthly cost, then stranded share, then name; then the excluded ones in `candidates` order.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"instance_type":      computed("The candidate."),
					"sized":              schema.BoolAttribute{Computed: true, MarkdownDescription: "Whether the candidate was sized (false only when `limit` left it out, or the ranking's work budget for packing did, with a warning)."},
					"nodes_required":     schema.Int64Attribute{Computed: true, MarkdownDescription: "Nodes the scenario needs on this type, as `kubefit_node_pool_sizing` reports them: the scheduler model's count when `scheduler_modelled`, otherwise the best packing's, a lower bound of it (and a lower bound of that when not `sized`)."},
					"nodes_optimal":      schema.Int64Attribute{Computed: true, MarkdownDescription: "The best packing's node count on this type, as `kubefit_node_pool_sizing` reports it in `nodes_optimal`; equal to `nodes_required` when not `scheduler_modelled`."},
					"scheduler_modelled": schema.BoolAttribute{Computed: true, MarkdownDescription: fmt.Sprintf("Whether `nodes_required` is the scheduler model's count (the placement kube-scheduler makes in every planned arrival order). The cheapest eligible candidates, at least max(`limit`, %d), are modelled, within the ranking's work budget (a warning says when it ran out); the others keep the best packing's count, so their cost can only rise.", selector.ScheduledTop)},
					"modelled_as":        computed("The candidate of the same node shape (allocatable, pod limits, architecture, accelerators, volume attachments) whose scheduler-model sizing this one took, since the model places the pods alike on both; empty when the candidate was modelled itself or not at all."),
					"price_per_hour":     schema.Float64Attribute{Computed: true, MarkdownDescription: "Price of one node in USD per hour (0 when unknown): see `price_source`."},
					"monthly_cost": schema.Float64Attribute{Computed: true,
						MarkdownDescription: fmt.Sprintf("`nodes_required × price_per_hour × %d`, in USD, at the reference price of `price_source`'s region and date, or your price, plus `surplus_cost_per_month`.", selector.HoursPerMonth)},
					"surplus_cost_per_month": schema.Float64Attribute{Computed: true,
						MarkdownDescription: "A burstable candidate in unlimited mode: what its nodes pay each month for surplus CPU credits, each at its expected use (the busiest node's for every node when the ranking sized without node lists), in USD; 0 otherwise. Part of `monthly_cost` and of the ranking."},
					"price_source": computed("Where the price comes from: the catalog's reference on-demand price with its region and date, or your `prices`."),
					"utilization": schema.SingleNestedAttribute{Computed: true, MarkdownDescription: "Requested ÷ workload allocatable of the required nodes, 0–1.",
						Attributes: map[string]schema.Attribute{
							"cpu":    schema.Float64Attribute{Computed: true, MarkdownDescription: "CPU."},
							"memory": schema.Float64Attribute{Computed: true, MarkdownDescription: "Memory."},
							"pods":   schema.Float64Attribute{Computed: true, MarkdownDescription: "Pod slots."},
						}},
					"stranded": schema.SingleNestedAttribute{Computed: true, MarkdownDescription: "Capacity left on nodes that cannot take one more pod of any workload.",
						Attributes: map[string]schema.Attribute{
							"cpu_millicores": schema.Int64Attribute{Computed: true, MarkdownDescription: "CPU."},
							"memory_bytes":   schema.Int64Attribute{Computed: true, MarkdownDescription: "Memory."},
							"pods":           schema.Int64Attribute{Computed: true, MarkdownDescription: "Pod slots."},
						}},
					"stranded_share": schema.Float64Attribute{Computed: true, MarkdownDescription: "Mean of the stranded shares of CPU and memory of the required nodes' workload allocatable, 0–1: the second ranking key."},
					"credit_verdict": computed("Burstable types: the CPU credit verdict of the steady scenario's busiest node, one of " + markdownList(burst.Verdicts) + "; `not_burstable` otherwise."),
					"excluded":       schema.BoolAttribute{Computed: true, MarkdownDescription: "Whether the candidate cannot work (or was not sized)."},
					"reason":         computed("Why it is excluded: one of " + markdownList(selector.ExclusionReasons) + "; empty when eligible."),
					"message":        computed("The reason with the numbers, as `kubefit_node_pool_sizing` says it. For an eligible GCP candidate whose series kubefit's disk table cannot check for a claim's `disk_type` (rule GPD-M2), it says the disk support is unknown: such a candidate ranks after every eligible one whose disk types are checked."),
				}}},
			"best":         computed("The cheapest eligible candidate, for a node group's instance type, preferring one whose claim disk types kubefit checks (GPD-M2: a series it cannot check ranks after, and is the recommendation only with a warning); null (with a warning) when none is eligible."),
			"catalog_date": computed("Date of the embedded catalog the rows and reference prices come from (YYYY-MM-DD)."),
		},
	}
}

// recommendationRenames maps the selector's request fields to this data source's attributes.
var recommendationRenames = func() renames {
	r := renames{"Pool": "pool", "Candidates": "candidates", "Scenario": "scenario", "Prices": "prices",
		"NodeDisk": "node_disk", "NodeDisk.IOPS": "iops", "NodeDisk.ThroughputMBps": "throughput_mbps", "Limit": "limit"}
	for k, v := range sizingRenames {
		r[k] = v
	}
	return r
}()

func (m *nodePoolRecommendationModel) poolName() string {
	if m.PoolName.IsNull() || m.PoolName.ValueString() == "" {
		return defaultRecommendationPoolName
	}
	return m.PoolName.ValueString()
}

func (d *nodePoolRecommendationDataSource) ValidateConfig(ctx context.Context, req datasource.ValidateConfigRequest, resp *datasource.ValidateConfigResponse) {
	var m nodePoolRecommendationModel
	resp.Diagnostics.Append(configGet(ctx, req.Config, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if fullyKnown(m.Pool) && !m.Pool.IsNull() {
		if pm, ok := poolTemplateModel(ctx, m.Pool, m.Cloud.ValueString(), "candidate"); ok {
			validatePoolConfig(path.Root("pool"), pm, &resp.Diagnostics)
			refuseMeasuredTemplate(pm, &resp.Diagnostics)
		}
	}
	if m.Workloads.IsUnknown() || m.Workloads.IsNull() {
		return
	}
	nameKnown := fullyKnown(m.PoolName)
	for i, v := range m.Workloads.Elements() {
		obj, ok := v.(types.Object)
		if !ok || obj.IsUnknown() {
			continue
		}
		var w workloadModel
		resp.Diagnostics.Append(objectAs(ctx, obj, &w, objectAsOptions)...)
		validateWorkloadConfig(path.Root("workloads").AtListIndex(i), w.check(), nameKnown, map[string]bool{m.poolName(): true}, &resp.Diagnostics)
	}
}

// refuseMeasuredTemplate refuses measured node figures in the candidate pool: they are one instance type's,
// and every candidate would get them. It reports whether it refused one.
func refuseMeasuredTemplate(pm sizingPoolModel, diags *diag.Diagnostics) bool {
	refused := false
	for _, a := range []struct {
		name string
		v    types.Object
	}{{"measured_capacity", pm.MeasuredCapacity}, {"measured_allocatable", pm.MeasuredAllocatable}} {
		if a.v.IsNull() {
			continue
		}
		refused = true
		diags.AddAttributeError(path.Root("pool").AtName(a.name), "Measured Figures Belong to One Instance Type", fmt.Sprintf(
			"%s is what the kubelet of one node of one instance type reports, but the recommendation sizes every candidate type "+
				"and would give each of them these figures. Remove it here, and give it to the kubefit_node_pool_sizing pool or "+
				"kubefit_node_group of the type chosen (best).", a.name))
	}
	return refused
}

// expandRecommendation converts the configuration into one ranking request.
func expandRecommendation(ctx context.Context, m nodePoolRecommendationModel, cloud catalog.Cloud, diags *diag.Diagnostics) selector.Request {
	req := selector.Request{Scenario: fit.Scenario(m.Scenario.ValueString()), Limit: int(m.Limit.ValueInt64()),
		Scheduler: fit.SchedulerProfile(m.Scheduler.ValueString()), Arrival: fit.ArrivalOrder(m.Arrival.ValueString())}
	diags.Append(listElementsAs(ctx, m.Candidates, &req.Candidates, false)...)
	pm, ok := poolTemplateModel(ctx, m.Pool, string(cloud), "candidate")
	if !ok {
		diags.AddAttributeError(path.Root("pool"), "Invalid Pool", "the pool could not be read; this is a bug in the provider.")
		return req
	}
	if refuseMeasuredTemplate(pm, diags) {
		return req
	}
	req.Pool = expandSizingPool(ctx, path.Root("pool"), m.poolName(), pm, diags)
	req.Pool.InstanceTypes = nil
	req.SystemDaemonSets = overhead.SystemDaemonSets(m.SystemDS.ValueString())
	var dss []sizingDaemonSetModel
	diags.Append(listElementsAs(ctx, m.DaemonSets, &dss, false)...)
	for i, ds := range dss {
		req.DaemonSets = append(req.DaemonSets, expandDaemonSet(ctx, path.Root("daemonsets").AtListIndex(i), ds, diags))
	}
	var ws []workloadModel
	diags.Append(listElementsAs(ctx, m.Workloads, &ws, false)...)
	for i, w := range ws {
		req.Workloads = append(req.Workloads, expandWorkload(ctx, path.Root("workloads").AtListIndex(i), w, diags))
	}
	sizing.QualifyWorkloadNames(req.Workloads)
	if !m.Prices.IsNull() {
		req.Prices = map[string]float64{}
		diags.Append(m.Prices.ElementsAs(ctx, &req.Prices, false)...)
	}
	if !m.NodeDisk.IsNull() {
		var nd struct {
			IOPS           types.Int64   `tfsdk:"iops"`
			ThroughputMBps types.Float64 `tfsdk:"throughput_mbps"`
		}
		diags.Append(m.NodeDisk.As(ctx, &nd, basetypes.ObjectAsOptions{})...)
		req.NodeDisk = selector.NodeDisk{IOPS: nd.IOPS.ValueInt64(), ThroughputMBps: nd.ThroughputMBps.ValueFloat64()}
	}
	return req
}

func (d *nodePoolRecommendationDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m nodePoolRecommendationModel
	resp.Diagnostics.Append(configGet(ctx, req.Config, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	cloud, ok := parseCloud(path.Root("cloud"), m.Cloud, &resp.Diagnostics)
	if !ok {
		return
	}
	request := expandRecommendation(ctx, m, cloud, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	rk, err := selector.NewRanker(d.catalog()).Rank(ctx, request)
	if err != nil {
		addRecommendationErrors(&resp.Diagnostics, err)
		return
	}
	addPlannerWarnings(&resp.Diagnostics, path.Empty(), rk.Warnings, recommendationRenames, "No Candidate Fits")
	flattenRanking(&m, rk)
	resp.Diagnostics.Append(setReadState(ctx, &resp.State, req.Config, &m)...)
}

// addRecommendationErrors reports the ranking's input errors at their attributes.
func addRecommendationErrors(diags *diag.Diagnostics, err error) {
	errs := field.As(err)
	if len(errs) == 0 {
		diags.AddError("Recommendation Failed", err.Error())
		return
	}
	for _, e := range errs {
		summary := inputSummary(e.Path, "Invalid Recommendation Input")
		if steps := e.Path.Steps(); len(steps) > 0 && steps[0].Name == "Candidates" {
			summary = "Unknown Instance Type"
		}
		if p := attributePath(path.Empty(), e.Path, recommendationRenames); len(p.Steps()) > 0 {
			diags.AddAttributeError(p, summary, sentence(e.Detail))
		} else {
			diags.AddError(summary, sentence(e.Detail))
		}
	}
}

// flattenRanking writes the ranking into the model's computed attributes.
func flattenRanking(m *nodePoolRecommendationModel, rk *selector.Ranking) {
	rows := make([]attr.Value, 0, len(rk.Candidates))
	for _, c := range rk.Candidates {
		rows = append(rows, types.ObjectValueMust(rankingAttrTypes, map[string]attr.Value{
			"instance_type": types.StringValue(c.InstanceType), "sized": types.BoolValue(c.Sized),
			"nodes_required": types.Int64Value(int64(c.NodesRequired)), "nodes_optimal": types.Int64Value(int64(c.NodesOptimal)),
			"scheduler_modelled": types.BoolValue(c.Scheduled), "modelled_as": types.StringValue(c.ModelledAs),
			"price_per_hour": types.Float64Value(c.PricePerHour),
			"monthly_cost":   types.Float64Value(round4(c.MonthlyCost)), "surplus_cost_per_month": types.Float64Value(round4(c.SurplusCostPerMonth)), "price_source": types.StringValue(c.PriceSource),
			"utilization": types.ObjectValueMust(utilAttrTypes, map[string]attr.Value{
				"cpu": types.Float64Value(round4(c.Utilization.CPU)), "memory": types.Float64Value(round4(c.Utilization.Memory)),
				"pods": types.Float64Value(round4(c.Utilization.Pods))}),
			"stranded": types.ObjectValueMust(strandedAttrTypes, map[string]attr.Value{
				"cpu_millicores": types.Int64Value(c.Stranded.CPUMillicores), "memory_bytes": types.Int64Value(c.Stranded.MemoryBytes),
				"pods": types.Int64Value(c.Stranded.Pods)}),
			"stranded_share": types.Float64Value(round4(c.StrandedShare)), "credit_verdict": types.StringValue(string(c.CreditVerdict)),
			"excluded": types.BoolValue(c.Excluded), "reason": types.StringValue(string(c.Reason)), "message": types.StringValue(c.Message),
		}))
	}
	m.Ranking = types.ListValueMust(types.ObjectType{AttrTypes: rankingAttrTypes}, rows)
	m.Best = types.StringNull()
	if rk.Best != "" {
		m.Best = types.StringValue(rk.Best)
	}
	m.CatalogDate = types.StringValue(rk.CatalogDate)
}
