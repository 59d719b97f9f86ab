# An AKS user pool over two zones, auto-scaled between the steady and the peak node counts; aks_node_pool holds
# the arguments of azurerm_kubernetes_cluster_node_pool (azurerm v4 names), unchanged.
resource "kubefit_node_group" "user" {
  name          = "user"
  cloud         = "azure"
  instance_type = "Standard_D4s_v5"
  zones         = ["1", "2"]
  labels        = { tier = "api" }
  taints        = [{ key = "sku", value = "api", effect = "NoSchedule" }]
  workloads = [
    { name = "api", min_replicas = 4, max_replicas = 12, requests = { cpu = "1", memory = "2Gi" },
    tolerations = [{ key = "sku", operator = "Exists" }] },
  ]
}

output "aks_node_pool" {
  value = kubefit_node_group.user.aks_node_pool
}

# The same pool for the Azure/aks module's node_pools: node_count is null while the pool auto-scales, and
# temporary_name_for_rotation lets azurerm rotate the pool when vm_size, max_pods, os_disk_size_gb or zones change.
output "aks_module_node_pool" {
  value = kubefit_node_group.user.aks_module_node_pool
}
