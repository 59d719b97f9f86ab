package provider

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// preferredAffinityConfig sizes workload "batch" (x), pinned to pool "spot" by its node selector, beside
// workload "web" (y), which may use "spot" and the four nodes of "general"; spot may grow to spotMax. "blind"
// gives web no preference, "prefers" the term prefer (HCL), and "from_manifests" reads web with a preference
// for spot from a Deployment through kubefit_workloads.
func preferredAffinityConfig(spotMax int, prefer string) string {
	return fmt.Sprintf(`locals {
  pools = {
    spot    = { cloud = "aws", instance_type = "m5.xlarge", max_nodes = %d, labels = { tier = "spot" } }
    general = { cloud = "aws", instance_type = "m5.xlarge", min_nodes = 4, max_nodes = 4, labels = { tier = "general" } }
  }
  x = { name = "batch", replicas = 8, requests = { cpu = "1", memory = "1Gi" }, node_selector = { tier = "spot" } }
  y = { name = "web", replicas = 8, requests = { cpu = "1", memory = "1Gi" } }
}

data "kubefit_workloads" "app" {
  manifests = <<-YAML
    apiVersion: apps/v1
    kind: Deployment
    metadata: {name: web}
    spec:
      replicas: 8
      strategy: {rollingUpdate: {maxSurge: 0}}
      selector: {matchLabels: {app: web}}
      template:
        metadata: {labels: {app: web}}
        spec:
          affinity:
            nodeAffinity:
              preferredDuringSchedulingIgnoredDuringExecution:
              - weight: 80
                preference:
                  matchExpressions: [{key: tier, operator: In, values: [spot]}]
          containers: [{name: app, image: app, resources: {requests: {cpu: "1", memory: 1Gi}}}]
  YAML
}

data "kubefit_node_pool_sizing" "blind" {
  pools          = local.pools
  workloads      = [local.x, local.y]
  fail_on_misfit = false
}

data "kubefit_node_pool_sizing" "prefers" {
  pools          = local.pools
  workloads      = [local.x, merge(local.y, { preferred_node_affinity = [%s] })]
  fail_on_misfit = false
}

data "kubefit_node_pool_sizing" "from_manifests" {
  pools          = local.pools
  workloads      = concat([local.x], data.kubefit_workloads.app.workloads)
  fail_on_misfit = false
}
`, spotMax, prefer)
}

// TestAccNodePoolSizing_preferredNodeAffinity: a workload's preference for the pool another one is pinned to
// sizes that pool for both (the scheduler's NodeAffinity score fills it first), whether written by hand or read
// from a manifest by kubefit_workloads; with the pool capped at the count planned without the preference, the
// plan no longer fits. Weights outside 1–100 and a malformed expression are refused on their attribute.
func TestAccNodePoolSizing_preferredNodeAffinity(t *testing.T) {
	sizing := func(name string) string { return "data.kubefit_node_pool_sizing." + name }
	spot := tfjsonpath.New("pool_results").AtMapKey("spot").AtMapKey("steady").AtMapKey("nodes_required")
	term := `{ weight = %d, match_expressions = [{ key = "tier", operator = "In", values = ["spot"] }] }`
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: preferredAffinityConfig(20, fmt.Sprintf(term, 0)),
				ExpectError: regexp.MustCompile(`(?s)preferred_node_affinity\[0\]\.weight.*value\s+must\s+be\s+between\s+1\s+and\s+100,\s+got:\s+0`)},
			{Config: preferredAffinityConfig(20, fmt.Sprintf(term, 101)),
				ExpectError: regexp.MustCompile(`(?s)preferred_node_affinity\[0\]\.weight.*value\s+must\s+be\s+between\s+1\s+and\s+100,\s+got:\s+101`)},
			{Config: preferredAffinityConfig(20, `{ weight = 5, match_expressions = [{ key = "cores", operator = "Gt", values = ["many"] }] }`),
				ExpectError: regexp.MustCompile(`(?s)workloads\[1\]\.preferred_node_affinity\[0\]\.match_expressions\[0\].*preferred\s+node\s+affinity\s+expression\s+"cores\s+Gt"`)},
			{
				Config:           preferredAffinityConfig(20, fmt.Sprintf(term, 80)),
				ConfigPlanChecks: emptyPlanAfterApply,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(wlAddr, tfjsonpath.New("workloads").AtSliceIndex(0).AtMapKey("preferred_node_affinity"), knownvalue.ListExact([]knownvalue.Check{
						knownvalue.ObjectExact(map[string]knownvalue.Check{"weight": knownvalue.Int64Exact(80), "match_expressions": knownvalue.ListExact([]knownvalue.Check{
							knownvalue.ObjectExact(map[string]knownvalue.Check{"key": knownvalue.StringExact("tier"), "operator": knownvalue.StringExact("In"),
								"values": knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("spot")})})})})})),
					statecheck.ExpectKnownValue(sizing("blind"), spot, knownvalue.Int64Exact(4)),
					statecheck.ExpectKnownValue(sizing("prefers"), spot, knownvalue.Int64Exact(5)),
					statecheck.CompareValuePairs(sizing("prefers"), spot, sizing("from_manifests"), spot, compare.ValuesSame()),
					statecheck.ExpectKnownValue(sizing("blind"), tfjsonpath.New("fits"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(sizing("prefers"), tfjsonpath.New("fits"), knownvalue.Bool(true)),
				},
			},
			{
				// spot capped at the 4 nodes planned without the preference: web takes spot room first and batch is left short.
				Config:           preferredAffinityConfig(4, fmt.Sprintf(term, 80)),
				ConfigPlanChecks: emptyPlanAfterApply,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(sizing("blind"), tfjsonpath.New("fits"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(sizing("prefers"), tfjsonpath.New("fits"), knownvalue.Bool(false)),
					statecheck.ExpectKnownValue(sizing("from_manifests"), tfjsonpath.New("fits"), knownvalue.Bool(false)),
					statecheck.ExpectKnownValue(sizing("prefers"), tfjsonpath.New("failures").AtSliceIndex(0).AtMapKey("workload"), knownvalue.StringExact("batch")),
				},
			},
		},
	})
}
