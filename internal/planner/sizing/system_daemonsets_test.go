package sizing

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/overhead"
)

// platformPools are one pool of every platform whose system DaemonSets differ, keyed by pool name.
var platformPools = []Pool{
	{Name: "aks", Cloud: catalog.Azure, InstanceTypes: []string{"Standard_D4s_v5"}, MaxNodes: 5},
	{Name: "aks-kubenet", Cloud: catalog.Azure, InstanceTypes: []string{"Standard_D4s_v5"}, MaxNodes: 5,
		Overhead: overhead.Input{AKS: overhead.AKSOptions{NetworkPlugin: overhead.Kubenet}}},
	{Name: "aks-windows", Cloud: catalog.Azure, InstanceTypes: []string{"Standard_D4s_v5"}, MaxNodes: 5,
		Overhead: overhead.Input{Profile: overhead.AKSWindows}},
	{Name: "gke", Cloud: catalog.GCP, InstanceTypes: []string{"n2-standard-4"}, MaxNodes: 5},
	{Name: "eks", Cloud: catalog.AWS, InstanceTypes: []string{"m5.xlarge"}, MaxNodes: 5},
	{Name: "eks-bottlerocket", Cloud: catalog.AWS, InstanceTypes: []string{"m5.xlarge"}, MaxNodes: 5,
		Overhead: overhead.Input{Profile: overhead.EKSBottlerocket}},
	{Name: "eks-auto", Cloud: catalog.AWS, InstanceTypes: []string{"m5.xlarge"}, MaxNodes: 5,
		Overhead: overhead.Input{EKS: overhead.EKSOptions{Kind: overhead.AutoMode}}},
	{Name: "eks-windows", Cloud: catalog.AWS, InstanceTypes: []string{"m5.xlarge"}, MaxNodes: 5,
		Overhead: overhead.Input{Profile: overhead.EKSWindows}},
}

// platformSet is the system set of pool p as the overhead package's table gives it.
func platformSet(p Pool) []fit.DaemonSet {
	in := p.Overhead
	if in.Profile == "" {
		in.Profile = overhead.DefaultProfile(p.Cloud)
	}
	return overhead.PlatformDaemonSets(in)
}

// setSum sums a set's requests, and the pod slots it takes beyond the system pods a node counts anyway.
func setSum(ds []fit.DaemonSet, systemPods []string) fit.Resources {
	var s fit.Resources
	for _, d := range ds {
		s.CPUMillicores += d.Requests.CPUMillicores
		s.MemoryBytes += d.Requests.MemoryBytes
		if !slices.Contains(systemPods, d.Name) {
			s.Pods++
		}
	}
	return s
}

func solveOne(t *testing.T, req Request) *Plan {
	t.Helper()
	plan, err := NewPlanner(EmbeddedCatalog()).Solve(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	return plan
}

func poolPlan(t *testing.T, plan *Plan, name string) PoolPlan {
	t.Helper()
	for _, pp := range plan.Pools {
		if pp.Name == name {
			return pp
		}
	}
	t.Fatalf("no pool %q", name)
	return PoolPlan{}
}

// warns reports whether the plan has a warning of code.
func warns(pl *Plan, code string) bool {
	return slices.ContainsFunc(pl.Warnings, func(w field.Warning) bool { return w.Code == code })
}

func smallWorkload() []Workload {
	return []Workload{{Name: "api", Replicas: intp(2), Requests: fit.Resources{CPUMillicores: 250, MemoryBytes: 256 << 20}}}
}

// TestSystemDaemonSetsPerPlatform: each pool's workload allocatable is its allocatable less its platform's system
// set, summed from overhead.PlatformDaemonSets (on EKS the two pods' slots were counted before as system pods,
// so only their requests are new); "listed" counts none of them; the set's names land on the pool and the note
// names them.
func TestSystemDaemonSetsPerPlatform(t *testing.T) {
	for _, p := range platformPools {
		t.Run(p.Name, func(t *testing.T) {
			set := platformSet(p)
			platform := solveOne(t, Request{Pools: []Pool{p}, Workloads: smallWorkload()})
			listed := solveOne(t, Request{Pools: []Pool{p}, Workloads: smallWorkload(), SystemDaemonSets: overhead.SystemDaemonSetsListed})
			pp, lp := poolPlan(t, platform, p.Name), poolPlan(t, listed, p.Name)
			if pp.Allocatable != lp.Allocatable {
				t.Fatalf("allocatable %+v, listed %+v: the system set must not change allocatable", pp.Allocatable, lp.Allocatable)
			}
			sum := setSum(set, pp.Overhead.SystemPods)
			if got := lp.WorkloadAllocatable.Sub(pp.WorkloadAllocatable); got.CPUMillicores != sum.CPUMillicores ||
				got.MemoryBytes != sum.MemoryBytes || got.Pods != sum.Pods {
				t.Errorf("platform takes %+v more than listed, want the set's %+v", got, sum)
			}
			for _, d := range set {
				if !slices.Contains(pp.DaemonSets, d.Name) {
					t.Errorf("system DaemonSet %q does not land on the pool: %v", d.Name, pp.DaemonSets)
				}
				if !strings.Contains(pp.Note, d.Name) || !strings.Contains(platform.Report, d.Name) {
					t.Errorf("the note %q or the report does not name %q", pp.Note, d.Name)
				}
			}
			if len(lp.DaemonSets) != 0 || len(lp.SystemDaemonSets) != 0 || lp.Note != "" {
				t.Errorf("listed mode counts %v (%v), note %q", lp.DaemonSets, lp.SystemDaemonSets, lp.Note)
			}
			if warns(platform, overhead.CodeNoDaemonSets) {
				t.Errorf("platform mode warns %s: %+v", overhead.CodeNoDaemonSets, platform.Warnings)
			}
			// Listed with none listed keeps the warning on the platforms that run system DaemonSets.
			if warns(listed, overhead.CodeNoDaemonSets) != (len(set) > 0) {
				t.Errorf("listed mode warns %v, want %v: %+v", len(set) == 0, len(set) > 0, listed.Warnings)
			}
		})
	}
	// The tables themselves, as measured (overhead.md §9.1).
	for _, tc := range []struct {
		pool      string
		pods      int
		cpu, memM int64
	}{{"aks", 6, 350, 470}, {"aks-kubenet", 5, 310, 220}, {"gke", 4, 236, 395}, {"eks", 2, 150, 0}, {"eks-bottlerocket", 2, 150, 0},
		{"eks-auto", 0, 0, 0}, {"eks-windows", 0, 0, 0}, {"aks-windows", 4, 170, 290}} {
		i := slices.IndexFunc(platformPools, func(p Pool) bool { return p.Name == tc.pool })
		set := platformSet(platformPools[i])
		s := setSum(set, nil)
		if len(set) != tc.pods || s.CPUMillicores != tc.cpu || s.MemoryBytes != tc.memM<<20 {
			t.Errorf("%s: %d DaemonSets of %dm and %d bytes, want %d of %dm and %dMi", tc.pool, len(set), s.CPUMillicores, s.MemoryBytes, tc.pods, tc.cpu, tc.memM)
		}
	}
}

// TestSystemDaemonSetsOverriddenByName: a listed DaemonSet named like a system one replaces it (its requests
// count, once); the others of the set still count beside the user's own.
func TestSystemDaemonSetsOverriddenByName(t *testing.T) {
	p := platformPools[0] // AKS, Azure CNI overlay
	own := []DaemonSet{
		{Name: "kube-proxy", Requests: fit.Resources{CPUMillicores: 300, MemoryBytes: 100 << 20}, TakesPodSlot: true},
		{Name: "fluent-bit", Requests: fit.Resources{CPUMillicores: 50, MemoryBytes: 64 << 20}, TakesPodSlot: true},
	}
	plan := solveOne(t, Request{Pools: []Pool{p}, DaemonSets: own, Workloads: smallWorkload()})
	pp := poolPlan(t, plan, p.Name)
	rest := slices.DeleteFunc(platformSet(p), func(d fit.DaemonSet) bool { return d.Name == "kube-proxy" })
	want := pp.Allocatable.Sub(setSum(rest, nil)).Sub(setSum(own, nil))
	if got := pp.WorkloadAllocatable; got.CPUMillicores != want.CPUMillicores || got.MemoryBytes != want.MemoryBytes || got.Pods != want.Pods {
		t.Errorf("workload allocatable %+v, want %+v", got, want)
	}
	if n := len(slices.DeleteFunc(slices.Clone(pp.DaemonSets), func(s string) bool { return s != "kube-proxy" })); n != 1 {
		t.Errorf("kube-proxy lands %d times: %v", n, pp.DaemonSets)
	}
	if slices.ContainsFunc(pp.SystemDaemonSets, func(d fit.DaemonSet) bool { return d.Name == "kube-proxy" }) || strings.Contains(pp.Note, "kube-proxy 100m") ||
		!strings.Contains(pp.Note, "replaced by the listed DaemonSets of the same name, which land on this pool: the platform's kube-proxy") {
		t.Errorf("the platform's kube-proxy is still counted: %v, note %q", pp.SystemDaemonSets, pp.Note)
	}
	// Listed: only the user's two.
	plan = solveOne(t, Request{Pools: []Pool{p}, DaemonSets: own, Workloads: smallWorkload(), SystemDaemonSets: overhead.SystemDaemonSetsListed})
	pp = poolPlan(t, plan, p.Name)
	if want := pp.Allocatable.Sub(setSum(own, nil)); pp.WorkloadAllocatable.CPUMillicores != want.CPUMillicores || pp.WorkloadAllocatable.MemoryBytes != want.MemoryBytes {
		t.Errorf("listed: workload allocatable %+v, want %+v", pp.WorkloadAllocatable, want)
	}
	if warns(plan, overhead.CodeNoDaemonSets) {
		t.Errorf("listed with DaemonSets given warns: %+v", plan.Warnings)
	}
}

// TestSystemDaemonSetsMixedPools: in one request of every platform, each pool gets its own platform's set and
// no other's (kube-proxy, which three platforms run alike, is one DaemonSet restricted to their pools).
func TestSystemDaemonSetsMixedPools(t *testing.T) {
	w := smallWorkload()
	w[0].Replicas = intp(len(platformPools))
	plan := solveOne(t, Request{Pools: platformPools, Workloads: w})
	for _, p := range platformPools {
		alone := poolPlan(t, solveOne(t, Request{Pools: []Pool{p}, Workloads: smallWorkload()}), p.Name)
		pp := poolPlan(t, plan, p.Name)
		var names []string
		for _, d := range platformSet(p) {
			names = append(names, d.Name)
		}
		got := slices.Clone(pp.DaemonSets)
		slices.Sort(got)
		slices.Sort(names)
		if !slices.Equal(got, names) {
			t.Errorf("%s: DaemonSets %v, want its platform's %v", p.Name, got, names)
		}
		if pp.WorkloadAllocatable != alone.WorkloadAllocatable {
			t.Errorf("%s: workload allocatable %+v among other platforms, %+v alone", p.Name, pp.WorkloadAllocatable, alone.WorkloadAllocatable)
		}
	}
}

// TestSystemDaemonSetsUnknownMode: an unknown mode is one error at the request's SystemDaemonSets, naming it.
func TestSystemDaemonSetsUnknownMode(t *testing.T) {
	_, err := NewPlanner(EmbeddedCatalog()).Solve(context.Background(),
		Request{Pools: platformPools[:2], Workloads: smallWorkload(), SystemDaemonSets: "all"})
	es := field.As(err)
	if len(es) != 1 || es[0].Path.String() != "SystemDaemonSets" || !strings.Contains(es[0].Error(), `"all"`) {
		t.Fatalf("errors %v, want one at SystemDaemonSets naming \"all\"", err)
	}
}

// TestSystemDaemonSetsReplacedWhereTheyLand: a listed DaemonSet replaces the platform's of its name only on the
// pools it lands on (its node selector, tolerations and affinity admit them); elsewhere the platform's is still
// counted, and each pool's note says which happened. Mixed platforms, one request.
func TestSystemDaemonSetsReplacedWhereTheyLand(t *testing.T) {
	pools := []Pool{platformPools[0], platformPools[3], platformPools[4], platformPools[5]} // aks, gke, eks, eks-bottlerocket
	pools[1].Labels = map[string]string{"team": "x"}                                        // gke
	pools[2].Taints = []fit.Taint{{Key: "dedicated", Value: "x", Effect: fit.EffectNoSchedule}}
	pools[2].Labels = map[string]string{"team": "x"} // eks: selected but tainted
	own := fit.Resources{CPUMillicores: 10}
	for _, tc := range []struct {
		name     string
		ds       DaemonSet
		replaced []string // pools where the listed kube-proxy lands and replaces the platform's
	}{
		{"selector matches no pool", DaemonSet{Name: "kube-proxy", Requests: own, TakesPodSlot: true,
			NodeSelector: map[string]string{"kubernetes.io/os": "linux", "team": "nobody"}}, nil},
		{"selector matches gke and eks, eks tainted", DaemonSet{Name: "kube-proxy", Requests: own, TakesPodSlot: true,
			NodeSelector: map[string]string{"team": "x"}}, []string{"gke"}},
		{"tolerates the taint", DaemonSet{Name: "kube-proxy", Requests: own, TakesPodSlot: true,
			NodeSelector: map[string]string{"team": "x"}, Tolerations: []fit.Toleration{{Operator: fit.OperatorExists}}}, []string{"gke", "eks"}},
		{"no selector", DaemonSet{Name: "kube-proxy", Requests: own, TakesPodSlot: true}, []string{"aks", "gke", "eks-bottlerocket"}},
		{"affinity to aks only", DaemonSet{Name: "kube-proxy", Requests: own, TakesPodSlot: true,
			NodeAffinity: []fit.NodeSelectorTerm{{MatchExpressions: []fit.NodeSelectorRequirement{{Key: AKSAgentPoolLabel, Operator: fit.NodeIn, Values: []string{"aks"}}}}}},
			[]string{"aks"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := smallWorkload()
			w[0].Tolerations = []fit.Toleration{{Operator: fit.OperatorExists}}
			plan, err := NewPlanner(EmbeddedCatalog()).Solve(context.Background(), Request{Pools: pools, DaemonSets: []DaemonSet{tc.ds}, Workloads: w})
			if err != nil {
				t.Fatal(err)
			}
			alone, err := NewPlanner(EmbeddedCatalog()).Solve(context.Background(), Request{Pools: pools, Workloads: w})
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range pools {
				pp, ap := poolPlan(t, plan, p.Name), poolPlan(t, alone, p.Name)
				replaced := slices.Contains(tc.replaced, p.Name)
				platformKP := slices.ContainsFunc(pp.SystemDaemonSets, func(d fit.DaemonSet) bool { return d.Name == "kube-proxy" })
				if platformKP == replaced {
					t.Errorf("%s: the platform's kube-proxy counted %v, want %v (system set %v)", p.Name, platformKP, !replaced, pp.SystemDaemonSets)
				}
				// Replaced: the listed 10m stands for the platform's 100m; kept: nothing changes.
				want := ap.WorkloadAllocatable.CPUMillicores
				if replaced {
					want += 100 - own.CPUMillicores
				}
				if got := pp.WorkloadAllocatable.CPUMillicores; got != want {
					t.Errorf("%s: workload CPU %dm, want %dm (platform's alone: %dm)", p.Name, got, want, ap.WorkloadAllocatable.CPUMillicores)
				}
				if pp.WorkloadAllocatable.Pods != ap.WorkloadAllocatable.Pods {
					t.Errorf("%s: workload pods %d, want %d as with the platform's alone", p.Name, pp.WorkloadAllocatable.Pods, ap.WorkloadAllocatable.Pods)
				}
				if n := len(slices.DeleteFunc(slices.Clone(pp.DaemonSets), func(s string) bool { return s != "kube-proxy" })); n != 1 {
					t.Errorf("%s: kube-proxy lands %d times: %v", p.Name, n, pp.DaemonSets)
				}
				wantNote := "does not land on this pool"
				if replaced {
					wantNote = "replaced by the listed DaemonSets of the same name, which land on this pool: the platform's kube-proxy"
				}
				if !strings.Contains(pp.Note, wantNote) {
					t.Errorf("%s: note %q, want it to say %q", p.Name, pp.Note, wantNote)
				}
			}
		})
	}
}

// TestSystemDaemonSetsNotes: the notes write no bare 0 for EKS's memory, name AKS Windows's measured set, and say
// why EKS Windows and EKS Auto Mode pools count no system DaemonSet.
func TestSystemDaemonSetsNotes(t *testing.T) {
	for name, want := range map[string]string{
		"eks":         "aws-node 50m, kube-proxy 100m (150m CPU, 2 pods)",
		"aks":         "(350m CPU, 470Mi memory, 6 pods)",
		"eks-auto":    "no system DaemonSets counted (eks-al2023, Auto Mode): Auto Mode runs pod networking and kube-proxy on the host",
		"eks-windows": "no system DaemonSets counted (eks-windows): none has been measured on EKS Windows nodes",
		"aks-windows": "cloud-node-manager-windows 50m/50Mi, csi-azuredisk-node-win 60m/120Mi, csi-azurefile-node-win 60m/120Mi, " +
			"azure-cns-win no requests (170m CPU, 290Mi memory, 4 pods); azure-cns-win's requests are not known: only its pod slot is counted",
	} {
		i := slices.IndexFunc(platformPools, func(p Pool) bool { return p.Name == name })
		pp := poolPlan(t, solveOne(t, Request{Pools: []Pool{platformPools[i]}, Workloads: smallWorkload()}), name)
		if !strings.Contains(pp.Note, want) {
			t.Errorf("%s: note %q, want %q", name, pp.Note, want)
		}
	}
}

// TestSystemDaemonSetsReplacedBySameNamedListed: two listed kube-proxy DaemonSets, each landing on one pool: both
// pools' platform kube-proxy is replaced (the second was counted beside the platform's on its pool, 100m twice).
func TestSystemDaemonSetsReplacedBySameNamedListed(t *testing.T) {
	pools := []Pool{
		{Name: "a", Cloud: catalog.Azure, InstanceTypes: []string{"Standard_D4s_v5"}, MaxNodes: 5, Labels: map[string]string{"team": "a"}},
		{Name: "b", Cloud: catalog.Azure, InstanceTypes: []string{"Standard_D4s_v5"}, MaxNodes: 5, Labels: map[string]string{"team": "b"}},
	}
	ds := []DaemonSet{
		{Name: "kube-proxy", Requests: fit.Resources{CPUMillicores: 100}, TakesPodSlot: true, NodeSelector: map[string]string{"team": "a"}},
		{Name: "kube-proxy", Requests: fit.Resources{CPUMillicores: 100}, TakesPodSlot: true, NodeSelector: map[string]string{"team": "b"}},
	}
	plan := solveOne(t, Request{Pools: pools, DaemonSets: ds})
	for _, p := range plan.Pools {
		for _, d := range p.SystemDaemonSets {
			if d.Name == "kube-proxy" {
				t.Errorf("pool %q still counts the platform's kube-proxy beside the listed one that lands on it: note %q", p.Name, p.Note)
			}
		}
	}
}

// TestSystemDaemonSetsOnAcceleratorNodes: the report's sizing cases (explore round "platformds"), one node each,
// no longer fit: a GKE g2-standard-4 with one pod of 3660m and a GPU (its GPU DaemonSets take 300m), an EKS AL2023
// g5.xlarge with one GPU pod and 55 small ones (the NVIDIA device plugin takes a pod slot and a pod IP), and an
// AKS Standard_D4s_v5 with Azure CNI pod subnet and 105 small pods (azure-cns takes a slot); the pool note names
// the added DaemonSets and the add-ons left out.
func TestSystemDaemonSetsOnAcceleratorNodes(t *testing.T) {
	tiny := fit.Resources{CPUMillicores: 10, MemoryBytes: 16 << 20}
	for _, tc := range []struct {
		name      string
		pool      Pool
		workloads []Workload
		note      string
	}{
		{"gke g2-standard-4", Pool{Name: "gpu", Cloud: catalog.GCP, InstanceTypes: []string{"g2-standard-4"}, MaxNodes: 1},
			[]Workload{{Name: "train", Replicas: intp(1), Requests: fit.Resources{CPUMillicores: 3660, MemoryBytes: 4 << 30, GPU: 1}}},
			"nvidia-gpu-device-plugin 150m/80Mi, nvidia-driver-installer 150m"},
		{"eks al2023 g5.xlarge", Pool{Name: "gpu", Cloud: catalog.AWS, InstanceTypes: []string{"g5.xlarge"}, MaxNodes: 1},
			[]Workload{{Name: "infer", Replicas: intp(1), Requests: fit.Resources{CPUMillicores: 500, MemoryBytes: 1 << 30, GPU: 1},
				Tolerations: []fit.Toleration{{Key: "nvidia.com/gpu", Operator: fit.OperatorExists}}},
				{Name: "small", Replicas: intp(55), Requests: tiny}},
			"nvidia-device-plugin-daemonset no requests"},
		{"aks pod subnet D4s_v5", Pool{Name: "apps", Cloud: catalog.Azure, InstanceTypes: []string{"Standard_D4s_v5"}, MaxNodes: 1,
			Overhead: overhead.Input{AKS: overhead.AKSOptions{NetworkPlugin: overhead.AzureCNIPodSubnet}}},
			[]Workload{{Name: "small", Replicas: intp(105), Requests: tiny}},
			"azure-cns 40m/250Mi"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			plan := solveOne(t, Request{Pools: []Pool{tc.pool}, Workloads: tc.workloads})
			pp := poolPlan(t, plan, tc.pool.Name)
			if plan.Fits {
				t.Errorf("fits on one node, want not: workload allocatable %+v", pp.WorkloadAllocatable)
			}
			if !strings.Contains(pp.Note, tc.note) || !strings.Contains(pp.Note, "add-ons not counted") {
				t.Errorf("note %q, want it to name %q and the add-ons not counted", pp.Note, tc.note)
			}
		})
	}
}
