package burst

import (
	"math"
	"testing"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
)

// FuzzEvaluate drives Evaluate with arbitrary loads, balances, modes, prices and limits over every table
// row: it must never panic, must return either a result or a *field.Error, and its results must keep the
// invariants of burst.md §4.
func FuzzEvaluate(f *testing.F) {
	f.Add(uint8(20), int64(0), int64(0), int64(10), int64(50), uint8(1), int64(0), int64(24), uint8(0), 0.0, 3.65, true)
	f.Add(uint8(20), int64(0), int64(100), int64(10), int64(60), uint8(0), int64(0), int64(24), uint8(1), 0.04, 0.0, false)
	f.Add(uint8(5), int64(2000), int64(0), int64(0), int64(0), uint8(2), int64(60_000), int64(0), uint8(2), -1.0, math.NaN(), true)
	f.Add(uint8(70), int64(1200), int64(-1), int64(math.MaxInt64), int64(3), uint8(3), int64(-5), int64(-1), uint8(3), math.Inf(1), 1e308, true)
	f.Add(uint8(6), int64(math.MaxInt64), int64(math.MaxInt64), int64(1), int64(1), uint8(2), int64(math.MaxInt64), int64(math.MaxInt64), uint8(1), 5e-324, 1e-300, true)
	f.Fuzz(func(t *testing.T, row uint8, sust, sys, pods, x int64, startKind uint8, credits, minHours int64, modeSel uint8,
		price, maxCost float64, hasMax bool) {
		b := budgets[int(row)%len(budgets)]
		in := Input{
			Load:                       Load{SustainedMillicores: sust, SystemMillicores: sys, PodsPerNode: pods, PodMillicores: x},
			Mode:                       []Mode{"", Standard, Unlimited, "other"}[modeSel%4],
			Start:                      []Balance{LaunchBalance(), FullBalance(), CreditsBalance(credits), {Kind: "x"}}[startKind%4],
			MinHours:                   minHours,
			SurplusPriceUSDPerVCPUHour: price,
			HasSurplusPrice:            price != 0,
			MaxSurplusCostPerMonth:     maxCost,
			HasMaxSurplusCost:          hasMax,
		}
		r, err := Evaluate(b, in)
		if err != nil {
			es := field.As(err)
			if len(es) != 1 || es[0].Path.IsRoot() || es[0].Detail == "" {
				t.Fatalf("error %v is not one input error with a path", err)
			}
			return
		}
		checkInvariants(t, b, in, r)
	})
}

func checkInvariants(t *testing.T, b Budget, in Input, r Result) {
	t.Helper()
	limit := 1000 * int64(b.VCPU)
	switch {
	case r.DemandMillicores < 0 || r.DemandMillicores > limit:
		t.Fatalf("demand %dm outside [0, %dm]", r.DemandMillicores, limit)
	case r.DeliveredMillicoresAfterExhaustion < 0 || r.DeliveredMillicoresAfterExhaustion > r.DemandMillicores:
		t.Fatalf("delivered %dm of %dm", r.DeliveredMillicoresAfterExhaustion, r.DemandMillicores)
	case r.DeliveredPercent < 0 || r.DeliveredPercent > 100 || math.IsNaN(r.DeliveredPercent):
		t.Fatalf("delivered %v%%", r.DeliveredPercent)
	case r.HoursToExhaustion < 0 || math.IsNaN(r.HoursToExhaustion) || math.IsInf(r.HoursToExhaustion, 0):
		t.Fatalf("hours %v", r.HoursToExhaustion)
	case r.SurplusCostPerMonth < 0 || math.IsNaN(r.SurplusCostPerMonth):
		t.Fatalf("cost %v", r.SurplusCostPerMonth)
	case r.Exhausts != (r.DemandMillicores > r.MaxSustainableMillicores):
		t.Fatalf("exhausts %v but U %dm vs max %dm", r.Exhausts, r.DemandMillicores, r.MaxSustainableMillicores)
	case r.Mode == Standard && r.SurplusCostPerHour != 0:
		t.Fatalf("standard mode billed %v", r.SurplusCostPerHour)
	case r.Mode == Unlimited && !b.UnlimitedSupported:
		t.Fatalf("unlimited mode on %s", b.InstanceType)
	case r.Verdict.Fails() && !r.Exhausts:
		t.Fatalf("verdict %s without exhaustion", r.Verdict)
	case r.Verdict == VerdictThrottled && float64(in.MinHours) <= r.HoursToExhaustion-1e-9:
		t.Fatalf("throttled at %v h with min_hours %d", r.HoursToExhaustion, in.MinHours)
	case r.HasPodCount && r.MaxSustainablePods < 0:
		t.Fatalf("pods %d", r.MaxSustainablePods)
	case r.Source == "" || r.Detail == "":
		t.Fatal("no source or detail")
	}
	if r.HasPodCount && r.MaxSustainablePods > 0 {
		// The pod count it reports must itself not exhaust the balance, and one more pod must.
		other := in.Load.SustainedMillicores + in.Load.SystemMillicores
		if u := other + r.MaxSustainablePods*in.Load.PodMillicores; u > r.MaxSustainableMillicores {
			t.Fatalf("%d pods give %dm > %dm", r.MaxSustainablePods, u, r.MaxSustainableMillicores)
		}
		if u := other + (r.MaxSustainablePods+1)*in.Load.PodMillicores; u <= r.MaxSustainableMillicores {
			t.Fatalf("%d pods give %dm ≤ %dm", r.MaxSustainablePods+1, u, r.MaxSustainableMillicores)
		}
	}
}

// FuzzEvaluateBudget feeds arbitrary hand-made budgets: Evaluate must reject or compute, never panic.
func FuzzEvaluateBudget(f *testing.F) {
	f.Add(uint8(1), 2, int64(24_000), int64(576_000), int64(0), int64(0), int64(500), int64(0))
	f.Add(uint8(2), 2, int64(0), int64(0), int64(0), int64(1000), int64(1200), int64(0))
	f.Add(uint8(1), 0, int64(0), int64(0), int64(0), int64(0), int64(0), int64(0))
	f.Add(uint8(1), math.MaxInt32, int64(math.MaxInt64), int64(-1), int64(math.MinInt64), int64(math.MaxInt64), int64(math.MaxInt64), int64(-1))
	f.Add(uint8(0), -3, int64(1), int64(1), int64(1), int64(1), int64(1), int64(1))
	f.Fuzz(func(t *testing.T, model uint8, vcpu int, earn, maxC, launch, shared, u, price int64) {
		b := Budget{Cloud: catalog.AWS, InstanceType: "fuzz.large", Model: []Model{ModelNone, ModelCredits, ModelSharedCore}[model%3],
			VCPU: vcpu, EarnMilliCreditsPerHour: earn, MaxMilliCredits: maxC, LaunchMilliCredits: launch,
			SharedCoreMillicores: shared, DefaultMode: Unlimited, UnlimitedSupported: true, SurplusPriceMicroUSD: price}
		for _, start := range []Balance{LaunchBalance(), FullBalance()} {
			r, err := Evaluate(b, Input{Load: Load{SustainedMillicores: u, PodMillicores: 1}, Start: start, MinHours: 24})
			if err == nil && b.Burstable() {
				checkInvariants(t, b, Input{Load: Load{SustainedMillicores: u, PodMillicores: 1}, MinHours: 24}, r)
			}
		}
	})
}

// FuzzParseBalance: ParseBalance never panics, and what it accepts prints back to itself.
func FuzzParseBalance(f *testing.F) {
	for _, s := range []string{"launch", "full", "0", "120", "57.6", "1958.4", "0.001", "-1", "1e3", "1.", ".5", "",
		"1000000000000", "1000000000001", "9223372036854775807", "00012.340"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		b, err := ParseBalance(s)
		if err != nil {
			return
		}
		if b.Kind == BalanceCredits && (b.MilliCredits < 0 || b.MilliCredits > maxBalanceMilliCredits) {
			t.Fatalf("ParseBalance(%q) = %d out of range", s, b.MilliCredits)
		}
		back, err := ParseBalance(b.String())
		if err != nil || back != b {
			t.Fatalf("round trip %q → %q → %+v, %v", s, b.String(), back, err)
		}
	})
}

func BenchmarkLookup(b *testing.B) {
	for b.Loop() {
		if _, ok := Lookup(catalog.GCP, "g1-small"); !ok { // the last row: the slowest exact match
			b.Fatal("not found")
		}
	}
}

func BenchmarkEvaluate(b *testing.B) {
	t3a, _ := Lookup(catalog.AWS, "t3a.medium")
	in := Input{Load: Load{PodsPerNode: 10, PodMillicores: 50}, Mode: Unlimited, Start: FullBalance(), MinHours: 24,
		HasMaxSurplusCost: true, MaxSurplusCostPerMonth: 5}
	for b.Loop() {
		if _, err := Evaluate(t3a, in); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEvaluateAllRows checks every table row once per iteration, as a node-pool sizing run over a
// whole catalog of burstable candidates would.
func BenchmarkEvaluateAllRows(b *testing.B) {
	for b.Loop() {
		for i := range budgets {
			if _, err := check(budgets[i], budgets[i].SustainedMillicores()+50, FullBalance(), Standard, 24); err != nil {
				b.Fatal(err)
			}
		}
	}
}
