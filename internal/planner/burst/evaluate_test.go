package burst

import (
	"math"
	"strings"
	"testing"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
)

func mustLookup(t testing.TB, cloud catalog.Cloud, name string) Budget {
	t.Helper()
	b, ok := Lookup(cloud, name)
	if !ok {
		t.Fatalf("Lookup(%s, %s) not found", cloud, name)
	}
	return b
}

// TestEvaluateWorkedExample reproduces burst.md §6: 2 × t3a.medium, 20 pods spread evenly (10 per node,
// ceil(20 / 2) = 10, §4.2), no other load. Hand computation (E = 24 credits/h, C = 576, s = 400m):
//
//	x = 5 % of a vCPU = 50m: U = 10 × 50m = 500m; spend = 60 × 0.5 = 30 credits/h; net = 24 − 30 = −6/h;
//	    full bucket: T = 576 / 6 = 96 h; launch (T3a: 0 credits): T = 0 → throttled at once in standard mode;
//	    delivered after exhaustion min(500, 400) = 400m = 80 % of the demand; each pod gets 50 × 0.8 = 40m;
//	    unlimited: R = 0.1 vCPU × $0.05 = $0.005/h × 730 = $3.65 per node-month.
//	x = 6 % = 60m: U = 600m; spend 36/h; net −12/h; full: 576 / 12 = 48 h; launch: at once;
//	    delivered 400m of 600m = 66.67 %; each pod 60 × 400 / 600 = 40m;
//	    unlimited: R = 0.2 × $0.05 = $0.01/h × 730 = $7.30 per node-month.
//	Sustainable pods (h = 1, U_sys = 0): floor(400 / 50) = 8, floor(400 / 60) = 6 (§6).
func TestEvaluateWorkedExample(t *testing.T) {
	t3a := mustLookup(t, catalog.AWS, "t3a.medium")
	pods := func(x int64) Load { return Load{PodsPerNode: 10, PodMillicores: x} }
	tests := []struct {
		name         string
		in           Input
		wantU        int64
		wantNet      int64 // milli-credits per hour
		wantHours    float64
		wantDeliv    int64
		wantPct      float64
		wantPod      int64
		wantCostH    float64
		wantCostM    float64
		wantMaxPods  int64
		wantVerdict  Verdict
		wantStartMC  int64
		wantLaunchMC int64
	}{
		{"5% full standard", Input{Load: pods(50), Mode: Standard, Start: FullBalance(), MinHours: 24},
			500, -6_000, 96, 400, 80, 40, 0, 0, 8, VerdictAboveBaseline, 576_000, 0},
		{"6% full standard", Input{Load: pods(60), Mode: Standard, Start: FullBalance(), MinHours: 24},
			600, -12_000, 48, 400, 200.0 / 3, 40, 0, 0, 6, VerdictAboveBaseline, 576_000, 0},
		{"5% launch standard", Input{Load: pods(50), Mode: Standard, MinHours: 24},
			500, -6_000, 0, 400, 80, 40, 0, 0, 8, VerdictThrottled, 0, 0},
		{"6% launch standard", Input{Load: pods(60), Mode: Standard, MinHours: 24},
			600, -12_000, 0, 400, 200.0 / 3, 40, 0, 0, 6, VerdictThrottled, 0, 0},
		{"5% launch default mode (unlimited)", Input{Load: pods(50), MinHours: 24},
			500, -6_000, 0, 500, 100, 50, 0.005, 3.65, 8, VerdictSurplusCharged, 0, 0},
		{"6% launch unlimited", Input{Load: pods(60), Mode: Unlimited, MinHours: 24},
			600, -12_000, 0, 600, 100, 60, 0.01, 7.30, 6, VerdictSurplusCharged, 0, 0},
		// Unlimited spends the accrued balance first: from full, 96 h before surplus starts.
		{"5% full unlimited", Input{Load: pods(50), Mode: Unlimited, Start: FullBalance()},
			500, -6_000, 96, 500, 100, 50, 0.005, 3.65, 8, VerdictSurplusCharged, 576_000, 0},
		// §6 "With U_sys = 0.1 vCPU": 20 pods at 6 %: U = 0.7, D = 18, T_full = 576 / 18 = 32 h,
		// 400 / 700 = 57.14 % served; pods: floor((400 − 100) / 60) = 5; each pod 60 × 400 / 700 = 34.28 → 34m.
		{"6% + 100m system full", Input{Load: Load{SystemMillicores: 100, PodsPerNode: 10, PodMillicores: 60},
			Mode: Standard, Start: FullBalance(), MinHours: 24},
			700, -18_000, 32, 400, 400.0 / 7, 34, 0, 0, 5, VerdictAboveBaseline, 576_000, 0},
		// §6 "What the scheduler would accept": 15 pods at 6 %: U = 0.9, D = 30, T_full = 19.2 h < 24 → fails.
		{"15 pods 6% full", Input{Load: Load{PodsPerNode: 15, PodMillicores: 60}, Mode: Standard, Start: FullBalance(), MinHours: 24},
			900, -30_000, 19.2, 400, 400.0 / 9, 26, 0, 0, 6, VerdictThrottled, 576_000, 0},
		// 15 pods at 5 %: U = 0.75, D = 21, T_full = 576 / 21 = 27.43 h ≥ 24 → warning only.
		{"15 pods 5% full", Input{Load: Load{PodsPerNode: 15, PodMillicores: 50}, Mode: Standard, Start: FullBalance(), MinHours: 24},
			750, -21_000, 576.0 / 21, 400, 400.0 / 7.5, 26, 0, 0, 8, VerdictAboveBaseline, 576_000, 0},
		// §6 verdict: 3 nodes at 5 % → 7 pods, 350m per node: within baseline; net 24 − 21 = +3/h.
		{"7 pods 5%", Input{Load: Load{PodsPerNode: 7, PodMillicores: 50}, Mode: Standard, MinHours: 24},
			350, 3_000, 0, 350, 100, 50, 0, 0, 8, VerdictWithinBaseline, 0, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Evaluate(t3a, tc.in)
			if err != nil {
				t.Fatal(err)
			}
			if r.DemandMillicores != tc.wantU || r.NetMilliCreditsPerHour != tc.wantNet {
				t.Errorf("U = %dm, net = %d; want %dm, %d", r.DemandMillicores, r.NetMilliCreditsPerHour, tc.wantU, tc.wantNet)
			}
			if abs(r.HoursToExhaustion-tc.wantHours) > 1e-9 || r.Exhausts != (tc.wantNet < 0) {
				t.Errorf("hours = %v (exhausts %v), want %v", r.HoursToExhaustion, r.Exhausts, tc.wantHours)
			}
			if r.DeliveredMillicoresAfterExhaustion != tc.wantDeliv || abs(r.DeliveredPercent-tc.wantPct) > 1e-9 ||
				r.DeliveredPodMillicores != tc.wantPod {
				t.Errorf("delivered %dm (%v%%, pod %dm), want %dm (%v%%, pod %dm)", r.DeliveredMillicoresAfterExhaustion,
					r.DeliveredPercent, r.DeliveredPodMillicores, tc.wantDeliv, tc.wantPct, tc.wantPod)
			}
			if abs(r.SurplusCostPerHour-tc.wantCostH) > 1e-12 || abs(r.SurplusCostPerMonth-tc.wantCostM) > 1e-9 {
				t.Errorf("cost $%v/h $%v/month, want $%v, $%v", r.SurplusCostPerHour, r.SurplusCostPerMonth, tc.wantCostH, tc.wantCostM)
			}
			if !r.HasPodCount || r.MaxSustainablePods != tc.wantMaxPods || r.MaxSustainableMillicores != 400 {
				t.Errorf("max pods %d (%v), max U %dm; want %d, 400m", r.MaxSustainablePods, r.HasPodCount,
					r.MaxSustainableMillicores, tc.wantMaxPods)
			}
			if r.Verdict != tc.wantVerdict || r.StartMilliCredits != tc.wantStartMC || r.LaunchMilliCredits != tc.wantLaunchMC {
				t.Errorf("verdict %s start %d launch %d; want %s %d %d", r.Verdict, r.StartMilliCredits, r.LaunchMilliCredits,
					tc.wantVerdict, tc.wantStartMC, tc.wantLaunchMC)
			}
			if !strings.Contains(r.Source, SourceAWS) || !strings.Contains(r.Source, FExhaustion) {
				t.Errorf("source %q lacks the data row or formula", r.Source)
			}
			if r.Verdict.Fails() || r.Verdict.Warns() {
				if !strings.Contains(r.Detail, "never sees the credit balance") {
					t.Errorf("detail lacks the Kubernetes note: %s", r.Detail)
				}
			}
		})
	}
}

// TestSafePodsTable reproduces the N_safe table of burst.md §6 with h = 1: N = floor((0.4 − U_sys) / x).
// U_sys 0: 8 (5 %), 6 (6 %); 0.1: floor(0.3 / 0.05) = 6, floor(0.3 / 0.06) = 5; 0.2: 4, floor(0.2 / 0.06) = 3.
func TestSafePodsTable(t *testing.T) {
	t3a := mustLookup(t, catalog.AWS, "t3a.medium")
	for _, tc := range []struct{ sys, x, want int64 }{
		{0, 50, 8}, {0, 60, 6}, {100, 50, 6}, {100, 60, 5}, {200, 50, 4}, {200, 60, 3}, {400, 50, 0}, {500, 50, 0},
	} {
		r, err := Evaluate(t3a, Input{Load: Load{SystemMillicores: tc.sys, PodMillicores: tc.x}, Mode: Standard})
		if err != nil || r.MaxSustainablePods != tc.want {
			t.Errorf("sys %dm x %dm: pods %d, %v; want %d", tc.sys, tc.x, r.MaxSustainablePods, err, tc.want)
		}
	}
}

// TestEvaluateOtherClouds covers Azure and GCP (burst.md §2.5, §2.6, §6 "Azure equivalent").
func TestEvaluateOtherClouds(t *testing.T) {
	tests := []struct {
		cloud       catalog.Cloud
		name        string
		in          Input
		wantHours   float64
		wantDeliv   int64
		wantVerdict Verdict
		wantMode    Mode
	}{
		// Standard_B2s, 10 pods at 5 % on a fresh VM: 60 initial credits / 6 per hour = 10 h < 24 → fails.
		{catalog.Azure, "Standard_B2s", Input{Load: Load{PodsPerNode: 10, PodMillicores: 50}, MinHours: 24}, 10, 400, VerdictThrottled, Standard},
		// Same with min_hours 10: T = 10 is not < 10 → warning only.
		{catalog.Azure, "Standard_B2s", Input{Load: Load{PodsPerNode: 10, PodMillicores: 50}, MinHours: 10}, 10, 400, VerdictAboveBaseline, Standard},
		// Standard_B2s_v2 sustains 800m: 10 × 50m = 500m is within baseline.
		{catalog.Azure, "Standard_B2s_v2", Input{Load: Load{PodsPerNode: 10, PodMillicores: 50}, MinHours: 24}, 0, 500, VerdictWithinBaseline, Standard},
		// Standard_B2s_v2 at 1000m from full: D = 60 − 48 = 12/h; 1152 / 12 = 96 h.
		{catalog.Azure, "Standard_B2s_v2", Input{Load: Load{SustainedMillicores: 1000}, Start: FullBalance(), MinHours: 24}, 96, 800, VerdictAboveBaseline, Standard},
		// e2-medium sustains 1000m; at 1200m it has no balance: held to 1000m at once.
		{catalog.GCP, "e2-medium", Input{Load: Load{SustainedMillicores: 1200}, MinHours: 24}, 0, 1000, VerdictThrottled, Standard},
		{catalog.GCP, "e2-medium", Input{Load: Load{SustainedMillicores: 940}, Start: FullBalance(), MinHours: 24}, 0, 940, VerdictWithinBaseline, Standard},
		// min_hours 0 accepts throttling at once: a warning, not a failure.
		{catalog.GCP, "e2-micro", Input{Load: Load{SustainedMillicores: 300}}, 0, 250, VerdictAboveBaseline, Standard},
		// t2.medium standard gets 60 launch credits: 10 × 50m → 60 / 6 = 10 h.
		{catalog.AWS, "t2.medium", Input{Load: Load{PodsPerNode: 10, PodMillicores: 50}, MinHours: 8}, 10, 400, VerdictAboveBaseline, Standard},
		// t2.medium unlimited has no launch credits: surplus at once.
		{catalog.AWS, "t2.medium", Input{Load: Load{PodsPerNode: 10, PodMillicores: 50}, Mode: Unlimited}, 0, 500, VerdictSurplusCharged, Unlimited},
	}
	for _, tc := range tests {
		t.Run(tc.name+"/"+string(tc.wantVerdict), func(t *testing.T) {
			r, err := Evaluate(mustLookup(t, tc.cloud, tc.name), tc.in)
			if err != nil {
				t.Fatal(err)
			}
			if abs(r.HoursToExhaustion-tc.wantHours) > 1e-9 || r.DeliveredMillicoresAfterExhaustion != tc.wantDeliv ||
				r.Verdict != tc.wantVerdict || r.Mode != tc.wantMode {
				t.Errorf("hours %v delivered %dm verdict %s mode %s; want %v %dm %s %s", r.HoursToExhaustion,
					r.DeliveredMillicoresAfterExhaustion, r.Verdict, r.Mode, tc.wantHours, tc.wantDeliv, tc.wantVerdict, tc.wantMode)
			}
			if tc.cloud == catalog.GCP && r.NetMilliCreditsPerHour != 0 {
				t.Errorf("GCP net credits %d, want 0 (no balance)", r.NetMilliCreditsPerHour)
			}
		})
	}
}

// TestMinHoursBoundary: 10 × 50m on t3a.medium from full empties after exactly 96 h (576 / 6).
func TestMinHoursBoundary(t *testing.T) {
	t3a := mustLookup(t, catalog.AWS, "t3a.medium")
	for _, tc := range []struct {
		minHours int64
		want     Verdict
	}{{0, VerdictAboveBaseline}, {95, VerdictAboveBaseline}, {96, VerdictAboveBaseline}, {97, VerdictThrottled}} {
		r, err := check(t3a, 500, FullBalance(), Standard, tc.minHours)
		if err != nil || r.Verdict != tc.want {
			t.Errorf("min_hours %d: %s, %v; want %s", tc.minHours, r.Verdict, err, tc.want)
		}
	}
}

// TestSurplusCostLimit: 10 × 50m unlimited costs exactly $3.65 per month (0.1 vCPU × $0.05 × 730); the
// limit compares exactly, so $3.65 passes and $3.64 fails. A user price of 0.04 gives 0.1 × 0.04 × 730 = $2.92.
func TestSurplusCostLimit(t *testing.T) {
	t3a := mustLookup(t, catalog.AWS, "t3a.medium")
	for _, tc := range []struct {
		price, limit float64
		want         Verdict
		wantMonth    float64
	}{
		{0, 3.65, VerdictSurplusCharged, 3.65},
		{0, 3.64, VerdictOverCostLimit, 3.65},
		{0, 0, VerdictOverCostLimit, 3.65},
		{0.04, 2.92, VerdictSurplusCharged, 2.92},
		{0.04, 2.91, VerdictOverCostLimit, 2.92},
		{0.1, 7.3, VerdictSurplusCharged, 7.3},
	} {
		r, err := Evaluate(t3a, Input{Load: Load{SustainedMillicores: 500}, Mode: Unlimited, SurplusPriceUSDPerVCPUHour: tc.price, HasSurplusPrice: tc.price != 0,
			MaxSurplusCostPerMonth: tc.limit, HasMaxSurplusCost: true})
		if err != nil || r.Verdict != tc.want || abs(r.SurplusCostPerMonth-tc.wantMonth) > 1e-9 {
			t.Errorf("price %v limit %v: %s $%v, %v; want %s $%v", tc.price, tc.limit, r.Verdict, r.SurplusCostPerMonth, err,
				tc.want, tc.wantMonth)
		}
		if tc.price != 0 && !strings.Contains(r.Source, "surplus price: user input") {
			t.Errorf("source %q does not name the user price", r.Source)
		}
		if tc.price == 0 && !strings.Contains(r.Source, SurplusPriceSourceT3A) {
			t.Errorf("source %q does not name the price source", r.Source)
		}
	}
}

func TestNotBurstable(t *testing.T) {
	b := NotBurstable(catalog.AWS, "m5.large", 2)
	for _, load := range []Load{{}, {SustainedMillicores: 5000}, {PodsPerNode: 100, PodMillicores: 500}} {
		r, err := Evaluate(b, Input{Load: load, Mode: Unlimited, Start: CreditsBalance(5), MinHours: 24})
		if err != nil || r.Verdict != VerdictNotBurstable || r.Burstable || r.Verdict.Fails() || r.Verdict.Warns() {
			t.Errorf("load %+v: %+v, %v", load, r, err)
		}
	}
	if _, err := Evaluate(b, Input{Load: Load{SustainedMillicores: -1}}); err == nil {
		t.Error("negative demand on a non-burstable type: no error")
	}
}

func TestEvaluateErrors(t *testing.T) {
	t3a := mustLookup(t, catalog.AWS, "t3a.medium")
	b2s := mustLookup(t, catalog.Azure, "Standard_B2s")
	e2 := mustLookup(t, catalog.GCP, "e2-medium")
	tests := []struct {
		name     string
		b        Budget
		in       Input
		wantPath string
		wantErr  string
	}{
		{"negative sustained", t3a, Input{Load: Load{SustainedMillicores: -1}}, "Load.SustainedMillicores", "the sustained CPU demand -1m is negative"},
		{"negative system", t3a, Input{Load: Load{SystemMillicores: -5}}, "Load.SystemMillicores", "the system CPU usage -5m is negative"},
		{"negative pods", t3a, Input{Load: Load{PodsPerNode: -1, PodMillicores: 5}}, "Load.PodsPerNode", "the pod count per node -1 is negative"},
		{"negative pod usage", t3a, Input{Load: Load{PodsPerNode: 1, PodMillicores: -50}}, "Load.PodMillicores", "the CPU usage per pod -50m is negative"},
		{"demand above vCPUs", t3a, Input{Load: Load{SustainedMillicores: 2001}}, "Load.SustainedMillicores",
			"sustained CPU demand 2001m exceeds the 2 vCPUs (2000m) of t3a.medium"},
		{"pod above vCPUs", t3a, Input{Load: Load{PodsPerNode: 1, PodMillicores: 2500}}, "Load.PodMillicores",
			"CPU usage per pod 2500m exceeds the 2 vCPUs (2000m) of t3a.medium"},
		{"pods above vCPUs", t3a, Input{Load: Load{SystemMillicores: 100, PodsPerNode: 40, PodMillicores: 50}}, "Load.PodMillicores",
			"40 pods × 50m per pod + 100m other load exceeds the 2 vCPUs (2000m)"},
		{"pods overflow", t3a, Input{Load: Load{PodsPerNode: math.MaxInt64, PodMillicores: 2}}, "Load.PodMillicores", "exceeds"},
		{"sum above vCPUs", t3a, Input{Load: Load{SustainedMillicores: 1500, SystemMillicores: 600}}, "Load.SystemMillicores",
			"system CPU usage 600m (plus 1500m other load) exceeds"},
		{"bad mode", t3a, Input{Mode: "burst"}, "Mode", `unknown credit mode "burst"`},
		{"azure unlimited", b2s, Input{Mode: Unlimited}, "Mode", "Azure B-series VMs have no unlimited mode"},
		{"gcp unlimited", e2, Input{Mode: Unlimited}, "Mode", "GCP shared-core machine types have no credits"},
		{"negative balance", t3a, Input{Start: CreditsBalance(-1)}, "Start", "the starting balance -0.001 credits is negative"},
		{"balance above cap", t3a, Input{Start: CreditsBalance(576_001)}, "Start",
			"starting balance 576.001 credits exceeds the 576 credits t3a.medium can hold"},
		{"azure above cap", b2s, Input{Start: CreditsBalance(577_000)}, "Start", "exceeds the 576 credits"},
		{"gcp balance", e2, Input{Start: CreditsBalance(1000)}, "Start", "have no credit balance"},
		{"bad balance kind", t3a, Input{Start: Balance{Kind: "half"}}, "Start", `unknown starting balance kind "half"`},
		{"negative min hours", t3a, Input{MinHours: -1}, "MinHours", "the minimum run time before throttling, -1 hours, is negative"},
		{"NaN price", t3a, Input{SurplusPriceUSDPerVCPUHour: math.NaN(), HasSurplusPrice: true}, "SurplusPriceUSDPerVCPUHour", "surplus price NaN"},
		{"negative price", t3a, Input{SurplusPriceUSDPerVCPUHour: -0.05, HasSurplusPrice: true}, "SurplusPriceUSDPerVCPUHour", "surplus price -0.05"},
		{"infinite cost", t3a, Input{HasMaxSurplusCost: true, MaxSurplusCostPerMonth: math.Inf(1)}, "MaxSurplusCostPerMonth", "maximum surplus cost +Inf"},
		{"bad budget", Budget{InstanceType: "x", Model: ModelCredits}, Input{}, "", `invalid budget for "x"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Evaluate(tc.b, tc.in)
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("err = %v, want one containing %q", err, tc.wantErr)
			}
			es := field.As(err)
			if tc.wantPath == "" {
				if len(es) != 0 {
					t.Errorf("err = %v is an input error at %s, want a plain error", err, es[0].Path)
				}
				return
			}
			if len(es) != 1 || es[0].Path.String() != tc.wantPath || es[0].Value == "" {
				t.Errorf("err = %v (%+v), want one input error at %s with its value", err, es, tc.wantPath)
			}
		})
	}
	// A T2 standard node can hold its full bucket plus its launch credits (§1.3): 576 + 60 on t2.medium.
	t2 := mustLookup(t, catalog.AWS, "t2.medium")
	if _, err := Evaluate(t2, Input{Start: CreditsBalance(636_000)}); err != nil {
		t.Errorf("t2.medium 636 credits: %v", err)
	}
	if _, err := Evaluate(t2, Input{Start: CreditsBalance(636_001)}); err == nil {
		t.Error("t2.medium 636.001 credits: no error")
	}
}

func TestPodDemand(t *testing.T) {
	for _, tc := range []struct {
		sys, pods, x, want int64
		wantErr            bool
	}{
		{0, 10, 50, 500, false},
		{100, 10, 60, 700, false},
		{0, 0, 0, 0, false},
		{-1, 0, 0, 0, true},
		{0, math.MaxInt64, 2, 0, true},
		{math.MaxInt64, 1, 1, 0, true},
	} {
		got, err := PodDemand(tc.sys, tc.pods, tc.x)
		if got != tc.want || (err != nil) != tc.wantErr {
			t.Errorf("PodDemand(%d, %d, %d) = %d, %v; want %d, error %v", tc.sys, tc.pods, tc.x, got, err, tc.want, tc.wantErr)
		}
	}
}

// TestRulesOfThumb checks burst.md §4.3 over every AWS row: demand 1.25 × s empties a full bucket in 96 h,
// 1.5 × s in 48 h, 2 × s in 24 h (T = C / D = 24 E / (60 (U − s)) = 24 s / (U − s)).
func TestRulesOfThumb(t *testing.T) {
	for _, b := range budgets {
		if b.Cloud != catalog.AWS {
			continue
		}
		s := b.SustainedMillicores()
		for _, tc := range []struct {
			num, den int64
			hours    float64
		}{{5, 4, 96}, {3, 2, 48}, {2, 1, 24}} {
			u := s * tc.num / tc.den
			if u*tc.den != s*tc.num || u > 1000*int64(b.VCPU) {
				continue // not an integer demand, or more than the vCPUs
			}
			r, err := check(b, u, FullBalance(), Standard, 0)
			if err != nil || abs(r.HoursToExhaustion-tc.hours) > 1e-9 {
				t.Errorf("%s at %dm: %v h, %v; want %v", b.InstanceType, u, r.HoursToExhaustion, err, tc.hours)
			}
		}
	}
}

// simulateMinutes is the slow reference: step the balance minute by minute (burst.md §4.9, at 1-minute
// resolution) and return the minutes until it is empty, or -1 if it is not empty within limit minutes.
// Balances are kept in 1/60 milli-credits so every step is an integer: a minute earns capacityRate and
// spends 60 × U of those units.
func simulateMinutes(b Budget, u, start int64, limit int) int {
	bal := start * 60
	for m := 0; m < limit; m++ {
		if bal <= 0 && 60*u > b.capacityRate() {
			return m
		}
		bal += b.capacityRate() - 60*u
		if b.HasCredits() && bal > b.MaxMilliCredits*60 {
			bal = b.MaxMilliCredits * 60
		}
	}
	return -1
}

// TestAgainstSimulation compares T = B / D with the minute-by-minute reference for every row and a
// spread of demands and starting balances.
func TestAgainstSimulation(t *testing.T) {
	for _, b := range budgets {
		s := b.SustainedMillicores()
		for _, u := range []int64{0, s / 2, s, s + 1, s + 7, s * 5 / 4, s * 3 / 2, 1000 * int64(b.VCPU)} {
			if u > 1000*int64(b.VCPU) {
				continue
			}
			for _, start := range []Balance{LaunchBalance(), FullBalance(), CreditsBalance(b.MaxMilliCredits / 3)} {
				if !b.HasCredits() && start.Kind == BalanceCredits {
					continue
				}
				r, err := check(b, u, start, Standard, 0)
				if err != nil {
					t.Fatalf("%s %dm: %v", b.InstanceType, u, err)
				}
				got := simulateMinutes(b, u, r.StartMilliCredits, 300*60)
				if !r.Exhausts {
					if got != -1 {
						t.Errorf("%s %dm %s: never exhausts, simulation empties at minute %d", b.InstanceType, u, start, got)
					}
					continue
				}
				want := r.HoursToExhaustion * 60
				if got == -1 && want < 300*60-1 || got != -1 && (float64(got) < want-1e-6 || float64(got) > want+1) {
					t.Errorf("%s %dm %s: T = %v min, simulation %d", b.InstanceType, u, start, want, got)
				}
			}
		}
	}
}

// TestProperties: for every row, demand floor(s) never exhausts and floor(s) + 1 does; delivered CPU never
// exceeds the demand or the sustained capacity in standard mode; hours shrink as demand grows.
func TestProperties(t *testing.T) {
	for _, b := range budgets {
		s := b.SustainedMillicores()
		at, err1 := check(b, s, LaunchBalance(), Standard, 24)
		above, err2 := check(b, s+1, FullBalance(), Standard, 0)
		if err1 != nil || err2 != nil || at.Exhausts || at.Verdict != VerdictWithinBaseline || !above.Exhausts ||
			at.MaxSustainableMillicores != s {
			t.Errorf("%s: s = %dm: %+v %+v %v %v", b.InstanceType, s, at.Verdict, above.Verdict, err1, err2)
		}
		prev := math.Inf(1)
		for u := s + 1; u <= 1000*int64(b.VCPU); u += 1 + int64(b.VCPU)*37 {
			r, err := check(b, u, FullBalance(), Standard, 0)
			if err != nil {
				t.Fatal(err)
			}
			if r.DeliveredMillicoresAfterExhaustion > u || r.DeliveredMillicoresAfterExhaustion > s || r.DeliveredPercent > 100 {
				t.Errorf("%s %dm: delivered %dm (%v%%)", b.InstanceType, u, r.DeliveredMillicoresAfterExhaustion, r.DeliveredPercent)
			}
			if r.HoursToExhaustion > prev {
				t.Errorf("%s %dm: hours %v grew from %v", b.InstanceType, u, r.HoursToExhaustion, prev)
			}
			prev = r.HoursToExhaustion
		}
	}
}

// TestEvaluatePure: the same input gives the same result, and Evaluate does not change the tables.
func TestEvaluatePure(t *testing.T) {
	before := budgets
	b := mustLookup(t, catalog.AWS, "t3.large")
	in := Input{Load: Load{PodsPerNode: 12, PodMillicores: 55, SystemMillicores: 80}, Mode: Unlimited, Start: FullBalance()}
	r1, err1 := Evaluate(b, in)
	r2, err2 := Evaluate(b, in)
	if err1 != nil || err2 != nil || r1.Detail != r2.Detail || r1.Source != r2.Source || r1.SurplusCostPerMonth != r2.SurplusCostPerMonth {
		t.Errorf("results differ: %+v %+v", r1, r2)
	}
	if budgets != before {
		t.Error("Evaluate changed the embedded tables")
	}
}

func TestVerdicts(t *testing.T) {
	fails := map[Verdict]bool{VerdictThrottled: true, VerdictOverCostLimit: true}
	warns := map[Verdict]bool{VerdictAboveBaseline: true, VerdictSurplusCharged: true}
	seen := map[string]bool{}
	for _, v := range Verdicts {
		if v.Fails() != fails[v] || v.Warns() != warns[v] || seen[v.Summary()] {
			t.Errorf("%s: fails %v warns %v summary %q", v, v.Fails(), v.Warns(), v.Summary())
		}
		seen[v.Summary()] = true
	}
	for id := range Formulas {
		if !strings.HasPrefix(id, "burst.") || Formulas[id] == "" {
			t.Errorf("formula %q", id)
		}
	}
}

// check evaluates a whole-node sustained demand with the default surplus price and no cost limit.
func check(b Budget, demandMillicores int64, start Balance, mode Mode, minHours int64) (Result, error) {
	return Evaluate(b, Input{Load: Load{SustainedMillicores: demandMillicores}, Mode: mode, Start: start,
		MinHours: minHours})
}

// TestHoursText: one hour is "1 hour", not "1 hours".
func TestHoursText(t *testing.T) {
	if hoursText(1) != "1 hour" || hoursText(24) != "24 hours" || hoursText(0) != "0 hours" {
		t.Errorf("%q %q %q", hoursText(1), hoursText(24), hoursText(0))
	}
}
