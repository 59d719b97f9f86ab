package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// workloadCheck is what validateWorkloadConfig reads of a workload, and the diagnostics of reading it (reported
// before its own).
type workloadCheck struct {
	Name, MaxSurge                     types.String
	Replicas, MinReplicas, MaxReplicas types.Int64
	Pools                              types.List
	diags                              diag.Diagnostics
}

// check is what validateWorkloadConfig reads of w.
func (w workloadModel) check() workloadCheck {
	return workloadCheck{Name: w.Name, MaxSurge: w.MaxSurge, Replicas: w.Replicas, MinReplicas: w.MinReplicas, MaxReplicas: w.MaxReplicas, Pools: w.Pools}
}

// workloadChecks is what validateWorkloadConfig reads of every workload of a configuration's list attribute
// "workloads": nil for a null or unknown list, and a nil entry for an unknown workload.
//
// Validation needs six attributes of each workload, but reading the whole configuration into a model
// converts every attribute of every workload (the framework rebuilds the workload's type at each one), about
// an eighth of validating 1,000 workloads (issue 21). So the six are read from the configuration's own value
// with the framework's types, the conversion Get makes of them; ok is false when raw is not a known object
// whose workloads convert so (the caller then reads its model with Get, as before, and modelWorkloadChecks).
func workloadChecks(ctx context.Context, raw tftypes.Value) (checks []*workloadCheck, ok bool) {
	var top map[string]tftypes.Value
	if !raw.IsKnown() || raw.IsNull() || !raw.Type().Is(tftypes.Object{}) || raw.As(&top) != nil {
		return nil, false
	}
	list, found := top["workloads"]
	if !found || !list.Type().Is(tftypes.List{}) {
		return nil, false
	}
	if !list.IsKnown() || list.IsNull() {
		return nil, true
	}
	var elems []tftypes.Value
	if list.As(&elems) != nil {
		return nil, false
	}
	checks = make([]*workloadCheck, len(elems))
	for i, e := range elems {
		switch {
		case !e.IsKnown():
			continue
		case e.IsNull():
			checks[i] = &workloadCheck{}
			continue
		}
		var attrs map[string]tftypes.Value
		if !e.Type().Is(tftypes.Object{}) || e.As(&attrs) != nil {
			return nil, false
		}
		c := &workloadCheck{}
		if !rawAttr(ctx, attrs, "name", types.StringType, &c.Name) || !rawAttr(ctx, attrs, "max_surge", types.StringType, &c.MaxSurge) ||
			!rawAttr(ctx, attrs, "replicas", types.Int64Type, &c.Replicas) || !rawAttr(ctx, attrs, "min_replicas", types.Int64Type, &c.MinReplicas) ||
			!rawAttr(ctx, attrs, "max_replicas", types.Int64Type, &c.MaxReplicas) ||
			!rawAttr(ctx, attrs, "pools", types.ListType{ElemType: types.StringType}, &c.Pools) {
			return nil, false
		}
		checks[i] = c
	}
	return checks, true
}

// modelWorkloadChecks is what validateWorkloadConfig reads of every workload of l, read with objectAs.
func modelWorkloadChecks(ctx context.Context, l types.List) []*workloadCheck {
	if l.IsUnknown() || l.IsNull() {
		return nil
	}
	elems := l.Elements()
	checks := make([]*workloadCheck, len(elems))
	for i, v := range elems {
		obj, ok := v.(types.Object)
		if !ok || obj.IsUnknown() {
			continue
		}
		var w workloadModel
		d := objectAs(ctx, obj, &w, objectAsOptions)
		c := w.check()
		c.diags = d
		checks[i] = &c
	}
	return checks
}

// rawAttr sets dst to attribute name of attrs converted by t; false when it is missing, of another type or
// does not convert.
func rawAttr[T attr.Value](ctx context.Context, attrs map[string]tftypes.Value, name string, t attr.Type, dst *T) bool {
	v, ok := attrs[name]
	if !ok || !v.Type().Equal(t.TerraformType(ctx)) {
		return false
	}
	x, err := t.ValueFromTerraform(ctx, v)
	if err != nil {
		return false
	}
	*dst, ok = x.(T)
	return ok
}
