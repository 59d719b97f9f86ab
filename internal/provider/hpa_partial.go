package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/hpa"
)

// hpaInputsNotRendered are kubefit-only inputs: unknown values there do not affect the manifest.
var hpaInputsNotRendered = map[string]bool{"kubernetes_version": true, "scale_to_zero": true, "target_workload": true,
	"node_group_capacity": true, "database": true}

// hpaQuantities are the attributes whose strings are quantities: a marker cannot stand in for them, as the
// typed object holds them parsed.
var hpaQuantities = map[string]bool{"value": true, "average_value": true, "tolerance": true}

// maxHPAPlaceholders bounds the unknown numbers one partial manifest carries; they stand just below the
// int32 maximum, where no sensible count or period lies.
const maxHPAPlaceholders = 1 << 16

// hpaPartialManifest renders the HPA with unknown leaves where the configuration has unknown strings or
// whole numbers (as the ScaledObject's partialManifest does), so kubernetes_manifest can resolve its type
// during plan. Unknown strings carry a marker; unknown numbers a placeholder below the int32 maximum that
// the rendered object keeps. It returns false when an unknown value is a quantity, a bool, a whole list,
// map or object, or the name or namespace: the manifest is then left wholly unknown.
func hpaPartialManifest(ctx context.Context, config tfsdk.Config) (attr.Value, bool) {
	n := int64(0)
	simple := true
	var mayBeNull []*tftypes.AttributePath
	raw, err := tftypes.Transform(config.Raw, func(p *tftypes.AttributePath, v tftypes.Value) (tftypes.Value, error) {
		if v.IsKnown() {
			return v, nil
		}
		steps := p.Steps()
		if len(steps) > 0 {
			if a, ok := steps[0].(tftypes.AttributeName); ok && hpaInputsNotRendered[string(a)] {
				return tftypes.NewValue(v.Type(), nil), nil
			}
			if a, ok := steps[len(steps)-1].(tftypes.AttributeName); ok && hpaQuantities[string(a)] && v.Type().Is(tftypes.String) {
				simple = false
				return v, nil
			}
		}
		n++
		switch {
		case n >= maxHPAPlaceholders:
		case v.Type().Is(tftypes.String):
			mayBeNull = optionalAt(ctx, config, p, mayBeNull)
			return tftypes.NewValue(tftypes.String, fmt.Sprintf("%s%d", unknownStringMarker, n)), nil
		case v.Type().Is(tftypes.Number):
			mayBeNull = optionalAt(ctx, config, p, mayBeNull)
			return tftypes.NewValue(tftypes.Number, new(big.Float).SetInt64(math.MaxInt32-n)), nil
		}
		simple = false
		return v, nil
	})
	if err != nil || !simple || !raw.IsFullyKnown() {
		return nil, false
	}
	render := func(raw tftypes.Value) (attr.Value, bool) {
		var m hpaModel
		if d := (tfsdk.Config{Raw: raw, Schema: config.Schema}).Get(ctx, &m); d.HasError() {
			return nil, false
		}
		if strings.Contains(m.Name, unknownStringMarker) || strings.Contains(m.Namespace, unknownStringMarker) {
			return nil, false
		}
		obj, _, err := hpa.Manifest(hpa.Render(m.hpa()))
		if err != nil {
			return nil, false
		}
		v, err := dynamicValue(markPlaceholders(obj, n), true)
		return v, err == nil
	}
	return keepsShape(ctx, raw, mayBeNull, render)
}

// markPlaceholders turns the numbers of v that are placeholders (math.MaxInt32 − 1 … math.MaxInt32 − n)
// into the markers dynamicValue makes unknown.
func markPlaceholders(v any, n int64) any {
	switch t := v.(type) {
	case map[string]any:
		for k, e := range t {
			t[k] = markPlaceholders(e, n)
		}
	case []any:
		for i, e := range t {
			t[i] = markPlaceholders(e, n)
		}
	case json.Number:
		if i, err := t.Int64(); err == nil && i < math.MaxInt32 && i >= math.MaxInt32-n {
			return unknownNumberBase + (math.MaxInt32 - i)
		}
	}
	return v
}
