package provider

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"math/big"
	"slices"
	"strings"
	"sync"
	"unicode"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	plannerresource "github.com/kubefit/terraform-provider-kubefit/internal/planner/resource"
)

// NewServer returns the provider's protocol-6 server: the framework's server for New(version), with two
// things every object needs and the framework does not do.
//
//   - Whole numbers are checked before the framework reads the configuration. A fractional or huge number
//     in a whole-number attribute (`replicas = 1.5`, `max_nodes = 1e400`) would otherwise surface as the
//     framework's "Value Conversion Error" with a Go-formatted value; here it is one plain error on the
//     attribute, naming the value.
//   - Diagnostics name the attribute they are about. Terraform shows only the enclosing block's line for an
//     attribute of a nested object, so the detail of such a diagnostic starts with the attribute's path and,
//     where the detail does not already name it, its value. A second error on the same configured value (a
//     schema validator's and the object's own check of one bad value) is dropped, and every one-line detail
//     reads as a sentence.
func NewServer(version string) func() (tfprotov6.ProviderServer, error) {
	return serve(New(version))
}

// serve is NewServer for the providers newProvider makes (tests serve a provider with a test Azure client
// through it).
func serve(newProvider func() provider.Provider) func() (tfprotov6.ProviderServer, error) {
	return func() (tfprotov6.ProviderServer, error) {
		p := newProvider()
		inner, err := providerserver.NewProtocol6WithError(p)()
		if err != nil {
			return nil, err
		}
		return &server{ProviderServer: inner, provider: p}, nil
	}
}

// server wraps the framework's server; every RPC it does not override goes straight through.
type server struct {
	tfprotov6.ProviderServer
	provider provider.Provider

	once        sync.Once
	types       map[string]attr.Type        // configuration type by object kind and name ("data.kubefit_x", "resource.kubefit_x", "provider")
	dataSources map[string]*dataSourceEntry // by type name
	resources   map[string]*resourceEntry   // by type name
	dataSourceStop
	recent decodedConfigs // the configurations decoded last (decode)

	frameworkOnly bool // every data source through the framework's server (tests compare the two)
}

// configTypes builds the configuration type of the provider and of every data source and resource, once.
func (s *server) configTypes(ctx context.Context) map[string]attr.Type {
	s.once.Do(func() {
		s.types = map[string]attr.Type{}
		s.dataSources = map[string]*dataSourceEntry{}
		s.resources = map[string]*resourceEntry{}
		var meta provider.MetadataResponse
		s.provider.Metadata(ctx, provider.MetadataRequest{}, &meta)
		var ps provider.SchemaResponse
		s.provider.Schema(ctx, provider.SchemaRequest{}, &ps)
		s.types["provider"] = ps.Schema.Type()
		for _, f := range s.provider.DataSources(ctx) {
			ds := f()
			var m datasource.MetadataResponse
			ds.Metadata(ctx, datasource.MetadataRequest{ProviderTypeName: meta.TypeName}, &m)
			var sr datasource.SchemaResponse
			ds.Schema(ctx, datasource.SchemaRequest{}, &sr)
			s.types["data."+m.TypeName] = sr.Schema.Type()
			s.dataSources[m.TypeName] = &dataSourceEntry{new: f, schema: sr.Schema, fast: !sr.Diagnostics.HasError() && schemaValidatable(ctx, sr.Schema),
				floats: floatsOf(sr.Schema.Type())}
		}
		for _, f := range s.provider.Resources(ctx) {
			r := f()
			var m resource.MetadataResponse
			r.Metadata(ctx, resource.MetadataRequest{ProviderTypeName: meta.TypeName}, &m)
			var sr resource.SchemaResponse
			r.Schema(ctx, resource.SchemaRequest{}, &sr)
			s.types["resource."+m.TypeName] = sr.Schema.Type()
			e := &resourceEntry{new: f, schema: sr.Schema, fast: !sr.Diagnostics.HasError() && plannable(r, sr.Schema)}
			if e.fast {
				e.validation = validationSchema(sr.Schema)
				e.validated = schemaValidatable(ctx, e.validation)
			}
			s.resources[m.TypeName] = e
		}
	})
	return s.types
}

// decode reads a configuration of the object kind key; ok is false when it cannot (the framework then
// reports the problem itself).
func (s *server) decode(ctx context.Context, key string, dv *tfprotov6.DynamicValue) (attr.Type, tftypes.Value, bool) {
	t, found := s.configTypes(ctx)[key]
	if !found || dv == nil {
		return nil, tftypes.Value{}, false
	}
	if v, ok := s.recent.get(key, dv.MsgPack); ok {
		return t, v, true
	}
	v, err := dv.Unmarshal(t.TerraformType(ctx))
	if err != nil {
		return nil, tftypes.Value{}, false
	}
	s.recent.put(key, dv.MsgPack, v)
	return t, v, true
}

// decodedConfigs are the configurations decoded last, by object kind and encoding. Terraform validates a data
// source's configuration again right before it reads it, on the same provider instance and with the same value
// (readDataSource in terraform/internal/terraform/node_resource_abstract_instance.go: ValidateDataResourceConfig,
// then ReadDataSource), so the read finds its configuration decoded: for 1,000 workloads, 55 ms saved of the
// read. A tftypes.Value is never changed in place, so one decoded value serves both requests.
type decodedConfigs struct {
	mu      sync.Mutex
	entries []decodedConfig // most recent last
}

type decodedConfig struct {
	key     string
	msgpack []byte
	value   tftypes.Value
}

// maxDecodedConfigs and maxDecodedBytes bound the configurations kept, in number (Terraform reads up to 10 objects
// at once, -parallelism) and in encoded bytes (a 1,000-workload sizing is 360 kB; decoded, about ten times that).
const (
	maxDecodedConfigs = 16
	maxDecodedBytes   = 16 << 20
)

func (c *decodedConfigs) get(key string, msgpack []byte) (tftypes.Value, bool) {
	if msgpack == nil {
		return tftypes.Value{}, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, e := range slices.Backward(c.entries) {
		if e.key == key && bytes.Equal(e.msgpack, msgpack) {
			return e.value, true
		}
	}
	return tftypes.Value{}, false
}

func (c *decodedConfigs) put(key string, msgpack []byte, v tftypes.Value) {
	if msgpack == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.entries = append(c.entries, decodedConfig{key: key, msgpack: msgpack, value: v})
	total := 0
	for _, e := range c.entries {
		total += len(e.msgpack)
	}
	drop := 0
	for len(c.entries)-drop > 1 && (len(c.entries)-drop > maxDecodedConfigs || total > maxDecodedBytes) {
		total -= len(c.entries[drop].msgpack)
		drop++
	}
	c.entries = slices.Delete(c.entries, 0, drop)
}

// check decodes the configuration dv of object kind key once. bad holds the errors, attributes named, of
// the numbers it holds that its attributes cannot (such a configuration is answered with them alone);
// name names the attributes other diagnostics are about; cfg is the configuration, when ok.
func (s *server) check(ctx context.Context, key string, dv *tfprotov6.DynamicValue) (bad []*tfprotov6.Diagnostic, name func([]*tfprotov6.Diagnostic) []*tfprotov6.Diagnostic, cfg tftypes.Value, ok bool) {
	t, cfg, ok := s.decode(ctx, key, dv)
	if !ok {
		return nil, func(ds []*tfprotov6.Diagnostic) []*tfprotov6.Diagnostic { return ds }, cfg, false
	}
	name = func(ds []*tfprotov6.Diagnostic) []*tfprotov6.Diagnostic { return nameAttributes(ds, cfg) }
	if d := checkSizes(cfg); d != nil {
		return []*tfprotov6.Diagnostic{d}, name, cfg, true
	}
	return name(checkNumbers(ctx, tftypes.NewAttributePath(), t, cfg)), name, cfg, true
}

// Size bounds of every configuration, checked on the raw value before the framework decodes it: the
// framework's decoding, defaults and plan modification cost grows with every value (a capacity check of 10,000
// ScaledObject summaries took 21 s in the framework alone, 10 ms in the planner), so a configuration beyond
// them is refused at once, naming the bound, instead of hanging the plan.
const (
	// MaxListEntries is the most entries any one list, set or map of a kubefit object holds.
	MaxListEntries = 2000
	// MaxConfigValues is the most values (attributes and elements, nested ones included) one object's
	// configuration holds.
	MaxConfigValues = 200_000
)

// checkSizes returns an error diagnostic on the first collection of v with more than MaxListEntries entries,
// or on the configuration when it holds more than MaxConfigValues values; nil when v is within both.
func checkSizes(v tftypes.Value) *tfprotov6.Diagnostic {
	c := sizeCheck{}
	c.walk(v)
	switch {
	case c.tooLong != nil:
		return &tfprotov6.Diagnostic{Severity: tfprotov6.DiagnosticSeverityError, Summary: "Input Too Large", Attribute: c.tooLong,
			Detail: fmt.Sprintf("%s holds %s entries; kubefit takes at most %s in one list, set or map (beyond that Terraform's "+
				"plugin framework alone would take minutes to read the configuration). Split the entries over several objects "+
				"(for example one per team or namespace).", attributeName(c.tooLong), groupInt(c.tooLongN), groupInt(MaxListEntries))}
	case c.values > MaxConfigValues:
		return &tfprotov6.Diagnostic{Severity: tfprotov6.DiagnosticSeverityError, Summary: "Input Too Large",
			Detail: fmt.Sprintf("The configuration holds more than %s values (attributes and list entries, nested ones "+
				"included); kubefit takes at most that many in one object. Split it over several objects.", groupInt(MaxConfigValues))}
	}
	return nil
}

// sizeCheck walks a configuration for checkSizes, counting its values and keeping the path it is at as steps
// (a path is built only for the collection it reports).
type sizeCheck struct {
	steps    []tftypes.AttributePathStep
	values   int
	tooLong  *tftypes.AttributePath
	tooLongN int
}

// walk visits x and what it holds, depth first, until a bound is passed; false once one is.
func (c *sizeCheck) walk(x tftypes.Value) bool {
	c.values++
	if c.values > MaxConfigValues || c.tooLong != nil {
		return false
	}
	if !x.IsKnown() || x.IsNull() {
		return true
	}
	switch x.Type().(type) {
	case tftypes.List, tftypes.Set, tftypes.Tuple:
		var elems []tftypes.Value
		if x.As(&elems) != nil {
			return true
		}
		if len(elems) > MaxListEntries {
			c.tooLong, c.tooLongN = tftypes.NewAttributePathWithSteps(slices.Clone(c.steps)), len(elems)
			return false
		}
		for i, e := range elems {
			var st tftypes.AttributePathStep = tftypes.ElementKeyInt(i)
			if !x.Type().Is(tftypes.List{}) && !x.Type().Is(tftypes.Tuple{}) {
				st = tftypes.ElementKeyValue(e)
			}
			if !c.step(st, e) {
				return false
			}
		}
	case tftypes.Map, tftypes.Object:
		var elems map[string]tftypes.Value
		if x.As(&elems) != nil {
			return true
		}
		_, object := x.Type().(tftypes.Object)
		if !object && len(elems) > MaxListEntries {
			c.tooLong, c.tooLongN = tftypes.NewAttributePathWithSteps(slices.Clone(c.steps)), len(elems)
			return false
		}
		for k, e := range elems {
			var st tftypes.AttributePathStep = tftypes.ElementKeyString(k)
			if object {
				st = tftypes.AttributeName(k)
			}
			if !c.step(st, e) {
				return false
			}
		}
	}
	return true
}

func (c *sizeCheck) step(st tftypes.AttributePathStep, x tftypes.Value) bool {
	c.steps = append(c.steps, st)
	ok := c.walk(x)
	c.steps = c.steps[:len(c.steps)-1]
	return ok
}

// attributeName spells an attribute path as a configuration writes it: workloads[3].tolerations.
func attributeName(p *tftypes.AttributePath) string {
	var b strings.Builder
	for _, st := range p.Steps() {
		switch st := st.(type) {
		case tftypes.AttributeName:
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(string(st))
		case tftypes.ElementKeyInt:
			fmt.Fprintf(&b, "[%d]", int64(st))
		case tftypes.ElementKeyString:
			fmt.Fprintf(&b, "[%q]", string(st))
		}
	}
	return b.String()
}

func groupInt(n int) string { return plannerresource.Group(int64(n)) }

// named returns ds with the attributes they are about named from the configuration dv of object kind key.
func (s *server) named(ctx context.Context, key string, dv *tfprotov6.DynamicValue, ds []*tfprotov6.Diagnostic) []*tfprotov6.Diagnostic {
	if _, cfg, ok := s.decode(ctx, key, dv); ok {
		return nameAttributes(ds, cfg)
	}
	return ds
}

func (s *server) ValidateProviderConfig(ctx context.Context, req *tfprotov6.ValidateProviderConfigRequest) (*tfprotov6.ValidateProviderConfigResponse, error) {
	bad, name, _, _ := s.check(ctx, "provider", req.Config)
	if len(bad) > 0 {
		return &tfprotov6.ValidateProviderConfigResponse{PreparedConfig: req.Config, Diagnostics: bad}, nil
	}
	resp, err := s.ProviderServer.ValidateProviderConfig(ctx, req)
	if resp != nil {
		resp.Diagnostics = name(resp.Diagnostics)
	}
	return resp, err
}

func (s *server) ConfigureProvider(ctx context.Context, req *tfprotov6.ConfigureProviderRequest) (*tfprotov6.ConfigureProviderResponse, error) {
	resp, err := s.ProviderServer.ConfigureProvider(ctx, req)
	if resp != nil {
		resp.Diagnostics = s.named(ctx, "provider", req.Config, resp.Diagnostics)
	}
	return resp, err
}

func (s *server) ValidateDataResourceConfig(ctx context.Context, req *tfprotov6.ValidateDataResourceConfigRequest) (*tfprotov6.ValidateDataResourceConfigResponse, error) {
	bad, name, cfg, decoded := s.check(ctx, "data."+req.TypeName, req.Config)
	if len(bad) > 0 {
		return &tfprotov6.ValidateDataResourceConfigResponse{Diagnostics: bad}, nil
	}
	if e, fast := s.fastDataSource(ctx, req.TypeName); fast && decoded {
		return &tfprotov6.ValidateDataResourceConfigResponse{Diagnostics: name(protoDiagnostics(ctx, s.validateDataSource(ctx, e, cfg)))}, nil
	}
	resp, err := s.ProviderServer.ValidateDataResourceConfig(ctx, req)
	if resp != nil {
		resp.Diagnostics = name(resp.Diagnostics)
	}
	return resp, err
}

// bounded decodes the configuration dv of object kind key once, for both of the server's uses of it: its size
// diagnostic, if any (a configuration that became known only after validation is bounded here too), and name,
// which names the attributes of the diagnostics the framework then returns (as named does); cfg is the
// configuration, when ok.
func (s *server) bounded(ctx context.Context, key string, dv *tfprotov6.DynamicValue) (tooLarge []*tfprotov6.Diagnostic, name func([]*tfprotov6.Diagnostic) []*tfprotov6.Diagnostic, cfg tftypes.Value, ok bool) {
	_, cfg, ok = s.decode(ctx, key, dv)
	if !ok {
		return nil, func(ds []*tfprotov6.Diagnostic) []*tfprotov6.Diagnostic { return ds }, cfg, false
	}
	if d := checkSizes(cfg); d != nil {
		tooLarge = []*tfprotov6.Diagnostic{d}
	}
	return tooLarge, func(ds []*tfprotov6.Diagnostic) []*tfprotov6.Diagnostic { return nameAttributes(ds, cfg) }, cfg, true
}

func (s *server) ReadDataSource(ctx context.Context, req *tfprotov6.ReadDataSourceRequest) (*tfprotov6.ReadDataSourceResponse, error) {
	tooLarge, name, cfg, decoded := s.bounded(ctx, "data."+req.TypeName, req.Config)
	if tooLarge != nil {
		return &tfprotov6.ReadDataSourceResponse{Diagnostics: tooLarge}, nil
	}
	if e, fast := s.fastDataSource(ctx, req.TypeName); fast && decoded {
		resp := s.readDataSource(ctx, e, cfg, req.Config.MsgPack, req.ClientCapabilities)
		resp.Diagnostics = name(resp.Diagnostics)
		return resp, nil
	}
	resp, err := s.ProviderServer.ReadDataSource(ctx, req)
	if resp != nil {
		resp.Diagnostics = name(resp.Diagnostics)
	}
	return resp, err
}

func (s *server) ValidateResourceConfig(ctx context.Context, req *tfprotov6.ValidateResourceConfigRequest) (*tfprotov6.ValidateResourceConfigResponse, error) {
	bad, name, cfg, decoded := s.check(ctx, "resource."+req.TypeName, req.Config)
	if len(bad) > 0 {
		return &tfprotov6.ValidateResourceConfigResponse{Diagnostics: bad}, nil
	}
	if e, fast := s.fastResource(ctx, req.TypeName); fast && e.validated && decoded {
		return &tfprotov6.ValidateResourceConfigResponse{Diagnostics: name(protoDiagnostics(ctx, s.validateResource(ctx, e, cfg, req.ClientCapabilities)))}, nil
	}
	resp, err := s.ProviderServer.ValidateResourceConfig(ctx, req)
	if resp != nil {
		resp.Diagnostics = name(resp.Diagnostics)
	}
	return resp, err
}

func (s *server) PlanResourceChange(ctx context.Context, req *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, error) {
	tooLarge, name, cfg, decoded := s.bounded(ctx, "resource."+req.TypeName, req.Config)
	if tooLarge != nil {
		return &tfprotov6.PlanResourceChangeResponse{Diagnostics: tooLarge}, nil
	}
	if e, fast := s.fastResource(ctx, req.TypeName); fast && decoded {
		if resp, ok := s.planResource(ctx, e, cfg, req); ok {
			resp.Diagnostics = name(resp.Diagnostics)
			return resp, nil
		}
	}
	resp, err := s.ProviderServer.PlanResourceChange(ctx, req)
	if resp != nil {
		resp.Diagnostics = name(resp.Diagnostics)
	}
	return resp, err
}

func (s *server) ApplyResourceChange(ctx context.Context, req *tfprotov6.ApplyResourceChangeRequest) (*tfprotov6.ApplyResourceChangeResponse, error) {
	resp, err := s.ProviderServer.ApplyResourceChange(ctx, req)
	if resp != nil {
		resp.Diagnostics = s.named(ctx, "resource."+req.TypeName, req.Config, resp.Diagnostics)
	}
	return resp, err
}

// checkNumbers reports every known number in v, of type t, that its attribute cannot hold: a whole-number
// attribute takes only whole numbers within 64 bits, a decimal attribute only finite 64-bit floats that are
// zero only when written as zero (the framework refuses a number that rounds to 0 or ±Inf as a float64).
func checkNumbers(ctx context.Context, p *tftypes.AttributePath, t attr.Type, v tftypes.Value) []*tfprotov6.Diagnostic {
	c := numberCheck{steps: slices.Clone(p.Steps())}
	c.walk(ctx, t, v)
	return c.out
}

// numberCheck walks a configuration for checkNumbers, keeping the path it is at as steps (a path is built only
// for a number it reports).
type numberCheck struct {
	steps []tftypes.AttributePathStep
	out   []*tfprotov6.Diagnostic
}

func (c *numberCheck) path() *tftypes.AttributePath {
	return tftypes.NewAttributePathWithSteps(slices.Clone(c.steps))
}

func (c *numberCheck) step(ctx context.Context, st tftypes.AttributePathStep, t attr.Type, v tftypes.Value) {
	c.steps = append(c.steps, st)
	c.walk(ctx, t, v)
	c.steps = c.steps[:len(c.steps)-1]
}

func (c *numberCheck) walk(ctx context.Context, t attr.Type, v tftypes.Value) {
	if !v.IsKnown() || v.IsNull() {
		return
	}
	switch t.(type) {
	case basetypes.Int64Typable:
		var f big.Float
		if v.As(&f) != nil {
			return
		}
		switch {
		case !f.IsInt():
			c.out = append(c.out, numberError(c.path(), &f, "must be a whole number"))
		case f.Cmp(new(big.Float).SetInt64(math.MinInt64)) < 0 || f.Cmp(new(big.Float).SetInt64(math.MaxInt64)) > 0:
			c.out = append(c.out, numberError(c.path(), &f, "is out of range for a whole number"))
		}
		return
	case basetypes.Float64Typable:
		var f big.Float
		if v.As(&f) != nil {
			return
		}
		if x, _ := f.Float64(); math.IsInf(x, 0) || (x == 0 && f.Sign() != 0) {
			c.out = append(c.out, numberError(c.path(), &f, "is out of range for a number"))
		}
		return
	}
	if at, ok := t.(attr.TypeWithAttributeTypes); ok {
		var m map[string]tftypes.Value
		if v.As(&m) != nil {
			return
		}
		var attrTypes map[string]attr.Type
		if o, ok := at.(basetypes.ObjectType); ok {
			attrTypes = o.AttrTypes // only read, so the type's own map (AttributeTypes copies it at every value)
		} else {
			attrTypes = at.AttributeTypes()
		}
		start := len(c.out)
		for name, at := range attrTypes {
			if child, ok := m[name]; ok {
				c.step(ctx, tftypes.AttributeName(name), at, child)
			}
		}
		sortDiagnostics(c.out[start:])
		return
	}
	et, ok := t.(attr.TypeWithElementType)
	if !ok {
		return
	}
	switch {
	case v.Type().Is(tftypes.Map{}):
		var m map[string]tftypes.Value
		if v.As(&m) != nil {
			return
		}
		start := len(c.out)
		for k, child := range m {
			c.step(ctx, tftypes.ElementKeyString(k), et.ElementType(), child)
		}
		sortDiagnostics(c.out[start:])
	case v.Type().Is(tftypes.List{}):
		var l []tftypes.Value
		if v.As(&l) != nil {
			return
		}
		for i, child := range l {
			c.step(ctx, tftypes.ElementKeyInt(i), et.ElementType(), child)
		}
	case v.Type().Is(tftypes.Set{}):
		var l []tftypes.Value
		if v.As(&l) != nil {
			return
		}
		for _, child := range l {
			c.step(ctx, tftypes.ElementKeyValue(child), et.ElementType(), child)
		}
	}
}

func numberError(p *tftypes.AttributePath, f *big.Float, problem string) *tfprotov6.Diagnostic {
	return &tfprotov6.Diagnostic{
		Severity:  tfprotov6.DiagnosticSeverityError,
		Summary:   "Invalid Number",
		Detail:    fmt.Sprintf("%s = %s %s.", pathString(p), numberString(f), problem),
		Attribute: p,
	}
}

// numberString writes a number as a user would: whole numbers in full up to 21 digits, others shortest.
func numberString(f *big.Float) string {
	if f.IsInt() && f.MinPrec() <= 70 && new(big.Float).Abs(f).Cmp(big.NewFloat(1e21)) < 0 {
		return f.Text('f', 0)
	}
	return f.Text('g', 10)
}

// sortDiagnostics orders diagnostics by attribute path, so map iteration never changes their order.
func sortDiagnostics(ds []*tfprotov6.Diagnostic) []*tfprotov6.Diagnostic {
	slices.SortStableFunc(ds, func(a, b *tfprotov6.Diagnostic) int {
		return strings.Compare(pathString(a.Attribute), pathString(b.Attribute))
	})
	return ds
}

// nameAttributes starts the detail of every diagnostic on a nested attribute with the attribute's path
// (and its value from cfg when the detail does not already name it), and drops a second error on a
// configured value that already has one.
func nameAttributes(ds []*tfprotov6.Diagnostic, cfg tftypes.Value) []*tfprotov6.Diagnostic {
	seen := map[string]bool{}
	out := ds[:0]
	for _, d := range ds {
		if d != nil {
			d.Detail = finish(d.Detail)
		}
		if d == nil || d.Attribute == nil || len(d.Attribute.Steps()) == 0 {
			out = append(out, d)
			continue
		}
		name, value := pathString(d.Attribute), valueString(cfg, d.Attribute)
		if d.Severity == tfprotov6.DiagnosticSeverityError && value != "" {
			if seen[name] {
				continue
			}
			seen[name] = true
		}
		if insideObject(d.Attribute) {
			if !strings.Contains(d.Detail, name) {
				prefix := name
				if value != "" && !strings.Contains(d.Detail, value) {
					prefix += " = " + value
				}
				d.Detail = prefix + ": " + lowerFirst(d.Detail)
			}
			d.Attribute = sourcePath(d.Attribute)
		}
		out = append(out, d)
	}
	return out
}

// sourcePath is the part of p Terraform can find in the configuration: the top-level attribute and, when
// the path goes on into one of its elements, that element (workloads[0], pools["web"]). Terraform looks a
// nested attribute's name up among the object's top-level attributes (tfdiags' traversePathSteps descends into
// blocks only, and kubefit's nested values are attributes), so scale_target_ref.name was shown on the line of
// the resource's own name; the element or the attribute is the closest line it shows right. The detail names
// the full path (nameAttributes).
func sourcePath(p *tftypes.AttributePath) *tftypes.AttributePath {
	steps := p.Steps()
	n := 1
	if len(steps) > 1 {
		if _, ok := steps[1].(tftypes.AttributeName); !ok {
			n = 2
		}
	}
	return tftypes.NewAttributePathWithSteps(steps[:n])
}

// insideObject reports whether p names an attribute of a nested object (pools["a"].max_nodes,
// workloads[0].requests.cpu): Terraform then shows only the enclosing block's line. For a top-level
// attribute or an element of one (workloads[3]) it shows the value's own line.
func insideObject(p *tftypes.AttributePath) bool {
	for _, s := range p.Steps()[1:] {
		if _, ok := s.(tftypes.AttributeName); ok {
			return true
		}
	}
	return false
}

// finish makes a one-line detail a sentence (see sentence); details of several lines (reports, YAML) are
// left as they are.
func finish(s string) string {
	if strings.Contains(s, "\n") {
		return s
	}
	return sentence(s)
}

// lowerFirst lowers the first letter of a sentence that now follows a prefix, unless its first word has
// other capitals, as an acronym or a Kubernetes kind has ("The pool" → "the pool"; "EKS", "DaemonSet" stay).
func lowerFirst(s string) string {
	r := []rune(s)
	first, _, _ := strings.Cut(s, " ")
	if len(r) > 1 && unicode.IsUpper(r[0]) && strings.IndexFunc(first[1:], unicode.IsUpper) < 0 {
		r[0] = unicode.ToLower(r[0])
	}
	return string(r)
}

// pathString renders an attribute path as Terraform writes it: pools["web"].max_nodes, workloads[0].name.
func pathString(p *tftypes.AttributePath) string {
	if p == nil {
		return ""
	}
	var b strings.Builder
	for _, s := range p.Steps() {
		switch s := s.(type) {
		case tftypes.AttributeName:
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(string(s))
		case tftypes.ElementKeyInt:
			fmt.Fprintf(&b, "[%d]", int64(s))
		case tftypes.ElementKeyString:
			fmt.Fprintf(&b, "[%s]", field.Quote(string(s)))
		case tftypes.ElementKeyValue:
			b.WriteString("[…]")
		}
	}
	return b.String()
}

// valueString renders the configured value at p when it is a known string, number or bool ("" otherwise):
// strings quoted and shortened, numbers as written.
func valueString(cfg tftypes.Value, p *tftypes.AttributePath) string {
	raw, _, err := tftypes.WalkAttributePath(cfg, p)
	if err != nil {
		return ""
	}
	v, ok := raw.(tftypes.Value)
	if !ok || !v.IsKnown() || v.IsNull() {
		return ""
	}
	switch {
	case v.Type().Is(tftypes.String):
		var s string
		if v.As(&s) == nil {
			return field.Quote(s)
		}
	case v.Type().Is(tftypes.Number):
		var f big.Float
		if v.As(&f) == nil {
			return numberString(&f)
		}
	case v.Type().Is(tftypes.Bool):
		var b bool
		if v.As(&b) == nil {
			return fmt.Sprint(b)
		}
	}
	return ""
}
