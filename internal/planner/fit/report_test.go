package fit

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// reportInput is a small cluster with one of everything: zones, a tainted GPU pool, DaemonSets with
// selectors, an autoscaled zone-spread workload with surge, a node-spread workload, a GPU job and a
// workload too large for any pool.
func reportInput() Input {
	general := Pool{Name: "general", InstanceType: "m5.large", MinNodes: 2, MaxNodes: 4,
		Allocatable: Resources{CPUMillicores: 1930, MemoryBytes: 6903 * mi, Pods: 29},
		Zones:       []string{"us-east-1a", "us-east-1b"}, PricePerHour: 0.096,
		Labels: map[string]string{"kubernetes.io/arch": "amd64"}}
	gpu := Pool{Name: "gpu", InstanceType: "g5.xlarge", MaxNodes: 1,
		Allocatable: Resources{CPUMillicores: 3920, MemoryBytes: 14500 * mi, Pods: 58, GPU: 1},
		Zones:       []string{"us-east-1a"}, PricePerHour: 1.006,
		Labels: map[string]string{"kubernetes.io/arch": "amd64", "nvidia.com/gpu.present": "true"},
		Taints: []Taint{{Key: "nvidia.com/gpu", Value: "present", Effect: EffectNoSchedule}}}
	web := Workload{Name: "web", Replicas: 3, MaxReplicas: 6, MaxSurge: IntOrPercent{Value: 25, Percent: true},
		Requests: Resources{CPUMillicores: 250, MemoryBytes: 512 * mi}, CPUUsageMillicores: 120,
		Spread: Spread{Type: SpreadZone, MaxSkew: 1}}
	api := Workload{Name: "api", Replicas: 2, MaxReplicas: 2, Requests: Resources{CPUMillicores: 500,
		MemoryBytes: 1024 * mi}, CPUUsageMillicores: 200, Spread: Spread{Type: SpreadNode}}
	train := Workload{Name: "train", Replicas: 1, MaxReplicas: 2, Requests: Resources{CPUMillicores: 2000,
		MemoryBytes: 8192 * mi, GPU: 1}, Tolerations: []Toleration{{Key: "nvidia.com/gpu", Operator: OperatorExists}}}
	report := Workload{Name: "report", Replicas: 1, MaxReplicas: 1, Requests: Resources{CPUMillicores: 4000,
		MemoryBytes: 2048 * mi}}
	return Input{
		Pools: []Pool{general, gpu},
		DaemonSets: []DaemonSet{
			{Name: "aws-node", Requests: Resources{CPUMillicores: 25}, CPUUsageMillicores: 5, TakesPodSlot: true,
				Tolerations: []Toleration{{Operator: OperatorExists}}},
			{Name: "kube-proxy", Requests: Resources{CPUMillicores: 100}, CPUUsageMillicores: 10, TakesPodSlot: true,
				Tolerations: []Toleration{{Operator: OperatorExists}}},
			{Name: "dcgm-exporter", Requests: Resources{CPUMillicores: 100, MemoryBytes: 128 * mi},
				TakesPodSlot: true, Tolerations: []Toleration{{Key: "nvidia.com/gpu", Operator: OperatorExists}},
				NodeSelector: map[string]string{"nvidia.com/gpu.present": "true"}},
		},
		Workloads: []Workload{web, api, train, report},
	}
}

func TestReportGolden(t *testing.T) {
	tests := []struct {
		name string
		in   Input
	}{
		{"mixed", reportInput()},
		{"aks_small_fits", func() Input {
			in := aksSmallInput(wl("extra", 4, 100, 100))
			in.Arrival = ArrivalLargestFirst
			return in
		}()},
		{"aks_small_short", aksSmallInput(wl("extra", 4, 200, 100))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Report(mustPlan(t, tt.in))
			path := filepath.Join("testdata", "report_"+tt.name+".golden")
			if *update {
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -run TestReportGolden -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("report differs from %s (run with -update after checking the change):\n%s", path, got)
			}
		})
	}
}
