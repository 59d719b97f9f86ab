package overhead

import (
	"fmt"
	"slices"
	"strings"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/resource"
)

// SystemDaemonSets says which DaemonSets a node counts: the platform's system DaemonSets beside the listed
// ones (SystemDaemonSetsPlatform, the default), or the listed ones only (SystemDaemonSetsListed).
type SystemDaemonSets string

// The system DaemonSets modes.
const (
	// SystemDaemonSetsPlatform counts the platform's measured system DaemonSets (PlatformDaemonSets) on every
	// node of its profile, less those a listed DaemonSet names: a listed kube-proxy replaces the platform's.
	SystemDaemonSetsPlatform SystemDaemonSets = "platform"
	// SystemDaemonSetsListed counts the listed DaemonSets only: for a cluster whose system set differs (another
	// CNI, Cilium's kube-proxy replacement, add-ons removed) and whose DaemonSets are all listed.
	SystemDaemonSetsListed SystemDaemonSets = "listed"
)

// SystemDaemonSetsModes lists every mode; SystemDaemonSetsPlatform is the default.
var SystemDaemonSetsModes = []SystemDaemonSets{SystemDaemonSetsPlatform, SystemDaemonSetsListed}

// eksHostNetworkDaemonSets are the two host-network DaemonSets on every EKS Linux node.
var eksHostNetworkDaemonSets = []string{"aws-node", "kube-proxy"}

// systemDaemonSet is one system DaemonSet of a platform: its pod's requests as real nodes report them.
type systemDaemonSet struct {
	name   string
	cpu    int64 // millicores
	memory int64 // bytes
}

// The platform's system DaemonSets, as of 2026-12 (overhead.md §9.1). Every pod takes a pod slot (on EKS the two
// host-network pods take theirs as system pods, without a pod IP; the device plugins below take a pod IP there) and
// tolerates every taint, as the platforms' system DaemonSets do.
//
//   - AKS Linux: kube-proxy 100m, azure-ip-masq-agent 100m/50Mi, cloud-node-manager 50m/50Mi, csi-azuredisk-node
//     30m/60Mi and csi-azurefile-node 30m/60Mi on every node of AKS 1.25 to 1.32 seen (public kubectl describe node
//     output of 1.25.6, 1.26.6 and 1.30.9 nodes), and azure-cns 40m/250Mi with Azure CNI overlay (the 1.30.9 node);
//     an AKS 1.32.7 node with Azure Network Policy Manager runs azure-npm 50m/300Mi beside a lighter ip-masq-agent
//     (50m/36Mi), and the heavier 100m/50Mi is kept (ameideio/ameide-backlog 682-aks-capacity-reservation-snapshot.md,
//     2026-01-15). azure-cns also runs with Azure CNI pod subnet (dynamic IP allocation), whose pod IPs it allocates:
//     "CNS is the container networking daemon running on every AKS node for Azure CNI", its IPAM pool monitor serving
//     the "dynamic IP scenarios" (Azure/azure-container-networking cns/agents.md @ a354eab5), and a user of that mode
//     lists azure-cns among the system pods of every node (Azure/AKS#4035, 2023-12-14); its requests are taken from
//     the overlay node's.
//   - GKE Standard: fluentbit-gke 105m/230Mi, gke-metrics-agent 21m/145Mi, kube-proxy 100m (a static pod on GKE,
//     counted the same: a pod on every node) and pdcsi-node 10m/20Mi on a GKE 1.36.3 n2-standard-4 node
//     (camunda/zeebe-chaos chaos-days/blog/2026-10-08-REST-Performance-validating-with-k6/index.md @ cf72bb3a); a
//     second, independent cluster lists the DaemonSets' CPU requests alike (fluentbit-gke 105m, gke-metrics-agent
//     19m: mubarak4you/my-app README.md); a 1.23 e2-medium node requested less (100m/200Mi and 8m/100Mi:
//     keepinmindsh/lines_kubernetes archive/005_BasicKubernetes/001/README.md), and the heavier current figures are
//     kept. gke-metadata-server (Workload Identity), netd, anetd (Dataplane V2, which replaces kube-proxy) and
//     node-local-dns run only when those features are on, and are not counted.
//   - GKE Standard nodes with NVIDIA GPUs: GKE deploys the device plugin on every node with an accelerator ("In GKE,
//     from 1.9 onwards, this daemonset is automatically deployed as an addon", GoogleCloudPlatform/
//     container-engine-accelerators cmd/nvidia_gpu/README.md; cmd/nvidia_gpu/device-plugin.yaml @ 189e7b13 requests
//     50m/20Mi, a live cluster's DaemonSets 55m: mubarak4you/my-app README.md). Where GKE installs the driver
//     (gpu-driver-version default or latest) the plugin's pod also holds the driver installer as an init container,
//     and a node of GKE's driver installation lists nvidia-gpu-device-plugin-small-cos at 150m/80Mi
//     (kubectl describe node of a GKE 1.31.5 g2 node labelled cloud.google.com/gke-gpu-driver-version=latest,
//     vllm-project/production-stack tutorials/terraform/gke/README.md @ 25a9eaff): the pod's effective request is the larger of its init container and the sum of its containers, as
//     k8s.io/component-helpers resource.PodRequests computes; 150m/80Mi, the heaviest, is counted. Where the driver
//     is installed by hand, nvidia-driver-installer runs as a DaemonSet of its own (nvidia-driver-installer/cos/
//     daemonset-preloaded.yaml @ 068b15a9: init containers of 150m each, a pause container without requests, so
//     150m; its affinity keeps it off nodes whose driver GKE installs). Both are counted, the safe side: a plan does
//     not know how the driver is installed.
//   - EKS Linux (AL2023, AL2, Bottlerocket; not Auto Mode, which runs pod networking and kube-proxy on the host):
//     aws-node 50m: its aws-node and aws-eks-nodeagent (network policy agent) containers request 25m each in the
//     manifest the VPC CNI add-on installs (amazon-vpc-cni-k8s config/master/aws-k8s-cni.yaml @ b5218838,
//     2026-08-20; the Helm chart's values.yaml leaves the agent's requests empty, the add-on does not), as a
//     published EKS 1.34 AL2023 node lists the pod (aws-node 50m); before the agent (VPC CNI 1.14, 2023) 25m, as
//     kubectl view-allocations shows on EKS 1.24 Bottlerocket nodes (ruzickap/ruzickap.github.io
//     _posts/2022/2022-12-24-amazon-eks-karpenter-tests.md); kube-proxy 100m, on the same nodes, no memory
//     requests. The optional add-ons (ebs-csi-node 30m/120Mi on the same nodes,
//     eks-pod-identity-agent) are not counted.
//   - EKS accelerated nodes: "When using the EKS-optimized AL2023 AMIs with NVIDIA GPUs, you must install the NVIDIA
//     Kubernetes device plugin"; Bottlerocket includes it on the host ("This includes when you use GPU instances
//     with EKS Auto Mode"); "with AWS Inferentia or Trainium ..., you must install the Neuron Kubernetes device
//     plugin" on AL2023 and Bottlerocket alike (awsdocs/amazon-eks-user-guide latest/ug/ml/
//     ml-eks-k8s-device-plugin.adoc @ 4cd40a75). AL2's accelerated AMI ships no plugin either and is counted as
//     AL2023. NVIDIA's manifest (NVIDIA/k8s-device-plugin deployments/static/nvidia-device-plugin.yml @ 1c3a10be,
//     DaemonSet nvidia-device-plugin-daemonset) and its Helm chart (values.yaml: resources {}, hostNetwork off) set
//     no requests and no host network; so does the Neuron Helm chart the EKS guide installs (aws-neuron/
//     neuron-helm-charts charts/neuron-helm-chart/values.yaml @ 14049c20: DaemonSet neuron-device-plugin, no
//     resources; its affinity keeps it off Auto Mode nodes). Each takes a pod slot and a pod IP, and no requests.
//     Auto Mode "includes the drivers and device plugins" and the NVIDIA plugin "is not visible as a daemon set"
//     (latest/ug/automode/auto-accelerated.adoc @ 031299c7): none counted there.
//   - AKS Linux nodes with NVIDIA GPUs: "While the NVIDIA drivers are installed by default on GPU capable nodes, you
//     need to install the device plugin", the DaemonSet nvidia-device-plugin-daemonset without requests
//     (MicrosoftDocs/azure-aks-docs articles/aks/use-nvidia-gpu.md @ 04921f5f; AKS-managed GPU node pools, which
//     install it for you, are a preview): a pod slot, no requests.
//   - AKS Windows: cloud-node-manager-windows 50m/50Mi, csi-azuredisk-node-win 60m/120Mi and csi-azurefile-node-win
//     60m/120Mi (3 pods, 170m, 290Mi) in the "Non-terminated Pods" of the one measured AKS Windows node, AKS 1.25.4,
//     Azure CNI, pods 30 (marosset/aks-windows-gpu-acceleration test_scenarios/directx_sample_with_aks.md, the node
//     measured.go cites @ 0031a3ef; its ama-logs-windows is the Container Insights add-on and is not counted). They take pod
//     slots: kubelet's max pods (the node's pods: 30) counts every pod bound to the node, host-network (Windows
//     HostProcess) or not, as the scheduler does. With Azure CNI overlay or pod subnet AKS also runs azure-cns-win
//     (CNS runs on every Azure CNI node of those modes, as on Linux), whose requests no source gives
//     (Azure/azure-container-networking cns/azure-cns-windows.yaml sets none): its pod slot is counted, with no
//     requests.
//   - EKS Windows and custom nodes: no measured set; none is counted.
var (
	aksSystemDaemonSets = []systemDaemonSet{
		{"kube-proxy", 100, 0}, {"azure-ip-masq-agent", 100, 50 * mi}, {"cloud-node-manager", 50, 50 * mi},
		{"csi-azuredisk-node", 30, 60 * mi}, {"csi-azurefile-node", 30, 60 * mi},
	}
	aksCNSDaemonSet            = systemDaemonSet{"azure-cns", 40, 250 * mi}
	aksWindowsCNSDaemonSet     = systemDaemonSet{"azure-cns-win", 0, 0}
	aksWindowsSystemDaemonSets = []systemDaemonSet{
		{"cloud-node-manager-windows", 50, 50 * mi}, {"csi-azuredisk-node-win", 60, 120 * mi}, {"csi-azurefile-node-win", 60, 120 * mi},
	}
	gkeSystemDaemonSets = []systemDaemonSet{
		{"fluentbit-gke", 105, 230 * mi}, {"gke-metrics-agent", 21, 145 * mi}, {"kube-proxy", 100, 0}, {"pdcsi-node", 10, 20 * mi},
	}
	gkeGPUDaemonSets    = []systemDaemonSet{{"nvidia-gpu-device-plugin", 150, 80 * mi}, {"nvidia-driver-installer", 150, 0}}
	eksSystemDaemonSets = []systemDaemonSet{{"aws-node", 50, 0}, {"kube-proxy", 100, 0}}
	// nvidiaDevicePlugin is NVIDIA's device plugin as the EKS and AKS guides install it, under the name of NVIDIA's
	// static manifest.
	nvidiaDevicePlugin = systemDaemonSet{"nvidia-device-plugin-daemonset", 0, 0}
	neuronDevicePlugin = systemDaemonSet{"neuron-device-plugin", 0, 0}
)

// neuronFamilies are the EC2 families with AWS Inferentia or Trainium devices, whose nodes need the Neuron device
// plugin: the neuronInstances of the Neuron Helm chart (aws-neuron/neuron-helm-charts charts/neuron-helm-chart/
// values.yaml @ 14049c20: inf1, inf2, trn1, trn1n, trn2, trn2u sizes), by family, as AWS's accelerated computing
// instance list names them (docs.aws.amazon.com/ec2/latest/instancetypes/ac.html). The catalog has no Neuron
// device count.
var neuronFamilies = []string{"inf1", "inf2", "trn1", "trn1n", "trn2", "trn2u"}

// acceleratorDaemonSets returns the device plugin (and driver) DaemonSets that run on in's node because of its
// accelerators: GKE's NVIDIA device plugin and driver installer on GPU nodes; NVIDIA's device plugin on EKS AL2023
// and AL2 GPU nodes and on AKS Linux GPU nodes; the Neuron device plugin on EKS Inferentia and Trainium nodes (not
// Auto Mode, which runs them on the host; Bottlerocket carries the NVIDIA plugin on the host).
func acceleratorDaemonSets(in Input) []systemDaemonSet {
	gpu := in.Instance.GPU > 0
	switch {
	case in.Profile == GKEStandard && gpu:
		return gkeGPUDaemonSets
	case in.Profile == AKSLinux && gpu:
		return []systemDaemonSet{nvidiaDevicePlugin}
	case !in.Profile.isEKS() || in.Profile == EKSWindows || in.EKS.Kind == AutoMode:
		return nil
	case slices.Contains(neuronFamilies, in.Instance.Family):
		return []systemDaemonSet{neuronDevicePlugin}
	case gpu && in.Profile != EKSBottlerocket:
		return []systemDaemonSet{nvidiaDevicePlugin}
	}
	return nil
}

// cnsPlugin says whether AKS runs its Container Networking Service (azure-cns, azure-cns-win) on the nodes of
// plugin: Azure CNI overlay (the default) and Azure CNI pod subnet.
func cnsPlugin(plugin NetworkPlugin) bool {
	return plugin == "" || plugin == AzureCNIOverlay || plugin == AzureCNIPodSubnet
}

// PlatformDaemonSets returns the system DaemonSets the platform runs on every node of in's profile, whatever
// in.SystemDaemonSets says: AKS Linux's five, and azure-cns with Azure CNI overlay or pod subnet; AKS Windows's
// three, and azure-cns-win with those plugins; GKE Standard's four; aws-node and kube-proxy on EKS Linux nodes
// other than Auto Mode; none on EKS Windows and custom nodes; and the accelerators' device plugins
// (acceleratorDaemonSets). Each takes a pod slot and tolerates every taint.
func PlatformDaemonSets(in Input) []DaemonSet {
	var set []systemDaemonSet
	switch {
	case in.Profile == AKSLinux:
		set = slices.Clone(aksSystemDaemonSets)
		if cnsPlugin(in.AKS.NetworkPlugin) {
			set = append(set, aksCNSDaemonSet)
		}
	case in.Profile == AKSWindows:
		set = slices.Clone(aksWindowsSystemDaemonSets)
		if cnsPlugin(in.AKS.NetworkPlugin) {
			set = append(set, aksWindowsCNSDaemonSet)
		}
	case in.Profile == GKEStandard:
		set = slices.Clone(gkeSystemDaemonSets)
	case in.Profile.isEKS() && in.Profile != EKSWindows && in.EKS.Kind != AutoMode:
		set = slices.Clone(eksSystemDaemonSets)
	}
	set = append(set, acceleratorDaemonSets(in)...)
	out := make([]DaemonSet, 0, len(set))
	for _, s := range set {
		out = append(out, DaemonSet{Name: s.name, Requests: fit.Resources{CPUMillicores: s.cpu, MemoryBytes: s.memory},
			TakesPodSlot: true, Tolerations: []fit.Toleration{{Operator: fit.OperatorExists}}})
	}
	return out
}

// CountedSystemDaemonSets returns the platform's system DaemonSets counted on in's node beside DaemonSets of the
// listed names: none when in.SystemDaemonSets is SystemDaemonSetsListed, otherwise PlatformDaemonSets(in) less
// those a listed name names (the user's DaemonSet of that name stands for it).
func CountedSystemDaemonSets(in Input, listed []string) []DaemonSet {
	if in.SystemDaemonSets == SystemDaemonSetsListed {
		return nil
	}
	return slices.DeleteFunc(PlatformDaemonSets(in), func(d DaemonSet) bool { return slices.Contains(listed, d.Name) })
}

// DaemonSetsText names DaemonSets with their requests: `kube-proxy 100m, azure-ip-masq-agent 100m/50Mi`; one
// without CPU and memory requests says so: `azure-cns-win no requests`.
func DaemonSetsText(ds []DaemonSet) string {
	parts := make([]string, len(ds))
	for i, d := range ds {
		if d.Requests.CPUMillicores == 0 && d.Requests.MemoryBytes == 0 {
			parts[i] = d.Name + " no requests"
			continue
		}
		parts[i] = d.Name + " " + resource.QuantityCPU(d.Requests.CPUMillicores)
		if d.Requests.MemoryBytes > 0 {
			parts[i] += "/" + resource.QuantityBytes(d.Requests.MemoryBytes)
		}
	}
	return strings.Join(parts, ", ")
}

// systemDaemonSetsNote says, per profile, which system DaemonSets the platform runs on every Linux node beside
// the user's (the sets above; AKS Windows's on every Windows node), for the warning of a node that counts only the listed DaemonSets and lists none.
var systemDaemonSetsNote = map[Profile]string{
	AKSLinux: "AKS runs system DaemonSets on every node (kube-proxy, azure-ip-masq-agent, cloud-node-manager, " +
		"csi-azuredisk-node and csi-azurefile-node, 310m CPU and 220Mi in all on the nodes measured, and azure-cns, " +
		"40m and 250Mi more, with Azure CNI overlay or pod subnet: 6 pods, 350m and 470Mi)",
	AKSWindows: "AKS runs system DaemonSets on every Windows node (cloud-node-manager-windows, csi-azuredisk-node-win " +
		"and csi-azurefile-node-win, 3 pods of 170m CPU and 290Mi in all on the node measured, and azure-cns-win, " +
		"a pod of unknown requests, with Azure CNI overlay or pod subnet)",
	GKEStandard: "GKE runs system DaemonSets on every node (fluentbit-gke, gke-metrics-agent, kube-proxy and " +
		"pdcsi-node, 4 pods of 236m CPU and 395Mi in all on the node measured; gke-metadata-server, netd and " +
		"node-local-dns more when Workload Identity, network policy or NodeLocal DNSCache are on)",
}

// systemDaemonSetRemarks says what a note adds about a counted system DaemonSet beyond its requests, by name.
var systemDaemonSetRemarks = map[string]string{
	aksWindowsCNSDaemonSet.name: "azure-cns-win's requests are not known: only its pod slot is counted",
	"nvidia-driver-installer": "GKE's GPU DaemonSets are both counted, the safe side: nvidia-driver-installer runs as a pod " +
		"of its own only where the driver is installed by hand, and inside the device plugin's pod where GKE installs it",
	nvidiaDevicePlugin.name: "the NVIDIA device plugin a node needs to offer nvidia.com/gpu is counted (no requests; a pod " +
		"slot, and a pod IP on EKS): list yours under that name to replace it",
	neuronDevicePlugin.name: "the Neuron device plugin a node needs to offer aws.amazon.com/neuron is counted (no requests; " +
		"a pod slot and a pod IP): list yours under that name to replace it",
}

// addOnsNotCounted names, per profile, the common add-ons a cluster turns on that the platform's set leaves out.
var addOnsNotCounted = map[Profile]string{
	EKSAL2023: "ebs-csi-node, eks-pod-identity-agent", EKSAL2: "ebs-csi-node, eks-pod-identity-agent",
	EKSBottlerocket: "ebs-csi-node, eks-pod-identity-agent",
	GKEStandard:     "gke-metadata-server, netd, node-local-dns",
	AKSLinux:        "ama-logs and ama-metrics-node (monitoring), azure-npm",
	AKSWindows:      "ama-logs-windows (monitoring)",
}

// SystemDaemonSetsRemarks says what a note adds to the system DaemonSets ds counted on a node of profile: what is
// particular about some of them (requests unknown, counted on the safe side) and, in one clause, the common add-ons
// that are not counted. It is "" when there is nothing to add.
func SystemDaemonSetsRemarks(profile Profile, ds []DaemonSet) string {
	var parts []string
	for _, d := range ds {
		if r := systemDaemonSetRemarks[d.Name]; r != "" {
			parts = append(parts, r)
		}
	}
	if a := addOnsNotCounted[profile]; a != "" {
		parts = append(parts, "add-ons not counted, list them where they run: "+a)
	}
	return strings.Join(parts, "; ")
}

// daemonSets subtracts the DaemonSets' requests and pod slots from allocatable, giving what is available
// to workloads (fit.DaemonSetLoad, the one account shared with the packer): the listed DaemonSets and, unless
// only the listed ones count, the platform's system DaemonSets none of them names (CountedSystemDaemonSets),
// each group with terms of its own. On EKS Linux aws-node and kube-proxy always take a slot, listed or not, and
// the pods that need a VPC IP are limited by the IP count.
func (c *calc) daemonSets() {
	r := &c.res
	in := c.in
	listed := make([]string, len(in.DaemonSets))
	for i, d := range in.DaemonSets {
		listed[i] = d.Name
	}
	r.SystemDaemonSets = CountedSystemDaemonSets(in, listed)
	eksLinux := c.hostNetworkPods() > 0
	if eksLinux {
		r.SystemPods = slices.Clone(eksHostNetworkDaemonSets)
	}
	if in.SystemDaemonSets == SystemDaemonSetsListed && len(in.DaemonSets) == 0 {
		if eksLinux {
			c.warn(CodeNoDaemonSets, field.NewPath("DaemonSets"),
				"no DaemonSets given and only listed DaemonSets counted: kubefit counts the pod slots of aws-node and kube-proxy but not their requests (50m and 100m CPU); list your DaemonSets, or count the platform's system DaemonSets, for a true workload capacity")
		}
		if note := systemDaemonSetsNote[in.Profile]; note != "" {
			c.warn(CodeNoDaemonSets, field.NewPath("DaemonSets"),
				"no DaemonSets given and only listed DaemonSets counted: %s; kubefit counts none of them, so workloads get more room than the node has: list them (and your own), or count the platform's system DaemonSets, for a true workload capacity", note)
		}
	}
	if in.Profile.isEKS() && (in.Profile != EKSWindows || in.Instance.IPv4PerENI > 0) {
		r.PodIPs = r.IPCap // Windows: the IPs of its one ENI (maxPods)
	}
	all := append(slices.Clone(in.DaemonSets), r.SystemDaemonSets...)
	r.DaemonSetOverhead, r.Available = fit.DaemonSetLoad(r.Allocatable, r.SystemPods, r.PodIPs, all)
	var sys resource.List
	for _, d := range r.SystemDaemonSets {
		sys.CPUMillicores += d.Requests.CPUMillicores
		sys.MemoryBytes += d.Requests.MemoryBytes
		sys.Pods++
	}
	own := r.DaemonSetOverhead.Sub(sys)
	if len(in.DaemonSets) > 0 || own.Pods > 0 {
		detail := fmt.Sprintf("%d DaemonSet pods", own.Pods)
		c.term("daemonSets.cpu", UnitMillicores, own.CPUMillicores, FDaemonSetRequests, detail)
		c.term("daemonSets.memory", UnitBytes, own.MemoryBytes, FDaemonSetRequests, detail)
		c.term("daemonSets.pods", UnitPods, own.Pods, FDaemonSetRequests, detail)
	}
	if len(r.SystemDaemonSets) > 0 {
		detail := "the platform's system DaemonSets: " + DaemonSetsText(r.SystemDaemonSets)
		if rm := SystemDaemonSetsRemarks(in.Profile, r.SystemDaemonSets); rm != "" {
			detail += "; " + rm
		}
		c.term("systemDaemonSets.cpu", UnitMillicores, sys.CPUMillicores, FDaemonSetPlatform, detail)
		c.term("systemDaemonSets.memory", UnitBytes, sys.MemoryBytes, FDaemonSetPlatform, detail)
		c.term("systemDaemonSets.pods", UnitPods, sys.Pods, FDaemonSetPlatform, detail)
	}
	if r.Available.GPU < 0 {
		c.warn(CodeDaemonSetsFillNode, field.NewPath("DaemonSets"),
			"the DaemonSets request %d GPUs but a node of %q has %d: they cannot all run on it", r.DaemonSetOverhead.GPU, in.Instance.Name, r.Allocatable.GPU)
	}
	if r.Available.CPUMillicores <= 0 || r.Available.MemoryBytes <= 0 || r.Available.Pods <= 0 {
		c.warn(CodeDaemonSetsFillNode, field.NewPath("DaemonSets"),
			"DaemonSets use all of the node's allocatable (left: %s CPU, %s memory, %d pods): no workload pod fits on %q",
			resource.QuantityCPU(r.Available.CPUMillicores), resource.QuantityBytes(r.Available.MemoryBytes), r.Available.Pods, in.Instance.Name)
	}
}

// Smallest returns the index of the result with the least workload capacity: the least available CPU, then
// the least available memory, then the first. A mixed node pool is planned on that member. It returns -1 for
// an empty list.
func Smallest(rs []Result) int {
	best := -1
	for i, r := range rs {
		if best < 0 {
			best = i
			continue
		}
		b := rs[best].Available
		if r.Available.CPUMillicores < b.CPUMillicores ||
			(r.Available.CPUMillicores == b.CPUMillicores && r.Available.MemoryBytes < b.MemoryBytes) {
			best = i
		}
	}
	return best
}
