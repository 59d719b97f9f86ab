package nodegroup

import (
	"context"
	"slices"
	"strings"
	"testing"

	ekstypes "github.com/aws/aws-sdk-go-v2/service/eks/types"

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

// TestEKSEnumsAreTheSDKs: every AMI type, capacity type and taint effect kubefit emits for aws_eks_node_group
// is a value of the EKS API's own enums (github.com/aws/aws-sdk-go-v2/service/eks/types), over profiles ×
// x86/Arm × none/GPU/Neuron.
func TestEKSEnumsAreTheSDKs(t *testing.T) {
	p := sizing.NewPlanner(sizing.EmbeddedCatalog())
	amiTypes := map[string]bool{}
	for _, v := range ekstypes.AMITypesAl2X8664.Values() {
		amiTypes[string(v)] = true
	}
	seen := 0
	for _, prof := range []overhead.Profile{overhead.EKSAL2023, overhead.EKSAL2, overhead.EKSBottlerocket, overhead.EKSWindows} {
		for _, typ := range []string{"m5.xlarge", "m6g.xlarge", "g5.xlarge", "g5g.xlarge", "inf2.xlarge", "trn1.2xlarge"} {
			for _, ct := range []CapacityType{OnDemand, Spot} {
				req := smallGroup(prof, "", typ)
				req.CapacityType = ct
				req.Pool.Taints = []fit.Taint{{Key: "a", Effect: fit.EffectNoSchedule}, {Key: "b", Value: "x", Effect: fit.EffectNoExecute}, {Key: "c", Effect: fit.EffectPreferNoSchedule}}
				req.Workloads[0].Tolerations = []fit.Toleration{{Operator: fit.OperatorExists}}
				r, err := Size(context.Background(), p, req)
				if err != nil {
					continue // refused (TestEKSImages): nothing is emitted
				}
				out, err := Render(req, r)
				if err != nil {
					t.Fatalf("%s %s: %v", prof, typ, err)
				}
				seen++
				if !amiTypes[out.EKS.AMIType] {
					t.Errorf("%s on %s: AMI type %s is not one of the EKS API's %v", prof, typ, out.EKS.AMIType, ekstypes.AMITypesAl2X8664.Values())
				}
				if !slices.Contains(ekstypes.CapacityTypesSpot.Values(), ekstypes.CapacityTypes(out.EKS.CapacityType)) {
					t.Errorf("capacity type %s", out.EKS.CapacityType)
				}
				for _, tn := range out.EKS.Taints {
					if !slices.Contains(ekstypes.TaintEffectNoSchedule.Values(), ekstypes.TaintEffect(tn.Effect)) {
						t.Errorf("taint effect %s", tn.Effect)
					}
				}
			}
		}
	}
	if seen < 30 {
		t.Errorf("only %d combinations rendered", seen)
	}
}
