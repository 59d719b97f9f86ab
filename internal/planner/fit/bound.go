package fit

import (
	"math"
	"math/bits"
)

// maxDFF is the largest parameter k of the dual feasible functions the lower bound evaluates.
const maxDFF = 32

// item is n pods of size s in one resource dimension.
type item struct {
	n, s int64
}

// dffBound returns a lower bound on the number of bins of capacity c that hold the items, in one
// dimension: the largest over k = 0..maxDFF of ceil(Σ n·u_k(s / c)), where u_0(x) = x (the plain
// ceil(Σ requests / c) bound) and, for k ≥ 1, the dual feasible function of Fekete and Schepers,
// u_k(x) = x when (k+1)·x is an integer and floor((k+1)·x) / k otherwise. A dual feasible function
// maps the sizes of any set of items that fits one bin to values that sum to at most 1, so the sum
// of the mapped sizes bounds the bins from below. It tightens the plain bound when pods are just
// over 1/(k+1) of a node: 1,000 pods of 0.091 need ceil(1,000 / 10) = 100 nodes, not 91.
// Sums are exact (128-bit).
func dffBound(items []item, c int64) int64 {
	if c <= 0 {
		return 0
	}
	var best int64
	for k := int64(0); k <= maxDFF; k++ {
		var t u128
		for _, it := range items {
			if it.n <= 0 || it.s <= 0 {
				continue
			}
			var term int64 // u_k(s / c) · k · c, or s for k = 0
			switch q := (k + 1) * it.s; {
			case k == 0:
				term = it.s
			case q%c == 0:
				term = it.s * k
			default:
				term = q / c * c
			}
			t = t.addMul(uint64(it.n), uint64(term))
		}
		d := uint64(c)
		if k > 0 {
			d *= uint64(k)
		}
		best = max(best, t.ceilDiv(d))
	}
	return best
}

// u128 is an unsigned 128-bit integer for exact sums of products.
type u128 struct {
	hi, lo uint64
}

func (x u128) addMul(a, b uint64) u128 {
	hi, lo := bits.Mul64(a, b)
	var carry uint64
	x.lo, carry = bits.Add64(x.lo, lo, 0)
	x.hi, _ = bits.Add64(x.hi, hi, carry)
	return x
}

// ceilDiv returns ceil(x / d) for d > 0, saturated at math.MaxInt64.
func (x u128) ceilDiv(d uint64) int64 {
	if x.hi >= d {
		return math.MaxInt64
	}
	q, r := bits.Div64(x.hi, x.lo, d)
	if r > 0 {
		q++
	}
	if q > math.MaxInt64 || q == 0 && r > 0 {
		return math.MaxInt64
	}
	return int64(q)
}
