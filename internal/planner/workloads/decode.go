package workloads

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apimachinery/pkg/version"
	"k8s.io/client-go/kubernetes/scheme"
	kjson "sigs.k8s.io/json"
	"sigs.k8s.io/yaml"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
)

// codecs decode the built-in kinds into k8s.io/api types. Strict decoding reports unknown and duplicate
// fields after decoding the object in full, so they can be warnings naming them (kubectl apply, whose
// --validate is strict by default since 1.27, and Helm refuse them; the API server's fieldValidation=Warn drops them).
var codecs = serializer.NewCodecFactory(scheme.Scheme, serializer.EnableStrict)

// readKinds are the built-in kinds decoded in full (any version: an unserved version is refused later).
var readKinds = map[string]bool{"Deployment": true, "StatefulSet": true, "DaemonSet": true, "ReplicaSet": true,
	"ReplicationController": true, "Pod": true, "Job": true, "CronJob": true, "HorizontalPodAutoscaler": true,
	"PodDisruptionBudget": true, "PriorityClass": true, "RuntimeClass": true, "LimitRange": true, "PersistentVolumeClaim": true, "Node": true}

// metaOnly is the metadata of an object kubefit does not read further.
type metaOnly struct {
	Name         string            `json:"name"`
	Namespace    string            `json:"namespace"`
	Labels       map[string]string `json:"labels"`
	Annotations  map[string]string `json:"annotations"`
	GenerateName string            `json:"generateName"`
}

func (m *metaOnly) GetGenerateName() string { return m.GenerateName }

func (m *metaOnly) GetNamespace() string              { return m.Namespace }
func (m *metaOnly) GetName() string                   { return m.Name }
func (m *metaOnly) GetLabels() map[string]string      { return m.Labels }
func (m *metaOnly) GetAnnotations() map[string]string { return m.Annotations }

// object is one decoded document.
type object struct {
	// other marks a built-in kind that is neither read nor changes what is read (a Service, a Secret).
	other bool
	// custom marks an "other" object of a kind outside the built-in scheme.
	custom bool
	src    Source
	// typed is the k8s.io/api object of a built-in kind; nil for other kinds, which u holds.
	typed runtime.Object
	u     *unstructured.Unstructured
	meta  metaObject
	// written maps the canonical form of each storage request in the object to its text as written ("1536Mi" to
	// "1.5Gi"), which decoding into a resource.Quantity loses (storageWritten).
	written map[string]string
}

// metaObject is what every object has.
type metaObject interface {
	GetNamespace() string
	GetName() string
	GetLabels() map[string]string
	GetAnnotations() map[string]string
	GetGenerateName() string
}

// document is one raw document of the input.
type document struct {
	data []byte
	line int  // 1-based line of the document's first line; 0 for JSON input
	json bool // data is JSON already
}

// inputPath is the path of the input an object was read from: Manifests, or Cluster for a snapshot.
func inputPath(src Source) field.Path { return originPath(src.Origin) }

func originPath(origin string) field.Path {
	if origin == OriginCluster {
		return field.NewPath("Cluster")
	}
	return field.NewPath("Manifests")
}

// inputName names an input in messages.
func inputName(origin string) string {
	if origin == OriginCluster {
		return "the cluster snapshot"
	}
	return "the manifests"
}

// split cuts the input into documents: "---"-separated YAML, or JSON values one after the other when
// the input starts with "{" or "[" and has no "---" line. Documents holding only comments and blank lines are dropped.
func split(in, origin string) ([]document, error) {
	if len(in) > MaxBytes {
		return nil, field.Invalid(originPath(origin), "", "%s are %s bytes, more than the %s bytes kubefit reads at once; split them over several reads",
			inputName(origin), groupDigits(int64(len(in))), groupDigits(MaxBytes))
	}
	trimmed := strings.TrimLeft(in, " \t\r\n\ufeff")
	if (strings.HasPrefix(trimmed, "{") || strings.HasPrefix(trimmed, "[")) && !hasMarker(in) {
		return splitJSON(trimmed, origin, int64(len(in)-len(trimmed)))
	}
	var docs []document
	start, startLine, line := 0, 1, 1
	flush := func(end int) error {
		if d := in[start:end]; hasContent(d) {
			if len(docs) == MaxDocuments {
				return tooMany(origin)
			}
			docs = append(docs, document{data: []byte(d), line: startLine})
		}
		return nil
	}
	for i := 0; i < len(in); {
		j := strings.IndexByte(in[i:], '\n')
		next := len(in)
		if j >= 0 {
			next = i + j + 1
		}
		l := strings.TrimRight(in[i:next], "\r\n")
		if marker(l) || l == "..." {
			if err := flush(i); err != nil {
				return nil, err
			}
			start, startLine = next, line+1
			if rest := strings.TrimSpace(strings.TrimPrefix(l, "---")); rest != "" && !strings.HasPrefix(rest, "#") && l != "..." {
				// "--- {kind: ...}": the document starts on the marker's line.
				start, startLine = i+3, line
			}
		}
		i = next
		line++
	}
	if err := flush(len(in)); err != nil {
		return nil, err
	}
	return docs, nil
}

// marker reports whether a line is a YAML document marker ("---", alone or before a comment or a document).
func marker(l string) bool {
	return l == "---" || strings.HasPrefix(l, "--- ") || strings.HasPrefix(l, "---\t")
}

// hasMarker reports whether the input has a YAML document marker line: JSON values joined with "\n---\n"
// (jsonencode objects joined as the docs join yamlencode ones) are a YAML stream, since JSON is YAML, and kubectl
// apply reads them so. No JSON text has such a line (a JSON string holds no raw line break).
func hasMarker(in string) bool {
	for _, l := range strings.Split(in, "\n") {
		if marker(strings.TrimRight(l, "\r")) {
			return true
		}
	}
	return false
}

func tooMany(origin string) error {
	return field.Invalid(originPath(origin), "", "%s hold more than %s documents, the most kubefit reads at once; split them over several reads",
		inputName(origin), groupDigits(MaxDocuments))
}

// hasContent reports whether a YAML document has anything but blank lines and comments.
func hasContent(d string) bool {
	for _, l := range strings.Split(d, "\n") {
		l = strings.TrimSpace(l)
		if l != "" && !strings.HasPrefix(l, "#") {
			return true
		}
	}
	return false
}

// splitJSON reads JSON values one after the other; a top-level array is a list of objects.
// skipped is how many bytes of the input precede in (blanks and a byte order mark), for error offsets.
func splitJSON(in, origin string, skipped int64) ([]document, error) {
	dec := json.NewDecoder(strings.NewReader(in))
	var docs []document
	for i := 0; ; i++ {
		var raw json.RawMessage
		err := dec.Decode(&raw)
		if errors.Is(err, io.EOF) {
			return docs, nil
		}
		if err != nil {
			// The decoder's InputOffset after a failed Decode is where the value started; a syntax error knows
			// where it broke (after Offset bytes of the trimmed input).
			at := dec.InputOffset()
			var se *json.SyntaxError
			if errors.As(err, &se) {
				at = se.Offset
			}
			return nil, field.Invalid(originPath(origin), "", "JSON value %d of %s is not valid JSON: %v; check the value at byte %d", i, inputName(origin), err, skipped+at)
		}
		if bytes.HasPrefix(bytes.TrimSpace(raw), []byte("[")) {
			var items []json.RawMessage
			if err := json.Unmarshal(raw, &items); err != nil {
				return nil, field.Invalid(originPath(origin), "", "JSON value %d of %s is not a list of objects: %v", i, inputName(origin), err)
			}
			for _, it := range items {
				if len(docs) == MaxDocuments {
					return nil, tooMany(origin)
				}
				docs = append(docs, document{data: it, json: true})
			}
			continue
		}
		if len(docs) == MaxDocuments {
			return nil, tooMany(origin)
		}
		docs = append(docs, document{data: raw, json: true})
	}
}

var yamlLine = regexp.MustCompile(`line (\d+)`)

// toJSON converts one document to JSON, naming its index and line when it is not YAML.
func toJSON(d document, src Source) ([]byte, error) {
	if d.json {
		return d.data, nil
	}
	j, err := yaml.YAMLToJSON(d.data)
	if err != nil {
		msg := err.Error()
		msg = strings.TrimPrefix(msg, "error converting YAML to JSON: ")
		line := d.line
		if m := yamlLine.FindStringSubmatch(msg); m != nil {
			n, _ := strconv.Atoi(m[1])
			line = d.line + n - 1
			msg = yamlLine.ReplaceAllString(msg, "line "+strconv.Itoa(line))
		}
		return nil, field.Invalid(inputPath(src), "", "%s is not valid YAML: %s; fix the YAML near line %d", docName(src), msg, line)
	}
	return j, nil
}

// decoded is one document turned into objects (a List gives several).
type decoded struct {
	objects  []object
	warnings []Warning
}

// decode turns a document's JSON into objects: built-in kinds into k8s.io/api types, other kinds into
// unstructured objects, List kinds into their items.
func decode(j []byte, src Source) (decoded, error) {
	var out decoded
	if bytes.Equal(bytes.TrimSpace(j), []byte("null")) {
		return out, nil
	}
	if t := bytes.TrimSpace(j); len(t) > 0 && t[0] == '[' && !src.InList {
		// A top-level sequence (yamlencode([obj1, obj2])) is a list of objects, as a top-level JSON array is.
		var items []json.RawMessage
		if err := json.Unmarshal(t, &items); err != nil {
			return out, field.Invalid(inputPath(src), "", "%s is a list that does not decode: %v", docName(src), err)
		}
		return decodeItems(items, src)
	}
	var head struct {
		APIVersion string            `json:"apiVersion"`
		Kind       string            `json:"kind"`
		Items      []json.RawMessage `json:"items"`
		Metadata   *metaOnly         `json:"metadata"`
	}
	if err := kjson.UnmarshalCaseSensitivePreserveInts(j, &head); err != nil {
		return out, field.Invalid(inputPath(src), "", "%s is not a Kubernetes object (a mapping with apiVersion and kind)%s", docName(src), notObject(j, err))
	}
	if head.Kind == "" || head.APIVersion == "" {
		return out, field.Invalid(inputPath(src), "", "%s has no %s; every Kubernetes object names its apiVersion and kind", docName(src),
			map[bool]string{true: "kind", false: "apiVersion"}[head.Kind == ""])
	}
	src.APIVersion, src.Kind = head.APIVersion, head.Kind
	if strings.HasSuffix(head.Kind, "List") && head.Items != nil {
		return decodeItems(head.Items, src)
	}
	gv, err := schema.ParseGroupVersion(head.APIVersion)
	if err != nil {
		return out, field.Invalid(inputPath(src), head.APIVersion, "%s has apiVersion %q, which is not group/version: %v", docName(src), head.APIVersion, err)
	}
	gvk := gv.WithKind(head.Kind)
	if scheme.Scheme.Recognizes(gvk) {
		if !readKinds[head.Kind] {
			// A built-in kind that owns no pods and changes none: only its metadata is needed.
			m := head.Metadata
			if m == nil {
				m = &metaOnly{}
			}
			src.Namespace, src.Name = m.Namespace, m.Name
			out.objects = append(out.objects, object{src: src, meta: m, other: true})
			return out, nil
		}
		obj, _, err := codecs.UniversalDeserializer().Decode(j, &gvk, nil)
		if err != nil && !runtime.IsStrictDecodingError(err) {
			return out, decodeError(j, src, err)
		}
		m, ok := obj.(metaObject)
		if !ok {
			return out, field.Invalid(inputPath(src), "", "%s decodes to %T, which has no object metadata", docName(src), obj)
		}
		src.Namespace, src.Name = m.GetNamespace(), m.GetName()
		if err != nil {
			out.warnings = append(out.warnings, Warning{Code: WarnUnknownField, Source: src,
				Message: fmt.Sprintf("%s: %s; kubectl apply (strict field validation, its default since kubectl 1.27) and Helm refuse an object with unknown fields, so fix or remove them (kubefit reads the object without them)",
					objName(src), strictMessage(err))})
		}
		out.objects = append(out.objects, object{src: src, typed: obj, meta: m, written: storageWritten(j)})
		return out, nil
	}
	if mistyped, want := builtinMismatch(gvk); mistyped {
		if m := head.Metadata; m != nil && m.Name != "" {
			src.Namespace, src.Name = m.Namespace, m.Name
		}
		served := "which no Kubernetes release serves"
		if v := removedIn[head.APIVersion+" "+head.Kind]; v != "" {
			served = "which Kubernetes stopped serving in " + v
		}
		return out, field.Invalid(inputPath(src), head.APIVersion, "%s has apiVersion %s and kind %s, %s: kubectl apply refuses it (no matches for kind %q in version %q); %s",
			nameOrDoc(src), head.APIVersion, head.Kind, served, head.Kind, head.APIVersion, writeInstead(head.Kind, want))
	}
	u := &unstructured.Unstructured{}
	if err := u.UnmarshalJSON(j); err != nil {
		return out, field.Invalid(inputPath(src), "", "%s does not decode: %v", docName(src), err)
	}
	src.Namespace, src.Name = u.GetNamespace(), u.GetName()
	out.objects = append(out.objects, object{src: src, u: u, meta: u, written: storageWritten(j)})
	return out, nil
}

// storageWritten returns the storage requests of a document's JSON (the value of each "storage" key of a
// "requests" map: claims, claim templates, ephemeral volumes) as written, keyed by their resource.Quantity's
// canonical form; nil when it has none. A YAML number is as YAML reads it (1e3 is 1000). A size the document writes
// two ways (1.5Gi and 1536Mi) keeps its canonical form: the decoded object no longer says which claim wrote which.
func storageWritten(j []byte) map[string]string {
	if !bytes.Contains(j, []byte(`"storage"`)) {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(j))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return nil
	}
	var out map[string]string
	var walk func(v any, key string)
	walk = func(v any, key string) {
		switch t := v.(type) {
		case map[string]any:
			if key == "requests" {
				var text string
				switch s := t["storage"].(type) {
				case string:
					text = s
				case json.Number:
					text = s.String()
				}
				if q, err := resource.ParseQuantity(text); err == nil && text != "" {
					if out == nil {
						out = map[string]string{}
					}
					if prev, seen := out[q.String()]; seen && prev != text {
						text = q.String()
					}
					out[q.String()] = text
				}
			}
			for k, e := range t {
				walk(e, k)
			}
		case []any:
			for _, e := range t {
				walk(e, "")
			}
		}
	}
	walk(v, "")
	return out
}

// decodeItems decodes the items of a list document (a List kind's items, or a top-level sequence), each an object
// of its own.
func decodeItems(items []json.RawMessage, src Source) (decoded, error) {
	var out decoded
	for k, it := range items {
		d, err := decode(it, Source{Document: src.Document, Line: src.Line, Origin: src.Origin, Item: k, InList: true})
		if err != nil {
			return out, err
		}
		out.objects = append(out.objects, d.objects...)
		out.warnings = append(out.warnings, d.warnings...)
	}
	return out, nil
}

// notObject says what a document that is not a mapping is instead: ": it is a string", or the decoder's error
// without Go's type names.
func notObject(j []byte, err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Field == "" {
		if what, ok := map[string]string{"string": "a string", "number": "a number", "bool": "a boolean", "array": "a list"}[te.Value]; ok {
			return ": it is " + what
		}
	}
	if errors.As(err, &te) {
		return fmt.Sprintf(": its %s is %s, not what Kubernetes expects there", te.Field, te.Value)
	}
	return ": " + err.Error()
}

// builtinMismatch reports whether gvk, which the scheme does not recognise, is a typo of a built-in kind's
// apiVersion (apps/V1, app/v1, apps/v2, a DaemonSet at v1) rather than a custom resource, and the apiVersion to
// write ("" when no built-in group has the kind). A group the scheme registers (core, apps, batch, policy,
// autoscaling, networking.k8s.io, …) holds no custom kinds, and a group without a dot cannot be a custom
// resource's (apiextensions validation, ValidateCustomResourceDefinitionSpec: spec.group "should be a domain
// with at least one dot"), so either is a version the API server does not serve, which kubectl apply refuses
// ("no matches for kind ... in version ..."). A dotted group of its own is a custom kind, whatever its kind.
func builtinMismatch(gvk schema.GroupVersionKind) (bool, string) {
	builtinOnce.Do(indexBuiltins)
	if !builtinGroups[gvk.Group] && strings.Contains(gvk.Group, ".") {
		return false, ""
	}
	if want, ok := servedVersions[gvk.Kind]; ok {
		return true, want[0]
	}
	// Prefer the group written, then the core group, then the highest version (v1 over v1beta1).
	better := func(a, b schema.GroupVersion) bool {
		if (a.Group == gvk.Group) != (b.Group == gvk.Group) {
			return a.Group == gvk.Group
		}
		if (a.Group == "") != (b.Group == "") {
			return a.Group == ""
		}
		return version.CompareKubeAwareVersionStrings(a.Version, b.Version) > 0
	}
	gvs := builtinKinds[gvk.Kind]
	if len(gvs) == 0 {
		return true, ""
	}
	best := gvs[0]
	for _, gv := range gvs[1:] {
		if better(gv, best) {
			best = gv
		}
	}
	return true, best.String()
}

var (
	builtinOnce sync.Once
	// builtinGroups are the API groups client-go's scheme registers; builtinKinds the group versions that
	// serve each of their kinds.
	builtinGroups map[string]bool
	builtinKinds  map[string][]schema.GroupVersion
)

func indexBuiltins() {
	builtinGroups, builtinKinds = map[string]bool{}, map[string][]schema.GroupVersion{}
	for gvk := range scheme.Scheme.AllKnownTypes() {
		if gvk.Version == runtime.APIVersionInternal {
			continue
		}
		builtinGroups[gvk.Group] = true
		builtinKinds[gvk.Kind] = append(builtinKinds[gvk.Kind], gvk.GroupVersion())
	}
}

// writeInstead says what to write for a built-in kind in a version no release serves.
func writeInstead(kind, want string) string {
	if want == "" {
		return "no built-in API group has kind " + kind + ", so check the kind and the apiVersion"
	}
	return "write apiVersion " + want
}

// nameOrDoc names an object by kind and name when it has a name, else its document.
func nameOrDoc(src Source) string {
	if src.Name != "" {
		return objName(src)
	}
	return docName(src)
}

// strictMessage lists the strict-decoding findings in one line.
func strictMessage(err error) string {
	var se interface{ Errors() []error }
	if errors.As(err, &se) {
		parts := make([]string, 0, len(se.Errors()))
		for _, e := range se.Errors() {
			parts = append(parts, e.Error())
		}
		return strings.Join(parts, "; ")
	}
	return err.Error()
}

// decodeError explains why a document of a built-in kind does not decode: a bad quantity names its
// container and field, anything else the JSON error with the field path the decoder gives.
func decodeError(j []byte, src Source, err error) error {
	var u unstructured.Unstructured
	if uerr := u.UnmarshalJSON(j); uerr == nil {
		src.Namespace, src.Name = u.GetNamespace(), u.GetName()
		if e := findBadQuantity(u.Object, src); e != nil {
			return e
		}
	}
	return field.Invalid(inputPath(src), "", "%s does not decode as %s: %s; fix that field", objName(src), src.APIVersion+" "+src.Kind, decodeMessage(err))
}

var jsonField = regexp.MustCompile(`Go struct field \S+?\.(\S+) of type`)

// decodeMessage shortens the decoder's message to the field path and the problem.
func decodeMessage(err error) string {
	msg := err.Error()
	if m := jsonField.FindStringSubmatch(msg); m != nil {
		return "the value at " + m[1] + " has the wrong type (" + msg + ")"
	}
	return msg
}

// docName names a document for a message: "document 3 of the manifests (line 120)".
func docName(src Source) string {
	switch {
	case src.Origin == OriginCluster && src.InList:
		return fmt.Sprintf("item %d of the cluster snapshot", src.Item)
	case src.InList:
		return fmt.Sprintf("item %d of the List in document %d of the manifests", src.Item, src.Document)
	}
	if src.Line > 0 {
		return fmt.Sprintf("document %d of %s (line %d)", src.Document, inputName(src.Origin), src.Line)
	}
	return fmt.Sprintf("document %d of %s", src.Document, inputName(src.Origin))
}

// objName names an object for a message: "Deployment \"web\" in namespace \"shop\" (document 3, line 120)".
func objName(src Source) string {
	s := src.Kind + " " + field.Quote(src.Name)
	if src.Namespace != "" {
		s += " in namespace " + field.Quote(src.Namespace)
	}
	switch {
	case src.Origin == OriginCluster:
		return s + " (running in the cluster snapshot)"
	case src.InList:
		return s + fmt.Sprintf(" (item %d of the List in document %d)", src.Item, src.Document)
	case src.Line > 0:
		return s + fmt.Sprintf(" (document %d, line %d)", src.Document, src.Line)
	}
	return s + fmt.Sprintf(" (document %d)", src.Document)
}

// groupDigits renders n with thousands separators.
func groupDigits(n int64) string {
	if n < 0 {
		return "-" + groupDigits(-n)
	}
	s := strconv.FormatInt(n, 10)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
