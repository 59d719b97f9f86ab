package provider

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
)

// TestKEDAAttributePaths maps the planner paths the keda rules report to attributes that exist in the
// resources' schemas.
func TestKEDAAttributePaths(t *testing.T) {
	ctx := context.Background()
	var so, cc resource.SchemaResponse
	newKEDAScaledObjectResource().Schema(ctx, resource.SchemaRequest{}, &so)
	newCapacityCheckResource().Schema(ctx, resource.SchemaRequest{}, &cc)
	tests := []struct {
		schema *resource.SchemaResponse
		names  renames
		p      field.Path
		want   string
	}{
		{&so, kedaRenames, field.NewPath("Triggers").At(0).Child("Metadata").Key("threshold"), `triggers[0].metadata["threshold"]`},
		{&so, kedaRenames, field.NewPath("Advanced", "HorizontalPodAutoscalerConfig", "Behavior", "ScaleUp").Child("Policies").At(0).Child("PeriodSeconds"),
			"advanced.horizontal_pod_autoscaler_config.behavior.scale_up.policies[0].period_seconds"},
		{&so, kedaRenames, field.NewPath("Advanced", "ScalingModifiers", "ActivationTarget"), "advanced.scaling_modifiers.activation_target"},
		{&so, kedaRenames, field.NewPath("ScaleTargetRef", "APIVersion"), "scale_target_ref.api_version"},
		{&so, kedaRenames, field.NewPath("Triggers").At(1).Child("AuthenticationRef", "Kind"), "triggers[1].authentication_ref.kind"},
		{&so, kedaRenames, field.NewPath("Triggers").At(1).Child("UseCachedMetrics"), "triggers[1].use_cached_metrics"},
		{&so, kedaRenames, field.NewPath("Fallback", "FailureThreshold"), "fallback.failure_threshold"},
		{&so, kedaRenames, field.NewPath("KEDAVersion"), "keda_version"},
		{&so, kedaRenames, field.NewPath("KubernetesVersion"), "kubernetes_version"},
		{&so, kedaRenames, field.NewPath("Annotations").Key("autoscaling.keda.sh/paused-replicas"), `annotations["autoscaling.keda.sh/paused-replicas"]`},
		{&so, kedaRenames, field.NewPath("TargetWorkload", "PodTemplate").Child("Containers").At(0).Child("Requests").Key("cpu"),
			`target_workload.pod_template.containers[0].requests["cpu"]`},
		{&so, kedaRenames, field.NewPath("TargetWorkload", "CPUPerBusyWorker"), "target_workload.cpu_per_busy_worker"},
		{&so, kedaRenames, field.NewPath("TargetWorkload", "TopologySpread").At(0), "target_workload.topology_spread[0]"},
		{&so, kedaRenames, field.NewPath("TargetWorkload", "Rollout", "MaxSurge"), "target_workload.rollout.max_surge"},
		{&so, kedaRenames, field.NewPath("NodeGroupCapacity", "WorkloadAllocatable", "CPUMillicores"), "node_group_capacity.workload_allocatable.cpu_millicores"},
		{&so, kedaRenames, field.NewPath("NodeGroupCapacity", "MaxNodesPerZone"), "node_group_capacity.max_nodes_per_zone"},
		{&so, kedaRenames, field.NewPath("IdleReplicaCount"), "idle_replica_count"},
		{&cc, capacityCheckRenames, field.NewPath("ExistingHPAs").At(0), "existing_hpas[0]"},
		{&cc, capacityCheckRenames, field.NewPath("ScaledObjects").At(1).Child("PeakReplicas"), "scaled_objects[1].peak_replicas"},
		{&cc, capacityCheckRenames, field.NewPath("NodeGroups").At(0).Child("WorkloadPods"), "node_groups[0].workload_pods"},
		{&cc, capacityCheckRenames, field.NewPath("Databases").At(0).Child("Clients").At(1), "databases[0].clients[1]"},
		{&cc, capacityCheckRenames, field.NewPath("DNS"), "dns"},
	}
	for _, tt := range tests {
		p := attributePath(path.Empty(), tt.p, tt.names)
		if got := p.String(); got != tt.want {
			t.Errorf("%s → %s, want %s", tt.p, got, tt.want)
			continue
		}
		// An element (list index, map key) has no attribute of its own: check the attribute holding it.
		for len(p.Steps()) > 0 {
			last, _ := p.Steps().LastStep()
			if _, isAttr := last.(path.PathStepAttributeName); isAttr {
				break
			}
			p = p.ParentPath()
		}
		if _, d := tt.schema.Schema.AttributeAtPath(ctx, p); d.HasError() {
			t.Errorf("%s is not in the schema: %v", p, d)
		}
	}
}
