package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/overhead"
	plannerresource "github.com/kubefit/terraform-provider-kubefit/internal/planner/resource"
)

var (
	_ datasource.DataSourceWithValidateConfig = (*nodeOverheadDataSource)(nil)
	_ datasource.DataSourceWithConfigure      = (*nodeOverheadDataSource)(nil)
)

type nodeOverheadDataSource struct{ dataSourceCatalog }

func newNodeOverheadDataSource() datasource.DataSource { return &nodeOverheadDataSource{} }

type nodeDaemonSetModel struct {
	Name         types.String `tfsdk:"name"`
	Requests     types.Object `tfsdk:"requests"`
	TakesPodSlot types.Bool   `tfsdk:"takes_pod_slot"`
	misplacedRequestsModel
}

type nodeOverheadModel struct {
	Cloud        types.String `tfsdk:"cloud"`
	InstanceType types.String `tfsdk:"instance_type"`
	VCPU         types.Int64  `tfsdk:"vcpu"`
	Memory       types.String `tfsdk:"memory"`
	overheadOptionsModel
	DaemonSets       types.List   `tfsdk:"daemonsets"`
	SystemDaemonSets types.String `tfsdk:"system_daemonsets"`

	Capacity          types.Object `tfsdk:"capacity"`
	KubeReservedOut   types.Object `tfsdk:"kube_reserved_resources"`
	SystemReservedOut types.Object `tfsdk:"system_reserved_resources"`
	EvictionThreshold types.Object `tfsdk:"eviction_threshold"`
	Allocatable       types.Object `tfsdk:"allocatable"`
	DaemonSetOverhead types.Object `tfsdk:"daemonset_overhead"`
	Available         types.Object `tfsdk:"available"`
	IPCapacity        types.Int64  `tfsdk:"ip_capacity"`
	KubeletArgs       types.String `tfsdk:"kubelet_args"`
	Rules             types.String `tfsdk:"rules"`
	FormulaSource     types.String `tfsdk:"formula_source"`
	Evidence          types.Object `tfsdk:"evidence"`
	Terms             types.List   `tfsdk:"terms"`
	Warnings          types.List   `tfsdk:"warnings"`
}

var termAttrTypes = map[string]attr.Type{
	"name": types.StringType, "value": types.Int64Type, "unit": types.StringType, "formula": types.StringType, "detail": types.StringType, "source": types.StringType,
}

func (d *nodeOverheadDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_node_overhead"
}

// nodeDaemonSetsAttribute is the DaemonSet list of kubefit_node_overhead: the same shape as every other
// object's DaemonSets (name, requests, takes_pod_slot), without the placement fields a single node has no use for.
func nodeDaemonSetsAttribute() schema.ListNestedAttribute {
	return schema.ListNestedAttribute{Optional: true, Validators: []validator.List{uniqueDaemonSets},
		MarkdownDescription: "DaemonSets that run on every node, in the same shape as `kubefit_node_pool_sizing`'s (without " +
			"`node_selector`, `tolerations` and `cpu_usage`, which a single node has no use for). Their requests are subtracted " +
			"from allocatable to give `available`, with the platform's system DaemonSets unless `system_daemonsets = \"listed\"` " +
			"(a DaemonSet listed under a system DaemonSet's name replaces it). On EKS Linux the host-network `aws-node` and `kube-proxy` " +
			"pods always take a pod slot, listed or not. Names must be unique.",
		NestedObject: schema.NestedAttributeObject{Attributes: addMisplacedRequests(map[string]schema.Attribute{
			"name":           schema.StringAttribute{Required: true, MarkdownDescription: "DaemonSet name."},
			"requests":       requestsAttribute("Requests of one pod."),
			"takes_pod_slot": schema.BoolAttribute{Optional: true, MarkdownDescription: "Whether the pod counts against max pods (default `true`; every DaemonSet pod does on AKS and GKE)."},
		}, "DaemonSet")},
	}
}

func (d *nodeOverheadDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	defer cacheDataSourceTypes(&resp.Schema)
	attrs := overheadOptionAttributes()
	attrs["cloud"] = cloudAttribute(false, " Required unless `profile` is `custom`.")
	attrs["instance_type"] = schema.StringAttribute{Optional: true,
		MarkdownDescription: "Instance type from the embedded catalog (`m5.large`, `Standard_DS2_v2`, `n2-standard-4`). Required unless `profile` is `custom`.",
		Validators:          []validator.String{requiredWhen{sibling: "profile", values: []string{string(overhead.Custom)}, unless: true}}}
	attrs["vcpu"] = schema.Int64Attribute{Optional: true, MarkdownDescription: "vCPUs of the node, with `profile = \"custom\"` only.",
		Validators: []validator.Int64{int64validator.Between(1, 100000)}}
	attrs["memory"] = schema.StringAttribute{Optional: true, MarkdownDescription: "Nominal memory of the node (`16Gi`), with `profile = \"custom\"` only. The VM-overhead model applies unless `measured_capacity.memory` is given.",
		Validators: []validator.String{quantityValidator{quantityBytes}}}
	attrs["daemonsets"] = nodeDaemonSetsAttribute()
	attrs["system_daemonsets"] = systemDaemonSetsAttribute()
	attrs["capacity"] = resourcesAttribute("What the kubelet reports as `node.status.capacity` (estimated, or `measured_capacity`).")
	attrs["kube_reserved_resources"] = reservationAttribute("The kubelet's `kubeReserved`.", true)
	attrs["system_reserved_resources"] = reservationAttribute("The kubelet's `systemReserved`.", true)
	attrs["eviction_threshold"] = reservationAttribute("Hard-eviction thresholds (`memory.available`, `nodefs.available`) as amounts.", false)
	attrs["allocatable"] = resourcesAttribute("`node.status.allocatable`: capacity − kube-reserved − system-reserved − eviction; `pods` is max pods.")
	attrs["daemonset_overhead"] = resourcesAttribute("Requests and pod slots of the DaemonSets on the node: `daemonsets` and the platform's system DaemonSets (the `systemDaemonSets.*` terms name them).")
	attrs["available"] = resourcesAttribute("What is left for workload pods: allocatable − DaemonSets (on EKS also limited by pod IPs).")
	// max_pods and profile are inputs that also report the value used.
	mp := attrs["max_pods"].(schema.Int64Attribute)
	mp.Computed = true
	mp.MarkdownDescription += " After read: the max pods used."
	attrs["max_pods"] = mp
	va := attrs["volume_attach_limit"].(schema.Int64Attribute)
	va.Computed = true
	va.MarkdownDescription += " After read: the limit used (null when not known: a custom node); the `attachableVolumes` term says by which rule."
	attrs["volume_attach_limit"] = va
	pr := attrs["profile"].(schema.StringAttribute)
	pr.Computed = true
	pr.MarkdownDescription += " With `custom`, describe the node by `vcpu` and `memory` instead of `instance_type`. After read: the profile used."
	attrs["profile"] = pr
	attrs["ip_capacity"] = schema.Int64Attribute{Computed: true, MarkdownDescription: "EKS: how many non-host-network pods can get a VPC IP; null elsewhere."}
	attrs["kubelet_args"] = schema.StringAttribute{Computed: true, MarkdownDescription: "The reservations as kubelet flags, e.g. `--kube-reserved=cpu=70m,memory=574Mi,ephemeral-storage=1Gi --eviction-hard=memory.available<100Mi,nodefs.available<10% --max-pods=29`."}
	attrs["rules"] = schema.StringAttribute{Computed: true, MarkdownDescription: "Which dated rule set applied, e.g. `aks < 1.29`."}
	attrs["evidence"] = evidenceAttribute("this node's allocatable")
	attrs["formula_source"] = schema.StringAttribute{Computed: true, MarkdownDescription: "One line per computed term: its value, the formula identifier and the sources of that formula."}
	attrs["terms"] = schema.ListNestedAttribute{Computed: true, MarkdownDescription: "Every computed term with its provenance.",
		NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
			"name":    schema.StringAttribute{Computed: true, MarkdownDescription: "Term, in the kubelet's vocabulary: `capacity.memory`, `kubeReserved.memory`, `evictionHard.memory.available`, `maxPods`, `daemonSets.cpu`, …"},
			"value":   schema.Int64Attribute{Computed: true, MarkdownDescription: "Value in `unit`."},
			"unit":    schema.StringAttribute{Computed: true, MarkdownDescription: "Unit of `value`: `millicores`, `bytes`, `pods` or `volumes`."},
			"formula": schema.StringAttribute{Computed: true, MarkdownDescription: "Stable formula identifier, e.g. `memory.eks-per-pod`."},
			"detail":  schema.StringAttribute{Computed: true, MarkdownDescription: "How the value was obtained."},
			"source":  schema.StringAttribute{Computed: true, MarkdownDescription: "Where the formula comes from."},
		}}}
	attrs["warnings"] = schema.ListAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: "Caveats about this node (also emitted as plan warnings)."}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Computes a node's capacity, the kubelet's reservations (kube-reserved, system-reserved, hard eviction), " +
			"allocatable, max pods and what is left for workload pods after DaemonSets, for EKS (AL2023, AL2, Bottlerocket, Windows), " +
			"AKS (Linux, Windows; before and from 1.29) and GKE Standard, from the embedded catalog. Every figure names the formula " +
			"and source it comes from (`terms`, `formula_source`).\n\n" +
			"Like every data source, it is read during `terraform plan` when all its inputs are known; if an input is only " +
			"known after apply, Terraform defers the read to apply.",
		Attributes: attrs,
	}
}

func (d *nodeOverheadDataSource) ValidateConfig(ctx context.Context, req datasource.ValidateConfigRequest, resp *datasource.ValidateConfigResponse) {
	var m nodeOverheadModel
	resp.Diagnostics.Append(configGet(ctx, req.Config, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	validateNodeSelection(m, &resp.Diagnostics)
	if !fullyKnown(m.Cloud) || !fullyKnown(m.InstanceType) || m.InstanceType.IsNull() || m.Cloud.IsNull() {
		return
	}
	parseCloud(path.Root("cloud"), m.Cloud, &resp.Diagnostics)
}

// validateNodeSelection checks the custom-vs-catalog choice with what is known.
func validateNodeSelection(m nodeOverheadModel, diags *diag.Diagnostics) {
	if m.Profile.IsUnknown() {
		return
	}
	if m.Profile.ValueString() == string(overhead.Custom) {
		if m.VCPU.IsNull() {
			diags.AddAttributeError(path.Root("vcpu"), "Missing vCPU", "profile \"custom\" needs vcpu (and memory) to describe the node.")
		}
		if m.Memory.IsNull() {
			diags.AddAttributeError(path.Root("memory"), "Missing Memory", "profile \"custom\" needs memory (and vcpu) to describe the node.")
		}
		if !m.InstanceType.IsNull() && !m.InstanceType.IsUnknown() {
			diags.AddAttributeError(path.Root("instance_type"), "Conflicting Attributes", "profile \"custom\" describes the node with vcpu and memory; remove instance_type, or choose a catalog profile.")
		}
		return
	}
	if m.Cloud.IsNull() && (m.Profile.IsNull() || overhead.Profile(m.Profile.ValueString()).Cloud() == "") {
		diags.AddAttributeError(path.Root("cloud"), "Missing Cloud", "cloud is required to look up instance_type: one of aws, azure, gcp.")
	}
	for _, a := range []struct {
		name string
		v    attr.Value
	}{{"vcpu", m.VCPU}, {"memory", m.Memory}} {
		if !a.v.IsNull() && !a.v.IsUnknown() {
			diags.AddAttributeError(path.Root(a.name), "Conflicting Attributes", a.name+" is only used with profile \"custom\"; the instance type's catalog row describes the node.")
		}
	}
}

func (d *nodeOverheadDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m nodeOverheadModel
	resp.Diagnostics.Append(configGet(ctx, req.Config, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	validateNodeSelection(m, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	var inst overhead.Instance
	cloud := catalog.Cloud(m.Cloud.ValueString())
	if m.Profile.ValueString() == string(overhead.Custom) {
		var memory int64
		if mem := optQuantity(path.Root("memory"), m.Memory, quantityBytes, &resp.Diagnostics); mem != nil {
			memory = *mem
		}
		inst = overhead.CustomInstance(cloud, m.VCPU.ValueInt64(), memory)
	} else {
		if m.Cloud.IsNull() {
			cloud = overhead.Profile(m.Profile.ValueString()).Cloud()
		}
		it, ok := lookupInstance(ctx, d.catalog(), path.Root("instance_type"), cloud, m.InstanceType.ValueString(), &resp.Diagnostics)
		if !ok {
			return
		}
		inst = overhead.InstanceFromCatalog(it)
	}
	profile := resolveProfile(m.overheadOptionsModel, cloud)
	in := overheadInput(ctx, path.Empty(), m.overheadOptionsModel, profile, inst, &resp.Diagnostics)
	in.DaemonSets = nodeDaemonSets(ctx, m.DaemonSets, &resp.Diagnostics)
	in.SystemDaemonSets = overhead.SystemDaemonSets(m.SystemDaemonSets.ValueString())
	if resp.Diagnostics.HasError() {
		return
	}
	r, err := overhead.Compute(in)
	if addPlannerErrors(&resp.Diagnostics, path.Empty(), err, overheadRenames, "Invalid Node Configuration") {
		return
	}
	addPlannerWarnings(&resp.Diagnostics, path.Empty(), d.oncePerPlan(r.Warnings), overheadRenames, "Node Overhead Caveat")
	m.Capacity = resourcesValue(r.Capacity)
	m.KubeReservedOut = reservationValue(r.KubeReserved, true)
	m.SystemReservedOut = reservationValue(r.SystemReserved, true)
	m.EvictionThreshold = reservationValue(r.EvictionThreshold, false)
	m.Allocatable = resourcesValue(r.Allocatable)
	m.DaemonSetOverhead = resourcesValue(r.DaemonSetOverhead)
	m.Available = resourcesValue(r.Available)
	m.MaxPods = types.Int64Value(r.MaxPods)
	m.VolumeAttachLimit = types.Int64Null()
	if r.Volumes.Count > 0 {
		m.VolumeAttachLimit = types.Int64Value(r.Volumes.Count)
	}
	m.IPCapacity = types.Int64Null()
	if r.IPCap > 0 {
		m.IPCapacity = types.Int64Value(r.IPCap)
	}
	m.KubeletArgs = types.StringValue(strings.Join(r.KubeletArgs, " "))
	m.Profile = types.StringValue(string(r.Profile))
	m.Rules = types.StringValue(r.RulesVersion)
	m.FormulaSource = types.StringValue(formulaSource(r.Terms))
	m.Evidence = evidenceValue(r.Evidence)
	m.Terms = termsValue(r.Terms)
	m.Warnings, _ = types.ListValueFrom(ctx, types.StringType, warningMessages(r.Warnings))
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// warningMessages returns the warnings' messages, as diagnostics show them; never nil.
func warningMessages(ws []field.Warning) []string {
	out := make([]string, 0, len(ws))
	for _, w := range ws {
		out = append(out, sentence(w.Message))
	}
	return out
}

func nodeDaemonSets(ctx context.Context, l types.List, diags *diag.Diagnostics) []overhead.DaemonSet {
	var ds []nodeDaemonSetModel
	diags.Append(listElementsAs(ctx, l, &ds, false)...)
	out := make([]overhead.DaemonSet, 0, len(ds))
	for i, d := range ds {
		p := path.Root("daemonsets").AtListIndex(i)
		r := expandRequests(ctx, p.AtName("requests"), d.Requests, diags)
		out = append(out, overhead.DaemonSet{Name: d.Name.ValueString(), Requests: r, TakesPodSlot: d.TakesPodSlot.IsNull() || d.TakesPodSlot.ValueBool()})
	}
	return out
}

func formulaSource(terms []overhead.Term) string {
	var b strings.Builder
	for _, t := range terms {
		fmt.Fprintf(&b, "%s = %s by %s (%s): %s\n", t.Name, termValue(t), t.Formula, t.Detail, overhead.Formulas[t.Formula])
	}
	return b.String()
}

// termValue renders a term's value in its unit as a Kubernetes quantity ("70m", "574Mi") or a count.
func termValue(t overhead.Term) string {
	switch t.Unit {
	case overhead.UnitMillicores:
		return plannerresource.QuantityCPU(t.Value)
	case overhead.UnitBytes:
		return plannerresource.QuantityBytes(t.Value)
	}
	return fmt.Sprint(t.Value)
}

func termsValue(terms []overhead.Term) types.List {
	elems := make([]attr.Value, 0, len(terms))
	for _, t := range terms {
		elems = append(elems, types.ObjectValueMust(termAttrTypes, map[string]attr.Value{
			"name": types.StringValue(t.Name), "value": types.Int64Value(t.Value), "unit": types.StringValue(t.Unit), "formula": types.StringValue(t.Formula),
			"detail": types.StringValue(t.Detail), "source": types.StringValue(overhead.Formulas[t.Formula]),
		}))
	}
	return types.ListValueMust(types.ObjectType{AttrTypes: termAttrTypes}, elems)
}
