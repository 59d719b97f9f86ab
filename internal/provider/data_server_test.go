package provider

import (
	"context"
	"fmt"
	"math/big"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// validDataConfigs are a valid configuration of every data source, from its example, that the generated
// configurations of TestFastDataSourceServer vary.
func validDataConfigs() map[string]map[string]any {
	workloads := []any{
		map[string]any{"name": "api", "min_replicas": 6, "max_replicas": 24, "max_surge": "25%",
			"requests": map[string]any{"cpu": "500m", "memory": "1Gi"}, "cpu_usage": "200m", "spread": map[string]any{"type": "zone", "max_skew": 1}},
		map[string]any{"name": "cache", "replicas": 6, "requests": map[string]any{"cpu": "500m", "memory": "12Gi"}},
	}
	daemonsets := []any{map[string]any{"name": "aws-node", "requests": map[string]any{"cpu": "25m"}}}
	manifest := "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: shop}\nspec:\n  replicas: 3\n" +
		"  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec:\n      containers:\n" +
		"      - name: web\n        image: nginx\n        resources: {requests: {cpu: 250m, memory: 256Mi}}\n"
	return map[string]map[string]any{
		"kubefit_instance_type":  {"cloud": "aws", "name": "m5.large"},
		"kubefit_instance_types": {"cloud": "aws", "families": []any{"m6?", "c7?"}, "vcpu": map[string]any{"min": 4, "max": 16}, "sort_by": "price"},
		"kubefit_node_overhead": {"cloud": "aws", "instance_type": "m5.large", "profile": "eks-al2023",
			"eks": map[string]any{"node_group_kind": "managed"}, "daemonsets": daemonsets},
		"kubefit_burst_budget": {"cloud": "aws", "instance_type": "t3a.medium", "credit_mode": "standard", "pods_per_node": 10,
			"cpu_usage_per_pod": "50m", "starting_balance": "full", "min_hours": 24, "max_surplus_cost_per_month": 5.5},
		"kubefit_node_pool_sizing": {"pools": map[string]any{"general": map[string]any{"cloud": "aws", "instance_type": "m6i.xlarge",
			"max_nodes": 30, "zones": []any{"a", "b", "c"}, "max_surplus_cost_per_month": 0.1}},
			"daemonsets": daemonsets, "workloads": workloads, "fail_on_misfit": false},
		"kubefit_node_pool_recommendation": {"cloud": "aws", "candidates": []any{"m6i.xlarge", "c6i.2xlarge", "r6i.large"},
			"pool": map[string]any{"max_nodes": 30}, "daemonsets": daemonsets, "workloads": workloads, "prices": map[string]any{"c6i.2xlarge": 0.3}},
		"kubefit_disk_tier": {"cloud": "azure", "type": "Premium_LRS", "size_gib": 100, "required_iops": 1000,
			"io": map[string]any{"queue_depth": 4, "latency_ms": 2.5}},
		"kubefit_workloads": {"manifests": manifest, "namespace": "shop", "overrides": map[string]any{"web": map[string]any{"cpu_usage": "150m"}}},
	}
}

// TestFastDataSourceServer: the data sources this server validates and reads itself (data_server.go) answer
// exactly as the framework's server does. Every data source is served so; for each, its example configuration
// and 150 variations of it (attributes dropped, set to other values of a pool that holds every value the
// schema's validators name, unknown, or set on read-only attributes) are validated by both servers, and those
// both find valid are read by both: the diagnostics (as sets: the framework's order follows map iteration)
// and the states are equal.
func TestFastDataSourceServer(t *testing.T) {
	ctx := context.Background()
	fast, framework := newRPCServer(t), newRPCServer(t)
	framework.srv.(*server).frameworkOnly = true
	s := fast.srv.(*server)
	s.configTypes(ctx)
	valid := validDataConfigs()
	for name, e := range s.dataSources {
		if !e.fast {
			t.Errorf("%s is not served by the fast path (schemaValidatable)", name)
			continue
		}
		if _, ok := valid[name]; !ok {
			t.Errorf("%s has no valid configuration in validDataConfigs", name)
		}
	}
	for name, base := range valid {
		t.Run(name, func(t *testing.T) {
			e := s.dataSources[name]
			typ := fast.schemas.DataSourceSchemas[name].ValueType()
			g := &configGen{r: rand.New(rand.NewPCG(uint64(len(name)), 7)), pool: schemaStrings(ctx, e.schema)}
			reads, invalid := 0, 0
			for i := range 151 {
				v := rpcValue(typ, base)
				if i > 0 {
					v = g.vary(e.schema.Attributes, v, i%3 == 0)
				}
				dv, err := tfprotov6.NewDynamicValue(typ, v)
				if err != nil {
					t.Fatal(err)
				}
				vf, _ := fast.srv.ValidateDataResourceConfig(ctx, &tfprotov6.ValidateDataResourceConfigRequest{TypeName: name, Config: &dv})
				vw, _ := framework.srv.ValidateDataResourceConfig(ctx, &tfprotov6.ValidateDataResourceConfigRequest{TypeName: name, Config: &dv})
				if a, b := diagSet(vf.Diagnostics), diagSet(vw.Diagnostics); !slices.Equal(a, b) {
					t.Fatalf("configuration %d (%v): validation differs\nfast:      %q\nframework: %q", i, v, a, b)
				}
				if hasRPCError(vf.Diagnostics) || !v.IsFullyKnown() {
					invalid++
					continue
				}
				reads++
				rf, _ := fast.srv.ReadDataSource(ctx, &tfprotov6.ReadDataSourceRequest{TypeName: name, Config: &dv})
				rw, _ := framework.srv.ReadDataSource(ctx, &tfprotov6.ReadDataSourceRequest{TypeName: name, Config: &dv})
				if a, b := diagSet(rf.Diagnostics), diagSet(rw.Diagnostics); !slices.Equal(a, b) {
					t.Fatalf("configuration %d (%v): read diagnostics differ\nfast:      %q\nframework: %q", i, v, a, b)
				}
				if (rf.State == nil) != (rw.State == nil) {
					t.Fatalf("configuration %d: state %v against the framework's %v", i, rf.State, rw.State)
				}
				if rf.State != nil {
					sf, err1 := rf.State.Unmarshal(typ)
					sw, err2 := rw.State.Unmarshal(typ)
					if err1 != nil || err2 != nil || !sf.Equal(sw) {
						t.Fatalf("configuration %d (%v): states differ (%v %v)\nfast:      %v\nframework: %v", i, v, err1, err2, sf, sw)
					}
				}
			}
			if reads < 10 || invalid < 10 {
				t.Errorf("%d configurations read and %d invalid: the variations should give plenty of both", reads, invalid)
			}
			t.Logf("%d read, %d invalid or unknown", reads, invalid)
		})
	}
}

// diagSet is a sorted rendering of diagnostics, for comparing them as sets.
func diagSet(ds []*tfprotov6.Diagnostic) []string {
	var out []string
	for _, d := range ds {
		out = append(out, fmt.Sprintf("%v|%s|%s|%s", d.Severity, d.Summary, d.Detail, pathString(d.Attribute)))
	}
	slices.Sort(out)
	return out
}

// schemaStrings are strings a generated configuration draws from: every quoted value the descriptions of the
// schema's string validators name (the values of a "one of"), and values of the kinds kubefit's attributes take.
func schemaStrings(ctx context.Context, s dschema.Schema) []string {
	set := map[string]bool{}
	quoted := regexp.MustCompile(`"([^"\\]*)"`)
	var walk func(map[string]dschema.Attribute)
	walk = func(attrs map[string]dschema.Attribute) {
		for _, a := range attrs {
			if x, ok := a.(dschema.StringAttribute); ok {
				for _, v := range x.Validators {
					for _, m := range quoted.FindAllStringSubmatch(v.Description(ctx), -1) {
						set[m[1]] = true
					}
				}
			}
			if nested, ok := nestedAttributes(a); ok {
				walk(nested)
			}
		}
	}
	walk(s.Attributes)
	for _, v := range []string{"", "aws", "azure", "gcp", "m5.large", "m6i.xlarge", "t3a.medium", "Standard_D4s_v5", "100m", "1", "2Gi",
		"512Mi", "cpus", "25%", "1.29", "zone", "node", "NoSchedule", "Exists", "bad value", "a\nb", "api", "cache"} {
		set[v] = true
	}
	out := make([]string, 0, len(set))
	for v := range set {
		out = append(out, v)
	}
	slices.Sort(out)
	return out
}

// configGen varies configurations at random.
type configGen struct {
	r    *rand.Rand
	pool []string
}

// vary changes one to three attributes of the object v (of the attributes attrs), at any depth: dropped,
// replaced by a drawn value, unknown (when unknowns), or set although read-only.
func (g *configGen) vary(attrs map[string]dschema.Attribute, v tftypes.Value, unknowns bool) tftypes.Value {
	for range 1 + g.r.IntN(3) {
		v = g.varyOne(attrs, v, unknowns)
	}
	return v
}

func (g *configGen) varyOne(attrs map[string]dschema.Attribute, v tftypes.Value, unknowns bool) tftypes.Value {
	var vals map[string]tftypes.Value
	if !v.IsKnown() || v.IsNull() || v.As(&vals) != nil {
		return v
	}
	names := make([]string, 0, len(attrs))
	for n := range attrs {
		names = append(names, n)
	}
	slices.Sort(names)
	name := names[g.r.IntN(len(names))]
	a, cur := attrs[name], vals[name]
	out := make(map[string]tftypes.Value, len(vals))
	for k, x := range vals {
		out[k] = x
	}
	// Into a configured nested object, half the time.
	if cur.IsKnown() && !cur.IsNull() && g.r.IntN(2) == 0 {
		switch x := a.(type) {
		case dschema.SingleNestedAttribute:
			out[name] = g.vary(x.Attributes, cur, unknowns)
			return tftypes.NewValue(v.Type(), out)
		case dschema.ListNestedAttribute:
			var elems []tftypes.Value
			if cur.As(&elems) == nil && len(elems) > 0 {
				i := g.r.IntN(len(elems))
				elems = slices.Clone(elems)
				elems[i] = g.vary(x.NestedObject.Attributes, elems[i], unknowns)
				out[name] = tftypes.NewValue(cur.Type(), elems)
				return tftypes.NewValue(v.Type(), out)
			}
		case dschema.MapNestedAttribute:
			var elems map[string]tftypes.Value
			if cur.As(&elems) == nil && len(elems) > 0 {
				keys := slices.Sorted(mapsKeys(elems))
				k := keys[g.r.IntN(len(keys))]
				elems2 := map[string]tftypes.Value{}
				for kk, e := range elems {
					elems2[kk] = e
				}
				elems2[k] = g.vary(x.NestedObject.Attributes, elems[k], unknowns)
				out[name] = tftypes.NewValue(cur.Type(), elems2)
				return tftypes.NewValue(v.Type(), out)
			}
		}
	}
	t := cur.Type()
	switch r := g.r.IntN(10); {
	case r < 2:
		out[name] = tftypes.NewValue(t, nil)
	case r < 3 && unknowns:
		out[name] = tftypes.NewValue(t, tftypes.UnknownValue)
	default:
		out[name] = g.value(a, t, 0)
	}
	return tftypes.NewValue(v.Type(), out)
}

func mapsKeys(m map[string]tftypes.Value) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// value draws a value of type t (of attribute a when known, for nested objects' attributes).
func (g *configGen) value(a dschema.Attribute, t tftypes.Type, depth int) tftypes.Value {
	if depth > 3 {
		return tftypes.NewValue(t, nil)
	}
	switch {
	case t.Is(tftypes.String):
		return tftypes.NewValue(t, g.pool[g.r.IntN(len(g.pool))])
	case t.Is(tftypes.Number):
		nums := []float64{-1, 0, 1, 2, 3, 10, 24, 100, 2000, 0.25, 0.5, 2.5}
		if i := g.r.IntN(len(nums) + 1); i < len(nums) {
			return tftypes.NewValue(t, big.NewFloat(nums[i]))
		}
		// 0.1 as Terraform parses it (512 bits), which a float64 rounds: the framework's semantic equality
		// keeps the configured one where a Read returns the float64.
		tenth, _ := new(big.Float).SetPrec(512).SetString("0.1")
		return tftypes.NewValue(t, tenth)
	case t.Is(tftypes.Bool):
		return tftypes.NewValue(t, g.r.IntN(2) == 0)
	}
	nested, _ := nestedAttributes(a)
	object := func(ot tftypes.Object) tftypes.Value {
		vals := map[string]tftypes.Value{}
		for n, at := range ot.AttributeTypes {
			if g.r.IntN(3) == 0 {
				vals[n] = g.value(nested[n], at, depth+1)
			} else {
				vals[n] = tftypes.NewValue(at, nil)
			}
		}
		return tftypes.NewValue(ot, vals)
	}
	switch tt := t.(type) {
	case tftypes.Object:
		return object(tt)
	case tftypes.List:
		var elems []tftypes.Value
		for range g.r.IntN(3) {
			elems = append(elems, g.elem(nested, tt.ElementType, depth, object))
		}
		return tftypes.NewValue(t, elems)
	case tftypes.Set:
		var elems []tftypes.Value
		for range g.r.IntN(3) {
			e := g.elem(nested, tt.ElementType, depth, object)
			if !slices.ContainsFunc(elems, e.Equal) {
				elems = append(elems, e)
			}
		}
		return tftypes.NewValue(t, elems)
	case tftypes.Map:
		elems := map[string]tftypes.Value{}
		for range g.r.IntN(3) {
			elems[g.pool[g.r.IntN(len(g.pool))]] = g.elem(nested, tt.ElementType, depth, object)
		}
		return tftypes.NewValue(t, elems)
	}
	return tftypes.NewValue(t, nil)
}

func (g *configGen) elem(nested map[string]dschema.Attribute, t tftypes.Type, depth int, object func(tftypes.Object) tftypes.Value) tftypes.Value {
	if ot, ok := t.(tftypes.Object); ok && nested != nil {
		return object(ot)
	}
	return g.value(nil, t, depth+1)
}

// TestSemanticFloats: a Float64 in state that equals the configured one as a float64 but not as written is
// the configured one after Read, as the framework's semantic equality makes it; other values are the state's.
func TestSemanticFloats(t *testing.T) {
	ctx := context.Background()
	typ := types.ObjectType{AttrTypes: map[string]attr.Type{"f": types.Float64Type, "l": types.ListType{ElemType: types.Float64Type}, "s": types.StringType}}
	tt := typ.TerraformType(ctx)
	written, _ := new(big.Float).SetPrec(512).SetString("0.1")
	asFloat := big.NewFloat(0.1)
	obj := func(f *big.Float, l []*big.Float, s string) tftypes.Value {
		var elems []tftypes.Value
		for _, x := range l {
			elems = append(elems, tftypes.NewValue(tftypes.Number, x))
		}
		return tftypes.NewValue(tt, map[string]tftypes.Value{"f": tftypes.NewValue(tftypes.Number, f),
			"l": tftypes.NewValue(tftypes.List{ElementType: tftypes.Number}, elems), "s": tftypes.NewValue(tftypes.String, s)})
	}
	config := obj(written, []*big.Float{written, big.NewFloat(2)}, "a")
	got, changed := semanticFloats(floatsOf(typ), config, obj(asFloat, []*big.Float{asFloat, big.NewFloat(3)}, "b"))
	want := obj(written, []*big.Float{written, big.NewFloat(3)}, "b")
	if !got.Equal(want) || !changed {
		t.Errorf("got %v (changed %v), want %v", got, changed, want)
	}
	if same, changed := semanticFloats(floatsOf(typ), config, config); changed || !same.Equal(config) {
		t.Errorf("the configuration itself changed: %v", same)
	}
	if asFloat.Cmp(written) == 0 {
		t.Fatal("the test's two numbers should differ as written")
	}
	if strings.Contains(got.String(), "0.1000000000000000055") {
		t.Errorf("a float64 rounding survived: %v", got)
	}
}

// TestStopProviderCancelsReads: StopProvider cancels the context of a read this server serves, as the
// framework's server cancels those it serves; a finished read is forgotten.
func TestStopProviderCancelsReads(t *testing.T) {
	ctx := context.Background()
	r := newRPCServer(t)
	s := r.srv.(*server)
	running, done := s.stoppable(ctx)
	finished, forget := s.stoppable(ctx)
	forget()
	if _, err := s.StopProvider(ctx, &tfprotov6.StopProviderRequest{}); err != nil {
		t.Fatal(err)
	}
	if running.Err() == nil {
		t.Error("a running read's context was not cancelled")
	}
	done()
	if len(s.cancels) != 0 || finished.Err() == nil {
		t.Errorf("%d reads still recorded", len(s.cancels))
	}
}
