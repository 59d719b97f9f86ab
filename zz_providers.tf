terraform {
  required_providers {
    kubefit = { source = "kubefit/kubefit" }
  }
}
