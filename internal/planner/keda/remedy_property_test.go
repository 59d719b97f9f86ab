package keda

import (
	"fmt"
	"math/rand"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
)

// remedyFinding is one finding's text: its rule and message.
type remedyFinding struct{ id, msg string }

// findings lists a plan's errors and warnings with their rule IDs.
func findings(err error, res *Result) []remedyFinding {
	var out []remedyFinding
	for _, e := range fieldErrs(err) {
		id, _, _ := strings.Cut(e, ":")
		out = append(out, remedyFinding{id, e})
	}
	if res != nil {
		for _, w := range res.Warnings {
			out = append(out, remedyFinding{w.Code, w.Message})
		}
	}
	return out
}

func fieldErrs(err error) []string { return asErrs(err) }

// asErrs is the details of a planner error, each starting with its rule ID.
func asErrs(err error) []string {
	var out []string
	for _, e := range field.As(err) {
		out = append(out, e.Detail)
	}
	return out
}

func fires(fs []remedyFinding, ids ...string) bool {
	for _, f := range fs {
		for _, id := range ids {
			if f.id == id {
				return true
			}
		}
	}
	return false
}

// count reads a count as messages print it ("1,234").
func count(t *testing.T, s string) int64 {
	t.Helper()
	n, err := strconv.ParseInt(strings.ReplaceAll(s, ",", ""), 10, 64)
	if err != nil {
		t.Fatalf("not a count: %q", s)
	}
	return n
}

var (
	reSafeMax     = regexp.MustCompile(`the largest safe maxReplicaCount is ([\d,]+)`)
	reRolloutMax  = regexp.MustCompile(`the largest maxReplicaCount whose rollout fits is ([\d,]+)`)
	reShareMax    = regexp.MustCompile(`the largest maxReplicaCount within the usable share is ([\d,]+)`)
	reNoMax       = regexp.MustCompile(`no maxReplicaCount at or above its minimum of ([\d,]+)`)
	reGroupSize   = regexp.MustCompile(`raise the group's maximum size to ([\d,]+) nodes(?: and its nodes per zone to ([\d,]+))?`)
	reZoneNodes   = regexp.MustCompile(`raise the group's nodes per zone to ([\d,]+)`)
	rePaused      = regexp.MustCompile(`lower the autoscaling\.keda\.sh/paused-replicas annotation to at most ([\d,]+)(?: and maxReplicaCount to ([\d,]+))?`)
	reClientPause = regexp.MustCompile(`lower the autoscaling\.keda\.sh/paused-replicas annotation of "?shop/(\w+)"? to at most ([\d,]+)(?: and its maxReplicaCount to ([\d,]+))?`)
	reMaxSurge    = regexp.MustCompile(`lower the rollout's maxSurge to ([\d,]+)`)
	reConnections = regexp.MustCompile(`raise its max_connections to ([\d,]+)`)
	reClientMax   = regexp.MustCompile(`the largest safe maxReplicaCount of "?shop/(\w+)"?, the others unchanged, is ([\d,]+)`)
	reClientNone  = regexp.MustCompile(`no maxReplicaCount of "?shop/(\w+)"? at or above its minimum of ([\d,]+) is enough`)
)

// randomPeak is a ScaledObject with a random minimum, maximum, pod size, rollout, zone spread, node group and
// database.
func randomPeak(r *rand.Rand, name string) ScaledObject {
	so := base()
	so.Name, so.ScaleTargetRef.Name = name, name
	minimum := int64(r.Intn(6))
	so.MinReplicaCount = ptr(minimum)
	if r.Intn(5) == 0 {
		so.MinReplicaCount = nil
	}
	so.MaxReplicaCount = ptr(max(minimum, 1) + int64(r.Intn(60)))
	w := &Workload{ConnectionsPerPod: ptr(int64(1 + r.Intn(8))), PodTemplate: PodTemplate{Containers: []Container{{Name: "app",
		Requests: map[string]string{"cpu": fmt.Sprintf("%dm", 100+100*r.Intn(12)), "memory": "128Mi"}}}}}
	switch r.Intn(4) {
	case 0:
		w.Rollout = &Rollout{Strategy: "Recreate"}
	case 1:
		w.Rollout = &Rollout{Strategy: "RollingUpdate", MaxSurge: ptr([]string{"25%", "50%", "100%", "1", "3"}[r.Intn(5)])}
	}
	zones := []string{"a", "b", "c"}[:r.Intn(4)]
	if len(zones) > 0 && r.Intn(2) == 0 {
		w.TopologySpread = []SpreadConstraint{{TopologyKey: ZoneKey, MaxSkew: int64(1 + r.Intn(3)), WhenUnsatisfiable: "DoNotSchedule"}}
	}
	so.TargetWorkload = w
	if r.Intn(6) == 0 { // paused above its maximum: the annotation sets the peak
		so.Annotations = map[string]string{AnnotationPausedReplicas: strconv.FormatInt(*so.MaxReplicaCount+int64(1+r.Intn(20)), 10)}
	}
	g := &NodeGroupCapacity{Name: "general", MaxNodes: int64(1 + r.Intn(12)), Zones: zones,
		WorkloadAllocatable: Allocatable{CPUMillicores: int64(1000 + 250*r.Intn(12)), MemoryBytes: 8 << 30}, WorkloadPods: int64(1 + r.Intn(10))}
	if len(zones) > 0 && r.Intn(3) == 0 {
		g.MaxNodesPerZone = ptr(int64(1 + r.Intn(4)))
	}
	so.NodeGroupCapacity = g
	if r.Intn(3) > 0 {
		so.Database = &Database{Name: "orders", MaxConnections: int64(20 + r.Intn(400)), ReservedConnections: int64(r.Intn(5)), OtherClients: int64(r.Intn(20))}
	}
	return so
}

// TestRemediesPass is a property over generated ScaledObjects: every remedy a capacity rule prints (KCAP-E2,
// KCAP-E3, KCAP-W1, KCAP-E4, KCAP-W2), applied, makes that rule pass when the object is planned again, and no
// maximum it names is below the object's minimum; where it says no maximum is enough, the minimum indeed fails.
func TestRemediesPass(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	seen := map[string]int{}
	for n := 0; n < 400; n++ {
		so := randomPeak(r, "api")
		res, err := Plan(so)
		floor := int64(1)
		if so.MinReplicaCount != nil {
			floor = max(1, *so.MinReplicaCount)
		}
		replan := func(change func(*ScaledObject)) []remedyFinding {
			c := so
			g := *so.NodeGroupCapacity
			c.NodeGroupCapacity = &g
			w := *so.TargetWorkload
			c.TargetWorkload = &w
			if so.Database != nil {
				d := *so.Database
				c.Database = &d
			}
			change(&c)
			res, err := Plan(c)
			return findings(err, res)
		}
		if fs := findings(err, res); fires(fs, "KCAP-W1") && fires(fs, "KCAP-E2", "KCAP-E3") {
			t.Fatalf("case %d: KCAP-W1 says the peak is held beside KCAP-E2 or KCAP-E3: %v", n, fs)
		}
		for _, f := range findings(err, res) {
			// The rules a remedy of f must clear.
			var clear []string
			switch f.id {
			case "KCAP-E2", "KCAP-E3":
				clear = []string{"KCAP-E2", "KCAP-E3"}
			case "KCAP-W1":
				clear = []string{"KCAP-W1", "KCAP-E2", "KCAP-E3"}
			case "KCAP-E4":
				clear = []string{"KCAP-E4"}
			case "KCAP-W2":
				clear = []string{"KCAP-W2", "KCAP-E4"}
			default:
				continue
			}
			for _, re := range []*regexp.Regexp{reSafeMax, reRolloutMax, reShareMax} {
				for _, m := range re.FindAllStringSubmatch(f.msg, -1) {
					v := count(t, m[1])
					seen[f.id+" max"]++
					if v < floor {
						t.Fatalf("case %d: %s names a maximum %d below the minimum %d: %s", n, f.id, v, floor, f.msg)
					}
					if got := replan(func(c *ScaledObject) { c.MaxReplicaCount = ptr(v) }); fires(got, clear...) {
						t.Fatalf("case %d: %s: maxReplicaCount %d does not pass: %s\nthen: %v", n, f.id, v, f.msg, got)
					}
				}
			}
			if m := reNoMax.FindStringSubmatch(f.msg); m != nil {
				seen[f.id+" none"]++
				if v := count(t, m[1]); v != floor {
					t.Fatalf("case %d: %s names minimum %d, want %d: %s", n, f.id, v, floor, f.msg)
				}
				if got := replan(func(c *ScaledObject) { c.MaxReplicaCount = ptr(floor) }); !fires(got, clear...) {
					t.Fatalf("case %d: %s says no maximum is enough, but the minimum %d passes: %s", n, f.id, floor, f.msg)
				}
			}
			if m := reGroupSize.FindStringSubmatch(f.msg); m != nil {
				seen[f.id+" nodes"]++
				if got := replan(func(c *ScaledObject) {
					c.NodeGroupCapacity.MaxNodes = count(t, m[1])
					if m[2] != "" {
						c.NodeGroupCapacity.MaxNodesPerZone = ptr(count(t, m[2]))
					}
				}); fires(got, clear...) {
					t.Fatalf("case %d: %s: the group size it names does not pass: %s\nthen: %v", n, f.id, f.msg, got)
				}
			}
			if m := rePaused.FindStringSubmatch(f.msg); m != nil {
				seen[f.id+" paused"]++
				if got := replan(func(c *ScaledObject) {
					c.Annotations = map[string]string{AnnotationPausedReplicas: strconv.FormatInt(count(t, m[1]), 10)}
					if m[2] != "" {
						c.MaxReplicaCount = ptr(count(t, m[2]))
					}
				}); fires(got, clear...) {
					t.Fatalf("case %d: %s: the paused count it names does not pass: %s\nthen: %v", n, f.id, f.msg, got)
				}
			}
			if m := reZoneNodes.FindStringSubmatch(f.msg); m != nil {
				seen[f.id+" per zone"]++
				if got := replan(func(c *ScaledObject) { c.NodeGroupCapacity.MaxNodesPerZone = ptr(count(t, m[1])) }); fires(got, clear...) {
					t.Fatalf("case %d: %s: the nodes per zone it names do not pass: %s\nthen: %v", n, f.id, f.msg, got)
				}
			}
			if m := reMaxSurge.FindStringSubmatch(f.msg); m != nil {
				seen[f.id+" surge"]++
				if got := replan(func(c *ScaledObject) {
					c.TargetWorkload.Rollout = &Rollout{Strategy: "RollingUpdate", MaxSurge: ptr(m[1])}
				}); fires(got, clear...) {
					t.Fatalf("case %d: %s: maxSurge %s does not pass: %s\nthen: %v", n, f.id, m[1], f.msg, got)
				}
			}
			if m := reConnections.FindStringSubmatch(f.msg); m != nil {
				seen[f.id+" connections"]++
				if got := replan(func(c *ScaledObject) { c.Database.MaxConnections = count(t, m[1]) }); fires(got, clear...) {
					t.Fatalf("case %d: %s: max_connections %s does not pass: %s\nthen: %v", n, f.id, m[1], f.msg, got)
				}
			}
		}
	}
	// The generator reaches every remedy.
	for _, k := range []string{"KCAP-E2 max", "KCAP-E2 nodes", "KCAP-E3 max", "KCAP-E3 nodes", "KCAP-W1 max", "KCAP-W1 nodes",
		"KCAP-W1 surge", "KCAP-E2 paused", "KCAP-E4 paused", "KCAP-E4 max", "KCAP-E4 none", "KCAP-E4 connections", "KCAP-W2 max", "KCAP-W2 none"} {
		if seen[k] == 0 {
			t.Errorf("no generated case printed a %s remedy (%v)", k, seen)
		}
	}
}

// TestSharedRemediesPass is the same property for the capacity check's shared rules: two ScaledObjects on one
// node group and one database (KCAP-E2, KCAP-E4); each client's maximum it names, set on that ScaledObject and
// planned again, clears the rule, and none is below that object's minimum.
func TestSharedRemediesPass(t *testing.T) {
	r := rand.New(rand.NewSource(12))
	seen := map[string]int{}
	for n := 0; n < 80; n++ {
		sos := map[string]ScaledObject{"api": randomPeak(r, "api"), "worker": randomPeak(r, "worker")}
		for k, so := range sos { // few pods: the scheduler model places each group again for every remedy tried
			so.MaxReplicaCount = ptr(max(1, deref(so.MinReplicaCount)) + int64(r.Intn(16)))
			if so.Annotations != nil { // paused above the new maximum
				so.Annotations = map[string]string{AnnotationPausedReplicas: strconv.FormatInt(*so.MaxReplicaCount+int64(1+r.Intn(8)), 10)}
			}
			sos[k] = so
		}
		g := *sos["api"].NodeGroupCapacity
		g.MaxNodes = int64(1 + r.Intn(6))
		if r.Intn(2) == 0 { // the scheduler model over zones is slow: half the cases have none
			g.Zones, g.MaxNodesPerZone = nil, nil
		} else if len(g.Zones) > 0 {
			for k, so := range sos { // a zone spread on most, so that the shared zone rule (KCAP-E3) fires
				if r.Intn(4) > 0 {
					so.TargetWorkload.TopologySpread = []SpreadConstraint{{TopologyKey: ZoneKey, MaxSkew: 1, WhenUnsatisfiable: "DoNotSchedule"}}
				}
				sos[k] = so
			}
		}
		db := SharedDatabase{Database: Database{Name: "orders", MaxConnections: int64(20 + r.Intn(300)), ReservedConnections: int64(r.Intn(3)),
			OtherClients: int64(r.Intn(10))}, Clients: []string{"shop/api", "shop/worker"}}
		check := func(sos map[string]ScaledObject, g NodeGroupCapacity, db SharedDatabase) []remedyFinding {
			in := Check{NodeGroups: []NodeGroupCapacity{g}, Databases: []SharedDatabase{db}}
			for _, name := range []string{"api", "worker"} {
				so := sos[name]
				so.NodeGroupCapacity, so.Database = nil, nil // the check places them: NodeGroupOf
				res, _ := Plan(so)
				in.ScaledObjects = append(in.ScaledObjects, res.Summary)
			}
			in.NodeGroupOf = map[string]string{"shop/api": g.Name, "shop/worker": g.Name}
			res, err := CheckAll(in)
			var out []remedyFinding
			for _, e := range asErrs(err) {
				id, _, _ := strings.Cut(e, ":")
				out = append(out, remedyFinding{id, e})
			}
			for _, w := range res.Warnings {
				out = append(out, remedyFinding{w.Code, w.Message})
			}
			return out
		}
		for _, f := range check(sos, g, db) {
			if f.id != "KCAP-E2" && f.id != "KCAP-E3" && f.id != "KCAP-E4" && f.id != "KCAP-W1" {
				continue
			}
			// A group size or nodes per zone must clear the group's rules together: its size and its zones, and a
			// rollout's for KCAP-W1.
			sizeClears := []string{"KCAP-E2", "KCAP-E3"}
			if f.id == "KCAP-W1" {
				sizeClears = append(sizeClears, "KCAP-W1")
			}
			for _, m := range reClientMax.FindAllStringSubmatch(f.msg, -1) {
				seen[f.id+" max"]++
				so, v := sos[m[1]], count(t, m[2])
				floor := int64(1)
				if so.MinReplicaCount != nil {
					floor = max(1, *so.MinReplicaCount)
				}
				if v < floor {
					t.Fatalf("case %d: %s names %d for shop/%s, below its minimum %d: %s", n, f.id, v, m[1], floor, f.msg)
				}
				changed := map[string]ScaledObject{"api": sos["api"], "worker": sos["worker"]}
				so.MaxReplicaCount = ptr(v)
				changed[m[1]] = so
				// A maximum named by a group rule clears the group's rules together (its size and its zones).
				clears := []string{f.id}
				if f.id == "KCAP-E2" || f.id == "KCAP-E3" {
					clears = sizeClears
				}
				if got := check(changed, g, db); fires(got, clears...) {
					t.Fatalf("case %d: %s: maxReplicaCount %d of shop/%s does not pass: %s\nthen: %v", n, f.id, v, m[1], f.msg, got)
				}
			}
			for _, m := range reClientPause.FindAllStringSubmatch(f.msg, -1) {
				seen[f.id+" paused"]++
				so, v := sos[m[1]], count(t, m[2])
				changed := map[string]ScaledObject{"api": sos["api"], "worker": sos["worker"]}
				so.Annotations = map[string]string{AnnotationPausedReplicas: strconv.FormatInt(v, 10)}
				if m[3] != "" {
					so.MaxReplicaCount = ptr(count(t, m[3]))
				}
				changed[m[1]] = so
				if got := check(changed, g, db); fires(got, f.id) {
					t.Fatalf("case %d: %s: paused-replicas %d of shop/%s does not pass: %s\nthen: %v", n, f.id, v, m[1], f.msg, got)
				}
			}
			for _, m := range reClientNone.FindAllStringSubmatch(f.msg, -1) {
				seen[f.id+" none"]++
				so, v := sos[m[1]], count(t, m[2])
				changed := map[string]ScaledObject{"api": sos["api"], "worker": sos["worker"]}
				so.MaxReplicaCount = ptr(v)
				changed[m[1]] = so
				clears := []string{f.id}
				if f.id == "KCAP-E2" || f.id == "KCAP-E3" {
					clears = sizeClears
				}
				if !fires(check(changed, g, db), clears...) {
					t.Fatalf("case %d: %s says no maximum of shop/%s is enough, but %d passes: %s", n, f.id, m[1], v, f.msg)
				}
			}
			if m := reConnections.FindStringSubmatch(f.msg); m != nil {
				seen[f.id+" connections"]++
				d := db
				d.MaxConnections = count(t, m[1])
				if fires(check(sos, g, d), f.id) {
					t.Fatalf("case %d: %s: max_connections %s does not pass: %s", n, f.id, m[1], f.msg)
				}
			}
			if m := reGroupSize.FindStringSubmatch(f.msg); m != nil {
				seen[f.id+" nodes"]++
				seen[f.id+" size"]++
				h := g
				h.MaxNodes = count(t, m[1])
				if v := count(t, m[1]); v <= g.MaxNodes {
					t.Fatalf("case %d: %s names the size %d, not above the group's %d: %s", n, f.id, v, g.MaxNodes, f.msg)
				}
				if m[2] != "" {
					h.MaxNodesPerZone = ptr(count(t, m[2]))
				}
				if got := check(sos, h, db); fires(got, sizeClears...) {
					t.Fatalf("case %d: %s: %s nodes do not pass: %s\nthen: %v", n, f.id, m[1], f.msg, got)
				}
			}
			if m := reZoneNodes.FindStringSubmatch(f.msg); m != nil {
				seen[f.id+" per zone"]++
				seen[f.id+" size"]++
				h := g
				h.MaxNodesPerZone = ptr(count(t, m[1]))
				if got := check(sos, h, db); fires(got, sizeClears...) {
					t.Fatalf("case %d: %s: %s nodes per zone do not pass: %s\nthen: %v", n, f.id, m[1], f.msg, got)
				}
			}
		}
	}
	for _, k := range []string{"KCAP-E2 max", "KCAP-E2 none", "KCAP-E2 nodes", "KCAP-E3 nodes", "KCAP-W1 size", "KCAP-E2 paused", "KCAP-E4 paused", "KCAP-E4 max", "KCAP-E4 none", "KCAP-E4 connections"} {
		if seen[k] == 0 {
			t.Errorf("no generated case printed a %s remedy (%v)", k, seen)
		}
	}
}
