package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/sizing"
)

// providerData is what Configure hands to every data source and resource: the catalog all of them look
// instance types and credit budgets up in.
type providerData struct {
	catalog sizing.Catalog
}

// catalogClient holds the configured catalog of one data source or resource. Before the provider is
// configured (as during validation) it falls back to the embedded catalog.
type catalogClient struct {
	configured sizing.Catalog
}

func (c *catalogClient) catalog() sizing.Catalog {
	if c.configured == nil {
		return sizing.EmbeddedCatalog()
	}
	return c.configured
}

func (c *catalogClient) configure(data any, diags *diag.Diagnostics) {
	if data == nil {
		return
	}
	pd, ok := data.(*providerData)
	if !ok {
		diags.AddError("Unexpected Provider Data", fmt.Sprintf("expected *providerData, got %T; this is a bug in the provider.", data))
		return
	}
	c.configured = pd.catalog
}

// dataSourceCatalog gives a data source the provider's catalog.
type dataSourceCatalog struct{ catalogClient }

// Configure takes the catalog from the provider data.
func (d *dataSourceCatalog) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.configure(req.ProviderData, &resp.Diagnostics)
}

// resourceCatalog gives a resource the provider's catalog.
type resourceCatalog struct{ catalogClient }

// Configure takes the catalog from the provider data.
func (r *resourceCatalog) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.configure(req.ProviderData, &resp.Diagnostics)
}
