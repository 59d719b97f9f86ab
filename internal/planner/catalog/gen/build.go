package main

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// column is one column of a generated file, with the description written into its header.
type column struct {
	name string
	doc  string
}

// outTable is one generated file before rendering.
type outTable struct {
	cloud       string
	inputs      []string // shared-relative paths of the files the table was built from
	liveInputs  []string // the live dumps merged in, as their header lines describe them
	sources     []source // upstream files named by the rows, in header order
	priceRegion string
	priceDate   string
	dataDate    string // newest snapshot date among sources
	notes       []string
	columns     []column
	rows        [][]string
	digest      func(string) string
}

// cellConv turns source cells into normalised output cells and remembers the first error.
type cellConv struct{ err error }

func (c *cellConv) fail(r record, format string, args ...any) {
	if c.err == nil {
		c.err = fmt.Errorf("%s: %s", r.where(), fmt.Sprintf(format, args...))
	}
}

// num parses an optional non-negative integer cell; ok is false when the cell is empty or bad.
func (c *cellConv) num(r record, col string) (v int64, ok bool) {
	s := r.get(col)
	if s == "" {
		return 0, false
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v < 0 {
		c.fail(r, "column %s: %q is not a non-negative integer", col, s)
		return 0, false
	}
	return v, true
}

// intCell normalises an integer cell ("" stays "").
func (c *cellConv) intCell(r record, col string) string {
	if v, ok := c.num(r, col); ok {
		return strconv.FormatInt(v, 10)
	}
	return ""
}

// floatCell normalises a decimal cell to the shortest exact decimal ("0.096000" → "0.096").
func (c *cellConv) floatCell(r record, col string) string {
	s := r.get(col)
	if s == "" {
		return ""
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || v < 0 {
		c.fail(r, "column %s: %q is not a non-negative number", col, s)
		return ""
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// boolCell checks a true/false cell ("" stays "").
func (c *cellConv) boolCell(r record, col string) string {
	switch s := r.get(col); s {
	case "", "true", "false":
		return s
	default:
		c.fail(r, "column %s: %q is not true or false", col, s)
		return ""
	}
}

// firstInt returns the first non-empty integer cell among cols.
func (c *cellConv) firstInt(r record, cols ...string) string {
	for _, col := range cols {
		if s := c.intCell(r, col); s != "" {
			return s
		}
	}
	return ""
}

// sortedRows returns the rows of t sorted by the key column, rejecting empty and duplicate keys.
func sortedRows(t *table, key string) ([]record, error) {
	rows := slices.Clone(t.rows)
	slices.SortFunc(rows, func(a, b record) int { return strings.Compare(a.get(key), b.get(key)) })
	for i, r := range rows {
		if r.get(key) == "" {
			return nil, fmt.Errorf("%s: empty %s", r.where(), key)
		}
		if i > 0 && rows[i-1].get(key) == r.get(key) {
			return nil, fmt.Errorf("%s: duplicate %s %q", r.where(), key, r.get(key))
		}
	}
	return rows, nil
}

// priceDate checks that every priced row carries the same price date and returns it.
func priceDate(rows []record, priceCol string) (string, error) {
	date := ""
	for _, r := range rows {
		if r.get(priceCol) == "" {
			continue
		}
		d := r.get("price_date")
		if d == "" || (date != "" && d != date) {
			return "", fmt.Errorf("%s: price date %q differs from %q; the generated header holds one price date per cloud", r.where(), d, date)
		}
		date = d
	}
	if date == "" {
		return "", fmt.Errorf("%s: no priced rows", rows[0].t.rel)
	}
	return date, nil
}

// usedSources resolves the ids named in the rows' sources cells, in registry order, and the newest
// snapshot date among them.
func usedSources(cloud string, ids map[string]bool, extra map[string]source) ([]source, string, error) {
	var used []source
	known := make(map[string]bool)
	for _, s := range registry[cloud] {
		known[s.id] = true
		if ids[s.id] {
			used = append(used, s)
		}
	}
	extraIDs := make([]string, 0, len(extra))
	for id := range extra {
		extraIDs = append(extraIDs, id)
	}
	slices.Sort(extraIDs)
	for _, id := range extraIDs {
		known[id] = true
		if ids[id] {
			used = append(used, extra[id])
		}
	}
	for id := range ids {
		if !known[id] {
			return nil, "", fmt.Errorf("%s table names source %q, which gen/sources.go does not describe", cloud, id)
		}
	}
	date := ""
	for _, s := range used {
		date = max(date, s.headDate)
	}
	return used, date, nil
}

// addIDs records the comma-separated ids of a sources cell.
func addIDs(ids map[string]bool, cell string) {
	for id := range strings.SplitSeq(cell, ",") {
		if id != "" {
			ids[id] = true
		}
	}
}

// awsArch maps DescribeInstanceTypes SupportedArchitectures to kubefit's architecture.
func awsArch(s string) (string, bool) {
	if s == "" {
		return "", true
	}
	arm, x86 := false, false
	for a := range strings.SplitSeq(s, ",") {
		switch a {
		case "arm64", "arm64_mac":
			arm = true
		case "x86_64", "x86_64_mac":
			x86 = true
		case "i386":
		default:
			return "", false
		}
	}
	switch {
	case arm && !x86:
		return "arm64", true
	case x86 && !arm:
		return "x86_64", true
	default:
		return "", false
	}
}

var awsColumns = []column{
	{"name", "instance type (DescribeInstanceTypes InstanceType)"},
	{"family", "text before the dot"},
	{"vcpu", "VCpuInfo.DefaultVCpus"},
	{"memory_mib", "MemoryInfo.SizeInMiB"},
	{"arch", "x86_64 or arm64 (SupportedArchitectures; i386,x86_64 → x86_64; *_mac → its CPU architecture)"},
	{"gpus", "GpuInfo GPU count"},
	{"burstable", "BurstablePerformanceSupported"},
	{"hypervisor", "nitro or xen; empty for bare metal"},
	{"bare_metal", "BareMetal"},
	{"max_enis", "ENIs on the default network card (aws-eni-limits max_enis; else the catalog's max_enis_default_card)"},
	{"ipv4_per_eni", "IPv4 addresses per ENI"},
	{"eni_max_pods", "P_ENI = max_enis × (ipv4_per_eni − 1) + 2 (aws-eni-limits eni_max_pods = VPC CNI eni-max-pods.txt; checked against the formula)"},
	{"max_enis_all_cards", "ENIs over all network cards"},
	{"network_cards", "number of network cards"},
	{"ebs_baseline_mbps", "EbsOptimizedInfo.BaselineBandwidthInMbps (megabits/s)"},
	{"ebs_max_mbps", "EbsOptimizedInfo.MaximumBandwidthInMbps (megabits/s)"},
	{"ebs_baseline_mbytes_per_s", "EbsOptimizedInfo.BaselineThroughputInMBps (MB/s)"},
	{"ebs_max_mbytes_per_s", "EbsOptimizedInfo.MaximumThroughputInMBps (MB/s)"},
	{"ebs_baseline_iops", "EbsOptimizedInfo.BaselineIops"},
	{"ebs_max_iops", "EbsOptimizedInfo.MaximumIops"},
	{"ebs_max_attachments", "EbsInfo.MaximumEbsAttachments"},
	{"instance_storage_gb", "InstanceStorageInfo.TotalSizeInGB (0 = no instance store)"},
	{"instance_storage_disks", "instance store disks (0 = none)"},
	{"price_usd_hour", "on-demand Linux USD/hour in the price region, shared tenancy (metal: dedicated)"},
	{"sources", "source ids of the row (see the source lines above)"},
}

// buildAWS converts aws-instance-types.tsv, taking ENI data from aws-eni-limits.tsv where it has the type.
func buildAWS(in *inputs) (*outTable, error) {
	const catRel, eniRel = "data/catalog/aws-instance-types.tsv", "data/network/aws-eni-limits.tsv"
	const price = "price_on_demand_linux_usd_hour_us_east_1"
	cat, err := in.readTable(catRel, "instance_type", "family", "vcpus", "memory_mib", "architectures", "burstable",
		"gpu_count", "max_enis_total", "max_enis_default_card", "network_card_count", "ipv4_per_eni", "max_pods_eni",
		"ebs_baseline_bandwidth_mbps", "ebs_max_bandwidth_mbps", "ebs_baseline_throughput_mbytes_s",
		"ebs_max_throughput_mbytes_s", "ebs_baseline_iops", "ebs_max_iops", "ebs_max_attachments",
		"instance_storage_gb", "instance_storage_disks", "hypervisor", "bare_metal", price, "price_date", "sources")
	if err != nil {
		return nil, err
	}
	eni, err := in.readTable(eniRel, "instance_type", "max_enis", "ipv4_per_eni", "default_network_card_index",
		"network_cards", "max_enis_all_cards", "hypervisor", "is_bare_metal", "eni_max_pods")
	if err != nil {
		return nil, err
	}
	older, err := olderMotoSources(in)
	if err != nil {
		return nil, err
	}
	rows, err := sortedRows(cat, "instance_type")
	if err != nil {
		return nil, err
	}
	eniRows, err := sortedRows(eni, "instance_type")
	if err != nil {
		return nil, err
	}
	eniByName := make(map[string]record, len(eniRows))
	for _, r := range eniRows {
		if r.get("default_network_card_index") != "0" {
			return nil, fmt.Errorf("%s: default network card %q; the generator assumes card 0", r.where(), r.get("default_network_card_index"))
		}
		eniByName[r.get("instance_type")] = r
	}
	pDate, err := priceDate(rows, price)
	if err != nil {
		return nil, err
	}
	var cv cellConv
	ids := make(map[string]bool)
	fromENI := 0
	out := make([][]string, 0, len(rows))
	for _, r := range rows {
		name := r.get("instance_type")
		arch, ok := awsArch(r.get("architectures"))
		if !ok {
			cv.fail(r, "unknown architectures %q", r.get("architectures"))
		}
		hyper, bare := r.get("hypervisor"), cv.boolCell(r, "bare_metal")
		sources := r.get("sources")
		// ENI data: the ENI table when it has the type (overhead.md §8.1), else the catalog's columns.
		enis, ipv4, pods, all, cards := cv.intCell(r, "max_enis_default_card"), cv.intCell(r, "ipv4_per_eni"),
			cv.intCell(r, "max_pods_eni"), cv.intCell(r, "max_enis_total"), cv.intCell(r, "network_card_count")
		if e, ok := eniByName[name]; ok {
			fromENI++
			delete(eniByName, name)
			enis, ipv4, pods = cv.intCell(e, "max_enis"), cv.intCell(e, "ipv4_per_eni"), cv.intCell(e, "eni_max_pods")
			all, cards = cv.intCell(e, "max_enis_all_cards"), cv.intCell(e, "network_cards")
			if h := e.get("hypervisor"); hyper == "" && (h == "nitro" || h == "xen") {
				hyper = h
			}
			if bare == "" {
				bare = cv.boolCell(e, "is_bare_metal")
			}
			sources += ",aws-eni-limits"
		}
		if enis != "" && ipv4 != "" && pods != "" {
			e, _ := strconv.ParseInt(enis, 10, 64)
			i, _ := strconv.ParseInt(ipv4, 10, 64)
			if p, _ := strconv.ParseInt(pods, 10, 64); i < 1 || p != e*(i-1)+2 {
				cv.fail(r, "%s: max pods %d is not %d × (%d − 1) + 2", name, p, e, i)
			}
		}
		if hyper != "" && hyper != "nitro" && hyper != "xen" {
			cv.fail(r, "unknown hypervisor %q", hyper)
		}
		addIDs(ids, sources)
		out = append(out, []string{
			name, r.get("family"), cv.intCell(r, "vcpus"), cv.intCell(r, "memory_mib"), arch,
			cv.intCell(r, "gpu_count"), cv.boolCell(r, "burstable"), hyper, bare,
			enis, ipv4, pods, all, cards,
			cv.floatCell(r, "ebs_baseline_bandwidth_mbps"), cv.floatCell(r, "ebs_max_bandwidth_mbps"),
			cv.floatCell(r, "ebs_baseline_throughput_mbytes_s"), cv.floatCell(r, "ebs_max_throughput_mbytes_s"),
			cv.intCell(r, "ebs_baseline_iops"), cv.intCell(r, "ebs_max_iops"), cv.intCell(r, "ebs_max_attachments"),
			cv.intCell(r, "instance_storage_gb"), cv.intCell(r, "instance_storage_disks"),
			cv.floatCell(r, price), sources,
		})
	}
	if cv.err != nil {
		return nil, cv.err
	}
	if len(eniByName) > 0 {
		return nil, fmt.Errorf("%s has %d types missing from %s (e.g. %q)", eniRel, len(eniByName), catRel, firstKey(eniByName))
	}
	used, date, err := usedSources("aws", ids, older)
	if err != nil {
		return nil, err
	}
	return &outTable{
		cloud: "aws", inputs: []string{catRel, eniRel, "data/catalog/raw/aws/moto-ec2-instance-types-older-versions.json"},
		sources: used, priceRegion: "us-east-1", priceDate: pDate, dataDate: date,
		notes: []string{
			fmt.Sprintf("ENI columns of %d types come from %s; the other %d rows keep the catalog's ENI columns (empty when unknown).", fromENI, eniRel, len(out)-fromENI),
			"moto-older@<date> ids: records of retired types taken from getmoto/moto at the commit of that date (listed above).",
		},
		columns: awsColumns, rows: out, digest: in.digest,
	}, nil
}

var azureColumns = []column{
	{"name", "VM size as ARM spells it; lookups ignore case"},
	{"family", "resource SKU family"},
	{"vcpu", "vCPUs the guest sees: vcpus_available, else the active count of a constrained-core name (Standard_E8-2s_v3 → 2), else vcpus, else the count in the name"},
	{"vcpu_quota", "resource SKU vCPUs (counted against quota; the full count for constrained-core sizes), else the count in the name"},
	{"memory_mib", "merged table memory_mib (exact 2019 or resource SKU value where known, else whole GiB truncated by cluster-autoscaler)"},
	{"arch", "x86_64 or arm64 (resource SKU CpuArchitectureType x64 / Arm64)"},
	{"gpus", "resource SKU GPUs"},
	{"burstable", "B-series families"},
	{"max_data_disks", "resource SKU MaxDataDiskCount (azuredisk CSI)"},
	{"uncached_iops", "UncachedDiskIOPS (azuredisk CSI)"},
	{"uncached_mbytes_per_s", "uncached disk throughput in MB/s (10^6 B/s): floor(UncachedDiskBytesPerSecond / 10^6) where the resource SKU is known, else the conservative floor(MiBps_floor × 1048576 / 10^6) from the azuredisk CSI MiB/s figure"},
	{"uncached_burst_iops", "VM-level burst uncached IOPS (azuredisk CSI)"},
	{"uncached_burst_mbytes_per_s", "VM-level burst uncached MB/s: floor(MiBps_floor × 1048576 / 10^6); equal to uncached_mbytes_per_s where the two MiB/s figures are equal (no VM-level burst)"},
	{"price_usd_hour", "on-demand Linux USD/hour in the price region (Retail Prices API, Consumption)"},
	{"sources", "source ids of the row (see the source lines above)"},
}

// mibFloorToMB converts an integer-floored MiB/s figure into the largest whole MB/s (10^6 B/s) that
// the true rate is certain to reach: floor(m × 1,048,576 / 1,000,000).
func mibFloorToMB(m int64) string { return strconv.FormatInt(m*1048576/1000000, 10) }

// buildAzure converts azure-vm-sizes.tsv.
func buildAzure(in *inputs) (*outTable, error) {
	const rel = "data/catalog/azure-vm-sizes.tsv"
	const price = "price_on_demand_linux_usd_hour_eastus"
	t, err := in.readTable(rel, "vm_size", "sku_family", "vcpus", "vcpus_available", "name_vcpus",
		"name_constrained_active_vcpus", "memory_mib", "architecture", "gpu_count", "burstable", "max_data_disks",
		"uncached_disk_iops", "uncached_disk_mibps_floor", "uncached_disk_burst_iops", "uncached_disk_burst_mibps_floor",
		"uncached_disk_bytes_per_s", price, "price_date", "sources")
	if err != nil {
		return nil, err
	}
	rows, err := sortedRows(t, "vm_size")
	if err != nil {
		return nil, err
	}
	pDate, err := priceDate(rows, price)
	if err != nil {
		return nil, err
	}
	var cv cellConv
	ids := make(map[string]bool)
	folded := make(map[string]string)
	out := make([][]string, 0, len(rows))
	var prices []azurePrice
	for _, r := range rows {
		name := r.get("vm_size")
		if prev, dup := folded[strings.ToLower(name)]; dup {
			cv.fail(r, "%q and %q differ only in case; Azure lookups ignore case", prev, name)
		}
		folded[strings.ToLower(name)] = name
		arch := ""
		switch a := r.get("architecture"); a {
		case "x64":
			arch = "x86_64"
		case "Arm64":
			arch = "arm64"
		case "":
		default:
			cv.fail(r, "unknown architecture %q", a)
		}
		mbps := ""
		if b, ok := cv.num(r, "uncached_disk_bytes_per_s"); ok {
			mbps = strconv.FormatInt(b/1000000, 10)
		} else if m, ok := cv.num(r, "uncached_disk_mibps_floor"); ok {
			mbps = mibFloorToMB(m)
		}
		burstMBps := ""
		if m, ok := cv.num(r, "uncached_disk_burst_mibps_floor"); ok {
			burstMBps = mibFloorToMB(m)
			if s, ok := cv.num(r, "uncached_disk_mibps_floor"); ok && s == m {
				burstMBps = mbps // no VM-level burst: the burst rate is the sustained one
			}
		}
		if p := cv.floatCell(r, price); p != "" {
			v, _ := strconv.ParseFloat(p, 64)
			q, _ := cv.num(r, "vcpus")
			if q == 0 {
				q, _ = cv.num(r, "name_vcpus")
			}
			prices = append(prices, azurePrice{name: name, where: r.where(), vcpus: q, price: v})
		}
		addIDs(ids, r.get("sources"))
		out = append(out, []string{
			name, r.get("sku_family"),
			cv.firstInt(r, "vcpus_available", "name_constrained_active_vcpus", "vcpus", "name_vcpus"),
			cv.firstInt(r, "vcpus", "name_vcpus"),
			cv.intCell(r, "memory_mib"), arch, cv.intCell(r, "gpu_count"), cv.boolCell(r, "burstable"),
			cv.intCell(r, "max_data_disks"), cv.intCell(r, "uncached_disk_iops"), mbps,
			cv.intCell(r, "uncached_disk_burst_iops"), burstMBps,
			cv.floatCell(r, price), r.get("sources"),
		})
	}
	if cv.err != nil {
		return nil, cv.err
	}
	if err := checkAzurePrices(prices); err != nil {
		return nil, fmt.Errorf("%s: %w", rel, err)
	}
	used, date, err := usedSources("azure", ids, nil)
	if err != nil {
		return nil, err
	}
	return &outTable{
		cloud: "azure", inputs: []string{rel}, sources: used, priceRegion: "eastus", priceDate: pDate, dataDate: date,
		notes: []string{
			"Memory marked cluster-autoscaler only is whole GiB with fractions truncated (at most 1 GiB low); see SOURCES.md \"Azure memory caveat\".",
			azurePriceNote(out),
		},
		columns: azureColumns, rows: out, digest: in.digest,
	}, nil
}

var gcpColumns = []column{
	{"name", "machine type"},
	{"family", "series (text before the first -)"},
	{"vcpu", "vcpus (gcpinstances.info, else Google's documentation pages), else the count in the name; empty for f1-micro and g1-small (fractional shared core)"},
	{"memory_mib", "memory GiB × 1024: gcpinstances.info (2024-06), else Google's machine-family documentation pages (source google-docs-machine-families, GB = GiB); empty where neither gives it"},
	{"arch", "x86_64 or arm64 (by series)"},
	{"gpus", "GPU count: the -<N>g suffix of a2/a3/a4 names; g2 and g4 from Google's GPU machine types page (source google-docs-gpu-machines); empty for the others and for the fractional-GPU g4-standard-6/12/24"},
	{"shared_core", "e2-micro, e2-small, e2-medium, f1-micro, g1-small"},
	{"price_usd_hour", "on-demand USD/hour in the price region (Karpenter GCP initial prices)"},
	{"sources", "source ids of the row (see the source lines above)"},
}

// buildGCP converts gcp-machine-types.tsv.
func buildGCP(in *inputs) (*outTable, error) {
	const rel = "data/catalog/gcp-machine-types.tsv"
	const price = "price_on_demand_usd_hour_us_central1"
	t, err := in.readTable(rel, "machine_type", "series", "vcpus", "name_vcpus", "memory_mib", "shared_core",
		"architecture", "gpu_count", price, "price_date", "sources")
	if err != nil {
		return nil, err
	}
	rows, err := sortedRows(t, "machine_type")
	if err != nil {
		return nil, err
	}
	pDate, err := priceDate(rows, price)
	if err != nil {
		return nil, err
	}
	var cv cellConv
	ids := make(map[string]bool)
	noMemory := make(map[string]int) // series → types without memory
	out := make([][]string, 0, len(rows))
	for _, r := range rows {
		if r.get("memory_mib") == "" {
			noMemory[r.get("series")]++
		}
		switch a := r.get("architecture"); a {
		case "", "x86_64", "arm64":
		default:
			cv.fail(r, "unknown architecture %q", a)
		}
		addIDs(ids, r.get("sources"))
		out = append(out, []string{
			r.get("machine_type"), r.get("series"), cv.firstInt(r, "vcpus", "name_vcpus"), cv.intCell(r, "memory_mib"),
			r.get("architecture"), cv.intCell(r, "gpu_count"), cv.boolCell(r, "shared_core"),
			cv.floatCell(r, price), r.get("sources"),
		})
	}
	if cv.err != nil {
		return nil, cv.err
	}
	used, date, err := usedSources("gcp", ids, nil)
	if err != nil {
		return nil, err
	}
	return &outTable{
		cloud: "gcp", inputs: []string{rel}, sources: used, priceRegion: "us-central1", priceDate: pDate, dataDate: date,
		notes: []string{
			gcpMemoryNote(noMemory, len(out)),
			"google-docs-machine-families has no snapshot date (its pages were read from stored copies on the date its line gives), so it does not count towards data-date.",
		},
		columns: gcpColumns, rows: out, digest: in.digest,
	}, nil
}

// gcpMemoryNote says how many GCP types have no memory, by series ("c4n 24, z3 19").
func gcpMemoryNote(noMemory map[string]int, rows int) string {
	total := 0
	var parts []string
	for _, series := range slices.Sorted(maps.Keys(noMemory)) {
		total += noMemory[series]
		parts = append(parts, fmt.Sprintf("%s %d", series, noMemory[series]))
	}
	if total == 0 {
		return fmt.Sprintf("GCP memory is known for all %d types.", rows)
	}
	return fmt.Sprintf("GCP memory is unknown (empty) for %d of %d types (%s); see SOURCES.md.", total, rows, strings.Join(parts, ", "))
}

// firstKey returns the smallest key of m, for a deterministic example in messages.
func firstKey(m map[string]record) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys[0]
}
