package sizing

import (
	"context"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/burst"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/overhead"
)

func intp(n int) *int { return &n }

func pool(name, typ string, max int) Pool {
	return Pool{Name: name, Cloud: catalog.AWS, InstanceTypes: []string{typ}, MaxNodes: max}
}

func TestSolveErrors(t *testing.T) {
	web := Workload{Name: "web", Replicas: intp(2), Requests: fit.Resources{CPUMillicores: 100}}
	tests := []struct {
		name     string
		req      Request
		wantPath string
		wantMsg  string
	}{
		{"unknown type", Request{Pools: []Pool{pool("general", "m5.larg", 3)}, Workloads: []Workload{web}},
			`Pools["general"].InstanceTypes[0]`, `did you mean "m5.large"`},
		{"no type", Request{Pools: []Pool{{Name: "general", Cloud: catalog.AWS, MaxNodes: 3}}, Workloads: []Workload{web}},
			`Pools["general"].InstanceTypes`, "names no instance type"},
		{"bad cloud", Request{Pools: []Pool{{Name: "general", Cloud: "ibm", InstanceTypes: []string{"x"}, MaxNodes: 3}}},
			`Pools["general"].Cloud`, `unknown cloud "ibm"`},
		{"both replica forms", Request{Pools: []Pool{pool("general", "m5.large", 3)},
			Workloads: []Workload{{Name: "web", Replicas: intp(2), MaxReplicas: intp(4)}}},
			"Workloads[0].Replicas", "both a fixed replica count"},
		{"no replicas", Request{Pools: []Pool{pool("general", "m5.large", 3)}, Workloads: []Workload{{Name: "web"}}},
			"Workloads[0].Replicas", "gives no replica count"},
		{"min > max", Request{Pools: []Pool{pool("general", "m5.large", 3)},
			Workloads: []Workload{{Name: "web", MinReplicas: intp(5), MaxReplicas: intp(2)}}},
			"Workloads[0].MinReplicas", "(min > max)"},
		{"min nodes above max", Request{Pools: []Pool{{Name: "general", Cloud: catalog.AWS, InstanceTypes: []string{"m5.large"}, MinNodes: 5, MaxNodes: 2}}},
			`Pools["general"].MinNodes`, "greater than its maximum node count 2"},
		{"custom profile on a pool", Request{Pools: []Pool{{Name: "general", Cloud: catalog.AWS, InstanceTypes: []string{"m5.large"}, MaxNodes: 2,
			Overhead: overhead.Input{Profile: overhead.Custom}}}, Workloads: []Workload{web}},
			`Pools["general"].Overhead.Profile`, "the custom profile describes a single node"},
		{"huge minimum is the minimum's", Request{Pools: []Pool{pool("general", "m5.large", 3)},
			Workloads: []Workload{{Name: "web", MinReplicas: intp(2_000_000), MaxReplicas: intp(3_000_000)}}},
			"Workloads[0].MinReplicas", "above the planner limit"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			plan, err := NewPlanner(EmbeddedCatalog()).Solve(context.Background(), tt.req)
			if plan != nil || err == nil {
				t.Fatalf("Solve = %v, %v; want an error", plan, err)
			}
			var found *field.Error
			for _, e := range field.As(err) {
				if e.Path.String() == tt.wantPath {
					found = e
				}
			}
			if found == nil || !strings.Contains(found.Detail, tt.wantMsg) {
				t.Fatalf("errors %v: want one at %s containing %q", err, tt.wantPath, tt.wantMsg)
			}
			for range 50 { // the same diagnostics in the same order, plan after plan
				_, again := NewPlanner(EmbeddedCatalog()).Solve(context.Background(), tt.req)
				if again.Error() != err.Error() {
					t.Fatalf("not deterministic: %q vs %q", again, err)
				}
			}
		})
	}
}

// TestSolveOneErrorPerCount: a fixed count is the packer's steady and peak count; one bad value is one error,
// on Replicas.
func TestSolveOneErrorPerCount(t *testing.T) {
	_, err := NewPlanner(EmbeddedCatalog()).Solve(context.Background(), Request{Pools: []Pool{pool("general", "m5.large", 3)},
		Workloads: []Workload{{Name: "web", Replicas: intp(2_000_000)}}})
	es := field.As(err)
	if len(es) != 1 || es[0].Path.String() != "Workloads[0].Replicas" {
		t.Errorf("errors %v: want one, on Workloads[0].Replicas", err)
	}
}

// TestSolveCreditOptionsOnNonBurstable: credit options on a type without credits are ignored, and a
// warning says so.
func TestSolveCreditOptionsOnNonBurstable(t *testing.T) {
	p := pool("general", "m5.large", 3)
	p.Credits.Mode = burst.Unlimited
	plan, err := NewPlanner(EmbeddedCatalog()).Solve(context.Background(), Request{Pools: []Pool{p},
		Workloads: []Workload{{Name: "web", Replicas: intp(2), Requests: fit.Resources{CPUMillicores: 100}}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range plan.Warnings {
		if w.Code == WarnCreditsIgnored && w.Path.String() == `Pools["general"].Credits` && strings.Contains(w.Message, "m5.large is not a burstable type") {
			return
		}
	}
	t.Errorf("no credits-ignored warning in %+v", plan.Warnings)
}

func TestSolveDefaults(t *testing.T) {
	req := Request{
		Pools: []Pool{{Name: "mixed", Cloud: catalog.AWS, InstanceTypes: []string{"m5.xlarge", "m5.large"}, MaxNodes: 10,
			Zones: []string{"a", "b"}}},
		Workloads: []Workload{
			{Name: "hpa", MaxReplicas: intp(4), Requests: fit.Resources{CPUMillicores: 100}},
			{Name: "zonal", Replicas: intp(4), Requests: fit.Resources{CPUMillicores: 100}, Spread: fit.Spread{Type: fit.SpreadZone},
				NodeSelector: map[string]string{"kubernetes.io/arch": "amd64", "beta.kubernetes.io/os": "linux"}},
		},
	}
	plan, err := NewPlanner(EmbeddedCatalog()).Solve(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	p := plan.Pools[0]
	if p.Instance.Name != "m5.large" || !strings.Contains(p.Note, "smallest member, m5.large") || len(p.Members) != 2 {
		t.Errorf("mixed pool planned on %s (%q), want m5.large", p.Instance.Name, p.Note)
	}
	if w := plan.Workloads[0]; w.SteadyReplicas != 1 || w.PeakReplicas != 4 {
		t.Errorf("max-only workload: steady %d peak %d, want 1 and 4", w.SteadyReplicas, w.PeakReplicas)
	}
	if !plan.Fits || plan.Workloads[1].Steady.Unplaced != 0 {
		t.Errorf("well-known labels must match selectors: fits %v, failures %+v", plan.Fits, plan.Failures)
	}
	var warned bool
	for _, w := range plan.Warnings {
		warned = warned || (w.Code == WarnMinReplicasDefault && w.Path.String() == "Workloads[0].MinReplicas")
	}
	if !warned {
		t.Errorf("no %s warning in %+v", WarnMinReplicasDefault, plan.Warnings)
	}
	// A mixed pool's nodes carry their own member's instance type: a selector on one member's is not met by the
	// pool's every node (it used to be, on the smallest member's name).
	req.Workloads[1].NodeSelector = map[string]string{"node.kubernetes.io/instance-type": "m5.large"}
	plan, err = NewPlanner(EmbeddedCatalog()).Solve(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if plan.Fits || len(plan.Failures) == 0 || !strings.Contains(plan.Failures[0].Message, "m5.xlarge or m5.large (kubefit cannot know which)") {
		t.Errorf("instance-type selector on a mixed pool: fits %v, failures %+v", plan.Fits, plan.Failures)
	}
}

// fakeCatalog knows one made-up burstable type, so sizing can be tested without the embedded tables.
type fakeCatalog struct{ fail bool }

func (f fakeCatalog) InstanceType(_ context.Context, cloud catalog.Cloud, name string) (catalog.InstanceType, error) {
	if f.fail {
		return catalog.InstanceType{}, errors.New("catalog unreachable")
	}
	if name != "x1.burst" {
		return catalog.InstanceType{}, &catalog.NotFoundError{Cloud: cloud, Name: name, Suggestions: []string{"x1.burst"}}
	}
	return catalog.InstanceType{Cloud: catalog.AWS, Name: name, Family: "x1", VCPU: 2, MemoryMiB: 4096, Architecture: catalog.ArchAMD64,
		Burstable: true, Hypervisor: "nitro", MaxENIs: 3, IPv4PerENI: 6, ENIMaxPods: 17}, nil
}

func (f fakeCatalog) InstanceTypes(ctx context.Context, cloud catalog.Cloud) ([]catalog.InstanceType, error) {
	it, err := f.InstanceType(ctx, cloud, "x1.burst")
	return []catalog.InstanceType{it}, err
}

func (fakeCatalog) CreditBudget(_ context.Context, cloud catalog.Cloud, name string) (burst.Budget, bool, error) {
	b, _ := burst.Lookup(catalog.AWS, "t3a.medium") // a real budget under the fake name
	b.InstanceType = name
	return b, true, nil
}

func (fakeCatalog) Date() string                 { return "2026-01-01" }
func (fakeCatalog) Sources(catalog.Cloud) string { return "fake" }

func TestSolveInjectedCatalogCredits(t *testing.T) {
	p := pool("burst", "x1.burst", 4)
	p.Credits.Mode = burst.Standard
	req := Request{
		Pools: []Pool{p},
		Workloads: []Workload{{Name: "busy", Replicas: intp(2), Requests: fit.Resources{CPUMillicores: 200, MemoryBytes: 64 << 20},
			CPUUsageMillicores: 400}},
	}
	plan, err := NewPlanner(fakeCatalog{}).Solve(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	c := plan.Pools[0].Credits
	if c == nil || plan.Fits || c.BusiestNodeMillicores != 800 {
		t.Fatalf("credits %+v, fits %v: want the busiest node at 800m to run out of credits", c, plan.Fits)
	}
	last := plan.Failures[len(plan.Failures)-1]
	if last.Reason != ReasonCredits || last.Pool != "burst" || !strings.Contains(last.Message, "800m") {
		t.Errorf("last failure %+v, want a credits failure naming 800m", last)
	}
	if _, err := NewPlanner(fakeCatalog{fail: true}).Solve(context.Background(), req); err == nil || field.As(err) != nil {
		t.Errorf("a failing catalog must give a plain error, got %v", err)
	}
}

func TestLargestFit(t *testing.T) {
	// One 2,500m pod per c5.xlarge node (3,920m allocatable): 20 nodes take 20 replicas of 40.
	req := Request{
		Pools: []Pool{pool("web", "c5.xlarge", 20)},
		Workloads: []Workload{{Name: "php", MinReplicas: intp(2), MaxReplicas: intp(40),
			Requests: fit.Resources{CPUMillicores: 2500, MemoryBytes: 512 << 20}}},
	}
	p := NewPlanner(EmbeddedCatalog())
	got, err := p.LargestFit(context.Background(), req, 0)
	if err != nil || got != 20 {
		t.Fatalf("LargestFit = %d, %v; want 20", got, err)
	}
	req.Pools[0].MaxNodes = 40
	if got, err := p.LargestFit(context.Background(), req, 0); err != nil || got != 40 {
		t.Fatalf("LargestFit with room = %d, %v; want 40 (the maximum itself)", got, err)
	}
	if _, err := p.LargestFit(context.Background(), req, 3); err == nil {
		t.Fatal("want an error for a bad index")
	}
	// Another workload needs 30 nodes of the 20 on its own: no count of php is the remedy.
	req.Pools[0].MaxNodes = 20
	req.Workloads = append(req.Workloads, Workload{Name: "batch", Replicas: intp(30), Requests: fit.Resources{CPUMillicores: 2500}})
	if got, err := p.LargestFit(context.Background(), req, 0); !errors.Is(err, ErrNoCountFits) || got != 0 {
		t.Fatalf("LargestFit beside a workload that cannot fit = %d, %v; want ErrNoCountFits", got, err)
	}
}

// TestSolveWithoutNodes checks that WithoutNodes changes nothing but the node lists: the same plan with
// PoolPlan.Steady.Nodes, Peak.Nodes and CreditCheck.NodeMillicores empty.
func TestSolveWithoutNodes(t *testing.T) {
	burstable := pool("burst", "t3.large", 6)
	burstable.Credits.Mode = burst.Standard
	req := Request{
		Pools: []Pool{pool("general", "m5.xlarge", 3), burstable},
		Workloads: []Workload{
			{Name: "web", Replicas: intp(7), Requests: fit.Resources{CPUMillicores: 500, MemoryBytes: 1 << 30}, CPUUsageMillicores: 150,
				MaxSurge: fit.IntOrPercent{Value: 25, Percent: true}},
			{Name: "api", Replicas: intp(9), Requests: fit.Resources{CPUMillicores: 900, MemoryBytes: 3 << 30}, CPUUsageMillicores: 300,
				Spread: fit.Spread{Type: fit.SpreadNode}},
		},
	}
	full, err := NewPlanner(EmbeddedCatalog()).Solve(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	bare, err := NewPlanner(EmbeddedCatalog()).WithoutBlame().WithoutNodes().Solve(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if full.Pools[1].Credits == nil || len(full.Pools[1].Credits.NodeMillicores) == 0 || len(full.Pools[0].Peak.Nodes) == 0 {
		t.Fatal("the test needs a full plan with nodes and a credit check")
	}
	if n := len(bare.Pools[0].Peak.Nodes) + len(bare.Packing.Scenarios[1].Pools[0].Nodes) + len(bare.Pools[1].Credits.NodeMillicores); n != 0 {
		t.Errorf("WithoutNodes lists %d nodes", n)
	}
	for _, pl := range []*Plan{full, bare} {
		for i := range pl.Pools {
			p := &pl.Pools[i]
			p.Steady.Nodes, p.Peak.Nodes = nil, nil
			if p.Credits != nil {
				p.Credits.NodeMillicores = nil
			}
		}
		for i := range pl.Packing.Scenarios {
			for j := range pl.Packing.Scenarios[i].Pools {
				pl.Packing.Scenarios[i].Pools[j].Nodes = nil
			}
		}
	}
	full.Blame = nil
	if !reflect.DeepEqual(full, bare) {
		t.Errorf("WithoutNodes changed more than the node lists:\nfull %+v\nbare %+v", full, bare)
	}
}

// TestSolveSystemPods checks the EKS host-network pods on a pool: aws-node and kube-proxy take a slot
// each whether listed or not, and a listed one whose selector keeps it off the pool does not give its
// slot away.
func TestSolveSystemPods(t *testing.T) {
	web := Workload{Name: "web", Replicas: intp(1), Requests: fit.Resources{CPUMillicores: 10, MemoryBytes: 1 << 20}}
	for _, tt := range []struct {
		name string
		ds   []DaemonSet
		pods int64
	}{
		// m5.large: 29 max pods, 27 pod IPs.
		{"none listed", nil, 27},
		{"both listed", []DaemonSet{{Name: "aws-node", TakesPodSlot: true}, {Name: "kube-proxy", TakesPodSlot: true}}, 27},
		{"one listed, one more DaemonSet", []DaemonSet{{Name: "aws-node", TakesPodSlot: true}, {Name: "logs", TakesPodSlot: true}}, 26},
		{"listed off the pool", []DaemonSet{{Name: "aws-node", TakesPodSlot: true, NodeSelector: map[string]string{"kubernetes.io/arch": "arm64"}}}, 27},
	} {
		plan, err := NewPlanner(EmbeddedCatalog()).Solve(context.Background(), Request{Pools: []Pool{pool("general", "m5.large", 3)},
			DaemonSets: tt.ds, Workloads: []Workload{web}})
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if got := plan.Pools[0].WorkloadAllocatable.Pods; got != tt.pods {
			t.Errorf("%s: workload pod slots %d, want %d", tt.name, got, tt.pods)
		}
	}
}

// TestSolveWarnsAffinityOnUnknownLabels: NotIn on a hostname holds on every planned node only because
// planned nodes have no hostname; the plan says so. In on a hostname matches none instead (no warning).
func TestSolveWarnsAffinityOnUnknownLabels(t *testing.T) {
	terms := func(op fit.NodeSelectorOperator) []fit.NodeSelectorTerm {
		return []fit.NodeSelectorTerm{{MatchExpressions: []fit.NodeSelectorRequirement{{Key: "kubernetes.io/hostname", Operator: op, Values: []string{"node-1"}}}}}
	}
	for _, tt := range []struct {
		op   fit.NodeSelectorOperator
		want bool
	}{{fit.NodeNotIn, true}, {fit.NodeIn, false}} {
		plan, err := NewPlanner(EmbeddedCatalog()).Solve(context.Background(), Request{Pools: []Pool{pool("general", "m5.large", 3)},
			Workloads: []Workload{{Name: "web", Replicas: intp(1), Requests: fit.Resources{CPUMillicores: 100}, NodeAffinity: terms(tt.op)}}})
		if err != nil {
			t.Fatal(err)
		}
		got := false
		for _, w := range plan.Warnings {
			got = got || (w.Code == WarnAffinityUnknownLabel && w.Path.String() == "Workloads[0].NodeAffinity" && strings.Contains(w.Message, "kubernetes.io/hostname NotIn"))
		}
		if got != tt.want {
			t.Errorf("%s: warning %v, want %v (%+v)", tt.op, got, tt.want, plan.Warnings)
		}
	}
}

// TestSolvePreferredNodeAffinity: sizing passes a workload's preferred node affinity to the planner (a pod that
// prefers the pool another one is pinned to fills it first, so the pinned pool needs more nodes), and a
// preferred term with NotIn on a hostname is warned about at the term.
func TestSolvePreferredNodeAffinity(t *testing.T) {
	prefer := func(key string, op fit.NodeSelectorOperator, v string) []fit.WeightedNodeSelectorTerm {
		return []fit.WeightedNodeSelectorTerm{{Weight: 100, Term: fit.NodeSelectorTerm{MatchExpressions: []fit.NodeSelectorRequirement{{Key: key, Operator: op, Values: []string{v}}}}}}
	}
	solve := func(y []fit.WeightedNodeSelectorTerm) *Plan {
		spot, general := pool("spot", "m5.xlarge", 20), pool("general", "m5.xlarge", 4)
		spot.Labels, general.Labels = map[string]string{"tier": "spot"}, map[string]string{"tier": "general"}
		general.MinNodes = 4
		plan, err := NewPlanner(EmbeddedCatalog()).Solve(context.Background(), Request{Pools: []Pool{spot, general}, Workloads: []Workload{
			{Name: "x", Replicas: intp(8), Requests: fit.Resources{CPUMillicores: 1000, MemoryBytes: 1 << 30}, NodeSelector: map[string]string{"tier": "spot"}},
			{Name: "y", Replicas: intp(8), Requests: fit.Resources{CPUMillicores: 1000, MemoryBytes: 1 << 30}, PreferredNodeAffinity: y}}})
		if err != nil {
			t.Fatal(err)
		}
		return plan
	}
	spotNodes := func(p *Plan) int {
		for _, pr := range p.Packing.Scenarios[0].Pools {
			if pr.Pool == "spot" {
				return pr.NodesRequired
			}
		}
		return -1
	}
	blind, preferring := solve(nil), solve(prefer("tier", fit.NodeIn, "spot"))
	if spotNodes(preferring) <= spotNodes(blind) {
		t.Errorf("spot nodes: %d with y preferring spot, %d without: the preference did not reach the planner", spotNodes(preferring), spotNodes(blind))
	}
	got := false
	for _, w := range solve(prefer("kubernetes.io/hostname", fit.NodeNotIn, "node-1")).Warnings {
		got = got || (w.Code == WarnAffinityUnknownLabel && w.Path.String() == "Workloads[1].PreferredNodeAffinity[0].Term" && strings.Contains(w.Message, "kubernetes.io/hostname NotIn"))
	}
	if !got {
		t.Error("no warning on a preferred hostname NotIn term")
	}
}

// TestSolveFoldsNotMeasured: pools of one overhead scope no measured node backs share one caveat naming them;
// a measured scope adds none; each pool's evidence is in its plan and the report.
func TestSolveFoldsNotMeasured(t *testing.T) {
	win := func(name string) Pool {
		p := pool(name, "m5.large", 3)
		p.Overhead.Profile = overhead.EKSWindows
		return p
	}
	plan, err := NewPlanner(EmbeddedCatalog()).Solve(context.Background(), Request{
		Pools:     []Pool{win("a"), pool("linux", "t3.medium", 3), win("b")},
		Workloads: []Workload{{Name: "web", Replicas: intp(1), Requests: fit.Resources{CPUMillicores: 100}}}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range plan.Warnings {
		if w.Code == overhead.CodeNotMeasured {
			got = append(got, w.Message)
		}
	}
	if len(got) != 1 || !strings.Contains(got[0], "eks-windows") || !strings.HasSuffix(got[0], NotMeasuredPools+`s "a", "b")`) {
		t.Errorf("not-measured caveats %q; want one for eks-windows naming pools a and b", got)
	}
	if ev := plan.Pools[1].Overhead.Evidence; ev.Status != overhead.EvidenceMeasured || ev.Scope != "eks-al2023, ENI max pods" {
		t.Errorf("t3.medium pool evidence %+v", ev)
	}
	if !strings.Contains(plan.Report, "linux (t3.medium, eks-al2023, ENI max pods): exact on 1 measured node") {
		t.Errorf("report lacks the pool's evidence:\n%s", plan.Report)
	}
}

// TestSolveWithoutHeadroomAndReport: WithoutHeadroom and WithoutReport leave the workloads' headroom, the
// packer's headroom and the report empty, and every other figure of the plan as it is.
func TestSolveWithoutHeadroomAndReport(t *testing.T) {
	req := Request{
		Pools: []Pool{{Name: "general", Cloud: catalog.AWS, InstanceTypes: []string{"m5.large"}, MaxNodes: 4, Zones: []string{"a", "b"}}},
		Workloads: []Workload{
			{Name: "web", Replicas: intp(3), Requests: fit.Resources{CPUMillicores: 300, MemoryBytes: 512 << 20}, Spread: fit.Spread{Type: fit.SpreadZone}},
			{Name: "big", Replicas: intp(5), Requests: fit.Resources{CPUMillicores: 900, MemoryBytes: 3 << 30}},
		},
	}
	full, err := NewPlanner(EmbeddedCatalog()).Solve(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	brief, err := NewPlanner(EmbeddedCatalog()).WithoutHeadroom().WithoutReport().Solve(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if full.Report == "" || len(full.Packing.Headroom) == 0 || brief.Report != "" || len(brief.Packing.Headroom) != 0 {
		t.Fatalf("report %d and %d bytes, headroom of %d and %d workloads", len(full.Report), len(brief.Report),
			len(full.Packing.Headroom), len(brief.Packing.Headroom))
	}
	full.Report, full.Packing.Headroom = "", nil
	for i := range full.Workloads {
		full.Workloads[i].Headroom = 0
	}
	if !reflect.DeepEqual(full, brief) {
		t.Errorf("the plans differ beyond the headroom and the report:\n%+v\n%+v", full, brief)
	}
}

// TestMemoryInBytesWarns: a memory request under 1 MiB (memory = "2", read as 2 bytes) warns on the request and
// says to write the suffix; 1 MiB does not.
func TestMemoryInBytesWarns(t *testing.T) {
	p := NewPlanner(EmbeddedCatalog())
	for _, tc := range []struct {
		mem  int64
		warn bool
	}{{2, true}, {1<<20 - 1, true}, {1 << 20, false}, {0, false}} {
		req := Request{Pools: []Pool{pool("web", "m5.large", 10)},
			Workloads: []Workload{{Name: "api", Replicas: intp(2), Requests: fit.Resources{CPUMillicores: 100, MemoryBytes: tc.mem}}}}
		plan, err := p.Solve(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, w := range plan.Warnings {
			if w.Code == WarnMemoryInBytes {
				found = true
				if w.Path.String() != "Workloads[0].Requests.MemoryBytes" || !strings.Contains(w.Message, "write it with Mi or Gi") {
					t.Errorf("memory %d: warning %+v", tc.mem, w)
				}
			}
		}
		if found != tc.warn {
			t.Errorf("memory %d bytes: warned %v, want %v", tc.mem, found, tc.warn)
		}
	}
}

// TestGKEArmTaint: GKE taints its Arm nodes kubernetes.io/arch=arm64:NoSchedule and tolerates it for pods that
// ask for arm64 by node selector or by a node affinity admitting arm64 only; a pod without either, or one
// admitting both architectures, stays off a t2a pool (the taint), and so does a DaemonSet that does not ask.
// The same type's Arm nodes on EKS (m6g) carry no such taint.
func TestGKEArmTaint(t *testing.T) {
	archIn := func(values ...string) []fit.NodeSelectorTerm {
		return []fit.NodeSelectorTerm{{MatchExpressions: []fit.NodeSelectorRequirement{{Key: "kubernetes.io/arch", Operator: fit.NodeIn, Values: values}}}}
	}
	agent := DaemonSet{Name: "agent", Requests: fit.Resources{CPUMillicores: 200, MemoryBytes: 200 << 20}, TakesPodSlot: true}
	for _, tc := range []struct {
		name     string
		cloud    catalog.Cloud
		instance string
		w        Workload
		fits     bool
	}{
		{"no selector", catalog.GCP, "t2a-standard-4", Workload{}, false},
		{"node selector arm64", catalog.GCP, "t2a-standard-4", Workload{NodeSelector: map[string]string{"kubernetes.io/arch": "arm64"}}, true},
		{"affinity arm64 only", catalog.GCP, "t2a-standard-4", Workload{NodeAffinity: archIn("arm64")}, true},
		{"affinity both architectures", catalog.GCP, "t2a-standard-4", Workload{NodeAffinity: archIn("amd64", "arm64")}, false},
		{"written toleration", catalog.GCP, "t2a-standard-4", Workload{Tolerations: []fit.Toleration{{Key: "kubernetes.io/arch", Operator: fit.OperatorExists}}}, true},
		{"eks graviton", catalog.AWS, "m6g.xlarge", Workload{}, true},
	} {
		w := tc.w
		w.Name, w.Replicas, w.Requests = "api", intp(3), fit.Resources{CPUMillicores: 500, MemoryBytes: 512 << 20}
		req := Request{Pools: []Pool{{Name: "arm", Cloud: tc.cloud, InstanceTypes: []string{tc.instance}, MaxNodes: 3}},
			Workloads: []Workload{w}, DaemonSets: []DaemonSet{agent}}
		plan, err := NewPlanner(EmbeddedCatalog()).Solve(context.Background(), req)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if plan.Fits != tc.fits {
			t.Errorf("%s: fits %v, want %v (%+v)", tc.name, plan.Fits, tc.fits, plan.Failures)
		}
		if !tc.fits && (len(plan.Failures) == 0 || plan.Failures[0].Reason != Reason(fit.ReasonTaint)) {
			t.Errorf("%s: failures %+v, want the taint", tc.name, plan.Failures)
		}
		// The platform's system DaemonSets tolerate every taint and land on every pool; the agent is the point.
		if ds := plan.Pools[0].DaemonSets; (tc.cloud == catalog.GCP) == slices.Contains(ds, agent.Name) {
			t.Errorf("%s: DaemonSets on the pool %v: the agent asks for no arm64, so it lands on GKE Arm nodes never and on EKS always", tc.name, ds)
		}
	}
}

// TestGKEGPUTaint: a GKE pool of a type with GPUs (a2-highgpu-1g; g2-standard-8, one NVIDIA L4) carries GKE's
// nvidia.com/gpu=present:NoSchedule taint, planned always since the cluster's other pools are not known: a pod
// without a GPU request or a toleration stays off it (the taint), a pod requesting a GPU gets the toleration as
// GKE's ExtendedResourceToleration admission gives it (and g2-standard-8 holds it); a DaemonSet lands there only
// with a written toleration. The pool's note says so. An EKS GPU pool (g4dn.xlarge) carries no
// such taint; a GPU pod on an EKS or AKS pool the user taints nvidia.com/gpu:NoSchedule binds, since both
// run the ExtendedResourceToleration admission plugin too (before, only GKE's pods got the toleration); a pod
// requesting none stays off it.
func TestGKEGPUTaint(t *testing.T) {
	agent := DaemonSet{Name: "agent", Requests: fit.Resources{CPUMillicores: 100, MemoryBytes: 100 << 20}, TakesPodSlot: true}
	gpuAgent := DaemonSet{Name: "dcgm", Requests: fit.Resources{CPUMillicores: 100, MemoryBytes: 100 << 20}, TakesPodSlot: true,
		Tolerations: []fit.Toleration{{Key: "nvidia.com/gpu", Operator: fit.OperatorExists, Effect: fit.EffectNoSchedule}}}
	userTaint := fit.Taint{Key: "nvidia.com/gpu", Value: "present", Effect: fit.EffectNoSchedule}
	for _, tc := range []struct {
		name     string
		cloud    catalog.Cloud
		instance string
		gpu      int64
		tol      []fit.Toleration
		taints   []fit.Taint
		fits     bool
	}{
		{"gke a2 web pods", catalog.GCP, "a2-highgpu-1g", 0, nil, nil, false},
		{"gke g2 web pods", catalog.GCP, "g2-standard-8", 0, nil, nil, false},
		{"gke g2 gpu pod", catalog.GCP, "g2-standard-8", 1, nil, nil, true},
		{"gke g2 two gpus", catalog.GCP, "g2-standard-8", 2, nil, nil, false},
		{"gke g2 written toleration", catalog.GCP, "g2-standard-8", 0, []fit.Toleration{{Key: "nvidia.com/gpu", Operator: fit.OperatorExists}}, nil, true},
		{"gke n2 no gpus", catalog.GCP, "n2-standard-4", 0, nil, nil, true},
		{"eks g4dn web pods", catalog.AWS, "g4dn.xlarge", 0, nil, nil, true},
		{"eks user taint, gpu pod", catalog.AWS, "g4dn.xlarge", 1, nil, []fit.Taint{userTaint}, true},
		{"eks user taint, web pod", catalog.AWS, "g4dn.xlarge", 0, nil, []fit.Taint{userTaint}, false},
		{"aks user taint, gpu pod", catalog.Azure, "Standard_NC4as_T4_v3", 1, nil, []fit.Taint{userTaint}, true},
	} {
		w := Workload{Name: "api", Replicas: intp(1), Tolerations: tc.tol,
			Requests: fit.Resources{CPUMillicores: 500, MemoryBytes: 512 << 20, GPU: tc.gpu}}
		req := Request{Pools: []Pool{{Name: "gpu", Cloud: tc.cloud, InstanceTypes: []string{tc.instance}, MaxNodes: 2, Taints: tc.taints}},
			Workloads: []Workload{w}, DaemonSets: []DaemonSet{agent, gpuAgent}}
		plan, err := NewPlanner(EmbeddedCatalog()).Solve(context.Background(), req)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if plan.Fits != tc.fits {
			t.Errorf("%s: fits %v, want %v (%+v)", tc.name, plan.Fits, tc.fits, plan.Failures)
		}
		gkeGPU := tc.cloud == catalog.GCP && tc.instance != "n2-standard-4"
		if !tc.fits && tc.gpu == 0 && (len(plan.Failures) == 0 || plan.Failures[0].Reason != Reason(fit.ReasonTaint)) {
			t.Errorf("%s: failures %+v, want the taint", tc.name, plan.Failures)
		}
		if got := strings.Contains(plan.Pools[0].Note, "nvidia.com/gpu=present:NoSchedule"); got != gkeGPU {
			t.Errorf("%s: note %q names GKE's GPU taint: %v, want %v", tc.name, plan.Pools[0].Note, got, gkeGPU)
		}
		if tc.taints == nil {
			if ds := plan.Pools[0].DaemonSets; slices.Contains(ds, agent.Name) == gkeGPU {
				t.Errorf("%s: DaemonSets on the pool %v: the agent tolerates no GPU taint, so it lands on GKE GPU nodes never", tc.name, ds)
			}
		}
		if gkeGPU && !slices.Contains(plan.Pools[0].DaemonSets, gpuAgent.Name) {
			t.Errorf("%s: DaemonSets on the pool %v: a DaemonSet tolerating the GPU taint lands there", tc.name, plan.Pools[0].DaemonSets)
		}
	}
}

// TestPlatformPoolLabels: pods selecting their AKS or GKE node pool by the label the platform puts on its nodes
// (kubernetes.azure.com/agentpool, agentpool, cloud.google.com/gke-nodepool, cloud.google.com/gke-spot) bind on
// the pool of that name, and stay off a pool of another name (the selector).
func TestPlatformPoolLabels(t *testing.T) {
	for _, tc := range []struct {
		name     string
		cloud    catalog.Cloud
		instance string
		spot     bool
		selector map[string]string
		fits     bool
	}{
		{"aks agentpool", catalog.Azure, "Standard_D4s_v5", false, map[string]string{"kubernetes.azure.com/agentpool": "web"}, true},
		{"aks legacy agentpool", catalog.Azure, "Standard_D4s_v5", false, map[string]string{"agentpool": "web"}, true},
		{"aks other pool", catalog.Azure, "Standard_D4s_v5", false, map[string]string{"agentpool": "batch"}, false},
		{"aks mode unknown", catalog.Azure, "Standard_D4s_v5", false, map[string]string{"kubernetes.azure.com/mode": "user"}, false},
		{"gke node pool", catalog.GCP, "n2-standard-4", false, map[string]string{"cloud.google.com/gke-nodepool": "web"}, true},
		{"gke spot", catalog.GCP, "n2-standard-4", true, map[string]string{"cloud.google.com/gke-spot": "true"}, true},
		{"gke spot on on-demand", catalog.GCP, "n2-standard-4", false, map[string]string{"cloud.google.com/gke-spot": "true"}, false},
		{"eks has neither", catalog.AWS, "m5.xlarge", false, map[string]string{"cloud.google.com/gke-nodepool": "web"}, false},
	} {
		capType := fit.CapacityOnDemand
		if tc.spot {
			capType = fit.CapacitySpot
		}
		req := Request{Pools: []Pool{{Name: "web", Cloud: tc.cloud, InstanceTypes: []string{tc.instance}, MaxNodes: 3, CapacityType: capType}},
			Workloads: []Workload{{Name: "api", Replicas: intp(2), NodeSelector: tc.selector, Requests: fit.Resources{CPUMillicores: 500, MemoryBytes: 512 << 20}}}}
		plan, err := NewPlanner(EmbeddedCatalog()).Solve(context.Background(), req)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if plan.Fits != tc.fits {
			t.Errorf("%s: fits %v, want %v (%+v)", tc.name, plan.Fits, tc.fits, plan.Failures)
		}
	}
}
