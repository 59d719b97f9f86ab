package manifest

import (
	"maps"
	"slices"

	corev1 "k8s.io/api/core/v1"
	storagev1 "k8s.io/api/storage/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
)

// DefaultClassAnnotation is the annotation that marks the cluster's default StorageClass.
const DefaultClassAnnotation = "storageclass.kubernetes.io/is-default-class"

// ReclaimPolicies lists the reclaim policies a StorageClass may set.
var ReclaimPolicies = []corev1.PersistentVolumeReclaimPolicy{corev1.PersistentVolumeReclaimDelete,
	corev1.PersistentVolumeReclaimRetain}

// BindingModes lists the volume binding modes a StorageClass may set.
var BindingModes = []storagev1.VolumeBindingMode{storagev1.VolumeBindingWaitForFirstConsumer,
	storagev1.VolumeBindingImmediate}

// StorageClassSpec is what a StorageClass is built from. Parameters are rendered as they are: checking
// them against the CSI driver's rules is the disk package's job (disk.CheckClass).
type StorageClassSpec struct {
	Name                 string
	Provisioner          string
	Parameters           map[string]string
	ReclaimPolicy        corev1.PersistentVolumeReclaimPolicy
	VolumeBindingMode    storagev1.VolumeBindingMode
	AllowVolumeExpansion bool
	// IsDefaultClass sets DefaultClassAnnotation to "true"; Annotations may not set it themselves.
	IsDefaultClass    bool
	MountOptions      []string
	AllowedTopologies []TopologyTerm
	Labels            map[string]string
	Annotations       map[string]string
}

// TopologyTerm is one term of a StorageClass's allowed topologies: every requirement must hold.
type TopologyTerm struct {
	MatchLabelExpressions []TopologyRequirement
}

// TopologyRequirement is a node label key and the values it may have.
type TopologyRequirement struct {
	Key    string
	Values []string
}

// StorageClass builds the storage.k8s.io/v1 StorageClass of s. It returns field.Errors, with paths in
// StorageClassSpec's field names, for a name that is not a DNS subdomain, an unknown reclaim policy or
// binding mode, an empty provisioner, invalid label keys or values, topology keys that are not qualified
// names, or an annotation that repeats IsDefaultClass.
func StorageClass(s StorageClassSpec) (*storagev1.StorageClass, error) {
	if err := validateStorageClass(s).Err(); err != nil {
		return nil, err
	}
	policy, mode, expand := s.ReclaimPolicy, s.VolumeBindingMode, s.AllowVolumeExpansion
	sc := &storagev1.StorageClass{
		TypeMeta:             metav1.TypeMeta{APIVersion: "storage.k8s.io/v1", Kind: "StorageClass"},
		ObjectMeta:           metav1.ObjectMeta{Name: s.Name},
		Provisioner:          s.Provisioner,
		Parameters:           copyMap(s.Parameters),
		ReclaimPolicy:        &policy,
		AllowVolumeExpansion: &expand,
		VolumeBindingMode:    &mode,
		MountOptions:         slices.Clone(s.MountOptions),
	}
	sc.Labels = copyMap(s.Labels)
	sc.Annotations = copyMap(s.Annotations)
	if s.IsDefaultClass {
		if sc.Annotations == nil {
			sc.Annotations = map[string]string{}
		}
		sc.Annotations[DefaultClassAnnotation] = "true"
	}
	for _, t := range s.AllowedTopologies {
		var term corev1.TopologySelectorTerm
		for _, e := range t.MatchLabelExpressions {
			term.MatchLabelExpressions = append(term.MatchLabelExpressions,
				corev1.TopologySelectorLabelRequirement{Key: e.Key, Values: slices.Clone(e.Values)})
		}
		sc.AllowedTopologies = append(sc.AllowedTopologies, term)
	}
	return sc, nil
}

func validateStorageClass(s StorageClassSpec) field.Errors {
	var es field.Errors
	for _, msg := range validation.IsDNS1123Subdomain(s.Name) {
		es = append(es, field.Invalid(field.NewPath("Name"), s.Name, "the StorageClass name %s is invalid: %s",
			field.Quote(s.Name), msg))
	}
	if s.Provisioner == "" {
		es = append(es, field.Invalid(field.NewPath("Provisioner"), "", "the StorageClass has no provisioner"))
	}
	if !slices.Contains(ReclaimPolicies, s.ReclaimPolicy) {
		es = append(es, field.Invalid(field.NewPath("ReclaimPolicy"), string(s.ReclaimPolicy),
			"the reclaim policy %s is not one of %s", field.Quote(string(s.ReclaimPolicy)), field.QuoteList(ReclaimPolicies)))
	}
	if !slices.Contains(BindingModes, s.VolumeBindingMode) {
		es = append(es, field.Invalid(field.NewPath("VolumeBindingMode"), string(s.VolumeBindingMode),
			"the volume binding mode %s is not one of %s", field.Quote(string(s.VolumeBindingMode)), field.QuoteList(BindingModes)))
	}
	for _, k := range slices.Sorted(maps.Keys(s.Labels)) {
		p := field.NewPath("Labels").Key(k)
		for _, msg := range validation.IsQualifiedName(k) {
			es = append(es, field.Invalid(p, k, "the label key %s is invalid: %s", field.Quote(k), msg))
		}
		for _, msg := range validation.IsValidLabelValue(s.Labels[k]) {
			es = append(es, field.Invalid(p, s.Labels[k], "the value %s of label %s is invalid: %s",
				field.Quote(s.Labels[k]), field.Quote(k), msg))
		}
	}
	if _, ok := s.Annotations[DefaultClassAnnotation]; ok {
		es = append(es, field.Invalid(field.NewPath("Annotations").Key(DefaultClassAnnotation), s.Annotations[DefaultClassAnnotation],
			"the annotation %s repeats whether the class is the default; set that instead, so the two cannot disagree",
			DefaultClassAnnotation))
	}
	for i, t := range s.AllowedTopologies {
		for j, e := range t.MatchLabelExpressions {
			p := field.NewPath("AllowedTopologies").At(i).Child("MatchLabelExpressions").At(j).Child("Key")
			for _, msg := range validation.IsQualifiedName(e.Key) {
				es = append(es, field.Invalid(p, e.Key, "the topology key %s is invalid: %s", field.Quote(e.Key), msg))
			}
		}
	}
	return es
}

// copyMap returns a copy of m, or nil for an empty map so that the object leaves the field out.
func copyMap(m map[string]string) map[string]string {
	if len(m) == 0 {
		return nil
	}
	return maps.Clone(m)
}
