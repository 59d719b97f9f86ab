package nodegroup

import (
	"context"
	"strings"
	"testing"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/sizing"
)

// gkeGroup is a GKE node group of one machine type carrying one workload.
func gkeGroup(instance string, zones []string, maxSize *int, w sizing.Workload) Request {
	return Request{Pool: sizing.Pool{Name: "g", Cloud: catalog.GCP, InstanceTypes: []string{instance}, Zones: zones},
		MaxSize: maxSize, Workloads: []sizing.Workload{w}}
}

// TestGKEGPUGroup: a GKE node group of a GPU machine type is planned with GKE's nvidia.com/gpu=present:NoSchedule
// taint (the exploratory case gke_a2_nongpu: four web pods on a2-highgpu-1g were said to fit): pods without a GPU
// request stay off it, a pod requesting one fits (g2-standard-8 holds one), the pool's note says why, and the
// rendered gke_node_pool does not list the taint, which GKE adds itself.
func TestGKEGPUGroup(t *testing.T) {
	web := sizing.Workload{Name: "web", Replicas: intp(4), Requests: fit.Resources{CPUMillicores: 1000, MemoryBytes: 2 << 30}}
	infer := sizing.Workload{Name: "infer", Replicas: intp(1), Requests: fit.Resources{CPUMillicores: 1000, MemoryBytes: 2 << 30, GPU: 1}}
	for _, tc := range []struct {
		name     string
		instance string
		w        sizing.Workload
		fits     bool
	}{
		{"a2 web pods", "a2-highgpu-1g", web, false},
		{"g2 web pods", "g2-standard-8", web, false},
		{"g2 one gpu pod", "g2-standard-8", infer, true},
	} {
		req := gkeGroup(tc.instance, []string{"us-central1-a"}, intp(2), tc.w)
		r, err := Size(context.Background(), sizing.NewPlanner(sizing.EmbeddedCatalog()), req)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if r.Fits != tc.fits {
			t.Errorf("%s: fits %v, want %v (%+v)", tc.name, r.Fits, tc.fits, r.Failures)
		}
		if !tc.fits && (len(r.Failures) == 0 || !strings.Contains(r.Failures[0].Message, "nvidia.com/gpu=present:NoSchedule")) {
			t.Errorf("%s: failures %+v, want GKE's GPU taint named", tc.name, r.Failures)
		}
		if !strings.Contains(r.Pool.Note, "GKE taints GPU nodes nvidia.com/gpu=present:NoSchedule") {
			t.Errorf("%s: note %q does not name GKE's GPU taint", tc.name, r.Pool.Note)
		}
		out, err := Render(req, r)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if out.GKE == nil || len(out.GKE.Taints) != 0 {
			t.Errorf("%s: rendered gke_node_pool %+v, want no taint listed (GKE adds its own)", tc.name, out.GKE)
		}
	}
}
