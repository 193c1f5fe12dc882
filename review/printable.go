package review

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Printable returns s as it is when it holds only printable text, and
// otherwise quoted with its control characters (C0, DEL, C1),
// bidirectional-text controls and invalid UTF-8 escaped ("a\nb" →
// `"a\nb"`). Print paths, agent names and sessions through it: such a
// string from an agent must not move a terminal's cursor, recolour it,
// forge a line of output, or reorder what the person reads.
func Printable(s string) string {
	for _, r := range s {
		if r == utf8.RuneError || unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) {
			return strconv.QuoteToGraphic(s)
		}
	}
	return s
}

// PrintableText returns free text — a reviewer's feedback, an agent's
// SEARCH text quoted in a failure, a comment, an outcome's text — safe to
// print to a terminal: line breaks and tabs stay, and every other control
// character (ESC, CR, BEL, …, C1), bidirectional-text control and byte of
// invalid UTF-8 is written as its escape (`\x1b`, `\u202e`, `\xff`), so
// no text from an agent or a far window moves the cursor, recolours the
// terminal, rewrites a line already shown or reorders what is read.
func PrintableText(s string) string {
	clean := true
	for _, r := range s {
		if r == utf8.RuneError || r != '\n' && r != '\t' && (unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r)) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n <= 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\n' || r == '\t':
			b.WriteRune(r)
		case r < 0x80 && unicode.IsControl(r):
			fmt.Fprintf(&b, `\x%02x`, r)
		case unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}
