package provider

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/float64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/mapvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/burst"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/disk"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/overhead"
)

// sizingPoolAttributes returns the options of one node pool, shared by every object that sizes a pool. With
// nodeBounds the pool takes min_nodes and max_nodes; an object with its own size attributes leaves them out.
func sizingPoolAttributes(nodeBounds bool) map[string]schema.Attribute {
	poolAttrs := overheadOptionAttributes()
	poolAttrs["profile"] = profileAttribute(overhead.PoolProfiles, "")
	poolAttrs["cloud"] = cloudAttribute(true, "")
	poolAttrs["instance_type"] = schema.StringAttribute{Optional: true, MarkdownDescription: "Instance type of the pool's nodes (exactly one of `instance_type` and `instance_types`).",
		Validators: []validator.String{stringvalidator.LengthAtLeast(1), exactlyOneWith{"instance_types"}}}
	poolAttrs["instance_types"] = schema.ListAttribute{Optional: true, ElementType: types.StringType,
		MarkdownDescription: "A mixed pool's instance types: kubefit plans on the smallest member (least workload allocatable CPU, then memory) and says so in `pool_results[*].note`.",
		Validators:          []validator.List{listvalidator.SizeAtLeast(1), listvalidator.ValueStringsAre(stringvalidator.LengthAtLeast(1))}}
	poolAttrs["min_nodes"] = schema.Int64Attribute{Optional: true, MarkdownDescription: "Minimum nodes (default 0); DaemonSets run on them too.", Validators: []validator.Int64{int64validator.AtLeast(0)}}
	poolAttrs["max_nodes"] = schema.Int64Attribute{Required: true, MarkdownDescription: "Maximum nodes the pool may grow to.", Validators: []validator.Int64{int64validator.AtLeast(1)}}
	poolAttrs["zones"] = schema.ListAttribute{Optional: true, ElementType: types.StringType, MarkdownDescription: "Zones the pool's nodes are spread over, round-robin (needed for zone spread)."}
	poolAttrs["labels"] = schema.MapAttribute{Optional: true, ElementType: types.StringType,
		MarkdownDescription: poolLabelsDescription}
	poolAttrs["taints"] = schema.ListNestedAttribute{Optional: true, MarkdownDescription: "Node taints. A GCP pool of Arm (arm64) machine types also carries the " +
		"`kubernetes.io/arch=arm64:NoSchedule` taint GKE puts on Arm nodes, tolerated, as GKE does, by pods whose node selector or node affinity asks for arm64 only.",
		NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
			"key":   schema.StringAttribute{Required: true, MarkdownDescription: "Taint key."},
			"value": schema.StringAttribute{Optional: true, MarkdownDescription: "Taint value."},
			"effect": schema.StringAttribute{Required: true, MarkdownDescription: "One of " + markdownList(fit.TaintEffects) + ".",
				Validators: []validator.String{stringvalidator.OneOf(stringsOf(fit.TaintEffects)...)}},
		}}}
	poolAttrs["capacity_type"] = schema.StringAttribute{Optional: true, MarkdownDescription: "How the nodes are bought: " + markdownList(fit.CapacityTypes) +
		" (default `on_demand`). `spot` pools are what the `spot_loss` disruption loses; an Azure `spot` pool's nodes carry the " +
		"`kubernetes.azure.com/scalesetpriority=spot` label and `NoSchedule` taint AKS gives them, so only pods that tolerate it are placed there. " +
		"The nodes also carry the capacity label of what runs them, which kubefit sets (see `labels`): `eks.amazonaws.com/capacityType` (`ON_DEMAND`, `SPOT`) " +
		"on an EKS managed node group (the default `eks.node_group_kind`), `karpenter.sh/capacity-type` (`on-demand`, `spot`) under Karpenter and EKS Auto Mode, " +
		"`cloud.google.com/gke-spot` on GKE.",
		Validators: []validator.String{stringvalidator.OneOf(stringsOf(fit.CapacityTypes)...)}}
	poolAttrs["extended_resources"] = schema.MapAttribute{Optional: true, ElementType: types.StringType,
		MarkdownDescription: "What one node's allocatable offers of extended resources and huge pages, by name, as quantities: what its device plugins " +
			"advertise (`aws.amazon.com/neuron`, `nvidia.com/mig-1g.10gb` under the NVIDIA plugin's mixed MIG strategy, `vpc.amazonaws.com/efa`, …) and the huge " +
			"pages its kubelet pre-allocates (`hugepages-2Mi = \"1Gi\"`). A pod requesting a resource its pool's nodes do not offer is not placed there " +
			"(reason `extended-resource`), as the scheduler's NodeResourcesFit filter refuses it. kubefit derives `amd.com/gpu` on Azure ND MI300X v5 " +
			"(8) and `aws.amazon.com/neuron` and `aws.amazon.com/neuroncore` on AWS Inferentia and Trainium types (devices per type; cores on inf1, " +
			"inf2, trn1); entries here replace those. Declared huge pages also come out of the node's allocatable memory, as the kubelet takes them. " +
			"Give `nvidia.com/gpu` nowhere here: it is counted from the instance type. A node holds at most floor(offered / requested) pods of one " +
			"workload, and none of another workload requesting one of the same resources (a safe bound: see `requests.extended`).",
		Validators: []validator.Map{mapvalidator.ValueStringsAre(quantityValidator{quantityBytes})}}
	addUpgradeAttributes(poolAttrs)
	poolAttrs["weight"] = schema.Int64Attribute{Optional: true, MarkdownDescription: "Preference among pools a pod could use (higher first, 0–100), after least waste.",
		Validators: []validator.Int64{int64validator.Between(0, 100)}}
	poolAttrs["credit_mode"] = schema.StringAttribute{Optional: true, MarkdownDescription: "Burstable pools: `standard` or `unlimited` (default: the family's default).",
		Validators: []validator.String{stringvalidator.OneOf(stringsOf(burst.Modes)...)}}
	poolAttrs["starting_balance"] = schema.StringAttribute{Optional: true, MarkdownDescription: "Burstable pools: `launch` (default, what a new node starts with), `full`, or a number of credits."}
	poolAttrs["min_hours"] = schema.Int64Attribute{Optional: true, MarkdownDescription: "Burstable pools: hours a node must run before it may be throttled (default 24).",
		Validators: []validator.Int64{int64validator.AtLeast(0)}}
	poolAttrs["max_surplus_cost_per_month"] = schema.Float64Attribute{Optional: true, MarkdownDescription: "Burstable pools: the " + strings.ToLower(maxSurplusCostDescription()[:1]) + maxSurplusCostDescription()[1:],
		Validators: []validator.Float64{float64validator.AtLeast(0)}}

	if !nodeBounds {
		delete(poolAttrs, "min_nodes")
		delete(poolAttrs, "max_nodes")
		delete(poolAttrs, "weight")
		delete(poolAttrs, "capacity_type") // a node group has its own, which also shapes its consumers' outputs
	}
	return poolAttrs
}

// poolLabelsDescription says which labels a pool's nodes carry besides the pool's own: the labels attribute of every
// object that sizes a pool.
const poolLabelsDescription = "Node labels, besides those kubefit gives every node as real nodes carry them: the kubelet's `kubernetes.io/os` and " +
	"`kubernetes.io/arch` (and `beta.kubernetes.io/os`, `beta.kubernetes.io/arch`), the cloud's `node.kubernetes.io/instance-type` (and " +
	"`beta.kubernetes.io/instance-type`), each zone's `topology.kubernetes.io/zone` (and `failure-domain.beta.kubernetes.io/zone`) on that zone's nodes, " +
	"`topology.kubernetes.io/region` (and its beta twin) when the zones name it (`us-east-1a`, `us-central1-a`, AKS's `eastus-1`), and the labels the " +
	"platform puts on every node of a pool, taking the pool's `name` as its node pool's: `kubernetes.azure.com/agentpool` and `agentpool` on Azure; " +
	"`cloud.google.com/gke-nodepool` (and `cloud.google.com/gke-spot` on a `spot` pool) on GCP; on AWS `eks.amazonaws.com/nodegroup` and " +
	"`eks.amazonaws.com/capacityType` for an EKS managed node group, `karpenter.sh/nodepool` and `karpenter.sh/capacity-type` for Karpenter and " +
	"EKS Auto Mode, none for a self-managed group. Labels whose value kubefit cannot know are choices: a mixed pool's instance type (any member's), " +
	"a Windows node's `node.kubernetes.io/windows-build` (`10.0.17763`, `10.0.20348` or `10.0.26100`: Windows Server 2019, 2022, 2025) and an AKS " +
	"pool's `kubernetes.azure.com/mode` (`user` or `system`): a DaemonSet selecting one of the values is counted on the pool, a workload is kept " +
	"off it (the safe side) until the value is given here. A label here may not contradict the operating system, architecture, instance type, " +
	"zone or region kubefit derives (an error names both values). GKE's GPU sharing labels on a GCP pool are read as its nodes' sharing: " +
	"`cloud.google.com/gke-gpu-sharing-strategy` (`time-sharing` or `mps`) with `cloud.google.com/gke-max-shared-clients-per-gpu` (the clients per GPU, as `kubefit_node_group`'s `gpu_sharing` takes them), " +
	"and `cloud.google.com/gke-gpu-partition-size` (a MIG size the GPU takes, as `kubefit_node_group`'s `gpu_sharing.partition_size` lists): " +
	"a node then offers its GPUs × partitions per GPU × clients as `nvidia.com/gpu` (a `kubefit_node_group` sets them with `gpu_sharing`)."

// daemonSetsAttribute is the DaemonSets input shared by every object that packs pods.
func daemonSetsAttribute() schema.ListNestedAttribute {
	return schema.ListNestedAttribute{Optional: true, Validators: []validator.List{uniqueDaemonSets},
		MarkdownDescription: "DaemonSets: one pod on every node of each pool they match (node selector ⊆ labels, tolerations cover the taints). " +
			"One that matches only some of a pool's zones (a zone selector) is counted on every node of the pool, and the pool's note says so; one that lands " +
			"on no pool is counted nowhere, and a warning says so. A DaemonSet's operating system is not read (the DaemonSet controller does not read it " +
			"either): one without an OS selector is counted on Windows nodes too, the safe side. " +
			"On EKS Linux nodes (not Auto Mode) the host-network `aws-node` and `kube-proxy` pods take a pod slot on every node, listed or not, and no pod IP. " +
			"The platform's system DaemonSets count beside these unless `system_daemonsets = \"listed\"`; a DaemonSet listed under a system DaemonSet's name replaces it on the pools it lands on (its node selector, affinity and tolerations admit them), and the pool's note says so.",
		NestedObject: schema.NestedAttributeObject{Attributes: addMisplacedRequests(map[string]schema.Attribute{
			"name":           schema.StringAttribute{Required: true, MarkdownDescription: "DaemonSet name."},
			"requests":       requestsAttribute("Requests of one pod."),
			"cpu_usage":      schema.StringAttribute{Optional: true, MarkdownDescription: "Expected real CPU use of one pod (for burstable credit checks).", Validators: []validator.String{quantityValidator{quantityCPU}}},
			"node_selector":  schema.MapAttribute{Optional: true, ElementType: types.StringType, MarkdownDescription: "Node selector."},
			"tolerations":    tolerationsAttribute(),
			"node_affinity":  nodeAffinityAttribute(),
			"host_ports":     hostPortsAttribute("DaemonSet"),
			"takes_pod_slot": schema.BoolAttribute{Optional: true, MarkdownDescription: "Whether the pod counts against max pods (default `true`)."},
		}, "DaemonSet")}}
}

// systemDaemonSetsAttribute is the system_daemonsets input of every object that takes daemonsets: whether the
// platform's system DaemonSets count beside them.
func systemDaemonSetsAttribute() schema.StringAttribute {
	return optionalOneOf(stringsOf(overhead.SystemDaemonSetsModes), "Which DaemonSets count beside `daemonsets`, one of "+
		markdownList(overhead.SystemDaemonSetsModes)+" (default `platform`). `platform`: also the system DaemonSets the platform "+
		"runs on every node, as measured on real nodes; a DaemonSet of `daemonsets` with one's name replaces it on the pools it lands on "+
		"(list `kube-proxy` with your own requests to replace the platform's; where yours does not land, the platform's still counts): on AKS Linux `kube-proxy` 100m, `azure-ip-masq-agent` 100m/50Mi, `cloud-node-manager` "+
		"50m/50Mi, `csi-azuredisk-node` and `csi-azurefile-node` 30m/60Mi each, and `azure-cns` 40m/250Mi with Azure CNI overlay or pod subnet "+
		"(6 pods, 350m CPU, 470Mi); on GKE Standard `fluentbit-gke` 105m/230Mi, `gke-metrics-agent` 21m/145Mi, `kube-proxy` 100m and "+
		"`pdcsi-node` 10m/20Mi (4 pods, 236m, 395Mi); on EKS Linux (not Auto Mode) `aws-node` 50m (its CNI and network policy agent containers) and `kube-proxy` 100m; on AKS "+
		"Windows `cloud-node-manager-windows` 50m/50Mi, `csi-azuredisk-node-win` and `csi-azurefile-node-win` 60m/120Mi each "+
		"(3 pods, 170m, 290Mi), and `azure-cns-win` with Azure CNI overlay or pod subnet, a pod slot without requests (no source gives them); "+
		"none on EKS Windows nodes. On accelerator nodes also their device plugins: on GKE GPU nodes `nvidia-gpu-device-plugin` 150m/80Mi and "+
		"`nvidia-driver-installer` 150m (both, the safe side: the installer runs as its own pod only where the driver is installed by hand); "+
		"on EKS AL2023 and AL2 NVIDIA GPU nodes and AKS Linux GPU nodes `nvidia-device-plugin-daemonset`, and on EKS Inferentia and Trainium nodes "+
		"(AL2023, AL2, Bottlerocket) `neuron-device-plugin`, each a pod slot (and on EKS a pod IP) without requests (Bottlerocket and Auto Mode "+
		"carry the NVIDIA plugin on the host). Add-ons a cluster turns on (GKE's `gke-metadata-server`, `netd`, `node-local-dns`; EKS's `ebs-csi-node`, "+
		"`eks-pod-identity-agent`; AKS's monitoring agents `ama-logs`, `ama-metrics-node`) are not in the set: list them. `listed`: only `daemonsets` count, for a cluster whose system set "+
		"differs (another CNI, Cilium's kube-proxy replacement); on EKS Linux `aws-node` and `kube-proxy` still take their pod "+
		"slots. Each pool's results say which system DaemonSets were counted (`daemonsets`, `note`, the report).")
}

// workloadsAttribute is the workloads input shared by every object that packs pods.
func workloadsAttribute() schema.ListNestedAttribute {
	return schema.ListNestedAttribute{Required: true, MarkdownDescription: "Workloads: sets of identical pods.", Validators: []validator.List{uniqueWorkloads},
		NestedObject: schema.NestedAttributeObject{Attributes: addMisplacedRequests(map[string]schema.Attribute{
			"name":                    schema.StringAttribute{Required: true, MarkdownDescription: "Workload name, unique within its `namespace` (workloads of one name in two namespaces are planned as `namespace/name`)."},
			"replicas":                schema.Int64Attribute{Optional: true, MarkdownDescription: "Fixed replica count (or give `min_replicas`/`max_replicas`).", Validators: []validator.Int64{int64validator.AtLeast(0)}},
			"min_replicas":            schema.Int64Attribute{Optional: true, MarkdownDescription: "Autoscaled: the steady (minimum) replica count.", Validators: []validator.Int64{int64validator.AtLeast(0)}},
			"max_replicas":            schema.Int64Attribute{Optional: true, MarkdownDescription: "Autoscaled: the peak (maximum) replica count.", Validators: []validator.Int64{int64validator.AtLeast(0)}},
			"requests":                workloadRequestsAttribute("Requests of one pod."),
			"cpu_usage":               schema.StringAttribute{Optional: true, MarkdownDescription: "Expected real CPU use of one pod, separate from its request; burstable pools check it against their credit budget.", Validators: []validator.String{quantityValidator{quantityCPU}}},
			"node_selector":           schema.MapAttribute{Optional: true, ElementType: types.StringType, MarkdownDescription: "Node selector."},
			"tolerations":             tolerationsAttribute(),
			"node_affinity":           nodeAffinityAttribute(),
			"preferred_node_affinity": preferredNodeAffinityAttribute(),
			"host_ports":              hostPortsAttribute("workload"),
			"volume_claims":           volumeClaimsAttribute(),
			"namespace":               schema.StringAttribute{Optional: true, MarkdownDescription: "Namespace of the pods (default `default`), which inter-pod affinity terms look in."},
			"labels": schema.MapAttribute{Optional: true, ElementType: types.StringType,
				MarkdownDescription: "Labels of the pods, which inter-pod affinity terms select (default `app = <name>`)."},
			"pod_affinity":      podAffinityAttribute(false),
			"pod_anti_affinity": podAffinityAttribute(true),
			"topology_spread":   topologySpreadAttribute(),
			"priority": schema.Int64Attribute{Optional: true, MarkdownDescription: "Priority of the pods: their PriorityClass's `value` (default 0; " +
				"`data.kubefit_workloads` fills it from the manifests). Pods that wait in the scheduling queue together leave it highest " +
				"priority first, so the rollout orders are also planned so sorted; what a Pending pod would preempt is reported, never " +
				"counted on. Between -2147483648 and 2000001000 (`system-node-critical`).",
				Validators: []validator.Int64{int64validator.Between(math.MinInt32, 2000001000)}},
			"pools": schema.ListAttribute{Optional: true, ElementType: types.StringType,
				MarkdownDescription: "Restrict the workload to these pools (names from `pools`)."},
			"os": schema.StringAttribute{Optional: true, MarkdownDescription: "The operating system the pods' containers are built for, as a pod says it in " +
				"`spec.os.name` (or its `kubernetes.io/os` label): `linux` or `windows` (`data.kubefit_workloads` fills it from the manifests). Unset, a workload " +
				"is a Linux one unless its `node_selector` names `kubernetes.io/os` (or `beta.kubernetes.io/os`) or its `node_affinity` names that label: kubefit " +
				"cannot see images. It is planned only on pools of that operating system, since the kubelet refuses a pod of another OS and an image of another OS " +
				"never starts; kube-scheduler does not read it, so where nothing else keeps the pods off a pool of the other OS (a `node_selector` on " +
				"`kubernetes.io/os`, a taint) a warning says the scheduler may bind them there.",
				Validators: []validator.String{stringvalidator.OneOf("linux", "windows")}},
			"pod_disruption_budget": podDisruptionBudgetAttribute(),
			"max_surge": schema.StringAttribute{Optional: true,
				MarkdownDescription: "Extra pods during a rolling update at peak: a count (`2`) or a percentage of `max_replicas`, rounded up (`25%`). Default `0`: " +
					"no surge is counted unless given, although a Deployment's own default is `25%`; give the workload's real `maxSurge` for the peak of a rollout."},
			"spread": schema.SingleNestedAttribute{Optional: true, MarkdownDescription: "Spread of the pods.",
				Attributes: map[string]schema.Attribute{
					"type": schema.StringAttribute{Required: true, MarkdownDescription: "`none`, `node` (one pod per node) or `zone` (across the pool's zones).",
						Validators: []validator.String{stringvalidator.OneOf(stringsOf(fit.SpreadTypes)...)}},
					"max_skew": schema.Int64Attribute{Optional: true, MarkdownDescription: "Zone spread: the largest allowed difference of pod counts between zones (default 1).",
						Validators: []validator.Int64{int64validator.AtLeast(1)}},
				}},
		}, "workload")}}
}

func requestsAttribute(desc string) schema.SingleNestedAttribute {
	return schema.SingleNestedAttribute{Optional: true, MarkdownDescription: desc,
		Attributes: map[string]schema.Attribute{
			"cpu":               schema.StringAttribute{Optional: true, MarkdownDescription: "CPU request, e.g. `500m`.", Validators: []validator.String{quantityValidator{quantityCPU}}},
			"memory":            schema.StringAttribute{Optional: true, MarkdownDescription: "Memory request, e.g. `512Mi`.", Validators: []validator.String{quantityValidator{quantityBytes}}},
			"ephemeral_storage": schema.StringAttribute{Optional: true, MarkdownDescription: "Ephemeral-storage request, e.g. `1Gi`.", Validators: []validator.String{quantityValidator{quantityBytes}}},
			"gpu":               schema.Int64Attribute{Optional: true, MarkdownDescription: "GPUs (`nvidia.com/gpu`) per pod.", Validators: []validator.Int64{int64validator.AtLeast(0)}},
		}}
}

// workloadRequestsAttribute is a workload's requests: requestsAttribute's and its extended resources.
func workloadRequestsAttribute(desc string) schema.SingleNestedAttribute {
	a := requestsAttribute(desc)
	a.Attributes["extended"] = schema.MapAttribute{Optional: true, ElementType: types.StringType,
		MarkdownDescription: "Extended resources and huge pages one pod requests, by name, as quantities (`amd.com/gpu = \"1\"`, " +
			"`aws.amazon.com/neuron = \"1\"`, `nvidia.com/mig-1g.10gb = \"1\"`, `hugepages-2Mi = \"64Mi\"`); `data.kubefit_workloads` fills it from the " +
			"manifests. The pods are placed only on pools whose nodes offer each (`extended_resources`, or derived from the instance type), as the " +
			"scheduler's NodeResourcesFit filter places them. kubefit does not pack these resources as dimensions: it takes the safe bound, at most " +
			"floor(offered / requested) pods of the workload per node and no node shared with another workload requesting one of the same resources " +
			"(where two workloads could share a node's devices, the plan may count a node too many, never too few). A pod requesting one also gets " +
			"the toleration of a `NoSchedule` taint named after it, as the ExtendedResourceToleration admission plugin of EKS, AKS and GKE gives it. " +
			"Extended resources must be whole numbers; `nvidia.com/gpu` goes in `gpu`.",
		Validators: []validator.Map{mapvalidator.ValueStringsAre(quantityValidator{quantityBytes})}}
	return a
}

// nodeSelectorRequirementsAttribute is the match_expressions of a node affinity term.
func nodeSelectorRequirementsAttribute() schema.ListNestedAttribute {
	return schema.ListNestedAttribute{Optional: true, MarkdownDescription: "Expressions, all of which must hold (none: the term matches no node, as in Kubernetes).",
		NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
			"key": schema.StringAttribute{Required: true, MarkdownDescription: "Node label key."},
			"operator": schema.StringAttribute{Required: true, MarkdownDescription: "One of " + markdownList(fit.NodeSelectorOperators) + ".",
				Validators: []validator.String{stringvalidator.OneOf(stringsOf(fit.NodeSelectorOperators)...)}},
			"values": schema.ListAttribute{Optional: true, ElementType: types.StringType,
				MarkdownDescription: "Values: one or more for `In` and `NotIn`, none for `Exists` and `DoesNotExist`, one integer for `Gt` and `Lt`."},
		}}}
}

// preferredNodeAffinityAttribute is a workload's preferred node affinity, in the shape of
// preferredDuringSchedulingIgnoredDuringExecution with a term's preference flattened beside its weight.
func preferredNodeAffinityAttribute() schema.ListNestedAttribute {
	return schema.ListNestedAttribute{Optional: true,
		MarkdownDescription: "Preferred node affinity (`preferredDuringSchedulingIgnoredDuringExecution`): a score, not a filter. As the scheduler's NodeAffinity " +
			"plugin weighs it (weight 2 in the default profile and in `most-allocated`), a node scores the sum of the `weight`s of the terms it matches, " +
			"normalised over the nodes the pod may use, so the pods fill the nodes they prefer first: a workload that may only use a pool another one prefers " +
			"is sized for the nodes that one takes there. Expressions see the same labels as `node_affinity`'s (a hostname is not known before a node exists: " +
			"`In` or `Exists` on `kubernetes.io/hostname` matches no planned node). The best packing (`nodes_optimal` of `kubefit_node_pool_sizing`) ignores it.",
		NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
			"weight": schema.Int64Attribute{Required: true, MarkdownDescription: fmt.Sprintf("Weight of the term in the score (1–%d).", fit.MaxPreferenceWeight),
				Validators: []validator.Int64{int64validator.Between(1, fit.MaxPreferenceWeight)}},
			"match_expressions": nodeSelectorRequirementsAttribute(),
		}}}
}

// nodeAffinityAttribute is a pod's required node affinity, in the shape of
// requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms.
func nodeAffinityAttribute() schema.ListNestedAttribute {
	return schema.ListNestedAttribute{Optional: true,
		MarkdownDescription: "Required node affinity (`requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms`): a node must match one term, " +
			"and a term matches when all its expressions hold, as the scheduler's NodeAffinity filter decides. Expressions see the labels of the pool's " +
			"nodes (see the pools' `labels`: the pool's own, the well-known ones kubefit derives and each zone's `topology.kubernetes.io/zone`); a pool is used " +
			"only when the nodes of all its zones match, whatever value a label kubefit cannot know has.",
		NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
			"match_expressions": nodeSelectorRequirementsAttribute(),
		}}}
}

// hostPortsAttribute is the host ports a pod takes on its node.
func hostPortsAttribute(what string) schema.ListNestedAttribute {
	desc := "Host ports each pod takes on its node (a container's `hostPort`, or every container port with `hostNetwork`), as the scheduler's NodePorts filter checks them: " +
		"two pods asking for the same port and protocol on overlapping addresses never share a node. "
	if what == "workload" {
		desc += "So at most one pod of the workload runs on a node, and none on a node whose DaemonSet takes the same port; the pods of two workloads asking for the same port never share a node either (the best packing, `nodes_optimal` of `kubefit_node_pool_sizing`, does not keep them apart; the scheduler model the sizes come from does)."
	} else {
		desc += "A workload asking for a port the DaemonSet takes cannot use the pools the DaemonSet runs on."
	}
	return schema.ListNestedAttribute{Optional: true, MarkdownDescription: desc,
		NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
			"port": schema.Int64Attribute{Required: true, MarkdownDescription: "Port number (1–65535).", Validators: []validator.Int64{int64validator.Between(1, 65535)}},
			"protocol": schema.StringAttribute{Optional: true, MarkdownDescription: "One of " + markdownList(fit.HostPortProtocols) + " (default `TCP`).",
				Validators: []validator.String{stringvalidator.OneOf(fit.HostPortProtocols...)}},
			"ip": schema.StringAttribute{Optional: true, MarkdownDescription: "Host IP the port binds to (default: every address)."},
		}}}
}

// labelSelectorAttribute is a label selector over the workloads' pods.
func labelSelectorAttribute(what string) schema.SingleNestedAttribute {
	return schema.SingleNestedAttribute{Optional: true, MarkdownDescription: what + ", by their `labels` (null: no pod, as in Kubernetes; `{}`: every pod).",
		Attributes: map[string]schema.Attribute{
			"match_labels": schema.MapAttribute{Optional: true, ElementType: types.StringType, MarkdownDescription: "Labels a pod must carry, with these values."},
			"match_expressions": schema.ListNestedAttribute{Optional: true, MarkdownDescription: "Expressions a pod's labels must meet, all of them.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"key": schema.StringAttribute{Required: true, MarkdownDescription: "Label key."},
					"operator": schema.StringAttribute{Required: true, MarkdownDescription: "One of " + markdownList(fit.LabelSelectorOperators) + ".",
						Validators: []validator.String{stringvalidator.OneOf(stringsOf(fit.LabelSelectorOperators)...)}},
					"values": schema.ListAttribute{Optional: true, ElementType: types.StringType, MarkdownDescription: "Values: one or more for `In` and `NotIn`, none for `Exists` and `DoesNotExist`."},
				}}},
		}}
}

// topologySpreadAttribute is a pod's topologySpreadConstraints.
func topologySpreadAttribute() schema.ListNestedAttribute {
	return schema.ListNestedAttribute{Optional: true,
		MarkdownDescription: "Topology spread constraints (`topologySpreadConstraints`), as the scheduler's PodTopologySpread plugin applies them: the pods the selector " +
			"matches may differ by at most `max_skew` between the domains of `topology_key`. `spread = { type = \"zone\" }` is shorthand for one on the zone on the pods' own labels (with `node_taints_policy` Ignore: in `node_loss` and `zone_loss` the lost nodes, unreachable, still count). " +
			"The best packing (`nodes_optimal` of `kubefit_node_pool_sizing`) does not apply them; the scheduler model, which the sizes come from, does, and a workload that has them gets no system default spreading.",
		NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
			"max_skew":     schema.Int64Attribute{Required: true, MarkdownDescription: "The largest allowed difference of matching pods between two domains (at least 1).", Validators: []validator.Int64{int64validator.AtLeast(1)}},
			"topology_key": schema.StringAttribute{Required: true, MarkdownDescription: "The node label whose values are the domains (`kubernetes.io/hostname`, `topology.kubernetes.io/zone`, or a label of the pools)."},
			"when_unsatisfiable": schema.StringAttribute{Optional: true, MarkdownDescription: "`DoNotSchedule` (default: a filter) or `ScheduleAnyway` (a score).",
				Validators: []validator.String{stringvalidator.OneOf(stringsOf(fit.UnsatisfiableValues)...)}},
			"label_selector": labelSelectorAttribute("The pods counted"),
			"min_domains":    schema.Int64Attribute{Optional: true, MarkdownDescription: "With `DoNotSchedule`: fewer domains than this count the missing ones as holding no pod.", Validators: []validator.Int64{int64validator.AtLeast(1)}},
			"node_affinity_policy": schema.StringAttribute{Optional: true, MarkdownDescription: "`Honor` (default: count only the nodes the pod's node selector and affinity allow) or `Ignore`.",
				Validators: []validator.String{stringvalidator.OneOf(stringsOf(fit.InclusionPolicies)...)}},
			"node_taints_policy": schema.StringAttribute{Optional: true, MarkdownDescription: "`Ignore` (default) or `Honor` (count only the nodes whose taints the pod tolerates).",
				Validators: []validator.String{stringvalidator.OneOf(stringsOf(fit.InclusionPolicies)...)}},
			"match_label_keys": schema.ListAttribute{Optional: true, ElementType: types.StringType, MarkdownDescription: "Pod label keys whose values (from the pod's `labels`) are added to the selector."},
		}}}
}

// podAffinityAttribute is a pod's inter-pod affinity (anti = false) or anti-affinity, in the shape of
// podAffinity/podAntiAffinity with a preferred term's podAffinityTerm flattened beside its weight.
func podAffinityAttribute(anti bool) schema.SingleNestedAttribute {
	what, verb := "affinity", "near"
	if anti {
		what, verb = "anti-affinity", "away from"
	}
	term := func(preferred bool) map[string]schema.Attribute {
		a := map[string]schema.Attribute{
			"topology_key":   schema.StringAttribute{Required: true, MarkdownDescription: "The node label whose values are the domains: `kubernetes.io/hostname` (each node), `topology.kubernetes.io/zone` (each zone), or a label of the pools (its values; a node of a pool without it is in no domain)."},
			"label_selector": labelSelectorAttribute("The pods the term looks for"),
			"namespaces":     schema.ListAttribute{Optional: true, ElementType: types.StringType, MarkdownDescription: "Namespaces the term looks in (none: the pod's own)."},
			"all_namespaces": schema.BoolAttribute{Optional: true, MarkdownDescription: "Look in every namespace (a `namespaceSelector` of `{}`)."},
		}
		if preferred {
			a["weight"] = schema.Int64Attribute{Required: true, MarkdownDescription: "Weight of the term in the score (1–100).", Validators: []validator.Int64{int64validator.Between(1, 100)}}
		}
		return a
	}
	return schema.SingleNestedAttribute{Optional: true,
		MarkdownDescription: fmt.Sprintf("Inter-pod %s (`podAffinity` / `podAntiAffinity`): the pods go %s the pods a term selects, in the same topology domain, "+
			"as the scheduler's InterPodAffinity plugin decides: `required` terms filter nodes, `preferred` terms weigh them.", what, verb) +
			map[bool]string{true: " A placed pod's required anti-affinity also keeps the pods it selects out of its domain.", false: ""}[anti],
		Attributes: map[string]schema.Attribute{
			"required": schema.ListNestedAttribute{Optional: true, MarkdownDescription: "`requiredDuringSchedulingIgnoredDuringExecution`: every term must hold.",
				NestedObject: schema.NestedAttributeObject{Attributes: term(false)}},
			"preferred": schema.ListNestedAttribute{Optional: true, MarkdownDescription: "`preferredDuringSchedulingIgnoredDuringExecution`: terms with weights.",
				NestedObject: schema.NestedAttributeObject{Attributes: term(true)}},
		}}
}

// volumeClaimsAttribute is the persistent volume claims one pod mounts, in the shape kubefit_workloads
// outputs.
func volumeClaimsAttribute() schema.ListNestedAttribute {
	return schema.ListNestedAttribute{Optional: true,
		MarkdownDescription: "Persistent volume claims one pod mounts (`kubefit_workloads` outputs them in this shape). Each claim but a `ReadWriteMany` one " +
			"is a block disk attached to the pod's node (a `ReadOnlyMany` disk too: each node it attaches to spends a slot), and a node attaches at most its instance type's " +
			"volume limit (`attachable-volumes`, the count the cloud's disk CSI driver reports and the scheduler's NodeVolumeLimits filter enforces; " +
			"see `kubefit_node_overhead.volume_attach_limit`). `ReadWriteMany` claims are file shares (EFS, Azure Files, Filestore), which no attach limit counts.",
		NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
			"name":          schema.StringAttribute{Required: true, MarkdownDescription: "Claim name (unique in the pod)."},
			"size":          schema.StringAttribute{Optional: true, MarkdownDescription: "Storage request, e.g. `20Gi` (reported; it does not change where a pod may run).", Validators: []validator.String{quantityValidator{quantityBytes}}},
			"storage_class": schema.StringAttribute{Optional: true, MarkdownDescription: "`storageClassName` (null: the cluster's default class)."},
			"access_modes": schema.ListAttribute{Optional: true, ElementType: types.StringType,
				MarkdownDescription: "Access modes: " + markdownList(fit.AccessModes) + " (none: `ReadWriteOnce`).",
				Validators:          []validator.List{listvalidator.ValueStringsAre(stringvalidator.OneOf(stringsOf(fit.AccessModes)...))}},
			"from": schema.StringAttribute{Optional: true,
				MarkdownDescription: "`volumeClaimTemplates` (default) or `ephemeral`: a claim of its own for every pod; `persistentVolumeClaim`: one named claim every pod of the workload shares.",
				Validators:          []validator.String{stringvalidator.OneOf(stringsOf(fit.ClaimSources)...)}},
			"iops": schema.Int64Attribute{Optional: true, Validators: []validator.Int64{int64validator.AtLeast(0)},
				MarkdownDescription: "The volume's provisioned sustained IOPS: `kubefit_disk_tier`'s `baseline_iops` for the class's type, size and settings. " +
					"(`kubefit_storage_class`'s `performance.baseline_iops` gives the same figure, but a value computed by a resource that changes is " +
					"known only at apply, and Terraform then reads this data source at apply, so the plan no longer says whether the pods fit.) The volumes a node " +
					"attaches share its instance type's disk limits (EBS-optimized baseline, Azure uncached VM limits); a pool whose nodes get more than " +
					"they sustain is warned about, naming the node, the sums and the limits. Null: not checked (null from `kubefit_workloads`)."},
			"throughput_mbps": schema.Float64Attribute{Optional: true, Validators: []validator.Float64{float64validator.Between(0, 1e9)},
				MarkdownDescription: "The volume's provisioned sustained throughput, in the unit the cloud publishes volume throughput in: MiB/s on AWS " +
					"and GCP, MB/s on Azure (`kubefit_disk_tier`'s `baseline_throughput_mbps`, as for `iops`); checked with `iops`."},
			"disk_type": schema.StringAttribute{Optional: true, Validators: []validator.String{stringvalidator.OneOf(disk.GCETypes...)},
				MarkdownDescription: "GCP: the disk type of the claim's StorageClass (its `gce_pd.type`: one of " + markdownList(disk.GCETypes) + "), checked " +
					"against the machine series of every GCP pool the workload's pods land on (disks.md §6.1): a type the series cannot attach " +
					"(`pd-balanced` on N4 or C4, `hyperdisk-balanced` on E2 or N2, …) fails the plan on this attribute, as the pods would stay in " +
					"`ContainerCreating`; a series kubefit has no source for warns. Null: not checked (null from `kubefit_workloads`)."},
		}}}
}

func tolerationsAttribute() schema.ListNestedAttribute {
	return schema.ListNestedAttribute{Optional: true,
		MarkdownDescription: "Tolerations, with Kubernetes semantics: an empty `key` with operator `Exists` tolerates every taint; an empty `effect` matches every effect.",
		NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
			"key": schema.StringAttribute{Optional: true, MarkdownDescription: "Taint key."},
			"operator": schema.StringAttribute{Optional: true, MarkdownDescription: "`Equal` (default) or `Exists`.",
				Validators: []validator.String{stringvalidator.OneOf(stringsOf(fit.TolerationOperators)...)}},
			"value": schema.StringAttribute{Optional: true, MarkdownDescription: "Taint value, with `Equal`."},
			"effect": schema.StringAttribute{Optional: true, MarkdownDescription: "Effect to tolerate: " + markdownList(fit.TaintEffects) + "; empty for all.",
				Validators: []validator.String{stringvalidator.OneOf(stringsOf(fit.TaintEffects)...)}},
		}}}
}

// resourceAttributes converts data-source attributes into the same resource attributes, so a resource takes
// exactly the inputs a data source does from one schema builder.
func resourceAttributes(in map[string]schema.Attribute) map[string]rschema.Attribute {
	out := make(map[string]rschema.Attribute, len(in))
	for k, a := range in {
		out[k] = resourceAttribute(a)
	}
	return out
}

func resourceAttribute(a schema.Attribute) rschema.Attribute {
	switch a := a.(type) {
	case schema.StringAttribute:
		return rschema.StringAttribute{Required: a.Required, Optional: a.Optional, Computed: a.Computed, Sensitive: a.Sensitive,
			MarkdownDescription: a.MarkdownDescription, Validators: a.Validators}
	case schema.Int64Attribute:
		return rschema.Int64Attribute{Required: a.Required, Optional: a.Optional, Computed: a.Computed,
			MarkdownDescription: a.MarkdownDescription, Validators: a.Validators}
	case schema.Float64Attribute:
		return rschema.Float64Attribute{Required: a.Required, Optional: a.Optional, Computed: a.Computed,
			MarkdownDescription: a.MarkdownDescription, Validators: a.Validators}
	case schema.BoolAttribute:
		return rschema.BoolAttribute{Required: a.Required, Optional: a.Optional, Computed: a.Computed,
			MarkdownDescription: a.MarkdownDescription, Validators: a.Validators}
	case schema.ListAttribute:
		return rschema.ListAttribute{Required: a.Required, Optional: a.Optional, Computed: a.Computed, ElementType: a.ElementType,
			MarkdownDescription: a.MarkdownDescription, Validators: a.Validators}
	case schema.MapAttribute:
		return rschema.MapAttribute{Required: a.Required, Optional: a.Optional, Computed: a.Computed, ElementType: a.ElementType,
			MarkdownDescription: a.MarkdownDescription, Validators: a.Validators}
	case schema.SingleNestedAttribute:
		return rschema.SingleNestedAttribute{Required: a.Required, Optional: a.Optional, Computed: a.Computed,
			MarkdownDescription: a.MarkdownDescription, Validators: a.Validators, Attributes: resourceAttributes(a.Attributes)}
	case schema.ListNestedAttribute:
		return rschema.ListNestedAttribute{Required: a.Required, Optional: a.Optional, Computed: a.Computed,
			MarkdownDescription: a.MarkdownDescription, Validators: a.Validators,
			NestedObject: rschema.NestedAttributeObject{Attributes: resourceAttributes(a.NestedObject.Attributes)}}
	case schema.MapNestedAttribute:
		return rschema.MapNestedAttribute{Required: a.Required, Optional: a.Optional, Computed: a.Computed,
			MarkdownDescription: a.MarkdownDescription, Validators: a.Validators,
			NestedObject: rschema.NestedAttributeObject{Attributes: resourceAttributes(a.NestedObject.Attributes)}}
	}
	panic(fmt.Sprintf("resourceAttribute: unsupported attribute type %T", a))
}

// uniqueNames rejects a second element of a list of objects with the same known name: a DaemonSet or
// workload listed twice would be counted twice. It runs during validation, whatever else is unknown.
type uniqueNames struct {
	what, why string
	// byNamespace keys the names by the element's namespace too: workloads of one name in two namespaces (two
	// kubefit_workloads reads concatenated) are two workloads (qualifyWorkloadNames names them apart).
	byNamespace bool
}

func (v uniqueNames) Description(context.Context) string {
	return v.what + " names must be unique"
}

func (v uniqueNames) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v uniqueNames) ValidateList(_ context.Context, req validator.ListRequest, resp *validator.ListResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	elems := req.ConfigValue.Elements()
	v.check(req.Path, len(elems), func(i int) (string, bool) {
		obj, ok := elems[i].(types.Object)
		if !ok || obj.IsNull() || obj.IsUnknown() {
			return "", false
		}
		name, ok := obj.Attributes()["name"].(types.String)
		if !ok || name.IsNull() || name.IsUnknown() {
			return "", false
		}
		if ns, ok := obj.Attributes()["namespace"].(types.String); v.byNamespace && ok {
			if ns.IsUnknown() {
				return "", false
			}
			return ns.ValueString() + "/" + name.ValueString(), true
		}
		return name.ValueString(), true
	}, &resp.Diagnostics)
}

// validateRaw is ValidateList on the configured value itself (see rawListValidator): the names are read from
// it without converting the whole list.
func (v uniqueNames) validateRaw(p path.Path, tv tftypes.Value, diags *diag.Diagnostics) {
	var elems []tftypes.Value
	if !tv.IsKnown() || tv.IsNull() || tv.As(&elems) != nil {
		return
	}
	v.check(p, len(elems), func(i int) (string, bool) {
		var attrs map[string]tftypes.Value
		if !elems[i].IsKnown() || elems[i].IsNull() || elems[i].As(&attrs) != nil {
			return "", false
		}
		var name string
		if n, ok := attrs["name"]; !ok || !n.IsKnown() || n.IsNull() || n.As(&name) != nil {
			return "", false
		}
		if ns, ok := attrs["namespace"]; v.byNamespace && ok {
			var s string
			if !ns.IsKnown() {
				return "", false
			}
			if !ns.IsNull() && ns.As(&s) != nil {
				return "", false
			}
			return s + "/" + name, true
		}
		return name, true
	}, diags)
}

// check reports every element of a list at p of n elements whose known name (name(i), ok) an earlier one has.
func (v uniqueNames) check(p path.Path, n int, name func(i int) (string, bool), diags *diag.Diagnostics) {
	seen := map[string]int{}
	for i := range n {
		nm, ok := name(i)
		if !ok {
			continue
		}
		at := p.AtListIndex(i).AtName("name")
		if j, dup := seen[nm]; dup {
			what := "names"
			if v.byNamespace {
				what = "names within a namespace"
			}
			diags.AddAttributeError(at, "Duplicate "+v.what,
				fmt.Sprintf("%s %s is also the name of %s; %s %s must be unique, %s.", at, field.Quote(strings.TrimPrefix(nm, "/")),
					p.AtListIndex(j).AtName("name"), v.what, what, v.why))
			continue
		}
		seen[nm] = i
	}
}

var (
	uniqueDaemonSets = uniqueNames{what: "DaemonSet", why: "or the node would count the same pods twice"}
	uniqueWorkloads  = uniqueNames{what: "workload", why: "or its pods would be counted twice", byNamespace: true}
)

// schedulerProfileAttribute is the input naming the cluster's kube-scheduler profile.
func schedulerProfileAttribute() schema.StringAttribute {
	return optionalOneOf(stringsOf(fit.SchedulerProfiles), "The cluster's kube-scheduler profile: `default` "+
		"(NodeResourcesFit `LeastAllocated`, which spreads pods over the emptiest nodes; EKS, AKS and GKE's default) or "+
		"`most-allocated` (fills the fullest nodes first, as GKE's `optimize-utilization` profile does). Default `default`. "+
		"Both are modelled score for score against the real kube-scheduler; its ties, which its goroutines' timing "+
		"decides, are sampled, and on large inputs, where only a few draws can be checked, `nodes_required` carries 2 nodes (one per 250 on pools above 500) of "+
		"margin per pool the scheduler grew.")
}

// arrivalOrderAttribute is the input naming the order in which pods reach the scheduler.
func arrivalOrderAttribute() schema.StringAttribute {
	return optionalOneOf(stringsOf(fit.ArrivalOrders), "The order in which the pods reach kube-scheduler's "+
		"queue. `rollout` (default): everything rolls out at once, so the count must hold for the replicas of all workloads "+
		"interleaved and for three seeded random orders; the worst of them bounds it, and the report names it. "+
		"`in-order`: workload after workload, as listed (a staged rollout). `largest-first`: the largest pods first (a "+
		"bin-packing admission order, the one in which the scheduler comes closest to the best packing).")
}

// disruptionsAttribute is the input naming the disruption scenarios to check.
func disruptionsAttribute() schema.ListAttribute {
	return schema.ListAttribute{Optional: true, ElementType: types.StringType,
		MarkdownDescription: "Disruption scenarios to check on the steady scenario's placement, each failing the plan like a misfit " +
			"(see `disruption_results`): `node_loss` (for each pool its busiest node is lost: its pods must bind on the surviving nodes, the " +
			"pool growing within its maximum node count less the lost node, which keeps its place until it is replaced; the node is planned " +
			"as hung, the worse case: NotReady and tainted unreachable until auto-repair replaces it, so a topology spread ignoring taints " +
			"still counts it, holding none of the pods; pods whose block volumes are in the node's zone stay in that zone); `zone_loss` (for each zone, every node in it is lost: pods whose block " +
			"volumes are there stay with them, stuck by design and reported; the others must bind in the other zones, each pool growing " +
			"there within its maximum node count); `spot_loss` (every node of every spot pool, `capacity_type = \"spot\"`, is lost at once, " +
			"as when the cloud reclaims its spot capacity: their pods must bind on the on-demand pools, each growing within its maximum node count; " +
			"the spot pools add no node. Asking for it with no spot pool is an error naming the pools to mark, since nothing could be lost); " +
			"`node_upgrade` (each pool's nodes replaced by a rolling surge upgrade, `upgrade_max_surge` new nodes added and `upgrade_max_surge + upgrade_max_unavailable` " +
			"old ones, the busiest first, drained at once: each eviction goes through the pods' `pod_disruption_budget`, which the eviction API enforces, and the evicted " +
			"pods must bind on the remaining, new and surge nodes or the other pools; a drain the budget blocks, or pods left Pending, fail it, named, with the surge settings that let it through). " +
			"The worst case of each is reported, with the maximum node count or surge that absorbs it. Without `node_loss`, a steady " +
			"scenario that fills a pool to its maximum node count (no spare node) is checked for it anyway: what losing the pool's busiest " +
			"node would leave Pending is a warning (and a line of `report`), not a failure.",
		Validators: []validator.List{listvalidator.ValueStringsAre(stringvalidator.OneOf(stringsOf(fit.DisruptionKinds)...)), listvalidator.UniqueValues()}}
}

// disruptionResultsAttribute is the output of the disruption scenarios, keyed by name.
func disruptionResultsAttribute() schema.MapNestedAttribute {
	counts := func(desc string) schema.MapAttribute {
		return schema.MapAttribute{Computed: true, ElementType: types.Int64Type, MarkdownDescription: desc}
	}
	return schema.MapNestedAttribute{Computed: true, MarkdownDescription: "Per scenario named in `disruptions`: its worst case.",
		NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
			"fits":    schema.BoolAttribute{Computed: true, MarkdownDescription: "Whether every evicted pod that may move binds elsewhere."},
			"checked": schema.BoolAttribute{Computed: true, MarkdownDescription: "Whether the scheduler model ran (false beyond its work budget: `fits` is then false, on the safe side)."},
			"lost":    schema.StringAttribute{Computed: true, MarkdownDescription: "What was lost: `node 1 of pool \"db\" (m5.2xlarge) in zone \"a\"`, `zone \"a\" (3 nodes)`, `every spot pool: pool \"spot\" (2 nodes)`."},
			"pool":    schema.StringAttribute{Computed: true, MarkdownDescription: "`node_loss`: the pool of the lost node; `spot_loss`: the spot pool, when there is one with nodes."},
			"zone":    schema.StringAttribute{Computed: true, MarkdownDescription: "The lost zone, or the lost node's."},
			"evicted": schema.Int64Attribute{Computed: true, MarkdownDescription: "Pods the lost nodes ran."},
			"pending": counts("Evicted pods that bind nowhere, per workload."),
			"stuck":   counts("`zone_loss`: pods whose block volumes keep them in the lost zone (by design, not a failure), per workload."),
			"blocked": counts("`node_upgrade`: pods whose eviction their PodDisruptionBudget keeps refusing, so the drain blocks, per workload."),
			"message": schema.StringAttribute{Computed: true, MarkdownDescription: "What the loss does and why, with the maximum node count that absorbs it."},
		}}}
}

// optionalOneOf is an optional string attribute that takes one of values.
func optionalOneOf(values []string, description string) schema.StringAttribute {
	return schema.StringAttribute{Optional: true, MarkdownDescription: description,
		Validators: []validator.String{stringvalidator.OneOf(values...)}}
}
