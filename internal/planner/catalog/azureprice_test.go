package catalog

import (
	"fmt"
	"regexp"
	"testing"
)

// TestAzurePricesPerSeries checks the embedded Azure prices of the D and E v5/v6 series: every size of a
// series costs one rate per vCPU (within the 3 decimals of the source), and a constrained-core size costs
// what its base size costs. Karpenter-Azure's eastus prices of 2026-06-18 break both for Dasv5, Dadsv5, Easv5
// and Eadsv5 (the Windows rate on some sizes; SOURCES.md "Azure price corrections").
func TestAzurePricesPerSeries(t *testing.T) {
	name := regexp.MustCompile(`^Standard_([DE])([0-9]+)(?:-[0-9]+)?([a-z]*)_v([56])$`)
	// Azure's own list price departs from the series rate (checked in every region upstream).
	exceptions := map[string]bool{"Standard_D4nds_v6": true}
	type size struct {
		name  string
		vcpus int
		rate  float64
		price float64
	}
	series := make(map[string][]size)
	checked := 0
	for _, it := range All(Azure) {
		m := name.FindStringSubmatch(it.Name)
		if m == nil || it.PriceUSDPerHour <= 0 || exceptions[it.Name] {
			continue
		}
		checked++
		base := fmt.Sprintf("Standard_%s%s%s_v%s", m[1], m[2], m[3], m[4])
		if base != it.Name {
			b, err := Lookup(Azure, base)
			if err == nil && b.PriceUSDPerHour > 0 && b.PriceUSDPerHour != it.PriceUSDPerHour {
				t.Errorf("%s costs %v, its base size %s %v", it.Name, it.PriceUSDPerHour, base, b.PriceUSDPerHour)
			}
			continue
		}
		key := m[1] + m[3] + "_v" + m[4]
		series[key] = append(series[key], size{it.Name, it.VCPUQuota, it.PriceUSDPerHour / float64(it.VCPUQuota), it.PriceUSDPerHour})
	}
	if checked < 300 {
		t.Fatalf("only %d priced D/E v5/v6 sizes; the pattern no longer matches the catalog", checked)
	}
	for key, sizes := range series {
		low := sizes[0]
		for _, s := range sizes {
			if s.rate < low.rate {
				low = s
			}
		}
		for _, s := range sizes {
			// Each price is rounded to 3 decimals (±0.0005 $/h, spread over the size's vCPUs); 0.5 % more for slack.
			if s.rate-low.rate > 0.0005/float64(s.vcpus)+0.0005/float64(low.vcpus)+0.005*low.rate {
				t.Errorf("%s: %s costs %v (%.4f per vCPU), more than %s at %.4f per vCPU", key, s.name, s.price, s.rate, low.name, low.rate)
			}
		}
	}
}
