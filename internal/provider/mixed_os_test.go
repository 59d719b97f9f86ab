package provider

import (
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// TestAccNodePoolSizing_mixedOS: the explorer's mixed-OS cases through the CLI. A Linux workload beside an
// untainted AKS Windows pool is kept off it (reason operating-system; it was planned 9 of 12 there and "fit");
// a workload with spec.os.name windows read from manifests is planned on the Windows pool only; a DaemonSet
// selecting the kubelet's beta.kubernetes.io/os lands (it was counted nowhere); a pool label contradicting the
// derived kubernetes.io/os is refused on that label.
func TestAccNodePoolSizing_mixedOS(t *testing.T) {
	const addr = "data.kubefit_node_pool_sizing.c"
	pools := `
  pools = {
    linux = { cloud = "azure", instance_type = "Standard_D4s_v5", max_nodes = 2, min_nodes = 1 }
    win   = { cloud = "azure", instance_type = "Standard_D4s_v5", profile = "aks-windows", max_nodes = 3, min_nodes = 1 }
  }`
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: `data "kubefit_node_pool_sizing" "c" {` + pools + `
  workloads = [{ name = "web", replicas = 12, requests = { cpu = "1", memory = "1Gi" } }]
  fail_on_misfit = false
}`,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("fits"), knownvalue.Bool(false)),
					// Only the Linux pool holds pods (a pool holding none is left out of the map).
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("workload_results").AtMapKey("web").AtMapKey("steady"), knownvalue.MapSizeExact(1)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("workload_results").AtMapKey("web").AtMapKey("steady").AtMapKey("linux"), knownvalue.NotNull()),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("failures").AtSliceIndex(1).AtMapKey("reason"), knownvalue.StringExact("operating-system")),
				},
			},
			{
				Config: `data "kubefit_node_pool_sizing" "c" {
  pools = { win = { cloud = "gcp", instance_type = "e2-standard-4", max_nodes = 3, labels = { "kubernetes.io/os" = "windows" } } }
  workloads = [{ name = "web", replicas = 1, requests = { cpu = "100m" } }]
}`,
				ExpectError: regexp.MustCompile(`(?s)pools\["win"\].labels\["kubernetes.io/os"\].*label\s+kubernetes.io/os=windows\s+contradicts\s+the\s+kubernetes.io/os=linux\s+its\s+nodes\s+carry`),
			},
			{
				Config: `
data "kubefit_workloads" "app" {
  manifests = <<-EOT
    apiVersion: apps/v1
    kind: Deployment
    metadata: {name: iis}
    spec:
      replicas: 2
      selector: {matchLabels: {app: iis}}
      template:
        metadata: {labels: {app: iis}}
        spec:
          os: {name: windows}
          containers: [{name: iis, image: iis, resources: {requests: {cpu: 500m, memory: 1Gi}}}]
    ---
    apiVersion: apps/v1
    kind: DaemonSet
    metadata: {name: agent}
    spec:
      selector: {matchLabels: {app: agent}}
      template:
        metadata: {labels: {app: agent}}
        spec:
          nodeSelector: {beta.kubernetes.io/os: linux}
          containers: [{name: a, image: a, resources: {requests: {cpu: 100m}}}]
  EOT
}
data "kubefit_node_pool_sizing" "c" {` + pools + `
  workloads  = data.kubefit_workloads.app.workloads
  daemonsets = data.kubefit_workloads.app.daemonsets
}`,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("data.kubefit_workloads.app", tfjsonpath.New("workloads").AtSliceIndex(0).AtMapKey("os"), knownvalue.StringExact("windows")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("fits"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("workload_results").AtMapKey("iis").AtMapKey("steady").AtMapKey("win"), knownvalue.Int64Exact(2)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("pool_results").AtMapKey("linux").AtMapKey("daemonsets").AtSliceIndex(0), knownvalue.StringExact("agent")),
				},
			},
		},
	})
}
