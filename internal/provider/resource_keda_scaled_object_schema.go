package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-validators/float64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

func kedaOptStr(desc string) schema.StringAttribute {
	return schema.StringAttribute{Optional: true, MarkdownDescription: desc}
}

func kedaOptInt(desc string) schema.Int64Attribute {
	return schema.Int64Attribute{Optional: true, MarkdownDescription: desc}
}

func kedaOptBool(desc string) schema.BoolAttribute {
	return schema.BoolAttribute{Optional: true, MarkdownDescription: desc}
}

func kedaStrMap(desc string) schema.MapAttribute {
	return schema.MapAttribute{Optional: true, ElementType: types.StringType, MarkdownDescription: desc}
}

func kedaScalingRulesAttribute(desc string) schema.SingleNestedAttribute {
	return schema.SingleNestedAttribute{Optional: true, MarkdownDescription: desc, Attributes: map[string]schema.Attribute{
		"stabilization_window_seconds": kedaOptInt("`stabilizationWindowSeconds`: 0–3,600 (`KSO-E14`)."),
		"select_policy":                kedaOptStr("`selectPolicy`: `Max`, `Min` or `Disabled` (`KSO-E14`)."),
		"policies": schema.ListNestedAttribute{Optional: true, MarkdownDescription: "Scaling policies.",
			NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
				"type":           schema.StringAttribute{Required: true, MarkdownDescription: "`Pods` or `Percent`."},
				"value":          schema.Int64Attribute{Required: true, MarkdownDescription: "Greater than 0."},
				"period_seconds": schema.Int64Attribute{Required: true, MarkdownDescription: "1–1,800 (`KSO-E14`)."},
			}}},
		"tolerance": kedaOptStr("`tolerance`, a quantity (`KSO-E18`); needs the Kubernetes `HPAConfigurableTolerance` " +
			"feature, warned about below 1.35 when `kubernetes_version` is given (`KSO-W13`)."),
	}}
}

// nodeGroupCapacityAttributes is the §9.1 capacity object a kubefit_node_group exports as `capacity`.
// Its attributes are optional in the schema, so that an object unknown during validation passes; the
// planner reports missing values once the object is known. failuresDesc says what the reader does with the
// group's misfits (only kubefit_capacity_check raises them).
func nodeGroupCapacityAttributes(failuresDesc string) map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"failures": schema.ListNestedAttribute{Optional: true, MarkdownDescription: failuresDesc,
			NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
				"reason":    schema.StringAttribute{Optional: true, MarkdownDescription: "The misfit's reason."},
				"attribute": schema.StringAttribute{Optional: true, MarkdownDescription: "The node group's attribute at fault."},
				"message":   schema.StringAttribute{Optional: true, MarkdownDescription: "What does not fit, with its figures and remedies."},
				"remedy":    schema.StringAttribute{Optional: true, MarkdownDescription: "The group's own remedy (the largest replica count that fits), if any."},
			}}},
		"name": schema.StringAttribute{Optional: true, MarkdownDescription: "Node group name, quoted in diagnostics. Required.",
			Validators: []validator.String{requiredValue{}, stringvalidator.LengthAtLeast(1)}},
		"max_nodes": schema.Int64Attribute{Optional: true, MarkdownDescription: "The group's maximum size (1 or more). Required.",
			Validators: []validator.Int64{requiredValue{}, int64validator.AtLeast(1)}},
		"zones": schema.ListAttribute{Optional: true, ElementType: types.StringType,
			MarkdownDescription: "Zones the group spans (for the zone spread check, `KCAP-E3`)."},
		"max_nodes_per_zone": kedaOptInt("Maximum nodes per zone; default `floor(max_nodes / zones)`."),
		"workload_allocatable": schema.SingleNestedAttribute{Optional: true,
			MarkdownDescription: "Per node: allocatable minus the requests of the DaemonSets on the group (for a mixed " +
				"group, the member with the least).",
			Attributes: map[string]schema.Attribute{
				"cpu_millicores":  schema.Int64Attribute{Optional: true, MarkdownDescription: "CPU in millicores. Required.", Validators: []validator.Int64{requiredValue{}}},
				"memory_bytes":    schema.Int64Attribute{Optional: true, MarkdownDescription: "Memory in bytes. Required.", Validators: []validator.Int64{requiredValue{}}},
				"ephemeral_bytes": kedaOptInt("Ephemeral storage in bytes (0 when unset)."),
				"extended": schema.MapAttribute{Optional: true, ElementType: types.Int64Type,
					MarkdownDescription: "Extended resources (`nvidia.com/gpu`, …) by name."},
			}},
		"workload_pods": schema.Int64Attribute{Optional: true,
			MarkdownDescription: "Per node: maxPods minus DaemonSet pods (already limited by pod IPs on EKS). Required.",
			Validators:          []validator.Int64{requiredValue{}}},
		"workloads": schema.ListNestedAttribute{Optional: true,
			MarkdownDescription: "The group's own workloads at peak. `kubefit_capacity_check` places those no autoscaler of the " +
				"check stands for (its scale target's name, or namespace/name) beside the autoscalers' pods; an autoscaler " +
				"checked alone against the group warns that it does not (`KCAP-W9`).",
			NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
				"name": schema.StringAttribute{Optional: true, MarkdownDescription: "The workload's name."},
				"requests": schema.SingleNestedAttribute{Optional: true, MarkdownDescription: "One pod's requests.",
					Attributes: map[string]schema.Attribute{
						"cpu_millicores":  kedaOptInt("CPU in millicores."),
						"memory_bytes":    kedaOptInt("Memory in bytes."),
						"ephemeral_bytes": kedaOptInt("Ephemeral storage in bytes."),
						"extended": schema.MapAttribute{Optional: true, ElementType: types.Int64Type,
							MarkdownDescription: "Extended resources by name (not placed)."},
					}},
				"replicas": kedaOptInt("Its replicas at peak."),
				"surge":    kedaOptInt("The surge pods a rollout at peak adds."),
			}}},
	}
}

// capacityFailuresIgnored describes capacity.failures where an autoscaler reads the capacity.
const capacityFailuresIgnored = "The group's misfits (`misfits_reported_by = \"capacity_check\"`). Not raised here: only " +
	"`kubefit_capacity_check` raises them, so pass the same `capacity` to a capacity check's `node_groups`."

func (r *kedaScaledObjectResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	defer cacheResourceTypes(&resp.Schema)
	str := func(req bool, desc string) schema.StringAttribute {
		return schema.StringAttribute{Required: req, Optional: !req, MarkdownDescription: desc}
	}
	computedStr := func(desc string) schema.StringAttribute {
		return schema.StringAttribute{Computed: true, MarkdownDescription: desc}
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "A KEDA `ScaledObject` (`keda.sh/v1alpha1`) rendered offline and checked at `terraform plan` " +
			"against every rule of KEDA's CRD schema, admission webhook, controller and scalers (rule IDs `KSO-E1`…`KSO-E20`, " +
			"warnings `KSO-W1`…`KSO-W13`), for the KEDA version in `keda_version`. Every diagnostic sits on the attribute at " +
			"fault and names its rule. With `target_workload` and `node_group_capacity` (a `kubefit_node_group`'s `capacity`), " +
			"it also checks that `max_replica_count` pods fit the node group at its maximum size (`KCAP-E1`, `KCAP-E2`, " +
			"zones `KCAP-E3`, and a rollout's surge on top of the peak against the same capacity, zone spread included, `KCAP-W1`); " +
			"with `database`, that their connections fit the database (`KCAP-E4`, `KCAP-W2`). A remedy that lowers `max_replica_count` " +
			"never names less than `min_replica_count` (at least 1), and says so when no maximum is enough.\n\n" +
			"The resource is plan-only: it never contacts a cluster and cannot be imported (a name alone cannot reproduce its configuration). `manifest` is the object for `kubernetes_manifest`, `yaml` " +
			"the same object as YAML (`yamldecode(yaml) == manifest`). Unset fields are omitted, never filled with KEDA's " +
			"defaults (`effective` states those); the one exception is `fallback.behavior`, rendered as `static` as the CRD " +
			"stores it. When an input is unknown at plan time the rendered values are unknown (`id` and `hpa_name` are known when the names they are made of are), and of the rules only the replica-count and period ones run (when those counts are known).",
		Attributes: map[string]schema.Attribute{
			"id":          computedStr("`<namespace>/<name>`."),
			"name":        str(true, "ScaledObject name: a DNS-1123 subdomain of at most 63 characters (`KSO-E1`), 54 without a custom HPA name (`KSO-E2`)."),
			"namespace":   str(true, "Namespace (a DNS-1123 label); the target must be in it."),
			"labels":      kedaStrMap("Labels (`KSO-E20`)."),
			"annotations": kedaStrMap("Annotations, including KEDA's behaviour annotations (`autoscaling.keda.sh/paused-replicas` must be an int32, `KSO-E16`)."),
			"scale_target_ref": schema.SingleNestedAttribute{Required: true, MarkdownDescription: "The scaled workload (`scaleTargetRef`, `KSO-E3`).",
				Attributes: map[string]schema.Attribute{
					"name":                      str(true, "Target name, in the same namespace."),
					"api_version":               str(false, "`group/version`; KEDA assumes `apps/v1` when unset (rendered only if set)."),
					"kind":                      str(false, "Kind with a `/scale` subresource; KEDA assumes `Deployment` when unset."),
					"env_source_container_name": str(false, "Container whose environment scalers may read."),
				}},
			"polling_interval":        kedaOptInt("`pollingInterval` in seconds, ≥ 1 (`KSO-E4`); KEDA assumes 30."),
			"initial_cooldown_period": kedaOptInt("`initialCooldownPeriod` in seconds, ≥ 0 (`KSO-E4`); KEDA assumes 0."),
			"cooldown_period":         kedaOptInt("`cooldownPeriod` in seconds, ≥ 0 (`KSO-E4`); KEDA assumes 300."),
			"idle_replica_count":      kedaOptInt("`idleReplicaCount`; must be below the effective minimum (`KSO-E6`); only 0 works (`KSO-W3`)."),
			"min_replica_count":       kedaOptInt("`minReplicaCount`; unset and 0 differ (`KSO-E5`, `KSO-E6`, `KSO-E12`)."),
			"max_replica_count":       kedaOptInt("`maxReplicaCount`, ≥ 1 (`KSO-E4`); KEDA assumes 100 (`KSO-W4`). Checked against `node_group_capacity` and `database`."),
			"advanced": schema.SingleNestedAttribute{Optional: true, MarkdownDescription: "`advanced`.",
				Attributes: map[string]schema.Attribute{
					"restore_to_original_replica_count": kedaOptBool("`restoreToOriginalReplicaCount`."),
					"horizontal_pod_autoscaler_config": schema.SingleNestedAttribute{Optional: true,
						MarkdownDescription: "`horizontalPodAutoscalerConfig`.",
						Attributes: map[string]schema.Attribute{
							"name": kedaOptStr("Custom HPA name (default `keda-hpa-<name>`, `KSO-E2`)."),
							"behavior": schema.SingleNestedAttribute{Optional: true,
								MarkdownDescription: "The HPA's `behavior` (`autoscaling/v2`), checked against the API server's ranges (`KSO-E14`).",
								Attributes: map[string]schema.Attribute{
									"scale_up":   kedaScalingRulesAttribute("`scaleUp`."),
									"scale_down": kedaScalingRulesAttribute("`scaleDown`."),
								}},
						}},
					"scaling_modifiers": schema.SingleNestedAttribute{Optional: true,
						MarkdownDescription: "`scalingModifiers` (`KSO-E9`): the formula is compiled and run with expr-lang as KEDA's webhook does.",
						Attributes: map[string]schema.Attribute{
							"formula":           kedaOptStr("expr-lang formula over named triggers that are not cpu or memory."),
							"target":            kedaOptStr("Target, a number > 0 as a string; an integer for fallback to work (`KSO-W6`)."),
							"activation_target": kedaOptStr("Activation target, a number as a string."),
							"metric_type":       kedaOptStr("`AverageValue` or `Value`."),
						}},
				}},
			"triggers": schema.ListNestedAttribute{Required: true, MarkdownDescription: "Triggers, at least one (`KSO-E7`).",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"type":               str(true, "Scaler: `prometheus`, `cpu`, `memory` (typed checks) or any other KEDA scaler."),
					"name":               str(false, "Trigger name, unique; needed to use it in a formula."),
					"metric_type":        str(false, "`AverageValue`, `Value`, or `Utilization` (cpu/memory only, where it is required: `KSO-E10`, `KSO-E13`)."),
					"use_cached_metrics": kedaOptBool("`useCachedMetrics`; not for cpu, memory or cron."),
					"metadata": schema.MapAttribute{Required: true, ElementType: types.StringType,
						MarkdownDescription: "Scaler parameters (may be `{}`). prometheus: `serverAddress`, `query`, `threshold`, … (`KSO-E15`); cpu/memory: `value`, `containerName`."},
					"authentication_ref": schema.SingleNestedAttribute{Optional: true, MarkdownDescription: "`authenticationRef` (`KSO-E19`).",
						Attributes: map[string]schema.Attribute{
							"name": str(true, "TriggerAuthentication name."),
							"kind": str(false, "`TriggerAuthentication` or `ClusterTriggerAuthentication`."),
						}},
				}}},
			"fallback": schema.SingleNestedAttribute{Optional: true, MarkdownDescription: "`fallback` (`KSO-E8`, `KSO-W5`, `KSO-W6`, `KSO-W12`).",
				Attributes: map[string]schema.Attribute{
					"failure_threshold": schema.Int64Attribute{Required: true, MarkdownDescription: "Consecutive failures before fallback, ≥ 0 (`KSO-E8`)."},
					"replicas":          schema.Int64Attribute{Required: true, MarkdownDescription: "Fallback replicas, ≥ 0 (`KSO-E8`)."},
					"behavior":          str(false, "`static` (rendered when unset), `currentReplicas`, `currentReplicasIfHigher`, `currentReplicasIfLower`, `scalingModifiers` (2.20+)."),
				}},
			"keda_version":       str(false, "KEDA version whose rules apply, `2.17` … `2.21`; default `2.21`."),
			"kubernetes_version": str(false, "Kubernetes version (`1.34`), for pod-level requests and the HPA tolerance."),
			"target_workload": schema.SingleNestedAttribute{Optional: true,
				MarkdownDescription: "The planned target workload (never rendered): enables the request checks (`KSO-E10`, `KSO-E11`) and the capacity checks.",
				Attributes:          workloadAttributes(),
			},
			"namespace_limit_range_defaults": kedaStrMap("LimitRange container `default`/`defaultRequest` quantities in the namespace, by resource name (`cpu`, `memory`)."),
			"node_group_capacity": schema.SingleNestedAttribute{Optional: true,
				MarkdownDescription: "The node group the target runs on: a `kubefit_node_group`'s `capacity` output (its name, maximum nodes, zones, and per-node workload allocatable and pod slots). When a `kubefit_capacity_check` reads this object's `summary`, a failure here makes Terraform skip that check: leave the group to the check instead (`node_group_of`) and every finding comes in one plan.",
				Attributes:          nodeGroupCapacityAttributes(capacityFailuresIgnored)},
			"database": schema.SingleNestedAttribute{Optional: true,
				MarkdownDescription: "A database the target's pods connect to (`KCAP-E4`, `KCAP-W2`); share one between several ScaledObjects with `kubefit_capacity_check`. A failure here makes Terraform skip a `kubefit_capacity_check` that reads `summary`: list this autoscaler among the check's `databases[*].clients` instead to get every finding in one plan.",
				Attributes:          databaseAttributes(),
			},
			"manifest": schema.DynamicAttribute{Computed: true,
				MarkdownDescription: "The ScaledObject as an object, for `kubernetes_manifest`'s `manifest`."},
			"yaml":     computedStr("The same object as YAML."),
			"hpa_name": computedStr("Name of the HPA KEDA creates: the custom name or `keda-hpa-<name>`."),
			"effective": schema.ObjectAttribute{Computed: true, AttributeTypes: kedaEffectiveAttrTypes,
				MarkdownDescription: "KEDA's effective values: `min_replicas` (0 if unset), `hpa_min_replicas`, `max_replicas` (100 if unset), " +
					"`polling_interval_seconds`, `cooldown_period_seconds`, `initial_cooldown_period_seconds`, `target_api_version`, `target_kind`."},
			"summary": schema.ObjectAttribute{Computed: true, AttributeTypes: kedaSummaryAttrTypes,
				MarkdownDescription: "Input for `kubefit_capacity_check`'s `scaled_objects`: target, peak replicas, surge, minimum replicas and max surge (the floor and surge a remedy lowering the maximum counts with), pod requests, " +
					"zonal spread, connections, DNS lookups, node group, and the paused-replicas count with the maximum when that annotation sets the peak."},
		},
	}
}

func kedaContainersAttribute(desc string) schema.ListNestedAttribute {
	return schema.ListNestedAttribute{Optional: true, MarkdownDescription: desc,
		NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
			"name":           schema.StringAttribute{Required: true, MarkdownDescription: "Container name."},
			"requests":       kedaStrMap("Requests, quantities by resource name."),
			"limits":         kedaStrMap("Limits, quantities by resource name."),
			"restart_policy": kedaOptStr("`Always` for a sidecar (init containers only)."),
		}}}
}

// workloadAttributes are the planned scale target of an autoscaler (`target_workload`), never rendered.
func workloadAttributes() map[string]schema.Attribute {
	str := func(req bool, desc string) schema.StringAttribute {
		return schema.StringAttribute{Required: req, Optional: !req, MarkdownDescription: desc}
	}
	return map[string]schema.Attribute{
		"kind": str(false, "Workload kind; default the scale target's kind, else `Deployment`."),
		"pod_template": schema.SingleNestedAttribute{Optional: true, MarkdownDescription: "The pod template's resources.",
			Attributes: map[string]schema.Attribute{
				"containers":      kedaContainersAttribute("App containers."),
				"init_containers": kedaContainersAttribute("Init containers; `restart_policy = \"Always\"` marks a sidecar."),
				"pod_resources": schema.SingleNestedAttribute{Optional: true, MarkdownDescription: "Pod-level resources (KEP-2837).",
					Attributes: map[string]schema.Attribute{
						"requests": kedaStrMap("Quantities by resource name."),
						"limits":   kedaStrMap("Quantities by resource name."),
					}},
				"overhead": kedaStrMap("RuntimeClass overhead, quantities by resource name."),
			}},
		"rollout": schema.SingleNestedAttribute{Optional: true,
			MarkdownDescription: "Update strategy; a Deployment without it surges 25 %, an Argo `Rollout` as a blue-green rollout does (a preview ReplicaSet as large as the active one, `KCAP-W7`): for a canary give `RollingUpdate` with its max surge.",
			Attributes: map[string]schema.Attribute{
				"strategy":  str(false, "`RollingUpdate` (default) or `Recreate`."),
				"max_surge": str(false, "An integer or a percentage; default `25%`."),
			}},
		"topology_spread": schema.ListNestedAttribute{Optional: true, MarkdownDescription: "Topology spread constraints (zonal `DoNotSchedule` ones are checked, `KCAP-E3`).",
			NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
				"topology_key":       str(true, "Topology key."),
				"max_skew":           schema.Int64Attribute{Required: true, MarkdownDescription: "Maximum skew."},
				"when_unsatisfiable": str(true, "`DoNotSchedule` or `ScheduleAnyway`."),
			}}},
		"max_concurrency_per_pod": kedaOptInt("Requests one pod serves at once: its worker count (PHP-FPM `pm.max_children`, Gunicorn " +
			"`workers` × `threads`, Puma threads). With a `cpu` trigger kubefit checks that the pods can use enough CPU to cross the " +
			"target at all: a busy pod uses at most `max_concurrency_per_pod` × `cpu_per_busy_worker` (or its CPU limit, if lower); when " +
			"that is not above the target × (1 + the HPA's scale-up tolerance: `advanced.horizontal_pod_autoscaler_config.behavior.scale_up.tolerance` " +
			"where Kubernetes honours it, from 1.35, else 0.1), the utilization a whole percentage rounded down and sidecars counted in the request " +
			"as the HPA controller does, CPU scaling cannot trigger: `KCAP-E5` when `cpu` is the only " +
			"trigger, `KCAP-W3` otherwise. When `cpu` is the only trigger and it can trigger, `KCAP-W3` still warns that requests queue " +
			"for a free worker without raising CPU when the workers wait on I/O. Unset: only a CPU limit bounds a pod's use."),
		"cpu_per_busy_worker": str(false, "CPU one worker uses while it serves a request (a quantity, e.g. `30m` for a PHP worker that "+
			"mostly waits on a database), for the check of `max_concurrency_per_pod`. Default one core, which only catches structural "+
			"impossibilities (one worker per pod with a 2-core request): measure it (a saturated pod's CPU over its busy workers) and give it."),
		"connections_per_pod": kedaOptInt("Database connections one pod holds at peak."),
		"dns_lookups_per_second": schema.Float64Attribute{Optional: true,
			MarkdownDescription: "External DNS lookups per second per pod."},
	}
}

// databaseAttributes are a database an autoscaled workload's pods connect to (`database`).
func databaseAttributes() map[string]schema.Attribute {
	str := func(req bool, desc string) schema.StringAttribute {
		return schema.StringAttribute{Required: req, Optional: !req, MarkdownDescription: desc}
	}
	return map[string]schema.Attribute{
		"name": str(true, "Database name, quoted in diagnostics."),
		"max_connections": schema.Int64Attribute{Required: true, MarkdownDescription: "`max_connections` from the database's actual configuration, at least 1.",
			Validators: []validator.Int64{int64validator.AtLeast(1)}},
		"reserved_connections": schema.Int64Attribute{Optional: true, MarkdownDescription: "Connections reserved for administrators, at least 0 and below `max_connections`; default 0.",
			Validators: []validator.Int64{int64validator.AtLeast(0)}},
		"usable_fraction": schema.Float64Attribute{Optional: true,
			MarkdownDescription: "Share of the hard limit considered safe, between 0 and 1; default 0.5 (`KCAP-W2`).",
			Validators:          []validator.Float64{float64validator.Between(0, 1)}},
		"other_clients": schema.Int64Attribute{Optional: true, MarkdownDescription: "Connections of other clients, at least 0; default 0.",
			Validators: []validator.Int64{int64validator.AtLeast(0)}},
	}
}
