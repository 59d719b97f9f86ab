package provider

import (
	"context"
	"fmt"
	"math/big"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// rpcValue builds a configuration value of type t from plain Go values (map[string]any for objects and maps,
// []any for lists and sets, string, int, float64, bool); object attributes not given are null.
func rpcValue(t tftypes.Type, v any) tftypes.Value {
	if v == nil {
		return tftypes.NewValue(t, nil)
	}
	switch tt := t.(type) {
	case tftypes.Object:
		m := v.(map[string]any)
		vals := make(map[string]tftypes.Value, len(tt.AttributeTypes))
		for name, at := range tt.AttributeTypes {
			vals[name] = rpcValue(at, m[name])
		}
		return tftypes.NewValue(tt, vals)
	case tftypes.List:
		var elems []tftypes.Value
		for _, x := range v.([]any) {
			elems = append(elems, rpcValue(tt.ElementType, x))
		}
		return tftypes.NewValue(tt, elems)
	case tftypes.Set:
		var elems []tftypes.Value
		for _, x := range v.([]any) {
			elems = append(elems, rpcValue(tt.ElementType, x))
		}
		return tftypes.NewValue(tt, elems)
	case tftypes.Map:
		elems := map[string]tftypes.Value{}
		for k, x := range v.(map[string]any) {
			elems[k] = rpcValue(tt.ElementType, x)
		}
		return tftypes.NewValue(tt, elems)
	}
	switch x := v.(type) {
	case int:
		return tftypes.NewValue(t, big.NewFloat(float64(x)))
	case float64:
		return tftypes.NewValue(t, big.NewFloat(x))
	}
	return tftypes.NewValue(t, v)
}

// rpcServer is a configured provider server and the configuration types of its objects, for benchmarks that
// drive the RPCs Terraform sends during a plan.
type rpcServer struct {
	srv     tfprotov6.ProviderServer
	schemas *tfprotov6.GetProviderSchemaResponse
}

func newRPCServer(tb testing.TB) *rpcServer {
	tb.Helper()
	ctx := context.Background()
	srv, err := NewServer("bench")()
	if err != nil {
		tb.Fatal(err)
	}
	schemas, err := srv.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		tb.Fatal(err)
	}
	cfg, err := tfprotov6.NewDynamicValue(schemas.Provider.ValueType(), rpcValue(schemas.Provider.ValueType(), map[string]any{}))
	if err != nil {
		tb.Fatal(err)
	}
	resp, err := srv.ConfigureProvider(ctx, &tfprotov6.ConfigureProviderRequest{Config: &cfg})
	if err != nil || hasRPCError(resp.Diagnostics) {
		tb.Fatalf("configure: %v %v", err, resp.Diagnostics)
	}
	return &rpcServer{srv: srv, schemas: schemas}
}

func hasRPCError(ds []*tfprotov6.Diagnostic) bool {
	for _, d := range ds {
		if d.Severity == tfprotov6.DiagnosticSeverityError {
			return true
		}
	}
	return false
}

// dataConfig is the configuration of data source name built from v.
func (r *rpcServer) dataConfig(tb testing.TB, name string, v map[string]any) *tfprotov6.DynamicValue {
	tb.Helper()
	t := r.schemas.DataSourceSchemas[name].ValueType()
	dv, err := tfprotov6.NewDynamicValue(t, rpcValue(t, v))
	if err != nil {
		tb.Fatal(err)
	}
	return &dv
}

// sizingConfig is a kubefit_node_pool_sizing of 5 pools and n workloads of 10 replicas, the shape of the edge
// measurements in issue 21.
func sizingConfig(n int) map[string]any {
	pools := map[string]any{}
	for i, t := range []string{"m5.xlarge", "m5.2xlarge", "c5.2xlarge", "r5.xlarge", "m6i.4xlarge"} {
		pools[fmt.Sprintf("p%d", i)] = map[string]any{"cloud": "aws", "instance_type": t, "max_nodes": 2000}
	}
	var ws []any
	for i := range n {
		ws = append(ws, map[string]any{"name": fmt.Sprintf("w%d", i), "replicas": 10,
			"requests": map[string]any{"cpu": fmt.Sprintf("%dm", 50+i%200), "memory": fmt.Sprintf("%dMi", 64+i%512)},
			"pools":    []any{fmt.Sprintf("p%d", i%5)}})
	}
	return map[string]any{"pools": pools, "workloads": ws, "fail_on_misfit": false}
}

// BenchmarkSizingValidateRPC is one ValidateDataResourceConfig of kubefit_node_pool_sizing, which Terraform
// sends twice per plan (issue 21's target: under 100 ms for 1,000 workloads).
func BenchmarkSizingValidateRPC(b *testing.B) {
	for _, n := range []int{100, 1000} {
		b.Run(fmt.Sprintf("workloads=%d", n), func(b *testing.B) {
			r := newRPCServer(b)
			cfg := r.dataConfig(b, "kubefit_node_pool_sizing", sizingConfig(n))
			ctx := context.Background()
			for b.Loop() {
				resp, err := r.srv.ValidateDataResourceConfig(ctx, &tfprotov6.ValidateDataResourceConfigRequest{TypeName: "kubefit_node_pool_sizing", Config: cfg})
				if err != nil || hasRPCError(resp.Diagnostics) {
					b.Fatalf("%v %v", err, resp.Diagnostics)
				}
			}
		})
	}
}

// BenchmarkSizingReadRPC is one ReadDataSource of kubefit_node_pool_sizing, planning included.
func BenchmarkSizingReadRPC(b *testing.B) {
	for _, n := range []int{100, 1000} {
		b.Run(fmt.Sprintf("workloads=%d", n), func(b *testing.B) {
			r := newRPCServer(b)
			cfg := r.dataConfig(b, "kubefit_node_pool_sizing", sizingConfig(n))
			ctx := context.Background()
			for b.Loop() {
				resp, err := r.srv.ReadDataSource(ctx, &tfprotov6.ReadDataSourceRequest{TypeName: "kubefit_node_pool_sizing", Config: cfg})
				if err != nil || hasRPCError(resp.Diagnostics) {
					b.Fatalf("%v %v", err, resp.Diagnostics)
				}
			}
		})
	}
}
