package oracle

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/go-logr/logr"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/events"
	"k8s.io/klog/v2"
	fwk "k8s.io/kube-scheduler/framework"
	apiv1defaults "k8s.io/kubernetes/pkg/apis/core/v1"
	"k8s.io/kubernetes/pkg/scheduler"
	schedconfig "k8s.io/kubernetes/pkg/scheduler/apis/config"
	"k8s.io/kubernetes/pkg/scheduler/apis/config/latest"
	"k8s.io/kubernetes/pkg/scheduler/apis/config/validation"
	"k8s.io/kubernetes/pkg/scheduler/framework"
)

// Profile names a scheduler profile.
type Profile string

// The profiles.
const (
	// ProfileDefault is kube-scheduler's own defaulted v1 configuration (latest.Default()): one
	// profile "default-scheduler", NodeResourcesFit scoring LeastAllocated over cpu and memory
	// (weight 1 each).
	ProfileDefault Profile = "default"
	// ProfileMostAllocated is ProfileDefault with only NodeResourcesFitArgs.ScoringStrategy.Type set to
	// MostAllocated (GKE's optimize-utilization profile bin-packs this way); the scored resources stay
	// cpu and memory, weight 1 each.
	ProfileMostAllocated Profile = "most-allocated"
)

// Option configures a Schedule call.
type Option func(*options)

type options struct {
	objects []runtime.Object
	reasons map[string]string
	events  *[]Event
}

// Event is one scheduling attempt's outcome, in the order of the scheduler's scheduling cycles: pod Pod
// given Node by its cycle's Filter and Score, or turned away (Node "").
type Event struct {
	Pod, Node string
}

// WithEvents has Schedule record in dst every scheduling attempt's outcome in the order of the scheduling
// cycles, which the scheduler runs one at a time: the node each cycle chose (recorded as the cycle's
// SchedulePod returns, before the pod is assumed there and bound asynchronously, so a later cycle's choice
// never comes before it as a later binding can) and each failed attempt (a pod may fail several times before
// it binds; a cycle that chose a node and then failed, in Reserve, Permit or binding, is a choice followed
// later by a failure, and the pod's last choice is where it bound).
func WithEvents(dst *[]Event) Option {
	return func(o *options) { o.events = dst }
}

// WithObjects adds objects that exist before the scheduler starts, beside the nodes: ReplicaSets,
// Services, StatefulSets or ReplicationControllers whose selectors pick the pods (the default profile's
// PodTopologySpread system-default constraints, hostname maxSkew 3 and zone maxSkew 5, ScheduleAnyway,
// apply only to pods some such object selects), pods already bound (spec.nodeName set, such as
// DaemonSet pods), Namespaces, PriorityClasses, PersistentVolumes and the like. Objects are added as
// given, without API defaulting; a missing UID is filled in.
func WithObjects(objs ...runtime.Object) Option {
	return func(o *options) { o.objects = append(o.objects, objs...) }
}

// WithReasons has Schedule record, for every pod left Pending, the message of its last failed
// scheduling attempt (the PodScheduled=False condition's message, e.g. "0/3 nodes are available:
// 3 Insufficient cpu. ..."), keyed by pod name, in dst. Pods the scheduler never attempted (a
// scheduling gate, another schedulerName) have no entry.
func WithReasons(dst map[string]string) Option {
	return func(o *options) { o.reasons = dst }
}

// perPodTimeout bounds the wait for one pod's scheduling attempt, and the wait for quiet at the end.
const perPodTimeout = 60 * time.Second

// quietFor is how long the scheduler must stay idle after the last pod before Schedule returns.
const quietFor = 200 * time.Millisecond

// Schedule creates the nodes (and the WithObjects objects), starts the real scheduler on them, then
// creates the pods one at a time in the given order and returns, per pod name, the node the scheduler
// bound it to ("" = left Pending). The inputs are not modified. Pod names must be unique (the result is
// keyed by name alone).
//
// Exactly what it does:
//
//   - Configuration: latest.Default() (the scheme-defaulted kubescheduler.config.k8s.io/v1
//     configuration kube-scheduler itself starts from), validated, with ProfileMostAllocated changing
//     only NodeResourcesFit's scoring strategy type. It is passed to scheduler.New as
//     cmd/kube-scheduler's Setup does (profiles, percentageOfNodesToScore left at the default 0 =
//     adaptive, parallelism 16, pod backoff 1 s initial and 10 s max); feature gates are the release's
//     defaults. Events go to a discarding recorder (they never influence placement).
//   - Cluster: a fake clientset (fake.NewSimpleClientset) holding the nodes, the objects and a Namespace
//     for every namespace used. Nodes and pods first get the API server's defaulting for core/v1
//     (SetObjectDefaults_Node/_Pod: spec.schedulerName "default-scheduler", requests defaulted from
//     limits, allocatable from capacity, ...), and a UID and creationTimestamp when they have none.
//     The fake does not implement pods/binding, so a reactor does what the API server's binding
//     storage does: refuse a pod already bound or being deleted, else set spec.nodeName, copy the
//     binding's annotations and set PodScheduled=True. Status patches (PodScheduled=False,
//     nominatedNodeName) are the fake's own strategic-merge patches.
//   - Startup: the scheduler's informer factory (scheduler.NewInformerFactory) is started and synced,
//     then WaitForHandlersSync, then the scheduling loop runs as Scheduler.Run runs it (queue and API
//     dispatcher started, ScheduleOne in a loop), on its own goroutine.
//   - Ordering: pod i+1 is created only after pod i's first scheduling attempt has ended: the binding
//     reactor ran for it (bound), or the scheduler's FailureHandler (wrapped, not replaced) returned
//     for it (the pod is back in the queue's unschedulable pods or backoff queue and its PodScheduled
//     condition is False), or, for a pod that never reaches a scheduling attempt (a scheduling gate),
//     the queue holds it as unschedulable while nothing is in flight. A pod that is already bound is
//     waited for until the scheduler's cache holds it; a pod for another schedulerName is not waited
//     for. So every pod enters the queue after all earlier ones were tried once, in the given order,
//     and each scheduling cycle sees every earlier placement (the cache assumes a pod on its node
//     before the binding is even sent). Meanwhile the scheduler runs freely: an earlier Pending pod
//     that a later event makes schedulable (its queueing hints decide) is retried as the running
//     kube-scheduler would, and may be bound before the next pod is created.
//   - Observation: the scheduler's SchedulePod (the cycle's Filter and Score) is wrapped, not replaced, to
//     record the node each cycle chose (WithEvents); nothing is added to the profile.
//   - End: after the last pod, Schedule waits until the scheduler has been quiet for 200 ms: nothing
//     in flight, active queue and backoff queue empty (so a pod moved back for a retry is retried, its
//     backoff included), and no pod assumed but not yet confirmed bound. Pods parked as unschedulable
//     are retried only on the cluster events their rejecting plugins registered for, as in
//     kube-scheduler; the 5-minute podMaxInUnschedulablePodsDuration flush is not waited for.
//   - Then it stops the scheduling loop, the queue, the plugins and the informers (waiting for their
//     goroutines) and reads every pod's spec.nodeName from the fake's object tracker; a pod no longer there
//     was deleted by the scheduler's preemption (DefaultPreemption, for a higher-priority pod that found no
//     node) and counts as Pending, as its ReplicaSet's replacement would be ("deleted by preemption" in
//     WithReasons).
//
// Among nodes of equal total score the scheduler picks one at random (each scored node carries a
// random tie-breaker, framework.NewSortedScoredNodes); that randomness is left as it is, so only the
// placements the scores force are reproducible.
//
// Logging goes nowhere unless KUBEFIT_ORACLE_V is set to a klog verbosity (then klog writes to
// stderr); the setting is made once, for the whole process, on the first call.
func Schedule(ctx context.Context, profile Profile, nodes []*corev1.Node, pods []*corev1.Pod, opts ...Option) (map[string]string, error) {
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	setUpLogging()
	cfg, err := configuration(profile)
	if err != nil {
		return nil, err
	}

	initial, toCreate, err := clusterObjects(nodes, o.objects, pods)
	if err != nil {
		return nil, err
	}

	// The plain object tracker: the field-managed one (fake.NewClientset) builds a REST mapper on every
	// write, half of the run time, and the scheduler uses no server-side apply (it binds and patches
	// status with strategic-merge patches; its pod informer drops managed fields anyway).
	client := fake.NewSimpleClientset(initial...) //nolint:staticcheck // see above
	rec := newRecorder()
	client.PrependReactor("create", "pods", rec.bindingReactor(client))

	// The scheduler, as cmd/kube-scheduler builds it.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	informerCtx, stopInformers := context.WithCancel(ctx)
	factory := scheduler.NewInformerFactory(client, 0, nil)
	defer func() {
		stopInformers()
		factory.Shutdown()
	}()
	discard := func(string) events.EventRecorderLogger { return &events.FakeRecorder{} }
	schedCtx, stopScheduler := context.WithCancel(ctx)
	defer stopScheduler()
	sched, err := scheduler.New(schedCtx, client, factory, nil, discard,
		scheduler.WithComponentConfigVersion(cfg.APIVersion),
		scheduler.WithProfiles(cfg.Profiles...),
		scheduler.WithPercentageOfNodesToScore(cfg.PercentageOfNodesToScore),
		scheduler.WithPodInitialBackoffSeconds(cfg.PodInitialBackoffSeconds),
		scheduler.WithPodMaxBackoffSeconds(cfg.PodMaxBackoffSeconds),
		scheduler.WithParallelism(cfg.Parallelism),
	)
	if err != nil {
		return nil, fmt.Errorf("oracle: scheduler.New: %w", err)
	}
	choose := sched.SchedulePod
	sched.SchedulePod = func(ctx context.Context, f framework.Framework, state fwk.CycleState, pi *framework.QueuedPodInfo) (scheduler.ScheduleResult, error) {
		r, err := choose(ctx, f, state, pi)
		if err == nil && pi != nil && pi.Pod != nil {
			rec.chose(pi.Pod.Name, r.SuggestedHost)
		}
		return r, err
	}
	failed := sched.FailureHandler
	sched.FailureHandler = func(ctx context.Context, f framework.Framework, pi *framework.QueuedPodInfo, st *fwk.Status, ni *fwk.NominatingInfo, start time.Time) {
		failed(ctx, f, pi, st, ni, start)
		if pi != nil && pi.Pod != nil {
			rec.failed(pi.Pod.UID, pi.Pod.Name, st.Message())
		}
	}
	profiles := map[string]bool{}
	for _, p := range cfg.Profiles {
		profiles[p.SchedulerName] = true
	}

	factory.Start(informerCtx.Done())
	for typ, ok := range factory.WaitForCacheSync(ctx.Done()) {
		if !ok {
			return nil, fmt.Errorf("oracle: informer for %v did not sync", typ)
		}
	}
	if err := sched.WaitForHandlersSync(ctx); err != nil {
		return nil, fmt.Errorf("oracle: event handlers did not sync: %w", err)
	}

	// The scheduling loop, as Scheduler.Run runs it, but on a goroutine this function waits for.
	logger := klog.FromContext(schedCtx)
	sched.SchedulingQueue.Run(logger)
	if sched.APIDispatcher != nil {
		sched.APIDispatcher.Run(logger)
	}
	var loop sync.WaitGroup
	loop.Go(func() { wait.UntilWithContext(schedCtx, sched.ScheduleOne, 0) })
	stopped := false
	stop := func() {
		if stopped {
			return
		}
		stopped = true
		stopScheduler()
		if sched.APIDispatcher != nil {
			sched.APIDispatcher.Close()
		}
		sched.SchedulingQueue.Close()
		loop.Wait()
		_ = sched.Profiles.Close()
	}
	defer stop()

	w := &waiter{sched: sched, rec: rec}
	for _, p := range toCreate {
		if _, err := client.CoreV1().Pods(p.Namespace).Create(ctx, p, metav1.CreateOptions{}); err != nil {
			return nil, fmt.Errorf("oracle: creating pod %s: %w", p.Name, err)
		}
		switch {
		case p.Spec.NodeName != "":
			err = w.until(ctx, func() bool { got, err := sched.Cache.GetPod(p); return err == nil && got != nil })
		case !profiles[p.Spec.SchedulerName]:
			// Not this scheduler's pod: it stays Pending.
		default:
			err = w.until(ctx, func() bool { return rec.attempted(p.UID) || w.parked(p.UID) })
		}
		if err != nil {
			return nil, fmt.Errorf("oracle: waiting for the scheduling attempt of pod %s: %w", p.Name, err)
		}
	}
	if err := w.quiet(ctx); err != nil {
		return nil, err
	}
	stop()
	if o.events != nil {
		rec.mu.Lock()
		*o.events = append((*o.events)[:0], rec.events...)
		rec.mu.Unlock()
	}

	out := make(map[string]string, len(toCreate))
	for _, p := range toCreate {
		obj, err := client.Tracker().Get(podsResource, p.Namespace, p.Name)
		if apierrors.IsNotFound(err) {
			// Deleted by the scheduler's preemption (DefaultPreemption evicts lower-priority pods for a pod that
			// finds no node): in a real cluster its ReplicaSet recreates it, and it waits for a node like a
			// Pending pod.
			out[p.Name] = ""
			if o.reasons != nil {
				o.reasons[p.Name] = "deleted by preemption"
			}
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("oracle: reading pod %s: %w", p.Name, err)
		}
		node := obj.(*corev1.Pod).Spec.NodeName
		out[p.Name] = node
		if o.reasons != nil && node == "" {
			if msg, ok := rec.reason(p.UID); ok {
				o.reasons[p.Name] = msg
			}
		}
	}
	return out, nil
}

// clusterObjects returns what the API server would hold before the scheduler starts (the nodes, the
// objects and a Namespace for every namespace used that has none, nodes defaulted and every object with
// a UID), and the pods to create, defaulted, in order. The inputs are not modified.
func clusterObjects(nodes []*corev1.Node, objects []runtime.Object, pods []*corev1.Pod) ([]runtime.Object, []*corev1.Pod, error) {
	// The cluster before the scheduler starts.
	now := metav1.Now()
	namespaces := map[string]bool{}
	haveNamespace := map[string]bool{}
	var initial []runtime.Object
	for _, n := range nodes {
		n = n.DeepCopy()
		apiv1defaults.SetObjectDefaults_Node(n)
		fillMeta(&n.ObjectMeta, "node", now)
		initial = append(initial, n)
	}
	for _, obj := range objects {
		obj = obj.DeepCopyObject()
		m, err := meta.Accessor(obj)
		if err != nil {
			return nil, nil, fmt.Errorf("oracle: object %T: %w", obj, err)
		}
		if m.GetUID() == "" {
			m.SetUID(types.UID(fmt.Sprintf("oracle-%s-%s-%s", strings.TrimPrefix(fmt.Sprintf("%T", obj), "*"), m.GetNamespace(), m.GetName())))
		}
		if ns, ok := obj.(*corev1.Namespace); ok {
			haveNamespace[ns.Name] = true
		} else if m.GetNamespace() != "" {
			namespaces[m.GetNamespace()] = true
		}
		initial = append(initial, obj)
	}
	toCreate := make([]*corev1.Pod, len(pods))
	names := map[string]bool{}
	for i, p := range pods {
		if names[p.Name] {
			return nil, nil, fmt.Errorf("oracle: two pods are named %q", p.Name)
		}
		names[p.Name] = true
		p = p.DeepCopy()
		if p.Namespace == "" {
			p.Namespace = metav1.NamespaceDefault
		}
		apiv1defaults.SetObjectDefaults_Pod(p)
		fillMeta(&p.ObjectMeta, "pod", now)
		namespaces[p.Namespace] = true
		toCreate[i] = p
	}
	for ns := range namespaces {
		if !haveNamespace[ns] {
			initial = append(initial, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns, UID: types.UID("oracle-ns-" + ns)}})
		}
	}
	return initial, toCreate, nil
}

var podsResource = corev1.SchemeGroupVersion.WithResource("pods")

// configuration is the scheduler's defaulted v1 configuration for a profile.
func configuration(profile Profile) (*schedconfig.KubeSchedulerConfiguration, error) {
	cfg, err := latest.Default()
	if err != nil {
		return nil, fmt.Errorf("oracle: default scheduler configuration: %w", err)
	}
	switch profile {
	case ProfileDefault:
	case ProfileMostAllocated:
		found := false
		for i := range cfg.Profiles {
			for j := range cfg.Profiles[i].PluginConfig {
				if args, ok := cfg.Profiles[i].PluginConfig[j].Args.(*schedconfig.NodeResourcesFitArgs); ok {
					args.ScoringStrategy.Type = schedconfig.MostAllocated
					found = true
				}
			}
		}
		if !found {
			return nil, errors.New("oracle: the default configuration has no NodeResourcesFitArgs")
		}
	default:
		return nil, fmt.Errorf("oracle: unknown profile %q", profile)
	}
	if err := validation.ValidateKubeSchedulerConfiguration(cfg); err != nil {
		return nil, fmt.Errorf("oracle: scheduler configuration: %w", err)
	}
	return cfg, nil
}

// fillMeta gives an object the UID and creation timestamp the API server would.
func fillMeta(m *metav1.ObjectMeta, kind string, now metav1.Time) {
	if m.UID == "" {
		m.UID = types.UID(fmt.Sprintf("oracle-%s-%s-%s", kind, m.Namespace, m.Name))
	}
	if m.CreationTimestamp.IsZero() {
		m.CreationTimestamp = now
	}
}

// recorder collects what the scheduler did to each pod: the binding reactor and the wrapped
// FailureHandler report to it.
type recorder struct {
	mu       sync.Mutex
	bound    map[types.UID]string
	failures map[types.UID]string
	events   []Event
	changed  chan struct{}
}

func newRecorder() *recorder {
	return &recorder{bound: map[types.UID]string{}, failures: map[types.UID]string{}, changed: make(chan struct{}, 1)}
}

func (r *recorder) notify() {
	select {
	case r.changed <- struct{}{}:
	default:
	}
}

func (r *recorder) failed(uid types.UID, name, msg string) {
	r.mu.Lock()
	r.failures[uid] = msg
	r.events = append(r.events, Event{Pod: name})
	r.mu.Unlock()
	r.notify()
}

func (r *recorder) chose(name, node string) {
	r.mu.Lock()
	r.events = append(r.events, Event{Pod: name, Node: node})
	r.mu.Unlock()
}

// attempted says whether a scheduling attempt of the pod has ended (bound or failed).
func (r *recorder) attempted(uid types.UID) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	_, b := r.bound[uid]
	_, f := r.failures[uid]
	return b || f
}

func (r *recorder) reason(uid types.UID) (string, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	msg, ok := r.failures[uid]
	return msg, ok
}

// bindingReactor implements the pods/binding subresource on the fake's object tracker, as the API
// server's binding storage does (pkg/registry/core/pod/storage: assignPod).
func (r *recorder) bindingReactor(client *fake.Clientset) clienttesting.ReactionFunc {
	return func(action clienttesting.Action) (bool, runtime.Object, error) {
		if action.GetSubresource() != "binding" {
			return false, nil, nil
		}
		binding, ok := action.(clienttesting.CreateAction).GetObject().(*corev1.Binding)
		if !ok {
			return true, nil, apierrors.NewBadRequest("pods/binding takes a Binding")
		}
		if binding.Target.Kind != "" && binding.Target.Kind != "Node" {
			return true, nil, apierrors.NewBadRequest("binding target must be a Node")
		}
		ns := action.GetNamespace()
		obj, err := client.Tracker().Get(podsResource, ns, binding.Name)
		if err != nil {
			return true, nil, err
		}
		pod := obj.(*corev1.Pod).DeepCopy()
		if binding.UID != "" && binding.UID != pod.UID {
			return true, nil, apierrors.NewConflict(podsResource.GroupResource(), binding.Name, fmt.Errorf("the UID in the binding does not match the pod's"))
		}
		if pod.DeletionTimestamp != nil {
			return true, nil, apierrors.NewConflict(podsResource.GroupResource(), binding.Name, fmt.Errorf("pod %s is being deleted, cannot be assigned to a host", pod.Name))
		}
		if pod.Spec.NodeName != "" {
			return true, nil, apierrors.NewConflict(podsResource.GroupResource(), binding.Name, fmt.Errorf("pod %s is already assigned to node %q", pod.Name, pod.Spec.NodeName))
		}
		pod.Spec.NodeName = binding.Target.Name
		for k, v := range binding.Annotations {
			if pod.Annotations == nil {
				pod.Annotations = map[string]string{}
			}
			pod.Annotations[k] = v
		}
		setCondition(&pod.Status, corev1.PodCondition{Type: corev1.PodScheduled, Status: corev1.ConditionTrue, LastTransitionTime: metav1.Now()})
		if err := client.Tracker().Update(podsResource, pod, ns); err != nil {
			return true, nil, err
		}
		r.mu.Lock()
		r.bound[pod.UID] = binding.Target.Name
		r.mu.Unlock()
		r.notify()
		return true, binding, nil
	}
}

func setCondition(st *corev1.PodStatus, c corev1.PodCondition) {
	for i := range st.Conditions {
		if st.Conditions[i].Type == c.Type {
			if st.Conditions[i].Status != c.Status {
				st.Conditions[i] = c
			}
			return
		}
	}
	st.Conditions = append(st.Conditions, c)
}

// waiter waits on the running scheduler.
type waiter struct {
	sched *scheduler.Scheduler
	rec   *recorder
}

// idle says whether the scheduler has nothing to do: no pod in flight, the active and backoff queues
// empty, no pod assumed on a node but not yet confirmed bound.
func (w *waiter) idle() bool {
	q := w.sched.SchedulingQueue
	if len(q.InFlightPods()) > 0 || len(q.PodsInActiveQ()) > 0 || len(q.PodsInBackoffQ()) > 0 {
		return false
	}
	return w.sched.Cache.Dump().AssumedPods.Len() == 0
}

// parked says whether the pod sits among the queue's unschedulable pods while the scheduler is idle
// (a pod held by a scheduling gate gets there without a scheduling attempt).
func (w *waiter) parked(uid types.UID) bool {
	for _, p := range w.sched.SchedulingQueue.UnschedulablePods() {
		if p.UID == uid {
			return w.idle()
		}
	}
	return false
}

// until waits for cond, re-checking on every report of the recorder and at least every 2 ms.
func (w *waiter) until(ctx context.Context, cond func() bool) error {
	deadline := time.NewTimer(perPodTimeout)
	defer deadline.Stop()
	tick := time.NewTicker(2 * time.Millisecond)
	defer tick.Stop()
	for !cond() {
		select {
		case <-w.rec.changed:
		case <-tick.C:
		case <-deadline.C:
			return fmt.Errorf("no result within %v (%s)", perPodTimeout, w.summary())
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

// quiet waits until the scheduler has been idle for quietFor.
func (w *waiter) quiet(ctx context.Context) error {
	deadline := time.Now().Add(perPodTimeout)
	var since time.Time
	for {
		if w.idle() {
			if since.IsZero() {
				since = time.Now()
			} else if time.Since(since) >= quietFor {
				return nil
			}
		} else {
			since = time.Time{}
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("oracle: the scheduler did not settle within %v (%s)", perPodTimeout, w.summary())
		}
		select {
		case <-w.rec.changed:
			since = time.Time{}
		case <-time.After(5 * time.Millisecond):
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

func (w *waiter) summary() string {
	_, s := w.sched.SchedulingQueue.PendingPods()
	return fmt.Sprintf("%s; in flight:%d", s, len(w.sched.SchedulingQueue.InFlightPods()))
}

var loggingOnce sync.Once

// setUpLogging silences klog (the scheduler logs through it) unless KUBEFIT_ORACLE_V asks for a
// verbosity, in which case klog writes to stderr at that verbosity.
func setUpLogging() {
	loggingOnce.Do(func() {
		v := os.Getenv("KUBEFIT_ORACLE_V")
		if v == "" {
			klog.SetLogger(logr.Discard())
			return
		}
		fs := flag.NewFlagSet("klog", flag.ContinueOnError)
		klog.InitFlags(fs)
		_ = fs.Set("v", v)
		_ = fs.Set("logtostderr", "true")
	})
}
