package provider

import (
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

func TestAccInstanceTypes_filters(t *testing.T) {
	const addr = "data.kubefit_instance_types.x"
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				// m/c/r of the 6th and 7th generation with 4 vCPUs on Intel, cheapest first.
				Config: `
data "kubefit_instance_types" "x" {
  cloud         = "aws"
  vcpu          = { min = 4, max = 4 }
  architecture  = "x86_64"
  families      = ["m?i", "c?i", "r?i"]
  generation    = { min = 6, max = 7 }
  burstable     = false
  sort_by       = "price"
}`,
				ConfigPlanChecks: emptyPlanAfterApply,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("names"), knownvalue.ListExact([]knownvalue.Check{
						knownvalue.StringExact("c6i.xlarge"), knownvalue.StringExact("c7i.xlarge"), knownvalue.StringExact("m6i.xlarge"),
						knownvalue.StringExact("m7i.xlarge"), knownvalue.StringExact("r6i.xlarge"), knownvalue.StringExact("r7i.xlarge"),
					})),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("instance_types").AtSliceIndex(0).AtMapKey("name"), knownvalue.StringExact("c6i.xlarge")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("instance_types").AtSliceIndex(0).AtMapKey("memory_mib"), knownvalue.Int64Exact(8192)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("instance_types").AtSliceIndex(0).AtMapKey("price_region"), knownvalue.StringExact("us-east-1")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("instance_types").AtSliceIndex(2).AtMapKey("eni_max_pods"), knownvalue.Int64Exact(58)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("catalog_date"), knownvalue.StringRegexp(regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`))),
				},
			},
			{
				// Max pods under a profile, memory per vCPU, Azure disk caps and price.
				Config: `
data "kubefit_instance_types" "x" {
  cloud               = "azure"
  name_patterns         = ["Standard_E*s_v5"]
  exclude_name_patterns = ["*-*", "Standard_EC*"]
  architecture          = "x86_64"
  memory_per_vcpu_gib   = { min = 8 }
  vcpu                  = { max = 8 }
  max_pods              = { min = 250 }
  aks                   = { network_plugin = "azure_cni_overlay" }
  uncached_disk_iops    = { min = 1 }
  max_price_per_hour    = 0.3
  sort_by               = "price"
}`,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("names"), knownvalue.ListExact([]knownvalue.Check{
						// Linux prices (SOURCES.md "Azure price corrections"): Standard_E4as_v5 0.226 and Standard_E4ads_v5
						// 0.262, not upstream's Windows-rate 0.41 and 0.446; Standard_E2ads_v5 has no price, so no price filter keeps it.
						knownvalue.StringExact("Standard_E2as_v5"), knownvalue.StringExact("Standard_E2s_v5"), knownvalue.StringExact("Standard_E2ds_v5"),
						knownvalue.StringExact("Standard_E2bs_v5"), knownvalue.StringExact("Standard_E2bds_v5"), knownvalue.StringExact("Standard_E4as_v5"),
						knownvalue.StringExact("Standard_E4s_v5"), knownvalue.StringExact("Standard_E4ads_v5"), knownvalue.StringExact("Standard_E4ds_v5"),
						knownvalue.StringExact("Standard_E4bs_v5"),
					})),
				},
			},
		},
	})
}

func TestAccInstanceTypes_emptyWarnsAndErrors(t *testing.T) {
	const addr = "data.kubefit_instance_types.x"
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: `
data "kubefit_instance_types" "x" {
  cloud = "aws"
  vcpu = { min = 8, max = 4 }
}`,
				ExpectError: regexp.MustCompile(`(?s)Invalid Range.*min\s+8\s+is\s+greater\s+than\s+max\s+4`),
			},
			{
				Config: `
data "kubefit_instance_types" "x" {
  cloud = "aws"
  families = ["m[6"]
}`,
				ExpectError: regexp.MustCompile(`(?s)Invalid Filter.*[Pp]attern\s+"m\[6"\s+is\s+not\s+a\s+valid\s+wildcard`),
			},
			{
				Config: `
data "kubefit_instance_types" "x" {
  cloud = "aws"
  profile = "aks-linux"
  max_pods = { min = 10 }
}`,
				ExpectError: regexp.MustCompile(`(?s)Profile\s+of\s+Another\s+Cloud.*"aks-linux"\s+is\s+a\s+azure`),
			},
			{
				Config: `
data "kubefit_instance_types" "x" {
  cloud = "aws"
  sort_by = "cost"
}`,
				ExpectError: regexp.MustCompile(`(?s)sort_by.*value\s+must\s+be\s+one\s+of`),
			},
			{
				// Nothing is that cheap: a warning, not an error, and empty lists.
				Config: `
data "kubefit_instance_types" "x" {
  cloud              = "aws"
  families           = ["m6i"]
  vcpu               = { min = 4, max = 4 }
  max_price_per_hour = 0.01
}`,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("names"), knownvalue.ListSizeExact(0)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("instance_types"), knownvalue.ListSizeExact(0)),
				},
			},
		},
	})
}

// TestAccInstanceTypes_unknownInput: a filter known only at apply defers the read; names then feed a
// downstream object.
func TestAccInstanceTypes_unknownInput(t *testing.T) {
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: `
resource "terraform_data" "vcpu" { input = 2 }
data "kubefit_instance_types" "x" {
  cloud    = "aws"
  families = ["t4g"]
  vcpu     = { min = terraform_data.vcpu.output, max = terraform_data.vcpu.output }
  sort_by  = "memory"
}
output "names" { value = data.kubefit_instance_types.x.names }`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownOutputValue("names", knownvalue.ListExact([]knownvalue.Check{
					knownvalue.StringExact("t4g.nano"), knownvalue.StringExact("t4g.micro"), knownvalue.StringExact("t4g.small"),
					knownvalue.StringExact("t4g.medium"), knownvalue.StringExact("t4g.large"),
				})),
			},
		}},
	})
}
