package nodegroup

// Oracle: Karpenter's real provisioning scheduler (sigs.k8s.io/karpenter v1.14.1,
// pkg/controllers/provisioning/scheduling), built in-process as its own scheduling_benchmark_test.go builds it:
// a controller-runtime fake client, an empty cluster state, NewTopology and NewScheduler over one NodePool (the
// NodePool kubefit renders, decoded into Karpenter's type) and one instance type whose allocatable is the node
// kubefit plans (capacity as the overhead model gives it, less kube-reserved to kubefit's allocatable), with
// the group's DaemonSets as daemon pods (Karpenter derives their overhead itself) and the peak's pods pending.
// No API server or envtest is needed. Like crd_test.go, this file is the only importer of these Karpenter
// packages and controller-runtime's fake client, so they stay out of the provider binary.

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apiresource "k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/record"
	"k8s.io/utils/clock"
	fakecr "sigs.k8s.io/controller-runtime/pkg/client/fake"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/karpenter/pkg/cloudprovider"
	karpsched "sigs.k8s.io/karpenter/pkg/controllers/provisioning/scheduling"
	"sigs.k8s.io/karpenter/pkg/controllers/state"
	"sigs.k8s.io/karpenter/pkg/events"
	"sigs.k8s.io/karpenter/pkg/operator/injection"
	karpopts "sigs.k8s.io/karpenter/pkg/operator/options"
	karpscheduling "sigs.k8s.io/karpenter/pkg/scheduling"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/resource"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/sizing"
)

// realKarpenter runs Karpenter's provisioning scheduler on the group's peak pods against the NodePool kubefit
// rendered; with unlimited set, the NodePool's limits are removed (what Karpenter launches unconstrained).
// It returns the NodeClaims' pod counts and how many pods did not schedule.
func realKarpenter(t *testing.T, req Request, r *Result, nodePool map[string]any, unlimited bool) (claims []int, podErrors int) {
	t.Helper()
	b, err := json.Marshal(nodePool)
	if err != nil {
		t.Fatal(err)
	}
	var np karpv1.NodePool
	if err := json.Unmarshal(b, &np); err != nil {
		t.Fatal(err)
	}
	if unlimited {
		np.Spec.Limits = nil
	}
	it := realInstanceType(r)
	its := map[string][]*cloudprovider.InstanceType{np.Name: {it}}
	pods := realPods(req, r)
	ctx := karpopts.ToContext(injection.WithControllerName(context.Background(), "provisioner"), &karpopts.Options{
		PreferencePolicy: karpopts.PreferencePolicyRespect, MinValuesPolicy: karpopts.MinValuesPolicyStrict, IgnoreDRARequests: true,
		FeatureGates: karpopts.FeatureGates{ReservedCapacity: true}})
	client := fakecr.NewFakeClient()
	clk := clock.RealClock{}
	cluster := state.NewCluster(clk, client, nil)
	nps := []*karpv1.NodePool{&np}
	topology, err := karpsched.NewTopology(ctx, client, cluster, nil, nps, its, pods)
	if err != nil {
		t.Fatal(err)
	}
	s := karpsched.NewScheduler(ctx, client, nps, cluster, nil, topology, its, realDaemonPods(req, r),
		events.NewRecorder(&record.FakeRecorder{}), clk, nil, nil)
	res, err := s.Solve(ctx, pods)
	if err != nil {
		t.Fatal(err)
	}
	for _, nc := range res.NewNodeClaims {
		claims = append(claims, len(nc.Pods))
	}
	return claims, len(res.PodErrors)
}

// realInstanceType is the group's instance type as a Karpenter cloud provider offers it: every zone of the
// group (or one) in both capacity types, capacity the overhead model's, allocatable kubefit's node.
func realInstanceType(r *Result) *cloudprovider.InstanceType {
	zs := append([]string(nil), r.Capacity.Zones...)
	if len(zs) == 0 {
		zs = []string{"test-zone-a"}
	}
	arch := "amd64"
	if r.Pool.Instance.Architecture == catalog.ArchARM64 {
		arch = "arm64"
	}
	var offerings cloudprovider.Offerings
	for _, z := range zs {
		for _, ct := range []string{"on-demand", "spot"} {
			offerings = append(offerings, &cloudprovider.Offering{Available: true, Price: 1,
				Requirements: karpscheduling.NewLabelRequirements(map[string]string{karpv1.CapacityTypeLabelKey: ct, corev1.LabelTopologyZone: z})})
		}
	}
	alloc, capy := r.Pool.Allocatable, r.Pool.Overhead.Capacity
	return &cloudprovider.InstanceType{
		Name: r.Pool.Instance.Name,
		Requirements: karpscheduling.NewRequirements(
			karpscheduling.NewRequirement(corev1.LabelInstanceTypeStable, corev1.NodeSelectorOpIn, r.Pool.Instance.Name),
			karpscheduling.NewRequirement(corev1.LabelArchStable, corev1.NodeSelectorOpIn, arch),
			karpscheduling.NewRequirement(corev1.LabelOSStable, corev1.NodeSelectorOpIn, "linux"),
			karpscheduling.NewRequirement(corev1.LabelTopologyZone, corev1.NodeSelectorOpIn, zs...),
			karpscheduling.NewRequirement(karpv1.CapacityTypeLabelKey, corev1.NodeSelectorOpIn, "on-demand", "spot"),
		),
		Offerings: offerings,
		Capacity: corev1.ResourceList{
			corev1.ResourceCPU:              *apiresource.NewMilliQuantity(capy.CPUMillicores, apiresource.DecimalSI),
			corev1.ResourceMemory:           *apiresource.NewQuantity(capy.MemoryBytes, apiresource.BinarySI),
			corev1.ResourceEphemeralStorage: *apiresource.NewQuantity(alloc.EphemeralStorageBytes, apiresource.BinarySI),
			corev1.ResourcePods:             *apiresource.NewQuantity(alloc.Pods, apiresource.DecimalSI),
		},
		Overhead: &cloudprovider.InstanceTypeOverhead{KubeReserved: corev1.ResourceList{
			corev1.ResourceCPU:    *apiresource.NewMilliQuantity(capy.CPUMillicores-alloc.CPUMillicores, apiresource.DecimalSI),
			corev1.ResourceMemory: *apiresource.NewQuantity(capy.MemoryBytes-alloc.MemoryBytes, apiresource.BinarySI),
		}},
	}
}

func requests(l resource.List) corev1.ResourceList {
	rl := corev1.ResourceList{corev1.ResourceCPU: *apiresource.NewMilliQuantity(l.CPUMillicores, apiresource.DecimalSI),
		corev1.ResourceMemory: *apiresource.NewQuantity(l.MemoryBytes, apiresource.BinarySI)}
	if l.EphemeralStorageBytes > 0 {
		rl[corev1.ResourceEphemeralStorage] = *apiresource.NewQuantity(l.EphemeralStorageBytes, apiresource.BinarySI)
	}
	return rl
}

func containerPorts(ps []fit.HostPort) []corev1.ContainerPort {
	var out []corev1.ContainerPort
	for _, p := range ps {
		proto := corev1.ProtocolTCP
		if p.Protocol != "" {
			proto = corev1.Protocol(p.Protocol)
		}
		out = append(out, corev1.ContainerPort{ContainerPort: int32(p.Port), HostPort: int32(p.Port), HostIP: p.IP, Protocol: proto})
	}
	return out
}

func tolerations(ts []fit.Toleration) []corev1.Toleration {
	var out []corev1.Toleration
	for _, t := range ts {
		out = append(out, corev1.Toleration{Key: t.Key, Operator: corev1.TolerationOperator(t.Operator), Value: t.Value, Effect: corev1.TaintEffect(t.Effect)})
	}
	return out
}

// created is the one creation time every pod shares: the queue then orders equal pods by UID, which
// realPods numbers in request order.
var created = metav1.NewTime(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))

func realDaemonPods(req Request, r *Result) []*corev1.Pod {
	var out []*corev1.Pod
	// The group's DaemonSets and the platform's system DaemonSets kubefit counts beside them (aws-node and
	// kube-proxy on EKS), which run on the real nodes too.
	for i, d := range append(slices.Clone(req.DaemonSets), r.Plan.Pools[0].SystemDaemonSets...) {
		out = append(out, &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Name: d.Name, Namespace: "kube-system", UID: types.UID(fmt.Sprintf("ds-%03d", i)), CreationTimestamp: created},
			Spec: corev1.PodSpec{NodeSelector: d.NodeSelector, Tolerations: tolerations(d.Tolerations),
				Containers: []corev1.Container{{Name: "c", Resources: corev1.ResourceRequirements{Requests: requests(d.Requests)}, Ports: containerPorts(d.HostPorts)}}},
		})
	}
	return out
}

// realPods are the peak's pods on the group's pool, as pending Kubernetes pods, in request order.
func realPods(req Request, r *Result) []*corev1.Pod {
	var out []*corev1.Pod
	for i, w := range req.Workloads {
		n := 0
		for _, pp := range r.Plan.Workloads[i].Peak.Pools {
			if pp.Pool == r.Pool.Name {
				n += pp.Pods
			}
		}
		lbls := fit.PodLabels(&fit.Workload{Name: w.Name, Labels: w.Labels})
		ns := w.Namespace
		if ns == "" {
			ns = "default"
		}
		var aff *corev1.Affinity
		addAnti := func(t corev1.PodAffinityTerm, preferred bool) {
			if aff == nil {
				aff = &corev1.Affinity{PodAntiAffinity: &corev1.PodAntiAffinity{}}
			}
			if preferred {
				aff.PodAntiAffinity.PreferredDuringSchedulingIgnoredDuringExecution = append(aff.PodAntiAffinity.PreferredDuringSchedulingIgnoredDuringExecution,
					corev1.WeightedPodAffinityTerm{Weight: 100, PodAffinityTerm: t})
				return
			}
			aff.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution = append(aff.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution, t)
		}
		if w.Spread.Type == fit.SpreadNode {
			addAnti(corev1.PodAffinityTerm{LabelSelector: &metav1.LabelSelector{MatchLabels: lbls}, TopologyKey: hostnameLabel}, false)
		}
		if w.PodAffinity != nil {
			for _, t := range w.PodAffinity.AntiRequired {
				addAnti(t.Kube(), false)
			}
			for _, t := range w.PodAffinity.AntiPreferred {
				addAnti(t.Term.Kube(), true)
			}
		}
		var tsc []corev1.TopologySpreadConstraint
		for _, c := range w.TopologySpread {
			tsc = append(tsc, corev1.TopologySpreadConstraint{MaxSkew: int32(c.MaxSkew), TopologyKey: c.TopologyKey,
				WhenUnsatisfiable: corev1.UnsatisfiableConstraintAction(c.WhenUnsatisfiable), LabelSelector: c.Selector.Kube(), MatchLabelKeys: c.MatchLabelKeys})
		}
		for k := range n {
			out = append(out, &corev1.Pod{
				ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("%s-%d", w.Name, k), Namespace: ns, Labels: lbls,
					UID: types.UID(fmt.Sprintf("pod-%06d", len(out))), CreationTimestamp: created},
				Spec: corev1.PodSpec{NodeSelector: w.NodeSelector, Tolerations: tolerations(w.Tolerations), Affinity: aff, TopologySpreadConstraints: tsc,
					Containers: []corev1.Container{{Name: "c", Resources: corev1.ResourceRequirements{Requests: requests(w.Requests)}, Ports: containerPorts(w.HostPorts)}}},
				Status: corev1.PodStatus{Phase: corev1.PodPending, Conditions: []corev1.PodCondition{{Type: corev1.PodScheduled, Status: corev1.ConditionFalse, Reason: corev1.PodReasonUnschedulable}}},
			})
		}
	}
	return out
}

// oracleCases are generated groups (one instance type, four workloads of mixed sizes, a DaemonSet) and a few
// with the constraints the model covers.
func oracleCases() []struct {
	name string
	req  Request
} {
	var cases []struct {
		name string
		req  Request
	}
	for _, it := range []string{"m5.xlarge", "c5.2xlarge"} {
		for seed := int64(0); seed < 8; seed++ {
			cases = append(cases, struct {
				name string
				req  Request
			}{fmt.Sprintf("%s_seed%d", it, seed), generatedGroup(it, seed)})
		}
	}
	// TestKarpenterLimits' group, where Karpenter launches one NodeClaim more than kubefit's scheduler model needs.
	cases = append(cases, struct {
		name string
		req  Request
	}{"m5.xlarge_seed38", generatedGroup("m5.xlarge", 38)})
	ds := generatedGroup("", 0).DaemonSets
	constrained := Request{Pool: sizing.Pool{Name: "c", Cloud: catalog.AWS, InstanceTypes: []string{"m5.2xlarge"}, Zones: []string{"us-east-1a", "us-east-1b"}},
		DaemonSets: ds, Workloads: []sizing.Workload{
			{Name: "db", Replicas: intp(6), Requests: fit.Resources{CPUMillicores: 1500, MemoryBytes: 4 << 30}, Spread: fit.Spread{Type: fit.SpreadNode}},
			{Name: "api", Replicas: intp(20), Requests: fit.Resources{CPUMillicores: 700, MemoryBytes: 1 << 30},
				PodAffinity: &fit.PodAffinity{AntiPreferred: []fit.WeightedPodAffinityTerm{{Weight: 50, Term: fit.PodAffinityTerm{
					Selector: fit.LabelSelector{MatchLabels: map[string]string{"app": "api"}}, TopologyKey: hostnameLabel}}}}},
			{Name: "web", Replicas: intp(24), Requests: fit.Resources{CPUMillicores: 300, MemoryBytes: 512 << 20},
				TopologySpread: []fit.TopologySpreadConstraint{{MaxSkew: 3, TopologyKey: hostnameLabel, WhenUnsatisfiable: fit.DoNotSchedule,
					Selector: fit.LabelSelector{MatchLabels: map[string]string{"app": "web"}}}}},
			{Name: "edge", Replicas: intp(5), Requests: fit.Resources{CPUMillicores: 200, MemoryBytes: 256 << 20}, HostPorts: []fit.HostPort{{Port: 8443}}},
		}}
	cases = append(cases, struct {
		name string
		req  Request
	}{"hostname_constraints", constrained})
	return cases
}

// TestKarpenterProvisionMatchesRealScheduler checks, on generated groups, that kubefit's model of Karpenter's
// provisioning launches exactly as many NodeClaims, with the same pod counts, as the real scheduler; and that
// the NodePool kubefit renders lets the real scheduler place every peak pod within its limits.
func TestKarpenterProvisionMatchesRealScheduler(t *testing.T) {
	if testing.Short() {
		t.Skip("runs Karpenter's scheduler")
	}
	p := sizing.NewPlanner(sizing.EmbeddedCatalog())
	for _, c := range oracleCases() {
		t.Run(c.name, func(t *testing.T) {
			r, err := Size(context.Background(), p, c.req)
			if err != nil {
				t.Fatal(err)
			}
			if r.Karpenter.Unmodelled != "" {
				t.Fatalf("not modelled: %s", r.Karpenter.Unmodelled)
			}
			out, err := Render(c.req, r)
			if err != nil {
				t.Fatal(err)
			}
			pods, ports, _ := karpenterBatch(c.req, r)
			counts := func(p KarpenterProvisioning) []int {
				var n []int
				for _, nc := range p.NodeClaims {
					n = append(n, len(nc.Pods))
				}
				return n
			}
			// Without limits: what Karpenter launches for the peak.
			real, errs := realKarpenter(t, c.req, r, out.KarpenterNodePool, true)
			model, err := KarpenterProvision(r.Pool.WorkloadAllocatable, ports, pods, 0)
			if err != nil {
				t.Fatal(err)
			}
			mine := counts(model)
			if errs != len(model.Unschedulable) || fmt.Sprint(sortedCopy(real)) != fmt.Sprint(sortedCopy(mine)) {
				t.Errorf("unlimited: real Karpenter %d NodeClaims with pods %v, %d pod errors; model %d with %v, %d unschedulable",
					len(real), real, errs, len(mine), mine, len(model.Unschedulable))
			}
			// Within the limits kubefit renders: every pod placed, as the model says.
			limited, lerrs := realKarpenter(t, c.req, r, out.KarpenterNodePool, false)
			lmodel, err := KarpenterProvision(r.Pool.WorkloadAllocatable, ports, pods, r.Karpenter.LimitNodes)
			if err != nil {
				t.Fatal(err)
			}
			lmine := counts(lmodel)
			if lerrs != 0 || len(lmodel.Unschedulable) != 0 || fmt.Sprint(sortedCopy(limited)) != fmt.Sprint(sortedCopy(lmine)) {
				t.Errorf("within limits for %d nodes: real Karpenter %d NodeClaims with pods %v, %d pod errors; model %d with %v, %d unschedulable; want 0 errors",
					r.Karpenter.LimitNodes, len(limited), limited, lerrs, len(lmine), lmine, len(lmodel.Unschedulable))
			}
			// One node fewer (when Karpenter bound the limits): some pod is left unscheduled.
			if r.Karpenter.BoundBy == BoundByKarpenter && c.req.HeadroomPercent == 0 {
				np := jsonRoundTrip(t, out.KarpenterNodePool)
				n := int64(r.Karpenter.LimitNodes - 1)
				cp := r.Pool.Overhead.Capacity
				np["spec"].(map[string]any)["limits"] = map[string]any{"cpu": resource.QuantityCPU(cp.CPUMillicores * n), "memory": resource.QuantityBytes(cp.MemoryBytes * n)}
				if _, e := realKarpenter(t, c.req, r, np, false); e == 0 {
					t.Errorf("limits for %d nodes also place every pod: the limit is not the smallest", n)
				}
			}
			t.Logf("kubefit realistic %d (optimal %d), max size %d | Karpenter unlimited: model %d, real %d NodeClaims; needed %d; limits for %d nodes (%s): real %d NodeClaims, %d relaxed (model)",
				r.PeakNodes, r.Pool.Peak.NodesOptimal, r.MaxSize, len(mine), len(real), r.Karpenter.Needed, r.Karpenter.LimitNodes, r.Karpenter.BoundBy, len(limited), lmodel.Relaxed)
		})
	}
}

func sortedCopy(xs []int) []int {
	out := append([]int(nil), xs...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}
