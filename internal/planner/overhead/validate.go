package overhead

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/resource"
)

// Bounds of the inputs, far above any real node; with resource.MaxQuantity they keep every product exact.
const (
	maxVCPU    = 100000
	maxPodsCap = 100000
	maxDiskGiB = 1 << 20
	maxENIs    = 1000
)

// nodeCloud is the cloud of the node: its instance type's, else its profile's ("" for neither).
func nodeCloud(in *Input) catalog.Cloud {
	if in.Instance.Cloud != "" {
		return in.Instance.Cloud
	}
	return in.Profile.Cloud()
}

// validate checks every input value and fills the defaults of EKS.Kind and AKS.NetworkPlugin. It returns
// every problem it finds, in a fixed order: the fields of Input in declaration order, map keys sorted.
func validate(in *Input) field.Errors {
	var errs field.Errors
	add := func(p field.Path, value, format string, args ...any) {
		errs = append(errs, field.Invalid(p, value, format, args...))
	}
	if _, err := ParseProfile(string(in.Profile)); err != nil {
		add(field.NewPath("Profile"), string(in.Profile), "%s", err.Error())
	} else if pc := in.Profile.Cloud(); pc != "" && in.Instance.Cloud != "" && pc != in.Instance.Cloud {
		add(field.NewPath("Profile"), string(in.Profile),
			"profile %q is for %s nodes but instance type %q is from the %s catalog; choose a %s profile (default %q)",
			in.Profile, pc, in.Instance.Name, in.Instance.Cloud, in.Instance.Cloud, DefaultProfile(in.Instance.Cloud))
	}
	errs = append(errs, imageErrors(in)...)
	inst := in.Instance
	switch {
	case inst.VCPU <= 0 && in.MeasuredCapacity.CPUMillicores == nil:
		add(field.NewPath("Instance"), inst.Name,
			"the catalog has no vCPU count for %q; give the node's measured CPU capacity, or describe the node by its vCPUs and memory with the custom profile", inst.Name)
	case inst.VCPU > maxVCPU || inst.MemoryMiB < 0 || inst.MemoryMiB > resource.MaxQuantity/mi || inst.GPU < 0:
		add(field.NewPath("Instance"), inst.Name,
			"instance type %q has %d vCPUs and %d MiB of memory, outside what kubefit models (up to %s vCPUs and %s MiB)",
			inst.Name, inst.VCPU, inst.MemoryMiB, resource.Group(maxVCPU), resource.Group(resource.MaxQuantity/mi))
	}
	cloud := in.Profile.Cloud()
	if cloud == "" {
		cloud = nodeCloud(in)
	}
	switch {
	case in.MaxPods < 0 || in.MaxPods > maxPodsCap:
		add(field.NewPath("MaxPods"), strconv.FormatInt(in.MaxPods, 10),
			"the maximum pod count must be between 1 and %s (0 means the platform default), got %d", resource.Group(maxPodsCap), in.MaxPods)
	case in.MaxPods != 0 && cloud == catalog.Azure && (in.MaxPods < 10 || in.MaxPods > 250):
		// concepts-network-ip-address-planning.md: "strictly enforced by the AKS service".
		add(field.NewPath("MaxPods"), strconv.FormatInt(in.MaxPods, 10),
			"AKS takes a maximum pod count from 10 to 250 per node and refuses %d; give a value within that range", in.MaxPods)
	case in.MaxPods != 0 && cloud == catalog.GCP && in.Profile != Custom && (in.MaxPods < 8 || in.MaxPods > 256):
		// GKE's flexible pod CIDR: maximum pods per node from 8 to 256.
		add(field.NewPath("MaxPods"), strconv.FormatInt(in.MaxPods, 10),
			"GKE Standard takes a maximum pod count from 8 to 256 per node and refuses %d; give a value within that range", in.MaxPods)
	}
	if bp := in.VMMemoryOverheadBP; bp != nil && (*bp < 0 || *bp >= 10000) {
		add(field.NewPath("VMMemoryOverheadBP"), formatBP(*bp)+"%",
			"the VM memory overhead must be at least 0 %% and below 100 %%, got %s %%", formatBP(*bp))
	}
	if in.OSDiskGiB < 0 || in.OSDiskGiB > maxDiskGiB {
		add(field.NewPath("OSDiskGiB"), strconv.FormatInt(in.OSDiskGiB, 10),
			"the root/OS disk size must be between 1 and %s GiB (0 means the platform default), got %d", resource.Group(maxDiskGiB), in.OSDiskGiB)
	}
	errs = append(errs, validateEKS(in)...)
	if cloud := nodeCloud(in); in.AKS != (AKSOptions{}) && cloud != "" && cloud != catalog.Azure {
		add(field.NewPath("AKS"), "", "AKS settings apply only to Azure nodes, not to %q from the %s catalog; remove them", in.Instance.Name, cloud)
	}
	if in.AKS.NetworkPlugin == "" {
		in.AKS.NetworkPlugin = AzureCNIOverlay
	}
	if !contains(NetworkPlugins, in.AKS.NetworkPlugin) {
		add(field.NewPath("AKS", "NetworkPlugin"), string(in.AKS.NetworkPlugin),
			"unknown AKS network plugin %q; valid plugins are %s", in.AKS.NetworkPlugin, field.QuoteList(NetworkPlugins))
	}
	if minor, err := parseMinor(in.KubernetesVersion); err != nil {
		add(field.NewPath("KubernetesVersion"), in.KubernetesVersion, "%s", err.Error())
	} else if in.Profile.isAKS() && minor > 0 && minor < firstAKSMinor && !oldAKSNodeGiven(in) {
		add(field.NewPath("KubernetesVersion"), in.KubernetesVersion,
			"AKS nodes of Kubernetes 1.%d and older ran one of two CPU reservations, and the version does not say which: nodes "+
				"created before September 2019 reserved less (69m on 2 vCPUs, 89m on 8) than Microsoft's table, which later "+
				"nodes follow (100m, 180m); give the node's kube-reserved CPU as its kubelet's --kube-reserved flag shows it "+
				"(capacity minus allocatable CPU), or its measured allocatable, or plan for Kubernetes 1.%d or later",
			firstAKSMinor-1, firstAKSMinor)
	}
	errs = append(errs, validateReservation(field.NewPath("KubeReserved"), "kube-reserved", in.KubeReserved)...)
	errs = append(errs, validateReservation(field.NewPath("SystemReserved"), "system-reserved", in.SystemReserved)...)
	errs = append(errs, validateEviction(in.EvictionHard)...)
	errs = append(errs, validateReservation(field.NewPath("MeasuredCapacity"), "measured capacity", in.MeasuredCapacity)...)
	errs = append(errs, validateMeasuredCapacity(in.MeasuredCapacity)...)
	errs = append(errs, validateMeasuredAllocatable(in.MeasuredAllocatable)...)
	switch in.SystemDaemonSets {
	case "":
		in.SystemDaemonSets = SystemDaemonSetsPlatform
	case SystemDaemonSetsPlatform, SystemDaemonSetsListed:
	default:
		add(field.NewPath("SystemDaemonSets"), string(in.SystemDaemonSets), "unknown system DaemonSets mode %q; valid modes are %s",
			in.SystemDaemonSets, field.QuoteList(SystemDaemonSetsModes))
	}
	for i, d := range in.DaemonSets {
		p := field.NewPath("DaemonSets").At(i)
		if d.Name == "" {
			add(p.Child("Name"), "", "DaemonSet %d has an empty name; give every DaemonSet a name", i+1)
		}
		for _, q := range []struct {
			name, what string
			v          int64
			render     func(int64) string
		}{
			{"CPUMillicores", "CPU", d.Requests.CPUMillicores, resource.QuantityCPU},
			{"MemoryBytes", "memory", d.Requests.MemoryBytes, resource.QuantityBytes},
			{"EphemeralStorageBytes", "ephemeral-storage", d.Requests.EphemeralStorageBytes, resource.QuantityBytes},
			{"GPU", "GPU", d.Requests.GPU, func(n int64) string { return strconv.FormatInt(n, 10) }},
		} {
			if q.v < 0 || q.v > resource.MaxQuantity {
				add(p.Child("Requests", q.name), q.render(q.v), "DaemonSet %q has a negative or out-of-range %s request, got %s",
					d.Name, q.what, q.render(q.v))
			}
		}
	}
	return errs
}

func validateEKS(in *Input) field.Errors {
	var errs field.Errors
	p := field.NewPath("EKS")
	if cloud := nodeCloud(in); in.EKS != (EKSOptions{}) && cloud != "" && cloud != catalog.AWS {
		errs = append(errs, field.Invalid(p, "", "EKS settings apply only to AWS nodes, not to %q from the %s catalog; remove them", in.Instance.Name, cloud))
	}
	if e := in.Instance.MaxENIs; e > 0 && in.EKS.ReservedENIs > e {
		errs = append(errs, field.Invalid(p.Child("ReservedENIs"), strconv.FormatInt(in.EKS.ReservedENIs, 10),
			"%d reserved network interfaces are more than the %d that %q has", in.EKS.ReservedENIs, e, in.Instance.Name))
	} else if in.EKS.ReservedENIs > maxENIs {
		errs = append(errs, field.Invalid(p.Child("ReservedENIs"), strconv.FormatInt(in.EKS.ReservedENIs, 10),
			"%d reserved network interfaces are more than any instance type has (at most %d)", in.EKS.ReservedENIs, maxENIs))
	}
	if in.EKS.ReservedENIs < 0 {
		errs = append(errs, field.Invalid(p.Child("ReservedENIs"), strconv.FormatInt(in.EKS.ReservedENIs, 10),
			"the number of reserved network interfaces must not be negative, got %d", in.EKS.ReservedENIs))
	}
	if in.EKS.MaxPodsExpressionResult < 0 {
		errs = append(errs, field.Invalid(p.Child("MaxPodsExpressionResult"), strconv.FormatInt(in.EKS.MaxPodsExpressionResult, 10),
			"the maxPodsExpression result must not be negative, got %d", in.EKS.MaxPodsExpressionResult))
	}
	if in.EKS.Kind == "" {
		in.EKS.Kind = Managed
	}
	switch {
	case !contains(NodeGroupKinds, in.EKS.Kind):
		errs = append(errs, field.Invalid(p.Child("Kind"), string(in.EKS.Kind),
			"unknown EKS node group kind %q; valid kinds are %s", in.EKS.Kind, field.QuoteList(NodeGroupKinds)))
	case in.EKS.Kind == AutoMode && in.Profile == EKSWindows:
		errs = append(errs, field.Invalid(p.Child("Kind"), string(in.EKS.Kind),
			"EKS Auto Mode (node group kind %q) has no Windows nodes; use profile %q or another node group kind", AutoMode, EKSAL2023))
	case in.EKS.Kind == AutoMode:
		errs = append(errs, autoModeKubeletErrors(in)...)
	}
	return errs
}

// autoModeKubeletErrors refuses kubelet settings on EKS Auto Mode nodes. Auto Mode's NodeClass (eks.amazonaws.com/v1)
// has no kubelet block: its specification lists the node role, subnets, security groups, snatPolicy, networkPolicy,
// ephemeralStorage, advancedNetworking, certificateBundles and tags, and EKS caps max pods at 110 after its own count
// (awsdocs/amazon-eks-user-guide latest/ug/automode/create-node-class.adoc @ 0026c9df, "Node Class Specification" and
// "Considerations"). So a max pods, reservation or eviction threshold asked for would never reach the nodes, and one
// below Auto Mode's own (a smaller reservation) would plan more room than the nodes have.
func autoModeKubeletErrors(in *Input) field.Errors {
	var errs field.Errors
	refuse := func(p field.Path, value, what string) {
		errs = append(errs, field.Invalid(p, value,
			"%s cannot be set on EKS Auto Mode nodes: Auto Mode's NodeClass has no kubelet settings, so its nodes run Auto Mode's own max pods (the pod IP count, at most 110) and reservations; "+
				"remove it (give the measured allocatable of a real node to plan one exactly), or use node group kind %q, whose EC2NodeClass carries kubelet settings", what, Karpenter))
	}
	if in.MaxPods > 0 {
		refuse(field.NewPath("MaxPods"), strconv.FormatInt(in.MaxPods, 10), fmt.Sprintf("max pods %d", in.MaxPods))
	}
	if in.EKS.MaxPodsExpressionResult > 0 {
		refuse(field.NewPath("EKS", "MaxPodsExpressionResult"), strconv.FormatInt(in.EKS.MaxPodsExpressionResult, 10), "a maxPodsExpression")
	}
	for _, r := range []struct {
		path, what string
		v          Reservation
	}{{"KubeReserved", "kube-reserved", in.KubeReserved}, {"SystemReserved", "system-reserved", in.SystemReserved}} {
		for _, q := range r.v.quantities() {
			if q.v != nil {
				refuse(field.NewPath(r.path, q.name), q.render(*q.v), fmt.Sprintf("%s %s %s", r.what, q.what, q.render(*q.v)))
			}
		}
	}
	if len(in.EvictionHard) > 0 {
		refuse(field.NewPath("EvictionHard"), "", "a hard-eviction threshold")
	}
	return errs
}

// reservationQuantity is one quantity of a Reservation, for the checks below.
type reservationQuantity struct {
	name, what string
	v          *int64
	render     func(int64) string
}

// quantities lists r's quantities in the order CPU, memory, ephemeral storage.
func (r Reservation) quantities() []reservationQuantity {
	return []reservationQuantity{
		{"CPUMillicores", "CPU", r.CPUMillicores, resource.QuantityCPU},
		{"MemoryBytes", "memory", r.MemoryBytes, resource.QuantityBytes},
		{"EphemeralStorageBytes", "ephemeral storage", r.EphemeralStorageBytes, resource.QuantityBytes},
	}
}

// validateReservation checks each given quantity of r, in the order CPU, memory, ephemeral storage.
func validateReservation(p field.Path, what string, r Reservation) field.Errors {
	var errs field.Errors
	for _, q := range r.quantities() {
		if q.v != nil && (*q.v < 0 || *q.v > resource.MaxQuantity) {
			errs = append(errs, field.Invalid(p.Child(q.name), q.render(*q.v), "the %s %s must be between 0 and %s, got %s",
				what, q.what, q.render(resource.MaxQuantity), q.render(*q.v)))
		}
	}
	return errs
}

// validateMeasuredCapacity rejects a measured capacity of zero: no real node reports one.
func validateMeasuredCapacity(m Reservation) field.Errors {
	var errs field.Errors
	for _, q := range m.quantities() {
		if q.v != nil && *q.v == 0 {
			errs = append(errs, field.Invalid(field.NewPath("MeasuredCapacity", q.name), "0",
				"a measured %s capacity of 0 is not a real node's; give the figure from the node's status.capacity, or leave it out", q.what))
		}
	}
	return errs
}

// validateMeasuredAllocatable checks each given figure: more than zero and within bounds.
func validateMeasuredAllocatable(m MeasuredAllocatable) field.Errors {
	var errs field.Errors
	count := func(n int64) string { return strconv.FormatInt(n, 10) }
	for _, q := range []struct {
		name, what string
		v          *int64
		limit      int64
		render     func(int64) string
	}{
		{"CPUMillicores", "CPU", m.CPUMillicores, resource.MaxQuantity, resource.QuantityCPU},
		{"MemoryBytes", "memory", m.MemoryBytes, resource.MaxQuantity, resource.QuantityBytes},
		{"EphemeralStorageBytes", "ephemeral storage", m.EphemeralStorageBytes, resource.MaxQuantity, resource.QuantityBytes},
		{"Pods", "pod count", m.Pods, maxPodsCap, count},
	} {
		if q.v != nil && (*q.v <= 0 || *q.v > q.limit) {
			errs = append(errs, field.Invalid(field.NewPath("MeasuredAllocatable", q.name), q.render(*q.v),
				"the measured allocatable %s must be more than 0 and at most %s, got %s", q.what, q.render(q.limit), q.render(*q.v)))
		}
	}
	return errs
}

// validateEviction checks the hard-eviction thresholds in sorted signal order.
func validateEviction(ev map[string]Threshold) field.Errors {
	var errs field.Errors
	keys := make([]string, 0, len(ev))
	for k := range ev {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, key := range keys {
		t := ev[key]
		p := field.NewPath("EvictionHard").Key(key)
		switch {
		case key != SignalMemory && key != SignalNodefs:
			errs = append(errs, field.Invalid(p, key,
				"unsupported hard-eviction signal %q; kubefit models %q and %q (soft thresholds and inodes never change allocatable)",
				key, SignalMemory, SignalNodefs))
		case t.Bytes < 0 || t.Bytes > resource.MaxQuantity || t.PercentBP < 0 || t.PercentBP > 10000:
			errs = append(errs, field.Invalid(p, t.String(),
				"the hard-eviction threshold for %q must be a quantity from 0 to %s or a percentage from 0 %% to 100 %%, got %s",
				key, resource.QuantityBytes(resource.MaxQuantity), t.String()))
		}
	}
	return errs
}

// parseMinor returns the minor version of "1.28", "v1.29.3"; 0 for "" (current rules).
// firstAKSMinor is the first Kubernetes minor version whose AKS nodes all follow Microsoft's published CPU
// table (overhead.md §11.2): measured nodes of 1.14 and older show both that table (1.14.8, 2020) and the older
// rule of nodes created before September 2019 (the GKE tiers evaluated in floating point: 69m on 2 vCPUs, 89m
// on 8), so for those versions kubefit needs the node's own kube-reserved CPU. Memory follows the same tiers in
// both eras; the 750Mi eviction threshold kubefit applies is the larger of the two seen (100Mi in early 2019).
const firstAKSMinor = 15

// oldAKSNodeGiven reports whether the input carries a real node's CPU figures that replace the reservation
// rule: its kube-reserved CPU, or its measured allocatable CPU.
func oldAKSNodeGiven(in *Input) bool {
	return in.KubeReserved.CPUMillicores != nil || in.MeasuredAllocatable.CPUMillicores != nil
}

func parseMinor(v string) (int, error) {
	if v == "" {
		return 0, nil
	}
	s := strings.TrimPrefix(v, "v")
	parts := strings.Split(s, ".")
	if len(parts) < 2 || len(parts) > 3 || parts[0] != "1" {
		return 0, fmt.Errorf("invalid Kubernetes version %q; write it as \"1.29\"", v)
	}
	minor, err := strconv.Atoi(parts[1])
	if err != nil || minor < 0 || minor > 1000 {
		return 0, fmt.Errorf("invalid Kubernetes version %q; write it as \"1.29\"", v)
	}
	return minor, nil
}
