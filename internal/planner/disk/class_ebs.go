package disk

// The rules of the aws-ebs-csi-driver (ebs.csi.aws.com) and of EC2 for EBS volumes.

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/resource"
)

var alnum = regexp.MustCompile(`^[A-Za-z0-9]+$`)

// ebsKeys are the aws-ebs-csi-driver parameter keys, lower-cased (§8.2).
var ebsKeys = []string{
	"type", "iops", "iopspergb", "allowautoiopspergbincrease", "allowautoiopsincreaseonmodify", "throughput",
	"encrypted", "kmskeyid", "blocksize", "inodesize", "bytesperinode", "numberofinodes", "ext4clustersize",
	"ext4bigalloc", "ext4encryptionsupport", "volumeinitializationrate", "blockattachuntilinitialized",
	"blockexpress", "fstype", "csi.storage.k8s.io/fstype",
}

// ebsTagKeyPrefix is the driver's tag key test: strings.HasPrefix(key, "tagSpecification"), case-sensitive
// and without an underscore (aws-ebs-csi-driver pkg/driver/controller.go:224, pkg/driver/constants.go:119
// TagKeyPrefix @ 429e202e589798e55c0f8ddcc81b2850b7f000d0).
const ebsTagKeyPrefix = "tagSpecification"

// ebsReservedTagKeys are the tag keys the driver refuses (validateExtraTags, pkg/driver/validation.go:45-57,
// same commit; cloud.VolumeNameTagKey, cloud.SnapshotNameTagKey, ClusterNameTagKey); keys starting with
// "kubernetes.io" or "ebs.csi.aws.com/" are refused as well. --warn-on-invalid-tag (default false) turns
// the refusal into a dropped tag.
var ebsReservedTagKeys = []string{"CSIVolumeName", "CSIVolumeSnapshotName", "ebs.csi.aws.com/cluster-name"}

// checkEBSTag checks a tagSpecification value as template.Evaluate and validateExtraTags do: it must hold
// "key=value" (pkg/util/template/template.go:40-42, "the key-value pair doesn't contain a value") and its key
// must not be reserved.
func (c *checker) checkEBSTag(e entry) {
	key, _, ok := strings.Cut(e.value, "=")
	if !ok {
		c.errf("EBS-V10", e.key, "tag %s %q has no \"=\": the driver reads each tagSpecification as \"key=value\" (rule EBS-V10) "+
			"and fails every volume with \"the key-value pair doesn't contain a value\"; write %q (an empty value is \"%s=\")",
			e.key, e.value, e.value+"=<value>", e.value)
		return
	}
	if known(ebsReservedTagKeys, key) || strings.HasPrefix(key, "kubernetes.io") || strings.HasPrefix(key, string(EBSDriver)+"/") {
		c.errf("EBS-V10", e.key, "tag key %q in %s is reserved by the aws-ebs-csi-driver (%s, and keys starting with "+
			"kubernetes.io or ebs.csi.aws.com/; rule EBS-V10); the driver fails every volume with \"tag key ... is reserved\"; use "+
			"another key", key, e.key, strings.Join(ebsReservedTagKeys, ", "))
	}
}

func (c *checker) checkEBS() {
	for _, lk := range slices.Sorted(maps.Keys(c.byKey)) {
		e := c.byKey[lk]
		if known(ebsKeys, lk) {
			continue
		}
		if strings.HasPrefix(e.key, ebsTagKeyPrefix) {
			c.checkEBSTag(e)
			continue
		}
		c.errf("EBS-V10", e.key, "unknown aws-ebs-csi-driver parameter %s (rule EBS-V10: only the documented keys "+
			"and keys starting with tagSpecification, exact case, such as tagSpecification_1); the driver fails with "+
			"\"Invalid parameter key %s for CreateVolume\"", e.key, e.key)
	}
	if e, ok := c.get("fstype"); ok && e.key != "csi.storage.k8s.io/fstype" {
		c.warnf("EBS-V10", e.key, "parameter %s is deprecated; use csi.storage.k8s.io/fstype", e.key)
	}
	c.oneOf("EBS-V11", "csi.storage.k8s.io/fstype", false, "xfs", "ext3", "ext4")
	for _, k := range []string{"blockSize", "inodeSize", "bytesPerInode", "numberOfInodes", "ext4ClusterSize"} {
		if e, ok := c.get(k); ok && !alnum.MatchString(e.value) {
			c.errf("EBS-V11", e.key, "parameter %s must be alphanumeric (rule EBS-V11); could not parse %q", e.key, e.value)
		}
	}
	for _, k := range []string{"encrypted", "allowAutoIOPSPerGBIncrease", "allowAutoIOPSIncreaseOnModify",
		"ext4BigAlloc", "ext4EncryptionSupport", "blockAttachUntilInitialized"} {
		c.bool("EBS-V11", k)
	}
	c.int("EBS-V11", "volumeInitializationRate", 32)
	// A KMS key encrypts the volume whatever encrypted says: the driver passes kmsKeyId on
	// (pkg/driver/controller.go:179-180,411) and CreateDisk sets Encrypted = true with it
	// (pkg/cloud/cloud.go:914-917 @ 429e202e589798e55c0f8ddcc81b2850b7f000d0).
	if enc, ok := c.get("encrypted"); ok && !c.flag("encrypted") {
		if k, ok := c.get("kmsKeyId"); ok && k.value != "" {
			c.warnf("EBS-W3", enc.key, "encrypted is %q but kmsKeyId is set: the driver sends the key and EC2 "+
				"encrypts the volume with it anyway (rule EBS-W3); set encrypted to \"true\", or remove kmsKeyId for an "+
				"unencrypted volume (unless the account encrypts by default)", enc.value)
		}
	}
	if e, ok := c.get("ext4ClusterSize"); ok {
		if !c.flag("ext4BigAlloc") {
			c.errf("EBS-V12", e.key, "ext4ClusterSize requires ext4BigAlloc: \"true\" (rule EBS-V12); the driver "+
				"fails with \"Cannot set ext4BigAllocClusterSize when ext4BigAlloc is false\"")
		}
	}
	if e, ok := c.get("blockExpress"); ok {
		c.warnf("EBS-W2", e.key, "parameter %s is deprecated and ignored: every io2 volume is io2 Block Express "+
			"since 2025-04-30 (rule EBS-W2)", e.key)
	}

	typ := GP3
	if e, ok := c.get("type"); ok {
		t, err := ParseType(catalog.AWS, e.value)
		if err != nil {
			c.errf("EBS-V1", e.key, "type must be one of %s (rule EBS-V1); %v", field.QuoteList(TypesOf(catalog.AWS)), err)
			return
		}
		typ = t
	} else {
		c.warnf("SC-3", "type", "type is not set, so the driver's default (gp3) applies; set it explicitly (rule SC-3)")
	}
	c.rep.Type, c.rep.TypeName = typ, string(typ)
	iopsE, hasIOPS := c.get("iops")
	perGBE, hasPerGB := c.get("iopsPerGB")
	tpE, hasTP := c.get("throughput")
	iops, okIOPS := c.int("EBS-V11", "iops", 32)
	perGB, okPerGB := c.int("EBS-V11", "iopsPerGB", 32)
	tp, okTP := c.int("EBS-V11", "throughput", 32)
	auto := c.flag("allowAutoIOPSPerGBIncrease")
	if (hasIOPS && !okIOPS) || (hasPerGB && !okPerGB) || (hasTP && !okTP) {
		return
	}
	if hasIOPS && hasPerGB {
		c.errf("EBS-V2", perGBE.key, "iops and iopsPerGB are both set (rule EBS-V2: not both); the driver fails "+
			"with \"invalid StorageClass parameters; specify either IOPS or IOPSPerGb, not both\"")
		return
	}
	provisioned := typ == GP3 || typ == IO1 || typ == IO2
	if (hasIOPS || hasPerGB) && !provisioned {
		k := iopsE.key
		if hasPerGB {
			k = perGBE.key
		}
		c.errf("EBS-V3", k, "%s applies only to gp3, io1 and io2 (rule EBS-V3); %s IOPS follow the size", k, typ)
	}
	if hasTP && typ != GP3 {
		c.errf("EBS-V3", tpE.key, "throughput applies only to gp3 (rule EBS-V3); %s throughput is not provisioned", typ)
	}
	lo, hi := ebsSizeRange(typ)
	c.needSize(lo)
	for i, s := range c.sizes {
		if s < lo || s > hi {
			c.sizeErrf(i, ebsSizeRule(typ), "a %s GiB PVC is outside the %s size range of %s to %s GiB (rule %s)",
				resource.Group(s), typ, resource.Group(lo), resource.Group(hi), ebsSizeRule(typ))
		}
	}
	if !provisioned {
		return
	}
	r := ebsIOPSRule(typ)
	if !hasIOPS && !hasPerGB {
		if typ != GP3 {
			c.errf(r.id, "iops", "%s volumes need iops or iopsPerGB (rule %s: %s)", typ, r.id, r.text)
		} else if hasTP {
			c.checkGP3Throughput(tpE.key, tp, gp3MinIOPS, "the default 3,000 IOPS")
		}
		return
	}
	if hasIOPS {
		c.checkFixedIOPS(typ, r, iopsE.key, iops, hasTP, tpE.key, tp)
		return
	}
	c.checkPerGB(typ, r, perGBE.key, perGB, auto, hasTP, tpE.key, tp)
}

func ebsSizeRange(t Type) (int64, int64) {
	switch t {
	case GP3:
		return 1, 65_536
	case IO1:
		return 4, 16_384
	case IO2:
		return 4, 65_536
	case ST1, SC1:
		return 125, 16_384
	case Standard:
		return 1, 1_024
	}
	return 1, 16_384
}

func ebsSizeRule(t Type) string {
	switch t {
	case IO1:
		return "EBS-V6"
	case IO2:
		return "EBS-V7"
	}
	return "EBS-V8"
}

type ebsRule struct {
	id              string
	text            string
	min, max, perGB int64
}

func ebsIOPSRule(t Type) ebsRule {
	switch t {
	case IO1:
		return ebsRule{"EBS-V6", "100 ≤ IOPS ≤ min(64,000, 50 × size)", io1MinIOPS, io1MaxIOPS, io1IOPSPerGiB}
	case IO2:
		return ebsRule{"EBS-V7", "100 ≤ IOPS ≤ min(256,000, 1,000 × size)", io2MinIOPS, io2MaxIOPS, io2IOPSPerGiB}
	}
	return ebsRule{"EBS-V4", "3,000 ≤ IOPS ≤ 80,000 and IOPS ≤ max(3,000, 500 × size)", gp3MinIOPS, gp3MaxIOPS, gp3IOPSPerGiB}
}

// ebsMaxIOPSAt is the most IOPS a volume of the type may have at a size.
func ebsMaxIOPSAt(t Type, r ebsRule, size int64) int64 {
	if t == GP3 {
		return GP3MaxIOPS(size)
	}
	return min(r.max, r.perGB*size)
}

func (c *checker) checkFixedIOPS(t Type, r ebsRule, key string, iops int64, hasTP bool, tpKey string, tp int64) {
	if iops < r.min || iops > r.max {
		c.errf(r.id, key, "%s iops must be %s to %s (rule %s: %s); got %s", t, resource.Group(r.min), resource.Group(r.max), r.id,
			r.text, resource.Group(iops))
		return
	}
	minSize := resource.CeilDiv(iops, r.perGB)
	if t == GP3 && iops <= gp3MinIOPS {
		minSize = 1
	}
	c.needSize(minSize)
	for _, s := range c.sizes {
		if limit := ebsMaxIOPSAt(t, r, s); iops > limit {
			c.errf(r.id, key, "%s iops %s on a %s GiB PVC is %s IOPS per GiB, above the %s:1 limit (rule %s: %s); "+
				"the driver would silently cap it or EC2 would fail with \"Iops to volume size ratio of %.6f is too "+
				"high; maximum is %d\"; use PVCs of at least %s GiB or at most %s IOPS", t, resource.Group(iops), resource.Group(s),
				num(float64(iops)/float64(s)), resource.Group(r.perGB), r.id, r.text, float64(iops)/float64(s), r.perGB,
				resource.Group(minSize), resource.Group(limit))
		}
	}
	if t == GP3 {
		if iops > gp3LegacyMaxIOPS {
			c.warnf("EBS-W1", key, "aws-ebs-csi-driver releases before v1.50.0, or later ones whose dry-run "+
				"CreateVolume fails, cap gp3 at 16,000 IOPS without an error (rule EBS-W1); %s IOPS need driver "+
				"v1.50.2 or later with ec2:CreateVolume dry-run permission", resource.Group(iops))
		}
		if hasTP {
			c.checkGP3Throughput(tpKey, tp, iops, resource.Group(iops)+" IOPS")
		}
	}
}

func (c *checker) checkGP3Throughput(key string, tp, iops int64, iopsText string) {
	if tp < gp3MinMiBps || tp > gp3MaxMiBps {
		c.errf("EBS-V5", key, "gp3 throughput must be 125 to 2,000 MiB/s (rule EBS-V5: 125 ≤ throughput ≤ 2,000 and "+
			"throughput ≤ 0.25 × IOPS); got %s", resource.Group(tp))
		return
	}
	if tp*gp3IOPSPerMiBps > iops {
		c.errf("EBS-V5", key, "gp3 throughput %s MiB/s with %s is %.6f MiB/s per IOPS, above 0.25 (rule EBS-V5: "+
			"throughput ≤ 0.25 × IOPS); EC2 would fail with \"Throughput (MiBps) to iops ratio of %.6f is too high; "+
			"maximum is 0.250000 MiBps per iops\"; provision at least %s IOPS or at most %s MiB/s", resource.Group(tp), iopsText,
			float64(tp)/float64(iops), float64(tp)/float64(iops), resource.Group(tp*gp3IOPSPerMiBps), resource.Group(iops/gp3IOPSPerMiBps))
	}
}

func (c *checker) checkPerGB(t Type, r ebsRule, key string, perGB int64, auto, hasTP bool, tpKey string, tp int64) {
	if perGB < 1 && !auto {
		c.errf("EBS-V9", key, "iopsPerGB %d gives no IOPS (rule EBS-V9: iopsPerGB × size ≥ %s unless "+
			"allowAutoIOPSPerGBIncrease); old drivers fail with \"the resulting IOPS 0 is too low for AWS\"", perGB, resource.Group(r.min))
		return
	}
	if perGB > r.perGB {
		c.errf(r.id, key, "%s iopsPerGB %s is above the %s:1 IOPS-to-size limit (rule %s: %s)", t, resource.Group(perGB),
			resource.Group(r.perGB), r.id, r.text)
		return
	}
	if perGB > 0 && !auto {
		c.needSize(resource.CeilDiv(r.min, perGB))
	}
	if t == GP3 && hasTP && perGB > 0 {
		c.needSize(resource.CeilDiv(tp*gp3IOPSPerMiBps, perGB))
	}
	for _, s := range c.sizes {
		iops := perGB * s
		if iops < r.min {
			if !auto {
				c.errf("EBS-V9", key, "iopsPerGB %s × %s GiB = %s IOPS, below the %s minimum of %s (rule EBS-V9: "+
					"iopsPerGB × size ≥ the type minimum unless allowAutoIOPSPerGBIncrease); EC2 would fail with "+
					"\"Volume iops of %d is too low\"", resource.Group(perGB), resource.Group(s), resource.Group(iops), t, resource.Group(r.min), iops)
				continue
			}
			c.warnf("EBS-V9", key, "iopsPerGB %s × %s GiB = %s IOPS is raised to the %s minimum of %s by "+
				"allowAutoIOPSPerGBIncrease (rule EBS-V9)", resource.Group(perGB), resource.Group(s), resource.Group(iops), t, resource.Group(r.min))
			iops = r.min
		}
		if iops > r.max {
			c.errf(r.id, key, "iopsPerGB %s × %s GiB = %s IOPS, above the %s maximum of %s, which the driver "+
				"silently caps (rule %s: %s)", resource.Group(perGB), resource.Group(s), resource.Group(iops), t, resource.Group(r.max), r.id, r.text)
			continue
		}
		if t == GP3 && iops > gp3LegacyMaxIOPS {
			c.warnf("EBS-W1", key, "a %s GiB PVC gets %s IOPS; aws-ebs-csi-driver releases before v1.50.0 cap gp3 "+
				"at 16,000 without an error (rule EBS-W1)", resource.Group(s), resource.Group(iops))
		}
		if t == GP3 && hasTP {
			c.checkGP3Throughput(tpKey, tp, iops, fmt.Sprintf("%s IOPS at %s GiB", resource.Group(iops), resource.Group(s)))
		}
	}
	if t == GP3 && hasTP && len(c.sizes) == 0 && (tp < gp3MinMiBps || tp > gp3MaxMiBps) {
		c.checkGP3Throughput(tpKey, tp, gp3MaxIOPS, "")
	}
}
