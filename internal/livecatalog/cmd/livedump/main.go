// Command livedump writes one cloud's live instance-type list as a TSV in the embedded catalog's column
// format, with the same clients the provider uses (credentials from each SDK's standard chain):
//
//	go run ./internal/livecatalog/cmd/livedump -cloud aws -region us-east-1 -out aws-live.tsv
//	go run ./internal/livecatalog/cmd/livedump -cloud azure -location eastus -subscription <id> -out azure-live.tsv
//
// The output is input for refreshing internal/planner/catalog/data: the catalog generator's -live flag adds
// the rows of types the shared tables lack and reports, field by field, where the shared rows differ from
// the live list (the shared rows are kept). From internal/planner/catalog:
//
//	go run ../../livecatalog/cmd/livedump -cloud aws -region us-east-1 -out live/aws.tsv
//	go run ./gen -sources ../../sources -out data -live aws=live/aws.tsv
//
// See the generator's package documentation (internal/planner/catalog/gen) for the merge and for
// committing the result. The "# cloud", "# api", "# dumped" and "# types" header lines are what the
// generator checks; do not edit them.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/kubefit/terraform-provider-kubefit/internal/livecatalog"
)

func main() {
	cloud := flag.String("cloud", "", "aws or azure")
	region := flag.String("region", "", "aws: region (default: the SDK chain)")
	profile := flag.String("profile", "", "aws: shared config profile")
	endpoint := flag.String("endpoint", "", "endpoint override (EC2 or ARM)")
	location := flag.String("location", "", "azure: location, such as eastus")
	subscription := flag.String("subscription", "", "azure: subscription ID (default AZURE_SUBSCRIPTION_ID)")
	tenant := flag.String("tenant", "", "azure: tenant for the default credential chain")
	out := flag.String("out", "-", "output file, - for standard output")
	timeout := flag.Duration("timeout", 2*livecatalog.DefaultTimeout, "bound on the whole fetch")
	flag.Parse()
	ctx, cancel := context.WithTimeout(context.Background(), *timeout)
	defer cancel()
	var src livecatalog.Source
	switch *cloud {
	case "aws":
		src = livecatalog.NewAWSSource(ctx, livecatalog.AWSConfig{Region: *region, Profile: *profile, Endpoint: *endpoint, MaxRetries: -1})
	case "azure":
		src = livecatalog.NewAzureSource(livecatalog.AzureConfig{SubscriptionID: *subscription, Location: *location,
			Endpoint: *endpoint, TenantID: *tenant, MaxRetries: -1})
	default:
		fmt.Fprintln(os.Stderr, "livedump: -cloud must be aws or azure")
		os.Exit(2)
	}
	var w io.Writer = os.Stdout
	if *out != "-" {
		f, err := os.Create(*out)
		if err != nil {
			fmt.Fprintln(os.Stderr, "livedump:", err)
			os.Exit(1)
		}
		defer f.Close()
		w = f
	}
	if err := livecatalog.Dump(ctx, src, w); err != nil {
		fmt.Fprintln(os.Stderr, "livedump:", err)
		os.Exit(1)
	}
}
