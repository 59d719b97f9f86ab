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
var plainValue = regexp.MustCompile(`^(?:"([A-Za-z0-9./_-]*)"|'([A-Za-z0-9./_-]*)'|([A-Za-z0-9./_-]+))(?:[ \t]+#.*|[ \t]*)$`)

// quick reads the objects that matter only by their metadata (a Service, a Secret, a CRD and any kind
// that is neither read nor changes what is read) without converting the whole document: most of a
// chart's output is such objects, and YAML parsing is most of a read's cost. It returns false whenever
// the document is not plainly a block mapping whose kind and apiVersion are simple scalars, and the
// caller then reads the document in full; the metadata block itself is parsed as YAML. Of such a document
// only the metadata is parsed, so a syntax error elsewhere in it is not reported: it would not change the
// plan (kubectl apply reports it).
func quick(d document, src Source) (object, bool) {
	if d.json {
		return object{}, false
	}
	var apiVersion, kind string
	spec, scalarKey := false, false
	var metaStart, metaEnd = -1, -1
	lines := bytes.Split(d.data, []byte("\n"))
	offset := 0
	for _, raw := range lines {
		l := strings.TrimRight(string(raw), "\r")
		next := offset + len(raw) + 1
		if scalarKey && l != "" && (l[0] == ' ' || l[0] == '-') {
			// An indented line under apiVersion or kind continues its value (or makes it a mapping).
			return object{}, false
		}
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
		scalarKey = m[1] == "apiVersion" || m[1] == "kind"
		switch m[1] {
		case "apiVersion", "kind":
			v := plainValue.FindStringSubmatch(m[2])
			if v == nil {
				return object{}, false
			}
			val := v[1] + v[2] + v[3]
			if v[3] != "" && !plainString(v[3]) {
				// YAML reads it as a number, a boolean or null, not as a string.
				return object{}, false
			}
			if m[1] == "kind" {
				kind = val
			} else {
				apiVersion = val
			}
		case "metadata":
			if metaStart >= 0 || (strings.TrimSpace(m[2]) != "" && !strings.HasPrefix(strings.TrimSpace(m[2]), "#")) {
				// A second metadata key, or metadata in flow style: read in full.
				return object{}, false
			}
			metaStart = offset
		case "spec", "template":
			spec = true
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
	if mistyped, _ := builtinMismatch(gv.WithKind(kind)); !known && mistyped {
		// A built-in kind in a version no release serves: the full decode refuses it.
		return object{}, false
	}
	if !known && (spec || kind == "ScaledObject" || bytes.Contains(d.data, []byte("template"))) {
		// A custom kind may own pods (spec.template) or scale them: read it in full.
		return object{}, false
	}
	m := &metaOnly{}
	if metaStart >= 0 && metaEnd >= metaStart {
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

// plainString reports whether an unquoted scalar is a string to YAML: it starts with a letter and is not
// one of YAML 1.1's booleans or null.
func plainString(v string) bool {
	if c := v[0]; !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
		return false
	}
	switch strings.ToLower(v) {
	case "y", "n", "yes", "no", "on", "off", "true", "false", "null":
		return false
	}
	return true
}
