package provider

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/kubefit/terraform-provider-kubefit/internal/livecatalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/sizing"
)

// configure runs the provider's Configure on a raw configuration built by attrs from the schema's types.
func configure(t *testing.T, attrs func(ty tftypes.Object) map[string]tftypes.Value) *provider.ConfigureResponse {
	t.Helper()
	ctx := context.Background()
	p := New("test")()
	var sresp provider.SchemaResponse
	p.Schema(ctx, provider.SchemaRequest{}, &sresp)
	ty := sresp.Schema.Type().TerraformType(ctx).(tftypes.Object)
	vals := map[string]tftypes.Value{}
	for name, at := range ty.AttributeTypes {
		vals[name] = tftypes.NewValue(at, nil)
	}
	for k, v := range attrs(ty) {
		vals[k] = v
	}
	var resp provider.ConfigureResponse
	p.Configure(ctx, provider.ConfigureRequest{Config: tfsdk.Config{Schema: sresp.Schema, Raw: tftypes.NewValue(ty, vals)}}, &resp)
	return &resp
}

func object(ty tftypes.Type, set map[string]tftypes.Value) tftypes.Value {
	o := ty.(tftypes.Object)
	vals := map[string]tftypes.Value{}
	for name, at := range o.AttributeTypes {
		vals[name] = tftypes.NewValue(at, nil)
	}
	for k, v := range set {
		vals[k] = v
	}
	return tftypes.NewValue(o, vals)
}

func TestConfigureCatalog(t *testing.T) {
	str := func(s string) tftypes.Value { return tftypes.NewValue(tftypes.String, s) }
	unknown := tftypes.NewValue(tftypes.String, tftypes.UnknownValue)
	cases := []struct {
		name     string
		attrs    func(ty tftypes.Object) map[string]tftypes.Value
		wantLive livecatalog.Mode // "" = the embedded catalog
		warnings int
	}{
		{"empty", func(tftypes.Object) map[string]tftypes.Value { return nil }, "", 0},
		{"unknown source", func(tftypes.Object) map[string]tftypes.Value {
			return map[string]tftypes.Value{"catalog_source": unknown}
		}, "", 1},
		{"unknown region", func(ty tftypes.Object) map[string]tftypes.Value {
			return map[string]tftypes.Value{"catalog_source": str("live"), "aws": object(ty.AttributeTypes["aws"], map[string]tftypes.Value{"region": unknown})}
		}, "", 1},
		{"unknown block", func(ty tftypes.Object) map[string]tftypes.Value {
			return map[string]tftypes.Value{"catalog_source": str("live"), "azure": tftypes.NewValue(ty.AttributeTypes["azure"], tftypes.UnknownValue)}
		}, "", 1},
		{"blocks but embedded", func(ty tftypes.Object) map[string]tftypes.Value {
			return map[string]tftypes.Value{"aws": object(ty.AttributeTypes["aws"], map[string]tftypes.Value{"region": str("us-east-1")})}
		}, "", 1},
		{"live without blocks", func(tftypes.Object) map[string]tftypes.Value {
			return map[string]tftypes.Value{"catalog_source": str("live")}
		}, "", 1},
		{"live aws and azure", func(ty tftypes.Object) map[string]tftypes.Value {
			return map[string]tftypes.Value{"catalog_source": str("live"),
				"aws":   object(ty.AttributeTypes["aws"], map[string]tftypes.Value{"region": str("us-east-1")}),
				"azure": object(ty.AttributeTypes["azure"], map[string]tftypes.Value{"location": str("eastus"), "subscription_id": str("s")})}
		}, livecatalog.Live, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp := configure(t, tc.attrs)
			if resp.Diagnostics.HasError() || resp.Diagnostics.WarningsCount() != tc.warnings {
				t.Fatalf("diagnostics %v, want %d warnings and no error", resp.Diagnostics, tc.warnings)
			}
			cat := resp.DataSourceData.(*providerData).catalog
			if lc, ok := cat.(*livecatalog.Catalog); ok != (tc.wantLive != "") || (ok && lc.Mode() != tc.wantLive) {
				t.Errorf("catalog %T, want live %q", cat, tc.wantLive)
			}
			if tc.wantLive == "" && cat != sizing.EmbeddedCatalog() {
				t.Errorf("catalog %T, want the embedded catalog", cat)
			}
		})
	}
}
