package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/disk"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/sizing"
)

var (
	_ datasource.DataSourceWithValidateConfig = (*instanceTypeDataSource)(nil)
	_ datasource.DataSourceWithConfigure      = (*instanceTypeDataSource)(nil)
)

type instanceTypeDataSource struct{ dataSourceCatalog }

func newInstanceTypeDataSource() datasource.DataSource { return &instanceTypeDataSource{} }

type instanceTypeModel struct {
	Cloud                     types.String  `tfsdk:"cloud"`
	Name                      types.String  `tfsdk:"name"`
	CanonicalName             types.String  `tfsdk:"canonical_name"`
	Family                    types.String  `tfsdk:"family"`
	VCPU                      types.Int64   `tfsdk:"vcpu"`
	MemoryMiB                 types.Int64   `tfsdk:"memory_mib"`
	Architecture              types.String  `tfsdk:"architecture"`
	GPUCount                  types.Int64   `tfsdk:"gpu_count"`
	Burstable                 types.Bool    `tfsdk:"burstable"`
	SharedCore                types.Bool    `tfsdk:"shared_core"`
	Hypervisor                types.String  `tfsdk:"hypervisor"`
	BareMetal                 types.Bool    `tfsdk:"bare_metal"`
	MaxENIs                   types.Int64   `tfsdk:"max_enis"`
	IPv4PerENI                types.Int64   `tfsdk:"ipv4_per_eni"`
	ENIMaxPods                types.Int64   `tfsdk:"eni_max_pods"`
	EBSBaselineBandwidthMbps  types.Float64 `tfsdk:"ebs_baseline_bandwidth_mbps"`
	EBSMaxBandwidthMbps       types.Float64 `tfsdk:"ebs_max_bandwidth_mbps"`
	EBSBaselineThroughputMBps types.Float64 `tfsdk:"ebs_baseline_throughput_mbps"`
	EBSMaxThroughputMBps      types.Float64 `tfsdk:"ebs_max_throughput_mbps"`
	EBSBaselineIOPS           types.Int64   `tfsdk:"ebs_baseline_iops"`
	EBSMaxIOPS                types.Int64   `tfsdk:"ebs_max_iops"`
	MaxDataDisks              types.Int64   `tfsdk:"max_data_disks"`
	UncachedDiskIOPS          types.Int64   `tfsdk:"uncached_disk_iops"`
	UncachedDiskMBps          types.Int64   `tfsdk:"uncached_disk_mbps"`
	PriceUSDPerHour           types.Float64 `tfsdk:"price_usd_per_hour"`
	PriceRegion               types.String  `tfsdk:"price_region"`
	PriceDate                 types.String  `tfsdk:"price_date"`
	CatalogDate               types.String  `tfsdk:"catalog_date"`
	Source                    types.String  `tfsdk:"source"`
}

func (d *instanceTypeDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_instance_type"
}

// cloudAttribute is the `cloud` input shared by every object that names an instance type.
func cloudAttribute(required bool, extra string) schema.StringAttribute {
	return schema.StringAttribute{
		Required:            required,
		Optional:            !required,
		MarkdownDescription: "Cloud of the instance type: one of " + markdownList(catalog.Clouds) + "." + extra,
		Validators:          []validator.String{stringvalidator.OneOf(stringsOf(catalog.Clouds)...)},
	}
}

func (d *instanceTypeDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	defer cacheDataSourceTypes(&resp.Schema)
	i64 := func(desc string) schema.Int64Attribute {
		return schema.Int64Attribute{Computed: true, MarkdownDescription: desc + " Null when the catalog has no figure."}
	}
	f64 := func(desc string) schema.Float64Attribute {
		return schema.Float64Attribute{Computed: true, MarkdownDescription: desc + " Null when the catalog has no figure."}
	}
	str := func(desc string) schema.StringAttribute {
		return schema.StringAttribute{Computed: true, MarkdownDescription: desc}
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Looks up one instance type in kubefit's embedded, dated catalog of AWS EC2 instance types, " +
			"Azure VM sizes and GCP machine types. No cloud credentials or network access are needed. An unknown " +
			"name fails the plan with the closest names the catalog knows.",
		Attributes: map[string]schema.Attribute{
			"cloud": cloudAttribute(true, ""),
			"name": schema.StringAttribute{Required: true,
				MarkdownDescription: "Instance type name as the cloud spells it (`m5.large`, `Standard_DS2_v2`, `n2-standard-4`). " +
					"Azure names match case-insensitively; `canonical_name` has the catalog's spelling."},
			"canonical_name":               str("The name as the catalog spells it (differs from `name` only in letter case, on Azure)."),
			"family":                       str("AWS instance family (`m5`), Azure SKU family or GCP series."),
			"vcpu":                         i64("vCPUs the guest sees (Azure: available vCPUs of constrained-core sizes)."),
			"memory_mib":                   i64("Nominal memory in MiB."),
			"architecture":                 str("CPU architecture: `x86_64` or `arm64`; empty when unknown."),
			"gpu_count":                    i64("Number of GPUs, of any maker. Pods requesting `nvidia.com/gpu` bind only on NVIDIA GPUs current drivers support, which kubefit plans with: not AWS g4ad (AMD), dl1 (Habana) or the Kepler g2 and p2, nor Azure NVv4 and ND MI300X (AMD), NP (Xilinx FPGAs) or the Kepler NC."),
			"burstable":                    schema.BoolAttribute{Computed: true, MarkdownDescription: "Whether the type's sustained CPU is below its vCPUs, bursting above on credits or spare host CPU: AWS T family, Azure B series and GCP's shared-core types (e2-micro, e2-small, e2-medium, f1-micro, g1-small; `shared_core` tells them apart). Sizing checks a pool of such a type against its CPU budget (`kubefit_burst_budget`)."},
			"shared_core":                  schema.BoolAttribute{Computed: true, MarkdownDescription: "Whether the type is a GCP shared-core machine (e2-micro/small/medium, f1-micro, g1-small)."},
			"hypervisor":                   str("AWS hypervisor: `nitro` or `xen`; empty for bare metal or other clouds."),
			"bare_metal":                   schema.BoolAttribute{Computed: true, MarkdownDescription: "Whether the type is bare metal."},
			"max_enis":                     i64("AWS: network interfaces on the default network card (the only card the VPC CNI uses)."),
			"ipv4_per_eni":                 i64("AWS: IPv4 addresses per network interface."),
			"eni_max_pods":                 i64("AWS: the VPC CNI's max pods, `max_enis × (ipv4_per_eni − 1) + 2`."),
			"ebs_baseline_bandwidth_mbps":  f64("AWS: EBS-optimized baseline bandwidth in Mbps (megabits per second)."),
			"ebs_max_bandwidth_mbps":       f64("AWS: EBS-optimized burst bandwidth in Mbps."),
			"ebs_baseline_throughput_mbps": f64("AWS: EBS-optimized baseline throughput in MB/s (10^6 bytes per second), as AWS publishes it."),
			"ebs_max_throughput_mbps":      f64("AWS: EBS-optimized burst throughput in MB/s."),
			"ebs_baseline_iops":            i64("AWS: EBS-optimized baseline IOPS (16 KiB I/O)."),
			"ebs_max_iops":                 i64("AWS: EBS-optimized burst IOPS."),
			"max_data_disks":               i64("Azure: maximum data disks."),
			"uncached_disk_iops":           i64("Azure: VM-level uncached disk IOPS limit."),
			"uncached_disk_mbps":           i64("Azure: VM-level uncached disk throughput limit in MB/s."),
			"price_usd_per_hour":           f64("Reference on-demand Linux price in USD per hour, in `price_region`."),
			"price_region":                 str("Region of the reference price (`us-east-1`, `eastus`, `us-central1`)."),
			"price_date":                   str("Date of the price source (YYYY-MM-DD)."),
			"catalog_date":                 str("Date of the newest upstream snapshot (a repository's commit) the embedded catalog was generated from (YYYY-MM-DD). Documentation pages transcribed by hand and prices carry their own dates, in `source` and `price_date`."),
			"source":                       str("Where the row comes from: the source tables that named this type."),
		},
	}
}

func (d *instanceTypeDataSource) ValidateConfig(ctx context.Context, req datasource.ValidateConfigRequest, resp *datasource.ValidateConfigResponse) {
	var m instanceTypeModel
	resp.Diagnostics.Append(configGet(ctx, req.Config, &m)...)
	if resp.Diagnostics.HasError() || m.Cloud.IsUnknown() || m.Name.IsUnknown() || m.Cloud.IsNull() || m.Name.IsNull() {
		return
	}
	parseCloud(path.Root("cloud"), m.Cloud, &resp.Diagnostics)
}

func (d *instanceTypeDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m instanceTypeModel
	resp.Diagnostics.Append(configGet(ctx, req.Config, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	c, ok := parseCloud(path.Root("cloud"), m.Cloud, &resp.Diagnostics)
	if !ok {
		return
	}
	it, ok := lookupInstance(ctx, d.catalog(), path.Root("name"), c, m.Name.ValueString(), &resp.Diagnostics)
	if !ok {
		return
	}
	m = instanceTypeRow(m.Cloud, m.Name, it, d.catalog())
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// instanceTypeRow is the state of one catalog row: cloud and name as given, every other attribute from
// the row (null where the catalog has no figure).
func instanceTypeRow(cloud, name types.String, it catalog.InstanceType, cat sizing.Catalog) instanceTypeModel {
	posInt := func(v int) types.Int64 {
		if v <= 0 {
			return types.Int64Null()
		}
		return types.Int64Value(int64(v))
	}
	// Azure's uncached limits as the node-level disk check counts them (disk.AzureUncached: Microsoft's figures over the
	// catalog row's, which disagree for a few sizes).
	uncachedIOPS, uncachedMBps := it.UncachedDiskIOPS, it.UncachedDiskMBps
	if iops, mbps, ok := disk.AzureUncached(it); ok {
		uncachedIOPS, uncachedMBps = int(iops), int(mbps)
	}
	posFloat := func(v float64) types.Float64 {
		if v <= 0 {
			return types.Float64Null()
		}
		return types.Float64Value(v)
	}
	return instanceTypeModel{
		Cloud: cloud, Name: name, CanonicalName: types.StringValue(it.Name), Family: types.StringValue(it.Family),
		VCPU: posInt(it.VCPU), MemoryMiB: posInt(int(it.MemoryMiB)), Architecture: types.StringValue(it.Architecture),
		GPUCount: types.Int64Value(int64(it.GPUCount)), Burstable: types.BoolValue(it.SustainedBelowVCPUs()), SharedCore: types.BoolValue(it.SharedCore),
		Hypervisor: types.StringValue(it.Hypervisor), BareMetal: types.BoolValue(it.BareMetal),
		MaxENIs: posInt(it.MaxENIs), IPv4PerENI: posInt(it.IPv4PerENI), ENIMaxPods: posInt(it.ENIMaxPods),
		EBSBaselineBandwidthMbps: posFloat(it.EBSBaselineBandwidthMbps), EBSMaxBandwidthMbps: posFloat(it.EBSMaxBandwidthMbps),
		EBSBaselineThroughputMBps: posFloat(it.EBSBaselineThroughputMBps), EBSMaxThroughputMBps: posFloat(it.EBSMaxThroughputMBps),
		EBSBaselineIOPS: posInt(it.EBSBaselineIOPS), EBSMaxIOPS: posInt(it.EBSMaxIOPS),
		MaxDataDisks: posInt(it.MaxDataDisks), UncachedDiskIOPS: posInt(uncachedIOPS), UncachedDiskMBps: posInt(uncachedMBps),
		PriceUSDPerHour: posFloat(it.PriceUSDPerHour), PriceRegion: types.StringValue(it.PriceRegion), PriceDate: types.StringValue(it.PriceDate),
		CatalogDate: types.StringValue(cat.Date()),
		Source:      types.StringValue(cat.Sources(it.Cloud) + "; row sources: " + it.Sources),
	}
}
