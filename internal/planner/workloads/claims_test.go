package workloads

import "testing"

// TestReadClaimSizeAsWritten: a volume claim's size is its storage request as written ("1.5Gi", not the
// canonical "1536Mi" a resource.Quantity prints), from a PersistentVolumeClaim, a StatefulSet's claim template and
// a generic ephemeral volume alike, in YAML (an unquoted number as YAML reads it: 1e3 is 1000) and in JSON, while its size in bytes is the quantity's value.
func TestReadClaimSizeAsWritten(t *testing.T) {
	sts := "apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: db}\nspec:\n  replicas: 1\n  serviceName: db\n  selector: {matchLabels: {app: db}}\n" +
		"  template:\n    metadata: {labels: {app: db}}\n    spec:\n      containers: [{name: c, image: c, resources: {requests: {cpu: 100m}}}]\n" +
		"      volumes:\n      - name: data\n        persistentVolumeClaim: {claimName: shared}\n" +
		"      - name: scratch\n        ephemeral: {volumeClaimTemplate: {spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 0.5Gi}}}}}\n" +
		"  volumeClaimTemplates:\n  - metadata: {name: wal}\n    spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1.5Gi}}}\n" +
		"  - metadata: {name: logs}\n    spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1e3}}}\n"
	pvc := "---\n{\"apiVersion\": \"v1\", \"kind\": \"PersistentVolumeClaim\", \"metadata\": {\"name\": \"shared\"}, " +
		"\"spec\": {\"accessModes\": [\"ReadWriteOnce\"], \"resources\": {\"requests\": {\"storage\": \"2048Mi\"}}}}\n"
	w := workload(t, mustRead(t, Input{Manifests: sts + pvc}), "db")
	want := map[string]struct {
		size  string
		bytes int64
	}{"wal": {"1.5Gi", 3 << 29}, "logs": {"1000", 1000}, "shared": {"2048Mi", 2 << 30}, "scratch": {"0.5Gi", 1 << 29}}
	if len(w.Pod.VolumeClaims) != len(want) {
		t.Fatalf("claims %+v, want %d", w.Pod.VolumeClaims, len(want))
	}
	for _, c := range w.Pod.VolumeClaims {
		if c.Size != want[c.Name].size || c.SizeBytes != want[c.Name].bytes {
			t.Errorf("claim %s: size %q (%d bytes), want %q (%d bytes)", c.Name, c.Size, c.SizeBytes, want[c.Name].size, want[c.Name].bytes)
		}
	}
}

// TestReadClaimSizeWrittenTwoWays: one object writing the same size two ways (1.5Gi and 1536Mi) gets its canonical
// form for both claims, not one claim's writing for the other's.
func TestReadClaimSizeWrittenTwoWays(t *testing.T) {
	sts := "apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: db}\nspec:\n  replicas: 1\n  serviceName: db\n  selector: {matchLabels: {app: db}}\n" +
		"  template:\n    metadata: {labels: {app: db}}\n    spec:\n      containers: [{name: c, image: c, resources: {requests: {cpu: 100m}}}]\n" +
		"  volumeClaimTemplates:\n  - metadata: {name: a}\n    spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1.5Gi}}}\n" +
		"  - metadata: {name: b}\n    spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1536Mi}}}\n"
	w := workload(t, mustRead(t, Input{Manifests: sts}), "db")
	for _, c := range w.Pod.VolumeClaims {
		if c.Size != "1536Mi" || c.SizeBytes != 3<<29 {
			t.Errorf("claim %s: size %q (%d bytes), want the canonical 1536Mi", c.Name, c.Size, c.SizeBytes)
		}
	}
}
