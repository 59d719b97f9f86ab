package fit

import "math"

// Vector indexes of the resource dimensions (the order of ResourceNames).
const (
	rCPU = iota
	rMem
	rEph
	rPods
	rGPU
	rVol
	nRes
)

// vec is a resource vector in ResourceNames order.
type vec [nRes]int64

func toVec(r Resources) vec {
	return vec{r.CPUMillicores, r.MemoryBytes, r.EphemeralStorageBytes, r.Pods, r.GPU, r.Volumes}
}

func (v vec) resources() Resources {
	return Resources{CPUMillicores: v[rCPU], MemoryBytes: v[rMem], EphemeralStorageBytes: v[rEph], Pods: v[rPods],
		GPU: v[rGPU], Volumes: v[rVol]}
}

func (v vec) add(o vec) vec {
	for i := range v {
		v[i] = satAdd(v[i], o[i])
	}
	return v
}

func (v vec) sub(o vec) vec {
	for i := range v {
		v[i] = satSub(v[i], o[i])
	}
	return v
}

func (v vec) scale(k int64) vec {
	for i := range v {
		v[i] = satMul(v[i], k)
	}
	return v
}

// fits reports whether v ≤ free in every dimension.
func (v vec) fits(free vec) bool {
	for i := range v {
		if v[i] > free[i] {
			return false
		}
	}
	return true
}

// fitCount returns how many copies of req fit into free: min over the dimensions req asks for of
// free div req. req must ask for at least one pod slot, so the result is finite.
func fitCount(free, req vec) int64 {
	if !req.fits(free) {
		return 0
	}
	k := int64(math.MaxInt64)
	for i := range req {
		if req[i] > 0 {
			k = min(k, free[i]/req[i])
		}
	}
	return k
}

// ceilDiv returns ceil(a / b) for a ≥ 0 and b > 0 (0 for other inputs).
func ceilDiv(a, b int64) int64 {
	if a <= 0 || b <= 0 {
		return 0
	}
	return (a-1)/b + 1
}

// satAdd adds with saturation at the int64 range.
func satAdd(a, b int64) int64 {
	s := a + b
	if (a >= 0) == (b >= 0) && (s >= 0) != (a >= 0) {
		if a >= 0 {
			return math.MaxInt64
		}
		return math.MinInt64
	}
	return s
}

// satSub subtracts with saturation at the int64 range.
func satSub(a, b int64) int64 {
	if b == math.MinInt64 {
		if a >= 0 {
			return math.MaxInt64
		}
		return a - b
	}
	return satAdd(a, -b)
}

// satMul multiplies with saturation at the int64 range.
func satMul(a, b int64) int64 {
	if a == 0 || b == 0 {
		return 0
	}
	p := a * b
	if p/b != a || (a == -1 && b == math.MinInt64) || (b == -1 && a == math.MinInt64) {
		if (a > 0) == (b > 0) {
			return math.MaxInt64
		}
		return math.MinInt64
	}
	return p
}

// ratio returns num / den as a float, or 0 when den ≤ 0.
func ratio(num, den int64) float64 {
	if den <= 0 {
		return 0
	}
	return float64(num) / float64(den)
}
