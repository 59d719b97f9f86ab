package sizing

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/overhead"
)

// The well-known labels every node carries, which Solve derives from the pool's instance type, profile and zones.
const (
	LabelOS               = "kubernetes.io/os"
	LabelArch             = "kubernetes.io/arch"
	LabelInstanceType     = "node.kubernetes.io/instance-type"
	LabelBetaOS           = "beta.kubernetes.io/os"
	LabelBetaArch         = "beta.kubernetes.io/arch"
	LabelBetaInstanceType = "beta.kubernetes.io/instance-type"
	LabelZone             = "topology.kubernetes.io/zone"
	LabelBetaZone         = "failure-domain.beta.kubernetes.io/zone"
	LabelRegion           = "topology.kubernetes.io/region"
	LabelBetaRegion       = "failure-domain.beta.kubernetes.io/region"
	LabelWindowsBuild     = "node.kubernetes.io/windows-build"
)

// The labels EKS and Karpenter put on the nodes they launch (eksPoolLabels).
const (
	EKSNodeGroupLabel    = "eks.amazonaws.com/nodegroup"
	EKSCapacityTypeLabel = "eks.amazonaws.com/capacityType"
	KarpenterPoolLabel   = "karpenter.sh/nodepool"
	KarpenterCapacity    = "karpenter.sh/capacity-type"
	AKSModeLabel         = "kubernetes.azure.com/mode"
)

// WindowsBuilds are the values of node.kubernetes.io/windows-build on the Windows Server versions EKS and AKS run:
// the kubelet sets it to the OS's major.minor.build (kubernetes/kubernetes pkg/kubelet/kubelet_node_status_windows.go
// and pkg/kubelet/winstats/version.go GetBuild @v1.37.2): 10.0.17763 on Windows Server 2019, 10.0.20348 on 2022,
// 10.0.26100 on 2025 (learn.microsoft.com/windows/release-health/windows-server-release-info). Which one a pool
// runs is not among its inputs.
var WindowsBuilds = []string{"10.0.17763", "10.0.20348", "10.0.26100"}

// wellKnownLabels are the labels of every node of the pool that follow from its instance type (arch the
// member's architecture), its profile's operating system and its zones: the kubelet sets kubernetes.io/os and
// kubernetes.io/arch and their beta twins to its own GOOS and GOARCH (kubernetes/kubernetes
// pkg/kubelet/kubelet_node_status.go@v1.37.2, initialNode), the cloud node controller the instance type, the
// zone and the region, each with its beta twin (k8s.io/cloud-provider@v0.37.2 controllers/node/node_controller.go,
// getNodeModifiersFromCloudProvider). The zone is per node (fit adds it from the zones); the region is set when
// every zone names the same one (poolRegion). A mixed pool's nodes carry their own member's type, so its type
// labels are choices (wellKnownChoices).
func wellKnownLabels(os, arch string, members []catalog.InstanceType, rp *Pool) map[string]string {
	l := map[string]string{LabelOS: os, LabelBetaOS: os, LabelArch: arch, LabelBetaArch: arch}
	if len(members) == 1 {
		l[LabelInstanceType], l[LabelBetaInstanceType] = members[0].Name, members[0].Name
	}
	if r := poolRegion(rp.Cloud, rp.Zones); r != "" {
		l[LabelRegion], l[LabelBetaRegion] = r, r
	}
	return l
}

// wellKnownChoices are the labels of the pool's nodes whose value kubefit cannot know (fit.Pool.LabelChoices): a
// mixed pool's instance type (any member's), a Windows node's build (WindowsBuilds), an AKS pool's
// kubernetes.azure.com/mode (system or user: learn.microsoft.com/azure/aks/use-system-pools, which selects system
// pools by kubernetes.azure.com/mode=system).
func wellKnownChoices(os string, members []catalog.InstanceType, rp *Pool) map[string][]string {
	c := map[string][]string{}
	if len(members) > 1 {
		var names []string
		for _, m := range members {
			if !slices.Contains(names, m.Name) {
				names = append(names, m.Name)
			}
		}
		c[LabelInstanceType], c[LabelBetaInstanceType] = names, names
	}
	if os == "windows" {
		c[LabelWindowsBuild] = WindowsBuilds
	}
	if rp.Cloud == catalog.Azure {
		c[AKSModeLabel] = []string{"user", "system"}
	}
	return c
}

// eksPoolLabels are the labels EKS or Karpenter put on every node of an AWS pool, taking the pool's name as its
// node group's or NodePool's, as the cluster reader does (workloads/cluster.go, nodeGroupLabels): an EKS managed
// node group (the default kind) labels its nodes eks.amazonaws.com/nodegroup with its name and
// eks.amazonaws.com/capacityType ON_DEMAND or SPOT (docs.aws.amazon.com/eks/latest/userguide/managed-node-groups.html;
// cluster-autoscaler reads the second, kubernetes/autoscaler#6261); Karpenter and EKS Auto Mode label theirs
// karpenter.sh/nodepool and karpenter.sh/capacity-type on-demand or spot (karpenter.sh/docs/reference/well-known-labels
// ... kubernetes-sigs/karpenter pkg/apis/v1/labels.go, NodePoolLabelKey and CapacityTypeLabelKey). A self-managed
// group's nodes carry neither.
func eksPoolLabels(rp *Pool) map[string]string {
	spot := rp.CapacityType == fit.CapacitySpot
	switch rp.Overhead.EKS.Kind {
	case "", overhead.Managed:
		ct := "ON_DEMAND"
		if spot {
			ct = "SPOT"
		}
		return map[string]string{EKSNodeGroupLabel: rp.Name, EKSCapacityTypeLabel: ct}
	case overhead.Karpenter, overhead.AutoMode:
		ct := "on-demand"
		if spot {
			ct = "spot"
		}
		return map[string]string{KarpenterPoolLabel: rp.Name, KarpenterCapacity: ct}
	}
	return nil
}

// Zone name forms that name their region: AWS us-east-1a (region us-east-1), GCP us-central1-a (us-central1),
// and AKS's node zone label eastus-1 (eastus). Azure's zone numbers alone ("1") do not.
var (
	awsZone   = regexp.MustCompile(`^([a-z]{2}(?:-gov)?-[a-z]+-[0-9]+)[a-z]$`)
	gcpZone   = regexp.MustCompile(`^([a-z]+-[a-z]+[0-9]+)-[a-z]$`)
	azureZone = regexp.MustCompile(`^([a-z]+[a-z0-9]*)-[0-9]$`)
)

// poolRegion returns the region every zone of the pool names, or "" when the zones do not name one, or
// name several.
func poolRegion(cloud catalog.Cloud, zones []string) string {
	re := map[catalog.Cloud]*regexp.Regexp{catalog.AWS: awsZone, catalog.GCP: gcpZone, catalog.Azure: azureZone}[cloud]
	region := ""
	for i, z := range zones {
		m := re.FindStringSubmatch(z)
		if re == nil || m == nil || i > 0 && m[1] != region {
			return ""
		}
		region = m[1]
	}
	return region
}

// derivedKeys are the well-known labels kubefit derives and a pool's own labels may not contradict.
var derivedKeys = []string{LabelOS, LabelBetaOS, LabelArch, LabelBetaArch, LabelInstanceType, LabelBetaInstanceType,
	LabelZone, LabelBetaZone, LabelRegion, LabelBetaRegion}

// userLabels returns the pool's own labels merged into labels, and an error on each one that contradicts a label
// kubefit derives: the operating system and architecture of its profile and type, its instance type (any member's
// for a mixed pool), its zone (the only one of a one-zone pool) or region. A contradiction would plan the nodes as
// something they are not (a Windows pod planned on Linux nodes said to be Windows).
func (s *solve) userLabels(i int, labels map[string]string, choices map[string][]string) {
	rp := &s.req.Pools[i]
	for _, k := range sortedLabelKeys(rp.Labels) {
		v := rp.Labels[k]
		if slices.Contains(derivedKeys, k) {
			derived, ok := labels[k]
			switch {
			case k == LabelZone || k == LabelBetaZone:
				if len(rp.Zones) > 0 && !(len(rp.Zones) == 1 && rp.Zones[0] == v) {
					s.errs = append(s.errs, field.Invalid(s.poolPath(i).Child("Labels").Key(k), v,
						"pool %q: label %s=%s contradicts the pool's zones %s: each node carries its own zone's; remove the label",
						rp.Name, k, v, field.QuoteList(rp.Zones)))
					continue
				}
			case ok && derived != v:
				s.errs = append(s.errs, field.Invalid(s.poolPath(i).Child("Labels").Key(k), v,
					"pool %q: label %s=%s contradicts the %s=%s its nodes carry (%s); remove the label, or choose a profile or instance type that gives %s",
					rp.Name, k, v, k, derived, derivedWhy(k), v))
				continue
			case !ok && len(choices[k]) > 0:
				s.errs = append(s.errs, field.Invalid(s.poolPath(i).Child("Labels").Key(k), v,
					"pool %q: label %s=%s contradicts the mixed pool's nodes, each of which carries its own instance type (%s); remove the label",
					rp.Name, k, v, field.QuoteOr(choices[k])))
				continue
			}
		}
		labels[k] = v
	}
	maps.DeleteFunc(choices, func(k string, _ []string) bool { _, known := labels[k]; return known })
}

// derivedWhy says where a derived label comes from.
func derivedWhy(k string) string {
	switch k {
	case LabelOS, LabelBetaOS:
		return "the kubelet sets it to its operating system, which the profile gives"
	case LabelArch, LabelBetaArch:
		return "the kubelet sets it to its architecture, which the instance type gives"
	case LabelRegion, LabelBetaRegion:
		return "the cloud sets it to the region the zones are in"
	}
	return "the cloud sets it to the instance type"
}

func sortedLabelKeys(m map[string]string) []string {
	keys := slices.Collect(maps.Keys(m))
	slices.Sort(keys)
	return keys
}

// Warning codes of the placement checks (placementWarnings).
const (
	// WarnOSUnselected: a workload's pods need one operating system and kube-scheduler may bind them to a pool of
	// the other (no node selector or taint keeps them off), where they never run; kubefit plans them off it.
	WarnOSUnselected = "sizing.os-unselected"
	// WarnArm64Images: a workload that does not pin kubernetes.io/arch is planned on arm64 nodes: its images must
	// be published for linux/arm64, which kubefit cannot see.
	WarnArm64Images = "sizing.arm64-images"
	// WarnDaemonSetNowhere: a listed DaemonSet lands on no pool's nodes, so its requests are counted nowhere.
	WarnDaemonSetNowhere = "sizing.daemonset-nowhere"
)

// placementWarnings warns about what the packer's input in and result res leave to the real cluster: workloads the
// scheduler may bind to a pool of another operating system (WarnOSUnselected), workloads planned on arm64 nodes
// without pinning their architecture (WarnArm64Images), and listed DaemonSets that land on no pool
// (WarnDaemonSetNowhere).
func (s *solve) placementWarnings(in fit.Input, res fit.Result) {
	for i := range in.Workloads {
		w := &in.Workloads[i]
		if w.MaxReplicas == 0 && w.Replicas == 0 {
			continue
		}
		var other []string
		for p := range in.Pools {
			if fit.ExcludedBy(w, &in.Pools[p]) == fit.ReasonOS {
				other = append(other, in.Pools[p].Name)
			}
		}
		if len(other) > 0 {
			s.warnings = append(s.warnings, field.Warning{Code: WarnOSUnselected, Path: field.NewPath("Workloads").At(i).Child("NodeSelector"),
				Message: osUnselectedMessage(w, in.Pools, other)})
		}
		if arm := s.armPools(i, w, in.Pools, res); len(arm) > 0 {
			s.warnings = append(s.warnings, field.Warning{Code: WarnArm64Images, Path: field.NewPath("Workloads").At(i).Child("NodeSelector"),
				Message: fmt.Sprintf("workload %q is planned on the arm64 nodes of pool(s) %s and does not pin kubernetes.io/arch: its images must be "+
					"published for linux/arm64, which kubefit cannot see (an amd64-only image fails there with exec format error or no matching manifest); "+
					"if they are not, give it the node selector kubernetes.io/arch: amd64", w.Name, field.QuoteList(arm))})
		}
	}
	for j := range s.req.DaemonSets {
		d := &in.DaemonSets[j] // the listed DaemonSets come first, with the tolerations the platform's admission adds
		if !slices.ContainsFunc(in.Pools, func(p fit.Pool) bool { return fit.DaemonSetLandsOn(d, &p) }) {
			s.warnings = append(s.warnings, field.Warning{Code: WarnDaemonSetNowhere, Path: field.NewPath("DaemonSets").At(j),
				Message: fmt.Sprintf("DaemonSet %q lands on no pool (%s), so kubefit counts its requests on no node; if it runs on these nodes, "+
					"they carry a label the pools lack: add it to the pool's labels, or correct the DaemonSet's rules", d.Name, daemonSetRules(d))})
		}
	}
}

// osUnselectedMessage says that kube-scheduler may bind workload w's pods to the pools named other, of another
// operating system, and how to keep it off them.
func osUnselectedMessage(w *fit.Workload, pools []fit.Pool, other []string) string {
	wos := fit.WorkloadOS(w)
	why := "it says so in its pod's spec.os.name or kubernetes.io/os label"
	if w.OS == "" {
		why = "assumed: it names no operating system, and kubefit cannot see its images"
	}
	pos := "Windows"
	if wos == "windows" {
		pos = "Linux"
	}
	return fmt.Sprintf("workload %q runs %s containers (%s), but nothing keeps kube-scheduler off the %s nodes of pool(s) %s: the scheduler does not "+
		"look at a pod's operating system or images, so it may bind pods there, where the kubelet refuses them or their images never start, "+
		"and they never run. kubefit plans them on the other pools only; give the workload the node selector %s: %s, or taint those pools",
		w.Name, osTitle(wos), why, pos, field.QuoteList(other), LabelOS, wos)
}

func osTitle(os string) string {
	if os == "windows" {
		return "Windows"
	}
	return "Linux"
}

// ArchPinned reports whether workload w says which architecture its images are built for: a node selector on
// kubernetes.io/arch (or its beta twin), or a required node affinity naming either.
func ArchPinned(w *Workload) bool {
	return archPinned(w.NodeSelector, w.NodeAffinity)
}

func archPinned(sel map[string]string, terms []fit.NodeSelectorTerm) bool {
	if sel[LabelArch] != "" || sel[LabelBetaArch] != "" {
		return true
	}
	for _, t := range terms {
		for _, e := range t.MatchExpressions {
			if e.Key == LabelArch || e.Key == LabelBetaArch {
				return true
			}
		}
	}
	return false
}

// Arm64ImagesWarnings are the WarnArm64Images warnings of a recommended arm64 instance type: one per workload with
// pods that does not pin its architecture (on GKE, and does not tolerate GKE's Arm taint, which a multi-architecture
// workload there must).
func Arm64ImagesWarnings(ws []Workload, instanceType string, gke bool) []field.Warning {
	var out []field.Warning
	for i := range ws {
		w := &ws[i]
		if ArchPinned(w) || gke && slices.ContainsFunc(w.Tolerations, func(t fit.Toleration) bool { return t.Tolerates(GKEArmTaint) }) ||
			(w.Replicas == nil || *w.Replicas == 0) && (w.MaxReplicas == nil || *w.MaxReplicas == 0) && (w.MinReplicas == nil || *w.MinReplicas == 0) {
			continue
		}
		out = append(out, field.Warning{Code: WarnArm64Images, Path: field.NewPath("Workloads").At(i).Child("NodeSelector"),
			Message: fmt.Sprintf("the recommended %s is an arm64 type and workload %q does not pin kubernetes.io/arch: its images must be published "+
				"for linux/arm64, which kubefit cannot see (an amd64-only image fails there with exec format error or no matching manifest); "+
				"if they are not, give it the node selector kubernetes.io/arch: amd64, which leaves the arm64 candidates out", instanceType, w.Name)})
	}
	return out
}

// armPools returns the arm64 pools (kubernetes.io/arch=arm64) on which some scenario of res places pods of
// workload i, when it does not pin its architecture: no node selector on kubernetes.io/arch (or its beta twin), no
// required node affinity naming either, and, on a pool with GKE's Arm taint, no toleration of it written in the
// request (GKE asks a multi-architecture workload to tolerate the taint, so a written toleration says its images are).
func (s *solve) armPools(i int, w *fit.Workload, pools []fit.Pool, res fit.Result) []string {
	if archPinned(w.NodeSelector, w.NodeAffinity) {
		return nil
	}
	var out []string
	for _, sc := range res.Scenarios {
		for _, pl := range sc.Placements {
			if pl.Workload != w.Name {
				continue
			}
			for _, pp := range pl.Pools {
				k := slices.IndexFunc(pools, func(p fit.Pool) bool { return p.Name == pp.Pool })
				if pp.Pods == 0 || k < 0 || pools[k].Labels[LabelArch] != "arm64" || slices.Contains(out, pp.Pool) {
					continue
				}
				if slices.Contains(pools[k].Taints, GKEArmTaint) && slices.ContainsFunc(s.req.Workloads[i].Tolerations,
					func(t fit.Toleration) bool { return t.Tolerates(GKEArmTaint) }) {
					continue
				}
				out = append(out, pp.Pool)
			}
		}
	}
	return out
}

// daemonSetRules describes what decides where DaemonSet d lands: its node selector, node affinity, tolerations.
func daemonSetRules(d *fit.DaemonSet) string {
	var parts []string
	if len(d.NodeSelector) > 0 {
		var sel []string
		for _, k := range sortedLabelKeys(d.NodeSelector) {
			sel = append(sel, k+"="+d.NodeSelector[k])
		}
		parts = append(parts, "node selector "+strings.Join(sel, ", "))
	}
	if len(d.NodeAffinity) > 0 {
		parts = append(parts, "a required node affinity")
	}
	if len(d.Pools) > 0 {
		parts = append(parts, "pools "+field.QuoteList(d.Pools))
	}
	parts = append(parts, "its tolerations against the pools' taints")
	return "its " + strings.Join(parts, "; ")
}
