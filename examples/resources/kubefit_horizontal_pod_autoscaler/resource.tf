# A web Deployment scaled 3–12 on CPU and on requests per second, checked at plan time against the API
# server's HPA rules, the node group it runs on and the database its pods share. node_group_capacity is
# normally a kubefit_node_group's `capacity`; here it is written out in that shape: per node, 3,620m CPU
# and 6 GiB are left for workloads after DaemonSets: 7 pods of 500m a node, 70 on the 10 nodes. Raising
# max_replicas: from 18 the capacity check below warns on the shared database (KCAP-W2: 23 web pods with
# their surge and the worker's 8, × 5 = 155 connections, above the usable half of 300), from 25 so does the
# web's own database check; from 42 the capacity check fails there (KCAP-E4: 53 + 8 pods × 5 = 305 > 300,
# naming 41 as the web's largest safe maxReplicas), from 49 the web's own check too (62 pods × 5 = 310);
# from 57 a rollout at peak (57 + 15 surge pods) exceeds the 70 pods the group holds (KCAP-W1), and from 71
# the peak itself does (KCAP-E2, the largest safe maxReplicas 70, or 11 nodes). With max_connections = 50 in
# the web's database it fails there (KCAP-E4: 15 pods × 5 = 75; the largest safe maxReplicas is 8).
resource "kubefit_horizontal_pod_autoscaler" "web" {
  name         = "web"
  namespace    = "shop"
  labels       = { team = "checkout" }
  min_replicas = 3
  max_replicas = 12

  scale_target_ref = { api_version = "apps/v1", kind = "Deployment", name = "web" }

  metrics = [
    {
      type     = "Resource"
      resource = { name = "cpu", target = { type = "Utilization", average_utilization = 70 } }
    },
    {
      type = "Pods"
      pods = {
        metric = { name = "http_requests_per_second" }
        target = { type = "AverageValue", average_value = "50" }
      }
    },
  ]

  behavior = {
    scale_up   = { stabilization_window_seconds = 0, policies = [{ type = "Pods", value = 4, period_seconds = 15 }] }
    scale_down = { stabilization_window_seconds = 300, select_policy = "Min", policies = [{ type = "Percent", value = 50, period_seconds = 60 }] }
  }

  target_workload = {
    pod_template        = { containers = [{ name = "web", requests = { cpu = "500m", memory = "512Mi" } }] }
    rollout             = { strategy = "RollingUpdate", max_surge = "25%" }
    connections_per_pod = 5
  }

  node_group_capacity = {
    name                 = "general"
    max_nodes            = 10
    zones                = ["eu-west-1a", "eu-west-1b", "eu-west-1c"]
    workload_allocatable = { cpu_millicores = 3620, memory_bytes = 6442450944 }
    workload_pods        = 54
  }

  database = { name = "orders-postgres", max_connections = 300 }
}

# A queue worker that scales to zero on the queue's depth (an External metric; HPAScaleToZero is on by
# default from Kubernetes 1.37).
resource "kubefit_horizontal_pod_autoscaler" "worker" {
  name             = "worker"
  namespace        = "shop"
  min_replicas     = 0
  max_replicas     = 8
  scale_target_ref = { api_version = "apps/v1", kind = "Deployment", name = "worker" }
  metrics = [{
    type = "External"
    external = {
      metric = { name = "sqs_messages_visible", selector = { match_labels = { queue = "orders" } } }
      target = { type = "AverageValue", average_value = "20" }
    }
  }]
  target_workload = {
    pod_template        = { containers = [{ name = "worker", requests = { cpu = "250m", memory = "256Mi" } }] }
    rollout             = { strategy = "Recreate" }
    connections_per_pod = 5
  }
  node_group_capacity = kubefit_horizontal_pod_autoscaler.web.node_group_capacity
}

# Both on the group and the database together, and one autoscaler per target.
resource "kubefit_capacity_check" "shop" {
  horizontal_pod_autoscalers = [kubefit_horizontal_pod_autoscaler.web.summary, kubefit_horizontal_pod_autoscaler.worker.summary]
  node_groups                = [kubefit_horizontal_pod_autoscaler.web.node_group_capacity]
  databases = [{
    name            = "orders-postgres"
    max_connections = 300
    clients         = ["shop/web", "shop/worker"]
  }]
}

# With the kubernetes provider, hand the object over as is:
#
#   resource "kubernetes_manifest" "web_hpa" {
#     manifest = kubefit_horizontal_pod_autoscaler.web.manifest
#   }

output "web_hpa_yaml" {
  value = kubefit_horizontal_pod_autoscaler.web.yaml
}
