package fit

import (
	"fmt"
	"slices"
	"strings"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
)

// Extended resources (Workload.Extended, Pool.Extended): the resources beyond the planner's vector that a node's
// allocatable may list, as device plugins advertise them (aws.amazon.com/neuron, amd.com/gpu, nvidia.com/mig-*,
// vpc.amazonaws.com/efa, …) and as the kubelet reports pre-allocated huge pages (hugepages-2Mi). The scheduler's
// NodeResourcesFit filter checks every resource a pod requests against the node's allocatable, a resource the
// node does not list counting as 0 (kubernetes/kubernetes pkg/scheduler/framework/plugins/noderesources/fit.go,
// fitsRequest: "if rQuant > (nodeInfo.Allocatable.ScalarResources[rName] - nodeInfo.Requested...)", the reason
// "Insufficient <name>"). So a pod binds only on a node that offers each, and kubefit plans none where a pool
// neither derives nor declares it (ReasonExtended).
//
// They are not packed as vector dimensions: the safe bound is that a node holds at most ExtendedPerNode pods of
// one workload, min over its resources of floor(offered / requested), and no pod of another workload requesting
// one of the same resources (extendedShared), as host ports keep pods of two workloads apart. Both hold on the
// real node, so a count that binds in the model binds there; where two workloads could share a node's devices the
// plan may count a node too many.

// gpuResource is the resource Resources.GPU counts, as device plugins and pods name it.
const gpuResource = "nvidia.com/gpu"

// ExtendedPerNode is how many pods of workload w one node of pool p holds by their extended resources: the least
// over the resources the pods request of floor(offered / requested), 0 when a node offers one of them not or too
// little, and -1 when the pods request none.
func ExtendedPerNode(w *Workload, p *Pool) int64 {
	k := int64(-1)
	for name, req := range w.Extended {
		if req <= 0 {
			continue
		}
		n := p.Extended[name] / req
		if k < 0 || n < k {
			k = n
		}
	}
	return k
}

// extendedShared returns the first extended resource, by name, both workloads request, or "".
func extendedShared(a, b *Workload) string {
	for _, name := range sortedKeys(a.Extended) {
		if a.Extended[name] > 0 && b.Extended[name] > 0 {
			return name
		}
	}
	return ""
}

// extendedMessage explains ReasonExtended for workload w on pool p: which resources a node offers not or too
// little of, and the remedy.
func extendedMessage(w *Workload, p *Pool) string {
	var missing, short []string
	for _, name := range sortedKeys(w.Extended) {
		req := w.Extended[name]
		switch have := p.Extended[name]; {
		case req <= 0 || have >= req:
		case have == 0:
			missing = append(missing, formatExtended(name, req))
		default:
			short = append(short, fmt.Sprintf("%s but its nodes offer %s", formatExtended(name, req), formatExtended(name, have)))
		}
	}
	var parts []string
	if len(missing) > 0 {
		parts = append(parts, fmt.Sprintf("%s, which %s does not offer", field.JoinAnd(missing), nodeOf(p)))
	}
	if len(short) > 0 {
		parts = append(parts, fmt.Sprintf("%s (%s)", field.JoinAnd(short), poolLabel(p)))
	}
	return fmt.Sprintf("pod of workload %q requests %s: a node binds it only where its allocatable lists that much "+
		"(NodeResourcesFit); declare on the pool how much of it each node offers, if its device plugin or kubelet advertises it, "+
		"or choose an instance type that offers it", w.Name, strings.Join(parts, "; "))
}

// formatExtended renders an amount of an extended resource: huge pages in bytes for people, others as a count.
func formatExtended(name string, v int64) string {
	if IsHugePages(name) {
		return formatValue(ResourceMemory, v) + " of " + name
	}
	return FormatCount(v) + " " + name
}

// IsHugePages says whether name is a huge pages resource (hugepages-<size>), which Kubernetes counts in bytes.
func IsHugePages(name string) bool { return strings.HasPrefix(name, "hugepages-") }

// extendedNames lists the extended resources a workload's pods request, sorted.
func extendedNames(w *Workload) []string {
	var out []string
	for _, name := range sortedKeys(w.Extended) {
		if w.Extended[name] > 0 {
			out = append(out, name)
		}
	}
	return out
}

// extendedPeers lists, per workload, the other workloads that request one of the same extended resources: their
// pods never share a node (extendedShared).
func extendedPeers(in *Input) [][]int {
	out := make([][]int, len(in.Workloads))
	for a := range in.Workloads {
		if len(in.Workloads[a].Extended) == 0 {
			continue
		}
		for b := range in.Workloads {
			if a != b && extendedShared(&in.Workloads[a], &in.Workloads[b]) != "" {
				out[a] = append(out[a], b)
			}
		}
	}
	return out
}

// vectorNames are the resource names an extended map may not carry: the vector's own dimensions, as Kubernetes
// names them, and nvidia.com/gpu (Resources.GPU).
var vectorNames = []string{"cpu", "memory", "ephemeral-storage", "pods", "nvidia.com/gpu"}

// extendedMap checks an extended resource map: names that are not the vector's, amounts in 0–MaxQuantity.
func (v *validator) extendedMap(f field.Path, owner string, m map[string]int64) {
	for _, name := range sortedKeys(m) {
		kf := f.Child("Extended").Key(name)
		switch {
		case name == "":
			v.add(kf, name, "%s lists an extended resource without a name", owner)
		case slices.Contains(vectorNames, name):
			v.add(kf, name, "%s lists %s among its extended resources; it is a resource of its own (cpu, memory, ephemeral storage, pods, "+
				"GPUs), give it there", owner, field.Quote(name))
		case m[name] < 0 || m[name] > MaxQuantity:
			v.add(kf, i64(m[name]), "%s of %s is %s, outside 0 to %s", name, owner, FormatCount(m[name]), FormatCount(MaxQuantity))
		}
	}
}
