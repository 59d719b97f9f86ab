data "kubefit_instance_type" "m5" {
  cloud = "aws"
  name  = "m5.large"
}

output "m5_large" {
  value = {
    vcpu         = data.kubefit_instance_type.m5.vcpu
    memory_mib   = data.kubefit_instance_type.m5.memory_mib
    eni_max_pods = data.kubefit_instance_type.m5.eni_max_pods
    price        = "${data.kubefit_instance_type.m5.price_usd_per_hour} USD/h in ${data.kubefit_instance_type.m5.price_region}"
    catalog_date = data.kubefit_instance_type.m5.catalog_date
  }
}
