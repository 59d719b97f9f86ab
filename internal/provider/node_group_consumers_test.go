package provider

import (
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// The input attributes of one node group in each community module, as their variables.tf declare them:
// terraform-aws-modules/eks v21.19.0 (bef29c4d) eks_managed_node_groups' object type, and Azure/aks 11.5.0
// (e29456ed) node_pools' object type (the attributes kubefit may set; both types have more).
var (
	eksModuleV21Attributes = []string{"create", "kubernetes_version", "name", "use_name_prefix", "subnet_ids", "min_size", "max_size",
		"desired_size", "ami_id", "ami_type", "ami_release_version", "use_latest_ami_release_version", "capacity_type", "disk_size",
		"force_update_version", "instance_types", "labels", "taints", "update_config", "create_launch_template", "use_custom_launch_template",
		"block_device_mappings", "instance_market_options", "bootstrap_extra_args", "cloudinit_pre_nodeadm", "tags"}
	aksModuleV11Attributes = []string{"name", "node_count", "tags", "vm_size", "auto_scaling_enabled", "host_encryption_enabled", "eviction_policy",
		"max_count", "max_pods", "mode", "min_count", "node_labels", "node_taints", "orchestrator_version", "os_disk_size_gb", "os_disk_type",
		"os_sku", "os_type", "priority", "spot_max_price", "zones", "create_before_destroy", "temporary_name_for_rotation"}
)

// TestModuleShapesAreTheModules: every attribute of eks_module_node_group and aks_module_node_pool is an input
// the module declares, so `eks_managed_node_groups = { web = kubefit_node_group.web.eks_module_node_group }` and
// `node_pools = { user = kubefit_node_group.user.aks_module_node_pool }` need no glue; gke_module_node_pool's
// node_pool is a flat map of strings, as kubernetes-engine's list(map(any)) needs.
func TestModuleShapesAreTheModules(t *testing.T) {
	for _, tc := range []struct {
		name  string
		types map[string]attr.Type
		input []string
	}{{"eks_module_node_group", eksModuleAttrTypes, eksModuleV21Attributes}, {"aks_module_node_pool", aksModuleAttrTypes, aksModuleV11Attributes}} {
		var keys []string
		for k := range tc.types {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if !slices.Contains(tc.input, k) {
				t.Errorf("%s.%s is not an input of the module", tc.name, k)
			}
		}
	}
	if gkeModuleAttrTypes["node_pool"].String() != "types.MapType[basetypes.StringType]" {
		t.Errorf("gke_module_node_pool.node_pool is %s, want a map of strings", gkeModuleAttrTypes["node_pool"])
	}
}

// TestWarnAKSRotation: a change of vm_size, max_pods, os_disk_size_gb or zones warns about
// temporary_name_for_rotation, naming the change; other changes (node_count) and a first plan do not.
func TestWarnAKSRotation(t *testing.T) {
	pool := func(vm string, count int64) types.Object {
		v := map[string]attr.Value{}
		for k, ty := range aksNodePoolAttrTypes {
			switch ty {
			case types.StringType:
				v[k] = types.StringNull()
			case types.Int64Type:
				v[k] = types.Int64Null()
			case types.BoolType:
				v[k] = types.BoolNull()
			case types.Float64Type:
				v[k] = types.Float64Null()
			default:
				switch tt := ty.(type) {
				case types.ListType:
					v[k] = types.ListNull(tt.ElemType)
				case types.MapType:
					v[k] = types.MapNull(tt.ElemType)
				}
			}
		}
		v["vm_size"], v["node_count"] = types.StringValue(vm), types.Int64Value(count)
		return types.ObjectValueMust(aksNodePoolAttrTypes, v)
	}
	var d diag.Diagnostics
	warnAKSRotation(pool("Standard_D4s_v5", 3), pool("Standard_D4s_v5", 5), &d)
	warnAKSRotation(types.ObjectNull(aksNodePoolAttrTypes), pool("Standard_D4s_v5", 5), &d)
	if d.WarningsCount() != 0 {
		t.Errorf("warned without a rotating change: %v", d)
	}
	warnAKSRotation(pool("Standard_D4s_v5", 3), pool("Standard_D8s_v5", 3), &d)
	if d.WarningsCount() != 1 || !strings.Contains(d.Warnings()[0].Detail(), `vm_size ("Standard_D4s_v5" → "Standard_D8s_v5")`) ||
		!strings.Contains(d.Warnings()[0].Detail(), "temporary_name_for_rotation") {
		t.Errorf("vm_size change: %v", d)
	}
}

// The arguments of the three resources kubefit's shapes are written for, as their schemas declare them
// (hashicorp/terraform-provider-aws internal/service/eks/node_group.go at 012e0a32; terraform-provider-azurerm
// internal/services/containers/kubernetes_cluster_node_pool_resource.go at 69697b7f; terraform-provider-google
// google/services/container/resource_container_node_pool.go and node_config.go at e03b7622), with the blocks'
// own arguments.
var consumerArguments = map[string][]string{
	"aws_eks_node_group": {"instance_types", "labels", "taint", "scaling_config", "disk_size", "ami_type", "capacity_type", "launch_template",
		"remote_access", "update_config", "cluster_name", "node_role_arn", "subnet_ids", "node_group_name", "release_version", "version"},
	"aws_eks_node_group.scaling_config": {"desired_size", "min_size", "max_size"},
	"aws_eks_node_group.taint":          {"key", "value", "effect"},
	"azurerm_kubernetes_cluster_node_pool": {"name", "kubernetes_cluster_id", "vm_size", "node_count", "auto_scaling_enabled", "min_count", "max_count",
		"max_pods", "node_labels", "node_taints", "os_disk_size_gb", "os_type", "os_sku", "zones", "priority", "eviction_policy", "spot_max_price",
		"temporary_name_for_rotation", "mode"},
	"google_container_node_pool": {"name", "cluster", "location", "node_count", "initial_node_count", "node_locations", "max_pods_per_node",
		"autoscaling", "node_config", "management", "upgrade_settings", "version"},
	"google_container_node_pool.autoscaling":       {"min_node_count", "max_node_count", "total_min_node_count", "total_max_node_count", "location_policy"},
	"google_container_node_pool.node_config":       {"machine_type", "disk_size_gb", "disk_type", "labels", "taint", "spot", "preemptible", "image_type"},
	"google_container_node_pool.node_config.taint": {"key", "value", "effect"},
}

// TestResourceShapesAreTheProviders: every attribute of eks_node_group, aks_node_pool and gke_node_pool, nested
// ones included, is an argument of the consumer resource (or of its block) by the same name; GKE's node_count is
// never among them (it must not be set beside autoscaling).
func TestResourceShapesAreTheProviders(t *testing.T) {
	var check func(resource string, types map[string]attr.Type)
	check = func(resource string, ts map[string]attr.Type) {
		for k, ty := range ts {
			if !slices.Contains(consumerArguments[resource], k) {
				t.Errorf("%s has no argument %s", resource, k)
			}
			switch tt := ty.(type) {
			case types.ObjectType:
				check(resource+"."+k, tt.AttrTypes)
			case types.ListType:
				if ot, ok := tt.ElemType.(types.ObjectType); ok {
					check(resource+"."+k, ot.AttrTypes)
				}
			}
		}
	}
	check("aws_eks_node_group", eksNodeGroupAttrTypes)
	check("azurerm_kubernetes_cluster_node_pool", aksNodePoolAttrTypes)
	check("google_container_node_pool", gkeNodePoolAttrTypes)
	if _, ok := gkeNodePoolAttrTypes["node_count"]; ok {
		t.Error("gke_node_pool emits node_count beside autoscaling")
	}
}
