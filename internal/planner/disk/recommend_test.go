package disk

import (
	"errors"
	"testing"
)

func TestRecommend(t *testing.T) {
	const mb = 1_000_000
	tests := []struct {
		name     string
		typ      Type
		d        Demand
		capacity int64
		want     Spec
		tier     string
		wantErr  bool
	}{
		// §7.8: 1,000 IOPS on Premium lands on P15 (256 GiB, 1,100 IOPS) by arithmetic; 200 IOPS on P6.
		{"1,000 IOPS Premium", PremiumLRS, Demand{IOPS: 1000}, 1, Spec{Type: PremiumLRS, SizeGiB: 256}, "P15", false},
		{"200 IOPS Premium", PremiumLRS, Demand{IOPS: 200}, 1, Spec{Type: PremiumLRS, SizeGiB: 64}, "P6", false},
		// Capacity 300 GiB with 1,000 IOPS: P20 (the first tier holding 300 GiB).
		{"capacity binds", PremiumZRS, Demand{IOPS: 1000}, 300, Spec{Type: PremiumZRS, SizeGiB: 512}, "P20", false},
		// 130 MB/s needs P20 (P15 gives 125).
		{"throughput binds", PremiumLRS, Demand{IOPS: 100, BytesPerSec: 130 * mb}, 1, Spec{Type: PremiumLRS, SizeGiB: 512}, "P20", false},
		// 25,000 IOPS: no baseline (P80 20,000) → P30 with on-demand bursting (30,000).
		{"on-demand bursting", PremiumLRS, Demand{IOPS: 25000}, 1, Spec{Type: PremiumLRS, SizeGiB: 1024, Bursting: true}, "P30", false},
		{"Premium impossible", PremiumLRS, Demand{IOPS: 31000}, 1, Spec{}, "", true},
		{"Standard SSD 2,000 IOPS → E60", StandardSSDLRS, Demand{IOPS: 2000}, 1, Spec{Type: StandardSSDLRS, SizeGiB: 8192}, "E60", false},
		{"Premium too large", PremiumLRS, Demand{IOPS: 1}, 40000, Spec{}, "", true},
		// §8.2 example: gp3 6,000 IOPS / 500 MiB/s valid from 12 GiB (6,000 / 500).
		{"gp3 6,000/500", GP3, Demand{IOPS: 6000, BytesPerSec: 500 * mib}, 1, Spec{Type: GP3, SizeGiB: 12, IOPS: 6000, Throughput: 500}, "", false},
		// §2.3: 2,000 MiB/s needs 8,000 IOPS and therefore 16 GiB.
		{"gp3 2,000 MiB/s", GP3, Demand{BytesPerSec: 2000 * mib}, 1, Spec{Type: GP3, SizeGiB: 16, IOPS: 8000, Throughput: 2000}, "", false},
		// §2.3: 80,000 IOPS needs 160 GiB.
		{"gp3 80,000", GP3, Demand{IOPS: 80000}, 1, Spec{Type: GP3, SizeGiB: 160, IOPS: 80000, Throughput: 125}, "", false},
		{"gp3 defaults", GP3, Demand{IOPS: 100}, 50, Spec{Type: GP3, SizeGiB: 50, IOPS: 3000, Throughput: 125}, "", false},
		{"gp3 80,001", GP3, Demand{IOPS: 80001}, 1, Spec{}, "", true},
		// §2.5: 256,000 IOPS needs 256 GiB; 4,000 MiB/s needs ⌈4,000 / 0.256⌉ = 15,625 IOPS.
		{"io2 256,000", IO2, Demand{IOPS: 256000}, 1, Spec{Type: IO2, SizeGiB: 256, IOPS: 256000}, "", false},
		{"io2 4,000 MiB/s", IO2, Demand{BytesPerSec: 4000 * mib}, 1, Spec{Type: IO2, SizeGiB: 16, IOPS: 15625}, "", false},
		// §2.4: 64,000 IOPS needs 1,280 GiB; 750 MiB/s needs 64 × 750 = 48,000 IOPS (960 GiB).
		{"io1 64,000", IO1, Demand{IOPS: 64000}, 1, Spec{Type: IO1, SizeGiB: 1280, IOPS: 64000}, "", false},
		{"io1 750 MiB/s", IO1, Demand{IOPS: 100, BytesPerSec: 750 * mib}, 1, Spec{Type: IO1, SizeGiB: 960, IOPS: 48000}, "", false},
		// gp2 sustained: 3,000 IOPS needs 1,000 GiB; 200 MiB/s needs 334 GiB.
		{"gp2 3,000", GP2, Demand{IOPS: 3000}, 1, Spec{Type: GP2, SizeGiB: 1000}, "", false},
		{"gp2 200 MiB/s", GP2, Demand{IOPS: 100, BytesPerSec: 200 * mib}, 1, Spec{Type: GP2, SizeGiB: 334}, "", false},
		// st1: 500 MiB/s baseline from 12.5 TiB = 12,800 GiB (§2.6).
		{"st1 500 MiB/s", ST1, Demand{IOPS: 500, BytesPerSec: 500 * mib}, 1, Spec{Type: ST1, SizeGiB: 12800}, "", false},
		{"sc1 minimum", SC1, Demand{IOPS: 1, BytesPerSec: mib}, 1, Spec{Type: SC1, SizeGiB: 125}, "", false},
		// §8.3 example: PV2 8,000 IOPS / 500 MB/s needs 16 GiB.
		{"PV2 8,000/500", PremiumV2LRS, Demand{IOPS: 8000, BytesPerSec: 500 * mb}, 1, Spec{Type: PremiumV2LRS, SizeGiB: 16, IOPS: 8000, Throughput: 500}, "", false},
		// PV2 3,000 IOPS / 200 MB/s: more than 125 MB/s needs more than 6 GiB → 7 GiB.
		{"PV2 200 MB/s", PremiumV2LRS, Demand{IOPS: 100, BytesPerSec: 200 * mb}, 1, Spec{Type: PremiumV2LRS, SizeGiB: 7, IOPS: 3000, Throughput: 200}, "", false},
		// Ultra 1,000 MB/s → 4,000 IOPS, 4 GiB.
		{"Ultra 1,000 MB/s", UltraSSDLRS, Demand{BytesPerSec: 1000 * mb}, 1, Spec{Type: UltraSSDLRS, SizeGiB: 4, IOPS: 4000, Throughput: 1000}, "", false},
		// pd-ssd 6,000 IOPS at 30 per GiB → 200 GiB; pd-balanced 28 MiB/s at 0.28 → 100 GiB.
		{"pd-ssd 6,000", PDSSD, Demand{IOPS: 6000}, 1, Spec{Type: PDSSD, SizeGiB: 200}, "", false},
		{"pd-balanced 28 MiB/s", PDBalanced, Demand{BytesPerSec: 28 * mib}, 1, Spec{Type: PDBalanced, SizeGiB: 100}, "", false},
		{"hyperdisk 6,000", HyperdiskBalanced, Demand{IOPS: 6000}, 1, Spec{Type: HyperdiskBalanced, SizeGiB: 12, IOPS: 6000, Throughput: 140}, "", false},
		{"pd-extreme", PDExtreme, Demand{IOPS: 10000}, 500, Spec{Type: PDExtreme, SizeGiB: 500, IOPS: 10000}, "", false},
		{"standard 41 IOPS", Standard, Demand{IOPS: 41}, 1, Spec{}, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec, err := Recommend(tt.typ, tt.d, tt.capacity)
			if tt.wantErr {
				var f *Finding
				if !errors.As(err, &f) || f.Rule != "FIT-V2" {
					t.Fatalf("Recommend = %+v, %v; want a FIT-V2 error", rec.Spec, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if rec.Spec != tt.want || rec.Tier != tt.tier || rec.Reason == "" {
				t.Errorf("Recommend = %+v %q (%s), want %+v %q", rec.Spec, rec.Tier, rec.Reason, tt.want, tt.tier)
			}
		})
	}
}

// TestRecommendSmallest checks, over a grid of demands, that every recommendation is valid and meets
// the demand, and that the next smaller size or tier of the same type does not (property check against
// a slow search).
func TestRecommendSmallest(t *testing.T) {
	demands := []Demand{{IOPS: 1}, {IOPS: 150}, {IOPS: 999}, {IOPS: 1000, BytesPerSec: 16 * mib}, {IOPS: 3001},
		{IOPS: 7777, BytesPerSec: 300 * mib}, {IOPS: 20000, BytesPerSec: 900_000_000}, {BytesPerSec: 450 * mib}}
	for _, typ := range Types {
		for _, d := range demands {
			for _, capacity := range []int64{1, 130, 2000} {
				rec, err := Recommend(typ, d, capacity)
				if err != nil {
					continue
				}
				v := rec.Volume
				iops, bps := v.BaseIOPS, v.BaseBytesPerSec
				if rec.Spec.Bursting {
					iops, bps = v.BurstIOPS, v.BurstBytesPerSec
				}
				if iops < d.IOPS || bps < d.BytesPerSec || rec.Spec.SizeGiB < capacity {
					t.Errorf("%s %+v cap %d: %+v does not meet it", typ, d, capacity, rec.Spec)
				}
				if rec.Spec.Bursting || rec.Spec.SizeGiB <= capacity {
					continue
				}
				smaller := rec.Spec
				if rec.Tier != "" {
					smaller.SizeGiB = tierFloor(tiersOf(typ), tierIndex(typ, rec.Tier)) - 1
				} else {
					smaller.SizeGiB--
				}
				if smaller.SizeGiB < capacity {
					continue
				}
				if sv, err := NewVolume(smaller); err == nil && sv.BaseIOPS >= d.IOPS && sv.BaseBytesPerSec >= d.BytesPerSec {
					t.Errorf("%s %+v cap %d: %+v recommended, but %+v also meets it", typ, d, capacity, rec.Spec, smaller)
				}
			}
		}
	}
}

func tierIndex(t Type, name string) int {
	for i, row := range tiersOf(t) {
		if row.name == name {
			return i
		}
	}
	return -1
}

// TestScaledRulesCoverTypes: every type without fixed tiers has a sizing rule, and no Azure fixed-tier
// type has one.
func TestScaledRulesCoverTypes(t *testing.T) {
	for _, typ := range Types {
		if _, ok := scaledRules[typ]; ok == isAzureFixed(typ) {
			t.Errorf("%s: sizing rule present %t, fixed tiers %t", typ, ok, isAzureFixed(typ))
		}
	}
}
