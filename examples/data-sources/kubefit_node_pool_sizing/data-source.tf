# Two pools on EKS: general-purpose m5.large nodes across three zones, and a tainted GPU pool.
data "kubefit_node_pool_sizing" "cluster" {
  pools = {
    general = {
      cloud         = "aws"
      instance_type = "m5.large"
      profile       = "eks-al2023"
      eks           = { node_group_kind = "managed" }
      min_nodes     = 2
      max_nodes     = 10
      zones         = ["eu-west-1a", "eu-west-1b", "eu-west-1c"]
      labels        = { role = "web" }
    }
    gpu = {
      cloud         = "aws"
      instance_type = "g5.xlarge"
      max_nodes     = 2
      taints        = [{ key = "nvidia.com/gpu", value = "true", effect = "NoSchedule" }]
    }
  }
  daemonsets = [
    { name = "aws-node", requests = { cpu = "50m" } },
    { name = "kube-proxy", requests = { cpu = "100m" } },
    { name = "fluent-bit", requests = { cpu = "100m", memory = "128Mi" }, tolerations = [{ operator = "Exists" }] },
  ]
  workloads = [
    {
      name          = "api"
      min_replicas  = 3
      max_replicas  = 12
      max_surge     = "25%"
      requests      = { cpu = "500m", memory = "512Mi" }
      node_selector = { role = "web" }
      # As a chart renders them: keep replicas off each other's nodes if possible, and even across nodes.
      labels = { app = "api" }
      pod_anti_affinity = {
        preferred = [{ weight = 100, topology_key = "kubernetes.io/hostname", label_selector = { match_labels = { app = "api" } } }]
      }
      topology_spread = [
        {
          max_skew       = 2, topology_key = "kubernetes.io/hostname", when_unsatisfiable = "ScheduleAnyway",
          label_selector = { match_labels = { app = "api" } }
        },
        {
          # Even across zones. Honor: in a zone outage the lost nodes stay in the cluster, tainted unreachable;
          # with the default (Ignore) their zone would still count, empty, and hold the replacements Pending.
          max_skew           = 1, topology_key = "topology.kubernetes.io/zone", when_unsatisfiable = "DoNotSchedule",
          node_taints_policy = "Honor", label_selector = { match_labels = { app = "api" } }
        },
      ]
    },
    {
      name        = "trainer"
      replicas    = 1
      requests    = { cpu = "2", memory = "8Gi", gpu = 1 }
      tolerations = [{ key = "nvidia.com/gpu", operator = "Exists", effect = "NoSchedule" }]
      pools       = ["gpu"]
    },
    {
      # A database StatefulSet: one replica per node, each with a zonal block volume of its own (each claim
      # takes one of the node's EBS attachments; `kubefit_workloads` reads these from the manifests).
      name          = "postgres"
      replicas      = 3
      requests      = { cpu = "250m", memory = "1Gi" }
      node_selector = { role = "web" }
      spread        = { type = "node" }
      volume_claims = [{ name = "data", size = "100Gi", storage_class = "gp3", access_modes = ["ReadWriteOnce"] }]
    },
  ]
  # Can the cluster lose its busiest node, or a whole zone?
  disruptions = ["node_loss", "zone_loss"]
}

output "fits" {
  value = data.kubefit_node_pool_sizing.cluster.fits
}

output "general_nodes" {
  value = {
    steady = data.kubefit_node_pool_sizing.cluster.pool_results["general"].steady.nodes_required
    peak   = data.kubefit_node_pool_sizing.cluster.pool_results["general"].peak.nodes_required
  }
}

output "disruptions" {
  value = { for k, d in data.kubefit_node_pool_sizing.cluster.disruption_results : k => d.message }
}

output "report" {
  value = data.kubefit_node_pool_sizing.cluster.report
}
