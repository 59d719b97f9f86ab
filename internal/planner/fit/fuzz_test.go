package fit

import (
	"fmt"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"reflect"
	"runtime"
	"testing"
)

// byteReader hands out fuzz bytes, then zeros.
type byteReader struct {
	b []byte
	i int
}

func (r *byteReader) next() int {
	if r.i >= len(r.b) {
		return 0
	}
	r.i++
	return int(r.b[r.i-1])
}

// fuzzInput decodes a small input from bytes. Most inputs are valid; some bytes produce negative or
// inconsistent values so Validate is exercised too.
func fuzzInput(data []byte) Input {
	r := &byteReader{b: data}
	var in Input
	zones := []string{"a", "b", "c"}
	for i := range 1 + r.next()%3 {
		p := Pool{
			Name: fmt.Sprint("p", i),
			Allocatable: Resources{CPUMillicores: int64(r.next()*20 - 5), MemoryBytes: int64(r.next()*10) * mi,
				Pods: int64(1 + r.next()%11), GPU: int64(r.next() % 2)},
			MinNodes: r.next() % 3,
			Zones:    zones[:r.next()%4],
			Labels:   map[string]string{"arch": []string{"amd64", "arm64"}[r.next()%2]},
			Weight:   r.next() % 3,
		}
		p.MaxNodes = p.MinNodes + r.next()%6
		if r.next()%3 == 0 {
			p.Taints = []Taint{{Key: "dedicated", Value: "x", Effect: []TaintEffect{EffectNoSchedule,
				EffectNoExecute, EffectPreferNoSchedule}[r.next()%3]}}
		}
		p.PricePerHour = float64(r.next()%3) / 10
		in.Pools = append(in.Pools, p)
	}
	for i := range r.next() % 3 {
		d := DaemonSet{Name: fmt.Sprint("d", i), Requests: Resources{CPUMillicores: int64(r.next() * 4),
			MemoryBytes: int64(r.next()) * mi}, CPUUsageMillicores: int64(r.next()), TakesPodSlot: r.next()%2 == 0}
		if r.next()%3 == 0 {
			d.NodeSelector = map[string]string{"arch": "arm64"}
		}
		if r.next()%2 == 0 {
			d.Tolerations = []Toleration{{Operator: OperatorExists}}
		}
		in.DaemonSets = append(in.DaemonSets, d)
	}
	for i := range 1 + r.next()%4 {
		w := Workload{Name: fmt.Sprint("w", i), Replicas: r.next() % 9, CPUUsageMillicores: int64(r.next()),
			Requests: Resources{CPUMillicores: int64(r.next() * 8), MemoryBytes: int64(r.next()*4) * mi,
				GPU: int64(r.next() % 4 / 3)}}
		w.MaxReplicas = w.Replicas + r.next()%5
		w.MaxSurge = IntOrPercent{Value: r.next() % 60, Percent: r.next()%2 == 0}
		switch r.next() % 4 {
		case 1:
			w.Spread = Spread{Type: SpreadNode}
		case 2, 3:
			w.Spread = Spread{Type: SpreadZone, MaxSkew: 1 + r.next()%2}
		}
		if r.next()%3 == 0 {
			w.Pools = []string{fmt.Sprint("p", r.next()%3)}
		}
		if r.next()%2 == 0 {
			w.Tolerations = []Toleration{{Key: "dedicated", Operator: OperatorEqual, Value: "x"}}
		}
		if r.next()%4 == 0 {
			w.NodeSelector = map[string]string{"arch": "arm64"}
		}
		in.Workloads = append(in.Workloads, w)
	}
	// One byte in sixteen breaks a value, so Validate is exercised too.
	switch r.next() % 16 {
	case 1:
		in.Workloads[0].MaxReplicas = in.Workloads[0].Replicas - 1
	case 2:
		in.Pools[0].MaxNodes = in.Pools[0].MinNodes - 1
	case 3:
		in.Workloads[0].Requests.CPUMillicores = -1
	case 4:
		in.Workloads[0].Pools = []string{"nope"}
	case 5:
		in.Pools[0].Allocatable.Pods = 0
	}
	return in
}

func FuzzPlan(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{2, 100, 200, 11, 1, 1, 3, 0, 2, 5, 1, 0, 1, 2, 10, 20, 5, 0, 1, 0, 3, 4, 2, 50, 100, 50, 0, 3, 2,
		25, 1, 2, 1, 0, 0, 1})
	f.Add([]byte{0, 47, 167, 10, 0, 0, 4, 0, 1, 4, 2, 0, 0, 2, 62, 8, 0, 0, 0, 1, 1, 4, 1, 250, 3, 4, 1, 0, 0, 0})
	f.Add([]byte{1, 255, 255, 11, 1, 2, 3, 1, 0, 5, 0, 2, 255, 255, 255, 1, 1, 0, 3, 8, 9, 12, 200, 100, 1, 4, 2,
		2, 0, 0, 0, 0, 1, 30, 3, 1, 1, 8, 9, 10, 11, 1, 25, 1, 3, 2, 1, 1, 1, 1})
	f.Add([]byte{2, 30, 30, 3, 0, 1, 3, 0, 1, 1, 0, 0, 0, 1, 10, 10, 3, 1, 0, 1, 0, 1, 0, 0, 2, 200, 200, 1, 1, 3,
		0, 2, 2, 2, 1, 1, 1, 1, 8, 60, 60, 0, 2, 10, 1, 1, 2})
	for _, seed := range []uint64{1, 2, 3} {
		checkPlan(f, benchInput(seed, 3, 4, 3))
	}
	for _, in := range []Input{aksSmallInput(wl("extra", 4, 200, 100)), reportInput(), validInput(),
		{Pools: []Pool{pool("tiny", 940, 1669, 1, 2)}, Workloads: []Workload{wl("web", 1, 10, 10)},
			DaemonSets: []DaemonSet{{Name: "heavy", Requests: Resources{CPUMillicores: 1000}, TakesPodSlot: true}}}} {
		checkPlan(f, in)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkPlan(t, fuzzInput(data))
	})
}

// checkPlan runs Plan and Validate on an input and checks the invariants of the result.
func checkPlan(t testing.TB, in Input) {
	t.Helper()
	res, err := Plan(in)
	if verr := Validate(in); (err == nil) != (verr == nil) {
		t.Fatalf("Plan error %v, Validate error %v", err, verr)
	}
	if err != nil {
		errs := field.As(err)
		if len(errs) == 0 {
			t.Fatalf("error without field.Error: %v", err)
		}
		for _, e := range errs {
			if e.Path.IsRoot() || e.Detail == "" {
				t.Fatalf("malformed input error %#v", e)
			}
		}
		return
	}
	// Again on one CPU: the scenarios, orders and replays that ran two at a time now run in turn.
	procs := runtime.GOMAXPROCS(1)
	again, _ := Plan(in)
	runtime.GOMAXPROCS(procs)
	if !reflect.DeepEqual(res, again) {
		t.Fatalf("Plan is not deterministic (on %d CPUs, then on one)", procs)
	}
	_ = Report(res)
	walloc := map[string]Resources{}
	for _, p := range res.Pools {
		walloc[p.Pool] = p.WorkloadAllocatable
	}
	fits := true
	for _, sc := range res.Scenarios {
		scFits := sc.UnplacedPods == 0
		podsIn := map[string]int{}
		for _, pl := range sc.Placements {
			n := pl.Unplaced
			for _, pp := range pl.Pools {
				n += pp.Pods
				podsIn[pp.Pool] += pp.Pods
			}
			if n != pl.Pods {
				t.Fatalf("%s: placement of %s sums to %d, want %d", sc.Scenario, pl.Workload, n, pl.Pods)
			}
		}
		for i, pr := range sc.Pools {
			pool := &in.Pools[i]
			if pr.NodesRequired < pr.LowerBound || pr.LowerBound < pr.MinNodes || pr.NodesRequired != len(pr.Nodes) {
				t.Fatalf("%s/%s: nodes %d, lower bound %d, min %d, node list %d", sc.Scenario, pr.Pool,
					pr.NodesRequired, pr.LowerBound, pr.MinNodes, len(pr.Nodes))
			}
			if pr.Fits != (res.Pools[i].Usable && pr.NodesRequired <= pool.MaxNodes) {
				t.Fatalf("%s/%s: fits %v", sc.Scenario, pr.Pool, pr.Fits)
			}
			scFits = scFits && pr.Fits
			wa := toVec(walloc[pr.Pool])
			pods, beyond := 0, 0
			var req vec
			if !res.Pools[i].Usable {
				wa = vec{} // an unusable pool holds no pods
			}
			for j, n := range pr.Nodes {
				checkNodeWorkloads(t, in, n)
				if !toVec(n.Requests).fits(wa) || n.Requests.Pods != int64(n.Pods) {
					t.Fatalf("%s/%s node %d: requests %+v exceed workload allocatable %+v", sc.Scenario, pr.Pool,
						n.Index, n.Requests, wa)
				}
				if n.BeyondMax != (j >= pool.MaxNodes) || n.Index != j+1 {
					t.Fatalf("%s/%s node %d: beyond max %v with max %d", sc.Scenario, pr.Pool, n.Index, n.BeyondMax,
						pool.MaxNodes)
				}
				pods += n.Pods
				if n.BeyondMax {
					beyond += n.Pods
				}
				req = req.add(toVec(n.Requests))
			}
			if pods != pr.Pods || beyond != pr.PodsBeyondMax || pods != podsIn[pr.Pool] ||
				req.resources() != pr.Requested {
				t.Fatalf("%s/%s: pod sums %d/%d/%d, beyond %d/%d", sc.Scenario, pr.Pool, pods, pr.Pods,
					podsIn[pr.Pool], beyond, pr.PodsBeyondMax)
			}
			if res.Pools[i].Usable && !toVec(pr.Stranded).fits(wa.scale(int64(pr.NodesRequired))) {
				t.Fatalf("%s/%s: stranded %+v above capacity", sc.Scenario, pr.Pool, pr.Stranded)
			}
		}
		if scFits != sc.Fits {
			t.Fatalf("%s: fits %v, pools and unplaced say %v", sc.Scenario, sc.Fits, scFits)
		}
		fits = fits && sc.Fits
	}
	if fits != res.Fits || (len(res.Failures) == 0) != res.Fits {
		t.Fatalf("fits %v with %d failures", res.Fits, len(res.Failures))
	}
	for _, h := range res.Headroom {
		if h.Replicas < 0 {
			t.Fatalf("negative headroom %+v", h)
		}
	}
	checkSpread(t, in)
}

// checkSpread checks the spread rules on the internal packing of both scenarios: at most one pod of
// a node-spread workload per node, and zone counts within max skew for a zone-spread workload.
func checkSpread(t testing.TB, in Input) {
	m := newModel(&in)
	for _, sc := range Scenarios {
		s := m.pack(sc)
		for w := range s.classes {
			c := &s.classes[w]
			seen := map[int32]bool{}
			for _, id := range c.held {
				if seen[id] {
					t.Fatalf("%s: two pods of node-spread workload %s on node %d", sc, in.Workloads[w].Name, id)
				}
				seen[id] = true
			}
			if c.spread == SpreadZone && len(c.counts) > 0 {
				lo, hi := c.counts[0], c.counts[0]
				total := 0
				for _, n := range c.counts {
					lo, hi = min(lo, n), max(hi, n)
					total += n
				}
				if hi-lo > c.skew || total+c.unplaced != c.n {
					t.Fatalf("%s: zone counts %v of %s break max skew %d (total %d of %d)", sc, c.counts,
						in.Workloads[w].Name, c.skew, total, c.n)
				}
			}
		}
	}
}

// checkNodeWorkloads checks that a node's per-workload pods explain its requests exactly: anyone can
// verify a packing from the nodes alone.
func checkNodeWorkloads(t testing.TB, in Input, n NodeUsage) {
	t.Helper()
	req := map[string]Resources{}
	for _, w := range in.Workloads {
		req[w.Name] = w.Requests
	}
	var sum vec
	pods := 0
	seen := map[string]bool{}
	for _, wp := range n.Workloads {
		if seen[wp.Workload] || wp.Pods <= 0 {
			t.Fatalf("node %d: workload %q listed twice or with %d pods", n.Index, wp.Workload, wp.Pods)
		}
		seen[wp.Workload] = true
		r := toVec(req[wp.Workload])
		r[rPods] = 1
		sum = sum.add(r.scale(int64(wp.Pods)))
		pods += wp.Pods
	}
	if pods != n.Pods || sum != toVec(n.Requests) {
		t.Fatalf("node %d: workloads %+v sum to %d pods %v, node has %d pods %+v", n.Index, n.Workloads, pods, sum, n.Pods, n.Requests)
	}
}
