package nodegroup

import (
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"mime/multipart"
	"slices"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
	ekstypes "github.com/aws/aws-sdk-go-v2/service/eks/types"
	"sigs.k8s.io/yaml"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/fit"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/overhead"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/sizing"
)

// smallGroup is an AWS group of the given types and profile carrying one small workload.
func smallGroup(profile overhead.Profile, version string, types ...string) Request {
	r := phpGroup(nil)
	r.Pool.InstanceTypes = types
	r.Pool.Overhead.Profile, r.Pool.Overhead.KubernetesVersion = profile, version
	r.Workloads = []sizing.Workload{{Name: "web", Replicas: intp(2), Requests: fit.Resources{CPUMillicores: 100, MemoryBytes: 128 << 20}}}
	return r
}

// TestEKSImages: a managed node group runs one AMI type, so its members share architecture and accelerator
// kind (the odd member is named on its own entry); combinations without an EKS AMI type are refused; Neuron
// types get the Neuron AMI type.
func TestEKSImages(t *testing.T) {
	p := sizing.NewPlanner(sizing.EmbeddedCatalog())
	for _, tc := range []struct {
		name    string
		req     Request
		paths   []string
		want    string
		amiType string
	}{
		{"mixed architectures and accelerators", smallGroup("", "", "m5.xlarge", "m6g.xlarge", "g5.xlarge"), []string{"InstanceTypes[1]", "InstanceTypes[2]"}, `"m6g.xlarge"`, ""},
		{"windows on arm", smallGroup(overhead.EKSWindows, "", "m6g.xlarge"), []string{"InstanceTypes[0]"}, "no Windows AMI for Arm", ""},
		{"windows with a gpu", smallGroup(overhead.EKSWindows, "", "g5.xlarge"), []string{"InstanceTypes[0]"}, "no Windows AMI type", ""},
		// Bottlerocket's standard variant loads the Neuron driver (ml-eks-optimized-ami.adoc: "Bottlerocket x86_64
		// aws-k8s | inf1, inf2, trn1, trn2"); it was refused, and its AMI type would have been the NVIDIA one.
		{"bottlerocket neuron", smallGroup(overhead.EKSBottlerocket, "", "inf2.xlarge"), nil, "", "BOTTLEROCKET_x86_64"},
		{"bottlerocket trainium", smallGroup(overhead.EKSBottlerocket, "", "trn1.2xlarge"), nil, "", "BOTTLEROCKET_x86_64"},
		{"neuron on al2", smallGroup(overhead.EKSAL2, "1.32", "inf2.xlarge"), nil, "", "AL2_x86_64_GPU"},
		// g6f and gr6f carry a fraction of an NVIDIA L4 (0 whole GPUs in the catalog): EKS lists them under its
		// NVIDIA AMIs; the standard AMI has no driver.
		{"fractional l4 on al2023", smallGroup("", "", "g6f.xlarge"), nil, "", "AL2023_x86_64_NVIDIA"},
		{"fractional l4 on bottlerocket", smallGroup(overhead.EKSBottlerocket, "", "gr6f.4xlarge"), nil, "", "BOTTLEROCKET_x86_64_NVIDIA"},
		{"al2 on 1.33", smallGroup(overhead.EKSAL2, "1.33", "m5.xlarge"), []string{"Overhead.KubernetesVersion"}, "last is 1.32", ""},
		{"al2 on 1.32", smallGroup(overhead.EKSAL2, "1.32", "m5.xlarge"), nil, "", "AL2_x86_64"},
		{"neuron on al2023", smallGroup("", "", "inf2.xlarge"), nil, "", "AL2023_x86_64_NEURON"},
		{"arm gpu on al2023", smallGroup("", "", "g5g.xlarge"), nil, "", "AL2023_ARM_64_NVIDIA"},
		{"one architecture", smallGroup("", "", "m5.xlarge", "m5a.xlarge", "c5.xlarge"), nil, "", "AL2023_x86_64_STANDARD"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Size(context.Background(), p, tc.req)
			if tc.paths != nil {
				es := field.As(err)
				var got []string
				for _, e := range es {
					got = append(got, e.Path.String())
				}
				if strings.Join(got, " ") != strings.Join(tc.paths, " ") || !strings.Contains(err.Error(), tc.want) {
					t.Fatalf("errors at %v: %v; want %v naming %s", got, err, tc.paths, tc.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := amiType(r); got != tc.amiType {
				t.Errorf("AMI type %s, want %s", got, tc.amiType)
			}
		})
	}
}

// TestEKSEnumsAreTheSDKs: every AMI type, capacity type and taint effect kubefit emits for aws_eks_node_group
// is a value of the EKS API's own enums (github.com/aws/aws-sdk-go-v2/service/eks/types), over profiles ×
// x86/Arm × none/GPU/Neuron.
func TestEKSEnumsAreTheSDKs(t *testing.T) {
	p := sizing.NewPlanner(sizing.EmbeddedCatalog())
	amiTypes := map[string]bool{}
	for _, v := range ekstypes.AMITypesAl2X8664.Values() {
		amiTypes[string(v)] = true
	}
	seen := 0
	for _, prof := range []overhead.Profile{overhead.EKSAL2023, overhead.EKSAL2, overhead.EKSBottlerocket, overhead.EKSWindows} {
		for _, typ := range []string{"m5.xlarge", "m6g.xlarge", "g5.xlarge", "g5g.xlarge", "inf2.xlarge", "trn1.2xlarge"} {
			for _, ct := range []CapacityType{OnDemand, Spot} {
				req := smallGroup(prof, "", typ)
				req.CapacityType = ct
				req.Pool.Taints = []fit.Taint{{Key: "a", Effect: fit.EffectNoSchedule}, {Key: "b", Value: "x", Effect: fit.EffectNoExecute}, {Key: "c", Effect: fit.EffectPreferNoSchedule}}
				req.Workloads[0].Tolerations = []fit.Toleration{{Operator: fit.OperatorExists}}
				r, err := Size(context.Background(), p, req)
				if err != nil {
					continue // refused (TestEKSImages): nothing is emitted
				}
				out, err := Render(req, r)
				if err != nil {
					t.Fatalf("%s %s: %v", prof, typ, err)
				}
				seen++
				if !amiTypes[out.EKS.AMIType] {
					t.Errorf("%s on %s: AMI type %s is not one of the EKS API's %v", prof, typ, out.EKS.AMIType, ekstypes.AMITypesAl2X8664.Values())
				}
				if !slices.Contains(ekstypes.CapacityTypesSpot.Values(), ekstypes.CapacityTypes(out.EKS.CapacityType)) {
					t.Errorf("capacity type %s", out.EKS.CapacityType)
				}
				for _, tn := range out.EKS.Taints {
					if !slices.Contains(ekstypes.TaintEffectNoSchedule.Values(), ekstypes.TaintEffect(tn.Effect)) {
						t.Errorf("taint effect %s", tn.Effect)
					}
				}
			}
		}
	}
	if seen < 30 {
		t.Errorf("only %d combinations rendered", seen)
	}
}

// aksGroup is an Azure group of one workload of n replicas on Standard_D4s_v5.
func aksGroup(n int, tolerateSpot bool) Request {
	w := sizing.Workload{Name: "api", Replicas: intp(n), Requests: fit.Resources{CPUMillicores: 1000, MemoryBytes: 2 << 30}}
	if tolerateSpot {
		w.Tolerations = []fit.Toleration{{Key: "kubernetes.azure.com/scalesetpriority", Operator: fit.OperatorEqual, Value: "spot", Effect: fit.EffectNoSchedule}}
	}
	return Request{Pool: sizing.Pool{Name: "user", Cloud: catalog.Azure, InstanceTypes: []string{"Standard_D4s_v5"}}, Workloads: []sizing.Workload{w}}
}

// TestAKSRules: a Spot pool is rendered as AKS runs it (priority, eviction policy given explicitly, max price,
// and the taint and label AKS adds, which azurerm reads back; only tolerating pods pass the taint); labels under
// AKS's reserved prefixes (save the Spot label on a Spot group), value-less taints, more than 1,000 nodes and max
// pods outside 10–250 are refused on kubefit's own attribute; Windows pools get the os_sku of their version; every
// pool carries a temporary_name_for_rotation azurerm takes, distinct between groups.
func TestAKSRules(t *testing.T) {
	p := sizing.NewPlanner(sizing.EmbeddedCatalog())
	ctx := context.Background()
	spot := aksGroup(4, true)
	spot.CapacityType = Spot
	r, err := Size(ctx, p, spot)
	if err != nil || !r.Fits {
		t.Fatalf("spot group with tolerating pods: %v, fits %v", err, r != nil && r.Fits)
	}
	out, err := Render(spot, r)
	if err != nil {
		t.Fatal(err)
	}
	if a := out.AKS; a.Priority != "Spot" || a.EvictionPolicy != "Delete" || a.SpotMaxPrice == nil || *a.SpotMaxPrice != -1 ||
		!slices.Contains(a.NodeTaints, "kubernetes.azure.com/scalesetpriority=spot:NoSchedule") || a.NodeLabels["kubernetes.azure.com/scalesetpriority"] != "spot" || a.OSSKU != "" {
		t.Errorf("spot pool %+v", a)
	}
	if m := out.AKSModule; m.NodeLabels["kubernetes.azure.com/scalesetpriority"] != "spot" || m.Priority != "Spot" {
		t.Errorf("spot module pool %+v", m)
	}
	// The Spot label given by the user on a Spot group is the one AKS sets: accepted, and emitted once.
	spot.Pool.Labels = map[string]string{"kubernetes.azure.com/scalesetpriority": "spot", "tier": "batch"}
	if r, err := Size(ctx, p, spot); err != nil {
		t.Errorf("spot group with the spot label: %v", err)
	} else if out, _ := Render(spot, r); len(out.AKS.NodeLabels) != 2 || out.AKS.NodeLabels["kubernetes.azure.com/scalesetpriority"] != "spot" {
		t.Errorf("spot group with the spot label: labels %v", out.AKS.NodeLabels)
	}
	untolerating := aksGroup(4, false)
	untolerating.CapacityType = Spot
	if r, err := Size(ctx, p, untolerating); err != nil || r.Fits || len(r.Failures) == 0 || r.Failures[0].Reason != sizing.Reason(fit.ReasonTaint) {
		t.Errorf("pods that do not tolerate the Spot taint: %v, %+v", err, r)
	}
	regular := aksGroup(4, false)
	r, _ = Size(ctx, p, regular)
	if out, _ := Render(regular, r); out.AKS.Priority != "Regular" || out.AKS.EvictionPolicy != "" || out.AKS.SpotMaxPrice != nil || len(out.AKS.NodeLabels) != 0 {
		t.Errorf("regular pool %+v", out.AKS)
	}
	for _, tc := range []struct {
		name string
		mod  func(*Request)
		path string
		want string
	}{
		{"reserved label", func(q *Request) { q.Pool.Labels = map[string]string{"kubernetes.azure.com/mode": "user"} }, `Labels["kubernetes.azure.com/mode"]`, "AKS reserves"},
		{"kubernetes.io label", func(q *Request) { q.Pool.Labels = map[string]string{"kubernetes.io/role": "web"} }, `Labels["kubernetes.io/role"]`, "under kubernetes.io/"},
		{"spot label on a regular group", func(q *Request) { q.Pool.Labels = map[string]string{"kubernetes.azure.com/scalesetpriority": "spot"} },
			`Labels["kubernetes.azure.com/scalesetpriority"]`, "AKS reserves"},
		{"spot label of another value", func(q *Request) {
			q.CapacityType, q.Workloads = Spot, aksGroup(4, true).Workloads
			q.Pool.Labels = map[string]string{"kubernetes.azure.com/scalesetpriority": "regular"}
		}, `Labels["kubernetes.azure.com/scalesetpriority"]`, "AKS reserves"},
		{"value-less taint", func(q *Request) { q.Pool.Taints = []fit.Taint{{Key: "gpu", Effect: fit.EffectNoSchedule}} }, "Taints[0]", "key=value:Effect"},
		{"max_size above 1,000", func(q *Request) { q.MaxSize = intp(1001) }, "MaxSize", "at most 1000"},
		{"peak above 1,000", func(q *Request) { q.Workloads[0].Replicas = intp(4000) }, "MaxSize", "the peak needs"},
		{"min_size above 1,000", func(q *Request) { q.MinSize = intp(1001) }, "MinSize", "min_size is 1001"},
		{"max pods 9", func(q *Request) { q.Pool.Overhead.MaxPods = 9 }, "MaxPods", "only from 10 to 250"},
		{"max pods 251", func(q *Request) { q.Pool.Overhead.MaxPods = 251 }, "MaxPods", "only from 10 to 250"},
		{"measured pods 300", func(q *Request) { p := int64(300); q.Pool.Overhead.MeasuredAllocatable.Pods = &p }, "MeasuredAllocatable.Pods", "measured allocatable pods 300"},
		{"1 vCPU", func(q *Request) { q.Pool.InstanceTypes = []string{"Standard_B1ms"} }, "InstanceTypes[0]", "AKS does not create nodes on VM sizes with fewer than 2 vCPUs"},
		{"kube-reserved", func(q *Request) { m := int64(100 << 20); q.Pool.Overhead.KubeReserved.MemoryBytes = &m }, "KubeReserved",
			"azurerm_kubernetes_cluster_node_pool cannot carry them"},
		{"eviction-hard", func(q *Request) {
			q.Pool.Overhead.EvictionHard = map[string]overhead.Threshold{"memory.available": {Bytes: 100 << 20}}
		}, "EvictionHard", "nodes would keep AKS's"},
	} {
		q := aksGroup(4, false)
		tc.mod(&q)
		_, err := Size(ctx, p, q)
		if es := field.As(err); len(es) != 1 || es[0].Path.String() != tc.path || !strings.Contains(es[0].Detail, tc.want) {
			t.Errorf("%s: %v; want one error at %s naming %q", tc.name, err, tc.path, tc.want)
		}
	}
	// AKS refuses a max pods under 30 on a pool that holds fewer than 30 pods at its minimum (given or planned):
	// one error on the max pods naming both remedies.
	for _, tc := range []struct {
		maxPods int64
		minSize *int
		refused bool
	}{{10, intp(1), true}, {10, intp(3), false}, {29, intp(2), false}, {30, intp(1), false}, {10, nil, true}, {15, nil, false}} {
		q := aksGroup(6, false) // 2 nodes planned: a computed minimum of 2
		q.Pool.Overhead.MaxPods, q.MinSize = tc.maxPods, tc.minSize
		_, err := Size(ctx, p, q)
		es := field.As(err)
		if refused := len(es) > 0; refused != tc.refused || refused && (len(es) != 1 || es[0].Path.String() != "MaxPods" ||
			!strings.Contains(es[0].Detail, "AKS refuses a max pods under 30") || !strings.Contains(es[0].Detail, "raise the max pods to 30, or the minimum to")) {
			t.Errorf("max pods %d, min size %v: %v; want refused %v, one error at MaxPods naming both remedies", tc.maxPods, tc.minSize, err, tc.refused)
		}
	}
	// A kubenet cluster holds at most 400 nodes: a kubenet group whose maximum (given or the peak's) is above
	// it is refused on its maximum, naming the limit and Azure CNI overlay; 400 is taken.
	for _, tc := range []struct {
		maxSize  *int
		replicas int
		refused  bool
	}{{intp(401), 4, true}, {intp(400), 4, false}, {nil, 1500, true}, {nil, 900, false}} {
		q := aksGroup(tc.replicas, false)
		q.Pool.Overhead.AKS.NetworkPlugin = overhead.Kubenet
		q.MaxSize = tc.maxSize
		_, err := Size(ctx, p, q)
		es := field.As(err)
		if refused := len(es) > 0; refused != tc.refused || refused && (len(es) != 1 || es[0].Path.String() != "MaxSize" ||
			!strings.Contains(es[0].Detail, "a kubenet cluster holds at most 400 nodes") || !strings.Contains(es[0].Detail, "Azure CNI overlay")) {
			t.Errorf("kubenet, max size %v, %d replicas: %v; want refused %v, one error at MaxSize naming the limit and the remedy", tc.maxSize, tc.replicas, err, tc.refused)
		}
	}
	for _, mp := range []int64{10, 250} {
		q := aksGroup(4, false)
		q.Pool.Overhead.MaxPods, q.MinSize = mp, intp(3)
		if r, err := Size(ctx, p, q); err != nil {
			t.Errorf("max pods %d: %v", mp, err)
		} else if out, _ := Render(q, r); out.AKS.MaxPods != mp {
			t.Errorf("max pods %d: emitted %d", mp, out.AKS.MaxPods)
		}
	}
	for _, tc := range []struct{ version, sku string }{{"", "Windows2022"}, {"1.33", "Windows2022"}, {"1.22", "Windows2019"}, {"1.36", "Windows2022"}, {"1.37", "Windows2025"}, {"1.38", "Windows2025"}} {
		w := aksGroup(2, false)
		w.Pool.Overhead.Profile, w.Pool.Overhead.KubernetesVersion = overhead.AKSWindows, tc.version
		r, err := Size(ctx, p, w)
		if err != nil {
			t.Fatalf("windows %s: %v", tc.version, err)
		}
		if out, _ := Render(w, r); out.AKS.OSSKU != tc.sku || out.AKS.OSType != "Windows" {
			t.Errorf("windows %s: os_sku %s, want %s", tc.version, out.AKS.OSSKU, tc.sku)
		}
		// Windows2025 warns that azurerm does not take it yet and that it needs a FIPS-enabled image.
		warned := slices.ContainsFunc(r.Warnings, func(w field.Warning) bool {
			return w.Code == WarnAKSWindows2025 && w.Path.String() == "KubernetesVersion" && strings.Contains(w.Message, "fips_enabled = true")
		})
		if warned != (tc.sku == "Windows2025") {
			t.Errorf("windows %s: Windows2025 warning %v, want %v: %v", tc.version, warned, tc.sku == "Windows2025", r.Warnings)
		}
	}
}

// TestGKEPool: sizes are exact totals over the group's zones (min 1 / max 7 over 3 zones stays 1 / 7, not 3 / 9
// or 1 / 3 per zone), node_count is never emitted, the initial count per zone is the desired size spread over
// the zones within the maximum, Spot and a set max pods reach the pool, and what google_container_node_pool
// refuses is refused first.
func TestGKEPool(t *testing.T) {
	p := sizing.NewPlanner(sizing.EmbeddedCatalog())
	ctx := context.Background()
	mk := func() Request {
		return Request{Pool: sizing.Pool{Name: "web", Cloud: catalog.GCP, InstanceTypes: []string{"n2-standard-4"}, Zones: []string{"europe-west1-b", "europe-west1-c", "europe-west1-d"}},
			Workloads: []sizing.Workload{{Name: "web", MinReplicas: intp(2), MaxReplicas: intp(20), Requests: fit.Resources{CPUMillicores: 1000, MemoryBytes: 2 << 30}}},
			MinSize:   intp(1), MaxSize: intp(7)}
	}
	req := mk()
	req.CapacityType = Spot
	req.Pool.Overhead.MaxPods = 64
	r, err := Size(ctx, p, req)
	if err != nil {
		t.Fatal(err)
	}
	out, _ := Render(req, r)
	g := out.GKE
	if g == nil || g.Autoscaling.TotalMinNodeCount != 1 || g.Autoscaling.TotalMaxNodeCount != 7 || strings.Join(g.NodeLocations, ",") != strings.Join(req.Pool.Zones, ",") ||
		g.InitialNodeCount != min(int((r.DesiredSize+2)/3), 7/3) || !g.Spot || g.Autoscaling.LocationPolicy != "ANY" || g.MaxPodsPerNode != 64 {
		t.Errorf("gke = %+v (desired %d)", g, r.DesiredSize)
	}
	plain := mk()
	plain.Pool.Zones = nil
	r, _ = Size(ctx, p, plain)
	if out, _ := Render(plain, r); out.GKE.NodeLocations != nil || out.GKE.InitialNodeCount != 1 || out.GKE.MaxPodsPerNode != r.MaxPods || r.MaxPods != 110 || out.GKE.Autoscaling.LocationPolicy != "BALANCED" || out.GKE.Spot {
		t.Errorf("gke without zones = %+v", out.GKE)
	}
	for _, tc := range []struct {
		name string
		mod  func(*Request)
		path string
		want string
	}{
		{"disk under 10 GB", func(q *Request) { q.DiskSizeGiB = 8 }, "DiskSizeGiB", "at least 10"},
		{"max pods 7", func(q *Request) { q.Pool.Overhead.MaxPods = 7 }, "MaxPods", "max_pods_per_node (google_container_node_pool) only from 8 to 256"},
		{"max pods 257", func(q *Request) { q.Pool.Overhead.MaxPods = 257 }, "MaxPods", "only from 8 to 256"},
		{"value-less taint", func(q *Request) { q.Pool.Taints = []fit.Taint{{Key: "gpu", Effect: fit.EffectNoSchedule}} }, "Taints[0]", "requires a taint's key, value and effect"},
		{"system-reserved", func(q *Request) { c := int64(50); q.Pool.Overhead.SystemReserved.CPUMillicores = &c }, "SystemReserved",
			"google_container_node_pool cannot carry them"},
	} {
		q := mk()
		tc.mod(&q)
		_, err := Size(ctx, p, q)
		if es := field.As(err); len(es) != 1 || es[0].Path.String() != tc.path || !strings.Contains(es[0].Detail, tc.want) {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
}

// TestAKSModulePool: Azure/aks's node_pools value leaves node_count null beside auto-scaling (the module would
// undo every autoscaler move) and sets it without; a Linux pool keeps the module's create_before_destroy and a
// name of at most 8 characters (the module appends 4 random ones, azurerm takes 12); a Windows pool turns
// create_before_destroy off and keeps up to 6 (AKS's Windows limit); temporary_name_for_rotation is set on both
// shapes, valid for the pool's OS and distinct between groups whose names share a prefix.
func TestAKSModulePool(t *testing.T) {
	p := sizing.NewPlanner(sizing.EmbeddedCatalog())
	ctx := context.Background()
	render := func(name string, windows, fixed bool) Rendered {
		t.Helper()
		q := aksGroup(4, false)
		q.Pool.Name = name
		if windows {
			q.Pool.Overhead.Profile = overhead.AKSWindows
		}
		if fixed {
			q.MinSize, q.MaxSize = intp(3), intp(3)
		} else {
			q.Workloads[0].Replicas, q.Workloads[0].MinReplicas, q.Workloads[0].MaxReplicas = nil, intp(4), intp(12)
		}
		r, err := Size(ctx, p, q)
		if err != nil {
			t.Fatal(err)
		}
		out, err := Render(q, r)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	scaled := render("user", false, false)
	if m := scaled.AKSModule; !m.AutoScalingEnabled || m.NodeCount != nil || !m.CreateBeforeDestroy || m.Name != "user" || len(scaled.Warnings) != 0 {
		t.Errorf("auto-scaled module pool %+v (node_count %v), warnings %v", m, m.NodeCount, scaled.Warnings)
	}
	if scaled.AKS.NodeCount < 1 {
		t.Errorf("azurerm pool node_count %d", scaled.AKS.NodeCount)
	}
	if m := render("user", false, true).AKSModule; m.AutoScalingEnabled || m.NodeCount == nil || *m.NodeCount != 3 {
		t.Errorf("fixed module pool %+v", m)
	}
	long := render("user-api-pool", false, false)
	if m := long.AKSModule; m.Name != "userapip" || !m.CreateBeforeDestroy || len(long.Warnings) != 1 || long.Warnings[0].Code != WarnModuleName {
		t.Errorf("long linux name: %q, create_before_destroy %v, warnings %v", m.Name, m.CreateBeforeDestroy, long.Warnings)
	}
	win := render("WindowsApi", true, false)
	if m := win.AKSModule; m.Name != "window" || m.CreateBeforeDestroy || len(win.Warnings) != 1 || !strings.Contains(win.Warnings[0].Message, "create_before_destroy = false") {
		t.Errorf("windows name: %q, create_before_destroy %v, warnings %v", m.Name, m.CreateBeforeDestroy, win.Warnings)
	}
	if n := win.AKS.TemporaryNameForRotation; len(n) != 6 || n[0] != 'w' || n != win.AKSModule.TemporaryNameForRotation {
		t.Errorf("windows temporary name %q (module %q)", n, win.AKSModule.TemporaryNameForRotation)
	}
	a, b := render("userapi1", false, false).AKS.TemporaryNameForRotation, render("userapi2", false, false).AKS.TemporaryNameForRotation
	if a == b || !strings.HasPrefix(a, "useratmp") || len(a) > 12 || !strings.HasPrefix(scaled.AKS.TemporaryNameForRotation, "usertmp") {
		t.Errorf("temporary names %q and %q of two groups, %q of user", a, b, scaled.AKS.TemporaryNameForRotation)
	}
}

// TestEKSInputRules: labels, taints and instance types the EKS API refuses are refused on kubefit's attribute,
// and a group that may grow past the default quota of 450 nodes warns.
func TestEKSInputRules(t *testing.T) {
	p := sizing.NewPlanner(sizing.EmbeddedCatalog())
	ctx := context.Background()
	many := func(n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = []string{"m5.xlarge", "m5a.xlarge", "m5d.xlarge", "m5n.xlarge", "m6i.xlarge"}[i%5]
		}
		return out
	}
	for _, tc := range []struct {
		name string
		mod  func(*Request)
		path string
		want string
	}{
		{"label key of 64", func(q *Request) { q.Pool.Labels = map[string]string{"example.com/" + strings.Repeat("k", 52): "v"} }, `Labels["example.com/` + strings.Repeat("k", 52) + `"]`, "label keys of 1 to 63"},
		{"empty label value", func(q *Request) { q.Pool.Labels = map[string]string{"team": ""} }, `Labels["team"]`, "label values of 1 to 63"},
		{"51 taints", func(q *Request) {
			for i := range 51 {
				q.Pool.Taints = append(q.Pool.Taints, fit.Taint{Key: "t" + strings.Repeat("x", i%5) + string(rune('a'+i%26)) + string(rune('a'+i/26)), Effect: fit.EffectNoSchedule})
			}
		}, "Taints", "at most 50"},
		{"taint value of 64", func(q *Request) {
			q.Pool.Taints = []fit.Taint{{Key: "k", Value: strings.Repeat("v", 64), Effect: fit.EffectNoSchedule}}
		}, "Taints[0]", "value up to 63"},
		{"taint key of 64", func(q *Request) {
			q.Pool.Taints = []fit.Taint{{Key: "example.com/" + strings.Repeat("k", 52), Value: "v", Effect: fit.EffectNoSchedule}}
		}, "Taints[0]", "key 1 to 63 characters"},
		{"21 instance types", func(q *Request) { q.Pool.InstanceTypes = many(21) }, "InstanceTypes", "at most 20"},
		{"eks.amazonaws.com label", func(q *Request) { q.Pool.Labels = map[string]string{"eks.amazonaws.com/team": "x"} }, `Labels["eks.amazonaws.com/team"]`, "reserves for a managed node group's labels"},
		{"eks.amazonaws.com label without a value: one error", func(q *Request) { q.Pool.Labels = map[string]string{"eks.amazonaws.com/x": ""} }, `Labels["eks.amazonaws.com/x"]`, "reserves for a managed node group's labels"},
		{"duplicate taint", func(q *Request) {
			q.Pool.Taints = []fit.Taint{{Key: "dup", Value: "1", Effect: fit.EffectNoSchedule}, {Key: "dup", Value: "2", Effect: fit.EffectNoSchedule}}
		}, "Taints[1]", "taints 1 and 2 of node group"},
		{"disk over gp3's 16,384 GiB", func(q *Request) { q.DiskSizeGiB = 30000 }, "DiskSizeGiB", "gp3 volume holds 1 to 16,384 GiB"},
		{"disk below the AMI's snapshot", func(q *Request) { q.DiskSizeGiB = 8 }, "DiskSizeGiB", "smaller than its snapshot"},
		{"Windows disk below its snapshot", func(q *Request) { q.DiskSizeGiB = 30; q.Pool.Overhead.Profile = overhead.EKSWindows }, "DiskSizeGiB", "Windows AMI's root snapshot is 50 GiB"},
		{"st1 root volume", func(q *Request) { q.DiskType = "st1" }, "DiskType", "cannot be boot volumes"},
		{"not an EBS type", func(q *Request) { q.DiskType = "ssd" }, "DiskType", "not an EBS volume type"},
	} {
		q := smallGroup("", "", "m5.xlarge")
		tc.mod(&q)
		_, err := Size(ctx, p, q)
		if es := field.As(err); len(es) != 1 || es[0].Path.String() != tc.path || !strings.Contains(es[0].Detail, tc.want) {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
	// What the EKS API and EC2 take is accepted: io2 up to 64 TiB, node.kubernetes.io labels (the kubelet allows
	// them), the same taint key with two effects, and eks.amazonaws.com labels on a Karpenter group's NodePool.
	ok := smallGroup("", "", "m5.xlarge")
	ok.DiskType, ok.DiskSizeGiB = "io2", 60000
	ok.Pool.Labels = map[string]string{"node.kubernetes.io/lifecycle": "normal"}
	ok.Pool.Taints = []fit.Taint{{Key: "dup", Value: "1", Effect: fit.EffectNoSchedule}, {Key: "dup", Value: "1", Effect: fit.EffectNoExecute}}
	if _, err := Size(ctx, p, ok); err != nil {
		t.Errorf("accepted by EKS and EC2: %v", err)
	}
	ok.Pool.Labels = map[string]string{"eks.amazonaws.com/team": "x"}
	ok.Pool.Overhead.EKS.Kind = overhead.Karpenter
	if _, err := Size(ctx, p, ok); err != nil {
		t.Errorf("a Karpenter group's label: %v", err)
	}
	big := smallGroup("", "", "m5.xlarge")
	big.MaxSize = intp(500)
	r, err := Size(ctx, p, big)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, w := range r.Warnings {
		found = found || w.Code == WarnEKSNodeQuota && w.Path.String() == "MaxSize"
	}
	if !found {
		t.Errorf("no quota warning at 500 nodes: %v", r.Warnings)
	}
}

// TestEKSLaunchTemplate: a group planned with custom kubelet settings gets the launch template that carries them
// (AL2023: a NodeConfig MIME part for nodeadm; Bottlerocket: its TOML settings), the volume moves into it and out
// of disk_size (EKS refuses both), the module output switches to its custom launch template with the same
// settings, and AL2 warns that its nodes would run EKS's defaults.
func TestEKSLaunchTemplate(t *testing.T) {
	p := sizing.NewPlanner(sizing.EmbeddedCatalog())
	ctx := context.Background()
	mem := int64(800 << 20)
	for _, prof := range []overhead.Profile{overhead.EKSAL2023, overhead.EKSBottlerocket, overhead.EKSAL2} {
		req := smallGroup(prof, "", "m5.large")
		req.Pool.Overhead.MaxPods = 20 // below the 29 EKS writes on a managed m5.large, which it would override (overhead.md §8.3.1)
		req.Pool.Overhead.KubeReserved.MemoryBytes = &mem
		req.DiskSizeGiB = 80
		r, err := Size(ctx, p, req)
		if err != nil {
			t.Fatal(err)
		}
		out, err := Render(req, r)
		if err != nil {
			t.Fatal(err)
		}
		lt := out.EKSLaunchTemplate
		if prof == overhead.EKSAL2 {
			if lt != nil || len(out.Warnings) != 1 || out.Warnings[0].Code != WarnKubeletSettingsNeedImage || out.EKS.DiskSize != 80 {
				t.Errorf("al2: launch template %+v, warnings %v", lt, out.Warnings)
			}
			continue
		}
		if lt == nil || lt.VolumeSize != 80 || out.EKS.DiskSize != 0 || !out.EKSModule.UseCustomLaunchTemplate || out.EKSModule.DiskSize != 0 {
			t.Fatalf("%s: launch template %+v, eks disk %d, module %+v", prof, lt, out.EKS.DiskSize, out.EKSModule)
		}
		data, err := base64.StdEncoding.DecodeString(lt.UserData)
		if err != nil {
			t.Fatal(err)
		}
		switch prof {
		case overhead.EKSAL2023:
			mr := multipart.NewReader(strings.NewReader(strings.SplitN(string(data), "\n\n", 2)[1]), "KUBEFIT")
			part, err := mr.NextPart()
			if err != nil || part.Header.Get("Content-Type") != "application/node.eks.aws" {
				t.Fatalf("nodeadm part: %v %v", err, part)
			}
			body, _ := io.ReadAll(part)
			var nc struct {
				APIVersion string `json:"apiVersion"`
				Kind       string `json:"kind"`
				Spec       struct {
					Kubelet struct {
						Config struct {
							MaxPods      int64             `json:"maxPods"`
							KubeReserved map[string]string `json:"kubeReserved"`
						} `json:"config"`
					} `json:"kubelet"`
				} `json:"spec"`
			}
			if err := yaml.Unmarshal([]byte(strings.TrimPrefix(strings.TrimSpace(string(body)), "---")), &nc); err != nil {
				t.Fatal(err)
			}
			if nc.APIVersion != "node.eks.aws/v1alpha1" || nc.Kind != "NodeConfig" || nc.Spec.Kubelet.Config.MaxPods != 20 || nc.Spec.Kubelet.Config.KubeReserved["memory"] != "800Mi" {
				t.Errorf("NodeConfig %+v", nc)
			}
			if len(out.EKSModule.CloudinitPreNodeadm) != 1 || out.EKSModule.CloudinitPreNodeadm[0].Content != lt.Settings {
				t.Errorf("module cloudinit %+v", out.EKSModule.CloudinitPreNodeadm)
			}
		case overhead.EKSBottlerocket:
			var s struct {
				Settings struct {
					Kubernetes struct {
						MaxPods      int64             `toml:"max-pods"`
						KubeReserved map[string]string `toml:"kube-reserved"`
					} `toml:"kubernetes"`
				} `toml:"settings"`
			}
			if _, err := toml.Decode(string(data), &s); err != nil || s.Settings.Kubernetes.MaxPods != 20 || s.Settings.Kubernetes.KubeReserved["memory"] != "800Mi" || lt.DeviceName != "/dev/xvdb" {
				t.Errorf("bottlerocket settings %+v (%v):\n%s", s, err, data)
			}
			if out.EKSModule.BootstrapExtraArgs != lt.Settings {
				t.Errorf("module bootstrap_extra_args %q", out.EKSModule.BootstrapExtraArgs)
			}
		}
	}
	plain := smallGroup("", "", "m5.large")
	r, _ := Size(ctx, p, plain)
	if out, _ := Render(plain, r); out.EKSLaunchTemplate != nil || out.EKS.DiskSize != DefaultEKSDiskGiB || out.EKSModule.UseCustomLaunchTemplate {
		t.Errorf("a group with default kubelet settings: %+v", out.EKSLaunchTemplate)
	}
}

// TestLabelDomainsByCloud: AKS and GKE set a pool's labels through the kubelet's --node-labels too, and refuse the
// kubernetes.io and k8s.io keys a node may not set on itself (AKS: "must begin with an allowed prefix
// (kubelet.kubernetes.io, node.kubernetes.io)"; GKE: "Applying kubernetes label is not allowed"); GKE also keeps
// cloud.google.com/ for itself, and AKS caps the OS disk at 2,048 GB.
func TestLabelDomainsByCloud(t *testing.T) {
	p := sizing.NewPlanner(sizing.EmbeddedCatalog())
	group := func(cloud catalog.Cloud, typ string, labels map[string]string) Request {
		return Request{Pool: sizing.Pool{Name: "g", Cloud: cloud, InstanceTypes: []string{typ}, Labels: labels},
			Workloads: []sizing.Workload{{Name: "w", Replicas: intp(2), Requests: fit.Resources{CPUMillicores: 100, MemoryBytes: 64 << 20}}}}
	}
	for _, tc := range []struct {
		cloud     catalog.Cloud
		typ       string
		key, want string // want "" when the label is accepted
	}{
		{catalog.Azure, "Standard_D4s_v5", "node-role.kubernetes.io/worker", "reserved kubernetes.io domain"},
		{catalog.Azure, "Standard_D4s_v5", "example.k8s.io/x", "reserved k8s.io domain"},
		{catalog.Azure, "Standard_D4s_v5", "kubernetes.io/role", "a prefix AKS reserves"},
		{catalog.Azure, "Standard_D4s_v5", "node.kubernetes.io/lifecycle", ""},
		{catalog.Azure, "Standard_D4s_v5", "team", ""},
		{catalog.GCP, "e2-standard-4", "node-role.kubernetes.io/worker", "reserved kubernetes.io domain"},
		{catalog.GCP, "e2-standard-4", "k8s.io/x", "reserved k8s.io domain"},
		{catalog.GCP, "e2-standard-4", "cloud.google.com/compute-class", "managed by GKE"},
		{catalog.GCP, "e2-standard-4", "example.com/team", ""},
	} {
		_, err := Size(context.Background(), p, group(tc.cloud, tc.typ, map[string]string{tc.key: "x"}))
		es := field.As(err)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s %s: %v", tc.cloud, tc.key, err)
		case tc.want != "" && (len(es) != 1 || es[0].Path.String() != `Labels["`+tc.key+`"]` || !strings.Contains(es[0].Detail, tc.want)):
			t.Errorf("%s %s: %v, want one error %q", tc.cloud, tc.key, err, tc.want)
		}
	}
	disk := group(catalog.Azure, "Standard_D4s_v5", nil)
	disk.DiskSizeGiB = 10000
	if es := field.As(func() error { _, err := Size(context.Background(), p, disk); return err }()); len(es) != 1 || es[0].Path.String() != "DiskSizeGiB" ||
		!strings.Contains(es[0].Detail, "at most 2048") {
		t.Errorf("a 10,000 GiB AKS OS disk: %v", es)
	}
}

// TestZoneNames: a group's zones are its cloud's zone names, in one region: eksctl, Karpenter's zone requirement,
// node_locations and azurerm's zones take nothing else ("1" on AWS matches no offering; "us-east-1a" is no GKE zone).
func TestZoneNames(t *testing.T) {
	p := sizing.NewPlanner(sizing.EmbeddedCatalog())
	for _, tc := range []struct {
		cloud catalog.Cloud
		typ   string
		zones []string
		bad   int // the zone at fault, -1 when accepted
		want  string
	}{
		{catalog.AWS, "m5.xlarge", []string{"us-east-1a", "us-east-1b"}, -1, ""},
		{catalog.AWS, "m5.xlarge", []string{"us-west-2-lax-1a", "us-west-2a"}, -1, ""},
		{catalog.AWS, "m5.xlarge", []string{"us-gov-west-1a"}, -1, ""},
		{catalog.AWS, "m5.xlarge", []string{"eusc-de-east-1a", "eusc-de-east-1b"}, -1, ""},
		{catalog.AWS, "m5.xlarge", []string{"1", "us-east-1b"}, 0, "not a zone name AWS uses"},
		{catalog.AWS, "m5.xlarge", []string{"us-east-1a", "eu-west-1b"}, 1, "in one region"},
		{catalog.GCP, "e2-standard-4", []string{"europe-west4-a", "europe-west4-b"}, -1, ""},
		{catalog.GCP, "e2-standard-4", []string{"us-east-1a"}, 0, "not a zone name GCP uses"},
		{catalog.GCP, "e2-standard-4", []string{"us-central1-a", "us-east1-b"}, 1, "in one region"},
		{catalog.Azure, "Standard_D4s_v5", []string{"1", "2", "3"}, -1, ""},
		{catalog.Azure, "Standard_D4s_v5", []string{"westeurope-1", "westeurope-2"}, -1, ""},
		{catalog.Azure, "Standard_D4s_v5", []string{"1", "us-east-1a"}, 1, "not a zone name Azure uses"},
		{catalog.Azure, "Standard_D4s_v5", []string{"4"}, 0, "not a zone name Azure uses"},
	} {
		req := Request{Pool: sizing.Pool{Name: "g", Cloud: tc.cloud, InstanceTypes: []string{tc.typ}, Zones: tc.zones},
			Workloads: []sizing.Workload{{Name: "w", Replicas: intp(2), Requests: fit.Resources{CPUMillicores: 100, MemoryBytes: 64 << 20}}}}
		_, err := Size(context.Background(), p, req)
		es := field.As(err)
		switch {
		case tc.bad < 0 && err != nil:
			t.Errorf("%s %q: %v", tc.cloud, tc.zones, err)
		case tc.bad >= 0 && (len(es) != 1 || es[0].Path.String() != fmt.Sprintf("Zones[%d]", tc.bad) || !strings.Contains(es[0].Detail, tc.want)):
			t.Errorf("%s %q: %v, want one error on Zones[%d] %q", tc.cloud, tc.zones, err, tc.bad, tc.want)
		}
	}
}

// TestModulesCarryUpgradeSettings: the community modules' entries carry the upgrade settings the node_upgrade
// disruption is planned with: terraform-aws-modules/eks's own default is 33 % unavailable, so its entry always names
// EKS's 1 node or the group's setting; kubernetes-engine's node_pools take max_surge and max_unavailable keys; Azure/aks
// takes the pool's upgrade_settings as they are.
func TestModulesCarryUpgradeSettings(t *testing.T) {
	p := sizing.NewPlanner(sizing.EmbeddedCatalog())
	render := func(req Request) Rendered {
		t.Helper()
		r, err := Size(context.Background(), p, req)
		if err != nil {
			t.Fatal(err)
		}
		out, err := Render(req, r)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	eks := smallGroup("", "", "m5.xlarge")
	if u := render(eks).EKSModule.UpdateConfig; u.MaxUnavailable == nil || *u.MaxUnavailable != 1 || u.MaxUnavailablePercentage != nil {
		t.Errorf("EKS module default update_config %+v, want max_unavailable 1", u)
	}
	eks.Pool.UpgradeMaxUnavailable = &fit.IntOrPercent{Value: 25, Percent: true}
	if u := render(eks).EKSModule.UpdateConfig; u.MaxUnavailablePercentage == nil || *u.MaxUnavailablePercentage != 25 || u.MaxUnavailable != nil {
		t.Errorf("EKS module update_config %+v, want max_unavailable_percentage 25", u)
	}
	gke := Request{Pool: sizing.Pool{Name: "g", Cloud: catalog.GCP, InstanceTypes: []string{"e2-standard-4"},
		UpgradeMaxSurge: &fit.IntOrPercent{Value: 2}, UpgradeMaxUnavailable: &fit.IntOrPercent{Value: 1}},
		Workloads: []sizing.Workload{{Name: "w", Replicas: intp(2), Requests: fit.Resources{CPUMillicores: 100, MemoryBytes: 64 << 20}}}}
	if m := render(gke).GKEModule.Pool; m["max_surge"] != "2" || m["max_unavailable"] != "1" {
		t.Errorf("GKE module node pool %v, want max_surge 2 and max_unavailable 1", m)
	}
	aks := aksGroup(4, false)
	aks.Pool.UpgradeMaxSurge = &fit.IntOrPercent{Value: 33, Percent: true}
	if u := render(aks).AKSModule.UpgradeSettings; u == nil || u.MaxSurge != "33%" {
		t.Errorf("AKS module upgrade_settings %+v, want max_surge 33%%", u)
	}
}

// TestGKEBootDisk: a GKE pool on a machine series that attaches no Persistent Disk gets the boot disk type
// hyperdisk-balanced (GKE refuses its default pd-balanced there, disks.md §6.1) in both shapes; a series that
// attaches pd-balanced keeps GKE's default, the module shape naming pd-balanced where the series takes no
// pd-standard (the module's own default); a series kubefit has no source for keeps the default and warns.
func TestGKEBootDisk(t *testing.T) {
	p := sizing.NewPlanner(sizing.EmbeddedCatalog())
	for _, tc := range []struct {
		machine, disk, moduleDisk string
		warn                      bool
	}{
		{"n4-standard-8", "hyperdisk-balanced", "hyperdisk-balanced", false},
		{"c4-standard-8", "hyperdisk-balanced", "hyperdisk-balanced", false},
		{"c4a-standard-8", "hyperdisk-balanced", "hyperdisk-balanced", false},
		{"n2-standard-8", "", "", false},
		{"e2-standard-8", "", "", false},
		{"c3-standard-8", "", "pd-balanced", false},
		{"g2-standard-8", "", "", true},
	} {
		req := Request{Pool: sizing.Pool{Name: "web", Cloud: catalog.GCP, InstanceTypes: []string{tc.machine}},
			Workloads: []sizing.Workload{{Name: "web", Replicas: intp(2), Requests: fit.Resources{CPUMillicores: 500, MemoryBytes: 1 << 30}}},
			MinSize:   intp(1), MaxSize: intp(5)}
		r, err := Size(context.Background(), p, req)
		if err != nil {
			t.Fatalf("%s: %v", tc.machine, err)
		}
		out, err := Render(req, r)
		if err != nil {
			t.Fatalf("%s: %v", tc.machine, err)
		}
		if out.GKE.DiskType != tc.disk || out.GKEModule.Pool["disk_type"] != tc.moduleDisk {
			t.Errorf("%s: disk_type %q, module %q; want %q, %q", tc.machine, out.GKE.DiskType, out.GKEModule.Pool["disk_type"], tc.disk, tc.moduleDisk)
		}
		warned := slices.ContainsFunc(out.Warnings, func(w field.Warning) bool { return w.Code == WarnGKEBootDiskUnchecked })
		if warned != tc.warn {
			t.Errorf("%s: boot disk warning %t, want %t (%v)", tc.machine, warned, tc.warn, out.Warnings)
		}
	}
}
