package disk

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/resource"
)

// Type is a disk type as the cloud's API and CSI driver spell it: an AWS EBS volume type ("gp3"), an
// Azure managed-disk SKU name ("Premium_LRS") or a GCP disk type ("pd-balanced").
type Type string

// The disk types the planner models (disks.md §2, §4, §6).
const (
	GP2      Type = "gp2"      // AWS General Purpose SSD, I/O credits (§2.2)
	GP3      Type = "gp3"      // AWS General Purpose SSD, provisioned (§2.3)
	IO1      Type = "io1"      // AWS Provisioned IOPS SSD (§2.4)
	IO2      Type = "io2"      // AWS Provisioned IOPS SSD, Block Express (§2.5)
	ST1      Type = "st1"      // AWS Throughput Optimized HDD (§2.6)
	SC1      Type = "sc1"      // AWS Cold HDD (§2.6)
	Standard Type = "standard" // AWS magnetic, previous generation (§2.7)

	PremiumLRS     Type = "Premium_LRS"     // Azure Premium SSD, P tiers (§4.2)
	PremiumZRS     Type = "Premium_ZRS"     // Azure Premium SSD, zone-redundant; same tiers (§4.9)
	StandardSSDLRS Type = "StandardSSD_LRS" // Azure Standard SSD, E tiers (§4.3)
	StandardSSDZRS Type = "StandardSSD_ZRS" // Azure Standard SSD, zone-redundant; same tiers (§4.9)
	StandardLRS    Type = "Standard_LRS"    // Azure Standard HDD, S tiers (§4.4)
	PremiumV2LRS   Type = "PremiumV2_LRS"   // Azure Premium SSD v2, provisioned (§4.5)
	UltraSSDLRS    Type = "UltraSSD_LRS"    // Azure Ultra Disk, provisioned (§4.6)

	PDStandard        Type = "pd-standard"        // GCP standard persistent disk (§6)
	PDBalanced        Type = "pd-balanced"        // GCP balanced persistent disk (§6)
	PDSSD             Type = "pd-ssd"             // GCP SSD persistent disk (§6)
	PDExtreme         Type = "pd-extreme"         // GCP extreme persistent disk, provisioned IOPS (§6)
	HyperdiskBalanced Type = "hyperdisk-balanced" // GCP Hyperdisk Balanced, provisioned (§6)
)

// Types lists every modelled disk type, grouped by cloud in the order of Clouds.
var Types = []Type{
	GP2, GP3, IO1, IO2, ST1, SC1, Standard,
	PremiumLRS, PremiumZRS, StandardSSDLRS, StandardSSDZRS, StandardLRS, PremiumV2LRS, UltraSSDLRS,
	PDStandard, PDBalanced, PDSSD, PDExtreme, HyperdiskBalanced,
}

// TypesOf returns the modelled disk types of one cloud, in the order of Types.
func TypesOf(c catalog.Cloud) []Type {
	var out []Type
	for _, t := range Types {
		if t.Cloud() == c {
			out = append(out, t)
		}
	}
	return out
}

// Cloud returns the cloud a disk type belongs to, or "" for a type the planner does not model.
func (t Type) Cloud() catalog.Cloud {
	if info, ok := typeInfos[t]; ok {
		return info.cloud
	}
	return ""
}

// ThroughputUnit returns the unit in which the type's cloud publishes volume throughput: MiB/s for AWS
// EBS and GCP, MB/s for Azure (§0.2). It is MB/s for an unknown type.
func (t Type) ThroughputUnit() Unit {
	if info, ok := typeInfos[t]; ok {
		return info.unit
	}
	return MBPerSec
}

// ParseType validates a disk type name for a cloud. Names are matched exactly, as the clouds and CSI
// drivers compare them; a name that differs only in case is reported with the correct spelling.
func ParseType(c catalog.Cloud, s string) (Type, error) {
	t := Type(s)
	if t.Cloud() == c && c != "" {
		return t, nil
	}
	valid := TypesOf(c)
	if len(valid) == 0 {
		return "", fmt.Errorf("unknown cloud %q; valid clouds are %s", c, field.QuoteList(catalog.Clouds))
	}
	for _, v := range valid {
		if strings.EqualFold(string(v), s) {
			return "", fmt.Errorf("unknown %s disk type %q: names are case-sensitive; did you mean %q?", c, s, v)
		}
	}
	if other := t.Cloud(); other != "" {
		return "", fmt.Errorf("disk type %q belongs to %s, not %s; %s types are %s", s, other, c, c, field.QuoteList(valid))
	}
	return "", fmt.Errorf("unknown %s disk type %q; valid types are %s", c, s, field.QuoteList(valid))
}

// Unit is a throughput unit: a name and the bytes per second one unit stands for.
type Unit struct {
	Name        string // "MiB/s" or "MB/s"
	BytesPerSec int64  // 1,048,576 or 1,000,000
}

// The throughput units the clouds publish (§0.2).
var (
	MiBPerSec = Unit{Name: "MiB/s", BytesPerSec: 1 << 20}
	MBPerSec  = Unit{Name: "MB/s", BytesPerSec: 1_000_000}
)

// Of converts bytes per second into the unit.
func (u Unit) Of(bytesPerSec float64) float64 {
	if u.BytesPerSec == 0 {
		return 0
	}
	return bytesPerSec / float64(u.BytesPerSec)
}

// Rate converts a rate in the unit to bytes per second, rounded to the nearest byte. It reports
// false for a negative, non-finite or out-of-range value (above 10 TB/s).
func (u Unit) Rate(v float64) (int64, bool) {
	b := math.Round(v * float64(u.BytesPerSec))
	if math.IsNaN(b) || b < 0 || b > MaxRequiredBytesPerSec {
		return 0, false
	}
	return int64(b), true
}

// Latency converts milliseconds to a Duration, rounded to the nanosecond. It reports false for a
// value that is not positive or longer than a minute.
func Latency(ms float64) (time.Duration, bool) {
	ns := math.Round(ms * float64(time.Millisecond))
	if math.IsNaN(ns) || ns <= 0 || ns > float64(time.Minute) {
		return 0, false
	}
	return time.Duration(ns), true
}

// Pattern is an access pattern: random or sequential I/O (§7.1).
type Pattern string

// The access patterns.
const (
	Random     Pattern = "random"
	Sequential Pattern = "sequential"
)

// Patterns lists the access patterns, default first.
var Patterns = []Pattern{Random, Sequential}

// ParsePattern validates an access pattern name; "" is not a pattern (callers default to Random).
func ParsePattern(s string) (Pattern, error) {
	for _, p := range Patterns {
		if string(p) == s {
			return p, nil
		}
	}
	return "", fmt.Errorf("unknown access pattern %q; valid patterns are %s", s, field.QuoteList(Patterns))
}

// Caching is an Azure host-caching mode of a data disk (§5.2): the CSI cachingMode parameter.
type Caching string

// The host-caching modes.
const (
	CachingNone      Caching = "None"
	CachingReadOnly  Caching = "ReadOnly"
	CachingReadWrite Caching = "ReadWrite"
)

// CachingModes lists the host-caching modes, default first.
var CachingModes = []Caching{CachingNone, CachingReadOnly, CachingReadWrite}

// cached reports whether the mode sends the disk's traffic through the host cache.
func (c Caching) cached() bool { return c == CachingReadOnly || c == CachingReadWrite }

// Limit names what bounds an effective rate.
type Limit string

// The limits an effective rate can be bound by.
const (
	// LimitVolume is the volume's own limit: a size formula (gp2, st1, GCP) or provisioned values
	// (gp3, io1, io2, PremiumV2_LRS, UltraSSD_LRS, pd-extreme, Hyperdisk).
	LimitVolume Limit = "volume"
	// LimitTier is the limit of an Azure fixed tier (P, E or S) the size rounds up to.
	LimitTier Limit = "tier"
	// LimitInstance is the node's share of its instance or VM disk limit.
	LimitInstance Limit = "instance"
	// LimitQueueDepth is the latency bound: queue depth / latency (Little's law, §7.4).
	LimitQueueDepth Limit = "queue_depth"
)

// Limits lists every Limit, in the order ties are broken (the first wins).
var Limits = []Limit{LimitVolume, LimitTier, LimitInstance, LimitQueueDepth}

// Severity says whether a finding fails the plan.
type Severity string

// The severities.
const (
	SeverityError   Severity = "error"
	SeverityWarning Severity = "warning"
)

// Verdict is the outcome of checking a requirement against a volume and node (§7.6).
type Verdict string

// The verdicts.
const (
	Pass Verdict = "pass" // sustained fit
	Warn Verdict = "warn" // burst-only fit, or an assumption was needed
	Fail Verdict = "fail" // no fit
)

// The paths of the inputs findings refer to. Volume paths are relative to a Spec (NewVolume); Evaluate
// puts "Spec" before them. Query paths are relative to a Query; class paths to a Class.
var (
	pathType            = field.NewPath("Type")
	pathSize            = field.NewPath("SizeGiB")
	pathIOPS            = field.NewPath("IOPS")
	pathThroughput      = field.NewPath("Throughput")
	pathBursting        = field.NewPath("Bursting")
	pathPerformancePlus = field.NewPath("PerformancePlus")

	pathSpec               = field.NewPath("Spec")
	pathNode               = field.NewPath("Node")
	pathVolumesPerNode     = field.NewPath("VolumesPerNode")
	pathBlockSize          = field.NewPath("Access", "BlockSize")
	pathPattern            = field.NewPath("Access", "Pattern")
	pathQueueDepth         = field.NewPath("Access", "QueueDepth")
	pathLatency            = field.NewPath("Access", "Latency")
	pathRequiredIOPS       = field.NewPath("Requirement", "IOPS")
	pathRequiredThroughput = field.NewPath("Requirement", "BytesPerSec")
	pathIOPSShape          = field.NewPath("Requirement", "IOPSShape")
	pathThroughputShape    = field.NewPath("Requirement", "ThroughputShape")
	pathCaching            = field.NewPath("Caching")
	pathCandidates         = field.NewPath("Candidates")

	pathProvisioner = field.NewPath("Provisioner")
	pathBinding     = field.NewPath("VolumeBindingMode")
	pathSizes       = field.NewPath("SizesGiB")
)

// ParameterPath returns the path of a StorageClass parameter: Parameters[key].
func ParameterPath(key string) field.Path { return field.NewPath("Parameters").Key(key) }

// Finding is a rule outcome: an invalid input (returned, as a *field.Error, by NewVolume, Evaluate,
// Recommend and ParseProvisioner) or a fit result (collected in a Result or a ClassReport). It
// implements error.
type Finding struct {
	Rule     string     // stable rule id, e.g. "EBS-V4"
	Severity Severity   // error or warning
	Path     field.Path // the input at fault, in the planner's field names; the root when none
	Value    string     // the value at fault, as text, when known
	// Unmet marks a requirement that the volume or node cannot meet (as opposed to an invalid input);
	// callers may choose to report these as warnings.
	Unmet   bool
	Message string // full sentence(s) with the numbers and units; quotes the rule
}

// Error returns the rule id and the message.
func (f *Finding) Error() string {
	if f.Rule == "" {
		return f.Message
	}
	return f.Rule + ": " + f.Message
}

func errorf(rule string, p field.Path, format string, args ...any) *Finding {
	return &Finding{Rule: rule, Severity: SeverityError, Path: p, Message: fmt.Sprintf(format, args...)}
}

func warnf(rule string, p field.Path, format string, args ...any) Finding {
	return Finding{Rule: rule, Severity: SeverityWarning, Path: p, Message: fmt.Sprintf(format, args...)}
}

// Input returns the finding as an input error: its path, and its rule and message as the detail.
func (f *Finding) Input() *field.Error {
	return &field.Error{Path: f.Path, Value: f.Value, Detail: f.Error()}
}

// inputErr turns an internal *Finding error into a *field.Error with p put before its path; other
// errors pass unchanged.
func inputErr(err error, p field.Path) error {
	f, ok := err.(*Finding)
	if !ok {
		return err
	}
	e := f.Input()
	e.Path = p.Join(e.Path)
	return e
}

// num formats a float with up to two decimals and thousands separators: 81.25 → "81.25", 9420.8 →
// "9,420.8", 1100 → "1,100".
func num(v float64) string {
	s := fmt.Sprintf("%.2f", v)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	whole, frac, _ := strings.Cut(s, ".")
	var n int64
	neg := strings.HasPrefix(whole, "-")
	fmt.Sscan(strings.TrimPrefix(whole, "-"), &n)
	out := resource.Group(n)
	if neg {
		out = "-" + out
	}
	if frac != "" {
		out += "." + frac
	}
	return out
}

// rate formats bytes per second in a unit: "125 MB/s".
func rate(bytesPerSec float64, u Unit) string {
	return num(u.Of(bytesPerSec)) + " " + u.Name
}
