package manifest

import (
	"encoding/json"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	storagev1 "k8s.io/api/storage/v1"
	"sigs.k8s.io/yaml"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
)

func premium() StorageClassSpec {
	return StorageClassSpec{
		Name: "premium-retain", Provisioner: "disk.csi.azure.com",
		Parameters:    map[string]string{"skuName": "Premium_LRS", "cachingMode": "None"},
		ReclaimPolicy: corev1.PersistentVolumeReclaimRetain, VolumeBindingMode: storagev1.VolumeBindingWaitForFirstConsumer,
		AllowVolumeExpansion: true,
	}
}

const premiumYAML = `allowVolumeExpansion: true
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata:
  name: premium-retain
parameters:
  cachingMode: None
  skuName: Premium_LRS
provisioner: disk.csi.azure.com
reclaimPolicy: Retain
volumeBindingMode: WaitForFirstConsumer
`

func TestStorageClass(t *testing.T) {
	tests := []struct {
		name    string
		spec    func(*StorageClassSpec)
		check   func(*testing.T, *storagev1.StorageClass)
		wantErr []string // paths of the errors, in order
	}{
		{name: "plain", spec: func(*StorageClassSpec) {}, check: func(t *testing.T, sc *storagev1.StorageClass) {
			if sc.Labels != nil || sc.Annotations != nil || sc.MountOptions != nil || sc.AllowedTopologies != nil {
				t.Errorf("empty fields set: %+v", sc)
			}
			if *sc.ReclaimPolicy != corev1.PersistentVolumeReclaimRetain || !*sc.AllowVolumeExpansion {
				t.Errorf("policy %v, expansion %v", *sc.ReclaimPolicy, *sc.AllowVolumeExpansion)
			}
		}},
		{name: "default class", spec: func(s *StorageClassSpec) {
			s.IsDefaultClass, s.Annotations = true, map[string]string{"team": "storage"}
		}, check: func(t *testing.T, sc *storagev1.StorageClass) {
			if sc.Annotations[DefaultClassAnnotation] != "true" || sc.Annotations["team"] != "storage" {
				t.Errorf("annotations %v", sc.Annotations)
			}
		}},
		{name: "topology and mount options", spec: func(s *StorageClassSpec) {
			s.MountOptions = []string{"noatime"}
			s.AllowedTopologies = []TopologyTerm{{MatchLabelExpressions: []TopologyRequirement{
				{Key: "topology.kubernetes.io/zone", Values: []string{"westeurope-1", "westeurope-2"}}}}}
		}, check: func(t *testing.T, sc *storagev1.StorageClass) {
			if len(sc.AllowedTopologies) != 1 || sc.AllowedTopologies[0].MatchLabelExpressions[0].Values[1] != "westeurope-2" ||
				sc.MountOptions[0] != "noatime" {
				t.Errorf("topologies %+v, mount options %v", sc.AllowedTopologies, sc.MountOptions)
			}
		}},
		{name: "invalid", spec: func(s *StorageClassSpec) {
			s.Name, s.Provisioner, s.ReclaimPolicy, s.VolumeBindingMode = "Premium", "", "Recycle", "Later"
			s.Labels = map[string]string{"b/x/y": "ok", "a": "-bad"}
			s.Annotations = map[string]string{DefaultClassAnnotation: "true"}
			s.AllowedTopologies = []TopologyTerm{{MatchLabelExpressions: []TopologyRequirement{{Key: "not a key"}}}}
		}, wantErr: []string{"Name", "Provisioner", "ReclaimPolicy", "VolumeBindingMode", `Labels["a"]`, `Labels["b/x/y"]`,
			`Annotations["storageclass.kubernetes.io/is-default-class"]`, "AllowedTopologies[0].MatchLabelExpressions[0].Key"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := premium()
			tt.spec(&s)
			sc, err := StorageClass(s)
			if tt.wantErr != nil {
				var got []string
				for _, e := range field.As(err) {
					got = append(got, e.Path.String())
					if e.Detail == "" || strings.Contains(e.Detail, "kubefit_") {
						t.Errorf("detail %q", e.Detail)
					}
				}
				if strings.Join(got, " ") != strings.Join(tt.wantErr, " ") {
					t.Errorf("error paths %q, want %q (%v)", got, tt.wantErr, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if sc.APIVersion != "storage.k8s.io/v1" || sc.Kind != "StorageClass" || sc.Name != s.Name || sc.Provisioner != s.Provisioner {
				t.Errorf("header %+v", sc)
			}
			tt.check(t, sc)
		})
	}
}

// TestStorageClassCopies: the object shares no map or slice with the spec.
func TestStorageClassCopies(t *testing.T) {
	s := premium()
	s.Labels = map[string]string{"a": "b"}
	s.MountOptions = []string{"noatime"}
	sc, err := StorageClass(s)
	if err != nil {
		t.Fatal(err)
	}
	s.Parameters["skuName"], s.Labels["a"], s.MountOptions[0] = "x", "x", "x"
	if sc.Parameters["skuName"] != "Premium_LRS" || sc.Labels["a"] != "b" || sc.MountOptions[0] != "noatime" {
		t.Errorf("object changed with the spec: %+v", sc)
	}
}

func TestRender(t *testing.T) {
	sc, err := StorageClass(premium())
	if err != nil {
		t.Fatal(err)
	}
	r, err := Render(sc)
	if err != nil {
		t.Fatal(err)
	}
	if r.YAML != premiumYAML {
		t.Errorf("YAML:\n%s\nwant:\n%s", r.YAML, premiumYAML)
	}
	// The JSON and the YAML decode strictly to the same object.
	var fromJSON, fromYAML storagev1.StorageClass
	if err := yaml.UnmarshalStrict([]byte(r.JSON), &fromJSON); err != nil {
		t.Fatal(err)
	}
	if err := yaml.UnmarshalStrict([]byte(r.YAML), &fromYAML); err != nil {
		t.Fatal(err)
	}
	if fromJSON.String() != sc.String() || fromYAML.String() != sc.String() {
		t.Errorf("round trip:\n%v\n%v\nwant %v", fromJSON.String(), fromYAML.String(), sc.String())
	}
	if r.Object["kind"] != "StorageClass" || r.Object["parameters"].(map[string]any)["skuName"] != "Premium_LRS" ||
		r.Object["allowVolumeExpansion"] != true {
		t.Errorf("object %v", r.Object)
	}
	// Rendering is deterministic.
	for range 20 {
		again, err := Render(sc)
		if err != nil || again.JSON != r.JSON || again.YAML != r.YAML {
			t.Fatalf("render differs: %v", err)
		}
	}
}

func TestRenderNumbersAndErrors(t *testing.T) {
	r, err := Render(map[string]any{"n": json.Number("12345678901234567890"), "f": 0.1})
	if err != nil {
		t.Fatal(err)
	}
	if r.Object["n"] != json.Number("12345678901234567890") || r.Object["f"] != json.Number("0.1") {
		t.Errorf("numbers %#v", r.Object)
	}
	if _, err := Render([]string{"not", "an", "object"}); err == nil {
		t.Error("a list rendered as an object")
	}
	if _, err := Render(map[string]any{"c": make(chan int)}); err == nil {
		t.Error("a channel rendered")
	}
}
