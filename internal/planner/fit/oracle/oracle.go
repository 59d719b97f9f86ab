// Package oracle runs the real kube-scheduler (k8s.io/kubernetes/pkg/scheduler at v1.37.2, the release of
// the k8s.io/api the provider uses) in-process against a client-go fake clientset, so that kubefit's
// scheduler model (package fit) can be checked against it. It is a module of its own because
// k8s.io/kubernetes needs replace directives for its staging modules, and so that the scheduler never
// reaches the provider binary. Nothing outside this module's tests imports it.
package oracle

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// Input is a cluster and the pods to schedule: Nodes and Objects (ReplicaSets, pods already bound such
// as DaemonSet pods) exist before the scheduler starts; Pods are created one at a time, in order.
type Input struct {
	Nodes   []*corev1.Node
	Objects []runtime.Object
	Pods    []*corev1.Pod
}

// Run schedules the input with the real scheduler (Schedule) and returns, per pod name, the node it was
// bound to ("" when Pending).
func Run(ctx context.Context, p Profile, in Input) (map[string]string, error) {
	return Schedule(ctx, p, in.Nodes, in.Pods, WithObjects(in.Objects...))
}
