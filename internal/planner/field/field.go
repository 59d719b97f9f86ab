// Package field is the planner's one vocabulary for what is wrong with an input: a typed Path to the value
// at fault (named fields, list indexes and map keys, in the planner's own field names), an Error that says
// what is wrong in domain words, a list of them, and Warnings with a stable code. Every planner package
// returns these; a caller (such as the Terraform provider) walks a Path's steps to point at its own
// spelling of the same value.
//
// Paths use the planner's Go field names ("Pools", "MaxNodes"); pools are keyed by name, lists by index.
// Messages never name a caller's attribute: they say "the pool's maximum node count", not a field name.
package field

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// StepKind is the kind of one step of a Path.
type StepKind uint8

// The kinds of path steps.
const (
	// Name is a named field ("MaxNodes").
	Name StepKind = iota
	// Index is a list element (0-based).
	Index
	// Key is a map element, or a list element known by its name (a pool).
	Key
)

// Step is one step of a Path: a field Name, a list Index or a map Key, as Kind says.
type Step struct {
	Kind  StepKind
	Name  string
	Index int
	Key   string
}

// Path is the location of a value inside a planner input, from the input's root. The zero Path is the
// root. Paths are values: Child, At and Key return new paths and never change the receiver.
type Path struct{ steps []Step }

// NewPath returns the path of the root's field name, then of each further field in names.
func NewPath(name string, names ...string) Path { return Path{}.Child(name, names...) }

func (p Path) with(s Step) Path {
	steps := make([]Step, len(p.steps), len(p.steps)+1)
	copy(steps, p.steps)
	return Path{steps: append(steps, s)}
}

// Child returns the path of field name below p, then of each further field in names.
func (p Path) Child(name string, names ...string) Path {
	p = p.with(Step{Kind: Name, Name: name})
	for _, n := range names {
		p = p.with(Step{Kind: Name, Name: n})
	}
	return p
}

// At returns the path of element i of the list at p.
func (p Path) At(i int) Path { return p.with(Step{Kind: Index, Index: i}) }

// Key returns the path of the element with key k of the map (or named list) at p.
func (p Path) Key(k string) Path { return p.with(Step{Kind: Key, Key: k}) }

// Steps returns p's steps from the root; the slice is the caller's.
func (p Path) Steps() []Step { return append([]Step(nil), p.steps...) }

// Drop returns p without its first n steps (the root when n ≥ the number of steps).
func (p Path) Drop(n int) Path {
	if n >= len(p.steps) {
		return Path{}
	}
	return Path{steps: append([]Step(nil), p.steps[n:]...)}
}

// IsRoot reports whether p has no steps.
func (p Path) IsRoot() bool { return len(p.steps) == 0 }

// Join returns p followed by the steps of q.
func (p Path) Join(q Path) Path {
	steps := make([]Step, 0, len(p.steps)+len(q.steps))
	return Path{steps: append(append(steps, p.steps...), q.steps...)}
}

// String renders p as "Pools[\"general\"].MaxNodes" or "Workloads[2].Requests.CPUMillicores", for logs
// and tests; it is not meant for users.
func (p Path) String() string {
	var b strings.Builder
	for i, s := range p.steps {
		switch s.Kind {
		case Name:
			if i > 0 {
				b.WriteByte('.')
			}
			b.WriteString(s.Name)
		case Index:
			b.WriteString("[" + strconv.Itoa(s.Index) + "]")
		case Key:
			b.WriteString("[" + strconv.Quote(s.Key) + "]")
		}
	}
	return b.String()
}

// Error is one invalid input value: where it is, the value as text, and what is wrong, in domain words
// that name the pool, workload or DaemonSet concerned and say what to do.
type Error struct {
	Path   Path
	Value  string
	Detail string
}

// Error returns the detail, which already quotes the value where it helps.
func (e *Error) Error() string { return e.Detail }

// Invalid returns an *Error for the value at p, with a detail built like fmt.Sprintf.
func Invalid(p Path, value string, format string, args ...any) *Error {
	return &Error{Path: p, Value: value, Detail: fmt.Sprintf(format, args...)}
}

// Errors is a list of input errors, in a stable order (the order the checks ran in, which is input
// order). A nil or empty list is no error.
type Errors []*Error

// Error joins the details with "; ".
func (es Errors) Error() string {
	parts := make([]string, len(es))
	for i, e := range es {
		parts[i] = e.Detail
	}
	return strings.Join(parts, "; ")
}

// Err returns es as an error, or nil when es is empty.
func (es Errors) Err() error {
	if len(es) == 0 {
		return nil
	}
	return es
}

// Prefix returns the errors with p put before each path.
func (es Errors) Prefix(p Path) Errors {
	out := make(Errors, len(es))
	for i, e := range es {
		out[i] = &Error{Path: p.Join(e.Path), Value: e.Value, Detail: e.Detail}
	}
	return out
}

// As returns the input errors inside err: the list of an Errors, a single *Error, or nil when err holds
// none (err is then not about an input value).
func As(err error) Errors {
	var es Errors
	if errors.As(err, &es) {
		return es
	}
	var e *Error
	if errors.As(err, &e) {
		return Errors{e}
	}
	return nil
}

// Warning is something the caller should know about a result: a stable Code (such as "overhead.no-daemonsets"),
// the Path of the input it concerns (the root when none), and a Message in domain words.
type Warning struct {
	Code    string
	Path    Path
	Message string
}

// Shorten returns s unchanged when it has at most max runes, else its first max−1 runes and "…", so a
// message can quote any input without echoing a huge value.
func Shorten(s string, max int) string {
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	r := []rune(s)
	return string(r[:max-1]) + "…"
}

// Quote quotes s for a message, shortened to 64 runes.
func Quote(s string) string { return strconv.Quote(Shorten(s, 64)) }

// QuoteList quotes each name and joins them with commas: "a", "b", "c".
func QuoteList[T ~string](names []T) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = strconv.Quote(string(n))
	}
	return strings.Join(q, ", ")
}

// QuoteOr quotes and joins values as "a", "b" or "c".
func QuoteOr(values []string) string {
	q := make([]string, len(values))
	for i, v := range values {
		q[i] = strconv.Quote(v)
	}
	if len(q) < 2 {
		return strings.Join(q, "")
	}
	return strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1]
}

// JoinAnd joins phrases as "a", "a and b" or "a, b and c".
func JoinAnd(parts []string) string {
	switch len(parts) {
	case 0:
		return ""
	case 1:
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}
