package provider

import (
	"os"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// recommendMemoryHeavy picks among the 8-vCPU m/c/r types of the 6th and 7th generation for a
// memory-heavy mix, wires the winner into kubefit_node_pool_sizing, and sizes every candidate alone
// with kubefit_node_pool_sizing too, so the test can compare them.
const recommendMemoryHeavy = `
locals {
  daemonsets = [
    { name = "aws-node", requests = { cpu = "25m" } },
    { name = "kube-proxy", requests = { cpu = "100m" }, cpu_usage = "10m" },
    { name = "fluent-bit", requests = { cpu = "100m", memory = "128Mi" } },
  ]
  workloads = [
    { name = "cache", replicas = 12, requests = { cpu = "500m", memory = "12Gi" } },
    { name = "search", min_replicas = 4, max_replicas = 10, max_surge = "25%", requests = { cpu = "1", memory = "8Gi" } },
    { name = "api", replicas = 6, requests = { cpu = "250m", memory = "512Mi" }, spread = { type = "zone" } },
  ]
  pool = { max_nodes = 40, zones = ["a", "b", "c"] }
}

data "kubefit_instance_types" "mcr" {
  cloud        = "aws"
  families     = ["m?i", "c?i", "r?i"]
  generation   = { min = 6, max = 7 }
  vcpu         = { min = 8, max = 8 }
  architecture = "x86_64"
}

data "kubefit_node_pool_recommendation" "x" {
  cloud      = "aws"
  candidates = data.kubefit_instance_types.mcr.names
  pool       = local.pool
  daemonsets = local.daemonsets
  workloads  = local.workloads
}

data "kubefit_node_pool_sizing" "best" {
  pools      = { pool = merge(local.pool, { cloud = "aws", instance_type = data.kubefit_node_pool_recommendation.x.best }) }
  daemonsets = local.daemonsets
  workloads  = local.workloads
}

data "kubefit_node_pool_sizing" "each" {
  count          = length(data.kubefit_instance_types.mcr.names)
  pools          = { pool = merge(local.pool, { cloud = "aws", instance_type = data.kubefit_instance_types.mcr.names[count.index] }) }
  daemonsets     = local.daemonsets
  workloads      = local.workloads
  fail_on_misfit = false
}

output "mismatches" {
  value = [for r in data.kubefit_node_pool_recommendation.x.ranking : r.instance_type
    if r.nodes_required != local.each[r.instance_type].pool_results["pool"].peak.nodes_required ||
    r.nodes_optimal != local.each[r.instance_type].pool_results["pool"].peak.nodes_optimal ||
    abs(r.monthly_cost - 730 * local.each[r.instance_type].pool_results["pool"].peak.price_per_hour) > 0.01 ||
    r.excluded == local.each[r.instance_type].fits]
}

locals {
  each = { for i, name in data.kubefit_instance_types.mcr.names : name => data.kubefit_node_pool_sizing.each[i] }
}

output "first_family" {
  value = substr(data.kubefit_node_pool_recommendation.x.best, 0, 1)
}
`

func TestAccNodePoolRecommendation_memoryHeavyEqualsSizing(t *testing.T) {
	const addr = "data.kubefit_node_pool_recommendation.x"
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config:           recommendMemoryHeavy,
			ConfigPlanChecks: emptyPlanAfterApply,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownOutputValue("first_family", knownvalue.StringExact("r")),
				statecheck.ExpectKnownOutputValue("mismatches", knownvalue.ListSizeExact(0)),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("ranking"), knownvalue.ListSizeExact(6)),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("ranking").AtSliceIndex(0).AtMapKey("price_source"),
					knownvalue.StringRegexp(regexp.MustCompile(`^reference on-demand price, us-east-1, \d{4}-\d{2}-\d{2}`))),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("ranking").AtSliceIndex(0).AtMapKey("excluded"), knownvalue.Bool(false)),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("ranking").AtSliceIndex(0).AtMapKey("credit_verdict"), knownvalue.StringExact("not_burstable")),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("ranking").AtSliceIndex(0).AtMapKey("scheduler_modelled"), knownvalue.Bool(true)),
				statecheck.CompareValuePairs(addr, tfjsonpath.New("ranking").AtSliceIndex(0).AtMapKey("nodes_required"),
					"data.kubefit_node_pool_sizing.best", tfjsonpath.New("pool_results").AtMapKey("pool").AtMapKey("peak").AtMapKey("nodes_required"), compare.ValuesSame()),
				statecheck.CompareValuePairs(addr, tfjsonpath.New("best"),
					"data.kubefit_node_pool_sizing.best", tfjsonpath.New("pool_results").AtMapKey("pool").AtMapKey("instance_type"), compare.ValuesSame()),
			},
		}},
	})
}

func TestAccNodePoolRecommendation_burstableCredits(t *testing.T) {
	const addr = "data.kubefit_node_pool_recommendation.x"
	config := func(mode string) string {
		return `
data "kubefit_node_pool_recommendation" "x" {
  cloud      = "aws"
  candidates = ["t3.xlarge", "m6i.xlarge", "t3a.xlarge", "c6i.xlarge"]
  scenario   = "steady"
  pool       = { max_nodes = 20, credit_mode = "` + mode + `" }
  workloads = [
    { name = "api", replicas = 12, requests = { cpu = "500m", memory = "1Gi" }, cpu_usage = "450m" },
  ]
}`
	}
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				// Standard mode: the busiest t3 node drains its credits; both t3 types are excluded with the verdict.
				Config: config("standard"),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("best"), knownvalue.StringRegexp(regexp.MustCompile(`^(c6i|m6i)\.xlarge$`))),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("ranking").AtSliceIndex(2), knownvalue.ObjectPartial(map[string]knownvalue.Check{
						"instance_type": knownvalue.StringExact("t3.xlarge"), "excluded": knownvalue.Bool(true),
						"reason": knownvalue.StringExact("burst-credits"), "credit_verdict": knownvalue.StringExact("throttled"),
						"message": knownvalue.StringRegexp(regexp.MustCompile(`runs out of CPU credits`)),
					})),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("ranking").AtSliceIndex(3), knownvalue.ObjectPartial(map[string]knownvalue.Check{
						"instance_type": knownvalue.StringExact("t3a.xlarge"), "reason": knownvalue.StringExact("burst-credits"),
					})),
				},
			},
			{
				// Unlimited mode: they stay eligible, flagged with the surplus-charged verdict.
				Config: config("unlimited"),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("ranking"), knownvalue.SetPartial([]knownvalue.Check{
						knownvalue.ObjectPartial(map[string]knownvalue.Check{"instance_type": knownvalue.StringExact("t3.xlarge"),
							"excluded": knownvalue.Bool(false), "credit_verdict": knownvalue.StringExact("surplus_charged")}),
					})),
				},
			},
		},
	})
}

func TestAccNodePoolRecommendation_errors(t *testing.T) {
	ok := `
data "kubefit_node_pool_recommendation" "x" {
  cloud      = "aws"
  candidates = ["m6i.large"]
  pool       = { max_nodes = 3 }
  workloads  = [{ name = "web", replicas = 2, requests = { cpu = "500m" } }]
}`
	testBadInputs(t, ok, []badInput{
		{`
data "kubefit_node_pool_recommendation" "x" {
  cloud      = "aws"
  candidates = ["m6i.large", "m6i.larg"]
  pool       = { max_nodes = 3 }
  workloads  = [{ name = "web", replicas = 2, requests = { cpu = "500m" } }]
}`, `(?s)Unknown Instance Type.*"m6i.larg"\s+is\s+not\s+in.*did\s+you\s+mean\s+"m6i.large"`},
		{`
data "kubefit_node_pool_recommendation" "x" {
  cloud      = "aws"
  candidates = ["m6i.large"]
  pool       = { max_nodes = 3, min_nodes = 5 }
  workloads  = [{ name = "web", replicas = 2, requests = { cpu = "500m" } }]
}`, `(?s)Invalid Pool.*min_nodes\s+5\s+is\s+greater\s+than\s+max_nodes\s+3`},
		{`
data "kubefit_node_pool_recommendation" "x" {
  cloud      = "aws"
  candidates = ["m6i.large"]
  pool       = { max_nodes = 3 }
  workloads  = [{ name = "web", replicas = 2, min_replicas = 1, requests = { cpu = "500m" } }]
}`, `(?s)Invalid Workload.*gives\s+both\s+a\s+fixed\s+replica\s+count`},
		{`
data "kubefit_node_pool_recommendation" "x" {
  cloud      = "aws"
  candidates = ["m6i.large"]
  pool       = { max_nodes = 3 }
  workloads  = [{ name = "web", replicas = 2, requests = { cpu = "500m" }, pools = ["general"] }]
}`, `(?s)Invalid Workload.*may\s+use\s+pool\s+"general",\s+which\s+is\s+not\s+defined`},
		{`
data "kubefit_node_pool_recommendation" "x" {
  cloud      = "aws"
  candidates = ["m6i.large"]
  pool       = { max_nodes = 3 }
  workloads  = [
    { name = "web", replicas = 2, requests = { cpu = "500m" } },
    { name = "web", replicas = 1, requests = { cpu = "100m" } },
  ]
}`, `(?s)Duplicate workload.*workloads\[1\].name\s+"web"\s+is\s+also\s+the\s+name\s+of\s+workloads\[0\].name`},
		{`
data "kubefit_node_pool_recommendation" "x" {
  cloud      = "aws"
  candidates = ["m6i.large"]
  pool       = { max_nodes = 3 }
  scenario   = "busy"
  workloads  = [{ name = "web", replicas = 2, requests = { cpu = "500m" } }]
}`, `(?s)scenario.*value\s+must\s+be\s+one\s+of`},
		// Measured figures are one type's: every candidate would get them.
		{`
data "kubefit_node_pool_recommendation" "x" {
  cloud      = "aws"
  candidates = ["m6i.large", "m6i.xlarge"]
  pool       = { max_nodes = 3, measured_allocatable = { cpu = "1930m", memory = "7140176Ki", pods = 29 } }
  workloads  = [{ name = "web", replicas = 2, requests = { cpu = "500m" } }]
}`, `(?s)Measured\s+Figures\s+Belong\s+to\s+One\s+Instance\s+Type.*measured_allocatable\s+is\s+what\s+the\s+kubelet\s+of\s+one\s+node`},
	})
}

// TestAccNodePoolRecommendation_unknownAndLimit: candidates known only at apply defer the read; own
// prices replace the reference price; limit leaves the costly candidates unsized.
func TestAccNodePoolRecommendation_unknownAndLimit(t *testing.T) {
	const addr = "data.kubefit_node_pool_recommendation.x"
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: `
resource "terraform_data" "types" { input = ["m6i.large", "m6i.xlarge", "m6i.2xlarge", "m6i.24xlarge", "c6i.large"] }
data "kubefit_node_pool_recommendation" "x" {
  cloud      = "aws"
  candidates = terraform_data.types.output
  pool_name  = "general"
  pool       = { max_nodes = 20, profile = "eks-al2023" }
  workloads  = [{ name = "web", replicas = 12, requests = { cpu = "500m", memory = "1Gi" }, pools = ["general"] }]
  prices     = { "c6i.large" = 0.01 }
  limit      = 1
}`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("best"), knownvalue.StringExact("c6i.large")),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("ranking").AtSliceIndex(0).AtMapKey("price_source"),
					knownvalue.StringRegexp(regexp.MustCompile(`price given for c6i.large`))),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("ranking"), knownvalue.SetPartial([]knownvalue.Check{
					knownvalue.ObjectPartial(map[string]knownvalue.Check{"instance_type": knownvalue.StringExact("m6i.24xlarge"),
						"sized": knownvalue.Bool(false), "reason": knownvalue.StringExact("not-sized")}),
				})),
			},
		}},
	})
}

// TestAccNodePoolRecommendation_modelledAs: of two candidates whose nodes have one shape (m5a.2xlarge and
// m6a.2xlarge: same allocatable, pod limit and architecture), the scheduler model sizes the cheaper and the
// other takes its count, saying whose; a candidate the model did not size reports the best packing twice.
func TestAccNodePoolRecommendation_modelledAs(t *testing.T) {
	const addr = "data.kubefit_node_pool_recommendation.x"
	row := func(i int) tfjsonpath.Path { return tfjsonpath.New("ranking").AtSliceIndex(i) }
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: `
data "kubefit_node_pool_recommendation" "x" {
  cloud      = "aws"
  candidates = ["m6a.2xlarge", "m5a.2xlarge", "m6i.16xlarge", "m6i.24xlarge", "m6i.32xlarge"]
  pool       = { max_nodes = 40, profile = "eks-al2023" }
  workloads = [
    { name = "web", replicas = 30, requests = { cpu = "700m", memory = "1Gi" } },
    { name = "batch", replicas = 12, requests = { cpu = "1500m", memory = "3Gi" } },
  ]
}`,
			ConfigPlanChecks: emptyPlanAfterApply,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(addr, row(0), knownvalue.ObjectPartial(map[string]knownvalue.Check{
					"instance_type": knownvalue.StringExact("m5a.2xlarge"), "scheduler_modelled": knownvalue.Bool(true),
					"modelled_as": knownvalue.StringExact("")})),
				statecheck.ExpectKnownValue(addr, row(1), knownvalue.ObjectPartial(map[string]knownvalue.Check{
					"instance_type": knownvalue.StringExact("m6a.2xlarge"), "scheduler_modelled": knownvalue.Bool(true),
					"modelled_as": knownvalue.StringExact("m5a.2xlarge")})),
				statecheck.CompareValuePairs(addr, row(0).AtMapKey("nodes_required"), addr, row(1).AtMapKey("nodes_required"), compare.ValuesSame()),
				statecheck.CompareValuePairs(addr, row(0).AtMapKey("nodes_optimal"), addr, row(1).AtMapKey("nodes_optimal"), compare.ValuesSame()),
				// The costliest is past the modelled three: its count is the best packing's.
				statecheck.ExpectKnownValue(addr, row(4), knownvalue.ObjectPartial(map[string]knownvalue.Check{
					"instance_type": knownvalue.StringExact("m6i.32xlarge"), "scheduler_modelled": knownvalue.Bool(false),
					"modelled_as": knownvalue.StringExact("")})),
				statecheck.CompareValuePairs(addr, row(4).AtMapKey("nodes_required"), addr, row(4).AtMapKey("nodes_optimal"), compare.ValuesSame()),
			},
		}},
	})
}

// TestAccNodePoolRecommendation_examples plans the documentation examples of both data sources: the
// winner among m/c/r of the 6th and 7th generation feeds kubefit_node_pool_sizing, whose peak node
// count is the winner's.
func TestAccNodePoolRecommendation_examples(t *testing.T) {
	var steps []resource.TestStep
	for _, c := range []struct {
		file   string
		checks []statecheck.StateCheck
	}{
		{"../../examples/data-sources/kubefit_instance_types/data-source.tf", []statecheck.StateCheck{
			statecheck.ExpectKnownOutputValueAtPath("cheapest", tfjsonpath.New("price"), knownvalue.StringRegexp(regexp.MustCompile(`^us-east-1, `))),
		}},
		{"../../examples/data-sources/kubefit_node_pool_recommendation/data-source.tf", []statecheck.StateCheck{
			statecheck.ExpectKnownOutputValue("best", knownvalue.NotNull()),
			statecheck.CompareValuePairs("data.kubefit_node_pool_recommendation.general", tfjsonpath.New("ranking").AtSliceIndex(0).AtMapKey("nodes_required"),
				"data.kubefit_node_pool_sizing.general", tfjsonpath.New("pool_results").AtMapKey("general").AtMapKey("peak").AtMapKey("nodes_required"), compare.ValuesSame()),
		}},
	} {
		src, err := os.ReadFile(c.file)
		if err != nil {
			t.Fatal(err)
		}
		steps = append(steps, resource.TestStep{Config: string(src), ConfigStateChecks: c.checks})
	}
	resource.UnitTest(t, resource.TestCase{ProtoV6ProviderFactories: testAccProtoV6ProviderFactories, Steps: steps})
}

// TestAccNodePoolRecommendation_diskCaps: a node that must sustain 10,000 IOPS rules out m6i.large, whose
// EBS-optimized baseline is 3,600 IOPS, with reason disk-cap; m6i.2xlarge (12,000) wins.
func TestAccNodePoolRecommendation_diskCaps(t *testing.T) {
	const addr = "data.kubefit_node_pool_recommendation.x"
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: `
data "kubefit_node_pool_recommendation" "x" {
  cloud      = "aws"
  candidates = ["m6i.large", "m6i.2xlarge"]
  pool       = { max_nodes = 10 }
  node_disk  = { iops = 10000 }
  workloads  = [{ name = "db", replicas = 2, requests = { cpu = "500m", memory = "1Gi" } }]
}`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("best"), knownvalue.StringExact("m6i.2xlarge")),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("ranking").AtSliceIndex(1), knownvalue.ObjectPartial(map[string]knownvalue.Check{
					"instance_type": knownvalue.StringExact("m6i.large"), "excluded": knownvalue.Bool(true),
					"reason":  knownvalue.StringExact("disk-cap"),
					"message": knownvalue.StringRegexp(regexp.MustCompile(`sustains only 3,600 IOPS where a node needs 10,000 .*EBS-optimized`)),
				})),
			},
		}},
	})
}

// TestAccNodePoolRecommendation_diskTypeUnknown: a cheaper g2 candidate, whose hyperdisk-balanced support
// kubefit's table cannot check (GPD-M2), ranks after n4, which the table checks; its message says so. The pods
// tolerate GKE's GPU taint, which g2 nodes carry, so that g2 stays a candidate.
func TestAccNodePoolRecommendation_diskTypeUnknown(t *testing.T) {
	const addr = "data.kubefit_node_pool_recommendation.x"
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: `
data "kubefit_node_pool_recommendation" "x" {
  cloud      = "gcp"
  candidates = ["g2-standard-4", "n4-standard-4"]
  prices     = { "g2-standard-4" = 0.01 }
  pool       = { max_nodes = 10 }
  workloads = [{ name = "db", replicas = 2, requests = { cpu = "500m", memory = "1Gi" },
  volume_claims = [{ name = "data", disk_type = "hyperdisk-balanced" }],
  tolerations = [{ key = "nvidia.com/gpu", operator = "Exists" }] }]
}`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("best"), knownvalue.StringExact("n4-standard-4")),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("ranking").AtSliceIndex(1), knownvalue.ObjectPartial(map[string]knownvalue.Check{
					"instance_type": knownvalue.StringExact("g2-standard-4"), "excluded": knownvalue.Bool(false),
					"message": knownvalue.StringRegexp(regexp.MustCompile(`^disk support unknown, so ranked after .*G2.*GPD-M2`)),
				})),
			},
		}},
	})
}
