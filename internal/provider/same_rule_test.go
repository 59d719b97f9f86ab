package provider

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// objectRun is one object that takes workloads or DaemonSets, driven through the RPCs of a plan: validate,
// then read (a data source) or plan (a resource).
type objectRun struct {
	name     string
	resource bool
	// config is the object's configuration around the given workloads and DaemonSets.
	config func(workloads, daemonsets []any) map[string]any
	// at is the attribute path of element i of the workloads ("workloads") or DaemonSets ("daemonsets") list.
	at string
}

// diagnose returns the error diagnostics of a plan of the object.
func (r *rpcServer) diagnose(t *testing.T, o objectRun, v map[string]any) []*tfprotov6.Diagnostic {
	t.Helper()
	ctx := context.Background()
	var errs []*tfprotov6.Diagnostic
	keep := func(ds []*tfprotov6.Diagnostic) {
		for _, d := range ds {
			if d.Severity == tfprotov6.DiagnosticSeverityError {
				errs = append(errs, d)
			}
		}
	}
	if o.resource {
		ty := r.schemas.ResourceSchemas[o.name].ValueType()
		cfg, err := tfprotov6.NewDynamicValue(ty, rpcValue(ty, v))
		if err != nil {
			t.Fatal(err)
		}
		vr, _ := r.srv.ValidateResourceConfig(ctx, &tfprotov6.ValidateResourceConfigRequest{TypeName: o.name, Config: &cfg})
		keep(vr.Diagnostics)
		if len(errs) > 0 {
			return errs
		}
		null, _ := tfprotov6.NewDynamicValue(ty, tftypes.NewValue(ty, nil))
		pr, _ := r.srv.PlanResourceChange(ctx, &tfprotov6.PlanResourceChangeRequest{TypeName: o.name, Config: &cfg, ProposedNewState: &cfg, PriorState: &null})
		keep(pr.Diagnostics)
		return errs
	}
	cfg := r.dataConfig(t, o.name, v)
	vr, _ := r.srv.ValidateDataResourceConfig(ctx, &tfprotov6.ValidateDataResourceConfigRequest{TypeName: o.name, Config: cfg})
	keep(vr.Diagnostics)
	if len(errs) > 0 {
		return errs
	}
	rr, _ := r.srv.ReadDataSource(ctx, &tfprotov6.ReadDataSourceRequest{TypeName: o.name, Config: cfg})
	keep(rr.Diagnostics)
	return errs
}

// relative renders a diagnostic's attribute path after the list element prefix (".min_replicas"), or the
// whole path when it lies elsewhere.
func relative(d *tfprotov6.Diagnostic, prefix string) string {
	if d.Attribute == nil {
		return "(no attribute)"
	}
	var b strings.Builder
	for _, s := range d.Attribute.Steps() {
		switch s := s.(type) {
		case tftypes.AttributeName:
			b.WriteString("." + string(s))
		case tftypes.ElementKeyInt:
			fmt.Fprintf(&b, "[%d]", int64(s))
		case tftypes.ElementKeyString:
			fmt.Fprintf(&b, "[%q]", string(s))
		}
	}
	p := b.String()
	if rest, ok := strings.CutPrefix(p, "."+prefix+"[0]"); ok {
		return "<element>" + rest
	}
	return p
}

var okSizingWorkload = map[string]any{"name": "ok", "replicas": 1, "requests": map[string]any{"cpu": "100m"}}

// workloadObjects are the objects that take workloads and DaemonSets in the same shape, each with one pool
// named "g".
var workloadObjects = []objectRun{
	{name: "kubefit_node_pool_sizing", config: func(ws, ds []any) map[string]any {
		return map[string]any{"pools": map[string]any{"g": map[string]any{"cloud": "aws", "instance_type": "m5.large", "max_nodes": 10}},
			"workloads": ws, "daemonsets": ds}
	}},
	{name: "kubefit_node_pool_recommendation", config: func(ws, ds []any) map[string]any {
		return map[string]any{"cloud": "aws", "candidates": []any{"m5.large"}, "pool": map[string]any{"max_nodes": 10}, "pool_name": "g",
			"workloads": ws, "daemonsets": ds}
	}},
	{name: "kubefit_node_group", resource: true, config: func(ws, ds []any) map[string]any {
		return map[string]any{"name": "g", "cloud": "aws", "instance_type": "m5.large", "workloads": ws, "daemonsets": ds}
	}},
}

// TestSameInputSameError is issue 21's class 5: the same bad workload or DaemonSet, given to every object
// that takes it, gives one error with the same summary, the same attribute (inside the element) and the
// same detail.
func TestSameInputSameError(t *testing.T) {
	r := newRPCServer(t)
	workloads := []struct {
		name string
		w    map[string]any
	}{
		{"min above max", map[string]any{"name": "w", "min_replicas": 5, "max_replicas": 2, "requests": map[string]any{"cpu": "100m"}}},
		{"replicas and a range", map[string]any{"name": "w", "replicas": 3, "min_replicas": 1, "max_replicas": 4, "requests": map[string]any{"cpu": "100m"}}},
		{"no replica count", map[string]any{"name": "w", "requests": map[string]any{"cpu": "100m"}}},
		{"empty name", map[string]any{"name": "", "replicas": 1, "requests": map[string]any{"cpu": "100m"}}},
		{"bad quantity", map[string]any{"name": "w", "replicas": 1, "requests": map[string]any{"cpu": "lots"}}},
		{"bad surge", map[string]any{"name": "w", "min_replicas": 1, "max_replicas": 2, "max_surge": "25 %", "requests": map[string]any{"cpu": "100m"}}},
		{"undefined pool", map[string]any{"name": "w", "replicas": 1, "pools": []any{"nope"}, "requests": map[string]any{"cpu": "100m"}}},
	}
	daemonsets := []struct {
		name string
		d    map[string]any
	}{
		{"empty name", map[string]any{"name": "", "requests": map[string]any{"cpu": "10m"}}},
		{"bad quantity", map[string]any{"name": "d", "requests": map[string]any{"memory": "abc"}}},
		{"cpu beside requests", map[string]any{"name": "d", "cpu": "10m"}},
	}
	compare := func(t *testing.T, prefix string, build func(o objectRun) map[string]any, objects []objectRun) {
		t.Helper()
		var first string
		for _, o := range objects {
			errs := r.diagnose(t, o, build(o))
			var got []string
			for _, d := range errs {
				got = append(got, fmt.Sprintf("%s | %s | %s", d.Summary, relative(d, prefix), d.Detail))
			}
			line := strings.Join(got, "\n")
			if len(errs) != 1 {
				t.Errorf("%s: want one error, got %d:\n%s", o.name, len(errs), line)
				continue
			}
			if first == "" {
				first = line
			} else if line != first {
				t.Errorf("%s differs:\n got  %s\n want %s (%s)", o.name, line, first, objects[0].name)
			}
		}
	}
	for _, c := range workloads {
		t.Run("workload "+c.name, func(t *testing.T) {
			objects := workloadObjects
			if _, ok := c.w["pools"]; ok {
				// A node group is one pool and refuses a workload's pools whatever they name
				// (TestAccNodeGroup_badInputs); the objects of several pools share the rule.
				objects = slices.DeleteFunc(slices.Clone(objects), func(o objectRun) bool { return o.name == "kubefit_node_group" })
			}
			compare(t, "workloads", func(o objectRun) map[string]any { return o.config([]any{c.w}, nil) }, objects)
		})
	}
	overhead := objectRun{name: "kubefit_node_overhead", config: func(_, ds []any) map[string]any {
		return map[string]any{"cloud": "aws", "instance_type": "m5.large", "daemonsets": ds}
	}}
	for _, c := range daemonsets {
		t.Run("daemonset "+c.name, func(t *testing.T) {
			compare(t, "daemonsets", func(o objectRun) map[string]any {
				return o.config([]any{okSizingWorkload}, []any{c.d})
			}, append(append([]objectRun(nil), workloadObjects...), overhead))
		})
	}
}

// TestSamePoolSameError is issue 21's class 5 for pools: the same bad pool option, in a sizing pool, a
// recommendation's pool template or a node group (whose pool options are its own attributes), gives the
// same error.
func TestSamePoolSameError(t *testing.T) {
	r := newRPCServer(t)
	ws := []any{okSizingWorkload}
	type poolObject struct {
		objectRun
		prefix string // the pool's attribute path, stripped before comparing
	}
	objects := []poolObject{
		{objectRun{name: "kubefit_node_pool_sizing", config: func(extra, _ []any) map[string]any {
			p := map[string]any{"cloud": "aws", "instance_type": "m5.large", "max_nodes": 10}
			for k, v := range extra[0].(map[string]any) {
				p[k] = v
			}
			return map[string]any{"pools": map[string]any{"g": p}, "workloads": ws}
		}}, `.pools["g"]`},
		{objectRun{name: "kubefit_node_pool_recommendation", config: func(extra, _ []any) map[string]any {
			p := map[string]any{"max_nodes": 10}
			for k, v := range extra[0].(map[string]any) {
				p[k] = v
			}
			return map[string]any{"cloud": "aws", "candidates": []any{"m5.large"}, "pool": p, "pool_name": "g", "workloads": ws}
		}}, ".pool"},
		{objectRun{name: "kubefit_node_group", resource: true, config: func(extra, _ []any) map[string]any {
			g := map[string]any{"name": "g", "cloud": "aws", "instance_type": "m5.large", "workloads": ws}
			for k, v := range extra[0].(map[string]any) {
				g[k] = v
			}
			return g
		}}, ""},
	}
	for _, c := range []struct {
		name string
		opts map[string]any
	}{
		{"VM overhead of 150 %", map[string]any{"vm_memory_overhead_percent": 150.0}},
		{"max pods beyond the platform's", map[string]any{"max_pods": 100000}},
		{"a word as kube-reserved CPU", map[string]any{"kube_reserved": map[string]any{"cpu": "lots"}}},
		{"a taint without an effect's name", map[string]any{"taints": []any{map[string]any{"key": "k", "effect": "Never"}}}},
		{"EKS settings on an Azure profile", map[string]any{"profile": "aks-linux"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var first string
			for _, o := range objects {
				errs := r.diagnose(t, o.objectRun, o.config([]any{c.opts}, nil))
				var got []string
				for _, d := range errs {
					p := relative(d, "")
					p = "<pool>" + strings.TrimPrefix(p, o.prefix)
					detail := poolDetail(d.Detail, strings.TrimPrefix(o.prefix, "."), strings.TrimPrefix(p, "<pool>."))
					// Terraform is shown the pool object itself (sourcePath), a node group's own attribute;
					// the detail names the attribute within the pool.
					if (o.prefix == "") == (p == "<pool>") {
						t.Errorf("%s: error shown on %s, want the pool (a nested object) or the node group's own attribute", o.name, p)
					}
					if p == "<pool>" {
						detail = pathPrefix.ReplaceAllString(detail, "")
					}
					got = append(got, fmt.Sprintf("%s | %s", d.Summary, detail))
				}
				line := strings.Join(got, "\n")
				if len(errs) != 1 {
					t.Errorf("%s: want one error, got %d:\n%s", o.name, len(errs), line)
					continue
				}
				if first == "" {
					first = line
				} else if line != first {
					t.Errorf("%s differs:\n got  %s\n want %s (%s)", o.name, line, first, objects[0].name)
				}
			}
		})
	}
}

// poolDetail is a detail without the pool's own attribute path (pools["g"]. or pool., which a nested
// attribute's detail starts with and a framework validator's names), without the leading "attribute: " the
// provider puts before a nested attribute's detail, and with its first letter lower-cased.
// pathPrefix is the attribute path nameAttributes starts a nested attribute's detail with.
var pathPrefix = regexp.MustCompile(`^[a-z_0-9]+(\[[^\]]*\])?(\.[a-z_0-9]+(\[[^\]]*\])?)*( = [^:]*)?: `)

func poolDetail(detail, pool, attribute string) string {
	if pool != "" {
		detail = strings.ReplaceAll(detail, pool+".", "")
	}
	if rest, ok := strings.CutPrefix(detail, attribute); ok {
		if _, after, ok := strings.Cut(rest, ": "); ok && (strings.HasPrefix(rest, ": ") || strings.HasPrefix(rest, " = ")) {
			detail = after
		}
	}
	if detail != "" {
		detail = strings.ToLower(detail[:1]) + detail[1:]
	}
	return detail
}
