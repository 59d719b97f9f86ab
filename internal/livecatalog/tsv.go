package livecatalog

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
)

// tsvColumn is one column of a dump: its name in the embedded catalog's files and its cell.
type tsvColumn struct {
	name string
	cell func(catalog.InstanceType) string
}

func intCell(f func(catalog.InstanceType) int) func(catalog.InstanceType) string {
	return func(it catalog.InstanceType) string { return strconv.Itoa(f(it)) }
}

func floatCell(f func(catalog.InstanceType) float64) func(catalog.InstanceType) string {
	return func(it catalog.InstanceType) string { return strconv.FormatFloat(f(it), 'f', -1, 64) }
}

// tsvColumns are the columns of a dump per cloud, named as in internal/planner/catalog/data/<cloud>.tsv
// (without price_usd_hour: live rows carry no price).
var tsvColumns = map[catalog.Cloud][]tsvColumn{
	catalog.AWS: {
		{"name", func(it catalog.InstanceType) string { return it.Name }},
		{"family", func(it catalog.InstanceType) string { return it.Family }},
		{"vcpu", intCell(func(it catalog.InstanceType) int { return it.VCPU })},
		{"memory_mib", func(it catalog.InstanceType) string { return strconv.FormatInt(it.MemoryMiB, 10) }},
		{"arch", func(it catalog.InstanceType) string { return it.Architecture }},
		{"gpus", intCell(func(it catalog.InstanceType) int { return it.GPUCount })},
		{"burstable", func(it catalog.InstanceType) string { return strconv.FormatBool(it.Burstable) }},
		{"hypervisor", func(it catalog.InstanceType) string { return it.Hypervisor }},
		{"bare_metal", func(it catalog.InstanceType) string { return strconv.FormatBool(it.BareMetal) }},
		{"max_enis", intCell(func(it catalog.InstanceType) int { return it.MaxENIs })},
		{"ipv4_per_eni", intCell(func(it catalog.InstanceType) int { return it.IPv4PerENI })},
		{"eni_max_pods", intCell(func(it catalog.InstanceType) int { return it.ENIMaxPods })},
		{"max_enis_all_cards", intCell(func(it catalog.InstanceType) int { return it.MaxENIsAllCards })},
		{"network_cards", intCell(func(it catalog.InstanceType) int { return it.NetworkCards })},
		{"ebs_baseline_mbps", floatCell(func(it catalog.InstanceType) float64 { return it.EBSBaselineBandwidthMbps })},
		{"ebs_max_mbps", floatCell(func(it catalog.InstanceType) float64 { return it.EBSMaxBandwidthMbps })},
		{"ebs_baseline_mbytes_per_s", floatCell(func(it catalog.InstanceType) float64 { return it.EBSBaselineThroughputMBps })},
		{"ebs_max_mbytes_per_s", floatCell(func(it catalog.InstanceType) float64 { return it.EBSMaxThroughputMBps })},
		{"ebs_baseline_iops", intCell(func(it catalog.InstanceType) int { return it.EBSBaselineIOPS })},
		{"ebs_max_iops", intCell(func(it catalog.InstanceType) int { return it.EBSMaxIOPS })},
		{"ebs_max_attachments", intCell(func(it catalog.InstanceType) int { return it.EBSMaxAttachments })},
		{"instance_storage_gb", intCell(func(it catalog.InstanceType) int { return it.InstanceStorageGB })},
		{"instance_storage_disks", intCell(func(it catalog.InstanceType) int { return it.InstanceStorageDisks })},
		{"sources", func(it catalog.InstanceType) string { return it.Sources }},
	},
	catalog.Azure: {
		{"name", func(it catalog.InstanceType) string { return it.Name }},
		{"family", func(it catalog.InstanceType) string { return it.Family }},
		{"vcpu", intCell(func(it catalog.InstanceType) int { return it.VCPU })},
		{"vcpu_quota", intCell(func(it catalog.InstanceType) int { return it.VCPUQuota })},
		{"memory_mib", func(it catalog.InstanceType) string { return strconv.FormatInt(it.MemoryMiB, 10) }},
		{"arch", func(it catalog.InstanceType) string { return it.Architecture }},
		{"gpus", intCell(func(it catalog.InstanceType) int { return it.GPUCount })},
		{"burstable", func(it catalog.InstanceType) string { return strconv.FormatBool(it.Burstable) }},
		{"max_data_disks", intCell(func(it catalog.InstanceType) int { return it.MaxDataDisks })},
		{"uncached_iops", intCell(func(it catalog.InstanceType) int { return it.UncachedDiskIOPS })},
		{"uncached_mbytes_per_s", intCell(func(it catalog.InstanceType) int { return it.UncachedDiskMBps })},
		{"sources", func(it catalog.InstanceType) string { return it.Sources }},
	},
}

// now is the clock of Dump's "dumped" line (tests replace it).
var now = time.Now

// Dump fetches src's list once and writes it to w as a TSV: "# " header lines, a column row named as in
// the embedded catalog's data files (without price_usd_hour: live rows carry no price), then one row per
// type, sorted by name. The header lines the catalog generator reads (its -live flag) are
//
//	# cloud: aws
//	# api: ec2:DescribeInstanceTypes in us-east-1
//	# dumped: 2026-09-01T10:11:12Z
//	# types: 812
//
// followed by one "# unavailable: <name> (<reason>)" line per size the API lists but the location does not
// offer to the subscription (Azure restrictions).
func Dump(ctx context.Context, src Source, w io.Writer) error {
	cols, ok := tsvColumns[src.Cloud()]
	if !ok {
		return fmt.Errorf("no dump format for %s", src.Cloud())
	}
	types, unavailable, err := src.Fetch(ctx)
	if err != nil {
		return &Error{Cloud: src.Cloud(), Source: src.Describe(), Err: err}
	}
	snap := newSnapshot(src, types, unavailable)
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "# live %s catalog dump (internal/livecatalog/cmd/livedump); no prices\n", src.Cloud())
	fmt.Fprintf(bw, "# cloud: %s\n# api: %s\n# dumped: %s\n# types: %d\n", src.Cloud(), src.Describe(),
		now().UTC().Truncate(time.Second).Format(time.RFC3339), len(snap.types))
	for _, k := range sortedKeys(unavailable) {
		fmt.Fprintf(bw, "# unavailable: %s (%s)\n", k, unavailable[k])
	}
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = c.name
	}
	bw.WriteString(strings.Join(names, "\t") + "\n")
	for _, it := range snap.types {
		cells := make([]string, len(cols))
		for i, c := range cols {
			cells[i] = strings.NewReplacer("\t", " ", "\n", " ").Replace(c.cell(it))
		}
		bw.WriteString(strings.Join(cells, "\t") + "\n")
	}
	return bw.Flush()
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
