package main

import (
	"slices"
	"strings"
	"testing"
)

func TestAzureSeries(t *testing.T) {
	for _, tt := range []struct {
		name, series, base string
		linear             bool
	}{
		{"Standard_D2as_v5", "Das_v5", "Standard_D2as_v5", true},
		{"Standard_E16-4ads_v5", "Eads_v5", "Standard_E16ads_v5", true},
		{"Standard_B2ats_v2", "Bats_v2", "Standard_B2ats_v2", true},
		{"Standard_D11_v2", "D_v2", "Standard_D11_v2", false}, // D1–D5 and D11–D15 share the name
		{"Standard_M416ms_v2", "Mms_v2", "Standard_M416ms_v2", false},
		{"Standard_NC24ads_A100_v4", "", "Standard_NC24ads_A100_v4", false},
		{"Standard_DS14-4_v2", "DS_v2", "Standard_DS14_v2", false},
		{"Basic_A1", "", "Basic_A1", false},
	} {
		series, base, linear := azureSeries(tt.name)
		if series != tt.series || base != tt.base || linear != tt.linear {
			t.Errorf("azureSeries(%q) = %q, %q, %v; want %q, %q, %v", tt.name, series, base, linear, tt.series, tt.base, tt.linear)
		}
	}
}

// withExceptions adds a priced row for every size priceRateExceptions names that rows lack, so a case need
// not list them all.
func withExceptions(rows []azurePrice) []azurePrice {
	out := slices.Clone(rows)
	for name := range priceRateExceptions {
		if !slices.ContainsFunc(rows, func(r azurePrice) bool { return r.name == name }) {
			out = append(out, azurePrice{name: name, where: "t", vcpus: 1, price: 1})
		}
	}
	return out
}

func TestCheckAzurePrices(t *testing.T) {
	p := func(name string, vcpus int64, price float64) azurePrice {
		return azurePrice{name: name, where: "azure-vm-sizes.tsv:1", vcpus: vcpus, price: price}
	}
	for _, tt := range []struct {
		name    string
		rows    []azurePrice
		wantErr []string // substrings; none = no error
	}{
		{"linear", []azurePrice{p("Standard_D2as_v5", 2, 0.086), p("Standard_D4as_v5", 4, 0.172), p("Standard_D96as_v5", 96, 4.128)}, nil},
		{"rounding within tolerance", []azurePrice{p("Standard_D2als_v6", 2, 0.0804), p("Standard_D4als_v6", 4, 0.161)}, nil},
		// the 2026-06-18 eastus rows of Karpenter-Azure: Windows rate on three Dasv5 sizes
		{"windows rate in a series", []azurePrice{p("Standard_D2as_v5", 2, 0.178), p("Standard_D4as_v5", 4, 0.172), p("Standard_D8as_v5", 8, 0.344),
			p("Standard_D64as_v5", 64, 5.696)},
			[]string{"series Das_v5: Standard_D2as_v5 0.178 (0.0890 per vCPU), Standard_D64as_v5 5.696 (0.0890 per vCPU) cost more per vCPU than Standard_D4as_v5 0.172 (0.0430 per vCPU)"}},
		{"more windows than linux", []azurePrice{p("Standard_E2as_v5", 2, 0.113), p("Standard_E4as_v5", 4, 0.41), p("Standard_E8as_v5", 8, 0.82)},
			[]string{"Standard_E4as_v5 0.41", "Standard_E8as_v5 0.82", "than Standard_E2as_v5 0.113"}},
		{"constrained core priced apart", []azurePrice{p("Standard_E4as_v5", 4, 0.226), p("Standard_E4-2as_v5", 4, 0.41)},
			[]string{"Standard_E4-2as_v5 costs 0.41, its base size Standard_E4as_v5 0.226"}},
		{"constrained core like its base", []azurePrice{p("Standard_E4as_v5", 4, 0.226), p("Standard_E4-2as_v5", 4, 0.226)}, nil},
		{"constrained core without a priced base", []azurePrice{p("Standard_E8-2as_v5", 8, 0.82)}, nil},
		{"series not checked", []azurePrice{p("Standard_M32ms_v2", 32, 6.041), p("Standard_M64ms_v2", 64, 10.13)}, nil},
		{"listed exception", []azurePrice{p("Standard_D2nds_v6", 2, 0.159), p("Standard_D4nds_v6", 4, 0.293), p("Standard_D8nds_v6", 8, 0.636)}, nil},
		{"zero price left out", []azurePrice{p("Standard_F2s_v2", 2, 0), p("Standard_F4s_v2", 4, 0.169)}, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := checkAzurePrices(withExceptions(tt.rows))
			if len(tt.wantErr) == 0 {
				if err != nil {
					t.Fatalf("checkAzurePrices: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("checkAzurePrices accepted %v", tt.rows)
			}
			for _, w := range tt.wantErr {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q\ndoes not contain %q", err, w)
				}
			}
		})
	}
}

func TestCheckAzurePricesStaleException(t *testing.T) {
	err := checkAzurePrices([]azurePrice{{name: "Standard_D2s_v5", where: "t", vcpus: 2, price: 0.096}})
	if err == nil || !strings.Contains(err.Error(), "priceRateExceptions names Standard_B2als_v2, which the table does not price") {
		t.Fatalf("checkAzurePrices = %v; want the unpriced exceptions named", err)
	}
}
