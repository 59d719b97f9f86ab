package workloads

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
)

// TestIsSpot: each cloud's and Karpenter's capacity label says whether a node is spot; on-demand values and
// other labels do not.
func TestIsSpot(t *testing.T) {
	tests := []struct {
		labels map[string]string
		want   bool
	}{
		{map[string]string{"eks.amazonaws.com/capacityType": "SPOT"}, true},
		{map[string]string{"eks.amazonaws.com/capacityType": "ON_DEMAND"}, false},
		{map[string]string{"karpenter.sh/capacity-type": "spot"}, true},
		{map[string]string{"karpenter.sh/capacity-type": "on-demand"}, false},
		{map[string]string{"karpenter.sh/capacity-type": "reserved"}, false},
		{map[string]string{"kubernetes.azure.com/scalesetpriority": "spot"}, true},
		{map[string]string{"cloud.google.com/gke-spot": "true"}, true},
		{map[string]string{"cloud.google.com/gke-preemptible": "true"}, true},
		{map[string]string{"cloud.google.com/gke-spot": "false"}, false},
		{map[string]string{"role": "spot"}, false},
		{nil, false},
	}
	for _, tt := range tests {
		n := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Labels: tt.labels}}
		if got := isSpot(n); got != tt.want {
			t.Errorf("isSpot(%v) = %v, want %v", tt.labels, got, tt.want)
		}
	}
}

// TestReadClusterCapacityType: the snapshot's EKS nodes are ON_DEMAND, so no pool is spot; relabelled SPOT,
// the pool is.
func TestReadClusterCapacityType(t *testing.T) {
	res := mustRead(t, Input{Cluster: snapshot(t)})
	for _, p := range res.Pools {
		if p.CapacityType == fit.CapacitySpot {
			t.Errorf("pool %s is spot; its nodes are ON_DEMAND", p.Name)
		}
	}
	spot := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n1", Labels: map[string]string{"eks.amazonaws.com/capacityType": "SPOT",
		"node.kubernetes.io/instance-type": "m5.large"}}}
	r := &reader{}
	if p := r.pool("spot", []*corev1.Node{spot}); p.CapacityType != fit.CapacitySpot {
		t.Errorf("a SPOT node's pool has capacity type %q", p.CapacityType)
	}
}

// TestBudget: a PodDisruptionBudget as written becomes the planner's budget, counts and percentages alike.
func TestBudget(t *testing.T) {
	b := (&DisruptionBudget{Name: "web", MinAvailable: "50%"}).Budget()
	if b.Name != "web" || b.MinAvailable == nil || *b.MinAvailable != (fit.IntOrPercent{Value: 50, Percent: true}) || b.MaxUnavailable != nil {
		t.Errorf("min_available 50%%: %+v", b)
	}
	b = (&DisruptionBudget{MaxUnavailable: "1"}).Budget()
	if b.MaxUnavailable == nil || *b.MaxUnavailable != (fit.IntOrPercent{Value: 1}) || b.DesiredHealthy(3) != 2 {
		t.Errorf("max_unavailable 1: %+v", b)
	}
	if (*DisruptionBudget)(nil).Budget() != nil {
		t.Error("nil budget")
	}
}
