package provider

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// dnsClients is a ScaledObject of at most 40 pods making 50 external lookups per second each (2,000 at peak),
// on a group of c5.xlarge-sized nodes (3 pods of 1,000m each per node: 14 nodes at peak), and a capacity
// check of its DNS budget with the given set-up.
func dnsClients(dns string) string {
	return fmt.Sprintf(`
resource "kubefit_keda_scaled_object" "api" {
  name              = "api"
  namespace         = "shop"
  scale_target_ref  = { name = "api" }
  min_replica_count = 2
  max_replica_count = 40
  triggers = [{ type = "kafka", metadata = { topic = "orders" } }]
  target_workload = {
    rollout                = { strategy = "Recreate" }
    dns_lookups_per_second = 50
    pod_template           = { containers = [{ name = "app", requests = { cpu = "1", memory = "1Gi" } }] }
  }
}
resource "kubefit_capacity_check" "dns" {
  scaled_objects = [merge(kubefit_keda_scaled_object.api.summary, { node_group = "general" })]
  node_groups = [{
    name                 = "general"
    max_nodes            = 20
    workload_allocatable = { cpu_millicores = 3400, memory_bytes = 7000000000 }
    workload_pods        = 29
  }]
  dns = %s
}
`, dns)
}

// TestAccCapacityCheck_dnsCeilings: with NodeLocal DNSCache the resolver has 14 interfaces (14,336 packets per
// second for 2,000 × 4 = 8,000) but CoreDNS gets 2,000 × 6 = 12,000 queries against 2 × 5,000: CoreDNS binds
// and the check fails, naming it, both figures and the replicas it needs (ceil(12,000 / 4,000) = 3). With the
// autoscaler's ladder at 4 nodes per replica (4 replicas) and a measured 8,000 queries per replica it holds,
// and dns_result says the resolver now binds (8,000 / 14,336 = 56 % against CoreDNS's 12,000 / 32,000 = 38 %).
func TestAccCapacityCheck_dnsCeilings(t *testing.T) {
	addr := "kubefit_capacity_check.dns"
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: dnsClients(`{ node_local_dns_cache = true }`),
				ExpectError: regexp.MustCompile(`(?s)KCAP-E7:.*CoreDNS\s+is\s+the\s+binding\s+DNS\s+ceiling.*120\s+%.*12,000\s+queries\s+per\s+second` +
					`.*2\s+replicas\s+×\s+5,000.*8,000\s+packets\s+per\s+second.*14,336.*run\s+at\s+least\s+3\s+CoreDNS\s+replicas`),
			},
			{
				Config: dnsClients(`{ node_local_dns_cache = true, coredns_autoscaler = { nodes_per_replica = 4 }, coredns_queries_per_replica = 8000 }`),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("dns_result").AtMapKey("binding"), knownvalue.StringExact("resolver")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("dns_result").AtMapKey("coredns_replicas"), knownvalue.Int64Exact(4)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("dns_result").AtMapKey("coredns_queries_per_second"), knownvalue.Float64Exact(12000)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("dns_result").AtMapKey("resolver_budget"), knownvalue.Float64Exact(14336)),
				},
			},
			{
				Config:      dnsClients(`{ node_local_cache_hit_ratio = 0.5 }`),
				ExpectError: regexp.MustCompile(`(?s)dns\.node_local_cache_hit_ratio.*NodeLocal\s+DNSCache`),
			},
		},
	})
}
