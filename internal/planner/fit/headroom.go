package fit

import (
	"cmp"
	"slices"
	"sort"
)

// headroom computes, for every workload in input order, how many more replicas of that workload alone
// fit in this (peak) packing within each pool's maximum: maxima[p], or MaxNodes when maxima is nil
// (fit.headroom).
func (s *sim) headroom(maxima []int) []Headroom {
	if maxima == nil {
		maxima = make([]int, len(s.m.pools))
		for p := range s.m.pools {
			maxima[p] = s.m.pools[p].p.MaxNodes
		}
	}
	ix := &roomIndex{s: s, views: map[*nodeList]*[2]sortedNodes{}, maxima: maxima}
	out := make([]Headroom, len(s.classes))
	for w := range s.classes {
		out[w] = Headroom{Workload: s.m.in.Workloads[w].Name, Replicas: ix.extra(&s.classes[w]),
			Source: SourceHeadroom}
	}
	return out
}

// roomIndex answers "how many pods of this request fit on the nodes of a list" for many requests. It
// keeps, per node list, two views sorted by free CPU and by free memory (descending) with exact
// per-block bounds, so a request scans only the nodes with enough of its scarcer resource and skips
// blocks whose bound cannot hold it.
type roomIndex struct {
	s      *sim
	views  map[*nodeList]*[2]sortedNodes
	maxima []int // per pool, the node count the room is counted within
}

type sortedNodes struct {
	list nodeList
	dim  int
}

func (ix *roomIndex) view(l *nodeList, dim int) *sortedNodes {
	v, ok := ix.views[l]
	if !ok {
		v = &[2]sortedNodes{}
		for i, d := range []int{rCPU, rMem} {
			ids := slices.Clone(l.ids)
			slices.SortStableFunc(ids, func(a, b int32) int {
				return cmp.Compare(ix.s.nodes[b].free[d], ix.s.nodes[a].free[d])
			})
			v[i].dim = d
			for _, id := range ids {
				v[i].list.add(id, ix.s.nodes[id].free)
			}
		}
		ix.views[l] = v
	}
	if dim == rMem {
		return &v[1]
	}
	return &v[0]
}

// room sums, over the nodes of list l, how many more pods of class c each holds: free div request, at
// most one and none on the nodes in held under node spread.
func (ix *roomIndex) room(c *classSim, pp int, l *nodeList, walloc vec, held map[int32]bool) int64 {
	dim := rCPU
	if ratio(c.req[rMem], walloc[rMem]) > ratio(c.req[rCPU], walloc[rCPU]) {
		dim = rMem
	}
	v := ix.view(l, dim)
	nodes := ix.s.nodes
	// Nodes with enough of the scarcer resource form a prefix of the sorted view.
	end := sort.Search(len(v.list.ids), func(i int) bool { return nodes[v.list.ids[i]].free[dim] < c.req[dim] })
	var total int64
	for b := 0; b*blockSize < end; b++ {
		if !c.req.fits(v.list.bound[b]) {
			continue
		}
		for _, id := range v.list.ids[b*blockSize : min((b+1)*blockSize, end)] {
			if held[id] {
				continue
			}
			k := fitCount(nodes[id].free, c.req)
			if c.spread == SpreadNode {
				k = min(k, 1)
			}
			if room := ix.s.extRoom(c, pp, id); room >= 0 {
				k = min(k, room) // its extended resources (extended.go)
			}
			total = satAdd(total, k)
		}
	}
	return total
}

// extra counts the additional pods of class c that fit within MaxNodes by capacity counting: on every
// node within MaxNodes of its pools, free div request (at most 1, and none where a pod already runs,
// under node spread), plus fresh nodes up to MaxNodes at the per-node count. Under zone spread the
// per-zone room cap[z] and current pods cnt[z] give, with L = min over zones of cnt[z] + cap[z], the
// largest total Σ min(cnt[z] + cap[z], L + maxSkew) − Σ cnt[z] that keeps the skew. A workload whose
// own pods do not all fit within MaxNodes has no headroom.
func (ix *roomIndex) extra(c *classSim) int64 {
	s := ix.s
	if c.unplaced > 0 || sumInts(c.beyond) > 0 || len(c.pools) == 0 {
		return 0
	}
	if c.spread == SpreadZone {
		return ix.zoneExtra(c)
	}
	var held map[int32]bool
	if len(c.held) > 0 {
		held = make(map[int32]bool, len(c.held))
		for _, id := range c.held {
			held[id] = true
		}
	}
	var total int64
	for pp, p := range c.pools {
		pm := &s.m.pools[p]
		ps := &s.pools[p]
		total = satAdd(total, ix.room(c, pp, &ps.in, pm.walloc, held))
		fresh := int64(max(ix.maxima[p]-len(ps.in.ids), 0))
		total = satAdd(total, satMul(fresh, c.perNode[pp]))
	}
	return total
}

func (ix *roomIndex) zoneExtra(c *classSim) int64 {
	s := ix.s
	room := make([]int64, len(c.domains))
	for pp, p := range c.pools {
		pm := &s.m.pools[p]
		ps := &s.pools[p]
		for d := range c.domains {
			lz := c.localZ[pp][d]
			if lz < 0 {
				continue
			}
			room[d] = satAdd(room[d], ix.room(c, pp, &ps.inZ[lz], pm.walloc, nil))
			fresh := zoneCapacity(ix.maxima[p], pm.nz, lz) - zoneCapacity(len(ps.in.ids), pm.nz, lz)
			room[d] = satAdd(room[d], satMul(int64(max(fresh, 0)), c.perNode[pp]))
		}
	}
	level := int64(-1)
	for d := range c.domains {
		top := satAdd(int64(c.counts[d]), room[d])
		if level < 0 || top < level {
			level = top
		}
	}
	var total int64
	for d := range c.domains {
		top := min(satAdd(int64(c.counts[d]), room[d]), satAdd(level, int64(c.skew)))
		total = satAdd(total, max(top-int64(c.counts[d]), 0))
	}
	return total
}
