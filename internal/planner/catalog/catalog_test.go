package catalog

import (
	"errors"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// fields names InstanceType fields and their expected values.
type fields map[string]any

// checkFields reports every field of got that differs from want.
func checkFields(t *testing.T, got InstanceType, want fields) {
	t.Helper()
	v := reflect.ValueOf(got)
	for name, w := range want {
		f := v.FieldByName(name)
		if !f.IsValid() {
			t.Fatalf("InstanceType has no field %s", name)
		}
		if g := f.Interface(); !reflect.DeepEqual(g, w) {
			t.Errorf("%s %s: %s = %#v, want %#v", got.Cloud, got.Name, name, g, w)
		}
	}
}

func TestParseCloud(t *testing.T) {
	tests := []struct {
		in      string
		want    Cloud
		wantErr string
	}{
		{in: "aws", want: AWS},
		{in: "AWS", want: AWS},
		{in: "azure", want: Azure},
		{in: "Azure", want: Azure},
		{in: "gcp", want: GCP},
		{in: "GCP", want: GCP},
		{in: "", wantErr: `unknown cloud "": valid values are "aws", "azure" and "gcp"`},
		{in: "amazon", wantErr: `unknown cloud "amazon": valid values are "aws", "azure" and "gcp"`},
		{in: " aws", wantErr: `unknown cloud " aws": valid values are "aws", "azure" and "gcp"`},
		{in: "gce", wantErr: `unknown cloud "gce": valid values are "aws", "azure" and "gcp"`},
	}
	for _, tt := range tests {
		got, err := ParseCloud(tt.in)
		if tt.wantErr != "" {
			if err == nil || err.Error() != tt.wantErr {
				t.Errorf("ParseCloud(%q) error = %v, want %q", tt.in, err, tt.wantErr)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("ParseCloud(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

// TestLookupSpotChecks checks rows against SOURCES.md §3 ("Spot checks") and overhead.md §8.1, and
// against single data rows of the merged tables where noted.
func TestLookupSpotChecks(t *testing.T) {
	const awsPrice, azurePrice, gcpPrice = "2026-07-20", "2026-06-18", "2026-08-03"
	tests := []struct {
		cloud Cloud
		name  string
		want  fields
	}{
		// SOURCES.md §3: 2 vCPU, 4 GiB, 3 ENI × 6, 17 pods = 3 × (6 − 1) + 2; burstable, $0.0376/h.
		{AWS, "t3a.medium", fields{"Family": "t3a", "VCPU": 2, "MemoryMiB": int64(4096), "Architecture": ArchAMD64,
			"MaxENIs": 3, "IPv4PerENI": 6, "ENIMaxPods": 17, "Burstable": true, "SharedCore": false,
			"Hypervisor": "nitro", "PriceUSDPerHour": 0.0376, "PriceRegion": "us-east-1", "PriceDate": awsPrice}},
		// SOURCES.md §3: 2, 8192, 3 × 10, 29 = 3 × 9 + 2; EBS 650/4750 Mbps, 3600/18750 IOPS, $0.096/h.
		// Throughput 81.25 and 593.75 MB/s are the Mbps figures ÷ 8 (disks.md §0.2).
		{AWS, "m5.large", fields{"VCPU": 2, "MemoryMiB": int64(8192), "MaxENIs": 3, "IPv4PerENI": 10, "ENIMaxPods": 29,
			"EBSBaselineBandwidthMbps": 650.0, "EBSMaxBandwidthMbps": 4750.0,
			"EBSBaselineThroughputMBps": 81.25, "EBSMaxThroughputMBps": 593.75,
			"EBSBaselineIOPS": 3600, "EBSMaxIOPS": 18750, "PriceUSDPerHour": 0.096, "Burstable": false,
			"MaxENIsAllCards": 3, "NetworkCards": 1, "InstanceStorageGB": 0}},
		// SOURCES.md §3: 4 vCPU, 8 GiB, 4 × 15, 58 = 4 × 14 + 2; EBS 1150/4750 Mbps, $0.17/h.
		{AWS, "c5.xlarge", fields{"VCPU": 4, "MemoryMiB": int64(8192), "MaxENIs": 4, "IPv4PerENI": 15, "ENIMaxPods": 58,
			"EBSBaselineBandwidthMbps": 1150.0, "EBSMaxBandwidthMbps": 4750.0, "PriceUSDPerHour": 0.17}},
		// SOURCES.md §3 and overhead.md §8.1: 64 ENIs in total but 2 on the default card, so
		// 2 × (50 − 1) + 2 = 100 pods. GPUs, cards and instance store from the data row.
		{AWS, "p5.48xlarge", fields{"MaxENIs": 2, "IPv4PerENI": 50, "ENIMaxPods": 100, "MaxENIsAllCards": 64,
			"NetworkCards": 32, "GPUCount": 8, "InstanceStorageGB": 30400, "InstanceStorageDisks": 8, "VCPU": 192}},
		// arm64 on AWS (data row: Graviton2).
		{AWS, "m6g.large", fields{"Architecture": ArchARM64, "VCPU": 2, "MemoryMiB": int64(8192), "ENIMaxPods": 29}},
		// Bare metal: no hypervisor (data row); arm64_mac reads as arm64.
		{AWS, "mac2.metal", fields{"BareMetal": true, "Hypervisor": "", "Architecture": ArchARM64, "PriceUSDPerHour": 0.0,
			"PriceRegion": "", "PriceDate": ""}},
		// A type the ENI table lacks keeps the catalog's ENI columns (Karpenter): 3 × (10 − 1) + 2 = 29;
		// vCPU and memory unknown (SOURCES.md §1: *g-flex sizes known from Karpenter only).
		{AWS, "c7g-flex.large", fields{"MaxENIs": 3, "IPv4PerENI": 10, "ENIMaxPods": 29, "VCPU": 0, "MemoryMiB": int64(0),
			"Sources": "karpenter-vpclimits"}},

		// SOURCES.md §3: 1 vCPU, 3584 MiB (2019 exact list), 4 data disks, 3200 IOPS, $0.073/h.
		// Throughput: azuredisk's floored 45 MiB/s → floor(45 × 1,048,576 / 10^6) = floor(47.19) = 47 MB/s.
		{Azure, "Standard_DS1_v2", fields{"VCPU": 1, "VCPUQuota": 1, "MemoryMiB": int64(3584), "MaxDataDisks": 4,
			"UncachedDiskIOPS": 3200, "UncachedDiskMBps": 47, "UncachedDiskBurstIOPS": 3200, "UncachedDiskBurstMBps": 47,
			"Architecture": ArchAMD64, "Burstable": false, "PriceUSDPerHour": 0.073, "PriceRegion": "eastus",
			"PriceDate": azurePrice, "Family": "standardDSv2Family"}},
		// SOURCES.md §3: 2, 7168, 8 disks, 6400 IOPS. The sample resource SKU gives 96,000,000 B/s
		// = 96 MB/s exactly, and the burst figure equals the sustained one (no VM-level burst).
		{Azure, "Standard_DS2_v2", fields{"VCPU": 2, "MemoryMiB": int64(7168), "MaxDataDisks": 8,
			"UncachedDiskIOPS": 6400, "UncachedDiskMBps": 96, "UncachedDiskBurstMBps": 96, "PriceUSDPerHour": 0.146}},
		// SOURCES.md §3: 2 vCPU, 4096 MiB, burstable, 4 disks, $0.0416/h.
		{Azure, "Standard_B2s", fields{"VCPU": 2, "MemoryMiB": int64(4096), "Burstable": true, "MaxDataDisks": 4,
			"PriceUSDPerHour": 0.0416}},
		// Constrained core: the name's "-2" is the active count; the SKU counts 8 against quota.
		{Azure, "Standard_E8-2s_v3", fields{"VCPU": 2, "VCPUQuota": 8}},
		// Sample resource SKU: vCPUsAvailable 2 of 8, MemoryGB 218.75 → 218.75 × 1024 = 224000 MiB.
		{Azure, "Standard_M8-2ms", fields{"VCPU": 2, "VCPUQuota": 8, "MemoryMiB": int64(224000)}},
		// arm64 on Azure (data row: cluster-autoscaler Arm64).
		{Azure, "Standard_D2ps_v5", fields{"Architecture": ArchARM64, "VCPU": 2, "MemoryMiB": int64(8192)}},

		// Shared core, not burstable by the catalog's definition; 2 vCPU, 4 GiB (data row).
		{GCP, "e2-medium", fields{"SharedCore": true, "Burstable": false, "VCPU": 2, "MemoryMiB": int64(4096),
			"Family": "e2", "PriceUSDPerHour": 0.033506, "PriceRegion": "us-central1", "PriceDate": gcpPrice}},
		// f1-micro: shared core with no vCPU figure (SOURCES.md §1).
		{GCP, "f1-micro", fields{"SharedCore": true, "VCPU": 0}},
		// arm64 on GCP; t2a-standard-1 has 1 vCPU, 4 GiB (data row).
		{GCP, "t2a-standard-1", fields{"Architecture": ArchARM64, "VCPU": 1, "MemoryMiB": int64(4096)}},
		// Newer series: vCPUs and memory from Google's machine-family pages (google-docs-machine-families).
		{GCP, "c4a-standard-4", fields{"Architecture": ArchARM64, "VCPU": 4, "MemoryMiB": int64(16384)}},
		// Still without memory: vCPU from the name (SOURCES.md §1, "GCP memory is still the main gap").
		{GCP, "c4n-standard-4", fields{"Architecture": ArchAMD64, "VCPU": 4, "MemoryMiB": int64(0)}},
		// GPU count from the -8g suffix.
		{GCP, "a3-highgpu-8g", fields{"GPUCount": 8}},
		// g2 (NVIDIA L4) and g4 (RTX PRO 6000) counts from Google's GPU machine types page (google-docs-gpu-machines);
		// the fractional-GPU g4 sizes count none.
		{GCP, "g2-standard-8", fields{"GPUCount": 1}},
		{GCP, "g2-standard-24", fields{"GPUCount": 2}},
		{GCP, "g2-standard-96", fields{"GPUCount": 8}},
		{GCP, "g4-standard-48", fields{"GPUCount": 1}},
		{GCP, "g4-standard-384", fields{"GPUCount": 8}},
		{GCP, "g4-standard-24", fields{"GPUCount": 0}},
	}
	for _, tt := range tests {
		got, err := Lookup(tt.cloud, tt.name)
		if err != nil {
			t.Errorf("Lookup(%s, %q): %v", tt.cloud, tt.name, err)
			continue
		}
		if got.Cloud != tt.cloud || got.Name != tt.name {
			t.Errorf("Lookup(%s, %q) = %s %q", tt.cloud, tt.name, got.Cloud, got.Name)
		}
		checkFields(t, got, tt.want)
	}
}

// TestENISource checks that ENI data comes from data/network/aws-eni-limits.tsv where it has the
// type, and says so in Sources.
func TestENISource(t *testing.T) {
	for _, name := range []string{"m5.large", "t3a.medium", "p5.48xlarge"} {
		it, err := Lookup(AWS, name)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Contains(strings.Split(it.Sources, ","), "aws-eni-limits") {
			t.Errorf("%s: Sources %q lacks aws-eni-limits", name, it.Sources)
		}
	}
}

func TestLookupLetterCase(t *testing.T) {
	tests := []struct {
		cloud      Cloud
		in         string
		want       string // canonical name, or "" for not found
		wantSugg0  string // first suggestion when not found
		wantErrMsg string
	}{
		{cloud: Azure, in: "Standard_DS1_v2", want: "Standard_DS1_v2"},
		{cloud: Azure, in: "standard_ds1_v2", want: "Standard_DS1_v2"},
		{cloud: Azure, in: "STANDARD_DS1_V2", want: "Standard_DS1_v2"},
		{cloud: Azure, in: "standard_b2S", want: "Standard_B2s"},
		// AWS and GCP match exactly; the suggestion then is the same name in the right case.
		{cloud: AWS, in: "M5.Large", wantSugg0: "m5.large"},
		{cloud: GCP, in: "E2-MEDIUM", wantSugg0: "e2-medium"},
		// Azure without the Standard_ prefix: not a match, but the first suggestion.
		{cloud: Azure, in: "DS1_v2", wantSugg0: "Standard_DS1_v2"},
	}
	for _, tt := range tests {
		got, err := Lookup(tt.cloud, tt.in)
		if tt.want != "" {
			if err != nil || got.Name != tt.want {
				t.Errorf("Lookup(%s, %q) = %q, %v; want %q", tt.cloud, tt.in, got.Name, err, tt.want)
			}
			continue
		}
		var nf *NotFoundError
		if !errors.As(err, &nf) {
			t.Errorf("Lookup(%s, %q) error = %v, want *NotFoundError", tt.cloud, tt.in, err)
			continue
		}
		if len(nf.Suggestions) == 0 || nf.Suggestions[0] != tt.wantSugg0 {
			t.Errorf("Lookup(%s, %q) suggestions = %q, want %q first", tt.cloud, tt.in, nf.Suggestions, tt.wantSugg0)
		}
	}
}

func TestNotFoundError(t *testing.T) {
	tests := []struct {
		cloud Cloud
		name  string
		want  string
	}{
		// "m5.larg": m5.large is one insertion away. At distance 2: m5.xlarge (common prefix "m5.",
		// 3 bytes) ranks before m5a.large, m5d.large, m5n.large (prefix "m5", 2 bytes; then byte
		// order) and m4.large (prefix "m").
		{AWS, "m5.larg", `instance type "m5.larg" is not in the aws catalog; did you mean "m5.large", "m5.xlarge" or "m5a.large"?`},
		// One candidate only: e2-medium at distance 1 (insert "i"); nothing else within 2.
		{GCP, "e2-medum", `instance type "e2-medum" is not in the gcp catalog; did you mean "e2-medium"?`},
		// Nothing within max(2, 6/3) = 2 edits.
		{AWS, "zzzzzz", `instance type "zzzzzz" is not in the aws catalog.`},
		{Azure, "", `the instance type name is empty; give an instance type name of the azure catalog.`},
		{Azure, "m5.large", `instance type "m5.large" is not in the azure catalog; it is in the aws catalog: check the cloud.`},
		{GCP, strings.Repeat("x", 10000), `instance type "` + strings.Repeat("x", 63) + `…" is not in the gcp catalog.`},
	}
	for _, tt := range tests {
		_, err := Lookup(tt.cloud, tt.name)
		var nf *NotFoundError
		if !errors.As(err, &nf) {
			t.Errorf("Lookup(%s, %q) error = %v, want *NotFoundError", tt.cloud, tt.name, err)
			continue
		}
		if nf.Cloud != tt.cloud || nf.Name != tt.name {
			t.Errorf("NotFoundError = %+v", nf)
		}
		if got := err.Error(); got != tt.want {
			t.Errorf("Lookup(%s, %q) error\n got %s\nwant %s", tt.cloud, tt.name, got, tt.want)
		}
	}
}

func TestNotFoundErrorFormat(t *testing.T) {
	base := `instance type "x" is not in the gcp catalog`
	tests := []struct {
		sugg []string
		want string
	}{
		{nil, base + "."},
		{[]string{"a"}, base + `; did you mean "a"?`},
		{[]string{"a", "b"}, base + `; did you mean "a" or "b"?`},
		{[]string{"a", "b", "c"}, base + `; did you mean "a", "b" or "c"?`},
	}
	for _, tt := range tests {
		e := &NotFoundError{Cloud: GCP, Name: "x", Suggestions: tt.sugg}
		if got := e.Error(); got != tt.want {
			t.Errorf("Error() with %q = %s, want %s", tt.sugg, got, tt.want)
		}
	}
}

func TestUnknownCloud(t *testing.T) {
	for _, c := range []Cloud{"", "AWS", "oci"} {
		_, err := Lookup(c, "m5.large")
		want := `unknown cloud "` + string(c) + `": valid values are "aws", "azure" and "gcp"`
		if err == nil || err.Error() != want {
			t.Errorf("Lookup(%q) error = %v, want %s", c, err, want)
		}
		if Names(c) != nil || All(c) != nil || Sources(c) != "" {
			t.Errorf("Names/All/Sources(%q) not empty", c)
		}
	}
}

// TestTables checks every row: counts from SOURCES.md §1, sort order, round trips through Lookup,
// and invariants of the data.
func TestTables(t *testing.T) {
	wantRows := map[Cloud]int{AWS: 1436, Azure: 1811, GCP: 540} // SOURCES.md §1
	for _, c := range Clouds {
		names, all := Names(c), All(c)
		if len(names) != wantRows[c] || len(all) != wantRows[c] {
			t.Errorf("%s: %d names, %d types; want %d", c, len(names), len(all), wantRows[c])
		}
		if !slices.IsSorted(names) {
			t.Errorf("%s: Names not sorted", c)
		}
		for i, it := range all {
			if it.Name != names[i] || it.Cloud != c {
				t.Fatalf("%s: All()[%d] = %s %q, Names()[%d] = %q", c, i, it.Cloud, it.Name, i, names[i])
			}
			got, err := Lookup(c, it.Name)
			if err != nil || !reflect.DeepEqual(got, it) {
				t.Errorf("%s: Lookup(%q) = %+v, %v; want the All() row", c, it.Name, got, err)
			}
			checkInvariants(t, it)
		}
	}
}

func checkInvariants(t *testing.T, it InstanceType) {
	t.Helper()
	switch it.Architecture {
	case "", ArchAMD64, ArchARM64:
	default:
		t.Errorf("%s: Architecture %q", it.Name, it.Architecture)
	}
	// overhead.md §8.1: P_ENI = E × (I − 1) + 2.
	if it.MaxENIs > 0 && it.IPv4PerENI > 0 && it.ENIMaxPods != it.MaxENIs*(it.IPv4PerENI-1)+2 {
		t.Errorf("%s: ENIMaxPods %d ≠ %d × (%d − 1) + 2", it.Name, it.ENIMaxPods, it.MaxENIs, it.IPv4PerENI)
	}
	if it.MaxENIsAllCards > 0 && it.MaxENIs > it.MaxENIsAllCards {
		t.Errorf("%s: MaxENIs %d > MaxENIsAllCards %d", it.Name, it.MaxENIs, it.MaxENIsAllCards)
	}
	if it.VCPUQuota > 0 && it.VCPU > it.VCPUQuota {
		t.Errorf("%s: VCPU %d > VCPUQuota %d", it.Name, it.VCPU, it.VCPUQuota)
	}
	if (it.PriceUSDPerHour > 0) != (it.PriceRegion != "") || (it.PriceRegion != "") != (it.PriceDate != "") {
		t.Errorf("%s: price %v, region %q, date %q", it.Name, it.PriceUSDPerHour, it.PriceRegion, it.PriceDate)
	}
	if it.Sources == "" {
		t.Errorf("%s: no Sources", it.Name)
	}
	if it.Cloud != AWS && (it.MaxENIs != 0 || it.EBSMaxIOPS != 0 || it.Hypervisor != "") {
		t.Errorf("%s: AWS-only fields set", it.Name)
	}
	if it.Cloud != Azure && (it.MaxDataDisks != 0 || it.VCPUQuota != 0) {
		t.Errorf("%s: Azure-only fields set", it.Name)
	}
	if it.Cloud != GCP && it.SharedCore {
		t.Errorf("%s: SharedCore outside GCP", it.Name)
	}
}

func TestAllIsACopy(t *testing.T) {
	a := All(GCP)
	a[0].Name, a[0].VCPU = "changed", -1
	n := Names(GCP)
	n[0] = "changed"
	if All(GCP)[0].Name == "changed" || Names(GCP)[0] == "changed" {
		t.Error("changing the result of All or Names changed the catalog")
	}
}

func TestDateAndSources(t *testing.T) {
	// SOURCES.md: the newest snapshots read are getmoto/moto, kubernetes/autoscaler and
	// kubernetes-sigs/azuredisk-csi-driver at their 2026-08-22 HEADs.
	if got := Date(); got != "2026-08-22" {
		t.Errorf("Date() = %q, want 2026-08-22", got)
	}
	want := map[Cloud][]string{
		AWS:   {"getmoto/moto@0af643a5", "aws/amazon-vpc-cni-k8s@b5218838", "us-east-1", "2026-07-20"},
		Azure: {"kubernetes/autoscaler@55c37cd5", "kubernetes-sigs/azuredisk-csi-driver@d983d613", "eastus", "2026-06-18"},
		GCP: {"cloudpilot-ai/karpenter-provider-gcp@417f047b", "doitintl/gcpinstances.info@e4becb58", "us-central1", "2026-08-03",
			"google-docs-machine-families, read 2026-12-07"},
	}
	oneLine := regexp.MustCompile(`^[^\n]+$`)
	for c, parts := range want {
		s := Sources(c)
		if !oneLine.MatchString(s) {
			t.Errorf("Sources(%s) = %q, want one non-empty line", c, s)
		}
		for _, p := range parts {
			if !strings.Contains(s, p) {
				t.Errorf("Sources(%s) = %q, want it to mention %q", c, s, p)
			}
		}
	}
}

// TestGCPMemoryFromDocs: types gcpinstances.info lacks take vCPUs and memory from Google's machine-family
// pages (source google-docs-machine-families; GB = GiB, gcloud reports c4-standard-8 as 30720 MiB), and
// c3d-standard-360-lssd has the page's 1440 GiB instead of gcpinstances.info's 708. n4d-highcpu-48 stays
// without memory: the page's 90 GB is doubtful (SOURCES.md).
func TestGCPMemoryFromDocs(t *testing.T) {
	for _, c := range []struct {
		name string
		vcpu int
		gib  int64
	}{
		{"c4-standard-8", 8, 30},
		{"c4d-standard-8", 8, 31},
		{"c4a-highmem-16", 16, 128},
		{"n4d-standard-4", 4, 16},
		{"c3-standard-8-lssd", 8, 32},
		{"c4-highmem-8-lssd", 8, 62},
		{"m4-ultramem-56", 56, 1488},
		{"c3d-standard-360-lssd", 360, 1440},
		{"n4d-highcpu-48", 48, 0},
	} {
		it, err := Lookup(GCP, c.name)
		if err != nil {
			t.Fatal(err)
		}
		if it.VCPU != c.vcpu || it.MemoryMiB != c.gib*1024 {
			t.Errorf("%s: %d vCPUs, %d MiB; want %d, %d", c.name, it.VCPU, it.MemoryMiB, c.vcpu, c.gib*1024)
		}
		if c.gib > 0 && !strings.Contains(it.Sources, "google-docs-machine-families") {
			t.Errorf("%s: Sources %q does not name google-docs-machine-families", c.name, it.Sources)
		}
	}
	unknown := 0
	for _, it := range All(GCP) {
		if it.MemoryMiB == 0 {
			unknown++
		}
	}
	if unknown != 56 { // SOURCES.md §1
		t.Errorf("%d GCP types without memory, want 56", unknown)
	}
}

func TestParseTableErrors(t *testing.T) {
	h := header{priceRegion: "r", priceDate: "d"}
	tests := []struct {
		body, wantErr string
	}{
		{"name\tbogus\na\tb\n", `unknown column "bogus"`},
		{"name\tvcpu\na\tx\n", `row 1 (a), column 2: "x" is not a non-negative integer`},
		{"name\tvcpu\na\t-1\n", `row 1 (a), column 2: "-1" is not a non-negative integer`},
		{"name\tvcpu\na\n", `row 1 (a): 1 cells, want 2`},
		{"name\tvcpu\na\t1\t2\n", `row 1: more than 2 cells`},
		{"name\tvcpu\nb\t1\na\t1\n", `row 2: "a" is not after "b"`},
		{"name\tburstable\na\tyes\n", `row 1 (a), column 2: "yes" is not true or false`},
		{"name\tarch\na\tarm\n", `row 1 (a), column 2: "arm" is not an architecture`},
		{"name\n\n", `row 1: empty name`},
		{"name\n", `no rows`},
	}
	for _, tt := range tests {
		_, err := parseTable(AWS, h, tt.body)
		if err == nil || err.Error() != tt.wantErr {
			t.Errorf("parseTable(%q) error = %v, want %s", tt.body, err, tt.wantErr)
		}
	}
	if _, err := parseTable(Azure, h, "name\nA\na\n"); err == nil || err.Error() != `row 2: "a" repeats a name` {
		t.Errorf("Azure names differing in case: error = %v", err)
	}
	if _, _, err := parseHeader("# price-region: r\nname\n"); err == nil {
		t.Error("parseHeader accepted a header without price-date")
	}
}

// TestNVIDIAGPUs: a pod's nvidia.com/gpu binds only on NVIDIA GPUs current drivers support: AMD (g4ad, NVv4, ND
// MI300X), Habana (dl1), Xilinx FPGAs (NP) and Kepler (g2, p2, NC6) GPUs advertise none; Pascal and later do.
func TestNVIDIAGPUs(t *testing.T) {
	for _, c := range []struct {
		cloud          Cloud
		name, vendor   string
		gpus, nvidiaOK int
	}{
		{AWS, "g4dn.xlarge", VendorNVIDIA, 1, 1},
		{AWS, "p3.2xlarge", VendorNVIDIA, 1, 1},
		{AWS, "g4ad.xlarge", VendorAMD, 1, 0},
		{AWS, "dl1.24xlarge", VendorHabana, 8, 0},
		{AWS, "p2.xlarge", VendorNVIDIA, 1, 0},
		{AWS, "g2.2xlarge", VendorNVIDIA, 1, 0},
		{AWS, "m5.large", "", 0, 0},
		{Azure, "Standard_NC6s_v3", VendorNVIDIA, 1, 1},
		{Azure, "Standard_NC6", VendorNVIDIA, 1, 0},
		{Azure, "Standard_NC24r", VendorNVIDIA, 4, 0},
		{Azure, "Standard_NC64as_T4_v3", VendorNVIDIA, 4, 4},
		{Azure, "Standard_NV8as_v4", VendorAMD, 1, 0},
		{Azure, "Standard_ND96isr_MI300X_v5", VendorAMD, 8, 0},
		{Azure, "Standard_NP10s", VendorXilinx, 1, 0},
		{GCP, "g2-standard-8", VendorNVIDIA, 1, 1},
		{GCP, "g4-standard-96", VendorNVIDIA, 2, 2},
	} {
		it, err := Lookup(c.cloud, c.name)
		if err != nil {
			t.Fatal(err)
		}
		if it.GPUCount != c.gpus || it.GPUVendor() != c.vendor || it.NVIDIAGPUs() != c.nvidiaOK {
			t.Errorf("%s: %d GPUs by %q, %d nvidia.com/gpu; want %d by %q, %d", c.name, it.GPUCount, it.GPUVendor(), it.NVIDIAGPUs(), c.gpus, c.vendor, c.nvidiaOK)
		}
	}
}
