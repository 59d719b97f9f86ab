package selector

import (
	"context"
	"strings"
	"testing"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/sizing"
)

// TestRankGKEZoneLimit: a GKE pool template whose maximum exceeds 1,000 nodes per zone (overhead.md §8.8) is one
// error on the pool's maximum, not an exclusion of every candidate; without zones, the ranking warns once.
func TestRankGKEZoneLimit(t *testing.T) {
	req := func(zones []string) Request {
		return Request{Pool: sizing.Pool{Name: "pool", Cloud: catalog.GCP, MaxNodes: 3000, Zones: zones},
			Workloads:  []sizing.Workload{{Name: "db", Replicas: intp(2), Requests: fit.Resources{CPUMillicores: 500, MemoryBytes: 1 << 30}}},
			Candidates: []string{"n2-standard-4", "n4-standard-4"}}
	}
	_, err := NewRanker(sizing.EmbeddedCatalog()).Rank(context.Background(), req([]string{"us-central1-a"}))
	if es := field.As(err); len(es) != 1 || es[0].Path.String() != "Pool.MaxNodes" || !strings.Contains(es[0].Detail, "at least 3 zones") {
		t.Errorf("one zone: got %v, want one error on Pool.MaxNodes", err)
	}
	rk, err := NewRanker(sizing.EmbeddedCatalog()).Rank(context.Background(), req(nil))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, w := range rk.Warnings {
		if w.Code == sizing.WarnGKEZonesUnknown && w.Path.String() == "Pool.MaxNodes" && strings.Contains(w.Message, "at least 3 zones") {
			n++
		}
	}
	if n != 1 || rk.Best == "" {
		t.Errorf("no zones: %d zone warnings, best %q; want 1 and a recommendation (%v)", n, rk.Best, rk.Warnings)
	}
}
