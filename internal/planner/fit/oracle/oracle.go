// Package oracle runs the real kube-scheduler (k8s.io/kubernetes/pkg/scheduler at v1.37.2, the release of
// the k8s.io/api the provider uses) in-process against a client-go fake clientset, so that kubefit's
// scheduler model (package fit) can be checked against it. It is a module of its own because
// k8s.io/kubernetes needs replace directives for its staging modules, and so that the scheduler never
// reaches the provider binary. Nothing outside this module's tests imports it.
package oracle

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/events"
	"k8s.io/klog/v2"
	"k8s.io/kubernetes/pkg/scheduler"
	schedconfig "k8s.io/kubernetes/pkg/scheduler/apis/config"
	"k8s.io/kubernetes/pkg/scheduler/apis/config/latest"
	"k8s.io/kubernetes/pkg/scheduler/profile"
)

// Profile names a scheduler profile.
type Profile string

// The profiles.
const (
	// ProfileDefault is kube-scheduler's defaulted v1 configuration.
	ProfileDefault Profile = "default"
	// ProfileMostAllocated is the default profile with NodeResourcesFit's scoring strategy MostAllocated.
	ProfileMostAllocated Profile = "most-allocated"
)

// Input is a cluster and the pods to schedule: Nodes and Objects (ReplicaSets, pods already bound such
// as DaemonSet pods) exist before the scheduler starts; Pods are created one at a time, in order.
type Input struct {
	Nodes   []*corev1.Node
	Objects []runtime.Object
	Pods    []*corev1.Pod
}

// Schedule starts the real scheduler on the input's nodes and objects, then creates the pods one at a
// time and runs one scheduling cycle (Scheduler.ScheduleOne) after each, so the pods enter the queue in
// the given order (all have the same priority, so PrioritySort keeps creation order) and each is
// scheduled before the next exists; the cache assumes a pod on its node before the binding completes,
// so the next cycle sees it. A pod the scheduler rejects stays in its unschedulable queue; when it moves
// back (a queueing hint of a later binding), it is scheduled in the next cycle, as in a running
// scheduler, and the cycles go on until the active queue is empty. It returns, per pod name, the node
// it was bound to ("" when Pending).
func Schedule(ctx context.Context, p Profile, in Input) (map[string]string, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	objs := []runtime.Object{&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "default"}}}
	for _, n := range in.Nodes {
		objs = append(objs, n)
	}
	objs = append(objs, in.Objects...)
	client := fake.NewClientset(objs...)
	client.PrependReactor("create", "pods", func(action clienttesting.Action) (bool, runtime.Object, error) {
		if action.GetSubresource() != "binding" {
			return false, nil, nil
		}
		b := action.(clienttesting.CreateAction).GetObject().(*corev1.Binding)
		obj, err := client.Tracker().Get(corev1.SchemeGroupVersion.WithResource("pods"), b.Namespace, b.Name)
		if err != nil {
			return true, nil, err
		}
		pod := obj.(*corev1.Pod).DeepCopy()
		pod.Spec.NodeName = b.Target.Name
		return true, b, client.Tracker().Update(corev1.SchemeGroupVersion.WithResource("pods"), pod, b.Namespace)
	})
	cfg, err := latest.Default()
	if err != nil {
		return nil, err
	}
	profiles := cfg.Profiles
	if p == ProfileMostAllocated {
		for i := range profiles[0].PluginConfig {
			if args, ok := profiles[0].PluginConfig[i].Args.(*schedconfig.NodeResourcesFitArgs); ok {
				args.ScoringStrategy.Type = schedconfig.MostAllocated
			}
		}
	}
	factory := informers.NewSharedInformerFactory(client, 0)
	broadcaster := events.NewBroadcaster(&events.EventSinkImpl{Interface: client.EventsV1()})
	defer broadcaster.Shutdown()
	sched, err := scheduler.New(ctx, client, factory, nil, profile.NewRecorderFactory(broadcaster),
		scheduler.WithProfiles(profiles...))
	if err != nil {
		return nil, err
	}
	factory.Start(ctx.Done())
	factory.WaitForCacheSync(ctx.Done())
	logger := klog.FromContext(ctx)
	sched.SchedulingQueue.Run(logger)
	defer sched.SchedulingQueue.Close()
	if sched.APIDispatcher != nil {
		sched.APIDispatcher.Run(logger)
		defer sched.APIDispatcher.Close()
	}
	for _, pod := range in.Pods {
		if _, err := client.CoreV1().Pods(pod.Namespace).Create(ctx, pod, metav1.CreateOptions{}); err != nil {
			return nil, err
		}
		if err := waitQueued(ctx, sched, pod); err != nil {
			return nil, err
		}
		sched.ScheduleOne(ctx)
	}
	for active(sched) > 0 {
		sched.ScheduleOne(ctx)
	}
	// Bindings run asynchronously: wait until every pod the cache assumed is bound in the API.
	deadline := time.Now().Add(30 * time.Second)
	for {
		out := map[string]string{}
		assumed := 0
		for _, pod := range in.Pods {
			got, err := client.CoreV1().Pods(pod.Namespace).Get(ctx, pod.Name, metav1.GetOptions{})
			if err != nil {
				return nil, err
			}
			out[pod.Name] = got.Spec.NodeName
			if got.Spec.NodeName == "" {
				if pi, err := sched.Cache.GetPod(pod); err == nil && pi != nil && pi.Spec.NodeName != "" {
					assumed++
				}
			}
		}
		if assumed == 0 {
			return out, nil
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("%d bindings did not complete", assumed)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

var activeRE = regexp.MustCompile(`activeQ:(\d+)`)

// active is the length of the scheduler's active queue, read from its debugging summary.
func active(s *scheduler.Scheduler) int {
	_, summary := s.SchedulingQueue.PendingPods()
	m := activeRE.FindStringSubmatch(summary)
	if m == nil {
		return 0
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// waitQueued waits until the informer has handed the new pod to the queue.
func waitQueued(ctx context.Context, s *scheduler.Scheduler, pod *corev1.Pod) error {
	deadline := time.Now().Add(10 * time.Second)
	for {
		pods, _ := s.SchedulingQueue.PendingPods()
		for _, p := range pods {
			if p.Name == pod.Name && p.Namespace == pod.Namespace {
				return nil
			}
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("pod %s never reached the scheduling queue", pod.Name)
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		time.Sleep(50 * time.Microsecond)
	}
}
