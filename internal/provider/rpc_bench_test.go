package provider

import (
	"context"
	"fmt"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/sizing"
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
			s := r.srv.(*server)
			cfg := r.dataConfig(b, "kubefit_node_pool_sizing", sizingConfig(n))
			ctx := context.Background()
			for b.Loop() {
				s.recent = decodedConfigs{} // each validation decodes, as the first of a plan does
				resp, err := r.srv.ValidateDataResourceConfig(ctx, &tfprotov6.ValidateDataResourceConfigRequest{TypeName: "kubefit_node_pool_sizing", Config: cfg})
				if err != nil || hasRPCError(resp.Diagnostics) {
					b.Fatalf("%v %v", err, resp.Diagnostics)
				}
			}
		})
	}
}

// BenchmarkSizingReadRPC is one ReadDataSource of kubefit_node_pool_sizing, planning included; edge-ms/op is
// the part outside the planner's Solve (issue 21's target: the edge under 100 ms for 1,000 workloads). As in a
// plan, the read follows a ValidateDataResourceConfig of the same configuration (Terraform validates a data
// source again right before it reads it), which is not timed; cold is the read with nothing decoded before.
func BenchmarkSizingReadRPC(b *testing.B) {
	for _, n := range []int{100, 1000} {
		for _, validated := range []bool{true, false} {
			name := fmt.Sprintf("workloads=%d/after-validate", n)
			if !validated {
				name = fmt.Sprintf("workloads=%d/cold", n)
			}
			b.Run(name, func(b *testing.B) { benchSizingRead(b, sizingConfig(n), validated) })
		}
	}
}

// BenchmarkSizingReadEdge is BenchmarkSizingReadRPC's read after validation with the planner's answer computed
// once and handed back to every read: ns/op is the edge alone, without the planner's time or the garbage it
// leaves for the collector (issue 21's target: under 100 ms for 1,000 workloads).
func BenchmarkSizingReadEdge(b *testing.B) {
	for _, n := range []int{100, 1000} {
		b.Run(fmt.Sprintf("workloads=%d", n), func(b *testing.B) {
			var plan *sizing.Plan
			solve := solveSizing
			solveSizing = func(p *sizing.Planner, ctx context.Context, r sizing.Request) (*sizing.Plan, error) {
				if plan == nil {
					var err error
					if plan, err = solve(p, ctx, r); err != nil {
						return nil, err
					}
				}
				return plan, nil
			}
			defer func() { solveSizing = solve }()
			benchSizingRead(b, sizingConfig(n), true)
		})
	}
}

// BenchmarkSizingReadPods is the read of one workload of 1 and of 10,000 replicas on one m5.xlarge pool
// (issue 21: a plan of 10,000 pods costs at most 1.5× a plan of one, edge-ms/op outside the planner), after
// the validation Terraform sends before it.
func BenchmarkSizingReadPods(b *testing.B) {
	for _, pods := range []int{1, 10_000} {
		b.Run(fmt.Sprintf("pods=%d", pods), func(b *testing.B) {
			benchSizingRead(b, map[string]any{
				"pools": map[string]any{"p": map[string]any{"cloud": "aws", "instance_type": "m5.xlarge", "max_nodes": 3000}},
				"workloads": []any{map[string]any{"name": "web", "replicas": pods,
					"requests": map[string]any{"cpu": "250m", "memory": "512Mi"}}}}, true)
		})
	}
}

// benchSizingRead reads the sizing configuration cfg once per iteration, after an untimed validation of it
// when validated (else with no configuration decoded before), reporting the edge's wall time per read
// (everything but the planner's Solve) as edge-ms/op.
func benchSizingRead(b *testing.B, cfg map[string]any, validated bool) {
	var planner time.Duration
	solve := solveSizing
	solveSizing = func(p *sizing.Planner, ctx context.Context, r sizing.Request) (*sizing.Plan, error) {
		start := time.Now()
		defer func() { planner += time.Since(start) }()
		return solve(p, ctx, r)
	}
	defer func() { solveSizing = solve }()
	r := newRPCServer(b)
	s := r.srv.(*server)
	dv := r.dataConfig(b, "kubefit_node_pool_sizing", cfg)
	ctx := context.Background()
	var reads time.Duration
	planner = 0
	for b.Loop() {
		b.StopTimer()
		s.recent = decodedConfigs{}
		if validated {
			if resp, err := r.srv.ValidateDataResourceConfig(ctx, &tfprotov6.ValidateDataResourceConfigRequest{TypeName: "kubefit_node_pool_sizing", Config: dv}); err != nil || hasRPCError(resp.Diagnostics) {
				b.Fatalf("%v %v", err, resp.Diagnostics)
			}
		}
		b.StartTimer()
		start := time.Now()
		resp, err := r.srv.ReadDataSource(ctx, &tfprotov6.ReadDataSourceRequest{TypeName: "kubefit_node_pool_sizing", Config: dv})
		reads += time.Since(start)
		if err != nil || hasRPCError(resp.Diagnostics) {
			b.Fatalf("%v %v", err, resp.Diagnostics)
		}
	}
	b.ReportMetric(float64(reads-planner)/float64(b.N)/1e6, "edge-ms/op")
}

// capacityConfig is a kubefit_capacity_check of n ScaledObject summaries and no node group (one of issue 21's
// hangs at 10,000).
func capacityConfig(n int) map[string]any {
	var sos []any
	for i := range n {
		name := fmt.Sprintf("so%d", i)
		sos = append(sos, map[string]any{"namespace": "shop", "name": name, "hpa_name": "keda-hpa-" + name, "target_name": name,
			"peak_replicas": 10, "pod_requests": map[string]any{"cpu_millicores": 100, "memory_bytes": 1 << 20}})
	}
	return map[string]any{"scaled_objects": sos}
}

// TestInputTooLarge: a list beyond MaxListEntries is refused by every RPC that reads the configuration, on the
// list's attribute and naming the bound, before the framework decodes it; at the bound it is read.
func TestInputTooLarge(t *testing.T) {
	r := newRPCServer(t)
	ctx := context.Background()
	cfg := r.dataConfig(t, "kubefit_node_pool_sizing", sizingConfig(MaxListEntries+1))
	vresp, err := r.srv.ValidateDataResourceConfig(ctx, &tfprotov6.ValidateDataResourceConfigRequest{TypeName: "kubefit_node_pool_sizing", Config: cfg})
	if err != nil || len(vresp.Diagnostics) != 1 || vresp.Diagnostics[0].Summary != "Input Too Large" ||
		!vresp.Diagnostics[0].Attribute.Equal(tftypes.NewAttributePath().WithAttributeName("workloads")) ||
		!strings.Contains(vresp.Diagnostics[0].Detail, "workloads holds 2,001 entries; kubefit takes at most 2,000") {
		t.Fatalf("validate: %v %+v", err, vresp.Diagnostics)
	}
	rresp, _ := r.srv.ReadDataSource(ctx, &tfprotov6.ReadDataSourceRequest{TypeName: "kubefit_node_pool_sizing", Config: cfg})
	if len(rresp.Diagnostics) != 1 || rresp.Diagnostics[0].Summary != "Input Too Large" {
		t.Fatalf("read: %+v", rresp.Diagnostics)
	}
	typ := r.schemas.ResourceSchemas["kubefit_capacity_check"].ValueType()
	big, _ := tfprotov6.NewDynamicValue(typ, rpcValue(typ, capacityConfig(MaxListEntries+1)))
	null, _ := tfprotov6.NewDynamicValue(typ, tftypes.NewValue(typ, nil))
	presp, _ := r.srv.PlanResourceChange(ctx, &tfprotov6.PlanResourceChangeRequest{TypeName: "kubefit_capacity_check", Config: &big, ProposedNewState: &big, PriorState: &null})
	if len(presp.Diagnostics) != 1 || !presp.Diagnostics[0].Attribute.Equal(tftypes.NewAttributePath().WithAttributeName("scaled_objects")) {
		t.Fatalf("plan: %+v", presp.Diagnostics)
	}
	ok := r.dataConfig(t, "kubefit_node_pool_sizing", sizingConfig(20))
	if vresp, _ := r.srv.ValidateDataResourceConfig(ctx, &tfprotov6.ValidateDataResourceConfigRequest{TypeName: "kubefit_node_pool_sizing", Config: ok}); hasRPCError(vresp.Diagnostics) {
		t.Fatalf("a small configuration: %+v", vresp.Diagnostics)
	}
}

// BenchmarkRefuseTooLarge is the refusal of a capacity check of 10,000 summaries (issue 21: under 2 s; it took
// 21 s of plan before the bound).
func BenchmarkRefuseTooLarge(b *testing.B) {
	r := newRPCServer(b)
	typ := r.schemas.ResourceSchemas["kubefit_capacity_check"].ValueType()
	big, _ := tfprotov6.NewDynamicValue(typ, rpcValue(typ, capacityConfig(10_000)))
	ctx := context.Background()
	for b.Loop() {
		resp, _ := r.srv.ValidateResourceConfig(ctx, &tfprotov6.ValidateResourceConfigRequest{TypeName: "kubefit_capacity_check", Config: &big})
		if len(resp.Diagnostics) != 1 {
			b.Fatal(resp.Diagnostics)
		}
	}
}

// BenchmarkCapacityCheckPlanRPC is the plan of a capacity check at the bound: MaxListEntries summaries.
func BenchmarkCapacityCheckPlanRPC(b *testing.B) {
	r := newRPCServer(b)
	typ := r.schemas.ResourceSchemas["kubefit_capacity_check"].ValueType()
	cfg, _ := tfprotov6.NewDynamicValue(typ, rpcValue(typ, capacityConfig(MaxListEntries)))
	null, _ := tfprotov6.NewDynamicValue(typ, tftypes.NewValue(typ, nil))
	ctx := context.Background()
	for b.Loop() {
		resp, _ := r.srv.PlanResourceChange(ctx, &tfprotov6.PlanResourceChangeRequest{TypeName: "kubefit_capacity_check", Config: &cfg, ProposedNewState: &cfg, PriorState: &null})
		if hasRPCError(resp.Diagnostics) {
			b.Fatal(resp.Diagnostics)
		}
	}
}

// badWorkloadsConfig is sizingConfig(n) with every workload wrong in several ways: its replica bounds, both
// requests, a resource name that is not one (cpus), its CPU use.
func badWorkloadsConfig(n int) map[string]any {
	cfg := sizingConfig(n)
	ws := make([]any, 0, n)
	for i := range n {
		ws = append(ws, map[string]any{"name": fmt.Sprintf("w%d", i), "min_replicas": 5, "max_replicas": 2, "cpu_usage": "x",
			"requests": map[string]any{"cpu": "2 cores", "memory": "lots", "cpus": "1"}, "pools": []any{"p0"}})
	}
	cfg["workloads"] = ws
	return cfg
}

// BenchmarkSizingValidateManyErrors is one ValidateDataResourceConfig of kubefit_node_pool_sizing at the list
// bound, every workload wrong in several ways: 8,000 diagnostics, each workload's as many as one bad workload
// alone gets (issue 21: no refusal above 2 s; 4 s when each diagnostic was compared with every earlier one, as
// diag.Diagnostics.Append does).
func BenchmarkSizingValidateManyErrors(b *testing.B) {
	r := newRPCServer(b)
	s := r.srv.(*server)
	ctx := context.Background()
	validate := func(n int) int {
		s.recent = decodedConfigs{}
		resp, err := r.srv.ValidateDataResourceConfig(ctx, &tfprotov6.ValidateDataResourceConfigRequest{TypeName: "kubefit_node_pool_sizing",
			Config: r.dataConfig(b, "kubefit_node_pool_sizing", badWorkloadsConfig(n))})
		if err != nil {
			b.Fatal(err)
		}
		return len(resp.Diagnostics)
	}
	one := validate(1)
	cfg := r.dataConfig(b, "kubefit_node_pool_sizing", badWorkloadsConfig(MaxListEntries))
	for b.Loop() {
		s.recent = decodedConfigs{}
		resp, err := r.srv.ValidateDataResourceConfig(ctx, &tfprotov6.ValidateDataResourceConfigRequest{TypeName: "kubefit_node_pool_sizing", Config: cfg})
		if err != nil || one < 2 || len(resp.Diagnostics) != one*MaxListEntries {
			b.Fatalf("%v: %d diagnostics, want %d × %d", err, len(resp.Diagnostics), one, MaxListEntries)
		}
	}
}

// nodeGroupConfig is a kubefit_node_group of m5.large for n workloads of 2 replicas.
func nodeGroupConfig(n int) map[string]any {
	ws := make([]any, 0, n)
	for i := range n {
		ws = append(ws, map[string]any{"name": fmt.Sprintf("w%d", i), "replicas": 2, "requests": map[string]any{"cpu": "100m", "memory": "100Mi"}})
	}
	return map[string]any{"name": "g", "cloud": "aws", "instance_types": []any{"m5.large"}, "workloads": ws}
}

// BenchmarkNodeGroupPlanRPC is the PlanResourceChange of a kubefit_node_group of n workloads (issue 21: no plan
// above 10 s up to the list bound), planned by kubefit's server (resource_server.go). Through the framework's
// server it took 23 s at 2,000 workloads: its schema plan modification set every root attribute back into the
// whole plan (fwserver.SchemaModifyPlan → SetAtPath, each a tftypes.Transform of every value).
func BenchmarkNodeGroupPlanRPC(b *testing.B) {
	for _, n := range []int{100, 500, MaxListEntries} {
		b.Run(fmt.Sprintf("workloads=%d", n), func(b *testing.B) {
			r := newRPCServer(b)
			typ := r.schemas.ResourceSchemas["kubefit_node_group"].ValueType()
			cfg, err := tfprotov6.NewDynamicValue(typ, rpcValue(typ, nodeGroupConfig(n)))
			if err != nil {
				b.Fatal(err)
			}
			null, _ := tfprotov6.NewDynamicValue(typ, tftypes.NewValue(typ, nil))
			ctx := context.Background()
			for b.Loop() {
				resp, _ := r.srv.PlanResourceChange(ctx, &tfprotov6.PlanResourceChangeRequest{TypeName: "kubefit_node_group", Config: &cfg, ProposedNewState: &cfg, PriorState: &null})
				if hasRPCError(resp.Diagnostics) {
					b.Fatal(resp.Diagnostics)
				}
			}
		})
	}
}
