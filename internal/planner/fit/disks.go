package fit

import "math"

// The node's disk limits, shared by its volumes. A node's instance type caps the IOPS and throughput of
// all its attached volumes together (AWS: the EBS-optimized limits, disks.md §3; Azure: the VM's uncached
// limits, §5); volumes provisioned beyond that together reach their rates only while the others idle, or
// within the node's burst. No scheduler filter sees it, so it never keeps a pod off a node: the placement
// is the scheduler's, and the pools whose nodes get more than they sustain are reported (PoolResult.Disk).

// DiskRates are disk rates: operations and bytes per second.
type DiskRates struct {
	IOPS        int64
	BytesPerSec int64
}

func (r DiskRates) zero() bool { return r.IOPS == 0 && r.BytesPerSec == 0 }

// DiskShare is what a pool's nodes ask of their instance's disk limits: the nodes whose attached volumes
// are provisioned for more than the node sustains, the busiest of them (the largest share of a sustained
// limit) and its volumes' summed rates.
type DiskShare struct {
	// NodesOver counts the nodes whose volumes' summed IOPS or throughput exceeds DiskSustained.
	NodesOver int
	// Node is the busiest node's 1-based index in the pool's node list, Volumes its attachable volumes and
	// Provisioned their summed rates.
	Node        int
	Volumes     int64
	Provisioned DiskRates
	// Sustained and Burst are the pool's node limits (Pool.DiskSustained, Pool.DiskBurst).
	Sustained, Burst DiskRates
	// WithinBurst is true when the busiest node's volumes stay within the node's burst limits.
	WithinBurst bool
}

// claimRates returns one pod's attachable volumes' provisioned rates on a pool whose claims' throughput
// unit is unit bytes per second.
func claimRates(claims []VolumeClaim, unit int64) DiskRates {
	var r DiskRates
	for _, c := range claims {
		if c.Attachable() {
			r.IOPS = satAdd(r.IOPS, c.IOPS)
			r.BytesPerSec = satAdd(r.BytesPerSec, int64(math.Ceil(c.ThroughputMBps*float64(unit))))
		}
	}
	return r
}

// diskShare returns the disk share of pool p's nodes (nodes in pool order), or nil when the pool's limits are
// unknown or no node exceeds them.
func (s *sim) diskShare(p int, nodes []int32) *DiskShare {
	pm := &s.m.pools[p]
	if pm.p.DiskSustained.zero() {
		return nil
	}
	unit := pm.p.DiskUnitBytes
	if unit == 0 {
		unit = 1 << 20
	}
	per := make([]DiskRates, len(s.m.in.Workloads))
	any := false
	for w := range s.m.in.Workloads {
		per[w] = claimRates(s.m.in.Workloads[w].VolumeClaims, unit)
		any = any || !per[w].zero()
	}
	if !any {
		return nil
	}
	at := make(map[int32]int, len(nodes))
	for i, id := range nodes {
		at[id] = i
	}
	sums := make([]DiskRates, len(nodes))
	for _, e := range s.log {
		if i, ok := at[e.node]; ok {
			r := per[e.w]
			sums[i].IOPS = satAdd(sums[i].IOPS, satMul(r.IOPS, int64(e.k)))
			sums[i].BytesPerSec = satAdd(sums[i].BytesPerSec, satMul(r.BytesPerSec, int64(e.k)))
		}
	}
	lim := pm.p.DiskSustained
	share := func(r DiskRates) float64 {
		f := 0.0
		if lim.IOPS > 0 {
			f = float64(r.IOPS) / float64(lim.IOPS)
		}
		if lim.BytesPerSec > 0 {
			f = max(f, float64(r.BytesPerSec)/float64(lim.BytesPerSec))
		}
		return f
	}
	out := DiskShare{Sustained: lim, Burst: pm.p.DiskBurst}
	best := -1.0
	for i, r := range sums {
		if f := share(r); f > 1 {
			out.NodesOver++
			if f > best {
				best, out.Node, out.Provisioned = f, i+1, r
				out.Volumes = s.nodes[nodes[i]].used[rVol]
			}
		}
	}
	if out.NodesOver == 0 {
		return nil
	}
	b := out.Burst
	out.WithinBurst = (b.IOPS == 0 || out.Provisioned.IOPS <= b.IOPS) && (b.BytesPerSec == 0 || out.Provisioned.BytesPerSec <= b.BytesPerSec) && !b.zero()
	return &out
}
