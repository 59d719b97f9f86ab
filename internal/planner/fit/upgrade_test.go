package fit

import (
	"strings"
	"testing"
)

// upgradeInput is a pool of 3 nodes of 3 CPU at most 3 nodes, running 3 replicas of web (one per node, required
// hostname anti-affinity, 2 CPU each) with the given budget and upgrade settings.
func upgradeInput(budget *DisruptionBudget, up Upgrade) Input {
	return Input{
		Pools: []Pool{{Name: "general", InstanceType: "m5.xlarge", Allocatable: Resources{CPUMillicores: 3000, MemoryBytes: 16 << 30, Pods: 110},
			MinNodes: 3, MaxNodes: 3, Upgrade: up}},
		Workloads: []Workload{{Name: "web", Replicas: 3, MaxReplicas: 3, Requests: Resources{CPUMillicores: 2000, MemoryBytes: 1 << 30},
			Spread: Spread{Type: SpreadNode}, DisruptionBudget: budget}},
		Disruptions: []DisruptionKind{DisruptNodeUpgrade},
	}
}

func count(n int) *IntOrPercent { return &IntOrPercent{Value: n} }

func TestDisruptionsNodeUpgrade(t *testing.T) {
	tests := []struct {
		name        string
		in          Input
		fits        bool
		pending     int
		blocked     int
		wantMessage []string
	}{
		// One surge node takes each evicted pod in turn: the 3 batches go through, evicting the 3 pods.
		{name: "surge absorbs", in: upgradeInput(&DisruptionBudget{MaxUnavailable: count(1)}, Upgrade{MaxSurge: IntOrPercent{Value: 1}}), fits: true,
			wantMessage: []string{`replacing the 3 nodes of pool "general" (m5.xlarge), 1 at a time with 1 surge node (3 batches) evicts 3 pods`}},
		// Zero settings mean GKE's default, max surge 1.
		{name: "default settings", in: upgradeInput(nil, Upgrade{}), fits: true},
		// Without surge, the drained node's pod has nowhere to go (one per node, the others full): Pending;
		// a surge node binds it.
		{name: "no surge", in: upgradeInput(nil, Upgrade{MaxUnavailable: IntOrPercent{Value: 1}}), pending: 1,
			wantMessage: []string{`replacing the 3 nodes of pool "general" (m5.xlarge), 1 at a time with no surge node`, `1 pod binds nowhere: 1 pod of workload "web"`,
				`With max unavailable 0 and a max surge of 1 for pool "general", the upgrade goes through`}},
		// A budget that keeps every replica blocks the first drain, whatever the surge.
		{name: "budget allows no disruption", in: upgradeInput(&DisruptionBudget{Name: "web-pdb", MinAvailable: count(3)}, Upgrade{MaxSurge: IntOrPercent{Value: 1}}), blocked: 1,
			wantMessage: []string{`the drain blocks: the PodDisruptionBudget "web-pdb" of workload "web" (min_available 3: 3 of its 3 replicas must stay healthy) allows no disruption`,
				"min_available below 3, or max_unavailable of at least 1"}},
		{name: "max unavailable 0%", in: upgradeInput(&DisruptionBudget{MaxUnavailable: &IntOrPercent{Value: 0, Percent: true}}, Upgrade{MaxSurge: IntOrPercent{Value: 1}}), blocked: 1},
		// Two nodes drained at once with no surge: with min_available 2 the first eviction leaves 2 healthy, its pod
		// binds nowhere, and the second is refused while it waits.
		{name: "budget waits on pending", in: upgradeInput(&DisruptionBudget{MinAvailable: count(2)}, Upgrade{MaxUnavailable: IntOrPercent{Value: 2}}), pending: 1, blocked: 1,
			wantMessage: []string{"refuses to evict its 1 pod while its evicted pods have not bound elsewhere (2 healthy)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := Plan(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if !res.Scenarios[0].Fits || len(res.Disruptions) != 1 {
				t.Fatalf("steady %+v, disruptions %+v", res.Scenarios[0].Fits, res.Disruptions)
			}
			d := res.Disruptions[0]
			if d.Kind != DisruptNodeUpgrade || d.Fits != tt.fits || countPods(d.Pending) != tt.pending || countPods(d.Blocked) != tt.blocked || d.Pool != "general" {
				t.Errorf("got %+v", d)
			}
			for _, w := range tt.wantMessage {
				if !strings.Contains(d.Message, w) {
					t.Errorf("message %q lacks %q", d.Message, w)
				}
			}
			if res.Fits != tt.fits {
				t.Errorf("plan fits %v", res.Fits)
			}
		})
	}
}

// TestDesiredHealthy: the disruption controller's rounding: percentages of the replicas rounded up, for
// min_available and max_unavailable alike.
func TestDesiredHealthy(t *testing.T) {
	tests := []struct {
		b        *DisruptionBudget
		replicas int
		want     int
	}{
		{nil, 5, 0},
		{&DisruptionBudget{MinAvailable: count(2)}, 5, 2},
		{&DisruptionBudget{MinAvailable: &IntOrPercent{Value: 50, Percent: true}}, 5, 3}, // ceil(2.5)
		{&DisruptionBudget{MaxUnavailable: count(1)}, 5, 4},
		{&DisruptionBudget{MaxUnavailable: &IntOrPercent{Value: 25, Percent: true}}, 5, 3}, // 5 − ceil(1.25)
		{&DisruptionBudget{MaxUnavailable: count(9)}, 5, 0},
	}
	for _, tt := range tests {
		if got := tt.b.DesiredHealthy(tt.replicas); got != tt.want {
			t.Errorf("%s of %d replicas: %d, want %d", tt.b.Text(), tt.replicas, got, tt.want)
		}
	}
}

func TestUpgradeValidate(t *testing.T) {
	in := upgradeInput(&DisruptionBudget{MinAvailable: count(1), MaxUnavailable: count(1)}, Upgrade{MaxSurge: IntOrPercent{Value: 120, Percent: true}})
	err := Validate(in)
	if err == nil || !strings.Contains(err.Error(), "sets both min_available and max_unavailable") || !strings.Contains(err.Error(), "the upgrade max surge of pool \"general\" 120% must be between 0% and 100%") {
		t.Errorf("got %v", err)
	}
}

// TestNodeUpgradeOtherPoolGrows: without surge, the drained node's pod binds on a node another pool adds
// within its maximum (the autoscaler's answer to the Pending pod); with that pool at its maximum it does not.
func TestNodeUpgradeOtherPoolGrows(t *testing.T) {
	in := upgradeInput(nil, Upgrade{MaxUnavailable: IntOrPercent{Value: 1}})
	other := in.Pools[0]
	other.Name, other.MinNodes, other.MaxNodes, other.Upgrade = "other", 0, 2, Upgrade{}
	in.Pools = append(in.Pools, other)
	res, err := Plan(in)
	if err != nil {
		t.Fatal(err)
	}
	if d := res.Disruptions[0]; !d.Fits || d.Pool == "" {
		t.Errorf("with room to grow elsewhere: %+v", d)
	}
	in.Pools[1].MaxNodes = 0
	in.Pools[1].MinNodes = 0
	if res, err = Plan(in); err != nil {
		t.Fatal(err)
	}
	if d := res.Disruptions[0]; d.Fits {
		t.Errorf("with no room elsewhere: %+v", d)
	}
}
