package overhead

import (
	"strings"
	"testing"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
)

// TestProfileHasAnImage is issue 21's class 2 for the overhead model, which every object that plans nodes
// uses: each profile × architecture × accelerator either has an image the platform publishes, or is refused
// on the instance type instead of being planned with another architecture's figures. Windows nodes have no
// Arm image on EKS (no Windows AMI type for arm64) nor on AKS (Windows node pools do not run Arm64 VMs), and
// EKS has no Windows AMI type with GPU or Neuron drivers.
func TestProfileHasAnImage(t *testing.T) {
	profiles := []Profile{EKSAL2023, EKSAL2, EKSBottlerocket, EKSWindows, AKSLinux, AKSWindows, GKEStandard}
	types := map[catalog.Cloud][]string{
		catalog.AWS:   {"m5.large", "m6g.large", "g4dn.xlarge", "g5g.xlarge", "inf2.xlarge"},
		catalog.Azure: {"Standard_D4s_v5", "Standard_D4ps_v5"},
		catalog.GCP:   {"e2-standard-4", "t2a-standard-4"},
	}
	for _, prof := range profiles {
		for _, name := range types[prof.Cloud()] {
			it, err := catalog.Lookup(prof.Cloud(), name)
			if err != nil {
				t.Fatal(err)
			}
			arm := it.Architecture == catalog.ArchARM64
			acc := it.GPUCount > 0 || strings.HasPrefix(name, "inf")
			refused := (prof == EKSWindows || prof == AKSWindows) && arm || prof == EKSWindows && acc
			_, err = Compute(Input{Profile: prof, Instance: InstanceFromCatalog(it), KubernetesVersion: "1.31"})
			errs := field.As(err)
			switch {
			case refused && (len(errs) != 1 || errs[0].Path.String() != "Instance" || !strings.Contains(errs[0].Detail, field.Quote(name))):
				t.Errorf("%s on %s: want one error on Instance naming the type, got %v", prof, name, err)
			case !refused && err != nil && strings.Contains(err.Error(), "image"):
				t.Errorf("%s on %s: refused for want of an image: %v", prof, name, err)
			}
		}
	}
}
