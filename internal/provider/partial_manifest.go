package provider

import (
	"context"
	"fmt"
	"math/big"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// An autoscaler's manifest is rendered during plan with placeholders where the configuration is unknown, so that
// kubernetes_manifest can resolve its type (keda.md §8.4): strings carry a marker no configuration contains, numbers
// a value no valid field holds, and dynamicValue turns both into unknown leaves.
const (
	unknownStringMarker = "\x00kubefit-unknown\x00"
	unknownNumberBase   = int64(1) << 52
)

// maxMayBeNull bounds the unknown optional values whose null a partial manifest is rendered with once each; beyond
// it the manifest is left wholly unknown.
const maxMayBeNull = 32

// partialRules says how one kind of manifest stands in for its unknown inputs.
type partialRules struct {
	// notRendered are the top-level inputs that do not reach the manifest: their unknowns are read as null.
	notRendered map[string]bool
	// opaque reports an unknown string no marker can stand in for (one the renderer parses); nil: none.
	opaque func(p *tftypes.AttributePath) bool
	// number is the placeholder of the n-th unknown value, a number.
	number func(n int64) *big.Float
	// maxPlaceholders bounds the placeholders (0: no bound); beyond it the manifest is left wholly unknown.
	maxPlaceholders int64
}

// partialRender renders a manifest (render, given the configuration with placeholders and their count) with
// unknown leaves where the configuration has unknown strings or numbers. It returns false when an unknown is
// something else (a bool, a whole list, map or object, an opaque string): the manifest is then left wholly unknown.
// The shape of the result holds whatever the unknowns turn out to be (keepsShape).
func partialRender(ctx context.Context, config tfsdk.Config, rules partialRules, render func(raw tftypes.Value, n int64) (attr.Value, bool)) (attr.Value, bool) {
	n := int64(0)
	simple := true
	var mayBeNull []*tftypes.AttributePath
	raw, err := tftypes.Transform(config.Raw, func(p *tftypes.AttributePath, v tftypes.Value) (tftypes.Value, error) {
		if v.IsKnown() {
			return v, nil
		}
		if steps := p.Steps(); len(steps) > 0 {
			if a, ok := steps[0].(tftypes.AttributeName); ok && rules.notRendered[string(a)] {
				return tftypes.NewValue(v.Type(), nil), nil
			}
		}
		if rules.opaque != nil && rules.opaque(p) && v.Type().Is(tftypes.String) {
			simple = false
			return v, nil
		}
		n++
		switch {
		case rules.maxPlaceholders > 0 && n >= rules.maxPlaceholders:
		case v.Type().Is(tftypes.String):
			mayBeNull = optionalAt(ctx, config, p, mayBeNull)
			return tftypes.NewValue(tftypes.String, fmt.Sprintf("%s%d", unknownStringMarker, n)), nil
		case v.Type().Is(tftypes.Number):
			mayBeNull = optionalAt(ctx, config, p, mayBeNull)
			return tftypes.NewValue(tftypes.Number, rules.number(n)), nil
		}
		simple = false
		return v, nil
	})
	if err != nil || !simple || !raw.IsFullyKnown() {
		return nil, false
	}
	return keepsShape(ctx, raw, mayBeNull, func(raw tftypes.Value) (attr.Value, bool) { return render(raw, n) })
}

// optionalAt appends p to paths when the value there may still turn out null: an attribute that is not required
// (or a map's element, which is no attribute).
func optionalAt(ctx context.Context, config tfsdk.Config, p *tftypes.AttributePath, paths []*tftypes.AttributePath) []*tftypes.AttributePath {
	if a, err := config.Schema.AttributeAtTerraformPath(ctx, p); err == nil && a.IsRequired() {
		return paths
	}
	return append(paths, p)
}

// keepsShape renders the partial manifest (raw, with placeholders for the unknown values), then again with each
// unknown that may turn out null (mayBeNull) set to null, and once with all of them null (a renderer drops a block
// whose fields are all unset). A renderer leaves an unset field's key out, so a null gives the manifest another
// type, and Terraform refuses an apply whose final value's type is not the planned one ("Provider produced
// inconsistent final plan"). Where a rendering differs in shape, the planned manifest holds an unknown of no fixed
// type (unknownWhereShapesDiffer), to which any final value conforms; the rest, with apiVersion, kind and metadata,
// stays known for kubernetes_manifest. A null the renderer refuses changes nothing: the apply fails on it whatever the
// plan said.
func keepsShape(ctx context.Context, raw tftypes.Value, mayBeNull []*tftypes.AttributePath, render func(tftypes.Value) (attr.Value, bool)) (attr.Value, bool) {
	v, ok := render(raw)
	if !ok || len(mayBeNull) > maxMayBeNull {
		return nil, false
	}
	variants := make([][]*tftypes.AttributePath, 0, len(mayBeNull)+1)
	for _, p := range mayBeNull {
		variants = append(variants, []*tftypes.AttributePath{p})
	}
	if len(mayBeNull) > 1 {
		variants = append(variants, mayBeNull)
	}
	for _, targets := range variants {
		nulled, err := tftypes.Transform(raw, func(p *tftypes.AttributePath, x tftypes.Value) (tftypes.Value, error) {
			for _, t := range targets {
				if p.Equal(t) {
					return tftypes.NewValue(x.Type(), nil), nil
				}
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
// whole manifest is then left unknown). A part of v already unknown of no fixed type stays so.
func unknownWhereShapesDiffer(ctx context.Context, v, w attr.Value) (attr.Value, bool) {
	if v.Type(ctx).Equal(w.Type(ctx)) {
		return v, true
	}
	if _, dynamic := v.(basetypes.DynamicValue); dynamic {
		return v, true
	}
	ov, okv := v.(basetypes.ObjectValue)
	ow, okw := w.(basetypes.ObjectValue)
	if !okv || !okw || ov.IsUnknown() || ow.IsUnknown() || len(ov.Attributes()) != len(ow.Attributes()) {
		return nil, false
	}
	attrs, attrTypes := map[string]attr.Value{}, map[string]attr.Type{}
	for k, x := range ov.Attributes() {
		y, ok := ow.Attributes()[k]
		if !ok {
			return nil, false
		}
		z, ok := unknownWhereShapesDiffer(ctx, x, y)
		if !ok {
			z = basetypes.NewDynamicUnknown()
		}
		attrs[k], attrTypes[k] = z, z.Type(ctx)
	}
	o, d := basetypes.NewObjectValue(attrTypes, attrs)
	return o, !d.HasError()
}
