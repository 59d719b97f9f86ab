package sizing

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/overhead"
)

// Extended resources of a pool's nodes (fit.Pool.Extended): what kubefit derives from the instance type, and what
// the pool declares (Pool.Extended), which wins.

// The extended resources kubefit derives.
const (
	// ResourceAMDGPU is the resource the AMD GPU device plugin advertises ("Exposes AMD GPUs as amd.com/gpu
	// resources", ROCm/k8s-device-plugin docs/index.md).
	ResourceAMDGPU = "amd.com/gpu"
	// ResourceNeuron and ResourceNeuronCore are the resources the Neuron device plugin registers:
	// "aws.amazon.com/neuroncore - Used for allocating individual Neuron cores to containers;
	// aws.amazon.com/neuron - Used for allocating entire Neuron devices" (awsdocs-neuron k8s-neuron-device-plugin).
	ResourceNeuron     = "aws.amazon.com/neuron"
	ResourceNeuronCore = "aws.amazon.com/neuroncore"
)

// neuronDevices are the Neuron devices (Inferentia or Trainium chips) of the EC2 types that have them, and the
// NeuronCores per device (0: not derived), from the instance type pages (aws.amazon.com/ec2/instance-types/inf1,
// inf2, trn1, trn2: "Inferentia chips" / "Trainium chips" per size) and the Neuron architecture pages (Inferentia:
// four NeuronCores-v1 per chip; Inferentia2 and Trainium: two NeuronCores-v2 per chip). Trainium2's cores depend
// on the logical NeuronCore setting, so trn2 derives devices only.
var neuronDevices = map[string]struct{ devices, cores int64 }{
	"inf1.xlarge": {1, 4}, "inf1.2xlarge": {1, 4}, "inf1.6xlarge": {4, 4}, "inf1.24xlarge": {16, 4},
	"inf2.xlarge": {1, 2}, "inf2.8xlarge": {1, 2}, "inf2.24xlarge": {6, 2}, "inf2.48xlarge": {12, 2},
	"trn1.2xlarge": {1, 2}, "trn1.32xlarge": {16, 2}, "trn1n.32xlarge": {16, 2},
	"trn2.48xlarge": {16, 0},
}

// DerivedExtended is what one node of the type offers of the extended resources kubefit knows: amd.com/gpu on
// AMD GPU types the AMD plugin supports (catalog.InstanceType.AMDGPUs), aws.amazon.com/neuron and
// aws.amazon.com/neuroncore on Inferentia and Trainium types (neuronDevices). Each needs its device plugin on the
// node, which kubefit counts among the system DaemonSets where the platform installs it.
func DerivedExtended(t catalog.InstanceType) map[string]int64 {
	out := map[string]int64{}
	if n := t.AMDGPUs(); n > 0 {
		out[ResourceAMDGPU] = int64(n)
	}
	if t.Cloud == catalog.AWS {
		if d, ok := neuronDevices[t.Name]; ok {
			out[ResourceNeuron] = d.devices
			if d.cores > 0 {
				out[ResourceNeuronCore] = d.devices * d.cores
			}
		}
	}
	return out
}

// poolExtended sets fp's extended resources: derived from every member (a mixed pool's node may be any member:
// the least of each), then the pool's declared amounts over them. Declared huge pages are pre-allocated memory,
// which the kubelet takes out of the node's allocatable memory ("for every huge page reservation, we need to
// remove it from allocatable memory", kubernetes pkg/kubelet/nodestatus/setters.go MachineInfo), so fp's memory
// shrinks by them and the note says so. fp.GPUNote explains a node with GPUs that offers no nvidia.com/gpu.
func (s *solve) poolExtended(i int, pp *PoolPlan, fp *fit.Pool, notes []string) []string {
	rp := &s.req.Pools[i]
	var ext map[string]int64
	for j, m := range pp.Members {
		d := DerivedExtended(m)
		if j == 0 {
			ext = d
			continue
		}
		for k, v := range ext {
			ext[k] = min(v, d[k])
		}
	}
	maps.Copy(ext, rp.Extended)
	for k, v := range ext {
		if v <= 0 {
			delete(ext, k)
		}
	}
	if len(ext) > 0 {
		fp.Extended = ext
	}
	for _, m := range pp.Members {
		if fp.Allocatable.GPU == 0 && m.GPUNote() != "" {
			fp.GPUNote = m.GPUNote()
			break
		}
	}
	var huge int64
	var names []string
	for _, k := range slices.Sorted(maps.Keys(rp.Extended)) {
		if fit.IsHugePages(k) && rp.Extended[k] > 0 {
			huge += rp.Extended[k]
			names = append(names, k)
		}
	}
	if huge == 0 {
		return notes
	}
	p := s.poolPath(i).Child("Extended").Key(names[0])
	if huge >= fp.Allocatable.MemoryBytes {
		s.errs = append(s.errs, field.Invalid(p, fit.FormatBytes(huge), "pool %q declares %s of huge pages, but a node's allocatable memory is %s: "+
			"the kubelet takes pre-allocated huge pages out of it, which would leave none; declare fewer huge pages or choose a larger instance type",
			rp.Name, fit.FormatBytes(huge), fit.FormatBytes(fp.Allocatable.MemoryBytes)))
		return notes
	}
	fp.Allocatable.MemoryBytes -= huge
	return append(notes, fmt.Sprintf("the declared huge pages (%s, %s) are pre-allocated memory, which the kubelet takes out of the allocatable memory: %s left",
		strings.Join(names, ", "), fit.FormatBytes(huge), fit.FormatBytes(fp.Allocatable.MemoryBytes)))
}

// managedERT says whether the cluster runs the ExtendedResourceToleration admission plugin (extendedTolerations):
// every pool profile is a managed platform's (EKS, AKS, GKE; overhead.Custom describes a single node, never a
// pool), all of which run it, so a request with pools does; a profile that does not would make it false.
func (s *solve) managedERT() bool {
	for _, rp := range s.req.Pools {
		if rp.Overhead.Profile == overhead.Custom {
			return false
		}
	}
	return len(s.req.Pools) > 0
}

// extendedTolerations returns tolerations with the ones the ExtendedResourceToleration admission plugin adds to a
// pod that requests extended resources: for each (nvidia.com/gpu among them) a toleration of that key, operator
// Exists and effect NoSchedule ("ExtendedResourceToleration", kubernetes.io/docs/reference/access-authn-authz/
// admission-controllers: "automatically adds tolerations for such taints"; plugin/pkg/admission/
// extendedresourcetoleration adds them for every extended resource, huge pages and the native resources not being
// extended). All three managed platforms run it: GKE ("Run GPUs in GKE Standard node pools": GKE applies the
// tolerations to pods that request GPUs), AKS (AKS FAQ "What Kubernetes admission controllers does AKS support?"
// lists ExtendedResourceToleration, a list users cannot change) and EKS since 1.19 (aws/containers-roadmap#739:
// "We will be enabling the ExtendedResourceToleration admission controller with the upcoming 1.19 launch"; every
// supported EKS version is later). The plugin runs once per cluster and writes the toleration into the pod at
// admission, so it is one property of the pod for the whole plan, not one per pool: a plan whose pools are on
// several clouds is a comparison, not one cluster, and each of those clouds runs it. Were a pool on a platform
// that may not run it, the plan would add none (run false): fewer pools open to the pod, the safe side.
func extendedTolerations(run bool, req fit.Resources, ext map[string]int64, tolerations []fit.Toleration) []fit.Toleration {
	if !run {
		return tolerations
	}
	if req.GPU > 0 {
		tolerations = withToleration(tolerations, fit.Toleration{Key: GKEGPUTaint.Key, Operator: fit.OperatorExists, Effect: fit.EffectNoSchedule})
	}
	for _, k := range slices.Sorted(maps.Keys(ext)) {
		if ext[k] > 0 && isExtendedResource(k) {
			tolerations = withToleration(tolerations, fit.Toleration{Key: k, Operator: fit.OperatorExists, Effect: fit.EffectNoSchedule})
		}
	}
	return tolerations
}

// isExtendedResource mirrors corev1helper.IsExtendedResourceName for the names an extended map may carry: a
// domain-prefixed name outside kubernetes.io (huge pages and other native resources are not extended).
func isExtendedResource(name string) bool {
	return strings.Contains(name, "/") && !strings.Contains(name, "kubernetes.io/") && !strings.HasPrefix(name, "requests.")
}
