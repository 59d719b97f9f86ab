package overhead

import (
	"slices"
	"strings"
	"testing"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
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
			[]string{"cloud-node-manager-windows", "csi-azuredisk-node-win", "csi-azurefile-node-win", "azure-cns-win"}},
		{"gke", Input{Profile: GKEStandard, Instance: n2std4}, []string{"fluentbit-gke", "gke-metrics-agent", "kube-proxy", "pdcsi-node"}},
		{"eks al2023", Input{Profile: EKSAL2023, Instance: m5large}, []string{"aws-node", "kube-proxy"}},
		{"eks bottlerocket", Input{Profile: EKSBottlerocket, Instance: m5large}, []string{"aws-node", "kube-proxy"}},
		{"eks auto mode", Input{Profile: EKSAL2023, Instance: m5large, EKS: EKSOptions{Kind: AutoMode}}, nil},
		{"eks windows", Input{Profile: EKSWindows, Instance: m5large}, nil},
		// Azure CNI pod subnet (dynamic IP allocation) runs azure-cns as overlay does.
		{"aks pod subnet", Input{Profile: AKSLinux, Instance: d2sv5, AKS: AKSOptions{NetworkPlugin: AzureCNIPodSubnet}},
			[]string{"kube-proxy", "azure-ip-masq-agent", "cloud-node-manager", "csi-azuredisk-node", "csi-azurefile-node", "azure-cns"}},
		{"aks windows pod subnet", Input{Profile: AKSWindows, Instance: d2sv5, AKS: AKSOptions{NetworkPlugin: AzureCNIPodSubnet}},
			[]string{"cloud-node-manager-windows", "csi-azuredisk-node-win", "csi-azurefile-node-win", "azure-cns-win"}},
		{"aks windows node subnet", Input{Profile: AKSWindows, Instance: d2sv5, AKS: AKSOptions{NetworkPlugin: AzureCNINodeSubnet}},
			[]string{"cloud-node-manager-windows", "csi-azuredisk-node-win", "csi-azurefile-node-win"}},
		// Accelerators: the device plugins (and GKE's driver installer) the node needs.
		{"gke gpu", Input{Profile: GKEStandard, Instance: withGPU(n2std4, "g2")},
			[]string{"fluentbit-gke", "gke-metrics-agent", "kube-proxy", "pdcsi-node", "nvidia-gpu-device-plugin", "nvidia-driver-installer"}},
		{"aks gpu", Input{Profile: AKSLinux, Instance: withGPU(d2sv5, ""), AKS: AKSOptions{NetworkPlugin: Kubenet}},
			[]string{"kube-proxy", "azure-ip-masq-agent", "cloud-node-manager", "csi-azuredisk-node", "csi-azurefile-node", "nvidia-device-plugin-daemonset"}},
		{"eks al2023 gpu", Input{Profile: EKSAL2023, Instance: withGPU(m5large, "g5")}, []string{"aws-node", "kube-proxy", "nvidia-device-plugin-daemonset"}},
		{"eks al2 gpu", Input{Profile: EKSAL2, Instance: withGPU(m5large, "g5")}, []string{"aws-node", "kube-proxy", "nvidia-device-plugin-daemonset"}},
		{"eks bottlerocket gpu", Input{Profile: EKSBottlerocket, Instance: withGPU(m5large, "g5")}, []string{"aws-node", "kube-proxy"}},
		{"eks auto mode gpu", Input{Profile: EKSAL2023, Instance: withGPU(m5large, "g5"), EKS: EKSOptions{Kind: AutoMode}}, nil},
		{"eks al2023 inferentia", Input{Profile: EKSAL2023, Instance: withFamily(m5large, "inf2")}, []string{"aws-node", "kube-proxy", "neuron-device-plugin"}},
		{"eks bottlerocket trainium", Input{Profile: EKSBottlerocket, Instance: withFamily(m5large, "trn1")}, []string{"aws-node", "kube-proxy", "neuron-device-plugin"}},
		{"eks auto mode trainium", Input{Profile: EKSAL2023, Instance: withFamily(m5large, "trn1"), EKS: EKSOptions{Kind: AutoMode}}, nil},
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

// withGPU is it with one NVIDIA GPU, of family (when given).
func withGPU(it Instance, family string) Instance {
	it.GPU = 1
	if family != "" {
		it.Family = family
	}
	return it
}

// withFamily is it of another family.
func withFamily(it Instance, family string) Instance {
	it.Family = family
	return it
}

// TestPlatformDaemonSetsOnRealNodes: the report's nodes (explore round "platformds"), from the catalog, count
// what really runs on them: an AKS Standard_D4s_v5 with Azure CNI pod subnet gives workloads 104 pods, 3510m and
// 12335Mi (azure-cns's slot, 40m and 250Mi); a GKE g2-standard-4 the device plugin and driver installer, 300m and
// 80Mi, beside the standard set; an EKS AL2023 g5.xlarge 55 workload pods (the device plugin takes a slot and a pod
// IP), a Bottlerocket one 56; an EKS AL2023 inf2.xlarge the Neuron plugin's slot and IP; an AKS Windows node with
// overlay and max pods 30 26 workload pods (azure-cns-win's slot).
func TestPlatformDaemonSetsOnRealNodes(t *testing.T) {
	node := func(cloud catalog.Cloud, name string) Instance {
		it, err := catalog.Lookup(cloud, name)
		if err != nil {
			t.Fatal(err)
		}
		return InstanceFromCatalog(it)
	}
	d4sv5 := node(catalog.Azure, "Standard_D4s_v5")
	for _, tc := range []struct {
		name       string
		in         Input
		wantAvail  resource.List // CPU, memory (MiB) and pods left to workloads
		wantSystem []string      // beyond the profile's standard set
	}{
		{"aks pod subnet D4s_v5", Input{Profile: AKSLinux, Instance: d4sv5, AKS: AKSOptions{NetworkPlugin: AzureCNIPodSubnet}},
			resource.List{CPUMillicores: 3510, MemoryBytes: 12335, Pods: 104}, []string{"azure-cns"}},
		{"aks windows overlay D4s_v5 max pods 30", Input{Profile: AKSWindows, Instance: d4sv5, MaxPods: 30},
			resource.List{Pods: 26}, []string{"azure-cns-win"}},
		{"eks al2023 g5.xlarge", Input{Profile: EKSAL2023, Instance: node(catalog.AWS, "g5.xlarge")},
			resource.List{Pods: 55}, []string{"nvidia-device-plugin-daemonset"}},
		{"eks bottlerocket g5.xlarge", Input{Profile: EKSBottlerocket, Instance: node(catalog.AWS, "g5.xlarge")},
			resource.List{Pods: 56}, nil},
		{"eks al2023 inf2.xlarge", Input{Profile: EKSAL2023, Instance: node(catalog.AWS, "inf2.xlarge")},
			resource.List{}, []string{"neuron-device-plugin"}},
		{"gke g2-standard-4", Input{Profile: GKEStandard, Instance: node(catalog.GCP, "g2-standard-4")},
			resource.List{}, []string{"nvidia-gpu-device-plugin", "nvidia-driver-installer"}},
		{"gke a2-highgpu-1g", Input{Profile: GKEStandard, Instance: node(catalog.GCP, "a2-highgpu-1g")},
			resource.List{}, []string{"nvidia-gpu-device-plugin", "nvidia-driver-installer"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Compute(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			for _, name := range tc.wantSystem {
				if !slices.ContainsFunc(r.SystemDaemonSets, func(d DaemonSet) bool { return d.Name == name }) {
					t.Errorf("system DaemonSets %s, want %s among them", DaemonSetsText(r.SystemDaemonSets), name)
				}
			}
			w := tc.wantAvail
			if (w.CPUMillicores != 0 && r.Available.CPUMillicores != w.CPUMillicores) ||
				(w.MemoryBytes != 0 && r.Available.MemoryBytes>>20 != w.MemoryBytes) || (w.Pods != 0 && r.Available.Pods != w.Pods) {
				t.Errorf("available %dm, %dMi, %d pods; want %+v (CPU, MiB, pods; 0 = not checked)",
					r.Available.CPUMillicores, r.Available.MemoryBytes>>20, r.Available.Pods, w)
			}
			if !strings.Contains(termDetail(r, "systemDaemonSets.pods"), "add-ons not counted") {
				t.Errorf("the systemDaemonSets terms do not name the add-ons left out: %q", termDetail(r, "systemDaemonSets.pods"))
			}
		})
	}
	// GKE's GPU pair is counted the safe side: 300m and 80Mi more than the same node's standard set.
	g2 := node(catalog.GCP, "g2-standard-4")
	with, err := Compute(Input{Profile: GKEStandard, Instance: g2})
	if err != nil {
		t.Fatal(err)
	}
	g2.GPU = 0
	without, err := Compute(Input{Profile: GKEStandard, Instance: g2})
	if err != nil {
		t.Fatal(err)
	}
	if d := without.Available.Sub(with.Available); d.CPUMillicores != 300 || d.MemoryBytes != 80*mi || d.Pods != 2 {
		t.Errorf("GKE GPU DaemonSets take %+v, want 300m, 80Mi and 2 pods", d)
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
