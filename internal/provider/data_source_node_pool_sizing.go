package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/burst"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/sizing"
)

var (
	_ datasource.DataSourceWithValidateConfig = (*nodePoolSizingDataSource)(nil)
	_ datasource.DataSourceWithConfigure      = (*nodePoolSizingDataSource)(nil)
)

type nodePoolSizingDataSource struct{ dataSourceCatalog }

func newNodePoolSizingDataSource() datasource.DataSource { return &nodePoolSizingDataSource{} }

type sizingPoolModel struct {
	Cloud         types.String `tfsdk:"cloud"`
	InstanceType  types.String `tfsdk:"instance_type"`
	InstanceTypes types.List   `tfsdk:"instance_types"`
	overheadOptionsModel
	MinNodes               types.Int64   `tfsdk:"min_nodes"`
	MaxNodes               types.Int64   `tfsdk:"max_nodes"`
	Zones                  types.List    `tfsdk:"zones"`
	Labels                 types.Map     `tfsdk:"labels"`
	Taints                 types.List    `tfsdk:"taints"`
	Weight                 types.Int64   `tfsdk:"weight"`
	CreditMode             types.String  `tfsdk:"credit_mode"`
	StartingBalance        types.String  `tfsdk:"starting_balance"`
	MinHours               types.Int64   `tfsdk:"min_hours"`
	MaxSurplusCostPerMonth types.Float64 `tfsdk:"max_surplus_cost_per_month"`
	CapacityType           types.String  `tfsdk:"capacity_type"`
	UpgradeMaxSurge        types.String  `tfsdk:"upgrade_max_surge"`
	UpgradeMaxUnavailable  types.String  `tfsdk:"upgrade_max_unavailable"`
	ExtendedResources      types.Map     `tfsdk:"extended_resources"`
}

type taintModel struct {
	Key    types.String `tfsdk:"key"`
	Value  types.String `tfsdk:"value"`
	Effect types.String `tfsdk:"effect"`
}

type tolerationModel struct {
	Key      types.String `tfsdk:"key"`
	Operator types.String `tfsdk:"operator"`
	Value    types.String `tfsdk:"value"`
	Effect   types.String `tfsdk:"effect"`
}

type requestsModel struct {
	CPU              types.String `tfsdk:"cpu"`
	Memory           types.String `tfsdk:"memory"`
	EphemeralStorage types.String `tfsdk:"ephemeral_storage"`
	GPU              types.Int64  `tfsdk:"gpu"`
}

type sizingDaemonSetModel struct {
	Name         types.String `tfsdk:"name"`
	Requests     types.Object `tfsdk:"requests"`
	CPUUsage     types.String `tfsdk:"cpu_usage"`
	NodeSelector types.Map    `tfsdk:"node_selector"`
	Tolerations  types.List   `tfsdk:"tolerations"`
	NodeAffinity types.List   `tfsdk:"node_affinity"`
	HostPorts    types.List   `tfsdk:"host_ports"`
	TakesPodSlot types.Bool   `tfsdk:"takes_pod_slot"`
	misplacedRequestsModel
}

type spreadModel struct {
	Type    types.String `tfsdk:"type"`
	MaxSkew types.Int64  `tfsdk:"max_skew"`
}

type workloadModel struct {
	Name         types.String `tfsdk:"name"`
	Replicas     types.Int64  `tfsdk:"replicas"`
	MinReplicas  types.Int64  `tfsdk:"min_replicas"`
	MaxReplicas  types.Int64  `tfsdk:"max_replicas"`
	Requests     types.Object `tfsdk:"requests"`
	CPUUsage     types.String `tfsdk:"cpu_usage"`
	NodeSelector types.Map    `tfsdk:"node_selector"`
	Tolerations  types.List   `tfsdk:"tolerations"`
	NodeAffinity types.List   `tfsdk:"node_affinity"`
	Preferred    types.List   `tfsdk:"preferred_node_affinity"`
	HostPorts    types.List   `tfsdk:"host_ports"`
	VolumeClaims types.List   `tfsdk:"volume_claims"`
	Namespace    types.String `tfsdk:"namespace"`
	Labels       types.Map    `tfsdk:"labels"`
	PodAffinity  types.Object `tfsdk:"pod_affinity"`
	PodAnti      types.Object `tfsdk:"pod_anti_affinity"`
	TopoSpread   types.List   `tfsdk:"topology_spread"`
	Priority     types.Int64  `tfsdk:"priority"`
	Pools        types.List   `tfsdk:"pools"`
	OS           types.String `tfsdk:"os"`
	MaxSurge     types.String `tfsdk:"max_surge"`
	Spread       types.Object `tfsdk:"spread"`
	PDB          types.Object `tfsdk:"pod_disruption_budget"`
	misplacedRequestsModel
}

type nodePoolSizingModel struct {
	Pools        types.Map    `tfsdk:"pools"`
	DaemonSets   types.List   `tfsdk:"daemonsets"`
	SystemDS     types.String `tfsdk:"system_daemonsets"`
	Workloads    types.List   `tfsdk:"workloads"`
	FailOnMisfit types.Bool   `tfsdk:"fail_on_misfit"`
	Scheduler    types.String `tfsdk:"scheduler_profile"`
	Arrival      types.String `tfsdk:"arrival_order"`
	Disruptions  types.List   `tfsdk:"disruptions"`

	Fits          types.Bool   `tfsdk:"fits"`
	DisruptionOut types.Map    `tfsdk:"disruption_results"`
	PoolResults   types.Map    `tfsdk:"pool_results"`
	WorkloadsOut  types.Map    `tfsdk:"workload_results"`
	Failures      types.List   `tfsdk:"failures"`
	Report        types.String `tfsdk:"report"`
	FormulaSource types.String `tfsdk:"formula_source"`
}

func (d *nodePoolSizingDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_node_pool_sizing"
}

func (d *nodePoolSizingDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	defer cacheDataSourceTypes(&resp.Schema)
	resp.Schema = schema.Schema{
		MarkdownDescription: "Packs workloads and DaemonSets onto node pools, offline, and says whether they fit: nodes required per pool " +
			"for a steady scenario (`replicas` / `min_replicas`) and a peak scenario (`max_replicas` plus the rollout surge), " +
			"utilisation, stranded capacity, per-workload placement and headroom, and Karpenter-style explanations for every " +
			"misfit. Each pool's allocatable comes from the same model as `kubefit_node_overhead`.\n\n" +
			"Node counts are what the cluster will really do: a model of kube-scheduler places the pods one at a time, in " +
			"the order they reach its queue, on the node its profile scores best (the default profile spreads pods, " +
			"`LeastAllocated`), and `nodes_required` is the fewest nodes on which it binds every pod in every planned " +
			"arrival order (`arrival_order`), plus 2 nodes (one per 250 on pools above 500) for each pool the scheduler needed beyond the best packing when " +
			"the model could check only a few of kube-scheduler's tie-break draws (the report says so). When each pool's pods " +
			"are alike (a pool per workload, none free to use several pools or with a hard rule beyond resources and one pod per " +
			"node), that count is the fewest nodes that hold them, on which any scheduler binds them in any order, and the " +
			"model only places them. Beyond the model's work " +
			"budget (tens of thousands of pods in one plan) it is not run: each pool then gets the nodes on which any scheduler " +
			"binds the pods that may use it, whatever their order (safe, and well above the best packing), with a warning, and " +
			"workloads with other hard rules (zone or topology spread, required inter-pod terms, host ports, node affinity) or " +
			"free to use several pools fail with the reason `unmodelled`. `nodes_optimal` is the best packing kubefit finds (multi-resource first-fit " +
			"decreasing on sizes normalised to each pool's allocatable after DaemonSets): what a bin-packing profile or a " +
			"descheduler could reach. Node lists, utilisation, stranded capacity, headroom and the credit checks read the " +
			"scheduler's placement, so a spread load is judged as spread. Pods that may use several pools grow the one " +
			"with the least waste on allocatable, then the highest weight.\n\n" +
			"Burstable pools (AWS T, Azure B, GCP shared-core) are also checked against their CPU credit budget when workloads " +
			"state `cpu_usage`: Kubernetes schedules by requests and never sees the credit balance.\n\n" +
			"By default any misfit **fails the plan** with a diagnostic on the workload or pool at fault; `fail_on_misfit = false` " +
			"turns the failures into warnings. The data source is read during plan when all its inputs are known; otherwise " +
			"Terraform defers it to apply.",
		Attributes: map[string]schema.Attribute{
			"pools": schema.MapNestedAttribute{Required: true, MarkdownDescription: "Node pools, keyed by pool name. Each takes the node options of `kubefit_node_overhead` for a catalog instance type (not the `custom` profile, whose node is described by `vcpu` and `memory`), and DaemonSets are given once for all pools.",
				NestedObject: schema.NestedAttributeObject{Attributes: sizingPoolAttributes(true)}},
			"daemonsets":         daemonSetsAttribute(),
			"system_daemonsets":  systemDaemonSetsAttribute(),
			"workloads":          workloadsAttribute(),
			"fail_on_misfit":     schema.BoolAttribute{Optional: true, MarkdownDescription: "Fail the plan when anything does not fit (default `true`); `false` reports misfits as warnings."},
			"scheduler_profile":  schedulerProfileAttribute(),
			"arrival_order":      arrivalOrderAttribute(),
			"disruptions":        disruptionsAttribute(),
			"disruption_results": disruptionResultsAttribute(),
			"fits":               schema.BoolAttribute{Computed: true, MarkdownDescription: "Whether every workload fits in both scenarios and no burstable pool runs out of credits."},
			"pool_results":       poolResultsAttribute(),
			"workload_results": schema.MapNestedAttribute{Computed: true, MarkdownDescription: "Per workload name: pods per pool in each scenario, unplaced pods and headroom.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"steady":          schema.MapAttribute{Computed: true, ElementType: types.Int64Type, MarkdownDescription: "Pods per pool in the steady scenario."},
					"peak":            schema.MapAttribute{Computed: true, ElementType: types.Int64Type, MarkdownDescription: "Pods per pool in the peak scenario."},
					"unplaced_steady": schema.Int64Attribute{Computed: true, MarkdownDescription: "Pods no pool can take, steady."},
					"unplaced_peak":   schema.Int64Attribute{Computed: true, MarkdownDescription: "Pods no pool can take, peak."},
					"headroom":        schema.Int64Attribute{Computed: true, MarkdownDescription: "How many more replicas of this workload alone would still fit within `max_nodes`, on top of the peak."},
				}}},
			"failures": schema.ListNestedAttribute{Computed: true, MarkdownDescription: "Every misfit, Karpenter style: which constraint excluded which pool, with the numbers.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"workload": schema.StringAttribute{Computed: true, MarkdownDescription: "Workload (empty for a pool-level failure)."},
					"pool":     schema.StringAttribute{Computed: true, MarkdownDescription: "Pool."},
					"scenario": schema.StringAttribute{Computed: true, MarkdownDescription: "`steady`, `peak`, or empty."},
					"reason": schema.StringAttribute{Computed: true, MarkdownDescription: "One of " + markdownList(fit.Reasons) +
						", or `burst-credits` (a burstable pool runs out of CPU credits)."},
					"message": schema.StringAttribute{Computed: true, MarkdownDescription: "What does not fit, with the numbers, and how to fix it."},
				}}},
			"report":         schema.StringAttribute{Computed: true, MarkdownDescription: "A fixed-width table of the results, for an `output`."},
			"formula_source": schema.StringAttribute{Computed: true, MarkdownDescription: "Formula identifiers of the reported figures and their sources."},
		},
	}
}

func poolResultsAttribute() schema.MapNestedAttribute {
	scenario := func(name string) schema.SingleNestedAttribute {
		return schema.SingleNestedAttribute{Computed: true, MarkdownDescription: "The " + name + " scenario.",
			Attributes: map[string]schema.Attribute{
				"nodes_required": schema.Int64Attribute{Computed: true, MarkdownDescription: "Nodes the pool needs (at least `min_nodes`): the fewest on which kube-scheduler binds every pod in every planned arrival order, plus 2 (one per 250 on pools above 500) when the model could check that count under only a few of the scheduler's tie-break draws and it exceeds the best packing's; beyond the model's work budget, the nodes on which any scheduler binds the pods that may use the pool (see the data source's description). What `max_size` must at least be; with workloads free to use several pools the scheduler can split them differently in the steady and peak scenarios, so a pool can need more nodes in the steady one: take the larger."},
				"nodes_optimal":  schema.Int64Attribute{Computed: true, MarkdownDescription: "Nodes of the best packing kubefit finds (what a bin-packing scheduler profile or a descheduler could reach); the report explains a difference. With workloads free to use several pools the best packing can split them over the pools otherwise than the scheduler does, so compare the pools' sum, not one pool's."},
				"fits":           schema.BoolAttribute{Computed: true, MarkdownDescription: "Whether `nodes_required ≤ max_nodes` and the pool can run pods."},
				"lower_bound":    schema.Int64Attribute{Computed: true, MarkdownDescription: "A lower bound on the nodes any packing of the pods the scheduler's placement puts on this pool needs (per-resource totals, spread): at most `nodes_required`, and not comparable with `nodes_optimal` when the best packing puts other pods here."},
				"lower_bound_by": schema.StringAttribute{Computed: true, MarkdownDescription: "What sets the lower bound (a resource, a workload, or `min-nodes`)."},
				"pods":           schema.Int64Attribute{Computed: true, MarkdownDescription: "Workload pods placed on the pool."},
				"utilization": schema.SingleNestedAttribute{Computed: true, MarkdownDescription: "Requested ÷ workload allocatable of the required nodes (DaemonSets excluded), 0–1.",
					Attributes: map[string]schema.Attribute{
						"cpu":    schema.Float64Attribute{Computed: true, MarkdownDescription: "CPU."},
						"memory": schema.Float64Attribute{Computed: true, MarkdownDescription: "Memory."},
						"pods":   schema.Float64Attribute{Computed: true, MarkdownDescription: "Pod slots."},
					}},
				"stranded": schema.SingleNestedAttribute{Computed: true, MarkdownDescription: "Capacity left free on nodes that cannot take even one more pod of any workload that may run there.",
					Attributes: map[string]schema.Attribute{
						"cpu_millicores": schema.Int64Attribute{Computed: true, MarkdownDescription: "CPU."},
						"memory_bytes":   schema.Int64Attribute{Computed: true, MarkdownDescription: "Memory."},
						"pods":           schema.Int64Attribute{Computed: true, MarkdownDescription: "Pod slots."},
					}},
				"max_node_cpu_usage_millicores": schema.Int64Attribute{Computed: true, MarkdownDescription: "The largest expected CPU use of one node (DaemonSets' and pods' `cpu_usage`)."},
				"price_per_hour":                schema.Float64Attribute{Computed: true, MarkdownDescription: "Reference on-demand price of the required nodes (USD per hour; 0 when unknown)."},
			}}
	}
	return schema.MapNestedAttribute{Computed: true, MarkdownDescription: "Per pool name: node model, both scenarios, and the burstable credit check.",
		NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
			"instance_type":        schema.StringAttribute{Computed: true, MarkdownDescription: "The instance type planned on."},
			"profile":              schema.StringAttribute{Computed: true, MarkdownDescription: "The overhead profile used."},
			"overhead_evidence":    evidenceAttribute("the pool's node allocatable"),
			"note":                 schema.StringAttribute{Computed: true, MarkdownDescription: "Notes: which member of a mixed pool was planned on; which of the platform's system DaemonSets are counted, which a listed DaemonSet of the same name replaced on this pool or left (it does not land here); or why none is counted (EKS Windows nodes: none measured; EKS Auto Mode: networking and kube-proxy run on the host)."},
			"min_nodes":            schema.Int64Attribute{Computed: true, MarkdownDescription: "`min_nodes`."},
			"max_nodes":            schema.Int64Attribute{Computed: true, MarkdownDescription: "`max_nodes`."},
			"allocatable":          resourcesAttribute("Allocatable of one node (from the overhead model)."),
			"workload_allocatable": resourcesAttribute("What one node offers workloads after the pool's DaemonSets."),
			"daemonsets":           schema.ListAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: "DaemonSets that land on the pool."},
			"steady":               scenario("steady"),
			"peak":                 scenario("peak"),
			"burst": schema.SingleNestedAttribute{Computed: true, MarkdownDescription: "Burstable pools: the steady scenario's busiest node against its CPU credit budget; null for fixed-performance types.",
				Attributes: map[string]schema.Attribute{
					"credit_mode":                               schema.StringAttribute{Computed: true, MarkdownDescription: "Credit mode used."},
					"baseline_cpu_millicores":                   schema.Int64Attribute{Computed: true, MarkdownDescription: "CPU the node sustains indefinitely."},
					"max_node_cpu_usage_millicores":             schema.Int64Attribute{Computed: true, MarkdownDescription: "Expected CPU use of the busiest node."},
					"node_cpu_usage_millicores":                 schema.ListAttribute{Computed: true, ElementType: types.Int64Type, MarkdownDescription: "Expected CPU use of every node, in node order."},
					"hours_to_exhaustion":                       schema.Float64Attribute{Computed: true, MarkdownDescription: "Hours until the busiest node's balance is empty; null when never."},
					"delivered_cpu_millicores_after_exhaustion": schema.Int64Attribute{Computed: true, MarkdownDescription: "CPU the busiest node delivers once its balance is empty."},
					"verdict": schema.StringAttribute{Computed: true, MarkdownDescription: "One of " + markdownList(burst.Verdicts) + "."},
					"detail":  schema.StringAttribute{Computed: true, MarkdownDescription: "The verdict explained, with its source."},
				}},
		}}}
}

func (d *nodePoolSizingDataSource) ValidateConfig(ctx context.Context, req datasource.ValidateConfigRequest, resp *datasource.ValidateConfigResponse) {
	// The pools and what is checked of each workload (workloadChecks), or, for a configuration they cannot be
	// read from so, the whole model.
	var pools types.Map
	workloads, ok := workloadChecks(ctx, req.Config.Raw)
	if ok {
		ok = !req.Config.GetAttribute(ctx, path.Root("pools"), &pools).HasError()
	}
	if !ok {
		var m nodePoolSizingModel
		resp.Diagnostics.Append(configGet(ctx, req.Config, &m)...)
		if resp.Diagnostics.HasError() {
			return
		}
		pools, workloads = m.Pools, modelWorkloadChecks(ctx, m.Workloads)
	}
	// Check every pool with what is known of it: an unknown attribute in one pool must not hide a known
	// error in it or in another. The pool names are known whenever the map itself is.
	poolNames := map[string]bool{}
	poolsKnown := !pools.IsUnknown() && !pools.IsNull()
	if poolsKnown {
		for name, v := range pools.Elements() {
			poolNames[name] = true
			var p sizingPoolModel
			if obj, ok := v.(types.Object); ok {
				resp.Diagnostics.Append(objectAs(ctx, obj, &p, objectAsOptions)...)
			}
			validatePoolConfig(path.Root("pools").AtMapKey(name), p, &resp.Diagnostics)
		}
	}
	for i, w := range workloads {
		if w == nil {
			continue
		}
		resp.Diagnostics.Append(w.diags...)
		validateWorkloadConfig(path.Root("workloads").AtListIndex(i), *w, poolsKnown, poolNames, &resp.Diagnostics)
	}
}

func (d *nodePoolSizingDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m nodePoolSizingModel
	resp.Diagnostics.Append(configGet(ctx, req.Config, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	request := expandSizing(ctx, m, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	plan, err := solveSizing(sizing.NewPlanner(d.catalog()), ctx, request)
	if err != nil {
		addSizingErrors(&resp.Diagnostics, m, err)
		return
	}
	reportSizing(&resp.Diagnostics, plan, instanceTypeWarnings(d.oncePerPlan(plan.Warnings), m), m.FailOnMisfit.IsNull() || m.FailOnMisfit.ValueBool())
	if resp.Diagnostics.HasError() {
		return
	}
	flattenSizing(&m, plan)
	resp.Diagnostics.Append(setReadState(ctx, &resp.State, req.Config, &m)...)
}

// solveSizing is the planner's Solve; the edge's benchmarks wrap it to tell the planner's time from the edge's.
var solveSizing = (*sizing.Planner).Solve

// addSizingErrors reports the sizing planner's input errors at their attributes.
func addSizingErrors(diags *diag.Diagnostics, m nodePoolSizingModel, err error) {
	errs := field.As(err)
	if len(errs) == 0 {
		diags.AddError("Sizing Failed", err.Error())
		return
	}
	for _, e := range errs {
		summary := inputSummary(e.Path, "Invalid Sizing Input")
		if steps := e.Path.Steps(); len(steps) > 2 && steps[2].Name == "InstanceTypes" {
			summary = "Unknown Instance Type"
		}
		diags.AddAttributeError(sizingErrorPath(e.Path, m), summary, sentence(e.Detail))
	}
}

// failureSummary is the diagnostic summary of every misfit.
const failureSummary = "Workloads Do Not Fit"

// reportSizing turns the plan's misfits into errors (warnings when failOnMisfit is false) and its warnings
// into warnings, each on the workload or pool at fault.
func reportSizing(diags *diag.Diagnostics, plan *sizing.Plan, warnings []field.Warning, failOnMisfit bool) {
	add, suffix := diags.AddAttributeError, " Set fail_on_misfit = false to plan anyway and only warn."
	if !failOnMisfit {
		add, suffix = diags.AddAttributeWarning, ""
	}
	const maxDiags = 20
	for i, f := range plan.Misfits() {
		if i == maxDiags {
			add(path.Root("workloads"), failureSummary, "More misfits than shown here; plan with fail_on_misfit = false to see them all in the failures and report attributes.")
			break
		}
		p := path.Root("pools").AtMapKey(f.Pool)
		if f.Reason == sizing.ReasonCredits {
			add(p, "Burstable Nodes Run Out of CPU Credits", f.Message+suffix)
			continue
		}
		if f.Reason == sizing.Reason(fit.ReasonDisruption) {
			add(path.Root("disruptions"), "Disruption Not Absorbed", strings.TrimRight(f.Message, ".")+"."+suffix)
			continue
		}
		for j, w := range plan.Workloads {
			if w.Name == f.Workload && f.Workload != "" {
				p = path.Root("workloads").AtListIndex(j)
			}
		}
		scenario := ""
		if f.Scenario != "" {
			scenario = fmt.Sprintf(" (%s scenario)", f.Scenario)
		}
		add(p, failureSummary, fmt.Sprintf("%s%s: %s.%s", f.Reason, scenario, strings.TrimRight(f.Message, "."), suffix))
	}
	addPlannerWarnings(diags, path.Empty(), warnings, sizingRenames, "Sizing Caveat")
}
