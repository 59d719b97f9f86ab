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
//   - every node carries the well-known labels kubernetes.io/arch, kubernetes.io/os and
//     node.kubernetes.io/instance-type, so selectors on them match;
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
