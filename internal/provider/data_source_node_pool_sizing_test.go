package provider

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// smallAKS is the field report of field-reports.md §1 (internal/sources/domain): four Standard_DS1_v2 nodes on AKS 1.28 with three
// DaemonSets and the system and web pods below; 565m CPU is left on the pool. extra adds workloads.
// smallAKS is the field report's cluster. Its platform pods reached the scheduler largest first
// (arrival "largest-first"), so prometheus-operator had a node of its own; "rollout" is the default.
func smallAKS(extra string, failOnMisfit bool, arrival ...string) string {
	if len(arrival) == 0 {
		arrival = []string{"largest-first"}
	}
	pods := []struct {
		name     string
		replicas int
		cpu, mem string
	}{
		{"dashboard", 1, "100m", "50Mi"}, {"tunnelfront", 1, "10m", "64Mi"}, {"coredns", 2, "100m", "70Mi"},
		{"coredns-autoscaler", 1, "20m", "10Mi"}, {"heapster", 1, "130m", "230Mi"}, {"grafana", 1, "200m", "500Mi"},
		{"prometheus-operator", 1, "500m", "1000Mi"}, {"alertmanager", 1, "100m", "225Mi"}, {"flux", 1, "50m", "64Mi"},
		{"flux-helm-operator", 1, "50m", "64Mi"}, {"api-a", 2, "100m", "200Mi"}, {"api-b", 2, "50m", "100Mi"},
		{"canary-a", 1, "40m", "500Mi"}, {"canary-b", 1, "40m", "500Mi"},
		{"web-1", 1, "5m", "10Mi"}, {"web-2", 1, "10m", "42Mi"}, {"web-3", 1, "5m", "21Mi"}, {"web-4", 1, "10m", "30Mi"}, {"web-5", 1, "5m", "15Mi"},
	}
	var b strings.Builder
	for _, p := range pods {
		fmt.Fprintf(&b, "    { name = %q, replicas = %d, requests = { cpu = %q, memory = %q } },\n", p.name, p.replicas, p.cpu, p.mem)
	}
	return fmt.Sprintf(`
data "kubefit_node_pool_sizing" "aks" {
  pools = {
    agentpool = {
      cloud = "azure", instance_type = "Standard_DS1_v2", kubernetes_version = "1.28"
      max_pods = 110, min_nodes = 4, max_nodes = 4
    }
  }
  daemonsets = [
    { name = "calico-node", requests = { cpu = "250m" } },
    { name = "kube-proxy", requests = { cpu = "100m" } },
    { name = "kube-svc-redirect", requests = { cpu = "5m", memory = "32Mi" } },
  ]
  # The field report's own system DaemonSets (a 2019 cluster with Calico), not today's measured AKS set.
  system_daemonsets = "listed"
  workloads = [
%s%s  ]
  fail_on_misfit = %t
  arrival_order  = %q
}`, b.String(), extra, failOnMisfit, arrival[0])
}

func TestAccNodePoolSizing_smallAKS(t *testing.T) {
	const addr = "data.kubefit_node_pool_sizing.aks"
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				// Four more pods of 100m fit in the 565m left.
				Config:           smallAKS(`    { name = "more", replicas = 4, requests = { cpu = "100m", memory = "16Mi" } },`+"\n", true),
				ConfigPlanChecks: emptyPlanAfterApply,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("fits"), knownvalue.Bool(true)),
					expectInt(addr, tfjsonpath.New("pool_results").AtMapKey("agentpool").AtMapKey("steady").AtMapKey("nodes_required"), 4),
					expectInt(addr, tfjsonpath.New("pool_results").AtMapKey("agentpool").AtMapKey("steady").AtMapKey("nodes_optimal"), 4),
					expectInt(addr, tfjsonpath.New("pool_results").AtMapKey("agentpool").AtMapKey("allocatable").AtMapKey("cpu_millicores"), 940),
					expectInt(addr, tfjsonpath.New("pool_results").AtMapKey("agentpool").AtMapKey("workload_allocatable").AtMapKey("cpu_millicores"), 585),
					expectInt(addr, tfjsonpath.New("workload_results").AtMapKey("more").AtMapKey("steady").AtMapKey("agentpool"), 4),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("report"), knownvalue.StringRegexp(regexp.MustCompile(`agentpool`))),
				},
			},
			{
				// Rolled out all at once, the scheduler spreads the small pods first, and no node keeps 500m for
				// prometheus-operator although the pool has room by its totals.
				Config:      smallAKS(`    { name = "more", replicas = 4, requests = { cpu = "100m", memory = "16Mi" } },`+"\n", true, "rollout"),
				ExpectError: regexp.MustCompile(`(?s)Workloads Do Not Fit.*stranded.*workload\s+"prometheus-operator"\s+does\s+not\s+fit.*kube-scheduler\s+places\s+pods.*random\s+order`),
			},
			{
				// Four pods of 200m do not: the plan fails naming CPU and the pool.
				Config:      smallAKS(`    { name = "more", replicas = 4, requests = { cpu = "200m", memory = "16Mi" } },`+"\n", true),
				ExpectError: regexp.MustCompile(`(?s)Workloads Do Not Fit.*pool\s+"agentpool".*short\s+by\s+235m\s+CPU.*2\s+replicas\s+of\s+workload\s+"more"\s+do\s+not\s+fit\s+\(at\s+most\s+2\s+of\s+its\s+4\s+fit\)`),
			},
			{
				// fail_on_misfit = false only warns and reports.
				Config: smallAKS(`    { name = "more", replicas = 4, requests = { cpu = "200m", memory = "16Mi" } },`+"\n", false),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("fits"), knownvalue.Bool(false)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("failures").AtSliceIndex(0).AtMapKey("reason"), knownvalue.StringExact("max-nodes")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("pool_results").AtMapKey("agentpool").AtMapKey("peak").AtMapKey("fits"), knownvalue.Bool(false)),
				},
			},
		},
	})
}

func TestAccNodePoolSizing_multiPool(t *testing.T) {
	const addr = "data.kubefit_node_pool_sizing.x"
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: `
data "kubefit_node_pool_sizing" "x" {
  pools = {
    general = {
      cloud = "aws", instance_type = "m5.large", profile = "eks-al2023", eks = { node_group_kind = "managed" }
      min_nodes = 1, max_nodes = 10, zones = ["a", "b", "c"], labels = { role = "web" }
    }
    gpu = {
      cloud = "aws", instance_types = ["g5.2xlarge", "g5.xlarge"], max_nodes = 2
      taints = [{ key = "nvidia.com/gpu", value = "true", effect = "NoSchedule" }]
    }
  }
  daemonsets = [
    { name = "aws-node", requests = { cpu = "25m" } },
    { name = "kube-proxy", requests = { cpu = "100m" } },
    { name = "dcgm", requests = { cpu = "100m" }, node_selector = { "node.kubernetes.io/instance-type" = "g5.xlarge" },
      tolerations = [{ operator = "Exists" }] },
  ]
  workloads = [
    { name = "api", min_replicas = 3, max_replicas = 9, max_surge = "25%", requests = { cpu = "500m", memory = "512Mi" },
      node_selector = { role = "web" }, spread = { type = "zone", max_skew = 1 } },
    { name = "trainer", replicas = 1, requests = { cpu = "2", memory = "8Gi", gpu = 1 },
      tolerations = [{ key = "nvidia.com/gpu", operator = "Exists", effect = "NoSchedule" }], pools = ["gpu"] },
  ]
}`,
			ConfigPlanChecks: emptyPlanAfterApply,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("fits"), knownvalue.Bool(true)),
				// Peak: 9 + ceil(9 × 25 %) = 12 api pods.
				expectInt(addr, tfjsonpath.New("pool_results").AtMapKey("general").AtMapKey("peak").AtMapKey("pods"), 12),
				expectInt(addr, tfjsonpath.New("workload_results").AtMapKey("api").AtMapKey("steady").AtMapKey("general"), 3),
				expectInt(addr, tfjsonpath.New("workload_results").AtMapKey("trainer").AtMapKey("steady").AtMapKey("gpu"), 1),
				expectString(addr, tfjsonpath.New("pool_results").AtMapKey("gpu").AtMapKey("instance_type"), "g5.xlarge"),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("pool_results").AtMapKey("gpu").AtMapKey("note"), knownvalue.StringRegexp(regexp.MustCompile(`smallest member, g5\.xlarge`))),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("pool_results").AtMapKey("general").AtMapKey("burst"), knownvalue.Null()),
			},
		}},
	})
}

// TestAccNodePoolSizing_burstCredits: the requests fit, but the pods' real CPU use drains the credits of
// t3a.medium nodes (burst.md §6): 10 pods × 50m = 500m per node against a 400m baseline; a fresh node
// has no credits, so it is throttled at once.
func TestAccNodePoolSizing_burstCredits(t *testing.T) {
	config := func(balance string) string {
		return fmt.Sprintf(`
data "kubefit_node_pool_sizing" "t3" {
  pools = {
    burst = { cloud = "aws", instance_type = "t3a.medium", min_nodes = 2, max_nodes = 2, credit_mode = "standard", starting_balance = %q }
  }
  workloads = [
    { name = "profiled", replicas = 20, requests = { cpu = "50m", memory = "64Mi" }, cpu_usage = "50m", spread = { type = "none" } },
  ]
}`, balance)
	}
	const addr = "data.kubefit_node_pool_sizing.t3"
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: config("launch"),
				ExpectError: regexp.MustCompile(`(?s)Burstable Nodes Run Out of CPU Credits.*requests\s+fit,\s+but\s+the\s+expected\s+CPU\s+use\s+of\s+its\s+busiest\s+node\s+is\s+500m\.\s+t3a.medium\s+sustains` +
					`.*Remedies:\s+spread\s+the\s+1000m\s+of\s+expected\s+use\s+over\s+at\s+least\s+3\s+nodes.*unlimited\s+mode,\s+which\s+at\s+this\s+load\s+bills\s+about\s+\$3\.65` +
					`.*or\s+use\s+\S+,\s+the\s+smallest\s+fixed-performance\s+type.*holds\s+the\s+busiest\s+node's\s+load.*Kubernetes\s+cannot\s+see\s+this`),
			},
			{
				// kube-scheduler spreads the 20 pods over the two nodes (LeastAllocated): 10 × 50m = 500m against a
				// 400m baseline drains 100m × 60 min = 6 credits an hour, so a full balance of 576 credits lasts
				// 576 / 6 = 96 hours, above min_hours 24: a warning only. (A packing would fill the first node to
				// its 15 workload pod slots, 750m, and last 27.43 hours.)
				Config:           config("full"),
				ConfigPlanChecks: emptyPlanAfterApply,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("fits"), knownvalue.Bool(true)),
					expectInt(addr, tfjsonpath.New("pool_results").AtMapKey("burst").AtMapKey("burst").AtMapKey("baseline_cpu_millicores"), 400),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("pool_results").AtMapKey("burst").AtMapKey("burst").AtMapKey("hours_to_exhaustion"), knownvalue.Float64Exact(96)),
					expectInt(addr, tfjsonpath.New("pool_results").AtMapKey("burst").AtMapKey("burst").AtMapKey("max_node_cpu_usage_millicores"), 500),
				},
			},
		},
	})
}

func TestAccNodePoolSizing_badInput(t *testing.T) {
	base := func(workload string) string {
		return `
data "kubefit_node_pool_sizing" "bad" {
  pools = {
    general = { cloud = "aws", instance_type = "m5.large", max_nodes = 3 }
  }
  workloads = [
    ` + workload + `
  ]
}`
	}
	cases := []badInput{
		{`{ name = "a", replicas = 1, pools = ["generl"] }`, `(?s)Invalid Workload.*may\s+use\s+pool\s+"generl",\s+which\s+is\s+not\s+defined`},
		{`{ name = "a", replicas = -2 }`, `(?s)replicas.*at\s+least\s+0`},
		{`{ name = "a", min_replicas = 5, max_replicas = 2 }`, `(?s)Invalid\s+Workload.*min_replicas:\s+the\s+minimum\s+replica\s+count\s+5\s+of\s+workload\s+"a"\s+is\s+greater\s+than\s+its\s+maximum\s+replica\s+count\s+2`},
		{`{ name = "a", replicas = 1, requests = { cpu = "one" } }`, `(?s)"one"\s+is\s+not\s+a\s+Kubernetes\s+quantity`},
		{`{ name = "a", replicas = 1, max_surge = "lots" }`, `(?s)"lots"\s+is\s+neither`},
		{`{ name = "a", replicas = 1, requests = { cpu = "3" } }`, `(?s)Workloads Do Not Fit.*too-large`},
	}
	for i := range cases {
		cases[i].config = base(cases[i].config)
	}
	cases = append(cases, badInput{`
data "kubefit_node_pool_sizing" "bad" {
  pools = {
    general = { cloud = "aws", instance_type = "m5.large", min_nodes = 4, max_nodes = 3 }
  }
  workloads = [{ name = "a", replicas = 1 }]
}`, `(?s)min_nodes\s+4\s+is\s+greater\s+than\s+max_nodes\s+3`}, badInput{`
data "kubefit_node_pool_sizing" "bad" {
  pools         = { general = { cloud = "aws", instance_type = "m5.large", max_nodes = 3 } }
  workloads     = [{ name = "a", replicas = 1 }]
  arrival_order = "random"
}`, `(?s)arrival_order.*value\s+must\s+be\s+one\s+of.*"rollout"`}, badInput{`
data "kubefit_node_pool_sizing" "bad" {
  pools             = { general = { cloud = "aws", instance_type = "m5.large", max_nodes = 3 } }
  workloads         = [{ name = "a", replicas = 1 }]
  scheduler_profile = "binpack"
}`, `(?s)scheduler_profile.*value\s+must\s+be\s+one\s+of.*"most-allocated"`}, badInput{`
data "kubefit_node_pool_sizing" "bad" {
  pools     = { big = { cloud = "gcp", instance_type = "e2-standard-2", zones = ["us-central1-a", "us-central1-b"], max_nodes = 2500 } }
  workloads = [{ name = "a", replicas = 1 }]
}`, `(?s)max_nodes.*maximum\s+of\s+2,500\s+nodes.*in\s+its\s+2\s+zones,\s+at\s+most\s+2,000.*at\s+least\s+3\s+zones`})
	testBadInputs(t, base(`{ name = "a", replicas = 1 }`), cases)
}

func TestAccNodePoolSizing_unknownInputs(t *testing.T) {
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: `
resource "terraform_data" "later" {
  input = 3
}
data "kubefit_node_pool_sizing" "x" {
  pools = {
    general = { cloud = "aws", instance_type = "m5.large", max_nodes = terraform_data.later.output }
  }
  workloads = [
    { name = "api", replicas = terraform_data.later.output, requests = { cpu = terraform_data.later.id == "" ? "1" : "500m" },
      pools = [terraform_data.later.id == "" ? "nope" : "general"] },
  ]
}`,
			ConfigPlanChecks: emptyPlanAfterApply,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.kubefit_node_pool_sizing.x", tfjsonpath.New("fits"), knownvalue.Bool(true)),
				expectInt("data.kubefit_node_pool_sizing.x", tfjsonpath.New("pool_results").AtMapKey("general").AtMapKey("steady").AtMapKey("nodes_required"), 1),
			},
		}},
	})
}

// TestAccNodePoolSizing_measuredAllocatable: a pool's measured allocatable wins over the model, with max pods
// from its pods.
// TestAccNodePoolSizing_unknownHidesNothing: an unknown instance type does not hide a known min > max.
func TestAccNodePoolSizing_unknownHidesNothing(t *testing.T) {
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: `resource "terraform_data" "type" {
  input = "m5.large"
}
data "kubefit_node_pool_sizing" "x" {
  pools = {
    general = { cloud = "aws", instance_type = terraform_data.type.output, min_nodes = 5, max_nodes = 2 }
  }
  workloads = [{ name = "api", replicas = 1, requests = { cpu = "100m" } }]
}
`,
			PlanOnly:    true,
			ExpectError: regexp.MustCompile(`min_nodes\s+5\s+is\s+greater\s+than\s+max_nodes\s+2`),
		}},
	})
}

func TestAccNodePoolSizing_measuredAllocatable(t *testing.T) {
	const addr = "data.kubefit_node_pool_sizing.measured"
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: `
data "kubefit_node_pool_sizing" "measured" {
  pools = {
    general = {
      cloud = "aws", instance_type = "m5.large", min_nodes = 1, max_nodes = 3
      measured_allocatable = { cpu = "1500m", memory = "6000Mi", pods = 20 }
    }
  }
  workloads = [{ name = "api", replicas = 2, requests = { cpu = "100m", memory = "128Mi" } }]
}`,
			ConfigPlanChecks: emptyPlanAfterApply,
			ConfigStateChecks: []statecheck.StateCheck{
				expectInt(addr, tfjsonpath.New("pool_results").AtMapKey("general").AtMapKey("allocatable").AtMapKey("cpu_millicores"), 1500),
				expectString(addr, tfjsonpath.New("pool_results").AtMapKey("general").AtMapKey("allocatable").AtMapKey("memory"), "6000Mi"),
				// Allocatable is the node's: the measured 20 pods. Workloads get 18: aws-node and kube-proxy run
				// on every EKS node, listed or not.
				expectInt(addr, tfjsonpath.New("pool_results").AtMapKey("general").AtMapKey("allocatable").AtMapKey("pods"), 20),
				expectInt(addr, tfjsonpath.New("pool_results").AtMapKey("general").AtMapKey("workload_allocatable").AtMapKey("pods"), 18),
			},
		}},
	})
}

// clickHouseSizing is a 2-shard × 3-replica ClickHouse: each shard's replicas on distinct nodes (spread =
// node, the chart's required hostname anti-affinity), each with a gp3 volume of its own, on a pool of
// m5.2xlarge over three zones.
func clickHouseSizing(minNodes, maxNodes int, disruptions string) string {
	return fmt.Sprintf(`data "kubefit_node_pool_sizing" "ch" {
  pools = { db = { cloud = "aws", instance_type = "m5.2xlarge", min_nodes = %d, max_nodes = %d, zones = ["eu-west-1a", "eu-west-1b", "eu-west-1c"] } }
  workloads = [for s in ["clickhouse-shard0", "clickhouse-shard1"] : {
    name = s, replicas = 3, requests = { cpu = "2", memory = "8Gi" }, spread = { type = "node" }
    volume_claims = [{ name = "data", size = "100Gi", storage_class = "gp3", access_modes = ["ReadWriteOnce"] }]
  }]
  disruptions = %s
}`, minNodes, maxNodes, disruptions)
}

// TestAccNodePoolSizing_disruptions: the ClickHouse fits in steady state on 3 nodes over 3 zones; losing a
// node fails the plan naming the two replicas that cannot move (anti-affinity and their zonal volumes) and
// the maximum that absorbs it; losing a zone reports the replicas its volumes pin, by design; with room for
// a fourth node both hold.
func TestAccNodePoolSizing_disruptions(t *testing.T) {
	addr := "data.kubefit_node_pool_sizing.ch"
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: clickHouseSizing(3, 3, `["node_loss", "zone_loss"]`),
				ExpectError: regexp.MustCompile(`(?s)Disruption Not Absorbed.*` + errRe(`2`, `pods`, `bind`, `nowhere:`, `1`, `pod`, `of`, `workload`, `"clickhouse-shard0"`, `and`, `1`, `pod`, `of`, `workload`, `"clickhouse-shard1"`).String() +
					`.*` + errRe(`zone`, `"eu-west-1a",`, `where`, `no`, `other`, `node`, `runs`).String() + `.*` + errRe(`With`, `a`, `maximum`, `node`, `count`, `of`, `4`, `for`, `pool`, `"db"`).String())},
			{Config: clickHouseSizing(3, 3, `["meteor"]`), ExpectError: regexp.MustCompile(`(?s)node_loss.*zone_loss`)},
			{
				Config:           clickHouseSizing(3, 4, `["node_loss", "zone_loss"]`),
				ConfigPlanChecks: emptyPlanAfterApply,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("fits"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("pool_results").AtMapKey("db").AtMapKey("steady").AtMapKey("nodes_required"), knownvalue.Int64Exact(3)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("disruption_results").AtMapKey("node_loss").AtMapKey("fits"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("disruption_results").AtMapKey("node_loss").AtMapKey("evicted"), knownvalue.Int64Exact(2)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("disruption_results").AtMapKey("zone_loss").AtMapKey("stuck"),
						knownvalue.MapExact(map[string]knownvalue.Check{"clickhouse-shard0": knownvalue.Int64Exact(1), "clickhouse-shard1": knownvalue.Int64Exact(1)})),
				},
			},
		},
	})
}

// largeSizing is 20,000 pods of 100m and 1,000 of 900m on m5.large: beyond the scheduler model's work budget.
// With pinned the small pods may use pool "general" only; otherwise they may use "other" too.
func largeSizing(pinned, failOnMisfit bool) string {
	pools := ""
	if pinned {
		pools = `, pools = ["general"]`
	}
	return fmt.Sprintf(`
data "kubefit_node_pool_sizing" "big" {
  pools = {
    general = { cloud = "aws", instance_type = "m5.large", max_nodes = 5000 }
    other   = { cloud = "aws", instance_type = "m5.xlarge", max_nodes = 5000 }
  }
  workloads = [
    { name = "batch", replicas = 20000, requests = { cpu = "100m", memory = "64Mi" }%s },
    { name = "api", replicas = 1000, requests = { cpu = "900m", memory = "1Gi" }, pools = ["general"] },
  ]
  fail_on_misfit = %t
}`, pools, failOnMisfit)
}

// TestAccNodePoolSizing_beyondModelBudget: beyond the scheduler model's work budget the counts are the any-fit
// bound (above the best packing for mixed pod sizes), and the plan fits when the pool's maximum holds it; a
// workload free to use several pools fails, as which of them kube-scheduler fills is unknown.
func TestAccNodePoolSizing_beyondModelBudget(t *testing.T) {
	const addr = "data.kubefit_node_pool_sizing.big"
	// A new path each time: tfjsonpath's At methods may share the parent's array.
	steady := func(key string) tfjsonpath.Path {
		return tfjsonpath.New("pool_results").AtMapKey("general").AtMapKey("steady").AtMapKey(key)
	}
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config:           largeSizing(true, true),
				ConfigPlanChecks: emptyPlanAfterApply,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("fits"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("report"), knownvalue.StringRegexp(regexp.MustCompile(
						`as the scheduler model did not run: each pool holds as many nodes as any scheduler needs`))),
					statecheck.CompareValuePairs(addr, steady("nodes_required"), addr, steady("nodes_optimal"), compare.ValuesDiffer()),
				},
			},
			{
				Config:      largeSizing(false, true),
				ExpectError: regexp.MustCompile(`(?s)scheduler\s+model\s+was\s+not\s+run.*workload\s+"batch"\s+may\s+use\s+pools\s+"(general|other)"\s+and\s+"(general|other)".*Pin\s+the\s+workload\s+to\s+one\s+pool`),
			},
		},
	})
}

// unknownBool is a configuration prelude whose local.b is a bool unknown at plan time (true at apply): a
// terraform_data's id is known only once it is created.
const unknownBool = `
resource "terraform_data" "later" {
  input = "x"
}
locals {
  b = terraform_data.later.id != ""
}
`

// TestAccUnknownElements: an element of a nested list or map unknown as a whole (a conditional choosing between two
// objects) is not checked until it is known: before, every required attribute inside it was called missing, in every
// object, and the configuration could not even be applied.
func TestAccUnknownElements(t *testing.T) {
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: unknownBool + `
data "kubefit_node_pool_sizing" "x" {
  pools = {
    general = local.b ? { cloud = "aws", instance_type = "m5.large", max_nodes = 5 } : { cloud = "aws", instance_type = "m5.xlarge", max_nodes = 3 }
  }
  workloads  = [local.b ? { name = "a", replicas = 2, requests = { cpu = "100m" } } : { name = "b", replicas = 1, requests = { cpu = "200m" } }]
  daemonsets = [local.b ? { name = "agent", requests = { cpu = "50m" } } : { name = "agent", requests = { cpu = "60m" } }]
}
resource "kubefit_node_group" "g" {
  name          = "g"
  cloud         = "aws"
  instance_type = "m5.large"
  workloads     = [local.b ? { name = "a", replicas = 2, requests = { cpu = "100m" } } : { name = "b", replicas = 1, requests = { cpu = "200m" } }]
}
resource "kubefit_keda_scaled_object" "k" {
  name              = "k"
  namespace         = "n"
  scale_target_ref  = { name = "a" }
  min_replica_count = 1
  max_replica_count = 5
  triggers = [local.b ? { type = "cpu", metric_type = "Utilization", metadata = { value = "50" } } : { type = "cpu", metric_type = "Utilization", metadata = { value = "60" } }]
}
`,
			ConfigPlanChecks: emptyPlanAfterApply,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.kubefit_node_pool_sizing.x", tfjsonpath.New("fits"), knownvalue.Bool(true)),
				expectInt("data.kubefit_node_pool_sizing.x", tfjsonpath.New("pool_results").AtMapKey("general").AtMapKey("steady").AtMapKey("nodes_required"), 1),
				statecheck.ExpectKnownValue("kubefit_node_group.g", tfjsonpath.New("planned_instance_type"), knownvalue.StringExact("m5.large")),
			},
		}},
	})
}
