package provider

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	pschema "github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// constraintWords are the phrases with which a description states a constraint on an input's value. Code
// spans (`requiredDuringScheduling…`, `required`) are names, not constraints, and are left out before
// matching; "Required node affinity" is Kubernetes' name for a kind of affinity.
var constraintWords = regexp.MustCompile(`(?i)(\bone of \x60\x60|\bexactly one\b|\bat least (\d|one\b)|\bat most \d|\bbetween \d|` +
	`\brequired(\.|$| unless| with| when|:)|\bis required\b|\bmust be (a|an|one|at|from|below|above|between|\d)\b|\bnon-negative\b|` +
	`\d[\d,]*\s*(–|to)\s*\d[\d,]*|≥|≤|\[0, 1\])`)

// codeSpans are Markdown code spans.
var codeSpans = regexp.MustCompile("`[^`]*`")

// ruleID is a planner rule a description cites (`KSO-E7`, `HPA-E9`, `EBS-V1`): the rule that enforces the
// constraint at plan, with the rule's own message, where a schema validator would shadow it.
var ruleID = regexp.MustCompile(`\b(KSO|HPA|KCAP|EBS|AZD|GPD|SC)-[EV]\d+\b`)

// schemaAttribute is what the walk needs of an attribute of any of the framework's schema packages.
type schemaAttribute interface {
	IsRequired() bool
	IsOptional() bool
	IsComputed() bool
	GetMarkdownDescription() string
}

// walkAttributes calls visit for every attribute of attrs (a map of one of the framework's attribute types),
// nested ones included, with its dotted name.
func walkAttributes(prefix string, attrs reflect.Value, visit func(name string, a reflect.Value)) {
	keys := attrs.MapKeys()
	sort.Slice(keys, func(i, j int) bool { return keys[i].String() < keys[j].String() })
	for _, k := range keys {
		a := attrs.MapIndex(k).Elem()
		name := prefix + k.String()
		visit(name, a)
		if nested := a.FieldByName("Attributes"); nested.IsValid() && nested.Kind() == reflect.Map {
			walkAttributes(name+".", nested, visit)
		}
		if no := a.FieldByName("NestedObject"); no.IsValid() {
			walkAttributes(name+"[*].", no.FieldByName("Attributes"), visit)
		}
	}
}

// TestSchemaConstraintsHaveValidators walks every resource's, data source's and the provider's schema,
// nested attributes included, and checks that each input attribute whose description states a constraint
// ("one of", "at least", "between", "at most", "required", a range …) is Required or has a validator that
// enforces it (issue 21, class 1): a documented rule the schema does not check is a rule users can break
// silently.
func TestSchemaConstraintsHaveValidators(t *testing.T) {
	schemas := map[string]reflect.Value{}
	for _, o := range objectSchemas(t) {
		key := o.name
		switch o.kind {
		case "provider":
			key = "provider"
		case "data":
			key = "data." + o.name
		}
		schemas[key] = o.attrs
	}
	if len(schemas) < 10 {
		t.Fatalf("walked only %d schemas", len(schemas))
	}
	plannerRules := plannerRuleIDs(t)
	checked := 0
	for obj, attrs := range schemas {
		walkAttributes("", attrs, func(name string, a reflect.Value) {
			sa, ok := a.Interface().(schemaAttribute)
			if !ok {
				t.Fatalf("%s.%s: %T is not a schema attribute", obj, name, a.Interface())
			}
			if !sa.IsRequired() && !sa.IsOptional() {
				return // an output
			}
			desc := sa.GetMarkdownDescription()
			m := constraintWords.FindString(codeSpans.ReplaceAllStringFunc(desc, func(span string) string {
				if ruleID.MatchString(span) {
					return span
				}
				return "``"
			}))
			if m == "" {
				return
			}
			checked++
			if strings.EqualFold(m, "required") && sa.IsRequired() {
				return
			}
			if v := a.FieldByName("Validators"); v.IsValid() && v.Len() > 0 {
				return
			}
			if id := ruleID.FindString(desc); id != "" && plannerRules[id] {
				return // the planner's rule enforces it at plan, with its own message
			}
			t.Errorf("%s.%s says %q but has no validator: %s", obj, name, m, sa.GetMarkdownDescription())
		})
	}
	if checked < 50 {
		t.Errorf("only %d attributes state a constraint; the walk is not reaching the schemas", checked)
	}
}

// plannerRuleIDs returns the error rule IDs the planner's sources report (field errors and rule failures
// quote them in their messages), read from the non-test Go files under internal/planner.
func plannerRuleIDs(t *testing.T) map[string]bool {
	t.Helper()
	ids := map[string]bool{}
	err := filepath.WalkDir("../planner", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return err
		}
		b, err := os.ReadFile(p)
		for _, id := range ruleID.FindAllString(string(b), -1) {
			ids[id] = true
		}
		return err
	})
	if err != nil || len(ids) < 20 {
		t.Fatalf("reading the planner's rule IDs: %v (%d found)", err, len(ids))
	}
	return ids
}

// objectSchema is the schema of the provider, a data source or a resource, as the framework's schema packages give
// it.
type objectSchema struct {
	kind   string // "provider", "data" or "resource"
	name   string // the type name ("kubefit_node_group"), "provider" for the provider
	schema any    // a provider, datasource or resource schema.Schema
	attrs  reflect.Value
}

// typ is the schema's framework type.
func (o objectSchema) typ() attr.Type {
	return o.schema.(interface{ Type() attr.Type }).Type()
}

// config is v as a configuration of the object.
func (o objectSchema) config(v tftypes.Value) tfsdk.Config {
	switch s := o.schema.(type) {
	case dschema.Schema:
		return tfsdk.Config{Raw: v, Schema: s}
	case rschema.Schema:
		return tfsdk.Config{Raw: v, Schema: s}
	}
	return tfsdk.Config{Raw: v, Schema: o.schema.(pschema.Schema)}
}

// plan is v as a plan of the object, false for an object that is not a resource.
func (o objectSchema) plan(v tftypes.Value) (tfsdk.Plan, bool) {
	s, ok := o.schema.(rschema.Schema)
	return tfsdk.Plan{Raw: v, Schema: s}, ok
}

// objectSchemas are the provider's schema and every data source's and resource's.
func objectSchemas(tb testing.TB) []objectSchema {
	tb.Helper()
	ctx := context.Background()
	p := New("test")().(*kubefitProvider)
	var ps provider.SchemaResponse
	p.Schema(ctx, provider.SchemaRequest{}, &ps)
	out := []objectSchema{{kind: "provider", name: "provider", schema: ps.Schema, attrs: reflect.ValueOf(ps.Schema.Attributes)}}
	for _, f := range p.DataSources(ctx) {
		d := f()
		var m datasource.MetadataResponse
		d.Metadata(ctx, datasource.MetadataRequest{ProviderTypeName: "kubefit"}, &m)
		var s datasource.SchemaResponse
		d.Schema(ctx, datasource.SchemaRequest{}, &s)
		out = append(out, objectSchema{kind: "data", name: m.TypeName, schema: s.Schema, attrs: reflect.ValueOf(s.Schema.Attributes)})
	}
	for _, f := range p.Resources(ctx) {
		r := f()
		var m resource.MetadataResponse
		r.Metadata(ctx, resource.MetadataRequest{ProviderTypeName: "kubefit"}, &m)
		var s resource.SchemaResponse
		r.Schema(ctx, resource.SchemaRequest{}, &s)
		out = append(out, objectSchema{kind: "resource", name: m.TypeName, schema: s.Schema, attrs: reflect.ValueOf(s.Schema.Attributes)})
	}
	if len(out) < 10 {
		tb.Fatalf("only %d schemas", len(out))
	}
	return out
}

// TestSchemaAttributesDescribed walks every schema, nested attributes included, and checks that every attribute,
// input or output, has a description: the registry docs are generated from them, and an attribute documented by
// nothing (or by another object's text) leaves a reader guessing what the figure is.
func TestSchemaAttributesDescribed(t *testing.T) {
	walked := 0
	for _, o := range objectSchemas(t) {
		walkAttributes("", o.attrs, func(name string, a reflect.Value) {
			walked++
			if sa, ok := a.Interface().(schemaAttribute); ok && strings.TrimSpace(sa.GetMarkdownDescription()) == "" {
				t.Errorf("%s %s: attribute %s has no description", o.kind, o.name, name)
			}
		})
	}
	if walked < 500 {
		t.Errorf("walked only %d attributes", walked)
	}
}
