package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/hpa"
)

// hpaReferenceAttribute is a CrossVersionObjectReference: the scale target or an Object metric's object.
func hpaReferenceAttribute(desc, apiVersionDesc string) schema.SingleNestedAttribute {
	return schema.SingleNestedAttribute{Required: true, MarkdownDescription: desc, Attributes: map[string]schema.Attribute{
		"api_version": schema.StringAttribute{Required: true, MarkdownDescription: apiVersionDesc},
		"kind":        schema.StringAttribute{Required: true, MarkdownDescription: "Kind (`Deployment`, `StatefulSet`, …)."},
		"name":        schema.StringAttribute{Required: true, MarkdownDescription: "Name, in the HPA's namespace."},
	}}
}

// hpaTargetAttribute is a MetricTarget.
func hpaTargetAttribute(desc string) schema.SingleNestedAttribute {
	return schema.SingleNestedAttribute{Required: true, MarkdownDescription: desc + " (`HPA-E7`).", Attributes: map[string]schema.Attribute{
		"type": schema.StringAttribute{Required: true, MarkdownDescription: "Target type: " + markdownList(hpa.TargetTypes) + "."},
		"value": schema.StringAttribute{Optional: true,
			MarkdownDescription: "`value`, a positive quantity (`\"100\"`, `\"500m\"`): the metric's total (Object, External)."},
		"average_value": schema.StringAttribute{Optional: true,
			MarkdownDescription: "`averageValue`, a positive quantity: the metric per pod (Pods, External, Object, and a resource's raw use)."},
		"average_utilization": schema.Int64Attribute{Optional: true,
			MarkdownDescription: "`averageUtilization`, a percentage of the pods' request, ≥ 1 (Resource, ContainerResource; `HPA-E7`)."},
	}}
}

// hpaIdentifierAttribute is a MetricIdentifier.
func hpaIdentifierAttribute() schema.SingleNestedAttribute {
	return schema.SingleNestedAttribute{Required: true, MarkdownDescription: "The metric (`metric`, `HPA-E6`).", Attributes: map[string]schema.Attribute{
		"name": schema.StringAttribute{Required: true, MarkdownDescription: "Metric name, as the metrics adapter serves it."},
		"selector": schema.SingleNestedAttribute{Optional: true,
			MarkdownDescription: "Label selector of the metric's series; the API server does not check it, kubefit warns when the HPA controller could not use it (`HPA-W5`).",
			Attributes: map[string]schema.Attribute{
				"match_labels": kedaStrMap("`matchLabels`."),
				"match_expressions": schema.ListNestedAttribute{Optional: true, MarkdownDescription: "`matchExpressions`.",
					NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
						"key":      schema.StringAttribute{Required: true, MarkdownDescription: "Label key."},
						"operator": schema.StringAttribute{Required: true, MarkdownDescription: "`In`, `NotIn`, `Exists` or `DoesNotExist`."},
						"values":   schema.ListAttribute{Optional: true, ElementType: types.StringType, MarkdownDescription: "Values."},
					}}},
			}},
	}}
}

func hpaSourceAttribute(desc string, attrs map[string]schema.Attribute) schema.SingleNestedAttribute {
	return schema.SingleNestedAttribute{Optional: true, MarkdownDescription: desc, Attributes: attrs}
}

func (r *hpaResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	defer cacheResourceTypes(&resp.Schema)
	computedStr := func(desc string) schema.StringAttribute {
		return schema.StringAttribute{Computed: true, MarkdownDescription: desc}
	}
	workload := workloadAttributes()
	delete(workload, "max_concurrency_per_pod")
	delete(workload, "cpu_per_busy_worker")
	resp.Schema = schema.Schema{
		MarkdownDescription: "An `autoscaling/v2` `HorizontalPodAutoscaler` rendered offline (a typed `k8s.io/api` object, and YAML) and " +
			"checked at `terraform plan` against every rule the Kubernetes API server's validation applies to one, after its " +
			"defaulting (rule IDs `HPA-E1`…`HPA-E11`; the rules of Kubernetes 1.37, with its `HPAScaleToZero` feature gate): " +
			"kubefit accepts exactly the objects the API server accepts (tested against the API server's own decoding, defaulting " +
			"and validation code on 1,200 generated objects). Warnings `HPA-W1`…`HPA-W7` name what the API server admits but the HPA " +
			"controller cannot use. Every diagnostic sits on the attribute at fault and names its rule. With `target_workload` and " +
			"`node_group_capacity` (a `kubefit_node_group`'s `capacity`), the peak (`max_replicas`, plus the target's rollout surge) is " +
			"checked against the node group exactly as a `kubefit_keda_scaled_object`'s (`KCAP-E1`, `KCAP-E2`, `KCAP-W1`, zones " +
			"`KCAP-E3`); with `database`, its connections (`KCAP-E4`, `KCAP-W2`). Its `summary` goes to `kubefit_capacity_check`'s " +
			"`horizontal_pod_autoscalers`, which checks one autoscaler per target against ScaledObjects (KEDA creates an HPA of its own) " +
			"and other HPAs.\n\n" +
			"The resource is plan-only: it never contacts a cluster and cannot be imported (a name alone cannot reproduce its configuration). `manifest` is the object for `kubernetes_manifest`, `yaml` the same " +
			"object as YAML (`yamldecode(yaml) == manifest`). Unset fields are left out, never filled with the API server's defaults " +
			"(`effective` states those); quantities are written in their canonical form (`0.05` as `50m`). When an input is unknown at " +
			"plan time the rendered values are unknown (manifest keeps its known parts), and of the rules only the replica-count ones run.",
		Attributes: map[string]schema.Attribute{
			"id":          computedStr("`<namespace>/<name>`."),
			"name":        schema.StringAttribute{Required: true, MarkdownDescription: "HPA name: a DNS-1123 subdomain (`HPA-E1`)."},
			"namespace":   schema.StringAttribute{Required: true, MarkdownDescription: "Namespace, a DNS-1123 label (`HPA-E1`); the target is in it."},
			"labels":      kedaStrMap("Labels (`HPA-E1`)."),
			"annotations": kedaStrMap("Annotations (`HPA-E1`)."),
			"scale_target_ref": hpaReferenceAttribute("The scaled workload (`scaleTargetRef`, `HPA-E2`).",
				"`group/version` (`apps/v1`); only a `ReplicationController` may use the core group (`v1`)."),
			"min_replicas": kedaOptInt("`minReplicas`, ≥ 1; the API server assumes 1 (`HPA-E3`). 0 (scaling to zero) needs the `HPAScaleToZero` " +
				"feature gate (`scale_to_zero`) and an Object or External metric (`HPA-E8`)."),
			"max_replicas": schema.Int64Attribute{Required: true,
				MarkdownDescription: "`maxReplicas`, ≥ 1 and ≥ the minimum (`HPA-E4`). The peak checked against `node_group_capacity` and `database`."},
			"metrics": schema.ListNestedAttribute{Optional: true,
				MarkdownDescription: "`metrics`; when none is given the API server adds CPU at 80 % utilization (`HPA-W6`). Each sets `type` and the source of that type (`HPA-E5`).",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"type": schema.StringAttribute{Required: true, MarkdownDescription: "Metric source type: " + markdownList(hpa.MetricTypes) + "."},
					"resource": hpaSourceAttribute("A resource of the target's pods (`Resource`).", map[string]schema.Attribute{
						"name":   schema.StringAttribute{Required: true, MarkdownDescription: "`cpu` or `memory` (others warn, `HPA-W4`)."},
						"target": hpaTargetAttribute("`averageUtilization` or `averageValue`"),
					}),
					"container_resource": hpaSourceAttribute("A resource of one container of the target's pods (`ContainerResource`).", map[string]schema.Attribute{
						"name":      schema.StringAttribute{Required: true, MarkdownDescription: "A container resource: `cpu`, `memory`, `ephemeral-storage`, `hugepages-<size>` or an extended resource (`HPA-E6`)."},
						"container": schema.StringAttribute{Required: true, MarkdownDescription: "Container name, a DNS-1123 label."},
						"target":    hpaTargetAttribute("`averageUtilization` or `averageValue`"),
					}),
					"pods": hpaSourceAttribute("A metric averaged over the target's pods (`Pods`).", map[string]schema.Attribute{
						"metric": hpaIdentifierAttribute(),
						"target": hpaTargetAttribute("`averageValue`"),
					}),
					"object": hpaSourceAttribute("A metric of one object, such as an Ingress (`Object`).", map[string]schema.Attribute{
						"described_object": hpaReferenceAttribute("The object (`describedObject`, `HPA-E6`).", "`group/version`, or `v1`."),
						"metric":           hpaIdentifierAttribute(),
						"target":           hpaTargetAttribute("`value` (type `Value`) or `averageValue` (type `AverageValue`)"),
					}),
					"external": hpaSourceAttribute("A metric from outside the cluster, such as a queue's length (`External`).", map[string]schema.Attribute{
						"metric": hpaIdentifierAttribute(),
						"target": hpaTargetAttribute("`value` or `averageValue`, not both"),
					}),
				}}},
			"behavior": schema.SingleNestedAttribute{Optional: true,
				MarkdownDescription: "`behavior`; unset rules get the API server's defaults.",
				Attributes: map[string]schema.Attribute{
					"scale_up":   hpaRulesAttribute("`scaleUp`."),
					"scale_down": hpaRulesAttribute("`scaleDown`."),
				}},
			"kubernetes_version": schema.StringAttribute{Optional: true, MarkdownDescription: "Kubernetes version whose feature-gate " +
				"defaults apply, `" + hpa.MinKubernetesVersion + "` … `" + hpa.DefaultKubernetesVersion + "`; default `" + hpa.DefaultKubernetesVersion +
				"`. Below 1.37 `HPAScaleToZero` is off by default; below 1.35 a tolerance is dropped (`HPA-W1`)."},
			"scale_to_zero": kedaOptBool("The cluster's `HPAScaleToZero` feature gate (allows `min_replicas = 0`); default: on from 1.37, off before."),
			"target_workload": schema.SingleNestedAttribute{Optional: true,
				MarkdownDescription: "The planned target workload (never rendered): enables the request warning (`HPA-W7`) and the capacity checks.",
				Attributes:          workload},
			"node_group_capacity": schema.SingleNestedAttribute{Optional: true,
				MarkdownDescription: "The node group the target runs on: a `kubefit_node_group`'s `capacity` output. When a `kubefit_capacity_check` reads this object's `summary`, a failure here makes Terraform skip that check: leave the group to the check instead (`node_group_of`) and every finding comes in one plan.",
				Attributes:          nodeGroupCapacityAttributes(capacityFailuresIgnored)},
			"database": schema.SingleNestedAttribute{Optional: true,
				MarkdownDescription: "A database the target's pods connect to (`KCAP-E4`, `KCAP-W2`); share one between several autoscalers with `kubefit_capacity_check`. A failure here makes Terraform skip a `kubefit_capacity_check` that reads `summary`: list this autoscaler among the check's `databases[*].clients` instead to get every finding in one plan.",
				Attributes:          databaseAttributes()},
			"manifest": schema.DynamicAttribute{Computed: true,
				MarkdownDescription: "The HPA as an object, for `kubernetes_manifest`'s `manifest`."},
			"yaml": computedStr("The same object as YAML."),
			"effective": schema.ObjectAttribute{Computed: true, AttributeTypes: hpaEffectiveAttrTypes,
				MarkdownDescription: "What the API server assumes: `min_replicas` (1 if unset), `max_replicas`, `default_metric` (no metric " +
					"given: CPU at 80 %), `scale_to_zero` (the feature gate the rules assumed)."},
			"summary": schema.ObjectAttribute{Computed: true, AttributeTypes: hpaSummaryAttrTypes,
				MarkdownDescription: "Input for `kubefit_capacity_check`'s `horizontal_pod_autoscalers`: target, peak replicas, surge, minimum replicas and max surge (the floor and surge a remedy lowering the maximum counts with), pod " +
					"requests, zonal spread, connections, DNS lookups, node group."},
		},
	}
}

func hpaRulesAttribute(desc string) schema.SingleNestedAttribute {
	return schema.SingleNestedAttribute{Optional: true, MarkdownDescription: desc, Attributes: map[string]schema.Attribute{
		"stabilization_window_seconds": kedaOptInt("`stabilizationWindowSeconds`: 0–3,600 (`HPA-E9`)."),
		"select_policy":                kedaOptStr("`selectPolicy`: " + markdownList(hpa.SelectPolicies) + " (`HPA-E9`)."),
		"policies": schema.ListNestedAttribute{Optional: true,
			MarkdownDescription: "Scaling policies (`HPA-E10`); an empty list is left out, so the defaults apply (`HPA-W2`).",
			NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
				"type":           schema.StringAttribute{Required: true, MarkdownDescription: markdownList(hpa.PolicyTypes) + "."},
				"value":          schema.Int64Attribute{Required: true, MarkdownDescription: "Greater than 0."},
				"period_seconds": schema.Int64Attribute{Required: true, MarkdownDescription: "1–1,800 (`HPA-E10`)."},
			}}},
		"tolerance": kedaOptStr("`tolerance`, a non-negative quantity (`\"0.05\"`, `HPA-E11`); Kubernetes 1.35+ (`HPA-W1`)."),
	}}
}
