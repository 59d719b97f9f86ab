# A plan that fails on purpose: the field report's load test. A PHP Deployment requests 2,500m CPU per pod;
# its KEDA ScaledObject may scale it to 40 replicas, but the c5.xlarge node group (EKS, AL2023, managed)
# may grow to 20 nodes, and one node has room for one such pod next to its DaemonSets. kubefit fails the
# plan on the ScaledObject's max_replica_count (rule KCAP-E2), naming the node group and the largest safe
# count (20); raising the group's max_size to 40, or lowering max_replica_count to 20, passes.
#
# `make examples` checks that this plan fails; the provider's tests check the message.

resource "kubefit_node_group" "php" {
  name          = "php"
  cloud         = "aws"
  instance_type = "c5.xlarge"
  profile       = "eks-al2023"
  zones         = ["us-east-1a", "us-east-1b"]
  max_size      = 20
  daemonsets = [
    { name = "kube-proxy", requests = { cpu = "100m", memory = "64Mi" } },
    { name = "aws-node", requests = { cpu = "50m" } },
  ]
  # The group is sized for the Deployment's steady state; the ScaledObject checks its peak against the
  # group's capacity.
  workloads = [
    { name = "php", replicas = 2, requests = { cpu = "2500m", memory = "1Gi" } },
  ]
}

resource "kubefit_keda_scaled_object" "php" {
  name              = "php"
  namespace         = "web"
  scale_target_ref  = { name = "php" }
  min_replica_count = 2
  max_replica_count = 40
  triggers = [{
    type     = "prometheus"
    metadata = { serverAddress = "http://prometheus.monitoring:9090", query = "sum(rate(http_requests_total{app=\"php\"}[1m]))", threshold = "100" }
  }]
  target_workload = {
    pod_template = { containers = [{ name = "php", requests = { cpu = "2500m", memory = "1Gi" } }] }
  }
  node_group_capacity = kubefit_node_group.php.capacity
}
