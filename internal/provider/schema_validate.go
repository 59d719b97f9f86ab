package provider

import (
	"context"
	"fmt"
	"reflect"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/attr/xattr"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// A data source schema's validation, as the framework's server does it (terraform-plugin-framework v1.19.0,
// internal/fwserver: SchemaValidate, AttributeValidate, AttributeValidateNestedAttributes,
// NestedAttributeObjectValidate, and fwschemadata.Data.ValueAtPath), in one walk over the configuration's value.
//
// The framework looks every attribute up from the configuration's root (ValueAtPath: the path converted, the
// attribute's type found by walking the schema, which rebuilds each level's attribute map, then the value
// converted), so validating 1,000 workloads cost ~0.5 s of a 0.8 s ValidateDataResourceConfig (issue 21). Here
// each value is reached from its parent, and converted to the framework's value only when a validator takes it.
// The diagnostics are the framework's: the same checks in the same order per attribute, the same texts, the
// same paths, the same validators called with the same requests (the whole configuration included, for the
// validators that read other attributes). schemaValidatable says which schemas this holds for: attributes of the
// kinds below whose types are the framework's own (no custom value types: those may validate or convert
// themselves), and no blocks. TestFastDataSourceServer compares both on generated configurations of every data
// source.

// schemaValidatable reports whether validateSchema validates s exactly as the framework does.
func schemaValidatable(ctx context.Context, s dschema.Schema) bool {
	if len(s.Blocks) > 0 {
		return false
	}
	for _, a := range s.Attributes {
		if !attributeValidatable(ctx, a) {
			return false
		}
	}
	return true
}

func attributeValidatable(ctx context.Context, a dschema.Attribute) bool {
	if a == nil { // a kind validationAttribute does not convert
		return false
	}
	if x, ok := a.(dschema.DynamicAttribute); ok {
		// Only the checks every attribute gets (read-only, required, deprecated) apply to it.
		return x.CustomType == nil && len(x.Validators) == 0
	}
	if !plainType(ctx, a.GetType()) {
		return false
	}
	switch a.(type) {
	case dschema.StringAttribute, dschema.Int64Attribute, dschema.Float64Attribute, dschema.BoolAttribute,
		dschema.ListAttribute, dschema.MapAttribute, dschema.SetAttribute, dschema.ObjectAttribute:
		return true
	}
	nested, ok := nestedAttributes(a)
	if !ok {
		return false
	}
	for _, n := range nested {
		if !attributeValidatable(ctx, n) {
			return false
		}
	}
	return true
}

// nestedAttributes are the attributes of a's nested object; false when a is not a nested attribute.
func nestedAttributes(a dschema.Attribute) (map[string]dschema.Attribute, bool) {
	switch x := a.(type) {
	case dschema.SingleNestedAttribute:
		return x.Attributes, true
	case dschema.ListNestedAttribute:
		return x.NestedObject.Attributes, true
	case dschema.MapNestedAttribute:
		return x.NestedObject.Attributes, true
	case dschema.SetNestedAttribute:
		return x.NestedObject.Attributes, true
	}
	return nil, false
}

// plainType reports whether t is one of the framework's own types (basetypes), whose values do not validate
// themselves (xattr.ValidateableAttribute) and whose null and unknown values are the Terraform value's. Element
// and attribute types are checked too. (Some of these types validate the Terraform value,
// xattr.TypeWithValidate, which attribute calls as the framework does; of their values only Float64Value
// compares semantically, which readDataSource does as the framework's Read does, except inside a set.)
func plainType(ctx context.Context, t attr.Type) bool {
	return plain(ctx, t, false)
}

func plain(ctx context.Context, t attr.Type, inSet bool) bool {
	if _, ok := t.ValueType(ctx).(xattr.ValidateableAttribute); ok {
		return false
	}
	if _, float := t.(basetypes.Float64Type); semanticEquality(t.ValueType(ctx)) && (!float || inSet) {
		return false
	}
	switch x := t.(type) {
	case basetypes.StringType, basetypes.Int64Type, basetypes.Float64Type, basetypes.BoolType:
		return true
	case basetypes.ListType:
		return plain(ctx, x.ElemType, inSet)
	case basetypes.SetType:
		return plain(ctx, x.ElemType, true)
	case basetypes.MapType:
		return plain(ctx, x.ElemType, inSet)
	case basetypes.ObjectType:
		for _, at := range x.AttrTypes {
			if !plain(ctx, at, inSet) {
				return false
			}
		}
		return true
	}
	return false
}

// semanticEquality reports whether v's type has a semantic equality method (StringSemanticEquals and the
// like), which the framework's Read calls after the data source's.
func semanticEquality(v attr.Value) bool {
	t := reflect.TypeOf(v)
	for i := range t.NumMethod() {
		if strings.HasSuffix(t.Method(i).Name, "SemanticEquals") {
			return true
		}
	}
	return false
}

// schemaValidation is one configuration's validation.
type schemaValidation struct {
	config tfsdk.Config
	diags  diag.Diagnostics
}

// validateSchema validates config against its schema s (schemaValidatable(s) must hold), as the framework's
// SchemaValidate does, and returns the diagnostics. The nested objects' diagnostics are gathered with the
// builtin append, not Append (quadratic: see uniqueDiagnostics), so an equal diagnostic may come twice: the
// caller passes them through uniqueDiagnostics.
func validateSchema(ctx context.Context, s dschema.Schema, config tfsdk.Config) diag.Diagnostics {
	v := &schemaValidation{config: config}
	var top map[string]tftypes.Value
	if config.Raw.IsKnown() && !config.Raw.IsNull() {
		_ = config.Raw.As(&top)
	}
	for name, a := range s.Attributes {
		if !quiet(a, top[name]) {
			v.diags = append(v.diags, v.attribute(ctx, a, path.Root(name), path.MatchRoot(name), top[name])...)
		}
	}
	if s.DeprecationMessage != "" {
		v.diags.AddWarning("Deprecated", s.DeprecationMessage)
	}
	return v.diags
}

// attribute is AttributeValidate for attribute a at p, whose configured value is tv (the zero value when its
// parent is null or unknown, which the framework's ValueAtPath reads as null).
func (v *schemaValidation) attribute(ctx context.Context, a dschema.Attribute, p path.Path, e path.Expression, tv tftypes.Value) diag.Diagnostics {
	var resp diag.Diagnostics // this attribute's, as the framework's ValidateAttributeResponse
	if !a.IsRequired() && !a.IsOptional() && !a.IsComputed() {
		resp.AddAttributeError(p, "Invalid Attribute Definition",
			"Attribute missing Required, Optional, or Computed definition. This is always a problem with the provider and should be reported to the provider developer.")
		return resp
	}
	// ValueAtPath's check of the value by its type (whole numbers in an Int64, elements of a list of them, …).
	if typed, ok := a.GetType().(xattr.TypeWithValidate); ok { //nolint:staticcheck // deprecated, the framework still calls it
		d := typed.Validate(ctx, tv, p)
		resp.Append(d...)
		if d.HasError() {
			return resp
		}
	}
	null, unknown := tv.IsNull(), !tv.IsKnown()
	if a.IsComputed() && !a.IsOptional() && !null {
		resp.AddAttributeError(p, "Invalid Configuration for Read-Only Attribute",
			"Cannot set value for this attribute as the provider has marked it as read-only. Remove the configuration line setting the value.\n\n"+
				"Refer to the provider documentation or contact the provider developers for additional information about configurable and read-only attributes that are supported.")
	}
	if a.IsRequired() && null {
		resp.AddAttributeError(p, "Missing Configuration for Required Attribute",
			fmt.Sprintf("Must set a configuration value for the %s attribute as the provider has marked it as required.\n\n", p.String())+
				"Refer to the provider documentation or contact the provider developers for additional information about configurable attributes that are required.")
	}

	// The attribute's own validators, with its value converted once.
	var value attr.Value
	convert := func() bool {
		if value != nil {
			return true
		}
		x, err := valueFrom(ctx, a.GetType(), tv) // tv has its attribute's type: the configuration was decoded with the schema's
		if err != nil {
			resp.AddAttributeError(p, "Configuration Read Error",
				"An unexpected error was encountered trying to convert an attribute value from the configuration. This is always an error in the provider. Please report the following to the provider developer:\n\n"+
					"Error: "+err.Error())
			return false
		}
		value = x
		return true
	}
	if raw := rawValidators(a); raw != nil {
		for _, r := range raw {
			r.validateRaw(p, tv, &resp)
		}
	} else {
		if validatorCount(a) > 0 && !convert() {
			return resp
		}
		v.validators(ctx, &resp, a, p, e, value)
	}

	// AttributeValidateNestedAttributes: not when this attribute has an error already (it returns on
	// resp.Diagnostics.HasError() after reading the value), so nothing inside a read-only or invalid one.
	walk := !null && !unknown && !resp.HasError()
	switch x := a.(type) {
	case dschema.SingleNestedAttribute:
		if walk && convert() {
			resp = append(resp, v.object(ctx, x.Attributes, x.Validators, p, e, tv, value)...)
		}
	case dschema.ListNestedAttribute:
		if walk {
			var elems []tftypes.Value
			_ = tv.As(&elems)
			for i, el := range elems {
				resp = append(resp, v.object(ctx, x.NestedObject.Attributes, x.NestedObject.Validators, p.AtListIndex(i), e.AtListIndex(i), el,
					v.lazy(ctx, x.NestedObject.Type(), el, x.NestedObject.Validators))...)
			}
		}
	case dschema.MapNestedAttribute:
		if walk {
			var elems map[string]tftypes.Value
			_ = tv.As(&elems)
			for k, el := range elems {
				resp = append(resp, v.object(ctx, x.NestedObject.Attributes, x.NestedObject.Validators, p.AtMapKey(k), e.AtMapKey(k), el,
					v.lazy(ctx, x.NestedObject.Type(), el, x.NestedObject.Validators))...)
			}
		}
	case dschema.SetNestedAttribute:
		if walk {
			var elems []tftypes.Value
			_ = tv.As(&elems)
			for _, el := range elems {
				ev, err := valueFrom(ctx, x.NestedObject.Type(), el)
				if err != nil {
					continue
				}
				resp = append(resp, v.object(ctx, x.NestedObject.Attributes, x.NestedObject.Validators, p.AtSetValue(ev), e.AtSetValue(ev), el, ev)...)
			}
		}
	}

	if a.GetDeprecationMessage() != "" && !null && !unknown {
		resp.AddAttributeWarning(p, "Attribute Deprecated", a.GetDeprecationMessage())
	}
	return resp
}

// quiet reports whether attribute would find nothing to say of a's value tv, without building its path: a
// null value of an attribute that is not required, or an unknown one of an attribute that is not read-only,
// with no validators (nested attributes are not walked into either, and the type's own check passes both).
func quiet(a dschema.Attribute, tv tftypes.Value) bool {
	if !a.IsRequired() && !a.IsOptional() && !a.IsComputed() || validatorCount(a) > 0 {
		return false
	}
	switch {
	case !tv.IsKnown():
		return !a.IsComputed() || a.IsOptional()
	case tv.IsNull():
		return !a.IsRequired()
	}
	return false
}

// lazy is the element el of type t as the framework's value when the object has validators to give it to.
func (v *schemaValidation) lazy(ctx context.Context, t attr.Type, el tftypes.Value, validators []validator.Object) attr.Value {
	if len(validators) == 0 {
		return nil
	}
	x, err := valueFrom(ctx, t, el)
	if err != nil {
		return nil
	}
	return x
}

// object is NestedAttributeObjectValidate: the object's validators on its value (ov, nil when it has none), then
// every attribute inside, with its value from tv.
func (v *schemaValidation) object(ctx context.Context, attrs map[string]dschema.Attribute, validators []validator.Object, p path.Path, e path.Expression, tv tftypes.Value, ov attr.Value) diag.Diagnostics {
	var resp diag.Diagnostics
	if len(validators) > 0 {
		if o, ok := ov.(basetypes.ObjectValue); ok {
			req := validator.ObjectRequest{Config: v.config, ConfigValue: o, Path: p, PathExpression: e}
			for _, val := range validators {
				out := &validator.ObjectResponse{}
				val.ValidateObject(ctx, req, out)
				resp.Append(out.Diagnostics...)
			}
		}
	}
	if !tv.IsKnown() {
		// An element unknown as a whole (a conditional choosing between two objects, an element of another object's
		// deferred output): its attributes are not known yet, not null, so nothing inside it is checked until it is.
		// The framework reads them as null (terraform-plugin-framework fwschemadata ValueAtPath: its own to-do note, "If
		// ErrInvalidStep, check parent paths for unknown value", issue #186) and calls every required one missing;
		// Terraform itself checks a nested object's required attributes only once it is known.
		return resp
	}
	var children map[string]tftypes.Value
	if !tv.IsNull() {
		_ = tv.As(&children)
	}
	for name, a := range attrs {
		if !quiet(a, children[name]) {
			resp = append(resp, v.attribute(ctx, a, p.AtName(name), e.AtName(name), children[name])...)
		}
	}
	return resp
}

// rawListValidator is a list validator that also validates the configured value itself, with the diagnostics
// ValidateList gives on the framework's value of it: converting a list of 1,000 workloads to the framework's
// value, for a validator that reads their names, was most of the walk's cost.
type rawListValidator interface {
	validateRaw(p path.Path, tv tftypes.Value, diags *diag.Diagnostics)
}

// rawValidators are the validators of a list attribute a when it has some and all are rawListValidators.
func rawValidators(a dschema.Attribute) []rawListValidator {
	var vs []validator.List
	switch x := a.(type) {
	case dschema.ListAttribute:
		vs = x.Validators
	case dschema.ListNestedAttribute:
		vs = x.Validators
	}
	var raw []rawListValidator
	for _, v := range vs {
		r, ok := v.(rawListValidator)
		if !ok {
			return nil
		}
		raw = append(raw, r)
	}
	return raw
}

// validatorCount is how many validators attribute a declares.
func validatorCount(a dschema.Attribute) int {
	switch x := a.(type) {
	case dschema.StringAttribute:
		return len(x.Validators)
	case dschema.Int64Attribute:
		return len(x.Validators)
	case dschema.Float64Attribute:
		return len(x.Validators)
	case dschema.BoolAttribute:
		return len(x.Validators)
	case dschema.ListAttribute:
		return len(x.Validators)
	case dschema.MapAttribute:
		return len(x.Validators)
	case dschema.SetAttribute:
		return len(x.Validators)
	case dschema.ObjectAttribute:
		return len(x.Validators)
	case dschema.SingleNestedAttribute:
		return len(x.Validators)
	case dschema.ListNestedAttribute:
		return len(x.Validators)
	case dschema.MapNestedAttribute:
		return len(x.Validators)
	case dschema.SetNestedAttribute:
		return len(x.Validators)
	}
	return 0
}

// validators calls attribute a's validators on its value (nil when it has none), as AttributeValidateString and
// its siblings do.
func (v *schemaValidation) validators(ctx context.Context, diags *diag.Diagnostics, a dschema.Attribute, p path.Path, e path.Expression, value attr.Value) {
	if value == nil {
		return
	}
	c := v.config
	switch x := a.(type) {
	case dschema.StringAttribute:
		run(diags, x.Validators, validator.StringRequest{Config: c, ConfigValue: value.(basetypes.StringValue), Path: p, PathExpression: e},
			func(val validator.String, req validator.StringRequest) diag.Diagnostics {
				resp := &validator.StringResponse{}
				val.ValidateString(ctx, req, resp)
				return resp.Diagnostics
			})
	case dschema.Int64Attribute:
		run(diags, x.Validators, validator.Int64Request{Config: c, ConfigValue: value.(basetypes.Int64Value), Path: p, PathExpression: e},
			func(val validator.Int64, req validator.Int64Request) diag.Diagnostics {
				resp := &validator.Int64Response{}
				val.ValidateInt64(ctx, req, resp)
				return resp.Diagnostics
			})
	case dschema.Float64Attribute:
		run(diags, x.Validators, validator.Float64Request{Config: c, ConfigValue: value.(basetypes.Float64Value), Path: p, PathExpression: e},
			func(val validator.Float64, req validator.Float64Request) diag.Diagnostics {
				resp := &validator.Float64Response{}
				val.ValidateFloat64(ctx, req, resp)
				return resp.Diagnostics
			})
	case dschema.BoolAttribute:
		run(diags, x.Validators, validator.BoolRequest{Config: c, ConfigValue: value.(basetypes.BoolValue), Path: p, PathExpression: e},
			func(val validator.Bool, req validator.BoolRequest) diag.Diagnostics {
				resp := &validator.BoolResponse{}
				val.ValidateBool(ctx, req, resp)
				return resp.Diagnostics
			})
	case dschema.ListAttribute:
		v.list(ctx, diags, x.Validators, p, e, value)
	case dschema.ListNestedAttribute:
		v.list(ctx, diags, x.Validators, p, e, value)
	case dschema.MapAttribute:
		v.mapValidators(ctx, diags, x.Validators, p, e, value)
	case dschema.MapNestedAttribute:
		v.mapValidators(ctx, diags, x.Validators, p, e, value)
	case dschema.SetAttribute:
		v.set(ctx, diags, x.Validators, p, e, value)
	case dschema.SetNestedAttribute:
		v.set(ctx, diags, x.Validators, p, e, value)
	case dschema.ObjectAttribute:
		v.objectValidators(ctx, diags, x.Validators, p, e, value)
	case dschema.SingleNestedAttribute:
		v.objectValidators(ctx, diags, x.Validators, p, e, value)
	}
}

func (v *schemaValidation) list(ctx context.Context, diags *diag.Diagnostics, vs []validator.List, p path.Path, e path.Expression, value attr.Value) {
	run(diags, vs, validator.ListRequest{Config: v.config, ConfigValue: value.(basetypes.ListValue), Path: p, PathExpression: e},
		func(val validator.List, req validator.ListRequest) diag.Diagnostics {
			resp := &validator.ListResponse{}
			val.ValidateList(ctx, req, resp)
			return resp.Diagnostics
		})
}

func (v *schemaValidation) mapValidators(ctx context.Context, diags *diag.Diagnostics, vs []validator.Map, p path.Path, e path.Expression, value attr.Value) {
	run(diags, vs, validator.MapRequest{Config: v.config, ConfigValue: value.(basetypes.MapValue), Path: p, PathExpression: e},
		func(val validator.Map, req validator.MapRequest) diag.Diagnostics {
			resp := &validator.MapResponse{}
			val.ValidateMap(ctx, req, resp)
			return resp.Diagnostics
		})
}

func (v *schemaValidation) set(ctx context.Context, diags *diag.Diagnostics, vs []validator.Set, p path.Path, e path.Expression, value attr.Value) {
	run(diags, vs, validator.SetRequest{Config: v.config, ConfigValue: value.(basetypes.SetValue), Path: p, PathExpression: e},
		func(val validator.Set, req validator.SetRequest) diag.Diagnostics {
			resp := &validator.SetResponse{}
			val.ValidateSet(ctx, req, resp)
			return resp.Diagnostics
		})
}

func (v *schemaValidation) objectValidators(ctx context.Context, diags *diag.Diagnostics, vs []validator.Object, p path.Path, e path.Expression, value attr.Value) {
	run(diags, vs, validator.ObjectRequest{Config: v.config, ConfigValue: value.(basetypes.ObjectValue), Path: p, PathExpression: e},
		func(val validator.Object, req validator.ObjectRequest) diag.Diagnostics {
			resp := &validator.ObjectResponse{}
			val.ValidateObject(ctx, req, resp)
			return resp.Diagnostics
		})
}

// run calls every validator of vs with req, appending their diagnostics to diags.
func run[V any, R any](diags *diag.Diagnostics, vs []V, req R, call func(V, R) diag.Diagnostics) {
	for _, val := range vs {
		diags.Append(call(val, req)...)
	}
}
