# Plan the next change against what a running cluster really has: `kubectl get nodes,pods,pvc -A -o json`
# saved as cluster.json. Its node groups become measured pools, its running pods the existing load; the web
# Deployment of rendered.yaml (the change) replaces the web pods running in the cluster.
data "kubefit_workloads" "live" {
  cluster   = file("${path.module}/cluster.json")
  manifests = file("${path.module}/rendered.yaml")
  namespace = "shop"
  # Plan the application only; the node agents are DaemonSets and stay in.
  exclude = [{ kinds = ["Job"], namespaces = ["ml"] }]
}

data "kubefit_node_pool_sizing" "live" {
  # Let the general pool grow to 20 nodes; keep the others at their current size.
  pools = { for name, p in data.kubefit_workloads.live.pools :
  name => name == "general" ? merge(p, { max_nodes = 20 }) : p }
  daemonsets = data.kubefit_workloads.live.daemonsets
  workloads  = data.kubefit_workloads.live.workloads
}

output "live_pools" {
  value = { for name, p in data.kubefit_workloads.live.pools : name => "${length(p.nodes)} × ${p.instance_type}, allocatable ${p.measured_allocatable.cpu} CPU" }
}

output "live_general_nodes_required" {
  value = data.kubefit_node_pool_sizing.live.pool_results["general"].peak.nodes_required
}
