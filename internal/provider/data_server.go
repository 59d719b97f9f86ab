package provider

import (
	"context"
	"fmt"
	"maps"
	"math/big"
	"slices"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// Data sources are validated and read here rather than by the framework's server, for speed; the answers
// are the framework's.
//
// For a configuration of 1,000 workloads, the framework's server spent ~0.8 s in each ValidateDataResourceConfig
// and ~1.5 s of each ReadDataSource outside the data source's own code (issue 21): it decodes the configuration
// again (the server here already has), looks every attribute up from the root to validate it, walks the whole
// value to nullify and reify collection blocks (a schema without blocks has none), and compares every attribute
// of the new state with the configuration for semantic equality (of the framework's own types only Float64 has
// one: semanticFloats). For a data source whose schema schemaValidatable accepts, this server calls the data
// source's Configure, ConfigValidators, ValidateConfig and Read exactly as the framework's server does (same
// requests, the provider's configured data, the same order), validates the schema with validateSchema, and
// encodes the state as the framework does; every other data source, and every other RPC, goes to the framework.
// TestFastDataSourceServer compares the two servers' responses on generated configurations of every data source.

// dataSourceEntry is what the server knows of one data source.
type dataSourceEntry struct {
	new    func() datasource.DataSource
	schema dschema.Schema
	fast   bool    // validated and read here
	floats *floats // where the schema's type holds Float64 values
}

// configuredProvider is a provider that keeps the data its Configure gave data sources.
type configuredProvider interface {
	dataSourceData() any
}

// dataSourceData is the data the provider's Configure gave data sources (nil before it is configured, as the
// framework's server gives them); false when the provider does not keep it.
func (s *server) dataSourceData() (any, bool) {
	p, ok := s.provider.(configuredProvider)
	if !ok {
		return nil, false
	}
	return p.dataSourceData(), true
}

// fastDataSource is the entry of data source typeName when this server serves it.
func (s *server) fastDataSource(ctx context.Context, typeName string) (*dataSourceEntry, bool) {
	s.configTypes(ctx)
	e, ok := s.dataSources[typeName]
	if !ok || !e.fast || s.frameworkOnly {
		return nil, false
	}
	if _, ok := s.dataSourceData(); !ok {
		return nil, false
	}
	return e, true
}

// configureDataSource is the framework's Configure call on a new instance of e's data source.
func (s *server) configureDataSource(ctx context.Context, e *dataSourceEntry, diags *diag.Diagnostics) datasource.DataSource {
	ds := e.new()
	if c, ok := ds.(datasource.DataSourceWithConfigure); ok {
		data, _ := s.dataSourceData()
		var resp datasource.ConfigureResponse
		c.Configure(ctx, datasource.ConfigureRequest{ProviderData: data}, &resp)
		diags.Append(resp.Diagnostics...)
	}
	return ds
}

// validateDataSource is the framework's ValidateDataSourceConfig of the configuration cfg.
func (s *server) validateDataSource(ctx context.Context, e *dataSourceEntry, cfg tftypes.Value) diag.Diagnostics {
	var diags diag.Diagnostics
	ds := s.configureDataSource(ctx, e, &diags)
	if diags.HasError() {
		return diags
	}
	req := datasource.ValidateConfigRequest{Config: tfsdk.Config{Raw: cfg, Schema: e.schema}}
	if withValidators, ok := ds.(datasource.DataSourceWithConfigValidators); ok {
		for _, v := range withValidators.ConfigValidators(ctx) {
			resp := &datasource.ValidateConfigResponse{}
			v.ValidateDataSource(ctx, req, resp)
			diags = append(diags, resp.Diagnostics...)
		}
	}
	if withValidate, ok := ds.(datasource.DataSourceWithValidateConfig); ok {
		resp := &datasource.ValidateConfigResponse{}
		withValidate.ValidateConfig(ctx, req, resp)
		diags = append(diags, resp.Diagnostics...)
	}
	diags = append(diags, validateSchema(ctx, e.schema, req.Config)...)
	return uniqueDiagnostics(diags) // gathered with append: Append's search for an equal one is quadratic
}

// readDataSource is the framework's ReadDataSource of the configuration cfg.
func (s *server) readDataSource(ctx context.Context, e *dataSourceEntry, cfg tftypes.Value, cfgMsgPack []byte, caps *tfprotov6.ReadDataSourceClientCapabilities) *tfprotov6.ReadDataSourceResponse {
	state, deferred, diags := s.read(ctx, e, cfg, cfgMsgPack, caps)
	out := &tfprotov6.ReadDataSourceResponse{State: state, Diagnostics: protoDiagnostics(ctx, diags)}
	if deferred != nil {
		out.Deferred = &tfprotov6.Deferred{Reason: tfprotov6.DeferredReason(deferred.Reason)}
	}
	return out
}

func (s *server) read(ctx context.Context, e *dataSourceEntry, cfg tftypes.Value, cfgMsgPack []byte, caps *tfprotov6.ReadDataSourceClientCapabilities) (*tfprotov6.DynamicValue, *datasource.Deferred, diag.Diagnostics) {
	ctx, done := s.stoppable(ctx)
	defer done()
	var diags diag.Diagnostics
	ds := s.configureDataSource(ctx, e, &diags)
	if diags.HasError() {
		return nil, nil, diags
	}
	req := datasource.ReadRequest{Config: tfsdk.Config{Raw: cfg, Schema: e.schema}}
	if caps != nil {
		req.ClientCapabilities.DeferralAllowed = caps.DeferralAllowed
	}
	// The framework starts the state from a deep copy of the configuration (38 ms of a read of 1,000 workloads).
	// A tftypes.Value is never changed in place (the state's setters build new values, and kubefit's code clones
	// what As hands out before changing it), so the configuration itself is the same start.
	resp := datasource.ReadResponse{State: tfsdk.State{Raw: cfg, Schema: e.schema}}
	ds.Read(ctx, req, &resp)
	diags = uniqueDiagnostics(append(diags, resp.Diagnostics...))
	if !diags.HasError() {
		resp.State.Raw, _ = semanticFloats(e.floats, cfg, resp.State.Raw)
	}
	state, err := encodeState(cfg.Type(), resp.State.Raw, cfg, cfgMsgPack)
	if err != nil {
		diags.AddError("Unable to Convert State",
			"An unexpected error was encountered when converting the state to the protocol type. "+
				"This is always an issue in terraform-plugin-framework used to implement the provider and should be reported to the provider developers.\n\n"+
				"Please report this to the provider developer:\n\n"+
				"Unable to create DynamicValue: "+err.Error())
		return nil, resp.Deferred, diags
	}
	return &state, resp.Deferred, diags
}

// semanticFloats is the framework's semantic equality after a Read (fwserver.SchemaSemanticEquality) for the
// framework's own types, of which only Float64Value has one: every number of a Float64 attribute in state
// that equals the configured number at the same place as a float64, but not as written, is replaced by the
// configured one. Lists are compared by index, maps by key, objects by attribute (plainType keeps Float64 out
// of sets); f says where the Float64 values are.
func semanticFloats(f *floats, prior, state tftypes.Value) (tftypes.Value, bool) {
	if f == nil || !prior.IsKnown() || prior.IsNull() || !state.IsKnown() || state.IsNull() {
		return state, false
	}
	switch {
	case f.here:
		var a, b big.Float
		if prior.As(&a) != nil || state.As(&b) != nil || a.Cmp(&b) == 0 {
			return state, false
		}
		fa, _ := a.Float64()
		fb, _ := b.Float64()
		return prior, fa == fb
	case f.elem != nil && state.Type().Is(tftypes.List{}):
		var ps, ss []tftypes.Value
		if prior.As(&ps) != nil || state.As(&ss) != nil {
			return state, false
		}
		changed := false
		for i := range min(len(ps), len(ss)) {
			if nv, ok := semanticFloats(f.elem, ps[i], ss[i]); ok {
				if !changed {
					ss = slices.Clone(ss) // As hands out the value's own slice
				}
				ss[i], changed = nv, true
			}
		}
		if changed {
			return tftypes.NewValue(state.Type(), ss), true
		}
	case f.elem != nil || f.attrs != nil:
		var ps, ss map[string]tftypes.Value
		if prior.As(&ps) != nil || state.As(&ss) != nil {
			return state, false
		}
		changed := false
		for k, sv := range ss {
			sub := f.elem
			if f.attrs != nil {
				sub = f.attrs[k]
			}
			if pv, ok := ps[k]; ok && sub != nil {
				if nv, ok := semanticFloats(sub, pv, sv); ok {
					if !changed {
						ss = maps.Clone(ss) // As hands out the value's own map
					}
					ss[k], changed = nv, true
				}
			}
		}
		if changed {
			return tftypes.NewValue(state.Type(), ss), true
		}
	}
	return state, false
}

// floats says where a type holds Float64 values: here (the type is Float64), in its elements (lists and maps)
// or in some of its attributes (objects); nil when nowhere.
type floats struct {
	here  bool
	elem  *floats
	attrs map[string]*floats
}

// floatsOf is where t holds Float64 values.
func floatsOf(t attr.Type) *floats {
	switch x := t.(type) {
	case basetypes.Float64Type:
		return &floats{here: true}
	case basetypes.ListType:
		if e := floatsOf(x.ElemType); e != nil {
			return &floats{elem: e}
		}
	case basetypes.MapType:
		if e := floatsOf(x.ElemType); e != nil {
			return &floats{elem: e}
		}
	case basetypes.ObjectType:
		var attrs map[string]*floats
		for k, at := range x.AttrTypes {
			if f := floatsOf(at); f != nil {
				if attrs == nil {
					attrs = map[string]*floats{}
				}
				attrs[k] = f
			}
		}
		if attrs != nil {
			return &floats{attrs: attrs}
		}
	}
	return nil
}

// stoppable is ctx, cancelled when Terraform stops the provider (StopProvider), as the framework's server
// cancels the contexts of the RPCs it serves; done forgets it.
func (s *server) stoppable(ctx context.Context) (context.Context, func()) {
	ctx, cancel := context.WithCancel(ctx)
	s.stopMu.Lock()
	defer s.stopMu.Unlock()
	if s.cancels == nil {
		s.cancels = map[*context.CancelFunc]bool{}
	}
	key := &cancel
	s.cancels[key] = true
	return ctx, func() {
		s.stopMu.Lock()
		defer s.stopMu.Unlock()
		delete(s.cancels, key)
		cancel()
	}
}

// StopProvider cancels the reads this server serves, then the framework's.
func (s *server) StopProvider(ctx context.Context, req *tfprotov6.StopProviderRequest) (*tfprotov6.StopProviderResponse, error) {
	s.stopMu.Lock()
	for c := range s.cancels {
		(*c)()
	}
	s.stopMu.Unlock()
	return s.ProviderServer.StopProvider(ctx, req)
}

// protoDiagnostics is the framework's conversion of diagnostics to the protocol's.
func protoDiagnostics(ctx context.Context, ds diag.Diagnostics) []*tfprotov6.Diagnostic {
	var out []*tfprotov6.Diagnostic
	for _, d := range ds {
		pd := &tfprotov6.Diagnostic{Summary: d.Summary(), Detail: d.Detail(), Severity: protoSeverity(d.Severity())}
		if withPath, ok := d.(diag.DiagnosticWithPath); ok {
			p, err := protoPath(ctx, withPath.Path())
			if err != nil {
				out = append(out, &tfprotov6.Diagnostic{Severity: tfprotov6.DiagnosticSeverityError, Summary: "Unable to Convert Attribute Path",
					Detail: "An unexpected error occurred while trying to convert an attribute path. " +
						"This is either an error in terraform-plugin-framework or a custom attribute type used by the provider. " +
						"Please report the following to the provider developers.\n\n" +
						fmt.Sprintf("Attribute Path: %s\n", withPath.Path().String()) +
						fmt.Sprintf("Original Error: %s", err)})
			}
			pd.Attribute = p
		}
		out = append(out, pd)
	}
	return out
}

func protoSeverity(s diag.Severity) tfprotov6.DiagnosticSeverity {
	switch s {
	case diag.SeverityError:
		return tfprotov6.DiagnosticSeverityError
	case diag.SeverityWarning:
		return tfprotov6.DiagnosticSeverityWarning
	}
	return tfprotov6.DiagnosticSeverityInvalid
}

// protoPath is the framework's conversion of an attribute path to the protocol's (internal/totftypes).
func protoPath(ctx context.Context, p path.Path) (*tftypes.AttributePath, error) {
	var steps []tftypes.AttributePathStep
	for _, st := range p.Steps() {
		switch st := st.(type) {
		case path.PathStepAttributeName:
			steps = append(steps, tftypes.AttributeName(string(st)))
		case path.PathStepElementKeyInt:
			steps = append(steps, tftypes.ElementKeyInt(int64(st)))
		case path.PathStepElementKeyString:
			steps = append(steps, tftypes.ElementKeyString(string(st)))
		case path.PathStepElementKeyValue:
			v, err := st.Value.ToTerraformValue(ctx)
			if err != nil {
				return nil, err
			}
			steps = append(steps, tftypes.ElementKeyValue(v))
		}
	}
	return tftypes.NewAttributePathWithSteps(steps), nil
}

// dataSourceStop is the server's record of the reads it serves, for StopProvider.
type dataSourceStop struct {
	stopMu  sync.Mutex
	cancels map[*context.CancelFunc]bool
}
