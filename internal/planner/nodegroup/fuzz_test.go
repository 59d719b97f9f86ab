package nodegroup

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/sizing"
)

// FuzzSize drives the node group's planner entry point (Size, then Render) with arbitrary names, sizes,
// options and workload counts, up to 100 workloads and 5,000 pods (issue 21): it must not panic, every
// error must be an input error with a path, and a sized group must have sizes in order and names its
// consumers accept (no control character reaches a rendered output). The sizes stop there because go's
// fuzzer takes an input that runs 10 s, instrumented, for a hang (its instrumentation slows a plan about
// tenfold), and the planner's work budgets let a group of 2,000 workloads take about 4 s uninstrumented; the shapes of 10,000 workloads and of 1,000,000 pods
// are benchmarks (BenchmarkSize10kWorkloads, BenchmarkSizeKarpenterMillionPods).
func FuzzSize(f *testing.F) {
	f.Add("web", "aws", "m6i.large", "", -1, -1, 0, 1, 3, int64(500), int64(512<<20), 0, "", "", "", "")
	f.Add("spot", "aws", "m5.large,m5a.large", "spot", 2, 10, 20, 4, 5, int64(250), int64(1<<30), 50, "gp3", "most-allocated", "in-order", "zone_loss")
	f.Add("aks", "azure", "Standard_D4s_v5", "", 1, 5, 0, 2, 7, int64(1000), int64(2<<30), 128, "Premium_LRS", "", "largest-first", "")
	f.Add("gke", "gcp", "n2-standard-4", "", 0, 3, 0, 3, 2, int64(100), int64(0), 100, "pd-ssd", "", "", "node_loss")
	// The shapes that hung before issue 21, at the fuzzer's sizes: many workloads of one replica, and many pods of one.
	f.Add("many", "aws", "m5.xlarge", "", -1, -1, 0, 100, 1, int64(100), int64(100<<20), 0, "", "", "", "")
	f.Add("pods", "aws", "m5.24xlarge", "", -1, -1, 0, 1, 5000, int64(10), int64(10<<20), 0, "", "", "", "")
	f.Add("bad\nname", "aws", "", "ondemand", -5, 0, -1, 0, -1, int64(-1), int64(1<<62), -3, "x", "spread", "random", "")
	f.Fuzz(func(t *testing.T, name, cloud, types, capacity string, minSize, maxSize, headroom, workloads, replicas int,
		cpu, mem int64, disk int, diskType, scheduler, arrival, disruption string) {
		for _, s := range []string{name, cloud, types, capacity, diskType, scheduler, arrival, disruption} {
			if !utf8.ValidString(s) {
				t.Skip("Terraform strings are valid UTF-8")
			}
		}
		opt := func(n int) *int {
			if n < 0 {
				return nil
			}
			return &n
		}
		workloads = min(max(workloads, 0), 100)
		replicas = min(replicas, 5_000/max(workloads, 1))
		req := Request{
			Pool: sizing.Pool{Name: name, Cloud: catalog.Cloud(cloud), InstanceTypes: strings.Split(types, ","),
				Zones: []string{"z1", "z2", "z3"}},
			DaemonSets: []sizing.DaemonSet{{Name: "kube-proxy", Requests: fit.Resources{CPUMillicores: 100}, TakesPodSlot: true}},
			MinSize:    opt(minSize), MaxSize: opt(maxSize), HeadroomPercent: headroom,
			CapacityType: CapacityType(capacity), DiskSizeGiB: disk, DiskType: diskType,
			Scheduler: fit.SchedulerProfile(scheduler), Arrival: fit.ArrivalOrder(arrival),
		}
		if disruption != "" {
			req.Disruptions = []fit.DisruptionKind{fit.DisruptionKind(disruption)}
		}
		for i := range workloads {
			w := sizing.Workload{Name: fmt.Sprintf("w%d", i), Replicas: opt(replicas),
				Requests: fit.Resources{CPUMillicores: cpu + int64(i%7)*50, MemoryBytes: mem}}
			if i%3 == 1 {
				w.Spread = fit.Spread{Type: fit.SpreadZone}
			}
			req.Workloads = append(req.Workloads, w)
		}
		r, err := Size(context.Background(), sizing.NewPlanner(sizing.EmbeddedCatalog()), req)
		if err != nil {
			if len(field.As(err)) == 0 {
				t.Fatalf("error without input paths: %v", err)
			}
			return
		}
		if r == nil {
			t.Fatal("no result and no error")
		}
		if r.MinSize < 0 || r.MinSize > r.DesiredSize || r.DesiredSize > r.MaxSize || r.MaxSize < 1 {
			t.Fatalf("sizes out of order: min %d desired %d max %d", r.MinSize, r.DesiredSize, r.MaxSize)
		}
		if r.Fits && r.PeakNodes > r.MaxSize {
			t.Fatalf("fits with a peak of %d nodes above the maximum size %d", r.PeakNodes, r.MaxSize)
		}
		if strings.ContainsFunc(name, func(c rune) bool { return c < ' ' || c == 0x7f }) {
			t.Fatalf("node group name %q with a control character was accepted", name)
		}
		out, err := Render(req, r)
		if err != nil {
			if len(field.As(err)) == 0 {
				t.Fatalf("render error without input paths: %v", err)
			}
			return
		}
		for _, y := range []string{out.EksctlYAML, out.KarpenterYAML, out.KubeletConfigYAML} {
			if strings.ContainsFunc(y, func(c rune) bool { return c < ' ' && c != '\n' && c != '\t' }) {
				t.Fatalf("a rendered output holds a control character:\n%q", y)
			}
		}
	})
}
