package burst_test

import (
	"testing"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/burst"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
)

// TestAgreesWithCatalog cross-checks the burst tables with the instance catalog: every budget names a
// catalog type with the same vCPU count (where the catalog has one) that the catalog marks burstable (AWS, Azure) or shared-core
// (GCP), and every type the catalog marks so has a budget.
func TestAgreesWithCatalog(t *testing.T) {
	for _, cloud := range catalog.Clouds {
		for _, name := range burst.Names(cloud) {
			b, _ := burst.Lookup(cloud, name)
			it, err := catalog.Lookup(cloud, name)
			if err != nil {
				t.Errorf("%s/%s: %v", cloud, name, err)
				continue
			}
			// A zero catalog vCPU means unknown (catalog.InstanceType); f1-micro and g1-small have none there.
			if (it.VCPU != 0 && it.VCPU != b.VCPU) || it.Name != b.InstanceType {
				t.Errorf("%s/%s: catalog %s with %d vCPU, budget %d vCPU", cloud, name, it.Name, it.VCPU, b.VCPU)
			}
			if flag := it.Burstable || it.SharedCore; !flag {
				t.Errorf("%s/%s: catalog does not mark it burstable or shared-core", cloud, name)
			}
		}
		for _, it := range catalog.All(cloud) {
			if _, ok := burst.Lookup(cloud, it.Name); (it.Burstable || it.SharedCore) && !ok {
				t.Errorf("%s/%s: catalog marks it burstable (%v) or shared-core (%v) but it has no budget", cloud, it.Name,
					it.Burstable, it.SharedCore)
			}
		}
	}
}
