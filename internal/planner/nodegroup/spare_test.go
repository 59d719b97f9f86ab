package nodegroup

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/sizing"
)

// TestSizeNoSpareNode: a group whose computed maximum size equals its steady node count (no autoscaling, no
// headroom) warns what one node's loss would strand, at max_size; with headroom it does not, nor when
// node_loss is asked for (its verdict says it).
func TestSizeNoSpareNode(t *testing.T) {
	three := 3
	req := Request{Pool: sizing.Pool{Name: "web", Cloud: catalog.AWS, InstanceTypes: []string{"m5.xlarge"}},
		Workloads: []sizing.Workload{{Name: "web", Replicas: &three, Requests: fit.Resources{CPUMillicores: 3000, MemoryBytes: 1 << 30}}}}
	warned := func(req Request) string {
		t.Helper()
		r, err := Size(context.Background(), sizing.NewPlanner(sizing.EmbeddedCatalog()), req)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range r.Warnings {
			if w.Code == sizing.WarnNoSpareNode {
				if w.Path.String() != "MaxNodes" {
					t.Errorf("warning path %s", w.Path)
				}
				if !strings.Contains(r.Plan.Report, "No spare node (a warning)") {
					t.Errorf("report lacks the warning:\n%s", r.Plan.Report)
				}
				return w.Message
			}
		}
		return ""
	}
	if msg := warned(req); !strings.Contains(msg, `1 pod of workload "web"`) || !strings.Contains(msg, "(3 of at most 3 nodes)") {
		t.Errorf("no spare node: warning %q", msg)
	}
	req.HeadroomPercent = 50
	if msg := warned(req); msg != "" {
		t.Errorf("with headroom: warning %q", msg)
	}
	req.HeadroomPercent = 0
	req.Disruptions = []fit.DisruptionKind{fit.DisruptNodeLoss}
	if msg := warned(req); msg != "" {
		t.Errorf("node_loss asked: warning %q", msg)
	}
}

// TestRenderUpgradeSettings: an AKS group's max surge, or its max unavailable when it sets no surge, reaches
// aks_node_pool's upgrade_settings (azurerm takes one of them); unset, nothing is rendered.
func TestRenderUpgradeSettings(t *testing.T) {
	three := 3
	for _, tc := range []struct {
		name               string
		surge, unavailable *fit.IntOrPercent
		want               *AKSUpgradeSettings
	}{
		{"surge", &fit.IntOrPercent{Value: 33, Percent: true}, nil, &AKSUpgradeSettings{MaxSurge: "33%"}},
		{"unavailable only", nil, &fit.IntOrPercent{Value: 1}, &AKSUpgradeSettings{MaxUnavailable: "1"}},
		{"unavailable, surge 0", &fit.IntOrPercent{}, &fit.IntOrPercent{Value: 20, Percent: true}, &AKSUpgradeSettings{MaxUnavailable: "20%"}},
		{"surge, unavailable 0", &fit.IntOrPercent{Value: 2}, &fit.IntOrPercent{}, &AKSUpgradeSettings{MaxSurge: "2"}},
		{"none", nil, nil, nil},
	} {
		req := Request{Pool: sizing.Pool{Name: "user", Cloud: catalog.Azure, InstanceTypes: []string{"Standard_D4s_v5"},
			UpgradeMaxSurge: tc.surge, UpgradeMaxUnavailable: tc.unavailable},
			Workloads: []sizing.Workload{{Name: "web", Replicas: &three, Requests: fit.Resources{CPUMillicores: 500, MemoryBytes: 1 << 30}}}}
		r, err := Size(context.Background(), sizing.NewPlanner(sizing.EmbeddedCatalog()), req)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		out, err := Render(req, r)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got := out.AKS.UpgradeSettings; !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: upgrade settings %+v, want %+v", tc.name, got, tc.want)
		}
	}
}
