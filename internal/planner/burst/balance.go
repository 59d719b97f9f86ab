package burst

import (
	"fmt"
	"strconv"
	"strings"
)

// BalanceKind says how the starting credit balance of a node is chosen.
type BalanceKind string

// The starting-balance kinds.
const (
	// BalanceLaunch is what a newly launched node really starts with (burst.md §1.3): AWS T2 launch
	// credits in standard mode, Azure initial credits, zero on T3/T3a/T4g, T2 unlimited and GCP.
	BalanceLaunch BalanceKind = "launch"
	// BalanceFull is a full bucket: the accrual cap (launch credits not included).
	BalanceFull BalanceKind = "full"
	// BalanceCredits is an explicit number of credits.
	BalanceCredits BalanceKind = "credits"
)

// BalanceKinds lists the kinds that ParseBalance accepts by name, in documentation order.
var BalanceKinds = []BalanceKind{BalanceLaunch, BalanceFull}

// maxBalanceMilliCredits bounds an explicit balance: far above any real bucket (the largest cap in the
// tables is 18,432 credits), small enough that no product in this package overflows.
const maxBalanceMilliCredits = 1_000_000_000_000_000 // 10^12 credits

// Balance is a starting credit balance. The zero value is BalanceLaunch.
type Balance struct {
	Kind         BalanceKind
	MilliCredits int64 // used when Kind is BalanceCredits
}

// LaunchBalance returns the balance of a freshly launched node.
func LaunchBalance() Balance { return Balance{Kind: BalanceLaunch} }

// FullBalance returns a full bucket.
func FullBalance() Balance { return Balance{Kind: BalanceFull} }

// CreditsBalance returns an explicit balance of milliCredits / 1000 credits.
func CreditsBalance(milliCredits int64) Balance {
	return Balance{Kind: BalanceCredits, MilliCredits: milliCredits}
}

// String renders the balance as ParseBalance accepts it.
func (b Balance) String() string {
	switch b.Kind {
	case BalanceCredits:
		return formatMilli(b.MilliCredits)
	case BalanceFull:
		return string(BalanceFull)
	default:
		return string(BalanceLaunch)
	}
}

// ParseBalance parses a starting balance: "launch", "full", or a non-negative decimal number of credits
// with at most three decimal places ("120", "57.6").
func ParseBalance(s string) (Balance, error) {
	switch s {
	case string(BalanceLaunch):
		return LaunchBalance(), nil
	case string(BalanceFull):
		return FullBalance(), nil
	}
	m, err := parseMilli(s)
	if err != nil {
		return Balance{}, fmt.Errorf("invalid starting balance %q: want %q, %q or a non-negative number of credits "+
			"with at most 3 decimal places", s, BalanceLaunch, BalanceFull)
	}
	return CreditsBalance(m), nil
}

// parseMilli parses a non-negative decimal with at most three fractional digits into thousandths,
// exactly, without floating point. It accepts digits, one optional point, and nothing else.
func parseMilli(s string) (int64, error) {
	whole, frac, hasPoint := strings.Cut(s, ".")
	if whole == "" || (hasPoint && frac == "") || len(frac) > 3 || !allDigits(whole) || !allDigits(frac) {
		return 0, fmt.Errorf("malformed decimal %q", s)
	}
	if len(whole) > 13 { // more than 10^13 credits is beyond maxBalanceMilliCredits anyway
		return 0, fmt.Errorf("decimal %q is too large", s)
	}
	w, err := strconv.ParseInt(whole, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("malformed decimal %q", s)
	}
	f := int64(0)
	if frac != "" {
		f, err = strconv.ParseInt(frac+strings.Repeat("0", 3-len(frac)), 10, 64)
		if err != nil {
			return 0, fmt.Errorf("malformed decimal %q", s)
		}
	}
	m := w*1000 + f
	if m > maxBalanceMilliCredits {
		return 0, fmt.Errorf("decimal %q is too large", s)
	}
	return m, nil
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// Credits converts milli-credits, the package's unit, to credits (81600 → 81.6) for display.
func Credits(milliCredits int64) float64 { return float64(milliCredits) / 1000 }

// formatMilli renders thousandths as a decimal without trailing zeros (81600 → "81.6").
func formatMilli(m int64) string {
	sign := ""
	if m < 0 {
		sign, m = "-", -m
	}
	s := fmt.Sprintf("%s%d.%03d", sign, m/1000, m%1000)
	return strings.TrimRight(strings.TrimRight(s, "0"), ".")
}
