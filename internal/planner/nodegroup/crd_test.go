package nodegroup

// Upstream checks of the AWS consumer shapes: the Karpenter NodePool is admitted against the NodePool CRD that
// sigs.k8s.io/karpenter embeds (the definition a cluster installs), the way the API server admits a custom
// resource; the eksctl YAML is decoded strictly into eksctl's own ClusterConfig types and passed through
// eksctl's managed-node-group defaulting and validation. sigs.k8s.io/karpenter, github.com/weaveworks/eksctl
// and k8s.io/apiextensions-apiserver (with k8s.io/apiserver) are imported by this file (and eksctl's
// bootstrapper by eksctl_bootstrap_test.go) only, so they are test-only dependencies: the provider binary builds from the same modules without them. Karpenter is held
// at the newest release whose go.mod accepts this repository's Go 1.26.8 (v1.14.3 and v1.15.0 ask for
// 1.26.10 and 1.26.9); its NodePool CRD differs from v1.15.0's in descriptions, disruption fields kubefit
// does not set, and enum order.

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	eksctlapi "github.com/weaveworks/eksctl/pkg/apis/eksctl.io/v1alpha5"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apiextensions-apiserver/pkg/apihelpers"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	crdvalidation "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/listtype"
	schemaobjectmeta "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/objectmeta"
	structuralpruning "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning"
	apiservervalidation "k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/runtime"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"k8s.io/apimachinery/pkg/util/validation/field"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	karpenterapis "sigs.k8s.io/karpenter/pkg/apis"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/yaml"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/overhead"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/resource"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/sizing"
)

// nodePoolSchema is the karpenter.sh/v1 NodePool schema as the API server serves it: structural schema with
// pruned defaults, OpenAPI validator and CEL validator of the x-kubernetes-validations rules.
type nodePoolSchema struct {
	apiVersion, kind string
	structural       *structuralschema.Structural
	validator        apiservervalidation.SchemaValidator
	cel              *cel.Validator
}

var loadNodePoolSchema = sync.OnceValues(func() (*nodePoolSchema, error) {
	var crd apiextensionsv1.CustomResourceDefinition
	if err := yaml.UnmarshalStrict(karpenterapis.NodePoolCRD, &crd); err != nil {
		return nil, fmt.Errorf("decoding the NodePool CRD: %w", err)
	}
	// The CRD itself must pass the API server's CRD validation: a structural schema, defaults that validate,
	// and CEL rules that compile within the cost limits.
	var internal apiextensions.CustomResourceDefinition
	if err := apiextensionsv1.Convert_v1_CustomResourceDefinition_To_apiextensions_CustomResourceDefinition(&crd, &internal, nil); err != nil {
		return nil, err
	}
	for _, v := range internal.Spec.Versions {
		if v.Storage { // as the API server records on create (customResourceDefinitionStrategy.PrepareForCreate)
			internal.Status.StoredVersions = []string{v.Name}
		}
	}
	if errs := crdvalidation.ValidateCustomResourceDefinition(context.Background(), &internal); len(errs) > 0 {
		return nil, fmt.Errorf("the NodePool CRD is invalid: %v", errs.ToAggregate())
	}
	const version = "v1"
	i := slices.IndexFunc(crd.Spec.Versions, func(v apiextensionsv1.CustomResourceDefinitionVersion) bool { return v.Name == version })
	if crd.Spec.Group != "karpenter.sh" || crd.Spec.Names.Kind != "NodePool" || crd.Spec.Scope != apiextensionsv1.ClusterScoped ||
		i < 0 || !crd.Spec.Versions[i].Served || !crd.Spec.Versions[i].Storage {
		return nil, fmt.Errorf("the CRD does not serve and store karpenter.sh/%s NodePool (cluster-scoped): %+v", version, crd.Spec.Names)
	}
	val, err := apihelpers.GetSchemaForVersion(&crd, version)
	if err != nil || val == nil {
		return nil, fmt.Errorf("no schema for %s: %v", version, err)
	}
	// As the API server's custom resource handler builds it (apiextensions-apiserver customresource_handler.go).
	var internalVal apiextensions.CustomResourceValidation
	if err := apiextensionsv1.Convert_v1_CustomResourceValidation_To_apiextensions_CustomResourceValidation(val, &internalVal, nil); err != nil {
		return nil, err
	}
	s, err := structuralschema.NewStructural(internalVal.OpenAPIV3Schema)
	if err != nil {
		return nil, err
	}
	if errs := structuralschema.ValidateStructural(nil, s); len(errs) > 0 {
		return nil, fmt.Errorf("the NodePool schema is not structural: %v", errs.ToAggregate())
	}
	s = s.DeepCopy()
	if err := structuraldefaulting.PruneDefaults(s); err != nil {
		return nil, err
	}
	validator, _, err := apiservervalidation.NewSchemaValidator(internalVal.OpenAPIV3Schema)
	if err != nil {
		return nil, err
	}
	celValidator := cel.NewValidator(s, true, celconfig.PerCallLimit)
	if celValidator == nil {
		return nil, fmt.Errorf("the NodePool schema has no x-kubernetes-validations rules")
	}
	return &nodePoolSchema{apiVersion: crd.Spec.Group + "/" + version, kind: crd.Spec.Names.Kind, structural: s, validator: validator, cel: celValidator}, nil
})

func nodePoolSchemaFor(t *testing.T) *nodePoolSchema {
	t.Helper()
	np, err := loadNodePoolSchema()
	if err != nil {
		t.Fatal(err)
	}
	return np
}

// admit takes obj through what the API server does to a custom resource on create, or on update from old
// (a stored object) when old is not nil: decoding prunes unknown fields (reported here as errors, as
// kubectl's default strict field validation rejects them) and coerces metadata, defaults are
// applied, then the type, the metadata, the OpenAPI schema, list types and the x-kubernetes-validations
// rules are validated; on update the transition rules (oldSelf) run as well. It returns the stored object.
func (np *nodePoolSchema) admit(obj, old map[string]any) (map[string]any, field.ErrorList) {
	ctx := context.Background()
	u := runtime.DeepCopyJSON(obj)
	var errs field.ErrorList
	if u["apiVersion"] != np.apiVersion {
		errs = append(errs, field.Invalid(field.NewPath("apiVersion"), u["apiVersion"], "must be "+np.apiVersion))
	}
	if u["kind"] != np.kind {
		errs = append(errs, field.Invalid(field.NewPath("kind"), u["kind"], "must be "+np.kind))
	}
	meta, _, unknown, err := schemaobjectmeta.GetObjectMetaWithOptions(u, schemaobjectmeta.ObjectMetaOptions{ReturnUnknownFieldPaths: true})
	if err != nil {
		return nil, append(errs, field.Invalid(field.NewPath("metadata"), u["metadata"], err.Error()))
	}
	unknown = append(unknown, structuralpruning.PruneWithOptions(u, np.structural, true, structuralschema.UnknownFieldPathOptions{TrackUnknownFieldPaths: true})...)
	structuraldefaulting.PruneNonNullableNullsWithoutDefaults(u, np.structural)
	ferr, paths := schemaobjectmeta.CoerceWithOptions(nil, u, np.structural, false, schemaobjectmeta.CoerceOptions{ReturnUnknownFieldPaths: true})
	if ferr != nil {
		errs = append(errs, ferr)
	}
	for _, p := range append(unknown, paths...) {
		errs = append(errs, field.Invalid(field.NewPath(p), nil, "unknown field (pruned by the API server; rejected under strict field validation)"))
	}
	if meta != nil {
		if err := schemaobjectmeta.SetObjectMeta(u, meta); err != nil {
			errs = append(errs, field.Invalid(field.NewPath("metadata"), nil, err.Error()))
		}
		errs = append(errs, apimachineryvalidation.ValidateObjectMeta(meta, false, apimachineryvalidation.NameIsDNSSubdomain, field.NewPath("metadata"))...)
	}
	structuraldefaulting.Default(u, np.structural)

	var oldObj any
	if old != nil {
		oldObj = old
		errs = append(errs, apiservervalidation.ValidateCustomResourceUpdate(nil, u, old, np.validator)...)
	} else {
		errs = append(errs, apiservervalidation.ValidateCustomResource(nil, u, np.validator)...)
	}
	errs = append(errs, schemaobjectmeta.Validate(ctx, nil, u, np.structural, false)...)
	errs = append(errs, listtype.ValidateListSetsAndMaps(nil, np.structural, u)...)
	celErrs, remaining := np.cel.Validate(ctx, nil, np.structural, u, oldObj, celconfig.RuntimeCELCostBudget)
	if remaining < 0 {
		errs = append(errs, field.Invalid(field.NewPath(""), nil, "CEL cost budget exceeded"))
	}
	return u, append(errs, celErrs...)
}

// awsCase is a representative AWS group: what it renders must pass Karpenter's and eksctl's own checks.
type awsCase struct {
	name string
	req  Request
	// arch and amiFamily are the NodePool's kubernetes.io/arch value and the eksctl amiFamily expected.
	arch, amiFamily string
}

func awsCases() []awsCase {
	web := func(n int, cpu int64, tol ...fit.Toleration) []sizing.Workload {
		return []sizing.Workload{{Name: "web", MinReplicas: intp(2), MaxReplicas: intp(n), Requests: fit.Resources{CPUMillicores: cpu, MemoryBytes: 1 << 30}, Tolerations: tol}}
	}
	ds := phpGroup(nil).DaemonSets
	spot := phpGroup(intp(40))
	spot.Pool.Taints = []fit.Taint{{Key: "dedicated", Value: "php", Effect: fit.EffectNoSchedule}}
	spot.Pool.Labels = map[string]string{"team": "web"}
	spot.CapacityType = Spot
	spot.Workloads[0].Tolerations = []fit.Toleration{{Key: "dedicated", Operator: fit.OperatorEqual, Value: "php", Effect: fit.EffectNoSchedule}}
	return []awsCase{
		// The field report's group: one x86 type, two zones, sizes and limits computed (no max_size given).
		{name: "al2023_x86_computed_max", req: phpGroup(nil), arch: "amd64", amiFamily: "AmazonLinux2023"},
		// Spot, a taint and a label, max_size given.
		{name: "al2023_x86_spot_taint_label_max", req: spot, arch: "amd64", amiFamily: "AmazonLinux2023"},
		// Its own max pods, reservations and eviction thresholds: the managed AL2023 entry carries them in
		// overrideBootstrapCommand (eksctl_bootstrap_test.go checks what eksctl's nodes then run).
		{name: "al2023_x86_kubelet_settings", req: reservedGroup(), arch: "amd64", amiFamily: "AmazonLinux2023"},
		// arm64 (Graviton) on spot, zones out of order, a prefixed label, taints of every effect (one without
		// a value), min and max given, a named EC2NodeClass.
		{name: "al2023_arm64_spot_taints_zones", arch: "arm64", amiFamily: "AmazonLinux2023", req: Request{
			Pool: sizing.Pool{Name: "batch-arm", Cloud: catalog.AWS, InstanceTypes: []string{"m6g.large"},
				Zones:  []string{"us-west-2c", "us-west-2a", "us-west-2b"},
				Labels: map[string]string{"example.com/tier": "batch", "workload": "queue-worker"},
				Taints: []fit.Taint{{Key: "arch", Value: "arm64", Effect: fit.EffectNoSchedule}, {Key: "example.com/spot", Effect: fit.EffectPreferNoSchedule},
					{Key: "drain", Value: "soon", Effect: fit.EffectNoExecute}}},
			DaemonSets: ds, Workloads: web(12, 500, fit.Toleration{Operator: fit.OperatorExists}),
			MinSize: intp(1), MaxSize: intp(10), CapacityType: Spot, NodeClassName: "graviton", DiskSizeGiB: 40, DiskType: "gp3"}},
		// A mixed group of three x86 types on Bottlerocket, no zones, no labels or taints, headroom on the
		// computed maximum.
		{name: "bottlerocket_mixed_no_zones", arch: "amd64", amiFamily: "Bottlerocket", req: Request{
			Pool: sizing.Pool{Name: "mixed", Cloud: catalog.AWS, InstanceTypes: []string{"c5.xlarge", "c5a.xlarge", "c6i.xlarge"},
				Overhead: overhead.Input{Profile: overhead.EKSBottlerocket}},
			DaemonSets: ds, Workloads: web(30, 1500), HeadroomPercent: 25}},
		// AL2 with a fixed replica count and one zone.
		{name: "al2_x86_fixed_one_zone", arch: "amd64", amiFamily: "AmazonLinux2", req: Request{
			Pool: sizing.Pool{Name: "al2", Cloud: catalog.AWS, InstanceTypes: []string{"m5.large"}, Zones: []string{"eu-west-1a"},
				Overhead: overhead.Input{Profile: overhead.EKSAL2}},
			Workloads: []sizing.Workload{{Name: "api", Replicas: intp(6), Requests: fit.Resources{CPUMillicores: 250, MemoryBytes: 512 << 20}}},
			DiskType:  "gp2"}},
		// Windows nodes.
		{name: "windows_x86", arch: "amd64", amiFamily: "WindowsServer2022CoreContainer", req: Request{
			Pool: sizing.Pool{Name: "win", Cloud: catalog.AWS, InstanceTypes: []string{"m5.xlarge"}, Zones: []string{"us-east-1a", "us-east-1b"},
				Overhead: overhead.Input{Profile: overhead.EKSWindows}},
			Workloads: []sizing.Workload{{Name: "iis", MinReplicas: intp(2), MaxReplicas: intp(8), Requests: fit.Resources{CPUMillicores: 1000, MemoryBytes: 2 << 30},
				NodeSelector: map[string]string{"kubernetes.io/os": "windows"}}},
			MaxSize: intp(8)}},
	}
}

// reservedGroup is phpGroup planned with its own max pods, kube-reserved, system-reserved and an eviction threshold.
func reservedGroup() Request {
	r := phpGroup(nil)
	cpu, mem := int64(150), int64(500<<20)
	r.Pool.Overhead.MaxPods = 58
	r.Pool.Overhead.KubeReserved = overhead.Reservation{CPUMillicores: &cpu, MemoryBytes: &mem}
	r.Pool.Overhead.SystemReserved = overhead.Reservation{MemoryBytes: &mem}
	r.Pool.Overhead.EvictionHard = map[string]overhead.Threshold{"memory.available": {Bytes: 200 << 20}}
	return r
}

func renderAWS(t *testing.T, req Request) (*Result, Rendered) {
	t.Helper()
	r, out := sizeRender(t, req)
	if !r.Fits {
		t.Fatalf("the case must fit: %+v", r.Failures)
	}
	return r, out
}

// sizeRender sizes a group with the embedded catalog and renders it, failing the test on an error.
func sizeRender(t *testing.T, req Request) (*Result, Rendered) {
	t.Helper()
	r, err := Size(context.Background(), sizing.NewPlanner(sizing.EmbeddedCatalog()), req)
	if err != nil {
		t.Fatal(err)
	}
	out, err := Render(req, r)
	if err != nil {
		t.Fatal(err)
	}
	return r, out
}

// TestKarpenterNodePoolPassesCRD admits every representative group's NodePool, as the object output and as
// its YAML, against the upstream NodePool CRD, then re-applies it unchanged as an update (so the CRD's
// transition rules run), and checks what the NodePool says.
func TestKarpenterNodePoolPassesCRD(t *testing.T) {
	np := nodePoolSchemaFor(t)
	for _, c := range awsCases() {
		t.Run(c.name, func(t *testing.T) {
			r, out := renderAWS(t, c.req)
			var fromYAML map[string]any
			if err := yaml.UnmarshalStrict([]byte(out.KarpenterYAML), &fromYAML); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(jsonRoundTrip(t, out.KarpenterNodePool), jsonRoundTrip(t, fromYAML)) {
				t.Errorf("the NodePool object and its YAML differ:\n%v\n%s", out.KarpenterNodePool, out.KarpenterYAML)
			}
			stored, errs := np.admit(jsonRoundTrip(t, fromYAML), nil)
			if len(errs) > 0 {
				t.Fatalf("create rejected:\n%s\n%s", errs.ToAggregate(), out.KarpenterYAML)
			}
			if _, errs := np.admit(jsonRoundTrip(t, fromYAML), stored); len(errs) > 0 {
				t.Fatalf("re-apply (update) rejected:\n%s\n%s", errs.ToAggregate(), out.KarpenterYAML)
			}
			// The CRD's defaults were applied (so defaulting ran), and the stored object keeps every field
			// kubefit set (so nothing was pruned).
			if got := stored["spec"].(map[string]any)["disruption"]; !reflect.DeepEqual(got, map[string]any{"consolidateAfter": "0s",
				"consolidationPolicy": "WhenEmptyOrUnderutilized", "budgets": []any{map[string]any{"nodes": "10%"}}}) {
				t.Errorf("defaulted disruption = %v", got)
			}
			if err := runtimeValidate(t, stored); err != nil {
				t.Errorf("Karpenter's run-time validation rejects the NodePool: %v", err)
			}
			checkNodePool(t, c, r, stored)
		})
	}
}

// runtimeValidate decodes a NodePool and runs the validation Karpenter's controller applies beyond the CRD.
func runtimeValidate(t *testing.T, obj any) error {
	t.Helper()
	b, err := json.Marshal(obj)
	if err != nil {
		t.Fatal(err)
	}
	var typed karpv1.NodePool
	if err := json.Unmarshal(b, &typed); err != nil {
		t.Fatal(err)
	}
	return typed.RuntimeValidate(context.Background())
}

// jsonRoundTrip returns v as the JSON object it encodes to.
func jsonRoundTrip(t *testing.T, v any) map[string]any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any // decoded as the API server decodes a request: whole numbers as int64
	if err := utiljson.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// checkNodePool checks the admitted NodePool's name, node class, requirements, taints, labels and limits.
func checkNodePool(t *testing.T, c awsCase, r *Result, stored map[string]any) {
	t.Helper()
	var got struct {
		Metadata struct{ Name string }
		Spec     struct {
			Limits   map[string]string
			Template struct {
				Metadata struct{ Labels map[string]string }
				Spec     struct {
					ExpireAfter  string
					NodeClassRef karpenterNodeClassRef
					Requirements []karpenterRequirement
					Taints       []Taint
				}
			}
		}
	}
	b, _ := json.Marshal(stored)
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	class := c.req.NodeClassName
	if class == "" {
		class = "default"
	}
	capType := "on-demand"
	if c.req.CapacityType == Spot {
		capType = "spot"
	}
	want := map[string][]string{"node.kubernetes.io/instance-type": memberNames(r), "karpenter.sh/capacity-type": {capType}, "kubernetes.io/arch": {c.arch}}
	if len(c.req.Pool.Zones) > 0 {
		want["topology.kubernetes.io/zone"] = slices.Sorted(slices.Values(c.req.Pool.Zones))
	}
	if c.req.Pool.Overhead.Profile == overhead.EKSWindows {
		want["kubernetes.io/os"] = []string{"windows"} // Karpenter takes the OS from the EC2NodeClass (getOS)
	}
	reqs := map[string][]string{}
	for _, q := range got.Spec.Template.Spec.Requirements {
		if q.Operator != "In" {
			t.Errorf("requirement %+v: want operator In", q)
		}
		reqs[q.Key] = q.Values
	}
	s := got.Spec.Template.Spec
	if got.Metadata.Name != c.req.Pool.Name || s.NodeClassRef != (karpenterNodeClassRef{Group: "karpenter.k8s.aws", Kind: "EC2NodeClass", Name: class}) ||
		!reflect.DeepEqual(reqs, want) || s.ExpireAfter != "720h" {
		t.Errorf("name %q, node class %+v, requirements %v (want %v), expireAfter %q", got.Metadata.Name, s.NodeClassRef, reqs, want, s.ExpireAfter)
	}
	if len(s.Taints) != len(c.req.Pool.Taints) {
		t.Errorf("taints %v, want %v", s.Taints, c.req.Pool.Taints)
	}
	for i, tt := range c.req.Pool.Taints {
		if i < len(s.Taints) && s.Taints[i] != (Taint{Key: tt.Key, Value: tt.Value, Effect: string(tt.Effect)}) {
			t.Errorf("taint %d = %+v, want %+v", i, s.Taints[i], tt)
		}
	}
	if !(len(c.req.Pool.Labels) == 0 && len(got.Spec.Template.Metadata.Labels) == 0) && !reflect.DeepEqual(got.Spec.Template.Metadata.Labels, c.req.Pool.Labels) {
		t.Errorf("labels %v, want %v", got.Spec.Template.Metadata.Labels, c.req.Pool.Labels)
	}
	cp := r.Pool.Overhead.Capacity
	n := int64(max(r.MaxSize, r.Karpenter.LimitNodes))
	if !reflect.DeepEqual(got.Spec.Limits, map[string]string{"cpu": resource.QuantityCPU(cp.CPUMillicores * n), "memory": resource.QuantityBytes(cp.MemoryBytes * n)}) {
		t.Errorf("limits %v for %d nodes of %dm", got.Spec.Limits, n, cp.CPUMillicores)
	}
}

// TestKarpenterNodePoolCRDRejects proves the admission above can fail: broken variants of a rendered
// NodePool are rejected, each by the check that owns the rule (OpenAPI enum and pattern, CEL rule, CEL
// transition rule, pruning, metadata).
func TestKarpenterNodePoolCRDRejects(t *testing.T) {
	np := nodePoolSchemaFor(t)
	_, out := renderAWS(t, awsCases()[1].req) // has a taint and a label
	valid := jsonRoundTrip(t, out.KarpenterNodePool)
	stored, errs := np.admit(valid, nil)
	if len(errs) > 0 {
		t.Fatalf("the valid NodePool is rejected: %v", errs.ToAggregate())
	}
	tmpl := func(o map[string]any) map[string]any {
		return o["spec"].(map[string]any)["template"].(map[string]any)
	}
	tspec := func(o map[string]any) map[string]any { return tmpl(o)["spec"].(map[string]any) }
	req0 := func(o map[string]any) map[string]any { return tspec(o)["requirements"].([]any)[0].(map[string]any) }
	for _, c := range []struct {
		name   string
		update bool // validated as an update of the stored valid object
		breaks func(o map[string]any)
		path   string // the field the error names
		detail string // a part of its message
	}{
		{name: "taint effect", breaks: func(o map[string]any) { tspec(o)["taints"].([]any)[0].(map[string]any)["effect"] = "NO_SCHEDULE" },
			path: "spec.template.spec.taints[0].effect", detail: `supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"`},
		{name: "requirement operator", breaks: func(o map[string]any) { req0(o)["operator"] = "Equals" },
			path: "spec.template.spec.requirements[0].operator", detail: "supported values"},
		{name: "In without values (CEL)", breaks: func(o map[string]any) { req0(o)["values"] = []any{} },
			path: "spec.template.spec.requirements", detail: "requirements with operator 'In' must have a value defined"},
		{name: "restricted label domain (CEL)", breaks: func(o map[string]any) {
			tmpl(o)["metadata"].(map[string]any)["labels"].(map[string]any)["karpenter.sh/team"] = "web"
		}, path: "spec.template.metadata.labels", detail: `label domain "karpenter.sh" is restricted`},
		{name: "restricted requirement key (CEL)", breaks: func(o map[string]any) { req0(o)["key"] = "kubernetes.io/hostname" },
			path: "spec.template.spec.requirements[0].key", detail: `label "kubernetes.io/hostname" is restricted`},
		{name: "limit quantity pattern", breaks: func(o map[string]any) { o["spec"].(map[string]any)["limits"].(map[string]any)["cpu"] = "lots" },
			path: "spec.limits.cpu", detail: "should match"},
		{name: "empty node class name (CEL)", breaks: func(o map[string]any) { tspec(o)["nodeClassRef"].(map[string]any)["name"] = "" },
			path: "spec.template.spec.nodeClassRef.name", detail: "name may not be empty"},
		{name: "missing requirements", breaks: func(o map[string]any) { delete(tspec(o), "requirements") },
			path: "spec.template.spec.requirements", detail: "Required value"},
		{name: "unknown field (pruned)", breaks: func(o map[string]any) { tspec(o)["kubelet"] = map[string]any{"maxPods": int64(110)} },
			path: "spec.template.spec.kubelet", detail: "unknown field"},
		{name: "metadata name", breaks: func(o map[string]any) { o["metadata"].(map[string]any)["name"] = "Spot_Pool" },
			path: "metadata.name", detail: "RFC 1123"},
		{name: "node class group changed (CEL transition rule)", update: true,
			breaks: func(o map[string]any) { tspec(o)["nodeClassRef"].(map[string]any)["group"] = "karpenter.azure.com" },
			path:   "spec.template.spec.nodeClassRef", detail: "nodeClassRef.group is immutable"},
	} {
		t.Run(c.name, func(t *testing.T) {
			broken := runtime.DeepCopyJSON(valid)
			c.breaks(broken)
			var old map[string]any
			if c.update {
				old = stored
			}
			_, errs := np.admit(broken, old)
			for _, e := range errs {
				if e.Field == c.path && strings.Contains(e.Error(), c.detail) {
					return
				}
			}
			t.Errorf("want an error on %s containing %q; got %v", c.path, c.detail, errs.ToAggregate())
		})
	}
}

// TestKarpenterChecksMatchCRD checks that an AWS group is refused exactly when the NodePool it would render
// is one Karpenter rejects, for node labels: by the CRD, by Karpenter's run-time validation
// (NodePool.RuntimeValidate), or, for the karpenter.k8s.aws domain, by the AWS provider's rule (its module
// needs a newer Go than this build, so those cases say what karpenter-provider-aws v1.14.3
// pkg/apis/v1/labels.go restricts). The refusal names the field. A name the CRD would reject is rewritten
// for the NodePool (KarpenterName), which the CRD then accepts.
func TestKarpenterChecksMatchCRD(t *testing.T) {
	np := nodePoolSchemaFor(t)
	base := awsCases()[0].req
	r, _ := renderAWS(t, base)
	for _, c := range []struct {
		name   string
		labels map[string]string
		path   string // the field kubefit's refusal names; "" for an accepted group
		aws    bool   // refused by the AWS provider's rule only
	}{
		{name: "php"},
		{name: "php-web_v2"}, // names EKS takes but the CRD does not are rewritten (KarpenterName), with a warning
		{name: "Web_Pool"},   // the NodePool is named web-pool
		{name: "web-"},
		{name: "php", labels: map[string]string{"karpenter.sh/capacity-type": "spot", "example.com/karpenter.sh": "x", "karpenter.shop/x": "y",
			"node.kubernetes.io/lifecycle": "normal", "karpenter.k8s.aws/instance-family": "m5",
			"karpenter.k8s.aws/instance-category": "m", "topology.k8s.aws/zone-id": "use1-az1"}},
		{name: "php", labels: map[string]string{"karpenter.sh/team": "web"}, path: `Labels["karpenter.sh/team"]`},
		{name: "php", labels: map[string]string{"karpenter.sh/nodepool": "php"}, path: `Labels["karpenter.sh/nodepool"]`},
		{name: "php", labels: map[string]string{"node.karpenter.sh/x": "y"}, path: `Labels["node.karpenter.sh/x"]`},
		{name: "php", labels: map[string]string{"karpenter.sh": "y"}, path: `Labels["karpenter.sh"]`},
		{name: "php", labels: map[string]string{"kubernetes.io/hostname": "node-1"}, path: `Labels["kubernetes.io/hostname"]`},
		{name: "php", labels: map[string]string{"karpenter.k8s.aws/team": "web"}, path: `Labels["karpenter.k8s.aws/team"]`, aws: true},
		{name: "php", labels: map[string]string{"node.karpenter.k8s.aws/x": "y"}, path: `Labels["node.karpenter.k8s.aws/x"]`, aws: true},
		{name: "php", labels: map[string]string{"karpenter.k8s.aws/ec2nodeclass": "default"}, path: `Labels["karpenter.k8s.aws/ec2nodeclass"]`, aws: true},
	} {
		req := base
		req.Pool.Name, req.Pool.Labels = c.name, c.labels
		obj, _, err := karpenter(req, r)
		if err != nil {
			t.Fatal(err)
		}
		_, crdErrs := np.admit(jsonRoundTrip(t, obj), nil)
		rtErr := runtimeValidate(t, obj)
		rejected := len(crdErrs) > 0 || rtErr != nil || c.aws
		errs := validate(req)
		if rejected != (c.path != "") || (len(errs) > 0) != (c.path != "") || len(errs) > 0 && errs[0].Path.String() != c.path {
			t.Errorf("name %q labels %v: the CRD says %v, Karpenter's run-time validation %v (AWS rule: %v); kubefit says %v (want an error on %q)",
				c.name, c.labels, crdErrs.ToAggregate(), rtErr, c.aws, errs, c.path)
		}
	}
	// Only AWS groups render a NodePool.
	aks := Request{Pool: sizing.Pool{Name: "Web_Pool", Cloud: catalog.Azure, Labels: map[string]string{"karpenter.sh/team": "web"}}}
	if errs := validate(aks); len(errs) > 0 {
		t.Errorf("an Azure group is held to the NodePool's rules: %v", errs)
	}
}

// TestEksctlLabelsMatchEksctl checks that an AWS group is refused for a label exactly when eksctl's own
// validation rejects the managed node group that carries it (labels in the kubernetes.io and k8s.io
// domains a node may not set on itself), and that the refusal names the label.
func TestEksctlLabelsMatchEksctl(t *testing.T) {
	base := awsCases()[0].req
	r, _ := renderAWS(t, base)
	for _, c := range []struct {
		key    string
		refuse bool
	}{
		{"team", false},
		{"example.com/team", false},
		{"node.kubernetes.io/lifecycle", false},
		{"kubelet.kubernetes.io/x", false},
		{"topology.kubernetes.io/zone", false},
		{"kubernetes.io/arch", false},
		{"example.k8s.io.example.com/x", false},
		{"kubernetes.io/team", true},
		{"node-role.kubernetes.io/worker", true},
		{"k8s.io/x", true},
		{"sub.k8s.io/x", true},
		{"node-restriction.kubernetes.io/x", true},
	} {
		req := base
		req.Pool.Labels = map[string]string{c.key: "v"}
		yml, err := eksctl(req, r)
		if err != nil {
			t.Fatal(err)
		}
		var cfg eksctlapi.ClusterConfig
		if err := yaml.UnmarshalStrict([]byte(yml), &cfg); err != nil {
			t.Fatal(err)
		}
		ng := cfg.ManagedNodeGroups[0]
		if err := eksctlapi.SetManagedNodeGroupDefaults(ng, &eksctlapi.ClusterMeta{Name: "kubefit", Region: "us-east-1", Version: eksctlapi.DefaultVersion}, false); err != nil {
			t.Fatal(err)
		}
		eksctlErr := eksctlapi.ValidateManagedNodeGroup(0, ng)
		errs := validate(req)
		want := fmt.Sprintf("Labels[%q]", c.key)
		if (eksctlErr != nil) != c.refuse || (len(errs) > 0) != c.refuse || len(errs) > 0 && errs[0].Path.String() != want {
			t.Errorf("label %s: eksctl says %v; kubefit says %v (want refused: %v)", c.key, eksctlErr, errs, c.refuse)
		}
	}
}

// TestEksctlYAMLDecodesAsClusterConfig decodes every representative group's eksctl YAML strictly into
// eksctl's ClusterConfig, checks the managedNodeGroups entry field by field, and runs eksctl's own
// managed-node-group defaulting and validation on it, as `eksctl create nodegroup` does.
func TestEksctlYAMLDecodesAsClusterConfig(t *testing.T) {
	for _, c := range awsCases() {
		t.Run(c.name, func(t *testing.T) {
			r, out := renderAWS(t, c.req)
			var cfg eksctlapi.ClusterConfig
			if err := yaml.UnmarshalStrict([]byte(out.EksctlYAML), &cfg); err != nil {
				t.Fatalf("not a ClusterConfig: %v\n%s", err, out.EksctlYAML)
			}
			if len(cfg.ManagedNodeGroups) != 1 || len(cfg.NodeGroups) != 0 {
				t.Fatalf("want one managedNodeGroups entry:\n%s", out.EksctlYAML)
			}
			ng := cfg.ManagedNodeGroups[0]
			if ng.NodeGroupBase == nil || ng.ScalingConfig == nil || ng.VolumeSize == nil {
				t.Fatalf("entry without base fields, sizes or volume size:\n%s", out.EksctlYAML)
			}
			e := *out.EKS
			if lt := out.EKSLaunchTemplate; lt != nil {
				e.DiskSize = lt.VolumeSize // the managed group's disk_size is null beside its launch template
			}
			volumeType := ""
			if ng.VolumeType != nil {
				volumeType = *ng.VolumeType
			}
			if ng.Name != c.req.Pool.Name || ng.AMIFamily != c.amiFamily || !slices.Equal(ng.InstanceTypes, memberNames(r)) || ng.InstanceType != "" ||
				deref(ng.DesiredCapacity) != r.DesiredSize || deref(ng.MinSize) != r.MinSize || deref(ng.MaxSize) != r.MaxSize ||
				*ng.VolumeSize != e.DiskSize || volumeType != c.req.DiskType || int64(ng.MaxPodsPerNode) != r.MaxPods ||
				ng.Spot != (c.req.CapacityType == Spot) || !slices.Equal(ng.AvailabilityZones, c.req.Pool.Zones) {
				t.Errorf("entry %+v (scaling %+v) does not match the group:\n%s", *ng.NodeGroupBase, *ng.ScalingConfig, out.EksctlYAML)
			}
			if len(c.req.Pool.Labels)+len(ng.Labels) > 0 && !reflect.DeepEqual(ng.Labels, c.req.Pool.Labels) {
				t.Errorf("labels %v, want %v", ng.Labels, c.req.Pool.Labels)
			}
			var taints []eksctlapi.NodeGroupTaint
			for _, tt := range c.req.Pool.Taints {
				taints = append(taints, eksctlapi.NodeGroupTaint{Key: tt.Key, Value: tt.Value, Effect: corev1.TaintEffect(tt.Effect)})
			}
			if !reflect.DeepEqual(ng.Taints, taints) {
				t.Errorf("taints %+v, want %+v", ng.Taints, taints)
			}
			meta := &eksctlapi.ClusterMeta{Name: "kubefit", Region: "us-east-1", Version: eksctlapi.DefaultVersion}
			if err := eksctlapi.SetManagedNodeGroupDefaults(ng, meta, false); err != nil {
				t.Fatalf("eksctl defaulting: %v", err)
			}
			if err := eksctlapi.ValidateManagedNodeGroup(0, ng); err != nil {
				t.Errorf("eksctl rejects the entry: %v\n%s", err, out.EksctlYAML)
			}
		})
	}
}

// TestEksctlYAMLRejects proves the strict decoding and eksctl's validation can fail on this YAML.
func TestEksctlYAMLRejects(t *testing.T) {
	_, out := renderAWS(t, awsCases()[1].req)
	var cfg eksctlapi.ClusterConfig
	bad := strings.Replace(out.EksctlYAML, "maxPodsPerNode:", "kubeletExtraConfig: {}\n  maxPodsPerNode:", 1)
	if err := yaml.UnmarshalStrict([]byte(bad), &cfg); err == nil || !strings.Contains(err.Error(), "kubeletExtraConfig") {
		t.Errorf("a managedNodeGroups entry with kubeletExtraConfig decodes strictly (err %v):\n%s", err, bad)
	}
	bad = strings.Replace(out.EksctlYAML, "effect: NoSchedule", "effect: NO_SCHEDULE", 1)
	if bad == out.EksctlYAML {
		t.Fatalf("no NoSchedule taint in:\n%s", out.EksctlYAML)
	}
	cfg = eksctlapi.ClusterConfig{}
	if err := yaml.UnmarshalStrict([]byte(bad), &cfg); err != nil {
		t.Fatal(err)
	}
	ng := cfg.ManagedNodeGroups[0]
	if err := eksctlapi.SetManagedNodeGroupDefaults(ng, &eksctlapi.ClusterMeta{Name: "kubefit", Version: eksctlapi.DefaultVersion}, false); err != nil {
		t.Fatal(err)
	}
	if err := eksctlapi.ValidateManagedNodeGroup(0, ng); err == nil || !strings.Contains(err.Error(), "NO_SCHEDULE") {
		t.Errorf("eksctl accepts the AWS effect spelling in a taint (err %v)", err)
	}
}

func deref(p *int) int {
	if p == nil {
		return -1
	}
	return *p
}

// TestEksctlSelfManagedAndReservations: a self-managed group's eksctl entry is a nodeGroups entry that eksctl's own
// defaulting and validation accept (single type, mixed, spot; AL2023 with kubeletExtraConfig carrying the planned
// reservations, Bottlerocket with its settings), and its managed shapes are left out; a managed Bottlerocket group
// planned with custom reservations carries them in its managedNodeGroups entry's bottlerocket settings.
func TestEksctlSelfManagedAndReservations(t *testing.T) {
	reserved := func(r *Request) {
		cpu, mem := int64(200), int64(1<<30)
		r.Pool.Overhead.KubeReserved = overhead.Reservation{CPUMillicores: &cpu, MemoryBytes: &mem}
	}
	self := func(profile overhead.Profile, types []string, capType CapacityType, mods ...func(*Request)) Request {
		r := phpGroup(nil)
		r.Pool.InstanceTypes, r.CapacityType = types, capType
		r.Pool.Overhead.Profile, r.Pool.Overhead.EKS.Kind = profile, overhead.SelfManaged
		for _, m := range mods {
			m(&r)
		}
		return r
	}
	meta := &eksctlapi.ClusterMeta{Name: "kubefit", Region: "us-east-1", Version: eksctlapi.DefaultVersion}
	for name, req := range map[string]Request{
		"al2023 one type":              self(overhead.EKSAL2023, []string{"c5.xlarge"}, OnDemand),
		"al2023 mixed reserved":        self(overhead.EKSAL2023, []string{"c5.xlarge", "c5a.xlarge"}, OnDemand, reserved),
		"al2023 spot":                  self(overhead.EKSAL2023, []string{"c5.xlarge"}, Spot),
		"bottlerocket reserved":        self(overhead.EKSBottlerocket, []string{"c5.xlarge"}, OnDemand, reserved),
		"al2 reserved (kubeletExtras)": self(overhead.EKSAL2, []string{"c5.xlarge"}, OnDemand, reserved),
	} {
		t.Run(name, func(t *testing.T) {
			r, out := renderAWS(t, req)
			if out.EKS != nil || out.EKSModule != nil {
				t.Errorf("a self-managed group renders managed shapes: %+v %+v", out.EKS, out.EKSModule)
			}
			if hasCode(out.Warnings, WarnKubeletSettingsNeedImage) {
				t.Errorf("eksctl carries the settings of a self-managed %s group, yet it warns: %+v", req.Pool.Overhead.Profile, out.Warnings)
			}
			var cfg eksctlapi.ClusterConfig
			if err := yaml.UnmarshalStrict([]byte(out.EksctlYAML), &cfg); err != nil || len(cfg.NodeGroups) != 1 || len(cfg.ManagedNodeGroups) != 0 {
				t.Fatalf("want one nodeGroups entry (%v):\n%s", err, out.EksctlYAML)
			}
			ng := cfg.NodeGroups[0]
			if int64(ng.MaxPodsPerNode) != r.MaxPods || deref(ng.MaxSize) != r.MaxSize {
				t.Errorf("max pods %d, max size %d; want %d, %d", ng.MaxPodsPerNode, deref(ng.MaxSize), r.MaxPods, r.MaxSize)
			}
			if customKubelet(req) {
				want := "200m"
				if ng.KubeletExtraConfig != nil {
					if got := fmt.Sprint((*ng.KubeletExtraConfig)["kubeReserved"]); !strings.Contains(got, want) {
						t.Errorf("kubeletExtraConfig kubeReserved %s, want cpu %s", got, want)
					}
				} else if ng.Bottlerocket == nil || !strings.Contains(fmt.Sprint(*ng.Bottlerocket.Settings), want) {
					t.Errorf("no reservations in the entry:\n%s", out.EksctlYAML)
				}
			}
			if err := eksctlapi.SetNodeGroupDefaults(ng, meta, false); err != nil {
				t.Fatalf("eksctl defaulting: %v", err)
			}
			if err := eksctlapi.ValidateNodeGroup(0, ng, &eksctlapi.ClusterConfig{Metadata: meta}); err != nil {
				t.Errorf("eksctl rejects the entry: %v\n%s", err, out.EksctlYAML)
			}
		})
	}
	managed := phpGroup(nil)
	managed.Pool.Overhead.Profile = overhead.EKSBottlerocket
	reserved(&managed)
	_, out := renderAWS(t, managed)
	var cfg eksctlapi.ClusterConfig
	if err := yaml.UnmarshalStrict([]byte(out.EksctlYAML), &cfg); err != nil || len(cfg.ManagedNodeGroups) != 1 {
		t.Fatalf("managed Bottlerocket entry (%v):\n%s", err, out.EksctlYAML)
	}
	ng := cfg.ManagedNodeGroups[0]
	if ng.Bottlerocket == nil || !strings.Contains(fmt.Sprint(*ng.Bottlerocket.Settings), "200m") {
		t.Errorf("managed Bottlerocket entry without its reservations:\n%s", out.EksctlYAML)
	}
	if err := eksctlapi.SetManagedNodeGroupDefaults(ng, meta, false); err != nil {
		t.Fatal(err)
	}
	if err := eksctlapi.ValidateManagedNodeGroup(0, ng); err != nil {
		t.Errorf("eksctl rejects the managed Bottlerocket entry: %v\n%s", err, out.EksctlYAML)
	}
}
