package fit

import (
	"cmp"
	"fmt"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"slices"
	"strings"
	"sync"
)

// model is the scenario-independent preparation of a valid input: per-pool DaemonSet overhead and
// workload allocatable, global zone ids, and which pools every workload may use.
type model struct {
	in        *Input
	pools     []poolModel
	zoneNames []string         // global zone id → name, sorted by name
	zoneID    map[string]int32 // name → global zone id
	req       []vec            // per workload: requests of one pod, with one pod slot
	// excl[w][p] is why workload w may not use pool p ("" = it may), too-large included;
	// exclusionMessage explains it.
	excl [][]Reason
	// eligible[w] lists the pools workload w may use, in input order.
	eligible [][]int
	// cap[w][p] is the most pods of workload w a node of pool p holds by their extended resources
	// (ExtendedPerNode), 0 for no such limit; peers[w] the workloads whose pods share no node with w's
	// (extendedPeers). Both nil when no workload requests an extended resource.
	cap   [][]int64
	peers [][]int
	// spare are packings no longer needed, for the next packings to reuse (recycle, takeSim), under
	// spareMu: Plan's scenarios run side by side.
	spareMu sync.Mutex
	spare   []*sim
}

type poolModel struct {
	p        *Pool
	alloc    vec // kubelet allocatable of one node
	ds       vec // requests of the matching DaemonSets, Pods = the slots they take
	walloc   vec // workload allocatable: alloc − ds
	dsNames  []string
	dsUsage  int64
	usable   bool    // walloc > 0 in CPU, memory and pods and ≥ 0 elsewhere
	zones    []int32 // global zone id per local zone index
	nz       int     // max(1, len(zones))
	localOf  map[int32]int
	priceKey float64 // price for ordering: unknown (0) sorts after every known price
}

func newModel(in *Input) *model {
	m := &model{in: in, zoneID: map[string]int32{}}
	for i := range in.Pools {
		for _, z := range in.Pools[i].Zones {
			if _, ok := m.zoneID[z]; !ok {
				m.zoneID[z] = 0
				m.zoneNames = append(m.zoneNames, z)
			}
		}
	}
	slices.Sort(m.zoneNames)
	for i, z := range m.zoneNames {
		m.zoneID[z] = int32(i)
	}
	m.pools = make([]poolModel, len(in.Pools))
	for i := range in.Pools {
		m.pools[i] = m.newPoolModel(&in.Pools[i])
	}
	m.req = make([]vec, len(in.Workloads))
	m.excl = make([][]Reason, len(in.Workloads))
	m.eligible = make([][]int, len(in.Workloads))
	if slices.ContainsFunc(in.Workloads, func(w Workload) bool { return len(extendedNames(&w)) > 0 }) {
		m.cap = make([][]int64, len(in.Workloads))
		m.peers = extendedPeers(in)
	}
	for w := range in.Workloads {
		wl := &in.Workloads[w]
		r := toVec(wl.Requests)
		r[rPods] = 1
		r[rVol] = VolumeAttachments(wl.VolumeClaims)
		m.req[w] = r
		m.excl[w] = make([]Reason, len(in.Pools))
		if m.cap != nil {
			m.cap[w] = make([]int64, len(in.Pools))
		}
		for p := range in.Pools {
			reason := excludedBy(wl, &in.Pools[p])
			if ds, _ := daemonSetPortConflict(in, wl, &in.Pools[p]); reason == "" && ds != "" {
				reason = ReasonHostPort
			}
			if k := ExtendedPerNode(wl, &in.Pools[p]); reason == "" && k == 0 {
				reason = ReasonExtended
			} else if k > 0 {
				m.cap[w][p] = k
			}
			if reason == "" && !m.fitsEmpty(w, p) {
				reason = ReasonTooLarge
			}
			m.excl[w][p] = reason
			if reason == "" {
				m.eligible[w] = append(m.eligible[w], p)
			}
		}
	}
	return m
}

func (m *model) newPoolModel(p *Pool) poolModel {
	pm := poolModel{p: p, alloc: toVec(p.Allocatable), localOf: map[int32]int{}}
	var landed []DaemonSet
	for i := range m.in.DaemonSets {
		d := &m.in.DaemonSets[i]
		if !daemonSetMatches(d, p) {
			continue
		}
		landed = append(landed, *d)
		pm.dsUsage = satAdd(pm.dsUsage, d.CPUUsageMillicores)
		pm.dsNames = append(pm.dsNames, d.Name)
	}
	taken, left := DaemonSetLoad(p.Allocatable, p.SystemPods, p.PodIPs, landed)
	pm.ds, pm.walloc = toVec(taken), toVec(left)
	pm.usable = pm.walloc[rCPU] > 0 && pm.walloc[rMem] > 0 && pm.walloc[rPods] > 0 && pm.walloc[rEph] >= 0 &&
		pm.walloc[rGPU] >= 0 && pm.walloc[rVol] >= 0
	for _, z := range p.Zones {
		id := m.zoneID[z]
		pm.localOf[id] = len(pm.zones)
		pm.zones = append(pm.zones, id)
	}
	pm.nz = max(1, len(pm.zones))
	pm.priceKey = p.PricePerHour
	if pm.priceKey <= 0 {
		pm.priceKey = 1e300
	}
	return pm
}

// poolLabel names a pool in messages: `pool "general" (m5.large)`.
func poolLabel(p *Pool) string {
	if p.InstanceType == "" {
		return fmt.Sprintf("pool %q", p.Name)
	}
	return fmt.Sprintf("pool %q (%s)", p.Name, p.InstanceType)
}

// nodeOf names one node of a pool in messages: `a node of pool "general" (m5.large)`.
func nodeOf(p *Pool) string {
	return "a node of " + poolLabel(p)
}

// exclusionMessage explains m.excl[w][p].
func (m *model) exclusionMessage(w, p int) string {
	if _, msg := exclusion(&m.in.Workloads[w], &m.in.Pools[p]); msg != "" {
		return msg
	}
	if ds, hp := daemonSetPortConflict(m.in, &m.in.Workloads[w], &m.in.Pools[p]); m.excl[w][p] == ReasonHostPort && ds != "" {
		return fmt.Sprintf("workload %q asks for host port %s, which DaemonSet %q takes on every node of pool %q; "+
			"use another port or keep the DaemonSet off that pool", m.in.Workloads[w].Name, hp, ds, m.in.Pools[p].Name)
	}
	if m.excl[w][p] == ReasonExtended {
		return extendedMessage(&m.in.Workloads[w], &m.in.Pools[p])
	}
	return m.tooLarge(w, p)
}

// fitsEmpty reports whether one pod of workload w fits an empty node of pool p after DaemonSets.
func (m *model) fitsEmpty(w, p int) bool {
	pm := &m.pools[p]
	return pm.usable && m.req[w].fits(pm.walloc)
}

// tooLarge explains why one pod of workload w does not fit an empty node of pool p after DaemonSets
// (fitsEmpty is false), with the numbers per resource; "" when it fits.
func (m *model) tooLarge(w, p int) string {
	pm := &m.pools[p]
	wl := &m.in.Workloads[w]
	switch {
	case m.fitsEmpty(w, p):
		return ""
	case !pm.usable:
		return fmt.Sprintf("the DaemonSets on %s leave no room for pods of workload %q (%s); "+
			"choose a larger instance type or fewer DaemonSets", poolLabel(pm.p), wl.Name, m.daemonSetShortage(p))
	}
	req := m.req[w]
	var wants, haves, remedies []string
	for r := range nRes {
		if req[r] <= pm.walloc[r] {
			continue
		}
		if r == rGPU {
			wants = append(wants, FormatCount(req[r])+" "+gpuResource)
		} else {
			wants = append(wants, formatAmount(ResourceNames[r], req[r]))
		}
		switch {
		case r == rGPU && pm.alloc[r] == 0 && pm.p.GPUNote != "":
			// Its GPUs are not NVIDIA GPUs a current driver supports: they advertise another resource or none.
			haves = append(haves, "no "+gpuResource+" ("+pm.p.GPUNote+")")
		case r == rGPU && pm.alloc[r] == 0:
			haves = append(haves, "no "+gpuResource)
		case pm.alloc[r] == 0:
			haves = append(haves, "no "+resourceWords[r])
		case pm.ds[r] > 0:
			haves = append(haves, formatAmount(ResourceNames[r], pm.walloc[r])+" left after DaemonSets")
		default:
			haves = append(haves, formatAmount(ResourceNames[r], pm.walloc[r]))
		}
		remedies = appendNew(remedies, tooLargeRemedy(r, pm.alloc[r]))
	}
	return fmt.Sprintf("pod of workload %q requests %s but %s has %s; %s", wl.Name, field.JoinAnd(wants), nodeOf(pm.p),
		field.JoinAnd(haves), strings.Join(remedies, "; "))
}

// tooLargeRemedy says what lets a pod that requests more of resource r than an empty node has (alloc of it) fit.
// A larger size of a family often attaches no more volumes (EBS and Azure disks share the node's attachment slots
// with its network interfaces), and a node without GPUs gets none from a larger size.
func tooLargeRemedy(r int, alloc int64) string {
	switch {
	case r == rGPU && alloc == 0:
		return "choose an instance type with NVIDIA GPUs that current drivers support (AMD, Habana and Kepler GPUs and fractional GPUs offer no nvidia.com/gpu) or drop the GPU request"
	case r == rGPU:
		return "choose an instance type with more GPUs or request fewer"
	case r == rVol:
		return "choose an instance type that attaches more volumes per node (a larger size of a family often attaches no " +
			"more) or give each pod fewer volume claims"
	case r == rEph:
		return "give the nodes a larger disk or lower the ephemeral-storage request"
	}
	return "choose a larger instance type or lower the requests"
}

// appendNew appends s to list unless it is there already.
func appendNew(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}

// daemonSetShortage describes the resources in which a pool's DaemonSets leave no room.
func (m *model) daemonSetShortage(p int) string {
	pm := &m.pools[p]
	var parts []string
	for r := range nRes {
		required := r == rCPU || r == rMem || r == rPods
		if pm.walloc[r] > 0 || !required && pm.walloc[r] == 0 {
			continue
		}
		if r == rPods {
			parts = append(parts, fmt.Sprintf("DaemonSets take %s of the %s max pods", FormatCount(pm.ds[r]),
				FormatCount(pm.alloc[r])))
			continue
		}
		parts = append(parts, fmt.Sprintf("DaemonSets request %s of the %s allocatable %s",
			formatValue(ResourceNames[r], pm.ds[r]), formatValue(ResourceNames[r], pm.alloc[r]), resourceWords[r]))
	}
	return strings.Join(parts, "; ")
}

// shares returns the size of a request relative to a workload allocatable: the largest share of one
// resource and the sum of the shares (pod slots included).
func shares(req, walloc vec) (maxShare, sumShare float64) {
	for r := range nRes {
		if req[r] > 0 && walloc[r] > 0 {
			s := float64(req[r]) / float64(walloc[r])
			maxShare = max(maxShare, s)
			sumShare += s
		}
	}
	return maxShare, sumShare
}

// perNode returns how many pods with request req a fresh node with workload allocatable walloc holds,
// at most one under node spread and at most limit when limit > 0 (their extended resources, capOf).
func perNode(req, walloc vec, spread SpreadType, limit int64) int64 {
	k := fitCount(walloc, req)
	if spread == SpreadNode {
		k = min(k, 1)
	}
	if limit > 0 {
		k = min(k, limit)
	}
	return k
}

// capOf is the most pods of workload w a node of pool p holds by their extended resources, 0 for no limit.
func (m *model) capOf(w, p int) int64 {
	if m.cap == nil {
		return 0
	}
	return m.cap[w][p]
}

// waste is the least-waste score of placing n pods with request req on fresh nodes of a pool: the
// fraction of the workload allocatable of ceil(n / per-node) nodes left unused, averaged over the
// resources the pod requests (CPU, memory, ephemeral storage, GPU, volume attachments; pod slots when it
// requests none).
// Unlike the cluster autoscaler's least-waste expander it scores allocatable, not capacity.
func waste(req, walloc vec, spread SpreadType, limit int64, n int) float64 {
	k := perNode(req, walloc, spread, limit)
	if k <= 0 {
		return 2
	}
	nn := float64(max(n, 1))
	nodes := float64(ceilDiv(int64(max(n, 1)), k))
	sum, cnt := 0.0, 0
	for _, r := range []int{rCPU, rMem, rEph, rGPU, rVol} {
		if req[r] > 0 {
			sum += 1 - nn*float64(req[r])/(nodes*float64(walloc[r]))
			cnt++
		}
	}
	if cnt == 0 {
		return 1 - nn/(nodes*float64(walloc[rPods]))
	}
	return sum / float64(cnt)
}

// poolOrder returns the pools workload w may use in preference order for n pods: least waste, then
// higher weight, then lower known price (unknown last), then name, then input order.
func (m *model) poolOrder(w, n int) []int {
	pools := slices.Clone(m.eligible[w])
	spread := m.in.Workloads[w].effectiveSpread()
	score := make([]float64, len(m.pools))
	for _, p := range pools {
		score[p] = waste(m.req[w], m.pools[p].walloc, spread, m.capOf(w, p), n)
	}
	slices.SortStableFunc(pools, func(a, b int) int {
		pa, pb := &m.pools[a], &m.pools[b]
		return cmp.Or(
			cmp.Compare(score[a], score[b]),
			cmp.Compare(pb.p.Weight, pa.p.Weight),
			cmp.Compare(pa.priceKey, pb.priceKey),
			cmp.Compare(pa.p.Name, pb.p.Name),
			cmp.Compare(a, b),
		)
	})
	return pools
}
