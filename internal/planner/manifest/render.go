package manifest

import (
	"bytes"
	"encoding/json"
	"fmt"

	"sigs.k8s.io/yaml"
)

// Rendered is an object in the three forms callers hand on: JSON, YAML and the generic JSON value.
type Rendered struct {
	// JSON is the object as compact JSON, as encoding/json writes it (keys sorted, empty fields left out
	// as the object's tags say).
	JSON string
	// YAML is the same object as YAML.
	YAML string
	// Object is the JSON decoded into generic values: map[string]any, []any, string, bool, json.Number
	// (numbers keep their exact text) and nil.
	Object map[string]any
}

// Render renders obj, which must encode to a JSON object.
func Render(obj any) (Rendered, error) {
	raw, err := json.Marshal(obj)
	if err != nil {
		return Rendered{}, fmt.Errorf("encoding %T as JSON: %w", obj, err)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var generic map[string]any
	if err := dec.Decode(&generic); err != nil {
		return Rendered{}, fmt.Errorf("%T does not encode to a JSON object: %w", obj, err)
	}
	y, err := YAML(obj)
	if err != nil {
		return Rendered{}, err
	}
	return Rendered{JSON: string(raw), YAML: y, Object: generic}, nil
}

// YAML renders obj as YAML through its JSON encoding, so field names and omitted empty fields are the
// ones Kubernetes uses.
func YAML(obj any) (string, error) {
	y, err := yaml.Marshal(obj)
	if err != nil {
		return "", fmt.Errorf("encoding %T as YAML: %w", obj, err)
	}
	return string(y), nil
}
