package overhead

import (
	"errors"
	"strings"
	"testing"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
)

func ptr(v int64) *int64 { return &v }

// Instance rows as the catalog holds them (shared/data/catalog, spot-checked in SOURCES.md §3).
var (
	m5large  = Instance{Cloud: catalog.AWS, Name: "m5.large", Family: "m5", VCPU: 2, MemoryMiB: 8192, Architecture: "x86_64", Hypervisor: "nitro", MaxENIs: 3, IPv4PerENI: 10, ENIMaxPods: 29}
	m5xlarge = Instance{Cloud: catalog.AWS, Name: "m5.xlarge", Family: "m5", VCPU: 4, MemoryMiB: 16384, Architecture: "x86_64", Hypervisor: "nitro", MaxENIs: 4, IPv4PerENI: 15, ENIMaxPods: 58}
	m6g      = Instance{Cloud: catalog.AWS, Name: "m6g.medium", Family: "m6g", VCPU: 1, MemoryMiB: 4096, Architecture: "arm64", Hypervisor: "nitro", MaxENIs: 2, IPv4PerENI: 4, ENIMaxPods: 8}
	ds1v2    = Instance{Cloud: catalog.Azure, Name: "Standard_DS1_v2", VCPU: 1, MemoryMiB: 3584, Architecture: "x86_64"}
	ds2v2    = Instance{Cloud: catalog.Azure, Name: "Standard_DS2_v2", VCPU: 2, MemoryMiB: 7168, Architecture: "x86_64"}
	d2sv5    = Instance{Cloud: catalog.Azure, Name: "Standard_D2s_v5", VCPU: 2, MemoryMiB: 8192, Architecture: "x86_64"}
	b1ms     = Instance{Cloud: catalog.Azure, Name: "Standard_B1ms", VCPU: 1, MemoryMiB: 4096, Architecture: "x86_64"}
	e2medium = Instance{Cloud: catalog.GCP, Name: "e2-medium", Family: "e2", VCPU: 2, MemoryMiB: 4096, Architecture: "x86_64", SharedCore: true}
	n2std4   = Instance{Cloud: catalog.GCP, Name: "n2-standard-4", Family: "n2", VCPU: 4, MemoryMiB: 16384, Architecture: "x86_64"}
)

func TestComputeGolden(t *testing.T) {
	tests := []struct {
		name    string
		in      Input
		maxPods int64
		kubeCPU int64
		kubeMem int64 // bytes
		kubeEph int64
		evicMem int64
		alloc   Resources // zero fields are not checked
	}{
		// overhead.md §12.2.
		{name: "m5.large al2023 managed", in: Input{Profile: EKSAL2023, Instance: m5large},
			maxPods: 29, kubeCPU: 70, kubeMem: 574 * mi, kubeEph: gi, evicMem: 100 * mi,
			alloc: Resources{CPUMillicores: 1930, Pods: 29}},
		// §12.3.
		{name: "m5.xlarge al2023 managed", in: Input{Profile: EKSAL2023, Instance: m5xlarge},
			maxPods: 58, kubeCPU: 80, kubeMem: 893 * mi, kubeEph: gi, evicMem: 100 * mi,
			alloc: Resources{CPUMillicores: 3920}},
		// §12.5: capacity 3500452Ki measured; 3500452 − 896×1024 − 750×1024 = 1814948Ki.
		{name: "DS1_v2 aks 1.28 measured", in: Input{Profile: AKSLinux, Instance: ds1v2, KubernetesVersion: "1.28",
			MeasuredCapacity: Reservation{MemoryBytes: ptr(3500452 * 1024)}},
			maxPods: 250, kubeCPU: 60, kubeMem: 896 * mi, evicMem: 750 * mi,
			alloc: Resources{CPUMillicores: 940, MemoryBytes: 1814948 * 1024}},
		// §12.5: (25×4096 + 20×3072) div 100 = 1638; 7113160 − 1638×1024 − 750×1024 = 4667848Ki.
		{name: "DS2_v2 aks 1.28 measured", in: Input{Profile: AKSLinux, Instance: ds2v2, KubernetesVersion: "1.28",
			MeasuredCapacity: Reservation{MemoryBytes: ptr(7113160 * 1024)}},
			kubeCPU: 100, kubeMem: 1638 * mi, evicMem: 750 * mi,
			alloc: Resources{CPUMillicores: 1900, MemoryBytes: 4667848 * 1024}},
		// §12.5: the observed 69m flag as an override gives 1931m.
		{name: "DS2_v2 observed 69m", in: Input{Profile: AKSLinux, Instance: ds2v2, KubernetesVersion: "1.28",
			MeasuredCapacity: Reservation{MemoryBytes: ptr(7113160 * 1024)}, KubeReserved: Reservation{CPUMillicores: ptr(69)}},
			kubeCPU: 69, alloc: Resources{CPUMillicores: 1931, MemoryBytes: 4667848 * 1024}},
		// §12.6: 8 GiB, 30 pods: min(20×30+50, 2048) = 650Mi, eviction 100Mi.
		{name: "aks 1.30 8GiB 30 pods", in: Input{Profile: AKSLinux, Instance: d2sv5, KubernetesVersion: "1.30", MaxPods: 30},
			maxPods: 30, kubeMem: 650 * mi, evicMem: 100 * mi},
		// §12.6: 4 GiB, 70 pods: min(1450, 1024) = 1024Mi (the 25 % cap).
		{name: "aks current 4GiB 70 pods", in: Input{Profile: AKSLinux, Instance: b1ms, MaxPods: 70},
			maxPods: 70, kubeMem: 1024 * mi, evicMem: 100 * mi},
		// §5.3: shared-core E2 gets 1060m, allocatable 940m.
		{name: "gke e2-medium", in: Input{Profile: GKEStandard, Instance: e2medium},
			maxPods: 110, kubeCPU: 1060, kubeMem: 1024 * mi, evicMem: 100 * mi, alloc: Resources{CPUMillicores: 940}},
		// GKE n2-standard-4: tiers 80m; memory tiers on 16384: (25×4096+20×4096+10×8192)/100 = 2662Mi.
		// Ephemeral on the 100 GiB default disk: min(50, 41, 100) GiB = 41 GiB.
		{name: "gke n2-standard-4", in: Input{Profile: GKEStandard, Instance: n2std4},
			kubeCPU: 80, kubeMem: 2662 * mi, kubeEph: 41 * gi, evicMem: 100 * mi},
		// Bottlerocket: P is the effective max pods (user set 50): 11×50+255 = 805Mi.
		{name: "bottlerocket max_pods override", in: Input{Profile: EKSBottlerocket, Instance: m5large, MaxPods: 50, EKS: EKSOptions{Kind: SelfManaged}},
			maxPods: 50, kubeMem: 805 * mi},
		// AL2 keeps P = P_ENI whatever max_pods is.
		{name: "al2 max_pods override keeps P_ENI", in: Input{Profile: EKSAL2, Instance: m5large, MaxPods: 50, EKS: EKSOptions{Kind: SelfManaged}},
			maxPods: 50, kubeMem: 574 * mi},
		// Prefix delegation on MNG: 3×9×16+2 = 434, capped at 110 for 2 vCPU; P = max(29, 110) = 110 → 1465Mi.
		{name: "al2023 managed prefix delegation", in: Input{Profile: EKSAL2023, Instance: m5large, EKS: EKSOptions{PrefixDelegation: true}},
			maxPods: 110, kubeMem: 1465 * mi},
		// Custom networking removes one ENI: 2×9+2 = 20 on Karpenter; P stays P_ENI (29).
		{name: "karpenter custom networking", in: Input{Profile: EKSAL2023, Instance: m5large, EKS: EKSOptions{Kind: Karpenter, CustomNetworking: true}},
			maxPods: 20, kubeMem: 574 * mi},
		// Windows: 110 pods, 11×110+255 = 1465Mi.
		{name: "eks windows", in: Input{Profile: EKSWindows, Instance: m5large},
			maxPods: 110, kubeMem: 1465 * mi},
		// AKS Windows books 2048Mi system-reserved; memory total checked via allocatable below.
		{name: "aks windows 1.28", in: Input{Profile: AKSWindows, Instance: ds2v2, KubernetesVersion: "1.28", MeasuredCapacity: Reservation{MemoryBytes: ptr(7113160 * 1024)}},
			alloc: Resources{MemoryBytes: (7113160 - 1638*1024 - 750*1024 - 2048*1024) * 1024}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Compute(tt.in)
			if err != nil {
				t.Fatalf("Compute: %v", err)
			}
			check := func(what string, got, want int64) {
				t.Helper()
				if want != 0 && got != want {
					t.Errorf("%s = %d, want %d", what, got, want)
				}
			}
			check("max pods", r.MaxPods, tt.maxPods)
			check("kube-reserved cpu", r.KubeReserved.CPUMillicores, tt.kubeCPU)
			check("kube-reserved memory", r.KubeReserved.MemoryBytes, tt.kubeMem)
			check("kube-reserved ephemeral", r.KubeReserved.EphemeralBytes, tt.kubeEph)
			check("eviction memory", r.EvictionThreshold.MemoryBytes, tt.evicMem)
			check("allocatable cpu", r.Allocatable.CPUMillicores, tt.alloc.CPUMillicores)
			check("allocatable memory", r.Allocatable.MemoryBytes, tt.alloc.MemoryBytes)
			check("allocatable pods", r.Allocatable.Pods, tt.alloc.Pods)
		})
	}
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
// ephemeral = 20Gi root − 1Gi − 10 %, pods = ENI-limited.
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
		want := Resources{
			CPUMillicores:  inst.VCPU*1000 - tieredCPU(inst.VCPU),
			MemoryBytes:    (capMi - (11*pods + 255) - 100) * mi,
			EphemeralBytes: 20*gi - gi - 2*gi,
			Pods:           pods,
		}
		if r.Allocatable != want {
			t.Errorf("%s: allocatable %+v, want Karpenter's %+v", inst.Name, r.Allocatable, want)
		}
	}
}

func TestAKS129KeepsSmallerAllocatable(t *testing.T) {
	in := Input{Profile: AKSLinux, Instance: d2sv5, MaxPods: 30}
	in.KubernetesVersion = "1.28"
	old, _ := Compute(in)
	in.KubernetesVersion = "1.30"
	cur, _ := Compute(in)
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

func TestDaemonSets(t *testing.T) {
	r, err := Compute(Input{Profile: EKSAL2023, Instance: m5large, DaemonSets: []DaemonSet{
		{Name: "aws-node", CPUMillicores: 25, TakesPodSlot: true},
		{Name: "fluent-bit", CPUMillicores: 100, MemoryBytes: 128 * mi, TakesPodSlot: true},
	}})
	if err != nil {
		t.Fatal(err)
	}
	// Slots: aws-node (listed), kube-proxy (always counted), fluent-bit = 3; IPs: 27 − 1 (fluent-bit) = 26.
	if r.DaemonSetOverhead.Pods != 3 || r.Available.Pods != 26 {
		t.Errorf("DaemonSet pods %d available pods %d, want 3 and 26", r.DaemonSetOverhead.Pods, r.Available.Pods)
	}
	if r.Available.CPUMillicores != 1930-125 {
		t.Errorf("available cpu %d, want %d", r.Available.CPUMillicores, 1930-125)
	}
	// Only aws-node and kube-proxy, nothing else: workload pods = IP count 3 × 9 (§12.2).
	r, _ = Compute(Input{Profile: EKSAL2023, Instance: m5large})
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
	// 5 % of capacity, rounded up: capacity 7577Mi → ceil(7577Mi × 0.05).
	if want := ceilDiv(7577*mi*500, 10000); r.EvictionThreshold.MemoryBytes != want {
		t.Errorf("eviction memory %d, want %d", r.EvictionThreshold.MemoryBytes, want)
	}
	if r.EvictionThreshold.EphemeralBytes != gi {
		t.Errorf("nodefs eviction %d", r.EvictionThreshold.EphemeralBytes)
	}
	// 0 % disables a threshold.
	r, _ = Compute(Input{Profile: EKSAL2023, Instance: m5large, EvictionHard: map[string]Threshold{SignalMemory: {IsPercent: true}}})
	if r.EvictionThreshold.MemoryBytes != 0 {
		t.Errorf("0%% should disable the threshold, got %d", r.EvictionThreshold.MemoryBytes)
	}
}

func TestComputeErrors(t *testing.T) {
	tests := []struct {
		name  string
		in    Input
		field string
		msg   string
	}{
		{"negative max pods", Input{Profile: EKSAL2023, Instance: m5large, MaxPods: -1}, "max_pods", "at least 1"},
		{"unknown profile", Input{Profile: "eks-al2024", Instance: m5large}, "profile", "eks-al2024"},
		{"profile cloud mismatch", Input{Profile: AKSLinux, Instance: m5large}, "profile", "eks-al2023"},
		{"bad version", Input{Profile: AKSLinux, Instance: ds1v2, KubernetesVersion: "one.two"}, "kubernetes_version", "one.two"},
		{"no memory", Input{Profile: EKSAL2023, Instance: Instance{Cloud: catalog.AWS, Name: "x", VCPU: 2, MaxENIs: 3, IPv4PerENI: 10}}, "instance_type", "no memory"},
		{"reservations eat cpu", Input{Profile: EKSAL2023, Instance: m5large, KubeReserved: Reservation{CPUMillicores: ptr(2000)}}, "kube_reserved.cpu", "run nothing"},
		{"reservations eat memory", Input{Profile: EKSAL2023, Instance: m5large, SystemReserved: Reservation{MemoryBytes: ptr(8 * gi)}}, "system_reserved.memory", "run nothing"},
		{"gke f1-micro needs override", Input{Profile: GKEStandard, Instance: Instance{Cloud: catalog.GCP, Name: "f1-micro", Family: "f1", VCPU: 1, MemoryMiB: 614, SharedCore: true}}, "kube_reserved.cpu", "f1-micro"},
		{"bad eviction signal", Input{Profile: EKSAL2023, Instance: m5large, EvictionHard: map[string]Threshold{"imagefs.available": {Bytes: 1}}}, "eviction_hard", "imagefs"},
		{"overhead 100%", Input{Profile: EKSAL2023, Instance: m5large, VMMemoryOverheadBP: ptr(10000)}, "vm_memory_overhead_percent", "below 100"},
		{"negative daemonset", Input{Profile: EKSAL2023, Instance: m5large, DaemonSets: []DaemonSet{{Name: "x", CPUMillicores: -1}}}, "daemonsets[0]", "negative"},
		{"windows auto mode", Input{Profile: EKSWindows, Instance: m5large, EKS: EKSOptions{Kind: AutoMode}}, "eks.node_group_kind", "Windows"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Compute(tt.in)
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("got %v, want *Error", err)
			}
			if e.Field != tt.field || !strings.Contains(e.Msg, tt.msg) {
				t.Errorf("got %q on %q, want field %q containing %q", e.Msg, e.Field, tt.field, tt.msg)
			}
		})
	}
}

func TestFormatBytes(t *testing.T) {
	for b, want := range map[int64]string{0: "0", 574 * mi: "574Mi", gi: "1Gi", 1814948 * 1024: "1814948Ki", 1000: "1000"} {
		if got := FormatBytes(b); got != want {
			t.Errorf("FormatBytes(%d) = %q, want %q", b, got, want)
		}
	}
}

// FuzzCompute checks that no input makes the model panic, and that a successful result is self-consistent.
func FuzzCompute(f *testing.F) {
	f.Add(uint8(0), int64(2), int64(8192), int64(0), int64(-1), int64(750), "1.28", int64(3), int64(10), int64(100), int64(64))
	f.Add(uint8(4), int64(1), int64(3584), int64(110), int64(3500452*1024), int64(0), "1.29", int64(0), int64(0), int64(0), int64(0))
	f.Add(uint8(6), int64(2), int64(4096), int64(300), int64(-5), int64(9999), "", int64(-1), int64(-1), int64(-7), int64(-9))
	f.Fuzz(func(t *testing.T, prof uint8, vcpu, memMiB, maxPods, measured, bp int64, version string, enis, ips, dsCPU, dsMemMi int64) {
		p := Profiles[int(prof)%len(Profiles)]
		cloud := p.Cloud()
		if cloud == "" {
			cloud = catalog.AWS
		}
		in := Input{Profile: p, Instance: Instance{Cloud: cloud, Name: "fuzz", VCPU: vcpu, MemoryMiB: memMiB, MaxENIs: enis, IPv4PerENI: ips, Hypervisor: "nitro"},
			MaxPods: maxPods, KubernetesVersion: version, VMMemoryOverheadBP: &bp,
			DaemonSets: []DaemonSet{{Name: "ds", CPUMillicores: dsCPU, MemoryBytes: dsMemMi * mi, TakesPodSlot: true}}}
		if measured >= 0 {
			in.MeasuredCapacity.MemoryBytes = &measured
		}
		r, err := Compute(in)
		if err != nil {
			return
		}
		if r.Allocatable.CPUMillicores <= 0 || r.Allocatable.MemoryBytes <= 0 || r.Allocatable.EphemeralBytes <= 0 {
			t.Fatalf("non-positive allocatable without error: %+v", r.Allocatable)
		}
		if r.Allocatable.CPUMillicores > r.Capacity.CPUMillicores || r.Allocatable.MemoryBytes > r.Capacity.MemoryBytes {
			t.Fatalf("allocatable above capacity: %+v > %+v", r.Allocatable, r.Capacity)
		}
	})
}

func TestPackerPods(t *testing.T) {
	eks, _ := Compute(Input{Profile: EKSAL2023, Instance: m5large})
	aks, _ := Compute(Input{Profile: AKSLinux, Instance: d2sv5, MaxPods: 30})
	tests := []struct {
		name   string
		r      Result
		listed []string
		want   int64
	}{
		// 29 max pods − aws-node − kube-proxy = 27; listing both gives their slots back to the packer.
		{"eks none listed", eks, nil, 27},
		{"eks both listed", eks, []string{"kube-proxy", "aws-node", "fluent-bit"}, 29},
		{"eks one listed", eks, []string{"aws-node"}, 28},
		// AKS takes no implicit slots.
		{"aks", aks, []string{"aws-node", "kube-proxy"}, 30},
	}
	for _, tt := range tests {
		if got := tt.r.PackerPods(tt.listed); got != tt.want {
			t.Errorf("%s: PackerPods = %d, want %d", tt.name, got, tt.want)
		}
	}
}

func TestSmallest(t *testing.T) {
	res := func(cpu, mem int64) Result { return Result{Available: Resources{CPUMillicores: cpu, MemoryBytes: mem}} }
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
