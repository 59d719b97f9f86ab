package provider

import (
	"context"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-validators/float64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/objectvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/disk"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
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

// diskShapeModel is the `iops_io` / `throughput_io` block: the I/O shape of one requirement.
type diskShapeModel struct {
	BlockSizeKiB types.Int64  `tfsdk:"block_size_kib"`
	Pattern      types.String `tfsdk:"pattern"`
}

// diskRequirementModel holds the requirement attributes kubefit_disk_tier and kubefit_storage_class share.
type diskRequirementModel struct {
	IOPS         types.Int64
	Throughput   types.Float64
	IOPSIO       types.Object
	ThroughputIO types.Object
	Concurrent   types.Bool
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
	CachingMode            types.String  `tfsdk:"caching_mode"`
	IO                     types.Object  `tfsdk:"io"`
	RequiredIOPS           types.Int64   `tfsdk:"required_iops"`
	RequiredThroughputMBps types.Float64 `tfsdk:"required_throughput_mbps"`
	IOPSIO                 types.Object  `tfsdk:"iops_io"`
	ThroughputIO           types.Object  `tfsdk:"throughput_io"`
	ConcurrentRequirements types.Bool    `tfsdk:"concurrent_requirements"`
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
	Demand                  types.Object  `tfsdk:"demand"`
	SustainingInstanceTypes types.List    `tfsdk:"sustaining_instance_types"`
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

// diskShapeAttributes is the schema of an `iops_io` / `throughput_io` block: the I/O shape of the
// requirement `what` ("IOPS" or "throughput"), whose defaults are def.
func diskShapeAttributes(what string, def disk.IOShape) map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"block_size_kib": schema.Int64Attribute{Optional: true,
			MarkdownDescription: fmt.Sprintf("Bytes per operation of the %s requirement, in KiB. Default: `io.block_size_kib` "+
				"when set, else %d (disks.md §7.9).", what, def.BlockSize/1024),
			Validators: []validator.Int64{int64validator.Between(1, disk.MaxBlockSize/1024)}},
		"pattern": schema.StringAttribute{Optional: true,
			MarkdownDescription: fmt.Sprintf("Access pattern of the %s requirement: one of %s. Default: `io.pattern` when "+
				"set, else `%s`.", what, markdownList(disk.Patterns), def.Pattern),
			Validators: []validator.String{stringvalidator.OneOf(stringsOf(disk.Patterns)...)}},
	}
}

// diskShapeDoc describes the `iops_io` and `throughput_io` blocks.
var diskShapeDoc = map[string]string{
	"iops_io": "The I/O shape of `required_iops`: what one of its operations is. Each requirement has its own shape, " +
		"so a database's small random reads and its large sequential scans are each sized as what they are. When " +
		"neither this block nor `io` gives a field, an IOPS requirement is " + fmtShape(disk.DefaultIOPSShape) +
		" I/O (the size AWS quotes IOPS at; any I/O up to 256 KiB counts as one on EBS SSD volumes and Azure disks, so " +
		"the size only sets the bytes the operations move). `demand.iops` says which shape was used.",
	"throughput_io": "The I/O shape of `required_throughput_mbps`. When neither this block nor `io` gives a field, a " +
		"throughput requirement is " + fmtShape(disk.DefaultThroughputShape) + " I/O: the largest I/O EBS SSD " +
		"volumes and Azure disks count as one (disks.md §2.8, §4.8), so the throughput costs the fewest IOPS. " +
		"`demand.throughput` says which shape was used.",
}

func fmtShape(s disk.IOShape) string { return fmt.Sprintf("%d KiB %s", s.BlockSize/1024, s.Pattern) }

var diskIOAttrTypes = map[string]attr.Type{
	"block_size_kib": types.Int64Type, "pattern": types.StringType, "queue_depth": types.Int64Type,
	"latency_ms": types.Float64Type,
}

var diskShapeAttrTypes = map[string]attr.Type{"block_size_kib": types.Int64Type, "pattern": types.StringType}

var diskInstanceAttrTypes = map[string]attr.Type{
	"name": types.StringType, "baseline_iops": types.Int64Type, "baseline_throughput_mbps": types.Float64Type,
	"burst_iops": types.Int64Type, "burst_throughput_mbps": types.Float64Type,
	"burst_duration_minutes": types.Float64Type, "max_data_disks": types.Int64Type,
	"cached_iops": types.Int64Type, "cached_throughput_mbps": types.Float64Type,
}

var diskRequirementDemandAttrTypes = map[string]attr.Type{
	"operations_per_sec": types.Float64Type, "block_size_kib": types.Int64Type, "block_size_from": types.StringType,
	"pattern": types.StringType, "pattern_from": types.StringType, "counted_iops": types.Int64Type,
	"throughput_mbps": types.Float64Type,
}

var diskDemandAttrTypes = map[string]attr.Type{
	"iops":         types.ObjectType{AttrTypes: diskRequirementDemandAttrTypes},
	"throughput":   types.ObjectType{AttrTypes: diskRequirementDemandAttrTypes},
	"counted_iops": types.Int64Type, "throughput_mbps": types.Float64Type, "concurrent": types.BoolType,
	"explanation": types.StringType,
}

// diskOutputSchema holds the computed attributes kubefit_disk_tier and kubefit_storage_class's
// `performance` share: demand, instance and sustaining_instance_types, as data source attributes.
func diskOutputSchema(nodeAttr string) map[string]schema.Attribute {
	str := func(desc string) schema.StringAttribute {
		return schema.StringAttribute{Computed: true, MarkdownDescription: desc}
	}
	i64 := func(desc string) schema.Int64Attribute {
		return schema.Int64Attribute{Computed: true, MarkdownDescription: desc}
	}
	f64 := func(desc string) schema.Float64Attribute {
		return schema.Float64Attribute{Computed: true, MarkdownDescription: desc}
	}
	requirement := func(what, block string) schema.SingleNestedAttribute {
		return schema.SingleNestedAttribute{Computed: true,
			MarkdownDescription: fmt.Sprintf("The %s requirement at its I/O shape; null without it.", what),
			Attributes: map[string]schema.Attribute{
				"operations_per_sec": f64("Application operations per second of the requirement (for throughput: " +
					"`required_throughput_mbps` / block size)."),
				"block_size_kib": i64("Bytes per operation, in KiB."),
				"block_size_from": str(fmt.Sprintf("Where the block size came from: `%s`, `io` or `default` "+
					"(disks.md §7.9).", block)),
				"pattern":      str("Access pattern: `random` or `sequential`."),
				"pattern_from": str(fmt.Sprintf("Where the pattern came from: `%s`, `io` or `default`.", block)),
				"counted_iops": i64("I/Os per second the volume and node count: operations × ⌈block size / 256 KiB⌉ " +
					"(1 MiB on st1/sc1, where sequential I/O is merged), rounded up."),
				"throughput_mbps": f64("Throughput charged against the limits: operations × block size (a random I/O " +
					"on st1/sc1 costs 1 MiB)." + diskUnitDoc),
			}}
	}
	return map[string]schema.Attribute{
		"demand": schema.SingleNestedAttribute{Computed: true,
			MarkdownDescription: "With a requirement: what the volume and node must sustain, each requirement at its own " +
				"I/O shape (`iops_io`, `throughput_io`, else `io`, else the defaults) and how the two combine. Null " +
				"without a requirement.",
			Attributes: map[string]schema.Attribute{
				"iops":       requirement("IOPS", "iops_io"),
				"throughput": requirement("throughput", "throughput_io"),
				"counted_iops": i64("Counted IOPS the volume and node must sustain: the larger of the two " +
					"requirements', or their sum with `concurrent_requirements`."),
				"throughput_mbps": f64("Throughput the volume and node must sustain: the larger of the two " +
					"requirements', or their sum with `concurrent_requirements`." + diskUnitDoc),
				"concurrent": schema.BoolAttribute{Computed: true, MarkdownDescription: "Whether the two requirements were added up."},
				"explanation": str("The demand in words: each requirement's shape, where the shape came from " +
					"(with the default's rule), and how the two combine."),
			}},
		"instance": schema.SingleNestedAttribute{Computed: true,
			MarkdownDescription: fmt.Sprintf("Disk limits of `%s` before sharing, in MB/s as AWS and Azure publish "+
				"instance limits; null without an instance type or when kubefit has none for it.", nodeAttr),
			Attributes: map[string]schema.Attribute{
				"name":                     str("Instance type or VM size as the data spells it."),
				"baseline_iops":            i64("Sustained IOPS of the node (AWS: at 16 KiB I/O; Azure: uncached)."),
				"baseline_throughput_mbps": f64("Sustained throughput of the node, MB/s (Azure: uncached)."),
				"burst_iops":               i64("IOPS while the node bursts (AWS: 30 minutes per 24 hours; Azure: VM-level credits)."),
				"burst_throughput_mbps":    f64("Throughput while the node bursts, MB/s."),
				"burst_duration_minutes":   f64("Minutes the node's burst lasts; 0 without burst."),
				"max_data_disks":           i64("Most data disks the VM attaches (Azure); null when unknown."),
				"cached_iops": i64("Azure cached (host cache) IOPS limit, which a disk with host caching `ReadOnly` " +
					"or `ReadWrite` also counts against (disks.md §5.5); null where the size publishes none (Dsv5, " +
					"Esv5, Dasv5, Dsv6, Bsv2, Fsv2, Bv1) or on AWS."),
				"cached_throughput_mbps": f64("Azure cached throughput limit, MB/s; null where the size publishes none."),
			}},
		"sustaining_instance_types": schema.ListAttribute{Computed: true, ElementType: types.StringType,
			MarkdownDescription: fmt.Sprintf("With `%s` and a requirement: the instance types or VM sizes of its "+
				"family (the catalog's `family`, for example `standardDSv5Family` or `m5`) whose baseline disk limits "+
				"sustain the demand for `volumes_per_node` volumes (Azure: uncached, and cached too for a cached disk; no "+
				"burst), smallest first (disks.md §7.10). Empty when none does; null without an instance type, a "+
				"requirement, or per-node limits (GCP).", nodeAttr)},
	}
}

var diskRecommendedAttrTypes = map[string]attr.Type{
	"type": types.StringType, "size_gib": types.Int64Type, "tier": types.StringType,
	"billed_size_gib": types.Int64Type, "iops": types.Int64Type, "throughput_mbps": types.Int64Type,
	"enable_bursting": types.BoolType, "reason": types.StringType,
}

func (d *diskTierDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	defer cacheDataSourceTypes(&resp.Schema)
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
			"cannot even while it bursts. IOPS and throughput are separate requirements, each with its own I/O " +
			"shape (`iops_io`, `throughput_io`; by default small random I/O for IOPS and 256 KiB sequential I/O for " +
			"throughput, reported in `demand`), so 5,000 IOPS and 200 MB/s on `Premium_LRS` is a P30, not the P60 " +
			"of 200 MB/s counted as 16 KiB operations. With `instance_type` it names the sizes of the node's family " +
			"that sustain the demand (`sustaining_instance_types`); with `caching_mode` a cached Azure disk is also " +
			"capped by the VM's cached limits.\n\n" +
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
					"(required), PremiumV2_LRS (default 3,000), UltraSSD_LRS (default: the CSI driver's fill-in, a fixed 500 when only the throughput is set), " +
					"pd-extreme (required), hyperdisk-balanced (default 3,000). Other types reject it.",
				Validators: []validator.Int64{int64validator.AtLeast(1)}},
			"throughput_mbps": schema.Int64Attribute{Optional: true,
				MarkdownDescription: "Provisioned throughput, for gp3 (default 125 MiB/s), PremiumV2_LRS (default 125 " +
					"MB/s), UltraSSD_LRS (default: the CSI driver's fill-in, a fixed 100 MB/s when only the IOPS are set) and hyperdisk-balanced (default 140 MiB/s)." + diskUnitDoc,
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
					"cap the volume. kubefit has no per-VM disk limits for GCP and says so. On GCP the `type` is checked against the " +
					"disk types the machine series attaches (disks.md §6.1): `GPD-M1` refuses, on `type`, a Persistent Disk type on a series that attaches only " +
					"Hyperdisk (N4, C4, C4A, C4D, …), `hyperdisk-balanced` on one without it (E2, N1, N2, N2D, …) and a type below " +
					"the series' vCPU threshold, naming the types the machine type attaches; a series kubefit has no source for " +
					"warns (`GPD-M2`)."},
			"volumes_per_node": schema.Int64Attribute{Optional: true,
				MarkdownDescription: "Volumes like this one attached to the same node, this one included. They share the " +
					"node's limits equally. Default 1.",
				Validators: []validator.Int64{int64validator.Between(1, disk.MaxVolumesPerNode)}},
			"caching_mode": schema.StringAttribute{Optional: true,
				MarkdownDescription: "Azure host caching of the disk (CSI `cachingMode`): one of " + markdownList(disk.CachingModes) +
					". Default `None`. A cached disk's traffic counts against the VM's cached limits as well as its uncached " +
					"ones, with no read hits assumed (disks.md §5.5), so caching never raises a planned figure; sizes that " +
					"publish no cached limits are planned uncached. Disks of 4,096 GiB or more are planned uncached " +
					"(`AZC-5`); Premium SSD v2 and Ultra take only `None` (`AZD-V3`).",
				Validators: []validator.String{stringvalidator.OneOf(stringsOf(disk.CachingModes)...)}},
			"io": schema.SingleNestedAttribute{Optional: true, Attributes: diskIOAttributes(),
				MarkdownDescription: "The workload's access profile, for `effective_iops` and the queue-depth check. Default: " +
					"16 KiB random I/O, queue depth unknown. A `block_size_kib` or `pattern` given here is also the shape of " +
					"each requirement whose `iops_io` / `throughput_io` does not give it."},
			"required_iops": schema.Int64Attribute{Optional: true,
				MarkdownDescription: "Application operations per second the workload needs, sustained, each of the shape " +
					"`iops_io` gives (default " + fmtShape(disk.DefaultIOPSShape) + "). A separate requirement from " +
					"`required_throughput_mbps` (see `concurrent_requirements`).",
				Validators: []validator.Int64{int64validator.Between(0, disk.MaxRequiredIOPS)}},
			"required_throughput_mbps": schema.Float64Attribute{Optional: true,
				MarkdownDescription: "Useful throughput the workload needs, sustained, in operations of the shape " +
					"`throughput_io` gives (default " + fmtShape(disk.DefaultThroughputShape) + ")." + diskUnitDoc,
				Validators: []validator.Float64{float64validator.AtLeast(0)}},
			"iops_io": schema.SingleNestedAttribute{Optional: true, Attributes: diskShapeAttributes("IOPS", disk.DefaultIOPSShape),
				MarkdownDescription: diskShapeDoc["iops_io"],
				Validators:          []validator.Object{objectvalidator.AlsoRequires(path.MatchRoot("required_iops"))}},
			"throughput_io": schema.SingleNestedAttribute{Optional: true,
				Attributes:          diskShapeAttributes("throughput", disk.DefaultThroughputShape),
				MarkdownDescription: diskShapeDoc["throughput_io"],
				Validators:          []validator.Object{objectvalidator.AlsoRequires(path.MatchRoot("required_throughput_mbps"))}},
			"concurrent_requirements": schema.BoolAttribute{Optional: true,
				MarkdownDescription: "Whether `required_iops` and `required_throughput_mbps` must be met at the same time, so " +
					"their counted IOPS and bytes add up. Default false: each is met on its own (a database's random " +
					"reads and its sequential scans sized for their own peaks), and the volume and node must sustain the " +
					"larger of the two in each limit (disks.md §7.9)."},
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
			"explanation": str("The effective rate of the `io` profile and the limit that binds it, in words."),
			"source":      str("Formulas and data rows every figure comes from (the cloud documentation and the data tables behind each figure)."),
		},
	}
	for k, a := range diskOutputSchema("instance_type") {
		resp.Schema.Attributes[k] = a
	}
}

// diskTierKnown reports whether every input is known.
func diskTierKnown(m diskTierModel) bool {
	for _, v := range []attr.Value{m.Cloud, m.Type, m.SizeGiB, m.IOPS, m.ThroughputMBps, m.EnableBursting,
		m.PerformancePlus, m.InstanceType, m.VolumesPerNode, m.CachingMode, m.IO, m.RequiredIOPS, m.RequiredThroughputMBps,
		m.IOPSIO, m.ThroughputIO, m.ConcurrentRequirements, m.FailOnUnmet} {
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
	"IOPSShape":               "iops_io",
	"ThroughputShape":         "throughput_io",
	"Caching":                 "caching_mode",
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
	switch {
	case f.Rule != "" && !isErr:
		summary = ruleWarningTitle(f.Rule, summary) // a warning names its finding, so distinct ones never fold
	case f.Rule != "":
		summary += " (" + f.Rule + ")"
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

func (d *diskTierDataSource) ValidateConfig(ctx context.Context, req datasource.ValidateConfigRequest, resp *datasource.ValidateConfigResponse) {
	var m diskTierModel
	resp.Diagnostics.Append(configGet(ctx, req.Config, &m)...)
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
		if !fullyKnown(m.IOPSIO) {
			m.IOPSIO, pending["iops_io"] = types.ObjectNull(diskShapeAttrTypes), true
		}
		if !fullyKnown(m.ThroughputIO) {
			m.ThroughputIO, pending["throughput_io"] = types.ObjectNull(diskShapeAttrTypes), true
		}
		if !fullyKnown(m.ConcurrentRequirements) {
			m.ConcurrentRequirements, pending["concurrent_requirements"] = types.BoolNull(), true
		}
		if !fullyKnown(m.CachingMode) {
			m.CachingMode, pending["caching_mode"] = types.StringNull(), true
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
	resp.Diagnostics.Append(configGet(ctx, req.Config, &m)...)
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
	for _, f := range findingsByConsequence(r.Findings) {
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
	m.Instance = diskInstance(r.Node)
	m.Demand = diskDemand(r)
	m.SustainingInstanceTypes = diskSustaining(r)
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

// diskInstance flattens a node's disk limits; null without a node.
func diskInstance(n *disk.NodeLimits) types.Object {
	if n == nil {
		return types.ObjectNull(diskInstanceAttrTypes)
	}
	nu := n.ThroughputUnit()
	cachedIOPS, cachedRate := types.Int64Null(), types.Float64Null()
	if n.CachedIOPS > 0 {
		cachedIOPS, cachedRate = types.Int64Value(n.CachedIOPS), diskRate(float64(n.CachedBytesPerSec), nu)
	}
	return types.ObjectValueMust(diskInstanceAttrTypes, map[string]attr.Value{
		"name": types.StringValue(n.Name), "baseline_iops": types.Int64Value(n.BaseIOPS),
		"baseline_throughput_mbps": diskRate(float64(n.BaseBytesPerSec), nu),
		"burst_iops":               types.Int64Value(n.BurstIOPS),
		"burst_throughput_mbps":    diskRate(float64(n.BurstBytesPerSec), nu),
		"burst_duration_minutes":   types.Float64Value(n.BurstDuration.Minutes()),
		"max_data_disks":           optInt(n.MaxDataDisks),
		"cached_iops":              cachedIOPS, "cached_throughput_mbps": cachedRate,
	})
}

// shapeFrom names where a field of a requirement's shape came from, in attribute words.
func shapeFrom(o disk.ShapeOrigin, block string) types.String {
	switch o {
	case disk.ShapeGiven:
		return types.StringValue(block)
	case disk.ShapeAccess:
		return types.StringValue("io")
	}
	return types.StringValue("default")
}

// diskDemand flattens the demand of a result; null without a requirement.
func diskDemand(r disk.Result) types.Object {
	if r.IOPSDemand == nil && r.ThroughputDemand == nil {
		return types.ObjectNull(diskDemandAttrTypes)
	}
	u := r.Volume.ThroughputUnit()
	one := func(d *disk.RequirementDemand, block string) types.Object {
		if d == nil {
			return types.ObjectNull(diskRequirementDemandAttrTypes)
		}
		return types.ObjectValueMust(diskRequirementDemandAttrTypes, map[string]attr.Value{
			"operations_per_sec": types.Float64Value(d.OpsPerSec), "block_size_kib": types.Int64Value(d.Shape.BlockSize / 1024),
			"block_size_from": shapeFrom(d.BlockFrom, block), "pattern": types.StringValue(string(d.Shape.Pattern)),
			"pattern_from": shapeFrom(d.PatternFrom, block), "counted_iops": types.Int64Value(d.Demand.IOPS),
			"throughput_mbps": diskRate(float64(d.Demand.BytesPerSec), u),
		})
	}
	return types.ObjectValueMust(diskDemandAttrTypes, map[string]attr.Value{
		"iops": one(r.IOPSDemand, "iops_io"), "throughput": one(r.ThroughputDemand, "throughput_io"),
		"counted_iops": types.Int64Value(r.Demand.IOPS), "throughput_mbps": diskRate(float64(r.Demand.BytesPerSec), u),
		"concurrent": types.BoolValue(r.Concurrent), "explanation": types.StringValue(r.DemandDetail),
	})
}

// diskSustaining lists the candidate sizes that sustain the demand; null without candidates tested.
func diskSustaining(r disk.Result) types.List {
	if r.NodeSizes == nil {
		return types.ListNull(types.StringType)
	}
	names := []attr.Value{}
	for _, s := range r.NodeSizes {
		if s.Sustains {
			names = append(names, types.StringValue(s.Limits.Name))
		}
	}
	return types.ListValueMust(types.StringType, names)
}
