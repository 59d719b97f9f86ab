package provider

import (
	"context"
	"errors"
	"fmt"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/kubefit/terraform-provider-kubefit/internal/livecatalog/livefake"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
)

// The Azure acceptance tests run the provider through the real Terraform CLI against a loopback ARM fake
// (httptest TLS: azure.endpoint must be https, and azcore sends bearer tokens only over TLS). No Azure
// credential exists offline, so their provider factory serves, through the same wrapper as NewServer, a
// provider whose azureClient carries a test credential and the fake server's HTTP client (which trusts its
// certificate). Production providers leave azureClient zero.

const (
	azureTestSubscription = "5f0c1e2d-aaaa-bbbb-cccc-0123456789ab"
	azureGoodToken        = "tok-good-2c9d41e7"
	azureWrongToken       = "tok-wrong-7f3a9c55"
)

// testCredential is the azcore.TokenCredential of the Azure acceptance tests: it returns token, or fails
// with err, and remembers the scopes asked for.
type testCredential struct {
	mu     sync.Mutex
	token  string
	err    error
	scopes []string
}

func (c *testCredential) set(token string, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.token, c.err = token, err
}

func (c *testCredential) GetToken(_ context.Context, opts policy.TokenRequestOptions) (azcore.AccessToken, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.scopes = append(c.scopes, opts.Scopes...)
	if c.err != nil {
		return azcore.AccessToken{}, c.err
	}
	return azcore.AccessToken{Token: c.token, ExpiresOn: time.Now().Add(time.Hour)}, nil
}

func (c *testCredential) askedScopes() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Compact(slices.Sorted(slices.Values(c.scopes)))
}

// diagRecorder keeps every diagnostic the provider returns to Terraform (the CLI shows warnings to people,
// and terraform-plugin-testing does not expose them).
type diagRecorder struct {
	mu    sync.Mutex
	diags []*tfprotov6.Diagnostic
}

func (r *diagRecorder) add(ds []*tfprotov6.Diagnostic) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.diags = append(r.diags, ds...)
}

// take returns the diagnostics recorded since the last take.
func (r *diagRecorder) take() []*tfprotov6.Diagnostic {
	r.mu.Lock()
	defer r.mu.Unlock()
	ds := r.diags
	r.diags = nil
	return ds
}

// recordingServer passes every RPC to the provider's server and records the diagnostics of those that
// configure the provider or read data sources.
type recordingServer struct {
	tfprotov6.ProviderServer
	rec *diagRecorder
}

func (s recordingServer) ValidateProviderConfig(ctx context.Context, req *tfprotov6.ValidateProviderConfigRequest) (*tfprotov6.ValidateProviderConfigResponse, error) {
	resp, err := s.ProviderServer.ValidateProviderConfig(ctx, req)
	if resp != nil {
		s.rec.add(resp.Diagnostics)
	}
	return resp, err
}

func (s recordingServer) ConfigureProvider(ctx context.Context, req *tfprotov6.ConfigureProviderRequest) (*tfprotov6.ConfigureProviderResponse, error) {
	resp, err := s.ProviderServer.ConfigureProvider(ctx, req)
	if resp != nil {
		s.rec.add(resp.Diagnostics)
	}
	return resp, err
}

func (s recordingServer) ValidateDataResourceConfig(ctx context.Context, req *tfprotov6.ValidateDataResourceConfigRequest) (*tfprotov6.ValidateDataResourceConfigResponse, error) {
	resp, err := s.ProviderServer.ValidateDataResourceConfig(ctx, req)
	if resp != nil {
		s.rec.add(resp.Diagnostics)
	}
	return resp, err
}

func (s recordingServer) ReadDataSource(ctx context.Context, req *tfprotov6.ReadDataSourceRequest) (*tfprotov6.ReadDataSourceResponse, error) {
	resp, err := s.ProviderServer.ReadDataSource(ctx, req)
	if resp != nil {
		s.rec.add(resp.Diagnostics)
	}
	return resp, err
}

// azureTestFactories serves the provider, through serve (NewServer's wrapper), with cred and the fake's
// HTTP client as its Azure client, recording its diagnostics in rec.
func azureTestFactories(cred azcore.TokenCredential, srv *httptest.Server, rec *diagRecorder) map[string]func() (tfprotov6.ProviderServer, error) {
	inner := serve(func() provider.Provider {
		return &kubefitProvider{version: "test", azure: azureClient{credential: cred, transport: srv.Client()}}
	})
	return map[string]func() (tfprotov6.ProviderServer, error){
		"kubefit": func() (tfprotov6.ProviderServer, error) {
			s, err := inner()
			if err != nil {
				return nil, err
			}
			return recordingServer{ProviderServer: s, rec: rec}, nil
		},
	}
}

// newARMServer starts the ARM fake over TLS for azureTestSubscription in eastus, expecting azureGoodToken.
func newARMServer(t *testing.T, types ...catalog.InstanceType) (*livefake.ARM, *httptest.Server) {
	t.Helper()
	fake := &livefake.ARM{SubscriptionID: azureTestSubscription, Location: "eastus", Token: azureGoodToken, Types: types}
	srv := httptest.NewTLSServer(fake)
	t.Cleanup(srv.Close)
	fake.BaseURL = srv.URL
	return fake, srv
}

// azureRow is an embedded Azure row, under another name when as is set.
func azureRow(t *testing.T, name, as string) catalog.InstanceType {
	t.Helper()
	it, err := catalog.Lookup(catalog.Azure, name)
	if err != nil {
		t.Fatal(err)
	}
	if as != "" {
		it.Name = as
	}
	return it
}

func azureProviderConfig(mode, endpoint string) string {
	return fmt.Sprintf(`provider "kubefit" {
  catalog_source = %q
  azure = {
    subscription_id = %q
    location        = "eastus"
    endpoint        = %q
  }
}
`, mode, azureTestSubscription, endpoint)
}

// azureStepChecks runs check on the diagnostics of each step: step i's in step i+1's PreConfig, the last
// step's after the test case. Every step's diagnostics are also checked for secrets.
type azureStepChecks struct {
	t      *testing.T
	rec    *diagRecorder
	checks []func(t *testing.T, ds []*tfprotov6.Diagnostic)
}

func (a *azureStepChecks) step(s resource.TestStep, check func(t *testing.T, ds []*tfprotov6.Diagnostic)) resource.TestStep {
	i := len(a.checks)
	a.checks = append(a.checks, check)
	pre := s.PreConfig
	s.PreConfig = func() {
		a.run(i - 1)
		if pre != nil {
			pre()
		}
	}
	return s
}

// run checks the diagnostics recorded since the last run as those of step i (none when i < 0).
func (a *azureStepChecks) run(i int) {
	ds := a.rec.take()
	if i < 0 {
		return
	}
	t := a.t
	for _, d := range ds {
		text := d.Summary + "\n" + d.Detail
		for _, secret := range []string{azureGoodToken, azureWrongToken, azureTestSubscription, "Bearer"} {
			if strings.Contains(text, secret) {
				t.Errorf("step %d: a diagnostic carries %q: %s", i+1, secret, text)
			}
		}
	}
	if c := a.checks[i]; c != nil {
		c(t, ds)
	}
}

// wantDiag fails unless ds holds a diagnostic of severity sev, summary, on attribute attr ("" = none),
// whose detail matches detail.
func wantDiag(t *testing.T, ds []*tfprotov6.Diagnostic, sev tfprotov6.DiagnosticSeverity, summary, attr, detail string) {
	t.Helper()
	re := regexp.MustCompile(detail)
	for _, d := range ds {
		if d.Severity == sev && d.Summary == summary && pathString(d.Attribute) == attr && re.MatchString(d.Detail) {
			return
		}
	}
	var got []string
	for _, d := range ds {
		got = append(got, fmt.Sprintf("%s %q at %q: %s", d.Severity, d.Summary, pathString(d.Attribute), d.Detail))
	}
	t.Errorf("no %s %q at %q matching %q among:\n%s", sev, summary, attr, detail, strings.Join(got, "\n"))
}

// noLiveDiags fails when ds holds any diagnostic about live lookups.
func noLiveDiags(t *testing.T, ds []*tfprotov6.Diagnostic) {
	t.Helper()
	for _, d := range ds {
		if strings.Contains(d.Summary, "Live") || strings.Contains(d.Detail, "live") {
			t.Errorf("unexpected diagnostic %s %q: %s", d.Severity, d.Summary, d.Detail)
		}
	}
}

// TestAccLiveAzure_typeOnlyLiveKnows: through the Terraform CLI, with azure.endpoint at the ARM fake, a VM
// size the embedded catalog lacks resolves (in any letter case) under prefer_embedded and live, with the
// same figures, node overhead and max pods as the embedded row it copies; under live, a size the location
// does not offer, or restricts for the subscription, falls back to the embedded row with a warning on the
// attribute.
func TestAccLiveAzure_typeOnlyLiveKnows(t *testing.T) {
	fake, srv := newARMServer(t,
		azureRow(t, "Standard_DS2_v2", ""), azureRow(t, "Standard_DS2_v2", "Standard_DS2_v9"),
		azureRow(t, "Standard_E8-2s_v3", ""), azureRow(t, "Standard_D4s_v5", ""))
	fake.PageSize = 1
	fake.Restricted = map[string]string{"Standard_D4s_v5": "NotAvailableForSubscription"}
	cred := &testCredential{token: azureGoodToken}
	rec := &diagRecorder{}
	lookups := `
data "kubefit_instance_type" "ds2" {
  cloud = "azure"
  name  = "Standard_DS2_v2"
}
data "kubefit_instance_type" "ds2_v9" {
  cloud = "azure"
  name  = "standard_ds2_v9"
}
data "kubefit_node_overhead" "ds2" {
  cloud         = "azure"
  instance_type = "Standard_DS2_v2"
}
data "kubefit_node_overhead" "ds2_v9" {
  cloud         = "azure"
  instance_type = "Standard_DS2_v9"
}
`
	notOffered := `
data "kubefit_instance_type" "d2s" {
  cloud = "azure"
  name  = "Standard_D2s_v5"
}
data "kubefit_instance_type" "d4s" {
  cloud = "azure"
  name  = "Standard_D4s_v5"
}
`
	pair := func(kind string, p tfjsonpath.Path) statecheck.StateCheck {
		return statecheck.CompareValuePairs("data."+kind+".ds2", p, "data."+kind+".ds2_v9", p, compare.ValuesSame())
	}
	stateChecks := func(mode string) []statecheck.StateCheck {
		return []statecheck.StateCheck{
			statecheck.ExpectKnownValue("data.kubefit_instance_type.ds2_v9", tfjsonpath.New("canonical_name"), knownvalue.StringExact("Standard_DS2_v9")),
			statecheck.ExpectKnownValue("data.kubefit_instance_type.ds2_v9", tfjsonpath.New("source"), knownvalue.StringRegexp(regexp.MustCompile(
				`catalog_source `+mode+`: live Microsoft\.Compute/skus in eastus via the configured endpoint.*row sources: live-arm-skus`))),
			pair("kubefit_instance_type", tfjsonpath.New("vcpu")),
			pair("kubefit_instance_type", tfjsonpath.New("memory_mib")),
			pair("kubefit_instance_type", tfjsonpath.New("max_data_disks")),
			pair("kubefit_instance_type", tfjsonpath.New("uncached_disk_iops")),
			pair("kubefit_node_overhead", tfjsonpath.New("max_pods")),
			pair("kubefit_node_overhead", tfjsonpath.New("allocatable")),
			pair("kubefit_node_overhead", tfjsonpath.New("kube_reserved_resources")),
			expectInt("data.kubefit_instance_type.ds2_v9", tfjsonpath.New("vcpu"), 2),
			expectInt("data.kubefit_instance_type.ds2_v9", tfjsonpath.New("memory_mib"), 7168),
		}
	}
	checks := &azureStepChecks{t: t, rec: rec}
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: azureTestFactories(cred, srv, rec),
		Steps: []resource.TestStep{
			checks.step(resource.TestStep{
				Config:            azureProviderConfig("prefer_embedded", srv.URL) + lookups,
				ConfigStateChecks: stateChecks("prefer_embedded"),
			}, noLiveDiags),
			checks.step(resource.TestStep{
				Config: azureProviderConfig("live", srv.URL) + lookups + notOffered,
				ConfigStateChecks: append(stateChecks("live"),
					expectString("data.kubefit_instance_type.d2s", tfjsonpath.New("canonical_name"), "Standard_D2s_v5"),
					expectInt("data.kubefit_instance_type.d4s", tfjsonpath.New("vcpu"), 4)),
			}, func(t *testing.T, ds []*tfprotov6.Diagnostic) {
				wantDiag(t, ds, tfprotov6.DiagnosticSeverityWarning, "Live Instance Type Lookup", "name",
					`^Standard_D2s_v5 is not offered by Microsoft\.Compute/skus in eastus via the configured endpoint; its figures come from the embedded catalog`)
				wantDiag(t, ds, tfprotov6.DiagnosticSeverityWarning, "Live Instance Type Lookup", "name",
					`^Standard_D4s_v5 is not offered by .*\(restricted in eastus: NotAvailableForSubscription\)`)
			}),
		},
	})
	checks.run(len(checks.checks) - 1)
	if got, want := cred.askedScopes(), []string{srv.URL + "/.default"}; !slices.Equal(got, want) {
		t.Errorf("token scopes %q, want %q (the configured endpoint's)", got, want)
	}
	if fake.Calls() == 0 || fake.Calls()%4 != 0 {
		t.Errorf("ARM fake calls = %d, want whole paged fetches of 4 pages", fake.Calls())
	}
}

// TestAccLiveAzure_failures: with a credential the ARM fake rejects (HTTP 401), or one that cannot get a
// token, catalog_source = "live" makes the failure an error on the attribute that needed it, while
// prefer_embedded resolves embedded names without asking, lists the embedded rows with a warning that
// names the cause, and reports a live-only name as unknown with the cause. No diagnostic carries a token,
// the Authorization scheme or the subscription ID.
func TestAccLiveAzure_failures(t *testing.T) {
	fake, srv := newARMServer(t, azureRow(t, "Standard_DS2_v2", "Standard_DS2_v9"))
	cred := &testCredential{token: azureWrongToken}
	rec := &diagRecorder{}
	cfg := func(mode, name string) string {
		return azureProviderConfig(mode, srv.URL) + fmt.Sprintf(`
data "kubefit_instance_type" "t" {
  cloud = "azure"
  name  = %q
}
`, name)
	}
	const list = `
data "kubefit_instance_types" "ds2" {
  cloud         = "azure"
  name_patterns = ["Standard_DS2_v*"]
}
`
	checks := &azureStepChecks{t: t, rec: rec}
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: azureTestFactories(cred, srv, rec),
		Steps: []resource.TestStep{
			checks.step(resource.TestStep{
				Config:      cfg("live", "Standard_DS2_v2"),
				ExpectError: regexp.MustCompile(`(?s)Live\s+Catalog\s+Lookup\s+Failed.*HTTP\s+401\s+AuthenticationFailed`),
			}, func(t *testing.T, ds []*tfprotov6.Diagnostic) {
				wantDiag(t, ds, tfprotov6.DiagnosticSeverityError, "Live Catalog Lookup Failed", "name",
					`^Looking up "Standard_DS2_v2": live azure catalog \(Microsoft\.Compute/skus in eastus via the configured endpoint\) failed: HTTP 401 AuthenticationFailed: Authentication failed\. With catalog_source = "live" this is an error`)
			}),
			checks.step(resource.TestStep{
				Config:      cfg("live", "Standard_DS2_v2") + list,
				ExpectError: regexp.MustCompile(`(?s)Live\s+Catalog\s+Lookup\s+Failed.*Listing\s+the\s+azure\s+instance\s+types.*HTTP\s+401`),
			}, func(t *testing.T, ds []*tfprotov6.Diagnostic) {
				wantDiag(t, ds, tfprotov6.DiagnosticSeverityError, "Live Catalog Lookup Failed", "cloud", `^Listing the azure instance types: .*HTTP 401 AuthenticationFailed`)
			}),
			checks.step(resource.TestStep{
				Config:      cfg("prefer_embedded", "Standard_DS2_v9"),
				ExpectError: regexp.MustCompile(`(?s)Unknown\s+Instance\s+Type.*live\s+lookup.*HTTP\s+401\s+AuthenticationFailed`),
			}, func(t *testing.T, ds []*tfprotov6.Diagnostic) {
				wantDiag(t, ds, tfprotov6.DiagnosticSeverityWarning, "Live Instance Type Lookup", "name",
					`^The live instance-type lookup failed, so the embedded catalog was used: live azure catalog .* failed: HTTP 401 AuthenticationFailed`)
			}),
			checks.step(resource.TestStep{
				PreConfig:   func() { cred.set("", errors.New("DefaultAzureCredential: failed to acquire a token")) },
				Config:      cfg("live", "Standard_DS2_v2"),
				ExpectError: regexp.MustCompile(`(?s)Live\s+Catalog\s+Lookup\s+Failed.*no\s+Azure\s+credentials\s+found`),
			}, func(t *testing.T, ds []*tfprotov6.Diagnostic) {
				// One sentence in kubefit's words; the SDK's text goes to the debug log only (issue 21, class 8).
				wantDiag(t, ds, tfprotov6.DiagnosticSeverityError, "Live Catalog Lookup Failed", "name", `no Azure credentials found: azidentity's default chain was tried`)
			}),
			checks.step(resource.TestStep{
				PreConfig: func() { cred.set(azureWrongToken, nil) },
				Config:    cfg("prefer_embedded", "Standard_DS2_v2") + list,
				ConfigStateChecks: []statecheck.StateCheck{
					expectInt("data.kubefit_instance_type.t", tfjsonpath.New("vcpu"), 2),
					statecheck.ExpectKnownValue("data.kubefit_instance_types.ds2", tfjsonpath.New("names"),
						knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("Standard_DS2_v2"), knownvalue.StringExact("Standard_DS2_v2_Promo")})),
				},
			}, func(t *testing.T, ds []*tfprotov6.Diagnostic) {
				wantDiag(t, ds, tfprotov6.DiagnosticSeverityWarning, "Live Instance Type Lookup", "cloud",
					`^The live instance-type lookup failed, so the embedded catalog was used: .*HTTP 401 AuthenticationFailed`)
				for _, d := range ds {
					if d.Severity == tfprotov6.DiagnosticSeverityError {
						t.Errorf("unexpected error %q: %s", d.Summary, d.Detail)
					}
				}
			}),
		},
	})
	checks.run(len(checks.checks) - 1)
	if fake.Calls() == 0 {
		t.Error("the ARM fake was never asked")
	}
}
