package provider

import (
	"context"
	"maps"
	"reflect"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// setReadState is state.Set(ctx, model) for a data source's Read whose model was read from config and whose
// Read set only computed attributes: the state is the configuration's own value with the computed attributes
// replaced by the model's. The framework's Set converts every field of the model back to a tftypes value,
// checking each type as it goes, which for 1,000 workloads was the largest part of Read outside the planner
// (issue 21); the configured attributes are already that value in config.Raw, and Terraform refuses a data
// source whose state changes a configured attribute that is not computed, so they cannot differ.
//
// Anything else is the framework's state.Set, diagnostics included: a model objectAs does not read, a null or
// unknown configuration, a schema with blocks or other attributes than the model's fields, a computed value of
// another type than its attribute's.
func setReadState(ctx context.Context, state *tfsdk.State, config tfsdk.Config, model any) diag.Diagnostics {
	if v, ok := readState(ctx, config, model); ok {
		return state.Set(ctx, v)
	}
	return state.Set(ctx, model)
}

func readState(ctx context.Context, config tfsdk.Config, model any) (tftypes.Value, bool) {
	raw := config.Raw
	mv := reflect.ValueOf(model)
	if config.Schema == nil || len(config.Schema.GetBlocks()) > 0 || !raw.IsKnown() || raw.IsNull() ||
		mv.Kind() != reflect.Pointer || mv.IsNil() || mv.Elem().Kind() != reflect.Struct {
		return tftypes.Value{}, false
	}
	fields := modelFieldsOf(mv.Elem().Type())
	objType, ok := raw.Type().(tftypes.Object)
	var configured map[string]tftypes.Value
	if fields == nil || !ok || raw.As(&configured) != nil {
		return tftypes.Value{}, false
	}
	vals := maps.Clone(configured) // As hands out the configuration's own map
	attrs := config.Schema.GetAttributes()
	if len(attrs) != len(fields.fields) || len(vals) != len(fields.fields) {
		return tftypes.Value{}, false
	}
	for _, f := range fields.fields {
		a, ok := attrs[f.name]
		if _, configured := vals[f.name]; !ok || !configured {
			return tftypes.Value{}, false
		}
		if !a.IsComputed() {
			continue
		}
		v, err := mv.Elem().FieldByIndex(f.index).Interface().(attr.Value).ToTerraformValue(ctx)
		if err != nil || !v.Type().Equal(objType.AttributeTypes[f.name]) {
			return tftypes.Value{}, false
		}
		vals[f.name] = v
	}
	return tftypes.NewValue(objType, vals), true
}
