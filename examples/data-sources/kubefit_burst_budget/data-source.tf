# Two t3a.medium nodes run 20 pods, each using about 5 % of a vCPU (50m) because of a profiler
# agent: 10 pods per node, 500m per node against a 400m baseline.

# Standard mode, starting from a full credit balance: it lasts 576 / 6 = 96 hours, so this plans
# with a warning. From a fresh node (starting_balance = "launch", the default: T3a gets no launch
# credits) it would fail, because the node is throttled at once.
data "kubefit_burst_budget" "profiled" {
  cloud             = "aws"
  instance_type     = "t3a.medium"
  credit_mode       = "standard"
  pods_per_node     = 10
  cpu_usage_per_pod = "50m"
  starting_balance  = "full"
  min_hours         = 24
}

# The family default for T3a is unlimited: never throttled, but the surplus is billed
# (0.1 vCPU × $0.05 per vCPU-hour × 730 hours = $3.65 per node and month).
data "kubefit_burst_budget" "profiled_unlimited" {
  cloud                      = "aws"
  instance_type              = "t3a.medium"
  pods_per_node              = 10
  cpu_usage_per_pod          = "50m"
  max_surplus_cost_per_month = 5
}

output "hours_until_throttled" {
  value = data.kubefit_burst_budget.profiled.hours_to_exhaustion # 96
}

output "pods_per_node_that_never_throttle" {
  value = data.kubefit_burst_budget.profiled.max_sustainable_pods # 8
}

output "surplus_cost_per_node_month" {
  value = data.kubefit_burst_budget.profiled_unlimited.surplus_cost_per_month # 3.65
}
