# Read the workloads from the chart's rendered manifests (here a file; data.helm_template.<name>.manifest and
# `kustomize build` output work the same way), and plan them on a pool.
data "kubefit_workloads" "shop" {
  manifests = file("${path.module}/rendered.yaml")
  namespace = "shop"
  # Expected real CPU use of the web pods, for burstable credit checks.
  overrides = { web = { cpu_usage = "150m" } }
}

# Objects written in HCL (as for kubernetes_manifest) go in through yamlencode.
locals {
  worker = {
    apiVersion = "apps/v1"
    kind       = "Deployment"
    metadata   = { name = "worker", namespace = "shop" }
    spec = {
      replicas = 2
      selector = { matchLabels = { app = "worker" } }
      template = {
        metadata = { labels = { app = "worker" } }
        spec = {
          containers = [{ name = "worker", image = "ghcr.io/example/worker:1.4.0",
          resources = { requests = { cpu = "1", memory = "2Gi" } } }]
        }
      }
    }
  }
}

data "kubefit_workloads" "hcl" {
  manifests = yamlencode(local.worker)
}

data "kubefit_node_pool_sizing" "shop" {
  pools = {
    general = {
      cloud         = "aws"
      instance_type = "m6i.large"
      max_nodes     = 20
      zones         = ["eu-west-1a", "eu-west-1b", "eu-west-1c"]
    }
  }
  daemonsets = data.kubefit_workloads.shop.daemonsets
  workloads = concat(data.kubefit_workloads.shop.workloads, data.kubefit_workloads.hcl.workloads, [
    # Hand-written workloads mix in freely.
    { name = "cache", replicas = 1, requests = { cpu = "250m", memory = "1Gi" } },
  ])
}

output "web_pod_requests" {
  # 1 CPU (the migration init container's limit, its request by default) and 768Mi.
  value = data.kubefit_workloads.shop.workloads[0].pod_requests
}

output "web_replicas" {
  value = [data.kubefit_workloads.shop.workloads[0].min_replicas, data.kubefit_workloads.shop.workloads[0].max_replicas]
}

output "skipped" {
  value = [for s in data.kubefit_workloads.shop.skipped : "${s.source.kind}/${s.source.name}: ${s.reason}"]
}

output "nodes_required" {
  value = data.kubefit_node_pool_sizing.shop.pool_results["general"].peak.nodes_required
}
