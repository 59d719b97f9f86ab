package livecatalog

import (
	"context"
	"errors"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/kubefit/terraform-provider-kubefit/internal/livecatalog/livefake"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
)

// TestMissingCredentialsInOneSentence is issue 21's class 8: a live lookup without credentials says what
// failed in one sentence (no credentials found, which chain was tried, how to set them), without the SDK's
// internals; the SDK's own text stays reachable (Unwrap) for debug logs.
func TestMissingCredentialsInOneSentence(t *testing.T) {
	t.Run("aws", func(t *testing.T) {
		awsEnv(t)
		t.Setenv("AWS_ACCESS_KEY_ID", "")
		t.Setenv("AWS_SECRET_ACCESS_KEY", "")
		srv := httptest.NewServer(&livefake.EC2{})
		t.Cleanup(srv.Close)
		c, _ := New(Live, 0, NewAWSSource(context.Background(), AWSConfig{Region: "us-east-1", Endpoint: srv.URL, MaxRetries: 0}))
		_, err := c.InstanceType(context.Background(), catalog.AWS, "m5.large")
		checkCredentialsError(t, err, "no AWS credentials found", "AWS_ACCESS_KEY_ID", "AWS_PROFILE", "instance role")
	})
	t.Run("azure", func(t *testing.T) {
		sdk := errors.New("DefaultAzureCredential: failed to acquire a token.\nAttempted credentials:\n\tEnvironmentCredential: missing environment variable AZURE_TENANT_ID")
		_, src := newARMFake(t, fakeCredential{err: sdk}, embeddedRow(t, catalog.Azure, "Standard_DS2_v2", ""))
		c, _ := New(Live, 0, src)
		_, err := c.InstanceType(context.Background(), catalog.Azure, "Standard_DS2_v2")
		checkCredentialsError(t, err, "no Azure credentials found", "AZURE_CLIENT_ID", "az login", "managed identity")
		if !errors.Is(err, sdk) {
			t.Errorf("the SDK's error is not kept for debug logs: %v", err)
		}
	})
}

func checkCredentialsError(t *testing.T, err error, want ...string) {
	t.Helper()
	var ce *CredentialsError
	if !errors.As(err, &ce) {
		t.Fatalf("err = %v, want a *CredentialsError", err)
	}
	msg := err.Error()
	for _, w := range want {
		if !strings.Contains(msg, w) {
			t.Errorf("message %q lacks %q", msg, w)
		}
	}
	for _, internal := range []string{"get identity", "operation error", "IMDS", "failed to refresh", "DefaultAzureCredential", "\n"} {
		if strings.Contains(msg, internal) {
			t.Errorf("message %q shows SDK internals (%q)", msg, internal)
		}
	}
	if ce.Unwrap() == nil || ce.Unwrap().Error() == "" {
		t.Errorf("no SDK error kept for debug logs")
	}
}
