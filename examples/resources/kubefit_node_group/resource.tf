# Size an EKS managed node group for an HPA-scaled PHP app and its DaemonSets, and wire the result into
# aws_eks_node_group (shown in the docs; this example plans with the kubefit provider alone).
resource "kubefit_node_group" "php" {
  name          = "php"
  cloud         = "aws"
  instance_type = "c5.xlarge"
  zones         = ["us-east-1a", "us-east-1b"]
  labels        = { team = "web" }
  capacity_type = "on_demand"
  disk_size_gib = 50
  max_size      = 40
  daemonsets = [
    { name = "kube-proxy", requests = { cpu = "100m", memory = "64Mi" } },
    { name = "aws-node", requests = { cpu = "50m" } },
  ]
  workloads = [
    { name = "php", min_replicas = 3, max_replicas = 40, requests = { cpu = "2500m", memory = "1Gi" } },
  ]
  # Fail the plan if the group cannot lose its busiest node at steady state.
  disruptions = ["node_loss"]
}

output "scaling" {
  value = kubefit_node_group.php.eks_node_group.scaling_config
}

output "eksctl" {
  value = kubefit_node_group.php.eksctl_yaml
}
