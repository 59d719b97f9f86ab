package provider

import (
	"context"
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

// exactlyOneWith is a string validator for an attribute of which exactly one of it and its sibling other
// (an attribute of the same object) must be set, such as instance_type and instance_types. Unlike
// stringvalidator.ExactlyOneOf it names the two attributes as a user writes them, whether they sit at the
// root or in a nested object. It waits while either value is unknown.
type exactlyOneWith struct{ other string }

func (v exactlyOneWith) Description(context.Context) string {
	return "exactly one of this attribute and " + v.other + " must be set"
}

func (v exactlyOneWith) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v exactlyOneWith) ValidateString(ctx context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsUnknown() {
		return
	}
	op := req.Path.ParentPath().AtName(v.other)
	var other attr.Value
	if d := req.Config.GetAttribute(ctx, op, &other); d.HasError() || other == nil || other.IsUnknown() {
		return
	}
	self := lastName(req.Path)
	switch {
	case req.ConfigValue.IsNull() && other.IsNull():
		resp.Diagnostics.AddAttributeError(req.Path, "Missing "+titleWords(self),
			fmt.Sprintf("Neither %s nor %s is set; give exactly one of them.", self, v.other))
	case !req.ConfigValue.IsNull() && !other.IsNull():
		resp.Diagnostics.AddAttributeError(req.Path, "Conflicting Attributes",
			fmt.Sprintf("%s = %q and %s are both set; give exactly one of them.", self, req.ConfigValue.ValueString(), v.other))
	}
}

// lastName is the name of the attribute at p (its last attribute-name step).
func lastName(p path.Path) string {
	steps := p.Steps()
	for i := len(steps) - 1; i >= 0; i-- {
		if n, ok := steps[i].(path.PathStepAttributeName); ok {
			return string(n)
		}
	}
	return p.String()
}

// titleWords turns an attribute name into title case words: "instance_type" → "Instance Type".
func titleWords(name string) string {
	b := []byte(name)
	up := true
	for i, c := range b {
		switch {
		case c == '_':
			b[i], up = ' ', true
		case up && c >= 'a' && c <= 'z':
			b[i], up = c-'a'+'A', false
		default:
			up = false
		}
	}
	return string(b)
}

// endpointURL is a string validator for an endpoint setting: an absolute URL with a host, in one of
// schemes. It checks the value during validation, on its own attribute, before any lookup uses it.
type endpointURL struct {
	schemes []string
	example string
}

func (v endpointURL) Description(context.Context) string {
	return "an absolute " + strings.Join(v.schemes, " or ") + " URL"
}

func (v endpointURL) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v endpointURL) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	s := req.ConfigValue.ValueString()
	u, err := url.Parse(s)
	if err == nil && u.Host != "" && slices.Contains(v.schemes, u.Scheme) && u.User == nil {
		return
	}
	resp.Diagnostics.AddAttributeError(req.Path, "Invalid Endpoint",
		fmt.Sprintf("%s = %q is not an absolute %s URL; give the endpoint's full URL, such as %s.",
			lastName(req.Path), s, strings.Join(v.schemes, " or "), v.example))
}
