package disk

import (
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
)

// Catalog rows built from the disks.md §3.5 and §5.4 excerpts, so these tests do not depend on the
// catalog package's data.
var (
	m5Large = catalog.InstanceType{Cloud: catalog.AWS, Name: "m5.large", Hypervisor: "nitro",
		EBSBaselineBandwidthMbps: 650, EBSMaxBandwidthMbps: 4750, EBSBaselineThroughputMBps: 81.25,
		EBSMaxThroughputMBps: 593.75, EBSBaselineIOPS: 3600, EBSMaxIOPS: 18750, Sources: "test"}
	m5_4xlarge = catalog.InstanceType{Cloud: catalog.AWS, Name: "m5.4xlarge", Hypervisor: "nitro",
		EBSBaselineThroughputMBps: 593.75, EBSMaxThroughputMBps: 593.75, EBSBaselineIOPS: 18750, EBSMaxIOPS: 18750}
	t3Medium = catalog.InstanceType{Cloud: catalog.AWS, Name: "t3.medium", Hypervisor: "nitro",
		EBSBaselineThroughputMBps: 43.38, EBSMaxThroughputMBps: 260.62, EBSBaselineIOPS: 2000, EBSMaxIOPS: 11800}
	c4Large = catalog.InstanceType{Cloud: catalog.AWS, Name: "c4.large", Hypervisor: "xen",
		EBSBaselineThroughputMBps: 62.5, EBSMaxThroughputMBps: 62.5, EBSBaselineIOPS: 4000, EBSMaxIOPS: 4000}
	d4sV5 = catalog.InstanceType{Cloud: catalog.Azure, Name: "Standard_D4s_v5", MaxDataDisks: 8,
		UncachedDiskIOPS: 6400, UncachedDiskMBps: 145, UncachedDiskBurstIOPS: 20000, UncachedDiskBurstMBps: 1200}
	b2s = catalog.InstanceType{Cloud: catalog.Azure, Name: "Standard_B2s", MaxDataDisks: 4,
		UncachedDiskIOPS: 1280, UncachedDiskMBps: 15, UncachedDiskBurstIOPS: 4000, UncachedDiskBurstMBps: 100}
)

func node(t testing.TB, it catalog.InstanceType) *NodeLimits {
	t.Helper()
	n, err := NodeLimitsFor(it)
	if err != nil {
		t.Fatalf("NodeLimitsFor(%s): %v", it.Name, err)
	}
	return &n
}

func TestNodeLimitsFor(t *testing.T) {
	n := node(t, m5Large)
	// §3.2: m5.large baseline 3,600 IOPS / 81.25 MB/s, max 18,750 / 593.75 MB/s for 30 min per 24 h.
	if n.BaseIOPS != 3600 || n.BurstIOPS != 18750 || n.BaseBytesPerSec != 81_250_000 ||
		n.BurstBytesPerSec != 593_750_000 || n.BurstDuration != 30*time.Minute || n.BurstWindow != 24*time.Hour {
		t.Errorf("m5.large = %+v", n)
	}
	if n := node(t, m5_4xlarge); n.BurstDuration != 0 {
		t.Errorf("m5.4xlarge bursts: %+v", n)
	}
	if n := node(t, t3Medium); n.BaseBytesPerSec != 43_380_000 {
		t.Errorf("t3.medium throughput = %d B/s, want 43,380,000", n.BaseBytesPerSec)
	}
	if n := node(t, c4Large); !n.NonNitro {
		t.Error("c4.large not marked non-Nitro")
	}
	az := node(t, d4sV5)
	if az.BaseIOPS != 6400 || az.BaseBytesPerSec != 145_000_000 || az.BurstIOPS != 20000 ||
		az.BurstBytesPerSec != 1_200_000_000 || az.MaxDataDisks != 8 || az.BurstDuration != 30*time.Minute {
		t.Errorf("D4s_v5 = %+v", az)
	}
	// The disk table wins over the catalog's figures, and names match case-insensitively (§5.4).
	if az := node(t, catalog.InstanceType{Cloud: catalog.Azure, Name: "standard_b2s", UncachedDiskIOPS: 1280, UncachedDiskMBps: 22}); az.BaseBytesPerSec != 15_000_000 || az.Name != "Standard_B2s" {
		t.Errorf("B2s from the table = %+v", az)
	}
	// Standard_B2ms publishes 22.5 MB/s.
	if az := node(t, catalog.InstanceType{Cloud: catalog.Azure, Name: "Standard_B2ms"}); az.BaseBytesPerSec != 22_500_000 {
		t.Errorf("B2ms = %+v", az)
	}
	// Dsv6 publishes separate PV2/Ultra limits (D4s_v6: 8,333 IOPS / 248 MB/s against 6,400 / 212).
	if az := node(t, catalog.InstanceType{Cloud: catalog.Azure, Name: "Standard_D4s_v6"}); az.PV2UltraIOPS != 8333 ||
		az.PV2UltraBytesPerSec != 248_000_000 || az.BaseIOPS != 6400 {
		t.Errorf("D4s_v6 = %+v", az)
	}
	// A size missing from the table falls back to the catalog row.
	fb := node(t, catalog.InstanceType{Cloud: catalog.Azure, Name: "Standard_L8s_v3", MaxDataDisks: 16,
		UncachedDiskIOPS: 20000, UncachedDiskMBps: 400, Sources: "azuredisk-skus-map"})
	if fb.BaseIOPS != 20000 || fb.BaseBytesPerSec != 400_000_000 || fb.BurstDuration != 0 || !strings.Contains(fb.Source, "catalog") {
		t.Errorf("fallback = %+v", fb)
	}
	for _, it := range []catalog.InstanceType{
		{Cloud: catalog.GCP, Name: "n2-standard-4"},
		{Cloud: catalog.AWS, Name: "x9.large"},
		{Cloud: catalog.Azure, Name: "Standard_X1"},
		{Cloud: "oracle", Name: "x"},
	} {
		_, err := NodeLimitsFor(it)
		var f *Finding
		if !errors.As(err, &f) || f.Rule != "FIT-N0" || f.Path.String() != "Node" {
			t.Errorf("NodeLimitsFor(%s) error = %v, want FIT-N0", it.Name, err)
		}
	}
}

func TestEvaluateEffective(t *testing.T) {
	tests := []struct {
		name      string
		q         Query
		wantOps   float64
		wantBps   float64
		limitedBy Limit
		bound     string
	}{
		// §7.7: P20 with 4 KiB random I/O: min(2,300 / 1, 150e6 / 4,096 = 36,621) = 2,300 ops;
		// 2,300 × 4,096 B = 9,420,800 B/s ≈ 9.4 MB/s.
		{"P20 4 KiB random", Query{Spec: Spec{Type: PremiumLRS, SizeGiB: 512}, Access: Access{BlockSize: 4 * kib}},
			2300, 9_420_800, LimitTier, "IOPS"},
		// §7.7: fio iodepth 1 at 2.5 ms: min(2,300, 36,621, 1 / 0.0025 = 400) = 400 ops, 1,638,400 B/s.
		{"P20 QD 1", Query{Spec: Spec{Type: PremiumLRS, SizeGiB: 512},
			Access: Access{BlockSize: 4 * kib, QueueDepth: 1, Latency: 2500 * time.Microsecond}},
			400, 1_638_400, LimitQueueDepth, "latency"},
		// §7.7: P20 64 KiB sequential: min(2,300, 150e6 / 65,536 = 2,288.8) ops → 150 MB/s.
		{"P20 64 KiB sequential", Query{Spec: Spec{Type: PremiumLRS, SizeGiB: 512},
			Access: Access{BlockSize: 64 * kib, Pattern: Sequential}}, 150e6 / 65536, 150e6, LimitTier, "throughput"},
		// The field report: 2,300 IOPS at 4 KiB on a 512 GiB Premium disk is ~9 MB/s.
		// §7.7: gp3 defaults with 1 MiB sequential: ioPerOp = 4 → 750 ops by IOPS; 125 MiB/s / 1 MiB = 125.
		{"gp3 1 MiB sequential", Query{Spec: Spec{Type: GP3, SizeGiB: 100}, Access: Access{BlockSize: mib, Pattern: Sequential}},
			125, float64(125 * mib), LimitVolume, "throughput"},
		// §3.2 / §7.7: gp3 16,000 IOPS / 1,000 MiB/s on m5.large: 3,600 IOPS (16 KiB) bound by the instance.
		{"gp3 on m5.large IOPS", Query{Spec: Spec{Type: GP3, SizeGiB: 100, IOPS: 16000, Throughput: 1000}, Node: node(t, m5Large)},
			3600, float64(3600 * 16 * kib), LimitInstance, "IOPS"},
		// ... and with 1 MiB sequential: 81.25 MB/s bound by the instance (81.25e6 / 1 MiB ops).
		{"gp3 on m5.large throughput", Query{Spec: Spec{Type: GP3, SizeGiB: 100, IOPS: 16000, Throughput: 1000},
			Node: node(t, m5Large), Access: Access{BlockSize: mib, Pattern: Sequential}},
			81.25e6 / float64(mib), 81.25e6, LimitInstance, "throughput"},
		// §5.3: two P20 on Standard_D4s_v5 share 145 MB/s: 72.5 MB/s each with 64 KiB I/O.
		{"two P20 on D4s_v5", Query{Spec: Spec{Type: PremiumLRS, SizeGiB: 512}, Node: node(t, d4sV5), VolumesPerNode: 2,
			Access: Access{BlockSize: 64 * kib, Pattern: Sequential}}, 72.5e6 / 65536, 72.5e6, LimitInstance, "throughput"},
		// §5.3: a Standard_B2s turns a P20 into a 1,280 IOPS disk (4 KiB: 1,280 × 4,096 = 5,242,880 B/s < 15 MB/s).
		{"P20 on B2s", Query{Spec: Spec{Type: PremiumLRS, SizeGiB: 512}, Node: node(t, b2s), Access: Access{BlockSize: 4 * kib}},
			1280, 1280 * 4096, LimitInstance, "IOPS"},
		// §5.1: on Dsv6 a PV2 volume uses the PV2/Ultra uncached limit: 8,333 IOPS (not 6,400).
		{"PV2 on D4s_v6", Query{Spec: Spec{Type: PremiumV2LRS, SizeGiB: 100, IOPS: 20000, Throughput: 1000},
			Node: node(t, catalog.InstanceType{Cloud: catalog.Azure, Name: "Standard_D4s_v6"})},
			8333, 8333 * 16384, LimitInstance, "IOPS"},
		// A volume exactly as fast as the node reports the volume (ties go to the volume).
		{"tie goes to the volume", Query{Spec: Spec{Type: GP3, SizeGiB: 100, IOPS: 3600}, Node: node(t, m5Large)},
			3600, float64(3600 * 16 * kib), LimitVolume, "IOPS"},
		// §2.6: a random 4 KiB I/O on st1 is charged 1 MiB: 1 TiB st1 gives 40 MiB/s / 1 MiB = 40 ops.
		{"st1 random", Query{Spec: Spec{Type: ST1, SizeGiB: 1024}, Access: Access{BlockSize: 4 * kib}},
			40, float64(40 * 4 * kib), LimitVolume, "throughput"},
		// Sequential 4 KiB on st1 merges into 1 MiB I/Os: 40 MiB/s / 4 KiB = 10,240 ops (500 IOPS × 256 = 128,000 by IOPS).
		{"st1 sequential", Query{Spec: Spec{Type: ST1, SizeGiB: 1024}, Access: Access{BlockSize: 4 * kib, Pattern: Sequential}},
			10240, float64(40 * mib), LimitVolume, "throughput"},
		// io2 at 64,000 IOPS on a non-Nitro instance reaches 32,000 (§2.5); c4.large is lower still: its
		// 62.5 MB/s at 16 KiB is 62,500,000 / 16,384 = 3,814.7 ops, below its 4,000 IOPS.
		{"io2 on non-Nitro", Query{Spec: Spec{Type: IO2, SizeGiB: 100, IOPS: 64000}, Node: node(t, c4Large)},
			62.5e6 / 16384, 62.5e6, LimitInstance, "throughput"},
		// 512 KiB I/O on SSD counts 2 I/Os: gp3 3,000 IOPS → 1,500 ops; 125 MiB/s / 512 KiB = 250 ops.
		{"gp3 512 KiB random", Query{Spec: Spec{Type: GP3, SizeGiB: 10}, Access: Access{BlockSize: 512 * kib}},
			250, float64(125 * mib), LimitVolume, "throughput"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Evaluate(tt.q)
			if err != nil {
				t.Fatal(err)
			}
			e := r.Effective
			if !near(e.OpsPerSec, tt.wantOps) || !near(e.BytesPerSec, tt.wantBps) || e.LimitedBy != tt.limitedBy || e.Bound != tt.bound {
				t.Errorf("Effective = %+v, want %v ops, %v B/s, %s, %s", e, tt.wantOps, tt.wantBps, tt.limitedBy, tt.bound)
			}
			if r.Verdict != Pass || len(r.Findings) != 0 {
				t.Errorf("no requirement, but verdict %s findings %v", r.Verdict, r.Findings)
			}
		})
	}
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

func TestEvaluateBurst(t *testing.T) {
	// gp3 16,000 / 1,000 on m5.large: 18,750 IOPS / 593.75 MB/s for 30 minutes a day (§3.2).
	r, err := Evaluate(Query{Spec: Spec{Type: GP3, SizeGiB: 100, IOPS: 16000, Throughput: 1000}, Node: node(t, m5Large)})
	if err != nil {
		t.Fatal(err)
	}
	// Volume 16,000 < node burst 18,750, so the volume binds while the node bursts.
	if r.BurstEffective.OpsPerSec != 16000 || r.BurstEffective.LimitedBy != LimitVolume || r.BurstDuration != 30*time.Minute {
		t.Errorf("burst = %+v for %v", r.BurstEffective, r.BurstDuration)
	}
	// gp2 100 GiB alone: 3,000 IOPS for 2,000 s.
	r, _ = Evaluate(Query{Spec: Spec{Type: GP2, SizeGiB: 100}})
	if r.BurstEffective.OpsPerSec != 3000 || r.BurstDuration != 2000*time.Second || r.BurstUnlimited {
		t.Errorf("gp2 burst = %+v for %v", r.BurstEffective, r.BurstDuration)
	}
	// Azure P30 with on-demand bursting: no time limit.
	r, _ = Evaluate(Query{Spec: Spec{Type: PremiumLRS, SizeGiB: 1024, Bursting: true}})
	if r.BurstEffective.OpsPerSec != 30000 || !r.BurstUnlimited || r.BurstDuration != 0 {
		t.Errorf("P30 burst = %+v for %v unlimited %t", r.BurstEffective, r.BurstDuration, r.BurstUnlimited)
	}
}

func rules(fs []Finding) string {
	var ids []string
	for _, f := range fs {
		ids = append(ids, f.Rule+"/"+string(f.Severity))
	}
	return strings.Join(ids, " ")
}

func TestEvaluateRequirement(t *testing.T) {
	qd := func(n int64) Access { return Access{QueueDepth: n, Latency: time.Millisecond} }
	tests := []struct {
		name      string
		q         Query
		verdict   Verdict
		rules     string // rule/severity of every finding, in order
		recSize   int64  // recommended size, 0 for none
		recTier   string
		wantField string // path of the first error, if any
	}{
		// §7.8: 1,000 IOPS on Premium lands on P15 (256 GiB); the 128 GiB P10 meets it only on burst credits.
		// 1,000 ops × 2.5 ms = 2.5 → QD-1 asks for 3 I/Os in flight.
		{name: "P10 burst-only", q: Query{Spec: Spec{Type: PremiumLRS, SizeGiB: 128}, Requirement: Requirement{IOPS: 1000}},
			verdict: Warn, rules: "QD-1/warning AZD-P1/warning", recSize: 256, recTier: "P15"},
		{name: "P15 meets 1,000", q: Query{Spec: Spec{Type: PremiumLRS, SizeGiB: 256}, Access: qd(4), Requirement: Requirement{IOPS: 1000}},
			verdict: Pass, rules: "", recSize: 256, recTier: "P15"},
		// 5,000 IOPS is above every credit burst (3,500) and P30's 5,000 is the first baseline → FIT-V1, P30.
		// Unmet: an error, as every unmet requirement (the plan fails unless fail_on_unmet is false).
		{name: "P20 short", q: Query{Spec: Spec{Type: PremiumLRS, SizeGiB: 512}, Access: qd(8), Requirement: Requirement{IOPS: 5000}},
			verdict: Fail, rules: "FIT-V1/error", recSize: 1024, recTier: "P30", wantField: "Spec.SizeGiB"},
		// 25,000 IOPS: no baseline (P80: 20,000); P30 with on-demand bursting (30,000).
		{name: "on-demand bursting recommended", q: Query{Spec: Spec{Type: PremiumLRS, SizeGiB: 1024}, Access: qd(64),
			Requirement: Requirement{IOPS: 25000}}, verdict: Fail, rules: "FIT-V1/error", recSize: 1024, recTier: "P30", wantField: "Spec.SizeGiB"},
		{name: "on-demand bursting enabled", q: Query{Spec: Spec{Type: PremiumLRS, SizeGiB: 1024, Bursting: true}, Access: qd(64),
			Requirement: Requirement{IOPS: 25000}}, verdict: Pass, rules: "AZD-P3/warning", recSize: 1024, recTier: "P30"},
		// 50,000 IOPS: no Premium tier even with bursting → FIT-V2 on required_iops.
		{name: "Premium cannot", q: Query{Spec: Spec{Type: PremiumLRS, SizeGiB: 1024}, Access: qd(64),
			Requirement: Requirement{IOPS: 50000}}, verdict: Fail, rules: "FIT-V2/error", wantField: "Requirement.IOPS"},
		// Throughput requirement that no gp3 meets: 3,000 MiB/s > 2,000.
		{name: "gp3 throughput cannot", q: Query{Spec: Spec{Type: GP3, SizeGiB: 100}, Access: Access{BlockSize: mib, Pattern: Sequential, QueueDepth: 8, Latency: time.Millisecond},
			Requirement: Requirement{BytesPerSec: 3000 * mib}}, verdict: Fail, rules: "FIT-V2/error", wantField: "Requirement.BytesPerSec"},
		// §7.4 QD-2: queue depth 1 at 2.5 ms gives 400 ops < 1,000.
		{name: "QD-2", q: Query{Spec: Spec{Type: PremiumLRS, SizeGiB: 512}, Access: Access{QueueDepth: 1, Latency: 2500 * time.Microsecond},
			Requirement: Requirement{IOPS: 1000}}, verdict: Fail, rules: "QD-2/error", recSize: 512, recTier: "P20", wantField: "Access.QueueDepth"},
		// FIT-A1: queue depth given, latency assumed.
		{name: "latency assumed", q: Query{Spec: Spec{Type: PremiumLRS, SizeGiB: 512}, Access: Access{QueueDepth: 8},
			Requirement: Requirement{IOPS: 1000}}, verdict: Warn, rules: "FIT-A1/warning", recSize: 512, recTier: "P20"},
		// §3.2: 10,000 IOPS on gp3 16,000 / m5.large: node baseline 3,600 < 10,000 ≤ max 18,750 → FIT-N1.
		// (250 MiB/s provisioned covers 10,000 × 16 KiB = 156.25 MiB/s.)
		{name: "node burst-only", q: Query{Spec: Spec{Type: GP3, SizeGiB: 100, IOPS: 16000, Throughput: 250}, Node: node(t, m5Large), Access: qd(16),
			Requirement: Requirement{IOPS: 10000}}, verdict: Warn, rules: "FIT-N1/warning", recSize: 100},
		// 15,000 IOPS on t3.medium (max 11,800) → FIT-N2 on instance_type (15,000 × 16 KiB = 234.4 MiB/s ≤ 250).
		{name: "node too small", q: Query{Spec: Spec{Type: GP3, SizeGiB: 100, IOPS: 16000, Throughput: 250}, Node: node(t, t3Medium), Access: qd(32),
			Requirement: Requirement{IOPS: 15000}}, verdict: Fail, rules: "FIT-N2/error", recSize: 100, wantField: "Node"},
		// Azure VM data-disk limit: Standard_B2s attaches 4.
		{name: "too many disks", q: Query{Spec: Spec{Type: PremiumLRS, SizeGiB: 512}, Node: node(t, b2s), VolumesPerNode: 5},
			verdict: Fail, rules: "FIT-N3/error", wantField: "VolumesPerNode"},
		// §2.6 EBS-P5: st1 with random I/O. The IOPS requirement's default shape is random (§7.9), so the
		// finding is on the requirement; with the pattern from the access profile it is on the pattern.
		{name: "st1 random", q: Query{Spec: Spec{Type: ST1, SizeGiB: 1024}, Access: qd(1), Requirement: Requirement{IOPS: 10}},
			verdict: Fail, rules: "EBS-P5/error", recSize: 1024, wantField: "Requirement.IOPS"},
		{name: "st1 random from the access profile", q: Query{Spec: Spec{Type: ST1, SizeGiB: 1024},
			Access: Access{Pattern: Random, QueueDepth: 1, Latency: time.Millisecond}, Requirement: Requirement{IOPS: 10}},
			verdict: Fail, rules: "EBS-P5/error", recSize: 1024, wantField: "Access.Pattern"},
		// A throughput requirement on st1 is sequential by default (§7.9), so no EBS-P5: 100 MiB/s at 256 KiB
		// is 400 operations/s merged into 100 counted 1 MiB I/Os; the 1 TiB volume's 40 MiB/s baseline meets
		// it only on its 250 MiB/s burst, and 2,560 GiB (40 MiB/s per TiB) sustains it.
		{name: "st1 throughput", q: Query{Spec: Spec{Type: ST1, SizeGiB: 1024}, Access: qd(4),
			Requirement: Requirement{BytesPerSec: 100 * mib}}, verdict: Warn, rules: "FIT-B1/warning", recSize: 2560},
		// gp2 100 GiB with 1,000 IOPS: burst-only for 2,000 s; recommend 334 GiB (⌈1,000 / 3⌉).
		{name: "gp2 burst-only", q: Query{Spec: Spec{Type: GP2, SizeGiB: 100}, Access: qd(4), Requirement: Requirement{IOPS: 1000}},
			verdict: Warn, rules: "FIT-B1/warning", recSize: 334},
		// Standard SSD figures are "up to" targets (AZD-P2).
		{name: "Standard SSD requirement", q: Query{Spec: Spec{Type: StandardSSDLRS, SizeGiB: 512}, Access: qd(4),
			Requirement: Requirement{IOPS: 100}}, verdict: Warn, rules: "AZD-P2/warning", recSize: 512, recTier: "E20"},
		{name: "magnetic requirement", q: Query{Spec: Spec{Type: Standard, SizeGiB: 100}, Access: qd(4),
			Requirement: Requirement{IOPS: 100}}, verdict: Fail, rules: "EBS-P6/warning FIT-V2/error", wantField: "Requirement.IOPS"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Evaluate(tt.q)
			if err != nil {
				t.Fatal(err)
			}
			if got := rules(r.Findings); r.Verdict != tt.verdict || got != tt.rules {
				t.Errorf("verdict %s, findings %q, want %s, %q\n%v", r.Verdict, got, tt.verdict, tt.rules, r.Findings)
			}
			var size int64
			var tier string
			if r.Recommendation != nil {
				size, tier = r.Recommendation.Spec.SizeGiB, r.Recommendation.Tier
			}
			if size != tt.recSize || tier != tt.recTier {
				t.Errorf("recommendation %d GiB %q, want %d GiB %q", size, tier, tt.recSize, tt.recTier)
			}
			for _, f := range r.Findings {
				if f.Severity == SeverityError {
					if f.Path.String() != tt.wantField {
						t.Errorf("error %s at %q, want %q", f.Rule, f.Path, tt.wantField)
					}
					break
				}
			}
			for _, f := range r.Findings {
				if f.Message == "" || !strings.Contains(f.Error(), f.Rule) {
					t.Errorf("finding without message or rule: %+v", f)
				}
			}
		})
	}
}

func TestEvaluateInvalid(t *testing.T) {
	tests := []struct {
		name string
		q    Query
		at   string
	}{
		{"bad block size", Query{Spec: Spec{Type: GP3, SizeGiB: 1}, Access: Access{BlockSize: -1}}, "Access.BlockSize"},
		{"huge block size", Query{Spec: Spec{Type: GP3, SizeGiB: 1}, Access: Access{BlockSize: 2 * gib}}, "Access.BlockSize"},
		{"bad pattern", Query{Spec: Spec{Type: GP3, SizeGiB: 1}, Access: Access{Pattern: "mixed"}}, "Access.Pattern"},
		{"negative queue depth", Query{Spec: Spec{Type: GP3, SizeGiB: 1}, Access: Access{QueueDepth: -1}}, "Access.QueueDepth"},
		{"negative latency", Query{Spec: Spec{Type: GP3, SizeGiB: 1}, Access: Access{Latency: -1}}, "Access.Latency"},
		{"negative volumes", Query{Spec: Spec{Type: GP3, SizeGiB: 1}, VolumesPerNode: -1}, "VolumesPerNode"},
		{"negative requirement", Query{Spec: Spec{Type: GP3, SizeGiB: 1}, Requirement: Requirement{IOPS: -1}}, "Requirement.IOPS"},
		{"cloud mismatch", Query{Spec: Spec{Type: PremiumLRS, SizeGiB: 1}, Node: node(t, m5Large)}, "Node"},
		{"invalid volume", Query{Spec: Spec{Type: GP3, SizeGiB: 20, IOPS: 16000}}, "Spec.IOPS"},
	}
	for _, tt := range tests {
		_, err := Evaluate(tt.q)
		if _, at, ok := inputError(err); !ok || at != tt.at || field.As(err)[0].Value == "" {
			t.Errorf("%s: error %v, want one input error at %q with its value", tt.name, err, tt.at)
		}
	}
}

// TestEvaluateInvariants: effective rates never exceed any limit, and burst rates are never below
// sustained ones (property check over a grid).
func TestEvaluateInvariants(t *testing.T) {
	checked, failed := 0, 0
	defer func() {
		// 6 sizes × 3 profiles × (14 AWS and Azure types × 3 nodes + 5 GCP types) = 846 queries; 765
		// are valid today.
		if checked < minInvariantChecks || failed == 0 {
			t.Errorf("checked %d valid and %d invalid queries, want at least %d valid and some invalid",
				checked, failed, minInvariantChecks)
		}
	}()
	nodes := map[catalog.Cloud][]*NodeLimits{
		catalog.AWS:   {nil, node(t, m5Large), node(t, c4Large)},
		catalog.Azure: {nil, node(t, d4sV5), node(t, b2s)},
		catalog.GCP:   {nil},
	}
	for _, typ := range Types {
		for _, size := range []int64{1, 4, 125, 300, 1024, 5000} {
			for _, n := range nodes[typ.Cloud()] {
				for _, a := range []Access{{}, {BlockSize: 4 * kib, QueueDepth: 1}, {BlockSize: mib, Pattern: Sequential, QueueDepth: 32}} {
					spec := Spec{Type: typ, SizeGiB: size}
					if typ == IO1 || typ == IO2 || typ == PDExtreme {
						spec.IOPS = 3000
					}
					r, err := Evaluate(Query{Spec: spec, Node: n, Access: a, VolumesPerNode: 2})
					if err != nil {
						// Only the spec can be invalid here (a size out of the type's range, too few GiB
						// for the IOPS): the error must be NewVolume's, at the same Spec field.
						_, at, ok := inputError(err)
						_, vErr := NewVolume(spec)
						_, vAt, vOK := inputError(vErr)
						if !ok || !vOK || at != "Spec."+vAt || !strings.HasSuffix(err.Error(), vErr.Error()) {
							t.Errorf("%+v: Evaluate error %v at %q, NewVolume error %v at %q", spec, err, at, vErr, vAt)
						}
						failed++
						continue
					}
					checkInvariants(t, r)
					checked++
				}
			}
		}
	}
}

// minInvariantChecks is the least number of valid queries TestEvaluateInvariants must check.
const minInvariantChecks = 750

func checkInvariants(t *testing.T, r Result) {
	t.Helper()
	e, b := r.Effective, r.BurstEffective
	if e.OpsPerSec < 0 || math.IsNaN(e.OpsPerSec) || math.IsInf(e.OpsPerSec, 0) {
		t.Fatalf("%+v: effective %v", r.Volume.Spec, e.OpsPerSec)
	}
	if b.OpsPerSec < e.OpsPerSec*(1-1e-12) {
		t.Errorf("%+v: burst %v below sustained %v", r.Volume.Spec, b.OpsPerSec, e.OpsPerSec)
	}
	pn, pd := ioPerOp(r.Volume, r.Access)
	if e.OpsPerSec*float64(pn)/float64(pd) > float64(r.Volume.BaseIOPS)*(1+1e-12) {
		t.Errorf("%+v: %v ops exceed %d IOPS", r.Volume.Spec, e.OpsPerSec, r.Volume.BaseIOPS)
	}
	if e.OpsPerSec*float64(bytesCharged(r.Volume, r.Access)) > float64(r.Volume.BaseBytesPerSec)*(1+1e-12) {
		t.Errorf("%+v: %v ops exceed %d B/s", r.Volume.Spec, e.OpsPerSec, r.Volume.BaseBytesPerSec)
	}
	if r.Node != nil && e.OpsPerSec*float64(pn)/float64(pd) > r.NodeShare.BaseIOPS*(1+1e-12) {
		t.Errorf("%+v: %v ops exceed the node share %v", r.Volume.Spec, e.OpsPerSec, r.NodeShare.BaseIOPS)
	}
	if r.Access.QueueDepth > 0 && e.OpsPerSec > float64(r.Access.QueueDepth)/r.Access.Latency.Seconds()*(1+1e-12) {
		t.Errorf("%+v: %v ops exceed the queue-depth bound", r.Volume.Spec, e.OpsPerSec)
	}
	if e.Detail == "" || r.Source == "" {
		t.Errorf("%+v: empty detail or source", r.Volume.Spec)
	}
}

func FuzzEvaluate(f *testing.F) {
	f.Add("Premium_LRS", int64(512), int64(0), int64(0), int64(4096), false, int64(1), int64(2500), int64(1000), int64(0), int64(1))
	f.Add("gp3", int64(20), int64(16000), int64(1000), int64(0), true, int64(0), int64(0), int64(0), int64(100<<20), int64(2))
	f.Add("st1", int64(1024), int64(0), int64(0), int64(1<<20), true, int64(32), int64(10000), int64(0), int64(200<<20), int64(1))
	f.Add("UltraSSD_LRS", int64(64), int64(64000), int64(0), int64(8192), false, int64(64), int64(1000), int64(60000), int64(0), int64(3))
	f.Add("gp2", int64(1), int64(0), int64(0), int64(1), false, int64(1000000), int64(1), int64(1000000000), int64(1), int64(1000))
	f.Fuzz(func(t *testing.T, typ string, size, iops, tp, block int64, seq bool, qd, latUS, reqIOPS, reqBps, vols int64) {
		pat := Random
		if seq {
			pat = Sequential
		}
		q := Query{Spec: Spec{Type: Type(typ), SizeGiB: size, IOPS: iops, Throughput: tp},
			Access:         Access{BlockSize: block, Pattern: pat, QueueDepth: qd, Latency: time.Duration(latUS) * time.Microsecond},
			Requirement:    Requirement{IOPS: reqIOPS, BytesPerSec: reqBps},
			VolumesPerNode: vols}
		if Type(typ).Cloud() == catalog.AWS {
			q.Node = node(t, m5Large)
		}
		r, err := Evaluate(q)
		if err != nil {
			if es := field.As(err); len(es) != 1 || es[0].Detail == "" {
				t.Fatalf("error %v is not one input error with a detail", err)
			}
			return
		}
		checkInvariants(t, r)
		if r.Recommendation != nil {
			v := r.Recommendation.Volume
			iops, bps := v.BaseIOPS, v.BaseBytesPerSec
			if r.Recommendation.Spec.Bursting {
				iops, bps = v.BurstIOPS, v.BurstBytesPerSec
			}
			if iops < r.Demand.IOPS || bps < r.Demand.BytesPerSec {
				t.Fatalf("recommendation %+v does not meet %+v", r.Recommendation.Spec, r.Demand)
			}
		}
		if r.Verdict == Pass && len(r.Findings) > 0 {
			for _, fd := range r.Findings {
				if fd.Severity == SeverityError {
					t.Fatalf("pass with error finding %v", fd)
				}
			}
		}
	})
}

func BenchmarkEvaluate(b *testing.B) {
	q := Query{Spec: Spec{Type: PremiumLRS, SizeGiB: 300}, Node: node(b, d4sV5), VolumesPerNode: 2,
		Access: Access{BlockSize: 4 * kib, QueueDepth: 4}, Requirement: Requirement{IOPS: 1000}}
	for b.Loop() {
		if _, err := Evaluate(q); err != nil {
			b.Fatal(err)
		}
	}
}
