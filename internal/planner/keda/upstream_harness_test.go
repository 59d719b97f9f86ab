package keda

// A harness that runs a rendered ScaledObject through KEDA's own admission: the API server's checks for a
// custom resource (object metadata, the CRD's OpenAPI schema, its x-kubernetes-validations CEL rule),
// done with k8s.io/apiextensions-apiserver on the CRD that the KEDA module ships, and then KEDA's
// validating webhook (apis/keda/v1alpha1), whose client is a fake cluster built from kubefit's inputs.
// Nothing of KEDA is copied here: the CRD and its kustomize patch are read from the module's directory
// in the module cache, and the webhook is KEDA's compiled code.

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/go-logr/logr"
	kedav1 "github.com/kedacore/keda/v2/apis/keda/v1alpha1"
	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsinstall "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/install"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	schemacel "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	structurallisttype "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/listtype"
	schemaobjectmeta "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/objectmeta"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning"
	apiservervalidation "k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/api/operation"
	k8sresource "k8s.io/apimachinery/pkg/api/resource"
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	k8sfield "k8s.io/apimachinery/pkg/util/validation/field"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	"k8s.io/apiserver/pkg/features"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/events"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	logf "sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	"sigs.k8s.io/controller-runtime/pkg/webhook"
	sigsyaml "sigs.k8s.io/yaml"
)

const kedaModule = "github.com/kedacore/keda/v2"

// upstream is KEDA's admission for ScaledObjects, loaded once.
type upstream struct {
	version    string // the KEDA module version ("v2.21.0")
	structural *structuralschema.Structural
	schema     apiservervalidation.SchemaValidator
	cel        *schemacel.Validator
	scheme     *runtime.Scheme
}

var (
	upstreamOnce sync.Once
	upstreamVal  *upstream
	upstreamErr  error
	// webhookMu serialises the webhook: KEDA keeps its client and REST mapper in package variables.
	webhookMu sync.Mutex
)

func loadUpstream(t testing.TB) *upstream {
	t.Helper()
	upstreamOnce.Do(func() {
		logf.SetLogger(logr.Discard()) // the webhook logs every rejection
		upstreamVal, upstreamErr = newUpstream()
	})
	if upstreamErr != nil {
		t.Fatalf("loading KEDA's admission: %v", upstreamErr)
	}
	return upstreamVal
}

// kedaModuleDir finds the KEDA module this test binary was built with: `go list -m` first (it honours
// replace directives and GOFLAGS), else the module cache entry for the version in the build info.
func kedaModuleDir() (dir, version string, err error) {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, d := range bi.Deps {
			if d.Path == kedaModule {
				version = d.Version
				if d.Replace != nil {
					version = d.Replace.Version
				}
			}
		}
	}
	out, lerr := exec.Command("go", "list", "-m", "-f", "{{.Dir}}\t{{.Version}}", kedaModule).Output()
	if lerr == nil {
		d, v, _ := strings.Cut(strings.TrimSpace(string(out)), "\t")
		if d != "" {
			return d, v, nil
		}
	}
	if version == "" {
		return "", "", fmt.Errorf("%s is not in the build info and `go list -m` failed: %v", kedaModule, lerr)
	}
	cache := os.Getenv("GOMODCACHE")
	if cache == "" {
		gopath := os.Getenv("GOPATH")
		if gopath == "" {
			home, _ := os.UserHomeDir()
			gopath = filepath.Join(home, "go")
		}
		cache = filepath.Join(filepath.SplitList(gopath)[0], "pkg", "mod")
	}
	return filepath.Join(cache, filepath.FromSlash(kedaModule)+"@"+version), version, nil
}

// readCRD reads the ScaledObject CRD as KEDA releases it: config/crd/bases with the JSON patches that
// config/crd/kustomization.yaml applies to it (the stabilizationWindowSeconds bounds, keda#4976).
func readCRD(dir string) (*apiextensionsv1.CustomResourceDefinition, error) {
	const crdName = "scaledobjects.keda.sh"
	crdDir := filepath.Join(dir, "config", "crd")
	raw, err := os.ReadFile(filepath.Join(crdDir, "bases", "keda.sh_scaledobjects.yaml"))
	if err != nil {
		return nil, err
	}
	js, err := sigsyaml.YAMLToJSON(raw)
	if err != nil {
		return nil, err
	}
	var doc any
	if err := json.Unmarshal(js, &doc); err != nil {
		return nil, err
	}
	kraw, err := os.ReadFile(filepath.Join(crdDir, "kustomization.yaml"))
	if err != nil {
		return nil, err
	}
	var kust struct {
		Resources []string `json:"resources"`
		Patches   []struct {
			Path   string `json:"path"`
			Target struct {
				Kind string `json:"kind"`
				Name string `json:"name"`
			} `json:"target"`
		} `json:"patches"`
	}
	if err := sigsyaml.Unmarshal(kraw, &kust); err != nil {
		return nil, err
	}
	if !contains(kust.Resources, "bases/keda.sh_scaledobjects.yaml") {
		return nil, fmt.Errorf("config/crd/kustomization.yaml no longer lists bases/keda.sh_scaledobjects.yaml")
	}
	for _, p := range kust.Patches {
		if p.Target.Kind != "CustomResourceDefinition" || p.Target.Name != crdName {
			continue
		}
		praw, err := os.ReadFile(filepath.Join(crdDir, filepath.FromSlash(p.Path)))
		if err != nil {
			return nil, err
		}
		var ops []struct {
			Op    string `json:"op"`
			Path  string `json:"path"`
			Value any    `json:"value"`
		}
		if err := sigsyaml.Unmarshal(praw, &ops); err != nil {
			return nil, fmt.Errorf("%s: %w", p.Path, err)
		}
		for _, op := range ops {
			if doc, err = jsonPatch(doc, op.Op, op.Path, op.Value); err != nil {
				return nil, fmt.Errorf("%s: %s %s: %w", p.Path, op.Op, op.Path, err)
			}
		}
	}
	js, err = json.Marshal(doc)
	if err != nil {
		return nil, err
	}
	crd := &apiextensionsv1.CustomResourceDefinition{}
	if err := json.Unmarshal(js, crd); err != nil {
		return nil, err
	}
	if crd.Name != crdName {
		return nil, fmt.Errorf("the CRD file holds %q", crd.Name)
	}
	return crd, nil
}

// jsonPatch applies one RFC 6902 add, replace or remove operation (all KEDA's kustomize patches use).
func jsonPatch(doc any, op, path string, value any) (any, error) {
	if path == "" || path[0] != '/' {
		return nil, fmt.Errorf("path must start with /")
	}
	tokens := strings.Split(path[1:], "/")
	for i, tok := range tokens {
		tokens[i] = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
	}
	var apply func(node any, toks []string) (any, error)
	apply = func(node any, toks []string) (any, error) {
		last := len(toks) == 1
		switch n := node.(type) {
		case map[string]any:
			if last {
				switch op {
				case "add", "replace":
					if _, ok := n[toks[0]]; !ok && op == "replace" {
						return nil, fmt.Errorf("no member %q", toks[0])
					}
					n[toks[0]] = value
				case "remove":
					if _, ok := n[toks[0]]; !ok {
						return nil, fmt.Errorf("no member %q", toks[0])
					}
					delete(n, toks[0])
				default:
					return nil, fmt.Errorf("unsupported op %q", op)
				}
				return n, nil
			}
			child, ok := n[toks[0]]
			if !ok {
				return nil, fmt.Errorf("no member %q", toks[0])
			}
			c, err := apply(child, toks[1:])
			if err != nil {
				return nil, err
			}
			n[toks[0]] = c
			return n, nil
		case []any:
			if last && toks[0] == "-" && op == "add" {
				return append(n, value), nil
			}
			i, err := strconv.Atoi(toks[0])
			if err != nil || i < 0 || i > len(n) || (i == len(n) && !(last && op == "add")) {
				return nil, fmt.Errorf("bad index %q", toks[0])
			}
			if last {
				switch op {
				case "add":
					return append(n[:i], append([]any{value}, n[i:]...)...), nil
				case "replace":
					n[i] = value
					return n, nil
				case "remove":
					return append(n[:i], n[i+1:]...), nil
				}
				return nil, fmt.Errorf("unsupported op %q", op)
			}
			c, err := apply(n[i], toks[1:])
			if err != nil {
				return nil, err
			}
			n[i] = c
			return n, nil
		}
		return nil, fmt.Errorf("%q is not in an object or array", toks[0])
	}
	return apply(doc, tokens)
}

func newUpstream() (*upstream, error) {
	dir, version, err := kedaModuleDir()
	if err != nil {
		return nil, err
	}
	crd, err := readCRD(dir)
	if err != nil {
		return nil, fmt.Errorf("reading the ScaledObject CRD of %s %s in %s: %w", kedaModule, version, dir, err)
	}
	// Convert to the internal API as the apiextensions API server does.
	crdScheme := runtime.NewScheme()
	apiextensionsinstall.Install(crdScheme)
	internal := &apiextensions.CustomResourceDefinition{}
	if err := crdScheme.Convert(crd, internal, nil); err != nil {
		return nil, err
	}
	var props *apiextensions.JSONSchemaProps
	for _, v := range internal.Spec.Versions {
		if v.Name == "v1alpha1" {
			// The internal API keeps a schema that all versions share at the top level.
			switch {
			case v.Schema != nil:
				props = v.Schema.OpenAPIV3Schema
			case internal.Spec.Validation != nil:
				props = internal.Spec.Validation.OpenAPIV3Schema
			}
		}
	}
	if props == nil {
		return nil, fmt.Errorf("the CRD has no v1alpha1 schema")
	}
	ss, err := structuralschema.NewStructural(props)
	if err != nil {
		return nil, err
	}
	if errs := structuralschema.ValidateStructural(nil, ss); len(errs) > 0 {
		return nil, fmt.Errorf("the CRD schema is not structural: %v", errs.ToAggregate())
	}
	sv, _, err := apiservervalidation.NewSchemaValidator(props)
	if err != nil {
		return nil, err
	}
	scheme := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{kedav1.AddToScheme, appsv1.AddToScheme, corev1.AddToScheme, autoscalingv2.AddToScheme} {
		if err := add(scheme); err != nil {
			return nil, err
		}
	}
	return &upstream{version: version, structural: ss, schema: sv,
		cel: schemacel.NewValidator(ss, true, celconfig.PerCallLimit), scheme: scheme}, nil
}

// verdict is KEDA's answer to creating one ScaledObject: the first layer that rejected it, or "".
type verdict struct {
	// layer is "decode" (unknown fields under strict field validation, or values the typed object cannot
	// hold), "apiserver" (object metadata and the CRD's OpenAPI schema), "cel" (the CRD's
	// x-kubernetes-validations rule) or "webhook" (KEDA's validating webhook); "" when admitted.
	layer  string
	detail string
}

func (v verdict) rejected() bool { return v.layer != "" }

func (v verdict) String() string {
	if v.layer == "" {
		return "admitted"
	}
	return "rejected by the " + v.layer + ": " + v.detail
}

// cluster is what KEDA's webhook reads from the API: the scale target, LimitRanges, other ScaledObjects,
// HPAs, and the kinds the REST mapper knows.
type cluster struct {
	objects []client.Object
	mapper  *meta.DefaultRESTMapper
}

func newCluster() *cluster {
	m := meta.NewDefaultRESTMapper(nil)
	m.Add(appsv1.SchemeGroupVersion.WithKind("Deployment"), meta.RESTScopeNamespace)
	m.Add(appsv1.SchemeGroupVersion.WithKind("StatefulSet"), meta.RESTScopeNamespace)
	return &cluster{mapper: m}
}

// addKind makes a scale target's kind known to the REST mapper (a kind that is installed).
func (c *cluster) addKind(apiVersion, kind string) {
	if kind == "" {
		return
	}
	if apiVersion == "" {
		apiVersion = "apps/v1"
	}
	gv, err := schema.ParseGroupVersion(apiVersion)
	if err != nil || gv.Version == "" {
		return
	}
	c.mapper.Add(gv.WithKind(kind), meta.RESTScopeNamespace)
}

func quantityList(m map[string]string) corev1.ResourceList {
	if len(m) == 0 {
		return nil
	}
	out := corev1.ResourceList{}
	for k, v := range m {
		if q, err := k8sresource.ParseQuantity(v); err == nil {
			out[corev1.ResourceName(k)] = q
		}
	}
	return out
}

// clusterFor is the cluster kubefit's inputs describe for so: its target exists, as a Deployment or
// StatefulSet with the planned pod template (without a planned template, one container that requests cpu
// and memory: kubefit then checks no requests, so the comparison assumes the case KEDA admits), the
// namespace's LimitRange defaults, and the given ScaledObjects and HPAs.
func clusterFor(t testing.TB, so ScaledObject, others []ScaledObject, hpas []ExistingHPA) *cluster {
	t.Helper()
	c := newCluster()
	ref := so.ScaleTargetRef
	c.addKind(str(ref.APIVersion), str(ref.Kind))
	av, kind := so.normalisedTarget()
	if ref.Name != "" && av == "apps/v1" && (kind == "Deployment" || kind == "StatefulSet") {
		spec := corev1.PodSpec{Containers: []corev1.Container{{Name: "app", Resources: corev1.ResourceRequirements{
			Requests: corev1.ResourceList{corev1.ResourceCPU: k8sresource.MustParse("1"), corev1.ResourceMemory: k8sresource.MustParse("1Gi")}}}}}
		if w := so.TargetWorkload; w != nil {
			spec = corev1.PodSpec{}
			conv := func(cs []Container) []corev1.Container {
				var out []corev1.Container
				for _, ct := range cs {
					out = append(out, corev1.Container{Name: ct.Name,
						Resources: corev1.ResourceRequirements{Requests: quantityList(ct.Requests), Limits: quantityList(ct.Limits)}})
				}
				return out
			}
			spec.Containers, spec.InitContainers = conv(w.PodTemplate.Containers), conv(w.PodTemplate.InitContainers)
			if r := w.PodTemplate.PodResources; r != nil {
				spec.Resources = &corev1.ResourceRequirements{Requests: quantityList(r.Requests), Limits: quantityList(r.Limits)}
			}
		}
		om := metav1.ObjectMeta{Name: ref.Name, Namespace: so.Namespace}
		tmpl := corev1.PodTemplateSpec{Spec: spec}
		if kind == "Deployment" {
			c.objects = append(c.objects, &appsv1.Deployment{ObjectMeta: om, Spec: appsv1.DeploymentSpec{Template: tmpl}})
		} else {
			c.objects = append(c.objects, &appsv1.StatefulSet{ObjectMeta: om, Spec: appsv1.StatefulSetSpec{Template: tmpl}})
		}
	}
	if d := quantityList(so.NamespaceLimitRangeDefaults); len(d) > 0 {
		c.objects = append(c.objects, &corev1.LimitRange{ObjectMeta: metav1.ObjectMeta{Name: "defaults", Namespace: so.Namespace},
			Spec: corev1.LimitRangeSpec{Limits: []corev1.LimitRangeItem{{Type: corev1.LimitTypeContainer, DefaultRequest: d}}}})
	}
	for _, o := range others {
		typed, err := typedScaledObject(o)
		if err != nil {
			t.Fatalf("ScaledObject %s: %v", o.Name, err)
		}
		c.objects = append(c.objects, typed)
		c.addKind(str(o.ScaleTargetRef.APIVersion), str(o.ScaleTargetRef.Kind))
	}
	for _, h := range hpas {
		hpa := &autoscalingv2.HorizontalPodAutoscaler{ObjectMeta: metav1.ObjectMeta{Name: h.Name, Namespace: h.Namespace},
			Spec: autoscalingv2.HorizontalPodAutoscalerSpec{MaxReplicas: 10, ScaleTargetRef: autoscalingv2.CrossVersionObjectReference{
				APIVersion: h.TargetAPIVersion, Kind: h.TargetKind, Name: h.TargetName}}}
		if h.OwnerScaledObject != "" {
			hpa.OwnerReferences = []metav1.OwnerReference{{APIVersion: APIVersion, Kind: Kind, Name: h.OwnerScaledObject, UID: "uid"}}
		}
		if h.OwnershipValidation != nil && !*h.OwnershipValidation {
			hpa.Annotations = map[string]string{kedav1.ValidationsHpaOwnershipAnnotation: "false"}
		}
		c.objects = append(c.objects, hpa)
		c.addKind(h.TargetAPIVersion, h.TargetKind)
	}
	return c
}

// typedScaledObject is kubefit's rendering decoded into KEDA's Go type.
func typedScaledObject(so ScaledObject) (*kedav1.ScaledObject, error) {
	raw, err := json.Marshal(Render(so))
	if err != nil {
		return nil, err
	}
	out := &kedav1.ScaledObject{}
	return out, json.Unmarshal(raw, out)
}

// fakeManager is just enough of a controller-runtime manager for KEDA's SetupWebhookWithManager: it
// records the field indexes KEDA registers and serves a fake client built with them over the cluster.
type fakeManager struct {
	manager.Manager // nil: any other method panics
	scheme          *runtime.Scheme
	cluster         *cluster
	indexes         []fakeIndex
	client          client.Client
	server          webhook.Server
}

type fakeIndex struct {
	obj   client.Object
	field string
	fn    client.IndexerFunc
}

type indexRecorder struct{ m *fakeManager }

func (r indexRecorder) IndexField(_ context.Context, obj client.Object, field string, fn client.IndexerFunc) error {
	r.m.indexes = append(r.m.indexes, fakeIndex{obj, field, fn})
	return nil
}

func (m *fakeManager) GetFieldIndexer() client.FieldIndexer { return indexRecorder{m} }
func (m *fakeManager) GetRESTMapper() meta.RESTMapper       { return m.cluster.mapper }
func (m *fakeManager) GetScheme() *runtime.Scheme           { return m.scheme }
func (m *fakeManager) GetConfig() *rest.Config              { return &rest.Config{} }
func (m *fakeManager) GetWebhookServer() webhook.Server     { return m.server }
func (m *fakeManager) GetEventRecorder(string) events.EventRecorder {
	return nil // KEDA skips its events when there is no recorder
}

func (m *fakeManager) GetClient() client.Client {
	if m.client == nil {
		b := fake.NewClientBuilder().WithScheme(m.scheme).WithRESTMapper(m.cluster.mapper).WithObjects(m.cluster.objects...)
		for _, ix := range m.indexes {
			b = b.WithIndex(ix.obj, ix.field, ix.fn)
		}
		m.client = b.Build()
	}
	return m.client
}

// admit runs the manifest (JSON) through KEDA's admission in the API server's order: decoding with
// strict field validation, CRD defaulting, metadata and schema validation, the CEL rule, then KEDA's
// validating webhook for a create (not a dry run) against c.
func (u *upstream) admit(manifest []byte, c *cluster) verdict {
	var obj map[string]any
	if err := utiljson.Unmarshal(manifest, &obj); err != nil {
		return verdict{"decode", err.Error()}
	}
	if unknown := pruning.PruneWithOptions(obj, u.structural, true, structuralschema.UnknownFieldPathOptions{TrackUnknownFieldPaths: true}); len(unknown) > 0 {
		return verdict{"decode", "unknown fields " + strings.Join(unknown, ", ")}
	}
	structuraldefaulting.Default(obj, u.structural)

	ctx := context.Background()
	var errs k8sfield.ErrorList
	if obj["apiVersion"] != APIVersion || obj["kind"] != Kind {
		errs = append(errs, k8sfield.Invalid(k8sfield.NewPath("kind"), obj["kind"], "must be "+APIVersion+" "+Kind))
	}
	om := &metav1.ObjectMeta{}
	if m, ok := obj["metadata"].(map[string]any); !ok {
		errs = append(errs, k8sfield.Required(k8sfield.NewPath("metadata"), ""))
	} else if err := runtime.DefaultUnstructuredConverter.FromUnstructured(m, om); err != nil {
		errs = append(errs, k8sfield.Invalid(k8sfield.NewPath("metadata"), m, err.Error()))
	} else {
		errs = append(errs, apimachineryvalidation.ValidateObjectMetaDeclaratively(ctx, operation.Create, om, nil, true,
			apimachineryvalidation.NameIsDNSSubdomain, k8sfield.NewPath("metadata"),
			utilfeature.DefaultFeatureGate.Enabled(features.DeclarativeValidationBeta))...)
	}
	errs = append(errs, apiservervalidation.ValidateCustomResource(nil, obj, u.schema)...)
	errs = append(errs, schemaobjectmeta.Validate(ctx, nil, obj, u.structural, false)...)
	errs = append(errs, structurallisttype.ValidateListSetsAndMaps(nil, u.structural, obj)...)
	if len(errs) > 0 {
		return verdict{"apiserver", errs.ToAggregate().Error()}
	}
	if u.cel != nil {
		if errs, _ := u.cel.Validate(ctx, nil, u.structural, obj, nil, celconfig.RuntimeCELCostBudget); len(errs) > 0 {
			return verdict{"cel", errs.ToAggregate().Error()}
		}
	}

	defaulted, err := json.Marshal(obj)
	if err != nil {
		return verdict{"decode", err.Error()}
	}
	so := &kedav1.ScaledObject{}
	if err := json.Unmarshal(defaulted, so); err != nil {
		return verdict{"decode", err.Error()}
	}
	webhookMu.Lock()
	defer webhookMu.Unlock()
	mgr := &fakeManager{scheme: u.scheme, cluster: c, server: webhook.NewServer(webhook.Options{})}
	if err := (&kedav1.ScaledObject{}).SetupWebhookWithManager(mgr, false); err != nil {
		return verdict{"harness", "setting up KEDA's webhook: " + err.Error()}
	}
	dryRun := false
	if _, err := so.ValidateCreate(&dryRun); err != nil {
		return verdict{"webhook", err.Error()}
	}
	return verdict{}
}

// admitPlanned renders so with kubefit and runs it through KEDA's admission in the cluster kubefit's
// inputs describe.
func (u *upstream) admitPlanned(t testing.TB, so ScaledObject, others []ScaledObject, hpas []ExistingHPA) verdict {
	t.Helper()
	raw, err := json.Marshal(Render(so))
	if err != nil {
		t.Fatal(err)
	}
	v := u.admit(raw, clusterFor(t, so, others, hpas))
	if v.layer == "harness" {
		t.Fatal(v.detail)
	}
	return v
}
