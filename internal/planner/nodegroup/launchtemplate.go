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

// WarnKubeletSettingsNeedImage: an AL2 or Windows node group planned with custom kubelet settings that some of its
// consumer shapes do not run without a custom AMI's bootstrap (kubeletNeedsImage says which run which).
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
	return o.MaxPods > 0 || o.EKS.MaxPodsExpressionResult > 0 || len(o.EvictionHard) > 0
}

// eksLaunchTemplate renders the launch template of an AWS group with custom kubelet settings; nil when the group
// has none. A managed group's AL2 and Windows nodes read such settings only from a custom AMI's bootstrap, which
// kubefit cannot write: they get a warning instead (kubeletNeedsImage).
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
		nc, err := nodeadmConfig(cfg)
		if err != nil {
			return nil, nil, err
		}
		const boundary = "KUBEFIT"
		mime := "MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=\"" + boundary + "\"\n\n--" + boundary +
			"\nContent-Type: application/node.eks.aws\n\n---\n" + nc + "\n--" + boundary + "--\n"
		lt.UserDataFormat, lt.Settings, lt.UserData = "nodeadm", nc, base64.StdEncoding.EncodeToString([]byte(mime))
	default:
		return nil, kubeletNeedsImage(req, r), nil
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

// nodeadmConfig is a node.eks.aws/v1alpha1 NodeConfig whose spec.kubelet.config is cfg, as YAML: the document AL2023's
// nodeadm merges over the NodeConfig EKS (or eksctl) writes, key by key, a later document's keys winning
// (awslabs/amazon-eks-ami nodeadm/internal/api/merge.go, MergeNodeConfigs and mergeInlineDocument, at
// 81fec2e895854f599974fe4d3d72f61c0a9aaffa).
func nodeadmConfig(cfg map[string]any) (string, error) {
	nc, err := yaml.Marshal(map[string]any{"apiVersion": "node.eks.aws/v1alpha1", "kind": "NodeConfig",
		"spec": map[string]any{"kubelet": map[string]any{"config": cfg}}})
	return string(nc), err
}

// kubeletNeedsImage warns about an AL2 or Windows group planned with custom kubelet settings, saying which consumer
// shape runs which of them (eksctl-io/eksctl at 99984adb6164ece593c0728523b7f497ea61d60e):
//   - a managed group runs none of the reservations and eviction thresholds, whether made through the EKS API
//     (aws_eks_node_group), the terraform-aws-eks module or eksctl: EKS's AL2 and Windows images take no NodeConfig,
//     kubefit writes them no launch template, and eksctl's managed entry takes no kubeletExtraConfig (its managed AL2
//     user data is a script that only adds --max-pods, pkg/nodebootstrap/managed_al2.go L50-51, makeMaxPodsScript
//     L90-94; a managed Windows entry's holds only preBootstrapCommands, pkg/nodebootstrap/windows_managed.go). Max
//     pods are no concern here: EKS writes its own into a managed group's user data over any other (overhead.md
//     §8.3.1), and the overhead model plans the safe side of the two with its own warning;
//   - eksctl's self-managed Windows entry runs max pods only, as --max-pods in the bootstrap script's
//     KubeletExtraArgs (pkg/nodebootstrap/windows.go makeKubeletOptions L115-120); eksctl refuses kubeletExtraConfig
//     on Windows (validation.go L1140-1143).
//
// A self-managed AL2 group warns of nothing: its eksctl entry's kubeletExtraConfig carries every setting. Nor does
// a self-managed Windows group whose only custom setting is max pods.
func kubeletNeedsImage(req Request, r *Result) []field.Warning {
	o, profile := req.Pool.Overhead, r.Pool.Overhead.Profile
	var set []string
	var at field.Path // the first setting named
	for _, s := range []struct {
		name, path string
		res        overhead.Reservation
	}{{"kube-reserved", "KubeReserved", o.KubeReserved}, {"system-reserved", "SystemReserved", o.SystemReserved}} {
		if s.res.CPUMillicores != nil || s.res.MemoryBytes != nil || s.res.EphemeralStorageBytes != nil {
			if len(set) == 0 {
				at = field.NewPath(s.path)
			}
			set = append(set, s.name)
		}
	}
	if len(o.EvictionHard) > 0 {
		if len(set) == 0 {
			at = field.NewPath("EvictionHard")
		}
		set = append(set, "hard-eviction thresholds")
	}
	const use = " Use the eks-al2023 or eks-bottlerocket profile, whose settings kubefit's launch template and eksctl entry carry."
	switch {
	case len(set) == 0:
		return nil // max pods alone: the overhead model's concern on a managed group, --max-pods on a self-managed one
	case o.EKS.Kind == overhead.SelfManaged && profile == overhead.EKSAL2:
		return nil // kubeletExtraConfig carries them (bootstrap.sh's --kubelet-extra-args)
	}
	planned := fmt.Sprintf("node group %q on %s was planned with custom kubelet settings (%s)", req.Pool.Name, profile, strings.Join(set, ", "))
	msg := planned + ". A managed node group runs none of them without a custom AMI's bootstrap, whether made through the EKS API, the terraform-aws-eks module or the eksctl entry (this image takes no NodeConfig, and eksctl passes a managed group no kubelet configuration): its nodes run EKS's defaults and the plan does not hold for them."
	if o.EKS.Kind == overhead.SelfManaged {
		msg = planned + ". The eksctl entry of a self-managed group runs only max pods (eksctl passes --max-pods to the node's bootstrap); " +
			"the reservations and eviction thresholds reach such nodes only from a custom AMI's bootstrap, so for the eksctl entry's nodes the plan does not hold."
	}
	return []field.Warning{{Code: WarnKubeletSettingsNeedImage, Path: at, Message: msg + use}}
}
