package keda

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
)

// DefaultKEDAVersion is the newest KEDA minor version the rules cover; MinKEDAVersion the oldest.
const (
	DefaultKEDAVersion = "2.21"
	MinKEDAVersion     = "2.17"
)

// parseMinor returns the minor version of "<major>.x" or "<major>.x.y" ("v" prefix allowed).
func parseMinor(v string, major int) (int, bool) {
	v = strings.TrimPrefix(strings.TrimSpace(v), "v")
	parts := strings.Split(v, ".")
	if len(parts) < 2 || len(parts) > 3 {
		return 0, false
	}
	for _, p := range parts {
		if _, err := strconv.Atoi(p); err != nil {
			return 0, false
		}
	}
	if mj, _ := strconv.Atoi(parts[0]); mj != major {
		return 0, false
	}
	mn, _ := strconv.Atoi(parts[1])
	return mn, true
}

// kedaMinor returns the KEDA minor version the rules follow (17…21), or an error for a version outside
// the range the rules cover.
func kedaMinor(v string) (int, *field.Error) {
	if v == "" {
		v = DefaultKEDAVersion
	}
	mn, ok := parseMinor(v, 2)
	if !ok || mn < 17 || mn > 21 {
		return 21, field.Invalid(field.NewPath("KEDAVersion"), v,
			"KEDA version %s is not one kubefit's rules cover: use %s … %s", field.Quote(v), MinKEDAVersion, DefaultKEDAVersion)
	}
	return mn, nil
}

// kubeMinor returns the Kubernetes minor version of "1.x[.y]", 0 when v is empty.
func kubeMinor(v string) (int, *field.Error) {
	if v == "" {
		return 0, nil
	}
	mn, ok := parseMinor(v, 1)
	if !ok {
		return 0, field.Invalid(field.NewPath("KubernetesVersion"), v,
			"Kubernetes version %s is not of the form 1.<minor>", field.Quote(v))
	}
	return mn, nil
}

// rule returns an *Error whose detail starts with the rule ID ("KSO-E6: …").
func rule(id string, p field.Path, value string, format string, args ...any) *field.Error {
	return field.Invalid(p, value, "%s", id+": "+fmt.Sprintf(format, args...))
}
