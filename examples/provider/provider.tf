terraform {
  required_providers {
    kubefit = {
      source = "kubefit/kubefit"
    }
  }
}

# The provider has no settings: it computes offline from its embedded catalog.
provider "kubefit" {}
