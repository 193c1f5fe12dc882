package engine

import (
	"strings"
	"unicode"
)

// WhitespaceOnly reports whether a change's removed lines (del) and added
// lines (ins) differ only in whitespace: the same text once every
// whitespace character, line ends included, is taken out (blank lines
// added or removed, re-indented or re-wrapped lines, a space before a
// brace). With keepIndent, for languages where indentation is syntax
// (Python, YAML, Makefiles), the non-blank lines must also be as many and
// each keep its leading whitespace.
//
// It knows no language: whitespace inside a string literal counts as
// whitespace here. review's classification, which knows where strings
// and comments are, refines it.
func WhitespaceOnly(del, ins []string, keepIndent bool) bool {
	if stripAllSpace(del) != stripAllSpace(ins) {
		return false
	}
	if !keepIndent {
		return true
	}
	a, b := indents(del), indents(ins)
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// stripAllSpace returns lines joined without any whitespace.
func stripAllSpace(lines []string) string {
	var b strings.Builder
	for _, l := range lines {
		for _, r := range l {
			if !unicode.IsSpace(r) {
				b.WriteRune(r)
			}
		}
	}
	return b.String()
}

// indents returns the leading whitespace of each non-blank line.
func indents(lines []string) []string {
	var out []string
	for _, l := range lines {
		t := strings.TrimLeftFunc(l, unicode.IsSpace)
		if strings.TrimSpace(t) == "" {
			continue
		}
		out = append(out, l[:len(l)-len(t)])
	}
	return out
}
