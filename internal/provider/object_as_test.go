package provider

import (
	"context"
	"math/big"
	"reflect"
	"sort"
	"testing"
	"unsafe"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
)

// asInner is embedded by value, as overheadOptionsModel is in sizingPoolModel.
type asInner struct {
	Profile types.String `tfsdk:"profile"`
	MaxPods types.Int64  `tfsdk:"max_pods"`
}

// asModel has a field of every value type objectAs assigns, an embedded struct, an excluded and an unexported
// field.
type asModel struct {
	Name     types.String  `tfsdk:"name"`
	Replicas types.Int64   `tfsdk:"replicas"`
	Small    types.Int32   `tfsdk:"small"`
	Ratio    types.Float64 `tfsdk:"ratio"`
	Ratio32  types.Float32 `tfsdk:"ratio32"`
	Big      types.Number  `tfsdk:"big"`
	On       types.Bool    `tfsdk:"on"`
	Pools    types.List    `tfsdk:"pools"`
	Zones    types.Set     `tfsdk:"zones"`
	Labels   types.Map     `tfsdk:"labels"`
	Requests types.Object  `tfsdk:"requests"`
	Claims   types.List    `tfsdk:"claims"`
	asInner
	Ignored string `tfsdk:"-"`
	hidden  int
}

var (
	asRequestsTypes = map[string]attr.Type{"cpu": types.StringType, "gpu": types.Int64Type}
	asClaimTypes    = map[string]attr.Type{"name": types.StringType, "modes": types.ListType{ElemType: types.StringType}}
	asModelTypes    = map[string]attr.Type{
		"name": types.StringType, "replicas": types.Int64Type, "small": types.Int32Type, "ratio": types.Float64Type,
		"ratio32": types.Float32Type, "big": types.NumberType, "on": types.BoolType,
		"pools": types.ListType{ElemType: types.StringType}, "zones": types.SetType{ElemType: types.StringType},
		"labels": types.MapType{ElemType: types.StringType}, "requests": types.ObjectType{AttrTypes: asRequestsTypes},
		"claims": types.ListType{ElemType: types.ObjectType{AttrTypes: asClaimTypes}}, "profile": types.StringType, "max_pods": types.Int64Type,
	}
)

// asValues is a full object of asModelTypes: known values, with null and unknown ones mixed in.
func asValues() map[string]attr.Value {
	claim := func(name string, modes ...string) attr.Value {
		var ms []attr.Value
		for _, m := range modes {
			ms = append(ms, types.StringValue(m))
		}
		return types.ObjectValueMust(asClaimTypes, map[string]attr.Value{"name": types.StringValue(name), "modes": types.ListValueMust(types.StringType, ms)})
	}
	return map[string]attr.Value{
		"name": types.StringValue("web"), "replicas": types.Int64Value(3), "small": types.Int32Unknown(), "ratio": types.Float64Value(0.25),
		"ratio32": types.Float32Null(), "big": types.NumberValue(big.NewFloat(1e30)), "on": types.BoolValue(true),
		"pools":    types.ListValueMust(types.StringType, []attr.Value{types.StringValue("a"), types.StringUnknown()}),
		"zones":    types.SetNull(types.StringType),
		"labels":   types.MapValueMust(types.StringType, map[string]attr.Value{"app": types.StringValue("web")}),
		"requests": types.ObjectValueMust(asRequestsTypes, map[string]attr.Value{"cpu": types.StringValue("100m"), "gpu": types.Int64Null()}),
		"claims":   types.ListValueMust(types.ObjectType{AttrTypes: asClaimTypes}, []attr.Value{claim("data", "ReadWriteOnce"), claim("logs")}),
		"profile":  types.StringNull(), "max_pods": types.Int64Value(110),
	}
}

// sameModel reports whether a and b (values of one type) hold equal values: attr.Values by Equal (or identical), structs
// field by field (unexported and embedded ones included), the rest by reflect.DeepEqual.
func sameModel(t *testing.T, a, b reflect.Value) bool {
	t.Helper()
	if v, ok := a.Interface().(attr.Value); ok {
		// The zero collection values (no element type) are never Equal, even to themselves.
		return v.Equal(b.Interface().(attr.Value)) || reflect.DeepEqual(a.Interface(), b.Interface())
	}
	if a.Kind() != reflect.Struct {
		return reflect.DeepEqual(a.Interface(), b.Interface())
	}
	a, b = addressable(a), addressable(b)
	for i := range a.NumField() {
		if !sameModel(t, readable(a.Field(i)), readable(b.Field(i))) {
			return false
		}
	}
	return true
}

func addressable(v reflect.Value) reflect.Value {
	c := reflect.New(v.Type()).Elem()
	c.Set(v)
	return c
}

// readable is field f of an addressable struct, readable even when unexported.
func readable(f reflect.Value) reflect.Value {
	return reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem()
}

// compareAs runs objectAs and obj.As from the same starting target and fails unless results and diagnostics
// agree.
func compareAs[T any](t *testing.T, name string, obj basetypes.ObjectValue, start T, opts basetypes.ObjectAsOptions) {
	t.Helper()
	ctx := context.Background()
	got, want := start, start
	gd, wd := objectAs(ctx, obj, &got, opts), obj.As(ctx, &want, opts)
	if !gd.Equal(wd) {
		t.Errorf("%s: diagnostics %v, framework %v", name, gd, wd)
	}
	if !sameModel(t, reflect.ValueOf(got), reflect.ValueOf(want)) {
		t.Errorf("%s: model %+v, framework %+v", name, got, want)
	}
}

// TestObjectAsIsFrameworkAs: objectAs gives what obj.As gives, value for value and diagnostic for diagnostic,
// on its own path and on every fallback.
func TestObjectAsIsFrameworkAs(t *testing.T) {
	full := types.ObjectValueMust(asModelTypes, asValues())
	dirty := asModel{Ignored: "set before", hidden: 7, Name: types.StringValue("old")}
	for _, opts := range []basetypes.ObjectAsOptions{{}, objectAsOptions} {
		compareAs(t, "full", full, asModel{}, opts)
		compareAs(t, "full into a used model", full, dirty, opts)
		compareAs(t, "null", types.ObjectNull(asModelTypes), dirty, opts)
		compareAs(t, "unknown", types.ObjectUnknown(asModelTypes), dirty, opts)

		missing := asValues()
		delete(missing, "labels")
		missingTypes := withType(asModelTypes, "labels", nil)
		compareAs(t, "struct field without attribute", types.ObjectValueMust(missingTypes, missing), dirty, opts)
		extra := asValues()
		extra["extra"] = types.StringValue("x")
		compareAs(t, "attribute without field", types.ObjectValueMust(withType(asModelTypes, "extra", types.StringType), extra), dirty, opts)
		wrong := asValues()
		wrong["name"] = types.Int64Value(1)
		compareAs(t, "attribute of another type", types.ObjectValueMust(withType(asModelTypes, "name", types.Int64Type), wrong), dirty, opts)

		reqs := types.ObjectValueMust(asRequestsTypes, map[string]attr.Value{"cpu": types.StringValue("1"), "gpu": types.Int64Value(2)})
		compareAs(t, "plain Go fields", reqs, struct {
			CPU string `tfsdk:"cpu"`
			GPU *int64 `tfsdk:"gpu"`
		}{}, opts)
		compareAs(t, "an untagged field", reqs, struct {
			CPU types.String `tfsdk:"cpu"`
			GPU types.Int64
		}{}, opts)
		compareAs(t, "an invalid tag", reqs, struct {
			CPU types.String `tfsdk:"CPU"`
			GPU types.Int64  `tfsdk:"gpu"`
		}{}, opts)
		compareAs(t, "a tag used twice", reqs, struct {
			CPU  types.String `tfsdk:"cpu"`
			GPU  types.Int64  `tfsdk:"gpu"`
			CPU2 types.String `tfsdk:"cpu"`
		}{}, opts)
		compareAs(t, "an attr.Value field", reqs, struct {
			CPU attr.Value  `tfsdk:"cpu"`
			GPU types.Int64 `tfsdk:"gpu"`
		}{}, opts)
		type embedded struct {
			GPU types.Int64 `tfsdk:"gpu"`
		}
		compareAs(t, "an embedded pointer", reqs, struct {
			CPU types.String `tfsdk:"cpu"`
			*embedded
		}{}, opts)
	}
	// A target that is not a pointer to a struct is the framework's error.
	ctx := context.Background()
	var s string
	if got, want := objectAs(ctx, full, &s, objectAsOptions), full.As(ctx, &s, objectAsOptions); !got.Equal(want) || !got.HasError() {
		t.Errorf("into a string: %v, framework %v", got, want)
	}
	if got, want := objectAs(ctx, full, asModel{}, objectAsOptions), full.As(ctx, asModel{}, objectAsOptions); !got.Equal(want) || !got.HasError() {
		t.Errorf("into a non-pointer: %v, framework %v", got, want)
	}
}

// withType is m with name set to t (deleted when t is nil).
func withType(m map[string]attr.Type, name string, t attr.Type) map[string]attr.Type {
	out := map[string]attr.Type{}
	for k, v := range m {
		out[k] = v
	}
	if t == nil {
		delete(out, name)
	} else {
		out[name] = t
	}
	return out
}

// TestListElementsAsIsFrameworkElementsAs: listElementsAs gives what ElementsAs gives, on its own path (a
// known list of known objects) and on every fallback (null, unknown or empty list, a null element, a model
// objectAs leaves to the framework).
func TestListElementsAsIsFrameworkElementsAs(t *testing.T) {
	ctx := context.Background()
	objType := types.ObjectType{AttrTypes: asModelTypes}
	one := types.ObjectValueMust(asModelTypes, asValues())
	lists := map[string]types.List{
		"known":           types.ListValueMust(objType, []attr.Value{one, one}),
		"empty":           types.ListValueMust(objType, nil),
		"null":            types.ListNull(objType),
		"unknown":         types.ListUnknown(objType),
		"a null element":  types.ListValueMust(objType, []attr.Value{one, types.ObjectNull(asModelTypes)}),
		"unknown element": types.ListValueMust(objType, []attr.Value{types.ObjectUnknown(asModelTypes)}),
	}
	names := make([]string, 0, len(lists))
	for n := range lists {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		l := lists[name]
		for _, allow := range []bool{false, true} {
			got, want := []asModel{{hidden: 1}}, []asModel{{hidden: 1}}
			gd, wd := listElementsAs(ctx, l, &got, allow), l.ElementsAs(ctx, &want, allow)
			if !gd.Equal(wd) || len(got) != len(want) || (got == nil) != (want == nil) {
				t.Errorf("%s (allow %v): %d models (nil %v) %v, framework %d (nil %v) %v", name, allow, len(got), got == nil, gd, len(want), want == nil, wd)
				continue
			}
			for i := range got {
				if !sameModel(t, reflect.ValueOf(got[i]), reflect.ValueOf(want[i])) {
					t.Errorf("%s (allow %v): model %d %+v, framework %+v", name, allow, i, got[i], want[i])
				}
			}
		}
	}
	// A model objectAs does not take, and a list of strings, are the framework's.
	plain := types.ListValueMust(types.ObjectType{AttrTypes: asRequestsTypes}, []attr.Value{
		types.ObjectValueMust(asRequestsTypes, map[string]attr.Value{"cpu": types.StringValue("1"), "gpu": types.Int64Null()})})
	type plainModel struct {
		CPU string `tfsdk:"cpu"`
		GPU *int64 `tfsdk:"gpu"`
	}
	var got, want []plainModel
	if gd, wd := listElementsAs(ctx, plain, &got, false), plain.ElementsAs(ctx, &want, false); !gd.Equal(wd) || !reflect.DeepEqual(got, want) {
		t.Errorf("plain model: %+v %v, framework %+v %v", got, gd, want, wd)
	}
	// Lists of strings, read directly when every element is a known string, and null lists of every kind.
	for name, l := range map[string]types.List{
		"strings":           types.ListValueMust(types.StringType, []attr.Value{types.StringValue("a"), types.StringValue("")}),
		"no strings":        types.ListValueMust(types.StringType, nil),
		"a null string":     types.ListValueMust(types.StringType, []attr.Value{types.StringValue("a"), types.StringNull()}),
		"an unknown string": types.ListValueMust(types.StringType, []attr.Value{types.StringUnknown()}),
		"null strings":      types.ListNull(types.StringType),
		"unknown strings":   types.ListUnknown(types.StringType),
	} {
		for _, allow := range []bool{false, true} {
			gs, ws := []string{"old"}, []string{"old"}
			gd, wd := listElementsAs(ctx, l, &gs, allow), l.ElementsAs(ctx, &ws, allow)
			if !gd.Equal(wd) || !reflect.DeepEqual(gs, ws) || (gs == nil) != (ws == nil) {
				t.Errorf("%s (allow %v): %#v %v, framework %#v %v", name, allow, gs, gd, ws, wd)
			}
			gp, wp := []*string{nil}, []*string{nil}
			gd, wd = listElementsAs(ctx, l, &gp, allow), l.ElementsAs(ctx, &wp, allow)
			if !gd.Equal(wd) || !reflect.DeepEqual(gp, wp) || (gp == nil) != (wp == nil) {
				t.Errorf("%s into []*string (allow %v): %#v %v, framework %#v %v", name, allow, gp, gd, wp, wd)
			}
		}
	}
	for _, allow := range []bool{false, true} {
		null := types.ListNull(types.ObjectType{AttrTypes: asRequestsTypes})
		got, want := []plainModel{{CPU: "x"}}, []plainModel{{CPU: "x"}}
		if gd, wd := listElementsAs(ctx, null, &got, allow), null.ElementsAs(ctx, &want, allow); !gd.Equal(wd) || !reflect.DeepEqual(got, want) || (got == nil) != (want == nil) {
			t.Errorf("null into plain models (allow %v): %#v %v, framework %#v %v", allow, got, gd, want, wd)
		}
	}
}

// TestModelsReadWithoutReflection: the models read once per workload, pool or element take objectAs's own
// path; a field of another type would silently send them back to the framework's reflection (issue 21).
func TestModelsReadWithoutReflection(t *testing.T) {
	for _, m := range []any{workloadModel{}, sizingPoolModel{}, requestsModel{}, spreadModel{}, podDisruptionBudgetModel{},
		sizingDaemonSetModel{}, taintModel{}, tolerationModel{}, volumeClaimModel{}, hostPortModel{}, nodeSelectorRequirementModel{}} {
		if modelFieldsOf(reflect.TypeOf(m)) == nil {
			t.Errorf("%T is read by the framework's reflection", m)
		}
	}
	if modelFieldsOf(reflect.TypeOf(podAffinityModel{})) != nil {
		t.Error("podAffinityModel (plain Go fields) is read by objectAs")
	}
}

// TestSchemaTypesAreFrameworkTypes: every type in every configuration of kubefit is one of the framework's own
// (package basetypes, as schema_types.go sets them), whose values objectAs may assign as they are.
func TestSchemaTypesAreFrameworkTypes(t *testing.T) {
	ctx := context.Background()
	s := &server{provider: New("test")()}
	pkg := reflect.TypeFor[basetypes.StringType]().PkgPath()
	var visit func(where string, at attr.Type)
	visit = func(where string, at attr.Type) {
		if p := reflect.TypeOf(at).PkgPath(); p != pkg {
			t.Errorf("%s: %T is not a framework type", where, at)
			return
		}
		switch x := at.(type) {
		case attr.TypeWithAttributeTypes:
			for name, et := range x.AttributeTypes() {
				visit(where+"."+name, et)
			}
		case attr.TypeWithElementType:
			visit(where+"[*]", x.ElementType())
		case attr.TypeWithElementTypes:
			for _, et := range x.ElementTypes() {
				visit(where+"[*]", et)
			}
		}
	}
	n := 0
	for key, at := range s.configTypes(ctx) {
		visit(key, at)
		n++
	}
	if n < 10 {
		t.Fatalf("only %d configuration types", n)
	}
}
