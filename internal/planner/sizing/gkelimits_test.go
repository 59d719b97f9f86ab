package sizing

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
)

// TestGKEZoneLimit: GKE allows a node pool at most 1,000 nodes per zone (overhead.md §8.8). A GKE pool's maximum
// above 1,000 × its zones is one error on the maximum naming the figures and the zones needed; within it, none;
// without zones, above 1,000 warns that the pool needs that many zones; a maximum that follows from the plan and
// exceeds its zones' limit is an error on the zones. Other clouds are not checked.
func TestGKEZoneLimit(t *testing.T) {
	small := Workload{Name: "web", Replicas: intp(2), Requests: fit.Resources{CPUMillicores: 500, MemoryBytes: 512 << 20}}
	// One pod per n2-standard-2 node: 1,100 nodes at the peak.
	wide := Workload{Name: "batch", Replicas: intp(1100), Requests: fit.Resources{CPUMillicores: 1500, MemoryBytes: 1 << 30}}
	for _, tc := range []struct {
		name     string
		cloud    catalog.Cloud
		instance string
		max      int
		fromPeak bool
		zones    []string
		w        Workload
		errAt    string
		errHas   []string
		warned   bool
	}{
		{"one zone, 3000", catalog.GCP, "e2-standard-2", 3000, false, []string{"us-central1-a"}, small,
			`Pools["big"].MaxNodes`, []string{"3,000 nodes", "in its 1 zone, at most 1,000", "at least 3 zones", "Nodes per node pool zone: 1,000"}, false},
		{"three zones, 3000", catalog.GCP, "e2-standard-2", 3000, false, []string{"us-central1-a", "us-central1-b", "us-central1-c"}, small, "", nil, false},
		{"two zones, 2001", catalog.GCP, "e2-standard-2", 2001, false, []string{"us-central1-a", "us-central1-b"}, small,
			`Pools["big"].MaxNodes`, []string{"2,001 nodes", "in its 2 zones, at most 2,000", "at least 3 zones"}, false},
		{"no zones, 1500", catalog.GCP, "e2-standard-2", 1500, false, nil, small, "", nil, true},
		{"no zones, 1000", catalog.GCP, "e2-standard-2", 1000, false, nil, small, "", nil, false},
		{"aws, one zone, 3000", catalog.AWS, "m5.large", 3000, false, []string{"us-east-1a"}, small, "", nil, false},
		{"planned, one zone", catalog.GCP, "n2-standard-2", 10_000, true, []string{"us-central1-a"}, wide,
			`Pools["big"].Zones`, []string{"1,100 nodes", "in 1 zone the pool holds at most 1,000", "at least 2 zones"}, false},
		{"planned, two zones", catalog.GCP, "n2-standard-2", 10_000, true, []string{"us-central1-a", "us-central1-b"}, wide, "", nil, false},
	} {
		req := Request{Pools: []Pool{{Name: "big", Cloud: tc.cloud, InstanceTypes: []string{tc.instance}, MaxNodes: tc.max,
			Zones: tc.zones, MaxFromPeak: tc.fromPeak}}, Workloads: []Workload{tc.w}}
		plan, err := NewPlanner(EmbeddedCatalog()).WithoutBlame().Solve(context.Background(), req)
		if tc.errAt != "" {
			es := field.As(err)
			if len(es) != 1 || es[0].Path.String() != tc.errAt {
				t.Errorf("%s: got %v, want one error on %s", tc.name, err, tc.errAt)
				continue
			}
			for _, h := range tc.errHas {
				if !strings.Contains(es[0].Detail, h) {
					t.Errorf("%s: error %q lacks %q", tc.name, es[0].Detail, h)
				}
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		i := slices.IndexFunc(plan.Warnings, func(w field.Warning) bool { return w.Code == WarnGKEZonesUnknown })
		if (i >= 0) != tc.warned {
			t.Errorf("%s: warned %v, want %v (%v)", tc.name, i >= 0, tc.warned, plan.Warnings)
		} else if i >= 0 {
			if w := plan.Warnings[i]; w.Path.String() != `Pools["big"].MaxNodes` || !strings.Contains(w.Message, "1,500 nodes needs at least 2 zones") {
				t.Errorf("%s: warning %+v", tc.name, w)
			}
		}
	}
}
