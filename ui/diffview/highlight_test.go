package diffview

import (
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"
	"github.com/alecthomas/chroma/v2"
)

// With unchanged regions folded, the lines on one screen lie in runs far
// apart: only they, and a few lines of context before each run, are
// tokenised, never the folded lines between them.
func TestFoldedScreenTokenisesOnlyItsLines(t *testing.T) {
	v, _ := newTestView(t, 1400, 900)
	v.Folds().Collapse(true)
	v.SetTexts("big.go", goSource(10000, nil), goSource(10000, every20th))
	top, vis := v.topRow(), v.visibleRows()
	near := v.tokenLinesIn(top-hlMargin, top+vis+hlMargin)
	for side := range 2 {
		ok := map[int]bool{}
		for _, l := range near[side] {
			for k := l - hlContext; k <= l; k++ {
				ok[k] = true
			}
		}
		v.hl.mu.Lock()
		for l := range v.hl.cache[side] {
			if !ok[l] {
				t.Errorf("side %d: line %d was tokenised; it is neither on screen, in the margin, nor context before one that is", side, l)
			}
		}
		n := len(v.hl.cache[side])
		v.hl.mu.Unlock()
		if side == 0 && n == 0 {
			t.Fatal("nothing tokenised")
		}
	}
	// An unchanged line is tokenised once, for both sides.
	for r := top; r < top+vis; r++ {
		if rw := v.model.Row(r); rw.kind == rowEqual {
			if s, _ := v.rowTokenLine(rw, 1); s != 0 {
				t.Fatalf("row %d is unchanged but its right side has tokens of its own", r)
			}
		}
	}
}

func TestHighlightArrivesInOneRefresh(t *testing.T) {
	test.NewTempApp(t)
	refreshes := 0
	h := newHighlighter(func() { refreshes++ })
	h.reset("main.go")
	// More lines than want tokenises at once (hlSyncLines): the worker's.
	lines := strings.Split(strings.Repeat(sampleNew, hlSyncLines/10), "\n")
	get := func(i int) string { return lines[i] }
	all := func() []int {
		out := make([]int, len(lines))
		for i := range out {
			out[i] = i
		}
		return out
	}
	h.want(0, 0, all, get, len(lines))
	h.want(1, 0, all, get, len(lines))
	h.wait()
	if _, ok := h.tokens(0, 0); !ok {
		t.Fatal("no tokens for line 0 after the worker finished")
	}
	if toks, _ := h.tokens(1, 0); len(toks) == 0 || !toks[0].typ.InCategory(chroma.Keyword) {
		t.Errorf("tokens of %q = %v; want a keyword first", lines[0], toks)
	}
	if refreshes < 1 || refreshes > 2 {
		t.Errorf("refreshes = %d; want one per burst (1, or 2 if the worker finished between the asks)", refreshes)
	}
}

// A screen's lines are tokenised when a row asks for them, on its
// goroutine: the row is drawn in its colours in the same frame, not drawn
// plain and again when the worker is done (a second frame in the window).
func TestHighlightOfAScreenIsThereAtOnce(t *testing.T) {
	test.NewTempApp(t)
	refreshes := 0
	h := newHighlighter(func() { refreshes++ })
	h.reset("main.go")
	lines := strings.Split(strings.TrimSuffix(sampleNew, "\n"), "\n")
	get := func(i int) string { return lines[i] }
	all := func() []int {
		out := make([]int, len(lines))
		for i := range out {
			out[i] = i
		}
		return out
	}
	h.want(1, 0, all, get, len(lines))
	if toks, ok := h.tokens(1, 0); !ok || len(toks) == 0 || !toks[0].typ.InCategory(chroma.Keyword) {
		t.Errorf("right after want: tokens of %q = %v (cached %v); want a keyword first", lines[0], toks, ok)
	}
	h.wait()
	if refreshes != 0 {
		t.Errorf("refreshes = %d; want none (nothing was drawn without its colours)", refreshes)
	}
}

func TestNewTextsNeverShowOldTokens(t *testing.T) {
	v, _ := newTestView(t, 800, 300)
	first := numbered(300, func(k int) string { return fmt.Sprintf("// comment %d\n", k) })
	v.SetTexts("a.go", first, first)
	v.list.ScrollToOffset(v.wr.rowY(100))
	second := strings.Repeat("x := y + 1\n", 300)
	v.SetTexts("a.go", second, second)
	want := tokenise(lexerFor("a.go"), []string{"x := y + 1"})[0]
	for i := range 20 {
		got, ok := v.hl.tokens(0, i)
		if ok && fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("tokens of line %d = %v; want %v (the new text's)", i, got, want)
		}
	}
}
