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

// hpaLoadTestGroupDefers is the load test with a node group whose own workloads do not fit either: a worker of
// 24 pods of 3,000m (one a node) on at most 20 c5.xlarge. With misfits_reported_by = "capacity_check" the group
// does not fail its own plan; it lists the misfit in capacity.failures, and the capacity check raises it.
var hpaLoadTestGroupDefers = regexp.MustCompile(`workloads = \[\{ name = "cron"`).ReplaceAllString(hpaLoadTest,
	`misfits_reported_by = "capacity_check"
  workloads = [{ name = "worker", replicas = 24, requests = { cpu = "3000m", memory = "1Gi" } }, { name = "cron"`)

// TestAccCapacityCheck_groupMisfitInOnePlan: ONE plan lists every failing check of the load test: the node
// group's own misfit (KCAP-E8 on node_groups[0]: 24 workers need 24 nodes of 20, the largest count that fits
// is 20), the HPA's shortfall on the group with the group's own workers and cron beside it (KCAP-E2: 40 + 24 + 1
// pods on 64 nodes; no count of the HPA alone is a remedy, since the workers alone do not fit), the database's
// (KCAP-E4) and the DNS budget's (KCAP-E7),
// each with its remedy, in that order. Without the capacity check the group plans (its misfit is in
// capacity.failures, with the attribute at fault and the remedy); with fail_on_misfit = false the mode is
// refused; without the mode the group fails alone and hides the check.
func TestAccCapacityCheck_groupMisfitInOnePlan(t *testing.T) {
	groupOnly := hpaLoadTestGroupDefers[:regexp.MustCompile(`resource "kubefit_horizontal_pod_autoscaler"`).FindStringIndex(hpaLoadTestGroupDefers)[0]]
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: hpaLoadTestGroupDefers,
				// Terraform prints the diagnostics by line: node_groups (KCAP-E8, KCAP-E2), databases (KCAP-E4), dns (KCAP-E7).
				ExpectError: regexp.MustCompile(`(?s)Capacity\s+Check\s+Failed\s+\(KCAP-E8\).*node_groups\s+=\s+\[kubefit_node_group.web.capacity\].*` +
					`KCAP-E8:\s+node\s+group\s+"web"\s+does\s+not\s+carry\s+its\s+own\s+workloads\s+\(reported\s+here,\s+as\s+its\s+` +
					`misfits_reported_by\s+=\s+"capacity_check"\s+asks;\s+at\s+fault:\s+its\s+max_size\):\s+node\s+group\s+"web"\s+\(c5.xlarge\)\s+needs\s+24\s+nodes` +
					`.*Raise\s+the\s+group's\s+maximum\s+size\s+to\s+24.*the\s+largest\s+replica\s+count\s+of\s+workload\s+"worker"\s+that\s+fits\s+is\s+20` +
					`.*KCAP-E2:\s+node\s+group\s+"web"\s+cannot\s+hold\s+the\s+peak\s+of\s+HPA\s+"shop/api"\s+and\s+the\s+group's\s+own\s+workloads\s+"worker"\s+and\s+"cron"` +
					`.*on\s+64\s+nodes.*raise\s+the\s+group's\s+maximum\s+size\s+to\s+64\s+nodes` +
					`.*databases\s+=\s+\[\{\s+name\s+=\s+"orders-mysql".*KCAP-E4:\s+database\s+"orders-mysql".*need\s+800.*largest\s+safe\s+maxReplicas\s+of\s+shop/api` +
					`.*KCAP-E7:.*the\s+VPC\s+resolver\s+is\s+the\s+binding\s+DNS\s+ceiling.*Remedies:`),
			},
			{
				// The same configuration without the mode: the group fails alone, and the check is not planned.
				Config:      regexp.MustCompile(`misfits_reported_by = "capacity_check"\n`).ReplaceAllString(hpaLoadTestGroupDefers, ""),
				ExpectError: regexp.MustCompile(`(?s)Workloads\s+Do\s+Not\s+Fit\s+the\s+Node\s+Group.*misfits_reported_by\s+=\s+"capacity_check"`),
			},
			{
				Config:      regexp.MustCompile(`misfits_reported_by = "capacity_check"`).ReplaceAllString(groupOnly, "misfits_reported_by = \"capacity_check\"\n  fail_on_misfit = false"),
				ExpectError: regexp.MustCompile(`(?s)Misfits\s+Reported\s+Nowhere.*remove\s+fail_on_misfit\s+=\s+false`),
			},
			{
				// No capacity check reads the group: it plans (the user chose the mode), its misfit in capacity.failures.
				Config: groupOnly,
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr("kubefit_node_group.web", "capacity.failures.#", "1"),
					resource.TestCheckResourceAttr("kubefit_node_group.web", "capacity.failures.0.reason", "max-nodes"),
					resource.TestCheckResourceAttr("kubefit_node_group.web", "capacity.failures.0.attribute", "max_size"),
					resource.TestMatchResourceAttr("kubefit_node_group.web", "capacity.failures.0.message", regexp.MustCompile(`workload "worker"`)),
					resource.TestCheckResourceAttr("kubefit_node_group.web", "capacity.failures.0.remedy",
						`With every other workload at its own peak, the largest replica count of workload "worker" that fits is 20.`),
					resource.TestCheckResourceAttr("kubefit_node_group.web", "max_size", "20"),
				),
			},
		},
	})
}
