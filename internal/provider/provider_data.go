package provider

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/kubefit/terraform-provider-kubefit/internal/livecatalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/overhead"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/sizing"
)

// providerData is what Configure hands to every data source and resource: the catalog all of them look
// instance types and credit budgets up in.
type providerData struct {
	catalog sizing.Catalog
	// warned holds the caveats already shown in this provider process (one plan or apply): the overhead
	// model's "not measured" caveat is shown once per plan, by the first object that meets it.
	warned *sync.Map
}

// catalogClient holds the configured catalog of one data source or resource. Before the provider is
// configured (as during validation) it falls back to the embedded catalog, except that a name the embedded
// catalog lacks is not an error there: the configured catalog may be live and know it, so the check waits
// for the read.
type catalogClient struct {
	configured sizing.Catalog
	warned     *sync.Map
}

// oncePerPlan drops the overhead model's "not measured" caveats another object of this plan has already shown
// (matched without the pools a sizing names at its end, sizing.NotMeasuredPools). Before the provider is
// configured every warning is kept.
func (c *catalogClient) oncePerPlan(ws []field.Warning) []field.Warning {
	if c.warned == nil {
		return ws
	}
	out := make([]field.Warning, 0, len(ws))
	for _, w := range ws {
		if w.Code == overhead.CodeNotMeasured {
			key, _, _ := strings.Cut(w.Message, sizing.NotMeasuredPools)
			if _, shown := c.warned.LoadOrStore(key, true); shown {
				continue
			}
		}
		out = append(out, w)
	}
	return out
}

func (c *catalogClient) catalog() sizing.Catalog {
	if c.configured == nil {
		return unconfiguredCatalog{sizing.EmbeddedCatalog()}
	}
	return c.configured
}

// warningLookup is implemented by catalogs whose lookups can succeed with caveats or fail in a way the
// provider words itself: *livecatalog.Catalog, and unconfiguredCatalog.
type warningLookup interface {
	Lookup(ctx context.Context, cloud catalog.Cloud, name string) (catalog.InstanceType, []string, error)
}

// errReported is returned by catalogLookup for a lookup whose problem is already a diagnostic (or, before
// the provider is configured, deliberately not one); lookupInstance then stops without adding another.
var errReported = errors.New("lookup problem already reported")

// catalogLookup is cat.InstanceType plus the diagnostics of a live catalog: each warning of the lookup
// becomes an attribute warning at p, and a failed live fetch (catalog_source = "live") an attribute error
// at p. Other errors are returned for lookupInstance to report.
func catalogLookup(ctx context.Context, cat sizing.Catalog, p path.Path, cloud catalog.Cloud, name string, diags *diag.Diagnostics) (catalog.InstanceType, error) {
	wl, ok := cat.(warningLookup)
	if !ok {
		return cat.InstanceType(ctx, cloud, name)
	}
	it, warns, err := wl.Lookup(ctx, cloud, name)
	for _, w := range warns {
		diags.AddAttributeWarning(p, "Live Instance Type Lookup", w)
	}
	var le *livecatalog.Error
	if errors.As(err, &le) {
		logLiveCause(ctx, err)
		diags.AddAttributeError(p, "Live Catalog Lookup Failed", fmt.Sprintf("Looking up %q: %v. With catalog_source = "+
			"\"live\" this is an error; \"prefer_embedded\" would use the embedded catalog (dated %s) instead.", name, err, cat.Date()))
		return it, errReported
	}
	return it, err
}

// warningList is implemented by catalogs whose listings can succeed with caveats: *livecatalog.Catalog.
type warningList interface {
	List(ctx context.Context, cloud catalog.Cloud) ([]catalog.InstanceType, []string, error)
}

// catalogList is cat.InstanceTypes with the diagnostics of a live catalog: each warning of the listing (a
// failed fetch under catalog_source = "prefer_embedded", which lists the embedded rows) becomes an
// attribute warning at p, and a failed fetch under "live" an attribute error at p. ok is false when the
// listing failed (the failure is then a diagnostic).
func catalogList(ctx context.Context, cat sizing.Catalog, p path.Path, cloud catalog.Cloud, diags *diag.Diagnostics) ([]catalog.InstanceType, bool) {
	var (
		all   []catalog.InstanceType
		warns []string
		err   error
	)
	if wl, ok := cat.(warningList); ok {
		all, warns, err = wl.List(ctx, cloud)
	} else {
		all, err = cat.InstanceTypes(ctx, cloud)
	}
	for _, w := range warns {
		diags.AddAttributeWarning(p, "Live Instance Type Lookup", w)
	}
	var le *livecatalog.Error
	switch {
	case errors.As(err, &le):
		logLiveCause(ctx, err)
		diags.AddAttributeError(p, "Live Catalog Lookup Failed", fmt.Sprintf("Listing the %s instance types: %v. With "+
			"catalog_source = \"live\" this is an error; \"prefer_embedded\" would use the embedded catalog (dated %s) instead.",
			cloud, err, cat.Date()))
		return nil, false
	case err != nil:
		diags.AddError("Catalog Lookup Failed", err.Error())
		return nil, false
	}
	return all, true
}

// unconfiguredCatalog is the embedded catalog as seen before Configure: a name it lacks is reported as
// errReported (no diagnostic), because the configured catalog may be live and know the name.
type unconfiguredCatalog struct{ sizing.Catalog }

// Lookup implements warningLookup.
func (u unconfiguredCatalog) Lookup(ctx context.Context, cloud catalog.Cloud, name string) (catalog.InstanceType, []string, error) {
	it, err := u.InstanceType(ctx, cloud, name)
	var nf *catalog.NotFoundError
	if errors.As(err, &nf) {
		return it, nil, errReported
	}
	return it, nil, err
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
	c.configured, c.warned = pd.catalog, pd.warned
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

// logLiveCause logs, at debug level (TF_LOG=debug), the SDK's own error behind a failed live lookup whose
// diagnostic says what failed in kubefit's words (missing credentials).
func logLiveCause(ctx context.Context, err error) {
	var ce *livecatalog.CredentialsError
	if errors.As(err, &ce) && ce.Err != nil {
		tflog.Debug(ctx, "live catalog credentials: the SDK's error", map[string]any{"cloud": string(ce.Cloud), "sdk_error": ce.Err.Error()})
	}
}
