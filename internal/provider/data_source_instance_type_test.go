package provider

import (
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

func TestAccInstanceType_basic(t *testing.T) {
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: `
data "kubefit_instance_type" "m5" {
  cloud = "aws"
  name  = "m5.large"
}
data "kubefit_instance_type" "ds1" {
  cloud = "azure"
  name  = "standard_ds1_v2"
}
data "kubefit_instance_type" "e2" {
  cloud = "gcp"
  name  = "e2-medium"
}`,
				ConfigPlanChecks: emptyPlanAfterApply,
				ConfigStateChecks: []statecheck.StateCheck{
					expectInt("data.kubefit_instance_type.m5", tfjsonpath.New("vcpu"), 2),
					expectInt("data.kubefit_instance_type.m5", tfjsonpath.New("memory_mib"), 8192),
					expectInt("data.kubefit_instance_type.m5", tfjsonpath.New("eni_max_pods"), 29),
					expectInt("data.kubefit_instance_type.m5", tfjsonpath.New("ebs_baseline_iops"), 3600),
					statecheck.ExpectKnownValue("data.kubefit_instance_type.m5", tfjsonpath.New("price_usd_per_hour"), knownvalue.Float64Exact(0.096)),
					expectString("data.kubefit_instance_type.m5", tfjsonpath.New("price_region"), "us-east-1"),
					statecheck.ExpectKnownValue("data.kubefit_instance_type.m5", tfjsonpath.New("catalog_date"), knownvalue.StringRegexp(regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`))),
					expectString("data.kubefit_instance_type.ds1", tfjsonpath.New("canonical_name"), "Standard_DS1_v2"),
					expectInt("data.kubefit_instance_type.ds1", tfjsonpath.New("memory_mib"), 3584),
					expectInt("data.kubefit_instance_type.ds1", tfjsonpath.New("max_data_disks"), 4),
					statecheck.ExpectKnownValue("data.kubefit_instance_type.e2", tfjsonpath.New("shared_core"), knownvalue.Bool(true)),
					// A shared-core type is burstable in every object: the row, the instance_types filter and the burst budget.
					statecheck.ExpectKnownValue("data.kubefit_instance_type.e2", tfjsonpath.New("burstable"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue("data.kubefit_instance_type.m5", tfjsonpath.New("burstable"), knownvalue.Bool(false)),
					statecheck.ExpectKnownValue("data.kubefit_instance_type.e2", tfjsonpath.New("max_enis"), knownvalue.Null()),
				},
			},
		},
	})
}

func TestAccInstanceType_errors(t *testing.T) {
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config:      "data \"kubefit_instance_type\" \"x\" {\n  cloud = \"aws\"\n  name = \"m5.larg\"\n}",
				ExpectError: regexp.MustCompile(`(?s)Unknown Instance Type.*did\s+you\s+mean\s+"m5\.large"`),
			},
			{
				Config:      "data \"kubefit_instance_type\" \"x\" {\n  cloud = \"oracle\"\n  name = \"m5.large\"\n}",
				ExpectError: regexp.MustCompile(`(?s)cloud.*"oracle"`),
			},
			{
				Config: "data \"kubefit_instance_type\" \"x\" {\n  cloud = \"aws\"\n  name = \"m5.large\"\n}",
			},
		},
	})
}
