package overhead

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/resource"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// goldenCases is a representative set of profiles and options; testdata/compute.golden holds their terms,
// kubelet arguments and warnings.
var goldenCases = []struct {
	name string
	in   Input
}{
	{"eks-al2023 managed m5.large", Input{Profile: EKSAL2023, Instance: m5large}},
	{"eks-al2023 managed m5.xlarge with DaemonSets", Input{Profile: EKSAL2023, Instance: m5xlarge, DaemonSets: []DaemonSet{
		{Name: "aws-node", Requests: resource.List{CPUMillicores: 25, MemoryBytes: 0}, TakesPodSlot: true},
		{Name: "kube-proxy", Requests: resource.List{CPUMillicores: 100}, TakesPodSlot: true},
		{Name: "fluent-bit", Requests: resource.List{CPUMillicores: 100, MemoryBytes: 128 * mi}, TakesPodSlot: true}}}},
	{"eks-al2023 managed prefix delegation", Input{Profile: EKSAL2023, Instance: m5large, EKS: EKSOptions{PrefixDelegation: true}}},
	{"eks-al2023 karpenter custom networking arm64", Input{Profile: EKSAL2023, Instance: m6g, EKS: EKSOptions{Kind: Karpenter, CustomNetworking: true}}},
	{"eks-al2023 self-managed maxPodsExpression", Input{Profile: EKSAL2023, Instance: m5large, EKS: EKSOptions{Kind: SelfManaged, MaxPodsExpressionResult: 40}}},
	{"eks-al2 self-managed max pods 50", Input{Profile: EKSAL2, Instance: m5large, MaxPods: 50, EKS: EKSOptions{Kind: SelfManaged}}},
	{"eks-bottlerocket self-managed max pods 50", Input{Profile: EKSBottlerocket, Instance: m5large, MaxPods: 50, EKS: EKSOptions{Kind: SelfManaged}}},
	{"eks-windows", Input{Profile: EKSWindows, Instance: m5large}},
	{"eks-al2023 auto mode m5.2xlarge", Input{Profile: EKSAL2023, Instance: m52xl, EKS: EKSOptions{Kind: AutoMode}}},
	{"eks no ENI data", Input{Profile: EKSAL2023, Instance: Instance{Cloud: catalog.AWS, Name: "x9.large", VCPU: 2, MemoryMiB: 8192}}},
	{"aks-linux 1.28 DS1_v2 measured", Input{Profile: AKSLinux, Instance: ds1v2, KubernetesVersion: "1.28",
		MeasuredCapacity: Reservation{MemoryBytes: ptr(3500452 * 1024)}}},
	{"aks-linux 1.28 DS2_v2 observed 69m", Input{Profile: AKSLinux, Instance: ds2v2, KubernetesVersion: "1.28",
		MeasuredCapacity: Reservation{MemoryBytes: ptr(7113160 * 1024)}, KubeReserved: Reservation{CPUMillicores: ptr(69)}}},
	{"aks-linux 1.29 both rules", Input{Profile: AKSLinux, Instance: d2sv5, KubernetesVersion: "1.29", MaxPods: 30}},
	{"aks-linux 1.30 kubenet", Input{Profile: AKSLinux, Instance: d2sv5, KubernetesVersion: "1.30", AKS: AKSOptions{NetworkPlugin: Kubenet}}},
	{"aks-windows 1.28 DS2_v2 measured", Input{Profile: AKSWindows, Instance: ds2v2, KubernetesVersion: "1.28",
		MeasuredCapacity: Reservation{MemoryBytes: ptr(7113160 * 1024)}}},
	{"aks-windows current D2s_v5", Input{Profile: AKSWindows, Instance: d2sv5}},
	{"gke-standard e2-medium", Input{Profile: GKEStandard, Instance: e2medium}},
	{"gke-standard n2-standard-4 max pods 200", Input{Profile: GKEStandard, Instance: n2std4, MaxPods: 200}},
	{"gke-standard n2-standard-16", Input{Profile: GKEStandard, Instance: n2std16}},
	{"aks-linux measured allocatable", Input{Profile: AKSLinux, Instance: ds2v2, KubernetesVersion: "1.28",
		MeasuredAllocatable: MeasuredAllocatable{CPUMillicores: ptr(1931), MemoryBytes: ptr(4667848 * 1024), Pods: ptr(110)}}},
	{"custom 4 vCPU 16Gi with overrides", Input{Profile: Custom, Instance: CustomInstance("", 4, 16*gi), VMMemoryOverheadBP: ptr(0),
		KubeReserved:   Reservation{CPUMillicores: ptr(100), MemoryBytes: ptr(gi)},
		SystemReserved: Reservation{EphemeralStorageBytes: ptr(gi)},
		EvictionHard:   map[string]Threshold{SignalMemory: {IsPercent: true, PercentBP: 500}, SignalNodefs: {Bytes: 2 * gi}}}},
}

// renderResult writes a result for people to review: figures, terms with units and formulas, kubelet
// arguments and warnings with their codes and paths.
func renderResult(b *strings.Builder, r Result) {
	list := func(name string, l resource.List) {
		fmt.Fprintf(b, "  %-19s cpu=%s memory=%s ephemeral-storage=%s pods=%d gpu=%d\n", name,
			resource.QuantityCPU(l.CPUMillicores), resource.QuantityBytes(l.MemoryBytes), resource.QuantityBytes(l.EphemeralStorageBytes), l.Pods, l.GPU)
	}
	fmt.Fprintf(b, "  profile %s, rules %q, max pods %d, IP capacity %d\n", r.Profile, r.RulesVersion, r.MaxPods, r.IPCap)
	list("capacity", r.Capacity)
	list("kube-reserved", r.KubeReserved)
	list("system-reserved", r.SystemReserved)
	list("eviction", r.EvictionThreshold)
	list("allocatable", r.Allocatable)
	list("daemonset overhead", r.DaemonSetOverhead)
	list("available", r.Available)
	b.WriteString("  terms:\n")
	for _, t := range r.Terms {
		fmt.Fprintf(b, "    %s = %d %s by %s: %s\n", t.Name, t.Value, t.Unit, t.Formula, t.Detail)
	}
	fmt.Fprintf(b, "  kubelet: %s\n", strings.Join(r.KubeletArgs, " "))
	for _, w := range r.Warnings {
		fmt.Fprintf(b, "  warning %s at %s: %s\n", w.Code, w.Path, w.Message)
	}
}

func TestComputeGoldenFile(t *testing.T) {
	var b strings.Builder
	for _, c := range goldenCases {
		r, err := Compute(c.in)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		fmt.Fprintf(&b, "== %s\n", c.name)
		renderResult(&b, r)
		for _, term := range r.Terms {
			checkDomainWords(t, term.Detail)
			if _, ok := Formulas[term.Formula]; !ok {
				t.Errorf("%s: term %s has unknown formula %q", c.name, term.Name, term.Formula)
			}
			if term.Unit != UnitMillicores && term.Unit != UnitBytes && term.Unit != UnitPods && term.Unit != UnitVolumes {
				t.Errorf("%s: term %s has unit %q", c.name, term.Name, term.Unit)
			}
		}
		for _, w := range r.Warnings {
			checkDomainWords(t, w.Message)
			if !strings.HasPrefix(w.Code, "overhead.") {
				t.Errorf("%s: warning code %q", c.name, w.Code)
			}
		}
	}
	golden := filepath.Join("testdata", "compute.golden")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -run TestComputeGoldenFile -update to create it)", err)
	}
	if got := b.String(); got != string(want) {
		t.Errorf("results differ from %s (review, then run with -update):\n%s", golden, lineDiff(string(want), got))
	}
}

// lineDiff lists the lines that differ between want and got, by position.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	for i := 0; i < max(len(w), len(g)); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			fmt.Fprintf(&b, "line %d\n- %s\n+ %s\n", i+1, wl, gl)
		}
	}
	return b.String()
}
