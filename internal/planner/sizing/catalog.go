package sizing

import (
	"context"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/burst"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
)

// Catalog is where the planner finds instance types and their CPU credit budgets. The planner never
// reads a table behind its caller's back: every lookup goes through the Catalog it is given.
//
// Implementations must be safe for concurrent use and deterministic for the life of one value (the same
// question gets the same answer), and must honour ctx for any I/O. EmbeddedCatalog is the default; a live
// implementation may call cloud APIs and fall back to the embedded data.
type Catalog interface {
	// InstanceType returns the named type of cloud. A name the catalog does not know gives a
	// *catalog.NotFoundError carrying the closest names; other errors mean the lookup itself failed.
	InstanceType(ctx context.Context, cloud catalog.Cloud, name string) (catalog.InstanceType, error)
	// InstanceTypes returns every type of cloud the catalog knows, sorted by name; the slice is the
	// caller's.
	InstanceTypes(ctx context.Context, cloud catalog.Cloud) ([]catalog.InstanceType, error)
	// CreditBudget returns the CPU burst budget of a type. ok is false when the catalog has no budget on
	// record for it, which the planner treats as a fixed-performance type.
	CreditBudget(ctx context.Context, cloud catalog.Cloud, name string) (b burst.Budget, ok bool, err error)
	// Date is the date of the catalog's data, YYYY-MM-DD.
	Date() string
	// Sources is a one-line attribution of cloud's data.
	Sources(cloud catalog.Cloud) string
}

// embedded is the catalog compiled into the binary: catalog's tables and burst's budget tables.
type embedded struct{}

// EmbeddedCatalog returns the embedded, dated catalog. It makes no network call.
func EmbeddedCatalog() Catalog { return embedded{} }

func (embedded) InstanceType(_ context.Context, cloud catalog.Cloud, name string) (catalog.InstanceType, error) {
	return catalog.Lookup(cloud, name)
}

func (embedded) InstanceTypes(_ context.Context, cloud catalog.Cloud) ([]catalog.InstanceType, error) {
	if _, err := catalog.ParseCloud(string(cloud)); err != nil {
		return nil, err
	}
	return catalog.All(cloud), nil
}

func (embedded) CreditBudget(_ context.Context, cloud catalog.Cloud, name string) (burst.Budget, bool, error) {
	b, ok := burst.Lookup(cloud, name)
	return b, ok, nil
}

func (embedded) Date() string { return catalog.Date() }

func (embedded) Sources(cloud catalog.Cloud) string { return catalog.Sources(cloud) }
