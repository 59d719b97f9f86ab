package nodegroup

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
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

// TestGKEGuestAccelerator: a GKE GPU group's node pool carries the accelerator block that has GKE install the
// driver (the exploratory case ngrender: g2-standard-8 rendered none), with the series' accelerator type and the
// machine type's GPU count, and the group's GPU sharing in it and in the module's keys; the sharing multiplies the
// nvidia.com/gpu a node offers (the exploratory case gkeshare, as a node group), and its labels are GKE's to set,
// not the pool's. Sharing GKE does not take is refused on the group's GPU sharing.
func TestGKEGuestAccelerator(t *testing.T) {
	one := func(replicas int) sizing.Workload {
		return sizing.Workload{Name: "infer", Replicas: intp(replicas), Requests: fit.Resources{CPUMillicores: 200, MemoryBytes: 512 << 20, GPU: 1}}
	}
	for _, tc := range []struct {
		name     string
		instance string
		sharing  sizing.GPUSharing
		replicas int
		want     *GKEGuestAccelerator
		nodes    int
		module   map[string]string
		errAt    string
	}{
		{"l4", "g2-standard-8", sizing.GPUSharing{}, 2, &GKEGuestAccelerator{Type: "nvidia-l4", Count: 1, GPUDriverVersion: "DEFAULT"}, 2,
			map[string]string{"accelerator_type": "nvidia-l4", "accelerator_count": "1", "gpu_driver_version": "DEFAULT"}, ""},
		{"a100 40gb × 2", "a2-highgpu-2g", sizing.GPUSharing{}, 2, &GKEGuestAccelerator{Type: "nvidia-tesla-a100", Count: 2, GPUDriverVersion: "DEFAULT"}, 1, nil, ""},
		{"a100 80gb", "a2-ultragpu-1g", sizing.GPUSharing{}, 1, &GKEGuestAccelerator{Type: "nvidia-a100-80gb", Count: 1, GPUDriverVersion: "DEFAULT"}, 1, nil, ""},
		{"h100", "a3-highgpu-8g", sizing.GPUSharing{}, 8, &GKEGuestAccelerator{Type: "nvidia-h100-80gb", Count: 8, GPUDriverVersion: "DEFAULT"}, 1, nil, ""},
		{"h100 mega", "a3-megagpu-8g", sizing.GPUSharing{}, 8, &GKEGuestAccelerator{Type: "nvidia-h100-mega-80gb", Count: 8, GPUDriverVersion: "DEFAULT"}, 1, nil, ""},
		{"rtx pro 6000", "g4-standard-48", sizing.GPUSharing{}, 1, &GKEGuestAccelerator{Type: "nvidia-rtx-pro-6000", Count: 1, GPUDriverVersion: "DEFAULT"}, 1, nil, ""},
		{"time-sharing", "g2-standard-8", sizing.GPUSharing{Strategy: sizing.GKETimeSharing, MaxSharedClients: 4}, 4,
			&GKEGuestAccelerator{Type: "nvidia-l4", Count: 1, GPUDriverVersion: "DEFAULT", SharingStrategy: "TIME_SHARING", MaxSharedClientsPerGPU: 4}, 1,
			map[string]string{"gpu_sharing_strategy": "TIME_SHARING", "max_shared_clients_per_gpu": "4"}, ""},
		{"mig", "a2-highgpu-1g", sizing.GPUSharing{PartitionSize: "1g.5gb"}, 7,
			&GKEGuestAccelerator{Type: "nvidia-tesla-a100", Count: 1, GPUDriverVersion: "DEFAULT", GPUPartitionSize: "1g.5gb"}, 1,
			map[string]string{"gpu_partition_size": "1g.5gb"}, ""},
		{"no gpu", "n2-standard-8", sizing.GPUSharing{}, 0, nil, 0, nil, ""},
		{"mig on an l4", "g2-standard-8", sizing.GPUSharing{PartitionSize: "1g.5gb"}, 1, nil, 0, nil, "GPUSharing.PartitionSize"},
		{"sharing without gpus", "n2-standard-8", sizing.GPUSharing{Strategy: sizing.GKEMPS, MaxSharedClients: 2}, 0, nil, 0, nil, "GPUSharing.Strategy"},
		{"api spelling", "g2-standard-8", sizing.GPUSharing{Strategy: "TIME_SHARING", MaxSharedClients: 2}, 1, nil, 0, nil, "GPUSharing.Strategy"},
		{"one client", "g2-standard-8", sizing.GPUSharing{Strategy: sizing.GKETimeSharing, MaxSharedClients: 1}, 1, nil, 0, nil, "GPUSharing.MaxSharedClients"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := one(tc.replicas)
			if tc.replicas == 0 {
				w = sizing.Workload{Name: "web", Replicas: intp(1), Requests: fit.Resources{CPUMillicores: 200, MemoryBytes: 512 << 20}}
			}
			req := gkeGroup(tc.instance, []string{"us-central1-a"}, nil, w)
			req.GPUSharing = tc.sharing
			r, err := Size(context.Background(), sizing.NewPlanner(sizing.EmbeddedCatalog()), req)
			if tc.errAt != "" {
				es := field.As(err)
				if len(es) != 1 || es[0].Path.String() != tc.errAt {
					t.Fatalf("error %v, want one at %s", err, tc.errAt)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			out, err := Render(req, r)
			if err != nil {
				t.Fatal(err)
			}
			if got := out.GKE.GuestAccelerator; !reflect.DeepEqual(got, tc.want) {
				t.Errorf("guest_accelerator %+v, want %+v", got, tc.want)
			}
			if tc.want != nil && (r.PeakNodes != tc.nodes || !r.Fits) {
				t.Errorf("%d nodes (fits %v), want %d", r.PeakNodes, r.Fits, tc.nodes)
			}
			for k, v := range tc.module {
				if out.GKEModule.Pool[k] != v {
					t.Errorf("module %s = %q, want %q", k, out.GKEModule.Pool[k], v)
				}
			}
			for k := range out.GKE.Labels {
				if strings.HasPrefix(k, "cloud.google.com/") {
					t.Errorf("node pool label %s: GKE sets it", k)
				}
			}
		})
	}
}
