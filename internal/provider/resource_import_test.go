package provider

import (
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
)

// TestAccImportRefused: importing a plan-only resource says there is nothing to import and what to do (it was the
// framework's generic "Resource Import Not Implemented").
func TestAccImportRefused(t *testing.T) {
	cfg := `resource "kubefit_storage_class" "fast" {
  name       = "fast"
  driver     = "disk.csi.azure.com"
  azure_disk = { sku_name = "Premium_LRS" }
}`
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: cfg},
			{Config: cfg, ResourceName: "kubefit_storage_class.fast", ImportState: true, ImportStateId: "fast",
				ExpectError: regexp.MustCompile(`(?s)Nothing to Import.*kubefit_storage_class is plan-only.*Declare it in the\s+configuration`)},
		},
	})
}
