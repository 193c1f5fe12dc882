package review_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
)

// TestApprovedText: the approved text is the final content with the
// formatter's patch undone, for edits anywhere, line endings of every kind
// and last lines with and without a newline; a patch that does not fit
// the content gives false, never a wrong text.
func TestApprovedText(t *testing.T) {
	cases := []struct{ approved, final string }{
		{"a\nb\nc\n", "a\nB\nc\n"},
		{"a\nb", "a\nb\n"},
		{"a\nb\n", "a\nb"},
		{"x", "y"},
		{"", "package p\n"},
		{"one\r\ntwo\r\n", "one\r\n\r\ntwo\r\n"},
		{"a\rb\rc", "a\rB\rc"},
		{"func f() {\n\treturn 1\n}\n" + strings.Repeat("z\n", 20) + "end", "func f() {\n  return 1\n}\n" + strings.Repeat("z\n", 20) + "end\n"},
	}
	r := rand.New(rand.NewPCG(1, 2))
	words := []string{"a\n", "b\n", "c\n", "\n", "d", "e\r\n"}
	for range 300 {
		var a, b strings.Builder
		for range r.IntN(30) {
			w := words[r.IntN(len(words))]
			a.WriteString(w)
			switch r.IntN(4) {
			case 0:
				b.WriteString(words[r.IntN(len(words))])
			case 1:
			default:
				b.WriteString(w)
			}
		}
		cases = append(cases, struct{ approved, final string }{a.String(), b.String()})
	}
	for _, c := range cases {
		fo := review.FileOutcome{FinalContent: c.final, AutoFormatEdits: engine.Unified("approved/a", "final/a", c.approved, c.final, 3)}
		got, ok := fo.ApprovedText()
		if c.approved == c.final {
			if ok {
				t.Errorf("ApprovedText with no formatter change = %q, true; want false", got)
			}
			continue
		}
		if !ok || got != c.approved {
			t.Errorf("ApprovedText(final %q, patch %q) = %q, %v; want %q", c.final, fo.AutoFormatEdits, got, ok, c.approved)
		}
	}
	fo := review.FileOutcome{FinalContent: "q\nr\n", AutoFormatEdits: engine.Unified("approved/a", "final/a", "a\nb\n", "a\nB\n", 3)}
	if got, ok := fo.ApprovedText(); ok {
		t.Errorf("ApprovedText of a patch that does not fit the content = %q, true; want false", got)
	}
}
