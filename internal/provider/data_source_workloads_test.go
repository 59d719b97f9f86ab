package provider

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/workloads"
)

const wlAddr = "data.kubefit_workloads.app"

func chartFixture(t *testing.T, chart string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("..", "planner", "workloads", "testdata", "charts", chart, "rendered.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestAccWorkloads_ingressNginx reads the rendered ingress-nginx chart (an HPA, a PodDisruptionBudget and
// two hook Jobs) and checks the edge carries the reader's figures unchanged.
func TestAccWorkloads_ingressNginx(t *testing.T) {
	file := chartFixture(t, "ingress-nginx")
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	want, err := workloads.Read(workloads.Input{Manifests: string(b), Namespace: "ingress-nginx"})
	if err != nil || len(want.Workloads) != 1 {
		t.Fatalf("reader: %v, %d workloads", err, len(want.Workloads))
	}
	w := want.Workloads[0]
	ctl := tfjsonpath.New("workloads").AtSliceIndex(0)
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: fmt.Sprintf(`data "kubefit_workloads" "app" {
  manifests = file(%q)
  namespace = "ingress-nginx"
}`, file),
			ConfigPlanChecks: emptyPlanAfterApply,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(wlAddr, tfjsonpath.New("workloads"), knownvalue.ListSizeExact(1)),
				statecheck.ExpectKnownValue(wlAddr, ctl.AtMapKey("name"), knownvalue.StringExact("ingress-nginx-controller")),
				statecheck.ExpectKnownValue(wlAddr, ctl.AtMapKey("replicas"), knownvalue.Null()),
				statecheck.ExpectKnownValue(wlAddr, ctl.AtMapKey("min_replicas"), knownvalue.Int64Exact(int64(*w.MinReplicas))),
				statecheck.ExpectKnownValue(wlAddr, ctl.AtMapKey("max_replicas"), knownvalue.Int64Exact(int64(*w.MaxReplicas))),
				statecheck.ExpectKnownValue(wlAddr, ctl.AtMapKey("max_surge"), knownvalue.StringExact("25%")),
				statecheck.ExpectKnownValue(wlAddr, ctl.AtMapKey("pod_requests").AtMapKey("cpu_millicores"), knownvalue.Int64Exact(w.Requests.CPUMillicores)),
				statecheck.ExpectKnownValue(wlAddr, ctl.AtMapKey("pod_requests").AtMapKey("memory_bytes"), knownvalue.Int64Exact(w.Requests.MemoryBytes)),
				statecheck.ExpectKnownValue(wlAddr, ctl.AtMapKey("autoscaler").AtMapKey("kind"), knownvalue.StringExact("HorizontalPodAutoscaler")),
				statecheck.ExpectKnownValue(wlAddr, ctl.AtMapKey("pod_disruption_budget").AtMapKey("min_available"), knownvalue.StringExact("1")),
				statecheck.ExpectKnownValue(wlAddr, ctl.AtMapKey("source"), knownvalue.ObjectPartial(map[string]knownvalue.Check{
					"kind": knownvalue.StringExact("Deployment"), "namespace": knownvalue.StringExact("ingress-nginx"),
					"line": knownvalue.Int64Exact(int64(w.Source.Line))})),
				statecheck.ExpectKnownValue(wlAddr, tfjsonpath.New("skipped"), knownvalue.ListSizeExact(len(want.Skipped))),
				statecheck.ExpectKnownValue(wlAddr, tfjsonpath.New("daemonsets"), knownvalue.ListSizeExact(0)),
			},
		}},
	})
}

// workloadsSizingConfig reads a small manifest set and plans it twice: from the manifests (concatenated
// with one hand-written workload) and from the same workloads written by hand; a node group takes the
// manifests' workloads too.
const workloadsSizingConfig = `
locals {
  manifests = <<-YAML
    apiVersion: apps/v1
    kind: Deployment
    metadata: {name: api, namespace: shop}
    spec:
      selector: {matchLabels: {app: api}}
      template:
        metadata: {labels: {app: api}}
        spec:
          containers:
          - name: api
            image: api
            resources: {limits: {cpu: "1", memory: 1Gi}}
          initContainers:
          - {name: migrate, image: m, resources: {requests: {cpu: 1500m, memory: 256Mi}}}
          topologySpreadConstraints:
          - {maxSkew: 1, topologyKey: topology.kubernetes.io/zone, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels: {app: api}}}
          affinity:
            nodeAffinity:
              requiredDuringSchedulingIgnoredDuringExecution:
                nodeSelectorTerms:
                - matchExpressions: [{key: kubernetes.io/arch, operator: NotIn, values: [arm64]}]
    ---
    apiVersion: autoscaling/v2
    kind: HorizontalPodAutoscaler
    metadata: {name: api, namespace: shop}
    spec:
      scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: api}
      minReplicas: 3
      maxReplicas: 12
    ---
    apiVersion: apps/v1
    kind: DaemonSet
    metadata: {name: agent, namespace: shop}
    spec:
      selector: {matchLabels: {app: agent}}
      template:
        metadata: {labels: {app: agent}}
        spec:
          containers: [{name: a, image: a, resources: {requests: {cpu: 100m, memory: 128Mi}}}]
  YAML
  pool = {
    cloud         = "aws"
    instance_type = "m5.large"
    max_nodes     = 30
    zones         = ["us-east-1a", "us-east-1b", "us-east-1c"]
  }
}

data "kubefit_workloads" "app" {
  manifests = local.manifests
}

data "kubefit_node_pool_sizing" "from_manifests" {
  pools      = { general = local.pool }
  daemonsets = data.kubefit_workloads.app.daemonsets
  workloads = concat(data.kubefit_workloads.app.workloads, [
    { name = "cron", replicas = 1, requests = { cpu = "250m", memory = "256Mi" } },
  ])
}

data "kubefit_node_pool_sizing" "by_hand" {
  pools      = { general = local.pool }
  daemonsets = [{ name = "agent", requests = { cpu = "100m", memory = "128Mi" } }]
  workloads = [
    { name = "api", min_replicas = 3, max_replicas = 12, max_surge = "25%", requests = { cpu = "1500m", memory = "1Gi" },
      spread        = { type = "zone", max_skew = 1 },
      node_affinity = [{ match_expressions = [{ key = "kubernetes.io/arch", operator = "NotIn", values = ["arm64"] }] }] },
    { name = "cron", replicas = 1, requests = { cpu = "250m", memory = "256Mi" } },
  ]
}

data "kubefit_node_pool_recommendation" "r" {
  cloud      = "aws"
  candidates = ["m5.large", "m5.xlarge"]
  pool       = { max_nodes = 30, zones = ["us-east-1a", "us-east-1b", "us-east-1c"] }
  daemonsets = data.kubefit_workloads.app.daemonsets
  workloads  = data.kubefit_workloads.app.workloads
}

resource "kubefit_node_group" "test" {
  name          = "general"
  cloud         = "aws"
  instance_type = "m5.large"
  zones         = ["us-east-1a", "us-east-1b", "us-east-1c"]
  daemonsets    = data.kubefit_workloads.app.daemonsets
  workloads     = data.kubefit_workloads.app.workloads
}
`

// TestAccWorkloads_plugsIntoSizing checks that the outputs plug into sizing, a recommendation and a node
// group unchanged,
// and that a plan from manifests equals the plan of the same workloads written by hand.
func TestAccWorkloads_plugsIntoSizing(t *testing.T) {
	peak := func(addr string) tfjsonpath.Path {
		return tfjsonpath.New("pool_results").AtMapKey("general").AtMapKey("peak").AtMapKey("nodes_required")
	}
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config:           workloadsSizingConfig,
			ConfigPlanChecks: emptyPlanAfterApply,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(wlAddr, tfjsonpath.New("workloads").AtSliceIndex(0).AtMapKey("requests"), knownvalue.ObjectExact(map[string]knownvalue.Check{
					"cpu": knownvalue.StringExact("1500m"), "memory": knownvalue.StringExact("1Gi"), "ephemeral_storage": knownvalue.Null(), "gpu": knownvalue.Null(), "extended": knownvalue.Null()})),
				statecheck.ExpectKnownValue(wlAddr, tfjsonpath.New("workloads").AtSliceIndex(0).AtMapKey("spread"), knownvalue.ObjectExact(map[string]knownvalue.Check{
					"type": knownvalue.StringExact("zone"), "max_skew": knownvalue.Int64Exact(1)})),
				statecheck.ExpectKnownValue("data.kubefit_node_pool_sizing.from_manifests", tfjsonpath.New("fits"), knownvalue.Bool(true)),
				statecheck.ExpectKnownValue(wlAddr, tfjsonpath.New("workloads").AtSliceIndex(0).AtMapKey("node_affinity").AtSliceIndex(0).AtMapKey("match_expressions").AtSliceIndex(0).AtMapKey("operator"), knownvalue.StringExact("NotIn")),
				statecheck.CompareValuePairs("data.kubefit_node_pool_sizing.from_manifests", peak(""),
					"data.kubefit_node_pool_sizing.by_hand", peak(""), compare.ValuesSame()),
				statecheck.CompareValuePairs("data.kubefit_node_pool_sizing.from_manifests", tfjsonpath.New("pool_results").AtMapKey("general").AtMapKey("steady").AtMapKey("nodes_required"),
					"data.kubefit_node_pool_sizing.by_hand", tfjsonpath.New("pool_results").AtMapKey("general").AtMapKey("steady").AtMapKey("nodes_required"), compare.ValuesSame()),
				statecheck.ExpectKnownValue("kubefit_node_group.test", tfjsonpath.New("max_size"), knownvalue.NotNull()),
				statecheck.ExpectKnownValue("data.kubefit_node_pool_recommendation.r", tfjsonpath.New("ranking"), knownvalue.ListSizeExact(2)),
			},
		}},
	})
}

// TestAccWorkloads_badInput checks that bad manifests fail with one diagnostic naming the document, object
// and field, and that bad overrides and filters point at their attribute.
func TestAccWorkloads_badInput(t *testing.T) {
	cfg := func(manifests, extra string) string {
		return fmt.Sprintf("data \"kubefit_workloads\" \"app\" {\n  manifests = %q\n%s\n}\n", manifests, extra)
	}
	dep := "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec:\n      containers: [{name: app, image: app, resources: {requests: {cpu: 100m}}}]\n"
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: cfg(dep+"---\nkind: Pod\nmetadata: {name: [x\n", ""), ExpectError: errRe("Document", "1", "of", "the", "manifests", "(line", "11)", "is", "not", "valid", "YAML")},
			{Config: cfg(dep+"---\n"+dep, ""), ExpectError: errRe(`Deployment`, `"web"`, `in`, `namespace`, `"default"`, `(document`, `1,`, `line`, `11)`, `is`, `listed`, `twice`)},
			{Config: cfg(regexp.MustCompile(`cpu: 100m`).ReplaceAllString(dep, "cpu: lots"), ""), ExpectError: errRe(`container`, `"app",`, `spec.template.spec.containers[0].resources.requests.cpu`, `is`, `"lots"`)},
			// Every broken document is reported, in one diagnostic on manifests (the server keeps one error per value).
			{Config: cfg(regexp.MustCompile(`cpu: 100m`).ReplaceAllString(dep, "cpu: lots")+"---\n"+strings.NewReplacer("web", "api", "100m", "heaps").Replace(dep), ""),
				ExpectError: regexp.MustCompile(`(?s)` + errRe(`2`, `problems,`, `each`, `to`, `fix:`).String() + `.*` + errRe(`is`, `"lots"`).String() + `.*` + errRe(`Deployment`, `"api"`).String() + `.*` + errRe(`is`, `"heaps"`).String())},
			{Config: cfg(dep+"---\napiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: web}\nspec:\n  scaleTargetRef: {kind: Deployment, name: web}\n  minReplicas: 5\n  maxReplicas: 2\n", ""),
				ExpectError: errRe("minimum", "replica", "count", "5", "is", "above", "the", "maximum", "2")},
			{Config: cfg(dep, `overrides = { nope = { extra_replicas = 1 } }`), ExpectError: regexp.MustCompile(`(?s)Invalid Override.*` + errRe(`No`, `workload`, `or`, `DaemonSet`, `read`, `from`, `the`, `manifests`, `is`, `named`, `"nope";`, `the`, `names`, `are`, `"web"`).String())},
			{Config: cfg(dep, `include = [{ names = ["[x"] }]`), ExpectError: errRe(`name`, `pattern`, `"[x"`, `is`, `malformed`)},
			{Config: cfg(dep, `overrides = { web = { cpu_usage = "lots" } }`), ExpectError: regexp.MustCompile(`cpu_usage`)},
			{
				Config:           cfg(dep, `overrides = { web = { extra_replicas = 2, cpu_usage = "60m" } }`),
				ConfigPlanChecks: emptyPlanAfterApply,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(wlAddr, tfjsonpath.New("workloads").AtSliceIndex(0).AtMapKey("replicas"), knownvalue.Int64Exact(3)),
					statecheck.ExpectKnownValue(wlAddr, tfjsonpath.New("workloads").AtSliceIndex(0).AtMapKey("cpu_usage"), knownvalue.StringExact("60m")),
					statecheck.ExpectKnownValue(wlAddr, tfjsonpath.New("warnings"), knownvalue.ListSizeExact(0)),
				},
			},
		},
	})
}

// TestAccWorkloads_clusterSnapshot reads a kubectl snapshot into measured pools and running load and plans
// them with sizing: the pools plan on the nodes' own allocatable, and max_nodes can be raised with merge.
func TestAccWorkloads_clusterSnapshot(t *testing.T) {
	file, err := filepath.Abs(filepath.Join("..", "planner", "workloads", "testdata", "cluster", "snapshot.json"))
	if err != nil {
		t.Fatal(err)
	}
	cfg := fmt.Sprintf(`data "kubefit_workloads" "live" {
  cluster = file(%q)
}

data "kubefit_node_pool_sizing" "live" {
  pools          = { for k, p in data.kubefit_workloads.live.pools : k => merge(p, { max_nodes = 10 }) }
  daemonsets     = data.kubefit_workloads.live.daemonsets
  workloads      = data.kubefit_workloads.live.workloads
  fail_on_misfit = false
}
`, file)
	general := tfjsonpath.New("pools").AtMapKey("general")
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config:           cfg,
			ConfigPlanChecks: emptyPlanAfterApply,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.kubefit_workloads.live", general.AtMapKey("instance_type"), knownvalue.StringExact("m5.large")),
				statecheck.ExpectKnownValue("data.kubefit_workloads.live", general.AtMapKey("max_nodes"), knownvalue.Int64Exact(2)),
				statecheck.ExpectKnownValue("data.kubefit_workloads.live", general.AtMapKey("measured_allocatable").AtMapKey("cpu"), knownvalue.StringExact("1930m")),
				statecheck.ExpectKnownValue("data.kubefit_workloads.live", general.AtMapKey("nodes"), knownvalue.ListSizeExact(2)),
				statecheck.ExpectKnownValue("data.kubefit_workloads.live", tfjsonpath.New("pools").AtMapKey("gpu").AtMapKey("taints"), knownvalue.ListSizeExact(1)),
				statecheck.ExpectKnownValue("data.kubefit_node_pool_sizing.live", tfjsonpath.New("pool_results").AtMapKey("general").AtMapKey("allocatable").AtMapKey("cpu"), knownvalue.StringExact("1930m")),
				statecheck.ExpectKnownValue("data.kubefit_node_pool_sizing.live", tfjsonpath.New("fits"), knownvalue.Bool(true)),
				// kube-proxy and aws-node run on the gpu node beside a taint they do not tolerate: they count there; so
				// does the NVIDIA device plugin an AL2023 g5.xlarge needs to offer nvidia.com/gpu (the snapshot lists none).
				statecheck.ExpectKnownValue("data.kubefit_node_pool_sizing.live", tfjsonpath.New("pool_results").AtMapKey("gpu").AtMapKey("daemonsets"),
					knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("kube-proxy"), knownvalue.StringExact("aws-node"),
						knownvalue.StringExact("nvidia-device-plugin-daemonset")})),
			},
		}},
	})
}

// TestAccNodePoolSizing_nodeAffinity checks required node affinity through sizing: a NotIn that excludes
// the only pool fails naming the expression, and a malformed Gt is refused on its expression.
func TestAccNodePoolSizing_nodeAffinity(t *testing.T) {
	cfg := func(expr string) string {
		return fmt.Sprintf(`data "kubefit_node_pool_sizing" "t" {
  pools = { general = { cloud = "aws", instance_type = "m6g.large", max_nodes = 5 } }
  workloads = [{ name = "api", replicas = 2, requests = { cpu = "500m" },
    node_affinity = [{ match_expressions = [%s] }] }]
}`, expr)
	}
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: cfg(`{ key = "kubernetes.io/arch", operator = "NotIn", values = ["arm64"] }`),
				ExpectError: errRe(`the`, `required`, `node`, `affinity`, `of`, `workload`, `"api"`, `(kubernetes.io/arch`, `NotIn`, `[arm64])`, `matches`, `no`, `node`, `of`, `pool`, `"general"`)},
			{Config: cfg(`{ key = "cores", operator = "Gt", values = ["many"] }`),
				ExpectError: regexp.MustCompile(`(?s)workloads\[0\]\.node_affinity\[0\]\.match_expressions\[0\].*"cores Gt"`)},
			{Config: cfg(`{ key = "kubernetes.io/arch", operator = "Between" }`), ExpectError: regexp.MustCompile(`(?s)operator\s+value\s+must\s+be\s+one\s+of`)},
			{
				Config:           cfg(`{ key = "kubernetes.io/arch", operator = "In", values = ["arm64"] }`),
				ConfigPlanChecks: emptyPlanAfterApply,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("data.kubefit_node_pool_sizing.t", tfjsonpath.New("fits"), knownvalue.Bool(true)),
				},
			},
		},
	})
}

// TestAccNodePoolSizing_hostPorts: three pods asking for host port 443 on a pool of at most two nodes leave
// one Pending, named; with three nodes they fit; a DaemonSet on the same port keeps them off its pool.
func TestAccNodePoolSizing_hostPorts(t *testing.T) {
	cfg := func(maxNodes int, ds string) string {
		return fmt.Sprintf(`data "kubefit_node_pool_sizing" "t" {
  pools      = { edge = { cloud = "aws", instance_type = "c6i.large", max_nodes = %d } }
  daemonsets = [%s]
  workloads  = [{ name = "ingress", replicas = 3, requests = { cpu = "100m", memory = "128Mi" }, host_ports = [{ port = 443 }] }]
}`, maxNodes, ds)
	}
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: cfg(2, ""), ExpectError: errRe(`workload`, `"ingress"`, `asks`, `for`, `host`, `port(s)`, `443/TCP,`, `so`, `no`, `two`, `of`, `its`, `pods`, `share`, `a`, `node`)},
			{Config: cfg(2, `{ name = "nginx", requests = { cpu = "50m" }, host_ports = [{ port = 443, protocol = "TCP" }] }`),
				ExpectError: errRe(`host`, `port`, `443/TCP,`, `which`, `DaemonSet`, `"nginx"`, `takes`, `on`, `every`, `node`, `of`, `pool`, `"edge"`)},
			{Config: cfg(2, `{ name = "x", host_ports = [{ port = 70000 }] }`), ExpectError: regexp.MustCompile(`(?s)port.*between\s+1\s+and\s+65535`)},
			{
				Config:           cfg(3, ""),
				ConfigPlanChecks: emptyPlanAfterApply,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("data.kubefit_node_pool_sizing.t", tfjsonpath.New("fits"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue("data.kubefit_node_pool_sizing.t", tfjsonpath.New("pool_results").AtMapKey("edge").AtMapKey("steady").AtMapKey("nodes_required"), knownvalue.Int64Exact(3)),
				},
			},
		},
	})
}

// TestAccWorkloads_unknownManifests: manifests known only after apply defer the read (and the sizing
// that uses it) to apply, with no error during plan; after apply the plan is empty.
func TestAccWorkloads_unknownManifests(t *testing.T) {
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: `
resource "terraform_data" "render" {
  input = <<-YAML
    apiVersion: apps/v1
    kind: Deployment
    metadata: {name: web}
    spec:
      replicas: 4
      selector: {matchLabels: {app: web}}
      template:
        metadata: {labels: {app: web}}
        spec:
          containers: [{name: web, image: web, resources: {requests: {cpu: 500m, memory: 512Mi}}}]
  YAML
}

data "kubefit_workloads" "app" {
  manifests = terraform_data.render.output
}

data "kubefit_node_pool_sizing" "s" {
  pools     = { general = { cloud = "aws", instance_type = "m5.large", max_nodes = 10 } }
  workloads = data.kubefit_workloads.app.workloads
}
`,
			ConfigPlanChecks: emptyPlanAfterApply,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(wlAddr, tfjsonpath.New("workloads").AtSliceIndex(0).AtMapKey("replicas"), knownvalue.Int64Exact(4)),
				statecheck.ExpectKnownValue("data.kubefit_node_pool_sizing.s", tfjsonpath.New("fits"), knownvalue.Bool(true)),
			},
		}},
	})
}

// TestAccNodePoolSizing_volumeClaims: a StatefulSet read from its manifest brings one ReadWriteOnce claim per
// pod; an m5.large attaches 24 EBS volumes (every ENI attached, volumes.md §5.1), so 25 pods (27 pod slots)
// fail a one-node pool naming the attachments, 50 need three nodes (two by pod slots) whatever their CPU and
// memory, and bad claims are refused on their attribute.
func TestAccNodePoolSizing_volumeClaims(t *testing.T) {
	manifests := func(replicas int) string {
		return fmt.Sprintf(`
data "kubefit_workloads" "db" {
  manifests = <<-YAML
    apiVersion: apps/v1
    kind: StatefulSet
    metadata: {name: db}
    spec:
      replicas: %d
      serviceName: db
      selector: {matchLabels: {app: db}}
      template:
        metadata: {labels: {app: db}}
        spec:
          containers: [{name: db, image: db, resources: {requests: {cpu: 50m, memory: 64Mi}}}]
      volumeClaimTemplates:
      - metadata: {name: data}
        spec: {accessModes: [ReadWriteOnce], storageClassName: gp3, resources: {requests: {storage: 20Gi}}}
  YAML
}
`, replicas)
	}
	sizingCfg := func(replicas, maxNodes int) string {
		return manifests(replicas) + fmt.Sprintf(`
data "kubefit_node_pool_sizing" "s" {
  pools     = { general = { cloud = "aws", instance_type = "m5.large", max_nodes = %d } }
  workloads = data.kubefit_workloads.db.workloads
}

data "kubefit_node_overhead" "m5" {
  cloud         = "aws"
  instance_type = "m5.large"
}
`, maxNodes)
	}
	claims := func(c string) string {
		return fmt.Sprintf(`data "kubefit_node_pool_sizing" "s" {
  pools     = { general = { cloud = "aws", instance_type = "m5.large", max_nodes = 3 } }
  workloads = [{ name = "app", replicas = 2, requests = { cpu = "100m" }, volume_claims = [%s] }]
}`, c)
	}
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: sizingCfg(25, 1), ExpectError: regexp.MustCompile(`(?s)` + errRe(`request`, `25`, `volume`, `attachments`, `against`, `24`, `volume`, `attachments`, `of`, `workload`,
				`allocatable`, `on`, `1`, `node:`, `short`, `by`, `1`, `volume`, `attachment.`).String() + `.*` + errRe(`choose`, `an`, `instance`, `type`, `that`, `attaches`, `more`, `volumes`).String())},
			{Config: claims(`{ name = "data", access_modes = ["ReadWriteSometimes"] }`), ExpectError: regexp.MustCompile(`(?s)ReadWriteOncePod`)},
			{Config: claims(`{ name = "data", access_modes = ["ReadWriteOncePod"], from = "persistentVolumeClaim" }`),
				ExpectError: errRe(`ReadWriteOncePod`, `claim`, `its`, `2`, `pods`, `share`)},
			{
				Config:           sizingCfg(50, 3),
				ConfigPlanChecks: emptyPlanAfterApply,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("data.kubefit_node_overhead.m5", tfjsonpath.New("volume_attach_limit"), knownvalue.Int64Exact(24)),
					statecheck.ExpectKnownValue("data.kubefit_node_pool_sizing.s", tfjsonpath.New("fits"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue("data.kubefit_node_pool_sizing.s", tfjsonpath.New("pool_results").AtMapKey("general").AtMapKey("steady").AtMapKey("nodes_required"), knownvalue.Int64Exact(3)),
					statecheck.ExpectKnownValue("data.kubefit_node_pool_sizing.s", tfjsonpath.New("pool_results").AtMapKey("general").AtMapKey("steady").AtMapKey("lower_bound_by"), knownvalue.StringExact("attachable-volumes")),
				},
			},
		},
	})
}

// TestAccNodePoolSizing_podAffinity: required anti-affinity against a workload's own pods on the zone holds
// one pod per zone, so a fourth replica over three zones binds nowhere, named, whatever the node count;
// inter-pod terms read from a manifest (Bitnami's soft anti-affinity preset, a required affinity to another
// workload's zone) come out of kubefit_workloads in the input shape and plan.
func TestAccNodePoolSizing_podAffinity(t *testing.T) {
	zk := func(replicas int) string {
		return fmt.Sprintf(`data "kubefit_node_pool_sizing" "zk" {
  pools = { general = { cloud = "aws", instance_type = "m5.large", max_nodes = 10, zones = ["eu-west-1a", "eu-west-1b", "eu-west-1c"] } }
  workloads = [{
    name = "zookeeper", replicas = %d, requests = { cpu = "250m", memory = "512Mi" }, labels = { app = "zk" }
    pod_anti_affinity = { required = [{ topology_key = "topology.kubernetes.io/zone", label_selector = { match_labels = { app = "zk" } } }] }
  }]
}`, replicas)
	}
	manifests := `
data "kubefit_workloads" "app" {
  manifests = <<-YAML
    apiVersion: apps/v1
    kind: Deployment
    metadata: {name: api, namespace: shop}
    spec:
      replicas: 3
      selector: {matchLabels: {app: api}}
      template:
        metadata: {labels: {app: api}}
        spec:
          containers: [{name: api, image: api, resources: {requests: {cpu: 500m, memory: 512Mi}}}]
          affinity:
            podAntiAffinity:
              preferredDuringSchedulingIgnoredDuringExecution:
              - weight: 1
                podAffinityTerm: {topologyKey: kubernetes.io/hostname, labelSelector: {matchLabels: {app: api}}}
    ---
    apiVersion: apps/v1
    kind: Deployment
    metadata: {name: cache, namespace: shop}
    spec:
      replicas: 2
      selector: {matchLabels: {app: cache}}
      template:
        metadata: {labels: {app: cache}}
        spec:
          containers: [{name: cache, image: cache, resources: {requests: {cpu: 250m, memory: 1Gi}}}]
          affinity:
            podAffinity:
              requiredDuringSchedulingIgnoredDuringExecution:
              - {topologyKey: topology.kubernetes.io/zone, labelSelector: {matchLabels: {app: api}}}
  YAML
}

data "kubefit_node_pool_sizing" "shop" {
  pools     = { general = { cloud = "aws", instance_type = "m5.large", max_nodes = 6, zones = ["eu-west-1a", "eu-west-1b"] } }
  workloads = data.kubefit_workloads.app.workloads
}
`
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: zk(4), ExpectError: errRe(`1`, `pod`, `of`, `workload`, `"zookeeper"`, `binds`, `on`, `no`, `node`)},
			{Config: zk(3), Check: resource.TestCheckResourceAttr("data.kubefit_node_pool_sizing.zk", "pool_results.general.steady.nodes_required", "3")},
			{
				Config:           manifests,
				ConfigPlanChecks: emptyPlanAfterApply,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(wlAddr, tfjsonpath.New("workloads").AtSliceIndex(0).AtMapKey("pod_anti_affinity").AtMapKey("preferred").AtSliceIndex(0).AtMapKey("weight"), knownvalue.Int64Exact(1)),
					statecheck.ExpectKnownValue(wlAddr, tfjsonpath.New("workloads").AtSliceIndex(1).AtMapKey("pod_affinity").AtMapKey("required").AtSliceIndex(0).AtMapKey("topology_key"), knownvalue.StringExact("topology.kubernetes.io/zone")),
					statecheck.ExpectKnownValue(wlAddr, tfjsonpath.New("workloads").AtSliceIndex(1).AtMapKey("namespace"), knownvalue.StringExact("shop")),
					statecheck.ExpectKnownValue("data.kubefit_node_pool_sizing.shop", tfjsonpath.New("fits"), knownvalue.Bool(true)),
				},
			},
		},
	})
}

// TestAccNodePoolSizing_topologySpread: a DoNotSchedule zone constraint with min_domains 3 over two zones
// holds one pod per zone at max_skew 1, so a third pod stays Pending on any node count, named; a
// ScheduleAnyway constraint read from a manifest comes out of kubefit_workloads as topology_spread and plans.
func TestAccNodePoolSizing_topologySpread(t *testing.T) {
	cfg := func(replicas int) string {
		return fmt.Sprintf(`data "kubefit_node_pool_sizing" "s" {
  pools = { general = { cloud = "aws", instance_type = "m5.large", max_nodes = 6, zones = ["eu-west-1a", "eu-west-1b"] } }
  workloads = [{
    name = "web", replicas = %d, requests = { cpu = "100m", memory = "128Mi" }
    topology_spread = [{ max_skew = 1, topology_key = "topology.kubernetes.io/zone", min_domains = 3, label_selector = { match_labels = { app = "web" } } }]
  }]
}`, replicas)
	}
	manifest := `
data "kubefit_workloads" "app" {
  manifests = <<-YAML
    apiVersion: apps/v1
    kind: Deployment
    metadata: {name: api}
    spec:
      replicas: 4
      selector: {matchLabels: {app: api}}
      template:
        metadata: {labels: {app: api}}
        spec:
          containers: [{name: api, image: api, resources: {requests: {cpu: 250m, memory: 256Mi}}}]
          topologySpreadConstraints:
          - {maxSkew: 1, topologyKey: kubernetes.io/hostname, whenUnsatisfiable: ScheduleAnyway, labelSelector: {matchLabels: {app: api}}}
  YAML
}

data "kubefit_node_pool_sizing" "s" {
  pools     = { general = { cloud = "aws", instance_type = "m5.large", max_nodes = 4 } }
  workloads = data.kubefit_workloads.app.workloads
}
`
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: cfg(3), ExpectError: errRe(`Spread`, `(steady`, `scenario):`, `1`, `pod`, `of`, `workload`, `"web"`, `binds`, `on`, `no`, `node`)},
			{Config: cfg(2), Check: resource.TestCheckResourceAttr("data.kubefit_node_pool_sizing.s", "fits", "true")},
			{
				Config:           manifest,
				ConfigPlanChecks: emptyPlanAfterApply,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(wlAddr, tfjsonpath.New("workloads").AtSliceIndex(0).AtMapKey("topology_spread").AtSliceIndex(0).AtMapKey("when_unsatisfiable"), knownvalue.StringExact("ScheduleAnyway")),
					statecheck.ExpectKnownValue("data.kubefit_node_pool_sizing.s", tfjsonpath.New("fits"), knownvalue.Bool(true)),
				},
			},
		},
	})
}

// TestAccNodePoolSizing_priority: a high-priority workload left Pending on a pool at its maximum, whose
// nodes lower-priority pods fill, fails, and its failure says what kube-scheduler would preempt (reported,
// never counted on); a priority beyond system-node-critical's is refused on its attribute.
func TestAccNodePoolSizing_priority(t *testing.T) {
	cfg := func(priority string) string {
		return fmt.Sprintf(`data "kubefit_node_pool_sizing" "t" {
  pools         = { general = { cloud = "aws", instance_type = "c6i.large", max_nodes = 2 } }
  arrival_order = "in-order"
  workloads = [
    { name = "batch", replicas = 2, requests = { cpu = "1500m", memory = "256Mi" } },
    { name = "api", replicas = 1, requests = { cpu = "1000m", memory = "256Mi" }, priority = %s },
  ]
}`, priority)
	}
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: cfg("1000000"), ExpectError: errRe(`kube-scheduler`, `would`, `preempt`, `lower-priority`, `pods`, `(of`, `workload`, `"batch")`)},
			{Config: cfg("3000000000"), ExpectError: regexp.MustCompile(`(?s)priority.*between\s+-2147483648\s+and\s+2000001000`)},
		},
	})
}
