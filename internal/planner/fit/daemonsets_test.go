package fit

import "testing"

func TestDaemonSetLoad(t *testing.T) {
	alloc := Resources{CPUMillicores: 1930, MemoryBytes: 7 << 30, EphemeralStorageBytes: 18 << 30, Pods: 29, GPU: 1}
	eks := []string{"aws-node", "kube-proxy"}
	ds := func(name string, cpu int64, slot bool) DaemonSet {
		return DaemonSet{Name: name, Requests: Resources{CPUMillicores: cpu, Pods: 7}, TakesPodSlot: slot}
	}
	for _, tt := range []struct {
		name      string
		system    []string
		podIPs    int64
		ds        []DaemonSet
		takenPods int64
		leftPods  int64
		takenCPU  int64
		takenGPU  int64
		comment   string
	}{
		{"nothing", nil, 0, nil, 0, 29, 0, 0, "Requests.Pods is ignored; no cap"},
		{"slot-taking DaemonSets", nil, 0, []DaemonSet{ds("logs", 100, true), ds("agent", 50, false)}, 1, 28, 150, 0, "one slot"},
		{"EKS, none listed", eks, 27, nil, 2, 27, 0, 0, "29 − 2 = 27, IP cap 27"},
		{"EKS, system pods listed", eks, 27, []DaemonSet{ds("aws-node", 25, true), ds("kube-proxy", 100, false)}, 2, 27, 125, 0,
			"listed system pods stand for the unlisted ones and take a slot whatever they say"},
		{"EKS, one system pod listed", eks, 27, []DaemonSet{ds("aws-node", 25, true)}, 2, 27, 25, 0, "kube-proxy still takes its slot"},
		{"EKS, other DaemonSets need IPs", eks, 27, []DaemonSet{ds("aws-node", 25, true), ds("logs", 100, true)}, 3, 26,
			125, 0, "max pods 29 − 3 = 26, IPs 27 − 1 = 26"},
		{"IP cap binds", eks, 20, []DaemonSet{ds("logs", 100, true)}, 3, 19, 100, 0, "29 − 3 = 26 but 20 − 1 = 19 IPs"},
		{"GPU DaemonSet", nil, 0, []DaemonSet{{Name: "dcgm", Requests: Resources{GPU: 1}, TakesPodSlot: true}}, 1, 28, 0, 1, ""},
	} {
		taken, left := DaemonSetLoad(alloc, tt.system, tt.podIPs, tt.ds)
		if taken.Pods != tt.takenPods || left.Pods != tt.leftPods || taken.CPUMillicores != tt.takenCPU || taken.GPU != tt.takenGPU ||
			left.CPUMillicores != alloc.CPUMillicores-tt.takenCPU || left.GPU != alloc.GPU-tt.takenGPU {
			t.Errorf("%s (%s): taken %+v, left %+v; want %d pods and %dm taken, %d pods left", tt.name, tt.comment, taken, left,
				tt.takenPods, tt.takenCPU, tt.leftPods)
		}
	}
}
