// Package provider is kubefit's Terraform edge: schemas, models, conversion between Terraform values and
// planner types, and diagnostics. It does no arithmetic of its own; every figure comes from
// internal/planner.
package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/sizing"
)

// Address is the provider's registry address.
const Address = "registry.terraform.io/kubefit/kubefit"

var _ provider.Provider = (*kubefitProvider)(nil)
var _ provider.ProviderWithFunctions = (*kubefitProvider)(nil)

type kubefitProvider struct {
	version string
}

// New returns a constructor for the kubefit provider at the given version.
func New(version string) func() provider.Provider {
	return func() provider.Provider { return &kubefitProvider{version: version} }
}

func (p *kubefitProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "kubefit"
	resp.Version = p.version
}

func (p *kubefitProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "The kubefit provider answers, at `terraform plan` time and without cloud credentials, " +
			"whether workloads fit on node pools, disks and CPU credit budgets. It computes from an embedded, dated " +
			"catalog of AWS, Azure and GCP instance types and documented formulas; every figure names its source. " +
			"The provider has no configuration.",
	}
}

func (p *kubefitProvider) Configure(_ context.Context, _ provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	data := &providerData{catalog: sizing.EmbeddedCatalog()}
	resp.DataSourceData = data
	resp.ResourceData = data
}

func (p *kubefitProvider) DataSources(_ context.Context) []func() datasource.DataSource {
	return []func() datasource.DataSource{
		newInstanceTypeDataSource,
		newNodeOverheadDataSource,
		newBurstBudgetDataSource,
		newNodePoolSizingDataSource,
		newDiskTierDataSource,
	}
}

func (p *kubefitProvider) Resources(_ context.Context) []func() resource.Resource {
	return []func() resource.Resource{
		newStorageClassResource,
		newKEDAScaledObjectResource,
		newCapacityCheckResource,
	}
}

func (p *kubefitProvider) Functions(_ context.Context) []func() function.Function {
	return []func() function.Function{}
}
