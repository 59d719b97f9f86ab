package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-validators/float64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/burst"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/sizing"
)

var (
	_ datasource.DataSourceWithValidateConfig = (*burstBudgetDataSource)(nil)
	_ datasource.DataSourceWithConfigure      = (*burstBudgetDataSource)(nil)
)

type burstBudgetDataSource struct{ dataSourceCatalog }

func newBurstBudgetDataSource() datasource.DataSource { return &burstBudgetDataSource{} }

type burstBudgetModel struct {
	Cloud                  types.String  `tfsdk:"cloud"`
	InstanceType           types.String  `tfsdk:"instance_type"`
	CreditMode             types.String  `tfsdk:"credit_mode"`
	SustainedCPU           types.String  `tfsdk:"sustained_cpu"`
	PodsPerNode            types.Int64   `tfsdk:"pods_per_node"`
	CPUUsagePerPod         types.String  `tfsdk:"cpu_usage_per_pod"`
	SystemCPUUsage         types.String  `tfsdk:"system_cpu_usage"`
	StartingBalance        types.String  `tfsdk:"starting_balance"`
	MinHours               types.Int64   `tfsdk:"min_hours"`
	MaxSurplusCostPerMonth types.Float64 `tfsdk:"max_surplus_cost_per_month"`
	SurplusPrice           types.Float64 `tfsdk:"surplus_price_per_vcpu_hour"`

	Burstable              types.Bool    `tfsdk:"burstable"`
	VCPU                   types.Int64   `tfsdk:"vcpu"`
	BaselinePercentPerVCPU types.Float64 `tfsdk:"baseline_percent_per_vcpu"`
	BaselineCPUMillicores  types.Int64   `tfsdk:"baseline_cpu_millicores"`
	CreditsPerHour         types.Float64 `tfsdk:"credits_per_hour"`
	MaxCredits             types.Float64 `tfsdk:"max_credits"`
	LaunchCredits          types.Float64 `tfsdk:"launch_credits"`
	StartingCredits        types.Float64 `tfsdk:"starting_credits"`
	SustainedCPUMillicores types.Int64   `tfsdk:"sustained_cpu_millicores"`
	NetCreditsPerHour      types.Float64 `tfsdk:"net_credits_per_hour"`
	HoursToExhaustion      types.Float64 `tfsdk:"hours_to_exhaustion"`
	DeliveredCPUAfter      types.Int64   `tfsdk:"delivered_cpu_millicores_after_exhaustion"`
	DeliveredPercentAfter  types.Float64 `tfsdk:"delivered_percent_after_exhaustion"`
	DeliveredPodCPUAfter   types.Int64   `tfsdk:"delivered_cpu_per_pod_millicores_after_exhaustion"`
	SurplusCostPerHour     types.Float64 `tfsdk:"surplus_cost_per_hour"`
	SurplusCostPerMonth    types.Float64 `tfsdk:"surplus_cost_per_month"`
	MaxSustainableCPU      types.Int64   `tfsdk:"max_sustainable_cpu_millicores"`
	MaxSustainablePods     types.Int64   `tfsdk:"max_sustainable_pods"`
	Verdict                types.String  `tfsdk:"verdict"`
	Detail                 types.String  `tfsdk:"detail"`
	Source                 types.String  `tfsdk:"source"`
}

func (d *burstBudgetDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_burst_budget"
}

// surplusPriceDoc lists the default surplus prices with their sources and dates, for the docs.
func surplusPriceDoc() string {
	return "Defaults (Linux; regional variation unconfirmed): " +
		"T2 — " + burst.SurplusPriceSourceT2 + ". T3 — " + burst.SurplusPriceSourceT3 + ". T3a — " +
		burst.SurplusPriceSourceT3A + ". T4g — " + burst.SurplusPriceSourceT4G + ". Windows is $0.096 per vCPU-hour " +
		"on T2/T3 (a 2020 pricing-page quote); set this attribute for Windows nodes or another region. Refresh from " +
		"the AWS Price List, product family \"CPU Credits\", usage type `CPUCredits:<family>`."
}

// maxSurplusCostDescription describes max_surplus_cost_per_month wherever credit options are set. The
// month is burst.HoursPerMonth (730) hours, the period the burst planner multiplies the hourly surplus
// cost by.
func maxSurplusCostDescription() string {
	return fmt.Sprintf("Largest acceptable unlimited-mode surplus-credit cost per node and month (%d hours), in US "+
		"dollars. When set and exceeded the plan fails. Unset: no limit (a warning only).", burst.HoursPerMonth)
}

func (d *burstBudgetDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	defer cacheDataSourceTypes(&resp.Schema)
	quantity := func(desc string, conflicts ...string) schema.StringAttribute {
		v := []validator.String{quantityValidator{quantityCPU}}
		for _, c := range conflicts {
			v = append(v, stringvalidator.ConflictsWith(path.MatchRoot(c)))
		}
		return schema.StringAttribute{Optional: true, MarkdownDescription: desc, Validators: v}
	}
	i64 := func(desc string) schema.Int64Attribute {
		return schema.Int64Attribute{Computed: true, MarkdownDescription: desc}
	}
	f64 := func(desc string) schema.Float64Attribute {
		return schema.Float64Attribute{Computed: true, MarkdownDescription: desc}
	}
	const nullNotBurstable = " Null for a fixed-performance type."
	resp.Schema = schema.Schema{
		MarkdownDescription: "Checks whether a node of a burstable instance type can carry a sustained CPU load without " +
			"running out of CPU credits: AWS T2, T3, T3a and T4g (every size), Azure B-series v1 and Bsv2/Basv2/Bpsv2, and " +
			"GCP shared-core machine types (e2-micro, e2-small, e2-medium, f1-micro, g1-small). It reports the baseline " +
			"(sustained capacity), the credits earned per hour, the maximum and launch balances, the net credits per hour " +
			"at the given load, the hours until the balance is empty, the CPU the node still delivers afterwards in " +
			"standard mode, the unlimited-mode surplus cost, and the largest load that never exhausts the balance. " +
			"Figures come from kubefit's embedded tables (`source` names the data row and formulas).\n\n" +
			"**Why this matters.** Kubernetes schedules pods by comparing their CPU *requests* with the node's allocatable " +
			"CPU (the full vCPU count less reservations). It never sees the credit balance or the baseline: a t3a.medium " +
			"advertises 2 CPUs but sustains only 400m. When the credits run out, the cloud withholds CPU, which shows up " +
			"as steal time and latency, not as container CPU throttling or an eviction, so the node stays Ready and keeps " +
			"accepting pods. Give *expected usage* (what `kubectl top` shows, including per-pod agents and sidecars), not requests.\n\n" +
			"**Failures.** The plan fails when, in `standard` mode (and always on Azure and GCP), the balance empties " +
			"within `min_hours`; or, in `unlimited` mode, when `max_surplus_cost_per_month` is set and exceeded. " +
			"Otherwise a load above the baseline gives a warning. Fixed-performance types report `burstable = false` " +
			"and never fail.\n\n" +
			"Like every data source, it is read during `terraform plan` when all its inputs are known; if an input is " +
			"only known after apply, Terraform defers the read (and its checks) to apply.",
		Attributes: map[string]schema.Attribute{
			"cloud": cloudAttribute(true, ""),
			"instance_type": schema.StringAttribute{Required: true,
				MarkdownDescription: "Instance type as the cloud spells it (`t3a.medium`, `Standard_B2s`, `e2-medium`). Any type " +
					"in kubefit's catalog is accepted; a fixed-performance type reports `burstable = false`. An unknown name " +
					"fails with the closest names the catalog knows."},
			"credit_mode": schema.StringAttribute{Optional: true, Computed: true,
				MarkdownDescription: "Credit mode: " + markdownList(burst.Modes) + ". `standard` throttles the node to its " +
					"baseline when the balance is empty; `unlimited` (AWS only) keeps it bursting and bills surplus credits. " +
					"Defaults to the family's default: `standard` for T2, `unlimited` for T3, T3a and T4g; Azure and GCP " +
					"only have `standard`. Set it when the account default (`aws_ec2_default_credit_specification`) or the " +
					"launch template's `credit_specification` differs. After read: the mode used.",
				Validators: []validator.String{stringvalidator.OneOf(stringsOf(burst.Modes)...)}},
			"sustained_cpu": quantity("Sustained CPU usage of the whole node, as a Kubernetes quantity (`\"450m\"`, `\"0.5\"`). "+
				"Use either this or `pods_per_node` × `cpu_usage_per_pod` (+ `system_cpu_usage`). With neither, the load is 0 "+
				"and only the budget figures are reported.", "pods_per_node", "cpu_usage_per_pod", "system_cpu_usage"),
			"pods_per_node": schema.Int64Attribute{Optional: true,
				MarkdownDescription: "Workload pods on the most-loaded node. For N pods spread evenly over n nodes use " +
					"`ceil(N / n)`. Requires `cpu_usage_per_pod`.",
				Validators: []validator.Int64{int64validator.AtLeast(0),
					int64validator.AlsoRequires(path.MatchRoot("cpu_usage_per_pod"))}},
			"cpu_usage_per_pod": quantity("Sustained CPU *usage* of one pod (`\"50m\"` is 5 % of one vCPU), including per-pod " +
				"agents and sidecars. Without `pods_per_node` it still gives `max_sustainable_pods`."),
			"system_cpu_usage": quantity("Sustained usage of everything on the node that is not a workload pod: kubelet, " +
				"container runtime, CNI, kube-proxy, DaemonSet agents. Default 0, an optimistic lower bound: measure it " +
				"per cluster (node CPU with no application pods)."),
			"starting_balance": schema.StringAttribute{Optional: true,
				MarkdownDescription: "Credit balance the node starts from: `\"launch\"` (default) is what a new node really " +
					"starts with (AWS T2 standard: 30 launch credits per vCPU; T2 unlimited, T3, T3a, T4g: 0; Azure: 30 " +
					"initial credits per vCPU; GCP: no balance). Kubernetes nodes are replaced often (upgrades, scale-out, " +
					"Spot), so this is the realistic case. `\"full\"` is the accrual cap, the best case. Or a number of " +
					"credits (`\"120\"`, at most 3 decimals).",
				Validators: []validator.String{balanceValidator{}}},
			"min_hours": schema.Int64Attribute{Optional: true,
				MarkdownDescription: fmt.Sprintf("Whole hours a node must run before it may be throttled. In `standard` "+
					"mode the plan fails when the balance empties sooner. Default %d; 0 accepts throttling at once "+
					"(a warning only).", burst.DefaultMinHours),
				Validators: []validator.Int64{int64validator.AtLeast(0)}},
			"max_surplus_cost_per_month": schema.Float64Attribute{Optional: true,
				MarkdownDescription: maxSurplusCostDescription(),
				Validators:          []validator.Float64{float64validator.AtLeast(0)}},
			"surplus_price_per_vcpu_hour": schema.Float64Attribute{Optional: true, Computed: true,
				MarkdownDescription: "Price of surplus credits in unlimited mode, in US dollars per vCPU-hour (one surplus " +
					"credit costs price ÷ 60). " + surplusPriceDoc() + " After read: the price used; null where there is " +
					"no unlimited mode.",
				Validators: []validator.Float64{float64validator.AtLeast(0)}},

			"burstable": schema.BoolAttribute{Computed: true,
				MarkdownDescription: "Whether the type has a CPU burst budget (credits, or a GCP shared-core fraction)."},
			"vcpu": i64("vCPUs of the instance type (what the kubelet advertises as CPU capacity)."),
			"baseline_percent_per_vcpu": f64("Baseline: the share of each vCPU the node may use indefinitely, in per cent, " +
				"derived as credits per hour ÷ (0.6 × vCPU) (exact even where Azure prints a rounded figure)." + nullNotBurstable),
			"baseline_cpu_millicores": i64("Sustained capacity: baseline × vCPU = credits per hour ÷ 60, in millicores " +
				"(rounded down). t3a.medium: 400." + nullNotBurstable),
			"credits_per_hour": f64("CPU credits earned per hour (one credit = one vCPU at 100 % for one minute). " +
				"0 for GCP shared-core, which has no credits." + nullNotBurstable),
			"max_credits": f64("Maximum accrued balance (the accrual cap; about 24 hours of earnings). 0 for GCP." + nullNotBurstable),
			"launch_credits": f64("Credits a newly launched node starts with in the mode used: AWS T2 standard launch " +
				"credits, Azure initial credits, else 0." + nullNotBurstable),
			"starting_credits": f64("The balance the check starts from (`starting_balance` resolved)." + nullNotBurstable),
			"sustained_cpu_millicores": i64("The sustained demand per node the check used: `sustained_cpu`, or " +
				"`system_cpu_usage` + `pods_per_node` × `cpu_usage_per_pod`."),
			"net_credits_per_hour": f64("Change of the balance per hour at that load: credits earned − credits spent. " +
				"Negative while the balance drains. Null for GCP (no balance)." + nullNotBurstable),
			"hours_to_exhaustion": f64("Hours until the balance is empty (0 when the node starts empty). Null when never: " +
				"the load is at or below the baseline. AWS ramps CPU down gradually near zero, so treat it as an upper bound."),
			"delivered_cpu_millicores_after_exhaustion": i64("CPU the node delivers once the balance is empty: the baseline " +
				"(or the demand, if lower) in `standard` mode, the full demand in `unlimited` mode." + nullNotBurstable),
			"delivered_percent_after_exhaustion": f64("Share of the demand served once the balance is empty, in per cent: " +
				"min(1, baseline ÷ demand) × 100 in `standard` mode. The rest queues as CPU steal and latency." + nullNotBurstable),
			"delivered_cpu_per_pod_millicores_after_exhaustion": i64("CPU each pod gets once the balance is empty (rounded " +
				"down), when `cpu_usage_per_pod` is given; null otherwise."),
			"surplus_cost_per_hour": f64("Unlimited mode: surplus vCPU (demand − baseline) × price, per node and hour, in US " +
				"dollars. 0 in `standard` mode or at or below the baseline." + nullNotBurstable),
			"surplus_cost_per_month": f64(fmt.Sprintf("`surplus_cost_per_hour` × %d, per node. The credit cap only defers "+
				"the charge (to termination or stop); it does not waive it.", burst.HoursPerMonth) + nullNotBurstable),
			"max_sustainable_cpu_millicores": i64("Largest sustained demand per node that never exhausts the balance (the " +
				"baseline, in millicores)." + nullNotBurstable),
			"max_sustainable_pods": i64("Largest number of pods at `cpu_usage_per_pod` that, with `system_cpu_usage`, never " +
				"exhausts the balance: floor((baseline − system) ÷ usage per pod). Null without `cpu_usage_per_pod`."),
			"verdict": schema.StringAttribute{Computed: true,
				MarkdownDescription: "Outcome: " + markdownList(burst.Verdicts) + ". `throttled` and `over_cost_limit` fail " +
					"the plan; `above_baseline` and `surplus_charged` warn."},
			"detail": schema.StringAttribute{Computed: true,
				MarkdownDescription: "The verdict explained with its numbers (the same text as the diagnostic)."},
			"source": schema.StringAttribute{Computed: true,
				MarkdownDescription: "Where the figures come from: the data row and its vendor source, the surplus price source " +
					"and date (unlimited mode), and the formula identifiers."},
		},
	}
}

// balanceValidator checks starting_balance with the planner's parser.
type balanceValidator struct{}

func (balanceValidator) Description(context.Context) string {
	return `value must be "launch", "full" or a non-negative number of credits`
}

func (v balanceValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (balanceValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if _, err := burst.ParseBalance(req.ConfigValue.ValueString()); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid Starting Balance", err.Error())
	}
}

// burstBudgetFor finds the budget of an instance type: the burst tables first, then the catalog for
// fixed-performance types (and "did you mean" on unknown names).
func burstBudgetFor(ctx context.Context, cat sizing.Catalog, cloud catalog.Cloud, name string, diags *diag.Diagnostics) (burst.Budget, bool) {
	b, ok, err := cat.CreditBudget(ctx, cloud, name)
	if err != nil {
		diags.AddAttributeError(path.Root("instance_type"), "Catalog Lookup Failed", err.Error())
		return burst.Budget{}, false
	}
	if ok {
		return b, true
	}
	it, ok := lookupInstance(ctx, cat, path.Root("instance_type"), cloud, name, diags)
	if !ok {
		return burst.Budget{}, false
	}
	if it.SustainedBelowVCPUs() {
		diags.AddAttributeWarning(path.Root("instance_type"), "No Credit Table for Burstable Type",
			fmt.Sprintf("The catalog marks %s as burstable, but kubefit has no credit table for it; it is reported "+
				"without a budget. Check its baseline by hand.", it.Name))
	}
	return burst.NotBurstable(cloud, it.Name, it.VCPU), true
}

// burstInputKnown reports whether every input the planner needs is known.
func burstInputKnown(m burstBudgetModel) bool {
	for _, v := range []attr.Value{m.Cloud, m.InstanceType, m.CreditMode, m.SustainedCPU, m.PodsPerNode, m.CPUUsagePerPod,
		m.SystemCPUUsage, m.StartingBalance, m.MinHours, m.MaxSurplusCostPerMonth, m.SurplusPrice} {
		if v.IsUnknown() {
			return false
		}
	}
	return true
}

// burstInput converts the configuration into a planner input, reporting bad values at their attributes.
func burstInput(m burstBudgetModel, diags *diag.Diagnostics) burst.Input {
	in := burst.Input{Mode: burst.Mode(m.CreditMode.ValueString()), MinHours: burst.DefaultMinHours}
	if v := optQuantity(path.Root("sustained_cpu"), m.SustainedCPU, quantityCPU, diags); v != nil {
		in.Load.SustainedMillicores = *v
	}
	if v := optQuantity(path.Root("cpu_usage_per_pod"), m.CPUUsagePerPod, quantityCPU, diags); v != nil {
		in.Load.PodMillicores = *v
	}
	if v := optQuantity(path.Root("system_cpu_usage"), m.SystemCPUUsage, quantityCPU, diags); v != nil {
		in.Load.SystemMillicores = *v
	}
	in.Load.PodsPerNode = m.PodsPerNode.ValueInt64()
	if !m.StartingBalance.IsNull() {
		b, err := burst.ParseBalance(m.StartingBalance.ValueString())
		if err != nil {
			diags.AddAttributeError(path.Root("starting_balance"), "Invalid Starting Balance", err.Error())
		}
		in.Start = b
	}
	if !m.MinHours.IsNull() {
		in.MinHours = m.MinHours.ValueInt64()
	}
	if !m.MaxSurplusCostPerMonth.IsNull() {
		in.MaxSurplusCostPerMonth, in.HasMaxSurplusCost = m.MaxSurplusCostPerMonth.ValueFloat64(), true
	}
	if !m.SurplusPrice.IsNull() {
		in.SurplusPriceUSDPerVCPUHour, in.HasSurplusPrice = m.SurplusPrice.ValueFloat64(), true
	}
	return in
}

// burstRenames maps burst.Input's field names to this data source's attributes.
var burstRenames = renames{
	"Load":                       "",
	"SustainedMillicores":        "sustained_cpu",
	"SystemMillicores":           "system_cpu_usage",
	"PodMillicores":              "cpu_usage_per_pod",
	"Mode":                       "credit_mode",
	"Start":                      "starting_balance",
	"SurplusPriceUSDPerVCPUHour": "surplus_price_per_vcpu_hour",
}

func (d *burstBudgetDataSource) ValidateConfig(ctx context.Context, req datasource.ValidateConfigRequest, resp *datasource.ValidateConfigResponse) {
	var m burstBudgetModel
	resp.Diagnostics.Append(configGet(ctx, req.Config, &m)...)
	if resp.Diagnostics.HasError() || !burstInputKnown(m) {
		return
	}
	cloud, ok := parseCloud(path.Root("cloud"), m.Cloud, &resp.Diagnostics)
	if !ok {
		return
	}
	b, ok := burstBudgetFor(ctx, d.catalog(), cloud, m.InstanceType.ValueString(), &resp.Diagnostics)
	if !ok {
		return
	}
	// The attribute validators report malformed quantities and balances; here only what needs the budget
	// (usage above the vCPU count, a mode the cloud lacks, a balance above the cap) is checked.
	var ignored diag.Diagnostics
	in := burstInput(m, &ignored)
	if ignored.HasError() {
		return
	}
	if _, err := burst.Evaluate(b, in); err != nil {
		addPlannerErrors(&resp.Diagnostics, path.Empty(), err, burstRenames, "Invalid Burst Budget Input")
	}
}

func (d *burstBudgetDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m burstBudgetModel
	resp.Diagnostics.Append(configGet(ctx, req.Config, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	cloud, ok := parseCloud(path.Root("cloud"), m.Cloud, &resp.Diagnostics)
	if !ok {
		return
	}
	b, ok := burstBudgetFor(ctx, d.catalog(), cloud, m.InstanceType.ValueString(), &resp.Diagnostics)
	if !ok {
		return
	}
	in := burstInput(m, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	r, err := burst.Evaluate(b, in)
	if err != nil {
		addPlannerErrors(&resp.Diagnostics, path.Empty(), err, burstRenames, "Invalid Burst Budget Input")
		return
	}
	switch {
	case r.Verdict.Fails():
		resp.Diagnostics.AddError(r.Verdict.Summary(), r.Detail)
	case r.Verdict.Warns():
		resp.Diagnostics.AddWarning(r.Verdict.Summary(), r.Detail)
	}
	if msg := burst.IgnoredOptions(m.InstanceType.ValueString(), b); msg != "" {
		// Warned on the first credit option given, as a sizing pool warns on the pool.
		for _, o := range []struct {
			name string
			v    attr.Value
		}{{"credit_mode", m.CreditMode}, {"starting_balance", m.StartingBalance}, {"min_hours", m.MinHours}, {"max_surplus_cost_per_month", m.MaxSurplusCostPerMonth}} {
			if !o.v.IsNull() {
				resp.Diagnostics.AddAttributeWarning(path.Root(o.name), warningSummary(sizing.WarnCreditsIgnored, ""), sentence(msg))
				break
			}
		}
	}
	setBurstResult(&m, r, in)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// setBurstResult copies a planner result into the model's computed attributes.
func setBurstResult(m *burstBudgetModel, r burst.Result, in burst.Input) {
	credits := func(milli int64) types.Float64 { return types.Float64Value(burst.Credits(milli)) }
	nullF, nullI := types.Float64Null(), types.Int64Null()
	m.Burstable = types.BoolValue(r.Burstable)
	m.VCPU = nullI
	if r.Budget.VCPU > 0 {
		m.VCPU = types.Int64Value(int64(r.Budget.VCPU))
	}
	m.SustainedCPUMillicores = types.Int64Value(r.DemandMillicores)
	m.Verdict = types.StringValue(string(r.Verdict))
	m.Detail = types.StringValue(r.Detail)
	m.Source = types.StringValue(r.Source)
	m.HoursToExhaustion, m.DeliveredPodCPUAfter, m.MaxSustainablePods = nullF, nullI, nullI
	if !r.Burstable {
		if m.CreditMode.IsUnknown() {
			m.CreditMode = types.StringNull()
		}
		if m.SurplusPrice.IsUnknown() {
			m.SurplusPrice = nullF
		}
		m.BaselinePercentPerVCPU, m.BaselineCPUMillicores, m.CreditsPerHour, m.MaxCredits = nullF, nullI, nullF, nullF
		m.LaunchCredits, m.StartingCredits, m.NetCreditsPerHour, m.DeliveredCPUAfter = nullF, nullF, nullF, nullI
		m.DeliveredPercentAfter, m.SurplusCostPerHour, m.SurplusCostPerMonth, m.MaxSustainableCPU = nullF, nullF, nullF, nullI
		return
	}
	m.CreditMode = types.StringValue(string(r.Mode))
	m.SurplusPrice = nullF
	if r.Budget.UnlimitedSupported || in.HasSurplusPrice {
		m.SurplusPrice = types.Float64Value(r.SurplusPriceUSDPerVCPUHour)
	}
	m.BaselinePercentPerVCPU = types.Float64Value(r.BaselinePercentPerVCPU)
	m.BaselineCPUMillicores = types.Int64Value(r.SustainedMillicores)
	m.CreditsPerHour = credits(r.Budget.EarnMilliCreditsPerHour)
	m.MaxCredits = credits(r.Budget.MaxMilliCredits)
	m.LaunchCredits = credits(r.LaunchMilliCredits)
	m.StartingCredits = credits(r.StartMilliCredits)
	m.NetCreditsPerHour = nullF
	if r.Budget.HasCredits() {
		m.NetCreditsPerHour = credits(r.NetMilliCreditsPerHour)
	}
	if r.Exhausts {
		m.HoursToExhaustion = types.Float64Value(r.HoursToExhaustion)
	}
	m.DeliveredCPUAfter = types.Int64Value(r.DeliveredMillicoresAfterExhaustion)
	m.DeliveredPercentAfter = types.Float64Value(r.DeliveredPercent)
	if in.Load.PodMillicores > 0 {
		m.DeliveredPodCPUAfter = types.Int64Value(r.DeliveredPodMillicores)
	}
	m.SurplusCostPerHour = types.Float64Value(r.SurplusCostPerHour)
	m.SurplusCostPerMonth = types.Float64Value(r.SurplusCostPerMonth)
	m.MaxSustainableCPU = types.Int64Value(r.MaxSustainableMillicores)
	if r.HasPodCount {
		m.MaxSustainablePods = types.Int64Value(r.MaxSustainablePods)
	}
}
