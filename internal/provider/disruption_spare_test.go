package provider

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// TestAccNodePoolSizing_noSpareNode: three 3-CPU pods fill a pool of at most 3 m5.xlarge: the plan fits, and
// its report warns what one node's loss would strand; asking for node_loss turns the same finding into a
// failure; with a fourth node allowed the warning goes.
func TestAccNodePoolSizing_noSpareNode(t *testing.T) {
	cfg := func(maxNodes int, disruptions string) string {
		return fmt.Sprintf(`data "kubefit_node_pool_sizing" "s" {
  pools       = { general = { cloud = "aws", instance_type = "m5.xlarge", min_nodes = 3, max_nodes = %d } }
  workloads   = [{ name = "web", replicas = 3, requests = { cpu = "3", memory = "1Gi" } }]
  disruptions = %s
}`, maxNodes, disruptions)
	}
	addr := "data.kubefit_node_pool_sizing.s"
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: cfg(3, `["node_loss"]`), ExpectError: regexp.MustCompile(`(?s)Disruption Not Absorbed.*` +
				errRe(`1`, `pod`, `of`, `workload`, `"web"`).String() + `.*` + errRe(`maximum`, `node`, `count`, `of`, `4`).String())},
			{Config: cfg(3, "null"), ConfigPlanChecks: emptyPlanAfterApply, ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("fits"), knownvalue.Bool(true)),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("report"), knownvalue.StringRegexp(regexp.MustCompile(
					`No spare node \(a warning\): the steady scenario leaves no spare node in pool "general" \(m5\.xlarge\) \(3 of at most 3 nodes\).*`+
						`1 pod of workload "web".*With a maximum node count of 4 for pool "general" \(1 more\), they bind`))),
			}},
			{Config: cfg(4, "null"), ConfigPlanChecks: emptyPlanAfterApply, ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("report"), lacks("No spare node")),
			}},
		},
	})
}

// lacks checks that a string value does not contain s.
type lacks string

func (l lacks) CheckValue(v any) error {
	if str, ok := v.(string); !ok || strings.Contains(str, string(l)) {
		return fmt.Errorf("value %q contains %q (or is not a string)", v, string(l))
	}
	return nil
}

func (l lacks) String() string { return "lacks " + string(l) }
