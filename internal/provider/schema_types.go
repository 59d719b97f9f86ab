package provider

import (
	"maps"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
)

// Nested attributes' types, built once.
//
// The framework asks a nested attribute for its type at every value it visits: decoding a configuration
// (NullifyCollectionBlocks looks up each non-null value's path), converting paths, validating and reading into
// models. Without a CustomType, a nested attribute builds that type anew from its attributes each time, the
// nested ones included, so a configuration's cost grew as its values times the size of the workload schema
// (issue 21: 2 s to validate 1,000 workloads). Setting CustomType to exactly the type the framework would
// build (types.ObjectType, types.ListType, types.SetType, types.MapType of the same attribute types) changes no
// value, no schema Terraform sees and no document; it only stops the rebuilding.

// cacheDataSourceTypes sets the built types on every nested attribute of a data source schema. It copies the
// attribute maps it changes, so schemas that share attribute maps stay independent.
func cacheDataSourceTypes(s *dschema.Schema) {
	s.Attributes = cachedAttrs(s.Attributes, cacheDataSourceAttr)
}

// cacheDataSourceAttr sets a nested attribute's CustomType, and its nested object's, once those of the attributes
// inside are set: GetType then builds the type from the cached ones, once.
func cacheDataSourceAttr(a dschema.Attribute) dschema.Attribute {
	object := func(o dschema.NestedAttributeObject) dschema.NestedAttributeObject {
		o.Attributes = cachedAttrs(o.Attributes, cacheDataSourceAttr)
		o.CustomType = orBuilt(o.CustomType, o.Type())
		return o
	}
	switch x := a.(type) {
	case dschema.SingleNestedAttribute:
		x.Attributes = cachedAttrs(x.Attributes, cacheDataSourceAttr)
		x.CustomType = orBuilt(x.CustomType, x.GetType())
		return x
	case dschema.ListNestedAttribute:
		x.NestedObject = object(x.NestedObject)
		x.CustomType = orBuilt(x.CustomType, x.GetType())
		return x
	case dschema.SetNestedAttribute:
		x.NestedObject = object(x.NestedObject)
		x.CustomType = orBuilt(x.CustomType, x.GetType())
		return x
	case dschema.MapNestedAttribute:
		x.NestedObject = object(x.NestedObject)
		x.CustomType = orBuilt(x.CustomType, x.GetType())
		return x
	}
	return a
}

// cacheResourceTypes is cacheDataSourceTypes for a resource schema.
func cacheResourceTypes(s *rschema.Schema) {
	s.Attributes = cachedAttrs(s.Attributes, cacheResourceAttr)
}

// cacheResourceAttr is cacheDataSourceAttr for a resource attribute.
func cacheResourceAttr(a rschema.Attribute) rschema.Attribute {
	object := func(o rschema.NestedAttributeObject) rschema.NestedAttributeObject {
		o.Attributes = cachedAttrs(o.Attributes, cacheResourceAttr)
		o.CustomType = orBuilt(o.CustomType, o.Type())
		return o
	}
	switch x := a.(type) {
	case rschema.SingleNestedAttribute:
		x.Attributes = cachedAttrs(x.Attributes, cacheResourceAttr)
		x.CustomType = orBuilt(x.CustomType, x.GetType())
		return x
	case rschema.ListNestedAttribute:
		x.NestedObject = object(x.NestedObject)
		x.CustomType = orBuilt(x.CustomType, x.GetType())
		return x
	case rschema.SetNestedAttribute:
		x.NestedObject = object(x.NestedObject)
		x.CustomType = orBuilt(x.CustomType, x.GetType())
		return x
	case rschema.MapNestedAttribute:
		x.NestedObject = object(x.NestedObject)
		x.CustomType = orBuilt(x.CustomType, x.GetType())
		return x
	}
	return a
}

// cachedAttrs is a copy of attrs with cache applied to every attribute.
func cachedAttrs[A any](attrs map[string]A, cache func(A) A) map[string]A {
	out := maps.Clone(attrs)
	for name, a := range out {
		out[name] = cache(a)
	}
	return out
}

// orBuilt is the CustomType set, or else the type the framework built, as the typable kind CustomType takes.
func orBuilt[T any](set T, built attr.Type) T {
	if any(set) != nil {
		return set
	}
	return built.(T)
}
