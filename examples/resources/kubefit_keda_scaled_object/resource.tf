# The field report's ScaledObject: Deployment "promfiberdeploy" scaled 1–5 on a Prometheus query.
# kubefit renders the same object the hand-written kubernetes_manifest held, checked at plan time.
resource "kubefit_keda_scaled_object" "prometheus" {
  name              = "prometheus-scaledobject"
  namespace         = "default"
  scale_target_ref  = { name = "promfiberdeploy" }
  min_replica_count = 1
  max_replica_count = 5
  triggers = [{
    type = "prometheus"
    metadata = {
      serverAddress = "http://prometheus-server.monitoring.svc.cluster.local:80"
      threshold     = "100"
      query         = "sum(irate(http_requests_total[1m]))"
    }
  }]
}

# With the KEDA CRD installed, hand the object to the kubernetes provider:
#
#   resource "kubernetes_manifest" "prometheus_so" {
#     manifest = kubefit_keda_scaled_object.prometheus.manifest
#   }

# An API scaled on requests per second and CPU, checked against the node group it runs on and the
# database its pods share. node_group_capacity is normally a kubefit_node_group's `capacity`; here it is
# written out in that shape: per node, 3,620m CPU and 6 GiB are left for workloads after DaemonSets, 7 pods
# of 500m. The zone spread binds first: 10 nodes over three zones are 3 a zone (21 pods each), so the zones hold
# 63 pods of the api where the nodes alone would hold 70. Raising max_replica_count: from 41 the database warns
# (KCAP-W2: 41 replicas and 11 surge pods × 5 = 260 connections, above the usable half of 500); from 51 a
# rollout at peak (51 + 13 surge pods = 64) does not fit the 63 (KCAP-W1, naming 50 as the largest maximum whose
# rollout fits); from 64 the plan fails (KCAP-E3: the largest safe count is 63, or 12 nodes, 4 a zone); the
# nodes alone would fail only from 71 (KCAP-E2). With max_connections = 90 it fails on the database (KCAP-E4:
# 25 pods × 5 = 125 connections; the largest safe count is 14).
resource "kubefit_keda_scaled_object" "api" {
  name              = "api"
  namespace         = "shop"
  labels            = { team = "checkout" }
  scale_target_ref  = { name = "api" }
  min_replica_count = 2
  max_replica_count = 20

  advanced = {
    horizontal_pod_autoscaler_config = {
      behavior = {
        scale_up   = { stabilization_window_seconds = 0, select_policy = "Max", policies = [{ type = "Pods", value = 4, period_seconds = 15 }] }
        scale_down = { stabilization_window_seconds = 300, policies = [{ type = "Percent", value = 50, period_seconds = 60 }] }
      }
    }
  }

  triggers = [
    {
      type        = "prometheus"
      name        = "rps"
      metric_type = "AverageValue"
      metadata = {
        serverAddress    = "http://prometheus.monitoring:9090"
        query            = "sum(rate(http_requests_total{app=\"api\"}[1m]))"
        threshold        = "50"
        ignoreNullValues = "false"
      }
    },
    { type = "cpu", metric_type = "Utilization", metadata = { value = "70" } },
  ]

  fallback = { failure_threshold = 3, replicas = 6 }

  target_workload = {
    pod_template = {
      containers = [{ name = "api", requests = { cpu = "500m", memory = "512Mi" } }]
    }
    rollout             = { strategy = "RollingUpdate", max_surge = "25%" }
    topology_spread     = [{ topology_key = "topology.kubernetes.io/zone", max_skew = 1, when_unsatisfiable = "DoNotSchedule" }]
    connections_per_pod = 5
  }

  node_group_capacity = {
    name      = "general"
    max_nodes = 10
    zones     = ["eu-west-1a", "eu-west-1b", "eu-west-1c"]
    workload_allocatable = {
      cpu_millicores  = 3620
      memory_bytes    = 6442450944
      ephemeral_bytes = 19327352832
    }
    workload_pods = 54
  }

  database = { name = "orders-postgres", max_connections = 500 }
}

output "prometheus_yaml" {
  value = kubefit_keda_scaled_object.prometheus.yaml
}

output "api_hpa_name" {
  value = kubefit_keda_scaled_object.api.hpa_name
}
