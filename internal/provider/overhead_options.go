package provider

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/float64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/overhead"
	plannerresource "github.com/kubefit/terraform-provider-kubefit/internal/planner/resource"
)

// overheadOptionsModel holds the node-overhead options shared by kubefit_node_overhead and every pool of
// kubefit_node_pool_sizing. Nested objects stay types.Object so unknown values decode during validation.
type overheadOptionsModel struct {
	Profile                 types.String  `tfsdk:"profile"`
	KubernetesVersion       types.String  `tfsdk:"kubernetes_version"`
	MaxPods                 types.Int64   `tfsdk:"max_pods"`
	EKS                     types.Object  `tfsdk:"eks"`
	AKS                     types.Object  `tfsdk:"aks"`
	KubeReserved            types.Map     `tfsdk:"kube_reserved"`
	SystemReserved          types.Map     `tfsdk:"system_reserved"`
	EvictionHard            types.Map     `tfsdk:"eviction_hard"`
	MeasuredCapacity        types.Object  `tfsdk:"measured_capacity"`
	MeasuredAllocatable     types.Object  `tfsdk:"measured_allocatable"`
	VMMemoryOverheadPercent types.Float64 `tfsdk:"vm_memory_overhead_percent"`
	OSDiskGiB               types.Int64   `tfsdk:"os_disk_gib"`
	VolumeAttachLimit       types.Int64   `tfsdk:"volume_attach_limit"`
}

type eksOptionsModel struct {
	NodeGroupKind           types.String `tfsdk:"node_group_kind"`
	PrefixDelegation        types.Bool   `tfsdk:"prefix_delegation"`
	CustomNetworking        types.Bool   `tfsdk:"custom_networking"`
	ReservedENIs            types.Int64  `tfsdk:"reserved_enis"`
	MaxPodsExpressionResult types.Int64  `tfsdk:"max_pods_expression_result"`
}

type aksOptionsModel struct {
	NetworkPlugin types.String `tfsdk:"network_plugin"`
}

type allocatableModel struct {
	CPU              types.String `tfsdk:"cpu"`
	Memory           types.String `tfsdk:"memory"`
	EphemeralStorage types.String `tfsdk:"ephemeral_storage"`
	Pods             types.Int64  `tfsdk:"pods"`
}

type capacityModel struct {
	CPU              types.String `tfsdk:"cpu"`
	Memory           types.String `tfsdk:"memory"`
	EphemeralStorage types.String `tfsdk:"ephemeral_storage"`
}

// reservationKeys are the keys of kube_reserved and system_reserved, as the kubelet spells them.
var reservationKeys = map[string]quantityKind{"cpu": quantityCPU, "memory": quantityBytes, "ephemeral-storage": quantityBytes}

// evictionKeys are the hard-eviction signals that change allocatable.
var evictionKeys = map[string]quantityKind{overhead.SignalMemory: quantityBytesOrPercent, overhead.SignalNodefs: quantityBytesOrPercent}

// quantityMapValidator checks a map of quantities whose allowed keys each have their own kind.
type quantityMapValidator struct{ keys map[string]quantityKind }

func (v quantityMapValidator) Description(context.Context) string {
	return "keys must be one of " + strings.Join(sortedKeys(v.keys), ", ") + ", values Kubernetes quantities"
}

func (v quantityMapValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (v quantityMapValidator) ValidateMap(_ context.Context, req validator.MapRequest, resp *validator.MapResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	for k, e := range req.ConfigValue.Elements() {
		kind, ok := v.keys[k]
		if !ok {
			resp.Diagnostics.AddAttributeError(req.Path.AtMapKey(k), "Unsupported Key",
				fmt.Sprintf("key %q is not supported; use one of %s", k, strings.Join(sortedKeys(v.keys), ", ")))
			continue
		}
		s, ok := e.(types.String)
		if !ok || s.IsUnknown() || s.IsNull() {
			continue
		}
		if _, err := parseQuantity(s.ValueString(), kind); err != nil {
			resp.Diagnostics.AddAttributeError(req.Path.AtMapKey(k), "Invalid Quantity", sentence(err.Error()))
		}
	}
}

// profileAttribute is the profile option, taking one of profiles; more adds to its description.
func profileAttribute(profiles []overhead.Profile, more string) schema.StringAttribute {
	return schema.StringAttribute{Optional: true,
		MarkdownDescription: "Node image profile whose reservation rules apply: one of " + markdownList(profiles) +
			". Defaults to `eks-al2023` on AWS, `aks-linux` on Azure and `gke-standard` on GCP. `gke-standard` reserves GKE's " +
			"memory tiers exactly (25/20/10/6/2 % with edges at 4,000, 8,000, 16,000 and 128,000 MiB) on Linux nodes; GKE's Windows Server " +
			"node pools have no profile (their reservations are not published in a form kubefit can check), so kubefit does not plan them." + more,
		Validators: []validator.String{stringvalidator.OneOf(stringsOf(profiles)...)}}
}

// overheadOptionAttributes returns the schema of the node-overhead options.
func overheadOptionAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"profile": profileAttribute(overhead.Profiles, " `custom` applies no platform rules: it reserves only what "+
			"`kube_reserved`/`system_reserved` say, with the kubelet's default 100Mi memory eviction."),
		"kubernetes_version": schema.StringAttribute{Optional: true,
			MarkdownDescription: "Kubernetes minor version, such as `1.28`. On AKS it selects the reservation rules: before 1.29 " +
				"the regressive memory tiers and 750Mi eviction (none on Windows nodes), from 1.29 the per-pod rule with 100Mi eviction " +
				"(exactly 1.29 computes both and keeps the smaller allocatable; Windows from 1.29 is not confirmed by a measured node " +
				"and warns). Default: the current rules. On AKS before 1.15 kubefit refuses to plan unless `kube_reserved.cpu` (the " +
				"node's own CPU reservation, as its kubelet's `--kube-reserved` flag shows it) or `measured_allocatable.cpu` is given: " +
				"nodes of those versions ran one of two CPU rules, and the version does not say which."},
		"max_pods": schema.Int64Attribute{Optional: true,
			MarkdownDescription: "The kubelet's max pods. Default: the platform's default for this instance type, network " +
				"plugin and node-group kind (EKS: the ENI formula with the managed-node-group cap, or on Auto Mode the pod IP count " +
				"capped at 110; AKS: by network plugin; GKE: 110). AKS refuses a value outside 10–250 and GKE Standard one outside 8–256, and so does kubefit; AKS also refuses a value under 30 unless the pool holds 30 pods at its minimum node count (10 needs at least 3 nodes), and so do the objects that plan or render AKS pools. " +
				"`measured_allocatable.pods` wins over it. On an EKS managed node group (`eks.node_group_kind = \"managed\"`, the default) EKS writes its own " +
				"max pods into the nodes' user data, over a launch template's: kubefit plans the smaller of the two pod counts and the memory " +
				"reservation of the larger, with a warning when they differ; self-managed and Karpenter nodes take the value.",
			Validators: []validator.Int64{int64validator.AtLeast(1)}},
		"eks": schema.SingleNestedAttribute{Optional: true,
			MarkdownDescription: "EKS settings that change max pods and the memory reservation.",
			Attributes: map[string]schema.Attribute{
				"node_group_kind": schema.StringAttribute{Optional: true,
					MarkdownDescription: "How nodes are launched: " + markdownList(overhead.NodeGroupKinds) + ". Default `managed`. " +
						"`auto_mode` has no `aws-node` or `kube-proxy` pods (max pods is the pod IP count, at most 110) and reserves 150m CPU and 53 MiB more than " +
						"the AL2023 rule, calibrated on a measured node; its allocatable is an upper bound, so it warns unless `measured_allocatable` is given. " +
						"Auto Mode's `NodeClass` has no kubelet settings, so `auto_mode` refuses `max_pods`, `kube_reserved`, `system_reserved`, `eviction_hard` and `max_pods_expression_result`.",
					Validators: []validator.String{stringvalidator.OneOf(stringsOf(overhead.NodeGroupKinds)...)}},
				"prefix_delegation": schema.BoolAttribute{Optional: true,
					MarkdownDescription: "VPC CNI prefix delegation (`ENABLE_PREFIX_DELEGATION`): each address slot holds a /28 prefix on Nitro and bare-metal types."},
				"custom_networking": schema.BoolAttribute{Optional: true,
					MarkdownDescription: "VPC CNI custom networking: the primary network interface carries no pods."},
				"reserved_enis": schema.Int64Attribute{Optional: true,
					MarkdownDescription: "Network interfaces reserved for other uses (Karpenter `reservedENIs`).",
					Validators:          []validator.Int64{int64validator.AtLeast(0)}},
				"max_pods_expression_result": schema.Int64Attribute{Optional: true,
					MarkdownDescription: "The integer result of an AL2023 `maxPodsExpression` (kubefit does not evaluate CEL): it becomes the pod count of the memory formula and, unless `max_pods` is set, max pods.",
					Validators:          []validator.Int64{int64validator.AtLeast(1)}},
			}},
		"aks": schema.SingleNestedAttribute{Optional: true,
			MarkdownDescription: "AKS settings that change max pods.",
			Attributes: map[string]schema.Attribute{
				"network_plugin": schema.StringAttribute{Optional: true,
					MarkdownDescription: "Network plugin: " + markdownList(overhead.NetworkPlugins) + ". Default `azure_cni_overlay` (250 pods); " +
						"`azure_cni_pod_subnet` and `kubenet` default to 110 pods, `azure_cni_node_subnet` to 30. Windows pools (`aks-windows`) run only with an Azure CNI plugin. A kubenet cluster holds at most 400 nodes in all of its node pools (AKS's hard limit): a kubenet pool or node group whose maximum is above 400 is refused, and kubenet pools of one sizing request above 400 together warn; kubefit does not see the cluster's other pools, so keep their sum within 400 yourself.",
					Validators: []validator.String{stringvalidator.OneOf(stringsOf(overhead.NetworkPlugins)...)}},
			}},
		"kube_reserved": schema.MapAttribute{Optional: true, ElementType: types.StringType,
			MarkdownDescription: "Kubelet `kubeReserved` overrides, key by key (`cpu`, `memory`, `ephemeral-storage`), as Kubernetes quantities. Keys not given keep the profile's value. `kubefit_node_group` refuses it on AKS and GKE, whose node pools cannot set it (the nodes keep the platform's), unless `measured_allocatable` is given.",
			Validators:          []validator.Map{quantityMapValidator{keys: reservationKeys}}},
		"system_reserved": schema.MapAttribute{Optional: true, ElementType: types.StringType,
			MarkdownDescription: "Kubelet `systemReserved` overrides, key by key (`cpu`, `memory`, `ephemeral-storage`). `kubefit_node_group` refuses it on AKS and GKE, whose node pools cannot set it (the nodes keep the platform's), unless `measured_allocatable` is given.",
			Validators:          []validator.Map{quantityMapValidator{keys: reservationKeys}}},
		"eviction_hard": schema.MapAttribute{Optional: true, ElementType: types.StringType,
			MarkdownDescription: "Kubelet `evictionHard` overrides for `memory.available` and `nodefs.available`: a quantity (`200Mi`) or a percentage of capacity (`10%`). Missing keys keep the profile default. `kubefit_node_group` refuses it on AKS and GKE, whose node pools cannot set it (the nodes keep the platform's), unless `measured_allocatable` is given.",
			Validators:          []validator.Map{quantityMapValidator{keys: evictionKeys}}},
		"measured_capacity": schema.SingleNestedAttribute{Optional: true,
			MarkdownDescription: "Capacity reported by the kubelet of a real node of this type and image (`kubectl get node -o jsonpath='{.status.capacity}'`). It replaces the estimate and is always preferred.",
			Attributes: map[string]schema.Attribute{
				"cpu":               schema.StringAttribute{Optional: true, MarkdownDescription: "CPU capacity, e.g. `2`.", Validators: []validator.String{quantityValidator{quantityCPU}}},
				"memory":            schema.StringAttribute{Optional: true, MarkdownDescription: "Memory capacity, e.g. `7113160Ki`.", Validators: []validator.String{quantityValidator{quantityBytes}}},
				"ephemeral_storage": schema.StringAttribute{Optional: true, MarkdownDescription: "Ephemeral-storage capacity, e.g. `20959212Ki`.", Validators: []validator.String{quantityValidator{quantityBytes}}},
			}},
		"measured_allocatable": schema.SingleNestedAttribute{Optional: true,
			MarkdownDescription: "Allocatable reported by the kubelet of a real node of this type and image (`kubectl get node -o jsonpath='{.status.allocatable}'`). " +
				"Each figure given wins over every model and override for that resource, and `pods` also sets max pods, so a pool with one real node can always be planned exactly, on any image.",
			Attributes: map[string]schema.Attribute{
				"cpu":               schema.StringAttribute{Optional: true, MarkdownDescription: "Allocatable CPU, e.g. `1930m`.", Validators: []validator.String{quantityValidator{quantityCPU}}},
				"memory":            schema.StringAttribute{Optional: true, MarkdownDescription: "Allocatable memory, e.g. `7140176Ki`.", Validators: []validator.String{quantityValidator{quantityBytes}}},
				"ephemeral_storage": schema.StringAttribute{Optional: true, MarkdownDescription: "Allocatable ephemeral storage, e.g. `18242267924`.", Validators: []validator.String{quantityValidator{quantityBytes}}},
				"pods":              schema.Int64Attribute{Optional: true, MarkdownDescription: "Allocatable pods (the node's max pods), e.g. `29`.", Validators: []validator.Int64{int64validator.Between(1, 100000)}},
			}},
		"vm_memory_overhead_percent": schema.Float64Attribute{Optional: true,
			MarkdownDescription: "Share of nominal memory the hypervisor and guest kernel keep, used when no measured capacity is given. Default `7.5` (Karpenter's `VM_MEMORY_OVERHEAD_PERCENT`), plus 64 MiB on arm64. Measured nodes show 2.7–9.6 % on EKS, 1.9–4.6 % on AKS, 1.6–3.0 % on GKE.",
			Validators:          []validator.Float64{float64validator.Between(0, 99.99)}},
		"os_disk_gib": schema.Int64Attribute{Optional: true,
			MarkdownDescription: "Size of the root/OS disk that holds the kubelet's root directory, in GiB. Default: 20 on EKS (50 on Windows), 128 on AKS, 100 on GKE.",
			Validators:          []validator.Int64{int64validator.Between(1, 65536)}},
		"volume_attach_limit": schema.Int64Attribute{Optional: true,
			MarkdownDescription: "Block volumes (EBS, Persistent Disk, Azure Disk) one node may attach: the count its disk CSI driver reports in the node's `CSINode` " +
				"(`kubectl get csinode NODE -o jsonpath='{.spec.drivers[*].allocatable.count}'`) or sets with `--volume-attach-limit`, which the scheduler's " +
				"NodeVolumeLimits filter enforces against the pods' `volume_claims`. Default: the driver's rule for the instance type, from the drivers' own tables; " +
				"on an EBS type whose attachments are shared with network interfaces, with every ENI the VPC CNI may attach (m5.large: 24, though the node reports 26 at start), " +
				"since an ENI attached later takes a slot the scheduler still counts as free.",
			Validators: []validator.Int64{int64validator.Between(1, 1000)}},
	}
}

// fullyKnown reports whether a value and everything inside it is known.
func fullyKnown(v attr.Value) bool {
	if v == nil || v.IsUnknown() {
		return false
	}
	if v.IsNull() {
		return true
	}
	var elems []attr.Value
	switch t := v.(type) {
	case basetypes.ObjectValue:
		for _, e := range t.Attributes() {
			elems = append(elems, e)
		}
	case basetypes.MapValue:
		for _, e := range t.Elements() {
			elems = append(elems, e)
		}
	case basetypes.ListValue:
		elems = t.Elements()
	case basetypes.SetValue:
		elems = t.Elements()
	}
	for _, e := range elems {
		if !fullyKnown(e) {
			return false
		}
	}
	return true
}

// resolveProfile returns the configured profile, or the cloud's default.
func resolveProfile(m overheadOptionsModel, cloud catalog.Cloud) overhead.Profile {
	if m.Profile.IsNull() || m.Profile.ValueString() == "" {
		return overhead.DefaultProfile(cloud)
	}
	return overhead.Profile(m.Profile.ValueString())
}

// overheadInput converts fully known options into the planner's input. base is the path of the object that
// holds the options (path.Empty() at the top level).
func overheadInput(ctx context.Context, base path.Path, m overheadOptionsModel, profile overhead.Profile, inst overhead.Instance, diags *diag.Diagnostics) overhead.Input {
	in := overhead.Input{
		Profile:           profile,
		Instance:          inst,
		KubernetesVersion: m.KubernetesVersion.ValueString(),
		MaxPods:           m.MaxPods.ValueInt64(),
		OSDiskGiB:         m.OSDiskGiB.ValueInt64(),
	}
	if !m.VolumeAttachLimit.IsNull() && !m.VolumeAttachLimit.IsUnknown() {
		v := m.VolumeAttachLimit.ValueInt64()
		in.VolumeAttachLimit = &v
	}
	if !m.EKS.IsNull() {
		var e eksOptionsModel
		diags.Append(m.EKS.As(ctx, &e, basetypes.ObjectAsOptions{})...)
		in.EKS = overhead.EKSOptions{
			Kind: overhead.NodeGroupKind(e.NodeGroupKind.ValueString()), PrefixDelegation: e.PrefixDelegation.ValueBool(),
			CustomNetworking: e.CustomNetworking.ValueBool(), ReservedENIs: e.ReservedENIs.ValueInt64(),
			MaxPodsExpressionResult: e.MaxPodsExpressionResult.ValueInt64(),
		}
	}
	if !m.AKS.IsNull() {
		var a aksOptionsModel
		diags.Append(m.AKS.As(ctx, &a, basetypes.ObjectAsOptions{})...)
		in.AKS.NetworkPlugin = overhead.NetworkPlugin(a.NetworkPlugin.ValueString())
	}
	in.KubeReserved = reservationFromMap(base.AtName("kube_reserved"), m.KubeReserved, diags)
	in.SystemReserved = reservationFromMap(base.AtName("system_reserved"), m.SystemReserved, diags)
	if !m.EvictionHard.IsNull() {
		in.EvictionHard = map[string]overhead.Threshold{}
		for k, e := range m.EvictionHard.Elements() {
			s, _ := e.(types.String)
			q, err := parseQuantity(s.ValueString(), quantityBytesOrPercent)
			if err != nil {
				diags.AddAttributeError(base.AtName("eviction_hard").AtMapKey(k), "Invalid Quantity", sentence(err.Error()))
				continue
			}
			in.EvictionHard[k] = overhead.Threshold{Bytes: q.Value, PercentBP: q.PercentBP, IsPercent: q.IsPercent}
		}
	}
	if !m.MeasuredCapacity.IsNull() {
		var c capacityModel
		diags.Append(m.MeasuredCapacity.As(ctx, &c, basetypes.ObjectAsOptions{})...)
		p := base.AtName("measured_capacity")
		in.MeasuredCapacity = overhead.Reservation{
			CPUMillicores:         optQuantity(p.AtName("cpu"), c.CPU, quantityCPU, diags),
			MemoryBytes:           optQuantity(p.AtName("memory"), c.Memory, quantityBytes, diags),
			EphemeralStorageBytes: optQuantity(p.AtName("ephemeral_storage"), c.EphemeralStorage, quantityBytes, diags),
		}
	}
	if !m.MeasuredAllocatable.IsNull() {
		var a allocatableModel
		diags.Append(m.MeasuredAllocatable.As(ctx, &a, basetypes.ObjectAsOptions{})...)
		p := base.AtName("measured_allocatable")
		in.MeasuredAllocatable = overhead.MeasuredAllocatable{
			CPUMillicores:         optQuantity(p.AtName("cpu"), a.CPU, quantityCPU, diags),
			MemoryBytes:           optQuantity(p.AtName("memory"), a.Memory, quantityBytes, diags),
			EphemeralStorageBytes: optQuantity(p.AtName("ephemeral_storage"), a.EphemeralStorage, quantityBytes, diags),
		}
		if !a.Pods.IsNull() {
			pods := a.Pods.ValueInt64()
			in.MeasuredAllocatable.Pods = &pods
		}
	}
	if !m.VMMemoryOverheadPercent.IsNull() {
		bp := int64(math.Round(m.VMMemoryOverheadPercent.ValueFloat64() * 100))
		in.VMMemoryOverheadBP = &bp
	}
	return in
}

func reservationFromMap(p path.Path, m types.Map, diags *diag.Diagnostics) overhead.Reservation {
	var r overhead.Reservation
	for k, e := range m.Elements() {
		s, _ := e.(types.String)
		kind, ok := reservationKeys[k]
		if !ok {
			diags.AddAttributeError(p.AtMapKey(k), "Unsupported Key", fmt.Sprintf("key %q is not supported; use cpu, memory or ephemeral-storage", k))
			continue
		}
		v := optQuantity(p.AtMapKey(k), s, kind, diags)
		switch k {
		case "cpu":
			r.CPUMillicores = v
		case "memory":
			r.MemoryBytes = v
		default:
			r.EphemeralStorageBytes = v
		}
	}
	return r
}

// overheadRenames maps the overhead planner's field names to the attributes of the node-overhead options
// (and of kubefit_node_overhead's node and DaemonSet attributes) where snake_case is not the answer.
var overheadRenames = renames{
	"Instance":                                  "instance_type",
	"VMMemoryOverheadBP":                        "vm_memory_overhead_percent",
	"EKS.Kind":                                  "node_group_kind",
	"EKS.ReservedENIs":                          "reserved_enis",
	"KubeReserved.CPUMillicores":                "[cpu]",
	"KubeReserved.MemoryBytes":                  "[memory]",
	"KubeReserved.EphemeralStorageBytes":        "[ephemeral-storage]",
	"SystemReserved.CPUMillicores":              "[cpu]",
	"SystemReserved.MemoryBytes":                "[memory]",
	"SystemReserved.EphemeralStorageBytes":      "[ephemeral-storage]",
	"MeasuredCapacity.CPUMillicores":            "cpu",
	"MeasuredCapacity.MemoryBytes":              "memory",
	"MeasuredCapacity.EphemeralStorageBytes":    "ephemeral_storage",
	"MeasuredAllocatable.CPUMillicores":         "cpu",
	"MeasuredAllocatable.MemoryBytes":           "memory",
	"MeasuredAllocatable.EphemeralStorageBytes": "ephemeral_storage",
	"DaemonSets":                                "daemonsets",
	"SystemDaemonSets":                          "system_daemonsets",
	"Requests.CPUMillicores":                    "cpu",
	"Requests.MemoryBytes":                      "memory",
	"Requests.EphemeralStorageBytes":            "ephemeral_storage",
	"Requests.GPU":                              "gpu",
}

// resourcesAttrTypes is the object type of a resource amount in outputs.
var resourcesAttrTypes = map[string]attr.Type{
	"cpu_millicores":          types.Int64Type,
	"memory_bytes":            types.Int64Type,
	"ephemeral_storage_bytes": types.Int64Type,
	"pods":                    types.Int64Type,
	"cpu":                     types.StringType,
	"memory":                  types.StringType,
}

func resourcesAttribute(desc string) schema.SingleNestedAttribute {
	return schema.SingleNestedAttribute{Computed: true, MarkdownDescription: desc,
		Attributes: map[string]schema.Attribute{
			"cpu_millicores":          schema.Int64Attribute{Computed: true, MarkdownDescription: "CPU in millicores."},
			"memory_bytes":            schema.Int64Attribute{Computed: true, MarkdownDescription: "Memory in bytes."},
			"ephemeral_storage_bytes": schema.Int64Attribute{Computed: true, MarkdownDescription: "Ephemeral storage in bytes."},
			"pods":                    schema.Int64Attribute{Computed: true, MarkdownDescription: "Pod slots."},
			"cpu":                     schema.StringAttribute{Computed: true, MarkdownDescription: "CPU as a Kubernetes quantity."},
			"memory":                  schema.StringAttribute{Computed: true, MarkdownDescription: "Memory as a Kubernetes quantity."},
		}}
}

// reservationAttribute is a computed reservation (kube-reserved, system-reserved, eviction threshold):
// amounts of the resources it can reserve, without pod slots; withCPU false leaves CPU out too (eviction
// thresholds reserve only memory and disk).
func reservationAttribute(desc string, withCPU bool) schema.SingleNestedAttribute {
	attrs := map[string]schema.Attribute{
		"memory_bytes":            schema.Int64Attribute{Computed: true, MarkdownDescription: "Memory in bytes."},
		"ephemeral_storage_bytes": schema.Int64Attribute{Computed: true, MarkdownDescription: "Ephemeral storage in bytes."},
		"memory":                  schema.StringAttribute{Computed: true, MarkdownDescription: "Memory as a Kubernetes quantity, such as `574Mi`."},
	}
	if withCPU {
		attrs["cpu_millicores"] = schema.Int64Attribute{Computed: true, MarkdownDescription: "CPU in millicores."}
		attrs["cpu"] = schema.StringAttribute{Computed: true, MarkdownDescription: "CPU as a Kubernetes quantity, such as `70m`."}
	}
	return schema.SingleNestedAttribute{Computed: true, MarkdownDescription: desc, Attributes: attrs}
}

// reservationValue is a reservation's value, in the shape of reservationAttribute.
func reservationValue(r plannerresource.List, withCPU bool) types.Object {
	attrTypes, values := map[string]attr.Type{}, map[string]attr.Value{}
	for name, v := range resourcesValue(r).Attributes() {
		if name == "pods" || (!withCPU && (name == "cpu" || name == "cpu_millicores")) {
			continue
		}
		attrTypes[name], values[name] = resourcesAttrTypes[name], v
	}
	return types.ObjectValueMust(attrTypes, values)
}

func resourcesValue(r plannerresource.List) types.Object {
	return types.ObjectValueMust(resourcesAttrTypes, map[string]attr.Value{
		"cpu_millicores":          types.Int64Value(r.CPUMillicores),
		"memory_bytes":            types.Int64Value(r.MemoryBytes),
		"ephemeral_storage_bytes": types.Int64Value(r.EphemeralStorageBytes),
		"pods":                    types.Int64Value(r.Pods),
		"cpu":                     types.StringValue(plannerresource.QuantityCPU(r.CPUMillicores)),
		"memory":                  types.StringValue(plannerresource.QuantityBytes(r.MemoryBytes)),
	})
}
