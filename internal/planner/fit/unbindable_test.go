package fit

import (
	"strings"
	"testing"
)

// TestSchedulerStopsOnUnbindablePods: a zone-spread workload whose domains include a zone it can never
// use (a tainted pool's only zone, which counts under nodeTaintsPolicy Ignore) keeps pods Pending on
// any node count. The search stops at its work budget or round limit, says so, and does not blow up
// the cluster.
func TestSchedulerStopsOnUnbindablePods(t *testing.T) {
	tainted := pool("tainted", 4000, 8000, 1, 10)
	tainted.Zones = []string{"zone-c"}
	tainted.Taints = []Taint{{Key: "k", Value: "v", Effect: EffectNoSchedule}}
	open := pool("open", 4000, 8000, 0, 10)
	open.Zones = []string{"zone-a", "zone-b"}
	w := wl("web", 6, 100, 100)
	w.Spread = Spread{Type: SpreadZone, MaxSkew: 1}
	res := mustPlan(t, Input{Pools: []Pool{tainted, open}, Workloads: []Workload{w}})
	sr := res.Scenarios[0]
	if res.Fits || !strings.Contains(sr.SchedulerNote, "stopped") {
		t.Fatalf("fits %v, note %q; want no fit and a note that the search stopped\n%s", res.Fits, sr.SchedulerNote, Report(res))
	}
	if n := sr.NodesRequired; n > 1<<16 {
		t.Errorf("%d nodes: the search grew the cluster without bound", n)
	}
}
