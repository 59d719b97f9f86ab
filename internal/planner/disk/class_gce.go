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
