// Package manifest renders what the planner produces as objects other tools consume: typed Kubernetes
// objects (k8s.io/api) and their YAML (sigs.k8s.io/yaml) and JSON forms. Builders take plain planner
// values and return the typed object, or field errors (see package field) naming the input at fault;
// Render turns any object into its JSON, its YAML and its generic JSON value, which a caller such as
// the Terraform provider converts into its own value types without knowing the object.
//
// Rendering is pure and deterministic: the same input gives byte-identical output (map keys are
// sorted by the encoders).
package manifest
