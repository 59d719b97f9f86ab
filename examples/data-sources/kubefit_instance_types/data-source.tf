# General-purpose, compute- and memory-optimised Intel and AMD types of the 6th and 7th generation with
# 4 to 16 vCPUs, no burstable or bare-metal types, at most 1 USD per hour (reference on-demand prices of
# the catalog's region and date), cheapest first.
data "kubefit_instance_types" "mcr" {
  cloud            = "aws"
  families         = ["m6?", "m7?", "c6?", "c7?", "r6?", "r7?"]
  exclude_families = ["*g", "*gd", "*gn"] # Graviton: kept out here, as the architecture below also does
  generation       = { min = 6, max = 7 }
  vcpu             = { min = 4, max = 16 }
  architecture     = "x86_64"
  burstable        = false
  bare_metal       = false
  gpus             = { max = 0 }

  # At least 58 pods per node under the EKS AL2023 image of a managed node group.
  max_pods = { min = 58 }
  profile  = "eks-al2023"
  eks      = { node_group_kind = "managed" }

  max_price_per_hour = 1
  sort_by            = "price"
}

output "candidates" {
  value = data.kubefit_instance_types.mcr.names
}

output "cheapest" {
  value = {
    name         = data.kubefit_instance_types.mcr.instance_types[0].name
    vcpu         = data.kubefit_instance_types.mcr.instance_types[0].vcpu
    memory_mib   = data.kubefit_instance_types.mcr.instance_types[0].memory_mib
    usd_per_hour = data.kubefit_instance_types.mcr.instance_types[0].price_usd_per_hour
    price        = "${data.kubefit_instance_types.mcr.instance_types[0].price_region}, ${data.kubefit_instance_types.mcr.instance_types[0].price_date}"
  }
}
