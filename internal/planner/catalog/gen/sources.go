package main

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// source is one upstream file the merged tables were built from, as SOURCES.md describes it. The
// id is the name the merged tables use in their sources column.
type source struct {
	id       string
	repo     string // owner/name on GitHub
	path     string // path in the repository
	head     string // commit of the repository snapshot that was read
	headDate string // its date, YYYY-MM-DD
	file     string // newest commit touching path ("" when not recorded)
	fileDate string
	licence  string
	what     string // what kubefit takes from it
	// A live source (a livedump of a cloud API) has no repository: api names the API and region or
	// location, dumped the time of the dump (headDate is its date).
	api, dumped string
	// A documentation source has no repository either: pages are the cloud's documentation pages the
	// figures were transcribed from, read the date they were read. It has no snapshot date (headDate is
	// empty), so it does not move the table's data-date.
	pages []docPage
	read  string
}

// docPage is one documentation page of a documentation source.
type docPage struct {
	title, url string
	updated    string // the "last updated" date the copy read shows, YYYY-MM-DD; "" when it shows none
}

// registry lists the sources of each cloud's merged table, in the order the headers list them.
// checkRegistry verifies every entry against SOURCES.md, so a refreshed data set cannot silently
// keep stale commits here.
var registry = map[string][]source{
	"aws": {
		{id: "moto", repo: "getmoto/moto", path: "moto/ec2/resources/instance_types.json",
			head: "0af643a5dbfc98797f08ee64f5be3ef8002d56ff", headDate: "2026-08-22",
			file: "34d6cad5abbb7b91c97578f3249b39a7e2df1ed5", fileDate: "2026-08-02", licence: "Apache-2.0",
			what: "EC2 DescribeInstanceTypes records: vCPU, memory, architecture, GPUs, burstable, EBS-optimized limits, instance store, hypervisor, bare metal"},
		{id: "vpc-cni", repo: "aws/amazon-vpc-cni-k8s", path: "misc/eni-max-pods.txt",
			head: "b52188387f2e2f10bf289ace929d6a63b176a4fa", headDate: "2026-08-20",
			file: "6152e01c83bb8f04fdc8690e99134ebe1445db29", fileDate: "2026-08-11", licence: "Apache-2.0",
			what: "max pods per type (eni-max-pods.txt) and ENI limits (pkg/vpc/vpc_ip_resource_limit.go)"},
		{id: "aws-eni-limits", repo: "aws/amazon-vpc-cni-k8s", path: "pkg/vpc/vpc_ip_resource_limit.go",
			head: "b52188387f2e2f10bf289ace929d6a63b176a4fa", headDate: "2026-08-20", licence: "Apache-2.0",
			what: "internal/sources/data/network/aws-eni-limits.tsv (overhead.md §8.1): ENIs on the default card, IPv4 per ENI, P_ENI, network cards; preferred over the catalog's ENI columns"},
		{id: "karpenter-vpclimits", repo: "aws/karpenter-provider-aws", path: "pkg/providers/instancetype/zz_generated.vpclimits.go",
			head: "1d927085dd81a9df9301e613f371dac5b4d16bfe", headDate: "2026-08-21",
			file: "7f27b4e85d3157418ab84eb04a3c91da7cb8fbba", fileDate: "2026-08-18", licence: "Apache-2.0",
			what: "ENI limits of types the VPC CNI does not list"},
		{id: "karpenter-bandwidth", repo: "aws/karpenter-provider-aws", path: "pkg/providers/instancetype/zz_generated.bandwidth.go",
			head: "1d927085dd81a9df9301e613f371dac5b4d16bfe", headDate: "2026-08-21",
			file: "7f27b4e85d3157418ab84eb04a3c91da7cb8fbba", fileDate: "2026-08-18", licence: "Apache-2.0",
			what: "network bandwidth (names only here)"},
		{id: "karpenter-pricing", repo: "aws/karpenter-provider-aws", path: "pkg/providers/pricing/zz_generated.pricing_aws.go",
			head: "1d927085dd81a9df9301e613f371dac5b4d16bfe", headDate: "2026-08-21",
			file: "6fc13b5236fd04fd16ff3f9dc7490d0813994099", fileDate: "2026-07-20", licence: "Apache-2.0",
			what: "on-demand Linux prices, us-east-1"},
		{id: "cluster-autoscaler", repo: "kubernetes/autoscaler", path: "cluster-autoscaler/cloudprovider/aws/ec2_instance_types.go",
			head: "55c37cd5eb550756c5ccc5a89e9068d77797e575", headDate: "2026-08-22",
			file: "e964265b7440c0faa751f28f77b18166584d001d", fileDate: "2026-01-22", licence: "Apache-2.0",
			what: "vCPU, memory and GPUs where moto has no record"},
		{id: "eks-ami", repo: "awslabs/amazon-eks-ami", path: "nodeadm/internal/kubelet/instance-info.jsonl",
			head: "81fec2e895854f599974fe4d3d72f61c0a9aaffa", headDate: "2026-07-23",
			file: "4d63a3bc2d86958490e0e0e2a04eba69da4c45db", fileDate: "2026-07-01", licence: "MIT-0",
			what: "ENI limits as nodeadm sees them (cross-check)"},
	},
	"azure": {
		{id: "cluster-autoscaler", repo: "kubernetes/autoscaler", path: "cluster-autoscaler/cloudprovider/azure/azure_instance_types.go",
			head: "55c37cd5eb550756c5ccc5a89e9068d77797e575", headDate: "2026-08-22",
			file: "03e49d9cb822bfdbc769cde771124f695f3f5619", fileDate: "2026-03-17", licence: "Apache-2.0",
			what: "SKU family, vCPUs, memory (whole GiB), GPUs, architecture"},
		{id: "cluster-autoscaler-2019", repo: "kubernetes/autoscaler", path: "cluster-autoscaler/cloudprovider/azure/azure_instance_types.go",
			head: "a1095407ce8141e14450ab1a92b8054402375c59", headDate: "2019-09-12", licence: "Apache-2.0",
			what: "exact memory in MiB for older sizes"},
		{id: "karpenter-known-skus", repo: "Azure/karpenter-provider-azure", path: "pkg/providers/instancetype/known_skus.yaml",
			head: "352646f599290c3a6d2f9710fb535a7b288f88ed", headDate: "2026-08-21",
			file: "2b431da153a6a92b705c18046512c60b1631b682", fileDate: "2026-07-16", licence: "Apache-2.0",
			what: "names and SKU families of newer sizes"},
		{id: "karpenter-sample-sku", repo: "Azure/karpenter-provider-azure", path: "pkg/fake/zz_generated.sku.southcentralus.go",
			head: "352646f599290c3a6d2f9710fb535a7b288f88ed", headDate: "2026-08-21",
			file: "f4fb1c1d221908629e0d1c33451d0d5c420e42ff", fileDate: "2026-01-28", licence: "Apache-2.0",
			what: "exact resource SKU capabilities (vCPUsAvailable, MemoryGB, UncachedDiskBytesPerSecond) for 20 sizes"},
		{id: "azuredisk-max-disks", repo: "kubernetes-sigs/azuredisk-csi-driver", path: "pkg/azuredisk/azure_dd_max_disk_count.go",
			head: "d983d613b6dd04af5bcc886d309b8de6ea5637b6", headDate: "2026-08-22",
			file: "e1284a5c040a2c6f076aebce26ff3259ffaacc70", fileDate: "2026-05-23", licence: "Apache-2.0",
			what: "max data disks"},
		{id: "azuredisk-skus-map", repo: "kubernetes-sigs/azuredisk-csi-driver", path: "pkg/optimization/azure_skus_map.go",
			head: "d983d613b6dd04af5bcc886d309b8de6ea5637b6", headDate: "2026-08-22",
			file: "3ccc92fab197224b39ce9943061d7d8ef01fb09c", fileDate: "2025-03-07", licence: "Apache-2.0",
			what: "uncached disk IOPS and throughput, sustained and burst"},
		{id: "karpenter-azure-pricing", repo: "Azure/karpenter-provider-azure", path: "pkg/providers/pricing/zz_generated.pricing.go",
			head: "352646f599290c3a6d2f9710fb535a7b288f88ed", headDate: "2026-08-21",
			file: "2b431da153a6a92b705c18046512c60b1631b682", fileDate: "2026-07-16", licence: "Apache-2.0",
			what: "on-demand Linux prices, eastus"},
		{id: "karpenter-azure-pricing(eastus2 Linux price)", repo: "Azure/karpenter-provider-azure", path: "pkg/providers/pricing/zz_generated.pricing.go",
			head: "352646f599290c3a6d2f9710fb535a7b288f88ed", headDate: "2026-08-21",
			file: "2b431da153a6a92b705c18046512c60b1631b682", fileDate: "2026-07-16", licence: "Apache-2.0",
			what: "the eastus price of a size whose eastus entry there is not the Linux meter's, read from the same file's eastus2 block, which has eastus's Linux prices for the size's series (SOURCES.md, \"Azure price corrections\")"},
		{id: "karpenter-azure-pricing(westus2 Linux price)", repo: "Azure/karpenter-provider-azure", path: "pkg/providers/pricing/zz_generated.pricing.go",
			head: "352646f599290c3a6d2f9710fb535a7b288f88ed", headDate: "2026-08-21",
			file: "2b431da153a6a92b705c18046512c60b1631b682", fileDate: "2026-07-16", licence: "Apache-2.0",
			what: "the eastus price of a size whose eastus entry there is not the Linux meter's, read from the same file's westus2 block, which has eastus's Linux prices for the size's series (SOURCES.md, \"Azure price corrections\")"},
		{id: "karpenter-azure-pricing(westus3 Linux price)", repo: "Azure/karpenter-provider-azure", path: "pkg/providers/pricing/zz_generated.pricing.go",
			head: "352646f599290c3a6d2f9710fb535a7b288f88ed", headDate: "2026-08-21",
			file: "2b431da153a6a92b705c18046512c60b1631b682", fileDate: "2026-07-16", licence: "Apache-2.0",
			what: "the eastus price of a size whose eastus entry there is not the Linux meter's, read from the same file's westus3 block, which has eastus's Linux prices for the size's series (SOURCES.md, \"Azure price corrections\")"},
		{id: "karpenter-azure-pricing(northcentralus Linux price)", repo: "Azure/karpenter-provider-azure", path: "pkg/providers/pricing/zz_generated.pricing.go",
			head: "352646f599290c3a6d2f9710fb535a7b288f88ed", headDate: "2026-08-21",
			file: "2b431da153a6a92b705c18046512c60b1631b682", fileDate: "2026-07-16", licence: "Apache-2.0",
			what: "the eastus price of a size whose eastus entry there is not the Linux meter's, read from the same file's northcentralus block, which has eastus's Linux prices for the size's series (SOURCES.md, \"Azure price corrections\")"},
		{id: "karpenter-azure-pricing(other region)", repo: "Azure/karpenter-provider-azure", path: "pkg/providers/pricing/zz_generated.pricing.go",
			head: "352646f599290c3a6d2f9710fb535a7b288f88ed", headDate: "2026-08-21",
			file: "2b431da153a6a92b705c18046512c60b1631b682", fileDate: "2026-07-16", licence: "Apache-2.0",
			what: "size name only: priced in some region other than eastus"},
	},
	"gcp": {
		{id: "doit-gcpinstances", repo: "doitintl/gcpinstances.info", path: "data.json",
			head: "e4becb580f49c28c3048c21a1cf1c60612e6792b", headDate: "2024-09-04",
			file: "a875be020656afec40afb71dec854f6260f1d5a6", fileDate: "2024-06-26", licence: "MIT",
			what: "vCPUs, memory, shared core (scraped 2024-06)"},
		{id: "karpenter-gcp-prices", repo: "cloudpilot-ai/karpenter-provider-gcp", path: "pkg/providers/pricing/initial-prices.json",
			head: "417f047b117521aba6d3ab120dac538a92161bf4", headDate: "2026-08-06",
			file: "373e2baa9665c864d29ae686dfadbc0dd97d8bb8", fileDate: "2026-08-03", licence: "Apache-2.0",
			what: "machine-type names and on-demand prices, us-central1"},
		{id: "cluster-autoscaler", repo: "kubernetes/autoscaler", path: "cluster-autoscaler/cloudprovider/gce/gce_price_info.go",
			head: "55c37cd5eb550756c5ccc5a89e9068d77797e575", headDate: "2026-08-22",
			file: "e72c7c68329bf047ba574f237592e84d2fa041d0", fileDate: "2026-06-23", licence: "Apache-2.0",
			what: "machine-type names (its reference prices are not used)"},
		{id: "google-docs-machine-families", read: "2026-12-07", licence: "CC-BY-4.0 (Google Cloud documentation)",
			what: "vCPUs and memory (GB = GiB) of types gcpinstances.info lacks, transcribed by hand from stored copies of the pages, " +
				"and the memory of c3d-standard-360-lssd (corrected)",
			pages: []docPage{
				{"General-purpose machine family for Compute Engine", "https://docs.cloud.google.com/compute/docs/general-purpose-machines", ""},
				{"Compute-optimized machine family for Compute Engine", "https://docs.cloud.google.com/compute/docs/compute-optimized-machines", "2026-04-10"},
				{"Accelerator-optimized machine family", "https://docs.cloud.google.com/compute/docs/accelerator-optimized-machines", "2026-04-13"},
				{"Certifications for SAP applications on Google Cloud", "https://docs.cloud.google.com/sap/docs/certifications-sap-apps", "2026-04-09"},
				{"SAP HANA planning guide", "https://docs.cloud.google.com/sap/docs/sap-hana-planning-guide", ""},
				{"SAP NetWeaver planning guide", "https://docs.cloud.google.com/sap/docs/netweaver-planning-guide", ""},
				{"Compute Engine release notes", "https://docs.cloud.google.com/compute/docs/release-notes", "2026-04-09"},
			}},
		{id: "google-docs-gpu-machines", read: "2026-12-07", licence: "CC-BY-4.0 (Google Cloud documentation)",
			what: "GPU counts of the g2 (NVIDIA L4) and g4 (NVIDIA RTX PRO 6000) machine types, transcribed by hand from a stored copy of the page's tables",
			pages: []docPage{
				{"GPU machine types", "https://docs.cloud.google.com/compute/docs/gpus", ""},
			}},
	},
}

// checkRegistry verifies that SOURCES.md names every registry entry with the same repository path,
// commits and dates, or, for a documentation source, with its id, read date and every page's address.
func checkRegistry(sourcesMD string) error {
	for _, cloud := range []string{"aws", "azure", "gcp"} {
		for _, s := range registry[cloud] {
			var want []string
			switch {
			case len(s.pages) > 0:
				if s.repo != "" || s.head != "" || s.headDate != "" || s.read == "" {
					return fmt.Errorf("gen/sources.go: %s documentation source %q needs a read date and no repository or snapshot", cloud, s.id)
				}
				want = []string{"**" + s.id + "**", "read " + s.read}
				for _, p := range s.pages {
					want = append(want, p.url)
				}
			default:
				want = []string{s.repo + ":" + s.path, s.head + " (" + s.headDate}
				if s.file != "" {
					want = append(want, s.file+" ("+s.fileDate)
				}
			}
			for _, w := range want {
				if !strings.Contains(sourcesMD, w) {
					return fmt.Errorf("data/catalog/SOURCES.md does not mention %q for %s source %q; update the registry in gen/sources.go", w, cloud, s.id)
				}
			}
		}
	}
	return nil
}

// olderMotoSources reads the commits of the retired AWS types from the raw moto file and returns one
// source per commit date, with the id the merged table uses ("moto-older@YYYY-MM-DD").
func olderMotoSources(in *inputs) (map[string]source, error) {
	const rel = "data/catalog/raw/aws/moto-ec2-instance-types-older-versions.json"
	data, err := in.read(rel)
	if err != nil {
		return nil, err
	}
	var records map[string]struct {
		Commit string `json:"_moto_commit"`
		Date   string `json:"_moto_commit_date"`
	}
	if err := json.Unmarshal(data, &records); err != nil {
		return nil, fmt.Errorf("%s: %w", rel, err)
	}
	names := make([]string, 0, len(records))
	for name := range records {
		names = append(names, name)
	}
	slices.Sort(names)
	out := make(map[string]source)
	for _, name := range names {
		r := records[name]
		if len(r.Commit) != 40 || len(r.Date) < len("2006-01-02") {
			return nil, fmt.Errorf("%s: record %q has no _moto_commit/_moto_commit_date", rel, name)
		}
		date := r.Date[:len("2006-01-02")]
		id := "moto-older@" + date
		if prev, ok := out[id]; ok && prev.head != r.Commit {
			return nil, fmt.Errorf("%s: two commits dated %s (%s, %s)", rel, date, prev.head, r.Commit)
		}
		out[id] = source{id: id, repo: "getmoto/moto", path: "moto/ec2/resources/instance_types.json",
			head: r.Commit, headDate: date, licence: "Apache-2.0",
			what: "DescribeInstanceTypes records of types retired from the latest file"}
	}
	return out, nil
}
