package review

import "testing"

func TestPrintable(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"claude-code", "claude-code"},
		{"src/main.go", "src/main.go"},
		{"naïve/日本.txt", "naïve/日本.txt"},
		{"a\nb", `"a\nb"`},
		{"x\x1b[31m", `"x\x1b[31m"`},
		{"evil\u202egpj.exe", `"evil\u202egpj.exe"`},
		{"bad\xffutf8", `"bad\xffutf8"`},
		{"c1\u009bx", `"c1\u009bx"`},
	} {
		if got := Printable(tt.in); got != tt.want {
			t.Errorf("Printable(%q) = %s; want %s", tt.in, got, tt.want)
		}
	}
}
