package provider

import (
	"context"
	"math"
	"math/big"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// numbersType is a small configuration type: a whole number, a decimal and a list of objects holding a
// whole number, like a sizing configuration's workloads.
var numbersType = types.ObjectType{AttrTypes: map[string]attr.Type{
	"count": types.Int64Type,
	"ratio": types.Float64Type,
	"items": types.ListType{ElemType: types.ObjectType{AttrTypes: map[string]attr.Type{"replicas": types.Int64Type}}},
	"named": types.MapType{ElemType: types.Int64Type},
}}

func numbersValue(t *testing.T, count, ratio, replicas, named string) tftypes.Value {
	t.Helper()
	num := func(s string) tftypes.Value {
		f, _, err := big.ParseFloat(s, 10, 512, big.ToNearestEven)
		if err != nil {
			t.Fatalf("bad number %q: %v", s, err)
		}
		return tftypes.NewValue(tftypes.Number, f)
	}
	ctx := context.Background()
	tt := numbersType.TerraformType(ctx).(tftypes.Object)
	item := tt.AttributeTypes["items"].(tftypes.List).ElementType
	return tftypes.NewValue(tt, map[string]tftypes.Value{
		"count": num(count),
		"ratio": num(ratio),
		"items": tftypes.NewValue(tt.AttributeTypes["items"], []tftypes.Value{
			tftypes.NewValue(item, map[string]tftypes.Value{"replicas": num("1")}),
			tftypes.NewValue(item, map[string]tftypes.Value{"replicas": num(replicas)}),
		}),
		"named": tftypes.NewValue(tt.AttributeTypes["named"], map[string]tftypes.Value{"web": num(named)}),
	})
}

func TestCheckNumbers(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name                          string
		count, ratio, replicas, named string
		want                          []string
	}{
		{"all fine", "3", "0.5", "2", "7", nil},
		{"largest whole number", "9223372036854775807", "1e300", "-9223372036854775808", "0", nil},
		{"fraction in a list of objects", "3", "0.5", "1.5", "7", []string{"items[1].replicas = 1.5 must be a whole number."}},
		{"huge whole number", "1e400", "0.5", "2", "7", []string{"count = 1e+400 is out of range for a whole number."}},
		{"just past int64", "9223372036854775808", "0.5", "2", "7", []string{"count = 9223372036854775808 is out of range for a whole number."}},
		{"huge decimal", "3", "1e400", "2", "7", []string{"ratio = 1e+400 is out of range for a number."}},
		{"decimal that rounds to zero", "3", "1e-400", "2", "7", []string{"ratio = 1e-400 is out of range for a number."}},
		{"zero and the smallest float64", "0", "4.9e-324", "2", "7", nil},
		{"map element, and several in path order", "0.25", "3", "2", "2.5", []string{
			"count = 0.25 must be a whole number.", `named["web"] = 2.5 must be a whole number.`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := checkNumbers(ctx, tftypes.NewAttributePath(), numbersType, numbersValue(t, tc.count, tc.ratio, tc.replicas, tc.named))
			if len(got) != len(tc.want) {
				t.Fatalf("got %d diagnostics %v, want %d", len(got), details(got), len(tc.want))
			}
			for i, d := range got {
				if d.Detail != tc.want[i] || d.Summary != "Invalid Number" || d.Severity != tfprotov6.DiagnosticSeverityError {
					t.Errorf("diagnostic %d: %s %q, want Invalid Number %q", i, d.Summary, d.Detail, tc.want[i])
				}
			}
		})
	}
}

func details(ds []*tfprotov6.Diagnostic) []string {
	out := make([]string, len(ds))
	for i, d := range ds {
		out[i] = d.Detail
	}
	return out
}

func TestNameAttributes(t *testing.T) {
	cfg := numbersValue(t, "3", "0.5", "12", "7")
	replicas := tftypes.NewAttributePath().WithAttributeName("items").WithElementKeyInt(1).WithAttributeName("replicas")
	diag := func(sev tfprotov6.DiagnosticSeverity, p *tftypes.AttributePath, detail string) *tfprotov6.Diagnostic {
		return &tfprotov6.Diagnostic{Severity: sev, Summary: "S", Detail: detail, Attribute: p}
	}
	errSev, warnSev := tfprotov6.DiagnosticSeverityError, tfprotov6.DiagnosticSeverityWarning
	got := nameAttributes([]*tfprotov6.Diagnostic{
		diag(errSev, replicas, "Must be at most 10."),                                          // gets path and value
		diag(errSev, replicas, "The second error on the same value."),                          // dropped
		diag(warnSev, replicas, "The replica count 12 is high."),                               // names the value already
		diag(errSev, tftypes.NewAttributePath().WithAttributeName("count"), "Top level."),      // Terraform shows the line
		diag(errSev, nil, "No attribute."),                                                     // unchanged
		diag(errSev, nil, `invalid starting balance "lots"`),                                   // made a sentence
		diag(errSev, nil, "line one\nline two"),                                                // several lines: as it is
		diag(errSev, replicas.WithAttributeName("x"), "Attribute items[1].replicas.x is bad."), // names its path already
		diag(errSev, tftypes.NewAttributePath().WithAttributeName("named").WithElementKeyString("web"), "EKS is not here."),
		diag(errSev, replicas.WithAttributeName("y"), "DaemonSet 1 has no name."), // a kind keeps its capital
	}, cfg)
	want := []string{
		"items[1].replicas = 12: must be at most 10.",
		"items[1].replicas: the replica count 12 is high.",
		"Top level.",
		"No attribute.",
		`Invalid starting balance "lots".`,
		"line one\nline two",
		"Attribute items[1].replicas.x is bad.",
		"EKS is not here.", // an element of a top-level attribute: Terraform shows its line
		"items[1].replicas.y: DaemonSet 1 has no name.",
	}
	if strings.Join(details(got), "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(details(got), "\n"), strings.Join(want, "\n"))
	}
}

func TestValueString(t *testing.T) {
	long := strings.Repeat("x", 200)
	cfg := tftypes.NewValue(tftypes.Object{AttributeTypes: map[string]tftypes.Type{"s": tftypes.String, "n": tftypes.Number, "b": tftypes.Bool}},
		map[string]tftypes.Value{
			"s": tftypes.NewValue(tftypes.String, long),
			"n": tftypes.NewValue(tftypes.Number, big.NewFloat(1e18)),
			"b": tftypes.NewValue(tftypes.Bool, nil),
		})
	root := tftypes.NewAttributePath()
	if got := valueString(cfg, root.WithAttributeName("s")); len([]rune(got)) > 70 || !strings.HasPrefix(got, `"xxx`) {
		t.Errorf("long string rendered as %q, want a shortened quote", got)
	}
	if got := valueString(cfg, root.WithAttributeName("n")); got != "1000000000000000000" {
		t.Errorf("1e18 rendered as %q", got)
	}
	if got := valueString(cfg, root.WithAttributeName("b")); got != "" {
		t.Errorf("null rendered as %q, want nothing", got)
	}
	if got := valueString(cfg, root.WithAttributeName("missing")); got != "" {
		t.Errorf("missing attribute rendered as %q, want nothing", got)
	}
}

// TestNewServerKnowsEveryObject checks that the number pre-check has the configuration type of the
// provider and of every data source and resource.
func TestNewServerKnowsEveryObject(t *testing.T) {
	ctx := context.Background()
	srv, err := NewServer("test")()
	if err != nil {
		t.Fatal(err)
	}
	s := srv.(*server)
	schema, err := s.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	types := s.configTypes(ctx)
	for name := range schema.DataSourceSchemas {
		if types["data."+name] == nil {
			t.Errorf("no configuration type for data source %s", name)
		}
	}
	for name := range schema.ResourceSchemas {
		if types["resource."+name] == nil {
			t.Errorf("no configuration type for resource %s", name)
		}
	}
	if types["provider"] == nil {
		t.Error("no configuration type for the provider")
	}
}

// FuzzCheckNumbers: any number in a whole-number attribute is reported exactly when it is fractional or
// outside 64 bits, and the check never panics.
func FuzzCheckNumbers(f *testing.F) {
	for _, s := range []string{"0", "1.5", "-1", "1e400", "9223372036854775807", "9223372036854775808", "-9223372036854775809", "1e-400"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, _, err := big.ParseFloat(s, 10, 512, big.ToNearestEven)
		if err != nil || n.IsInf() {
			return
		}
		ctx := context.Background()
		tt := numbersType.TerraformType(ctx).(tftypes.Object)
		v := numbersValue(t, "1", "1", "1", "1")
		var m map[string]tftypes.Value
		if err := v.As(&m); err != nil {
			t.Fatal(err)
		}
		m["count"] = tftypes.NewValue(tftypes.Number, n)
		got := checkNumbers(ctx, tftypes.NewAttributePath(), numbersType, tftypes.NewValue(tt, m))
		lo, hi := new(big.Float).SetInt64(math.MinInt64), new(big.Float).SetInt64(math.MaxInt64)
		bad := !n.IsInt() || n.Cmp(lo) < 0 || n.Cmp(hi) > 0
		if bad != (len(got) == 1) || len(got) > 1 {
			t.Fatalf("%s: %d diagnostics %v", s, len(got), details(got))
		}
	})
}

// TestDecodedConfigsServeTheRead: a read of the configuration just validated finds it decoded (Terraform
// validates a data source again right before reading it); another configuration, or the same bytes for another
// object, is decoded anew; at most maxDecodedConfigs are kept, the oldest dropped first.
func TestDecodedConfigsServeTheRead(t *testing.T) {
	r := newRPCServer(t)
	s := r.srv.(*server)
	ctx := context.Background()
	dv := r.dataConfig(t, "kubefit_node_pool_sizing", sizingConfig(3))
	if _, ok := s.recent.get("data.kubefit_node_pool_sizing", dv.MsgPack); ok {
		t.Fatal("a configuration never decoded was found")
	}
	if resp, err := r.srv.ValidateDataResourceConfig(ctx, &tfprotov6.ValidateDataResourceConfigRequest{TypeName: "kubefit_node_pool_sizing", Config: dv}); err != nil || hasRPCError(resp.Diagnostics) {
		t.Fatalf("%v %v", err, resp.Diagnostics)
	}
	v, ok := s.recent.get("data.kubefit_node_pool_sizing", slices.Clone(dv.MsgPack))
	want, _ := dv.Unmarshal(r.schemas.DataSourceSchemas["kubefit_node_pool_sizing"].ValueType())
	if !ok || !v.Equal(want) {
		t.Fatalf("the validated configuration was not kept: %v %v", ok, v)
	}
	if _, ok := s.recent.get("data.kubefit_node_pool_recommendation", dv.MsgPack); ok {
		t.Error("the same bytes for another object were served")
	}
	other := r.dataConfig(t, "kubefit_node_pool_sizing", sizingConfig(4))
	if _, ok := s.recent.get("data.kubefit_node_pool_sizing", other.MsgPack); ok {
		t.Error("another configuration was served")
	}
	for i := range maxDecodedConfigs {
		s.recent.put("k", []byte{byte(i)}, tftypes.NewValue(tftypes.Number, big.NewFloat(float64(i))))
	}
	if _, ok := s.recent.get("data.kubefit_node_pool_sizing", dv.MsgPack); ok || len(s.recent.entries) != maxDecodedConfigs {
		t.Errorf("%d entries kept, the oldest still found: %v", len(s.recent.entries), ok)
	}
	if _, ok := s.recent.get("k", []byte{0}); !ok {
		t.Error("a recent entry was dropped")
	}
	if _, ok := s.recent.get("k", nil); ok {
		t.Error("a configuration without an encoding was served")
	}
	// The encoded bytes kept are bounded too; the newest is kept whatever its size.
	half := make([]byte, maxDecodedBytes/2+1)
	s.recent.put("big", half, tftypes.NewValue(tftypes.Number, big.NewFloat(1)))
	s.recent.put("big2", slices.Clone(half), tftypes.NewValue(tftypes.Number, big.NewFloat(2)))
	if _, ok := s.recent.get("big", half); ok {
		t.Error("more encoded bytes than maxDecodedBytes kept")
	}
	if _, ok := s.recent.get("big2", half); !ok {
		t.Error("the newest configuration was dropped")
	}
	huge := make([]byte, maxDecodedBytes+1)
	s.recent.put("huge", huge, tftypes.NewValue(tftypes.Number, big.NewFloat(3)))
	if _, ok := s.recent.get("huge", huge); !ok || len(s.recent.entries) != 1 {
		t.Errorf("%d entries after one beyond the byte bound; the newest kept: %v", len(s.recent.entries), ok)
	}
}
