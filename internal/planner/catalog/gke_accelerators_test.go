package catalog

import "testing"

// TestGKEAcceleratorOfEveryGPURow: every GCP row with whole GPUs has a GKE accelerator type, so a GKE GPU node pool
// always gets the accelerator block that installs its driver; rows without GPUs have none.
func TestGKEAcceleratorOfEveryGPURow(t *testing.T) {
	rows := All(GCP)
	n := 0
	for _, r := range rows {
		switch acc := r.GKEAccelerator(); {
		case r.GPUCount > 0 && acc == "":
			t.Errorf("%s has %d GPUs and no GKE accelerator type", r.Name, r.GPUCount)
		case r.GPUCount == 0 && acc != "":
			t.Errorf("%s has no GPUs but accelerator %s", r.Name, acc)
		case acc != "":
			n++
		}
	}
	want := map[string]string{"a2-highgpu-1g": "nvidia-tesla-a100", "a2-megagpu-16g": "nvidia-tesla-a100", "a2-ultragpu-8g": "nvidia-a100-80gb",
		"a3-highgpu-8g": "nvidia-h100-80gb", "a3-megagpu-8g": "nvidia-h100-mega-80gb", "g2-standard-8": "nvidia-l4", "g4-standard-48": "nvidia-rtx-pro-6000"}
	for _, r := range rows {
		if w, ok := want[r.Name]; ok && r.GKEAccelerator() != w {
			t.Errorf("%s: accelerator %q, want %q", r.Name, r.GKEAccelerator(), w)
		}
	}
	if n < 20 {
		t.Errorf("only %d GPU rows", n)
	}
}
