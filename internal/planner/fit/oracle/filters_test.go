package oracle

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apiserver/pkg/util/feature"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/tools/events"
	resourceslicetracker "k8s.io/dynamic-resource-allocation/resourceslice/tracker"
	"k8s.io/klog/v2"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/features"
	"k8s.io/kubernetes/pkg/scheduler"
	internalcache "k8s.io/kubernetes/pkg/scheduler/backend/cache"
	"k8s.io/kubernetes/pkg/scheduler/framework"
	frameworkplugins "k8s.io/kubernetes/pkg/scheduler/framework/plugins"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/dynamicresources"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/nodevolumelimits"
	frameworkruntime "k8s.io/kubernetes/pkg/scheduler/framework/runtime"
	"k8s.io/kubernetes/pkg/scheduler/metrics"
	"k8s.io/kubernetes/pkg/scheduler/util/assumecache"
)

// issueFilters are the Filter plugins issue 18 names; the profiles must run every one of them.
var issueFilters = []string{"NodeAffinity", "InterPodAffinity", "PodTopologySpread", "NodePorts", "NodeVolumeLimits",
	"VolumeZone", "TaintToleration", "NodeResourcesFit"}

// tieBreakVariant is how fit names an order checked again under another seed of its random tie-breaks
// (sched_search.go, tieBreakVariants): "<order> (other random tie-breaks, #k)", with the seed
// <order's seed> + 1000·k. Neither the suffix nor the seed is exported; the seed is reproduced through
// fit.Order.Seed, and TestPlacementFilters checks it by comparing fit.Place's nodes with the reported ones.
const tieBreakVariant = " (other random tie-breaks, #%d)"

// reportedOrder returns the order whose run on the final counts gives the node lists a plan reports
// (fit's realistic: the order named by ScenarioResult.BoundBy, the first planned order when BoundBy is ""),
// with its seed.
func reportedOrder(in fit.Input, boundBy string) (fit.Order, error) {
	orders, err := fit.Orders(in, fit.ScenarioSteady)
	if err != nil {
		return fit.Order{}, err
	}
	if boundBy == "" {
		return orders[0], nil
	}
	for _, o := range orders {
		if o.Name == boundBy {
			return o, nil
		}
	}
	for _, o := range orders {
		rest, ok := strings.CutPrefix(boundBy, o.Name)
		var k uint64
		if n, err := fmt.Sscanf(rest, tieBreakVariant, &k); ok && err == nil && n == 1 && fmt.Sprintf(tieBreakVariant, k) == rest {
			o.Name, o.Seed = boundBy, o.Seed+1000*k
			return o, nil
		}
	}
	return fit.Order{}, fmt.Errorf("BoundBy %q names none of the planned orders", boundBy)
}

// finalCounts are the node counts of the reported placement: each pool's NodesRequired, at most its MaxNodes
// (the scheduler model's final run is on these capped counts).
func finalCounts(in fit.Input, sr fit.ScenarioResult) []int {
	counts := make([]int, len(sr.Pools))
	for p, pr := range sr.Pools {
		counts[p] = min(pr.NodesRequired, in.Pools[p].MaxNodes)
	}
	return counts
}

// nodeLists are the pods of each workload on each node of each pool, as fit.Place's placement puts them:
// per pool, per node (0-based index), the workloads in the order they were first placed there.
func nodeLists(in fit.Input, counts []int, o fit.Order, refs []fit.NodeRef) [][][]fit.WorkloadPods {
	out := make([][][]fit.WorkloadPods, len(counts))
	for p := range counts {
		out[p] = make([][]fit.WorkloadPods, counts[p])
	}
	for i, r := range refs {
		if r.Pool < 0 {
			continue
		}
		name := in.Workloads[o.Pods[i]].Name
		node := out[r.Pool][r.Index]
		k := slices.IndexFunc(node, func(w fit.WorkloadPods) bool { return w.Workload == name })
		if k < 0 {
			node = append(node, fit.WorkloadPods{Workload: name})
			k = len(node) - 1
		}
		node[k].Pods++
		out[r.Pool][r.Index] = node
	}
	return out
}

// filterFailure is a pod that the real scheduler's PreFilter or Filter plugins turn away from the node
// kubefit put it on.
type filterFailure struct {
	index     int // in the order
	pod, node string
	plugin    string // the plugin whose status failed
	point     string // "PreFilter" or "Filter"
	message   string
}

func (f filterFailure) String() string {
	return fmt.Sprintf("pod #%d %s on node %s: %s %s: %s", f.index, f.pod, f.node, f.point, f.plugin, f.message)
}

// replayFilters checks a placement against the real scheduler's filters: the cluster of ci (nodes, objects
// and pods built by FromPlan, with the API server's defaulting, as Schedule creates them), and the pods of
// ci in order, pod i on node nodes[i] ("" = kubefit left it Pending: skipped). For every pod it runs the
// profile's PreFilter plugins, then its Filter plugins on that node (frameworkruntime.NewFramework with the
// in-tree registry and the profile's configuration, as scheduler.New builds it), on a snapshot holding the
// nodes, the pods already bound (DaemonSet pods) and every pod bound before it, each on its node; a pod
// that passes is added on its node. The informers the plugins read (claims, volumes, CSINodes, CSIDrivers,
// namespaces, ReplicaSets) come from a fake clientset holding the objects.
//
// A pod turned away at its turn waits and is retried after the last pod, in order, in passes until none
// binds: kubefit's model binds a pod it rejects at its turn on such a retry (fit's cluster.run: zone-spread
// pods, pods with a required pod affinity or with their own topology spread constraints), as kube-scheduler
// retries an unschedulable pod once a later pod lets it in, and fit.Place reports its node by its place in
// the order, not by when it bound. Retrying loosens nothing that does not depend on order: resources,
// volume attachments and host ports only fill up and anti-affinity is checked both ways, so a pod bound on
// a retry is checked against every pod bound before it, and every later pod against it. The pods still
// turned away after the retries are the failures (the status of their last attempt); those bound on a retry
// are reported with the status of their first attempt.
func replayFilters(t testing.TB, profile Profile, ci Input, nodes []string) replay {
	t.Helper()
	if len(nodes) != len(ci.Pods) {
		t.Fatalf("%d nodes for %d pods", len(nodes), len(ci.Pods))
	}
	ctx, f, snapshot, pods := replayFramework(t, profile, ci)
	// check runs pod i's scheduling cycle on its node, up to the Filter plugins: nil when it passes.
	check := func(i int) *filterFailure {
		pod, node := pods[i], nodes[i]
		fail := func(point string, st *fwk.Status) *filterFailure {
			msg := st.Message()
			if msg == "" {
				msg = strings.Join(st.Reasons(), "; ")
			}
			return &filterFailure{index: i, pod: pod.Name, node: node, plugin: st.Plugin(), point: point, message: msg}
		}
		state := framework.NewCycleState()
		state.Write(framework.PodsToActivateKey, framework.NewPodsToActivate())
		pre, st, _ := f.RunPreFilterPlugins(ctx, state, pod)
		switch {
		case !st.IsSuccess():
			return fail("PreFilter", st)
		case !pre.AllNodes() && !pre.NodeNames.Has(node):
			return fail("PreFilter", fwk.NewStatus(fwk.UnschedulableAndUnresolvable,
				fmt.Sprintf("the PreFilter result allows only the nodes %v", sets.List(pre.NodeNames))))
		}
		ni, err := snapshot.NodeInfos().Get(node)
		if err != nil {
			t.Fatalf("pod %s: node %s: %v", pod.Name, node, err)
		}
		if st := f.RunFilterPlugins(ctx, state, pod, ni); !st.IsSuccess() {
			return fail("Filter", st)
		}
		return nil
	}
	add := func(i int) {
		placed := pods[i].DeepCopy()
		placed.Spec.NodeName = nodes[i]
		pi, err := framework.NewPodInfo(placed)
		if err != nil {
			t.Fatal(err)
		}
		if err := snapshot.AddPod(pi, nodes[i]); err != nil {
			t.Fatal(err)
		}
	}
	var r replay
	var waiting []int
	first := map[int]*filterFailure{}
	for i := range pods {
		if nodes[i] == "" {
			continue
		}
		if fl := check(i); fl != nil {
			waiting = append(waiting, i)
			first[i] = fl
			continue
		}
		add(i)
	}
	last := map[int]*filterFailure{}
	for progress := true; progress && len(waiting) > 0; {
		progress = false
		left := waiting[:0]
		for _, i := range waiting {
			if fl := check(i); fl != nil {
				last[i] = fl
				left = append(left, i)
				continue
			}
			progress = true
			r.retried = append(r.retried, *first[i])
			add(i)
		}
		waiting = left
	}
	for _, i := range waiting {
		r.failures = append(r.failures, *last[i])
	}
	return r
}

// replay is the outcome of replayFilters: the pods the filters turn away from their nodes for good, and
// the pods turned away at their turn that passed on a retry after the others (the first failure of each).
type replay struct {
	failures, retried []filterFailure
}

// placement is kubefit's reported placement of one generated case: the plan, the order whose final run it
// reports, the final counts, fit.Place's nodes and the oracle's cluster for them.
type placement struct {
	in     fit.Input
	sr     fit.ScenarioResult
	order  fit.Order
	counts []int
	refs   []fit.NodeRef
	ci     Input
	nodes  []string // per pod of ci, its node's name ("" = Pending)
}

// planPlacement plans in and reproduces the placement its steady scenario reports.
func planPlacement(t testing.TB, in fit.Input) placement {
	t.Helper()
	res, err := fit.Plan(in)
	if err != nil {
		t.Fatal(err)
	}
	sr := res.Scenarios[0]
	o, err := reportedOrder(in, sr.BoundBy)
	if err != nil {
		t.Fatal(err)
	}
	counts := finalCounts(in, sr)
	refs, err := fit.Place(in, fit.ScenarioSteady, counts, o)
	if err != nil {
		t.Fatal(err)
	}
	pl := placement{in: in, sr: sr, order: o, counts: counts, refs: refs, ci: FromPlan(in, res, fit.ScenarioSteady, counts, o)}
	pl.nodes = nodeNames(in, refs)
	return pl
}

// nodeNames names the node of every pod as FromPlan names the nodes ("" for a Pending pod).
func nodeNames(in fit.Input, refs []fit.NodeRef) []string {
	out := make([]string, len(refs))
	for i, r := range refs {
		if r.Pool >= 0 {
			out[i] = fmt.Sprintf("%s-%d", in.Pools[r.Pool].Name, r.Index) // FromPlan's node names
		}
	}
	return out
}

// profileOf is the oracle's profile for the input's scheduler profile.
func profileOf(in fit.Input) Profile {
	if in.Scheduler == fit.ProfileMostAllocated {
		return ProfileMostAllocated
	}
	return ProfileDefault
}

// TestPlacementFilters: on the generated cases of TestNeverBelowRealScheduler, under both profiles, the node
// lists kubefit reports pass the real scheduler's own filters. The reported placement is the scheduler
// model's final run (fit.Place) of the order ScenarioResult.BoundBy names (the first order when it is "", a
// tie-break variant with its seed) on the final counts; the test first checks that fit.Place's pods per
// node are the reported node lists (ScenarioResult.Pools[p].Nodes[i].Workloads, every pod placed), then
// replays the pods in order through the real PreFilter and Filter plugins of the profile
// (replayFilters), each on its node with every pod bound before it on its own: every pod must pass them all,
// at its turn or on a retry after the others (as the model and kube-scheduler retry a rejected pod). The
// log counts the pods bound on a retry, with what turned them away first.
func TestPlacementFilters(t *testing.T) {
	if testing.Short() {
		t.Skip("plans every generated case twice")
	}
	for _, tc := range generatedCases() {
		for _, prof := range fit.SchedulerProfiles {
			t.Run(tc.name+"/"+string(prof), func(t *testing.T) {
				in := tc.in
				in.Scheduler = prof
				pl := planPlacement(t, in)
				if !checkNodeLists(t, pl) {
					return
				}
				r := replayFilters(t, profileOf(in), pl.ci, pl.nodes)
				for _, f := range r.retried {
					if w := &in.Workloads[pl.order.Pods[f.index]]; !modelRetries(w) {
						t.Errorf("%s: bound only on a retry, but the model binds pods of %s at their turn or never", f, w.Name)
					}
				}
				for k, f := range r.failures {
					if k == 20 {
						t.Errorf("... and %d more", len(r.failures)-k)
						break
					}
					t.Errorf("%s", f)
				}
				t.Logf("%d pods on %v nodes (order %q, seed %d): %d turned away by the real filters; %d bound on a retry%s",
					len(pl.ci.Pods), pl.counts, pl.order.Name, pl.order.Seed, len(r.failures), len(r.retried), summary(r.retried))
			})
		}
	}
}

// modelRetries says whether fit's model retries a pod of w it rejects at its turn after the last pod
// (cluster.run): a zone spread, a required pod affinity or topology spread constraints of its own. Other
// pods it binds at their turn or never.
func modelRetries(w *fit.Workload) bool {
	return w.Spread.Type == fit.SpreadZone || w.PodAffinity != nil && len(w.PodAffinity.Required) > 0 || len(w.TopologySpread) > 0
}

// summary counts the failures per workload, plugin and message: " (app-10 ×12: InterPodAffinity: ...)".
func summary(fs []filterFailure) string {
	type key struct{ workload, plugin, msg string }
	n := map[key]int{}
	var keys []key
	for _, f := range fs {
		k := key{f.pod[:strings.LastIndex(f.pod, "-")], f.plugin, f.message}
		if n[k] == 0 {
			keys = append(keys, k)
		}
		n[k]++
	}
	var parts []string
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s ×%d: %s: %s", k.workload, n[k], k.plugin, k.msg))
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, "; ") + ")"
}

// checkNodeLists checks that fit.Place's placement is the one kubefit reports: every pool lists its final
// count of nodes, none beyond MaxNodes, and each node holds fit.Place's pods of each workload, in the order
// the workloads came to it; no pod is left Pending. It reports whether they agree.
func checkNodeLists(t *testing.T, pl placement) bool {
	t.Helper()
	ok := true
	for i, r := range pl.refs {
		if r.Pool < 0 {
			t.Errorf("fit.Place leaves pod #%d (%s) Pending", i, pl.ci.Pods[i].Name)
			ok = false
		}
	}
	lists := nodeLists(pl.in, pl.counts, pl.order, pl.refs)
	for p, pr := range pl.sr.Pools {
		if len(pr.Nodes) != pl.counts[p] {
			t.Errorf("pool %s: %d nodes reported, the final count is %d", pr.Pool, len(pr.Nodes), pl.counts[p])
			ok = false
		}
		for i, n := range pr.Nodes {
			if n.BeyondMax || n.Index != i+1 {
				t.Errorf("pool %s: reported node #%d has Index %d, BeyondMax %v", pr.Pool, i, n.Index, n.BeyondMax)
				ok = false
				continue
			}
			if i < len(lists[p]) && !slices.Equal(n.Workloads, lists[p][i]) {
				t.Errorf("pool %s node %d: reported %v, fit.Place (order %q, seed %d) puts %v", pr.Pool, n.Index, n.Workloads,
					pl.order.Name, pl.order.Seed, lists[p][i])
				ok = false
			}
		}
	}
	return ok
}

// TestPlacementFiltersReject: the replay of TestPlacementFilters can fail. On generated cases' reported
// placements (default profile), one pod moved to another node with room for it is rejected, for good (after
// the retries): beside a pod of its own workload, by InterPodAffinity (required hostname anti-affinity) or
// NodePorts (the same host port); the last pod of a zone-spread workload (maxSkew 1) into a zone with one pod
// more of it than the zone it leaves, by PodTopologySpread; a pod with a required zone affinity into a zone
// where no pod it looks for ever runs, by InterPodAffinity; onto a tainted pool, a pod without the
// toleration, by TaintToleration; onto the arm64 pool, a pod whose node affinity or pool list excludes it, by
// NodeAffinity. On a plan made for it, a pod with a volume onto a
// node whose earlier pods leave it no attachment is rejected by NodeVolumeLimits. Every pod put on one node
// is rejected by NodeResourcesFit.
func TestPlacementFiltersReject(t *testing.T) {
	cases := generatedCases()
	plan := func(in fit.Input) placement {
		in.Scheduler = fit.ProfileDefault
		pl := planPlacement(t, in)
		if !checkNodeLists(t, pl) {
			t.FailNow()
		}
		if r := replayFilters(t, ProfileDefault, pl.ci, pl.nodes); len(r.failures) > 0 {
			t.Logf("the unchanged placement already fails %d times (TestPlacementFilters reports them)", len(r.failures))
		}
		return pl
	}
	// move moves the first pod of a workload pick accepts that can go to the first other node target accepts
	// that has room for it in the reported placement, and wants the replay to reject that pod there with the
	// plugin want.
	move := func(pl placement, want string, pick func(w *fit.Workload) bool, target func(j int, to string) bool) {
		t.Helper()
		in := pl.in
		used := map[string]fit.Resources{}
		for i, w := range pl.order.Pods {
			r := used[pl.nodes[i]]
			r.CPUMillicores += in.Workloads[w].Requests.CPUMillicores
			r.MemoryBytes += in.Workloads[w].Requests.MemoryBytes
			used[pl.nodes[i]] = r
		}
		for j, wj := range pl.order.Pods {
			w := &in.Workloads[wj]
			if !pick(w) || pl.refs[j].Pool < 0 {
				continue
			}
			for _, n := range pl.ci.Nodes {
				to := n.Name
				p := slices.IndexFunc(in.Pools, func(p fit.Pool) bool { return p.Name == n.Labels[PoolLabel] })
				alloc := in.Pools[p].Allocatable // no DaemonSets in the generated cases
				u := used[to]
				if to == pl.nodes[j] || !target(j, to) ||
					u.CPUMillicores+w.Requests.CPUMillicores > alloc.CPUMillicores || u.MemoryBytes+w.Requests.MemoryBytes > alloc.MemoryBytes {
					continue
				}
				nodes := slices.Clone(pl.nodes)
				nodes[j] = to
				r := replayFilters(t, ProfileDefault, pl.ci, nodes)
				k := slices.IndexFunc(r.failures, func(f filterFailure) bool { return f.index == j })
				switch {
				case k < 0:
					t.Errorf("%s: pod %s moved from %s to %s: the filters pass it", want, pl.ci.Pods[j].Name, pl.nodes[j], to)
				case r.failures[k].plugin != want:
					t.Errorf("pod %s moved from %s: %s, want %s", pl.ci.Pods[j].Name, pl.nodes[j], r.failures[k], want)
				default:
					t.Logf("moved from %s: %s", pl.nodes[j], r.failures[k])
				}
				return
			}
		}
		t.Errorf("%s: no pod to move in the placement", want)
	}
	// beside: the target node holds a pod of pod j's workload that comes before it (so pod j is the one
	// turned away).
	beside := func(pl placement) func(j int, to string) bool {
		return func(j int, to string) bool {
			for i, w := range pl.order.Pods[:j] {
				if w == pl.order.Pods[j] && pl.nodes[i] == to {
					return true
				}
			}
			return false
		}
	}

	pl := plan(cases[0].in)
	move(pl, "InterPodAffinity", func(w *fit.Workload) bool { return w.Spread.Type == fit.SpreadNode }, beside(pl))
	move(pl, "NodePorts", func(w *fit.Workload) bool { return len(w.HostPorts) > 0 }, beside(pl))

	zone := map[string]string{}
	for _, n := range pl.ci.Nodes {
		zone[n.Name] = n.Labels[corev1.LabelTopologyZone]
	}
	// The last pod of a zone-spread workload (maxSkew 1) moved into a zone that holds at least one more of
	// its pods than the zone it leaves.
	move(pl, "PodTopologySpread", func(w *fit.Workload) bool { return w.Spread.Type == fit.SpreadZone }, func(j int, to string) bool {
		w := pl.order.Pods[j]
		if slices.Contains(pl.order.Pods[j+1:], w) {
			return false
		}
		n := map[string]int{}
		for i, wi := range pl.order.Pods[:j] {
			if wi == w {
				n[zone[pl.nodes[i]]]++
			}
		}
		return n[zone[to]] >= n[zone[pl.nodes[j]]]+1
	})

	// Onto the tainted pool, a pod that does not tolerate its taint; onto the arm64 pool, a pod whose required
	// node affinity or pool list keeps it off.
	pools := plan(cases[3].in) // three pools, a taint, a pinned pool
	poolOf := func(node string) string { return node[:strings.LastIndex(node, "-")] }
	spread := plan(cases[10].in) // topology spread constraints, three pools: the tainted pool has nodes
	move(spread, "TaintToleration", func(w *fit.Workload) bool { return len(w.Tolerations) == 0 },
		func(j int, to string) bool { return poolOf(to) == "batch" })
	move(pools, "NodeAffinity", func(w *fit.Workload) bool {
		return len(w.Tolerations) == 0 && (len(w.NodeAffinity) > 0 || len(w.Pools) > 0 && !slices.Contains(w.Pools, "arm"))
	}, func(j int, to string) bool { return poolOf(to) == "arm" })

	// A pod with volumes to attach moved to a node where the pods before it already attach so many that its
	// own go beyond the node's limit. The generated cases' nodes run out of CPU or memory before attachments,
	// so this one is made for it: 30 pods of one claim each on nodes attaching 15 volumes.
	vp := pool("p", 7900, 30000)
	vp.Allocatable.Volumes = 15
	vw := workload("db", 30, 100, 100)
	vw.VolumeClaims = []fit.VolumeClaim{{Name: "data", AccessModes: []fit.AccessMode{fit.ReadWriteOnce}}}
	vol := plan(fit.Input{Pools: []fit.Pool{vp}, Workloads: []fit.Workload{vw}})
	attach := func(w int) int64 {
		n := int64(0)
		for _, c := range vol.in.Workloads[w].VolumeClaims {
			if c.Attachable() {
				n++
			}
		}
		return n
	}
	move(vol, "NodeVolumeLimits", func(w *fit.Workload) bool { return len(w.VolumeClaims) > 0 }, func(j int, to string) bool {
		n := attach(vol.order.Pods[j])
		for i, w := range vol.order.Pods[:j] {
			if vol.nodes[i] == to {
				n += attach(w)
			}
		}
		return attach(vol.order.Pods[j]) > 0 && n > vol.in.Pools[0].Allocatable.Volumes
	})

	aff := plan(cases[7].in) // inter-pod affinity and anti-affinity, 8-vCPU pool
	for _, n := range aff.ci.Nodes {
		zone[n.Name] = n.Labels[corev1.LabelTopologyZone]
	}
	move(aff, "InterPodAffinity", func(w *fit.Workload) bool { return w.PodAffinity != nil && len(w.PodAffinity.Required) > 0 },
		func(j int, to string) bool {
			sel := aff.in.Workloads[aff.order.Pods[j]].PodAffinity.Required[0].Selector.MatchLabels["app"]
			for i, w := range aff.order.Pods {
				if aff.in.Workloads[w].Name == sel && zone[aff.nodes[i]] == zone[to] {
					return false
				}
			}
			return true
		})

	one := make([]string, len(pl.nodes))
	for i := range one {
		one[i] = pl.nodes[0]
	}
	r := replayFilters(t, ProfileDefault, pl.ci, one)
	k := slices.IndexFunc(r.failures, func(f filterFailure) bool { return f.plugin == "NodeResourcesFit" })
	if k < 0 {
		t.Errorf("every pod on %s: no NodeResourcesFit failure among %d failures", pl.nodes[0], len(r.failures))
	} else {
		t.Logf("every pod on one node: %d failures, the first of NodeResourcesFit: %s", len(r.failures), r.failures[k])
	}
}

// replayFramework builds what replayFilters and replayScores run the pods of ci through: the profile's
// framework (the in-tree registry and the profile's configuration, as scheduler.New builds it) on a
// snapshot holding the nodes and the pods already bound, mutable so that each replayed pod can be added on
// its node, and the pods of ci with the API server's defaulting. Everything is torn down when the test ends.
func replayFramework(t testing.TB, profile Profile, ci Input) (context.Context, framework.Framework, *internalcache.Snapshot, []*corev1.Pod) {
	t.Helper()
	setUpLogging()
	metrics.Register() // as scheduler.New does: the cache and the framework record into them
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	cfg, err := configuration(profile)
	if err != nil {
		t.Fatal(err)
	}
	initial, pods, err := clusterObjects(ci.Nodes, ci.Objects, ci.Pods)
	if err != nil {
		t.Fatal(err)
	}
	var kubeNodes []*corev1.Node
	var bound []*corev1.Pod
	for _, obj := range initial {
		switch o := obj.(type) {
		case *corev1.Node:
			kubeNodes = append(kubeNodes, o)
		case *corev1.Pod:
			if o.Spec.NodeName != "" {
				bound = append(bound, o)
			}
		}
	}
	client := fake.NewSimpleClientset(initial...) //nolint:staticcheck // as Schedule
	factory := scheduler.NewInformerFactory(client, 0, nil)
	t.Cleanup(func() {
		cancel() // the informers stop first: Shutdown waits for them
		factory.Shutdown()
	})

	// The shared managers scheduler.New gives the framework.
	var draManager fwk.SharedDRAManager
	if feature.DefaultFeatureGate.Enabled(features.DynamicResourceAllocation) {
		claims := assumecache.NewAssumeCache(klog.FromContext(ctx), factory.Resource().V1().ResourceClaims().Informer(), "ResourceClaim", "", nil)
		opts := resourceslicetracker.Options{
			EnableDeviceTaintRules:   feature.DefaultFeatureGate.Enabled(features.DRADeviceTaintRules),
			EnableConsumableCapacity: feature.DefaultFeatureGate.Enabled(features.DRAConsumableCapacity),
			SliceInformer:            factory.Resource().V1().ResourceSlices(),
			KubeClient:               client,
		}
		if opts.EnableDeviceTaintRules {
			opts.TaintInformer = factory.Resource().V1().DeviceTaintRules()
		}
		tracker, err := resourceslicetracker.StartTracker(ctx, opts)
		if err != nil {
			t.Fatal(err)
		}
		draManager = dynamicresources.NewDRAManager(ctx, claims, tracker, factory)
	}
	podGroups := internalcache.New(ctx, nil, feature.DefaultFeatureGate.Enabled(features.GenericWorkload),
		feature.DefaultFeatureGate.Enabled(features.CompositePodGroup))

	snapshot := internalcache.NewSnapshot(bound, kubeNodes)
	f, err := frameworkruntime.NewFramework(ctx, frameworkplugins.NewInTreeRegistry(), &cfg.Profiles[0],
		frameworkruntime.WithComponentConfigVersion(cfg.APIVersion),
		frameworkruntime.WithClientSet(client),
		frameworkruntime.WithInformerFactory(factory),
		frameworkruntime.WithSharedDRAManager(draManager),
		frameworkruntime.WithSnapshotSharedLister(snapshot),
		frameworkruntime.WithMutableSnapshotLister(snapshot),
		frameworkruntime.WithParallelism(int(cfg.Parallelism)),
		frameworkruntime.WithEventRecorder(&events.FakeRecorder{}),
		frameworkruntime.WithWaitingPods(frameworkruntime.NewWaitingPodsMap()),
		frameworkruntime.WithPodsInPreBind(frameworkruntime.NewPodsInPreBindMap()),
		frameworkruntime.WithSharedCSIManager(nodevolumelimits.NewCSIManager(factory.Storage().V1().CSINodes().Lister())),
		frameworkruntime.WithPodGroupManager(podGroups),
	)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = f.Close() })
	var enabled []string
	for _, p := range f.ListPlugins().Filter.Enabled {
		enabled = append(enabled, p.Name)
	}
	for _, want := range issueFilters {
		if !slices.Contains(enabled, want) {
			t.Fatalf("profile %s runs the Filter plugins %v, without %s", profile, enabled, want)
		}
	}
	factory.Start(ctx.Done())
	for typ, ok := range factory.WaitForCacheSync(ctx.Done()) {
		if !ok {
			t.Fatalf("informer for %v did not sync", typ)
		}
	}

	// Earlier pods are added to the snapshot as the scheduler's cache adds an assumed pod (AddPod keeps
	// the snapshot's affinity and claim indexes in step).
	if err := snapshot.StartMutations(); err != nil {
		t.Fatal(err)
	}
	return ctx, f, snapshot, pods
}
