package fit

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
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
			`Workloads[0].Replicas`, "-1", `the replica count -1 of workload "web" must be at least 0`},
		{"min > max", func(in *Input) { in.Workloads[0].MaxReplicas = 1 },
			`Workloads[0].MaxReplicas`, "1", `the maximum replica count 1 of workload "web" is less than its replica count 2 (min > max)`},
		{"negative cpu request", func(in *Input) { in.Workloads[1].Requests.CPUMillicores = -5 },
			`Workloads[1].Requests.CPUMillicores`, "-5", `the cpu request -5 of workload "train" must be at least 0`},
		{"negative memory request", func(in *Input) { in.Workloads[0].Requests.MemoryBytes = -1 },
			`Workloads[0].Requests.MemoryBytes`, "-1", "memory request"},
		{"huge request", func(in *Input) { in.Workloads[0].Requests.EphemeralStorageBytes = MaxQuantity + 1 },
			`Workloads[0].Requests.EphemeralStorageBytes`, fmt.Sprint(MaxQuantity + 1), "above the planner limit"},
		{"negative usage", func(in *Input) { in.Workloads[0].CPUUsageMillicores = -1 },
			`Workloads[0].CPUUsageMillicores`, "-1", "CPU usage"},
		{"unknown pool", func(in *Input) { in.Workloads[0].Pools = []string{"general", "genral"} },
			`Workloads[0].Pools[1]`, "genral", `workload "web" may use pool "genral", which is not defined; defined pools: "general", "gpu"`},
		{"pool listed twice", func(in *Input) { in.Workloads[0].Pools = []string{"gpu", "gpu"} },
			`Workloads[0].Pools[1]`, "gpu", "twice"},
		{"duplicate workload", func(in *Input) { in.Workloads[1].Name = "web" },
			`Workloads[1].Name`, "web", `workload name "web" is used twice`},
		{"empty workload name", func(in *Input) { in.Workloads[1].Name = "" },
			`Workloads[1].Name`, "", "has an empty name"},
		{"duplicate pool", func(in *Input) { in.Pools[1].Name = "general" },
			`Pools["general"].Name`, "general", `pool name "general" is used twice`},
		{"max < min nodes", func(in *Input) { in.Pools[0].MaxNodes = 0 },
			`Pools["general"].MinNodes`, "1", `the minimum node count 1 of pool "general" is greater than its maximum node count 0 (min > max)`},
		{"negative min nodes", func(in *Input) { in.Pools[1].MinNodes = -2 },
			`Pools["gpu"].MinNodes`, "-2", "at least 0"},
		{"zero cpu allocatable", func(in *Input) { in.Pools[0].Allocatable.CPUMillicores = 0 },
			`Pools["general"].Allocatable.CPUMillicores`, "0", `allocatable cpu of pool "general" must be positive`},
		{"zero max pods", func(in *Input) { in.Pools[0].Allocatable.Pods = 0 },
			`Pools["general"].Allocatable.Pods`, "0", "must be positive"},
		{"negative gpu allocatable", func(in *Input) { in.Pools[1].Allocatable.GPU = -1 },
			`Pools["gpu"].Allocatable.GPU`, "-1", "at least 0"},
		{"too many max nodes", func(in *Input) { in.Pools[0].MaxNodes = MaxPlanNodes; in.Pools[1].MaxNodes = 1 },
			`Pools["gpu"].MaxNodes`, "1", "planner limit"},
		{"empty zone", func(in *Input) { in.Pools[0].Zones = []string{"a", ""} },
			`Pools["general"].Zones[1]`, "", "zone 2 of pool \"general\" is empty"},
		{"duplicate zone", func(in *Input) { in.Pools[0].Zones = []string{"a", "a"} },
			`Pools["general"].Zones[1]`, "a", "listed twice"},
		{"bad label key", func(in *Input) { in.Pools[0].Labels = map[string]string{"bad key": "x"} },
			`Pools["general"].Labels["bad key"]`, "bad key", "label key \"bad key\" of pool \"general\" is invalid"},
		{"bad label value", func(in *Input) { in.Pools[0].Labels = map[string]string{"tier": "a b"} },
			`Pools["general"].Labels["tier"]`, "a b", "label value"},
		{"bad taint effect", func(in *Input) { in.Pools[1].Taints[0].Effect = "NoRun" },
			`Pools["gpu"].Taints[0].Effect`, "NoRun", `must be one of "NoSchedule", "PreferNoSchedule", "NoExecute"`},
		{"empty taint key", func(in *Input) { in.Pools[1].Taints[0].Key = "" },
			`Pools["gpu"].Taints[0].Key`, "", "taint key"},
		{"weight out of range", func(in *Input) { in.Pools[0].Weight = 101 },
			`Pools["general"].Weight`, "101", "between 0 and 100"},
		{"negative price", func(in *Input) { in.Pools[0].PricePerHour = -0.1 },
			`Pools["general"].PricePerHour`, "-0.1", "at least 0"},
		{"toleration empty key with Equal", func(in *Input) {
			in.Workloads[1].Tolerations = []Toleration{{Operator: OperatorEqual, Value: "x"}}
		}, `Workloads[1].Tolerations[0].Operator`, "Equal", `must use operator "Exists"`},
		{"toleration Exists with value", func(in *Input) {
			in.Workloads[1].Tolerations = []Toleration{{Key: "k", Operator: OperatorExists, Value: "v"}}
		}, `Workloads[1].Tolerations[0].Value`, "v", "must not set a value"},
		{"toleration bad operator", func(in *Input) {
			in.DaemonSets[0].Tolerations = []Toleration{{Key: "k", Operator: "In"}}
		}, `DaemonSets[0].Tolerations[0].Operator`, "In", `toleration operator "In" of DaemonSet "kube-proxy"`},
		{"toleration bad effect", func(in *Input) {
			in.Workloads[1].Tolerations = []Toleration{{Operator: OperatorExists, Effect: "Never"}}
		}, `Workloads[1].Tolerations[0].Effect`, "Never", "must be empty (all effects)"},
		{"daemonset negative request", func(in *Input) { in.DaemonSets[0].Requests.CPUMillicores = -100 },
			`DaemonSets[0].Requests.CPUMillicores`, "-100", `DaemonSet "kube-proxy"`},
		{"daemonset duplicate", func(in *Input) {
			in.DaemonSets = append(in.DaemonSets, DaemonSet{Name: "kube-proxy"})
		}, `DaemonSets[1].Name`, "kube-proxy", "DaemonSet name \"kube-proxy\" is used twice"},
		{"daemonset bad selector", func(in *Input) {
			in.DaemonSets[0].NodeSelector = map[string]string{"-x": "y"}
		}, `DaemonSets[0].NodeSelector["-x"]`, "-x", "label key"},
		{"zone spread skew 0", func(in *Input) {
			in.Workloads[0].Spread = Spread{Type: SpreadZone}
		}, `Workloads[0].Spread.MaxSkew`, "0", "must be between 1 and"},
		{"zone spread on a pool without zones", func(in *Input) {
			in.Pools[0].Zones = nil
			in.Workloads[0].Spread = Spread{Type: SpreadZone, MaxSkew: 1}
		}, `Workloads[0].Spread.Type`, "zone", `pool "general", which it may use, has no zones`},
		{"node spread skew 2", func(in *Input) { in.Workloads[0].Spread = Spread{Type: SpreadNode, MaxSkew: 2} },
			`Workloads[0].Spread.MaxSkew`, "2", "one pod per node"},
		{"skew without spread", func(in *Input) { in.Workloads[0].Spread = Spread{MaxSkew: 1} },
			`Workloads[0].Spread.MaxSkew`, "1", "zone spread only"},
		{"unknown spread", func(in *Input) { in.Workloads[0].Spread = Spread{Type: "host"} },
			`Workloads[0].Spread.Type`, "host", `must be one of "none", "node", "zone"`},
		{"negative surge", func(in *Input) { in.Workloads[0].MaxSurge = IntOrPercent{Value: -1, Percent: true} },
			`Workloads[0].MaxSurge`, "-1%", "rollout surge"},
		{"too many pods", func(in *Input) {
			in.Workloads[0].Replicas, in.Workloads[0].MaxReplicas = MaxPlanPods, MaxPlanPods
		}, `Workloads`, fmt.Sprint(MaxPlanPods + 1), "steady scenario"},
		{"no pools", func(in *Input) { in.Pools = nil; in.Workloads[0].Pools = nil },
			`Pools`, "0", "at least one pool"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := validInput()
			tt.edit(&in)
			err := Validate(in)
			if err == nil {
				t.Fatal("Validate = nil, want an error")
			}
			errs := field.As(err)
			if len(errs) == 0 {
				t.Fatalf("no field.Error in %v", err)
			}
			var found *field.Error
			for _, e := range errs {
				if e.Path.String() == tt.wantField {
					found = e
					break
				}
			}
			if found == nil {
				t.Fatalf("no error for field %s; got %v", tt.wantField, err)
			}
			if found.Value != tt.wantValue || !strings.Contains(found.Detail, tt.wantMsg) {
				t.Errorf("error = %v\nwant value %q and message containing %q", found, tt.wantValue, tt.wantMsg)
			}
			for _, bad := range []string{"max_", "min_", "_nodes", "_replicas", "kubefit_"} {
				if strings.Contains(found.Detail, bad) {
					t.Errorf("message %q names an attribute (%q)", found.Detail, bad)
				}
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
	errs := field.As(Validate(in))
	var fields []string
	for _, e := range errs {
		fields = append(fields, e.Path.String())
	}
	want := []string{`Pools["gpu"].MaxNodes`, "DaemonSets[0].Name", "Workloads[0].Replicas"}
	if !reflect.DeepEqual(fields, want) {
		t.Errorf("fields = %v, want %v (input order: pools, DaemonSets, workloads)", fields, want)
	}
	for range 50 {
		if again := Validate(in).Error(); again != errs.Error() {
			t.Fatalf("Validate is not deterministic: %q vs %q", again, errs.Error())
		}
	}
}

// TestValidateSameNamedDaemonSetsApart: two DaemonSets may share a name when no pool runs both (a listed
// kube-proxy that lands on the gpu pool only, beside the platform's restricted to the other pool, or one whose
// selector matches no pool); one that lands beside the other on some pool is still refused.
func TestValidateSameNamedDaemonSetsApart(t *testing.T) {
	for _, tc := range []struct {
		name string
		ds   DaemonSet
		ok   bool
	}{
		{"lands on no pool", DaemonSet{Name: "kube-proxy", NodeSelector: map[string]string{"team": "x"}}, true},
		{"lands on the other pool only", DaemonSet{Name: "kube-proxy", Tolerations: []Toleration{{Operator: OperatorExists}},
			NodeSelector: map[string]string{"kubernetes.io/arch": "amd64"}, Pools: nil}, false},
		{"tainted pool only, first restricted", DaemonSet{Name: "kube-proxy", Tolerations: []Toleration{{Operator: OperatorExists}},
			NodeAffinity: []NodeSelectorTerm{{MatchExpressions: []NodeSelectorRequirement{{Key: "kubernetes.io/arch", Operator: NodeDoesNotExist}}}}}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := validInput()
			in.DaemonSets[0].Pools = []string{"general"}
			in.DaemonSets = append(in.DaemonSets, tc.ds)
			if err := Validate(in); (err == nil) != tc.ok {
				t.Errorf("Validate = %v, want ok %v", err, tc.ok)
			}
		})
	}
	// A third of the name is compared with every earlier one, not only the first: the first lands on no pool, the
	// second and the third both on "general" (once only the first was looked at, and the clash passed).
	in := validInput()
	in.DaemonSets[0].NodeSelector = map[string]string{"team": "x"}
	in.DaemonSets = append(in.DaemonSets, DaemonSet{Name: "kube-proxy", Pools: []string{"general"}},
		DaemonSet{Name: "kube-proxy", Pools: []string{"general"}})
	if err := Validate(in); err == nil || !strings.Contains(err.Error(), "DaemonSets 2 and 3") {
		t.Errorf("a third same-named DaemonSet on the first's pool: Validate = %v", err)
	}
}
