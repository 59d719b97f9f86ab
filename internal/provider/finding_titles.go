package provider

import (
	"cmp"
	"slices"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/disk"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/nodegroup"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/overhead"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/selector"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/sizing"
)

// How much a warning matters, most first: the order in which an object reports its warnings.
const (
	// rankShortfall: something will fail or run short at runtime (a rollout stalls, a metric the HPA controller
	// cannot read, a disk met only in bursts, a node running out of credits).
	rankShortfall = 1
	// rankUnchecked: a check could not run or rests on an assumption the user should replace.
	rankUnchecked = 2
	// rankNote: a default applied, a setting without effect, a rename.
	rankNote = 3
)

// findingTitle is the diagnostic summary of one kind of warning: it names the finding, not the object, so
// Terraform never folds two distinct findings into "(and one more similar warning elsewhere)".
type findingTitle struct {
	Title string
	Rank  int
}

// ruleTitles titles the warnings of the rules kubefit's planners give by ID (KSO-W…, HPA-W…, KCAP-W…, and
// the disk rules); the summary is the title followed by the rule ID.
var ruleTitles = map[string]findingTitle{
	"KCAP-W1":  {"Rollout at Peak Needs More Nodes", rankShortfall},
	"KCAP-W2":  {"Database Connections Above the Safe Share", rankShortfall},
	"KCAP-W3":  {"CPU Scaling May Not Trigger", rankShortfall},
	"KCAP-W4":  {"DNS Load Near Its Ceiling", rankShortfall},
	"KCAP-W5":  {"Node Groups Placed Without the Scheduler Model", rankUnchecked},
	"KCAP-W6":  {"DNS Resolver Ceiling Not Checked", rankUnchecked},
	"KCAP-W7":  {"Argo Rollout Planned as Blue-Green", rankUnchecked},
	"KCAP-W8":  {"Target Workload Kind Differs From the Scale Target", rankUnchecked},
	"KCAP-W9":  {"Node Group's Own Workloads Not Placed", rankUnchecked},
	"KCAP-W10": {"Autoscaler Not Checked Against a Node Group", rankUnchecked},
	"KSO-W1":   {"Polling Interval Has No Effect", rankNote},
	"KSO-W2":   {"Cooldown Period Has No Effect", rankNote},
	"KSO-W3":   {"Idle Replica Count Other Than 0 Does Not Work", rankShortfall},
	"KSO-W4":   {"Maximum Replicas Unset (100)", rankUnchecked},
	"KSO-W5":   {"Fallback Replicas Clamped", rankNote},
	"KSO-W6":   {"Fallback Never Used: Modifier Target Not a Whole Number", rankShortfall},
	"KSO-W7":   {"Unknown Trigger Metadata Key Ignored", rankUnchecked},
	"KSO-W9":   {"Empty Prometheus Result Scales to Zero", rankShortfall},
	"KSO-W10":  {"Container Requests Not Checked", rankUnchecked},
	"KSO-W11":  {"Memory Scaling Rarely Scales In", rankShortfall},
	"KSO-W12":  {"Value Fallback Fails With No Pod Running", rankShortfall},
	"KSO-W13":  {"HPA Tolerance Needs a Feature Gate", rankUnchecked},
	"HPA-W1":   {"Tolerance Dropped Without Its Feature Gate", rankUnchecked},
	"HPA-W2":   {"Empty Scaling Policies Defaulted", rankNote},
	"HPA-W3":   {"Metric Target the HPA Controller Does Not Use", rankShortfall},
	"HPA-W4":   {"Resource Metric metrics-server Does Not Report", rankShortfall},
	"HPA-W5":   {"Metric Selector the HPA Controller Rejects", rankShortfall},
	"HPA-W6":   {"No Metric: CPU at 80 % Applies", rankNote},
	"HPA-W7":   {"Metric the HPA Controller Fails On", rankShortfall},
	"FIT-V1":   {"Volume Does Not Sustain the Requirement", rankShortfall},
	"FIT-N1":   {"Node Sustains the Disks Only in Bursts", rankShortfall},
	"FIT-N0":   {"Node Disk Limits Unknown", rankUnchecked},
	"FIT-A1":   {"Disk Latency Assumed", rankUnchecked},
	"QD-1":     {"Queue Depth Unknown", rankUnchecked},
	"AZD-P3":   {"Met Only With On-Demand Bursting", rankShortfall},
	"AZD-P2":   {"Disk Figures Are Up-To Targets", rankUnchecked},
	"AZD-V6":   {"Below 1 IOPS per GiB", rankUnchecked},
	"AZC-1":    {"Host Caching Defaults to ReadOnly", rankUnchecked},
	"AZC-5":    {"Disk Too Large for Host Caching", rankShortfall},
	"EBS-P6":   {"Magnetic Volume Performance Is Best Effort", rankShortfall},
	"EBS-V9":   {"IOPS Raised to the Type's Minimum", rankNote},
	"EBS-V10":  {"Deprecated StorageClass Parameter", rankNote},
	"EBS-W1":   {"Older EBS CSI Drivers Cap the IOPS", rankUnchecked},
	"EBS-W2":   {"Deprecated Parameter Ignored", rankNote},
	"EBS-W3":   {"Volume Encrypted by Its KMS Key", rankNote},
	"SC-2":     {"Zonal Disk Bound Before Scheduling", rankShortfall},
	"SC-3":     {"Driver Default Applies", rankNote},
	"SC-W1":    {"In-Tree Provisioner Removed", rankShortfall},
	"GPD-V3":   {"pd-extreme IOPS Outside Its Range", rankShortfall},
	"GPD-M2":   {"Disk Type Not Checked Against the Machine Series", rankUnchecked},
}

// warningRanks ranks the planner warnings titled by code (warningTitles); a code not listed is a note.
var warningRanks = map[string]int{
	sizing.WarnAboveBaseline: rankShortfall, sizing.WarnSharedVolume: rankShortfall, nodegroup.WarnEKSNodeQuota: rankShortfall,
	nodegroup.WarnAKSWindows2025: rankShortfall, sizing.WarnAKSKubenetCluster: rankShortfall, sizing.WarnAKSSmallVM: rankShortfall, sizing.WarnOSUnselected: rankShortfall, sizing.WarnDaemonSetNowhere: rankUnchecked, sizing.WarnArm64Images: rankUnchecked,
	selector.WarnNoneEligible: rankShortfall, selector.WarnEmpty: rankShortfall, selector.WarnAcceleratorUnused: rankShortfall, overhead.CodeDaemonSetsFillNode: rankShortfall,
	overhead.CodeNoENIForPods: rankShortfall, overhead.CodeMaxPodsAboveIPs: rankShortfall, overhead.CodeMNGMaxPodsEnforced: rankShortfall,

	selector.WarnUnknownFamily: rankUnchecked, selector.WarnDiskTypeUnknown: rankUnchecked, sizing.WarnSchedulerBudget: rankUnchecked, sizing.WarnAffinityUnknownLabel: rankUnchecked, selector.WarnDiskNotChecked: rankUnchecked, selector.WarnPriceBasis: rankUnchecked,
	selector.WarnModelBudget: rankUnchecked, selector.WarnPackBudget: rankUnchecked, sizing.WarnBlameBudget: rankUnchecked, nodegroup.WarnLargestFitBudget: rankUnchecked,
	nodegroup.WarnKubeletSettingsNeedImage: rankUnchecked, nodegroup.WarnKarpenterKubelet: rankUnchecked, nodegroup.WarnKarpenterWindowsClass: rankUnchecked, nodegroup.WarnGKEBootDiskUnchecked: rankUnchecked, sizing.WarnDiskTypeUnchecked: rankUnchecked, sizing.WarnGKEZonesUnknown: rankUnchecked, overhead.CodeNotMeasured: rankUnchecked, overhead.CodeNoDaemonSets: rankUnchecked,
	overhead.CodeGKEMaxPodsAbove110: rankUnchecked, overhead.CodeNoENIData: rankUnchecked, overhead.CodeHyperdiskAttach: rankUnchecked,
	overhead.CodeAKS129BothRules: rankUnchecked, overhead.CodeAKSWindowsRulesUnverified: rankUnchecked,
	overhead.CodeEKSAutoModeUpperBound: rankUnchecked, overhead.CodeAKSKubeReservedFloor: rankUnchecked,
}

// rank returns how much the warning with this code or rule ID matters (rankShortfall first).
func rank(code string) int {
	if t, ok := ruleTitles[code]; ok {
		return t.Rank
	}
	if r, ok := warningRanks[code]; ok {
		return r
	}
	return rankNote
}

// ruleWarningTitle is the summary of a rule's warning: its title and ID, or kind and ID for a rule without a
// title.
func ruleWarningTitle(id, kind string) string {
	if t, ok := ruleTitles[id]; ok {
		return t.Title + " (" + id + ")"
	}
	return kind + " (" + id + ")"
}

// byConsequence returns the warnings most consequential first (stable within a rank), without repeats: a
// warning with the same code, path and message as an earlier one is dropped.
func byConsequence(ws []field.Warning) []field.Warning {
	out := make([]field.Warning, 0, len(ws))
	seen := map[[3]string]bool{}
	for _, w := range ws {
		k := [3]string{w.Code, w.Path.String(), w.Message}
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, w)
	}
	slices.SortStableFunc(out, func(a, b field.Warning) int { return cmp.Compare(rank(a.Code), rank(b.Code)) })
	return out
}

// findingsByConsequence orders a disk report's findings for reporting: errors first, then warnings most
// consequential first, each group in report order.
func findingsByConsequence(fs []disk.Finding) []*disk.Finding {
	out := make([]*disk.Finding, len(fs))
	for i := range fs {
		out[i] = &fs[i]
	}
	key := func(f *disk.Finding) int {
		if f.Severity == disk.SeverityError {
			return 0
		}
		return rank(f.Rule)
	}
	slices.SortStableFunc(out, func(a, b *disk.Finding) int { return cmp.Compare(key(a), key(b)) })
	return out
}
