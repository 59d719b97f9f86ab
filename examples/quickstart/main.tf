# What is left for pods on a few instance types across clouds, computed offline from kubefit's embedded
# catalog. Run it with `make demo` (no cloud credentials, nothing downloaded).

terraform {
  required_providers {
    kubefit = {
      source = "kubefit/kubefit"
    }
  }
}

locals {
  # DaemonSets that run on every node (requests per pod). kubefit adds each platform's measured system
  # DaemonSets beside them (on AKS azure-ip-masq-agent, cloud-node-manager, the disk and file CSI nodes and
  # azure-cns; on GKE fluentbit-gke, gke-metrics-agent, pdcsi-node); a listed kube-proxy replaces the
  # platform's. system_daemonsets = "listed" counts only these.
  daemonsets = [
    { name = "kube-proxy", requests = { cpu = "100m", memory = "64Mi" } },
    { name = "node-exporter", requests = { cpu = "50m", memory = "64Mi" } },
  ]
}

data "kubefit_node_overhead" "eks" {
  cloud         = "aws"
  instance_type = "m5.large"
  profile       = "eks-al2023"
  daemonsets    = concat(local.daemonsets, [{ name = "aws-node", requests = { cpu = "50m" } }])
}

data "kubefit_node_overhead" "aks_small" {
  cloud              = "azure"
  instance_type      = "Standard_DS1_v2"
  kubernetes_version = "1.28"
  daemonsets         = local.daemonsets
}

data "kubefit_node_overhead" "aks" {
  cloud              = "azure"
  instance_type      = "Standard_D4s_v5"
  kubernetes_version = "1.30"
  daemonsets         = local.daemonsets
}

data "kubefit_node_overhead" "gke" {
  cloud         = "gcp"
  instance_type = "e2-standard-4"
  daemonsets    = local.daemonsets
}

locals {
  nodes = {
    "aws m5.large (eks-al2023)"         = data.kubefit_node_overhead.eks
    "azure Standard_DS1_v2 (aks, 1.28)" = data.kubefit_node_overhead.aks_small
    "azure Standard_D4s_v5 (aks, 1.30)" = data.kubefit_node_overhead.aks
    "gcp e2-standard-4 (gke-standard)"  = data.kubefit_node_overhead.gke
  }
}

output "left_for_pods" {
  description = "Per node: capacity, allocatable, and what is left for workload pods after DaemonSets."
  value = {
    for name, n in local.nodes : name => format("capacity %s CPU / %s; allocatable %s / %s; left for pods %s / %s, %d pods",
      n.capacity.cpu, n.capacity.memory, n.allocatable.cpu, n.allocatable.memory,
    n.available.cpu, n.available.memory, n.available.pods)
  }
}

output "kubelet_args" {
  description = "The reservations as kubelet flags."
  value       = { for name, n in local.nodes : name => n.kubelet_args }
}

# Pack a small web stack onto an EKS pool and a GKE pool: nodes needed at steady state and at peak
# (max replicas plus a 25 % rollout surge), and whether it fits within max_nodes.
data "kubefit_node_pool_sizing" "web" {
  pools = {
    eks = {
      cloud         = "aws"
      instance_type = "m5.large"
      min_nodes     = 2
      max_nodes     = 6
      zones         = ["us-east-1a", "us-east-1b", "us-east-1c"]
      labels        = { cloud = "aws" }
    }
    gke = {
      cloud         = "gcp"
      instance_type = "e2-standard-4"
      max_nodes     = 3
      labels        = { pool = "batch" }
    }
  }
  daemonsets = concat(
    local.daemonsets,
    [{ name = "aws-node", requests = { cpu = "50m" }, node_selector = { cloud = "aws" } }],
  )
  workloads = [
    { name = "web", min_replicas = 3, max_replicas = 8, max_surge = "25%", pools = ["eks"],
    requests = { cpu = "400m", memory = "512Mi" }, spread = { type = "zone", max_skew = 1 } },
    { name = "api", replicas = 4, pools = ["eks"], requests = { cpu = "250m", memory = "1Gi" }, spread = { type = "node" } },
    { name = "reports", replicas = 2, node_selector = { pool = "batch" }, requests = { cpu = "1500m", memory = "4Gi" } },
  ]
}

output "sizing_report" {
  description = "Nodes required per pool and scenario, utilisation and stranded capacity."
  value       = data.kubefit_node_pool_sizing.web.report
}
