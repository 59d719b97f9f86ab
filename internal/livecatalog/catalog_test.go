package livecatalog

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"

	"github.com/kubefit/terraform-provider-kubefit/internal/livecatalog/livefake"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
)

const fakeSecret = "fake-secret-key-must-not-leak"

// awsEnv gives the SDK static credentials from the environment and keeps it away from real config files and
// the instance metadata service.
func awsEnv(t *testing.T) {
	t.Setenv("AWS_ACCESS_KEY_ID", "AKIAFAKEFAKEFAKE")
	t.Setenv("AWS_SECRET_ACCESS_KEY", fakeSecret)
	t.Setenv("AWS_SESSION_TOKEN", "")
	t.Setenv("AWS_PROFILE", "")
	t.Setenv("AWS_CONFIG_FILE", t.TempDir()+"/none")
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", t.TempDir()+"/none")
	t.Setenv("AWS_EC2_METADATA_DISABLED", "true")
	t.Setenv("AWS_ENDPOINT_URL", "")
	t.Setenv("AWS_ENDPOINT_URL_EC2", "")
}

// embeddedRow returns a row of the embedded catalog, renamed when rename is not "".
func embeddedRow(t *testing.T, cloud catalog.Cloud, name, rename string) catalog.InstanceType {
	t.Helper()
	it, err := catalog.Lookup(cloud, name)
	if err != nil {
		t.Fatal(err)
	}
	if rename != "" {
		it.Name = rename
	}
	return it
}

// newAWSFake starts a fake EC2 endpoint serving types and returns it with a source pointed at it.
func newAWSFake(t *testing.T, types ...catalog.InstanceType) (*livefake.EC2, Source) {
	t.Helper()
	awsEnv(t)
	fake := &livefake.EC2{Types: types}
	srv := httptest.NewServer(fake)
	t.Cleanup(srv.Close)
	src := NewAWSSource(context.Background(), AWSConfig{Region: "us-east-1", Endpoint: srv.URL, MaxRetries: 3, maxBackoff: 20 * time.Millisecond})
	return fake, src
}

// comparable clears what a live row cannot carry (price, sources) so rows can be compared.
func comparable(it catalog.InstanceType) catalog.InstanceType {
	it.PriceUSDPerHour, it.PriceRegion, it.PriceDate, it.Sources = 0, "", "", ""
	return it
}

func TestAWSLiveRowsEqualEmbedded(t *testing.T) {
	names := []string{"m5.large", "t3a.medium", "p5.48xlarge", "c5d.4xlarge", "g4dn.xlarge", "a1.2xlarge", "m5.metal"}
	var rows []catalog.InstanceType
	for _, n := range names {
		rows = append(rows, embeddedRow(t, catalog.AWS, n, ""))
	}
	fake, src := newAWSFake(t, rows...)
	c, err := New(Live, 0, src)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range rows {
		got, warns, err := c.Lookup(context.Background(), catalog.AWS, want.Name)
		if err != nil || len(warns) != 0 {
			t.Fatalf("Lookup(%s) = %v, %v", want.Name, warns, err)
		}
		if got.Sources != "live-ec2" || got.PriceUSDPerHour != 0 {
			t.Errorf("%s: sources %q price %v, want live-ec2 and no price", want.Name, got.Sources, got.PriceUSDPerHour)
		}
		if comparable(got) != comparable(want) {
			t.Errorf("%s:\n got %+v\nwant %+v", want.Name, comparable(got), comparable(want))
		}
	}
	if got, want := fake.Calls(), 4; got != want { // 7 types, 2 a page
		t.Errorf("calls = %d, want %d (one paged fetch)", got, want)
	}
	list, err := c.InstanceTypes(context.Background(), catalog.AWS)
	if err != nil || len(list) != len(rows) {
		t.Fatalf("InstanceTypes = %d rows, %v", len(list), err)
	}
}

func TestPreferEmbeddedResolvesOnlyMissingNamesLive(t *testing.T) {
	fake, src := newAWSFake(t, embeddedRow(t, catalog.AWS, "m5.large", "m5.flex9"), embeddedRow(t, catalog.AWS, "m5.large", ""))
	c, _ := New(PreferEmbedded, 0, src)
	ctx := context.Background()
	if _, err := c.InstanceType(ctx, catalog.AWS, "m5.large"); err != nil || fake.Calls() != 0 {
		t.Fatalf("embedded name: err %v, calls %d; want no call", err, fake.Calls())
	}
	got, err := c.InstanceType(ctx, catalog.AWS, "m5.flex9")
	if err != nil {
		t.Fatal(err)
	}
	want := embeddedRow(t, catalog.AWS, "m5.large", "m5.flex9")
	want.Family = "m5"
	if comparable(got) != comparable(want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
	_, err = c.InstanceType(ctx, catalog.AWS, "m5.nowhere")
	var nf *catalog.NotFoundError
	if !errors.As(err, &nf) || !strings.Contains(err.Error(), "does not offer it either") {
		t.Errorf("unknown name: %v, want a NotFoundError naming the live source", err)
	}
	if fake.Calls() != 1 {
		t.Errorf("calls = %d, want 1", fake.Calls())
	}
	list, _ := c.InstanceTypes(ctx, catalog.AWS)
	if n := len(catalog.All(catalog.AWS)); len(list) != n+1 {
		t.Errorf("listing has %d rows, want embedded %d + 1 live-only", len(list), n)
	}
}

func TestEmbeddedModeMakesNoCall(t *testing.T) {
	awsEnv(t)
	srv := httptest.NewServer(livefake.Forbidden(t.Errorf))
	defer srv.Close()
	src := NewAWSSource(context.Background(), AWSConfig{Region: "us-east-1", Endpoint: srv.URL, MaxRetries: -1})
	c, _ := New(Embedded, 0, src)
	if _, err := c.InstanceType(context.Background(), catalog.AWS, "m5.flex9"); err == nil {
		t.Error("embedded mode found a live-only name")
	}
	if _, err := c.InstanceTypes(context.Background(), catalog.AWS); err != nil {
		t.Error(err)
	}
}

func TestAWSRetriesThrottlingAndUnavailable(t *testing.T) {
	fake, src := newAWSFake(t, embeddedRow(t, catalog.AWS, "m5.large", "m5.flex9"))
	fake.Script(
		livefake.Reply{Status: http.StatusServiceUnavailable, Header: map[string]string{"Retry-After": "0", "X-Amz-Retry-After": "10"},
			Body: livefake.EC2Error("Unavailable", "The server is unavailable")},
		livefake.Reply{Status: http.StatusTooManyRequests, Header: map[string]string{"Retry-After": "0"},
			Body: livefake.EC2Error("RequestLimitExceeded", "Request limit exceeded.")},
	)
	c, _ := New(Live, 0, src)
	if _, err := c.InstanceType(context.Background(), catalog.AWS, "m5.flex9"); err != nil {
		t.Fatal(err)
	}
	if fake.Calls() != 3 {
		t.Errorf("calls = %d, want 3 (two retried failures, then the page)", fake.Calls())
	}
}

// failureCases are scripted failures of the first request; each must fail the fetch with a cause that names
// it and leaks nothing.
func TestAWSFailures(t *testing.T) {
	cases := []struct {
		name    string
		reply   livefake.Reply
		timeout time.Duration
		want    string
	}{
		{"auth", livefake.Reply{Status: http.StatusUnauthorized, Body: livefake.EC2Error("AuthFailure", "AWS was not able to validate the provided access credentials")}, 0, "HTTP 401 AuthFailure"},
		{"malformed", livefake.Reply{Status: http.StatusOK, Body: "<DescribeInstanceTypesResponse><instanceTypeSet><item><vCpuInfo><defaultVCpus>two"}, 0, "deserializ"},
		{"timeout", livefake.Reply{Status: http.StatusOK, Delay: 5 * time.Second}, 150 * time.Millisecond, "timed out after 150ms"},
		{"throttled", livefake.Reply{Status: http.StatusServiceUnavailable, Body: livefake.EC2Error("Unavailable", "down")}, 0, "Unavailable"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fake, src := newAWSFake(t, embeddedRow(t, catalog.AWS, "m5.large", "m5.flex9"))
			for range 5 { // more than the retries
				fake.Script(tc.reply)
			}
			live, _ := New(Live, tc.timeout, src)
			_, err := live.InstanceType(context.Background(), catalog.AWS, "m5.large")
			var le *Error
			if !errors.As(err, &le) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("live: %v, want an *Error containing %q", err, tc.want)
			}
			if s := err.Error(); strings.Contains(s, fakeSecret) || strings.Contains(s, "Signature=") || strings.Contains(s, "AKIAFAKE") {
				t.Errorf("error leaks credentials: %s", s)
			}
			calls := fake.Calls()
			if _, err2 := live.InstanceType(context.Background(), catalog.AWS, "m5.xlarge"); err2 == nil || fake.Calls() != calls {
				t.Errorf("second lookup: %v, calls %d → %d; want the cached failure", err2, calls, fake.Calls())
			}
			// The same failure in prefer_embedded: embedded names still resolve, an unknown one is not found
			// with a warning naming the cause.
			fake2, src2 := newAWSFake(t, embeddedRow(t, catalog.AWS, "m5.large", "m5.flex9"))
			for range 5 {
				fake2.Script(tc.reply)
			}
			prefer, _ := New(PreferEmbedded, tc.timeout, src2)
			if _, err := prefer.InstanceType(context.Background(), catalog.AWS, "m5.large"); err != nil {
				t.Errorf("prefer_embedded, embedded name: %v", err)
			}
			_, warns, err := prefer.Lookup(context.Background(), catalog.AWS, "m5.flex9")
			var nf *catalog.NotFoundError
			if !errors.As(err, &nf) || len(warns) != 1 || !strings.Contains(warns[0], tc.want) {
				t.Errorf("prefer_embedded, live-only name: %v, warnings %q; want not found and a warning naming %q", err, warns, tc.want)
			}
			list, warns, err := prefer.List(context.Background(), catalog.AWS)
			if err != nil || len(list) != len(catalog.All(catalog.AWS)) || len(warns) != 1 {
				t.Errorf("prefer_embedded listing: %d rows, %q, %v; want the embedded rows and a warning", len(list), warns, err)
			}
		})
	}
}

func TestLiveModeFallsBackForTypesNotOffered(t *testing.T) {
	_, src := newAWSFake(t, embeddedRow(t, catalog.AWS, "m5.large", "m5.flex9"))
	c, _ := New(Live, 0, src)
	it, warns, err := c.Lookup(context.Background(), catalog.AWS, "m5.large")
	if err != nil || it.Name != "m5.large" || len(warns) != 1 || !strings.Contains(warns[0], "not offered by ec2:DescribeInstanceTypes in us-east-1") {
		t.Fatalf("Lookup = %s, %q, %v; want the embedded row with a warning", it.Name, warns, err)
	}
	// GCP has no live source: embedded, silently.
	if _, warns, err := c.Lookup(context.Background(), catalog.GCP, "n2-standard-4"); err != nil || warns != nil {
		t.Errorf("gcp: %q, %v", warns, err)
	}
	if !strings.Contains(c.Sources(catalog.AWS), "live ec2:DescribeInstanceTypes in us-east-1") || strings.Contains(c.Sources(catalog.GCP), "live") {
		t.Errorf("Sources: aws %q, gcp %q", c.Sources(catalog.AWS), c.Sources(catalog.GCP))
	}
}

// TestConcurrentLookupsShareOneFetch is meant for -race: many lookups, one paged fetch.
func TestConcurrentLookupsShareOneFetch(t *testing.T) {
	rows := []catalog.InstanceType{embeddedRow(t, catalog.AWS, "m5.large", "m5.flex9"), embeddedRow(t, catalog.AWS, "c5.xlarge", "c5.flex9")}
	fake, src := newAWSFake(t, rows...)
	fake.PageSize = 1
	fake.Script(livefake.Reply{Status: http.StatusServiceUnavailable, Delay: 50 * time.Millisecond, Body: livefake.EC2Error("Unavailable", "slow")})
	c, _ := New(PreferEmbedded, 0, src)
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for i := range 64 {
		wg.Go(func() {
			name := rows[i%2].Name
			if i%3 == 0 {
				name = "m5.large"
			}
			if _, err := c.InstanceType(context.Background(), catalog.AWS, name); err != nil {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if fake.Calls() != 3 { // one retried 503, then two pages
		t.Errorf("calls = %d, want 3", fake.Calls())
	}
}

func TestCallerCancellation(t *testing.T) {
	fake, src := newAWSFake(t, embeddedRow(t, catalog.AWS, "m5.large", "m5.flex9"))
	fake.Script(livefake.Reply{Status: http.StatusOK, Delay: 2 * time.Second})
	c, _ := New(Live, 0, src)
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(50 * time.Millisecond); cancel() }()
	// Without cancellation the call would wait for the fake's (empty, failing) answer instead.
	_, err := c.InstanceType(ctx, catalog.AWS, "m5.flex9")
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

func TestAWSConfigProblemsFailTheFetch(t *testing.T) {
	awsEnv(t)
	t.Setenv("AWS_REGION", "")
	t.Setenv("AWS_DEFAULT_REGION", "")
	c, _ := New(Live, 0, NewAWSSource(context.Background(), AWSConfig{MaxRetries: -1}))
	if _, err := c.InstanceType(context.Background(), catalog.AWS, "m5.large"); err == nil || !strings.Contains(err.Error(), "no AWS region") {
		t.Errorf("err = %v, want no AWS region", err)
	}
}

// fakeCredential is an azcore.TokenCredential for tests.
type fakeCredential struct {
	token string
	err   error
}

func (f fakeCredential) GetToken(context.Context, policy.TokenRequestOptions) (azcore.AccessToken, error) {
	if f.err != nil {
		return azcore.AccessToken{}, f.err
	}
	return azcore.AccessToken{Token: f.token, ExpiresOn: time.Now().Add(time.Hour)}, nil
}

func newARMFake(t *testing.T, cred azcore.TokenCredential, types ...catalog.InstanceType) (*livefake.ARM, Source) {
	t.Helper()
	fake := &livefake.ARM{SubscriptionID: "00000000-1111-2222-3333-444444444444", Location: "eastus", Token: "tok-123", Types: types}
	srv := httptest.NewTLSServer(fake)
	t.Cleanup(srv.Close)
	fake.BaseURL = srv.URL
	src := NewAzureSource(AzureConfig{SubscriptionID: fake.SubscriptionID, Location: "eastus", Endpoint: srv.URL, MaxRetries: 3,
		Credential: cred, Transport: srv.Client(), retryDelay: 10 * time.Millisecond})
	return fake, src
}

func TestAzureLiveRowsEqualEmbedded(t *testing.T) {
	names := []string{"Standard_DS2_v2", "Standard_B2s", "Standard_E8-2s_v3", "Standard_NC6s_v3", "Standard_D4ps_v5"}
	var rows []catalog.InstanceType
	for _, n := range names {
		rows = append(rows, embeddedRow(t, catalog.Azure, n, ""))
	}
	restricted := embeddedRow(t, catalog.Azure, "Standard_D2s_v5", "")
	fake, src := newARMFake(t, fakeCredential{token: "tok-123"}, append(rows, restricted)...)
	fake.Restricted = map[string]string{restricted.Name: "NotAvailableForSubscription"}
	c, _ := New(Live, 0, src)
	for _, want := range rows {
		got, err := c.InstanceType(context.Background(), catalog.Azure, strings.ToLower(want.Name))
		if err != nil {
			t.Fatal(err)
		}
		// Live rows carry no burst figures (the SKU list has none).
		want.UncachedDiskBurstIOPS, want.UncachedDiskBurstMBps = 0, 0
		if comparable(got) != comparable(want) {
			t.Errorf("%s:\n got %+v\nwant %+v", want.Name, comparable(got), comparable(want))
		}
	}
	_, warns, err := c.Lookup(context.Background(), catalog.Azure, restricted.Name)
	if err != nil || len(warns) != 1 || !strings.Contains(warns[0], "NotAvailableForSubscription") {
		t.Errorf("restricted SKU: %q, %v; want the embedded row with a warning naming the restriction", warns, err)
	}
	if fake.Calls() != 3 { // 6 SKUs, 2 a page
		t.Errorf("calls = %d, want 3", fake.Calls())
	}
}

func TestAzureRetriesWithRetryAfter(t *testing.T) {
	fake, src := newARMFake(t, fakeCredential{token: "tok-123"}, embeddedRow(t, catalog.Azure, "Standard_DS2_v2", "Standard_DS2_v9"))
	fake.Script(
		livefake.Reply{Status: http.StatusTooManyRequests, Header: map[string]string{"Retry-After": "1"}, Body: livefake.ARMError("TooManyRequests", "slow down")},
		livefake.Reply{Status: http.StatusServiceUnavailable, Header: map[string]string{"Retry-After": "0"}, Body: livefake.ARMError("ServiceUnavailable", "later")},
	)
	c, _ := New(PreferEmbedded, 0, src)
	start := time.Now()
	it, err := c.InstanceType(context.Background(), catalog.Azure, "standard_ds2_v9")
	if err != nil || it.Name != "Standard_DS2_v9" {
		t.Fatalf("Lookup = %q, %v", it.Name, err)
	}
	if time.Since(start) < time.Second {
		t.Error("the Retry-After of 1 s was not honoured")
	}
	if fake.Calls() != 3 {
		t.Errorf("calls = %d, want 3", fake.Calls())
	}
}

func TestAzureFailures(t *testing.T) {
	cases := []struct {
		name  string
		cred  azcore.TokenCredential
		reply *livefake.Reply
		want  string
	}{
		{"token", fakeCredential{err: errors.New("no credential in the chain")}, nil, "no Azure credentials found"},
		{"unauthorized", fakeCredential{token: "wrong"}, nil, "HTTP 401 AuthenticationFailed"},
		{"malformed", fakeCredential{token: "tok-123"}, &livefake.Reply{Status: http.StatusOK, Body: `{"value": [{"name": `}, "malformed response"},
		{"bad capability", fakeCredential{token: "tok-123"}, &livefake.Reply{Status: http.StatusOK,
			Body: `{"value":[{"resourceType":"virtualMachines","name":"Standard_X1","capabilities":[{"name":"vCPUs","value":"many"}]}]}`}, "is not a count"},
		{"forbidden", fakeCredential{token: "tok-123"}, &livefake.Reply{Status: http.StatusForbidden, Body: livefake.ARMError("AuthorizationFailed", "The client does not have authorization")}, "HTTP 403 AuthorizationFailed"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fake, src := newARMFake(t, tc.cred, embeddedRow(t, catalog.Azure, "Standard_DS2_v2", ""))
			if tc.reply != nil {
				fake.Script(*tc.reply)
			}
			c, _ := New(Live, 0, src)
			_, err := c.InstanceType(context.Background(), catalog.Azure, "Standard_DS2_v2")
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
			if strings.Contains(err.Error(), fake.SubscriptionID) || strings.Contains(err.Error(), "tok-123") {
				t.Errorf("error leaks the subscription or token: %v", err)
			}
		})
	}
}

// TestAzureTransportErrorNamesNoSubscription: a request that cannot reach the endpoint fails with the
// transport's cause, without the request URL (which names the subscription), and the message ends
// without a full stop of its own.
func TestAzureTransportErrorNamesNoSubscription(t *testing.T) {
	srv := httptest.NewTLSServer(http.NotFoundHandler())
	endpoint, client := srv.URL, srv.Client()
	srv.Close()
	const sub = "00000000-1111-2222-3333-444444444444"
	c, _ := New(Live, 0, NewAzureSource(AzureConfig{SubscriptionID: sub, Location: "eastus", Endpoint: endpoint,
		MaxRetries: 0, Credential: fakeCredential{token: "tok-123"}, Transport: client}))
	_, err := c.InstanceType(context.Background(), catalog.Azure, "Standard_DS2_v2")
	var le *Error
	if !errors.As(err, &le) || !strings.Contains(err.Error(), "connect") {
		t.Fatalf("err = %v, want a *livecatalog.Error naming the connection failure", err)
	}
	if strings.Contains(err.Error(), sub) || strings.Contains(err.Error(), "tok-123") || strings.HasSuffix(err.Error(), ".") {
		t.Errorf("err = %q: names the subscription or token, or ends in a full stop", err)
	}
}

func TestAzureConfigProblems(t *testing.T) {
	t.Setenv("AZURE_SUBSCRIPTION_ID", "")
	t.Setenv("ARM_SUBSCRIPTION_ID", "")
	for cfg, want := range map[*AzureConfig]string{
		{Location: "eastus", Credential: fakeCredential{}}:                                                      "no Azure subscription",
		{SubscriptionID: "s", Credential: fakeCredential{}}:                                                     "no Azure location",
		{SubscriptionID: "s", Location: "eastus", Endpoint: "http://127.0.0.1:1", Credential: fakeCredential{}}: "https URL",
	} {
		_, _, err := NewAzureSource(*cfg).Fetch(context.Background())
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%+v: %v, want %q", *cfg, err, want)
		}
	}
}

// TestDumpColumnsMatchEmbeddedFiles: a dump's columns are the embedded data file's, less the price.
func TestDumpColumnsMatchEmbeddedFiles(t *testing.T) {
	_, src := newAWSFake(t, embeddedRow(t, catalog.AWS, "m5.large", "m5.flex9"), embeddedRow(t, catalog.AWS, "c5.xlarge", ""))
	var b strings.Builder
	if err := Dump(context.Background(), src, &b); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile("../planner/catalog/data/aws.tsv")
	if err != nil {
		t.Fatal(err)
	}
	var embeddedCols, dumpCols string
	for line := range strings.SplitSeq(string(data), "\n") {
		if strings.HasPrefix(line, "name\t") {
			embeddedCols = strings.Replace(line, "\tprice_usd_hour", "", 1)
			break
		}
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	for _, l := range lines {
		if strings.HasPrefix(l, "name\t") {
			dumpCols = l
		}
	}
	if dumpCols != embeddedCols || embeddedCols == "" {
		t.Errorf("dump columns\n%s\nwant\n%s", dumpCols, embeddedCols)
	}
	if last := lines[len(lines)-1]; !strings.HasPrefix(last, "m5.flex9\tm5\t2\t8192\tx86_64") {
		t.Errorf("last row %q", last)
	}
}
