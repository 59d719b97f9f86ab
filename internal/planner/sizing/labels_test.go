package sizing

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/overhead"
)

func warningsOf(plan *Plan, code string) []string {
	var out []string
	for _, w := range plan.Warnings {
		if w.Code == code {
			out = append(out, w.Path.String()+": "+w.Message)
		}
	}
	return out
}

// TestPoolLabelsRealNodesCarry: the labels every real node carries are on the planned pools: the kubelet's beta
// os and arch, the cloud's beta instance type, zone (per zone) and region, an EKS managed group's
// eks.amazonaws.com/nodegroup and capacityType, Karpenter's nodepool and capacity-type; a Windows node's build
// and an AKS pool's mode are choices (DaemonSets land, workloads are kept off). The explorer's ds_labels case:
// three DaemonSets of 500m that were counted nowhere (FITS) now load every node, and web no longer fits.
func TestPoolLabelsRealNodesCarry(t *testing.T) {
	ds := func(name string, sel map[string]string) DaemonSet {
		return DaemonSet{Name: name, Requests: fit.Resources{CPUMillicores: 500, MemoryBytes: 512 << 20}, NodeSelector: sel, TakesPodSlot: true}
	}
	x86 := pool("x86", "m5.large", 3)
	x86.Zones = []string{"us-east-1a", "us-east-1b", "us-east-1c"}
	req := Request{Pools: []Pool{x86}, DaemonSets: []DaemonSet{
		ds("agent-beta", map[string]string{"beta.kubernetes.io/os": "linux"}),
		ds("agent-ng", map[string]string{"eks.amazonaws.com/nodegroup": "x86"}),
		ds("agent-zone", map[string]string{"topology.kubernetes.io/zone": "us-east-1a"}),
	}, Workloads: []Workload{{Name: "web", Replicas: intp(3), Requests: fit.Resources{CPUMillicores: 1000, MemoryBytes: 1 << 30}}}}
	plan, err := NewPlanner(EmbeddedCatalog()).Solve(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"agent-beta", "agent-ng", "agent-zone"} {
		if !slices.Contains(plan.Pools[0].DaemonSets, d) {
			t.Errorf("DaemonSet %s not counted on pool x86: %v", d, plan.Pools[0].DaemonSets)
		}
	}
	if plan.Fits {
		t.Error("web fits beside 1,500m of DaemonSets on m5.large nodes")
	}
	if !strings.Contains(plan.Pools[0].Note, `DaemonSet "agent-zone" lands only on the nodes of zone(s) "us-east-1a"`) {
		t.Errorf("note: %s", plan.Pools[0].Note)
	}
	if w := warningsOf(plan, WarnDaemonSetNowhere); len(w) > 0 {
		t.Errorf("DaemonSets that land warned as landing nowhere: %q", w)
	}
	labels := plan.Packing.Pools
	_ = labels
	// Workload selectors on the same labels.
	sel := func(k, v string) Workload {
		return Workload{Name: k, Replicas: intp(1), Requests: fit.Resources{CPUMillicores: 100}, NodeSelector: map[string]string{k: v}}
	}
	one := pool("one", "m5.large", 3)
	one.Zones = []string{"us-east-1a"}
	spot := pool("spot", "m5.large", 3)
	spot.CapacityType = fit.CapacitySpot
	spot.Overhead.EKS.Kind = overhead.Karpenter
	for _, tc := range []struct {
		w    Workload
		pool Pool
		fits bool
		msg  string
	}{
		{sel("beta.kubernetes.io/arch", "amd64"), one, true, ""},
		{sel("beta.kubernetes.io/instance-type", "m5.large"), one, true, ""},
		{sel("topology.kubernetes.io/region", "us-east-1"), one, true, ""},
		{sel("failure-domain.beta.kubernetes.io/zone", "us-east-1a"), one, true, ""},
		{sel("eks.amazonaws.com/nodegroup", "one"), one, true, ""},
		{sel("eks.amazonaws.com/capacityType", "ON_DEMAND"), one, true, ""},
		{sel("karpenter.sh/capacity-type", "spot"), spot, true, ""},
		{sel("karpenter.sh/nodepool", "spot"), spot, true, ""},
		{sel("eks.amazonaws.com/nodegroup", "spot"), spot, false, "the pool has no label eks.amazonaws.com/nodegroup"},
		{sel("topology.kubernetes.io/zone", "us-east-1a"), x86, false, `only the pool's nodes in zone(s) "us-east-1a" carry it`},
	} {
		plan, err := NewPlanner(EmbeddedCatalog()).Solve(context.Background(), Request{Pools: []Pool{tc.pool}, Workloads: []Workload{tc.w}})
		if err != nil {
			t.Fatal(err)
		}
		if plan.Fits != tc.fits {
			t.Errorf("%s on pool %s: fits %v, want %v (%+v)", tc.w.Name, tc.pool.Name, plan.Fits, tc.fits, plan.Failures)
		} else if !tc.fits && !strings.Contains(plan.Failures[0].Message, tc.msg) {
			t.Errorf("%s: message %q, want %q", tc.w.Name, plan.Failures[0].Message, tc.msg)
		}
	}
	// AKS mode and Windows build are not known: a DaemonSet selecting them lands, a workload is kept off, saying why.
	aksWin := Pool{Name: "win", Cloud: catalog.Azure, InstanceTypes: []string{"Standard_D4s_v5"}, MaxNodes: 3,
		Overhead: overhead.Input{Profile: overhead.AKSWindows}}
	req = Request{Pools: []Pool{aksWin}, DaemonSets: []DaemonSet{ds("win-agent", map[string]string{"node.kubernetes.io/windows-build": "10.0.20348",
		"kubernetes.azure.com/mode": "user"})},
		Workloads: []Workload{{Name: "iis", Replicas: intp(1), Requests: fit.Resources{CPUMillicores: 100},
			NodeSelector: map[string]string{"kubernetes.io/os": "windows", "node.kubernetes.io/windows-build": "10.0.20348"}}}}
	plan, err = NewPlanner(EmbeddedCatalog()).Solve(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(plan.Pools[0].DaemonSets, "win-agent") {
		t.Errorf("win-agent not counted: %v", plan.Pools[0].DaemonSets)
	}
	if plan.Fits || !strings.Contains(plan.Failures[0].Message, "node.kubernetes.io/windows-build 10.0.17763 or 10.0.20348 or 10.0.26100 (kubefit cannot know which)") {
		t.Errorf("windows-build selector: fits %v, %+v", plan.Fits, plan.Failures)
	}
	req.Pools[0].Labels = map[string]string{"node.kubernetes.io/windows-build": "10.0.20348"}
	if plan, err = NewPlanner(EmbeddedCatalog()).Solve(context.Background(), req); err != nil || !plan.Fits {
		t.Errorf("windows-build given in the pool's labels: %v, %+v", err, plan)
	}
}

// TestDaemonSetLandsNowhere: a listed DaemonSet that lands on no pool is counted nowhere; a warning names it and
// its selector (it was silent).
func TestDaemonSetLandsNowhere(t *testing.T) {
	req := Request{Pools: []Pool{pool("x86", "m5.large", 3)}, DaemonSets: []DaemonSet{{Name: "gpu-agent", Requests: fit.Resources{CPUMillicores: 100},
		NodeSelector: map[string]string{"accelerator": "nvidia"}}}, Workloads: []Workload{{Name: "web", Replicas: intp(1), Requests: fit.Resources{CPUMillicores: 100}}}}
	plan, err := NewPlanner(EmbeddedCatalog()).Solve(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	w := warningsOf(plan, WarnDaemonSetNowhere)
	if len(w) != 1 || !strings.HasPrefix(w[0], `DaemonSets[0]: DaemonSet "gpu-agent" lands on no pool (its node selector accelerator=nvidia;`) {
		t.Errorf("warnings: %q", w)
	}
}

// TestOSWarnings: the explorer's noselector case (AKS): 12 Linux pods of 1 CPU beside an untainted Windows pool
// planned 9 on Windows and fit; now they are kept off it (os), do not fit on the 2 Linux nodes, and a warning says
// the scheduler may bind them to the Windows pool. A tainted Windows pool gets no warning; a Windows workload
// without a node selector (spec.os.name windows) warns about the Linux pool.
func TestOSWarnings(t *testing.T) {
	az := func(name, profile string, max int) Pool {
		return Pool{Name: name, Cloud: catalog.Azure, InstanceTypes: []string{"Standard_D4s_v5"}, MinNodes: 1, MaxNodes: max,
			Overhead: overhead.Input{Profile: overhead.Profile(profile)}}
	}
	req := Request{Pools: []Pool{az("linux", "", 2), az("win", "aks-windows", 3)},
		Workloads: []Workload{{Name: "web", Replicas: intp(12), Requests: fit.Resources{CPUMillicores: 1000, MemoryBytes: 1 << 30}}}}
	plan, err := NewPlanner(EmbeddedCatalog()).Solve(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if plan.Fits {
		t.Error("12 Linux pods of 1 CPU fit on 2 Linux nodes of 4 vCPUs")
	}
	w := warningsOf(plan, WarnOSUnselected)
	if len(w) != 1 || !strings.Contains(w[0], `Workloads[0].NodeSelector: workload "web" runs Linux containers (assumed`) ||
		!strings.Contains(w[0], `Windows nodes of pool(s) "win"`) || !strings.Contains(w[0], "node selector kubernetes.io/os: linux, or taint those pools") {
		t.Errorf("warnings: %q", w)
	}
	req.Pools[1].Taints = []fit.Taint{{Key: "os", Value: "windows", Effect: fit.EffectNoSchedule}}
	req.Workloads[0].Replicas = intp(3)
	if plan, err = NewPlanner(EmbeddedCatalog()).Solve(context.Background(), req); err != nil || !plan.Fits || len(warningsOf(plan, WarnOSUnselected)) > 0 {
		t.Errorf("tainted Windows pool: err %v, fits %v, warnings %q", err, plan.Fits, warningsOf(plan, WarnOSUnselected))
	}
	req.Workloads[0] = Workload{Name: "iis", OS: "windows", Replicas: intp(2), Requests: fit.Resources{CPUMillicores: 500},
		Tolerations: []fit.Toleration{{Key: "os", Value: "windows", Effect: fit.EffectNoSchedule}}}
	if plan, err = NewPlanner(EmbeddedCatalog()).Solve(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	w = warningsOf(plan, WarnOSUnselected)
	if !plan.Fits || len(w) != 1 || !strings.Contains(w[0], `runs Windows containers (it says so`) || !strings.Contains(w[0], `Linux nodes of pool(s) "linux"`) {
		t.Errorf("Windows workload: fits %v, warnings %q", plan.Fits, w)
	}
	for _, pp := range plan.Workloads[0].Steady.Pools {
		if pp.Pool == "linux" && pp.Pods > 0 {
			t.Errorf("Windows pods planned on the Linux pool")
		}
	}
}

// TestArm64ImagesWarning: a workload that does not pin its architecture, planned on Graviton nodes, warns that
// its images must be published for linux/arm64; pinned (or, on GKE, tolerating the Arm taint) it does not.
func TestArm64ImagesWarning(t *testing.T) {
	req := Request{Pools: []Pool{pool("arm", "c7g.xlarge", 5)},
		Workloads: []Workload{{Name: "legacy", Replicas: intp(6), Requests: fit.Resources{CPUMillicores: 500}}}}
	plan, err := NewPlanner(EmbeddedCatalog()).Solve(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	w := warningsOf(plan, WarnArm64Images)
	if len(w) != 1 || !strings.Contains(w[0], `workload "legacy" is planned on the arm64 nodes of pool(s) "arm"`) || !strings.Contains(w[0], "kubernetes.io/arch: amd64") {
		t.Errorf("warnings: %q", w)
	}
	req.Workloads[0].NodeSelector = map[string]string{"kubernetes.io/arch": "arm64"}
	if plan, err = NewPlanner(EmbeddedCatalog()).Solve(context.Background(), req); err != nil || len(warningsOf(plan, WarnArm64Images)) > 0 {
		t.Errorf("pinned: %v %q", err, warningsOf(plan, WarnArm64Images))
	}
	gke := Request{Pools: []Pool{{Name: "t2a", Cloud: catalog.GCP, InstanceTypes: []string{"t2a-standard-4"}, MaxNodes: 5}},
		Workloads: []Workload{{Name: "multi", Replicas: intp(2), Requests: fit.Resources{CPUMillicores: 500},
			Tolerations: []fit.Toleration{{Key: "kubernetes.io/arch", Value: "arm64", Effect: fit.EffectNoSchedule}}}}}
	if plan, err = NewPlanner(EmbeddedCatalog()).Solve(context.Background(), gke); err != nil || !plan.Fits || len(warningsOf(plan, WarnArm64Images)) > 0 {
		t.Errorf("GKE, tolerating the Arm taint: %v %+v %q", err, plan, warningsOf(plan, WarnArm64Images))
	}
}

// TestUserLabelContradictions: a pool's own label may not contradict what kubefit derives (the explorer's gkewin
// case: an e2 pool labelled kubernetes.io/os=windows took Windows pods); one error per label, on it.
func TestUserLabelContradictions(t *testing.T) {
	p := pool("x86", "m5.large", 3)
	p.Zones = []string{"us-east-1a", "us-east-1b"}
	p.Labels = map[string]string{"kubernetes.io/os": "windows", "kubernetes.io/arch": "arm64", "node.kubernetes.io/instance-type": "m5.xlarge",
		"topology.kubernetes.io/zone": "us-east-1a", "team": "web", "kubernetes.io/hostname": "x"}
	_, err := NewPlanner(EmbeddedCatalog()).Solve(context.Background(), Request{Pools: []Pool{p}})
	if err == nil {
		t.Fatal("no error")
	}
	got := err.Error()
	for _, want := range []string{
		`pool "x86": label kubernetes.io/os=windows contradicts the kubernetes.io/os=linux its nodes carry`,
		`pool "x86": label kubernetes.io/arch=arm64 contradicts the kubernetes.io/arch=amd64 its nodes carry`,
		`pool "x86": label node.kubernetes.io/instance-type=m5.xlarge contradicts the node.kubernetes.io/instance-type=m5.large its nodes carry`,
		`pool "x86": label topology.kubernetes.io/zone=us-east-1a contradicts the pool's zones "us-east-1a", "us-east-1b"`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in\n%s", want, got)
		}
	}
	if n := strings.Count(got, "contradicts"); n != 4 {
		t.Errorf("%d errors, want 4:\n%s", n, got)
	}
	p.Labels = map[string]string{"kubernetes.io/os": "linux", "topology.kubernetes.io/region": "us-east-1"}
	if _, err := NewPlanner(EmbeddedCatalog()).Solve(context.Background(), Request{Pools: []Pool{p}}); err != nil {
		t.Errorf("labels equal to the derived ones: %v", err)
	}
}
