package provider

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/overhead"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/sizing"
)

// bareNode is one node of the type under the profile, with only the listed DaemonSets counted: its allocatable,
// and the platform's system set from the overhead package's table.
func bareNode(t *testing.T, cloud catalog.Cloud, name string, profile overhead.Profile) (alloc fit.Resources, set []fit.DaemonSet) {
	t.Helper()
	it, err := sizing.EmbeddedCatalog().InstanceType(context.Background(), cloud, name)
	if err != nil {
		t.Fatal(err)
	}
	in := overhead.Input{Profile: profile, Instance: overhead.InstanceFromCatalog(it), SystemDaemonSets: overhead.SystemDaemonSetsListed}
	r, err := overhead.Compute(in)
	if err != nil {
		t.Fatal(err)
	}
	return r.Allocatable, overhead.PlatformDaemonSets(in)
}

// sumRequests sums the DaemonSets' CPU and memory requests, less those named in skip.
func sumRequests(ds []fit.DaemonSet, skip ...string) (cpu, mem int64) {
	for _, d := range ds {
		if !slices.Contains(skip, d.Name) {
			cpu += d.Requests.CPUMillicores
			mem += d.Requests.MemoryBytes
		}
	}
	return cpu, mem
}

const systemDaemonSetsSizing = `
data "kubefit_node_pool_sizing" "mixed" {
  pools = {
    aks = { cloud = "azure", instance_type = "Standard_D4s_v5", max_nodes = 3 }
    gke = { cloud = "gcp", instance_type = "n2-standard-4", max_nodes = 3 }
    eks = { cloud = "aws", instance_type = "m5.xlarge", max_nodes = 3 }
  }
  daemonsets = [
    { name = "fluent-bit", requests = { cpu = "50m", memory = "64Mi" } },
    { name = "kube-proxy", requests = { cpu = "150m", memory = "32Mi" } },
  ]
  %s
  workloads = [{ name = "api", replicas = 3, requests = { cpu = "250m", memory = "256Mi" } }]
}`

// TestAccNodePoolSizing_systemDaemonSets: by default each pool of a mixed request counts its own platform's
// system DaemonSets beside the listed ones, less the platform's kube-proxy, which the listed kube-proxy replaces;
// "listed" counts the listed two only; an unknown mode is refused, naming it.
func TestAccNodePoolSizing_systemDaemonSets(t *testing.T) {
	const addr = "data.kubefit_node_pool_sizing.mixed"
	pools := []struct {
		key     string
		cloud   catalog.Cloud
		typ     string
		profile overhead.Profile
	}{{"aks", catalog.Azure, "Standard_D4s_v5", overhead.AKSLinux}, {"gke", catalog.GCP, "n2-standard-4", overhead.GKEStandard},
		{"eks", catalog.AWS, "m5.xlarge", overhead.EKSAL2023}}
	own := []fit.DaemonSet{{Name: "fluent-bit", Requests: fit.Resources{CPUMillicores: 50, MemoryBytes: 64 << 20}},
		{Name: "kube-proxy", Requests: fit.Resources{CPUMillicores: 150, MemoryBytes: 32 << 20}}}
	ownCPU, ownMem := sumRequests(own)
	var platform, listed []statecheck.StateCheck
	for _, p := range pools {
		alloc, set := bareNode(t, p.cloud, p.typ, p.profile)
		sysCPU, sysMem := sumRequests(set, "kube-proxy")
		// A fresh path each time: AtMapKey appends to the path it is called on.
		wa := func(key string) tfjsonpath.Path {
			return tfjsonpath.New("pool_results").AtMapKey(p.key).AtMapKey("workload_allocatable").AtMapKey(key)
		}
		platform = append(platform,
			expectInt(addr, wa("cpu_millicores"), alloc.CPUMillicores-ownCPU-sysCPU),
			expectInt(addr, wa("memory_bytes"), alloc.MemoryBytes-ownMem-sysMem))
		listed = append(listed,
			expectInt(addr, wa("cpu_millicores"), alloc.CPUMillicores-ownCPU),
			expectInt(addr, wa("memory_bytes"), alloc.MemoryBytes-ownMem),
			statecheck.ExpectKnownValue(addr, tfjsonpath.New("pool_results").AtMapKey(p.key).AtMapKey("note"), knownvalue.StringExact("")))
		if p.cloud != catalog.AWS { // EKS: the two system pods took their slots before; AKS and GKE: one per DaemonSet
			platform = append(platform, expectInt(addr, wa("pods"), alloc.Pods-int64(len(own)+len(set)-1)))
			listed = append(listed, expectInt(addr, wa("pods"), alloc.Pods-int64(len(own))))
		}
	}
	names := func(key string) tfjsonpath.Path {
		return tfjsonpath.New("pool_results").AtMapKey(key).AtMapKey("daemonsets")
	}
	platform = append(platform,
		statecheck.ExpectKnownValue(addr, names("aks"), knownvalue.SetExact([]knownvalue.Check{
			knownvalue.StringExact("fluent-bit"), knownvalue.StringExact("kube-proxy"), knownvalue.StringExact("azure-ip-masq-agent"),
			knownvalue.StringExact("cloud-node-manager"), knownvalue.StringExact("csi-azuredisk-node"),
			knownvalue.StringExact("csi-azurefile-node"), knownvalue.StringExact("azure-cns")})),
		statecheck.ExpectKnownValue(addr, names("gke"), knownvalue.SetExact([]knownvalue.Check{
			knownvalue.StringExact("fluent-bit"), knownvalue.StringExact("kube-proxy"), knownvalue.StringExact("fluentbit-gke"),
			knownvalue.StringExact("gke-metrics-agent"), knownvalue.StringExact("pdcsi-node")})),
		statecheck.ExpectKnownValue(addr, names("eks"), knownvalue.SetExact([]knownvalue.Check{
			knownvalue.StringExact("fluent-bit"), knownvalue.StringExact("kube-proxy"), knownvalue.StringExact("aws-node")})),
		statecheck.ExpectKnownValue(addr, tfjsonpath.New("pool_results").AtMapKey("gke").AtMapKey("note"),
			knownvalue.StringRegexp(regexp.MustCompile(`system DaemonSets counted \(gke-standard\): fluentbit-gke 105m/230Mi, gke-metrics-agent 21m/145Mi, pdcsi-node 10m/20Mi`))),
		// EKS: no memory requested, so none written (not a bare 0); the listed kube-proxy, which lands on every
		// pool, replaced the platform's.
		statecheck.ExpectKnownValue(addr, tfjsonpath.New("pool_results").AtMapKey("eks").AtMapKey("note"),
			knownvalue.StringExact("the platform's system DaemonSets counted (eks-al2023): aws-node 50m (50m CPU, 1 pod); "+
				"add-ons not counted, list them where they run: ebs-csi-node, eks-pod-identity-agent; replaced by the listed DaemonSets of the same name, which land on this pool: the platform's kube-proxy")),
		statecheck.ExpectKnownValue(addr, tfjsonpath.New("report"), knownvalue.StringRegexp(regexp.MustCompile(`system DaemonSets, by pool[^\n]*\n  aks: [^\n]*azure-cns 40m/250Mi`))))
	listed = append(listed, statecheck.ExpectKnownValue(addr, names("eks"), knownvalue.SetExact([]knownvalue.Check{
		knownvalue.StringExact("fluent-bit"), knownvalue.StringExact("kube-proxy")})))
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: fmt.Sprintf(systemDaemonSetsSizing, ""), ConfigPlanChecks: emptyPlanAfterApply, ConfigStateChecks: platform},
			{Config: fmt.Sprintf(systemDaemonSetsSizing, `system_daemonsets = "all"`),
				ExpectError: regexp.MustCompile(`system_daemonsets[\s\S]*"all"`)},
			{Config: fmt.Sprintf(systemDaemonSetsSizing, `system_daemonsets = "listed"`), ConfigPlanChecks: emptyPlanAfterApply, ConfigStateChecks: listed},
		},
	})
}

// TestAccNodeGroup_systemDaemonSets: a GKE group with no DaemonSets listed offers its workloads the node's
// allocatable less GKE's system set; "listed" gives the whole allocatable back (with the warning that nothing is
// counted); an unknown mode is refused, naming it.
func TestAccNodeGroup_systemDaemonSets(t *testing.T) {
	alloc, set := bareNode(t, catalog.GCP, "n2-standard-4", overhead.GKEStandard)
	sysCPU, sysMem := sumRequests(set)
	group := func(mode string) string {
		return nodeGroup(`name = "web"
cloud = "gcp"
instance_type = "n2-standard-4"
` + mode + `
workloads = [{ name = "web", min_replicas = 2, max_replicas = 6, requests = { cpu = "1", memory = "2Gi" } }]`)
	}
	wa := func(key string) tfjsonpath.Path { return tfjsonpath.New("workload_allocatable").AtMapKey(key) }
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: group(``), ConfigPlanChecks: emptyPlanAfterApply, ConfigStateChecks: []statecheck.StateCheck{
				expectNG(wa("cpu_millicores"), knownvalue.Int64Exact(alloc.CPUMillicores-sysCPU)),
				expectNG(wa("memory_bytes"), knownvalue.Int64Exact(alloc.MemoryBytes-sysMem)),
				expectNG(wa("pods"), knownvalue.Int64Exact(alloc.Pods-int64(len(set)))),
				expectNG(tfjsonpath.New("report"), knownvalue.StringRegexp(regexp.MustCompile(`web: the platform's system DaemonSets counted \(gke-standard\): fluentbit-gke 105m/230Mi, gke-metrics-agent 21m/145Mi, kube-proxy 100m, pdcsi-node 10m/20Mi \(236m CPU, 395Mi memory, 4 pods\); add-ons not counted, list them where they run: gke-metadata-server, netd, node-local-dns`))),
			}},
			{Config: group(`system_daemonsets = "none"`), ExpectError: regexp.MustCompile(`system_daemonsets[\s\S]*"none"`)},
			{Config: group(`system_daemonsets = "listed"`), ConfigPlanChecks: emptyPlanAfterApply, ConfigStateChecks: []statecheck.StateCheck{
				expectNG(wa("cpu_millicores"), knownvalue.Int64Exact(alloc.CPUMillicores)),
				expectNG(wa("memory_bytes"), knownvalue.Int64Exact(alloc.MemoryBytes)),
				expectNG(wa("pods"), knownvalue.Int64Exact(alloc.Pods)),
			}},
		},
	})
}

// TestAccNodeOverhead_systemDaemonSets: kubefit_node_overhead counts the platform's set in daemonset_overhead
// and available, named by the systemDaemonSets terms, and not with "listed".
func TestAccNodeOverhead_systemDaemonSets(t *testing.T) {
	const addr = "data.kubefit_node_overhead.aks"
	alloc, set := bareNode(t, catalog.Azure, "Standard_D4s_v5", overhead.AKSLinux)
	sysCPU, sysMem := sumRequests(set)
	node := func(mode string) string {
		return `data "kubefit_node_overhead" "aks" {
  cloud         = "azure"
  instance_type = "Standard_D4s_v5"
  ` + mode + `
}`
	}
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: node(``), ConfigPlanChecks: emptyPlanAfterApply, ConfigStateChecks: []statecheck.StateCheck{
				expectInt(addr, tfjsonpath.New("daemonset_overhead").AtMapKey("cpu_millicores"), sysCPU),
				expectInt(addr, tfjsonpath.New("available").AtMapKey("cpu_millicores"), alloc.CPUMillicores-sysCPU),
				expectInt(addr, tfjsonpath.New("available").AtMapKey("memory_bytes"), alloc.MemoryBytes-sysMem),
				expectInt(addr, tfjsonpath.New("available").AtMapKey("pods"), alloc.Pods-int64(len(set))),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("formula_source"), knownvalue.StringRegexp(regexp.MustCompile(fmt.Sprintf(`systemDaemonSets\.cpu = %dm by daemonset\.platform \(the platform's system DaemonSets: kube-proxy 100m, `, sysCPU)))),
			}},
			{Config: node(`system_daemonsets = "listed"`), ConfigPlanChecks: emptyPlanAfterApply, ConfigStateChecks: []statecheck.StateCheck{
				expectInt(addr, tfjsonpath.New("available").AtMapKey("cpu_millicores"), alloc.CPUMillicores),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("warnings"), knownvalue.ListSizeExact(1)),
			}},
		},
	})
}
