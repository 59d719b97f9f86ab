package provider

import (
	"reflect"
	"slices"
	"strings"
	"unicode"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/nodegroup"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/overhead"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/selector"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/sizing"
)

// renames maps the planner's field names to this object's attribute names, for the few fields whose
// attribute is not simply the snake_case of the planner's name. A key is a field name ("MaxNodes") or a
// field name qualified by its parent field ("KubeReserved.EphemeralStorageBytes"); the qualified key wins.
// A value is an attribute name, a dotted chain of them ("requests.cpu"), a map key in brackets
// ("[ephemeral-storage]"), or "" to drop the step (a planner level the schema does not have).
type renames map[string]string

// attributePath maps a planner path to the attribute it names below base: named fields through names (or
// snake_case), list indexes and map keys as they are.
func attributePath(base path.Path, p field.Path, names renames) path.Path {
	out := base
	parent := ""
	for _, s := range p.Steps() {
		switch s.Kind {
		case field.Index:
			out = out.AtListIndex(s.Index)
			continue
		case field.Key:
			out = out.AtMapKey(s.Key)
			continue
		}
		to, ok := names[parent+"."+s.Name]
		if !ok {
			to, ok = names[s.Name]
		}
		if !ok {
			to = snakeCase(s.Name)
		}
		parent = s.Name
		switch {
		case to == "":
		case strings.HasPrefix(to, "[") && strings.HasSuffix(to, "]"):
			out = out.AtMapKey(to[1 : len(to)-1])
		default:
			for _, n := range strings.Split(to, ".") {
				out = out.AtName(n)
			}
		}
	}
	return out
}

// snakeCase converts a Go field name to snake_case, keeping initialisms whole: "MaxNodes" → "max_nodes",
// "VMMemoryOverheadPercent" → "vm_memory_overhead_percent", "OSDiskGiB" → "os_disk_gib", "ReservedENIs" →
// "reserved_enis".
func snakeCase(s string) string {
	s = strings.NewReplacer("GiB", "Gib", "MiB", "Mib", "IPv4", "Ipv4", "ENIs", "Enis").Replace(s)
	r := []rune(s)
	var b strings.Builder
	for i, c := range r {
		if unicode.IsUpper(c) && i > 0 {
			prevLower := unicode.IsLower(r[i-1]) || unicode.IsDigit(r[i-1])
			nextLower := i+1 < len(r) && unicode.IsLower(r[i+1])
			if prevLower || (nextLower && unicode.IsUpper(r[i-1])) {
				b.WriteByte('_')
			}
		}
		b.WriteRune(unicode.ToLower(c))
	}
	return b.String()
}

// addPlannerErrors reports the planner input errors inside err at their attributes below base and returns
// true; for an error that is not about an input value it adds one error with summary and returns true. It
// returns false for a nil err.
func addPlannerErrors(diags *diag.Diagnostics, base path.Path, err error, names renames, summary string) bool {
	return addPlannerErrorsAt(diags, err, func(p field.Path) path.Path { return attributePath(base, p, names) }, summary)
}

// The summaries of input errors about a workload or a DaemonSet, whichever object takes it (issue 21: the
// same input gives the same error in every object).
const (
	invalidWorkload  = "Invalid Workload"
	invalidDaemonSet = "Invalid DaemonSet"
	invalidNode      = "Invalid Node Configuration"
)

// inputSummary is the summary of a planner input error at p: the concept's own for a workload or a
// DaemonSet, else fallback (the object's).
func inputSummary(p field.Path, fallback string) string {
	steps := p.Steps()
	if len(steps) > 0 && steps[0].Kind == field.Name {
		switch steps[0].Name {
		case "Workloads":
			return invalidWorkload
		case "DaemonSets":
			return invalidDaemonSet
		case "Pools": // a sizing pool's options: Pools["name"].Overhead…
			if len(steps) > 2 {
				steps = steps[2:]
			}
		case "Pool": // a recommendation's pool template: Pool.Overhead…
			steps = steps[1:]
		case "Overrides": // kubefit_workloads' overrides, not its manifests
			return "Invalid Override"
		}
	}
	if len(steps) > 0 && steps[0].Kind == field.Name && (steps[0].Name == "Overhead" || steps[0].Name == "Credits") {
		return invalidNode // a node's options, wherever they are given: the node group's own, a pool's, a single node's
	}
	return fallback
}

// addPlannerErrorsAt is addPlannerErrors for an object whose paths need more than renames (such as
// StorageClass parameters, whose attribute depends on which typed attribute set the key): attribute
// maps a planner path to its attribute, or to the empty path for none.
func addPlannerErrorsAt(diags *diag.Diagnostics, err error, attribute func(field.Path) path.Path, summary string) bool {
	if err == nil {
		return false
	}
	errs := field.As(err)
	if len(errs) == 0 {
		diags.AddError(summary, err.Error())
		return true
	}
	for _, e := range errs {
		if p := attribute(e.Path); len(p.Steps()) > 0 {
			diags.AddAttributeError(p, inputSummary(e.Path, summary), sentence(e.Detail))
		} else {
			diags.AddError(summary, sentence(e.Detail))
		}
	}
	return true
}

// warningTitles titles planner warnings by code, whichever object reports them.
var warningTitles = map[string]string{
	sizing.WarnAboveBaseline:               "Burstable Nodes Above Baseline",
	sizing.WarnMinReplicasDefault:          "Minimum Replicas Defaulted",
	sizing.WarnCreditsIgnored:              "Credit Options Ignored",
	sizing.WarnSharedVolume:                "Shared Volume Claim",
	sizing.WarnDiskShare:                   "Volumes Exceed the Node's Disk Limits",
	sizing.WarnAffinityUnknownLabel:        "Node Affinity on Labels Planned Nodes Lack",
	sizing.WarnMemoryInBytes:               "Memory Request in Bytes",
	sizing.WarnDiskTypeUnchecked:           "Claim's Disk Type Not Checked Against the Pool",
	selector.WarnDiskNotChecked:            "Node Disk Demand Not Checked",
	selector.WarnPriceBasis:                "Prices Do Not Match the Pool",
	selector.WarnModelBudget:               "Cheapest Candidates Not All Modelled",
	selector.WarnPackBudget:                "Candidates Not All Packed",
	nodegroup.WarnKarpenterName:            "Karpenter NodePool Renamed",
	nodegroup.WarnAKSWindows2025:           "AKS Windows Server 2025 Pool Needs FIPS and a Newer azurerm",
	sizing.WarnAKSKubenetCluster:           "Kubenet Pools Above 400 Nodes Together",
	sizing.WarnAKSSmallVM:                  "VM Size AKS No Longer Creates Pools Of",
	nodegroup.WarnEksctlName:               "eksctl Node Group Renamed",
	nodegroup.WarnKarpenterLimits:          "Karpenter NodePool Limits Above Max Size",
	nodegroup.WarnKarpenterUnmodelled:      "Karpenter Provisioning Not Modelled",
	nodegroup.WarnEKSNodeQuota:             "Above the EKS Managed Node Group Quota",
	nodegroup.WarnModuleName:               "Module Node Pool Renamed",
	nodegroup.WarnGKEBootDiskUnchecked:     "GKE Boot Disk Type Not Checked",
	overhead.CodeNotMeasured:               "Node Overhead Not Measured",
	sizing.WarnSchedulerBudget:             "Scheduler Model Cut Short",
	sizing.WarnBlameBudget:                 "Blame Rule Cut Short",
	nodegroup.WarnLargestFitBudget:         "Largest Fitting Replica Count Not Searched",
	sizing.WarnNoSpareNode:                 "No Spare Node for a Node Loss",
	sizing.WarnOSUnselected:                "Scheduler May Bind Pods to Another OS",
	sizing.WarnArm64Images:                 "Images Must Be Built for Arm64",
	sizing.WarnDaemonSetNowhere:            "DaemonSet Lands on No Pool",
	sizing.WarnGKEZonesUnknown:             "GKE Pool Needs More Zones Than Known",
	selector.WarnEmpty:                     "No Instance Type Matches",
	selector.WarnUnknownFamily:             "Unknown Instance Family",
	selector.WarnDiskTypeUnknown:           "Disk Support of Candidates Unknown",
	selector.WarnAcceleratorUnused:         "Accelerators No Workload Requests",
	selector.WarnNoneEligible:              "No Candidate Fits",
	nodegroup.WarnKubeletSettingsNeedImage: "Kubelet Settings Need a Custom AMI",
	nodegroup.WarnKarpenterKubelet:         "Kubelet Settings Belong in the EC2NodeClass",
	nodegroup.WarnKarpenterWindowsClass:    "Windows Nodes Need a Windows EC2NodeClass",
	nodegroup.WarnOneSizePool:              "Mixed Group Rendered as One Size",

	overhead.CodeNoDaemonSets:              "DaemonSet Requests Not Given",
	overhead.CodeHyperdiskAttach:           "Hyperdisk Attach Limit Below the Driver's",
	overhead.CodeDaemonSetsFillNode:        "DaemonSets Fill the Node",
	overhead.CodeGKEMaxPodsAbove110:        "GKE Max Pods Above 110",
	overhead.CodeNoENIData:                 "No ENI Data for the Instance Type",
	overhead.CodePrefixDelegationIgnored:   "Prefix Delegation Ignored",
	overhead.CodeNoENIForPods:              "No ENI Left for Pod IPs",
	overhead.CodeMaxPodsAboveIPs:           "Max Pods Above Pod IP Capacity",
	overhead.CodeMNGMaxPodsEnforced:        "EKS Enforces Its Own Max Pods",
	overhead.CodeAKS129BothRules:           "AKS 1.29 Reservation Rules Differ",
	overhead.CodeAKSWindowsRulesUnverified: "AKS Windows Reservations Unverified",
	overhead.CodeEKSAutoModeUpperBound:     "EKS Auto Mode Allocatable Is an Upper Bound",
	overhead.CodeAKSKubeReservedFloor:      "Below AKS's kube-reserved Floor",
}

// warningSummary is the diagnostic summary of a planner warning: its code's title, "Node Overhead Caveat"
// for every code of the overhead model, else fallback.
func warningSummary(code, fallback string) string {
	if t, ok := warningTitles[code]; ok {
		return t
	}
	if strings.HasPrefix(code, "overhead.") {
		return "Node Overhead Caveat"
	}
	return fallback
}

// addPlannerWarnings reports planner warnings at their attributes below base, each titled by
// warningSummary (fallback for codes without a title of their own), most consequential first, each once.
func addPlannerWarnings(diags *diag.Diagnostics, base path.Path, ws []field.Warning, names renames, fallback string) {
	for _, w := range byConsequence(ws) {
		summary := warningSummary(w.Code, fallback)
		if p := attributePath(base, w.Path, names); len(p.Steps()) > 0 {
			diags.AddAttributeWarning(p, summary, sentence(w.Message))
		} else {
			diags.AddWarning(summary, sentence(w.Message))
		}
	}
}

// sentence makes a planner message a diagnostic detail: the first letter upper case when the first word is a
// plain lower-case word, and a full stop at the end.
func sentence(s string) string {
	if s == "" {
		return s
	}
	if first, _, _ := strings.Cut(s, " "); strings.IndexFunc(first, func(c rune) bool { return !unicode.IsLower(c) }) < 0 {
		r := []rune(s) // a plain word; not a name such as m5.large, max_size or pools["a"], which keep their case
		r[0] = unicode.ToUpper(r[0])
		s = string(r)
	}
	if !strings.HasSuffix(s, ".") && !strings.HasSuffix(s, "?") && !strings.HasSuffix(s, "!") {
		s += "."
	}
	return s
}

// withoutPending drops the diagnostics on attributes pending says stood in for values unknown during plan,
// after an object was checked with what is known.
func withoutPending(ds diag.Diagnostics, pending func(path.Path) bool) diag.Diagnostics {
	var out diag.Diagnostics
	for _, d := range ds {
		if wp, ok := d.(diag.DiagnosticWithPath); ok && pending(wp.Path()) {
			continue
		}
		out.Append(d)
	}
	return out
}

// topLevelIn reports whether a path lies under one of the top-level attributes in names.
func topLevelIn(names map[string]bool) func(path.Path) bool {
	return func(p path.Path) bool {
		if steps := p.Steps(); len(steps) > 0 {
			name, ok := steps[0].(path.PathStepAttributeName)
			return ok && names[string(name)]
		}
		return false
	}
}

// uniqueDiagnostics returns ds without the diagnostics equal to an earlier one, in order: what appending them
// one by one with diag.Diagnostics.Append gives, in linear time. Append compares each new diagnostic with every
// earlier one (Contains), so the 10,000 errors of 2,000 bad workloads took 4 s to validate; kubefit's server
// (data sources, and the validation of resources: resource_server.go) gathers diagnostics with the builtin append
// and calls this once. Diagnostics are bucketed by
// their type, severity, summary, detail and path, and compared with Equal within a bucket.
func uniqueDiagnostics(ds diag.Diagnostics) diag.Diagnostics {
	if len(ds) < 2 {
		return ds
	}
	type key struct {
		kind                  reflect.Type
		sev                   diag.Severity
		summary, detail, path string
	}
	seen := make(map[key][]diag.Diagnostic, len(ds))
	out := ds[:0:0]
	for _, d := range ds {
		if d == nil {
			continue
		}
		k := key{kind: reflect.TypeOf(d), sev: d.Severity(), summary: d.Summary(), detail: d.Detail()}
		if wp, ok := d.(diag.DiagnosticWithPath); ok {
			k.path = wp.Path().String()
		}
		if slices.ContainsFunc(seen[k], d.Equal) {
			continue
		}
		seen[k] = append(seen[k], d)
		out = append(out, d)
	}
	return out
}
