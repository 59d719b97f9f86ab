package provider

import (
	"context"
	"maps"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// sizingSchemaAttributes returns kubefit_node_pool_sizing's attributes, so objects that take the same
// pools, DaemonSets and workloads share their schema (descriptions, validators) with it by construction.
func sizingSchemaAttributes() map[string]schema.Attribute {
	var resp datasource.SchemaResponse
	(&nodePoolSizingDataSource{}).Schema(context.Background(), datasource.SchemaRequest{}, &resp)
	return resp.Schema.Attributes
}

// poolTemplateAttributes returns every attribute of a kubefit_node_pool_sizing pool except its cloud and
// instance types: a pool whose type is still to be chosen.
func poolTemplateAttributes() map[string]schema.Attribute {
	pools := sizingSchemaAttributes()["pools"].(schema.MapNestedAttribute)
	attrs := maps.Clone(pools.NestedObject.Attributes)
	delete(attrs, "cloud")
	delete(attrs, "instance_type")
	delete(attrs, "instance_types")
	for _, k := range []string{"measured_capacity", "measured_allocatable"} {
		if o, ok := attrs[k].(schema.SingleNestedAttribute); ok {
			o.MarkdownDescription = "Refused here: measured figures are one instance type's, and the recommendation sizes every candidate " +
				"type (give them to the pool or node group of the type chosen). The attribute is shared with `kubefit_node_pool_sizing`'s pools."
			attrs[k] = o
		}
	}
	return addMisplacedPoolKeys(attrs)
}

// poolTemplateModel decodes a pool template (poolTemplateAttributes) into a sizing pool model with the
// given cloud and instance type, so kubefit_node_pool_sizing's validation and expansion apply to it.
func poolTemplateModel(ctx context.Context, o types.Object, cloud, instanceType string) (sizingPoolModel, bool) {
	attrTypes := maps.Clone(o.AttributeTypes(ctx))
	values := maps.Clone(o.Attributes())
	attrTypes["cloud"], values["cloud"] = types.StringType, types.StringValue(cloud)
	attrTypes["instance_type"], values["instance_type"] = types.StringType, types.StringValue(instanceType)
	attrTypes["instance_types"], values["instance_types"] = types.ListType{ElemType: types.StringType}, types.ListNull(types.StringType)
	full, d := types.ObjectValue(attrTypes, values)
	var m sizingPoolModel
	if d.HasError() {
		return m, false
	}
	d = objectAs(ctx, full, &m, objectAsOptions)
	return m, !d.HasError()
}

// instanceTypeRowAttributes returns kubefit_instance_type's attributes, all computed: one row of a list
// of instance types.
func instanceTypeRowAttributes() map[string]schema.Attribute {
	var resp datasource.SchemaResponse
	(&instanceTypeDataSource{}).Schema(context.Background(), datasource.SchemaRequest{}, &resp)
	out := make(map[string]schema.Attribute, len(resp.Schema.Attributes))
	for name, a := range resp.Schema.Attributes {
		switch name {
		case "cloud":
			out[name] = schema.StringAttribute{Computed: true, MarkdownDescription: "Cloud of the instance type."}
		case "name":
			out[name] = schema.StringAttribute{Computed: true, MarkdownDescription: "Instance type name, as the catalog spells it."}
		default:
			out[name] = a
		}
	}
	return out
}

// instanceTypeRowAttrTypes is the object type of one row.
func instanceTypeRowAttrTypes() map[string]attr.Type {
	out := map[string]attr.Type{}
	for name, a := range instanceTypeRowAttributes() {
		out[name] = a.GetType()
	}
	return out
}
