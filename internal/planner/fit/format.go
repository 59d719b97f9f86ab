package fit

import "github.com/kubefit/terraform-provider-kubefit/internal/planner/resource"

// FormatCPU formats millicores for messages and reports: "1,580m" (resource.HumanCPU).
func FormatCPU(millicores int64) string { return resource.HumanCPU(millicores) }

// FormatBytes formats a byte count for messages and reports: "1,669 MiB", "15.3 GiB" (resource.HumanBytes).
func FormatBytes(b int64) string { return resource.HumanBytes(b) }

// FormatCount formats a count with thousands separators: "1,024" (resource.Group).
func FormatCount(n int64) string { return resource.Group(n) }

// formatAmount formats an amount of one resource with its unit and name, for example "1,580m CPU",
// "1,669 MiB memory", "3 pod slots" or "1 GPU".
func formatAmount(res Resource, v int64) string { return resource.Human(res, v) }

// resourceWords names the resources in messages, in vector order.
var resourceWords = [nRes]string{"CPU", "memory", "ephemeral storage", "pod slots", "GPUs", "volume attachments"}

// formatValue formats an amount of one resource with its unit but without its name ("1,580m",
// "1,669 MiB", "3").
func formatValue(res Resource, v int64) string {
	switch res {
	case ResourceCPU:
		return FormatCPU(v)
	case ResourceMemory, ResourceEphemeralStorage:
		return FormatBytes(v)
	}
	return FormatCount(v)
}
