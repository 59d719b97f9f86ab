package provider

import (
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// plannedResourceConfigs are valid configurations of the resources this server plans (resource_server.go),
// each with a changed one for an update.
func plannedResourceConfigs() map[string][2]map[string]any {
	workloads := func(n int) []any {
		var ws []any
		for i := range n {
			w := map[string]any{"name": fmt.Sprintf("w%d", i), "replicas": 2 + i%3, "requests": map[string]any{"cpu": "250m", "memory": "256Mi"}}
			if i%2 == 1 {
				w["spread"] = map[string]any{"type": "zone"}
			}
			ws = append(ws, w)
		}
		return ws
	}
	group := func(n int, maxSize any) map[string]any {
		return map[string]any{"name": "general", "cloud": "aws", "instance_types": []any{"m5.large"}, "zones": []any{"us-east-1a", "us-east-1b", "us-east-1c"},
			"workloads": workloads(n), "max_size": maxSize}
	}
	aks := map[string]any{"name": "user", "cloud": "azure", "instance_types": []any{"Standard_D4s_v5"}, "zones": []any{"1", "2", "3"}, "workloads": workloads(3)}
	hpa := func(maxReplicas int) map[string]any {
		return map[string]any{"name": "web", "namespace": "shop", "max_replicas": maxReplicas, "min_replicas": 2,
			"scale_target_ref": map[string]any{"api_version": "apps/v1", "kind": "Deployment", "name": "web"},
			"metrics": []any{map[string]any{"type": "Resource", "resource": map[string]any{"name": "cpu",
				"target": map[string]any{"type": "Utilization", "average_utilization": 70}}}}}
	}
	so := func(maxReplicas int) map[string]any {
		return map[string]any{"name": "api", "namespace": "shop", "scale_target_ref": map[string]any{"name": "api"},
			"min_replica_count": 1, "max_replica_count": maxReplicas,
			"triggers": []any{map[string]any{"type": "prometheus", "metadata": map[string]any{
				"serverAddress": "http://prometheus:9090", "threshold": "100", "query": "sum(rate(http_requests_total[1m]))"}}}}
	}
	return map[string][2]map[string]any{
		"kubefit_node_group":                {group(4, nil), group(6, 20)},
		"kubefit_node_group/azure":          {aks, group(2, 5)},
		"kubefit_horizontal_pod_autoscaler": {hpa(10), hpa(14)},
		"kubefit_keda_scaled_object":        {so(5), so(9)},
		"kubefit_capacity_check":            {capacityCheck(3), capacityCheck(5)},
	}
}

// capacityCheck is capacityConfig(n) with a node group holding the summaries and the DNS budget checked.
func capacityCheck(n int) map[string]any {
	c := capacityConfig(n)
	c["node_groups"] = []any{map[string]any{"name": "general", "max_nodes": 10, "zones": []any{"a", "b"},
		"workload_allocatable": map[string]any{"cpu_millicores": 3920, "memory_bytes": 14 << 30}, "workload_pods": 58}}
	c["node_group_of"] = map[string]any{"shop/so0": "general", "shop/so1": "general"}
	c["dns"] = map[string]any{"provider": "aws-vpc"}
	return c
}

// TestFastResourcePlan: the resources this server plans itself (resource_server.go) are planned exactly as the
// framework's server plans them: created, with unknown values in the configuration, updated with and without a
// changed configuration, and destroyed. The planned states, diagnostics (as sets), replacements, private state
// and deferrals are compared.
func TestFastResourcePlan(t *testing.T) {
	ctx := context.Background()
	fast, framework := newRPCServer(t), newRPCServer(t)
	framework.srv.(*server).frameworkOnly = true
	s := fast.srv.(*server)
	s.configTypes(ctx)
	configs := plannedResourceConfigs()
	for name, e := range s.resources {
		if _, ok := configs[name]; !ok && e.fast {
			t.Errorf("%s is planned by the fast path but has no configurations in plannedResourceConfigs", name)
		}
	}
	for key, cfgs := range configs {
		name, _, _ := strings.Cut(key, "/")
		t.Run(key, func(t *testing.T) {
			if !s.resources[name].fast {
				t.Fatalf("%s is not planned by the fast path (plannable)", name)
			}
			typ := fast.schemas.ResourceSchemas[name].ValueType()
			dyn := func(v tftypes.Value) *tfprotov6.DynamicValue {
				dv, err := tfprotov6.NewDynamicValue(typ, v)
				if err != nil {
					t.Fatal(err)
				}
				return &dv
			}
			null := tftypes.NewValue(typ, nil)
			plan := func(step string, cfg, proposed, prior tftypes.Value) *tfprotov6.PlanResourceChangeResponse {
				req := &tfprotov6.PlanResourceChangeRequest{TypeName: name, Config: dyn(cfg), ProposedNewState: dyn(proposed), PriorState: dyn(prior),
					ClientCapabilities: &tfprotov6.PlanResourceChangeClientCapabilities{DeferralAllowed: true}}
				pf, err1 := fast.srv.PlanResourceChange(ctx, req)
				pw, err2 := framework.srv.PlanResourceChange(ctx, req)
				if err1 != nil || err2 != nil {
					t.Fatalf("%s: %v %v", step, err1, err2)
				}
				if a, b := diagSet(pf.Diagnostics), diagSet(pw.Diagnostics); !slices.Equal(a, b) {
					t.Fatalf("%s: diagnostics differ\nfast:      %q\nframework: %q", step, a, b)
				}
				sf, err1 := pf.PlannedState.Unmarshal(typ)
				sw, err2 := pw.PlannedState.Unmarshal(typ)
				if err1 != nil || err2 != nil || !sf.Equal(sw) {
					t.Fatalf("%s: planned states differ (%v %v)\nfast:      %v\nframework: %v", step, err1, err2, sf, sw)
				}
				if fmt.Sprint(pf.RequiresReplace) != fmt.Sprint(pw.RequiresReplace) || string(pf.PlannedPrivate) != string(pw.PlannedPrivate) ||
					fmt.Sprint(pf.Deferred) != fmt.Sprint(pw.Deferred) {
					t.Fatalf("%s: replace %v/%v, private %q/%q, deferred %v/%v", step, pf.RequiresReplace, pw.RequiresReplace,
						pf.PlannedPrivate, pw.PlannedPrivate, pf.Deferred, pw.Deferred)
				}
				return pw
			}
			cfg := rpcValue(typ, cfgs[0])
			created := plan("create", cfg, cfg, null)
			if hasRPCError(created.Diagnostics) {
				t.Fatalf("the configuration does not plan: %v", diagSet(created.Diagnostics))
			}
			// Unknown values: each top-level attribute of the configuration in turn.
			var attrs map[string]tftypes.Value
			if err := cfg.As(&attrs); err != nil {
				t.Fatal(err)
			}
			unknowns := 0
			for _, a := range slices.Sorted(maps.Keys(attrs)) {
				if attrs[a].IsNull() {
					continue
				}
				with := maps.Clone(attrs)
				with[a] = tftypes.NewValue(attrs[a].Type(), tftypes.UnknownValue)
				u := tftypes.NewValue(cfg.Type(), with)
				plan("unknown "+a, u, u, null)
				unknowns++
			}
			if unknowns < 3 {
				t.Errorf("only %d attributes made unknown", unknowns)
			}
			// Apply, then plan the same configuration (the proposal is the state) and a changed one.
			ar, err := framework.srv.ApplyResourceChange(ctx, &tfprotov6.ApplyResourceChangeRequest{TypeName: name, Config: dyn(cfg),
				PlannedState: created.PlannedState, PriorState: dyn(null)})
			if err != nil || hasRPCError(ar.Diagnostics) {
				t.Fatalf("apply: %v %v", err, ar.Diagnostics)
			}
			state, err := ar.NewState.Unmarshal(typ)
			if err != nil {
				t.Fatal(err)
			}
			plan("update, same configuration", cfg, state, state)
			changed := rpcValue(typ, cfgs[1])
			plan("update, changed configuration", changed, overlay(changed, state), state)
			plan("destroy", null, null, state)
		})
	}
}

// overlay is a proposed new state as Terraform makes one for a changed configuration, at the top level: the
// configured values, and the prior state's where the configuration has none.
func overlay(cfg, prior tftypes.Value) tftypes.Value {
	var c, p map[string]tftypes.Value
	if cfg.As(&c) != nil || prior.As(&p) != nil {
		return cfg
	}
	out := maps.Clone(c)
	for k, v := range c {
		if v.IsNull() {
			out[k] = p[k]
		}
	}
	return tftypes.NewValue(cfg.Type(), out)
}

// TestFastResourceValidation: the resources this server validates itself (validateResource) are validated
// exactly as the framework's server validates them: for each, its configuration and 150 variations of it
// (attributes dropped, set to other values of a pool that holds every value the schema's validators name,
// unknown, or set on read-only attributes) give the same diagnostics (as sets) from both servers.
func TestFastResourceValidation(t *testing.T) {
	ctx := context.Background()
	fast, framework := newRPCServer(t), newRPCServer(t)
	framework.srv.(*server).frameworkOnly = true
	s := fast.srv.(*server)
	s.configTypes(ctx)
	for key, cfgs := range plannedResourceConfigs() {
		name, _, _ := strings.Cut(key, "/")
		t.Run(key, func(t *testing.T) {
			e := s.resources[name]
			if !e.validated {
				t.Fatalf("%s is not validated by the fast path (schemaValidatable)", name)
			}
			typ := fast.schemas.ResourceSchemas[name].ValueType()
			g := &configGen{r: rand.New(rand.NewPCG(uint64(len(key)), 11)), pool: schemaStrings(ctx, e.validation)}
			valid, invalid := 0, 0
			for i := range 151 {
				v := rpcValue(typ, cfgs[i%2])
				if i > 1 {
					v = g.vary(e.validation.Attributes, v, i%3 == 0)
				}
				dv, err := tfprotov6.NewDynamicValue(typ, v)
				if err != nil {
					t.Fatal(err)
				}
				req := &tfprotov6.ValidateResourceConfigRequest{TypeName: name, Config: &dv}
				vf, err1 := fast.srv.ValidateResourceConfig(ctx, req)
				vw, err2 := framework.srv.ValidateResourceConfig(ctx, req)
				if err1 != nil || err2 != nil {
					t.Fatal(err1, err2)
				}
				if a, b := diagSet(vf.Diagnostics), diagSet(vw.Diagnostics); !slices.Equal(a, b) {
					t.Fatalf("configuration %d (%v): validation differs\nfast:      %q\nframework: %q", i, v, a, b)
				}
				if hasRPCError(vf.Diagnostics) {
					if i < 2 {
						t.Fatalf("the unvaried configuration %d is invalid: %q", i, diagSet(vf.Diagnostics))
					}
					invalid++
				} else {
					valid++
				}
			}
			// The two unvaried configurations are valid (checked above; TestFastResourcePlan plans them); most
			// variations are not (the variations draw attributes in map order, so how many stay valid varies from run
			// to run).
			if invalid < 50 {
				t.Errorf("%d valid and %d invalid configurations: the variations should give plenty of invalid ones", valid, invalid)
			}
			t.Logf("%d valid, %d invalid", valid, invalid)
		})
	}
}
