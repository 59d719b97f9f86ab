package main

import (
	"bytes"
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/kubefit/terraform-provider-kubefit/internal/livecatalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/livecatalog/livefake"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
)

// awsDumpHeader is the header of a live AWS dump as livecatalog.Dump writes it (lines 1-5).
const awsDumpHeader = "# live aws catalog dump (internal/livecatalog/cmd/livedump); no prices\n" +
	"# cloud: aws\n# api: ec2:DescribeInstanceTypes in us-east-1\n# dumped: 2026-09-01T10:11:12Z\n# types: 2\n"

// awsDumpCols is a dump's column row (line 6): the generated AWS columns less the price.
var awsDumpCols = "name\tfamily\tvcpu\tmemory_mib\tarch\tgpus\tburstable\thypervisor\tbare_metal\tmax_enis\tipv4_per_eni\t" +
	"eni_max_pods\tmax_enis_all_cards\tnetwork_cards\tebs_baseline_mbps\tebs_max_mbps\tebs_baseline_mbytes_per_s\t" +
	"ebs_max_mbytes_per_s\tebs_baseline_iops\tebs_max_iops\tebs_max_attachments\tinstance_storage_gb\tinstance_storage_disks\tsources\n"

// m5Large and m9Large are dump rows (lines 7 and 8 of a dump).
const (
	m5Large = "m5.large\tm5\t2\t8192\tx86_64\t0\tfalse\tnitro\tfalse\t3\t10\t29\t3\t1\t650\t4750\t81.25\t593.75\t3600\t18750\t28\t0\t0\tlive-ec2\n"
	m9Large = "m9.large\tm9\t2\t8192\tarm64\t0\tfalse\tnitro\tfalse\t3\t10\t29\t3\t1\t650\t4750\t81.25\t593.75\t3600\t18750\t28\t0\t0\tlive-ec2\n"
)

func TestDumpColumnsAreGeneratedColumns(t *testing.T) {
	var want []string
	for _, c := range awsColumns {
		if c.name != "price_usd_hour" {
			want = append(want, c.name)
		}
	}
	if got := strings.Split(strings.TrimSuffix(awsDumpCols, "\n"), "\t"); !slices.Equal(got, want) {
		t.Errorf("test dump columns %q, want %q", got, want)
	}
}

// TestParseLiveRejects: every malformed dump is rejected, naming the file and, for a bad line, its
// number (header lines count).
func TestParseLiveRejects(t *testing.T) {
	const good = awsDumpHeader + "" // lines 1-5
	cases := []struct {
		name, cloud, body, want string
	}{
		{"no final newline", "aws", strings.TrimSuffix(good+awsDumpCols+m5Large+m9Large, "\n"), "aws-live.tsv: does not end in a newline"},
		{"other cloud", "azure", good + awsDumpCols + m5Large + m9Large, `aws-live.tsv:2: a dump of "aws", given as -live azure=aws-live.tsv`},
		{"no dumped line", "aws", strings.Replace(good, "# dumped: 2026-09-01T10:11:12Z\n", "", 1) + awsDumpCols + m5Large + m9Large,
			`aws-live.tsv: no "# dumped: " header line`},
		{"bad dumped", "aws", strings.Replace(good, "2026-09-01T10:11:12Z", "yesterday", 1) + awsDumpCols + m5Large + m9Large,
			`aws-live.tsv:4: dumped "yesterday" is not an RFC 3339 time`},
		{"no types line", "aws", strings.Replace(good, "# types: 2\n", "", 1) + awsDumpCols + m5Large + m9Large, `no "# types: " header line`},
		{"price column", "aws", good + strings.Replace(awsDumpCols, "\tsources", "\tprice_usd_hour", 1) + m5Large + m9Large,
			`aws-live.tsv:6: column "price_usd_hour" is not a column of the generated aws table that a live dump can hold`},
		{"azure column", "aws", good + strings.Replace(awsDumpCols, "\tgpus", "\tvcpu_quota", 1) + m5Large + m9Large,
			`aws-live.tsv:6: column "vcpu_quota" is not a column`},
		{"no sources column", "aws", good + "name\tvcpu\nm5.large\t2\nm9.large\t2\n", "aws-live.tsv:6: no sources column"},
		{"short row", "aws", good + awsDumpCols + m5Large + "m9.large\tm9\t2\n", "aws-live.tsv:8: 3 cells, want 24"},
		{"bad count", "aws", good + awsDumpCols + m5Large + strings.Replace(m9Large, "\t8192\t", "\t8 GiB\t", 1),
			`aws-live.tsv:8: column memory_mib: "8 GiB" is not a non-negative integer`},
		{"negative", "aws", good + awsDumpCols + strings.Replace(m5Large, "\t650\t", "\t-650\t", 1) + m9Large,
			`aws-live.tsv:7: column ebs_baseline_mbps: "-650" is not a non-negative number`},
		{"bad bool", "aws", good + awsDumpCols + m5Large + strings.Replace(m9Large, "\tfalse\tnitro", "\tno\tnitro", 1),
			`aws-live.tsv:8: column burstable: "no" is not true or false`},
		{"bad arch", "aws", good + awsDumpCols + m5Large + strings.Replace(m9Large, "arm64", "riscv64", 1),
			`aws-live.tsv:8: column arch: "riscv64" is not x86_64 or arm64`},
		{"white space", "aws", good + awsDumpCols + m5Large + strings.Replace(m9Large, "\tm9\t", "\tm9 \t", 1),
			`aws-live.tsv:8: cell "m9 " has surrounding white space`},
		{"duplicate", "aws", good + awsDumpCols + m5Large + m5Large, `aws-live.tsv:8: "m5.large" repeats the name of line 7`},
		{"empty name", "aws", good + awsDumpCols + m5Large + strings.Replace(m9Large, "m9.large", "", 1), "aws-live.tsv:8: empty name"},
		{"other source", "aws", good + awsDumpCols + m5Large + strings.Replace(m9Large, "live-ec2", "moto", 1),
			`aws-live.tsv:8: sources "moto": live aws rows name "live-ec2"`},
		{"max pods", "aws", good + awsDumpCols + strings.Replace(m5Large, "\t29\t", "\t110\t", 1) + m9Large,
			"aws-live.tsv:7: eni_max_pods 110 is not max_enis × (ipv4_per_eni − 1) + 2 = 3 × (10 − 1) + 2"},
		{"truncated", "aws", good + awsDumpCols + m5Large, "aws-live.tsv: 1 rows, but the header says 2 types (a truncated dump?)"},
		{"no rows", "aws", good + awsDumpCols, "aws-live.tsv: no data rows"},
		{"no column row", "aws", good, "aws-live.tsv: no column row"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := parseLive(liveArg{tc.cloud, "aws-live.tsv"}, []byte(tc.body))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error = %v, want %q", err, tc.want)
			}
		})
	}
	if _, err := parseLive(liveArg{"aws", "aws-live.tsv"}, []byte(good+awsDumpCols+m5Large+m9Large)); err != nil {
		t.Errorf("the well-formed dump: %v", err)
	}
}

func TestLiveFlag(t *testing.T) {
	var f liveFlag
	for _, v := range []string{"aws=live/aws.tsv", "azure=live/azure.tsv"} {
		if err := f.Set(v); err != nil {
			t.Fatal(err)
		}
	}
	for v, want := range map[string]string{
		"aws=other.tsv": "two live dumps for aws", "gcp=g.tsv": "cloud aws or azure", "aws": "want cloud=path", "azure=": "want cloud=path",
	} {
		if err := f.Set(v); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Set(%q) = %v, want %q", v, err, want)
		}
	}
	cmd := regenerateCommand(f)
	if want := "cd internal/planner/catalog && go run ./gen -sources ../../sources -out data -live aws=live/aws.tsv -live azure=live/azure.tsv"; cmd != want {
		t.Errorf("regenerateCommand = %q, want %q", cmd, want)
	}
	if back, err := liveArgsOf(cmd); err != nil || !slices.Equal(back, []liveArg(f)) {
		t.Errorf("liveArgsOf(%q) = %v, %v", cmd, back, err)
	}
	outside := []liveArg{{"aws", "/home/someone/dumps/aws-live.tsv"}, {"azure", "../../azure-live.tsv"}}
	if cmd, want := regenerateCommand(outside), "-live aws=…/aws-live.tsv -live azure=…/azure-live.tsv"; !strings.HasSuffix(cmd, want) {
		t.Errorf("regenerateCommand(dumps elsewhere) = %q, want it to end in %q", cmd, want)
	}
	if back, err := liveArgsOf(regenerateCommand(nil)); err != nil || back != nil {
		t.Errorf("liveArgsOf(go generate) = %v, %v", back, err)
	}
}

// sharedAWS is a two-row generated AWS table: m5.large (with an unknown ebs_max_iops) and t3.micro.
func sharedAWS() *outTable {
	m5 := []string{"m5.large", "m5", "2", "8192", "x86_64", "0", "false", "nitro", "false", "3", "10", "29", "3", "1",
		"650", "4750", "81.25", "593.75", "3600", "", "28", "0", "0", "0.096", "moto,aws-eni-limits"}
	t3 := []string{"t3.micro", "t3", "2", "1024", "x86_64", "0", "true", "nitro", "false", "2", "2", "4", "2", "1",
		"87", "2085", "10.875", "260.625", "500", "11800", "28", "0", "0", "0.0104", "moto,aws-eni-limits"}
	return &outTable{cloud: "aws", columns: awsColumns, rows: [][]string{m5, t3}, dataDate: "2026-08-22",
		priceRegion: "us-east-1", priceDate: "2026-07-20", digest: func(string) string { return "0123456789abcdef" },
		sources: []source{registry["aws"][0]}}
}

// TestMergeLive: a type the shared table lacks is added (no price, live source named in the header and
// the attribution, data date moved to the dump's); for a type both have, the shared row is kept and each
// differing field reported; a cell only the dump knows is counted, not filled.
func TestMergeLive(t *testing.T) {
	tbl := sharedAWS()
	dump := awsDumpHeader + "# unavailable: x1.huge (not here)\n" + awsDumpCols +
		strings.Replace(strings.Replace(m5Large, "\t2\t8192\t", "\t4\t8192\t", 1), "\tnitro\t", "\txen\t", 1) + m9Large
	lt, err := parseLive(liveArg{"aws", "live/aws.tsv"}, []byte(dump))
	if err != nil {
		t.Fatal(err)
	}
	rep := tbl.mergeLive(lt)

	if names := []string{tbl.rows[0][0], tbl.rows[1][0], tbl.rows[2][0]}; len(tbl.rows) != 3 || !slices.Equal(names, []string{"m5.large", "m9.large", "t3.micro"}) {
		t.Fatalf("rows %v, want m5.large, m9.large, t3.micro in order", tbl.rows)
	}
	added := strings.Join(tbl.rows[1], "\t")
	if want := "m9.large\tm9\t2\t8192\tarm64\t0\tfalse\tnitro\tfalse\t3\t10\t29\t3\t1\t650\t4750\t81.25\t593.75\t3600\t18750\t28\t0\t0\t\tlive-ec2"; added != want {
		t.Errorf("added row\n%q\nwant\n%q", added, want)
	}
	if m5 := tbl.rows[0]; m5[2] != "2" || m5[7] != "nitro" || m5[19] != "" || m5[24] != "moto,aws-eni-limits" {
		t.Errorf("shared m5.large row changed: %q", m5)
	}
	wantConflicts := []fieldDiff{{"m5.large", "vcpu", "2", "4"}, {"m5.large", "hypervisor", "nitro", "xen"}}
	if !slices.Equal(rep.conflicts, wantConflicts) || rep.gaps["ebs_max_iops"] != 1 || len(rep.gaps) != 1 ||
		!slices.Equal(rep.added, []string{"m9.large"}) || rep.both != 1 || rep.sharedOnly != 1 {
		t.Errorf("report: conflicts %v, gaps %v, added %v, both %d, shared only %d", rep.conflicts, rep.gaps, rep.added, rep.both, rep.sharedOnly)
	}
	var b bytes.Buffer
	rep.write(&b)
	for _, want := range []string{
		"live aws=live/aws.tsv: ec2:DescribeInstanceTypes in us-east-1, dumped 2026-09-01T10:11:12Z: 2 types (1 more listed as unavailable)\n",
		"  added 1 types the shared tables lack: m9.large\n",
		"  1 types in both (shared rows kept): 2 fields differ\n    m5.large vcpu: shared 2, live 4\n    m5.large hypervisor: shared nitro, live xen\n",
		"  cells empty in the shared table but known live (kept empty): ebs_max_iops 1\n",
		"  1 shared types are not in the dump (not offered there, or retired)\n",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, b.String())
		}
	}

	out, err := tbl.render("2026-09-01", "fedcba9876543210", regenerateCommand([]liveArg{{"aws", "live/aws.tsv"}}))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"# Regenerate: cd internal/planner/catalog && go run ./gen -sources ../../sources -out data -live aws=live/aws.tsv\n",
		"# rows: 3\n",
		"# input: live aws=live/aws.tsv sha256:" + lt.digest + " (livedump of ec2:DescribeInstanceTypes in us-east-1 at 2026-09-01T10:11:12Z)\n",
		"# source live-ec2: live ec2:DescribeInstanceTypes in us-east-1, dumped 2026-09-01T10:11:12Z by internal/livecatalog/cmd/livedump (see its input line); rows of types the shared tables lack (no price); the shared rows stay authoritative\n",
		"# data-date: 2026-09-01\n",
		"# attribution: kubefit aws catalog 2026-09-01 from getmoto/moto@0af643a5, live ec2:DescribeInstanceTypes in us-east-1 (2026-09-01); on-demand prices us-east-1 as of 2026-07-20\n",
		"# note: 1 rows (sources live-ec2) come from the live dump aws=live/aws.tsv; of the 1 types it shares with the shared tables, 2 fields differ and 1 cells are known only live",
		"\nm9.large\tm9\t2\t8192\tarm64\t",
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("rendered table lacks %q", want)
		}
	}
}

// TestMergeLiveAzureCase: Azure names match in any letter case; a different spelling is reported, not
// added.
func TestMergeLiveAzureCase(t *testing.T) {
	row := []string{"Standard_DS2_v2", "standardDSv2Family", "2", "2", "7168", "x86_64", "0", "false", "8", "6400", "96", "6400", "96", "0.146", "cluster-autoscaler"}
	tbl := &outTable{cloud: "azure", columns: azureColumns, rows: [][]string{row}, dataDate: "2026-08-22"}
	dump := "# cloud: azure\n# api: Microsoft.Compute/skus in eastus\n# dumped: 2026-08-01T00:00:00Z\n# types: 1\n" +
		"name\tfamily\tvcpu\tvcpu_quota\tmemory_mib\tarch\tgpus\tburstable\tmax_data_disks\tuncached_iops\tuncached_mbytes_per_s\tsources\n" +
		"standard_ds2_v2\tstandardDSv2Family\t2\t2\t7168\tx86_64\t0\tfalse\t8\t6400\t96\tlive-arm-skus\n"
	lt, err := parseLive(liveArg{"azure", "az.tsv"}, []byte(dump))
	if err != nil {
		t.Fatal(err)
	}
	rep := tbl.mergeLive(lt)
	if len(tbl.rows) != 1 || len(rep.added) != 0 || !slices.Equal(rep.conflicts, []fieldDiff{{"Standard_DS2_v2", "name", "Standard_DS2_v2", "standard_ds2_v2"}}) {
		t.Errorf("rows %v, report %+v", tbl.rows, rep)
	}
	if tbl.dataDate != "2026-08-22" || len(tbl.sources) != 0 {
		t.Errorf("a dump that adds no row moved the data date (%s) or named a source (%v)", tbl.dataDate, tbl.sources)
	}
}

// TestGenerateWithLiveDump runs the whole generator on the shared tables with a dump that
// livecatalog.Dump wrote from the loopback EC2 fake: the type only the dump has is added with the
// figures of the row it copies, every other row and the other clouds' rows are unchanged, and
// -fail-on-drift refuses to write when a shared row differs.
func TestGenerateWithLiveDump(t *testing.T) {
	for k, v := range map[string]string{
		"AWS_ACCESS_KEY_ID": "AKIAFAKEFAKEFAKE", "AWS_SECRET_ACCESS_KEY": "fake-secret", "AWS_SESSION_TOKEN": "",
		"AWS_REGION": "us-east-1", "AWS_PROFILE": "", "AWS_CONFIG_FILE": filepath.Join(t.TempDir(), "none"),
		"AWS_SHARED_CREDENTIALS_FILE": filepath.Join(t.TempDir(), "none"), "AWS_EC2_METADATA_DISABLED": "true",
	} {
		t.Setenv(k, v)
	}
	m5, err := catalog.Lookup(catalog.AWS, "m5.large")
	if err != nil {
		t.Fatal(err)
	}
	flex := m5
	flex.Name = "m5.flex9"
	fake := &livefake.EC2{Types: []catalog.InstanceType{m5, flex}}
	srv := httptest.NewServer(fake)
	defer srv.Close()
	var dump bytes.Buffer
	src := livecatalog.NewAWSSource(context.Background(), livecatalog.AWSConfig{Region: "us-east-1", Endpoint: srv.URL, MaxRetries: 0})
	if err := livecatalog.Dump(context.Background(), src, &dump); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "aws-live.tsv")
	if err := os.WriteFile(path, dump.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}

	plain, _, err := generate(sourcesDir, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	var report bytes.Buffer
	merged, conflicts, err := generate(sourcesDir, []liveArg{{"aws", path}}, &report)
	if err != nil {
		t.Fatal(err)
	}
	if conflicts != 0 || !strings.Contains(report.String(), "added 1 types the shared tables lack: m5.flex9\n") {
		t.Errorf("%d conflicts; report:\n%s", conflicts, report.String())
	}
	rows := func(data []byte) map[string]string {
		out := map[string]string{}
		for line := range strings.SplitSeq(string(data), "\n") {
			if name, _, ok := strings.Cut(line, "\t"); ok && !strings.HasPrefix(line, "#") {
				out[name] = line
			}
		}
		return out
	}
	before, after := rows(plain[0].data), rows(merged[0].data)
	if len(after) != len(before)+1 {
		t.Errorf("%d rows after the merge, %d before; want one more", len(after), len(before))
	}
	for name, line := range before {
		if after[name] != line {
			t.Errorf("shared row %s changed:\n%s\n%s", name, line, after[name])
		}
	}
	// The added row is m5.large's, less its price and with the live source.
	cells := strings.Split(after["m5.large"], "\t")
	cells[0], cells[len(cells)-2], cells[len(cells)-1] = "m5.flex9", "", "live-ec2"
	if want := strings.Join(cells, "\t"); after["m5.flex9"] != want {
		t.Errorf("added row\n%s\nwant\n%s", after["m5.flex9"], want)
	}
	for i := 1; i < 3; i++ {
		if !bytes.Equal(rowsOnly(plain[i].data), rowsOnly(merged[i].data)) {
			t.Errorf("%s rows changed by an AWS dump", plain[i].name)
		}
	}

	// A shared row that differs fails -fail-on-drift, and nothing is written.
	drift := strings.Replace(dump.String(), "\nm5.large\tm5\t2\t", "\nm5.large\tm5\t4\t", 1)
	if err := os.WriteFile(path, []byte(drift), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "data")
	report.Reset()
	err = run(options{sources: sourcesDir, out: out, live: []liveArg{{"aws", path}}, failOnDrift: true, report: &report})
	if err == nil || !strings.Contains(err.Error(), "1 fields differ") || !strings.Contains(report.String(), "m5.large vcpu: shared 2, live 4") {
		t.Errorf("-fail-on-drift: error %v, report:\n%s", err, report.String())
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("-fail-on-drift wrote %s (%v)", out, err)
	}
}

// rowsOnly drops the "# " header lines of a generated file.
func rowsOnly(data []byte) []byte {
	var b bytes.Buffer
	for line := range strings.SplitSeq(string(data), "\n") {
		if !strings.HasPrefix(line, "#") {
			b.WriteString(line + "\n")
		}
	}
	return b.Bytes()
}
