package catalog

import (
	"strings"
)

// Suggestion rules (NotFoundError.Suggestions):
//   - names are compared lower-cased, by optimal string alignment distance (Levenshtein plus
//     transposition of two adjacent characters, each edit costing 1), over bytes;
//   - for Azure, a name is also compared without its "Standard_" prefix when the query has none,
//     so "ds1_v2" finds "Standard_DS1_v2";
//   - a name is a candidate when its distance is at most suggestLimit(query): max(2, len/3);
//   - candidates are ordered by distance, then by the longer common prefix with the query, then
//     by name (byte order), and the first maxSuggestions are returned;
//   - queries longer than maxSuggestQuery bytes get no suggestions (no name is that long).
const (
	maxSuggestions  = 3
	maxSuggestQuery = 64
	azurePrefix     = "standard_"
)

// suggestLimit is the largest distance at which a name is suggested for a query of n bytes.
func suggestLimit(n int) int { return max(2, n/3) }

// candidate is a name under consideration for suggestions.
type candidate struct {
	i      int // position in the table
	dist   int
	prefix int // common prefix length with the query
}

// better reports whether a ranks before b.
func (t *table) better(a, b candidate) bool {
	if a.dist != b.dist {
		return a.dist < b.dist
	}
	if a.prefix != b.prefix {
		return a.prefix > b.prefix
	}
	return t.names[a.i] < t.names[b.i]
}

// suggest returns up to maxSuggestions names close to name.
func (t *table) suggest(name string) []string {
	q := strings.ToLower(name)
	if q == "" || len(q) > maxSuggestQuery {
		return nil
	}
	limit := suggestLimit(len(q))
	stripAzure := t.azure && !strings.HasPrefix(q, azurePrefix)
	rows := make([]int, 3*(t.maxLen+1))
	var best []candidate
	for i, n := range t.folded {
		c, ok := t.score(q, n, limit, rows)
		if stripAzure && strings.HasPrefix(n, azurePrefix) {
			if s, sok := t.score(q, n[len(azurePrefix):], limit, rows); sok && (!ok || s.dist < c.dist ||
				(s.dist == c.dist && s.prefix > c.prefix)) {
				c, ok = s, true
			}
		}
		if !ok {
			continue
		}
		c.i = i
		// Insert c into best, which is kept sorted and at most maxSuggestions long.
		pos := len(best)
		for pos > 0 && t.better(c, best[pos-1]) {
			pos--
		}
		if pos >= maxSuggestions {
			continue
		}
		if len(best) < maxSuggestions {
			best = append(best, candidate{})
		}
		copy(best[pos+1:], best[pos:len(best)-1])
		best[pos] = c
	}
	if len(best) == 0 {
		return nil
	}
	out := make([]string, len(best))
	for k, c := range best {
		out[k] = t.names[c.i]
	}
	return out
}

// score compares query q with candidate n; ok is false when their distance exceeds limit.
func (t *table) score(q, n string, limit int, rows []int) (c candidate, ok bool) {
	if d := len(q) - len(n); d > limit || -d > limit {
		return candidate{}, false
	}
	d := osaDistance(q, n, limit, rows)
	if d > limit {
		return candidate{}, false
	}
	return candidate{dist: d, prefix: commonPrefix(q, n)}, true
}

// osaDistance returns the optimal string alignment distance between a and b (insertions,
// deletions, substitutions and adjacent transpositions, each costing 1, over bytes), or a value
// above limit as soon as the distance is certain to exceed limit. rows is scratch space of at least
// 3 × (len(b) + 1) ints; a fresh slice is used when it is shorter.
func osaDistance(a, b string, limit int, rows []int) int {
	w := len(b) + 1
	if len(rows) < 3*w {
		rows = make([]int, 3*w)
	}
	prev2, prev, cur := rows[:w], rows[w:2*w], rows[2*w:3*w]
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			v := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				v = min(v, prev2[j-2]+1)
			}
			cur[j] = v
			rowMin = min(rowMin, v)
		}
		// No later cell can be below this row's minimum: each is a cell of this row plus 0 or 1, or
		// (transposition) a cell of the row before plus 1, and that cell is at least this row's
		// cell at the same column minus 1. So the distance already exceeds limit.
		if rowMin > limit {
			return limit + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}

// commonPrefix returns the length of the longest common prefix of a and b.
func commonPrefix(a, b string) int {
	n := min(len(a), len(b))
	for i := range n {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

// Closest returns up to three of names close to query, by the rules of NotFoundError's suggestions save the Azure
// prefix rule: for a name that is not an instance type's, such as a family in a filter.
func Closest(query string, names []string) []string {
	t := &table{names: names, folded: make([]string, len(names))}
	for i, n := range names {
		t.folded[i] = strings.ToLower(n)
		t.maxLen = max(t.maxLen, len(t.folded[i]))
	}
	return t.suggest(query)
}
