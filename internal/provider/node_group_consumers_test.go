package provider

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// tfType is a Terraform type as a module's variables.tf or a provider's schema declares it: string, number,
// bool, any, list, set, map (elem) or object (attrs).
type tfType struct {
	kind  string
	elem  *tfType
	attrs map[string]tfAttr
}

// tfAttr is an attribute of a module's object type (optional() or not) or an argument of a provider's schema;
// block is how the provider takes a nested Resource: "single" (a block of MaxItems 1, which kubefit emits as an
// object) or "repeated" (which kubefit emits as a list of objects, for a dynamic block); "" is an attribute.
type tfAttr struct {
	t        tfType
	optional bool
	block    string
}

var (
	tfString = tfType{kind: "string"}
	tfNumber = tfType{kind: "number"}
	tfBool   = tfType{kind: "bool"}
	tfAny    = tfType{kind: "any"}
)

func tfList(e tfType) tfType                  { return tfType{kind: "list", elem: &e} }
func tfSet(e tfType) tfType                   { return tfType{kind: "set", elem: &e} }
func tfMap(e tfType) tfType                   { return tfType{kind: "map", elem: &e} }
func tfObject(attrs map[string]tfAttr) tfType { return tfType{kind: "object", attrs: attrs} }
func req(t tfType) tfAttr                     { return tfAttr{t: t} }
func opt(t tfType) tfAttr                     { return tfAttr{t: t, optional: true} }
func single(req bool, a map[string]tfAttr) tfAttr {
	return tfAttr{t: tfObject(a), optional: !req, block: "single"}
}
func repeated(a map[string]tfAttr) tfAttr {
	return tfAttr{t: tfObject(a), optional: true, block: "repeated"}
}

// conforms lists how a kubefit type t fails to convert to the declared type d unchanged: a primitive of another
// kind, a collection of another kind, an object attribute d does not declare (Terraform drops it silently) or a
// required attribute of d that t lacks. In a provider schema (blocks true) an object must be a single block and a
// list of objects a repeated one, and every other argument an attribute.
func conforms(at string, t attr.Type, d tfType, blocks bool) []string {
	bad := func(format string, args ...any) []string { return []string{at + ": " + fmt.Sprintf(format, args...)} }
	switch d.kind {
	case "any":
		return nil
	case "string", "number", "bool":
		want := map[string][]attr.Type{"string": {types.StringType}, "number": {types.Int64Type, types.Float64Type}, "bool": {types.BoolType}}[d.kind]
		if !slices.ContainsFunc(want, t.Equal) {
			return bad("kubefit emits %s, the consumer takes %s", t, d.kind)
		}
		return nil
	case "list", "set":
		lt, ok := t.(types.ListType)
		if !ok {
			return bad("kubefit emits %s, the consumer takes a %s", t, d.kind)
		}
		return conforms(at+"[*]", lt.ElemType, *d.elem, blocks)
	case "map":
		mt, ok := t.(types.MapType)
		if !ok {
			return bad("kubefit emits %s, the consumer takes a map", t)
		}
		return conforms(at+"[*]", mt.ElemType, *d.elem, blocks)
	}
	ot, ok := t.(types.ObjectType)
	if !ok {
		return bad("kubefit emits %s, the consumer takes an object", t)
	}
	var out []string
	for _, k := range slices.Sorted(maps.Keys(ot.AttrTypes)) {
		a, ok := d.attrs[k]
		if !ok {
			out = append(out, at+"."+k+": not declared by the consumer")
			continue
		}
		ty := ot.AttrTypes[k]
		if blocks {
			kind := ""
			if _, ok := ty.(types.ObjectType); ok {
				kind = "single"
			} else if lt, ok := ty.(types.ListType); ok {
				if _, ok := lt.ElemType.(types.ObjectType); ok {
					kind = "repeated"
				}
			}
			if kind != a.block {
				out = append(out, fmt.Sprintf("%s.%s: kubefit's shape fits a %q block, the consumer's argument is a %q block (\"\" is an attribute)", at, k, kind, a.block))
				continue
			}
			if kind == "repeated" {
				out = append(out, conforms(at+"."+k+"[*]", ty.(types.ListType).ElemType, a.t, blocks)...)
				continue
			}
		}
		out = append(out, conforms(at+"."+k, ty, a.t, blocks)...)
	}
	for _, k := range slices.Sorted(maps.Keys(d.attrs)) {
		if _, ok := ot.AttrTypes[k]; !ok && !d.attrs[k].optional {
			out = append(out, at+"."+k+": required by the consumer, not emitted")
		}
	}
	return out
}

// One node group in each community module, as its variables.tf declares it (the attributes kubefit may set, with
// their nested types; the real types have more): terraform-aws-modules/eks v21.19.0 (bef29c4d)
// eks_managed_node_groups' object type, Azure/aks 11.5.0 (e29456ed) node_pools' object type, and
// terraform-google-modules/kubernetes-engine v44.2.0 (64321800) node_pools (list(map(any))), node_pools_labels
// (map(map(string))) and node_pools_taints (map(list(object({key = string, value = string, effect = string})))),
// each an element of the variable.
var (
	eksModuleV21NodeGroup = tfObject(map[string]tfAttr{
		"create": opt(tfBool), "kubernetes_version": opt(tfString), "name": opt(tfString), "use_name_prefix": opt(tfBool),
		"subnet_ids": opt(tfList(tfString)), "min_size": opt(tfNumber), "max_size": opt(tfNumber), "desired_size": opt(tfNumber),
		"ami_id": opt(tfString), "ami_type": opt(tfString), "ami_release_version": opt(tfString), "use_latest_ami_release_version": opt(tfBool),
		"capacity_type": opt(tfString), "disk_size": opt(tfNumber), "force_update_version": opt(tfBool), "instance_types": opt(tfList(tfString)),
		"labels": opt(tfMap(tfString)),
		"taints": opt(tfMap(tfObject(map[string]tfAttr{"key": req(tfString), "value": opt(tfString), "effect": req(tfString)}))),
		"update_config": opt(tfObject(map[string]tfAttr{"max_unavailable": opt(tfNumber), "max_unavailable_percentage": opt(tfNumber),
			"update_strategy": opt(tfString)})),
		"bootstrap_extra_args": opt(tfString),
		"cloudinit_pre_nodeadm": opt(tfList(tfObject(map[string]tfAttr{"content": req(tfString), "content_type": opt(tfString),
			"filename": opt(tfString), "merge_type": opt(tfString)}))),
		"create_launch_template": opt(tfBool), "use_custom_launch_template": opt(tfBool),
		"block_device_mappings": opt(tfMap(tfObject(map[string]tfAttr{
			"device_name": opt(tfString),
			"ebs": opt(tfObject(map[string]tfAttr{"delete_on_termination": opt(tfBool), "encrypted": opt(tfBool), "iops": opt(tfNumber),
				"kms_key_id": opt(tfString), "snapshot_id": opt(tfString), "throughput": opt(tfNumber), "volume_initialization_rate": opt(tfNumber),
				"volume_size": opt(tfNumber), "volume_type": opt(tfString)})),
			"no_device": opt(tfString), "virtual_name": opt(tfString)}))),
		"instance_market_options": opt(tfObject(map[string]tfAttr{"market_type": opt(tfString)})),
		"tags":                    opt(tfMap(tfString)),
	})
	aksModuleV11NodePool = tfObject(map[string]tfAttr{
		"name": req(tfString), "node_count": opt(tfNumber), "tags": opt(tfMap(tfString)), "vm_size": req(tfString),
		"auto_scaling_enabled": opt(tfBool), "host_encryption_enabled": opt(tfBool), "eviction_policy": opt(tfString), "max_count": opt(tfNumber),
		"max_pods": opt(tfNumber), "mode": opt(tfString), "min_count": opt(tfNumber), "node_labels": opt(tfMap(tfString)),
		"node_taints": opt(tfList(tfString)), "orchestrator_version": opt(tfString), "os_disk_size_gb": opt(tfNumber), "os_disk_type": opt(tfString),
		"os_sku": opt(tfString), "os_type": opt(tfString), "priority": opt(tfString), "spot_max_price": opt(tfNumber), "zones": opt(tfSet(tfString)),
		"create_before_destroy": opt(tfBool), "temporary_name_for_rotation": opt(tfString),
		"upgrade_settings": opt(tfObject(map[string]tfAttr{"drain_timeout_in_minutes": opt(tfNumber), "node_soak_duration_in_minutes": opt(tfNumber),
			"max_surge": opt(tfString), "max_unavailable": opt(tfString), "undrainable_node_behavior": opt(tfString)})),
	})
	gkeModuleV44Pool = tfObject(map[string]tfAttr{
		"node_pool": req(tfMap(tfAny)), "labels": req(tfMap(tfString)),
		"taints": req(tfList(tfObject(map[string]tfAttr{"key": req(tfString), "value": req(tfString), "effect": req(tfString)}))),
	})
)

// TestModuleShapesAreTheModules: eks_module_node_group and aks_module_node_pool convert to an element of the
// module's variable unchanged (every attribute, nested ones included, is declared by the module with a type it
// converts to, and every attribute the module requires is emitted), so `eks_managed_node_groups = { web =
// kubefit_node_group.web.eks_module_node_group }` and `node_pools = { user = kubefit_node_group.user.aks_module_node_pool }`
// need no glue; gke_module_node_pool's node_pool is a flat map of strings, as kubernetes-engine's list(map(any))
// needs, and its labels and taints are elements of node_pools_labels and node_pools_taints.
func TestModuleShapesAreTheModules(t *testing.T) {
	for _, tc := range []struct {
		name  string
		types map[string]attr.Type
		input tfType
	}{
		{"eks_module_node_group", eksModuleAttrTypes, eksModuleV21NodeGroup},
		{"aks_module_node_pool", aksModuleAttrTypes, aksModuleV11NodePool},
		{"gke_module_node_pool", gkeModuleAttrTypes, gkeModuleV44Pool},
	} {
		for _, e := range conforms(tc.name, types.ObjectType{AttrTypes: tc.types}, tc.input, false) {
			t.Error(e)
		}
	}
	if gkeModuleAttrTypes["node_pool"].String() != "types.MapType[basetypes.StringType]" {
		t.Errorf("gke_module_node_pool.node_pool is %s, want a map of strings", gkeModuleAttrTypes["node_pool"])
	}
	// The checker itself: a nested attribute the module does not declare, one of another type, a missing
	// required one, and a set where the module takes a number are caught.
	for _, tc := range []struct {
		t attr.Type
		d tfType
	}{
		{types.ObjectType{AttrTypes: map[string]attr.Type{"taints": types.MapType{ElemType: types.ObjectType{AttrTypes: map[string]attr.Type{"key": types.StringType, "effect": types.StringType, "operator": types.StringType}}}}}, eksModuleV21NodeGroup},
		{types.ObjectType{AttrTypes: map[string]attr.Type{"taints": types.MapType{ElemType: types.ObjectType{AttrTypes: map[string]attr.Type{"value": types.StringType, "effect": types.StringType}}}}}, eksModuleV21NodeGroup},
		{types.ObjectType{AttrTypes: map[string]attr.Type{"cloudinit_pre_nodeadm": types.ListType{ElemType: types.ObjectType{AttrTypes: map[string]attr.Type{"content": types.Int64Type}}}}}, eksModuleV21NodeGroup},
		{types.ObjectType{AttrTypes: map[string]attr.Type{"name": types.StringType, "vm_size": types.StringType, "max_pods": types.ListType{ElemType: types.Int64Type}}}, aksModuleV11NodePool},
	} {
		if len(conforms("x", tc.t, tc.d, false)) == 0 {
			t.Errorf("the checker accepts %s", tc.t)
		}
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
				case types.ObjectType:
					v[k] = types.ObjectNull(tt.AttrTypes)
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
		!strings.Contains(d.Warnings()[0].Detail(), "temporary_name_for_rotation") || !strings.Contains(d.Warnings()[0].Detail(), "aks_module_node_pool") {
		t.Errorf("vm_size change: %v", d)
	}
	with := func(o types.Object, k string, v attr.Value) types.Object {
		a := o.Attributes()
		a[k] = v
		return types.ObjectValueMust(aksNodePoolAttrTypes, a)
	}
	base := pool("Standard_D4s_v5", 3)
	base = with(with(with(base, "max_pods", types.Int64Value(30)), "os_disk_size_gb", types.Int64Value(128)), "zones", stringList([]string{"1", "2"}))
	for _, tc := range []struct {
		name, key string
		value     attr.Value
		want      string
	}{
		{"max_pods", "max_pods", types.Int64Value(50), "max_pods (30 → 50)"},
		{"os_disk_size_gb", "os_disk_size_gb", types.Int64Value(256), "os_disk_size_gb (128 → 256)"},
		{"zones", "zones", stringList([]string{"1", "2", "3"}), `zones (["1","2"] → ["1","2","3"])`},
		{"temporary name alone", "temporary_name_for_rotation", types.StringValue("usertmp0000"), ""},
	} {
		var d diag.Diagnostics
		warnAKSRotation(base, with(base, tc.key, tc.value), &d)
		switch {
		case tc.want == "" && d.WarningsCount() != 0:
			t.Errorf("%s: warned: %v", tc.name, d)
		case tc.want != "" && (d.WarningsCount() != 1 || !strings.Contains(d.Warnings()[0].Detail(), tc.want)):
			t.Errorf("%s: %v; want a warning naming %s", tc.name, d, tc.want)
		}
	}
}

// The arguments of the three resources kubefit's shapes are written for, as their schemas declare them, with
// their types and whether a nested Resource is a single block (MaxItems 1) or a repeated one:
// hashicorp/terraform-provider-aws internal/service/eks/node_group.go at 012e0a32 (scaling_config a required
// single block, taint a repeated block of key, optional value, effect); terraform-provider-azurerm
// internal/services/containers/kubernetes_cluster_node_pool_resource.go at 69697b7f (zones a set, node_taints a
// list, spot_max_price a float, upgrade_settings a single block of drain_timeout_in_minutes and
// node_soak_duration_in_minutes; its max_surge and max_unavailable, strings, are the shape since v4.53.0 (CHANGELOG:
// "support for the `undrainable_node_behavior` and `max_unavailable` properties", #30563: max_surge optional and
// computed, ConflictsWith max_unavailable)); terraform-provider-google google/services/container/resource_container_node_pool.go
// and node_config.go at e03b7622 (autoscaling and node_config single blocks, node_config.taint a repeated block of
// required key, value and effect, node_locations a set; upgrade_settings a single block of max_surge and
// max_unavailable, both integers); node_config.guest_accelerator from node_config.go at 00b984c6 (a list without
// MaxItems, so a repeated block, of required type and count, optional gpu_partition_size, and the single blocks
// gpu_driver_installation_config, of a required gpu_driver_version, and gpu_sharing_config, of a required
// gpu_sharing_strategy and max_shared_clients_per_gpu). Top-level required arguments (cluster_name, ...) are the
// user's.
var consumerSchemas = map[string]tfType{
	"aws_eks_node_group": tfObject(map[string]tfAttr{
		"instance_types": opt(tfList(tfString)), "labels": opt(tfMap(tfString)), "disk_size": opt(tfNumber), "ami_type": opt(tfString),
		"capacity_type": opt(tfString), "cluster_name": opt(tfString), "node_role_arn": opt(tfString), "subnet_ids": opt(tfSet(tfString)),
		"node_group_name": opt(tfString), "release_version": opt(tfString), "version": opt(tfString),
		"scaling_config":  single(true, map[string]tfAttr{"desired_size": req(tfNumber), "min_size": req(tfNumber), "max_size": req(tfNumber)}),
		"taint":           repeated(map[string]tfAttr{"key": req(tfString), "value": opt(tfString), "effect": req(tfString)}),
		"launch_template": single(false, map[string]tfAttr{"id": opt(tfString), "name": opt(tfString), "version": req(tfString)}),
		"update_config":   single(false, map[string]tfAttr{"max_unavailable": opt(tfNumber), "max_unavailable_percentage": opt(tfNumber)}),
	}),
	"azurerm_kubernetes_cluster_node_pool": tfObject(map[string]tfAttr{
		"name": opt(tfString), "kubernetes_cluster_id": opt(tfString), "vm_size": opt(tfString), "node_count": opt(tfNumber),
		"auto_scaling_enabled": opt(tfBool), "min_count": opt(tfNumber), "max_count": opt(tfNumber), "max_pods": opt(tfNumber),
		"node_labels": opt(tfMap(tfString)), "node_taints": opt(tfList(tfString)), "os_disk_size_gb": opt(tfNumber), "os_type": opt(tfString),
		"os_sku": opt(tfString), "zones": opt(tfSet(tfString)), "priority": opt(tfString), "eviction_policy": opt(tfString),
		"spot_max_price": opt(tfNumber), "temporary_name_for_rotation": opt(tfString), "mode": opt(tfString),
		"upgrade_settings": single(false, map[string]tfAttr{"max_surge": opt(tfString), "max_unavailable": opt(tfString),
			"undrainable_node_behavior": opt(tfString), "drain_timeout_in_minutes": opt(tfNumber), "node_soak_duration_in_minutes": opt(tfNumber)}),
	}),
	"google_container_node_pool": tfObject(map[string]tfAttr{
		"name": opt(tfString), "cluster": opt(tfString), "location": opt(tfString), "node_count": opt(tfNumber), "initial_node_count": opt(tfNumber),
		"node_locations": opt(tfSet(tfString)), "max_pods_per_node": opt(tfNumber), "version": opt(tfString),
		"autoscaling": single(false, map[string]tfAttr{"min_node_count": opt(tfNumber), "max_node_count": opt(tfNumber),
			"total_min_node_count": opt(tfNumber), "total_max_node_count": opt(tfNumber), "location_policy": opt(tfString)}),
		"node_config": single(false, map[string]tfAttr{"machine_type": opt(tfString), "disk_size_gb": opt(tfNumber), "disk_type": opt(tfString),
			"labels": opt(tfMap(tfString)), "spot": opt(tfBool), "preemptible": opt(tfBool), "image_type": opt(tfString),
			"taint": repeated(map[string]tfAttr{"key": req(tfString), "value": req(tfString), "effect": req(tfString)}),
			"guest_accelerator": repeated(map[string]tfAttr{"type": req(tfString), "count": req(tfNumber), "gpu_partition_size": opt(tfString),
				"gpu_driver_installation_config": single(false, map[string]tfAttr{"gpu_driver_version": req(tfString)}),
				"gpu_sharing_config":             single(false, map[string]tfAttr{"gpu_sharing_strategy": req(tfString), "max_shared_clients_per_gpu": req(tfNumber)})})}),
		"upgrade_settings": single(false, map[string]tfAttr{"max_surge": opt(tfNumber), "max_unavailable": opt(tfNumber), "strategy": opt(tfString)}),
	}),
}

// TestResourceShapesAreTheProviders: every attribute of eks_node_group, aks_node_pool and gke_node_pool, nested
// ones included, is an argument of the consumer resource (or of its block) by the same name and of a type it
// takes; an object is written as a single block and a list of objects as a repeated (dynamic) block, as the
// provider declares them, and every argument a block requires is emitted; GKE's node_count is never among them
// (it must not be set beside autoscaling).
func TestResourceShapesAreTheProviders(t *testing.T) {
	for _, tc := range []struct {
		resource string
		types    map[string]attr.Type
	}{
		{"aws_eks_node_group", eksNodeGroupAttrTypes},
		{"azurerm_kubernetes_cluster_node_pool", aksNodePoolAttrTypes},
		{"google_container_node_pool", gkeNodePoolAttrTypes},
	} {
		for _, e := range conforms(tc.resource, types.ObjectType{AttrTypes: tc.types}, consumerSchemas[tc.resource], true) {
			t.Error(e)
		}
	}
	if _, ok := gkeNodePoolAttrTypes["node_count"]; ok {
		t.Error("gke_node_pool emits node_count beside autoscaling")
	}
	// The checker itself: an object where the provider takes an attribute, a list of objects where it takes a
	// single block, and a block missing a required argument are caught.
	for _, ts := range []map[string]attr.Type{
		{"labels": types.ObjectType{AttrTypes: map[string]attr.Type{"a": types.StringType}}},
		{"scaling_config": types.ListType{ElemType: types.ObjectType{AttrTypes: scalingAttrTypes}}},
		{"scaling_config": types.ObjectType{AttrTypes: map[string]attr.Type{"min_size": types.Int64Type, "max_size": types.Int64Type}}},
	} {
		if len(conforms("x", types.ObjectType{AttrTypes: ts}, consumerSchemas["aws_eks_node_group"], true)) == 0 {
			t.Errorf("the checker accepts %v", ts)
		}
	}
}
