package provider

import (
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
)

// ruleSummary is a diagnostic summary naming the rule a planner message starts with ("KSO-E6: …",
// "HPA-E4: …", "KCAP-E2: …").
func ruleSummary(detail, kind string) (string, string) {
	id, _, ok := strings.Cut(detail, ": ")
	if !ok || !(strings.HasPrefix(id, "KSO-") || strings.HasPrefix(id, "KCAP-") || strings.HasPrefix(id, "HPA-")) {
		return kind, detail
	}
	if strings.HasPrefix(id, "KCAP-") {
		kind = "Capacity Check Failed"
		if strings.HasPrefix(id, "KCAP-W") {
			kind = "Capacity Check Warning"
		}
	}
	if strings.Contains(id, "-W") {
		return ruleWarningTitle(id, kind), detail // a warning names its finding, so distinct ones never fold
	}
	return kind + " (" + id + ")", detail
}

// addRuleDiagnostics reports planner errors and warnings at their attributes, each with its rule ID in
// the summary and the detail; the warnings most consequential first, each once.
func addRuleDiagnostics(diags *diag.Diagnostics, err error, warnings []field.Warning, names renames, errKind, warnKind string) {
	for _, w := range byConsequence(warnings) {
		summary, detail := ruleSummary(w.Message, warnKind)
		if p := attributePath(path.Empty(), w.Path, names); len(p.Steps()) > 0 {
			diags.AddAttributeWarning(p, summary, sentence(detail))
		} else {
			diags.AddWarning(summary, sentence(detail))
		}
	}
	if err == nil {
		return
	}
	errs := field.As(err)
	if len(errs) == 0 {
		diags.AddError(errKind, err.Error())
		return
	}
	for _, e := range errs {
		summary, detail := ruleSummary(e.Detail, errKind)
		if p := attributePath(path.Empty(), e.Path, names); len(p.Steps()) > 0 {
			diags.AddAttributeError(p, summary, sentence(detail))
		} else {
			diags.AddError(summary, sentence(detail))
		}
	}
}
