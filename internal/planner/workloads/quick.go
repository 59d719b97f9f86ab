package workloads

import (
	"bytes"
	"regexp"
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes/scheme"
	kjson "sigs.k8s.io/json"
	"sigs.k8s.io/yaml"
)

// topKey matches a top-level block-mapping key with a plain name.
var topKey = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_-]*):(?:[ \t]+(.*))?$`)

// plainValue matches a one-line scalar that needs no YAML parsing to read.
var plainValue = regexp.MustCompile(`^(?:"([A-Za-z0-9./_-]*)"|'([A-Za-z0-9./_-]*)'|([A-Za-z0-9./_-]+))[ \t]*(?:#.*)?$`)

// quick reads the objects that matter only by their metadata (a Service, a Secret, a CRD and any kind
// that is neither read nor changes what is read) without converting the whole document: most of a
// chart's output is such objects, and YAML parsing is most of a read's cost. It returns false whenever
// the document is not plainly a block mapping whose kind and apiVersion are simple scalars, and the
// caller then reads the document in full; the metadata block itself is parsed as YAML.
func quick(d document, src Source) (object, bool) {
	if d.json {
		return object{}, false
	}
	var apiVersion, kind string
	var metaStart, metaEnd = -1, -1
	lines := bytes.Split(d.data, []byte("\n"))
	offset := 0
	for _, raw := range lines {
		l := strings.TrimRight(string(raw), "\r")
		next := offset + len(raw) + 1
		if l == "" || l[0] == ' ' || l[0] == '#' || (l[0] == '-' && (len(l) == 1 || l[1] == ' ') && offset > 0) {
			// Blank, indented, a comment, or a sequence entry at column 0 under the key above.
			offset = next
			continue
		}
		m := topKey.FindStringSubmatch(l)
		if m == nil {
			return object{}, false
		}
		if metaStart >= 0 && metaEnd < 0 {
			metaEnd = offset
		}
		switch m[1] {
		case "apiVersion", "kind":
			v := plainValue.FindStringSubmatch(m[2])
			if v == nil {
				return object{}, false
			}
			val := v[1] + v[2] + v[3]
			if m[1] == "kind" {
				kind = val
			} else {
				apiVersion = val
			}
		case "metadata":
			if strings.TrimSpace(m[2]) != "" && !strings.HasPrefix(strings.TrimSpace(m[2]), "#") {
				return object{}, false
			}
			metaStart = offset
		case "items", "spec", "template":
			// read below
		}
		offset = next
	}
	if metaStart >= 0 && metaEnd < 0 {
		metaEnd = len(d.data)
	}
	if apiVersion == "" || kind == "" || strings.HasSuffix(kind, "List") {
		return object{}, false
	}
	gv, err := schema.ParseGroupVersion(apiVersion)
	if err != nil {
		return object{}, false
	}
	known := scheme.Scheme.Recognizes(gv.WithKind(kind))
	if known && readKinds[kind] {
		return object{}, false
	}
	if !known && (kind == "ScaledObject" || bytes.Contains(d.data, []byte("template:"))) {
		// A custom kind may own pods (spec.template) or scale them: read it in full.
		return object{}, false
	}
	m := &metaOnly{}
	if metaStart >= 0 {
		j, err := yaml.YAMLToJSON(d.data[metaStart:metaEnd])
		if err != nil {
			return object{}, false
		}
		var wrap struct {
			Metadata *metaOnly `json:"metadata"`
		}
		if err := kjson.UnmarshalCaseSensitivePreserveInts(j, &wrap); err != nil {
			return object{}, false
		}
		if wrap.Metadata != nil {
			m = wrap.Metadata
		}
	}
	src.APIVersion, src.Kind, src.Namespace, src.Name = apiVersion, kind, m.Namespace, m.Name
	return object{src: src, meta: m, other: true, custom: !known}, true
}
