package fit

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// validInput is a small valid input that the cases below break one field at a time.
func validInput() Input {
	return Input{
		Pools: []Pool{
			{Name: "general", InstanceType: "m5.large", MinNodes: 1, MaxNodes: 5, Zones: []string{"a", "b"},
				Allocatable: Resources{CPUMillicores: 1930, MemoryBytes: 7000 * mi, Pods: 29},
				Labels:      map[string]string{"kubernetes.io/arch": "amd64"}},
			{Name: "gpu", MaxNodes: 2, Zones: []string{"a"},
				Allocatable: Resources{CPUMillicores: 3920, MemoryBytes: 15000 * mi, Pods: 58, GPU: 1},
				Taints:      []Taint{{Key: "nvidia.com/gpu", Value: "present", Effect: EffectNoSchedule}}},
		},
		DaemonSets: []DaemonSet{{Name: "kube-proxy", Requests: Resources{CPUMillicores: 100}, TakesPodSlot: true}},
		Workloads: []Workload{
			{Name: "web", Replicas: 2, MaxReplicas: 4, Requests: Resources{CPUMillicores: 250, MemoryBytes: 256 * mi}},
			{Name: "train", Replicas: 1, MaxReplicas: 1, Requests: Resources{CPUMillicores: 1000, GPU: 1},
				Tolerations: []Toleration{{Key: "nvidia.com/gpu", Operator: OperatorExists}}},
		},
	}
}

func TestValidate(t *testing.T) {
	if err := Validate(validInput()); err != nil {
		t.Fatalf("Validate(valid) = %v", err)
	}
	tests := []struct {
		name      string
		edit      func(in *Input)
		wantField string
		wantValue string
		wantMsg   string
	}{
		{"negative replicas", func(in *Input) { in.Workloads[0].Replicas = -1 },
			"workloads[0].replicas", "-1", `replicas of workload "web" must be at least 0`},
		{"min > max", func(in *Input) { in.Workloads[0].MaxReplicas = 1 },
			"workloads[0].max_replicas", "1", `max_replicas 1 of workload "web" is less than replicas 2 (min > max)`},
		{"negative cpu request", func(in *Input) { in.Workloads[1].Requests.CPUMillicores = -5 },
			"workloads[1].requests.cpu", "-5", `cpu request of workload "train" must be at least 0`},
		{"negative memory request", func(in *Input) { in.Workloads[0].Requests.MemoryBytes = -1 },
			"workloads[0].requests.memory", "-1", "memory request"},
		{"huge request", func(in *Input) { in.Workloads[0].Requests.EphemeralStorageBytes = MaxQuantity + 1 },
			"workloads[0].requests.ephemeral_storage", fmt.Sprint(MaxQuantity + 1), "exceeds the planner limit"},
		{"negative usage", func(in *Input) { in.Workloads[0].CPUUsageMillicores = -1 },
			"workloads[0].cpu_usage", "-1", "CPU usage"},
		{"unknown pool", func(in *Input) { in.Workloads[0].Pools = []string{"general", "genral"} },
			"workloads[0].pools[1]", "genral", `workload "web" names unknown pool "genral"`},
		{"pool listed twice", func(in *Input) { in.Workloads[0].Pools = []string{"gpu", "gpu"} },
			"workloads[0].pools[1]", "gpu", "twice"},
		{"duplicate workload", func(in *Input) { in.Workloads[1].Name = "web" },
			"workloads[1].name", "web", `duplicate workload name "web" (also workloads[0])`},
		{"empty workload name", func(in *Input) { in.Workloads[1].Name = "" },
			"workloads[1].name", "", "must not be empty"},
		{"duplicate pool", func(in *Input) { in.Pools[1].Name = "general" },
			"pools[1].name", "general", `duplicate pool name "general" (also pools[0])`},
		{"max < min nodes", func(in *Input) { in.Pools[0].MaxNodes = 0 },
			"pools[0].max_nodes", "0", `max_nodes 0 of pool "general" is less than min_nodes 1`},
		{"negative min nodes", func(in *Input) { in.Pools[1].MinNodes = -2 },
			"pools[1].min_nodes", "-2", "at least 0"},
		{"zero cpu allocatable", func(in *Input) { in.Pools[0].Allocatable.CPUMillicores = 0 },
			"pools[0].allocatable.cpu", "0", `allocatable cpu of pool "general" must be positive`},
		{"zero max pods", func(in *Input) { in.Pools[0].Allocatable.Pods = 0 },
			"pools[0].allocatable.pods", "0", "must be positive"},
		{"negative gpu allocatable", func(in *Input) { in.Pools[1].Allocatable.GPU = -1 },
			"pools[1].allocatable.gpu", "-1", "at least 0"},
		{"too many max nodes", func(in *Input) { in.Pools[0].MaxNodes = MaxPlanNodes; in.Pools[1].MaxNodes = 1 },
			"pools[1].max_nodes", "1", "planner limit"},
		{"empty zone", func(in *Input) { in.Pools[0].Zones = []string{"a", ""} },
			"pools[0].zones[1]", "", "must not be empty"},
		{"duplicate zone", func(in *Input) { in.Pools[0].Zones = []string{"a", "a"} },
			"pools[0].zones[1]", "a", "duplicate zone"},
		{"bad label key", func(in *Input) { in.Pools[0].Labels = map[string]string{"bad key": "x"} },
			`pools[0].labels["bad key"]`, "bad key", "label key of pool \"general\" is invalid"},
		{"bad label value", func(in *Input) { in.Pools[0].Labels = map[string]string{"tier": "a b"} },
			`pools[0].labels["tier"]`, "a b", "label value"},
		{"bad taint effect", func(in *Input) { in.Pools[1].Taints[0].Effect = "NoRun" },
			"pools[1].taints[0].effect", "NoRun", `must be one of "NoSchedule", "PreferNoSchedule", "NoExecute"`},
		{"empty taint key", func(in *Input) { in.Pools[1].Taints[0].Key = "" },
			"pools[1].taints[0].key", "", "taint key"},
		{"weight out of range", func(in *Input) { in.Pools[0].Weight = 101 },
			"pools[0].weight", "101", "between 0 and 100"},
		{"negative price", func(in *Input) { in.Pools[0].PricePerHour = -0.1 },
			"pools[0].price_per_hour", "-0.1", "at least 0"},
		{"toleration empty key with Equal", func(in *Input) {
			in.Workloads[1].Tolerations = []Toleration{{Operator: OperatorEqual, Value: "x"}}
		}, "workloads[1].tolerations[0].operator", "Equal", `must use operator "Exists"`},
		{"toleration Exists with value", func(in *Input) {
			in.Workloads[1].Tolerations = []Toleration{{Key: "k", Operator: OperatorExists, Value: "v"}}
		}, "workloads[1].tolerations[0].value", "v", "must not set a value"},
		{"toleration bad operator", func(in *Input) {
			in.DaemonSets[0].Tolerations = []Toleration{{Key: "k", Operator: "In"}}
		}, "daemonsets[0].tolerations[0].operator", "In", `toleration operator of DaemonSet "kube-proxy"`},
		{"toleration bad effect", func(in *Input) {
			in.Workloads[1].Tolerations = []Toleration{{Operator: OperatorExists, Effect: "Never"}}
		}, "workloads[1].tolerations[0].effect", "Never", "must be empty (all effects)"},
		{"daemonset negative request", func(in *Input) { in.DaemonSets[0].Requests.CPUMillicores = -100 },
			"daemonsets[0].requests.cpu", "-100", `DaemonSet "kube-proxy"`},
		{"daemonset duplicate", func(in *Input) {
			in.DaemonSets = append(in.DaemonSets, DaemonSet{Name: "kube-proxy"})
		}, "daemonsets[1].name", "kube-proxy", "duplicate DaemonSet name"},
		{"daemonset bad selector", func(in *Input) {
			in.DaemonSets[0].NodeSelector = map[string]string{"-x": "y"}
		}, `daemonsets[0].node_selector["-x"]`, "-x", "label key"},
		{"zone spread skew 0", func(in *Input) {
			in.Workloads[0].Spread = Spread{Type: SpreadZone}
		}, "workloads[0].spread.max_skew", "0", "must be between 1 and"},
		{"zone spread on a pool without zones", func(in *Input) {
			in.Pools[0].Zones = nil
			in.Workloads[0].Spread = Spread{Type: SpreadZone, MaxSkew: 1}
		}, "workloads[0].spread.type", "zone", `pool "general", which it may use, has no zones`},
		{"node spread skew 2", func(in *Input) { in.Workloads[0].Spread = Spread{Type: SpreadNode, MaxSkew: 2} },
			"workloads[0].spread.max_skew", "2", "one pod per node"},
		{"skew without spread", func(in *Input) { in.Workloads[0].Spread = Spread{MaxSkew: 1} },
			"workloads[0].spread.max_skew", "1", "zone spread only"},
		{"unknown spread", func(in *Input) { in.Workloads[0].Spread = Spread{Type: "host"} },
			"workloads[0].spread.type", "host", `must be one of "none", "node", "zone"`},
		{"negative surge", func(in *Input) { in.Workloads[0].MaxSurge = IntOrPercent{Value: -1, Percent: true} },
			"workloads[0].max_surge", "-1%", "max_surge"},
		{"too many pods", func(in *Input) {
			in.Workloads[0].Replicas, in.Workloads[0].MaxReplicas = MaxPlanPods, MaxPlanPods
		}, "workloads", fmt.Sprint(MaxPlanPods + 1), "steady scenario"},
		{"no pools", func(in *Input) { in.Pools = nil; in.Workloads[0].Pools = nil },
			"pools", "0", "at least one pool"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := validInput()
			tt.edit(&in)
			err := Validate(in)
			if err == nil {
				t.Fatal("Validate = nil, want an error")
			}
			errs := InputErrors(err)
			if len(errs) == 0 {
				t.Fatalf("no *InputError in %v", err)
			}
			var found *InputError
			for _, e := range errs {
				if e.Field == tt.wantField {
					found = e
					break
				}
			}
			if found == nil {
				t.Fatalf("no error for field %s; got %v", tt.wantField, err)
			}
			if found.Value != tt.wantValue || !strings.Contains(found.Msg, tt.wantMsg) {
				t.Errorf("error = %v\nwant value %q and message containing %q", found, tt.wantValue, tt.wantMsg)
			}
			if steps := found.Steps(); len(steps) == 0 {
				t.Errorf("Steps(%q) = nil", found.Field)
			}
			if _, perr := Plan(in); perr == nil || perr.Error() != err.Error() {
				t.Errorf("Plan error = %v, want the Validate error", perr)
			}
		})
	}
}

func TestValidateReportsEveryError(t *testing.T) {
	in := validInput()
	in.Workloads[0].Replicas = -1
	in.Pools[1].MaxNodes = -1
	in.DaemonSets[0].Name = ""
	errs := InputErrors(Validate(in))
	var fields []string
	for _, e := range errs {
		fields = append(fields, e.Field)
	}
	want := []string{"pools[1].max_nodes", "daemonsets[0].name", "workloads[0].replicas"}
	if !reflect.DeepEqual(fields, want) {
		t.Errorf("fields = %v, want %v (input order: pools, DaemonSets, workloads)", fields, want)
	}
	var ie *InputError
	if !errors.As(Validate(in), &ie) || ie.Field != want[0] {
		t.Errorf("errors.As finds %v, want the first error", ie)
	}
}

func TestInputErrorSteps(t *testing.T) {
	tests := []struct {
		field string
		want  []PathStep
	}{
		{"pools[0].max_nodes", []PathStep{{Kind: StepAttribute, Name: "pools"}, {Kind: StepIndex, Index: 0},
			{Kind: StepAttribute, Name: "max_nodes"}}},
		{"workloads[12].tolerations[1].operator", []PathStep{{Kind: StepAttribute, Name: "workloads"},
			{Kind: StepIndex, Index: 12}, {Kind: StepAttribute, Name: "tolerations"}, {Kind: StepIndex, Index: 1},
			{Kind: StepAttribute, Name: "operator"}}},
		{`daemonsets[0].node_selector["kubernetes.io/arch"]`, []PathStep{{Kind: StepAttribute, Name: "daemonsets"},
			{Kind: StepIndex, Index: 0}, {Kind: StepAttribute, Name: "node_selector"},
			{Kind: StepMapKey, Key: "kubernetes.io/arch"}}},
		{`pools[0].labels["a\"]b"]`, []PathStep{{Kind: StepAttribute, Name: "pools"}, {Kind: StepIndex, Index: 0},
			{Kind: StepAttribute, Name: "labels"}, {Kind: StepMapKey, Key: `a"]b`}}},
		{"workloads", []PathStep{{Kind: StepAttribute, Name: "workloads"}}},
		{"", nil},
		{"[0]", nil},
		{"pools[x]", nil},
		{"pools[-1]", nil},
		{"pools[01]", nil},
		{"pools..a", nil},
		{`pools["unterminated`, nil},
		{"pools[0]max_nodes", nil},
	}
	for _, tt := range tests {
		got := (&InputError{Field: tt.field}).Steps()
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Steps(%q) = %+v, want %+v", tt.field, got, tt.want)
		}
	}
}

func TestInputErrorString(t *testing.T) {
	e := &InputError{Field: "workloads[2].max_replicas", Value: "1", Msg: "max_replicas 1 of workload \"web\" is less " +
		"than replicas 3 (min > max)"}
	want := `workloads[2].max_replicas "1": max_replicas 1 of workload "web" is less than replicas 3 (min > max)`
	if e.Error() != want {
		t.Errorf("Error() = %s, want %s", e.Error(), want)
	}
}
