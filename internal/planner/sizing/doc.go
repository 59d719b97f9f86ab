// Package sizing is the planner's front door: it sizes node pools for workloads in one call.
//
// A Planner is built once with a Catalog (EmbeddedCatalog, or any other implementation) and answers
// Solve(ctx, Request): pools given by instance-type names and node-image options, the DaemonSets that run
// on them and the workloads to place, in; a Plan out, with whether everything fits, every pool's catalog
// row and node overhead, the steady and peak packings down to the pods of each workload on each node, the
// CPU credit check of burstable pools, typed failures and warnings, and a text report. The shape follows
// Karpenter's NewScheduler(...).Solve(ctx, pods): inputs injected, a result anyone can verify.
//
// Solve applies the rules that turn a request into one packing problem, so every caller gets them alike:
//   - a mixed pool (several instance types) is planned on its smallest member: the least workload CPU
//     after DaemonSets, then the least memory;
//   - every pool runs its platform's measured system DaemonSets (overhead.PlatformDaemonSets: AKS's, GKE's,
//     aws-node and kube-proxy on EKS, and the device plugins of accelerator nodes) beside the request's, less those a DaemonSet of the request names on the pools it lands on,
//     unless Request.SystemDaemonSets counts only the listed ones; PoolPlan.SystemDaemonSets names them;
//   - every node carries the labels real nodes carry (labels.go): the kubelet's kubernetes.io/os and
//     kubernetes.io/arch and their beta twins, the cloud's node.kubernetes.io/instance-type (a mixed pool's nodes
//     any member's: a choice), zone and region with their beta twins (the zone per zone, the region when the
//     zones name one), and the platform's pool labels (AKS, GKE; on EKS the managed node group's or Karpenter's).
//     What kubefit cannot know (an AKS pool's kubernetes.azure.com/mode, a Windows node's
//     node.kubernetes.io/windows-build) is a label choice: a DaemonSet selecting it is counted, a workload kept
//     off, saying why. A pool's own labels may not contradict the derived ones;
//   - a workload runs on pools of its operating system only (fit.WorkloadOS: Linux unless it says otherwise); a
//     warning says when kube-scheduler may still bind it to a pool of the other OS, when one that does not pin
//     its architecture is planned on arm64 nodes, and when a listed DaemonSet lands on no pool;
//   - a fixed replica count is both the steady and the peak count; an autoscaled workload runs its
//     minimum steady (1 when only a maximum is given, as for a HorizontalPodAutoscaler) and its maximum
//     plus the rollout surge at peak; a zone spread without a skew keeps a skew of 1;
//   - a pool of a burstable type is checked against its CPU credit budget with the expected CPU use of
//     the steady scenario's busiest node: running out of credits is a failure like any misfit.
//
// Errors in the request are field.Errors whose paths use this package's field names: pools by name
// (Pools["general"].MaxNodes), DaemonSets and workloads by index (Workloads[2].Requests.CPUMillicores).
// Solve never panics and is deterministic: the same request and catalog give the same Plan.
package sizing
