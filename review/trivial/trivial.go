package trivial

import (
	"strings"
	"unicode"

	"github.com/diffdesk/diffdesk/engine"
)

// Kind says why a hunk needs no close reading: it changes only
// whitespace, only comments, or only what the project's formatter would
// change anyway. The window labels such hunks, and one key approves them
// all.
type Kind string

// The trivial kinds, as the window labels them.
const (
	Whitespace Kind = "whitespace only"
	Comment    Kind = "comment only"
	Formatting Kind = "formatting only"
	// EOFNewline: only the newline at the end of the file comes or
	// goes; the two sides' lines read the same, and without the label the
	// change could not be told.
	EOFNewline Kind = "newline at end of file only"
)

// Classify returns the hunks of a file's diff (hunks, of base against
// proposed; as review.File.Hunks gives them) that change only whitespace or only
// comments, by id. Whitespace-only: engine.WhitespaceOnly, and, in a
// language the syntax table knows, no whitespace inside a string literal
// changed. Comment-only: the changed lines are the same code once comments
// and whitespace are taken out (a comment added, removed or reworded,
// alone on its lines or after code), in a language the table knows. In
// Python, YAML and Makefiles indentation counts as code. Formatting-only
// hunks need the formatter: File.Formatting.
func Classify(path, base, proposed string, hunks []engine.Hunk) map[string]Kind {
	out := map[string]Kind{}
	if len(hunks) == 0 {
		return out
	}
	a, b := engine.SplitLines(base), engine.SplitLines(proposed)
	syn := syntaxFor(path)
	var sa, sb lineSigs
	if syn != nil {
		// Only the changed lines are compared: their signatures are all
		// the scan builds.
		wantA, wantB := make([]bool, len(a)), make([]bool, len(b))
		for _, h := range hunks {
			c := h.Change
			if c.A1 > len(a) || c.B1 > len(b) {
				continue
			}
			for i := c.A0; i < c.A1; i++ {
				wantA[i] = true
			}
			for i := c.B0; i < c.B1; i++ {
				wantB[i] = true
			}
		}
		sa, sb = syn.scan(a, wantA), syn.scan(b, wantB)
	}
	for _, h := range hunks {
		c := h.Change
		if c.A1 > len(a) || c.B1 > len(b) {
			continue
		}
		del, ins := a[c.A0:c.A1], b[c.B0:c.B1]
		if c.A1 == len(a) && c.B1 == len(b) && eofNewlineOnly(del, ins) {
			out[h.ID] = EOFNewline
			continue
		}
		if syn == nil {
			if engine.WhitespaceOnly(del, ins, false) {
				out[h.ID] = Whitespace
			}
			continue
		}
		indentOK := !syn.indent || sameIndents(del, sa.codes(c.A0, c.A1), ins, sb.codes(c.B0, c.B1))
		switch {
		case !indentOK:
		case engine.WhitespaceOnly(del, ins, syn.indent) && norm(sa.alls(c.A0, c.A1)) == norm(sb.alls(c.B0, c.B1)):
			out[h.ID] = Whitespace
		case norm(sa.codes(c.A0, c.A1)) == norm(sb.codes(c.B0, c.B1)):
			out[h.ID] = Comment
		}
	}
	return out
}

// eofNewlineOnly reports whether the last lines of a file, del before and
// ins after, differ only by the newline ending the last one.
func eofNewlineOnly(del, ins []string) bool {
	x, y := strings.Join(del, ""), strings.Join(ins, "")
	if x == y {
		return false
	}
	trim := func(s string) string { return strings.TrimSuffix(strings.TrimSuffix(s, "\n"), "\r") }
	// The side without the newline ends in a line of its own (a blank
	// line added at the end is whitespace, not this).
	return trim(x) == trim(y) && (x != "" && x == trim(x) || y != "" && y == trim(y))
}

// sameIndents reports whether the lines holding code (their code
// signature not blank) are as many on both sides and each keeps its
// leading whitespace.
func sameIndents(del, delCode, ins, insCode []string) bool {
	indents := func(lines, code []string) []string {
		var out []string
		for i, l := range lines {
			if strings.TrimSpace(strings.ReplaceAll(code[i], string(sigStrSpace), "")) == "" {
				continue
			}
			out = append(out, l[:len(l)-len(strings.TrimLeftFunc(l, unicode.IsSpace))])
		}
		return out
	}
	x, y := indents(del, delCode), indents(ins, insCode)
	if len(x) != len(y) {
		return false
	}
	for i := range x {
		if x[i] != y[i] {
			return false
		}
	}
	return true
}
