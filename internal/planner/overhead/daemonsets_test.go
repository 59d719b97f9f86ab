package overhead

import (
	"slices"
	"strings"
	"testing"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/resource"
)

// TestPlatformDaemonSets: a node of each profile counts its platform's system set (PlatformDaemonSets) in its
// DaemonSet overhead by default, and only the listed DaemonSets in listed mode, which keeps the warning when
// none is listed; a listed DaemonSet of a system DaemonSet's name replaces it.
func TestPlatformDaemonSets(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   Input
		want []string
	}{
		{"aks overlay", Input{Profile: AKSLinux, Instance: d2sv5},
			[]string{"kube-proxy", "azure-ip-masq-agent", "cloud-node-manager", "csi-azuredisk-node", "csi-azurefile-node", "azure-cns"}},
		{"aks kubenet", Input{Profile: AKSLinux, Instance: d2sv5, AKS: AKSOptions{NetworkPlugin: Kubenet}},
			[]string{"kube-proxy", "azure-ip-masq-agent", "cloud-node-manager", "csi-azuredisk-node", "csi-azurefile-node"}},
		{"aks windows", Input{Profile: AKSWindows, Instance: d2sv5, KubernetesVersion: "1.28"},
			[]string{"cloud-node-manager-windows", "csi-azuredisk-node-win", "csi-azurefile-node-win"}},
		{"gke", Input{Profile: GKEStandard, Instance: n2std4}, []string{"fluentbit-gke", "gke-metrics-agent", "kube-proxy", "pdcsi-node"}},
		{"eks al2023", Input{Profile: EKSAL2023, Instance: m5large}, []string{"aws-node", "kube-proxy"}},
		{"eks bottlerocket", Input{Profile: EKSBottlerocket, Instance: m5large}, []string{"aws-node", "kube-proxy"}},
		{"eks auto mode", Input{Profile: EKSAL2023, Instance: m5large, EKS: EKSOptions{Kind: AutoMode}}, nil},
		{"eks windows", Input{Profile: EKSWindows, Instance: m5large}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			set := PlatformDaemonSets(tc.in)
			var names []string
			var sum resource.List
			for _, d := range set {
				names = append(names, d.Name)
				sum.CPUMillicores += d.Requests.CPUMillicores
				sum.MemoryBytes += d.Requests.MemoryBytes
			}
			if !slices.Equal(names, tc.want) {
				t.Fatalf("set %v, want %v", names, tc.want)
			}
			r, err := Compute(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			listedIn := tc.in
			listedIn.SystemDaemonSets = SystemDaemonSetsListed
			l, err := Compute(listedIn)
			if err != nil {
				t.Fatal(err)
			}
			// The system pods (EKS) took their slots in listed mode already; the set's other pods take one each.
			slots := int64(len(set) - len(r.SystemPods))
			if d := l.Available.Sub(r.Available); d.CPUMillicores != sum.CPUMillicores || d.MemoryBytes != sum.MemoryBytes || d.Pods != slots {
				t.Errorf("platform leaves %+v less than listed, want %dm, %d bytes, %d pods", d, sum.CPUMillicores, sum.MemoryBytes, slots)
			}
			if len(r.SystemDaemonSets) != len(set) || hasWarning(r, CodeNoDaemonSets) {
				t.Errorf("platform: counted %d system DaemonSets, warnings %+v", len(r.SystemDaemonSets), r.Warnings)
			}
			if len(l.SystemDaemonSets) != 0 || hasWarning(l, CodeNoDaemonSets) != (len(set) > 0) {
				t.Errorf("listed: counted %d system DaemonSets, warnings %+v", len(l.SystemDaemonSets), l.Warnings)
			}
			if len(set) == 0 {
				return
			}
			// A listed kube-proxy (or the set's first) of other requests replaces the platform's.
			own := DaemonSet{Name: set[len(set)-1].Name, Requests: resource.List{CPUMillicores: 7, MemoryBytes: 3 * mi}, TakesPodSlot: true}
			in := tc.in
			in.DaemonSets = []DaemonSet{own}
			o, err := Compute(in)
			if err != nil {
				t.Fatal(err)
			}
			last := set[len(set)-1].Requests
			want := r.Available.CPUMillicores + last.CPUMillicores - 7
			if o.Available.CPUMillicores != want || o.Available.MemoryBytes != r.Available.MemoryBytes+last.MemoryBytes-3*mi ||
				o.Available.Pods != r.Available.Pods || len(o.SystemDaemonSets) != len(set)-1 {
				t.Errorf("overridden %s: available %+v, want %dm and the same pods as %+v", own.Name, o.Available, want, r.Available)
			}
			if !strings.Contains(termDetail(r, "systemDaemonSets.cpu"), set[0].Name) {
				t.Errorf("the systemDaemonSets terms do not name the set: %+v", r.Terms)
			}
		})
	}
}

func termDetail(r Result, name string) string {
	for _, t := range r.Terms {
		if t.Name == name {
			return t.Detail
		}
	}
	return ""
}

func TestSystemDaemonSetsModeInvalid(t *testing.T) {
	_, err := Compute(Input{Profile: AKSLinux, Instance: d2sv5, SystemDaemonSets: "all"})
	if es := field.As(err); len(es) != 1 || es[0].Path.String() != "SystemDaemonSets" || !strings.Contains(es[0].Error(), `"all"`) {
		t.Errorf("errors %v, want one at SystemDaemonSets naming \"all\"", err)
	}
}

// TestAKSWindowsSystemDaemonSetsTakeSlots: the measured AKS Windows node (Azure CNI, pods 30) runs three system
// DaemonSet pods, 170m and 290Mi: workloads get 27 of its 30 pod slots.
func TestAKSWindowsSystemDaemonSetsTakeSlots(t *testing.T) {
	r, err := Compute(Input{Profile: AKSWindows, Instance: d2sv5, KubernetesVersion: "1.25", AKS: AKSOptions{NetworkPlugin: AzureCNINodeSubnet}})
	if err != nil {
		t.Fatal(err)
	}
	if r.Allocatable.Pods != 30 || r.Available.Pods != 27 ||
		r.Allocatable.CPUMillicores-r.Available.CPUMillicores != 170 || r.Allocatable.MemoryBytes-r.Available.MemoryBytes != 290*mi {
		t.Errorf("allocatable %+v, available %+v: want 3 pods, 170m and 290Mi for the system DaemonSets", r.Allocatable, r.Available)
	}
}
