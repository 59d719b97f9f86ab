package provider

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
)

// defectCase is one configuration that must fail during plan with an error containing want (words matched
// with any whitespace between them, as Terraform wraps lines).
type defectCase struct{ name, config, want string }

// runDefects plans each case (PlanOnly: the error must come from terraform plan) and ends with a step that
// succeeds.
func runDefects(t *testing.T, cases []defectCase) {
	t.Helper()
	steps := make([]resource.TestStep, 0, len(cases)+1)
	for _, c := range cases {
		steps = append(steps, resource.TestStep{Config: c.config, PlanOnly: true, ExpectError: errRe(strings.Fields(c.want)...)})
	}
	steps = append(steps, resource.TestStep{Config: sizingWith("", okWorkload, "")})
	resource.UnitTest(t, resource.TestCase{ProtoV6ProviderFactories: testAccProtoV6ProviderFactories, Steps: steps})
}

// TestAccDefects_blame is issue 21's class 4 through Terraform: a bad capacity input is refused on its own
// attribute, in the object's words, before any check reads it; a node group without an instance type names
// instance_type.
func TestAccDefects_blame(t *testing.T) {
	runDefects(t, []defectCase{
		{"ScaledObject with a group of no nodes", scaledObject(capacitySO + strings.Replace(capacityGroup(40), "max_nodes = 40", "max_nodes = 0", 1)),
			`node group "general-c5-xlarge" has a maximum node count of 0`},
		{"ScaledObject with negative max_connections", scaledObject(`name = "api"
namespace = "shop"
scale_target_ref = { name = "api" }
max_replica_count = 10
triggers = [{ type = "kafka", metadata = { topic = "orders" } }]
target_workload = { connections_per_pod = 4, rollout = { strategy = "Recreate" } }
database = { name = "orders", max_connections = -5 }
`), `database "orders" has a connection limit of -5; give its max_connections setting (1 or more)`},
		{"node group without an instance type", `
resource "kubefit_node_group" "t" {
  name      = "g"
  cloud     = "aws"
  workloads = [` + okWorkload + `]
}`, `Neither instance_type nor instance_types is set; give exactly one of them.`},
	})
}
