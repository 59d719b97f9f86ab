package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/objectvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/util/validation"
	k8sfield "k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/disk"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/manifest"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/sizing"
)

var (
	_ resource.ResourceWithValidateConfig = (*storageClassResource)(nil)
	_ resource.ResourceWithModifyPlan     = (*storageClassResource)(nil)
)

type storageClassResource struct {
	resourceCatalog
	planOnly[storageClassModel]
}

func newStorageClassResource() resource.Resource {
	r := &storageClassResource{}
	r.plan = func(ctx context.Context, m *storageClassModel, d *diag.Diagnostics) bool {
		return planStorageClass(ctx, r.catalog(), m, d)
	}
	return r
}

type storageClassModel struct {
	ID                     types.String  `tfsdk:"id"`
	Name                   types.String  `tfsdk:"name"`
	Driver                 types.String  `tfsdk:"driver"`
	ReclaimPolicy          types.String  `tfsdk:"reclaim_policy"`
	VolumeBindingMode      types.String  `tfsdk:"volume_binding_mode"`
	AllowVolumeExpansion   types.Bool    `tfsdk:"allow_volume_expansion"`
	IsDefaultClass         types.Bool    `tfsdk:"is_default_class"`
	MountOptions           types.List    `tfsdk:"mount_options"`
	AllowedTopologies      types.List    `tfsdk:"allowed_topologies"`
	Labels                 types.Map     `tfsdk:"labels"`
	Annotations            types.Map     `tfsdk:"annotations"`
	EBS                    types.Object  `tfsdk:"ebs"`
	AzureDisk              types.Object  `tfsdk:"azure_disk"`
	GCEPD                  types.Object  `tfsdk:"gce_pd"`
	ExtraParameters        types.Map     `tfsdk:"extra_parameters"`
	ExpectedVolumeSizeGiB  types.Int64   `tfsdk:"expected_volume_size_gib"`
	RequiredIOPS           types.Int64   `tfsdk:"required_iops"`
	RequiredThroughputMBps types.Float64 `tfsdk:"required_throughput_mbps"`
	IOPSIO                 types.Object  `tfsdk:"iops_io"`
	ThroughputIO           types.Object  `tfsdk:"throughput_io"`
	ConcurrentRequirements types.Bool    `tfsdk:"concurrent_requirements"`
	IO                     types.Object  `tfsdk:"io"`
	NodeInstanceType       types.String  `tfsdk:"node_instance_type"`
	FailOnUnmet            types.Bool    `tfsdk:"fail_on_unmet"`

	Parameters       types.Map     `tfsdk:"parameters"`
	MinVolumeSizeGiB types.Int64   `tfsdk:"min_volume_size_gib"`
	Performance      types.Object  `tfsdk:"performance"`
	Manifest         types.Dynamic `tfsdk:"manifest"`
	ManifestJSON     types.String  `tfsdk:"manifest_json"`
	YAML             types.String  `tfsdk:"yaml"`
}

type ebsParametersModel struct {
	Type                       types.String `tfsdk:"type"`
	IOPS                       types.Int64  `tfsdk:"iops"`
	IOPSPerGB                  types.Int64  `tfsdk:"iops_per_gb"`
	AllowAutoIOPSPerGBIncrease types.Bool   `tfsdk:"allow_auto_iops_per_gb_increase"`
	Throughput                 types.Int64  `tfsdk:"throughput"`
	Encrypted                  types.Bool   `tfsdk:"encrypted"`
	KMSKeyID                   types.String `tfsdk:"kms_key_id"`
	FSType                     types.String `tfsdk:"fs_type"`
	BlockSize                  types.String `tfsdk:"block_size"`
}

type azureDiskParametersModel struct {
	SKUName             types.String `tfsdk:"sku_name"`
	CachingMode         types.String `tfsdk:"caching_mode"`
	DiskIOPSReadWrite   types.Int64  `tfsdk:"disk_iops_read_write"`
	DiskMBpsReadWrite   types.Int64  `tfsdk:"disk_mbps_read_write"`
	EnableBursting      types.Bool   `tfsdk:"enable_bursting"`
	NetworkAccessPolicy types.String `tfsdk:"network_access_policy"`
	LogicalSectorSize   types.Int64  `tfsdk:"logical_sector_size"`
}

type gcePDParametersModel struct {
	Type                          types.String `tfsdk:"type"`
	ProvisionedIOPSOnCreate       types.Int64  `tfsdk:"provisioned_iops_on_create"`
	ProvisionedThroughputOnCreate types.Int64  `tfsdk:"provisioned_throughput_on_create"`
}

type topologyTermModel struct {
	MatchLabelExpressions []topologyRequirementModel `tfsdk:"match_label_expressions"`
}

type topologyRequirementModel struct {
	Key    types.String   `tfsdk:"key"`
	Values []types.String `tfsdk:"values"`
}

var (
	reclaimPolicies = stringsOf(manifest.ReclaimPolicies)
	bindingModes    = stringsOf(manifest.BindingModes)
)

var storagePerformanceAttrTypes = map[string]attr.Type{
	"size_gib": types.Int64Type, "tier": types.StringType, "billed_size_gib": types.Int64Type,
	"throughput_unit": types.StringType, "baseline_iops": types.Int64Type, "baseline_throughput_mbps": types.Float64Type,
	"burst_iops": types.Int64Type, "burst_throughput_mbps": types.Float64Type, "burst_duration_minutes": types.Float64Type,
	"effective_iops": types.Float64Type, "effective_throughput_mbps": types.Float64Type, "limited_by": types.StringType,
	"verdict": types.StringType, "recommended_size_gib": types.Int64Type, "recommended_tier": types.StringType,
	"source":                    types.StringType,
	"demand":                    types.ObjectType{AttrTypes: diskDemandAttrTypes},
	"instance":                  types.ObjectType{AttrTypes: diskInstanceAttrTypes},
	"sustaining_instance_types": types.ListType{ElemType: types.StringType},
}

func (r *storageClassResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_storage_class"
}

func (r *storageClassResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	defer cacheResourceTypes(&resp.Schema)
	optStr := func(desc string) schema.StringAttribute {
		return schema.StringAttribute{Optional: true, MarkdownDescription: desc}
	}
	optInt := func(desc string) schema.Int64Attribute {
		return schema.Int64Attribute{Optional: true, MarkdownDescription: desc,
			Validators: []validator.Int64{int64validator.AtLeast(0)}}
	}
	optBool := func(desc string) schema.BoolAttribute {
		return schema.BoolAttribute{Optional: true, MarkdownDescription: desc}
	}
	computedStr := func(desc string) schema.StringAttribute {
		return schema.StringAttribute{Computed: true, MarkdownDescription: desc}
	}
	ioAttrs := resourceAttributes(diskIOAttributes())
	performance := map[string]schema.Attribute{
		"size_gib":                  schema.Int64Attribute{Computed: true, MarkdownDescription: "The size evaluated."},
		"tier":                      computedStr("Azure fixed tier, null for other types."),
		"billed_size_gib":           schema.Int64Attribute{Computed: true, MarkdownDescription: "Size that is billed."},
		"throughput_unit":           computedStr("`MiB/s` (AWS, GCP) or `MB/s` (Azure)."),
		"baseline_iops":             schema.Int64Attribute{Computed: true, MarkdownDescription: "Sustained IOPS."},
		"baseline_throughput_mbps":  schema.Float64Attribute{Computed: true, MarkdownDescription: "Sustained throughput." + diskUnitDoc},
		"burst_iops":                schema.Int64Attribute{Computed: true, MarkdownDescription: "IOPS while a burst lasts."},
		"burst_throughput_mbps":     schema.Float64Attribute{Computed: true, MarkdownDescription: "Throughput while a burst lasts." + diskUnitDoc},
		"burst_duration_minutes":    schema.Float64Attribute{Computed: true, MarkdownDescription: "Minutes a full burst lasts; -1 without time limit; 0 without burst."},
		"effective_iops":            schema.Float64Attribute{Computed: true, MarkdownDescription: "Operations per second reached for the `io` profile, capped by `node_instance_type`'s disk limits when it is set."},
		"effective_throughput_mbps": schema.Float64Attribute{Computed: true, MarkdownDescription: "`effective_iops` × block size." + diskUnitDoc},
		"limited_by":                computedStr("What binds the effective rate: one of " + markdownList(disk.Limits) + " (`instance` only with `node_instance_type`)."),
		"verdict":                   computedStr("With a requirement: `pass`, `warn` or `fail`; null otherwise."),
		"recommended_size_gib":      schema.Int64Attribute{Computed: true, MarkdownDescription: "With a requirement: the smallest PVC size of the class's type that sustains it; null otherwise or when none can."},
		"recommended_tier":          computedStr("With a requirement on an Azure fixed-tier SKU: the tier of `recommended_size_gib` (`P30`); null otherwise."),
		"source":                    computedStr("Formulas and data rows the figures come from."),
	}
	for k, a := range resourceAttributes(diskOutputSchema("node_instance_type")) {
		performance[k] = a
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "A Kubernetes StorageClass for the AWS EBS, Azure Disk or GCE PD CSI driver, validated at " +
			"`terraform plan` against the rules the drivers and clouds enforce (gp3 IOPS per GiB and throughput per " +
			"IOPS, io2 IOPS per GiB, Azure caching on Premium SSD v2 and Ultra, IOPS/MB/s parameters only where the SKU " +
			"has them, unknown keys, SKUs and types, …), so a PVC never sits in `Pending` because of the class. " +
			"Every diagnostic quotes its rule id (`EBS-V4`, `AZD-V3`, `GPD-V2`, …) and the error the driver or cloud " +
			"would give.\n\n" +
			"The resource is state-only and cannot be imported: it renders the class as `manifest` (pass it to `kubernetes_manifest`), " +
			"`manifest_json` and `yaml`, and never contacts a cluster. Every computed value is known at plan time " +
			"when the inputs are; a change re-renders in place. Performance parameters are always emitted " +
			"explicitly (gp3 `iops`/`throughput`, Azure `cachingMode` (default `None`), Premium SSD v2 IOPS/MB/s) so " +
			"no driver default applies silently. With `expected_volume_size_gib`, it reports the volume's performance " +
			"at that size and checks `required_iops` / `required_throughput_mbps` like `kubefit_disk_tier`.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{Computed: true, MarkdownDescription: "The class name.",
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()}},
			"name": schema.StringAttribute{Required: true,
				MarkdownDescription: "StorageClass name (a DNS-1123 subdomain). Changing it replaces the resource.",
				PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()}},
			"driver": schema.StringAttribute{Required: true,
				MarkdownDescription: "Provisioner: one of " + markdownList(disk.Drivers) + ". The in-tree names " +
					markdownList(disk.InTreeNames) + " are accepted with a warning pointing to the CSI driver (with CSI " +
					"migration the CSI driver creates the volumes, and its rules are checked).",
				Validators: []validator.String{stringvalidator.OneOf(append(stringsOf(disk.Drivers), disk.InTreeNames...)...)}},
			"reclaim_policy": schema.StringAttribute{Optional: true, Computed: true, Default: stringdefault.StaticString("Delete"),
				MarkdownDescription: "`Delete` (default) or `Retain`.",
				Validators:          []validator.String{stringvalidator.OneOf(reclaimPolicies...)}},
			"volume_binding_mode": schema.StringAttribute{Optional: true, Computed: true,
				Default:             stringdefault.StaticString(disk.BindingWaitForFirstConsumer),
				MarkdownDescription: "`WaitForFirstConsumer` (default) or `Immediate`. Immediate on a zonal disk is warned about (`SC-2`).",
				Validators:          []validator.String{stringvalidator.OneOf(bindingModes...)}},
			"allow_volume_expansion": schema.BoolAttribute{Optional: true, Computed: true, Default: booldefault.StaticBool(true),
				MarkdownDescription: "Whether PVCs of the class may grow. Default true."},
			"is_default_class": schema.BoolAttribute{Optional: true, Computed: true, Default: booldefault.StaticBool(false),
				MarkdownDescription: "Whether to annotate the class as the cluster default (`" + manifest.DefaultClassAnnotation + "`). Default false."},
			"mount_options": schema.ListAttribute{Optional: true, ElementType: types.StringType,
				MarkdownDescription: "Mount options of the PVs the class creates (for example `[\"noatime\"]`).",
				Validators:          []validator.List{listvalidator.ValueStringsAre(stringvalidator.LengthAtLeast(1))}},
			"allowed_topologies": schema.ListNestedAttribute{Optional: true,
				MarkdownDescription: "Topology terms restricting where volumes are provisioned (`allowedTopologies`); " +
					"for example `[{ match_label_expressions = [{ key = \"topology.kubernetes.io/zone\", values = [\"eu-west-1a\"] }] }]`.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"match_label_expressions": schema.ListNestedAttribute{Required: true,
						MarkdownDescription: "Label requirements, all of which must hold.",
						NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
							"key": schema.StringAttribute{Required: true, MarkdownDescription: "Topology label key."},
							"values": schema.ListAttribute{Required: true, ElementType: types.StringType,
								MarkdownDescription: "Allowed values; at least one.",
								Validators:          []validator.List{listvalidator.SizeAtLeast(1)}},
						}}},
				}}},
			"labels": schema.MapAttribute{Optional: true, ElementType: types.StringType,
				MarkdownDescription: "Labels of the StorageClass object."},
			"annotations": schema.MapAttribute{Optional: true, ElementType: types.StringType,
				MarkdownDescription: "Annotations of the StorageClass object. Use `is_default_class` rather than the default-class annotation."},
			"ebs": schema.SingleNestedAttribute{Optional: true, Validators: []validator.Object{blockForDriver{}},
				MarkdownDescription: "Parameters for `ebs.csi.aws.com` (aws-ebs-csi-driver; see its `docs/parameters.md`). Required with that driver.",
				Attributes: map[string]schema.Attribute{
					"type": schema.StringAttribute{Required: true,
						MarkdownDescription: "EBS volume type: one of " + markdownList(disk.TypesOf("aws")) + " (`EBS-V1`)."},
					"iops": optInt("Provisioned IOPS (`iops`), gp3, io1 and io2 only (`EBS-V3`). gp3: 3,000–80,000 and at " +
						"most 500 per GiB of every PVC (`EBS-V4`); io1: 100 to min(64,000, 50 × size) (`EBS-V6`); io2: 100 " +
						"to min(256,000, 1,000 × size) (`EBS-V7`). For gp3 without `iops` or `iops_per_gb`, `3000` is emitted."),
					"iops_per_gb": optInt("IOPS per GiB of PVC size (`iopsPerGB`); not with `iops` (`EBS-V2`)."),
					"allow_auto_iops_per_gb_increase": optBool("Raise `iops_per_gb × size` to the type minimum instead of " +
						"failing (`allowAutoIOPSPerGBIncrease`, `EBS-V9`)."),
					"throughput": optInt("gp3 throughput in MiB/s (`throughput`): 125–2,000 and at most 0.25 MiB/s per " +
						"IOPS (`EBS-V5`). Emitted as `125` when unset on gp3."),
					"encrypted":  optBool("Encrypt the volume (`encrypted`)."),
					"kms_key_id": optStr("Full ARN of the KMS key (`kmsKeyId`)."),
					"fs_type": schema.StringAttribute{Optional: true,
						MarkdownDescription: "File system: `xfs`, `ext3` or `ext4` (`csi.storage.k8s.io/fstype`).",
						Validators:          []validator.String{stringvalidator.OneOf("xfs", "ext3", "ext4")}},
					"block_size": optStr("mkfs block size (`blockSize`), alphanumeric."),
				}},
			"azure_disk": schema.SingleNestedAttribute{Optional: true, Validators: []validator.Object{blockForDriver{}},
				MarkdownDescription: "Parameters for `disk.csi.azure.com` (azuredisk-csi-driver; see its `docs/driver-parameters.md`). Required with that driver.",
				Attributes: map[string]schema.Attribute{
					"sku_name": schema.StringAttribute{Required: true,
						MarkdownDescription: "SKU (`skuName`), exact case: one of " + markdownList(disk.AzureSKUs) + " (`AZD-V1`)."},
					"caching_mode": optStr("Host caching (`cachingMode`): `None` (emitted when unset) or `ReadOnly` " +
						"(`AZD-V2`). `ReadWrite` is rejected: deprecated, and write caching froze AKS nodes in the field " +
						"report (`AZC-3`). PremiumV2_LRS and UltraSSD_LRS allow only `None` (`AZD-V3`)."),
					"disk_iops_read_write": optInt("Provisioned IOPS (`DiskIOPSReadWrite`), PremiumV2_LRS and UltraSSD_LRS " +
						"only (`AZD-V4`); PV2: 3,000 to min(80,000, 500 × size) (`AZD-V5`); Ultra: 100 to min(400,000, " +
						"1,000 × size) (`AZD-V6`). Emitted as `3000` for PV2 when unset."),
					"disk_mbps_read_write": optInt("Provisioned MB/s (`DiskMBpsReadWrite`), PremiumV2_LRS and UltraSSD_LRS " +
						"only; at most 0.25 × IOPS. Emitted as `125` for PV2 when unset."),
					"enable_bursting": optBool("On-demand bursting (`enableBursting`): Premium SSD larger than 512 GiB, not shared (`AZD-V8`)."),
					"network_access_policy": schema.StringAttribute{Optional: true,
						MarkdownDescription: "`AllowAll`, `DenyAll` or `AllowPrivate` (`networkAccessPolicy`); " +
							"`AllowPrivate` needs `diskAccessID` in `extra_parameters` (`AZD-V10`).",
						Validators: []validator.String{stringvalidator.OneOf("AllowAll", "DenyAll", "AllowPrivate")}},
					"logical_sector_size": schema.Int64Attribute{Optional: true,
						MarkdownDescription: "`512` or `4096` (`LogicalSectorSize`), PremiumV2_LRS and UltraSSD_LRS only.",
						Validators:          []validator.Int64{int64validator.OneOf(512, 4096)}},
				}},
			"gce_pd": schema.SingleNestedAttribute{Optional: true, Validators: []validator.Object{blockForDriver{}},
				MarkdownDescription: "Parameters for `pd.csi.storage.gke.io` (GCE PD CSI driver; see the GKE documentation on persistent volumes and its `README.md` parameter table). Required with that driver.",
				Attributes: map[string]schema.Attribute{
					"type": schema.StringAttribute{Required: true,
						MarkdownDescription: "Disk type (`type`): one of " + markdownList(disk.GCETypes) + " (`GPD-V7`). " +
							"Per-volume performance is computed for " + markdownList(disk.TypesOf("gcp")) + "."},
					"provisioned_iops_on_create": optInt("Provisioned IOPS (`provisioned-iops-on-create`), pd-extreme and " +
						"Hyperdisk only (`GPD-V3`); hyperdisk-balanced at most 500 per GiB and 160,000 (`GPD-V4`)."),
					"provisioned_throughput_on_create": optInt("Provisioned throughput in MiB/s, Hyperdisk only (`GPD-V2`). " +
						"Emitted with its unit (`\"250Mi\"`): a bare number would be read as bytes per second."),
				}},
			"extra_parameters": schema.MapAttribute{Optional: true, ElementType: types.StringType,
				MarkdownDescription: "Further parameters the typed blocks lack (for example `tagSpecification_1`, " +
					"`diskEncryptionSetID`, `replication-type`), checked like the rest: unknown keys fail (`EBS-V10`, " +
					"`AZD-V13`, `GPD-V1`), reserved `csi.storage.k8s.io/` keys other than the documented ones fail " +
					"(`SC-4`). A key a typed attribute sets may not be repeated here."},
			"expected_volume_size_gib": schema.Int64Attribute{Optional: true,
				MarkdownDescription: "PVC size the class will serve. The class is checked at this size (IOPS per GiB, " +
					"bursting and performance-plus minimums) and `performance` is computed for it.",
				Validators: []validator.Int64{int64validator.AtLeast(1)}},
			"required_iops": schema.Int64Attribute{Optional: true,
				MarkdownDescription: "Application operations per second a volume of the class must sustain at `expected_volume_size_gib`.",
				Validators: []validator.Int64{int64validator.Between(0, disk.MaxRequiredIOPS),
					int64validator.AlsoRequires(path.MatchRoot("expected_volume_size_gib"))}},
			"required_throughput_mbps": schema.Float64Attribute{Optional: true,
				MarkdownDescription: "Throughput a volume of the class must sustain at `expected_volume_size_gib`." + diskUnitDoc},
			"iops_io": schema.SingleNestedAttribute{Optional: true,
				Attributes:          resourceAttributes(diskShapeAttributes("IOPS", disk.DefaultIOPSShape)),
				MarkdownDescription: diskShapeDoc["iops_io"],
				Validators:          []validator.Object{objectvalidator.AlsoRequires(path.MatchRoot("required_iops"))}},
			"throughput_io": schema.SingleNestedAttribute{Optional: true,
				Attributes:          resourceAttributes(diskShapeAttributes("throughput", disk.DefaultThroughputShape)),
				MarkdownDescription: diskShapeDoc["throughput_io"],
				Validators:          []validator.Object{objectvalidator.AlsoRequires(path.MatchRoot("required_throughput_mbps"))}},
			"concurrent_requirements": schema.BoolAttribute{Optional: true,
				MarkdownDescription: "Whether `required_iops` and `required_throughput_mbps` must be met at the same time " +
					"(their demands add up); default false, as in `kubefit_disk_tier`."},
			"io": schema.SingleNestedAttribute{Optional: true, Attributes: ioAttrs,
				MarkdownDescription: "Access profile for `performance` and the requirement check, as in `kubefit_disk_tier`."},
			"node_instance_type": schema.StringAttribute{Optional: true,
				MarkdownDescription: "Instance type or VM size of the nodes the class's volumes attach to, from the driver's " +
					"cloud (`m5.large`, `Standard_D4s_v5`). With it, `performance` is capped by the node's disk limits (AWS " +
					"EBS-optimized limits; Azure uncached limits, and the cached ones for `caching_mode = \"ReadOnly\"`), " +
					"the requirement is checked against the node (`FIT-N1` burst-only, `FIT-N2` short), and " +
					"`performance.sustaining_instance_types` names the sizes of its family that sustain it. kubefit has no " +
					"per-VM disk limits for GCP and says so; on GCP it checks `gce_pd.type` against the machine series (`GPD-M1`, " +
					"`GPD-M2`, as in `kubefit_disk_tier`'s `instance_type`). Needs `expected_volume_size_gib`.",
				Validators: []validator.String{stringvalidator.LengthAtLeast(1),
					stringvalidator.AlsoRequires(path.MatchRoot("expected_volume_size_gib"))}},
			"fail_on_unmet": schema.BoolAttribute{Optional: true,
				MarkdownDescription: "Whether an unmet requirement fails the plan (default true); when false it is a warning."},

			"parameters": schema.MapAttribute{Computed: true, ElementType: types.StringType,
				MarkdownDescription: "The rendered `parameters` of the class: typed attributes, explicit defaults and `extra_parameters`."},
			"min_volume_size_gib": schema.Int64Attribute{Computed: true,
				MarkdownDescription: "Smallest PVC size for which the parameters are valid and not silently changed by " +
					"the driver (`SC-5`; for example gp3 with 6,000 IOPS: 12 GiB)."},
			"performance": schema.SingleNestedAttribute{Computed: true,
				MarkdownDescription: "Per-volume performance at `expected_volume_size_gib`; null without it or for a " +
					"type kubefit has no performance model for.",
				Attributes: performance},
			"manifest": schema.DynamicAttribute{Computed: true,
				MarkdownDescription: "The StorageClass as an object (apiVersion, kind, metadata, provisioner, parameters, " +
					"…) that `kubernetes_manifest` accepts as its `manifest` argument as it is."},
			"manifest_json": computedStr("The StorageClass as JSON (`jsondecode(...)` gives the same object as `manifest`)."),
			"yaml":          computedStr("The StorageClass as YAML, rendered from the typed `storage.k8s.io/v1` object."),
		},
	}
}

// storageClassKnown reports whether every input is known.
func storageClassKnown(m storageClassModel) bool {
	for _, v := range []attr.Value{m.Name, m.Driver, m.ReclaimPolicy, m.VolumeBindingMode, m.AllowVolumeExpansion,
		m.IsDefaultClass, m.MountOptions, m.AllowedTopologies, m.Labels, m.Annotations, m.EBS, m.AzureDisk, m.GCEPD,
		m.ExtraParameters, m.ExpectedVolumeSizeGiB, m.RequiredIOPS, m.RequiredThroughputMBps, m.IOPSIO, m.ThroughputIO,
		m.ConcurrentRequirements, m.IO, m.NodeInstanceType, m.FailOnUnmet} {
		if !fullyKnown(v) {
			return false
		}
	}
	return true
}

// storagePerformance evaluates the class's volume at the expected size, on node_instance_type when set, and
// checks the requirement.
func storagePerformance(ctx context.Context, cat sizing.Catalog, m storageClassModel, rc renderedClass, class disk.Class, rep disk.ClassReport, diags *diag.Diagnostics) types.Object {
	null := types.ObjectNull(storagePerformanceAttrTypes)
	if m.ExpectedVolumeSizeGiB.IsNull() {
		return null
	}
	size := m.ExpectedVolumeSizeGiB.ValueInt64()
	spec, err := disk.ClassVolumeSpec(class, size)
	if err != nil {
		if rep.Type == "" && (!m.RequiredIOPS.IsNull() || !m.RequiredThroughputMBps.IsNull()) {
			diags.AddAttributeWarning(path.Root("required_iops"), "Requirement Not Checked", err.Error())
		}
		return null
	}
	var access disk.Access
	if !m.IO.IsNull() {
		access = diskAccess(ctx, m.IO, diags)
	}
	req := diskRequirement(ctx, spec.Type, diskRequirementModel{IOPS: m.RequiredIOPS, Throughput: m.RequiredThroughputMBps,
		IOPSIO: m.IOPSIO, ThroughputIO: m.ThroughputIO, Concurrent: m.ConcurrentRequirements}, diags)
	node, ok := diskNodeLimits(ctx, cat, rc.driver.Cloud(), m.NodeInstanceType, path.Root("node_instance_type"), !req.IsZero(), diags)
	if !ok || diags.HasError() {
		return null
	}
	q := disk.Query{Spec: spec, Access: access, Requirement: req, Node: node.limits, Caching: disk.ClassCaching(class),
		Candidates: node.candidates, CandidateSet: node.candidateSet}
	r, err := disk.Evaluate(q)
	if err != nil {
		addDiskError(diags, err, rc.attribute)
		return null
	}
	failOnUnmet := m.FailOnUnmet.IsNull() || m.FailOnUnmet.ValueBool()
	for _, f := range findingsByConsequence(r.Findings) {
		if f.Rule == "AZC-5" {
			continue // CheckClass reported it on cachingMode at this size
		}
		rc.addFinding(f, failOnUnmet, diags)
	}
	v, u := r.Volume, r.Volume.ThroughputUnit()
	verdict, recSize, recTier := types.StringNull(), types.Int64Null(), types.StringNull()
	if !q.Requirement.IsZero() {
		verdict = types.StringValue(string(r.Verdict))
		if r.Recommendation != nil {
			recSize, recTier = types.Int64Value(r.Recommendation.Spec.SizeGiB), optString(r.Recommendation.Tier)
		}
	}
	return types.ObjectValueMust(storagePerformanceAttrTypes, map[string]attr.Value{
		"size_gib": types.Int64Value(size), "tier": optString(v.Tier), "billed_size_gib": types.Int64Value(v.BilledSizeGiB),
		"throughput_unit": types.StringValue(u.Name), "baseline_iops": types.Int64Value(v.BaseIOPS),
		"baseline_throughput_mbps": diskRate(float64(v.BaseBytesPerSec), u), "burst_iops": types.Int64Value(v.BurstIOPS),
		"burst_throughput_mbps": diskRate(float64(v.BurstBytesPerSec), u), "burst_duration_minutes": burstMinutes(v),
		"effective_iops": types.Float64Value(r.Effective.OpsPerSec), "effective_throughput_mbps": diskRate(r.Effective.BytesPerSec, u),
		"limited_by": types.StringValue(string(r.Effective.LimitedBy)), "verdict": verdict,
		"recommended_size_gib": recSize, "recommended_tier": recTier, "source": types.StringValue(r.Source),
		"demand": diskDemand(r), "instance": diskInstance(r.Node), "sustaining_instance_types": diskSustaining(r),
	})
}

// storageClassAttaches checks a GCE PD class's disk type against node_instance_type's machine series
// (disks.md §6.1): an error on the type when the series does not attach it, a warning when kubefit has no
// source for the series. It returns false after an error.
func storageClassAttaches(ctx context.Context, cat sizing.Catalog, m storageClassModel, rc renderedClass, rep disk.ClassReport, diags *diag.Diagnostics) bool {
	if rc.driver.Cloud() != catalog.GCP || m.NodeInstanceType.IsNull() || rep.TypeName == "" {
		return true
	}
	it, ok := lookupInstance(ctx, cat, path.Root("node_instance_type"), catalog.GCP, m.NodeInstanceType.ValueString(), diags)
	if !ok {
		return false
	}
	if f := disk.CheckGCPMachineDisk(it, rep.TypeName, disk.ParameterPath("type")); f != nil {
		rc.addFinding(f, true, diags)
	}
	return !diags.HasError()
}

// planStorageClass validates the class and fills every computed attribute. It returns false after an error.
func planStorageClass(ctx context.Context, cat sizing.Catalog, m *storageClassModel, diags *diag.Diagnostics) bool {
	rc, ok := renderParameters(ctx, *m, diags)
	if !ok {
		return false
	}
	class := disk.Class{Provisioner: m.Driver.ValueString(), Parameters: rc.params,
		VolumeBindingMode: m.VolumeBindingMode.ValueString()}
	if !m.ExpectedVolumeSizeGiB.IsNull() {
		class.SizesGiB = []int64{m.ExpectedVolumeSizeGiB.ValueInt64()}
	}
	rep := disk.CheckClass(class)
	for _, f := range findingsByConsequence(rep.Findings) {
		rc.addFinding(f, true, diags)
	}
	if diags.HasError() {
		return false
	}
	if !storageClassAttaches(ctx, cat, *m, rc, rep, diags) {
		return false
	}
	m.ID = m.Name
	params, d := types.MapValueFrom(ctx, types.StringType, rc.params)
	diags.Append(d...)
	m.Parameters = params
	m.MinVolumeSizeGiB = types.Int64Value(rep.MinSizeGiB)
	class.SizesGiB = nil
	m.Performance = storagePerformance(ctx, cat, *m, rc, class, rep, diags)
	sc := storageClassObject(ctx, *m, rc.params, diags)
	if sc == nil || diags.HasError() {
		return false
	}
	renderManifest(sc, m, diags)
	return !diags.HasError()
}

func (r *storageClassResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var m storageClassModel
	resp.Diagnostics.Append(configGet(ctx, req.Config, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if !m.Name.IsNull() && !m.Name.IsUnknown() {
		for _, msg := range validation.IsDNS1123Subdomain(m.Name.ValueString()) {
			resp.Diagnostics.AddAttributeError(path.Root("name"), "Invalid StorageClass Name", fmt.Sprintf("%q: %s", m.Name.ValueString(), msg))
		}
	}
	if fullyKnown(m.Labels) && !m.Labels.IsNull() {
		labels := map[string]string{}
		resp.Diagnostics.Append(m.Labels.ElementsAs(ctx, &labels, false)...)
		for _, k := range sortedKeys(labels) {
			for _, msg := range validation.IsQualifiedName(k) {
				resp.Diagnostics.AddAttributeError(path.Root("labels").AtMapKey(k), "Invalid Label Key", fmt.Sprintf("%q: %s", k, msg))
			}
			for _, msg := range validation.IsValidLabelValue(labels[k]) {
				resp.Diagnostics.AddAttributeError(path.Root("labels").AtMapKey(k), "Invalid Label Value", fmt.Sprintf("%q: %s", labels[k], msg))
			}
		}
	}
	if fullyKnown(m.Annotations) && !m.Annotations.IsNull() {
		annotations := map[string]string{}
		resp.Diagnostics.Append(m.Annotations.ElementsAs(ctx, &annotations, false)...)
		for _, e := range apivalidation.ValidateAnnotations(annotations, k8sfield.NewPath("annotations")) {
			resp.Diagnostics.AddAttributeError(path.Root("annotations"), "Invalid Annotation", e.Error())
		}
		if _, ok := annotations[manifest.DefaultClassAnnotation]; ok {
			resp.Diagnostics.AddAttributeError(path.Root("annotations").AtMapKey(manifest.DefaultClassAnnotation), "Use is_default_class",
				"set is_default_class instead of the "+manifest.DefaultClassAnnotation+" annotation, so the two cannot disagree")
		}
	}
	if fullyKnown(m.AllowedTopologies) && !m.AllowedTopologies.IsNull() {
		var terms []topologyTermModel
		resp.Diagnostics.Append(listElementsAs(ctx, m.AllowedTopologies, &terms, false)...)
		for i, t := range terms {
			for j, e := range t.MatchLabelExpressions {
				for _, msg := range validation.IsQualifiedName(e.Key.ValueString()) {
					resp.Diagnostics.AddAttributeError(path.Root("allowed_topologies").AtListIndex(i).AtName("match_label_expressions").
						AtListIndex(j).AtName("key"), "Invalid Topology Key", fmt.Sprintf("%q: %s", e.Key.ValueString(), msg))
				}
			}
		}
	}
	if !m.RequiredThroughputMBps.IsNull() && !m.RequiredThroughputMBps.IsUnknown() && m.ExpectedVolumeSizeGiB.IsNull() {
		resp.Diagnostics.AddAttributeError(path.Root("required_throughput_mbps"), "Missing Expected Volume Size",
			"required_throughput_mbps is checked at expected_volume_size_gib; set it.")
	}
}

func (r *storageClassResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		return
	}
	var m storageClassModel
	resp.Diagnostics.Append(planGet(ctx, req.Plan, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if !storageClassKnown(m) {
		checkPendingStorageClass(ctx, r.catalog(), m, &resp.Diagnostics)
		return
	}
	if planStorageClass(ctx, r.catalog(), &m, &resp.Diagnostics) {
		resp.Diagnostics.Append(resp.Plan.Set(ctx, &m)...)
	}
}

// checkPendingStorageClass checks the disk of a class whose metadata (name, labels, annotations, mount
// options, default-class flag) is not known yet: the disk rules do not read it, so a known bad disk still
// fails the plan. The metadata stands in as a placeholder name and nothing else; the plan keeps its
// unknown outputs.
func checkPendingStorageClass(ctx context.Context, cat sizing.Catalog, m storageClassModel, diags *diag.Diagnostics) {
	metadata := map[string]bool{}
	if !fullyKnown(m.Name) {
		m.Name, metadata["name"] = types.StringValue("kubefit-pending"), true
	}
	if !fullyKnown(m.Labels) {
		m.Labels, metadata["labels"] = types.MapNull(types.StringType), true
	}
	if !fullyKnown(m.Annotations) {
		m.Annotations, metadata["annotations"] = types.MapNull(types.StringType), true
	}
	if !fullyKnown(m.MountOptions) {
		m.MountOptions, metadata["mount_options"] = types.ListNull(types.StringType), true
	}
	if !fullyKnown(m.IsDefaultClass) {
		m.IsDefaultClass, metadata["is_default_class"] = types.BoolValue(false), true
	}
	if !fullyKnown(m.NodeInstanceType) {
		// The node caps the performance figures only; the disk is checked without it.
		m.NodeInstanceType, metadata["node_instance_type"] = types.StringNull(), true
	}
	if !storageClassKnown(m) {
		return
	}
	var found diag.Diagnostics
	planStorageClass(ctx, cat, &m, &found)
	diags.Append(withoutPending(found, topLevelIn(metadata))...)
}
