package workloads

import (
	"fmt"
	"path"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	nodev1 "k8s.io/api/node/v1"
	policyv1 "k8s.io/api/policy/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/pod"
)

// maxErrors is the most input errors one read reports; the rest are summarised.
const maxErrors = 20

// clusterScoped lists the built-in kinds that have no namespace.
var clusterScoped = map[string]bool{"Namespace": true, "Node": true, "PersistentVolume": true, "PriorityClass": true,
	"RuntimeClass": true, "StorageClass": true, "CSIDriver": true, "CSINode": true, "VolumeAttachment": true,
	"ClusterRole": true, "ClusterRoleBinding": true, "CustomResourceDefinition": true, "APIService": true,
	"MutatingWebhookConfiguration": true, "ValidatingWebhookConfiguration": true, "ValidatingAdmissionPolicy": true,
	"ValidatingAdmissionPolicyBinding": true, "MutatingAdmissionPolicy": true, "MutatingAdmissionPolicyBinding": true,
	"IngressClass": true, "ClusterIssuer": true, "ClusterSecretStore": true, "NodePool": true, "EC2NodeClass": true,
	"ComponentStatus": true, "CertificateSigningRequest": true, "FlowSchema": true, "PriorityLevelConfiguration": true}

// servedVersions are the versions of the kinds kubefit reads that a supported Kubernetes release serves
// (the first is the one to write); the scheme decodes older ones, which the API server refuses.
var servedVersions = map[string][]string{"Deployment": {"apps/v1"}, "StatefulSet": {"apps/v1"}, "DaemonSet": {"apps/v1"},
	"ReplicaSet": {"apps/v1"}, "ReplicationController": {"v1"}, "Pod": {"v1"}, "Job": {"batch/v1"}, "CronJob": {"batch/v1"},
	"HorizontalPodAutoscaler": {"autoscaling/v2", "autoscaling/v1"}, "PodDisruptionBudget": {"policy/v1"},
	"PriorityClass": {"scheduling.k8s.io/v1"}, "RuntimeClass": {"node.k8s.io/v1"}}

// removedIn is the release that stopped serving an old version of a kind kubefit reads ("apiVersion Kind"), as the
// Deprecated API Migration Guide lists them (kubernetes/website content/en/docs/reference/using-api/
// deprecation-guide.md: v1.16 for the workload kinds' extensions/v1beta1, apps/v1beta1 and apps/v1beta2; v1.22,
// v1.25 and v1.26 as below).
var removedIn = map[string]string{
	"extensions/v1beta1 Deployment": "1.16", "apps/v1beta1 Deployment": "1.16", "apps/v1beta2 Deployment": "1.16",
	"extensions/v1beta1 DaemonSet": "1.16", "apps/v1beta2 DaemonSet": "1.16",
	"extensions/v1beta1 ReplicaSet": "1.16", "apps/v1beta2 ReplicaSet": "1.16",
	"apps/v1beta1 StatefulSet": "1.16", "apps/v1beta2 StatefulSet": "1.16",
	"scheduling.k8s.io/v1beta1 PriorityClass": "1.22",
	"batch/v1beta1 CronJob":                   "1.25", "autoscaling/v2beta1 HorizontalPodAutoscaler": "1.25",
	"policy/v1beta1 PodDisruptionBudget": "1.25", "node.k8s.io/v1beta1 RuntimeClass": "1.25",
	"autoscaling/v2beta2 HorizontalPodAutoscaler": "1.26",
}

// Read turns the manifests into workloads and DaemonSets. Its errors are field errors on Manifests,
// Include, Exclude or Overrides, in domain words naming the document, object and field at fault.
func Read(in Input) (Result, error) {
	objs, warns, err := parse(in.Manifests, OriginManifests)
	// Documents that do not decode are errors, reported with the other objects' own problems: every problem at once.
	parseErrs := field.As(err)
	if err != nil && (len(parseErrs) == 0 || objs == nil && in.Cluster == "") {
		return Result{}, err // nothing decoded and nothing else to read: the documents' errors are all there is
	}
	var cobjs []object
	if in.Cluster != "" {
		var cwarns []Warning
		cobjs, cwarns, err = parse(in.Cluster, OriginCluster)
		if ces := field.As(err); len(ces) > 0 {
			// The snapshot's errors come with the manifests' own, not instead of them.
			return Result{}, append(slices.Clip(parseErrs), ces...)
		} else if err != nil {
			return Result{}, err
		}
		warns = append(warns, cwarns...)
	}
	r := &reader{in: in, res: Result{Warnings: warns}, errs: parseErrs}
	if err := namespaceError(in.Namespace); err != nil {
		r.errs = append(r.errs, field.As(err)...)
	}
	r.ns = in.Namespace
	if r.ns == "" {
		r.ns = "default"
	}
	if err := r.index(objs); err != nil {
		return Result{}, err
	}
	r.indexCluster(cobjs)
	if len(r.errs) > 0 {
		return Result{}, r.failed()
	}
	r.readAll()
	r.readCluster()
	r.checkBudgets()
	if err := r.autoscale(); err != nil {
		// Every problem at once: the workloads' own errors too.
		r.errs = append(r.errs, field.As(err)...)
		return Result{}, r.failed()
	}
	r.warnFiltered()
	r.name()
	if err := r.override(); err != nil {
		r.errs = append(r.errs, field.As(err)...)
		return Result{}, r.failed()
	}
	if len(r.errs) > 0 {
		return Result{}, r.failed()
	}
	return r.res, nil
}

// failed returns the read's errors, the first maxErrors of them and a count of the rest.
func (r *reader) failed() error {
	if len(r.errs) <= maxErrors {
		return r.errs.Err()
	}
	more := len(r.errs) - maxErrors
	errs := append(r.errs[:maxErrors:maxErrors], field.Invalid(field.NewPath("Manifests"), "", "%d more problems in the manifests; fix the ones above and plan again to see them", more))
	return errs
}

// parse splits and decodes every document, on every core (documents are independent; the results are
// merged in input order, so the read is deterministic).
func parse(manifests, origin string) ([]object, []Warning, error) {
	docs, err := split(manifests, origin)
	if err != nil {
		return nil, nil, err
	}
	type slot struct {
		dec decoded
		err error
	}
	slots := make([]slot, len(docs))
	workers := min(runtime.GOMAXPROCS(0), max(1, len(docs)/64))
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := w; i < len(docs); i += workers {
				slots[i].dec, slots[i].err = readDocument(docs[i], Source{Document: i, Line: docs[i].line, Origin: origin})
			}
		}(w)
	}
	wg.Wait()
	var objs []object
	var warns []Warning
	var errs field.Errors
	more := 0
	for _, s := range slots {
		if s.err != nil {
			if len(errs) < maxErrors {
				errs = append(errs, field.As(s.err)...)
			} else {
				more++
			}
			continue
		}
		objs = append(objs, s.dec.objects...)
		warns = append(warns, s.dec.warnings...)
		if len(objs) > MaxDocuments {
			return nil, nil, tooMany(origin)
		}
	}
	if more > 0 {
		errs = append(errs, field.Invalid(originPath(origin), "", "%d more documents of %s have errors; fix the ones above and plan again to see them", more, inputName(origin)))
	}
	return objs, warns, errs.Err()
}

// readDocument decodes one document: by its metadata alone when that is all kubefit needs, else in full.
// A panic in a decoder (a bug, or a library's) becomes an error on the document, never a crash of the
// process that reads it.
func readDocument(d document, src Source) (dec decoded, err error) {
	defer func() {
		if r := recover(); r != nil {
			dec, err = decoded{}, field.Invalid(inputPath(src), "", "%s could not be read (%v); this is a bug in kubefit, please report it with the document", docName(src), r)
		}
	}()
	if o, ok := quick(d, src); ok {
		return decoded{objects: []object{o}}, nil
	}
	j, err := toJSON(d, src)
	if err != nil {
		return decoded{}, err
	}
	return decode(j, src)
}

// reader holds one read's state.
type reader struct {
	in   Input
	ns   string
	res  Result
	errs field.Errors

	owners      []object // pod-owning objects, in input order
	keys        map[string]object
	limitRanges map[string][]corev1.LimitRange
	runtime     map[string]*nodev1.RuntimeClass
	priority    map[string]int32
	defaultPrio *schedulingv1.PriorityClass
	defaultSrc  Source
	claims      map[string]*corev1.PersistentVolumeClaim
	// claimWritten holds each claim's storage requests as written (object.written), by namespace/name.
	claimWritten map[string]map[string]string
	budgets      map[string][]*policyv1.PodDisruptionBudget
	// budgetRefs are the manifests' PodDisruptionBudgets, budgetHit those listed on a workload (namespace/name),
	// podSets the pod labels they are checked against (checkBudgets).
	budgetRefs []budgetRef
	budgetHit  map[string]bool
	podSets    []podSet
	scalers    []scaler
	groups     []*podGroup // running pods of the cluster snapshot, by owner
	// nodePool maps a snapshot node's name to its pool's name and the label that groups it.
	nodePool     map[string][2]string
	workloadObjs []object // the object each res.Workloads element came from
	filteredOut  []filteredOut
}

// index files every object by kind, defaults namespaces, filters, and rejects duplicates.
func (r *reader) index(objs []object) error {
	r.keys = map[string]object{}
	r.limitRanges = map[string][]corev1.LimitRange{}
	r.runtime = map[string]*nodev1.RuntimeClass{}
	r.priority = map[string]int32{"system-cluster-critical": 2000000000, "system-node-critical": 2000001000}
	r.claims = map[string]*corev1.PersistentVolumeClaim{}
	r.claimWritten = map[string]map[string]string{}
	r.budgets = map[string][]*policyv1.PodDisruptionBudget{}
	r.budgetHit = map[string]bool{}
	for _, o := range objs {
		r.defaultNamespace(&o)
		if reason := r.filtered(o); reason != "" {
			r.skip(o, reason)
			r.keepFiltered(o, reason)
			if l, ok := templateLabels(o); ok { // for checkBudgets: a budget may select its pods
				r.podSets = append(r.podSets, podSet{src: o.src, labels: l, why: "left out by the filters (" + reason + ")"})
			}
			continue
		}
		r.errs = append(r.errs, metaErrors(o)...)
		r.errs = append(r.errs, selectorErrors(o)...)
		r.errs = append(r.errs, strategyErrors(o)...)
		r.errs = append(r.errs, containersErrors(o)...)
		key := groupOf(o.src.APIVersion) + "/" + o.src.Kind + "/" + o.src.Namespace + "/" + o.src.Name
		if o.src.Name == "" {
			g := o.meta.GetGenerateName()
			if g == "" {
				r.errs = append(r.errs, field.Invalid(inputPath(o.src), "", "%s (%s %s) has no metadata.name or metadata.generateName; the API server requires one, so name the object",
					docName(o.src), o.src.APIVersion, o.src.Kind))
				continue
			}
			// Every object with a generateName is a new object: it never clashes.
			o.src.Name = g
			key = fmt.Sprintf("%s#%d", key+g, len(r.keys))
		}
		if prev, dup := r.keys[key]; dup {
			r.errs = append(r.errs, field.Invalid(inputPath(o.src), o.src.Name, "%s is listed twice (also %s); the API server keeps one object per kind, namespace and name, so remove one of them",
				objName(o.src), docName(prev.src)))
			continue
		}
		r.keys[key] = o
		r.file(o)
	}
	if len(r.errs) > 0 {
		// Every problem at once: the pod specs' and the autoscalers' own refusals too, which reading the workloads
		// would find next.
		for _, o := range r.owners {
			if spec := templateSpec(o); spec != nil && o.src.Origin == OriginManifests {
				_, errs := specRefusals(o, spec)
				r.errs = append(r.errs, errs...)
			}
		}
		for i := range r.scalers {
			r.errs = append(r.errs, scalerErrors(&r.scalers[i])...)
		}
		return r.failed()
	}
	nss := make([]string, 0, len(r.limitRanges))
	for ns := range r.limitRanges {
		nss = append(nss, ns)
	}
	sort.Strings(nss)
	for _, ns := range nss {
		if c := pod.Conflicts(r.limitRanges[ns]); len(c) > 0 {
			r.res.Warnings = append(r.res.Warnings, Warning{Code: WarnLimitrangeConflict, Source: Source{Kind: "LimitRange", Namespace: ns},
				Message: fmt.Sprintf("LimitRanges of namespace %s default the same resource differently (%s); the API server applies them in an order it does not fix, so kubefit takes the larger default; keep one default per resource",
					field.Quote(ns), strings.Join(c, "; "))})
		}
	}
	return nil
}

// defaultNamespace gives a namespaced object without a namespace the input's default, and clears the
// namespace of a cluster-scoped one, as the API server does.
func (r *reader) defaultNamespace(o *object) {
	switch {
	case clusterScoped[o.src.Kind]:
		o.src.Namespace = ""
	case o.src.Namespace == "":
		o.src.Namespace = r.ns
	}
}

// file sorts one object into the reader's tables.
func (r *reader) file(o object) {
	if want, ok := servedVersions[o.src.Kind]; ok && o.typed != nil && !slices.Contains(want, o.src.APIVersion) {
		served := "which no supported Kubernetes release serves"
		if v := removedIn[o.src.APIVersion+" "+o.src.Kind]; v != "" {
			served = "which Kubernetes stopped serving in " + v
		}
		r.errs = append(r.errs, field.Invalid(inputPath(o.src), o.src.APIVersion, "%s uses apiVersion %s, %s; write apiVersion %s",
			objName(o.src), o.src.APIVersion, served, want[0]))
		return
	}
	ns := o.src.Namespace
	if o.other && o.custom {
		r.skip(o, "a kind ("+o.src.APIVersion+") without a pod template at spec.template")
		return
	}
	if o.other {
		r.skip(o, "not a pod-owning kind")
		return
	}
	switch t := o.typed.(type) {
	case *corev1.Pod:
		if reason := finished(t); reason != "" {
			r.skip(o, reason)
			return
		}
		r.owners = append(r.owners, o)
	case *appsv1.Deployment, *appsv1.StatefulSet, *appsv1.DaemonSet, *appsv1.ReplicaSet, *corev1.ReplicationController,
		*batchv1.Job, *batchv1.CronJob:
		r.owners = append(r.owners, o)
	case *corev1.LimitRange:
		r.limitRanges[ns] = append(r.limitRanges[ns], *t)
		r.skip(o, "its container defaults apply to the pods of namespace "+field.Quote(ns))
	case *nodev1.RuntimeClass:
		r.runtime[t.Name] = t
		r.skip(o, "its pod overhead is added to the pods that name it")
	case *schedulingv1.PriorityClass:
		r.priority[t.Name] = t.Value
		if t.GlobalDefault && r.defaultPrio != nil {
			// The Priority admission plugin's validatePriorityClass refuses a second default class ("PriorityClass
			// ... is already marked as default. Only one default can exist").
			r.errs = append(r.errs, field.Invalid(inputPath(o.src), t.Name, "%s has globalDefault: true, as PriorityClass %s in %s has; the API server refuses a second default class (Priority admission: only one default can exist), so keep globalDefault on one of them",
				objName(o.src), field.Quote(r.defaultPrio.Name), docName(r.defaultSrc)))
		} else if t.GlobalDefault {
			r.defaultPrio, r.defaultSrc = t, o.src
		}
		r.skip(o, fmt.Sprintf("priority value %d", t.Value))
	case *corev1.PersistentVolumeClaim:
		r.claims[ns+"/"+t.Name] = t
		r.claimWritten[ns+"/"+t.Name] = o.written
		r.skip(o, "listed on the pods that mount it")
	case *policyv1.PodDisruptionBudget:
		r.budgets[ns] = append(r.budgets[ns], t)
		r.budgetRefs = append(r.budgetRefs, budgetRef{o: o, b: t, skip: len(r.res.Skipped)})
		r.skip(o, "listed on the workloads whose pods it selects")
	case *autoscalingv2.HorizontalPodAutoscaler:
		r.scalers = append(r.scalers, hpaV2(o, t))
	case *autoscalingv1.HorizontalPodAutoscaler:
		r.scalers = append(r.scalers, hpaV1(o, t))
	case nil:
		r.fileCustom(o)
	default:
		r.skip(o, "not a pod-owning kind")
	}
}

// fileCustom files an object of a kind outside the built-in scheme: a KEDA ScaledObject, a pod-owning
// custom kind (a pod template at spec.template), or something to skip.
func (r *reader) fileCustom(o object) {
	if groupOf(o.src.APIVersion) == "keda.sh" && o.src.Kind == "ScaledObject" {
		if s, err := scaledObject(o); err != nil {
			r.errs = append(r.errs, field.As(err)...)
		} else {
			r.scalers = append(r.scalers, s)
		}
		return
	}
	if groupOf(o.src.APIVersion) == "keda.sh" && o.src.Kind == "ScaledJob" {
		r.owners = append(r.owners, o)
		return
	}
	if podTemplate(o) || isRollout(o) && hasField(o.u.Object, "spec", "workloadRef") {
		r.owners = append(r.owners, o)
		return
	}
	if hasField(o.u.Object, "spec", "template", "spec") {
		r.skip(o, "a kind ("+o.src.APIVersion+") whose spec.template is not a pod template (no spec.template.spec.containers list, as in a Karpenter NodePool or a Cluster API MachineDeployment): it creates no pods")
		return
	}
	r.skip(o, "a kind ("+o.src.APIVersion+") without a pod template at spec.template")
	// An operator's custom resource (a Prometheus, an Alertmanager, a database cluster) runs pods kubefit cannot
	// read from it: its spec's replicas or resources say so, and dropping them would plan without that load.
	var hints []string
	if n, ok, _ := unstructured.NestedInt64(o.u.Object, "spec", "replicas"); ok {
		hints = append(hints, fmt.Sprintf("%d replicas (spec.replicas)", n))
	}
	if hasField(o.u.Object, "spec", "resources") {
		hints = append(hints, "resources (spec.resources)")
	}
	if len(hints) > 0 {
		r.warn(o.src, WarnCustomPodsUncounted, "its operator runs pods for it (it asks for %s), but kubefit reads no pod template from %s %s kind, so those pods "+
			"are not counted and the plan is without their load; add them as a workload of your own to the sizing "+
			"(with the requests its operator gives them), or give the operator's rendered StatefulSet or Deployment",
			strings.Join(hints, " and "), article(o.src.APIVersion), o.src.APIVersion)
		r.operatorPods(o)
	}
}

// podTemplate reports whether a custom kind has a pod template at spec.template: a spec.template.spec with a
// containers list, which every pod spec has (core validation requires one container at least). Other templates
// (a Karpenter NodePool's node claim template, a Cluster API MachineDeployment's machine template) create no pods.
func podTemplate(o object) bool {
	v, ok, _ := unstructured.NestedFieldNoCopy(o.u.Object, "spec", "template", "spec", "containers")
	_, list := v.([]any)
	return ok && list
}

func groupOf(apiVersion string) string {
	if i := strings.IndexByte(apiVersion, '/'); i >= 0 {
		return apiVersion[:i]
	}
	return ""
}

func (r *reader) skip(o object, reason string) {
	r.res.Skipped = append(r.res.Skipped, Skipped{Source: o.src, Reason: reason})
}

func (r *reader) warn(src Source, code, format string, args ...any) {
	r.res.Warnings = append(r.res.Warnings, Warning{Code: code, Source: src, Message: objName(src) + ": " + fmt.Sprintf(format, args...)})
}

// filtered returns why an object is left out by Include or Exclude, or "".
func (r *reader) filtered(o object) string {
	if len(r.in.Include) > 0 {
		hit := false
		for _, f := range r.in.Include {
			if f.matches(o) {
				hit = true
				break
			}
		}
		if !hit {
			return "not matched by any include filter"
		}
	}
	for i, f := range r.in.Exclude {
		if f.matches(o) {
			return fmt.Sprintf("excluded by exclude filter %d", i)
		}
	}
	return ""
}

func (f Filter) matches(o object) bool {
	if len(f.Kinds) > 0 && !anyEqual(f.Kinds, o.src.Kind) {
		return false
	}
	if len(f.Namespaces) > 0 && !anyEqual(f.Namespaces, o.src.Namespace) {
		return false
	}
	if len(f.Names) > 0 {
		hit := false
		for _, p := range f.Names {
			if ok, _ := path.Match(p, o.src.Name); ok {
				hit = true
				break
			}
		}
		if !hit {
			return false
		}
	}
	labels := o.meta.GetLabels()
	for k, v := range f.Labels {
		if got, ok := labels[k]; !ok || got != v {
			return false
		}
	}
	return true
}

func anyEqual(list []string, s string) bool {
	for _, e := range list {
		if strings.EqualFold(e, s) {
			return true
		}
	}
	return false
}

// ValidateFilters checks the name patterns of filters at p.
func ValidateFilters(p field.Path, fs []Filter) field.Errors {
	var errs field.Errors
	for i, f := range fs {
		for j, n := range f.Names {
			if _, err := path.Match(n, ""); err != nil {
				errs = append(errs, field.Invalid(p.At(i).Child("Names").At(j), n, "name pattern %s is malformed (%v); use * and ? wildcards and [a-z] classes", field.Quote(n), err))
			}
		}
	}
	return errs
}

// name gives every workload and DaemonSet its output name: the object's name, or namespace/name where
// two share a name, or namespace/kind/name where those clash too.
func (r *reader) name() {
	srcs := make([]Source, len(r.res.Workloads))
	for i, w := range r.res.Workloads {
		srcs[i] = w.Source
	}
	for i, n := range uniqueNames(srcs) {
		r.res.Workloads[i].Name = n
	}
	srcs = srcs[:0]
	for _, d := range r.res.DaemonSets {
		srcs = append(srcs, d.Source)
	}
	for i, n := range uniqueNames(srcs) {
		r.res.DaemonSets[i].Name = n
	}
}

func uniqueNames(srcs []Source) []string {
	forms := []func(int, Source) string{
		func(_ int, s Source) string { return s.Name },
		func(_ int, s Source) string { return s.Namespace + "/" + s.Name },
		func(_ int, s Source) string { return s.Namespace + "/" + s.Kind + "/" + s.Name },
		func(_ int, s Source) string { return s.Namespace + "/" + s.APIVersion + "/" + s.Kind + "/" + s.Name },
		// Objects with one generateName, or one object in the manifests and the snapshot: by position.
		func(i int, s Source) string {
			return fmt.Sprintf("%s/%s/%s/%s#%d", s.Namespace, s.APIVersion, s.Kind, s.Name, i)
		},
	}
	out := make([]string, len(srcs))
	level := make([]int, len(srcs))
	for round := 0; round < len(forms); round++ {
		count := map[string]int{}
		for i, s := range srcs {
			out[i] = forms[level[i]](i, s)
			count[out[i]]++
		}
		clash := false
		for i := range srcs {
			if count[out[i]] > 1 && level[i] < len(forms)-1 {
				level[i]++
				clash = true
			}
		}
		if !clash {
			break
		}
	}
	return out
}

// override applies Overrides by output name.
func (r *reader) override() error {
	if len(r.in.Overrides) == 0 {
		return nil
	}
	byName := map[string]*Workload{}
	var names []string
	for i := range r.res.Workloads {
		byName[r.res.Workloads[i].Name] = &r.res.Workloads[i]
		names = append(names, r.res.Workloads[i].Name)
	}
	dsByName := map[string]*DaemonSet{}
	for i := range r.res.DaemonSets {
		dsByName[r.res.DaemonSets[i].Name] = &r.res.DaemonSets[i]
		names = append(names, r.res.DaemonSets[i].Name)
	}
	keys := make([]string, 0, len(r.in.Overrides))
	for k := range r.in.Overrides {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var errs field.Errors
	for _, k := range keys {
		o := r.in.Overrides[k]
		p := field.NewPath("Overrides").Key(k)
		if w, ok := byName[k]; ok {
			if o.CPUUsageMillicores != nil {
				w.CPUUsageMillicores = *o.CPUUsageMillicores
			}
			if o.ExtraReplicas < 0 {
				errs = append(errs, field.Invalid(p.Child("ExtraReplicas"), fmt.Sprint(o.ExtraReplicas), "extra replicas for workload %s are %d; give 0 or more", field.Quote(k), o.ExtraReplicas))
				continue
			}
			for _, n := range []*int{w.Replicas, w.MinReplicas, w.MaxReplicas} {
				if n != nil {
					*n += o.ExtraReplicas
				}
			}
			if o.ExtraReplicas > 0 {
				to := "the replica count"
				if w.Replicas == nil {
					to = "both autoscaling bounds"
				}
				w.Pod.Derivation = append(w.Pod.Derivation, fmt.Sprintf("overrides: %d extra replicas, added to %s", o.ExtraReplicas, to))
			}
			continue
		}
		if d, ok := dsByName[k]; ok {
			if o.ExtraReplicas != 0 {
				errs = append(errs, field.Invalid(p.Child("ExtraReplicas"), fmt.Sprint(o.ExtraReplicas), "%s is a DaemonSet: it runs one pod per matching node, so extra replicas do not apply; remove extra_replicas", field.Quote(k)))
				continue
			}
			if o.CPUUsageMillicores != nil {
				d.CPUUsageMillicores = *o.CPUUsageMillicores
			}
			continue
		}
		sort.Strings(names)
		errs = append(errs, field.Invalid(p, k, "no workload or DaemonSet read from the manifests is named %s; the names are %s", field.Quote(k), listOrNone(names)))
	}
	return errs.Err()
}

func listOrNone(names []string) string {
	if len(names) == 0 {
		return "none (nothing was read)"
	}
	if len(names) > 20 {
		return field.QuoteList(names[:20]) + fmt.Sprintf(" and %d more", len(names)-20)
	}
	return field.QuoteList(names)
}
