package provider

import (
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// emptyPlanAfterApply is the plan check every step that applies uses.
var emptyPlanAfterApply = resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}}

func expectInt(addr string, p tfjsonpath.Path, v int64) statecheck.StateCheck {
	return statecheck.ExpectKnownValue(addr, p, knownvalue.Int64Exact(v))
}

func expectString(addr string, p tfjsonpath.Path, v string) statecheck.StateCheck {
	return statecheck.ExpectKnownValue(addr, p, knownvalue.StringExact(v))
}

func TestAccNodeOverhead_eksM5Large(t *testing.T) {
	const addr = "data.kubefit_node_overhead.test"
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: `
data "kubefit_node_overhead" "test" {
  cloud         = "aws"
  instance_type = "m5.large"
  profile       = "eks-al2023"
}`,
			ConfigPlanChecks: emptyPlanAfterApply,
			ConfigStateChecks: []statecheck.StateCheck{
				expectInt(addr, tfjsonpath.New("max_pods"), 29),
				expectString(addr, tfjsonpath.New("kube_reserved_resources").AtMapKey("cpu"), "70m"),
				expectString(addr, tfjsonpath.New("kube_reserved_resources").AtMapKey("memory"), "574Mi"),
				expectInt(addr, tfjsonpath.New("kube_reserved_resources").AtMapKey("ephemeral_storage_bytes"), 1<<30),
				expectString(addr, tfjsonpath.New("eviction_threshold").AtMapKey("memory"), "100Mi"),
				expectInt(addr, tfjsonpath.New("allocatable").AtMapKey("cpu_millicores"), 1930),
				expectString(addr, tfjsonpath.New("kubelet_args"),
					"--kube-reserved=cpu=70m,memory=574Mi,ephemeral-storage=1Gi --eviction-hard=memory.available<100Mi,nodefs.available<10% --max-pods=29"),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("formula_source"), knownvalue.StringRegexp(regexp.MustCompile(`memory\.eks-per-pod.*amazon-eks-ami`))),
			},
		}},
	})
}

func TestAccNodeOverhead_aksMeasured(t *testing.T) {
	const addr = "data.kubefit_node_overhead.ds1"
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: `
data "kubefit_node_overhead" "ds1" {
  cloud              = "azure"
  instance_type      = "standard_ds1_v2"
  kubernetes_version = "1.28"
  measured_capacity  = { memory = "3500452Ki" }
}
data "kubefit_node_overhead" "ds2" {
  cloud              = "azure"
  instance_type      = "Standard_DS2_v2"
  kubernetes_version = "1.28"
  measured_capacity  = { memory = "7113160Ki" }
  kube_reserved      = { cpu = "69m" }
}
data "kubefit_node_overhead" "aks130" {
  cloud         = "azure"
  instance_type = "Standard_D2s_v5"
  max_pods      = 30
  daemonsets    = [{ name = "calico-node", requests = { cpu = "250m", memory = "64Mi" } }]
}`,
			ConfigPlanChecks: emptyPlanAfterApply,
			ConfigStateChecks: []statecheck.StateCheck{
				expectString(addr, tfjsonpath.New("profile"), "aks-linux"),
				expectString(addr, tfjsonpath.New("allocatable").AtMapKey("cpu"), "940m"),
				expectString(addr, tfjsonpath.New("allocatable").AtMapKey("memory"), "1814948Ki"),
				expectString(addr, tfjsonpath.New("rules"), "aks < 1.29"),
				expectString("data.kubefit_node_overhead.ds2", tfjsonpath.New("allocatable").AtMapKey("memory"), "4667848Ki"),
				expectString("data.kubefit_node_overhead.ds2", tfjsonpath.New("allocatable").AtMapKey("cpu"), "1931m"),
				expectString("data.kubefit_node_overhead.aks130", tfjsonpath.New("kube_reserved_resources").AtMapKey("memory"), "650Mi"),
				expectString("data.kubefit_node_overhead.aks130", tfjsonpath.New("eviction_threshold").AtMapKey("memory"), "100Mi"),
				// calico-node and the platform's six system DaemonSets (Azure CNI overlay: kube-proxy 100m,
				// azure-ip-masq-agent 100m, cloud-node-manager 50m, csi-azuredisk-node and csi-azurefile-node 30m,
				// azure-cns 40m) each take a slot of the 30 and their CPU from 2,000m less 100m kube-reserved.
				expectInt("data.kubefit_node_overhead.aks130", tfjsonpath.New("available").AtMapKey("pods"), 30-1-6),
				expectInt("data.kubefit_node_overhead.aks130", tfjsonpath.New("available").AtMapKey("cpu_millicores"), 2000-100-250-(100+100+50+30+30+40)),
			},
		}},
	})
}

func TestAccNodeOverhead_custom(t *testing.T) {
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: `
data "kubefit_node_overhead" "test" {
  profile                    = "custom"
  vcpu                       = 4
  memory                     = "16Gi"
  vm_memory_overhead_percent = 0
  kube_reserved              = { cpu = "100m", memory = "1Gi" }
  eviction_hard              = { "memory.available" = "5%" }
}`,
			ConfigPlanChecks: emptyPlanAfterApply,
			ConfigStateChecks: []statecheck.StateCheck{
				expectInt("data.kubefit_node_overhead.test", tfjsonpath.New("allocatable").AtMapKey("cpu_millicores"), 3900),
				// 16Gi − 1Gi − 5 % of 16Gi as the kubelet takes it: 17,179,869,184 × float32(0.05) = 858,993,472 bytes
				// (float32(0.05) is 0.05000000074505806; the decimal 5 % would be 858,993,459.2).
				expectInt("data.kubefit_node_overhead.test", tfjsonpath.New("allocatable").AtMapKey("memory_bytes"), 16<<30-1<<30-858993472),
				expectInt("data.kubefit_node_overhead.test", tfjsonpath.New("max_pods"), 110),
			},
		}},
	})
}

func TestAccNodeOverhead_badInput(t *testing.T) {
	cases := []badInput{
		{`cloud = "aws"
  instance_type = "m5.larg"`, `(?s)instance_type.*did\s+you\s+mean\s+"m5\.large"`},
		{`cloud = "aws"
  instance_type = "m5.large"
  kube_reserved = { memory = "12Zi" }`, `(?s)kube_reserved = \{ memory = "12Zi" \}.*"12Zi"\s+is\s+not\s+a\s+Kubernetes\s+quantity`},
		{`cloud = "aws"
  instance_type = "m5.large"
  max_pods = -3`, `(?s)max_pods.*at\s+least\s+1`},
		{`cloud = "aws"
  instance_type = "m5.large"
  max_pods = 0`, `(?s)max_pods.*at\s+least\s+1`},
		{`cloud = "aws"
  instance_type = "m5.large"
  kube_reserved = { gpu = "1" }`, `(?s)kube_reserved = \{ gpu = "1" \}.*"gpu"\s+is\s+not\s+supported`},
		{`cloud = "aws"
  instance_type = "m5.large"
  profile = "aks-linux"`, `(?s)profile.*eks-al2023`},
		{`cloud = "aws"
  instance_type = "m5.large"
  system_reserved = { memory = "8Gi" }`, `(?s)system_reserved = \{ memory = "8Gi" \}.*could\s+run\s+nothing`},
		{`profile = "custom"
  vcpu = 2`, `(?s)Missing\s+Memory.*Profile\s+"custom"\s+needs\s+memory`},
		{`cloud = "azure"
  instance_type = "Standard_DS1_v2"
  kubernetes_version = "latest"`, `(?s)kubernetes_version.*"latest"`},
		{`cloud = "azure"
  instance_type = "Standard_DS2_v2"
  kubernetes_version = "1.14"`, `(?s)kubernetes_version.*September\s+2019.*--kube-reserved`},
	}
	for i := range cases {
		cases[i].config = "data \"kubefit_node_overhead\" \"bad\" {\n  " + cases[i].config + "\n}"
	}
	testBadInputs(t, "data \"kubefit_node_overhead\" \"ok\" {\n  cloud = \"aws\"\n  instance_type = \"m5.large\"\n}", cases)
}

// TestAccNodeOverhead_unknownInputs: an input known only after apply defers the read without false errors.
func TestAccNodeOverhead_unknownInputs(t *testing.T) {
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: `
resource "terraform_data" "later" {
  input = "m5.xlarge"
}
data "kubefit_node_overhead" "test" {
  cloud         = "aws"
  instance_type = terraform_data.later.output
  max_pods      = length(terraform_data.later.id) > 0 ? 58 : 1
  kube_reserved = { memory = terraform_data.later.id == "" ? "1Gi" : "893Mi" }
  eks           = { node_group_kind = terraform_data.later.id == "" ? "karpenter" : "managed" }
}`,
			ConfigPlanChecks: emptyPlanAfterApply,
			ConfigStateChecks: []statecheck.StateCheck{
				expectInt("data.kubefit_node_overhead.test", tfjsonpath.New("max_pods"), 58),
				expectString("data.kubefit_node_overhead.test", tfjsonpath.New("kube_reserved_resources").AtMapKey("cpu"), "80m"),
				expectString("data.kubefit_node_overhead.test", tfjsonpath.New("kube_reserved_resources").AtMapKey("memory"), "893Mi"),
			},
		}},
	})
}

// TestAccNodeOverhead_measuredAllocatable: a measured allocatable wins over every model, with max pods from its
// pods, on any profile; GKE's memory tiers and EKS Auto Mode follow the measured nodes.
func TestAccNodeOverhead_measuredAllocatable(t *testing.T) {
	const addr = "data.kubefit_node_overhead.measured"
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: `
data "kubefit_node_overhead" "measured" {
  cloud                = "aws"
  instance_type        = "m5.large"
  kube_reserved        = { memory = "2Gi" }
  measured_allocatable = { cpu = "1930m", memory = "7134152Ki", pods = 20 }
}
data "kubefit_node_overhead" "gke" {
  cloud         = "gcp"
  instance_type = "n2-standard-16"
}
data "kubefit_node_overhead" "auto" {
  cloud         = "aws"
  instance_type = "m5.2xlarge"
  eks           = { node_group_kind = "auto_mode" }
}
data "kubefit_node_overhead" "aks_windows" {
  cloud              = "azure"
  instance_type      = "Standard_DS2_v2"
  profile            = "aks-windows"
  kubernetes_version = "1.28"
  measured_capacity  = { memory = "7113160Ki" }
}`,
			ConfigPlanChecks: emptyPlanAfterApply,
			ConfigStateChecks: []statecheck.StateCheck{
				expectString(addr, tfjsonpath.New("allocatable").AtMapKey("cpu"), "1930m"),
				expectString(addr, tfjsonpath.New("allocatable").AtMapKey("memory"), "7134152Ki"),
				expectInt(addr, tfjsonpath.New("allocatable").AtMapKey("pods"), 20),
				expectInt(addr, tfjsonpath.New("max_pods"), 20),
				expectInt(addr, tfjsonpath.New("available").AtMapKey("pods"), 18),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("formula_source"), knownvalue.StringRegexp(regexp.MustCompile(`allocatable\.memory = 7134152Ki by allocatable\.measured`))),
				// GKE n2-standard-16: 5,572 MiB kube-reserved, as a measured node reports.
				expectString("data.kubefit_node_overhead.gke", tfjsonpath.New("kube_reserved_resources").AtMapKey("memory"), "5572Mi"),
				// EKS Auto Mode m5.2xlarge: 56 pods, 240m CPU reserved in total, as a measured node reports.
				expectInt("data.kubefit_node_overhead.auto", tfjsonpath.New("max_pods"), 56),
				expectInt("data.kubefit_node_overhead.auto", tfjsonpath.New("allocatable").AtMapKey("cpu_millicores"), 8000-240),
				statecheck.ExpectKnownValue("data.kubefit_node_overhead.auto", tfjsonpath.New("warnings"),
					knownvalue.ListPartial(map[int]knownvalue.Check{0: knownvalue.StringRegexp(regexp.MustCompile(`upper bound`))})),
				// AKS Windows before 1.29: no memory eviction threshold; 7113160Ki − 1638Mi − 2048Mi.
				expectString("data.kubefit_node_overhead.aks_windows", tfjsonpath.New("eviction_threshold").AtMapKey("memory"), "0"),
				expectString("data.kubefit_node_overhead.aks_windows", tfjsonpath.New("allocatable").AtMapKey("memory"), "3338696Ki"),
			},
		}},
	})
}

func TestAccNodeOverhead_measuredAllocatableBadInput(t *testing.T) {
	cases := []badInput{
		{`cloud = "aws"
  instance_type = "m5.large"
  measured_capacity = { memory = "7000Mi" }
  measured_allocatable = { memory = "8000Mi" }`, `(?s)Invalid\s+Node\s+Configuration.*measured\s+allocatable\s+memory\s+8000Mi\s+is\s+more\s+than\s+the\s+measured\s+capacity`},
		{`cloud = "aws"
  instance_type = "m5.large"
  measured_allocatable = { memory = "0" }`, `(?s)Invalid\s+Node\s+Configuration.*measured\s+allocatable\s+memory\s+must\s+be\s+more\s+than\s+0`},
		// EKS Auto Mode's NodeClass has no kubelet settings: a max pods or reservation asked for never reaches the nodes.
		{`cloud = "aws"
  instance_type = "m5.2xlarge"
  eks = { node_group_kind = "auto_mode" }
  max_pods = 200`, `(?is)max_pods\s+=\s+200.*max\s+pods\s+200\s+cannot\s+be\s+set\s+on\s+EKS\s+Auto\s+Mode\s+nodes.*node\s+group\s+kind\s+"karpenter"`},
		{`cloud = "aws"
  instance_type = "m5.2xlarge"
  eks = { node_group_kind = "auto_mode" }
  kube_reserved = { memory = "300Mi" }`, `(?is)kube_reserved\s+=.*kube-reserved\s+memory\s+300Mi\s+cannot\s+be\s+set\s+on\s+EKS\s+Auto\s+Mode`},
	}
	for i := range cases {
		cases[i].config = "data \"kubefit_node_overhead\" \"bad\" {\n  " + cases[i].config + "\n}"
	}
	testBadInputs(t, "data \"kubefit_node_overhead\" \"ok\" {\n  cloud = \"aws\"\n  instance_type = \"m5.large\"\n}", cases)
}

// TestAccNodeOverhead_evidence: f1-micro plans without overrides, exactly as the measured nodes report (940m);
// evidence names the scope and its measured nodes, and a scope no measured node backs (EKS Windows) says what
// backs it and warns.
func TestAccNodeOverhead_evidence(t *testing.T) {
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: `
data "kubefit_node_overhead" "f1" {
  cloud         = "gcp"
  instance_type = "f1-micro"
}
data "kubefit_node_overhead" "aks" {
  cloud              = "azure"
  instance_type      = "Standard_D4s_v5"
  kubernetes_version = "1.31"
}
data "kubefit_node_overhead" "win" {
  cloud         = "aws"
  instance_type = "m5.large"
  profile       = "eks-windows"
}
data "kubefit_node_overhead" "old" {
  cloud              = "azure"
  instance_type      = "Standard_DS2_v2"
  kubernetes_version = "1.13"
  kube_reserved      = { cpu = "69m" }
}`,
			ConfigPlanChecks: emptyPlanAfterApply,
			ConfigStateChecks: []statecheck.StateCheck{
				expectInt("data.kubefit_node_overhead.f1", tfjsonpath.New("allocatable").AtMapKey("cpu_millicores"), 940),
				expectString("data.kubefit_node_overhead.f1", tfjsonpath.New("kube_reserved_resources").AtMapKey("memory"), "255Mi"),
				expectString("data.kubefit_node_overhead.f1", tfjsonpath.New("evidence").AtMapKey("status"), "measured"),
				expectInt("data.kubefit_node_overhead.f1", tfjsonpath.New("evidence").AtMapKey("exact_nodes"), 2),
				statecheck.ExpectKnownValue("data.kubefit_node_overhead.f1", tfjsonpath.New("evidence").AtMapKey("sources").AtSliceIndex(0),
					knownvalue.StringRegexp(regexp.MustCompile(`^https://github\.com/`))),
				expectString("data.kubefit_node_overhead.aks", tfjsonpath.New("evidence").AtMapKey("scope"), "aks-linux, Kubernetes 1.30 and later"),
				expectString("data.kubefit_node_overhead.aks", tfjsonpath.New("evidence").AtMapKey("status"), "measured"),
				expectString("data.kubefit_node_overhead.win", tfjsonpath.New("evidence").AtMapKey("status"), "documented formula, not yet measured"),
				expectInt("data.kubefit_node_overhead.win", tfjsonpath.New("evidence").AtMapKey("exact_nodes"), 0),
				statecheck.ExpectKnownValue("data.kubefit_node_overhead.win", tfjsonpath.New("warnings"), knownvalue.ListPartial(map[int]knownvalue.Check{
					// First the Windows node's pod IPs (9 on an m5.large, below max pods 110), then the missing measurement.
					0: knownvalue.StringRegexp(regexp.MustCompile(`(?i)max pods 110 exceeds the 9 pod IPs of a Windows node`)),
					1: knownvalue.StringRegexp(regexp.MustCompile(`(?i)no public measured node backs the model for eks-windows.*measured allocatable`))})),
				expectInt("data.kubefit_node_overhead.old", tfjsonpath.New("allocatable").AtMapKey("cpu_millicores"), 1931),
			},
		}},
	})
}
