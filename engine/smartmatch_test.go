package engine

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
)

func TestReindent(t *testing.T) {
	tests := []struct {
		lines  []string
		target string
		want   []string
	}{
		{[]string{"if a {", "    b()", "}"}, "\t", []string{"\tif a {", "\t    b()", "\t}"}},
		{[]string{"  x", "    y", "z"}, "", []string{"x", "  y", "z"}},
		{[]string{"", "  x", "   "}, "\t", []string{"", "\t  x", ""}},
	}
	for _, tt := range tests {
		if got := reindent(tt.lines, tt.target); fmt.Sprint(got) != fmt.Sprint(tt.want) {
			t.Errorf("reindent(%q, %q) = %q; want %q", tt.lines, tt.target, got, tt.want)
		}
	}
}

// tokenRegexp is Gemini's regex strategy as a Go regexp, the reference
// tokenPlaces must agree with on ASCII text.
func tokenRegexp(old string) *regexp.Regexp {
	tokens := strings.Fields(padDelimiters(old))
	for i, t := range tokens {
		tokens[i] = regexp.QuoteMeta(t)
	}
	return regexp.MustCompile(`(?m)^([ \t]*)` + strings.Join(tokens, `\s*`))
}

// FuzzTokenPlaces checks the token matcher against the regexp it replaces.
func FuzzTokenPlaces(f *testing.F) {
	f.Add("  foo(a,b) {\n  }\n", "foo ( a , b ) {")
	f.Add("f( 1 )\nf( 1 )\n", "f(1)")
	f.Add("aaa\n aa a\n", "a a")
	f.Fuzz(func(t *testing.T, content, old string) {
		for _, r := range content + old {
			if r > 0x7e || r == '\v' || r == '\r' {
				return // JavaScript's \s and Go's differ outside plain ASCII
			}
		}
		places := tokenPlaces(content, old, "x")
		if strings.TrimSpace(old) == "" {
			if len(places) != 0 {
				t.Fatalf("tokenPlaces(%q, blank) = %v; want none", content, places)
			}
			return
		}
		want := tokenRegexp(old).FindAllStringIndex(content, -1)
		got := make([][]int, len(places))
		for i, p := range places {
			got[i] = []int{p.start, p.end}
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("tokenPlaces(%q, %q) = %v; the regexp finds %v", content, old, got, want)
		}
	})
}

// flexibleReference is Gemini's flexible scan as written: every window, in
// order, skipping past a match.
func flexibleReference(content, old string) [][2]int {
	search := strings.Split(old, "\n")
	lines := splitLines(content)
	var out [][2]int
	off := make([]int, len(lines)+1)
	for i, l := range lines {
		off[i+1] = off[i] + len(l)
	}
	for i := 0; i+len(search) <= len(lines); {
		ok := true
		for j, s := range search {
			if jsTrim(lines[i+j]) != jsTrim(s) {
				ok = false
				break
			}
		}
		if !ok {
			i++
			continue
		}
		out = append(out, [2]int{off[i], off[i+len(search)]})
		i += len(search)
	}
	return out
}

// FuzzFlexiblePlaces checks the anchored flexible matcher against the plain
// window scan.
func FuzzFlexiblePlaces(f *testing.F) {
	f.Add("  a\n  b\n  a\n  b\n", "a\nb")
	f.Add("x\n\n y\n", "\ny")
	f.Add("}\n}\n}\n", "}\n}")
	f.Fuzz(func(t *testing.T, content, old string) {
		places := flexiblePlaces(content, old, "x")
		got := make([][2]int, len(places))
		for i, p := range places {
			got[i] = [2]int{p.start, p.end}
		}
		if want := flexibleReference(content, old); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("flexiblePlaces(%q, %q) = %v; the window scan finds %v", content, old, got, want)
		}
	})
}
