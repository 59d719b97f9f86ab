package provider

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	corev1 "k8s.io/api/core/v1"
	storagev1 "k8s.io/api/storage/v1"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/disk"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/manifest"
)

// driverBlocks names the typed parameter block of each CSI driver.
var driverBlocks = map[disk.Driver]string{disk.EBSDriver: "ebs", disk.AzureDiskDriver: "azure_disk", disk.GCEPDDriver: "gce_pd"}

// typedKeyPaths maps each driver's parameter keys (lower-cased) to the typed attribute that sets them.
var typedKeyPaths = map[disk.Driver]map[string]path.Path{
	disk.EBSDriver: {
		"type": path.Root("ebs").AtName("type"), "iops": path.Root("ebs").AtName("iops"),
		"iopspergb":                  path.Root("ebs").AtName("iops_per_gb"),
		"allowautoiopspergbincrease": path.Root("ebs").AtName("allow_auto_iops_per_gb_increase"),
		"throughput":                 path.Root("ebs").AtName("throughput"), "encrypted": path.Root("ebs").AtName("encrypted"),
		"kmskeyid": path.Root("ebs").AtName("kms_key_id"), "csi.storage.k8s.io/fstype": path.Root("ebs").AtName("fs_type"),
		"blocksize": path.Root("ebs").AtName("block_size"),
	},
	disk.AzureDiskDriver: {
		"skuname": path.Root("azure_disk").AtName("sku_name"), "cachingmode": path.Root("azure_disk").AtName("caching_mode"),
		"diskiopsreadwrite":   path.Root("azure_disk").AtName("disk_iops_read_write"),
		"diskmbpsreadwrite":   path.Root("azure_disk").AtName("disk_mbps_read_write"),
		"enablebursting":      path.Root("azure_disk").AtName("enable_bursting"),
		"networkaccesspolicy": path.Root("azure_disk").AtName("network_access_policy"),
		"logicalsectorsize":   path.Root("azure_disk").AtName("logical_sector_size"),
	},
	disk.GCEPDDriver: {
		"type":                             path.Root("gce_pd").AtName("type"),
		"provisioned-iops-on-create":       path.Root("gce_pd").AtName("provisioned_iops_on_create"),
		"provisioned-throughput-on-create": path.Root("gce_pd").AtName("provisioned_throughput_on_create"),
	},
}

// typedField maps the planner's volume fields (disk.Spec's field names) to the driver's parameter keys.
var typedField = map[disk.Driver]map[string]string{
	disk.EBSDriver: {"Type": "type", "IOPS": "iops", "Throughput": "throughput"},
	disk.AzureDiskDriver: {"Type": "skuname", "IOPS": "diskiopsreadwrite", "Throughput": "diskmbpsreadwrite",
		"Bursting": "enablebursting", "PerformancePlus": "enableperformanceplus"},
	disk.GCEPDDriver: {"Type": "type", "IOPS": "provisioned-iops-on-create", "Throughput": "provisioned-throughput-on-create"},
}

// storageClassRenames maps the names of disk.Class and disk.Query fields that are not parameters to this
// resource's attributes.
var storageClassRenames = renames{
	"Provisioner":             "driver",
	"Access":                  "io",
	"BlockSize":               "block_size_kib",
	"Latency":                 "latency_ms",
	"Requirement":             "",
	"Requirement.IOPS":        "required_iops",
	"Requirement.BytesPerSec": "required_throughput_mbps",
	"IOPSShape":               "iops_io",
	"ThroughputShape":         "throughput_io",
	"Node":                    "node_instance_type",
}

// renderedClass is a class's parameters with the attribute each key came from.
type renderedClass struct {
	driver disk.Driver
	params map[string]string
	paths  map[string]path.Path // lower-cased key → attribute
}

// attribute maps a path of the disk planner (a disk.Class or disk.Query path) to the attribute it is
// about: a parameter to the attribute that set its key, a PVC size to expected_volume_size_gib, a volume
// field to the typed attribute of its parameter, anything else through storageClassRenames.
func (rc renderedClass) attribute(p field.Path) path.Path {
	steps := p.Steps()
	if len(steps) == 0 || steps[0].Kind != field.Name {
		return path.Empty()
	}
	switch steps[0].Name {
	case "Parameters":
		if len(steps) == 2 && steps[1].Kind == field.Key {
			return rc.keyPath(steps[1].Key)
		}
		return path.Empty()
	case "SizesGiB":
		return path.Root("expected_volume_size_gib")
	case "Caching":
		return rc.keyPath("cachingMode")
	case "Spec":
		if len(steps) != 2 {
			return path.Empty()
		}
		if steps[1].Name == "SizeGiB" {
			return path.Root("expected_volume_size_gib")
		}
		if k, ok := typedField[rc.driver][steps[1].Name]; ok {
			return rc.keyPath(k)
		}
		return path.Empty()
	}
	return attributePath(path.Empty(), p, storageClassRenames)
}

func (rc renderedClass) keyPath(key string) path.Path {
	lk := strings.ToLower(key)
	if p, ok := rc.paths[lk]; ok {
		return p
	}
	if p, ok := typedKeyPaths[rc.driver][lk]; ok {
		return p
	}
	return path.Root("extra_parameters").AtMapKey(key)
}

// addFinding reports a planner finding at the attribute it is about.
func (rc renderedClass) addFinding(f *disk.Finding, failOnUnmet bool, diags *diag.Diagnostics) {
	addDiskFinding(diags, f, rc.attribute(f.Path), failOnUnmet)
}

// renderParameters builds the class's parameter map from the typed block of its driver, the explicit
// defaults (SC-3, AZC-1) and extra_parameters, reporting a block that does not belong to the driver and a
// key set twice.
func renderParameters(ctx context.Context, m storageClassModel, diags *diag.Diagnostics) (renderedClass, bool) {
	d, _, err := disk.ParseProvisioner(m.Driver.ValueString())
	if err != nil {
		diags.AddAttributeError(path.Root("driver"), "Invalid Provisioner", err.Error())
		return renderedClass{}, false
	}
	rc := renderedClass{driver: d, params: map[string]string{}, paths: map[string]path.Path{}}
	blocks := map[string]types.Object{"ebs": m.EBS, "azure_disk": m.AzureDisk, "gce_pd": m.GCEPD}
	for _, name := range sortedKeys(blocks) {
		if o := blocks[name]; !o.IsNull() && name != driverBlocks[d] {
			diags.AddAttributeError(path.Root(name), "Parameter Block Does Not Match the Driver",
				fmt.Sprintf("%s holds parameters for another CSI driver; driver %q takes the %s block.", name, m.Driver.ValueString(), driverBlocks[d]))
		}
	}
	if blocks[driverBlocks[d]].IsNull() {
		diags.AddAttributeError(path.Root(driverBlocks[d]), "Missing Parameter Block",
			fmt.Sprintf("driver %q needs the %s block with the disk type, which kubefit always emits explicitly (rule SC-3: "+
				"the drivers' defaults differ and have changed over time).", m.Driver.ValueString(), driverBlocks[d]))
	}
	if diags.HasError() {
		return rc, false
	}
	set := func(key string, v attr.Value) {
		var s string
		switch t := v.(type) {
		case types.String:
			if t.IsNull() {
				return
			}
			s = t.ValueString()
		case types.Int64:
			if t.IsNull() {
				return
			}
			s = strconv.FormatInt(t.ValueInt64(), 10)
		case types.Bool:
			if t.IsNull() {
				return
			}
			s = strconv.FormatBool(t.ValueBool())
		}
		rc.params[key] = s
		rc.paths[strings.ToLower(key)] = typedKeyPaths[d][strings.ToLower(key)]
	}
	opts := basetypes.ObjectAsOptions{}
	switch d {
	case disk.EBSDriver:
		var e ebsParametersModel
		diags.Append(m.EBS.As(ctx, &e, opts)...)
		set("type", e.Type)
		set("iops", e.IOPS)
		set("iopsPerGB", e.IOPSPerGB)
		set("allowAutoIOPSPerGBIncrease", e.AllowAutoIOPSPerGBIncrease)
		set("throughput", e.Throughput)
		set("encrypted", e.Encrypted)
		set("kmsKeyId", e.KMSKeyID)
		set("csi.storage.k8s.io/fstype", e.FSType)
		set("blockSize", e.BlockSize)
	case disk.AzureDiskDriver:
		var a azureDiskParametersModel
		diags.Append(m.AzureDisk.As(ctx, &a, opts)...)
		set("skuName", a.SKUName)
		set("cachingMode", a.CachingMode)
		set("DiskIOPSReadWrite", a.DiskIOPSReadWrite)
		set("DiskMBpsReadWrite", a.DiskMBpsReadWrite)
		set("enableBursting", a.EnableBursting)
		set("networkAccessPolicy", a.NetworkAccessPolicy)
		set("LogicalSectorSize", a.LogicalSectorSize)
	case disk.GCEPDDriver:
		var g gcePDParametersModel
		diags.Append(m.GCEPD.As(ctx, &g, opts)...)
		set("type", g.Type)
		set("provisioned-iops-on-create", g.ProvisionedIOPSOnCreate)
		if !g.ProvisionedThroughputOnCreate.IsNull() {
			set("provisioned-throughput-on-create", types.StringValue(fmt.Sprintf("%dMi", g.ProvisionedThroughputOnCreate.ValueInt64())))
		}
	}
	extra := map[string]string{}
	diags.Append(m.ExtraParameters.ElementsAs(ctx, &extra, false)...)
	for _, k := range sortedKeys(extra) {
		for _, typed := range sortedKeys(rc.params) {
			if strings.EqualFold(typed, k) {
				diags.AddAttributeError(path.Root("extra_parameters").AtMapKey(k), "Parameter Set Twice",
					fmt.Sprintf("%s is already set by %s; parameter keys are case-insensitive, so remove it from extra_parameters.",
						k, rc.paths[strings.ToLower(typed)]))
			}
		}
		if diags.HasError() {
			continue
		}
		rc.params[k] = extra[k]
		rc.paths[strings.ToLower(k)] = path.Root("extra_parameters").AtMapKey(k)
	}
	for k, v := range disk.DefaultParameters(d, rc.params) {
		rc.params[k] = v
	}
	return rc, !diags.HasError()
}

// storageClassObject expands the model into the planner's StorageClass and builds the typed object,
// reporting invalid values at their attributes. It returns nil after an error.
func storageClassObject(ctx context.Context, m storageClassModel, params map[string]string, diags *diag.Diagnostics) *storagev1.StorageClass {
	spec := manifest.StorageClassSpec{
		Name: m.Name.ValueString(), Provisioner: m.Driver.ValueString(), Parameters: params,
		ReclaimPolicy:        corev1.PersistentVolumeReclaimPolicy(m.ReclaimPolicy.ValueString()),
		VolumeBindingMode:    storagev1.VolumeBindingMode(m.VolumeBindingMode.ValueString()),
		AllowVolumeExpansion: m.AllowVolumeExpansion.ValueBool(), IsDefaultClass: m.IsDefaultClass.ValueBool(),
	}
	diags.Append(m.Labels.ElementsAs(ctx, &spec.Labels, false)...)
	diags.Append(m.Annotations.ElementsAs(ctx, &spec.Annotations, false)...)
	diags.Append(listElementsAs(ctx, m.MountOptions, &spec.MountOptions, false)...)
	var terms []topologyTermModel
	diags.Append(listElementsAs(ctx, m.AllowedTopologies, &terms, false)...)
	for _, t := range terms {
		var term manifest.TopologyTerm
		for _, e := range t.MatchLabelExpressions {
			req := manifest.TopologyRequirement{Key: e.Key.ValueString()}
			for _, v := range e.Values {
				req.Values = append(req.Values, v.ValueString())
			}
			term.MatchLabelExpressions = append(term.MatchLabelExpressions, req)
		}
		spec.AllowedTopologies = append(spec.AllowedTopologies, term)
	}
	if diags.HasError() {
		return nil
	}
	sc, err := manifest.StorageClass(spec)
	if addPlannerErrors(diags, path.Empty(), err, storageClassRenames, "Invalid StorageClass") {
		return nil
	}
	return sc
}

// renderManifest sets manifest, manifest_json and yaml from the rendered object.
func renderManifest(sc *storagev1.StorageClass, m *storageClassModel, diags *diag.Diagnostics) {
	r, err := manifest.Render(sc)
	if err != nil {
		diags.AddError("Rendering StorageClass", err.Error())
		return
	}
	obj, err := dynamicValue(r.Object, false)
	if err != nil {
		diags.AddError("Rendering StorageClass", err.Error())
		return
	}
	m.Manifest = types.DynamicValue(obj)
	m.ManifestJSON = types.StringValue(r.JSON)
	m.YAML = types.StringValue(r.YAML)
}
