package workloads

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
)

// quantityMaps are the names of maps whose values are resource quantities.
var quantityMaps = map[string]bool{"requests": true, "limits": true, "overhead": true, "podFixed": true,
	"default": true, "defaultRequest": true, "max": true, "min": true, "maxLimitRequestRatio": true, "hard": true}

// findBadQuantity walks an object for a quantity that does not parse and names its container and field:
// the decoder's own message says only that some quantity is malformed.
func findBadQuantity(obj map[string]any, src Source) error {
	var found error
	var walk func(v any, path []string, container string)
	walk = func(v any, path []string, container string) {
		if found != nil {
			return
		}
		switch v := v.(type) {
		case map[string]any:
			if n, ok := v["name"].(string); ok && len(path) > 0 && strings.HasSuffix(path[len(path)-1], "]") &&
				strings.Contains(path[len(path)-1], "ontainers[") {
				container = n
			}
			keys := make([]string, 0, len(v))
			for k := range v {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				child := v[k]
				if len(path) > 0 && quantityMaps[lastName(path)] {
					if e := checkQuantity(child, src, append(path[:len(path):len(path)], k), container); e != nil {
						found = e
						return
					}
					continue
				}
				walk(child, append(path[:len(path):len(path)], k), container)
			}
		case []any:
			if len(path) == 0 {
				return
			}
			base := path[: len(path)-1 : len(path)-1]
			for i, e := range v {
				walk(e, append(base, path[len(path)-1]+"["+strconv.Itoa(i)+"]"), container)
			}
		}
	}
	walk(obj, nil, "")
	return found
}

func lastName(path []string) string {
	if len(path) == 0 {
		return ""
	}
	l := path[len(path)-1]
	if i := strings.IndexByte(l, '['); i >= 0 {
		return l[:i]
	}
	return l
}

func checkQuantity(v any, src Source, path []string, container string) error {
	var s string
	switch v := v.(type) {
	case string:
		s = v
	case float64:
		s = strconv.FormatFloat(v, 'f', -1, 64)
	case int64:
		s = strconv.FormatInt(v, 10)
	default:
		s = fmt.Sprint(v)
	}
	if _, err := resource.ParseQuantity(s); err == nil {
		return nil
	}
	where := strings.Join(path, ".")
	if container != "" {
		where = "container " + field.Quote(container) + ", " + where
	}
	return field.Invalid(inputPath(src), s, "%s: %s is %s, which is not a Kubernetes quantity; write a number with an optional suffix such as 500m, 2, 512Mi or 1Gi",
		objName(src), where, field.Quote(s))
}
