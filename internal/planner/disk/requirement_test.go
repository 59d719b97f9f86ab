package disk

import (
	"strings"
	"testing"
	"time"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
)

// azureSizes returns the disk limits of Azure VM sizes from azure-vm-disk-limits.tsv.
func azureSizes(t testing.TB, names ...string) []NodeLimits {
	t.Helper()
	var out []NodeLimits
	for _, n := range names {
		out = append(out, *node(t, catalog.InstanceType{Cloud: catalog.Azure, Name: n}))
	}
	return out
}

// dsv5 is the Dsv5 series of azure-vm-disk-limits.tsv, in the catalog's name order.
var dsv5 = []string{"Standard_D16s_v5", "Standard_D2s_v5", "Standard_D32s_v5", "Standard_D48s_v5", "Standard_D4s_v5",
	"Standard_D64s_v5", "Standard_D8s_v5", "Standard_D96s_v5"}

// TestSeparateRequirements is issue 20's case: a database needing 5,000 IOPS (random reads) and, separately,
// 200 MB/s (sequential scans) on Premium_LRS. Each requirement has its own shape (§7.9): the IOPS one
// 16 KiB random by default (5,000 IOPS and 5,000 × 16,384 B = 81.92 MB/s), the throughput one 256 KiB
// sequential (200e6 / 262,144 = 762.94 operations/s, 763 counted I/Os and 200 MB/s). The larger in each
// limit is 5,000 IOPS and 200 MB/s: P30 (5,000 IOPS, 200 MB/s), not the P60 of converting 200 MB/s at
// 16 KiB into 12,208 IOPS.
func TestSeparateRequirements(t *testing.T) {
	const mb = 1_000_000
	lat := Access{QueueDepth: 16, Latency: 2500 * time.Microsecond} // 16 / 2.5 ms = 6,400 ≥ 5,000 operations/s
	tests := []struct {
		name        string
		req         Requirement
		access      Access
		want        Demand
		tier        string
		iopsShape   IOShape
		iopsFrom    ShapeOrigin
		tpShape     IOShape
		tpFrom      ShapeOrigin
		tpOps       float64
		iopsDemand  Demand
		tpDemand    Demand
		wantDetail  string
		wantNoIOPS  bool
		wantNoThrou bool
	}{
		{name: "defaults", req: Requirement{IOPS: 5000, BytesPerSec: 200 * mb}, access: lat,
			want: Demand{IOPS: 5000, BytesPerSec: 200 * mb}, tier: "P30",
			iopsShape: DefaultIOPSShape, iopsFrom: ShapeDefault, tpShape: DefaultThroughputShape, tpFrom: ShapeDefault,
			tpOps: 200e6 / 262144, iopsDemand: Demand{5000, 81_920_000}, tpDemand: Demand{763, 200 * mb},
			wantDetail: "the I/O size is the default 256 KiB of a throughput requirement"},
		// The shapes: 8 KiB random reads (40.96 MB/s) and 256 KiB scans: still P30.
		{name: "8 KiB reads", req: Requirement{IOPS: 5000, BytesPerSec: 200 * mb,
			IOPSShape: IOShape{BlockSize: 8 * kib, Pattern: Random}, ThroughputShape: IOShape{BlockSize: 256 * kib, Pattern: Sequential}},
			access: lat, want: Demand{IOPS: 5000, BytesPerSec: 200 * mb}, tier: "P30",
			iopsShape: IOShape{8 * kib, Random}, iopsFrom: ShapeGiven, tpShape: DefaultThroughputShape, tpFrom: ShapeGiven,
			tpOps: 200e6 / 262144, iopsDemand: Demand{5000, 40_960_000}, tpDemand: Demand{763, 200 * mb},
			wantDetail: "5,000 operations/s of 8 KiB random I/O (5,000 IOPS and 40.96 MB/s)"},
		// Concurrent: 5,000 + 763 = 5,763 IOPS and 40.96 + 200 = 240.96 MB/s: P40 (7,500 IOPS, 250 MB/s).
		{name: "concurrent", req: Requirement{IOPS: 5000, BytesPerSec: 200 * mb, IOPSShape: IOShape{BlockSize: 8 * kib}, Concurrent: true},
			access: lat, want: Demand{IOPS: 5763, BytesPerSec: 240_960_000}, tier: "P40",
			iopsShape: IOShape{8 * kib, Random}, iopsFrom: ShapeGiven, tpShape: DefaultThroughputShape, tpFrom: ShapeDefault,
			tpOps: 200e6 / 262144, iopsDemand: Demand{5000, 40_960_000}, tpDemand: Demand{763, 200 * mb},
			wantDetail: "their demands add up: 5,763 IOPS and 240.96 MB/s"},
		// An access profile that gives a block size is the shape of both requirements (the single-profile
		// behaviour kept for configurations that state their I/O size): 200 MB/s of 16 KiB is
		// ⌈200e6 / 16,384⌉ = 12,208 operations, which only P60 (16,000 IOPS) sustains.
		{name: "single profile", req: Requirement{IOPS: 5000, BytesPerSec: 200 * mb},
			access: Access{BlockSize: 16 * kib, QueueDepth: 64, Latency: 2500 * time.Microsecond},
			want:   Demand{IOPS: 12208, BytesPerSec: 200 * mb}, tier: "P60",
			iopsShape: IOShape{16 * kib, Random}, iopsFrom: ShapeAccess, tpShape: IOShape{16 * kib, Sequential}, tpFrom: ShapeAccess,
			tpOps: 200e6 / 16384, iopsDemand: Demand{5000, 81_920_000}, tpDemand: Demand{12208, 200 * mb},
			wantDetail: "the I/O size is the access profile's"},
		// Throughput only: 200 MB/s at 256 KiB is 763 IOPS: P30 is the first tier with 200 MB/s.
		{name: "throughput only", req: Requirement{BytesPerSec: 200 * mb}, access: lat,
			want: Demand{IOPS: 763, BytesPerSec: 200 * mb}, tier: "P30", tpShape: DefaultThroughputShape, tpFrom: ShapeDefault,
			tpOps: 200e6 / 262144, tpDemand: Demand{763, 200 * mb}, wantNoIOPS: true,
			wantDetail: "throughput requirement: 200 MB/s of 256 KiB sequential I/O"},
		// IOPS only: 5,000 of 16 KiB: P30 (the same as before requirements had shapes).
		{name: "IOPS only", req: Requirement{IOPS: 5000}, access: lat,
			want: Demand{IOPS: 5000, BytesPerSec: 81_920_000}, tier: "P30", iopsShape: DefaultIOPSShape, iopsFrom: ShapeDefault,
			iopsDemand: Demand{5000, 81_920_000}, wantNoThrou: true, wantDetail: "IOPS requirement: 5,000 operations/s of 16 KiB random I/O"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Evaluate(Query{Spec: Spec{Type: PremiumLRS, SizeGiB: 1}, Access: tt.access, Requirement: tt.req})
			if err != nil {
				t.Fatal(err)
			}
			if r.Demand != tt.want || r.Recommendation == nil || r.Recommendation.Tier != tt.tier {
				t.Fatalf("demand %+v, recommendation %+v; want %+v and %s", r.Demand, r.Recommendation, tt.want, tt.tier)
			}
			if !strings.Contains(r.DemandDetail, tt.wantDetail) {
				t.Errorf("detail %q does not contain %q", r.DemandDetail, tt.wantDetail)
			}
			if d := r.IOPSDemand; tt.wantNoIOPS != (d == nil) ||
				d != nil && (d.Shape != tt.iopsShape || d.BlockFrom != tt.iopsFrom || d.Demand != tt.iopsDemand) {
				t.Errorf("IOPS demand %+v, want %v from %s: %+v", d, tt.iopsShape, tt.iopsFrom, tt.iopsDemand)
			}
			if d := r.ThroughputDemand; tt.wantNoThrou != (d == nil) ||
				d != nil && (d.Shape != tt.tpShape || d.BlockFrom != tt.tpFrom || d.Demand != tt.tpDemand || !near(d.OpsPerSec, tt.tpOps)) {
				t.Errorf("throughput demand %+v, want %v from %s: %v operations/s, %+v", d, tt.tpShape, tt.tpFrom, tt.tpOps, tt.tpDemand)
			}
		})
	}
}

// TestSeparateRequirementsOnNode is the must-hold of issue 20: on a Standard_D4s_v5 (uncached 6,400 IOPS
// and 145 MB/s; VM-level burst 20,000 and 1,200 MB/s for 30 minutes, azure-vm-disk-limits.tsv) the P30
// meets 5,000 IOPS and 200 MB/s, but the VM sustains 200 MB/s only in burst (FIT-N1). The Dsv5 sizes that
// sustain it uncached, smallest first: D8s_v5 (290 MB/s), D16s_v5 (600), D32s_v5 (865), D48s_v5 (1,315),
// D64s_v5 (1,735), D96s_v5 (2,600); D2s_v5 (3,750 IOPS, 85 MB/s) meets it only in burst too.
func TestSeparateRequirementsOnNode(t *testing.T) {
	r, err := Evaluate(Query{Spec: Spec{Type: PremiumLRS, SizeGiB: 1024}, Node: node(t, d4sV5),
		Access:      Access{QueueDepth: 16, Latency: 2500 * time.Microsecond},
		Requirement: Requirement{IOPS: 5000, BytesPerSec: 200_000_000}, Candidates: azureSizes(t, dsv5...),
		CandidateSet: "the standardDSv5Family family"})
	if err != nil {
		t.Fatal(err)
	}
	if r.Recommendation == nil || r.Recommendation.Tier != "P30" || r.Recommendation.Spec.SizeGiB != 1024 {
		t.Fatalf("recommendation %+v, want P30", r.Recommendation)
	}
	if got := rules(r.Findings); r.Verdict != Warn || got != "FIT-N1/warning" {
		t.Fatalf("verdict %s findings %q, want warn FIT-N1\n%v", r.Verdict, got, r.Findings)
	}
	msg := r.Findings[0].Message
	for _, want := range []string{
		"instance Standard_D4s_v5 sustains its 6,400 IOPS and 145 MB/s uncached",
		"the throughput requirement, 200 MB/s of 256 KiB sequential I/O (762.94 operations/s: 763 IOPS and 200 MB/s), " +
			"fits only within its burst limit of 20,000 IOPS and 1,200 MB/s",
		"the sizes of the standardDSv5Family family that sustain it, smallest first: Standard_D8s_v5 (12,800 IOPS, 290 MB/s uncached), " +
			"Standard_D16s_v5 (25,600 IOPS, 600 MB/s uncached)",
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("FIT-N1 message lacks %q:\n%s", want, msg)
		}
	}
	var sustains, burstOnly []string
	for _, s := range r.NodeSizes {
		switch {
		case s.Sustains:
			sustains = append(sustains, s.Limits.Name)
		case s.BurstOnly:
			burstOnly = append(burstOnly, s.Limits.Name)
		}
	}
	if got := strings.Join(sustains, " "); got != "Standard_D8s_v5 Standard_D16s_v5 Standard_D32s_v5 Standard_D48s_v5 Standard_D64s_v5 Standard_D96s_v5" {
		t.Errorf("sustaining sizes %s", got)
	}
	if got := strings.Join(burstOnly, " "); got != "Standard_D2s_v5 Standard_D4s_v5" {
		t.Errorf("burst-only sizes %s", got)
	}
	// Two such volumes per node need 400 MB/s: D16s_v5 (600) is then the smallest.
	r, err = Evaluate(Query{Spec: Spec{Type: PremiumLRS, SizeGiB: 1024}, Node: node(t, d4sV5), VolumesPerNode: 2,
		Access:      Access{QueueDepth: 16, Latency: 2500 * time.Microsecond},
		Requirement: Requirement{IOPS: 5000, BytesPerSec: 200_000_000}, Candidates: azureSizes(t, dsv5...)})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range r.NodeSizes {
		if s.Sustains {
			if s.Limits.Name != "Standard_D16s_v5" {
				t.Errorf("smallest size for two volumes: %s, want Standard_D16s_v5", s.Limits.Name)
			}
			break
		}
	}
	if got := rules(r.Findings); got != "FIT-N1/warning" || !strings.Contains(r.Findings[0].Message, "of the candidate sizes that sustain it") {
		t.Errorf("findings %q: %v", got, r.Findings)
	}
}

// TestHostCaching: a cached disk counts against the VM's cached limits as well as its uncached ones, no
// read hits assumed (§5.5). Standard_D4s_v3: uncached 6,400 IOPS / 96 MB/s, cached 8,000 / 64 MB/s.
func TestHostCaching(t *testing.T) {
	d4sV3 := node(t, catalog.InstanceType{Cloud: catalog.Azure, Name: "Standard_D4s_v3"})
	if d4sV3.CachedIOPS != 8000 || d4sV3.CachedBytesPerSec != 64_000_000 || d4sV3.CacheGiB != 100 || d4sV3.Series != "Dsv3" {
		t.Fatalf("D4s_v3 = %+v", d4sV3)
	}
	seq := Access{BlockSize: 256 * kib, Pattern: Sequential}
	tests := []struct {
		name    string
		q       Query
		wantBps float64
		detail  string
		caching Caching
		rules   string
	}{
		{"uncached", Query{Spec: Spec{Type: PremiumLRS, SizeGiB: 1024}, Node: d4sV3, Access: seq}, 96e6,
			"instance Standard_D4s_v3: 96 MB/s uncached", CachingNone, ""},
		{"ReadOnly", Query{Spec: Spec{Type: PremiumLRS, SizeGiB: 1024}, Node: d4sV3, Access: seq, Caching: CachingReadOnly}, 64e6,
			"instance Standard_D4s_v3: 64 MB/s cached (host caching ReadOnly)", CachingReadOnly, ""},
		// Dsv5 publishes no cached limits (§5.1): only the uncached 145 MB/s applies.
		{"ReadOnly without cached limits", Query{Spec: Spec{Type: PremiumLRS, SizeGiB: 1024}, Node: node(t, d4sV5), Access: seq,
			Caching: CachingReadOnly}, 145e6, "145 MB/s uncached", CachingReadOnly, ""},
		// AZC-5: 4,096 GiB and more cannot be cached: planned uncached, with a warning.
		{"4 TiB", Query{Spec: Spec{Type: PremiumLRS, SizeGiB: 4096}, Node: d4sV3, Access: seq, Caching: CachingReadOnly}, 96e6,
			"96 MB/s uncached", CachingNone, "AZC-5/warning"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Evaluate(tt.q)
			if err != nil {
				t.Fatal(err)
			}
			if !near(r.Effective.BytesPerSec, tt.wantBps) || !strings.Contains(r.Effective.Detail, tt.detail) ||
				r.Caching != tt.caching || rules(r.Findings) != tt.rules {
				t.Errorf("effective %v B/s (%s), caching %s, findings %q; want %v, %q, %s, %q", r.Effective.BytesPerSec,
					r.Effective.Detail, r.Caching, rules(r.Findings), tt.wantBps, tt.detail, tt.caching, tt.rules)
			}
			checkInvariants(t, r)
		})
	}
	// 100 MB/s on a cached P30 on D4s_v3: the cached 64 MB/s binds even while the uncached limits burst
	// (200 MB/s): FIT-N2.
	r, err := Evaluate(Query{Spec: Spec{Type: PremiumLRS, SizeGiB: 1024}, Node: d4sV3, Caching: CachingReadOnly,
		Access: Access{QueueDepth: 16, Latency: 2500 * time.Microsecond}, Requirement: Requirement{BytesPerSec: 100_000_000}})
	if err != nil {
		t.Fatal(err)
	}
	if got := rules(r.Findings); got != "FIT-N2/error" || !strings.Contains(r.Findings[0].Message, "its cached limits (8,000 IOPS, 64 MB/s)") {
		t.Errorf("findings %q: %v", got, r.Findings)
	}
}

func TestRequirementInvalid(t *testing.T) {
	tests := []struct {
		name string
		q    Query
		at   string
	}{
		{"IOPS block size", Query{Spec: Spec{Type: GP3, SizeGiB: 1}, Requirement: Requirement{IOPS: 1, IOPSShape: IOShape{BlockSize: -1}}},
			"Requirement.IOPSShape.BlockSize"},
		{"throughput pattern", Query{Spec: Spec{Type: GP3, SizeGiB: 1}, Requirement: Requirement{BytesPerSec: 1,
			ThroughputShape: IOShape{Pattern: "mixed"}}}, "Requirement.ThroughputShape.Pattern"},
		{"caching case", Query{Spec: Spec{Type: PremiumLRS, SizeGiB: 1}, Caching: "readonly"}, "Caching"},
		{"caching on EBS", Query{Spec: Spec{Type: GP3, SizeGiB: 1}, Caching: CachingReadOnly}, "Caching"},
		{"caching on PV2", Query{Spec: Spec{Type: PremiumV2LRS, SizeGiB: 10}, Caching: CachingReadWrite}, "Caching"},
	}
	for _, tt := range tests {
		_, err := Evaluate(tt.q)
		if _, at, ok := inputError(err); !ok || at != tt.at {
			t.Errorf("%s: error %v, want one input error at %q", tt.name, err, tt.at)
		}
	}
}

// TestSustainingSmallestFirst: sizes whose disk limits are equal (t3.large, t3.xlarge and t3.2xlarge share their
// EBS baseline) are listed smallest first, so the first sustaining size is the cheapest, not the first by name.
func TestSustainingSmallestFirst(t *testing.T) {
	var cands []NodeLimits
	for _, n := range []string{"t3.2xlarge", "t3.xlarge", "t3.large"} {
		it, err := catalog.Lookup(catalog.AWS, n)
		if err != nil {
			t.Fatal(err)
		}
		cands = append(cands, *node(t, it))
	}
	r, err := Evaluate(Query{Spec: Spec{Type: GP3, SizeGiB: 100}, Requirement: Requirement{IOPS: 1000}, Candidates: cands})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range r.NodeSizes {
		got = append(got, s.Limits.Name)
	}
	if strings.Join(got, ",") != "t3.large,t3.xlarge,t3.2xlarge" {
		t.Errorf("node sizes %v, want t3.large, t3.xlarge, t3.2xlarge", got)
	}
}

// TestAzureUncachedPrefersMicrosoft: where the catalog's azuredisk CSI figures and Microsoft's disagree (B2s: 22 MB/s
// against Microsoft's 15; B1ls: 320 IOPS against 160), kubefit_instance_type and its filters show Microsoft's, the
// figures the node-level disk check counts, not the higher, optimistic ones.
func TestAzureUncachedPrefersMicrosoft(t *testing.T) {
	for _, c := range []struct {
		name       string
		iops, mbps int64
	}{{"Standard_B2s", 1280, 15}, {"Standard_B1ls", 160, 10}, {"Standard_F64s_v2", 80000, 1100}} {
		it, err := catalog.Lookup(catalog.Azure, c.name)
		if err != nil {
			t.Fatal(err)
		}
		n := node(t, it)
		iops, mbps, ok := AzureUncached(it)
		if !ok || iops != c.iops || mbps != c.mbps || iops != n.BaseIOPS || mbps != n.BaseBytesPerSec/1_000_000 {
			t.Errorf("%s: %d IOPS, %d MB/s (%v); want %d, %d, the node check's %d, %d", c.name, iops, mbps, ok, c.iops, c.mbps, n.BaseIOPS, n.BaseBytesPerSec/1_000_000)
		}
	}
}
