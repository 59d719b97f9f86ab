package provider

import (
	"context"
	"fmt"
	"math/big"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// typedValue draws a value of type t: null or unknown now and then, else known with a few elements, numbers
// whole or not, strings from a small pool.
func typedValue(r *rand.Rand, t tftypes.Type, depth int) tftypes.Value {
	switch r.IntN(12) {
	case 0:
		return tftypes.NewValue(t, nil)
	case 1:
		return tftypes.NewValue(t, tftypes.UnknownValue)
	}
	n := r.IntN(max(1, 4-depth))
	switch tt := t.(type) {
	case tftypes.Object:
		vals := map[string]tftypes.Value{}
		for k, at := range tt.AttributeTypes {
			vals[k] = typedValue(r, at, depth+1)
		}
		return tftypes.NewValue(t, vals)
	case tftypes.List, tftypes.Set:
		et := tftypes.Type(nil)
		if l, ok := tt.(tftypes.List); ok {
			et = l.ElementType
		} else {
			et = tt.(tftypes.Set).ElementType
		}
		var elems []tftypes.Value
		for range n {
			elems = append(elems, typedValue(r, et, depth+1))
		}
		return tftypes.NewValue(t, elems)
	case tftypes.Map:
		elems := map[string]tftypes.Value{}
		for i := range n {
			elems[fmt.Sprintf("k%d", i)] = typedValue(r, tt.ElementType, depth+1)
		}
		return tftypes.NewValue(t, elems)
	}
	switch {
	case t.Is(tftypes.DynamicPseudoType):
		return tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, []tftypes.Value{tftypes.NewValue(tftypes.String, "x")})
	case t.Is(tftypes.String):
		return tftypes.NewValue(t, []string{"", "m5.large", "100m", "a\nb", "zone"}[r.IntN(5)])
	case t.Is(tftypes.Number):
		// Mostly whole numbers; now and then one an integer attribute cannot hold.
		if r.IntN(50) == 0 {
			return tftypes.NewValue(t, []*big.Float{big.NewFloat(0.5), big.NewFloat(1e300)}[r.IntN(2)])
		}
		return tftypes.NewValue(t, big.NewFloat(float64(r.IntN(200)-20)))
	case t.Is(tftypes.Bool):
		return tftypes.NewValue(t, r.IntN(2) == 0)
	}
	return tftypes.NewValue(t, nil)
}

// objectModels are a new model of every object whose Read, ValidateConfig or plan reads the whole
// configuration or plan with configGet or planGet.
var objectModels = map[string]func() any{
	"kubefit_burst_budget":              func() any { return new(burstBudgetModel) },
	"kubefit_disk_tier":                 func() any { return new(diskTierModel) },
	"kubefit_instance_type":             func() any { return new(instanceTypeModel) },
	"kubefit_instance_types":            func() any { return new(instanceTypesModel) },
	"kubefit_node_overhead":             func() any { return new(nodeOverheadModel) },
	"kubefit_node_pool_recommendation":  func() any { return new(nodePoolRecommendationModel) },
	"kubefit_node_pool_sizing":          func() any { return new(nodePoolSizingModel) },
	"kubefit_workloads":                 func() any { return new(workloadsModel) },
	"kubefit_capacity_check":            func() any { return new(capacityCheckModel) },
	"kubefit_horizontal_pod_autoscaler": func() any { return new(hpaModel) },
	"kubefit_keda_scaled_object":        func() any { return new(kedaScaledObjectModel) },
	"kubefit_node_group":                func() any { return new(nodeGroupModel) },
	"kubefit_storage_class":             func() any { return new(storageClassModel) },
}

// TestConfigGetIsFrameworkGet: for every data source and resource, on drawn values of its schema's type (nulls
// and unknowns at any depth), valueFrom gives what the framework's ValueFromTerraform gives, and configGet and
// planGet fill the object's model as Config.Get and Plan.Get do, diagnostics included; the fast path is taken for
// most of them.
func TestConfigGetIsFrameworkGet(t *testing.T) {
	ctx := context.Background()
	objects := map[string]objectSchema{}
	for _, o := range objectSchemas(t) {
		if o.kind != "provider" {
			objects[o.name] = o
		}
	}
	for name := range objectModels {
		if _, ok := objects[name]; !ok {
			t.Errorf("objectModels names %s, which the provider does not serve", name)
		}
	}
	for name, o := range objects {
		t.Run(name, func(t *testing.T) {
			typ := o.typ()
			tt := typ.TerraformType(ctx)
			r := rand.New(rand.NewPCG(uint64(len(name)), 11))
			fast := 0
			const draws = 300
			for i := range draws {
				v := typedValue(r, tt, 0)
				if i%2 == 1 && v.IsKnown() && !v.IsNull() {
					v = typedValue(r, tt, 1) // fewer elements: more known roots with nested nulls and unknowns
				}
				got, gerr := valueFrom(ctx, typ, v)
				want, werr := typ.ValueFromTerraform(ctx, v)
				if (gerr == nil) != (werr == nil) || !reflect.DeepEqual(got, want) {
					t.Fatalf("draw %d: valueFrom %v (%v), the framework %v (%v)", i, got, gerr, want, werr)
				}
				newModel, ok := objectModels[name]
				if !ok {
					continue
				}
				gm, wm := newModel(), newModel()
				gd, wd := configGet(ctx, o.config(v), gm), o.config(v).Get(ctx, wm)
				if !sameGet(gd, wd, gm, wm) {
					t.Fatalf("draw %d: configGet %+v %v, Config.Get %+v %v", i, gm, gd, wm, wd)
				}
				if getModel(ctx, typ, v, newModel()) {
					fast++
				}
				if plan, ok := o.plan(v); ok {
					gm, wm := newModel(), newModel()
					gd, wd := planGet(ctx, plan, gm), plan.Get(ctx, wm)
					if !sameGet(gd, wd, gm, wm) {
						t.Fatalf("draw %d: planGet %+v %v, Plan.Get %+v %v", i, gm, gd, wm, wd)
					}
				}
			}
			if m, ok := objectModels[name]; ok && modelFieldsOf(reflect.TypeOf(m()).Elem()) != nil && fast < draws/3 {
				t.Errorf("the fast path read %d of %d drawn configurations: it should take most known ones", fast, draws)
			} else {
				t.Logf("the fast path read %d of %d drawn configurations", fast, draws)
			}
		})
	}
}

// sameGet: two reads of a model agree. On an error both are the framework's (configGet hands every value it
// cannot read to it), which reports the first error of its walk over the attributes in map order, so only the
// error's presence is compared then.
func sameGet(gd, wd diag.Diagnostics, gm, wm any) bool {
	if gd.HasError() || wd.HasError() {
		return gd.HasError() == wd.HasError()
	}
	return gd.Equal(wd) && reflect.DeepEqual(gm, wm)
}

// collectionTypes are framework types of the collection kinds no schema of kubefit's uses today (sets), nested in
// and around the others.
func collectionTypes() []attr.Type {
	obj := types.ObjectType{AttrTypes: map[string]attr.Type{"n": types.Int64Type, "tags": types.SetType{ElemType: types.StringType}}}
	return []attr.Type{
		types.SetType{ElemType: types.StringType},
		types.SetType{ElemType: obj},
		types.MapType{ElemType: types.SetType{ElemType: types.Int64Type}},
		types.ListType{ElemType: types.MapType{ElemType: obj}},
	}
}

// TestValueFromCollections: valueFrom is ValueFromTerraform for the collection kinds no schema of kubefit's uses
// today (sets), nested in and around the others, on drawn values with nulls and unknowns at any depth.
func TestValueFromCollections(t *testing.T) {
	ctx := context.Background()
	for _, typ := range collectionTypes() {
		r := rand.New(rand.NewPCG(5, 9))
		known := 0
		for i := range 300 {
			v := typedValue(r, typ.TerraformType(ctx), i%2)
			got, gerr := valueFrom(ctx, typ, v)
			want, werr := typ.ValueFromTerraform(ctx, v)
			if (gerr == nil) != (werr == nil) || !reflect.DeepEqual(got, want) {
				t.Fatalf("%s, draw %d: valueFrom %v (%v), the framework %v (%v)", typ, i, got, gerr, want, werr)
			}
			if v.IsKnown() && !v.IsNull() {
				known++
			}
		}
		if known < 100 {
			t.Errorf("%s: only %d known values drawn", typ, known)
		}
	}
}
