package provider

import (
	"fmt"
	"math"
	"os"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// diskTier renders a kubefit_disk_tier block.
func diskTier(name, attrs string) string {
	return fmt.Sprintf("data \"kubefit_disk_tier\" %q {\n%s\n}\n", name, attrs)
}

func expectDisk(name, attr string, v knownvalue.Check) statecheck.StateCheck {
	return statecheck.ExpectKnownValue("data.kubefit_disk_tier."+name, tfjsonpath.New(attr), v)
}

func expectDiskPath(name string, p tfjsonpath.Path, v knownvalue.Check) statecheck.StateCheck {
	return statecheck.ExpectKnownValue("data.kubefit_disk_tier."+name, p, v)
}

// approx checks a number within a relative tolerance, for figures that are fractions in binary.
type approx struct{ want, tol float64 }

func (a approx) CheckValue(v any) error {
	n, ok := v.(interface{ Float64() (float64, error) })
	if !ok {
		return fmt.Errorf("expected a number, got %T", v)
	}
	f, err := n.Float64()
	if err != nil {
		return err
	}
	if math.Abs(f-a.want) > a.tol*math.Max(1, math.Abs(a.want)) {
		return fmt.Errorf("got %v, want %v ± %v", f, a.want, a.tol)
	}
	return nil
}

func (a approx) String() string { return fmt.Sprintf("%v ± %v", a.want, a.tol) }

// TestAccDiskTier_azurePremium checks the field report's tiers (disks.md §4.2, §7.7): 256 GiB → P15
// 1,100 IOPS / 125 MB/s; 512 GiB → P20 2,300 / 150; 4 GiB → P1 120 / 25 (burst 3,500 / 170 for 30
// minutes); 300 GiB rounds up to P20 and is billed as 512 GiB. With 4 KiB random I/O the P20 reaches
// min(2,300, 150e6 / 4,096 = 36,621) = 2,300 operations/s × 4,096 B = 9,420,800 B/s = 9.4208 MB/s.
func TestAccDiskTier_azurePremium(t *testing.T) {
	premium := func(name string, size int, extra string) string {
		return diskTier(name, fmt.Sprintf("cloud = \"azure\"\ntype = \"Premium_LRS\"\nsize_gib = %d\n%s", size, extra))
	}
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: premium("p15", 256, "") + premium("p20", 512, "") + premium("p1", 4, "") + premium("r300", 300, "") +
				premium("fio", 512, "io = { block_size_kib = 4 }"),
			ConfigStateChecks: []statecheck.StateCheck{
				expectDisk("p15", "tier", knownvalue.StringExact("P15")),
				expectDisk("p15", "baseline_iops", knownvalue.Int64Exact(1100)),
				expectDisk("p15", "baseline_throughput_mbps", knownvalue.Float64Exact(125)),
				expectDisk("p15", "throughput_unit", knownvalue.StringExact("MB/s")),
				expectDisk("p20", "tier", knownvalue.StringExact("P20")),
				expectDisk("p20", "baseline_iops", knownvalue.Int64Exact(2300)),
				expectDisk("p20", "baseline_throughput_mbps", knownvalue.Float64Exact(150)),
				expectDisk("p1", "tier", knownvalue.StringExact("P1")),
				expectDisk("p1", "baseline_iops", knownvalue.Int64Exact(120)),
				expectDisk("p1", "baseline_throughput_mbps", knownvalue.Float64Exact(25)),
				expectDisk("p1", "burst_iops", knownvalue.Int64Exact(3500)),
				expectDisk("p1", "burst_throughput_mbps", knownvalue.Float64Exact(170)),
				expectDisk("p1", "burst_duration_minutes", knownvalue.Float64Exact(30)),
				expectDisk("r300", "tier", knownvalue.StringExact("P20")),
				expectDisk("r300", "billed_size_gib", knownvalue.Int64Exact(512)),
				expectDisk("fio", "effective_iops", knownvalue.Float64Exact(2300)),
				expectDisk("fio", "effective_throughput_mbps", approx{9.4208, 1e-9}),
				expectDisk("fio", "limited_by", knownvalue.StringExact("tier")),
				expectDisk("fio", "verdict", knownvalue.Null()),
				expectDisk("fio", "recommended", knownvalue.Null()),
				expectDisk("fio", "source", knownvalue.StringRegexp(regexp.MustCompile(`azure-disk-tiers\.tsv row P20.*2023-03-16`))),
			},
		}},
	})
}

// TestAccDiskTier_recommend: 1,000 IOPS on Premium_LRS recommends 256 GiB (P15, 1,100 IOPS) because
// the P10 below it sustains 500 (§7.8). At 100 GiB (a P10) the requirement is met only on burst
// credits: a warning (AZD-P1), verdict warn, and the plan succeeds.
func TestAccDiskTier_recommend(t *testing.T) {
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: diskTier("need", `cloud = "azure"
type = "Premium_LRS"
size_gib = 100
required_iops = 1000
io = { queue_depth = 4, latency_ms = 2.5 }`),
			ConfigStateChecks: []statecheck.StateCheck{
				expectDisk("need", "tier", knownvalue.StringExact("P10")),
				expectDisk("need", "verdict", knownvalue.StringExact("warn")),
				expectDisk("need", "recommended", knownvalue.ObjectPartial(map[string]knownvalue.Check{
					"type":            knownvalue.StringExact("Premium_LRS"),
					"size_gib":        knownvalue.Int64Exact(256),
					"tier":            knownvalue.StringExact("P15"),
					"billed_size_gib": knownvalue.Int64Exact(256),
					"enable_bursting": knownvalue.Bool(false),
					"reason":          knownvalue.StringRegexp(regexp.MustCompile(`P10 \(128 GiB\), sustains only 500 IOPS`)),
				})),
			},
		}},
	})
}

// TestAccDiskTier_instanceCap: gp3 at 16,000 IOPS / 1,000 MiB/s on an m5.large (baseline 3,600 IOPS,
// 81.25 MB/s; maximum 18,750 / 593.75) reaches 3,600 operations/s of 16 KiB, limited by the instance
// (§3.2); 3,600 × 16,384 B = 58,982,400 B/s = 56.25 MiB/s.
func TestAccDiskTier_instanceCap(t *testing.T) {
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: diskTier("gp3", `cloud = "aws"
type = "gp3"
size_gib = 100
iops = 16000
throughput_mbps = 1000
instance_type = "m5.large"`),
			ConfigStateChecks: []statecheck.StateCheck{
				expectDisk("gp3", "baseline_iops", knownvalue.Int64Exact(16000)),
				expectDisk("gp3", "baseline_throughput_mbps", knownvalue.Float64Exact(1000)),
				expectDisk("gp3", "throughput_unit", knownvalue.StringExact("MiB/s")),
				expectDisk("gp3", "tier", knownvalue.Null()),
				expectDisk("gp3", "effective_iops", knownvalue.Float64Exact(3600)),
				expectDisk("gp3", "effective_throughput_mbps", knownvalue.Float64Exact(56.25)),
				expectDisk("gp3", "limited_by", knownvalue.StringExact("instance")),
				expectDiskPath("gp3", tfjsonpath.New("instance").AtMapKey("baseline_iops"), knownvalue.Int64Exact(3600)),
				expectDiskPath("gp3", tfjsonpath.New("instance").AtMapKey("baseline_throughput_mbps"), knownvalue.Float64Exact(81.25)),
				expectDiskPath("gp3", tfjsonpath.New("instance").AtMapKey("burst_iops"), knownvalue.Int64Exact(18750)),
				expectDiskPath("gp3", tfjsonpath.New("instance").AtMapKey("burst_duration_minutes"), knownvalue.Float64Exact(30)),
			},
		}},
	})
}

// TestAccDiskTier_burstAndShare: a 100 GiB gp2 has 300 IOPS and bursts to 3,000 for
// 5,400,000 / 2,700 = 2,000 s = 33.33 minutes (§2.2). Two P20 on a Standard_D4s_v5 share its 145 MB/s:
// 64 KiB sequential I/O gets 72.5 MB/s each (§5.3).
func TestAccDiskTier_burstAndShare(t *testing.T) {
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: diskTier("gp2", `cloud = "aws"
type = "gp2"
size_gib = 100`) + diskTier("shared", `cloud = "azure"
type = "Premium_LRS"
size_gib = 512
instance_type = "Standard_D4s_v5"
volumes_per_node = 2
io = { block_size_kib = 64, pattern = "sequential" }`),
			ConfigStateChecks: []statecheck.StateCheck{
				expectDisk("gp2", "baseline_iops", knownvalue.Int64Exact(300)),
				expectDisk("gp2", "burst_iops", knownvalue.Int64Exact(3000)),
				expectDisk("gp2", "burst_duration_minutes", approx{2000.0 / 60, 1e-9}),
				expectDisk("shared", "effective_throughput_mbps", approx{72.5, 1e-9}),
				expectDisk("shared", "limited_by", knownvalue.StringExact("instance")),
			},
		}},
	})
}

// TestAccDiskTier_rejections checks that each failure names its attribute and rule, and that
// fail_on_unmet = false turns an unmet requirement into a warning.
func TestAccDiskTier_rejections(t *testing.T) {
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{ // 16,000 IOPS on 20 GiB is 800 IOPS per GiB (§2.3).
				Config:      diskTier("x", "cloud = \"aws\"\ntype = \"gp3\"\nsize_gib = 20\niops = 16000"),
				ExpectError: errRe("EBS-V4:", "gp3", "IOPS", "must", "not", "exceed", "500", "per", "GiB"),
			},
			{ // 1,000 MiB/s > 0.25 × 3,000 IOPS.
				Config:      diskTier("x", "cloud = \"aws\"\ntype = \"gp3\"\nsize_gib = 100\nthroughput_mbps = 1000"),
				ExpectError: errRe("EBS-V5:", "gp3", "throughput", "must", "not", "exceed", "0.25", "MiB/s", "per", "provisioned", "IOPS"),
			},
			{
				Config:      diskTier("x", "cloud = \"azure\"\ntype = \"premium_lrs\"\nsize_gib = 100"),
				ExpectError: errRe(`did`, `you`, `mean`, `"Premium_LRS"?`),
			},
			{
				Config:      diskTier("x", "cloud = \"azure\"\ntype = \"Premium_LRS\"\nsize_gib = 100\ninstance_type = \"Standard_D4s_v9\""),
				ExpectError: errRe("Unknown", "Instance", "Type"),
			},
			{ // The largest Premium tier (P80: 20,000 IOPS) and on-demand bursting (30,000) fall short.
				Config:      diskTier("x", "cloud = \"azure\"\ntype = \"Premium_LRS\"\nsize_gib = 1024\nrequired_iops = 50000\nio = { queue_depth = 128 }"),
				ExpectError: errRe("FIT-V2:", "no", "size", "of", "Premium_LRS", "meets"),
			},
			{ // t3.medium reaches at most 11,800 IOPS even while it bursts.
				Config: diskTier("x", "cloud = \"aws\"\ntype = \"gp3\"\nsize_gib = 100\niops = 16000\nthroughput_mbps = 250\n"+
					"instance_type = \"t3.medium\"\nrequired_iops = 15000\nio = { queue_depth = 32 }"),
				ExpectError: errRe("FIT-N2:", "instance", "t3.medium"),
			},
			{ // Queue depth 1 at 2.5 ms: 400 operations/s (§7.4).
				Config:      diskTier("x", "cloud = \"azure\"\ntype = \"Premium_LRS\"\nsize_gib = 512\nrequired_iops = 1000\nio = { queue_depth = 1, latency_ms = 2.5 }"),
				ExpectError: errRe("QD-2:", "queue", "depth", "1", "at", "2.5", "ms"),
			},
			{ // st1 with random I/O (§2.6): a throughput requirement is sequential by default (§7.9), so the
				// random pattern is the requirement's own.
				Config: diskTier("x", "cloud = \"aws\"\ntype = \"st1\"\nsize_gib = 1024\nrequired_throughput_mbps = 10\n"+
					"throughput_io = { pattern = \"random\" }"),
				ExpectError: errRe("EBS-P5:"),
			},
			{ // Standard_B2s attaches 4 data disks.
				Config:      diskTier("x", "cloud = \"azure\"\ntype = \"Premium_LRS\"\nsize_gib = 512\ninstance_type = \"Standard_B2s\"\nvolumes_per_node = 5"),
				ExpectError: errRe("FIT-N3:", "Standard_B2s", "attaches", "at", "most", "4"),
			},
			{
				Config: diskTier("x", "cloud = \"azure\"\ntype = \"Premium_LRS\"\nsize_gib = 1024\nrequired_iops = 50000\n"+
					"io = { queue_depth = 128 }\nfail_on_unmet = false"),
				ConfigStateChecks: []statecheck.StateCheck{
					expectDisk("x", "verdict", knownvalue.StringExact("fail")),
					expectDisk("x", "recommended", knownvalue.Null()),
					expectDisk("x", "tier", knownvalue.StringExact("P30")),
				},
			},
		},
	})
}

// TestAccDiskTier_unknownInputs: a size known only after apply defers the read without false errors.
func TestAccDiskTier_unknownInputs(t *testing.T) {
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: `resource "terraform_data" "size" {
  input = 512
}
` + diskTier("later", `cloud = "azure"
type = "Premium_LRS"
size_gib = terraform_data.size.output
required_iops = 1000
io = { queue_depth = terraform_data.size.output }`),
			ConfigStateChecks: []statecheck.StateCheck{
				expectDisk("later", "tier", knownvalue.StringExact("P20")),
				expectDisk("later", "verdict", knownvalue.StringExact("warn")), // latency assumed (FIT-A1)
			},
		}},
	})
}

// TestAccDiskTier_example plans the documentation example.
func TestAccDiskTier_example(t *testing.T) {
	src, err := os.ReadFile("../../examples/data-sources/kubefit_disk_tier/data-source.tf")
	if err != nil {
		t.Fatal(err)
	}
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: string(src),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownOutputValue("postgres_effective_mbps", approx{9.4208, 1e-9}),
				statecheck.ExpectKnownOutputValue("gp3_limited_by", knownvalue.StringExact("instance")),
				statecheck.ExpectKnownOutputValueAtPath("queue_disk", tfjsonpath.New("size_gib"), knownvalue.Int64Exact(256)),
				statecheck.ExpectKnownOutputValue("database_tier", knownvalue.StringExact("P30")),
				statecheck.ExpectKnownOutputValue("database_vm_sizes", dsv5Sustaining),
			},
		}},
	})
}

// dsv5Sustaining are the Dsv5 sizes whose uncached limits sustain 200 MB/s (azure-vm-disk-limits.tsv:
// 290, 600, 865, 1,315, 1,735 and 2,600 MB/s), smallest first; D2s_v5 (85) and D4s_v5 (145) reach it
// only on their VM-level burst.
var dsv5Sustaining = knownvalue.ListExact([]knownvalue.Check{
	knownvalue.StringExact("Standard_D8s_v5"), knownvalue.StringExact("Standard_D16s_v5"),
	knownvalue.StringExact("Standard_D32s_v5"), knownvalue.StringExact("Standard_D48s_v5"),
	knownvalue.StringExact("Standard_D64s_v5"), knownvalue.StringExact("Standard_D96s_v5"),
})

// TestAccDiskTier_separateRequirements is issue 20's must-hold: a database needing 5,000 IOPS of 8 KiB
// random reads and, separately, 200 MB/s of sequential scans on Premium_LRS gets P30 (5,000 IOPS, 200 MB/s),
// not P60: the IOPS requirement moves 5,000 × 8,192 B = 40.96 MB/s, the throughput requirement at its
// default 256 KiB sequential shape is 200e6 / 262,144 = 762.94 operations (763 counted I/Os), and the
// larger of the two in each limit is 5,000 IOPS and 200 MB/s (disks.md §7.9). On a Standard_D4s_v5
// (uncached 6,400 IOPS, 145 MB/s; burst 20,000 and 1,200 MB/s) 200 MB/s is a burst-only fit (FIT-N1, a
// warning: verdict warn), and the Dsv5 sizes from D8s_v5 (290 MB/s) up sustain it (disks.md §7.10).
func TestAccDiskTier_separateRequirements(t *testing.T) {
	config := diskTier("db", `cloud = "azure"
type = "Premium_LRS"
size_gib = 1024
instance_type = "Standard_D4s_v5"
required_iops = 5000
required_throughput_mbps = 200
iops_io = { block_size_kib = 8 }
io = { queue_depth = 16, latency_ms = 2.5 }`) + diskTier("scan", `cloud = "azure"
type = "Premium_LRS"
size_gib = 1
required_iops = 5000
required_throughput_mbps = 200
concurrent_requirements = true
fail_on_unmet = false # a 1 GiB disk does not sustain them: read the recommendation
iops_io = { block_size_kib = 8, pattern = "random" }
io = { queue_depth = 16, latency_ms = 2.5 }`)
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: config,
			ConfigStateChecks: []statecheck.StateCheck{
				expectDisk("db", "tier", knownvalue.StringExact("P30")),
				expectDisk("db", "recommended", knownvalue.ObjectPartial(map[string]knownvalue.Check{
					"tier": knownvalue.StringExact("P30"), "size_gib": knownvalue.Int64Exact(1024),
				})),
				expectDisk("db", "verdict", knownvalue.StringExact("warn")),
				expectDisk("db", "demand", knownvalue.ObjectPartial(map[string]knownvalue.Check{
					"counted_iops": knownvalue.Int64Exact(5000), "throughput_mbps": knownvalue.Float64Exact(200),
					"concurrent": knownvalue.Bool(false),
					"iops": knownvalue.ObjectExact(map[string]knownvalue.Check{
						"operations_per_sec": knownvalue.Float64Exact(5000), "block_size_kib": knownvalue.Int64Exact(8),
						"block_size_from": knownvalue.StringExact("iops_io"), "pattern": knownvalue.StringExact("random"),
						"pattern_from": knownvalue.StringExact("default"), "counted_iops": knownvalue.Int64Exact(5000),
						"throughput_mbps": approx{40.96, 1e-12},
					}),
					"throughput": knownvalue.ObjectExact(map[string]knownvalue.Check{
						"operations_per_sec": approx{200e6 / 262144, 1e-12}, "block_size_kib": knownvalue.Int64Exact(256),
						"block_size_from": knownvalue.StringExact("default"), "pattern": knownvalue.StringExact("sequential"),
						"pattern_from": knownvalue.StringExact("default"), "counted_iops": knownvalue.Int64Exact(763),
						"throughput_mbps": knownvalue.Float64Exact(200),
					}),
					"explanation": knownvalue.StringRegexp(regexp.MustCompile(`default 256 KiB of a throughput requirement`)),
				})),
				expectDiskPath("db", tfjsonpath.New("instance").AtMapKey("baseline_throughput_mbps"), knownvalue.Float64Exact(145)),
				expectDiskPath("db", tfjsonpath.New("instance").AtMapKey("burst_throughput_mbps"), knownvalue.Float64Exact(1200)),
				expectDiskPath("db", tfjsonpath.New("instance").AtMapKey("cached_iops"), knownvalue.Null()),
				expectDisk("db", "sustaining_instance_types", dsv5Sustaining),
				expectDisk("db", "source", knownvalue.StringRegexp(regexp.MustCompile(`disks\.md §7\.9.*disks\.md §7\.10`))),
				// At the same time the two add up: 5,763 IOPS and 240.96 MB/s, which needs P40 (7,500, 250).
				expectDisk("scan", "recommended", knownvalue.ObjectPartial(map[string]knownvalue.Check{
					"tier": knownvalue.StringExact("P40"),
				})),
				expectDisk("scan", "sustaining_instance_types", knownvalue.Null()),
				expectDiskPath("scan", tfjsonpath.New("demand").AtMapKey("counted_iops"), knownvalue.Int64Exact(5763)),
				expectDiskPath("scan", tfjsonpath.New("demand").AtMapKey("throughput_mbps"), approx{240.96, 1e-12}),
			},
		}, {
			Config:            config,
			ConfigPlanChecks:  resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			ConfigStateChecks: []statecheck.StateCheck{expectDisk("db", "sustaining_instance_types", dsv5Sustaining)},
		}},
	})
}

// TestAccDiskTier_hostCaching: Standard_D4s_v3 publishes uncached 6,400 IOPS / 96 MB/s and cached 8,000 /
// 64 MB/s (azure-vm-disk-limits.tsv). A ReadOnly-cached P30 doing 256 KiB sequential I/O is held to the
// cached 64 MB/s (no read hits assumed, disks.md §5.5); the same disk uncached reaches 96 MB/s.
func TestAccDiskTier_hostCaching(t *testing.T) {
	disk := func(name, caching string) string {
		return diskTier(name, `cloud = "azure"
type = "Premium_LRS"
size_gib = 1024
instance_type = "Standard_D4s_v3"
io = { block_size_kib = 256, pattern = "sequential" }
`+caching)
	}
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: disk("none", "") + disk("cached", `caching_mode = "ReadOnly"`),
			ConfigStateChecks: []statecheck.StateCheck{
				expectDisk("none", "effective_throughput_mbps", approx{96, 1e-12}),
				expectDisk("cached", "effective_throughput_mbps", approx{64, 1e-12}),
				expectDisk("cached", "limited_by", knownvalue.StringExact("instance")),
				expectDisk("cached", "explanation", knownvalue.StringRegexp(regexp.MustCompile(`64 MB/s cached \(host caching ReadOnly\)`))),
				expectDiskPath("cached", tfjsonpath.New("instance").AtMapKey("cached_iops"), knownvalue.Int64Exact(8000)),
				expectDiskPath("cached", tfjsonpath.New("instance").AtMapKey("cached_throughput_mbps"), knownvalue.Float64Exact(64)),
			},
		}},
	})
}

// TestAccDiskTier_requirementRejections: bad requirement shapes and caching fail the plan on their attribute.
func TestAccDiskTier_requirementRejections(t *testing.T) {
	base := "cloud = \"azure\"\ntype = \"Premium_LRS\"\nsize_gib = 1024\n"
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config:      diskTier("x", base+"required_throughput_mbps = 200\nthroughput_io = { block_size_kib = 0 }"),
				ExpectError: errRe("Attribute", "throughput_io.block_size_kib", "value", "must", "be", "between", "1", "and"),
			},
			{
				Config:      diskTier("x", base+"required_throughput_mbps = 200\niops_io = { block_size_kib = 8 }"),
				ExpectError: errRe(`Attribute`, `"required_iops"`, `must`, `be`, `specified`, `when`, `"iops_io"`, `is`, `specified`),
			},
			{
				Config:      diskTier("x", base+"required_iops = 100\niops_io = { pattern = \"mixed\" }"),
				ExpectError: errRe(`iops_io.pattern:`, `unknown`, `access`, `pattern`, `"mixed";`),
			},
			{
				Config:      diskTier("x", "cloud = \"azure\"\ntype = \"PremiumV2_LRS\"\nsize_gib = 100\ncaching_mode = \"ReadOnly\""),
				ExpectError: errRe("AZD-V3:", "PremiumV2_LRS", "allows", "only", "host", "caching", "None"),
			},
			{
				Config:      diskTier("x", "cloud = \"aws\"\ntype = \"gp3\"\nsize_gib = 100\ncaching_mode = \"ReadOnly\""),
				ExpectError: errRe("Host", "caching", "is", "an", "Azure", "managed-disk", "setting;", "gp3"),
			},
			{
				Config: diskTier("x", base+"required_iops = 5000\nrequired_throughput_mbps = 200\n"+
					"io = { queue_depth = 16, latency_ms = 2.5 }\ninstance_type = \"Standard_D4s_v5\""),
				ConfigStateChecks: []statecheck.StateCheck{expectDisk("x", "verdict", knownvalue.StringExact("warn"))},
			},
		},
	})
}

// TestAccDiskTier_unmetFailsByDefault: a volume whose baseline does not sustain the requirement (a P20's 2,300 IOPS
// against 5,000, beyond any credit burst) fails the plan by default, as fail_on_unmet says (FIT-V1 was a warning
// titled as a burst-only fit), and only warns with fail_on_unmet = false.
func TestAccDiskTier_unmetFailsByDefault(t *testing.T) {
	spec := `cloud = "azure"
type = "Premium_LRS"
size_gib = 512
required_iops = 5000
io = { queue_depth = 8 }`
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: diskTier("p20", spec), ExpectError: regexp.MustCompile(`Disk Requirement Not Met \(FIT-V1\)`)},
			{Config: diskTier("p20", spec+"\nfail_on_unmet = false"), ConfigStateChecks: []statecheck.StateCheck{
				expectDisk("p20", "verdict", knownvalue.StringExact("fail")),
				expectDiskPath("p20", tfjsonpath.New("recommended").AtMapKey("tier"), knownvalue.StringExact("P30")),
			}},
		},
	})
}

// TestAccDiskTier_gcpMachineSeries: a GCP disk type is checked against instance_type's machine series
// (disks.md §6.1): pd-balanced on an N4 node and hyperdisk-balanced on an E2 node cannot attach (GPD-M1, on
// type, naming the types the series attaches), Hyperdisk Balanced on N4 and pd-balanced on E2 pass, and a
// series kubefit has no source for (A2) is planned with a warning.
func TestAccDiskTier_gcpMachineSeries(t *testing.T) {
	gcp := func(typ, instance string) string {
		return diskTier("x", fmt.Sprintf("cloud = \"gcp\"\ntype = %q\nsize_gib = 100\ninstance_type = %q", typ, instance))
	}
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: gcp("pd-balanced", "n4-standard-8"),
				ExpectError: regexp.MustCompile(`(?s)type\s+=\s+"pd-balanced"\s+GPD-M1:\s+machine\s+type\s+n4-standard-8\s+cannot\s+attach\s+a\s+pd-balanced\s+disk:\s+the\s+N4\s+series.*` +
					`"hyperdisk-balanced",\s+"hyperdisk-balanced-high-availability"\s+and\s+"hyperdisk-throughput"`),
			},
			{
				Config:      gcp("hyperdisk-balanced", "e2-standard-4"),
				ExpectError: errRe("GPD-M1:", "machine", "type", "e2-standard-4", "cannot", "attach", "a", "hyperdisk-balanced", "disk:", "the", "E2", "series"),
			},
			{
				Config:      gcp("pd-extreme", "c3-standard-8"),
				ExpectError: errRe("GPD-M1:", "machine", "type", "c3-standard-8", "cannot", "attach", "a", "pd-extreme", "disk:", "the", "C3", "series"),
			},
			{
				// Google's Extreme Persistent Disk page: N2 from 64 vCPUs.
				Config:      gcp("pd-extreme", "n2-standard-8"),
				ExpectError: errRe("GPD-M1:", "machine", "type", "n2-standard-8", "cannot", "attach", "a", "pd-extreme", "disk:", "the", "N2", "series", "attaches", "pd-extreme", "only", "from", "64", "vCPUs"),
			},
			{
				Config: gcp("hyperdisk-balanced", "n4-standard-8") +
					diskTier("e2", "cloud = \"gcp\"\ntype = \"pd-balanced\"\nsize_gib = 100\ninstance_type = \"e2-standard-4\"") +
					diskTier("a2", "cloud = \"gcp\"\ntype = \"pd-balanced\"\nsize_gib = 100\ninstance_type = \"a2-highgpu-1g\""),
				ConfigStateChecks: []statecheck.StateCheck{
					expectDisk("x", "baseline_iops", knownvalue.Int64Exact(3000)),
					expectDisk("e2", "baseline_iops", knownvalue.Int64Exact(600)),
					expectDisk("a2", "baseline_iops", knownvalue.Int64Exact(600)),
				},
			},
		},
	})
}
