package engine

import (
	"strings"
	"testing"
)

func TestUnescapeGemini(t *testing.T) {
	tests := []struct{ in, want string }{
		{`\n`, "\n"},
		{`a\tb`, "a\tb"},
		{`\"quoted\"`, `"quoted"`},
		{`\'`, `'`},
		{"\\`", "`"},
		{`\r`, "\r"},
		{"line\\\nnext", "line\nnext"}, // backslash before a real newline
		{`\\\n`, "\n"},                 // a run of backslashes collapses
		{`\\`, `\`},                    // an escaped backslash
		{`C:\Folder\File`, `C:\Folder\File`},
		{`C:\Users\name`, "C:\\Users\name"}, // aggressive, as upstream
		{`path\\to\\file`, "path\to\\file"},
		{`trailing\`, `trailing\`},
		{"", ""},
	}
	for _, tt := range tests {
		if got := unescapeGemini(tt.in); got != tt.want {
			t.Errorf("unescapeGemini(%q) = %q; want %q", tt.in, got, tt.want)
		}
	}
}

// FuzzUnescapeGemini checks that unescaping never panics, never lengthens
// the text, leaves text without backslashes alone and leaves no backslash
// directly before an escapable character.
func FuzzUnescapeGemini(f *testing.F) {
	f.Add(`a\\nb\"c`)
	f.Add("\\\\\\\n\\`")
	f.Fuzz(func(t *testing.T, s string) {
		got := unescapeGemini(s)
		if len(got) > len(s) {
			t.Fatalf("unescapeGemini(%q) = %q is longer", s, got)
		}
		if !strings.Contains(s, `\`) && got != s {
			t.Fatalf("unescapeGemini(%q) = %q; want it unchanged", s, got)
		}
		for _, seq := range []string{`\n`, `\t`, `\r`, `\'`, `\"`, "\\`", "\\\n", `\\`} {
			if strings.Contains(got, seq) && !strings.Contains(s, seq) {
				t.Fatalf("unescapeGemini(%q) = %q made a new %q", s, got, seq)
			}
		}
	})
}
