package livecatalog

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/runtime"
	"github.com/Azure/azure-sdk-for-go/sdk/azidentity"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
)

// DefaultAzureEndpoint is the Azure Resource Manager endpoint of the public cloud.
const DefaultAzureEndpoint = "https://management.azure.com"

// azureSKUAPIVersion is the Microsoft.Compute/skus API version read.
const azureSKUAPIVersion = "2021-07-01"

// AzureConfig configures the Resource SKUs source. Credentials come only from azidentity's default chain
// (environment, workload identity, managed identity, Azure CLI, Azure Developer CLI).
type AzureConfig struct {
	SubscriptionID string // "" = AZURE_SUBSCRIPTION_ID, then ARM_SUBSCRIPTION_ID
	Location       string // "eastus"; required
	Endpoint       string // ARM endpoint; "" = DefaultAzureEndpoint
	TenantID       string // tenant for the default credential chain; "" = the chain's own
	MaxRetries     int    // retries after the first attempt; < 0 = azcore's default (3)

	// Credential replaces the default chain (tests). Transport replaces the HTTP client (tests).
	Credential azcore.TokenCredential
	Transport  policy.Transporter
	retryDelay time.Duration // tests: first retry delay when no Retry-After is sent
}

// azureSource lists the VM sizes of one location.
type azureSource struct {
	cfg      AzureConfig
	pipeline runtime.Pipeline
	err      error
}

// NewAzureSource returns the Resource SKUs source. It builds the credential and pipeline (no network
// call); a problem there is reported by the first Fetch.
func NewAzureSource(cfg AzureConfig) Source {
	s := &azureSource{cfg: cfg}
	if s.cfg.SubscriptionID == "" {
		s.cfg.SubscriptionID = firstEnv("AZURE_SUBSCRIPTION_ID", "ARM_SUBSCRIPTION_ID")
	}
	if s.cfg.Endpoint == "" {
		s.cfg.Endpoint = DefaultAzureEndpoint
	}
	s.cfg.Endpoint = strings.TrimRight(s.cfg.Endpoint, "/")
	switch {
	case s.cfg.Location == "":
		s.err = errors.New("no Azure location: set azure.location")
		return s
	case s.cfg.SubscriptionID == "":
		s.err = errors.New("no Azure subscription: set azure.subscription_id or AZURE_SUBSCRIPTION_ID")
		return s
	}
	u, err := url.Parse(s.cfg.Endpoint)
	if err != nil || u.Scheme != "https" || u.Host == "" {
		s.err = errors.New("azure.endpoint must be an https URL")
		return s
	}
	cred := cfg.Credential
	if cred == nil {
		c, err := azidentity.NewDefaultAzureCredential(&azidentity.DefaultAzureCredentialOptions{TenantID: cfg.TenantID})
		if err != nil {
			s.err = fmt.Errorf("azure credential: %s", firstLine(err.Error()))
			return s
		}
		cred = c
	}
	cred = azureCredentialsProbe{cred}
	opts := &policy.ClientOptions{Transport: cfg.Transport, Telemetry: policy.TelemetryOptions{Disabled: true}}
	if cfg.MaxRetries >= 0 {
		opts.Retry.MaxRetries = int32(cfg.MaxRetries)
		if cfg.MaxRetries == 0 {
			opts.Retry.MaxRetries = -1 // azcore: -1 disables retries, 0 means its default
		}
	}
	opts.Retry.MaxRetryDelay = 10 * time.Second
	if cfg.retryDelay > 0 {
		opts.Retry.RetryDelay = cfg.retryDelay
	}
	scope := u.Scheme + "://" + u.Host + "/.default"
	s.pipeline = runtime.NewPipeline("kubefit-livecatalog", "v1", runtime.PipelineOptions{
		PerRetry: []policy.Policy{runtime.NewBearerTokenPolicy(cred, []string{scope}, nil)},
	}, opts)
	return s
}

func (s *azureSource) Cloud() catalog.Cloud { return catalog.Azure }

func (s *azureSource) Describe() string {
	where := s.cfg.Location
	if where == "" {
		where = "an unset location"
	}
	if s.cfg.Endpoint != DefaultAzureEndpoint {
		where += " via the configured endpoint"
	}
	return "Microsoft.Compute/skus in " + where
}

// maxAzurePages bounds the nextLink paging.
const maxAzurePages = 100

// azureSKUPage is one page of the Resource SKUs list.
type azureSKUPage struct {
	Value    []azureSKU `json:"value"`
	NextLink string     `json:"nextLink"`
}

type azureSKU struct {
	ResourceType string   `json:"resourceType"`
	Name         string   `json:"name"`
	Family       string   `json:"family"`
	Locations    []string `json:"locations"`
	Capabilities []struct {
		Name  string `json:"name"`
		Value string `json:"value"`
	} `json:"capabilities"`
	Restrictions []struct {
		Type       string   `json:"type"`
		Values     []string `json:"values"`
		ReasonCode string   `json:"reasonCode"`
	} `json:"restrictions"`
}

func (s *azureSource) Fetch(ctx context.Context) ([]catalog.InstanceType, map[string]string, error) {
	if s.err != nil {
		return nil, nil, s.err
	}
	q := url.Values{}
	q.Set("api-version", azureSKUAPIVersion)
	q.Set("$filter", fmt.Sprintf("location eq '%s'", s.cfg.Location))
	next := s.cfg.Endpoint + "/subscriptions/" + url.PathEscape(s.cfg.SubscriptionID) +
		"/providers/Microsoft.Compute/skus?" + strings.ReplaceAll(q.Encode(), "+", "%20")
	var out []catalog.InstanceType
	unavailable := map[string]string{}
	for page := 0; next != ""; page++ {
		if page == maxAzurePages {
			return nil, nil, fmt.Errorf("more than %d pages", maxAzurePages)
		}
		p, err := s.page(ctx, next)
		if err != nil {
			return nil, nil, err
		}
		for _, sku := range p.Value {
			if !strings.EqualFold(sku.ResourceType, "virtualMachines") || sku.Name == "" {
				continue
			}
			if why := s.restricted(sku); why != "" {
				unavailable[sku.Name] = why
				continue
			}
			it, err := fromSKU(sku)
			if err != nil {
				return nil, nil, fmt.Errorf("malformed response: %v", err)
			}
			out = append(out, it)
		}
		next = p.NextLink
		if next != "" && !strings.HasPrefix(next, s.cfg.Endpoint+"/") {
			return nil, nil, errors.New("malformed response: nextLink leaves the configured endpoint")
		}
	}
	return out, unavailable, nil
}

// page fetches and decodes one page.
func (s *azureSource) page(ctx context.Context, link string) (*azureSKUPage, error) {
	req, err := runtime.NewRequest(ctx, http.MethodGet, link)
	if err != nil {
		return nil, err
	}
	req.Raw().Header.Set("Accept", "application/json")
	resp, err := s.pipeline.Do(req)
	if err != nil {
		return nil, azureTransportCause(err)
	}
	defer resp.Body.Close()
	if !runtime.HasStatusCode(resp, http.StatusOK) {
		return nil, azureStatusCause(resp)
	}
	var p azureSKUPage
	if err := runtime.UnmarshalAsJSON(resp, &p); err != nil {
		return nil, fmt.Errorf("malformed response: %v", firstLine(err.Error()))
	}
	return &p, nil
}

// azureStatusCause is the HTTP status and ARM error code and message of a failed response (never its URL,
// which names the subscription).
func azureStatusCause(resp *http.Response) error {
	var body struct {
		Error struct {
			Code    string `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if b, err := runtime.Payload(resp); err == nil {
		_ = json.Unmarshal(b, &body)
	}
	msg := fmt.Sprintf("HTTP %d", resp.StatusCode)
	if body.Error.Code != "" {
		msg += " " + body.Error.Code
	}
	if body.Error.Message != "" {
		msg += ": " + firstLine(body.Error.Message)
	}
	return errors.New(msg)
}

// azureTransportCause keeps the gist of a pipeline error: credential failures and transport errors lose
// their request details.
func azureTransportCause(err error) error {
	var ce *CredentialsError
	if errors.As(err, &ce) {
		return ce
	}
	var auth *azidentity.AuthenticationFailedError
	if errors.As(err, &auth) {
		return errors.New("azure authentication failed: " + firstLine(auth.Error()))
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return errors.New(firstLine(err.Error()))
}

// restricted returns why the SKU cannot be used in the source's location, or "".
func (s *azureSource) restricted(sku azureSKU) string {
	for _, r := range sku.Restrictions {
		if !strings.EqualFold(r.Type, "Location") {
			continue // zone restrictions leave the size usable in the location
		}
		for _, v := range r.Values {
			if strings.EqualFold(v, s.cfg.Location) {
				return "restricted in " + s.cfg.Location + ": " + r.ReasonCode
			}
		}
	}
	return ""
}

// fromSKU maps a virtualMachines resource SKU to a catalog row, the way the embedded catalog's generator
// reads the same capabilities.
func fromSKU(sku azureSKU) (catalog.InstanceType, error) {
	caps := map[string]string{}
	for _, c := range sku.Capabilities {
		caps[c.Name] = c.Value
	}
	it := catalog.InstanceType{Cloud: catalog.Azure, Name: sku.Name, Family: sku.Family, Sources: "live-arm-skus"}
	ints := []struct {
		name string
		p    *int
	}{
		{"vCPUs", &it.VCPUQuota}, {"vCPUsAvailable", &it.VCPU}, {"GPUs", &it.GPUCount},
		{"MaxDataDiskCount", &it.MaxDataDisks}, {"UncachedDiskIOPS", &it.UncachedDiskIOPS},
	}
	for _, f := range ints {
		if v, ok := caps[f.name]; ok {
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 {
				return it, fmt.Errorf("%s %s = %q is not a count", sku.Name, f.name, v)
			}
			*f.p = n
		}
	}
	if it.VCPU == 0 {
		it.VCPU = it.VCPUQuota
	}
	if v, ok := caps["MemoryGB"]; ok {
		gb, err := strconv.ParseFloat(v, 64)
		if err != nil || gb < 0 || gb > 1<<30 {
			return it, fmt.Errorf("%s MemoryGB = %q is not a size", sku.Name, v)
		}
		it.MemoryMiB = int64(math.Round(gb * 1024))
	}
	if v, ok := caps["UncachedDiskBytesPerSecond"]; ok {
		b, err := strconv.ParseInt(v, 10, 64)
		if err != nil || b < 0 {
			return it, fmt.Errorf("%s UncachedDiskBytesPerSecond = %q is not a rate", sku.Name, v)
		}
		it.UncachedDiskMBps = int(b / 1_000_000)
	}
	switch strings.ToLower(caps["CpuArchitectureType"]) {
	case "x64":
		it.Architecture = catalog.ArchAMD64
	case "arm64":
		it.Architecture = catalog.ArchARM64
	}
	f := strings.ToLower(sku.Family)
	it.Burstable = strings.HasPrefix(f, "standardb") && strings.HasSuffix(f, "family")
	return it, nil
}

func firstEnv(names ...string) string {
	for _, n := range names {
		if v := os.Getenv(n); v != "" {
			return v
		}
	}
	return ""
}

// firstLine returns s up to its first line break, at most 300 bytes.
func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}
