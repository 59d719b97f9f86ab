package disk

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
)

type P = map[string]string

func TestCheckClass(t *testing.T) {
	const (
		ebs   = "ebs.csi.aws.com"
		azure = "disk.csi.azure.com"
		gce   = "pd.csi.storage.gke.io"
	)
	tests := []struct {
		name    string
		class   Class
		errors  string // rule@key of every error, in order
		warns   string // rule of every warning, in order
		minSize int64
		typ     Type
	}{
		// Valid classes.
		// §8.2 example: gp3 6,000 IOPS / 500 MiB/s, valid from 12 GiB.
		{name: "gp3 example", class: Class{Provisioner: ebs, Parameters: P{"type": "gp3", "iops": "6000",
			"throughput": "500", "encrypted": "true", "csi.storage.k8s.io/fstype": "xfs"}, SizesGiB: []int64{12, 100}},
			minSize: 12, typ: GP3},
		// §8.3 example: PV2 8,000 / 500, needs 16 GiB.
		{name: "PV2 example", class: Class{Provisioner: azure, Parameters: P{"skuName": "PremiumV2_LRS", "cachingMode": "None",
			"DiskIOPSReadWrite": "8000", "DiskMBpsReadWrite": "500"}}, minSize: 16, typ: PremiumV2LRS},
		// The field report's class: Azure Premium, caching None.
		{name: "field report", class: Class{Provisioner: azure, Parameters: P{"skuName": "Premium_LRS", "cachingMode": "None"},
			SizesGiB: []int64{256}}, minSize: 1, typ: PremiumLRS},
		{name: "keys are case-insensitive", class: Class{Provisioner: azure, Parameters: P{"skuname": "Premium_LRS", "CACHINGMODE": "None"}},
			minSize: 1, typ: PremiumLRS},
		{name: "io2 iopsPerGB", class: Class{Provisioner: ebs, Parameters: P{"type": "io2", "iopsPerGB": "50"}, SizesGiB: []int64{4, 100}},
			minSize: 4, typ: IO2},
		{name: "hyperdisk", class: Class{Provisioner: gce, Parameters: P{"type": "hyperdisk-balanced", "provisioned-iops-on-create": "6000",
			"provisioned-throughput-on-create": "250Mi"}, SizesGiB: []int64{12}}, minSize: 12, typ: HyperdiskBalanced},
		{name: "hyperdisk-throughput", class: Class{Provisioner: gce, Parameters: P{"type": "hyperdisk-throughput",
			"provisioned-throughput-on-create": "500Mi"}}, minSize: 1},
		{name: "in-tree name", class: Class{Provisioner: "kubernetes.io/azure-disk", Parameters: P{"skuName": "Premium_LRS",
			"cachingMode": "None"}}, warns: "SC-W1", minSize: 1, typ: PremiumLRS},
		{name: "secret keys", class: Class{Provisioner: gce, Parameters: P{"type": "pd-ssd",
			"csi.storage.k8s.io/provisioner-secret-name": "s"}}, minSize: 1, typ: PDSSD},

		// SC rules.
		{name: "SC-4", class: Class{Provisioner: ebs, Parameters: P{"type": "gp3", "csi.storage.k8s.io/foo": "x"}},
			errors: "SC-4@csi.storage.k8s.io/foo", minSize: 1, typ: GP3},
		{name: "SC-2", class: Class{Provisioner: ebs, Parameters: P{"type": "gp3"}, VolumeBindingMode: "Immediate"},
			warns: "SC-2", minSize: 1, typ: GP3},
		{name: "SC-2 not for ZRS", class: Class{Provisioner: azure, Parameters: P{"skuName": "Premium_ZRS", "cachingMode": "None"},
			VolumeBindingMode: "Immediate"}, minSize: 1, typ: PremiumZRS},
		{name: "SC-3 type", class: Class{Provisioner: ebs, Parameters: P{}}, warns: "SC-3", minSize: 1, typ: GP3},
		{name: "unknown provisioner", class: Class{Provisioner: "example.com/disk"}, errors: "SC-W1@"},

		// EBS rules (§8.2).
		{name: "EBS-V1", class: Class{Provisioner: ebs, Parameters: P{"type": "gp4"}}, errors: "EBS-V1@type", minSize: 1},
		{name: "EBS-V2", class: Class{Provisioner: ebs, Parameters: P{"type": "io2", "iops": "1000", "iopsPerGB": "10"}},
			errors: "EBS-V2@iopsPerGB", minSize: 1, typ: IO2},
		{name: "EBS-V3 iops", class: Class{Provisioner: ebs, Parameters: P{"type": "gp2", "iops": "1000"}},
			errors: "EBS-V3@iops", minSize: 1, typ: GP2},
		{name: "EBS-V3 throughput", class: Class{Provisioner: ebs, Parameters: P{"type": "io2", "iops": "1000", "throughput": "200"}},
			errors: "EBS-V3@throughput", minSize: 4, typ: IO2},
		// 16,000 IOPS on a 20 GiB PVC is 800 IOPS/GiB > 500.
		{name: "EBS-V4 ratio", class: Class{Provisioner: ebs, Parameters: P{"type": "gp3", "iops": "16000"}, SizesGiB: []int64{20}},
			errors: "EBS-V4@iops", minSize: 32, typ: GP3},
		{name: "EBS-V4 range", class: Class{Provisioner: ebs, Parameters: P{"type": "gp3", "iops": "2000"}},
			errors: "EBS-V4@iops", minSize: 1, typ: GP3},
		{name: "EBS-V4 above 80,000", class: Class{Provisioner: ebs, Parameters: P{"type": "gp3", "iops": "200000"}},
			errors: "EBS-V4@iops", minSize: 1, typ: GP3},
		// 1,000 MiB/s > 0.25 × 3,000 = 750.
		{name: "EBS-V5 ratio", class: Class{Provisioner: ebs, Parameters: P{"type": "gp3", "iops": "3000", "throughput": "1000"}},
			errors: "EBS-V5@throughput", minSize: 1, typ: GP3},
		{name: "EBS-V5 ratio at default IOPS", class: Class{Provisioner: ebs, Parameters: P{"type": "gp3", "throughput": "1000"}},
			errors: "EBS-V5@throughput", minSize: 1, typ: GP3},
		{name: "EBS-V5 range", class: Class{Provisioner: ebs, Parameters: P{"type": "gp3", "iops": "16000", "throughput": "2001"}},
			errors: "EBS-V5@throughput", minSize: 32, typ: GP3},
		{name: "EBS-V6", class: Class{Provisioner: ebs, Parameters: P{"type": "io1", "iops": "5000"}, SizesGiB: []int64{50}},
			errors: "EBS-V6@iops", minSize: 100, typ: IO1},
		{name: "EBS-V6 missing IOPS", class: Class{Provisioner: ebs, Parameters: P{"type": "io1"}},
			errors: "EBS-V6@iops", minSize: 4, typ: IO1},
		{name: "EBS-V7", class: Class{Provisioner: ebs, Parameters: P{"type": "io2", "iops": "300000"}},
			errors: "EBS-V7@iops", minSize: 4, typ: IO2},
		{name: "EBS-V8", class: Class{Provisioner: ebs, Parameters: P{"type": "st1"}, SizesGiB: []int64{100}},
			errors: "EBS-V8@", minSize: 125, typ: ST1},
		// iopsPerGB 10 × 4 GiB = 40 < 100.
		{name: "EBS-V9", class: Class{Provisioner: ebs, Parameters: P{"type": "io2", "iopsPerGB": "10"}, SizesGiB: []int64{4}},
			errors: "EBS-V9@iopsPerGB", minSize: 10, typ: IO2},
		{name: "EBS-V9 auto", class: Class{Provisioner: ebs, Parameters: P{"type": "io2", "iopsPerGB": "10",
			"allowAutoIOPSPerGBIncrease": "true"}, SizesGiB: []int64{4}}, warns: "EBS-V9", minSize: 4, typ: IO2},
		{name: "EBS-V10", class: Class{Provisioner: ebs, Parameters: P{"type": "gp3", "iopsPerGiB": "10"}},
			errors: "EBS-V10@iopsPerGiB", minSize: 1, typ: GP3},
		{name: "EBS-V10 duplicate", class: Class{Provisioner: ebs, Parameters: P{"type": "gp3", "Type": "gp2"}},
			errors: "EBS-V10@type", minSize: 1, typ: GP2},
		{name: "EBS-V11", class: Class{Provisioner: ebs, Parameters: P{"type": "gp3", "iops": "3,000"}},
			errors: "EBS-V11@iops", minSize: 1, typ: GP3},
		{name: "EBS-V11 blockSize", class: Class{Provisioner: ebs, Parameters: P{"type": "gp3", "blockSize": "4 KiB"}},
			errors: "EBS-V11@blockSize", minSize: 1, typ: GP3},
		{name: "EBS-V12", class: Class{Provisioner: ebs, Parameters: P{"type": "gp3", "ext4ClusterSize": "16384"}},
			errors: "EBS-V12@ext4ClusterSize", minSize: 1, typ: GP3},
		{name: "EBS-W1", class: Class{Provisioner: ebs, Parameters: P{"type": "gp3", "iops": "20000"}},
			warns: "EBS-W1", minSize: 40, typ: GP3},
		{name: "EBS-W2", class: Class{Provisioner: ebs, Parameters: P{"type": "io2", "iops": "1000", "blockExpress": "true"}},
			warns: "EBS-W2", minSize: 4, typ: IO2},
		{name: "tags", class: Class{Provisioner: ebs, Parameters: P{"type": "gp3", "tagSpecification_1": "team=a"}}, minSize: 1, typ: GP3},
		// The driver's tag test is HasPrefix(key, "tagSpecification") (controller.go:224); each value is "key=value"
		// (template.go:40-42) and its key not reserved (validation.go:45-57).
		{name: "tag key without underscore", class: Class{Provisioner: ebs, Parameters: P{"type": "gp3", "tagSpecification1": "team=a",
			"tagSpecificationB": "empty="}}, minSize: 1, typ: GP3},
		{name: "tag key wrong case", class: Class{Provisioner: ebs, Parameters: P{"type": "gp3", "TagSpecification_1": "team=a"}},
			errors: "EBS-V10@TagSpecification_1", minSize: 1, typ: GP3},
		{name: "tag without value", class: Class{Provisioner: ebs, Parameters: P{"type": "gp3", "tagSpecification_1": "novalue"}},
			errors: "EBS-V10@tagSpecification_1", minSize: 1, typ: GP3},
		{name: "tag reserved key", class: Class{Provisioner: ebs, Parameters: P{"type": "gp3", "tagSpecification_1": "kubernetes.io/x=1",
			"tagSpecification_2": "CSIVolumeName=v"}}, errors: "EBS-V10@tagSpecification_1 EBS-V10@tagSpecification_2", minSize: 1, typ: GP3},

		// Azure rules (§8.3).
		{name: "AZD-V1", class: Class{Provisioner: azure, Parameters: P{"skuName": "premium_lrs", "cachingMode": "None"}},
			errors: "AZD-V1@skuName"},
		{name: "AZD-V2", class: Class{Provisioner: azure, Parameters: P{"skuName": "Premium_LRS", "cachingMode": "ReadWrite"}},
			errors: "AZD-V2@cachingMode", minSize: 1, typ: PremiumLRS},
		{name: "AZD-V3", class: Class{Provisioner: azure, Parameters: P{"skuName": "UltraSSD_LRS", "cachingMode": "ReadOnly",
			"DiskIOPSReadWrite": "1000", "DiskMBpsReadWrite": "100"}}, errors: "AZD-V3@cachingMode", minSize: 4, typ: UltraSSDLRS},
		{name: "AZD-V3 missing", class: Class{Provisioner: azure, Parameters: P{"skuName": "PremiumV2_LRS",
			"DiskIOPSReadWrite": "3000", "DiskMBpsReadWrite": "125"}}, errors: "AZD-V3@cachingMode", minSize: 1, typ: PremiumV2LRS},
		{name: "AZD-V4", class: Class{Provisioner: azure, Parameters: P{"skuName": "Premium_LRS", "cachingMode": "None",
			"DiskIOPSReadWrite": "5000"}}, errors: "AZD-V4@DiskIOPSReadWrite", minSize: 1, typ: PremiumLRS},
		{name: "AZD-V5", class: Class{Provisioner: azure, Parameters: P{"skuName": "PremiumV2_LRS", "cachingMode": "None",
			"DiskIOPSReadWrite": "8000", "DiskMBpsReadWrite": "500"}, SizesGiB: []int64{10}}, errors: "AZD-V5@DiskIOPSReadWrite",
			minSize: 16, typ: PremiumV2LRS},
		{name: "AZD-V5 throughput", class: Class{Provisioner: azure, Parameters: P{"skuName": "PremiumV2_LRS", "cachingMode": "None",
			"DiskIOPSReadWrite": "3000", "DiskMBpsReadWrite": "800"}}, errors: "AZD-V5@DiskMBpsReadWrite", minSize: 1, typ: PremiumV2LRS},
		{name: "AZD-V6", class: Class{Provisioner: azure, Parameters: P{"skuName": "UltraSSD_LRS", "cachingMode": "None",
			"DiskIOPSReadWrite": "50000", "DiskMBpsReadWrite": "100"}, SizesGiB: []int64{32}}, errors: "AZD-V6@DiskIOPSReadWrite",
			minSize: 50, typ: UltraSSDLRS},
		{name: "AZD-V6 floor warning", class: Class{Provisioner: azure, Parameters: P{"skuName": "UltraSSD_LRS", "cachingMode": "None",
			"DiskIOPSReadWrite": "500", "DiskMBpsReadWrite": "100"}, SizesGiB: []int64{512}}, warns: "AZD-V6",
			minSize: 4, typ: UltraSSDLRS},
		// One of the two set: the driver fills the other with 500 IOPS or 100 MB/s (azure_managedDiskController.go:205-224).
		{name: "Ultra IOPS only", class: Class{Provisioner: azure, Parameters: P{"skuName": "UltraSSD_LRS", "cachingMode": "None",
			"DiskIOPSReadWrite": "40000"}, SizesGiB: []int64{1024}}, warns: "SC-3", minSize: 40, typ: UltraSSDLRS},
		{name: "Ultra IOPS only below 400", class: Class{Provisioner: azure, Parameters: P{"skuName": "UltraSSD_LRS", "cachingMode": "None",
			"DiskIOPSReadWrite": "300"}}, errors: "AZD-V6@DiskIOPSReadWrite", warns: "SC-3", minSize: 4, typ: UltraSSDLRS},
		{name: "Ultra MB/s only above 125", class: Class{Provisioner: azure, Parameters: P{"skuName": "UltraSSD_LRS", "cachingMode": "None",
			"DiskMBpsReadWrite": "500"}, SizesGiB: []int64{2048}}, errors: "AZD-V6@DiskMBpsReadWrite", warns: "SC-3 AZD-V6",
			minSize: 4, typ: UltraSSDLRS},
		{name: "Ultra MB/s only", class: Class{Provisioner: azure, Parameters: P{"skuName": "UltraSSD_LRS", "cachingMode": "None",
			"DiskMBpsReadWrite": "125"}, SizesGiB: []int64{100}}, warns: "SC-3", minSize: 4, typ: UltraSSDLRS},
		// Booleans are read as each driver reads them (class.go driverBool): EBS only "true", Azure enableBursting
		// "true" in any case, GCE "true"/"false" in any case or an error.
		{name: "EBS allowAutoIOPSPerGBIncrease 1", class: Class{Provisioner: ebs, Parameters: P{"type": "io1", "iopsPerGB": "10",
			"allowAutoIOPSPerGBIncrease": "1"}, SizesGiB: []int64{5}}, errors: "EBS-V11@allowAutoIOPSPerGBIncrease EBS-V9@iopsPerGB",
			minSize: 10, typ: IO1},
		{name: "EBS encrypted True", class: Class{Provisioner: ebs, Parameters: P{"type": "gp3", "encrypted": "True"}},
			errors: "EBS-V11@encrypted", minSize: 1, typ: GP3},
		{name: "EBS encrypted False", class: Class{Provisioner: ebs, Parameters: P{"type": "gp3", "encrypted": "False"}},
			minSize: 1, typ: GP3},
		{name: "Azure enableBursting 1", class: Class{Provisioner: azure, Parameters: P{"skuName": "Premium_LRS", "cachingMode": "None",
			"enableBursting": "1"}, SizesGiB: []int64{256}}, errors: "AZD-V12@enableBursting", minSize: 1, typ: PremiumLRS},
		{name: "Azure enableBursting TRUE", class: Class{Provisioner: azure, Parameters: P{"skuName": "Premium_LRS", "cachingMode": "None",
			"enableBursting": "TRUE"}, SizesGiB: []int64{256}}, errors: "AZD-V8@enableBursting", minSize: 513, typ: PremiumLRS},
		{name: "GCE confidential 1", class: Class{Provisioner: gce, Parameters: P{"type": "pd-ssd", "enable-confidential-storage": "1"}},
			errors: "GPD-V6@enable-confidential-storage", minSize: 1, typ: PDSSD},
		{name: "GCE multi-zone yes", class: Class{Provisioner: gce, Parameters: P{"type": "pd-ssd", "enable-multi-zone-provisioning": "yes"}},
			errors: "GPD-V8@enable-multi-zone-provisioning", minSize: 1, typ: PDSSD},
		{name: "GCE multi-zone TRUE", class: Class{Provisioner: gce, Parameters: P{"type": "pd-ssd", "enable-multi-zone-provisioning": "TRUE"}},
			minSize: 1, typ: PDSSD},
		// Values the drivers parse and refuse: Azure tags (util.go:84-110), diskEncryptionSetID (azure_managedDiskController.go:252);
		// GCE labels, resource-tags, availability-class, the KMS key with confidential storage, the dynamic-type keys.
		{name: "Azure tags without =", class: Class{Provisioner: azure, Parameters: P{"skuName": "Premium_LRS", "cachingMode": "None",
			"tags": "team"}}, errors: "AZD-V12@tags", minSize: 1, typ: PremiumLRS},
		{name: "Azure tags bad key", class: Class{Provisioner: azure, Parameters: P{"skuName": "Premium_LRS", "cachingMode": "None",
			"tags": "a=1,b/c=2"}}, errors: "AZD-V12@tags", minSize: 1, typ: PremiumLRS},
		{name: "Azure tags delimiter", class: Class{Provisioner: azure, Parameters: P{"skuName": "Premium_LRS", "cachingMode": "None",
			"tags": "a=1;b=x,y", "tagValueDelimiter": ";"}}, minSize: 1, typ: PremiumLRS},
		{name: "Azure DES not an ID", class: Class{Provisioner: azure, Parameters: P{"skuName": "Premium_LRS", "cachingMode": "None",
			"diskEncryptionSetID": "my-des"}}, errors: "AZD-V11@diskEncryptionSetID", minSize: 1, typ: PremiumLRS},
		{name: "Azure DES ID", class: Class{Provisioner: azure, Parameters: P{"skuName": "Premium_LRS", "cachingMode": "None",
			"diskEncryptionSetID": "/Subscriptions/s/resourceGroups/g/providers/Microsoft.Compute/diskEncryptionSets/d"}}, minSize: 1, typ: PremiumLRS},
		{name: "GCE label key upper case", class: Class{Provisioner: gce, Parameters: P{"type": "pd-ssd", "labels": "Team=payments"}},
			errors: "GPD-V8@labels", minSize: 1, typ: PDSSD},
		{name: "GCE labels", class: Class{Provisioner: gce, Parameters: P{"type": "pd-ssd", "labels": "team=payments, env="}},
			minSize: 1, typ: PDSSD},
		{name: "GCE availability-class", class: Class{Provisioner: gce, Parameters: P{"type": "pd-ssd", "availability-class": "gold"}},
			errors: "GPD-V8@availability-class", minSize: 1, typ: PDSSD},
		{name: "GCE resource-tags", class: Class{Provisioner: gce, Parameters: P{"type": "pd-ssd", "resource-tags": "bad"}},
			errors: "GPD-V8@resource-tags", minSize: 1, typ: PDSSD},
		{name: "GCE resource-tags valid", class: Class{Provisioner: gce, Parameters: P{"type": "pd-ssd",
			"resource-tags": "123456/env/prod,my-project/team/a b"}}, minSize: 1, typ: PDSSD},
		{name: "GCE confidential KMS form", class: Class{Provisioner: gce, Parameters: P{"type": "hyperdisk-balanced",
			"enable-confidential-storage": "true", "disk-encryption-kms-key": "my-key"}}, errors: "GPD-V6@disk-encryption-kms-key",
			minSize: 1, typ: HyperdiskBalanced},
		{name: "GCE confidential KMS", class: Class{Provisioner: gce, Parameters: P{"type": "hyperdisk-balanced",
			"enable-confidential-storage": "true", "disk-encryption-kms-key": "projects/p/locations/l/keyRings/r/cryptoKeys/k"}},
			minSize: 1, typ: HyperdiskBalanced},
		{name: "GCE pd-type without dynamic", class: Class{Provisioner: gce, Parameters: P{"type": "pd-ssd", "pd-type": "pd-balanced"}},
			errors: "GPD-V8@pd-type", minSize: 1, typ: PDSSD},
		{name: "GCE dynamic", class: Class{Provisioner: gce, Parameters: P{"type": "dynamic", "pd-type": "pd-balanced",
			"hyperdisk-type": "hyperdisk-balanced", "disk-type-preference": "hyperdisk-type"}}, minSize: 1},
		// Accepted by the drivers: Azure diskName, zoned, enableAsyncAttach (azure_disk_utils.go:623,672-675), fsType in any
		// case (:650-651); GCE IOPS as a quantity (convert.go:21-28).
		{name: "Azure in-tree keys", class: Class{Provisioner: azure, Parameters: P{"skuName": "Premium_LRS", "cachingMode": "None",
			"zoned": "true", "enableAsyncAttach": "false", "diskName": "${pvc.metadata.name}", "fsType": "XFS"}}, minSize: 1, typ: PremiumLRS},
		{name: "GCE IOPS 10k", class: Class{Provisioner: gce, Parameters: P{"type": "hyperdisk-balanced", "provisioned-iops-on-create": "10k"},
			SizesGiB: []int64{20}}, minSize: 20, typ: HyperdiskBalanced},
		{name: "GCE IOPS 10k too many", class: Class{Provisioner: gce, Parameters: P{"type": "hyperdisk-balanced", "provisioned-iops-on-create": "10k"},
			SizesGiB: []int64{19}}, errors: "GPD-V4@provisioned-iops-on-create", minSize: 20, typ: HyperdiskBalanced},
		{name: "GCE IOPS not a quantity", class: Class{Provisioner: gce, Parameters: P{"type": "hyperdisk-balanced", "provisioned-iops-on-create": "10 k"}},
			errors: "GPD-V3@provisioned-iops-on-create", minSize: 1, typ: HyperdiskBalanced},
		// Shared disks take neither host caching nor write accelerator (azure-docs shared-disk limitations).
		{name: "AZD-V14 caching", class: Class{Provisioner: azure, Parameters: P{"skuName": "Premium_LRS", "cachingMode": "ReadOnly",
			"maxShares": "2"}}, errors: "AZD-V14@cachingMode", minSize: 1, typ: PremiumLRS},
		{name: "AZD-V14 write accelerator", class: Class{Provisioner: azure, Parameters: P{"skuName": "Premium_LRS", "cachingMode": "None",
			"maxShares": "3", "writeAcceleratorEnabled": "TRUE"}}, errors: "AZD-V14@writeAcceleratorEnabled", minSize: 1, typ: PremiumLRS},
		{name: "shared without caching", class: Class{Provisioner: azure, Parameters: P{"skuName": "Premium_LRS", "cachingMode": "None",
			"maxShares": "2"}}, minSize: 1, typ: PremiumLRS},
		// EBS encrypts with a KMS key whatever encrypted says (cloud.go:914-917).
		{name: "EBS-W3", class: Class{Provisioner: ebs, Parameters: P{"type": "gp3", "encrypted": "false",
			"kmsKeyId": "arn:aws:kms:us-east-1:111122223333:key/k"}}, warns: "EBS-W3", minSize: 1, typ: GP3},
		{name: "AZD-V7", class: Class{Provisioner: azure, Parameters: P{"skuName": "StandardSSD_LRS", "cachingMode": "None"},
			SizesGiB: []int64{40000}}, errors: "AZD-V7@skuName", minSize: 1, typ: StandardSSDLRS},
		{name: "AZD-V8", class: Class{Provisioner: azure, Parameters: P{"skuName": "Premium_LRS", "cachingMode": "None",
			"enableBursting": "true"}, SizesGiB: []int64{256}}, errors: "AZD-V8@enableBursting", minSize: 513, typ: PremiumLRS},
		{name: "AZD-V8 shared", class: Class{Provisioner: azure, Parameters: P{"skuName": "Premium_LRS", "cachingMode": "None",
			"enableBursting": "true", "maxShares": "2"}}, errors: "AZD-V8@enableBursting", minSize: 1, typ: PremiumLRS},
		{name: "AZD-V9", class: Class{Provisioner: azure, Parameters: P{"skuName": "Standard_LRS", "cachingMode": "None",
			"enablePerformancePlus": "true"}, SizesGiB: []int64{100}}, errors: "AZD-V9@enablePerformancePlus", minSize: 513, typ: StandardLRS},
		{name: "AZD-V10", class: Class{Provisioner: azure, Parameters: P{"skuName": "Premium_LRS", "cachingMode": "None",
			"networkAccessPolicy": "AllowPrivate"}}, errors: "AZD-V10@networkAccessPolicy", minSize: 1, typ: PremiumLRS},
		{name: "AZD-V10 access ID", class: Class{Provisioner: azure, Parameters: P{"skuName": "Premium_LRS", "cachingMode": "None",
			"diskAccessID": "/x"}}, errors: "AZD-V10@diskAccessID", minSize: 1, typ: PremiumLRS},
		{name: "AZD-V11", class: Class{Provisioner: azure, Parameters: P{"skuName": "Premium_LRS", "cachingMode": "None",
			"diskEncryptionType": "EncryptionAtRestWithCustomerKey"}}, errors: "AZD-V11@diskEncryptionType", minSize: 1, typ: PremiumLRS},
		{name: "AZD-V12", class: Class{Provisioner: azure, Parameters: P{"skuName": "Premium_LRS", "cachingMode": "None",
			"maxShares": "0", "perfProfile": "turbo"}}, errors: "AZD-V12@perfProfile AZD-V12@maxShares", minSize: 1, typ: PremiumLRS},
		{name: "AZD-V13", class: Class{Provisioner: azure, Parameters: P{"skuName": "Premium_LRS", "cachingMode": "None",
			"iops": "5000"}}, errors: "AZD-V13@iops", minSize: 1, typ: PremiumLRS},
		{name: "AZC-1", class: Class{Provisioner: azure, Parameters: P{"skuName": "Premium_LRS"}}, warns: "AZC-1",
			minSize: 1, typ: PremiumLRS},
		{name: "AZC-5", class: Class{Provisioner: azure, Parameters: P{"skuName": "Premium_LRS", "cachingMode": "ReadOnly"},
			SizesGiB: []int64{4096}}, warns: "AZC-5", minSize: 1, typ: PremiumLRS},
		{name: "Ultra without values", class: Class{Provisioner: azure, Parameters: P{"skuName": "UltraSSD_LRS", "cachingMode": "None"}},
			warns: "SC-3", minSize: 4, typ: UltraSSDLRS},

		// GCE rules (§8.4).
		{name: "GPD-V1", class: Class{Provisioner: gce, Parameters: P{"type": "pd-ssd", "iops": "1"}}, errors: "GPD-V1@iops",
			minSize: 1, typ: PDSSD},
		{name: "GPD-V2 bare number", class: Class{Provisioner: gce, Parameters: P{"type": "hyperdisk-balanced",
			"provisioned-throughput-on-create": "250"}}, errors: "GPD-V2@provisioned-throughput-on-create", minSize: 1, typ: HyperdiskBalanced},
		{name: "GPD-V2 negative", class: Class{Provisioner: gce, Parameters: P{"type": "hyperdisk-balanced",
			"provisioned-throughput-on-create": "-1Mi"}}, errors: "GPD-V2@provisioned-throughput-on-create", minSize: 1, typ: HyperdiskBalanced},
		{name: "GPD-V2 wrong type", class: Class{Provisioner: gce, Parameters: P{"type": "pd-ssd",
			"provisioned-throughput-on-create": "250Mi"}}, errors: "GPD-V2@provisioned-throughput-on-create", minSize: 1, typ: PDSSD},
		{name: "GPD-V3", class: Class{Provisioner: gce, Parameters: P{"type": "pd-balanced", "provisioned-iops-on-create": "5000"}},
			errors: "GPD-V3@provisioned-iops-on-create", minSize: 1, typ: PDBalanced},
		{name: "GPD-V3 parse", class: Class{Provisioner: gce, Parameters: P{"type": "pd-extreme", "provisioned-iops-on-create": "5 thousand"}},
			errors: "GPD-V3@provisioned-iops-on-create", minSize: 1, typ: PDExtreme},
		{name: "GPD-V4", class: Class{Provisioner: gce, Parameters: P{"type": "hyperdisk-balanced", "provisioned-iops-on-create": "6000"},
			SizesGiB: []int64{10}}, errors: "GPD-V4@provisioned-iops-on-create", minSize: 12, typ: HyperdiskBalanced},
		{name: "GPD-V4 extreme", class: Class{Provisioner: gce, Parameters: P{"type": "hyperdisk-extreme",
			"provisioned-iops-on-create": "400000"}}, errors: "GPD-V4@provisioned-iops-on-create", minSize: 1},
		{name: "GPD-V5", class: Class{Provisioner: gce, Parameters: P{"type": "pd-ssd", "replication-type": "multi"}},
			errors: "GPD-V5@replication-type", minSize: 1, typ: PDSSD},
		{name: "GPD-V6", class: Class{Provisioner: gce, Parameters: P{"type": "hyperdisk-balanced", "enable-confidential-storage": "true"}},
			errors: "GPD-V6@enable-confidential-storage", minSize: 1, typ: HyperdiskBalanced},
		{name: "GPD-V7", class: Class{Provisioner: gce, Parameters: P{"type": "pd-fast"}}, errors: "GPD-V7@type", minSize: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep := CheckClass(tt.class)
			var errs, warns []string
			for _, f := range rep.Findings {
				if !strings.Contains(f.Message, "rule") && f.Rule != "SC-W1" {
					t.Errorf("%s message does not quote its rule: %s", f.Rule, f.Message)
				}
				if f.Severity == SeverityError {
					errs = append(errs, f.Rule+"@"+parameterKey(f.Path))
				} else {
					warns = append(warns, f.Rule)
				}
			}
			if got := strings.Join(errs, " "); got != tt.errors {
				t.Errorf("errors %q, want %q\n%v", got, tt.errors, rep.Findings)
			}
			if got := strings.Join(warns, " "); got != tt.warns {
				t.Errorf("warnings %q, want %q\n%v", got, tt.warns, rep.Findings)
			}
			if rep.MinSizeGiB != tt.minSize && tt.errors == "" || rep.Type != tt.typ {
				t.Errorf("min size %d type %q, want %d %q", rep.MinSizeGiB, rep.Type, tt.minSize, tt.typ)
			}
			if (rep.Err() == nil) != (tt.errors == "") {
				t.Errorf("Err() = %v with errors %q", rep.Err(), tt.errors)
			}
		})
	}
}

func TestClassVolumeSpec(t *testing.T) {
	tests := []struct {
		class Class
		size  int64
		want  Spec
		err   bool
	}{
		{Class{Provisioner: "ebs.csi.aws.com", Parameters: P{"type": "gp3", "iops": "6000", "throughput": "500"}}, 20,
			Spec{Type: GP3, SizeGiB: 20, IOPS: 6000, Throughput: 500}, false},
		// iopsPerGB 10 × 100 GiB = 1,000; with auto increase, 10 × 5 = 50 is raised to io2's 100.
		{Class{Provisioner: "ebs.csi.aws.com", Parameters: P{"type": "io2", "iopsPerGB": "10"}}, 100,
			Spec{Type: IO2, SizeGiB: 100, IOPS: 1000}, false},
		{Class{Provisioner: "ebs.csi.aws.com", Parameters: P{"type": "io2", "iopsPerGB": "10", "allowAutoIOPSPerGBIncrease": "true"}}, 5,
			Spec{Type: IO2, SizeGiB: 5, IOPS: 100}, false},
		{Class{Provisioner: "disk.csi.azure.com", Parameters: P{"skuName": "Premium_LRS", "cachingMode": "None", "enableBursting": "true"}}, 1024,
			Spec{Type: PremiumLRS, SizeGiB: 1024, Bursting: true}, false},
		// 1.5Gi of throughput = 1,536 MiB/s.
		{Class{Provisioner: "pd.csi.storage.gke.io", Parameters: P{"type": "hyperdisk-balanced", "provisioned-throughput-on-create": "1.5Gi"}}, 100,
			Spec{Type: HyperdiskBalanced, SizeGiB: 100, Throughput: 1536}, false},
		{Class{Provisioner: "pd.csi.storage.gke.io", Parameters: P{"type": "hyperdisk-ml"}}, 100, Spec{}, true},
		// "10k" is 10,000 IOPS to the GCE driver (a Kubernetes quantity).
		{Class{Provisioner: "pd.csi.storage.gke.io", Parameters: P{"type": "hyperdisk-balanced", "provisioned-iops-on-create": "10k"}}, 100,
			Spec{Type: HyperdiskBalanced, SizeGiB: 100, IOPS: 10000}, false},
		// Azure reads enableBursting "True" as on (strings.EqualFold); EBS reads "True" as off, so kubefit refuses it.
		{Class{Provisioner: "disk.csi.azure.com", Parameters: P{"skuName": "Premium_LRS", "cachingMode": "None", "enableBursting": "True"}}, 1024,
			Spec{Type: PremiumLRS, SizeGiB: 1024, Bursting: true}, false},
		{Class{Provisioner: "ebs.csi.aws.com", Parameters: P{"type": "io2", "iopsPerGB": "10", "allowAutoIOPSPerGBIncrease": "True"}}, 5,
			Spec{}, true},
		{Class{Provisioner: "ebs.csi.aws.com", Parameters: P{"type": "gp4"}}, 100, Spec{}, true},
	}
	for _, tt := range tests {
		got, err := ClassVolumeSpec(tt.class, tt.size)
		if tt.err {
			if err == nil || err.Error() == "" {
				t.Errorf("ClassVolumeSpec(%v) = %+v, %v, want an error", tt.class.Parameters, got, err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("ClassVolumeSpec(%v) = %+v, %v, want %+v", tt.class.Parameters, got, err, tt.want)
		}
	}
}

func FuzzCheckClass(f *testing.F) {
	f.Add("ebs.csi.aws.com", "type", "gp3", "iops", "16000", "throughput", "1000", int64(20))
	f.Add("disk.csi.azure.com", "skuName", "UltraSSD_LRS", "DiskIOPSReadWrite", "99", "cachingMode", "ReadWrite", int64(4096))
	f.Add("pd.csi.storage.gke.io", "type", "hyperdisk-balanced", "provisioned-throughput-on-create", "1e3Mi", "provisioned-iops-on-create", "-5", int64(1))
	f.Add("kubernetes.io/aws-ebs", "type", "io1", "iopsPerGB", "2147483647", "allowAutoIOPSPerGBIncrease", "true", int64(16384))
	f.Fuzz(func(t *testing.T, prov, k1, v1, k2, v2, k3, v3 string, size int64) {
		cl := Class{Provisioner: prov, Parameters: P{k1: v1, k2: v2, k3: v3}, SizesGiB: []int64{size}}
		rep := CheckClass(cl)
		for _, fd := range rep.Findings {
			if fd.Message == "" || fd.Severity == "" {
				t.Fatalf("empty finding %+v", fd)
			}
		}
		if rep.Err() != nil || size < 1 {
			return
		}
		spec, err := ClassVolumeSpec(cl, max(size, rep.MinSizeGiB))
		if err != nil {
			return
		}
		// A class without errors gives a volume the planner accepts, at sizes the class allows.
		if _, err := NewVolume(spec); err != nil && rep.MinSizeGiB <= size {
			var fd *Finding
			if !errors.As(err, &fd) {
				t.Fatalf("NewVolume(%+v): %v", spec, err)
			}
		}
	})
}

func BenchmarkCheckClass(b *testing.B) {
	cl := Class{Provisioner: "ebs.csi.aws.com", Parameters: P{"type": "gp3", "iops": "6000", "throughput": "500",
		"encrypted": "true", "csi.storage.k8s.io/fstype": "xfs"}, SizesGiB: []int64{12, 50, 100, 1000}}
	for b.Loop() {
		if rep := CheckClass(cl); rep.Err() != nil {
			b.Fatal(rep.Err())
		}
	}
}

func TestDefaultParameters(t *testing.T) {
	tests := []struct {
		d    Driver
		in   P
		want P
	}{
		{EBSDriver, P{"type": "gp3"}, P{"iops": "3000", "throughput": "125"}},
		{EBSDriver, P{"type": "gp3", "iopsPerGB": "50", "Throughput": "200"}, P{}},
		{EBSDriver, P{"type": "io2", "iops": "1000"}, P{}},
		{AzureDiskDriver, P{"skuName": "Premium_LRS"}, P{"cachingMode": "None"}},
		{AzureDiskDriver, P{"skuName": "PremiumV2_LRS", "cachingmode": "None", "DiskIOPSReadWrite": "5000"}, P{"DiskMBpsReadWrite": "125"}},
		{GCEPDDriver, P{"type": "pd-ssd"}, P{}},
	}
	for _, tt := range tests {
		got := DefaultParameters(tt.d, tt.in)
		if len(got) != len(tt.want) {
			t.Errorf("DefaultParameters(%s, %v) = %v, want %v", tt.d, tt.in, got, tt.want)
			continue
		}
		for k, v := range tt.want {
			if got[k] != v {
				t.Errorf("DefaultParameters(%s, %v) = %v, want %v", tt.d, tt.in, got, tt.want)
			}
		}
		// The defaults complete a class that CheckClass accepts without SC-3/AZC-1 warnings.
		merged := P{}
		for k, v := range tt.in {
			merged[k] = v
		}
		for k, v := range got {
			merged[k] = v
		}
		for _, f := range CheckClass(Class{Provisioner: string(tt.d), Parameters: merged}).Findings {
			if f.Rule == "SC-3" || f.Rule == "AZC-1" {
				t.Errorf("%v: still %s after defaults: %s", merged, f.Rule, f.Message)
			}
		}
	}
}

func TestUnitConversions(t *testing.T) {
	if b, ok := MBPerSec.Rate(81.25); !ok || b != 81_250_000 {
		t.Errorf("81.25 MB/s = %d, %t", b, ok)
	}
	if b, ok := MiBPerSec.Rate(0.5); !ok || b != 524_288 {
		t.Errorf("0.5 MiB/s = %d, %t", b, ok)
	}
	if _, ok := MiBPerSec.Rate(-1); ok {
		t.Error("negative accepted")
	}
	if d, ok := Latency(2.5); !ok || d != 2500*time.Microsecond {
		t.Errorf("2.5 ms = %v, %t", d, ok)
	}
	if _, ok := Latency(0); ok {
		t.Error("zero latency accepted")
	}
}

// parameterKey returns the key of a Parameters[key] path, or "" for any other path.
func parameterKey(p field.Path) string {
	steps := p.Steps()
	if len(steps) == 2 && steps[0].Kind == field.Name && steps[0].Name == "Parameters" && steps[1].Kind == field.Key {
		return steps[1].Key
	}
	return ""
}

// TestCheckClassDeterministic: the same class gives the same findings in the same order every time,
// whatever the map order of its parameters.
func TestCheckClassDeterministic(t *testing.T) {
	cl := Class{Provisioner: "ebs.csi.aws.com", VolumeBindingMode: BindingImmediate, SizesGiB: []int64{20, 200000},
		Parameters: map[string]string{"type": "gp3", "iops": "16000", "zeta": "1", "alpha": "2", "Throughput": "5000",
			"csi.storage.k8s.io/fs": "xfs", "blockExpress": "true", "mid": "3"}}
	want := fmt.Sprint(CheckClass(cl).Findings)
	for range 50 {
		if got := fmt.Sprint(CheckClass(cl).Findings); got != want {
			t.Fatalf("findings differ:\n%s\nwant:\n%s", got, want)
		}
	}
}
