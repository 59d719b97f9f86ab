package nodegroup

import (
	"context"
	"strings"
	"testing"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/sizing"
)

// TestGroupNames is issue 21's class 6: a group's name is checked against the rules of the consumers that
// take it as it is (EKS's node group name, GKE's node pool name; AKS pools get a name made to fit, so only
// what cannot be made to fit is refused), on Name, quoting the name; a newline is refused everywhere.
func TestGroupNames(t *testing.T) {
	types := map[catalog.Cloud]string{catalog.AWS: "m5.large", catalog.Azure: "Standard_D4s_v5", catalog.GCP: "e2-standard-4"}
	cases := []struct {
		cloud catalog.Cloud
		name  string
		want  string // "" for a valid name, else a part of the detail
	}{
		{catalog.AWS, "web\nprod", `"web\nprod"`},
		{catalog.Azure, "web\nprod", `"web\nprod"`},
		{catalog.GCP, "web\nprod", `"web\nprod"`},
		{catalog.AWS, "web pool", "EKS"},
		{catalog.AWS, "-web", "EKS"},
		{catalog.AWS, strings.Repeat("a", 64), "63"},
		{catalog.AWS, "Web_Pool", ""},
		{catalog.AWS, "web-pool-1", ""},
		{catalog.GCP, "Web", "GKE"},
		{catalog.GCP, "web-", "GKE"},
		{catalog.GCP, "1web", "GKE"},
		{catalog.GCP, strings.Repeat("a", 41), "39"},
		{catalog.GCP, "web-pool-1", ""},
		{catalog.Azure, "user", ""},
		{catalog.Azure, "user-pool", ""},
		{catalog.Azure, "1user", "AKS"},
		{catalog.Azure, "user/pool", "AKS"},
		{catalog.AWS, "", "empty"},
	}
	for _, c := range cases {
		req := Request{Pool: sizing.Pool{Name: c.name, Cloud: c.cloud, InstanceTypes: []string{types[c.cloud]}},
			Workloads: []sizing.Workload{{Name: "w", Replicas: intp(1), Requests: fit.Resources{CPUMillicores: 100}}}}
		_, err := Size(context.Background(), sizing.NewPlanner(sizing.EmbeddedCatalog()), req)
		errs := field.As(err)
		if c.want == "" {
			if err != nil {
				t.Errorf("%s %q: %v", c.cloud, c.name, err)
			}
			continue
		}
		if len(errs) != 1 || errs[0].Path.String() != "Name" || !strings.Contains(errs[0].Detail, c.want) {
			t.Errorf("%s %q: want one error on Name containing %q, got %v", c.cloud, c.name, c.want, err)
		}
	}
}
