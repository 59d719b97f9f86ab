package provider

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/kubefit/terraform-provider-kubefit/internal/livecatalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/livecatalog/livefake"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/sizing"
)

// liveAWSEnv gives the AWS SDK static credentials and a region from the environment, and keeps it away from
// real config files and the instance metadata service. endpoint, when set, is also the SDK-wide endpoint
// override, so a stray call without a provider endpoint would reach it too.
func liveAWSEnv(t *testing.T, endpoint string) {
	for k, v := range map[string]string{
		"AWS_ACCESS_KEY_ID": "AKIAFAKEFAKEFAKE", "AWS_SECRET_ACCESS_KEY": "fake-secret", "AWS_SESSION_TOKEN": "",
		"AWS_REGION": "us-east-1", "AWS_PROFILE": "", "AWS_CONFIG_FILE": t.TempDir() + "/none",
		"AWS_SHARED_CREDENTIALS_FILE": t.TempDir() + "/none", "AWS_EC2_METADATA_DISABLED": "true",
		"AWS_ENDPOINT_URL": endpoint, "AWS_ENDPOINT_URL_EC2": endpoint,
		"AZURE_SUBSCRIPTION_ID": "00000000-0000-0000-0000-000000000000",
	} {
		t.Setenv(k, v)
	}
}

// renamed is an embedded row under a name only the fake knows.
func renamed(t *testing.T, name, as string) catalog.InstanceType {
	t.Helper()
	it, err := catalog.Lookup(catalog.AWS, name)
	if err != nil {
		t.Fatal(err)
	}
	it.Name = as
	return it
}

// TestAccLive_noBlocksNoNetwork: without aws/azure blocks, or with catalog_source left at embedded, the
// provider makes no network call, even with every SDK-wide endpoint pointed at a fake that fails the test.
func TestAccLive_noBlocksNoNetwork(t *testing.T) {
	srv := httptest.NewServer(livefake.Forbidden(t.Errorf))
	defer srv.Close()
	liveAWSEnv(t, srv.URL)
	const lookups = `
data "kubefit_instance_type" "m5" {
  cloud = "aws"
  name  = "m5.large"
}
data "kubefit_node_overhead" "m5" {
  cloud         = "aws"
  instance_type = "m5.large"
  profile       = "eks-al2023"
}`
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: `provider "kubefit" {}` + lookups},
			{Config: `provider "kubefit" {
  catalog_source = "live"
}` + lookups},
			{Config: fmt.Sprintf(`provider "kubefit" {
  aws = { endpoint = %q }
}`, srv.URL) + lookups},
			{Config: `provider "kubefit" {
  catalog_source = "prefer_embedded"
}
data "kubefit_instance_type" "new" {
  cloud = "aws"
  name  = "m5.flex9"
}`, ExpectError: regexp.MustCompile(`Unknown\s+Instance\s+Type`)},
			{Config: `provider "kubefit" {}` + lookups,
				ConfigStateChecks: []statecheck.StateCheck{expectInt("data.kubefit_node_overhead.m5", tfjsonpath.New("max_pods"), 29)}},
		},
	})
}

// TestAccLive_typeOnlyLiveKnows: a type missing from the embedded catalog resolves through the fake EC2
// endpoint (paged), in every data source that looks types up, and its max pods and overhead equal those
// the embedded path computes for the equal row (m5.large).
func TestAccLive_typeOnlyLiveKnows(t *testing.T) {
	fake := &livefake.EC2{PageSize: 1, Types: []catalog.InstanceType{
		renamed(t, "c5.xlarge", "c5.flex9"), renamed(t, "m5.large", "m5.flex9"), renamed(t, "t3.micro", "t3.flex9"),
	}}
	srv := httptest.NewServer(fake)
	defer srv.Close()
	liveAWSEnv(t, "")
	provider := fmt.Sprintf(`provider "kubefit" {
  catalog_source = "prefer_embedded"
  aws = {
    region      = "us-east-1"
    endpoint    = %q
    max_retries = 1
  }
}
`, srv.URL)
	var config = provider
	for _, name := range []string{"m5.large", "m5.flex9"} {
		id := regexp.MustCompile(`\W`).ReplaceAllString(name, "_")
		config += fmt.Sprintf(`
data "kubefit_instance_type" %[1]q {
  cloud = "aws"
  name  = %[2]q
}
data "kubefit_node_overhead" %[1]q {
  cloud         = "aws"
  instance_type = %[2]q
  profile       = "eks-al2023"
}
data "kubefit_burst_budget" %[1]q {
  cloud         = "aws"
  instance_type = %[2]q
}
`, id, name)
	}
	pair := func(kind string, p tfjsonpath.Path) statecheck.StateCheck {
		return statecheck.CompareValuePairs("data."+kind+".m5_large", p, "data."+kind+".m5_flex9", p, compare.ValuesSame())
	}
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: config,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.kubefit_instance_type.m5_flex9", tfjsonpath.New("canonical_name"), knownvalue.StringExact("m5.flex9")),
				statecheck.ExpectKnownValue("data.kubefit_instance_type.m5_flex9", tfjsonpath.New("source"),
					knownvalue.StringRegexp(regexp.MustCompile(`live ec2:DescribeInstanceTypes in us-east-1.*row sources: live-ec2`))),
				pair("kubefit_instance_type", tfjsonpath.New("vcpu")),
				pair("kubefit_instance_type", tfjsonpath.New("memory_mib")),
				pair("kubefit_node_overhead", tfjsonpath.New("max_pods")),
				pair("kubefit_node_overhead", tfjsonpath.New("allocatable")),
				pair("kubefit_node_overhead", tfjsonpath.New("kube_reserved_resources")),
				pair("kubefit_node_overhead", tfjsonpath.New("kubelet_args")),
				expectInt("data.kubefit_node_overhead.m5_flex9", tfjsonpath.New("max_pods"), 29),
			},
		}},
	})
	if fake.Calls() == 0 || fake.Calls()%3 != 0 {
		t.Errorf("fake EC2 calls = %d, want whole paged fetches of 3 pages", fake.Calls())
	}
}

// TestAccLive_failures: with an EC2 endpoint that rejects the credentials, prefer_embedded still resolves
// embedded names without asking and reports a live-only name as unknown with the cause, while live makes
// the failure an error on the attribute.
func TestAccLive_failures(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusUnauthorized)
		fmt.Fprint(w, livefake.EC2Error("AuthFailure", "AWS was not able to validate the provided access credentials"))
	}))
	defer srv.Close()
	liveAWSEnv(t, "")
	cfg := func(mode, name string) string {
		return fmt.Sprintf(`provider "kubefit" {
  catalog_source = %q
  aws = { endpoint = %q }
}
data "kubefit_instance_type" "t" {
  cloud = "aws"
  name  = %q
}`, mode, srv.URL, name)
	}
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: cfg("live", "m5.large"), ExpectError: regexp.MustCompile(`(?s)Live\s+Catalog\s+Lookup\s+Failed.*HTTP\s+401\s+AuthFailure`)},
			{Config: cfg("prefer_embedded", "m5.flex9"), ExpectError: regexp.MustCompile(`(?s)Unknown\s+Instance\s+Type.*live\s+lookup.*AuthFailure`)},
			{Config: cfg("prefer_embedded", "m5.large"),
				ConfigStateChecks: []statecheck.StateCheck{expectInt("data.kubefit_instance_type.t", tfjsonpath.New("vcpu"), 2)}},
		},
	})
}

// TestLookupInstanceDiagnostics: how lookupInstance words the live catalog's warnings and failures, and that
// before Configure a name the embedded catalog lacks is left for the read (also through burstBudgetFor,
// which ValidateConfig uses).
func TestLookupInstanceDiagnostics(t *testing.T) {
	ctx := context.Background()
	fake := &livefake.EC2{Types: []catalog.InstanceType{renamed(t, "m5.large", "m5.flex9")}}
	srv := httptest.NewServer(fake)
	defer srv.Close()
	liveAWSEnv(t, "")
	live, err := livecatalog.New(livecatalog.Live, 0, livecatalog.NewAWSSource(ctx, livecatalog.AWSConfig{Endpoint: srv.URL, MaxRetries: 0}))
	if err != nil {
		t.Fatal(err)
	}
	p := path.Root("instance_type")

	var diags diag.Diagnostics
	if it, ok := lookupInstance(ctx, live, p, catalog.AWS, "m5.large", &diags); !ok || it.Name != "m5.large" ||
		diags.HasError() || diags.WarningsCount() != 1 || !diags[0].(diag.DiagnosticWithPath).Path().Equal(p) {
		t.Errorf("type not offered live: ok %v, diagnostics %v; want the embedded row and one warning at %s", ok, diags, p)
	}

	fake.Script(livefake.Reply{Status: http.StatusForbidden, Body: livefake.EC2Error("UnauthorizedOperation", "You are not authorized")})
	failing, _ := livecatalog.New(livecatalog.Live, 0, livecatalog.NewAWSSource(ctx, livecatalog.AWSConfig{Endpoint: srv.URL, MaxRetries: 0}))
	diags = nil
	if _, ok := lookupInstance(ctx, failing, p, catalog.AWS, "m5.large", &diags); ok || diags.ErrorsCount() != 1 ||
		diags[0].Summary() != "Live Catalog Lookup Failed" || !strings.Contains(diags[0].Detail(), "UnauthorizedOperation") {
		t.Errorf("failed fetch: ok %v, diagnostics %v; want one Live Catalog Lookup Failed error", ok, diags)
	}

	var unconfigured catalogClient
	diags = nil
	if _, ok := lookupInstance(ctx, unconfigured.catalog(), p, catalog.AWS, "m5.flex9", &diags); ok || len(diags) != 0 {
		t.Errorf("before Configure: ok %v, diagnostics %v; want not ok and no diagnostic", ok, diags)
	}
	if _, ok := burstBudgetFor(ctx, unconfigured.catalog(), catalog.AWS, "m5.flex9", &diags); ok || len(diags) != 0 {
		t.Errorf("burst budget before Configure: ok %v, diagnostics %v; want not ok and no diagnostic", ok, diags)
	}
	if _, ok := lookupInstance(ctx, unconfigured.catalog(), p, catalog.AWS, "m5.large", &diags); !ok || len(diags) != 0 {
		t.Errorf("embedded name before Configure: ok %v, diagnostics %v", ok, diags)
	}
	configured := catalogClient{configured: sizing.EmbeddedCatalog()}
	if _, ok := lookupInstance(ctx, configured.catalog(), p, catalog.AWS, "m5.flex9", &diags); ok || diags.ErrorsCount() != 1 {
		t.Errorf("embedded catalog after Configure: ok %v, diagnostics %v; want an Unknown Instance Type error", ok, diags)
	}
}
