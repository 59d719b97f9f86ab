package keda

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/expr-lang/expr"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
)

// compositeLet starts the wrapper KEDA's webhook (2.20+) puts around a formula that uses ??.
const compositeLet = "let _kedaCompositeResult = "

// kedaFormula returns a formula as KEDA's webhook compiles it: one that uses ?? is wrapped so that a nil
// result stays nil (what fallback behavior scalingModifiers needs) and any other result goes through
// float(…), unless it already starts with that wrapper's let; any other formula is wrapped in float(…)
// unless it starts with float(.
func kedaFormula(formula string) string {
	switch {
	case strings.Contains(formula, "??"):
		if strings.HasPrefix(formula, compositeLet) {
			return formula
		}
		return compositeLet + "(" + formula + "); _kedaCompositeResult == nil ? nil : float(_kedaCompositeResult)"
	case strings.HasPrefix(formula, "float("):
		return formula
	}
	return "float(" + formula + ")"
}

// formulaEnv holds one variable, set to −1, per named trigger that is not cpu or memory: what KEDA's
// webhook runs a formula in.
func formulaEnv(triggers []Trigger) map[string]float64 {
	env := map[string]float64{}
	for _, t := range triggers {
		if n := str(t.Name); n != "" && !isCPUMemory(t.Type) {
			env[n] = -1
		}
	}
	return env
}

// CompileFormula compiles and runs a scaling-modifier formula the way KEDA's webhook does (kedaFormula,
// formulaEnv) and returns the webhook's error, if any.
func CompileFormula(formula string, triggers []Trigger) error {
	_, err := runFormula(formula, triggers, false)
	return err
}

// runFormula compiles kedaFormula(formula), typed as a float when asFloat, and runs it in formulaEnv.
func runFormula(formula string, triggers []Trigger, asFloat bool) (any, error) {
	env := formulaEnv(triggers)
	opts := []expr.Option{expr.Env(env)}
	if asFloat {
		opts = append(opts, expr.AsFloat64())
	}
	prog, err := expr.Compile(kedaFormula(formula), opts...)
	if err != nil {
		return nil, err
	}
	return expr.Run(prog, env)
}

// formulaResult reports why a formula that CompileFormula admits still gives KEDA no metric: without ??
// its type must be a float, and its result on the webhook's inputs must be a float (or nil with ??);
// otherwise KEDA fails at runtime with "formula returned non-float result".
func formulaResult(formula string, triggers []Trigger) error {
	out, err := runFormula(formula, triggers, !strings.Contains(formula, "??"))
	if err != nil {
		return err
	}
	switch out.(type) {
	case float64, nil:
		return nil
	}
	return fmt.Errorf("it returns a %T", out)
}

func (c *checker) modifiers() {
	so := c.so
	if !so.usesModifiers() {
		return
	}
	m := so.Advanced.ScalingModifiers
	p := field.NewPath("Advanced", "ScalingModifiers")
	formula := str(m.Formula)
	if formula == "" {
		c.fail("KSO-E9", p.Child("Formula"), "", "scalingModifiers formula is mandatory when any scaling modifier is set")
	}
	target := str(m.Target)
	if target == "" {
		c.fail("KSO-E9", p.Child("Target"), "", "scalingModifiers formula is given but target is empty")
	} else if f, err := strconv.ParseFloat(target, 64); err != nil || !(f > 0) {
		c.fail("KSO-E9", p.Child("Target"), target, "scalingModifiers target %s must be a number greater than 0", field.Quote(target))
	} else if f*1000 >= math.MaxInt64 {
		// KEDA writes the composite metric's HPA target as resource.NewMilliQuantity(int64(target × 1000))
		// (controllers/keda/hpa.go): beyond int64 the conversion gives a negative target.
		c.fail("KSO-E9", p.Child("Target"), target, "scalingModifiers target %s is too large: KEDA writes the HPA's target in "+
			"milli-units as a 64-bit integer, which overflows to a negative target the API server rejects", field.Quote(target))
	} else if int64(f*1000) < 1 {
		// The same conversion truncates: below 0.001 the target is 0, and the API server rejects a zero target.
		c.fail("KSO-E9", p.Child("Target"), target, "scalingModifiers target %s becomes 0 milli-units in the HPA KEDA creates "+
			"(it truncates to thousandths), which the API server rejects: use at least 0.001", field.Quote(target))
	}
	if mt := m.MetricType; mt != nil && *mt != "AverageValue" && *mt != "Value" {
		c.fail("KSO-E9", p.Child("MetricType"), *mt, "scalingModifiers metricType %s must be AverageValue or Value", field.Quote(*mt))
	}
	if at := m.ActivationTarget; at != nil {
		if _, err := strconv.ParseFloat(*at, 64); err != nil {
			c.fail("KSO-E9", p.Child("ActivationTarget"), *at, "scalingModifiers activationTarget %s is not a number (scalingModifiers.ActivationTarget parsing error at runtime)", field.Quote(*at))
		}
	}
	if formula == "" {
		return
	}
	if err := CompileFormula(formula, so.Triggers); err != nil {
		var names []string
		for _, t := range so.Triggers {
			if n := str(t.Name); n != "" && !isCPUMemory(t.Type) {
				names = append(names, strconv.Quote(n))
			}
		}
		avail := "no trigger can be referenced (only named triggers that are not cpu or memory can)"
		if len(names) > 0 {
			avail = "it may reference only the named triggers that are not cpu or memory: " + field.JoinAnd(names)
		}
		msg := strings.ReplaceAll(err.Error(), "\n", " ")
		c.fail("KSO-E9", p.Child("Formula"), formula, "scalingModifiers formula %s does not compile and run: %s; %s", field.Quote(formula), field.Shorten(msg, 200), avail)
	} else if err := formulaResult(formula, so.Triggers); err != nil {
		msg := strings.ReplaceAll(err.Error(), "\n", " ")
		c.fail("KSO-E9", p.Child("Formula"), formula, "scalingModifiers formula %s does not return a number (%s): KEDA's webhook admits it, but every metrics poll then fails with \"formula returned non-float result\"", field.Quote(formula), field.Shorten(msg, 200))
	}
}
