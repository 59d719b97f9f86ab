package fit

import (
	"slices"
	"strings"
	"testing"
)

func TestTolerates(t *testing.T) {
	gpu := Taint{Key: "nvidia.com/gpu", Value: "present", Effect: EffectNoSchedule}
	bare := Taint{Key: "dedicated", Effect: EffectNoExecute}
	tests := []struct {
		name  string
		tol   Toleration
		taint Taint
		want  bool
	}{
		{"equal key value effect", Toleration{Key: "nvidia.com/gpu", Operator: OperatorEqual, Value: "present",
			Effect: EffectNoSchedule}, gpu, true},
		{"empty operator means Equal", Toleration{Key: "nvidia.com/gpu", Value: "present"}, gpu, true},
		{"equal wrong value", Toleration{Key: "nvidia.com/gpu", Operator: OperatorEqual, Value: "absent"}, gpu, false},
		{"equal empty value vs value", Toleration{Key: "nvidia.com/gpu", Operator: OperatorEqual}, gpu, false},
		{"equal empty value vs no value", Toleration{Key: "dedicated", Operator: OperatorEqual}, bare, true},
		{"exists ignores value", Toleration{Key: "nvidia.com/gpu", Operator: OperatorExists}, gpu, true},
		{"exists other key", Toleration{Key: "other", Operator: OperatorExists}, gpu, false},
		{"empty key exists tolerates all", Toleration{Operator: OperatorExists}, gpu, true},
		{"empty key exists tolerates all effects", Toleration{Operator: OperatorExists}, bare, true},
		{"effect mismatch", Toleration{Key: "nvidia.com/gpu", Operator: OperatorExists, Effect: EffectNoExecute}, gpu,
			false},
		{"empty effect matches all", Toleration{Key: "dedicated", Operator: OperatorExists}, bare, true},
		{"effect restricted to NoExecute", Toleration{Operator: OperatorExists, Effect: EffectNoExecute}, bare, true},
		{"unknown operator", Toleration{Key: "dedicated", Operator: "In"}, bare, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.tol.Tolerates(tt.taint); got != tt.want {
				t.Errorf("%+v.Tolerates(%v) = %v, want %v", tt.tol, tt.taint, got, tt.want)
			}
		})
	}
}

func TestUntolerated(t *testing.T) {
	taints := []Taint{
		{Key: "a", Value: "1", Effect: EffectNoSchedule},
		{Key: "b", Effect: EffectPreferNoSchedule},
		{Key: "c", Value: "3", Effect: EffectNoExecute},
	}
	tests := []struct {
		name string
		tols []Toleration
		want []string
	}{
		{"none tolerated; PreferNoSchedule never blocks", nil, []string{"a=1:NoSchedule", "c=3:NoExecute"}},
		{"one tolerated", []Toleration{{Key: "a", Value: "1"}}, []string{"c=3:NoExecute"}},
		{"all by wildcard", []Toleration{{Operator: OperatorExists}}, nil},
		{"wildcard limited to NoSchedule", []Toleration{{Operator: OperatorExists, Effect: EffectNoSchedule}},
			[]string{"c=3:NoExecute"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, u := range untolerated(taints, tt.tols) {
				got = append(got, u.String())
			}
			if strings.Join(got, ",") != strings.Join(tt.want, ",") {
				t.Errorf("untolerated = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestSelector(t *testing.T) {
	labels := map[string]string{"kubernetes.io/arch": "amd64", "tier": "web"}
	tests := []struct {
		name     string
		selector map[string]string
		want     bool
		wantMsg  []string
	}{
		{"empty selector", nil, true, nil},
		{"subset", map[string]string{"tier": "web"}, true, nil},
		{"all", map[string]string{"tier": "web", "kubernetes.io/arch": "amd64"}, true, nil},
		{"wrong value", map[string]string{"kubernetes.io/arch": "arm64"}, false,
			[]string{"kubernetes.io/arch=arm64 (the pool has kubernetes.io/arch=amd64)"}},
		{"missing label", map[string]string{"gpu": "true", "tier": "web"}, false,
			[]string{"gpu=true (the pool has no label gpu)"}},
		{"value case matters", map[string]string{"tier": "Web"}, false, []string{"tier=Web (the pool has tier=web)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := selectorMatches(tt.selector, labels); got != tt.want {
				t.Errorf("selectorMatches = %v, want %v", got, tt.want)
			}
			if got := selectorMismatches(tt.selector, &Pool{Labels: labels}); strings.Join(got, "|") != strings.Join(tt.wantMsg, "|") {
				t.Errorf("selectorMismatches = %q, want %q", got, tt.wantMsg)
			}
		})
	}
}

func TestExclusion(t *testing.T) {
	pool := Pool{Name: "gpu", Labels: map[string]string{"kubernetes.io/arch": "amd64"},
		Taints: []Taint{{Key: "nvidia.com/gpu", Value: "present", Effect: EffectNoSchedule}}}
	tol := []Toleration{{Key: "nvidia.com/gpu", Operator: OperatorExists}}
	tests := []struct {
		name       string
		w          Workload
		wantReason Reason
		wantMsg    []string
	}{
		{"eligible", Workload{Name: "train", Tolerations: tol}, "", nil},
		{"pool list first", Workload{Name: "web", Pools: []string{"general"},
			NodeSelector: map[string]string{"x": "y"}}, ReasonPoolList, []string{`pool(s) "general"`, `pool "gpu"`}},
		{"selector names the label", Workload{Name: "arm", NodeSelector: map[string]string{"kubernetes.io/arch": "arm64"},
			Tolerations: tol}, ReasonSelector, []string{"kubernetes.io/arch=arm64", "kubernetes.io/arch=amd64"}},
		{"taint names the taint", Workload{Name: "web"}, ReasonTaint, []string{`"nvidia.com/gpu=present:NoSchedule"`,
			`workload "web" does not tolerate`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reason, msg := exclusion(&tt.w, &pool)
			if reason != tt.wantReason {
				t.Fatalf("reason = %q, want %q (%s)", reason, tt.wantReason, msg)
			}
			for _, s := range tt.wantMsg {
				if !strings.Contains(msg, s) {
					t.Errorf("message %q lacks %q", msg, s)
				}
			}
		})
	}
}

// TestSelectorZonesAndChoices: a node selector sees each zone's topology.kubernetes.io/zone (and its deprecated
// failure-domain twin) on that zone's nodes; a workload needs it on every zone, a DaemonSet on one. A label whose
// value kubefit cannot know (LabelChoices) admits a workload only if every choice matches, and a DaemonSet if one
// does. The messages say which zones carry a zone label, and that a chosen label's value is not known.
func TestSelectorZonesAndChoices(t *testing.T) {
	pool := Pool{Name: "x86", Zones: []string{"us-east-1a", "us-east-1b"}, Labels: map[string]string{"kubernetes.io/os": "linux"},
		LabelChoices: map[string][]string{"eks.amazonaws.com/nodegroup": {"x86", ""}, "kubernetes.azure.com/mode": {"user", "system"}}}
	oneZone := pool
	oneZone.Zones = []string{"us-east-1a"}
	tests := []struct {
		name       string
		pool       *Pool
		selector   map[string]string
		wantUse    bool
		wantDS     bool
		wantDSZone []string
		wantMsg    string
	}{
		{"zone of a one-zone pool", &oneZone, map[string]string{"topology.kubernetes.io/zone": "us-east-1a"}, true, true, []string{"us-east-1a"}, ""},
		{"beta zone of a one-zone pool", &oneZone, map[string]string{"failure-domain.beta.kubernetes.io/zone": "us-east-1a"}, true, true, []string{"us-east-1a"}, ""},
		{"one zone of two", &pool, map[string]string{"topology.kubernetes.io/zone": "us-east-1a"}, false, true, []string{"us-east-1a"},
			`topology.kubernetes.io/zone=us-east-1a (only the pool's nodes in zone(s) "us-east-1a" carry it; kubefit plans a pool's nodes in all its zones, so give those zones a pool of their own)`},
		{"no zone of the pool", &pool, map[string]string{"topology.kubernetes.io/zone": "eu-west-1a"}, false, false, nil,
			`topology.kubernetes.io/zone=eu-west-1a (the pool's zones are "us-east-1a", "us-east-1b")`},
		{"maybe-missing label", &pool, map[string]string{"eks.amazonaws.com/nodegroup": "x86"}, false, true, []string{"us-east-1a", "us-east-1b"},
			"eks.amazonaws.com/nodegroup=x86 (the pool's nodes carry eks.amazonaws.com/nodegroup x86 or no such label (kubefit cannot know which); add the label to the pool's labels if its nodes carry it)"},
		{"one of two values", &pool, map[string]string{"kubernetes.azure.com/mode": "system"}, false, true, []string{"us-east-1a", "us-east-1b"},
			"kubernetes.azure.com/mode=system (the pool's nodes carry kubernetes.azure.com/mode user or system (kubefit cannot know which); add the label to the pool's labels if its nodes carry it)"},
		{"no choice matches", &pool, map[string]string{"kubernetes.azure.com/mode": "gateway"}, false, false, nil,
			"kubernetes.azure.com/mode=gateway (the pool's nodes carry kubernetes.azure.com/mode user or system (kubefit cannot know which); add the label to the pool's labels if its nodes carry it)"},
		{"choices and zone together", &pool, map[string]string{"kubernetes.azure.com/mode": "user", "topology.kubernetes.io/zone": "us-east-1b"}, false, true, []string{"us-east-1b"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := Workload{Name: "w", NodeSelector: tt.selector}
			if got := WorkloadMayUse(&w, tt.pool); got != tt.wantUse {
				t.Errorf("WorkloadMayUse = %v, want %v", got, tt.wantUse)
			}
			d := DaemonSet{Name: "d", NodeSelector: tt.selector}
			if got := DaemonSetLandsOn(&d, tt.pool); got != tt.wantDS {
				t.Errorf("DaemonSetLandsOn = %v, want %v", got, tt.wantDS)
			}
			if got, _ := DaemonSetZones(&d, tt.pool); !slices.Equal(got, tt.wantDSZone) {
				t.Errorf("DaemonSetZones = %q, want %q", got, tt.wantDSZone)
			}
			if tt.wantMsg != "" {
				if got := strings.Join(selectorMismatches(tt.selector, tt.pool), " and "); got != tt.wantMsg {
					t.Errorf("selectorMismatches =\n%s\nwant\n%s", got, tt.wantMsg)
				}
			}
		})
	}
	// A node affinity sees the choices as the selector does.
	aff := []NodeSelectorTerm{{MatchExpressions: []NodeSelectorRequirement{{Key: "kubernetes.azure.com/mode", Operator: NodeNotIn, Values: []string{"system"}}}}}
	if WorkloadMayUse(&Workload{Name: "w", NodeAffinity: aff}, &pool) {
		t.Error("a workload avoiding system pools may use a pool whose mode is not known")
	}
	if !DaemonSetLandsOn(&DaemonSet{Name: "d", NodeAffinity: aff}, &pool) {
		t.Error("a DaemonSet avoiding system pools does not land on a pool whose mode is not known")
	}
}

// TestWorkloadOS: a workload is kept off a pool of another operating system (ReasonOS, after the rules the
// scheduler applies): an unmarked pod is a Linux one, spec.os.name and the node selector say it, and a node
// affinity naming the OS label decides alone. A DaemonSet is not: it lands wherever its rules let it (the safe side).
func TestWorkloadOS(t *testing.T) {
	linux := Pool{Name: "linux", Labels: map[string]string{"kubernetes.io/os": "linux", "beta.kubernetes.io/os": "linux"}}
	win := Pool{Name: "win", Labels: map[string]string{"kubernetes.io/os": "windows", "beta.kubernetes.io/os": "windows"}}
	tainted := Pool{Name: "win", Labels: win.Labels, Taints: []Taint{{Key: "os", Value: "windows", Effect: EffectNoSchedule}}}
	unknown := Pool{Name: "any"}
	osAff := func(vals ...string) []NodeSelectorTerm {
		return []NodeSelectorTerm{{MatchExpressions: []NodeSelectorRequirement{{Key: "kubernetes.io/os", Operator: NodeIn, Values: vals}}}}
	}
	tests := []struct {
		name   string
		w      Workload
		wantOS string
		want   map[string]Reason // pool name → reason
	}{
		{"unmarked", Workload{}, "linux", map[string]Reason{"linux": "", "win": ReasonOS, "any": ""}},
		{"spec.os linux", Workload{OS: "linux"}, "linux", map[string]Reason{"linux": "", "win": ReasonOS}},
		{"spec.os windows", Workload{OS: "windows"}, "windows", map[string]Reason{"linux": ReasonOS, "win": ""}},
		{"selector windows", Workload{NodeSelector: map[string]string{"kubernetes.io/os": "windows"}}, "windows", map[string]Reason{"linux": ReasonSelector, "win": ""}},
		{"beta selector linux", Workload{NodeSelector: map[string]string{"beta.kubernetes.io/os": "linux"}}, "linux", map[string]Reason{"linux": "", "win": ReasonSelector}},
		{"affinity both", Workload{NodeAffinity: osAff("linux", "windows")}, "", map[string]Reason{"linux": "", "win": ""}},
		{"affinity both, spec.os linux", Workload{OS: "linux", NodeAffinity: osAff("linux", "windows")}, "linux", map[string]Reason{"linux": "", "win": ReasonOS}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.w.Name = "w"
			if got := WorkloadOS(&tt.w); got != tt.wantOS {
				t.Errorf("WorkloadOS = %q, want %q", got, tt.wantOS)
			}
			for _, p := range []*Pool{&linux, &win, &unknown} {
				want, ok := tt.want[p.Name]
				if !ok {
					continue
				}
				if got := ExcludedBy(&tt.w, p); got != want {
					t.Errorf("pool %s: ExcludedBy = %q, want %q", p.Name, got, want)
				}
			}
		})
	}
	// A taint the workload does not tolerate comes first: the scheduler keeps it off already.
	if got := ExcludedBy(&Workload{Name: "w"}, &tainted); got != ReasonTaint {
		t.Errorf("tainted Windows pool: ExcludedBy = %q, want taint", got)
	}
	if _, msg := exclusion(&Workload{Name: "web"}, &win); !strings.Contains(msg, `pool "win" runs Windows nodes and workload "web" runs Linux containers (assumed: it names no operating system`) ||
		!strings.Contains(msg, "node selector kubernetes.io/os: linux, or taint the pool") {
		t.Errorf("message: %s", msg)
	}
	if !DaemonSetLandsOn(&DaemonSet{Name: "d"}, &win) {
		t.Error("a DaemonSet without an OS selector does not land on a Windows pool")
	}
	// Plan: the unmarked workload gets only the Linux pool's nodes.
	lp, wp := linux, win
	lp.MaxNodes, wp.MaxNodes = 1, 3
	lp.Allocatable = Resources{CPUMillicores: 4000, MemoryBytes: 16 << 30, Pods: 110}
	wp.Allocatable = lp.Allocatable
	res, err := Plan(Input{Pools: []Pool{lp, wp}, Workloads: []Workload{{Name: "web", Replicas: 6, MaxReplicas: 6, Requests: Resources{CPUMillicores: 1000, MemoryBytes: 1 << 30}}}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Fits {
		t.Errorf("6 Linux pods of 1 CPU fit on one 4-CPU Linux node: %+v", res.Scenarios[0].Placements)
	}
	found := false
	for _, f := range res.Failures {
		found = found || f.Pool == "win" && f.Reason == ReasonOS
	}
	if !found {
		t.Errorf("no os failure on the Windows pool: %+v", res.Failures)
	}
}
