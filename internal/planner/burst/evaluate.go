package burst

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
)

// Formula identifiers (burst.md §1 and §4). They are stable: tests, docs and users refer to them.
const (
	FEarnRate        = "burst.earn-rate"
	FSustained       = "burst.sustained"
	FStartBalance    = "burst.start-balance"
	FNetCredits      = "burst.net-credits"
	FExhaustion      = "burst.hours-to-exhaustion"
	FDelivered       = "burst.delivered-after-exhaustion"
	FSurplusCost     = "burst.surplus-cost"
	FMaxSustainable  = "burst.max-sustainable"
	FNotBurstable    = "burst.not-burstable"
	FPodLoad         = "burst.pod-load"
	FMinHoursRule    = "burst.rule.min-hours"
	FSurplusCostRule = "burst.rule.max-surplus-cost"
)

// Formulas maps every formula identifier to its rule.
var Formulas = map[string]string{
	FEarnRate:        "E = b × v × 60 credits per hour (from the data table); C from the table",
	FSustained:       "s = E / 60 vCPU (credit types); the sustained fraction for GCP shared-core",
	FStartBalance:    "launch = 30 × v on AWS T2 standard and Azure, 0 on T3/T3a/T4g, T2 unlimited and GCP; full = C",
	FNetCredits:      "net credits per hour = E − 60 × min(U, v) (negative: the balance drains at D = −net)",
	FExhaustion:      "T = B / D hours when D > 0, otherwise never",
	FDelivered:       "delivered CPU = min(U, s); share of demand served φ = min(1, s / U)",
	FSurplusCost:     "R = max(0, U − s) vCPU; cost = R × G per hour, × 730 per month (AWS unlimited)",
	FMaxSustainable:  "largest U with U ≤ s; pods = floor((s − U_other) / x)",
	FNotBurstable:    "fixed-performance types have no credit budget and are never throttled by the cloud",
	FPodLoad:         "U = U_sys + pods per node × x",
	FMinHoursRule:    "fail in standard mode (and on Azure and GCP) when T is less than the minimum run time before throttling",
	FSurplusCostRule: "fail in unlimited mode when the surplus cost per month exceeds the given maximum",
}

// HoursPerMonth is the month length used for monthly costs (burst.md §4.5).
const HoursPerMonth = 730

// DefaultMinHours is the default time a node must run before it may be throttled.
const DefaultMinHours = 24

// KubernetesNote explains why Kubernetes cannot catch credit exhaustion (burst.md §5), in standard mode and on
// Azure and GCP, where the node is held to its baseline. UnlimitedNote is its unlimited-mode counterpart.
const KubernetesNote = kubernetesSees + "When the node is held to its baseline the hypervisor withholds CPU, which " +
	"shows up as CPU steal time and latency, not as container CPU throttling or an eviction, so the node stays Ready " +
	"and keeps accepting pods."

// UnlimitedNote explains, for unlimited mode, why Kubernetes cannot see the surplus (burst.md §5): the node
// keeps its speed and the cost appears on the bill.
const UnlimitedNote = kubernetesSees + "In unlimited mode the node keeps bursting above its baseline, so nothing " +
	"in the cluster slows down: the surplus credits appear on the bill, not in any node condition or metric, and the " +
	"node keeps accepting pods."

const kubernetesSees = "Kubernetes cannot see this: the scheduler places pods by comparing their CPU requests with " +
	"the node's allocatable CPU (its full vCPU count less reservations) and never sees the credit balance or the " +
	"baseline. "

// Note returns the explanation of why Kubernetes cannot see what a result of mode says: KubernetesNote, or
// UnlimitedNote in unlimited mode.
func Note(m Mode) string {
	if m == Unlimited {
		return UnlimitedNote
	}
	return KubernetesNote
}

// The paths of the inputs an error can be about, in Input's field names.
var (
	pathSustained    = field.NewPath("Load", "SustainedMillicores")
	pathSystem       = field.NewPath("Load", "SystemMillicores")
	pathPods         = field.NewPath("Load", "PodsPerNode")
	pathPodUsage     = field.NewPath("Load", "PodMillicores")
	pathMode         = field.NewPath("Mode")
	pathStart        = field.NewPath("Start")
	pathMinHours     = field.NewPath("MinHours")
	pathSurplusPrice = field.NewPath("SurplusPriceUSDPerVCPUHour")
	pathMaxCost      = field.NewPath("MaxSurplusCostPerMonth")
)

func inputErr(p field.Path, value string, format string, args ...any) error {
	return field.Invalid(p, value, format, args...)
}

// Load is the sustained CPU usage of one node, in millicores. The demand is additive:
// U = Sustained + System + PodsPerNode × PodMillicores (burst.md §4.2). Use expected usage, not requests.
type Load struct {
	SustainedMillicores int64 // a whole-node figure, when the load is not broken down into pods
	SystemMillicores    int64 // kubelet, runtime, CNI, DaemonSets: everything that is not a workload pod
	PodsPerNode         int64 // workload pods on the most-loaded node
	PodMillicores       int64 // sustained usage of one pod; with it the result also counts sustainable pods
}

// Input is what Evaluate checks against a budget.
type Input struct {
	Load Load
	// Mode is the credit mode; "" means the budget's DefaultMode.
	Mode Mode
	// Start is the starting balance; the zero value is the launch balance.
	Start Balance
	// MinHours is how long a node must run before it may be throttled (standard mode). Negative is
	// invalid; 0 accepts throttling at once.
	MinHours int64
	// SurplusPriceUSDPerVCPUHour, when HasSurplusPrice is set, overrides the budget's default surplus price
	// (US dollars per vCPU-hour). The value is read as the shortest decimal that prints it (0.05 is five
	// hundredths, exactly).
	SurplusPriceUSDPerVCPUHour float64
	HasSurplusPrice            bool
	// MaxSurplusCostPerMonth, when HasMaxSurplusCost is set, is the largest acceptable unlimited-mode
	// surplus cost per node and month, in US dollars, read as a decimal like the price.
	MaxSurplusCostPerMonth float64
	HasMaxSurplusCost      bool
}

// Verdict is the outcome of a check.
type Verdict string

// The verdicts.
const (
	// VerdictNotBurstable: a fixed-performance type; nothing to check. Never fails.
	VerdictNotBurstable Verdict = "not_burstable"
	// VerdictWithinBaseline: the demand is at or below the sustained capacity; the balance never empties.
	VerdictWithinBaseline Verdict = "within_baseline"
	// VerdictAboveBaseline: standard mode, the balance empties, but not within the minimum run time. A warning.
	VerdictAboveBaseline Verdict = "above_baseline"
	// VerdictSurplusCharged: unlimited mode, surplus credits are billed within the cost limit. A warning.
	VerdictSurplusCharged Verdict = "surplus_charged"
	// VerdictThrottled: standard mode, the balance empties within the minimum run time. Fails.
	VerdictThrottled Verdict = "throttled"
	// VerdictOverCostLimit: unlimited mode, the surplus cost exceeds the limit. Fails.
	VerdictOverCostLimit Verdict = "over_cost_limit"
)

// Verdicts lists every verdict, in documentation order.
var Verdicts = []Verdict{VerdictNotBurstable, VerdictWithinBaseline, VerdictAboveBaseline, VerdictSurplusCharged,
	VerdictThrottled, VerdictOverCostLimit}

// Fails reports whether the verdict must fail a plan.
func (v Verdict) Fails() bool { return v == VerdictThrottled || v == VerdictOverCostLimit }

// Warns reports whether the verdict deserves a warning.
func (v Verdict) Warns() bool { return v == VerdictAboveBaseline || v == VerdictSurplusCharged }

// Summary is a short title for a diagnostic about the verdict.
func (v Verdict) Summary() string {
	switch v {
	case VerdictThrottled:
		return "Burstable Node Runs Out of CPU Credits"
	case VerdictOverCostLimit:
		return "Surplus CPU Credit Cost Over Limit"
	case VerdictAboveBaseline:
		return "Sustained CPU Above Burstable Baseline"
	case VerdictSurplusCharged:
		return "Surplus CPU Credits Will Be Billed"
	case VerdictWithinBaseline:
		return "Sustained CPU Within Burstable Baseline"
	default:
		return "Instance Type Is Not Burstable"
	}
}

// Result is the outcome of checking a load against a budget. Credit figures are in milli-credits (see the
// package documentation); CPU in millicores. Fields that do not apply are zero, with a flag saying so.
type Result struct {
	Budget    Budget
	Burstable bool
	Mode      Mode // the effective credit mode

	DemandMillicores int64 // U

	// Budget figures.
	SustainedMillicores    int64   // floor(s)
	BaselinePercentPerVCPU float64 // b × 100
	StartMilliCredits      int64   // B: the balance the check starts from
	LaunchMilliCredits     int64   // what a new node starts with in Mode

	// NetMilliCreditsPerHour is E − spend: the change of the balance per hour, negative while it drains.
	// Zero for shared-core types (no balance).
	NetMilliCreditsPerHour int64
	// Exhausts reports whether the balance ever empties (U > s); HoursToExhaustion is then B / D
	// (0 when the node starts empty).
	Exhausts          bool
	HoursToExhaustion float64

	// DeliveredMillicoresAfterExhaustion is min(U, s) in standard mode (floored), U in unlimited mode.
	DeliveredMillicoresAfterExhaustion int64
	// DeliveredPercent is the share of the demand served after exhaustion, φ × 100.
	DeliveredPercent float64
	// DeliveredPodMillicores is the CPU one pod gets after exhaustion (floored), when PodMillicores > 0.
	DeliveredPodMillicores int64

	// Unlimited mode: the surplus rate R in millicores (R × 60 milli-credits per hour are surplus), the
	// price used, and the cost per node.
	SurplusMillicores          float64
	SurplusPriceUSDPerVCPUHour float64
	SurplusCostPerHour         float64
	SurplusCostPerMonth        float64

	// MaxSustainableMillicores is the largest demand that never exhausts the balance (floor(s)).
	MaxSustainableMillicores int64
	// MaxSustainablePods is the largest pod count, with the rest of the load unchanged, that never
	// exhausts the balance; valid when HasPodCount.
	MaxSustainablePods int64
	HasPodCount        bool

	Verdict Verdict
	// Detail explains the verdict with the numbers, for a diagnostic or an output: Facts, then Note when the
	// load is above the baseline.
	Detail string
	// Facts is Detail without Note, for callers that give Note once for several results.
	Facts string
	// Note says why Kubernetes cannot see the verdict (Note(Mode)); "" when the load is within the baseline.
	Note string
	// Formulas lists the formula identifiers the figures come from.
	Formulas []string
	// Source names the data row, the price source when a price was used, and the formulas.
	Source string
}

// PodDemand returns U_sys + pods × perPod in millicores, rejecting negative inputs and overflow
// (burst.md §4.2).
func PodDemand(systemMillicores, pods, perPodMillicores int64) (int64, error) {
	l := Load{SystemMillicores: systemMillicores, PodsPerNode: pods, PodMillicores: perPodMillicores}
	return l.demand(math.MaxInt64, "the largest representable demand")
}

// demand validates the load and returns U, or an error when a term is negative or U exceeds limit, which
// limitName describes.
func (l Load) demand(limit int64, limitName string) (int64, error) {
	switch {
	case l.SustainedMillicores < 0:
		return 0, inputErr(pathSustained, milli(l.SustainedMillicores), "the sustained CPU demand %dm is negative", l.SustainedMillicores)
	case l.SystemMillicores < 0:
		return 0, inputErr(pathSystem, milli(l.SystemMillicores), "the system CPU usage %dm is negative", l.SystemMillicores)
	case l.PodsPerNode < 0:
		return 0, inputErr(pathPods, strconv.FormatInt(l.PodsPerNode, 10), "the pod count per node %d is negative", l.PodsPerNode)
	case l.PodMillicores < 0:
		return 0, inputErr(pathPodUsage, milli(l.PodMillicores), "the CPU usage per pod %dm is negative", l.PodMillicores)
	case l.SustainedMillicores > limit:
		return 0, inputErr(pathSustained, milli(l.SustainedMillicores), "the sustained CPU demand %dm exceeds %s", l.SustainedMillicores, limitName)
	case l.SystemMillicores > limit-l.SustainedMillicores:
		return 0, inputErr(pathSystem, milli(l.SystemMillicores), "the system CPU usage %dm (plus %dm other load) exceeds %s", l.SystemMillicores,
			l.SustainedMillicores, limitName)
	case l.PodMillicores > limit:
		return 0, inputErr(pathPodUsage, milli(l.PodMillicores), "the CPU usage per pod %dm exceeds %s", l.PodMillicores, limitName)
	}
	other := l.SustainedMillicores + l.SystemMillicores
	if l.PodMillicores > 0 && l.PodsPerNode > (limit-other)/l.PodMillicores {
		return 0, inputErr(pathPodUsage, milli(l.PodMillicores), "%d pods × %dm per pod + %dm other load exceeds %s", l.PodsPerNode,
			l.PodMillicores, other, limitName)
	}
	return other + l.PodsPerNode*l.PodMillicores, nil
}

// maxVCPU bounds the vCPU count of a budget so that no product in this package overflows.
const maxVCPU = 4096

// validateBudget rejects budgets that no table row could produce, so hand-made budgets cannot break the
// arithmetic.
func validateBudget(b Budget) error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("invalid budget for %q: "+format, append([]any{b.InstanceType}, args...)...)
	}
	switch {
	case b.VCPU <= 0 || b.VCPU > maxVCPU:
		return bad("vCPU count %d is not in 1..%d", b.VCPU, maxVCPU)
	case b.Model == ModelCredits && (b.EarnMilliCreditsPerHour <= 0 || b.EarnMilliCreditsPerHour > 60_000*int64(b.VCPU)):
		return bad("earn rate %s credits/h is not in (0, 60 × vCPU]", formatMilli(b.EarnMilliCreditsPerHour))
	case b.MaxMilliCredits < 0 || b.MaxMilliCredits > maxBalanceMilliCredits:
		return bad("maximum balance %s credits is out of range", formatMilli(b.MaxMilliCredits))
	case b.LaunchMilliCredits < 0 || b.LaunchMilliCredits > maxBalanceMilliCredits:
		return bad("launch balance %s credits is out of range", formatMilli(b.LaunchMilliCredits))
	case b.Model == ModelSharedCore && (b.SharedCoreMillicores <= 0 || b.SharedCoreMillicores > 1000*int64(b.VCPU)):
		return bad("shared-core capacity %dm is not in (0, %dm]", b.SharedCoreMillicores, 1000*b.VCPU)
	case b.SurplusPriceMicroUSD < 0:
		return bad("negative surplus price")
	}
	return nil
}

// resolveMode returns the effective credit mode or an error for a mode the cloud does not offer.
func resolveMode(b Budget, m Mode) (Mode, error) {
	if m == "" {
		m = b.DefaultMode
		if m == "" {
			m = Standard
		}
	}
	if _, err := ParseMode(string(m)); err != nil {
		return "", inputErr(pathMode, string(m), "%v", err)
	}
	if m == Unlimited && !b.UnlimitedSupported {
		switch b.Cloud {
		case catalog.Azure:
			return "", inputErr(pathMode, string(m), "the credit mode %q is not available for %s: Azure B-series VMs have no "+
				"unlimited mode and are throttled to their base performance when credits run out", m, b.InstanceType)
		case catalog.GCP:
			return "", inputErr(pathMode, string(m), "the credit mode %q is not available for %s: GCP shared-core machine types "+
				"have no credits and no surplus billing", m, b.InstanceType)
		default:
			return "", inputErr(pathMode, string(m), "the credit mode %q is not available for %s", m, b.InstanceType)
		}
	}
	return m, nil
}

// startBalance resolves the starting balance in milli-credits.
func startBalance(b Budget, m Mode, s Balance) (int64, error) {
	switch s.Kind {
	case BalanceFull:
		if !b.HasCredits() {
			return 0, nil
		}
		return b.MaxMilliCredits, nil
	case BalanceCredits:
	case BalanceLaunch, "":
		return b.StartMilliCredits(m), nil
	default:
		return 0, inputErr(pathStart, string(s.Kind), "unknown starting balance kind %q", s.Kind)
	}
	if s.MilliCredits < 0 {
		return 0, inputErr(pathStart, formatMilli(s.MilliCredits), "the starting balance %s credits is negative", formatMilli(s.MilliCredits))
	}
	if !b.HasCredits() && s.MilliCredits > 0 {
		return 0, inputErr(pathStart, formatMilli(s.MilliCredits), "a starting balance of %s credits is given for %s, but GCP shared-core machine types "+
			"have no credit balance", formatMilli(s.MilliCredits), b.InstanceType)
	}
	// Launch credits are kept apart from the accrued bucket (§1.3), so a T2 standard node can hold both.
	maxStart := b.MaxMilliCredits + b.StartMilliCredits(m)
	if b.Cloud == catalog.Azure {
		maxStart = b.MaxMilliCredits
	}
	if s.MilliCredits > maxStart {
		return 0, inputErr(pathStart, formatMilli(s.MilliCredits), "the starting balance %s credits exceeds the %s credits %s can hold",
			formatMilli(s.MilliCredits), formatMilli(maxStart), b.InstanceType)
	}
	return s.MilliCredits, nil
}

// decimalRat reads a float64 as the shortest decimal that prints it, so 0.05 is exactly 5/100.
func decimalRat(p field.Path, what string, x float64) (*big.Rat, error) {
	if math.IsNaN(x) || math.IsInf(x, 0) || x < 0 {
		return nil, inputErr(p, fmt.Sprint(x), "the %s %v is not a non-negative finite number", what, x)
	}
	r, ok := new(big.Rat).SetString(strconv.FormatFloat(x, 'g', -1, 64))
	if !ok {
		return nil, inputErr(p, fmt.Sprint(x), "the %s %v is not a decimal number", what, x)
	}
	return r, nil
}

// Evaluate checks a node's sustained load against a budget: the net credit flow, when the balance empties,
// what the node delivers afterwards, the unlimited-mode surplus cost, the largest sustainable load, and
// the verdict. Non-burstable budgets return VerdictNotBurstable. Invalid input returns a
// *field.Error whose path names the Input field at fault (Load.SustainedMillicores, Start, MinHours, …); an
// impossible budget returns a plain error.
func Evaluate(b Budget, in Input) (Result, error) {
	if !b.Burstable() {
		if _, err := in.Load.demand(math.MaxInt64, "the largest representable demand"); err != nil {
			return Result{}, err
		}
		return notBurstable(b, in), nil
	}
	if err := validateBudget(b); err != nil {
		return Result{}, err
	}
	limit := 1000 * int64(b.VCPU)
	u, err := in.Load.demand(limit, fmt.Sprintf("the %d vCPUs (%dm) of %s: usage cannot exceed the vCPU count",
		b.VCPU, limit, b.InstanceType))
	if err != nil {
		return Result{}, err
	}
	mode, err := resolveMode(b, in.Mode)
	if err != nil {
		return Result{}, err
	}
	start, err := startBalance(b, mode, in.Start)
	if err != nil {
		return Result{}, err
	}
	if in.MinHours < 0 {
		return Result{}, inputErr(pathMinHours, strconv.FormatInt(in.MinHours, 10), "the minimum run time before throttling, %d hours, is negative", in.MinHours)
	}
	price := new(big.Rat).SetFrac64(b.SurplusPriceMicroUSD, 1_000_000)
	if in.HasSurplusPrice {
		if price, err = decimalRat(pathSurplusPrice, "surplus price", in.SurplusPriceUSDPerVCPUHour); err != nil {
			return Result{}, err
		}
	}
	var maxCost *big.Rat
	if in.HasMaxSurplusCost {
		if maxCost, err = decimalRat(pathMaxCost, "maximum surplus cost", in.MaxSurplusCostPerMonth); err != nil {
			return Result{}, err
		}
	}
	return compute(b, in, u, mode, start, price, maxCost), nil
}

func notBurstable(b Budget, in Input) Result {
	r := Result{
		Budget: b, Mode: in.Mode, Verdict: VerdictNotBurstable,
		Detail: fmt.Sprintf("%s is a fixed-performance instance type: it has no CPU credit budget and delivers its "+
			"full vCPUs indefinitely, so there is nothing to exhaust.", b.InstanceType),
		Formulas: []string{FNotBurstable},
		Source:   "formulas: " + FNotBurstable,
	}
	r.Facts = r.Detail
	return r
}

// compute does the arithmetic on validated inputs (0 ≤ u ≤ 1000 × v, 0 ≤ start ≤ 10^15).
func compute(b Budget, in Input, u int64, mode Mode, start int64, price, maxCost *big.Rat) Result {
	capRate := b.capacityRate() // milli-credits per hour that a demand of s spends
	spend := 60 * u             // milli-credits per hour spent by U (U ≤ v, so min(U, v) = U)
	drain := spend - capRate    // D
	r := Result{
		Budget: b, Burstable: true, Mode: mode, DemandMillicores: u,
		SustainedMillicores:      b.SustainedMillicores(),
		BaselinePercentPerVCPU:   b.BaselinePercentPerVCPU(),
		StartMilliCredits:        start,
		LaunchMilliCredits:       b.StartMilliCredits(mode),
		MaxSustainableMillicores: capRate / 60,
		Formulas:                 []string{FEarnRate, FSustained, FStartBalance},
	}
	if b.HasCredits() {
		r.NetMilliCreditsPerHour = -drain
		r.Formulas = append(r.Formulas, FNetCredits)
	}
	r.Exhausts = drain > 0
	r.Formulas = append(r.Formulas, FExhaustion, FDelivered)
	if r.Exhausts {
		r.HoursToExhaustion = float64(start) / float64(drain)
	}
	r.DeliveredMillicoresAfterExhaustion, r.DeliveredPercent, r.DeliveredPodMillicores = u, 100, in.Load.PodMillicores
	if r.Exhausts && mode == Standard {
		// φ = s / U = capRate / (60 U); U > 0 because drain > 0 and capRate > 0.
		r.DeliveredMillicoresAfterExhaustion = capRate / 60
		r.DeliveredPercent = float64(capRate) * 100 / float64(spend)
		r.DeliveredPodMillicores = in.Load.PodMillicores * capRate / spend
	}
	r.SurplusPriceUSDPerVCPUHour, _ = price.Float64()
	var cost, month *big.Rat
	if mode == Unlimited {
		r.Formulas = append(r.Formulas, FSurplusCost)
		if r.Exhausts {
			r.SurplusMillicores = float64(drain) / 60
			// cost per hour = R / 1000 vCPU × G = drain / 60,000 × G.
			cost = new(big.Rat).Mul(new(big.Rat).SetFrac64(drain, 60_000), price)
			month = new(big.Rat).Mul(cost, big.NewRat(HoursPerMonth, 1))
			r.SurplusCostPerHour, _ = cost.Float64()
			r.SurplusCostPerMonth, _ = month.Float64()
		}
	}
	r.Formulas = append(r.Formulas, FMaxSustainable)
	if x := in.Load.PodMillicores; x > 0 {
		r.HasPodCount = true
		if rem := capRate - 60*(in.Load.SustainedMillicores+in.Load.SystemMillicores); rem > 0 {
			r.MaxSustainablePods = rem / (60 * x)
		}
	}
	if in.Load.PodsPerNode > 0 {
		r.Formulas = append(r.Formulas, FPodLoad)
	}
	r.Verdict = verdict(r, mode, start, drain, in.MinHours, month, maxCost)
	if r.Verdict == VerdictThrottled || r.Verdict == VerdictAboveBaseline {
		r.Formulas = append(r.Formulas, FMinHoursRule)
	}
	if maxCost != nil && mode == Unlimited {
		r.Formulas = append(r.Formulas, FSurplusCostRule)
	}
	r.Facts = detail(r, in, price, maxCost)
	r.Detail = r.Facts
	if r.Verdict != VerdictWithinBaseline {
		r.Note = Note(mode)
		r.Detail += " " + r.Note
	}
	r.Source = b.Source
	if mode == Unlimited {
		if in.HasSurplusPrice {
			r.Source += "; surplus price: user input"
		} else {
			r.Source += "; surplus price: " + b.SurplusPriceSource
		}
	}
	r.Source += "; formulas: " + strings.Join(r.Formulas, ", ")
	return r
}

func verdict(r Result, mode Mode, start, drain, minHours int64, month, maxCost *big.Rat) Verdict {
	switch {
	case !r.Exhausts:
		return VerdictWithinBaseline
	case mode == Unlimited && maxCost != nil && month.Cmp(maxCost) > 0:
		return VerdictOverCostLimit
	case mode == Unlimited:
		return VerdictSurplusCharged
	case start/drain < minHours:
		// T = start / drain < minHours ⇔ floor(start / drain) < minHours, for integer minHours.
		return VerdictThrottled
	default:
		return VerdictAboveBaseline
	}
}

// detail explains the verdict with its numbers.
func detail(r Result, in Input, price, maxCost *big.Rat) string {
	b := r.Budget
	var s strings.Builder
	fmt.Fprintf(&s, "%s sustains %s vCPU (%s%% of each of its %d vCPUs) indefinitely", b.InstanceType,
		millicoresAsVCPU(b.capacityRate(), 60), formatFloat(r.BaselinePercentPerVCPU), b.VCPU)
	if b.HasCredits() {
		fmt.Fprintf(&s, ", earning %s credits per hour up to a maximum balance of %s", formatMilli(b.EarnMilliCreditsPerHour),
			formatMilli(b.MaxMilliCredits))
	} else {
		s.WriteString("; shared-core machine types have no credit balance, so short bursts cannot be planned on")
	}
	fmt.Fprintf(&s, ". The sustained demand is %dm per node", r.DemandMillicores)
	if l := in.Load; l.PodsPerNode > 0 {
		fmt.Fprintf(&s, " (%d pods × %dm", l.PodsPerNode, l.PodMillicores)
		if other := l.SustainedMillicores + l.SystemMillicores; other > 0 {
			fmt.Fprintf(&s, " + %dm other load", other)
		}
		s.WriteString(")")
	}
	s.WriteString(". ")
	switch r.Verdict {
	case VerdictWithinBaseline:
		fmt.Fprintf(&s, "That is within the sustained capacity, so the balance never empties (largest sustainable "+
			"demand: %dm per node%s).", r.MaxSustainableMillicores, podsClause(r, in))
		return s.String()
	}
	if b.HasCredits() {
		fmt.Fprintf(&s, "The balance drains by %s credits per hour; starting from %s credits (%s) it is empty ",
			formatMilli(-r.NetMilliCreditsPerHour), formatMilli(r.StartMilliCredits), startName(in.Start))
	} else {
		s.WriteString("The demand exceeds the sustained fraction, so the node is held to it ")
	}
	if r.StartMilliCredits == 0 {
		s.WriteString("at once. ")
	} else {
		fmt.Fprintf(&s, "after %s hours. ", formatFloat(r.HoursToExhaustion))
	}
	switch r.Mode {
	case Standard:
		fmt.Fprintf(&s, "Then the node delivers only %dm of the %dm it is asked for (%s%% of the demand", r.DeliveredMillicoresAfterExhaustion,
			r.DemandMillicores, formatFloat(r.DeliveredPercent))
		if in.Load.PodMillicores > 0 {
			fmt.Fprintf(&s, "; each pod gets %dm of its %dm", r.DeliveredPodMillicores, in.Load.PodMillicores)
		}
		s.WriteString("). ")
		if r.Verdict == VerdictThrottled {
			fmt.Fprintf(&s, "That is sooner than the %s the node must run before it may be throttled. ",
				hoursText(in.MinHours))
		} else {
			fmt.Fprintf(&s, "That is no sooner than the %s the node must run before it may be throttled, but the node is throttled if it runs longer. ", hoursText(in.MinHours))
		}
	case Unlimited:
		fmt.Fprintf(&s, "In unlimited mode the node keeps bursting on surplus credits: %s vCPU above the baseline, "+
			"billed at $%s per vCPU-hour = $%s per hour, $%s per node and month (%d hours)", formatFloat(r.SurplusMillicores/1000),
			trimDecimal(price.FloatString(6)), trimFloat(r.SurplusCostPerHour), trimFloat(r.SurplusCostPerMonth), HoursPerMonth)
		if maxCost != nil {
			fmt.Fprintf(&s, ", against a limit of $%s per month", maxCost.FloatString(2))
		}
		s.WriteString(". ")
	}
	fmt.Fprintf(&s, "The largest sustainable demand is %dm per node%s. ", r.MaxSustainableMillicores, podsClause(r, in))
	if l := in.Load; l.PodsPerNode > 0 && l.SystemMillicores == 0 && l.SustainedMillicores == 0 {
		s.WriteString("No system CPU usage was given: the kubelet, container runtime, CNI and DaemonSet agents add to " +
			"every node, so measure it (node CPU with no application pods) and include it.")
	}
	return strings.TrimSpace(s.String())
}

func podsClause(r Result, in Input) string {
	if !r.HasPodCount {
		return ""
	}
	return fmt.Sprintf(", or %d pods at %dm", r.MaxSustainablePods, in.Load.PodMillicores)
}

func startName(b Balance) string {
	switch b.Kind {
	case BalanceFull:
		return "a full balance"
	case BalanceCredits:
		return "the given balance"
	default:
		return "what a new node starts with"
	}
}

// millicoresAsVCPU renders rate / div millicores as vCPU with up to 3 decimals ("0.4").
func millicoresAsVCPU(rate, div int64) string {
	return trimDecimal(big.NewRat(rate, div*1000).FloatString(3))
}

func formatFloat(f float64) string { return strconv.FormatFloat(math.Round(f*100)/100, 'f', -1, 64) }

// trimFloat renders a money amount with up to 4 decimals.
func trimFloat(f float64) string { return strconv.FormatFloat(math.Round(f*10000)/10000, 'f', -1, 64) }

func trimDecimal(s string) string {
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}

// milli renders millicores as a Kubernetes CPU quantity for an error's value.
func milli(m int64) string { return strconv.FormatInt(m, 10) + "m" }

// hoursText is a whole number of hours in words: "1 hour", "24 hours".
func hoursText(h int64) string {
	if h == 1 {
		return "1 hour"
	}
	return strconv.FormatInt(h, 10) + " hours"
}
