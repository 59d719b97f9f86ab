# Pick the cheapest type for my workloads among m/c/r of the 6th and 7th generation, then size the pool
# with it. Costs use the catalog's reference on-demand prices (us-east-1, at the catalog's price date):
# see each ranking entry's price_source, or give your own prices.

locals {
  daemonsets = [
    { name = "aws-node", requests = { cpu = "50m" } },
    { name = "kube-proxy", requests = { cpu = "100m" }, cpu_usage = "10m" },
    { name = "fluent-bit", requests = { cpu = "100m", memory = "128Mi" }, tolerations = [{ operator = "Exists" }] },
  ]
  workloads = [
    {
      name         = "api"
      min_replicas = 6
      max_replicas = 24
      max_surge    = "25%"
      requests     = { cpu = "500m", memory = "1Gi" }
      cpu_usage    = "200m"
      spread       = { type = "zone", max_skew = 1 }
    },
    { name = "cache", replicas = 6, requests = { cpu = "500m", memory = "12Gi" } },
    { name = "worker", replicas = 10, requests = { cpu = "1", memory = "2Gi" }, cpu_usage = "600m" },
  ]
  # Every pool option of kubefit_node_pool_sizing except cloud and the instance type.
  pool = {
    profile   = "eks-al2023"
    eks       = { node_group_kind = "managed" }
    min_nodes = 3
    max_nodes = 30
    zones     = ["eu-west-1a", "eu-west-1b", "eu-west-1c"]
  }
}

data "kubefit_instance_types" "mcr" {
  cloud        = "aws"
  families     = ["m?i", "m?a", "c?i", "c?a", "r?i", "r?a"]
  generation   = { min = 6, max = 7 }
  vcpu         = { min = 4, max = 16 }
  architecture = "x86_64"
}

data "kubefit_node_pool_recommendation" "general" {
  cloud      = "aws"
  candidates = data.kubefit_instance_types.mcr.names
  pool       = local.pool
  daemonsets = local.daemonsets
  workloads  = local.workloads
  scenario   = "peak"

  # A negotiated price replaces the reference price of that type (USD per node and hour).
  prices = { "m7i.2xlarge" = 0.35 }
}

# The winner, wired into the sizing data source (or a kubefit_node_group).
data "kubefit_node_pool_sizing" "general" {
  pools      = { general = merge(local.pool, { cloud = "aws", instance_type = data.kubefit_node_pool_recommendation.general.best }) }
  daemonsets = local.daemonsets
  workloads  = local.workloads
}

output "best" {
  value = data.kubefit_node_pool_recommendation.general.best
}

# The cheapest candidates' counts are the scheduler model's (the pods placed as kube-scheduler places them
# in every planned arrival order); nodes_optimal is the best packing, what a bin-packing profile could reach.
output "top3" {
  value = [for r in slice(data.kubefit_node_pool_recommendation.general.ranking, 0, 3) : {
    type          = r.instance_type
    nodes         = r.nodes_required
    nodes_optimal = r.nodes_optimal
    modelled      = r.scheduler_modelled
    usd_per_month = r.monthly_cost
    price         = r.price_source
    stranded      = r.stranded_share
  }]
}

output "excluded" {
  value = { for r in data.kubefit_node_pool_recommendation.general.ranking : r.instance_type => "${r.reason}: ${r.message}" if r.excluded }
}

output "peak_nodes" {
  value = data.kubefit_node_pool_sizing.general.pool_results["general"].peak.nodes_required
}

# A database pool whose nodes must each sustain 10,000 IOPS and 400 MB/s to their EBS volumes: a type
# whose EBS-optimized baseline is lower is excluded with reason disk-cap (here every type below 16 vCPUs).
data "kubefit_node_pool_recommendation" "database" {
  cloud      = "aws"
  candidates = data.kubefit_instance_types.mcr.names
  pool       = local.pool
  node_disk  = { iops = 10000, throughput_mbps = 400 }
  workloads = [
    { name = "postgres", replicas = 3, requests = { cpu = "2", memory = "16Gi" }, spread = { type = "node" } },
  ]
}

output "database_best" {
  value = data.kubefit_node_pool_recommendation.database.best
}
