package fit

import (
	"fmt"
	"strings"
	"testing"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
)

// spotInput is a spot pool and an on-demand pool of 4-CPU nodes, and web pods of 1 CPU that may use both
// (the spot pool is preferred by weight, so they land there).
func spotInput(onDemandMax int, webPools []string) Input {
	alloc := Resources{CPUMillicores: 4000, MemoryBytes: 16 << 30, Pods: 110}
	return Input{
		Pools: []Pool{
			{Name: "spot", Allocatable: alloc, MinNodes: 2, MaxNodes: 4, Weight: 100, CapacityType: CapacitySpot},
			{Name: "on-demand", Allocatable: alloc, MinNodes: 1, MaxNodes: onDemandMax, CapacityType: CapacityOnDemand},
		},
		Workloads: []Workload{
			{Name: "web", Replicas: 8, MaxReplicas: 8, Requests: Resources{CPUMillicores: 1000, MemoryBytes: 1 << 30}, Pools: webPools},
			{Name: "api", Replicas: 2, MaxReplicas: 2, Requests: Resources{CPUMillicores: 1000, MemoryBytes: 1 << 30}, Pools: []string{"on-demand"}},
		},
		Disruptions: []DisruptionKind{DisruptSpotLoss},
	}
}

// TestDisruptionsSpotLoss: losing every spot node moves their pods to the on-demand pool when it may grow
// enough; a fixed on-demand pool strands them (with the rise of its maximum that binds them), and pods that
// may use only the spot pool bind nowhere, named with why.
func TestDisruptionsSpotLoss(t *testing.T) {
	// Every pod asks 1 CPU of a 4-CPU node: evicted are the pods the steady placement put on the spot pool;
	// pending those beyond the free slots of the on-demand nodes the pool may have (wantFree: free slots
	// per on-demand node).
	tests := []struct {
		name      string
		in        Input
		wantFits  bool
		onDemand  int // on-demand nodes after the loss, at most
		webOnSpot bool
		want      []string // in the message, %d the evicted pods
	}{
		{name: "on-demand pool grows", in: spotInput(4, nil), wantFits: true, onDemand: 4,
			want: []string{`spot_loss: losing every spot pool: pool "spot" (2 nodes) evicts %d pods`, "%d pods bind on the on-demand pools"}},
		{name: "fixed on-demand pool", in: spotInput(1, nil), onDemand: 1,
			want: []string{`%d pods bind nowhere`, "With 2 more nodes allowed in every on-demand pool's maximum node count, they bind"}},
		{name: "spot-only workload", in: spotInput(4, []string{"spot"}), webOnSpot: true,
			want: []string{`%d pods bind nowhere`, `workload "web": no on-demand pool it may use`, "let them use an on-demand pool"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := Plan(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if !res.Scenarios[0].Fits {
				t.Fatalf("steady does not fit: %+v", res.Failures)
			}
			if len(res.Disruptions) != 1 {
				t.Fatalf("disruptions %+v", res.Disruptions)
			}
			d := res.Disruptions[0]
			onSpot, onDemand := res.Scenarios[0].Pools[0].Pods, res.Scenarios[0].Pools[1].Pods
			pending := 0
			if tt.webOnSpot {
				pending = onSpot
			} else {
				pending = max(0, onSpot-(4*tt.onDemand-onDemand))
			}
			if onSpot == 0 || d.Kind != DisruptSpotLoss || d.Fits != tt.wantFits || countPods(d.Pending) != pending || d.Evicted != onSpot || d.Pool != "spot" {
				t.Errorf("got %+v, want %d evicted and %d pending", d, onSpot, pending)
			}
			for _, w := range tt.want {
				if strings.Contains(w, "%d") {
					w = fmt.Sprintf(w, onSpot)
					if strings.Contains(w, "bind nowhere") {
						w = strings.Replace(w, fmt.Sprint(onSpot), fmt.Sprint(pending), 1)
					}
				}
				if !strings.Contains(d.Message, w) {
					t.Errorf("message %q lacks %q", d.Message, w)
				}
			}
			if res.Fits != (tt.wantFits && res.Scenarios[1].Fits) {
				t.Errorf("plan fits %v with spot_loss fits %v", res.Fits, d.Fits)
			}
		})
	}
}

// TestDisruptionsSpotLossNothingLost: a spot pool without nodes (every pod keeps to the on-demand pool) loses
// nothing and says so.
func TestDisruptionsSpotLossNothingLost(t *testing.T) {
	in := spotInput(4, []string{"on-demand"})
	in.Pools[0].MinNodes = 0
	res, err := Plan(in)
	if err != nil {
		t.Fatal(err)
	}
	if d := res.Disruptions[0]; !d.Fits || d.Evicted != 0 || !strings.Contains(d.Message, "the spot pools have no node") {
		t.Errorf("got %+v", d)
	}
}

// TestDisruptionsSpotLossValidate: spot_loss without a spot pool is an input error naming the fix; an unknown
// capacity type is refused.
func TestDisruptionsSpotLossValidate(t *testing.T) {
	in := spotInput(4, nil)
	in.Pools[0].CapacityType = ""
	err := Validate(in)
	if err == nil || !strings.Contains(err.Error(), `none of the pools ("spot" and "on-demand") is a spot pool; set the capacity type of those whose nodes are spot to "spot", or drop "spot_loss"`) ||
		field.As(err)[0].Path.String() != "Disruptions[0]" {
		t.Errorf("no spot pool: %v", err)
	}
	in.Pools[0].CapacityType = "reserved"
	if err := Validate(in); err == nil || !strings.Contains(err.Error(), `unknown capacity type "reserved" of pool "spot"`) {
		t.Errorf("unknown capacity type: %v", err)
	}
}
