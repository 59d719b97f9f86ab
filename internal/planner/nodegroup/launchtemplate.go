package nodegroup

import (
	"encoding/base64"
	"fmt"
	"maps"
	"slices"
	"strings"

	"sigs.k8s.io/yaml"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/overhead"
)

// EKSLaunchTemplate is the launch template an EKS managed node group needs to run the kubelet settings kubefit
// planned with (a set max pods, reservations or eviction thresholds): without one a managed group's nodes run
// EKS's defaults. It holds the root (AL2023) or data (Bottlerocket) volume, since a managed group may not set
// disk_size together with a launch template (the EKS API fails the deployment), and the user data in the form
// the image reads: a NodeConfig MIME part for AL2023's nodeadm (node.eks.aws/v1alpha1, merged with the one EKS
// writes), or Bottlerocket's TOML settings.
type EKSLaunchTemplate struct {
	DeviceName string
	VolumeSize int
	VolumeType string
	// UserData is base64, as aws_launch_template's user_data takes it; UserDataFormat names the format
	// ("nodeadm" or "bottlerocket"); Settings is the same settings as plain text (the NodeConfig YAML, or the
	// Bottlerocket TOML), which terraform-aws-modules/eks takes as cloudinit_pre_nodeadm or bootstrap_extra_args.
	UserData, UserDataFormat, Settings string
}

// WarnKubeletSettingsNeedImage: an AL2 or Windows managed node group planned with custom kubelet settings, which
// reach such nodes only through a custom AMI's bootstrap.
const WarnKubeletSettingsNeedImage = "nodegroup.kubelet-settings-need-custom-ami"

// customKubelet reports whether the group sets kubelet settings an EKS managed node group does not apply by
// default: max pods, reservations or hard-eviction thresholds.
func customKubelet(req Request) bool {
	o := req.Pool.Overhead
	for _, v := range []*int64{o.KubeReserved.CPUMillicores, o.KubeReserved.MemoryBytes, o.KubeReserved.EphemeralStorageBytes,
		o.SystemReserved.CPUMillicores, o.SystemReserved.MemoryBytes, o.SystemReserved.EphemeralStorageBytes} {
		if v != nil {
			return true
		}
	}
	return o.MaxPods > 0 || len(o.EvictionHard) > 0
}

// eksLaunchTemplate renders the launch template of an AWS group with custom kubelet settings; nil when the group
// has none. AL2 and Windows nodes read such settings only from a custom AMI's bootstrap, which kubefit cannot
// write: they get a warning instead.
func eksLaunchTemplate(req Request, r *Result, kubelet string) (*EKSLaunchTemplate, []field.Warning, error) {
	if !customKubelet(req) {
		return nil, nil, nil
	}
	lt := &EKSLaunchTemplate{DeviceName: "/dev/xvda", VolumeSize: diskGiB(req, DefaultEKSDiskGiB), VolumeType: req.DiskType}
	if lt.VolumeType == "" {
		lt.VolumeType = "gp3"
	}
	switch r.Pool.Overhead.Profile {
	case overhead.EKSBottlerocket:
		lt.DeviceName, lt.UserDataFormat = "/dev/xvdb", "bottlerocket" // Bottlerocket's data volume holds images and pods
		lt.Settings = bottlerocketSettings(r)
		lt.UserData = base64.StdEncoding.EncodeToString([]byte(lt.Settings))
	case overhead.EKSAL2023:
		var cfg map[string]any
		if err := yaml.Unmarshal([]byte(kubelet), &cfg); err != nil {
			return nil, nil, err
		}
		delete(cfg, "apiVersion")
		delete(cfg, "kind")
		nc, err := yaml.Marshal(map[string]any{"apiVersion": "node.eks.aws/v1alpha1", "kind": "NodeConfig",
			"spec": map[string]any{"kubelet": map[string]any{"config": cfg}}})
		if err != nil {
			return nil, nil, err
		}
		const boundary = "KUBEFIT"
		mime := "MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=\"" + boundary + "\"\n\n--" + boundary +
			"\nContent-Type: application/node.eks.aws\n\n---\n" + string(nc) + "\n--" + boundary + "--\n"
		lt.UserDataFormat, lt.Settings, lt.UserData = "nodeadm", string(nc), base64.StdEncoding.EncodeToString([]byte(mime))
	default:
		group := "an EKS managed node group"
		if req.Pool.Overhead.EKS.Kind == overhead.SelfManaged {
			if r.Pool.Overhead.Profile == overhead.EKSAL2 {
				return nil, nil, nil // eksctl_yaml's kubeletExtraConfig carries them (bootstrap.sh's --kubelet-extra-args otherwise)
			}
			group = "a self-managed node group"
		}
		return nil, []field.Warning{{Code: WarnKubeletSettingsNeedImage, Path: field.NewPath("MaxPods"), Message: fmt.Sprintf(
			"node group %q was planned with custom kubelet settings (max pods, reservations or eviction thresholds), which the nodes of %s on %s run only from a custom AMI's bootstrap: without one they run EKS's defaults and the plan does not hold; use the eks-al2023 or eks-bottlerocket profile, whose settings eks_launch_template carries",
			req.Pool.Name, group, r.Pool.Overhead.Profile)}}, nil
	}
	return lt, nil, nil
}

// bottlerocketSettings is the TOML of Bottlerocket's settings.kubernetes for the group's kubelet settings.
func bottlerocketSettings(r *Result) string {
	o := r.Pool.Overhead
	var b strings.Builder
	fmt.Fprintf(&b, "[settings.kubernetes]\nmax-pods = %d\n", o.MaxPods)
	table := func(name string, m map[string]string) {
		if len(m) == 0 {
			return
		}
		fmt.Fprintf(&b, "\n[settings.kubernetes.%s]\n", name)
		for _, k := range slices.Sorted(maps.Keys(m)) {
			fmt.Fprintf(&b, "%q = %q\n", k, m[k])
		}
	}
	table("kube-reserved", quantities(o.KubeReserved))
	table("system-reserved", quantities(o.SystemReserved))
	table("eviction-hard", fullEvictionHard(o.EvictionHard))
	return b.String()
}
