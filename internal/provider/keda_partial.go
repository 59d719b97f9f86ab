package provider

import (
	"context"
	"math/big"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/keda"
)

// kedaInputsNotRendered are kubefit-only inputs: unknown values there do not affect the manifest.
var kedaInputsNotRendered = map[string]bool{"keda_version": true, "kubernetes_version": true, "target_workload": true,
	"namespace_limit_range_defaults": true, "node_group_capacity": true, "database": true}

// partialManifest renders the ScaledObject with unknown leaves where the configuration has unknown
// strings or numbers (keda.md §8.4), so kubernetes_manifest can resolve its type during plan (partialRender): an
// unknown number's placeholder lies above int32, where no valid field does.
func partialManifest(ctx context.Context, config tfsdk.Config) (attr.Value, bool) {
	rules := partialRules{notRendered: kedaInputsNotRendered,
		number: func(n int64) *big.Float { return new(big.Float).SetInt64(unknownNumberBase + n) }}
	return partialRender(ctx, config, rules, func(raw tftypes.Value, _ int64) (attr.Value, bool) {
		var m kedaScaledObjectModel
		if d := (tfsdk.Config{Raw: raw, Schema: config.Schema}).Get(ctx, &m); d.HasError() {
			return nil, false
		}
		if strings.Contains(m.Name, unknownStringMarker) || strings.Contains(m.Namespace, unknownStringMarker) {
			return nil, false
		}
		v, err := dynamicValue(keda.Render(m.scaledObject()), true)
		return v, err == nil
	})
}
