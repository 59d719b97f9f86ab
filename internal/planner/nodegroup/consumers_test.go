package nodegroup

import (
	"context"
	"strings"
	"testing"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/overhead"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/sizing"
)

// smallGroup is an AWS group of the given types and profile carrying one small workload.
func smallGroup(profile overhead.Profile, version string, types ...string) Request {
	r := phpGroup(nil)
	r.Pool.InstanceTypes = types
	r.Pool.Overhead.Profile, r.Pool.Overhead.KubernetesVersion = profile, version
	r.Workloads = []sizing.Workload{{Name: "web", Replicas: intp(2), Requests: fit.Resources{CPUMillicores: 100, MemoryBytes: 128 << 20}}}
	return r
}

// TestEKSImages: a managed node group runs one AMI type, so its members share architecture and accelerator
// kind (the odd member is named on its own entry); combinations without an EKS AMI type are refused; Neuron
// types get the Neuron AMI type.
func TestEKSImages(t *testing.T) {
	p := sizing.NewPlanner(sizing.EmbeddedCatalog())
	for _, tc := range []struct {
		name    string
		req     Request
		paths   []string
		want    string
		amiType string
	}{
		{"mixed architectures and accelerators", smallGroup("", "", "m5.xlarge", "m6g.xlarge", "g5.xlarge"), []string{"InstanceTypes[1]", "InstanceTypes[2]"}, `"m6g.xlarge"`, ""},
		{"windows on arm", smallGroup(overhead.EKSWindows, "", "m6g.xlarge"), []string{"InstanceTypes[0]"}, "no Windows AMI for Arm", ""},
		{"windows with a gpu", smallGroup(overhead.EKSWindows, "", "g5.xlarge"), []string{"InstanceTypes[0]"}, "no Windows AMI type", ""},
		{"bottlerocket neuron", smallGroup(overhead.EKSBottlerocket, "", "inf2.xlarge"), []string{"Overhead.Profile"}, "AL2023_x86_64_NEURON", ""},
		{"al2 on 1.33", smallGroup(overhead.EKSAL2, "1.33", "m5.xlarge"), []string{"Overhead.KubernetesVersion"}, "last is 1.32", ""},
		{"al2 on 1.32", smallGroup(overhead.EKSAL2, "1.32", "m5.xlarge"), nil, "", "AL2_x86_64"},
		{"neuron on al2023", smallGroup("", "", "inf2.xlarge"), nil, "", "AL2023_x86_64_NEURON"},
		{"arm gpu on al2023", smallGroup("", "", "g5g.xlarge"), nil, "", "AL2023_ARM_64_NVIDIA"},
		{"one architecture", smallGroup("", "", "m5.xlarge", "m5a.xlarge", "c5.xlarge"), nil, "", "AL2023_x86_64_STANDARD"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Size(context.Background(), p, tc.req)
			if tc.paths != nil {
				es := field.As(err)
				var got []string
				for _, e := range es {
					got = append(got, e.Path.String())
				}
				if strings.Join(got, " ") != strings.Join(tc.paths, " ") || !strings.Contains(err.Error(), tc.want) {
					t.Fatalf("errors at %v: %v; want %v naming %s", got, err, tc.paths, tc.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := amiType(r); got != tc.amiType {
				t.Errorf("AMI type %s, want %s", got, tc.amiType)
			}
		})
	}
}
