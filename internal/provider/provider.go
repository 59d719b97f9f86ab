// Package provider is kubefit's Terraform edge: schemas, models, conversion between Terraform values and
// planner types (expand…/flatten…), and diagnostics (planner errors carry typed paths, mapped to attributes by
// attributePath). Planning rules and figures come from internal/planner; the edge only parses quantities,
// converts and reports.
package provider

import (
	"context"
	"sync"
	"sync/atomic"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
)

// Address is the provider's registry address.
const Address = "registry.terraform.io/kubefit/kubefit"

var _ provider.Provider = (*kubefitProvider)(nil)

type kubefitProvider struct {
	version string
	// azure is zero in every provider New makes: live Azure lookups then use azidentity's default credential
	// chain and azcore's default HTTP client (system roots). Only the acceptance tests set it, to reach a
	// loopback ARM fake (see provider_live_azure_test.go); nothing in the configuration can.
	azure azureClient

	configured atomic.Pointer[providerData] // what Configure gave data sources and resources
}

// dataSourceData is what Configure gave data sources: nil before it ran (the framework's server gives nil then
// too).
func (p *kubefitProvider) dataSourceData() any {
	if d := p.configured.Load(); d != nil {
		return d
	}
	return nil
}

// azureClient replaces the credential and the HTTP transport of live Azure lookups. A nil field keeps the
// production default.
type azureClient struct {
	credential azcore.TokenCredential
	transport  policy.Transporter
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
			"Its configuration is optional: by default (`catalog_source = \"embedded\"`) it makes no network call. " +
			"With `catalog_source` set to `prefer_embedded` or `live` and an `aws` or `azure` block, instance types are " +
			"also looked up in the cloud's own API (EC2 `DescribeInstanceTypes`, Azure Resource SKUs), once per run and " +
			"cloud; see `catalog_source`.",
		Attributes: providerAttributes(),
	}
}

func (p *kubefitProvider) Configure(ctx context.Context, req provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	cat := configureCatalog(ctx, req.Config, p.azure, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	data := &providerData{catalog: cat, warned: &sync.Map{}}
	resp.DataSourceData = data
	resp.ResourceData = data
	p.configured.Store(data)
}

func (p *kubefitProvider) DataSources(_ context.Context) []func() datasource.DataSource {
	return []func() datasource.DataSource{
		newInstanceTypeDataSource,
		newInstanceTypesDataSource,
		newNodeOverheadDataSource,
		newBurstBudgetDataSource,
		newNodePoolSizingDataSource,
		newNodePoolRecommendationDataSource,
		newDiskTierDataSource,
		newWorkloadsDataSource,
	}
}

func (p *kubefitProvider) Resources(_ context.Context) []func() resource.Resource {
	return []func() resource.Resource{
		newStorageClassResource,
		newNodeGroupResource,
		newKEDAScaledObjectResource,
		newHorizontalPodAutoscalerResource,
		newCapacityCheckResource,
	}
}
