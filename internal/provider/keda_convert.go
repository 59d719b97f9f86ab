package provider

import (
	"context"
	"fmt"
	"math/big"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/keda"
)

// kedaObjectValue converts a rendered object into the Terraform value yamldecode() gives for its YAML:
// objects, tuples, strings, numbers and bools.
func kedaObjectValue(v any) (attr.Value, error) {
	switch t := v.(type) {
	case keda.Object:
		attrTypes, vals := make(map[string]attr.Type, len(t)), make(map[string]attr.Value, len(t))
		for _, m := range t {
			ev, err := kedaObjectValue(m.Value)
			if err != nil {
				return nil, err
			}
			attrTypes[m.Key], vals[m.Key] = ev.Type(context.Background()), ev
		}
		o, d := types.ObjectValue(attrTypes, vals)
		if d.HasError() {
			return nil, fmt.Errorf("building object: %v", d)
		}
		return o, nil
	case []any:
		elemTypes, elems := make([]attr.Type, 0, len(t)), make([]attr.Value, 0, len(t))
		for _, e := range t {
			ev, err := kedaObjectValue(e)
			if err != nil {
				return nil, err
			}
			elemTypes, elems = append(elemTypes, ev.Type(context.Background())), append(elems, ev)
		}
		tv, d := types.TupleValue(elemTypes, elems)
		if d.HasError() {
			return nil, fmt.Errorf("building tuple: %v", d)
		}
		return tv, nil
	case string:
		return types.StringValue(t), nil
	case bool:
		return types.BoolValue(t), nil
	case int64:
		return types.NumberValue(new(big.Float).SetInt64(t)), nil
	}
	return nil, fmt.Errorf("unexpected rendered value %T", v)
}

// ruleSummary is a diagnostic summary naming the rule a planner message starts with ("KSO-E6: …").
func ruleSummary(detail, kind string) (string, string) {
	id, _, ok := strings.Cut(detail, ": ")
	if !ok || !(strings.HasPrefix(id, "KSO-") || strings.HasPrefix(id, "KCAP-")) {
		return kind, detail
	}
	if strings.HasPrefix(id, "KCAP-") {
		kind = "Capacity Check Failed"
	}
	return kind + " (" + id + ")", detail
}

// addRuleDiagnostics reports planner errors and warnings at their attributes, each with its rule ID in
// the summary and the detail.
func addRuleDiagnostics(diags *diag.Diagnostics, err error, warnings []field.Warning, names renames, errKind, warnKind string) {
	for _, w := range warnings {
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
