package fit

import (
	"slices"
	"strconv"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
)

// AccessMode is a PersistentVolumeClaim access mode, as in Kubernetes.
type AccessMode string

// The access modes Kubernetes defines.
const (
	ReadWriteOnce    AccessMode = "ReadWriteOnce"
	ReadOnlyMany     AccessMode = "ReadOnlyMany"
	ReadWriteMany    AccessMode = "ReadWriteMany"
	ReadWriteOncePod AccessMode = "ReadWriteOncePod"
)

// AccessModes lists every valid access mode.
var AccessModes = []AccessMode{ReadWriteOnce, ReadOnlyMany, ReadWriteMany, ReadWriteOncePod}

// ClaimSource says whether a claim is one per pod or one that all pods of a workload share.
type ClaimSource string

// The claim sources, as the manifests reader names them. The empty source means ClaimPerPodTemplate.
const (
	// ClaimPerPodTemplate is a StatefulSet's volumeClaimTemplates entry: every pod gets a claim of its own.
	ClaimPerPodTemplate ClaimSource = "volumeClaimTemplates"
	// ClaimEphemeral is a generic ephemeral volume: every pod gets a claim of its own, deleted with it.
	ClaimEphemeral ClaimSource = "ephemeral"
	// ClaimShared is a named persistentVolumeClaim: one claim, and one volume, that every pod mounts.
	ClaimShared ClaimSource = "persistentVolumeClaim"
)

// ClaimSources lists every valid claim source.
var ClaimSources = []ClaimSource{ClaimPerPodTemplate, ClaimEphemeral, ClaimShared}

// VolumeClaim is a PersistentVolumeClaim one pod mounts (volumes.md §6, §7).
type VolumeClaim struct {
	Name string
	// SizeBytes is the storage request (0 when unknown); StorageClass the class name ("" for the
	// cluster's default class). Neither changes where a pod may run.
	SizeBytes    int64
	StorageClass string
	// AccessModes as written; none means ReadWriteOnce, the mode a block volume has.
	AccessModes []AccessMode
	From        ClaimSource
	// IOPS and ThroughputMBps are the volume's provisioned sustained rates (its StorageClass's tier at its
	// size: kubefit_storage_class's performance); 0 when not given. ThroughputMBps is in the unit the
	// cloud publishes volume throughput in (MiB/s on AWS and GCP, MB/s on Azure: Pool.DiskUnitBytes). Every
	// attachable volume of a node shares the node's disk limits (Pool.DiskSustained, disks.go).
	IOPS           int64
	ThroughputMBps float64
	// DiskType is the disk type of the claim's StorageClass (a GCE PD CSI type value, "hyperdisk-balanced");
	// "" when not given. It does not change where a pod may run here; sizing checks it against the machine
	// series of the GCP pools the pods land on (disks.md §6.1).
	DiskType string
}

// Attachable reports whether the claim's volume is a block disk attached to the node, counted against
// the node's attach limit by the NodeVolumeLimits filter: every claim but a ReadWriteMany one, which is a
// file share (EFS, Azure Files, Filestore) no attach limit counts (volumes.md §6). A ReadOnlyMany claim
// counts: block disks attach read-only to many nodes (a Persistent Disk in ReadOnlyMany), each attachment
// taking a slot, so counting it is the safe side.
func (c VolumeClaim) Attachable() bool {
	return !slices.Contains(c.AccessModes, ReadWriteMany)
}

// singlePod reports whether the claim's volume can be used by one pod only: a shared ReadWriteOncePod
// claim, which the VolumeRestrictions filter keeps to one pod in the whole cluster.
func (c VolumeClaim) singlePod() bool {
	return c.From == ClaimShared && slices.Contains(c.AccessModes, ReadWriteOncePod)
}

// VolumeAttachments returns the attachments one pod of claims needs: one per attachable claim. A shared
// claim counts on every node a pod of it runs on, which is safe: its pods on one node share one
// attachment, and its pods on another node could not attach a ReadWriteOnce volume at all (a warning
// says so).
func VolumeAttachments(claims []VolumeClaim) int64 {
	var n int64
	for _, c := range claims {
		if c.Attachable() {
			n++
		}
	}
	return n
}

// sharedOneNode reports whether the claim is one volume its pods share that attaches to one node at a time: a
// shared ReadWriteOnce claim (not ReadWriteMany, not ReadWriteOncePod, which singlePod covers). The scheduler
// does not keep the pods together (its VolumeRestrictions filter checks ReadWriteOncePod only), so a pod it
// places on another node cannot attach the volume.
func (c VolumeClaim) sharedOneNode() bool {
	return c.From == ClaimShared && slices.Contains(c.AccessModes, ReadWriteOnce) && !slices.Contains(c.AccessModes, ReadWriteMany) && !c.singlePod()
}

// KeptOnOneNode reports whether w's required pod affinity keeps all its pods on one node: a term on
// kubernetes.io/hostname whose selector matches w's own pods in w's namespace (the InterPodAffinity filter
// then binds every pod beside the first).
func KeptOnOneNode(w *Workload) bool {
	if w.PodAffinity == nil {
		return false
	}
	for _, t := range w.PodAffinity.Required {
		if t.TopologyKey != hostnameKey || !t.inNamespace(w, w) {
			continue
		}
		if sel, err := metav1.LabelSelectorAsSelector(t.Selector.kube()); err == nil && sel.Matches(podLabels(w)) {
			return true
		}
	}
	return false
}

// SharedOnceClaim returns the first shared claim of the workload that is ReadWriteOnce (not
// ReadWriteOncePod): the volume attaches to one node, so pods on any other node cannot start.
func SharedOnceClaim(claims []VolumeClaim) (VolumeClaim, bool) {
	for _, c := range claims {
		if c.From == ClaimShared && c.Attachable() && !c.singlePod() {
			return c, true
		}
	}
	return VolumeClaim{}, false
}

// volumeClaims validates the claims of workload w at f.
func (v *validator) volumeClaims(f field.Path, w *Workload) {
	seen := map[string]bool{}
	for i, c := range w.VolumeClaims {
		cf := f.Child("VolumeClaims").At(i)
		owner := "workload " + strconv.Quote(w.Name)
		switch {
		case c.Name == "":
			v.add(cf.Child("Name"), "", "volume claim %d of %s has an empty name; give every claim a name", i+1, owner)
		case seen[c.Name]:
			v.add(cf.Child("Name"), c.Name, "volume claim %q of %s is given twice; claim names must be unique in a pod", c.Name, owner)
		}
		seen[c.Name] = true
		if c.SizeBytes < 0 || c.SizeBytes > MaxQuantity {
			v.add(cf.Child("SizeBytes"), i64(c.SizeBytes), "the size of volume claim %q of %s must be between 0 and %d bytes", c.Name, owner, MaxQuantity)
		}
		if c.From != "" && !slices.Contains(ClaimSources, c.From) {
			v.add(cf.Child("From"), string(c.From), "volume claim %q of %s comes from %s; use one of %s", c.Name, owner,
				field.Quote(string(c.From)), field.QuoteList(ClaimSources))
		}
		for j, m := range c.AccessModes {
			if !slices.Contains(AccessModes, m) {
				v.add(cf.Child("AccessModes").At(j), string(m), "access mode %s of volume claim %q of %s is not one of %s", field.Quote(string(m)),
					c.Name, owner, field.QuoteList(AccessModes))
			}
		}
		if c.IOPS < 0 || c.IOPS > MaxQuantity {
			v.add(cf.Child("IOPS"), i64(c.IOPS), "the IOPS of volume claim %q of %s must be between 0 and %d", c.Name, owner, MaxQuantity)
		}
		if !(c.ThroughputMBps >= 0 && c.ThroughputMBps <= 1e9) {
			v.add(cf.Child("ThroughputMBps"), strconv.FormatFloat(c.ThroughputMBps, 'g', -1, 64),
				"the throughput of volume claim %q of %s must be between 0 and 1,000,000,000 MB/s", c.Name, owner)
		}
		if c.sharedOneNode() && w.MaxReplicas > 1 && !KeptOnOneNode(w) {
			v.add(cf.Child("AccessModes"), string(ReadWriteOnce),
				"volume claim %q of %s is one ReadWriteOnce claim its %d pods share: its volume attaches to one node, and the scheduler does not keep the pods together, so those it places on another node stay ContainerCreating (Multi-Attach error); give each pod its own claim (volumeClaimTemplates), use a ReadWriteMany file share, keep the pods on one node with a required pod affinity to themselves on %s, or run one replica",
				c.Name, owner, w.MaxReplicas, hostnameKey)
		}
		if c.singlePod() && w.MaxReplicas > 1 {
			v.add(cf.Child("AccessModes"), string(ReadWriteOncePod),
				"volume claim %q of %s is one ReadWriteOncePod claim its %d pods share: the scheduler's VolumeRestrictions filter lets only one pod in the cluster use it, so the others stay Pending; give each pod its own claim (volumeClaimTemplates) or run one replica",
				c.Name, owner, w.MaxReplicas)
		}
	}
}
