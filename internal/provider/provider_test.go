package provider

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
)

// TestMain makes sure terraform-plugin-testing is given a CLI, so it never falls back to downloading one
// (hc-install asks checkpoint-api.hashicorp.com for the latest Terraform when TF_ACC_TERRAFORM_PATH is unset
// and no terraform is on PATH). `make test` sets everything through .ci/terraform-cli.sh; this covers a plain
// `go test`: TF_ACC_TERRAFORM_PATH, else terraform or tofu on PATH, else the OpenTofu that `make` built.
func TestMain(m *testing.M) {
	os.Setenv("CHECKPOINT_DISABLE", "1")
	if os.Getenv("TF_ACC_TERRAFORM_PATH") == "" {
		cli := ""
		for _, name := range []string{"terraform", "tofu"} {
			if p, err := exec.LookPath(name); err == nil {
				cli = p
				break
			}
		}
		if built, err := filepath.Abs(filepath.Join("..", "..", ".build", "tofu")); cli == "" && err == nil {
			if fi, err := os.Stat(built); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
				cli = built
			}
		}
		if cli == "" {
			fmt.Fprintln(os.Stderr, "no Terraform-compatible CLI: set TF_ACC_TERRAFORM_PATH, put terraform or tofu "+
				"on PATH, or run `make test`, which builds OpenTofu into .build/ when there is none")
			os.Exit(1)
		}
		os.Setenv("TF_ACC_TERRAFORM_PATH", cli)
		if strings.Contains(filepath.Base(cli), "tofu") && os.Getenv("TF_ACC_PROVIDER_HOST") == "" {
			os.Setenv("TF_ACC_PROVIDER_HOST", "registry.opentofu.org")
		}
	}
	os.Exit(m.Run())
}

// testAccProtoV6ProviderFactories serves the provider in-process to the real Terraform CLI in acceptance tests.
var testAccProtoV6ProviderFactories = map[string]func() (tfprotov6.ProviderServer, error){
	"kubefit": NewServer("test"),
}

// badInput is one rejected configuration and the error it must produce.
type badInput struct{ config, err string }

// testBadInputs runs every bad configuration as an ExpectError step, then okConfig, so an error step is
// never the last one.
func testBadInputs(t *testing.T, okConfig string, cases []badInput) {
	t.Helper()
	steps := make([]resource.TestStep, 0, len(cases)+1)
	for _, c := range cases {
		steps = append(steps, resource.TestStep{Config: c.config, ExpectError: regexp.MustCompile(c.err)})
	}
	steps = append(steps, resource.TestStep{Config: okConfig})
	resource.UnitTest(t, resource.TestCase{ProtoV6ProviderFactories: testAccProtoV6ProviderFactories, Steps: steps})
}
