package provider

import (
	"context"
	"encoding/json"
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
// whole numbers (partialRender, as the ScaledObject's partialManifest does), so kubernetes_manifest can resolve its
// type during plan. Unknown numbers get a placeholder below the int32 maximum that the rendered object keeps; an
// unknown quantity, parsed by the typed object, leaves the manifest wholly unknown, as do the name or namespace.
func hpaPartialManifest(ctx context.Context, config tfsdk.Config) (attr.Value, bool) {
	rules := partialRules{notRendered: hpaInputsNotRendered, maxPlaceholders: maxHPAPlaceholders,
		number: func(n int64) *big.Float { return new(big.Float).SetInt64(math.MaxInt32 - n) },
		opaque: func(p *tftypes.AttributePath) bool {
			steps := p.Steps()
			if len(steps) == 0 {
				return false
			}
			a, ok := steps[len(steps)-1].(tftypes.AttributeName)
			return ok && hpaQuantities[string(a)]
		}}
	return partialRender(ctx, config, rules, func(raw tftypes.Value, n int64) (attr.Value, bool) {
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
	})
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
