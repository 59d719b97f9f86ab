package provider

import (
	"maps"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
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
	s.Attributes = cacheDataSourceAttrs(s.Attributes)
}

func cacheDataSourceAttrs(in map[string]dschema.Attribute) map[string]dschema.Attribute {
	out := maps.Clone(in)
	for name, a := range out {
		out[name] = cacheDataSourceAttr(a)
	}
	return out
}

func cacheDataSourceAttr(a dschema.Attribute) dschema.Attribute {
	switch x := a.(type) {
	case dschema.SingleNestedAttribute:
		x.Attributes = cacheDataSourceAttrs(x.Attributes)
		if x.CustomType == nil {
			x.CustomType = builtObjectType(x.GetType())
		}
		return x
	case dschema.ListNestedAttribute:
		x.NestedObject = cacheDataSourceObject(x.NestedObject)
		if x.CustomType == nil {
			x.CustomType = basetypes.ListType{ElemType: x.NestedObject.Type()}
		}
		return x
	case dschema.SetNestedAttribute:
		x.NestedObject = cacheDataSourceObject(x.NestedObject)
		if x.CustomType == nil {
			x.CustomType = basetypes.SetType{ElemType: x.NestedObject.Type()}
		}
		return x
	case dschema.MapNestedAttribute:
		x.NestedObject = cacheDataSourceObject(x.NestedObject)
		if x.CustomType == nil {
			x.CustomType = basetypes.MapType{ElemType: x.NestedObject.Type()}
		}
		return x
	}
	return a
}

func cacheDataSourceObject(o dschema.NestedAttributeObject) dschema.NestedAttributeObject {
	o.Attributes = cacheDataSourceAttrs(o.Attributes)
	if o.CustomType == nil {
		o.CustomType = builtObjectType(o.Type())
	}
	return o
}

// cacheResourceTypes is cacheDataSourceTypes for a resource schema.
func cacheResourceTypes(s *rschema.Schema) {
	s.Attributes = cacheResourceAttrs(s.Attributes)
}

func cacheResourceAttrs(in map[string]rschema.Attribute) map[string]rschema.Attribute {
	out := maps.Clone(in)
	for name, a := range out {
		out[name] = cacheResourceAttr(a)
	}
	return out
}

func cacheResourceAttr(a rschema.Attribute) rschema.Attribute {
	switch x := a.(type) {
	case rschema.SingleNestedAttribute:
		x.Attributes = cacheResourceAttrs(x.Attributes)
		if x.CustomType == nil {
			x.CustomType = builtObjectType(x.GetType())
		}
		return x
	case rschema.ListNestedAttribute:
		x.NestedObject = cacheResourceObject(x.NestedObject)
		if x.CustomType == nil {
			x.CustomType = basetypes.ListType{ElemType: x.NestedObject.Type()}
		}
		return x
	case rschema.SetNestedAttribute:
		x.NestedObject = cacheResourceObject(x.NestedObject)
		if x.CustomType == nil {
			x.CustomType = basetypes.SetType{ElemType: x.NestedObject.Type()}
		}
		return x
	case rschema.MapNestedAttribute:
		x.NestedObject = cacheResourceObject(x.NestedObject)
		if x.CustomType == nil {
			x.CustomType = basetypes.MapType{ElemType: x.NestedObject.Type()}
		}
		return x
	}
	return a
}

func cacheResourceObject(o rschema.NestedAttributeObject) rschema.NestedAttributeObject {
	o.Attributes = cacheResourceAttrs(o.Attributes)
	if o.CustomType == nil {
		o.CustomType = builtObjectType(o.Type())
	}
	return o
}

// builtObjectType is t, built by the framework for a nested object, as the ObjectTypable a CustomType takes.
func builtObjectType(t attr.Type) basetypes.ObjectTypable {
	return t.(basetypes.ObjectTypable)
}
