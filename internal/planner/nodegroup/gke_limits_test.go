package nodegroup

import (
	"context"
	"strings"
	"testing"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/sizing"
)

// TestGKEGroupZoneLimit: a GKE node group's maximum size above 1,000 nodes per zone is one error on the maximum
// size naming the figures and the remedy (the exploratory case gke_onezone_big: 3,000 in one zone was said to fit);
// without zones, above 1,000 warns.
func TestGKEGroupZoneLimit(t *testing.T) {
	w := sizing.Workload{Name: "a", Replicas: intp(10), Requests: fit.Resources{CPUMillicores: 1000, MemoryBytes: 2 << 30}}
	p := sizing.NewPlanner(sizing.EmbeddedCatalog())
	_, err := Size(context.Background(), p, gkeGroup("e2-standard-2", []string{"us-central1-a"}, intp(3000), w))
	es := field.As(err)
	if len(es) != 1 || es[0].Path.String() != "MaxNodes" || !strings.Contains(es[0].Detail, `node group "g": a maximum of 3,000 nodes`) ||
		!strings.Contains(es[0].Detail, "give the group at least 3 zones") {
		t.Errorf("one zone, 3,000: got %v, want one error on the maximum size", err)
	}
	r, err := Size(context.Background(), p, gkeGroup("e2-standard-2", nil, intp(1500), w))
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, wr := range r.Warnings {
		found = found || wr.Code == sizing.WarnGKEZonesUnknown && wr.Path.String() == "MaxNodes"
	}
	if !found {
		t.Errorf("no zones, 1,500: warnings %v, want %s on the maximum size", r.Warnings, sizing.WarnGKEZonesUnknown)
	}
	if _, err := Size(context.Background(), p, gkeGroup("e2-standard-2", []string{"us-central1-a", "us-central1-b", "us-central1-c"}, intp(3000), w)); err != nil {
		t.Errorf("three zones, 3,000: %v", err)
	}
}
