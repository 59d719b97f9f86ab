package nodegroup

import (
	"strconv"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
)

// Name rules of the consumers that take a group's name:
//   - EKS (aws_eks_node_group's node_group_name, eksctl's managedNodeGroups name, the terraform-aws-modules/eks
//     key): the EKS API's nodegroupName, 1 to 63 characters, a letter or digit first, then letters, digits,
//     hyphens and underscores (aws-sdk-go-v2 service/eks CreateNodegroupInput; CloudFormation
//     AWS::EKS::Nodegroup NodegroupName).
//   - GKE (google_container_node_pool's name, the kubernetes-engine module's node_pools name): "Node pool names
//     must start with a lowercase letter followed by up to 39 lowercase letters, numbers, or hyphens, and can't
//     end with a hyphen" (the GKE API refuses others).
//   - AKS: azurerm's pool name is lower-case letters and digits, a letter first, at most 12 (6 on Windows);
//     kubefit makes the group's name fit (aks_module_node_pool, temporary_name_for_rotation) with a warning, so
//     it refuses only a name that cannot be made to fit: one that does not start with a letter, or holds
//     characters other than letters, digits, hyphens and underscores.
const (
	eksNameMax = 63
	gkeNameMax = 40
)

// nameErrors checks the group's name against its consumers' rules, on Name.
func nameErrors(req Request) field.Errors {
	name := req.Pool.Name
	bad := func(format string, args ...any) field.Errors {
		return field.Errors{field.Invalid(field.NewPath("Name"), name, format, args...)}
	}
	if name == "" {
		return bad("the node group's name is empty; give it a name")
	}
	q := strconv.Quote(name)
	letter := func(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
	digit := func(c byte) bool { return c >= '0' && c <= '9' }
	lower := func(c byte) bool { return c >= 'a' && c <= 'z' }
	only := func(ok func(byte) bool) bool {
		for i := 0; i < len(name); i++ {
			if !ok(name[i]) {
				return false
			}
		}
		return true
	}
	switch req.Pool.Cloud {
	case catalog.AWS:
		if len(name) > eksNameMax || !(letter(name[0]) || digit(name[0])) ||
			!only(func(c byte) bool { return letter(c) || digit(c) || c == '-' || c == '_' }) {
			return bad("node group name %s is not one EKS takes: an EKS node group name has 1 to %d characters, a letter or digit first, then letters, digits, hyphens and underscores", q, eksNameMax)
		}
	case catalog.GCP:
		if len(name) > gkeNameMax || !lower(name[0]) || name[len(name)-1] == '-' ||
			!only(func(c byte) bool { return lower(c) || digit(c) || c == '-' }) {
			return bad("node group name %s is not one GKE takes: a GKE node pool name starts with a lower-case letter, followed by up to %d lower-case letters, digits or hyphens, and does not end with a hyphen", q, gkeNameMax-1)
		}
	case catalog.Azure:
		if len(name) > eksNameMax || !letter(name[0]) ||
			!only(func(c byte) bool { return letter(c) || digit(c) || c == '-' || c == '_' }) {
			return bad("node group name %s cannot be made an AKS pool name: AKS pool names are lower-case letters and digits, a letter first (kubefit drops hyphens and underscores and lowers the case, with a warning); give a name of up to %d letters, digits, hyphens and underscores that starts with a letter", q, eksNameMax)
		}
	}
	return nil
}
