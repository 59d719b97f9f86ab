package provider

import (
	"context"
	"fmt"
	"reflect"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// Reading a whole configuration or plan into a model without the framework's reflection, where that changes
// nothing.
//
// Config.Get converts every value of the configuration to the framework's values, and each collection and
// object value on the way checks that its tftypes type equals the one its framework type builds anew
// (ObjectType.TerraformType, recursively, for every element of a list of objects): for 1,000 workloads that
// check was more than half of the 115 ms Config.Get took in a read (issue 21). The type of the whole value is
// checked here once, against the schema's; every value inside it then has the type the schema gives its place,
// so the values are built with the same constructors (NewObjectValue, NewListValue, ...) and the framework's own
// ValueFromTerraform for everything else. Anything the fast path does not take (a model objectAs would not
// fill, a null or unknown root, a custom type, a type mismatch, any error) is the framework's Get, diagnostics
// included. TestConfigGetIsFrameworkGet compares the two on every object's configurations.

// configGet is cfg.Get(ctx, target).
func configGet(ctx context.Context, cfg tfsdk.Config, target any) diag.Diagnostics {
	if cfg.Schema != nil && getModel(ctx, cfg.Schema.Type(), cfg.Raw, target) {
		return nil
	}
	return cfg.Get(ctx, target)
}

// planGet is plan.Get(ctx, target).
func planGet(ctx context.Context, plan tfsdk.Plan, target any) diag.Diagnostics {
	if plan.Schema != nil && getModel(ctx, plan.Schema.Type(), plan.Raw, target) {
		return nil
	}
	return plan.Get(ctx, target)
}

// getModel fills the model target points to from raw, a value of type t, and reports whether it did; when it
// did not, target is untouched.
func getModel(ctx context.Context, t attr.Type, raw tftypes.Value, target any) bool {
	ot, ok := t.(basetypes.ObjectType)
	if !ok || !raw.IsKnown() || raw.IsNull() || raw.Type() == nil || !raw.Type().Equal(ot.TerraformType(ctx)) {
		return false
	}
	v := reflect.ValueOf(target)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return false
	}
	fields := modelFieldsOf(v.Elem().Type())
	var vals map[string]tftypes.Value
	if fields == nil || raw.As(&vals) != nil || len(vals) != len(fields.fields) || len(ot.AttrTypes) != len(fields.fields) {
		return false
	}
	s := reflect.New(fields.typ).Elem()
	for _, f := range fields.fields {
		at, ok := ot.AttrTypes[f.name]
		x, configured := vals[f.name]
		if !ok || !configured || reflect.TypeOf(at) != f.attrType {
			return false
		}
		a, err := valueFrom(ctx, at, x)
		if err != nil || reflect.TypeOf(a) != f.typ {
			return false
		}
		s.FieldByIndex(f.index).Set(reflect.ValueOf(a))
	}
	v.Elem().Set(s)
	return true
}

// valueFrom is t.ValueFromTerraform(ctx, v) for a value whose type is known to be t's: the framework's object,
// list, set and map types build their values without checking the type again; every other type is its own
// ValueFromTerraform.
func valueFrom(ctx context.Context, t attr.Type, v tftypes.Value) (attr.Value, error) {
	if v.Type() == nil {
		return t.ValueFromTerraform(ctx, v)
	}
	switch tt := t.(type) {
	case basetypes.ObjectType:
		switch {
		case !v.IsKnown():
			return basetypes.NewObjectUnknown(tt.AttrTypes), nil
		case v.IsNull():
			return basetypes.NewObjectNull(tt.AttrTypes), nil
		}
		var vals map[string]tftypes.Value
		if err := v.As(&vals); err != nil {
			return nil, err
		}
		attrs := make(map[string]attr.Value, len(vals))
		for k, x := range vals {
			at, ok := tt.AttrTypes[k]
			if !ok {
				return nil, fmt.Errorf("attribute %q is not in the object type", k)
			}
			a, err := valueFrom(ctx, at, x)
			if err != nil {
				return nil, err
			}
			attrs[k] = a
		}
		return checked(basetypes.NewObjectValue(tt.AttrTypes, attrs))
	case basetypes.ListType:
		if tt.ElemType != nil {
			return collectionFrom(ctx, tt.ElemType, v, basetypes.NewListUnknown, basetypes.NewListNull, basetypes.NewListValue)
		}
	case basetypes.SetType:
		if tt.ElemType != nil {
			return collectionFrom(ctx, tt.ElemType, v, basetypes.NewSetUnknown, basetypes.NewSetNull, basetypes.NewSetValue)
		}
	case basetypes.MapType:
		if tt.ElemType == nil {
			break
		}
		switch {
		case !v.IsKnown():
			return basetypes.NewMapUnknown(tt.ElemType), nil
		case v.IsNull():
			return basetypes.NewMapNull(tt.ElemType), nil
		}
		var vals map[string]tftypes.Value
		if err := v.As(&vals); err != nil {
			return nil, err
		}
		elems := make(map[string]attr.Value, len(vals))
		for k, x := range vals {
			a, err := valueFrom(ctx, tt.ElemType, x)
			if err != nil {
				return nil, err
			}
			elems[k] = a
		}
		return checked(basetypes.NewMapValue(tt.ElemType, elems))
	}
	return t.ValueFromTerraform(ctx, v)
}

// collectionFrom is a list or set value of element type et from v, with the collection's own constructors.
func collectionFrom[V attr.Value](ctx context.Context, et attr.Type, v tftypes.Value, unknown, null func(attr.Type) V,
	known func(attr.Type, []attr.Value) (V, diag.Diagnostics)) (attr.Value, error) {
	switch {
	case !v.IsKnown():
		return unknown(et), nil
	case v.IsNull():
		return null(et), nil
	}
	var vals []tftypes.Value
	if err := v.As(&vals); err != nil {
		return nil, err
	}
	elems := make([]attr.Value, 0, len(vals))
	for _, x := range vals {
		a, err := valueFrom(ctx, et, x)
		if err != nil {
			return nil, err
		}
		elems = append(elems, a)
	}
	return checked(known(et, elems))
}

// checked turns a constructor's diagnostics into an error.
func checked[V attr.Value](v V, diags diag.Diagnostics) (attr.Value, error) {
	if diags.HasError() {
		return nil, fmt.Errorf("%s", diags.Errors()[0].Detail())
	}
	return v, nil
}
