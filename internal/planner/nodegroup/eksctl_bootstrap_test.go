package nodegroup

// What a node made from eksctl_yaml runs: the entry is decoded strictly into eksctl's ClusterConfig, passed through
// eksctl's own defaulting and validation, and handed to eksctl's own bootstrapper (github.com/weaveworks/eksctl
// pkg/nodebootstrap, test-only like the rest of the module), which writes the user data of the launch template eksctl
// makes for the group. Its nodeadm NodeConfig parts are then merged the way nodeadm merges them: a later document's
// kubelet config keys win, maps merged key by key (awslabs/amazon-eks-ami nodeadm/internal/api/merge.go,
// mergeInlineDocument, and nodeadm/internal/util/merge.go, at 81fec2e895854f599974fe4d3d72f61c0a9aaffa).

import (
	"bytes"
	"encoding/base64"
	"io"
	"mime"
	"mime/multipart"
	"net/mail"
	"reflect"
	"strings"
	"testing"

	eksctlapi "github.com/weaveworks/eksctl/pkg/apis/eksctl.io/v1alpha5"
	"github.com/weaveworks/eksctl/pkg/nodebootstrap"
	"sigs.k8s.io/yaml"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/overhead"
)

// eksctlManagedEntry decodes a group's eksctl YAML strictly, runs eksctl's managed-node-group defaulting and
// validation on its one managedNodeGroups entry, and returns the entry with the user data eksctl's bootstrapper
// writes for it (decoded from base64; "" when eksctl writes none).
func eksctlManagedEntry(t *testing.T, y string) (*eksctlapi.ManagedNodeGroup, string) {
	t.Helper()
	var cfg eksctlapi.ClusterConfig
	if err := yaml.UnmarshalStrict([]byte(y), &cfg); err != nil || len(cfg.ManagedNodeGroups) != 1 {
		t.Fatalf("want one managedNodeGroups entry (%v):\n%s", err, y)
	}
	ng := cfg.ManagedNodeGroups[0]
	meta := &eksctlapi.ClusterMeta{Name: "kubefit", Region: "us-east-1", Version: eksctlapi.DefaultVersion}
	if err := eksctlapi.SetManagedNodeGroupDefaults(ng, meta, false); err != nil {
		t.Fatalf("eksctl defaulting: %v", err)
	}
	if err := eksctlapi.ValidateManagedNodeGroup(0, ng); err != nil {
		t.Fatalf("eksctl rejects the entry: %v\n%s", err, y)
	}
	cluster := &eksctlapi.ClusterConfig{Metadata: meta, Status: &eksctlapi.ClusterStatus{
		KubernetesNetworkConfig: &eksctlapi.KubernetesNetworkConfig{ServiceIPv4CIDR: "10.100.0.0/16"}}}
	b, err := nodebootstrap.NewManagedBootstrapper(cluster, ng)
	if err != nil || b == nil {
		t.Fatalf("eksctl has no bootstrapper for the entry (%v):\n%s", err, y)
	}
	ud, err := b.UserData()
	if err != nil {
		t.Fatalf("eksctl's user data: %v\n%s", err, y)
	}
	data, err := base64.StdEncoding.DecodeString(ud)
	if err != nil {
		t.Fatal(err)
	}
	return ng, string(data)
}

// nodeadmKubelet merges the kubelet config of the user data's nodeadm NodeConfig parts, in order, as nodeadm does.
func nodeadmKubelet(t *testing.T, userData string) map[string]any {
	t.Helper()
	msg, err := mail.ReadMessage(strings.NewReader(userData))
	if err != nil {
		t.Fatalf("user data is no MIME message: %v\n%s", err, userData)
	}
	_, params, err := mime.ParseMediaType(msg.Header.Get("Content-Type"))
	if err != nil {
		t.Fatal(err)
	}
	merged := map[string]any{}
	mr := multipart.NewReader(msg.Body, params["boundary"])
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if part.Header.Get("Content-Type") != "application/node.eks.aws" {
			continue
		}
		var body bytes.Buffer
		if _, err := body.ReadFrom(part); err != nil {
			t.Fatal(err)
		}
		var nc struct {
			Kind string `json:"kind"`
			Spec struct {
				Kubelet struct {
					Config map[string]any `json:"config"`
				} `json:"kubelet"`
			} `json:"spec"`
		}
		if err := yaml.Unmarshal(body.Bytes(), &nc); err != nil || nc.Kind != "NodeConfig" {
			t.Fatalf("not a NodeConfig part (%v):\n%s", err, body.String())
		}
		mergeInto(merged, nc.Spec.Kubelet.Config)
	}
	return merged
}

func mergeInto(dst, src map[string]any) {
	for k, v := range src {
		if sm, ok := v.(map[string]any); ok {
			if dm, ok := dst[k].(map[string]any); ok {
				mergeInto(dm, sm)
				continue
			}
		}
		dst[k] = v
	}
}

// TestEksctlManagedAL2023RunsPlannedKubelet: a managed AL2023 group planned with its own max pods, reservations and
// hard-eviction thresholds gets an eksctl entry whose nodes run exactly kubelet_config_yaml's settings (the
// launch template's NodeConfig too): eksctl accepts the entry and its user data, merged as nodeadm merges it, is
// that configuration, with max pods set once. Before, the entry carried max pods only.
func TestEksctlManagedAL2023RunsPlannedKubelet(t *testing.T) {
	cpu, mem, sysMem := int64(150), int64(500<<20), int64(300<<20)
	for name, mod := range map[string]func(*Request){
		"all settings": func(r *Request) {
			r.Pool.Overhead.MaxPods = 58
			r.Pool.Overhead.KubeReserved = overhead.Reservation{CPUMillicores: &cpu, MemoryBytes: &mem}
			r.Pool.Overhead.SystemReserved = overhead.Reservation{MemoryBytes: &sysMem}
			r.Pool.Overhead.EvictionHard = map[string]overhead.Threshold{"memory.available": {Bytes: 200 << 20}, "nodefs.available": {PercentBP: 800, IsPercent: true}}
		},
		"reservation only": func(r *Request) { r.Pool.Overhead.KubeReserved = overhead.Reservation{MemoryBytes: &mem} },
		"eviction only, spot": func(r *Request) {
			r.Pool.Overhead.EvictionHard = map[string]overhead.Threshold{"memory.available": {Bytes: 300 << 20}}
			r.CapacityType = Spot
		},
	} {
		t.Run(name, func(t *testing.T) {
			req := phpGroup(nil)
			req.Pool.Overhead.Profile = overhead.EKSAL2023
			mod(&req)
			r, out := renderAWS(t, req)
			var want map[string]any
			if err := yaml.Unmarshal([]byte(out.KubeletConfigYAML), &want); err != nil {
				t.Fatal(err)
			}
			delete(want, "apiVersion")
			delete(want, "kind")
			if kr, _ := want["kubeReserved"].(map[string]any); name != "eviction only, spot" && len(kr) == 0 {
				t.Fatalf("the case plans no kube-reserved:\n%s", out.KubeletConfigYAML)
			}
			ng, userData := eksctlManagedEntry(t, out.EksctlYAML)
			if int64(ng.MaxPodsPerNode) != r.MaxPods {
				t.Errorf("maxPodsPerNode %d, want %d", ng.MaxPodsPerNode, r.MaxPods)
			}
			if ng.OverrideBootstrapCommand == nil || strings.Contains(*ng.OverrideBootstrapCommand, "maxPods") {
				t.Errorf("want the reservations and eviction thresholds in overrideBootstrapCommand, max pods only in maxPodsPerNode:\n%s", out.EksctlYAML)
			}
			got := nodeadmKubelet(t, userData)
			if !reflect.DeepEqual(jsonish(t, got), jsonish(t, want)) {
				t.Errorf("eksctl's nodes run kubelet config\n%v\nwant the planned\n%v\nentry:\n%s", got, want, out.EksctlYAML)
			}
			if lt := out.EKSLaunchTemplate; lt == nil {
				t.Errorf("no launch template")
			} else {
				var nc struct {
					Spec struct {
						Kubelet struct {
							Config map[string]any `json:"config"`
						} `json:"kubelet"`
					} `json:"spec"`
				}
				if err := yaml.Unmarshal([]byte(lt.Settings), &nc); err != nil || !reflect.DeepEqual(jsonish(t, nc.Spec.Kubelet.Config), jsonish(t, got)) {
					t.Errorf("the launch template's NodeConfig %v (%v) differs from eksctl's %v", nc.Spec.Kubelet.Config, err, got)
				}
			}
		})
	}
	// Without custom settings the entry carries max pods only, as before.
	_, out := renderAWS(t, phpGroup(nil))
	ng, _ := eksctlManagedEntry(t, out.EksctlYAML)
	if ng.OverrideBootstrapCommand != nil {
		t.Errorf("an overrideBootstrapCommand without custom settings:\n%s", out.EksctlYAML)
	}
}

// jsonish normalises a decoded YAML value (numbers as float64) for comparison.
func jsonish(t *testing.T, v any) any {
	t.Helper()
	b, err := yaml.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := yaml.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestKubeletNeedsImageSaysWhichShapeRunsWhat: a managed AL2 or Windows group's reservations and eviction
// thresholds reach its nodes through no consumer shape without a custom AMI (checked against eksctl's own user data:
// no kubelet configuration), and the warning says so, naming the settings set; max pods alone are not its concern (EKS
// writes its own into a managed group's user data, and the overhead model plans the safe side, overhead.md §8.3.1).
func TestKubeletNeedsImageSaysWhichShapeRunsWhat(t *testing.T) {
	mem := int64(600 << 20)
	maxPods := func(r *Request) { r.Pool.Overhead.MaxPods = 20 }
	reserved := func(r *Request) { r.Pool.Overhead.KubeReserved = overhead.Reservation{MemoryBytes: &mem} }
	eviction := func(r *Request) {
		r.Pool.Overhead.EvictionHard = map[string]overhead.Threshold{"memory.available": {Bytes: 300 << 20}}
	}
	for _, c := range []struct {
		name     string
		profile  overhead.Profile
		mods     []func(*Request)
		settings []string // named as planned; none: no warning
	}{
		{"al2 max pods only", overhead.EKSAL2, []func(*Request){maxPods}, nil},
		{"al2 max pods and reservation", overhead.EKSAL2, []func(*Request){maxPods, reserved}, []string{"kube-reserved"}},
		{"al2 eviction only", overhead.EKSAL2, []func(*Request){eviction}, []string{"hard-eviction"}},
		{"windows max pods", overhead.EKSWindows, []func(*Request){maxPods}, nil},
		{"windows reservation", overhead.EKSWindows, []func(*Request){reserved}, []string{"kube-reserved"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			req := smallGroup(c.profile, "1.31", "m5.xlarge")
			if c.profile == overhead.EKSWindows {
				req.Workloads[0].NodeSelector = map[string]string{"kubernetes.io/os": "windows"}
			}
			for _, m := range c.mods {
				m(&req)
			}
			_, out := renderAWS(t, req)
			var msg string
			for _, w := range out.Warnings {
				if w.Code == WarnKubeletSettingsNeedImage {
					msg = w.Message
				}
			}
			if (msg == "") != (len(c.settings) == 0) {
				t.Fatalf("warning %q, want one naming %v", msg, c.settings)
			}
			if msg == "" {
				return
			}
			for _, s := range c.settings {
				if !strings.Contains(msg, s) {
					t.Errorf("the warning does not name %q: %s", s, msg)
				}
			}
			if strings.Contains(msg, "max pods 20") {
				t.Errorf("the warning names max pods, which EKS sets on a managed group whatever the user data: %s", msg)
			}
			for _, want := range []string{"EKS API", "terraform-aws-eks", "eksctl entry", "runs none of them", "does not hold"} {
				if !strings.Contains(msg, want) {
					t.Errorf("the warning lacks %q: %s", want, msg)
				}
			}
			// eksctl's own user data for the entry: no kubelet configuration reaches its nodes.
			_, userData := eksctlManagedEntry(t, out.EksctlYAML)
			if strings.Contains(userData, "kube-reserved") || strings.Contains(userData, "kubeReserved") || strings.Contains(userData, "eviction") {
				t.Errorf("eksctl's user data carries kubelet settings the warning says it does not run:\n%s", userData)
			}
			for _, attr := range []string{"eks_launch_template", "eksctl_yaml", "max_pods", "kube_reserved", "eviction_hard", "aws_eks_node_group"} {
				if strings.Contains(msg, attr) {
					t.Errorf("a Terraform attribute name %q in the planner's warning: %s", attr, msg)
				}
			}
		})
	}
	// A self-managed Windows group whose only custom setting is max pods: eksctl's entry passes --max-pods, so the
	// plan holds and nothing warns; with a reservation it warns that the eksctl entry runs max pods only.
	for _, withReservation := range []bool{false, true} {
		req := smallGroup(overhead.EKSWindows, "1.31", "m5.xlarge")
		req.Workloads[0].NodeSelector = map[string]string{"kubernetes.io/os": "windows"}
		req.Pool.Overhead.EKS.Kind = overhead.SelfManaged
		maxPods(&req)
		if withReservation {
			reserved(&req)
		}
		_, out := renderAWS(t, req)
		warned := false
		for _, w := range out.Warnings {
			if w.Code == WarnKubeletSettingsNeedImage {
				warned = true
				if !strings.Contains(w.Message, "only max pods") || !strings.Contains(w.Message, "does not hold") {
					t.Errorf("self-managed Windows: %s", w.Message)
				}
			}
		}
		if warned != withReservation {
			t.Errorf("self-managed Windows with a reservation %v: warned %v (%+v)", withReservation, warned, out.Warnings)
		}
	}
}

// TestEksctlSelfManagedAL2023RunsPlannedKubelet: a self-managed AL2023 group's nodeGroups entry, through eksctl's own
// bootstrapper, gives nodes whose merged kubelet config holds kubelet_config_yaml's settings (eksctl adds
// clusterDNS): kubeletExtraConfig goes into eksctl's own NodeConfig, maxPodsPerNode into a later part
// (eksctl-io/eksctl pkg/nodebootstrap/al2023.go createMinimalNodeConfig and L62-75, at
// 99984adb6164ece593c0728523b7f497ea61d60e).
func TestEksctlSelfManagedAL2023RunsPlannedKubelet(t *testing.T) {
	req := reservedGroup()
	req.Pool.Overhead.Profile, req.Pool.Overhead.EKS.Kind = overhead.EKSAL2023, overhead.SelfManaged
	_, out := renderAWS(t, req)
	var cfg eksctlapi.ClusterConfig
	if err := yaml.UnmarshalStrict([]byte(out.EksctlYAML), &cfg); err != nil || len(cfg.NodeGroups) != 1 {
		t.Fatalf("want one nodeGroups entry (%v):\n%s", err, out.EksctlYAML)
	}
	ng := cfg.NodeGroups[0]
	meta := &eksctlapi.ClusterMeta{Name: "kubefit", Region: "us-east-1", Version: eksctlapi.DefaultVersion}
	if err := eksctlapi.SetNodeGroupDefaults(ng, meta, false); err != nil {
		t.Fatal(err)
	}
	cluster := &eksctlapi.ClusterConfig{Metadata: meta, Status: &eksctlapi.ClusterStatus{Endpoint: "https://example.com",
		KubernetesNetworkConfig: &eksctlapi.KubernetesNetworkConfig{ServiceIPv4CIDR: "10.100.0.0/16"}}}
	b, err := nodebootstrap.NewBootstrapper(cluster, ng)
	if err != nil {
		t.Fatal(err)
	}
	ud, err := b.UserData()
	if err != nil {
		t.Fatal(err)
	}
	data, err := base64.StdEncoding.DecodeString(ud)
	if err != nil {
		t.Fatal(err)
	}
	got := nodeadmKubelet(t, string(data))
	delete(got, "clusterDNS")
	var want map[string]any
	if err := yaml.Unmarshal([]byte(out.KubeletConfigYAML), &want); err != nil {
		t.Fatal(err)
	}
	delete(want, "apiVersion")
	delete(want, "kind")
	if !reflect.DeepEqual(jsonish(t, got), jsonish(t, want)) {
		t.Errorf("eksctl's self-managed nodes run kubelet config\n%v\nwant the planned\n%v\nentry:\n%s", got, want, out.EksctlYAML)
	}
}
