package provider

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// extendedSizing is a sizing of one pool (pool attributes poolExtra) and pods requesting `request` of an extended
// resource, read from a manifest by kubefit_workloads so the request travels through its output.
func extendedSizing(instance, poolExtra, request string, failOnMisfit bool) string {
	return fmt.Sprintf(`
data "kubefit_workloads" "w" {
  manifests = <<-EOT
    apiVersion: apps/v1
    kind: Deployment
    metadata: {name: infer}
    spec:
      replicas: 2
      selector: {matchLabels: {app: infer}}
      template:
        metadata: {labels: {app: infer}}
        spec:
          containers:
          - name: c
            image: x
            resources:
              requests: {cpu: 500m, memory: 1Gi}
              limits: {%[3]s}
  EOT
}

data "kubefit_node_pool_sizing" "x" {
  fail_on_misfit = %[4]v
  pools = {
    pool = { cloud = "aws", instance_type = %[1]q, max_nodes = 3%[2]s }
  }
  workloads = data.kubefit_workloads.w.workloads
}
`, instance, poolExtra, request, failOnMisfit)
}

// TestAccNodePoolSizing_extendedResources: a MIG or Neuron pod on a plain pool does not fit (before: placed on any
// node, fits = true), and fits once the pool declares what its nodes offer; a Neuron pod fits inf2 by the devices
// kubefit derives; an amd.com/gpu pod does not fit NVIDIA nodes (before: counted as nvidia.com/gpu).
func TestAccNodePoolSizing_extendedResources(t *testing.T) {
	const addr = "data.kubefit_node_pool_sizing.x"
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: extendedSizing("m6i.large", "", `nvidia.com/mig-1g.10gb: 1`, false),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("fits"), knownvalue.Bool(false)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("failures").AtSliceIndex(0).AtMapKey("reason"), knownvalue.StringExact("extended-resource")),
					statecheck.ExpectKnownValue("data.kubefit_workloads.w", tfjsonpath.New("workloads").AtSliceIndex(0).AtMapKey("requests").AtMapKey("extended"),
						knownvalue.MapExact(map[string]knownvalue.Check{"nvidia.com/mig-1g.10gb": knownvalue.StringExact("1")})),
				},
			},
			{
				Config:      extendedSizing("m6i.large", "", `aws.amazon.com/neuron: 1`, true),
				ExpectError: regexp.MustCompile(`(?s)requests\s+1\s+aws.amazon.com/neuron,\s+which\s+a\s+node\s+of\s+pool\s+"pool"\s+\(m6i.large\)\s+does\s+not\s+offer.*declare\s+on\s+the\s+pool`),
			},
			{
				Config:      extendedSizing("p4d.24xlarge", "", `amd.com/gpu: 1`, true),
				ExpectError: regexp.MustCompile(`(?s)requests\s+1\s+amd.com/gpu,\s+which\s+a\s+node\s+of\s+pool\s+"pool"\s+\(p4d.24xlarge\)\s+does\s+not\s+offer`),
			},
			{
				Config: extendedSizing("inf2.xlarge", "", `aws.amazon.com/neuron: 1`, true),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("fits"), knownvalue.Bool(true)),
					expectInt(addr, tfjsonpath.New("pool_results").AtMapKey("pool").AtMapKey("steady").AtMapKey("nodes_required"), 2),
				},
			},
			{
				Config:      extendedSizing("m6i.large", `, extended_resources = { "nvidia.com/mig-1g.10gb" = "1.5" }`, `nvidia.com/mig-1g.10gb: 1`, true),
				ExpectError: regexp.MustCompile(`(?s)Invalid\s+Extended\s+Resource.*not\s+a\s+whole\s+number`),
			},
			{
				Config: extendedSizing("m6i.large", `, extended_resources = { "nvidia.com/mig-1g.10gb" = "2" }`, `nvidia.com/mig-1g.10gb: 1`, true),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("fits"), knownvalue.Bool(true)),
					expectInt(addr, tfjsonpath.New("pool_results").AtMapKey("pool").AtMapKey("steady").AtMapKey("nodes_required"), 1),
				},
			},
		},
	})
}

// TestAccNodePoolSizing_gpuTaintToleration: a GPU pod without a written toleration binds on an EKS or AKS pool
// tainted nvidia.com/gpu:NoSchedule, as both run the ExtendedResourceToleration admission plugin (before: refused
// with "does not tolerate"), and a pod requesting no GPU stays off.
func TestAccNodePoolSizing_gpuTaintToleration(t *testing.T) {
	const addr = "data.kubefit_node_pool_sizing.x"
	config := func(cloud, instance string, gpu int) string {
		return fmt.Sprintf(`
data "kubefit_node_pool_sizing" "x" {
  fail_on_misfit = true
  pools = {
    gpu = { cloud = %q, instance_type = %q, max_nodes = 1, taints = [{ key = "nvidia.com/gpu", value = "true", effect = "NoSchedule" }] }
  }
  workloads = [{ name = "train", replicas = 1, requests = { cpu = "1", memory = "2Gi", gpu = %d } }]
}
`, cloud, instance, gpu)
	}
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config:            config("aws", "g5.xlarge", 1),
				ConfigStateChecks: []statecheck.StateCheck{statecheck.ExpectKnownValue(addr, tfjsonpath.New("fits"), knownvalue.Bool(true))},
			},
			{
				Config:      config("aws", "g5.xlarge", 0),
				ExpectError: regexp.MustCompile(`(?s)pool\s+"gpu"\s+has\s+taint\s+"nvidia.com/gpu=true:NoSchedule"\s+that\s+workload\s+"train"\s+does\s+not\s+tolerate`),
			},
			{
				Config:            config("azure", "Standard_NC4as_T4_v3", 1),
				ConfigStateChecks: []statecheck.StateCheck{statecheck.ExpectKnownValue(addr, tfjsonpath.New("fits"), knownvalue.Bool(true))},
			},
		},
	})
}
