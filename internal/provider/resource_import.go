package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/resource"
)

// The resources are plan-only: their values are computed at plan from the configuration and nothing remote holds
// them, so there is nothing to import. Each refuses `terraform import` (and import blocks) saying so, instead of the
// framework's generic "Resource Import Not Implemented".
var (
	_ resource.ResourceWithImportState = (*capacityCheckResource)(nil)
	_ resource.ResourceWithImportState = (*hpaResource)(nil)
	_ resource.ResourceWithImportState = (*kedaScaledObjectResource)(nil)
	_ resource.ResourceWithImportState = (*nodeGroupResource)(nil)
	_ resource.ResourceWithImportState = (*storageClassResource)(nil)
)

// refuseImport is every resource's ImportState.
func refuseImport(typeName string, resp *resource.ImportStateResponse) {
	resp.Diagnostics.AddError("Nothing to Import", fmt.Sprintf("%s is plan-only: kubefit computes its values at plan from the "+
		"configuration and creates nothing remote, so there is nothing to import. Declare it in the configuration and "+
		"apply: applying stores the computed values.", typeName))
}

func (r *capacityCheckResource) ImportState(_ context.Context, _ resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	refuseImport("kubefit_capacity_check", resp)
}

func (r *hpaResource) ImportState(_ context.Context, _ resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	refuseImport("kubefit_horizontal_pod_autoscaler", resp)
}

func (r *kedaScaledObjectResource) ImportState(_ context.Context, _ resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	refuseImport("kubefit_keda_scaled_object", resp)
}

func (r *nodeGroupResource) ImportState(_ context.Context, _ resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	refuseImport("kubefit_node_group", resp)
}

func (r *storageClassResource) ImportState(_ context.Context, _ resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	refuseImport("kubefit_storage_class", resp)
}
