// Command gen turns the project's burstable-CPU data tables (internal/sources/data/burst/*.tsv) and the surplus price
// table (surplus-prices.tsv beside this file) into the Go source of package burst's embedded budgets. It
// checks every row against the credit rules of internal/sources/domain/burst.md before writing anything, converts
// decimals to exact milli-units without floating point, and is deterministic: the output depends only on
// the input files.
//
// Usage (from internal/planner/burst, see the go:generate line in burst.go):
//
//	go run ./gen -src ../../sources/data/burst -prices gen/surplus-prices.tsv -out budgets_generated.go
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"go/format"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Source descriptions of the three data tables (burst.md §3 and §8).
const (
	sourceAWS = "internal/sources/data/burst/aws-burstable.tsv: AWS EC2 User Guide, burstable-credits-baseline-concepts " +
		"(credit table; awsdocs/amazon-ec2-user-guide archive as of 2023-06-15, file last changed 2023-01-19) " +
		"and https://docs.aws.amazon.com/ec2/latest/instancetypes/gp.html (vCPU)"
	sourceAzureV1 = "internal/sources/data/burst/azure-burstable.tsv: MicrosoftDocs/azure-compute-docs " +
		"articles/virtual-machines/sizes/general-purpose/bv1-series.md (2024+ scale), cross-checked with " +
		"MicrosoftDocs/azure-docs sizes-b-series-burstable.md (2020); B8ms cap 1944 from the 2020 page"
	sourceAzureV2 = "internal/sources/data/burst/azure-burstable.tsv: MicrosoftDocs/azure-compute-docs " +
		"articles/virtual-machines/sizes/general-purpose/bsv2-series.md, basv2-series.md, bpsv2-series.md"
	sourceGCP = "internal/sources/data/burst/gcp-shared-core.tsv: https://cloud.google.com/compute/docs/general-purpose-machines " +
		"and https://cloud.google.com/compute/docs/machine-resource, read through quoted copies [2nd]"
)

// Expected row counts (burst.md, "Data files").
const (
	wantAWSRows   = 28
	wantAzureRows = 41
	wantGCPRows   = 5
)

func main() {
	src := flag.String("src", "../../sources/data/burst", "directory holding aws-burstable.tsv, azure-burstable.tsv and gcp-shared-core.tsv")
	prices := flag.String("prices", "gen/surplus-prices.tsv", "surplus price table")
	out := flag.String("out", "budgets_generated.go", "output Go file")
	flag.Parse()
	code, err := Generate(*src, *prices)
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
	if err := os.WriteFile(*out, code, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

// row is one generated Budget literal.
type row struct {
	cloud, name, family, model string
	vcpu                       int64
	earnMilli, maxMilli        int64
	launchMilli, sharedMilli   int64
	defaultMode                string
	unlimited                  bool
	priceMicro                 int64
	priceConst                 string
	sourceConst                string
}

// price is one row of surplus-prices.tsv.
type price struct {
	family, confidence, source, date string
	micro                            int64
}

// Generate reads the tables and returns the formatted Go source.
func Generate(srcDir, pricesPath string) ([]byte, error) {
	prices, err := readPrices(pricesPath)
	if err != nil {
		return nil, err
	}
	aws, err := readAWS(filepath.Join(srcDir, "aws-burstable.tsv"), prices)
	if err != nil {
		return nil, err
	}
	azure, err := readAzure(filepath.Join(srcDir, "azure-burstable.tsv"))
	if err != nil {
		return nil, err
	}
	gcp, err := readGCP(filepath.Join(srcDir, "gcp-shared-core.tsv"))
	if err != nil {
		return nil, err
	}
	rows := append(append(aws, azure...), gcp...)
	return render(rows, prices)
}

// readTSV returns the data rows of a TSV file after checking its header.
func readTSV(path string, header []string) ([][]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	if len(lines) == 0 || lines[0] != strings.Join(header, "\t") {
		return nil, fmt.Errorf("%s: header is not %q", path, strings.Join(header, "\t"))
	}
	var rows [][]string
	for i, l := range lines[1:] {
		f := strings.Split(l, "\t")
		if len(f) != len(header) {
			return nil, fmt.Errorf("%s:%d: %d fields, want %d", path, i+2, len(f), len(header))
		}
		rows = append(rows, f)
	}
	return rows, nil
}

// parseMilli parses a non-negative decimal with at most three fractional digits into thousandths,
// exactly ("81.6" → 81600).
func parseMilli(s string) (int64, error) {
	whole, frac, _ := strings.Cut(s, ".")
	if whole == "" || len(frac) > 3 || strings.HasPrefix(s, "-") || strings.HasPrefix(s, "+") {
		return 0, fmt.Errorf("decimal %q: want digits with at most 3 decimal places", s)
	}
	w, err := strconv.ParseInt(whole, 10, 64)
	if err != nil || w > 1<<40 {
		return 0, fmt.Errorf("decimal %q: bad integer part", s)
	}
	f := int64(0)
	if frac != "" {
		padded := frac + strings.Repeat("0", 3-len(frac))
		f, err = strconv.ParseInt(padded, 10, 64)
		if err != nil || f < 0 {
			return 0, fmt.Errorf("decimal %q: bad fraction", s)
		}
	}
	return w*1000 + f, nil
}

// parseMicro parses a non-negative decimal with at most six fractional digits into millionths.
func parseMicro(s string) (int64, error) {
	whole, frac, _ := strings.Cut(s, ".")
	if whole == "" || len(frac) > 6 || strings.HasPrefix(s, "-") || strings.HasPrefix(s, "+") {
		return 0, fmt.Errorf("decimal %q: want digits with at most 6 decimal places", s)
	}
	w, err := strconv.ParseInt(whole, 10, 64)
	if err != nil || w > 1<<30 {
		return 0, fmt.Errorf("decimal %q: bad integer part", s)
	}
	f := int64(0)
	if frac != "" {
		f, err = strconv.ParseInt(frac+strings.Repeat("0", 6-len(frac)), 10, 64)
		if err != nil || f < 0 {
			return 0, fmt.Errorf("decimal %q: bad fraction", s)
		}
	}
	return w*1_000_000 + f, nil
}

func parseVCPU(s string) (int64, error) {
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v <= 0 || v > 1024 {
		return 0, fmt.Errorf("vcpu %q: want a positive integer", s)
	}
	return v, nil
}

func readPrices(path string) (map[string]price, error) {
	rows, err := readTSV(path, []string{"family", "usd_per_vcpu_hour", "confidence", "source", "source_date"})
	if err != nil {
		return nil, err
	}
	out := map[string]price{}
	for _, f := range rows {
		micro, err := parseMicro(f[1])
		if err != nil {
			return nil, fmt.Errorf("%s: family %s: %w", path, f[0], err)
		}
		if f[2] != "doc" && f[2] != "2nd" && f[2] != "unverified" {
			return nil, fmt.Errorf("%s: family %s: confidence %q is not doc, 2nd or unverified", path, f[0], f[2])
		}
		if f[3] == "" || f[4] == "" {
			return nil, fmt.Errorf("%s: family %s: source and source_date are required", path, f[0])
		}
		out[f[0]] = price{family: f[0], micro: micro, confidence: f[2], source: f[3], date: f[4]}
	}
	return out, nil
}

func readAWS(path string, prices map[string]price) ([]row, error) {
	rows, err := readTSV(path, []string{"instance_type", "vcpu", "memory_gib", "baseline_pct_per_vcpu",
		"credits_per_hour", "max_credits", "launch_credits", "default_mode"})
	if err != nil {
		return nil, err
	}
	if len(rows) != wantAWSRows {
		return nil, fmt.Errorf("%s: %d rows, want %d", path, len(rows), wantAWSRows)
	}
	var out []row
	for _, f := range rows {
		r, err := awsRow(f, prices)
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %w", path, f[0], err)
		}
		out = append(out, r)
	}
	return out, nil
}

func awsRow(f []string, prices map[string]price) (row, error) {
	family, _, ok := strings.Cut(f[0], ".")
	if !ok {
		return row{}, errors.New("name has no family prefix")
	}
	v, err := parseVCPU(f[1])
	if err != nil {
		return row{}, err
	}
	pct, err := parseMilli(f[3])
	if err != nil {
		return row{}, err
	}
	earn, err := parseMilli(f[4])
	if err != nil {
		return row{}, err
	}
	maxC, err := parseMilli(f[5])
	if err != nil {
		return row{}, err
	}
	launch, err := parseMilli(f[6])
	if err != nil {
		return row{}, err
	}
	// E = b × v × 60 (burst.md §1.1), in thousandths: earn × 100 = pct × v × 60.
	if earn*100 != pct*v*60 {
		return row{}, fmt.Errorf("credits_per_hour %s is not baseline %s %% × %d vCPU × 60", f[4], f[3], v)
	}
	// C = 24 × E (§1.2), exact for every AWS row.
	if maxC != 24*earn {
		return row{}, fmt.Errorf("max_credits %s is not 24 × %s", f[5], f[4])
	}
	wantLaunch, wantMode := int64(0), "unlimited"
	if family == "t2" {
		wantLaunch, wantMode = 30_000*v, "standard"
	}
	if launch != wantLaunch || f[7] != wantMode {
		return row{}, fmt.Errorf("launch_credits %s / default_mode %s contradict burst.md §1.3 and §2.3", f[6], f[7])
	}
	p, ok := prices[family]
	if !ok {
		return row{}, fmt.Errorf("no surplus price for family %q", family)
	}
	return row{cloud: "AWS", name: f[0], family: family, model: "ModelCredits", vcpu: v, earnMilli: earn,
		maxMilli: maxC, launchMilli: launch, defaultMode: modeConst(f[7]), unlimited: true,
		priceMicro: p.micro, priceConst: priceConst(family), sourceConst: "SourceAWS"}, nil
}

func modeConst(m string) string {
	if m == "unlimited" {
		return "Unlimited"
	}
	return "Standard"
}

// displayFamily spells an AWS family as AWS does in prose ("t3a" → "T3a").
func displayFamily(family string) string {
	if family == "" {
		return family
	}
	return strings.ToUpper(family[:1]) + family[1:]
}

func priceConst(family string) string {
	return "SurplusPriceSource" + strings.ToUpper(family)
}

// azureFamily names the Azure B series of a size: "B" for v1, else Bsv2, Basv2 or Bpsv2.
func azureFamily(name string) (string, error) {
	rest, ok := strings.CutPrefix(name, "Standard_B")
	if !ok {
		return "", fmt.Errorf("%q is not a Standard_B size", name)
	}
	body, v2 := strings.CutSuffix(rest, "_v2")
	if !v2 {
		return "B", nil
	}
	letters := strings.TrimLeft(body, "0123456789")
	switch {
	case strings.Contains(letters, "p"):
		return "Bpsv2", nil
	case strings.Contains(letters, "a"):
		return "Basv2", nil
	default:
		return "Bsv2", nil
	}
}

func readAzure(path string) ([]row, error) {
	rows, err := readTSV(path, []string{"vm_size", "vcpu", "memory_gib", "base_cpu_pct_of_vm",
		"credits_banked_per_hour", "max_banked_credits", "initial_credits"})
	if err != nil {
		return nil, err
	}
	if len(rows) != wantAzureRows {
		return nil, fmt.Errorf("%s: %d rows, want %d", path, len(rows), wantAzureRows)
	}
	var out []row
	for _, f := range rows {
		r, err := azureRow(f)
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %w", path, f[0], err)
		}
		out = append(out, r)
	}
	return out, nil
}

func azureRow(f []string) (row, error) {
	family, err := azureFamily(f[0])
	if err != nil {
		return row{}, err
	}
	v, err := parseVCPU(f[1])
	if err != nil {
		return row{}, err
	}
	pct, err := parseMilli(f[3])
	if err != nil {
		return row{}, err
	}
	earn, err := parseMilli(f[4])
	if err != nil {
		return row{}, err
	}
	maxC, err := parseMilli(f[5])
	if err != nil {
		return row{}, err
	}
	initial, err := parseMilli(f[6])
	if err != nil {
		return row{}, err
	}
	if initial != 30_000*v {
		return row{}, fmt.Errorf("initial_credits %s is not 30 × %d vCPU (burst.md §1.3)", f[6], v)
	}
	diff := earn*100 - pct*v*60
	source := "SourceAzureV2"
	if family == "B" {
		// v1 rows print a rounded base %: the derived E / (0.6 v) must round to it (within 0.5 point),
		// and the cap must be within 1 % of 24 × E (burst.md §1.2).
		if diff < -500*v*60 || diff > 500*v*60 {
			return row{}, fmt.Errorf("credits %s/h do not round to base %s %% of %d vCPU", f[4], f[3], v)
		}
		if d := maxC - 24*earn; d*100 > 24*earn || -d*100 > 24*earn {
			return row{}, fmt.Errorf("max_banked_credits %s is more than 1 %% from 24 × %s", f[5], f[4])
		}
		source = "SourceAzureV1"
	} else if diff != 0 || maxC != 24*earn {
		return row{}, fmt.Errorf("v2 row breaks E = base × v × 0.6 or cap = 24 × E (burst.md §3.3)")
	}
	return row{cloud: "Azure", name: f[0], family: family, model: "ModelCredits", vcpu: v, earnMilli: earn,
		maxMilli: maxC, launchMilli: initial, defaultMode: "Standard", sourceConst: source}, nil
}

func readGCP(path string) ([]row, error) {
	rows, err := readTSV(path, []string{"machine_type", "vcpu", "memory_gb", "sustained_vcpu",
		"sustained_pct_per_vcpu", "burst_vcpu", "gke_reserved_cpu_m", "notes"})
	if err != nil {
		return nil, err
	}
	if len(rows) != wantGCPRows {
		return nil, fmt.Errorf("%s: %d rows, want %d", path, len(rows), wantGCPRows)
	}
	var out []row
	for _, f := range rows {
		family, _, ok := strings.Cut(f[0], "-")
		if !ok {
			return nil, fmt.Errorf("%s: %s: name has no series prefix", path, f[0])
		}
		v, err := parseVCPU(f[1])
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %w", path, f[0], err)
		}
		sustained, err := parseMilli(f[3])
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %w", path, f[0], err)
		}
		pct, err := parseMilli(f[4])
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %w", path, f[0], err)
		}
		// sustained vCPU = pct × v / 100, in thousandths: sustained × 100 = pct × v.
		if sustained*100 != pct*v || sustained <= 0 || sustained > 1000*v {
			return nil, fmt.Errorf("%s: %s: sustained_vcpu %s is not %s %% × %d vCPU", path, f[0], f[3], f[4], v)
		}
		out = append(out, row{cloud: "GCP", name: f[0], family: family, model: "ModelSharedCore", vcpu: v,
			sharedMilli: sustained, defaultMode: "Standard", sourceConst: "SourceGCP"})
	}
	return out, nil
}

func render(rows []row, prices map[string]price) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("// Code generated by \"go run ./gen\"; DO NOT EDIT.\n\n")
	b.WriteString("// Inputs: internal/sources/data/burst/aws-burstable.tsv, azure-burstable.tsv and gcp-shared-core.tsv\n")
	b.WriteString("// (internal/sources/domain/burst.md §3), and gen/surplus-prices.tsv (burst.md §2.4).\n//\n// Sources:\n")
	for _, s := range []string{sourceAWS, sourceAzureV1, sourceAzureV2, sourceGCP} {
		fmt.Fprintf(&b, "//   - %s\n", s)
	}
	fams := []string{"t2", "t3", "t3a", "t4g"}
	for _, fam := range fams {
		p := prices[fam]
		fmt.Fprintf(&b, "//   - %s surplus price $%s per vCPU-hour [%s], %s (source date: %s)\n", fam,
			usd(p.micro), p.confidence, p.source, p.date)
	}
	b.WriteString("\npackage burst\n\n")
	b.WriteString("// Data sources of the embedded budgets; each Budget.Source is one of these.\nconst (\n")
	fmt.Fprintf(&b, "\t// SourceAWS is the source of the AWS T2/T3/T3a/T4g rows.\n\tSourceAWS = %q\n", sourceAWS)
	fmt.Fprintf(&b, "\t// SourceAzureV1 is the source of the Azure B-series v1 rows.\n\tSourceAzureV1 = %q\n", sourceAzureV1)
	fmt.Fprintf(&b, "\t// SourceAzureV2 is the source of the Azure Bsv2, Basv2 and Bpsv2 rows.\n\tSourceAzureV2 = %q\n", sourceAzureV2)
	fmt.Fprintf(&b, "\t// SourceGCP is the source of the GCP shared-core rows.\n\tSourceGCP = %q\n)\n\n", sourceGCP)
	b.WriteString("// Sources of the default unlimited-mode surplus prices (Linux), per AWS family; each\n")
	b.WriteString("// Budget.SurplusPriceSource is one of these.\nconst (\n")
	for _, fam := range fams {
		p := prices[fam]
		text := fmt.Sprintf("$%s per vCPU-hour (%s, Linux) [%s]: %s; source date %s", usd(p.micro),
			displayFamily(fam), p.confidence, p.source, p.date)
		fmt.Fprintf(&b, "\t// %s is the source and date of the %s surplus price.\n\t%s = %q\n",
			priceConst(fam), displayFamily(fam), priceConst(fam), text)
	}
	b.WriteString(")\n\n")
	b.WriteString("// budgets holds one row per burstable instance type, in table order: AWS, Azure, GCP.\n")
	b.WriteString("var budgets = [...]Budget{\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "\t{Cloud: catalog.%s, InstanceType: %q, Family: %q, Model: %s, VCPU: %d, ",
			r.cloud, r.name, r.family, r.model, r.vcpu)
		if r.model == "ModelCredits" {
			fmt.Fprintf(&b, "EarnMilliCreditsPerHour: %d, MaxMilliCredits: %d, LaunchMilliCredits: %d, ",
				r.earnMilli, r.maxMilli, r.launchMilli)
		} else {
			fmt.Fprintf(&b, "SharedCoreMillicores: %d, ", r.sharedMilli)
		}
		fmt.Fprintf(&b, "DefaultMode: %s, ", r.defaultMode)
		if r.unlimited {
			fmt.Fprintf(&b, "UnlimitedSupported: true, SurplusPriceMicroUSD: %d, SurplusPriceSource: %s, ",
				r.priceMicro, r.priceConst)
		}
		fmt.Fprintf(&b, "Source: %s},\n", r.sourceConst)
	}
	b.WriteString("}\n")
	src := bytes.Replace(b.Bytes(), []byte("package burst\n\n"),
		[]byte("package burst\n\nimport \"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog\"\n\n"), 1)
	return format.Source(src)
}

// usd renders millionths of a dollar as a decimal without trailing zeros ("0.05").
func usd(micro int64) string {
	s := fmt.Sprintf("%d.%06d", micro/1_000_000, micro%1_000_000)
	return strings.TrimRight(strings.TrimRight(s, "0"), ".")
}
