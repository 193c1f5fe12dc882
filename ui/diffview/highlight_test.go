package diffview

import (
	"testing"
)

// With unchanged regions folded, the lines on one screen lie in runs far
// apart: only they, and a few lines of context before each run, are
// tokenised, never the folded lines between them.
func TestFoldedScreenTokenisesOnlyItsLines(t *testing.T) {
	v, _ := newTestView(t, 1400, 900)
	v.SetCollapse(true)
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
