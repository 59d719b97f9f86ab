# Two ScaledObjects on one node group and one MySQL database. Each checks itself; the capacity check
# sees them together: both at peak on the group, and their connections against max_connections.
# Each pod at peak counts with its rollout surge: the api's 10 plus 3 (25 %), the worker's 8 (Recreate), 21 pods
# × 5 = 105 connections, above the safe half of 150, so the check warns (KCAP-W2). Raising either
# max_replica_count to 30 would fail the plan on the database (KCAP-E4): 46 (api) or 43 (worker) pods × 5
# connections exceed 150. Its remedies are the ones that pass: with the api at 30, the api's largest safe
# maxReplicaCount (17), as no maxReplicaCount of the worker at or above its minimum of 1 is enough (the api's
# 38 pods alone need 190); or max_connections = 230; or a connection pooler. The DNS budget compares the api pods' external lookups at peak with CoreDNS's
# capacity (replicas from the autoscaler's ladder × queries per replica) and the VPC resolver's packets per
# second, and says which binds.
locals {
  # Normally the capacity output of a kubefit_node_group (module.pools.general.capacity, say); written out here,
  # it is what that output gives for 10 m5.large nodes of an EKS managed group (AL2023): one node's allocatable
  # less the platform's aws-node and kube-proxy (1,780m, 6,903 MiB, 27 pod slots).
  general = {
    name      = "general"
    max_nodes = 10
    zones     = ["eu-west-1a", "eu-west-1b"]
    workload_allocatable = {
      cpu_millicores = 1780
      memory_bytes   = 7238320128
    }
    workload_pods = 27
  }
  prometheus = "http://prometheus.monitoring:9090"
}

resource "kubefit_keda_scaled_object" "api" {
  name              = "api"
  namespace         = "shop"
  scale_target_ref  = { name = "api" }
  min_replica_count = 2
  max_replica_count = 10
  triggers = [{
    type     = "prometheus"
    metadata = { serverAddress = local.prometheus, query = "sum(rate(http_requests_total{app=\"api\"}[1m]))", threshold = "50", ignoreNullValues = "false" }
  }]
  target_workload = {
    pod_template           = { containers = [{ name = "php", requests = { cpu = "500m", memory = "256Mi" } }] }
    connections_per_pod    = 5
    dns_lookups_per_second = 20
  }
  node_group_capacity = local.general
}

resource "kubefit_keda_scaled_object" "worker" {
  name              = "worker"
  namespace         = "shop"
  scale_target_ref  = { name = "worker" }
  min_replica_count = 1
  max_replica_count = 8
  triggers          = [{ type = "rabbitmq", metadata = { queueName = "orders", mode = "QueueLength", value = "20" } }]
  target_workload = {
    pod_template        = { containers = [{ name = "worker", requests = { cpu = "250m", memory = "512Mi" } }] }
    rollout             = { strategy = "Recreate" }
    connections_per_pod = 5
  }
  node_group_capacity = local.general
}

resource "kubefit_capacity_check" "shop" {
  scaled_objects = [kubefit_keda_scaled_object.api.summary, kubefit_keda_scaled_object.worker.summary]
  node_groups    = [local.general]
  databases = [{
    name            = "orders-mysql"
    max_connections = 150
    clients         = ["shop/api", "shop/worker"]
  }]
  dns = {
    node_local_dns_cache        = true
    coredns_autoscaler          = {} # the cluster-proportional-autoscaler's published defaults
    coredns_queries_per_replica = 5000
  }
  concurrent_rollouts = "one"
}

output "peak_nodes" {
  value = kubefit_capacity_check.shop.peak_nodes
}

output "dns_binding" {
  value = kubefit_capacity_check.shop.dns_result.binding
}
