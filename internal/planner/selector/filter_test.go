package selector

import (
	"math/rand/v2"
	"path"
	"slices"
	"strings"
	"testing"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/disk"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/overhead"
)

func TestGeneration(t *testing.T) {
	tests := []struct {
		cloud catalog.Cloud
		name  string
		want  int
	}{
		{catalog.AWS, "m6i.large", 6}, {catalog.AWS, "c7g.xlarge", 7}, {catalog.AWS, "r5.2xlarge", 5},
		{catalog.AWS, "x2idn.32xlarge", 2}, {catalog.AWS, "c7i-flex.large", 7}, {catalog.AWS, "t3a.medium", 3},
		{catalog.AWS, "inf1.2xlarge", 1}, {catalog.AWS, "u-6tb1.metal", 0},
		{catalog.Azure, "Standard_D4s_v5", 5}, {catalog.Azure, "Standard_DS1_v2", 2}, {catalog.Azure, "Standard_A2", 1},
		{catalog.Azure, "Standard_DS11_v2_Promo", 2}, {catalog.Azure, "Standard_E8-2as_v6", 6},
		{catalog.GCP, "n2-standard-4", 2}, {catalog.GCP, "c3d-highmem-30", 3}, {catalog.GCP, "e2-micro", 2},
		{catalog.GCP, "n1-standard-1", 1}, {catalog.GCP, "c4a-standard-64-lssd", 4},
	}
	for _, tt := range tests {
		it, err := catalog.Lookup(tt.cloud, tt.name)
		if err != nil {
			t.Fatal(err)
		}
		if got := Generation(it); got != tt.want {
			t.Errorf("Generation(%s %s, family %q) = %d, want %d", tt.cloud, tt.name, it.Family, got, tt.want)
		}
	}
}

func names(rows []catalog.InstanceType) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = r.Name
	}
	return out
}

// TestBurstableSharedCore: GCP's shared-core types, which sizing checks against a CPU budget, count as burstable
// in the filter: burstable = true keeps exactly them on GCP, false drops them.
func TestBurstableSharedCore(t *testing.T) {
	yes, no := true, false
	got, _, err := Filter{Burstable: &yes}.Apply(catalog.All(catalog.GCP))
	if err != nil {
		t.Fatal(err)
	}
	if g := names(got); !slices.Equal(slices.Sorted(slices.Values(g)), []string{"e2-medium", "e2-micro", "e2-small", "f1-micro", "g1-small"}) {
		t.Errorf("burstable GCP types %v, want the shared-core ones", g)
	}
	got, _, err = Filter{Burstable: &no, Names: []string{"e2-*"}}.Apply(catalog.All(catalog.GCP))
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range names(got) {
		if n == "e2-medium" || n == "e2-micro" || n == "e2-small" {
			t.Errorf("burstable = false kept shared-core %s", n)
		}
	}
}

func TestApply(t *testing.T) {
	aws := catalog.All(catalog.AWS)
	yes, no := true, false
	tests := []struct {
		name string
		f    Filter
		want []string // exactly these names, in this order
	}{
		{"m/c/r 6th and 7th generation, 4 vCPU x86, by price",
			Filter{VCPU: Between(4, 4), Architecture: catalog.ArchAMD64, Families: []string{"m?i", "c?i", "r?i"},
				Generation: Between(6, 7), SortBy: SortPrice},
			[]string{"c6i.xlarge", "c7i.xlarge", "m6i.xlarge", "m7i.xlarge", "r6i.xlarge", "r7i.xlarge"}},
		{"exclusions", Filter{Names: []string{"m6*.large"}, ExcludeFamilies: []string{"m6?d", "m6?n", "m6in", "m6idn"}, ExcludeNames: []string{"M6A.*"}},
			[]string{"m6g.large", "m6i.large"}},
		{"burstable arm", Filter{Burstable: &yes, Architecture: catalog.ArchARM64, VCPU: AtMost(2), MemoryGiB: AtLeast(4.0)},
			[]string{"t4g.large", "t4g.medium"}},
		{"memory per vCPU and price", Filter{MemoryPerVCPUGiB: AtLeast(16.0), VCPU: Between(4, 4), Burstable: &no, BareMetal: &no, PricePerHour: AtMost(0.7)},
			[]string{"x2gd.xlarge", "x8g.xlarge", "x8i.xlarge"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ws, err := tt.f.Apply(aws)
			if err != nil || len(ws) > 0 {
				t.Fatalf("err %v, warnings %v", err, ws)
			}
			if g := names(got); !slices.Equal(g, tt.want) {
				t.Errorf("got %v\nwant %v", g, tt.want)
			}
		})
	}
}

func TestApplyEmptyNamesTheFilter(t *testing.T) {
	aws := catalog.All(catalog.AWS)
	tests := []struct {
		f        Filter
		wantPath string
		wantMsg  string
	}{
		{Filter{VCPU: Between(4, 4), Families: []string{"m6i"}, PricePerHour: AtMost(0.01)}, "PricePerHour",
			"the price range at most 0.01 USD per hour removed the last 1 types left by the filters before it; those with a figure have 0.192 USD per hour"},
		{Filter{VCPU: AtLeast(1000)}, "VCPU", "removed the last 1436 types of the whole catalog; those with a figure range from 1 to 896 vCPUs"},
		{Filter{Families: []string{"t3"}, Burstable: new(bool)}, "Burstable", "no burstable types removed the last"},
		{Filter{Families: []string{"m5"}, MaxPods: AtLeast[int64](300), Overhead: overhead.Input{Profile: overhead.EKSAL2023}}, "MaxPods",
			"the max pods range at least 300 removed the last"},
		// Two filters that conflict: each matches types alone, together none; the warning names both.
		{Filter{Families: []string{"m7g"}, Architecture: catalog.ArchAMD64}, "Families", "without the architecture"},
	}
	for _, tt := range tests {
		got, ws, err := tt.f.Apply(aws)
		if err != nil || len(got) != 0 || len(ws) != 1 {
			t.Fatalf("%+v: got %v, warnings %v, err %v", tt.f, names(got), ws, err)
		}
		w := ws[0]
		if w.Code != WarnEmpty || w.Path.String() != tt.wantPath || !strings.Contains(w.Message, tt.wantMsg) {
			t.Errorf("warning %s at %s: %s\nwant at %s: %s", w.Code, w.Path, w.Message, tt.wantPath, tt.wantMsg)
		}
	}
}

func TestValidate(t *testing.T) {
	tests := []struct {
		f        Filter
		wantPath string
		wantMsg  string
	}{
		{Filter{VCPU: Between(8, 4)}, "VCPU.Min", "the minimum vCPU count 8 is above the maximum 4 (min > max)"},
		{Filter{MemoryGiB: AtLeast(-1.0)}, "MemoryGiB.Min", "negative"},
		{Filter{Architecture: "amd64"}, "Architecture", `unknown architecture "amd64"`},
		{Filter{Families: []string{"m6i", "m[6"}}, "Families[1]", `pattern "m[6" is not a valid wildcard pattern`},
		{Filter{SortBy: "cost"}, "SortBy", `unknown sort key "cost"`},
		{Filter{Hypervisor: "kvm"}, "Hypervisor", `unknown hypervisor "kvm"`},
	}
	for _, tt := range tests {
		_, _, err := tt.f.Apply(catalog.All(catalog.AWS))
		es := field.As(err)
		if len(es) != 1 || es[0].Path.String() != tt.wantPath || !strings.Contains(es[0].Detail, tt.wantMsg) {
			t.Errorf("%+v: err %v\nwant at %s: %s", tt.f, err, tt.wantPath, tt.wantMsg)
		}
	}
}

// reference is a slow, readable statement of what Filter means for one row.
func reference(f Filter, t catalog.InstanceType) bool {
	// Azure's uncached limits are Microsoft's where its table lists the size, else the row's (disk.AzureUncached),
	// written out here: the node-level disk check's figures.
	azureIOPS, azureMBps := int64(t.UncachedDiskIOPS), int64(t.UncachedDiskMBps)
	if n, err := disk.NodeLimitsFor(t); err == nil && t.Cloud == catalog.Azure {
		azureIOPS, azureMBps = n.BaseIOPS, n.BaseBytesPerSec/1_000_000
	}
	inRange := func(min, max *float64, v float64, zeroKnown bool) bool {
		if min == nil && max == nil {
			return true
		}
		if v == 0 && !zeroKnown {
			return false
		}
		if min != nil && v < *min {
			return false
		}
		if max != nil && v > *max {
			return false
		}
		return true
	}
	fl := func(p *int) *float64 {
		if p == nil {
			return nil
		}
		v := float64(*p)
		return &v
	}
	fl64 := func(p *int64) *float64 {
		if p == nil {
			return nil
		}
		v := float64(*p)
		return &v
	}
	matches := func(patterns []string, s string) bool {
		for _, p := range patterns {
			if ok, _ := path.Match(strings.ToLower(p), strings.ToLower(s)); ok {
				return true
			}
		}
		return false
	}
	perVCPU := 0.0
	if t.VCPU > 0 {
		perVCPU = float64(t.MemoryMiB) / 1024 / float64(t.VCPU)
	}
	switch {
	case !inRange(fl(f.VCPU.Min), fl(f.VCPU.Max), float64(t.VCPU), false),
		!inRange(f.MemoryGiB.Min, f.MemoryGiB.Max, float64(t.MemoryMiB)/1024, false),
		!inRange(f.MemoryPerVCPUGiB.Min, f.MemoryPerVCPUGiB.Max, perVCPU, false),
		f.Architecture != "" && t.Architecture != f.Architecture,
		len(f.Families) > 0 && !matches(f.Families, t.Family),
		matches(f.ExcludeFamilies, t.Family),
		len(f.Names) > 0 && !matches(f.Names, t.Name),
		matches(f.ExcludeNames, t.Name),
		!inRange(fl(f.Generation.Min), fl(f.Generation.Max), float64(Generation(t)), false),
		f.Burstable != nil && (t.Burstable || t.SharedCore) != *f.Burstable,
		!inRange(fl(f.GPUs.Min), fl(f.GPUs.Max), float64(t.GPUCount), true),
		f.BareMetal != nil && t.BareMetal != *f.BareMetal,
		f.Hypervisor != "" && t.Hypervisor != f.Hypervisor,
		!inRange(fl(f.EBSBaselineIOPS.Min), fl(f.EBSBaselineIOPS.Max), float64(t.EBSBaselineIOPS), false),
		!inRange(f.EBSBaselineThroughputMBps.Min, f.EBSBaselineThroughputMBps.Max, t.EBSBaselineThroughputMBps, false),
		!inRange(fl(f.MaxDataDisks.Min), fl(f.MaxDataDisks.Max), float64(t.MaxDataDisks), false),
		!inRange(fl(f.UncachedDiskIOPS.Min), fl(f.UncachedDiskIOPS.Max), float64(azureIOPS), false),
		!inRange(fl(f.UncachedDiskMBps.Min), fl(f.UncachedDiskMBps.Max), float64(azureMBps), false),
		!inRange(f.PricePerHour.Min, f.PricePerHour.Max, t.PriceUSDPerHour, false):
		return false
	}
	if f.MaxPods.IsSet() {
		in := f.Overhead
		in.Instance = overhead.InstanceFromCatalog(t)
		if in.Profile == "" {
			in.Profile = overhead.DefaultProfile(t.Cloud)
		}
		r, err := overhead.Compute(in)
		if err != nil || !inRange(fl64(f.MaxPods.Min), fl64(f.MaxPods.Max), float64(r.MaxPods), false) {
			return false
		}
	}
	return true
}

// randomFilter sets a few random filters, with bounds drawn from the catalog's own values so that the
// results are neither always empty nor always everything.
func randomFilter(rng *rand.Rand, rows []catalog.InstanceType) Filter {
	pick := func() catalog.InstanceType { return rows[rng.IntN(len(rows))] }
	pi := func(v int) *int { return &v }
	pf := func(v float64) *float64 { return &v }
	maybe := func() bool { return rng.IntN(4) == 0 }
	bounds := func(a, b int) Range[int] {
		r := Range[int]{}
		lo, hi := min(a, b), max(a, b)
		if rng.IntN(2) == 0 {
			r.Min = pi(lo)
		}
		if rng.IntN(2) == 0 {
			r.Max = pi(hi)
		}
		return r
	}
	fbounds := func(a, b float64) Range[float64] {
		r := Range[float64]{}
		lo, hi := min(a, b), max(a, b)
		if rng.IntN(2) == 0 {
			r.Min = pf(lo)
		}
		if rng.IntN(2) == 0 {
			r.Max = pf(hi)
		}
		return r
	}
	var f Filter
	if maybe() {
		f.VCPU = bounds(pick().VCPU, pick().VCPU)
	}
	if maybe() {
		f.MemoryGiB = fbounds(float64(pick().MemoryMiB)/1024, float64(pick().MemoryMiB)/1024)
	}
	if maybe() {
		f.MemoryPerVCPUGiB = fbounds(float64(rng.IntN(5)+1)*2, float64(rng.IntN(5)+1)*2)
	}
	if maybe() {
		f.Architecture = []string{catalog.ArchAMD64, catalog.ArchARM64}[rng.IntN(2)]
	}
	fam := func() string {
		p := pick().Family
		for p == "" {
			p = pick().Family
		}
		if rng.IntN(2) == 0 {
			return p
		}
		return p[:1] + "*"
	}
	if maybe() {
		f.Families = []string{fam(), fam()}
	}
	if maybe() {
		f.ExcludeFamilies = []string{fam()}
	}
	if maybe() {
		n := pick().Name
		f.Names = []string{strings.ToUpper(n[:1]) + "*" + n[len(n)-3:]}
	}
	if maybe() {
		f.ExcludeNames = []string{"*" + pick().Name[2:]}
	}
	if maybe() {
		f.Generation = bounds(rng.IntN(8), rng.IntN(8))
	}
	if maybe() {
		b := rng.IntN(2) == 0
		f.Burstable = &b
	}
	if maybe() {
		f.GPUs = bounds(rng.IntN(3), rng.IntN(9))
	}
	if maybe() {
		b := rng.IntN(2) == 0
		f.BareMetal = &b
	}
	if maybe() {
		f.Hypervisor = []string{"nitro", "xen"}[rng.IntN(2)]
	}
	if rng.IntN(8) == 0 {
		lo, hi := int64(rng.IntN(120)), int64(rng.IntN(300))
		f.MaxPods = Range[int64]{Min: &lo}
		if rng.IntN(2) == 0 && hi >= lo {
			f.MaxPods.Max = &hi
		}
		f.Overhead.EKS.PrefixDelegation = rng.IntN(2) == 0
	}
	if maybe() {
		f.EBSBaselineIOPS = bounds(pick().EBSBaselineIOPS, pick().EBSBaselineIOPS)
	}
	if maybe() {
		f.EBSBaselineThroughputMBps = fbounds(pick().EBSBaselineThroughputMBps, pick().EBSBaselineThroughputMBps)
	}
	if maybe() {
		f.MaxDataDisks = bounds(pick().MaxDataDisks, pick().MaxDataDisks)
	}
	if maybe() {
		f.UncachedDiskIOPS = bounds(pick().UncachedDiskIOPS, pick().UncachedDiskIOPS)
	}
	if maybe() {
		f.UncachedDiskMBps = bounds(pick().UncachedDiskMBps, pick().UncachedDiskMBps)
	}
	if maybe() {
		f.PricePerHour = fbounds(pick().PriceUSDPerHour, pick().PriceUSDPerHour)
	}
	f.SortBy = SortKeys[rng.IntN(len(SortKeys))]
	return f
}

// TestApplyAgreesWithReference: over random filters on all three clouds, every row Apply returns
// satisfies every filter, no satisfying row is missing, the order follows SortBy, and an empty result
// carries exactly one warning naming a filter that is set.
func TestApplyAgreesWithReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 2026))
	n := 300
	if testing.Short() {
		n = 100
	}
	nonEmpty := 0
	for _, cloud := range catalog.Clouds {
		rows := catalog.All(cloud)
		for range n {
			f := randomFilter(rng, rows)
			got, ws, err := f.Apply(rows)
			if err != nil {
				t.Fatalf("%s %+v: %v", cloud, f, err)
			}
			var want []string
			for _, r := range rows {
				if reference(f, r) {
					want = append(want, r.Name)
				}
			}
			g := names(got)
			if len(got) > 0 {
				nonEmpty++
			}
			if !slices.Equal(slices.Sorted(slices.Values(g)), want) {
				t.Fatalf("%s %+v:\ngot  %v\nwant %v", cloud, f, g, want)
			}
			for i := 1; i < len(got); i++ {
				if sortValue(got[i-1], f.SortBy) > 0 && sortValue(got[i], f.SortBy) > 0 && sortValue(got[i-1], f.SortBy) > sortValue(got[i], f.SortBy) {
					t.Fatalf("%s %+v: not sorted by %s at %d: %v", cloud, f, f.SortBy, i, g)
				}
			}
			if (len(got) == 0) != (len(ws) == 1) || (len(ws) == 1 && (ws[0].Code != WarnEmpty || ws[0].Path.IsRoot())) {
				t.Fatalf("%s %+v: %d rows, warnings %+v", cloud, f, len(got), ws)
			}
		}
	}
	if nonEmpty < n/4 {
		t.Errorf("only %d of %d random filters kept any row: the generator is too strict to test much", nonEmpty, 3*n)
	}
}

func sortValue(t catalog.InstanceType, k SortKey) float64 {
	switch k {
	case SortPrice:
		return t.PriceUSDPerHour
	case SortVCPU:
		return float64(t.VCPU)
	case SortMemory:
		return float64(t.MemoryMiB)
	}
	return 0
}

// FuzzGeneration: Generation never panics, never goes negative and reads at most four digits, whatever
// the name and family.
func FuzzGeneration(f *testing.F) {
	for _, s := range []string{"m6i.large", "u-6tb1.metal", "Standard_D4s_v5", "Standard_A2", "n2-standard-4", "_v", "x_v99999"} {
		f.Add(s, "")
	}
	f.Fuzz(func(t *testing.T, name, family string) {
		for _, c := range catalog.Clouds {
			if g := Generation(catalog.InstanceType{Cloud: c, Name: name, Family: family}); g < 0 || g > 9999 {
				t.Fatalf("Generation(%s, %q, %q) = %d", c, name, family, g)
			}
		}
	})
}

// TestApplyUnknownFamily: a family pattern that matches no family of the catalog is a warning on it with the closest
// families, whether or not other patterns match rows; a wildcard that matches a family is no typo.
func TestApplyUnknownFamily(t *testing.T) {
	aws := catalog.All(catalog.AWS)
	got, ws, err := Filter{Families: []string{"m5x", "c7*"}, ExcludeFamilies: []string{"t9"}}.Apply(aws)
	if err != nil || len(got) == 0 || len(ws) != 2 {
		t.Fatalf("got %d rows, warnings %v, err %v", len(got), ws, err)
	}
	if w := ws[0]; w.Code != WarnUnknownFamily || w.Path.String() != "Families[0]" ||
		!strings.HasPrefix(w.Message, `family "m5x" is not a family of the aws catalog, so it matches no type; did you mean "m5", `) {
		t.Errorf("warning %s at %s: %s", w.Code, w.Path, w.Message)
	}
	if w := ws[1]; w.Path.String() != "ExcludeFamilies[0]" || !strings.Contains(w.Message, `"t9"`) {
		t.Errorf("warning %s at %s: %s", w.Code, w.Path, w.Message)
	}
	// Every family as written matches: no warning.
	if _, ws, _ := (Filter{Families: []string{"m5", "c7*"}}).Apply(aws); len(ws) != 0 {
		t.Errorf("warnings for real families: %v", ws)
	}
}
