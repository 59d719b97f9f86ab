package provider

import (
	"encoding/json"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/keda"
)

func TestDynamicValue(t *testing.T) {
	in := keda.Object{{Key: "name", Value: "web-" + unknownStringMarker}, {Key: "replicas", Value: int64(unknownNumberBase + 1)},
		{Key: "spec", Value: map[string]any{"size": json.Number("1.5"), "gone": nil, "list": []any{true, "x", int64(3)}}}}
	full, err := dynamicValue(in, false)
	if err != nil {
		t.Fatal(err)
	}
	partial, err := dynamicValue(in, true)
	if err != nil {
		t.Fatal(err)
	}
	fa, pa := full.(types.Object).Attributes(), partial.(types.Object).Attributes()
	if fa["name"].IsUnknown() || !pa["name"].IsUnknown() || !pa["replicas"].IsUnknown() || fa["replicas"].IsUnknown() {
		t.Errorf("placeholders: full %v, partial %v", fa, pa)
	}
	spec := fa["spec"].(types.Object).Attributes()
	if _, ok := spec["gone"]; ok || spec["size"].String() != "1.5" || len(spec["list"].(types.Tuple).Elements()) != 3 {
		t.Errorf("spec %v: want nulls left out, 1.5 and a 3-tuple", spec)
	}
	if _, err := dynamicValue(map[string]any{unknownStringMarker: "x"}, true); err == nil {
		t.Error("a key holding a placeholder must be an error in a partial manifest")
	}
	if _, err := dynamicValue(struct{}{}, false); err == nil {
		t.Error("an unexpected type must be an error")
	}
}
