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

// upgradeSizing is 3 replicas of web, one per m5.xlarge node (3 CPU each), on an EKS pool of exactly 3 nodes,
// with the given pool settings and PodDisruptionBudget, checked for node_upgrade.
func upgradeSizing(poolExtra, budget string) string {
	return fmt.Sprintf(`data "kubefit_node_pool_sizing" "u" {
  pools = { general = { cloud = "aws", instance_type = "m5.xlarge", min_nodes = 3, max_nodes = 3 %s } }
  workloads = [{
    name = "web", replicas = 3, requests = { cpu = "3", memory = "1Gi" }
    pod_disruption_budget = %s
  }]
  disruptions = ["node_upgrade"]
}`, poolExtra, budget)
}

// TestAccNodePoolSizing_nodeUpgrade: EKS's default upgrade (one node at a time, one new node first) moves each
// pod to the new node; a PodDisruptionBudget that keeps all 3 replicas blocks the first drain, named with the
// fix; EKS takes no max surge.
func TestAccNodePoolSizing_nodeUpgrade(t *testing.T) {
	addr := "data.kubefit_node_pool_sizing.u"
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: upgradeSizing("", `{ name = "web", min_available = "100%" }`), ExpectError: regexp.MustCompile(`(?s)Disruption Not Absorbed.*` +
				errRe(`the`, `drain`, `blocks:`, `the`, `PodDisruptionBudget`, `"web"`, `of`, `workload`, `"web"`, `(min_available`, `100%:`, `3`, `of`, `its`, `3`, `replicas`).String() +
				`.*` + errRe(`min_available`, `below`, `3,`, `or`, `max_unavailable`, `of`, `at`, `least`, `1`).String())},
			{Config: upgradeSizing(`, upgrade_max_surge = "2"`, "null"), ExpectError: regexp.MustCompile(`(?s)upgrade_max_surge.*` +
				errRe(`an`, `EKS`, `managed`, `node`, `group`, `takes`, `no`, `max`, `surge`).String())},
			{Config: upgradeSizing("", `{ min_available = "1", max_unavailable = "1" }`), ExpectError: regexp.MustCompile(`(?s)pod_disruption_budget.*` +
				errRe(`sets`, `both`, `min_available`, `and`, `max_unavailable`).String())},
			{
				Config:           upgradeSizing("", `{ max_unavailable = "1" }`),
				ConfigPlanChecks: emptyPlanAfterApply,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("disruption_results").AtMapKey("node_upgrade").AtMapKey("fits"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("disruption_results").AtMapKey("node_upgrade").AtMapKey("evicted"), knownvalue.Int64Exact(3)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("disruption_results").AtMapKey("node_upgrade").AtMapKey("blocked"), knownvalue.MapExact(map[string]knownvalue.Check{})),
				},
			},
		},
	})
}

// workloadsUpgradeConfig reads a Deployment and its PodDisruptionBudget (spec given) from manifests and plans
// them, with node_upgrade, on an EKS pool of exactly 3 nodes.
func workloadsUpgradeConfig(pdbSpec string) string {
	return fmt.Sprintf(`data "kubefit_workloads" "app" {
  manifests = <<-YAML
    apiVersion: apps/v1
    kind: Deployment
    metadata: { name: web, namespace: shop }
    spec:
      replicas: 3
      strategy: { rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } }
      selector: { matchLabels: { app: web } }
      template:
        metadata: { labels: { app: web } }
        spec:
          containers: [{ name: web, image: web, resources: { requests: { cpu: "3", memory: 1Gi } } }]
    ---
    apiVersion: policy/v1
    kind: PodDisruptionBudget
    metadata: { name: web-pdb, namespace: shop }
    spec: { %s, selector: { matchLabels: { app: web } } }
  YAML
}

data "kubefit_node_pool_sizing" "u" {
  pools       = { general = { cloud = "aws", instance_type = "m5.xlarge", min_nodes = 3, max_nodes = 3 } }
  workloads   = data.kubefit_workloads.app.workloads
  disruptions = ["node_upgrade"]
}`, pdbSpec)
}

// TestAccWorkloads_budgetBlocksUpgrade: the PodDisruptionBudget kubefit_workloads reads reaches the sizing: one
// that keeps every replica blocks the node upgrade's first drain, named; maxUnavailable 1 lets it through.
func TestAccWorkloads_budgetBlocksUpgrade(t *testing.T) {
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: workloadsUpgradeConfig("minAvailable: 3"), ExpectError: regexp.MustCompile(`(?s)Disruption Not Absorbed.*` +
				errRe(`PodDisruptionBudget`, `"web-pdb"`, `of`, `workload`, `"web"`, `(min_available`, `3:`).String())},
			{
				Config:           workloadsUpgradeConfig("maxUnavailable: 1"),
				ConfigPlanChecks: emptyPlanAfterApply,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(wlAddr, tfjsonpath.New("workloads").AtSliceIndex(0).AtMapKey("pod_disruption_budget").AtMapKey("max_unavailable"), knownvalue.StringExact("1")),
					statecheck.ExpectKnownValue("data.kubefit_node_pool_sizing.u", tfjsonpath.New("disruption_results").AtMapKey("node_upgrade").AtMapKey("fits"), knownvalue.Bool(true)),
				},
			},
		},
	})
}

// TestAccNodeGroup_nodeUpgrade: a GKE node group passes its upgrade settings: with max surge 0 and one node
// unavailable, the drained node's pod has nowhere to go (one per node), and the remedy names the settings that
// work; with GKE's default (one surge node) the upgrade goes through.
func TestAccNodeGroup_nodeUpgrade(t *testing.T) {
	cfg := func(settings string) string {
		return fmt.Sprintf(`resource "kubefit_node_group" "g" {
  name          = "web"
  cloud         = "gcp"
  instance_type = "e2-standard-4"
  max_size      = 3
  %s
  workloads     = [{ name = "web", replicas = 3, requests = { cpu = "2500m", memory = "1Gi" }, spread = { type = "node" } }]
  disruptions   = ["node_upgrade"]
}`, settings)
	}
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: cfg(`upgrade_max_surge = "0"
  upgrade_max_unavailable = "1"`), ExpectError: regexp.MustCompile(`(?s)Disruption Not Absorbed.*group\s+"web":\s+node_upgrade.*` +
				errRe(`1`, `pod`, `binds`, `nowhere`).String() + `.*` + errRe(`With`, `max`, `unavailable`, `0`, `and`, `a`, `max`, `surge`, `of`, `1`).String())},
			{Config: cfg(`upgrade_max_surge = "50%"`), ExpectError: regexp.MustCompile(`(?s)upgrade_max_surge.*` + errRe(`GKE's`, `surge`, `upgrade`, `settings`, `are`, `node`, `counts`).String())},
			{Config: cfg(""), ConfigPlanChecks: emptyPlanAfterApply, ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("kubefit_node_group.g", tfjsonpath.New("disruption_results").AtMapKey("node_upgrade").AtMapKey("fits"), knownvalue.Bool(true)),
				statecheck.ExpectKnownValue("kubefit_node_group.g", tfjsonpath.New("gke_node_pool").AtMapKey("upgrade_settings"), knownvalue.Null()),
			}},
			// The settings planned with are the ones the consumer gets.
			{Config: cfg(`upgrade_max_surge = "2"`), ConfigPlanChecks: emptyPlanAfterApply, ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("kubefit_node_group.g", tfjsonpath.New("gke_node_pool").AtMapKey("upgrade_settings"), knownvalue.ObjectExact(map[string]knownvalue.Check{
					"max_surge": knownvalue.Int64Exact(2), "max_unavailable": knownvalue.Int64Exact(0)})),
				statecheck.ExpectKnownValue("kubefit_node_group.g", tfjsonpath.New("disruption_results").AtMapKey("node_upgrade").AtMapKey("message"),
					knownvalue.StringRegexp(regexp.MustCompile(`2 at a time with 2 surge nodes`))),
			}},
		},
	})
}

// TestAccNodeGroup_eksUpdateConfig: an EKS group's max unavailable is what node_upgrade plans with (as many new
// nodes, as many drained at once) and what eks_node_group.update_config carries.
func TestAccNodeGroup_eksUpdateConfig(t *testing.T) {
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: `resource "kubefit_node_group" "g" {
  name                    = "web"
  cloud                   = "aws"
  instance_type           = "m5.xlarge"
  max_size                = 4
  upgrade_max_unavailable = "50%"
  workloads               = [{ name = "web", replicas = 4, requests = { cpu = "2500m", memory = "1Gi" } }]
  disruptions             = ["node_upgrade"]
}`,
			ConfigPlanChecks: emptyPlanAfterApply,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("kubefit_node_group.g", tfjsonpath.New("eks_node_group").AtMapKey("update_config"), knownvalue.ObjectExact(map[string]knownvalue.Check{
					"max_unavailable": knownvalue.Null(), "max_unavailable_percentage": knownvalue.Int64Exact(50)})),
				statecheck.ExpectKnownValue("kubefit_node_group.g", tfjsonpath.New("disruption_results").AtMapKey("node_upgrade").AtMapKey("message"),
					knownvalue.StringRegexp(regexp.MustCompile(`replacing the 4 nodes of pool "web" \(m5\.xlarge\), 2 at a time with 2 surge nodes`))),
			},
		}},
	})
}
