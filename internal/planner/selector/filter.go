package selector

import (
	"cmp"
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/disk"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/overhead"
)

// Number is the type of a Range's bounds.
type Number interface{ ~int | ~int64 | ~float64 }

// Range bounds a value on both sides, inclusively; a nil bound is open. The zero Range holds every value.
type Range[T Number] struct {
	Min *T
	Max *T
}

// Between returns the Range [lo, hi].
func Between[T Number](lo, hi T) Range[T] { return Range[T]{Min: &lo, Max: &hi} }

// AtLeast returns the Range [lo, ∞).
func AtLeast[T Number](lo T) Range[T] { return Range[T]{Min: &lo} }

// AtMost returns the Range (−∞, hi].
func AtMost[T Number](hi T) Range[T] { return Range[T]{Max: &hi} }

// IsSet reports whether r has a bound.
func (r Range[T]) IsSet() bool { return r.Min != nil || r.Max != nil }

// Contains reports whether v lies within r.
func (r Range[T]) Contains(v T) bool {
	return (r.Min == nil || v >= *r.Min) && (r.Max == nil || v <= *r.Max)
}

// String renders r as "4–8", "at least 4" or "at most 8".
func (r Range[T]) String() string {
	f := func(v T) string { return strconv.FormatFloat(float64(v), 'f', -1, 64) }
	switch {
	case r.Min != nil && r.Max != nil:
		return f(*r.Min) + "–" + f(*r.Max)
	case r.Min != nil:
		return "at least " + f(*r.Min)
	case r.Max != nil:
		return "at most " + f(*r.Max)
	}
	return "any"
}

// validate reports a negative bound or a minimum above the maximum.
func (r Range[T]) validate(p field.Path, what string) field.Errors {
	var errs field.Errors
	if r.Min != nil && *r.Min < 0 {
		errs = append(errs, field.Invalid(p.Child("Min"), fmt.Sprint(*r.Min), "the minimum %s %v is negative", what, *r.Min))
	}
	if r.Max != nil && *r.Max < 0 {
		errs = append(errs, field.Invalid(p.Child("Max"), fmt.Sprint(*r.Max), "the maximum %s %v is negative", what, *r.Max))
	}
	if r.Min != nil && r.Max != nil && *r.Min > *r.Max {
		errs = append(errs, field.Invalid(p.Child("Min"), fmt.Sprint(*r.Min),
			"the minimum %s %v is above the maximum %v (min > max); lower the minimum or raise the maximum", what, *r.Min, *r.Max))
	}
	return errs
}

// SortKey orders the rows Apply returns.
type SortKey string

// The sort keys. Ties, and rows with no figure for the key (sorted last), go by name.
const (
	SortName   SortKey = "name"
	SortPrice  SortKey = "price"
	SortVCPU   SortKey = "vcpu"
	SortMemory SortKey = "memory"
)

// SortKeys lists every sort key; SortName is the default.
var SortKeys = []SortKey{SortName, SortPrice, SortVCPU, SortMemory}

// Filter selects catalog rows. Every set field must hold for a row to be kept; the zero Filter keeps
// every row. A row with no figure for a bounded number (a zero in the catalog, which means unknown)
// never satisfies that bound. Patterns use path.Match syntax ("m6*", "Standard_D*s_v5") and match
// case-insensitively.
type Filter struct {
	// VCPU bounds the vCPUs the guest sees.
	VCPU Range[int]
	// MemoryGiB bounds the nominal memory in GiB (MiB / 1024).
	MemoryGiB Range[float64]
	// MemoryPerVCPUGiB bounds the nominal memory per vCPU in GiB.
	MemoryPerVCPUGiB Range[float64]
	// Architecture is catalog.ArchAMD64 or catalog.ArchARM64; "" keeps both.
	Architecture string
	// Families keeps rows whose family (AWS family "m6i", Azure SKU family, GCP series "n2") matches
	// one of the patterns; ExcludeFamilies drops rows whose family matches one.
	Families        []string
	ExcludeFamilies []string
	// Names keeps rows whose name matches one of the patterns; ExcludeNames drops rows matching one.
	Names        []string
	ExcludeNames []string
	// Generation bounds the generation Generation reads from a row; rows of unknown generation fail.
	Generation Range[int]
	// Burstable, when not nil, keeps only (true) or drops (false) the types whose sustained CPU is below their vCPUs:
	// burstable types (AWS T, Azure B) and GCP shared-core types.
	Burstable *bool
	// GPUs bounds the GPU count (0 is a real count here: a type without GPUs).
	GPUs Range[int]
	// BareMetal, when not nil, keeps only bare-metal (true) or only virtualised (false) types.
	BareMetal *bool
	// Hypervisor keeps AWS types of this hypervisor ("nitro", "xen"); "" keeps all.
	Hypervisor string
	// MaxPods bounds a node's max pods under the overhead options of Overhead.
	MaxPods Range[int64]
	// Overhead holds the node-image options MaxPods is computed under (Profile "" is the cloud's
	// default); Instance and DaemonSets are ignored.
	Overhead overhead.Input
	// EBS limits of the instance (AWS): baseline IOPS and baseline throughput in MB/s.
	EBSBaselineIOPS           Range[int]
	EBSBaselineThroughputMBps Range[float64]
	// Azure VM disk limits: data disks, uncached IOPS and uncached MB/s.
	MaxDataDisks     Range[int]
	UncachedDiskIOPS Range[int]
	UncachedDiskMBps Range[int]
	// PricePerHour bounds the reference on-demand price in USD per hour.
	PricePerHour Range[float64]
	// SortBy orders the result; "" is SortName.
	SortBy SortKey
}

// Warning codes of Apply.
const (
	// WarnEmpty: no row satisfies every filter; the warning's path is the filter that removed the last rows.
	WarnEmpty = "selector.empty"
	// WarnUnknownFamily: a pattern of the families filter matches no family of the catalog (a typo, most likely),
	// named with the closest families.
	WarnUnknownFamily = "selector.unknown-family"
)

// check is one filter of a Filter: the rows it keeps, the input it comes from and how to say it.
type check struct {
	path field.Path
	what string
	keep func(*catalog.InstanceType) bool
	// value, when not nil, is the row's figure the check bounds, for the empty-result hint.
	value func(*catalog.InstanceType) float64
	unit  string
}

func known[T Number](r Range[T], v T) bool { return v > 0 && r.Contains(v) }

func memGiB(t *catalog.InstanceType) float64 { return float64(t.MemoryMiB) / 1024 }

func memPerVCPU(t *catalog.InstanceType) float64 {
	if t.VCPU <= 0 || t.MemoryMiB <= 0 {
		return 0
	}
	return float64(t.MemoryMiB) / 1024 / float64(t.VCPU)
}

// matchAny reports whether s matches one of the patterns, ignoring letter case.
func matchAny(patterns []string, s string) bool {
	s = strings.ToLower(s)
	for _, p := range patterns {
		if ok, _ := path.Match(strings.ToLower(p), s); ok {
			return true
		}
	}
	return false
}

// MaxPods returns the max pods of a node of t under the overhead options in (its Profile "" meaning
// t's cloud's default), or 0 when the overhead model cannot size t.
func MaxPods(t catalog.InstanceType, in overhead.Input) int64 {
	in.Instance = overhead.InstanceFromCatalog(t)
	in.DaemonSets = nil
	if in.Profile == "" {
		in.Profile = overhead.DefaultProfile(t.Cloud)
	}
	r, err := overhead.Compute(in)
	if err != nil {
		return 0
	}
	return r.MaxPods
}

// checks returns the filter's active checks in the order the empty-result diagnosis walks them: specs
// first, then families and names, then capabilities, disks and price.
func (f *Filter) checks() []check {
	var cs []check
	num := func(name string, what, unit string, set bool, keep func(*catalog.InstanceType) bool, value func(*catalog.InstanceType) float64) {
		if set {
			cs = append(cs, check{path: field.NewPath(name), what: what, keep: keep, value: value, unit: unit})
		}
	}
	num("VCPU", "the vCPU range "+f.VCPU.String(), "vCPUs", f.VCPU.IsSet(),
		func(t *catalog.InstanceType) bool { return known(f.VCPU, t.VCPU) },
		func(t *catalog.InstanceType) float64 { return float64(t.VCPU) })
	num("MemoryGiB", "the memory range "+f.MemoryGiB.String()+" GiB", "GiB", f.MemoryGiB.IsSet(),
		func(t *catalog.InstanceType) bool { return known(f.MemoryGiB, memGiB(t)) }, memGiB)
	num("MemoryPerVCPUGiB", "the memory per vCPU range "+f.MemoryPerVCPUGiB.String()+" GiB", "GiB per vCPU", f.MemoryPerVCPUGiB.IsSet(),
		func(t *catalog.InstanceType) bool { return known(f.MemoryPerVCPUGiB, memPerVCPU(t)) }, memPerVCPU)
	if f.Architecture != "" {
		cs = append(cs, check{path: field.NewPath("Architecture"), what: "the architecture " + strconv.Quote(f.Architecture),
			keep: func(t *catalog.InstanceType) bool { return t.Architecture == f.Architecture }})
	}
	if len(f.Families) > 0 {
		cs = append(cs, check{path: field.NewPath("Families"), what: "the families " + field.QuoteList(f.Families),
			keep: func(t *catalog.InstanceType) bool { return matchAny(f.Families, t.Family) }})
	}
	if len(f.ExcludeFamilies) > 0 {
		cs = append(cs, check{path: field.NewPath("ExcludeFamilies"), what: "the excluded families " + field.QuoteList(f.ExcludeFamilies),
			keep: func(t *catalog.InstanceType) bool { return !matchAny(f.ExcludeFamilies, t.Family) }})
	}
	if len(f.Names) > 0 {
		cs = append(cs, check{path: field.NewPath("Names"), what: "the names " + field.QuoteList(f.Names),
			keep: func(t *catalog.InstanceType) bool { return matchAny(f.Names, t.Name) }})
	}
	if len(f.ExcludeNames) > 0 {
		cs = append(cs, check{path: field.NewPath("ExcludeNames"), what: "the excluded names " + field.QuoteList(f.ExcludeNames),
			keep: func(t *catalog.InstanceType) bool { return !matchAny(f.ExcludeNames, t.Name) }})
	}
	num("Generation", "the generation range "+f.Generation.String(), "(generation)", f.Generation.IsSet(),
		func(t *catalog.InstanceType) bool { return known(f.Generation, Generation(*t)) },
		func(t *catalog.InstanceType) float64 { return float64(Generation(*t)) })
	if f.Burstable != nil {
		cs = append(cs, check{path: field.NewPath("Burstable"), what: map[bool]string{true: "burstable only", false: "no burstable types"}[*f.Burstable],
			keep: func(t *catalog.InstanceType) bool { return t.SustainedBelowVCPUs() == *f.Burstable }})
	}
	num("GPUs", "the GPU range "+f.GPUs.String(), "GPUs", f.GPUs.IsSet(),
		func(t *catalog.InstanceType) bool { return f.GPUs.Contains(t.GPUCount) },
		func(t *catalog.InstanceType) float64 { return float64(t.GPUCount) })
	if f.BareMetal != nil {
		cs = append(cs, check{path: field.NewPath("BareMetal"), what: map[bool]string{true: "bare metal only", false: "no bare-metal types"}[*f.BareMetal],
			keep: func(t *catalog.InstanceType) bool { return t.BareMetal == *f.BareMetal }})
	}
	if f.Hypervisor != "" {
		cs = append(cs, check{path: field.NewPath("Hypervisor"), what: "the hypervisor " + strconv.Quote(f.Hypervisor),
			keep: func(t *catalog.InstanceType) bool { return strings.EqualFold(t.Hypervisor, f.Hypervisor) }})
	}
	if f.MaxPods.IsSet() {
		pods := map[string]int64{}
		podsOf := func(t *catalog.InstanceType) int64 {
			n, ok := pods[t.Name]
			if !ok {
				n = MaxPods(*t, f.Overhead)
				pods[t.Name] = n
			}
			return n
		}
		num("MaxPods", "the max pods range "+f.MaxPods.String(), "pods", true,
			func(t *catalog.InstanceType) bool { return known(f.MaxPods, podsOf(t)) },
			func(t *catalog.InstanceType) float64 { return float64(podsOf(t)) })
	}
	num("EBSBaselineIOPS", "the EBS baseline IOPS range "+f.EBSBaselineIOPS.String(), "IOPS", f.EBSBaselineIOPS.IsSet(),
		func(t *catalog.InstanceType) bool { return known(f.EBSBaselineIOPS, t.EBSBaselineIOPS) },
		func(t *catalog.InstanceType) float64 { return float64(t.EBSBaselineIOPS) })
	num("EBSBaselineThroughputMBps", "the EBS baseline throughput range "+f.EBSBaselineThroughputMBps.String()+" MB/s", "MB/s", f.EBSBaselineThroughputMBps.IsSet(),
		func(t *catalog.InstanceType) bool {
			return known(f.EBSBaselineThroughputMBps, t.EBSBaselineThroughputMBps)
		},
		func(t *catalog.InstanceType) float64 { return t.EBSBaselineThroughputMBps })
	num("MaxDataDisks", "the data disk range "+f.MaxDataDisks.String(), "data disks", f.MaxDataDisks.IsSet(),
		func(t *catalog.InstanceType) bool { return known(f.MaxDataDisks, t.MaxDataDisks) },
		func(t *catalog.InstanceType) float64 { return float64(t.MaxDataDisks) })
	num("UncachedDiskIOPS", "the uncached disk IOPS range "+f.UncachedDiskIOPS.String(), "IOPS", f.UncachedDiskIOPS.IsSet(),
		func(t *catalog.InstanceType) bool { return known(f.UncachedDiskIOPS, uncachedIOPS(t)) },
		func(t *catalog.InstanceType) float64 { return float64(uncachedIOPS(t)) })
	num("UncachedDiskMBps", "the uncached disk throughput range "+f.UncachedDiskMBps.String()+" MB/s", "MB/s", f.UncachedDiskMBps.IsSet(),
		func(t *catalog.InstanceType) bool { return known(f.UncachedDiskMBps, uncachedMBps(t)) },
		func(t *catalog.InstanceType) float64 { return float64(uncachedMBps(t)) })
	num("PricePerHour", "the price range "+f.PricePerHour.String()+" USD per hour", "USD per hour", f.PricePerHour.IsSet(),
		func(t *catalog.InstanceType) bool { return known(f.PricePerHour, t.PriceUSDPerHour) },
		func(t *catalog.InstanceType) float64 { return t.PriceUSDPerHour })
	return cs
}

// Validate reports every invalid setting: a negative or inverted range, a malformed pattern, an
// unknown architecture, hypervisor or sort key. Paths use the Filter's field names.
func (f *Filter) Validate() error {
	var errs field.Errors
	errs = append(errs, f.VCPU.validate(field.NewPath("VCPU"), "vCPU count")...)
	errs = append(errs, f.MemoryGiB.validate(field.NewPath("MemoryGiB"), "memory (GiB)")...)
	errs = append(errs, f.MemoryPerVCPUGiB.validate(field.NewPath("MemoryPerVCPUGiB"), "memory per vCPU (GiB)")...)
	errs = append(errs, f.Generation.validate(field.NewPath("Generation"), "generation")...)
	errs = append(errs, f.GPUs.validate(field.NewPath("GPUs"), "GPU count")...)
	errs = append(errs, f.MaxPods.validate(field.NewPath("MaxPods"), "max pods")...)
	errs = append(errs, f.EBSBaselineIOPS.validate(field.NewPath("EBSBaselineIOPS"), "EBS baseline IOPS")...)
	errs = append(errs, f.EBSBaselineThroughputMBps.validate(field.NewPath("EBSBaselineThroughputMBps"), "EBS baseline throughput (MB/s)")...)
	errs = append(errs, f.MaxDataDisks.validate(field.NewPath("MaxDataDisks"), "data disk count")...)
	errs = append(errs, f.UncachedDiskIOPS.validate(field.NewPath("UncachedDiskIOPS"), "uncached disk IOPS")...)
	errs = append(errs, f.UncachedDiskMBps.validate(field.NewPath("UncachedDiskMBps"), "uncached disk throughput (MB/s)")...)
	errs = append(errs, f.PricePerHour.validate(field.NewPath("PricePerHour"), "price per hour")...)
	if f.Architecture != "" && f.Architecture != catalog.ArchAMD64 && f.Architecture != catalog.ArchARM64 {
		errs = append(errs, field.Invalid(field.NewPath("Architecture"), f.Architecture,
			"unknown architecture %s: the catalog knows %q and %q", field.Quote(f.Architecture), catalog.ArchAMD64, catalog.ArchARM64))
	}
	if h := strings.ToLower(f.Hypervisor); h != "" && h != "nitro" && h != "xen" {
		errs = append(errs, field.Invalid(field.NewPath("Hypervisor"), f.Hypervisor,
			"unknown hypervisor %s: the catalog knows \"nitro\" and \"xen\" (AWS only)", field.Quote(f.Hypervisor)))
	}
	for _, l := range []struct {
		name     string
		patterns []string
	}{{"Families", f.Families}, {"ExcludeFamilies", f.ExcludeFamilies}, {"Names", f.Names}, {"ExcludeNames", f.ExcludeNames}} {
		for i, p := range l.patterns {
			if _, err := path.Match(p, ""); err != nil || p == "" {
				errs = append(errs, field.Invalid(field.NewPath(l.name).At(i), p,
					"pattern %s is not a valid wildcard pattern: use * for any text, ? for one character and [a-z] for a class", field.Quote(p)))
			}
		}
	}
	if f.SortBy != "" && !slices.Contains(SortKeys, f.SortBy) {
		errs = append(errs, field.Invalid(field.NewPath("SortBy"), string(f.SortBy), "unknown sort key %s: use one of %s", field.Quote(string(f.SortBy)), field.QuoteList(SortKeys)))
	}
	if f.MaxPods.IsSet() && f.Overhead.Profile != "" {
		if _, err := overhead.ParseProfile(string(f.Overhead.Profile)); err != nil {
			errs = append(errs, field.Invalid(field.NewPath("Overhead", "Profile"), string(f.Overhead.Profile), "%v", err))
		}
	}
	return errs.Err()
}

// Apply returns the rows that satisfy every filter, sorted by SortBy. An invalid filter returns the
// errors of Validate. When no row is left, the one warning (code WarnEmpty) names the filter that
// removed the last rows, walking the filters in a fixed order, and says what the rows left before it
// offered. The input slice is not changed.
func (f Filter) Apply(rows []catalog.InstanceType) ([]catalog.InstanceType, []field.Warning, error) {
	if err := f.Validate(); err != nil {
		return nil, nil, err
	}
	cs := f.checks()
	out := make([]catalog.InstanceType, 0, len(rows))
	for i := range rows {
		if keepAll(cs, &rows[i]) {
			out = append(out, rows[i])
		}
	}
	Sort(out, f.SortBy)
	ws := append(familyWarnings(field.NewPath("Families"), f.Families, rows), familyWarnings(field.NewPath("ExcludeFamilies"), f.ExcludeFamilies, rows)...)
	if len(out) > 0 {
		return out, ws, nil
	}
	return out, append(ws, diagnose(cs, rows)), nil
}

func keepAll(cs []check, t *catalog.InstanceType) bool {
	for _, c := range cs {
		if !c.keep(t) {
			return false
		}
	}
	return true
}

// diagnose walks the checks in order and names the one after which no row is left.
func diagnose(cs []check, rows []catalog.InstanceType) field.Warning {
	if len(rows) == 0 {
		return field.Warning{Code: WarnEmpty, Message: "the catalog has no instance types for this cloud"}
	}
	cloud := rows[0].Cloud
	left := make([]*catalog.InstanceType, 0, len(rows))
	for i := range rows {
		left = append(left, &rows[i])
	}
	for k, c := range cs {
		var next []*catalog.InstanceType
		for _, t := range left {
			if c.keep(t) {
				next = append(next, t)
			}
		}
		if len(next) > 0 {
			left = next
			continue
		}
		before := "of the whole catalog"
		if k > 0 {
			before = "left by the filters before it"
		}
		msg := fmt.Sprintf("no %s instance type matches every filter: %s removed the last %d types %s", cloud, c.what, len(left), before)
		if hint := valueHint(c, left); hint != "" {
			msg += "; " + hint
		}
		if other := conflict(cs, k, rows); other != "" {
			msg += fmt.Sprintf("; it matches types by itself, and without %s the filters match some: the two conflict", other)
		}
		return field.Warning{Code: WarnEmpty, Path: c.path, Message: msg}
	}
	return field.Warning{Code: WarnEmpty, Message: fmt.Sprintf("no %s instance type matches every filter", cloud)}
}

// conflict names the earlier check that, together with check k, leaves no row, when check k keeps rows of the whole
// catalog by itself and dropping that one earlier check leaves some (families ["m7g"] with architecture x86_64: the
// families filter removed the last types, the architecture is the other half); "" otherwise.
func conflict(cs []check, k int, rows []catalog.InstanceType) string {
	alone := false
	for i := range rows {
		if cs[k].keep(&rows[i]) {
			alone = true
			break
		}
	}
	if !alone {
		return ""
	}
	for j := 0; j < k; j++ {
		for i := range rows {
			ok := true
			for m, c := range cs {
				if m != j && !c.keep(&rows[i]) {
					ok = false
					break
				}
			}
			if ok {
				return cs[j].what
			}
		}
	}
	return ""
}

// valueHint says what the rows a numeric check removed offered: "those types range from 2 to 192 vCPUs".
func valueHint(c check, rows []*catalog.InstanceType) string {
	if c.value == nil {
		return ""
	}
	lo, hi, n := 0.0, 0.0, 0
	for _, t := range rows {
		v := c.value(t)
		if v <= 0 && c.unit != "GPUs" {
			continue
		}
		if n == 0 || v < lo {
			lo = v
		}
		if n == 0 || v > hi {
			hi = v
		}
		n++
	}
	if n == 0 {
		return "the catalog has no figure for it on those types"
	}
	g := func(v float64) string { return strconv.FormatFloat(v, 'g', 6, 64) }
	if lo == hi {
		return fmt.Sprintf("those with a figure have %s %s", g(lo), c.unit)
	}
	return fmt.Sprintf("those with a figure range from %s to %s %s", g(lo), g(hi), c.unit)
}

// Sort orders rows by key ("" is SortName), ascending; ties and rows with no figure for the key
// (sorted last) go by name.
func Sort(rows []catalog.InstanceType, key SortKey) {
	value := func(t *catalog.InstanceType) float64 {
		switch key {
		case SortPrice:
			return t.PriceUSDPerHour
		case SortVCPU:
			return float64(t.VCPU)
		case SortMemory:
			return float64(t.MemoryMiB)
		}
		return 0
	}
	slices.SortStableFunc(rows, func(a, b catalog.InstanceType) int {
		va, vb := value(&a), value(&b)
		if (va > 0) != (vb > 0) {
			if va > 0 {
				return -1
			}
			return 1
		}
		if c := cmp.Compare(va, vb); c != 0 {
			return c
		}
		return strings.Compare(a.Name, b.Name)
	})
}

// Generation returns the generation of an instance type, or 0 when its name does not say: on AWS and
// GCP the digits after the family's leading letters (m6i → 6, c7g → 7, x2idn → 2, n2 → 2, c3d → 3);
// on Azure the N of a "_vN" part of the name (Standard_D4s_v5 → 5), and 1 for a name without one
// (Standard_A2, Standard_DS1 are first-generation sizes).
func Generation(t catalog.InstanceType) int {
	if t.Cloud == catalog.Azure {
		name := strings.ToLower(t.Name)
		for i := 0; i+2 < len(name); i++ {
			if name[i] == '_' && name[i+1] == 'v' {
				if n := leadingDigits(name[i+2:]); n > 0 {
					return n
				}
			}
		}
		return 1
	}
	fam := t.Family
	if fam == "" {
		fam, _, _ = strings.Cut(t.Name, ".")
		fam, _, _ = strings.Cut(fam, "-")
	}
	i := 0
	for i < len(fam) && fam[i] >= 'a' && fam[i] <= 'z' {
		i++
	}
	if i == 0 {
		return 0
	}
	return leadingDigits(fam[i:])
}

// leadingDigits returns the number s starts with, or 0.
func leadingDigits(s string) int {
	n, i := 0, 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' && i < 4 {
		n = n*10 + int(s[i]-'0')
		i++
	}
	return n
}

// uncachedIOPS and uncachedMBps are an Azure size's uncached disk limits as the node-level disk check counts them
// (disk.AzureUncached: Microsoft's figures over the catalog row's); 0 when unknown.
func uncachedIOPS(t *catalog.InstanceType) int {
	iops, _, _ := disk.AzureUncached(*t)
	return int(iops)
}

func uncachedMBps(t *catalog.InstanceType) int {
	_, mbps, _ := disk.AzureUncached(*t)
	return int(mbps)
}

// familyWarnings names each pattern of the families filter (Families or ExcludeFamilies, at path) that matches no
// family of rows, with the closest families: `family "m5x" is not a family of the aws catalog; did you mean "m5",
// "m5a" or "m5d"?`.
func familyWarnings(path field.Path, patterns []string, rows []catalog.InstanceType) []field.Warning {
	if len(patterns) == 0 || len(rows) == 0 {
		return nil
	}
	seen := map[string]bool{}
	var families []string
	for i := range rows {
		if f := rows[i].Family; f != "" && !seen[f] {
			seen[f] = true
			families = append(families, f)
		}
	}
	slices.Sort(families)
	var ws []field.Warning
	for i, p := range patterns {
		if slices.ContainsFunc(families, func(f string) bool { return matchAny([]string{p}, f) }) {
			continue
		}
		msg := fmt.Sprintf("family %s is not a family of the %s catalog, so it matches no type", field.Quote(p), rows[0].Cloud)
		if near := catalog.Closest(p, families); len(near) > 0 {
			msg += "; did you mean " + field.QuoteOr(near) + "?"
		}
		ws = append(ws, field.Warning{Code: WarnUnknownFamily, Path: path.At(i), Message: msg})
	}
	return ws
}
