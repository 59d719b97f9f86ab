terraform {
  required_providers {
    kubefit = {
      source = "kubefit/kubefit"
    }
  }
}

# The default: everything computes offline from the embedded, dated catalog. No network call is made.
provider "kubefit" {}

# Optional live lookups, for instance types newer than the embedded catalog. Credentials come from each
# SDK's standard chain (AWS_* environment, ~/.aws, SSO, instance roles; AZURE_* environment, managed
# identity, az login), never from provider attributes. Nothing is fetched until a data source or
# resource actually needs a name the embedded catalog lacks.
provider "kubefit" {
  alias          = "live"
  catalog_source = "prefer_embedded" # or "live": the region's own list first, failures are errors

  aws = {
    region      = "us-east-1"
    max_retries = 3
  }

  azure = {
    location = "eastus"
    # subscription_id defaults to AZURE_SUBSCRIPTION_ID
  }
}
