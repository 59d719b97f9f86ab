package disk

import (
	"strings"
	"testing"
	"time"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
)

func TestNewVolume(t *testing.T) {
	const mb = 1_000_000
	tests := []struct {
		name      string
		spec      Spec
		tier      string
		billed    int64
		baseIOPS  int64
		baseBps   int64
		burstIOPS int64
		burstBps  int64
		burstDur  time.Duration
		unlimited bool
		wantRule  string // error rule when the spec is invalid
		wantField string
	}{
		// Azure Premium SSD, §4.2 table and §7.7 worked examples.
		{name: "P15 at 256 GiB", spec: Spec{Type: PremiumLRS, SizeGiB: 256}, tier: "P15", billed: 256,
			baseIOPS: 1100, baseBps: 125 * mb, burstIOPS: 3500, burstBps: 170 * mb, burstDur: 30 * time.Minute},
		{name: "P20 at 512 GiB", spec: Spec{Type: PremiumLRS, SizeGiB: 512}, tier: "P20", billed: 512,
			baseIOPS: 2300, baseBps: 150 * mb, burstIOPS: 3500, burstBps: 170 * mb, burstDur: 30 * time.Minute},
		{name: "P1 at 4 GiB", spec: Spec{Type: PremiumLRS, SizeGiB: 4}, tier: "P1", billed: 4,
			baseIOPS: 120, baseBps: 25 * mb, burstIOPS: 3500, burstBps: 170 * mb, burstDur: 30 * time.Minute},
		// §4.1: the first tier whose size is at least the disk's: 300 GiB > 256 (P15) → P20 (512 GiB).
		{name: "300 GiB rounds up to P20", spec: Spec{Type: PremiumLRS, SizeGiB: 300}, tier: "P20", billed: 512,
			baseIOPS: 2300, baseBps: 150 * mb, burstIOPS: 3500, burstBps: 170 * mb, burstDur: 30 * time.Minute},
		{name: "200 GiB is a P15", spec: Spec{Type: PremiumZRS, SizeGiB: 200}, tier: "P15", billed: 256,
			baseIOPS: 1100, baseBps: 125 * mb, burstIOPS: 3500, burstBps: 170 * mb, burstDur: 30 * time.Minute},
		// P30 without enableBursting: no burst; with it: 30,000 IOPS / 1,000 MB/s, no time limit (§4.2).
		{name: "P30 without bursting", spec: Spec{Type: PremiumLRS, SizeGiB: 1024}, tier: "P30", billed: 1024,
			baseIOPS: 5000, baseBps: 200 * mb, burstIOPS: 5000, burstBps: 200 * mb},
		{name: "P30 with bursting", spec: Spec{Type: PremiumLRS, SizeGiB: 600, Bursting: true}, tier: "P30", billed: 1024,
			baseIOPS: 5000, baseBps: 200 * mb, burstIOPS: 30000, burstBps: 1000 * mb, unlimited: true},
		// §4.7: performance plus on P30 gives 8,000 IOPS, 300 MB/s.
		{name: "P30 performance plus", spec: Spec{Type: PremiumLRS, SizeGiB: 1024, PerformancePlus: true}, tier: "P30",
			billed: 1024, baseIOPS: 8000, baseBps: 300 * mb, burstIOPS: 8000, burstBps: 300 * mb},
		{name: "bursting at 512 GiB", spec: Spec{Type: PremiumLRS, SizeGiB: 512, Bursting: true}, wantRule: "AZD-V8", wantField: "Bursting"},
		{name: "bursting on Standard SSD", spec: Spec{Type: StandardSSDLRS, SizeGiB: 1024, Bursting: true}, wantRule: "AZD-V8", wantField: "Bursting"},
		{name: "performance plus at 512 GiB", spec: Spec{Type: StandardLRS, SizeGiB: 512, PerformancePlus: true}, wantRule: "AZD-V9", wantField: "PerformancePlus"},
		{name: "Premium larger than P80", spec: Spec{Type: PremiumLRS, SizeGiB: 32768}, wantRule: "AZD-V7", wantField: "SizeGiB"},
		{name: "IOPS on Premium", spec: Spec{Type: PremiumLRS, SizeGiB: 256, IOPS: 5000}, wantRule: "AZD-V4", wantField: "IOPS"},
		// §4.4: Standard HDD's smallest tier is S4 (32 GiB).
		{name: "10 GiB Standard HDD is S4", spec: Spec{Type: StandardLRS, SizeGiB: 10}, tier: "S4", billed: 32,
			baseIOPS: 500, baseBps: 60 * mb, burstIOPS: 500, burstBps: 60 * mb},
		// §4.3: E30 credit-bursts to 1,000 IOPS / 250 MB/s.
		{name: "E30", spec: Spec{Type: StandardSSDZRS, SizeGiB: 1000}, tier: "E30", billed: 1024,
			baseIOPS: 500, baseBps: 60 * mb, burstIOPS: 1000, burstBps: 250 * mb, burstDur: 30 * time.Minute},
		// Premium SSD v2 (§4.5): included 3,000 IOPS / 125 MB/s; the §8.3 example 8,000 IOPS / 500 MB/s at 16 GiB.
		{name: "PV2 defaults", spec: Spec{Type: PremiumV2LRS, SizeGiB: 1}, billed: 1,
			baseIOPS: 3000, baseBps: 125 * mb, burstIOPS: 3000, burstBps: 125 * mb},
		{name: "PV2 8000/500 at 16 GiB", spec: Spec{Type: PremiumV2LRS, SizeGiB: 16, IOPS: 8000, Throughput: 500}, billed: 16,
			baseIOPS: 8000, baseBps: 500 * mb, burstIOPS: 8000, burstBps: 500 * mb},
		{name: "PV2 8000 at 15 GiB", spec: Spec{Type: PremiumV2LRS, SizeGiB: 15, IOPS: 8000}, wantRule: "AZD-V5", wantField: "IOPS"},
		{name: "PV2 126 MB/s at 6 GiB", spec: Spec{Type: PremiumV2LRS, SizeGiB: 6, Throughput: 126}, wantRule: "AZD-V5", wantField: "Throughput"},
		{name: "PV2 751 MB/s with 3,000 IOPS", spec: Spec{Type: PremiumV2LRS, SizeGiB: 100, Throughput: 751}, wantRule: "AZD-V5", wantField: "Throughput"},
		// Ultra (§4.6, §8.3): with neither value the driver fills IOPS = max(500, S), MB/s = max(100, ⌈IOPS/256⌉).
		{name: "Ultra driver defaults at 1,024 GiB", spec: Spec{Type: UltraSSDLRS, SizeGiB: 1024}, billed: 1024,
			baseIOPS: 1024, baseBps: 100 * mb, burstIOPS: 1024, burstBps: 100 * mb},
		{name: "Ultra 512 GiB 400,000", spec: Spec{Type: UltraSSDLRS, SizeGiB: 512, IOPS: 400000, Throughput: 10000}, billed: 512,
			baseIOPS: 400000, baseBps: 10000 * mb, burstIOPS: 400000, burstBps: 10000 * mb},
		{name: "Ultra 99 IOPS", spec: Spec{Type: UltraSSDLRS, SizeGiB: 4, IOPS: 99}, wantRule: "AZD-V6", wantField: "IOPS"},
		{name: "Ultra 3 GiB", spec: Spec{Type: UltraSSDLRS, SizeGiB: 3}, wantRule: "AZD-V6", wantField: "SizeGiB"},
		// Only one value set: the driver fills the other with a constant, 100 MB/s or 500 IOPS, not from the size
		// (azuredisk-csi-driver azure_managedDiskController.go:205-224 @ d983d613).
		{name: "Ultra 40,000 IOPS only", spec: Spec{Type: UltraSSDLRS, SizeGiB: 1024, IOPS: 40000}, billed: 1024,
			baseIOPS: 40000, baseBps: 100 * mb, burstIOPS: 40000, burstBps: 100 * mb},
		{name: "Ultra 300 IOPS only", spec: Spec{Type: UltraSSDLRS, SizeGiB: 4, IOPS: 300}, wantRule: "AZD-V6", wantField: "IOPS"},
		{name: "Ultra 100 MB/s only", spec: Spec{Type: UltraSSDLRS, SizeGiB: 2048, Throughput: 100}, billed: 2048,
			baseIOPS: 500, baseBps: 100 * mb, burstIOPS: 500, burstBps: 100 * mb},
		{name: "Ultra 500 MB/s only", spec: Spec{Type: UltraSSDLRS, SizeGiB: 2048, Throughput: 500}, wantRule: "AZD-V6", wantField: "Throughput"},
		// gp2 (§2.2 worked values): 100 GiB → 300 IOPS, burst 5,400,000 / 2,700 = 2,000 s.
		{name: "gp2 100 GiB", spec: Spec{Type: GP2, SizeGiB: 100}, billed: 100, baseIOPS: 300, baseBps: 128 * mib,
			burstIOPS: 3000, burstBps: 128 * mib, burstDur: 2000 * time.Second},
		// 750 GiB → 2,250 IOPS, burst 5,400,000 / 750 = 7,200 s; 250 MiB/s from 334 GiB.
		{name: "gp2 750 GiB", spec: Spec{Type: GP2, SizeGiB: 750}, billed: 750, baseIOPS: 2250, baseBps: 250 * mib,
			burstIOPS: 3000, burstBps: 250 * mib, burstDur: 7200 * time.Second},
		// 200 GiB: 600 IOPS; throughput 128 MiB/s baseline, 250 while credits last (170 < S < 334).
		{name: "gp2 200 GiB", spec: Spec{Type: GP2, SizeGiB: 200}, billed: 200, baseIOPS: 600, baseBps: 128 * mib,
			burstIOPS: 3000, burstBps: 250 * mib, burstDur: 2250 * time.Second},
		{name: "gp2 1,000 GiB does not burst", spec: Spec{Type: GP2, SizeGiB: 1000}, billed: 1000, baseIOPS: 3000,
			baseBps: 250 * mib, burstIOPS: 3000, burstBps: 250 * mib},
		{name: "gp2 10 GiB at the 100 IOPS floor", spec: Spec{Type: GP2, SizeGiB: 10}, billed: 10, baseIOPS: 100,
			baseBps: 128 * mib, burstIOPS: 3000, burstBps: 128 * mib, burstDur: 5400000 * time.Second / 2900},
		{name: "gp2 with IOPS", spec: Spec{Type: GP2, SizeGiB: 100, IOPS: 3000}, wantRule: "EBS-V3", wantField: "IOPS"},
		// gp3 (§2.3).
		{name: "gp3 defaults", spec: Spec{Type: GP3, SizeGiB: 20}, billed: 20, baseIOPS: 3000, baseBps: 125 * mib,
			burstIOPS: 3000, burstBps: 125 * mib},
		{name: "gp3 80,000 at 160 GiB", spec: Spec{Type: GP3, SizeGiB: 160, IOPS: 80000, Throughput: 2000}, billed: 160,
			baseIOPS: 80000, baseBps: 2000 * mib, burstIOPS: 80000, burstBps: 2000 * mib},
		// 16,000 IOPS on 20 GiB is 800 IOPS per GiB > 500.
		{name: "gp3 16,000 IOPS at 20 GiB", spec: Spec{Type: GP3, SizeGiB: 20, IOPS: 16000}, wantRule: "EBS-V4", wantField: "IOPS"},
		{name: "gp3 80,001 IOPS", spec: Spec{Type: GP3, SizeGiB: 1000, IOPS: 80001}, wantRule: "EBS-V4", wantField: "IOPS"},
		// 1,000 MiB/s > 0.25 × 3,000 = 750.
		{name: "gp3 1,000 MiB/s with 3,000 IOPS", spec: Spec{Type: GP3, SizeGiB: 100, Throughput: 1000}, wantRule: "EBS-V5", wantField: "Throughput"},
		{name: "gp3 64 TiB + 1", spec: Spec{Type: GP3, SizeGiB: 65537}, wantRule: "EBS-V8", wantField: "SizeGiB"},
		// io1 (§2.4): 48,000 IOPS → 750 MiB/s; 64,000 → 1,000 MiB/s; ≤ 32,000 → min(500, 0.25 × IOPS) MiB/s.
		{name: "io1 48,000", spec: Spec{Type: IO1, SizeGiB: 1000, IOPS: 48000}, billed: 1000, baseIOPS: 48000,
			baseBps: 750 * mib, burstIOPS: 48000, burstBps: 750 * mib},
		{name: "io1 64,000", spec: Spec{Type: IO1, SizeGiB: 1280, IOPS: 64000}, billed: 1280, baseIOPS: 64000,
			baseBps: 1000 * mib, burstIOPS: 64000, burstBps: 1000 * mib},
		{name: "io1 2,000", spec: Spec{Type: IO1, SizeGiB: 40, IOPS: 2000}, billed: 40, baseIOPS: 2000,
			baseBps: 500 * mib, burstIOPS: 2000, burstBps: 500 * mib},
		{name: "io1 64,000 at 1,279 GiB", spec: Spec{Type: IO1, SizeGiB: 1279, IOPS: 64000}, wantRule: "EBS-V6", wantField: "IOPS"},
		{name: "io1 without IOPS", spec: Spec{Type: IO1, SizeGiB: 100}, wantRule: "EBS-V6", wantField: "IOPS"},
		// io2 (§2.5): 15,625 IOPS × 0.256 = 4,000 MiB/s; 1,000 IOPS → 256 MiB/s.
		{name: "io2 15,625", spec: Spec{Type: IO2, SizeGiB: 100, IOPS: 15625}, billed: 100, baseIOPS: 15625,
			baseBps: 4000 * mib, burstIOPS: 15625, burstBps: 4000 * mib},
		{name: "io2 1,000", spec: Spec{Type: IO2, SizeGiB: 4, IOPS: 1000}, billed: 4, baseIOPS: 1000,
			baseBps: 256 * mib, burstIOPS: 1000, burstBps: 256 * mib},
		{name: "io2 256,000 at 255 GiB", spec: Spec{Type: IO2, SizeGiB: 255, IOPS: 256000}, wantRule: "EBS-V7", wantField: "IOPS"},
		{name: "io2 throughput", spec: Spec{Type: IO2, SizeGiB: 100, IOPS: 1000, Throughput: 100}, wantRule: "EBS-V3", wantField: "Throughput"},
		// st1 (§2.6): 1 TiB: 40 MiB/s base, 250 burst, bucket 1,048,576 MiB / 210 MiB/s = 4,993.22 s.
		{name: "st1 1 TiB", spec: Spec{Type: ST1, SizeGiB: 1024}, billed: 1024, baseIOPS: 500, baseBps: 40 * mib,
			burstIOPS: 500, burstBps: 250 * mib, burstDur: time.Duration(1048576) * time.Second / 210},
		// 12.5 TiB (12,800 GiB) reaches 500 MiB/s baseline; burst equals baseline, so no burst.
		{name: "st1 12.5 TiB", spec: Spec{Type: ST1, SizeGiB: 12800}, billed: 12800, baseIOPS: 500, baseBps: 500 * mib,
			burstIOPS: 500, burstBps: 500 * mib},
		// sc1 125 GiB: 12 × 125 / 1,024 = 1.46 MiB/s = 1,536,000 B/s; burst 80 × 125 / 1,024 MiB/s = 10,240,000 B/s;
		// bucket 125 GiB = 134,217,728,000 B / 8,704,000 B/s = 15,420 s remainder 2,048,000 B → 0.235294117 s.
		{name: "sc1 125 GiB", spec: Spec{Type: SC1, SizeGiB: 125}, billed: 125, baseIOPS: 250, baseBps: 1_536_000,
			burstIOPS: 250, burstBps: 10_240_000, burstDur: 15420*time.Second + 235294117*time.Nanosecond},
		{name: "st1 124 GiB", spec: Spec{Type: ST1, SizeGiB: 124}, wantRule: "EBS-V8", wantField: "SizeGiB"},
		// standard (§2.7): 40 IOPS / 40 MiB/s planned; 200 / 90 best effort without time limit.
		{name: "standard", spec: Spec{Type: Standard, SizeGiB: 100}, billed: 100, baseIOPS: 40, baseBps: 40 * mib,
			burstIOPS: 200, burstBps: 90 * mib, unlimited: true},
		{name: "standard 2 TiB", spec: Spec{Type: Standard, SizeGiB: 2048}, wantRule: "EBS-V8", wantField: "SizeGiB"},
		// GCP (§6): pd-balanced 100 GiB → 6 × 100 = 600 IOPS, 0.28 × 100 = 28 MiB/s.
		{name: "pd-balanced 100 GiB", spec: Spec{Type: PDBalanced, SizeGiB: 100}, billed: 100, baseIOPS: 600,
			baseBps: 28 * mib, burstIOPS: 600, burstBps: 28 * mib},
		// pd-ssd 100 GiB → 3,000 IOPS, 48 MiB/s; pd-ssd 10,000 GiB → 300,000 IOPS capped at 100,000 and 4,800 MiB/s
		// at the per-VM 1,200.
		{name: "pd-ssd 100 GiB", spec: Spec{Type: PDSSD, SizeGiB: 100}, billed: 100, baseIOPS: 3000,
			baseBps: 48 * mib, burstIOPS: 3000, burstBps: 48 * mib},
		{name: "pd-ssd 10,000 GiB", spec: Spec{Type: PDSSD, SizeGiB: 10000}, billed: 10000, baseIOPS: 100000,
			baseBps: 1200 * mib, burstIOPS: 100000, burstBps: 1200 * mib},
		// io1 at 1,000 IOPS: 256 KiB/s per IOPS = 250 MiB/s, not 500.
		{name: "io1 1,000", spec: Spec{Type: IO1, SizeGiB: 100, IOPS: 1000}, billed: 100, baseIOPS: 1000,
			baseBps: 250 * mib, burstIOPS: 1000, burstBps: 250 * mib},
		// pd-standard 100 GiB → 0.75 × 100 = 75 read IOPS, 12 MiB/s.
		{name: "pd-standard 100 GiB", spec: Spec{Type: PDStandard, SizeGiB: 100}, billed: 100, baseIOPS: 75,
			baseBps: 12 * mib, burstIOPS: 75, burstBps: 12 * mib},
		{name: "hyperdisk-balanced defaults", spec: Spec{Type: HyperdiskBalanced, SizeGiB: 10}, billed: 10,
			baseIOPS: 3000, baseBps: 140 * mib, burstIOPS: 3000, burstBps: 140 * mib},
		{name: "hyperdisk-balanced 6,000 at 11 GiB", spec: Spec{Type: HyperdiskBalanced, SizeGiB: 11, IOPS: 6000}, wantRule: "GPD-V4", wantField: "IOPS"},
		{name: "pd-extreme without IOPS", spec: Spec{Type: PDExtreme, SizeGiB: 500}, wantRule: "GPD-V3", wantField: "IOPS"},
		{name: "pd-ssd with IOPS", spec: Spec{Type: PDSSD, SizeGiB: 500, IOPS: 100}, wantRule: "GPD-V3", wantField: "IOPS"},
		{name: "bursting on gp3", spec: Spec{Type: GP3, SizeGiB: 600, Bursting: true}, wantRule: "AZD-V8", wantField: "Bursting"},
		{name: "zero size", spec: Spec{Type: GP3}, wantField: "SizeGiB"},
		{name: "unknown type", spec: Spec{Type: "gp4", SizeGiB: 1}, wantField: "Type"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := NewVolume(tt.spec)
			if tt.wantRule != "" || tt.wantField != "" {
				rule, at, ok := inputError(err)
				if !ok {
					t.Fatalf("NewVolume(%+v) error = %v, want one *field.Error", tt.spec, err)
				}
				if rule != tt.wantRule || at != tt.wantField {
					t.Fatalf("NewVolume(%+v) = rule %q path %q (%v), want rule %q path %q", tt.spec, rule, at,
						err, tt.wantRule, tt.wantField)
				}
				return
			}
			if err != nil {
				t.Fatalf("NewVolume(%+v): %v", tt.spec, err)
			}
			got := [...]int64{v.BilledSizeGiB, v.BaseIOPS, v.BaseBytesPerSec, v.BurstIOPS, v.BurstBytesPerSec}
			want := [...]int64{tt.billed, tt.baseIOPS, tt.baseBps, tt.burstIOPS, tt.burstBps}
			if got != want || v.Tier != tt.tier || v.BurstDuration != tt.burstDur || v.BurstUnlimited != tt.unlimited {
				t.Errorf("NewVolume(%+v) = tier %q billed/base/burst %v dur %v unlimited %t, want tier %q %v dur %v unlimited %t",
					tt.spec, v.Tier, got, v.BurstDuration, v.BurstUnlimited, tt.tier, want, tt.burstDur, tt.unlimited)
			}
			if v.Source == "" {
				t.Errorf("NewVolume(%+v): empty Source", tt.spec)
			}
		})
	}
}

// TestProvisionableSamples checks the PV2 and Ultra formulas against every kind=provisionable_max row of
// azure-disk-tiers.tsv (§4.5, §4.6).
func TestProvisionableSamples(t *testing.T) {
	for _, s := range provisionableSamples {
		var maxIOPS, maxMBps int64
		switch s.sku {
		case PremiumV2LRS:
			maxIOPS = PremiumV2MaxIOPS(s.sizeGiB)
			maxMBps = PremiumV2MaxMBps(s.sizeGiB, maxIOPS)
		case UltraSSDLRS:
			maxIOPS = min(ultraMaxIOPS, ultraIOPSPerGiB*s.sizeGiB)
			maxMBps = min(ultraMaxMBps, maxIOPS/4)
		default:
			t.Fatalf("sample %s: unexpected SKU %q", s.label, s.sku)
		}
		if maxIOPS != s.maxIOPS || maxMBps != s.maxMBps {
			t.Errorf("%s: formula gives %d IOPS / %d MB/s, table %d / %d (%s)", s.label, maxIOPS, maxMBps, s.maxIOPS,
				s.maxMBps, provisionableSampleSources[s.source])
		}
		// The maxima are themselves valid provisioned values.
		if _, err := NewVolume(Spec{Type: s.sku, SizeGiB: s.sizeGiB, IOPS: s.maxIOPS, Throughput: s.maxMBps}); err != nil {
			t.Errorf("%s: maxima rejected: %v", s.label, err)
		}
		if _, err := NewVolume(Spec{Type: s.sku, SizeGiB: s.sizeGiB, IOPS: s.maxIOPS + 1, Throughput: s.maxMBps}); err == nil {
			t.Errorf("%s: IOPS above the maximum accepted", s.label)
		}
	}
}

// TestTierTable checks the generated table's shape: every family ascends, P80/E80/S80 are 32,767 GiB,
// and credit tiers burst for 30 minutes (§4.2–§4.4).
func TestTierTable(t *testing.T) {
	for _, sku := range []Type{PremiumLRS, StandardSSDLRS, StandardLRS} {
		rows := tiersOf(sku)
		if len(rows) == 0 {
			t.Fatalf("%s: no tiers", sku)
		}
		for i := 1; i < len(rows); i++ {
			if rows[i].sizeGiB <= rows[i-1].sizeGiB || rows[i].iops < rows[i-1].iops || rows[i].mbps < rows[i-1].mbps {
				t.Errorf("%s: %s does not ascend from %s", sku, rows[i].name, rows[i-1].name)
			}
		}
		if last := rows[len(rows)-1]; last.sizeGiB != azureMaxFixedGiB {
			t.Errorf("%s: largest tier %s is %d GiB, want 32,767", sku, last.name, last.sizeGiB)
		}
		for _, r := range rows {
			if r.burst == burstCredit && r.burstMinutes != 30 {
				t.Errorf("%s: credit burst of %d minutes", r.name, r.burstMinutes)
			}
			if (r.burst == burstOnDemand) != (r.burstMinutes == -1) {
				t.Errorf("%s: on-demand burst with %d minutes", r.name, r.burstMinutes)
			}
		}
	}
	if n, size, ok := Tier(StandardLRS, 1); !ok || n != "S4" || size != 32 {
		t.Errorf("Tier(Standard_LRS, 1) = %s %d %t, want S4 32 true", n, size, ok)
	}
	if _, _, ok := Tier(GP3, 1); ok {
		t.Error("Tier(gp3) ok, want false")
	}
}

// TestVolumeMonotone: for size-scaled types, a larger volume is never slower (property check).
func TestVolumeMonotone(t *testing.T) {
	for _, typ := range []Type{GP2, ST1, SC1, PremiumLRS, StandardSSDLRS, StandardLRS, PDStandard, PDBalanced, PDSSD} {
		var prev Volume
		for size := int64(125); size <= 16384; size = size*5/4 + 1 {
			v, err := NewVolume(Spec{Type: typ, SizeGiB: size})
			if err != nil {
				t.Fatalf("%s %d GiB: %v", typ, size, err)
			}
			if v.BaseIOPS < prev.BaseIOPS || v.BaseBytesPerSec < prev.BaseBytesPerSec {
				t.Errorf("%s: %d GiB slower than the previous size", typ, size)
			}
			prev = v
		}
	}
}

func TestParseType(t *testing.T) {
	tests := []struct {
		cloud   catalog.Cloud
		in      string
		want    Type
		wantErr string
	}{
		{catalog.AWS, "gp3", GP3, ""},
		{catalog.Azure, "Premium_LRS", PremiumLRS, ""},
		{catalog.GCP, "hyperdisk-balanced", HyperdiskBalanced, ""},
		{catalog.Azure, "premium_lrs", "", `unknown azure disk type "premium_lrs": names are case-sensitive; did you mean "Premium_LRS"?`},
		{catalog.Azure, "gp3", "", `disk type "gp3" belongs to aws, not azure`},
		{catalog.AWS, "gp4", "", `unknown aws disk type "gp4"; valid types are "gp2", "gp3"`},
		{"oracle", "gp3", "", `unknown cloud "oracle"`},
	}
	for _, tt := range tests {
		got, err := ParseType(tt.cloud, tt.in)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("ParseType(%s, %q) error = %v, want containing %q", tt.cloud, tt.in, err, tt.wantErr)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("ParseType(%s, %q) = %q, %v, want %q", tt.cloud, tt.in, got, err, tt.want)
		}
	}
	for _, c := range catalog.Clouds {
		if len(TypesOf(c)) == 0 {
			t.Errorf("TypesOf(%s) is empty", c)
		}
	}
}

// inputError returns the rule id (the detail's prefix before ": ", if it looks like one) and the path of
// the one input error inside err.
func inputError(err error) (rule, at string, ok bool) {
	es := field.As(err)
	if len(es) != 1 {
		return "", "", false
	}
	if r, _, found := strings.Cut(es[0].Detail, ": "); found && !strings.Contains(r, " ") {
		rule = r
	}
	return rule, es[0].Path.String(), true
}
