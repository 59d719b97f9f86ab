// Package selector answers "which instance type?" in two steps, as a person would.
//
// Filter narrows one cloud's catalog by specs (vCPU and memory ranges, architecture, memory per vCPU,
// family and name patterns, generation, burstable, GPUs, bare metal, hypervisor, max pods under an
// overhead profile, EBS and Azure disk caps, price) and sorts the rows. When nothing is left, Apply's
// warning names the filter that removed the last candidates, so the user knows which bound to relax.
//
// Rank sizes the same workloads on every candidate type through the sizing planner, one pool of that
// type at a time, and orders the candidates by the monthly cost of the nodes the chosen scenario needs
// (nodes × price per hour × 730 hours), then by their stranded share. A candidate that cannot work —
// one pod does not fit a node, the pool's maximum node count or max pods is too small, the busiest
// node runs out of CPU credits, or no price is known — is excluded with the reason. The numbers of
// every candidate are those sizing.Planner.Solve gives for a pool of that type alone. Candidates whose
// nodes look alike to the packer are packed once, on GOMAXPROCS workers; with Request.Limit, groups
// are sized in order of a lower bound on their cost until no bound left could rank among the Limit
// cheapest (BenchmarkRank500x10kTop1: 500 candidates, 10,000 pods in 100 specs, about 0.1 s on two
// cores; sizing all 500 exactly takes about 9 s).
//
// Every candidate is packed (the best packing); the cheapest max(Limit, ScheduledTop) eligible ones are
// sized again with the scheduler model, re-sorting until those first ones all carry its realistic count. The
// model's work over one ranking is bounded (rankModelBudget, in filtered nodes, about five seconds here): when it
// runs out first, the ranking warns (WarnModelBudget) and Best is the cheapest candidate the model sized. As the
// packing does, the model sizes each node shape once (the packer key: allocatable, pod limits, architecture,
// accelerators, volume attachments; never a burstable type or one a workload's rules name): a candidate of a
// shape already sized takes its counts at no cost (Candidate.ModelledAs), and a misfit says it is the other's.
//
// Prices are the catalog's reference on-demand prices of one region at one date (or the caller's own
// price per type); every cost carries its source. The package is pure: no network, no global state
// besides the catalog it is given, and deterministic results.
package selector
