package diffview

import (
	"testing"
	"unicode/utf8"

	"fyne.io/fyne/v2"
)

// TestDoubleClickOnALetterOfSeveralBytes: a double click on "é" of
// "héllo", or on a wide "語", selects the word, not a byte in the middle
// of the letter (Ctrl+C copied one invalid byte).
func TestDoubleClickOnALetterOfSeveralBytes(t *testing.T) {
	v, _ := newTestView(t, 900, 200)
	v.SetTexts("f.go", editOld, "func f() {\n\treturn héllo + 語句\n}\n")
	mt := v.metric
	xTextR := mt.leftW + mt.gutW + mt.numW
	// "\treturn héllo + 語句": the tab is cells 0–3, "return" 4–9, "h" 11,
	// "é" 12, "+" 17, "語" 19–20.
	for _, c := range []struct {
		cell int
		want string
	}{{12, "héllo"}, {20, "語句"}} {
		rowWidget(t, v, 1).DoubleTapped(&fyne.PointEvent{Position: fyne.NewPos(xTextR+padText+float32(c.cell)*mt.cell+1, mt.line/2)})
		if got := v.Selection().Text(); got != c.want || !utf8.ValidString(got) {
			t.Errorf("selected %q after a double click on cell %d; want %q", got, c.cell, c.want)
		}
	}
}
