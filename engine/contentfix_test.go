package engine

import "testing"

func TestFixModelContent(t *testing.T) {
	tests := []struct {
		name, text, model, path, want string
	}{
		{"claude untouched", "a &lt; b\uFFFD", "claude-sonnet-4", "x.go", "a &lt; b\uFFFD"},
		{"claude check is case-sensitive", "a &lt; b", "Claude-X", "x.go", "a < b"},
		{"other model unescapes", "a &lt; b &amp;&amp; c &gt; d", "gpt-4o", "x.go", "a < b && c > d"},
		{"amp decoded after lt", "&amp;lt;", "gpt-4o", "", "&lt;"},
		{"xml keeps entities", "&lt;a&gt;\uFFFD", "gpt-4o", "conf/X.XML", "&lt;a&gt;"},
		{"xml only as extension", "&lt;", "gpt-4o", "xml.txt", "<"},
		{"no model", "&quot;q&quot; &apos;s&apos;", "", "", `"q" 's'`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := FixModelContent(tt.text, tt.model, tt.path); got != tt.want {
				t.Errorf("FixModelContent(%q, %q, %q) = %q; want %q", tt.text, tt.model, tt.path, got, tt.want)
			}
		})
	}
}

func TestRemoveInvalidChars(t *testing.T) {
	for in, want := range map[string]string{"": "", "\uFFFD\uFFFD": "", "a\uFFFDb": "ab", "é": "é"} {
		if got := RemoveInvalidChars(in); got != want {
			t.Errorf("RemoveInvalidChars(%q) = %q; want %q", in, got, want)
		}
	}
}
