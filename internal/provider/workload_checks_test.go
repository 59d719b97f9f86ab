package provider

import (
	"context"
	"reflect"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// replaceAt is v with the value at p replaced by with.
func replaceAt(t *testing.T, v tftypes.Value, p *tftypes.AttributePath, with tftypes.Value) tftypes.Value {
	t.Helper()
	out, err := tftypes.Transform(v, func(at *tftypes.AttributePath, x tftypes.Value) (tftypes.Value, error) {
		if at.Equal(p) {
			return with, nil
		}
		return x, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestWorkloadChecksAreTheModels: what workloadChecks reads of each workload from the configuration's value is
// what reading the whole model gives, for known, null and unknown attributes, workloads and lists.
func TestWorkloadChecksAreTheModels(t *testing.T) {
	ctx := context.Background()
	var sr datasource.SchemaResponse
	(&nodePoolSizingDataSource{}).Schema(ctx, datasource.SchemaRequest{}, &sr)
	typ := sr.Schema.Type().TerraformType(ctx)
	wType := typ.(tftypes.Object).AttributeTypes["workloads"].(tftypes.List).ElementType.(tftypes.Object)
	ws := func(i int, name string) *tftypes.AttributePath {
		return tftypes.NewAttributePath().WithAttributeName("workloads").WithElementKeyInt(i).WithAttributeName(name)
	}
	cfg := sizingConfig(6)
	w := cfg["workloads"].([]any)
	w[1].(map[string]any)["max_surge"] = "25%"
	w[1].(map[string]any)["min_replicas"], w[1].(map[string]any)["max_replicas"], w[1].(map[string]any)["replicas"] = 2, 1, nil
	w[2].(map[string]any)["name"] = tftypes.UnknownValue
	w[3].(map[string]any)["replicas"] = tftypes.UnknownValue
	w[4].(map[string]any)["max_surge"] = "lots"
	w[5].(map[string]any)["pools"] = []any{"p1", tftypes.UnknownValue, "nowhere"}
	base := rpcValue(typ, cfg)
	wl := tftypes.NewAttributePath().WithAttributeName("workloads")
	listType := typ.(tftypes.Object).AttributeTypes["workloads"]
	configs := map[string]tftypes.Value{
		"known, null and unknown attributes": base,
		"unknown pools of a workload":        replaceAt(t, base, ws(0, "pools"), tftypes.NewValue(wType.AttributeTypes["pools"], tftypes.UnknownValue)),
		"an unknown workload":                replaceAt(t, base, wl.WithElementKeyInt(2), tftypes.NewValue(wType, tftypes.UnknownValue)),
		"a null workload":                    replaceAt(t, base, wl.WithElementKeyInt(3), tftypes.NewValue(wType, nil)),
		"unknown workloads":                  replaceAt(t, base, wl, tftypes.NewValue(listType, tftypes.UnknownValue)),
		"null workloads":                     replaceAt(t, base, wl, tftypes.NewValue(listType, nil)),
		"no workloads":                       replaceAt(t, base, wl, tftypes.NewValue(listType, []tftypes.Value{})),
	}
	for name, raw := range configs {
		got, ok := workloadChecks(ctx, raw)
		if !ok {
			t.Errorf("%s: not read from the configuration", name)
			continue
		}
		var m nodePoolSizingModel
		if d := (tfsdk.Config{Raw: raw, Schema: sr.Schema}).Get(ctx, &m); d.HasError() {
			t.Fatalf("%s: %v", name, d)
		}
		want := modelWorkloadChecks(ctx, m.Workloads)
		if (got == nil) != (want == nil) || len(got) != len(want) {
			t.Errorf("%s: %d checks (nil %v), from the model %d (nil %v)", name, len(got), got == nil, len(want), want == nil)
			continue
		}
		for i := range got {
			if (got[i] == nil) != (want[i] == nil) || got[i] != nil && !sameModel(t, reflect.ValueOf(*got[i]), reflect.ValueOf(*want[i])) {
				t.Errorf("%s: workload %d: %+v, from the model %+v", name, i, got[i], want[i])
			}
		}
	}
	// A value that is not a configuration of the schema is left to Get.
	if _, ok := workloadChecks(ctx, tftypes.NewValue(typ, tftypes.UnknownValue)); ok {
		t.Error("an unknown configuration is read")
	}
	if _, ok := workloadChecks(ctx, tftypes.NewValue(tftypes.Object{AttributeTypes: map[string]tftypes.Type{"pools": tftypes.String}}, map[string]tftypes.Value{"pools": tftypes.NewValue(tftypes.String, "x")})); ok {
		t.Error("a configuration without workloads is read")
	}
}
