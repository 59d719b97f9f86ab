package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/keda"
)

// dynamicValue converts a rendered manifest into the Terraform value jsondecode() or yamldecode() gives for
// it: objects (from decoded JSON maps, or keda.Object with its members in order), tuples, strings, numbers
// (int64 or json.Number) and bools; nulls are left out of objects. With placeholders, the markers of
// values a partial manifest does not know yet become unknowns (keda_partial.go), and a key holding one
// is an error.
func dynamicValue(v any, placeholders bool) (attr.Value, error) {
	object := func(keys []string, values []any) (attr.Value, error) {
		attrTypes, vals := make(map[string]attr.Type, len(keys)), make(map[string]attr.Value, len(keys))
		for i, k := range keys {
			if values[i] == nil {
				continue
			}
			if placeholders && strings.Contains(k, unknownStringMarker) {
				return nil, fmt.Errorf("unknown map key")
			}
			ev, err := dynamicValue(values[i], placeholders)
			if err != nil {
				return nil, err
			}
			attrTypes[k], vals[k] = ev.Type(context.Background()), ev
		}
		o, d := types.ObjectValue(attrTypes, vals)
		if d.HasError() {
			return nil, fmt.Errorf("building object: %v", d)
		}
		return o, nil
	}
	switch t := v.(type) {
	case keda.Object:
		keys, values := make([]string, len(t)), make([]any, len(t))
		for i, m := range t {
			keys[i], values[i] = m.Key, m.Value
		}
		return object(keys, values)
	case map[string]any:
		keys, values := make([]string, 0, len(t)), make([]any, 0, len(t))
		for k, e := range t {
			keys, values = append(keys, k), append(values, e)
		}
		return object(keys, values)
	case []any:
		elemTypes, elems := make([]attr.Type, 0, len(t)), make([]attr.Value, 0, len(t))
		for _, e := range t {
			ev, err := dynamicValue(e, placeholders)
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
		if placeholders && strings.Contains(t, unknownStringMarker) {
			return types.StringUnknown(), nil
		}
		return types.StringValue(t), nil
	case bool:
		return types.BoolValue(t), nil
	case int64:
		if placeholders && t > unknownNumberBase {
			return types.NumberUnknown(), nil
		}
		return types.NumberValue(new(big.Float).SetInt64(t)), nil
	case json.Number:
		f, ok := new(big.Float).SetString(t.String())
		if !ok {
			return nil, fmt.Errorf("number %q", t)
		}
		return types.NumberValue(f), nil
	}
	return nil, fmt.Errorf("unexpected rendered value %T", v)
}
