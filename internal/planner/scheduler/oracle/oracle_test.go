package oracle

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
	"time"

	plannerres "github.com/kubefit/terraform-provider-kubefit/internal/planner/resource"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8sruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/component-base/featuregate"
	"k8s.io/kubernetes/pkg/features"
	schedconfig "k8s.io/kubernetes/pkg/scheduler/apis/config"
)

const (
	mi = int64(1) << 20
	gi = int64(1) << 30
)

// resources is a request or allocatable list of CPU (millicores) and memory (bytes), rendered as
// quantities by the planner's own formatting.
func resources(cpuMilli, memBytes int64) corev1.ResourceList {
	return corev1.ResourceList{
		corev1.ResourceCPU:    resource.MustParse(plannerres.QuantityCPU(cpuMilli)),
		corev1.ResourceMemory: resource.MustParse(plannerres.QuantityBytes(memBytes)),
	}
}

func node(name string, cpuMilli, memBytes, pods int64) *corev1.Node {
	alloc := resources(cpuMilli, memBytes)
	alloc[corev1.ResourcePods] = *resource.NewQuantity(pods, resource.DecimalSI)
	return &corev1.Node{
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{corev1.LabelHostname: name}},
		Status: corev1.NodeStatus{
			Capacity:    alloc.DeepCopy(),
			Allocatable: alloc,
			Conditions:  []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue}},
		},
	}
}

func pod(name string, cpuMilli, memBytes int64) *corev1.Pod {
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default"},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{
			Name: "app", Image: "app",
			Resources: corev1.ResourceRequirements{Requests: resources(cpuMilli, memBytes)},
		}}},
	}
}

func nodes(n int, cpuMilli, memBytes, pods int64) []*corev1.Node {
	out := make([]*corev1.Node, n)
	for i := range out {
		out[i] = node(fmt.Sprintf("node-%d", i), cpuMilli, memBytes, pods)
	}
	return out
}

// replicaSet is a ReplicaSet selecting app=name, and owns makes a pod one of its replicas.
func replicaSet(name string) *appsv1.ReplicaSet {
	sel := map[string]string{"app": name}
	return &appsv1.ReplicaSet{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", UID: types.UID("rs-" + name)},
		Spec: appsv1.ReplicaSetSpec{
			Selector: &metav1.LabelSelector{MatchLabels: sel},
			Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: sel}},
		},
	}
}

func owns(rs *appsv1.ReplicaSet, p *corev1.Pod) *corev1.Pod {
	p.Labels = map[string]string{"app": rs.Name}
	controller := true
	p.OwnerReferences = []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: rs.Name, UID: rs.UID, Controller: &controller}}
	return p
}

func schedule(t testing.TB, p Profile, ns []*corev1.Node, ps []*corev1.Pod, opts ...Option) map[string]string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	got, err := Schedule(ctx, p, ns, ps, opts...)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(ps) {
		t.Fatalf("got %d results for %d pods", len(got), len(ps))
	}
	return got
}

// cpuPerNode sums the CPU requests of the pods bound to each node.
func cpuPerNode(ps []*corev1.Pod, got map[string]string) map[string]int64 {
	out := map[string]int64{}
	for _, p := range ps {
		if n := got[p.Name]; n != "" {
			for _, c := range p.Spec.Containers {
				out[n] += c.Resources.Requests.Cpu().MilliValue()
			}
		}
	}
	return out
}

func TestScheduleSmoke(t *testing.T) {
	t.Run("capacity and selector", func(t *testing.T) {
		ns := nodes(3, 4000, 8*gi, 110)
		var ps []*corev1.Pod
		for i := range 10 {
			ps = append(ps, pod(fmt.Sprintf("small-%d", i), 1000, gi))
		}
		big := pod("big", 5000, gi)
		picky := pod("picky", 100, 100*mi)
		picky.Spec.NodeSelector = map[string]string{"disktype": "ssd"}
		ps = append(ps, big, picky)
		reasons := map[string]string{}
		got := schedule(t, ProfileDefault, ns, ps, WithReasons(reasons))
		bound := 0
		for i := range 10 {
			if got[fmt.Sprintf("small-%d", i)] != "" {
				bound++
			}
		}
		if bound != 10 {
			t.Errorf("%d of 10 small pods bound: %v", bound, got)
		}
		for n, cpu := range cpuPerNode(ps, got) {
			if cpu > 4000 {
				t.Errorf("node %s holds %dm of CPU requests, more than its 4000m", n, cpu)
			}
		}
		if got["big"] != "" {
			t.Errorf("the 5-CPU pod was bound to %s", got["big"])
		}
		if !strings.Contains(reasons["big"], "Insufficient cpu") {
			t.Errorf("the 5-CPU pod's reason is %q", reasons["big"])
		}
		if got["picky"] != "" {
			t.Errorf("the pod selecting disktype=ssd was bound to %s", got["picky"])
		}
		if !strings.Contains(reasons["picky"], "didn't match Pod's node affinity/selector") {
			t.Errorf("the picky pod's reason is %q", reasons["picky"])
		}
		if len(reasons) != 2 {
			t.Errorf("reasons for %d pods, want 2: %v", len(reasons), reasons)
		}
	})

	t.Run("taint", func(t *testing.T) {
		ns := nodes(3, 4000, 8*gi, 110)
		ns[0].Spec.Taints = []corev1.Taint{{Key: "dedicated", Value: "infra", Effect: corev1.TaintEffectNoSchedule}}
		var ps []*corev1.Pod
		for i := range 9 {
			ps = append(ps, pod(fmt.Sprintf("app-%d", i), 1000, gi))
		}
		tolerant := pod("tolerant", 1000, gi)
		tolerant.Spec.Tolerations = []corev1.Toleration{{Key: "dedicated", Operator: corev1.TolerationOpEqual, Value: "infra", Effect: corev1.TaintEffectNoSchedule}}
		ps = append(ps, tolerant)
		reasons := map[string]string{}
		got := schedule(t, ProfileDefault, ns, ps, WithReasons(reasons))
		for i := range 8 {
			name := fmt.Sprintf("app-%d", i)
			if got[name] == "" || got[name] == "node-0" {
				t.Errorf("%s: bound to %q, want node-1 or node-2", name, got[name])
			}
		}
		// node-1 and node-2 are full; the ninth untolerating pod cannot go to node-0.
		if got["app-8"] != "" {
			t.Errorf("app-8 was bound to %s", got["app-8"])
		}
		if !strings.Contains(reasons["app-8"], "untolerated taint") {
			t.Errorf("app-8's reason is %q", reasons["app-8"])
		}
		if got["tolerant"] != "node-0" {
			t.Errorf("the tolerating pod was bound to %q, want node-0", got["tolerant"])
		}
	})
}

func TestSpreadsUnderLeastAllocated(t *testing.T) {
	// 1 CPU and 2 GiB on 4 CPU and 8 GiB: the same share of both, so NodeResourcesBalancedAllocation
	// scores every node alike and NodeResourcesFit's strategy alone decides.
	ps := []*corev1.Pod{pod("a", 1000, 2*gi), pod("b", 1000, 2*gi), pod("c", 1000, 2*gi)}
	for _, tc := range []struct {
		profile Profile
		nodes   int
	}{{ProfileDefault, 3}, {ProfileMostAllocated, 1}} {
		got := schedule(t, tc.profile, nodes(3, 4000, 8*gi, 110), ps)
		used := map[string]bool{}
		for _, p := range ps {
			if got[p.Name] == "" {
				t.Fatalf("%s: pod %s Pending", tc.profile, p.Name)
			}
			used[got[p.Name]] = true
		}
		if len(used) != tc.nodes {
			t.Errorf("%s: the pods landed on %d nodes (%v), want %d", tc.profile, len(used), got, tc.nodes)
		}
	}
}

func TestWithObjects(t *testing.T) {
	t.Run("bound pod", func(t *testing.T) {
		// A pod already on node-0 takes 3.5 of its 4 CPUs: MostAllocated would prefer node-0, but the
		// new pod does not fit there.
		ds := pod("ds-node-0", 3500, gi)
		ds.Namespace = "kube-system"
		ds.Spec.NodeName = "node-0"
		got := schedule(t, ProfileMostAllocated, nodes(2, 4000, 8*gi, 110), []*corev1.Pod{pod("app", 1000, gi)}, WithObjects(ds))
		if got["app"] != "node-1" {
			t.Errorf("app bound to %q, want node-1", got["app"])
		}
	})

	t.Run("ReplicaSet spreads", func(t *testing.T) {
		// MostAllocated packs six small pods onto one node; once a ReplicaSet selects them, the
		// system-default hostname spread (weight 2) outweighs it.
		rs := replicaSet("web")
		var ps []*corev1.Pod
		for i := range 6 {
			ps = append(ps, owns(rs, pod(fmt.Sprintf("web-%d", i), 500, gi)))
		}
		count := func(got map[string]string) int {
			used := map[string]bool{}
			for _, n := range got {
				if n == "" {
					t.Fatalf("a pod stayed Pending: %v", got)
				}
				used[n] = true
			}
			return len(used)
		}
		if n := count(schedule(t, ProfileMostAllocated, nodes(3, 8000, 16*gi, 110), ps)); n != 1 {
			t.Errorf("without the ReplicaSet the pods landed on %d nodes, want 1", n)
		}
		if n := count(schedule(t, ProfileMostAllocated, nodes(3, 8000, 16*gi, 110), ps, WithObjects(rs))); n < 2 {
			t.Errorf("with the ReplicaSet the pods landed on %d node, want more", n)
		}
	})
}

func TestDefaultConfiguration(t *testing.T) {
	cfg, err := configuration(ProfileDefault)
	if err != nil {
		t.Fatal(err)
	}
	if p := cfg.PercentageOfNodesToScore; p == nil || *p != 0 {
		t.Errorf("percentageOfNodesToScore = %v, want 0 (adaptive)", p)
	}
	if len(cfg.Profiles) != 1 || cfg.Profiles[0].SchedulerName != corev1.DefaultSchedulerName {
		t.Fatalf("profiles: %+v", cfg.Profiles)
	}
	weights := map[string]int32{}
	for _, p := range cfg.Profiles[0].Plugins.MultiPoint.Enabled {
		weights[p.Name] = p.Weight
	}
	t.Logf("multiPoint plugins and weights: %v", weights)
	var gates []string
	for _, g := range []featuregate.Feature{
		features.SchedulerPopFromBackoffQ, features.SchedulerAsyncAPICalls,
		features.NominatedNodeNameForExpectation, features.DynamicResourceAllocation, features.GenericWorkload,
		features.NodeDeclaredFeatures, features.InPlacePodVerticalScalingSchedulerPreemption,
	} {
		gates = append(gates, fmt.Sprintf("%s=%t", g, utilfeature.DefaultFeatureGate.Enabled(g)))
	}
	t.Logf("feature gates: %s", strings.Join(gates, " "))
	for name, w := range map[string]int32{
		"TaintToleration": 3, "NodeAffinity": 2, "NodeResourcesFit": 1, "PodTopologySpread": 2,
		"InterPodAffinity": 2, "NodeResourcesBalancedAllocation": 1, "ImageLocality": 1,
	} {
		if weights[name] != w {
			t.Errorf("%s weight %d, want %d", name, weights[name], w)
		}
	}
	for _, pc := range cfg.Profiles[0].PluginConfig {
		switch args := pc.Args.(type) {
		case *schedconfig.NodeResourcesFitArgs:
			if args.ScoringStrategy.Type != schedconfig.LeastAllocated || fmt.Sprint(args.ScoringStrategy.Resources) != "[{cpu 1} {memory 1}]" {
				t.Errorf("NodeResourcesFit scoring strategy %+v", args.ScoringStrategy)
			}
		case *schedconfig.PodTopologySpreadArgs:
			if args.DefaultingType != schedconfig.SystemDefaulting {
				t.Errorf("PodTopologySpread defaulting %q", args.DefaultingType)
			}
		}
	}
	most, err := configuration(ProfileMostAllocated)
	if err != nil {
		t.Fatal(err)
	}
	for _, pc := range most.Profiles[0].PluginConfig {
		if args, ok := pc.Args.(*schedconfig.NodeResourcesFitArgs); ok && args.ScoringStrategy.Type != schedconfig.MostAllocated {
			t.Errorf("most-allocated: NodeResourcesFit scoring strategy %+v", args.ScoringStrategy)
		}
	}
}

func TestNoLeakedGoroutines(t *testing.T) {
	ns := nodes(3, 4000, 8*gi, 110)
	ps := []*corev1.Pod{pod("a", 1000, gi), pod("b", 5000, gi)}
	schedule(t, ProfileDefault, ns, ps) // process-wide goroutines start once (metrics, klog)
	before := runtime.NumGoroutine()
	for range 3 {
		schedule(t, ProfileDefault, ns, ps)
	}
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			t.Fatalf("%d goroutines before, %d after:\n%s", before, runtime.NumGoroutine(), buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// benchmarkCluster is 100 nodes of 8 vCPU (allocatable 7,900m, 30 GiB, 110 pods) and 1,000 pods of 40
// workloads (ReplicaSets) of 25 replicas, each workload's requests drawn from CPU {100, 250, 500, 1000,
// 1500}m and memory 100 MiB .. 4 GiB (PCG seed 1), the pods in a random order.
func benchmarkCluster() ([]*corev1.Node, []*corev1.Pod, []k8sruntime.Object) {
	rng := rand.New(rand.NewPCG(1, 0))
	cpus := []int64{100, 250, 500, 1000, 1500}
	var objs []k8sruntime.Object
	var ps []*corev1.Pod
	for w := range 40 {
		rs := replicaSet(fmt.Sprintf("w%02d", w))
		objs = append(objs, rs)
		cpu := cpus[rng.IntN(len(cpus))]
		mem := (100 + rng.Int64N(4096-100+1)) * mi
		for r := range 25 {
			ps = append(ps, owns(rs, pod(fmt.Sprintf("%s-%02d", rs.Name, r), cpu, mem)))
		}
	}
	rng.Shuffle(len(ps), func(i, j int) { ps[i], ps[j] = ps[j], ps[i] })
	return nodes(100, 7900, 30*gi, 110), ps, objs
}

func BenchmarkRealScheduler1000(b *testing.B) {
	ns, ps, objs := benchmarkCluster()
	pending := 0
	for b.Loop() {
		got := schedule(b, ProfileDefault, ns, ps, WithObjects(objs...))
		pending = 0
		for _, n := range got {
			if n == "" {
				pending++
			}
		}
	}
	b.ReportMetric(float64(pending), "pending")
}
