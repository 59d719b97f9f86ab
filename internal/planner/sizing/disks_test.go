package sizing

import (
	"context"
	"strings"
	"testing"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
)

// TestDiskShareWarned: the volumes one node attaches share its instance type's disk limits. Ten small pods
// of one gp3 volume each (3,000 IOPS, 125 MiB/s) fit one m5.large (EBS-optimized baseline 3,600 IOPS and
// 81.25 MB/s): its ten volumes ask 30,000 IOPS and 1,310.72 MB/s, beyond the baseline and beyond the burst
// (18,750 IOPS, 593.75 MB/s), so a warning names the node, the sums and the limits.
// The same pods on ten nodes (one each) stay within the burst; claims without rates are not checked.
func TestDiskShareWarned(t *testing.T) {
	gp3 := fit.VolumeClaim{Name: "data", IOPS: 3000, ThroughputMBps: 125}
	req := func(maxNodes int, claim fit.VolumeClaim, spread bool) Request {
		n := 10
		w := Workload{Name: "pg", Replicas: &n, Requests: fit.Resources{CPUMillicores: 100, MemoryBytes: 256 << 20},
			VolumeClaims: []fit.VolumeClaim{claim}}
		if spread {
			w.Spread = fit.Spread{Type: fit.SpreadNode}
		}
		return Request{Pools: []Pool{{Name: "db", Cloud: catalog.AWS, InstanceTypes: []string{"m5.large"}, MaxNodes: maxNodes}},
			Workloads: []Workload{w}}
	}
	find := func(p *Plan) string {
		for _, w := range p.Warnings {
			if w.Code == WarnDiskShare {
				return w.Message
			}
		}
		return ""
	}
	solve := func(r Request) *Plan {
		plan, err := NewPlanner(EmbeddedCatalog()).Solve(context.Background(), r)
		if err != nil {
			t.Fatal(err)
		}
		return plan
	}
	plan := solve(req(2, gp3, false))
	msg := find(plan)
	for _, want := range []string{`pool "db" (m5.large)`, "1 node attaches volumes", "node 1's 10 volumes ask 30,000 IOPS and 1,310.72 MB/s",
		"sustained 3,600 IOPS and 81.25 MB/s", "cannot reach them together even within the node's burst"} {
		if !strings.Contains(msg, want) {
			t.Errorf("warning lacks %q: %q", want, msg)
		}
	}
	if ds := plan.Pools[0].Steady.Disk; ds == nil || ds.NodesOver != 1 || ds.Provisioned.IOPS != 30000 || ds.Volumes != 10 {
		t.Errorf("steady disk share %+v, want 1 node over with 10 volumes and 30,000 IOPS", ds)
	}
	// One volume per node: 3,000 IOPS within the baseline, 131.07 MB/s beyond it, within the burst.
	msg = find(solve(req(13, gp3, true)))
	if !strings.Contains(msg, "1 volume asks 3,000 IOPS and 131.07 MB/s") || !strings.Contains(msg, "only while the node's burst lasts (18,750 IOPS and 593.75 MB/s)") {
		t.Errorf("one volume per node: %q", msg)
	}
	if msg := find(solve(req(2, fit.VolumeClaim{Name: "data"}, false))); msg != "" {
		t.Errorf("claims without rates are not checked, yet: %s", msg)
	}
}
