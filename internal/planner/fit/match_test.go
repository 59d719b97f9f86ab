package fit

import (
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
			if got := selectorMismatches(tt.selector, labels); strings.Join(got, "|") != strings.Join(tt.wantMsg, "|") {
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
