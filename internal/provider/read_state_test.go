package provider

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/sizing"
)

// TestSetReadStateIsFrameworkSet: the state setReadState writes for a sizing read is the one state.Set(model)
// writes, value for value, and every case it leaves to the framework gives the framework's result.
func TestSetReadStateIsFrameworkSet(t *testing.T) {
	ctx := context.Background()
	var sr datasource.SchemaResponse
	(&nodePoolSizingDataSource{}).Schema(ctx, datasource.SchemaRequest{}, &sr)
	typ := sr.Schema.Type().TerraformType(ctx)
	cfg := sizingConfig(12)
	cfg["scheduler_profile"] = "most-allocated"
	config := tfsdk.Config{Raw: rpcValue(typ, cfg), Schema: sr.Schema}
	var m nodePoolSizingModel
	if d := config.Get(ctx, &m); d.HasError() {
		t.Fatal(d)
	}
	var diags diag.Diagnostics
	req := expandSizing(ctx, m, &diags)
	plan, err := sizing.NewPlanner(sizing.EmbeddedCatalog()).Solve(ctx, req)
	if err != nil || diags.HasError() {
		t.Fatal(err, diags)
	}
	flattenSizing(&m, plan)

	compare := func(name string, config tfsdk.Config, m nodePoolSizingModel, own bool) {
		t.Helper()
		if _, ok := readState(ctx, config, &m); ok != own {
			t.Errorf("%s: own path %v, want %v", name, ok, own)
		}
		got := tfsdk.State{Schema: sr.Schema, Raw: tftypes.NewValue(typ, nil)}
		want := got
		gd, wd := setReadState(ctx, &got, config, &m), want.Set(ctx, &m)
		if !gd.Equal(wd) || !got.Raw.Equal(want.Raw) {
			diff, _ := got.Raw.Diff(want.Raw)
			t.Errorf("%s: %v, framework %v; differences %v", name, gd, wd, diff)
		}
	}
	compare("a read", config, m, true)
	if _, ok := readState(ctx, config, &m); !ok {
		t.Fatal("the sizing read does not take setReadState's own path")
	}
	// The configuration is left as it was.
	if !config.Raw.Equal(rpcValue(typ, cfg)) {
		t.Error("setReadState changed the configuration")
	}

	wrong := m
	wrong.PoolResults = types.MapValueMust(types.StringType, nil)
	compare("a computed value of another type", config, wrong, false)
	compare("an unknown configuration", tfsdk.Config{Raw: tftypes.NewValue(typ, tftypes.UnknownValue), Schema: sr.Schema}, m, false)
	compare("a null configuration", tfsdk.Config{Raw: tftypes.NewValue(typ, nil), Schema: sr.Schema}, m, false)
	other := tfsdk.State{Schema: sr.Schema, Raw: tftypes.NewValue(typ, nil)}
	if d := setReadState(ctx, &other, config, &asModel{}); !d.HasError() {
		t.Error("a model of other attributes: no error")
	}
}
