# The field report's fix: Azure Premium SSD without host caching, keeping the disk when the PVC goes.
# kubefit checks the class at plan time and reports what a 256 GiB volume of it gives (a P15) on the
# nodes it attaches to: a Standard_D4s_v5 sustains 6,400 IOPS and 145 MB/s uncached, enough for 1,000
# IOPS of 16 KiB.
resource "kubefit_storage_class" "premium_retain" {
  name           = "premium-retain"
  driver         = "disk.csi.azure.com"
  reclaim_policy = "Retain"
  azure_disk = {
    sku_name     = "Premium_LRS"
    caching_mode = "None"
  }
  expected_volume_size_gib = 256
  required_iops            = 1000
  node_instance_type       = "Standard_D4s_v5"
  io = {
    queue_depth = 4
    latency_ms  = 2.5
  }
}

# gp3 with 6,000 IOPS and 500 MiB/s: valid for PVCs of 12 GiB or more (6,000 / 500 IOPS per GiB),
# which min_volume_size_gib reports. Setting iops = 16000 with expected_volume_size_gib = 20 would
# fail the plan (EBS-V4: at most 500 IOPS per GiB).
resource "kubefit_storage_class" "gp3_fast" {
  name   = "gp3-6000-500"
  driver = "ebs.csi.aws.com"
  ebs = {
    type       = "gp3"
    iops       = 6000
    throughput = 500
    encrypted  = true
    fs_type    = "xfs"
  }
  allowed_topologies = [{
    match_label_expressions = [{
      key    = "topology.kubernetes.io/zone"
      values = ["eu-west-1a", "eu-west-1b"]
    }]
  }]
}

# Pass the rendered object to the Kubernetes provider as it is:
#
# resource "kubernetes_manifest" "premium_retain" {
#   manifest = kubefit_storage_class.premium_retain.manifest
# }

output "premium_retain_yaml" {
  value = kubefit_storage_class.premium_retain.yaml
}

output "gp3_min_pvc_gib" {
  value = kubefit_storage_class.gp3_fast.min_volume_size_gib # 12
}

output "premium_retain_limited_by" {
  value = kubefit_storage_class.premium_retain.performance.limited_by # "tier": the P15, not the VM
}
