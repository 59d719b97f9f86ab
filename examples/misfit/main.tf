# A plan that fails on purpose (run it with `make demo-misfit`). Four AKS Standard_DS1_v2 nodes (1 vCPU,
# 3.5 GiB, Kubernetes 1.28, as in a 2019 field report of a small AKS cluster) lose 60m CPU to kube-reserved
# and 355m to three DaemonSets each, and the system and web pods below request 1,775m: 565m is left on the
# pool. Four more pods of 100m would fit; four of 200m do not. The pods reach the scheduler largest first, so
# prometheus-operator (500m of a node's 585m) gets a node of its own as it did in the field cluster; in a
# rollout of everything at once (the default arrival_order) it may find no node with 500m left at all. The
# workloads count in list order, each earlier one already running, so the plan fails naming the last
# workload, "new-service", the CPU it is short by, and how many of its replicas would fit.

terraform {
  required_providers {
    kubefit = {
      source = "kubefit/kubefit"
    }
  }
}

data "kubefit_node_pool_sizing" "small_aks" {
  pools = {
    agentpool = {
      cloud              = "azure"
      instance_type      = "Standard_DS1_v2"
      kubernetes_version = "1.28"
      max_pods           = 110
      min_nodes          = 4
      max_nodes          = 4
    }
  }
  daemonsets = [
    { name = "calico-node", requests = { cpu = "250m" } },
    { name = "kube-proxy", requests = { cpu = "100m" } },
    { name = "kube-svc-redirect", requests = { cpu = "5m", memory = "32Mi" } },
  ]
  # These are the field cluster's own system DaemonSets (2019, with Calico): count them alone, not today's
  # measured AKS set, which kubefit adds by default.
  system_daemonsets = "listed"
  workloads = [
    { name = "dashboard", replicas = 1, requests = { cpu = "100m", memory = "50Mi" } },
    { name = "tunnelfront", replicas = 1, requests = { cpu = "10m", memory = "64Mi" } },
    { name = "coredns", replicas = 2, requests = { cpu = "100m", memory = "70Mi" } },
    { name = "coredns-autoscaler", replicas = 1, requests = { cpu = "20m", memory = "10Mi" } },
    { name = "heapster", replicas = 1, requests = { cpu = "130m", memory = "230Mi" } },
    { name = "grafana", replicas = 1, requests = { cpu = "200m", memory = "500Mi" } },
    { name = "prometheus-operator", replicas = 1, requests = { cpu = "500m", memory = "1000Mi" } },
    { name = "alertmanager", replicas = 1, requests = { cpu = "100m", memory = "225Mi" } },
    { name = "flux", replicas = 1, requests = { cpu = "50m", memory = "64Mi" } },
    { name = "flux-helm-operator", replicas = 1, requests = { cpu = "50m", memory = "64Mi" } },
    { name = "api-a", replicas = 2, requests = { cpu = "100m", memory = "200Mi" } },
    { name = "api-b", replicas = 2, requests = { cpu = "50m", memory = "100Mi" } },
    { name = "canary-a", replicas = 1, requests = { cpu = "40m", memory = "500Mi" } },
    { name = "canary-b", replicas = 1, requests = { cpu = "40m", memory = "500Mi" } },
    { name = "web-1", replicas = 1, requests = { cpu = "5m", memory = "10Mi" } },
    { name = "web-2", replicas = 1, requests = { cpu = "10m", memory = "42Mi" } },
    { name = "web-3", replicas = 1, requests = { cpu = "5m", memory = "21Mi" } },
    { name = "web-4", replicas = 1, requests = { cpu = "10m", memory = "30Mi" } },
    { name = "web-5", replicas = 1, requests = { cpu = "5m", memory = "15Mi" } },
    { name = "new-service", replicas = 4, requests = { cpu = "200m", memory = "64Mi" } },
  ]
  arrival_order = "largest-first"
}

output "report" {
  value = data.kubefit_node_pool_sizing.small_aks.report
}
