package overhead

import (
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/resource"
)

func ptr(v int64) *int64 { return &v }

// Instance rows as the catalog holds them (internal/sources/data/catalog, spot-checked in SOURCES.md §3).
var (
	m5large  = Instance{Cloud: catalog.AWS, Name: "m5.large", Family: "m5", VCPU: 2, MemoryMiB: 8192, Architecture: "x86_64", Hypervisor: "nitro", MaxENIs: 3, IPv4PerENI: 10, ENIMaxPods: 29}
	m5xlarge = Instance{Cloud: catalog.AWS, Name: "m5.xlarge", Family: "m5", VCPU: 4, MemoryMiB: 16384, Architecture: "x86_64", Hypervisor: "nitro", MaxENIs: 4, IPv4PerENI: 15, ENIMaxPods: 58}
	m52xl    = Instance{Cloud: catalog.AWS, Name: "m5.2xlarge", Family: "m5", VCPU: 8, MemoryMiB: 32768, Architecture: "x86_64", Hypervisor: "nitro", MaxENIs: 4, IPv4PerENI: 15, ENIMaxPods: 58}
	m6g      = Instance{Cloud: catalog.AWS, Name: "m6g.medium", Family: "m6g", VCPU: 1, MemoryMiB: 4096, Architecture: "arm64", Hypervisor: "nitro", MaxENIs: 2, IPv4PerENI: 4, ENIMaxPods: 8}
	ds1v2    = Instance{Cloud: catalog.Azure, Name: "Standard_DS1_v2", VCPU: 1, MemoryMiB: 3584, Architecture: "x86_64"}
	ds2v2    = Instance{Cloud: catalog.Azure, Name: "Standard_DS2_v2", VCPU: 2, MemoryMiB: 7168, Architecture: "x86_64"}
	d2sv5    = Instance{Cloud: catalog.Azure, Name: "Standard_D2s_v5", VCPU: 2, MemoryMiB: 8192, Architecture: "x86_64"}
	b1ms     = Instance{Cloud: catalog.Azure, Name: "Standard_B1ms", VCPU: 1, MemoryMiB: 4096, Architecture: "x86_64"}
	e2medium = Instance{Cloud: catalog.GCP, Name: "e2-medium", Family: "e2", VCPU: 2, MemoryMiB: 4096, Architecture: "x86_64", SharedCore: true}
	n2std4   = Instance{Cloud: catalog.GCP, Name: "n2-standard-4", Family: "n2", VCPU: 4, MemoryMiB: 16384, Architecture: "x86_64"}
	n2std16  = Instance{Cloud: catalog.GCP, Name: "n2-standard-16", Family: "n2", VCPU: 16, MemoryMiB: 65536, Architecture: "x86_64"}
	n1std2   = Instance{Cloud: catalog.GCP, Name: "n1-standard-2", Family: "n1", VCPU: 2, MemoryMiB: 7680, Architecture: "x86_64"}
)

func TestComputeGolden(t *testing.T) {
	tests := []struct {
		name string
		in   Input
		want map[string]int64 // figure → value; every listed figure is checked, zeros included
	}{
		// overhead.md §12.2.
		{name: "m5.large al2023 managed", in: Input{Profile: EKSAL2023, Instance: m5large},
			want: map[string]int64{"maxPods": 29, "kube.cpu": 70, "kube.memory": 574 * mi, "kube.ephemeral": gi, "eviction.memory": 100 * mi, "system.memory": 0, "alloc.cpu": 1930, "alloc.pods": 29}},
		// §12.3.
		{name: "m5.xlarge al2023 managed", in: Input{Profile: EKSAL2023, Instance: m5xlarge},
			want: map[string]int64{"maxPods": 58, "kube.cpu": 80, "kube.memory": 893 * mi, "kube.ephemeral": gi, "eviction.memory": 100 * mi, "system.cpu": 0, "system.memory": 0, "alloc.cpu": 3920}},
		// §12.5: capacity 3500452Ki measured; 3500452 − 896×1024 − 750×1024 = 1814948Ki.
		{name: "DS1_v2 aks 1.28 measured", in: Input{Profile: AKSLinux, Instance: ds1v2, KubernetesVersion: "1.28",
			MeasuredCapacity: Reservation{MemoryBytes: ptr(3500452 * 1024)}},
			want: map[string]int64{"maxPods": 250, "kube.cpu": 60, "kube.memory": 896 * mi, "eviction.memory": 750 * mi, "kube.ephemeral": 0, "system.memory": 0, "alloc.cpu": 940, "alloc.memory": 1814948 * 1024}},
		// §12.5: (25×4096 + 20×3072) div 100 = 1638; 7113160 − 1638×1024 − 750×1024 = 4667848Ki.
		{name: "DS2_v2 aks 1.28 measured", in: Input{Profile: AKSLinux, Instance: ds2v2, KubernetesVersion: "1.28",
			MeasuredCapacity: Reservation{MemoryBytes: ptr(7113160 * 1024)}},
			want: map[string]int64{"kube.cpu": 100, "kube.memory": 1638 * mi, "eviction.memory": 750 * mi, "alloc.cpu": 1900, "alloc.memory": 4667848 * 1024}},
		// §12.5: the observed 69m flag as an override gives 1931m.
		{name: "DS2_v2 observed 69m", in: Input{Profile: AKSLinux, Instance: ds2v2, KubernetesVersion: "1.28",
			MeasuredCapacity: Reservation{MemoryBytes: ptr(7113160 * 1024)}, KubeReserved: Reservation{CPUMillicores: ptr(69)}},
			want: map[string]int64{"kube.cpu": 69, "alloc.cpu": 1931, "alloc.memory": 4667848 * 1024}},
		// §12.6: 8 GiB, 30 pods: min(20×30+50, 2048) = 650Mi, eviction 100Mi.
		{name: "aks 1.30 8GiB 30 pods", in: Input{Profile: AKSLinux, Instance: d2sv5, KubernetesVersion: "1.30", MaxPods: 30},
			want: map[string]int64{"maxPods": 30, "kube.memory": 650 * mi, "eviction.memory": 100 * mi, "kube.ephemeral": 0}},
		// §12.6: 4 GiB, 70 pods: min(1450, 1024) = 1024Mi (the 25 % cap).
		{name: "aks current 4GiB 70 pods", in: Input{Profile: AKSLinux, Instance: b1ms, MaxPods: 70},
			want: map[string]int64{"maxPods": 70, "kube.memory": 1024 * mi, "eviction.memory": 100 * mi}},
		// GKE shared-core E2 gets 1060m, allocatable 940m. Memory: 25 % × 4000 + 20 % × 96 = 1019.2 → 1019 MiB.
		{name: "gke e2-medium", in: Input{Profile: GKEStandard, Instance: e2medium},
			want: map[string]int64{"maxPods": 110, "kube.cpu": 1060, "kube.memory": 1019 * mi, "eviction.memory": 100 * mi, "alloc.cpu": 940}},
		// GKE n2-standard-4: tiers 80m; memory 1000 + 800 + 800 + 6 % × 384 = 2623.04 → 2623 MiB.
		// Ephemeral on the 100 GiB default disk: min(50, 41, 100) GiB = 41 GiB.
		{name: "gke n2-standard-4", in: Input{Profile: GKEStandard, Instance: n2std4},
			want: map[string]int64{"kube.cpu": 80, "kube.memory": 2623 * mi, "kube.ephemeral": 41 * gi, "eviction.memory": 100 * mi}},
		// Measured GKE n2-standard-16 (issue 14): 1000 + 800 + 800 + 6 % × (65536 − 16000) = 5572 MiB
		// kube-reserved, 5672 MiB between capacity and allocatable.
		{name: "gke n2-standard-16 measured", in: Input{Profile: GKEStandard, Instance: n2std16, MeasuredCapacity: Reservation{MemoryBytes: ptr(64000 * mi)}},
			want: map[string]int64{"kube.cpu": 110, "kube.memory": 5572 * mi, "eviction.memory": 100 * mi, "system.memory": 0, "alloc.memory": (64000 - 5672) * mi}},
		// A GKE n1-standard-2 (7.5 GB) kubelet config shows kubeReserved memory 1736Mi (awslabs/amazon-eks-ami#318):
		// 1000 + 20 % × 3680 = 1736.
		{name: "gke n1-standard-2 kubelet config", in: Input{Profile: GKEStandard, Instance: n1std2},
			want: map[string]int64{"kube.cpu": 70, "kube.memory": 1736 * mi, "kube.ephemeral": 41 * gi, "eviction.memory": 100 * mi}},
		// Bottlerocket: P is the effective max pods (user set 50): 11×50+255 = 805Mi.
		{name: "bottlerocket max_pods override", in: Input{Profile: EKSBottlerocket, Instance: m5large, MaxPods: 50, EKS: EKSOptions{Kind: SelfManaged}},
			want: map[string]int64{"maxPods": 50, "kube.memory": 805 * mi}},
		// AL2 keeps P = P_ENI whatever max_pods is.
		{name: "al2 max_pods override keeps P_ENI", in: Input{Profile: EKSAL2, Instance: m5large, MaxPods: 50, EKS: EKSOptions{Kind: SelfManaged}},
			want: map[string]int64{"maxPods": 50, "kube.memory": 574 * mi}},
		// Prefix delegation on MNG: 3×9×16+2 = 434, capped at 110 for 2 vCPU; P = max(29, 110) = 110 → 1465Mi.
		{name: "al2023 managed prefix delegation", in: Input{Profile: EKSAL2023, Instance: m5large, EKS: EKSOptions{PrefixDelegation: true}},
			want: map[string]int64{"maxPods": 110, "kube.memory": 1465 * mi, "ipCap": 432}},
		// A managed node group without a custom AMI runs the max pods EKS writes (110 here), not the launch template's
		// (overhead.md §8.3.1): the smaller pod count is planned, and memory for the larger, P = max(29, 200, 110).
		{name: "al2023 managed max_pods above EKS's", in: Input{Profile: EKSAL2023, Instance: m5large, MaxPods: 200, EKS: EKSOptions{PrefixDelegation: true}},
			want: map[string]int64{"maxPods": 110, "kube.memory": (11*200 + 255) * mi}},
		{name: "al2023 managed max_pods below EKS's", in: Input{Profile: EKSAL2023, Instance: m5large, MaxPods: 50, EKS: EKSOptions{PrefixDelegation: true}},
			want: map[string]int64{"maxPods": 50, "kube.memory": 1465 * mi}},
		{name: "al2023 managed maxPodsExpression", in: Input{Profile: EKSAL2023, Instance: m5large, EKS: EKSOptions{PrefixDelegation: true, MaxPodsExpressionResult: 60}},
			want: map[string]int64{"maxPods": 60, "kube.memory": 1465 * mi}},
		{name: "bottlerocket managed max_pods above EKS's", in: Input{Profile: EKSBottlerocket, Instance: m5large, MaxPods: 50},
			want: map[string]int64{"maxPods": 29, "kube.memory": 805 * mi}},
		// Custom networking removes one ENI: 2×9+2 = 20 on Karpenter; P stays P_ENI (29).
		{name: "karpenter custom networking", in: Input{Profile: EKSAL2023, Instance: m5large, EKS: EKSOptions{Kind: Karpenter, CustomNetworking: true}},
			want: map[string]int64{"maxPods": 20, "kube.memory": 574 * mi, "ipCap": 18}},
		// Windows: 110 pods, 11×110+255 = 1465Mi.
		{name: "eks windows", in: Input{Profile: EKSWindows, Instance: m5large},
			want: map[string]int64{"maxPods": 110, "kube.memory": 1465 * mi}},
		// AKS Windows books 2048Mi system-reserved; memory total checked via allocatable below.
		{name: "aks windows 1.28", in: Input{Profile: AKSWindows, Instance: ds2v2, KubernetesVersion: "1.28", MeasuredCapacity: Reservation{MemoryBytes: ptr(7113160 * 1024)}},
			want: map[string]int64{"system.memory": 2048 * mi, "system.cpu": 0, "eviction.memory": 0, "alloc.memory": (7113160 - 1638*1024 - 2048*1024) * 1024}},
		// AKS Windows from 1.29: the documented per-pod rule, 100Mi eviction and 2 GiB system-reserved (with a warning).
		{name: "aks windows 1.30", in: Input{Profile: AKSWindows, Instance: d2sv5, KubernetesVersion: "1.30", MaxPods: 30},
			want: map[string]int64{"kube.memory": 650 * mi, "system.memory": 2048 * mi, "eviction.memory": 100 * mi}},
		// 0 % disables the memory threshold.
		{name: "eviction 0% disables", in: Input{Profile: EKSAL2023, Instance: m5large, EvictionHard: map[string]Threshold{SignalMemory: {IsPercent: true}}},
			want: map[string]int64{"eviction.memory": 0}},
	}
	figures := map[string]func(Result) int64{
		"maxPods":         func(r Result) int64 { return r.MaxPods },
		"ipCap":           func(r Result) int64 { return r.IPCap },
		"kube.cpu":        func(r Result) int64 { return r.KubeReserved.CPUMillicores },
		"kube.memory":     func(r Result) int64 { return r.KubeReserved.MemoryBytes },
		"kube.ephemeral":  func(r Result) int64 { return r.KubeReserved.EphemeralStorageBytes },
		"system.cpu":      func(r Result) int64 { return r.SystemReserved.CPUMillicores },
		"system.memory":   func(r Result) int64 { return r.SystemReserved.MemoryBytes },
		"eviction.memory": func(r Result) int64 { return r.EvictionThreshold.MemoryBytes },
		"alloc.cpu":       func(r Result) int64 { return r.Allocatable.CPUMillicores },
		"alloc.memory":    func(r Result) int64 { return r.Allocatable.MemoryBytes },
		"alloc.pods":      func(r Result) int64 { return r.Allocatable.Pods },
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Compute(tt.in)
			if err != nil {
				t.Fatalf("Compute: %v", err)
			}
			for _, name := range sortedKeys(tt.want) {
				get, ok := figures[name]
				if !ok {
					t.Fatalf("unknown figure %q", name)
				}
				if got := get(r); got != tt.want[name] {
					t.Errorf("%s = %d, want %d", name, got, tt.want[name])
				}
			}
		})
	}
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

func TestTieredCPU(t *testing.T) {
	// overhead.md §12.1.
	for v, want := range map[int64]int64{1: 60, 2: 70, 4: 80, 8: 90, 16: 110, 64: 230} {
		if got := tieredCPU(v); got != want {
			t.Errorf("tieredCPU(%d) = %d, want %d", v, got, want)
		}
	}
	// Property: for v ≥ 4 the closed form 80 + (5(v−4)) div 2 holds.
	for v := int64(4); v <= 448; v++ {
		if got, want := tieredCPU(v), 80+(5*(v-4))/2; got != want {
			t.Fatalf("tieredCPU(%d) = %d, closed form %d", v, got, want)
		}
	}
}

// TestGKEMemory checks the GKE memory tiers at their edges and on measured nodes; below 1 GiB GKE reserves a
// flat 255 MiB.
func TestGKEMemory(t *testing.T) {
	for n, want := range map[int64]int64{
		1024: 256, 4000: 1000, 4096: 1019, 7680: 1736, 8000: 1800, 16000: 2600, 16384: 2623,
		65536: 5572, 128000: 9320, 131072: 9381,
	} {
		if got := gkeMemory(n); got != want {
			t.Errorf("gkeMemory(%d) = %d, want %d", n, got, want)
		}
	}
	r, err := Compute(Input{Profile: GKEStandard, Instance: Instance{Cloud: catalog.GCP, Name: "f1-micro", Family: "f1", VCPU: 1, MemoryMiB: 614, SharedCore: true},
		KubeReserved: Reservation{CPUMillicores: ptr(100)}})
	if err != nil {
		t.Fatal(err)
	}
	if r.KubeReserved.MemoryBytes != 255*mi {
		t.Errorf("f1-micro kube-reserved memory %d, want 255Mi", r.KubeReserved.MemoryBytes)
	}
}

// TestGKESharedCoreN1: f1-micro and g1-small plan from the catalog without overrides: the tiers on their one
// visible vCPU (60m) and GKE's memory rule (255Mi below 1 GiB, else the tiers), as the measured f1-micro shows.
func TestGKESharedCoreN1(t *testing.T) {
	for _, tc := range []struct {
		name        string
		cpu, memMiB int64
		allocCPU    int64
	}{{"f1-micro", 60, 255, 940}, {"g1-small", 60, 435, 940}} {
		it, err := catalog.Lookup(catalog.GCP, tc.name)
		if err != nil {
			t.Fatal(err)
		}
		r, err := Compute(Input{Profile: GKEStandard, Instance: InstanceFromCatalog(it)})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if r.KubeReserved.CPUMillicores != tc.cpu || r.KubeReserved.MemoryBytes != tc.memMiB*mi || r.Allocatable.CPUMillicores != tc.allocCPU {
			t.Errorf("%s: kube-reserved %dm %d MiB, allocatable %dm; want %dm %d MiB, %dm", tc.name, r.KubeReserved.CPUMillicores,
				r.KubeReserved.MemoryBytes/mi, r.Allocatable.CPUMillicores, tc.cpu, tc.memMiB, tc.allocCPU)
		}
		if r.Evidence.Scope != "gke-standard, shared-core N1 (f1-micro, g1-small)" || r.Evidence.Status != EvidenceMeasured {
			t.Errorf("%s: evidence %+v", tc.name, r.Evidence)
		}
	}
	// The AKS refusal before 1.15 lifts with the node's own CPU figure.
	if _, err := Compute(Input{Profile: AKSLinux, Instance: ds2v2, KubernetesVersion: "1.14", KubeReserved: Reservation{CPUMillicores: ptr(69)}}); err != nil {
		t.Errorf("AKS 1.14 with the node's kube-reserved CPU: %v", err)
	}
}

func TestAKSCPU(t *testing.T) {
	// overhead.md §12.4.
	for v, want := range map[int64]int64{1: 60, 2: 100, 4: 140, 8: 180, 16: 260, 32: 420, 64: 740} {
		if got := aksCPU(v); got != want {
			t.Errorf("aksCPU(%d) = %d, want %d", v, got, want)
		}
	}
	for v := int64(4); v <= 416; v++ {
		if got, want := aksCPU(v), 100+10*v; got != want {
			t.Fatalf("aksCPU(%d) = %d, closed form %d", v, got, want)
		}
	}
}

// TestKarpenterModel checks that node_group_kind karpenter without measured capacity gives Karpenter's own
// allocatable, computed here step by step from aws/karpenter-provider-aws types.go's description in
// overhead.md §4.2, §5.1, §6.1 and §7: memory = nominal − ceil(7.5 %) − (11·P_ENI + 255) Mi − 100Mi,
// pods = ENI-limited. Karpenter's ephemeral is the 20Gi root volume − 1Gi − 10 %; kubefit's is less by 90 % of what
// the AL2023 root filesystem leaves out of the volume, 79,712,256 bytes on the nodes measured (filesystemLoss): the
// 10 % eviction threshold is of the filesystem, so the loss takes 90 % of itself off allocatable.
func TestKarpenterModel(t *testing.T) {
	for _, inst := range []Instance{m5large, m5xlarge, m6g} {
		r, err := Compute(Input{Profile: EKSAL2023, Instance: inst, EKS: EKSOptions{Kind: Karpenter}})
		if err != nil {
			t.Fatal(err)
		}
		nominal := inst.MemoryMiB
		if inst.Architecture == "arm64" {
			nominal -= 64
		}
		capMi := nominal - (nominal*75+999)/1000
		pods := inst.MaxENIs*(inst.IPv4PerENI-1) + 2
		want := resource.List{
			CPUMillicores:         inst.VCPU*1000 - tieredCPU(inst.VCPU),
			MemoryBytes:           (capMi - (11*pods + 255) - 100) * mi,
			EphemeralStorageBytes: 20*gi - gi - 2*gi,
			Pods:                  pods,
			Volumes:               r.Allocatable.Volumes, // not Karpenter's: volumes.go
		}
		// The filesystem, less 1Gi, less 10 % of it as the kubelet computes a percentage (float32: 32 bytes more).
		fs := 20*gi - filesystemLoss[EKSAL2023].of(20*gi)
		if got, exact := r.Allocatable.EphemeralStorageBytes, fs-gi-kubeletPercent(fs, 1000); got != exact || got-(want.EphemeralStorageBytes-(20*gi-fs)*9/10) < -40 {
			t.Errorf("%s: allocatable ephemeral %d, want %d: Karpenter's %d less 90 %% of the %d-byte filesystem loss",
				inst.Name, got, exact, want.EphemeralStorageBytes, 20*gi-fs)
		}
		want.EphemeralStorageBytes = r.Allocatable.EphemeralStorageBytes
		if r.Allocatable != want {
			t.Errorf("%s: allocatable %+v, want Karpenter's %+v", inst.Name, r.Allocatable, want)
		}
	}
}

func TestAKS129KeepsSmallerAllocatable(t *testing.T) {
	in := Input{Profile: AKSLinux, Instance: d2sv5, MaxPods: 30}
	in.KubernetesVersion = "1.28"
	old, err := Compute(in)
	if err != nil {
		t.Fatal(err)
	}
	in.KubernetesVersion = "1.30"
	cur, err := Compute(in)
	if err != nil {
		t.Fatal(err)
	}
	in.KubernetesVersion = "1.29"
	both, err := Compute(in)
	if err != nil {
		t.Fatal(err)
	}
	want := min(old.Allocatable.MemoryBytes, cur.Allocatable.MemoryBytes)
	if both.Allocatable.MemoryBytes != want {
		t.Errorf("1.29 allocatable memory %d, want the smaller of %d and %d", both.Allocatable.MemoryBytes, old.Allocatable.MemoryBytes, cur.Allocatable.MemoryBytes)
	}
	if len(both.Warnings) == 0 {
		t.Error("1.29 should warn that both rule sets were computed")
	}
}

func TestAKSWindows(t *testing.T) {
	r, err := Compute(Input{Profile: AKSWindows, Instance: ds2v2, KubernetesVersion: "1.28"})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := r.EvictionHard[SignalMemory]; ok || strings.Contains(strings.Join(r.KubeletArgs, " "), "memory.available") {
		t.Errorf("AKS Windows before 1.29 reports a memory eviction threshold: %v %v", r.EvictionHard, r.KubeletArgs)
	}
	if len(r.Warnings) != 0 {
		t.Errorf("unexpected warnings %v", r.Warnings)
	}
	r, err = Compute(Input{Profile: AKSWindows, Instance: ds2v2})
	if err != nil {
		t.Fatal(err)
	}
	if !hasWarning(r, CodeAKSWindowsRulesUnverified) {
		t.Errorf("AKS Windows from 1.29 should warn %s, got %v", CodeAKSWindowsRulesUnverified, r.Warnings)
	}
}

// TestEKSAutoMode: a measured Auto Mode m5.2xlarge reports 56 max pods and reserves 240m CPU and 1,046 MiB
// of memory in total; kubefit must never report more allocatable than that, and must warn.
func TestEKSAutoMode(t *testing.T) {
	r, err := Compute(Input{Profile: EKSAL2023, Instance: m52xl, EKS: EKSOptions{Kind: AutoMode}})
	if err != nil {
		t.Fatal(err)
	}
	reservedCPU := r.Capacity.CPUMillicores - r.Allocatable.CPUMillicores
	reservedMem := r.Capacity.MemoryBytes - r.Allocatable.MemoryBytes
	if reservedCPU < 240 || reservedMem < 1046*mi || r.Allocatable.Pods > 56 {
		t.Errorf("Auto Mode m5.2xlarge reserves %dm and %d MiB with %d pods; measured 240m, 1046 MiB, 56 pods",
			reservedCPU, reservedMem/mi, r.Allocatable.Pods)
	}
	if reservedCPU != 240 || reservedMem != 1046*mi || r.MaxPods != 56 {
		t.Errorf("calibration drifted: %dm, %d MiB, %d pods", reservedCPU, reservedMem/mi, r.MaxPods)
	}
	// No aws-node or kube-proxy pods on Auto Mode: every pod slot is a workload slot, and listing them gives
	// nothing back.
	if r.Available.Pods != 56 || len(r.SystemPods) != 0 {
		t.Errorf("available pods %d, system pods %q; want 56 and none", r.Available.Pods, r.SystemPods)
	}
	if !hasWarning(r, CodeEKSAutoModeUpperBound) || hasWarning(r, CodeNoDaemonSets) {
		t.Errorf("warnings %v", r.Warnings)
	}
	// Other kinds keep their exact figures: the managed m5.2xlarge reserves 90m and 11 × 58 + 255 + 100 MiB.
	r, err = Compute(Input{Profile: EKSAL2023, Instance: m52xl})
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Capacity.CPUMillicores - r.Allocatable.CPUMillicores; got != 90 || r.MaxPods != 58 || hasWarning(r, CodeEKSAutoModeUpperBound) {
		t.Errorf("managed m5.2xlarge: reserved %dm, %d pods, warnings %v", got, r.MaxPods, r.Warnings)
	}
}

// TestMeasuredAllocatable: a measured allocatable wins over every model, and its pods set max pods.
func TestMeasuredAllocatable(t *testing.T) {
	m := MeasuredAllocatable{CPUMillicores: ptr(1900), MemoryBytes: ptr(6900 * mi), Pods: ptr(27)}
	r, err := Compute(Input{Profile: EKSAL2023, Instance: m5large, MaxPods: 50, KubeReserved: Reservation{MemoryBytes: ptr(gi)}, MeasuredAllocatable: m})
	if err != nil {
		t.Fatal(err)
	}
	if r.Allocatable.CPUMillicores != 1900 || r.Allocatable.MemoryBytes != 6900*mi || r.Allocatable.Pods != 27 || r.MaxPods != 27 {
		t.Errorf("allocatable %+v, max pods %d; want the measured 1900m, 6900Mi, 27 pods", r.Allocatable, r.MaxPods)
	}
	// aws-node and kube-proxy still take their slots: 27 − 2 = 25 workload pods.
	if fs := r.Capacity.EphemeralStorageBytes; r.Available.Pods != 25 || fs >= 20*gi || r.Allocatable.EphemeralStorageBytes != fs-gi-kubeletPercent(fs, 1000) {
		t.Errorf("available pods %d, allocatable ephemeral %d", r.Available.Pods, r.Allocatable.EphemeralStorageBytes)
	}
	if !strings.Contains(strings.Join(r.KubeletArgs, " "), "--max-pods=27") {
		t.Errorf("kubelet args %v", r.KubeletArgs)
	}
	// Every profile takes it; Auto Mode and AKS Windows no longer warn that their figures are unverified.
	for _, in := range []Input{
		{Profile: EKSAL2023, Instance: m52xl, EKS: EKSOptions{Kind: AutoMode}},
		{Profile: AKSWindows, Instance: d2sv5},
		{Profile: GKEStandard, Instance: n2std4},
		{Profile: AKSLinux, Instance: ds1v2, KubernetesVersion: "1.29"},
	} {
		in.MeasuredAllocatable = MeasuredAllocatable{CPUMillicores: ptr(900), MemoryBytes: ptr(1000 * mi), Pods: ptr(20)}
		r, err := Compute(in)
		if err != nil {
			t.Fatalf("%s: %v", in.Profile, err)
		}
		if r.Allocatable.CPUMillicores != 900 || r.Allocatable.MemoryBytes != 1000*mi || r.Allocatable.Pods != 20 {
			t.Errorf("%s: allocatable %+v", in.Profile, r.Allocatable)
		}
		if hasWarning(r, CodeEKSAutoModeUpperBound) || hasWarning(r, CodeAKSWindowsRulesUnverified) {
			t.Errorf("%s: warnings %v", in.Profile, r.Warnings)
		}
	}
	// Above the estimated capacity, the capacity is raised; above a measured capacity, it is an error.
	r, err = Compute(Input{Profile: EKSAL2023, Instance: m5large, MeasuredAllocatable: MeasuredAllocatable{MemoryBytes: ptr(8000 * mi)}})
	if err != nil {
		t.Fatal(err)
	}
	if r.Allocatable.MemoryBytes != 8000*mi || r.Capacity.MemoryBytes != (8000+574+100)*mi {
		t.Errorf("allocatable %d, capacity %d", r.Allocatable.MemoryBytes, r.Capacity.MemoryBytes)
	}
	_, err = Compute(Input{Profile: EKSAL2023, Instance: m5large, MeasuredCapacity: Reservation{MemoryBytes: ptr(7000 * mi)},
		MeasuredAllocatable: MeasuredAllocatable{MemoryBytes: ptr(8000 * mi)}})
	if errs := field.As(err); len(errs) != 1 || errs[0].Path.String() != "MeasuredAllocatable.MemoryBytes" {
		t.Errorf("allocatable above measured capacity: %v", err)
	}
	_, err = Compute(Input{Profile: EKSAL2023, Instance: m5large, MeasuredAllocatable: MeasuredAllocatable{Pods: ptr(0), CPUMillicores: ptr(-1)}})
	if errs := field.As(err); len(errs) != 2 || errs[0].Path.String() != "MeasuredAllocatable.CPUMillicores" || errs[1].Path.String() != "MeasuredAllocatable.Pods" {
		t.Errorf("bad measured allocatable: %v", err)
	}
}

func hasWarning(r Result, code string) bool {
	for _, w := range r.Warnings {
		if w.Code == code {
			return true
		}
	}
	return false
}

func TestDaemonSets(t *testing.T) {
	r, err := Compute(Input{Profile: EKSAL2023, Instance: m5large, DaemonSets: []DaemonSet{
		{Name: "aws-node", Requests: resource.List{CPUMillicores: 25}, TakesPodSlot: true},
		{Name: "fluent-bit", Requests: resource.List{CPUMillicores: 100, MemoryBytes: 128 * mi}, TakesPodSlot: true},
	}})
	if err != nil {
		t.Fatal(err)
	}
	// Slots: aws-node (listed), kube-proxy (always counted), fluent-bit = 3; IPs: 27 − 1 (fluent-bit) = 26.
	if r.DaemonSetOverhead.Pods != 3 || r.Available.Pods != 26 {
		t.Errorf("DaemonSet pods %d available pods %d, want 3 and 26", r.DaemonSetOverhead.Pods, r.Available.Pods)
	}
	// CPU: aws-node and fluent-bit as listed, and the platform's kube-proxy (100m), which no listed DaemonSet names.
	if r.Available.CPUMillicores != 1930-25-100-100 {
		t.Errorf("available cpu %d, want %d", r.Available.CPUMillicores, 1930-25-100-100)
	}
	// Only aws-node and kube-proxy, nothing else: workload pods = IP count 3 × 9 (§12.2).
	r, err = Compute(Input{Profile: EKSAL2023, Instance: m5large})
	if err != nil {
		t.Fatal(err)
	}
	if r.Available.Pods != 27 {
		t.Errorf("available pods %d, want 27", r.Available.Pods)
	}
}

func TestKubeletArgs(t *testing.T) {
	r, err := Compute(Input{Profile: EKSAL2023, Instance: m5large})
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(r.KubeletArgs, " ")
	want := "--kube-reserved=cpu=70m,memory=574Mi,ephemeral-storage=1Gi --eviction-hard=memory.available<100Mi,nodefs.available<10% --max-pods=29"
	if got != want {
		t.Errorf("kubelet args\n got %s\nwant %s", got, want)
	}
}

func TestOverridesAndEviction(t *testing.T) {
	r, err := Compute(Input{Profile: EKSAL2023, Instance: m5large,
		KubeReserved: Reservation{MemoryBytes: ptr(1 * gi)},
		EvictionHard: map[string]Threshold{SignalMemory: {IsPercent: true, PercentBP: 500}, SignalNodefs: {Bytes: gi}}})
	if err != nil {
		t.Fatal(err)
	}
	if r.KubeReserved.MemoryBytes != gi || r.KubeReserved.CPUMillicores != 70 {
		t.Errorf("override not key by key: %+v", r.KubeReserved)
	}
	// 5 % of capacity as the kubelet takes it: 7577Mi × float32(0.05), truncated.
	capacity, pct := float64(7577*mi), float32(5)
	if want := int64(capacity * float64(pct/100)); r.EvictionThreshold.MemoryBytes != want {
		t.Errorf("eviction memory %d, want %d", r.EvictionThreshold.MemoryBytes, want)
	}
	if r.EvictionThreshold.EphemeralStorageBytes != gi {
		t.Errorf("nodefs eviction %d", r.EvictionThreshold.EphemeralStorageBytes)
	}
	// 0 % disables a threshold.
	r, err = Compute(Input{Profile: EKSAL2023, Instance: m5large, EvictionHard: map[string]Threshold{SignalMemory: {IsPercent: true}}})
	if err != nil {
		t.Fatal(err)
	}
	if r.EvictionThreshold.MemoryBytes != 0 {
		t.Errorf("0%% should disable the threshold, got %d", r.EvictionThreshold.MemoryBytes)
	}
}

func TestComputeErrors(t *testing.T) {
	tests := []struct {
		name string
		in   Input
		path string
		msg  string
	}{
		{"negative max pods", Input{Profile: EKSAL2023, Instance: m5large, MaxPods: -1}, "MaxPods", "0 means the platform default), got -1"},
		{"AKS max pods 300", Input{Profile: AKSLinux, Instance: d2sv5, MaxPods: 300}, "MaxPods", "AKS takes a maximum pod count from 10 to 250 per node and refuses 300"},
		{"AKS max pods 9", Input{Profile: AKSLinux, Instance: d2sv5, MaxPods: 9}, "MaxPods", "refuses 9"},
		{"GKE max pods 257", Input{Profile: GKEStandard, Instance: Instance{Cloud: catalog.GCP, Name: "n2-standard-2", VCPU: 2, MemoryMiB: 8192}, MaxPods: 257}, "MaxPods", "GKE Standard takes a maximum pod count from 8 to 256 per node and refuses 257"},
		{"unknown profile", Input{Profile: "eks-al2024", Instance: m5large}, "Profile", "eks-al2024"},
		{"profile cloud mismatch", Input{Profile: AKSLinux, Instance: m5large}, "Profile", "eks-al2023"},
		{"bad version", Input{Profile: AKSLinux, Instance: ds1v2, KubernetesVersion: "one.two"}, "KubernetesVersion", "one.two"},
		{"no memory", Input{Profile: EKSAL2023, Instance: Instance{Cloud: catalog.AWS, Name: "x", VCPU: 2, MaxENIs: 3, IPv4PerENI: 10}}, "Instance", "no memory"},
		{"reservations eat cpu", Input{Profile: EKSAL2023, Instance: m5large, KubeReserved: Reservation{CPUMillicores: ptr(2000)}}, "KubeReserved.CPUMillicores", "could run nothing"},
		{"reservations eat memory", Input{Profile: EKSAL2023, Instance: m5large, SystemReserved: Reservation{MemoryBytes: ptr(8 * gi)}}, "SystemReserved.MemoryBytes", "system-reserved 8Gi"},
		{"reservations eat disk", Input{Profile: EKSAL2023, Instance: m5large, OSDiskGiB: 1}, "OSDiskGiB", "larger root/OS disk"},
		{"aks 1.14 needs the node's CPU", Input{Profile: AKSLinux, Instance: ds2v2, KubernetesVersion: "1.14"}, "KubernetesVersion", "--kube-reserved"},
		{"aks windows 1.13 needs the node's CPU", Input{Profile: AKSWindows, Instance: ds2v2, KubernetesVersion: "1.13.5"}, "KubernetesVersion", "September 2019"},
		{"bad eviction signal", Input{Profile: EKSAL2023, Instance: m5large, EvictionHard: map[string]Threshold{"imagefs.available": {Bytes: 1}}}, `EvictionHard["imagefs.available"]`, "imagefs"},
		{"aks eviction floor", Input{Profile: AKSLinux, Instance: d2sv5, EvictionHard: map[string]Threshold{SignalMemory: {Bytes: 50 * mi}}}, `EvictionHard["memory.available"]`, "got 50Mi"},
		{"overhead 100%", Input{Profile: EKSAL2023, Instance: m5large, VMMemoryOverheadBP: ptr(10000)}, "VMMemoryOverheadBP", "below 100 %, got 100 %"},
		{"unnamed daemonset", Input{Profile: EKSAL2023, Instance: m5large, DaemonSets: []DaemonSet{{Requests: resource.List{CPUMillicores: 10}}}}, "DaemonSets[0].Name", "empty name"},
		{"negative daemonset", Input{Profile: EKSAL2023, Instance: m5large, DaemonSets: []DaemonSet{{Name: "x", Requests: resource.List{CPUMillicores: -1}}}}, "DaemonSets[0].Requests.CPUMillicores", "got -1m"},
		{"windows auto mode", Input{Profile: EKSWindows, Instance: m5large, EKS: EKSOptions{Kind: AutoMode}}, "EKS.Kind", "Windows"},
		// Auto Mode's NodeClass has no kubelet settings (create-node-class.adoc): a max pods or reservation asked for
		// never reaches its nodes.
		{"auto mode max pods", Input{Profile: EKSAL2023, Instance: m52xl, MaxPods: 200, EKS: EKSOptions{Kind: AutoMode}}, "MaxPods", "max pods 200 cannot be set on EKS Auto Mode nodes"},
		{"auto mode kube-reserved", Input{Profile: EKSAL2023, Instance: m52xl, KubeReserved: Reservation{MemoryBytes: ptr(300 * mi)}, EKS: EKSOptions{Kind: AutoMode}}, "KubeReserved.MemoryBytes", "kube-reserved memory 300Mi cannot be set"},
		{"auto mode system-reserved", Input{Profile: EKSAL2023, Instance: m52xl, SystemReserved: Reservation{CPUMillicores: ptr(50)}, EKS: EKSOptions{Kind: AutoMode}}, "SystemReserved.CPUMillicores", "system-reserved CPU 50m cannot be set"},
		{"auto mode eviction", Input{Profile: EKSAL2023, Instance: m52xl, EvictionHard: map[string]Threshold{SignalMemory: {Bytes: 200 * mi}}, EKS: EKSOptions{Kind: AutoMode}}, "EvictionHard", "hard-eviction threshold cannot be set"},
		{"auto mode maxPodsExpression", Input{Profile: EKSAL2023, Instance: m52xl, EKS: EKSOptions{Kind: AutoMode, MaxPodsExpressionResult: 58}}, "EKS.MaxPodsExpressionResult", "maxPodsExpression cannot be set"},
		{"negative reserved ENIs", Input{Profile: EKSAL2023, Instance: m5large, EKS: EKSOptions{ReservedENIs: -2}}, "EKS.ReservedENIs", "got -2"},
		{"unknown plugin", Input{Profile: AKSLinux, Instance: d2sv5, AKS: AKSOptions{NetworkPlugin: "cilium"}}, "AKS.NetworkPlugin", `"cilium"`},
		{"eks options on azure", Input{Profile: AKSLinux, Instance: d2sv5, EKS: EKSOptions{PrefixDelegation: true}}, "EKS", "apply only to AWS nodes"},
		{"aks options on aws", Input{Profile: EKSAL2023, Instance: m5large, AKS: AKSOptions{NetworkPlugin: Kubenet}}, "AKS", "apply only to Azure nodes"},
		{"reserved ENIs beyond the type's", Input{Profile: EKSAL2023, Instance: m5large, EKS: EKSOptions{ReservedENIs: 4}}, "EKS.ReservedENIs", "more than the 3 that \"m5.large\" has"},
		{"reserved ENIs beyond any type's", Input{Profile: EKSAL2023, Instance: Instance{Cloud: catalog.AWS, Name: "x", VCPU: 2, MemoryMiB: 8192}, EKS: EKSOptions{ReservedENIs: 1e18}}, "EKS.ReservedENIs", "more than any instance type has"},
		{"measured capacity of zero", Input{Profile: EKSAL2023, Instance: m5large, MeasuredCapacity: Reservation{CPUMillicores: ptr(0)}}, "MeasuredCapacity.CPUMillicores", "not a real node's"},
		{"measured capacity too small", Input{Profile: EKSAL2023, Instance: m5large, MeasuredCapacity: Reservation{CPUMillicores: ptr(10)}}, "MeasuredCapacity.CPUMillicores", "check the measured capacity"},
		{"VM overhead eats the memory", Input{Profile: EKSAL2023, Instance: m5large, VMMemoryOverheadBP: ptr(9999)}, "VMMemoryOverheadBP", "lower the VM memory overhead"},
		{"kube-reserved ephemeral range", Input{Profile: EKSAL2023, Instance: m5large, KubeReserved: Reservation{EphemeralStorageBytes: ptr(-5)}}, "KubeReserved.EphemeralStorageBytes", "kube-reserved ephemeral storage"},
		{"measured cpu range", Input{Profile: EKSAL2023, Instance: m5large, MeasuredCapacity: Reservation{CPUMillicores: ptr(-1000)}}, "MeasuredCapacity.CPUMillicores", "measured capacity CPU"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Compute(tt.in)
			errs := field.As(err)
			if len(errs) != 1 {
				t.Fatalf("got %v, want one field error", err)
			}
			e := errs[0]
			if e.Path.String() != tt.path || !strings.Contains(e.Detail, tt.msg) {
				t.Errorf("got %q at %s, want path %s containing %q", e.Detail, e.Path, tt.path, tt.msg)
			}
			checkDomainWords(t, e.Detail)
		})
	}
}

// TestComputeErrorsAll: validation reports every problem, in Input's field order with map keys sorted, the
// same on every run.
func TestComputeErrorsAll(t *testing.T) {
	in := Input{Profile: EKSAL2023, Instance: m5large, MaxPods: -1, OSDiskGiB: -1,
		EvictionHard: map[string]Threshold{"pid.available": {}, "imagefs.available": {}, SignalMemory: {Bytes: -1}},
		KubeReserved: Reservation{MemoryBytes: ptr(-1)}}
	want := []string{"MaxPods", "OSDiskGiB", "KubeReserved.MemoryBytes", `EvictionHard["imagefs.available"]`,
		`EvictionHard["memory.available"]`, `EvictionHard["pid.available"]`}
	for run := 0; run < 50; run++ {
		_, err := Compute(in)
		var got []string
		for _, e := range field.As(err) {
			got = append(got, e.Path.String())
			checkDomainWords(t, e.Detail)
		}
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Fatalf("run %d: error paths %v, want %v", run, got, want)
		}
	}
}

// checkDomainWords fails when a planner message names a provider attribute or object, or a design note.
func checkDomainWords(t *testing.T, msg string) {
	t.Helper()
	for _, bad := range []string{"kubefit_", "kube_reserved", "system_reserved", "max_pods", "instance_type", "measured_capacity",
		"measured_allocatable", "eviction_hard", "os_disk_gib", "vm_memory_overhead", "node_group_kind", "network_plugin",
		"kubernetes_version", "reserved_enis", "ephemeral_storage", ".md", "§"} {
		if strings.Contains(msg, bad) {
			t.Errorf("message names %q: %s", bad, msg)
		}
	}
}

// FuzzCompute checks that no input makes the model panic, and that a successful result is self-consistent.
func FuzzCompute(f *testing.F) {
	f.Add(uint8(0), int64(2), int64(8192), int64(0), int64(-1), int64(750), "1.28", int64(3), int64(10), int64(100), int64(64), uint8(0), int64(0))
	f.Add(uint8(4), int64(1), int64(3584), int64(110), int64(3500452*1024), int64(0), "1.29", int64(0), int64(0), int64(0), int64(0), uint8(1), int64(0))
	f.Add(uint8(6), int64(2), int64(4096), int64(300), int64(-5), int64(9999), "", int64(-1), int64(-1), int64(-7), int64(-9), uint8(2), int64(5000*mi))
	f.Add(uint8(0), int64(8), int64(32768), int64(0), int64(-1), int64(750), "", int64(4), int64(15), int64(0), int64(0), uint8(3), int64(40000*mi))
	f.Fuzz(func(t *testing.T, prof uint8, vcpu, memMiB, maxPods, measured, bp int64, version string, enis, ips, dsCPU, dsMemMi int64, kind uint8, allocMem int64) {
		p := Profiles[int(prof)%len(Profiles)]
		cloud := p.Cloud()
		if cloud == "" {
			cloud = catalog.AWS
		}
		in := Input{Profile: p, Instance: Instance{Cloud: cloud, Name: "fuzz", VCPU: vcpu, MemoryMiB: memMiB, MaxENIs: enis, IPv4PerENI: ips, Hypervisor: "nitro"},
			MaxPods: maxPods, KubernetesVersion: version, VMMemoryOverheadBP: &bp,
			DaemonSets: []DaemonSet{{Name: "ds", Requests: resource.List{CPUMillicores: dsCPU, MemoryBytes: dsMemMi * mi}, TakesPodSlot: true}}}
		if measured >= 0 {
			in.MeasuredCapacity.MemoryBytes = &measured
		}
		in.EKS.Kind = NodeGroupKinds[int(kind)%len(NodeGroupKinds)]
		if allocMem != 0 {
			in.MeasuredAllocatable.MemoryBytes = &allocMem
		}
		r, err := Compute(in)
		if err != nil {
			return
		}
		if r.Allocatable.CPUMillicores <= 0 || r.Allocatable.MemoryBytes <= 0 || r.Allocatable.EphemeralStorageBytes <= 0 {
			t.Fatalf("non-positive allocatable without error: %+v", r.Allocatable)
		}
		if r.Allocatable.CPUMillicores > r.Capacity.CPUMillicores || r.Allocatable.MemoryBytes > r.Capacity.MemoryBytes {
			t.Fatalf("allocatable above capacity: %+v > %+v", r.Allocatable, r.Capacity)
		}
	})
}

// TestSystemPods checks what the node model hands a packer that charges DaemonSets itself: the
// host-network pods every node runs and the pod-IP cap (fit.DaemonSetLoad does the accounting).
func TestSystemPods(t *testing.T) {
	for _, tt := range []struct {
		name   string
		in     Input
		system []string
		podIPs int64
	}{
		// m5.large: 3 ENIs × (10 − 1) = 27 pod IPs; aws-node and kube-proxy use the host network.
		{"eks managed", Input{Profile: EKSAL2023, Instance: m5large}, []string{"aws-node", "kube-proxy"}, 27},
		{"eks bottlerocket", Input{Profile: EKSBottlerocket, Instance: m5large}, []string{"aws-node", "kube-proxy"}, 27},
		{"eks auto mode", Input{Profile: EKSAL2023, Instance: m5large, EKS: EKSOptions{Kind: AutoMode}}, nil, 27},
		// Windows: one ENI, 10 − 1 = 9 pod IPs (awsdocs windows-support), 16 /28 prefixes each with prefix delegation.
		{"eks windows", Input{Profile: EKSWindows, Instance: m5large}, nil, 9},
		{"eks windows prefix delegation", Input{Profile: EKSWindows, Instance: m5large, EKS: EKSOptions{PrefixDelegation: true}}, nil, 144},
		{"aks", Input{Profile: AKSLinux, Instance: d2sv5, MaxPods: 30}, nil, 0},
	} {
		r, err := Compute(tt.in)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if !slices.Equal(r.SystemPods, tt.system) || r.PodIPs != tt.podIPs {
			t.Errorf("%s: system pods %q, pod IPs %d; want %q, %d", tt.name, r.SystemPods, r.PodIPs, tt.system, tt.podIPs)
		}
		// The one account gives Available from Allocatable and the platform's system DaemonSets, whether the
		// DaemonSets are listed here or not.
		if _, left := fit.DaemonSetLoad(r.Allocatable, r.SystemPods, r.PodIPs, r.SystemDaemonSets); left != r.Available {
			t.Errorf("%s: DaemonSetLoad gives %+v, the model %+v", tt.name, left, r.Available)
		}
	}
}

func TestSmallest(t *testing.T) {
	res := func(cpu, mem int64) Result {
		return Result{Available: resource.List{CPUMillicores: cpu, MemoryBytes: mem}}
	}
	tests := []struct {
		rs   []Result
		want int
	}{
		{nil, -1},
		{[]Result{res(1000, 5)}, 0},
		{[]Result{res(3000, 5), res(1000, 9), res(1000, 7)}, 2},
		{[]Result{res(1000, 7), res(1000, 7)}, 0},
	}
	for i, tt := range tests {
		if got := Smallest(tt.rs); got != tt.want {
			t.Errorf("case %d: Smallest = %d, want %d", i, got, tt.want)
		}
	}
}

func TestDaemonSetGPUs(t *testing.T) {
	gpuNode := m5large
	gpuNode.GPU = 1
	for _, tt := range []struct {
		name      string
		inst      Instance
		available int64
		warn      bool
	}{
		{"a GPU node", gpuNode, 0, false},
		{"no GPUs", m5large, -1, true},
	} {
		r, err := Compute(Input{Profile: EKSAL2023, Instance: tt.inst, DaemonSets: []DaemonSet{{Name: "dcgm-exporter",
			Requests: resource.List{CPUMillicores: 50, GPU: 1}, TakesPodSlot: true}}})
		if err != nil {
			t.Fatal(err)
		}
		if r.Available.GPU != tt.available || r.DaemonSetOverhead.GPU != 1 || hasWarning(r, CodeDaemonSetsFillNode) != tt.warn {
			t.Errorf("%s: available GPUs %d, DaemonSet GPUs %d, warnings %v", tt.name, r.Available.GPU, r.DaemonSetOverhead.GPU, r.Warnings)
		}
	}
}

// TestEphemeralMeasured: ephemeral storage against real nodes' kubectl describe node. Given the node's
// filesystem capacity, the allocatable is exactly what the kubelet reported (its float32 percentage and GKE's
// reservation of the disk, not of the filesystem); from the disk alone it is at most that, and within 0.1 %.
func TestEphemeralMeasured(t *testing.T) {
	const ki = 1024
	for _, tc := range []struct {
		name                string
		profile             Profile
		inst                Instance
		diskGiB             int64
		capacity, allocated int64
	}{
		{"EKS 20 GiB", EKSAL2, m5large, 20, 20959212 * ki, 18242267924},
		{"EKS 100 GiB", EKSAL2, m5xlarge, 100, 104845292 * ki, 0},
		{"AKS 128 GiB", AKSLinux, d2sv5, 128, 129886128 * ki, 119703055367},
		{"AKS 100 GiB", AKSLinux, d2sv5, 100, 101445900 * ki, 93492541286},
		{"GKE 100 GB", GKEStandard, Instance{Cloud: catalog.GCP, Name: "n2-standard-2", VCPU: 2, MemoryMiB: 8192, Architecture: "x86_64"}, 100, 98831908 * ki, 47060071478},
		// GKE 1.10's n1-standard-2 (2018), a 100 GB disk as well, its filesystem 35 MiB larger.
		{"GKE 100 GB, 2018", GKEStandard, Instance{Cloud: catalog.GCP, Name: "n1-standard-2", VCPU: 2, MemoryMiB: 7680, Architecture: "x86_64"}, 100, 98868448 * ki, 47093746742},
		// AL2023 nodes (overhead.md §4.3): t3.medium, t3.large, g6.xlarge and trn1.2xlarge, p4d.24xlarge.
		{"EKS AL2023 20 GiB", EKSAL2023, m5large, 20, 20893676 * ki, 18181869946},
		{"EKS AL2023 50 GiB", EKSAL2023, m5large, 50, 52350956 * ki, 47172899146},
		{"EKS AL2023 100 GiB", EKSAL2023, m5xlarge, 100, 104779756 * ki, 95491281146},
		{"EKS AL2023 300 GiB", EKSAL2023, m5xlarge, 300, 314494956 * ki, 288764809146},
	} {
		measured, err := Compute(Input{Profile: tc.profile, Instance: tc.inst, OSDiskGiB: tc.diskGiB,
			MeasuredCapacity: Reservation{EphemeralStorageBytes: ptr(tc.capacity)}})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		want := tc.allocated
		if want == 0 { // the source shows no allocatable: the kubelet's rule on its capacity
			want = measured.Allocatable.EphemeralStorageBytes
		} else if got := measured.Allocatable.EphemeralStorageBytes; got != want {
			t.Errorf("%s: with the measured capacity, allocatable %d, want the node's %d", tc.name, got, want)
		}
		// Without the disk's size, the disk is inferred from the filesystem (diskFor), never smaller than it was: GKE's
		// reservation of the disk then holds as well.
		noDisk, err := Compute(Input{Profile: tc.profile, Instance: tc.inst, MeasuredCapacity: Reservation{EphemeralStorageBytes: ptr(tc.capacity)}})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got := noDisk.Allocatable.EphemeralStorageBytes; got != want {
			t.Errorf("%s: with the measured capacity and no disk size, allocatable %d, want the node's %d", tc.name, got, want)
		}
		modelled, err := Compute(Input{Profile: tc.profile, Instance: tc.inst, OSDiskGiB: tc.diskGiB})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		// AL2023's loss is the same on every measured disk: its filesystem is exact from the disk alone.
		if tc.profile == EKSAL2023 && modelled.Capacity.EphemeralStorageBytes != tc.capacity {
			t.Errorf("%s: from the disk, capacity %d, want the node's %d exactly", tc.name, modelled.Capacity.EphemeralStorageBytes, tc.capacity)
		}
		if got := modelled.Allocatable.EphemeralStorageBytes; got > want || got < want-want/1000 {
			t.Errorf("%s: from the disk, allocatable %d, want at most the node's %d and within 0.1 %%", tc.name, got, want)
		}
	}
}

// TestEphemeralLargestDisk: the filesystem loss of the largest disk validate takes (1 PiB) does not overflow.
func TestEphemeralLargestDisk(t *testing.T) {
	r, err := Compute(Input{Profile: GKEStandard, Instance: Instance{Cloud: catalog.GCP, Name: "n2-standard-2", VCPU: 2, MemoryMiB: 8192, Architecture: "x86_64"},
		OSDiskGiB: maxDiskGiB})
	if err != nil {
		t.Fatal(err)
	}
	disk := int64(maxDiskGiB) * gi
	// GKE leaves 5.7466 % of a large disk out: between 5 % and 10 % less than the disk.
	if c := r.Capacity.EphemeralStorageBytes; c > disk-disk/20 || c < disk-disk/10 {
		t.Errorf("capacity %d of a %d-byte disk, want 5 to 10 %% less than the disk", c, disk)
	}
}

// TestEphemeralAKSWindowsNoEviction: both measured AKS Windows nodes of before 1.29 (Standard_NC4as_T4_v3 of 1.25.4,
// Standard_D32ads_v5 of 1.28.12, a 128 GiB OS disk each) report allocatable ephemeral storage equal to capacity,
// 133703676Ki: no nodefs.available threshold, which the kubelet flags say with a 0 % threshold. From 1.29 on (no
// node measured) the 10 % threshold stays, the safe side.
func TestEphemeralAKSWindowsNoEviction(t *testing.T) {
	const capacity = 133703676 * 1024
	d32 := Instance{Cloud: catalog.Azure, Name: "Standard_D32ads_v5", VCPU: 32, MemoryMiB: 131072, Architecture: "x86_64"}
	for _, version := range []string{"1.25", "1.28"} {
		for _, in := range []Input{
			{Profile: AKSWindows, Instance: d32, KubernetesVersion: version, MaxPods: 30, MeasuredCapacity: Reservation{EphemeralStorageBytes: ptr(int64(capacity))}},
			{Profile: AKSWindows, Instance: d32, KubernetesVersion: version, MaxPods: 30, OSDiskGiB: 128},
		} {
			r, err := Compute(in)
			if err != nil {
				t.Fatal(err)
			}
			// From the disk alone the filesystem model leaves a few bytes more out than the node (within 0.1 %).
			if c := r.Capacity.EphemeralStorageBytes; r.Allocatable.EphemeralStorageBytes != c || c > capacity || c < capacity-capacity/1000 ||
				!slices.Contains(r.KubeletArgs, "--eviction-hard=nodefs.available<0%") {
				t.Errorf("%s: allocatable ephemeral %d of capacity %d, want both the nodes' %d; kubelet %v", version, r.Allocatable.EphemeralStorageBytes, c, capacity, r.KubeletArgs)
			}
		}
	}
	r, err := Compute(Input{Profile: AKSWindows, Instance: d32, KubernetesVersion: "1.30", MaxPods: 30, OSDiskGiB: 128})
	if err != nil {
		t.Fatal(err)
	}
	if c := r.Capacity.EphemeralStorageBytes; r.Allocatable.EphemeralStorageBytes != c-kubeletPercent(c, 1000) {
		t.Errorf("1.30: allocatable ephemeral %d, want 10 %% below %d", r.Allocatable.EphemeralStorageBytes, c)
	}
}

// TestManagedMaxPodsEnforced: EKS writes its own max pods into a managed node group's user data, over a launch
// template's, so a max pods asked that differs from it is said, with which count is planned; one equal to it, or asked
// of a self-managed or Karpenter node (whose bootstrap takes it), is not.
func TestManagedMaxPodsEnforced(t *testing.T) {
	pd := EKSOptions{PrefixDelegation: true}
	for _, tc := range []struct {
		name string
		in   Input
		want string // "" = no warning
	}{
		{"above", Input{Profile: EKSAL2023, Instance: m5large, MaxPods: 200, EKS: pd}, "max pods 200 cannot take effect: planned with 110"},
		{"below", Input{Profile: EKSAL2023, Instance: m5large, MaxPods: 50, EKS: pd}, "its nodes run 110 pods whatever max pods 50 says"},
		{"expression", Input{Profile: EKSAL2023, Instance: m5large, EKS: EKSOptions{PrefixDelegation: true, MaxPodsExpressionResult: 300}}, "the maxPodsExpression result 300 cannot take effect"},
		{"equal", Input{Profile: EKSAL2023, Instance: m5large, MaxPods: 110, EKS: pd}, ""},
		{"self-managed", Input{Profile: EKSAL2023, Instance: m5large, MaxPods: 200, EKS: EKSOptions{Kind: SelfManaged, PrefixDelegation: true}}, ""},
		{"karpenter", Input{Profile: EKSAL2023, Instance: m5large, MaxPods: 200, EKS: EKSOptions{Kind: Karpenter, PrefixDelegation: true}}, ""},
		{"measured", Input{Profile: EKSAL2023, Instance: m5large, MaxPods: 200, EKS: pd, MeasuredAllocatable: MeasuredAllocatable{Pods: ptr(int64(200))}}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Compute(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			var got string
			for _, w := range r.Warnings {
				if w.Code == CodeMNGMaxPodsEnforced {
					got = w.Message
				}
			}
			if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
				t.Errorf("warning %q, want one containing %q", got, tc.want)
			}
		})
	}
}

// TestManagedWindowsMaxPodsEnforced: a managed Windows group asked for 5 pods runs EKS's 110 and reserves memory for
// them (11 × 110 + 255 MiB), not for 5 (310 MiB, 1.1 GiB a node it does not have); the report says which P.
func TestManagedWindowsMaxPodsEnforced(t *testing.T) {
	r, err := Compute(Input{Profile: EKSWindows, Instance: m5large, MaxPods: 5})
	if err != nil {
		t.Fatal(err)
	}
	if r.MaxPods != 5 || r.KubeReserved.MemoryBytes != (11*110+255)*mi {
		t.Errorf("max pods %d, kube-reserved memory %d MiB; want 5 and %d MiB", r.MaxPods, r.KubeReserved.MemoryBytes/mi, 11*110+255)
	}
	var warned bool
	for _, w := range r.Warnings {
		warned = warned || w.Code == CodeMNGMaxPodsEnforced
	}
	if !warned {
		t.Errorf("no %s warning: %+v", CodeMNGMaxPodsEnforced, r.Warnings)
	}
	self, err := Compute(Input{Profile: EKSWindows, Instance: m5large, MaxPods: 5, EKS: EKSOptions{Kind: SelfManaged}})
	if err != nil {
		t.Fatal(err)
	}
	if self.MaxPods != 5 || self.KubeReserved.MemoryBytes != (11*5+255)*mi {
		t.Errorf("self-managed: max pods %d, memory %d MiB; want 5 and %d", self.MaxPods, self.KubeReserved.MemoryBytes/mi, 11*5+255)
	}
	// The report's memory line names the P used: 200 asked, 110 enforced, P = 200.
	al, err := Compute(Input{Profile: EKSAL2023, Instance: m5large, MaxPods: 200, EKS: EKSOptions{PrefixDelegation: true}})
	if err != nil {
		t.Fatal(err)
	}
	for _, term := range al.Terms {
		if term.Name == "kubeReserved.memory" && !strings.Contains(term.Detail, "11 × 200 pods (P = max(P_ENI 29, 200 asked, 110 EKS enforces)") {
			t.Errorf("memory term %q names another P", term.Detail)
		}
	}
}
