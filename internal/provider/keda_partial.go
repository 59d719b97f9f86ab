package provider

import (
	"context"
	"fmt"
	"math/big"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/keda"
)

// Placeholders stand in for unknown inputs while a partly known ScaledObject is rendered: strings carry a
// marker no configuration contains, numbers a value above int32 that no valid field holds.
const (
	unknownStringMarker = "\x00kubefit-unknown\x00"
	unknownNumberBase   = int64(1) << 52
)

// kedaInputsNotRendered are kubefit-only inputs: unknown values there do not affect the manifest.
var kedaInputsNotRendered = map[string]bool{"keda_version": true, "kubernetes_version": true, "target_workload": true,
	"namespace_limit_range_defaults": true, "node_group_capacity": true, "database": true}

// partialManifest renders the ScaledObject with unknown leaves where the configuration has unknown
// strings or numbers (keda.md §8.4), so kubernetes_manifest can resolve its type during plan. It
// returns false when an unknown value is not a string or number (a whole list, map, object or a bool
// unknown): the manifest is then left wholly unknown.
func partialManifest(ctx context.Context, config tfsdk.Config) (attr.Value, bool) {
	n := int64(0)
	simple := true
	var mayBeNull []*tftypes.AttributePath
	raw, err := tftypes.Transform(config.Raw, func(p *tftypes.AttributePath, v tftypes.Value) (tftypes.Value, error) {
		if v.IsKnown() {
			return v, nil
		}
		if steps := p.Steps(); len(steps) > 0 {
			if a, ok := steps[0].(tftypes.AttributeName); ok && kedaInputsNotRendered[string(a)] {
				return tftypes.NewValue(v.Type(), nil), nil
			}
		}
		n++
		switch {
		case v.Type().Is(tftypes.String):
			mayBeNull = optionalAt(ctx, config, p, mayBeNull)
			return tftypes.NewValue(tftypes.String, fmt.Sprintf("%s%d", unknownStringMarker, n)), nil
		case v.Type().Is(tftypes.Number):
			mayBeNull = optionalAt(ctx, config, p, mayBeNull)
			return tftypes.NewValue(tftypes.Number, new(big.Float).SetInt64(unknownNumberBase+n)), nil
		}
		simple = false
		return v, nil
	})
	if err != nil || !simple || !raw.IsFullyKnown() {
		return nil, false
	}
	render := func(raw tftypes.Value) (attr.Value, bool) {
		var m kedaScaledObjectModel
		if d := (tfsdk.Config{Raw: raw, Schema: config.Schema}).Get(ctx, &m); d.HasError() {
			return nil, false
		}
		if strings.Contains(m.Name, unknownStringMarker) || strings.Contains(m.Namespace, unknownStringMarker) {
			return nil, false
		}
		v, err := dynamicValue(keda.Render(m.scaledObject()), true)
		return v, err == nil
	}
	return keepsShape(ctx, raw, mayBeNull, render)
}

// maxMayBeNull bounds the unknown optional values whose null a partial manifest is rendered with once each; beyond
// it the manifest is left wholly unknown.
const maxMayBeNull = 32

// optionalAt appends p to paths when the value there may still turn out null: an attribute that is not required
// (or a map's element, which is no attribute).
func optionalAt(ctx context.Context, config tfsdk.Config, p *tftypes.AttributePath, paths []*tftypes.AttributePath) []*tftypes.AttributePath {
	if a, err := config.Schema.AttributeAtTerraformPath(ctx, p); err == nil && a.IsRequired() {
		return paths
	}
	return append(paths, p)
}

// keepsShape renders the partial manifest (raw, with placeholders for the unknown values), then again with each
// unknown that may turn out null (mayBeNull) set to null. A renderer leaves an unset field's key out, so such a
// null gives the manifest another type, and Terraform refuses an apply whose final value's type is not the planned
// one ("Provider produced inconsistent final plan"). Where the two renderings differ in shape, the planned manifest
// holds an unknown of no fixed type (unknownWhereShapesDiffer), to which any final value conforms; the rest, with
// apiVersion, kind and metadata, stays known for kubernetes_manifest. A null the renderer refuses changes nothing:
// the apply fails on it whatever the plan said.
func keepsShape(ctx context.Context, raw tftypes.Value, mayBeNull []*tftypes.AttributePath, render func(tftypes.Value) (attr.Value, bool)) (attr.Value, bool) {
	v, ok := render(raw)
	if !ok {
		return nil, false
	}
	if len(mayBeNull) > maxMayBeNull {
		return nil, false
	}
	for _, target := range mayBeNull {
		nulled, err := tftypes.Transform(raw, func(p *tftypes.AttributePath, x tftypes.Value) (tftypes.Value, error) {
			if p.Equal(target) {
				return tftypes.NewValue(x.Type(), nil), nil
			}
			return x, nil
		})
		if err != nil {
			return nil, false
		}
		if w, ok := render(nulled); ok && !w.Type(ctx).Equal(v.Type(ctx)) {
			if v, ok = unknownWhereShapesDiffer(ctx, v, w); !ok {
				return nil, false
			}
		}
	}
	return v, true
}

// unknownWhereShapesDiffer is v with every part whose shape differs from w's (an object with other keys, a tuple of
// another length, a value of another type) replaced by an unknown of no fixed type; false when v itself differs (the
// whole manifest is then left unknown).
func unknownWhereShapesDiffer(ctx context.Context, v, w attr.Value) (attr.Value, bool) {
	if v.Type(ctx).Equal(w.Type(ctx)) {
		return v, true
	}
	ov, okv := v.(basetypes.ObjectValue)
	ow, okw := w.(basetypes.ObjectValue)
	if !okv || !okw || ov.IsUnknown() || ow.IsUnknown() || len(ov.Attributes()) != len(ow.Attributes()) {
		return nil, false
	}
	attrs, types := map[string]attr.Value{}, map[string]attr.Type{}
	for k, x := range ov.Attributes() {
		y, ok := ow.Attributes()[k]
		if !ok {
			return nil, false
		}
		z, ok := unknownWhereShapesDiffer(ctx, x, y)
		if !ok {
			z = basetypes.NewDynamicUnknown()
		}
		attrs[k], types[k] = z, z.Type(ctx)
	}
	o, d := basetypes.NewObjectValue(types, attrs)
	return o, !d.HasError()
}
