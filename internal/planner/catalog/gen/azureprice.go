package main

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Azure's on-demand Linux price of a VM size is its series' rate per vCPU times its vCPUs, for the series
// linearPriceFrom lists; a constrained-core size (Standard_E8-2as_v5) costs what its base size
// (Standard_E8as_v5) costs. Karpenter-Azure's generated eastus prices break both rules for 41 sizes as of
// 2026-06-18: its Retail Prices API filter drops products ending in " Windows" but keeps other products
// under the same ARM SKU name (for Dasv5, "Dasv5 Series Cloud Services", at the Windows price), and Go's map
// order then picks either (SOURCES.md, "Azure price corrections"). checkAzurePrices refuses such a table, so
// a refresh cannot bring those prices back unnoticed.

// azureSizeName parses Standard_<prefix><vCPUs>[-<active>]<features>_v<version>.
var azureSizeName = regexp.MustCompile(`^Standard_([A-Z]+)([0-9]+)(?:-([0-9]+))?([a-z]*)_v([0-9]+)$`)

// linearPriceFrom gives, per name prefix, the first version whose series are priced per vCPU. Left out:
// A, M, H and the GPU prefixes (memory and accelerators are priced apart from the vCPUs), and D/DS v2 and
// older, whose names mix the general-purpose D1–D5 with the memory-optimised D11–D15.
var linearPriceFrom = map[string]int{"B": 2, "D": 3, "DC": 2, "E": 3, "EC": 5, "F": 2, "FX": 2, "L": 2}

// priceRateTolerance is how far (relative) a size's price per vCPU may stray from its series' other sizes.
// Prices have three decimals (a 2-vCPU size's rate is within 0.7 % of the exact one); the Windows rate of
// these series is 30 % or more above the Linux one.
const priceRateTolerance = 0.03

// priceRateExceptions are sizes whose price differs from their series' rate per vCPU by Azure's own list
// price, checked across regions; they are left out of the series comparison.
var priceRateExceptions = map[string]string{
	"Standard_D4nds_v6": "8 % below the Dndsv6 rate in every region of Karpenter-Azure's 2026-06-18 prices (eastus 0.293, westeurope 0.384, southcentralus 0.352)",
	"Standard_E64_v3":   "432 GiB instead of the series' 8 GiB per vCPU (512 GiB), and priced lower",
	"Standard_E64s_v3":  "432 GiB instead of the series' 8 GiB per vCPU (512 GiB), and priced lower",
	"Standard_E64i_v3":  "432 GiB instead of the series' 8 GiB per vCPU (512 GiB), and priced lower",
	"Standard_E64is_v3": "432 GiB instead of the series' 8 GiB per vCPU (512 GiB), and priced lower",
	"Standard_B2ls_v2":  "Blsv2's 2-vCPU size costs about 0.6 of the series' rate per vCPU in every region (eastus 0.0416 against B4ls_v2 0.147)",
	"Standard_B2als_v2": "Balsv2's 2-vCPU size costs about 0.6 of the series' rate per vCPU in every region (eastus 0.0376 against B4als_v2 0.133)",
	"Standard_B2pls_v2": "Bplsv2's 2-vCPU size costs about 0.6 of the series' rate per vCPU in every region (eastus 0.0336 against B4pls_v2 0.119)",
}

// azurePrice is one priced row, as checkAzurePrices sees it.
type azurePrice struct {
	name, where string
	vcpus       int64 // the SKU's full vCPU count (vcpu_quota)
	price       float64
}

// azureSeries names the series of a size ("Das_v5"), its base size (itself, or the full size of a
// constrained-core size), and whether its price is checked against the series rate.
func azureSeries(name string) (series, base string, linear bool) {
	m := azureSizeName.FindStringSubmatch(name)
	if m == nil {
		return "", name, false
	}
	prefix, features, version := m[1], m[4], m[5]
	base = name
	if m[3] != "" {
		base = "Standard_" + prefix + m[2] + features + "_v" + version
	}
	v, _ := strconv.Atoi(version)
	from, ok := linearPriceFrom[prefix]
	return prefix + features + "_v" + version, base, ok && v >= from
}

// checkAzurePrices returns an error naming every row that breaks one of the two pricing rules above: a
// constrained-core size priced apart from its base size, or a size whose price per vCPU strays more than
// priceRateTolerance from another size of its series.
func checkAzurePrices(rows []azurePrice) error {
	byName := make(map[string]azurePrice, len(rows))
	for _, r := range rows {
		byName[r.name] = r
	}
	var problems []string
	series := make(map[string][]azurePrice)
	for _, r := range rows {
		s, base, linear := azureSeries(r.name)
		if base != r.name {
			if b, ok := byName[base]; ok && b.price != r.price {
				problems = append(problems, fmt.Sprintf("%s: %s costs %s, its base size %s %s; a constrained-core size costs what its base size costs",
					r.where, r.name, fmtPrice(r.price), base, fmtPrice(b.price)))
			}
			continue
		}
		if linear && r.vcpus > 0 && r.price > 0 && priceRateExceptions[r.name] == "" {
			series[s] = append(series[s], r)
		}
	}
	for _, s := range slices.Sorted(maps.Keys(series)) {
		rs := series[s]
		low := slices.MinFunc(rs, func(a, b azurePrice) int { return compareRate(a, b) })
		var above []string
		for _, r := range rs {
			if rate(r) > rate(low)*(1+priceRateTolerance) {
				above = append(above, fmt.Sprintf("%s %s (%s per vCPU)", r.name, fmtPrice(r.price), fmtRate(rate(r))))
			}
		}
		if len(above) > 0 {
			problems = append(problems, fmt.Sprintf("series %s: %s cost more per vCPU than %s %s (%s per vCPU), beyond %.0f %%",
				s, strings.Join(above, ", "), low.name, fmtPrice(low.price), fmtRate(rate(low)), priceRateTolerance*100))
		}
	}
	for _, name := range slices.Sorted(maps.Keys(priceRateExceptions)) {
		if byName[name].price <= 0 {
			problems = append(problems, fmt.Sprintf("gen/azureprice.go: priceRateExceptions names %s, which the table does not price; remove it", name))
		}
	}
	if len(problems) == 0 {
		return nil
	}
	return fmt.Errorf("Azure prices that cannot be Linux on-demand prices (an upstream eastus entry taken from the "+
		"Cloud Services or Windows meter?); correct each in the merged table from a source that gives the Linux price, "+
		"or empty it, and say so in SOURCES.md (\"Azure price corrections\"):\n  %s", strings.Join(problems, "\n  "))
}

func rate(r azurePrice) float64 { return r.price / float64(r.vcpus) }

func compareRate(a, b azurePrice) int {
	switch ra, rb := rate(a), rate(b); {
	case ra < rb:
		return -1
	case ra > rb:
		return 1
	}
	return strings.Compare(a.name, b.name)
}

func fmtPrice(p float64) string { return strconv.FormatFloat(p, 'f', -1, 64) }
func fmtRate(r float64) string  { return strconv.FormatFloat(r, 'f', 4, 64) }

// azurePriceNote says how many eastus prices come from another region's block of the same upstream file
// (the rows whose sources name a "(<region> Linux price)" id), for the generated header.
func azurePriceNote(rows [][]string) string {
	n := 0
	for _, r := range rows {
		if strings.Contains(r[len(r)-1], " Linux price)") {
			n++
		}
	}
	return fmt.Sprintf("%d eastus prices are Linux prices read from another region's block of Karpenter-Azure's file, where its eastus entry "+
		"is another meter's (the *(<region> Linux price) source ids); sizes with no such price are left empty. Every price is checked: "+
		"a constrained-core size costs what its base size costs, and the sizes of a D, E, F, L, DC, EC, FX or B series cost one rate per vCPU "+
		"(gen/azureprice.go). See SOURCES.md \"Azure price corrections\".", n)
}
