package provider

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	fwresource "github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	storagev1 "k8s.io/api/storage/v1"
	"sigs.k8s.io/yaml"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/sizing"
)

const scAddr = "kubefit_storage_class.test"

// storageClass renders a kubefit_storage_class block named "test".
func storageClass(attrs string) string {
	return fmt.Sprintf("resource \"kubefit_storage_class\" \"test\" {\n%s\n}\n", attrs)
}

func expectSC(p tfjsonpath.Path, v knownvalue.Check) statecheck.StateCheck {
	return statecheck.ExpectKnownValue(scAddr, p, v)
}

// strictStorageClass decodes YAML strictly (unknown or duplicate fields fail) into the Kubernetes
// StorageClass type and checks a few fields.
type strictStorageClass struct {
	provisioner, reclaim string
	params               map[string]string
}

func (c strictStorageClass) CheckValue(v any) error {
	s, ok := v.(string)
	if !ok {
		return fmt.Errorf("expected a string, got %T", v)
	}
	var sc storagev1.StorageClass
	if err := yaml.UnmarshalStrict([]byte(s), &sc); err != nil {
		return fmt.Errorf("strict decoding into storage.k8s.io/v1 StorageClass: %w\n%s", err, s)
	}
	if sc.APIVersion != "storage.k8s.io/v1" || sc.Kind != "StorageClass" || sc.Provisioner != c.provisioner ||
		sc.ReclaimPolicy == nil || string(*sc.ReclaimPolicy) != c.reclaim {
		return fmt.Errorf("decoded %+v, want provisioner %s, reclaim policy %s", sc, c.provisioner, c.reclaim)
	}
	for k, want := range c.params {
		if sc.Parameters[k] != want {
			return fmt.Errorf("parameter %s = %q, want %q (all: %v)", k, sc.Parameters[k], want, sc.Parameters)
		}
	}
	return nil
}

func (c strictStorageClass) String() string { return "strict StorageClass YAML" }

const fieldReportClass = `name           = "premium-retain"
driver         = "disk.csi.azure.com"
reclaim_policy = "Retain"
azure_disk = {
  sku_name     = "Premium_LRS"
  caching_mode = "None"
}`

// TestAccStorageClass_fieldReport renders the field report's class (field-reports.md §1): Azure Premium,
// Retain, caching None. The YAML decodes strictly into storagev1.StorageClass, `manifest` is the same
// object jsondecode(manifest_json) gives (what kubernetes_manifest takes), a second plan is empty, and a
// change re-renders in place. At 256 GiB a volume is a P15 (1,100 IOPS, 125 MB/s); at 512 GiB a P20.
func TestAccStorageClass_fieldReport(t *testing.T) {
	outputs := `
output "same_object" {
  value = jsondecode(kubefit_storage_class.test.manifest_json) == kubefit_storage_class.test.manifest
}
`
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: storageClass(fieldReportClass+"\nexpected_volume_size_gib = 256") + outputs,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(scAddr, plancheck.ResourceActionCreate),
						plancheck.ExpectKnownValue(scAddr, tfjsonpath.New("yaml"), strictStorageClass{
							"disk.csi.azure.com", "Retain", map[string]string{"skuName": "Premium_LRS", "cachingMode": "None"}}),
						plancheck.ExpectKnownValue(scAddr, tfjsonpath.New("performance").AtMapKey("tier"), knownvalue.StringExact("P15")),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					expectSC(tfjsonpath.New("id"), knownvalue.StringExact("premium-retain")),
					expectSC(tfjsonpath.New("yaml"), strictStorageClass{"disk.csi.azure.com", "Retain",
						map[string]string{"skuName": "Premium_LRS", "cachingMode": "None"}}),
					expectSC(tfjsonpath.New("manifest"), knownvalue.ObjectExact(map[string]knownvalue.Check{
						"apiVersion":           knownvalue.StringExact("storage.k8s.io/v1"),
						"kind":                 knownvalue.StringExact("StorageClass"),
						"metadata":             knownvalue.ObjectExact(map[string]knownvalue.Check{"name": knownvalue.StringExact("premium-retain")}),
						"provisioner":          knownvalue.StringExact("disk.csi.azure.com"),
						"reclaimPolicy":        knownvalue.StringExact("Retain"),
						"volumeBindingMode":    knownvalue.StringExact("WaitForFirstConsumer"),
						"allowVolumeExpansion": knownvalue.Bool(true),
						"parameters": knownvalue.ObjectExact(map[string]knownvalue.Check{
							"skuName": knownvalue.StringExact("Premium_LRS"), "cachingMode": knownvalue.StringExact("None")}),
					})),
					expectSC(tfjsonpath.New("performance"), knownvalue.ObjectPartial(map[string]knownvalue.Check{
						"tier": knownvalue.StringExact("P15"), "baseline_iops": knownvalue.Int64Exact(1100),
						"baseline_throughput_mbps": knownvalue.Float64Exact(125), "throughput_unit": knownvalue.StringExact("MB/s"),
						"billed_size_gib": knownvalue.Int64Exact(256), "verdict": knownvalue.Null(),
					})),
					expectSC(tfjsonpath.New("min_volume_size_gib"), knownvalue.Int64Exact(1)),
					statecheck.ExpectKnownOutputValue("same_object", knownvalue.Bool(true)),
				},
			},
			{
				Config: storageClass(strings.Replace(fieldReportClass, `"Retain"`, `"Delete"`, 1)+
					"\nexpected_volume_size_gib = 512\nis_default_class = true\nmount_options = [\"noatime\"]\nlabels = { team = \"data\" }") + outputs,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(scAddr, plancheck.ResourceActionUpdate),
						plancheck.ExpectKnownValue(scAddr, tfjsonpath.New("yaml"), knownvalue.StringRegexp(
							regexp.MustCompile(`storageclass.kubernetes.io/is-default-class: "true"`))),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					expectSC(tfjsonpath.New("yaml"), strictStorageClass{"disk.csi.azure.com", "Delete", nil}),
					expectSC(tfjsonpath.New("yaml"), knownvalue.StringRegexp(regexp.MustCompile(`(?s)mountOptions:\n- noatime\n.*reclaimPolicy: Delete`))),
					expectSC(tfjsonpath.New("performance").AtMapKey("tier"), knownvalue.StringExact("P20")),
					expectSC(tfjsonpath.New("performance").AtMapKey("baseline_iops"), knownvalue.Int64Exact(2300)),
					expectSC(tfjsonpath.New("manifest").AtMapKey("metadata").AtMapKey("labels").AtMapKey("team"), knownvalue.StringExact("data")),
					statecheck.ExpectKnownOutputValue("same_object", knownvalue.Bool(true)),
				},
			},
		},
	})
}

// TestAccStorageClass_gp3 renders the §8.2 example class: gp3 6,000 IOPS / 500 MiB/s is valid from
// 12 GiB (6,000 / 500); every performance parameter is explicit. At 20 GiB a volume has 6,000 IOPS
// and 500 MiB/s; 1,000 IOPS of 16 KiB pass (queue depth 4 at 1 ms allows 4,000).
func TestAccStorageClass_gp3(t *testing.T) {
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: storageClass(`name = "kubefit-gp3-6000-500"
driver = "ebs.csi.aws.com"
ebs = { type = "gp3", iops = 6000, throughput = 500, encrypted = true, fs_type = "xfs" }
allowed_topologies = [{ match_label_expressions = [{ key = "topology.kubernetes.io/zone", values = ["eu-west-1a"] }] }]
expected_volume_size_gib = 20
required_iops = 1000
io = { queue_depth = 4, latency_ms = 1 }`),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
			},
			ConfigStateChecks: []statecheck.StateCheck{
				expectSC(tfjsonpath.New("min_volume_size_gib"), knownvalue.Int64Exact(12)),
				expectSC(tfjsonpath.New("parameters"), knownvalue.MapExact(map[string]knownvalue.Check{
					"type": knownvalue.StringExact("gp3"), "iops": knownvalue.StringExact("6000"),
					"throughput": knownvalue.StringExact("500"), "encrypted": knownvalue.StringExact("true"),
					"csi.storage.k8s.io/fstype": knownvalue.StringExact("xfs"),
				})),
				expectSC(tfjsonpath.New("yaml"), strictStorageClass{"ebs.csi.aws.com", "Delete", map[string]string{"iops": "6000"}}),
				expectSC(tfjsonpath.New("manifest").AtMapKey("allowedTopologies").AtSliceIndex(0).AtMapKey("matchLabelExpressions").
					AtSliceIndex(0).AtMapKey("key"), knownvalue.StringExact("topology.kubernetes.io/zone")),
				expectSC(tfjsonpath.New("performance"), knownvalue.ObjectPartial(map[string]knownvalue.Check{
					"tier": knownvalue.Null(), "baseline_iops": knownvalue.Int64Exact(6000),
					"baseline_throughput_mbps": knownvalue.Float64Exact(500), "throughput_unit": knownvalue.StringExact("MiB/s"),
					"verdict": knownvalue.StringExact("pass"), "recommended_size_gib": knownvalue.Int64Exact(20),
				})),
			},
		}},
	})
}

// TestAccStorageClass_defaults: explicit defaults (SC-3, AZC-1): gp3 gets iops 3000 and throughput 125;
// an Azure class gets cachingMode None; PremiumV2_LRS gets 3000 / 125. GCE throughput carries its unit.
func TestAccStorageClass_defaults(t *testing.T) {
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: storageClass(`name = "gp3"
driver = "ebs.csi.aws.com"
ebs = { type = "gp3" }`),
				ConfigStateChecks: []statecheck.StateCheck{
					expectSC(tfjsonpath.New("parameters"), knownvalue.MapExact(map[string]knownvalue.Check{
						"type": knownvalue.StringExact("gp3"), "iops": knownvalue.StringExact("3000"), "throughput": knownvalue.StringExact("125"),
					})),
				},
			},
			{
				Config: storageClass(`name = "pv2"
driver = "disk.csi.azure.com"
azure_disk = { sku_name = "PremiumV2_LRS" }
expected_volume_size_gib = 100`),
				ConfigStateChecks: []statecheck.StateCheck{
					expectSC(tfjsonpath.New("parameters"), knownvalue.MapExact(map[string]knownvalue.Check{
						"skuName": knownvalue.StringExact("PremiumV2_LRS"), "cachingMode": knownvalue.StringExact("None"),
						"DiskIOPSReadWrite": knownvalue.StringExact("3000"), "DiskMBpsReadWrite": knownvalue.StringExact("125"),
					})),
					expectSC(tfjsonpath.New("performance").AtMapKey("baseline_iops"), knownvalue.Int64Exact(3000)),
				},
			},
			{
				Config: storageClass(`name = "hyperdisk"
driver = "pd.csi.storage.gke.io"
gce_pd = { type = "hyperdisk-balanced", provisioned_iops_on_create = 6000, provisioned_throughput_on_create = 250 }
extra_parameters = { "replication-type" = "none" }
expected_volume_size_gib = 12`),
				ConfigStateChecks: []statecheck.StateCheck{
					expectSC(tfjsonpath.New("parameters").AtMapKey("provisioned-throughput-on-create"), knownvalue.StringExact("250Mi")),
					expectSC(tfjsonpath.New("min_volume_size_gib"), knownvalue.Int64Exact(12)),
					expectSC(tfjsonpath.New("performance").AtMapKey("baseline_throughput_mbps"), knownvalue.Float64Exact(250)),
				},
			},
			{ // The in-tree name is accepted (with a warning) and rendered as given.
				Config: storageClass(`name = "legacy"
driver = "kubernetes.io/azure-disk"
azure_disk = { sku_name = "StandardSSD_LRS" }`),
				ConfigStateChecks: []statecheck.StateCheck{
					expectSC(tfjsonpath.New("manifest").AtMapKey("provisioner"), knownvalue.StringExact("kubernetes.io/azure-disk")),
				},
			},
		},
	})
}

// TestAccStorageClass_rejections checks each rule the issue names, on the attribute at fault.
func TestAccStorageClass_rejections(t *testing.T) {
	ebs := func(block, extra string) string {
		return storageClass("name = \"x\"\ndriver = \"ebs.csi.aws.com\"\nebs = " + block + "\n" + extra)
	}
	azure := func(block, extra string) string {
		return storageClass("name = \"x\"\ndriver = \"disk.csi.azure.com\"\nazure_disk = " + block + "\n" + extra)
	}
	steps := []resource.TestStep{
		// gp3 16,000 IOPS on a 20 GiB PVC is 800 IOPS per GiB (EBS-V4, 500:1).
		{Config: ebs(`{ type = "gp3", iops = 16000 }`, "expected_volume_size_gib = 20"),
			ExpectError: errRe("EBS-V4:", "gp3", "iops", "16,000", "on", "a", "20", "GiB", "PVC", "is", "800", "IOPS", "per", "GiB")},
		// gp3 throughput 1,000 MiB/s with 3,000 IOPS: 0.333 MiB/s per IOPS (EBS-V5, 0.25).
		{Config: ebs(`{ type = "gp3", iops = 3000, throughput = 1000 }`, ""),
			ExpectError: errRe("EBS-V5:", "gp3", "throughput", "1,000", "MiB/s", "with", "3,000", "IOPS", "is", "0.333333")},
		{Config: ebs(`{ type = "io2", iops = 30000 }`, "expected_volume_size_gib = 20"),
			ExpectError: errRe("EBS-V7:", "io2", "iops", "30,000")},
		{Config: ebs(`{ type = "io2", iops = 3000, iops_per_gb = 10 }`, ""), ExpectError: errRe("EBS-V2:")},
		{Config: ebs(`{ type = "gp2", iops = 3000 }`, ""), ExpectError: errRe("EBS-V3:")},
		{Config: ebs(`{ type = "gp4" }`, ""), ExpectError: errRe("EBS-V1:", "type", "must", "be", "one", "of")},
		{Config: ebs(`{ type = "gp3" }`, `extra_parameters = { iopsPerGiB = "10" }`), ExpectError: errRe("EBS-V10:", "unknown")},
		{Config: ebs(`{ type = "gp3" }`, `extra_parameters = { "csi.storage.k8s.io/fs" = "xfs" }`), ExpectError: errRe("SC-4:")},
		{Config: ebs(`{ type = "gp3", iops = 4000 }`, `extra_parameters = { IOPS = "5000" }`), ExpectError: errRe("Parameter", "Set", "Twice")},
		// Caching must be None on Premium SSD v2 and Ultra (AZD-V3).
		{Config: azure(`{ sku_name = "PremiumV2_LRS", caching_mode = "ReadOnly" }`, ""),
			ExpectError: errRe("AZD-V3:", "PremiumV2_LRS", "allows", "only", "cachingMode", "None")},
		{Config: azure(`{ sku_name = "UltraSSD_LRS", caching_mode = "ReadOnly", disk_iops_read_write = 2000, disk_mbps_read_write = 100 }`, ""),
			ExpectError: errRe("AZD-V3:", "UltraSSD_LRS")},
		{Config: azure(`{ sku_name = "Premium_LRS", caching_mode = "ReadWrite" }`, ""),
			ExpectError: errRe("AZD-V2:", "cachingMode", "ReadWrite", "is", "rejected")},
		// IOPS/MB/s only for PremiumV2_LRS and UltraSSD_LRS (AZD-V4).
		{Config: azure(`{ sku_name = "Premium_LRS", disk_iops_read_write = 5000 }`, ""),
			ExpectError: errRe("AZD-V4:", "DiskIOPSReadWrite", "applies", "only", "to", "UltraSSD_LRS", "and", "PremiumV2_LRS")},
		{Config: azure(`{ sku_name = "premium_lrs" }`, ""), ExpectError: errRe("AZD-V1:", "skuName", `"premium_lrs"`)},
		{Config: azure(`{ sku_name = "Premium_LRS", enable_bursting = true }`, "expected_volume_size_gib = 256"),
			ExpectError: errRe("AZD-V8:", "enableBursting", "needs", "a", "Premium", "disk", "larger", "than", "512", "GiB")},
		{Config: storageClass("name = \"x\"\ndriver = \"pd.csi.storage.gke.io\"\ngce_pd = { type = \"pd-balanced\", provisioned_iops_on_create = 5000 }"),
			ExpectError: errRe("GPD-V3:")},
		{Config: storageClass("name = \"x\"\ndriver = \"pd.csi.storage.gke.io\"\ngce_pd = { type = \"pd-fast\" }"), ExpectError: errRe("GPD-V7:")},
		{Config: storageClass("name = \"x\"\ndriver = \"ebs.csi.aws.com\"\nazure_disk = { sku_name = \"Premium_LRS\" }"),
			ExpectError: errRe("Parameter", "Block", "Does", "Not", "Match", "the", "Driver")},
		{Config: storageClass("name = \"Not_A_Name\"\ndriver = \"ebs.csi.aws.com\"\nebs = { type = \"gp3\" }"),
			ExpectError: errRe("Invalid", "StorageClass", "Name")},
		// 5,000 IOPS at 256 GiB: no Premium tier up to P20 sustains it, P30 does, so the 256 GiB class warns;
		// 50,000 IOPS exceeds every Premium tier, even with on-demand bursting.
		{Config: azure(`{ sku_name = "Premium_LRS" }`, "expected_volume_size_gib = 1024\nrequired_iops = 50000\nio = { queue_depth = 128, latency_ms = 1 }"),
			ExpectError: errRe("FIT-V2:", "no", "size", "of", "Premium_LRS")},
		// The last step is valid, so the test ends on a successful apply.
		{Config: azure(`{ sku_name = "Premium_LRS" }`, "expected_volume_size_gib = 1024\nrequired_iops = 50000\nio = { queue_depth = 128, latency_ms = 1 }\nfail_on_unmet = false"),
			ConfigStateChecks: []statecheck.StateCheck{
				expectSC(tfjsonpath.New("performance").AtMapKey("verdict"), knownvalue.StringExact("fail")),
			}},
	}
	resource.UnitTest(t, resource.TestCase{ProtoV6ProviderFactories: testAccProtoV6ProviderFactories, Steps: steps})
}

// TestAccStorageClass_unknownInputs: values known only after apply give no false errors at plan time
// and render once known; a second plan is empty.
func TestAccStorageClass_unknownInputs(t *testing.T) {
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: `resource "terraform_data" "iops" {
  input = 6000
}
` + storageClass(`name = "late"
driver = "ebs.csi.aws.com"
ebs = { type = "gp3", iops = terraform_data.iops.output, throughput = 500 }
labels = { iops = tostring(terraform_data.iops.output) }
expected_volume_size_gib = 20`),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{
					plancheck.ExpectUnknownValue(scAddr, tfjsonpath.New("manifest")),
					plancheck.ExpectUnknownValue(scAddr, tfjsonpath.New("yaml")),
				},
				PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
			},
			ConfigStateChecks: []statecheck.StateCheck{
				expectSC(tfjsonpath.New("parameters").AtMapKey("iops"), knownvalue.StringExact("6000")),
				expectSC(tfjsonpath.New("min_volume_size_gib"), knownvalue.Int64Exact(12)),
				expectSC(tfjsonpath.New("yaml"), strictStorageClass{"ebs.csi.aws.com", "Delete", map[string]string{"iops": "6000"}}),
			},
		}},
	})
}

// TestAccStorageClass_example applies the documentation example.
func TestAccStorageClass_example(t *testing.T) {
	src, err := os.ReadFile("../../examples/resources/kubefit_storage_class/resource.tf")
	if err != nil {
		t.Fatal(err)
	}
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: string(src),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
			},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownOutputValue("gp3_min_pvc_gib", knownvalue.Int64Exact(12)),
				statecheck.ExpectKnownOutputValue("premium_retain_limited_by", knownvalue.StringExact("tier")),
				statecheck.ExpectKnownOutputValue("premium_retain_yaml", strictStorageClass{"disk.csi.azure.com", "Retain",
					map[string]string{"cachingMode": "None"}}),
			},
		}},
	})
}

// TestStorageClassManifest renders the field report's class without Terraform and decodes the YAML
// strictly into the Kubernetes type; the JSON must decode to the same object.
func TestStorageClassManifest(t *testing.T) {
	ctx := context.Background()
	m := storageClassModel{
		Name: types.StringValue("premium-retain"), Driver: types.StringValue("disk.csi.azure.com"),
		ReclaimPolicy: types.StringValue("Retain"), VolumeBindingMode: types.StringValue("WaitForFirstConsumer"),
		AllowVolumeExpansion: types.BoolValue(true), IsDefaultClass: types.BoolValue(false),
		MountOptions: types.ListNull(types.StringType), AllowedTopologies: types.ListNull(types.ObjectType{}),
		Labels: types.MapNull(types.StringType), Annotations: types.MapNull(types.StringType),
		ExtraParameters: types.MapNull(types.StringType),
	}
	var diags diag.Diagnostics
	sc := storageClassObject(ctx, m, map[string]string{"skuName": "Premium_LRS", "cachingMode": "None"}, &diags)
	renderManifest(sc, &m, &diags)
	if diags.HasError() {
		t.Fatal(diags)
	}
	if err := (strictStorageClass{"disk.csi.azure.com", "Retain", map[string]string{"cachingMode": "None"}}).CheckValue(m.YAML.ValueString()); err != nil {
		t.Fatal(err)
	}
	var fromJSON storagev1.StorageClass
	if err := yaml.UnmarshalStrict([]byte(m.ManifestJSON.ValueString()), &fromJSON); err != nil {
		t.Fatal(err)
	}
	if fromJSON.Name != "premium-retain" || fromJSON.Parameters["skuName"] != "Premium_LRS" {
		t.Errorf("JSON decodes to %+v", fromJSON)
	}
	if m.Manifest.IsNull() || m.Manifest.IsUnknown() {
		t.Error("manifest not set")
	}
}

// TestStorageClassDiagnosticsDeterministic: the same invalid class gives the same diagnostics in the same
// order on 50 plans, although its parameters are maps.
func TestStorageClassDiagnosticsDeterministic(t *testing.T) {
	ctx := context.Background()
	var sresp fwresource.SchemaResponse
	(&storageClassResource{}).Schema(ctx, fwresource.SchemaRequest{}, &sresp)
	azType := sresp.Schema.Attributes["azure_disk"].GetType().(types.ObjectType)
	az, d := types.ObjectValueFrom(ctx, azType.AttrTypes, azureDiskParametersModel{
		SKUName: types.StringValue("PremiumV2_LRS"), CachingMode: types.StringValue("ReadOnly"),
		DiskIOPSReadWrite: types.Int64Value(100), DiskMBpsReadWrite: types.Int64Null(),
		EnableBursting: types.BoolValue(true), NetworkAccessPolicy: types.StringNull(), LogicalSectorSize: types.Int64Null(),
	})
	if d.HasError() {
		t.Fatal(d)
	}
	extra, d := types.MapValueFrom(ctx, types.StringType, map[string]string{"zeta": "1", "alpha": "2", "mid": "3",
		"csi.storage.k8s.io/fs": "xfs", "maxShares": "0"})
	if d.HasError() {
		t.Fatal(d)
	}
	m := storageClassModel{
		Name: types.StringValue("pv2"), Driver: types.StringValue("disk.csi.azure.com"),
		ReclaimPolicy: types.StringValue("Delete"), VolumeBindingMode: types.StringValue("Immediate"),
		AllowVolumeExpansion: types.BoolValue(true), IsDefaultClass: types.BoolValue(false),
		MountOptions: types.ListNull(types.StringType), AllowedTopologies: types.ListNull(types.ObjectType{}),
		Labels: types.MapNull(types.StringType), Annotations: types.MapNull(types.StringType),
		AzureDisk: az, EBS: types.ObjectNull(map[string]attr.Type{}), GCEPD: types.ObjectNull(map[string]attr.Type{}),
		ExtraParameters: extra, ExpectedVolumeSizeGiB: types.Int64Value(8),
		IO: types.ObjectNull(map[string]attr.Type{}),
	}
	plan := func() string {
		var diags diag.Diagnostics
		mm := m
		planStorageClass(ctx, sizing.EmbeddedCatalog(), &mm, &diags)
		var b strings.Builder
		for _, d := range diags {
			fmt.Fprintf(&b, "%s|%s|%s\n", d.Severity(), d.Summary(), d.Detail())
			if wp, ok := d.(diag.DiagnosticWithPath); ok {
				fmt.Fprintf(&b, "  at %s\n", wp.Path())
			}
		}
		return b.String()
	}
	want := plan()
	if strings.Count(want, "AZD-V13") < 3 || !strings.Contains(want, "SC-4") {
		t.Fatalf("want several errors, got:\n%s", want)
	}
	for range 50 {
		if got := plan(); got != want {
			t.Fatalf("diagnostics differ:\n%s\nwant:\n%s", got, want)
		}
	}
}

// TestAccStorageClass_nodeInstanceType: a Premium_LRS class for a database (5,000 IOPS of 8 KiB random reads
// and, separately, 200 MB/s of scans) at 1,024 GiB is a P30 and meets both (disks.md §7.9); with
// node_instance_type = "Standard_D4s_v5" its performance is capped by the VM's uncached 145 MB/s, so 200
// MB/s is a burst-only fit (FIT-N1, verdict warn), and the Dsv5 sizes from D8s_v5 up sustain it (§7.10).
// On Standard_D8s_v5 (12,800 IOPS, 290 MB/s) it passes. The plan is empty after apply.
func TestAccStorageClass_nodeInstanceType(t *testing.T) {
	class := func(name, node string) string {
		return fmt.Sprintf(`resource "kubefit_storage_class" %q {
  name                     = %q
  driver                   = "disk.csi.azure.com"
  azure_disk               = { sku_name = "Premium_LRS" }
  expected_volume_size_gib = 1024
  required_iops            = 5000
  required_throughput_mbps = 200
  iops_io                  = { block_size_kib = 8 }
  io                       = { block_size_kib = 256, pattern = "sequential", queue_depth = 16, latency_ms = 2.5 }
  node_instance_type       = %q
}
`, name, name, node)
	}
	at := func(keys ...string) tfjsonpath.Path {
		p := tfjsonpath.New("performance")
		for _, k := range keys {
			p = p.AtMapKey(k)
		}
		return p
	}
	check := func(name string, v knownvalue.Check, keys ...string) statecheck.StateCheck {
		return statecheck.ExpectKnownValue("kubefit_storage_class."+name, at(keys...), v)
	}
	config := class("db-small-node", "Standard_D4s_v5") + class("db", "Standard_D8s_v5")
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: config,
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
			},
			ConfigStateChecks: []statecheck.StateCheck{
				check("db-small-node", knownvalue.StringExact("P30"), "tier"),
				check("db-small-node", knownvalue.StringExact("P30"), "recommended_tier"),
				check("db-small-node", knownvalue.Int64Exact(1024), "recommended_size_gib"),
				check("db-small-node", knownvalue.StringExact("warn"), "verdict"),
				// 256 KiB sequential on the D4s_v5: 145e6 / 262,144 operations/s, bound by the VM.
				check("db-small-node", knownvalue.StringExact("instance"), "limited_by"),
				check("db-small-node", approx{145, 1e-12}, "effective_throughput_mbps"),
				check("db-small-node", knownvalue.Float64Exact(145), "instance", "baseline_throughput_mbps"),
				check("db-small-node", dsv5Sustaining, "sustaining_instance_types"),
				check("db-small-node", knownvalue.Int64Exact(5000), "demand", "counted_iops"),
				check("db-small-node", knownvalue.Float64Exact(200), "demand", "throughput_mbps"),
				check("db-small-node", knownvalue.StringExact("io"), "demand", "throughput", "block_size_from"),
				check("db", knownvalue.StringExact("pass"), "verdict"),
				check("db", knownvalue.Float64Exact(290), "instance", "baseline_throughput_mbps"),
				check("db", approx{200, 1e-12}, "effective_throughput_mbps"),
				check("db", knownvalue.StringExact("tier"), "limited_by"),
			},
		}, {
			Config:           config,
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
		}},
	})
}

// TestAccStorageClass_nodeInstanceTypeRejections: a node of another cloud, or without an expected size, fails
// the plan on node_instance_type.
func TestAccStorageClass_nodeInstanceTypeRejections(t *testing.T) {
	azure := `name = "db"
driver = "disk.csi.azure.com"
azure_disk = { sku_name = "Premium_LRS" }
`
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config:      storageClass(azure + "expected_volume_size_gib = 1024\nnode_instance_type = \"m5.large\""),
				ExpectError: errRe("Unknown", "Instance", "Type"),
			},
			{
				Config:      storageClass(azure + "node_instance_type = \"Standard_D4s_v5\""),
				ExpectError: errRe(`Attribute`, `"expected_volume_size_gib"`, `must`, `be`, `specified`, `when`, `"node_instance_type"`),
			},
			{ // The disk is checked while the node is known only after apply (AZD-V3).
				Config: "resource \"terraform_data\" \"node\" { input = \"Standard_D4s_v5\" }\n" + storageClass(`name = "db"
driver = "disk.csi.azure.com"
azure_disk = { sku_name = "PremiumV2_LRS", caching_mode = "ReadOnly" }
expected_volume_size_gib = 100
node_instance_type = terraform_data.node.output`),
				ExpectError: errRe("AZD-V3:"),
			},
			{ // A node known only after apply caps the performance once it is known: a P30 on a D4s_v5
				// doing 16 KiB random I/O is bound by its tier (5,000 IOPS < 6,400).
				Config: "resource \"terraform_data\" \"node\" { input = \"Standard_D4s_v5\" }\n" +
					storageClass(azure+"expected_volume_size_gib = 1024\nnode_instance_type = terraform_data.node.output"),
				ConfigStateChecks: []statecheck.StateCheck{
					expectSC(tfjsonpath.New("performance").AtMapKey("limited_by"), knownvalue.StringExact("tier")),
					expectSC(tfjsonpath.New("performance").AtMapKey("instance").AtMapKey("name"), knownvalue.StringExact("Standard_D4s_v5")),
				},
			},
		},
	})
}

// TestAccStorageClass_gcpMachineSeries: a GCE PD class planned on node_instance_type is checked against
// the node's machine series (disks.md §6.1): pd-balanced (and the driver's default pd-standard) on N4 and
// hyperdisk-balanced on N2D cannot attach (GPD-M1, on gce_pd.type), while hyperdisk-throughput on N2D and
// hyperdisk-balanced on N4 are planned.
func TestAccStorageClass_gcpMachineSeries(t *testing.T) {
	gce := func(typ, instance string) string {
		return storageClass(fmt.Sprintf("name = \"x\"\ndriver = \"pd.csi.storage.gke.io\"\ngce_pd = { type = %q }\n"+
			"expected_volume_size_gib = 100\nnode_instance_type = %q", typ, instance))
	}
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: gce("pd-balanced", "n4-standard-8"),
				ExpectError: regexp.MustCompile(`(?s)gce_pd\.type\s+=\s+"pd-balanced":\s+GPD-M1:\s+machine\s+type\s+n4-standard-8\s+cannot\s+attach\s+a\s+pd-balanced\s+disk.*` +
					`n4-standard-8\s+attaches\s+"hyperdisk-balanced"`),
			},
			{
				Config:      gce("hyperdisk-balanced", "n2d-standard-8"),
				ExpectError: errRe("GPD-M1:", "machine", "type", "n2d-standard-8", "cannot", "attach", "a", "hyperdisk-balanced", "disk:", "the", "N2D", "series"),
			},
			{
				Config: gce("hyperdisk-throughput", "n2d-standard-8"),
				ConfigStateChecks: []statecheck.StateCheck{
					expectSC(tfjsonpath.New("parameters").AtMapKey("type"), knownvalue.StringExact("hyperdisk-throughput")),
				},
			},
			{
				Config: gce("hyperdisk-balanced", "n4-standard-8"),
				ConfigStateChecks: []statecheck.StateCheck{
					expectSC(tfjsonpath.New("performance").AtMapKey("baseline_iops"), knownvalue.Int64Exact(3000)),
				},
			},
		},
	})
}
