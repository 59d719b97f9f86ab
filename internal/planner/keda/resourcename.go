package keda

import (
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
)

// resourceNameProblem says why k is not a resource name a container may request, or "" when it is, by the
// API server's rule for container resources (ValidateContainerResourceName): a qualified name that is
// cpu, memory, ephemeral-storage or hugepages-<size>, or, with a domain other than kubernetes.io, an
// extended resource (nvidia.com/gpu).
func resourceNameProblem(k string) string {
	const take = "container requests and limits take cpu, memory, ephemeral-storage, hugepages-<size> or an extended resource with its domain (nvidia.com/gpu)"
	if errs := validation.IsQualifiedName(k); len(errs) > 0 {
		return fmt.Sprintf("%s is not a Kubernetes resource name (%s); %s", field.Quote(k), errs[0], take)
	}
	domain, _, qualified := strings.Cut(k, "/")
	if qualified && domain != "kubernetes.io" && !strings.HasSuffix(domain, ".kubernetes.io") {
		return ""
	}
	switch {
	case k == "cpu" || k == "memory" || k == "ephemeral-storage":
		return ""
	case strings.HasPrefix(k, "hugepages-"):
		if _, err := resource.ParseQuantity(strings.TrimPrefix(k, "hugepages-")); err == nil {
			return ""
		}
		return fmt.Sprintf("%s is not a huge page resource: give its page size, such as hugepages-2Mi", field.Quote(k))
	}
	hint := ""
	for _, std := range []string{"cpu", "memory", "ephemeral-storage"} {
		if strings.EqualFold(k, std) || strings.EqualFold(strings.TrimSuffix(k, "s"), std) {
			hint = "; did you mean " + std + "?"
		}
	}
	if hint == "" && strings.EqualFold(strings.TrimSuffix(k, "s"), "gpu") {
		hint = "; a GPU is an extended resource: nvidia.com/gpu or amd.com/gpu"
	}
	return fmt.Sprintf("%s is not a Kubernetes resource name: %s%s", field.Quote(k), take, hint)
}
