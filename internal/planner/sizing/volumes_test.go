package sizing

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/overhead"
)

// statefulSet is n replicas of a small StatefulSet pod with one gp3 claim of its own per claim name.
func statefulSet(n int, claims ...string) Workload {
	w := Workload{Name: "db", Replicas: intp(n), Requests: fit.Resources{CPUMillicores: 50, MemoryBytes: 64 << 20}}
	for _, c := range claims {
		w.VolumeClaims = append(w.VolumeClaims, fit.VolumeClaim{Name: c, SizeBytes: 20 << 30, StorageClass: "gp3",
			AccessModes: []fit.AccessMode{fit.ReadWriteOnce}, From: fit.ClaimPerPodTemplate})
	}
	return w
}

func volumePlan(t *testing.T, maxNodes int, w Workload) *Plan {
	t.Helper()
	plan, err := NewPlanner(EmbeddedCatalog()).Solve(context.Background(), Request{
		Pools: []Pool{{Name: "general", Cloud: catalog.AWS, InstanceTypes: []string{"m5.large"}, MaxNodes: maxNodes}}, Workloads: []Workload{w}})
	if err != nil {
		t.Fatal(err)
	}
	return plan
}

// TestVolumeAttachLimits: an m5.large attaches 24 EBS volumes (overhead.VolumeAttachLimit, volumes.md §5.1),
// so the StatefulSet's pods need a node per 24 claims, whatever their CPU and memory, and a pool too small
// for the claims fails on the volume limit, naming it.
func TestVolumeAttachLimits(t *testing.T) {
	limit := overhead.VolumeAttachLimit(overhead.InstanceFromCatalog(mustType(t, "m5.large"))).Count
	if limit != 24 {
		t.Fatalf("m5.large attach limit %d, want 24", limit)
	}
	for _, tt := range []struct {
		name     string
		maxNodes int
		w        Workload
		fits     bool
		nodes    int
	}{
		{"30 claims on at most 2 nodes", 2, statefulSet(30, "data"), true, 2},
		{"30 claims on 1 node", 1, statefulSet(30, "data"), false, 2},
		{"60 claims (2 a pod) on at most 2 nodes", 2, statefulSet(30, "data", "wal"), false, 3},
		{"48 claims on 2 nodes", 2, statefulSet(48, "data"), true, 2},
		{"49 claims on 2 nodes", 2, statefulSet(49, "data"), false, 3},
		{"file shares are not attached", 1, func() Workload {
			w := statefulSet(26, "data") // 27 pod slots left by the system pods
			w.VolumeClaims[0].AccessModes = []fit.AccessMode{fit.ReadWriteMany}
			return w
		}(), true, 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			plan := volumePlan(t, tt.maxNodes, tt.w)
			steady := plan.Pools[0].Steady
			if plan.Fits != tt.fits || steady.NodesRequired != tt.nodes {
				t.Fatalf("fits %v on %d nodes, want %v on %d; failures %v", plan.Fits, steady.NodesRequired, tt.fits, tt.nodes, plan.Failures)
			}
			if plan.Pools[0].WorkloadAllocatable.Volumes != limit {
				t.Errorf("workload allocatable volumes %d, want %d", plan.Pools[0].WorkloadAllocatable.Volumes, limit)
			}
			if tt.fits {
				for _, n := range steady.Nodes {
					if n.Requests.Volumes > limit {
						t.Errorf("a node holds %d attachments, above %d", n.Requests.Volumes, limit)
					}
				}
				return
			}
			if len(plan.Failures) == 0 || !strings.Contains(plan.Failures[0].Message, "volume attachment") {
				t.Errorf("failures %v do not name the volume attachments", plan.Failures)
			}
		})
	}
}

func mustType(t *testing.T, name string) catalog.InstanceType {
	t.Helper()
	it, err := catalog.Lookup(catalog.AWS, name)
	if err != nil {
		t.Fatal(err)
	}
	return it
}

// TestVolumeClaimRules: a ReadWriteOncePod claim shared by several pods is refused on the claim, and so is a
// ReadWriteOnce one unless a required pod affinity keeps the pods on one node; one replica's surge against either
// is warned about.
func TestVolumeClaimRules(t *testing.T) {
	shared := func(mode fit.AccessMode, n int) Workload {
		return Workload{Name: "app", Replicas: intp(n), Requests: fit.Resources{CPUMillicores: 100},
			VolumeClaims: []fit.VolumeClaim{{Name: "data", AccessModes: []fit.AccessMode{mode}, From: fit.ClaimShared}}}
	}
	_, err := NewPlanner(EmbeddedCatalog()).Solve(context.Background(), Request{
		Pools: []Pool{pool("general", "m5.large", 3)}, Workloads: []Workload{shared(fit.ReadWriteOncePod, 2)}})
	if es := field.As(err); len(es) != 1 || es[0].Path.String() != "Workloads[0].VolumeClaims[0].AccessModes" || !strings.Contains(es[0].Error(), "VolumeRestrictions") {
		t.Errorf("a shared ReadWriteOncePod claim of 2 pods: got %v, want one error on the claim's access modes", err)
	}
	warned := func(w Workload, path string) {
		t.Helper()
		plan, err := NewPlanner(EmbeddedCatalog()).Solve(context.Background(), Request{Pools: []Pool{pool("general", "m5.large", 3)}, Workloads: []Workload{w}})
		if err != nil {
			t.Fatal(err)
		}
		for _, x := range plan.Warnings {
			if x.Code == WarnSharedVolume && x.Path.String() == path {
				return
			}
		}
		t.Errorf("no %s warning at %s: %v", WarnSharedVolume, path, plan.Warnings)
	}
	// Three replicas of a shared ReadWriteOnce claim: refused (the scheduler spreads them; those off the volume's node
	// never start), unless a required pod affinity to themselves on the hostname keeps them on one node.
	_, err = NewPlanner(EmbeddedCatalog()).Solve(context.Background(), Request{
		Pools: []Pool{pool("general", "m5.large", 3)}, Workloads: []Workload{shared(fit.ReadWriteOnce, 3)}})
	if es := field.As(err); len(es) != 1 || es[0].Path.String() != "Workloads[0].VolumeClaims[0].AccessModes" || !strings.Contains(es[0].Error(), "Multi-Attach") {
		t.Errorf("a shared ReadWriteOnce claim of 3 pods: got %v, want one error on the claim's access modes", err)
	}
	together := shared(fit.ReadWriteOnce, 3)
	together.Labels = map[string]string{"app": "db"}
	together.PodAffinity = &fit.PodAffinity{Required: []fit.PodAffinityTerm{{Selector: fit.LabelSelector{MatchLabels: map[string]string{"app": "db"}}, TopologyKey: "kubernetes.io/hostname"}}}
	if plan, err := NewPlanner(EmbeddedCatalog()).Solve(context.Background(), Request{Pools: []Pool{pool("general", "m5.large", 3)}, Workloads: []Workload{together}}); err != nil || !plan.Fits ||
		slices.ContainsFunc(plan.Warnings, func(w field.Warning) bool { return w.Code == WarnSharedVolume }) {
		t.Errorf("kept on one node by its affinity: err %v, plan %+v", err, plan)
	}
	// One replica of a shared ReadWriteOnce claim: the second pod is the surge, so the remedy is Recreate, not "one replica".
	one := shared(fit.ReadWriteOnce, 1)
	one.MaxSurge = fit.IntOrPercent{Value: 1}
	plan, err := NewPlanner(EmbeddedCatalog()).Solve(context.Background(), Request{Pools: []Pool{pool("general", "m5.large", 3)}, Workloads: []Workload{one}})
	if err != nil {
		t.Fatal(err)
	}
	if i := slices.IndexFunc(plan.Warnings, func(w field.Warning) bool { return w.Code == WarnSharedVolume }); i < 0 ||
		!strings.Contains(plan.Warnings[i].Message, "use strategy Recreate") || strings.Contains(plan.Warnings[i].Message, "or run one replica") {
		t.Errorf("one replica with a surge: %+v", plan.Warnings)
	}
	surge := shared(fit.ReadWriteOncePod, 1)
	surge.MaxSurge = fit.IntOrPercent{Value: 1}
	warned(surge, "Workloads[0].MaxSurge")
}

// TestQualifyWorkloadNames: a name shared across namespaces becomes namespace/name on each; a unique name, or one
// repeated in a single namespace (a duplicate the edge refuses), is left as it is.
func TestQualifyWorkloadNames(t *testing.T) {
	ws := []Workload{{Name: "redis", Namespace: "team-a"}, {Name: "redis", Namespace: "team-b"}, {Name: "api", Namespace: "team-a"},
		{Name: "web", Namespace: "x"}, {Name: "web", Namespace: "x"}}
	QualifyWorkloadNames(ws)
	var got []string
	for _, w := range ws {
		got = append(got, w.Name)
	}
	if strings.Join(got, ",") != "team-a/redis,team-b/redis,api,web,web" {
		t.Errorf("names %v", got)
	}
}

// TestHyperdiskAttachWarning: a GCP C3 pool whose workloads attach volumes warns that the PD CSI driver's
// reported 127 is above what Hyperdisk volumes attach; without claims, on another series, or with the attach
// limit given, it does not.
func TestHyperdiskAttachWarning(t *testing.T) {
	claims := []fit.VolumeClaim{{Name: "data", AccessModes: []fit.AccessMode{fit.ReadWriteOnce}}}
	limit := int64(15)
	for _, tc := range []struct {
		name     string
		instance string
		claims   []fit.VolumeClaim
		limit    *int64
		warned   bool
	}{
		{"c3 with claims", "c3-standard-4", claims, nil, true},
		{"c3 without claims", "c3-standard-4", nil, nil, false},
		{"c3 with the limit given", "c3-standard-4", claims, &limit, false},
		{"n2 with claims", "n2-standard-4", claims, nil, false},
	} {
		p := Pool{Name: "db", Cloud: catalog.GCP, InstanceTypes: []string{tc.instance}, MaxNodes: 3}
		p.Overhead.VolumeAttachLimit = tc.limit
		plan, err := NewPlanner(EmbeddedCatalog()).Solve(context.Background(), Request{Pools: []Pool{p},
			Workloads: []Workload{{Name: "pg", Replicas: intp(2), Requests: fit.Resources{CPUMillicores: 500, MemoryBytes: 1 << 30}, VolumeClaims: tc.claims}}})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		got := slices.ContainsFunc(plan.Warnings, func(w field.Warning) bool {
			return w.Code == overhead.CodeHyperdiskAttach && strings.Contains(w.Message, "Hyperdisk")
		})
		if got != tc.warned {
			t.Errorf("%s: warned %v, want %v (%v)", tc.name, got, tc.warned, plan.Warnings)
		}
	}
}

// TestClaimDiskType: a claim's disk type is checked against the machine series of the GCP pools its pods land
// on (disks.md §6.1): pd-balanced on an N4 pool and hyperdisk-balanced on an E2 pool fail on the claim's
// DiskType; the pods kept off the N4 pool by Pools pass; a series without a source (G2) warns; a
// ReadWriteMany claim (a file share) is not a disk and is not checked.
func TestClaimDiskType(t *testing.T) {
	claim := func(typ string, modes ...fit.AccessMode) []fit.VolumeClaim {
		return []fit.VolumeClaim{{Name: "data", DiskType: typ, AccessModes: modes}}
	}
	for _, tc := range []struct {
		name    string
		pools   []string // instance types, one pool each, named p0, p1, …
		only    []string // Workload.Pools
		claims  []fit.VolumeClaim
		wantErr string
		warned  bool
	}{
		{"pd-balanced on n4", []string{"n4-standard-8"}, nil, claim("pd-balanced"), "the N4 series does not attach pd-balanced", false},
		{"hyperdisk on e2", []string{"e2-standard-8"}, nil, claim("hyperdisk-balanced"), "the E2 series does not attach hyperdisk-balanced", false},
		{"hyperdisk on n4", []string{"n4-standard-8"}, nil, claim("hyperdisk-balanced"), "", false},
		{"kept off n4", []string{"n4-standard-8", "e2-standard-8"}, []string{"p1"}, claim("pd-balanced"), "", false},
		{"g2 unknown", []string{"g2-standard-8"}, nil, claim("pd-balanced"), "", true},
		{"file share", []string{"n4-standard-8"}, nil, claim("pd-balanced", fit.ReadWriteMany), "", false},
		{"no type", []string{"n4-standard-8"}, nil, claim(""), "", false},
	} {
		var pools []Pool
		for i, it := range tc.pools {
			pools = append(pools, Pool{Name: fmt.Sprintf("p%d", i), Cloud: catalog.GCP, InstanceTypes: []string{it}, MaxNodes: 5})
		}
		plan, err := NewPlanner(EmbeddedCatalog()).Solve(context.Background(), Request{Pools: pools,
			Workloads: []Workload{{Name: "pg", Replicas: intp(2), Requests: fit.Resources{CPUMillicores: 500, MemoryBytes: 1 << 30},
				VolumeClaims: tc.claims, Pools: tc.only,
				// G2 nodes carry GKE's GPU taint (TestGKEGPUTaint): the pods tolerate it so that they may land there.
				Tolerations: []fit.Toleration{{Key: GKEGPUTaint.Key, Operator: fit.OperatorExists}}}}})
		if tc.wantErr != "" {
			es := field.As(err)
			if len(es) != 1 || es[0].Path.String() != "Workloads[0].VolumeClaims[0].DiskType" || !strings.Contains(es[0].Detail, tc.wantErr) ||
				!strings.Contains(es[0].Detail, `workload "pg"'s claim "data"`) {
				t.Errorf("%s: got %v, want an error on the claim's DiskType with %q", tc.name, err, tc.wantErr)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		got := slices.ContainsFunc(plan.Warnings, func(w field.Warning) bool { return w.Code == WarnDiskTypeUnchecked })
		if got != tc.warned {
			t.Errorf("%s: warned %v, want %v (%v)", tc.name, got, tc.warned, plan.Warnings)
		}
	}
}

// TestClaimDiskTypeNamesAllPools: one error per claim names every pool the workload may use whose machine type
// cannot attach the claim's disk type, placed on or not (a mixed pool by its failing member), and the pools
// that attach it as the remedy; with none, it says so.
func TestClaimDiskTypeNamesAllPools(t *testing.T) {
	for _, tc := range []struct {
		name    string
		pools   map[string][]string
		want    []string
		notWant []string
	}{
		{"e2, n4 and mixed", map[string][]string{"e2": {"e2-standard-8"}, "n4": {"n4-standard-4"}, "mixed": {"e2-standard-8", "n4-standard-4"}},
			[]string{`can land on pools "mixed" and "n4", whose machine types cannot attach it`, `pool "mixed": machine type n4-standard-4 cannot attach`,
				`pool "n4": machine type n4-standard-4 cannot attach`, `keep the workload off pools "mixed" and "n4" (pools, node selector), on pool "e2", which attaches pd-balanced`},
			[]string{`pool "e2":`}},
		{"none attaches", map[string][]string{"n4": {"n4-standard-4"}, "c4": {"c4-standard-4"}},
			[]string{`can land on pools "c4" and "n4"`, "no other pool the workload may use attaches pd-balanced"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var pools []Pool
			for _, name := range slices.Sorted(maps.Keys(tc.pools)) {
				pools = append(pools, Pool{Name: name, Cloud: catalog.GCP, InstanceTypes: tc.pools[name], MaxNodes: 5})
			}
			_, err := NewPlanner(EmbeddedCatalog()).Solve(context.Background(), Request{Pools: pools,
				Workloads: []Workload{{Name: "pg", Replicas: intp(2), Requests: fit.Resources{CPUMillicores: 500, MemoryBytes: 1 << 30},
					VolumeClaims: []fit.VolumeClaim{{Name: "data", DiskType: "pd-balanced"}}}}})
			es := field.As(err)
			if len(es) != 1 || es[0].Path.String() != "Workloads[0].VolumeClaims[0].DiskType" {
				t.Fatalf("got %v, want one error on the claim's DiskType", err)
			}
			for _, s := range tc.want {
				if !strings.Contains(es[0].Detail, s) {
					t.Errorf("error %q lacks %q", es[0].Detail, s)
				}
			}
			for _, s := range tc.notWant {
				if strings.Contains(es[0].Detail, s) {
					t.Errorf("error %q has %q", es[0].Detail, s)
				}
			}
		})
	}
}
