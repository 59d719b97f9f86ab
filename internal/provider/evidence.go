package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/overhead"
)

// evidenceAttrTypes is the shape of the overhead evidence of one node: kubefit_node_overhead's `evidence` and
// each pool result's `overhead_evidence`.
var evidenceAttrTypes = map[string]attr.Type{
	"scope": types.StringType, "status": types.StringType, "summary": types.StringType,
	"exact_nodes": types.Int64Type, "conservative_nodes": types.Int64Type, "sources": types.ListType{ElemType: types.StringType},
}

// evidenceAttribute describes how a node's figures are backed.
func evidenceAttribute(what string) schema.SingleNestedAttribute {
	return schema.SingleNestedAttribute{Computed: true,
		MarkdownDescription: "How " + what + " is backed: the profile and version range it was computed in, and the public " +
			"measured nodes, published table or documented formula behind it (the table of every scope is in the " +
			"`kubefit_node_overhead` docs). A figure no measured node backs also warns, suggesting `measured_allocatable`.",
		Attributes: map[string]schema.Attribute{
			"scope": schema.StringAttribute{Computed: true, MarkdownDescription: "Profile and version range, e.g. `aks-linux, Kubernetes 1.30 and later`."},
			"status": schema.StringAttribute{Computed: true, MarkdownDescription: "One of " + markdownList([]overhead.EvidenceStatus{
				overhead.EvidenceMeasured, overhead.EvidencePublished, overhead.EvidenceDocumented, overhead.EvidenceUpperBound, overhead.EvidenceUser}) + "."},
			"summary":            schema.StringAttribute{Computed: true, MarkdownDescription: "One line, e.g. `exact on 2 measured nodes (e2-medium, e2-small)`."},
			"exact_nodes":        schema.Int64Attribute{Computed: true, MarkdownDescription: "Public measured nodes of the scope the model reproduces exactly."},
			"conservative_nodes": schema.Int64Attribute{Computed: true, MarkdownDescription: "Public measured nodes of the scope where the model plans less allocatable than the node has (by at most 1 %)."},
			"sources":            schema.ListAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: "The measured nodes' sources, else the rule's."},
		}}
}

func evidenceValue(ev overhead.Evidence) types.Object {
	src := make([]attr.Value, len(ev.Sources))
	for i, s := range ev.Sources {
		src[i] = types.StringValue(s)
	}
	return types.ObjectValueMust(evidenceAttrTypes, map[string]attr.Value{
		"scope": types.StringValue(ev.Scope), "status": types.StringValue(string(ev.Status)), "summary": types.StringValue(ev.Summary),
		"exact_nodes": types.Int64Value(int64(ev.Exact)), "conservative_nodes": types.Int64Value(int64(ev.Conservative)),
		"sources": types.ListValueMust(types.StringType, src),
	})
}
