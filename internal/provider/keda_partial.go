package provider

import (
	"context"
	"fmt"
	"math/big"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
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
			return tftypes.NewValue(tftypes.String, fmt.Sprintf("%s%d", unknownStringMarker, n)), nil
		case v.Type().Is(tftypes.Number):
			return tftypes.NewValue(tftypes.Number, new(big.Float).SetInt64(unknownNumberBase+n)), nil
		}
		simple = false
		return v, nil
	})
	if err != nil || !simple || !raw.IsFullyKnown() {
		return nil, false
	}
	var m kedaScaledObjectModel
	if d := (tfsdk.Config{Raw: raw, Schema: config.Schema}).Get(ctx, &m); d.HasError() {
		return nil, false
	}
	if strings.Contains(m.Name, unknownStringMarker) || strings.Contains(m.Namespace, unknownStringMarker) {
		return nil, false
	}
	v, err := partialValue(keda.Render(m.scaledObject()))
	if err != nil {
		return nil, false
	}
	return v, true
}

// partialValue converts a rendered object like kedaObjectValue, turning placeholders into unknowns.
func partialValue(v any) (attr.Value, error) {
	switch t := v.(type) {
	case keda.Object:
		attrTypes, vals := make(map[string]attr.Type, len(t)), make(map[string]attr.Value, len(t))
		for _, m := range t {
			if strings.Contains(m.Key, unknownStringMarker) {
				return nil, fmt.Errorf("unknown map key")
			}
			ev, err := partialValue(m.Value)
			if err != nil {
				return nil, err
			}
			attrTypes[m.Key], vals[m.Key] = ev.Type(context.Background()), ev
		}
		o, d := types.ObjectValue(attrTypes, vals)
		if d.HasError() {
			return nil, fmt.Errorf("building object: %v", d)
		}
		return o, nil
	case []any:
		elemTypes, elems := make([]attr.Type, 0, len(t)), make([]attr.Value, 0, len(t))
		for _, e := range t {
			ev, err := partialValue(e)
			if err != nil {
				return nil, err
			}
			elemTypes, elems = append(elemTypes, ev.Type(context.Background())), append(elems, ev)
		}
		tv, d := types.TupleValue(elemTypes, elems)
		if d.HasError() {
			return nil, fmt.Errorf("building tuple: %v", d)
		}
		return tv, nil
	case string:
		if strings.Contains(t, unknownStringMarker) {
			return types.StringUnknown(), nil
		}
	case int64:
		if t > unknownNumberBase {
			return types.NumberUnknown(), nil
		}
	}
	return kedaObjectValue(v)
}
