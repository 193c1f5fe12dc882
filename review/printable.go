package review

import (
	"strconv"
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
