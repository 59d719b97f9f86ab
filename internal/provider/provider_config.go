package provider

import (
	"context"
	"fmt"
	"regexp"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"

	"github.com/kubefit/terraform-provider-kubefit/internal/livecatalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/sizing"
)

// providerModel is the provider configuration.
type providerModel struct {
	AWS           types.Object `tfsdk:"aws"`
	Azure         types.Object `tfsdk:"azure"`
	CatalogSource types.String `tfsdk:"catalog_source"`
}

type providerAWSModel struct {
	Region     types.String `tfsdk:"region"`
	Profile    types.String `tfsdk:"profile"`
	Endpoint   types.String `tfsdk:"endpoint"`
	MaxRetries types.Int64  `tfsdk:"max_retries"`
}

type providerAzureModel struct {
	SubscriptionID types.String `tfsdk:"subscription_id"`
	Location       types.String `tfsdk:"location"`
	Endpoint       types.String `tfsdk:"endpoint"`
	TenantID       types.String `tfsdk:"tenant_id"`
}

// providerAttributes is the provider's configuration schema.
func providerAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"catalog_source": schema.StringAttribute{
			Optional: true,
			MarkdownDescription: "Where instance types come from: " + markdownList(livecatalog.Modes) + ". Default `embedded`.\n" +
				"  - `embedded`: the embedded, dated catalog only. No network call is made, whatever else is configured.\n" +
				"  - `prefer_embedded`: the embedded catalog first; the cloud's API is asked only for a name the embedded " +
				"catalog lacks (a type newer than the catalog). If that lookup fails, the name is reported unknown, with a " +
				"warning that names the cause.\n" +
				"  - `live`: the cloud's API first, for the region's or location's exact figures. A failed lookup (timeout, " +
				"throttling after retries, authentication, a malformed answer) is an error on the attribute that needed it. " +
				"A type the API does not offer there (or, on Azure, restricts for the subscription) falls back to the " +
				"embedded row with a warning.\n\n" +
				"Live lookups need the cloud's block (`aws`, `azure`); other clouds (GCP always) use the embedded catalog. " +
				"Each cloud's list is fetched at most once per Terraform run (all pages, 20 s timeout) and shared by every " +
				"data source and resource. Live rows carry no price, and CPU credit budgets always come from the embedded " +
				"tables. Lookups made while Terraform only validates the configuration, before the provider is configured, " +
				"never fail on a name the embedded catalog lacks: they are checked when the data source is read.",
			Validators: []validator.String{stringvalidator.OneOf(stringsOf(livecatalog.Modes)...)},
		},
		"aws": schema.SingleNestedAttribute{
			Optional: true,
			MarkdownDescription: "Live lookups of AWS instance types with EC2 `DescribeInstanceTypes` (only used when " +
				"`catalog_source` is not `embedded`). Credentials come from the AWS SDK's standard chain only (environment " +
				"variables, shared config and credentials files, SSO, web identity, container and instance roles), never from " +
				"provider attributes; the caller needs `ec2:DescribeInstanceTypes`.",
			Attributes: map[string]schema.Attribute{
				"region": schema.StringAttribute{Optional: true, MarkdownDescription: "Region to list, such as `us-east-1`. " +
					"Default: the SDK chain (`AWS_REGION`, the profile's region). Figures are the same in every region; " +
					"the region decides which types are offered.",
					Validators: []validator.String{stringvalidator.RegexMatches(awsRegionPattern,
						"must be an AWS region code such as \"us-east-1\" or \"eu-central-1\" (lowercase, hyphens, a number at the end)")}},
				"profile": schema.StringAttribute{Optional: true, MarkdownDescription: "Shared config profile. Default: `AWS_PROFILE`, else `default`."},
				"endpoint": schema.StringAttribute{Optional: true, MarkdownDescription: "EC2 endpoint URL override (a VPC " +
					"interface endpoint, or a test double): an absolute `https` (or, for a local test double, `http`) URL. Default: the SDK's endpoint for the region.",
					Validators: []validator.String{endpointURL{schemes: []string{"https", "http"}, example: `"https://ec2.us-east-1.amazonaws.com"`}}},
				"max_retries": schema.Int64Attribute{Optional: true, MarkdownDescription: "Retries after the first attempt, " +
					"with the SDK's standard retryer (exponential backoff with jitter, throttling and 5xx answers). Default 2.",
					Validators: []validator.Int64{int64validator.Between(0, 10)}},
			},
		},
		"azure": schema.SingleNestedAttribute{
			Optional: true,
			MarkdownDescription: "Live lookups of Azure VM sizes in the Resource SKUs list (`Microsoft.Compute/skus`, " +
				"only used when `catalog_source` is not `embedded`). Credentials come from azidentity's default chain only " +
				"(environment, workload identity, managed identity, Azure CLI, Azure Developer CLI), never from provider " +
				"attributes; the caller needs `Microsoft.Compute/skus/read` on the subscription. Sizes with a location " +
				"restriction for the subscription are treated as not offered.",
			Attributes: map[string]schema.Attribute{
				"subscription_id": schema.StringAttribute{Optional: true, MarkdownDescription: "Subscription whose SKU list " +
					"is read (restrictions are per subscription): its ID, a GUID. Default: `AZURE_SUBSCRIPTION_ID`, else `ARM_SUBSCRIPTION_ID`.",
					Validators: []validator.String{stringvalidator.RegexMatches(guidPattern,
						"must be a subscription ID, a GUID such as \"00000000-0000-0000-0000-000000000000\" (not the subscription's name)")}},
				"location": schema.StringAttribute{Required: true, MarkdownDescription: "Location to list, by its name such as `eastus` " +
					"(lowercase letters and digits; not its display name such as `East US`).",
					Validators: []validator.String{stringvalidator.RegexMatches(azureLocationPattern,
						"must be an Azure location name such as \"eastus\" or \"westeurope\" (lowercase letters and digits, as `az account list-locations` gives in its name column), not a display name such as \"East US\"")}},
				"endpoint": schema.StringAttribute{Optional: true, MarkdownDescription: "Azure Resource Manager endpoint " +
					"(https). Default `" + livecatalog.DefaultAzureEndpoint + "`; set it for sovereign clouds. The token is " +
					"requested for this endpoint's `/.default` scope.",
					Validators: []validator.String{endpointURL{schemes: []string{"https"}, example: "\"" + livecatalog.DefaultAzureEndpoint + "\""}}},
				"tenant_id": schema.StringAttribute{Optional: true, MarkdownDescription: "Tenant for the default credential " +
					"chain. Default: the chain's own (`AZURE_TENANT_ID`, the CLI's tenant)."},
			},
		},
	}
}

// The forms of the live-lookup settings: an AWS region code (us-east-1, us-gov-west-1, cn-north-1, us-isob-east-1),
// an Azure location name (eastus, westeurope; never a display name), a subscription ID (a GUID).
var (
	awsRegionPattern     = regexp.MustCompile(`^[a-z]{2}(-[a-z]+)+-[0-9]{1,2}$`)
	azureLocationPattern = regexp.MustCompile(`^[a-z][a-z0-9]*$`)
	guidPattern          = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)
)

// configureCatalog builds the catalog every data source and resource uses. Unknown values (a configuration
// that depends on other resources) give the embedded catalog with a warning. az is the provider's
// azureClient: zero outside tests.
func configureCatalog(ctx context.Context, config tfsdk.Config, az azureClient, diags *diag.Diagnostics) sizing.Catalog {
	var m providerModel
	diags.Append(config.Get(ctx, &m)...)
	if diags.HasError() {
		return nil
	}
	if anyUnknown(m.CatalogSource, m.AWS, m.Azure) {
		return unknownConfig(diags)
	}
	mode := livecatalog.Embedded
	if !m.CatalogSource.IsNull() {
		mode = livecatalog.Mode(m.CatalogSource.ValueString())
	}
	if mode == livecatalog.Embedded {
		if !m.AWS.IsNull() || !m.Azure.IsNull() {
			diags.AddAttributeWarning(path.Root("catalog_source"), "Live Lookups Not Enabled",
				"An aws or azure block is set, but catalog_source is \"embedded\", so no live lookups are made. "+
					"Set catalog_source to \"prefer_embedded\" or \"live\" to use them.")
		}
		return sizing.EmbeddedCatalog()
	}
	var sources []livecatalog.Source
	if !m.AWS.IsNull() {
		var a providerAWSModel
		diags.Append(m.AWS.As(ctx, &a, basetypes.ObjectAsOptions{})...)
		if anyUnknown(a.Region, a.Profile, a.Endpoint, a.MaxRetries) {
			return unknownConfig(diags)
		}
		retries := -1
		if !a.MaxRetries.IsNull() {
			retries = int(a.MaxRetries.ValueInt64())
		}
		sources = append(sources, livecatalog.NewAWSSource(ctx, livecatalog.AWSConfig{Region: a.Region.ValueString(),
			Profile: a.Profile.ValueString(), Endpoint: a.Endpoint.ValueString(), MaxRetries: retries}))
	}
	if !m.Azure.IsNull() {
		var z providerAzureModel
		diags.Append(m.Azure.As(ctx, &z, basetypes.ObjectAsOptions{})...)
		if anyUnknown(z.SubscriptionID, z.Location, z.Endpoint, z.TenantID) {
			return unknownConfig(diags)
		}
		sources = append(sources, livecatalog.NewAzureSource(livecatalog.AzureConfig{SubscriptionID: z.SubscriptionID.ValueString(),
			Location: z.Location.ValueString(), Endpoint: z.Endpoint.ValueString(), TenantID: z.TenantID.ValueString(), MaxRetries: -1,
			Credential: az.credential, Transport: az.transport}))
	}
	if diags.HasError() {
		return nil
	}
	if len(sources) == 0 {
		diags.AddAttributeWarning(path.Root("catalog_source"), "No Live Source Configured",
			fmt.Sprintf("catalog_source is %q, but there is no aws or azure block, so every lookup uses the embedded catalog.", mode))
		return sizing.EmbeddedCatalog()
	}
	c, err := livecatalog.New(mode, 0, sources...)
	if err != nil {
		diags.AddAttributeError(path.Root("catalog_source"), "Invalid Catalog Source", err.Error())
		return nil
	}
	return c
}

func unknownConfig(diags *diag.Diagnostics) sizing.Catalog {
	diags.AddWarning("Provider Configuration Not Yet Known",
		"Part of the kubefit provider configuration is only known after apply, so this run uses the embedded catalog.")
	return sizing.EmbeddedCatalog()
}

func anyUnknown(vs ...attr.Value) bool {
	for _, v := range vs {
		if v.IsUnknown() {
			return true
		}
	}
	return false
}
