package burst

import (
	"strings"
	"testing"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
)

func TestTableCounts(t *testing.T) {
	// burst.md "Data files": 28 AWS rows, 41 Azure rows, 5 GCP rows.
	for _, tc := range []struct {
		cloud catalog.Cloud
		want  int
	}{{catalog.AWS, 28}, {catalog.Azure, 41}, {catalog.GCP, 5}} {
		if got := len(Names(tc.cloud)); got != tc.want {
			t.Errorf("Names(%s): %d types, want %d", tc.cloud, got, tc.want)
		}
	}
	if got, want := strings.Join(Families(catalog.AWS), ","), "t2,t3,t3a,t4g"; got != want {
		t.Errorf("Families(aws) = %s, want %s", got, want)
	}
	if got, want := strings.Join(Families(catalog.Azure), ","), "B,Basv2,Bpsv2,Bsv2"; got != want {
		t.Errorf("Families(azure) = %s, want %s", got, want)
	}
	if got, want := strings.Join(Families(catalog.GCP), ","), "e2,f1,g1"; got != want {
		t.Errorf("Families(gcp) = %s, want %s", got, want)
	}
}

// TestLookupFigures checks rows against burst.md §3 and §6. Expected values are the spec's table cells;
// sustained = credits/h ÷ 60 (× 1000 for millicores), baseline % = credits/h ÷ (0.6 × vCPU).
func TestLookupFigures(t *testing.T) {
	tests := []struct {
		cloud                    catalog.Cloud
		name                     string
		family                   string
		vcpu                     int
		pct                      float64
		sustainedM               int64
		earnM, maxM, launchM     int64 // milli-credits
		mode                     Mode
		unlimited                bool
		priceMicroUSD            int64
		wantSource, wantPriceSrc string
	}{
		// §6: t3a.medium: 20 % per vCPU, 0.4 vCPU sustained, 24 credits/h, 576 max, 0 launch credits, unlimited.
		{catalog.AWS, "t3a.medium", "t3a", 2, 20, 400, 24_000, 576_000, 0, Unlimited, true, 50_000, SourceAWS, SurplusPriceSourceT3A},
		// §3.1: t2.2xlarge 17 % × 8 vCPU = 1.36 vCPU; 81.6 credits/h; 1958.4 max; 240 launch (30 × 8).
		{catalog.AWS, "t2.2xlarge", "t2", 8, 17, 1360, 81_600, 1_958_400, 240_000, Standard, true, 50_000, SourceAWS, SurplusPriceSourceT2},
		// §3.1: t2.xlarge 22.5 % × 4 = 0.9 vCPU, 54 credits/h, 1296, 120 launch.
		{catalog.AWS, "t2.xlarge", "t2", 4, 22.5, 900, 54_000, 1_296_000, 120_000, Standard, true, 50_000, SourceAWS, SurplusPriceSourceT2},
		// §3.1 + §2.4: t4g.2xlarge 40 % × 8 = 3.2 vCPU, 192/h, 4608, priced $0.04.
		{catalog.AWS, "t4g.2xlarge", "t4g", 8, 40, 3200, 192_000, 4_608_000, 0, Unlimited, true, 40_000, SourceAWS, SurplusPriceSourceT4G},
		{catalog.AWS, "t3.nano", "t3", 2, 5, 100, 6_000, 144_000, 0, Unlimited, true, 50_000, SourceAWS, SurplusPriceSourceT3},
		// §3.2 / §6: Standard_B2s 24/h, 576 cap, 60 initial credits, 400m; no unlimited mode.
		{catalog.Azure, "Standard_B2s", "B", 2, 20, 400, 24_000, 576_000, 60_000, Standard, false, 0, SourceAzureV1, ""},
		// §3.2: B8ms prints 17 % but earns 81/h: s = 81/60 = 1.35 vCPU, b = 81/4.8 = 16.875 %; cap 1944.
		{catalog.Azure, "Standard_B8ms", "B", 8, 16.875, 1350, 81_000, 1_944_000, 240_000, Standard, false, 0, SourceAzureV1, ""},
		// §3.2: B12ms 121/h: s = 2.0166… vCPU → 2016m floored; cap 2908 from the table.
		{catalog.Azure, "Standard_B12ms", "B", 12, 121.0 / 7.2, 2016, 121_000, 2_908_000, 360_000, Standard, false, 0, SourceAzureV1, ""},
		// §3.3: Bsv2: B2s_v2 40 % × 2 = 0.8 vCPU, 48/h, 1152, 60 initial.
		{catalog.Azure, "Standard_B2s_v2", "Bsv2", 2, 40, 800, 48_000, 1_152_000, 60_000, Standard, false, 0, SourceAzureV2, ""},
		{catalog.Azure, "Standard_B4als_v2", "Basv2", 4, 30, 1200, 72_000, 1_728_000, 120_000, Standard, false, 0, SourceAzureV2, ""},
		{catalog.Azure, "Standard_B16ps_v2", "Bpsv2", 16, 40, 6400, 384_000, 9_216_000, 480_000, Standard, false, 0, SourceAzureV2, ""},
		// §3.4: e2-medium sustains 1.0 of its 2 vCPUs (50 %); e2-micro 0.25 (12.5 %); f1-micro 0.2 of 1.
		{catalog.GCP, "e2-medium", "e2", 2, 50, 1000, 0, 0, 0, Standard, false, 0, SourceGCP, ""},
		{catalog.GCP, "e2-micro", "e2", 2, 12.5, 250, 0, 0, 0, Standard, false, 0, SourceGCP, ""},
		{catalog.GCP, "f1-micro", "f1", 1, 20, 200, 0, 0, 0, Standard, false, 0, SourceGCP, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b, ok := Lookup(tc.cloud, tc.name)
			if !ok {
				t.Fatalf("Lookup(%s, %s) not found", tc.cloud, tc.name)
			}
			if b.Family != tc.family || b.VCPU != tc.vcpu || b.DefaultMode != tc.mode || b.UnlimitedSupported != tc.unlimited {
				t.Errorf("family/vcpu/mode/unlimited = %s/%d/%s/%v, want %s/%d/%s/%v", b.Family, b.VCPU, b.DefaultMode,
					b.UnlimitedSupported, tc.family, tc.vcpu, tc.mode, tc.unlimited)
			}
			if got := b.BaselinePercentPerVCPU(); abs(got-tc.pct) > 1e-9 {
				t.Errorf("baseline %% = %v, want %v", got, tc.pct)
			}
			if got := b.SustainedMillicores(); got != tc.sustainedM {
				t.Errorf("sustained = %dm, want %dm", got, tc.sustainedM)
			}
			if b.EarnMilliCreditsPerHour != tc.earnM || b.MaxMilliCredits != tc.maxM || b.StartMilliCredits(tc.mode) != tc.launchM {
				t.Errorf("earn/max/launch = %d/%d/%d, want %d/%d/%d", b.EarnMilliCreditsPerHour, b.MaxMilliCredits,
					b.StartMilliCredits(tc.mode), tc.earnM, tc.maxM, tc.launchM)
			}
			if b.SurplusPriceMicroUSD != tc.priceMicroUSD || b.SurplusPriceSource != tc.wantPriceSrc || b.Source != tc.wantSource {
				t.Errorf("price %d (%q), source %q; want %d (%q), %q", b.SurplusPriceMicroUSD, b.SurplusPriceSource, b.Source,
					tc.priceMicroUSD, tc.wantPriceSrc, tc.wantSource)
			}
		})
	}
}

func TestLookupMisses(t *testing.T) {
	if b, ok := Lookup(catalog.Azure, "standard_b2s"); !ok || b.InstanceType != "Standard_B2s" {
		t.Errorf("case-insensitive lookup: got %q, %v", b.InstanceType, ok)
	}
	for _, tc := range []struct {
		cloud catalog.Cloud
		name  string
	}{{catalog.AWS, "m5.large"}, {catalog.AWS, "Standard_B2s"}, {catalog.GCP, "t3.micro"}, {catalog.Azure, ""}, {"", "t3.micro"}} {
		if _, ok := Lookup(tc.cloud, tc.name); ok {
			t.Errorf("Lookup(%q, %q) found a budget", tc.cloud, tc.name)
		}
	}
}

// TestTableRules checks the credit rules of burst.md over every row: C = 24 × E on AWS and Bv2 (§1.2),
// launch = 30 × v on T2 and Azure, 0 on T3/T3a/T4g (§1.3), modes (§2.3), and unlimited only on AWS.
func TestTableRules(t *testing.T) {
	for _, b := range budgets {
		v := int64(b.VCPU)
		switch {
		case b.Cloud == catalog.AWS:
			if b.MaxMilliCredits != 24*b.EarnMilliCreditsPerHour {
				t.Errorf("%s: C != 24 × E", b.InstanceType)
			}
			wantLaunch, wantMode := int64(0), Unlimited
			if b.Family == "t2" {
				wantLaunch, wantMode = 30_000*v, Standard
			}
			if b.LaunchMilliCredits != wantLaunch || b.DefaultMode != wantMode || !b.UnlimitedSupported || b.StartMilliCredits(Unlimited) != 0 {
				t.Errorf("%s: launch %d mode %s", b.InstanceType, b.LaunchMilliCredits, b.DefaultMode)
			}
		case b.Cloud == catalog.Azure:
			if b.LaunchMilliCredits != 30_000*v || b.DefaultMode != Standard || b.UnlimitedSupported || b.SurplusPriceMicroUSD != 0 {
				t.Errorf("%s: initial %d mode %s", b.InstanceType, b.LaunchMilliCredits, b.DefaultMode)
			}
			if b.Family != "B" && b.MaxMilliCredits != 24*b.EarnMilliCreditsPerHour {
				t.Errorf("%s: v2 C != 24 × E", b.InstanceType)
			}
		case b.Cloud == catalog.GCP:
			if b.HasCredits() || b.MaxMilliCredits != 0 || b.LaunchMilliCredits != 0 || b.Model != ModelSharedCore {
				t.Errorf("%s: GCP row has credits", b.InstanceType)
			}
		}
		if !b.Burstable() || validateBudget(b) != nil {
			t.Errorf("%s: table row not a valid burstable budget: %v", b.InstanceType, validateBudget(b))
		}
	}
}

func TestParseMode(t *testing.T) {
	for _, tc := range []struct {
		in      string
		want    Mode
		wantErr string
	}{
		{"standard", Standard, ""},
		{"unlimited", Unlimited, ""},
		{"", "", `unknown credit mode ""; valid modes are "standard", "unlimited"`},
		{"Unlimited", "", `unknown credit mode "Unlimited"`},
	} {
		got, err := ParseMode(tc.in)
		if got != tc.want || !errMatches(err, tc.wantErr) {
			t.Errorf("ParseMode(%q) = %q, %v; want %q, %q", tc.in, got, err, tc.want, tc.wantErr)
		}
	}
}

func TestParseBalance(t *testing.T) {
	for _, tc := range []struct {
		in      string
		want    Balance
		wantErr bool
	}{
		{"launch", LaunchBalance(), false},
		{"full", FullBalance(), false},
		{"0", CreditsBalance(0), false},
		{"120", CreditsBalance(120_000), false},
		{"57.6", CreditsBalance(57_600), false},
		{"1958.4", CreditsBalance(1_958_400), false},
		{"0.001", CreditsBalance(1), false},
		{"1000000000000", CreditsBalance(1_000_000_000_000_000), false},
		{"1000000000001", Balance{}, true},
		{"0.0001", Balance{}, true},
		{"-1", Balance{}, true},
		{"+1", Balance{}, true},
		{"1e3", Balance{}, true},
		{"1.", Balance{}, true},
		{".5", Balance{}, true},
		{"", Balance{}, true},
		{" 1", Balance{}, true},
		{"Full", Balance{}, true},
		{"99999999999999999999", Balance{}, true},
	} {
		got, err := ParseBalance(tc.in)
		if got != tc.want || (err != nil) != tc.wantErr {
			t.Errorf("ParseBalance(%q) = %+v, %v; want %+v, error %v", tc.in, got, err, tc.want, tc.wantErr)
		}
		if err != nil && !strings.Contains(err.Error(), `"`+tc.in+`"`) {
			t.Errorf("ParseBalance(%q) error %q does not quote the input", tc.in, err)
		}
		if err == nil {
			if back, err := ParseBalance(got.String()); err != nil || back != got {
				t.Errorf("round trip of %q via %q = %+v, %v", tc.in, got.String(), back, err)
			}
		}
	}
}

func abs(f float64) float64 {
	if f < 0 {
		return -f
	}
	return f
}

func errMatches(err error, want string) bool {
	if want == "" {
		return err == nil
	}
	return err != nil && strings.Contains(err.Error(), want)
}
