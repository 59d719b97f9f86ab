package provider

import (
	"context"
	"fmt"
	"math/big"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
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
	v, err := dynamicValue(keda.Render(m.scaledObject()), true)
	if err != nil {
		return nil, false
	}
	return v, true
}
