package field

import (
	"errors"
	"fmt"
	"testing"
)

func TestPathString(t *testing.T) {
	tests := []struct {
		p    Path
		want string
	}{
		{Path{}, ""},
		{NewPath("Pools").Key("general").Child("MaxNodes"), `Pools["general"].MaxNodes`},
		{NewPath("Workloads").At(2).Child("Requests").Child("CPUMillicores"), "Workloads[2].Requests.CPUMillicores"},
		{NewPath("A", "B"), "A.B"},
	}
	for _, tt := range tests {
		if got := tt.p.String(); got != tt.want {
			t.Errorf("String() = %q, want %q", got, tt.want)
		}
	}
}

func TestPathImmutable(t *testing.T) {
	base := NewPath("Pools")
	a, b := base.Key("a"), base.Key("b")
	if a.String() != `Pools["a"]` || b.String() != `Pools["b"]` || base.String() != "Pools" {
		t.Fatalf("paths share storage: %s %s %s", a, b, base)
	}
	steps := a.Steps()
	steps[0].Name = "X"
	if a.String() != `Pools["a"]` {
		t.Fatalf("Steps exposes internal storage")
	}
	if got := NewPath("Pools").Key("p").Child("MaxNodes").Drop(2).String(); got != "MaxNodes" {
		t.Fatalf("Drop = %q", got)
	}
	if !NewPath("A").Drop(5).IsRoot() {
		t.Fatal("Drop past the end must give the root")
	}
	if got := base.Join(NewPath("Zones").At(1)).String(); got != "Pools.Zones[1]" {
		t.Fatalf("Join = %q", got)
	}
}

func TestAs(t *testing.T) {
	e := Invalid(NewPath("X"), "1", "x %d is bad", 1)
	if got := As(e); len(got) != 1 || got[0] != e {
		t.Fatalf("As(*Error) = %v", got)
	}
	es := Errors{e, Invalid(NewPath("Y"), "2", "y")}
	if got := As(fmt.Errorf("wrapped: %w", es)); len(got) != 2 {
		t.Fatalf("As(wrapped Errors) = %v", got)
	}
	if got := As(errors.New("plain")); got != nil {
		t.Fatalf("As(plain) = %v, want nil", got)
	}
	if (Errors{}).Err() != nil || es.Err() == nil {
		t.Fatal("Err() of empty must be nil and of non-empty non-nil")
	}
	if got := es.Error(); got != "x 1 is bad; y" {
		t.Fatalf("Error() = %q", got)
	}
	if got := es.Prefix(NewPath("Pools").Key("p"))[1].Path.String(); got != `Pools["p"].Y` {
		t.Fatalf("Prefix = %q", got)
	}
}

func TestShorten(t *testing.T) {
	tests := []struct {
		s    string
		max  int
		want string
	}{
		{"abc", 3, "abc"},
		{"abcd", 3, "ab…"},
		{"ééééé", 4, "ééé…"},
	}
	for _, tt := range tests {
		if got := Shorten(tt.s, tt.max); got != tt.want {
			t.Errorf("Shorten(%q, %d) = %q, want %q", tt.s, tt.max, got, tt.want)
		}
	}
	if got := JoinAnd([]string{"a", "b", "c"}); got != "a, b and c" {
		t.Errorf("JoinAnd = %q", got)
	}
	if got := QuoteList([]string{"a", "b"}); got != `"a", "b"` {
		t.Errorf("QuoteList = %q", got)
	}
}
