# An EKS managed node group of m5.large on the AL2023 AMI: max pods 29,
# kube-reserved 70m / 574Mi / 1Gi, eviction at 100Mi.
data "kubefit_node_overhead" "eks" {
  cloud         = "aws"
  instance_type = "m5.large"
  profile       = "eks-al2023"
  eks           = { node_group_kind = "managed" }
  daemonsets = [
    { name = "aws-node", requests = { cpu = "50m" } },
    { name = "kube-proxy", requests = { cpu = "100m" } },
    { name = "fluent-bit", requests = { cpu = "100m", memory = "128Mi" } },
  ]
}

# A 2019 AKS node with the capacity its kubelet reported: allocatable 940m and 1814948Ki.
data "kubefit_node_overhead" "aks" {
  cloud              = "azure"
  instance_type      = "Standard_DS1_v2"
  kubernetes_version = "1.28"
  measured_capacity  = { memory = "3500452Ki" }
}

output "eks_left_for_pods" {
  value = "${data.kubefit_node_overhead.eks.available.cpu} CPU, ${data.kubefit_node_overhead.eks.available.memory}, ${data.kubefit_node_overhead.eks.available.pods} pods"
}

output "eks_kubelet_args" {
  value = data.kubefit_node_overhead.eks.kubelet_args
}

output "aks_allocatable" {
  value = data.kubefit_node_overhead.aks.allocatable
}

# How the figures are backed: "exact on 1 measured node (t3.medium)" for this AL2023 scope,
# "exact on 5 measured nodes" for the AKS 1.28 node above, "measured" for the f1-micro below
# (60m, 255Mi + 100Mi); a version with no measured node says "published table" (AKS 1.29).
output "eks_evidence" {
  value = data.kubefit_node_overhead.eks.evidence.summary
}

data "kubefit_node_overhead" "gke_micro" {
  cloud         = "gcp"
  instance_type = "f1-micro"
}

output "gke_micro_evidence" {
  value = "${data.kubefit_node_overhead.gke_micro.allocatable.cpu} allocatable CPU; ${data.kubefit_node_overhead.gke_micro.evidence.summary}"
}
