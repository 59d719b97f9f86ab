package catalog

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestOSADistance(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"", "abc", 3},
		{"abc", "abc", 0},
		{"m5.larg", "m5.large", 1},   // one insertion
		{"m5.lrage", "m5.large", 1},  // one transposition
		{"kitten", "sitting", 3},     // k→s, e→i, +g
		{"ca", "abc", 3},             // OSA may not edit a transposed pair again (Damerau would give 2)
		{"m5.larg", "m5a.large", 2},  // two insertions
		{"e2-medum", "e2-medium", 1}, // one insertion
	}
	for _, tt := range tests {
		for _, pair := range [][2]string{{tt.a, tt.b}, {tt.b, tt.a}} {
			if got := osaDistance(pair[0], pair[1], 100, nil); got != tt.want {
				t.Errorf("osaDistance(%q, %q) = %d, want %d", pair[0], pair[1], got, tt.want)
			}
			if got := refDistance(pair[0], pair[1]); got != tt.want {
				t.Errorf("refDistance(%q, %q) = %d, want %d", pair[0], pair[1], got, tt.want)
			}
			if got := fullDistance(pair[0], pair[1]); got != tt.want {
				t.Errorf("fullDistance(%q, %q) = %d, want %d", pair[0], pair[1], got, tt.want)
			}
			// With a lower limit the answer is only "above the limit".
			if tt.want > 0 {
				if got := osaDistance(pair[0], pair[1], tt.want-1, nil); got < tt.want {
					t.Errorf("osaDistance(%q, %q, limit %d) = %d, want > limit", pair[0], pair[1], tt.want-1, got)
				}
			}
		}
	}
}

// refDistance is the textbook recursive definition of the optimal string alignment distance,
// memoised; slow and plain, for checking osaDistance.
func refDistance(a, b string) int {
	memo := make(map[[2]int]int)
	var d func(i, j int) int
	d = func(i, j int) int {
		if i == 0 {
			return j
		}
		if j == 0 {
			return i
		}
		if v, ok := memo[[2]int{i, j}]; ok {
			return v
		}
		cost := 1
		if a[i-1] == b[j-1] {
			cost = 0
		}
		v := min(d(i-1, j)+1, d(i, j-1)+1, d(i-1, j-1)+cost)
		if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
			v = min(v, d(i-2, j-2)+1)
		}
		memo[[2]int{i, j}] = v
		return v
	}
	return d(len(a), len(b))
}

// fullDistance computes the optimal string alignment distance with the whole matrix and no
// cut-off; the reference for suggestions, where refDistance would be too slow.
func fullDistance(a, b string) int {
	flat := make([]int, (len(a)+1)*(len(b)+1))
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = flat[i*(len(b)+1) : (i+1)*(len(b)+1)]
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}

// refSuggest applies the documented suggestion rules (suggest.go) the slow way: the full distance
// to every name, a full sort, the first three.
func refSuggest(cloud Cloud, name string) []string {
	q := strings.ToLower(name)
	if q == "" || len(q) > maxSuggestQuery {
		return nil
	}
	type cand struct {
		name         string
		dist, prefix int
	}
	limit := suggestLimit(len(q))
	// dist is the distance, or limit+1 when the lengths alone differ by more than limit (every
	// distance is at least the length difference); this only saves time.
	dist := func(a, b string) int {
		if len(a)-len(b) > limit || len(b)-len(a) > limit {
			return limit + 1
		}
		return fullDistance(a, b)
	}
	var all []cand
	for _, n := range Names(cloud) {
		f := strings.ToLower(n)
		c := cand{n, dist(q, f), commonPrefix(q, f)}
		if cloud == Azure && !strings.HasPrefix(q, azurePrefix) && strings.HasPrefix(f, azurePrefix) {
			s := f[len(azurePrefix):]
			if d, p := dist(q, s), commonPrefix(q, s); d < c.dist || (d == c.dist && p > c.prefix) {
				c.dist, c.prefix = d, p
			}
		}
		if c.dist <= limit {
			all = append(all, c)
		}
	}
	slices.SortFunc(all, func(x, y cand) int {
		if x.dist != y.dist {
			return x.dist - y.dist
		}
		if x.prefix != y.prefix {
			return y.prefix - x.prefix
		}
		return strings.Compare(x.name, y.name)
	})
	var out []string
	for _, c := range all[:min(len(all), maxSuggestions)] {
		out = append(out, c.name)
	}
	return out
}

// suggestionsOf returns the suggestions Lookup gives for name, checking the error's shape.
func suggestionsOf(t *testing.T, cloud Cloud, name string) (found bool, sugg []string) {
	t.Helper()
	it, err := Lookup(cloud, name)
	if err == nil {
		if cloud == Azure && !strings.EqualFold(it.Name, name) || cloud != Azure && it.Name != name {
			t.Fatalf("Lookup(%s, %q) found %q", cloud, name, it.Name)
		}
		return true, nil
	}
	var nf *NotFoundError
	if !errors.As(err, &nf) {
		t.Fatalf("Lookup(%s, %q) error = %v, want *NotFoundError", cloud, name, err)
	}
	if nf.Cloud != cloud || nf.Name != name || len(nf.Suggestions) > maxSuggestions {
		t.Fatalf("Lookup(%s, %q): bad NotFoundError %+v", cloud, name, nf)
	}
	return false, nf.Suggestions
}

// TestSuggestAgainstReference compares suggestions with refSuggest for typical typos: names of a
// sample with one byte dropped, doubled, changed or swapped with the next, at the start, middle and
// end, and some free text.
func TestSuggestAgainstReference(t *testing.T) {
	queries := map[Cloud][]string{
		AWS:   {"m5.larg", "M5.LARGE", "t3.mediun", "c5xlarge", "p5.48xl", "m7g-flex.larg", "x", "zzzzzz"},
		Azure: {"ds1_v2", "Standard_D2s_v9", "standard_b2", "B2s", "Standard_E8-2s", "standard_", "Basic_A9"},
		GCP:   {"e2-medum", "n2-standard", "n2-standard-22", "c4a-standard-4-lsd", "f1micro", "-"},
	}
	for _, c := range Clouds {
		names := Names(c)
		for k := 0; k < len(names); k += len(names) / 6 {
			n := names[k]
			for _, i := range []int{0, len(n) / 2, len(n) - 2} {
				queries[c] = append(queries[c],
					n[:i]+n[i+1:],                     // dropped
					n[:i+1]+n[i:],                     // doubled
					n[:i]+"q"+n[i+1:],                 // changed
					n[:i]+n[i+1:i+2]+n[i:i+1]+n[i+2:]) // swapped
			}
		}
		for _, q := range queries[c] {
			found, got := suggestionsOf(t, c, q)
			if found {
				continue
			}
			if want := refSuggest(c, q); !slices.Equal(got, want) {
				t.Errorf("Lookup(%s, %q) suggestions = %q, reference %q", c, q, got, want)
			}
		}
	}
}

// FuzzLookup checks that Lookup never panics, that found names match the query (exactly, or in
// any case for Azure), and that suggestions are catalog names, distinct, deterministic and equal
// to the reference rules.
func FuzzLookup(f *testing.F) {
	f.Add("aws", "m5.larg")
	f.Add("AWS", "m5.large")
	f.Add("azure", "standard_ds1_v2")
	f.Add("azure", "ds1_v2")
	f.Add("gcp", "e2-medum")
	f.Add("gcp", "")
	f.Add("oci", "VM.Standard.E4.Flex")
	f.Add("aws", "\xff\xfe\x00")
	f.Add("azure", "Standard_\u0130")
	f.Add("aws", strings.Repeat("m5.large", 20))
	f.Fuzz(func(t *testing.T, cloudName, name string) {
		cloud, err := ParseCloud(cloudName)
		if err != nil {
			if _, lerr := Lookup(Cloud(cloudName), name); lerr == nil {
				t.Fatalf("Lookup accepted cloud %q that ParseCloud rejects", cloudName)
			}
			return
		}
		found, sugg := suggestionsOf(t, cloud, name)
		if found {
			return
		}
		_, again := suggestionsOf(t, cloud, name)
		if !slices.Equal(sugg, again) {
			t.Fatalf("suggestions for %q not deterministic: %q then %q", name, sugg, again)
		}
		seen := make(map[string]bool)
		for _, s := range sugg {
			if seen[s] {
				t.Fatalf("duplicate suggestion %q", s)
			}
			seen[s] = true
			if _, err := Lookup(cloud, s); err != nil {
				t.Fatalf("suggestion %q is not in the catalog: %v", s, err)
			}
		}
		if len(name) <= 24 { // the reference is slow; short names cover every rule
			if want := refSuggest(cloud, name); !slices.Equal(sugg, want) {
				t.Fatalf("suggestions for %q = %q, reference %q", name, sugg, want)
			}
		}
	})
}
