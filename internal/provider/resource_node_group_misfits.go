package provider

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/nodegroup"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/sizing"
)

// A node group's misfits: worded on the attribute at fault, reported as errors, as warnings with
// fail_on_misfit = false, or handed to the capacity check (misfits_reported_by = "capacity_check") through
// capacity.failures.

// capacityWithFailures is the capacity object c with failures.
func capacityWithFailures(c types.Object, failures types.List) types.Object {
	v := c.Attributes()
	v["failures"] = failures
	return types.ObjectValueMust(capacityAttrTypes, v)
}

// singleTypePaths puts the planner's warnings on the group's instance types (InstanceTypes…) on instance_type when
// the group gives one type that way, as addNodeGroupErrors does for errors.
func singleTypePaths(m nodeGroupModel, ws []field.Warning) []field.Warning {
	if m.InstanceType.IsNull() {
		return ws
	}
	out := slices.Clone(ws)
	for i, w := range out {
		if st := w.Path.Steps(); len(st) >= 1 && st[0].Name == "InstanceTypes" {
			out[i].Path = field.NewPath("InstanceType")
		}
	}
	return out
}

func addNodeGroupErrors(diags *diag.Diagnostics, m nodeGroupModel, err error) {
	errs := field.As(err)
	if len(errs) == 0 {
		diags.AddError("Sizing Failed", err.Error())
		return
	}
	for _, e := range errs {
		p := attributePath(path.Empty(), e.Path, nodeGroupRenames)
		if steps := e.Path.Steps(); len(steps) >= 1 && steps[0].Name == "InstanceTypes" && !m.InstanceType.IsNull() {
			p = path.Root("instance_type")
		}
		diags.AddAttributeError(p, inputSummary(e.Path, "Invalid Node Group"), sentence(e.Detail))
	}
}

// Who reports a node group's misfits (misfits_reported_by).
const (
	misfitsByNodeGroup     = "node_group"
	misfitsByCapacityCheck = "capacity_check"
)

var misfitReporters = []string{misfitsByNodeGroup, misfitsByCapacityCheck}

// groupMisfit is one misfit of a node group as the group words it: the attribute at fault, the summary, the
// message (with the remedies the planner names in it) and the group's own remedy, the largest replica count of
// the workload at fault that fits ("" when none was computed).
type groupMisfit struct {
	reason  sizing.Reason
	path    path.Path
	title   string
	message string
	remedy  string
}

// detail is the misfit's diagnostic detail: its message and its remedy.
func (g groupMisfit) detail() string {
	if g.remedy == "" {
		return g.message
	}
	return g.message + " " + g.remedy
}

// nodeGroupMisfits words each failure of the group on its attribute: max_size (capacity) or the workload at
// fault (a pod that never fits), instance_type (credits), disruptions.
func nodeGroupMisfits(m nodeGroupModel, res *nodegroup.Result) []groupMisfit {
	var out []groupMisfit
	for _, f := range res.Failures {
		switch f.Reason {
		case sizing.ReasonCredits:
			out = append(out, groupMisfit{reason: f.Reason, path: path.Root("instance_type"), title: "Burstable Nodes Run Out of CPU Credits", message: f.Message})
			continue
		case sizing.Reason(fit.ReasonDisruption):
			out = append(out, groupMisfit{reason: f.Reason, path: path.Root("disruptions"), title: "Disruption Not Absorbed",
				message: groupMessage(m.Name.ValueString(), f.Message)})
			continue
		}
		p := path.Root("max_size")
		if m.MaxSize.IsNull() || f.Reason == sizing.Reason(fit.ReasonTooLarge) || f.Reason == sizing.Reason(fit.ReasonSelector) ||
			f.Reason == sizing.Reason(fit.ReasonTaint) || f.Reason == sizing.Reason(fit.ReasonHostPort) || f.Reason == sizing.Reason(fit.ReasonOS) ||
			f.Reason == sizing.Reason(fit.ReasonExtended) {
			// The workload holds what is at fault (its host port: a DaemonSet's on every node, or one per node).
			p = path.Root("workloads")
			for i, w := range res.Plan.Workloads {
				if w.Name == f.Workload {
					p = p.AtListIndex(i)
				}
			}
		}
		g := groupMisfit{reason: f.Reason, path: p, title: "Workloads Do Not Fit the Node Group",
			message: groupMessage(m.Name.ValueString(), f.Message)}
		switch {
		case f.OthersMisfit:
			g.remedy = fmt.Sprintf("No replica count of workload %q makes the group fit: without its pods the other workloads still do not.", f.Workload)
		case f.LargestFit >= 0:
			g.remedy = fmt.Sprintf("With every other workload at its own peak, the largest replica count of workload %q that fits is %d.", f.Workload, f.LargestFit)
		}
		out = append(out, g)
	}
	return out
}

// groupMessage is a misfit's message led by the group it is about: as it is when the planner's message begins with
// the group, else with `node group "name": ` before it.
func groupMessage(name, msg string) string {
	msg = strings.TrimRight(msg, ".") + "."
	if lead := fmt.Sprintf("node group %q", name); strings.HasPrefix(msg, lead) {
		return msg
	}
	return fmt.Sprintf("node group %q: %s", name, msg)
}

// reportNodeGroup reports the group's misfits (errors, warnings with fail_on_misfit = false, or one warning
// naming who reports them with misfits_reported_by = "capacity_check") and the planner's warnings.
func reportNodeGroup(diags *diag.Diagnostics, m nodeGroupModel, misfits []groupMisfit, warnings []field.Warning) {
	if deferMisfits(m) {
		if len(misfits) > 0 {
			found := make([]string, 0, len(misfits))
			for _, g := range misfits {
				found = append(found, fmt.Sprintf("%s (%s)", g.title, g.path))
			}
			diags.AddAttributeWarning(path.Root("misfits_reported_by"), "Misfits Reported by the Capacity Check", fmt.Sprintf(
				"node group %q does not carry its workloads: %s. With misfits_reported_by = \"capacity_check\" this object does not fail the plan: "+
					"its capacity output lists them in failures, and the kubefit_capacity_check whose node_groups holds this group's capacity "+
					"reports each as an error (KCAP-E8), beside its own findings, so that one plan shows every failing check. If no "+
					"kubefit_capacity_check reads capacity, nothing reports them and the plan does not fail on them.",
				m.Name.ValueString(), strings.Join(found, "; ")))
		}
	} else {
		add, suffix := diags.AddAttributeError, " Set fail_on_misfit = false to plan anyway and only warn, or misfits_reported_by = \"capacity_check\" to have the capacity check reading this group's capacity report it."
		if !m.FailOnMisfit.IsNull() && !m.FailOnMisfit.ValueBool() {
			add, suffix = diags.AddAttributeWarning, ""
		}
		for _, g := range misfits {
			add(g.path, g.title, g.detail()+suffix)
		}
	}
	addPlannerWarnings(diags, path.Empty(), warnings, nodeGroupRenames, "Sizing Caveat")
}

// deferMisfits reports whether the group leaves its misfits to the capacity check that reads its capacity.
func deferMisfits(m nodeGroupModel) bool {
	return m.MisfitsReportedBy.ValueString() == misfitsByCapacityCheck
}

// groupFailuresValue is capacity.failures: the misfits the group leaves to the capacity check (none otherwise).
func groupFailuresValue(m nodeGroupModel, misfits []groupMisfit) types.List {
	vals := []attr.Value{}
	if deferMisfits(m) {
		for _, g := range misfits {
			vals = append(vals, types.ObjectValueMust(groupFailureAttrTypes, map[string]attr.Value{
				"reason": types.StringValue(string(g.reason)), "attribute": types.StringValue(g.path.String()),
				"message": types.StringValue(g.message), "remedy": types.StringValue(g.remedy)}))
		}
	}
	return types.ListValueMust(types.ObjectType{AttrTypes: groupFailureAttrTypes}, vals)
}
