package disk

// The rules of the azuredisk-csi-driver (disk.csi.azure.com) and of Azure managed disks.

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/resource"
)

// azureKeys are the azuredisk-csi-driver parameter keys, lower-cased (§8.3).
var azureKeys = []string{
	"skuname", "storageaccounttype", "cachingmode", "diskiopsreadwrite", "diskmbpsreadwrite", "logicalsectorsize",
	"fstype", "networkaccesspolicy", "publicnetworkaccess", "enablebursting", "enableperformanceplus",
	"perfprofile", "maxshares", "diskencryptionsetid", "diskencryptiontype", "writeacceleratorenabled", "tags",
	"location", "resourcegroup", "subscriptionid", "diskaccessid", "attachdiskinitialdelay", "useragent", "kind",
	"tagvaluedelimiter", "csi.storage.k8s.io/fstype",
	// Accepted by the driver as well (pkg/azureutils/azure_disk_utils.go @ d983d613b6dd04af5bcc886d309b8de6ea5637b6):
	// diskName, a name template such as ${pvc.metadata.name} (:623, :717-719); zoned and enableAsyncAttach,
	// no-ops kept for backward compatibility with the in-tree provisioner (:672-675).
	"diskname", "zoned", "enableasyncattach",
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
	// The driver lower-cases fsType (pkg/azureutils/azure_disk_utils.go:650-651, GetFStype :327-333).
	c.oneOf("AZD-V12", "fsType", true, "ext4", "ext3", "ext2", "xfs", "btrfs", "ntfs")
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
	c.checkAzureTags()

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
	// Shared disks (maxShares > 1) support neither host caching nor write accelerator
	// (MicrosoftDocs/azure-docs @ 3f6e6c5cd52cfece4952d061ff98bcbc227ae7f0
	// includes/virtual-machines-disks-shared-limitations.md: "Write accelerator isn't supported for shared
	// disks", "Host caching isn't supported for shared disks"); the attach fails.
	if hasShares && shares > 1 {
		if caching == "ReadOnly" {
			e, _ := c.get("cachingMode")
			c.errf("AZD-V14", e.key, "cachingMode ReadOnly on a shared disk (maxShares %d): Azure does not support host "+
				"caching on shared disks, so attaching fails (rule AZD-V14); use cachingMode None", shares)
		}
		if c.flag("writeAcceleratorEnabled") {
			e, _ := c.get("writeAcceleratorEnabled")
			c.errf("AZD-V14", e.key, "writeAcceleratorEnabled on a shared disk (maxShares %d): Azure does not support "+
				"write accelerator on shared disks (rule AZD-V14); set it to false or remove it", shares)
		}
	}
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
	// CreateManagedDisk refuses a set ID that does not start with /subscriptions/ in any case
	// (pkg/azuredisk/azure_managedDiskController.go:252-253 @ d983d613b6dd04af5bcc886d309b8de6ea5637b6).
	if set, ok := c.get("diskEncryptionSetID"); ok && set.value != "" &&
		!strings.HasPrefix(strings.ToLower(set.value), "/subscriptions/") {
		c.errf("AZD-V11", set.key, "diskEncryptionSetID %q is not a disk encryption set's resource ID (rule AZD-V11); "+
			"the driver fails every volume with \"format of DiskEncryptionSetID(%s) is incorrect\"; write "+
			"/subscriptions/{subscription}/resourceGroups/{group}/providers/Microsoft.Compute/diskEncryptionSets/{name}",
			set.value, set.value)
	}
	encType, hasType := c.oneOf("AZD-V11", "diskEncryptionType", false,
		"EncryptionAtRestWithCustomerKey", "EncryptionAtRestWithPlatformAndCustomerKeys")
	if set, ok := c.get("diskEncryptionSetID"); hasType && (!ok || set.value == "") {
		e, _ := c.get("diskEncryptionType")
		c.errf("AZD-V11", e.key, "diskEncryptionType %s requires diskEncryptionSetID (rule AZD-V11); the driver fails "+
			"with \"AzureDisk - DiskEncryptionType(%s) should be empty when DiskEncryptionSetID is not set\"", encType, encType)
	}
}

// checkAzureTags checks tags as util.ConvertTagsToMap does (azuredisk-csi-driver pkg/util/util.go:84-110 @
// d983d613b6dd04af5bcc886d309b8de6ea5637b6, called from pkg/azureutils/azure_disk_utils.go:699): items split at
// tagValueDelimiter (default ","), each "key=value" with a non-blank key free of <>%&?\/.
func (c *checker) checkAzureTags() {
	e, ok := c.get("tags")
	if !ok || e.value == "" {
		return
	}
	delim := ","
	if d, ok := c.get("tagValueDelimiter"); ok && d.value != "" {
		delim = d.value
	}
	for _, item := range strings.Split(e.value, delim) {
		k, _, ok := strings.Cut(item, "=")
		k = strings.TrimSpace(k)
		switch {
		case !ok || k == "":
			c.errf("AZD-V12", e.key, "tags %q is not a list of key=value items separated by %q (rule AZD-V12): the "+
				"item %q has no key or no \"=\"; the driver fails every volume with \"tags ... are invalid, the format "+
				"should like: 'key1=value1%skey2=value2'\"", e.value, delim, item, delim)
			return
		case strings.ContainsAny(k, "<>%&?\\/"):
			c.errf("AZD-V12", e.key, "tag key %q contains a character Azure does not allow in tag keys (<>%%&?\\/) "+
				"(rule AZD-V12); the driver fails every volume with \"tag key '%s' contains invalid characters\"; "+
				"rename the key", k, k)
			return
		}
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
	// The driver's fill-in depends on which values the class sets (ultraOneSidedIOPS in azure.go cites
	// the source): both empty, a size-based pair; one empty, a fixed 500 IOPS or 100 MB/s.
	switch {
	case !hasIOPS && !hasMBps:
		c.warnf("SC-3", "DiskIOPSReadWrite", "UltraSSD_LRS without DiskIOPSReadWrite and DiskMBpsReadWrite gets "+
			"the driver's fill-in values (IOPS = min(160,000, max(500, size)), MB/s = max(100, ⌈IOPS / 256⌉)), which "+
			"reflect the older Ultra limits; set both explicitly (rule SC-3)")
	case !hasIOPS:
		c.warnf("SC-3", "DiskIOPSReadWrite", "UltraSSD_LRS with DiskMBpsReadWrite but without DiskIOPSReadWrite gets "+
			"the driver's fixed default of 500 IOPS, whatever the PVC size; set DiskIOPSReadWrite explicitly (rule SC-3)")
		iops, iopsKey = ultraOneSidedIOPS, "DiskIOPSReadWrite"
	case !hasMBps:
		c.warnf("SC-3", "DiskMBpsReadWrite", "UltraSSD_LRS with DiskIOPSReadWrite but without DiskMBpsReadWrite gets "+
			"the driver's fixed default of 100 MB/s, whatever the IOPS; set DiskMBpsReadWrite explicitly (rule SC-3)")
		mbps, mbpsKey = ultraOneSidedMBps, "DiskMBpsReadWrite"
	}
	if hasIOPS {
		if iops < ultraMinIOPS || iops > ultraMaxIOPS {
			c.errf("AZD-V6", iopsKey, "UltraSSD_LRS DiskIOPSReadWrite must be 100 to 400,000 (rule AZD-V6: 100 ≤ IOPS ≤ "+
				"min(400,000, 1,000 × size)); got %s", resource.Group(iops))
			return
		}
		c.needSize(resource.CeilDiv(iops, ultraIOPSPerGiB))
	}
	switch {
	case hasIOPS && hasMBps:
		if err := checkUltraMBps(mbps, iops, ParameterPath(mbpsKey)); err != nil {
			c.rep.Findings = append(c.rep.Findings, *err.(*Finding))
		}
	case hasIOPS && mbps > iops/4:
		c.errf("AZD-V6", iopsKey, "UltraSSD_LRS DiskIOPSReadWrite %s without DiskMBpsReadWrite: the driver sets its "+
			"default of 100 MB/s, which Azure allows only with 400 IOPS or more (rule AZD-V6: MB/s ≤ 0.25 × IOPS); set "+
			"DiskIOPSReadWrite to at least 400, or set DiskMBpsReadWrite to at most %s", resource.Group(iops),
			resource.Group(max(ultraMinMBps, iops/4)))
	case hasMBps && (mbps < ultraMinMBps || mbps > iops/4):
		c.errf("AZD-V6", mbpsKey, "UltraSSD_LRS DiskMBpsReadWrite %s without DiskIOPSReadWrite: the driver sets its "+
			"default of 500 IOPS, which allows 1 to 125 MB/s (rule AZD-V6: 1 ≤ MB/s ≤ 0.25 × IOPS); set "+
			"DiskMBpsReadWrite to at most 125, or set DiskIOPSReadWrite to at least %s", resource.Group(mbps),
			resource.Group(max(ultraMinIOPS, 4*mbps)))
	}
	for i, s := range c.sizes {
		if s < ultraMinGiB || s > ultraMaxGiB {
			c.sizeErrf(i, "AZD-V6", "a %s GiB PVC is outside the UltraSSD_LRS size range of 4 to 65,536 GiB (rule AZD-V6)", resource.Group(s))
			continue
		}
		if !hasIOPS && !hasMBps {
			continue
		}
		what := "DiskIOPSReadWrite " + resource.Group(iops)
		if !hasIOPS {
			what = "the driver's default of 500 IOPS"
		}
		if err := checkUltraIOPS(iops, s, ParameterPath(iopsKey)); err != nil {
			c.add(err, s)
		} else if iops < s {
			c.warnf("AZD-V6", iopsKey, "%s on a %s GiB PVC is below 1 IOPS per GiB, the floor some "+
				"regions and API versions still enforce (rule AZD-V6 warning)", what, resource.Group(s))
		}
	}
}
