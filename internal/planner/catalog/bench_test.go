package catalog

import "testing"

// loadFresh reads and parses all three embedded tables without the package's caches.
func loadFresh() error {
	for _, c := range []Cloud{AWS, Azure, GCP} {
		data, err := dataFS.ReadFile("data/" + string(c) + ".tsv")
		if err != nil {
			return err
		}
		h, body, err := parseHeader(string(data))
		if err != nil {
			return err
		}
		if _, err := parseTable(c, h, body); err != nil {
			return err
		}
	}
	return nil
}

// BenchmarkLoad measures a fresh parse of all three clouds (what the first Lookup of each costs).
func BenchmarkLoad(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if err := loadFresh(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLookup measures hits, one per cloud per iteration (Azure folding case).
func BenchmarkLookup(b *testing.B) {
	queries := []struct {
		c    Cloud
		name string
	}{{AWS, "m5.large"}, {Azure, "standard_ds1_v2"}, {GCP, "e2-medium"}}
	for _, q := range queries {
		if _, err := Lookup(q.c, q.name); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, q := range queries {
			if _, err := Lookup(q.c, q.name); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkLookupMiss measures a miss with suggestions over the largest table (Azure).
func BenchmarkLookupMiss(b *testing.B) {
	if _, err := Lookup(Azure, "Standard_DS1_v2"); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Lookup(Azure, "Standard_D2s_v9"); err == nil {
			b.Fatal("found a name that does not exist")
		}
	}
}
