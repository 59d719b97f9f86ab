package provider

import (
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// TestAccNodeGroup_gkeGPU: through the CLI, a GKE GPU group's gke_node_pool carries guest_accelerator with GKE's
// driver installation (the exploratory case ngrender had none), and gpu_sharing makes one node hold 4 time-shared
// and 7 MIG pods (the exploratory case gkeshare told the user to buy 4 and 7 nodes), in both shapes; GKE's sharing
// labels are not among the pool's labels. A partition size the GPU does not take fails on gpu_sharing; Bottlerocket
// on Inferentia renders BOTTLEROCKET_x86_64 (the exploratory case brneuron was refused).
func TestAccNodeGroup_gkeGPU(t *testing.T) {
	ts := `{ "cloud.google.com/gke-gpu-sharing-strategy" = "time-sharing", "cloud.google.com/gke-max-shared-clients-per-gpu" = "4" }`
	config := `resource "kubefit_node_group" "ts" {
  name          = "ts"
  cloud         = "gcp"
  instance_type = "g2-standard-8"
  zones         = ["us-central1-a"]
  max_size      = 1
  gpu_sharing   = { strategy = "time-sharing", max_shared_clients_per_gpu = 4 }
  workloads     = [{ name = "ts", replicas = 4, requests = { cpu = "500m", memory = "1Gi", gpu = 1 }, node_selector = ` + ts + ` }]
}
resource "kubefit_node_group" "mig" {
  name          = "mig"
  cloud         = "gcp"
  instance_type = "a2-highgpu-1g"
  max_size      = 1
  gpu_sharing   = { partition_size = "1g.5gb" }
  workloads     = [{ name = "mig", replicas = 7, requests = { cpu = "500m", memory = "1Gi", gpu = 1 }, node_selector = { "cloud.google.com/gke-gpu-partition-size" = "1g.5gb" } }]
}
resource "kubefit_node_group" "inf" {
  name          = "inf"
  cloud         = "aws"
  instance_type = "inf2.xlarge"
  profile       = "eks-bottlerocket"
  zones         = ["us-east-1a"]
  max_size      = 2
  workloads     = [{ name = "infer", replicas = 1, requests = { cpu = "1", memory = "4Gi" } }]
}
`
	acc := tfjsonpath.New("gke_node_pool").AtMapKey("node_config").AtMapKey("guest_accelerator").AtSliceIndex(0)
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: `resource "kubefit_node_group" "l4" {
  name          = "l4"
  cloud         = "gcp"
  instance_type = "g2-standard-8"
  gpu_sharing   = { partition_size = "1g.5gb" }
  workloads     = [{ name = "w", replicas = 1, requests = { cpu = "500m", gpu = 1 } }]
}`,
			ExpectError: regexp.MustCompile(`(?s)gpu_sharing\.partition_size.*partition\s+size\s+"1g\.5gb"\s+is\s+not\s+one\s+GKE\s+makes\s+on\s+g2-standard-8`),
		}, {
			Config: config,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("kubefit_node_group.ts", tfjsonpath.New("fits"), knownvalue.Bool(true)),
				statecheck.ExpectKnownValue("kubefit_node_group.ts", tfjsonpath.New("desired_size"), knownvalue.Int64Exact(1)),
				statecheck.ExpectKnownValue("kubefit_node_group.ts", acc, knownvalue.ObjectExact(map[string]knownvalue.Check{
					"type": knownvalue.StringExact("nvidia-l4"), "count": knownvalue.Int64Exact(1), "gpu_partition_size": knownvalue.Null(),
					"gpu_driver_installation_config": knownvalue.ObjectExact(map[string]knownvalue.Check{"gpu_driver_version": knownvalue.StringExact("DEFAULT")}),
					"gpu_sharing_config": knownvalue.ObjectExact(map[string]knownvalue.Check{
						"gpu_sharing_strategy": knownvalue.StringExact("TIME_SHARING"), "max_shared_clients_per_gpu": knownvalue.Int64Exact(4)}),
				})),
				statecheck.ExpectKnownValue("kubefit_node_group.ts", tfjsonpath.New("gke_node_pool").AtMapKey("node_config").AtMapKey("labels"), knownvalue.MapExact(map[string]knownvalue.Check{})),
				statecheck.ExpectKnownValue("kubefit_node_group.ts", tfjsonpath.New("gke_module_node_pool").AtMapKey("node_pool"), knownvalue.MapPartial(map[string]knownvalue.Check{
					"accelerator_type": knownvalue.StringExact("nvidia-l4"), "accelerator_count": knownvalue.StringExact("1"),
					"gpu_driver_version": knownvalue.StringExact("DEFAULT"), "gpu_sharing_strategy": knownvalue.StringExact("TIME_SHARING"),
					"max_shared_clients_per_gpu": knownvalue.StringExact("4"),
				})),
				statecheck.ExpectKnownValue("kubefit_node_group.mig", tfjsonpath.New("fits"), knownvalue.Bool(true)),
				statecheck.ExpectKnownValue("kubefit_node_group.mig", tfjsonpath.New("desired_size"), knownvalue.Int64Exact(1)),
				statecheck.ExpectKnownValue("kubefit_node_group.mig", acc, knownvalue.ObjectPartial(map[string]knownvalue.Check{
					"type": knownvalue.StringExact("nvidia-tesla-a100"), "count": knownvalue.Int64Exact(1),
					"gpu_partition_size": knownvalue.StringExact("1g.5gb"), "gpu_sharing_config": knownvalue.Null(),
				})),
				statecheck.ExpectKnownValue("kubefit_node_group.inf", tfjsonpath.New("eks_node_group").AtMapKey("ami_type"), knownvalue.StringExact("BOTTLEROCKET_x86_64")),
			},
		}},
	})
}
