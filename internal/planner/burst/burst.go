// Package burst computes CPU credit budgets of burstable instance types (AWS T2, T3, T3a, T4g; Azure
// B-series v1 and Bsv2/Basv2/Bpsv2; GCP shared-core) and checks whether a node of such a type can carry a
// sustained CPU demand: net credits per hour, hours until the balance is empty, the CPU delivered once it
// is, unlimited-mode surplus cost, and the largest load that never exhausts the balance. It implements
// internal/sources/domain/burst.md in exact integer arithmetic; the per-type figures are generated from the
// project's data tables (see gen/), and every result names its data source and formulas.
//
// Units. One CPU credit is one vCPU-minute, so one milli-credit is one millicore-minute. Rates are held in
// milli-credits per hour and balances in milli-credits; a sustained demand of U millicores spends 60 × U
// milli-credits per hour. These units make every table value an integer (t2.2xlarge earns 81.6 credits
// per hour = 81,600 milli-credits per hour) and every threshold comparison exact.
package burst

//go:generate go run ./gen -src ../../sources/data/burst -prices gen/surplus-prices.tsv -out budgets_generated.go

import (
	"fmt"
	"sort"
	"strings"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
)

// Mode is a credit mode: what happens when the credit balance of a node is spent.
type Mode string

// The credit modes (burst.md §2).
const (
	// Standard throttles the node to its baseline when the balance is empty (AWS standard mode, every
	// Azure B-series VM, GCP shared-core).
	Standard Mode = "standard"
	// Unlimited keeps the node bursting on surplus credits and bills them (AWS only).
	Unlimited Mode = "unlimited"
)

// Modes lists every credit mode, in documentation order.
var Modes = []Mode{Standard, Unlimited}

// ParseMode validates a credit mode name. The empty string is not a mode; callers use the budget's
// DefaultMode instead.
func ParseMode(s string) (Mode, error) {
	for _, m := range Modes {
		if string(m) == s {
			return m, nil
		}
	}
	return "", fmt.Errorf("unknown credit mode %q; valid modes are %s", s, field.QuoteList(Modes))
}

// Model says how the burst capacity of an instance type is governed.
type Model string

// The burst models.
const (
	// ModelNone is a fixed-performance type: no credits, no baseline, never throttled by the cloud.
	ModelNone Model = "none"
	// ModelCredits is a CPU credit bucket (AWS T family, Azure B-series).
	ModelCredits Model = "credits"
	// ModelSharedCore is a fixed fraction of a vCPU with unplannable short bursts and no credit
	// balance (GCP shared-core, burst.md §2.6).
	ModelSharedCore Model = "shared-core"
)

// Budget is the CPU burst budget of one instance type. Values are exact integers in the package's units
// (see the package documentation). A Budget whose Model is ModelNone carries only Cloud, InstanceType
// and VCPU.
type Budget struct {
	Cloud        catalog.Cloud
	InstanceType string // as the cloud spells it ("t3a.medium", "Standard_B2s", "e2-medium")
	Family       string // "t2", "t3", "t3a", "t4g"; Azure "B" (v1), "Bsv2", "Basv2", "Bpsv2"; GCP "e2", "f1", "g1"
	Model        Model
	VCPU         int

	// EarnMilliCreditsPerHour is the earn rate E × 1000 (credits per hour). Zero for shared-core types.
	EarnMilliCreditsPerHour int64
	// MaxMilliCredits is the accrual cap C × 1000 (burst.md §1.2). Zero for shared-core types.
	MaxMilliCredits int64
	// LaunchMilliCredits is the balance a new node starts with in Standard mode, × 1000: AWS T2 launch
	// credits (30 per vCPU), Azure initial credits (30 per vCPU), else 0 (burst.md §1.3).
	LaunchMilliCredits int64
	// SharedCoreMillicores is the sustained fraction of a shared-core type, in millicores. Zero for
	// credit types, whose sustained capacity is E / 60.
	SharedCoreMillicores int64

	// DefaultMode is the credit mode a new node gets when nothing overrides it (burst.md §2.3).
	DefaultMode Mode
	// UnlimitedSupported reports whether the type can run in Unlimited mode (AWS only).
	UnlimitedSupported bool

	// SurplusPriceMicroUSD is the default unlimited-mode surplus price in millionths of a US dollar per
	// vCPU-hour (Linux; burst.md §2.4), and SurplusPriceSource names where that figure comes from and when.
	// Zero for types without an unlimited mode.
	SurplusPriceMicroUSD int64
	SurplusPriceSource   string

	// Source names the data table row of this budget: the project file and the vendor source behind it.
	Source string
}

// Burstable reports whether the type has a burst budget at all.
func (b Budget) Burstable() bool { return b.Model == ModelCredits || b.Model == ModelSharedCore }

// IgnoredOptions says why CPU credit options given for instanceType, whose budget is b, have no effect: a
// fixed-performance type (b not burstable, or no budget at all: the zero Budget) has no credits. It is ""
// for a burstable type.
func IgnoredOptions(instanceType string, b Budget) string {
	if b.Burstable() {
		return ""
	}
	return fmt.Sprintf("%s is not a burstable type, so its CPU credit options are ignored", instanceType)
}

// HasCredits reports whether the type keeps a CPU credit balance.
func (b Budget) HasCredits() bool { return b.Model == ModelCredits }

// capacityRate is the sustained capacity s expressed as the milli-credits per hour that a demand of s
// would spend: E × 1000 for credit types, 60 × s for shared-core types. A demand U never exhausts the
// balance exactly when 60 × U ≤ capacityRate.
func (b Budget) capacityRate() int64 {
	if b.Model == ModelSharedCore {
		return 60 * b.SharedCoreMillicores
	}
	return b.EarnMilliCreditsPerHour
}

// SustainedMillicores is the sustained capacity s = E / 60 (or the shared-core fraction), rounded down to
// a whole millicore: the largest integer demand that never exhausts the balance (burst.md §1.1).
func (b Budget) SustainedMillicores() int64 {
	if !b.Burstable() {
		return 0
	}
	return b.capacityRate() / 60
}

// BaselinePercentPerVCPU is the baseline b × 100 derived as E / (0.6 × v), which is exact even for the
// Azure v1 rows whose printed base percentage is rounded (burst.md §1.1).
func (b Budget) BaselinePercentPerVCPU() float64 {
	if !b.Burstable() || b.VCPU <= 0 {
		return 0
	}
	// capacityRate / 60 millicores per node, / (1000 × v) per vCPU, × 100 per cent.
	return float64(b.capacityRate()) / float64(600*int64(b.VCPU))
}

// StartMilliCredits is the balance, × 1000, that a freshly launched node has in the given mode: AWS T2
// launch credits in standard mode only, Azure initial credits, and zero otherwise (burst.md §1.3).
func (b Budget) StartMilliCredits(m Mode) int64 {
	if m == Unlimited || !b.HasCredits() {
		return 0
	}
	return b.LaunchMilliCredits
}

// NotBurstable returns the budget of a fixed-performance instance type: no credits, no baseline. Checks
// against it report VerdictNotBurstable and never fail.
func NotBurstable(cloud catalog.Cloud, instanceType string, vcpu int) Budget {
	return Budget{Cloud: cloud, InstanceType: instanceType, Model: ModelNone, VCPU: vcpu, DefaultMode: Standard}
}

// Lookup returns the burst budget of a burstable instance type from the embedded tables. Names match
// exactly first, then case-insensitively. The boolean is false when the type is not in the tables: either
// it is not burstable or it is unknown; callers tell the two apart with the instance catalog.
func Lookup(cloud catalog.Cloud, name string) (Budget, bool) {
	for i := range budgets {
		if budgets[i].Cloud == cloud && budgets[i].InstanceType == name {
			return budgets[i], true
		}
	}
	for i := range budgets {
		if budgets[i].Cloud == cloud && strings.EqualFold(budgets[i].InstanceType, name) {
			return budgets[i], true
		}
	}
	return Budget{}, false
}

// Names returns the instance types with a burst budget on a cloud, in table order.
func Names(cloud catalog.Cloud) []string {
	var out []string
	for i := range budgets {
		if budgets[i].Cloud == cloud {
			out = append(out, budgets[i].InstanceType)
		}
	}
	return out
}

// Families returns the burstable families of a cloud, sorted.
func Families(cloud catalog.Cloud) []string {
	seen := map[string]bool{}
	var out []string
	for i := range budgets {
		if budgets[i].Cloud == cloud && !seen[budgets[i].Family] {
			seen[budgets[i].Family] = true
			out = append(out, budgets[i].Family)
		}
	}
	sort.Strings(out)
	return out
}
