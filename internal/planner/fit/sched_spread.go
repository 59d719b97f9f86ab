package fit

import (
	"math"
)

// PodTopologySpread and the node spread of the scheduler model (pkg/scheduler/framework/plugins:
// podtopologyspread/filtering.go and scoring.go, interpodaffinity/filtering.go at v1.37).
//
// A zone-spread workload carries one constraint on topology.kubernetes.io/zone with whenUnsatisfiable
// DoNotSchedule and its MaxSkew; its domains are the zones of the nodes whose pool matches its node
// selector and pool list (nodeAffinityPolicy Honor, nodeTaintsPolicy Ignore). A node-spread workload
// carries required pod anti-affinity on kubernetes.io/hostname against its own pods. Every other
// workload gets the scheduler's system default constraints, as a pod owned by a ReplicaSet or
// StatefulSet does: hostname with maxSkew 3 and zone with maxSkew 5, both ScheduleAnyway, which only
// score.

// minMatch is PodTopologySpread's PreFilter for a zone-spread class: the fewest pods of the class in
// one of its domains (0 when it has none yet).
func (cl *cluster) minMatch(w int) int32 {
	if cl.classes[w].c.spread != SpreadZone {
		return 0
	}
	least := int32(math.MaxInt32)
	for _, z := range cl.domains[w] {
		least = min(least, cl.inZone[w][z])
	}
	if least == math.MaxInt32 {
		return 0
	}
	return least
}

// zoneSkewOK is PodTopologySpread's Filter: the pods of the class in the node's zone, plus this pod,
// less the fewest in a domain, must not exceed MaxSkew. A node of a pool without zones passes (fit
// treats such a pool as having no zone information, where a real node without the zone label would be
// rejected).
func (cl *cluster) zoneSkewOK(w int, nd *schedNode, minMatch int32) bool {
	if nd.zone < 0 {
		return true
	}
	return int(cl.inZone[w][nd.zone]+1-minMatch) <= cl.classes[w].c.skew
}

// spreadMemoPods bounds the pods of a class on one node whose raw spread score spreadScores keeps per cycle.
const spreadMemoPods = 8

// spreadTable lets spreadScores memoise raw scores and normalise through a table; tests clear it to check that neither
// changes anything.
var spreadTable = true

// spreadScores fills out with PodTopologySpread's normalised scores over the feasible nodes: 0 for a
// zone-spread class (its only constraint is DoNotSchedule), else the system default constraints'
// score. A node's raw score is round(Σ over the constraints whose key it has of count × log(domains + 2)
// + maxSkew − 1), with count the class's pods in the node's domain and domains the feasible nodes
// (hostname) or their distinct zones; normalised, a node scores 100 × (max + min − raw) / max.
func (cl *cluster) spreadScores(w int, feasible []int32, out []int64) {
	if cl.classes[w].c.spread == SpreadZone {
		clear(out)
		return
	}
	cl.stamp++
	if len(cl.zoneStamp) != len(cl.m.zoneNames)+1 {
		cl.zoneStamp = make([]uint64, len(cl.m.zoneNames)+1)
	}
	zones := 0
	for _, id := range feasible {
		if z := cl.nodes[id].zone + 1; cl.zoneStamp[z] != cl.stamp {
			cl.zoneStamp[z] = cl.stamp
			zones++
		}
	}
	hostWeight := math.Log(float64(len(feasible) + 2))
	zoneWeight := math.Log(float64(zones + 2))
	lo, hi := int64(math.MaxInt64), int64(0)
	// A node's raw score depends only on its pods of the class and its zone's: it is computed once per cycle for
	// each pair of the few that occur (fewer than spreadMemoPods pods on the node), in the table spreadRaw.
	nz := len(cl.m.zoneNames) + 1
	if cells := spreadMemoPods * nz; len(cl.spreadRaw) != cells {
		cl.spreadRaw, cl.spreadRawAt = make([]int64, cells), make([]uint64, cells)
	}
	onNode := cl.onNode[w]
	for i, id := range feasible {
		nd := &cl.nodes[id]
		c := onNode[id]
		cell := -1
		if c < spreadMemoPods && spreadTable {
			cell = int(c)*nz + int(nd.zone+1)
			if cl.spreadRawAt[cell] == cl.stamp {
				s := cl.spreadRaw[cell]
				out[i] = s
				lo, hi = min(lo, s), max(hi, s)
				continue
			}
		}
		raw := float64(c)*hostWeight + float64(defaultHostnameSkew-1)
		if nd.zone >= 0 {
			raw += float64(cl.inZone[w][nd.zone])*zoneWeight + float64(defaultZoneSkew-1)
		}
		s := int64(math.Round(raw))
		if cell >= 0 {
			cl.spreadRaw[cell], cl.spreadRawAt[cell] = s, cl.stamp
		}
		out[i] = s
		lo, hi = min(lo, s), max(hi, s)
	}
	if hi == 0 {
		for i := range out {
			out[i] = maxNodeScore
		}
		return
	}
	if span := hi - lo + 1; spreadTable && span <= int64(len(out))/4 {
		// Few raw scores over many nodes: each normalised once.
		norm := resize(cl.spreadNorm, int(span))
		for k := range norm {
			s := lo + int64(k)
			norm[k] = maxNodeScore * (hi + lo - s) / hi
		}
		for i, s := range out {
			out[i] = norm[s-lo]
		}
		cl.spreadNorm = norm
		return
	}
	for i, s := range out {
		out[i] = maxNodeScore * (hi + lo - s) / hi
	}
}
