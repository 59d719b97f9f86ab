package provider

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/nodegroup"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/sizing"
)

const ngAddr = "kubefit_node_group.test"

func nodeGroup(body string) string {
	return "resource \"kubefit_node_group\" \"test\" {\n" + body + "\n}\n"
}

// phpNodeGroup is the field report's load test: 40 replicas of 2,500m on c5.xlarge (one pod per node).
func phpNodeGroup(extra string) string {
	return nodeGroup(`name = "php"
cloud = "aws"
instance_type = "c5.xlarge"
zones = ["us-east-1a", "us-east-1b"]
daemonsets = [{ name = "kube-proxy", requests = { cpu = "100m", memory = "64Mi" } }]
workloads = [{ name = "php", min_replicas = 3, max_replicas = 40, requests = { cpu = "2500m", memory = "1Gi" } }]
` + extra)
}

func expectNG(p tfjsonpath.Path, v knownvalue.Check) statecheck.StateCheck {
	return statecheck.ExpectKnownValue(ngAddr, p, v)
}

func TestAccNodeGroup_fieldReport(t *testing.T) {
	outputs := `
output "same_object" {
  value = yamldecode(kubefit_node_group.test.karpenter_node_pool_yaml) == kubefit_node_group.test.karpenter_node_pool
}
`
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config:      phpNodeGroup("max_size = 20"),
				ExpectError: regexp.MustCompile(`(?s)Node\s+group\s+"php".*needs\s+40\s+nodes.*maximum\s+size\s+is\s+20.*largest\s+replica\s+count\s+of\s+workload\s+"php"\s+that\s+fits\s+is\s+20`),
			},
			{
				Config: phpNodeGroup("") + outputs,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(ngAddr, plancheck.ResourceActionCreate),
						plancheck.ExpectKnownValue(ngAddr, tfjsonpath.New("max_size"), knownvalue.Int64Exact(40)),
						plancheck.ExpectKnownValue(ngAddr, tfjsonpath.New("desired_size"), knownvalue.Int64Exact(3)),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					expectNG(tfjsonpath.New("min_size"), knownvalue.Int64Exact(3)),
					expectNG(tfjsonpath.New("eks_node_group").AtMapKey("scaling_config"), knownvalue.ObjectExact(map[string]knownvalue.Check{
						"desired_size": knownvalue.Int64Exact(3), "min_size": knownvalue.Int64Exact(3), "max_size": knownvalue.Int64Exact(40)})),
					expectNG(tfjsonpath.New("eks_node_group").AtMapKey("ami_type"), knownvalue.StringExact("AL2023_x86_64_STANDARD")),
					expectNG(tfjsonpath.New("eks_node_group").AtMapKey("capacity_type"), knownvalue.StringExact("ON_DEMAND")),
					expectNG(tfjsonpath.New("aks_node_pool"), knownvalue.Null()),
					expectNG(tfjsonpath.New("capacity").AtMapKey("max_nodes"), knownvalue.Int64Exact(40)),
					expectNG(tfjsonpath.New("capacity").AtMapKey("workload_pods"), knownvalue.Int64Exact(56)),
					expectNG(tfjsonpath.New("kubelet_config_yaml"), knownvalue.StringRegexp(regexp.MustCompile(`(?s)kind: KubeletConfiguration.*maxPods: 58`))),
					statecheck.ExpectKnownOutputValue("same_object", knownvalue.Bool(true)),
				},
			},
			{
				Config: phpNodeGroup("max_size = 45\nheadroom_percent = 10"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(ngAddr, plancheck.ResourceActionUpdate),
						plancheck.ExpectKnownValue(ngAddr, tfjsonpath.New("max_size"), knownvalue.Int64Exact(45)),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					expectNG(tfjsonpath.New("free_at_max").AtMapKey("pods"), knownvalue.Int64Exact(45*56-40)),
				},
			},
		},
	})
}

func TestAccNodeGroup_aks(t *testing.T) {
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: nodeGroup(`name = "user"
cloud = "azure"
instance_type = "Standard_D4s_v5"
zones = ["1", "2"]
labels = { tier = "api" }
taints = [{ key = "sku", value = "api", effect = "NoSchedule" }]
workloads = [{ name = "api", min_replicas = 4, max_replicas = 12, requests = { cpu = "1", memory = "2Gi" },
  tolerations = [{ key = "sku", operator = "Exists" }] }]`),
			ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			ConfigStateChecks: []statecheck.StateCheck{
				expectNG(tfjsonpath.New("aks_node_pool"), knownvalue.ObjectPartial(map[string]knownvalue.Check{
					"vm_size": knownvalue.StringExact("Standard_D4s_v5"), "auto_scaling_enabled": knownvalue.Bool(true),
					"node_taints": knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("sku=api:NoSchedule")}),
					"zones":       knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("1"), knownvalue.StringExact("2")}),
					"os_type":     knownvalue.StringExact("Linux"), "os_disk_size_gb": knownvalue.Int64Exact(128),
					"node_labels":                 knownvalue.MapExact(map[string]knownvalue.Check{"tier": knownvalue.StringExact("api")}),
					"temporary_name_for_rotation": knownvalue.StringRegexp(regexp.MustCompile(`^usertmp[0-9a-f]{4}$`)),
				})),
				// Azure/aks: no node_count beside auto-scaling (the module would undo the autoscaler), the module's
				// create_before_destroy kept, and the same temporary name.
				expectNG(tfjsonpath.New("aks_module_node_pool"), knownvalue.ObjectPartial(map[string]knownvalue.Check{
					"name": knownvalue.StringExact("user"), "auto_scaling_enabled": knownvalue.Bool(true), "node_count": knownvalue.Null(),
					"create_before_destroy":       knownvalue.Bool(true),
					"temporary_name_for_rotation": knownvalue.StringRegexp(regexp.MustCompile(`^usertmp[0-9a-f]{4}$`)),
				})),
				expectNG(tfjsonpath.New("eks_node_group"), knownvalue.Null()),
				expectNG(tfjsonpath.New("eksctl_yaml"), knownvalue.Null()),
			},
		}},
	})
}

func TestAccNodeGroup_badInputs(t *testing.T) {
	testBadInputs(t, phpNodeGroup(""), []badInput{
		{phpNodeGroup("min_size = 5\nmax_size = 2"), `minimum\s+size\s+5\s+of\s+node\s+group\s+"php"\s+is\s+greater\s+than\s+its\s+maximum\s+size\s+2`},
		{nodeGroup(`name = "x"
cloud = "aws"
instance_type = "c5.xlarg"
workloads = [{ name = "a", replicas = 1 }]`), `did\s+you\s+mean\s+"c5.xlarge"`},
		{phpNodeGroup(`capacity_type = "reserved"`), `capacity_type`},
		{nodeGroup(`name = "big"
cloud = "aws"
instance_type = "m5.large"
workloads = [{ name = "huge", replicas = 1, requests = { cpu = "8" } }]`), `(?s)huge.*requests\s+8,000m\s+CPU`},
		{phpNodeGroup(`labels = { "karpenter.sh/team" = "web" }`), `(?s)Label\s+"karpenter.sh/team"\s+of\s+AWS\s+node\s+group\s+"php"\s+is\s+one\s+a\s+Karpenter\s+NodePool\s+may\s+not\s+set`},
		{phpNodeGroup(`labels = { "node-role.kubernetes.io/worker" = "" }`), `(?s)Label\s+"node-role.kubernetes.io/worker"\s+of\s+AWS\s+node\s+group\s+"php"\s+is\s+in\s+the\s+reserved\s+kubernetes.io\s+domain`},
		{nodeGroup(`name = "mix"
cloud = "aws"
instance_types = ["m5.xlarge", "m6g.xlarge"]
workloads = [{ name = "a", replicas = 1 }]`), `(?s)instance_types.*"m6g.xlarge".*arm64.*one\s+AMI\s+type`},
		{nodeGroup(`name = "user"
cloud = "azure"
instance_type = "Standard_D4s_v5"
taints = [{ key = "gpu", effect = "NoSchedule" }]
workloads = [{ name = "a", replicas = 1, tolerations = [{ operator = "Exists" }] }]`), `(?s)taints.*has\s+no\s+value.*key=value:Effect`},
		{nodeGroup(`name = "user"
cloud = "azure"
instance_type = "Standard_D4s_v5"
max_size = 1200
workloads = [{ name = "a", replicas = 1 }]`), `(?s)max_size.*at\s+most\s+1000`},
		{nodeGroup(`name = "web"
cloud = "gcp"
instance_type = "n2-standard-4"
disk_size_gib = 8
workloads = [{ name = "a", replicas = 1 }]`), `(?s)disk_size_gib.*at\s+least\s+10`},
		{nodeGroup(`name = "user"
cloud = "azure"
instance_type = "Standard_D4s_v5"
max_pods = 251
workloads = [{ name = "a", replicas = 1 }]`), `(?s)max_pods\s+251\s+of\s+Azure\s+node\s+group\s+"user".*only\s+from\s+10\s+to\s+250`},
		{nodeGroup(`name = "web"
cloud = "gcp"
instance_type = "n2-standard-4"
max_pods = 300
workloads = [{ name = "a", replicas = 1 }]`), `(?s)max_pods_per_node.*only\s+from\s+8\s+to\s+256`},
		{nodeGroup(`name = "user"
cloud = "azure"
instance_type = "Standard_D4s_v5"
min_size = 1001
workloads = [{ name = "a", replicas = 1 }]`), `(?s)min_size\s+is\s+1001.*at\s+most\s+1000`},
		// A node group is one pool: a workload's pools (shared with kubefit_node_pool_sizing) is refused on itself.
		{nodeGroup(`name = "web"
cloud = "aws"
instance_type = "m5.large"
workloads = [{ name = "a", replicas = 1, pools = ["web"] }]`), `(?s)Pools\s+Do\s+Not\s+Apply\s+to\s+a\s+Node\s+Group.*workloads\[0\]\.pools:\s+workload\s+"a"\s+names\s+pools,\s+but\s+a\s+node\s+group\s+is\s+one\s+pool`},
		// GKE allows a node pool 1,000 nodes per zone (overhead.md §8.8): 3,000 in one zone is refused on max_size.
		{nodeGroup(`name = "big"
cloud = "gcp"
instance_type = "e2-standard-2"
zones = ["us-central1-a"]
max_size = 3000
workloads = [{ name = "a", replicas = 10, requests = { cpu = "1", memory = "2Gi" } }]`), `(?s)max_size.*maximum\s+of\s+3,000\s+nodes.*at\s+most\s+1,000.*at\s+least\s+3\s+zones`},
		// GKE taints GPU nodes nvidia.com/gpu=present:NoSchedule (overhead.md §9.1): web pods without a GPU request stay off.
		{nodeGroup(`name = "gpu"
cloud = "gcp"
instance_type = "a2-highgpu-1g"
zones = ["us-central1-a"]
workloads = [{ name = "web", replicas = 4, requests = { cpu = "1", memory = "2Gi" } }]`), `(?s)Do\s+Not\s+Fit.*nvidia.com/gpu=present:NoSchedule`},
	})
}

// TestAccNodeGroup_diskPlannedIsEmitted: the root volume a group emits (disk_size_gib) is the one its nodes'
// ephemeral storage is planned on: 100 GiB gives more workload ephemeral storage than EKS's default 20 GiB, and
// the same as os_disk_gib = 100.
func TestAccNodeGroup_diskPlannedIsEmitted(t *testing.T) {
	group := func(extra string) string {
		return nodeGroup(`name = "web"
cloud = "aws"
instance_type = "m5.large"
workloads = [{ name = "a", replicas = 1 }]
` + extra)
	}
	eph := tfjsonpath.New("workload_allocatable").AtMapKey("ephemeral_storage_bytes")
	differs, same := statecheck.CompareValue(compare.ValuesDiffer()), statecheck.CompareValue(compare.ValuesSame())
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: group(""), ConfigStateChecks: []statecheck.StateCheck{differs.AddStateValue(ngAddr, eph)}},
			{Config: group("disk_size_gib = 100"), ConfigStateChecks: []statecheck.StateCheck{
				differs.AddStateValue(ngAddr, eph), same.AddStateValue(ngAddr, eph),
				expectNG(tfjsonpath.New("eks_node_group").AtMapKey("disk_size"), knownvalue.Int64Exact(100))}},
			{Config: group("os_disk_gib = 100"), ConfigStateChecks: []statecheck.StateCheck{same.AddStateValue(ngAddr, eph)}},
		},
	})
}

// TestAccNodeGroup_gkeAndSpot: a regional GKE Spot group plans exact totals over its zones, a per-zone initial
// count, Spot and the planned max pods (110, GKE Standard's default, when max_pods is unset); an AKS Spot group plans priority, eviction policy, price and the taint and
// label AKS adds (azurerm reads both back), with a pod that tolerates the taint.
func TestAccNodeGroup_gkeAndSpot(t *testing.T) {
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: nodeGroup(`name = "web"
cloud = "gcp"
instance_type = "n2-standard-4"
zones = ["europe-west1-b", "europe-west1-c", "europe-west1-d"]
capacity_type = "spot"
max_pods = 64
min_size = 1
max_size = 7
workloads = [{ name = "web", min_replicas = 2, max_replicas = 20, requests = { cpu = "1", memory = "2Gi" } }]`) + `
resource "kubefit_node_group" "spot" {
  name          = "spotpool"
  cloud         = "azure"
  instance_type = "Standard_D4s_v5"
  capacity_type = "spot"
  workloads = [{ name = "batch", replicas = 4, requests = { cpu = "1", memory = "2Gi" },
    tolerations = [{ key = "kubernetes.azure.com/scalesetpriority", operator = "Equal", value = "spot", effect = "NoSchedule" }] }]
}
resource "kubefit_node_group" "gkedefault" {
  name          = "plain"
  cloud         = "gcp"
  instance_type = "n2-standard-4"
  workloads     = [{ name = "api", replicas = 2, requests = { cpu = "1" } }]
}`,
			ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			ConfigStateChecks: []statecheck.StateCheck{
				expectNG(tfjsonpath.New("gke_node_pool"), knownvalue.ObjectPartial(map[string]knownvalue.Check{
					"node_locations": knownvalue.ListSizeExact(3), "max_pods_per_node": knownvalue.Int64Exact(64),
					"autoscaling": knownvalue.ObjectExact(map[string]knownvalue.Check{"total_min_node_count": knownvalue.Int64Exact(1),
						"total_max_node_count": knownvalue.Int64Exact(7), "location_policy": knownvalue.StringExact("ANY")}),
					"node_config": knownvalue.ObjectPartial(map[string]knownvalue.Check{"spot": knownvalue.Bool(true), "machine_type": knownvalue.StringExact("n2-standard-4")}),
				})),
				expectNG(tfjsonpath.New("gke_module_node_pool").AtMapKey("node_pool").AtMapKey("node_locations"), knownvalue.StringExact("europe-west1-b,europe-west1-c,europe-west1-d")),
				// Without max_pods the pool is still given the 110 kubefit planned on, not the cluster's default.
				statecheck.ExpectKnownValue("kubefit_node_group.gkedefault", tfjsonpath.New("gke_node_pool").AtMapKey("max_pods_per_node"), knownvalue.Int64Exact(110)),
				statecheck.ExpectKnownValue("kubefit_node_group.gkedefault", tfjsonpath.New("gke_module_node_pool").AtMapKey("node_pool").AtMapKey("max_pods_per_node"), knownvalue.StringExact("110")),
				statecheck.ExpectKnownValue("kubefit_node_group.spot", tfjsonpath.New("aks_node_pool"), knownvalue.ObjectPartial(map[string]knownvalue.Check{
					"priority": knownvalue.StringExact("Spot"), "eviction_policy": knownvalue.StringExact("Delete"), "spot_max_price": knownvalue.Float64Exact(-1),
					"node_taints": knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("kubernetes.azure.com/scalesetpriority=spot:NoSchedule")}),
					"node_labels": knownvalue.MapExact(map[string]knownvalue.Check{"kubernetes.azure.com/scalesetpriority": knownvalue.StringExact("spot")}),
				})),
				statecheck.ExpectKnownValue("kubefit_node_group.spot", tfjsonpath.New("aks_module_node_pool"), knownvalue.ObjectPartial(map[string]knownvalue.Check{
					"name":        knownvalue.StringExact("spotpool"),
					"node_labels": knownvalue.MapExact(map[string]knownvalue.Check{"kubernetes.azure.com/scalesetpriority": knownvalue.StringExact("spot")}),
				})),
			},
		}},
	})
}

// TestAccNodeGroup_gkeBootDisk: a GKE pool on N4, which attaches no Persistent Disk, is emitted with the boot disk
// type hyperdisk-balanced in both shapes (GKE refuses its default pd-balanced there, disks.md §6.1); an N2 pool
// keeps GKE's default (null).
func TestAccNodeGroup_gkeBootDisk(t *testing.T) {
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: nodeGroup(`name = "web"
cloud = "gcp"
instance_type = "n4-standard-8"
min_size = 1
max_size = 5
workloads = [{ name = "web", replicas = 2, requests = { cpu = "1", memory = "2Gi" } }]`) + `
resource "kubefit_node_group" "n2" {
  name          = "old"
  cloud         = "gcp"
  instance_type = "n2-standard-8"
  min_size      = 1
  max_size      = 5
  workloads     = [{ name = "web", replicas = 2, requests = { cpu = "1", memory = "2Gi" } }]
}`,
			ConfigStateChecks: []statecheck.StateCheck{
				expectNG(tfjsonpath.New("gke_node_pool").AtMapKey("node_config").AtMapKey("disk_type"), knownvalue.StringExact("hyperdisk-balanced")),
				expectNG(tfjsonpath.New("gke_module_node_pool").AtMapKey("node_pool").AtMapKey("disk_type"), knownvalue.StringExact("hyperdisk-balanced")),
				statecheck.ExpectKnownValue("kubefit_node_group.n2", tfjsonpath.New("gke_node_pool").AtMapKey("node_config").AtMapKey("disk_type"), knownvalue.Null()),
			},
		}},
	})
}

func TestAccNodeGroup_unknownInputs(t *testing.T) {
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: `resource "terraform_data" "type" {
  input = "c5.xlarge"
}
` + nodeGroup(`name = "late"
cloud = "aws"
instance_type = terraform_data.type.output
min_size = 2
workloads = [{ name = "php", replicas = 4, requests = { cpu = "2500m" } }]`),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{
					plancheck.ExpectUnknownValue(ngAddr, tfjsonpath.New("desired_size")),
					plancheck.ExpectUnknownValue(ngAddr, tfjsonpath.New("max_size")),
					plancheck.ExpectKnownValue(ngAddr, tfjsonpath.New("min_size"), knownvalue.Int64Exact(2)),
				},
				PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
			},
			ConfigStateChecks: []statecheck.StateCheck{
				expectNG(tfjsonpath.New("desired_size"), knownvalue.Int64Exact(4)),
				expectNG(tfjsonpath.New("max_size"), knownvalue.Int64Exact(4)),
			},
		}},
	})
}

// TestAccNodeGroup_unknownInputsKnownLabels: a label the consumers refuse fails the plan although the instance type
// is not known yet (it used to pass the plan and fail the apply); a good one plans with the rest deferred.
func TestAccNodeGroup_unknownInputsKnownLabels(t *testing.T) {
	cfg := func(label string) string {
		return `resource "terraform_data" "type" {
  input = "c5.xlarge"
}
` + nodeGroup(`name = "late"
cloud = "aws"
instance_type = terraform_data.type.output
labels = { "`+label+`" = "x" }
workloads = [{ name = "php", replicas = 4, requests = { cpu = "2500m" } }]`)
	}
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: cfg("node-role.kubernetes.io/worker"), PlanOnly: true, ExpectError: regexp.MustCompile(`(?si)label\s+"node-role.kubernetes.io/worker".*reserved\s+kubernetes.io\s+domain`)},
			// An AKS Spot group may carry the Spot label AKS sets: known capacity type, unknown instance type.
			{Config: `resource "terraform_data" "type" {
  input = "Standard_D4s_v5"
}
` + nodeGroup(`name = "spot"
cloud = "azure"
capacity_type = "spot"
instance_type = terraform_data.type.output
labels = { "kubernetes.azure.com/scalesetpriority" = "spot" }
workloads = [{ name = "w", replicas = 2, requests = { cpu = "100m" }, tolerations = [{ key = "kubernetes.azure.com/scalesetpriority", operator = "Equal", value = "spot", effect = "NoSchedule" }] }]`),
				PlanOnly: true, ExpectNonEmptyPlan: true},
			{Config: cfg("team"), ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply:             []plancheck.PlanCheck{plancheck.ExpectUnknownValue(ngAddr, tfjsonpath.New("max_size"))},
				PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
			}},
		},
	})
}

// TestAccNodeGroup_example applies the documentation example.
func TestAccNodeGroup_example(t *testing.T) {
	src, err := os.ReadFile("../../examples/resources/kubefit_node_group/resource.tf")
	if err != nil {
		t.Fatal(err)
	}
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config:           string(src),
			ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("kubefit_node_group.php", tfjsonpath.New("max_size"), knownvalue.Int64Exact(40)),
			},
		}},
	})
}

// TestAccNodeGroup_kedaCapacity wires a node group's capacity into a ScaledObject: 40 replicas of 2,500m do
// not fit a c5.xlarge group of at most 20 nodes, and the ScaledObject fails naming the group and the
// largest safe count; raising max_size passes.
func TestAccNodeGroup_kedaCapacity(t *testing.T) {
	config := func(maxSize int) string {
		return phpNodeGroup(fmt.Sprintf("max_size = %d\nfail_on_misfit = false", maxSize)) + `
resource "kubefit_keda_scaled_object" "php" {
  name              = "php"
  namespace         = "web"
  scale_target_ref  = { name = "php" }
  min_replica_count = 3
  max_replica_count = 40
  triggers = [{ type = "prometheus", metadata = { serverAddress = "http://prometheus:9090", query = "sum(rate(x[1m]))", threshold = "100" } }]
  target_workload = {
    pod_template = { containers = [{ name = "php", requests = { cpu = "2500m", memory = "1Gi" } }] }
    rollout      = { strategy = "Recreate" }
  }
  node_group_capacity = kubefit_node_group.test.capacity
}
`
	}
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: config(20), ExpectError: regexp.MustCompile(`(?s)KCAP-E2.*"php".*20`)},
			{
				Config:           config(40),
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("kubefit_keda_scaled_object.php", tfjsonpath.New("max_replica_count"), knownvalue.Int64Exact(40)),
				},
			},
		},
	})
}

// TestAccExamples_misfitsFail plans the examples that fail on purpose and checks what they say: the
// misfit names the new service's pods that do not fit, with the shortfall and the largest fitting count, the KEDA misfit names the
// node group and the largest safe maxReplicaCount. The transcripts the README and the node group's page show are
// checked word for word against the plan (Terraform's line wrapping aside), so the docs cannot drift from it.
func TestAccExamples_misfitsFail(t *testing.T) {
	var steps []resource.TestStep
	for _, c := range []struct{ file, want, doc, after string }{
		{"../../examples/misfit/main.tf", `(?s)Error: Workloads Do Not Fit.*short\s+by\s+235m\s+CPU.*2\s+replicas\s+of\s+workload\s+"new-service"\s+do\s+not\s+fit\s+\(at\s+most\s+2\s+of\s+its\s+4\s+fit\)`,
			"../../README.md", "## What a misfit looks like"},
		{"../../examples/misfit-keda/main.tf", `(?s)KCAP-E2: node\s+group\s+"php"\s+cannot\s+hold\s+40\s+replicas.*largest\s+safe\s+maxReplicaCount\s+is\s+20`,
			"../../templates/resources/node_group.md.tmpl", "### A misfit that fails the plan"},
	} {
		src, err := os.ReadFile(c.file)
		if err != nil {
			t.Fatal(err)
		}
		// The example's own terraform block pins the registry provider; the test serves it in-process.
		config := regexp.MustCompile(`(?s)terraform \{.*?\n\}\n`).ReplaceAllString(string(src), "")
		steps = append(steps, resource.TestStep{Config: config, PlanOnly: true, ExpectError: regexp.MustCompile(c.want)})
		steps = append(steps, resource.TestStep{Config: config, PlanOnly: true, ExpectError: transcript(t, c.doc, c.after, string(src))})
	}
	steps = append(steps, resource.TestStep{Config: `resource "terraform_data" "ok" {}`})
	resource.UnitTest(t, resource.TestCase{ProtoV6ProviderFactories: testAccProtoV6ProviderFactories, Steps: steps})
}

// transcript is the first fenced block after the heading after in the document at path, as a pattern that matches
// the same words with any white space between them (Terraform wraps diagnostics to the terminal's width). The line
// the transcript quotes ("on main.tf line 57" and "57: …") must be that line of the example's source, src.
func transcript(t *testing.T, path, after, src string) *regexp.Regexp {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	i := strings.Index(doc, after)
	if i < 0 {
		t.Fatalf("%s has no %q", path, after)
	}
	m := regexp.MustCompile("(?s)```[a-z]*\n(Error: .*?)```").FindStringSubmatch(doc[i:])
	if m == nil {
		t.Fatalf("%s: no transcript block after %q", path, after)
	}
	if q := regexp.MustCompile(`(?m)on main\.tf line ([0-9]+),.*\n\s*([0-9]+):(.*)$`).FindStringSubmatch(m[1]); q == nil {
		t.Errorf("%s: the transcript quotes no line of main.tf", path)
	} else if lines := strings.Split(src, "\n"); q[1] != q[2] || len(lines) < atoi(t, q[1]) || strings.TrimSpace(lines[atoi(t, q[1])-1]) != strings.TrimSpace(q[3]) {
		t.Errorf("%s: the transcript quotes line %s of main.tf as %q, but that line is not it", path, q[1], strings.TrimSpace(q[3]))
	}
	// The harness writes the configuration to its own file, with lines of its own before the example's: the file
	// name and the line numbers the diagnostic quotes are its (the line itself was checked above).
	lineRef := regexp.MustCompile(`^[0-9]+[,:]$`)
	words := strings.Fields(m[1])
	for k, w := range words {
		switch {
		case w == "main.tf":
			words[k] = `\S+`
		case lineRef.MatchString(w):
			words[k] = `[0-9]+` + regexp.QuoteMeta(w[len(w)-1:])
		default:
			words[k] = regexp.QuoteMeta(w)
		}
	}
	return regexp.MustCompile(strings.Join(words, `\s+`))
}

// TestAccNodeGroup_karpenterName: EKS takes "Web_Pool" as a node group name, a Karpenter NodePool does not,
// so the group keeps its name and the NodePool is named web-pool.
func TestAccNodeGroup_karpenterName(t *testing.T) {
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: nodeGroup(`name = "Web_Pool"
cloud = "aws"
instance_type = "m5.large"
workloads = [{ name = "web", replicas = 2, requests = { cpu = "250m" } }]
`),
			ConfigStateChecks: []statecheck.StateCheck{
				expectNG(tfjsonpath.New("karpenter_node_pool").AtMapKey("metadata").AtMapKey("name"), knownvalue.StringExact("web-pool")),
				expectNG(tfjsonpath.New("name"), knownvalue.StringExact("Web_Pool")),
			},
		}},
	})
}

// TestAccNodeGroup_karpenterKubelet: a Karpenter group planned at 110 pods per node with its own kube-reserved memory
// renders the EC2NodeClass spec.kubelet that gives Karpenter's nodes those settings (Karpenter reads none from the
// NodePool); without such settings there is nothing to carry.
func TestAccNodeGroup_karpenterKubelet(t *testing.T) {
	cfg := func(extra string) string {
		return nodeGroup(`name = "web"
cloud = "aws"
instance_type = "m5.large"
eks = { node_group_kind = "karpenter", prefix_delegation = true }
workloads = [{ name = "web", replicas = 100, requests = { cpu = "10m", memory = "16Mi" } }]
` + extra)
	}
	kubelet := tfjsonpath.New("karpenter_node_class_kubelet")
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config:           cfg(`max_pods = 110` + "\n" + `kube_reserved = { memory = "500Mi" }`),
				ConfigPlanChecks: emptyPlanAfterApply,
				ConfigStateChecks: []statecheck.StateCheck{
					expectNG(tfjsonpath.New("allocatable").AtMapKey("pods"), knownvalue.Int64Exact(110)),
					expectNG(kubelet.AtMapKey("maxPods"), knownvalue.Int64Exact(110)),
					expectNG(kubelet.AtMapKey("kubeReserved"), knownvalue.ObjectExact(map[string]knownvalue.Check{"memory": knownvalue.StringExact("500Mi")})),
				},
			},
			{
				Config:            cfg(""),
				ConfigPlanChecks:  emptyPlanAfterApply,
				ConfigStateChecks: []statecheck.StateCheck{expectNG(kubelet, knownvalue.Null())},
			},
		},
	})
}

// TestAccNodeGroup_arrivalOrder checks that a node group sizes with the scheduler model under its own
// arrival_order and scheduler_profile: its max_size equals the peak a sizing data source computes with the
// same inputs, for rollout (the default) and largest-first, which differ on this mix.
func TestAccNodeGroup_arrivalOrder(t *testing.T) {
	cfg := func(order string) string {
		return fmt.Sprintf(`
locals {
  workloads = [
    { name = "a", replicas = 20, requests = { cpu = "1500m", memory = "1Gi" } },
    { name = "b", replicas = 30, requests = { cpu = "250m", memory = "256Mi" } },
    { name = "c", replicas = 25, requests = { cpu = "500m", memory = "512Mi" } },
    { name = "d", replicas = 15, requests = { cpu = "1", memory = "2Gi" } },
  ]
}

resource "kubefit_node_group" "test" {
  name              = "mix"
  cloud             = "aws"
  instance_type     = "c5.xlarge"
  workloads         = local.workloads
  arrival_order     = %[1]q
  scheduler_profile = "default"
}

data "kubefit_node_pool_sizing" "same" {
  pools         = { mix = { cloud = "aws", instance_type = "c5.xlarge", max_nodes = 200 } }
  workloads     = local.workloads
  arrival_order = %[1]q
}

data "kubefit_node_pool_recommendation" "same" {
  cloud         = "aws"
  candidates    = ["c5.xlarge"]
  pool_name     = "mix"
  pool          = { max_nodes = 200 }
  workloads     = local.workloads
  arrival_order = %[1]q
}
`, order)
	}
	// The planner's own counts for the two orders; the test needs them to differ.
	want := map[fit.ArrivalOrder]int{}
	for _, a := range []fit.ArrivalOrder{fit.ArrivalRollout, fit.ArrivalLargestFirst} {
		n := func(v int) *int { return &v }
		plan, err := sizing.NewPlanner(sizing.EmbeddedCatalog()).Solve(context.Background(), sizing.Request{Arrival: a,
			Pools: []sizing.Pool{{Name: "mix", Cloud: "aws", InstanceTypes: []string{"c5.xlarge"}, MaxNodes: 200}},
			Workloads: []sizing.Workload{
				{Name: "a", Replicas: n(20), Requests: fit.Resources{CPUMillicores: 1500, MemoryBytes: 1 << 30}},
				{Name: "b", Replicas: n(30), Requests: fit.Resources{CPUMillicores: 250, MemoryBytes: 256 << 20}},
				{Name: "c", Replicas: n(25), Requests: fit.Resources{CPUMillicores: 500, MemoryBytes: 512 << 20}},
				{Name: "d", Replicas: n(15), Requests: fit.Resources{CPUMillicores: 1000, MemoryBytes: 2 << 30}}}})
		if err != nil {
			t.Fatal(err)
		}
		want[a] = plan.Pools[0].Peak.NodesRequired
	}
	if want[fit.ArrivalRollout] == want[fit.ArrivalLargestFirst] {
		t.Fatalf("the mix no longer tells the orders apart (%v); choose another", want)
	}
	peak := tfjsonpath.New("pool_results").AtMapKey("mix").AtMapKey("peak").AtMapKey("nodes_required")
	checks := []statecheck.StateCheck{
		statecheck.CompareValuePairs(ngAddr, tfjsonpath.New("max_size"), "data.kubefit_node_pool_sizing.same", peak, compare.ValuesSame()),
		statecheck.CompareValuePairs("data.kubefit_node_pool_recommendation.same", tfjsonpath.New("ranking").AtSliceIndex(0).AtMapKey("nodes_required"),
			"data.kubefit_node_pool_sizing.same", peak, compare.ValuesSame()),
	}
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: cfg("rollout"), ConfigStateChecks: append(checks, expectNG(tfjsonpath.New("max_size"), knownvalue.Int64Exact(int64(want[fit.ArrivalRollout])))), ConfigPlanChecks: emptyPlanAfterApply},
			{Config: cfg("largest-first"), ConfigStateChecks: append(checks, expectNG(tfjsonpath.New("max_size"), knownvalue.Int64Exact(int64(want[fit.ArrivalLargestFirst])))), ConfigPlanChecks: emptyPlanAfterApply},
		},
	})
}

// TestAccNodeGroup_disruptions: a ClickHouse group sized to its 3 nodes cannot lose one (named on
// disruptions); with max_size 4 it can, and disruption_results says so.
func TestAccNodeGroup_disruptions(t *testing.T) {
	cfg := func(maxSize string) string {
		return fmt.Sprintf(`resource "kubefit_node_group" "ch" {
  name          = "clickhouse"
  cloud         = "aws"
  instance_type = "m5.2xlarge"
  zones         = ["eu-west-1a", "eu-west-1b", "eu-west-1c"]
  %s
  workloads = [for s in ["clickhouse-shard0", "clickhouse-shard1"] : {
    name = s, replicas = 3, requests = { cpu = "2", memory = "8Gi" }, spread = { type = "node" }
    volume_claims = [{ name = "data", size = "100Gi", storage_class = "gp3" }]
  }]
  disruptions = ["node_loss", "zone_loss"]
}`, maxSize)
	}
	addr := "kubefit_node_group.ch"
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: cfg(""), ExpectError: regexp.MustCompile(`(?s)Disruption Not Absorbed.*group\s+"clickhouse":\s+node_loss.*maximum\s+size\s+of\s+4\s+for\s+node\s+group\s+"clickhouse"`)},
			{
				Config:           cfg("max_size = 4"),
				ConfigPlanChecks: emptyPlanAfterApply,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("desired_size"), knownvalue.Int64Exact(3)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("disruption_results").AtMapKey("node_loss").AtMapKey("fits"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("disruption_results").AtMapKey("zone_loss").AtMapKey("fits"), knownvalue.Bool(true)),
				},
			},
		},
	})
}

// TestAccNodeGroup_karpenterLimits: on this mix kubefit's scheduler model needs 23 m5.xlarge at the peak, but
// Karpenter's provisioning (largest first, each pod onto the open NodeClaim with the fewest pods that fits it)
// launches 24 (the oracle TestKarpenterProvisionMatchesRealScheduler, generated group m5.xlarge seed 38), so
// max_size stays 23 and the NodePool's limits cover 24 nodes (96 vCPUs).
func TestAccNodeGroup_karpenterLimits(t *testing.T) {
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: nodeGroup(`name = "g"
cloud = "aws"
instance_type = "m5.xlarge"
daemonsets = [
  { name = "kube-proxy", requests = { cpu = "100m", memory = "64Mi" } },
  { name = "node-exporter", requests = { cpu = "50m", memory = "100Mi" }, host_ports = [{ port = 9100 }] },
]
workloads = [
  { name = "w0", replicas = 19, requests = { cpu = "393m", memory = "1291Mi" } },
  { name = "w1", replicas = 32, requests = { cpu = "1473m", memory = "2341Mi" } },
  { name = "w2", replicas = 22, requests = { cpu = "266m", memory = "400Mi" } },
  { name = "w3", replicas = 14, requests = { cpu = "1567m", memory = "1501Mi" } },
]
`),
			ConfigStateChecks: []statecheck.StateCheck{
				expectNG(tfjsonpath.New("max_size"), knownvalue.Int64Exact(23)),
				expectNG(tfjsonpath.New("karpenter_node_pool").AtMapKey("spec").AtMapKey("limits").AtMapKey("cpu"), knownvalue.StringExact("96")),
			},
		}},
	})
}

// TestReportNodeGroupDefersMisfits: with misfits_reported_by = "capacity_check" the group gives no error but
// one warning, on that attribute, naming each misfit and the capacity check that reports it; by default each
// misfit is an error on its attribute that names both ways out.
func TestReportNodeGroupDefersMisfits(t *testing.T) {
	misfits := []groupMisfit{
		{reason: "max-nodes", path: path.Root("max_size"), title: "Workloads Do Not Fit the Node Group", message: `node group "web": short.`, remedy: "With every other workload at its own peak, the largest replica count of workload \"w\" that fits is 20."},
		{reason: "burst-credits", path: path.Root("instance_type"), title: "Burstable Nodes Run Out of CPU Credits", message: "credits."},
	}
	m := nodeGroupModel{Name: types.StringValue("web"), FailOnMisfit: types.BoolNull(), MisfitsReportedBy: types.StringValue("capacity_check")}
	var d diag.Diagnostics
	reportNodeGroup(&d, m, misfits, nil)
	if d.HasError() || d.WarningsCount() != 1 {
		t.Fatalf("diagnostics %v", d)
	}
	w := d.Warnings()[0].(diag.DiagnosticWithPath)
	if !w.Path().Equal(path.Root("misfits_reported_by")) || !strings.Contains(w.Detail(), "Workloads Do Not Fit the Node Group (max_size); Burstable Nodes Run Out of CPU Credits (instance_type)") ||
		!strings.Contains(w.Detail(), "KCAP-E8") || !strings.Contains(w.Detail(), "If no kubefit_capacity_check reads capacity, nothing reports them") {
		t.Errorf("warning at %s: %s", w.Path(), w.Detail())
	}
	if l := groupFailuresValue(m, misfits); len(l.Elements()) != 2 {
		t.Errorf("failures %v", l)
	}
	m.MisfitsReportedBy = types.StringNull()
	d = nil
	reportNodeGroup(&d, m, misfits, nil)
	if d.ErrorsCount() != 2 || !strings.HasSuffix(d.Errors()[0].Detail(), `that fits is 20. Set fail_on_misfit = false to plan anyway and only warn, or misfits_reported_by = "capacity_check" to have the capacity check reading this group's capacity report it.`) {
		t.Errorf("errors %v", d)
	}
	if l := groupFailuresValue(m, misfits); len(l.Elements()) != 0 {
		t.Errorf("failures without the mode %v", l)
	}
}

// TestAccNodeGroup_sameNameTwoNamespaces: two kubefit_workloads reads concatenated give a redis in team-a and one in
// team-b: two workloads, both planned (named team-a/redis and team-b/redis), not a duplicate; the same name twice in
// one namespace still is.
func TestAccNodeGroup_sameNameTwoNamespaces(t *testing.T) {
	cfg := func(ns2 string) string {
		return nodeGroup(`name = "g"
cloud = "aws"
instance_type = "m5.large"
workloads = [
  { name = "redis", namespace = "team-a", replicas = 2, requests = { cpu = "1" } },
  { name = "redis", namespace = "` + ns2 + `", replicas = 2, requests = { cpu = "1" } },
]`)
	}
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: cfg("team-a"), PlanOnly: true, ExpectError: regexp.MustCompile(`(?s)Duplicate\s+workload.*names\s+within\s+a\s+namespace\s+must\s+be\s+unique`)},
			{Config: cfg("team-b"), ConfigPlanChecks: emptyPlanAfterApply, ConfigStateChecks: []statecheck.StateCheck{
				// Four pods of 1 CPU on m5.large (1,930m for workloads): four nodes.
				expectNG(tfjsonpath.New("desired_size"), knownvalue.Int64Exact(4)),
				expectNG(tfjsonpath.New("report"), knownvalue.StringRegexp(regexp.MustCompile(`team-a/redis[\s\S]*team-b/redis`))),
			}},
		},
	})
}

// TestNodeGroupWarningsOnInstanceType: a planner warning on the group's instance types (the GKE boot-disk check's)
// lands on instance_type when the group gives its one type that way, and stays on instance_types otherwise.
func TestNodeGroupWarningsOnInstanceType(t *testing.T) {
	ws := []field.Warning{{Code: nodegroup.WarnGKEBootDiskUnchecked, Path: field.NewPath("InstanceTypes").At(0), Message: "x"}}
	for _, tc := range []struct {
		m    nodeGroupModel
		want string
	}{
		{nodeGroupModel{InstanceType: types.StringValue("a3-highgpu-1g")}, "instance_type"},
		{nodeGroupModel{InstanceType: types.StringNull()}, "instance_types[0]"},
	} {
		var diags diag.Diagnostics
		addPlannerWarnings(&diags, path.Empty(), singleTypePaths(tc.m, ws), nodeGroupRenames, "Node Group Caveat")
		if len(diags) != 1 {
			t.Fatalf("diagnostics %v", diags)
		}
		if p := diags[0].(diag.DiagnosticWithPath).Path().String(); p != tc.want {
			t.Errorf("warning at %s, want %s", p, tc.want)
		}
	}
}

// TestAccMisplacedKeyUnknown: a request key written beside requests with a value unknown at plan waits for it: null
// at apply passes (before, the unknown was refused, and the configuration could never be applied), a value is
// refused once known.
func TestAccMisplacedKeyUnknown(t *testing.T) {
	cfg := func(data, memory string) string {
		return `
resource "terraform_data" "` + data + `" {
  input = "x"
}
locals {
  b = terraform_data.` + data + `.id != ""
}
` + nodeGroup(`name = "g"
cloud = "aws"
instance_type = "m5.large"
workloads = [{ name = "a", replicas = 1, requests = { cpu = "100m" }, memory = `+memory+` }]`)
	}
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: cfg("later", `local.b ? null : "1Gi"`), ConfigPlanChecks: emptyPlanAfterApply},
			// A new terraform_data: unknown again at plan, "1Gi" at apply, where the final validation refuses it.
			{Config: cfg("again", `local.b ? "1Gi" : null`), ExpectError: regexp.MustCompile(`(?s)Request Outside requests.*requests\.memory`)},
		},
	})
}

// TestAccNodeGroup_fits: `fits` says whether the group has a misfit, so a test or a check block can assert on it
// where the plan goes on: false for the field report's 40 pods of 2,500m on at most 20 c5.xlarge with
// fail_on_misfit = false (the misfit a warning), true at 40 nodes.
func TestAccNodeGroup_fits(t *testing.T) {
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: phpNodeGroup("max_size = 20\nfail_on_misfit = false"), ConfigPlanChecks: emptyPlanAfterApply,
				ConfigStateChecks: []statecheck.StateCheck{expectNG(tfjsonpath.New("fits"), knownvalue.Bool(false))}},
			{Config: phpNodeGroup("max_size = 40"), ConfigPlanChecks: emptyPlanAfterApply,
				ConfigStateChecks: []statecheck.StateCheck{expectNG(tfjsonpath.New("fits"), knownvalue.Bool(true))}},
		},
	})
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}
