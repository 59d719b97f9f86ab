package provider

import (
	"context"
	"errors"
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
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/disk"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/sizing"
)

var (
	_ datasource.DataSourceWithValidateConfig = (*diskTierDataSource)(nil)
	_ datasource.DataSourceWithConfigure      = (*diskTierDataSource)(nil)
)

type diskTierDataSource struct{ dataSourceCatalog }

func newDiskTierDataSource() datasource.DataSource { return &diskTierDataSource{} }

// diskIOModel is the `io` block shared by kubefit_disk_tier and kubefit_storage_class.
type diskIOModel struct {
	BlockSizeKiB types.Int64   `tfsdk:"block_size_kib"`
	Pattern      types.String  `tfsdk:"pattern"`
	QueueDepth   types.Int64   `tfsdk:"queue_depth"`
	LatencyMs    types.Float64 `tfsdk:"latency_ms"`
}

type diskTierModel struct {
	Cloud                  types.String  `tfsdk:"cloud"`
	Type                   types.String  `tfsdk:"type"`
	SizeGiB                types.Int64   `tfsdk:"size_gib"`
	IOPS                   types.Int64   `tfsdk:"iops"`
	ThroughputMBps         types.Int64   `tfsdk:"throughput_mbps"`
	EnableBursting         types.Bool    `tfsdk:"enable_bursting"`
	PerformancePlus        types.Bool    `tfsdk:"performance_plus"`
	InstanceType           types.String  `tfsdk:"instance_type"`
	VolumesPerNode         types.Int64   `tfsdk:"volumes_per_node"`
	IO                     types.Object  `tfsdk:"io"`
	RequiredIOPS           types.Int64   `tfsdk:"required_iops"`
	RequiredThroughputMBps types.Float64 `tfsdk:"required_throughput_mbps"`
	FailOnUnmet            types.Bool    `tfsdk:"fail_on_unmet"`

	ThroughputUnit          types.String  `tfsdk:"throughput_unit"`
	Tier                    types.String  `tfsdk:"tier"`
	BilledSizeGiB           types.Int64   `tfsdk:"billed_size_gib"`
	BaselineIOPS            types.Int64   `tfsdk:"baseline_iops"`
	BaselineThroughputMBps  types.Float64 `tfsdk:"baseline_throughput_mbps"`
	BurstIOPS               types.Int64   `tfsdk:"burst_iops"`
	BurstThroughputMBps     types.Float64 `tfsdk:"burst_throughput_mbps"`
	BurstDurationMinutes    types.Float64 `tfsdk:"burst_duration_minutes"`
	EffectiveIOPS           types.Float64 `tfsdk:"effective_iops"`
	EffectiveThroughputMBps types.Float64 `tfsdk:"effective_throughput_mbps"`
	LimitedBy               types.String  `tfsdk:"limited_by"`
	Instance                types.Object  `tfsdk:"instance"`
	Verdict                 types.String  `tfsdk:"verdict"`
	Recommended             types.Object  `tfsdk:"recommended"`
	Explanation             types.String  `tfsdk:"explanation"`
	Source                  types.String  `tfsdk:"source"`
}

func (d *diskTierDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_disk_tier"
}

const diskUnitDoc = " In the unit the cloud publishes volume throughput in (`throughput_unit`): MiB/s (2^20 bytes/s) " +
	"for AWS EBS and GCP, MB/s (10^6 bytes/s) for Azure."

// diskIOAttributes is the schema of the `io` access-profile block.
func diskIOAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"block_size_kib": schema.Int64Attribute{Optional: true,
			MarkdownDescription: "Bytes per application operation, in KiB. Default 16. An operation larger than 256 KiB " +
				"counts as several I/Os (1 MiB on st1/sc1).",
			Validators: []validator.Int64{int64validator.Between(1, disk.MaxBlockSize/1024)}},
		"pattern": schema.StringAttribute{Optional: true,
			MarkdownDescription: "Access pattern: one of " + markdownList(disk.Patterns) + ". Default `random`. " +
				"On st1/sc1 a random I/O is charged a full 1 MiB of throughput, and sequential I/O is assumed merged.",
			Validators: []validator.String{stringvalidator.OneOf(stringsOf(disk.Patterns)...)}},
		"queue_depth": schema.Int64Attribute{Optional: true,
			MarkdownDescription: "I/Os the application keeps in flight against the volume. When set, the achievable " +
				"rate is at most `queue_depth / latency` (Little's law); a requirement above it fails (`QD-2`). When " +
				"unset, kubefit warns (`QD-1`) if a requirement needs more than one I/O in flight.",
			Validators: []validator.Int64{int64validator.Between(1, disk.MaxQueueDepth)}},
		"latency_ms": schema.Float64Attribute{Optional: true,
			MarkdownDescription: "Per-I/O service latency in milliseconds. Default: the type's planning value " +
				"(Azure Premium SSD 2.5, Standard SSD 5, Standard HDD 20, PremiumV2/Ultra 1; gp2/gp3/io1 1, io2 0.5, " +
				"st1/sc1/standard 10; pd-standard 10, other GCP types 1). Replace it with a measured value.",
			Validators: []validator.Float64{float64validator.Between(0.001, 60000)}},
	}
}

var diskIOAttrTypes = map[string]attr.Type{
	"block_size_kib": types.Int64Type, "pattern": types.StringType, "queue_depth": types.Int64Type,
	"latency_ms": types.Float64Type,
}

var diskInstanceAttrTypes = map[string]attr.Type{
	"name": types.StringType, "baseline_iops": types.Int64Type, "baseline_throughput_mbps": types.Float64Type,
	"burst_iops": types.Int64Type, "burst_throughput_mbps": types.Float64Type,
	"burst_duration_minutes": types.Float64Type, "max_data_disks": types.Int64Type,
}

var diskRecommendedAttrTypes = map[string]attr.Type{
	"type": types.StringType, "size_gib": types.Int64Type, "tier": types.StringType,
	"billed_size_gib": types.Int64Type, "iops": types.Int64Type, "throughput_mbps": types.Int64Type,
	"enable_bursting": types.BoolType, "reason": types.StringType,
}

func (d *diskTierDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	str := func(desc string) schema.StringAttribute {
		return schema.StringAttribute{Computed: true, MarkdownDescription: desc}
	}
	i64 := func(desc string) schema.Int64Attribute {
		return schema.Int64Attribute{Computed: true, MarkdownDescription: desc}
	}
	f64 := func(desc string) schema.Float64Attribute {
		return schema.Float64Attribute{Computed: true, MarkdownDescription: desc}
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Performance of one cloud block volume, from its type, size and provisioned settings: the " +
			"Azure tier its size rounds up to and what is billed, baseline and burst IOPS and throughput, the rate a " +
			"workload reaches for its I/O size, pattern and queue depth, and what binds it (the volume, the tier, the " +
			"node's disk limits shared by `volumes_per_node` volumes, or the queue depth). With `required_iops` or " +
			"`required_throughput_mbps` it also recommends the smallest size or tier of the type that sustains the " +
			"requirement (burst never counts), and fails the plan when no size of the type can, or the instance " +
			"cannot even while it bursts.\n\n" +
			"Covers AWS EBS (" + markdownList(disk.TypesOf(catalog.AWS)) + "), Azure managed disks (" +
			markdownList(disk.TypesOf(catalog.Azure)) + ") and GCP (" + markdownList(disk.TypesOf(catalog.GCP)) +
			"). Every figure names its formula and data row in `source`. The data source is read during `terraform " +
			"plan` when its inputs are known; if an input is unknown until apply, Terraform defers the read.",
		Attributes: map[string]schema.Attribute{
			"cloud": cloudAttribute(true, ""),
			"type": schema.StringAttribute{Required: true,
				MarkdownDescription: "Disk type as the cloud spells it (case-sensitive): an EBS volume type (`gp3`), an " +
					"Azure SKU name (`Premium_LRS`) or a GCP disk type (`pd-balanced`). Valid: " + markdownList(disk.Types) + "."},
			"size_gib": schema.Int64Attribute{Required: true,
				MarkdownDescription: "Volume size in GiB. Azure Premium SSD, Standard SSD and Standard HDD round it up to " +
					"the next tier (300 GiB is a P20 of 512 GiB). It is also the capacity the recommendation must hold.",
				Validators: []validator.Int64{int64validator.AtLeast(1)}},
			"iops": schema.Int64Attribute{Optional: true,
				MarkdownDescription: "Provisioned IOPS, for types that provision it: gp3 (default 3,000), io1 and io2 " +
					"(required), PremiumV2_LRS (default 3,000), UltraSSD_LRS (default: the CSI driver's fill-in), " +
					"pd-extreme (required), hyperdisk-balanced (default 3,000). Other types reject it.",
				Validators: []validator.Int64{int64validator.AtLeast(1)}},
			"throughput_mbps": schema.Int64Attribute{Optional: true,
				MarkdownDescription: "Provisioned throughput, for gp3 (default 125 MiB/s), PremiumV2_LRS (default 125 " +
					"MB/s), UltraSSD_LRS and hyperdisk-balanced (default 140 MiB/s)." + diskUnitDoc,
				Validators: []validator.Int64{int64validator.AtLeast(1)}},
			"enable_bursting": schema.BoolAttribute{Optional: true,
				MarkdownDescription: "Azure on-demand bursting (CSI `enableBursting`), for Premium SSD larger than 512 GiB: " +
					"30,000 IOPS and 1,000 MB/s with no time limit, billed per use. Default false."},
			"performance_plus": schema.BoolAttribute{Optional: true,
				MarkdownDescription: "Azure performance plus (CSI `enablePerformancePlus`), for Premium SSD, Standard SSD " +
					"and Standard HDD of 513 GiB or more. Default false."},
			"instance_type": schema.StringAttribute{Optional: true,
				MarkdownDescription: "Instance type or VM size the volume is attached to. Its disk limits (AWS " +
					"EBS-optimized baseline and maximum; Azure uncached limits, VM-level burst and maximum data disks) " +
					"cap the volume. kubefit has no per-VM disk limits for GCP and says so."},
			"volumes_per_node": schema.Int64Attribute{Optional: true,
				MarkdownDescription: "Volumes like this one attached to the same node, this one included. They share the " +
					"node's limits equally. Default 1.",
				Validators: []validator.Int64{int64validator.Between(1, disk.MaxVolumesPerNode)}},
			"io": schema.SingleNestedAttribute{Optional: true, Attributes: diskIOAttributes(),
				MarkdownDescription: "The workload's access profile. Default: 16 KiB random I/O, queue depth unknown."},
			"required_iops": schema.Int64Attribute{Optional: true,
				MarkdownDescription: "Application operations per second the workload needs, sustained.",
				Validators:          []validator.Int64{int64validator.Between(0, disk.MaxRequiredIOPS)}},
			"required_throughput_mbps": schema.Float64Attribute{Optional: true,
				MarkdownDescription: "Useful throughput the workload needs, sustained." + diskUnitDoc,
				Validators:          []validator.Float64{float64validator.AtLeast(0)}},
			"fail_on_unmet": schema.BoolAttribute{Optional: true,
				MarkdownDescription: "Whether an unmet requirement fails the plan (default true). When false, it is a " +
					"warning and the figures are still reported. Invalid inputs always fail."},

			"throughput_unit":          str("Unit of every volume throughput figure: `MiB/s` (AWS, GCP) or `MB/s` (Azure)."),
			"tier":                     str("Azure fixed tier the size rounds up to (`P15`, `E30`, `S4`); null for other types."),
			"billed_size_gib":          i64("Size that is billed: the tier size for Azure fixed tiers, otherwise `size_gib`."),
			"baseline_iops":            i64("Sustained IOPS of the volume (counted I/Os: up to 256 KiB each, 1 MiB on st1/sc1)."),
			"baseline_throughput_mbps": f64("Sustained throughput of the volume." + diskUnitDoc),
			"burst_iops":               i64("IOPS while a burst lasts (gp2 and Azure credit bursting, Azure on-demand bursting when enabled); equals `baseline_iops` without burst."),
			"burst_throughput_mbps":    f64("Throughput while a burst lasts; equals `baseline_throughput_mbps` without burst." + diskUnitDoc),
			"burst_duration_minutes": f64("Minutes a full credit bucket lasts at the burst rate (gp2: 5.4 million I/O " +
				"credits / (3,000 − baseline); st1/sc1: the throughput bucket; Azure credit bursting: 30); `-1` when the " +
				"burst has no time limit (Azure on-demand bursting, EBS magnetic best effort); `0` without burst."),
			"effective_iops": f64("Application operations per second the workload reaches, sustained: the minimum of the " +
				"volume's IOPS and throughput for the block size and pattern, the node's share, and `queue_depth / latency`."),
			"effective_throughput_mbps": f64("`effective_iops` × block size." + diskUnitDoc),
			"limited_by": str("What binds `effective_iops`: one of " + markdownList(disk.Limits) + " (`tier` for an " +
				"Azure fixed tier, `volume` for size-scaled or provisioned volumes)."),
			"instance": schema.SingleNestedAttribute{Computed: true,
				MarkdownDescription: "Disk limits of `instance_type` before sharing, in MB/s as AWS and Azure publish " +
					"instance limits; null without an instance type or when kubefit has none for it.",
				Attributes: map[string]schema.Attribute{
					"name":                     str("Instance type or VM size as the data spells it."),
					"baseline_iops":            i64("Sustained IOPS of the node (AWS: at 16 KiB I/O)."),
					"baseline_throughput_mbps": f64("Sustained throughput of the node, MB/s."),
					"burst_iops":               i64("IOPS while the node bursts (AWS: 30 minutes per 24 hours; Azure: VM-level credits)."),
					"burst_throughput_mbps":    f64("Throughput while the node bursts, MB/s."),
					"burst_duration_minutes":   f64("Minutes the node's burst lasts; 0 without burst."),
					"max_data_disks":           i64("Most data disks the VM attaches (Azure); null when unknown."),
				}},
			"verdict": str("With a requirement: `pass` (sustained fit of the given volume and node), `warn` (burst-only " +
				"fit, or an assumption such as the queue depth was needed) or `fail` (the given volume or node does not " +
				"meet it; see `recommended`). Null without a requirement."),
			"recommended": schema.SingleNestedAttribute{Computed: true,
				MarkdownDescription: "With a requirement: the smallest configuration of `type` that holds `size_gib` and " +
					"sustains it on its baseline (burst does not count). Null without a requirement or when no size can.",
				Attributes: map[string]schema.Attribute{
					"type":            str("The disk type (same as `type`)."),
					"size_gib":        i64("Size to request; for Azure fixed tiers the full tier size, since any smaller size is billed as the tier."),
					"tier":            str("Azure fixed tier; null for other types."),
					"billed_size_gib": i64("Size that is billed."),
					"iops":            i64("IOPS to provision (provisioned types); null otherwise."),
					"throughput_mbps": i64("Throughput to provision (provisioned types); null otherwise." + diskUnitDoc),
					"enable_bursting": schema.BoolAttribute{Computed: true, MarkdownDescription: "Whether Azure on-demand bursting is needed (only when no Premium tier's baseline suffices)."},
					"reason":          str("Why this is the smallest, and what it costs in provisioned GiB."),
				}},
			"explanation": str("The effective rate and the limit that binds it, in words."),
			"source":      str("Formulas and data rows every figure comes from (the cloud documentation and the data tables behind each figure)."),
		},
	}
}

// diskTierKnown reports whether every input is known.
func diskTierKnown(m diskTierModel) bool {
	for _, v := range []attr.Value{m.Cloud, m.Type, m.SizeGiB, m.IOPS, m.ThroughputMBps, m.EnableBursting,
		m.PerformancePlus, m.InstanceType, m.VolumesPerNode, m.IO, m.RequiredIOPS, m.RequiredThroughputMBps, m.FailOnUnmet} {
		if !fullyKnown(v) {
			return false
		}
	}
	return true
}

// diskTierRenames maps disk.Query's field names to this data source's attributes.
var diskTierRenames = renames{
	"Spec":                    "",
	"Throughput":              "throughput_mbps",
	"Bursting":                "enable_bursting",
	"Node":                    "instance_type",
	"Access":                  "io",
	"BlockSize":               "block_size_kib",
	"Latency":                 "latency_ms",
	"Requirement":             "",
	"Requirement.IOPS":        "required_iops",
	"Requirement.BytesPerSec": "required_throughput_mbps",
}

// addDiskError reports an error of the disk planner: input errors at the attributes attribute maps
// their paths to, a finding (a rule outcome such as FIT-N0) as addDiskFinding does.
func addDiskError(diags *diag.Diagnostics, err error, attribute func(field.Path) path.Path) {
	var f *disk.Finding
	if errors.As(err, &f) {
		addDiskFinding(diags, f, attribute(f.Path), true)
		return
	}
	addPlannerErrorsAt(diags, err, attribute, "Invalid Disk Configuration")
}

// addDiskFinding reports a rule outcome at the attribute p (none when p is empty). Findings marked
// Unmet become warnings when failOnUnmet is false.
func addDiskFinding(diags *diag.Diagnostics, f *disk.Finding, p path.Path, failOnUnmet bool) {
	summary, isErr := "Disk Performance Warning", f.Severity == disk.SeverityError
	switch {
	case isErr && f.Unmet && !failOnUnmet:
		summary, isErr = "Disk Requirement Not Met (fail_on_unmet = false)", false
	case isErr && f.Unmet:
		summary = "Disk Requirement Not Met"
	case isErr:
		summary = "Invalid Disk Configuration"
	}
	if f.Rule != "" {
		summary += " (" + f.Rule + ")" // distinct findings must not fold under one summary
	}
	hasPath := len(p.Steps()) > 0
	switch {
	case hasPath && isErr:
		diags.AddAttributeError(p, summary, f.Error())
	case hasPath:
		diags.AddAttributeWarning(p, summary, f.Error())
	case isErr:
		diags.AddError(summary, f.Error())
	default:
		diags.AddWarning(summary, f.Error())
	}
}

// diskTierAttribute maps a disk.Query path to this data source's attribute.
func diskTierAttribute(p field.Path) path.Path {
	return attributePath(path.Empty(), p, diskTierRenames)
}

// diskAccess converts an `io` object into the planner's access profile.
func diskAccess(ctx context.Context, o types.Object, diags *diag.Diagnostics) disk.Access {
	var a disk.Access
	if o.IsNull() || o.IsUnknown() {
		return a
	}
	var io diskIOModel
	diags.Append(o.As(ctx, &io, basetypes.ObjectAsOptions{})...)
	if !io.BlockSizeKiB.IsNull() {
		a.BlockSize = io.BlockSizeKiB.ValueInt64() * 1024
	}
	a.Pattern = disk.Pattern(io.Pattern.ValueString())
	a.QueueDepth = io.QueueDepth.ValueInt64()
	if !io.LatencyMs.IsNull() {
		lat, ok := disk.Latency(io.LatencyMs.ValueFloat64())
		if !ok {
			diags.AddAttributeError(path.Root("io").AtName("latency_ms"), "Invalid Latency",
				fmt.Sprintf("latency_ms must be above 0 and at most 60,000, got %v", io.LatencyMs.ValueFloat64()))
		}
		a.Latency = lat
	}
	return a
}

// diskRequirement converts required_iops / required_throughput_mbps in the type's unit.
func diskRequirement(t disk.Type, iops types.Int64, tp types.Float64, tpPath path.Path, diags *diag.Diagnostics) disk.Requirement {
	req := disk.Requirement{IOPS: iops.ValueInt64()}
	if !tp.IsNull() {
		b, ok := t.ThroughputUnit().Rate(tp.ValueFloat64())
		if !ok {
			diags.AddAttributeError(tpPath, "Invalid Throughput", fmt.Sprintf("required throughput must be 0 to 10 TB/s, got %v %s",
				tp.ValueFloat64(), t.ThroughputUnit().Name))
		}
		req.BytesPerSec = b
	}
	return req
}

// diskNodeLimits looks up the instance type and its disk limits. ok is false after an error; limits is
// nil (with a warning) when kubefit has no disk limits for the type.
func diskNodeLimits(ctx context.Context, cat sizing.Catalog, cloud catalog.Cloud, name types.String, diags *diag.Diagnostics) (*disk.NodeLimits, bool) {
	if name.IsNull() {
		return nil, true
	}
	it, ok := lookupInstance(ctx, cat, path.Root("instance_type"), cloud, name.ValueString(), diags)
	if !ok {
		return nil, false
	}
	n, err := disk.NodeLimitsFor(it)
	if err != nil {
		addDiskError(diags, err, diskTierAttribute)
		var f *disk.Finding
		return nil, errors.As(err, &f) && f.Severity == disk.SeverityWarning
	}
	return &n, true
}

// diskTierQuery builds the planner query from a fully known configuration.
func diskTierQuery(ctx context.Context, cat sizing.Catalog, m diskTierModel, diags *diag.Diagnostics) (disk.Query, bool) {
	cloud, ok := parseCloud(path.Root("cloud"), m.Cloud, diags)
	if !ok {
		return disk.Query{}, false
	}
	t, err := disk.ParseType(cloud, m.Type.ValueString())
	if err != nil {
		diags.AddAttributeError(path.Root("type"), "Invalid Disk Type", err.Error())
		return disk.Query{}, false
	}
	node, ok := diskNodeLimits(ctx, cat, cloud, m.InstanceType, diags)
	if !ok {
		return disk.Query{}, false
	}
	q := disk.Query{
		Spec: disk.Spec{Type: t, SizeGiB: m.SizeGiB.ValueInt64(), IOPS: m.IOPS.ValueInt64(),
			Throughput: m.ThroughputMBps.ValueInt64(), Bursting: m.EnableBursting.ValueBool(),
			PerformancePlus: m.PerformancePlus.ValueBool()},
		Node: node, VolumesPerNode: m.VolumesPerNode.ValueInt64(),
		Access:      diskAccess(ctx, m.IO, diags),
		Requirement: diskRequirement(t, m.RequiredIOPS, m.RequiredThroughputMBps, path.Root("required_throughput_mbps"), diags),
	}
	return q, !diags.HasError()
}

func (d *diskTierDataSource) ValidateConfig(ctx context.Context, req datasource.ValidateConfigRequest, resp *datasource.ValidateConfigResponse) {
	var m diskTierModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	// The disk itself (cloud, type, size, provisioned values) does not depend on the node, the access
	// pattern or the requirement: while those are unknown, the disk is checked without them.
	pending := map[string]bool{}
	if !diskTierKnown(m) {
		if !fullyKnown(m.InstanceType) {
			m.InstanceType, pending["instance_type"] = types.StringNull(), true
		}
		if !fullyKnown(m.VolumesPerNode) {
			m.VolumesPerNode, pending["volumes_per_node"] = types.Int64Null(), true
		}
		if !fullyKnown(m.IO) {
			m.IO, pending["io"] = types.ObjectNull(m.IO.AttributeTypes(ctx)), true
		}
		if !fullyKnown(m.RequiredIOPS) {
			m.RequiredIOPS, pending["required_iops"] = types.Int64Null(), true
		}
		if !fullyKnown(m.RequiredThroughputMBps) {
			m.RequiredThroughputMBps, pending["required_throughput_mbps"] = types.Float64Null(), true
		}
		if !fullyKnown(m.FailOnUnmet) {
			m.FailOnUnmet, pending["fail_on_unmet"] = types.BoolNull(), true
		}
		if !diskTierKnown(m) {
			return
		}
	}
	// Only errors are reported here: invalid inputs (an unknown type or instance, out-of-range provisioned
	// values or sizes). Warnings and fit findings are reported once, by Read.
	var scratch diag.Diagnostics
	q, ok := diskTierQuery(ctx, d.catalog(), m, &scratch)
	if ok {
		if _, err := disk.Evaluate(q); err != nil {
			addDiskError(&scratch, err, diskTierAttribute)
		}
	}
	resp.Diagnostics.Append(withoutPending(scratch.Errors(), topLevelIn(pending))...)
}

func (d *diskTierDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m diskTierModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	q, ok := diskTierQuery(ctx, d.catalog(), m, &resp.Diagnostics)
	if !ok {
		return
	}
	r, err := disk.Evaluate(q)
	if err != nil {
		addDiskError(&resp.Diagnostics, err, diskTierAttribute)
		return
	}
	failOnUnmet := m.FailOnUnmet.IsNull() || m.FailOnUnmet.ValueBool()
	for i := range r.Findings {
		f := &r.Findings[i]
		addDiskFinding(&resp.Diagnostics, f, diskTierAttribute(f.Path), failOnUnmet)
	}
	setDiskTierResult(&m, r, !q.Requirement.IsZero())
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// diskRate converts bytes per second into a unit for an attribute.
func diskRate(bytesPerSec float64, u disk.Unit) types.Float64 {
	return types.Float64Value(u.Of(bytesPerSec))
}

// burstMinutes encodes a burst duration: -1 for no time limit, 0 for none.
func burstMinutes(v disk.Volume) types.Float64 {
	switch {
	case v.BurstUnlimited:
		return types.Float64Value(-1)
	case v.BurstDuration > 0:
		return types.Float64Value(v.BurstDuration.Minutes())
	}
	return types.Float64Value(0)
}

func optString(s string) types.String {
	if s == "" {
		return types.StringNull()
	}
	return types.StringValue(s)
}

func optInt(v int64) types.Int64 {
	if v == 0 {
		return types.Int64Null()
	}
	return types.Int64Value(v)
}

// setDiskTierResult copies a planner result into the computed attributes.
func setDiskTierResult(m *diskTierModel, r disk.Result, hasRequirement bool) {
	v := r.Volume
	u := v.ThroughputUnit()
	m.ThroughputUnit = types.StringValue(u.Name)
	m.Tier = optString(v.Tier)
	m.BilledSizeGiB = types.Int64Value(v.BilledSizeGiB)
	m.BaselineIOPS = types.Int64Value(v.BaseIOPS)
	m.BaselineThroughputMBps = diskRate(float64(v.BaseBytesPerSec), u)
	m.BurstIOPS = types.Int64Value(v.BurstIOPS)
	m.BurstThroughputMBps = diskRate(float64(v.BurstBytesPerSec), u)
	m.BurstDurationMinutes = burstMinutes(v)
	m.EffectiveIOPS = types.Float64Value(r.Effective.OpsPerSec)
	m.EffectiveThroughputMBps = diskRate(r.Effective.BytesPerSec, u)
	m.LimitedBy = types.StringValue(string(r.Effective.LimitedBy))
	m.Explanation = types.StringValue(r.Effective.Detail)
	m.Source = types.StringValue(r.Source)
	m.Instance = types.ObjectNull(diskInstanceAttrTypes)
	if n := r.Node; n != nil {
		nu := n.ThroughputUnit()
		m.Instance = types.ObjectValueMust(diskInstanceAttrTypes, map[string]attr.Value{
			"name": types.StringValue(n.Name), "baseline_iops": types.Int64Value(n.BaseIOPS),
			"baseline_throughput_mbps": diskRate(float64(n.BaseBytesPerSec), nu),
			"burst_iops":               types.Int64Value(n.BurstIOPS),
			"burst_throughput_mbps":    diskRate(float64(n.BurstBytesPerSec), nu),
			"burst_duration_minutes":   types.Float64Value(n.BurstDuration.Minutes()),
			"max_data_disks":           optInt(n.MaxDataDisks),
		})
	}
	m.Verdict = types.StringNull()
	if hasRequirement {
		m.Verdict = types.StringValue(string(r.Verdict))
	}
	m.Recommended = types.ObjectNull(diskRecommendedAttrTypes)
	if rec := r.Recommendation; rec != nil {
		m.Recommended = types.ObjectValueMust(diskRecommendedAttrTypes, map[string]attr.Value{
			"type": types.StringValue(string(rec.Spec.Type)), "size_gib": types.Int64Value(rec.Spec.SizeGiB),
			"tier": optString(rec.Tier), "billed_size_gib": types.Int64Value(rec.BilledSizeGiB),
			"iops": optInt(rec.Spec.IOPS), "throughput_mbps": optInt(rec.Spec.Throughput),
			"enable_bursting": types.BoolValue(rec.Spec.Bursting), "reason": types.StringValue(rec.Reason),
		})
	}
}
