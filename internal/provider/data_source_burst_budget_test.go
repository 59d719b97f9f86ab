package provider

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/burst"
)

const burstAddr = "data.kubefit_burst_budget.test"

// burstConfig renders one kubefit_burst_budget block named "test" with the given attribute lines.
func burstConfig(attrs string) string {
	return fmt.Sprintf("data \"kubefit_burst_budget\" \"test\" {\n%s\n}\n", attrs)
}

func expectBurst(attr string, v knownvalue.Check) statecheck.StateCheck {
	return statecheck.ExpectKnownValue(burstAddr, tfjsonpath.New(attr), v)
}

// errRe builds a regexp from words that must appear in order, tolerating any whitespace (including
// Terraform's line wrapping) between them.
func errRe(words ...string) *regexp.Regexp {
	re := ""
	for i, w := range words {
		if i > 0 {
			re += `\s+`
		}
		re += regexp.QuoteMeta(w)
	}
	return regexp.MustCompile(re)
}

// TestAccBurstBudget_t3aMediumFigures checks the budget figures of t3a.medium (burst.md §3.1, §6):
// baseline 20 % per vCPU, 0.4 vCPU sustained, 24 credits/hour, 576 maximum, 0 launch credits, unlimited by default.
func TestAccBurstBudget_t3aMediumFigures(t *testing.T) {
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: burstConfig(`cloud = "aws"
instance_type = "t3a.medium"`),
			ConfigStateChecks: []statecheck.StateCheck{
				expectBurst("burstable", knownvalue.Bool(true)),
				expectBurst("vcpu", knownvalue.Int64Exact(2)),
				expectBurst("baseline_percent_per_vcpu", knownvalue.Float64Exact(20)),
				expectBurst("baseline_cpu_millicores", knownvalue.Int64Exact(400)),
				expectBurst("credits_per_hour", knownvalue.Float64Exact(24)),
				expectBurst("max_credits", knownvalue.Float64Exact(576)),
				expectBurst("launch_credits", knownvalue.Float64Exact(0)),
				expectBurst("credit_mode", knownvalue.StringExact("unlimited")),
				expectBurst("surplus_price_per_vcpu_hour", knownvalue.Float64Exact(0.05)),
				expectBurst("sustained_cpu_millicores", knownvalue.Int64Exact(0)),
				expectBurst("net_credits_per_hour", knownvalue.Float64Exact(24)),
				expectBurst("hours_to_exhaustion", knownvalue.Null()),
				expectBurst("max_sustainable_cpu_millicores", knownvalue.Int64Exact(400)),
				expectBurst("max_sustainable_pods", knownvalue.Null()),
				expectBurst("verdict", knownvalue.StringExact("within_baseline")),
				expectBurst("source", knownvalue.StringRegexp(regexp.MustCompile(`aws-burstable\.tsv.*2020-03-23`))),
			},
		}},
	})
}

// TestAccBurstBudget_workedExample is burst.md §6: 2 × t3a.medium, 20 pods spread evenly → 10 per node
// (ceil(20 / 2)), no other load. Hand computation (E = 24 credits/h, C = 576, s = 400m):
//
//	5 % = 50m: U = 10 × 50m = 500m, spend 60 × 0.5 = 30/h, net 24 − 30 = −6/h, full: 576 / 6 = 96 h (≥ 24: warning);
//	    after exhaustion 400m of 500m = 80 %, each pod 40m; sustainable: floor(400 / 50) = 8 pods.
//	6 % = 60m: U = 600m, net −12/h, full: 576 / 12 = 48 h; 400m of 600m; floor(400 / 60) = 6 pods.
//	Fresh node (T3a: 0 launch credits), standard: T = 0 < 24 h → the plan fails; it delivers 400m of the 600m.
//	Unlimited at 5 %: 0.1 vCPU × $0.05 = $0.005/h, × 730 = $3.65 per node-month; a $3 limit fails, $5 passes.
func TestAccBurstBudget_workedExample(t *testing.T) {
	pods := func(usage, extra string) string {
		return burstConfig(`cloud = "aws"
instance_type = "t3a.medium"
pods_per_node = 10
cpu_usage_per_pod = "` + usage + `"
` + extra)
	}
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{ // Warning only: the load is above baseline but a full bucket lasts 96 h ≥ min_hours.
				Config: pods("50m", `credit_mode = "standard"
starting_balance = "full"`),
				ConfigStateChecks: []statecheck.StateCheck{
					expectBurst("sustained_cpu_millicores", knownvalue.Int64Exact(500)),
					expectBurst("net_credits_per_hour", knownvalue.Float64Exact(-6)),
					expectBurst("starting_credits", knownvalue.Float64Exact(576)),
					expectBurst("hours_to_exhaustion", knownvalue.Float64Exact(96)),
					expectBurst("delivered_cpu_millicores_after_exhaustion", knownvalue.Int64Exact(400)),
					expectBurst("delivered_percent_after_exhaustion", knownvalue.Float64Exact(80)),
					expectBurst("delivered_cpu_per_pod_millicores_after_exhaustion", knownvalue.Int64Exact(40)),
					expectBurst("surplus_cost_per_month", knownvalue.Float64Exact(0)),
					expectBurst("max_sustainable_pods", knownvalue.Int64Exact(8)),
					expectBurst("verdict", knownvalue.StringExact("above_baseline")),
				},
			},
			{
				Config: pods("60m", `credit_mode = "standard"
starting_balance = "full"`),
				ConfigStateChecks: []statecheck.StateCheck{
					expectBurst("sustained_cpu_millicores", knownvalue.Int64Exact(600)),
					expectBurst("net_credits_per_hour", knownvalue.Float64Exact(-12)),
					expectBurst("hours_to_exhaustion", knownvalue.Float64Exact(48)),
					expectBurst("max_sustainable_pods", knownvalue.Int64Exact(6)),
				},
			},
			{ // Fresh node in standard mode: throttled at once.
				Config:      pods("60m", `credit_mode = "standard"`),
				ExpectError: errRe("Burstable", "Node", "Runs", "Out", "of", "CPU", "Credits"),
			},
			{
				Config:      pods("60m", `credit_mode = "standard"`),
				ExpectError: errRe("delivers", "only", "400m", "of", "the", "600m", "it", "is", "asked", "for"),
			},
			{
				Config:      pods("60m", `credit_mode = "standard"`),
				ExpectError: errRe("never", "sees", "the", "credit", "balance"),
			},
			{ // min_hours = 0 accepts throttling at once: a warning only.
				Config: pods("60m", `credit_mode = "standard"
min_hours = 0`),
				ConfigStateChecks: []statecheck.StateCheck{
					expectBurst("hours_to_exhaustion", knownvalue.Float64Exact(0)),
					expectBurst("delivered_cpu_millicores_after_exhaustion", knownvalue.Int64Exact(400)),
					expectBurst("verdict", knownvalue.StringExact("above_baseline")),
				},
			},
			{ // Unlimited (the T3a default), over the cost limit.
				Config:      pods("50m", `max_surplus_cost_per_month = 3`),
				ExpectError: errRe("Surplus", "CPU", "Credit", "Cost", "Over", "Limit"),
			},
			{
				Config: pods("50m", `max_surplus_cost_per_month = 5`),
				ConfigStateChecks: []statecheck.StateCheck{
					expectBurst("credit_mode", knownvalue.StringExact("unlimited")),
					expectBurst("surplus_cost_per_hour", knownvalue.Float64Exact(0.005)),
					expectBurst("surplus_cost_per_month", knownvalue.Float64Exact(3.65)),
					expectBurst("delivered_cpu_millicores_after_exhaustion", knownvalue.Int64Exact(500)),
					expectBurst("verdict", knownvalue.StringExact("surplus_charged")),
					expectBurst("source", knownvalue.StringRegexp(regexp.MustCompile(`\$0\.05 per vCPU-hour \(T3a, Linux\).*source date 2020-03-23`))),
				},
			},
			{ // The exact limit passes: the comparison is exact decimal arithmetic.
				Config: pods("50m", `max_surplus_cost_per_month = 3.65`),
				ConfigStateChecks: []statecheck.StateCheck{
					expectBurst("verdict", knownvalue.StringExact("surplus_charged")),
				},
			},
			{ // A user price: 0.1 vCPU × $0.096 × 730 = $7.008.
				Config: pods("50m", `surplus_price_per_vcpu_hour = 0.096`),
				ConfigStateChecks: []statecheck.StateCheck{
					expectBurst("surplus_price_per_vcpu_hour", knownvalue.Float64Exact(0.096)),
					expectBurst("surplus_cost_per_month", knownvalue.Float64Exact(7.008)),
				},
			},
		},
	})
}

// TestAccBurstBudget_otherClouds checks Azure and GCP rows against burst.md §3.2–§3.4 and §6.
func TestAccBurstBudget_otherClouds(t *testing.T) {
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{ // Standard_B2s: 24/h, 576 cap, 60 initial credits, 400m; 10 pods at 5 % from a fresh VM: 60 / 6 = 10 h.
				Config: burstConfig(`cloud = "azure"
instance_type = "Standard_B2s"
pods_per_node = 10
cpu_usage_per_pod = "50m"
min_hours = 10`),
				ConfigStateChecks: []statecheck.StateCheck{
					expectBurst("baseline_percent_per_vcpu", knownvalue.Float64Exact(20)),
					expectBurst("baseline_cpu_millicores", knownvalue.Int64Exact(400)),
					expectBurst("credits_per_hour", knownvalue.Float64Exact(24)),
					expectBurst("max_credits", knownvalue.Float64Exact(576)),
					expectBurst("launch_credits", knownvalue.Float64Exact(60)),
					expectBurst("credit_mode", knownvalue.StringExact("standard")),
					expectBurst("surplus_price_per_vcpu_hour", knownvalue.Null()),
					expectBurst("hours_to_exhaustion", knownvalue.Float64Exact(10)),
					expectBurst("verdict", knownvalue.StringExact("above_baseline")),
					expectBurst("source", knownvalue.StringRegexp(regexp.MustCompile(`bv1-series\.md`))),
				},
			},
			{ // Bsv2: Standard_B2s_v2 40 % × 2 = 800m, 48/h, 1152 cap, 60 initial credits.
				Config: burstConfig(`cloud = "azure"
instance_type = "Standard_B2s_v2"
sustained_cpu = "500m"`),
				ConfigStateChecks: []statecheck.StateCheck{
					expectBurst("baseline_percent_per_vcpu", knownvalue.Float64Exact(40)),
					expectBurst("baseline_cpu_millicores", knownvalue.Int64Exact(800)),
					expectBurst("credits_per_hour", knownvalue.Float64Exact(48)),
					expectBurst("max_credits", knownvalue.Float64Exact(1152)),
					expectBurst("launch_credits", knownvalue.Float64Exact(60)),
					expectBurst("net_credits_per_hour", knownvalue.Float64Exact(18)),
					expectBurst("verdict", knownvalue.StringExact("within_baseline")),
					expectBurst("source", knownvalue.StringRegexp(regexp.MustCompile(`bsv2-series\.md`))),
				},
			},
			{ // e2-medium sustains 1.0 of its 2 vCPUs (50 %); no credits.
				Config: burstConfig(`cloud = "gcp"
instance_type = "e2-medium"
sustained_cpu = "940m"`),
				ConfigStateChecks: []statecheck.StateCheck{
					expectBurst("vcpu", knownvalue.Int64Exact(2)),
					expectBurst("baseline_percent_per_vcpu", knownvalue.Float64Exact(50)),
					expectBurst("baseline_cpu_millicores", knownvalue.Int64Exact(1000)),
					expectBurst("credits_per_hour", knownvalue.Float64Exact(0)),
					expectBurst("max_credits", knownvalue.Float64Exact(0)),
					expectBurst("net_credits_per_hour", knownvalue.Null()),
					expectBurst("verdict", knownvalue.StringExact("within_baseline")),
					expectBurst("source", knownvalue.StringRegexp(regexp.MustCompile(`gcp-shared-core\.tsv`))),
				},
			},
			{ // e2-medium above its fraction has no balance to spend: throttled at once.
				Config: burstConfig(`cloud = "gcp"
instance_type = "e2-medium"
sustained_cpu = "1.2"`),
				ExpectError: errRe("delivers", "only", "1000m", "of", "the", "1200m"),
			},
			{ // A fixed-performance type reports no budget and never fails, whatever the load.
				Config: burstConfig(`cloud = "aws"
instance_type = "m5.large"
sustained_cpu = "1900m"`),
				ConfigStateChecks: []statecheck.StateCheck{
					expectBurst("burstable", knownvalue.Bool(false)),
					expectBurst("vcpu", knownvalue.Int64Exact(2)),
					expectBurst("baseline_cpu_millicores", knownvalue.Null()),
					expectBurst("credits_per_hour", knownvalue.Null()),
					expectBurst("hours_to_exhaustion", knownvalue.Null()),
					expectBurst("credit_mode", knownvalue.Null()),
					expectBurst("verdict", knownvalue.StringExact("not_burstable")),
				},
			},
		},
	})
}

// TestAccBurstBudget_badInput: every bad input gets an attribute diagnostic; no step panics.
func TestAccBurstBudget_badInput(t *testing.T) {
	base := `cloud = "aws"
instance_type = "t3a.medium"
`
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: burstConfig(`cloud = "aws"
instance_type = "t3a.mediun"`),
				ExpectError: errRe(`"t3a.mediun"`, "is", "not", "in", "the", "aws", "catalog"),
			},
			{
				Config: burstConfig(`cloud = "aws"
instance_type = "t3a.mediun"`),
				ExpectError: regexp.MustCompile(`did\s+you\s+mean\s+"t3a\.medium"`),
			},
			{
				Config:      burstConfig(base + `pods_per_node = 10` + "\n" + `cpu_usage_per_pod = "-50m"`),
				ExpectError: errRe(`"-50m"`, "is", "negative"),
			},
			{
				Config:      burstConfig(base + `sustained_cpu = "3"`),
				ExpectError: errRe("sustained", "CPU", "demand", "3000m", "exceeds", "the", "2", "vCPUs", "(2000m)", "of", "t3a.medium"),
			},
			{
				Config:      burstConfig(base + `pods_per_node = 50` + "\n" + `cpu_usage_per_pod = "50m"`),
				ExpectError: errRe("50", "pods", "×", "50m", "per", "pod", "+", "0m", "other", "load", "exceeds"),
			},
			{
				Config:      burstConfig(base + `sustained_cpu = "450m"` + "\n" + `pods_per_node = 10` + "\n" + `cpu_usage_per_pod = "50m"`),
				ExpectError: errRe("Invalid", "Attribute", "Combination"),
			},
			{
				Config:      burstConfig(base + `sustained_cpu = "lots"`),
				ExpectError: errRe(`"lots"`, "is", "not", "a", "Kubernetes", "quantity"),
			},
			{
				Config:      burstConfig(base + `pods_per_node = 10`),
				ExpectError: errRe("Invalid", "Attribute", "Combination"),
			},
			{
				Config:      burstConfig(base + `starting_balance = "half"`),
				ExpectError: errRe(`Invalid`, "starting", "balance", `"half"`),
			},
			{
				Config:      burstConfig(base + `starting_balance = "600"`),
				ExpectError: errRe("starting", "balance", "600", "credits", "exceeds", "the", "576", "credits"),
			},
			{
				Config: burstConfig(`cloud = "azure"
instance_type = "Standard_B2s"
credit_mode = "unlimited"`),
				ExpectError: errRe("Azure", "B-series", "VMs", "have", "no", "unlimited", "mode"),
			},
			{
				Config:      burstConfig(base + `credit_mode = "burst"`),
				ExpectError: errRe("Unknown", "credit", "mode", `"burst";`, "valid", "modes", "are"),
			},
			{
				Config:      burstConfig(base + `min_hours = -1`),
				ExpectError: errRe("minimum", "run", "time", "before", "throttling,", "-1", "hours,", "is", "negative."),
			},
			{
				Config: burstConfig(base + `sustained_cpu = "450m"`),
				ConfigStateChecks: []statecheck.StateCheck{
					expectBurst("sustained_cpu_millicores", knownvalue.Int64Exact(450)),
				},
			},
		},
	})
}

// TestAccBurstBudget_unknownInputs: inputs known only after apply give no error at plan; the read is
// deferred and its checks run at apply (here: 500m from a full bucket, 96 h, a warning).
func TestAccBurstBudget_unknownInputs(t *testing.T) {
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: `resource "terraform_data" "node" {
  input = { type = "t3a.medium", cpu = "500m", pods = 10, mode = "standard" }
}
data "kubefit_burst_budget" "test" {
  cloud             = "aws"
  instance_type     = terraform_data.node.output.type
  credit_mode       = terraform_data.node.output.mode
  sustained_cpu     = terraform_data.node.output.cpu
  starting_balance  = "full"
  min_hours         = 24
}
data "kubefit_burst_budget" "pods" {
  cloud             = "aws"
  instance_type     = "t3a.medium"
  credit_mode       = "standard"
  pods_per_node     = terraform_data.node.output.pods
  cpu_usage_per_pod = "50m"
  starting_balance  = "full"
}
`,
			ConfigStateChecks: []statecheck.StateCheck{
				expectBurst("hours_to_exhaustion", knownvalue.Float64Exact(96)),
				statecheck.ExpectKnownValue("data.kubefit_burst_budget.pods", tfjsonpath.New("hours_to_exhaustion"), knownvalue.Float64Exact(96)),
			},
		}},
	})
}

// TestAccBurstBudget_example plans and applies the documentation example.
func TestAccBurstBudget_example(t *testing.T) {
	cfg, err := os.ReadFile("../../examples/data-sources/kubefit_burst_budget/data-source.tf")
	if err != nil {
		t.Fatal(err)
	}
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: string(cfg),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownOutputValue("hours_until_throttled", knownvalue.Float64Exact(96)),
				statecheck.ExpectKnownOutputValue("pods_per_node_that_never_throttle", knownvalue.Int64Exact(8)),
				statecheck.ExpectKnownOutputValue("surplus_cost_per_node_month", knownvalue.Float64Exact(3.65)),
			},
		}},
	})
}

// TestBurstBudgetSchemaDocs: every attribute is documented, the enum lists come from the planner, and the
// surplus price description names its source and date.
func TestBurstBudgetSchemaDocs(t *testing.T) {
	var resp datasource.SchemaResponse
	newBurstBudgetDataSource().Schema(context.Background(), datasource.SchemaRequest{}, &resp)
	if resp.Diagnostics.HasError() {
		t.Fatal(resp.Diagnostics)
	}
	for name, a := range resp.Schema.Attributes {
		if len(a.GetMarkdownDescription()) < 20 {
			t.Errorf("attribute %s has no real MarkdownDescription", name)
		}
	}
	price := resp.Schema.Attributes["surplus_price_per_vcpu_hour"].GetMarkdownDescription()
	for _, want := range []string{"$0.05 per vCPU-hour (T3a, Linux)", "2020-03-23", "$0.04 per vCPU-hour (T4g, Linux)", "2023-06-15",
		"femiwiki/femiwiki#188", "merge request 118"} {
		if !strings.Contains(price, want) {
			t.Errorf("surplus price docs lack %q", want)
		}
	}
	for _, v := range burst.Verdicts {
		if !strings.Contains(resp.Schema.Attributes["verdict"].GetMarkdownDescription(), "`"+string(v)+"`") {
			t.Errorf("verdict docs lack %s", v)
		}
	}
}

// TestAccCreditOptionsIgnoredWarn: credit options on a fixed-performance type are ignored with the same
// warning by kubefit_burst_budget (on the option) and by a sizing pool (on the pool).
func TestAccCreditOptionsIgnoredWarn(t *testing.T) {
	rec := &diagRecorder{}
	factories := map[string]func() (tfprotov6.ProviderServer, error){
		"kubefit": func() (tfprotov6.ProviderServer, error) {
			s, err := NewServer("test")()
			if err != nil {
				return nil, err
			}
			return recordingServer{ProviderServer: s, rec: rec}, nil
		},
	}
	wantWarning := func(attribute string) resource.TestCheckFunc {
		return func(*terraform.State) error {
			for _, d := range rec.take() {
				if d.Severity == tfprotov6.DiagnosticSeverityWarning && d.Summary == "Credit Options Ignored" &&
					strings.Contains(d.Detail, "m5.large is not a burstable type, so its CPU credit options are ignored") &&
					pathString(d.Attribute) == attribute {
					return nil
				}
			}
			return fmt.Errorf("no Credit Options Ignored warning on %s", attribute)
		}
	}
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: factories,
		Steps: []resource.TestStep{
			{Config: `
data "kubefit_burst_budget" "t" {
  cloud             = "aws"
  instance_type     = "m5.large"
  pods_per_node     = 2
  cpu_usage_per_pod = "50m"
  credit_mode       = "unlimited"
}`, Check: wantWarning("credit_mode")},
			{Config: `
data "kubefit_node_pool_sizing" "t" {
  pools      = { general = { cloud = "aws", instance_type = "m5.large", max_nodes = 3, starting_balance = "full" } }
  daemonsets = [{ name = "kube-proxy", requests = { cpu = "100m" } }]
  workloads  = [{ name = "web", replicas = 2, requests = { cpu = "100m" } }]
}`, Check: wantWarning(`pools["general"]`)},
		},
	})
}
