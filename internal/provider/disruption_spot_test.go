package provider

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// spotSizing is a spot pool preferred by weight and an on-demand pool of at most onDemandMax nodes, with web
// pods that may use both; spotType is the spot pool's capacity_type.
func spotSizing(spotType string, onDemandMax int) string {
	return fmt.Sprintf(`data "kubefit_node_pool_sizing" "s" {
  pools = {
    spot      = { cloud = "aws", instance_type = "m5.xlarge", min_nodes = 2, max_nodes = 4, weight = 100, capacity_type = %q }
    on-demand = { cloud = "aws", instance_type = "m5.xlarge", min_nodes = 1, max_nodes = %d }
  }
  workloads = [{ name = "web", replicas = 8, requests = { cpu = "1", memory = "1Gi" } }]
  disruptions = ["spot_loss"]
}`, spotType, onDemandMax)
}

// TestAccNodePoolSizing_spotLoss: losing the spot pool strands web's pods when the on-demand pool may not grow
// (named, with the maximum that binds them); with room to grow it holds; spot_loss without a spot pool is an
// error on disruptions naming the fix.
func TestAccNodePoolSizing_spotLoss(t *testing.T) {
	addr := "data.kubefit_node_pool_sizing.s"
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: spotSizing("spot", 1), ExpectError: regexp.MustCompile(`(?s)Disruption Not Absorbed.*` +
				errRe(`spot_loss:`, `losing`, `every`, `spot`, `pool:`, `pool`, `"spot"`, `(2`, `nodes)`).String() + `.*` + errRe(`of`, `workload`, `"web"`).String() +
				`.*` + errRe(`more`, `nodes`, `allowed`, `in`, `every`, `on-demand`, `pool's`, `maximum`, `node`, `count`).String())},
			{Config: spotSizing("on_demand", 4), ExpectError: regexp.MustCompile(`(?s)disruptions.*` +
				errRe(`none`, `of`, `the`, `pools`, `("on-demand"`, `and`, `"spot")`, `is`, `a`, `spot`, `pool;`, `set`, `the`, `capacity`, `type`).String())},
			{
				Config:           spotSizing("spot", 4),
				ConfigPlanChecks: emptyPlanAfterApply,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("fits"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("disruption_results").AtMapKey("spot_loss").AtMapKey("fits"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("disruption_results").AtMapKey("spot_loss").AtMapKey("pool"), knownvalue.StringExact("spot")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("disruption_results").AtMapKey("spot_loss").AtMapKey("lost"),
						knownvalue.StringExact(`every spot pool: pool "spot" (2 nodes)`)),
				},
			},
		},
	})
}

// TestAccNodeGroup_spotLoss: a spot node group passes its own capacity type: losing all its spot capacity
// leaves its pods nowhere to go, and the remedy says to add an on-demand pool; an on-demand group asking for
// spot_loss is told it has no spot pool; without spot_loss the spot group plans as usual.
func TestAccNodeGroup_spotLoss(t *testing.T) {
	cfg := func(capacityType, disruptions string) string {
		return fmt.Sprintf(`resource "kubefit_node_group" "g" {
  name          = "web"
  cloud         = "aws"
  instance_type = "m5.xlarge"
  capacity_type = %q
  workloads     = [{ name = "web", replicas = 4, requests = { cpu = "1", memory = "1Gi" } }]
  disruptions   = %s
}`, capacityType, disruptions)
	}
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: cfg("spot", `["spot_loss"]`), ExpectError: regexp.MustCompile(`(?s)Disruption Not Absorbed.*group\s+"web":\s+spot_loss.*` +
				errRe(`No`, `on-demand`, `pool`, `can`, `take`, `them:`, `add`, `an`, `on-demand`, `pool`).String())},
			{Config: cfg("on_demand", `["spot_loss"]`), ExpectError: regexp.MustCompile(`(?s)` + errRe(`none`, `of`, `the`, `pools`, `("web")`, `is`, `a`, `spot`, `pool`).String())},
			{Config: cfg("spot", "[\"node_loss\"]\n  max_size      = 4"), ConfigPlanChecks: emptyPlanAfterApply, ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("kubefit_node_group.g", tfjsonpath.New("eks_node_group").AtMapKey("capacity_type"), knownvalue.StringExact("SPOT")),
				statecheck.ExpectKnownValue("kubefit_node_group.g", tfjsonpath.New("disruption_results").AtMapKey("node_loss").AtMapKey("fits"), knownvalue.Bool(true)),
			}},
		},
	})
}
