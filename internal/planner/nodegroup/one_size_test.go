package nodegroup

import (
	"strings"
	"testing"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
)

// TestOneSizePool: an AKS node pool has one vm_size and a GKE node pool one machine type, so a mixed Azure or GCP
// group is rendered with the member it was planned on, and a warning names the members left out (before, they were
// dropped silently).
func TestOneSizePool(t *testing.T) {
	for _, tc := range []struct {
		cloud           catalog.Cloud
		types           []string
		zones           []string
		planned, others string
	}{
		{catalog.Azure, []string{"Standard_D8s_v5", "Standard_D4s_v5"}, []string{"1", "2"}, "Standard_D4s_v5", `"Standard_D8s_v5" is`},
		{catalog.GCP, []string{"n2-standard-8", "n2-standard-4", "n2-standard-16"}, []string{"europe-west1-b"}, "n2-standard-4", `"n2-standard-8" and "n2-standard-16" are`},
	} {
		req := phpGroup(nil)
		req.Pool.Cloud, req.Pool.InstanceTypes, req.Pool.Zones = tc.cloud, tc.types, tc.zones
		req.Workloads[0].Requests.CPUMillicores = 500
		_, out := sizeRender(t, req)
		var msg string
		for _, w := range out.Warnings {
			if w.Code == WarnOneSizePool {
				msg = w.Message
			}
		}
		rendered := ""
		if out.AKS != nil {
			rendered = out.AKS.VMSize
		} else if out.GKE != nil {
			rendered = out.GKE.MachineType
		}
		if rendered != tc.planned || !strings.Contains(msg, `rendered with "`+tc.planned+`"`) || !strings.Contains(msg, tc.others+" in no rendered pool") {
			t.Errorf("%s: rendered %q, warning %q; want %s rendered and %s named", tc.cloud, rendered, msg, tc.planned, tc.others)
		}
		req.Pool.InstanceTypes = tc.types[:1]
		if _, out := sizeRender(t, req); hasCode(out.Warnings, WarnOneSizePool) {
			t.Errorf("%s: one instance type warns: %+v", tc.cloud, out.Warnings)
		}
	}
}
