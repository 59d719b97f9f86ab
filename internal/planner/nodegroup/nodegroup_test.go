package nodegroup

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	kubeletv1beta1 "k8s.io/kubelet/config/v1beta1"
	"sigs.k8s.io/yaml"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/overhead"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/resource"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/sizing"
)

func intp(n int) *int { return &n }

func ptr64(n int64) *int64 { return &n }

// phpGroup is the field report's load test: an HPA-scaled PHP workload at 2,500m on c5.xlarge nodes.
func phpGroup(maxSize *int) Request {
	return Request{
		Pool:       sizing.Pool{Name: "php", Cloud: catalog.AWS, InstanceTypes: []string{"c5.xlarge"}, Zones: []string{"us-east-1a", "us-east-1b"}},
		DaemonSets: []sizing.DaemonSet{{Name: "kube-proxy", Requests: fit.Resources{CPUMillicores: 100, MemoryBytes: 64 << 20}, TakesPodSlot: true}},
		Workloads: []sizing.Workload{{Name: "php", MinReplicas: intp(3), MaxReplicas: intp(40),
			Requests: fit.Resources{CPUMillicores: 2500, MemoryBytes: 1 << 30}}},
		MaxSize: maxSize,
	}
}

func TestSizeFieldReport(t *testing.T) {
	p := sizing.NewPlanner(sizing.EmbeddedCatalog())
	r, err := Size(context.Background(), p, phpGroup(intp(20)))
	if err != nil {
		t.Fatal(err)
	}
	if r.Fits || len(r.Failures) == 0 {
		t.Fatalf("40 replicas at 2,500m on 20 c5.xlarge must not fit: fits %v", r.Fits)
	}
	f := r.Failures[0]
	if f.Workload != "php" || f.LargestFit != 20 {
		t.Errorf("failure %+v: want workload php with largest fit 20", f)
	}
	r, err = Size(context.Background(), p, phpGroup(nil))
	if err != nil {
		t.Fatal(err)
	}
	if !r.Fits || r.MaxSize != 40 || r.PeakNodes != 40 || r.MinSize != 3 || r.DesiredSize != 3 {
		t.Errorf("unbounded: fits %v, sizes min %d desired %d max %d (peak %d); want 3/3/40", r.Fits, r.MinSize, r.DesiredSize, r.MaxSize, r.PeakNodes)
	}
	if r.FreeAtMax.CPUMillicores != 40*(r.WorkloadAllocatable.CPUMillicores-2500) {
		t.Errorf("free at max %d", r.FreeAtMax.CPUMillicores)
	}
	req := phpGroup(nil)
	req.HeadroomPercent = 10
	if r, _ := Size(context.Background(), p, req); r.MaxSize != 44 {
		t.Errorf("10%% headroom over 40 nodes = %d, want 44", r.MaxSize)
	}
}

// TestComputedMaxSizeReported: a group without max_size is sized within the planner's bound, but its report and
// headroom speak of the max_size it gets (the peak's 40 nodes raised by headroom_percent), not of the bound: with one
// 2,500m pod a c5.xlarge, 50 % headroom is 60 nodes and 20 more replicas, and none without it; a set max_size of 45
// leaves 5.
func TestComputedMaxSizeReported(t *testing.T) {
	p := sizing.NewPlanner(sizing.EmbeddedCatalog())
	for _, c := range []struct {
		headroom, max int
		maxSize       *int
		more          int64
	}{{0, 40, nil, 0}, {50, 60, nil, 20}, {50, 45, intp(45), 5}} {
		req := phpGroup(c.maxSize)
		req.HeadroomPercent = c.headroom
		r, err := Size(context.Background(), p, req)
		if err != nil {
			t.Fatal(err)
		}
		if r.MaxSize != c.max || r.Pool.MaxNodes != c.max || r.Pool.Peak.MaxNodes != c.max || r.Pool.Steady.MaxNodes != c.max {
			t.Errorf("headroom %d%%: max size %d, pool %d, scenarios %d/%d; want %d", c.headroom, r.MaxSize, r.Pool.MaxNodes,
				r.Pool.Steady.MaxNodes, r.Pool.Peak.MaxNodes, c.max)
		}
		if got := r.Plan.Workloads[0].Headroom; got != c.more {
			t.Errorf("headroom %d%%: %d more replicas, want %d", c.headroom, got, c.more)
		}
		row := fmt.Sprintf("peak      php   40     %-4d", c.max)
		if !strings.Contains(r.Plan.Report, row) || strings.Contains(r.Plan.Report, fmt.Sprint(UnboundedNodes)) {
			t.Errorf("headroom %d%%: report lacks %q or shows the planner's bound:\n%s", c.headroom, row, r.Plan.Report)
		}
	}
}

// TestSizeKeepsMaxSize: a steady scenario beyond a set max_size is a misfit, not a reason to raise max_size: the
// computed min_size and desired size stay within it (24 steady php pods, one a node, on at most 20 nodes).
func TestSizeKeepsMaxSize(t *testing.T) {
	req := phpGroup(intp(20))
	req.Workloads[0].MinReplicas = intp(24)
	r, err := Size(context.Background(), sizing.NewPlanner(sizing.EmbeddedCatalog()), req)
	if err != nil {
		t.Fatal(err)
	}
	if r.Fits || r.SteadyNodes != 24 || r.MinSize != 20 || r.DesiredSize != 20 || r.MaxSize != 20 || r.Capacity.MaxNodes != 20 {
		t.Errorf("fits %v, steady %d, sizes %d/%d/%d, capacity %d; want a misfit at 20/20/20", r.Fits, r.SteadyNodes, r.MinSize, r.DesiredSize, r.MaxSize, r.Capacity.MaxNodes)
	}
}

func TestSizeErrors(t *testing.T) {
	p := sizing.NewPlanner(sizing.EmbeddedCatalog())
	req := phpGroup(intp(2))
	req.MinSize = intp(5)
	_, err := Size(context.Background(), p, req)
	if es := field.As(err); len(es) != 1 || es[0].Path.String() != "MinSize" || !strings.Contains(es[0].Detail, "min > max") {
		t.Fatalf("err = %v", err)
	}
	req = phpGroup(nil)
	req.Pool.InstanceTypes = []string{"c5.xlarg"}
	_, err = Size(context.Background(), p, req)
	if es := field.As(err); len(es) != 1 || es[0].Path.String() != "InstanceTypes[0]" || !strings.Contains(es[0].Detail, `did you mean "c5.xlarge"`) {
		t.Fatalf("err = %v", err)
	}
}

func TestRenderAWS(t *testing.T) {
	p := sizing.NewPlanner(sizing.EmbeddedCatalog())
	req := phpGroup(nil)
	req.Pool.Taints = []fit.Taint{{Key: "dedicated", Value: "php", Effect: fit.EffectNoSchedule}}
	req.Pool.Labels = map[string]string{"team": "web"}
	req.CapacityType = Spot
	req.Workloads[0].Tolerations = []fit.Toleration{{Key: "dedicated", Operator: fit.OperatorEqual, Value: "php", Effect: fit.EffectNoSchedule}}
	r, err := Size(context.Background(), p, req)
	if err != nil {
		t.Fatal(err)
	}
	out, err := Render(req, r)
	if err != nil {
		t.Fatal(err)
	}
	if out.AKS != nil || out.GKE != nil || out.EKS == nil {
		t.Fatal("an AWS group renders EKS shapes only")
	}
	if e := out.EKS; e.AMIType != "AL2023_x86_64_STANDARD" || e.CapacityType != "SPOT" || e.Taints[0].Effect != "NO_SCHEDULE" || e.DiskSize != 20 || e.MaxSize != 40 {
		t.Errorf("eks = %+v", e)
	}
	var ng struct {
		ManagedNodeGroups []eksctlNodeGroup `json:"managedNodeGroups"`
	}
	if err := yaml.UnmarshalStrict([]byte(out.EksctlYAML), &ng); err != nil || len(ng.ManagedNodeGroups) != 1 || ng.ManagedNodeGroups[0].MaxPodsPerNode != r.MaxPods || !ng.ManagedNodeGroups[0].Spot {
		t.Errorf("eksctl %v: %s", err, out.EksctlYAML)
	}
	var kc kubeletv1beta1.KubeletConfiguration
	if err := yaml.UnmarshalStrict([]byte(out.KubeletConfigYAML), &kc); err != nil || kc.Kind != "KubeletConfiguration" || kc.MaxPods != int32(r.MaxPods) || len(kc.EvictionHard) != 5 {
		t.Errorf("kubelet config %v: %s", err, out.KubeletConfigYAML)
	}
	var back map[string]any
	if err := yaml.Unmarshal([]byte(out.KarpenterYAML), &back); err != nil {
		t.Fatal(err)
	}
	limits := out.KarpenterNodePool["spec"].(map[string]any)["limits"].(map[string]any)
	if limits["cpu"] != "160" || !strings.Contains(out.KarpenterYAML, "EC2NodeClass") || !strings.Contains(out.KarpenterYAML, "spot") {
		t.Errorf("karpenter limits %v:\n%s", limits, out.KarpenterYAML)
	}
}

// TestKubeletConfigOnlyPlannedFields: kubelet_config_yaml and the AL2023 launch template's NodeConfig hold max
// pods, the reservations and the eviction thresholds, and nothing else: no field of the KubeletConfiguration type
// at its zero value (syncFrequency: 0s, containerRuntimeEndpoint: "" and two dozen more were rendered before),
// which nodeadm would merge over its own configuration. Every key is a field of the typed configuration.
func TestKubeletConfigOnlyPlannedFields(t *testing.T) {
	p := sizing.NewPlanner(sizing.EmbeddedCatalog())
	for _, tc := range []struct {
		name  string
		setup func(*Request)
		want  []string
	}{
		{"defaults", func(*Request) {}, []string{"apiVersion", "evictionHard", "kind", "kubeReserved", "maxPods"}},
		{"system reserved and max pods", func(r *Request) {
			r.Pool.Overhead.MaxPods = 50
			r.Pool.Overhead.SystemReserved = overhead.Reservation{MemoryBytes: ptr64(100 << 20)}
		}, []string{"apiVersion", "evictionHard", "kind", "kubeReserved", "maxPods", "systemReserved"}},
	} {
		req := phpGroup(nil)
		tc.setup(&req)
		req.Pool.Overhead.Profile = overhead.EKSAL2023
		r, err := Size(context.Background(), p, req)
		if err != nil {
			t.Fatal(err)
		}
		out, err := Render(req, r)
		if err != nil {
			t.Fatal(err)
		}
		var kc kubeletv1beta1.KubeletConfiguration
		if err := yaml.UnmarshalStrict([]byte(out.KubeletConfigYAML), &kc); err != nil || kc.MaxPods != int32(r.MaxPods) {
			t.Errorf("%s: kubelet config %v: %s", tc.name, err, out.KubeletConfigYAML)
		}
		var doc map[string]any
		if err := yaml.Unmarshal([]byte(out.KubeletConfigYAML), &doc); err != nil {
			t.Fatal(err)
		}
		if got := slices.Sorted(maps.Keys(doc)); !slices.Equal(got, tc.want) {
			t.Errorf("%s: kubelet config keys %v, want %v:\n%s", tc.name, got, tc.want, out.KubeletConfigYAML)
		}
		lt := out.EKSLaunchTemplate
		if lt == nil {
			// The launch template only carries settings other than EKS's defaults.
			continue
		}
		if lt.UserDataFormat != "nodeadm" {
			t.Fatalf("%s: launch template %+v, want nodeadm user data", tc.name, lt)
		}
		var nc struct {
			Spec struct {
				Kubelet struct {
					Config map[string]any `json:"config"`
				} `json:"kubelet"`
			} `json:"spec"`
		}
		if err := yaml.Unmarshal([]byte(lt.Settings), &nc); err != nil {
			t.Fatal(err)
		}
		want := slices.DeleteFunc(slices.Clone(tc.want), func(k string) bool { return k == "apiVersion" || k == "kind" })
		if got := slices.Sorted(maps.Keys(nc.Spec.Kubelet.Config)); !slices.Equal(got, want) {
			t.Errorf("%s: NodeConfig kubelet.config keys %v, want %v:\n%s", tc.name, got, want, lt.Settings)
		}
	}
}

// TestRenderAutoMode: an EKS Auto Mode group renders only its NodePool, which refers to Auto Mode's NodeClass
// (eks.amazonaws.com); a managed node group, its module entry, its launch template or an eksctl one would launch
// nodes of another kind than the ones planned.
func TestRenderAutoMode(t *testing.T) {
	p := sizing.NewPlanner(sizing.EmbeddedCatalog())
	req := phpGroup(nil)
	req.Pool.Overhead.EKS.Kind = overhead.AutoMode
	r, err := Size(context.Background(), p, req)
	if err != nil {
		t.Fatal(err)
	}
	out, err := Render(req, r)
	if err != nil {
		t.Fatal(err)
	}
	if out.EKS != nil || out.EKSModule != nil || out.EKSLaunchTemplate != nil || out.EksctlYAML != "" {
		t.Errorf("auto mode renders managed shapes: eks %v, module %v, launch template %v, eksctl %q", out.EKS, out.EKSModule, out.EKSLaunchTemplate, out.EksctlYAML)
	}
	ref, _ := out.KarpenterNodePool["spec"].(map[string]any)["template"].(map[string]any)["spec"].(map[string]any)["nodeClassRef"].(map[string]any)
	if ref["group"] != "eks.amazonaws.com" || ref["kind"] != "NodeClass" || ref["name"] != "default" {
		t.Errorf("nodeClassRef %v, want eks.amazonaws.com NodeClass default:\n%s", ref, out.KarpenterYAML)
	}
	// A managed group keeps Karpenter's EC2NodeClass.
	req.Pool.Overhead.EKS.Kind = overhead.Managed
	if r, err = Size(context.Background(), p, req); err != nil {
		t.Fatal(err)
	}
	if out, err = Render(req, r); err != nil || out.EKS == nil || !strings.Contains(out.KarpenterYAML, "kind: EC2NodeClass") {
		t.Errorf("managed: %v, eks %v:\n%s", err, out.EKS, out.KarpenterYAML)
	}
}

// TestKarpenterLimitsMixedGroup: a NodePool of several instance types may launch any of them, so its limits are the
// largest member's capacity per node times the nodes it needs: the smallest member's would let Karpenter launch
// fewer nodes of the larger ones than the plan needs.
func TestKarpenterLimitsMixedGroup(t *testing.T) {
	p := sizing.NewPlanner(sizing.EmbeddedCatalog())
	req := phpGroup(intp(10))
	req.Pool.InstanceTypes = []string{"c5.xlarge", "m5.xlarge"}
	r, err := Size(context.Background(), p, req)
	if err != nil {
		t.Fatal(err)
	}
	out, err := Render(req, r)
	if err != nil {
		t.Fatal(err)
	}
	one := phpGroup(intp(10))
	one.Pool.InstanceTypes = []string{"m5.xlarge"}
	m5, err := Size(context.Background(), p, one)
	if err != nil {
		t.Fatal(err)
	}
	if r.Pool.Instance.Name != "c5.xlarge" || m5.Pool.Overhead.Capacity.MemoryBytes <= r.Pool.Overhead.Capacity.MemoryBytes {
		t.Fatalf("planned on %s (%d bytes), m5.xlarge %d: want the smaller c5.xlarge", r.Pool.Instance.Name, r.Pool.Overhead.Capacity.MemoryBytes, m5.Pool.Overhead.Capacity.MemoryBytes)
	}
	n := int64(max(r.MaxSize, r.Karpenter.LimitNodes))
	limits := out.KarpenterNodePool["spec"].(map[string]any)["limits"].(map[string]any)
	if want := resource.QuantityBytes(n * m5.Pool.Overhead.Capacity.MemoryBytes); limits["memory"] != want {
		t.Errorf("memory limit %v, want %s: %d nodes of m5.xlarge", limits["memory"], want, n)
	}
}

func TestRenderAKS(t *testing.T) {
	p := sizing.NewPlanner(sizing.EmbeddedCatalog())
	req := Request{
		Pool: sizing.Pool{Name: "user", Cloud: catalog.Azure, InstanceTypes: []string{"Standard_D4s_v5"}, Zones: []string{"1", "2"},
			Taints: []fit.Taint{{Key: "sku", Value: "gpu", Effect: fit.EffectNoSchedule}}},
		Workloads: []sizing.Workload{{Name: "api", MinReplicas: intp(4), MaxReplicas: intp(12), Requests: fit.Resources{CPUMillicores: 1000, MemoryBytes: 2 << 30},
			Tolerations: []fit.Toleration{{Key: "sku", Operator: fit.OperatorExists}}}},
	}
	r, err := Size(context.Background(), p, req)
	if err != nil {
		t.Fatal(err)
	}
	out, err := Render(req, r)
	if err != nil {
		t.Fatal(err)
	}
	a := out.AKS
	if a == nil || out.EKS != nil || a.VMSize != "Standard_D4s_v5" || !a.AutoScalingEnabled || *a.MinCount != r.MinSize || *a.MaxCount != r.MaxSize ||
		a.NodeTaints[0] != "sku=gpu:NoSchedule" || a.OSType != "Linux" || a.OSDiskSizeGB != 128 || strings.Join(a.Zones, ",") != "1,2" {
		t.Errorf("aks = %+v", a)
	}
}

func TestKarpenterName(t *testing.T) {
	for in, want := range map[string]string{
		"php": "php", "web-x86.v2": "web-x86.v2", "Web_Pool": "web-pool", "web.": "web", "__": "nodegroup", "GPU pool 1": "gpu-pool-1",
	} {
		if got := KarpenterName(in); got != want {
			t.Errorf("KarpenterName(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestEksctlName: the eksctl entry's name holds only letters, digits and hyphens (its CloudFormation stack's name),
// with a warning when it differs from the group's; the EKS node group keeps the group's name, which EKS takes.
func TestEksctlName(t *testing.T) {
	for in, want := range map[string]string{"php": "php", "Web_Pool": "Web-Pool", "web-x86.v2": "web-x86-v2", "a1": "a1"} {
		if got := EksctlName(in); got != want {
			t.Errorf("EksctlName(%q) = %q, want %q", in, got, want)
		}
	}
	req := phpGroup(nil)
	req.Pool.Name = "Web_Pool"
	r, err := Size(context.Background(), sizing.NewPlanner(sizing.EmbeddedCatalog()), req)
	if err != nil {
		t.Fatal(err)
	}
	out, err := Render(req, r)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.EksctlYAML, "name: Web-Pool") || !hasCode(r.Warnings, WarnEksctlName) || hasCode(r.Warnings, WarnKarpenterName) {
		t.Errorf("eksctl %q, warnings %+v: want the entry named Web-Pool, with the eksctl warning only (a managed group runs no NodePool)", out.EksctlYAML, r.Warnings)
	}
}

// TestWindowsPodIPs: an EKS Windows node gives pods the IPs of its one ENI, 9 on an m5.large (10 IPv4 addresses
// less the node's own), whatever its max pods of 110: 20 small pods need 3 nodes, and a group of at most 1 does not
// hold them.
func TestWindowsPodIPs(t *testing.T) {
	req := Request{
		Pool: sizing.Pool{Name: "win", Cloud: catalog.AWS, InstanceTypes: []string{"m5.large"}, Overhead: overhead.Input{Profile: overhead.EKSWindows}},
		// Windows pods (an unmarked pod is planned as Linux, which a Windows node's kubelet rejects).
		Workloads: []sizing.Workload{{Name: "iis", Replicas: intp(20), Requests: fit.Resources{CPUMillicores: 10, MemoryBytes: 16 << 20}, OS: "windows"}},
	}
	p := sizing.NewPlanner(sizing.EmbeddedCatalog())
	r, err := Size(context.Background(), p, req)
	if err != nil {
		t.Fatal(err)
	}
	if r.WorkloadAllocatable.Pods != 9 || r.SteadyNodes != 3 || r.MaxSize != 3 {
		t.Errorf("workload pod slots %d, steady nodes %d, max size %d; want 9, 3, 3", r.WorkloadAllocatable.Pods, r.SteadyNodes, r.MaxSize)
	}
	req.MaxSize = intp(1)
	if r, err = Size(context.Background(), p, req); err != nil || r.Fits {
		t.Errorf("20 pods on one Windows m5.large (9 pod IPs) must not fit: fits %v, %v", r != nil && r.Fits, err)
	}
}

// TestKarpenterMixedArchitectures: a Karpenter NodePool picks an AMI per node, so a Karpenter group may mix
// architectures and list more than the 20 instance types a managed node group takes; only its NodePool is rendered,
// requiring every member's architecture. A managed group with the same members is refused on the odd member.
func TestKarpenterMixedArchitectures(t *testing.T) {
	p := sizing.NewPlanner(sizing.EmbeddedCatalog())
	req := phpGroup(nil)
	req.Pool.InstanceTypes = []string{"m5.xlarge", "m6g.xlarge"}
	if _, err := Size(context.Background(), p, req); err == nil || !strings.Contains(err.Error(), "an EKS managed node group runs one AMI type") {
		t.Errorf("managed group of two architectures: %v", err)
	}
	req.Pool.Overhead.EKS.Kind = overhead.Karpenter
	r, err := Size(context.Background(), p, req)
	if err != nil {
		t.Fatal(err)
	}
	out, err := Render(req, r)
	if err != nil {
		t.Fatal(err)
	}
	if out.EKS != nil || out.EKSModule != nil || out.EksctlYAML != "" || !strings.Contains(out.KarpenterYAML, "- amd64\n") || !strings.Contains(out.KarpenterYAML, "- arm64\n") {
		t.Errorf("Karpenter group of two architectures: eks %v, module %v, eksctl %q, NodePool:\n%s", out.EKS, out.EKSModule, out.EksctlYAML, out.KarpenterYAML)
	}
	// Only the NodePool is rendered, so no warning names an eksctl entry.
	req.Pool.Name = "php_web"
	if r, err := Size(context.Background(), p, req); err != nil || hasCode(r.Warnings, WarnEksctlName) {
		t.Errorf("a Karpenter group with no eksctl entry warns about its eksctl name: %v %+v", err, r.Warnings)
	}
	var many []string
	for _, f := range []string{"m5", "m5a", "m5d", "m5n", "m6i", "m6a", "m7i", "c5", "c5a", "c6i", "r5", "r5a", "r6i"} {
		many = append(many, f+".xlarge", f+".2xlarge")
	}
	req.Pool.InstanceTypes = many
	if _, err := Size(context.Background(), p, req); err != nil {
		t.Errorf("Karpenter group of %d instance types: %v", len(many), err)
	}
}
