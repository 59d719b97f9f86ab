package provider

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
)

// sizingWith is a kubefit_node_pool_sizing configuration with one aws pool "p" (m5.large, up to 3 nodes)
// plus poolExtra, the given workload and DaemonSets.
func sizingWith(poolExtra, workload, daemonsets string) string {
	return fmt.Sprintf(`
data "kubefit_node_pool_sizing" "t" {
  pools = {
    p = {
      cloud         = "aws"
      instance_type = "m5.large"
      max_nodes     = 3
      %s
    }
  }
  daemonsets = [%s]
  workloads  = [%s]
}`, poolExtra, daemonsets, workload)
}

const okWorkload = `{ name = "w", replicas = 2, requests = { cpu = "100m" } }`

// TestAccBadInput_oneErrorOnItsAttribute is the adversarial battery of issue 9 (classes 4 and 5): each
// bad value gives an error during plan whose text names the attribute (Terraform shows only the
// enclosing block's line for a nested attribute) and the value, in plain words, with no framework
// "Value Conversion Error". Inputs one object accepts are not rejected by another, and the reverse.
func TestAccBadInput_oneErrorOnItsAttribute(t *testing.T) {
	cases := []struct{ name, config, want string }{
		// Fractional and huge numbers, in every object, before the framework reads them.
		{"fractional replicas", sizingWith("", `{ name = "w", replicas = 1.5, requests = { cpu = "100m" } }`, ""),
			`workloads[0].replicas = 1.5 must be a whole number.`},
		{"huge max_nodes in a pool", strings.Replace(sizingWith("", okWorkload, ""), `max_nodes     = 3`, `max_nodes     = 1e400`, 1),
			`pools["p"].max_nodes = 1e+400 is out of range for a whole number.`},
		{"fractional node group size", `
resource "kubefit_node_group" "t" {
  name          = "g"
  cloud         = "aws"
  instance_type = "c5.xlarge"
  max_size      = 2.5
  workloads     = [` + okWorkload + `]
}`, `max_size = 2.5 must be a whole number.`},
		{"huge disk latency", `
data "kubefit_disk_tier" "t" {
  cloud    = "azure"
  type     = "Premium_LRS"
  size_gib = 512
  io       = { latency_ms = 1e400 }
}`, `io.latency_ms = 1e+400 is out of range for a number.`},

		// Quantities inside nested objects: the path and the value in the text.
		{"empty DaemonSet memory", sizingWith("", okWorkload, `{ name = "d", requests = { memory = "" } }`),
			`daemonsets[0].requests.memory: "" is not a Kubernetes quantity`},
		{"word as a quantity", sizingWith("", okWorkload, `{ name = "d", requests = { memory = "abc" } }`),
			`daemonsets[0].requests.memory: "abc" is not a Kubernetes quantity`},
		{"huge quantity", sizingWith("", okWorkload, `{ name = "d", requests = { memory = "1e400" } }`),
			`daemonsets[0].requests.memory: "1e400" is too large to be a node resource.`},
		{"quantity with a space", sizingWith("", `{ name = "w", replicas = 2, requests = { cpu = " 100m" } }`, ""),
			`workloads[0].requests.cpu: " 100m" has spaces around it, which Kubernetes rejects: write "100m".`},
		{"surge with a space", sizingWith("", `{ name = "w", replicas = 2, max_surge = "25% ", requests = { cpu = "100m" } }`, ""),
			`workloads[0].max_surge: "25% " is neither a count nor a percentage`},

		// One rule for every object that takes pool options.
		{"custom profile on a pool", sizingWith(`profile = "custom"`, okWorkload, ""),
			`pools["p"].profile value must be one of`},
		{"custom profile on a node group", `
resource "kubefit_node_group" "t" {
  name          = "g"
  cloud         = "aws"
  instance_type = "c5.xlarge"
  profile       = "custom"
  workloads     = [` + okWorkload + `]
}`, `Attribute profile value must be one of`},
		{"eks block on a GCP pool", strings.Replace(strings.Replace(sizingWith(`eks = { node_group_kind = "managed" }`, okWorkload, ""),
			`"aws"`, `"gcp"`, 1), `"m5.large"`, `"e2-standard-4"`, 1),
			`pools["p"].eks: EKS settings apply only to AWS nodes, not to "e2-standard-4" from the gcp catalog; remove them.`},
		{"eks block on an Azure node", `
data "kubefit_node_overhead" "t" {
  cloud         = "azure"
  instance_type = "Standard_D4s_v5"
  eks           = { prefix_delegation = true }
}`, `EKS settings apply only to AWS nodes, not to "Standard_D4s_v5" from the azure catalog`},
		{"aks block on an AWS node", `
data "kubefit_node_overhead" "t" {
  cloud         = "aws"
  instance_type = "m5.large"
  aks           = { network_plugin = "kubenet" }
}`, `AKS settings apply only to Azure nodes, not to "m5.large" from the aws catalog`},
		{"reserved ENIs beyond the instance's", sizingWith(`eks = { reserved_enis = 1e18 }`, okWorkload, ""),
			`pools["p"].eks.reserved_enis: 1000000000000000000 reserved network interfaces are more than the 3 that "m5.large" has.`},
		{"duplicate DaemonSets on one node", `
data "kubefit_node_overhead" "t" {
  cloud         = "aws"
  instance_type = "m5.large"
  daemonsets    = [{ name = "a", requests = { cpu = "10m" } }, { name = "a", requests = { cpu = "10m" } }]
}`, `daemonsets[1].name "a" is also the name of daemonsets[0]`},

		{"unnamed DaemonSet on one node, as on a pool", `
data "kubefit_node_overhead" "t" {
  cloud         = "aws"
  instance_type = "m5.large"
  daemonsets    = [{ name = "" }]
}`, `daemonsets[0].name = "": DaemonSet 1 has an empty name; give every DaemonSet a name.`},

		// Errors on the attribute at fault, not on the instance type.
		{"measured capacity of zero", sizingWith(`measured_capacity = { cpu = "0" }`, okWorkload, ""),
			`pools["p"].measured_capacity.cpu = "0": a measured CPU capacity of 0 is not a real node's`},
		{"measured capacity too small", sizingWith(`measured_capacity = { cpu = "10m" }`, okWorkload, ""),
			`pools["p"].measured_capacity.cpu = "10m": the reservations (kube-reserved 70m, system-reserved 0 CPU) leave -60m CPU allocatable`},
		{"VM overhead eating the memory", sizingWith(`vm_memory_overhead_percent = 99.99`, okWorkload, ""),
			`pools["p"].vm_memory_overhead_percent = 99.99: the reservations`},
		{"undefined pool names the workload", sizingWith("", `{ name = "w", replicas = 2, pools = ["nope"], requests = { cpu = "100m" } }`, ""),
			`workloads[0].pools[0]: workload "w" may use pool "nope", which is not defined; defined pools: "p".`},
		{"huge fixed replica count", sizingWith("", `{ name = "w", replicas = 1e9, requests = { cpu = "100m" } }`, ""),
			`workloads[0].replicas: the replica count 1000000000 of workload "w" is above the planner limit of 1000000 pods.`},
		{"huge minimum names min_replicas", sizingWith("", `{ name = "w", min_replicas = 1e9, requests = { cpu = "100m" } }`, ""),
			`workloads[0].min_replicas: the replica count 1000000000`},
		{"empty instance type name", `
data "kubefit_instance_type" "t" {
  cloud = "aws"
  name  = ""
}`, `The instance type name is empty; give an instance type name of the aws catalog.`},

		// Known values are checked while others wait for apply.
		{"ScaledObject counts while its name is unknown", `
resource "terraform_data" "name" { input = "api" }
resource "kubefit_keda_scaled_object" "t" {
  name              = terraform_data.name.output
  namespace         = "shop"
  scale_target_ref  = { name = "api" }
  min_replica_count = 20
  max_replica_count = 10
  triggers          = [{ type = "cpu", metric_type = "Utilization", metadata = { value = "50" } }]
}`, `KSO-E5: minReplicaCount 20 must be less than or equal to maxReplicaCount 10.`},
		{"StorageClass disk while its name is unknown", `
resource "terraform_data" "name" { input = "fast" }
resource "kubefit_storage_class" "t" {
  name   = terraform_data.name.output
  driver = "ebs.csi.aws.com"
  ebs    = { type = "gp3", iops = 100000 }
}`, `ebs.iops = 100000: EBS-V4: gp3 iops must be 3,000 to 80,000`},
		{"disk size while the instance type is unknown", `
resource "terraform_data" "type" { input = "Standard_D4s_v5" }
data "kubefit_disk_tier" "t" {
  cloud         = "azure"
  type          = "Premium_LRS"
  size_gib      = 100000
  instance_type = terraform_data.type.output
}`, `AZD-V7: Premium_LRS volumes must be 1 to 32,767 GiB, got 100,000 GiB.`},
		{"duplicate DaemonSets while the instance type is unknown", `
resource "terraform_data" "type" { input = "m5.large" }
data "kubefit_node_pool_sizing" "t" {
  pools      = { p = { cloud = "aws", instance_type = terraform_data.type.output, max_nodes = 3 } }
  daemonsets = [{ name = "a" }, { name = "a" }]
  workloads  = [` + okWorkload + `]
}`, `daemonsets[1].name "a" is also the name of daemonsets[0].name; DaemonSet names must be unique`},
		{"duplicate workloads in a node group", `
resource "kubefit_node_group" "t" {
  name          = "g"
  cloud         = "aws"
  instance_type = "c5.xlarge"
  workloads     = [` + okWorkload + `, ` + okWorkload + `]
}`, `workloads[1].name "w" is also the name of workloads[0].name; workload names within a namespace must be unique`},
	}
	steps := make([]resource.TestStep, 0, len(cases)+1)
	for _, c := range cases {
		// PlanOnly: the error must come from terraform plan, not from an apply that would run otherwise.
		steps = append(steps, resource.TestStep{Config: c.config, PlanOnly: true, ExpectError: errRe(strings.Fields(c.want)...)})
	}
	steps = append(steps, resource.TestStep{Config: sizingWith("", okWorkload, "")})
	resource.UnitTest(t, resource.TestCase{ProtoV6ProviderFactories: testAccProtoV6ProviderFactories, Steps: steps})
}
