package provider

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// twoClients renders two ScaledObjects holding connections to one database, and a capacity check.
func twoClients(apiVersion string, maxConnections int) string {
	so := func(name, target, av string) string {
		avLine := ""
		if av != "" {
			avLine = fmt.Sprintf(", api_version = %q", av)
		}
		return fmt.Sprintf(`
resource "kubefit_keda_scaled_object" %q {
  name              = %q
  namespace         = "shop"
  scale_target_ref  = { name = %q%s }
  min_replica_count = 1
  max_replica_count = 10
  triggers = [{ type = "kafka", metadata = { topic = "orders" } }]
  target_workload = {
    rollout             = { strategy = "Recreate" }
    connections_per_pod = 4
    pod_template        = { containers = [{ name = "app", requests = { cpu = "500m", memory = "256Mi" } }] }
  }
  node_group_capacity = local.general
}
`, name, name, target, avLine)
	}
	return so("api", "api", "") + so("worker", "worker", apiVersion) + fmt.Sprintf(`
locals {
  general = {
    name                 = "general"
    max_nodes            = 10
    zones                = ["a", "b"]
    workload_allocatable = { cpu_millicores = 1930, memory_bytes = 7000000000 }
    workload_pods        = 29
  }
}
resource "kubefit_capacity_check" "shop" {
  scaled_objects = [kubefit_keda_scaled_object.api.summary, kubefit_keda_scaled_object.worker.summary]
  node_groups    = [local.general]
  databases = [{ name = "orders-mysql", max_connections = %d, clients = ["shop/api", "shop/worker"] }]
}
`, maxConnections)
}

// TestAccCapacityCheck_database: 2 × 10 pods × 4 connections = 80 fit 200 (soft 100), and fail at 60; the
// two workloads' 20 pods pack onto 7 nodes of the group.
func TestAccCapacityCheck_database(t *testing.T) {
	addr := "kubefit_capacity_check.shop"
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: twoClients("", 200),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectKnownValue(addr, tfjsonpath.New("database_demand"), knownvalue.MapExact(map[string]knownvalue.Check{
							"orders-mysql": knownvalue.Int64Exact(80)})),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("peak_nodes"), knownvalue.MapExact(map[string]knownvalue.Check{
						"general": knownvalue.Int64Exact(7)})),
				},
			},
			{
				Config:      twoClients("", 60),
				ExpectError: regexp.MustCompile(`KCAP-E4(.|\n)*"orders-mysql"\s+allows\s+60(.|\n)*need\s+80(.|\n)*largest\s+safe\s+maxReplicaCount\s+of`),
			},
		},
	})
}

// TestAccCapacityCheck_oneScaledObjectPerTarget is §7.5's KSO-E17 vector: apiVersion unset and apps/v1
// name the same Deployment.
func TestAccCapacityCheck_oneScaledObjectPerTarget(t *testing.T) {
	cfg := twoClients("apps/v1", 200)
	cfg = regexp.MustCompile(`name = "worker" }|name = "worker", api_version`).ReplaceAllStringFunc(cfg, func(s string) string {
		return regexp.MustCompile(`"worker"`).ReplaceAllString(s, `"api"`)
	})
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config:      cfg,
			PlanOnly:    true,
			ExpectError: regexp.MustCompile(`KSO-E17(.|\n)*already\s+managed\s+by\s+the\s+ScaledObject\s+"shop/api"`),
		}},
	})
}

// TestAccCapacityCheck_example applies the documentation example.
func TestAccCapacityCheck_example(t *testing.T) {
	src, err := os.ReadFile("../../examples/resources/kubefit_capacity_check/resource.tf")
	if err != nil {
		t.Fatal(err)
	}
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: string(src),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
			},
			ConfigStateChecks: []statecheck.StateCheck{
				// The api's lookups reach CoreDNS (2 replicas: the ladder's two-node minimum) and, through
				// NodeLocal DNSCache, the resolver from every node.
				statecheck.ExpectKnownValue("kubefit_capacity_check.shop", tfjsonpath.New("dns_result").AtMapKey("coredns_replicas"), knownvalue.Int64Exact(2)),
				statecheck.ExpectKnownValue("kubefit_capacity_check.shop", tfjsonpath.New("dns_result").AtMapKey("binding"), knownvalue.NotNull()),
			},
		}},
	})
}

// TestAccCapacityCheck_knownPartChecked: while the worker's summary is unknown (its name comes from another
// resource), the api's 10 pods × 4 connections already exceed a database of 30 connections, so the plan
// fails; the unknown client is not an error, and with 200 connections the plan passes.
func TestAccCapacityCheck_knownPartChecked(t *testing.T) {
	pending := func(maxConnections int) string {
		return `resource "terraform_data" "worker_name" { input = "worker" }` + strings.Replace(twoClients("", maxConnections),
			`name              = "worker"`, `name              = terraform_data.worker_name.output`, 1)
	}
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: pending(30), PlanOnly: true, ExpectError: regexp.MustCompile(`KCAP-E4(.|\n)*"orders-mysql"\s+allows\s+30(.|\n)*need\s+40`)},
			{Config: pending(200)},
		},
	})
}

// TestAccCapacityCheck_schedulerPlacement: 20 pods of 1,500m and 40 of 700m on a group of 3,920m nodes. The
// best packing holds them on 16 nodes, but kube-scheduler, with both rolling out at once, needs more: a group of
// 16 fails KCAP-E2 naming both counts; a group of 40 passes with the scheduler's count as peak_nodes.
func TestAccCapacityCheck_schedulerPlacement(t *testing.T) {
	cfg := func(maxNodes int, order string) string {
		return fmt.Sprintf(`
locals {
  so = { namespace = "shop", surge = 0, node_group = "general" }
}
resource "kubefit_capacity_check" "mix" {
  scaled_objects = [
    merge(local.so, { name = "big", hpa_name = "keda-hpa-big", target_name = "big", peak_replicas = 20,
      pod_requests = { cpu_millicores = 1500, memory_bytes = 1073741824 } }),
    merge(local.so, { name = "small", hpa_name = "keda-hpa-small", target_name = "small", peak_replicas = 40,
      pod_requests = { cpu_millicores = 700, memory_bytes = 1073741824 } }),
  ]
  node_groups = [{ name = "general", max_nodes = %d, workload_pods = 58,
    workload_allocatable = { cpu_millicores = 3920, memory_bytes = 15032385536 } }]
  arrival_order = %q
}`, maxNodes, order)
	}
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: cfg(16, "rollout"), ExpectError: regexp.MustCompile(`(?s)KCAP-E2.*kube-scheduler \(default\s+profile,\s+rollout\s+arrival\)\s+places\s+them\s+on\s+(1[7-9]|[2-9]\d)\s+nodes\s+\(the\s+best\s+packing\s+needs\s+16\)`)},
			{Config: cfg(40, "rollout"), ConfigPlanChecks: emptyPlanAfterApply, ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("kubefit_capacity_check.mix", tfjsonpath.New("peak_nodes").AtMapKey("general"), knownvalue.Int64Func(func(v int64) error {
					if v <= 16 {
						return fmt.Errorf("peak nodes %d: the scheduler needs more than the best packing's 16 here", v)
					}
					return nil
				}))}},
		},
	})
}

// TestAccCapacityCheck_pendingNodeGroupOf: the HPA's max_replicas comes from another resource, so its summary is
// unknown at plan. A node_group_of key naming it is deferred to apply, as a pending database client is, not
// "no ScaledObject or HPA of the check"; a key naming a group the check does not have is still an error.
func TestAccCapacityCheck_pendingNodeGroupOf(t *testing.T) {
	cfg := func(group string) string {
		return fmt.Sprintf(`
resource "terraform_data" "later" { input = "x" }
resource "kubefit_horizontal_pod_autoscaler" "api" {
  name             = "api"
  namespace        = "shop"
  max_replicas     = length(terraform_data.later.output) + 3
  scale_target_ref = { api_version = "apps/v1", kind = "Deployment", name = "api" }
  metrics          = [{ type = "Resource", resource = { name = "cpu", target = { type = "Utilization", average_utilization = 70 } } }]
  target_workload  = { pod_template = { containers = [{ name = "api", requests = { cpu = "500m", memory = "1Gi" } }] } }
}
resource "kubefit_capacity_check" "c" {
  horizontal_pod_autoscalers = [kubefit_horizontal_pod_autoscaler.api.summary]
  node_groups = [{ name = "general", max_nodes = 2, zones = ["a", "b"],
    workload_allocatable = { cpu_millicores = 1805, memory_bytes = 7171211264 }, workload_pods = 27 }]
  node_group_of = { "shop/api" = %q }
}
`, group)
	}
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: cfg("nope"), PlanOnly: true, ExpectNonEmptyPlan: true,
				ExpectError: regexp.MustCompile(`(?i)no\s+node\s+group\s+of\s+the\s+check\s+is\s+named\s+"nope"`)},
			{Config: cfg("general"), ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("kubefit_capacity_check.c", tfjsonpath.New("peak_nodes"), knownvalue.MapExact(map[string]knownvalue.Check{
					"general": knownvalue.Int64Exact(2)})),
			}},
		},
	})
}
