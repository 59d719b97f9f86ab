package provider

import (
	"fmt"
	"os"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

const soAddr = "kubefit_keda_scaled_object.test"

func scaledObject(attrs string) string {
	return fmt.Sprintf("resource \"kubefit_keda_scaled_object\" \"test\" {\n%s\n}\n", attrs)
}

// fieldReportSO is the field report's ScaledObject, as kubefit inputs.
const fieldReportSO = `name      = "prometheus-scaledobject"
namespace = "default"
scale_target_ref = { name = "promfiberdeploy" }
min_replica_count = 1
max_replica_count = 5
triggers = [{
  type = "prometheus"
  metadata = {
    serverAddress = "http://prometheus-server.monitoring.svc.cluster.local:80"
    threshold     = "100"
    query         = "sum(irate(http_requests_total[1m]))"
  }
}]`

// handWritten is the field report's kubernetes_manifest object, in HCL, with yamldecode checks.
const handWritten = `
locals {
  hand_written = {
    apiVersion = "keda.sh/v1alpha1"
    kind       = "ScaledObject"
    metadata   = { name = "prometheus-scaledobject", namespace = "default" }
    spec = {
      scaleTargetRef  = { name = "promfiberdeploy" }
      minReplicaCount = 1
      maxReplicaCount = 5
      triggers = [{
        type = "prometheus"
        metadata = {
          serverAddress = "http://prometheus-server.monitoring.svc.cluster.local:80"
          threshold     = "100"
          query         = "sum(irate(http_requests_total[1m]))"
        }
      }]
    }
  }
}
output "same_as_hand_written" {
  value = jsonencode(kubefit_keda_scaled_object.test.manifest) == jsonencode(local.hand_written)
}
output "yaml_round_trip" {
  value = yamldecode(kubefit_keda_scaled_object.test.yaml) == kubefit_keda_scaled_object.test.manifest
}
`

// TestAccKEDAScaledObject_fieldReport renders the field report's ScaledObject to the same object as the
// hand-written manifest it replaces; yamldecode(yaml) == manifest; a second plan is empty; a changed
// input re-renders in place.
func TestAccKEDAScaledObject_fieldReport(t *testing.T) {
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: scaledObject(fieldReportSO) + handWritten,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(soAddr, plancheck.ResourceActionCreate),
						plancheck.ExpectKnownValue(soAddr, tfjsonpath.New("hpa_name"), knownvalue.StringExact("keda-hpa-prometheus-scaledobject")),
						plancheck.ExpectKnownOutputValue("same_as_hand_written", knownvalue.Bool(true)),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(soAddr, tfjsonpath.New("id"), knownvalue.StringExact("default/prometheus-scaledobject")),
					statecheck.ExpectKnownValue(soAddr, tfjsonpath.New("effective"), knownvalue.ObjectExact(map[string]knownvalue.Check{
						"min_replicas": knownvalue.Int64Exact(1), "hpa_min_replicas": knownvalue.Int64Exact(1),
						"max_replicas": knownvalue.Int64Exact(5), "polling_interval_seconds": knownvalue.Int64Exact(30),
						"cooldown_period_seconds": knownvalue.Int64Exact(300), "initial_cooldown_period_seconds": knownvalue.Int64Exact(0),
						"target_api_version": knownvalue.StringExact("apps/v1"), "target_kind": knownvalue.StringExact("Deployment"),
					})),
					statecheck.ExpectKnownValue(soAddr, tfjsonpath.New("yaml"), knownvalue.StringRegexp(regexp.MustCompile(
						`(?s)^apiVersion: "keda.sh/v1alpha1"\nkind: "ScaledObject"\nmetadata:\n  name: "prometheus-scaledobject"\n.*\n        "threshold": "100"\n$`))),
					statecheck.ExpectKnownOutputValue("same_as_hand_written", knownvalue.Bool(true)),
					statecheck.ExpectKnownOutputValue("yaml_round_trip", knownvalue.Bool(true)),
				},
			},
			{
				// In-place update: a new maximum, a fallback, HPA behavior and labels re-render.
				Config: scaledObject(fieldReportSO+`
labels = { team = "checkout", "app.kubernetes.io/name" = "fiber" }
fallback = { failure_threshold = 3, replicas = 2 }
advanced = { horizontal_pod_autoscaler_config = { behavior = {
  scale_down = { stabilization_window_seconds = 300, policies = [{ type = "Percent", value = 50, period_seconds = 60 }] }
} } }`) + `
output "yaml_round_trip" {
  value = yamldecode(kubefit_keda_scaled_object.test.yaml) == kubefit_keda_scaled_object.test.manifest
}
`,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(soAddr, plancheck.ResourceActionUpdate),
						plancheck.ExpectKnownValue(soAddr, tfjsonpath.New("manifest").AtMapKey("spec").AtMapKey("fallback").AtMapKey("behavior"),
							knownvalue.StringExact("static")),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(soAddr, tfjsonpath.New("manifest").AtMapKey("spec").AtMapKey("advanced").
						AtMapKey("horizontalPodAutoscalerConfig").AtMapKey("behavior").AtMapKey("scaleDown").AtMapKey("policies").
						AtSliceIndex(0).AtMapKey("periodSeconds"), knownvalue.Int64Exact(60)),
					statecheck.ExpectKnownValue(soAddr, tfjsonpath.New("manifest").AtMapKey("metadata").AtMapKey("labels").
						AtMapKey("app.kubernetes.io/name"), knownvalue.StringExact("fiber")),
					statecheck.ExpectKnownOutputValue("yaml_round_trip", knownvalue.Bool(true)),
				},
			},
		},
	})
}

// TestAccKEDAScaledObject_rules: webhook and CRD rules fail the plan with their rule IDs.
func TestAccKEDAScaledObject_rules(t *testing.T) {
	cases := []struct{ attrs, want string }{
		{`name = "api"
namespace = "shop"
scale_target_ref = { name = "api" }
idle_replica_count = 0
triggers = [{ type = "kafka", metadata = {} }]`, `KSO-E6(.|\n)*IdleReplicaCount=0\s+must\s+be\s+less\s+than\s+MinReplicaCount=0`},
		{`name = "api"
namespace = "shop"
scale_target_ref = { name = "api" }
min_replica_count = 0
triggers = [{ type = "cpu", metric_type = "Utilization", metadata = { value = "70" } }]`, `KSO-E12`},
		{`name = "api"
namespace = "shop"
scale_target_ref = { name = "api" }
min_replica_count = 1
triggers = [{ type = "cpu", metadata = { value = "70" } }]`, `KSO-E10(.|\n)*metricType`},
		{`name = "` + "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" + `"
namespace = "shop"
scale_target_ref = { name = "api" }
min_replica_count = 1
triggers = [{ type = "kafka", metadata = {} }]`, `KSO-E2(.|\n)*64\s+characters`},
		{`name = "api"
namespace = "shop"
scale_target_ref = { name = "api" }
min_replica_count = 1
advanced = { scaling_modifiers = { formula = "a + b", target = "2" } }
triggers = [{ type = "kafka", name = "a", metadata = {} }]`, `KSO-E9(.|\n)*"a \+ b"`},
		{`name = "api"
namespace = "shop"
scale_target_ref = { name = "api" }
min_replica_count = 1
triggers = [{ type = "prometheus", metadata = { serverAddress = "http://p:9090", query = "up", threshold = "0.0004" } }]`, `KSO-E15(.|\n)*0.0004`},
		{`name = "api"
namespace = "shop"
scale_target_ref = { name = "api" }
min_replica_count = 1
advanced = { horizontal_pod_autoscaler_config = { behavior = { scale_up = { policies = [{ type = "Pods", value = 4, period_seconds = 3600 }] } } } }
triggers = [{ type = "kafka", metadata = {} }]`, `KSO-E14(.|\n)*periodSeconds\s+3600`},
		// max_replica_count below 0 with min_replica_count unset used to crash the plan.
		{`name = "api"
namespace = "shop"
scale_target_ref = { name = "api" }
max_replica_count = -1
triggers = [{ type = "kafka", metadata = {} }]`, `KSO-E4(.|\n)*maxReplicaCount\s+-1\s+is\s+out\s+of\s+range`},
		// KEDA's webhook turns a ?? formula's result into a float, which a string is not.
		{`name = "api"
namespace = "shop"
scale_target_ref = { name = "api" }
min_replica_count = 1
advanced = { scaling_modifiers = { formula = "\"x\" ?? a", target = "2" } }
triggers = [{ type = "kafka", name = "a", metadata = {} }]`, `KSO-E9(.|\n)*does\s+not\s+compile\s+and\s+run`},
	}
	for i, c := range cases {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			resource.UnitTest(t, resource.TestCase{
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				Steps: []resource.TestStep{
					{Config: scaledObject(c.attrs), PlanOnly: true, ExpectError: regexp.MustCompile(c.want)},
				},
			})
		})
	}
}

// capacityGroup is a c5.xlarge group literally in the §9.1 shape (workload allocatable per node after
// DaemonSets: 3,620m CPU, about 6 GiB, 54 pod slots).
func capacityGroup(maxNodes int) string {
	return fmt.Sprintf(`node_group_capacity = {
  name      = "general-c5-xlarge"
  max_nodes = %d
  zones     = ["eu-west-1a", "eu-west-1b", "eu-west-1c"]
  workload_allocatable = { cpu_millicores = 3620, memory_bytes = 6442450944, ephemeral_bytes = 19327352832 }
  workload_pods = 54
}`, maxNodes)
}

const capacitySO = `name = "api"
namespace = "shop"
scale_target_ref = { name = "api" }
min_replica_count = 2
max_replica_count = 40
triggers = [{ type = "prometheus", metadata = { serverAddress = "http://p:9090", query = "up", threshold = "10", ignoreNullValues = "false" } }]
target_workload = {
  pod_template = { containers = [{ name = "app", requests = { cpu = "2500m", memory = "1Gi" } }] }
  rollout      = { strategy = "RollingUpdate", max_surge = "0" }
}
`

// TestAccKEDAScaledObject_capacity: 40 replicas at 2,500m CPU need 40 c5.xlarge nodes (one pod per node);
// max_size 20 fails naming the group and the largest safe count (20); raising max_size to 40 passes.
func TestAccKEDAScaledObject_capacity(t *testing.T) {
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: scaledObject(capacitySO + capacityGroup(40)),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(soAddr, tfjsonpath.New("summary"), knownvalue.ObjectPartial(map[string]knownvalue.Check{
						"peak_replicas": knownvalue.Int64Exact(40), "surge": knownvalue.Int64Exact(0),
						"node_group": knownvalue.StringExact("general-c5-xlarge"),
						"pod_requests": knownvalue.ObjectExact(map[string]knownvalue.Check{
							"cpu_millicores": knownvalue.Int64Exact(2500), "memory_bytes": knownvalue.Int64Exact(1 << 30),
							"ephemeral_bytes": knownvalue.Int64Exact(0)}),
					})),
				},
			},
			{
				Config:      scaledObject(capacitySO + capacityGroup(20)),
				ExpectError: regexp.MustCompile(`KCAP-E2(.|\n)*"general-c5-xlarge"(.|\n)*largest\s+safe\s+maxReplicaCount\s+is\s+20`),
			},
		},
	})
}

// TestAccKEDAScaledObject_database: 30 pods × 10 connections exceed max_connections 90; the largest safe
// count is 9. Nine pass with a warning about the usable share.
func TestAccKEDAScaledObject_database(t *testing.T) {
	so := func(maxR int) string {
		return scaledObject(fmt.Sprintf(`name = "php"
namespace = "shop"
scale_target_ref = { name = "php" }
min_replica_count = 1
max_replica_count = %d
triggers = [{ type = "prometheus", metadata = { serverAddress = "http://p:9090", query = "up", threshold = "10" } }]
target_workload = { rollout = { strategy = "Recreate" }, connections_per_pod = 10 }
database = { name = "orders-mysql", max_connections = 90 }`, maxR))
	}
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config:      so(30),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`KCAP-E4(.|\n)*"orders-mysql"(.|\n)*need\s+300(.|\n)*largest\s+safe\s+maxReplicaCount\s+is\s+9`),
			},
			{
				Config: so(9),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
		},
	})
}

// TestAccKEDAScaledObject_unknown: an input unknown at plan time (an id only known after apply) gives
// unknown outputs and no error; values another plan-only resource computes are known during plan.
func TestAccKEDAScaledObject_unknown(t *testing.T) {
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: `
resource "terraform_data" "id" {}
resource "kubefit_keda_scaled_object" "upstream" {
` + fieldReportSO + `
}
resource "kubefit_keda_scaled_object" "test" {
  name      = "second"
  namespace = "default"
  scale_target_ref  = { name = "other" }
  min_replica_count = 1
  max_replica_count = length(terraform_data.id.id) > 0 ? kubefit_keda_scaled_object.upstream.effective.max_replicas : 6
  triggers = [{ type = "kafka", metadata = { topic = terraform_data.id.id, group = kubefit_keda_scaled_object.upstream.hpa_name } }]
  target_workload   = { pod_template = { containers = [{ name = "app", requests = { cpu = "2500m" } }] } }
  node_group_capacity = length(terraform_data.id.id) > 0 ? {
    name = "general", max_nodes = 10, workload_allocatable = { cpu_millicores = 3620, memory_bytes = 6442450944 }, workload_pods = 54
  } : null
}
resource "kubefit_keda_scaled_object" "custom" {
  name      = "third"
  namespace = "default"
  scale_target_ref  = { name = "other" }
  min_replica_count = 1
  max_replica_count = 4
  advanced = { horizontal_pod_autoscaler_config = { name = "hpa-${terraform_data.id.id}" } }
  triggers = [{ type = "cpu", metric_type = "Utilization", metadata = { value = "60" } }]
}
resource "kubefit_keda_scaled_object" "parent" {
  name      = "fourth"
  namespace = "default"
  scale_target_ref  = { name = "other" }
  min_replica_count = 1
  max_replica_count = 4
  advanced = length(terraform_data.id.id) > 0 ? { horizontal_pod_autoscaler_config = { name = "custom-hpa" } } : null
  triggers = [{ type = "cpu", metric_type = "Utilization", metadata = { value = "60" } }]
}`,
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{
					// max_replica_count is optional: unknown, it may turn out null and drop its key, so spec is an unknown of
					// no fixed type (the final manifest's type must be the planned one's).
					plancheck.ExpectUnknownValue(soAddr, tfjsonpath.New("manifest").AtMapKey("spec")),
					plancheck.ExpectKnownValue(soAddr, tfjsonpath.New("manifest").AtMapKey("metadata"), knownvalue.ObjectExact(map[string]knownvalue.Check{
						"name": knownvalue.StringExact("second"), "namespace": knownvalue.StringExact("default")})),
					plancheck.ExpectUnknownValue(soAddr, tfjsonpath.New("yaml")),
					plancheck.ExpectKnownValue(soAddr, tfjsonpath.New("manifest").AtMapKey("apiVersion"), knownvalue.StringExact("keda.sh/v1alpha1")),
					plancheck.ExpectKnownValue(soAddr, tfjsonpath.New("id"), knownvalue.StringExact("default/second")),
					// The HPA's name needs only the name and the custom HPA name: known although other inputs are not.
					plancheck.ExpectKnownValue(soAddr, tfjsonpath.New("hpa_name"), knownvalue.StringExact("keda-hpa-second")),
					plancheck.ExpectUnknownValue("kubefit_keda_scaled_object.custom", tfjsonpath.New("hpa_name")),
					// advanced itself unknown: its custom name may come, so the name is not the default.
					plancheck.ExpectUnknownValue("kubefit_keda_scaled_object.parent", tfjsonpath.New("hpa_name")),
				},
				PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
			},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(soAddr, tfjsonpath.New("manifest").AtMapKey("spec").AtMapKey("maxReplicaCount"), knownvalue.Int64Exact(5)),
			},
		}},
	})
}

// TestAccKEDAScaledObject_example applies the documentation example.
func TestAccKEDAScaledObject_example(t *testing.T) {
	src, err := os.ReadFile("../../examples/resources/kubefit_keda_scaled_object/resource.tf")
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
				statecheck.ExpectKnownOutputValue("api_hpa_name", knownvalue.StringExact("keda-hpa-api")),
				// The floor and surge rule a remedy that lowers the maximum counts with (min_replica_count 2, maxSurge 25%).
				statecheck.ExpectKnownValue("kubefit_keda_scaled_object.api", tfjsonpath.New("summary").AtMapKey("min_replicas"), knownvalue.Int64Exact(2)),
				statecheck.ExpectKnownValue("kubefit_keda_scaled_object.api", tfjsonpath.New("summary").AtMapKey("max_surge"), knownvalue.StringExact("25%")),
				statecheck.ExpectKnownOutputValue("prometheus_yaml", knownvalue.StringRegexp(regexp.MustCompile(`name: "promfiberdeploy"`))),
			},
		}},
	})
}
