package provider

import (
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
)

// testAccProtoV6ProviderFactories serves the provider in-process to the real Terraform CLI in acceptance tests.
var testAccProtoV6ProviderFactories = map[string]func() (tfprotov6.ProviderServer, error){
	"kubefit": providerserver.NewProtocol6WithError(New("test")()),
}

// badInput is one rejected configuration and the error it must produce.
type badInput struct{ config, err string }

// testBadInputs runs every bad configuration as an ExpectError step, then okConfig, so an error step is
// never the last one.
func testBadInputs(t *testing.T, okConfig string, cases []badInput) {
	t.Helper()
	steps := make([]resource.TestStep, 0, len(cases)+1)
	for _, c := range cases {
		steps = append(steps, resource.TestStep{Config: c.config, ExpectError: regexp.MustCompile(c.err)})
	}
	steps = append(steps, resource.TestStep{Config: okConfig})
	resource.UnitTest(t, resource.TestCase{ProtoV6ProviderFactories: testAccProtoV6ProviderFactories, Steps: steps})
}
