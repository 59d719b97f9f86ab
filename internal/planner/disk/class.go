package disk

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

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
	f := errorf(rule, ParameterPath(key), format, args...)
	if e, ok := c.get(key); ok {
		f.Value = e.value
	}
	c.rep.Findings = append(c.rep.Findings, *f)
}

// warnf reports a warning about the parameter key.
func (c *checker) warnf(rule, key, format string, args ...any) {
	c.rep.Findings = append(c.rep.Findings, warnf(rule, ParameterPath(key), format, args...))
}

// sizeErrf reports an error about the i-th planned PVC size.
func (c *checker) sizeErrf(i int, rule, format string, args ...any) {
	f := errorf(rule, pathSizes.At(i), format, args...)
	f.Value = strconv.FormatInt(c.sizes[i], 10)
	c.rep.Findings = append(c.rep.Findings, *f)
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

// driverBool reads the true/false parameter k (any case) as the class's driver does. It returns the
// value the driver acts on; strict reports whether v is one of the spellings the driver knows ("true",
// "false", in the case the driver compares with), and refuses whether the driver fails the volume on
// any other value (rather than reading it as false). how names the driver's test and its source.
//   - aws-ebs-csi-driver: isTrue is v == "true", anything else is false, never an error
//     (pkg/driver/controller.go:64,1340-1341 @ 429e202e589798e55c0f8ddcc81b2850b7f000d0).
//   - azuredisk-csi-driver enablePerformancePlus: strconv.ParseBool, an error otherwise
//     (pkg/azureutils/azure_disk_utils.go:676-680 @ d983d613b6dd04af5bcc886d309b8de6ea5637b6).
//   - azuredisk-csi-driver enableBursting and writeAcceleratorEnabled: strings.EqualFold(v, "true"),
//     anything else is false (pkg/azureutils/azure_disk_utils.go:666-668, pkg/azuredisk/controllerserver.go:322,
//     same commit).
//   - GCE PD CSI driver: ConvertStringToBool accepts "true" and "false" in any case and fails otherwise
//     (pkg/convert/convert.go:49-57 @ b560165c3508dcbca6c53a7b005eba185c301167), except
//     use-allowed-disk-topology, whose bad value is logged and ignored (pkg/parameters/parameters.go:198-202).
func driverBool(d Driver, k, v string) (val, strict, refuses bool, how string) {
	switch {
	case d == EBSDriver:
		return v == "true", v == "true" || v == "false", false, "the aws-ebs-csi-driver turns it on only for the exact " +
			"string \"true\" and reads anything else as false"
	case d == AzureDiskDriver && strings.EqualFold(k, "enablePerformancePlus"):
		b, err := strconv.ParseBool(v)
		return b, err == nil, true, "the azuredisk-csi-driver parses it with Go's strconv.ParseBool and fails otherwise"
	case d == AzureDiskDriver:
		return strings.EqualFold(v, "true"), strings.EqualFold(v, "true") || strings.EqualFold(v, "false"), false,
			"the azuredisk-csi-driver turns it on only for \"true\" (any case) and reads anything else as false"
	}
	ok := strings.EqualFold(v, "true") || strings.EqualFold(v, "false")
	return strings.EqualFold(v, "true"), ok, !strings.EqualFold(k, "use-allowed-disk-topology"),
		"the GCE PD CSI driver accepts only \"true\" or \"false\" (any case)"
}

// bool parses a true/false parameter as the class's driver does (driverBool). A value the driver
// refuses is an error; so is one the driver silently reads as false while it means true ("1", "True"
// on EBS) or is neither ("yes"). A value that means false ("0", "False") where the driver reads it as
// false is accepted as false.
func (c *checker) bool(rule, k string) (bool, bool) {
	e, ok := c.get(k)
	if !ok {
		return false, false
	}
	v, strict, refuses, how := driverBool(c.rep.Driver, k, e.value)
	if strict {
		return v, true
	}
	if b, err := strconv.ParseBool(e.value); err == nil && !b && !refuses {
		return false, true
	}
	if refuses {
		c.errf(rule, e.key, "parameter %s must be \"true\" or \"false\" (rule %s), got %q: %s, so every volume of "+
			"the class would fail", e.key, rule, e.value, how)
	} else {
		c.errf(rule, e.key, "parameter %s must be \"true\" or \"false\" (rule %s), got %q: %s, so the setting "+
			"would be off; write \"true\" to turn it on or \"false\"", e.key, rule, e.value, how)
	}
	return false, false
}

// flag reads a true/false parameter without reporting, as the class's driver reads it (driverBool).
func (c *checker) flag(k string) bool {
	e, ok := c.get(k)
	if !ok {
		return false
	}
	v, _, _, _ := driverBool(c.rep.Driver, k, e.value)
	return v
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
		// Every driver's keys are case-insensitive (§8.2–§8.4), except the EBS tagSpecification prefix.
		lk := strings.ToLower(k)
		if d == EBSDriver && strings.HasPrefix(k, ebsTagKeyPrefix) {
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

func known(keys []string, k string) bool {
	for _, x := range keys {
		if x == k {
			return true
		}
	}
	return false
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
	c := &checker{rep: &ClassReport{Driver: rep.Driver}, byKey: map[string]entry{}}
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
		s.IOPS, _ = c.gceIOPS()
		s.Throughput, _ = c.gceThroughput(rep.TypeName, strings.HasPrefix(rep.TypeName, "hyperdisk-"))
	}
	return s, nil
}

// ClassCaching returns the host-caching mode a class's Azure disks get: its cachingMode parameter (keys
// are case-insensitive), or None when it has none (kubefit always emits it, AZC-1). The value is as the
// class gives it; CheckClass validates it (AZD-V2, AZD-V3).
func ClassCaching(cl Class) Caching {
	d, _, err := parseProvisioner(cl.Provisioner)
	if err != nil || d != AzureDiskDriver {
		return ""
	}
	for _, k := range slices.Sorted(maps.Keys(cl.Parameters)) {
		if strings.EqualFold(k, "cachingMode") {
			return Caching(cl.Parameters[k])
		}
	}
	return CachingNone
}
