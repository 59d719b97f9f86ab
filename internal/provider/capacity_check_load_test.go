package provider

import (
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
)

// hpaLoadTest is the HPA load test: a node group of at most 20 c5.xlarge, an HPA of at most 40 pods of
// 2,500m (one per node), each holding 20 connections to a MySQL of 150 and making 30 external lookups per
// second, and a capacity check that places the HPA on the group (node_group_of), shares the database and
// checks the DNS budget. The HPA gets no node group capacity or database of its own, so nothing fails before the
// capacity check, which gives every finding in one plan, each once, with its remedy.
const hpaLoadTest = `
resource "kubefit_node_group" "web" {
  name          = "web"
  cloud         = "aws"
  instance_type = "c5.xlarge"
  max_size      = 20
  daemonsets    = [{ name = "kube-proxy", requests = { cpu = "100m", memory = "64Mi" } }]
  # The group's steady workloads; the autoscaled api's peak is the capacity check's to place.
  workloads = [{ name = "cron", replicas = 1, requests = { cpu = "100m", memory = "128Mi" } }]
}
resource "kubefit_horizontal_pod_autoscaler" "api" {
  name             = "api"
  namespace        = "shop"
  scale_target_ref = { api_version = "apps/v1", kind = "Deployment", name = "api" }
  min_replicas     = 2
  max_replicas     = 40
  metrics = [{ type = "Resource", resource = { name = "cpu", target = { type = "Utilization", average_utilization = 60 } } }]
  target_workload = {
    pod_template           = { containers = [{ name = "php", requests = { cpu = "2500m", memory = "1Gi" } }] }
    rollout                = { strategy = "RollingUpdate", max_surge = "0" }
    connections_per_pod    = 20
    dns_lookups_per_second = 30
  }
}
resource "kubefit_capacity_check" "load" {
  horizontal_pod_autoscalers = [kubefit_horizontal_pod_autoscaler.api.summary]
  node_groups                = [kubefit_node_group.web.capacity]
  node_group_of              = { "shop/api" = "web" }
  databases                  = [{ name = "orders-mysql", max_connections = 150, clients = ["shop/api"] }]
  dns                        = {}
}
`

// TestAccCapacityCheck_loadTestInOnePlan: the node group's shortfall (KCAP-E2: 40 pods need 40 nodes of 20;
// the largest safe maxReplicas is 20, or 40 nodes), the database's (KCAP-E4: 40 × 20 = 800 connections, the
// largest safe count) and the DNS budget's (KCAP-E7: 1,200 lookups a second, 4,800 packets against the
// resolver's 2,048, which binds) come in one plan. A placement on a group the check does not have is refused
// on node_group_of.
func TestAccCapacityCheck_loadTestInOnePlan(t *testing.T) {
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			// One plan, three findings: each step plans the same configuration and looks for one of them.
			{
				Config: hpaLoadTest,
				ExpectError: regexp.MustCompile(`(?s)KCAP-E2:\s+node\s+group\s+"web"\s+cannot\s+hold.*places\s+them\s+on\s+40\s+nodes.*at\s+most\s+20` +
					`.*largest\s+safe\s+maxReplicas\s+of\s+HPA\s+"shop/api",\s+the\s+others\s+unchanged,\s+is\s+20.*raise\s+the\s+group's\s+maximum\s+size\s+to\s+40\s+nodes`),
			},
			{
				Config:      hpaLoadTest,
				ExpectError: regexp.MustCompile(`(?s)KCAP-E4:\s+database\s+"orders-mysql".*need\s+800.*largest\s+safe\s+maxReplicas\s+of\s+shop/api`),
			},
			{
				Config: hpaLoadTest,
				ExpectError: regexp.MustCompile(`(?s)KCAP-E7:.*the\s+VPC\s+resolver\s+is\s+the\s+binding\s+DNS\s+ceiling.*4,800\s+packets` +
					`.*Remedies:.*NodeLocal\s+DNSCache`),
			},
			{
				// The group also sizes the api's peak itself and fails it, planned with fail_on_misfit = false: its
				// misfit is a warning on the group, its capacity still feeds the check, which fails with its findings.
				Config: regexp.MustCompile(`workloads = \[\{ name = "cron"`).ReplaceAllString(hpaLoadTest,
					`fail_on_misfit = false
  workloads = [{ name = "api", min_replicas = 2, max_replicas = 40, requests = { cpu = "2500m", memory = "1Gi" } }, { name = "cron"`),
				ExpectError: regexp.MustCompile(`(?s)KCAP-E7:.*the\s+VPC\s+resolver\s+is\s+the\s+binding\s+DNS\s+ceiling`),
			},
			{
				Config:      regexp.MustCompile(`"shop/api" = "web"`).ReplaceAllString(hpaLoadTest, `"shop/api" = "gpu"`),
				ExpectError: regexp.MustCompile(`(?s)node_group_of\s+=\s+\{\s+"shop/api"\s+=\s+"gpu"\s+\}.*No\s+node\s+group\s+of\s+the\s+check\s+is\s+named\s+"gpu"`),
			},
		},
	})
}
