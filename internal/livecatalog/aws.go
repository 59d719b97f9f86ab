package livecatalog

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	ec2types "github.com/aws/aws-sdk-go-v2/service/ec2/types"
	"github.com/aws/smithy-go"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
)

// AWSConfig configures the EC2 source. Credentials come only from the SDK's default chain (environment,
// shared config and credentials files, SSO, web identity, container and instance roles).
type AWSConfig struct {
	Region     string // "" = the SDK chain (AWS_REGION, the profile's region)
	Profile    string // shared-config profile; "" = AWS_PROFILE or default
	Endpoint   string // EC2 base endpoint override (a VPC endpoint or a test fake); "" = the SDK's resolution
	MaxRetries int    // retries after the first attempt; < 0 = the SDK default (2)

	maxBackoff time.Duration // tests: the retryer's backoff cap (default 5 s)
}

// ec2API is the part of the EC2 client the source uses.
type ec2API interface {
	ec2.DescribeInstanceTypesAPIClient
}

// awsSource lists EC2 instance types with DescribeInstanceTypes.
type awsSource struct {
	cfg    AWSConfig
	client ec2API
	region string
	err    error // from loading the SDK configuration, reported by Fetch
}

// NewAWSSource returns the EC2 source. It loads the SDK configuration (no network call); a problem there
// is reported by the first Fetch, so it falls back like any other failure.
func NewAWSSource(ctx context.Context, cfg AWSConfig) Source {
	s := &awsSource{cfg: cfg}
	opts := []func(*config.LoadOptions) error{
		config.WithRetryer(func() aws.Retryer {
			return retry.NewStandard(func(o *retry.StandardOptions) {
				if cfg.MaxRetries >= 0 {
					o.MaxAttempts = cfg.MaxRetries + 1
				}
				o.MaxBackoff = 5 * time.Second
				if cfg.maxBackoff > 0 {
					o.MaxBackoff = cfg.maxBackoff
				}
			})
		}),
	}
	if cfg.Region != "" {
		opts = append(opts, config.WithRegion(cfg.Region))
	}
	if cfg.Profile != "" {
		opts = append(opts, config.WithSharedConfigProfile(cfg.Profile))
	}
	awsCfg, err := config.LoadDefaultConfig(ctx, opts...)
	if err != nil {
		s.err = fmt.Errorf("loading the AWS SDK configuration: %w", err)
		return s
	}
	s.region = awsCfg.Region
	if s.region == "" {
		s.err = errors.New("no AWS region: set aws.region, AWS_REGION, or a region in the shared config profile")
		return s
	}
	if awsCfg.Credentials != nil {
		awsCfg.Credentials = aws.NewCredentialsCache(awsCredentialsProbe{awsCfg.Credentials})
	}
	s.client = ec2.NewFromConfig(awsCfg, func(o *ec2.Options) {
		if cfg.Endpoint != "" {
			o.BaseEndpoint = aws.String(cfg.Endpoint)
		}
	})
	return s
}

func (s *awsSource) Cloud() catalog.Cloud { return catalog.AWS }

func (s *awsSource) Describe() string {
	where := s.region
	if where == "" {
		where = "an unset region"
	}
	if s.cfg.Endpoint != "" {
		where += " via the configured endpoint"
	}
	return "ec2:DescribeInstanceTypes in " + where
}

// maxAWSPages bounds the paging (about 1,000 types at 100 a page today).
const maxAWSPages = 200

func (s *awsSource) Fetch(ctx context.Context) ([]catalog.InstanceType, map[string]string, error) {
	if s.err != nil {
		return nil, nil, s.err
	}
	p := ec2.NewDescribeInstanceTypesPaginator(s.client, &ec2.DescribeInstanceTypesInput{MaxResults: aws.Int32(100)},
		func(o *ec2.DescribeInstanceTypesPaginatorOptions) { o.StopOnDuplicateToken = true })
	var out []catalog.InstanceType
	for page := 0; p.HasMorePages(); page++ {
		if page == maxAWSPages {
			return nil, nil, fmt.Errorf("more than %d pages", maxAWSPages)
		}
		resp, err := p.NextPage(ctx)
		if err != nil {
			return nil, nil, awsCause(err)
		}
		for _, info := range resp.InstanceTypes {
			if it, ok := fromEC2(info); ok {
				out = append(out, it)
			}
		}
	}
	return out, nil, nil
}

// awsCause reduces an SDK error to its cause, without request IDs or signatures: the API error code and
// message, the HTTP status, or the transport error.
func awsCause(err error) error {
	var ce *CredentialsError
	if errors.As(err, &ce) {
		return ce
	}
	var api smithy.APIError
	if errors.As(err, &api) {
		status := ""
		var re *awshttp.ResponseError
		if errors.As(err, &re) {
			status = fmt.Sprintf("HTTP %d ", re.HTTPStatusCode())
		}
		return fmt.Errorf("%s%s: %s", status, api.ErrorCode(), api.ErrorMessage())
	}
	var re *awshttp.ResponseError
	if errors.As(err, &re) {
		return fmt.Errorf("HTTP %d: %v", re.HTTPStatusCode(), re.Err)
	}
	var op *smithy.OperationError
	if errors.As(err, &op) {
		return op.Err
	}
	return err
}

// fromEC2 maps one DescribeInstanceTypes record to a catalog row, the way the embedded catalog's
// generator reads the same record.
func fromEC2(info ec2types.InstanceTypeInfo) (catalog.InstanceType, bool) {
	name := string(info.InstanceType)
	if name == "" {
		return catalog.InstanceType{}, false
	}
	family, _, _ := strings.Cut(name, ".")
	it := catalog.InstanceType{
		Cloud: catalog.AWS, Name: name, Family: family,
		Burstable: aws.ToBool(info.BurstablePerformanceSupported),
		BareMetal: aws.ToBool(info.BareMetal),
		Sources:   "live-ec2",
	}
	if v := info.VCpuInfo; v != nil {
		it.VCPU = int(aws.ToInt32(v.DefaultVCpus))
	}
	if m := info.MemoryInfo; m != nil {
		it.MemoryMiB = aws.ToInt64(m.SizeInMiB)
	}
	if p := info.ProcessorInfo; p != nil {
		it.Architecture = ec2Arch(p.SupportedArchitectures)
	}
	if g := info.GpuInfo; g != nil {
		for _, d := range g.Gpus {
			it.GPUCount += int(aws.ToInt32(d.Count))
		}
	}
	switch h := strings.ToLower(string(info.Hypervisor)); h {
	case "nitro", "xen":
		it.Hypervisor = h
	}
	if n := info.NetworkInfo; n != nil {
		it.IPv4PerENI = int(aws.ToInt32(n.Ipv4AddressesPerInterface))
		it.MaxENIsAllCards = int(aws.ToInt32(n.MaximumNetworkInterfaces))
		it.NetworkCards = int(aws.ToInt32(n.MaximumNetworkCards))
		it.MaxENIs = it.MaxENIsAllCards
		def := aws.ToInt32(n.DefaultNetworkCardIndex)
		for _, c := range n.NetworkCards {
			if aws.ToInt32(c.NetworkCardIndex) == def && c.MaximumNetworkInterfaces != nil {
				it.MaxENIs = int(*c.MaximumNetworkInterfaces)
			}
		}
		if it.MaxENIs > 0 && it.IPv4PerENI > 0 {
			it.ENIMaxPods = it.MaxENIs*(it.IPv4PerENI-1) + 2
		}
	}
	if e := info.EbsInfo; e != nil {
		it.EBSMaxAttachments = int(aws.ToInt32(e.MaximumEbsAttachments))
		if o := e.EbsOptimizedInfo; o != nil {
			it.EBSBaselineBandwidthMbps = float64(aws.ToInt32(o.BaselineBandwidthInMbps))
			it.EBSMaxBandwidthMbps = float64(aws.ToInt32(o.MaximumBandwidthInMbps))
			it.EBSBaselineThroughputMBps = aws.ToFloat64(o.BaselineThroughputInMBps)
			it.EBSMaxThroughputMBps = aws.ToFloat64(o.MaximumThroughputInMBps)
			it.EBSBaselineIOPS = int(aws.ToInt32(o.BaselineIops))
			it.EBSMaxIOPS = int(aws.ToInt32(o.MaximumIops))
		}
	}
	if s := info.InstanceStorageInfo; s != nil {
		it.InstanceStorageGB = int(aws.ToInt64(s.TotalSizeInGB))
		for _, d := range s.Disks {
			it.InstanceStorageDisks += int(aws.ToInt32(d.Count))
		}
	}
	return it, true
}

// ec2Arch maps SupportedArchitectures to the catalog's architecture: arm64 (or arm64_mac) → arm64;
// x86_64, i386 or x86_64_mac → x86_64; else "".
func ec2Arch(archs []ec2types.ArchitectureType) string {
	out := ""
	for _, a := range archs {
		switch strings.ToLower(string(a)) {
		case "arm64", "arm64_mac":
			return catalog.ArchARM64
		case "x86_64", "x86_64_mac", "i386":
			out = catalog.ArchAMD64
		}
	}
	return out
}
