package nodegroup

import (
	"context"
	"strings"
	"testing"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/sizing"
)

// TestMessagesInGroupWords: a node group's failures and warnings speak of the node group and its maximum size, not
// of a pool and its maximum node count (the sizing planner's words for the group's one pool), whatever the reason:
// capacity, a pod too large, zone or node spread, host ports, a node's loss.
func TestMessagesInGroupWords(t *testing.T) {
	p := sizing.NewPlanner(sizing.EmbeddedCatalog())
	muts := map[string]func(*Request){
		"maxnodes": func(r *Request) { r.MaxSize = intp(20) },
		"toolarge": func(r *Request) { r.Workloads[0].Requests.CPUMillicores = 9000 },
		"zone": func(r *Request) {
			r.MaxSize = intp(3)
			r.Workloads[0].Spread = fit.Spread{Type: fit.SpreadZone, MaxSkew: 1}
			r.Workloads[0].Requests.CPUMillicores = 500
		},
		"ports": func(r *Request) { r.MaxSize = intp(5); r.Workloads[0].HostPorts = []fit.HostPort{{Port: 80}} },
		"nodeloss": func(r *Request) {
			r.MaxSize = intp(40)
			r.Disruptions = []fit.DisruptionKind{fit.DisruptNodeLoss}
			r.Workloads[0].MinReplicas = intp(40)
		},
		"nodespread": func(r *Request) {
			r.MaxSize = intp(5)
			r.Workloads[0].Spread = fit.Spread{Type: fit.SpreadNode}
			r.Workloads[0].Requests.CPUMillicores = 100
		},
	}
	for name, mut := range muts {
		req := phpGroup(nil)
		req.Workloads = append([]sizing.Workload(nil), req.Workloads...)
		mut(&req)
		r, err := Size(context.Background(), p, req)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		msgs := []string{}
		for _, f := range r.Failures {
			msgs = append(msgs, f.Message)
		}
		for _, w := range r.Warnings {
			msgs = append(msgs, w.Message)
		}
		if len(r.Failures) == 0 {
			t.Errorf("%s: the group fits; the case must fail", name)
		}
		for _, m := range msgs {
			for _, pool := range []string{`pool "php"`, `Pool "php"`, "maximum node count", "pool's", "its pools", "the pool ", "The pool "} {
				if strings.Contains(m, pool) {
					t.Errorf("%s: %q in %q", name, pool, m)
				}
			}
		}
		if !strings.Contains(strings.Join(msgs, " "), `node group "php"`) {
			t.Errorf("%s: no message names the node group: %q", name, msgs)
		}
	}
}

// TestInputErrorsInGroupWords: an input error the sizing planner finds in the group's pool (a label, a taint) names
// the node group, not a pool.
func TestInputErrorsInGroupWords(t *testing.T) {
	req := phpGroup(nil)
	req.Pool.Taints = []fit.Taint{{Key: "bad key", Value: "x", Effect: fit.EffectNoSchedule}}
	_, err := Size(context.Background(), sizing.NewPlanner(sizing.EmbeddedCatalog()), req)
	if err == nil || strings.Contains(err.Error(), `pool "php"`) || !strings.Contains(err.Error(), `node group "php"`) {
		t.Errorf("got %v, want an error naming node group \"php\" and no pool", err)
	}
}

// TestZoneSpreadWithoutZonesRemedy: a zone-spread workload on a group without zones is told to set the group's zones,
// not to restrict its pools (a group is one pool).
func TestZoneSpreadWithoutZonesRemedy(t *testing.T) {
	req := phpGroup(nil)
	req.Pool.Zones = nil
	req.Workloads = append([]sizing.Workload(nil), req.Workloads...)
	req.Workloads[0].Spread = fit.Spread{Type: fit.SpreadZone, MaxSkew: 1}
	_, err := Size(context.Background(), sizing.NewPlanner(sizing.EmbeddedCatalog()), req)
	if err == nil || !strings.Contains(err.Error(), "set the group's zones") || strings.Contains(err.Error(), "pools") {
		t.Errorf("got %v, want the group's zones as the remedy and no pools", err)
	}
}
