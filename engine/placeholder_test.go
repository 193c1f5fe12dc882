package engine

import (
	"fmt"
	"strings"
	"testing"
)

func TestOmissionPlaceholders(t *testing.T) {
	tests := []struct {
		text string
		want []string
	}{
		{"// rest of code ...", []string{"rest of code ..."}},
		{"  (Unchanged   Methods .....)  ", []string{"unchanged methods ..."}},
		{"# rest of method ...", []string{"rest of method ..."}},
		{"-- rest of ...", []string{"rest of ..."}},
		{"/* unchanged code ... */", []string{"unchanged code ..."}},
		{"a\n// rest of code ...\nb\n(rest of methods ...)", []string{"rest of code ...", "rest of methods ..."}},
		{"x := 1 // rest of code ...", nil},
		{`s := "(rest of code ...)"`, nil},
		{"// rest of code ... more", nil},
		{"// the rest of code ...", nil},
		{"loading...", nil},
	}
	for _, tt := range tests {
		if got := omissionPlaceholders(tt.text); fmt.Sprint(got) != fmt.Sprint(tt.want) {
			t.Errorf("omissionPlaceholders(%q) = %q; want %q", tt.text, got, tt.want)
		}
	}
}

func TestIntroducedPlaceholder(t *testing.T) {
	tests := []struct{ old, new, want string }{
		{"a\nb", "a\n// rest of code ...", "rest of code ..."},
		{"a\n// rest of code ...", "b\n// rest of code ...", ""},
		{"a\n// rest of code ...", "b\n// unchanged code ...", "unchanged code ..."},
		{"a", "b", ""},
	}
	for _, tt := range tests {
		if got := introducedPlaceholder(tt.old, tt.new); got != tt.want {
			t.Errorf("introducedPlaceholder(%q, %q) = %q; want %q", tt.old, tt.new, got, tt.want)
		}
	}
}

// FuzzOmissionPlaceholders checks that detection never panics and yields
// only normalised placeholders, one per line at most.
func FuzzOmissionPlaceholders(f *testing.F) {
	f.Add("(rest of methods ...)\n// unchanged code ....")
	f.Add("/* rest of ... */")
	f.Fuzz(func(t *testing.T, text string) {
		got := omissionPlaceholders(text)
		if len(got) > strings.Count(toLF(text), "\n")+1 {
			t.Fatalf("omissionPlaceholders(%q) = %q: more than one per line", text, got)
		}
		for _, p := range got {
			if !strings.HasSuffix(p, " ...") || !placeholderPhrase(strings.TrimSuffix(p, " ...")) {
				t.Fatalf("omissionPlaceholders(%q) gave %q", text, p)
			}
		}
	})
}
