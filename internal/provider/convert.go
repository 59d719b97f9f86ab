package provider

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/sizing"
)

// maxQuantity bounds every parsed quantity (bytes or millicores): far above any real node, and small enough
// that the planner's integer arithmetic cannot overflow.
const maxQuantity = int64(1) << 53

// quantityKind says how a Kubernetes quantity attribute is read.
type quantityKind int

const (
	quantityCPU            quantityKind = iota // millicores: "500m", "2"
	quantityBytes                              // bytes: "512Mi", "1G"
	quantityBytesOrPercent                     // bytes or a percentage of capacity: "100Mi", "10%"
)

func (k quantityKind) example() string {
	switch k {
	case quantityCPU:
		return `"250m" or "2"`
	case quantityBytesOrPercent:
		return `"100Mi" or "10%"`
	}
	return `"512Mi" or "2Gi"`
}

// parsedQuantity is a parsed quantity: an integer amount (millicores or bytes) or a percentage in basis points.
type parsedQuantity struct {
	Value     int64
	PercentBP int64
	IsPercent bool
}

// parseQuantity parses a Kubernetes quantity string with k8s.io/apimachinery, bounded and non-negative.
func parseQuantity(s string, kind quantityKind) (parsedQuantity, error) {
	t := strings.TrimSpace(s)
	if t != s {
		return parsedQuantity{}, fmt.Errorf("%s has spaces around it, which Kubernetes rejects: write %q", field.Quote(s), t)
	}
	if kind == quantityBytesOrPercent && strings.HasSuffix(t, "%") {
		f, err := strconv.ParseFloat(strings.TrimSuffix(t, "%"), 64)
		if err != nil || f < 0 || f > 100 || f*100 != float64(int64(f*100)) {
			return parsedQuantity{}, fmt.Errorf("%s is not a percentage from 0%% to 100%% with at most two decimals", field.Quote(s))
		}
		return parsedQuantity{PercentBP: int64(f * 100), IsPercent: true}, nil
	}
	q, err := resource.ParseQuantity(t)
	if err != nil {
		return parsedQuantity{}, fmt.Errorf("%s is not a Kubernetes quantity (a number with an optional suffix such as m, k, Ki, Mi or Gi); write it like %s", field.Quote(s), kind.example())
	}
	if q.Sign() < 0 {
		return parsedQuantity{}, fmt.Errorf("%s is negative; quantities must be zero or more", field.Quote(s))
	}
	limit := resource.NewQuantity(maxQuantity, resource.BinarySI)
	if kind == quantityCPU {
		limit = resource.NewMilliQuantity(maxQuantity, resource.DecimalSI)
	}
	if q.Cmp(*limit) > 0 {
		return parsedQuantity{}, fmt.Errorf("%s is too large to be a node resource", field.Quote(s))
	}
	if kind == quantityCPU {
		return parsedQuantity{Value: q.MilliValue()}, nil
	}
	return parsedQuantity{Value: q.Value()}, nil
}

// quantityValidator checks a string attribute holding a Kubernetes quantity at validate time.
type quantityValidator struct{ kind quantityKind }

func (v quantityValidator) Description(context.Context) string {
	return "value must be a Kubernetes quantity such as " + v.kind.example()
}

func (v quantityValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v quantityValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if _, err := parseQuantity(req.ConfigValue.ValueString(), v.kind); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid Quantity", sentence(err.Error()))
	}
}

// optQuantity parses an optional quantity attribute, reporting a problem at p. It returns nil for null or unknown.
func optQuantity(p path.Path, v types.String, kind quantityKind, diags *diag.Diagnostics) *int64 {
	if v.IsNull() || v.IsUnknown() {
		return nil
	}
	q, err := parseQuantity(v.ValueString(), kind)
	if err != nil {
		diags.AddAttributeError(p, "Invalid Quantity", sentence(err.Error()))
		return nil
	}
	return &q.Value
}

// lookupInstance finds an instance type in the embedded catalog, reporting an unknown name at p with the
// closest names.
func lookupInstance(ctx context.Context, cat sizing.Catalog, p path.Path, cloud catalog.Cloud, name string, diags *diag.Diagnostics) (catalog.InstanceType, bool) {
	it, err := catalogLookup(ctx, cat, p, cloud, name, diags) // live-catalog warnings and failures are reported here
	if errors.Is(err, errReported) {
		return catalog.InstanceType{}, false
	}
	if err != nil {
		var nf *catalog.NotFoundError
		summary := "Unknown Instance Type"
		if !errors.As(err, &nf) {
			summary = "Invalid Instance Type"
		}
		detail := sentence(err.Error())
		if nf == nil || (nf.Name != "" && nf.OtherCloud == "") {
			detail += fmt.Sprintf(" The embedded catalog is dated %s; check the spelling, or whether the type is newer than the catalog.", cat.Date())
		}
		diags.AddAttributeError(p, summary, detail)
		return catalog.InstanceType{}, false
	}
	return it, true
}

// parseCloud reads a cloud attribute, reporting a bad value at p.
func parseCloud(p path.Path, v types.String, diags *diag.Diagnostics) (catalog.Cloud, bool) {
	c, err := catalog.ParseCloud(v.ValueString())
	if err != nil {
		diags.AddAttributeError(p, "Invalid Cloud", err.Error())
		return "", false
	}
	return c, true
}

// stringsOf converts a list of typed string constants for validators.
func stringsOf[T ~string](xs []T) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = string(x)
	}
	return out
}

// markdownList renders enum values for a description: "`aws`, `azure`, `gcp`".
func markdownList[T ~string](xs []T) string {
	q := make([]string, len(xs))
	for i, x := range xs {
		q[i] = "`" + string(x) + "`"
	}
	return strings.Join(q, ", ")
}

// sortedKeys returns a map's keys in order, so pools are always processed deterministically.
func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}
