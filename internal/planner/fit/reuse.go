package fit

import (
	"slices"
	"sync"
)

// Packing allocates per strategy and scenario the same large arrays (nodes, node lists, placement log,
// class cursors), so Plan hands the arrays of a packing it no longer needs to the next one: a model
// keeps the spare packings, and newSim reuses one when there is one. When Plan returns, its packings
// go to a process-wide pool for the next Plan (callers such as the recommendation plan hundreds of
// times). Reused arrays are truncated or cleared, so a packing never sees another's state, and no
// Result refers to a packing's arrays.

// arena hands out zeroed slices carved from one backing array per element type, reused by the next
// packing after reset. When a backing array runs out, a larger one replaces it; slices already handed
// out keep the old one.
type arena struct {
	ids   []int32
	ints  []int
	bools []bool
	curs  [][2][]int
	rows  [][]int
}

func (a *arena) reset() {
	a.ids, a.ints, a.bools, a.curs, a.rows = a.ids[:0], a.ints[:0], a.bools[:0], a.curs[:0], a.rows[:0]
}

// carve returns n zeroed elements from *buf, replacing it by a larger array when it has no room.
func carve[T any](buf *[]T, n int) []T {
	if len(*buf)+n > cap(*buf) {
		*buf = make([]T, 0, max(2*cap(*buf), n, 64))
	}
	start := len(*buf)
	*buf = (*buf)[:start+n]
	out := (*buf)[start : start+n : start+n]
	clear(out)
	return out
}

// recycle keeps a packing whose result is no longer needed for the next packing to reuse.
func (m *model) recycle(s *sim) {
	m.spareMu.Lock()
	defer m.spareMu.Unlock()
	m.spare = append(m.spare, s)
}

// spareSims holds the packings of finished Plans.
var spareSims sync.Pool

// release hands the model's spare packings to the next Plan.
func (m *model) release() {
	for _, s := range m.spare {
		clear(s.classes[:cap(s.classes)]) // the model's class templates
		clear(s.order[:cap(s.order)])
		clear(s.queue[:cap(s.queue)])
		s.m, s.classes, s.order, s.queue = nil, s.classes[:0], s.order[:0], s.queue[:0]
		spareSims.Put(s)
	}
	m.spare = nil
}

// takeSim returns an empty packing of the model, reused from a spare one when there is one.
func (m *model) takeSim() *sim {
	var s *sim
	m.spareMu.Lock()
	if n := len(m.spare); n > 0 {
		s = m.spare[n-1]
		m.spare = m.spare[:n-1]
	}
	m.spareMu.Unlock()
	if s == nil {
		if v, ok := spareSims.Get().(*sim); ok {
			s = v
		} else {
			s = &sim{}
		}
	}
	s.m = m
	s.nodes, s.log, s.demand, s.disrupt = s.nodes[:0], s.log[:0], nil, nil
	s.bound, s.note, s.margin, s.work, s.explain, s.unmodelled = "", "", "", 0, nil, nil
	s.mostStuck, s.mostStuckIn = nil, nil
	s.pools = slices.Grow(s.pools[:0], len(m.pools))[:len(m.pools)]
	for p := range s.pools {
		ps := &s.pools[p]
		nz := m.pools[p].nz
		ps.in.reset()
		ps.over.reset()
		ps.inZ = slices.Grow(ps.inZ[:0], nz)[:nz]
		ps.overZ = slices.Grow(ps.overZ[:0], nz)[:nz]
		for z := range nz {
			ps.inZ[z].reset()
			ps.overZ[z].reset()
		}
	}
	s.mem.reset()
	return s
}

func (l *nodeList) reset() {
	l.ids, l.bound, l.stale, l.super, l.loose = l.ids[:0], l.bound[:0], l.stale[:0], l.super[:0], l.loose[:0]
}
