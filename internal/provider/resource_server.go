package provider

import (
	"context"
	"slices"
	"strings"

	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// Resources whose schema has no defaults, plan modifiers or write-only attributes and no blocks are
// planned here rather than by the framework's server, for speed; the plans are the framework's.
//
// The framework's PlanResourceChange (terraform-plugin-framework v1.19.0, fwserver/server_planresourcechange.go)
// applies schema defaults, nulls write-only attributes, marks computed attributes that are null in the
// configuration unknown, runs the schema's plan modifiers, then the resource's ModifyPlan. For such a schema the
// defaults, the write-only pass and the plan modifiers change nothing, but each walks the whole plan, and the
// plan modifiers' pass sets every root attribute back into it (SetAtPath, a tftypes.Transform of every value):
// a kubefit_node_group of 2,000 workloads took 23 s to plan, 19 s of it there (BenchmarkNodeGroupPlanRPC). This
// server configures the resource, marks the computed nulls unknown (markComputedUnknown, the framework's
// MarkComputedNilsAsUnknown), calls ModifyPlan with the requests the framework builds, and answers as it does.
// A request with private state or a resource with an identity goes to the framework. TestFastResourcePlan
// compares the two servers' plans of every such resource, created and updated.
//
// Their configurations are validated here too (validateResource), as the data sources' are: the framework's
// ValidateResourceConfig has the same steps as its ValidateDataResourceConfig, so the schema walk of
// validateSchema serves it on the resource's schema converted to a data source schema (validationSchema): 1.6 s
// for a node group of 2,000 workloads through the framework, 0.16 s here. TestFastResourceValidation compares
// the two servers on generated configurations.

// resourceEntry is what the server knows of one resource.
type resourceEntry struct {
	new    func() resource.Resource
	schema rschema.Schema
	fast   bool // planned here
	// validation is schema as a data source schema (validationSchema); validated says whether the configuration
	// is validated here, with validateSchema.
	validation dschema.Schema
	validated  bool
}

// plannable reports whether r's plan may be made here: a schema whose attributes, nested ones included, have
// no default, plan modifier or write-only flag and a type this server knows, no blocks, and no identity. Values
// inside a dynamic attribute have no schema of their own, as in the framework.
func plannable(r resource.Resource, s rschema.Schema) bool {
	if _, ok := r.(resource.ResourceWithIdentity); ok || len(s.Blocks) > 0 {
		return false
	}
	for _, a := range s.Attributes {
		if !plainPlanAttribute(a) {
			return false
		}
	}
	return true
}

func plainPlanAttribute(a rschema.Attribute) bool {
	var nested rschema.NestedAttributeObject
	switch x := a.(type) {
	case rschema.StringAttribute:
		return x.Default == nil && len(x.PlanModifiers) == 0 && !x.WriteOnly
	case rschema.Int64Attribute:
		return x.Default == nil && len(x.PlanModifiers) == 0 && !x.WriteOnly
	case rschema.Float64Attribute:
		return x.Default == nil && len(x.PlanModifiers) == 0 && !x.WriteOnly
	case rschema.BoolAttribute:
		return x.Default == nil && len(x.PlanModifiers) == 0 && !x.WriteOnly
	case rschema.ListAttribute:
		return x.Default == nil && len(x.PlanModifiers) == 0 && !x.WriteOnly
	case rschema.MapAttribute:
		return x.Default == nil && len(x.PlanModifiers) == 0 && !x.WriteOnly
	case rschema.SetAttribute:
		return x.Default == nil && len(x.PlanModifiers) == 0
	case rschema.ObjectAttribute:
		return x.Default == nil && len(x.PlanModifiers) == 0 && !x.WriteOnly
	case rschema.DynamicAttribute:
		return x.Default == nil && len(x.PlanModifiers) == 0 && !x.WriteOnly
	case rschema.SingleNestedAttribute:
		if x.Default != nil || len(x.PlanModifiers) > 0 || x.WriteOnly {
			return false
		}
		nested = rschema.NestedAttributeObject{Attributes: x.Attributes}
	case rschema.ListNestedAttribute:
		if x.Default != nil || len(x.PlanModifiers) > 0 || x.WriteOnly {
			return false
		}
		nested = x.NestedObject
	case rschema.MapNestedAttribute:
		if x.Default != nil || len(x.PlanModifiers) > 0 || x.WriteOnly {
			return false
		}
		nested = x.NestedObject
	default: // sets of objects (looked up by value), Int32, Float32 and Number attributes
		return false
	}
	if len(nested.PlanModifiers) > 0 {
		return false
	}
	for _, n := range nested.Attributes {
		if !plainPlanAttribute(n) {
			return false
		}
	}
	return true
}

// fastResource is the entry of resource typeName when this server plans it.
func (s *server) fastResource(ctx context.Context, typeName string) (*resourceEntry, bool) {
	s.configTypes(ctx)
	e, ok := s.resources[typeName]
	if !ok || !e.fast || s.frameworkOnly {
		return nil, false
	}
	if _, ok := s.dataSourceData(); !ok {
		return nil, false
	}
	return e, true
}

// configureResource is the framework's Configure call on a new instance of e's resource (configureDataSource's
// twin: the provider gives resources what it gives data sources).
func (s *server) configureResource(ctx context.Context, e *resourceEntry, diags *diag.Diagnostics) resource.Resource {
	r := e.new()
	if c, ok := r.(resource.ResourceWithConfigure); ok {
		data, _ := s.dataSourceData()
		var resp resource.ConfigureResponse
		c.Configure(ctx, resource.ConfigureRequest{ProviderData: data}, &resp)
		diags.Append(resp.Diagnostics...)
	}
	return r
}

// planResource is the framework's PlanResourceChange of resource e for configuration cfg; ok is false when the
// request is one this server leaves to the framework (private state, or states it cannot read).
func (s *server) planResource(ctx context.Context, e *resourceEntry, cfg tftypes.Value, req *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, bool) {
	if len(req.PriorPrivate) > 0 {
		return nil, false
	}
	typ := e.schema.Type().TerraformType(ctx)
	state := func(dv *tfprotov6.DynamicValue) (tftypes.Value, bool) {
		if dv == nil {
			return tftypes.NewValue(typ, nil), true
		}
		v, err := dv.Unmarshal(typ)
		return v, err == nil
	}
	proposed, ok1 := state(req.ProposedNewState)
	prior, ok2 := state(req.PriorState)
	if !ok1 || !ok2 {
		return nil, false
	}
	out := &tfprotov6.PlanResourceChangeResponse{}
	var diags diag.Diagnostics
	r := s.configureResource(ctx, e, &diags)
	if diags.HasError() {
		out.Diagnostics = protoDiagnostics(ctx, diags)
		return out, true
	}
	planned := proposed
	if !planned.IsNull() && !planned.Equal(prior) {
		planned = markComputedUnknown(e.schema.Attributes, cfg, planned)
	}
	var replace path.Paths
	if m, ok := r.(resource.ResourceWithModifyPlan); ok {
		mreq := resource.ModifyPlanRequest{
			Config: tfsdk.Config{Raw: cfg, Schema: e.schema},
			Plan:   tfsdk.Plan{Raw: planned, Schema: e.schema},
			State:  tfsdk.State{Raw: prior, Schema: e.schema},
		}
		if req.ClientCapabilities != nil {
			mreq.ClientCapabilities.DeferralAllowed = req.ClientCapabilities.DeferralAllowed
		}
		mresp := resource.ModifyPlanResponse{Diagnostics: diags, Plan: mreq.Plan, RequiresReplace: path.Paths{}}
		m.ModifyPlan(ctx, mreq, &mresp)
		diags, planned, replace = mresp.Diagnostics, mresp.Plan.Raw, mresp.RequiresReplace
		if mresp.Deferred != nil {
			out.Deferred = &tfprotov6.Deferred{Reason: tfprotov6.DeferredReason(mresp.Deferred.Reason)}
		}
	}
	if proposed.IsNull() && !planned.IsNull() {
		diags.AddError("Unexpected Planned Resource State on Destroy",
			"The Terraform Provider unexpectedly returned resource state data when the resource was planned for destruction. "+
				"This is always an issue in the Terraform Provider and should be reported to the provider developers.\n\n"+
				"Ensure all resource plan modifiers do not attempt to change resource plan data from being a null value if the request plan is a null value.")
	}
	out.Diagnostics = protoDiagnostics(ctx, diags)
	dv, err := tfprotov6.NewDynamicValue(typ, planned)
	if err != nil {
		return nil, false
	}
	out.PlannedState = &dv
	slices.SortFunc(replace, func(a, b path.Path) int { return strings.Compare(a.String(), b.String()) })
	replace = slices.CompactFunc(replace, path.Path.Equal)
	for _, p := range replace {
		tp, err := protoPath(ctx, p)
		if err != nil {
			return nil, false
		}
		out.RequiresReplace = append(out.RequiresReplace, tp)
	}
	return out, true
}

// markComputedUnknown is the framework's MarkComputedNilsAsUnknown over plan, an object of attrs whose
// configuration is cfg: every computed attribute whose configured value is null is unknown in the plan. The
// framework looks each attribute's configured value up with tftypes.WalkAttributePath, which stops at a null or
// unknown parent and returns it: below a null parent every computed attribute is marked, below an unknown one
// none (cfg here is that parent then). Values inside a list, map or object attribute, and the elements of a
// nested attribute, have no schema of their own and are kept.
func markComputedUnknown(attrs map[string]rschema.Attribute, cfg, plan tftypes.Value) tftypes.Value {
	if !plan.IsKnown() || plan.IsNull() {
		return plan
	}
	var fields map[string]tftypes.Value
	if plan.As(&fields) != nil {
		return plan
	}
	var cfgFields map[string]tftypes.Value
	cfgIsObject := cfg.IsKnown() && !cfg.IsNull() && cfg.As(&cfgFields) == nil
	changed := false
	for name, v := range fields {
		a, ok := attrs[name]
		if !ok {
			continue
		}
		c := cfg // a null or unknown parent, as WalkAttributePath returns it
		if cfgIsObject {
			if cv, ok := cfgFields[name]; ok {
				c = cv
			}
		}
		nv := markAttribute(a, c, v)
		if !nv.Equal(v) {
			fields[name], changed = nv, true
		}
	}
	if !changed {
		return plan
	}
	return tftypes.NewValue(plan.Type(), fields)
}

// markAttribute marks attribute a's planned value v, configured as c (see markComputedUnknown).
func markAttribute(a rschema.Attribute, c, v tftypes.Value) tftypes.Value {
	// The framework transforms children before their parent, and a parent marked unknown replaces them.
	if a.IsComputed() && c.IsNull() {
		if _, dynamic := a.(rschema.DynamicAttribute); dynamic {
			// Its type is decided at apply, whatever the plan held.
			return tftypes.NewValue(tftypes.DynamicPseudoType, tftypes.UnknownValue)
		}
		return tftypes.NewValue(v.Type(), tftypes.UnknownValue)
	}
	var nested map[string]rschema.Attribute
	list := false
	switch x := a.(type) {
	case rschema.SingleNestedAttribute:
		return markComputedUnknown(x.Attributes, c, v)
	case rschema.ListNestedAttribute:
		nested, list = x.NestedObject.Attributes, true
	case rschema.MapNestedAttribute:
		nested = x.NestedObject.Attributes
	default:
		return v
	}
	if !v.IsKnown() || v.IsNull() {
		return v
	}
	cKnown := c.IsKnown() && !c.IsNull()
	changed := false
	if list {
		var elems, cfgElems []tftypes.Value
		if v.As(&elems) != nil {
			return v
		}
		if cKnown {
			_ = c.As(&cfgElems)
		}
		for i, el := range elems {
			ce := c // beyond the configured list, WalkAttributePath returns the list itself
			if i < len(cfgElems) {
				ce = cfgElems[i]
			}
			if ne := markComputedUnknown(nested, ce, el); !ne.Equal(el) {
				elems[i], changed = ne, true
			}
		}
		if !changed {
			return v
		}
		return tftypes.NewValue(v.Type(), elems)
	}
	var elems, cfgElems map[string]tftypes.Value
	if v.As(&elems) != nil {
		return v
	}
	if cKnown {
		_ = c.As(&cfgElems)
	}
	for k, el := range elems {
		ce := c
		if x, ok := cfgElems[k]; ok {
			ce = x
		}
		if ne := markComputedUnknown(nested, ce, el); !ne.Equal(el) {
			elems[k], changed = ne, true
		}
	}
	if !changed {
		return v
	}
	return tftypes.NewValue(v.Type(), elems)
}

// validationSchema is s as a data source schema with the same attributes, flags and validators, which
// validateSchema walks as the framework's SchemaValidate walks s (a resource's attributes validate as a data
// source's do; plannable schemas have no write-only attributes, the one check only resources make).
func validationSchema(s rschema.Schema) dschema.Schema {
	return dschema.Schema{Attributes: validationAttributes(s.Attributes), DeprecationMessage: s.DeprecationMessage}
}

func validationAttributes(attrs map[string]rschema.Attribute) map[string]dschema.Attribute {
	out := make(map[string]dschema.Attribute, len(attrs))
	for name, a := range attrs {
		out[name] = validationAttribute(a)
	}
	return out
}

// validationAttribute is a as a data source attribute; nil for a kind validateSchema does not take, which keeps
// the schema off the fast path (schemaValidatable).
func validationAttribute(a rschema.Attribute) dschema.Attribute {
	switch x := a.(type) {
	case rschema.StringAttribute:
		return dschema.StringAttribute{CustomType: x.CustomType, Required: x.Required, Optional: x.Optional, Computed: x.Computed,
			Sensitive: x.Sensitive, DeprecationMessage: x.DeprecationMessage, Validators: x.Validators}
	case rschema.Int64Attribute:
		return dschema.Int64Attribute{CustomType: x.CustomType, Required: x.Required, Optional: x.Optional, Computed: x.Computed,
			Sensitive: x.Sensitive, DeprecationMessage: x.DeprecationMessage, Validators: x.Validators}
	case rschema.Float64Attribute:
		return dschema.Float64Attribute{CustomType: x.CustomType, Required: x.Required, Optional: x.Optional, Computed: x.Computed,
			Sensitive: x.Sensitive, DeprecationMessage: x.DeprecationMessage, Validators: x.Validators}
	case rschema.BoolAttribute:
		return dschema.BoolAttribute{CustomType: x.CustomType, Required: x.Required, Optional: x.Optional, Computed: x.Computed,
			Sensitive: x.Sensitive, DeprecationMessage: x.DeprecationMessage, Validators: x.Validators}
	case rschema.ListAttribute:
		return dschema.ListAttribute{ElementType: x.ElementType, CustomType: x.CustomType, Required: x.Required, Optional: x.Optional,
			Computed: x.Computed, Sensitive: x.Sensitive, DeprecationMessage: x.DeprecationMessage, Validators: x.Validators}
	case rschema.MapAttribute:
		return dschema.MapAttribute{ElementType: x.ElementType, CustomType: x.CustomType, Required: x.Required, Optional: x.Optional,
			Computed: x.Computed, Sensitive: x.Sensitive, DeprecationMessage: x.DeprecationMessage, Validators: x.Validators}
	case rschema.SetAttribute:
		return dschema.SetAttribute{ElementType: x.ElementType, CustomType: x.CustomType, Required: x.Required, Optional: x.Optional,
			Computed: x.Computed, Sensitive: x.Sensitive, DeprecationMessage: x.DeprecationMessage, Validators: x.Validators}
	case rschema.ObjectAttribute:
		return dschema.ObjectAttribute{AttributeTypes: x.AttributeTypes, CustomType: x.CustomType, Required: x.Required, Optional: x.Optional,
			Computed: x.Computed, Sensitive: x.Sensitive, DeprecationMessage: x.DeprecationMessage, Validators: x.Validators}
	case rschema.DynamicAttribute:
		return dschema.DynamicAttribute{CustomType: x.CustomType, Required: x.Required, Optional: x.Optional, Computed: x.Computed,
			Sensitive: x.Sensitive, DeprecationMessage: x.DeprecationMessage, Validators: x.Validators}
	case rschema.SingleNestedAttribute:
		return dschema.SingleNestedAttribute{Attributes: validationAttributes(x.Attributes), CustomType: x.CustomType, Required: x.Required,
			Optional: x.Optional, Computed: x.Computed, Sensitive: x.Sensitive, DeprecationMessage: x.DeprecationMessage, Validators: x.Validators}
	case rschema.ListNestedAttribute:
		return dschema.ListNestedAttribute{NestedObject: validationObject(x.NestedObject), CustomType: x.CustomType, Required: x.Required,
			Optional: x.Optional, Computed: x.Computed, Sensitive: x.Sensitive, DeprecationMessage: x.DeprecationMessage, Validators: x.Validators}
	case rschema.MapNestedAttribute:
		return dschema.MapNestedAttribute{NestedObject: validationObject(x.NestedObject), CustomType: x.CustomType, Required: x.Required,
			Optional: x.Optional, Computed: x.Computed, Sensitive: x.Sensitive, DeprecationMessage: x.DeprecationMessage, Validators: x.Validators}
	case rschema.SetNestedAttribute:
		return dschema.SetNestedAttribute{NestedObject: validationObject(x.NestedObject), CustomType: x.CustomType, Required: x.Required,
			Optional: x.Optional, Computed: x.Computed, Sensitive: x.Sensitive, DeprecationMessage: x.DeprecationMessage, Validators: x.Validators}
	}
	return nil
}

func validationObject(o rschema.NestedAttributeObject) dschema.NestedAttributeObject {
	return dschema.NestedAttributeObject{Attributes: validationAttributes(o.Attributes), CustomType: o.CustomType, Validators: o.Validators}
}

// validateResource is the framework's ValidateResourceConfig of the configuration cfg of resource e, as
// validateDataSource is a data source's: Configure, ConfigValidators, ValidateConfig, then the schema's
// validation (validateSchema on e's validation schema).
func (s *server) validateResource(ctx context.Context, e *resourceEntry, cfg tftypes.Value, caps *tfprotov6.ValidateResourceConfigClientCapabilities) diag.Diagnostics {
	var diags diag.Diagnostics
	r := s.configureResource(ctx, e, &diags)
	if diags.HasError() {
		return diags
	}
	req := resource.ValidateConfigRequest{Config: tfsdk.Config{Raw: cfg, Schema: e.schema}}
	if caps != nil {
		req.ClientCapabilities.WriteOnlyAttributesAllowed = caps.WriteOnlyAttributesAllowed
	}
	if withValidators, ok := r.(resource.ResourceWithConfigValidators); ok {
		for _, v := range withValidators.ConfigValidators(ctx) {
			resp := &resource.ValidateConfigResponse{}
			v.ValidateResource(ctx, req, resp)
			diags = append(diags, resp.Diagnostics...)
		}
	}
	if withValidate, ok := r.(resource.ResourceWithValidateConfig); ok {
		resp := &resource.ValidateConfigResponse{}
		withValidate.ValidateConfig(ctx, req, resp)
		diags = append(diags, resp.Diagnostics...)
	}
	diags = append(diags, validateSchema(ctx, e.validation, tfsdk.Config{Raw: cfg, Schema: e.validation})...)
	return uniqueDiagnostics(diags)
}
