package disk

// The rules of the GCE PD CSI driver (pd.csi.storage.gke.io) and of GCP disks.

import (
	"maps"
	"math"
	"regexp"
	"slices"
	"strings"

	quantity "k8s.io/apimachinery/pkg/api/resource"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/resource"
)

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

// Value forms of the GCE PD CSI driver @ b560165c3508dcbca6c53a7b005eba185c301167: the KMS key pattern
// (pkg/parameters/utils.go:122-126, unanchored as there), label keys and values (pkg/convert/convert.go:59-65,79),
// resource tag parent IDs, keys and values (pkg/convert/convert.go:16-19).
var (
	gceKMSKey        = regexp.MustCompile("projects/[^/]+/locations/([^/]+)/keyRings/[^/]+/cryptoKeys/[^/]+")
	gceLabelKey      = regexp.MustCompile(`^\p{Ll}[\p{Ll}0-9_-]{0,62}$`)
	gceLabelValue    = regexp.MustCompile(`^[\p{Ll}0-9_-]{0,63}$`)
	gceTagParent     = regexp.MustCompile(`(^[1-9][0-9]{0,31}$)|(^[a-z][a-z0-9-]{4,28}[a-z0-9]$)`)
	gceTagKey        = regexp.MustCompile(`^[a-zA-Z0-9]([0-9A-Za-z_.-]{0,61}[a-zA-Z0-9])?$`)
	gceTagValue      = regexp.MustCompile(`^[a-zA-Z0-9]([0-9A-Za-z_.@%=+:,*#&()\[\]{}\-\s]{0,61}[a-zA-Z0-9])?$`)
	gceDynamicParams = []string{"hyperdisk-type", "pd-type", "disk-type-preference"}
)

// checkGCEForms checks the values ExtractAndDefaultParameters parses and refuses (pkg/parameters/parameters.go
// @ b560165c3508dcbca6c53a7b005eba185c301167): labels (:95-99, convert.ConvertLabelsStringToMap), resource-tags
// (:171-174, convert.ConvertTagsStringToMap), availability-class (:119-123, :331-339) and the dynamic-volume
// keys, which need the parameter "type" (exact key) to be "dynamic" (:205-224).
func (c *checker) checkGCEForms() {
	if e, ok := c.get("labels"); ok && e.value != "" {
		keys := map[string]bool{}
		for _, item := range strings.Split(e.value, ",") {
			kv := strings.Split(item, "=")
			if len(kv) != 2 {
				c.errf("GPD-V8", e.key, "labels %q is not a list of key=value items separated by \",\" (rule GPD-V8): "+
					"the item %q has %d \"=\"; the driver fails every volume with \"labels ... are invalid\"", e.value, item, len(kv)-1)
				return
			}
			k, v := strings.TrimSpace(kv[0]), strings.TrimSpace(kv[1])
			if !gceLabelKey.MatchString(k) || !gceLabelValue.MatchString(v) {
				c.errf("GPD-V8", e.key, "label %q=%q is not a GCE label (rule GPD-V8): keys start with a lowercase "+
					"letter and hold 1 to 63 lowercase letters, digits, _ and -; values hold 0 to 63 of them; the driver "+
					"fails every volume; write it in lowercase, for example %q", k, v, strings.ToLower(k)+"="+strings.ToLower(v))
				return
			}
			keys[k] = true
		}
		if len(keys) > 64 {
			c.errf("GPD-V8", e.key, "labels holds %d labels, more than the 64 the driver allows (rule GPD-V8)", len(keys))
		}
	}
	if e, ok := c.get("resource-tags"); ok && e.value != "" {
		seen := map[string]bool{}
		for _, item := range strings.Split(e.value, ",") {
			p := strings.Split(item, "/")
			if len(p) != 3 {
				c.errf("GPD-V8", e.key, "resource tag %q is not parent_id/key/value (rule GPD-V8); the driver fails every "+
					"volume with \"tag ... is invalid, correct format: 'parent_id1/key1/value1,parent_id2/key2/value2'\"", item)
				return
			}
			parent, k, v := strings.TrimSpace(p[0]), strings.TrimSpace(p[1]), strings.TrimSpace(p[2])
			if !gceTagParent.MatchString(parent) || !gceTagKey.MatchString(k) || !gceTagValue.MatchString(v) {
				c.errf("GPD-V8", e.key, "resource tag %q is invalid (rule GPD-V8): the parent is an organization number "+
					"or a project ID, key and value start and end with a letter or digit and hold at most 63 "+
					"characters; the driver fails every volume", item)
				return
			}
			if seen[parent+"/"+k] {
				c.errf("GPD-V8", e.key, "resource tag %s/%s is given twice (rule GPD-V8); keep one", parent, k)
				return
			}
			seen[parent+"/"+k] = true
		}
		if len(seen) > 50 {
			c.errf("GPD-V8", e.key, "resource-tags holds %d tags, more than the 50 the driver allows (rule GPD-V8)", len(seen))
		}
	}
	c.oneOf("GPD-V8", "availability-class", true, "none", "regional-hard-failover")
	if e, ok := c.get("disk-type-preference"); ok && e.value != "" {
		c.oneOf("GPD-V8", "disk-type-preference", true, "hyperdisk-type", "pd-type")
	}
	t, hasType := c.get("type")
	for _, k := range gceDynamicParams {
		if e, ok := c.get(k); ok && (!hasType || t.key != "type" || !strings.EqualFold(t.value, "dynamic")) {
			c.errf("GPD-V8", e.key, "%s applies only to a class with type \"dynamic\" (rule GPD-V8; the driver reads "+
				"the key type, exact case); the driver fails every volume, asking for type dynamic"+
				"; set type to dynamic or remove %s", e.key, e.key)
		}
	}
}

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
	// ConvertStringToBool (class.go driverBool cites it) for both; a bad use-allowed-disk-topology is logged
	// and ignored by the driver, which bool reports as "the setting would be off".
	c.bool("GPD-V8", "enable-multi-zone-provisioning")
	c.bool("GPD-V8", "use-allowed-disk-topology")
	if conf, _ := c.bool("GPD-V6", "enable-confidential-storage"); conf {
		// The driver looks the key up by its exact name and matches gceKMSKey (pkg/parameters/parameters.go:127-135,
		// pkg/parameters/utils.go:122-126 @ b560165c3508dcbca6c53a7b005eba185c301167).
		k, ok := c.get("disk-encryption-kms-key")
		e, _ := c.get("enable-confidential-storage")
		switch {
		case !ok || k.value == "":
			c.errf("GPD-V6", e.key, "enable-confidential-storage requires disk-encryption-kms-key (rule GPD-V6); the "+
				"driver fails with \"valid disk-encryption-kms-key is required to enable ConfidentialStorage\"")
		case k.key != "disk-encryption-kms-key":
			c.errf("GPD-V6", k.key, "with enable-confidential-storage the driver looks the key up as "+
				"disk-encryption-kms-key, exact case (rule GPD-V6), so %s is not found and every volume fails with "+
				"\"valid disk-encryption-kms-key is required to enable ConfidentialStorage\"; rename it "+
				"disk-encryption-kms-key", k.key)
		case !gceKMSKey.MatchString(k.value):
			c.errf("GPD-V6", k.key, "disk-encryption-kms-key %q is not a Cloud KMS key name (rule GPD-V6); with "+
				"enable-confidential-storage the driver fails with \"valid disk-encryption-kms-key is required to "+
				"enable ConfidentialStorage\"; write projects/{project}/locations/{location}/keyRings/{ring}/cryptoKeys/{key}", k.value)
		}
	}
	c.checkGCEForms()
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
	iops, hasIOPS := c.gceIOPS()
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

// gceIOPS parses provisioned-iops-on-create as the driver does: a Kubernetes quantity rounded up to a whole
// number (convert.ConvertStringToInt64: resource.ParseQuantity then RoundUpToB, pkg/convert/convert.go:21-28 @
// b560165c3508dcbca6c53a7b005eba185c301167), so "10k" is 10,000 and "10Ki" 10,240.
func (c *checker) gceIOPS() (int64, bool) {
	e, ok := c.get("provisioned-iops-on-create")
	if !ok {
		return 0, false
	}
	q, err := quantity.ParseQuantity(e.value)
	if err != nil {
		c.errf("GPD-V3", e.key, "%s %q is not a number or Kubernetes quantity such as \"10000\" or \"10k\" (rule GPD-V3); "+
			"the driver fails with \"parameters contain invalid provisionedIOPSOnCreate parameter\"", e.key, e.value)
		return 0, false
	}
	if q.Sign() < 0 || q.CmpInt64(math.MaxInt64/2) > 0 {
		c.errf("GPD-V3", e.key, "%s %q is out of range (rule GPD-V3); write the IOPS as a positive number", e.key, e.value)
		return 0, false
	}
	return q.Value(), true // Value rounds a fraction up, as RoundUpToB does
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
