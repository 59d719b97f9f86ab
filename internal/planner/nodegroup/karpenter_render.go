package nodegroup

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/overhead"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/resource"
)

// karpenter renders a NodePool whose limits are r.Karpenter.LimitNodes nodes' capacity as Karpenter counts it:
// vCPUs, and memory after its VM memory overhead (the overhead model's capacity without a measured figure).
// LimitNodes is MaxSize, or more when Karpenter's own provisioning launches more NodeClaims for the peak.
func karpenter(req Request, r *Result) (map[string]any, string, error) {
	class := req.NodeClassName
	if class == "" {
		class = "default"
	}
	capType := "on-demand"
	if req.CapacityType == Spot {
		capType = "spot"
	}
	var arches []string // the members' architectures, as Kubernetes spells them
	for _, m := range r.Pool.Members {
		arch := "amd64"
		if m.Architecture == catalog.ArchARM64 {
			arch = "arm64"
		}
		if !slices.Contains(arches, arch) {
			arches = append(arches, arch)
		}
	}
	sort.Strings(arches)
	ref := karpenterNodeClassRef{Group: "karpenter.k8s.aws", Kind: "EC2NodeClass", Name: class}
	if req.Pool.Overhead.EKS.Kind == overhead.AutoMode {
		// EKS Auto Mode's NodePools refer to its own NodeClass (eks.amazonaws.com/v1).
		ref.Group, ref.Kind = "eks.amazonaws.com", "NodeClass"
	}
	np := karpenterNodePool{APIVersion: "karpenter.sh/v1", Kind: "NodePool", Metadata: metav1.ObjectMeta{Name: KarpenterName(req.Pool.Name)}}
	np.Spec.Template.Metadata.Labels = req.Pool.Labels
	np.Spec.Template.Spec = karpenterTemplateSpec{
		NodeClassRef: ref,
		Requirements: []karpenterRequirement{
			{Key: "node.kubernetes.io/instance-type", Operator: "In", Values: memberNames(r)},
			{Key: "karpenter.sh/capacity-type", Operator: "In", Values: []string{capType}},
			{Key: "kubernetes.io/arch", Operator: "In", Values: arches},
		},
		Taints: kubeTaints(req.Pool.Taints),
	}
	if req.Pool.Overhead.Profile == overhead.EKSWindows {
		// Karpenter gives a node the OS of its EC2NodeClass's AMI family (aws/karpenter-provider-aws
		// pkg/providers/instancetype/types.go, getOS); the requirement keeps the NodePool's nodes Windows ones, as
		// Karpenter's own Windows example does (examples/v1/windows2022.yaml: kubernetes.io/os In [windows]).
		np.Spec.Template.Spec.Requirements = append(np.Spec.Template.Spec.Requirements,
			karpenterRequirement{Key: "kubernetes.io/os", Operator: "In", Values: []string{"windows"}})
	}
	if len(req.Pool.Zones) > 0 {
		zones := append([]string(nil), req.Pool.Zones...)
		sort.Strings(zones)
		np.Spec.Template.Spec.Requirements = append(np.Spec.Template.Spec.Requirements,
			karpenterRequirement{Key: "topology.kubernetes.io/zone", Operator: "In", Values: zones})
	}
	// Karpenter may launch any member: limits of n nodes of the largest let any n of them launch.
	c := r.Pool.LargestCapacity
	n := int64(max(r.MaxSize, r.Karpenter.LimitNodes))
	np.Spec.Limits = map[string]string{"cpu": resource.QuantityCPU(c.CPUMillicores * n), "memory": resource.QuantityBytes(c.MemoryBytes * n)}
	b, err := json.Marshal(np)
	if err != nil {
		return nil, "", err
	}
	var obj map[string]any
	if err := json.Unmarshal(b, &obj); err != nil {
		return nil, "", err
	}
	delete(obj["metadata"].(map[string]any), "creationTimestamp")
	y, err := yaml.Marshal(obj)
	return obj, string(y), err
}

// WarnKarpenterKubelet: a Karpenter group planned with custom kubelet settings, which Karpenter takes from the
// EC2NodeClass its NodePool refers to, not from the NodePool.
const WarnKarpenterKubelet = "nodegroup.karpenter-kubelet-in-node-class"

// karpenterKubelet is the spec.kubelet block of an EC2NodeClass that gives Karpenter's nodes the kubelet settings the
// group was planned with; nil when the group sets none or its NodePool refers to EKS Auto Mode's NodeClass.
//
// Karpenter v1 reads the kubelet configuration from the EC2NodeClass ("Kubelet configures the kubelet on provisioned
// nodes … Karpenter reads the fields relevant to scheduling (maxPods, podsPerCore, kubeReserved, systemReserved,
// evictionHard)", aws/karpenter-provider-aws pkg/apis/v1/ec2nodeclass.go @ 1d927085); the NodePool carries none.
// Without maxPods it gives a node its ENI-limited pod count (pkg/providers/instancetype/types.go, func pods), and it
// fills the reservation keys not given from its own formula (kubeReservedResources: lo.Assign of the given keys over
// its defaults), the formula kubefit's overhead model plans a Karpenter node with. So the block holds what the group
// sets: max pods, the reservation keys given, and the whole hard-eviction map (a partial evictionHard leaves the
// kubelet's other signals unset, fullEvictionHard).
func karpenterKubelet(req Request, r *Result) map[string]any {
	if req.Pool.Overhead.EKS.Kind == overhead.AutoMode || !customKubelet(req) {
		return nil
	}
	in, out := req.Pool.Overhead, map[string]any{}
	if in.MaxPods > 0 || in.EKS.MaxPodsExpressionResult > 0 {
		// A maxPodsExpression planned with is no help to Karpenter's nodes: Karpenter writes maxPods into the kubelet
		// configuration it generates, which nodeadm ranks above the expression; the block gives the planned count.
		out["maxPods"] = r.Pool.Overhead.MaxPods
	}
	if m := givenQuantities(in.KubeReserved); len(m) > 0 {
		out["kubeReserved"] = m
	}
	if m := givenQuantities(in.SystemReserved); len(m) > 0 {
		out["systemReserved"] = m
	}
	if len(in.EvictionHard) > 0 {
		ev := map[string]any{}
		for k, v := range fullEvictionHard(r.Pool.Overhead.EvictionHard) {
			ev[k] = v
		}
		out["evictionHard"] = ev
	}
	return out
}

// givenQuantities spells the keys of a reservation the group gives as the kubelet's resource map.
func givenQuantities(rv overhead.Reservation) map[string]any {
	m := map[string]any{}
	if rv.CPUMillicores != nil {
		m["cpu"] = resource.QuantityCPU(*rv.CPUMillicores)
	}
	if rv.MemoryBytes != nil {
		m["memory"] = resource.QuantityBytes(*rv.MemoryBytes)
	}
	if rv.EphemeralStorageBytes != nil {
		m["ephemeral-storage"] = resource.QuantityBytes(*rv.EphemeralStorageBytes)
	}
	return m
}

// WarnKarpenterWindowsClass: a Windows group whose nodes Karpenter launches, whose EC2NodeClass must use a Windows AMI
// family for the nodes to be Windows ones.
const WarnKarpenterWindowsClass = "nodegroup.karpenter-windows-node-class"

// karpenterWindowsWarnings warns a Windows group whose nodes Karpenter launches (eks.node_group_kind karpenter) that
// Karpenter takes a node's OS from the EC2NodeClass its NodePool refers to (getOS: windows only for a Windows AMI
// family), so that class must be a Windows one; the NodePool's kubernetes.io/os requirement makes a Linux class
// launch nothing rather than Linux nodes.
func karpenterWindowsWarnings(req Request) []field.Warning {
	if req.Pool.Overhead.EKS.Kind != overhead.Karpenter || req.Pool.Overhead.Profile != overhead.EKSWindows {
		return nil
	}
	class := req.NodeClassName
	if class == "" {
		class = "default"
	}
	return []field.Warning{{Code: WarnKarpenterWindowsClass, Path: field.NewPath("NodeClassName"), Message: fmt.Sprintf(
		"node group %q is planned on Windows nodes, but Karpenter gives a node the OS of the EC2NodeClass its NodePool refers to (%q): that class must select a Windows AMI "+
			"(amiSelectorTerms alias windows2022@latest), or Karpenter launches no node for the NodePool (it requires kubernetes.io/os windows) and the group's Windows pods stay Pending; "+
			"name a Windows EC2NodeClass as the group's node class",
		req.Pool.Name, class)}}
}

// karpenterKubeletWarnings warns a group whose nodes Karpenter launches (eks.node_group_kind karpenter) that its
// kubelet settings hold only once the EC2NodeClass carries them: kubefit renders the block, not the class (its
// role, subnets and AMI are the user's).
func karpenterKubeletWarnings(req Request, r *Result) []field.Warning {
	kubelet := karpenterKubelet(req, r)
	if req.Pool.Overhead.EKS.Kind != overhead.Karpenter || kubelet == nil {
		return nil
	}
	class := req.NodeClassName
	if class == "" {
		class = "default"
	}
	var set []string
	at := field.NewPath("MaxPods")
	if v, ok := kubelet["maxPods"]; ok {
		set = append(set, fmt.Sprintf("maxPods %v", v))
	}
	for _, k := range []string{"kubeReserved", "systemReserved", "evictionHard"} {
		if _, ok := kubelet[k]; ok {
			set = append(set, k)
			if len(set) == 1 {
				at = field.NewPath(map[string]string{"kubeReserved": "KubeReserved", "systemReserved": "SystemReserved", "evictionHard": "EvictionHard"}[k])
			}
		}
	}
	return []field.Warning{{Code: WarnKarpenterKubelet, Path: at, Message: fmt.Sprintf(
		"node group %q was planned with custom kubelet settings (%s), which Karpenter takes from the EC2NodeClass its NodePool refers to (%q), not from the NodePool: "+
			"that EC2NodeClass must carry them as spec.kubelet, as rendered beside the NodePool; without them Karpenter launches nodes with its own "+
			"defaults (max pods from the instance type's ENI limit, its kube-reserved formula) and the plan does not hold",
		req.Pool.Name, strings.Join(set, ", "), class)}}
}
