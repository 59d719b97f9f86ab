package keda

import (
	"strconv"
	"strings"

	"github.com/expr-lang/expr"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
)

// CompileFormula compiles and runs a scaling-modifier formula the way KEDA's webhook does: the formula is
// made float-valued (kept as is when it uses ??, else wrapped in float(…) unless it starts with float(),
// and evaluated once in an environment holding one variable, set to −1, per named trigger that is not cpu
// or memory.
func CompileFormula(formula string, triggers []Trigger) error {
	env := map[string]float64{}
	for _, t := range triggers {
		if n := str(t.Name); n != "" && !isCPUMemory(t.Type) {
			env[n] = -1
		}
	}
	f, opts := formula, []expr.Option{expr.Env(env)}
	if !strings.Contains(f, "??") {
		if !strings.HasPrefix(f, "float(") {
			f = "float(" + f + ")"
		}
		opts = append(opts, expr.AsFloat64())
	}
	prog, err := expr.Compile(f, opts...)
	if err != nil {
		return err
	}
	_, err = expr.Run(prog, env)
	return err
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
	}
}
