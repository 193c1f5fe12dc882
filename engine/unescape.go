package engine

import "strings"

// Over-escaped strings: Gemini models sometimes send old_string and
// new_string with their escapes doubled, so a newline arrives as the two
// characters `\n` and a quote as `\"`. SmartEdit tries the unescaped pair
// when the literal one is not found (StrategyUnescaped).

// unescapeGemini undoes over-escaping the way Gemini CLI's
// unescapeStringForGeminiBug does: any run of one or more backslashes
// followed by n, t, r, ', ", `, a backslash or a real newline becomes that
// character, decoded (`\n` and `\\\n` give a newline, `\\` gives one
// backslash). A lone backslash before anything else is kept. It is
// aggressive on purpose: `C:\Users\name` becomes `C:\Users` + newline + `ame`.
func unescapeGemini(s string) string {
	i := strings.IndexByte(s, '\\')
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i >= 0 {
		b.WriteString(s[:i])
		j := i
		for j < len(s) && s[j] == '\\' {
			j++
		}
		if j < len(s) {
			if c, ok := unescapedChar(s[j]); ok {
				b.WriteByte(c)
				s = s[j+1:]
				i = strings.IndexByte(s, '\\')
				continue
			}
		}
		// No escapable character follows: a run of two or more is an
		// escaped backslash and a single backslash stays as it is; either
		// way one backslash remains.
		b.WriteByte('\\')
		s = s[j:]
		i = strings.IndexByte(s, '\\')
	}
	b.WriteString(s)
	return b.String()
}

// unescapedChar decodes the character after an escaping backslash run.
func unescapedChar(c byte) (byte, bool) {
	switch c {
	case 'n', '\n':
		return '\n', true
	case 't':
		return '\t', true
	case 'r':
		return '\r', true
	case '\'', '"', '`':
		return c, true
	}
	return 0, false
}
