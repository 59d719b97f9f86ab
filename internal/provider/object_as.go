package provider

import (
	"context"
	"reflect"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
)

// Reading objects into models without the framework's reflection, where that changes nothing.
//
// ObjectValue.As converts the object back to a tftypes.Value, rebuilds every attribute value from it, and reads
// the model's tfsdk tags anew at every call (compiling a regular expression per field), which made it about 40 %
// of validating 1,000 workloads (issue 21). Most kubefit models hold only the framework's value types
// (types.String, types.List, ...), and for those the framework's result is the object's own attribute values:
// every type in kubefit's schemas is the framework's own (schema_types_test.go checks it), whose values convert
// to and from tftypes unchanged. objectAs assigns them directly, with the model's fields found once per struct
// type, and hands anything else to the framework so results and errors stay exactly its own.

// objectAs is obj.As(ctx, target, opts): the attribute values of a known object are assigned to target's
// tfsdk-tagged fields directly when target points to a struct whose fields all have the framework's value
// types and match the object's attributes one to one; every other case (a null or unknown object, a field of
// another type, a missing or extra attribute, an invalid tag) is the framework's obj.As, errors included.
func objectAs(ctx context.Context, obj basetypes.ObjectValue, target any, opts basetypes.ObjectAsOptions) diag.Diagnostics {
	if !obj.IsNull() && !obj.IsUnknown() {
		if v := reflect.ValueOf(target); v.Kind() == reflect.Pointer && !v.IsNil() && v.Elem().Kind() == reflect.Struct {
			if fields := modelFieldsOf(v.Elem().Type()); fields != nil {
				if s, ok := fields.fill(ctx, obj); ok {
					v.Elem().Set(s)
					return nil
				}
			}
		}
	}
	return obj.As(ctx, target, opts)
}

// listElementsAs is l.ElementsAs(ctx, target, allowUnhandled): a known list of known objects read into a
// *[]model whose model objectAs fills directly is filled that way, in a new slice as the framework makes one;
// anything else is the framework's ElementsAs.
func listElementsAs(ctx context.Context, l basetypes.ListValue, target any, allowUnhandled bool) diag.Diagnostics {
	if l.IsNull() {
		// The framework sets a slice to nil for a null list (reflect.BuildValue: canBeNil).
		if v := reflect.ValueOf(target); v.Kind() == reflect.Pointer && !v.IsNil() && v.Elem().Kind() == reflect.Slice {
			v.Elem().Set(reflect.Zero(v.Elem().Type()))
			return nil
		}
	}
	if strs, ok := target.(*[]string); ok && strs != nil && !l.IsUnknown() && !l.IsNull() {
		if out, ok := knownStrings(l.Elements()); ok {
			*strs = out
			return nil
		}
	}
	if !l.IsNull() && !l.IsUnknown() {
		if _, ok := l.ElementType(ctx).(basetypes.ObjectType); ok {
			if v := reflect.ValueOf(target); v.Kind() == reflect.Pointer && !v.IsNil() && v.Elem().Kind() == reflect.Slice &&
				v.Elem().Type().Elem().Kind() == reflect.Struct {
				if fields := modelFieldsOf(v.Elem().Type().Elem()); fields != nil {
					if s, ok := fields.fillSlice(ctx, v.Elem().Type(), l.Elements()); ok {
						v.Elem().Set(s)
						return nil
					}
				}
			}
		}
	}
	return l.ElementsAs(ctx, target, allowUnhandled)
}

// modelField is one tfsdk-tagged field of a model: its attribute name, its index (through embedded structs)
// and its value type and the attribute type whose values have it.
type modelField struct {
	name     string
	index    []int
	typ      reflect.Type
	attrType reflect.Type
}

type modelFields struct {
	typ    reflect.Type
	fields []modelField
}

// valueAttrTypes maps each framework value type a model field may have to the framework type of its values;
// dynamic and tuple values are left to the framework.
var valueAttrTypes = map[reflect.Type]reflect.Type{
	reflect.TypeFor[basetypes.StringValue]():  reflect.TypeFor[basetypes.StringType](),
	reflect.TypeFor[basetypes.BoolValue]():    reflect.TypeFor[basetypes.BoolType](),
	reflect.TypeFor[basetypes.Int64Value]():   reflect.TypeFor[basetypes.Int64Type](),
	reflect.TypeFor[basetypes.Int32Value]():   reflect.TypeFor[basetypes.Int32Type](),
	reflect.TypeFor[basetypes.Float64Value](): reflect.TypeFor[basetypes.Float64Type](),
	reflect.TypeFor[basetypes.Float32Value](): reflect.TypeFor[basetypes.Float32Type](),
	reflect.TypeFor[basetypes.NumberValue]():  reflect.TypeFor[basetypes.NumberType](),
	reflect.TypeFor[basetypes.ListValue]():    reflect.TypeFor[basetypes.ListType](),
	reflect.TypeFor[basetypes.SetValue]():     reflect.TypeFor[basetypes.SetType](),
	reflect.TypeFor[basetypes.MapValue]():     reflect.TypeFor[basetypes.MapType](),
	reflect.TypeFor[basetypes.ObjectValue]():  reflect.TypeFor[basetypes.ObjectType](),
}

// modelFieldCache holds *modelFields by struct type; a nil *modelFields marks a struct left to the framework.
var modelFieldCache sync.Map

// modelFieldsOf is t's fields, or nil when objectAs leaves t to the framework.
func modelFieldsOf(t reflect.Type) *modelFields {
	if f, ok := modelFieldCache.Load(t); ok {
		return f.(*modelFields)
	}
	var f *modelFields
	if fields, ok := collectFields(t, nil, map[string]bool{}); ok {
		f = &modelFields{typ: t, fields: fields}
	}
	modelFieldCache.Store(t, f)
	return f
}

// collectFields lists the tagged fields of struct t (below index prefix) as the framework reads them: unexported
// fields are skipped, `tfsdk:"-"` is skipped, structs embedded by value contribute their fields. ok is false for
// anything the framework would refuse or that objectAs does not assign (an untagged or badly tagged field, a tag
// used twice, an embedded pointer, a field that is not one of the framework's value types).
func collectFields(t reflect.Type, prefix []int, seen map[string]bool) ([]modelField, bool) {
	var out []modelField
	for i := range t.NumField() {
		sf := t.Field(i)
		if !sf.IsExported() && !sf.Anonymous {
			continue
		}
		tag, tagged := sf.Tag.Lookup("tfsdk")
		if tag == "-" {
			continue
		}
		index := append(append([]int{}, prefix...), i)
		if sf.Anonymous {
			if tagged || sf.Type.Kind() != reflect.Struct {
				return nil, false
			}
			inner, ok := collectFields(sf.Type, index, seen)
			if !ok {
				return nil, false
			}
			out = append(out, inner...)
			continue
		}
		at, ok := valueAttrTypes[sf.Type]
		if !tagged || !validTag(tag) || seen[tag] || !ok {
			return nil, false
		}
		seen[tag] = true
		out = append(out, modelField{name: tag, index: index, typ: sf.Type, attrType: at})
	}
	return out, true
}

// validTag is the framework's rule for a tfsdk tag: ^[a-z][a-z0-9_]*$.
func validTag(s string) bool {
	for i, c := range s {
		switch {
		case c >= 'a' && c <= 'z':
		case i > 0 && (c >= '0' && c <= '9' || c == '_'):
		default:
			return false
		}
	}
	return s != ""
}

// fill builds a model from a known object; ok is false when the object's attributes are not exactly the
// model's fields, or one of them has another value type or attribute type than its field.
func (f *modelFields) fill(ctx context.Context, obj basetypes.ObjectValue) (reflect.Value, bool) {
	attrs := obj.Attributes()
	if len(attrs) != len(f.fields) {
		return reflect.Value{}, false
	}
	attrTypes := obj.AttributeTypes(ctx)
	s := reflect.New(f.typ).Elem()
	for _, fd := range f.fields {
		v, ok := attrs[fd.name]
		if !ok || reflect.TypeOf(v) != fd.typ || reflect.TypeOf(attrTypes[fd.name]) != fd.attrType {
			return reflect.Value{}, false
		}
		s.FieldByIndex(fd.index).Set(reflect.ValueOf(v))
	}
	return s, true
}

// fillSlice builds a slice of type t of models, one per element; ok is false when an element is not a known
// object fill takes.
func (f *modelFields) fillSlice(ctx context.Context, t reflect.Type, elems []attr.Value) (reflect.Value, bool) {
	out := reflect.MakeSlice(t, 0, len(elems))
	for _, e := range elems {
		obj, ok := e.(basetypes.ObjectValue)
		if !ok || obj.IsNull() || obj.IsUnknown() {
			return reflect.Value{}, false
		}
		s, ok := f.fill(ctx, obj)
		if !ok {
			return reflect.Value{}, false
		}
		out = reflect.Append(out, s)
	}
	return out, true
}

// knownStrings is the values of elems when every one is a known, non-null framework string, in a new slice as
// the framework's reflection makes one (empty, not nil, for no elements).
func knownStrings(elems []attr.Value) ([]string, bool) {
	out := make([]string, 0, len(elems))
	for _, e := range elems {
		s, ok := e.(basetypes.StringValue)
		if !ok || s.IsNull() || s.IsUnknown() {
			return nil, false
		}
		out = append(out, s.ValueString())
	}
	return out, true
}
