package disk

import (
	"fmt"
	"maps"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	quantity "k8s.io/apimachinery/pkg/api/resource"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/resource"
)

// Driver is a CSI driver name, used as a StorageClass provisioner (disks.md §8).
type Driver string

// The CSI drivers kubefit validates StorageClasses for.
const (
	EBSDriver       Driver = "ebs.csi.aws.com"       // aws-ebs-csi-driver
	AzureDiskDriver Driver = "disk.csi.azure.com"    // azuredisk-csi-driver
	GCEPDDriver     Driver = "pd.csi.storage.gke.io" // GCE PD CSI driver
)

// Drivers lists the CSI drivers in the order of catalog.Clouds.
var Drivers = []Driver{EBSDriver, AzureDiskDriver, GCEPDDriver}

// InTreeProvisioners maps the removed in-tree provisioner names to the CSI driver that replaced them.
var InTreeProvisioners = map[string]Driver{
	"kubernetes.io/aws-ebs":    EBSDriver,
	"kubernetes.io/azure-disk": AzureDiskDriver,
	"kubernetes.io/gce-pd":     GCEPDDriver,
}

// InTreeNames lists the keys of InTreeProvisioners in the order of Drivers.
var InTreeNames = []string{"kubernetes.io/aws-ebs", "kubernetes.io/azure-disk", "kubernetes.io/gce-pd"}

// Cloud returns the cloud a driver provisions disks on.
func (d Driver) Cloud() catalog.Cloud {
	switch d {
	case EBSDriver:
		return catalog.AWS
	case AzureDiskDriver:
		return catalog.Azure
	case GCEPDDriver:
		return catalog.GCP
	}
	return ""
}

// ParseProvisioner validates a StorageClass provisioner. An in-tree name is accepted with an SC-W1
// warning naming the CSI driver; any other name is a *field.Error at Provisioner.
func ParseProvisioner(s string) (Driver, []Finding, error) {
	d, notes, err := parseProvisioner(s)
	if err != nil {
		return d, notes, err.Input()
	}
	return d, notes, nil
}

func parseProvisioner(s string) (Driver, []Finding, *Finding) {
	for _, d := range Drivers {
		if string(d) == s {
			return d, nil, nil
		}
	}
	if d, ok := InTreeProvisioners[s]; ok {
		return d, []Finding{warnf("SC-W1", pathProvisioner, "%q is the in-tree provisioner, removed from "+
			"Kubernetes; with CSI migration its volumes are created by the CSI driver %q, whose rules kubefit "+
			"checks. Use provisioner %q", s, d, d)}, nil
	}
	return "", nil, errorf("SC-W1", pathProvisioner, "unknown provisioner %q; kubefit validates %s (in-tree "+
		"names %s are accepted with a warning)", s, field.QuoteList(Drivers), field.QuoteList(InTreeNames))
}

// Binding modes of a StorageClass.
const (
	BindingWaitForFirstConsumer = "WaitForFirstConsumer"
	BindingImmediate            = "Immediate"
)

// Class is a StorageClass to check: provisioner, parameters and the PVC sizes it must serve.
type Class struct {
	Provisioner       string
	Parameters        map[string]string
	VolumeBindingMode string  // "" when not set
	SizesGiB          []int64 // planned PVC sizes; empty when unknown
}

// ClassReport is the outcome of CheckClass.
type ClassReport struct {
	Driver Driver
	// Type is the disk type the class creates, "" when it is not one the planner models (for example
	// hyperdisk-throughput) or the type is invalid; TypeName is the type as the class names it.
	Type     Type
	TypeName string
	// MinSizeGiB is the smallest PVC size for which the class's parameters are valid and not silently
	// changed by the driver (SC-5).
	MinSizeGiB int64
	Findings   []Finding
}

// Err returns the error findings as input errors (field.Errors, in finding order), or nil.
func (r ClassReport) Err() error {
	var es field.Errors
	for i := range r.Findings {
		if r.Findings[i].Severity == SeverityError {
			es = append(es, r.Findings[i].Input())
		}
	}
	return es.Err()
}

// reservedPrefix is the external-provisioner's parameter namespace (SC-4).
const reservedPrefix = "csi.storage.k8s.io/"

// ReservedKeys lists the keys under csi.storage.k8s.io/ that the external-provisioner consumes (SC-4).
var ReservedKeys = []string{
	"csi.storage.k8s.io/fstype",
	"csi.storage.k8s.io/provisioner-secret-name", "csi.storage.k8s.io/provisioner-secret-namespace",
	"csi.storage.k8s.io/controller-publish-secret-name", "csi.storage.k8s.io/controller-publish-secret-namespace",
	"csi.storage.k8s.io/node-stage-secret-name", "csi.storage.k8s.io/node-stage-secret-namespace",
	"csi.storage.k8s.io/node-publish-secret-name", "csi.storage.k8s.io/node-publish-secret-namespace",
	"csi.storage.k8s.io/controller-expand-secret-name", "csi.storage.k8s.io/controller-expand-secret-namespace",
	"csi.storage.k8s.io/node-expand-secret-name", "csi.storage.k8s.io/node-expand-secret-namespace",
}

// checker holds one class's parameters during checking.
type checker struct {
	rep     *ClassReport
	byKey   map[string]entry // lookup key (lower-cased where the driver ignores case) → entry
	sizes   []int64
	binding string
}

type entry struct{ key, value string }

// errf reports an error about the parameter key.
func (c *checker) errf(rule, key, format string, args ...any) {
	c.rep.Findings = append(c.rep.Findings, *errorf(rule, ParameterPath(key), format, args...))
}

// warnf reports a warning about the parameter key.
func (c *checker) warnf(rule, key, format string, args ...any) {
	c.rep.Findings = append(c.rep.Findings, warnf(rule, ParameterPath(key), format, args...))
}

// sizeErrf reports an error about the i-th planned PVC size.
func (c *checker) sizeErrf(i int, rule, format string, args ...any) {
	c.rep.Findings = append(c.rep.Findings, *errorf(rule, pathSizes.At(i), format, args...))
}

// add reports a finding of a shared volume rule at a PVC size, naming the size.
func (c *checker) add(err error, sizeGiB int64) {
	if f, ok := err.(*Finding); ok {
		g := *f
		g.Message = fmt.Sprintf("a %s GiB PVC: %s", resource.Group(sizeGiB), f.Message)
		c.rep.Findings = append(c.rep.Findings, g)
	}
}

func (c *checker) get(k string) (entry, bool) {
	e, ok := c.byKey[strings.ToLower(k)]
	return e, ok
}

func (c *checker) needSize(n int64) {
	c.rep.MinSizeGiB = max(c.rep.MinSizeGiB, n)
}

// int parses an integer parameter; bits is 32 or 64. It reports rule on failure.
func (c *checker) int(rule, k string, bits int) (int64, bool) {
	e, ok := c.get(k)
	if !ok {
		return 0, false
	}
	v, err := strconv.ParseInt(e.value, 10, bits)
	if err != nil {
		c.errf(rule, e.key, "parameter %s must be a base-10 integer (int%d) written without exponent or "+
			"separators (rules %s, SC-1: every value is a decimal string); could not parse %q", e.key, bits, rule, e.value)
		return 0, false
	}
	return v, true
}

// bool parses a true/false parameter.
func (c *checker) bool(rule, k string) (bool, bool) {
	e, ok := c.get(k)
	if !ok {
		return false, false
	}
	v, err := strconv.ParseBool(e.value)
	if err != nil {
		c.errf(rule, e.key, "parameter %s must be \"true\" or \"false\" (rule %s), got %q", e.key, rule, e.value)
		return false, false
	}
	return v, true
}

// flag reads a true/false parameter without reporting; an unparseable value reads as false.
func (c *checker) flag(k string) bool {
	e, ok := c.get(k)
	if !ok {
		return false
	}
	v, err := strconv.ParseBool(e.value)
	return err == nil && v
}

// oneOf checks an enumerated value; fold compares case-insensitively.
func (c *checker) oneOf(rule, k string, fold bool, valid ...string) (string, bool) {
	e, ok := c.get(k)
	if !ok {
		return "", false
	}
	for _, v := range valid {
		if e.value == v || (fold && strings.EqualFold(e.value, v)) {
			return v, true
		}
	}
	c.errf(rule, e.key, "parameter %s must be one of %s (rule %s), got %q", e.key, field.QuoteList(valid), rule, e.value)
	return "", false
}

// CheckClass validates a StorageClass against the rules of disks.md §8 for its provisioner, at each
// planned PVC size, and computes the smallest valid PVC size (SC-5).
func CheckClass(cl Class) ClassReport {
	rep := ClassReport{MinSizeGiB: 1}
	d, notes, err := parseProvisioner(cl.Provisioner)
	if err != nil {
		rep.Findings = append(rep.Findings, *err)
		return rep
	}
	rep.Driver = d
	rep.Findings = append(rep.Findings, notes...)
	c := &checker{rep: &rep, byKey: map[string]entry{}, sizes: cl.SizesGiB, binding: cl.VolumeBindingMode}
	for i, s := range cl.SizesGiB {
		if s < 1 {
			rep.Findings = append(rep.Findings, *errorf("", pathSizes.At(i), "PVC size must be at least 1 GiB, got %d GiB", s))
			return rep
		}
	}
	for _, k := range slices.Sorted(maps.Keys(cl.Parameters)) {
		v := cl.Parameters[k]
		if strings.HasPrefix(k, reservedPrefix) {
			c.checkReserved(k, v)
			continue
		}
		// Every driver's keys are case-insensitive (§8.2–§8.4), except the EBS tagSpecification_ prefix.
		lk := strings.ToLower(k)
		if d == EBSDriver && strings.HasPrefix(k, "tagSpecification_") {
			lk = k
		}
		if prev, dup := c.byKey[lk]; dup {
			c.errf(unknownKeyRule(d), k, "parameter %s is given twice: keys are case-insensitive and %s is the same "+
				"key; keep one (rule %s: each key once, as the driver knows it)", k, prev.key, unknownKeyRule(d))
			continue
		}
		c.byKey[lk] = entry{k, v}
	}
	switch d {
	case EBSDriver:
		c.checkEBS()
	case AzureDiskDriver:
		c.checkAzure()
	case GCEPDDriver:
		c.checkGCE()
	}
	c.checkBinding()
	return rep
}

func unknownKeyRule(d Driver) string {
	switch d {
	case EBSDriver:
		return "EBS-V10"
	case AzureDiskDriver:
		return "AZD-V13"
	}
	return "GPD-V1"
}

func (c *checker) checkReserved(k, v string) {
	for _, r := range ReservedKeys {
		if k == r {
			if k == "csi.storage.k8s.io/fstype" {
				c.byKey[k] = entry{k, v}
			}
			return
		}
	}
	c.errf("SC-4", k, "parameter %s uses the reserved prefix csi.storage.k8s.io/, which only the "+
		"external-provisioner's documented keys may use (rule SC-4: fstype and the provisioner, controller and node "+
		"secret keys); provisioning would fail with \"found unknown parameter key %q with reserved namespace "+
		"csi.storage.k8s.io/\"", k, k)
}

// zonal reports whether the class creates zonal disks (all types except regional PD and ZRS).
func (c *checker) zonal() bool {
	switch c.rep.TypeName {
	case string(PremiumZRS), string(StandardSSDZRS):
		return false
	}
	if e, ok := c.get("replication-type"); ok && strings.EqualFold(e.value, "regional-pd") {
		return false
	}
	return c.rep.TypeName != "hyperdisk-balanced-high-availability"
}

func (c *checker) checkBinding() {
	if c.binding == BindingImmediate && c.zonal() {
		c.rep.Findings = append(c.rep.Findings, Finding{Rule: "SC-2", Severity: SeverityWarning,
			Path: pathBinding, Message: fmt.Sprintf("volumeBindingMode Immediate creates a zonal %s disk "+
				"before the pod is scheduled, possibly in a zone where the pod cannot run (rule SC-2: emit "+
				"WaitForFirstConsumer for zonal disks)", c.rep.TypeName)})
	}
}

var alnum = regexp.MustCompile(`^[A-Za-z0-9]+$`)

// ebsKeys are the aws-ebs-csi-driver parameter keys, lower-cased (§8.2).
var ebsKeys = []string{
	"type", "iops", "iopspergb", "allowautoiopspergbincrease", "allowautoiopsincreaseonmodify", "throughput",
	"encrypted", "kmskeyid", "blocksize", "inodesize", "bytesperinode", "numberofinodes", "ext4clustersize",
	"ext4bigalloc", "ext4encryptionsupport", "volumeinitializationrate", "blockattachuntilinitialized",
	"blockexpress", "fstype", "csi.storage.k8s.io/fstype",
}

func known(keys []string, k string) bool {
	for _, x := range keys {
		if x == k {
			return true
		}
	}
	return false
}

func (c *checker) checkEBS() {
	for _, lk := range slices.Sorted(maps.Keys(c.byKey)) {
		e := c.byKey[lk]
		if strings.HasPrefix(e.key, "tagSpecification_") || known(ebsKeys, lk) {
			continue
		}
		c.errf("EBS-V10", e.key, "unknown aws-ebs-csi-driver parameter %s (rule EBS-V10: only the documented keys "+
			"and tagSpecification_<n>); EC2 would fail with \"Invalid parameter key %s for CreateVolume\"", e.key, e.key)
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

// azureKeys are the azuredisk-csi-driver parameter keys, lower-cased (§8.3).
var azureKeys = []string{
	"skuname", "storageaccounttype", "cachingmode", "diskiopsreadwrite", "diskmbpsreadwrite", "logicalsectorsize",
	"fstype", "networkaccesspolicy", "publicnetworkaccess", "enablebursting", "enableperformanceplus",
	"perfprofile", "maxshares", "diskencryptionsetid", "diskencryptiontype", "writeacceleratorenabled", "tags",
	"location", "resourcegroup", "subscriptionid", "diskaccessid", "attachdiskinitialdelay", "useragent", "kind",
	"tagvaluedelimiter", "csi.storage.k8s.io/fstype",
}

// AzureSKUs lists the skuName values the azuredisk CSI driver accepts (AZD-V1).
var AzureSKUs = []Type{StandardLRS, PremiumLRS, StandardSSDLRS, UltraSSDLRS, PremiumZRS, StandardSSDZRS, PremiumV2LRS}

// AzureCachingModes lists the cachingMode values kubefit accepts (AZD-V2; ReadWrite is rejected, AZC-3).
var AzureCachingModes = []string{"None", "ReadOnly"}

func (c *checker) checkAzure() {
	for _, lk := range slices.Sorted(maps.Keys(c.byKey)) {
		e := c.byKey[lk]
		if strings.HasPrefix(lk, "device-setting/") || known(azureKeys, lk) {
			continue
		}
		c.errf("AZD-V13", e.key, "unknown azuredisk-csi-driver parameter %s (rule AZD-V13: only documented keys and "+
			"device-setting/<path>); the driver fails with \"invalid parameter %s in storage class\"", e.key, e.key)
	}
	c.oneOf("AZD-V12", "fsType", false, "ext4", "ext3", "ext2", "xfs", "btrfs", "ntfs")
	c.oneOf("AZD-V12", "publicNetworkAccess", false, "Enabled", "Disabled")
	c.oneOf("AZD-V12", "perfProfile", true, "none", "basic", "advanced")
	c.int("AZD-V12", "attachDiskInitialDelay", 64)
	c.bool("AZD-V12", "writeAcceleratorEnabled")
	shares, hasShares := c.int("AZD-V12", "maxShares", 64)
	if hasShares && shares < 1 {
		e, _ := c.get("maxShares")
		c.errf("AZD-V12", e.key, "maxShares must be an integer of at least 1 (rule AZD-V12), got %d", shares)
	}
	if e, ok := c.get("subscriptionID"); ok && e.value != "" {
		if rg, ok := c.get("resourceGroup"); !ok || rg.value == "" {
			c.errf("AZD-V12", e.key, "subscriptionID requires resourceGroup (azuredisk-csi-driver parameters)")
		}
	}
	c.checkAzureAccess()

	sku := StandardSSDLRS
	skuKey := "skuName"
	e, ok := c.get("skuName")
	if alias, aok := c.get("storageAccountType"); aok {
		if ok && alias.value != e.value {
			c.errf("AZD-V1", alias.key, "skuName %q and its alias storageAccountType %q disagree; set one", e.value, alias.value)
			return
		}
		e, ok = alias, true
	}
	if ok {
		skuKey = e.key
		t := Type(e.value)
		if !known(typeStrings(AzureSKUs), e.value) {
			hint := ""
			for _, s := range AzureSKUs {
				if strings.EqualFold(string(s), e.value) {
					hint = fmt.Sprintf("; values are case-sensitive: did you mean %q?", s)
				}
			}
			c.errf("AZD-V1", e.key, "%s %q is not a supported SKU (rule AZD-V1: one of %s, exact case); the driver "+
				"fails with \"azureDisk - %s is not supported sku/storageaccounttype\"%s", e.key, e.value,
				field.QuoteList(AzureSKUs), e.value, hint)
			return
		}
		sku = t
	} else {
		c.warnf("SC-3", "skuName", "skuName is not set, so the driver's default StandardSSD_LRS applies; set it "+
			"explicitly (rule SC-3)")
	}
	c.rep.Type, c.rep.TypeName = sku, string(sku)
	provisioned := sku == PremiumV2LRS || sku == UltraSSDLRS
	caching := c.checkCaching(sku, provisioned)

	iopsE, hasIOPS := c.get("DiskIOPSReadWrite")
	mbpsE, hasMBps := c.get("DiskMBpsReadWrite")
	iops, okIOPS := c.int("AZD-V12", "DiskIOPSReadWrite", 64)
	mbps, okMBps := c.int("AZD-V12", "DiskMBpsReadWrite", 64)
	sector, hasSector := c.get("LogicalSectorSize")
	if hasSector {
		c.oneOf("AZD-V12", "LogicalSectorSize", false, "512", "4096")
	}
	if !provisioned {
		for _, x := range []struct {
			e  entry
			ok bool
		}{{iopsE, hasIOPS}, {mbpsE, hasMBps}, {sector, hasSector}} {
			if x.ok {
				c.errf("AZD-V4", x.e.key, "%s applies only to UltraSSD_LRS and PremiumV2_LRS (rule AZD-V4); %s "+
					"performance comes from its size tier; the driver fails with \"AzureDisk - %s parameter is only "+
					"applicable in UltraSSD_LRS disk type\"", x.e.key, sku, x.e.key)
			}
		}
	}
	bursting, _ := c.bool("AZD-V12", "enableBursting")
	perfPlus, _ := c.bool("AZD-V12", "enablePerformancePlus")
	c.checkAzureFeatures(sku, bursting, perfPlus, hasShares && shares > 1)
	if isAzureFixed(sku) {
		for _, s := range c.sizes {
			if s > azureMaxFixedGiB {
				c.errf("AZD-V7", skuKey, "a %s GiB PVC exceeds the largest %s tier of 32,767 GiB (rule AZD-V7)", resource.Group(s), sku)
			}
		}
	}
	if caching == "ReadOnly" {
		for _, s := range c.sizes {
			if s >= azureCachingLimitGiB {
				c.warnf("AZC-5", "cachingMode", "a %s GiB PVC cannot use host caching: Azure allows caching up to "+
					"4,095 GiB and the driver forces None from 4,096 GiB (rule AZC-5); kubefit plans it as uncached", resource.Group(s))
			}
		}
	}
	if !provisioned || (hasIOPS && !okIOPS) || (hasMBps && !okMBps) {
		return
	}
	if sku == PremiumV2LRS {
		c.checkPV2Class(hasIOPS, iops, iopsE.key, hasMBps, mbps, mbpsE.key)
		return
	}
	c.checkUltraClass(hasIOPS, iops, iopsE.key, hasMBps, mbps, mbpsE.key)
}

func typeStrings(ts []Type) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = string(t)
	}
	return out
}

func (c *checker) checkAzureAccess() {
	policy, hasPolicy := c.oneOf("AZD-V10", "networkAccessPolicy", false, "AllowAll", "DenyAll", "AllowPrivate")
	access, hasAccess := c.get("diskAccessID")
	hasAccess = hasAccess && access.value != ""
	switch {
	case hasPolicy && policy == "AllowPrivate" && !hasAccess:
		e, _ := c.get("networkAccessPolicy")
		c.errf("AZD-V10", e.key, "networkAccessPolicy AllowPrivate requires diskAccessID (rule AZD-V10); the driver "+
			"fails with \"DiskAccessID should not be empty when NetworkAccessPolicy is AllowPrivate\"")
	case hasAccess && policy != "AllowPrivate":
		c.errf("AZD-V10", access.key, "diskAccessID must be empty unless networkAccessPolicy is AllowPrivate (rule AZD-V10)")
	}
	encType, hasType := c.oneOf("AZD-V11", "diskEncryptionType", false,
		"EncryptionAtRestWithCustomerKey", "EncryptionAtRestWithPlatformAndCustomerKeys")
	if set, ok := c.get("diskEncryptionSetID"); hasType && (!ok || set.value == "") {
		e, _ := c.get("diskEncryptionType")
		c.errf("AZD-V11", e.key, "diskEncryptionType %s requires diskEncryptionSetID (rule AZD-V11); the driver fails "+
			"with \"AzureDisk - DiskEncryptionType(%s) should be empty when DiskEncryptionSetID is not set\"", encType, encType)
	}
}

func (c *checker) checkCaching(sku Type, provisioned bool) string {
	e, ok := c.get("cachingMode")
	if !ok {
		if provisioned {
			c.errf("AZD-V3", "cachingMode", "%s requires cachingMode None, and kubefit always emits it (rule AZD-V3); "+
				"without it the driver default ReadOnly reaches Azure: \"Storage Account type %s is not supported with "+
				"caching type ReadOnly\"", sku, sku)
		} else {
			c.warnf("AZC-1", "cachingMode", "cachingMode is not set, so the driver default ReadOnly applies; set it "+
				"explicitly, None unless the workload is read-mostly (rules AZC-1, AZC-2)")
		}
		return ""
	}
	switch e.value {
	case "ReadWrite":
		c.errf("AZD-V2", e.key, "cachingMode ReadWrite is rejected (rules AZD-V2, AZC-3): it is deprecated in the "+
			"azuredisk CSI driver, and host write caching on a write-heavy data disk froze AKS nodes for minutes in "+
			"the field report (the cached bucket, shared with the OS disk, throttles); use None")
		return ""
	case "None", "ReadOnly":
	default:
		c.errf("AZD-V2", e.key, "cachingMode must be one of %s, exact case (rule AZD-V2), got %q; the driver fails "+
			"with \"azureDisk - %s is not supported cachingmode\"", field.QuoteList(AzureCachingModes), e.value, e.value)
		return ""
	}
	if provisioned && e.value != "None" {
		c.errf("AZD-V3", e.key, "%s allows only cachingMode None (rule AZD-V3); Azure fails with \"Storage Account "+
			"type %s is not supported with caching type %s\"", sku, sku, e.value)
	}
	return e.value
}

func (c *checker) checkAzureFeatures(sku Type, bursting, perfPlus, shared bool) {
	if bursting {
		e, _ := c.get("enableBursting")
		switch {
		case !isAzurePremium(sku):
			c.errf("AZD-V8", e.key, "enableBursting is only for Premium_LRS and Premium_ZRS (rule AZD-V8: Premium, "+
				"larger than 512 GiB, not shared); %s does not offer on-demand bursting", sku)
		case shared:
			c.errf("AZD-V8", e.key, "enableBursting is not available on shared disks (maxShares > 1) (rule AZD-V8)")
		default:
			c.needSize(azureBurstMinGiB)
			for _, s := range c.sizes {
				if s < azureBurstMinGiB {
					c.errf("AZD-V8", e.key, "enableBursting needs a Premium disk larger than 512 GiB (rule AZD-V8); a "+
						"%s GiB PVC would be rejected by Azure", resource.Group(s))
				}
			}
		}
	}
	if perfPlus {
		e, _ := c.get("enablePerformancePlus")
		if !isAzureFixed(sku) {
			c.errf("AZD-V9", e.key, "enablePerformancePlus is only for Premium SSD, Standard SSD and Standard HDD (rule "+
				"AZD-V9); %s performance is provisioned", sku)
			return
		}
		c.needSize(azurePerfPlusMinGiB)
		for _, s := range c.sizes {
			if s < azurePerfPlusMinGiB {
				c.errf("AZD-V9", e.key, "enablePerformancePlus needs 513 GiB or more (rule AZD-V9); the driver would "+
					"silently enlarge a %s GiB PVC to 513 GiB, which changes the bill", resource.Group(s))
			}
		}
	}
}

func (c *checker) checkPV2Class(hasIOPS bool, iops int64, iopsKey string, hasMBps bool, mbps int64, mbpsKey string) {
	if !hasIOPS || !hasMBps {
		c.warnf("SC-3", "DiskIOPSReadWrite", "PremiumV2_LRS without DiskIOPSReadWrite and DiskMBpsReadWrite gets "+
			"Azure's included 3,000 IOPS and 125 MB/s; set both explicitly (rule SC-3)")
	}
	if !hasIOPS {
		iops, iopsKey = pv2MinIOPS, "DiskIOPSReadWrite"
	}
	if !hasMBps {
		mbps, mbpsKey = pv2MinMBps, "DiskMBpsReadWrite"
	}
	if iops < pv2MinIOPS || iops > pv2MaxIOPS {
		c.errf("AZD-V5", iopsKey, "PremiumV2_LRS DiskIOPSReadWrite must be 3,000 to 80,000 (rule AZD-V5: 3,000 ≤ "+
			"IOPS ≤ min(80,000, max(3,000, 500 × size))); got %s", resource.Group(iops))
		return
	}
	if mbps < pv2MinMBps || mbps > pv2MaxMBps || mbps*pv2IOPSPerMBps > iops {
		c.errf("AZD-V5", mbpsKey, "PremiumV2_LRS DiskMBpsReadWrite must be 125 to min(2,000, 0.25 × IOPS) = %s MB/s "+
			"with %s IOPS (rule AZD-V5: 125 ≤ MB/s ≤ min(2,000, 0.25 × IOPS)); got %s", resource.Group(min(pv2MaxMBps,
			iops/pv2IOPSPerMBps)), resource.Group(iops), resource.Group(mbps))
		return
	}
	if iops > pv2MinIOPS {
		c.needSize(resource.CeilDiv(iops, pv2IOPSPerGiB))
	}
	if mbps > pv2MinMBps {
		c.needSize(pv2SmallGiB + 1)
	}
	for i, s := range c.sizes {
		if err := checkPremiumV2(iops, mbps, s, ParameterPath(iopsKey), ParameterPath(mbpsKey)); err != nil {
			c.add(err, s)
		}
		if s > pv2MaxGiB {
			c.sizeErrf(i, "AZD-V5", "a %s GiB PVC exceeds the PremiumV2_LRS maximum of 65,536 GiB (rule AZD-V5)", resource.Group(s))
		}
	}
}

func (c *checker) checkUltraClass(hasIOPS bool, iops int64, iopsKey string, hasMBps bool, mbps int64, mbpsKey string) {
	c.needSize(ultraMinGiB)
	if !hasIOPS || !hasMBps {
		c.warnf("SC-3", "DiskIOPSReadWrite", "UltraSSD_LRS without both DiskIOPSReadWrite and DiskMBpsReadWrite gets "+
			"the driver's fill-in values (IOPS = min(160,000, max(500, size)), MB/s = max(100, ⌈IOPS / 256⌉)), which "+
			"reflect the older Ultra limits; set both explicitly (rule SC-3)")
	}
	if hasIOPS {
		if iops < ultraMinIOPS || iops > ultraMaxIOPS {
			c.errf("AZD-V6", iopsKey, "UltraSSD_LRS DiskIOPSReadWrite must be 100 to 400,000 (rule AZD-V6: 100 ≤ IOPS ≤ "+
				"min(400,000, 1,000 × size)); got %s", resource.Group(iops))
			return
		}
		c.needSize(resource.CeilDiv(iops, ultraIOPSPerGiB))
		if hasMBps {
			if err := checkUltraMBps(mbps, iops, ParameterPath(mbpsKey)); err != nil {
				c.rep.Findings = append(c.rep.Findings, *err.(*Finding))
			}
		}
	}
	for i, s := range c.sizes {
		if s < ultraMinGiB || s > ultraMaxGiB {
			c.sizeErrf(i, "AZD-V6", "a %s GiB PVC is outside the UltraSSD_LRS size range of 4 to 65,536 GiB (rule AZD-V6)", resource.Group(s))
			continue
		}
		if !hasIOPS {
			continue
		}
		if err := checkUltraIOPS(iops, s, ParameterPath(iopsKey)); err != nil {
			c.add(err, s)
		} else if iops < s {
			c.warnf("AZD-V6", iopsKey, "DiskIOPSReadWrite %s on a %s GiB PVC is below 1 IOPS per GiB, the floor some "+
				"regions and API versions still enforce (rule AZD-V6 warning)", resource.Group(iops), resource.Group(s))
		}
	}
}

// GCETypes lists the type values the GCE PD CSI driver accepts (§8.4).
var GCETypes = []string{
	"pd-standard", "pd-balanced", "pd-ssd", "pd-extreme", "hyperdisk-balanced",
	"hyperdisk-balanced-high-availability", "hyperdisk-throughput", "hyperdisk-extreme", "hyperdisk-ml", "dynamic",
}

var gceKeys = []string{
	"type", "replication-type", "provisioned-iops-on-create", "provisioned-throughput-on-create",
	"disk-encryption-kms-key", "labels", "resource-tags", "storage-pools", "data-cache-size", "data-cache-mode",
	"enable-multi-zone-provisioning", "availability-class", "use-allowed-disk-topology", "access-mode",
	"enable-confidential-storage", "hyperdisk-type", "pd-type", "disk-type-preference", "csi.storage.k8s.io/fstype",
}

var bareNumber = regexp.MustCompile(`^[+-]?[0-9.]+$`)

func (c *checker) checkGCE() {
	for _, lk := range slices.Sorted(maps.Keys(c.byKey)) {
		if known(gceKeys, lk) {
			continue
		}
		e := c.byKey[lk]
		c.errf("GPD-V1", e.key, "unknown GCE PD CSI parameter %s (rule GPD-V1: known keys only); the driver fails "+
			"with \"parameters contains invalid option %q\"", e.key, e.key)
	}
	c.oneOf("GPD-V5", "replication-type", true, "none", "regional-pd")
	if conf, _ := c.bool("GPD-V6", "enable-confidential-storage"); conf {
		if k, ok := c.get("disk-encryption-kms-key"); !ok || k.value == "" {
			e, _ := c.get("enable-confidential-storage")
			c.errf("GPD-V6", e.key, "enable-confidential-storage requires disk-encryption-kms-key (rule GPD-V6); the "+
				"driver fails with \"valid disk-encryption-kms-key is required to enable ConfidentialStorage\"")
		}
	}
	typ := "pd-standard"
	if e, ok := c.get("type"); ok {
		typ = strings.ToLower(e.value)
		if !known(GCETypes, typ) {
			c.errf("GPD-V7", e.key, "type %q is not a GCE PD CSI disk type (rule GPD-V7: one of %s)", e.value, field.QuoteList(GCETypes))
			return
		}
	} else {
		c.warnf("SC-3", "type", "type is not set, so the driver's default pd-standard applies; set it explicitly (rule SC-3)")
	}
	c.rep.TypeName = typ
	if _, ok := typeInfos[Type(typ)]; ok {
		c.rep.Type = Type(typ)
	}
	hyper := strings.HasPrefix(typ, "hyperdisk-")
	iops, hasIOPS := c.int("GPD-V3", "provisioned-iops-on-create", 64)
	if e, ok := c.get("provisioned-iops-on-create"); ok && hasIOPS && !hyper && typ != "pd-extreme" && typ != "dynamic" {
		c.errf("GPD-V3", e.key, "provisioned-iops-on-create is only for pd-extreme and Hyperdisk (rule GPD-V3); %s "+
			"IOPS follow the size", typ)
	}
	tp, hasTP := c.gceThroughput(typ, hyper)
	switch typ {
	case "hyperdisk-balanced", "hyperdisk-balanced-high-availability":
		if hasIOPS && iops > hdbMaxIOPS {
			c.errf("GPD-V4", "provisioned-iops-on-create", "%s IOPS must not exceed 160,000 (rule GPD-V4: at most 500 "+
				"IOPS per GiB and 160,000), got %s", typ, resource.Group(iops))
		} else if hasIOPS {
			if iops > hdbDefaultIOPS {
				c.needSize(resource.CeilDiv(iops, hdbIOPSPerGiB))
			}
			for _, s := range c.sizes {
				p := ParameterPath("provisioned-iops-on-create")
				if err := checkHyperdiskBalanced(iops, hdbDefaultMiBps, s, p, p); err != nil {
					c.add(err, s)
				}
			}
		}
		if hasTP && tp > hdbMaxMiBps {
			c.errf("GPD-V4", "provisioned-throughput-on-create", "%s throughput must not exceed 2,400 MiB/s (rule "+
				"GPD-V4), got %s MiB/s", typ, resource.Group(tp))
		}
	case "hyperdisk-throughput":
		if hasTP && tp > hdbMaxMiBps {
			c.errf("GPD-V4", "provisioned-throughput-on-create", "hyperdisk-throughput throughput must not exceed "+
				"2,400 MiB/s (rule GPD-V4), got %s MiB/s", resource.Group(tp))
		}
	case "hyperdisk-extreme":
		if hasIOPS && iops > 350_000 {
			c.errf("GPD-V4", "provisioned-iops-on-create", "hyperdisk-extreme IOPS must not exceed 350,000 (rule "+
				"GPD-V4), got %s", resource.Group(iops))
		}
	case "pd-extreme":
		if _, present := c.get("provisioned-iops-on-create"); !present {
			c.errf("GPD-V3", "provisioned-iops-on-create", "pd-extreme needs provisioned-iops-on-create (rule GPD-V3; "+
				"about 2,500 to 120,000, Google Cloud disk performance)")
		}
	}
}

// gceThroughput parses provisioned-throughput-on-create into MiB/s, rounded up as the driver does.
func (c *checker) gceThroughput(typ string, hyper bool) (int64, bool) {
	e, ok := c.get("provisioned-throughput-on-create")
	if !ok {
		return 0, false
	}
	if bareNumber.MatchString(e.value) {
		c.errf("GPD-V2", e.key, "%s %q has no unit, so the driver reads it as %s bytes per second, i.e. 1 MiB/s "+
			"(rule GPD-V2: always give a unit suffix); write \"%sMi\"", e.key, e.value, e.value, e.value)
		return 0, false
	}
	q, err := quantity.ParseQuantity(e.value)
	if err != nil {
		c.errf("GPD-V2", e.key, "%s %q is not a Kubernetes quantity such as \"250Mi\" (rule GPD-V2)", e.key, e.value)
		return 0, false
	}
	if q.Sign() < 0 {
		c.errf("GPD-V2", e.key, "%s must not be negative (rule GPD-V2), got %q; the driver fails with \"parameter "+
			"provisionedThroughputOnCreate cannot be negative\"", e.key, e.value)
		return 0, false
	}
	if !hyper && typ != "dynamic" {
		c.errf("GPD-V2", e.key, "%s is only for Hyperdisk types (rule GPD-V2); %s throughput follows the size", e.key, typ)
		return 0, false
	}
	if q.CmpInt64(math.MaxInt64/2) > 0 {
		c.errf("GPD-V2", e.key, "%s %q is out of range (rule GPD-V2)", e.key, e.value)
		return 0, false
	}
	// Value rounds a fractional byte count up; the driver then rounds up to whole MiB.
	return resource.CeilDiv(q.Value(), mib), true
}

// DefaultParameters returns the parameters kubefit emits explicitly when a class leaves them out, so
// that no driver default applies silently (SC-3, AZC-1, AZC-2): for gp3, iops "3000" (unless iopsPerGB
// is set) and throughput "125"; for the Azure disk driver, cachingMode "None"; for PremiumV2_LRS,
// DiskIOPSReadWrite "3000" and DiskMBpsReadWrite "125". Keys are matched case-insensitively; the result
// holds only the keys to add.
func DefaultParameters(d Driver, params map[string]string) map[string]string {
	keys := slices.Sorted(maps.Keys(params))
	has := func(k string) (string, bool) {
		for _, key := range keys {
			if strings.EqualFold(key, k) {
				return params[key], true
			}
		}
		return "", false
	}
	out := map[string]string{}
	switch d {
	case EBSDriver:
		if t, ok := has("type"); ok && t == string(GP3) {
			if _, ok := has("iops"); !ok {
				if _, ok := has("iopsPerGB"); !ok {
					out["iops"] = strconv.Itoa(gp3MinIOPS)
				}
			}
			if _, ok := has("throughput"); !ok {
				out["throughput"] = strconv.Itoa(gp3MinMiBps)
			}
		}
	case AzureDiskDriver:
		if _, ok := has("cachingMode"); !ok {
			out["cachingMode"] = "None"
		}
		sku, ok := has("skuName")
		if !ok {
			sku, _ = has("storageAccountType")
		}
		if sku == string(PremiumV2LRS) {
			if _, ok := has("DiskIOPSReadWrite"); !ok {
				out["DiskIOPSReadWrite"] = strconv.Itoa(pv2MinIOPS)
			}
			if _, ok := has("DiskMBpsReadWrite"); !ok {
				out["DiskMBpsReadWrite"] = strconv.Itoa(pv2MinMBps)
			}
		}
	}
	return out
}

// ClassVolumeSpec returns the volume a PVC of sizeGiB gets from the class: the type and the provisioned
// values after the driver's own arithmetic (EBS iopsPerGB × size, raised to the type minimum with
// allowAutoIOPSPerGBIncrease; GCE throughput rounded up to MiB/s). It assumes CheckClass found no errors
// and returns an error when the class's type has no performance model.
func ClassVolumeSpec(cl Class, sizeGiB int64) (Spec, error) {
	rep := CheckClass(Class{Provisioner: cl.Provisioner, Parameters: cl.Parameters})
	if err := rep.Err(); err != nil {
		return Spec{}, err
	}
	if rep.Type == "" {
		return Spec{}, fmt.Errorf("kubefit has no performance model for %s disks (the cloud publishes only "+
			"their maxima); per-volume figures are not computed", rep.TypeName)
	}
	c := &checker{rep: &ClassReport{}, byKey: map[string]entry{}}
	for _, k := range slices.Sorted(maps.Keys(cl.Parameters)) {
		c.byKey[strings.ToLower(k)] = entry{k, cl.Parameters[k]}
	}
	s := Spec{Type: rep.Type, SizeGiB: sizeGiB}
	switch rep.Driver {
	case EBSDriver:
		if v, ok := c.int("", "iops", 32); ok {
			s.IOPS = v
		} else if perGB, ok := c.int("", "iopsPerGB", 32); ok {
			s.IOPS = perGB * sizeGiB
			if c.flag("allowAutoIOPSPerGBIncrease") {
				s.IOPS = max(s.IOPS, ebsIOPSRule(rep.Type).min)
			}
		}
		s.Throughput, _ = c.int("", "throughput", 32)
	case AzureDiskDriver:
		s.IOPS, _ = c.int("", "DiskIOPSReadWrite", 64)
		s.Throughput, _ = c.int("", "DiskMBpsReadWrite", 64)
		s.Bursting = c.flag("enableBursting")
		s.PerformancePlus = c.flag("enablePerformancePlus")
	case GCEPDDriver:
		s.IOPS, _ = c.int("", "provisioned-iops-on-create", 64)
		s.Throughput, _ = c.gceThroughput(rep.TypeName, strings.HasPrefix(rep.TypeName, "hyperdisk-"))
	}
	return s, nil
}
