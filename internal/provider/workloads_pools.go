package provider

import (
	"cmp"
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	k8sresource "k8s.io/apimachinery/pkg/api/resource"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/workloads"
)

// poolsOutputAttribute is the cluster's pools in exactly the shape kubefit_node_pool_sizing's pools take
// (the same schema builder, computed), plus the nodes each was read from.
func poolsOutputAttribute() schema.MapNestedAttribute {
	attrs := computedAttributes(sizingPoolAttributes(true))
	if it, ok := attrs["instance_types"].(schema.ListAttribute); ok {
		it.MarkdownDescription = "A node group of several instance types: its types (`instance_type` is then null). `kubefit_node_pool_sizing` " +
			"plans such a pool on its smallest member (least workload allocatable CPU, then memory) and says so in its `pool_results[*].note`."
		attrs["instance_types"] = it
	}
	attrs["nodes"] = schema.ListAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: "The names of the pool's schedulable nodes; `min_nodes` and `max_nodes` are their count (raise `max_nodes` with `merge` to let the pool grow)."}
	attrs["grouped_by"] = schema.StringAttribute{Computed: true, MarkdownDescription: "The node label that groups the nodes (`eks.amazonaws.com/nodegroup`, `karpenter.sh/nodepool`, `kubernetes.azure.com/agentpool`, `cloud.google.com/gke-nodepool`, …), or `node.kubernetes.io/instance-type` when they carry none."}
	return schema.MapNestedAttribute{Computed: true,
		MarkdownDescription: "With `cluster`: one pool per node group, in the shape `kubefit_node_pool_sizing`'s `pools` take (`pools = data.kubefit_workloads.live.pools`), measured: `measured_allocatable` and `measured_capacity` of its least roomy node, so the plan uses what the nodes really report; `capacity_type` is `spot` when any node carries a spot label (`eks.amazonaws.com/capacityType=SPOT`, `karpenter.sh/capacity-type=spot`, `kubernetes.azure.com/scalesetpriority=spot`, `cloud.google.com/gke-spot=true` or `cloud.google.com/gke-preemptible=true`), so `spot_loss` loses the whole pool. Empty without `cluster`.",
		NestedObject:        schema.NestedAttributeObject{Attributes: attrs}}
}

// poolObjectType is the object type of one output pool.
func poolObjectType() types.ObjectType {
	return poolsOutputAttribute().NestedObject.Type().(types.ObjectType)
}

// nullOf returns the null value of type t.
func nullOf(t attr.Type) attr.Value {
	switch t := t.(type) {
	case types.ObjectType:
		return types.ObjectNull(t.AttrTypes)
	case types.ListType:
		return types.ListNull(t.ElemType)
	case types.MapType:
		return types.MapNull(t.ElemType)
	}
	switch t {
	case types.StringType:
		return types.StringNull()
	case types.Int64Type:
		return types.Int64Null()
	case types.Float64Type:
		return types.Float64Null()
	case types.BoolType:
		return types.BoolNull()
	}
	panic(fmt.Sprintf("nullOf: unsupported type %T", t))
}

// objectOf builds an object of type t from the given attribute values, every other attribute null.
func objectOf(t types.ObjectType, set map[string]attr.Value) (types.Object, diag.Diagnostics) {
	vals := make(map[string]attr.Value, len(t.AttrTypes))
	for k, at := range t.AttrTypes {
		if v, ok := set[k]; ok {
			vals[k] = v
			continue
		}
		vals[k] = nullOf(at)
	}
	return types.ObjectValue(t.AttrTypes, vals)
}

func quantityOrNull(p *int64, format func(int64) string) attr.Value {
	if p == nil {
		return types.StringNull()
	}
	return types.StringValue(format(*p))
}

func milliString(v int64) string {
	return k8sresource.NewMilliQuantity(v, k8sresource.DecimalSI).String()
}
func bytesString(v int64) string { return k8sresource.NewQuantity(v, k8sresource.BinarySI).String() }

// flattenPools converts the cluster's pools into the pools output.
func flattenPools(ctx context.Context, pools []workloads.Pool) (types.Map, diag.Diagnostics) {
	var diags diag.Diagnostics
	pt := poolObjectType()
	out := map[string]attr.Value{}
	for _, p := range pools {
		set := map[string]attr.Value{
			"cloud":     types.StringValue(string(p.Cloud)),
			"min_nodes": types.Int64Value(int64(p.MinNodes)),
			"max_nodes": types.Int64Value(int64(p.MaxNodes)),
		}
		if p.Cloud == "" {
			set["cloud"] = types.StringNull()
		}
		switch len(p.InstanceTypes) {
		case 0:
		case 1:
			set["instance_type"] = types.StringValue(p.InstanceTypes[0])
		default:
			set["instance_types"], _ = types.ListValueFrom(ctx, types.StringType, p.InstanceTypes)
		}
		var d diag.Diagnostics
		set["zones"], d = types.ListValueFrom(ctx, types.StringType, p.Zones)
		diags.Append(d...)
		set["nodes"], d = types.ListValueFrom(ctx, types.StringType, p.Nodes)
		diags.Append(d...)
		set["grouped_by"] = types.StringValue(p.GroupedBy)
		set["capacity_type"] = types.StringValue(string(cmp.Or(p.CapacityType, fit.CapacityOnDemand)))
		if len(p.Labels) > 0 {
			set["labels"], d = types.MapValueFrom(ctx, types.StringType, p.Labels)
			diags.Append(d...)
		}
		if len(p.Taints) > 0 {
			tt := pt.AttrTypes["taints"].(types.ListType)
			ts := make([]attr.Value, len(p.Taints))
			for i, t := range p.Taints {
				ts[i], d = objectOf(tt.ElemType.(types.ObjectType), map[string]attr.Value{"key": types.StringValue(t.Key),
					"value": types.StringValue(t.Value), "effect": types.StringValue(string(t.Effect))})
				diags.Append(d...)
			}
			set["taints"], d = types.ListValue(tt.ElemType, ts)
			diags.Append(d...)
		}
		a, c := p.Overhead.MeasuredAllocatable, p.Overhead.MeasuredCapacity
		set["measured_allocatable"], d = objectOf(pt.AttrTypes["measured_allocatable"].(types.ObjectType), map[string]attr.Value{
			"cpu": quantityOrNull(a.CPUMillicores, milliString), "memory": quantityOrNull(a.MemoryBytes, bytesString),
			"ephemeral_storage": quantityOrNull(a.EphemeralStorageBytes, bytesString), "pods": types.Int64PointerValue(a.Pods)})
		diags.Append(d...)
		set["measured_capacity"], d = objectOf(pt.AttrTypes["measured_capacity"].(types.ObjectType), map[string]attr.Value{
			"cpu": quantityOrNull(c.CPUMillicores, milliString), "memory": quantityOrNull(c.MemoryBytes, bytesString),
			"ephemeral_storage": quantityOrNull(c.EphemeralStorageBytes, bytesString)})
		diags.Append(d...)
		out[p.Name], d = objectOf(pt, set)
		diags.Append(d...)
	}
	m, d := types.MapValue(pt, out)
	diags.Append(d...)
	return m, diags
}
