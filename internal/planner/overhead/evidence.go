package overhead

import (
	"fmt"
	"sort"
	"strings"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
)

// EvidenceStatus says how the figures of a profile and version range are backed.
type EvidenceStatus string

// Evidence statuses, strongest first.
const (
	// EvidenceUser: the user gave a real node's measured allocatable (or described the node, custom profile).
	EvidenceUser EvidenceStatus = "user input"
	// EvidenceMeasured: the model reproduces public measured nodes of this scope (MeasuredNodes).
	EvidenceMeasured EvidenceStatus = "measured"
	// EvidencePublished: the cloud publishes the reservation as a table with worked examples, but no measured
	// node of this scope was found.
	EvidencePublished EvidenceStatus = "published table"
	// EvidenceDocumented: the rule comes from documentation or the node bootstrap's code; not yet measured.
	EvidenceDocumented EvidenceStatus = "documented formula, not yet measured"
	// EvidenceUpperBound: no rule is published; the figure is an upper bound of allocatable from measured nodes.
	EvidenceUpperBound EvidenceStatus = "upper bound"
)

// Evidence is how one node's figures are backed: the scope (profile and version range) they were computed in,
// its status, and the measured nodes and sources behind it.
type Evidence struct {
	Scope  string
	Status EvidenceStatus
	// Exact and Conservative count the measured nodes of the scope the model reproduces exactly, or with less
	// allocatable than the node reports (by at most 1 %); none is ever optimistic (checked by the golden test).
	Exact, Conservative int
	// Summary is one line for people: "exact on 3 measured nodes (m5.large, …)", "published table, …".
	Summary string
	// Sources are the measured nodes' URLs, else the rule's published sources.
	Sources []string
}

// scope is one profile and version range with the evidence the project holds for it.
type scope struct {
	name    string
	status  EvidenceStatus // without a measured node
	why     string         // what backs it without a measured node
	sources []string
}

// scopes lists every scope Compute can land in (scopeOf), with its fallback evidence; the measured nodes of
// measured.go raise a scope to EvidenceMeasured. TestEvidenceScopes checks that every name scopeOf returns is here.
var scopes = []scope{
	{name: "eks-al2023, ENI max pods", status: EvidenceDocumented, why: "nodeadm's code (awslabs/amazon-eks-ami)",
		sources: []string{"https://github.com/awslabs/amazon-eks-ami/blob/main/nodeadm/internal/kubelet/config.go"}},
	{name: "eks-al2023, prefix delegation", status: EvidenceDocumented, why: "nodeadm's code and max-pods-calculator.sh",
		sources: []string{"https://github.com/awslabs/amazon-eks-ami/blob/main/templates/al2/runtime/max-pods-calculator.sh"}},
	{name: "eks-al2023, custom max pods", status: EvidenceDocumented, why: "nodeadm's code (the per-pod memory follows the larger of the ENI and the set max pods)",
		sources: []string{"https://github.com/awslabs/amazon-eks-ami/blob/main/nodeadm/internal/kubelet/config.go"}},
	{name: "eks-al2, ENI max pods", status: EvidenceDocumented, why: "the AL2 bootstrap.sh",
		sources: []string{"https://github.com/awslabs/amazon-eks-ami/blob/main/templates/al2/runtime/bootstrap.sh"}},
	{name: "eks-al2, prefix delegation", status: EvidenceDocumented, why: "the AL2 bootstrap.sh and max-pods-calculator.sh",
		sources: []string{"https://github.com/awslabs/amazon-eks-ami/blob/main/templates/al2/runtime/bootstrap.sh"}},
	{name: "eks-al2, custom max pods", status: EvidenceDocumented, why: "the AL2 bootstrap.sh (memory keeps the ENI max pods)",
		sources: []string{"https://github.com/awslabs/amazon-eks-ami/blob/main/templates/al2/runtime/bootstrap.sh"}},
	{name: "eks-bottlerocket, ENI max pods", status: EvidenceDocumented, why: "Bottlerocket's kube_reserve_memory helper",
		sources: []string{"https://github.com/bottlerocket-os/bottlerocket"}},
	{name: "eks-bottlerocket, prefix delegation", status: EvidenceDocumented, why: "Bottlerocket's kube_reserve_memory helper",
		sources: []string{"https://github.com/bottlerocket-os/bottlerocket"}},
	{name: "eks-bottlerocket, custom max pods", status: EvidenceDocumented, why: "Bottlerocket's kube_reserve_memory helper (memory follows the set max pods)",
		sources: []string{"https://github.com/bottlerocket-os/bottlerocket"}},
	{name: "eks-windows", status: EvidenceDocumented, why: "Karpenter's Windows AMI family (the EKS Windows bootstrap's reservations were not read)",
		sources: []string{"https://github.com/aws/karpenter-provider-aws/blob/main/pkg/providers/amifamily/windows.go"}},
	{name: "eks auto mode", status: EvidenceUpperBound, why: "AWS publishes no Auto Mode reservation; kubefit reserves at least what measured Auto Mode nodes show",
		sources: []string{"https://docs.aws.amazon.com/eks/latest/userguide/automode.html"}},
	{name: "aks-linux, Kubernetes before 1.29", status: EvidencePublished, why: "Microsoft's CPU table and memory tiers",
		sources: []string{"https://learn.microsoft.com/azure/aks/node-resource-reservations"}},
	{name: "aks-linux, Kubernetes 1.29", status: EvidencePublished, why: "both of Microsoft's rule sets, the smaller allocatable kept",
		sources: []string{"https://learn.microsoft.com/azure/aks/node-resource-reservations"}},
	{name: "aks-linux, Kubernetes 1.30 and later", status: EvidencePublished, why: "Microsoft's CPU table and the per-pod memory rule with its worked examples",
		sources: []string{"https://learn.microsoft.com/azure/aks/node-resource-reservations"}},
	{name: "aks-windows, Kubernetes before 1.29", status: EvidencePublished, why: "Microsoft's table plus the 2 GB Windows reservation",
		sources: []string{"https://learn.microsoft.com/azure/aks/node-resource-reservations"}},
	{name: "aks-windows, Kubernetes 1.29", status: EvidenceDocumented, why: "both of Microsoft's rule sets plus the 2 GB Windows reservation",
		sources: []string{"https://learn.microsoft.com/azure/aks/node-resource-reservations"}},
	{name: "aks-windows, Kubernetes 1.30 and later", status: EvidenceDocumented, why: "Microsoft's 1.29 rule plus the 2 GB Windows reservation",
		sources: []string{"https://learn.microsoft.com/azure/aks/node-resource-reservations"}},
	{name: "gke-standard, E2", status: EvidenceDocumented, why: "GKE's plan-node-sizes tiers",
		sources: []string{"https://cloud.google.com/kubernetes-engine/docs/concepts/plan-node-sizes"}},
	{name: "gke-standard, N2", status: EvidenceDocumented, why: "GKE's plan-node-sizes tiers",
		sources: []string{"https://cloud.google.com/kubernetes-engine/docs/concepts/plan-node-sizes"}},
	// The measured GKE Standard nodes are E2 and N2 (and the N1 shared-core f1-micro, scope below); the other
	// families (N1, N2D, C3, C3D, C4, N4, T2A on Arm, …) follow the same documented tiers, but no measured node with
	// a citable source backs them. (A 2019 kubelet config of a 2-vCPU, 7.5 GB GKE node, awslabs/amazon-eks-ami#318,
	// shows the tiers' 70m and 1736Mi, but not the node's capacity and allocatable, so it is no MeasuredNode.)
	{name: "gke-standard, machine families other than E2 and N2", status: EvidenceDocumented,
		why:     "GKE's plan-node-sizes tiers, as on the measured E2 and N2 nodes",
		sources: []string{"https://cloud.google.com/kubernetes-engine/docs/concepts/plan-node-sizes"}},
	{name: "gke-standard, shared-core E2", status: EvidenceDocumented, why: "GKE's plan-node-sizes (a flat 1060m on shared-core E2)",
		sources: []string{"https://cloud.google.com/kubernetes-engine/docs/concepts/plan-node-sizes"}},
	{name: "gke-standard, shared-core N1 (f1-micro, g1-small)", status: EvidenceDocumented, why: "GKE's tiers on the one visible vCPU",
		sources: []string{"https://cloud.google.com/kubernetes-engine/docs/concepts/plan-node-sizes"}},
	{name: "custom", status: EvidenceUser, why: "the node as the user describes it, with the VM-overhead estimate of Karpenter",
		sources: []string{"https://github.com/aws/karpenter-provider-aws/blob/main/pkg/operator/options/options.go"}},
}

// scopeOf names the scope a computed node falls in; minor is the Kubernetes minor version (0 = current).
func scopeOf(in Input, minor int) string {
	p := in.Profile
	switch {
	case p.isEKS() && in.EKS.Kind == AutoMode:
		return "eks auto mode"
	case p == EKSWindows:
		return "eks-windows"
	case p.isEKS():
		switch {
		case in.EKS.PrefixDelegation:
			return string(p) + ", prefix delegation"
		case in.MaxPods > 0 || in.EKS.MaxPodsExpressionResult > 0:
			return string(p) + ", custom max pods"
		}
		return string(p) + ", ENI max pods"
	case p.isAKS():
		switch {
		case minor != 0 && minor < 29:
			return string(p) + ", Kubernetes before 1.29"
		case minor == 29:
			return string(p) + ", Kubernetes 1.29"
		}
		return string(p) + ", Kubernetes 1.30 and later"
	case p == GKEStandard && in.Instance.SharedCore && in.Instance.Family == "e2":
		return "gke-standard, shared-core E2"
	case p == GKEStandard && in.Instance.SharedCore:
		return "gke-standard, shared-core N1 (f1-micro, g1-small)"
	case p == GKEStandard && in.Instance.Family == "e2":
		return "gke-standard, E2"
	case p == GKEStandard && in.Instance.Family == "n2":
		return "gke-standard, N2"
	case p == GKEStandard:
		return "gke-standard, machine families other than E2 and N2"
	}
	return "custom"
}

// evidence computes the Evidence of one computed node.
func (c *calc) evidence() {
	minor, _ := parseMinor(c.in.KubernetesVersion)
	name := scopeOf(c.in, minor)
	ev := EvidenceFor(name)
	if c.allocatableMeasured() {
		ev.Status = EvidenceUser
		ev.Summary = "the measured allocatable of a real node, given by the user (" + ev.Summary + ")"
	}
	c.res.Evidence = ev
	if ev.Status != EvidenceMeasured && ev.Status != EvidenceUser && name != "eks auto mode" && !strings.HasPrefix(name, "aks-windows, Kubernetes 1.") {
		// Auto Mode and AKS Windows from 1.29 already warn with their own evidence (CodeEKSAutoModeUpperBound,
		// CodeAKSWindowsRulesUnverified).
		c.warn(CodeNotMeasured, field.Path{}, "no public measured node backs the model for %s (%s); give the measured allocatable of one real node to plan exactly",
			name, ev.Summary)
	}
}

// EvidenceFor returns the evidence of a scope by name (a name of Scopes).
func EvidenceFor(name string) Evidence {
	var sc *scope
	for i := range scopes {
		if scopes[i].name == name {
			sc = &scopes[i]
		}
	}
	if sc == nil {
		return Evidence{Scope: name, Status: EvidenceDocumented, Summary: "no evidence recorded"}
	}
	ev := Evidence{Scope: name, Status: sc.status}
	var types []string
	seen := map[string]bool{}
	for _, n := range MeasuredNodes {
		if n.Scope != name {
			continue
		}
		if n.Outcome == OutcomeExact {
			ev.Exact++
		} else {
			ev.Conservative++
		}
		ev.Sources = append(ev.Sources, n.Source)
		if !seen[n.Instance] {
			seen[n.Instance] = true
			types = append(types, n.Instance)
		}
	}
	sort.Strings(types)
	switch total := ev.Exact + ev.Conservative; {
	case total == 0:
		ev.Sources = append(ev.Sources, sc.sources...)
		ev.Summary = fmt.Sprintf("%s: %s", sc.status, sc.why)
	case sc.status == EvidenceUpperBound:
		ev.Summary = fmt.Sprintf("upper bound of allocatable, never above %d measured node%s (%s): %s", total, plural(total), strings.Join(types, ", "), sc.why)
	default:
		ev.Status = EvidenceMeasured
		ev.Summary = fmt.Sprintf("exact on %d measured node%s", ev.Exact, plural(ev.Exact))
		if ev.Conservative > 0 {
			ev.Summary += fmt.Sprintf(", conservative (less allocatable, within 1 %%) on %d more", ev.Conservative)
		}
		ev.Summary += " (" + strings.Join(types, ", ") + ")"
	}
	return ev
}

// Scopes lists every scope's evidence, in the order of the docs' table.
func Scopes() []Evidence {
	out := make([]Evidence, len(scopes))
	for i, s := range scopes {
		out[i] = EvidenceFor(s.name)
	}
	return out
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
