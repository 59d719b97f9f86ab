package provider

import (
	"fmt"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/kubefit/terraform-provider-kubefit/internal/livecatalog/livefake"
)

// defectCase is one configuration that must fail during plan with an error containing want (words matched
// with any whitespace between them, as Terraform wraps lines).
type defectCase struct{ name, config, want string }

// runDefects plans each case (PlanOnly: the error must come from terraform plan) and ends with a step that
// succeeds.
func runDefects(t *testing.T, cases []defectCase) {
	t.Helper()
	steps := make([]resource.TestStep, 0, len(cases)+1)
	for _, c := range cases {
		steps = append(steps, resource.TestStep{Config: c.config, PlanOnly: true, ExpectError: errRe(strings.Fields(c.want)...)})
	}
	steps = append(steps, resource.TestStep{Config: sizingWith("", okWorkload, "")})
	resource.UnitTest(t, resource.TestCase{ProtoV6ProviderFactories: testAccProtoV6ProviderFactories, Steps: steps})
}

// TestAccDefects_blame is issue 21's class 4 through Terraform: a bad capacity input is refused on its own
// attribute, in the object's words, before any check reads it; a node group without an instance type names
// instance_type.
func TestAccDefects_blame(t *testing.T) {
	runDefects(t, []defectCase{
		{"ScaledObject with a group of no nodes", scaledObject(capacitySO + strings.Replace(capacityGroup(40), "max_nodes = 40", "max_nodes = 0", 1)),
			`Attribute node_group_capacity.max_nodes value must be at least 1, got: 0`},
		{"ScaledObject with negative max_connections", scaledObject(`name = "api"
namespace = "shop"
scale_target_ref = { name = "api" }
max_replica_count = 10
triggers = [{ type = "kafka", metadata = { topic = "orders" } }]
target_workload = { connections_per_pod = 4, rollout = { strategy = "Recreate" } }
database = { name = "orders", max_connections = -5 }
`), `Attribute database.max_connections value must be at least 1, got: -5`},
		{"node group without an instance type", `
resource "kubefit_node_group" "t" {
  name      = "g"
  cloud     = "aws"
  workloads = [` + okWorkload + `]
}`, `Neither instance_type nor instance_types is set; give exactly one of them.`},
	})
}

// TestAccDefects_strings is issue 21's class 6: a node group's name is checked against the rules of the
// consumers that take it, and the live catalog's endpoints are checked in the provider's configuration, on
// their own attribute, whatever the lookups do later.
func TestAccDefects_strings(t *testing.T) {
	group := func(cloud, typ, name string) string {
		return fmt.Sprintf(`
resource "kubefit_node_group" "t" {
  name          = %q
  cloud         = %q
  instance_type = %q
  workloads     = [`+okWorkload+`]
}`, name, cloud, typ)
	}
	withProvider := func(block string) string {
		return "provider \"kubefit\" {\n  catalog_source = \"live\"\n" + block + "\n}\n" + sizingWith("", okWorkload, "")
	}
	runDefects(t, []defectCase{
		{"newline in an AWS group's name", group("aws", "m5.large", "web\nprod"), `group name "web\nprod" is not one EKS takes`},
		{"newline in a GCP group's name", group("gcp", "e2-standard-4", "web\nprod"), `group name "web\nprod" is not one GKE takes`},
		{"upper case in a GCP group's name", group("gcp", "e2-standard-4", "Web"), `a GKE node pool name starts with a lower-case letter`},
		{"newline in an Azure group's name", group("azure", "Standard_D4s_v5", "web\nprod"), `group name "web\nprod" cannot be made an AKS pool name`},
		{"Azure endpoint not a URL", withProvider(`  azure = { location = "eastus", subscription_id = "00000000-0000-0000-0000-000000000001", endpoint = "management.azure.com" }`),
			`endpoint = "management.azure.com" is not an absolute https URL`},
		{"Azure endpoint over http", withProvider(`  azure = { location = "eastus", subscription_id = "00000000-0000-0000-0000-000000000001", endpoint = "http://management.azure.com" }`),
			`endpoint = "http://management.azure.com" is not an absolute https URL`},
		{"AWS endpoint not a URL", withProvider(`  aws = { region = "us-east-1", endpoint = "ec2 endpoint" }`),
			`endpoint = "ec2 endpoint" is not an absolute https or http URL`},
		// Live-lookup settings in a form the cloud never takes are refused on their attribute when the provider is
		// configured, not found later as a lookup error on a data source.
		{"AWS region with spaces", withProvider(`  aws = { region = "us east 1" }`), `must be an AWS region code such as "us-east-1"`},
		{"Azure location display name", withProvider(`  azure = { location = "East US" }`), `not a display name such as "East US"`},
		{"Azure subscription name", withProvider(`  azure = { location = "eastus", subscription_id = "not-a-guid" }`), `must be a subscription ID, a GUID`},
	})
}

// TestAccDefects_credentials is issue 21's class 8 through Terraform: a live lookup without AWS credentials
// says so in one sentence, without the SDK's chain of internal errors.
func TestAccDefects_credentials(t *testing.T) {
	srv := httptest.NewServer(&livefake.EC2{})
	defer srv.Close()
	liveAWSEnv(t, "")
	t.Setenv("AWS_ACCESS_KEY_ID", "")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "")
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: fmt.Sprintf(`provider "kubefit" {
  catalog_source = "live"
  aws = { endpoint = %q }
}
data "kubefit_instance_type" "t" {
  cloud = "aws"
  name  = "m5.large"
}`, srv.URL),
			ExpectError: regexp.MustCompile(`(?s)Live\s+Catalog\s+Lookup\s+Failed.*no\s+AWS\s+credentials\s+found:\s+the\s+AWS\s+SDK's\s+default\s+chain\s+was\s+tried`),
		}},
	})
}

// TestAccDefects_images is issue 21's class 2 through Terraform: Windows nodes on an instance type with no
// Windows image are refused in every object that plans nodes, not planned with another image's figures.
func TestAccDefects_images(t *testing.T) {
	runDefects(t, []defectCase{
		{"EKS Windows node on Arm", `
data "kubefit_node_overhead" "t" {
  cloud         = "aws"
  instance_type = "m6g.large"
  profile       = "eks-windows"
}`, `type "m6g.large" is Arm (arm64), and EKS has no Windows AMI for Arm`},
		{"EKS Windows node with a GPU", `
data "kubefit_node_overhead" "t" {
  cloud         = "aws"
  instance_type = "g4dn.xlarge"
  profile       = "eks-windows"
}`, `type "g4dn.xlarge" has GPUs, and EKS has no Windows AMI type with their drivers`},
		{"AKS Windows pool on Arm", `
data "kubefit_node_pool_sizing" "t" {
  pools     = { win = { cloud = "azure", instance_type = "Standard_D4ps_v5", profile = "aks-windows", max_nodes = 3 } }
  workloads = [` + okWorkload + `]
}`, `type "Standard_D4ps_v5" is Arm (arm64), and AKS Windows node pools do not run Arm64 VM sizes`},
		{"EKS Windows group on Arm", `
resource "kubefit_node_group" "t" {
  name          = "win"
  cloud         = "aws"
  instance_type = "m6g.large"
  profile       = "eks-windows"
  workloads     = [` + okWorkload + `]
}`, `type "m6g.large" is Arm (arm64), and EKS has no Windows AMI for Arm`},
		{"AKS Windows group on kubenet", `
resource "kubefit_node_group" "t" {
  name          = "win"
  cloud         = "azure"
  instance_type = "Standard_D4s_v5"
  profile       = "aks-windows"
  aks           = { network_plugin = "kubenet" }
  workloads     = [` + okWorkload + `]
}`, `AKS runs Windows node pools only with Azure CNI, not kubenet`},
	})
}

// TestAccDefects_misplacedKeys is issue 21's class 7: keys a user is likely to write in the wrong place,
// which Terraform would drop silently from an object, are refused on themselves with where they belong.
func TestAccDefects_misplacedKeys(t *testing.T) {
	runDefects(t, []defectCase{
		{"cpu beside a DaemonSet's requests", sizingWith("", okWorkload, `{ name = "d", cpu = "100m" }`),
			`cpu is not an attribute of a DaemonSet: did you mean requests.cpu?`},
		{"memory beside a workload's requests", sizingWith("", `{ name = "w", replicas = 2, memory = "1Gi" }`, ""),
			`memory is not an attribute of a workload: did you mean requests.memory?`},
		{"cpu beside a DaemonSet on one node", `
data "kubefit_node_overhead" "t" {
  cloud         = "aws"
  instance_type = "m5.large"
  daemonsets    = [{ name = "d", cpu = "100m" }]
}`, `cpu is not an attribute of a DaemonSet: did you mean requests.cpu?`},
		{"cpu beside a node group's workload", `
resource "kubefit_node_group" "t" {
  name          = "g"
  cloud         = "aws"
  instance_type = "m5.large"
  workloads     = [{ name = "w", replicas = 2, cpu = "1" }]
}`, `cpu is not an attribute of a workload: did you mean requests.cpu?`},
		{"instance type in a recommendation's pool", `
data "kubefit_node_pool_recommendation" "t" {
  cloud      = "aws"
  candidates = ["m5.large", "m5.xlarge"]
  pool       = { max_nodes = 5, instance_type = "m5.large" }
  workloads  = [` + okWorkload + `]
}`, `pool.instance_type is not an input of a recommendation, which chooses the instance type among candidates`},
	})
}

// TestAccDefects_documented is issue 21's class 1 through Terraform: constraints the descriptions state are
// enforced (TestSchemaConstraintsHaveValidators checks every schema for them).
func TestAccDefects_documented(t *testing.T) {
	check := func(body string) string { return "resource \"kubefit_capacity_check\" \"t\" {\n" + body + "\n}\n" }
	runDefects(t, []defectCase{
		{"DNS provider with a typo", check(`dns = { provider = "aws-vcp" }`), `Attribute dns.provider value must be one of: ["aws-vpc"], got: "aws-vcp"`},
		{"cache hit ratio above 1", check(`dns = { cache_hit_ratio = 1.5 }`), `Attribute dns.cache_hit_ratio value must be between 0.000000 and 1.000000, got: 1.500000`},
		{"usable fraction above 1", check(`databases = [{ name = "orders", max_connections = 100, usable_fraction = 2, clients = [] }]`),
			`Attribute databases[0].usable_fraction value must be between 0.000000 and 1.000000, got: 2.000000`},
		{"negative other clients", check(`databases = [{ name = "orders", max_connections = 100, other_clients = -1, clients = [] }]`),
			`Attribute databases[0].other_clients value must be at least 0, got: -1`},
		{"a summary without its peak", check(`scaled_objects = [{ namespace = "shop", name = "api", target_name = "api" }]`),
			`scaled_objects[0].peak_replicas is required here`},
		{"a node group capacity without its maximum", check(`node_groups = [{ name = "g", workload_allocatable = { cpu_millicores = 1000, memory_bytes = 1000000000 }, workload_pods = 10 }]`),
			`node_groups[0].max_nodes is required here`},
		{"an unknown rollout mode", check(`concurrent_rollouts = "some"`), `Attribute concurrent_rollouts value must be one of: ["one" "all"], got: "some"`},
		{"cpus in a container's requests", scaledObject(`name = "api"
namespace = "shop"
scale_target_ref = { name = "api" }
max_replica_count = 4
triggers = [{ type = "kafka", metadata = { topic = "orders" } }]
target_workload = { pod_template = { containers = [{ name = "app", requests = { cpus = "2" } }] } }
`), `"cpus" is not a Kubernetes resource name`},
		{"a StorageClass without its driver's block", `
resource "kubefit_storage_class" "t" {
  name   = "fast"
  driver = "ebs.csi.aws.com"
}`, `"ebs.csi.aws.com" needs the ebs block with the disk type`},
		{"a node without an instance type", `
data "kubefit_node_overhead" "t" {
  cloud = "aws"
}`, `instance_type is required with profile unset; give it.`},
	})
}
