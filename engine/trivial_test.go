package engine

import "testing"

func TestWhitespaceOnly(t *testing.T) {
	for _, c := range []struct {
		name       string
		del, ins   []string
		keepIndent bool
		want       bool
	}{
		{"re-indented", []string{"\tx := 1\n"}, []string{"        x := 1\n"}, false, true},
		{"spaces around an operator", []string{"x:=1\n"}, []string{"x := 1\n"}, false, true},
		{"a blank line added", nil, []string{"\n"}, false, true},
		{"a trailing space removed", []string{"x \n"}, []string{"x\n"}, false, true},
		{"a line re-wrapped", []string{"f(a, b)\n"}, []string{"f(a,\n", "  b)\n"}, false, true},
		{"crlf to lf", []string{"x\r\n"}, []string{"x\n"}, false, true},
		{"a character changed", []string{"x := 1\n"}, []string{"x := 2\n"}, false, false},
		{"a line added", []string{"x\n"}, []string{"x\n", "y\n"}, false, false},
		{"python re-indented", []string{"    return x\n"}, []string{"return x\n"}, true, false},
		{"python spaces inside a line", []string{"    x=1\n"}, []string{"    x = 1\n"}, true, true},
		{"python blank lines", []string{"\n"}, []string{"\n", "   \n"}, true, true},
	} {
		if got := WhitespaceOnly(c.del, c.ins, c.keepIndent); got != c.want {
			t.Errorf("%s: WhitespaceOnly(%q, %q, %v) = %v; want %v", c.name, c.del, c.ins, c.keepIndent, got, c.want)
		}
	}
}
