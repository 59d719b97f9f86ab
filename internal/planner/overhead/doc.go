// Package overhead computes a Kubernetes node's capacity, the kubelet's reservations (kube-reserved,
// system-reserved, hard eviction), the resulting allocatable, max pods, and what is left for workloads once
// DaemonSets are placed, for EKS, AKS and GKE node images.
//
// Compute evaluates one node in exact integer arithmetic. Every computed figure is reported as a Term that
// carries its unit and a stable formula identifier (see Formulas, which maps each identifier to its public
// sources: the EKS AMI's nodeadm and bootstrap scripts, the AKS and GKE documentation, Karpenter), so a
// caller can say which rule produced a number. Invalid input is reported as field.Errors whose paths use the
// field names of Input; caveats about a valid result are field.Warnings whose stable codes are the Code
// constants.
//
// The package is pure: no I/O, no global state, the same input always gives the same result.
package overhead
