package livecatalog

import (
	"context"
	"errors"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/azidentity"
	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
)

// CredentialsError is a lookup that found no credentials in the SDK's default chain. Its Error says so in
// one sentence, with the chain tried and how to set credentials; Unwrap returns the SDK's own error (a long
// chain of wrapped causes), which callers keep for debug logs.
type CredentialsError struct {
	Cloud catalog.Cloud
	Err   error
}

// credentialsAdvice is, per cloud, the chain the SDK tries and how to give it credentials.
var credentialsAdvice = map[catalog.Cloud]string{
	catalog.AWS: "no AWS credentials found: the AWS SDK's default chain was tried (the AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY " +
		"environment variables, the shared config and credentials files for AWS_PROFILE or the aws.profile setting, SSO, web identity, " +
		"container credentials and the EC2 instance role); set those variables, name a profile (run aws sso login for an SSO profile), " +
		"or run Terraform where an instance role is attached",
	catalog.Azure: "no Azure credentials found: azidentity's default chain was tried (the AZURE_CLIENT_ID, AZURE_TENANT_ID and " +
		"AZURE_CLIENT_SECRET environment variables, workload identity, managed identity, the Azure CLI and the Azure Developer CLI); " +
		"set those variables, run az login, or run Terraform where a managed identity is assigned",
}

// Error returns the one-sentence explanation.
func (e *CredentialsError) Error() string { return credentialsAdvice[e.Cloud] }

// Unwrap returns the SDK's error.
func (e *CredentialsError) Unwrap() error { return e.Err }

// awsCredentialsProbe marks a failure of the AWS credential chain as a *CredentialsError, so the fetch can
// tell it from an API or transport failure (the SDK gives it no type of its own).
type awsCredentialsProbe struct{ inner aws.CredentialsProvider }

func (p awsCredentialsProbe) Retrieve(ctx context.Context) (aws.Credentials, error) {
	c, err := p.inner.Retrieve(ctx)
	if err != nil && ctx.Err() == nil {
		return c, &CredentialsError{Cloud: catalog.AWS, Err: err}
	}
	return c, err
}

// azureCredentialsProbe marks a token failure that is not an authentication refused by Microsoft Entra ID
// (no credential in the chain could be used) as a *CredentialsError.
type azureCredentialsProbe struct{ inner azcore.TokenCredential }

func (p azureCredentialsProbe) GetToken(ctx context.Context, opts policy.TokenRequestOptions) (azcore.AccessToken, error) {
	t, err := p.inner.GetToken(ctx, opts)
	var auth *azidentity.AuthenticationFailedError
	if err != nil && ctx.Err() == nil && !errors.As(err, &auth) {
		return t, &CredentialsError{Cloud: catalog.Azure, Err: err}
	}
	return t, err
}
