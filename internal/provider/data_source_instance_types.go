package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-validators/float64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/overhead"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/selector"
)

var (
	_ datasource.DataSourceWithValidateConfig = (*instanceTypesDataSource)(nil)
	_ datasource.DataSourceWithConfigure      = (*instanceTypesDataSource)(nil)
)

type instanceTypesDataSource struct{ dataSourceCatalog }

func newInstanceTypesDataSource() datasource.DataSource { return &instanceTypesDataSource{} }

type intRangeModel struct {
	Min types.Int64 `tfsdk:"min"`
	Max types.Int64 `tfsdk:"max"`
}

type floatRangeModel struct {
	Min types.Float64 `tfsdk:"min"`
	Max types.Float64 `tfsdk:"max"`
}

type instanceTypesModel struct {
	Cloud                     types.String  `tfsdk:"cloud"`
	VCPU                      types.Object  `tfsdk:"vcpu"`
	MemoryGiB                 types.Object  `tfsdk:"memory_gib"`
	MemoryPerVCPUGiB          types.Object  `tfsdk:"memory_per_vcpu_gib"`
	Architecture              types.String  `tfsdk:"architecture"`
	Families                  types.List    `tfsdk:"families"`
	ExcludeFamilies           types.List    `tfsdk:"exclude_families"`
	NamePatterns              types.List    `tfsdk:"name_patterns"`
	ExcludeNamePatterns       types.List    `tfsdk:"exclude_name_patterns"`
	Generation                types.Object  `tfsdk:"generation"`
	Burstable                 types.Bool    `tfsdk:"burstable"`
	GPUs                      types.Object  `tfsdk:"gpus"`
	BareMetal                 types.Bool    `tfsdk:"bare_metal"`
	Hypervisor                types.String  `tfsdk:"hypervisor"`
	MaxPods                   types.Object  `tfsdk:"max_pods"`
	Profile                   types.String  `tfsdk:"profile"`
	EKS                       types.Object  `tfsdk:"eks"`
	AKS                       types.Object  `tfsdk:"aks"`
	EBSBaselineIOPS           types.Object  `tfsdk:"ebs_baseline_iops"`
	EBSBaselineThroughputMBps types.Object  `tfsdk:"ebs_baseline_throughput_mbps"`
	MaxDataDisks              types.Object  `tfsdk:"max_data_disks"`
	UncachedDiskIOPS          types.Object  `tfsdk:"uncached_disk_iops"`
	UncachedDiskMBps          types.Object  `tfsdk:"uncached_disk_mbps"`
	MaxPricePerHour           types.Float64 `tfsdk:"max_price_per_hour"`
	SortBy                    types.String  `tfsdk:"sort_by"`

	InstanceTypes types.List   `tfsdk:"instance_types"`
	Names         types.List   `tfsdk:"names"`
	CatalogDate   types.String `tfsdk:"catalog_date"`
}

func (d *instanceTypesDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_instance_types"
}

func intRangeAttribute(desc string) schema.SingleNestedAttribute {
	return schema.SingleNestedAttribute{Optional: true, MarkdownDescription: desc + " Both bounds are inclusive and optional.",
		Attributes: map[string]schema.Attribute{
			"min": schema.Int64Attribute{Optional: true, MarkdownDescription: "Lower bound.", Validators: []validator.Int64{int64validator.AtLeast(0)}},
			"max": schema.Int64Attribute{Optional: true, MarkdownDescription: "Upper bound.", Validators: []validator.Int64{int64validator.AtLeast(0)}},
		}}
}

func floatRangeAttribute(desc string) schema.SingleNestedAttribute {
	return schema.SingleNestedAttribute{Optional: true, MarkdownDescription: desc + " Both bounds are inclusive and optional.",
		Attributes: map[string]schema.Attribute{
			"min": schema.Float64Attribute{Optional: true, MarkdownDescription: "Lower bound.", Validators: []validator.Float64{float64validator.AtLeast(0)}},
			"max": schema.Float64Attribute{Optional: true, MarkdownDescription: "Upper bound.", Validators: []validator.Float64{float64validator.AtLeast(0)}},
		}}
}

func (d *instanceTypesDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	defer cacheDataSourceTypes(&resp.Schema)
	overheadAttrs := overheadOptionAttributes()
	patterns := func(desc string) schema.ListAttribute {
		return schema.ListAttribute{Optional: true, ElementType: types.StringType, Validators: []validator.List{listvalidator.SizeAtLeast(1)},
			MarkdownDescription: desc + " Wildcards: `*` any text, `?` one character, `[a-z]` a class; letter case is ignored."}
	}
	attrs := map[string]schema.Attribute{
		"cloud":               cloudAttribute(true, ""),
		"vcpu":                intRangeAttribute("vCPUs the guest sees, e.g. `{ min = 4, max = 16 }`."),
		"memory_gib":          floatRangeAttribute("Nominal memory in GiB."),
		"memory_per_vcpu_gib": floatRangeAttribute("Nominal memory per vCPU in GiB (`{ min = 8 }` keeps memory-optimised types)."),
		"architecture": schema.StringAttribute{Optional: true, MarkdownDescription: "CPU architecture: `x86_64` or `arm64`; unset keeps both.",
			Validators: []validator.String{stringvalidator.OneOf(catalog.ArchAMD64, catalog.ArchARM64)}},
		"families":              patterns("Keep types whose family matches one of these patterns: AWS family (`m6i`, `c7*`), Azure SKU family, GCP series (`n2`)."),
		"exclude_families":      patterns("Drop types whose family matches one of these patterns."),
		"name_patterns":         patterns("Keep types whose name matches one of these patterns (`m6*.xlarge`, `Standard_D*s_v5`)."),
		"exclude_name_patterns": patterns("Drop types whose name matches one of these patterns."),
		"generation": intRangeAttribute("Generation: on AWS and GCP the digit after the family's letters (`m6i` → 6, `c7g` → 7, `n2` → 2, `c3d` → 3); " +
			"on Azure the `_vN` suffix (`Standard_D4s_v5` → 5; a size without one is 1). Types whose name gives none never match."),
		"burstable":  schema.BoolAttribute{Optional: true, MarkdownDescription: "`true` keeps only types whose sustained CPU is below their vCPUs, which sizing checks against a CPU budget: burstable types (AWS T, Azure B) and GCP's shared-core types (e2-micro, e2-small, e2-medium, f1-micro, g1-small); `false` drops them."},
		"gpus":       intRangeAttribute("GPU count (`{ max = 0 }` drops GPU types)."),
		"bare_metal": schema.BoolAttribute{Optional: true, MarkdownDescription: "`true` keeps only bare-metal types, `false` drops them."},
		"hypervisor": schema.StringAttribute{Optional: true, MarkdownDescription: "AWS hypervisor: `nitro` or `xen`.",
			Validators: []validator.String{stringvalidator.OneOf("nitro", "xen")}},
		"max_pods":                     intRangeAttribute("A node's max pods under `profile`, `eks` and `aks` (the same model as `kubefit_node_overhead`)."),
		"profile":                      profileAttribute(overhead.PoolProfiles, ""),
		"eks":                          overheadAttrs["eks"],
		"aks":                          overheadAttrs["aks"],
		"ebs_baseline_iops":            intRangeAttribute("AWS: the instance's EBS-optimized baseline IOPS."),
		"ebs_baseline_throughput_mbps": floatRangeAttribute("AWS: the instance's EBS-optimized baseline throughput in MB/s."),
		"max_data_disks":               intRangeAttribute("Azure: maximum data disks."),
		"uncached_disk_iops":           intRangeAttribute("Azure: the VM's uncached disk IOPS limit."),
		"uncached_disk_mbps":           intRangeAttribute("Azure: the VM's uncached disk throughput limit in MB/s."),
		"max_price_per_hour": schema.Float64Attribute{Optional: true,
			MarkdownDescription: "Most reference on-demand price per node in USD per hour (the catalog's region and date: see `price_region` and `price_date` of each row).",
			Validators:          []validator.Float64{float64validator.AtLeast(0)}},
		"sort_by": schema.StringAttribute{Optional: true, MarkdownDescription: "Order of the result: " + markdownList(selector.SortKeys) +
			" (default `name`), ascending; ties, and rows without the figure (last), by name.",
			Validators: []validator.String{stringvalidator.OneOf(stringsOf(selector.SortKeys)...)}},
		"instance_types": schema.ListNestedAttribute{Computed: true,
			MarkdownDescription: "The matching rows, with the attributes of `kubefit_instance_type`.",
			NestedObject:        schema.NestedAttributeObject{Attributes: instanceTypeRowAttributes()}},
		"names": schema.ListAttribute{Computed: true, ElementType: types.StringType,
			MarkdownDescription: "The names of the matching rows, in order: feed them to `kubefit_node_pool_recommendation`'s `candidates`."},
		"catalog_date": schema.StringAttribute{Computed: true, MarkdownDescription: "Date of the embedded catalog (YYYY-MM-DD)."},
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Filters one cloud's instance types in kubefit's embedded, dated catalog by specs, capabilities, disk " +
			"caps and reference price, offline, like `amazon-ec2-instance-selector` for AWS, Azure and GCP. Every given filter must " +
			"hold; a row with no figure for a bounded attribute (the catalog does not know it) never matches that bound.\n\n" +
			"An empty result is not an error: a warning names the filter that removed the last candidates, and what those " +
			"candidates offered. To rank the matches by what your workloads really cost on them, pass `names` to " +
			"`kubefit_node_pool_recommendation`.",
		Attributes: attrs,
	}
}

// instanceTypesRenames maps the selector's filter fields to this data source's attributes.
var instanceTypesRenames = renames{
	"VCPU": "vcpu", "MemoryGiB": "memory_gib", "MemoryPerVCPUGiB": "memory_per_vcpu_gib", "Names": "name_patterns",
	"ExcludeNames": "exclude_name_patterns", "GPUs": "gpus", "MaxPods": "max_pods", "EBSBaselineIOPS": "ebs_baseline_iops",
	"EBSBaselineThroughputMBps": "ebs_baseline_throughput_mbps", "MaxDataDisks": "max_data_disks",
	"UncachedDiskIOPS": "uncached_disk_iops", "UncachedDiskMBps": "uncached_disk_mbps", "PricePerHour": "max_price_per_hour",
	"PricePerHour.Max": "", "Overhead": "",
}

func (d *instanceTypesDataSource) ValidateConfig(ctx context.Context, req datasource.ValidateConfigRequest, resp *datasource.ValidateConfigResponse) {
	var m instanceTypesModel
	resp.Diagnostics.Append(configGet(ctx, req.Config, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	for name, o := range map[string]types.Object{"vcpu": m.VCPU, "generation": m.Generation, "gpus": m.GPUs, "max_pods": m.MaxPods,
		"ebs_baseline_iops": m.EBSBaselineIOPS, "max_data_disks": m.MaxDataDisks, "uncached_disk_iops": m.UncachedDiskIOPS, "uncached_disk_mbps": m.UncachedDiskMBps} {
		if fullyKnown(o) {
			_ = intRange(ctx, path.Root(name), o, &resp.Diagnostics)
		}
	}
	for name, o := range map[string]types.Object{"memory_gib": m.MemoryGiB, "memory_per_vcpu_gib": m.MemoryPerVCPUGiB, "ebs_baseline_throughput_mbps": m.EBSBaselineThroughputMBps} {
		if fullyKnown(o) {
			_ = floatRange(ctx, path.Root(name), o, &resp.Diagnostics)
		}
	}
	checkProfileCloud(m.Profile, m.Cloud, &resp.Diagnostics)
}

// checkProfileCloud reports a known profile of another cloud than a known cloud.
func checkProfileCloud(profile, cloud types.String, diags *diag.Diagnostics) {
	if !fullyKnown(profile) || !fullyKnown(cloud) || profile.IsNull() || cloud.IsNull() {
		return
	}
	p := overhead.Profile(profile.ValueString())
	if pc := p.Cloud(); pc != "" && string(pc) != cloud.ValueString() {
		diags.AddAttributeError(path.Root("profile"), "Profile of Another Cloud",
			fmt.Sprintf("profile %q is a %s node image, but cloud is %q; choose a %s profile or leave profile unset for the default.",
				p, pc, cloud.ValueString(), cloud.ValueString()))
	}
}

// intRange reads a { min, max } object; a minimum above the maximum is an error at min.
func intRange(ctx context.Context, p path.Path, o types.Object, diags *diag.Diagnostics) selector.Range[int] {
	var r selector.Range[int]
	if o.IsNull() || o.IsUnknown() {
		return r
	}
	var m intRangeModel
	diags.Append(o.As(ctx, &m, objectAsOptions)...)
	if !m.Min.IsNull() {
		v := int(m.Min.ValueInt64())
		r.Min = &v
	}
	if !m.Max.IsNull() {
		v := int(m.Max.ValueInt64())
		r.Max = &v
	}
	if r.Min != nil && r.Max != nil && *r.Min > *r.Max {
		diags.AddAttributeError(p.AtName("min"), "Invalid Range", fmt.Sprintf("min %d is greater than max %d (min > max).", *r.Min, *r.Max))
	}
	return r
}

// floatRange reads a { min, max } object of numbers.
func floatRange(ctx context.Context, p path.Path, o types.Object, diags *diag.Diagnostics) selector.Range[float64] {
	var r selector.Range[float64]
	if o.IsNull() || o.IsUnknown() {
		return r
	}
	var m floatRangeModel
	diags.Append(o.As(ctx, &m, objectAsOptions)...)
	if !m.Min.IsNull() {
		v := m.Min.ValueFloat64()
		r.Min = &v
	}
	if !m.Max.IsNull() {
		v := m.Max.ValueFloat64()
		r.Max = &v
	}
	if r.Min != nil && r.Max != nil && *r.Min > *r.Max {
		diags.AddAttributeError(p.AtName("min"), "Invalid Range", fmt.Sprintf("min %g is greater than max %g (min > max).", *r.Min, *r.Max))
	}
	return r
}

func optBool(v types.Bool) *bool {
	if v.IsNull() || v.IsUnknown() {
		return nil
	}
	b := v.ValueBool()
	return &b
}

// expandFilter converts the configuration into the selector's filter.
func expandFilter(ctx context.Context, m instanceTypesModel, cloud catalog.Cloud, diags *diag.Diagnostics) selector.Filter {
	f := selector.Filter{
		VCPU:                      intRange(ctx, path.Root("vcpu"), m.VCPU, diags),
		MemoryGiB:                 floatRange(ctx, path.Root("memory_gib"), m.MemoryGiB, diags),
		MemoryPerVCPUGiB:          floatRange(ctx, path.Root("memory_per_vcpu_gib"), m.MemoryPerVCPUGiB, diags),
		Architecture:              m.Architecture.ValueString(),
		Generation:                intRange(ctx, path.Root("generation"), m.Generation, diags),
		Burstable:                 optBool(m.Burstable),
		GPUs:                      intRange(ctx, path.Root("gpus"), m.GPUs, diags),
		BareMetal:                 optBool(m.BareMetal),
		Hypervisor:                m.Hypervisor.ValueString(),
		EBSBaselineIOPS:           intRange(ctx, path.Root("ebs_baseline_iops"), m.EBSBaselineIOPS, diags),
		EBSBaselineThroughputMBps: floatRange(ctx, path.Root("ebs_baseline_throughput_mbps"), m.EBSBaselineThroughputMBps, diags),
		MaxDataDisks:              intRange(ctx, path.Root("max_data_disks"), m.MaxDataDisks, diags),
		UncachedDiskIOPS:          intRange(ctx, path.Root("uncached_disk_iops"), m.UncachedDiskIOPS, diags),
		UncachedDiskMBps:          intRange(ctx, path.Root("uncached_disk_mbps"), m.UncachedDiskMBps, diags),
		SortBy:                    selector.SortKey(m.SortBy.ValueString()),
	}
	for _, l := range []struct {
		v   types.List
		dst *[]string
	}{{m.Families, &f.Families}, {m.ExcludeFamilies, &f.ExcludeFamilies}, {m.NamePatterns, &f.Names}, {m.ExcludeNamePatterns, &f.ExcludeNames}} {
		diags.Append(l.v.ElementsAs(ctx, l.dst, false)...)
	}
	pods := intRange(ctx, path.Root("max_pods"), m.MaxPods, diags)
	if pods.Min != nil {
		v := int64(*pods.Min)
		f.MaxPods.Min = &v
	}
	if pods.Max != nil {
		v := int64(*pods.Max)
		f.MaxPods.Max = &v
	}
	opts := overheadOptionsModel{Profile: m.Profile, EKS: m.EKS, AKS: m.AKS}
	f.Overhead = overheadInput(ctx, path.Empty(), opts, resolveProfile(opts, cloud), overhead.Instance{}, diags)
	if !m.MaxPricePerHour.IsNull() {
		v := m.MaxPricePerHour.ValueFloat64()
		f.PricePerHour.Max = &v
	}
	return f
}

func (d *instanceTypesDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m instanceTypesModel
	resp.Diagnostics.Append(configGet(ctx, req.Config, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	cloud, ok := parseCloud(path.Root("cloud"), m.Cloud, &resp.Diagnostics)
	if !ok {
		return
	}
	f := expandFilter(ctx, m, cloud, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	cat := d.catalog()
	all, ok := catalogList(ctx, cat, path.Root("cloud"), cloud, &resp.Diagnostics)
	if !ok {
		return
	}
	rows, warnings, err := f.Apply(all)
	if addPlannerErrors(&resp.Diagnostics, path.Empty(), err, instanceTypesRenames, "Invalid Filter") {
		return
	}
	addPlannerWarnings(&resp.Diagnostics, path.Empty(), warnings, instanceTypesRenames, "No Instance Type Matches")
	rowType := types.ObjectType{AttrTypes: instanceTypeRowAttrTypes()}
	objs := make([]attr.Value, 0, len(rows))
	names := make([]attr.Value, 0, len(rows))
	for _, it := range rows {
		row := instanceTypeRow(types.StringValue(string(cloud)), types.StringValue(it.Name), it, cat)
		o, diags := types.ObjectValueFrom(ctx, rowType.AttrTypes, row)
		resp.Diagnostics.Append(diags...)
		objs = append(objs, o)
		names = append(names, types.StringValue(it.Name))
	}
	if resp.Diagnostics.HasError() {
		return
	}
	m.InstanceTypes = types.ListValueMust(rowType, objs)
	m.Names = types.ListValueMust(types.StringType, names)
	m.CatalogDate = types.StringValue(cat.Date())
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}
